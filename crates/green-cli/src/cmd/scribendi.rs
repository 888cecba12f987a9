//! `green scribendi`: Scribendi (Islam and Magnani 2021) as gec-metrics computes it, on a
//! GPT-2 directory the user supplies (`green_neural::scribendi`). Only in a build with the
//! `neural` feature.

use anyhow::Result;
use green_neural::scribendi::{self, Scorer, SentenceScore};

use crate::args::NeuralArgs;
use crate::cmd::neural::{model_path, print, score_and_show, systems, Settings, Threshold};
use crate::stats::ShardFile;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green scribendi --model DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// A Hugging Face GPT-2 directory (config.json, model.safetensors or pytorch_model.bin,
    /// tokenizer.json or vocab.json and merges.txt), or a Hub id (gec-metrics' default is
    /// gpt2) in the local Hugging Face cache.
    #[arg(long, value_name = "DIR|ID")]
    pub model: std::path::PathBuf,

    /// A changed sentence scores 1 only if its token-sort or Levenshtein ratio reaches this.
    #[arg(long, default_value_t = scribendi::THRESHOLD)]
    pub threshold: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let mut scorer = Scorer::open(&model_path(&args.model, args.common.revision.as_deref())?)?;
    scorer.threshold = args.threshold;
    scorer.batch_size = args.common.batch_size(32)?;
    let digest = scorer.digest()?;
    let signature = scribendi::signature(&digest, args.threshold);
    let threshold = Threshold {
        threshold: args.threshold,
    };
    score_and_show(
        &args.common,
        "scribendi",
        (Settings::new(digest, threshold), signature),
        |src, hyp| scorer.score(src, hyp),
        show,
    )
}

/// What `--stats` writes: every system's sentence scores, the model's digest and the
/// threshold.
pub(crate) type StatsFile = ShardFile<Settings<Threshold>, SentenceScore>;

/// The output of a run (or of merged shards).
pub(crate) fn show(file: &StatsFile, format: &str, sentences: bool) -> Result<()> {
    let s = &file.settings;
    let report = scribendi::report(&s.digest, s.options.threshold, systems(file));
    print(
        &report,
        format,
        sentences,
        |c| format!("Scribendi\t{}", c.scribendi),
        |v| v.score.to_string(),
    )
}
