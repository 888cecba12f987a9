//! Paired significance between two systems scored on the same sentences.
//!
//! Both tests work on per-sentence sufficient statistics ([`Pair`]), so nothing is recounted:
//! either a fixed-width vector of integer counts per sentence whose sums the score is a
//! function of ([`Summed`]; GREEN: the chosen reference's region counts per order), or any
//! metric's statistics folded in corpus order ([`Folded`]; M2 and ERRANT choose references
//! against running totals, CLEME weighs by the corpus's mean length, GLEU draws references).
//! - Paired bootstrap (Koehn 2004), in the form sacrebleu's `--paired-bs` uses: resample
//!   sentences, take the score difference of each replicate, centre the differences on their
//!   mean (the null hypothesis of no difference) and count how often a centred difference is
//!   at least as large in magnitude as the observed one.
//! - Approximate randomisation (Noreen 1989; Riezler and Maxwell 2005), as `--paired-ar`:
//!   swap the two systems' statistics sentence by sentence with probability 1/2 and count how
//!   often the shuffled difference is at least as large in magnitude as the observed one.
//!   With at most [`EXACT_MAX`] sentences every one of the 2^n swaps is enumerated instead.
//!
//! p = (c + 1) / (R + 1) for R sampled replicates (Noreen's correction, so p is never 0);
//! the exact test gives c / 2^n.

use green_metric::Metric;
use rayon::prelude::*;
use serde::Serialize;

use crate::bootstrap::{draw, percentile};
use crate::{Error, Interval, Rng};

/// Largest corpus for [`exact_randomisation`].
pub const EXACT_MAX: usize = 20;

/// Per-sentence statistics of two systems on the same sentences, flat `[sentence][width]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    width: usize,
    a: Vec<u64>,
    b: Vec<u64>,
}

impl Stats {
    /// `a` and `b` hold `width` counts per sentence, sentence after sentence.
    pub fn new(width: usize, a: Vec<u64>, b: Vec<u64>) -> Result<Stats, Error> {
        if width == 0 || a.len() != b.len() || !a.len().is_multiple_of(width) {
            return Err(Error::Invalid(format!(
                "paired statistics: {} and {} counts do not make whole sentences of width {width}",
                a.len(),
                b.len()
            )));
        }
        if a.is_empty() {
            return Err(Error::Invalid("paired statistics: no sentences".into()));
        }
        Ok(Stats { width, a, b })
    }

    pub fn sentences(&self) -> usize {
        self.a.len() / self.width
    }

    fn rows(&self) -> impl Iterator<Item = (&[u64], &[u64])> {
        self.a.chunks(self.width).zip(self.b.chunks(self.width))
    }

    fn sums(&self, weights: Option<&[u32]>, swap: &dyn Fn(usize) -> bool) -> (Vec<u64>, Vec<u64>) {
        let (mut sa, mut sb) = (vec![0u64; self.width], vec![0u64; self.width]);
        for (i, (a, b)) in self.rows().enumerate() {
            let w = weights.map_or(1, |w| u64::from(w[i]));
            if w == 0 {
                continue;
            }
            let (a, b) = if swap(i) { (b, a) } else { (a, b) };
            for k in 0..self.width {
                sa[k] += w * a[k];
                sb[k] += w * b[k];
            }
        }
        (sa, sb)
    }
}

/// Two systems' statistics on the same sentences, scored under any resampling or swap.
pub trait Pair: Sync {
    fn sentences(&self) -> usize;

    /// The corpus scores of A and B with sentence `i` counted `weights[i]` times (once when
    /// `weights` is `None`) and its statistics swapped between the systems where `swap(i)`.
    fn scores(&self, weights: Option<&[u32]>, swap: &dyn Fn(usize) -> bool) -> (f64, f64);
}

/// Fixed-width counts whose sums a score function turns into the corpus score.
pub struct Summed<F> {
    pub stats: Stats,
    pub score: F,
}

impl<F: Fn(&[u64]) -> f64 + Sync> Pair for Summed<F> {
    fn sentences(&self) -> usize {
        self.stats.sentences()
    }

    fn scores(&self, weights: Option<&[u32]>, swap: &dyn Fn(usize) -> bool) -> (f64, f64) {
        let (sa, sb) = self.stats.sums(weights, swap);
        ((self.score)(&sa), (self.score)(&sb))
    }
}

/// Any metric's per-sentence statistics of two systems, folded in corpus order.
pub struct Folded<M: Metric> {
    metric: M,
    a: Vec<M::Stats>,
    b: Vec<M::Stats>,
}

impl<M: Metric> Folded<M> {
    /// The statistics of A and B, sentence by sentence.
    pub fn new(metric: M, a: Vec<M::Stats>, b: Vec<M::Stats>) -> Result<Self, Error> {
        if a.len() != b.len() {
            return Err(Error::Invalid(format!(
                "paired statistics: {} and {} sentences; both systems need the same sentences",
                a.len(),
                b.len()
            )));
        }
        if a.is_empty() {
            return Err(Error::Invalid("paired statistics: no sentences".into()));
        }
        Ok(Folded { metric, a, b })
    }
}

impl<M: Metric + Sync> Pair for Folded<M> {
    fn sentences(&self) -> usize {
        self.a.len()
    }

    fn scores(&self, weights: Option<&[u32]>, swap: &dyn Fn(usize) -> bool) -> (f64, f64) {
        let side = |first: bool| {
            (0..self.a.len()).flat_map(move |i| {
                let w = weights.map_or(1, |w| w[i] as usize);
                let (a, b) = (&self.a[i], &self.b[i]);
                let from_a = first != swap(i);
                std::iter::repeat_n(if from_a { a } else { b }, w)
            })
        };
        let score = |first| self.metric.score(&self.metric.fold(side(first)));
        (score(true), score(false))
    }
}

/// The outcome of one paired test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedResult {
    /// `paired-bootstrap`, `approximate-randomisation` or `exact-randomisation`.
    pub test: &'static str,
    /// Corpus score of the baseline (A) and of the system (B).
    pub a: f64,
    pub b: f64,
    /// b − a.
    pub delta: f64,
    pub p: f64,
    /// Replicates (2^n for the exact test).
    pub replicates: u64,
    /// Bootstrap only: percentile intervals of A, B and the difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intervals: Option<[Interval; 3]>,
}

fn check(reps: usize) -> Result<(), Error> {
    if reps == 0 {
        return Err(Error::Invalid(
            "paired test: at least one replicate is needed".into(),
        ));
    }
    Ok(())
}

/// Paired bootstrap with `reps` replicates; intervals at coverage `level`.
pub fn paired_bootstrap(
    pair: &impl Pair,
    reps: usize,
    seed: u64,
    level: f64,
) -> Result<PairedResult, Error> {
    check(reps)?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::Invalid(format!(
            "paired bootstrap: coverage {level} is not between 0 and 1"
        )));
    }
    let (a, b) = pair.scores(None, &|_| false);
    let n = pair.sentences();
    let samples: Vec<(f64, f64)> = (0..reps as u64)
        .into_par_iter()
        .map_init(
            || vec![0u32; n],
            |w, k| {
                draw(seed, k, w);
                pair.scores(Some(w), &|_| false)
            },
        )
        .collect();
    let deltas: Vec<f64> = samples.iter().map(|(x, y)| y - x).collect();
    let mean = deltas.iter().sum::<f64>() / reps as f64;
    let observed = (b - a).abs();
    let c = deltas
        .iter()
        .filter(|d| (*d - mean).abs() >= observed)
        .count();
    let interval = |estimate: f64, mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let tail = (1.0 - level) / 2.0;
        Interval {
            estimate,
            low: percentile(&v, tail).unwrap_or(f64::NAN),
            high: percentile(&v, 1.0 - tail).unwrap_or(f64::NAN),
            level,
            replicates: reps,
            defined: v.len(),
        }
    };
    let intervals = [
        interval(a, samples.iter().map(|s| s.0).collect()),
        interval(b, samples.iter().map(|s| s.1).collect()),
        interval(b - a, deltas),
    ];
    Ok(PairedResult {
        test: "paired-bootstrap",
        a,
        b,
        delta: b - a,
        p: (c + 1) as f64 / (reps + 1) as f64,
        replicates: reps as u64,
        intervals: Some(intervals),
    })
}

/// Approximate randomisation with `reps` shuffles.
pub fn approximate_randomisation(
    pair: &impl Pair,
    reps: usize,
    seed: u64,
) -> Result<PairedResult, Error> {
    check(reps)?;
    let (a, b) = pair.scores(None, &|_| false);
    let observed = (b - a).abs();
    let n = pair.sentences();
    let c = (0..reps as u64)
        .into_par_iter()
        .map_init(
            || vec![false; n],
            |swaps, k| {
                let mut rng = Rng::stream(seed, k);
                swaps.iter_mut().for_each(|s| *s = rng.coin());
                let (a, b) = pair.scores(None, &|i| swaps[i]);
                (b - a).abs() >= observed
            },
        )
        .filter(|&hit| hit)
        .count();
    Ok(PairedResult {
        test: "approximate-randomisation",
        a,
        b,
        delta: b - a,
        p: (c + 1) as f64 / (reps + 1) as f64,
        replicates: reps as u64,
        intervals: None,
    })
}

/// The exact randomisation test: every one of the 2^n swaps, for n ≤ [`EXACT_MAX`].
pub fn exact_randomisation(pair: &impl Pair) -> Result<PairedResult, Error> {
    let n = pair.sentences();
    if n > EXACT_MAX {
        return Err(Error::Invalid(format!(
            "exact randomisation enumerates 2^n swaps; {n} sentences is more than {EXACT_MAX}: use approximate randomisation"
        )));
    }
    let (a, b) = pair.scores(None, &|_| false);
    let observed = (b - a).abs();
    let total = 1u64 << n;
    let c = (0..total)
        .into_par_iter()
        .filter(|mask| {
            let (a, b) = pair.scores(None, &|i| mask >> i & 1 == 1);
            (b - a).abs() >= observed
        })
        .count();
    Ok(PairedResult {
        test: "exact-randomisation",
        a,
        b,
        delta: b - a,
        p: c as f64 / total as f64,
        replicates: total,
        intervals: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accuracy-like score: correct / total from (correct, total) pairs.
    fn ratio(s: &[u64]) -> f64 {
        if s[1] == 0 {
            0.0
        } else {
            s[0] as f64 / s[1] as f64
        }
    }

    fn summed(width: usize, a: Vec<u64>, b: Vec<u64>) -> Summed<fn(&[u64]) -> f64> {
        Summed {
            stats: Stats::new(width, a, b).unwrap(),
            score: ratio,
        }
    }

    fn tiny() -> Summed<fn(&[u64]) -> f64> {
        // Three sentences of (correct, total): A = 1/3 overall, B = 3/3.
        summed(2, vec![1, 1, 0, 1, 0, 1], vec![1, 1, 1, 1, 1, 1])
    }

    #[test]
    fn exact_randomisation_by_hand() {
        // The two systems differ on sentences 2 and 3 only; swapping sentence 1 changes
        // nothing. |Δ| over the 4 swap patterns of sentences 2 and 3: none swapped 2/3, one
        // swapped 0, the other 0, both 2/3. So 2 of 4 patterns (4 of 8 masks) reach |Δ| = 2/3.
        let r = exact_randomisation(&tiny()).unwrap();
        assert_eq!((r.a, r.b, r.replicates), (1.0 / 3.0, 1.0, 8));
        assert_eq!(r.p, 0.5);
    }

    #[test]
    fn approximate_randomisation_converges_to_the_exact_p() {
        let r = approximate_randomisation(&tiny(), 20_000, 3).unwrap();
        assert!((r.p - 0.5).abs() < 0.02, "{}", r.p);
    }

    #[test]
    fn identical_systems_are_never_significant() {
        let s = summed(2, vec![3, 5, 1, 4, 2, 2], vec![3, 5, 1, 4, 2, 2]);
        assert_eq!(exact_randomisation(&s).unwrap().p, 1.0);
        assert_eq!(approximate_randomisation(&s, 99, 1).unwrap().p, 1.0);
        assert_eq!(paired_bootstrap(&s, 99, 1, 0.95).unwrap().p, 1.0);
    }

    #[test]
    fn a_large_consistent_difference_is_significant() {
        // 200 sentences where B is right and A wrong on every other one.
        let a: Vec<u64> = (0..200).flat_map(|i| [u64::from(i % 2 == 0), 1]).collect();
        let b: Vec<u64> = (0..200).flat_map(|_| [1, 1]).collect();
        let s = summed(2, a, b);
        let bs = paired_bootstrap(&s, 1000, 7, 0.95).unwrap();
        assert!(bs.p < 0.01, "{}", bs.p);
        let [ia, ib, id] = bs.intervals.unwrap();
        assert!(ia.low < 0.5 && 0.5 < ia.high && ib.low == 1.0 && id.low > 0.3);
        assert!(approximate_randomisation(&s, 1000, 7).unwrap().p < 0.01);
    }

    #[test]
    fn same_result_at_any_thread_count() {
        let a: Vec<u64> = (0..300u64).flat_map(|i| [i % 3 % 2, 1]).collect();
        let b: Vec<u64> = (0..300u64).flat_map(|i| [i % 5 % 2, 1]).collect();
        let s = summed(2, a, b);
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    (
                        paired_bootstrap(&s, 200, 5, 0.95).unwrap(),
                        approximate_randomisation(&s, 200, 5).unwrap(),
                    )
                })
        };
        assert_eq!(run(1), run(4));
    }

    #[test]
    fn malformed_statistics_are_errors() {
        assert!(Stats::new(2, vec![1, 2, 3], vec![1, 2, 3]).is_err());
        assert!(Stats::new(2, vec![1, 2], vec![1, 2, 3, 4]).is_err());
        assert!(Stats::new(0, vec![], vec![]).is_err());
        assert!(Stats::new(2, vec![], vec![]).is_err());
        let big = summed(1, vec![1; 21], vec![0; 21]);
        assert!(exact_randomisation(&big).is_err());
        assert!(approximate_randomisation(&tiny(), 0, 1).is_err());
    }

    /// (correct, total) per sentence, as a metric folded in order.
    struct Ratio;

    impl Metric for Ratio {
        type Stats = (u64, u64);
        type Totals = (u64, u64);

        fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a (u64, u64)>) -> (u64, u64) {
            stats
                .into_iter()
                .fold((0, 0), |t, s| (t.0 + s.0, t.1 + s.1))
        }

        fn score(&self, t: &(u64, u64)) -> f64 {
            ratio(&[t.0, t.1])
        }
    }

    #[test]
    fn folded_metrics_test_like_summed_counts() {
        // The same draws and swaps: a metric folded sentence by sentence gives the very
        // results of the summed counts it is equivalent to.
        let a: Vec<(u64, u64)> = (0..60u64).map(|i| (i % 3 % 2, 1 + i % 2)).collect();
        let b: Vec<(u64, u64)> = (0..60u64).map(|i| (i % 5 % 2, 1)).collect();
        let flat = |v: &[(u64, u64)]| v.iter().flat_map(|&(x, y)| [x, y]).collect();
        let s = summed(2, flat(&a), flat(&b));
        let f = Folded::new(Ratio, a, b).unwrap();
        assert_eq!(
            paired_bootstrap(&f, 300, 9, 0.9).unwrap(),
            paired_bootstrap(&s, 300, 9, 0.9).unwrap()
        );
        assert_eq!(
            approximate_randomisation(&f, 300, 9).unwrap(),
            approximate_randomisation(&s, 300, 9).unwrap()
        );
        let few = |v: &[(u64, u64)]| v[..12].to_vec();
        let (fa, fb) = (few(&f.a), few(&f.b));
        let s12 = summed(2, flat(&fa), flat(&fb));
        let f12 = Folded::new(Ratio, fa, fb).unwrap();
        assert_eq!(
            exact_randomisation(&f12).unwrap(),
            exact_randomisation(&s12).unwrap()
        );
        assert!(Folded::new(Ratio, vec![(1, 1)], vec![]).is_err());
        assert!(Folded::new(Ratio, vec![], vec![]).is_err());
    }
}
