//! Bootstrap confidence intervals for every number of a meta-evaluation row.
//!
//! A correlation over 12 systems or an accuracy over a few thousand judgments is one draw
//! from a noisy process; a table that ranks metric configurations by it needs intervals.
//! The unit resampled is the *sentence*: all judgments of a sentence (several annotators,
//! many system pairs) are drawn together, because they are not independent. Each replicate
//! recomputes both sides from the resampled sentences: the human Expected Wins from the
//! weighted win counts, and the metric's system scores from per-sentence statistics (GREEN:
//! the chosen references' region counts; mean level and the model-based rows of sentence
//! scores: the sentence scores; M2, ERRANT, CLEME and the PT-M2 corpus row: their greedy
//! folds rerun over the replicate's sentences; corpus GLEU: its fixed
//! reference draws summed over the replicate's sentences; rating levels: each set's
//! comparisons rated again, a sentence drawn k times played k times), so nothing is
//! recounted. Intervals are percentile intervals from `green_signif`, whose generator and
//! per-replicate streams make them identical at any thread count.

use std::collections::HashMap;

use green_metric::Resample;
use green_signif::{bootstrap_many, Interval};

use crate::eval::{Agreement, HumanScore, Prepared};
use crate::human;
use crate::judgments::Matrix;
use crate::metric::{Level, Scores};
use crate::rating::{Comparisons, Rating};
use crate::stats;
use crate::Error;

/// How to bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Bootstrap {
    pub replicates: usize,
    pub seed: u64,
    /// Coverage, e.g. 0.95.
    pub level: f64,
}

/// Largest number of replicates accepted.
pub const MAX_REPLICATES: usize = 100_000;

impl Bootstrap {
    pub fn new(replicates: usize, seed: u64, level: f64) -> Result<Bootstrap, Error> {
        if replicates == 0 || replicates > MAX_REPLICATES {
            return Err(Error::Config(format!(
                "bootstrap replicates must be between 1 and {MAX_REPLICATES} (got {replicates})"
            )));
        }
        if !(level > 0.0 && level < 1.0) {
            return Err(Error::Config(format!(
                "bootstrap coverage must be between 0 and 1, e.g. 0.95 (got {level})"
            )));
        }
        Ok(Bootstrap {
            replicates,
            seed,
            level,
        })
    }
}

/// The metric's system scores of one view under sentence weights.
enum SystemScores<'a> {
    /// Weighted mean of sentence scores.
    Mean(&'a [Vec<f64>]),
    /// The metric's corpus fold rerun over the resampled sentences (GREEN's chosen counts;
    /// M2's, ERRANT's and CLEME's greedy reference choice).
    Refold(&'a dyn Resample),
    /// A rating of each set's comparisons on the resampled sentences (`[set]`).
    Rating(Rating, Vec<Comparisons>),
}

impl SystemScores<'_> {
    /// Every set's system scores (`systems` long) under sentence weights.
    fn of(
        &self,
        sentences: &[usize],
        weights: &[u32],
        systems: usize,
        sets: usize,
    ) -> Vec<Vec<f64>> {
        let view = match self {
            SystemScores::Rating(rating, per_set) => {
                return per_set
                    .iter()
                    .map(|c| c.rate(*rating, Some(weights), systems))
                    .collect();
            }
            SystemScores::Refold(folds) => folds.scores(sentences, weights, systems),
            SystemScores::Mean(sentence) => {
                let total: u32 = weights.iter().sum();
                (0..systems)
                    .map(|h| {
                        let s: f64 = sentences
                            .iter()
                            .zip(weights)
                            .map(|(&s, &w)| sentence[s][h] * f64::from(w))
                            .sum();
                        s / f64::from(total.max(1))
                    })
                    .collect()
            }
        };
        vec![view; sets]
    }
}

/// Intervals aligned with [`Prepared::columns`] of `scores` at `level`; `None` where a
/// statistic is undefined. Corpus M2, ERRANT, CLEME and PT-M2 refold their greedy reference
/// choice over each replicate's sentences; corpus GLEU keeps its reference draws and sums
/// the replicate's sentences.
pub fn intervals(
    prep: &Prepared,
    scores: &Scores,
    level: Level,
    human_score: HumanScore,
    boot: &Bootstrap,
) -> Result<Vec<Option<Interval>>, Error> {
    if human_score == HumanScore::Ts {
        return Err(Error::Config(
            "the bootstrap recomputes the human scores on every replicate, which TrueSkill makes too slow: use --human ew (or published-ew/published-ts, which then stay fixed)".into(),
        ));
    }
    let d = prep.data;
    let systems = d.descriptor.systems.len();
    let sets = &d.sets;
    let mut system_level = Vec::new();
    let mut sentence_level = Vec::new();
    for (v, view) in d.views.iter().enumerate() {
        let metric = match level {
            Level::Mean => SystemScores::Mean(&scores.sentence),
            Level::Corpus => SystemScores::Refold(scores.folds.as_deref().ok_or_else(|| {
                Error::Config("internal: corpus scores without their statistics".into())
            })?),
            Level::Rating(rating) => SystemScores::Rating(
                rating,
                (sets.iter())
                    .map(|(_, m)| Comparisons::new(&scores.sentence, &view.sentences, m))
                    .collect(),
            ),
        };
        let position: HashMap<usize, usize> = view
            .sentences
            .iter()
            .enumerate()
            .map(|(k, &s)| (s, k))
            .collect();
        // Per sentence of the view: its human wins (winner, loser), from the items as published
        // (an erratum changes only the sentence-level pairs).
        let mut wins: Vec<Vec<(usize, usize)>> = vec![Vec::new(); view.sentences.len()];
        for p in &crate::eval::human_pairs(&view.items) {
            if let Some(&k) = position.get(&p.sentence) {
                wins[k].push((p.better, p.worse));
            }
        }
        // Per set and sentence: the metric's agreement with the human pairs.
        let agreement: Vec<Vec<Agreement>> = sets
            .iter()
            .map(|(_, members)| {
                let mut in_set = vec![false; systems];
                members.iter().for_each(|&s| in_set[s] = true);
                let mut per = vec![Agreement::default(); view.sentences.len()];
                for p in &prep.pairs[v] {
                    let Some(&k) = position.get(&p.sentence) else {
                        continue;
                    };
                    if in_set[p.better] && in_set[p.worse] {
                        let one = crate::eval::agreement(
                            std::slice::from_ref(p),
                            &scores.sentence,
                            &in_set,
                        );
                        per[k].agree += one.agree;
                        per[k].disagree += one.disagree;
                        per[k].ties += one.ties;
                    }
                }
                per
            })
            .collect();
        let stat = |w: &[u32]| -> Vec<Option<f64>> {
            let human = match human_score {
                HumanScore::Ew => {
                    let mut m = Matrix {
                        wins: vec![vec![0; systems]; systems],
                        ties: vec![vec![0; systems]; systems],
                    };
                    for (pairs, &k) in wins.iter().zip(w) {
                        for &(a, b) in pairs {
                            m.wins[a][b] += u64::from(k);
                        }
                    }
                    human::expected_wins(&m)
                }
                _ => prep.human[v].clone(),
            };
            let metric = metric.of(&view.sentences, w, systems, sets.len());
            let mut out = Vec::with_capacity(sets.len() * 4);
            for ((_, members), metric) in sets.iter().zip(&metric) {
                let m: Vec<f64> = members.iter().map(|&s| metric[s]).collect();
                let h: Vec<f64> = members.iter().map(|&s| human[s]).collect();
                out.push(stats::pearson(&m, &h));
                out.push(stats::spearman(&m, &h));
            }
            for per in &agreement {
                let mut a = Agreement::default();
                for (x, &k) in per.iter().zip(w) {
                    a.agree += x.agree * u64::from(k);
                    a.disagree += x.disagree * u64::from(k);
                    a.ties += x.ties * u64::from(k);
                }
                out.push(a.accuracy(prep.ties));
                out.push(a.tau(prep.ties));
            }
            out
        };
        let seed = boot.seed ^ (v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut all = bootstrap_many(
            view.sentences.len(),
            boot.replicates,
            seed,
            boot.level,
            sets.len() * 4,
            stat,
        )
        .map_err(|e| Error::Config(format!("{} view {}: {e}", d.descriptor.name, view.name)))?;
        sentence_level.extend(all.split_off(sets.len() * 2));
        system_level.extend(all);
    }
    system_level.extend(sentence_level);
    Ok(system_level)
}
