//! One output model for every metric. What a scoring command prints with `--format json`,
//! what `green merge` prints for merged shards and what Python's `report` returns are the
//! same serde types: an [`Output`] of a signature and one [`System`] per scored file, with
//! the metric's own result in each. The reference-exact text is rendered from those same
//! values, so the CLI, merged shards and Python cannot drift apart.

use serde::{Deserialize, Serialize};

pub mod edits;
pub mod gleu;
pub mod green;
pub mod napoles;
pub mod number;

/// The level of a score: the corpus score, one score per sentence, or their mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Corpus,
    Sentence,
    Mean,
}

impl Level {
    pub const NAMES: [&'static str; 3] = ["corpus", "sentence", "mean"];

    pub fn name(self) -> &'static str {
        match self {
            Level::Corpus => "corpus",
            Level::Sentence => "sentence",
            Level::Mean => "mean",
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "corpus" => Ok(Level::Corpus),
            "sentence" => Ok(Level::Sentence),
            "mean" => Ok(Level::Mean),
            _ => Err(format!("unknown level '{s}'; use corpus, sentence or mean")),
        }
    }
}

/// The scores of a run: its signature, what the metric adds about the whole run (`H`), and
/// one entry per system in the order given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output<S, H = Plain> {
    pub signature: String,
    #[serde(flatten)]
    pub header: H,
    pub systems: Vec<System<S>>,
}

/// No run-level fields beyond the signature.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Plain {}

/// One system's result, named by its file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct System<S> {
    pub path: String,
    #[serde(flatten)]
    pub result: S,
}

impl<S> Output<S> {
    /// An output without run-level fields: `results` paired with `paths` in order.
    pub fn new(signature: String, paths: &[String], results: Vec<S>) -> Self {
        Output {
            signature,
            header: Plain {},
            systems: systems(paths, results),
        }
    }
}

/// Systems from their paths and results, in order.
pub fn systems<S>(paths: &[String], results: Vec<S>) -> Vec<System<S>> {
    paths
        .iter()
        .zip(results)
        .map(|(path, result)| System {
            path: path.clone(),
            result,
        })
        .collect()
}

/// Paired significance tests: every system against the first (the baseline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparisons<R> {
    pub signature: String,
    pub metric: String,
    pub comparisons: Vec<Comparison<R>>,
}

/// One system against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison<R> {
    pub baseline: String,
    pub system: String,
    pub result: R,
}

impl<R> Comparisons<R> {
    /// `systems[0]` is the baseline; `results[i]` compares `systems[i + 1]` with it.
    pub fn new(signature: String, metric: &str, systems: &[String], results: Vec<R>) -> Self {
        let comparisons = systems[1..]
            .iter()
            .zip(results)
            .map(|(system, result)| Comparison {
                baseline: systems[0].clone(),
                system: system.clone(),
                result,
            })
            .collect();
        Comparisons {
            signature,
            metric: metric.into(),
            comparisons,
        }
    }
}

/// Pretty JSON with a final newline, as every command prints it.
pub fn to_json(value: &impl Serialize) -> Result<String, serde_json::Error> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}
