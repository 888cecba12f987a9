//! `green_gec.io`: the CLI's readers for Python, so a benchmark reads M2, para, MultiGEC and line
//! files with exactly the CLI's rules (`没有错误` is the source, empty cells, `T<ref>-A<alt>`
//! lines, missing annotators, essays aligned by id) instead of re-implementing them.

use std::path::PathBuf;

use green_io::m2::MissingAnnotator;
use green_io::references::{self, Format};
use green_io::Input;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{green_err, pool};

fn input(path: &std::path::Path) -> PyResult<Input> {
    path.to_str()
        .map(Input::parse)
        .ok_or_else(|| green_err(format!("{}: the path is not valid UTF-8", path.display())))
}

/// The lines of a text file as the CLI reads them (Python's text mode: `\n`, `\r\n` and `\r`
/// end a line; a BOM stays; invalid UTF-8 is an error naming the line).
#[pyfunction]
pub(crate) fn read_lines(py: Python<'_>, path: PathBuf) -> PyResult<Vec<String>> {
    let input = input(&path)?;
    pool::detach(py, || green_io::read_lines(&input))?.map_err(green_err)
}

/// A whole text file (an M2 file) as the CLI reads one: UTF-8, or an error naming the line.
#[pyfunction]
pub(crate) fn read_text(path: PathBuf) -> PyResult<String> {
    let bytes = std::fs::read(&path)
        .map_err(|e| green_err(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        green_err(format!(
            "{}:{line}: not UTF-8 (byte {}); convert the file to UTF-8",
            path.display(),
            at + 1
        ))
    })
}

/// The references of one or more files (line files, M2 with or without target lines, para
/// TSV), per sentence, as the CLI reads `-r` arguments: a dict with `sources` (None for line
/// files), `references` (a list of references per sentence) and `warnings`.
#[pyfunction]
#[pyo3(signature = (*paths, format = "auto", missing_annotator = "skip"))]
pub(crate) fn read_references<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    format: &str,
    missing_annotator: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let format: Option<Format> = Format::parse(format).map_err(green_err)?;
    let missing: MissingAnnotator = missing_annotator.parse().map_err(green_err)?;
    let inputs = paths
        .iter()
        .map(|p| input(p))
        .collect::<PyResult<Vec<_>>>()?;
    let corpus =
        pool::detach(py, || references::load_all(&inputs, format, missing))?.map_err(green_err)?;
    let out = PyDict::new(py);
    out.set_item("sources", corpus.sources)?;
    out.set_item("references", corpus.refs)?;
    out.set_item("warnings", corpus.warnings)?;
    Ok(out)
}

/// MultiGEC-2025 Markdown essays aligned by essay id, as the CLI aligns `-s`, `-r` and `-c`
/// `*.md` files: a dict with `ids`, `sources`, `references` (a list per essay) and `hypotheses`
/// (a list per system file).
#[pyfunction]
#[pyo3(signature = (original, references, systems))]
pub(crate) fn read_multigec<'py>(
    py: Python<'py>,
    original: PathBuf,
    references: Vec<PathBuf>,
    systems: Vec<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let source = input(&original)?;
    let refs = references
        .iter()
        .map(|p| input(p))
        .collect::<PyResult<Vec<_>>>()?;
    let hyps = systems
        .iter()
        .map(|p| input(p))
        .collect::<PyResult<Vec<_>>>()?;
    let essays =
        pool::detach(py, || green_io::multigec::load(&source, &refs, &hyps))?.map_err(green_err)?;
    let out = PyDict::new(py);
    out.set_item("ids", essays.ids)?;
    out.set_item("sources", essays.sources)?;
    out.set_item("references", essays.refs)?;
    out.set_item("hypotheses", essays.hyps)?;
    Ok(out)
}
