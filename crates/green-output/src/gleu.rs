//! GLEU's output: a score per system (corpus or mean), or its sentence scores, ×100
//! unrounded, and the package's text drawn from the same values.

use green_engine::gleu::{Gleu, GleuCounts};
use green_engine::numpy::numpy_mean;
use green_metric::Metric;
use serde::{Deserialize, Serialize};

use crate::number::quantize;
use crate::{Level, Output};

/// GLEU's output.
pub type GleuOutput = Output<Scores>;

/// One system: its score at corpus or mean level, its sentence scores at sentence level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<f64>>,
}

/// The output at `level` of every system's statistics (`systems[h]`, one [`GleuCounts`] of
/// one hypothesis per sentence). `settings` is the signature's settings part.
pub fn output(
    metric: &Gleu,
    settings: &str,
    paths: &[String],
    systems: &[Vec<GleuCounts>],
    level: Level,
) -> GleuOutput {
    let results = systems
        .iter()
        .map(|s| match level {
            Level::Corpus => Scores {
                score: Some(100.0 * metric.score(&metric.fold(s))),
                sentences: None,
            },
            Level::Mean => Scores {
                score: Some(100.0 * numpy_mean(&metric.sentence_scores(s))),
                sentences: None,
            },
            Level::Sentence => Scores {
                score: None,
                sentences: Some(
                    metric
                        .sentence_scores(s)
                        .into_iter()
                        .map(|x| 100.0 * x)
                        .collect(),
                ),
            },
        })
        .collect();
    let first: &[GleuCounts] = systems.first().map_or(&[], Vec::as_slice);
    Output::new(signature(settings, first, level), paths, results)
}

/// The settings part of a signature: what must be equal for shards to merge.
pub fn settings(n: usize, iterations: u64, max: bool, tokenizer: &str, norm: &str) -> String {
    let draws = if max {
        "max".to_string()
    } else {
        format!("iter:{iterations}")
    };
    format!("gleu|n:{n}|{draws}|draw:python-mt19937-seed-101i|tok:{tokenizer}|norm:{norm}")
}

/// The signature of scores at `level`: the settings, the references per sentence (`var`
/// when they vary) and the level.
pub fn signature(settings: &str, counts: &[GleuCounts], level: Level) -> String {
    let most = counts.iter().map(|c| c.refs).max().unwrap_or(0);
    let refs = if counts.iter().all(|c| c.refs == most) {
        most.to_string()
    } else {
        "var".into()
    };
    signature_with(settings, &refs, level)
}

/// The signature of scores at `level` with `refs` references per sentence (a count or `var`).
pub fn signature_with(settings: &str, refs: &str, level: Level) -> String {
    format!(
        "{settings}|refs:{refs}|level:{}|v:{}",
        level.name(),
        env!("CARGO_PKG_VERSION")
    )
}

/// The package's text: `path<TAB>score` per system, or a line per sentence with a column
/// per system.
pub fn text(out: &GleuOutput, digits: usize) -> String {
    let mut s = String::new();
    let columns: Vec<&[f64]> = out
        .systems
        .iter()
        .filter_map(|sys| sys.result.sentences.as_deref())
        .collect();
    if columns.len() == out.systems.len() && !columns.is_empty() {
        for i in 0..columns[0].len() {
            let cells: Vec<String> = columns
                .iter()
                .map(|c| c.get(i).map_or_else(String::new, |x| quantize(*x, digits)))
                .collect();
            s.push_str(&cells.join("\t"));
            s.push('\n');
        }
        return s;
    }
    for sys in &out.systems {
        let score = sys
            .result
            .score
            .map_or_else(String::new, |x| quantize(x, digits));
        s.push_str(&format!("{}\t{score}\n", sys.path));
    }
    s
}
