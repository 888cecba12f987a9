//! `green scribendi`: Scribendi (Islam and Magnani 2021) as gec-metrics computes it, on a
//! GPT-2 directory the user supplies (`green_neural::scribendi`). Only in a build with the
//! `neural` feature.

use anyhow::Result;
use green_neural::scribendi::{self, Scorer, SentenceScore};
use serde::Serialize;

use crate::args::NeuralArgs;
use crate::output::emit;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green scribendi --model DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// A Hugging Face GPT-2 directory (config.json, model.safetensors or pytorch_model.bin,
    /// tokenizer.json or vocab.json and merges.txt); gec-metrics' default is gpt2.
    #[arg(long, value_name = "DIR")]
    pub model: std::path::PathBuf,

    /// A changed sentence scores 1 only if its token-sort or Levenshtein ratio reaches this.
    #[arg(long, default_value_t = scribendi::THRESHOLD)]
    pub threshold: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    scribendi: i64,
    sentences: Vec<SentenceScore>,
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    systems: Vec<System<'a>>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut scorer = Scorer::open(&args.model)?;
    scorer.threshold = args.threshold;
    scorer.batch_size = args.common.batch_size(32)?;
    let (sources, systems_lines) =
        crate::input::source_and_systems(&args.common.source, &args.common.hyp)?;
    let mut systems = Vec::new();
    for (path, hyps) in args.common.hyp.iter().zip(&systems_lines) {
        let sentences = scorer.score(&sources, hyps)?;
        systems.push(System {
            path,
            scribendi: scribendi::corpus(&sentences),
            sentences,
        });
    }
    let out = Output {
        signature: format!(
            "scribendi|model:sha256-{}|threshold:{}|v:{}",
            &scorer.digest()?[..16],
            args.threshold,
            env!("CARGO_PKG_VERSION")
        ),
        systems,
    };
    if args.common.format == "json" {
        return emit(&green_output::to_json(&out)?);
    }
    let mut s = String::new();
    for sys in &out.systems {
        s += &format!("{}\tScribendi\t{}\n", sys.path, sys.scribendi);
        if args.common.sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!("{}\t{}\n", i + 1, v.score);
            }
        }
    }
    s += &format!("# {}\n", out.signature);
    emit(&s)
}
