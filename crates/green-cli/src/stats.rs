//! The statistics files of `--stats` that `green merge` joins: one layout for every metric.

use std::path::Path;

use anyhow::{Context, Result};
use green_engine::Accumulator;
use green_metric::Shard;

use crate::output::write_atomic;

/// What `--stats` writes and `green merge` reads: the statistics of one run (a shard of a
/// corpus) and every setting that changes a number or how it is shown.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct StatsFile {
    /// [`STATS_FORMAT`].
    pub(crate) format: String,
    pub(crate) tokenizer: String,
    pub(crate) normalization: String,
    /// M2 references: the missing-annotator rule.
    pub(crate) m2: Option<String>,
    pub(crate) refs: usize,
    pub(crate) source: Option<String>,
    pub(crate) references: Vec<String>,
    pub(crate) systems: Vec<String>,
    pub(crate) statistics: Accumulator,
}

/// The version of the statistics file layout.
pub(crate) const STATS_FORMAT: &str = "green-stats/1";

/// Write a `--stats` file (one line of JSON), whole or not at all. `-` is refused: standard
/// output carries the scores.
pub(crate) fn write_stats(path: &str, file: &impl serde::Serialize) -> Result<()> {
    if path == "-" {
        anyhow::bail!("--stats -: standard output carries the scores; give the statistics a file name (--stats PART.json)");
    }
    let text = serde_json::to_string(file)? + "\n";
    write_atomic(Path::new(path), text.as_bytes())
        .with_context(|| format!("cannot write the statistics to {path}"))
}

/// The `--stats` file of a metric whose statistics are kept per sentence (GLEU, M2, ERRANT,
/// CLEME): the settings its output depends on, the systems, and a [`Shard`] whose signature
/// holds everything that must be equal for shards to merge. A command renders its output
/// from this, so `green merge` prints what one run prints.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct ShardFile<O, S> {
    /// [`STATS_FORMAT`].
    pub(crate) format: String,
    /// `gleu`, `m2`, `errant` or `cleme`.
    pub(crate) metric: String,
    pub(crate) settings: O,
    pub(crate) systems: Vec<String>,
    pub(crate) shard: Shard<S>,
}

impl<O, S> ShardFile<O, S> {
    /// Every system's sentence statistics (`stats[h][k]`), under `signature`.
    pub(crate) fn new(
        metric: &str,
        settings: O,
        signature: String,
        systems: &[String],
        stats: Vec<Vec<S>>,
    ) -> Result<Self> {
        Ok(ShardFile {
            format: STATS_FORMAT.into(),
            metric: metric.into(),
            settings,
            systems: systems.to_vec(),
            shard: Shard::new(signature, stats)?,
        })
    }
}
