//! The ids of one sentence's short tokens (up to 15 bytes, packed with their length into a
//! `u128` key): an open-addressing table with linear probing, shaped by what a sentence does
//! with it. It holds a few dozen keys, about half of its lookups insert (on CoNLL-14 at word
//! level, 28,000 of 56,000), and it is emptied before the next sentence by clearing the slots
//! it filled. hashbrown's table, whose group probes and tags pay off on large long-lived
//! tables, cost 1.2 M more instructions on that corpus (3% of a word-level run). What a
//! lookup writes does not branch on whether it inserts: the slot, the filled list and the
//! next id are written either way, and move on by 0 or 1 (with half of the lookups
//! inserting, such a branch would mispredict every other token). The compiler still branches
//! on the key's comparison, but keys left from earlier sentences make that one mostly go
//! one way.

/// A sentence's short tokens and their ids.
#[derive(Default)]
pub(crate) struct Shorts {
    /// `(key, id + 1)`, `0` for an empty slot. The length is a power of two (or zero), and
    /// at most a quarter of the slots are filled, so most lookups end at their first slot.
    slots: Vec<(u128, u32)>,
    /// The slots filled since the table was last emptied (emptying it costs what it holds):
    /// the first `count`, with room for one more whatever the lookup.
    filled: Vec<u32>,
    count: usize,
}

/// Slots of a table's first allocation.
const FIRST_SLOTS: usize = 64;

impl Shorts {
    /// The id of `key` (whose hash is `hash`); a key not seen is given `*vocab`, which
    /// then moves on.
    #[inline(always)]
    pub(crate) fn id(&mut self, hash: u64, key: u128, vocab: &mut u32) -> u32 {
        if 4 * (self.count + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (k, v) = self.slots[i];
            if (v == 0) | (k == key) {
                // Found or new, the slot is written and the filled list moves on by 0 or 1.
                let new = v == 0;
                let id = if new { *vocab } else { v - 1 };
                self.slots[i] = (key, id + 1);
                self.filled[self.count] = i as u32;
                self.count += usize::from(new);
                *vocab += u32::from(new);
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots (or makes the first ones) and puts every key back.
    #[inline(never)]
    fn grow(&mut self) {
        let slots = (2 * self.slots.len()).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); slots]);
        let mask = slots - 1;
        for f in &mut self.filled[..self.count] {
            let (key, v) = old[*f as usize];
            let mut i = crate::count::short_hash(key) as usize & mask;
            while self.slots[i].1 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (key, v);
            *f = i as u32;
        }
        self.filled.resize(slots / 4 + 1, 0);
    }

    /// Empties the table for the next sentence. A table left large by a long sentence is
    /// dropped once a short one has used it: its few keys would lie all over memory.
    pub(crate) fn clear(&mut self) {
        if self.slots.len() > 1 << 12 && self.count < self.slots.len() / 16 {
            *self = Shorts::default();
            return;
        }
        for &f in &self.filled[..self.count] {
            self.slots[f as usize].1 = 0;
        }
        self.count = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::short_hash;

    #[test]
    fn ids_are_numbered_by_first_sighting_across_growth_and_clears() {
        let mut table = Shorts::default();
        for round in 0..3 {
            // Enough keys to grow several times; the second round is shorter, the third
            // longer, so a clear after a large table is covered.
            let keys = [5000u128, 10, 9000][round];
            let mut vocab = 7;
            for k in 0..keys {
                let key = k * 0x1_0000_0001 + round as u128;
                assert_eq!(table.id(short_hash(key), key, &mut vocab), 7 + k as u32);
            }
            for k in (0..keys).rev() {
                let key = k * 0x1_0000_0001 + round as u128;
                assert_eq!(table.id(short_hash(key), key, &mut vocab), 7 + k as u32);
            }
            assert_eq!(vocab, 7 + keys as u32);
            table.clear();
        }
    }
}
