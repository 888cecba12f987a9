//! `green scribendi`: Scribendi (Islam and Magnani 2021) as gec-metrics computes it, on a
//! GPT-2 directory the user supplies (`green_neural::scribendi`). Only in a build with the
//! `neural` feature.

use anyhow::{bail, Result};
use green_neural::scribendi::{self, Scorer, SentenceScore};
use serde::Serialize;

use crate::output::emit;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green scribendi --model DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// A Hugging Face GPT-2 directory (config.json, model.safetensors or pytorch_model.bin,
    /// tokenizer.json or vocab.json and merges.txt); gec-metrics' default is gpt2.
    #[arg(long, value_name = "DIR")]
    pub model: std::path::PathBuf,

    /// Source sentences, one per line.
    #[arg(short = 's', long = "source", value_name = "SRC")]
    pub source: String,

    /// System outputs, one file per system, aligned with the source.
    #[arg(short = 'c', long = "hyp", value_name = "SYS", num_args = 1.., required = true)]
    pub hyp: Vec<String>,

    /// A changed sentence scores 1 only if its token-sort or Levenshtein ratio reaches this.
    #[arg(long, default_value_t = scribendi::THRESHOLD)]
    pub threshold: f64,

    /// Sentences run through the model at once (grouped by length; scores do not depend on it).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,

    /// Also print every sentence's score (text output; json always has them).
    #[arg(short = 'v', long)]
    pub sentences: bool,

    /// Output: text (a line per system) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
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
    scorer.batch_size = usize::try_from(args.batch_size)?;
    let sources = green_io::read_lines(&green_io::Input::parse(&args.source))?;
    let mut systems = Vec::new();
    for path in &args.hyp {
        let hyps = green_io::read_lines(&green_io::Input::parse(path))?;
        if hyps.len() != sources.len() {
            bail!(
                "{path} has {} lines but the source {} has {}; give one output line per source line",
                hyps.len(),
                args.source,
                sources.len()
            );
        }
        let sentences = scorer.score(&sources, &hyps)?;
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
    if args.format == "json" {
        return emit(&green_output::to_json(&out)?);
    }
    let mut s = String::new();
    for sys in &out.systems {
        s += &format!("{}\tScribendi\t{}\n", sys.path, sys.scribendi);
        if args.sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!("{}\t{}\n", i + 1, v.score);
            }
        }
    }
    s += &format!("# {}\n", out.signature);
    emit(&s)
}
