//! The report as data: every number and text the page shows, and nothing it does not.
//!
//! `green report --format json` prints this model and the HTML page embeds the same JSON, so
//! whatever the page displays can be checked against (and recomputed from) the JSON. The
//! sentence data are columnar (one array per field, not one object per sentence) and edits
//! are short arrays, so a corpus of 10^5 sentences stays a few tens of megabytes and parses
//! in a fraction of a second. Scores are fractions (0 to 1, as the metrics compute them);
//! a score that is undefined (CLEME on sentences no reference changes) is `null`.

use std::collections::BTreeMap;

use serde::Serialize;

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The green version that wrote the report.
    pub version: String,
    pub title: String,
    pub corpus: Corpus,
    /// The systems in the order given.
    pub systems: Vec<SystemName>,
    /// Index into `systems` of the system every other is compared with.
    pub baseline: usize,
    pub bootstrap: Bootstrap,
    /// One entry per metric asked for, in the order asked.
    pub metrics: Vec<MetricSummary>,
    /// The four outcomes of each system's edits (CLEME 2.0's aspects), from the ERRANT
    /// comparison the sentence browser colours.
    pub outcomes: Outcomes,
    /// Per error type: by ERRANT operation (always), by the gold file's categories (when
    /// one is given).
    pub types: Vec<TypeTable>,
    pub lengths: Lengths,
    /// Sentence-score histograms, one per metric.
    pub distributions: Vec<Distribution>,
    pub sentences: Sentences,
    /// Doubts about the input that did not stop the report (also printed on standard error).
    pub warnings: Vec<String>,
}

/// The corpus: files as given on the command line (never made absolute) and how its texts
/// were split into tokens.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Corpus {
    pub source: Option<String>,
    pub references: Vec<String>,
    /// The gold M2 file of the M2 metric and of the gold categories, when there is one.
    pub gold: Option<String>,
    pub sentences: usize,
    /// The most references any sentence has.
    pub max_refs: usize,
    pub tokenizer: String,
    pub normalization: String,
    /// What the browser puts between tokens: a space, or nothing for character-level,
    /// Chinese and Japanese tokenizers.
    pub join: String,
}

/// A system: the label the page shows and the file as given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SystemName {
    pub name: String,
    pub path: String,
}

/// How intervals and paired tests were drawn (the settings of `green paired --test bs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bootstrap {
    pub test: String,
    pub replicates: usize,
    pub seed: u64,
    pub confidence: f64,
    pub generator: String,
}

/// One metric for every system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricSummary {
    /// `GREEN`, `M2`, `ERRANT` or `CLEME`.
    pub metric: String,
    /// Every setting that changes the metric's numbers.
    pub signature: String,
    pub beta: f64,
    pub systems: Vec<MetricScore>,
}

/// One system's corpus score under one metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricScore {
    /// The corpus F (GREEN, M2, ERRANT, CLEME).
    pub score: f64,
    pub precision: f64,
    pub recall: f64,
    /// Edit counts where the metric has them (M2: correct, proposed − correct and gold −
    /// correct; ERRANT: TP, FP, FN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// Percentile bootstrap interval of the score: `[low, high]`.
    pub interval: [f64; 2],
    /// The paired test against the baseline (none for the baseline itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub versus: Option<Versus>,
}

/// True positives, false positives, false negatives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
}

/// A system minus the baseline: the difference, its interval and the paired bootstrap's p.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Versus {
    pub delta: f64,
    pub interval: [f64; 2],
    pub p: f64,
}

/// Each system's edits by outcome against the reference ERRANT chose for each sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcomes {
    /// What the edits were compared with, in words.
    pub against: String,
    pub systems: Vec<Aspects>,
}

/// Edit outcomes of one system. TP = `correct`, FP = `wrong` + `unnecessary`, FN = `missed`
/// + `covered`: ERRANT's counts, split the way CLEME 2.0 reads them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Aspects {
    /// System edits the reference has (hit correction).
    pub correct: u64,
    /// System edits where the reference has another correction (wrong correction).
    pub wrong: u64,
    /// System edits where the reference changes nothing (over-correction).
    pub unnecessary: u64,
    /// Reference edits the system left alone (under-correction).
    pub missed: u64,
    /// Reference edits a wrong correction of the system overlaps.
    pub covered: u64,
}

/// TP/FP/FN and P/R/F per error type and system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeTable {
    /// `operation` (ERRANT's M/R/U) or `gold` (the gold file's categories).
    pub scheme: String,
    /// How the edits were compared, in words.
    pub description: String,
    pub types: Vec<String>,
    /// `systems[system][type]`, types in the order of `types`.
    pub systems: Vec<Vec<TypeScore>>,
}

/// One error type of one system; P, R and F are `null` when all three counts are 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TypeScore {
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub precision: f64,
    pub recall: f64,
    pub f: f64,
}

/// Sentences bucketed by source length (compare-mt's bucketed analysis): each bucket's
/// corpus score per metric and system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lengths {
    pub buckets: Vec<Bucket>,
    /// One entry per metric, in the order of `metrics`.
    pub scores: Vec<BucketScores>,
}

/// Sources of `low` to `high` tokens (`high` none: no upper bound).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bucket {
    pub label: String,
    pub low: usize,
    pub high: Option<usize>,
    pub sentences: usize,
}

/// One metric's score of each bucket: `systems[system][bucket]` (none for an empty bucket).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BucketScores {
    pub metric: String,
    pub systems: Vec<Vec<Option<f64>>>,
}

/// How many sentences score in each tenth of the scale, per system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    pub metric: String,
    /// `[0, 10)`, `[10, 20)`, …, `[90, 100]` (points).
    pub bins: Vec<String>,
    /// `systems[system][bin]`.
    pub systems: Vec<Vec<u64>>,
    /// Per system, the mean of its sentence scores.
    pub mean: Vec<f64>,
    /// Per system, sentences whose score is undefined (left out of the bins and the mean).
    pub undefined: Vec<u64>,
}

/// Every sentence, columnar. Texts are tokens joined by single spaces; a reference or a
/// system output is the source with its edits applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sentences {
    pub source: Vec<String>,
    /// `references[sentence][reference]`: that reference's edits of the source.
    pub references: Vec<Vec<Vec<RefEdit>>>,
    /// Per sentence, the gold file's error categories (when a gold file is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold_types: Option<Vec<Vec<String>>>,
    pub systems: Vec<SystemSentences>,
}

/// A reference edit: source tokens `start..end` become `correction` (tokens joined by
/// spaces, empty for a deletion); `type` is ERRANT's operation (M, R, U, UNK).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefEdit(pub u32, pub u32, pub String, pub String);

/// A system edit, as [`RefEdit`] plus its outcome: 0 correct, 1 wrong correction, 2
/// unnecessary, 3 not scored (UNK edits and texts of an empty source, which ERRANT skips).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HypEdit(pub u32, pub u32, pub String, pub String, pub u8);

/// One system's sentences.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SystemSentences {
    pub edits: Vec<Vec<HypEdit>>,
    /// The reference ERRANT chose for each sentence (index into its references).
    pub reference: Vec<u32>,
    /// Per sentence, one letter per edit of the chosen reference: `h` the system has it,
    /// `w` a wrong correction overlaps it, `m` missed, `-` not scored.
    pub reference_outcomes: Vec<String>,
    /// The reference GREEN chose for each sentence (when GREEN was computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub green_reference: Option<Vec<u32>>,
    /// Per metric, each sentence's score ×10,000, rounded (`null`: undefined).
    pub scores: BTreeMap<String, Vec<Option<i32>>>,
}
