//! GREEN's output: every system at every beta with its per-order regions, scores ×100
//! unrounded, and the reference `green`/`sgreen`/`mgreen` text drawn from the same values.

use green_engine::corpus::SentenceScores;
use green_engine::{Regions, Report, Signature};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::number::{pretty_table, python_float_repr, quantize};
use crate::{systems, Level, Output};

/// GREEN's output.
pub type GreenOutput = Output<Green, Header>;

/// What GREEN says about the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub level: Level,
    pub n: usize,
    pub betas: Vec<Beta>,
    pub tokenizer: String,
    pub normalization: String,
    pub source: Option<String>,
    pub references: Vec<String>,
    pub sentences: u64,
    pub scale: String,
}

/// What [`Header::scale`] says.
pub const SCALE: &str = "scores and P/R/F are percentages (x100), unrounded";

/// One system: a result per beta.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Green {
    pub results: Vec<AtBeta>,
}

/// One system at one beta. `score` is the level's score; sentence scores and the chosen
/// references are there at sentence level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AtBeta {
    pub beta: Beta,
    pub alpha: f64,
    pub signature: String,
    pub score: f64,
    pub corpus: f64,
    pub mean: f64,
    pub orders: Vec<Order>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentence_scores: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_references: Option<Vec<usize>>,
}

/// Corpus regions and scores (×100) of one n-gram order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Order {
    pub n: usize,
    #[serde(flatten)]
    pub regions: Regions,
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub p: f64,
    pub r: f64,
    pub f: f64,
    pub cum_p: f64,
    pub cum_r: f64,
    pub cum_f: f64,
}

/// A beta: a JSON number, or the string `"inf"` for infinity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Beta(pub f64);

impl Serialize for Beta {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str("inf")
        }
    }
}

impl<'de> Deserialize<'de> for Beta {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(x) => Ok(Beta(x)),
            Raw::Text(t) if t == "inf" => Ok(Beta(f64::INFINITY)),
            Raw::Text(t) => Err(serde::de::Error::custom(format!(
                "beta '{t}' is neither a number nor \"inf\""
            ))),
        }
    }
}

/// The files of a run, as they are named in the output.
pub struct Files<'a> {
    pub source: Option<&'a str>,
    pub references: &'a [String],
    pub systems: &'a [String],
}

/// The output of `report` at `level`. `base` is the signature without its betas and level;
/// `sentences` (each sentence's scores and chosen references) is needed at sentence level.
pub fn output(
    report: &Report,
    sentences: Option<&[SentenceScores]>,
    level: Level,
    base: &Signature,
    files: &Files,
) -> GreenOutput {
    let signature = |betas: Vec<f64>| {
        Signature {
            betas,
            level: level.name().into(),
            ..base.clone()
        }
        .to_string()
    };
    let results = report
        .systems
        .iter()
        .enumerate()
        .map(|(h, sys)| Green {
            results: sys
                .betas
                .iter()
                .enumerate()
                .map(|(b, br)| {
                    let at_sentences = sentences.filter(|_| level == Level::Sentence);
                    AtBeta {
                        beta: Beta(br.beta),
                        alpha: br.alpha,
                        signature: signature(vec![br.beta]),
                        score: 100.0
                            * if level == Level::Mean {
                                br.mean
                            } else {
                                br.corpus
                            },
                        corpus: br.corpus * 100.0,
                        mean: br.mean * 100.0,
                        orders: br.orders.iter().map(order).collect(),
                        sentence_scores: at_sentences
                            .map(|s| s.iter().map(|s| s.scores[b][h] * 100.0).collect()),
                        chosen_references: at_sentences
                            .map(|s| s.iter().map(|s| s.chosen[b][h]).collect()),
                    }
                })
                .collect(),
        })
        .collect();
    Output {
        signature: signature(report.config.betas.clone()),
        header: Header {
            level,
            n: report.config.n,
            betas: report.config.betas.iter().map(|b| Beta(*b)).collect(),
            tokenizer: base.tokenizer.clone(),
            normalization: base.normalization.to_string(),
            source: files.source.map(str::to_owned),
            references: files.references.to_vec(),
            sentences: report.sentences,
            scale: SCALE.into(),
        },
        systems: systems(files.systems, results),
    }
}

/// An order's counts and scores as the output gives them (×100).
pub fn order(o: &green_engine::OrderScore) -> Order {
    Order {
        n: o.order,
        regions: o.regions,
        tp: o.tp,
        fp: o.fp,
        fn_: o.fn_,
        p: o.p * 100.0,
        r: o.r * 100.0,
        f: o.f * 100.0,
        cum_p: o.cum_p * 100.0,
        cum_r: o.cum_r * 100.0,
        cum_f: o.cum_f * 100.0,
    }
}

/// How the corpus level is drawn: the reference's table per system and beta (`-v`), or one
/// line of alpha, beta, cumulative P, R, F (`-v -l`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbose {
    No,
    Tables,
    Lines,
}

/// The reference's text: at corpus and mean level the alpha and beta lines and a line per
/// system (or `verbose` tables), at sentence level a line per sentence with a column per
/// beta and system. Numbers as the reference rounds them to `digits`.
pub fn text(out: &GreenOutput, digits: usize, verbose: Verbose) -> String {
    let d = digits;
    let mut s = String::new();
    match out.header.level {
        Level::Sentence => {
            let rows = out.header.sentences as usize;
            let columns: Vec<&[f64]> = (0..out.header.betas.len())
                .flat_map(|b| {
                    out.systems.iter().map(move |sys| {
                        sys.result.results[b]
                            .sentence_scores
                            .as_deref()
                            .unwrap_or_default()
                    })
                })
                .collect();
            for i in 0..rows {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| c.get(i).map_or_else(String::new, |x| quantize(*x, d)))
                    .collect();
                s.push_str(&cells.join("\t"));
                s.push('\n');
            }
        }
        Level::Corpus if verbose != Verbose::No => {
            for sys in &out.systems {
                for b in &sys.result.results {
                    if verbose == Verbose::Lines {
                        let last = &b.orders[b.orders.len() - 1];
                        let cells = [
                            quantize(b.alpha, d),
                            quantize(b.beta.0, d),
                            quantize(last.cum_p, d),
                            quantize(last.cum_r, d),
                            quantize(last.cum_f, d),
                        ];
                        s.push_str(&cells.join("\t"));
                        s.push('\n');
                    } else {
                        s.push_str(&format!(
                            "{}\talpha={}\tbeta={}\n",
                            sys.path,
                            quantize(b.alpha, d),
                            quantize(b.beta.0, d)
                        ));
                        s.push_str(&verbose_table(&b.orders, b.beta.0, d));
                    }
                }
            }
        }
        Level::Corpus | Level::Mean => {
            let alphas: Vec<String> = out
                .header
                .betas
                .iter()
                .map(|b| quantize(green_engine::score::alpha(b.0), d))
                .collect();
            let betas: Vec<String> = out.header.betas.iter().map(|b| quantize(b.0, d)).collect();
            s.push_str(&format!(
                "alpha\t{}\nbeta\t{}\n",
                alphas.join("\t"),
                betas.join("\t")
            ));
            for sys in &out.systems {
                let cells: Vec<String> = sys
                    .result
                    .results
                    .iter()
                    .map(|b| quantize(b.score, d))
                    .collect();
                s.push_str(&format!("{}\t{}\n", sys.path, cells.join("\t")));
            }
        }
    }
    s
}

/// The verbose table of one system at one beta, as the reference draws it.
pub fn verbose_table(orders: &[Order], beta: f64, digits: usize) -> String {
    let mut header: Vec<String> = [
        "", "tk", "td", "ti", "od", "oi", "ud", "ui", "TP", "FP", "FN", "P", "R",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.push(format!("F{}", python_float_repr(beta)));
    header.extend(["cumP", "cumR", "cumF"].iter().map(|s| s.to_string()));
    let rows: Vec<Vec<String>> = orders
        .iter()
        .map(|o| {
            let r = &o.regions;
            let mut row: Vec<String> = [
                o.n as u64, r.tk, r.td, r.ti, r.od, r.oi, r.ud, r.ui, o.tp, o.fp, o.fn_,
            ]
            .iter()
            .map(u64::to_string)
            .collect();
            row.extend(
                [o.p, o.r, o.f, o.cum_p, o.cum_r, o.cum_f]
                    .iter()
                    .map(|v| quantize(*v, digits)),
            );
            row
        })
        .collect();
    pretty_table(&header, &rows)
}
