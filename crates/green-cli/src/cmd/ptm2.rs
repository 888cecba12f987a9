//! `green ptm2`: PT-M2 (Gong et al. 2022) as github.com/pygongnlp/PT-M2 computes it, the
//! M2 scorer's edits weighted by BERTScore on a BERT directory the user supplies
//! (`green_neural::ptm2`). Only in a build with the `neural` feature.

use std::path::PathBuf;

use anyhow::{bail, Result};
use green_neural::ptm2::errant as ptm2_errant;
use green_neural::ptm2::{self, BertScore, SentenceStats, SentenceWeights};

use crate::cmd::neural::{model_path, print, stats_file, systems, Settings};
use crate::input::read_text;
use crate::output::warn;
use crate::stats::{keep, CorpusDigest, Rows, ShardFile};

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green ptm2 --model DIR --layers N [--baseline FILE] --m2 GOLD.m2 -c SYS... [--hyp-m2 SYS.m2...] [OPTIONS]"
)]
pub struct Args {
    /// The BERTScore model: a Hugging Face BERT directory with its tokenizer (PT-M2
    /// recommends bert-base-uncased), or a Hub id (org/name) in the local Hugging Face cache.
    #[arg(long, value_name = "DIR|ID")]
    pub model: PathBuf,

    /// With a Hub id: the revision (branch, tag or commit) of its snapshot in the cache
    /// (default main).
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,

    /// Encoder layers whose output BERTScore compares (bert_score's num_layers; its table
    /// gives 9 for bert-base-uncased).
    #[arg(long, value_name = "N")]
    pub layers: usize,

    /// bert_score's baseline file for the model (rescale_baseline/en/<model>.tsv): the edit
    /// weights are rescaled as PT-M2 does; the scores do not depend on it.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// The gold M2 file (its annotators' edits make the references).
    #[arg(long, value_name = "GOLD.m2")]
    pub m2: String,

    /// System outputs, one file per system, one line per gold sentence.
    #[arg(short = 'c', long = "hyp", value_name = "SYS", num_args = 1.., required = true)]
    pub hyp: Vec<String>,

    /// The systems' ERRANT M2 files (errant_parallel's, e.g. `green errant-parallel`), one
    /// per system in the order of -c: score PT-M2's `errant` (corpus) and `senterrant`
    /// (sentence mean) bases on ERRANT edits, the gold M2 read as ERRANT M2.
    #[arg(long = "hyp-m2", value_name = "SYS.m2", num_args = 1..)]
    pub hyp_m2: Vec<String>,

    /// The β of F_β.
    #[arg(long, default_value_t = 0.5, value_parser = crate::cmd::maxmatch::parse_beta)]
    pub beta: f64,

    /// Sentences run through the model at once, grouped by length (scores do not depend on
    /// it).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,

    /// Also print every sentence's P, R and F (text output; json always has them).
    #[arg(short = 'v', long)]
    pub sentences: bool,

    /// Output: text (a line per system) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,

    /// Also write every sentence's weighted counts to FILE (JSON): `green merge` joins the
    /// files of the shards of a corpus into what one run over the whole prints.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What PT-M2's output depends on beside the statistics and the model.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Options {
    /// ERRANT's base (`--hyp-m2`) rather than M2's.
    errant: bool,
    layers: usize,
    rescaled: bool,
    beta: f64,
}

/// What `--stats` writes: every system's sentence statistics, the model's digest and the
/// options.
pub(crate) type StatsFile = ShardFile<Settings<Options>, SentenceStats>;

pub fn run(args: &Args) -> Result<()> {
    crate::input::stdin_once(
        std::iter::once(args.m2.as_str())
            .chain(args.hyp.iter().map(String::as_str))
            .chain(args.hyp_m2.iter().map(String::as_str)),
    )?;
    let errant = !args.hyp_m2.is_empty();
    if errant && args.hyp_m2.len() != args.hyp.len() {
        bail!(
            "{} --hyp-m2 files for {} systems; give one ERRANT M2 per -c file, in the same order",
            args.hyp_m2.len(),
            args.hyp.len()
        );
    }
    let gold_text = read_text(&args.m2)?;
    let mut gold_errant = if errant {
        ptm2_errant::parse(&gold_text, &args.m2).map_err(anyhow::Error::msg)?
    } else {
        Vec::new()
    };
    let mut gold = green_m2::parse_gold(&gold_text, &args.m2, green_m2::Alternatives::First)?;
    if gold.sentences.is_empty() {
        bail!("{} has no sentences: there is nothing to score", args.m2);
    }
    for w in &gold.warnings {
        warn(w);
    }
    let digest = CorpusDigest::of_gold(&gold.sentences);
    let total = gold.sentences.len();
    let rows = Rows::select(args.rows, total)?;
    keep(&mut gold.sentences, &rows);
    if errant {
        keep(&mut gold_errant, &rows);
    }
    let mut scorer = BertScore::open(
        &model_path(&args.model, args.revision.as_deref())?,
        args.layers,
        args.baseline.as_deref(),
    )?;
    scorer.batch_size = usize::try_from(args.batch_size)?;
    let mut scored: Vec<(String, Vec<SentenceStats>)> = Vec::new();
    for (k, path) in args.hyp.iter().enumerate() {
        let text = read_text(path)?;
        let mut hyps: Vec<String> = green_m2::system_lines(&text)
            .into_iter()
            .map(|l| green_m2::text::strip(l).to_owned())
            .collect();
        if hyps.len() != total {
            bail!(
                "{path} has {} lines but {} has {total} sentences; give one output line per gold sentence",
                hyps.len(),
                args.m2,
            );
        }
        keep(&mut hyps, &rows);
        let weights = if errant {
            let m2 = &args.hyp_m2[k];
            let mut system = ptm2_errant::parse(&read_text(m2)?, m2).map_err(anyhow::Error::msg)?;
            if system.len() != total {
                bail!(
                    "{m2} has {} sentences but {} has {total}; make {m2} from the system output with `green errant-parallel`",
                    system.len(),
                    args.m2
                );
            }
            keep(&mut system, &rows);
            scorer
                .weigh_errant(&gold_errant, &system, &hyps, (&args.m2, m2))
                .map_err(anyhow::Error::msg)?
        } else {
            scorer
                .weigh(&gold.sentences, &hyps)
                .map_err(|e| anyhow::anyhow!("{path}: {e}"))?
        };
        scored.push((
            path.clone(),
            weights.iter().map(SentenceWeights::stats).collect(),
        ));
    }
    let settings = Settings {
        digest: scorer.digest()?,
        options: Options {
            errant,
            layers: args.layers,
            rescaled: args.baseline.is_some(),
            beta: args.beta,
        },
    };
    let sig = signature(&settings);
    let file = stats_file(
        "ptm2",
        digest.provenance(&rows),
        settings,
        sig,
        scored,
        args.stats.as_deref(),
    )?;
    show(&file, &args.format, args.sentences)
}

/// The signature of a run with `settings`.
fn signature(settings: &Settings<Options>) -> String {
    let o = &settings.options;
    ptm2::signature(o.errant, &settings.digest, o.layers, o.rescaled, o.beta)
}

/// The output of a run (or of merged shards).
pub(crate) fn show(file: &StatsFile, format: &str, sentences: bool) -> Result<()> {
    let beta = file.settings.options.beta;
    let report = ptm2::report(signature(&file.settings), beta, systems(file));
    print(
        &report,
        format,
        sentences,
        |c| {
            let s = c.corpus_score;
            format!(
                "PT-M2\t{:.4}\tcorpus P {:.4} R {:.4} F{beta} {:.4}",
                c.ptm2, s.precision, s.recall, s.f
            )
        },
        |v| format!("{:.4}\t{:.4}\t{:.4}", v.precision, v.recall, v.f),
    )
}
