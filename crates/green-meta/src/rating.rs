//! Rating-based aggregation of a metric's sentence scores (Goto, Sakai and Watanabe, ACL 2025,
//! "Rethinking Evaluation Metrics for GEC: Why Use a Different Evaluation Process than
//! Human?").
//!
//! People rank systems by comparing outputs sentence by sentence and rating the comparisons
//! (Expected Wins, TrueSkill); metrics usually average or fold absolute scores instead. The
//! paper ranks systems the way people do: on every sentence, every pair of systems is one
//! match that the higher sentence score wins (equal scores draw), and the matches are rated.
//! This follows its implementation in gec-metrics (`MetricBase.rank_systems` with
//! `aggregation="trueskill"` or `"expected_wins"`):
//!
//! - the systems rated are those correlated, so each system set is rated on its own: a rating
//!   depends on who else plays;
//! - every sentence of the view counts, judged or not, in order, and on each sentence the pairs
//!   (i, j), i before j in the dataset's system order;
//! - TrueSkill plays every match once, in that order, from μ 0, σ 0.5 with β 0.25, τ 0 and
//!   draw probability 0.25 (no seed: the order is fixed), and the score is the final μ;
//! - Expected Wins (Bojar et al. 2011) drops the draws: EW(i) = 1/(|S|−1) Σ_j wins(i, j) /
//!   (wins(i, j) + wins(j, i)), as [`crate::human::expected_wins`] computes it.

use std::cmp::Ordering;

use crate::judgments::Matrix;
use crate::trueskill::{play_all, Match, Rating as Skill, Update};

/// How a metric's pairwise comparisons become system scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rating {
    TrueSkill,
    ExpectedWins,
}

/// gec-metrics' TrueSkill environment: prior μ and σ, β, τ, draw probability.
const PRIOR: Skill = Skill {
    mu: 0.0,
    sigma: 0.5,
};
const BETA: f64 = 0.25;
const TAU: f64 = 0.0;
const DRAW_PROBABILITY: f64 = 0.25;

/// A metric's comparisons of one system set, sentence by sentence.
#[derive(Debug, Clone)]
pub struct Comparisons {
    /// The set's systems, in dataset order.
    members: Vec<usize>,
    /// Per sentence: (a, b, outcome for a), a and b indices into `members`, a < b.
    per_sentence: Vec<Vec<(usize, usize, Ordering)>>,
}

impl Comparisons {
    /// The comparisons on `sentences` (indices into `sentence_scores`, `[sentence][system]`)
    /// of the systems `members`. A NaN score draws, as gec-metrics' `>` and `<` make it.
    pub fn new(sentence_scores: &[Vec<f64>], sentences: &[usize], members: &[usize]) -> Self {
        let per_sentence = sentences
            .iter()
            .map(|&s| {
                let row = &sentence_scores[s];
                let mut out = Vec::with_capacity(members.len() * members.len() / 2);
                for (i, &a) in members.iter().enumerate() {
                    for (j, &b) in members.iter().enumerate().skip(i + 1) {
                        let o = row[a].partial_cmp(&row[b]).unwrap_or(Ordering::Equal);
                        out.push((i, j, o));
                    }
                }
                out
            })
            .collect();
        Comparisons {
            members: members.to_vec(),
            per_sentence,
        }
    }

    /// Every member's rating, sentence `k` played `weights[k]` times in a row (`None`: once),
    /// as a `systems`-long vector with NaN for the systems outside the set.
    pub fn rate(&self, rating: Rating, weights: Option<&[u32]>, systems: usize) -> Vec<f64> {
        let times = |k: usize| weights.map_or(1, |w| w[k]);
        let n = self.members.len();
        let scores = match rating {
            Rating::TrueSkill => {
                let total: usize = (0..self.per_sentence.len())
                    .map(|k| self.per_sentence[k].len() * times(k) as usize)
                    .sum();
                let mut order = Vec::with_capacity(total);
                for (k, matches) in self.per_sentence.iter().enumerate() {
                    for _ in 0..times(k) {
                        order.extend(matches.iter().map(|&(a, b, o)| Match::new(a, b, o)));
                    }
                }
                let mut ratings = vec![PRIOR; n];
                play_all(
                    &Update::new(BETA, TAU, DRAW_PROBABILITY),
                    &mut ratings,
                    &order,
                );
                ratings.iter().map(|r| r.mu).collect()
            }
            Rating::ExpectedWins => {
                let mut m = Matrix {
                    wins: vec![vec![0; n]; n],
                    ties: vec![vec![0; n]; n],
                };
                for (k, matches) in self.per_sentence.iter().enumerate() {
                    let w = u64::from(times(k));
                    for &(a, b, o) in matches {
                        match o {
                            Ordering::Greater => m.wins[a][b] += w,
                            Ordering::Less => m.wins[b][a] += w,
                            Ordering::Equal => {}
                        }
                    }
                }
                crate::human::expected_wins(&m)
            }
        };
        let mut out = vec![f64::NAN; systems];
        for (&s, x) in self.members.iter().zip(scores) {
            out[s] = x;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_wins_of_metric_comparisons_by_hand() {
        // Two sentences, systems 0..3, set {0, 1, 2}: s0: 0 > 1 = 2; s1: 2 > 0 > 1.
        // Wins: 0>1 2, 0>2 1, 2>0 1, 2>1 1 (the draw dropped). EW(0) = (2/2 + 1/2) / 2 = .75,
        // EW(1) = 0, EW(2) = (1/2 + 1/1) / 2 = .75; system 3 is outside the set.
        let scores = vec![vec![0.9, 0.1, 0.1, 5.0], vec![0.5, 0.2, 0.8, 5.0]];
        let c = Comparisons::new(&scores, &[0, 1], &[0, 1, 2]);
        let ew = c.rate(Rating::ExpectedWins, None, 4);
        assert_eq!(&ew[..3], [0.75, 0.0, 0.75]);
        assert!(ew[3].is_nan());
        // Sentence 1 twice: 0>1 3, 0>2 1, 2>0 2, 2>1 2 → EW(0) = (1 + 1/3) / 2, EW(2) = (2/3 + 1) / 2.
        let ew = c.rate(Rating::ExpectedWins, Some(&[1, 2]), 4);
        assert!((ew[0] - 2.0 / 3.0).abs() < 1e-15 && (ew[2] - 5.0 / 6.0).abs() < 1e-15);
        // Weight 0 leaves a sentence out.
        let only_first = c.rate(Rating::ExpectedWins, Some(&[1, 0]), 4);
        let first = Comparisons::new(&scores, &[0], &[0, 1, 2]).rate(Rating::ExpectedWins, None, 4);
        assert_eq!(&only_first[..3], &first[..3]);
    }

    #[test]
    fn trueskill_plays_in_order_from_gec_metrics_prior() {
        // One match, 0 beats 1, from (0, 0.5), β 0.25, draw probability 0.25: c = √(2·0.25² +
        // 2·0.5²) = 0.790569, draw margin ε = Φ⁻¹(0.625)·√2·0.25 = 0.112656, t = −ε/c,
        // v = φ(t)/Φ(t), μ_winner = σ²/c · v = 0.281683.
        let c = Comparisons::new(&[vec![1.0, 0.0]], &[0], &[0, 1]);
        let mu = c.rate(Rating::TrueSkill, None, 2);
        assert!((mu[0] - 0.281_683).abs() < 1e-6, "{mu:?}");
        assert!((mu[0] + mu[1]).abs() < 1e-12, "{mu:?}");
        // The order is the sentences' (no seed), and it matters: after a win and then a loss
        // the first match's winner ends behind, μ −0.109597 (by hand as above from (0.281683,
        // 0.428191) and (−0.281683, 0.428191)): losing as the favourite is the bigger surprise.
        let scores = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let win_loss = Comparisons::new(&scores, &[0, 1], &[0, 1]);
        let loss_win = Comparisons::new(&scores, &[1, 0], &[0, 1]);
        let (a, b) = (
            win_loss.rate(Rating::TrueSkill, None, 2),
            loss_win.rate(Rating::TrueSkill, None, 2),
        );
        assert!((a[0] + 0.109_597).abs() < 1e-6 && b[0] > 0.0, "{a:?} {b:?}");
        assert_eq!(a, win_loss.rate(Rating::TrueSkill, None, 2));
        // Equal scores draw: between equals nobody moves.
        let draw = Comparisons::new(&[vec![0.5, 0.5]], &[0], &[0, 1]);
        assert_eq!(draw.rate(Rating::TrueSkill, None, 2), [0.0, 0.0]);
    }
}
