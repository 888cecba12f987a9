//! `green maxmatch` (alias `m2scorer`): M2 scores exactly as the NUS m2scorer prints them.
//!
//! A drop-in for `m2scorer.py [-v] [--very_verbose] [--beta B] [--max_unchanged_words N]
//! [--ignore_whitespace_casing] SYSTEM GOLD`, and more: several systems against one gold file
//! (the lattice work is per system, the gold file is read once), a tokenizer for raw system
//! output, JSON with a signature, and `-v` as a table (the chosen annotator, counts and edit
//! sequence per sentence) instead of Python reprs. The metric is `green_m2`.
//!
//! Options parse as the original's `getopt` parses them, so that a command line it accepts
//! means the same here: a unique prefix of a long option is that option (`--be 1`, `--max 0`,
//! `--ignore`; `--ver` is ambiguous between `--verbose` and `--very_verbose`, as there; green's
//! own long options take prefixes too), and an option given twice takes its last value.
//! `--very_verbose` makes the original dump its edit matrices, lattice and weights as Python
//! reprs; here it is `-v` (listed in docs/differences.md).

use anyhow::{Context, Result};
use green_m2::{Alternatives, Options, Report, SentenceStats};

use crate::args::TokenizerArgs;
use crate::input::read_text;
use crate::limits::{bounded, MAX_THREADS};
use crate::output::emit;
use crate::stats::{keep, write_stats, CorpusDigest, Rows, ShardFile};

#[derive(clap::Args, Debug)]
#[command(
    infer_long_args = true,
    args_override_self = true,
    override_usage = "green maxmatch [OPTIONS] SYSTEM... GOLD.m2"
)]
pub struct Args {
    /// System output files (one sentence per line), then the gold M2 file last.
    #[arg(num_args = 2.., required = true, value_name = "FILE")]
    pub files: Vec<String>,

    /// Beta of the F-score.
    #[arg(long, default_value_t = 0.5, value_parser = parse_beta)]
    pub beta: f64,

    /// Most unchanged tokens inside one system edit.
    #[arg(
        long = "max_unchanged_words",
        visible_alias = "max-unchanged-words",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    pub max_unchanged_words: i64,

    /// Ignore system edits that only change spaces or letter case.
    #[arg(
        long = "ignore_whitespace_casing",
        visible_alias = "ignore-whitespace-casing"
    )]
    pub ignore_whitespace_casing: bool,

    /// Per sentence: the annotator chosen, its counts and the system's edits (a TSV table
    /// before the scores; with --format json, a list per system).
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// The original's dump of its lattice and graphs: here the same as -v.
    #[arg(long = "very_verbose")]
    pub very_verbose: bool,

    /// ChERRANT target lines (T<ref>-A<alt>), which the original rejects: first keeps the
    /// edits of each reference's first alternative, pool keeps every alternative's edits.
    #[arg(long, default_value = "first", value_name = "RULE")]
    pub alternatives: Alternatives,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Output: text (the original's lines) or json (scores, counts and a signature).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,

    /// Worker threads (default: all cores). Results are identical at any count.
    #[arg(long, value_parser = bounded(1, MAX_THREADS))]
    pub threads: Option<usize>,

    /// Also write every sentence's statistics to FILE (JSON): `green merge` joins the files
    /// of the shards of a corpus into what one run over the whole prints.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What `--stats` writes: every system's per-sentence statistics and the settings shown.
pub(crate) type StatsFile = ShardFile<Settings, SentenceStats>;

/// What the output depends on beside the statistics.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Settings {
    pub(crate) options: Options,
    /// The tokenizer of system lines (`m2scorer-split`: the original's split).
    tokenizer: String,
    /// The rule for target lines, when the gold file has them.
    alternatives: Option<Alternatives>,
}

impl Args {
    /// The original's options.
    fn options(&self) -> Options {
        Options {
            beta: self.beta,
            max_unchanged_words: self.max_unchanged_words,
            ignore_whitespace_casing: self.ignore_whitespace_casing,
        }
    }
}

/// A β of an edit metric: a number from 0 to [`green_metric::MAX_BETA`].
pub(crate) fn parse_beta(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(b) => green_metric::check_beta(b),
        _ => Err(format!("'{s}' is not a beta; use a number ≥ 0 such as 0.5")),
    }
}

pub fn run(args: &Args) -> Result<()> {
    crate::args::start_pool(args.threads, false, None)?;
    let (gold_path, systems) = args.files.split_last().context("no gold file")?;
    crate::input::stdin_once(args.files.iter().map(String::as_str))?;
    let mut gold = green_m2::parse_gold(&read_text(gold_path)?, gold_path, args.alternatives)?;
    if gold.sentences.is_empty() {
        anyhow::bail!("{gold_path} has no sentences: there is nothing to score");
    }
    for w in &gold.warnings {
        crate::output::warn(w);
    }
    let digest = CorpusDigest::of_gold(&gold.sentences);
    let total = gold.sentences.len();
    let rows = Rows::select(args.rows, total)?;
    let tokenize = hypothesis_tokenizer(&args.tokenizer)?;
    let mut all = Vec::with_capacity(systems.len());
    for path in systems {
        let hyps = read_system(path, tokenize.as_ref())?;
        if hyps.len() != total {
            anyhow::bail!(
                "{path} against {gold_path}: {}",
                green_m2::Error::Count {
                    hypotheses: hyps.len(),
                    sentences: total
                }
            );
        }
        all.push(hyps);
    }
    guard(&gold, &all);
    keep(&mut gold.sentences, &rows);
    let opts = args.options();
    let mut stats = Vec::new();
    for (path, mut hyps) in systems.iter().zip(all) {
        keep(&mut hyps, &rows);
        let sentences = green_m2::corpus_stats(&gold, &hyps, &opts)
            .map_err(|e| anyhow::anyhow!("{path} against {gold_path}: {e}"))?;
        stats.push(sentences);
    }
    let settings = Settings {
        options: opts,
        tokenizer: tokenize
            .as_ref()
            .map_or("m2scorer-split".to_string(), |t| t.as_dyn().name()),
        alternatives: gold.has_targets.then_some(args.alternatives),
    };
    let signature = settings.signature();
    let provenance = digest.provenance(&rows);
    let file = StatsFile::new("m2", provenance, settings, signature, systems, stats)?;
    if let Some(path) = &args.stats {
        write_stats(path, &file)?;
    }
    let verbose = args.verbose || args.very_verbose;
    emit(&print(&file, verbose, args.format == "json")?)
}

/// The input guards over the gold sources and the system lines as the scorer splits them
/// (on whitespace): raw Chinese against a character-spaced gold file is one token a line.
fn guard(gold: &green_m2::Gold, systems: &[Vec<String>]) {
    let hyps: Vec<Vec<&str>> = (0..gold.sentences.len())
        .map(|i| systems.iter().map(|s| s[i].as_str()).collect())
        .collect();
    let sentences: Vec<green_engine::Sentence> = gold
        .sentences
        .iter()
        .zip(&hyps)
        .map(|(g, h)| green_engine::Sentence {
            source: &g.source,
            refs: &[],
            hyps: h,
        })
        .collect();
    crate::input::guard(green_input::Guard::new("word", false, &[]), &sentences);
}

impl Settings {
    fn signature(&self) -> String {
        green_m2::signature(&self.options, &self.tokenizer, self.alternatives)
    }
}

/// The output of a run (or of merged shards): the original's lines, or JSON.
pub(crate) fn print(file: &StatsFile, verbose: bool, json: bool) -> Result<String> {
    let beta = file.settings.options.beta;
    if json {
        let out = green_output::edits::maxmatch(
            file.settings.signature(),
            &file.systems,
            &file.shard.systems,
            beta,
            verbose,
        );
        return Ok(green_output::to_json(&out)?);
    }
    let reports: Vec<Report> = file
        .shard
        .systems
        .iter()
        .map(|stats| green_m2::fold(stats, beta))
        .collect();
    Ok(render(&file.systems, &reports, beta, verbose))
}

/// The tokenizer for raw system output, unless it is the default (the original's split).
fn hypothesis_tokenizer(args: &TokenizerArgs) -> Result<Option<green_tokenizers::Built>> {
    let default = args.tokenizer == "word"
        && args.normalization == green_engine::Normalization::default()
        && args.plugin_config.is_none();
    Ok(if default { None } else { Some(args.build()?) })
}

/// System lines as Python 2 `readlines()` gives them (only `\n` ends a line), tokenized
/// and re-joined with spaces when a tokenizer is given.
fn read_system(path: &str, tokenizer: Option<&green_tokenizers::Built>) -> Result<Vec<String>> {
    let text = read_text(path)?;
    if text.starts_with('\u{feff}') {
        crate::output::warn(&green_input::bom_warning(path));
    }
    let mut lines: Vec<String> = green_m2::system_lines(&text)
        .into_iter()
        .map(str::to_owned)
        .collect();
    if let Some(t) = tokenizer {
        let t = t.as_dyn();
        for (n, line) in lines.iter_mut().enumerate() {
            *line = green_engine::retokenize(t, line).map_err(|e| {
                anyhow::anyhow!("{path}:{}: tokenizer '{}' failed: {e}", n + 1, t.name())
            })?;
        }
    }
    Ok(lines)
}

fn render(systems: &[String], reports: &[Report], beta: f64, verbose: bool) -> String {
    let mut out = String::new();
    for (path, report) in systems.iter().zip(reports) {
        if systems.len() > 1 {
            out += &format!("# {path}\n");
        }
        if verbose {
            out += &green_m2::sentence_table(report);
        }
        out += &green_m2::render(&report.score, beta);
    }
    out
}
