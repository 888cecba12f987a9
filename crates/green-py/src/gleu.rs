//! The core of `green_gec.Gleu`: the official GLEU (as `green gleu` and the PyPI package
//! `gleu --fix-seed`) from Python, on the same tokenizers, with the same numbers as the CLI.
//! Scores come back with the signature of their level, for the score objects.

use green_engine::gleu::{self, GleuCounts};
use green_engine::numpy::numpy_mean;
use green_engine::{Counter, Normalization, Sentence, BATCH};
use green_metric::Metric;
use green_output::Level;
use green_tokenizers::Built;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::m2::{from_python, to_python};
use crate::{
    build_tokenizer, checked_n, extract_lines, extract_sets, green_err, nonempty, option_texts,
    pool, same_length,
};

/// Sentences counted between two looks for Ctrl-C.
const CHUNK: usize = 4096;

/// GLEU (Napoles et al.) exactly as `green gleu` computes it: corpus GLEU averages
/// `iterations` reference draws on the documented generator (CPython's Mersenne Twister
/// seeded with 101·i), sentence GLEU averages over references (or takes the best with
/// `max=True`). Scores are fractions (the CLI prints them ×100). `tokenizer`, `norm` and
/// `options` are as for `Scorer`; word and char give the package's numbers.
#[pyclass(frozen, name = "GleuCore", module = "green_gec._green")]
pub struct Gleu {
    tokenizer: Built,
    /// The tokenizer spec, for the input guard.
    spec: String,
    n: usize,
    iterations: u64,
    norm: Normalization,
}

impl Gleu {
    /// Every sentence's statistics, without the GIL on the process's pool, looking for
    /// Ctrl-C between chunks (on the calling thread); the input guard's warnings, as `green
    /// gleu` gives them.
    fn count(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<GleuCounts>> {
        let sources = extract_lines(sources, "sources")?;
        let refs: Vec<Vec<Option<String>>> =
            extract_sets(references, "references", "str (or None)", |s| s.extract())?;
        let hyps = extract_lines(hypotheses, "hypotheses")?;
        let count = sources.len();
        same_length(&refs, "references", count).map_err(green_err)?;
        same_length(std::slice::from_ref(&hyps), "hypotheses", count).map_err(green_err)?;
        self.guard(py, &sources, &refs, &hyps)?;
        let tokenizer = self.tokenizer.as_dyn();
        let pool = pool::get(py)?;
        py.detach(|| {
            let mut out = Vec::with_capacity(count);
            for start in (0..count).step_by(CHUNK) {
                Python::attach(|py| py.check_signals())?;
                let end = (start + CHUNK).min(count);
                let chunk: Vec<PyResult<GleuCounts>> = pool.install(|| (start..end)
                    .into_par_iter()
                    .map(|i| Counter::with_local(|counter| {
                        let present: Vec<&str> =
                            refs.iter().filter_map(|set| set[i].as_deref()).collect();
                        if present.is_empty() {
                            return Err(green_err(format!(
                                "sentence {} (index {i}) has no reference: every sentence needs at least one reference that is not None",
                                i + 1
                            )));
                        }
                        counter
                            .count_gleu(tokenizer, self.n, &sources[i], &present, &[&hyps[i]])
                            .map_err(|e| {
                                green_err(format!(
                                    "sentence {} (index {i}): tokenizer failed: {e}",
                                    i + 1
                                ))
                            })
                    }))
                    .collect());
                for c in chunk {
                    out.push(c?);
                }
            }
            Ok(out)
        })
    }
}

impl Gleu {
    /// Warns about what the input guard finds in these sentences (line counts checked).
    fn guard(
        &self,
        py: Python<'_>,
        sources: &[String],
        refs: &[Vec<Option<String>>],
        hyps: &[String],
    ) -> PyResult<()> {
        let mut guard = crate::guard::new(&self.spec, self.norm.join_cjk, refs.len());
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let present: Vec<Vec<&str>> = (0..sources.len())
            .map(|i| refs.iter().filter_map(|set| set[i].as_deref()).collect())
            .collect();
        let sentences: Vec<Sentence> = (0..sources.len())
            .map(|i| Sentence {
                source: &sources[i],
                refs: &present[i],
                hyps: std::slice::from_ref(&hyps[i]),
            })
            .collect();
        for batch in sentences.chunks(BATCH) {
            guard.look(batch);
        }
        crate::guard::warn(py, &guard.warnings())
    }

    /// The settings part of the signature.
    fn settings(&self, max: bool) -> String {
        green_output::gleu::settings(
            self.n,
            self.iterations,
            max,
            &self.tokenizer.name(),
            &self.norm.to_string(),
        )
    }

    /// The signature of `counts` scored at `level`.
    fn signature_of(&self, counts: &[GleuCounts], level: Level, max: bool) -> String {
        green_output::gleu::signature(&self.settings(max), counts, level)
    }

    /// Corpus GLEU of `counts`: sampled reference draws, or each sentence's best with `max`.
    fn corpus(&self, py: Python<'_>, counts: &[GleuCounts], max: bool) -> PyResult<f64> {
        let metric = gleu::Gleu {
            iterations: self.iterations,
            max,
        };
        pool::detach(py, || metric.score(&metric.fold(counts)))
    }

    /// Statistics from `stats` of one system, of this N, not empty.
    fn counts_of(&self, py: Python<'_>, stats: &Bound<'_, PyAny>) -> PyResult<Vec<GleuCounts>> {
        let counts: Vec<GleuCounts> = from_python(py, stats, "Gleu.stats")?;
        nonempty(counts.len())?;
        if let Some(c) = counts.iter().find(|c| c.n != self.n || c.hyps != 1) {
            return Err(green_err(format!(
                "statistics of N={} for {} systems cannot fold under this Gleu (N={}, one system per call)",
                c.n, c.hyps, self.n
            )));
        }
        Ok(counts)
    }
}

#[pymethods]
impl Gleu {
    #[new]
    #[pyo3(signature = (tokenizer = "word", n = 4, iterations = 500, norm = "none", options = None))]
    fn new(
        py: Python<'_>,
        tokenizer: &str,
        n: i64,
        iterations: i64,
        norm: &str,
        options: Option<std::collections::BTreeMap<String, Bound<'_, PyAny>>>,
    ) -> PyResult<Self> {
        let n = checked_n(n)?;
        if !(1..=100_000).contains(&iterations) {
            return Err(green_err(format!(
                "iterations must be between 1 and 100000 (got {iterations})"
            )));
        }
        let (built, norm) = build_tokenizer(py, tokenizer, norm, &option_texts(options)?)?;
        Ok(Gleu {
            tokenizer: built,
            spec: tokenizer.to_owned(),
            n,
            iterations: iterations as u64,
            norm,
        })
    }

    /// Corpus GLEU of one system (references drawn per iteration, or each sentence's best
    /// with `max`) and its signature.
    fn corpus_score(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        max: bool,
    ) -> PyResult<(f64, String)> {
        let counts = self.count(py, sources, references, hypotheses)?;
        nonempty(counts.len())?;
        let score = self.corpus(py, &counts, max)?;
        Ok((score, self.signature_of(&counts, Level::Corpus, max)))
    }

    /// Sentence GLEU of one system, one float per sentence.
    fn sentence_scores(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        max: bool,
    ) -> PyResult<Vec<f64>> {
        let counts = self.count(py, sources, references, hypotheses)?;
        Ok(counts
            .iter()
            .map(|c| gleu::sentence_score(c, 0, max))
            .collect())
    }

    /// Mean of the sentence GLEU scores of one system (NumPy's mean) and its signature.
    fn mean_score(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        max: bool,
    ) -> PyResult<(f64, String)> {
        let counts = self.count(py, sources, references, hypotheses)?;
        nonempty(counts.len())?;
        let scores: Vec<f64> = counts
            .iter()
            .map(|c| gleu::sentence_score(c, 0, max))
            .collect();
        Ok((
            numpy_mean(&scores),
            self.signature_of(&counts, Level::Mean, max),
        ))
    }

    /// Every sentence's GLEU statistics of one system (plain dicts: pickle, JSON, Dask):
    /// statistics of consecutive shards concatenate in corpus order, and `fold` scores them
    /// with the numbers of one pass (the reference draws run over the whole list).
    fn stats(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let counts = self.count(py, sources, references, hypotheses)?;
        to_python(py, &counts)
    }

    /// Corpus (sampled, or `max`) or mean GLEU of statistics from `stats`, concatenated in
    /// corpus order, and its signature: `corpus_score`'s or `mean_score`'s for those sentences.
    fn fold(
        &self,
        py: Python<'_>,
        stats: &Bound<'_, PyAny>,
        level: &str,
        max: bool,
    ) -> PyResult<(f64, String)> {
        let counts = self.counts_of(py, stats)?;
        let (score, level) = match level {
            "corpus" => (self.corpus(py, &counts, max)?, Level::Corpus),
            "mean" => {
                let scores: Vec<f64> = counts
                    .iter()
                    .map(|c| gleu::sentence_score(c, 0, max))
                    .collect();
                (numpy_mean(&scores), Level::Mean)
            }
            other => {
                return Err(green_err(format!(
                    "unknown level '{other}'; fold gives corpus or mean"
                )))
            }
        };
        Ok((score, self.signature_of(&counts, level, max)))
    }

    /// Is system B's GLEU different from baseline A's by more than chance? Paired bootstrap
    /// (`test="bs"`), approximate (`"ar"`) or exact randomisation of the two systems' `stats`
    /// on the same sentences; each replicate folds as `fold` does (its reference draws run
    /// over the replicate's sentences). Returns `a`, `b`, `delta`, `p`, `replicates` (and
    /// `intervals`).
    #[pyo3(signature = (a, b, *, test = "bs", reps = 1000, seed = 0, confidence = 0.95, max = false))]
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
        max: bool,
    ) -> PyResult<Py<PyAny>> {
        let (a, b) = (self.counts_of(py, a)?, self.counts_of(py, b)?);
        let metric = gleu::Gleu {
            iterations: self.iterations,
            max,
        };
        crate::m2::paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// Several systems' scores exactly as ``green gleu --format json`` prints them:
    /// ``systems`` is a list of ``stats`` results, one per system, ``names`` their names
    /// (default ``system1``, ...), at ``level`` corpus, sentence or mean.
    #[pyo3(signature = (systems, *, names = None, level = "corpus", max = false))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
        level: &str,
        max: bool,
    ) -> PyResult<Py<PyAny>> {
        let level: Level = level.parse().map_err(green_err)?;
        let lists: Vec<Bound<'_, PyAny>> = systems.try_iter()?.collect::<PyResult<_>>()?;
        let stats = lists
            .iter()
            .map(|s| self.counts_of(py, s))
            .collect::<PyResult<Vec<_>>>()?;
        let names = crate::system_names(names, stats.len())?;
        let metric = gleu::Gleu {
            iterations: self.iterations,
            max,
        };
        let settings = self.settings(max);
        let out = pool::detach(py, || {
            green_output::gleu::output(&metric, &settings, &names, &stats, level)
        })?;
        to_python(py, &out)
    }

    /// The signature `green gleu --format json` prints for these settings.
    #[pyo3(signature = (refs, level = "corpus", max = false))]
    fn signature(&self, refs: &str, level: &str, max: bool) -> PyResult<String> {
        let level: Level = level.parse().map_err(green_err)?;
        Ok(green_output::gleu::signature_with(
            &self.settings(max),
            refs,
            level,
        ))
    }
}
