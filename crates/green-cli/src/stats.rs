//! The statistics files of `--stats` that `green merge` and `green paired --stats` join: one
//! layout for every metric, and everything that makes a join checkable.
//!
//! A file says where its statistics come from ([`Provenance`]: a digest of the whole
//! corpus's sources and references, and which of its rows it holds) and carries a checksum
//! of its own contents. Joining them refuses what used to print a plausible score with exit
//! 0: a file given twice, shards of another corpus, a gap or an overlap between shards, a
//! file edited or damaged after green wrote it. Shards of one corpus (scored with
//! `--rows A:B` over the whole files) are put in corpus order by their rows, whatever order
//! they are given in; files of separately split corpora carry no common identity, so joining
//! them takes `--concat`, which joins them in the order given.

use std::ops::Range;
use std::path::Path;

use anyhow::{bail, Context, Result};
use green_engine::Accumulator;
use green_metric::Shard;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::output::write_atomic;

/// The version of the statistics file layout.
pub(crate) const STATS_FORMAT: &str = "green-stats/2";

/// Where a file's statistics come from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Provenance {
    /// SHA-256 of every row's source and references, in corpus order ([`CorpusDigest`]).
    pub(crate) corpus: String,
    /// Rows of the whole corpus.
    pub(crate) corpus_rows: usize,
    /// The rows these statistics are of: `first..first + rows`.
    pub(crate) first: usize,
    pub(crate) rows: usize,
}

impl Provenance {
    fn range(&self) -> Range<usize> {
        self.first..self.first + self.rows
    }

    /// The rows lie within the corpus.
    fn check(&self) -> Result<(), String> {
        match self.first.checked_add(self.rows) {
            Some(end) if end <= self.corpus_rows => Ok(()),
            _ => Err(format!(
                "rows {}+{} of a corpus of {} rows",
                self.first, self.rows, self.corpus_rows
            )),
        }
    }
}

/// The identity of a corpus: a digest of what scores depend on besides the systems, its
/// sources and references, row by row (each text length-prefixed, so no two corpora cut
/// differently collide).
pub(crate) struct CorpusDigest {
    hasher: Sha256,
    rows: usize,
}

impl CorpusDigest {
    pub(crate) fn new() -> Self {
        CorpusDigest {
            hasher: Sha256::new(),
            rows: 0,
        }
    }

    /// Add one row: its source and references.
    pub(crate) fn row<'a>(&mut self, source: &str, refs: impl IntoIterator<Item = &'a str>) {
        let mut text = |t: &str| {
            self.hasher.update((t.len() as u64).to_le_bytes());
            self.hasher.update(t.as_bytes());
        };
        text(source);
        for r in refs {
            text(r);
        }
        // A row's end: a length no text has.
        self.hasher.update(u64::MAX.to_le_bytes());
        self.rows += 1;
    }

    /// The identity of a gold M2 file's corpus: every sentence's source and its annotators'
    /// edits (what `green maxmatch` and `green ptm2` score against).
    pub(crate) fn of_gold(sentences: &[green_m2::GoldSentence]) -> Self {
        let mut digest = CorpusDigest::new();
        for s in sentences {
            digest.row(&s.source, [format!("{:?}", s.annotators).as_str()]);
        }
        digest
    }

    /// The provenance of statistics of `rows` of the corpus added.
    pub(crate) fn provenance(self, rows: &Range<usize>) -> Provenance {
        Provenance {
            corpus: hex(&self.hasher.finalize()),
            corpus_rows: self.rows,
            first: rows.start,
            rows: rows.len(),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Keep `rows` of `v` alone.
pub(crate) fn keep<T>(v: &mut Vec<T>, rows: &Range<usize>) {
    v.truncate(rows.end);
    v.drain(..rows.start);
}

/// The provenance of `rows` of a corpus in memory, and those rows kept alone.
pub(crate) fn select_loaded(
    data: &mut green_input::Loaded,
    rows: Option<Rows>,
) -> Result<Provenance> {
    let mut digest = CorpusDigest::new();
    for (source, refs) in data.sources.iter().zip(&data.refs) {
        digest.row(source, refs.iter().map(String::as_str));
    }
    let range = Rows::select(rows, data.sources.len())?;
    data.keep(range.clone());
    Ok(digest.provenance(&range))
}

/// `--rows A:B`: score rows `A..B` of the files (0-based, `B` excluded, as a Python slice;
/// `A:` to the end), for a shard of a corpus whose every part reads the whole files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rows {
    pub first: usize,
    pub end: Option<usize>,
}

impl std::str::FromStr for Rows {
    type Err = String;

    fn from_str(s: &str) -> Result<Rows, String> {
        let bad = || {
            format!("'{s}' is not a row range; use A:B (rows A to B-1, counted from 0, as a Python slice) or A: (to the end)")
        };
        let (a, b) = s.split_once(':').ok_or_else(bad)?;
        let number = |x: &str| x.trim().parse::<usize>().map_err(|_| bad());
        let first = if a.trim().is_empty() { 0 } else { number(a)? };
        let end = if b.trim().is_empty() {
            None
        } else {
            Some(number(b)?)
        };
        if end.is_some_and(|e| e < first) {
            return Err(bad());
        }
        Ok(Rows { first, end })
    }
}

impl Rows {
    /// The rows selected of a corpus of `total` rows (all of them without `--rows`).
    pub(crate) fn select(rows: Option<Rows>, total: usize) -> Result<Range<usize>> {
        let Some(r) = rows else {
            return Ok(0..total);
        };
        let end = r.end.unwrap_or(total);
        if end > total {
            bail!(
                "--rows {}:{end}: the corpus has {total} rows; give an end of at most {total}",
                r.first
            );
        }
        if r.first >= end {
            bail!(
                "--rows {}:{end} selects no rows (the corpus has {total})",
                r.first
            );
        }
        Ok(r.first..end)
    }
}

/// What `--stats` writes and `green merge` reads for GREEN: the statistics of one run (a
/// shard of a corpus) and every setting that changes a number or how it is shown.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct StatsFile {
    /// [`STATS_FORMAT`].
    pub(crate) format: String,
    pub(crate) provenance: Provenance,
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

/// The `--stats` file of a metric whose statistics are kept per sentence (GLEU, M2, ERRANT,
/// CLEME): the settings its output depends on, the systems, and a [`Shard`] whose signature
/// holds everything that must be equal for shards to merge. A command renders its output
/// from this, so `green merge` prints what one run prints.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct ShardFile<O, S> {
    /// [`STATS_FORMAT`].
    pub(crate) format: String,
    pub(crate) provenance: Provenance,
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
        provenance: Provenance,
        settings: O,
        signature: String,
        systems: &[String],
        stats: Vec<Vec<S>>,
    ) -> Result<Self> {
        Ok(ShardFile {
            format: STATS_FORMAT.into(),
            provenance,
            metric: metric.into(),
            settings,
            systems: systems.to_vec(),
            shard: Shard::new(signature, stats)?,
        })
    }
}

/// The checksum of a statistics file's JSON without its `checksum` member (serde_json
/// prints a parsed value as it was written, floats included: `float_roundtrip`).
fn checksum(value: &Value) -> String {
    hex(&Sha256::digest(value.to_string().as_bytes()))
}

/// Write a `--stats` file (one line of JSON, with its checksum last), whole or not at all.
/// `-` is refused: standard output carries the scores.
pub(crate) fn write_stats(path: &str, file: &impl serde::Serialize) -> Result<()> {
    if path == "-" {
        bail!("--stats -: standard output carries the scores; give the statistics a file name (--stats PART.json)");
    }
    let mut value = serde_json::to_value(file)?;
    let sum = checksum(&value);
    if let Value::Object(members) = &mut value {
        members.insert("checksum".into(), Value::String(sum));
    }
    write_atomic(Path::new(path), (value.to_string() + "\n").as_bytes())
        .with_context(|| format!("cannot write the statistics to {path}"))
}

/// A statistics file read back: its JSON (checksum verified and removed), its metric and
/// where it comes from.
pub(crate) struct Read<'a> {
    pub(crate) path: &'a str,
    pub(crate) value: Value,
    pub(crate) metric: String,
    pub(crate) provenance: Provenance,
}

/// A statistics file, its layout and checksum checked.
fn read(path: &str) -> Result<Read<'_>> {
    let text = crate::input::read_text(path)?;
    let mut value: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of --stats ({e})"))?;
    let format = value.get("format").and_then(Value::as_str).unwrap_or("");
    if format != STATS_FORMAT {
        bail!(
            "{path}: not a statistics file of --stats in layout '{STATS_FORMAT}' (its format is '{format}'); write it again with this green's --stats"
        );
    }
    let written = match value.as_object_mut().and_then(|m| m.remove("checksum")) {
        Some(Value::String(sum)) => sum,
        _ => bail!(
            "{path}: the statistics file has no checksum; write it again with this green's --stats"
        ),
    };
    if written != checksum(&value) {
        bail!("{path}: the statistics were changed after green wrote them (their checksum does not match); score that shard again");
    }
    let metric = value
        .get("metric")
        .and_then(Value::as_str)
        .unwrap_or("green")
        .to_string();
    let provenance: Provenance =
        serde_json::from_value(value.get("provenance").cloned().unwrap_or_default())
            .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of --stats ({e})"))?;
    provenance
        .check()
        .map_err(|e| anyhow::anyhow!("{path}: damaged statistics: {e}"))?;
    Ok(Read {
        path,
        value,
        metric,
        provenance,
    })
}

/// Statistics files of one metric, checked and put in corpus order (see the module
/// documentation): without `concat`, shards of one corpus that cover it exactly once, sorted
/// by their rows; with `concat`, files joined in the order given, none holding rows another
/// holds.
pub(crate) fn read_all(paths: &[String], concat: bool) -> Result<Vec<Read<'_>>> {
    let mut files = paths.iter().map(|p| read(p)).collect::<Result<Vec<_>>>()?;
    let first = files.first().context("no statistics files given")?;
    if let Some(other) = files.iter().find(|f| f.metric != first.metric) {
        bail!(
            "{} holds {} statistics but {} holds {}: give shards of one metric",
            other.path,
            other.metric,
            first.path,
            first.metric
        );
    }
    for (i, a) in files.iter().enumerate() {
        for b in &files[i + 1..] {
            let (ra, rb) = (a.provenance.range(), b.provenance.range());
            if a.provenance.corpus == b.provenance.corpus && ra.start < rb.end && rb.start < ra.end
            {
                let (what, rows) = if ra == rb {
                    ("the same rows", format!("{}..{}", ra.start, ra.end))
                } else {
                    (
                        "overlapping rows",
                        format!("{}..{}", ra.start.max(rb.start), ra.end.min(rb.end)),
                    )
                };
                bail!(
                    "{} and {} hold {what} ({rows}) of one corpus; give every shard once",
                    a.path,
                    b.path
                );
            }
        }
    }
    if concat {
        return Ok(files);
    }
    let corpus = &files[0].provenance;
    if let Some(other) = files.iter().find(|f| f.provenance.corpus != corpus.corpus) {
        bail!(
            "{} is of another corpus than {} (their sources and references differ): shards of one corpus are scored with --rows A:B over the whole files; to join separate corpora in the order given, pass --concat",
            other.path,
            files[0].path
        );
    }
    files.sort_by_key(|f| f.provenance.first);
    let mut next = 0;
    for f in &files {
        if f.provenance.first != next {
            bail!(
                "rows {next}..{} of the corpus are in none of the files given (the next, {}, starts at row {}); give every shard",
                f.provenance.first,
                f.path,
                f.provenance.first
            );
        }
        next = f.provenance.range().end;
    }
    let total = files[0].provenance.corpus_rows;
    if next != total {
        bail!(
            "rows {next}..{total} of the corpus ({total} rows) are in none of the files given; give every shard"
        );
    }
    Ok(files)
}

/// `value` as a `T`, or an error naming the file.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(path: &str, value: Value) -> Result<T> {
    serde_json::from_value(value)
        .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of --stats ({e})"))
}

/// The [`ShardFile`]s of one metric joined in corpus order: same settings, same systems,
/// every sentence's statistics checked.
pub(crate) fn merge_shards<O, S>(files: Vec<Read<'_>>) -> Result<ShardFile<O, S>>
where
    O: serde::de::DeserializeOwned,
    S: serde::de::DeserializeOwned + green_metric::Checked,
{
    let mut merged: Option<(&str, ShardFile<O, S>)> = None;
    for Read { path, value, .. } in files {
        let next: ShardFile<O, S> = parse(path, value)?;
        next.shard
            .verify()
            .with_context(|| format!("{path}: damaged statistics"))?;
        merged = Some(match merged {
            None => (path, next),
            Some((first, mut all)) => {
                if all.systems.len() != next.systems.len() {
                    bail!(
                        "{path}: {} systems, but {first} has {}: merge only shards scored with the same settings",
                        next.systems.len(),
                        all.systems.len()
                    );
                }
                all.shard = all
                    .shard
                    .merge(next.shard)
                    .with_context(|| format!("{path} cannot follow {first}"))?;
                (first, all)
            }
        });
    }
    let (_, merged) = merged.context("no statistics files given")?;
    if merged.shard.sentences() == 0 {
        bail!("the statistics hold no sentences: there is nothing to score");
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_ranges_parse_as_python_slices() {
        let r = |s: &str| s.parse::<Rows>();
        assert_eq!(
            r("0:10"),
            Ok(Rows {
                first: 0,
                end: Some(10)
            })
        );
        assert_eq!(
            r("5:"),
            Ok(Rows {
                first: 5,
                end: None
            })
        );
        assert_eq!(
            r(":7"),
            Ok(Rows {
                first: 0,
                end: Some(7)
            })
        );
        for bad in ["5", "a:b", "7:3", "-1:2"] {
            assert!(r(bad).unwrap_err().contains("is not a row range"), "{bad}");
        }
        let rows = |s: &str, total| Rows::select(Some(s.parse().unwrap()), total);
        assert_eq!(rows("2:", 5).unwrap(), 2..5);
        assert!(rows("2:9", 5)
            .unwrap_err()
            .to_string()
            .contains("the corpus has 5 rows"));
        assert!(rows("5:", 5)
            .unwrap_err()
            .to_string()
            .contains("selects no rows"));
        assert_eq!(Rows::select(None, 5).unwrap(), 0..5);
    }

    #[test]
    fn corpus_digests_tell_cuts_and_spacing_apart() {
        let digest = |rows: &[(&str, &[&str])]| {
            let mut d = CorpusDigest::new();
            for (source, refs) in rows {
                d.row(source, refs.iter().copied());
            }
            d.provenance(&(0..rows.len())).corpus
        };
        let a = digest(&[("a b", &["a c"]), ("d", &["e"])]);
        assert_eq!(a, digest(&[("a b", &["a c"]), ("d", &["e"])]));
        assert_ne!(a, digest(&[("a b", &["a c", "d"]), ("e", &[])]));
        assert_ne!(a, digest(&[("a  b", &["a c"]), ("d", &["e"])]));
        assert_eq!(a.len(), 64);
    }
}
