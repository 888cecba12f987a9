//! `green merge`: the scores of a corpus scored in shards, for every metric.
//!
//! A corpus too big for one machine, or already split into parts, is scored part by part with
//! `--stats PART.json` (`green`, `green gleu`, `green maxmatch`, `green errant-compare`,
//! `green cleme`); `green merge PART1.json PART2.json ...` joins the parts' statistics in
//! corpus order and prints what one run over the whole corpus prints (text or JSON), bit for
//! bit: GREEN's region totals add exactly and its mean is taken over every sentence score the
//! parts kept; the other metrics' shards keep every sentence's statistics, and the command's
//! own printer folds the merged shard (M2 and ERRANT choose references against running
//! totals, CLEME weighs by the corpus's mean chunk length, GLEU draws references over all
//! sentences), so nothing depends on where the corpus was cut.

use anyhow::{bail, Context, Result};
use green_engine::{Normalization, Signature};
use serde_json::Value;

use crate::args::{Format, Level, TokenizerArgs};
use crate::cmd::score::{self, Scored};
use crate::cmd::{cleme, errant, gleu, maxmatch};
use crate::limits::{bounded, MAX_DIGITS};
use crate::output::emit;
use crate::stats::{ShardFile, StatsFile, STATS_FORMAT};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Statistics files written by `--stats FILE` (green, gleu, maxmatch, errant-compare,
    /// cleme), in corpus order.
    #[arg(required = true, num_args = 1.., value_name = "STATS")]
    pub files: Vec<String>,

    /// Score level: corpus or mean (GREEN and GLEU).
    #[arg(long, value_parser = crate::args::level_parser(), default_value = "corpus")]
    pub level: Level,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,

    /// Digits after the decimal point.
    #[arg(short = 'd', long = "digit", default_value_t = 2, value_parser = bounded(0, MAX_DIGITS))]
    pub digits: usize,

    /// GREEN: print the per-order table of counts and scores (corpus level). M2 and ERRANT:
    /// the annotator chosen per sentence, as their -v.
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With -v: one line per system and beta instead of the table.
    #[arg(short = 'l', long = "line-verbose")]
    pub line_verbose: bool,
}

/// A statistics file as JSON, its layout checked, and the metric it is of (`green`, `gleu`).
fn read(path: &str) -> Result<(Value, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of --stats ({e})"))?;
    let format = value.get("format").and_then(Value::as_str).unwrap_or("");
    if format != STATS_FORMAT {
        bail!(
            "{path}: not a statistics file of --stats in layout '{STATS_FORMAT}' (its format is '{format}'); write it again with this green's --stats"
        );
    }
    let metric = value
        .get("metric")
        .and_then(Value::as_str)
        .unwrap_or("green");
    let metric = metric.to_string();
    Ok((value, metric))
}

/// Statistics files as JSON with their metric, which must be the same for all (at least one).
pub(crate) fn read_all(paths: &[String]) -> Result<Vec<(&str, Value, String)>> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let (value, metric) = read(path)?;
        files.push((path.as_str(), value, metric));
    }
    let (first, _, metric) = files.first().context("no statistics files given")?;
    if let Some((path, _, other)) = files.iter().find(|f| f.2 != *metric) {
        bail!(
            "{path} holds {other} statistics but {first} holds {metric}: give shards of one metric"
        );
    }
    Ok(files)
}

/// `value` as a `T`, or an error naming the file.
fn parse<T: serde::de::DeserializeOwned>(path: &str, value: Value) -> Result<T> {
    serde_json::from_value(value)
        .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of --stats ({e})"))
}

pub fn run(args: &Args) -> Result<()> {
    if args.level == Level::Sentence {
        bail!("green merge prints corpus or mean scores; sentence scores come from scoring the shards themselves (--level sentence)");
    }
    let files = read_all(&args.files)?;
    let (first, metric) = (files[0].0.to_string(), files[0].2.clone());
    let files = files.into_iter().map(|(path, value, _)| (path, value));
    let json = args.format == Format::Json;
    let corpus_only = || {
        if args.level == Level::Mean {
            bail!("{metric} statistics give corpus scores (as green {metric} prints them); leave out --level mean");
        }
        Ok(())
    };
    match metric.as_str() {
        "green" => merge_green(args, files),
        "gleu" => merge_gleu(args, files),
        "m2" => {
            corpus_only()?;
            Ok(emit(&maxmatch::print(
                &merge_shards(files)?,
                args.verbose,
                json,
            )?)?)
        }
        "errant" => {
            corpus_only()?;
            Ok(emit(&errant::print(
                &merge_shards(files)?,
                args.verbose,
                json,
            )?)?)
        }
        "cleme" => {
            corpus_only()?;
            let format = if json { "json" } else { "text" };
            Ok(emit(&cleme::print(&merge_shards(files)?, format)?)?)
        }
        other => bail!("{first}: statistics of metric '{other}', which green merge does not know"),
    }
}

/// The [`ShardFile`]s of one metric joined in corpus order: same settings, same systems.
pub(crate) fn merge_shards<'a, O, S>(
    files: impl Iterator<Item = (&'a str, Value)>,
) -> Result<ShardFile<O, S>>
where
    O: serde::de::DeserializeOwned,
    S: serde::de::DeserializeOwned,
{
    let mut merged: Option<(&str, ShardFile<O, S>)> = None;
    for (path, value) in files {
        let next: ShardFile<O, S> = parse(path, value)?;
        next.shard
            .check()
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

/// GREEN shards: what one scoring run prints.
fn merge_green<'a>(args: &Args, files: impl Iterator<Item = (&'a str, Value)>) -> Result<()> {
    let mut files = files.map(|(path, value)| {
        let file: StatsFile = parse(path, value)?;
        file.statistics
            .check()
            .with_context(|| format!("{path}: damaged statistics"))?;
        Ok::<_, anyhow::Error>((path, file))
    });
    let (first, mut merged) = files.next().context("no statistics files given")??;
    for next in files {
        let (path, next) = next?;
        let same = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| -> Result<()> {
            let (a, b) = (format!("{a:?}"), format!("{b:?}"));
            if a != b {
                bail!("{path}: {what} {b}, but {first} has {a}: merge only shards scored with the same settings");
            }
            Ok(())
        };
        same("tokenizer", &merged.tokenizer, &next.tokenizer)?;
        same("normalization", &merged.normalization, &next.normalization)?;
        same("M2 references", &merged.m2, &next.m2)?;
        same("systems", &merged.systems.len(), &next.systems.len())?;
        merged
            .statistics
            .merge(&next.statistics)
            .with_context(|| format!("{path} cannot follow {first}"))?;
        merged.refs = merged.refs.max(next.refs);
    }
    let stats = &merged.statistics;
    if stats.sentences() == 0 {
        bail!("the statistics hold no sentences: there is nothing to score");
    }
    let normalization: Normalization = merged
        .normalization
        .parse()
        .map_err(|e| anyhow::anyhow!("{first}: normalization '{}': {e}", merged.normalization))?;
    let scored = Scored::merged(stats, merged.refs, args.level)?;
    let shown = score::Args {
        source: merged.source.clone(),
        refs: merged.references.clone(),
        hyps: merged.systems.clone(),
        n: stats.config().n as i64,
        betas: stats.config().betas.clone(),
        digits: args.digits,
        tokenizer: TokenizerArgs {
            tokenizer: merged.tokenizer.clone(),
            plugin_config: None,
            ja_dict: None,
            normalization,
        },
        verbose: args.verbose,
        line_verbose: args.line_verbose,
        ref_format: "auto".into(),
        missing_annotator: Default::default(),
        level: Some(args.level),
        format: args.format,
        threads: None,
        no_progress: true,
        stats: None,
    };
    let base = Signature {
        n: stats.config().n,
        betas: Vec::new(),
        tokenizer: merged.tokenizer.clone(),
        normalization,
        refs: merged.refs,
        level: args.level.name().into(),
        m2: merged.m2.clone(),
    };
    score::print(&scored, &shown, args.level, &base)
}

/// GLEU shards: `green gleu`'s corpus or mean output for the whole corpus.
fn merge_gleu<'a>(args: &Args, files: impl Iterator<Item = (&'a str, Value)>) -> Result<()> {
    if args.verbose {
        bail!("green merge does not print GLEU's per-order tables; run green gleu -v on the whole corpus");
    }
    let merged: gleu::StatsFile = merge_shards(files)?;
    let out = gleu::output(&merged, args.level);
    emit(&match args.format {
        Format::Json => green_output::to_json(&out)?,
        Format::Text => green_output::gleu::text(&out, args.digits),
    })?;
    Ok(())
}
