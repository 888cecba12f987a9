//! SOME (Yoshimura et al., COLING 2020): three BERT regressors score a correction for
//! grammaticality and fluency (the hypothesis alone) and meaning preservation (source and
//! hypothesis as a pair); each output is min-max normalised from the 1–4 rating scale and the
//! three are summed with weights tuned on human judgements.
//!
//! As `some.py` of kokeman/SOME computes it: inputs cut to 128 tokens (`longest_first` for
//! the pair), no clipping of the scores (a regressor may go below 0 or above 1), and the
//! corpus score is the mean of the sentence scores. Batches are formed here from inputs of
//! similar length; each sentence's score does not depend on the batch it is in.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bert::{compute_error, Regressor};
use crate::error::{Error, ErrorKind, Result};
use crate::model_dir::digest;
use crate::report::{short, Report, VERSION};
use crate::wordpiece::{Encoded, WordPiece};
use crate::ModelDir;

/// The length every input is cut to (`max_length=128` in `some.py`).
pub const MAX_LENGTH: usize = 128;

/// The weights of the three sub-scores (`some.py`'s defaults, tuned with Kendall's tau on
/// Grundkiewicz et al. 2015).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    pub grammaticality: f64,
    pub fluency: f64,
    pub meaning: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            grammaticality: 0.55,
            fluency: 0.43,
            meaning: 0.02,
        }
    }
}

/// One sentence's normalised sub-scores and their weighted sum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SentenceScore {
    pub grammaticality: f64,
    pub fluency: f64,
    pub meaning: f64,
    pub some: f64,
}

impl green_metric::Checked for SentenceScore {
    /// Numbers, as a model gives them (read back from a `--stats` file).
    fn check(&self) -> std::result::Result<(), String> {
        let all = [self.grammaticality, self.fluency, self.meaning, self.some];
        if all.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(format!("SOME scores {all:?} that are not all numbers"))
        }
    }
}

/// Where the three regressors and the tokenizer are.
#[derive(Debug, Clone)]
pub struct Paths {
    pub grammaticality: PathBuf,
    pub fluency: PathBuf,
    pub meaning: PathBuf,
    pub tokenizer: PathBuf,
}

impl Paths {
    /// The layout of a models directory: subdirectories `grammer` (as the authors spell it)
    /// or `grammar`, `fluency` and `meaning` (the authors' `gfm-models`); the tokenizer
    /// (`tokenizer.json` or `vocab.txt`) in the directory itself, else in the first model
    /// directory that has one (gec-metrics reads the fluency model's).
    pub fn in_dir(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(Error::new(
                ErrorKind::Missing,
                dir,
                "no such models directory; give the directory holding grammer/, fluency/ and meaning/",
            ));
        }
        let sub = |names: &[&str]| {
            names
                .iter()
                .map(|n| dir.join(n))
                .find(|p| p.is_dir())
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Missing,
                        dir,
                        format!(
                            "no {} model directory; a SOME models directory holds grammer/ (or grammar/), fluency/ and meaning/",
                            names[0]
                        ),
                    )
                })
        };
        let grammaticality = sub(&["grammer", "grammar"])?;
        let fluency = sub(&["fluency"])?;
        let meaning = sub(&["meaning"])?;
        let has_tokenizer =
            |d: &Path| d.join("tokenizer.json").is_file() || d.join("vocab.txt").is_file();
        let tokenizer = [dir, &grammaticality, &fluency, &meaning]
            .into_iter()
            .find(|d| has_tokenizer(d))
            .unwrap_or(dir)
            .to_owned();
        Ok(Paths {
            grammaticality,
            fluency,
            meaning,
            tokenizer,
        })
    }
}

/// The three regressors and the tokenizer, loaded.
pub struct Scorer {
    dirs: [ModelDir; 3],
    models: [Regressor; 3],
    tokenizer: WordPiece,
    /// Sentences run through a model at once.
    pub batch_size: usize,
}

impl Scorer {
    /// Loads the models, checking that they are BERT regressors the tokenizer fits.
    pub fn open(paths: &Paths) -> Result<Self> {
        let tokenizer = WordPiece::open(&paths.tokenizer)?;
        let dirs = [
            ModelDir::open(&paths.grammaticality)?,
            ModelDir::open(&paths.fluency)?,
            ModelDir::open(&paths.meaning)?,
        ];
        let load = |dir: &ModelDir| -> Result<Regressor> {
            let model = Regressor::load(dir)?;
            if tokenizer.vocab_size() > model.config.vocab_size {
                return Err(Error::new(
                    ErrorKind::Vocab,
                    &dir.path,
                    format!(
                        "the tokenizer ({}) has {} tokens but the model only {}; use the tokenizer the model was trained with",
                        tokenizer.file.display(),
                        tokenizer.vocab_size(),
                        model.config.vocab_size
                    ),
                ));
            }
            if model.config.max_position_embeddings < MAX_LENGTH {
                return Err(Error::new(
                    ErrorKind::Architecture,
                    &dir.path,
                    format!(
                        "max_position_embeddings is {}; SOME feeds {MAX_LENGTH} tokens",
                        model.config.max_position_embeddings
                    ),
                ));
            }
            Ok(model)
        };
        let models = [load(&dirs[0])?, load(&dirs[1])?, load(&dirs[2])?];
        Ok(Scorer {
            dirs,
            models,
            tokenizer,
            batch_size: 64,
        })
    }

    /// SHA-256 over the three models' config and weights files and the tokenizer file.
    pub fn digest(&self) -> Result<String> {
        let mut files: Vec<PathBuf> = self.dirs.iter().flat_map(ModelDir::files).collect();
        files.push(self.tokenizer.file.clone());
        digest(&files)
    }

    /// Each hypothesis's scores, given its source.
    pub fn score(
        &self,
        sources: &[String],
        hypotheses: &[String],
        weights: Weights,
    ) -> Result<Vec<SentenceScore>> {
        assert_eq!(sources.len(), hypotheses.len(), "one source per hypothesis");
        let singles = hypotheses
            .iter()
            .map(|h| self.tokenizer.single(h, MAX_LENGTH))
            .collect::<Result<Vec<_>>>()?;
        let pairs = sources
            .iter()
            .zip(hypotheses)
            .map(|(s, h)| self.tokenizer.pair(s, h, MAX_LENGTH))
            .collect::<Result<Vec<_>>>()?;
        let g = self.run(0, &singles)?;
        let f = self.run(1, &singles)?;
        let m = self.run(2, &pairs)?;
        let normalise = |x: f32| (f64::from(x) - 1.0) / 3.0;
        Ok((0..hypotheses.len())
            .map(|i| {
                let (g, f, m) = (normalise(g[i]), normalise(f[i]), normalise(m[i]));
                SentenceScore {
                    grammaticality: g,
                    fluency: f,
                    meaning: m,
                    some: weights.grammaticality * g + weights.fluency * f + weights.meaning * m,
                }
            })
            .collect())
    }

    /// Model `which`'s raw output for each input, batched by length.
    fn run(&self, which: usize, inputs: &[Encoded]) -> Result<Vec<f32>> {
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_key(|&i| inputs[i].ids.len());
        let mut out = vec![0f32; inputs.len()];
        for chunk in order.chunks(self.batch_size.max(1)) {
            let batch: Vec<Encoded> = chunk.iter().map(|&i| inputs[i].clone()).collect();
            let values = self.models[which]
                .predict(&batch)
                .map_err(|e| compute_error(&self.dirs[which], e))?;
            for (&i, v) in chunk.iter().zip(values) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// The corpus score: the mean of the sentence scores (`--system` in `some.py`).
pub fn corpus(scores: &[SentenceScore]) -> f64 {
    if scores.is_empty() {
        return 0.0;
    }
    scores.iter().map(|s| s.some).sum::<f64>() / scores.len() as f64
}

/// The signature of a run: the models by their digest ([`Scorer::digest`]), the weights.
pub fn signature(digest: &str, weights: Weights) -> String {
    format!(
        "some|models:sha256-{}|weights:{},{},{}|max-length:{MAX_LENGTH}|v:{VERSION}",
        short(digest),
        weights.grammaticality,
        weights.fluency,
        weights.meaning
    )
}

/// A system's corpus field in the report.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Corpus {
    pub some: f64,
}

/// The report's one metric-wide field.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Head {
    pub weights: Weights,
}

/// The report of systems (name, sentence scores).
pub fn report(
    digest: &str,
    weights: Weights,
    systems: impl IntoIterator<Item = (String, Vec<SentenceScore>)>,
) -> Report<Head, Corpus, SentenceScore> {
    Report::new(signature(digest, weights), Head { weights }, systems, |s| {
        Corpus { some: corpus(s) }
    })
}
