//! How sure a GREEN score is, from Python: the sentence score of one sentence with the counts
//! behind it, the bootstrap interval of a corpus score, and `green paired`'s tests.
//!
//! As in `green paired`, each sentence contributes per system the region counts (orders
//! 1..=N, integers) of the reference GREEN chooses for it at the given beta, and a corpus
//! score is GREEN of summed counts, so no replicate recounts anything. The interval of one
//! system is drawn exactly as the paired bootstrap draws (replicate k from stream k of the
//! seed), so it is the interval `green paired` prints for that system.

use green_engine::score::{
    chosen_regions, green_of_sums, order_scores, select_reference, REGION_WIDTH,
};
use green_engine::{Config, Counter, Sentence, Signature, Tokenizer, BATCH};
use green_input::Guard;
use green_signif::{PairedResult, Stats, Summed};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::green::{order_rows, Inputs, Scorer};
use crate::m2::to_python;
use crate::{config, green_err, nonempty, pool};

/// A paired test's settings: `bs`, `ar` or `exact`, and its replicates, seed and coverage.
pub(crate) struct Test<'a> {
    pub(crate) name: &'a str,
    pub(crate) reps: usize,
    pub(crate) seed: u64,
    pub(crate) confidence: f64,
}

impl Test<'_> {
    fn run(&self, pair: &impl green_signif::Pair) -> PyResult<PairedResult> {
        match self.name {
            "bs" => green_signif::paired_bootstrap(pair, self.reps, self.seed, self.confidence),
            "ar" => green_signif::approximate_randomisation(pair, self.reps, self.seed),
            "exact" => green_signif::exact_randomisation(pair),
            other => Err(green_signif::Error::Invalid(format!(
                "unknown test '{other}'; use bs, ar or exact"
            ))),
        }
        .map_err(green_err)
    }
}

/// Per system, every sentence's region counts against the reference GREEN chooses for it,
/// counted on `pool` a batch at a time (each looked at by `guard`; Ctrl-C looked at between
/// batches).
fn sentence_stats<T: Tokenizer + ?Sized>(
    pool: &rayon::ThreadPool,
    tokenizer: &T,
    config: Config,
    inputs: &Inputs,
    guard: &mut Guard,
) -> PyResult<Vec<Vec<u64>>> {
    let present = inputs.present()?;
    let (refs, hyps) = inputs.views(&present);
    let (n, beta) = (config.n, config.betas[0]);
    let scorer = green_engine::Scorer::new(tokenizer, config);
    let count = inputs.sources.len();
    let mut stats = vec![Vec::with_capacity(count * REGION_WIDTH * n); inputs.systems.len()];
    for start in (0..count).step_by(BATCH) {
        Python::attach(|py| py.check_signals())?;
        let end = (start + BATCH).min(count);
        let batch: Vec<Sentence> = (start..end)
            .map(|i| Sentence {
                source: &inputs.sources[i],
                refs: &refs[i],
                hyps: &hyps[i],
            })
            .collect();
        guard.look(&batch);
        let counts = pool
            .install(|| scorer.count_batch(&batch))
            .map_err(|(i, e)| {
                green_err(format!(
                    "sentence {} (index {}): tokenizer failed: {e}",
                    start + i + 1,
                    start + i
                ))
            })?;
        chosen_regions(&counts, n, beta, &mut stats);
    }
    Ok(stats)
}

/// [`sentence_stats`] of `inputs` with the scorer's tokenizer at one beta, without the GIL;
/// `warn`: give the input guard's warnings (the interval of a score that has given them
/// already does not repeat them).
fn stats_of(
    py: Python<'_>,
    scorer: &Scorer,
    inputs: &Inputs,
    beta: f64,
    warn: bool,
) -> PyResult<Vec<Vec<u64>>> {
    let config = config(scorer.n, vec![beta])?;
    let pool = pool::get(py)?;
    let mut guard = scorer.guard(inputs.references.len());
    let stats = py
        .detach(|| sentence_stats(pool, scorer.tokenizer.as_dyn(), config, inputs, &mut guard))
        .map_err(|e| scorer.stopped(e))?;
    if warn {
        crate::guard::warn(py, &guard.warnings())?;
    }
    Ok(stats)
}

/// One sentence at one beta: `score`, `chosen` (the index of the reference chosen), `alpha`
/// and `orders` (that reference's per-order counts and scores, as fractions).
pub(crate) fn sentence(
    py: Python<'_>,
    scorer: &Scorer,
    source: String,
    references: Vec<String>,
    hypothesis: String,
    beta: f64,
) -> PyResult<Py<PyAny>> {
    if references.is_empty() {
        return Err(green_err(
            "references: give at least one reference for the sentence",
        ));
    }
    let config = config(scorer.n, vec![beta])?;
    let n = config.n;
    let engine = green_engine::Scorer::new(scorer.tokenizer.as_dyn(), config);
    let refs: Vec<&str> = references.iter().map(String::as_str).collect();
    let hyps = [hypothesis.as_str()];
    let sentence = Sentence {
        source: &source,
        refs: &refs,
        hyps: &hyps,
    };
    let counts = py
        .detach(|| Counter::with_local(|counter| engine.count(counter, &sentence)))
        .map_err(|e| scorer.stopped(green_err(format!("tokenizer failed: {e}"))))?;
    let (chosen, score) = select_reference(&counts, 0, n, beta);
    let orders = order_scores(&counts.get(0, chosen)[..n], beta);
    let out = PyDict::new(py);
    out.set_item("score", score)?;
    out.set_item("chosen", chosen)?;
    out.set_item("alpha", green_engine::score::alpha(beta))?;
    out.set_item("orders", order_rows(py, &orders)?)?;
    Ok(out.into_any().unbind())
}

/// The percentile bootstrap interval of the single system of `inputs` at `beta`.
pub(crate) fn bootstrap(
    py: Python<'_>,
    scorer: &Scorer,
    inputs: &Inputs,
    beta: f64,
    reps: usize,
    seed: u64,
    confidence: f64,
) -> PyResult<Py<PyAny>> {
    let stats = stats_of(py, scorer, inputs, beta, false)?;
    let sentences = inputs.sources.len();
    nonempty(sentences)?;
    let (n, width) = (scorer.n, REGION_WIDTH * scorer.n);
    let stats = &stats[0];
    let interval = pool::detach(py, || {
        green_signif::bootstrap(sentences, reps, seed, confidence, |weights| {
            let mut sums = vec![0u64; width];
            for (row, &w) in stats.chunks(width).zip(weights) {
                for (sum, &x) in sums.iter_mut().zip(row) {
                    *sum += u64::from(w) * x;
                }
            }
            Some(green_of_sums(&sums, n, beta))
        })
    })?
    .map_err(green_err)?;
    to_python(py, &interval)
}

/// Every system of `inputs` against the first with `test`, as `green paired --format json`
/// prints it; `names` name the systems.
pub(crate) fn paired(
    py: Python<'_>,
    scorer: &Scorer,
    inputs: &Inputs,
    names: &[String],
    beta: f64,
    test: &Test,
) -> PyResult<Py<PyAny>> {
    if inputs.systems.len() < 2 {
        return Err(green_err(
            "systems: a paired test needs the baseline and at least one more system",
        ));
    }
    let stats = stats_of(py, scorer, inputs, beta, true)?;
    let n = scorer.n;
    let score = |sums: &[u64]| green_of_sums(sums, n, beta);
    let results = pool::detach(py, || {
        stats[1..]
            .iter()
            .map(|b| {
                let pair = Summed {
                    stats: Stats::new(REGION_WIDTH * n, stats[0].clone(), b.clone())
                        .map_err(green_err)?,
                    score,
                };
                test.run(&pair)
            })
            .collect::<PyResult<Vec<_>>>()
    })??;
    let refs = inputs.present()?.iter().map(Vec::len).max().unwrap_or(0);
    let signature = format!(
        "{}|test:{}|reps:{}|seed:{}|rng:{}",
        Signature {
            n,
            betas: vec![beta],
            tokenizer: scorer.tokenizer.name(),
            normalization: scorer.norm,
            refs,
            level: "corpus".into(),
            m2: None,
        },
        results[0].test,
        results[0].replicates,
        test.seed,
        green_signif::GENERATOR
    );
    let out = green_output::Comparisons::new(signature, "GREEN", names, results);
    to_python(py, &out)
}
