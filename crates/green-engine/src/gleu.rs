//! GLEU (Napoles et al., ACL 2015 and the 2016 erratum) exactly as its maintained
//! implementation computes it: the PyPI package `gleu` (1.1), whose `--fix-seed` draws
//! reproduce the original `gleu.py` of the GLEU+ release (Python 2's seeded `random`).
//!
//! Per sentence, hypothesis, reference and order n, over the hypothesis' distinct n-grams g
//! with counts s, r, c in source, reference and hypothesis: `matched = Σ min(r, c)`,
//! `penalty = Σ_{r = 0} min(s, c)` (source n-grams the reference dropped but the hypothesis
//! kept), `total = Σ c`; the penalty is clipped to `matched` per sentence before summing.
//! `p_n = (matched - penalty) / total` (1 when total is 0), the brevity penalty is
//! `exp(min(0, 1 - rlen / hlen))`, and GLEU = BP · exp(mean log p_n), the mean summed the
//! way NumPy sums. Corpus GLEU draws one reference per sentence per iteration and averages
//! the iterations; iteration i seeds Python's Mersenne Twister with `101 · i` and takes
//! reference `⌊random() · R⌋` for each sentence in order ([`draws`]). This module owns the
//! generator ([`PyRandom`], CPython's `random.random` bit for bit), so no crate upgrade can
//! change a published number. Sentence GLEU is the mean over references (or their best).

use serde::{Deserialize, Serialize};

use crate::numpy::numpy_mean;

/// One order's GLEU statistics of one (hypothesis, reference) pair, or their sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GleuStats {
    pub matched: u64,
    pub penalty: u64,
    pub total: u64,
}

impl GleuStats {
    /// The penalty clipped to the matches (per sentence, before summing).
    pub fn rectified(self) -> GleuStats {
        GleuStats {
            penalty: self.penalty.min(self.matched),
            ..self
        }
    }

    pub fn add(&mut self, other: &GleuStats) {
        self.matched += other.matched;
        self.penalty += other.penalty;
        self.total += other.total;
    }

    /// `(matched - penalty) / total`, 1 for no n-gram; call on rectified statistics.
    pub fn precision(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            (self.matched - self.penalty) as f64 / self.total as f64
        }
    }
}

/// GLEU statistics of one sentence for every hypothesis, reference and order, and lengths.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GleuCounts {
    pub n: usize,
    pub refs: usize,
    pub hyps: usize,
    /// Flat `[hyp][ref][order]`.
    pub stats: Vec<GleuStats>,
    /// Length in tokens of each reference and hypothesis.
    pub ref_len: Vec<u64>,
    pub hyp_len: Vec<u64>,
}

impl GleuCounts {
    /// The per-order statistics of hypothesis `hyp` against reference `reference`.
    pub fn get(&self, hyp: usize, reference: usize) -> &[GleuStats] {
        let start = (hyp * self.refs + reference) * self.n;
        &self.stats[start..start + self.n]
    }

    /// The counts of hypothesis `hyp` alone (one hypothesis, every reference).
    pub fn hypothesis(&self, hyp: usize) -> GleuCounts {
        let per = self.refs * self.n;
        GleuCounts {
            n: self.n,
            refs: self.refs,
            hyps: 1,
            stats: self.stats[hyp * per..(hyp + 1) * per].to_vec(),
            ref_len: self.ref_len.clone(),
            hyp_len: vec![self.hyp_len[hyp]],
        }
    }
}

/// The official GLEU as a [`green_metric::Metric`]: a sentence's statistics are
/// [`GleuCounts`] of one hypothesis; the fold is the corpus GLEU over `iterations` seeded
/// reference draws, or with each sentence's best reference when `max` (the package's `--max`).
#[derive(Debug, Clone, Copy)]
pub struct Gleu {
    pub iterations: u64,
    pub max: bool,
}

impl green_metric::Checked for GleuCounts {
    /// Every hypothesis n-gram is matched, penalised or neither, and a hypothesis of `len`
    /// tokens has `len - k + 1` n-grams of order `k`.
    fn check(&self) -> Result<(), String> {
        let lengths_fit = self
            .ref_len
            .iter()
            .chain(&self.hyp_len)
            .all(|&l| l <= green_metric::MAX_COUNT);
        if self.n == 0
            || Some(self.stats.len())
                != self
                    .hyps
                    .checked_mul(self.refs)
                    .and_then(|x| x.checked_mul(self.n))
            || self.ref_len.len() != self.refs
            || self.hyp_len.len() != self.hyps
            || !lengths_fit
        {
            return Err(
                "GLEU counts whose sizes do not fit their orders, references and hypotheses".into(),
            );
        }
        for h in 0..self.hyps {
            for r in 0..self.refs {
                for (k, s) in self.get(h, r).iter().enumerate() {
                    let grams = self.hyp_len[h].saturating_sub(k as u64);
                    if s.total != grams
                        || s.matched.checked_add(s.penalty).is_none_or(|m| m > s.total)
                    {
                        return Err(format!(
                            "GLEU counts of order {} ({} matched, {} penalised, {} in all) impossible for a hypothesis of {} tokens",
                            k + 1,
                            s.matched,
                            s.penalty,
                            s.total,
                            self.hyp_len[h]
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

impl green_metric::Metric for Gleu {
    type Stats = GleuCounts;
    type Totals = f64;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a GleuCounts>) -> f64 {
        let sentences: Vec<GleuCounts> = stats.into_iter().cloned().collect();
        if self.max {
            corpus_score(&sentences, 0, &best_references(&sentences, 0)).gleu
        } else {
            sampled_corpus_score(&sentences, 0, self.iterations)
        }
    }

    fn score(&self, gleu: &f64) -> f64 {
        *gleu
    }

    fn sentence_scores(&self, stats: &[GleuCounts]) -> Vec<f64> {
        stats
            .iter()
            .map(|c| sentence_score(c, 0, self.max))
            .collect()
    }
}

/// Natural log of the brevity penalty: 0 when the hypothesis is at least as long as the
/// reference (or both are empty), `1 - rlen / hlen` when shorter, -inf when empty.
pub fn log_brevity_penalty(rlen: u64, hlen: u64) -> f64 {
    if rlen == 0 && hlen == 0 {
        0.0
    } else if hlen == 0 {
        f64::NEG_INFINITY
    } else if rlen < hlen {
        0.0
    } else {
        1.0 - rlen as f64 / hlen as f64
    }
}

/// One GLEU score and its parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GleuScore {
    pub gleu: f64,
    /// Per order: `exp(log BP + log p_n)`.
    pub orders: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    /// Geometric mean of the precisions.
    pub p: f64,
}

/// GLEU of summed rectified statistics (one per order) and summed lengths.
pub fn gleu(stats: &[GleuStats], rlen: u64, hlen: u64) -> GleuScore {
    let log_bp = log_brevity_penalty(rlen, hlen);
    let precisions: Vec<f64> = stats.iter().map(GleuStats::precision).collect();
    let logs: Vec<f64> = precisions.iter().map(|p| p.ln()).collect();
    let mean_log = numpy_mean(&logs);
    GleuScore {
        gleu: (log_bp + mean_log).exp(),
        orders: logs.iter().map(|l| (log_bp + l).exp()).collect(),
        precisions,
        bp: log_bp.exp(),
        p: mean_log.exp(),
    }
}

/// GLEU of one sentence's pair: its statistics rectified.
pub fn pair_score(counts: &GleuCounts, hyp: usize, reference: usize) -> GleuScore {
    let stats: Vec<GleuStats> = counts
        .get(hyp, reference)
        .iter()
        .map(|s| s.rectified())
        .collect();
    gleu(&stats, counts.ref_len[reference], counts.hyp_len[hyp])
}

/// The reference the package's `--max` mode prefers: highest GLEU, ties broken by the
/// per-order scores from the highest order down; the first of equals.
pub fn best_reference(counts: &GleuCounts, hyp: usize) -> usize {
    let key = |r: usize| {
        let s = pair_score(counts, hyp, r);
        let mut k = vec![s.gleu];
        k.extend(s.orders.iter().rev());
        k
    };
    let mut best = 0;
    let mut best_key = key(0);
    for r in 1..counts.refs {
        let k = key(r);
        if k.partial_cmp(&best_key) == Some(std::cmp::Ordering::Greater) {
            best = r;
            best_key = k;
        }
    }
    best
}

/// Each sentence's [`best_reference`] for hypothesis `hyp` (the package's `--max`).
pub fn best_references(sentences: &[GleuCounts], hyp: usize) -> Vec<usize> {
    sentences.iter().map(|c| best_reference(c, hyp)).collect()
}

/// Sentence GLEU of hypothesis `hyp`: the mean over references, or the best with `max`.
pub fn sentence_score(counts: &GleuCounts, hyp: usize, max: bool) -> f64 {
    let scores: Vec<f64> = (0..counts.refs)
        .map(|r| pair_score(counts, hyp, r).gleu)
        .collect();
    if max {
        scores.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    } else {
        numpy_mean(&scores)
    }
}

/// The corpus statistics of hypothesis `hyp` with reference `choice[d]` for sentence d:
/// per-order sums of rectified statistics, and the summed reference and hypothesis lengths.
pub fn corpus_stats(
    sentences: &[GleuCounts],
    hyp: usize,
    choice: &[usize],
) -> (Vec<GleuStats>, u64, u64) {
    let n = sentences.first().map_or(0, |s| s.n);
    let mut sums = vec![GleuStats::default(); n];
    let (mut rlen, mut hlen) = (0, 0);
    for (s, &r) in sentences.iter().zip(choice) {
        for (sum, st) in sums.iter_mut().zip(s.get(hyp, r)) {
            sum.add(&st.rectified());
        }
        rlen += s.ref_len[r];
        hlen += s.hyp_len[hyp];
    }
    (sums, rlen, hlen)
}

/// Corpus GLEU of hypothesis `hyp` with reference `choice[d]` for sentence d.
pub fn corpus_score(sentences: &[GleuCounts], hyp: usize, choice: &[usize]) -> GleuScore {
    let (sums, rlen, hlen) = corpus_stats(sentences, hyp, choice);
    gleu(&sums, rlen, hlen)
}

/// The reference drawn for each sentence in iteration `iteration`, as the package's
/// `--fix-seed` (and the original gleu.py) draws them: `⌊random() · R⌋` after seeding with
/// `101 · iteration`, R the sentence's number of references (the same for all sentences
/// in the package; per sentence here, for M2 files whose sentences have different numbers).
pub fn draws(iteration: u64, refs: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut rng = PyRandom::new(iteration * 101);
    refs.into_iter().map(|r| draw(&mut rng, r)).collect()
}

/// One draw among `refs` references: `⌊random() · refs⌋` (Python 2's `randint(0, refs - 1)`).
pub fn draw(rng: &mut PyRandom, refs: usize) -> usize {
    ((rng.random() * refs as f64) as usize).min(refs.saturating_sub(1))
}

/// Corpus GLEU with `iterations` reference draws, averaged the way NumPy averages.
pub fn sampled_corpus_score(sentences: &[GleuCounts], hyp: usize, iterations: u64) -> f64 {
    let scores: Vec<f64> = (0..iterations)
        .map(|i| {
            let choice = draws(i, sentences.iter().map(|s| s.refs));
            corpus_score(sentences, hyp, &choice).gleu
        })
        .collect();
    numpy_mean(&scores)
}

/// CPython's `random.Random` (MT19937): `seed(int)` and `random()`, bit for bit.
pub struct PyRandom {
    mt: [u32; 624],
    index: usize,
}

/// MT19937's state after `init_genrand(19650218)`, where every `init_by_array` starts: the
/// same for every seed, so made once (a third of a seeding's work).
fn genrand_19650218() -> &'static [u32; 624] {
    static STATE: std::sync::OnceLock<[u32; 624]> = std::sync::OnceLock::new();
    STATE.get_or_init(|| {
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = 1_812_433_253u32.wrapping_mul(prev).wrapping_add(i as u32);
        }
        mt
    })
}

impl PyRandom {
    /// `random.seed(seed)` for a non-negative integer below 2^64.
    pub fn new(seed: u64) -> PyRandom {
        let key: Vec<u32> = if seed >> 32 == 0 {
            vec![seed as u32]
        } else {
            vec![seed as u32, (seed >> 32) as u32]
        };
        let mut r = PyRandom {
            mt: *genrand_19650218(),
            index: 624,
        };
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624.max(key.len()) {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                r.mt[0] = r.mt[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                r.mt[0] = r.mt[623];
                i = 1;
            }
        }
        r.mt[0] = 0x8000_0000;
        r
    }

    /// The next 624 words of state: word k from words k, k + 1 and k + 397 (mod 624), in
    /// three runs so that no index wraps inside a loop.
    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        let mix = |k: u32, next: u32, far: u32| {
            let y = (k & UPPER) | (next & !UPPER);
            far ^ (y >> 1) ^ (0u32.wrapping_sub(y & 1) & 0x9908_b0df)
        };
        let mt = &mut self.mt;
        for k in 0..227 {
            mt[k] = mix(mt[k], mt[k + 1], mt[k + 397]);
        }
        for k in 227..623 {
            mt[k] = mix(mt[k], mt[k + 1], mt[k - 227]);
        }
        mt[623] = mix(mt[623], mt[0], mt[396]);
        self.index = 0;
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.getrandbits(k)` for `k` of 1 to 32: the next word's top `k` bits.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        debug_assert!((1..=32).contains(&k));
        self.next_u32() >> (32 - k)
    }

    /// `random.random()`: 53 random bits in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Counter, Whitespace};

    #[test]
    fn python_random_bit_for_bit() {
        // From CPython 3.11: random.seed(s); random.random(), random.random().
        for (seed, a, b) in [
            (0, 0.8444218515250481, 0.7579544029403025),
            (101, 0.5811521325045647, 0.1947544955341367),
            (202, 0.7638815744633954, 0.6447807510863064),
            (50399, 0.054757243828206126, 0.3336345621293123),
        ] {
            let mut r = PyRandom::new(seed);
            assert_eq!((r.random(), r.random()), (a, b), "seed {seed}");
        }
        // Third draw of seed 101, times 3, floored: 2.
        assert_eq!(draws(1, [3, 3, 3])[2], 2);
    }

    #[test]
    fn statistics_read_back_are_checked() {
        use green_metric::Checked;
        let counts = Counter::with_local(|c| {
            c.count_gleu(&Whitespace, 2, "a b c", &["a x c"], &["a b c", "a b"])
                .unwrap()
        });
        assert_eq!(counts.check(), Ok(()));
        let mut bad = counts.clone();
        bad.stats[0].matched += 5;
        assert!(bad
            .check()
            .unwrap_err()
            .contains("impossible for a hypothesis of 3 tokens"));
        let mut bad = counts.clone();
        bad.hyp_len[1] = 7;
        assert!(bad.check().is_err());
        let mut bad = counts;
        bad.stats.pop();
        assert!(bad.check().unwrap_err().contains("sizes do not fit"));
    }

    #[test]
    fn statistics_by_hand() {
        // S = "a b c", R = "a x c", C = "a b c": unigrams a, c match (2), b is a source
        // unigram the reference dropped and the hypothesis kept (penalty 1).
        let c = Counter::new()
            .count_gleu(&Whitespace, 2, "a b c", &["a x c"], &["a b c"])
            .unwrap();
        assert_eq!(
            c.get(0, 0),
            [
                GleuStats {
                    matched: 2,
                    penalty: 1,
                    total: 3
                },
                GleuStats {
                    matched: 0,
                    penalty: 2,
                    total: 2
                },
            ]
        );
        assert_eq!((c.ref_len[0], c.hyp_len[0]), (3, 3));
        let s = pair_score(&c, 0, 0);
        // p1 = (2 - 1) / 3; p2 = (0 - 0) / 2 once the penalty is clipped to the matches.
        assert_eq!(s.precisions, [1.0 / 3.0, 0.0]);
        assert_eq!((s.gleu, s.bp), (0.0, 1.0));
    }

    #[test]
    fn brevity_penalty_cases() {
        assert_eq!(log_brevity_penalty(0, 0), 0.0);
        assert_eq!(log_brevity_penalty(3, 0), f64::NEG_INFINITY);
        assert_eq!(log_brevity_penalty(3, 4), 0.0);
        assert_eq!(log_brevity_penalty(4, 2), -1.0);
    }
}
