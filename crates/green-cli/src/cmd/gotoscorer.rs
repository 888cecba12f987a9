//! `green gotoscorer` and `green gotoscorer-weights`: GoToScorer (Gotou et al., COLING 2020)
//! of hypothesis M2 files against one reference of an M2 file, and its weight file (how
//! many systems correct each reference chunk) from many systems' M2 files, as gec-metrics'
//! `GoToScorer` and `gecmetrics-gen-gotoscorer-weight` compute them. The metric is
//! `green_edits::gotoscorer`.

use anyhow::{Context, Result};
use green_edits::gotoscorer::{self, Score, WeightEntry};
use green_engine::CollectInOrder;
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{emit, write_atomic};
use crate::stats::{write_stats, ShardFile};

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

    /// Also write every sentence's statistics to FILE (JSON): `green merge` joins the files
    /// of the shards of a corpus into what one run over the whole prints, and `green paired
    /// --stats` tests the systems against the first.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a
    /// corpus (a weight file covers the whole corpus).
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What `--stats` writes: every file's per-sentence statistics (chunk weights included).
pub(crate) type StatsFile = ShardFile<Settings, gotoscorer::SentenceStats>;

/// What the output depends on beside the statistics.
#[derive(Serialize, serde::Deserialize)]
pub(crate) struct Settings {
    pub(crate) beta: f64,
    pub(crate) ref_id: i64,
    pub(crate) weighted: bool,
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
    let (reference, hyps, provenance) = args.files.read_rows(args.rows)?;
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
    // A shard's sentences take their entries of the whole corpus's weight file.
    let weights = match weights {
        Some(w) if w.len() == provenance.corpus_rows => {
            Some(w[provenance.first..provenance.first + provenance.rows].to_vec())
        }
        Some(w) => anyhow::bail!(
            "{} has {} entries but {} has {} sentences; make the weight file from the same reference",
            args.weights.as_deref().unwrap_or_default(),
            w.len(),
            args.files.reference,
            provenance.corpus_rows
        ),
        None => None,
    };
    let beta = args.files.beta;
    let stats = args
        .files
        .hyp
        .par_iter()
        .zip(&hyps)
        .map(|(path, hyp)| {
            gotoscorer::corpus_stats(hyp, &reference, args.ref_id, weights.as_deref())
                .map_err(|e| anyhow::anyhow!("{path} against {}: {e}", args.files.reference))
        })
        .collect_in_order::<Vec<_>>()?;
    let settings = Settings {
        beta,
        ref_id: args.ref_id,
        weighted: weights.is_some(),
    };
    let signature = gotoscorer::signature(beta, args.ref_id, weights.is_some());
    let file = StatsFile::new(
        "gotoscorer",
        provenance,
        settings,
        signature,
        &args.files.hyp,
        stats,
    )?;
    if let Some(path) = &args.stats {
        write_stats(path, &file)?;
    }
    emit(&print(&file, &args.format)?)
}

/// The output of a run (or of merged shards) in `format`: text or json.
pub(crate) fn print(file: &StatsFile, format: &str) -> Result<String> {
    let beta = file.settings.beta;
    let systems = (file.systems.iter().zip(&file.shard.systems))
        .map(|(path, stats)| System {
            path,
            sentences: stats.len(),
            corpus: gotoscorer::corpus(stats, beta),
            sentence_f: stats
                .iter()
                .map(|s| gotoscorer::sentence(s, beta).f)
                .collect(),
        })
        .collect();
    let out = Output {
        signature: file.shard.signature.clone(),
        systems,
    };
    Ok(match format {
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
