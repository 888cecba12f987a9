//! `green scribendi`: Scribendi (Islam and Magnani 2021) as gec-metrics computes it, on a
//! GPT-2 directory the user supplies (`green_neural::scribendi`). Only in a build with the
//! `neural` feature.

use anyhow::Result;
use green_neural::scribendi::{self, Scorer};

use crate::args::NeuralArgs;
use crate::cmd::neural::{model_path, print, score_systems};

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
    let systems = score_systems(&args.common, |src, hyp| scorer.score(src, hyp))?;
    let report = scribendi::report(&scorer.digest()?, args.threshold, systems);
    print(
        &report,
        &args.common.format,
        args.common.sentences,
        |c| format!("Scribendi\t{}", c.scribendi),
        |v| v.score.to_string(),
    )
}
