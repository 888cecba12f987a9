//! System-level human scores from pairwise judgments: Expected Wins and TrueSkill.
//!
//! Expected Wins is exact and deterministic. TrueSkill is an online Bayesian rating whose
//! result depends on the order the matches are played in, so it takes a seed: each run
//! plays every pairwise judgment once in a fresh seeded random order, starting from the
//! prior, and the score is the mean of the final mu over the runs (the WMT/GJG15 scripts
//! likewise average the final mu of many sampled runs). Draws are the human ties. The
//! two-player update itself (Herbrich et al. 2007) is [`crate::trueskill`].

use std::cmp::Ordering;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::judgments::{Judgments, Matrix, RankingItem};
use crate::trueskill::{play_all, Match, Rating, Update, MAX_PLAYERS};
use crate::Error;

/// Expected Wins (Bojar et al. 2013, as in GJG15's scripts):
/// EW(i) = 1/(|S|-1) Σ_{j≠i} wins(i,j) / (wins(i,j) + wins(j,i)), pairs never compared skipped.
pub fn expected_wins(m: &Matrix) -> Vec<f64> {
    let n = m.wins.len();
    if n < 2 {
        return vec![0.0; n];
    }
    (0..n)
        .map(|i| {
            let sum: f64 = (0..n)
                .filter(|&j| j != i && m.wins[i][j] + m.wins[j][i] > 0)
                .map(|j| m.wins[i][j] as f64 / (m.wins[i][j] + m.wins[j][i]) as f64)
                .sum();
            sum / (n - 1) as f64
        })
        .collect()
}

/// TrueSkill settings; [`TrueSkill::wmt`] gives those of the WMT/GJG15 scripts.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TrueSkill {
    pub mu0: f64,
    pub sigma0: f64,
    /// Performance noise; `None` = sigma0 · N / 40 with N = number of pairwise judgments + 1.
    pub beta: Option<f64>,
    pub tau: f64,
    pub draw_probability: f64,
    pub runs: usize,
    pub seed: u64,
}

impl TrueSkill {
    /// mu0 = 0, sigma0 = 0.5, beta = sigma0·N/40, tau = 0, draw probability 0.25.
    pub fn wmt(runs: usize, seed: u64) -> TrueSkill {
        TrueSkill {
            mu0: 0.0,
            sigma0: 0.5,
            beta: None,
            tau: 0.0,
            draw_probability: 0.25,
            runs,
            seed,
        }
    }

    /// Mean final mu of every system over `runs` seeded runs of all `matches`
    /// ((a, b, outcome for a) pairs, b ≠ a).
    pub fn rate(
        &self,
        systems: usize,
        matches: &[(usize, usize, Ordering)],
    ) -> Result<Vec<f64>, Error> {
        if !(0.0..1.0).contains(&self.draw_probability) || self.sigma0 <= 0.0 || self.runs == 0 {
            return Err(Error::Config(
                "TrueSkill needs 0 <= draw probability < 1, sigma0 > 0 and at least one run".into(),
            ));
        }
        let beta = self
            .beta
            .unwrap_or(self.sigma0 * (matches.len() + 1) as f64 / 40.0);
        if systems > MAX_PLAYERS {
            return Err(Error::Config(format!(
                "TrueSkill rates at most 2^31 systems, not {systems}"
            )));
        }
        let update = Update::new(beta, self.tau, self.draw_probability);
        let packed: Vec<Match> = (matches.iter())
            .map(|&(a, b, outcome)| Match::new(a, b, outcome))
            .collect();
        let prior = Rating {
            mu: self.mu0,
            sigma: self.sigma0,
        };
        // Runs are independent: run r shuffles with stream r of the seeded generator, so the
        // runs can go in parallel and still give the same numbers at any thread count.
        let finals: Vec<Vec<f64>> = (0..self.runs)
            .into_par_iter()
            .map(|run| {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.seed);
                rng.set_stream(run as u64);
                // The same swaps as shuffling indices 0..n: the same order.
                let mut order = packed.clone();
                order.shuffle(&mut rng);
                let mut ratings = vec![prior; systems];
                play_all(&update, &mut ratings, &order);
                ratings.iter().map(|r| r.mu).collect()
            })
            .collect();
        // Summed in run order, so the float result does not depend on scheduling.
        let mut total = vec![0.0; systems];
        for run in &finals {
            for (t, mu) in total.iter_mut().zip(run) {
                *t += mu;
            }
        }
        Ok(total.into_iter().map(|t| t / self.runs as f64).collect())
    }
}

/// Every pairwise judgment of the items, as matches for [`TrueSkill::rate`].
pub fn matches<'a>(
    items: impl IntoIterator<Item = &'a RankingItem>,
) -> Vec<(usize, usize, Ordering)> {
    items
        .into_iter()
        .flat_map(|i| i.pairs().collect::<Vec<_>>())
        .collect()
}

/// Published system scores: one number per line, systems in `systems` order.
pub fn read_scores(path: &std::path::Path, systems: usize) -> Result<Vec<f64>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::Input(format!(
            "cannot read {}: {e}; check the data directory",
            path.display()
        ))
    })?;
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        out.push(
            line.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    Error::Input(format!(
                        "{}:{}: \"{}\" is not a finite number; expected one score per line",
                        path.display(),
                        i + 1,
                        line.trim()
                    ))
                })?,
        );
    }
    if out.len() != systems {
        return Err(Error::Input(format!(
            "{} has {} scores but the dataset lists {systems} systems; one score per system, in descriptor order",
            path.display(),
            out.len()
        )));
    }
    Ok(out)
}

/// Expected Wins of a judgment set over all its systems.
pub fn expected_wins_of(j: &Judgments) -> Vec<f64> {
    expected_wins(&Judgments::win_matrix(j.systems.len(), &j.items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgments::test_item as item;

    #[test]
    fn expected_wins_by_hand() {
        // A>B, A>C, B=C ; A<B ; C>B. wins: A>B 1, B>A 1, A>C 1, C>B 1.
        // EW(A) = (1/2 + 1/1) / 2 = .75; EW(B) = (1/2 + 0/1) / 2 = .25; EW(C) = (0 + 1) / 2 = .5.
        let items = [
            item(&[(0, 1), (1, 2), (2, 2)]),
            item(&[(0, 2), (1, 1)]),
            item(&[(2, 1), (1, 3)]),
        ];
        let ew = expected_wins(&Judgments::win_matrix(3, &items));
        assert_eq!(ew, [0.75, 0.25, 0.5]);
        // A system never compared with anyone scores 0; the pair is skipped, not counted as a loss.
        let ew4 = expected_wins(&Judgments::win_matrix(4, &items));
        assert_eq!(ew4, [0.5, 1.0 / 6.0, 1.0 / 3.0, 0.0]);
    }

    #[test]
    fn trueskill_one_win_by_hand() {
        // One win, mu0 = 0, sigma0 = 1, beta = 1, no draws: c = 2, t = 0,
        // v = φ(0)/Φ(0) = 0.797885, mu_w = +σ²/c·v = 0.398942.
        let ts = TrueSkill {
            mu0: 0.0,
            sigma0: 1.0,
            beta: Some(1.0),
            tau: 0.0,
            draw_probability: 0.0,
            runs: 3,
            seed: 7,
        };
        let mu = ts.rate(2, &[(0, 1, Ordering::Greater)]).unwrap();
        assert!(
            (mu[0] - 0.398942).abs() < 1e-5 && (mu[1] + 0.398942).abs() < 1e-5,
            "{mu:?}"
        );
        // A draw between equals moves nobody.
        let ts = TrueSkill {
            draw_probability: 0.25,
            ..ts
        };
        assert_eq!(ts.rate(2, &[(0, 1, Ordering::Equal)]).unwrap(), [0.0, 0.0]);
    }

    #[test]
    fn trueskill_is_seeded_and_orders_systems() {
        let m: Vec<_> = (0..30)
            .flat_map(|_| {
                [
                    (0, 1, Ordering::Greater),
                    (1, 2, Ordering::Greater),
                    (0, 2, Ordering::Equal),
                ]
            })
            .collect();
        let ts = TrueSkill::wmt(20, 42);
        let a = ts.rate(3, &m).unwrap();
        assert_eq!(a, ts.rate(3, &m).unwrap());
        assert!(a[0] > a[1] && a[1] > a[2] && a[0] > a[2], "{a:?}");
        assert_ne!(a, TrueSkill { seed: 43, ..ts }.rate(3, &m).unwrap());
        assert!(TrueSkill { runs: 0, ..ts }.rate(3, &m).is_err());
    }
}
