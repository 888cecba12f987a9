//! Scribendi (Islam and Magnani, EMNLP 2021), as gec-metrics computes it: a hypothesis that
//! is its source scores 0; otherwise 1 when a GPT-2 language model finds it less perplexing
//! than the source and it stays close to the source (the larger of the token-sort ratio and
//! the Levenshtein ratio reaches the threshold, 0.8), else −1. The corpus score is the sum.
//!
//! Perplexity is gec-metrics': `<|endoftext|>` before the sentence, the exponential of the
//! mean negative log-likelihood of the tokens after it, no truncation (a sentence longer than
//! the model's positions is an error here, as it is a crash there). A sentence with no tokens
//! has perplexity NaN there and here: the comparison is false and the gates decide.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bpe::Bpe;
use crate::error::{Error, ErrorKind, Result};
use crate::fuzzy::{levenshtein_ratio, token_sort_ratio};
use crate::gpt2::LanguageModel;
use crate::model_dir::digest;
use crate::report::{short, NoHead, Report, VERSION};
use crate::ModelDir;

/// gec-metrics' default threshold of the similarity gates.
pub const THRESHOLD: f64 = 0.8;

/// One sentence's score and what decided it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SentenceScore {
    /// −1, 0 or 1.
    pub score: i32,
    /// Perplexities of source and hypothesis (absent when they are the same text).
    pub ppl_source: Option<f64>,
    pub ppl_hypothesis: Option<f64>,
}

impl green_metric::Checked for SentenceScore {
    /// A score of -1, 0 or 1 and no negative perplexity (read back from a `--stats` file).
    fn check(&self) -> std::result::Result<(), String> {
        let negative = [self.ppl_source, self.ppl_hypothesis]
            .iter()
            .any(|p| p.is_some_and(|x| x < 0.0));
        if (-1..=1).contains(&self.score) && !negative {
            Ok(())
        } else {
            Err(format!(
                "a Scribendi score of {} with perplexities {:?} and {:?}",
                self.score, self.ppl_source, self.ppl_hypothesis
            ))
        }
    }
}

/// A GPT-2 model and its tokenizer, loaded.
pub struct Scorer {
    dir: ModelDir,
    model: LanguageModel,
    tokenizer: Bpe,
    pub threshold: f64,
    /// Sentences run through the model at once.
    pub batch_size: usize,
}

impl Scorer {
    /// Loads the language model in `dir` (its tokenizer from the same directory).
    pub fn open(dir: &Path) -> Result<Self> {
        let dir = ModelDir::open(dir)?;
        let model = LanguageModel::load(&dir)?;
        let tokenizer = Bpe::open(&dir.path)?;
        if tokenizer.vocab_size() > model.config.vocab_size {
            return Err(Error::new(
                ErrorKind::Vocab,
                &dir.path,
                format!(
                    "the tokenizer ({}) has {} tokens but the model only {}; use the model's own tokenizer",
                    tokenizer.file.display(),
                    tokenizer.vocab_size(),
                    model.config.vocab_size
                ),
            ));
        }
        Ok(Scorer {
            dir,
            model,
            tokenizer,
            threshold: THRESHOLD,
            batch_size: 32,
        })
    }

    /// SHA-256 over the model's config and weights and the tokenizer file.
    pub fn digest(&self) -> Result<String> {
        let mut files: Vec<PathBuf> = self.dir.files();
        files.push(self.tokenizer.file.clone());
        digest(&files)
    }

    /// Each sentence's perplexity under the model.
    pub fn perplexities(&self, sentences: &[&str]) -> Result<Vec<f64>> {
        let inputs = sentences
            .iter()
            .map(|s| self.tokenizer.with_start(s))
            .collect::<Result<Vec<_>>>()?;
        let limit = self.model.config.n_positions;
        if let Some((i, ids)) = inputs.iter().enumerate().find(|(_, ids)| ids.len() > limit) {
            return Err(Error::new(
                ErrorKind::Compute,
                &self.dir.path,
                format!(
                    "sentence {} has {} tokens with <|endoftext|>, more than the model's {limit} positions",
                    i + 1,
                    ids.len()
                ),
            ));
        }
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_key(|&i| inputs[i].len());
        let mut out = vec![f64::NAN; inputs.len()];
        for chunk in order.chunks(self.batch_size.max(1)) {
            let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| inputs[i].clone()).collect();
            let nll = self.model.token_nll(&batch).map_err(|e| {
                Error::new(
                    ErrorKind::Compute,
                    &self.dir.path,
                    format!("the forward pass failed ({e})"),
                )
            })?;
            for (&i, tokens) in chunk.iter().zip(nll) {
                let sum: f64 = tokens.iter().map(|&x| f64::from(x)).sum();
                // 0/0 is NaN for a sentence without tokens, as in gec-metrics.
                out[i] = (sum / tokens.len() as f64).exp();
            }
        }
        Ok(out)
    }

    /// Each hypothesis's score, given its source.
    pub fn score(&self, sources: &[String], hypotheses: &[String]) -> Result<Vec<SentenceScore>> {
        assert_eq!(sources.len(), hypotheses.len(), "one source per hypothesis");
        let changed: Vec<usize> = (0..sources.len())
            .filter(|&i| sources[i] != hypotheses[i])
            .collect();
        let ppl_s = self.perplexities(&pick(sources, &changed))?;
        let ppl_h = self.perplexities(&pick(hypotheses, &changed))?;
        let mut scores = vec![
            SentenceScore {
                score: 0,
                ppl_source: None,
                ppl_hypothesis: None,
            };
            sources.len()
        ];
        for (k, &i) in changed.iter().enumerate() {
            let (s, h) = (&sources[i], &hypotheses[i]);
            // gec-metrics' `if ppl_s <= ppl_h: -1`, false when either is NaN.
            let worse = ppl_s[k] <= ppl_h[k];
            let close = || token_sort_ratio(s, h).max(levenshtein_ratio(s, h)) >= self.threshold;
            scores[i] = SentenceScore {
                score: if !worse && close() { 1 } else { -1 },
                ppl_source: Some(ppl_s[k]),
                ppl_hypothesis: Some(ppl_h[k]),
            };
        }
        Ok(scores)
    }
}

fn pick<'a>(side: &'a [String], rows: &[usize]) -> Vec<&'a str> {
    rows.iter().map(|&i| side[i].as_str()).collect()
}

/// The corpus score: the sum of the sentence scores (gec-metrics' `score_corpus`).
pub fn corpus(scores: &[SentenceScore]) -> i64 {
    scores.iter().map(|s| i64::from(s.score)).sum()
}

/// The signature of a run: the model by its digest ([`Scorer::digest`]), the threshold.
pub fn signature(digest: &str, threshold: f64) -> String {
    format!(
        "scribendi|model:sha256-{}|threshold:{threshold}|v:{VERSION}",
        short(digest)
    )
}

/// A system's corpus field in the report.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Corpus {
    pub scribendi: i64,
}

/// The report of systems (name, sentence scores).
pub fn report(
    digest: &str,
    threshold: f64,
    systems: impl IntoIterator<Item = (String, Vec<SentenceScore>)>,
) -> Report<NoHead, Corpus, SentenceScore> {
    Report::new(signature(digest, threshold), NoHead {}, systems, |s| {
        Corpus {
            scribendi: corpus(s),
        }
    })
}
