//! The fuzz harnesses' driver, shared by green-io's and green-meta's `tests/fuzz.rs`
//! (included with `#[path]`): proptest cases, optionally repeated to fill a time budget.

use proptest::prelude::*;

/// Run `check` on cases from `strategy`: `PROPTEST_CASES` of them (256 by default), and with
/// `GREEN_FUZZ_SECONDS=S` fresh rounds until S seconds have passed, so a long fuzzing run is
/// one environment variable. A failure panics with the (shrunk) input.
pub fn fuzz<S: Strategy>(strategy: S, check: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let deadline = std::env::var("GREEN_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s));
    let mut cases = 0u64;
    loop {
        let config = ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        cases += u64::from(config.cases);
        let mut runner = proptest::test_runner::TestRunner::new(config);
        if let Err(e) = runner.run(&strategy, &check) {
            panic!("{e}");
        }
        if deadline.is_none_or(|d| std::time::Instant::now() >= d) {
            break;
        }
    }
    if deadline.is_some() {
        eprintln!("{cases} cases");
    }
}
