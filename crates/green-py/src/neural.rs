//! The cores of `green_gec.Some`, `Impara`, `Scribendi` and `PtM2` (the `neural` feature):
//! the model-based metrics from Python, the numbers `green some|impara|scribendi|ptm2` print.
//! Each object loads its models once and names them by their digest, computed once. The
//! statistics are per-sentence scores (PT-M2: every annotator's weighted counts), plain data
//! that concatenate over shards; `report` is the CLI's JSON as it prints it, and folding one
//! system is its report's single system.

use std::path::{Path, PathBuf};

use green_neural::{hub, impara, ptm2, scribendi, some};
use pyo3::prelude::*;

use crate::m2::{from_python, to_python};
use crate::{green_err, pool, system_names};

/// A model argument as a directory: a path that exists as it is, else a Hub id's snapshot
/// in the local Hugging Face cache at `revision`.
fn model(spec: &str, revision: Option<&str>) -> PyResult<PathBuf> {
    if Path::new(spec).exists() && revision.is_none() {
        return Ok(PathBuf::from(spec));
    }
    hub::resolve(spec, revision).map_err(green_err)
}

/// One hypothesis per source.
fn paired(sources: &[String], hypotheses: &[String]) -> PyResult<()> {
    if sources.len() != hypotheses.len() {
        return Err(green_err(format!(
            "hypotheses has {} sentences but sources has {}; give one hypothesis per source sentence",
            hypotheses.len(),
            sources.len()
        )));
    }
    Ok(())
}

/// `systems` (a list of statistics lists) with their names.
fn named<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    systems: &Bound<'_, PyAny>,
    names: Option<Vec<String>>,
    what: &str,
) -> PyResult<Vec<(String, Vec<T>)>> {
    let stats: Vec<Vec<T>> = from_python(py, systems, what)?;
    let names = system_names(names, stats.len())?;
    Ok(names.into_iter().zip(stats).collect())
}

/// SOME from a models directory (grammer/, fluency/, meaning/), as ``green some``.
#[pyclass(frozen, name = "SomeCore", module = "green_gec._green")]
pub struct SomeCore {
    scorer: some::Scorer,
    weights: some::Weights,
    digest: String,
}

#[pymethods]
impl SomeCore {
    #[new]
    #[pyo3(signature = (models, *, tokenizer, weights, batch_size, revision))]
    fn new(
        py: Python<'_>,
        models: &str,
        tokenizer: Option<&str>,
        weights: (f64, f64, f64),
        batch_size: usize,
        revision: Option<&str>,
    ) -> PyResult<Self> {
        let mut paths = some::Paths::in_dir(&model(models, revision)?).map_err(green_err)?;
        if let Some(t) = tokenizer {
            paths.tokenizer = model(t, revision)?;
        }
        let (scorer, digest) = pool::detach(py, || {
            let mut scorer = some::Scorer::open(&paths)?;
            scorer.batch_size = batch_size;
            let digest = scorer.digest()?;
            Ok::<_, green_neural::Error>((scorer, digest))
        })?
        .map_err(green_err)?;
        Ok(SomeCore {
            scorer,
            weights: some::Weights {
                grammaticality: weights.0,
                fluency: weights.1,
                meaning: weights.2,
            },
            digest,
        })
    }

    /// Every hypothesis's scores (grammaticality, fluency, meaning, some).
    fn stats(
        &self,
        py: Python<'_>,
        sources: Vec<String>,
        hypotheses: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        paired(&sources, &hypotheses)?;
        let scores = pool::detach(py, || {
            self.scorer.score(&sources, &hypotheses, self.weights)
        })?
        .map_err(green_err)?;
        to_python(py, &scores)
    }

    /// Several systems' statistics exactly as ``green some --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let systems = named(py, systems, names, "a list of Some.stats results")?;
        to_python(py, &some::report(&self.digest, self.weights, systems))
    }

    fn signature(&self) -> String {
        some::signature(&self.digest, self.weights)
    }
}

/// IMPARA from a quality and a similarity estimator, as ``green impara``.
#[pyclass(frozen, name = "ImparaCore", module = "green_gec._green")]
pub struct ImparaCore {
    scorer: impara::Scorer,
    threshold: f64,
    digest: String,
}

#[pymethods]
impl ImparaCore {
    #[new]
    #[pyo3(signature = (qe, se, *, threshold, batch_size, revision))]
    fn new(
        py: Python<'_>,
        qe: &str,
        se: &str,
        threshold: f64,
        batch_size: usize,
        revision: Option<&str>,
    ) -> PyResult<Self> {
        let (qe, se) = (model(qe, revision)?, model(se, revision)?);
        let (scorer, digest) = pool::detach(py, || {
            let mut scorer = impara::Scorer::open(&qe, &se)?;
            scorer.batch_size = batch_size;
            let digest = scorer.digest()?;
            Ok::<_, green_neural::Error>((scorer, digest))
        })?
        .map_err(green_err)?;
        Ok(ImparaCore {
            scorer,
            threshold,
            digest,
        })
    }

    /// Every hypothesis's similarity, quality and score.
    fn stats(
        &self,
        py: Python<'_>,
        sources: Vec<String>,
        hypotheses: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        paired(&sources, &hypotheses)?;
        let scores = pool::detach(py, || {
            self.scorer.score(&sources, &hypotheses, self.threshold)
        })?
        .map_err(green_err)?;
        to_python(py, &scores)
    }

    /// Several systems' statistics exactly as ``green impara --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let systems = named(py, systems, names, "a list of Impara.stats results")?;
        to_python(py, &impara::report(&self.digest, self.threshold, systems))
    }

    fn signature(&self) -> String {
        impara::signature(&self.digest, self.threshold)
    }
}

/// Scribendi from a GPT-2 directory, as ``green scribendi``.
#[pyclass(frozen, name = "ScribendiCore", module = "green_gec._green")]
pub struct ScribendiCore {
    scorer: scribendi::Scorer,
    digest: String,
}

#[pymethods]
impl ScribendiCore {
    #[new]
    #[pyo3(signature = (model_dir, *, threshold, batch_size, revision))]
    fn new(
        py: Python<'_>,
        model_dir: &str,
        threshold: f64,
        batch_size: usize,
        revision: Option<&str>,
    ) -> PyResult<Self> {
        let dir = model(model_dir, revision)?;
        let (scorer, digest) = pool::detach(py, || {
            let mut scorer = scribendi::Scorer::open(&dir)?;
            scorer.threshold = threshold;
            scorer.batch_size = batch_size;
            let digest = scorer.digest()?;
            Ok::<_, green_neural::Error>((scorer, digest))
        })?
        .map_err(green_err)?;
        Ok(ScribendiCore { scorer, digest })
    }

    /// Every hypothesis's score (−1, 0, 1) and the perplexities behind it.
    fn stats(
        &self,
        py: Python<'_>,
        sources: Vec<String>,
        hypotheses: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        paired(&sources, &hypotheses)?;
        let scores =
            pool::detach(py, || self.scorer.score(&sources, &hypotheses))?.map_err(green_err)?;
        to_python(py, &scores)
    }

    /// Several systems' statistics exactly as ``green scribendi --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let systems = named(py, systems, names, "a list of Scribendi.stats results")?;
        to_python(
            py,
            &scribendi::report(&self.digest, self.scorer.threshold, systems),
        )
    }

    fn signature(&self) -> String {
        scribendi::signature(&self.digest, self.scorer.threshold)
    }
}

/// PT-M2 against one gold M2 text (`name` names it in errors) on a BERT directory, as
/// ``green ptm2``; with `errant`, its ERRANT bases (``--hyp-m2``): the gold read as ERRANT
/// M2 too, and each system's ERRANT M2 given with its lines.
#[pyclass(frozen, name = "PtM2Core", module = "green_gec._green")]
pub struct PtM2Core {
    gold: green_m2::Gold,
    /// The gold as ERRANT M2 blocks, for the ERRANT bases.
    gold_errant: Option<Vec<ptm2::errant::Block>>,
    name: String,
    scorer: ptm2::BertScore,
    beta: f64,
    signature: String,
}

#[pymethods]
impl PtM2Core {
    #[new]
    #[pyo3(signature = (text, name, *, model_dir, layers, baseline, beta, batch_size, revision, errant))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: &str,
        name: &str,
        model_dir: &str,
        layers: usize,
        baseline: Option<PathBuf>,
        beta: f64,
        batch_size: usize,
        revision: Option<&str>,
        errant: bool,
    ) -> PyResult<Self> {
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(green_err(format!(
                "beta must be a finite number >= 0 (got {beta})"
            )));
        }
        let gold_errant = if errant {
            Some(ptm2::errant::parse(text, name).map_err(green_err)?)
        } else {
            None
        };
        let gold =
            green_m2::parse_gold(text, name, green_m2::Alternatives::First).map_err(green_err)?;
        let dir = model(model_dir, revision)?;
        let (scorer, digest) = pool::detach(py, || {
            let mut scorer = ptm2::BertScore::open(&dir, layers, baseline.as_deref())?;
            scorer.batch_size = batch_size;
            let digest = scorer.digest()?;
            Ok::<_, green_neural::Error>((scorer, digest))
        })?
        .map_err(green_err)?;
        Ok(PtM2Core {
            gold,
            gold_errant,
            name: name.to_owned(),
            scorer,
            beta,
            signature: ptm2::signature(errant, &digest, layers, baseline.is_some(), beta),
        })
    }

    /// Number of sentences in the gold file.
    fn __len__(&self) -> usize {
        self.gold.sentences.len()
    }

    /// Warnings about the gold file, as the CLI prints them.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.gold.warnings.clone()
    }

    /// Every sentence's statistics (each annotator's weighted counts) of one system's output
    /// lines, `start` the gold sentence of the first line (shards of a corpus); with the
    /// ERRANT bases, `m2` is the system's ERRANT M2 text of those lines (`m2_name` names it
    /// in errors).
    #[pyo3(signature = (hypotheses, *, start = 0, m2 = None, m2_name = "hyp_m2"))]
    fn stats(
        &self,
        py: Python<'_>,
        hypotheses: Vec<String>,
        start: usize,
        m2: Option<&str>,
        m2_name: &str,
    ) -> PyResult<Py<PyAny>> {
        let total = self.gold.sentences.len();
        let end = start.saturating_add(hypotheses.len());
        if end > total {
            return Err(green_err(format!(
                "hypotheses has {} lines from sentence {start} but the gold file has {total} sentences; give one output line per gold sentence",
                hypotheses.len()
            )));
        }
        let hyps: Vec<String> = hypotheses
            .iter()
            .map(|h| green_m2::text::strip(h).to_owned())
            .collect();
        let system = match (&self.gold_errant, m2) {
            (Some(_), Some(text)) => Some(ptm2::errant::parse(text, m2_name).map_err(green_err)?),
            (None, None) => None,
            (Some(_), None) => {
                return Err(green_err(
                    "the ERRANT bases (errant=True) need each system's ERRANT M2: give hyp_m2= (`green errant-parallel` makes it)",
                ))
            }
            (None, Some(_)) => {
                return Err(green_err(
                    "hyp_m2= is for the ERRANT bases: make the metric with errant=True (its gold read as ERRANT M2)",
                ))
            }
        };
        let stats = pool::detach(py, || {
            let weights = match (&self.gold_errant, &system) {
                (Some(gold), Some(system)) => {
                    let gold = gold.get(start..end).unwrap_or_default();
                    self.scorer
                        .weigh_errant(gold, system, &hyps, (&self.name, m2_name))
                }
                _ => self.scorer.weigh(&self.gold.sentences[start..end], &hyps),
            };
            weights.map(|w| {
                w.iter()
                    .map(ptm2::SentenceWeights::stats)
                    .collect::<Vec<_>>()
            })
        })?
        .map_err(green_err)?;
        to_python(py, &stats)
    }

    /// Several systems' statistics exactly as ``green ptm2 --format json`` prints them.
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let systems = named(py, systems, names, "a list of PtM2.stats results")?;
        to_python(
            py,
            &ptm2::report(self.signature.clone(), self.beta, systems),
        )
    }

    fn signature(&self) -> String {
        self.signature.clone()
    }
}
