//! `green impara`: IMPARA (Maeda et al. 2022) as gec-metrics computes it, a quality
//! estimator gated by a similarity estimator, on model directories the user supplies
//! (`green_neural::impara`). Only in a build with the `neural` feature.

use anyhow::Result;
use green_neural::impara::{self, Scorer, SentenceScore};
use serde::Serialize;

use crate::args::NeuralArgs;
use crate::output::emit;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green impara --qe DIR --se DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// The quality estimator: a Hugging Face BertForSequenceClassification directory with one
    /// output (gec-metrics uses gotutiyan/IMPARA-QE), with its tokenizer, or as IMPARA's
    /// train_qe.py saves it, without one (the similarity estimator's is used).
    #[arg(long, value_name = "DIR")]
    pub qe: std::path::PathBuf,

    /// The similarity estimator: a BERT directory (gec-metrics uses bert-base-cased) with its
    /// tokenizer (tokenizer.json or vocab.txt).
    #[arg(long, value_name = "DIR")]
    pub se: std::path::PathBuf,

    /// A hypothesis whose similarity to its source is below this scores 0.
    #[arg(long, default_value_t = impara::THRESHOLD)]
    pub threshold: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    impara: f64,
    sentences: Vec<SentenceScore>,
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    systems: Vec<System<'a>>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut scorer = Scorer::open(&args.qe, &args.se)?;
    scorer.batch_size = args.common.batch_size(32)?;
    let (sources, systems_lines) =
        crate::input::source_and_systems(&args.common.source, &args.common.hyp)?;
    let mut systems = Vec::new();
    for (path, hyps) in args.common.hyp.iter().zip(&systems_lines) {
        let sentences = scorer.score(&sources, hyps, args.threshold)?;
        systems.push(System {
            path,
            impara: impara::corpus(&sentences),
            sentences,
        });
    }
    let out = Output {
        signature: format!(
            "impara|models:sha256-{}|threshold:{}|max-length:{}|v:{}",
            &scorer.digest()?[..16],
            args.threshold,
            impara::MAX_LENGTH,
            env!("CARGO_PKG_VERSION")
        ),
        systems,
    };
    if args.common.format == "json" {
        return emit(&green_output::to_json(&out)?);
    }
    let mut s = String::new();
    for sys in &out.systems {
        s += &format!("{}\tIMPARA\t{:.4}\n", sys.path, sys.impara);
        if args.common.sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!(
                    "{}\t{:.4}\t{:.4}\t{:.4}\n",
                    i + 1,
                    v.similarity,
                    v.quality,
                    v.impara
                );
            }
        }
    }
    s += &format!("# {}\n", out.signature);
    emit(&s)
}
