//! Builds jieba's dictionary into a trie the tokenizer uses as static data, so a process
//! pays nothing to load it (jieba-rs parses the 349,045 entries at every start: ~80 ms).
//!
//! A node is a prefix of some word. Arrays go to OUT_DIR in the target's byte order:
//! - `table` (u64): a hash table of the nodes keyed by (parent, character), linear probing;
//!   a node's id is its slot, and the slot holds its character (21 bits), its parent's id
//!   (20 bits), an index into `freq_values` (13 bits; 0 = no word ends here) and a
//!   signature of its children's characters (10 bits), 0 when empty. Finding a child is
//!   then one memory read (and rarely a probe further), not a read of an id and another of
//!   the node, and most searches for a child that does not exist end at the signature,
//!   without reading the table at all;
//! - `root` (u64 per BMP code point): the one-character node's slot (20 bits; 0 = none),
//!   frequency index (13 bits) and where its children's signature starts in `root_sigs`
//!   (31 bits), so the first character never reads the table;
//! - `root_sigs` (u64): the one-character nodes' signatures, 512 bits each; the first is
//!   all zero, for the nodes without children;
//! - `freq_values` (u32): the distinct frequencies in order, entry 0 being 0;
//!
//! and `total.txt`, the sum of all frequencies. `src/packing.rs` has the field widths.

use std::io::Read;
use std::path::PathBuf;

const DICT: &str = "data/jieba-dict.txt.gz";

include!("src/packing.rs");

fn main() {
    println!("cargo:rerun-if-changed={DICT}");
    println!("cargo:rerun-if-changed=src/packing.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(dir.join(DICT)).expect("open the jieba dictionary"),
    )
    .read_to_string(&mut text)
    .expect("read the jieba dictionary");

    let mut words: Vec<(Vec<char>, u32)> = Vec::new();
    let mut total: u64 = 0;
    for (i, line) in text.lines().enumerate() {
        let mut fields = line.split_ascii_whitespace();
        let Some(word) = fields.next() else { continue };
        let freq: u32 = fields
            .next()
            .and_then(|f| f.parse().ok())
            .filter(|&f| f > 0)
            .unwrap_or_else(|| panic!("{DICT} line {}: no positive frequency", i + 1));
        total += u64::from(freq);
        words.push((word.chars().collect(), freq));
    }
    words.sort_unstable();
    assert!(
        words.windows(2).all(|w| w[0].0 != w[1].0),
        "{DICT} repeats a word"
    );

    // Level by level: in the sorted list, the words sharing a prefix of length d are
    // consecutive, so each run of equal (parent, d-th character) is one node.
    let mut labels = vec![0u32];
    let mut freqs = vec![0u32];
    let mut parents = vec![0u32];
    let mut node_of = vec![0u32; words.len()];
    let longest = words.iter().map(|w| w.0.len()).max().unwrap_or(0);
    for depth in 1..=longest {
        let mut last: Option<(u32, char)> = None;
        for (i, (word, freq)) in words.iter().enumerate() {
            if word.len() < depth {
                continue;
            }
            let key = (node_of[i], word[depth - 1]);
            if last != Some(key) {
                labels.push(key.1 as u32);
                freqs.push(0);
                parents.push(key.0);
                last = Some(key);
            }
            let id = (labels.len() - 1) as u32;
            node_of[i] = id;
            if word.len() == depth {
                freqs[id as usize] = *freq;
            }
        }
    }
    // Nodes keep an index into the sorted distinct frequencies (5,087 of them), so their
    // logarithms can be taken once per process rather than once per lookup.
    let mut values: Vec<u32> = freqs.clone();
    values.sort_unstable();
    values.dedup();
    for f in freqs.iter_mut() {
        *f = values.binary_search(f).expect("a frequency") as u32;
    }
    let nodes = labels.len();
    assert!(
        nodes < 1 << PARENT_BITS && values.len() <= 1 << FREQ_BITS,
        "the trie outgrew its packing"
    );
    // Open addressing, linear probing, load factor under 1/2. Slot 0 stands for the root
    // (nobody's child) and is never used; a parent comes before its children (ids grow with
    // depth), so its slot is known when they are placed.
    let bits = (2 * nodes).next_power_of_two().trailing_zeros();
    assert!(bits <= PARENT_BITS, "the trie outgrew its packing");
    // One-character nodes of the BMP are read from `root`, their signatures from `root_sigs`.
    let in_root = |id: usize| id > 0 && parents[id] == 0 && labels[id] < 0x1_0000;
    let words = (ROOT_SIG_BITS / 64) as usize;
    let mut sigs = vec![0u64; nodes];
    let mut sig_at = vec![0usize; nodes];
    let mut root_sigs = vec![0u64; words];
    for id in 1..nodes {
        let parent = parents[id] as usize;
        if in_root(parent) {
            if sig_at[parent] == 0 {
                sig_at[parent] = root_sigs.len();
                root_sigs.resize(root_sigs.len() + words, 0);
            }
            let bit = sig_bit(labels[id], ROOT_SIG_BITS);
            root_sigs[sig_at[parent] + bit / 64] |= 1 << (bit % 64);
        } else {
            sigs[parent] |= 1 << sig_bit(labels[id], SIG_BITS);
        }
    }
    assert!(
        root_sigs.len() < 1 << (64 - PARENT_BITS - FREQ_BITS),
        "the trie outgrew its packing"
    );
    let mut table = vec![0u64; 1 << bits];
    let mut slot_of_id = vec![0u32; nodes];
    for id in 1..nodes {
        let key = key(slot_of_id[parents[id] as usize], labels[id]);
        let mut slot = slot_of(key, bits);
        while slot == 0 || table[slot] != 0 {
            slot = (slot + 1) & (table.len() - 1);
        }
        // (A one-character node of the BMP has its signature in `root_sigs`.)
        table[slot] =
            (sigs[id] << FREQ_BITS | u64::from(freqs[id])) << (CHAR_BITS + PARENT_BITS) | key;
        assert_ne!(table[slot], 0, "a node packs to the empty slot");
        slot_of_id[id] = slot as u32;
    }
    let mut root = vec![0u64; 0x1_0000];
    for id in (1..nodes).filter(|&id| in_root(id)) {
        root[labels[id] as usize] = (sig_at[id] as u64) << (FREQ_BITS + PARENT_BITS)
            | u64::from(freqs[id]) << PARENT_BITS
            | u64::from(slot_of_id[id]);
    }

    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let big = std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() == Ok("big");
    let write = |name: &str, bytes: Vec<u8>| {
        std::fs::write(out.join(format!("{name}.bin")), bytes).expect("write the trie")
    };
    write(
        "table",
        encode(&table, big, u64::to_le_bytes, u64::to_be_bytes),
    );
    write(
        "root",
        encode(&root, big, u64::to_le_bytes, u64::to_be_bytes),
    );
    write(
        "root_sigs",
        encode(&root_sigs, big, u64::to_le_bytes, u64::to_be_bytes),
    );
    write(
        "freq_values",
        encode(&values, big, u32::to_le_bytes, u32::to_be_bytes),
    );
    std::fs::write(out.join("total.txt"), total.to_string()).expect("write the total");
}

/// `values` as bytes in the target's byte order.
fn encode<T: Copy, const N: usize>(
    values: &[T],
    big_endian: bool,
    le: fn(T) -> [u8; N],
    be: fn(T) -> [u8; N],
) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| if big_endian { be(v) } else { le(v) })
        .collect()
}
