//! Corpus GLEU with sampled references, resampled without recounting.
//!
//! Corpus GLEU is the mean over K iterations of the GLEU of one reference drawn per sentence.
//! The draws are fixed (`green_engine::gleu::draws`), so a bootstrap replicate, which only
//! reweights sentences, keeps them: iteration i's totals are Σ_s w_s · x(s, d_i(s)), with x
//! the per-sentence statistics. The hypothesis' length and n-gram counts (the precision
//! denominators) do not depend on the reference, so only the reference length and the
//! numerators, 1 + N *lanes* per system, are summed per iteration, for all systems at once.
//! They are written as the first reference's totals plus differences x(s, r) − x(s, 0) for
//! the (sentence, r ≥ 1) *items* an iteration draws; with the items taken eight at a time,
//! each block's 256 possible subset sums are built once per replicate and every iteration
//! adds one of them ("four Russians"): the same integers with about a third of the
//! additions. Sums wrap in `u64`, which is exact because every true total is non-negative
//! and far below 2^64.

use green_metric::Resample;

use crate::metric::{gleu_value, GleuStats};

/// Items per block: one byte of draw pattern per block and iteration.
const BLOCK: usize = 8;

/// Every system's per-sentence GLEU statistics and the fixed reference draws.
pub struct SampledGleu {
    iterations: usize,
    systems: usize,
    /// Lanes per system that depend on the reference: its length, then the numerator of
    /// each order. A row holds every system's lanes, system after system.
    lanes: usize,
    /// `fixed[s * row ..]`: per system, the hypothesis' length and each order's denominator.
    fixed: Vec<u64>,
    /// `first[s * row ..]`: sentence s against its first reference.
    first: Vec<u64>,
    /// `diff[item * row ..]`: the item's reference minus the first (wrapping).
    diff: Vec<u64>,
    /// Per sentence, its largest reference-side value (any reference, system and lane):
    /// bounds a replicate's totals.
    largest: Vec<u64>,
    /// The sentence of each item.
    item_sentence: Vec<usize>,
    /// `patterns[block * iterations + i]`: which items of the block iteration i draws.
    patterns: Vec<u8>,
}

impl SampledGleu {
    /// `stats[sentence][system][reference]`, and `draws[i][sentence]` the reference of each
    /// sentence in iteration i (every sentence has at least one reference).
    pub fn new(stats: &[Vec<Vec<GleuStats>>], draws: &[Vec<usize>]) -> SampledGleu {
        let systems = stats.first().map_or(0, Vec::len);
        let orders = stats
            .iter()
            .flatten()
            .flatten()
            .next()
            .map_or(0, |g| g.orders.len());
        let lanes = 1 + orders;
        let mut items = Vec::new();
        for (s, per_system) in stats.iter().enumerate() {
            let refs = per_system.first().map_or(1, Vec::len);
            items.extend((1..refs).map(|r| (s, r)));
        }
        // Every system's lanes of reference r of sentence s, as one row.
        let row = |s: usize, r: usize, varying: bool| -> Vec<u64> {
            stats[s]
                .iter()
                .flat_map(|refs| {
                    let g = &refs[r];
                    let (len, side) = if varying {
                        (g.ref_len, 0)
                    } else {
                        (g.hyp_len, 1)
                    };
                    std::iter::once(len).chain(g.orders.iter().map(move |o| [o.0, o.1][side]))
                })
                .collect()
        };
        let fixed = (0..stats.len()).flat_map(|s| row(s, 0, false)).collect();
        let first: Vec<u64> = (0..stats.len()).flat_map(|s| row(s, 0, true)).collect();
        let width = systems * lanes;
        let diff = items
            .iter()
            .flat_map(|&(s, r)| {
                let base = &first[s * width..(s + 1) * width];
                row(s, r, true)
                    .into_iter()
                    .zip(base)
                    .map(|(x, y)| x.wrapping_sub(*y))
                    .collect::<Vec<_>>()
            })
            .collect();
        let largest = (0..stats.len())
            .map(|s| {
                let refs = stats[s].first().map_or(1, Vec::len);
                (0..refs).flat_map(|r| row(s, r, true)).max().unwrap_or(0)
            })
            .collect();
        let iterations = draws.len();
        let mut patterns = vec![0u8; items.len().div_ceil(BLOCK) * iterations];
        for (i, choice) in draws.iter().enumerate() {
            for (k, &(s, r)) in items.iter().enumerate() {
                if choice[s] == r {
                    patterns[(k / BLOCK) * iterations + i] |= 1 << (k % BLOCK);
                }
            }
        }
        SampledGleu {
            iterations,
            systems,
            lanes,
            fixed,
            first,
            diff,
            largest,
            item_sentence: items.into_iter().map(|(s, _)| s).collect(),
            patterns,
        }
    }
}

/// `acc += w · x`, lane by lane, wrapping.
fn add_scaled(acc: &mut [u64], x: &[u64], w: u64) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a = a.wrapping_add(b.wrapping_mul(w));
    }
}

/// An integer lane: `u32` when every total of a replicate fits in it (twice the lanes per
/// vector instruction), else `u64`. Arithmetic wraps; the true totals are non-negative and
/// below the lane's bound, so the wrapped sums are exact.
trait Lane: Copy + Default {
    /// `x` modulo the lane's width.
    fn wrap(x: u64) -> Self;
    fn add(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    fn widen(self) -> u64;
}

impl Lane for u32 {
    fn wrap(x: u64) -> Self {
        x as u32
    }
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    fn mul(self, other: Self) -> Self {
        self.wrapping_mul(other)
    }
    fn widen(self) -> u64 {
        u64::from(self)
    }
}

impl Lane for u64 {
    fn wrap(x: u64) -> Self {
        x
    }
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    fn mul(self, other: Self) -> Self {
        self.wrapping_mul(other)
    }
    fn widen(self) -> u64 {
        self
    }
}

impl Resample for SampledGleu {
    /// One system's score; it costs as much as all of them ([`Resample::scores`]).
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64 {
        self.scores(sentences, weights, self.systems)[h]
    }

    fn scores(&self, sentences: &[usize], weights: &[u32], _systems: usize) -> Vec<f64> {
        let width = self.systems * self.lanes;
        let mut weight = vec![0u64; self.largest.len()];
        for (&s, &w) in sentences.iter().zip(weights) {
            weight[s] += u64::from(w);
        }
        let mut hyp = vec![0u64; width];
        let mut base = vec![0u64; width];
        let mut bound = 0u128;
        for (s, &w) in weight.iter().enumerate().filter(|(_, &w)| w > 0) {
            add_scaled(&mut hyp, &self.fixed[s * width..(s + 1) * width], w);
            add_scaled(&mut base, &self.first[s * width..(s + 1) * width], w);
            bound += u128::from(w) * u128::from(self.largest[s]);
        }
        let totals = if bound <= u128::from(u32::MAX) {
            self.totals::<u32>(&weight, &base)
        } else {
            self.totals::<u64>(&weight, &base)
        };
        let lanes = self.lanes;
        (0..self.systems)
            .map(|h| {
                let hyp = &hyp[h * lanes..(h + 1) * lanes];
                let mut sum = 0.0;
                for total in totals.chunks_exact(width) {
                    let total = &total[h * lanes..(h + 1) * lanes];
                    let orders = total[1..].iter().zip(&hyp[1..]).map(|(&n, &d)| (n, d));
                    sum += gleu_value(hyp[0], total[0], orders, false);
                }
                sum / self.iterations as f64
            })
            .collect()
    }
}

impl SampledGleu {
    /// Every iteration's reference-side totals (`[iteration][system, lane]`) of the sentences
    /// weighted `weight`, starting from `base`, the weighted first references.
    fn totals<T: Lane>(&self, weight: &[u64], base: &[u64]) -> Vec<u64> {
        let width = base.len();
        let start: Vec<T> = base.iter().map(|&x| T::wrap(x)).collect();
        let mut totals: Vec<T> = start.repeat(self.iterations);
        let mut weighted = vec![T::default(); BLOCK * width];
        let mut table = vec![T::default(); (1 << BLOCK) * width];
        for (b, items) in self.item_sentence.chunks(BLOCK).enumerate() {
            if items.iter().all(|&s| weight[s] == 0) {
                continue;
            }
            for (k, &s) in items.iter().enumerate() {
                let d = &self.diff[(b * BLOCK + k) * width..][..width];
                let w = T::wrap(weight[s]);
                for (out, &x) in weighted[k * width..][..width].iter_mut().zip(d) {
                    *out = T::wrap(x).mul(w);
                }
            }
            // table[p]: the sum of the weighted differences of the items whose bits p sets
            // (row 0 stays zero).
            for p in 1..1usize << items.len() {
                let k = p.trailing_zeros() as usize;
                let (done, rest) = table.split_at_mut(p * width);
                let lower = &done[(p & (p - 1)) * width..][..width];
                let item = &weighted[k * width..][..width];
                for ((t, &x), &y) in rest[..width].iter_mut().zip(lower).zip(item) {
                    *t = x.add(y);
                }
            }
            let patterns = &self.patterns[b * self.iterations..(b + 1) * self.iterations];
            for (total, &p) in totals.chunks_exact_mut(width).zip(patterns) {
                let row = &table[usize::from(p) * width..][..width];
                for (t, &x) in total.iter_mut().zip(row) {
                    *t = t.add(x);
                }
            }
        }
        totals.into_iter().map(Lane::widen).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Random per-sentence statistics: `refs[s]` references per sentence, `n` orders, every
    /// count multiplied by `scale`.
    fn stats(
        refs: &[usize],
        systems: usize,
        n: usize,
        values: &[u64],
        scale: u64,
    ) -> Vec<Vec<Vec<GleuStats>>> {
        let mut v = values.iter().cycle();
        let mut next = |max: u64| v.next().unwrap() % (max + 1);
        refs.iter()
            .map(|&r| {
                (0..systems)
                    .map(|_| {
                        let hyp_len = next(9);
                        (0..r)
                            .map(|_| GleuStats {
                                hyp_len: hyp_len * scale,
                                ref_len: next(9) * scale,
                                orders: (0..n)
                                    .map(|o| {
                                        let den = hyp_len.saturating_sub(o as u64);
                                        (next(den) * scale, den * scale)
                                    })
                                    .collect(),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Iteration by iteration, sentence by sentence, as the table's point estimate once was.
    fn naive(
        stats: &[Vec<Vec<GleuStats>>],
        draws: &[Vec<usize>],
        sentences: &[usize],
        weights: &[u32],
        h: usize,
    ) -> f64 {
        let n = stats[0][0][0].orders.len();
        let mut sum = 0.0;
        for choice in draws {
            let mut total = GleuStats::new(n);
            for (&s, &w) in sentences.iter().zip(weights) {
                for _ in 0..w {
                    total.add(&stats[s][h][choice[s]]);
                }
            }
            sum += total.gleu(false);
        }
        sum / draws.len() as f64
    }

    proptest! {
        #[test]
        fn resampled_totals_equal_the_naive_sums(
            refs in prop::collection::vec(1usize..4, 1..40),
            n in prop::sample::select(vec![1usize, 2, 4, 6]),
            values in prop::collection::vec(0u64..1000, 50),
            iterations in 1usize..30,
            picks in prop::collection::vec((0usize..1000, 0u32..4), 0..60),
            // Large counts take the u64 lanes, small ones the u32 lanes.
            scale in prop::sample::select(vec![1u64, 1 << 31]),
        ) {
            let systems = 2;
            let stats = stats(&refs, systems, n, &values, scale);
            let draws: Vec<Vec<usize>> = (0..iterations as u64)
                .map(|i| green_engine::gleu::draws(i, refs.iter().copied()))
                .collect();
            let sampled = SampledGleu::new(&stats, &draws);
            // The corpus itself, then a resample with repeats and gaps.
            let all: Vec<usize> = (0..refs.len()).collect();
            let (some, weights): (Vec<usize>, Vec<u32>) =
                picks.iter().map(|&(s, w)| (s % refs.len(), w)).unzip();
            for h in 0..systems {
                let ones = vec![1; all.len()];
                prop_assert_eq!(
                    sampled.score(&all, &ones, h),
                    naive(&stats, &draws, &all, &ones, h)
                );
                prop_assert_eq!(
                    sampled.score(&some, &weights, h),
                    naive(&stats, &draws, &some, &weights, h)
                );
            }
        }
    }
}
