//! GLEU as Napoles' own scripts score it, because JFLEG's leaderboard was made with them and
//! they do not give the PyPI package's numbers ([`crate::gleu`]): JFLEG's `eval/gleu.py`
//! (keisks/jfleg) and `compute_gleu` with its `gleu.py` (cnap/gec-ranking), run with
//! Python 2.7.
//!
//! The statistics are the package's ([`GleuCounts`]): per order, the numerator is the
//! rectified `matched - penalty` and the denominator the hypothesis' n-gram count. What the
//! scripts do differently, and what this module reproduces:
//! - a score is 0 as soon as any statistic is 0 (hypothesis or reference length, a
//!   numerator, a denominator), where the package scores a missing order as precision 1;
//! - the log precisions are added left to right and divided by 4, whatever the number of
//!   orders summed (the scripts' `-n` changes how many, not the divisor; see [`Orders`]);
//! - sentence scores replace every 0 statistic by 1 first (their smoothing) and are taken
//!   against each reference in turn;
//! - a run reports the NumPy mean and population standard deviation of its scores (one per
//!   iteration, or per reference for a sentence) and SciPy's normal 95% interval around the
//!   mean ([`Summary`]).
//!
//! Iteration `j` draws reference `⌊random() · R⌋` for every sentence after `random.seed(101 · j)`:
//! Python 2's `random.randint(0, R - 1)` is exactly that ([`crate::gleu::draw`]; Python 3's
//! `randint` draws bits instead and gives other references from the same seeds).

use std::borrow::Cow;

use rayon::prelude::*;

use crate::gleu::{draw, GleuCounts, PyRandom};
use crate::numpy::{numpy_mean, pairwise_sum};
use crate::{TokenizeError, Tokenizer};

/// The scripts' tokens: Python 2's `str.split()` of a byte string, which splits at the six
/// ASCII whitespace bytes only (not at U+00A0, U+3000 or U+001C..U+001F, as Python 3 does).
/// Its texts are [`latin1`] strings, so every byte is one character and tokens compare as
/// the scripts compare them, byte for byte, whatever the encoding.
#[derive(Debug, Clone, Copy, Default)]
pub struct Python2Split;

impl Tokenizer for Python2Split {
    fn name(&self) -> String {
        "py2-split".into()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
        for token in text.split(space).filter(|t| !t.is_empty()) {
            sink(token);
        }
        Ok(())
    }

    fn splits_before_spaces(&self) -> bool {
        true
    }
}

/// `bytes` as text with one character per byte (ISO 8859-1), borrowed when it is ASCII.
pub fn latin1(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) if text.is_ascii() => Cow::Borrowed(text),
        _ => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Which script's reading of `-n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// keisks/jfleg `eval/gleu.py`: its GLEU object counts `-n` orders.
    Jfleg,
    /// cnap/gec-ranking `compute_gleu`: its GLEU object always counts 4 orders.
    GecRanking,
}

/// How many orders a corpus score and a sentence score sum, from the command line's `-n`.
///
/// Both scripts keep every iteration's running sums in a list made for `2 · n + 2` entries
/// (`eval/gleu.py`: always 4 orders' worth, since it never passes `-n` on) and add each
/// sentence's statistics into it with `zip`, which stops at the shorter list: the corpus
/// sums only the first `min(n, 4)` orders (fewer when a GLEU object counts fewer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orders {
    pub corpus: usize,
    pub sentence: usize,
    /// compute_gleu with `-n` below 0: its running sums have no entries at all, so scoring
    /// any iteration fails (a ValueError); with no iteration it prints NaN.
    pub no_sums: bool,
}

impl Script {
    /// The orders `-n n` sums.
    pub fn orders(self, n: i64) -> Orders {
        let counted = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
        Orders {
            corpus: counted.min(4),
            sentence: match self {
                Script::Jfleg => counted,
                Script::GecRanking => 4,
            },
            no_sums: self == Script::GecRanking && n < 0,
        }
    }
}

/// The scripts' `GLEU.gleu(stats, smooth)`: `stats` is the hypothesis length, the reference
/// length and (numerator, denominator) per order. With `smooth`, every 0 counts as 1; else
/// any 0 makes the score 0. Then `exp(min(0, 1 - r / c) + Σ log(num / den) / 4)`, the sum
/// taken left to right as Python's `sum` takes it.
pub fn script_gleu(
    c: u64,
    r: u64,
    orders: impl IntoIterator<Item = (u64, u64)>,
    smooth: bool,
) -> f64 {
    let fix = |x: u64| if smooth && x == 0 { 1 } else { x };
    let (c, r) = (fix(c), fix(r));
    if c == 0 || r == 0 {
        return 0.0;
    }
    let mut log_precision = 0.0f64;
    for (num, den) in orders {
        let (num, den) = (fix(num), fix(den));
        if num == 0 || den == 0 {
            return 0.0;
        }
        log_precision += (num as f64 / den as f64).ln();
    }
    // Python's `min([0, x])` keeps the 0 unless x is below it.
    let short = 1.0 - r as f64 / c as f64;
    let log_bp = if short < 0.0 { short } else { 0.0 };
    (log_bp + log_precision / 4.0).exp()
}

/// (numerator, denominator) of order `k` (from 0) of the one hypothesis of `counts` against
/// reference `r`: the rectified `matched - penalty` and the n-gram count.
fn order_stats(counts: &GleuCounts, r: usize, k: usize) -> (u64, u64) {
    let s = counts.get(0, r)[k].rectified();
    (s.matched - s.penalty, s.total)
}

/// A draw the scripts cannot score: iteration `iteration` (from 0) draws reference
/// `reference` (from 0) for sentence `sentence` (from 0), which has fewer references (its
/// line is missing from shorter reference files), and the script fails with an IndexError.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissingReference {
    pub sentence: usize,
    pub reference: usize,
    pub iteration: usize,
}

/// The corpus score of each of `iterations` reference draws among `refs` references over
/// `sentences` (each the [`GleuCounts`] of one hypothesis, counted to at least `orders`
/// orders, at most 4): the scripts' per-iteration sums, scored without smoothing.
/// Iterations are independent and run in parallel.
///
/// A sentence may have fewer than `refs` references (the scripts keep, for line `i`, the
/// lines `i` of the reference files long enough to have one, in order); a draw beyond them
/// is the scripts' IndexError, returned as the first such draw of the lowest iteration.
pub fn iteration_scores(
    sentences: &[GleuCounts],
    refs: usize,
    orders: usize,
    iterations: usize,
) -> Result<Vec<f64>, MissingReference> {
    assert!(orders <= 4, "a corpus score sums at most 4 orders");
    if sentences.is_empty() || refs == 0 {
        // No draw is made: every iteration sums nothing.
        let empty = script_gleu(0, 0, std::iter::repeat_n((0, 0), orders), false);
        return Ok(vec![empty; iterations]);
    }
    // Each sentence's statistics against each reference: c, r, then num/den per order (a
    // fixed width, so that adding a row is a few vector additions); a row of a reference
    // the sentence lacks is never read.
    let mut table = vec![[0u64; 10]; sentences.len() * refs];
    for (i, s) in sentences.iter().enumerate() {
        for r in 0..s.refs.min(refs) {
            let row = &mut table[i * refs + r];
            row[0] = s.hyp_len[0];
            row[1] = s.ref_len[r];
            for k in 0..orders {
                (row[2 + 2 * k], row[3 + 2 * k]) = order_stats(s, r, k);
            }
        }
    }
    let complete = sentences.iter().all(|s| s.refs >= refs);
    let score = |j: usize| {
        let mut rng = PyRandom::new(j as u64 * 101);
        let mut sums = [0u64; 10];
        for (i, rows) in table.chunks_exact(refs).enumerate() {
            let r = draw(&mut rng, refs);
            if !complete && r >= sentences[i].refs {
                return Err(MissingReference {
                    sentence: i,
                    reference: r,
                    iteration: j,
                });
            }
            for (sum, x) in sums.iter_mut().zip(&rows[r]) {
                *sum += x;
            }
        }
        let pairs = sums[2..2 + 2 * orders].chunks_exact(2);
        Ok(script_gleu(
            sums[0],
            sums[1],
            pairs.map(|p| (p[0], p[1])),
            false,
        ))
    };
    // In order, so that the error is the lowest iteration's whatever the thread count.
    let scores: Vec<Result<f64, MissingReference>> =
        (0..iterations).into_par_iter().map(score).collect();
    scores.into_iter().collect()
}

/// A sentence's smoothed score against each of its references, summing `orders` orders.
/// Orders beyond what `counts` counted add `log(1 / 1) = 0` (no n-gram of that order, both
/// statistics smoothed to 1), so counting up to the hypothesis' length is enough.
pub fn sentence_scores(counts: &GleuCounts, orders: usize) -> Vec<f64> {
    let counted = orders.min(counts.n);
    (0..counts.refs)
        .map(|r| {
            let pairs = (0..counted).map(|k| order_stats(counts, r, k));
            script_gleu(counts.hyp_len[0], counts.ref_len[r], pairs, true)
        })
        .collect()
}

/// The scripts' `get_gleu_stats`: `np.mean`, `np.std` and
/// `scipy.stats.norm.interval(0.95, loc=mean, scale=std)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub mean: f64,
    pub std: f64,
    /// NaN at both ends when the deviation is 0 or NaN (SciPy's answer for scale ≤ 0).
    pub low: f64,
    pub high: f64,
}

/// SciPy's `norm.ppf((1 - 0.95) / 2)` (Cephes `ndtri` of 0.025000000000000022) and of
/// `(1 + 0.95) / 2`, as SciPy 1.2 returns them.
const NDTRI_LOW: f64 = -1.959963984540054;
const NDTRI_HIGH: f64 = 1.959963984540054;

impl Summary {
    pub fn of(scores: &[f64]) -> Summary {
        let mean = numpy_mean(scores);
        let std = numpy_std(scores, mean);
        // `ppf` gives `ndtri(q) * scale + loc` where `scale > 0 and loc == loc`, else NaN.
        let (low, high) = if std > 0.0 && !mean.is_nan() {
            (NDTRI_LOW * std + mean, NDTRI_HIGH * std + mean)
        } else {
            (f64::NAN, f64::NAN)
        };
        Summary {
            mean,
            std,
            low,
            high,
        }
    }
}

/// `np.std(xs)` given `np.mean(xs)`: the pairwise sum of squared deviations over n, rooted.
fn numpy_std(xs: &[f64], mean: f64) -> f64 {
    let squares: Vec<f64> = xs.iter().map(|x| (x - mean) * (x - mean)).collect();
    (pairwise_sum(&squares) / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Counter, Whitespace};

    #[test]
    fn splits_bytes_as_python_2() {
        let text = latin1(b"a\xa0b\x1cc\td\x0be  \xe3\x80\x80f\r");
        let tokens = Python2Split.tokens(&text).unwrap();
        assert_eq!(tokens, ["a\u{a0}b\u{1c}c", "d", "e", "\u{e3}\u{80}\u{80}f"]);
        assert!(matches!(latin1(b"plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn a_zero_statistic_scores_zero_unless_smoothed() {
        assert_eq!(script_gleu(3, 3, [(3, 3), (0, 2)], false), 0.0);
        assert_eq!(script_gleu(0, 3, [], false), 0.0);
        // Smoothed: 0/2 becomes 1/2, the empty hypothesis' length 1.
        let s = script_gleu(3, 3, [(3, 3), (0, 2)], true);
        assert_eq!(s, (0.5f64.ln() / 4.0).exp());
        // The sum of the logs is divided by 4 whatever the number of orders.
        assert_eq!(
            script_gleu(2, 2, [(1, 2)], false),
            (0.5f64.ln() / 4.0).exp()
        );
        // Brevity: exp(1 - r / c) when the hypothesis is shorter.
        assert_eq!(script_gleu(2, 4, [], false), (-1.0f64).exp());
    }

    #[test]
    fn orders_as_each_script_reads_n() {
        let o = |s: Script, n| {
            let o = s.orders(n);
            (o.corpus, o.sentence, o.no_sums)
        };
        assert_eq!(o(Script::Jfleg, 4), (4, 4, false));
        assert_eq!(o(Script::Jfleg, 7), (4, 7, false));
        assert_eq!(o(Script::Jfleg, 2), (2, 2, false));
        assert_eq!(o(Script::Jfleg, -3), (0, 0, false));
        assert_eq!(o(Script::GecRanking, 7), (4, 4, false));
        assert_eq!(o(Script::GecRanking, 2), (2, 4, false));
        assert_eq!(o(Script::GecRanking, -1), (0, 4, true));
    }

    #[test]
    fn summary_as_numpy_and_scipy() {
        // Python 2.7, NumPy 1.16, SciPy 1.2: np.mean, np.std, norm.interval of [0.25, 0.5, 1].
        let s = Summary::of(&[0.25, 0.5, 1.0]);
        assert_eq!((s.mean, s.std), (0.5833333333333334, 0.31180478223116176));
        assert_eq!((s.low, s.high), (-0.027792810047098326, 1.194459476713765));
        // No spread: SciPy's interval is NaN; no scores: everything is.
        let s = Summary::of(&[0.5, 0.5]);
        assert!(s.std == 0.0 && s.low.is_nan() && s.high.is_nan());
        assert!(Summary::of(&[]).mean.is_nan());
    }

    #[test]
    fn sentence_and_corpus_scores() {
        let counts = Counter::with_local(|c| {
            c.count_gleu(
                &Whitespace,
                4,
                "a b c d",
                &["a b x d", "a b c d"],
                &["a b c d"],
            )
            .unwrap()
        });
        let sentence = sentence_scores(&counts, 4);
        assert_eq!(sentence[1], 1.0);
        // Against "a b x d": unigrams 3 matched - 1 penalised (c) of 4; no bigram survives
        // (2 - 2 penalised, smoothed to 1/3), and so on.
        let want =
            ((2.0f64 / 4.0).ln() + (1.0f64 / 3.0).ln() + (1.0f64 / 2.0).ln() + 1.0f64.ln()) / 4.0;
        assert_eq!(sentence[0], want.exp());
        // Unsmoothed, every draw of the first reference has a 0 numerator: scores 0 or 1.
        let scores = iteration_scores(std::slice::from_ref(&counts), 2, 4, 20).unwrap();
        assert!(scores.iter().all(|&s| s == 0.0 || s == 1.0));
        assert!(scores.contains(&0.0) && scores.contains(&1.0));
    }

    #[test]
    fn a_draw_of_a_missing_reference_is_the_scripts_index_error() {
        let count = |refs: &[&str]| {
            Counter::with_local(|c| c.count_gleu(&Whitespace, 4, "a b", refs, &["a b"]).unwrap())
        };
        // Sentence 2 has one reference of two (the second reference file ends before it).
        let sentences = [count(&["a b", "a c"]), count(&["a b"])];
        let missing = iteration_scores(&sentences, 2, 4, 500).unwrap_err();
        assert_eq!((missing.sentence, missing.reference), (1, 1));
        // The lowest iteration that draws it: iteration j's second draw after seed 101 j.
        let first = (0..500)
            .find(|&j| crate::gleu::draws(j as u64, [2, 2])[1] == 1)
            .unwrap();
        assert_eq!(missing.iteration, first);
        // No draw past the references it has: scored.
        let none = (0..500)
            .take_while(|&j| crate::gleu::draws(j as u64, [2, 2])[1] == 0)
            .count();
        assert_eq!(
            iteration_scores(&sentences, 2, 4, none).unwrap().len(),
            none
        );
        // No sentence: every iteration scores 0.
        assert_eq!(iteration_scores(&[], 0, 4, 3).unwrap(), [0.0; 3]);
    }
}
