//! IMPARA (Maeda et al., COLING 2022): a quality estimator (a BERT regressor trained on
//! pairs where the better correction has more of the reference's edits) scores the
//! hypothesis, gated by a similarity estimator (cosine of the mean-pooled BERT states of
//! source and hypothesis): a hypothesis that moved too far from its source scores 0.
//!
//! As gec-metrics' `impara.py` computes it: every input cut to 128 tokens, the quality the
//! sigmoid of the regressor's output, 0 where the similarity is below the threshold (0.9),
//! and the corpus score the mean of the sentence scores. The authors' quality estimator was
//! not published; gec-metrics loads gotutiyan's (`gotutiyan/IMPARA-QE`), a regressor with its
//! own tokenizer. A regressor as gotutiyan/IMPARA's `train_qe.py` saves it has no tokenizer
//! (`impara_config.json` names the encoder it was trained from): the similarity estimator's
//! is used, as that repository's `impara.py` does.

use std::path::{Path, PathBuf};

use candle_core::DType;
use serde::{Deserialize, Serialize};

use crate::bert::{compute_error, Encoder, Regressor};
use crate::error::{Error, ErrorKind, Result};
use crate::model_dir::digest;
use crate::report::{short, NoHead, Report, VERSION};
use crate::wordpiece::{Encoded, WordPiece};
use crate::ModelDir;

/// The length every input is cut to (`max_length=128` in gec-metrics).
pub const MAX_LENGTH: usize = 128;

/// gec-metrics' default similarity threshold.
pub const THRESHOLD: f64 = 0.9;

/// One sentence's similarity, quality and score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SentenceScore {
    /// The cosine of source and hypothesis (similarity estimator).
    pub similarity: f64,
    /// The sigmoid of the quality estimator's output.
    pub quality: f64,
    /// `quality`, or 0 when `similarity` is below the threshold.
    pub impara: f64,
}

impl green_metric::Checked for SentenceScore {
    /// A finite similarity, a quality in [0, 1] (a sigmoid's), and the score that quality or
    /// 0 (read back from a `--stats` file).
    fn check(&self) -> std::result::Result<(), String> {
        let q = self.quality;
        if self.similarity.is_finite()
            && (0.0..=1.0).contains(&q)
            && (self.impara == q || self.impara == 0.0)
        {
            Ok(())
        } else {
            Err(format!(
                "IMPARA scores that no model gives (similarity {}, quality {q}, score {})",
                self.similarity, self.impara
            ))
        }
    }
}

/// The two models and their tokenizers.
pub struct Scorer {
    qe_dir: ModelDir,
    se_dir: ModelDir,
    qe: Regressor,
    se: Encoder,
    qe_tokenizer: WordPiece,
    se_tokenizer: WordPiece,
    /// Sentences run through a model at once.
    pub batch_size: usize,
}

/// Whether `dir` holds a tokenizer [`WordPiece::open`] reads.
fn has_tokenizer(dir: &Path) -> bool {
    dir.join("tokenizer.json").is_file() || dir.join("vocab.txt").is_file()
}

impl Scorer {
    /// Loads the quality estimator in `qe` (a one-output `BertForSequenceClassification`)
    /// and the similarity estimator in `se` (any BERT checkpoint; its encoder is used), each
    /// with the tokenizer in its directory; a `qe` without one uses `se`'s.
    pub fn open(qe: &Path, se: &Path) -> Result<Self> {
        let qe_dir = ModelDir::open(qe)?;
        let se_dir = ModelDir::open(se)?;
        let se_tokenizer = WordPiece::open(se)?;
        let qe_tokenizer = if has_tokenizer(qe) {
            WordPiece::open(qe)?
        } else {
            WordPiece::open(&se_tokenizer.file)?
        };
        let qe_model = Regressor::load(&qe_dir)?;
        let se_model = Encoder::load(&se_dir)?;
        for (dir, tokenizer, config) in [
            (&qe_dir, &qe_tokenizer, &qe_model.config),
            (&se_dir, &se_tokenizer, &se_model.config),
        ] {
            if tokenizer.vocab_size() > config.vocab_size {
                return Err(Error::new(
                    ErrorKind::Vocab,
                    &dir.path,
                    format!(
                        "the tokenizer ({}) has {} tokens but the model only {}; use the tokenizer the model was trained with",
                        tokenizer.file.display(),
                        tokenizer.vocab_size(),
                        config.vocab_size
                    ),
                ));
            }
            if config.max_position_embeddings < MAX_LENGTH {
                return Err(Error::new(
                    ErrorKind::Architecture,
                    &dir.path,
                    format!(
                        "max_position_embeddings is {}; IMPARA feeds {MAX_LENGTH} tokens",
                        config.max_position_embeddings
                    ),
                ));
            }
        }
        Ok(Scorer {
            qe_dir,
            se_dir,
            qe: qe_model,
            se: se_model,
            qe_tokenizer,
            se_tokenizer,
            batch_size: 32,
        })
    }

    /// SHA-256 over both models' config and weights files and the tokenizer files.
    pub fn digest(&self) -> Result<String> {
        let mut files = self.qe_dir.files();
        files.extend(self.se_dir.files());
        files.push(self.qe_tokenizer.file.clone());
        files.push(self.se_tokenizer.file.clone());
        digest(&files)
    }

    /// The tokenizer files read (the quality estimator's, the similarity estimator's).
    pub fn tokenizer_files(&self) -> [PathBuf; 2] {
        [
            self.qe_tokenizer.file.clone(),
            self.se_tokenizer.file.clone(),
        ]
    }

    /// Each hypothesis's scores, given its source.
    pub fn score(
        &self,
        sources: &[String],
        hypotheses: &[String],
        threshold: f64,
    ) -> Result<Vec<SentenceScore>> {
        assert_eq!(sources.len(), hypotheses.len(), "one source per hypothesis");
        let encode = |tokenizer: &WordPiece, texts: &[String]| {
            texts
                .iter()
                .map(|t| tokenizer.single(t, MAX_LENGTH))
                .collect::<Result<Vec<_>>>()
        };
        let quality = self.run(
            &self.qe_dir,
            &encode(&self.qe_tokenizer, hypotheses)?,
            |b| self.qe.predict(b),
        )?;
        let src = self.pooled(&encode(&self.se_tokenizer, sources)?)?;
        let hyp = self.pooled(&encode(&self.se_tokenizer, hypotheses)?)?;
        // torch compares the float32 cosines with the threshold as a float32.
        let threshold = threshold as f32;
        Ok((0..hypotheses.len())
            .map(|i| {
                let similarity = cosine(&src[i], &hyp[i]);
                let q = 1.0 / (1.0 + (-f64::from(quality[i])).exp());
                SentenceScore {
                    similarity: f64::from(similarity),
                    quality: q,
                    impara: if similarity < threshold { 0.0 } else { q },
                }
            })
            .collect())
    }

    /// The similarity estimator's mean of the last hidden states over each input's tokens.
    fn pooled(&self, inputs: &[Encoded]) -> Result<Vec<Vec<f32>>> {
        self.run(&self.se_dir, inputs, |batch| {
            let hidden = self.se.forward(batch)?;
            hidden
                .lengths
                .iter()
                .enumerate()
                .map(|(i, &len)| {
                    let tokens = hidden.states.get(i)?.narrow(0, 0, len)?;
                    (tokens.sum(0)? / len as f64)?
                        .to_dtype(DType::F32)?
                        .to_vec1::<f32>()
                })
                .collect()
        })
    }

    /// `f` (a forward pass of the model in `dir`) over inputs batched by length, its outputs
    /// back in input order.
    fn run<T: Clone + Default>(
        &self,
        dir: &ModelDir,
        inputs: &[Encoded],
        f: impl Fn(&[Encoded]) -> candle_core::Result<Vec<T>>,
    ) -> Result<Vec<T>> {
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_key(|&i| inputs[i].ids.len());
        let mut out = vec![T::default(); inputs.len()];
        for chunk in order.chunks(self.batch_size.max(1)) {
            let batch: Vec<Encoded> = chunk.iter().map(|&i| inputs[i].clone()).collect();
            let values = f(&batch).map_err(|e| compute_error(dir, e))?;
            for (&i, v) in chunk.iter().zip(values) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// torch's `CosineSimilarity` (dim 1, eps 1e-8): each vector over its norm, then the dot.
fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-8);
    let (na, nb) = (norm(a), norm(b));
    a.iter().zip(b).map(|(x, y)| (x / na) * (y / nb)).sum()
}

/// The corpus score: the mean of the sentence scores (`score_corpus` in gec-metrics).
pub fn corpus(scores: &[SentenceScore]) -> f64 {
    if scores.is_empty() {
        return 0.0;
    }
    scores.iter().map(|s| s.impara).sum::<f64>() / scores.len() as f64
}

/// The signature of a run: the models by their digest ([`Scorer::digest`]), the threshold.
pub fn signature(digest: &str, threshold: f64) -> String {
    format!(
        "impara|models:sha256-{}|threshold:{threshold}|max-length:{MAX_LENGTH}|v:{VERSION}",
        short(digest)
    )
}

/// A system's corpus field in the report.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Corpus {
    pub impara: f64,
}

/// The report of systems (name, sentence scores).
pub fn report(
    digest: &str,
    threshold: f64,
    systems: impl IntoIterator<Item = (String, Vec<SentenceScore>)>,
) -> Report<NoHead, Corpus, SentenceScore> {
    Report::new(signature(digest, threshold), NoHead {}, systems, |s| {
        Corpus { impara: corpus(s) }
    })
}
