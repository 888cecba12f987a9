//! The order in which CPython 2.7 iterates a `dict` of `int` keys.
//!
//! The m2scorer keeps a sentence's annotators in a dict and, when several tie, keeps the one
//! it meets first: that dict's iteration order decides a tie, and it is not ascending. A
//! CPython 2.7 dict is an open-addressing table of 8 slots (while at most 5 keys), 32
//! (6–21 keys), 128, ...; an `int` hashes to itself (−1 to −2); a key goes to slot
//! `hash & mask`, or on a collision probes `i = 5i + perturb + 1` with `perturb` starting at
//! the hash and shifted right by 5 each step; when a new key makes the table two thirds full
//! it is rebuilt at the smallest power of two above 4 × the keys (2 × above 50,000), the old
//! keys re-inserted in slot order; iteration walks the slots. So ids 0..4 iterate ascending,
//! but 8 shares slot 0 with 0 and comes first when inserted first, and −1 (slot 6 of 8)
//! comes after 5. Deleted keys would leave dummies that change probing; the m2scorer never
//! deletes. Sizes and hashes are those of a 64-bit build.

/// CPython 2.7's iteration order of a dict into which `keys` (distinct) were inserted in
/// this order.
pub fn iteration_order(keys: &[i64]) -> Vec<i64> {
    let mut table: Vec<Option<i64>> = vec![None; 8];
    for (used, &key) in (1..).zip(keys) {
        insert(&mut table, key);
        if used * 3 >= table.len() * 2 {
            let min = if used > 50_000 { 2 * used } else { 4 * used };
            let mut size = 8;
            while size <= min {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for key in old.into_iter().flatten() {
                insert(&mut table, key);
            }
        }
    }
    table.into_iter().flatten().collect()
}

/// Python 2's `hash()` of an `int`, as the table's unsigned `size_t`.
fn hash(key: i64) -> u64 {
    if key == -1 {
        -2i64 as u64
    } else {
        key as u64
    }
}

/// Put `key` in the first free slot of its probe sequence (`insertdict_clean`).
fn insert(table: &mut [Option<i64>], key: i64) {
    let mask = table.len() as u64 - 1;
    let mut perturb = hash(key);
    let mut i = perturb & mask;
    while table[(i & mask) as usize].is_some() {
        i = (i << 2)
            .wrapping_add(i)
            .wrapping_add(perturb)
            .wrapping_add(1);
        perturb >>= 5;
    }
    table[(i & mask) as usize] = Some(key);
}

#[cfg(test)]
mod tests {
    use super::iteration_order;

    /// Each case's order is what `list(d)` prints in CPython 2.7.18 (64-bit) after
    /// `d = {}; for k in keys: d[k] = 0`.
    #[test]
    fn as_cpython_2_7_iterates() {
        for (keys, order) in [
            (vec![], vec![]),
            (vec![3, 1, 0], vec![0, 1, 3]),
            (vec![8, 0], vec![8, 0]),
            (vec![0, 8], vec![0, 8]),
            (vec![-1, 5, 0], vec![0, 5, -1]),
            (vec![-2, -1], vec![-1, -2]),
            (vec![-1, -2], vec![-2, -1]),
            (vec![1000, 0, 1], vec![1000, 0, 1]),
            (vec![16, 8, 0], vec![16, 8, 0]),
            (vec![0, 8, 16], vec![0, 8, 16]),
            (vec![0, 1, 2, 3, 4, 5], vec![0, 1, 2, 3, 4, 5]),
            // 0 probes past 32 to slot 1, then 1 past 0 to slot 7 ...
            (vec![32, 0, 1, 2, 3, 4], vec![32, 0, 2, 3, 4, 1]),
            // ... and a sixth key rebuilds the table at 32 slots in slot order.
            (vec![32, 0, 1, 2, 3, 4, 5], vec![32, 0, 2, 3, 4, 5, 1]),
            (
                vec![-5, i64::MAX, i64::MIN, -2],
                vec![i64::MIN, -5, -2, i64::MAX],
            ),
        ] {
            assert_eq!(iteration_order(&keys), order, "{keys:?}");
        }
    }
}
