//! Corpus, sentence and mean levels over many systems and betas in one pass.
//!
//! Sentences arrive in batches; each batch is counted in parallel (rayon) and folded into
//! an [`Accumulator`] strictly in sentence order, so integer sums and float means are the
//! same at any thread count. The accumulator holds only per-system totals: memory does not
//! grow with the number of sentences.
//!
//! An accumulator made with [`Accumulator::mergeable`] is GREEN's sufficient statistics of
//! a shard of the corpus: it also keeps every sentence score, so shards counted anywhere
//! (threads, processes, machines) and [`Accumulator::merge`]d in corpus order give the
//! report of one pass bit for bit: the region totals are integers, and the mean's float sum
//! is continued score by score in corpus order, as one pass adds them. It serialises with
//! serde (JSON, bincode, ...).

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::count::{Counter, Regions, SentenceCounts};
use crate::score::{order_scores, select_reference, OrderScore};
use crate::tokenizer::{TokenizeError, Tokenizer};
use crate::Error;

/// What to compute: the highest n-gram order and the betas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub n: usize,
    pub betas: Vec<f64>,
}

/// Highest N accepted. Per-order tables grow with N, and no text shares 100-token n-grams
/// often enough for the orders above to carry signal.
pub const MAX_N: usize = 100;

impl Config {
    /// Checks 1 ≤ N ≤ [`MAX_N`] and that every beta is a non-negative number (∞ allowed:
    /// recall only).
    pub fn new(n: usize, betas: Vec<f64>) -> Result<Config, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::Config(format!(
                "N must be between 1 and {MAX_N} (got {n})"
            )));
        }
        if betas.is_empty() {
            return Err(Error::Config("give at least one beta".into()));
        }
        if let Some(b) = betas.iter().find(|b| b.is_nan() || **b < 0.0) {
            return Err(Error::Config(format!(
                "beta must be a non-negative number or inf (got {b})"
            )));
        }
        Ok(Config { n, betas })
    }
}

/// One sentence of input: its source, its references (at least one) and one hypothesis per system.
#[derive(Debug, Clone, Copy)]
pub struct Sentence<'a> {
    pub source: &'a str,
    pub refs: &'a [&'a str],
    pub hyps: &'a [&'a str],
}

impl<'a> Sentence<'a> {
    /// Asks the CPU to bring this sentence's texts into its cache (up to their first KiB)
    /// while it counts the sentence before: on a corpus larger than the cache, the texts
    /// were last read when the files were split into lines, and counting would otherwise
    /// wait for each of them from memory.
    #[inline]
    pub(crate) fn prefetch(&self) {
        #[cfg(target_arch = "x86_64")]
        for text in std::iter::once(&self.source)
            .chain(self.refs)
            .chain(self.hyps)
        {
            let bytes = &text.as_bytes()[..text.len().min(1024)];
            for line in bytes.chunks(64) {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                // SAFETY: SSE is part of x86-64; a prefetch only hints, it reads nothing.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
            }
        }
    }

    /// Sentences from rows of lines read in lock step (`row = [source, refs.., hyps..]`,
    /// flattened), `refs` references per row.
    pub fn from_rows(lines: &'a [&'a str], files: usize, refs: usize) -> Vec<Sentence<'a>> {
        lines
            .chunks_exact(files)
            .map(|row| Sentence {
                source: row[0],
                refs: &row[1..1 + refs],
                hyps: &row[1 + refs..],
            })
            .collect()
    }
}

/// A tokenizer plus a configuration: counts and scores sentences.
pub struct Scorer<T> {
    pub tokenizer: T,
    pub config: Config,
}

impl<T: Tokenizer> Scorer<T> {
    pub fn new(tokenizer: T, config: Config) -> Self {
        Scorer { tokenizer, config }
    }

    /// Count one sentence.
    pub fn count(
        &self,
        counter: &mut Counter,
        s: &Sentence,
    ) -> Result<SentenceCounts, TokenizeError> {
        counter.count(&self.tokenizer, self.config.n, s.source, s.refs, s.hyps)
    }

    /// Count a batch of sentences in parallel; the result is in input order.
    /// Fails on the first sentence (by index) whose tokenisation fails.
    pub fn count_batch(
        &self,
        batch: &[Sentence],
    ) -> Result<Vec<SentenceCounts>, (usize, TokenizeError)> {
        // Collect every result before looking at errors, so the error reported is always
        // that of the first failing sentence, whatever the thread count.
        let results: Vec<Result<SentenceCounts, TokenizeError>> = batch
            .par_iter()
            .map(|s| Counter::with_local(|counter| self.count(counter, s)))
            .collect();
        results
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.map_err(|e| (i, e)))
            .collect()
    }

    /// Score in-memory sentences, each with its own references (one or more; the number may
    /// vary between sentences) and one hypothesis for each of `systems` systems. Sentences
    /// are counted in parallel a batch at a time and folded in order.
    pub fn evaluate_sentences(
        &self,
        sentences: &[Sentence],
        systems: usize,
    ) -> Result<crate::Evaluation, Error> {
        let mut acc = Accumulator::new(&self.config, systems);
        let mut scores = Vec::with_capacity(sentences.len());
        for (b, chunk) in sentences.chunks(BATCH).enumerate() {
            let scored = acc.add_sentences(self, chunk).map_err(|e| match e {
                Error::Tokenize { sentence, source } => Error::Tokenize {
                    sentence: b * BATCH + sentence,
                    source,
                },
                e => e,
            })?;
            scores.extend(scored.into_iter().map(|(_, s)| s));
        }
        Ok(crate::Evaluation {
            report: acc.finish(),
            sentences: scores,
        })
    }
}

/// A [`Config`] whose infinite beta survives formats without infinity (JSON): written as
/// the string "inf".
mod config_with_infinity {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Config;

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Beta {
        Number(f64),
        Text(String),
    }

    #[derive(Serialize, Deserialize)]
    struct Repr {
        n: usize,
        betas: Vec<Beta>,
    }

    pub fn serialize<S: Serializer>(config: &Config, s: S) -> Result<S::Ok, S::Error> {
        let betas = config.betas.iter().map(|&b| {
            if b == f64::INFINITY {
                Beta::Text("inf".into())
            } else {
                Beta::Number(b)
            }
        });
        Repr {
            n: config.n,
            betas: betas.collect(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Config, D::Error> {
        let repr = Repr::deserialize(d)?;
        let betas = repr.betas.into_iter().map(|b| match b {
            Beta::Number(b) => Ok(b),
            Beta::Text(t) if t == "inf" => Ok(f64::INFINITY),
            Beta::Text(t) => Err(serde::de::Error::custom(format!(
                "beta must be a number or \"inf\" (got {t:?})"
            ))),
        });
        Ok(Config {
            n: repr.n,
            betas: betas.collect::<Result<_, _>>()?,
        })
    }
}

/// Sentences counted per parallel batch by [`Scorer::evaluate_sentences`].
pub const BATCH: usize = 4096;

/// Sentence-level result of one sentence: `[beta][hyp]` scores and chosen references.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SentenceScores {
    pub scores: Vec<Vec<f64>>,
    pub chosen: Vec<Vec<usize>>,
}

/// Running totals of every system at every beta.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accumulator {
    #[serde(with = "config_with_infinity")]
    config: Config,
    hyps: usize,
    /// Flat `[hyp][beta][order]`.
    totals: Vec<Regions>,
    /// Sum of sentence scores, `[hyp][beta]`, added in sentence order.
    sums: Vec<f64>,
    sentences: u64,
    /// Mergeable accumulators only: every sentence's scores, flat `[sentence][hyp][beta]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scores: Option<Vec<f64>>,
}

impl Accumulator {
    /// Totals only: memory does not grow with the corpus; cannot take a [`Accumulator::merge`].
    pub fn new(config: &Config, hyps: usize) -> Self {
        Accumulator {
            config: config.clone(),
            hyps,
            totals: vec![Regions::default(); hyps * config.betas.len() * config.n],
            sums: vec![0.0; hyps * config.betas.len()],
            sentences: 0,
            scores: None,
        }
    }

    /// Totals plus every sentence score (one float per system and beta per sentence), so
    /// that shards merge into exactly the report of one pass.
    pub fn mergeable(config: &Config, hyps: usize) -> Self {
        Accumulator {
            scores: Some(Vec::new()),
            ..Accumulator::new(config, hyps)
        }
    }

    /// Sentences added so far.
    pub fn sentences(&self) -> u64 {
        self.sentences
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Systems scored.
    pub fn systems(&self) -> usize {
        self.hyps
    }

    /// Mergeable accumulators: every sentence's scores so far, flat `[sentence][hyp][beta]`.
    pub fn sentence_scores(&self) -> Option<&[f64]> {
        self.scores.as_deref()
    }

    /// Checks that the parts fit together and that every sentence score is one a sentence
    /// can have (for an accumulator read back from outside).
    pub fn check(&self) -> Result<(), Error> {
        self.check_shape()?;
        let slots = self.hyps * self.config.betas.len();
        let Some(scores) = &self.scores else {
            return Ok(());
        };
        if let Some(k) = scores.iter().position(|s| !(0.0..=1.0).contains(s)) {
            return Err(Error::Input(format!(
                "these GREEN statistics are damaged: sentence {} has a score of {} (scores lie between 0 and 1)",
                k / slots + 1,
                scores[k]
            )));
        }
        // The sums were added in sentence order: the same order gives the same bits.
        let mut sums = vec![0.0f64; slots];
        for sentence in scores.chunks(slots.max(1)) {
            for (sum, s) in sums.iter_mut().zip(sentence) {
                *sum += s;
            }
        }
        if sums
            .iter()
            .zip(&self.sums)
            .any(|(a, b)| a.to_bits() != b.to_bits())
        {
            return Err(Error::Input(
                "these GREEN statistics are damaged: their sums are not the sums of their sentence scores"
                    .into(),
            ));
        }
        Ok(())
    }

    /// [`Accumulator::check`] of the sizes only.
    fn check_shape(&self) -> Result<(), Error> {
        let config = Config::new(self.config.n, self.config.betas.clone())?;
        // A damaged file may claim any number of systems: sizes are multiplied checked.
        let slots = self.hyps.checked_mul(config.betas.len());
        let scores_fit = self.scores.as_ref().is_none_or(|s| {
            slots.is_some_and(|slots| {
                Some(s.len() as u64) == self.sentences.checked_mul(slots as u64)
            })
        });
        let totals = slots.and_then(|slots| slots.checked_mul(config.n));
        if totals != Some(self.totals.len()) || slots != Some(self.sums.len()) || !scores_fit {
            return Err(Error::Input(
                "these GREEN statistics are damaged: their counts do not match their systems, betas and N"
                    .into(),
            ));
        }
        // No sentence has more n-grams than green_metric::MAX_COUNT, so no total more than
        // that many per sentence (and the scores' sums of regions cannot overflow).
        let most = self.sentences.saturating_mul(green_metric::MAX_COUNT);
        let regions = |r: &Regions| [r.tk, r.td, r.ti, r.od, r.oi, r.ud, r.ui];
        if self.totals.iter().flat_map(regions).any(|c| c > most) {
            return Err(Error::Input(format!(
                "these GREEN statistics are damaged: a total is larger than {} sentences can have",
                self.sentences
            )));
        }
        Ok(())
    }

    /// Appends `other`, the statistics of the sentences that follow this one's in the corpus:
    /// afterwards this accumulator is what one pass over both would have made. Both must be
    /// [`Accumulator::mergeable`] and made with the same configuration and number of systems.
    pub fn merge(&mut self, other: &Accumulator) -> Result<(), Error> {
        // This accumulator was checked when it was read or built; the next one is new.
        self.check_shape()?;
        other.check()?;
        let same_betas = self.config.betas.len() == other.config.betas.len()
            && self
                .config
                .betas
                .iter()
                .zip(&other.config.betas)
                .all(|(a, b)| a.to_bits() == b.to_bits());
        if self.config.n != other.config.n || !same_betas || self.hyps != other.hyps {
            return Err(Error::Config(format!(
                "cannot merge GREEN statistics of N={} betas {:?} for {} systems with N={} betas {:?} for {} systems",
                self.config.n, self.config.betas, self.hyps, other.config.n, other.config.betas, other.hyps
            )));
        }
        let (Some(mine), Some(theirs)) = (self.scores.as_mut(), other.scores.as_ref()) else {
            return Err(Error::Config(
                "only mergeable statistics merge (they keep every sentence score)".into(),
            ));
        };
        let overflow = || {
            Error::Input(
                "these GREEN statistics add up to more than 2^64 n-grams or sentences; a count is damaged"
                    .into(),
            )
        };
        let sentences = self
            .sentences
            .checked_add(other.sentences)
            .ok_or_else(overflow)?;
        let mut totals = self.totals.clone();
        for (t, o) in totals.iter_mut().zip(&other.totals) {
            *t = t.checked_add(o).ok_or_else(overflow)?;
        }
        self.totals = totals;
        if !self.sums.is_empty() {
            for sentence in theirs.chunks(self.sums.len()) {
                for (sum, score) in self.sums.iter_mut().zip(sentence) {
                    *sum += score;
                }
            }
        }
        mine.extend_from_slice(theirs);
        self.sentences = sentences;
        Ok(())
    }

    /// Add one sentence's counts (which may hold orders above N; only 1..=N are used).
    pub fn add(&mut self, counts: &SentenceCounts) -> Result<SentenceScores, Error> {
        let scores = self.score(counts, self.sentences)?;
        self.add_scored(counts, &scores);
        Ok(scores)
    }

    /// Counts a batch of sentences with `scorer` and adds them in order, as [`Accumulator::add`]
    /// one at a time would: each sentence is counted and scored (a reference chosen by F per
    /// system and beta) in one parallel task, then folded in. Fails on the first sentence
    /// whose tokenisation ([`Error::Tokenize`], its index in `batch`) or score fails, with
    /// the sentences before it added.
    pub fn add_sentences<T: Tokenizer>(
        &mut self,
        scorer: &Scorer<T>,
        batch: &[Sentence],
    ) -> Result<Vec<(SentenceCounts, SentenceScores)>, Error> {
        let first = self.sentences;
        let this = &*self;
        let results: Vec<Result<(SentenceCounts, SentenceScores), Error>> = batch
            .par_iter()
            .enumerate()
            .map(|(i, s)| {
                if let Some(next) = batch.get(i + 1) {
                    next.prefetch();
                }
                let counts =
                    Counter::with_local(|counter| scorer.count(counter, s)).map_err(|source| {
                        Error::Tokenize {
                            sentence: i,
                            source,
                        }
                    })?;
                let scores = this.score(&counts, first + i as u64)?;
                Ok((counts, scores))
            })
            .collect();
        let mut out = Vec::with_capacity(batch.len());
        for r in results {
            let (counts, scores) = r?;
            self.add_scored(&counts, &scores);
            out.push((counts, scores));
        }
        Ok(out)
    }

    /// Adds a batch as [`Accumulator::add_sentences`] does, without handing back each
    /// sentence's counts and scores (for callers that want the corpus only). The region
    /// totals are summed on the pool as sentences are counted (integers: any grouping gives
    /// the same sums), and only the float sums of the mean run over the scores in sentence
    /// order, so the result is bit for bit that of `add_sentences`. After an error, the
    /// batch is added again by `add_sentences`, which stops at the first failing sentence.
    pub fn fold_sentences<T: Tokenizer>(
        &mut self,
        scorer: &Scorer<T>,
        batch: &[Sentence],
    ) -> Result<(), Error> {
        let (n, nb) = (self.config.n, self.config.betas.len());
        let slots = self.hyps * nb;
        let first = self.sentences;
        let this = &*self;
        // `[sentence][hyp][beta]`, as the sums and a mergeable accumulator take them.
        let mut scores = vec![0.0; batch.len() * slots.max(1)];
        let no_totals = || (vec![Regions::default(); this.totals.len()], false);
        let (totals, failed) = batch
            .par_iter()
            .zip(scores.par_chunks_mut(slots.max(1)))
            .enumerate()
            .fold(no_totals, |(mut totals, failed), (i, (s, out))| {
                if let Some(next) = batch.get(i + 1) {
                    next.prefetch();
                }
                let counts = Counter::with_local(|counter| scorer.count(counter, s)).ok();
                let Some(counts) =
                    counts.filter(|c| this.check_counts(c, first + i as u64).is_ok())
                else {
                    return (totals, true);
                };
                // As `score` then `add_chosen`, without building the scores.
                this.each_choice(&counts, |b, h, r, score| {
                    let slot = h * nb + b;
                    out[slot] = score;
                    add_all(&mut totals[slot * n..(slot + 1) * n], counts.get(h, r));
                });
                (totals, failed)
            })
            .reduce(no_totals, |(mut a, fa), (b, fb)| {
                add_all(&mut a, &b);
                (a, fa || fb)
            });
        if failed {
            return self.add_sentences(scorer, batch).map(|_| ());
        }
        add_all(&mut self.totals, &totals);
        if slots > 0 {
            for sentence in scores.chunks_exact(slots) {
                for (sum, score) in self.sums.iter_mut().zip(sentence) {
                    *sum += score;
                }
            }
            if let Some(all) = &mut self.scores {
                all.extend_from_slice(&scores);
            }
        }
        self.sentences += batch.len() as u64;
        Ok(())
    }

    /// The scores [`Accumulator::add`] folds in for sentence `index` (0-based), without
    /// folding them: per beta and system, the reference chosen and its score.
    fn score(&self, counts: &SentenceCounts, index: u64) -> Result<SentenceScores, Error> {
        self.check_counts(counts, index)?;
        let nb = self.config.betas.len();
        let mut out = SentenceScores {
            scores: vec![vec![0.0; self.hyps]; nb],
            chosen: vec![vec![0; self.hyps]; nb],
        };
        self.each_choice(counts, |b, h, r, score| {
            out.scores[b][h] = score;
            out.chosen[b][h] = r;
        });
        Ok(out)
    }

    /// `f(beta index, system, reference chosen, its score)` for every beta and system.
    fn each_choice(&self, counts: &SentenceCounts, mut f: impl FnMut(usize, usize, usize, f64)) {
        for (b, &beta) in self.config.betas.iter().enumerate() {
            for h in 0..self.hyps {
                let (r, score) = select_reference(counts, h, self.config.n, beta);
                f(b, h, r, score);
            }
        }
    }

    /// Whether sentence `index` (0-based) was counted for this accumulator's systems and
    /// orders, and has a reference.
    fn check_counts(&self, counts: &SentenceCounts, index: u64) -> Result<(), Error> {
        let n = self.config.n;
        if counts.hyps != self.hyps || counts.n < n {
            return Err(Error::Config(format!(
                "sentence counted for {} systems up to order {}, expected {} systems up to order {}",
                counts.hyps, counts.n, self.hyps, n
            )));
        }
        if counts.refs == 0 {
            return Err(Error::Config(format!(
                "sentence {} has no reference",
                index + 1
            )));
        }
        Ok(())
    }

    /// Folds in one sentence's counts at the references `scores` chose.
    fn add_scored(&mut self, counts: &SentenceCounts, scores: &SentenceScores) {
        let nb = self.config.betas.len();
        add_chosen(&mut self.totals, self.config.n, counts, scores);
        for b in 0..nb {
            for h in 0..self.hyps {
                self.sums[h * nb + b] += scores.scores[b][h];
            }
        }
        if let Some(all) = &mut self.scores {
            for h in 0..self.hyps {
                all.extend(scores.scores.iter().map(|per_hyp| per_hyp[h]));
            }
        }
        self.sentences += 1;
    }

    /// Corpus and mean scores of everything added so far.
    pub fn finish(&self) -> Report {
        let (n, nb) = (self.config.n, self.config.betas.len());
        let systems = (0..self.hyps)
            .map(|h| SystemReport {
                betas: self
                    .config
                    .betas
                    .iter()
                    .enumerate()
                    .map(|(b, &beta)| {
                        let slot = h * nb + b;
                        let orders = order_scores(&self.totals[slot * n..(slot + 1) * n], beta);
                        BetaReport {
                            beta,
                            alpha: crate::score::alpha(beta),
                            corpus: orders[n - 1].cum_f,
                            mean: if self.sentences == 0 {
                                0.0
                            } else {
                                self.sums[slot] / self.sentences as f64
                            },
                            orders,
                        }
                    })
                    .collect(),
            })
            .collect();
        Report {
            config: self.config.clone(),
            sentences: self.sentences,
            systems,
        }
    }
}

/// Adds to `totals` (`[hyp][beta][order]`, orders 1..=n) the regions of the references
/// `scores` chose for each system and beta.
fn add_chosen(totals: &mut [Regions], n: usize, counts: &SentenceCounts, scores: &SentenceScores) {
    let nb = scores.chosen.len();
    for (b, chosen) in scores.chosen.iter().enumerate() {
        for (h, &r) in chosen.iter().enumerate() {
            let slot = h * nb + b;
            add_all(&mut totals[slot * n..(slot + 1) * n], counts.get(h, r));
        }
    }
}

/// Adds `other` to `totals`, region by region.
fn add_all(totals: &mut [Regions], other: &[Regions]) {
    for (t, o) in totals.iter_mut().zip(other) {
        t.add(o);
    }
}

/// Scores of one system at one beta.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BetaReport {
    pub beta: f64,
    pub alpha: f64,
    /// Corpus-level GREEN (from summed counts).
    pub corpus: f64,
    /// Mean of sentence-level GREEN.
    pub mean: f64,
    /// Corpus-level counts and scores per order.
    pub orders: Vec<OrderScore>,
}

/// Scores of one system at every beta.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SystemReport {
    pub betas: Vec<BetaReport>,
}

/// Scores of every system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub config: Config,
    pub sentences: u64,
    pub systems: Vec<SystemReport>,
}

impl Report {
    /// Mean-level scores as the reference averages them: NumPy's pairwise sum over each
    /// system's sentence scores, not a running sum. `scores` is every sentence score, flat
    /// `[sentence][system][beta]` (as [`Accumulator::sentence_scores`] keeps them).
    pub fn set_numpy_means(&mut self, scores: &[f64]) {
        let nb = self.config.betas.len();
        let slots = self.systems.len() * nb;
        for (h, sys) in self.systems.iter_mut().enumerate() {
            for (b, br) in sys.betas.iter_mut().enumerate() {
                let column: Vec<f64> = scores
                    .iter()
                    .skip(h * nb + b)
                    .step_by(slots)
                    .copied()
                    .collect();
                br.mean = crate::numpy::numpy_mean(&column);
            }
        }
    }
}
