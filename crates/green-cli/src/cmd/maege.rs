//! `green maege`: validate metric configurations from the gold edits of an M2 file alone
//! (MAEGE, Choshen and Abend 2018; see `green_meta::maege` for exactly what is measured).
//!
//! Every combination of the given tokenizers, N, beta and levels is one row, plus GLEU with
//! `--gleu` and `--m2`; all rows are scored on the same seeded corpora and chains.

use anyhow::{bail, Context, Result};
use green_io::{m2, Input};
use green_meta::maege::{self, Options, Protocol, RefMode};
use green_meta::{Level, MetricConfig, Sweep};

use crate::limits::{bounded, MAX_GLEU_ITERATIONS, MAX_M, MAX_MAEGE_REPS};
use crate::output::emit;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The M2 file (plain, or with T<ref>-A<alt> target lines). A relative path that does not
    /// exist here is looked up under --data, else ../shared/data and the user data directory
    /// of `green data get` (e.g. conll14/conll14st-test.m2).
    #[arg(value_name = "FILE.m2")]
    pub input: String,

    /// Data directory to look the M2 and --held-out files up in when they are not found as
    /// given.
    #[arg(long, value_name = "DIR")]
    pub data: Option<std::path::PathBuf>,

    /// Tokenizer specs (e.g. word char char:nospace).
    #[arg(short = 't', long = "tokenizer", value_name = "SPEC", num_args = 1.., default_values = ["word"])]
    pub tokenizers: Vec<String>,

    /// Maximum n-gram orders, e.g. `4` or `1,2,4`.
    #[arg(short = 'n', long = "n", value_name = "N", num_args = 1.., value_delimiter = ',', default_values = ["4"])]
    pub n: Vec<usize>,

    /// Betas, e.g. `2` or `0.5,1,2`.
    #[arg(short = 'b', long = "beta", value_name = "BETA", num_args = 1.., value_delimiter = ',', default_values = ["2"])]
    pub betas: Vec<f64>,

    /// Corpus score level: corpus (the metric's corpus score) and/or mean (of sentence scores).
    #[arg(long = "level", value_name = "LEVEL", num_args = 1.., value_delimiter = ',', default_values = ["corpus"])]
    pub levels: Vec<String>,

    /// Text normalisation before tokenising: none, nfc, nfkc, lower, cjk-join, or e.g. nfkc+lower.
    #[arg(long, value_name = "FORM", default_value = "none")]
    pub norm: String,

    /// Also validate GLEU (N=4) with every tokenizer and level, as the GREEN paper reformulates
    /// it on region counts (rows `GLEU-reformulated`; `green gleu` is the official GLEU).
    #[arg(long)]
    pub gleu: bool,

    /// Also validate M2 (F0.5, the m2scorer's) with every tokenizer and level; its gold edits
    /// from each drawn source to each reference are extracted as ERRANT -lev -merge all-merge.
    #[arg(long)]
    pub m2: bool,

    /// Also validate ERRANT's span F0.5 and CLEME (dependent, independent); edits from each
    /// drawn source to each reference and hypothesis are extracted as ERRANT -lev -merge all-merge.
    #[arg(long)]
    pub edits: bool,

    /// GLEU: reference-sampling iterations at corpus level.
    #[arg(long, value_name = "K", default_value_t = 100, value_parser = bounded(1, MAX_GLEU_ITERATIONS))]
    pub gleu_iterations: usize,

    /// Seed of every random draw (sources, chains, corpora, GLEU's reference choice).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Corpus-level repetitions, each with fresh sources and draws.
    #[arg(long, value_name = "R", default_value_t = 5, value_parser = bounded(1, MAX_MAEGE_REPS))]
    pub reps: usize,

    /// Largest expected number of edits per sentence at corpus level (MAEGE: 10).
    #[arg(long, value_name = "M", default_value_t = 10, value_parser = bounded(0, MAX_M))]
    pub max_m: usize,

    /// How lattices are sampled: lattice (this tool's original mode) or paper (Choshen and
    /// Abend 2018 as published: chains from the original with the source sampled inside
    /// them, held-out references, their binomial corpora and τ = 1 − 2D/N).
    #[arg(long, value_name = "PROTOCOL", default_value = "lattice", value_parser = ["lattice", "paper"])]
    pub protocol: String,

    /// References given to the metric: all (every reference of the sentence), own (only the
    /// annotation the lattice comes from) or held-out (the other annotators', or --held-out
    /// files). Default: all, or held-out with --protocol paper.
    #[arg(long, value_name = "WHICH")]
    pub refs: Option<String>,

    /// With --refs held-out: reference line files (one reference set each, one line per M2
    /// sentence) to score against instead of the other annotators.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub held_out: Vec<String>,

    /// Remove every space before scoring (character-tokenised M2 such as NLPCC-18 becomes raw
    /// text, for word segmenters such as `-t zh`).
    #[arg(long)]
    pub strip_spaces: bool,

    /// With --refs all: skip (a sentence's references are the annotators with a line in its
    /// block, as the m2scorer) or source (every annotator; a missing one gives the source).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: green_io::m2::MissingAnnotator,

    /// What to print: markdown, tsv, json.
    #[arg(short = 'f', long, value_name = "FORMAT", default_value = "markdown")]
    pub format: String,

    /// Per-type table: only error types with at least this many edits.
    #[arg(long, value_name = "K", default_value_t = 20)]
    pub min_type_count: u64,
}

fn configs(args: &Args) -> Result<Vec<MetricConfig>> {
    let normalization: green_engine::Normalization = args
        .norm
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--norm: {e}"))?;
    if let Some(n) = args
        .n
        .iter()
        .find(|&&n| !(1..=green_engine::MAX_N).contains(&n))
    {
        bail!("N must be between 1 and {} (got {n})", green_engine::MAX_N);
    }
    if let Some(b) = args.betas.iter().find(|b| b.is_nan() || **b < 0.0) {
        bail!("beta must be a non-negative number or inf (got {b})");
    }
    let levels: Vec<Level> = args
        .levels
        .iter()
        .map(|l| l.parse())
        .collect::<Result<_, _>>()?;
    Ok(Sweep {
        tokenizers: &args.tokenizers,
        normalization,
        levels: &levels,
        ns: &args.n,
        betas: &args.betas,
        green: true,
        gleu: args.gleu.then_some((args.gleu_iterations, args.seed)),
        m2: args.m2,
        edits: args.edits,
        typed: false,
        cleme2: false,
    }
    .configs())
}

pub fn run(args: &Args) -> Result<()> {
    if !matches!(args.format.as_str(), "markdown" | "tsv" | "json") {
        bail!(
            "unknown format '{}'; use markdown, tsv or json",
            args.format
        );
    }
    let protocol = match args.protocol.as_str() {
        "paper" => Protocol::Paper,
        _ => Protocol::Lattice,
    };
    let default_refs = match protocol {
        Protocol::Paper => "held-out",
        Protocol::Lattice => "all",
    };
    let refs = match args.refs.as_deref().unwrap_or(default_refs) {
        "all" => RefMode::All,
        "own" => RefMode::Own,
        "held-out" => RefMode::HeldOut,
        other => bail!("unknown --refs '{other}'; use all, own or held-out"),
    };
    if !args.held_out.is_empty() && refs != RefMode::HeldOut {
        bail!("--held-out files are references for --refs held-out");
    }
    let configs = configs(args)?;
    let input = crate::registry::find_file(&args.input, args.data.as_deref())?;
    let parsed = m2::read(&Input::parse(&input))?;
    for w in parsed.warnings() {
        crate::output::warn(&w);
    }
    let held_out = if args.held_out.is_empty() {
        None
    } else {
        let inputs: Vec<Input> = args
            .held_out
            .iter()
            .map(|p| crate::registry::find_file(p, args.data.as_deref()).map(|p| Input::parse(&p)))
            .collect::<Result<_>>()?;
        Some(
            green_io::references::load_all(
                &inputs,
                Some(green_io::Format::Lines),
                args.missing_annotator,
            )?
            .refs,
        )
    };
    let options = Options {
        seed: args.seed,
        reps: args.reps,
        max_m: args.max_m,
        refs,
        strip_spaces: args.strip_spaces,
        missing_annotator: args.missing_annotator,
        protocol,
        held_out,
    };
    let report =
        maege::run(&parsed, &configs, &options).with_context(|| format!("MAEGE on {input}"))?;
    match args.format.as_str() {
        "tsv" => emit(&report.tsv())?,
        "json" => emit(&(report.json() + "\n"))?,
        _ => emit(&report.markdown(args.min_type_count))?,
    }
    Ok(())
}
