//! `green impara`: IMPARA (Maeda et al. 2022) as gec-metrics computes it, a quality
//! estimator gated by a similarity estimator, on model directories the user supplies
//! (`green_neural::impara`). Only in a build with the `neural` feature.

use anyhow::Result;
use green_neural::impara::{self, Scorer, SentenceScore};

use crate::args::NeuralArgs;
use crate::cmd::neural::{model_path, print, score_and_show, systems, Settings, Threshold};
use crate::stats::ShardFile;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green impara --qe DIR --se DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// The quality estimator: a Hugging Face BertForSequenceClassification directory with one
    /// output (gec-metrics uses gotutiyan/IMPARA-QE), with its tokenizer, or as IMPARA's
    /// train_qe.py saves it, without one (the similarity estimator's is used); or a Hub id
    /// (org/name) in the local Hugging Face cache.
    #[arg(long, value_name = "DIR|ID")]
    pub qe: std::path::PathBuf,

    /// The similarity estimator: a BERT directory (gec-metrics uses bert-base-cased) with its
    /// tokenizer (tokenizer.json or vocab.txt); or a Hub id in the local Hugging Face cache.
    #[arg(long, value_name = "DIR|ID")]
    pub se: std::path::PathBuf,

    /// A hypothesis whose similarity to its source is below this scores 0.
    #[arg(long, default_value_t = impara::THRESHOLD)]
    pub threshold: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let revision = args.common.revision.as_deref();
    let mut scorer = Scorer::open(
        &model_path(&args.qe, revision)?,
        &model_path(&args.se, revision)?,
    )?;
    scorer.batch_size = args.common.batch_size(32)?;
    let digest = scorer.digest()?;
    let signature = impara::signature(&digest, args.threshold);
    let threshold = Threshold {
        threshold: args.threshold,
    };
    score_and_show(
        &args.common,
        "impara",
        (Settings::new(digest, threshold), signature),
        |src, hyp| scorer.score(src, hyp, args.threshold),
        show,
    )
}

/// What `--stats` writes: every system's sentence scores, the models' digest and the
/// threshold.
pub(crate) type StatsFile = ShardFile<Settings<Threshold>, SentenceScore>;

/// The output of a run (or of merged shards).
pub(crate) fn show(file: &StatsFile, format: &str, sentences: bool) -> Result<()> {
    let s = &file.settings;
    let report = impara::report(&s.digest, s.options.threshold, systems(file));
    print(
        &report,
        format,
        sentences,
        |c| format!("IMPARA\t{:.4}", c.impara),
        |v| format!("{:.4}\t{:.4}\t{:.4}", v.similarity, v.quality, v.impara),
    )
}
