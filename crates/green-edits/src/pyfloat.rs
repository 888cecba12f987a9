//! Python's float arithmetic where the originals print or compare with it: `round(x, 4)`
//! (correctly rounded, ties to even on the exact binary value) and `str(x)`.

/// Python's `round(x, digits)`.
pub fn round(x: f64, digits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    // Fast path: away from a tie, the nearest integer k of x·10^d is exact and k / 10^d is
    // the double nearest the decimal, as Python's result is. Near a tie, decide on the exact
    // binary value through the formatter.
    if digits <= 8 {
        let scale = 10f64.powi(digits as i32);
        let y = x * scale;
        if y.abs() < 1e15 && ((y - y.trunc()).abs() - 0.5).abs() > 1e-6 {
            return y.round() / scale;
        }
    }
    format!("{x:.digits$}").parse().unwrap_or(x)
}

/// Python 3's `str(x)` for the values scores take (shortest repr, `.0` on integers).
pub fn str(x: f64) -> String {
    format!("{x:?}")
}

/// P, R and F_beta from counts, each rounded to 4 decimals, with the originals' conventions
/// (P = 1 without hypothesis edits, R = 1 without reference edits, F = 0 when P + R = 0).
pub fn prf(tp: f64, fp: f64, fn_: f64, beta: f64) -> (f64, f64, f64) {
    let (p, r, f) = prf_unrounded(tp, fp, fn_, beta);
    (round(p, 4), round(r, 4), round(f, 4))
}

/// [`prf`] before its rounding: the values the originals round to print them.
pub fn prf_unrounded(tp: f64, fp: f64, fn_: f64, beta: f64) -> (f64, f64, f64) {
    let p = if tp + fp != 0.0 { tp / (tp + fp) } else { 1.0 };
    let r = if tp + fn_ != 0.0 {
        tp / (tp + fn_)
    } else {
        1.0
    };
    let b2 = beta * beta;
    let f = if p + r != 0.0 {
        (1.0 + b2) * p * r / (b2 * p + r)
    } else {
        0.0
    };
    (p, r, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_as_python_does() {
        // Exact binary ties go to even, as Python's round does.
        assert_eq!(round(0.03125, 4), 0.0312);
        assert_eq!(round(0.09375, 4), 0.0938);
        assert_eq!(round(0.32084, 4), 0.3208);
        assert_eq!(str(round(2.0 / 3.0, 4)), "0.6667");
        assert_eq!(str(1.0), "1.0");
        assert_eq!(str(0.0), "0.0");
        assert_eq!(str(round(0.00012, 4)), "0.0001");
    }

    proptest::proptest! {
        #[test]
        fn fast_path_equals_the_formatter(x in -1e6f64..1e6, d in 0usize..6) {
            let slow: f64 = format!("{x:.d$}").parse().unwrap();
            proptest::prop_assert_eq!(round(x, d), slow);
        }
    }

    #[test]
    fn prf_conventions() {
        assert_eq!(prf(0.0, 0.0, 0.0, 0.5), (1.0, 1.0, 1.0));
        assert_eq!(prf(0.0, 3.0, 2.0, 0.5), (0.0, 0.0, 0.0));
        assert_eq!(prf(483.0, 795.0, 1934.0, 0.5), (0.3779, 0.1998, 0.3208));
    }
}
