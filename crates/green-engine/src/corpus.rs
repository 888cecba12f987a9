//! Corpus, sentence and mean levels over many systems and betas in one pass.
//!
//! Sentences arrive in batches; each batch is counted in parallel (rayon) and folded into
//! an [`Accumulator`] strictly in sentence order, so integer sums and float means are the
//! same at any thread count. The accumulator holds only per-system totals: memory does not
//! grow with the number of sentences.

use rayon::prelude::*;
use serde::Serialize;

use crate::count::{Counter, Regions, SentenceCounts};
use crate::score::{order_scores, select_reference, OrderScore};
use crate::tokenizer::{TokenizeError, Tokenizer};
use crate::Error;

/// What to compute: the highest n-gram order and the betas.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
            .map_init(Counter::new, |counter, s| self.count(counter, s))
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
            let counts = self.count_batch(chunk).map_err(|(i, e)| Error::Tokenize {
                sentence: b * BATCH + i,
                source: e,
            })?;
            for c in &counts {
                scores.push(acc.add(c)?);
            }
        }
        Ok(crate::Evaluation {
            report: acc.finish(),
            sentences: scores,
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
#[derive(Debug, Clone)]
pub struct Accumulator {
    config: Config,
    hyps: usize,
    /// Flat `[hyp][beta][order]`.
    totals: Vec<Regions>,
    /// Sum of sentence scores, `[hyp][beta]`, added in sentence order.
    sums: Vec<f64>,
    sentences: u64,
}

impl Accumulator {
    pub fn new(config: &Config, hyps: usize) -> Self {
        Accumulator {
            config: config.clone(),
            hyps,
            totals: vec![Regions::default(); hyps * config.betas.len() * config.n],
            sums: vec![0.0; hyps * config.betas.len()],
            sentences: 0,
        }
    }

    /// Add one sentence's counts (which may hold orders above N; only 1..=N are used).
    pub fn add(&mut self, counts: &SentenceCounts) -> Result<SentenceScores, Error> {
        let (n, nb) = (self.config.n, self.config.betas.len());
        if counts.hyps != self.hyps || counts.n < n {
            return Err(Error::Config(format!(
                "sentence counted for {} systems up to order {}, expected {} systems up to order {}",
                counts.hyps, counts.n, self.hyps, n
            )));
        }
        if counts.refs == 0 {
            return Err(Error::Config(format!(
                "sentence {} has no reference",
                self.sentences + 1
            )));
        }
        let mut out = SentenceScores {
            scores: vec![vec![0.0; self.hyps]; nb],
            chosen: vec![vec![0; self.hyps]; nb],
        };
        for (b, &beta) in self.config.betas.iter().enumerate() {
            for h in 0..self.hyps {
                let (r, score) = select_reference(counts, h, n, beta);
                let regions = &counts.get(h, r)[..n];
                let slot = h * nb + b;
                for (t, reg) in self.totals[slot * n..(slot + 1) * n]
                    .iter_mut()
                    .zip(regions)
                {
                    t.add(reg);
                }
                self.sums[slot] += score;
                out.scores[b][h] = score;
                out.chosen[b][h] = r;
            }
        }
        self.sentences += 1;
        Ok(out)
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
