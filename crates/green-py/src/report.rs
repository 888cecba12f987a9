//! `green report` from Python: the same page and data as the command, from lists of lines.
//!
//! The core takes a scorer (its tokenizer, normalisation and N) and checked lists, makes every
//! choice the command makes through green-report's `choose` (default metrics, buckets,
//! baseline, gold checks), builds the report without the GIL on the process's pool, and hands
//! back the page, the data as JSON text and the warnings; `green_gec.HtmlReport` wraps them.

use std::path::PathBuf;

use green_report::{choose, Files, Input, Settings, Tokens};
use pyo3::prelude::*;

use crate::green::{Inputs, Scorer};
use crate::{green_err, pool, system_names};

/// What `html_report` computes: the HTML page, the JSON text `--format json` prints, and the
/// warnings (input guards, gold reader, report) to hand to Python's `warnings`.
type Made = (String, String, Vec<String>);

/// The report of `systems` on `sources` and `references` with `scorer`'s tokenizer and N, as
/// `green report` makes it; `gold_m2` is the gold M2 file (for M2 and gold categories).
#[pyfunction]
#[pyo3(signature = (scorer, sources, references, systems, *, names, metrics, gold_m2, alternatives, beta, edit_beta, reps, seed, confidence, baseline, buckets, title))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn html_report(
    py: Python<'_>,
    scorer: &Bound<'_, Scorer>,
    sources: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    systems: &Bound<'_, PyAny>,
    names: Option<Vec<String>>,
    metrics: Vec<String>,
    gold_m2: Option<PathBuf>,
    alternatives: &str,
    beta: f64,
    edit_beta: f64,
    reps: usize,
    seed: u64,
    confidence: f64,
    baseline: Option<String>,
    buckets: Vec<usize>,
    title: String,
) -> PyResult<Made> {
    let scorer = scorer.get();
    let inputs = Inputs::extract(sources, references, systems)?;
    let present = inputs.present()?;
    let names = system_names(names, inputs.systems.len())?;
    green_engine::Config::new(scorer.n, vec![beta]).map_err(green_err)?;
    if !(edit_beta.is_finite() && edit_beta > 0.0) {
        return Err(green_err(format!(
            "edit_beta must be a number above 0 (got {edit_beta})"
        )));
    }
    let alternatives: green_m2::Alternatives = match alternatives {
        "first" => green_m2::Alternatives::First,
        "pool" => green_m2::Alternatives::Pool,
        other => {
            return Err(green_err(format!(
                "alternatives='{other}': use 'first' or 'pool'"
            )))
        }
    };
    let mut warnings = Vec::new();
    let gold = match &gold_m2 {
        Some(path) => {
            let text = crate::io::read_text(path.clone())?;
            let name = path.display().to_string();
            let (mut gold, said) =
                choose::gold(&text, &name, alternatives, &inputs.sources).map_err(green_err)?;
            warnings.extend(said);
            // The page names the file, never the directories it lives in.
            gold.path = path
                .file_name()
                .map_or(name, |f| f.to_string_lossy().into_owned());
            Some(gold)
        }
        None => None,
    };
    let spec = scorer.spec.as_str();
    let settings = Settings {
        title,
        metrics: choose::metrics(&metrics, gold.is_some()).map_err(green_err)?,
        n: scorer.n,
        beta,
        edit_beta,
        reps,
        seed,
        confidence,
        baseline: choose::baseline(baseline.as_deref(), &names, &[], "baseline=")
            .map_err(green_err)?,
        buckets: choose::buckets(&buckets, spec, "buckets=").map_err(green_err)?,
        missing_annotator: None,
    };
    let (refs, _) = inputs.views(&present);
    let refs: Vec<Vec<String>> = refs
        .iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect();
    let mut guard = scorer.guard(inputs.references.len());
    let files = Files {
        source: None,
        references: (0..inputs.references.len())
            .map(|k| format!("references[{k}]"))
            .collect(),
        systems: names
            .iter()
            .map(|name| green_report::model::SystemName {
                name: name.clone(),
                path: name.clone(),
            })
            .collect(),
    };
    let made = pool::detach(py, || -> Result<Made, String> {
        let (refs_view, hyps_view) = inputs.views(&present);
        let sentences: Vec<green_engine::Sentence> = (0..inputs.sources.len())
            .map(|i| green_engine::Sentence {
                source: &inputs.sources[i],
                refs: &refs_view[i],
                hyps: &hyps_view[i],
            })
            .collect();
        guard.look(&sentences);
        let input = Input {
            sources: &inputs.sources,
            refs: &refs,
            hyps: &inputs.systems,
            gold: gold.as_ref(),
        };
        let tokens = Tokens::new(scorer.tokenizer.as_dyn(), spec, scorer.norm, false);
        let report =
            green_report::build(&input, files, &tokens, &settings).map_err(|e| e.to_string())?;
        let html = green_report::html::page(&report).map_err(|e| e.to_string())?;
        let json = green_report::to_json(&report).map_err(|e| e.to_string())?;
        let mut said = guard.warnings();
        said.extend(warnings);
        said.extend(report.warnings.iter().cloned());
        Ok((html, json, said))
    })?
    .map_err(|e| scorer.stopped(green_err(e)))?;
    Ok(made)
}
