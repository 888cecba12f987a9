//! `green gleu`: GLEU as benchmarks report it (JFLEG, MultiGEC-2025), printed byte for byte
//! as the PyPI package `gleu` prints it with `--fix-seed` (its only reproducible mode, and
//! the draws of the original gleu.py). The metric itself is `green_engine::gleu`; this is
//! reading, counting in parallel, and the package's three programs as levels:
//! `gleu` (corpus), `sgleu` (sentence), `mgleu` (mean).

use anyhow::{bail, Result};
use green_engine::gleu::{self, GleuCounts, GleuStats};
use green_engine::{Counter, Tokenizer};
use green_io::m2::MissingAnnotator;
use green_output::number::{percent, pretty_table};
pub(crate) use green_output::Level;
use rayon::prelude::*;

use crate::args::TokenizerArgs;
use crate::limits::{bounded, MAX_DIGITS, MAX_THREADS};
use crate::output::emit;
use crate::stats::{select_loaded, write_stats, Rows, ShardFile};
use green_input::Loaded;

/// Most iterations of reference sampling.
const MAX_ITERATIONS: usize = 100_000;

/// `--level`: the package's three programs.
fn level_parser() -> impl clap::builder::TypedValueParser<Value = Level> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("corpus").help("Corpus GLEU, references sampled per iteration (`gleu`)"),
        PossibleValue::new("sentence").help("One line per sentence, a column per system (`sgleu`)"),
        PossibleValue::new("mean").help("Mean of the sentence scores (`mgleu`)"),
    ])
    .try_map(|name| name.parse::<Level>())
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Source file (optional for M2 and para references, which carry the sources).
    #[arg(
        short = 's',
        long = "src",
        visible_alias = "source",
        value_name = "SRC"
    )]
    pub source: Option<String>,

    /// Reference files.
    #[arg(short = 'r', long = "ref", visible_aliases = ["refs", "references", "reference"], num_args = 1.., action = clap::ArgAction::Set, required = true, value_name = "REF")]
    pub refs: Vec<String>,

    /// System output files (`-o` as in the package).
    #[arg(short = 'o', short_alias = 'c', long = "out", visible_aliases = ["outputs", "hyp", "hyps", "hypothesis", "cor"], num_args = 1.., action = clap::ArgAction::Set, required = true, value_name = "HYP")]
    pub hyps: Vec<String>,

    /// Highest n-gram order (1 to 100; with --variant any integer, read as that script reads it).
    #[arg(short = 'n', default_value_t = 4, allow_negative_numbers = true, value_parser = python_int)]
    pub n: i64,

    /// Reference-sampling iterations at corpus level (0 only with --variant gec-ranking).
    #[arg(short = 'i', long = "iter", default_value_t = 500, value_parser = bounded(0, MAX_ITERATIONS))]
    pub iterations: usize,

    /// Digits after the decimal point [default: 2].
    #[arg(short = 'd', long = "digit", value_parser = bounded(0, MAX_DIGITS))]
    pub digits: Option<usize>,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Each sentence's best reference instead of sampling (corpus) or the mean (sentence).
    #[arg(short = 'm', long = "max")]
    pub max: bool,

    /// Per-order tables: corpus level with --max, and sentence level.
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// Score level.
    #[arg(long, value_parser = level_parser(), default_value = "corpus")]
    pub level: Level,

    /// Whose GLEU: pypi (the package `gleu`), jfleg (JFLEG's eval/gleu.py, its leaderboard's
    /// numbers) or gec-ranking (compute_gleu); the last two print mean, deviation and 95%
    /// interval over the draws as those scripts print them, or gec-metrics (its `GLEU` class,
    /// numerators not clipped per sentence; docs/gleu.md).
    #[arg(long, default_value = "pypi", value_parser = ["pypi", "jfleg", "gec-ranking", "gec-metrics"])]
    pub variant: String,

    /// Sentence scores as the scripts print them (eval/gleu.py's --sent, compute_gleu's -d):
    /// --level sentence.
    #[arg(long, visible_alias = "debug")]
    pub sent: bool,

    /// Accepted for the package's command lines; green always draws with its fixed seeds.
    #[arg(short = 'f', long = "fix-seed", visible_alias = "fix")]
    pub fix_seed: bool,

    /// Accepted for the package's command lines (its worker processes) and ignored; use
    /// --threads.
    #[arg(short = 'p', long = "proc", value_name = "N")]
    pub processes: Option<usize>,

    /// Output: text (the package's) or json (scores and a signature).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,

    /// Layout of the -r files: auto, lines, m2 or para (see `green --help`).
    #[arg(long, default_value = "auto", value_name = "FORMAT")]
    pub ref_format: String,

    /// M2 references: skip or source (see `green --help`).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: MissingAnnotator,

    /// Worker threads (default: all cores). Results are identical at any count.
    #[arg(long, value_parser = bounded(1, MAX_THREADS))]
    pub threads: Option<usize>,

    /// Also write every sentence's GLEU statistics to FILE (JSON): `green merge` joins the
    /// files of the shards of a corpus into the corpus and mean scores of one run.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score rows A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<Rows>,
}

/// What `--stats` writes: per system, every sentence's statistics, with the folding settings
/// beside the shard's signature (the settings the statistics depend on).
pub(crate) type StatsFile = ShardFile<Settings, GleuCounts>;

/// How the statistics fold into scores.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Settings {
    pub(crate) iterations: u64,
    pub(crate) max: bool,
}

impl StatsFile {
    /// The metric the statistics fold under.
    pub(crate) fn metric(&self) -> gleu::Gleu {
        gleu::Gleu {
            iterations: self.settings.iterations,
            max: self.settings.max,
        }
    }
}

impl Args {
    /// The level asked for: `--sent` is `--level sentence`.
    pub(crate) fn level(&self) -> Level {
        if self.sent {
            Level::Sentence
        } else {
            self.level
        }
    }

    fn digits(&self) -> usize {
        self.digits.unwrap_or(2)
    }
}

/// `-n` as Python's `int()` reads it (the scripts pass it through argparse's `type=int`):
/// surrounding ASCII whitespace and a sign allowed.
fn python_int(s: &str) -> Result<i64, String> {
    s.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b')
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))
}

pub fn run(args: &Args) -> Result<()> {
    if args.variant == "gec-metrics" {
        return super::gec_metrics_gleu::run(args);
    }
    if args.variant != "pypi" {
        return super::napoles::run(args);
    }
    let n = usize::try_from(args.n)
        .ok()
        .filter(|n| (1..=green_engine::MAX_N).contains(n));
    let Some(n) = n else {
        bail!(
            "-n: '{}' is not a whole number between 1 and {}",
            args.n,
            green_engine::MAX_N
        );
    };
    if args.iterations == 0 {
        bail!("--iter: '0' is not a whole number between 1 and {MAX_ITERATIONS} (0 only with --variant gec-ranking)");
    }
    let level = args.level();
    let mut data = crate::input::load(
        args.source.as_deref(),
        &args.refs,
        &args.hyps,
        &args.ref_format,
        args.missing_annotator,
    )?;
    let views = data.views();
    let names = crate::input::line_refs(&args.refs, &args.ref_format)?;
    crate::input::guard(args.tokenizer.guard(&names), &views.sentences());
    drop(views);
    let provenance = select_loaded(&mut data, args.rows)?;
    crate::args::start_pool(args.threads, false, None)?;
    let built = args.tokenizer.build()?;
    let tokenizer = built.as_dyn();
    let counts = count(tokenizer, n, &data)?;
    let systems = (0..args.hyps.len())
        .map(|h| counts.iter().map(|c| c.hypothesis(h)).collect())
        .collect();
    let settings = Settings {
        iterations: args.iterations as u64,
        max: args.max,
    };
    let signature = shard_signature(args, n, tokenizer);
    let file = StatsFile::new("gleu", provenance, settings, signature, &args.hyps, systems)?;
    if let Some(path) = &args.stats {
        write_stats(path, &file)?;
    }
    let tables = args.verbose
        && match level {
            Level::Sentence => true,
            Level::Corpus => args.max,
            Level::Mean => false,
        };
    let text = match args.format.as_str() {
        "json" => green_output::to_json(&output(&file, level))?,
        _ if tables => render_tables(args, level, &data, &counts, file.provenance.first),
        _ => green_output::gleu::text(&output(&file, level), args.digits()),
    };
    emit(&text)?;
    Ok(())
}

/// The scores of a run (or of merged shards) at `level`.
pub(crate) fn output(file: &StatsFile, level: Level) -> green_output::gleu::GleuOutput {
    green_output::gleu::output(
        &file.metric(),
        &file.shard.signature,
        &file.systems,
        &file.shard.systems,
        level,
    )
}

/// Every sentence's statistics, counted in parallel, in order.
fn count(tokenizer: &dyn Tokenizer, n: usize, data: &Loaded) -> Result<Vec<GleuCounts>> {
    let rows: Vec<usize> = (0..data.sources.len()).collect();
    let counted: Vec<Result<GleuCounts, String>> = rows
        .par_iter()
        .map(|&i| {
            Counter::with_local(|counter| {
                let refs: Vec<&str> = data.refs[i].iter().map(String::as_str).collect();
                let hyps: Vec<&str> = data.hyps.iter().map(|h| h[i].as_str()).collect();
                counter
                    .count_gleu(tokenizer, n, &data.sources[i], &refs, &hyps)
                    .map_err(|e| {
                        format!(
                            "sentence {}: tokenizer '{}' failed: {e}",
                            i + 1,
                            tokenizer.name()
                        )
                    })
            })
        })
        .collect();
    let mut out = Vec::with_capacity(counted.len());
    for c in counted {
        match c {
            Ok(c) => out.push(c),
            Err(e) => bail!(e),
        }
    }
    Ok(out)
}

/// The package's per-order tables (`-v`): at corpus level with `--max`, each system's
/// totals over its best references; at sentence level, every reference of every sentence
/// (numbered from `first`, the corpus row of the first sentence, plus one).
fn render_tables(
    args: &Args,
    level: Level,
    data: &Loaded,
    counts: &[GleuCounts],
    first: usize,
) -> String {
    let d = args.digits();
    let mut out = String::new();
    if level == Level::Corpus {
        for (h, path) in args.hyps.iter().enumerate() {
            let (sums, rlen, hlen) =
                gleu::corpus_stats(counts, h, &gleu::best_references(counts, h));
            out.push_str(&format!("{path}\n{}", table(&sums, rlen, hlen, d)));
        }
        return out;
    }
    for (i, c) in counts.iter().enumerate() {
        for h in 0..c.hyps {
            let best = gleu::best_reference(c, h);
            for r in 0..c.refs {
                let mark = if r == best { '*' } else { ' ' };
                out.push_str(&format!(
                    "S-{n}   \t{}\nH-{n}-{} \t{}\nR-{n}-{}{mark}\t{}\n",
                    data.sources[i],
                    h + 1,
                    data.hyps[h][i],
                    r + 1,
                    data.refs[i][r],
                    n = first + i + 1
                ));
                out.push_str(&table(c.get(h, r), c.ref_len[r], c.hyp_len[h], d));
            }
        }
    }
    out
}

/// The package's per-order table (its `NVerbose`): raw matches and penalties, then the
/// rectified numerators, precisions, brevity penalty and per-order GLEU, and a total row.
fn table(stats: &[GleuStats], rlen: u64, hlen: u64, d: usize) -> String {
    let rectified: Vec<GleuStats> = stats.iter().map(|s| s.rectified()).collect();
    let score = gleu::gleu(&rectified, rlen, hlen);
    let header: Vec<String> = ["", "match", "penal", "numer", "denom", "p", "bp", "gleu"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let numer = |s: &GleuStats| s.matched - s.penalty;
    let mut rows: Vec<Vec<String>> = stats
        .iter()
        .zip(&rectified)
        .enumerate()
        .map(|(i, (raw, rect))| {
            vec![
                (i + 1).to_string(),
                raw.matched.to_string(),
                raw.penalty.to_string(),
                numer(rect).to_string(),
                rect.total.to_string(),
                percent(score.precisions[i], d),
                percent(score.bp, d),
                percent(score.orders[i], d),
            ]
        })
        .collect();
    let sum = |f: &dyn Fn(&GleuStats) -> u64, v: &[GleuStats]| v.iter().map(f).sum::<u64>();
    rows.push(vec![
        "total".into(),
        sum(&|s| s.matched, stats).to_string(),
        sum(&|s| s.penalty, stats).to_string(),
        sum(&numer, &rectified).to_string(),
        sum(&|s| s.total, &rectified).to_string(),
        percent(score.p, d),
        percent(score.bp, d),
        percent(score.gleu, d),
    ]);
    pretty_table(&header, &rows)
}

/// The settings part of the signature: what must be equal for shards to merge.
fn shard_signature(args: &Args, n: usize, tokenizer: &dyn Tokenizer) -> String {
    green_output::gleu::settings(
        n,
        args.iterations as u64,
        args.max,
        &tokenizer.name(),
        &args.tokenizer.normalization.to_string(),
    )
}
