// The packing of the trie, shared by build.rs (which writes it) and src/dict.rs (which
// reads it) through `include!`.

/// Bits of a node's character in a table slot.
const CHAR_BITS: u32 = 21;
/// Bits of a node's parent (a slot of the table, so at least the table's size in bits).
const PARENT_BITS: u32 = 20;
/// Bits of the index into the distinct frequencies.
const FREQ_BITS: u32 = 13;
/// Bits of the signature of a node's children's characters in a table slot (the rest of
/// the 64).
const SIG_BITS: u32 = 64 - CHAR_BITS - PARENT_BITS - FREQ_BITS;
/// Bits of the signature of a one-character node's children (in `root_sigs`): wider, as
/// a common character starts hundreds of words.
const ROOT_SIG_BITS: u32 = 512;

/// A node's key in the table: its parent's slot and its character.
#[inline(always)]
fn key(parent: u32, c: u32) -> u64 {
    u64::from(parent) << CHAR_BITS | u64::from(c)
}

/// Where the search for `key` starts in a table of 2^bits slots (Fibonacci hashing).
#[inline(always)]
fn slot_of(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// The signature bit of a child labelled `c`, among `width` bits: a node whose
/// signature lacks it has no such child, and the table need not be searched.
#[inline(always)]
fn sig_bit(c: u32, width: u32) -> usize {
    let hash = u64::from(c.wrapping_mul(0x9E37_79B1));
    ((hash * u64::from(width)) >> 32) as usize
}
