//! `green report`: one or more systems on one corpus as one self-contained HTML page (or
//! the same data as JSON): corpus scores with intervals and paired tests, edit outcomes,
//! error types, score distributions, length buckets and a sentence browser.
//!
//! This module is wiring: it reads the corpus as every other command does
//! ([`crate::input::load`]), the gold M2 file as `green maxmatch` and `errant-compare` read
//! it, and hands everything to green-report, which computes the model and renders the page.
//! File names go into the report as given, never made absolute, and an absolute one is cut
//! to its file name, so a report that is passed around says nothing of the machine (or the
//! user's directories) it was made on.

use anyhow::{bail, Result};
use green_io::m2::MissingAnnotator;
use green_io::references::Format;
use green_report::{Files, Gold, Input, Settings, Tokens};

use crate::args::TokenizerArgs;
use crate::cmd::maxmatch::parse_beta;
use crate::input::read_text;
use crate::limits::{bounded, MAX_THREADS};
use crate::output::{emit, warn, write_atomic};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Source file (may be left out when the references are M2 or para files).
    #[arg(
        short = 's',
        long = "src",
        visible_alias = "source",
        value_name = "SRC"
    )]
    pub source: Option<String>,

    /// Reference files (line, M2 or para files).
    #[arg(short = 'r', long = "ref", visible_aliases = ["refs", "references"], num_args = 1.., required = true, value_name = "REF")]
    pub refs: Vec<String>,

    /// System files, one sentence per line.
    #[arg(short = 'c', long = "cor", visible_aliases = ["hyp", "hyps"], num_args = 1.., required = true, value_name = "SYS")]
    pub hyps: Vec<String>,

    /// Where to write the page (or, with --format json, the data; default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,

    /// Metrics, comma-separated: green, m2, errant, cleme [default: green, m2 when there are
    /// gold edits, errant].
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub metrics: Vec<String>,

    /// Gold M2 file, for the M2 metric and the gold error categories [default: the
    /// reference, when it is one M2 file].
    #[arg(long, value_name = "GOLD")]
    pub m2: Option<String>,

    /// The system the others are compared with: its label, its file as given, or its
    /// position from 1 [default: the first].
    #[arg(long, value_name = "SYSTEM")]
    pub baseline: Option<String>,

    /// Labels of the systems [default: their file names without directory and extension].
    #[arg(long, num_args = 1.., value_name = "NAME")]
    pub names: Vec<String>,

    /// Title of the page.
    #[arg(long, default_value = "green report")]
    pub title: String,

    /// GREEN's highest n-gram order N.
    #[arg(short = 'n', default_value_t = 4)]
    pub n: usize,

    /// GREEN's beta.
    #[arg(short = 'b', long = "beta", default_value_t = 1.0)]
    pub beta: f64,

    /// Beta of M2, ERRANT and CLEME.
    #[arg(long, default_value_t = 0.5, value_parser = parse_beta)]
    pub edit_beta: f64,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Layout of the -r files: auto, lines, m2 or para.
    #[arg(long, default_value = "auto", value_name = "FORMAT")]
    pub ref_format: String,

    /// M2 references: skip (only annotators with a line in the sentence's block) or source
    /// (every annotator; a missing one gives the source).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: MissingAnnotator,

    /// ChERRANT target lines in the gold file: first (each reference's first alternative)
    /// or pool (every alternative's edits), for M2.
    #[arg(long, default_value = "first", value_name = "RULE")]
    pub alternatives: green_m2::Alternatives,

    /// Bootstrap replicates of the intervals and paired tests.
    #[arg(long, value_name = "R", default_value_t = 1000)]
    pub reps: usize,

    /// Seed of the bootstrap's generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Coverage of the intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,

    /// Length buckets' lower bounds in tokens, comma-separated [default: 10,20,30,40,50,60;
    /// 20,40,60,80,100,120 for character-level, Chinese and Japanese tokenizers].
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub buckets: Vec<usize>,

    /// Output: html (the page) or json (the data the page shows, on one line).
    #[arg(long, default_value = "html", value_parser = ["html", "json"])]
    pub format: String,

    /// Worker threads (default: all cores). Results are identical at any count.
    #[arg(long, value_parser = bounded(1, MAX_THREADS))]
    pub threads: Option<usize>,
}

pub fn run(args: &Args) -> Result<()> {
    crate::limits::check_resampling(args.reps, args.confidence)?;
    if args.format == "html" && args.output.is_none() {
        bail!("green report writes its page to a file: give -o report.html (or --format json to print the data)");
    }
    green_engine::Config::new(args.n, vec![args.beta])?;
    if let Some(dir) = args
        .output
        .as_deref()
        .and_then(|o| std::path::Path::new(o).parent())
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        // Said before the scoring, not after it.
        bail!(
            "cannot write {}: the directory {} does not exist; create it first",
            args.output.as_deref().unwrap_or_default(),
            dir.display()
        );
    }
    let buckets =
        green_report::choose::buckets(&args.buckets, &args.tokenizer.tokenizer, "--buckets")?;
    crate::args::start_pool(args.threads, false, None)?;
    let data = crate::input::load(
        args.source.as_deref(),
        &args.refs,
        &args.hyps,
        &args.ref_format,
        args.missing_annotator,
    )?;
    let line_refs = crate::input::line_refs(&args.refs, &args.ref_format)?;
    crate::input::guard(args.tokenizer.guard(&line_refs), &data.views().sentences());
    let gold = read_gold(args, &data)?;
    let metrics = green_report::choose::metrics(&args.metrics, gold.is_some())?;
    let names = names(args)?;
    let baseline =
        green_report::choose::baseline(args.baseline.as_deref(), &names, &args.hyps, "--baseline")?;
    let built = args.tokenizer.build()?;
    let tokens = Tokens::new(
        built.as_dyn(),
        &args.tokenizer.tokenizer,
        args.tokenizer.normalization,
        args.tokenizer.plugin_config.is_some(),
    );
    let settings = Settings {
        title: args.title.clone(),
        metrics,
        n: args.n,
        beta: args.beta,
        edit_beta: args.edit_beta,
        reps: args.reps,
        seed: args.seed,
        confidence: args.confidence,
        baseline,
        buckets,
        missing_annotator: data
            .from_m2
            .then(|| args.missing_annotator.name().to_string()),
    };
    let files = Files {
        source: args.source.as_deref().map(shown),
        references: args.refs.iter().map(|r| shown(r)).collect(),
        systems: names
            .into_iter()
            .zip(&args.hyps)
            .map(|(name, path)| green_report::model::SystemName {
                name,
                path: shown(path),
            })
            .collect(),
    };
    let input = Input {
        sources: &data.sources,
        refs: &data.refs,
        hyps: &data.hyps,
        gold: gold.as_ref(),
    };
    let report = green_report::build(&input, files, &tokens, &settings)?;
    for w in &report.warnings {
        warn(w);
    }
    let text = if args.format == "json" {
        green_report::to_json(&report)?
    } else {
        green_report::html::page(&report)?
    };
    match &args.output {
        Some(path) => write_atomic(std::path::Path::new(path), text.as_bytes()),
        None => emit(&text),
    }
}

/// A file name as the report records it: as given, or only its last component when it is
/// absolute.
fn shown(path: &str) -> String {
    let p = std::path::Path::new(path);
    if p.is_absolute() {
        if let Some(name) = p.file_name() {
            return name.to_string_lossy().into_owned();
        }
    }
    path.to_string()
}

/// The systems' labels: as given, or each file's name without directory and extension
/// (the files as given when two would share a name).
fn names(args: &Args) -> Result<Vec<String>> {
    if !args.names.is_empty() {
        if args.names.len() != args.hyps.len() {
            bail!(
                "--names gives {} labels for {} systems; give one per -c file",
                args.names.len(),
                args.hyps.len()
            );
        }
        return Ok(args.names.clone());
    }
    let stems: Vec<String> = args
        .hyps
        .iter()
        .map(|p| {
            std::path::Path::new(p)
                .file_stem()
                .and_then(|s| s.to_str())
                .filter(|s| !s.is_empty())
                .unwrap_or(p)
                .to_string()
        })
        .collect();
    let unique = stems
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == stems.len();
    Ok(if unique { stems } else { args.hyps.clone() })
}

/// The gold M2 file: `--m2`, or the reference when it is the one M2 file given.
fn read_gold(args: &Args, data: &green_input::Loaded) -> Result<Option<Gold>> {
    let format = Format::parse(&args.ref_format)?;
    let path = match &args.m2 {
        Some(p) => p.clone(),
        None if args.refs.len() == 1
            && format.unwrap_or_else(|| Format::detect(&args.refs[0])) == Format::M2 =>
        {
            args.refs[0].clone()
        }
        None => return Ok(None),
    };
    let text = read_text(&path)?;
    let (mut gold, warnings) =
        green_report::choose::gold(&text, &path, args.alternatives, &data.sources)?;
    for w in &warnings {
        warn(w);
    }
    gold.path = shown(&path);
    Ok(Some(gold))
}
