//! Metric against people: system-level correlations, sentence-level agreement, windows.
//!
//! Human system scores are computed once per dataset view (Expected Wins, TrueSkill or the
//! published ones); each metric configuration then gives one row of numbers: per view and
//! system set, Pearson r and Spearman rho of its system scores against the human ones, and
//! the pairwise accuracy and Kendall tau of its sentence scores against every non-tied
//! human pairwise judgment.

use std::cmp::Ordering;
use std::str::FromStr;

use crate::dataset::Dataset;
use crate::human::{self, TrueSkill};
use crate::judgments::Judgments;
use crate::metric::Scores;
use crate::stats;
use crate::Error;

/// Which human system score the metric is correlated with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HumanScore {
    /// Expected Wins recomputed from the judgments (the GREEN paper's choice; default).
    Ew,
    /// TrueSkill recomputed from the judgments (seeded).
    Ts,
    /// The dataset's published Expected Wins.
    PublishedEw,
    /// The dataset's published TrueSkill.
    PublishedTs,
}

impl FromStr for HumanScore {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "ew" => Ok(HumanScore::Ew),
            "ts" => Ok(HumanScore::Ts),
            "published-ew" => Ok(HumanScore::PublishedEw),
            "published-ts" => Ok(HumanScore::PublishedTs),
            _ => Err(Error::Config(format!(
                "unknown human score '{s}'; use ew, ts, published-ew or published-ts"
            ))),
        }
    }
}

/// How sentence pairs the metric ties are counted (the human ties are always dropped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TiePolicy {
    /// In the denominator only: acc = A/(A+D+T), tau = (A−D)/(A+D+T). SEEDA's published
    /// tables imply this; default.
    Denominator,
    /// Dropped: acc = A/(A+D), tau = (A−D)/(A+D).
    Exclude,
    /// Counted as disagreements (WMT14's "tau-like"): acc = A/(A+D+T), tau = (A−D−T)/(A+D+T).
    Discordant,
}

impl FromStr for TiePolicy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "denominator" => Ok(TiePolicy::Denominator),
            "exclude" => Ok(TiePolicy::Exclude),
            "discordant" => Ok(TiePolicy::Discordant),
            _ => Err(Error::Config(format!(
                "unknown tie policy '{s}'; use denominator, exclude or discordant"
            ))),
        }
    }
}

/// Agreement of the metric with the human pairwise judgments of sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Agreement {
    pub agree: u64,
    pub disagree: u64,
    /// The metric ties a pair the human did not.
    pub ties: u64,
}

impl Agreement {
    pub fn accuracy(&self, policy: TiePolicy) -> Option<f64> {
        let (a, d, t) = (self.agree as f64, self.disagree as f64, self.ties as f64);
        let den = if policy == TiePolicy::Exclude {
            a + d
        } else {
            a + d + t
        };
        (den > 0.0).then(|| a / den)
    }

    pub fn tau(&self, policy: TiePolicy) -> Option<f64> {
        let (a, d, t) = (self.agree as f64, self.disagree as f64, self.ties as f64);
        match policy {
            TiePolicy::Denominator => (a + d + t > 0.0).then(|| (a - d) / (a + d + t)),
            TiePolicy::Exclude => (a + d > 0.0).then(|| (a - d) / (a + d)),
            TiePolicy::Discordant => (a + d + t > 0.0).then(|| (a - d - t) / (a + d + t)),
        }
    }
}

/// A non-tied human pairwise judgment: on `sentence`, system `better` beat `worse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HumanPair {
    pub sentence: usize,
    pub better: usize,
    pub worse: usize,
}

/// Every non-tied pairwise judgment of a view.
pub fn human_pairs(items: &[(usize, crate::judgments::RankingItem)]) -> Vec<HumanPair> {
    let mut out = Vec::new();
    for (s, item) in items {
        for (a, b, o) in item.pairs() {
            match o {
                Ordering::Greater => out.push(HumanPair {
                    sentence: *s,
                    better: a,
                    worse: b,
                }),
                Ordering::Less => out.push(HumanPair {
                    sentence: *s,
                    better: b,
                    worse: a,
                }),
                Ordering::Equal => {}
            }
        }
    }
    out
}

/// Count how the metric's sentence scores order the human pairs whose systems are both in `set`.
pub fn agreement(pairs: &[HumanPair], sentence_scores: &[Vec<f64>], in_set: &[bool]) -> Agreement {
    let mut a = Agreement::default();
    for p in pairs.iter().filter(|p| in_set[p.better] && in_set[p.worse]) {
        let row = &sentence_scores[p.sentence];
        match row[p.better].partial_cmp(&row[p.worse]) {
            Some(Ordering::Greater) => a.agree += 1,
            Some(Ordering::Less) => a.disagree += 1,
            _ => a.ties += 1,
        }
    }
    a
}

/// Human system scores of every view of a dataset.
pub fn human_scores(
    data: &Dataset,
    which: HumanScore,
    ts: &TrueSkill,
) -> Result<Vec<Vec<f64>>, Error> {
    let n = data.descriptor.systems.len();
    data.views
        .iter()
        .map(|v| match which {
            HumanScore::Ew => Ok(human::expected_wins(&Judgments::win_matrix(
                n,
                v.items.iter().map(|(_, i)| i),
            ))),
            HumanScore::Ts => ts.rate(n, &human::matches(v.items.iter().map(|(_, i)| i))),
            HumanScore::PublishedEw | HumanScore::PublishedTs => {
                let p = if which == HumanScore::PublishedEw {
                    &v.published_ew
                } else {
                    &v.published_ts
                };
                p.clone().ok_or_else(|| {
                    Error::Config(format!(
                        "{} view {} has no published {} scores; use --human ew or ts",
                        data.descriptor.name,
                        v.name,
                        if which == HumanScore::PublishedEw {
                            "EW"
                        } else {
                            "TS"
                        }
                    ))
                })
            }
        })
        .collect()
}

/// One column of the table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Column {
    pub dataset: String,
    pub view: String,
    /// Empty when the dataset has a single system set.
    pub set: String,
    /// `system` or `sentence`.
    pub level: &'static str,
    /// `r`, `rho`, `acc` or `tau`.
    pub stat: &'static str,
}

impl Column {
    pub fn label(&self) -> String {
        let mut s = self.view.clone();
        if !self.set.is_empty() {
            s = format!("{s} {}", self.set);
        }
        let level = if self.level == "system" {
            "sys"
        } else {
            "sent"
        };
        format!("{s} {level} {}", self.stat)
    }
}

/// A dataset ready to be evaluated against: human scores and pairs, computed once.
pub struct Prepared<'a> {
    pub data: &'a Dataset,
    /// `[view][system]`.
    pub human: Vec<Vec<f64>>,
    /// `[view]`: the non-tied pairs of the view's sentence-level items (see
    /// [`crate::dataset::View::sentence_items`]).
    pub pairs: Vec<Vec<HumanPair>>,
    pub ties: TiePolicy,
    pub windows: Vec<usize>,
}

/// Correlation inside one window of systems sorted by human score.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Window {
    pub dataset: String,
    pub view: String,
    pub size: usize,
    /// 1-based human rank of the best system in the window.
    pub start: usize,
    pub systems: Vec<String>,
    pub r: Option<f64>,
    pub rho: Option<f64>,
}

impl<'a> Prepared<'a> {
    pub fn new(
        data: &'a Dataset,
        human: Vec<Vec<f64>>,
        ties: TiePolicy,
        windows: Vec<usize>,
    ) -> Self {
        let pairs = (data.views.iter())
            .map(|v| human_pairs(&v.sentence_items))
            .collect();
        Prepared {
            data,
            human,
            pairs,
            ties,
            windows,
        }
    }

    /// The columns, in the order [`Prepared::row`] fills them.
    pub fn columns(&self) -> Vec<Column> {
        let d = self.data;
        let mut out = Vec::new();
        for level in ["system", "sentence"] {
            for v in &d.views {
                for (set, _) in &d.sets {
                    for stat in if level == "system" {
                        ["r", "rho"]
                    } else {
                        ["acc", "tau"]
                    } {
                        out.push(Column {
                            dataset: d.descriptor.name.clone(),
                            view: v.name.clone(),
                            // A dataset with one system set does not name it.
                            set: if d.sets.len() > 1 {
                                set.clone()
                            } else {
                                String::new()
                            },
                            level,
                            stat,
                        });
                    }
                }
            }
        }
        out
    }

    /// One metric configuration's numbers, aligned with [`Prepared::columns`].
    pub fn row(&self, scores: &Scores) -> Vec<Option<f64>> {
        let d = self.data;
        let mut out = self.system_values(scores);
        for (v, _) in d.views.iter().enumerate() {
            for (_, members) in &d.sets {
                let mut in_set = vec![false; d.descriptor.systems.len()];
                for &s in members {
                    in_set[s] = true;
                }
                let a = agreement(&self.pairs[v], &scores.sentence, &in_set);
                out.push(a.accuracy(self.ties));
                out.push(a.tau(self.ties));
            }
        }
        out
    }

    /// System-level r and rho per view and set.
    fn system_values(&self, scores: &Scores) -> Vec<Option<f64>> {
        let d = self.data;
        let mut out = Vec::new();
        for (v, _) in d.views.iter().enumerate() {
            for (set, (_, members)) in d.sets.iter().enumerate() {
                let system = scores.of_set(v, set);
                let m: Vec<f64> = members.iter().map(|&s| system[s]).collect();
                let h: Vec<f64> = members.iter().map(|&s| self.human[v][s]).collect();
                out.push(stats::pearson(&m, &h));
                out.push(stats::spearman(&m, &h));
            }
        }
        out
    }

    /// Exact two-sided permutation p-values of the system-level r and rho, aligned with
    /// [`Prepared::columns`]: `None` at sentence level and for sets of more than 8 systems
    /// (see [`stats::exact_permutation_p`]).
    pub fn permutation_p(&self, scores: &Scores) -> Vec<Option<f64>> {
        let d = self.data;
        let mut out = Vec::new();
        for (v, _) in d.views.iter().enumerate() {
            for (set, (_, members)) in d.sets.iter().enumerate() {
                let system = scores.of_set(v, set);
                let m: Vec<f64> = members.iter().map(|&s| system[s]).collect();
                let h: Vec<f64> = members.iter().map(|&s| self.human[v][s]).collect();
                out.push(stats::exact_permutation_p(&m, &h, stats::pearson));
                out.push(stats::exact_permutation_p(&m, &h, stats::spearman));
            }
        }
        out.resize(out.len() * 2, None);
        out
    }

    /// [`Prepared::row`] for scores without sentence scores: the sentence-level columns are
    /// `None`.
    pub fn row_system_only(&self, scores: &Scores) -> Vec<Option<f64>> {
        let mut out = self.system_values(scores);
        out.resize(out.len() * 2, None);
        out
    }

    /// Window analysis of every view on the descriptor's `window_set`.
    pub fn windows(&self, scores: &Scores) -> Vec<Window> {
        let d = self.data;
        let Some(index) = d
            .descriptor
            .window_set
            .as_ref()
            .and_then(|w| d.sets.iter().position(|(n, _)| n == w))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (v, view) in d.views.iter().enumerate() {
            let system = scores.of_set(v, index);
            let mut sorted = d.sets[index].1.clone();
            sorted.sort_by(|&a, &b| self.human[v][b].total_cmp(&self.human[v][a]));
            for &size in &self.windows {
                for start in 0..(sorted.len() + 1).saturating_sub(size) {
                    let win = &sorted[start..start + size];
                    let m: Vec<f64> = win.iter().map(|&s| system[s]).collect();
                    let h: Vec<f64> = win.iter().map(|&s| self.human[v][s]).collect();
                    out.push(Window {
                        dataset: d.descriptor.name.clone(),
                        view: view.name.clone(),
                        size,
                        start: start + 1,
                        systems: win
                            .iter()
                            .map(|&s| d.descriptor.systems[s].clone())
                            .collect(),
                        r: stats::pearson(&m, &h),
                        rho: stats::spearman(&m, &h),
                    });
                }
            }
        }
        out
    }
}

/// Correlation of system-level metric scores with human scores on a set (for callers
/// that need one number).
pub fn correlate(metric: &[f64], human: &[f64], members: &[usize]) -> (Option<f64>, Option<f64>) {
    let m: Vec<f64> = members.iter().map(|&s| metric[s]).collect();
    let h: Vec<f64> = members.iter().map(|&s| human[s]).collect();
    (stats::pearson(&m, &h), stats::spearman(&m, &h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgments::test_item as item;

    #[test]
    fn sentence_agreement_by_hand() {
        // Sentence 0: A(1) > B(2), A = C (tie: dropped), C(1) > B(2).
        // Sentence 1: B(1) > C(3).
        let items = vec![
            (0, item(&[(0, 1), (1, 2), (2, 1)])),
            (1, item(&[(1, 1), (2, 3)])),
        ];
        let pairs = human_pairs(&items);
        assert_eq!(pairs.len(), 3);
        // Metric: s0: A .9, B .5, C .5 → A>B agree, C>B tie; s1: B .2 < C .3 → disagree.
        let scores = vec![vec![0.9, 0.5, 0.5], vec![0.0, 0.2, 0.3]];
        let a = agreement(&pairs, &scores, &[true, true, true]);
        assert_eq!(
            a,
            Agreement {
                agree: 1,
                disagree: 1,
                ties: 1
            }
        );
        assert_eq!(a.accuracy(TiePolicy::Denominator), Some(1.0 / 3.0));
        assert_eq!(a.tau(TiePolicy::Denominator), Some(0.0));
        assert_eq!(a.accuracy(TiePolicy::Exclude), Some(0.5));
        assert_eq!(a.tau(TiePolicy::Exclude), Some(0.0));
        assert_eq!(a.tau(TiePolicy::Discordant), Some(-1.0 / 3.0));
        // Restricting to {A, B}: only the A>B pair.
        let a = agreement(&pairs, &scores, &[true, true, false]);
        assert_eq!(
            a,
            Agreement {
                agree: 1,
                disagree: 0,
                ties: 0
            }
        );
        assert_eq!(Agreement::default().tau(TiePolicy::Exclude), None);
    }

    #[test]
    fn parse_options() {
        assert_eq!(
            "published-ts".parse::<HumanScore>().unwrap(),
            HumanScore::PublishedTs
        );
        assert!("x"
            .parse::<TiePolicy>()
            .unwrap_err()
            .to_string()
            .contains("denominator, exclude or discordant"));
    }
}
