//! jieba's dictionary as a static trie, built by `build.rs` and compiled into the binary.
//!
//! Nothing is parsed or allocated at start-up: the arrays are part of the executable and
//! the operating system pages in only what a run touches. See `build.rs` for the layout:
//! a node is found from its parent and character in a hash table of the nodes themselves,
//! one memory read.

use std::sync::OnceLock;

macro_rules! table {
    ($name:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".bin"))
    };
}

static TABLE: &[u8] = table!("table");
static ROOT: &[u8] = table!("root");
static FREQ_VALUES: &[u8] = table!("freq_values");

/// Sum of every word's frequency.
pub const TOTAL: u64 = include!(concat!(env!("OUT_DIR"), "/total.txt"));

// The packing of `nodes` (as in build.rs).
const CHAR_BITS: u32 = 21;
const PARENT_BITS: u32 = 30;
const KEY_MASK: u64 = (1 << (CHAR_BITS + PARENT_BITS)) - 1;

#[inline(always)]
fn u32_at(table: &[u8], i: usize) -> u32 {
    let i = i * 4;
    u32::from_ne_bytes([table[i], table[i + 1], table[i + 2], table[i + 3]])
}

/// The node in slot `slot` of the table (0 = empty).
#[inline(always)]
fn node_at(slot: usize) -> u64 {
    let i = slot * 8;
    let b = &TABLE[i..i + 8];
    u64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// A trie node: a prefix of at least one dictionary word; its id is its slot in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    id: u32,
    packed: u64,
}

/// The node of the one-character prefix `c`, if a word starts with `c`.
#[inline]
pub fn first(c: char) -> Option<Node> {
    match ROOT.get(c as usize * 4..) {
        Some(_) => match u32_at(ROOT, c as usize) {
            0 => None,
            id => Some(Node {
                id,
                packed: node_at(id as usize),
            }),
        },
        None => find(0, c),
    }
}

/// The child of node `parent` labelled `c`.
#[inline]
fn find(parent: u32, c: char) -> Option<Node> {
    let key = u64::from(parent) << CHAR_BITS | c as u64;
    let slots = TABLE.len() / 8;
    let mut slot =
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - slots.trailing_zeros())) as usize;
    loop {
        let packed = node_at(slot);
        if packed == 0 {
            return None;
        }
        if packed & KEY_MASK == key {
            return Some(Node {
                id: slot as u32,
                packed,
            });
        }
        slot = (slot + 1) & (slots - 1);
    }
}

impl Node {
    /// The node of this prefix followed by `c`, if a word starts with it.
    #[inline]
    pub fn next(self, c: char) -> Option<Node> {
        find(self.id, c)
    }

    /// Index of the word's frequency in `FREQ_VALUES`; 0 if this prefix is not a word.
    #[inline(always)]
    fn freq_index(self) -> usize {
        (self.packed >> (CHAR_BITS + PARENT_BITS)) as usize
    }

    /// The word's frequency if this prefix is itself a word.
    pub fn freq(self) -> Option<u32> {
        Some(self.freq_index())
            .filter(|&f| f > 0)
            .map(|f| u32_at(FREQ_VALUES, f))
    }

    /// `ln(frequency)` if this prefix is itself a word, as jieba-rs computes it.
    #[inline]
    pub fn log_freq(self) -> Option<f64> {
        static LOGS: OnceLock<Vec<f64>> = OnceLock::new();
        let f = self.freq_index();
        (f > 0).then(|| {
            LOGS.get_or_init(|| {
                (0..FREQ_VALUES.len() / 4)
                    .map(|i| f64::from(u32_at(FREQ_VALUES, i)).ln())
                    .collect()
            })[f]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn freq(word: &str) -> Option<u32> {
        let mut chars = word.chars();
        let mut node = first(chars.next()?)?;
        for c in chars {
            node = node.next(c)?;
        }
        node.freq()
    }

    #[test]
    fn words_prefixes_and_strangers() {
        // dict.txt: "北京大学 2053 nt", "北京 34488 ns", "1号店 3 n".
        assert_eq!(freq("北京大学"), Some(2053));
        assert_eq!(freq("北京"), Some(34488));
        assert_eq!(freq("1号店"), Some(3));
        assert_eq!(freq("北京大"), None, "a prefix only");
        assert_eq!(freq("杭研"), None);
        assert_eq!(first('\u{1F600}'), None);
        assert_eq!(TOTAL, 60_101_964);
    }
}
