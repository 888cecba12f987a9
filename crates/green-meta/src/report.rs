//! One run over datasets × metric configurations, and the Table-2-shaped report it gives
//! (rows = configurations, columns = dataset × view × system set × level × statistic), as
//! TSV, JSON or Markdown.
//!
//! Counts are made once per dataset, tokenizer and normalisation at the highest N of the
//! configurations using them; every configuration is then scored from those counts.

use std::fmt::Write as _;
use std::sync::Arc;

use green_metric::Resample;

use crate::dataset::Dataset;
use crate::eval::{self, Column, HumanScore, Prepared, TiePolicy, Window};
use crate::human::TrueSkill;
use crate::metric::{self, Counts, Level, MetricConfig};
use crate::uncertainty::{self, Bootstrap};
use crate::{stats, Error};

/// Settings of a run other than the metric configurations.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Options {
    pub human: HumanScore,
    pub ties: TiePolicy,
    pub trueskill: TrueSkill,
    /// Window sizes for the window analysis (empty = none).
    pub windows: Vec<usize>,
    /// Bootstrap intervals for every number (resampling sentences), when set.
    pub bootstrap: Option<Bootstrap>,
    /// Williams' test of every configuration's system-level r against the first one's.
    pub williams: bool,
    /// Extra rows: system scores of other metrics.
    pub external: Vec<External>,
    /// Extra rows: sentence scores of metrics computed outside this crate (the model-based
    /// ones), correlated at system and sentence level.
    pub scored: Vec<Scored>,
    /// Exact permutation p-values of system-level correlations (sets of at most 8 systems).
    pub permutation: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            human: HumanScore::Ew,
            ties: TiePolicy::Denominator,
            trueskill: TrueSkill::wmt(1000, 0),
            windows: vec![4, 8],
            bootstrap: None,
            williams: false,
            external: Vec::new(),
            scored: Vec::new(),
            permutation: false,
        }
    }
}

/// Human system scores of one view.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HumanTable {
    pub dataset: String,
    pub view: String,
    pub systems: Vec<String>,
    pub scores: Vec<f64>,
}

/// One configuration's results.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub label: String,
    /// `None` for a row of scores computed elsewhere ([`Scored`], [`External`]).
    pub config: Option<MetricConfig>,
    /// Aligned with [`Report::columns`]; `None` = undefined (e.g. a constant score).
    pub values: Vec<Option<f64>>,
    /// With a bootstrap: the interval of each value, aligned with `values`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub intervals: Vec<Option<green_signif::Interval>>,
    /// With `permutation`: exact permutation p-values, aligned with `values`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub p_values: Vec<Option<f64>>,
    /// System scores per (dataset, view), systems in descriptor order.
    pub system_scores: Vec<(String, String, Vec<f64>)>,
    /// Rating levels: the scores correlated on each (dataset, view, set), its members rated
    /// among themselves (NaN, `null` in JSON, for the other systems).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_scores: Vec<(String, String, String, Vec<f64>)>,
    /// Sentence scores per dataset, `[sentence][system]` (not in the JSON: see
    /// [`Report::sentences_tsv`]).
    #[serde(skip)]
    pub sentence_scores: Vec<(String, Vec<Vec<f64>>)>,
    pub windows: Vec<Window>,
}

/// System scores of a metric green does not compute (e.g. from a published table or another
/// tool), read from a TSV file and correlated like any configuration at system level.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct External {
    pub label: String,
    /// (dataset, system, score).
    pub scores: Vec<(String, String, f64)>,
    /// Where each score was read (`file:line`).
    #[serde(skip)]
    pub lines: Vec<String>,
}

impl External {
    /// Read `metric<TAB>dataset<TAB>system<TAB>score` lines (blank lines and lines starting
    /// with `#` skipped); one [`External`] per metric name, in order of first appearance.
    pub fn parse(text: &str, name: &str) -> Result<Vec<External>, Error> {
        let mut out = Vec::new();
        External::parse_into(&mut out, text, name)?;
        Ok(out)
    }

    /// [`External::parse`] into `out`, which may hold the metrics of files read before: a
    /// score given twice for one metric, dataset and system must be the same number (a
    /// conflicting one is an error naming both lines, not a silent choice).
    pub fn parse_into(out: &mut Vec<External>, text: &str, name: &str) -> Result<(), Error> {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let score = match f.as_slice() {
                [_, _, _, score] => score.trim().parse::<f64>().ok().filter(|v| v.is_finite()),
                _ => None,
            }
            .ok_or_else(|| {
                Error::Input(format!(
                    "{name}:{}: expected metric<TAB>dataset<TAB>system<TAB>score with a finite score, got '{line}'",
                    i + 1
                ))
            })?;
            let entry = (f[1].to_string(), f[2].to_string(), score);
            let here = format!("{name}:{}", i + 1);
            match out.iter_mut().find(|e| e.label == f[0]) {
                Some(e) => match e
                    .scores
                    .iter()
                    .position(|s| s.0 == entry.0 && s.1 == entry.1)
                {
                    Some(k) if e.scores[k].2.to_bits() != score.to_bits() => {
                        return Err(Error::Input(format!(
                            "{here}: metric '{}' scores system '{}' of {} {score}, but {} gave it {}; give each score once",
                            f[0], entry.1, entry.0, e.lines[k], e.scores[k].2
                        )));
                    }
                    Some(_) => {}
                    None => {
                        e.scores.push(entry);
                        e.lines.push(here);
                    }
                },
                None => out.push(External {
                    label: f[0].to_string(),
                    scores: vec![entry],
                    lines: vec![here],
                }),
            }
        }
        Ok(())
    }

    /// Scores of `data`'s systems in descriptor order, or an error naming what is missing.
    fn system_scores(&self, data: &Dataset) -> Result<Vec<f64>, Error> {
        let d = &data.descriptor;
        d.systems
            .iter()
            .map(|sys| {
                self.scores
                    .iter()
                    .find(|(ds, s, _)| ds == &d.name && s == sys)
                    .map(|e| e.2)
                    .ok_or_else(|| {
                        Error::Input(format!(
                            "external metric '{}' has no score for system '{sys}' of dataset {}",
                            self.label, d.name
                        ))
                    })
            })
            .collect()
    }
}

/// Sentence scores of a metric this crate does not compute (SOME, IMPARA, Scribendi,
/// PT-M2, run by the CLI on the user's models), compared with the human judgments as any
/// configuration's are. A system's score over a view (the whole view, and each bootstrap
/// replicate of it) is the mean of its sentence scores over the view's sentences — which
/// ranks as a sum does (Scribendi's corpus score), the systems of a view sharing its
/// sentences — or, for a corpus-level metric, its per-sentence statistics folded over them
/// (`folds`: PT-M2's weighted counts, summed as `green ptm2` sums the whole corpus).
#[derive(Clone, serde::Serialize)]
pub struct Scored {
    pub label: String,
    /// Per dataset (its descriptor name): `[sentence][system]` scores, systems in descriptor
    /// order.
    #[serde(skip)]
    pub sentences: Vec<(String, Vec<Vec<f64>>)>,
    /// A corpus-level row's statistics per dataset (its descriptor name): every system's
    /// statistics of every sentence, folded over a view's sentences in the order given.
    /// Empty: system scores are sentence means.
    #[serde(skip)]
    pub folds: Vec<(String, Arc<dyn Resample>)>,
}

impl std::fmt::Debug for Scored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scored")
            .field("label", &self.label)
            .field("sentences", &self.sentences)
            .field("corpus_level", &!self.folds.is_empty())
            .finish()
    }
}

impl Scored {
    /// The level of the row's system scores.
    fn level(&self) -> Level {
        if self.folds.is_empty() {
            Level::Mean
        } else {
            Level::Corpus
        }
    }

    /// The scores of `data`: sentence scores as given, system scores per view their means or
    /// the fold of the statistics over the view's sentences.
    fn scores(&self, data: &Dataset) -> Result<metric::Scores, Error> {
        let d = &data.descriptor;
        let of_dataset = |what: &str| {
            Error::Input(format!(
                "'{}' has no {what} of dataset {}",
                self.label, d.name
            ))
        };
        let sentence = self
            .sentences
            .iter()
            .find(|(name, _)| name == &d.name)
            .map(|(_, s)| s.clone())
            .ok_or_else(|| of_dataset("scores"))?;
        if sentence.len() != data.sentences.len()
            || sentence.iter().any(|row| row.len() != d.systems.len())
        {
            return Err(Error::Input(format!(
                "'{}' must score each of the {} sentences of {} for its {} systems",
                self.label,
                data.sentences.len(),
                d.name,
                d.systems.len()
            )));
        }
        let folds = match self.level() {
            Level::Corpus => Some(
                self.folds
                    .iter()
                    .find(|(name, _)| name == &d.name)
                    .map(|(_, f)| Arc::clone(f))
                    .ok_or_else(|| of_dataset("statistics"))?,
            ),
            _ => None,
        };
        let system = data
            .views
            .iter()
            .map(|view| match &folds {
                Some(f) => f.scores(
                    &view.sentences,
                    &vec![1; view.sentences.len()],
                    d.systems.len(),
                ),
                None => (0..d.systems.len())
                    .map(|h| {
                        let sum: f64 = view.sentences.iter().map(|&i| sentence[i][h]).sum();
                        sum / view.sentences.len().max(1) as f64
                    })
                    .collect(),
            })
            .collect();
        Ok(metric::Scores {
            sentence,
            system,
            per_set: Vec::new(),
            folds,
        })
    }
}

/// Everything a run found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub options: Options,
    pub columns: Vec<Column>,
    pub human: Vec<HumanTable>,
    pub rows: Vec<Row>,
    /// Williams' tests, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub williams: Vec<WilliamsRow>,
}

/// Williams' test of one configuration's system-level Pearson r against the first
/// configuration's, on one dataset view and system set.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WilliamsRow {
    pub dataset: String,
    pub view: String,
    pub set: String,
    pub metric: String,
    pub baseline: String,
    pub systems: usize,
    /// r(metric, human), r(baseline, human), r(metric, baseline).
    pub r: f64,
    pub r_baseline: f64,
    pub r_between: f64,
    pub test: green_signif::Williams,
}

/// Evaluate every configuration on every dataset.
pub fn run(
    datasets: &[Dataset],
    configs: &[MetricConfig],
    options: &Options,
) -> Result<Report, Error> {
    if configs.is_empty() {
        return Err(Error::Config("no metric configuration given".into()));
    }
    let mut columns = Vec::new();
    let mut human_tables = Vec::new();
    let mut williams = Vec::new();
    let empty = |label: String, config: Option<MetricConfig>| Row {
        label,
        config,
        values: Vec::new(),
        intervals: Vec::new(),
        p_values: Vec::new(),
        system_scores: Vec::new(),
        set_scores: Vec::new(),
        sentence_scores: Vec::new(),
        windows: Vec::new(),
    };
    let mut rows: Vec<Row> = configs
        .iter()
        .map(|c| empty(c.label(), Some(c.clone())))
        .chain(options.scored.iter().map(|e| empty(e.label.clone(), None)))
        .chain(
            options
                .external
                .iter()
                .map(|e| empty(e.label.clone(), None)),
        )
        .collect();
    for data in datasets {
        let human = eval::human_scores(data, options.human, &options.trueskill)?;
        for (v, scores) in data.views.iter().zip(&human) {
            human_tables.push(HumanTable {
                dataset: data.descriptor.name.clone(),
                view: v.name.clone(),
                systems: data.descriptor.systems.clone(),
                scores: scores.clone(),
            });
        }
        let prepared = Prepared::new(data, human, options.ties, options.windows.clone());
        columns.extend(prepared.columns());
        // Group configurations by what they count with; count once at the largest N.
        let mut groups: Vec<(String, green_engine::Normalization, usize, Vec<usize>)> = Vec::new();
        for (i, c) in configs.iter().enumerate() {
            let n = c.n();
            match groups
                .iter_mut()
                .find(|g| g.0 == c.tokenizer && g.1 == c.normalization)
            {
                Some(g) => {
                    g.2 = g.2.max(n);
                    g.3.push(i);
                }
                None => groups.push((c.tokenizer.clone(), c.normalization, n, vec![i])),
            }
        }
        // Corpus-level scores of systems with `corpus_system_files` come from a copy of the
        // dataset with those files' lines.
        let variant = data.corpus_variant();
        for (tok, norm, n, members) in groups {
            let counts = Counts::new(data, &tok, norm, n)?;
            let corpus_rows = members.iter().any(|&i| configs[i].level == Level::Corpus);
            let variant_counts = match &variant {
                Some((alt, _)) if corpus_rows => Some(Counts::new(alt, &tok, norm, n)?),
                _ => None,
            };
            for i in members {
                let mut scores = metric::score(data, &counts, &configs[i])?;
                if let (Some((alt, systems)), Some(alt_counts)) = (&variant, &variant_counts) {
                    if configs[i].level == Level::Corpus {
                        let theirs = metric::score(alt, alt_counts, &configs[i])?;
                        scores = scores.with_corpus_scores_of(theirs, systems);
                    }
                }
                let row = &mut rows[i];
                row.values.extend(prepared.row(&scores));
                if options.permutation {
                    row.p_values.extend(prepared.permutation_p(&scores));
                }
                if let Some(b) = &options.bootstrap {
                    row.intervals.extend(uncertainty::intervals(
                        &prepared,
                        &scores,
                        configs[i].level,
                        options.human,
                        b,
                    )?);
                }
                row.windows.extend(prepared.windows(&scores));
                for (v, view) in data.views.iter().enumerate() {
                    row.system_scores.push((
                        data.descriptor.name.clone(),
                        view.name.clone(),
                        scores.system[v].clone(),
                    ));
                    for (set, ratings) in data
                        .sets
                        .iter()
                        .zip(scores.per_set.get(v).into_iter().flatten())
                    {
                        row.set_scores.push((
                            data.descriptor.name.clone(),
                            view.name.clone(),
                            set.0.clone(),
                            ratings.clone(),
                        ));
                    }
                }
                row.sentence_scores
                    .push((data.descriptor.name.clone(), scores.sentence));
            }
        }
        let (scored_rows, external_rows) = rows[configs.len()..].split_at_mut(options.scored.len());
        for (e, row) in options.scored.iter().zip(scored_rows) {
            let scores = e.scores(data)?;
            row.values.extend(prepared.row(&scores));
            if options.permutation {
                row.p_values.extend(prepared.permutation_p(&scores));
            }
            if let Some(b) = &options.bootstrap {
                row.intervals.extend(uncertainty::intervals(
                    &prepared,
                    &scores,
                    e.level(),
                    options.human,
                    b,
                )?);
            }
            row.windows.extend(prepared.windows(&scores));
            for (v, view) in data.views.iter().enumerate() {
                row.system_scores.push((
                    data.descriptor.name.clone(),
                    view.name.clone(),
                    scores.system[v].clone(),
                ));
            }
            row.sentence_scores
                .push((data.descriptor.name.clone(), scores.sentence));
        }
        for (e, row) in options.external.iter().zip(external_rows) {
            let system = e.system_scores(data)?;
            // No sentence scores: every sentence-level statistic is left undefined.
            let scores = metric::Scores {
                sentence: Vec::new(),
                system: vec![system.clone(); data.views.len()],
                per_set: Vec::new(),
                folds: None,
            };
            let values = prepared.row_system_only(&scores);
            if options.permutation {
                row.p_values.extend(prepared.permutation_p(&scores));
            }
            if options.bootstrap.is_some() {
                row.intervals
                    .extend(std::iter::repeat_n(None, values.len()));
            }
            row.values.extend(values);
            row.windows.extend(prepared.windows(&scores));
            for view in &data.views {
                row.system_scores.push((
                    data.descriptor.name.clone(),
                    view.name.clone(),
                    system.clone(),
                ));
            }
        }
        if options.williams {
            williams.extend(williams_rows(data, &prepared, &rows));
        }
    }
    Ok(Report {
        options: options.clone(),
        columns,
        human: human_tables,
        rows,
        williams,
    })
}

/// Williams' test of every row after the first against the first, for every view and set
/// of `data` (whose system scores are the last ones pushed to each row).
fn williams_rows(data: &Dataset, prepared: &Prepared, rows: &[Row]) -> Vec<WilliamsRow> {
    let mut out = Vec::new();
    let views = data.views.len();
    let Some(base) = rows.first() else {
        return out;
    };
    let sets = data.sets.len();
    // The scores a row correlated on set `k` of view `v` of this dataset (the last pushed).
    fn scores_of(row: &Row, views: usize, sets: usize, v: usize, k: usize) -> &[f64] {
        if row.set_scores.is_empty() {
            &row.system_scores[row.system_scores.len() - views + v].2
        } else {
            &row.set_scores[row.set_scores.len() - views * sets + v * sets + k].3
        }
    }
    for (v, view) in data.views.iter().enumerate() {
        for (k, (set, members)) in data.sets.iter().enumerate() {
            let pick = |x: &[f64]| members.iter().map(|&s| x[s]).collect::<Vec<f64>>();
            let human = pick(&prepared.human[v]);
            let b = pick(scores_of(base, views, sets, v, k));
            for row in &rows[1..] {
                let m = pick(scores_of(row, views, sets, v, k));
                let (Some(r12), Some(r13), Some(r23)) = (
                    stats::pearson(&m, &human),
                    stats::pearson(&b, &human),
                    stats::pearson(&m, &b),
                ) else {
                    continue;
                };
                if let Ok(test) = green_signif::williams(r12, r13, r23, members.len()) {
                    out.push(WilliamsRow {
                        dataset: data.descriptor.name.clone(),
                        view: view.name.clone(),
                        set: set.clone(),
                        metric: row.label.clone(),
                        baseline: base.label.clone(),
                        systems: members.len(),
                        r: r12,
                        r_baseline: r13,
                        r_between: r23,
                        test,
                    });
                }
            }
        }
    }
    out
}

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "NA".to_string(), |v| format!("{v:.digits$}"))
}

impl Report {
    /// Tab-separated: a header line of column labels, then one line per configuration.
    pub fn tsv(&self) -> String {
        let mut s = String::from("metric");
        for c in &self.columns {
            let _ = write!(s, "\t{} {}", c.dataset, c.label());
        }
        let with_ci = self.rows.iter().any(|r| !r.intervals.is_empty());
        if with_ci {
            for c in &self.columns {
                let _ = write!(
                    s,
                    "\t{} {} low\t{} {} high",
                    c.dataset,
                    c.label(),
                    c.dataset,
                    c.label()
                );
            }
        }
        s.push('\n');
        for r in &self.rows {
            s.push_str(&r.label);
            for v in &r.values {
                let _ = write!(s, "\t{}", num(*v, 6));
            }
            if with_ci {
                for i in 0..self.columns.len() {
                    let iv = r.intervals.get(i).copied().flatten();
                    let _ = write!(
                        s,
                        "\t{}\t{}",
                        num(iv.map(|x| x.low), 6),
                        num(iv.map(|x| x.high), 6)
                    );
                }
            }
            s.push('\n');
        }
        s
    }

    /// Pretty JSON of everything (options, columns, human scores, rows with system scores
    /// and windows).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Markdown: one table per dataset (3 decimals), then the human scores.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let mut datasets: Vec<&str> = Vec::new();
        for c in &self.columns {
            if !datasets.contains(&c.dataset.as_str()) {
                datasets.push(&c.dataset);
            }
        }
        for d in datasets {
            let cols: Vec<usize> = (0..self.columns.len())
                .filter(|&i| self.columns[i].dataset == d)
                .collect();
            let _ = writeln!(s, "### {d}\n");
            s.push_str("| metric |");
            for &i in &cols {
                let _ = write!(s, " {} |", self.columns[i].label());
            }
            s.push_str("\n|---|");
            s.push_str(&"---:|".repeat(cols.len()));
            s.push('\n');
            for r in &self.rows {
                let _ = write!(s, "| {} |", r.label);
                for &i in &cols {
                    let _ = write!(s, " {}", num(r.values[i], 3));
                    if let Some(iv) = r.intervals.get(i).copied().flatten() {
                        let _ = write!(s, " [{:.3}, {:.3}]", iv.low, iv.high);
                    }
                    if let Some(p) = r.p_values.get(i).copied().flatten() {
                        let _ = write!(s, " (p={p:.3})");
                    }
                    s.push_str(" |");
                }
                s.push('\n');
            }
            s.push('\n');
        }
        if let Some(b) = &self.options.bootstrap {
            let _ = writeln!(
                s,
                "Intervals: {}% percentile bootstrap, {} replicates resampling sentences (human and metric scores recomputed on each), seed {}, generator {}. Corpus-level GLEU keeps its reference draws on every replicate.\n",
                b.level * 100.0,
                b.replicates,
                b.seed,
                green_signif::GENERATOR
            );
        }
        if !self.williams.is_empty() {
            let _ = writeln!(
                s,
                "### Williams' test: system-level r of each configuration against {}\n",
                self.williams[0].baseline
            );
            s.push_str("| dataset | view | set | metric | systems | r | r baseline | r between | t | p (one-sided) |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|\n");
            for w in &self.williams {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.4} |",
                    w.dataset,
                    w.view,
                    w.set,
                    w.metric,
                    w.systems,
                    w.r,
                    w.r_baseline,
                    w.r_between,
                    w.test.t,
                    w.test.p_one_sided
                );
            }
            s.push('\n');
        }
        s
    }

    /// Human system scores as Markdown, one table per dataset view.
    pub fn human_markdown(&self) -> String {
        let mut s = String::new();
        for h in &self.human {
            let _ = writeln!(s, "{} / {}: {}", h.dataset, h.view, {
                let mut v: Vec<(usize, f64)> = h.scores.iter().copied().enumerate().collect();
                v.sort_by(|a, b| b.1.total_cmp(&a.1));
                v.iter()
                    .map(|(i, x)| format!("{} {x:.3}", h.systems[*i]))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
        }
        s
    }

    /// Every configuration's sentence scores as TSV: metric, dataset, sentence (1-based, in
    /// the dataset's sentence order), then one column per system.
    pub fn sentences_tsv(&self, datasets: &[Dataset]) -> String {
        let mut s = String::new();
        for d in datasets {
            let name = &d.descriptor.name;
            let _ = writeln!(
                s,
                "metric\tdataset\tsentence\t{}",
                d.descriptor.systems.join("\t")
            );
            for r in &self.rows {
                for (_, rows) in r.sentence_scores.iter().filter(|(ds, _)| ds == name) {
                    for (i, scores) in rows.iter().enumerate() {
                        let _ = write!(s, "{}\t{name}\t{}", r.label, i + 1);
                        for x in scores {
                            let _ = write!(s, "\t{x}");
                        }
                        s.push('\n');
                    }
                }
            }
        }
        s
    }

    /// Window analysis as TSV: configuration, dataset, view, size, start rank, r, rho, systems.
    pub fn windows_tsv(&self) -> String {
        let mut s = String::from("metric\tdataset\tview\tsize\tstart\tr\trho\tsystems\n");
        for r in &self.rows {
            for w in &r.windows {
                let _ = writeln!(
                    s,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    r.label,
                    w.dataset,
                    w.view,
                    w.size,
                    w.start,
                    num(w.r, 6),
                    num(w.rho, 6),
                    w.systems.join(",")
                );
            }
        }
        s
    }
}
