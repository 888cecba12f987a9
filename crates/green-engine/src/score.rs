//! From region counts to precision, recall and F, with the reference's conventions.
//!
//! Counts stay integers until here. P_n = 1 when nothing was predicted, R_n = 0 when
//! nothing was expected (asymmetric on purpose, as in the reference); cumulative scores are
//! geometric means with no smoothing; the operations are ordered as in the reference so
//! floats come out bit for bit the same.

use serde::Serialize;

use crate::count::{Regions, SentenceCounts};

/// Weight of precision in F: `1 / (beta² + 1)`; 0 for beta = ∞ (recall only).
pub fn alpha(beta: f64) -> f64 {
    if beta.is_infinite() {
        0.0
    } else {
        1.0 / (beta * beta + 1.0)
    }
}

/// P_n of one order.
pub fn precision(r: &Regions) -> f64 {
    let (tp, fp) = (r.tp(), r.fp());
    if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    }
}

/// R_n of one order.
pub fn recall(r: &Regions) -> f64 {
    let (tp, fn_) = (r.tp(), r.fn_());
    if tp + fn_ == 0 {
        0.0
    } else {
        tp as f64 / (tp + fn_) as f64
    }
}

/// Weighted harmonic mean; 0 when either side is 0.
pub fn f_score(p: f64, r: f64, alpha: f64) -> f64 {
    if p == 0.0 || r == 0.0 {
        0.0
    } else if alpha == 0.0 {
        r
    } else {
        1.0 / (alpha / p + (1.0 - alpha) / r)
    }
}

/// Geometric mean of the prefix, as `exp(sum(log x) / k)`; 0 if any value is 0.
fn geometric_mean(xs: &[f64]) -> f64 {
    if xs.contains(&0.0) {
        0.0
    } else {
        (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
    }
}

/// Every number the verbose table shows for one order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OrderScore {
    pub order: usize,
    pub regions: Regions,
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub p: f64,
    pub r: f64,
    pub f: f64,
    pub cum_p: f64,
    pub cum_r: f64,
    pub cum_f: f64,
}

/// Per-order and cumulative scores for orders 1..=regions.len() at one beta.
pub fn order_scores(regions: &[Regions], beta: f64) -> Vec<OrderScore> {
    let a = alpha(beta);
    let ps: Vec<f64> = regions.iter().map(precision).collect();
    let rs: Vec<f64> = regions.iter().map(recall).collect();
    regions
        .iter()
        .enumerate()
        .map(|(i, reg)| {
            let cum_p = geometric_mean(&ps[..=i]);
            let cum_r = geometric_mean(&rs[..=i]);
            OrderScore {
                order: i + 1,
                regions: *reg,
                tp: reg.tp(),
                fp: reg.fp(),
                fn_: reg.fn_(),
                p: ps[i],
                r: rs[i],
                f: f_score(ps[i], rs[i], a),
                cum_p,
                cum_r,
                cum_f: f_score(cum_p, cum_r, a),
            }
        })
        .collect()
}

/// The GREEN score: cumulative F at the highest order of `regions`.
pub fn green(regions: &[Regions], beta: f64) -> f64 {
    let a = alpha(beta);
    cumulative(regions).last().map_or(0.0, |c| c.f(a))
}

/// F_1..F_N (cumulative), cheaper than [`order_scores`].
pub fn cumulative_fs(regions: &[Regions], beta: f64) -> Vec<f64> {
    let a = alpha(beta);
    cumulative(regions).map(|c| c.f(a)).collect()
}

/// The geometric means of precision and recall over orders 1..=k, as sums of logarithms
/// (a zero at any order makes the mean zero from there on).
#[derive(Clone, Copy)]
struct Cumulative {
    k: f64,
    log_p: Option<f64>,
    log_r: Option<f64>,
}

impl Cumulative {
    fn f(self, a: f64) -> f64 {
        // exp(0) is exactly 1 (IEEE 754), so a mean of ones needs no exponential.
        let exp = |x: f64| if x == 0.0 { 1.0 } else { x.exp() };
        let mean = |log: Option<f64>| log.map_or(0.0, |l| exp(l / self.k));
        f_score(mean(self.log_p), mean(self.log_r), a)
    }
}

/// Denominators below which [`ln_ratio`] keeps its logarithms: a table of 16 KB. Each of
/// its pages costs a process two faults (read as zeros, then written), so it holds the ratios
/// of word-level counts; larger ones (character level) cost a logarithm each.
const SMALL: usize = 64;

/// `(a as f64 / b as f64).ln()` for 0 < a < b, bit for bit: the ratios of small counts (a
/// sentence's precisions and recalls, two for each reference and order) from a table filled
/// as they are first met, so each is a logarithm once per process rather than once per use.
/// Threads that meet one at once store the same bits; no logarithm is 0, the empty mark.
fn ln_ratio(a: u64, b: u64) -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    static TABLE: [AtomicU64; (SMALL - 1) * (SMALL - 2) / 2] =
        [const { AtomicU64::new(0) }; (SMALL - 1) * (SMALL - 2) / 2];
    let ln = || (a as f64 / b as f64).ln();
    if b as usize >= SMALL {
        return ln();
    }
    // Denominator b's ratios (numerators 1..b) follow those of 2..b.
    let (a, b) = (a as usize, b as usize);
    let slot = &TABLE[(b - 1) * (b - 2) / 2 + a - 1];
    match slot.load(Relaxed) {
        0 => {
            let value = ln();
            slot.store(value.to_bits(), Relaxed);
            value
        }
        bits => f64::from_bits(bits),
    }
}

/// The logarithm of `part / whole` (a precision or a recall), `None` for a ratio of 0 (and for
/// `part == whole == 0`, with `empty` false: a recall of 0). A ratio of 1 gives exactly +0
/// without a logarithm (ln 1 = +0 in IEEE 754; a sentence's ratios are often 1).
fn ln_of(part: u64, whole: u64, empty: bool) -> Option<f64> {
    match (part, whole) {
        (0, 0) => empty.then_some(0.0),
        (0, _) => None,
        (p, w) if p == w => Some(0.0),
        (p, w) => Some(ln_ratio(p, w)),
    }
}

/// [`Cumulative`] at every order, without the exponentials until a score is asked for. Each
/// logarithm is that of [`precision`] or [`recall`], from the same two counts.
fn cumulative(regions: &[Regions]) -> impl Iterator<Item = Cumulative> + '_ {
    let (mut log_p, mut log_r) = (Some(0.0f64), Some(0.0f64));
    let add = |log: Option<f64>, ln: Option<f64>| Some(log? + ln?);
    regions.iter().enumerate().map(move |(i, reg)| {
        let tp = reg.tp();
        log_p = add(log_p, ln_of(tp, tp + reg.fp(), true));
        log_r = add(log_r, ln_of(tp, tp + reg.fn_(), false));
        Cumulative {
            k: (i + 1) as f64,
            log_p,
            log_r,
        }
    })
}

/// The reference the reference implementation would pick for hypothesis `hyp` using orders
/// 1..=n: the greatest [F_n, ..., F_1], the first one on a full tie. Returns its index and
/// its GREEN score F_n (the same number [`green`] gives for it, without computing it again).
pub fn select_reference(counts: &SentenceCounts, hyp: usize, n: usize, beta: f64) -> (usize, f64) {
    choose((0..counts.refs).map(|r| &counts.get(hyp, r)[..n]), beta)
}

/// [`select_reference`] among the region counts (orders 1..=n) of each reference in turn.
/// F_n decides unless two references tie on it; only then are lower orders computed.
pub fn choose<'a>(refs: impl IntoIterator<Item = &'a [Regions]>, beta: f64) -> (usize, f64) {
    use std::cmp::Ordering::{Equal, Greater};
    let mut best: Option<(usize, &[Regions], f64)> = None;
    for (r, regions) in refs.into_iter().enumerate() {
        // The same counts as the best so far tie with it at every order: the first stays.
        if best.is_some_and(|(_, b, _)| b == regions) {
            continue;
        }
        let f = green(regions, beta);
        let better = match best {
            None => true,
            Some((_, b, bf)) => match f.partial_cmp(&bf) {
                Some(Equal) => {
                    let below = |x: &[Regions]| {
                        let mut fs = cumulative_fs(x, beta);
                        fs.reverse();
                        fs
                    };
                    below(regions).partial_cmp(&below(b)) == Some(Greater)
                }
                order => order == Some(Greater),
            },
        };
        if better {
            best = Some((r, regions, f));
        }
    }
    best.map_or((0, 0.0), |(r, _, f)| (r, f))
}

/// GREEN as a [`green_metric::Metric`] at one beta: a sentence's statistics are the region
/// counts (orders 1..=n) against each of its references; the fold chooses each sentence's
/// reference by [`choose`] and sums the chosen counts.
#[derive(Debug, Clone, Copy)]
pub struct Green {
    pub n: usize,
    pub beta: f64,
}

impl green_metric::Metric for Green {
    /// `[reference][order]`.
    type Stats = Vec<Vec<Regions>>;
    /// Per order.
    type Totals = Vec<Regions>;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a Self::Stats>) -> Vec<Regions> {
        let mut totals = vec![Regions::default(); self.n];
        for refs in stats {
            // One reference is its own choice: no scores to compare (meta's chosen counts).
            let r = match refs.len() {
                1 => 0,
                _ => choose(refs.iter().map(|o| &o[..self.n]), self.beta).0,
            };
            if let Some(chosen) = refs.get(r) {
                for (t, c) in totals.iter_mut().zip(chosen) {
                    t.add(c);
                }
            }
        }
        totals
    }

    fn score(&self, totals: &Vec<Regions>) -> f64 {
        green(totals, self.beta)
    }
}

/// Integers per order in [`chosen_regions`]' layout: the seven regions, in a fixed order.
pub const REGION_WIDTH: usize = 7;

/// What a paired test or a bootstrap resamples of GREEN: for each sentence of `counts` and
/// each system `h`, the region counts (orders 1..=`n`) of the reference GREEN chooses for it
/// at `beta`, appended to `stats[h]` as [`REGION_WIDTH`] integers per order. Summed over any
/// multiset of sentences they give that multiset's corpus GREEN ([`green_of_sums`]).
pub fn chosen_regions(counts: &[SentenceCounts], n: usize, beta: f64, stats: &mut [Vec<u64>]) {
    for c in counts {
        for (h, out) in stats.iter_mut().enumerate() {
            let (r, _) = select_reference(c, h, n, beta);
            for reg in &c.get(h, r)[..n] {
                out.extend([reg.tk, reg.td, reg.ti, reg.od, reg.oi, reg.ud, reg.ui]);
            }
        }
    }
}

/// Corpus GREEN at `beta` (order `n`) of region counts summed in [`chosen_regions`]' layout.
pub fn green_of_sums(sums: &[u64], n: usize, beta: f64) -> f64 {
    let regions: Vec<Regions> = sums
        .chunks(REGION_WIDTH)
        .map(|r| Regions {
            tk: r[0],
            td: r[1],
            ti: r[2],
            od: r[3],
            oi: r[4],
            ud: r[5],
            ui: r[6],
        })
        .collect();
    order_scores(&regions, beta)[n - 1].cum_f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 5e-5, "{a} vs {b}");
    }

    #[test]
    fn conventions_for_empty_orders() {
        let empty = Regions::default();
        assert_eq!(precision(&empty), 1.0);
        assert_eq!(recall(&empty), 0.0);
        assert_eq!(green(&[empty], 1.0), 0.0);
    }

    #[test]
    fn beta_extremes() {
        assert_eq!(alpha(0.0), 1.0);
        assert_eq!(alpha(f64::INFINITY), 0.0);
        assert_eq!(f_score(0.5, 0.25, alpha(f64::INFINITY)), 0.25);
        assert_eq!(f_score(0.5, 0.25, alpha(0.0)), 0.5);
    }

    #[test]
    fn vector_b_scores() {
        // vectors.md case B: TP/FP/FN per order (6,1,0) (5,3,0) (3,4,1) (2,3,2).
        let mk = |tp, fp, fn_| Regions {
            tk: tp,
            oi: fp,
            ui: fn_,
            ..Default::default()
        };
        let regs = [mk(6, 1, 0), mk(5, 3, 0), mk(3, 4, 1), mk(2, 3, 2)];
        close(green(&regs, 0.5) * 100.0, 58.5202);
        close(green(&regs, 1.0) * 100.0, 64.6323);
        close(green(&regs, 2.0) * 100.0, 72.1700);
        let last = order_scores(&regs, 1.0)[3];
        close(last.cum_p * 100.0, 55.0496);
        close(last.cum_r * 100.0, 78.2542);
        assert_eq!(last.cum_f, green(&regs, 1.0));
    }

    #[test]
    fn logarithms_from_the_table_are_those_of_the_ratios() {
        // Twice: the first pass fills the table, the second reads it.
        for _ in 0..2 {
            for b in 2..SMALL as u64 + 3 {
                for a in 1..b {
                    let ln = (a as f64 / b as f64).ln();
                    assert_eq!(ln_ratio(a, b).to_bits(), ln.to_bits(), "{a}/{b}");
                }
            }
        }
    }

    #[test]
    fn green_is_the_verbose_tables_cumulative_f_bit_for_bit() {
        // Counts of 0 (empty orders, zero precision or recall), equal parts (ratios of 1),
        // small and large denominators, at every order.
        let values = [0u64, 1, 2, 3, 7, 60, 127, 130, 1 << 40];
        let mut seed = 1u64;
        let mut pick = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            values[(seed >> 33) as usize % values.len()]
        };
        for _ in 0..2000 {
            let regs: Vec<Regions> = (0..4)
                .map(|_| Regions {
                    tk: pick(),
                    ti: pick(),
                    oi: pick(),
                    ui: pick(),
                    ..Default::default()
                })
                .collect();
            for beta in [0.5, 1.0, 2.0, f64::INFINITY] {
                let table = order_scores(&regs, beta);
                for k in 1..=regs.len() {
                    let f = green(&regs[..k], beta);
                    assert_eq!(f.to_bits(), table[k - 1].cum_f.to_bits(), "{regs:?} {beta}");
                }
            }
        }
    }
}
