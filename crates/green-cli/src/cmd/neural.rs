//! What `green some`, `green impara`, `green scribendi` and `green ptm2` share around their
//! models: model arguments that are directories or Hub ids in the local cache, the systems
//! scored against one source, and the report (`green_neural::report`) printed as JSON, or as
//! text — a line per system, with `-v` a line per sentence, then the signature — each metric
//! giving its own line formatters.

use std::path::{Path, PathBuf};

use anyhow::Result;
use green_neural::report::Report;
use serde::Serialize;

use crate::args::NeuralArgs;
use crate::output::emit;

/// A model argument as a directory: a path that exists as it is, else a Hub id's snapshot
/// in the local Hugging Face cache at `revision` (`green_neural::hub`).
pub fn model_path(spec: &Path, revision: Option<&str>) -> Result<PathBuf> {
    if spec.exists() && revision.is_none() {
        return Ok(spec.to_owned());
    }
    Ok(green_neural::hub::resolve(
        &spec.to_string_lossy(),
        revision,
    )?)
}

/// Every system of `common` scored against its source by `score`, with its path.
pub fn score_systems<S>(
    common: &NeuralArgs,
    mut score: impl FnMut(&[String], &[String]) -> green_neural::Result<Vec<S>>,
) -> Result<Vec<(String, Vec<S>)>> {
    let (sources, systems) = crate::input::source_and_systems(&common.source, &common.hyp)?;
    common
        .hyp
        .iter()
        .zip(&systems)
        .map(|(path, hyps)| Ok((path.clone(), score(&sources, hyps)?)))
        .collect()
}

/// Prints `report`: JSON, or text with `system` formatting what follows a system's path
/// and `sentence` what follows a sentence's number (`-v`).
pub fn print<H: Serialize, C: Serialize, S: Serialize>(
    report: &Report<H, C, S>,
    format: &str,
    sentences: bool,
    system: impl Fn(&C) -> String,
    sentence: impl Fn(&S) -> String,
) -> Result<()> {
    if format == "json" {
        return emit(&green_output::to_json(report)?);
    }
    let mut s = String::new();
    for sys in &report.systems {
        s += &format!("{}\t{}\n", sys.path, system(&sys.corpus));
        if sentences {
            for (i, v) in sys.sentences.iter().enumerate() {
                s += &format!("{}\t{}\n", i + 1, sentence(v));
            }
        }
    }
    s += &format!("# {}\n", report.signature);
    emit(&s)
}

/// `green meta --neural`: a row of sentence scores per `METRIC=MODEL` spec (`some=DIR`,
/// `impara=QE,SE`, `scribendi=DIR`), each model loaded once and run on every system of
/// every dataset.
pub fn meta_rows(
    specs: &[String],
    datasets: &[green_meta::dataset::Dataset],
) -> Result<Vec<green_meta::report::Scored>> {
    type Sentences = Box<dyn Fn(&[String], &[String]) -> green_neural::Result<Vec<f64>>>;
    let mut out = Vec::new();
    for spec in specs {
        let usage = "give some=DIR, impara=QE,SE or scribendi=DIR (directories or Hub ids)";
        let (metric, models) = match spec.split_once('=') {
            Some((m, models))
                if matches!(
                    (m, models.split(',').count()),
                    ("some" | "scribendi", 1) | ("impara", 2)
                ) =>
            {
                (m, models)
            }
            _ => anyhow::bail!("--neural '{spec}': {usage}"),
        };
        let models: Vec<PathBuf> = models
            .split(',')
            .map(|m| model_path(Path::new(m), None))
            .collect::<Result<_>>()?;
        let (label, score): (&str, Sentences) = match (metric, models.as_slice()) {
            ("some", [dir]) => {
                let scorer =
                    green_neural::some::Scorer::open(&green_neural::some::Paths::in_dir(dir)?)?;
                let weights = green_neural::some::Weights::default();
                (
                    "SOME",
                    Box::new(move |s: &[String], h: &[String]| {
                        Ok(scorer
                            .score(s, h, weights)?
                            .iter()
                            .map(|x| x.some)
                            .collect())
                    }) as Sentences,
                )
            }
            ("impara", [qe, se]) => {
                let scorer = green_neural::impara::Scorer::open(qe, se)?;
                (
                    "IMPARA",
                    Box::new(move |s: &[String], h: &[String]| {
                        let scores = scorer.score(s, h, green_neural::impara::THRESHOLD)?;
                        Ok(scores.iter().map(|x| x.impara).collect())
                    }) as Sentences,
                )
            }
            ("scribendi", [dir]) => {
                let scorer = green_neural::scribendi::Scorer::open(dir)?;
                (
                    "Scribendi",
                    Box::new(move |s: &[String], h: &[String]| {
                        Ok(scorer
                            .score(s, h)?
                            .iter()
                            .map(|x| f64::from(x.score))
                            .collect())
                    }) as Sentences,
                )
            }
            _ => anyhow::bail!("--neural '{spec}': {usage}"),
        };
        let mut sentences = Vec::new();
        for d in datasets {
            let sources: Vec<String> = d.sentences.iter().map(|s| s.source.clone()).collect();
            let mut systems = Vec::new();
            for (h, name) in d.descriptor.systems.iter().enumerate() {
                let hyps: Vec<String> = d.sentences.iter().map(|s| s.hyps[h].clone()).collect();
                let scores = score(&sources, &hyps).map_err(|e| {
                    anyhow::anyhow!("{label} on system {name} of {}: {e}", d.descriptor.name)
                })?;
                systems.push(scores);
            }
            let rows = (0..sources.len())
                .map(|i| systems.iter().map(|s| s[i]).collect())
                .collect();
            sentences.push((d.descriptor.name.clone(), rows));
        }
        out.push(green_meta::report::Scored {
            label: format!("{label} mean"),
            sentences,
        });
    }
    Ok(out)
}
