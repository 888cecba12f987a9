//! green-metric: what every metric of green has in common.
//!
//! GREEN, GLEU, M2, ERRANT span F and CLEME count different things and choose their
//! references differently, but each splits the same way (sacrebleu's split): statistics of one
//! sentence, computed anywhere and in any order, and a fold over a corpus's sentences in corpus
//! order that turns them into a score. Code that only moves statistics around (shards merged
//! across processes, bootstrap replicates, paired tests) is written once here against
//! [`Metric`], not once per metric.
//!
//! Reference choice lives in the fold: GREEN chooses per sentence, M2 and ERRANT against the
//! running corpus totals, the official GLEU by a seeded draw per iteration. So a [`Shard`]
//! keeps every sentence's statistics, shards merge by concatenation in corpus order, and the
//! score of the merge is the score of one pass, bit for bit.

use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// A metric as per-sentence sufficient statistics and a fold over them.
pub trait Metric {
    /// The statistics of one hypothesis sentence against all its references.
    type Stats: Clone + Serialize + DeserializeOwned + Send + Sync;
    /// What folding sentences gives: totals, chosen references, scores.
    type Totals;

    /// Folds the statistics of sentences in corpus order.
    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a Self::Stats>) -> Self::Totals
    where
        Self::Stats: 'a;

    /// The metric's number for folded totals (F for edit metrics; GREEN; GLEU).
    fn score(&self, totals: &Self::Totals) -> f64;

    /// Sentence-level scores of a corpus: each sentence folded alone, unless the metric's
    /// sentence score depends on the corpus (CLEME weighs by the corpus's mean length).
    fn sentence_scores(&self, stats: &[Self::Stats]) -> Vec<f64> {
        stats
            .iter()
            .map(|s| self.score(&self.fold(std::iter::once(s))))
            .collect()
    }
}

/// The largest β an F-score takes. F_β is computed with β², which overflows to infinity
/// above about 1.34e154 and turns F into NaN (and reference choices by F into arbitrary
/// ones); long before that, from β ≈ 1e8, F_β equals recall to the last bit.
pub const MAX_BETA: f64 = 1e100;

/// `beta` if it is a β an F-score can take: a number from 0 to [`MAX_BETA`].
pub fn check_beta(beta: f64) -> Result<f64, String> {
    if (0.0..=MAX_BETA).contains(&beta) {
        Ok(beta)
    } else {
        Err(format!(
            "{beta} is not a beta; use a number from 0 to {MAX_BETA:e} (above, β² overflows; F at β ≥ 1e8 already equals recall)"
        ))
    }
}

/// The largest count one sentence's statistics can hold: no line has more tokens, n-grams
/// or edits (a line is at most 16 MiB). With every sentence's counts below it, a corpus
/// of fewer than 2^32 sentences folds without a u64 overflowing.
pub const MAX_COUNT: u64 = 1 << 32;

/// Statistics read back from outside (a `--stats` file, a pickle) are checked for what no
/// counter of the metric produces before they are folded, so a damaged or edited file is an
/// error, not a plausible score (or a wrapped-around count).
pub trait Checked {
    /// Why these statistics cannot be a sentence's, if they cannot.
    fn check(&self) -> Result<(), String>;
}

/// Statistics that cannot be merged or folded as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("statistics of '{0}' cannot merge with statistics of '{1}': compute every shard with the same metric and settings")]
    Signature(String, String),
    #[error("statistics of {0} systems cannot merge with statistics of {1}: every shard needs the same systems")]
    Systems(usize, usize),
    #[error("damaged statistics: system {system} has {has} sentences but system 1 has {first}")]
    Ragged {
        system: usize,
        has: usize,
        first: usize,
    },
    #[error("damaged statistics: system {system}, sentence {sentence}: {why}")]
    Damaged {
        system: usize,
        sentence: usize,
        why: String,
    },
    #[error("statistics of '{shard}' cannot be folded by '{metric}'")]
    Metric { shard: String, metric: String },
}

/// The statistics of consecutive sentences of a corpus under one metric, for several systems:
/// `systems[h][k]` is system `h`'s `k`th sentence. Serialise it anywhere; [`Shard::merge`]
/// the shards in corpus order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard<S> {
    /// The signature of the metric and settings that computed the statistics.
    pub signature: String,
    pub systems: Vec<Vec<S>>,
}

impl<S> Shard<S> {
    /// A shard, checked to hold as many sentences for every system.
    pub fn new(signature: String, systems: Vec<Vec<S>>) -> Result<Self, Error> {
        let shard = Shard { signature, systems };
        shard.check()?;
        Ok(shard)
    }

    /// Every system has the same number of sentences (a deserialised shard may not).
    pub fn check(&self) -> Result<(), Error> {
        let first = self.sentences();
        match self.systems.iter().position(|s| s.len() != first) {
            Some(h) => Err(Error::Ragged {
                system: h + 1,
                has: self.systems[h].len(),
                first,
            }),
            None => Ok(()),
        }
    }

    /// [`Shard::check`], and every sentence's statistics [`Checked`].
    pub fn verify(&self) -> Result<(), Error>
    where
        S: Checked,
    {
        self.check()?;
        for (h, system) in self.systems.iter().enumerate() {
            for (k, stats) in system.iter().enumerate() {
                stats.check().map_err(|why| Error::Damaged {
                    system: h + 1,
                    sentence: k + 1,
                    why,
                })?;
            }
        }
        Ok(())
    }

    /// Sentences per system.
    pub fn sentences(&self) -> usize {
        self.systems.first().map_or(0, Vec::len)
    }

    /// Appends `next`, the shard that follows this one in the corpus.
    pub fn merge(mut self, next: Shard<S>) -> Result<Shard<S>, Error> {
        next.check()?;
        if next.signature != self.signature {
            return Err(Error::Signature(self.signature, next.signature));
        }
        if next.systems.len() != self.systems.len() {
            return Err(Error::Systems(self.systems.len(), next.systems.len()));
        }
        for (all, more) in self.systems.iter_mut().zip(next.systems) {
            all.extend(more);
        }
        Ok(self)
    }

    /// Every system's totals under `metric`, whose signature must be the shard's.
    pub fn fold<M: Metric<Stats = S>>(
        &self,
        metric: &M,
        signature: &str,
    ) -> Result<Vec<M::Totals>, Error> {
        self.check()?;
        if signature != self.signature {
            return Err(Error::Metric {
                shard: self.signature.clone(),
                metric: signature.to_string(),
            });
        }
        Ok(self.systems.iter().map(|s| metric.fold(s)).collect())
    }
}

/// System scores of any multiset of a corpus's sentences: what a bootstrap replicate or a
/// paired test needs, for any metric.
pub trait Resample: Send + Sync {
    /// System `h`'s corpus score over `sentences` in that order, the `k`th counted
    /// `weights[k]` times (all 1 for the corpus itself).
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64;

    /// Every system's score (`systems` of them) over the same multiset, as [`score`] gives
    /// them; a metric whose systems share work overrides it.
    ///
    /// [`score`]: Resample::score
    fn scores(&self, sentences: &[usize], weights: &[u32], systems: usize) -> Vec<f64> {
        (0..systems)
            .map(|h| self.score(sentences, weights, h))
            .collect()
    }
}

/// A metric with the statistics of every system and sentence (`stats[system][sentence]`).
pub struct Folds<M: Metric> {
    pub metric: M,
    pub stats: Vec<Vec<M::Stats>>,
}

impl<M: Metric + Send + Sync> Resample for Folds<M> {
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64 {
        let stats = &self.stats[h];
        let repeated = sentences
            .iter()
            .zip(weights)
            .flat_map(|(&s, &w)| std::iter::repeat_n(&stats[s], w as usize));
        self.metric.score(&self.metric.fold(repeated))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A toy edit metric: per sentence (tp, fp, fn) against each reference; the fold picks,
    /// per sentence, the reference that maximises the running corpus F1, as M2 does.
    struct Greedy;

    impl Metric for Greedy {
        type Stats = Vec<(u32, u32, u32)>;
        type Totals = (u64, u64, u64);

        fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a Self::Stats>) -> Self::Totals {
            let f = |t: (u64, u64, u64)| {
                let d = 2 * t.0 + t.1 + t.2;
                if d == 0 {
                    1.0
                } else {
                    2.0 * t.0 as f64 / d as f64
                }
            };
            stats.into_iter().fold((0, 0, 0), |t, s| {
                s.iter()
                    .map(|&(a, b, c)| (t.0 + u64::from(a), t.1 + u64::from(b), t.2 + u64::from(c)))
                    .fold(None, |best: Option<(u64, u64, u64)>, x| match best {
                        Some(b) if f(b) >= f(x) => Some(b),
                        _ => Some(x),
                    })
                    .unwrap_or(t)
            })
        }

        fn score(&self, t: &Self::Totals) -> f64 {
            let d = 2 * t.0 + t.1 + t.2;
            if d == 0 {
                1.0
            } else {
                2.0 * t.0 as f64 / d as f64
            }
        }
    }

    fn corpus() -> impl Strategy<Value = Vec<Vec<Vec<(u32, u32, u32)>>>> {
        (1usize..4, 0usize..40).prop_flat_map(|(systems, sentences)| {
            prop::collection::vec(
                prop::collection::vec(
                    prop::collection::vec((0u32..5, 0u32..5, 0u32..5), 1..4),
                    sentences,
                ),
                systems,
            )
        })
    }

    proptest! {
        /// Shards cut anywhere, sent through JSON and merged fold to one pass's totals.
        #[test]
        fn merged_shards_fold_like_one_pass(stats in corpus(), cuts in prop::collection::vec(0usize..40, 0..4)) {
            let whole = Shard::new("toy".into(), stats.clone()).unwrap();
            let n = whole.sentences();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(n)).chain([0, n]).collect();
            cuts.sort_unstable();
            let shards = cuts.windows(2).map(|w| {
                let part = stats.iter().map(|s| s[w[0]..w[1]].to_vec()).collect();
                let json = serde_json::to_string(&Shard::new("toy".into(), part).unwrap()).unwrap();
                serde_json::from_str::<Shard<_>>(&json).unwrap()
            });
            let merged = shards.reduce(|a, b| a.merge(b).unwrap()).unwrap();
            prop_assert_eq!(merged.fold(&Greedy, "toy").unwrap(), whole.fold(&Greedy, "toy").unwrap());
        }

        /// Weights are repetitions: a resampled score is the fold of the repeated sentences.
        #[test]
        fn weights_repeat_sentences(stats in corpus(), picks in prop::collection::vec((0usize..40, 0u32..3), 0..20)) {
            let n = stats[0].len();
            let picks: Vec<(usize, u32)> = picks.into_iter().filter(|&(s, _)| s < n).collect();
            let (sentences, weights): (Vec<usize>, Vec<u32>) = picks.iter().copied().unzip();
            let folds = Folds { metric: Greedy, stats: stats.clone() };
            for (h, system) in stats.iter().enumerate() {
                let repeated: Vec<&Vec<(u32, u32, u32)>> = picks
                    .iter()
                    .flat_map(|&(s, w)| std::iter::repeat_n(&system[s], w as usize))
                    .collect();
                let want = Greedy.score(&Greedy.fold(repeated));
                prop_assert_eq!(folds.score(&sentences, &weights, h).to_bits(), want.to_bits());
            }
        }
    }

    #[test]
    fn shards_of_other_settings_or_systems_do_not_merge() {
        let a = Shard::new("m2|beta:0.5".into(), vec![vec![vec![(1, 0, 0)]]]).unwrap();
        let b = Shard::new("m2|beta:1".into(), vec![vec![vec![(1, 0, 0)]]]).unwrap();
        assert!(matches!(a.clone().merge(b), Err(Error::Signature(..))));
        let two = Shard::new("m2|beta:0.5".into(), vec![vec![], vec![]]).unwrap();
        assert_eq!(a.clone().merge(two), Err(Error::Systems(1, 2)));
        assert!(matches!(
            Shard::new("x".into(), vec![vec![vec![(1, 0, 0)]], vec![]]),
            Err(Error::Ragged {
                system: 2,
                has: 0,
                first: 1
            })
        ));
        assert!(matches!(
            a.fold(&Greedy, "m2|beta:1"),
            Err(Error::Metric { .. })
        ));
    }
}
