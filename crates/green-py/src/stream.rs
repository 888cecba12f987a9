//! Streaming from files or from a Python iterator: a batch of sentences at a time, so the
//! texts never sit in memory together (what stays is one float per sentence, system and beta,
//! for NumPy's mean). Files go through green-io's lock-step reader (the CLI's); an iterator
//! is pulled a batch at a time with the GIL, then counted without it. Every batch is counted
//! on the process's own pool (see `pool`).

use std::ops::Range;

use green_engine::{Accumulator, Config, Scorer, Sentence, Tokenizer, BATCH};
use green_input::Guard;
use green_io::{Batches, Input};
use pyo3::prelude::*;

use crate::{green_err, pool};

/// Counts `sentences` (the `done`th onwards) into `acc` on `pool`; `place` names sentence `k`
/// (1-based) in an error.
fn count_into<T: Tokenizer + ?Sized>(
    pool: &rayon::ThreadPool,
    scorer: &Scorer<&T>,
    acc: &mut Accumulator,
    sentences: &[Sentence],
    done: usize,
    place: &dyn Fn(usize) -> String,
) -> PyResult<()> {
    match pool.install(|| acc.fold_sentences(scorer, sentences)) {
        Ok(()) => Ok(()),
        Err(green_engine::Error::Tokenize { sentence, source }) => Err(green_err(format!(
            "{}: tokenizer failed: {source}",
            place(done + sentence + 1)
        ))),
        Err(e) => Err(green_err(e)),
    }
}

/// Scores rows `rows` of `paths` (source, `refs` reference files, then systems) read in lock
/// step, each batch looked at by `guard`; also the files that start with a byte-order mark (kept in the first token, as the
/// reference keeps it; the caller warns).
pub(crate) fn files<T: Tokenizer + ?Sized>(
    pool: &rayon::ThreadPool,
    tokenizer: &T,
    config: Config,
    paths: &[String],
    refs: usize,
    rows: Range<usize>,
    guard: &mut Guard,
) -> PyResult<(Accumulator, Vec<String>)> {
    let readers = paths
        .iter()
        .map(|p| Input::parse(p).open())
        .collect::<Result<Vec<_>, _>>()
        .map_err(green_err)?;
    let scorer = Scorer::new(tokenizer, config);
    let mut acc = Accumulator::mergeable(&scorer.config, paths.len() - 1 - refs);
    let mut done = rows.start;
    let mut batches = Batches::spawn_rows(readers, rows, |_| {});
    for batch in batches.by_ref() {
        Python::attach(|py| py.check_signals())?;
        let batch = batch.map_err(green_err)?;
        let views: Vec<&str> = batch.lines().collect();
        let sentences = Sentence::from_rows(&views, paths.len(), refs);
        guard.look(&sentences);
        count_into(pool, &scorer, &mut acc, &sentences, done, &|k| {
            format!("{}:{k}", paths[0])
        })?;
        done += sentences.len();
    }
    let readers = batches.finish().map_err(green_err)?;
    let boms = readers
        .iter()
        .filter(|r| r.had_bom())
        .map(|r| r.name().to_string())
        .collect();
    Ok((acc, boms))
}

/// One row from Python: (source, references, hypotheses).
type Row = (String, Vec<String>, Vec<String>);

/// Scores the rows of a Python iterator, `systems` hypotheses each, each batch looked at by
/// `guard`.
pub(crate) fn rows<T: Tokenizer + ?Sized>(
    py: Python<'_>,
    tokenizer: &T,
    config: Config,
    rows: &Bound<'_, PyAny>,
    systems: usize,
    guard: &mut Guard,
) -> PyResult<(Accumulator, usize)> {
    let pool = pool::get(py)?;
    let scorer = Scorer::new(tokenizer, config);
    let mut acc = Accumulator::mergeable(&scorer.config, systems);
    let mut iter = rows.try_iter()?;
    let (mut done, mut most_refs) = (0, 0);
    loop {
        let mut batch: Vec<Row> = Vec::with_capacity(BATCH);
        for row in iter.by_ref().take(BATCH) {
            let row: Row = row?.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "row {}: expected (source, [references], [hypotheses]) of str",
                    done + batch.len() + 1
                ))
            })?;
            if row.1.is_empty() || row.2.len() != systems {
                return Err(green_err(format!(
                    "row {}: {} references and {} hypotheses; every row needs at least one reference and {systems} hypotheses",
                    done + batch.len() + 1,
                    row.1.len(),
                    row.2.len()
                )));
            }
            most_refs = most_refs.max(row.1.len());
            batch.push(row);
        }
        if batch.is_empty() {
            return Ok((acc, most_refs));
        }
        py.detach(|| {
            let refs: Vec<Vec<&str>> = batch
                .iter()
                .map(|r| r.1.iter().map(String::as_str).collect())
                .collect();
            let hyps: Vec<Vec<&str>> = batch
                .iter()
                .map(|r| r.2.iter().map(String::as_str).collect())
                .collect();
            let sentences: Vec<Sentence> = batch
                .iter()
                .enumerate()
                .map(|(i, r)| Sentence {
                    source: &r.0,
                    refs: &refs[i],
                    hyps: &hyps[i],
                })
                .collect();
            guard.look(&sentences);
            count_into(pool, &scorer, &mut acc, &sentences, done, &|k| {
                format!("row {k}")
            })
        })?;
        done += batch.len();
    }
}
