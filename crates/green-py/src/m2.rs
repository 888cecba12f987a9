//! The core of `green_gec.MaxMatch`: M2 scores from Python, the numbers `green maxmatch` prints
//! (and so the NUS m2scorer's), with per-sentence statistics that serialise and fold in
//! shards; also the JSON bridge and the paired tests every metric's core shares.

use green_m2::{Alternatives, Gold, Options, SentenceStats};
use green_tokenizers::Built;
use pyo3::prelude::*;

use crate::{build_tokenizer, extract_lines, green_err, option_texts, pool};

/// M2 (MaxMatch) exactly as the NUS m2scorer computes it, against one gold M2 text (`name`
/// names it in errors). The options are the original's; `alternatives` says what to do
/// with ChERRANT target lines (`first` or `pool`); `tokenizer` (None: the original's
/// whitespace split) turns raw system output into tokens, e.g. `"char"` for NLPCC-style
/// Chinese.
#[pyclass(frozen, name = "MaxMatchCore", module = "green_gec._green")]
pub struct MaxMatch {
    gold: Gold,
    opts: Options,
    tokenizer: Option<Built>,
    alternatives: Alternatives,
}

impl MaxMatch {
    /// Every sentence's statistics, without the GIL; the input guard's warnings about the gold
    /// sources and the system lines as the scorer splits them, as `green maxmatch` gives them
    /// (raw Chinese against a character-spaced gold file is one token a line).
    fn stats_of(
        &self,
        py: Python<'_>,
        hypotheses: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<SentenceStats>> {
        let mut hyps = extract_lines(hypotheses, "hypotheses")?;
        let mut guard = green_input::Guard::new("word", false, &[]);
        let stats = pool::detach(py, || {
            if let Some(t) = &self.tokenizer {
                let t = t.as_dyn();
                for (i, h) in hyps.iter_mut().enumerate() {
                    *h = green_engine::retokenize(t, h)
                        .map_err(|e| green_err(format!("hypothesis {i}: tokenizer failed: {e}")))?;
                }
            }
            if hyps.len() == self.gold.sentences.len() {
                let lines: Vec<&str> = hyps.iter().map(String::as_str).collect();
                let sentences: Vec<green_engine::Sentence> = self
                    .gold
                    .sentences
                    .iter()
                    .zip(&lines)
                    .map(|(g, h)| green_engine::Sentence {
                        source: &g.source,
                        refs: &[],
                        hyps: std::slice::from_ref(h),
                    })
                    .collect();
                for batch in sentences.chunks(green_engine::BATCH) {
                    guard.look(batch);
                }
            }
            green_m2::corpus_stats(&self.gold, &hyps, &self.opts).map_err(green_err)
        })??;
        crate::guard::warn(py, &guard.warnings())?;
        Ok(stats)
    }
}

pub(crate) fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value).map_err(green_err)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

pub(crate) fn from_python<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    source: &str,
) -> PyResult<T> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| green_err(format!("not statistics from {source}: {e}")))
}

/// A paired test (`bs`, `ar` or `exact`) of system B against baseline A from their
/// statistics under `metric`: the dict `green paired --format json` gives per comparison.
#[allow(clippy::too_many_arguments)]
pub(crate) fn paired<M: green_metric::Metric + Sync>(
    py: Python<'_>,
    metric: M,
    a: Vec<M::Stats>,
    b: Vec<M::Stats>,
    test: &str,
    reps: usize,
    seed: u64,
    confidence: f64,
) -> PyResult<Py<PyAny>> {
    let pair = green_signif::Folded::new(metric, a, b).map_err(green_err)?;
    let result = pool::detach(py, || match test {
        "bs" => green_signif::paired_bootstrap(&pair, reps, seed, confidence),
        "ar" => green_signif::approximate_randomisation(&pair, reps, seed),
        "exact" => green_signif::exact_randomisation(&pair),
        other => Err(green_signif::Error::Invalid(format!(
            "unknown test '{other}'; use bs, ar or exact"
        ))),
    })?
    .map_err(green_err)?;
    to_python(py, &result)
}

impl MaxMatch {
    /// The corpus score of `stats` with the signature.
    fn summary(&self, py: Python<'_>, stats: &[SentenceStats]) -> PyResult<Py<PyAny>> {
        let beta = self.opts.beta;
        let summary = pool::detach(py, || green_m2::fold(stats, beta).summary())?;
        let mut out = serde_json::to_value(summary).map_err(green_err)?;
        out["signature"] = self.signature().into();
        to_python(py, &out)
    }
}

#[pymethods]
impl MaxMatch {
    #[new]
    #[pyo3(signature = (text, name, *, beta, max_unchanged_words, ignore_whitespace_casing, alternatives, tokenizer, norm, options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: &str,
        name: &str,
        beta: f64,
        max_unchanged_words: i64,
        ignore_whitespace_casing: bool,
        alternatives: &str,
        tokenizer: Option<&str>,
        norm: &str,
        options: Option<std::collections::BTreeMap<String, Bound<'_, PyAny>>>,
    ) -> PyResult<Self> {
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(green_err(format!(
                "beta must be a finite number >= 0 (got {beta})"
            )));
        }
        let alternatives: Alternatives = alternatives.parse().map_err(green_err)?;
        let gold = green_m2::parse_gold(text, name, alternatives).map_err(green_err)?;
        let tokenizer = match tokenizer {
            Some(spec) => Some(build_tokenizer(py, spec, norm, &option_texts(options)?)?.0),
            None => None,
        };
        Ok(MaxMatch {
            gold,
            opts: Options {
                beta,
                max_unchanged_words,
                ignore_whitespace_casing,
            },
            tokenizer,
            alternatives,
        })
    }

    /// Number of sentences in the gold file.
    fn __len__(&self) -> usize {
        self.gold.sentences.len()
    }

    /// Warnings about the gold file (edits past their sentence), as the CLI prints them.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.gold.warnings.clone()
    }

    /// Corpus P, R, F and counts of one system: a dict with ``precision``, ``recall``, ``f``,
    /// ``correct``, ``proposed``, ``gold`` and ``signature``.
    fn score(&self, py: Python<'_>, hypotheses: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats = self.stats_of(py, hypotheses)?;
        self.summary(py, &stats)
    }

    /// Per sentence: the annotator chosen, its counts and the system's edits
    /// (``[start, end, original, correction]`` as matched against the gold edits).
    fn sentences(&self, py: Python<'_>, hypotheses: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats = self.stats_of(py, hypotheses)?;
        let beta = self.opts.beta;
        let sentences = pool::detach(py, || green_m2::fold(&stats, beta).sentences)?;
        to_python(py, &sentences)
    }

    /// Sufficient statistics, one entry per sentence (plain lists and dicts, JSON- and
    /// pickle-friendly). Concatenate shards in sentence order and pass them to ``fold``.
    fn stats(&self, py: Python<'_>, hypotheses: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.stats_of(py, hypotheses)?)
    }

    /// Is system B's score different from baseline A's by more than chance? Paired bootstrap
    /// (``test="bs"``), approximate (``"ar"``) or exact randomisation of the two systems'
    /// ``stats`` on the same sentences; each replicate folds as ``fold`` does. Returns
    /// ``a``, ``b``, ``delta``, ``p``, ``replicates`` and, for the bootstrap, ``intervals``.
    #[pyo3(signature = (a, b, *, test = "bs", reps = 1000, seed = 0, confidence = 0.95))]
    #[allow(clippy::too_many_arguments)]
    fn paired(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        test: &str,
        reps: usize,
        seed: u64,
        confidence: f64,
    ) -> PyResult<Py<PyAny>> {
        let metric = green_m2::MaxMatch {
            beta: self.opts.beta,
        };
        let (a, b) = (
            from_python(py, a, "MaxMatch.stats")?,
            from_python(py, b, "MaxMatch.stats")?,
        );
        paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// The corpus score of statistics from ``stats`` (in sentence order): the greedy
    /// annotator choice runs here, so it equals ``score`` on the whole corpus.
    fn fold(&self, py: Python<'_>, stats: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats: Vec<SentenceStats> = from_python(py, stats, "MaxMatch.stats")?;
        self.summary(py, &stats)
    }

    /// Several systems' scores exactly as ``green maxmatch --format json`` prints them:
    /// ``systems`` is a list of ``stats`` results, one per system, ``names`` their names
    /// (default ``system1``, ``system2``, ...); ``verbose=True`` adds every sentence's choice.
    #[pyo3(signature = (systems, *, names = None, verbose = false))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
        verbose: bool,
    ) -> PyResult<Py<PyAny>> {
        let stats: Vec<Vec<SentenceStats>> =
            from_python(py, systems, "a list of MaxMatch.stats results")?;
        let names = crate::system_names(names, stats.len())?;
        let beta = self.opts.beta;
        let signature = self.signature();
        let out = pool::detach(py, || {
            green_output::edits::maxmatch(signature, &names, &stats, beta, verbose)
        })?;
        to_python(py, &out)
    }

    /// The signature `green maxmatch --format json` prints for these settings.
    fn signature(&self) -> String {
        let tok = self
            .tokenizer
            .as_ref()
            .map_or("m2scorer-split".to_string(), Built::name);
        green_m2::signature(
            &self.opts,
            &tok,
            self.gold.has_targets.then_some(self.alternatives),
        )
    }
}
