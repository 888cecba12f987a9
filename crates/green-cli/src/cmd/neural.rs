//! What `green some`, `green impara`, `green scribendi` and `green ptm2` share around their
//! models: model arguments that are directories or Hub ids in the local cache, the systems
//! scored against one source (a shard of it with `--rows`), the `--stats` file that
//! `green merge` joins, and the report (`green_neural::report`) printed as JSON, or as
//! text — a line per system, with `-v` a line per sentence, then the signature — each metric
//! giving its own line formatters.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use green_metric::{Folds, Metric as _, Resample};
use green_neural::ptm2;
use green_neural::report::Report;
use serde::Serialize;

use crate::args::NeuralArgs;
use crate::output::emit;
use crate::stats::{keep, write_stats, CorpusDigest, Provenance, Rows, ShardFile};

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

/// Systems with their paths and statistics.
pub(crate) type Named<S> = Vec<(String, Vec<S>)>;

/// Every system of `common` scored against its source by `score` (the `--rows` of them),
/// with its path, and where the rows come from.
fn score_systems<S>(
    common: &NeuralArgs,
    mut score: impl FnMut(&[String], &[String]) -> green_neural::Result<Vec<S>>,
) -> Result<(Provenance, Named<S>)> {
    let (mut sources, mut systems) = crate::input::source_and_systems(&common.source, &common.hyp)?;
    let mut digest = CorpusDigest::new();
    for s in &sources {
        digest.row(s, []);
    }
    let rows = Rows::select(common.rows, sources.len())?;
    keep(&mut sources, &rows);
    let scored = common
        .hyp
        .iter()
        .zip(&mut systems)
        .map(|(path, hyps)| {
            keep(hyps, &rows);
            Ok((path.clone(), score(&sources, hyps)?))
        })
        .collect::<Result<_>>()?;
    Ok((digest.provenance(&rows), scored))
}

/// What a model-based metric's `--stats` file holds beside the sentence scores: the models'
/// digest (the signature shows its first digits) and the metric's own settings.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Settings<O> {
    pub(crate) digest: String,
    #[serde(flatten)]
    pub(crate) options: O,
}

impl<O> Settings<O> {
    pub(crate) fn new(digest: String, options: O) -> Self {
        Settings { digest, options }
    }
}

/// IMPARA's and Scribendi's one setting.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Threshold {
    pub(crate) threshold: f64,
}

/// A reference-free metric's run: every system of `common` (its `--rows`) scored by
/// `score`, the statistics written to `--stats`, the output printed by `show`.
pub(crate) fn score_and_show<O: Serialize, S: Serialize>(
    common: &NeuralArgs,
    metric: &str,
    (settings, signature): (Settings<O>, String),
    score: impl FnMut(&[String], &[String]) -> green_neural::Result<Vec<S>>,
    show: impl Fn(&ShardFile<Settings<O>, S>, &str, bool) -> Result<()>,
) -> Result<()> {
    let (provenance, scored) = score_systems(common, score)?;
    let path = common.stats.as_deref();
    let file = stats_file(metric, provenance, settings, signature, scored, path)?;
    show(&file, &common.format, common.sentences)
}

/// The statistics of `systems` under `signature`, written to `path` when there is one.
pub(crate) fn stats_file<O: Serialize, S: Serialize>(
    metric: &str,
    provenance: Provenance,
    settings: Settings<O>,
    signature: String,
    systems: Named<S>,
    path: Option<&str>,
) -> Result<ShardFile<Settings<O>, S>> {
    let (names, stats): (Vec<String>, Vec<Vec<S>>) = systems.into_iter().unzip();
    let file = ShardFile::new(metric, provenance, settings, signature, &names, stats)?;
    if let Some(path) = path {
        write_stats(path, &file)?;
    }
    Ok(file)
}

/// The systems of a statistics file with their names, as the reports take them.
pub(crate) fn systems<O, S: Clone>(file: &ShardFile<O, S>) -> Named<S> {
    file.systems
        .iter()
        .cloned()
        .zip(file.shard.systems.iter().cloned())
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

/// What a `--neural` metric gives of one system of a dataset: its sentence scores and, for
/// PT-M2, every sentence's weighted counts, which the corpus row folds.
struct SystemScores {
    sentences: Vec<f64>,
    stats: Option<Vec<ptm2::SentenceStats>>,
}

/// `green meta --neural`: rows per `METRIC=MODEL` spec (`some=DIR`, `impara=QE,SE`,
/// `scribendi=DIR`, `ptm2=DIR,LAYERS`), each model loaded once and run on every system of
/// every dataset: a row of sentence means (`SOME mean`, ...), and for PT-M2 first the
/// corpus row. PT-M2 takes the gold edits the M2 rows take (datasets whose parts are read
/// from M2 files); its sentence scores are each sentence's own F and its statistics each
/// sentence's weighted counts, as `green ptm2 -v` and `green ptm2` use them, so on all of a
/// dataset's sentences a system's `PT-M2 corpus` is `green ptm2`'s corpus F and its
/// `PT-M2 mean` is `green ptm2`'s PT-M2. The corpus row scores systems with
/// `corpus_system_files` on those files, as the M2 rows do.
pub fn meta_rows(
    specs: &[String],
    datasets: &[green_meta::dataset::Dataset],
) -> Result<Vec<green_meta::report::Scored>> {
    use green_meta::dataset::Dataset;
    /// A system's scores from its dataset, the sources and its outputs.
    type Score = Box<dyn Fn(&Dataset, &[String], &[String]) -> Result<SystemScores>>;
    let means = |sentences: Vec<f64>| SystemScores {
        sentences,
        stats: None,
    };
    let mut out = Vec::new();
    for spec in specs {
        let usage = "give some=DIR, impara=QE,SE, scribendi=DIR or ptm2=DIR,LAYERS (directories or Hub ids; LAYERS: the BERT layers PT-M2's BERTScore uses, 9 for bert-base-uncased)";
        let (metric, models) = match spec.split_once('=') {
            Some((m, models))
                if matches!(
                    (m, models.split(',').count()),
                    ("some" | "scribendi", 1) | ("impara" | "ptm2", 2)
                ) =>
            {
                (m, models)
            }
            _ => anyhow::bail!("--neural '{spec}': {usage}"),
        };
        // PT-M2's second part is its layer count, not a model.
        let (models, layers) = match (metric, models.rsplit_once(',')) {
            ("ptm2", Some((dir, layers))) => {
                let n = layers.parse::<usize>().ok().filter(|&n| n >= 1);
                let n = n.with_context(|| {
                    format!(
                        "--neural '{spec}': LAYERS '{layers}' is not a whole number >= 1; {usage}"
                    )
                })?;
                // Before the model loads: every dataset must have the M2 rows' gold edits.
                for d in datasets {
                    d.gold_edits("PT-M2")?;
                }
                (dir, Some(n))
            }
            _ => (models, None),
        };
        let models: Vec<PathBuf> = models
            .split(',')
            .map(|m| model_path(Path::new(m), None))
            .collect::<Result<_>>()?;
        let (label, score): (&str, Score) = match (metric, models.as_slice(), layers) {
            ("some", [dir], _) => {
                let scorer =
                    green_neural::some::Scorer::open(&green_neural::some::Paths::in_dir(dir)?)?;
                let weights = green_neural::some::Weights::default();
                (
                    "SOME",
                    Box::new(move |_: &Dataset, s: &[String], h: &[String]| {
                        let scores = scorer.score(s, h, weights)?;
                        Ok(means(scores.iter().map(|x| x.some).collect()))
                    }) as Score,
                )
            }
            ("impara", [qe, se], _) => {
                let scorer = green_neural::impara::Scorer::open(qe, se)?;
                (
                    "IMPARA",
                    Box::new(move |_: &Dataset, s: &[String], h: &[String]| {
                        let scores = scorer.score(s, h, green_neural::impara::THRESHOLD)?;
                        Ok(means(scores.iter().map(|x| x.impara).collect()))
                    }) as Score,
                )
            }
            ("scribendi", [dir], _) => {
                let scorer = green_neural::scribendi::Scorer::open(dir)?;
                (
                    "Scribendi",
                    Box::new(move |_: &Dataset, s: &[String], h: &[String]| {
                        let scores = scorer.score(s, h)?;
                        Ok(means(scores.iter().map(|x| f64::from(x.score)).collect()))
                    }) as Score,
                )
            }
            ("ptm2", [dir], Some(layers)) => {
                let scorer = ptm2::BertScore::open(dir, layers, None)?;
                (
                    "PT-M2",
                    Box::new(move |d: &Dataset, _: &[String], h: &[String]| {
                        let weights = scorer
                            .weigh(&d.gold_edits("PT-M2")?, h)
                            .map_err(anyhow::Error::msg)?;
                        let stats: Vec<_> =
                            weights.iter().map(ptm2::SentenceWeights::stats).collect();
                        Ok(SystemScores {
                            sentences: PTM2.sentence_scores(&stats),
                            stats: Some(stats),
                        })
                    }) as Score,
                )
            }
            _ => anyhow::bail!("--neural '{spec}': {usage}"),
        };
        let mut sentences = Vec::new();
        let mut folds = Vec::new();
        for d in datasets {
            let sources: Vec<String> = d.sentences.iter().map(|s| s.source.clone()).collect();
            let variant = d.corpus_variant();
            let run = |d: &Dataset, h: usize| {
                let hyps: Vec<String> = d.sentences.iter().map(|s| s.hyps[h].clone()).collect();
                score(d, &sources, &hyps).map_err(|e| {
                    let name = &d.descriptor.systems[h];
                    anyhow::anyhow!("{label} on system {name} of {}: {e}", d.descriptor.name)
                })
            };
            let mut systems = Vec::new();
            let mut stats = Vec::new();
            for h in 0..d.descriptor.systems.len() {
                let mut scores = run(d, h)?;
                if let Some(s) = scores.stats.take() {
                    stats.push(match &variant {
                        Some((alt, replaced)) if replaced.contains(&h) => {
                            run(alt, h)?.stats.unwrap_or_default()
                        }
                        _ => s,
                    });
                }
                systems.push(scores.sentences);
            }
            let rows = (0..sources.len())
                .map(|i| systems.iter().map(|s| s[i]).collect())
                .collect();
            sentences.push((d.descriptor.name.clone(), rows));
            if !stats.is_empty() {
                let folds_of: Arc<dyn Resample> = Arc::new(Folds {
                    metric: PTM2,
                    stats,
                });
                folds.push((d.descriptor.name.clone(), folds_of));
            }
        }
        if !folds.is_empty() {
            out.push(green_meta::report::Scored {
                label: format!("{label} corpus"),
                sentences: sentences.clone(),
                folds,
            });
        }
        out.push(green_meta::report::Scored {
            label: format!("{label} mean"),
            sentences,
            folds: Vec::new(),
        });
    }
    Ok(out)
}

/// PT-M2 in `green meta`: β is `green ptm2`'s default, the M2 rows' β.
const PTM2: ptm2::Ptm2 = ptm2::Ptm2 { beta: 0.5 };
