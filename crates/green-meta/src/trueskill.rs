//! The two-player TrueSkill update (Herbrich et al. 2007), built for thousands of runs.
//!
//! The numbers are bit for bit those of the `skillratings` crate's `trueskill`, which green
//! used before (a test plays random matches through both): the same formulas in the same
//! order, the same fused multiply-adds, the same erfc approximation. What changes is the cost.
//! The draw margin is a constant of the configuration, so it is computed once instead of once
//! per match; v and w share their normal CDF; and on x86-64 CPUs with FMA a whole run is
//! compiled with it, so each `mul_add` is one instruction instead of a call to the C
//! library's `fma` (a fused multiply-add is exactly rounded either way).

use std::cmp::Ordering;
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, PI, SQRT_2};

/// A skill estimate: mean and standard deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

/// The update for one configuration (performance noise beta, dynamics tau, draw probability).
#[derive(Debug, Clone, Copy)]
pub struct Update {
    beta: f64,
    tau: f64,
    draw_margin: f64,
}

/// Below this normal CDF, v and w take their limits (the constant of `skillratings`).
const TINY: f64 = 2.222_758_749e-162;

impl Update {
    pub fn new(beta: f64, tau: f64, draw_probability: f64) -> Update {
        let inverse_cdf = SQRT_2.mul_add(
            -inverse_erfc(2.0 * f64::midpoint(draw_probability, 1.0)),
            0.0,
        );
        Update {
            beta,
            tau,
            draw_margin: inverse_cdf * 2.0f64.sqrt() * beta,
        }
    }

    /// New ratings of `a` and `b` after a match whose outcome for `a` is `outcome`
    /// (`Equal` = draw).
    #[inline(always)]
    pub fn play(&self, a: Rating, b: Rating, outcome: Ordering) -> (Rating, Rating) {
        let tau2 = self.tau.powi(2);
        let c = 2.0f64
            .mul_add(
                self.beta.powi(2),
                a.sigma.mul_add(a.sigma, tau2) + b.sigma.mul_add(b.sigma, tau2),
            )
            .sqrt();
        let a_won_or_drew = outcome != Ordering::Less;
        let delta = if a_won_or_drew {
            a.mu - b.mu
        } else {
            b.mu - a.mu
        };
        let (v, w) = if outcome == Ordering::Equal {
            draw_v_w(delta, self.draw_margin, c)
        } else {
            win_v_w(delta, self.draw_margin, c)
        };
        let (sign_a, sign_b) = if a_won_or_drew {
            (1.0, -1.0)
        } else {
            (-1.0, 1.0)
        };
        (self.rate(a, v, w, c, sign_a), self.rate(b, v, w, c, sign_b))
    }

    #[inline(always)]
    fn rate(&self, r: Rating, v: f64, w: f64, c: f64, sign: f64) -> Rating {
        let variance = r.sigma.mul_add(r.sigma, self.tau.powi(2));
        Rating {
            mu: (sign * (variance / c)).mul_add(v, r.mu),
            sigma: (variance * w.mul_add(-(variance / c.powi(2)), 1.0)).sqrt(),
        }
    }
}

/// v and w of a win by `delta`.
#[inline(always)]
fn win_v_w(delta: f64, margin: f64, c: f64) -> (f64, f64) {
    let diff_c = delta / c;
    let draw_c = margin / c;
    let norm = cdf(diff_c - draw_c);
    if norm < TINY {
        (-diff_c + draw_c, if diff_c < 0.0 { 1.0 } else { 0.0 })
    } else {
        let v = pdf(diff_c - draw_c) / norm;
        (v, v * (v + diff_c - draw_c))
    }
}

/// v and w of a draw at difference `delta`.
#[inline(always)]
fn draw_v_w(delta: f64, margin: f64, c: f64) -> (f64, f64) {
    let diff_c = delta / c;
    let draw_c = margin / c;
    let abs = diff_c.abs();
    let norm = cdf(draw_c - abs) - cdf(-draw_c - abs);
    if norm < TINY {
        let v = if diff_c < 0.0 {
            -diff_c - draw_c
        } else {
            -diff_c + draw_c
        };
        return (v, 1.0);
    }
    let (p1, p2) = (pdf(draw_c - abs), pdf(-draw_c - abs));
    let x = p2 - p1;
    let v = if diff_c < 0.0 { -x / norm } else { x / norm };
    let w = v.mul_add(v, (draw_c - abs).mul_add(p1, -(-draw_c - abs) * p2) / norm);
    (v, w)
}

/// Standard normal density.
#[inline(always)]
fn pdf(x: f64) -> f64 {
    (2.0 * PI).sqrt().recip() * (-(x.powi(2) / 2.0)).exp()
}

/// Standard normal CDF.
#[inline(always)]
fn cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, as `skillratings` has it).
#[inline(always)]
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = (1.0 + z / 2.0).recip();
    let r = t * t
        .mul_add(
            t.mul_add(
                t.mul_add(
                    t.mul_add(
                        t.mul_add(
                            t.mul_add(
                                t.mul_add(
                                    t.mul_add(t.mul_add(0.170_872_77, -0.822_152_23), 1.488_515_87),
                                    -1.135_203_98,
                                ),
                                0.278_868_07,
                            ),
                            -0.186_288_06,
                        ),
                        0.096_784_18,
                    ),
                    0.374_091_96,
                ),
                1.000_023_68,
            ),
            (-z).mul_add(z, -1.265_512_23),
        )
        .exp();
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}

/// Inverse of [`erfc`] (two Newton steps from a rational guess).
fn inverse_erfc(y: f64) -> f64 {
    if y >= 2.0 {
        return -100.0;
    } else if y <= 0.0 {
        return 100.0;
    }
    let low = y < 1.0;
    let y = if low { y } else { 2.0 - y };
    let t = (-2.0 * (y / 2.0).ln()).sqrt();
    let mut x = -FRAC_1_SQRT_2
        * (t.mul_add(0.27061, 2.30753) / t.mul_add(t.mul_add(0.04481, 0.99229), 1.0) - t);
    for _ in 0..2 {
        let err = erfc(x) - y;
        x += err / FRAC_2_SQRT_PI.mul_add((-(x.powi(2))).exp(), -x * err);
    }
    if low {
        x
    } else {
        -x
    }
}

/// One match in eight bytes: players `a` and `b` (indices below 2^31) and the outcome for
/// `a`. A run shuffles the matches themselves, so it then reads them in memory order: played
/// through a shuffled list of indices, every match was a cache miss, over half the time of
/// a thousand runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match(u64);

/// Players a match can name: their indices fit in 31 bits.
pub const MAX_PLAYERS: usize = 1 << 31;

impl Match {
    /// Panics if a player is not below [`MAX_PLAYERS`].
    pub fn new(a: usize, b: usize, outcome: Ordering) -> Match {
        assert!(a < MAX_PLAYERS && b < MAX_PLAYERS, "player index over 2^31");
        let outcome = (outcome as i8 + 1) as u64;
        Match((a as u64) << 33 | (b as u64) << 2 | outcome)
    }

    fn unpack(self) -> (usize, usize, Ordering) {
        let outcome = match self.0 & 3 {
            0 => Ordering::Less,
            1 => Ordering::Equal,
            _ => Ordering::Greater,
        };
        (
            (self.0 >> 33) as usize,
            (self.0 >> 2 & 0x7FFF_FFFF) as usize,
            outcome,
        )
    }
}

/// Plays `matches` in order from `ratings`, in place.
pub fn play_all(update: &Update, ratings: &mut [Rating], matches: &[Match]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA, checked just above.
        unsafe { play_all_fma(update, ratings, matches) };
        return;
    }
    play_all_portable(update, ratings, matches);
}

#[inline(always)]
fn play_all_portable(update: &Update, ratings: &mut [Rating], matches: &[Match]) {
    for m in matches {
        let (a, b, outcome) = m.unpack();
        (ratings[a], ratings[b]) = update.play(ratings[a], ratings[b], outcome);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn play_all_fma(update: &Update, ratings: &mut [Rating], matches: &[Match]) {
    play_all_portable(update, ratings, matches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use skillratings::trueskill::{trueskill, TrueSkillConfig, TrueSkillRating};
    use skillratings::Outcomes;

    #[test]
    fn matches_pack_and_unpack() {
        let most = MAX_PLAYERS - 1;
        for (a, b) in [(0, 1), (1, 0), (most, 0), (0, most), (most, most - 1)] {
            for outcome in [Ordering::Less, Ordering::Equal, Ordering::Greater] {
                assert_eq!(Match::new(a, b, outcome).unpack(), (a, b, outcome));
            }
        }
    }

    /// Random matches between random ratings (including lopsided ones that hit the limits)
    /// give bit for bit the ratings of `skillratings`, on both code paths.
    #[test]
    fn equals_skillratings_bit_for_bit() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20_000 {
            let beta = rng.gen_range(0.01..50.0);
            let tau = if rng.gen_bool(0.5) {
                0.0
            } else {
                rng.gen_range(0.0..1.0)
            };
            let draw = rng.gen_range(0.0..0.9);
            let scale = if rng.gen_bool(0.1) { 1e4 } else { 3.0 };
            let (a, b) = (
                Rating {
                    mu: rng.gen_range(-scale..scale),
                    sigma: rng.gen_range(0.001..5.0),
                },
                Rating {
                    mu: rng.gen_range(-scale..scale),
                    sigma: rng.gen_range(0.001..5.0),
                },
            );
            let outcome = [Ordering::Greater, Ordering::Less, Ordering::Equal][rng.gen_range(0..3)];
            let config = TrueSkillConfig {
                draw_probability: draw,
                beta,
                dynamics_factor: tau,
            };
            let theirs = trueskill(
                &TrueSkillRating {
                    rating: a.mu,
                    uncertainty: a.sigma,
                },
                &TrueSkillRating {
                    rating: b.mu,
                    uncertainty: b.sigma,
                },
                &match outcome {
                    Ordering::Greater => Outcomes::WIN,
                    Ordering::Less => Outcomes::LOSS,
                    Ordering::Equal => Outcomes::DRAW,
                },
                &config,
            );
            let update = Update::new(beta, tau, draw);
            let ours = update.play(a, b, outcome);
            let mut fast = [a, b];
            play_all(&update, &mut fast, &[Match::new(0, 1, outcome)]);
            for (mine, (t, f)) in [ours.0, ours.1]
                .iter()
                .zip([(theirs.0, fast[0]), (theirs.1, fast[1])])
            {
                assert_eq!(
                    mine.mu.to_bits(),
                    t.rating.to_bits(),
                    "{a:?} {b:?} {outcome:?} {config:?}"
                );
                assert_eq!(mine.sigma.to_bits(), t.uncertainty.to_bits());
                assert_eq!(*mine, f);
            }
        }
    }
}
