//! GREEN's core for `green_gec.Scorer`: a built tokenizer plus settings, scoring lists of
//! sentences, files and row iterators, and handing out mergeable statistics.
//!
//! The public `Scorer` (python/green_gec/_scorer.py) takes its data by keyword, checks the
//! reference layout and builds score objects; this core takes the checked lists positionally.
//! Means are NumPy's pairwise means of the sentence scores everywhere, as `mgreen` and the CLI
//! average them, so every entry point keeps the sentence scores (8 bytes per sentence, system
//! and beta) even when streaming.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use green_engine::{
    Accumulator, Config, Normalization, Report, Sentence, SentenceScores, Signature, Tokenizer,
};
use green_tokenizers::{Built, Options};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use green_input::Guard;

use crate::callable::Callable;
use crate::m2::{from_python, to_python};
use crate::{
    build_tokenizer, checked_n, config, extract_betas, extract_lines, extract_sets, file_list,
    green_err, io, nonempty, option_texts, pool, row_range, same_length, stream, system_names,
};

/// A loaded tokenizer plus GREEN settings, reusable across calls and threads.
#[pyclass(frozen, name = "ScorerCore", module = "green_gec._green")]
pub struct Scorer {
    pub(crate) tokenizer: Built,
    pub(crate) spec: String,
    pub(crate) n: usize,
    betas: Vec<f64>,
    pub(crate) norm: Normalization,
    /// The Python callable, when the tokenizer is one.
    callable: Option<Arc<Callable>>,
}

/// Input lines converted to owned strings, so scoring can run without the GIL.
pub(crate) struct Inputs {
    pub(crate) sources: Vec<String>,
    /// `[set][sentence]`; `None` = this set has no reference for that sentence.
    pub(crate) references: Vec<Vec<Option<String>>>,
    pub(crate) systems: Vec<Vec<String>>,
}

impl Inputs {
    /// Sources, reference sets and systems from Python.
    pub(crate) fn extract(
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        systems: &Bound<'_, PyAny>,
    ) -> PyResult<Inputs> {
        Ok(Inputs {
            sources: extract_lines(sources, "sources")?,
            references: extract_sets(references, "references", "str (or None)", |s| s.extract())?,
            systems: extract_sets(systems, "systems", "str", |s| s.extract())?,
        })
    }

    /// Per sentence, the reference-set index of each present reference; every line count
    /// checked, and every sentence has a reference.
    pub(crate) fn present(&self) -> PyResult<Vec<Vec<usize>>> {
        let count = self.sources.len();
        same_length(&self.references, "references", count).map_err(green_err)?;
        same_length(&self.systems, "hypotheses", count).map_err(green_err)?;
        let present: Vec<Vec<usize>> = (0..count)
            .map(|i| {
                (0..self.references.len())
                    .filter(|&k| self.references[k][i].is_some())
                    .collect()
            })
            .collect();
        if let Some(i) = present.iter().position(Vec::is_empty) {
            return Err(green_err(format!(
                "sentence {} (index {i}) has no reference: every sentence needs at least one reference that is not None",
                i + 1
            )));
        }
        Ok(present)
    }

    /// Each sentence's present references and its hypotheses (one per system).
    pub(crate) fn views(&self, present: &[Vec<usize>]) -> (Vec<Vec<&str>>, Vec<Vec<&str>>) {
        let refs = present
            .iter()
            .enumerate()
            .map(|(i, ks)| {
                ks.iter()
                    .map(|&k| self.references[k][i].as_deref().unwrap_or_default())
                    .collect()
            })
            .collect();
        let hyps = (0..self.sources.len())
            .map(|i| self.systems.iter().map(|set| set[i].as_str()).collect())
            .collect();
        (refs, hyps)
    }
}

/// Everything one scoring run produces.
struct Outcome {
    /// Mergeable statistics (they keep every sentence score).
    stats: Accumulator,
    sentences: Vec<SentenceScores>,
    /// Per sentence, the reference-set index of each present reference (maps `chosen` back).
    present: Vec<Vec<usize>>,
    /// Largest number of references any sentence has (for the signature).
    refs: usize,
}

/// Corpus and mean scores of `stats`, the means as NumPy averages the sentence scores.
pub(crate) fn finish(stats: &Accumulator) -> Report {
    let mut report = stats.finish();
    if let Some(scores) = stats.sentence_scores() {
        report.set_numpy_means(scores);
    }
    report
}

/// Score `inputs` with `tokenizer` on `pool`, without the GIL: a batch at a time, each
/// looked at by `guard`, looking between batches (on the calling thread, where Python handles
/// signals) whether Ctrl-C was pressed, then it stops with `KeyboardInterrupt`.
fn score<T: Tokenizer + ?Sized>(
    pool: &rayon::ThreadPool,
    tokenizer: &T,
    config: Config,
    inputs: &Inputs,
    guard: &mut Guard,
) -> PyResult<Outcome> {
    let present = inputs.present()?;
    let scorer = green_engine::Scorer::new(tokenizer, config);
    let (refs, hyps) = inputs.views(&present);
    let batch: Vec<Sentence> = (0..inputs.sources.len())
        .map(|i| Sentence {
            source: &inputs.sources[i],
            refs: &refs[i],
            hyps: &hyps[i],
        })
        .collect();
    let mut acc = Accumulator::mergeable(&scorer.config, inputs.systems.len());
    let mut sentences = Vec::with_capacity(batch.len());
    for (b, chunk) in batch.chunks(green_engine::BATCH).enumerate() {
        Python::attach(|py| py.check_signals())?;
        guard.look(chunk);
        let scored = pool
            .install(|| acc.add_sentences(&scorer, chunk))
            .map_err(|e| match e {
                green_engine::Error::Tokenize { sentence, source } => {
                    let sentence = b * green_engine::BATCH + sentence;
                    green_err(format!(
                        "sentence {} (index {sentence}): tokenizer failed: {source}",
                        sentence + 1
                    ))
                }
                e => green_err(e),
            })?;
        sentences.extend(scored.into_iter().map(|(_, s)| s));
    }
    let refs = present.iter().map(Vec::len).max().unwrap_or(0);
    Ok(Outcome {
        stats: acc,
        sentences,
        present,
        refs,
    })
}

impl Scorer {
    pub(crate) fn signature_string(&self, betas: &[f64], refs: usize, level: &str) -> String {
        Signature {
            n: self.n,
            betas: betas.to_vec(),
            tokenizer: self.tokenizer.name(),
            normalization: self.norm,
            refs,
            level: level.into(),
            m2: None,
        }
        .to_string()
    }

    /// `report`'s dict: the CLI's JSON output of `inputs` at `level`.
    fn report_of(
        &self,
        py: Python<'_>,
        betas: Vec<f64>,
        inputs: Inputs,
        level: green_output::Level,
        files: &green_output::green::Files,
    ) -> PyResult<Py<PyAny>> {
        let guard = match files.references {
            [] => self.guard(inputs.references.len()),
            names => Guard::new(&self.spec, self.norm.join_cjk, names),
        };
        let out = self.run_guarded(py, betas, &inputs, guard)?;
        nonempty(out.stats.sentences() as usize)?;
        let mut report = out.stats.finish();
        // The CLI averages mean-level scores as the reference does (NumPy's pairwise sum).
        if let (green_output::Level::Mean, Some(scores)) = (level, out.stats.sentence_scores()) {
            report.set_numpy_means(scores);
        }
        let base = Signature {
            n: self.n,
            betas: Vec::new(),
            tokenizer: self.tokenizer.name(),
            normalization: self.norm,
            refs: out.refs,
            level: level.name().into(),
            m2: None,
        };
        let output =
            green_output::green::output(&report, Some(&out.sentences), level, &base, files);
        to_python(py, &output)
    }

    /// The betas of one call: `beta` if given, else the scorer's own.
    pub(crate) fn betas_of(&self, beta: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<f64>> {
        beta.map_or_else(|| Ok(self.betas.clone()), extract_betas)
    }

    /// The error to raise for `err`: a `KeyboardInterrupt` (or `SystemExit`) that a callable
    /// tokenizer raised stays what it is.
    pub(crate) fn stopped(&self, err: PyErr) -> PyErr {
        self.callable
            .as_ref()
            .and_then(|c| c.take_stop())
            .unwrap_or(err)
    }

    /// The input guard of a run of this scorer with `references` reference sets.
    pub(crate) fn guard(&self, references: usize) -> Guard {
        crate::guard::new(&self.spec, self.norm.join_cjk, references)
    }

    fn run(&self, py: Python<'_>, betas: Vec<f64>, inputs: &Inputs) -> PyResult<Outcome> {
        self.run_guarded(py, betas, inputs, self.guard(inputs.references.len()))
    }

    /// Scores `inputs`, then warns about what `guard` found in them.
    fn run_guarded(
        &self,
        py: Python<'_>,
        betas: Vec<f64>,
        inputs: &Inputs,
        mut guard: Guard,
    ) -> PyResult<Outcome> {
        let config = config(self.n, betas)?;
        let pool = pool::get(py)?;
        let out = py
            .detach(|| match &self.tokenizer {
                Built::Word(t) => score(pool, t, config, inputs, &mut guard),
                Built::Char(t) => score(pool, t, config, inputs, &mut guard),
                Built::Dyn(t) => score(pool, t.as_ref(), config, inputs, &mut guard),
            })
            .map_err(|e| self.stopped(e))?;
        crate::guard::warn(py, &guard.warnings())?;
        Ok(out)
    }

    /// Statistics as `stats` hands them out.
    fn stats_dict(
        &self,
        py: Python<'_>,
        statistics: Accumulator,
        refs: usize,
    ) -> PyResult<Py<PyAny>> {
        to_python(
            py,
            &GreenStats {
                tokenizer: self.tokenizer.name(),
                norm: self.norm.to_string(),
                refs,
                statistics,
            },
        )
    }

    /// Streams rows `rows` of `paths` (source, `refs` reference files, systems) without the GIL.
    fn stream_files(
        &self,
        py: Python<'_>,
        paths: &[String],
        refs: usize,
        beta: Option<&Bound<'_, PyAny>>,
        rows: std::ops::Range<usize>,
    ) -> PyResult<(Accumulator, Vec<String>)> {
        let config = config(self.n, self.betas_of(beta)?)?;
        let pool = pool::get(py)?;
        let mut guard = Guard::new(&self.spec, self.norm.join_cjk, &paths[1..=refs]);
        let g = &mut guard;
        let out = py
            .detach(|| match &self.tokenizer {
                Built::Word(t) => stream::files(pool, t, config, paths, refs, rows, g),
                Built::Char(t) => stream::files(pool, t, config, paths, refs, rows, g),
                Built::Dyn(t) => stream::files(pool, t.as_ref(), config, paths, refs, rows, g),
            })
            .map_err(|e| self.stopped(e))?;
        crate::guard::warn(py, &guard.warnings())?;
        Ok(out)
    }

    /// Statistics from Python, checked to be whole and to come from this scorer's settings
    /// (tokenizer, normalisation, N, and `betas` when given).
    fn own_stats(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        betas: Option<&[f64]>,
    ) -> PyResult<GreenStats> {
        let stats: GreenStats = from_python(py, value, "Scorer.stats")?;
        stats.statistics.check().map_err(green_err)?;
        let (tokenizer, norm) = (self.tokenizer.name(), self.norm.to_string());
        let config = stats.statistics.config();
        if stats.tokenizer != tokenizer || stats.norm != norm || config.n != self.n {
            return Err(green_err(format!(
                "these statistics were counted with tokenizer {} (norm {}) at N={}, this Scorer uses {tokenizer} (norm {norm}) at N={}",
                stats.tokenizer, stats.norm, config.n, self.n
            )));
        }
        if let Some(betas) = betas {
            let same = betas.len() == config.betas.len()
                && betas
                    .iter()
                    .zip(&config.betas)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
            if !same {
                return Err(green_err(format!(
                    "these statistics were counted at beta {}, not at beta {}: fold them with beta=[{}] or count them again",
                    list(&config.betas),
                    list(betas),
                    list(&config.betas)
                )));
            }
        }
        Ok(stats)
    }
}

/// Betas as a signature writes them: `0.5,2,inf`.
fn list(betas: &[f64]) -> String {
    betas
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[pymethods]
impl Scorer {
    #[new]
    #[pyo3(signature = (tokenizer, n, beta, norm, options))]
    fn new(
        py: Python<'_>,
        tokenizer: &Bound<'_, PyAny>,
        n: i64,
        beta: &Bound<'_, PyAny>,
        norm: &str,
        options: BTreeMap<String, Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let betas = extract_betas(beta)?;
        let n = checked_n(n)?;
        config(n, betas.clone())?;
        let options = option_texts(Some(options))?;
        if let Ok(spec) = tokenizer.extract::<String>() {
            let (built, norm) = build_tokenizer(py, &spec, norm, &options)?;
            return Ok(Scorer {
                tokenizer: built,
                spec,
                n,
                betas,
                norm,
                callable: None,
            });
        }
        if !tokenizer.is_callable() {
            return Err(PyTypeError::new_err(
                "tokenizer: give a spec (str, see green_gec.tokenizers()) or a callable text -> list of str",
            ));
        }
        if !options.is_empty() {
            return Err(green_err(
                "options apply to built-in tokenizers; configure a callable tokenizer yourself",
            ));
        }
        let mut opts = Options::default();
        opts.set("norm", norm).map_err(green_err)?;
        let wrapped = Arc::new(Callable::new(tokenizer)?);
        let spec = wrapped.name();
        Ok(Scorer {
            tokenizer: Built::Dyn(Box::new(green_engine::normalize::Normalized::new(
                Arc::clone(&wrapped),
                opts.normalization,
            ))),
            spec,
            n,
            betas,
            norm: opts.normalization,
            callable: Some(wrapped),
        })
    }

    /// The tokenizer spec this scorer was built from, e.g. "word" or "zh".
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The Python callable that tokenizes, or None for a built-in tokenizer.
    #[getter]
    fn callable(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.callable.as_ref().map(|c| c.func().clone_ref(py))
    }

    /// The tokenizer's name as it appears in signatures.
    #[getter]
    fn tokenizer(&self) -> String {
        self.tokenizer.name()
    }

    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    #[getter]
    fn betas(&self) -> Vec<f64> {
        self.betas.clone()
    }

    /// The normalisation setting, e.g. "none" or "nfkc+lower".
    #[getter]
    fn norm(&self) -> String {
        self.norm.to_string()
    }

    /// The tokens GREEN counts for `text` (after normalisation).
    fn tokenize(&self, py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
        let text = text.to_owned();
        py.detach(|| self.tokenizer.as_dyn().tokens(&text))
            .map_err(|e| self.stopped(green_err(e)))
    }

    /// The reproducibility signature for `refs` references at `level` (corpus, sentence, mean).
    fn signature(
        &self,
        refs: usize,
        level: &str,
        beta: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        if !matches!(level, "corpus" | "sentence" | "mean") {
            return Err(green_err(format!(
                "unknown level '{level}': use corpus, sentence or mean"
            )));
        }
        Ok(self.signature_string(&self.betas_of(beta)?, refs, level))
    }

    /// Corpus and mean GREEN (with per-order counts) of in-memory sentences: `fold`'s dict.
    fn summary<'py>(
        &self,
        py: Python<'py>,
        sources: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        systems: &Bound<'py, PyAny>,
        beta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let betas = self.betas_of(beta)?;
        let inputs = Inputs::extract(sources, references, systems)?;
        let out = self.run(py, betas, &inputs)?;
        nonempty(out.stats.sentences() as usize)?;
        evaluation_dict(py, self, &finish(&out.stats), out.refs, None)
    }

    /// Sentence-level GREEN of one system at one beta, one float per sentence.
    fn sentence_scores(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: f64,
    ) -> PyResult<Vec<f64>> {
        let inputs = Inputs {
            sources: extract_lines(sources, "sources")?,
            references: extract_sets(references, "references", "str (or None)", |s| s.extract())?,
            systems: vec![extract_lines(hypotheses, "hypotheses")?],
        };
        let out = self.run(py, vec![beta], &inputs)?;
        Ok(out.sentences.iter().map(|s| s.scores[0][0]).collect())
    }

    /// Every level, every beta, every system, with per-order counts: a plain dict.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        sources: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        systems: &Bound<'py, PyAny>,
        beta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let betas = self.betas_of(beta)?;
        let inputs = Inputs::extract(sources, references, systems)?;
        let out = self.run(py, betas, &inputs)?;
        evaluation_dict(
            py,
            self,
            &finish(&out.stats),
            out.refs,
            Some((&out.sentences, &out.present)),
        )
    }

    /// GREEN's sufficient statistics of these sentences: a plain dict (JSON- and
    /// pickle-friendly) that `merge`s with other shards in corpus order and `fold`s.
    fn stats(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        systems: &Bound<'_, PyAny>,
        beta: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let betas = self.betas_of(beta)?;
        let inputs = Inputs::extract(sources, references, systems)?;
        let out = self.run(py, betas, &inputs)?;
        self.stats_dict(py, out.stats, out.refs)
    }

    /// Corpus and mean GREEN of line files read in lock step a batch at a time, rows
    /// `start..stop`: `fold`'s dict, with the CLI's numbers; and the files that start with a
    /// byte-order mark.
    #[allow(clippy::too_many_arguments)]
    fn score_files<'py>(
        &self,
        py: Python<'py>,
        source: PathBuf,
        references: Vec<PathBuf>,
        systems: Vec<PathBuf>,
        beta: Option<&Bound<'py, PyAny>>,
        start: usize,
        stop: Option<usize>,
    ) -> PyResult<(Bound<'py, PyDict>, Vec<String>)> {
        let paths = file_list(&source, &references, &systems)?;
        let rows = row_range(start, stop)?;
        let (acc, boms) = self.stream_files(py, &paths, references.len(), beta, rows)?;
        nonempty(acc.sentences() as usize)?;
        let folded = evaluation_dict(py, self, &finish(&acc), references.len(), None)?;
        Ok((folded, boms))
    }

    /// `stats` of files read as `score_files` reads them, rows `start..stop`; and the files
    /// that start with a byte-order mark.
    #[allow(clippy::too_many_arguments)]
    fn stats_files(
        &self,
        py: Python<'_>,
        source: PathBuf,
        references: Vec<PathBuf>,
        systems: Vec<PathBuf>,
        beta: Option<&Bound<'_, PyAny>>,
        start: usize,
        stop: Option<usize>,
    ) -> PyResult<(Py<PyAny>, Vec<String>)> {
        let paths = file_list(&source, &references, &systems)?;
        let rows = row_range(start, stop)?;
        let (acc, boms) = self.stream_files(py, &paths, references.len(), beta, rows)?;
        Ok((self.stats_dict(py, acc, references.len())?, boms))
    }

    /// Corpus and mean GREEN of rows `(source, [references...], [hypotheses...])` from any
    /// iterable, `systems` hypotheses per row, pulled a batch at a time: `fold`'s dict.
    fn score_rows<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        systems: usize,
        beta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let config = config(self.n, self.betas_of(beta)?)?;
        // Rows carry each sentence's references as a list: no reference files to name.
        let mut guard = self.guard(0);
        let g = &mut guard;
        let (acc, refs) = match &self.tokenizer {
            Built::Word(t) => stream::rows(py, t, config, rows, systems, g),
            Built::Char(t) => stream::rows(py, t, config, rows, systems, g),
            Built::Dyn(t) => stream::rows(py, t.as_ref(), config, rows, systems, g),
        }
        .map_err(|e| self.stopped(e))?;
        crate::guard::warn(py, &guard.warnings())?;
        nonempty(acc.sentences() as usize)?;
        evaluation_dict(py, self, &finish(&acc), refs, None)
    }

    /// The statistics of shards given in corpus order, merged: those of one pass over all.
    fn merge(&self, py: Python<'_>, shards: Vec<Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let mut shards = shards.iter().map(|s| self.own_stats(py, s, None));
        let mut merged = shards
            .next()
            .ok_or_else(|| green_err("merge needs at least one shard of statistics"))??;
        for shard in shards {
            let shard = shard?;
            merged.refs = merged.refs.max(shard.refs);
            merged
                .statistics
                .merge(&shard.statistics)
                .map_err(green_err)?;
        }
        to_python(py, &merged)
    }

    /// Corpus and mean GREEN of statistics (from `stats` or `merge`) counted at `beta` (the
    /// scorer's betas when None) for every system and beta, with per-order counts and the
    /// signature: the numbers of one pass, bit for bit.
    fn fold<'py>(
        &self,
        py: Python<'py>,
        stats: &Bound<'py, PyAny>,
        beta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let betas = self.betas_of(beta)?;
        let stats = self.own_stats(py, stats, Some(&betas))?;
        nonempty(stats.statistics.sentences() as usize)?;
        evaluation_dict(py, self, &finish(&stats.statistics), stats.refs, None)
    }

    /// The scores exactly as ``green --format json --level LEVEL`` prints them.
    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        systems: &Bound<'_, PyAny>,
        level: &str,
        beta: Option<&Bound<'_, PyAny>>,
        names: Option<Vec<String>>,
    ) -> PyResult<Py<PyAny>> {
        let level: green_output::Level = level.parse().map_err(green_err)?;
        let inputs = Inputs::extract(sources, references, systems)?;
        let names = system_names(names, inputs.systems.len())?;
        let betas = self.betas_of(beta)?;
        let files = green_output::green::Files {
            source: None,
            references: &[],
            systems: &names,
        };
        self.report_of(py, betas, inputs, level, &files)
    }

    /// ``report`` of files, named by their paths: ``green -s -r -c --format json``; and the
    /// files that start with a byte-order mark.
    fn report_files(
        &self,
        py: Python<'_>,
        source: PathBuf,
        references: Vec<PathBuf>,
        systems: Vec<PathBuf>,
        level: &str,
        beta: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Py<PyAny>, Vec<String>)> {
        let level: green_output::Level = level.parse().map_err(green_err)?;
        let paths = file_list(&source, &references, &systems)?;
        let texts = paths
            .iter()
            .map(|p| io::read_lines(py, PathBuf::from(p)))
            .collect::<PyResult<Vec<_>>>()?;
        let boms = paths
            .iter()
            .zip(&texts)
            .filter(|(_, lines)| lines.first().is_some_and(|l| l.starts_with('\u{feff}')))
            .map(|(p, _)| p.clone())
            .collect();
        let mut lines = texts.into_iter();
        let sources = lines.next().unwrap_or_default();
        let refs: Vec<Vec<Option<String>>> = lines
            .by_ref()
            .take(references.len())
            .map(|set| set.into_iter().map(Some).collect())
            .collect();
        let inputs = Inputs {
            sources,
            references: refs,
            systems: lines.collect(),
        };
        let betas = self.betas_of(beta)?;
        let files = green_output::green::Files {
            source: Some(&paths[0]),
            references: &paths[1..=references.len()],
            systems: &paths[references.len() + 1..],
        };
        Ok((self.report_of(py, betas, inputs, level, &files)?, boms))
    }

    /// One sentence at one beta: its score, the reference set chosen and that reference's
    /// per-order counts and scores.
    fn sentence<'py>(
        &self,
        py: Python<'py>,
        source: String,
        references: Vec<String>,
        hypothesis: String,
        beta: f64,
    ) -> PyResult<Py<PyAny>> {
        crate::signif::sentence(py, self, source, references, hypothesis, beta)
    }

    /// The percentile bootstrap interval of one system's corpus GREEN at `beta`: the
    /// interval `green paired` gives the same system with the same seed and replicates.
    #[allow(clippy::too_many_arguments)]
    fn bootstrap(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: f64,
        reps: usize,
        seed: u64,
        confidence: f64,
    ) -> PyResult<Py<PyAny>> {
        let inputs = Inputs {
            sources: extract_lines(sources, "sources")?,
            references: extract_sets(references, "references", "str (or None)", |s| s.extract())?,
            systems: vec![extract_lines(hypotheses, "hypotheses")?],
        };
        crate::signif::bootstrap(py, self, &inputs, beta, reps, seed, confidence)
    }

    /// Every system against the first (the baseline) with `green paired`'s test: the dict
    /// ``green paired --format json`` prints.
    #[allow(clippy::too_many_arguments)]
    fn paired(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        systems: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
        beta: f64,
        test: &str,
        reps: usize,
        seed: u64,
        confidence: f64,
    ) -> PyResult<Py<PyAny>> {
        let inputs = Inputs::extract(sources, references, systems)?;
        let names = system_names(names, inputs.systems.len())?;
        let test = crate::signif::Test {
            name: test,
            reps,
            seed,
            confidence,
        };
        crate::signif::paired(py, self, &inputs, &names, beta, &test)
    }
}

/// What `Scorer.stats` hands out: the engine's mergeable statistics plus what must agree
/// for two shards to merge (tokenizer and normalisation) and the most references seen.
#[derive(serde::Serialize, serde::Deserialize)]
struct GreenStats {
    tokenizer: String,
    norm: String,
    refs: usize,
    statistics: Accumulator,
}

/// The result of `evaluate` as nested plain dicts and lists.
/// Sentence-level fields are there when `sentences` (scores, and each sentence's reference
/// sets) is given; folded statistics have none.
fn evaluation_dict<'py>(
    py: Python<'py>,
    scorer: &Scorer,
    report: &Report,
    refs: usize,
    sentences: Option<(&[SentenceScores], &[Vec<usize>])>,
) -> PyResult<Bound<'py, PyDict>> {
    let betas = &report.config.betas;
    let d = PyDict::new(py);
    let signatures = PyDict::new(py);
    for level in ["corpus", "sentence", "mean"] {
        signatures.set_item(level, scorer.signature_string(betas, refs, level))?;
    }
    d.set_item("signature", signatures.get_item("corpus")?)?;
    d.set_item("signatures", signatures)?;
    d.set_item("n", scorer.n)?;
    d.set_item("betas", betas.to_vec())?;
    d.set_item(
        "alphas",
        report
            .systems
            .first()
            .map(|s| s.betas.iter().map(|b| b.alpha).collect::<Vec<_>>()),
    )?;
    d.set_item("tokenizer", scorer.tokenizer.name())?;
    d.set_item("norm", scorer.norm.to_string())?;
    d.set_item("refs", refs)?;
    d.set_item("sentences", report.sentences)?;
    let systems = PyList::empty(py);
    for (h, system) in report.systems.iter().enumerate() {
        let s = PyDict::new(py);
        s.set_item(
            "corpus",
            system.betas.iter().map(|b| b.corpus).collect::<Vec<_>>(),
        )?;
        s.set_item(
            "mean",
            system.betas.iter().map(|b| b.mean).collect::<Vec<_>>(),
        )?;
        if let Some((scores, present)) = sentences {
            let sentence: Vec<Vec<f64>> = (0..betas.len())
                .map(|b| scores.iter().map(|x| x.scores[b][h]).collect())
                .collect();
            s.set_item("sentence", sentence)?;
            let chosen: Vec<Vec<usize>> = (0..betas.len())
                .map(|b| {
                    scores
                        .iter()
                        .zip(present)
                        .map(|(x, p)| p[x.chosen[b][h]])
                        .collect()
                })
                .collect();
            s.set_item("chosen", chosen)?;
        }
        let orders = PyList::empty(py);
        for b in &system.betas {
            orders.append(order_rows(py, &b.orders)?)?;
        }
        s.set_item("orders", orders)?;
        systems.append(s)?;
    }
    d.set_item("systems", systems)?;
    Ok(d)
}

/// Per-order counts tk..ui, TP/FP/FN and P/R/F (fractions) as a list of dicts.
pub(crate) fn order_rows<'py>(
    py: Python<'py>,
    orders: &[green_engine::OrderScore],
) -> PyResult<Bound<'py, PyList>> {
    let rows = PyList::empty(py);
    for o in orders {
        let row = PyDict::new(py);
        let r = &o.regions;
        row.set_item("order", o.order)?;
        for (k, v) in [
            ("tk", r.tk),
            ("td", r.td),
            ("ti", r.ti),
            ("od", r.od),
            ("oi", r.oi),
            ("ud", r.ud),
            ("ui", r.ui),
            ("tp", o.tp),
            ("fp", o.fp),
            ("fn", o.fn_),
        ] {
            row.set_item(k, v)?;
        }
        for (k, v) in [
            ("p", o.p),
            ("r", o.r),
            ("f", o.f),
            ("cum_p", o.cum_p),
            ("cum_r", o.cum_r),
            ("cum_f", o.cum_f),
        ] {
            row.set_item(k, v)?;
        }
        rows.append(row)?;
    }
    Ok(rows)
}
