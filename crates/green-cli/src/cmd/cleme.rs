//! `green cleme`: CLEME (Ye et al., EMNLP 2023) of hypothesis M2 files against a reference
//! M2 file: dependent and independent, corpus (CLEME) and sentence level (SentCLEME),
//! length-weighted as the paper publishes them and unweighted. The metric is
//! `green_edits::cleme`.

use anyhow::Result;
use green_edits::cleme::{self, Options};
use rayon::prelude::*;
use serde_json::json;

use crate::output::emit;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub files: super::errant::Files,

    /// Edits at most this many tokens apart share a chunk.
    #[arg(long, default_value_t = 0)]
    pub merge_distance: usize,

    /// Output: text (a table per file), tsv (one row per file and variant) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "tsv", "json"])]
    pub format: String,
}

pub fn run(args: &Args) -> Result<()> {
    let opts = Options {
        beta: args.files.beta,
        merge_distance: args.merge_distance,
    };
    let (reference, hyps) = args.files.read()?;
    let reports = args
        .files
        .hyp
        .par_iter()
        .zip(&hyps)
        .map(|(path, hyp)| {
            cleme::score(hyp, &reference, &opts)
                .map(|r| (path, r))
                .map_err(|e| anyhow::anyhow!("{path} against {}: {e}", args.files.reference))
        })
        .collect::<Result<Vec<_>>>()?;
    let out = match args.format.as_str() {
        "json" => {
            let systems: Vec<_> = reports
                .iter()
                .map(|(path, r)| json!({"path": path, "report": r}))
                .collect();
            serde_json::to_string_pretty(
                &json!({"signature": cleme::signature(&opts), "systems": systems}),
            )? + "\n"
        }
        "tsv" => {
            let mut s = String::from("file\tmetric\ttp\tfp\tfn\ttn\tp\tr\tf\n");
            for (path, r) in &reports {
                for (name, v) in cleme::rows(r) {
                    s += &format!(
                        "{path}\t{name}\t{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\n",
                        v.tp, v.fp, v.fn_, v.tn, v.p, v.r, v.f
                    );
                }
            }
            s
        }
        _ => {
            let mut s = String::new();
            for (path, r) in &reports {
                s += &format!(
                    "# {path}: {} sentences, mean reference chunk length {:.2}\n",
                    r.sentences, r.mean_length
                );
                s += &cleme::render(r, args.files.beta);
            }
            s
        }
    };
    emit(&out)?;
    Ok(())
}
