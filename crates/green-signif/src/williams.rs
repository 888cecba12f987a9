//! Williams' test (Williams 1959; Steiger 1980, eq. 7): is the correlation of metric 1 with
//! the human scores (r12) larger than that of metric 2 (r13), given the correlation of the two
//! metrics with each other (r23), over the same n systems? WMT metrics tasks use it (Graham and
//! Baldwin 2014) because two metrics' correlations with one human score are not independent.
//!
//! t = (r12 − r13) · √((n − 1)(1 + r23)) / √(2·|R|·(n − 1)/(n − 3) + r̄²(1 − r23)³),
//! |R| = 1 − r12² − r13² − r23² + 2·r12·r13·r23, r̄ = (r12 + r13)/2, with n − 3 degrees of freedom.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::Error;

/// The test statistic and its p-values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Williams {
    pub t: f64,
    pub df: f64,
    /// P(T ≥ t): small when r12 is significantly larger than r13.
    pub p_one_sided: f64,
    pub p_two_sided: f64,
}

/// Williams' test; `n` is the number of systems (at least 4).
pub fn williams(r12: f64, r13: f64, r23: f64, n: usize) -> Result<Williams, Error> {
    if n < 4 {
        return Err(Error::Invalid(format!(
            "Williams' test needs at least 4 systems, got {n}"
        )));
    }
    if [r12, r13, r23].iter().any(|r| !(-1.0..=1.0).contains(r)) {
        return Err(Error::Invalid(format!(
            "Williams' test: correlations must lie in [-1, 1], got {r12}, {r13}, {r23}"
        )));
    }
    let nf = n as f64;
    let det = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23;
    let rbar = (r12 + r13) / 2.0;
    let denominator =
        (2.0 * det * (nf - 1.0) / (nf - 3.0) + rbar * rbar * (1.0 - r23).powi(3)).sqrt();
    let numerator = (r12 - r13) * ((nf - 1.0) * (1.0 + r23)).sqrt();
    let df = nf - 3.0;
    let t = if numerator == 0.0 {
        0.0
    } else {
        numerator / denominator
    };
    if !t.is_finite() {
        return Err(Error::Invalid(format!(
            "Williams' test is undefined for r12 = {r12}, r13 = {r13}, r23 = {r23} (a perfectly determined correlation matrix)"
        )));
    }
    let dist = StudentsT::new(0.0, 1.0, df).map_err(|e| Error::Invalid(e.to_string()))?;
    let upper = 1.0 - dist.cdf(t);
    Ok(Williams {
        t,
        df,
        p_one_sided: upper,
        p_two_sided: (2.0 * upper.min(1.0 - upper)).min(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steiger_case_by_hand() {
        // n = 103, r12 = .4, r13 = .6, r23 = .5: |R| = .47, r̄² (1 − r23)³ = .03125,
        // t = −.2 · √(153 / (2 · .47 · 102/100 + .03125)) = −2.4862, df = 100.
        let w = williams(0.4, 0.6, 0.5, 103).unwrap();
        assert!((w.t - -2.486_18).abs() < 1e-4, "{}", w.t);
        assert_eq!(w.df, 100.0);
        // scipy.stats.t.sf(-2.48618, 100) = 0.99271; two-sided 0.014569 (checked with SciPy 1.x).
        assert!(
            (w.p_one_sided - 0.992_715).abs() < 1e-5,
            "{}",
            w.p_one_sided
        );
        assert!(
            (w.p_two_sided - 0.014_569).abs() < 1e-5,
            "{}",
            w.p_two_sided
        );
    }

    #[test]
    fn steiger_1980_worked_example() {
        // Steiger (1980), also the example of R psych's `r.test`: masculinity and verbal
        // ability .5, femininity and verbal ability .4, masculinity and femininity .1,
        // n = 103: Williams' t = 0.89 (df 100), two-sided p ≈ .37 (SciPy: 0.374919).
        let w = williams(0.5, 0.4, 0.1, 103).unwrap();
        assert!((w.t - 0.891_28).abs() < 1e-5, "{}", w.t);
        assert!(
            (w.p_two_sided - 0.374_919).abs() < 1e-5,
            "{}",
            w.p_two_sided
        );
    }

    #[test]
    fn equal_correlations_give_t_zero() {
        let w = williams(0.8, 0.8, 0.9, 13).unwrap();
        assert_eq!(w.t, 0.0);
        assert!((w.p_one_sided - 0.5).abs() < 1e-12);
        assert!((w.p_two_sided - 1.0).abs() < 1e-12);
    }

    #[test]
    fn swapping_metrics_flips_the_sign() {
        let a = williams(0.9, 0.7, 0.6, 12).unwrap();
        let b = williams(0.7, 0.9, 0.6, 12).unwrap();
        assert!((a.t + b.t).abs() < 1e-12);
        assert!((a.p_one_sided + b.p_one_sided - 1.0).abs() < 1e-12);
        assert!((a.p_two_sided - b.p_two_sided).abs() < 1e-12);
    }

    #[test]
    fn invalid_input_is_an_error() {
        assert!(williams(0.5, 0.4, 0.3, 3).is_err());
        assert!(williams(1.5, 0.4, 0.3, 10).is_err());
        assert!(williams(f64::NAN, 0.4, 0.3, 10).is_err());
    }
}
