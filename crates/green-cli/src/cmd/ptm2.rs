//! `green ptm2`: PT-M2 (Gong et al. 2022) as github.com/pygongnlp/PT-M2 computes it, the
//! M2 scorer's edits weighted by BERTScore on a BERT directory the user supplies
//! (`green_neural::ptm2`). Only in a build with the `neural` feature.

use std::path::PathBuf;

use anyhow::{bail, Result};
use green_neural::ptm2::errant as ptm2_errant;
use green_neural::ptm2::{corpus_level, sentence_level, BertScore, Prf, Weighted};
use serde::Serialize;

use crate::input::read_text;
use crate::output::{emit, warn};

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green ptm2 --model DIR --layers N [--baseline FILE] --m2 GOLD.m2 -c SYS... [--hyp-m2 SYS.m2...] [OPTIONS]"
)]
pub struct Args {
    /// The BERTScore model: a Hugging Face BERT directory with its tokenizer (PT-M2
    /// recommends bert-base-uncased).
    #[arg(long, value_name = "DIR")]
    pub model: PathBuf,

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
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    /// The mean of the sentence scores (PT-M2's `sentm2`, the paper's recommendation;
    /// `senterrant` with --hyp-m2).
    ptm2: f64,
    /// The corpus-level weighted counts and P/R/F (PT-M2's `m2`; `errant` with --hyp-m2).
    corpus: Weighted,
    corpus_score: Prf,
    sentences: Vec<Prf>,
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    systems: Vec<System<'a>>,
}

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
    let gold_errant = if errant {
        ptm2_errant::parse(&gold_text, &args.m2).map_err(anyhow::Error::msg)?
    } else {
        Vec::new()
    };
    let gold = green_m2::parse_gold(&gold_text, &args.m2, green_m2::Alternatives::First)?;
    if gold.sentences.is_empty() {
        bail!("{} has no sentences: there is nothing to score", args.m2);
    }
    for w in &gold.warnings {
        warn(w);
    }
    let mut scorer = BertScore::open(&args.model, args.layers, args.baseline.as_deref())?;
    scorer.batch_size = usize::try_from(args.batch_size)?;
    let mut systems = Vec::new();
    for (k, path) in args.hyp.iter().enumerate() {
        let text = read_text(path)?;
        let hyps: Vec<String> = green_m2::system_lines(&text)
            .into_iter()
            .map(|l| green_m2::text::strip(l).to_owned())
            .collect();
        if hyps.len() != gold.sentences.len() {
            bail!(
                "{path} has {} lines but {} has {} sentences; give one output line per gold sentence",
                hyps.len(),
                args.m2,
                gold.sentences.len()
            );
        }
        let weights = if errant {
            let m2 = &args.hyp_m2[k];
            let system = ptm2_errant::parse(&read_text(m2)?, m2).map_err(anyhow::Error::msg)?;
            scorer
                .weigh_errant(&gold_errant, &system, &hyps, (&args.m2, m2))
                .map_err(anyhow::Error::msg)?
        } else {
            scorer
                .weigh(&gold.sentences, &hyps)
                .map_err(|e| anyhow::anyhow!("{path}: {e}"))?
        };
        let (sentences, ptm2) = sentence_level(&weights, args.beta);
        let (corpus, corpus_score) = corpus_level(&weights, args.beta);
        systems.push(System {
            path,
            ptm2,
            corpus,
            corpus_score,
            sentences,
        });
    }
    let out = Output {
        signature: format!(
            "ptm2|{}model:sha256-{}|layers:{}|rescaled:{}|beta:{}|v:{}",
            if errant { "base:errant|" } else { "" },
            &scorer.digest()?[..16],
            args.layers,
            if args.baseline.is_some() { "yes" } else { "no" },
            args.beta,
            env!("CARGO_PKG_VERSION")
        ),
        systems,
    };
    if args.format == "json" {
        return emit(&green_output::to_json(&out)?);
    }
    let mut s = String::new();
    for sys in &out.systems {
        let c = sys.corpus_score;
        s += &format!(
            "{}\tPT-M2\t{:.4}\tcorpus P {:.4} R {:.4} F{} {:.4}\n",
            sys.path, sys.ptm2, c.precision, c.recall, args.beta, c.f
        );
        if args.sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!(
                    "{}\t{:.4}\t{:.4}\t{:.4}\n",
                    i + 1,
                    v.precision,
                    v.recall,
                    v.f
                );
            }
        }
    }
    s += &format!("# {}\n", out.signature);
    emit(&s)
}
