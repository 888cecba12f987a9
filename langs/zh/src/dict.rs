//! jieba's dictionary as a static trie, built by `build.rs` and compiled into the binary.
//!
//! Nothing is parsed or allocated at start-up: the arrays are part of the executable and
//! the operating system pages in only what a run touches. See `build.rs` for the layout:
//! a node is found from its parent and character in a hash table of the nodes themselves,
//! one memory read, and a node's signature of its children's characters rules out most
//! children that do not exist (half the searches on MuCGEC) without that read.

use std::sync::OnceLock;

include!("packing.rs");

macro_rules! table {
    ($name:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".bin"))
    };
}

static TABLE: &[u8] = table!("table");
static ROOT: &[u8] = table!("root");
static ROOT_SIGS: &[u8] = table!("root_sigs");
static FREQ_VALUES: &[u8] = table!("freq_values");

/// Sum of every word's frequency.
pub const TOTAL: u64 = include!(concat!(env!("OUT_DIR"), "/total.txt"));

const KEY_MASK: u64 = (1 << (CHAR_BITS + PARENT_BITS)) - 1;
const FREQ_MASK: u64 = (1 << FREQ_BITS) - 1;

#[inline(always)]
fn u32_at(table: &[u8], i: usize) -> u32 {
    let i = i * 4;
    u32::from_ne_bytes([table[i], table[i + 1], table[i + 2], table[i + 3]])
}

#[inline(always)]
fn u64_at(table: &[u8], i: usize) -> u64 {
    let b = &table[i * 8..i * 8 + 8];
    u64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// A trie node: a prefix of at least one dictionary word; its id is its slot in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    id: u32,
    /// Index of the word's frequency in `FREQ_VALUES`; 0 if this prefix is not a word.
    freq: u32,
    sig: Sig,
}

/// The signature of a node's children's characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sig {
    /// `SIG_BITS` wide, from the node's table slot.
    Deep(u64),
    /// A one-character node's: `ROOT_SIG_BITS` wide, from this u64 of `ROOT_SIGS` on.
    Root(usize),
}

/// The node of the one-character prefix `c`, if a word starts with `c`.
#[inline]
pub fn first(c: char) -> Option<Node> {
    if c as usize >= ROOT.len() / 8 {
        return find(0, c);
    }
    match u64_at(ROOT, c as usize) {
        0 => None,
        packed => Some(Node {
            id: (packed & ((1 << PARENT_BITS) - 1)) as u32,
            freq: (packed >> PARENT_BITS & FREQ_MASK) as u32,
            sig: Sig::Root((packed >> (PARENT_BITS + FREQ_BITS)) as usize),
        }),
    }
}

/// The child of node `parent` labelled `c`.
#[inline]
fn find(parent: u32, c: char) -> Option<Node> {
    let key = key(parent, c as u32);
    let slots = TABLE.len() / 8;
    let mut slot = slot_of(key, slots.trailing_zeros());
    loop {
        let packed = u64_at(TABLE, slot);
        if packed == 0 {
            return None;
        }
        if packed & KEY_MASK == key {
            let high = packed >> (CHAR_BITS + PARENT_BITS);
            return Some(Node {
                id: slot as u32,
                freq: (high & FREQ_MASK) as u32,
                sig: Sig::Deep(high >> FREQ_BITS),
            });
        }
        slot = (slot + 1) & (slots - 1);
    }
}

impl Node {
    /// The node of this prefix followed by `c`, if a word starts with it.
    #[inline]
    pub fn next(self, c: char) -> Option<Node> {
        let may_have = match self.sig {
            Sig::Deep(bits) => bits >> sig_bit(c as u32, SIG_BITS) & 1,
            Sig::Root(at) => {
                let bit = sig_bit(c as u32, ROOT_SIG_BITS);
                u64_at(ROOT_SIGS, at + bit / 64) >> (bit % 64) & 1
            }
        };
        if may_have == 0 {
            return None;
        }
        find(self.id, c)
    }

    /// The word's frequency if this prefix is itself a word.
    pub fn freq(self) -> Option<u32> {
        Some(self.freq as usize)
            .filter(|&f| f > 0)
            .map(|f| u32_at(FREQ_VALUES, f))
    }

    /// `ln(frequency)` if this prefix is itself a word, as jieba-rs computes it.
    #[inline]
    pub fn log_freq(self) -> Option<f64> {
        static LOGS: OnceLock<Vec<f64>> = OnceLock::new();
        let f = self.freq as usize;
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

    /// Every word of the dictionary is found with its frequency (no signature rules out a
    /// child that exists), and every word's prefixes are nodes.
    #[test]
    fn every_word_is_found() {
        use std::io::Read;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/jieba-dict.txt.gz");
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let mut words = 0;
        for line in text.lines() {
            let mut fields = line.split_ascii_whitespace();
            let (Some(word), Some(f)) = (fields.next(), fields.next()) else {
                continue;
            };
            assert_eq!(freq(word), Some(f.parse().unwrap()), "{word}");
            words += 1;
        }
        assert_eq!(words, 349_045);
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
