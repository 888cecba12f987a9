//! Percentile bootstrap confidence intervals (Efron and Tibshirani 1993, ch. 13).
//!
//! A replicate draws `n` items with replacement and is handed to the statistic as
//! multiplicities (`weights[i]` = how often item `i` was drawn), so a statistic over summed
//! per-item counts needs no copy of the data. Items are whatever must be resampled together:
//! sentences for a corpus score; sentences again (with every judgment of a sentence) for a
//! correlation with human judgments, because judgments of one sentence are not independent.

use rayon::prelude::*;
use serde::Serialize;

use crate::{Error, Rng};

/// A point estimate with its percentile interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The statistic on the original sample.
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// Coverage, e.g. 0.95.
    pub level: f64,
    /// Replicates drawn.
    pub replicates: usize,
    /// Replicates where the statistic was defined (e.g. not a constant sample).
    pub defined: usize,
}

/// The `q`-quantile (0 ≤ q ≤ 1) of sorted values with linear interpolation between order
/// statistics (NumPy's default `linear` method); `None` when there are no values.
pub fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    let frac = pos - lo as f64;
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * frac)
}

/// Draw replicate `k`'s multiplicities of `n` items into `weights`.
pub fn draw(seed: u64, k: u64, weights: &mut [u32]) {
    weights.fill(0);
    let n = weights.len() as u64;
    let mut rng = Rng::stream(seed, k);
    for _ in 0..n {
        weights[rng.below(n) as usize] += 1;
    }
}

/// Bootstrap `stat` over `n` items: `reps` replicates, interval at coverage `level`.
/// `stat` returns `None` where it is undefined; such replicates are counted and left out.
/// The estimate is `stat` on the original sample (every weight 1). Replicates run in
/// parallel; replicate `k` always draws from `Rng::stream(seed, k)`.
pub fn bootstrap<F>(
    n: usize,
    reps: usize,
    seed: u64,
    level: f64,
    stat: F,
) -> Result<Interval, Error>
where
    F: Fn(&[u32]) -> Option<f64> + Sync,
{
    let mut out = bootstrap_many(n, reps, seed, level, 1, |w| vec![stat(w)])?;
    out.pop().flatten().ok_or_else(|| {
        Error::Invalid(
            "bootstrap: the statistic is undefined on the sample itself or on every replicate"
                .into(),
        )
    })
}

/// Bootstrap `k` statistics that share each replicate's draw (e.g. every correlation of one
/// dataset view): `stat` returns `k` values. A statistic undefined on the original sample or
/// on every replicate gets `None`.
pub fn bootstrap_many<F>(
    n: usize,
    reps: usize,
    seed: u64,
    level: f64,
    k: usize,
    stat: F,
) -> Result<Vec<Option<Interval>>, Error>
where
    F: Fn(&[u32]) -> Vec<Option<f64>> + Sync,
{
    if n == 0 {
        return Err(Error::Invalid("bootstrap: no items to resample".into()));
    }
    if reps == 0 {
        return Err(Error::Invalid(
            "bootstrap: at least one replicate is needed".into(),
        ));
    }
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::Invalid(format!(
            "bootstrap: coverage {level} is not between 0 and 1"
        )));
    }
    let estimates = stat(&vec![1; n]);
    if estimates.len() != k {
        return Err(Error::Invalid(format!(
            "bootstrap: the statistic gave {} values, expected {k}",
            estimates.len()
        )));
    }
    let replicates: Vec<Vec<Option<f64>>> = (0..reps as u64)
        .into_par_iter()
        .map_init(
            || vec![0u32; n],
            |w, r| {
                draw(seed, r, w);
                stat(w)
            },
        )
        .collect();
    let tail = (1.0 - level) / 2.0;
    Ok((0..k)
        .map(|i| {
            let estimate = estimates[i]?;
            let mut values: Vec<f64> = replicates
                .iter()
                .filter_map(|r| r.get(i).copied().flatten())
                .filter(|v| v.is_finite())
                .collect();
            values.sort_by(f64::total_cmp);
            Some(Interval {
                estimate,
                low: percentile(&values, tail)?,
                high: percentile(&values, 1.0 - tail)?,
                level,
                replicates: reps,
                defined: values.len(),
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(x: &[f64]) -> impl Fn(&[u32]) -> Option<f64> + Sync + '_ {
        move |w| {
            let total: u32 = w.iter().sum();
            Some(x.iter().zip(w).map(|(v, &k)| v * k as f64).sum::<f64>() / total as f64)
        }
    }

    #[test]
    fn percentile_interpolates_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile(&v, 1.0), Some(4.0));
        assert_eq!(percentile(&v, 0.5), Some(2.5));
        // numpy.percentile([1, 2, 3, 4], 2.5) == 1.075
        assert!((percentile(&v, 0.025).unwrap() - 1.075).abs() < 1e-12);
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn every_replicate_draws_n_items() {
        let mut w = vec![0; 17];
        for k in 0..50 {
            draw(3, k, &mut w);
            assert_eq!(w.iter().sum::<u32>(), 17);
        }
    }

    #[test]
    fn constant_data_gives_a_point_interval() {
        let x = [2.5; 10];
        let i = bootstrap(10, 200, 1, 0.95, mean(&x)).unwrap();
        assert_eq!((i.estimate, i.low, i.high, i.defined), (2.5, 2.5, 2.5, 200));
    }

    #[test]
    fn two_point_sample_by_hand() {
        // Items {0, 1}: a replicate draws (0,0), (0,1), (1,0) or (1,1), so the mean is 0,
        // 0.5 or 1 with probabilities 1/4, 1/2, 1/4. The 95% interval is [0, 1] and about
        // half of the replicates sit at 0.5.
        let x = [0.0, 1.0];
        let i = bootstrap(2, 4000, 9, 0.95, mean(&x)).unwrap();
        assert_eq!((i.estimate, i.low, i.high), (0.5, 0.0, 1.0));
        let i50 = bootstrap(2, 4000, 9, 0.4, mean(&x)).unwrap();
        assert_eq!((i50.low, i50.high), (0.5, 0.5));
    }

    #[test]
    fn normal_mean_interval_is_close_to_theory() {
        // 400 values 0..399: sd of the mean = sd / sqrt(n) ≈ 115.5 / 20 ≈ 5.77, so the 95%
        // interval is about ±11.3 around 199.5.
        let x: Vec<f64> = (0..400).map(f64::from).collect();
        let i = bootstrap(400, 2000, 5, 0.95, mean(&x)).unwrap();
        assert!((i.low - (199.5 - 11.3)).abs() < 1.5, "{i:?}");
        assert!((i.high - (199.5 + 11.3)).abs() < 1.5, "{i:?}");
    }

    #[test]
    fn same_result_at_any_thread_count() {
        let x: Vec<f64> = (0..50).map(|v| (v * v % 17) as f64).collect();
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| bootstrap(50, 300, 11, 0.9, mean(&x)).unwrap())
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn many_statistics_share_each_draw() {
        // The mean and twice the mean from the same draws: intervals scale exactly.
        let x: Vec<f64> = (0..30).map(f64::from).collect();
        let out = bootstrap_many(30, 300, 2, 0.9, 3, |w| {
            let m = mean(&x)(w).unwrap();
            vec![Some(m), Some(2.0 * m), None]
        })
        .unwrap();
        let (a, b) = (out[0].unwrap(), out[1].unwrap());
        assert_eq!((2.0 * a.low, 2.0 * a.high), (b.low, b.high));
        assert_eq!(out[2], None);
        assert_eq!(bootstrap(30, 300, 2, 0.9, mean(&x)).unwrap(), a);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let x = [1.0];
        assert!(bootstrap(0, 10, 1, 0.95, mean(&x)).is_err());
        assert!(bootstrap(1, 0, 1, 0.95, mean(&x)).is_err());
        assert!(bootstrap(1, 10, 1, 1.0, mean(&x)).is_err());
        assert!(bootstrap(1, 10, 1, 0.95, |_| None).is_err());
    }
}
