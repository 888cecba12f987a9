//! The outputs of the edit-based metrics, M2 (MaxMatch), ERRANT's span F and CLEME: the
//! scorers' corpus numbers per system, and with `verbose` every sentence's choice.

use std::collections::BTreeMap;

use green_edits::{cleme, compare, pyfloat};
use green_m2::{Chosen, Summary};
use serde::{Deserialize, Serialize};

use crate::Output;

/// One system's M2 score: precision, recall, F and the counts, and with `verbose` every
/// sentence's chosen annotator and edits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MaxMatch {
    #[serde(flatten)]
    pub summary: Summary,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<Chosen>>,
}

/// The M2 output of every system's statistics (`systems[h]`, one entry per sentence).
pub fn maxmatch(
    signature: String,
    paths: &[String],
    systems: &[Vec<green_m2::SentenceStats>],
    beta: f64,
    verbose: bool,
) -> Output<MaxMatch> {
    let results = systems
        .iter()
        .map(|stats| {
            let report = green_m2::fold(stats, beta);
            MaxMatch {
                summary: report.summary(),
                sentences: verbose.then_some(report.sentences),
            }
        })
        .collect();
    Output::new(signature, paths, results)
}

/// One system's ERRANT span F: the corpus counts and scores, the same per error type at the
/// chosen category level, and with `verbose` the pair chosen in each sentence that counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Errant {
    pub score: compare::Score,
    pub categories: BTreeMap<String, compare::Score>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<ErrantSentence>>,
}

/// The (hypothesis, reference) annotator pair chosen for a sentence (1-based).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrantSentence {
    pub sentence: usize,
    pub pair: compare::Pair,
}

/// The ERRANT output of every system's statistics, categories at `cat` level (1, 2 or 3).
pub fn errant(
    signature: String,
    paths: &[String],
    systems: &[Vec<compare::SentenceStats>],
    beta: f64,
    cat: u8,
    verbose: bool,
) -> Output<Errant> {
    let results = systems
        .iter()
        .map(|stats| {
            let report = compare::fold(stats, beta);
            let categories = compare::categories_at(&report.categories, cat)
                .into_iter()
                .map(|(kind, [tp, fp, fn_])| {
                    let (p, r, f) = pyfloat::prf(tp as f64, fp as f64, fn_ as f64, beta);
                    (
                        kind,
                        compare::Score {
                            tp,
                            fp,
                            fn_,
                            p,
                            r,
                            f,
                        },
                    )
                })
                .collect();
            let sentences = verbose.then(|| {
                chosen(stats, &report)
                    .into_iter()
                    .map(|(i, pair)| ErrantSentence {
                        sentence: i + 1,
                        pair: pair.clone(),
                    })
                    .collect()
            });
            Errant {
                score: report.score,
                categories,
                sentences,
            }
        })
        .collect();
    Output::new(signature, paths, results)
}

/// The pair chosen for each sentence that counts, with the sentence's 0-based index.
pub fn chosen<'a>(
    stats: &'a [compare::SentenceStats],
    report: &compare::Report,
) -> Vec<(usize, &'a compare::Pair)> {
    stats
        .iter()
        .zip(&report.chosen)
        .enumerate()
        .filter_map(|(i, (s, &c))| s.pairs.get(c).map(|p| (i, p)))
        .collect()
}

/// One system's CLEME report: dependent and independent, corpus and sentence level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cleme {
    pub report: cleme::Report,
}

/// The CLEME output of every system's statistics; a system whose statistics cannot fold is
/// an error naming its path.
pub fn cleme(
    signature: String,
    paths: &[String],
    systems: &[Vec<cleme::SentenceStats>],
    opts: &cleme::Options,
) -> Result<Output<Cleme>, String> {
    let results = paths
        .iter()
        .zip(systems)
        .map(|(path, stats)| {
            cleme::fold(stats, opts)
                .map(|report| Cleme { report })
                .map_err(|e| format!("{path}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Output::new(signature, paths, results))
}
