//! `green paired`: is a system's score better than a baseline's by more than chance?
//!
//! Paired bootstrap and approximate randomisation (sacrebleu's `--paired-bs` and
//! `--paired-ar`) over per-sentence statistics, so no replicate recounts anything. GREEN from
//! the text files: each sentence contributes, per system, the region counts of the reference
//! GREEN chooses for it at the given beta, and a corpus score is GREEN of the summed counts.
//! Every other metric from its `--stats` files (GLEU, M2, ERRANT, CLEME, CLEME2.0, GoToScorer): each replicate folds
//! the sentences' statistics as the metric does, choosing references against its own running
//! totals. The first system is the baseline; every other system is tested against it.

use anyhow::{bail, Result};
use green_engine::score::{chosen_regions, green_of_sums, REGION_WIDTH};
use green_engine::{Config, Scorer, Sentence, Signature, Tokenizer, BATCH};
use green_io::m2::MissingAnnotator;
use green_metric::{Metric, Shard};
use green_output::Comparisons;
use green_signif::{
    approximate_randomisation, exact_randomisation, paired_bootstrap, Folded, Pair, PairedResult,
    Stats, Summed,
};
use green_tokenizers::Built;

use crate::args::TokenizerArgs;
use crate::cmd::{cleme, cleme2, errant, gleu, gotoscorer, maxmatch};
use crate::limits::{bounded, MAX_DIGITS};
use crate::output::emit;
use green_output::number::percent;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClemeVariant {
    Dependent,
    Independent,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// Paired bootstrap resampling (Koehn 2004), with confidence intervals.
    Bs,
    /// Approximate randomisation (Riezler and Maxwell 2005).
    Ar,
    /// Exact randomisation: all 2^n swaps (at most 20 sentences).
    Exact,
}

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
    #[arg(short = 'r', long = "ref", visible_aliases = ["refs", "references"], num_args = 1.., required_unless_present = "stats", value_name = "REF")]
    pub refs: Vec<String>,

    /// System files: the baseline first, then the systems to test against it.
    #[arg(short = 'c', long = "cor", visible_aliases = ["hyp", "hyps"], num_args = 2.., required_unless_present = "stats", value_name = "HYP")]
    pub hyps: Vec<String>,

    /// Instead of -s/-r/-c: the statistics files of `green gleu`, `maxmatch`,
    /// `errant-compare`, `cleme`, `cleme2` or `gotoscorer` run with `--stats` (the shards of one corpus, checked and
    /// put in order as `green merge` does); their first system is the baseline. The metric
    /// and its settings come from the files.
    #[arg(long, num_args = 1.., value_name = "STATS", conflicts_with_all = ["source", "refs", "hyps", "n", "beta", "tokenizer", "normalization"])]
    pub stats: Vec<String>,

    /// With --stats: join files of separate corpora in the order given (as `green merge --concat`).
    #[arg(long, requires = "stats")]
    pub concat: bool,

    /// CLEME and CLEME2.0 statistics: the dependent or independent variant (CLEME: the
    /// length-weighted corpus F; CLEME2.0: com with the run's weigher).
    #[arg(long, value_enum, default_value = "dependent")]
    pub cleme: ClemeVariant,

    /// Highest n-gram order N.
    #[arg(short = 'n', default_value_t = 4)]
    pub n: usize,

    /// Beta (one value: the test is on one score).
    #[arg(short = 'b', long = "beta", default_value_t = 1.0)]
    pub beta: f64,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Layout of the -r files: auto, lines, m2 or para.
    #[arg(long, default_value = "auto", value_name = "FORMAT")]
    pub ref_format: String,

    /// M2 references: skip (only annotators with a line in the sentence's block, as the
    /// m2scorer) or source (every annotator; a missing one gives the source).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: MissingAnnotator,

    /// Which test.
    #[arg(long, value_enum, default_value = "bs")]
    pub test: Test,

    /// Replicates (resamples or shuffles).
    #[arg(long, value_name = "R", default_value_t = 1000)]
    pub reps: usize,

    /// Seed of the generator (xoshiro256** seeded by SplitMix64).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Coverage of the bootstrap intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,

    /// Digits after the decimal point for scores (on the ×100 scale).
    #[arg(short = 'd', long = "digit", default_value_t = 2, value_parser = bounded(0, MAX_DIGITS))]
    pub digits: usize,

    /// Output format: text or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

pub fn run(args: &Args) -> Result<()> {
    crate::limits::check_resampling(args.reps, args.confidence)?;
    if !args.stats.is_empty() {
        return from_stats(args);
    }
    let config = Config::new(args.n, vec![args.beta])?;
    let data = crate::input::load(
        args.source.as_deref(),
        &args.refs,
        &args.hyps,
        &args.ref_format,
        args.missing_annotator,
    )?;
    let names = crate::input::line_refs(&args.refs, &args.ref_format)?;
    crate::input::guard(args.tokenizer.guard(&names), &data.views().sentences());
    let built = args.tokenizer.build()?;
    let tokenizer_name = built.name();
    let stats = match built {
        Built::Word(t) => sentence_stats(t, config, &data)?,
        Built::Char(t) => sentence_stats(t, config, &data)?,
        Built::Dyn(t) => sentence_stats(t, config, &data)?,
    };
    let (n, beta) = (args.n, args.beta);
    let score = |sums: &[u64]| green_of_sums(sums, n, beta);
    let mut results = Vec::with_capacity(args.hyps.len() - 1);
    for system in 1..args.hyps.len() {
        let pair = Summed {
            stats: Stats::new(REGION_WIDTH * n, stats[0].clone(), stats[system].clone())?,
            score,
        };
        results.push(test(args, &pair)?);
    }
    let signature = format!(
        "{}|test:{}|reps:{}|seed:{}|rng:{}",
        Signature {
            n,
            betas: vec![beta],
            tokenizer: tokenizer_name,
            normalization: args.tokenizer.normalization,
            refs: data.max_refs,
            level: "corpus".into(),
            m2: data
                .from_m2
                .then(|| args.missing_annotator.name().to_string()),
        },
        results[0].test,
        results[0].replicates,
        args.seed,
        green_signif::GENERATOR
    );
    print(args, "GREEN", &args.hyps, &results, &signature)
}

/// The tests of every system against the first, from merged `--stats` shards.
fn from_stats(args: &Args) -> Result<()> {
    let files = crate::stats::read_all(&args.stats, args.concat)?;
    let metric = files[0].metric.clone();
    match metric.as_str() {
        "gleu" => {
            let file: gleu::StatsFile = crate::stats::merge_shards(files)?;
            let metric = file.metric();
            tests(args, metric, "GLEU", &file.systems, &file.shard)
        }
        "m2" => {
            let file: maxmatch::StatsFile = crate::stats::merge_shards(files)?;
            let metric = green_m2::MaxMatch {
                beta: file.settings.options.beta,
            };
            tests(args, metric, "M2", &file.systems, &file.shard)
        }
        "errant" => {
            let file: errant::StatsFile = crate::stats::merge_shards(files)?;
            let metric = green_edits::compare::Errant {
                beta: file.settings.options.beta,
            };
            tests(args, metric, "ERRANT", &file.systems, &file.shard)
        }
        "cleme" => {
            let file: cleme::StatsFile = crate::stats::merge_shards(files)?;
            let independent = args.cleme == ClemeVariant::Independent;
            let metric = green_edits::cleme::Cleme {
                beta: file.settings.beta,
                independent,
            };
            let name = if independent { "CLEME-ind" } else { "CLEME-dep" };
            tests(args, metric, name, &file.systems, &file.shard)
        }
        "cleme2" => {
            let file: cleme2::StatsFile = crate::stats::merge_shards(files)?;
            let independent = args.cleme == ClemeVariant::Independent;
            let settings = file.settings.settings();
            let metric = green_edits::cleme2::Cleme2 {
                independent,
                length_weighted: file.settings.weigher == "length",
                corpus_factors: settings.corpus_factors,
                sentence_factors: settings.sentence_factors,
            };
            let name = if independent { "CLEME2-ind" } else { "CLEME2-dep" };
            tests(args, metric, name, &file.systems, &file.shard)
        }
        "gotoscorer" => {
            let file: gotoscorer::StatsFile = crate::stats::merge_shards(files)?;
            let metric = green_edits::gotoscorer::GoToScorer {
                beta: file.settings.beta,
            };
            tests(args, metric, "GoToScorer", &file.systems, &file.shard)
        }
        "green" => bail!(
            "{}: GREEN statistics files keep sentence scores, not the counts a paired test resamples; give green paired the -s/-r/-c files instead",
            args.stats[0]
        ),
        other => bail!("{}: statistics of metric '{other}', which green paired does not know", args.stats[0]),
    }
}

/// Every system of `shard` against its first, under `metric`.
fn tests<M>(
    args: &Args,
    metric: M,
    name: &str,
    systems: &[String],
    shard: &Shard<M::Stats>,
) -> Result<()>
where
    M: Metric + Clone + Sync,
{
    if systems.len() < 2 {
        bail!(
            "{}: the statistics hold one system; a paired test needs the baseline and at least one more (score them in one run)",
            args.stats[0]
        );
    }
    let results = shard.systems[1..]
        .iter()
        .map(|b| {
            test(
                args,
                &Folded::new(metric.clone(), shard.systems[0].clone(), b.clone())?,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let signature = format!(
        "{}|test:{}|reps:{}|seed:{}|rng:{}",
        shard.signature,
        results[0].test,
        results[0].replicates,
        args.seed,
        green_signif::GENERATOR
    );
    print(args, name, systems, &results, &signature)
}

/// Text or JSON of the results; `systems[0]` is the baseline.
fn print(
    args: &Args,
    metric: &str,
    systems: &[String],
    results: &[PairedResult],
    signature: &str,
) -> Result<()> {
    let text = if args.format == "json" {
        let out = Comparisons::new(signature.into(), metric, systems, results.to_vec());
        green_output::to_json(&out)?
    } else {
        render_text(args, metric, systems, results, signature)
    };
    emit(&text)?;
    Ok(())
}

/// The chosen test of one pair.
fn test(args: &Args, pair: &impl Pair) -> Result<PairedResult> {
    Ok(match args.test {
        Test::Bs => paired_bootstrap(pair, args.reps, args.seed, args.confidence)?,
        Test::Ar => approximate_randomisation(pair, args.reps, args.seed)?,
        Test::Exact => exact_randomisation(pair)?,
    })
}

/// Per system, every sentence's region counts against the reference GREEN chooses for it.
fn sentence_stats<T: Tokenizer>(
    tokenizer: T,
    config: Config,
    data: &green_input::Loaded,
) -> Result<Vec<Vec<u64>>> {
    let (n, beta) = (config.n, config.betas[0]);
    let scorer = Scorer::new(tokenizer, config);
    let systems = data.hyps.len();
    let mut stats = vec![Vec::with_capacity(data.sources.len() * REGION_WIDTH * n); systems];
    let refs: Vec<Vec<&str>> = data
        .refs
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let hyps: Vec<Vec<&str>> = (0..data.sources.len())
        .map(|i| data.hyps.iter().map(|h| h[i].as_str()).collect())
        .collect();
    for start in (0..data.sources.len()).step_by(BATCH) {
        let end = (start + BATCH).min(data.sources.len());
        let batch: Vec<Sentence> = (start..end)
            .map(|i| Sentence {
                source: &data.sources[i],
                refs: &refs[i],
                hyps: &hyps[i],
            })
            .collect();
        let counts = scorer.count_batch(&batch).map_err(|(i, e)| {
            anyhow::anyhow!(
                "sentence {}: tokenizer '{}' failed: {e}",
                start + i + 1,
                scorer.tokenizer.name()
            )
        })?;
        if let Some(i) = counts.iter().position(|c| c.refs == 0) {
            bail!("sentence {} has no reference", start + i + 1);
        }
        chosen_regions(&counts, n, beta, &mut stats);
    }
    Ok(stats)
}

fn render_text(
    args: &Args,
    metric: &str,
    systems: &[String],
    results: &[PairedResult],
    signature: &str,
) -> String {
    let d = args.digits;
    let p_digits = (args.reps as f64).log10().ceil().max(4.0) as usize;
    let mut out = String::new();
    let with_ci = results[0].intervals.is_some();
    let ci_title = format!("{}% CI", args.confidence * 100.0);
    out.push_str(&if with_ci {
        format!("system\t{metric}\t{ci_title}\tdelta\t{ci_title} of delta\tp\n")
    } else {
        format!("system\t{metric}\tdelta\tp\n")
    });
    let ci =
        |i: &green_signif::Interval| format!("[{}, {}]", percent(i.low, d), percent(i.high, d));
    let base = &results[0];
    out.push_str(&match &base.intervals {
        Some(iv) => format!(
            "{}\t{}\t{}\t-\t-\t-\n",
            systems[0],
            percent(base.a, d),
            ci(&iv[0])
        ),
        None => format!("{}\t{}\t-\t-\n", systems[0], percent(base.a, d)),
    });
    for (path, r) in systems[1..].iter().zip(results) {
        let delta = format!(
            "{}{}",
            if r.delta >= 0.0 { "+" } else { "" },
            percent(r.delta, d)
        );
        let p = format!("{:.*}", p_digits, r.p);
        out.push_str(&match &r.intervals {
            Some(iv) => format!(
                "{path}\t{}\t{}\t{delta}\t{}\t{p}\n",
                percent(r.b, d),
                ci(&iv[1]),
                ci(&iv[2])
            ),
            None => format!("{path}\t{}\t{delta}\t{p}\n", percent(r.b, d)),
        });
    }
    out.push_str(&format!("# {signature}\n"));
    out
}
