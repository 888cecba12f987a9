//! green-py: the Python extension module `green_gec._green`.
//!
//! GEC benchmark suites are written in Python; they embed a metric only if `import` and a
//! call are all it takes. This module is a thin layer over green-engine and green-tokenizers,
//! so a score from Python is the CLI's score bit for bit: it converts Python lists into owned
//! strings, releases the GIL, scores with the engine, and hands back plain floats, lists and
//! dicts. A `Scorer` keeps its built tokenizer (dictionaries load once). The friendly
//! functions and the type stubs live in the pure-Python package `python/green_gec`.

mod callable;
mod edits;
mod gleu;
mod io;
mod m2;
mod stream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use green_engine::{
    Accumulator, Config, Normalization, Report, Sentence, SentenceScores, Signature, Tokenizer,
};
use green_tokenizers::{Built, Options};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

pyo3::create_exception!(
    green_gec,
    GreenError,
    PyValueError,
    "Bad input or settings for GREEN; the message says what is wrong and what to do."
);

fn green_err(msg: impl std::fmt::Display) -> PyErr {
    GreenError::new_err(msg.to_string())
}

/// A loaded tokenizer plus GREEN settings, reusable across calls and threads.
///
/// `tokenizer` is a spec such as "word" (the default), "char", "zh", "ja" or "plugin:NAME"
/// (see green_gec.tokenizers()), or any callable text -> list of str; `n` the highest n-gram order; `beta` one number or a list
/// (default 2.0; inf = recall only); `norm` none, nfc, nfkc, lower, cjk-join or e.g. nfkc+lower;
/// `options` tokenizer options by key (see green_gec.tokenizer_options()). The tokenizer is built
/// once, here (a dictionary loads once); scoring releases the GIL.
#[pyclass(frozen, module = "green_gec")]
struct Scorer {
    tokenizer: Built,
    spec: String,
    n: usize,
    betas: Vec<f64>,
    norm: Normalization,
    /// The tokenizer options as given (as text), to rebuild the scorer when unpickled.
    options: BTreeMap<String, String>,
    /// The Python callable, when the tokenizer is one (it travels with a pickled scorer).
    callable: Option<Py<PyAny>>,
}

/// Input lines converted to owned strings, so scoring can run without the GIL.
struct Inputs {
    sources: Vec<String>,
    /// `[set][sentence]`; `None` = this set has no reference for that sentence.
    references: Vec<Vec<Option<String>>>,
    systems: Vec<Vec<String>>,
}

impl Inputs {
    /// Sources, reference sets and systems from Python, as `evaluate` takes them.
    fn extract(
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
}

/// Everything one scoring run produces.
struct Outcome {
    /// Mergeable statistics (they keep every sentence score); `finish` gives the report.
    stats: Accumulator,
    sentences: Vec<SentenceScores>,
    /// Per sentence, the reference-set index of each present reference (maps `chosen` back).
    present: Vec<Vec<usize>>,
    /// Largest number of references any sentence has (for the signature).
    refs: usize,
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

/// Score `inputs` with `tokenizer`; runs without the GIL, taking it between batches only to
/// see whether Ctrl-C was pressed (then it stops with `KeyboardInterrupt`).
fn score<T: Tokenizer + ?Sized>(
    tokenizer: &T,
    config: Config,
    inputs: &Inputs,
) -> PyResult<Outcome> {
    let count = inputs.sources.len();
    same_length(&inputs.references, "references", count).map_err(green_err)?;
    same_length(&inputs.systems, "hypotheses", count).map_err(green_err)?;
    let present: Vec<Vec<usize>> = (0..count)
        .map(|i| {
            (0..inputs.references.len())
                .filter(|&k| inputs.references[k][i].is_some())
                .collect()
        })
        .collect();
    if let Some(i) = present.iter().position(Vec::is_empty) {
        return Err(green_err(format!(
            "sentence {} (index {i}) has no reference: every sentence needs at least one reference that is not None",
            i + 1
        )));
    }
    let scorer = green_engine::Scorer::new(tokenizer, config);
    let refs: Vec<Vec<&str>> = present
        .iter()
        .enumerate()
        .map(|(i, ks)| {
            ks.iter()
                .map(|&k| inputs.references[k][i].as_deref().unwrap_or_default())
                .collect()
        })
        .collect();
    let hyps: Vec<Vec<&str>> = (0..count)
        .map(|i| inputs.systems.iter().map(|set| set[i].as_str()).collect())
        .collect();
    let batch: Vec<Sentence> = (0..count)
        .map(|i| Sentence {
            source: &inputs.sources[i],
            refs: &refs[i],
            hyps: &hyps[i],
        })
        .collect();
    let mut acc = Accumulator::mergeable(&scorer.config, inputs.systems.len());
    let mut sentences = Vec::with_capacity(count);
    for (b, chunk) in batch.chunks(green_engine::BATCH).enumerate() {
        Python::attach(|py| py.check_signals())?;
        let scored = acc.add_sentences(&scorer, chunk).map_err(|e| match e {
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
    fn signature_string(&self, betas: &[f64], refs: usize, level: &str) -> String {
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
        let out = self.run(py, betas, inputs)?;
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
        m2::to_python(py, &output)
    }

    /// The betas of one call: `beta` if given, else the scorer's own.
    fn betas_of(&self, beta: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<f64>> {
        beta.map_or_else(|| Ok(self.betas.clone()), extract_betas)
    }

    /// The one beta of a single-number call.
    fn single_beta(&self, beta: Option<f64>) -> PyResult<Vec<f64>> {
        match (beta, self.betas.as_slice()) {
            (Some(b), _) => Ok(vec![b]),
            (None, [b]) => Ok(vec![*b]),
            (None, many) => Err(green_err(format!(
                "this Scorer has {} betas ({}); pass beta=... to choose one, or use evaluate() for all",
                many.len(),
                many.iter().map(f64::to_string).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    fn run(&self, py: Python<'_>, betas: Vec<f64>, inputs: Inputs) -> PyResult<Outcome> {
        let config = config(self.n, betas)?;
        py.detach(|| match &self.tokenizer {
            Built::Word(t) => score(t, config, &inputs),
            Built::Char(t) => score(t, config, &inputs),
            Built::Dyn(t) => score(t.as_ref(), config, &inputs),
        })
    }

    fn one_system(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: Option<f64>,
    ) -> PyResult<Outcome> {
        let betas = self.single_beta(beta)?;
        let inputs = Inputs {
            sources: extract_lines(sources, "sources")?,
            references: extract_sets(references, "references", "str (or None)", |s| s.extract())?,
            systems: vec![extract_lines(hypotheses, "hypotheses")?],
        };
        self.run(py, betas, inputs)
    }
}

#[pymethods]
impl Scorer {
    #[new]
    #[pyo3(signature = (tokenizer = None, n = 4, beta = None, norm = "none", options = None))]
    fn new(
        py: Python<'_>,
        tokenizer: Option<&Bound<'_, PyAny>>,
        n: i64,
        beta: Option<&Bound<'_, PyAny>>,
        norm: &str,
        options: Option<BTreeMap<String, Bound<'_, PyAny>>>,
    ) -> PyResult<Self> {
        let betas = match beta {
            Some(b) => extract_betas(b)?,
            None => vec![2.0],
        };
        let n = checked_n(n)?;
        config(n, betas.clone())?;
        let options = option_texts(options)?;
        let word = PyString::new(py, "word").into_any();
        let tokenizer = tokenizer.unwrap_or(&word);
        if let Ok(spec) = tokenizer.extract::<String>() {
            let (built, norm) = build_tokenizer(py, &spec, norm, &options)?;
            return Ok(Scorer {
                tokenizer: built,
                spec,
                n,
                betas,
                norm,
                options,
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
        let wrapped = callable::Callable::new(tokenizer)?;
        let spec = wrapped.name();
        Ok(Scorer {
            tokenizer: Built::Dyn(Box::new(green_engine::normalize::Normalized::new(
                wrapped,
                opts.normalization,
            ))),
            spec,
            n,
            betas,
            norm: opts.normalization,
            options,
            callable: Some(tokenizer.clone().unbind()),
        })
    }

    /// Pickling (Spark closures, multiprocessing, Dask): a scorer travels as its settings
    /// and rebuilds its tokenizer where it lands.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyAny>,
        (Py<PyAny>, usize, Vec<f64>, String, BTreeMap<String, String>),
    ) {
        let this = slf.get();
        let py = slf.py();
        let tokenizer = match &this.callable {
            Some(f) => f.clone_ref(py),
            None => PyString::new(py, &this.spec).into_any().unbind(),
        };
        (
            slf.get_type().into_any(),
            (
                tokenizer,
                this.n,
                this.betas.clone(),
                this.norm.to_string(),
                this.options.clone(),
            ),
        )
    }

    /// The tokenizer spec this scorer was built from, e.g. "word" or "zh".
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
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

    fn __repr__(&self) -> String {
        let betas: Vec<String> = self.betas.iter().map(f64::to_string).collect();
        format!(
            "Scorer(tokenizer={:?}, n={}, beta=[{}], norm={:?})",
            self.spec,
            self.n,
            betas.join(", "),
            self.norm.to_string()
        )
    }

    /// The tokens GREEN counts for `text` (after normalisation).
    fn tokenize(&self, py: Python<'_>, text: &str) -> PyResult<Vec<String>> {
        let text = text.to_owned();
        py.detach(|| self.tokenizer.as_dyn().tokens(&text))
            .map_err(green_err)
    }

    /// The reproducibility signature for `refs` references at `level` (corpus, sentence, mean).
    #[pyo3(signature = (refs, level = "corpus", beta = None))]
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

    /// Corpus-level GREEN of one system.
    #[pyo3(signature = (sources, references, hypotheses, *, beta = None))]
    fn corpus_score(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: Option<f64>,
    ) -> PyResult<f64> {
        let out = self.one_system(py, sources, references, hypotheses, beta)?;
        nonempty(out.sentences.len())?;
        Ok(out.stats.finish().systems[0].betas[0].corpus)
    }

    /// Mean of the sentence-level GREEN scores of one system.
    #[pyo3(signature = (sources, references, hypotheses, *, beta = None))]
    fn mean_score(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: Option<f64>,
    ) -> PyResult<f64> {
        let out = self.one_system(py, sources, references, hypotheses, beta)?;
        nonempty(out.sentences.len())?;
        Ok(out.stats.finish().systems[0].betas[0].mean)
    }

    /// Sentence-level GREEN of one system, one float per sentence.
    #[pyo3(signature = (sources, references, hypotheses, *, beta = None))]
    fn sentence_scores(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
        beta: Option<f64>,
    ) -> PyResult<Vec<f64>> {
        let out = self.one_system(py, sources, references, hypotheses, beta)?;
        Ok(out.sentences.iter().map(|s| s.scores[0][0]).collect())
    }

    /// GREEN's sufficient statistics of these sentences: a plain dict (JSON- and
    /// pickle-friendly). Statistics of consecutive shards of a corpus, computed anywhere,
    /// `merge` in corpus order into exactly those of the whole corpus; `fold` scores them.
    #[pyo3(signature = (sources, references, systems, *, beta = None))]
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
        let out = self.run(py, betas, inputs)?;
        self.stats_dict(py, out.stats, out.refs)
    }

    /// Corpus and mean GREEN of files (a source, reference files, system files: one line per
    /// sentence) read in lock step a batch at a time, so memory stays flat: `fold`'s dict,
    /// with the CLI's numbers. `start`/`stop` score only those lines (0-based, `stop`
    /// exclusive, as `itertools.islice`): one shard of the files.
    #[pyo3(signature = (source, references, systems, *, beta = None, start = 0, stop = None))]
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
    ) -> PyResult<Bound<'py, PyDict>> {
        let paths = file_list(&source, &references, &systems)?;
        let rows = row_range(start, stop)?;
        let acc = self.stream_files(
            py,
            &paths,
            references.len(),
            beta,
            rows,
            stream::Keep::Totals,
        )?;
        nonempty(acc.sentences() as usize)?;
        evaluation_dict(py, self, &acc.finish(), references.len(), None)
    }

    /// `stats` of files read as `score_files` reads them, lines `start` to `stop` (so each
    /// worker reads its own shard of the same files; the statistics keep one float per
    /// sentence, system and beta).
    #[pyo3(signature = (source, references, systems, *, beta = None, start = 0, stop = None))]
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
    ) -> PyResult<Py<PyAny>> {
        let paths = file_list(&source, &references, &systems)?;
        let rows = row_range(start, stop)?;
        let acc = self.stream_files(
            py,
            &paths,
            references.len(),
            beta,
            rows,
            stream::Keep::Mergeable,
        )?;
        self.stats_dict(py, acc, references.len())
    }

    /// Corpus and mean GREEN of rows `(source, [references...], [hypotheses...])` from any
    /// iterable (a generator, a `datasets` column zip...), `systems` hypotheses per row,
    /// pulled a batch at a time so memory stays flat: `fold`'s dict.
    #[pyo3(signature = (rows, *, systems = 1, beta = None))]
    fn score_rows<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        systems: usize,
        beta: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let config = config(self.n, self.betas_of(beta)?)?;
        let keep = stream::Keep::Totals;
        let (acc, refs) = match &self.tokenizer {
            Built::Word(t) => stream::rows(py, t, config, rows, systems, keep),
            Built::Char(t) => stream::rows(py, t, config, rows, systems, keep),
            Built::Dyn(t) => stream::rows(py, t.as_ref(), config, rows, systems, keep),
        }?;
        nonempty(acc.sentences() as usize)?;
        evaluation_dict(py, self, &acc.finish(), refs, None)
    }

    /// The statistics of shards given in corpus order, merged: those of one pass over all.
    #[pyo3(signature = (*shards))]
    fn merge(&self, py: Python<'_>, shards: Vec<Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let mut shards = shards.iter().map(|s| self.own_stats(py, s));
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
        m2::to_python(py, &merged)
    }

    /// Corpus and mean GREEN of statistics (from `stats` or `merge`) for every system and
    /// beta, with per-order counts and the signature: `evaluate`'s dict without the
    /// sentence-level fields, with the numbers of one pass, bit for bit.
    fn fold<'py>(
        &self,
        py: Python<'py>,
        stats: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.own_stats(py, stats)?;
        nonempty(stats.statistics.sentences() as usize)?;
        evaluation_dict(py, self, &stats.statistics.finish(), stats.refs, None)
    }

    /// The scores exactly as ``green --format json --level LEVEL`` prints them (scores ×100,
    /// per-order counts, signatures): ``systems`` is a list of hypothesis lists, ``names``
    /// their names (default ``system1``, ``system2``, ...).
    #[pyo3(signature = (sources, references, systems, *, level = "corpus", beta = None, names = None))]
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

    /// ``report`` of files (a source, reference files, system files), named by their paths:
    /// the dict of ``green -s SOURCE -r REFERENCES... -c SYSTEMS... --format json``.
    #[pyo3(signature = (source, references, systems, *, level = "corpus", beta = None))]
    fn report_files(
        &self,
        py: Python<'_>,
        source: PathBuf,
        references: Vec<PathBuf>,
        systems: Vec<PathBuf>,
        level: &str,
        beta: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let level: green_output::Level = level.parse().map_err(green_err)?;
        let paths = file_list(&source, &references, &systems)?;
        let mut lines = paths
            .iter()
            .map(|p| io::read_lines(py, PathBuf::from(p)))
            .collect::<PyResult<Vec<_>>>()?
            .into_iter();
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
        self.report_of(py, betas, inputs, level, &files)
    }

    /// Every level, every beta, every system, with per-order counts: a plain dict.
    #[pyo3(signature = (sources, references, systems, *, beta = None))]
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
        let out = self.run(py, betas, inputs)?;
        evaluation_dict(
            py,
            self,
            &out.stats.finish(),
            out.refs,
            Some((&out.sentences, &out.present)),
        )
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

impl Scorer {
    /// Statistics as `stats` hands them out.
    fn stats_dict(
        &self,
        py: Python<'_>,
        statistics: Accumulator,
        refs: usize,
    ) -> PyResult<Py<PyAny>> {
        m2::to_python(
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
        keep: stream::Keep,
    ) -> PyResult<Accumulator> {
        let config = config(self.n, self.betas_of(beta)?)?;
        py.detach(|| match &self.tokenizer {
            Built::Word(t) => stream::files(t, config, paths, refs, rows, keep),
            Built::Char(t) => stream::files(t, config, paths, refs, rows, keep),
            Built::Dyn(t) => stream::files(t.as_ref(), config, paths, refs, rows, keep),
        })
    }

    /// Statistics from Python, checked to be whole and to come from this scorer's settings.
    fn own_stats(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<GreenStats> {
        let stats: GreenStats = m2::from_python(py, value, "Scorer.stats")?;
        stats.statistics.check().map_err(green_err)?;
        let (tokenizer, norm) = (self.tokenizer.name(), self.norm.to_string());
        if stats.tokenizer != tokenizer
            || stats.norm != norm
            || stats.statistics.config().n != self.n
        {
            return Err(green_err(format!(
                "these statistics were counted with tokenizer {} (norm {}) at N={}, this Scorer uses {tokenizer} (norm {norm}) at N={}",
                stats.tokenizer,
                stats.norm,
                stats.statistics.config().n,
                self.n
            )));
        }
        Ok(stats)
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
    let built = py
        .detach(|| green_tokenizers::build(spec, &opts))
        .map_err(green_err)?;
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

/// The result of `evaluate` as nested plain dicts and lists.
/// Sentence-level fields are there when `sentences` (scores, and each sentence's reference
/// sets) is given; statistics folded by `Scorer.fold` have none.
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
            let rows = PyList::empty(py);
            for o in &b.orders {
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
                ] {
                    row.set_item(k, v)?;
                }
                for (k, v) in [("tp", o.tp), ("fp", o.fp), ("fn", o.fn_)] {
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
            orders.append(rows)?;
        }
        s.set_item("orders", orders)?;
        systems.append(s)?;
    }
    d.set_item("systems", systems)?;
    Ok(d)
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
    m.add_class::<Scorer>()?;
    m.add_class::<gleu::Gleu>()?;
    m.add_class::<m2::MaxMatch>()?;
    m.add_class::<edits::ErrantCompare>()?;
    m.add_class::<edits::Cleme>()?;
    m.add("GreenError", m.py().get_type::<GreenError>())?;
    m.add_function(wrap_pyfunction!(tokenizers, m)?)?;
    m.add_function(wrap_pyfunction!(edits::errant_parallel, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizer_options, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_lines, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_references, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_multigec, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
