//! `green merge`: the scores of a corpus scored in shards, for every metric.
//!
//! A corpus too big for one machine, or already split into parts, is scored part by part with
//! `--stats PART.json` (`green`, `green gleu`, `green maxmatch`, `green errant-compare`,
//! `green cleme`, `green cleme2`, `green gotoscorer`, and in a build with the `neural`
//! feature `green some`, `green impara`, `green scribendi`, `green ptm2`);
//! `green merge PART1.json PART2.json ...` joins the parts' statistics in
//! corpus order and prints what one run over the whole corpus prints (text or JSON), bit for
//! bit: GREEN's region totals add exactly and its mean is taken over every sentence score the
//! parts kept; the other metrics' shards keep every sentence's statistics, and the command's
//! own printer folds the merged shard (M2 and ERRANT choose references against running
//! totals, CLEME weighs by the corpus's mean chunk length, GLEU draws references over all
//! sentences), so nothing depends on where the corpus was cut.

use anyhow::{bail, Context, Result};
use green_engine::{Normalization, Signature};

use crate::args::{Format, Level, TokenizerArgs};
use crate::cmd::score::{self, Scored};
use crate::cmd::{cleme, cleme2, errant, gleu, gotoscorer, maxmatch};
use crate::limits::{bounded, MAX_DIGITS};
use crate::output::emit;
use crate::stats::{merge_shards, parse, read_all, Read, StatsFile};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Statistics files written by `--stats FILE` (green, gleu, maxmatch, errant-compare,
    /// cleme, cleme2, gotoscorer; some, impara, scribendi, ptm2 in a build with the neural
    /// feature), in corpus order.
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
    /// the annotator chosen per sentence, as their -v. SOME, IMPARA, Scribendi, PT-M2: every
    /// sentence's scores, as their -v.
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With -v: one line per system and beta instead of the table.
    #[arg(short = 'l', long = "line-verbose")]
    pub line_verbose: bool,

    /// Join files of separate corpora (each scored whole, e.g. files split beforehand) in
    /// the order given. Without it, the files must be shards of one corpus (`--rows A:B`
    /// over the whole files), which are put in order and checked to cover it exactly once.
    #[arg(long)]
    pub concat: bool,
}

pub fn run(args: &Args) -> Result<()> {
    if args.level == Level::Sentence {
        bail!("green merge prints corpus or mean scores; sentence scores come from scoring the shards themselves (--level sentence)");
    }
    let files = read_all(&args.files, args.concat)?;
    let (first, metric) = (files[0].path.to_string(), files[0].metric.clone());
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
        "cleme2" => {
            corpus_only()?;
            let format = if json { "json" } else { "text" };
            Ok(emit(&cleme2::print(&merge_shards(files)?, format)?)?)
        }
        "gotoscorer" => {
            corpus_only()?;
            let format = if json { "json" } else { "text" };
            Ok(emit(&gotoscorer::print(&merge_shards(files)?, format)?)?)
        }
        "some" | "impara" | "scribendi" | "ptm2" => {
            corpus_only()?;
            merge_neural(args, files, &metric)
        }
        other => bail!("{first}: statistics of metric '{other}', which green merge does not know"),
    }
}

/// GREEN shards: what one scoring run prints.
fn merge_green(args: &Args, files: Vec<Read<'_>>) -> Result<()> {
    let mut files = files.into_iter().map(|Read { path, value, .. }| {
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
        rows: None,
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
fn merge_gleu(args: &Args, files: Vec<Read<'_>>) -> Result<()> {
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

/// Shards of a model-based metric: its command's output for the whole corpus.
#[cfg(feature = "neural")]
fn merge_neural(args: &Args, files: Vec<Read<'_>>, metric: &str) -> Result<()> {
    use crate::cmd::{impara, ptm2, scribendi, some};
    let format = if args.format == Format::Json {
        "json"
    } else {
        "text"
    };
    let v = args.verbose;
    match metric {
        "some" => some::show(&merge_shards(files)?, format, v),
        "impara" => impara::show(&merge_shards(files)?, format, v),
        "scribendi" => scribendi::show(&merge_shards(files)?, format, v),
        _ => ptm2::show(&merge_shards(files)?, format, v),
    }
}

/// Without the `neural` feature: say how to get it.
#[cfg(not(feature = "neural"))]
fn merge_neural(_: &Args, files: Vec<Read<'_>>, metric: &str) -> Result<()> {
    bail!(
        "{}: statistics of green {metric}, which this green was built without; merge them with a green built with the neural feature (cargo install --path crates/green-cli --features neural)",
        files[0].path
    )
}
