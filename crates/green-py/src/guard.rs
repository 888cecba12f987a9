//! The CLI's warnings about input that scores without error but not as meant (green-input's
//! guards: a para TSV file read as lines, Chinese or Japanese spaced character by character
//! under a word segmenter, unsegmented Chinese or Japanese at `word`), from every Python entry
//! point that scores text: each batch is looked at as the CLI looks at it, and what the guard
//! found is handed to Python's `warnings` module as `GreenWarning`s, attributed to the
//! caller's line (`green_gec._check.warn`), so `-W error` turns them into errors.

use green_input::Guard;
use pyo3::prelude::*;

/// A guard for a run of tokenizer spec `spec`; `references` reference sets are named
/// `references[0]`, `references[1]`... in the para check.
pub(crate) fn new(spec: &str, join_cjk: bool, references: usize) -> Guard {
    let names: Vec<String> = (0..references)
        .map(|k| format!("references[{k}]"))
        .collect();
    Guard::new(spec, join_cjk, &names)
}

/// Each of `messages` as a `GreenWarning` (an error when the warnings filter says so).
pub(crate) fn warn(py: Python<'_>, messages: &[String]) -> PyResult<()> {
    if messages.is_empty() {
        return Ok(());
    }
    let warn = py.import("green_gec._check")?.getattr("warn")?;
    for message in messages {
        warn.call1((message,))?;
    }
    Ok(())
}

/// The warning for a line file or list that starts with a UTF-8 byte-order mark.
#[pyfunction]
pub(crate) fn bom_warning(name: &str) -> String {
    green_input::bom_warning(name)
}
