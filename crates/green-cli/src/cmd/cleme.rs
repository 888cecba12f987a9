//! `green cleme`: CLEME (Ye et al., EMNLP 2023) of hypothesis M2 files against a reference
//! M2 file: dependent and independent, corpus (CLEME) and sentence level (SentCLEME),
//! length-weighted as the paper publishes them and unweighted. The metric is
//! `green_edits::cleme`.

use anyhow::Result;
use green_edits::cleme::{self, Options};
use green_engine::CollectInOrder;
use rayon::prelude::*;

use crate::output::emit;
use crate::stats::{write_stats, ShardFile};

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green cleme -hyp HYP.m2... -ref REF.m2 [OPTIONS]",
    after_help = super::errant::ONE_DASH
)]
pub struct Args {
    #[command(flatten)]
    pub files: super::errant::Files,

    /// Edits at most this many tokens apart share a chunk.
    #[arg(long, default_value_t = 0)]
    pub merge_distance: usize,

    /// Output: text (a table per file), tsv (one row per file and variant) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "tsv", "json"])]
    pub format: String,

    /// Also write every sentence's statistics to FILE (JSON): `green merge` joins the files
    /// of the shards of a corpus into what one run over the whole prints.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What `--stats` writes: every file's per-sentence statistics and the options.
pub(crate) type StatsFile = ShardFile<Options, cleme::SentenceStats>;

pub fn run(args: &Args) -> Result<()> {
    let opts = Options {
        beta: args.files.beta,
        merge_distance: args.merge_distance,
    };
    let (reference, hyps, provenance) = args.files.read_rows(args.rows)?;
    let stats = args
        .files
        .hyp
        .par_iter()
        .zip(&hyps)
        .map(|(path, hyp)| {
            cleme::corpus_stats(hyp, &reference, &opts)
                .map_err(|e| anyhow::anyhow!("{path} against {}: {e}", args.files.reference))
        })
        .collect_in_order::<Vec<_>>()?;
    let signature = cleme::signature(&opts);
    let file = StatsFile::new("cleme", provenance, opts, signature, &args.files.hyp, stats)?;
    if let Some(path) = &args.stats {
        write_stats(path, &file)?;
    }
    emit(&print(&file, &args.format)?)
}

/// The output of a run (or of merged shards) in `format`: text, tsv or json.
pub(crate) fn print(file: &StatsFile, format: &str) -> Result<String> {
    let opts = &file.settings;
    let out = green_output::edits::cleme(
        file.shard.signature.clone(),
        &file.systems,
        &file.shard.systems,
        opts,
    )
    .map_err(anyhow::Error::msg)?;
    Ok(match format {
        "json" => green_output::to_json(&out)?,
        "tsv" => {
            let mut s = String::from("file\tmetric\ttp\tfp\tfn\ttn\tp\tr\tf\n");
            for sys in &out.systems {
                for (name, v) in cleme::rows(&sys.result.report) {
                    s += &format!(
                        "{}\t{name}\t{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\n",
                        sys.path, v.tp, v.fp, v.fn_, v.tn, v.p, v.r, v.f
                    );
                }
            }
            s
        }
        _ => {
            let mut s = String::new();
            for sys in &out.systems {
                let r = &sys.result.report;
                s += &format!(
                    "# {}: {} sentences, mean reference chunk length {:.2}\n",
                    sys.path, r.sentences, r.mean_length
                );
                s += &cleme::render(r, opts.beta);
            }
            s
        }
    })
}
