//! `green some`: SOME (Yoshimura et al. 2020), the reference-free score of three BERT
//! regressors, on a models directory the user supplies (`green_neural::some`). Only in a
//! build with the `neural` feature.

use anyhow::Result;
use green_neural::some::{self, Paths, Scorer, SentenceScore, Weights};
use serde::Serialize;

use crate::args::NeuralArgs;
use crate::output::emit;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green some --models DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// The models directory: grammer/ (or grammar/), fluency/ and meaning/, each a Hugging
    /// Face BertForSequenceClassification directory, and the tokenizer (vocab.txt or
    /// tokenizer.json; else it is looked for in grammer/).
    #[arg(long, value_name = "DIR")]
    pub models: std::path::PathBuf,

    /// The tokenizer to use instead (a vocab.txt, a tokenizer.json or a directory holding one):
    /// SOME's is bert-base-cased's.
    #[arg(long, value_name = "PATH")]
    pub tokenizer: Option<std::path::PathBuf>,

    /// Weight of the grammaticality score.
    #[arg(long, default_value_t = 0.55)]
    pub weight_g: f64,

    /// Weight of the fluency score.
    #[arg(long, default_value_t = 0.43)]
    pub weight_f: f64,

    /// Weight of the meaning-preservation score.
    #[arg(long, default_value_t = 0.02)]
    pub weight_m: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    some: f64,
    sentences: Vec<SentenceScore>,
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    weights: Weights,
    systems: Vec<System<'a>>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut paths = Paths::in_dir(&args.models)?;
    if let Some(t) = &args.tokenizer {
        paths.tokenizer = t.clone();
    }
    let mut scorer = Scorer::open(&paths)?;
    scorer.batch_size = args.common.batch_size(64)?;
    let weights = Weights {
        grammaticality: args.weight_g,
        fluency: args.weight_f,
        meaning: args.weight_m,
    };
    let (sources, systems_lines) =
        crate::input::source_and_systems(&args.common.source, &args.common.hyp)?;
    let mut systems = Vec::new();
    for (path, hyps) in args.common.hyp.iter().zip(&systems_lines) {
        let sentences = scorer.score(&sources, hyps, weights)?;
        systems.push(System {
            path,
            some: some::corpus(&sentences),
            sentences,
        });
    }
    let out = Output {
        signature: format!(
            "some|models:sha256-{}|weights:{},{},{}|max-length:{}|v:{}",
            &scorer.digest()?[..16],
            args.weight_g,
            args.weight_f,
            args.weight_m,
            some::MAX_LENGTH,
            env!("CARGO_PKG_VERSION")
        ),
        weights,
        systems,
    };
    emit(&print(&out, &args.common.format, args.common.sentences)?)
}

fn print(out: &Output, format: &str, sentences: bool) -> Result<String> {
    if format == "json" {
        return Ok(green_output::to_json(out)?);
    }
    let mut s = String::new();
    for sys in &out.systems {
        s += &format!("{}\tSOME\t{:.4}\n", sys.path, sys.some);
        if sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!(
                    "{}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\n",
                    i + 1,
                    v.grammaticality,
                    v.fluency,
                    v.meaning,
                    v.some
                );
            }
        }
    }
    s += &format!("# {}\n", out.signature);
    Ok(s)
}
