//! `green merge`: GREEN scores of a corpus scored in shards.
//!
//! A corpus too big for one machine, or already split into parts, is scored part by part with
//! `green ... --stats PART.json`; `green merge PART1.json PART2.json ...` joins the parts'
//! statistics in corpus order and prints what one run over the whole corpus prints (corpus or
//! mean level, text or JSON), bit for bit: region totals add exactly, and the mean is taken
//! over every sentence score the parts kept.

use anyhow::{bail, Context, Result};
use green_engine::{Normalization, Signature};

use crate::limits::{bounded, MAX_DIGITS};
use crate::score::{self, Format, Level, Scored, StatsFile, STATS_FORMAT};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Statistics files written by `green ... --stats FILE`, in corpus order.
    #[arg(required = true, num_args = 1.., value_name = "STATS")]
    pub files: Vec<String>,

    /// Score level: corpus or mean.
    #[arg(long, value_enum, default_value = "corpus")]
    pub level: Level,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,

    /// Digits after the decimal point.
    #[arg(short = 'd', long = "digit", default_value_t = 2, value_parser = bounded(0, MAX_DIGITS))]
    pub digits: usize,

    /// Print the per-order table of counts and scores (corpus level).
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With -v: one line per system and beta instead of the table.
    #[arg(short = 'l', long = "line-verbose")]
    pub line_verbose: bool,
}

fn read(path: &str) -> Result<StatsFile> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let file: StatsFile = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{path}: not a statistics file of `green --stats` ({e})"))?;
    if file.format != STATS_FORMAT {
        bail!(
            "{path}: statistics in layout '{}', but this green reads '{STATS_FORMAT}'; write them again with this green's --stats",
            file.format
        );
    }
    file.statistics
        .check()
        .with_context(|| format!("{path}: damaged statistics"))?;
    Ok(file)
}

pub fn run(args: &Args) -> Result<()> {
    if args.level == Level::Sentence {
        bail!("green merge prints corpus or mean scores; sentence scores come from scoring the shards themselves (--level sentence)");
    }
    let mut files = args.files.iter();
    let first = files.next().context("no statistics files given")?;
    let mut merged = read(first)?;
    for path in files {
        let next = read(path)?;
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
        tokenizer: score::TokenizerArgs {
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
