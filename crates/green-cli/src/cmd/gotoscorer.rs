//! `green gotoscorer` and `green gotoscorer-weights`: GoToScorer (Gotou et al., COLING 2020)
//! of hypothesis M2 files against one reference of an M2 file, and its weight file (how
//! many systems correct each reference chunk) from many systems' M2 files, as gec-metrics'
//! `GoToScorer` and `gecmetrics-gen-gotoscorer-weight` compute them. The metric is
//! `green_edits::gotoscorer`.

use anyhow::{Context, Result};
use green_edits::gotoscorer::{self, Score, WeightEntry};
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{emit, write_atomic};

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green gotoscorer -hyp HYP.m2... -ref REF.m2 [--weights W.json] [OPTIONS]",
    after_help = super::errant::ONE_DASH
)]
pub struct Args {
    #[command(flatten)]
    pub files: super::errant::Files,

    /// The reference (annotator) GoToScorer reads; it uses one.
    #[arg(long, default_value_t = 0)]
    pub ref_id: i64,

    /// A weight file (gec-metrics' JSON, from `green gotoscorer-weights` or
    /// `gecmetrics-gen-gotoscorer-weight`); without it every chunk weighs 1.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<String>,

    /// Output: text (a row per file), or json (with every sentence's F).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green gotoscorer-weights -ref REF.m2 -hyp HYP.m2... -out W.json [--ref-id N]",
    after_help = super::errant::ONE_DASH
)]
pub struct WeightArgs {
    /// The systems' M2 files (the more, the better the weights).
    #[arg(long = "hyp", num_args = 1.., required = true, value_name = "HYP")]
    pub hyp: Vec<String>,

    /// The reference M2 file.
    #[arg(long = "ref", required = true, value_name = "REF")]
    pub reference: String,

    /// The reference (annotator) to weigh; the same as `green gotoscorer --ref-id`.
    #[arg(long, default_value_t = 0)]
    pub ref_id: i64,

    /// The weight file to write.
    #[arg(long = "out", required = true, value_name = "FILE")]
    pub out: String,
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    systems: Vec<System<'a>>,
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    sentences: usize,
    corpus: Score,
    sentence_f: Vec<f64>,
}

pub fn run(args: &Args) -> Result<()> {
    let (reference, hyps) = args.files.read()?;
    let weights: Option<Vec<WeightEntry>> = match &args.weights {
        None => None,
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            Some(serde_json::from_str(&text).with_context(|| {
                format!("{path} is not a GoToScorer weight file (a JSON list of {{\"evaluations\", \"weights\"}})")
            })?)
        }
    };
    let beta = args.files.beta;
    let systems = args
        .files
        .hyp
        .par_iter()
        .zip(&hyps)
        .map(|(path, hyp)| {
            let stats = gotoscorer::corpus_stats(hyp, &reference, args.ref_id, weights.as_deref())
                .map_err(|e| anyhow::anyhow!("{path} against {}: {e}", args.files.reference))?;
            Ok(System {
                path,
                sentences: stats.len(),
                corpus: gotoscorer::corpus(&stats, beta),
                sentence_f: stats
                    .iter()
                    .map(|s| gotoscorer::sentence(s, beta).f)
                    .collect(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let out = Output {
        signature: gotoscorer::signature(beta, args.ref_id, weights.is_some()),
        systems,
    };
    emit(&match args.format.as_str() {
        "json" => green_output::to_json(&out)?,
        _ => {
            let mut s = format!(
                "{:<40}{:>10}{:>10}{:>10}{:>10}{:>8}{:>8}{:>8}\n",
                "file",
                "TP",
                "FP",
                "FN",
                "TN",
                "P",
                "R",
                format!("F{}", green_edits::pyfloat::str(beta))
            );
            for sys in &out.systems {
                let c = &sys.corpus;
                s += &format!(
                    "{:<40}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>8.4}{:>8.4}{:>8.4}\n",
                    sys.path, c.tp, c.fp, c.fn_, c.tn, c.p, c.r, c.f
                );
            }
            s += &format!("# {}\n", out.signature);
            s
        }
    })
}

pub fn run_weights(args: &WeightArgs) -> Result<()> {
    let files = super::errant::Files {
        hyp: args.hyp.clone(),
        reference: args.reference.clone(),
        beta: 0.5,
    };
    let (reference, hyps) = files.read()?;
    let entries = gotoscorer::weight_file(&reference, args.ref_id, &hyps)?;
    // `json.dump(data, fp, indent=2)`: serde_json's pretty layout is the same.
    let json = serde_json::to_string_pretty(&entries)?;
    write_atomic(std::path::Path::new(&args.out), json.as_bytes())
}
