//! Numbering the n-grams of one order from those of the order below, when a dense
//! (prefix, token) table would be too large: an n-gram is a prefix id and a token, and
//! each prefix heads a list of its children.
//!
//! A list is walked to its end for every new child, so unbounded lists made one long line
//! quadratic: in a 1 MB line a frequent word is followed by thousands of different words,
//! and each of its occurrences walked them all. A prefix keeps at most a few children in
//! its list (in a short sentence the list is fastest, in cache); the children of a prefix
//! with more are in one open-addressing table of (prefix, token) pairs, so every lookup
//! costs a bounded number of steps and the whole order is linear in its n-grams.

/// In [`Trie::heads`]: no children yet.
const NONE: u32 = u32::MAX;
/// In [`Trie::heads`]: this prefix's children are in [`Trie::crowded`], not in a list.
const CROWDED: u32 = u32::MAX - 1;

/// The trie of one order. Between orders every head is [`NONE`].
#[derive(Default)]
pub(crate) struct Trie {
    /// Per prefix id: its newest child in the list, or [`NONE`], or [`CROWDED`].
    heads: Vec<u32>,
    /// Per n-gram id: its last token and its next older sibling in its prefix's list.
    children: Vec<(u32, u32)>,
    /// The children of crowded prefixes.
    crowded: Pairs,
    /// Lookups, list steps and table probes so far, for tests of the cost.
    #[cfg(test)]
    steps: u64,
}

impl Trie {
    /// Ready to number an order whose prefixes are ids below `prefixes`.
    pub fn start(&mut self, prefixes: usize) {
        if self.heads.len() < prefixes {
            self.heads.resize(prefixes, NONE);
        }
        self.children.clear();
        self.crowded.start();
    }

    /// Back to every head [`NONE`], after an order whose prefixes were ids below `prefixes`.
    pub fn finish(&mut self, prefixes: usize) {
        self.heads[..prefixes].fill(NONE);
    }

    /// The id of the n-gram `prefix` + `tok`; a new one is `*ids`, which then moves on.
    /// A prefix's list holds at most `list_max` children, then they move to the table.
    #[inline(always)]
    pub fn child(&mut self, prefix: u32, tok: u32, ids: &mut u32, list_max: u32) -> u32 {
        let head = self.heads[prefix as usize];
        let mut child = head;
        let mut walked = 0;
        while child < CROWDED && self.children[child as usize].0 != tok {
            child = self.children[child as usize].1;
            walked += 1;
        }
        #[cfg(test)]
        {
            self.steps += 1 + u64::from(walked);
        }
        if child < CROWDED {
            return child;
        }
        if child == NONE && walked < list_max {
            let id = *ids;
            *ids += 1;
            self.children.push((tok, head));
            self.heads[prefix as usize] = id;
            return id;
        }
        self.crowded_child(prefix, tok, ids)
    }

    /// [`Trie::child`] for a prefix whose list is full (its children move to the table
    /// first) or already in the table.
    #[inline(never)]
    fn crowded_child(&mut self, prefix: u32, tok: u32, ids: &mut u32) -> u32 {
        let key = pair_key(prefix, tok);
        if self.heads[prefix as usize] == CROWDED {
            if let Some(id) = self.crowded.get(key) {
                return id;
            }
        } else {
            let mut child = self.heads[prefix as usize];
            while child != NONE {
                let (tok, next) = self.children[child as usize];
                self.crowded.insert(pair_key(prefix, tok), child);
                child = next;
            }
            self.heads[prefix as usize] = CROWDED;
        }
        let id = *ids;
        *ids += 1;
        // Ids index `children`, so a child in the table has an entry there all the same.
        self.children.push((tok, NONE));
        self.crowded.insert(key, id);
        id
    }

    /// Lookups, list steps and table probes so far.
    #[cfg(test)]
    pub fn steps(&self) -> u64 {
        self.steps + self.crowded.probes
    }

    /// Asks the memory for the head of `prefix`, to be read a little later.
    #[inline(always)]
    pub fn prefetch_head(&self, prefix: u32) {
        prefetch(self.heads.as_ptr().wrapping_add(prefix as usize));
    }

    /// Asks the memory for what [`Trie::child`] will read first after the head of `prefix`
    /// (its newest child, or its pair's slot in the table), to be read a little later.
    #[inline(always)]
    pub fn prefetch_child(&self, prefix: u32, tok: u32) {
        match self.heads[prefix as usize] {
            NONE => {}
            CROWDED => self.crowded.prefetch(pair_key(prefix, tok)),
            child => prefetch(self.children.as_ptr().wrapping_add(child as usize)),
        }
    }
}

/// A (prefix, token) pair as one number.
#[inline(always)]
fn pair_key(prefix: u32, tok: u32) -> u64 {
    u64::from(prefix) << 32 | u64::from(tok)
}

/// A hint to bring the cache line at `p` in; it reads nothing and may point anywhere.
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// One slot of [`Pairs`]: a pair, its id, and the [`Pairs::stamp`] of the order that
/// wrote it (a slot of an earlier order is empty).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Slot {
    key: u64,
    id: u32,
    stamp: u32,
}

/// Pair → id, open addressing with linear probing from the top bits of the key times an
/// odd constant (Fibonacci hashing), at most half full. One probe is one cache line, and
/// its address is known from the pair alone, so it can be prefetched. Emptied by a new
/// stamp, not by a pass over the slots.
#[derive(Default)]
struct Pairs {
    /// A power of two of slots, or none before the first insertion.
    slots: Vec<Slot>,
    /// 64 - log2(slots).
    shift: u32,
    len: usize,
    stamp: u32,
    /// Slots read so far, for tests of the cost.
    #[cfg(test)]
    probes: u64,
}

/// The multiplier of Fibonacci hashing: 2^64 divided by the golden ratio, made odd.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// Slots of a table at its first insertion (4 KiB, one page: in a short sentence a crowded
/// prefix has a few dozen children, and every page a process touches first is a fault).
const FIRST_SLOTS: usize = 1 << 8;
/// Slots beyond which a table mostly empty is dropped rather than kept for the next order.
const KEEP_SLOTS: usize = 1 << 12;

impl Pairs {
    /// Empty again, for the next order. A table left large by a long text is dropped once
    /// a shorter one has used a small part of it.
    fn start(&mut self) {
        if self.slots.len() > KEEP_SLOTS && self.len < self.slots.len() / 16 {
            self.slots = Vec::new();
        }
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamp 0 marks the slots never written: after 2^32 - 1 orders, start over.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(GOLDEN) >> self.shift) as usize
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            prefetch(self.slots.as_ptr().wrapping_add(self.home(key)));
        }
    }

    fn get(&mut self, key: u64) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        loop {
            #[cfg(test)]
            {
                self.probes += 1;
            }
            let slot = self.slots[at];
            if slot.stamp != self.stamp {
                return None;
            }
            if slot.key == key {
                return Some(slot.id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds a pair that is not in the table.
    fn insert(&mut self, key: u64, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        while self.slots[at].stamp == self.stamp {
            at = (at + 1) & mask;
            #[cfg(test)]
            {
                self.probes += 1;
            }
        }
        self.slots[at] = Slot {
            key,
            id,
            stamp: self.stamp,
        };
        self.len += 1;
    }

    /// Twice the slots (or the first ones), the current pairs moved over.
    #[cold]
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.shift = 64 - size.trailing_zeros();
        self.len = 0;
        let stamp = self.stamp;
        for slot in old.into_iter().filter(|s| s.stamp == stamp) {
            self.insert(slot.key, slot.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    proptest::proptest! {
        #[test]
        fn children_are_numbered_in_order_of_first_sight(
            orders in proptest::collection::vec(
                proptest::collection::vec((0u32..6, 0u32..40), 0..300),
                1..4,
            ),
            list_max in 0u32..10,
        ) {
            // Few prefixes and many tokens: lists fill up and move to the table, at every
            // list length, over several orders of one trie.
            let mut trie = Trie::default();
            for pairs in orders {
                trie.start(6);
                let (mut ids, mut seen) = (0, HashMap::new());
                for (prefix, tok) in pairs {
                    trie.prefetch_head(prefix);
                    trie.prefetch_child(prefix, tok);
                    let next = seen.len() as u32;
                    let expected = *seen.entry((prefix, tok)).or_insert(next);
                    proptest::prop_assert_eq!(trie.child(prefix, tok, &mut ids, list_max), expected);
                }
                proptest::prop_assert_eq!(ids as usize, seen.len());
                trie.finish(6);
            }
        }
    }

    #[test]
    fn a_prefix_with_thousands_of_children_costs_a_few_steps_a_lookup() {
        // A frequent word of a long line: with unbounded lists every new child walked all
        // the older ones (50 million steps here), which made one long line quadratic.
        let mut trie = Trie::default();
        trie.start(2);
        let mut ids = 0;
        for tok in (0..10_000).chain(0..10_000) {
            trie.child(1, tok, &mut ids, 8);
        }
        assert_eq!(ids, 10_000);
        assert!(trie.steps() < 4 * 20_000, "{} steps", trie.steps());
    }

    #[test]
    fn the_pair_table_starts_over_when_its_stamp_wraps() {
        // After 2^32 - 1 orders the stamp wraps to 0, the mark of a slot never written: the
        // slots must be cleared then, or the empty ones would read as pairs.
        let mut pairs = Pairs {
            stamp: u32::MAX - 1,
            ..Pairs::default()
        };
        for round in 0..3 {
            pairs.start();
            for key in 0..5000 {
                assert_eq!(pairs.get(key), None);
                pairs.insert(key, key as u32 + round);
            }
            for key in 0..5000 {
                assert_eq!(pairs.get(key), Some(key as u32 + round));
            }
        }
        assert_eq!(pairs.stamp, 2);
    }

    #[test]
    fn a_pair_table_left_large_is_dropped_after_a_small_order() {
        let mut pairs = Pairs::default();
        pairs.start();
        for key in 0..100_000 {
            pairs.insert(key, 0);
        }
        assert!(pairs.slots.len() >= 200_000);
        pairs.start();
        pairs.insert(7, 1);
        pairs.start();
        assert!(pairs.slots.is_empty());
        assert_eq!(pairs.get(7), None);
    }
}
