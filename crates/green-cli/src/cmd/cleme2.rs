//! `green cleme2`: CLEME2.0 (Ye et al., ACL 2025) of hypothesis M2 files against a reference
//! M2 file: hit-, wrong-, under- and over-correction and their combination, dependent and
//! independent, corpus and sentence level, unweighted and weighted. The metric is
//! `green_edits::cleme2`; the similarity weights its repository computes with BERTScore
//! come in as numbers (`--pairs` lists what to score, `--similarities` reads the scores).

use anyhow::{bail, Context, Result};
use green_edits::cleme::Options;
use green_edits::cleme2::{self, Factors, Settings, Weigher};
use green_engine::CollectInOrder;
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{emit, write_atomic};
use crate::stats::{write_stats, ShardFile};

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green cleme2 -hyp HYP.m2... -ref REF.m2 [OPTIONS]",
    after_help = super::errant::ONE_DASH
)]
pub struct Args {
    /// Hypothesis M2 files (one or more; ERRANT-style).
    #[arg(long = "hyp", num_args = 1.., required = true, value_name = "HYP")]
    pub hyp: Vec<String>,

    /// The reference M2 file (one annotator per reference).
    #[arg(long = "ref", required = true, value_name = "REF")]
    pub reference: String,

    /// Edits at most this many tokens apart share a chunk.
    #[arg(long, default_value_t = 0)]
    pub merge_distance: usize,

    /// The weighted rows' chunk weights: none (all 1), length (the repository's length
    /// weigher as it runs: CLEME's corpus weights) or similarity (from --similarities).
    #[arg(long, default_value = "length", value_parser = ["none", "length", "similarity"])]
    pub weigher: String,

    /// Write the (candidate, reference) pairs the similarity weigher scores to FILE (TSV:
    /// file, assumption, sentence, reference, candidate, reference text), in order.
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<String>,

    /// With --weigher similarity: the similarity (BERTScore F1 in the original) of every pair
    /// --pairs lists, one number a line in its order.
    #[arg(long, value_name = "FILE", required_if_eq("weigher", "similarity"))]
    pub similarities: Option<String>,

    /// Corpus-level factors HIT,ERR,UND,OVE (summing to 1).
    #[arg(long, value_name = "H,E,U,O", default_value = "0.45,0.35,0.15,0.05", value_parser = parse_factors)]
    pub corpus_factors: Factors,

    /// Sentence-level factors HIT,ERR,UND,OVE (summing to 1).
    #[arg(long, value_name = "H,E,U,O", default_value = "0.35,0.25,0.2,0.2", value_parser = parse_factors)]
    pub sentence_factors: Factors,

    /// Output: text (a table per file), tsv (one row per file and variant) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "tsv", "json"])]
    pub format: String,

    /// Also write every sentence's statistics to FILE (JSON): `green merge` joins the files
    /// of the shards of a corpus into what one run over the whole prints (the length weights
    /// are taken over the whole), and `green paired --stats` tests the systems against the
    /// first. Not with --weigher similarity.
    #[arg(long, value_name = "FILE", conflicts_with = "similarities")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What `--stats` writes: every file's per-sentence statistics and the settings.
pub(crate) type StatsFile = ShardFile<StatsSettings, cleme2::SentenceStats>;

/// What the output depends on beside the statistics.
#[derive(Serialize, serde::Deserialize)]
pub(crate) struct StatsSettings {
    pub(crate) merge_distance: usize,
    pub(crate) corpus_factors: Factors,
    pub(crate) sentence_factors: Factors,
    /// `none` or `length`.
    pub(crate) weigher: String,
}

impl StatsSettings {
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            merge_distance: self.merge_distance,
            corpus_factors: self.corpus_factors,
            sentence_factors: self.sentence_factors,
        }
    }
}

fn parse_factors(s: &str) -> Result<Factors, String> {
    let xs: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{s}' is not four numbers HIT,ERR,UND,OVE"))?;
    let [h, e, u, o] = xs[..] else {
        return Err(format!("'{s}' is not four numbers HIT,ERR,UND,OVE"));
    };
    Factors::new(h, e, u, o).map_err(|e| e.to_string())
}

#[derive(Serialize)]
struct Output<'a> {
    signature: String,
    systems: Vec<System<'a>>,
}

#[derive(Serialize)]
struct System<'a> {
    path: &'a str,
    report: cleme2::Report,
}

/// Pairs of one file: per assumption (dependent, independent), per sentence and reference.
type Pairs = [Vec<Vec<(String, String)>>; 2];

pub fn run(args: &Args) -> Result<()> {
    let files = super::errant::Files {
        hyp: args.hyp.clone(),
        reference: args.reference.clone(),
        beta: 0.5,
    };
    let (reference, hyps, provenance) = files.read_rows(args.rows)?;
    let opts = Options {
        beta: 0.5,
        merge_distance: args.merge_distance,
    };
    let settings = Settings {
        merge_distance: args.merge_distance,
        corpus_factors: args.corpus_factors,
        sentence_factors: args.sentence_factors,
    };
    let similarity = args.weigher == "similarity";
    let want_pairs = similarity || args.pairs.is_some();
    let per_file = args
        .hyp
        .par_iter()
        .zip(&hyps)
        .map(|(path, hyp)| {
            let at = |e| anyhow::anyhow!("{path} against {}: {e}", args.reference);
            let stats = cleme2::corpus_stats(hyp, &reference, &opts).map_err(at)?;
            let pairs: Pairs = if want_pairs {
                let of = |ind| cleme2::similarity_pairs(hyp, &reference, &opts, &stats, ind);
                [of(false).map_err(at)?, of(true).map_err(at)?]
            } else {
                Default::default()
            };
            anyhow::Ok((stats, pairs))
        })
        .collect_in_order::<Vec<_>>()?;
    if let Some(out) = &args.pairs {
        let mut tsv = String::new();
        for (path, (stats, pairs)) in args.hyp.iter().zip(&per_file) {
            for (assumption, groups) in ["dependent", "independent"].iter().zip(pairs) {
                let mut k = 0;
                for (s, st) in stats.iter().enumerate() {
                    for r in 0..st.dependent.len() {
                        for (cand, reftext) in &groups[k] {
                            tsv += &format!(
                                "{path}\t{assumption}\t{}\t{}\t{cand}\t{reftext}\n",
                                s + 1,
                                r + 1
                            );
                        }
                        k += 1;
                    }
                }
            }
        }
        write_atomic(std::path::Path::new(out), tsv.as_bytes())?;
    }
    if !similarity {
        let stats = per_file.into_iter().map(|(stats, _)| stats).collect();
        let settings = StatsSettings {
            merge_distance: args.merge_distance,
            corpus_factors: args.corpus_factors,
            sentence_factors: args.sentence_factors,
            weigher: args.weigher.clone(),
        };
        let signature = cleme2::signature(&settings.settings(), &args.weigher);
        let file = StatsFile::new("cleme2", provenance, settings, signature, &args.hyp, stats)?;
        if let Some(path) = &args.stats {
            write_stats(path, &file)?;
        }
        return emit(&print(&file, &args.format)?);
    }
    let mut scores = Vec::new();
    if let Some(file) = &args.similarities {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        for (i, line) in text.lines().enumerate() {
            let x: f64 = line.trim().parse().map_err(|_| {
                anyhow::anyhow!(
                    "{file}:{}: '{line}' is not a number; give one similarity a line",
                    i + 1
                )
            })?;
            scores.push(x);
        }
    }
    let need: usize = per_file
        .iter()
        .flat_map(|(_, p)| p.iter().flatten())
        .map(Vec::len)
        .sum();
    if similarity && scores.len() != need {
        bail!(
            "{} has {} similarities but the files have {need} pairs to score; score every pair --pairs lists, in its order",
            args.similarities.as_deref().unwrap_or_default(),
            scores.len()
        );
    }
    let mut at = 0;
    let mut systems = Vec::new();
    for (path, (stats, pairs)) in args.hyp.iter().zip(&per_file) {
        let mut weights = Vec::new();
        for groups in pairs {
            let n: usize = groups.iter().map(Vec::len).sum();
            if similarity {
                weights.push(cleme2::similarity_weights(
                    groups,
                    stats,
                    &scores[at..at + n],
                )?);
            }
            at += n;
        }
        let (dep, ind) = match args.weigher.as_str() {
            "none" => (Weigher::None, Weigher::None),
            "length" => (Weigher::Length, Weigher::Length),
            _ => (
                Weigher::Similarity(&weights[0]),
                Weigher::Similarity(&weights[1]),
            ),
        };
        let report =
            cleme2::fold(stats, &settings, dep, ind).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        systems.push(System { path, report });
    }
    let out = Output {
        signature: cleme2::signature(&settings, &args.weigher),
        systems,
    };
    emit(&render(&out, &args.format, &args.weigher)?)
}

/// The output of a run without similarity weights (or of merged shards) in `format`.
pub(crate) fn print(file: &StatsFile, format: &str) -> Result<String> {
    let settings = file.settings.settings();
    let weigher = if file.settings.weigher == "length" {
        Weigher::Length
    } else {
        Weigher::None
    };
    let systems = (file.systems.iter().zip(&file.shard.systems))
        .map(|(path, stats)| {
            let report = cleme2::fold(stats, &settings, weigher, weigher)
                .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            Ok(System { path, report })
        })
        .collect::<Result<Vec<_>>>()?;
    let out = Output {
        signature: file.shard.signature.clone(),
        systems,
    };
    render(&out, format, &file.settings.weigher)
}

/// Text, TSV or JSON of the reports.
fn render(out: &Output<'_>, format: &str, weigher: &str) -> Result<String> {
    Ok(match format {
        "json" => green_output::to_json(&out)?,
        "tsv" => {
            let mut s = String::from(
                "file\tmetric\ttp\tfp\tfn\ttn\tfp_ne\tfp_un\thit\terr\tund\tove\tcom\n",
            );
            for sys in &out.systems {
                for (name, x) in cleme2::rows(&sys.report) {
                    let c = &x.counts;
                    s += &format!(
                        "{}\t{name}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\n",
                        sys.path,
                        c.tp,
                        c.fp,
                        c.fn_,
                        c.tn,
                        c.fp_ne,
                        c.fp_un,
                        x.hit,
                        x.err,
                        x.und,
                        x.ove,
                        x.com
                    );
                }
            }
            s
        }
        _ => {
            let mut s = String::new();
            for sys in &out.systems {
                let r = &sys.report;
                s += &format!(
                    "# {}: {} sentences, weights {weigher}, mean reference chunk length {:.2}\n",
                    sys.path, r.sentences, r.mean_length
                );
                s += &cleme2::render(r);
            }
            s += &format!("# {}\n", out.signature);
            s
        }
    })
}
