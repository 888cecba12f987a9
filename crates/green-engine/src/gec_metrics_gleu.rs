//! GLEU exactly as gec-metrics (gotutiyan/gec-metrics, `metrics/gleu.py`, class `GLEU`)
//! computes it, because the rating-based-aggregation paper's "GLEU+ 0.902" and gec-metrics'
//! README are its numbers, and they differ from the `gleu` package's ([`crate::gleu`]):
//! - per sentence, reference and order, over the hypothesis' distinct n-grams with counts
//!   s, r, c: `matched = Σ min(r, c)`, `dropped = Σ max(min(s, c) - r, 0)` (UD counted with
//!   its frequency), `tp = matched - dropped`, `fp = c_total - tp`; `tp` is **not** clipped
//!   at 0 before it is added to the corpus sums (the package and green's GLEU clip it);
//! - `p_n = tp / (tp + fp)`, but 1 when `fp` is 0; a score is 0 when any `p_n ≤ 0`, else
//!   `exp(min(0, 1 - rlen / hlen) + Σ ln p_n / N)`;
//! - tokens are `str.split(' ')`: every single space separates, so a line's length is its
//!   number of spaces plus one (an empty line is one token long but has no n-grams);
//! - iteration i calls `random.seed(101 · i)` and draws `random.randint(0, R - 1)` for every
//!   sentence (Python 3: `getrandbits` with rejection, not `⌊random() · R⌋`);
//! - sentence GLEU is the mean over references, each scored alone;
//! - sums of floats are CPython's `sum` (3.12 and later: Neumaier's compensated sum).
//!
//! Counts are integers (signed where gec-metrics' are); floats appear only in the score.

use std::collections::HashMap;

use crate::gleu::PyRandom;

/// One order's counts of one (hypothesis, reference) pair, or their sum over sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OrderCounts {
    /// TI + TK − UD, which may be negative.
    pub tp: i64,
    /// OI + 2 · UD.
    pub fp: i64,
}

impl OrderCounts {
    fn add(&mut self, other: &OrderCounts) {
        self.tp += other.tp;
        self.fp += other.fp;
    }

    /// gec-metrics' `Score.precision`: 1 when there is no false positive.
    pub fn precision(&self) -> f64 {
        if self.fp == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fp) as f64
        }
    }
}

/// One sentence's counts against every reference, and its lengths.
///
/// [`count`] makes them from text; [`SentenceStats::of_regions`] from GREEN's region counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceStats {
    pub n: usize,
    /// Flat `[reference][order]`.
    pub stats: Vec<OrderCounts>,
    pub ref_len: Vec<u64>,
    pub hyp_len: u64,
}

impl SentenceStats {
    pub fn refs(&self) -> usize {
        self.ref_len.len()
    }

    /// From GREEN's region counts (`regions[reference][order]`, orders 1..=N), which hold
    /// the same integers: tp = TI + TK − UD, fp = OI + 2 · UD, lengths from the unigrams.
    /// A length is at least 1, as `len(text.split(' '))`: for single-spaced text the two
    /// agree (an empty line is one token long to gec-metrics).
    pub fn of_regions(regions: &[&[crate::Regions]]) -> SentenceStats {
        let n = regions.first().map_or(0, |r| r.len());
        let unigram = |r: &[crate::Regions]| r.first().copied().unwrap_or_default();
        let u = unigram(regions.first().copied().unwrap_or_default());
        SentenceStats {
            n,
            stats: regions
                .iter()
                .flat_map(|r| r.iter())
                .map(|r| OrderCounts {
                    tp: (r.ti + r.tk) as i64 - r.ud as i64,
                    fp: (r.oi + 2 * r.ud) as i64,
                })
                .collect(),
            ref_len: regions
                .iter()
                .map(|r| {
                    let u = unigram(r);
                    (u.tk + u.ti + u.od + u.ui).max(1)
                })
                .collect(),
            hyp_len: (u.tk + u.ti + u.oi + u.ud).max(1),
        }
    }

    /// The per-order counts against reference `reference`.
    pub fn get(&self, reference: usize) -> &[OrderCounts] {
        &self.stats[reference * self.n..(reference + 1) * self.n]
    }
}

/// `len(text.split(' '))`.
fn length(text: &str) -> u64 {
    text.bytes().filter(|&b| b == b' ').count() as u64 + 1
}

/// Counts of every n-gram of order 1 to `n` of `text` split at single spaces; none for "".
fn ngrams(text: &str, n: usize) -> HashMap<Vec<&str>, u64> {
    let mut grams = HashMap::new();
    if text.is_empty() {
        return grams;
    }
    let words: Vec<&str> = text.split(' ').collect();
    for k in 1..=n {
        for w in words.windows(k) {
            *grams.entry(w.to_vec()).or_insert(0) += 1;
        }
    }
    grams
}

/// The counts of hypothesis `hyp` for source `source` and references `refs`, orders 1..=n.
pub fn count(n: usize, source: &str, refs: &[&str], hyp: &str) -> SentenceStats {
    let s = ngrams(source, n);
    let h = ngrams(hyp, n);
    let mut stats = vec![OrderCounts::default(); refs.len() * n];
    for (i, reference) in refs.iter().enumerate() {
        let r = ngrams(reference, n);
        for (gram, &mh) in &h {
            let ms = s.get(gram).copied().unwrap_or(0);
            let mr = r.get(gram).copied().unwrap_or(0);
            // TI + TK = min(r, c); OI + UD = c - min(r, c).
            let matched = mr.min(mh);
            let dropped = ms.min(mh).saturating_sub(mr);
            let st = &mut stats[i * n + gram.len() - 1];
            st.tp += matched as i64 - dropped as i64;
            st.fp += (mh - matched + dropped) as i64;
        }
    }
    SentenceStats {
        n,
        stats,
        ref_len: refs.iter().map(|r| length(r)).collect(),
        hyp_len: length(hyp),
    }
}

/// CPython's `sum` of floats from 3.12 on (start 0): the first term exactly, then
/// Neumaier's compensated sum, the compensation added at the end when non-zero and finite.
pub fn py_sum(values: &[f64]) -> f64 {
    let Some((&first, rest)) = values.split_first() else {
        return 0.0;
    };
    let (mut sum, mut c) = (first, 0.0f64);
    for &x in rest {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    if c != 0.0 && c.is_finite() {
        sum += c;
    }
    sum
}

/// gec-metrics' `GLEU.aggregate_score`: per-order counts, hypothesis and reference lengths.
pub fn aggregate(stats: &[OrderCounts], hyp_len: u64, ref_len: u64) -> f64 {
    let log_bp = (1.0 - ref_len as f64 / hyp_len as f64).min(0.0);
    let ps: Vec<f64> = stats.iter().map(OrderCounts::precision).collect();
    if ps.iter().any(|&p| p <= 0.0) {
        return 0.0;
    }
    let logs: Vec<f64> = ps.iter().map(|p| p.ln()).collect();
    (log_bp + py_sum(&logs) / stats.len() as f64).exp()
}

/// Sentence GLEU: the mean over references of the score against each alone.
pub fn sentence_score(counts: &SentenceStats) -> f64 {
    let scores: Vec<f64> = (0..counts.refs())
        .map(|r| aggregate(counts.get(r), counts.hyp_len, counts.ref_len[r]))
        .collect();
    py_sum(&scores) / scores.len() as f64
}

/// `random.randint(0, refs - 1)` of CPython 3: `getrandbits(k)` for k the bit length of
/// `refs` (below 2^32), drawn again while not below `refs`.
pub fn randint(rng: &mut PyRandom, refs: usize) -> usize {
    let k = usize::BITS - refs.leading_zeros();
    loop {
        let r = rng.getrandbits(k) as usize;
        if r < refs {
            return r;
        }
    }
}

/// Corpus GLEU of one system: `iterations` draws of one reference per sentence (seed
/// `101 · i`), each scored from the summed counts and lengths, averaged. Every sentence has
/// the same number of references (gec-metrics draws among the first sentence's number).
pub fn corpus_score(sentences: &[&SentenceStats], iterations: u64) -> f64 {
    let n = sentences.first().map_or(0, |s| s.n);
    let refs = sentences.first().map_or(0, |s| s.refs());
    let scores: Vec<f64> = (0..iterations)
        .map(|i| {
            let mut rng = PyRandom::new(i * 101);
            let mut sums = vec![OrderCounts::default(); n];
            let (mut hlen, mut rlen) = (0u64, 0u64);
            for s in sentences {
                let r = randint(&mut rng, refs);
                for (sum, st) in sums.iter_mut().zip(s.get(r)) {
                    sum.add(st);
                }
                hlen += s.hyp_len;
                rlen += s.ref_len[r];
            }
            aggregate(&sums, hlen, rlen)
        })
        .collect();
    py_sum(&scores) / scores.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gec-metrics' own test (`metrics/gleu_test.py`): sentences 0.5, 0.0, 1.0,
    /// 0.2578313459119911, corpus 0.2913773302697459 on CPython 3.12 (the test's
    /// 0.2913773302697463 is CPython 3.11's uncompensated `sum`, within its 1e-9).
    #[test]
    fn gec_metrics_test_case() {
        let srcs = [
            "This sentences contain gramamtical error .",
            "This is a sentence .",
            "This is no change .",
            "I bought a pen to write a letter to a friend .",
        ];
        let hyps = [
            "This sentence contains a grammatical error .",
            "the sentence was corrected into completely different one .",
            "This is no change .",
            "I bought a pen to write a letter to a friend .",
        ];
        let refs = [
            [
                "This sentence contains a grammatical error .",
                "These sentences contain grammatical errors .",
            ],
            ["dummy sentence .", "another dummy sentence ."],
            ["This is no change .", "This is no change ."],
            [
                "I bought a pen to write a letter to the friend .",
                "I bought a pen to write the letter to the friend .",
            ],
        ];
        let counts: Vec<SentenceStats> = (0..4)
            .map(|i| count(4, srcs[i], &refs[i], hyps[i]))
            .collect();
        let all: Vec<&SentenceStats> = counts.iter().collect();
        assert_eq!(corpus_score(&all, 500), 0.2913773302697459);
        let sent: Vec<f64> = counts.iter().map(sentence_score).collect();
        assert_eq!(sent, [0.5, 0.0, 1.0, 0.2578313459119911]);
    }

    #[test]
    fn numerator_is_not_clipped() {
        // S = "a b", R = "x y", C = "a b": both source unigrams dropped by the reference and
        // kept: tp = 0 - 2, fp = 0 + 2 · 2.
        let c = count(1, "a b", &["x y"], "a b");
        assert_eq!(c.get(0), [OrderCounts { tp: -2, fp: 4 }]);
        // An empty line is one token long and has no n-grams.
        let e = count(2, "", &[""], "");
        assert_eq!((e.hyp_len, e.stats[0]), (1, OrderCounts::default()));
        assert_eq!(sentence_score(&e), 1.0);
    }

    #[test]
    fn regions_give_the_same_counts() {
        let (src, hyp) = ("a b a c a b", "a b a b c a b");
        let refs = ["a c a b", "b b a c a b a", ""];
        let want = count(3, src, &refs, hyp);
        let c = crate::Counter::new()
            .count(&crate::Whitespace, 3, src, &refs, &[hyp])
            .unwrap();
        let regions: Vec<&[crate::Regions]> = (0..3).map(|r| c.get(0, r)).collect();
        assert_eq!(SentenceStats::of_regions(&regions), want);
    }

    #[test]
    fn python_sum_and_randint() {
        // CPython 3.12: sum([0.1] * 10) == 1.0 (naive summation gives 0.9999999999999999).
        assert_eq!(py_sum(&[0.1; 10]), 1.0);
        // CPython 3.12: random.seed(101); [random.randint(0, 2) for _ in range(6)].
        let mut rng = PyRandom::new(101);
        let got: Vec<usize> = (0..6).map(|_| randint(&mut rng, 3)).collect();
        assert_eq!(got, RANDINT_101_3);
    }

    const RANDINT_101_3: [usize; 6] = [2, 0, 2, 1, 1, 0];
}
