//! Paired significance between two systems scored on the same sentences.
//!
//! Both tests work on per-sentence sufficient statistics: each sentence contributes a
//! fixed-width vector of integer counts per system, and the metric's corpus score is a
//! function of the summed vectors (GREEN: the chosen reference's region counts per order;
//! GLEU: n-gram matches and lengths; M2: correct, proposed, gold). Nothing is recounted.
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

    fn sums(&self, weights: Option<&[u32]>, swap: impl Fn(usize) -> bool) -> (Vec<u64>, Vec<u64>) {
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
pub fn paired_bootstrap<F>(
    stats: &Stats,
    score: F,
    reps: usize,
    seed: u64,
    level: f64,
) -> Result<PairedResult, Error>
where
    F: Fn(&[u64]) -> f64 + Sync,
{
    check(reps)?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::Invalid(format!(
            "paired bootstrap: coverage {level} is not between 0 and 1"
        )));
    }
    let (sa, sb) = stats.sums(None, |_| false);
    let (a, b) = (score(&sa), score(&sb));
    let n = stats.sentences();
    let samples: Vec<(f64, f64)> = (0..reps as u64)
        .into_par_iter()
        .map_init(
            || vec![0u32; n],
            |w, k| {
                draw(seed, k, w);
                let (sa, sb) = stats.sums(Some(w), |_| false);
                (score(&sa), score(&sb))
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
pub fn approximate_randomisation<F>(
    stats: &Stats,
    score: F,
    reps: usize,
    seed: u64,
) -> Result<PairedResult, Error>
where
    F: Fn(&[u64]) -> f64 + Sync,
{
    check(reps)?;
    let (sa, sb) = stats.sums(None, |_| false);
    let (a, b) = (score(&sa), score(&sb));
    let observed = (b - a).abs();
    let n = stats.sentences();
    let c = (0..reps as u64)
        .into_par_iter()
        .map_init(
            || vec![false; n],
            |swaps, k| {
                let mut rng = Rng::stream(seed, k);
                swaps.iter_mut().for_each(|s| *s = rng.coin());
                let (sa, sb) = stats.sums(None, |i| swaps[i]);
                (score(&sb) - score(&sa)).abs() >= observed
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
pub fn exact_randomisation<F>(stats: &Stats, score: F) -> Result<PairedResult, Error>
where
    F: Fn(&[u64]) -> f64 + Sync,
{
    let n = stats.sentences();
    if n > EXACT_MAX {
        return Err(Error::Invalid(format!(
            "exact randomisation enumerates 2^n swaps; {n} sentences is more than {EXACT_MAX}: use approximate randomisation"
        )));
    }
    let (sa, sb) = stats.sums(None, |_| false);
    let (a, b) = (score(&sa), score(&sb));
    let observed = (b - a).abs();
    let total = 1u64 << n;
    let c = (0..total)
        .into_par_iter()
        .filter(|mask| {
            let (sa, sb) = stats.sums(None, |i| mask >> i & 1 == 1);
            (score(&sb) - score(&sa)).abs() >= observed
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

    fn tiny() -> Stats {
        // Three sentences of (correct, total): A = 1/3 overall, B = 3/3.
        Stats::new(2, vec![1, 1, 0, 1, 0, 1], vec![1, 1, 1, 1, 1, 1]).unwrap()
    }

    #[test]
    fn exact_randomisation_by_hand() {
        // The two systems differ on sentences 2 and 3 only; swapping sentence 1 changes
        // nothing. |Δ| over the 4 swap patterns of sentences 2 and 3: none swapped 2/3, one
        // swapped 0, the other 0, both 2/3. So 2 of 4 patterns (4 of 8 masks) reach |Δ| = 2/3.
        let r = exact_randomisation(&tiny(), ratio).unwrap();
        assert_eq!((r.a, r.b, r.replicates), (1.0 / 3.0, 1.0, 8));
        assert_eq!(r.p, 0.5);
    }

    #[test]
    fn approximate_randomisation_converges_to_the_exact_p() {
        let r = approximate_randomisation(&tiny(), ratio, 20_000, 3).unwrap();
        assert!((r.p - 0.5).abs() < 0.02, "{}", r.p);
    }

    #[test]
    fn identical_systems_are_never_significant() {
        let s = Stats::new(2, vec![3, 5, 1, 4, 2, 2], vec![3, 5, 1, 4, 2, 2]).unwrap();
        assert_eq!(exact_randomisation(&s, ratio).unwrap().p, 1.0);
        assert_eq!(approximate_randomisation(&s, ratio, 99, 1).unwrap().p, 1.0);
        assert_eq!(paired_bootstrap(&s, ratio, 99, 1, 0.95).unwrap().p, 1.0);
    }

    #[test]
    fn a_large_consistent_difference_is_significant() {
        // 200 sentences where B is right and A wrong on every other one.
        let a: Vec<u64> = (0..200).flat_map(|i| [u64::from(i % 2 == 0), 1]).collect();
        let b: Vec<u64> = (0..200).flat_map(|_| [1, 1]).collect();
        let s = Stats::new(2, a, b).unwrap();
        let bs = paired_bootstrap(&s, ratio, 1000, 7, 0.95).unwrap();
        assert!(bs.p < 0.01, "{}", bs.p);
        let [ia, ib, id] = bs.intervals.unwrap();
        assert!(ia.low < 0.5 && 0.5 < ia.high && ib.low == 1.0 && id.low > 0.3);
        assert!(approximate_randomisation(&s, ratio, 1000, 7).unwrap().p < 0.01);
    }

    #[test]
    fn same_result_at_any_thread_count() {
        let a: Vec<u64> = (0..300u64).flat_map(|i| [i % 3 % 2, 1]).collect();
        let b: Vec<u64> = (0..300u64).flat_map(|i| [i % 5 % 2, 1]).collect();
        let s = Stats::new(2, a, b).unwrap();
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    (
                        paired_bootstrap(&s, ratio, 200, 5, 0.95).unwrap(),
                        approximate_randomisation(&s, ratio, 200, 5).unwrap(),
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
        let big = Stats::new(1, vec![1; 21], vec![0; 21]).unwrap();
        assert!(exact_randomisation(&big, |s| s[0] as f64).is_err());
        assert!(approximate_randomisation(&tiny(), ratio, 0, 1).is_err());
    }
}
