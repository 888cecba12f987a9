//! SEEDA's Table 5 (Kobayashi, Mita, Komachi; TACL 2024) in one call: the paper's numbers
//! beside green's for every cell green can compute, with intervals.
//!
//! The protocol is the paper's (and its repository's `utils/corr_system.py`,
//! `corr_sentence.py`): the human system score is the published TrueSkill; SEEDA is the 12
//! base systems scored on the 391 judged sentences ([`crate::dataset::builtin`]
//! `seeda-table5`), GJG15 the 12 CoNLL-2014 submissions (INPUT excluded) scored on the 663
//! judged sentences (`gjg15-table5`); system level is Pearson r and Spearman ρ, sentence level
//! pairwise accuracy and Kendall τ against the judgments with metric ties in the denominator.
//!
//! Rows: M2 (the m2scorer's corpus F0.5), SentM2 (the mean of its sentence scores), GLEU
//! (corpus GLEU with the `gleu` package's fixed-seed reference draws), GREEN (not in the
//! paper: green's own numbers only), and ERRANT and SentERRANT, which need ERRANT's typed
//! edits (its linguistic alignment and rule-based merger on spaCy's tags): computed when the
//! datasets carry a tagger's annotations ([`crate::annotations`]), else shown with the
//! paper's values only.

use std::fmt::Write as _;

use green_engine::Normalization;

use crate::dataset::Dataset;
use crate::eval::{HumanScore, TiePolicy};
use crate::metric::{Level, Metric, MetricConfig};
use crate::report::{self, Options, Report};
use crate::Error;

/// The built-in datasets the table is computed on.
pub const DATASETS: [&str; 2] = crate::dataset::SEEDA_TABLE5;

/// The table's cells: (dataset, view, level, statistic, header).
pub const CELLS: [(&str, &str, &str, &str, &str); 12] = [
    ("GJG15-table5", "GJG15", "system", "r", "GJG15 r"),
    ("GJG15-table5", "GJG15", "system", "rho", "GJG15 ρ"),
    ("SEEDA-table5", "SEEDA-S", "system", "r", "SEEDA-S r"),
    ("SEEDA-table5", "SEEDA-S", "system", "rho", "SEEDA-S ρ"),
    ("SEEDA-table5", "SEEDA-E", "system", "r", "SEEDA-E r"),
    ("SEEDA-table5", "SEEDA-E", "system", "rho", "SEEDA-E ρ"),
    ("GJG15-table5", "GJG15", "sentence", "acc", "GJG15 Acc"),
    ("GJG15-table5", "GJG15", "sentence", "tau", "GJG15 τ"),
    ("SEEDA-table5", "SEEDA-S", "sentence", "acc", "SEEDA-S Acc"),
    ("SEEDA-table5", "SEEDA-S", "sentence", "tau", "SEEDA-S τ"),
    ("SEEDA-table5", "SEEDA-E", "sentence", "acc", "SEEDA-E Acc"),
    ("SEEDA-table5", "SEEDA-E", "sentence", "tau", "SEEDA-E τ"),
];

/// One row of the published table: the metric's name and its 12 cells in [`CELLS`] order.
type PaperRow = (&'static str, [f64; 12]);

/// The published rows green has a counterpart for (Table 5 of the paper).
pub const PAPER: [PaperRow; 5] = [
    (
        "M2",
        [
            0.721, 0.706, 0.658, 0.487, 0.791, 0.764, 0.506, 0.350, 0.512, 0.200, 0.582, 0.328,
        ],
    ),
    (
        "SentM2",
        [
            0.852, 0.762, 0.802, 0.692, 0.887, 0.846, 0.506, 0.350, 0.512, 0.200, 0.582, 0.328,
        ],
    ),
    (
        "ERRANT",
        [
            0.738, 0.699, 0.557, 0.406, 0.697, 0.671, 0.504, 0.356, 0.498, 0.189, 0.573, 0.310,
        ],
    ),
    (
        "SentERRANT",
        [
            0.850, 0.741, 0.758, 0.643, 0.860, 0.825, 0.504, 0.356, 0.498, 0.189, 0.573, 0.310,
        ],
    ),
    (
        "GLEU",
        [
            0.653, 0.510, 0.847, 0.886, 0.911, 0.897, 0.684, 0.378, 0.673, 0.351, 0.695, 0.404,
        ],
    ),
];

/// Why a published row has no green numbers.
pub const NEEDS_TYPED_EDITS: &str = "needs ERRANT's typed edits (a tagger's lemmas, POS and dependencies for its alignment and rule-based merger): give their CoNLL-U with --annotations DIR (docs/meta.md)";

/// The configurations of the table, one per row green computes, with the row's name;
/// ERRANT and SentERRANT with `typed` (the datasets carry annotations).
pub fn configs(
    gleu_iterations: usize,
    seed: u64,
    typed: bool,
) -> Vec<(&'static str, MetricConfig)> {
    let row = |metric, level| MetricConfig {
        metric,
        tokenizer: "word".into(),
        normalization: Normalization::default(),
        level,
    };
    let errant = Metric::ErrantTyped { beta: 0.5 };
    let mut rows = vec![
        ("M2", row(Metric::M2 { beta: 0.5 }, Level::Corpus)),
        ("SentM2", row(Metric::M2 { beta: 0.5 }, Level::Mean)),
        (
            "GLEU",
            row(
                Metric::Gleu {
                    n: 4,
                    iterations: gleu_iterations,
                    seed,
                    smooth: true,
                },
                Level::Corpus,
            ),
        ),
        (
            "GREEN",
            row(Metric::Green { n: 4, beta: 2.0 }, Level::Corpus),
        ),
        (
            "SentGREEN",
            row(Metric::Green { n: 4, beta: 2.0 }, Level::Mean),
        ),
    ];
    if typed {
        rows.push(("ERRANT", row(errant, Level::Corpus)));
        rows.push(("SentERRANT", row(errant, Level::Mean)));
    }
    rows
}

/// The options the protocol fixes (published TrueSkill, ties in the denominator), with the
/// caller's bootstrap, TrueSkill and window settings kept.
pub fn protocol_options(mut options: Options) -> Options {
    options.human = HumanScore::PublishedTs;
    options.ties = TiePolicy::Denominator;
    options
}

/// One row of the table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// The paper's name of the metric (or green's, for rows not in the paper).
    pub metric: String,
    /// green's configuration label, when green computes the row.
    pub config: Option<String>,
    /// The paper's 12 cells (`None`: not in the paper).
    pub paper: Vec<Option<f64>>,
    /// green's 12 cells (`None`: not computed, or undefined).
    pub ours: Vec<Option<f64>>,
    /// With a bootstrap: green's intervals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub intervals: Vec<Option<green_signif::Interval>>,
    /// Why green has no numbers for the row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Row {
    /// green's cells minus the paper's, where both exist.
    pub fn delta(&self) -> Vec<Option<f64>> {
        (self.ours.iter().zip(&self.paper))
            .map(|(o, p)| Some(o.as_ref()? - p.as_ref()?))
            .collect()
    }
}

/// The table, and the full report it was taken from.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Facts about the data a reader needs to compare the numbers (errata, file choices).
    pub notes: Vec<String>,
    pub report: Report,
}

/// Compute the table on the two datasets ([`DATASETS`], loaded by the caller in that order);
/// the ERRANT rows when both carry annotations ([`Dataset::with_annotations`]).
pub fn run(
    datasets: &[Dataset],
    gleu_iterations: usize,
    seed: u64,
    options: Options,
) -> Result<Table, Error> {
    let names: Vec<&str> = datasets
        .iter()
        .map(|d| d.descriptor.name.as_str())
        .collect();
    for (want, _, _, _, _) in CELLS {
        if !names.contains(&want) {
            return Err(Error::Config(format!(
                "SEEDA's Table 5 needs dataset {want} (the built-in {}); got {}",
                want.to_lowercase(),
                names.join(", ")
            )));
        }
    }
    let typed = datasets.iter().all(|d| d.annotations.is_some());
    let rows = configs(gleu_iterations, seed, typed);
    let configs: Vec<MetricConfig> = rows.iter().map(|(_, c)| c.clone()).collect();
    let report = report::run(datasets, &configs, &protocol_options(options))?;
    let column = |k: usize| {
        let (d, v, level, stat, _) = CELLS[k];
        report
            .columns
            .iter()
            .position(|c| c.dataset == d && c.view == v && c.level == level && c.stat == stat)
    };
    let index: Vec<Option<usize>> = (0..CELLS.len()).map(column).collect();
    let paper = |name: &str| -> Vec<Option<f64>> {
        match PAPER.iter().find(|(m, _)| *m == name) {
            Some((_, cells)) => cells.iter().map(|&x| Some(x)).collect(),
            None => vec![None; CELLS.len()],
        }
    };
    let mut out = Vec::new();
    for (name, _) in PAPER {
        if rows.iter().any(|(n, _)| *n == name) {
            continue;
        }
        out.push(Row {
            metric: name.into(),
            config: None,
            paper: paper(name),
            ours: vec![None; CELLS.len()],
            intervals: Vec::new(),
            note: Some(NEEDS_TYPED_EDITS.into()),
        });
    }
    let mut computed = Vec::new();
    for ((name, _), r) in rows.iter().zip(&report.rows) {
        let pick = |i: &Option<usize>| i.and_then(|i| r.values[i]);
        computed.push(Row {
            metric: (*name).into(),
            config: Some(r.label.clone()),
            paper: paper(name),
            ours: index.iter().map(pick).collect(),
            intervals: if r.intervals.is_empty() {
                Vec::new()
            } else {
                (index.iter())
                    .map(|i| i.and_then(|i| r.intervals[i]))
                    .collect()
            },
            note: None,
        });
    }
    // The paper's order: M2, SentM2, ERRANT, SentERRANT, GLEU, then green's own rows.
    let order = |m: &str| {
        PAPER
            .iter()
            .position(|(n, _)| *n == m)
            .unwrap_or(PAPER.len())
    };
    out.extend(computed);
    out.sort_by_key(|r| order(&r.metric));
    let mut notes = Vec::new();
    for d in datasets {
        for v in &d.views {
            if let Some((e, n)) = v.erratum {
                notes.push(format!(
                    "{} sentence level: {n} of {} ranking items corrected by erratum {} (docs/meta.md); its system level and human scores use the items as published",
                    v.name,
                    v.items.len(),
                    e.name()
                ));
            }
        }
        if let Some((_, systems)) = d.corpus_variant() {
            let names: Vec<&str> = (systems.iter())
                .map(|&s| d.descriptor.systems[s].as_str())
                .collect();
            notes.push(format!(
                "{}: corpus-level scores of {} from the descriptor's corpus_system_files (the file the paper's corpus-level cells were computed from)",
                d.descriptor.name,
                names.join(", ")
            ));
        }
    }
    Ok(Table {
        columns: CELLS.iter().map(|c| c.4.to_string()).collect(),
        rows: out,
        notes,
        report,
    })
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |v| format!("{v:.3}"))
}

impl Table {
    /// How many of green's cells are within `tolerance` of the paper's, of those both have.
    pub fn agreeing(&self, tolerance: f64) -> (usize, usize) {
        let deltas: Vec<f64> = self.rows.iter().flat_map(|r| r.delta()).flatten().collect();
        let close = deltas
            .iter()
            .filter(|d| d.abs() <= tolerance + 1e-9)
            .count();
        (close, deltas.len())
    }

    /// Markdown: per metric a paper line, a green line (with intervals) and a Δ line.
    pub fn markdown(&self) -> String {
        let mut s = String::from(
            "### SEEDA Table 5 (Kobayashi et al. 2024): paper and green\n\n| metric | | ",
        );
        s.push_str(&self.columns.join(" | "));
        s.push_str(" |\n|---|---|");
        s.push_str(&"---:|".repeat(self.columns.len()));
        s.push('\n');
        for r in &self.rows {
            let has_paper = r.paper.iter().any(Option::is_some);
            if has_paper {
                let _ = write!(s, "| {} | paper |", r.metric);
                for x in &r.paper {
                    let _ = write!(s, " {} |", num(*x));
                }
                s.push('\n');
            }
            let lead = if has_paper {
                "| |".to_string()
            } else {
                format!("| {} |", r.metric)
            };
            if let Some(note) = &r.note {
                let _ = writeln!(
                    s,
                    "{lead} green | {note} |{}",
                    " |".repeat(self.columns.len() - 1)
                );
                continue;
            }
            let _ = write!(s, "{lead} green |");
            for (k, x) in r.ours.iter().enumerate() {
                let _ = write!(s, " {}", num(*x));
                if let Some(iv) = r.intervals.get(k).copied().flatten() {
                    let _ = write!(s, " [{:.3}, {:.3}]", iv.low, iv.high);
                }
                s.push_str(" |");
            }
            s.push('\n');
            if has_paper {
                s.push_str("| | Δ |");
                for d in r.delta() {
                    let _ = write!(
                        s,
                        " {} |",
                        d.map_or("—".to_string(), |d| format!("{d:+.3}"))
                    );
                }
                s.push('\n');
            }
        }
        let (close, all) = self.agreeing(0.001);
        let (near, _) = self.agreeing(0.01);
        let _ = writeln!(
            s,
            "\n{close} of {all} cells within 0.001 of the paper, {near} within 0.01. Human: published TrueSkill; SEEDA: 12 base systems on the 391 judged sentences; GJG15: 12 systems (INPUT excluded) on the 663 judged sentences; sentence level: metric ties in the denominator."
        );
        for n in &self.notes {
            let _ = writeln!(s, "- {n}");
        }
        if let Some(b) = &self.report.options.bootstrap {
            let _ = writeln!(
                s,
                "\nIntervals: {}% percentile bootstrap, {} replicates resampling sentences, seed {} (published human scores stay fixed).",
                b.level * 100.0,
                b.replicates,
                b.seed
            );
        }
        s
    }

    /// Tab-separated: `metric`, `source` (paper, green, low, high), then the 12 cells.
    pub fn tsv(&self) -> String {
        let mut s = String::from("metric\tsource");
        for c in &self.columns {
            let _ = write!(s, "\t{c}");
        }
        s.push('\n');
        let line = |s: &mut String, metric: &str, source: &str, xs: Vec<Option<f64>>| {
            let _ = write!(s, "{metric}\t{source}");
            for x in xs {
                let _ = write!(s, "\t{}", x.map_or("NA".to_string(), |v| format!("{v:.6}")));
            }
            s.push('\n');
        };
        for r in &self.rows {
            if r.paper.iter().any(Option::is_some) {
                line(&mut s, &r.metric, "paper", r.paper.clone());
            }
            line(&mut s, &r.metric, "green", r.ours.clone());
            if !r.intervals.is_empty() {
                let low = r.intervals.iter().map(|i| i.map(|i| i.low)).collect();
                let high = r.intervals.iter().map(|i| i.map(|i| i.high)).collect();
                line(&mut s, &r.metric, "low", low);
                line(&mut s, &r.metric, "high", high);
            }
        }
        s
    }

    /// Pretty JSON of the table (columns, rows, notes), without the full report.
    pub fn json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            columns: &'a [String],
            rows: &'a [Row],
            notes: &'a [String],
            options: &'a Options,
        }
        serde_json::to_string_pretty(&Out {
            columns: &self.columns,
            rows: &self.rows,
            notes: &self.notes,
            options: &self.report.options,
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_paper_row_is_computed_or_explained() {
        let rows = configs(5, 0, false);
        for (name, _) in PAPER {
            let computed = rows.iter().any(|(n, _)| *n == name);
            assert!(computed || name.contains("ERRANT"), "{name}");
        }
        let typed = configs(5, 0, true);
        for (name, _) in PAPER {
            assert!(typed.iter().any(|(n, _)| *n == name), "{name}");
        }
        let errant = typed.iter().find(|(n, _)| *n == "SentERRANT").unwrap();
        assert_eq!(errant.1.label(), "ERRANT-typed word β=0.5 mean");
        // SentM2 is M2's mean of sentence scores, the paper's "Sent" prefix.
        let sent = rows.iter().find(|(n, _)| *n == "SentM2").unwrap();
        assert_eq!(sent.1.level, Level::Mean);
        assert_eq!(sent.1.label(), "M2 word β=0.5 mean");
    }

    #[test]
    fn delta_and_agreement_count_only_cells_both_have() {
        let row = Row {
            metric: "M2".into(),
            config: None,
            paper: vec![Some(0.5), Some(0.2), None],
            ours: vec![Some(0.5004), Some(0.25), Some(0.1)],
            intervals: Vec::new(),
            note: None,
        };
        let d = row.delta();
        assert!((d[0].unwrap() - 0.0004).abs() < 1e-12 && d[2].is_none());
        let table = Table {
            columns: vec!["a".into(), "b".into(), "c".into()],
            rows: vec![row],
            notes: Vec::new(),
            report: Report {
                options: Options::default(),
                columns: Vec::new(),
                human: Vec::new(),
                rows: Vec::new(),
                williams: Vec::new(),
            },
        };
        assert_eq!(table.agreeing(0.001), (1, 2));
        assert_eq!(table.agreeing(0.05), (2, 2));
        let md = table.markdown();
        assert!(md.contains("| M2 | paper | 0.500 | 0.200 | — |"), "{md}");
        assert!(md.contains("| | green | 0.500 | 0.250 | 0.100 |"), "{md}");
        assert!(md.contains("| | Δ | +0.000 | +0.050 | — |"), "{md}");
        assert!(table
            .tsv()
            .starts_with("metric\tsource\ta\tb\tc\nM2\tpaper\t0.500000"));
    }
}
