//! The cores of `green_gec.ErrantCompare` and `green_gec.Cleme`: ERRANT's span F and CLEME
//! from Python, the numbers `green errant-compare` and `green cleme` print, with per-sentence
//! statistics that serialise and fold in shards. Scores are handed back unrounded (the
//! originals round to 4 decimals to print; the score objects round when printed), while
//! `report` is the CLI's JSON as it prints it.

use green_edits::{cleme, compare, pyfloat, Document};
use pyo3::prelude::*;

use crate::m2::{from_python, to_python};
use crate::{extract_lines, green_err, pool};

fn document(text: &str, name: &str) -> PyResult<Document> {
    green_edits::parse(text, name).map_err(green_err)
}

fn check_beta(beta: f64) -> PyResult<()> {
    if beta.is_finite() && beta >= 0.0 {
        Ok(())
    } else {
        Err(green_err(format!(
            "beta must be a finite number >= 0 (got {beta})"
        )))
    }
}

/// ERRANT's span-based F-score exactly as ERRANT 3.0.2's ``errant_compare`` computes it,
/// against one reference M2 text (`name` names it in errors).
///
/// ``mode`` is ``cs`` (span + correction, the default), ``cse`` (+ error type), ``ds`` (span
/// detection) or ``dt`` (token detection); ``single``, ``multi`` and ``filter`` are the
/// original's ``-single``, ``-multi`` and ``-filt``; ``cherrant=True`` is ChERRANT's scorer
/// (target lines pooled, spaces removed from corrections, ``NA`` references skipped).
#[pyclass(frozen, name = "ErrantCore", module = "green_gec._green")]
pub struct ErrantCompare {
    reference: Document,
    opts: compare::Options,
}

#[pymethods]
impl ErrantCompare {
    #[new]
    #[pyo3(signature = (text, name, *, beta, mode, single, multi, filter, cherrant))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        text: &str,
        name: &str,
        beta: f64,
        mode: &str,
        single: bool,
        multi: bool,
        filter: Vec<String>,
        cherrant: bool,
    ) -> PyResult<Self> {
        check_beta(beta)?;
        let mode = match mode {
            "cs" => compare::Mode::Correction,
            "cse" => compare::Mode::CorrectionTyped,
            "ds" => compare::Mode::DetectionSpan,
            "dt" => compare::Mode::DetectionToken,
            other => {
                return Err(green_err(format!(
                    "unknown mode '{other}'; use cs, cse, ds or dt"
                )))
            }
        };
        Ok(ErrantCompare {
            reference: document(text, name)?,
            opts: compare::Options {
                beta,
                mode,
                single,
                multi,
                filter,
                cherrant,
                ..Default::default()
            },
        })
    }

    /// Number of sentences in the reference file.
    fn __len__(&self) -> usize {
        self.reference.sentences.len()
    }

    /// Sufficient statistics of a hypothesis M2 text, one entry per sentence (every
    /// annotator pair's counts). Concatenate shards in sentence order for ``fold``.
    fn stats(&self, py: Python<'_>, text: &str, name: &str) -> PyResult<Py<PyAny>> {
        let hyp = document(text, name)?;
        let stats = pool::detach(py, || {
            compare::corpus_stats(&hyp, &self.reference, &self.opts)
        })?
        .map_err(green_err)?;
        to_python(py, &stats)
    }

    /// Is system B's score different from baseline A's by more than chance? Paired bootstrap
    /// (``test="bs"``), approximate (``"ar"``) or exact randomisation of the two systems'
    /// ``stats`` on the same sentences; each replicate folds its sentences as the metric
    /// does. Returns ``a``, ``b``, ``delta``, ``p``, ``replicates`` (and ``intervals``).
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
        let metric = compare::Errant {
            beta: self.opts.beta,
        };
        let (a, b): (Vec<compare::SentenceStats>, Vec<compare::SentenceStats>) = (
            from_python(py, a, "ErrantCompare.stats")?,
            from_python(py, b, "ErrantCompare.stats")?,
        );
        crate::m2::paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// Corpus TP, FP, FN and unrounded P, R, F of statistics from ``stats`` (the greedy pair
    /// choice runs here), per-type counts at ``cat`` level 1, 2 or 3, and the signature.
    fn fold(&self, py: Python<'_>, stats: &Bound<'_, PyAny>, cat: u8) -> PyResult<Py<PyAny>> {
        let stats: Vec<compare::SentenceStats> = from_python(py, stats, "ErrantCompare.stats")?;
        let beta = self.opts.beta;
        let r = pool::detach(py, || compare::fold(&stats, beta))?;
        let (p, r_, f) = pyfloat::prf_unrounded(
            r.score.tp as f64,
            r.score.fp as f64,
            r.score.fn_ as f64,
            beta,
        );
        let score = compare::Score {
            p,
            r: r_,
            f,
            ..r.score
        };
        let mut out = serde_json::to_value(&score).map_err(green_err)?;
        out["categories"] =
            serde_json::to_value(compare::categories_at(&r.categories, cat)).map_err(green_err)?;
        out["signature"] = compare::signature(&self.opts).into();
        to_python(py, &out)
    }

    /// Several systems' scores exactly as ``green errant-compare --format json`` prints them:
    /// ``systems`` is a list of ``stats`` results, one per system, ``names`` their names
    /// (default ``system1``, ...); categories at ``cat`` level; ``verbose=True`` adds the pair
    /// chosen in each sentence.
    #[pyo3(signature = (systems, *, names = None, cat = 3, verbose = false))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
        cat: u8,
        verbose: bool,
    ) -> PyResult<Py<PyAny>> {
        if !(1..=3).contains(&cat) {
            return Err(green_err(format!("cat must be 1, 2 or 3 (got {cat})")));
        }
        let stats: Vec<Vec<compare::SentenceStats>> =
            from_python(py, systems, "a list of ErrantCompare.stats results")?;
        let names = crate::system_names(names, stats.len())?;
        let (signature, beta) = (compare::signature(&self.opts), self.opts.beta);
        let out = pool::detach(py, || {
            green_output::edits::errant(signature, &names, &stats, beta, cat, verbose)
        })?;
        to_python(py, &out)
    }

    /// The signature `green errant-compare --format json` prints for these settings.
    fn signature(&self) -> String {
        compare::signature(&self.opts)
    }
}

/// CLEME (Ye et al. 2023) against one reference M2 text (`name` names it in errors):
/// dependent and independent, corpus (CLEME) and sentence level (SentCLEME), length-weighted
/// as published and unweighted, as ``green cleme`` computes them.
#[pyclass(frozen, name = "ClemeCore", module = "green_gec._green")]
pub struct Cleme {
    reference: Document,
    opts: cleme::Options,
}

#[pymethods]
impl Cleme {
    #[new]
    #[pyo3(signature = (text, name, *, beta, merge_distance))]
    fn new(text: &str, name: &str, beta: f64, merge_distance: usize) -> PyResult<Self> {
        check_beta(beta)?;
        Ok(Cleme {
            reference: document(text, name)?,
            opts: cleme::Options {
                beta,
                merge_distance,
            },
        })
    }

    fn __len__(&self) -> usize {
        self.reference.sentences.len()
    }

    /// Sufficient statistics of a hypothesis M2 text, one entry per sentence (the lengths of
    /// its chunks by outcome). Concatenate shards in order for ``fold``.
    fn stats(&self, py: Python<'_>, text: &str, name: &str) -> PyResult<Py<PyAny>> {
        let hyp = document(text, name)?;
        let stats = pool::detach(py, || {
            cleme::corpus_stats(&hyp, &self.reference, &self.opts)
        })?
        .map_err(green_err)?;
        to_python(py, &stats)
    }

    /// Is system B's score different from baseline A's by more than chance? Paired bootstrap
    /// (``test="bs"``), approximate (``"ar"``) or exact randomisation of the two systems'
    /// ``stats`` on the same sentences; each replicate folds its sentences as the metric
    /// does. Returns ``a``, ``b``, ``delta``, ``p``, ``replicates`` (and ``intervals``).
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
        let metric = cleme::Cleme {
            beta: self.opts.beta,
            independent,
        };
        let (a, b): (Vec<cleme::SentenceStats>, Vec<cleme::SentenceStats>) = (
            from_python(py, a, "Cleme.stats")?,
            from_python(py, b, "Cleme.stats")?,
        );
        crate::m2::paired(py, metric, a, b, test, reps, seed, confidence)
    }

    /// The report of statistics from ``stats``, unrounded: ``dependent`` and ``independent``,
    /// each with ``corpus``, ``corpus_unweighted``, ``sentence``, ``sentence_unweighted``.
    fn fold(&self, py: Python<'_>, stats: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let stats: Vec<cleme::SentenceStats> = from_python(py, stats, "Cleme.stats")?;
        let r =
            pool::detach(py, || cleme::fold_unrounded(&stats, &self.opts))?.map_err(green_err)?;
        let mut out = serde_json::to_value(&r).map_err(green_err)?;
        out["signature"] = cleme::signature(&self.opts).into();
        to_python(py, &out)
    }

    /// Several systems' reports exactly as ``green cleme --format json`` prints them:
    /// ``systems`` is a list of ``stats`` results, one per system, ``names`` their names
    /// (default ``system1``, ...).
    #[pyo3(signature = (systems, *, names = None))]
    fn report(
        &self,
        py: Python<'_>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let stats: Vec<Vec<cleme::SentenceStats>> =
            from_python(py, systems, "a list of Cleme.stats results")?;
        let names = crate::system_names(names, stats.len())?;
        let signature = cleme::signature(&self.opts);
        let out = pool::detach(py, || {
            green_output::edits::cleme(signature, &names, &stats, &self.opts)
        })?
        .map_err(green_err)?;
        to_python(py, &out)
    }

    fn signature(&self) -> String {
        cleme::signature(&self.opts)
    }
}

/// ERRANT's ``errant_parallel -lev -merge MERGE`` without a tagger: the M2 text of tokenized
/// source lines ``orig`` and, per annotator, a list of corrected lines ``cor`` (line for
/// line). ``merge`` is ``all-split``, ``all-merge`` or ``all-equal``; error types are ERRANT's
/// operation tier (``M``, ``U``, ``R``, ``UNK``).
#[pyfunction]
#[pyo3(signature = (orig, cor, *, merge = "all-merge"))]
pub fn errant_parallel(
    py: Python<'_>,
    orig: &Bound<'_, PyAny>,
    cor: Vec<Bound<'_, PyAny>>,
    merge: &str,
) -> PyResult<String> {
    let merge: green_edits::align::Merge = merge.parse().map_err(green_err)?;
    let orig = extract_lines(orig, "orig")?;
    let cor = cor
        .iter()
        .map(|c| extract_lines(c, "each cor"))
        .collect::<PyResult<Vec<_>>>()?;
    if cor.is_empty() {
        return Err(green_err("cor needs at least one list of corrected lines"));
    }
    for (k, c) in cor.iter().enumerate() {
        if c.len() != orig.len() {
            return Err(green_err(format!(
                "cor[{k}] has {} lines but orig has {}; they must match line for line",
                c.len(),
                orig.len()
            )));
        }
    }
    pool::detach(py, || {
        orig.iter()
            .enumerate()
            .map(|(i, o)| {
                let c: Vec<&str> = cor.iter().map(|f| f[i].as_str()).collect();
                green_edits::parallel::block(o, &c, merge)
                    .map_err(|e| format!("line {}: {e}", i + 1))
            })
            .collect::<Result<String, String>>()
    })?
    .map_err(green_err)
}

/// ERRANT's whole pipeline (linguistic alignment, merger, classifier) on a tagger's
/// annotations: ``orig`` and each list of ``cor`` are tokenized lines, ``orig_conllu`` and
/// ``cor_conllu`` the CoNLL-U of each (its sentences in line order, one or more per
/// non-empty line, whose words are the line's tokens). ``green_gec.errant_typed`` builds these
/// from spaCy Docs.
#[pyfunction]
#[pyo3(signature = (orig, cor, orig_conllu, cor_conllu, *, merge = "rules", classifier = "english", lev = false))]
#[allow(clippy::too_many_arguments)]
pub fn errant_parallel_conllu(
    py: Python<'_>,
    orig: &Bound<'_, PyAny>,
    cor: Vec<Bound<'_, PyAny>>,
    orig_conllu: &str,
    cor_conllu: Vec<String>,
    merge: &str,
    classifier: &str,
    lev: bool,
) -> PyResult<String> {
    use green_edits::conllu::Sentence;
    use green_edits::typed::{block, line_sentences, Classifier, Merger};
    let merger: Merger = merge.parse().map_err(green_err)?;
    let classifier = match classifier {
        "english" => Classifier::english(),
        "ud" => Classifier::ud(),
        other => {
            return Err(green_err(format!(
                "classifier '{other}': choose english (ERRANT 3.0.2) or ud (MultiGEC-2025's cainesap/errant)"
            )))
        }
    };
    let orig = extract_lines(orig, "orig")?;
    let cor = cor
        .iter()
        .map(|c| extract_lines(c, "each cor"))
        .collect::<PyResult<Vec<_>>>()?;
    if cor.is_empty() || cor.len() != cor_conllu.len() {
        return Err(green_err(format!(
            "{} corrected files and {} CoNLL-U texts; give at least one, one CoNLL-U for each",
            cor.len(),
            cor_conllu.len()
        )));
    }
    for (k, c) in cor.iter().enumerate() {
        if c.len() != orig.len() {
            return Err(green_err(format!(
                "cor[{k}] has {} lines but orig has {}; they must match line for line",
                c.len(),
                orig.len()
            )));
        }
    }
    pool::detach(py, || -> Result<String, String> {
        // Each line's sentences; Docs are made only for the lines that are aligned.
        let files = std::iter::once((&orig, orig_conllu, "orig".to_string()))
            .chain(
                cor.iter()
                    .zip(&cor_conllu)
                    .enumerate()
                    .map(|(k, (lines, text))| (lines, text.as_str(), format!("cor[{k}]"))),
            )
            .map(|(lines, text, name)| {
                let conllu_name = format!("{name} CoNLL-U");
                let sentences =
                    green_edits::conllu::parse(text, &conllu_name).map_err(|e| e.to_string())?;
                let ranges = line_sentences(lines, &sentences, &name, &conllu_name)
                    .map_err(|e| e.to_string())?;
                Ok((sentences, ranges))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let line = |k: usize, i: usize| &files[k].0[files[k].1[i].clone()];
        orig.iter()
            .enumerate()
            .map(|(i, o)| {
                let c: Vec<(&str, &[Sentence])> = cor
                    .iter()
                    .enumerate()
                    .map(|(k, lines)| (lines[i].as_str(), line(k + 1, i)))
                    .collect();
                block(o, line(0, i), &c, lev, merger, &classifier)
                    .map_err(|e| format!("line {}: {e}", i + 1))
            })
            .collect()
    })?
    .map_err(green_err)
}
