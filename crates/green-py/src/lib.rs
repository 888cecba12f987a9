//! green-py: the Python extension module `green_gec._green`, the core of the package.
//!
//! GEC benchmark suites are written in Python; they embed a metric only if `import` and a
//! call are all it takes. This module is a thin layer over the workspace's crates, so a score
//! from Python is the CLI's score bit for bit: it converts Python lists into owned strings,
//! releases the GIL, scores on the process's own thread pool (fork-safe, see `pool`), and
//! hands back plain floats, lists and dicts. Its classes (`ScorerCore`, `GleuCore`...) take
//! checked data positionally; the public API (keyword-only data, one reference layout, score
//! objects, warnings, pickling) is the pure-Python package `python/green_gec` around them.

mod callable;
mod edits;
mod edits2;
mod gleu;
mod green;
mod guard;
mod io;
mod m2;
mod meta;
#[cfg(feature = "neural")]
mod neural;
mod pool;
mod report;
mod signif;
mod stream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use green_engine::{Config, Normalization};
use green_tokenizers::{Built, Options};
use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

pyo3::create_exception!(
    green_gec,
    GreenError,
    PyValueError,
    "Bad input or settings for GREEN; the message says what is wrong and what to do."
);

pyo3::create_exception!(
    green_gec,
    GreenWarning,
    PyUserWarning,
    "Input that scores without error but probably not as meant (the CLI's warnings); \
     `warnings.simplefilter(\"error\", green_gec.GreenWarning)` or `-W error` makes them errors."
);

fn green_err(msg: impl std::fmt::Display) -> PyErr {
    GreenError::new_err(msg.to_string())
}

fn extract_lines(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a list of strings (one per sentence), not a str"
        )));
    }
    obj.extract::<Vec<String>>().map_err(|e| {
        PyTypeError::new_err(format!(
            "{what} must be a list of strings (one per sentence): {e}"
        ))
    })
}

fn extract_sets<'py, T>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    item: &str,
    each: impl Fn(&Bound<'py, PyAny>) -> PyResult<Vec<T>>,
) -> PyResult<Vec<Vec<T>>> {
    let hint = format!(
        "{what} must be a list of lists of {item}, one list per {what} set, e.g. [lines0, lines1]"
    );
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{hint}, not a str")));
    }
    let sets: Vec<Bound<'py, PyAny>> = obj
        .extract()
        .map_err(|e| PyTypeError::new_err(format!("{hint}: {e}")))?;
    sets.iter()
        .enumerate()
        .map(|(k, set)| {
            if set.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!(
                    "{hint}; {what}[{k}] is a str"
                )));
            }
            each(set).map_err(|e| PyTypeError::new_err(format!("{what}[{k}]: {hint}: {e}")))
        })
        .collect()
}

/// A beta given as one number or a sequence of numbers.
fn extract_betas(obj: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    if let Ok(b) = obj.extract::<f64>() {
        return Ok(vec![b]);
    }
    obj.extract::<Vec<f64>>().map_err(|_| {
        PyTypeError::new_err(
            "beta must be a number or a list of numbers, e.g. 2.0 or [0.5, 1.0, 2.0]",
        )
    })
}

/// An option value as text: `str()` of it (paths, numbers), with booleans as `true`/`false`.
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.extract::<bool>() {
        return Ok(b.to_string());
    }
    Ok(value.str()?.to_string())
}

fn config(n: usize, betas: Vec<f64>) -> PyResult<Config> {
    Config::new(n, betas).map_err(green_err)
}

/// Every set of `sets` has one line per source sentence (`count`).
fn same_length<T>(sets: &[Vec<T>], what: &str, count: usize) -> Result<(), String> {
    match sets.iter().position(|set| set.len() != count) {
        Some(k) => Err(format!(
            "{what}[{k}] has {} sentences but sources has {count}",
            sets[k].len()
        )),
        None => Ok(()),
    }
}

/// The paths of a file-streaming call as text, source first; at least one reference and
/// one system.
fn file_list(source: &Path, references: &[PathBuf], systems: &[PathBuf]) -> PyResult<Vec<String>> {
    if references.is_empty() || systems.is_empty() {
        return Err(green_err(
            "give at least one reference file and one system file",
        ));
    }
    std::iter::once(source)
        .chain(references.iter().map(PathBuf::as_path))
        .chain(systems.iter().map(PathBuf::as_path))
        .map(|p| {
            p.to_str()
                .map(str::to_owned)
                .ok_or_else(|| green_err(format!("{}: the path is not valid UTF-8", p.display())))
        })
        .collect()
}

/// `n` as an N in `1..=MAX_N`, or the error every entry point gives.
fn checked_n(n: i64) -> PyResult<usize> {
    if !(1..=green_engine::MAX_N as i64).contains(&n) {
        return Err(green_err(format!(
            "N must be between 1 and {} (got {n})",
            green_engine::MAX_N
        )));
    }
    Ok(n as usize)
}

/// Lines `start..stop` (all from `start` when `stop` is `None`).
fn row_range(start: usize, stop: Option<usize>) -> PyResult<std::ops::Range<usize>> {
    let stop = stop.unwrap_or(usize::MAX);
    if stop < start {
        return Err(green_err(format!(
            "start={start} is after stop={stop}; give a range of lines start <= stop"
        )));
    }
    Ok(start..stop)
}

/// Build the tokenizer `spec` with `norm` and `options` (keys as `green_gec.tokenizer_options()`),
/// without the GIL (building may load a dictionary); also the normalisation, for signatures.
/// Tokenizer options from Python (str, int, bool or path values) as text.
fn option_texts(
    options: Option<BTreeMap<String, Bound<'_, PyAny>>>,
) -> PyResult<BTreeMap<String, String>> {
    options
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| Ok((k, option_text(&v)?)))
        .collect()
}

fn build_tokenizer(
    py: Python<'_>,
    spec: &str,
    norm: &str,
    options: &BTreeMap<String, String>,
) -> PyResult<(Built, Normalization)> {
    let mut opts = Options::default();
    opts.set("norm", norm).map_err(green_err)?;
    for (key, value) in options {
        opts.set(key, value).map_err(green_err)?;
    }
    let built = pool::detach(py, || green_tokenizers::build(spec, &opts))?.map_err(green_err)?;
    Ok((built, opts.normalization))
}

/// The names of `count` systems in a report: `names` as given (one per system), or
/// `system1`, `system2`, ...
fn system_names(names: Option<Vec<String>>, count: usize) -> PyResult<Vec<String>> {
    match names {
        Some(names) if names.len() != count => Err(green_err(format!(
            "{} names for {count} systems: give one name per system",
            names.len()
        ))),
        Some(names) => Ok(names),
        None => Ok((1..=count).map(|i| format!("system{i}")).collect()),
    }
}

/// A corpus or mean score of no sentences is an error, as in the CLI, not 0.0.
fn nonempty(sentences: usize) -> PyResult<()> {
    if sentences == 0 {
        return Err(green_err(
            "no sentences: there is nothing to score (sentence_scores of an empty corpus is [])",
        ));
    }
    Ok(())
}

/// `x` as the CLI prints a number: half-up from its shortest decimal form to `digits`
/// decimals (`quantize(82.525, 2)` is `82.53`; Python's `f"{x:.2f}"` rounds the binary value).
#[pyfunction]
fn quantize(x: f64, digits: usize) -> String {
    green_output::number::quantize(x, digits)
}

/// The tokenizer specs this build knows, as (name, description) pairs.
#[pyfunction]
fn tokenizers() -> Vec<(&'static str, &'static str)> {
    green_tokenizers::KNOWN.to_vec()
}

/// The tokenizer option keys `options={...}` accepts, as (key, description) pairs.
#[pyfunction]
fn tokenizer_options() -> Vec<(&'static str, &'static str)> {
    green_tokenizers::OPTION_KEYS.to_vec()
}

#[pymodule]
fn _green(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<green::Scorer>()?;
    m.add_class::<gleu::Gleu>()?;
    m.add_class::<m2::MaxMatch>()?;
    m.add_class::<edits::ErrantCompare>()?;
    m.add_class::<edits::Cleme>()?;
    m.add_class::<edits2::Cleme2>()?;
    m.add_class::<edits2::GoToScorer>()?;
    #[cfg(feature = "neural")]
    {
        m.add_class::<neural::SomeCore>()?;
        m.add_class::<neural::ImparaCore>()?;
        m.add_class::<neural::ScribendiCore>()?;
        m.add_class::<neural::PtM2Core>()?;
    }
    m.add("GreenError", m.py().get_type::<GreenError>())?;
    m.add("GreenWarning", m.py().get_type::<GreenWarning>())?;
    m.add("MAX_N", green_engine::MAX_N)?;
    m.add_function(wrap_pyfunction!(tokenizers, m)?)?;
    m.add_function(wrap_pyfunction!(quantize, m)?)?;
    m.add_function(wrap_pyfunction!(guard::bom_warning, m)?)?;
    m.add_function(wrap_pyfunction!(meta::meta, m)?)?;
    m.add_function(wrap_pyfunction!(meta::maege, m)?)?;
    m.add_function(wrap_pyfunction!(meta::datasets, m)?)?;
    m.add_function(wrap_pyfunction!(edits::errant_parallel, m)?)?;
    m.add_function(wrap_pyfunction!(edits::errant_parallel_conllu, m)?)?;
    m.add_function(wrap_pyfunction!(report::html_report, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizer_options, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_lines, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_text, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_references, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_multigec, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
