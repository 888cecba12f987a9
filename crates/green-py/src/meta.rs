//! `green meta` and `green maege` from Python: run dataset descriptors (or an M2 file) against
//! metric configurations and get the report as data, the dict the CLI prints with
//! `--format json`.
//!
//! The settings arrive as one dict (checked and defaulted by `green_gec._meta`), read here
//! with serde so a misspelt key is an error naming it; the rows are built as the CLI builds
//! them: every tokenizer, level, N and beta, then GLEU, M2, ERRANT and CLEME when asked.

use std::path::PathBuf;

use green_io::{m2, Input};
use green_meta::dataset::{Dataset, Descriptor, BUILTIN, GREEN_PAPER};
use green_meta::maege::{Options as MaegeOptions, Protocol, RefMode};
use green_meta::{HumanScore, Level, MetricConfig, Sweep, TiePolicy, TrueSkill};
use pyo3::prelude::*;

use crate::m2::to_python;
use crate::{green_err, pool};

/// The settings dict `green_gec._meta` made for `what`, read by serde.
fn settings_of<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| green_err(format!("green_gec.{what}: {e}")))
}

/// The metric configurations shared by both runs.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Grid {
    tokenizers: Vec<String>,
    /// Empty: 6 for char specs, else 4.
    n: Vec<usize>,
    betas: Vec<f64>,
    levels: Vec<String>,
    norm: String,
    gleu: bool,
    m2: bool,
    edits: bool,
    cleme2: bool,
    gleu_iterations: usize,
    seed: u64,
}

impl Grid {
    /// Every row: per tokenizer and level, GREEN at each N and beta, then the other metrics.
    fn configs(&self) -> PyResult<Vec<MetricConfig>> {
        let normalization: green_engine::Normalization = self
            .norm
            .parse()
            .map_err(|e: String| green_err(format!("norm: {e}")))?;
        let levels: Vec<Level> = self
            .levels
            .iter()
            .map(|l| l.parse().map_err(green_err))
            .collect::<PyResult<_>>()?;
        Ok(Sweep {
            tokenizers: &self.tokenizers,
            normalization,
            levels: &levels,
            ns: &self.n,
            betas: &self.betas,
            green: true,
            gleu: self.gleu.then_some((self.gleu_iterations, self.seed)),
            m2: self.m2,
            edits: self.edits,
            typed: false,
            cleme2: self.cleme2,
        }
        .configs())
    }
}

/// `green meta`'s settings.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MetaSettings {
    datasets: Vec<String>,
    data: PathBuf,
    #[serde(flatten)]
    grid: Grid,
    human: String,
    ties: String,
    ts_runs: usize,
    windows: Vec<usize>,
    bootstrap: Option<usize>,
    confidence: f64,
    williams: bool,
    permutation: bool,
    preset: Option<String>,
}

/// `green meta --format json` of `settings` (see `green_gec.meta`).
#[pyfunction]
pub(crate) fn meta(py: Python<'_>, settings: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let s: MetaSettings = settings_of(py, settings, "meta")?;
    let options = green_meta::Options {
        human: s.human.parse::<HumanScore>().map_err(green_err)?,
        ties: s.ties.parse::<TiePolicy>().map_err(green_err)?,
        trueskill: TrueSkill::wmt(s.ts_runs, s.grid.seed),
        windows: s.windows.clone(),
        bootstrap: s
            .bootstrap
            .map(|r| green_meta::Bootstrap::new(r, s.grid.seed, s.confidence))
            .transpose()
            .map_err(green_err)?,
        williams: s.williams,
        external: Vec::new(),
        scored: Vec::new(),
        permutation: s.permutation,
    };
    let (names, configs) = match s.preset.as_deref() {
        Some("green-paper") => (
            GREEN_PAPER.iter().map(|d| d.to_string()).collect(),
            MetricConfig::green_paper(s.grid.gleu_iterations, s.grid.seed),
        ),
        Some(other) => {
            return Err(green_err(format!(
                "unknown preset '{other}'; the one preset is green-paper"
            )))
        }
        None => (s.datasets.clone(), s.grid.configs()?),
    };
    if !s.data.is_dir() {
        return Err(green_err(format!(
            "data: the directory {} does not exist",
            s.data.display()
        )));
    }
    let report = pool::detach(py, || {
        let datasets: Vec<Dataset> = names
            .iter()
            .map(|d| Dataset::load(Descriptor::load(d)?, &s.data))
            .collect::<Result<_, _>>()?;
        green_meta::run(&datasets, &configs, &options)
    })?
    .map_err(green_err)?;
    to_python(py, &report)
}

/// The names of the built-in dataset descriptors.
#[pyfunction]
pub(crate) fn datasets() -> Vec<&'static str> {
    BUILTIN.iter().map(|(name, _)| *name).collect()
}

/// `green maege`'s settings.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MaegeSettings {
    file: PathBuf,
    #[serde(flatten)]
    grid: Grid,
    reps: usize,
    max_m: usize,
    protocol: String,
    refs: Option<String>,
    held_out: Vec<String>,
    strip_spaces: bool,
    missing_annotator: String,
}

/// `green maege --format json` of `settings` (see `green_gec.maege`), and the M2 file's
/// warnings.
#[pyfunction]
pub(crate) fn maege(
    py: Python<'_>,
    settings: &Bound<'_, PyAny>,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    let s: MaegeSettings = settings_of(py, settings, "maege")?;
    let protocol = match s.protocol.as_str() {
        "lattice" => Protocol::Lattice,
        "paper" => Protocol::Paper,
        other => {
            return Err(green_err(format!(
                "unknown protocol '{other}'; use lattice or paper"
            )))
        }
    };
    let default_refs = match protocol {
        Protocol::Paper => "held-out",
        Protocol::Lattice => "all",
    };
    let refs = match s.refs.as_deref().unwrap_or(default_refs) {
        "all" => RefMode::All,
        "own" => RefMode::Own,
        "held-out" => RefMode::HeldOut,
        other => {
            return Err(green_err(format!(
                "unknown refs '{other}'; use all, own or held-out"
            )))
        }
    };
    if !s.held_out.is_empty() && refs != RefMode::HeldOut {
        return Err(green_err(
            "held_out files are references for refs=\"held-out\"",
        ));
    }
    let missing: m2::MissingAnnotator = s.missing_annotator.parse().map_err(green_err)?;
    let configs = s.grid.configs()?;
    let path = s
        .file
        .to_str()
        .ok_or_else(|| green_err(format!("{}: the path is not valid UTF-8", s.file.display())))?
        .to_owned();
    let (report, warnings) = pool::detach(py, || -> Result<_, String> {
        let parsed = m2::read(&Input::parse(&path)).map_err(|e| e.to_string())?;
        let held_out = if s.held_out.is_empty() {
            None
        } else {
            let inputs: Vec<Input> = s.held_out.iter().map(|p| Input::parse(p)).collect();
            Some(
                green_io::references::load_all(&inputs, Some(green_io::Format::Lines), missing)
                    .map_err(|e| e.to_string())?
                    .refs,
            )
        };
        let options = MaegeOptions {
            seed: s.grid.seed,
            reps: s.reps,
            max_m: s.max_m,
            refs,
            strip_spaces: s.strip_spaces,
            missing_annotator: missing,
            protocol,
            held_out,
        };
        let report = green_meta::maege::run(&parsed, &configs, &options)
            .map_err(|e| format!("MAEGE on {path}: {e}"))?;
        Ok((report, parsed.warnings()))
    })?
    .map_err(green_err)?;
    Ok((to_python(py, &report)?, warnings))
}
