//! The cores of `green_gec.Cleme2` and `green_gec.GoToScorer`: CLEME2.0 and GoToScorer from
//! Python, the numbers `green cleme2` and `green gotoscorer` print, with per-sentence
//! statistics that serialise and fold in shards (GoToScorer's carry their chunk weights).
//! Scores are handed back unrounded; `report` is the CLI's JSON as it prints it.

use green_edits::cleme2::{self, Factors, Settings, Weigher};
use green_edits::gotoscorer::{self, WeightEntry};
use green_edits::{cleme, Document};
use pyo3::prelude::*;

use crate::m2::{from_python, to_python};
use crate::{green_err, pool};

fn document(text: &str, name: &str) -> PyResult<Document> {
    green_edits::parse(text, name).map_err(green_err)
}

fn factors(what: &str, f: (f64, f64, f64, f64)) -> PyResult<Factors> {
    Factors::new(f.0, f.1, f.2, f.3).map_err(|e| green_err(format!("{what}: {e}")))
}

/// CLEME2.0 (Ye et al. 2025) against one reference M2 text (`name` names it in errors):
/// dependent and independent, corpus and sentence level, unweighted and weighted with
/// ``weigher`` ``none`` or ``length`` (the repository's length weigher), as ``green cleme2``
/// computes them.
#[pyclass(frozen, name = "Cleme2Core", module = "green_gec._green")]
pub struct Cleme2 {
    reference: Document,
    settings: Settings,
    weigher: String,
}

impl Cleme2 {
    fn opts(&self) -> cleme::Options {
        cleme::Options {
            beta: 0.5,
            merge_distance: self.settings.merge_distance,
        }
    }

    fn weigher(&self) -> Weigher<'static> {
        if self.weigher == "length" {
            Weigher::Length
        } else {
            Weigher::None
        }
    }

    fn signature(&self) -> String {
        cleme2::signature(&self.settings, &self.weigher)
    }
}

#[pymethods]
impl Cleme2 {
    #[new]
    #[pyo3(signature = (text, name, *, merge_distance, weigher, corpus_factors, sentence_factors))]
    fn new(
        text: &str,
        name: &str,
        merge_distance: usize,
        weigher: &str,
        corpus_factors: (f64, f64, f64, f64),
        sentence_factors: (f64, f64, f64, f64),
    ) -> PyResult<Self> {
        if !matches!(weigher, "none" | "length") {
            return Err(green_err(format!(
                "weigher must be 'none' or 'length' (got '{weigher}'); similarity weights need `green cleme2 --similarities`"
            )));
        }
        Ok(Cleme2 {
            reference: document(text, name)?,
            settings: Settings {
                merge_distance,
                corpus_factors: factors("corpus_factors", corpus_factors)?,
                sentence_factors: factors("sentence_factors", sentence_factors)?,
            },
            weigher: weigher.to_string(),
        })
    }

    fn __len__(&self) -> usize {
        self.reference.sentences.len()
    }

    /// Sufficient statistics of a hypothesis M2 text, one entry per sentence (its chunks'
    /// lengths and outcomes). Concatenate shards in order for ``fold``.
    fn stats(&self, py: Python<'_>, text: &str, name: &str) -> PyResult<Py<PyAny>> {
        let hyp = document(text, name)?;
        let opts = self.opts();
        let stats = pool::detach(py, || cleme2::corpus_stats(&hyp, &self.reference, &opts))?
            .map_err(green_err)?;
        to_python(py, &stats)
    }

    /// The rows of statistics from ``stats``, unrounded: ``rows`` (a list of [name, row]
    /// in the CLI's order), ``sentences``, ``mean_length``, ``signature``.
    fn fold(&self, py: Python<'_>, stats: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats: Vec<cleme2::SentenceStats> = from_python(py, stats, "Cleme2.stats")?;
        let w = self.weigher();
        let r =
            pool::detach(py, || cleme2::fold(&stats, &self.settings, w, w))?.map_err(green_err)?;
        let rows: Vec<(&str, &cleme2::Row)> = cleme2::rows(&r).to_vec();
        let out = serde_json::json!({
            "rows": rows,
            "sentences": r.sentences,
            "mean_length": r.mean_length,
            "signature": self.signature(),
        });
        to_python(py, &out)
    }

    /// ``green paired``'s tests of two systems' ``stats`` on the corpus com (dependent, or
    /// ``independent=True``) with the object's weigher.
    #[pyo3(signature = (a, b, *, test = "bs", reps = 1000, seed = 0, confidence = 0.95, independent = false))]
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
        independent: bool,
    ) -> PyResult<Py<PyAny>> {
        let metric = cleme2::Cleme2 {
            independent,
            length_weighted: self.weigher == "length",
            corpus_factors: self.settings.corpus_factors,
            sentence_factors: self.settings.sentence_factors,
        };
        let (a, b): (Vec<cleme2::SentenceStats>, Vec<cleme2::SentenceStats>) = (
            from_python(py, a, "Cleme2.stats")?,
            from_python(py, b, "Cleme2.stats")?,
        );
        crate::m2::paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// Several systems' reports exactly as ``green cleme2 --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let stats: Vec<Vec<cleme2::SentenceStats>> =
            from_python(py, systems, "a list of Cleme2.stats results")?;
        let names = crate::system_names(names, stats.len())?;
        let w = self.weigher();
        let reports = pool::detach(py, || {
            (stats.iter())
                .map(|s| cleme2::fold(s, &self.settings, w, w))
                .collect::<Result<Vec<_>, _>>()
        })?
        .map_err(green_err)?;
        let systems: Vec<serde_json::Value> = (names.iter().zip(&reports))
            .map(|(path, report)| serde_json::json!({ "path": path, "report": report }))
            .collect();
        let out = serde_json::json!({ "signature": self.signature(), "systems": systems });
        to_python(py, &out)
    }

    #[pyo3(name = "signature")]
    fn py_signature(&self) -> String {
        self.signature()
    }
}

/// GoToScorer (Gotou et al. 2020) against one reference of an M2 text, unweighted or with
/// a weight file's JSON text (``weights``), as ``green gotoscorer`` computes it.
#[pyclass(frozen, name = "GoToScorerCore", module = "green_gec._green")]
pub struct GoToScorer {
    reference: Document,
    beta: f64,
    ref_id: i64,
    weights: Option<Vec<WeightEntry>>,
}

impl GoToScorer {
    fn signature(&self) -> String {
        gotoscorer::signature(self.beta, self.ref_id, self.weights.is_some())
    }
}

#[pymethods]
impl GoToScorer {
    #[new]
    #[pyo3(signature = (text, name, *, beta, ref_id, weights = None))]
    fn new(
        text: &str,
        name: &str,
        beta: f64,
        ref_id: i64,
        weights: Option<&str>,
    ) -> PyResult<Self> {
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(green_err(format!(
                "beta must be a finite number >= 0 (got {beta})"
            )));
        }
        let reference = document(text, name)?;
        let weights: Option<Vec<WeightEntry>> = weights
            .map(|w| {
                serde_json::from_str(w).map_err(|e| {
                    green_err(format!("weights are not a GoToScorer weight file (a JSON list of {{\"evaluations\", \"weights\"}}): {e}"))
                })
            })
            .transpose()?;
        if let Some(w) = &weights {
            if w.len() != reference.sentences.len() {
                return Err(green_err(format!(
                    "the weight file has {} entries but {name} has {} sentences; make it from the same reference",
                    w.len(),
                    reference.sentences.len()
                )));
            }
        }
        Ok(GoToScorer {
            reference,
            beta,
            ref_id,
            weights,
        })
    }

    fn __len__(&self) -> usize {
        self.reference.sentences.len()
    }

    /// Sufficient statistics of a hypothesis M2 text, one entry per sentence (every
    /// reference chunk's outcome and weight). Concatenate shards in order for ``fold``.
    fn stats(&self, py: Python<'_>, text: &str, name: &str) -> PyResult<Py<PyAny>> {
        let hyp = document(text, name)?;
        let stats = pool::detach(py, || {
            gotoscorer::corpus_stats(&hyp, &self.reference, self.ref_id, self.weights.as_deref())
        })?
        .map_err(green_err)?;
        to_python(py, &stats)
    }

    /// The corpus score of statistics from ``stats``, unrounded: ``corpus`` (tp, fp, fn, tn,
    /// p, r, f), ``sentence_f``, ``sentences``, ``signature``.
    fn fold(&self, py: Python<'_>, stats: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats: Vec<gotoscorer::SentenceStats> = from_python(py, stats, "GoToScorer.stats")?;
        let out = serde_json::json!({
            "corpus": gotoscorer::corpus(&stats, self.beta),
            "sentence_f": stats.iter().map(|s| gotoscorer::sentence(s, self.beta).f).collect::<Vec<_>>(),
            "sentences": stats.len(),
            "signature": self.signature(),
        });
        to_python(py, &out)
    }

    /// ``green paired``'s tests of two systems' ``stats`` on GoToScorer's F.
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
        let metric = gotoscorer::GoToScorer { beta: self.beta };
        let (a, b): (
            Vec<gotoscorer::SentenceStats>,
            Vec<gotoscorer::SentenceStats>,
        ) = (
            from_python(py, a, "GoToScorer.stats")?,
            from_python(py, b, "GoToScorer.stats")?,
        );
        crate::m2::paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// Several systems' results exactly as ``green gotoscorer --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let stats: Vec<Vec<gotoscorer::SentenceStats>> =
            from_python(py, systems, "a list of GoToScorer.stats results")?;
        let names = crate::system_names(names, stats.len())?;
        let systems: Vec<serde_json::Value> = (names.iter().zip(&stats))
            .map(|(path, s)| {
                serde_json::json!({
                    "path": path,
                    "sentences": s.len(),
                    "corpus": gotoscorer::corpus(s, self.beta),
                    "sentence_f": s.iter().map(|x| gotoscorer::sentence(x, self.beta).f).collect::<Vec<_>>(),
                })
            })
            .collect();
        let out = serde_json::json!({ "signature": self.signature(), "systems": systems });
        to_python(py, &out)
    }

    #[pyo3(name = "signature")]
    fn py_signature(&self) -> String {
        self.signature()
    }
}
