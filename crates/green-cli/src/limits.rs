//! Documented bounds on numeric flags, checked when the command line is parsed.
//!
//! A mistyped number (`--threads 1000000`, `--reps 1e9`, `-d 4000`) should be one clear error,
//! not minutes of work, an abort or a panic. docs/scoring.md (Limits and guarantees) lists these.

/// Digits after the decimal point (`-d`); the reference itself fails above 27.
pub const MAX_DIGITS: usize = 50;
/// Worker threads (`--threads`).
pub const MAX_THREADS: usize = 1024;
/// MAEGE corpus-level repetitions (`--reps`).
pub const MAX_MAEGE_REPS: usize = 1000;
/// MAEGE's largest expected number of edits per sentence (`--max-m`).
pub const MAX_M: usize = 100;
/// TrueSkill runs (`--ts-runs`).
pub const MAX_TS_RUNS: usize = 100_000;
/// GLEU iterations (`--gleu-iterations`).
pub const MAX_GLEU_ITERATIONS: usize = 10_000;
/// Window sizes of the window analysis (`--windows`).
pub const MAX_WINDOW: usize = 1000;

/// Bootstrap or randomisation replicates of `green paired` and `green report` (`--reps`; a
/// run this long takes minutes on a big corpus).
pub const MAX_REPS: usize = 1_000_000;

/// The resampling flags `green paired` and `green report` share: replicates in
/// `1..=MAX_REPS`, a confidence strictly between 0 and 1.
pub fn check_resampling(reps: usize, confidence: f64) -> anyhow::Result<()> {
    if reps == 0 || reps > MAX_REPS {
        anyhow::bail!("--reps must be between 1 and {MAX_REPS} (got {reps})");
    }
    if !(confidence > 0.0 && confidence < 1.0) {
        anyhow::bail!("--confidence must be between 0 and 1, e.g. 0.95 (got {confidence})");
    }
    Ok(())
}

/// A clap value parser for a whole number in `lo..=hi`.
pub fn bounded(
    lo: usize,
    hi: usize,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let bad = || format!("'{s}' is not a whole number between {lo} and {hi}");
        let v: usize = s.trim().parse().map_err(|_| bad())?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_accepts_the_range_only() {
        let p = bounded(1, 10);
        assert_eq!(p("1"), Ok(1));
        assert_eq!(p("10"), Ok(10));
        for bad in ["0", "11", "-1", "1e3", "x", ""] {
            assert!(p(bad).unwrap_err().contains("between 1 and 10"), "{bad}");
        }
    }
}
