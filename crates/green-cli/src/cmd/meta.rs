//! `green meta`: how well a metric configuration agrees with people, on GJG15, SEEDA,
//! RevisitCGEC or any dataset described by a TOML descriptor.
//!
//! Every combination of the given tokenizers, N, beta and levels is one row (a sweep is just
//! several values); counts are made once per dataset and tokenizer and reused by every row.
//! Prints a Table-2-shaped table; with `--out-dir` also writes TSV, JSON, Markdown, the window
//! analysis and one scatter plot per dataset view (first row's metric against people).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use green_meta::{
    dataset::{Dataset, Descriptor, BUILTIN},
    HumanScore, Level, Metric, MetricConfig, Options, Sweep, TiePolicy, TrueSkill,
};

use crate::limits::{bounded, MAX_GLEU_ITERATIONS, MAX_TS_RUNS, MAX_WINDOW};
use crate::output::{emit, FileSet};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Data directory that descriptor paths are relative to (default: the first of
    /// ../shared/data and the user data directory of `green data get` that has every file
    /// needed).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// Datasets: built-in names (see --list-datasets) or descriptor TOML files.
    #[arg(short = 'D', long = "dataset", value_name = "NAME|FILE", num_args = 1.., help = dataset_help(),
          default_values = ["gjg15", "seeda", "revisitcgec-minimal", "revisitcgec-fluency"])]
    pub datasets: Vec<String>,

    /// Tokenizer specs; `word` and `char` go through each dataset's aliases (RevisitCGEC:
    /// word = zh, jieba).
    #[arg(short = 't', long = "tokenizer", value_name = "SPEC", num_args = 1.., default_values = ["word", "char"])]
    pub tokenizers: Vec<String>,

    /// Maximum n-gram orders, e.g. `4`, `1..6`, `4,6` (default: 6 for char specs, else 4).
    #[arg(short = 'n', long = "n", value_name = "N", num_args = 1..)]
    pub n: Vec<String>,

    /// Betas, e.g. `2`, `0.5..4:0.5`, `0.5,1,2`.
    #[arg(short = 'b', long = "beta", value_name = "BETA", num_args = 1.., default_values = ["2"])]
    pub betas: Vec<String>,

    /// System score levels: corpus (the metric's corpus score), mean (of sentence scores),
    /// trueskill or expected-wins (the metric's sentence scores turned into pairwise
    /// comparisons per sentence and rated like the human judgments, as Goto, Sakai and
    /// Watanabe 2025 and gec-metrics do).
    #[arg(long = "level", value_name = "LEVEL", num_args = 1.., default_values = ["corpus"])]
    pub levels: Vec<String>,

    /// Text normalisation before tokenising: none, nfc, nfkc, lower, cjk-join, or e.g. nfkc+lower.
    #[arg(long, value_name = "FORM", default_value = "none")]
    pub norm: String,

    /// Also score GLEU (N=4) with every tokenizer and level, as the GREEN paper reformulates it
    /// on region counts (rows `GLEU-reformulated`; `green gleu` is the official GLEU).
    #[arg(long)]
    pub gleu: bool,

    /// Also score M2 (the m2scorer's F0.5) with every tokenizer and level; needs datasets whose
    /// parts are read from M2 files (GJG15, SEEDA).
    #[arg(long)]
    pub m2: bool,

    /// Also score ERRANT's span F0.5 and CLEME (dependent, independent) with every tokenizer
    /// and level; hypothesis and reference edits are extracted from the text (ERRANT -lev
    /// -merge all-merge, no tagger).
    #[arg(long)]
    pub edits: bool,

    /// Also score CLEME2.0 (com; dependent, independent; unweighted, length-weighted) and
    /// GoToScorer (F0.5 against the first reference; unweighted, weighted by how many of the
    /// dataset's systems correct each chunk) on the same extracted edits.
    #[arg(long)]
    pub cleme2: bool,

    /// A tagger's annotations of every source, reference and output: a directory of pairs
    /// NAME.txt (tokenized text, one sentence per line) and NAME.conllu (its CoNLL-U, as
    /// errant-parallel --annotations takes it); texts are looked up by their tokens. Adds
    /// ERRANT with ERRANT's typed edits (linguistic alignment, rules merger): rows
    /// `ERRANT-typed` with --edits, and the ERRANT cells of --preset seeda-table5.
    #[arg(long, value_name = "DIR")]
    pub annotations: Option<PathBuf>,

    /// Score only GLEU (implies --gleu).
    #[arg(long)]
    pub gleu_only: bool,

    /// Whose GLEU the --gleu rows score: reformulated (the GREEN paper's, numerators clipped
    /// per sentence) or gec-metrics (its `GLEU` class: numerators summed unclipped, its
    /// `random.randint` draws, seeded 101·i whatever --seed; rows `GLEU-gec-metrics`).
    #[arg(long, value_name = "VARIANT", default_value = "reformulated", value_parser = ["reformulated", "gec-metrics"])]
    pub gleu_variant: String,

    /// GLEU: reference-sampling iterations (corpus level).
    #[arg(long, value_name = "K", default_value_t = 500, value_parser = bounded(1, MAX_GLEU_ITERATIONS))]
    pub gleu_iterations: usize,

    /// Human system score: ew, ts, published-ew, published-ts.
    #[arg(long, value_name = "SCORE", default_value = "ew")]
    pub human: String,

    /// How metric ties count at sentence level: denominator, exclude, discordant.
    #[arg(long, value_name = "POLICY", default_value = "denominator")]
    pub ties: String,

    /// TrueSkill runs (each plays every pairwise judgment once, in a seeded random order).
    #[arg(long, value_name = "RUNS", default_value_t = 1000, value_parser = bounded(1, MAX_TS_RUNS))]
    pub ts_runs: usize,

    /// Seed of TrueSkill, of the bootstrap and of GLEU's reference draws (seed s takes the
    /// `gleu` package's fixed-seed iterations s·K to s·K+K-1; 0 gives its --fix-seed draws,
    /// those of the GREEN paper's tables).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Window sizes for the window analysis.
    #[arg(long, value_name = "N", num_args = 0.., value_delimiter = ',', default_values = ["4", "8"], value_parser = bounded(1, MAX_WINDOW))]
    pub windows: Vec<usize>,

    /// What to print: markdown, tsv, json.
    #[arg(short = 'f', long, value_name = "FORMAT", default_value = "markdown")]
    pub format: String,

    /// Also write table.{tsv,json,md}, windows.tsv, sentences.tsv (every configuration's
    /// sentence scores), human.md and plots/*.svg here.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,

    /// Bootstrap intervals for every number: R replicates resampling sentences (with all their
    /// judgments), human Expected Wins and metric scores recomputed on each. Uses --seed.
    #[arg(long, value_name = "R")]
    pub bootstrap: Option<usize>,

    /// Coverage of the bootstrap intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,

    /// Williams' test of each configuration's system-level r against the first configuration's.
    #[arg(long)]
    pub williams: bool,

    /// Exact two-sided permutation p-values of system-level r and rho (sets of at most 8
    /// systems, e.g. RevisitCGEC's 6: all 720 orders).
    #[arg(long)]
    pub permutation: bool,

    /// The row plotted with -o: a 1-based row number or a row's exact label.
    #[arg(long, value_name = "ROW", default_value = "1")]
    pub plot_row: String,

    /// Extra rows from other metrics' system scores: TSV files of
    /// `metric<TAB>dataset<TAB>system<TAB>score` lines (`#` starts a comment).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub external: Vec<PathBuf>,

    /// Rows of the model-based metrics on models you supply (a build with the `neural`
    /// feature): `some=DIR`, `impara=QE,SE`, `scribendi=DIR`, `ptm2=DIR,LAYERS` (directories
    /// or Hub ids in the local Hugging Face cache; LAYERS as `green ptm2 --layers`). Each runs
    /// on every dataset's sources and outputs (PT-M2 on the gold edits of datasets read from
    /// M2, as the M2 rows); a system's score in a view is the mean of its sentence scores
    /// there (row `SOME mean`, ...), and for PT-M2 also its corpus F over them (row `PT-M2
    /// corpus`, `green ptm2`'s corpus F: weighted counts summed over the view's sentences,
    /// or a bootstrap replicate's); the sentence scores meet the judgments as any row's do.
    #[arg(long, value_name = "METRIC=MODEL", num_args = 1..)]
    pub neural: Vec<String>,

    /// A published protocol in one flag; it replaces the datasets, tokenizers, N, beta, level
    /// and GLEU settings. `green-paper`: the GREEN paper's Table 2 (GJG15 and SEEDA with
    /// m2scorer references, SEEDA on all 1,312 sentences with its base set of 12, INPUT as the
    /// source file; wordGLEU/GREEN N=4, charGLEU/GREEN N=6, GREEN beta 2; corpus level and the
    /// mean of sentence scores, sentence GLEU unsmoothed). `seeda-table5`: SEEDA's Table 5
    /// (Kobayashi et al. 2024) with the paper's numbers beside green's: M2, SentM2, GLEU and
    /// GREEN on GJG15's 663 and SEEDA's 391 judged sentences against the published TrueSkill,
    /// ties in the denominator; intervals from --bootstrap (default 1000 replicates); ERRANT
    /// and SentERRANT with --annotations.
    #[arg(long, value_name = "NAME", value_parser = ["green-paper", "seeda-table5"])]
    pub preset: Option<String>,

    /// Print the built-in datasets and exit.
    #[arg(long)]
    pub list_datasets: bool,
}

/// Largest number of values one range may give.
const MAX_RANGE: usize = 10_000;

/// The help of `--dataset`, naming every built-in dataset.
fn dataset_help() -> String {
    let names: Vec<&str> = BUILTIN.iter().map(|(name, _)| *name).collect();
    format!(
        "Datasets: built-in names ({}) or descriptor TOML files",
        names.join(", ")
    )
}

/// `A`, `A,B,...` or `A..B[:STEP]` (inclusive).
fn parse_values(specs: &[String], what: &str) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for spec in specs
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let num = |s: &str| -> Result<f64> {
            let v = if s == "inf" {
                f64::INFINITY
            } else {
                s.parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .with_context(|| format!("{what} '{s}' is not a number"))?
            };
            Ok(v)
        };
        if let Some((a, rest)) = spec.split_once("..") {
            let (b, step) = rest.split_once(':').unwrap_or((rest, "1"));
            // Values are rounded to the decimals written, so 1..2:0.1 gives 1.2, not
            // 1.2000000000000002, in labels and in the configurations themselves.
            let places = [a, b, step]
                .iter()
                .map(|s| s.split_once('.').map_or(0, |(_, f)| f.len()))
                .max()
                .unwrap_or(0);
            let (a, b, step) = (num(a)?, num(b)?, num(step)?);
            if step <= 0.0 || b < a || !b.is_finite() {
                bail!("{what} range '{spec}' must be A..B[:STEP] with finite A <= B and STEP > 0");
            }
            let count = ((b - a) / step + 1e-9).floor();
            if count >= MAX_RANGE as f64 {
                bail!("{what} range '{spec}' has more than {MAX_RANGE} values; use a larger STEP");
            }
            for k in 0..=count as usize {
                let v = a + step * k as f64;
                out.push(format!("{v:.places$}").parse().unwrap_or(v));
            }
        } else {
            out.push(num(spec)?);
        }
    }
    Ok(out)
}

fn configs(args: &Args) -> Result<Vec<MetricConfig>> {
    if args.preset.is_some() {
        return Ok(MetricConfig::green_paper(args.gleu_iterations, args.seed));
    }
    let normalization: green_engine::Normalization = args
        .norm
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--norm: {e}"))?;
    let betas = parse_values(&args.betas, "beta")?;
    let ns: Vec<usize> = parse_values(&args.n, "N")?
        .into_iter()
        .map(|v| {
            if (1.0..=green_engine::MAX_N as f64).contains(&v) && v.fract() == 0.0 {
                Ok(v as usize)
            } else {
                bail!(
                    "N must be a whole number between 1 and {} (got {v})",
                    green_engine::MAX_N
                )
            }
        })
        .collect::<Result<_>>()?;
    let levels: Vec<Level> = args
        .levels
        .iter()
        .map(|l| l.parse())
        .collect::<Result<_, _>>()?;
    if !args.gleu_only {
        if let Some(beta) = betas.iter().find(|&&b| b < 0.0) {
            bail!("beta must be >= 0 (got {beta})");
        }
    }
    let rows = Sweep {
        tokenizers: &args.tokenizers,
        normalization,
        levels: &levels,
        ns: &ns,
        betas: &betas,
        green: !args.gleu_only,
        gleu: (args.gleu || args.gleu_only).then_some((args.gleu_iterations, args.seed)),
        m2: args.m2,
        edits: args.edits,
        typed: args.annotations.is_some(),
        cleme2: args.cleme2,
    }
    .configs();
    if args.gleu_variant == "reformulated" {
        return Ok(rows);
    }
    Ok(rows
        .into_iter()
        .map(|mut row| {
            if let Metric::Gleu { n, iterations, .. } = row.metric {
                row.metric = Metric::GleuGecMetrics { n, iterations };
            }
            row
        })
        .collect())
}

pub fn run(args: &Args) -> Result<()> {
    if args.list_datasets {
        let names: String = BUILTIN
            .iter()
            .map(|(name, _)| format!("{name}\n"))
            .collect();
        return emit(&names);
    }
    let options = Options {
        human: args.human.parse::<HumanScore>()?,
        ties: args.ties.parse::<TiePolicy>()?,
        trueskill: TrueSkill::wmt(args.ts_runs, args.seed),
        windows: args.windows.clone(),
        bootstrap: args
            .bootstrap
            .map(|r| green_meta::Bootstrap::new(r, args.seed, args.confidence))
            .transpose()?,
        williams: args.williams,
        external: read_external(&args.external)?,
        scored: Vec::new(),
        permutation: args.permutation,
    };
    if !matches!(args.format.as_str(), "markdown" | "tsv" | "json") {
        bail!(
            "unknown format '{}'; use markdown, tsv or json",
            args.format
        );
    }
    if args.preset.as_deref() == Some("seeda-table5") {
        if !args.neural.is_empty() {
            bail!("--neural adds rows to a table of configurations, not to --preset seeda-table5's; leave out the preset");
        }
        return run_table5(args, options);
    }
    if args.annotations.is_some() && (args.preset.is_some() || !args.edits) {
        bail!("--annotations adds typed ERRANT rows to --edits, or the ERRANT cells to --preset seeda-table5; add --edits");
    }
    let configs = configs(args)?;
    let names = match args.preset {
        Some(_) => green_meta::dataset::GREEN_PAPER
            .iter()
            .map(|s| s.to_string())
            .collect(),
        None => args.datasets.clone(),
    };
    let datasets = annotate(args, load_datasets(args, &names)?)?;
    warn_on_selection(&datasets, configs.len());
    let options = Options {
        scored: neural_rows(&args.neural, &datasets)?,
        ..options
    };
    let report = green_meta::run(&datasets, &configs, &options)?;
    for h in &report.human {
        if h.scores.windows(2).all(|w| w[0] == w[1]) {
            crate::output::warn(&format!(
                "{} {}: every system has the same human score; with no spread, correlations with it are undefined and print NA (are all its judgments ties?)",
                h.dataset, h.view
            ));
        }
    }
    // Everything is computed before anything is printed or written: a bad --plot-row or a
    // plot that cannot be drawn leaves no output behind.
    let files = match &args.out_dir {
        Some(dir) => Some(output_files(dir, &report, &datasets, args)?),
        None => None,
    };
    match args.format.as_str() {
        "tsv" => emit(&report.tsv())?,
        "json" => emit(&(report.json() + "\n"))?,
        _ => emit(&report.markdown())?,
    }
    if let (Some(dir), Some(files)) = (&args.out_dir, files) {
        let plots = dir.join("plots");
        std::fs::create_dir_all(&plots)
            .with_context(|| format!("cannot create {}", plots.display()))?;
        files.write()?;
    }
    Ok(())
}

/// The named datasets (built-in names or descriptor files), read from the first data
/// directory that has every file they need (`--data`, ../shared/data, the user data directory).
fn load_datasets(args: &Args, names: &[impl AsRef<str>]) -> Result<Vec<Dataset>> {
    let descriptors: Vec<Descriptor> = names
        .iter()
        .map(|d| Descriptor::load(d.as_ref()))
        .collect::<Result<_, _>>()?;
    let files: Vec<String> = descriptors.iter().flat_map(|d| d.files()).collect();
    let data = crate::registry::find_data_dir(args.data.as_deref(), &files)?;
    Ok(descriptors
        .into_iter()
        .map(|d| Dataset::load(d, &data))
        .collect::<Result<_, _>>()?)
}

/// The datasets with the annotations of `--annotations`, if given.
fn annotate(args: &Args, datasets: Vec<Dataset>) -> Result<Vec<Dataset>> {
    let Some(dir) = &args.annotations else {
        return Ok(datasets);
    };
    let annotations = std::sync::Arc::new(green_meta::annotations::Annotations::read(dir)?);
    Ok(datasets
        .into_iter()
        .map(|d| d.with_annotations(annotations.clone()))
        .collect())
}

/// Replicates of the bootstrap `--preset seeda-table5` runs when `--bootstrap` is not given.
const TABLE5_REPLICATES: usize = 1000;

/// `--preset seeda-table5`: the paper's Table 5 beside green's numbers.
fn run_table5(args: &Args, mut options: Options) -> Result<()> {
    if options.bootstrap.is_none() {
        options.bootstrap = Some(green_meta::Bootstrap::new(
            TABLE5_REPLICATES,
            args.seed,
            args.confidence,
        )?);
    }
    let datasets = annotate(args, load_datasets(args, &green_meta::table5::DATASETS)?)?;
    let table = green_meta::table5::run(&datasets, args.gleu_iterations, args.seed, options)?;
    let text = match args.format.as_str() {
        "tsv" => table.tsv(),
        "json" => table.json() + "\n",
        _ => table.markdown(),
    };
    if let Some(dir) = &args.out_dir {
        let mut files = output_files(dir, &table.report, &datasets, args)?;
        files.add(dir.join("table5.md"), table.markdown().into_bytes());
        files.add(dir.join("table5.tsv"), table.tsv().into_bytes());
        files.add(dir.join("table5.json"), table.json().into_bytes());
        emit(&text)?;
        std::fs::create_dir_all(dir.join("plots"))
            .with_context(|| format!("cannot create {}", dir.join("plots").display()))?;
        return files.write();
    }
    emit(&text)
}

/// The files of `-o DIR`: the tables, human scores and one plot per dataset view.
fn output_files(
    dir: &Path,
    report: &green_meta::Report,
    datasets: &[Dataset],
    args: &Args,
) -> Result<FileSet> {
    let mut files = FileSet::default();
    let mut add = |name: &str, text: String| files.add(dir.join(name), text.into_bytes());
    add("table.tsv", report.tsv());
    add("table.json", report.json());
    add("table.md", report.markdown());
    add("windows.tsv", report.windows_tsv());
    add("sentences.tsv", report.sentences_tsv(datasets));
    add("human.md", report.human_markdown());
    let first = plot_row(report, &args.plot_row)?;
    for ((dataset, view, metric), human) in first.system_scores.iter().zip(&report.human) {
        let file = format!("{}-{}.svg", dataset, view).replace(['/', ' '], "_");
        let name = if view.starts_with(dataset.as_str()) {
            view.clone()
        } else {
            format!("{dataset} {view}")
        };
        let fmt = |x: Option<f64>| x.map_or("NA".to_string(), |v| format!("{v:.3}"));
        let title = format!(
            "{name}: r = {}, rho = {} ({} systems)",
            fmt(green_meta::stats::pearson(metric, &human.scores)),
            fmt(green_meta::stats::spearman(metric, &human.scores)),
            metric.len()
        );
        let y = format!("human ({})", args.human);
        // Metric scores on the scale they are printed at (×100); external rows as given.
        let (x, x_label) = match &first.config {
            Some(config) => {
                let data = datasets.iter().find(|d| &d.descriptor.name == dataset);
                let spec = data.map_or(config.tokenizer.as_str(), |d| {
                    d.descriptor.tokenizer(&config.tokenizer)
                });
                let tokenizer = green_tokenizers::build(spec, &Default::default())
                    .map(|t| t.name())
                    .unwrap_or_else(|_| spec.to_string());
                (
                    metric.iter().map(|v| v * 100.0).collect::<Vec<f64>>(),
                    format!("{} (×100; tokenizer {tokenizer})", first.label),
                )
            }
            None => (metric.clone(), first.label.clone()),
        };
        let svg = green_meta::plot::scatter(
            &file,
            &title,
            &human.systems,
            &x,
            &human.scores,
            &x_label,
            &y,
        )?;
        files.add(dir.join("plots").join(&file), svg.into_bytes());
    }
    Ok(files)
}

/// The row to plot: a 1-based number or a row's exact label.
fn plot_row<'a>(
    report: &'a green_meta::Report,
    which: &str,
) -> Result<&'a green_meta::report::Row> {
    let by_number = which
        .parse::<usize>()
        .ok()
        .and_then(|k| k.checked_sub(1))
        .and_then(|k| report.rows.get(k));
    by_number
        .or_else(|| report.rows.iter().find(|r| r.label == which))
        .with_context(|| {
            format!(
                "--plot-row '{which}' is neither a row number (1..={}) nor a row label such as '{}'",
                report.rows.len(),
                report.rows[0].label
            )
        })
}

/// The rows of `--neural`.
#[cfg(feature = "neural")]
fn neural_rows(specs: &[String], datasets: &[Dataset]) -> Result<Vec<green_meta::report::Scored>> {
    crate::cmd::neural::meta_rows(specs, datasets)
}

/// The rows of `--neural`: none in a build without the models.
#[cfg(not(feature = "neural"))]
fn neural_rows(specs: &[String], _: &[Dataset]) -> Result<Vec<green_meta::report::Scored>> {
    if !specs.is_empty() {
        bail!("--neural needs a green built with the neural feature: cargo install --path crates/green-cli --features neural");
    }
    Ok(Vec::new())
}

fn read_external(paths: &[PathBuf]) -> Result<Vec<green_meta::report::External>> {
    let mut out = Vec::new();
    for p in paths {
        let text = crate::input::read_text(&p.to_string_lossy())?;
        green_meta::report::External::parse_into(&mut out, &text, &p.display().to_string())?;
    }
    Ok(out)
}

/// Picking the best of many configurations on a handful of systems mostly picks noise: say so.
fn warn_on_selection(datasets: &[Dataset], configs: usize) {
    const MANY: usize = 10;
    let fewest = datasets
        .iter()
        .flat_map(|d| d.sets.iter().map(|(_, m)| m.len()))
        .min()
        .unwrap_or(0);
    if configs >= MANY && fewest < 20 {
        crate::output::warn(&format!(
            "{configs} configurations compared on as few as {fewest} systems: the best row is likely chosen on noise; add --bootstrap R for intervals and --williams to test differences against the first row"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_lists_and_ranges() {
        let v =
            |s: &[&str]| parse_values(&s.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "beta");
        assert_eq!(v(&["0.5..2:0.5"]).unwrap(), [0.5, 1.0, 1.5, 2.0]);
        assert_eq!(v(&["1..3", "5"]).unwrap(), [1.0, 2.0, 3.0, 5.0]);
        assert_eq!(v(&["1,2"]).unwrap(), [1.0, 2.0]);
        // Labels stay clean: 1 + 2 · 0.1 is 1.2000000000000002 in binary floating point.
        assert_eq!(v(&["1..1.3:0.1"]).unwrap(), [1.0, 1.1, 1.2, 1.3]);
        assert_eq!(v(&["0.5..4:0.5"]).unwrap().len(), 8);
        assert!(v(&["0..inf"]).unwrap_err().to_string().contains("finite"));
        assert!(v(&["0..1:0.00001"])
            .unwrap_err()
            .to_string()
            .contains("more than"));
        assert!(v(&["3..1"]).unwrap_err().to_string().contains("A <= B"));
        assert!(v(&["x"])
            .unwrap_err()
            .to_string()
            .contains("'x' is not a number"));
    }
}
