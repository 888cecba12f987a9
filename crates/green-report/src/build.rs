//! From a corpus in memory to the [`Report`]: every metric's per-sentence statistics once,
//! then everything the page shows from them.
//!
//! Each metric is computed the way its own command computes it (GREEN as `green` and `green
//! paired`, M2 as `green maxmatch`, ERRANT and CLEME on edits extracted from the texts as
//! `green meta` does), and every interval and paired test comes from green-signif's
//! bootstrap over those statistics, as `green paired --test bs` draws it. Length buckets are
//! the same statistics folded over a subset of sentences. The sentence browser's colours
//! come from the very comparison ERRANT scores (the reference its greedy fold chose), so the
//! outcomes the page counts add up to ERRANT's TP, FP and FN.

use green_engine::CollectInOrder;
use std::collections::BTreeSet;

use green_edits::align::Merge;
use green_edits::{cleme, compare, parallel, pyfloat, Edit};
use green_engine::score::{order_scores, select_reference};
use green_engine::{Config, Normalization, Regions, Scorer, Sentence, Signature, Tokenizer, BATCH};
use green_metric::{Folds, Metric as _, Resample};
use green_signif::{bootstrap, paired_bootstrap, Folded, PairedResult, Summed};
use rayon::prelude::*;

use crate::model::*;
use crate::outcome;
use crate::Error;

/// The metrics a report can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Green,
    M2,
    Errant,
    Cleme,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Green => "GREEN",
            Metric::M2 => "M2",
            Metric::Errant => "ERRANT",
            Metric::Cleme => "CLEME",
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "green" => Ok(Metric::Green),
            "m2" | "maxmatch" => Ok(Metric::M2),
            "errant" => Ok(Metric::Errant),
            "cleme" => Ok(Metric::Cleme),
            _ => Err(format!(
                "unknown metric '{s}'; use green, m2, errant or cleme"
            )),
        }
    }
}

/// The corpus: `refs[sentence]` (one or more each), `hyps[system][sentence]`.
pub struct Input<'a> {
    pub sources: &'a [String],
    pub refs: &'a [Vec<String>],
    pub hyps: &'a [Vec<String>],
    pub gold: Option<&'a Gold>,
}

/// A gold M2 file, read twice: as the m2scorer reads it (for M2) and as ERRANT reads it
/// (for its error categories).
pub struct Gold {
    pub path: String,
    pub m2: green_m2::Gold,
    /// `None` when ERRANT's reader refuses the file (then there are no gold categories).
    pub typed: Option<green_edits::Document>,
}

/// The file names the report records, as given.
pub struct Files {
    pub source: Option<String>,
    pub references: Vec<String>,
    pub systems: Vec<SystemName>,
}

/// How texts become tokens.
pub struct Tokens<'a> {
    pub tokenizer: &'a dyn Tokenizer,
    pub normalization: Normalization,
    /// System lines go to the m2scorer as they are (`green maxmatch` without -t), not
    /// retokenized.
    pub m2_raw: bool,
    /// What the browser puts between tokens (see [`Corpus::join`]).
    pub join: String,
}

/// What to compute.
pub struct Settings {
    pub title: String,
    pub metrics: Vec<Metric>,
    /// GREEN's highest order and beta.
    pub n: usize,
    pub beta: f64,
    /// Beta of M2, ERRANT and CLEME.
    pub edit_beta: f64,
    pub reps: usize,
    pub seed: u64,
    pub confidence: f64,
    pub baseline: usize,
    /// Length bucket boundaries in tokens, increasing: `[10, 20]` makes 0–9, 10–19, 20+.
    pub buckets: Vec<usize>,
    /// The rule for M2 references' missing annotators, when references came from M2 (it is
    /// part of GREEN's signature).
    pub missing_annotator: Option<String>,
}

/// A metric's statistics of every system: a corpus score of any multiset of sentences
/// (buckets, bootstrap replicates) and the paired bootstrap of two systems.
trait Sampled: Resample {
    fn paired(&self, a: usize, b: usize, s: &Settings) -> Result<PairedResult, Error>;
}

impl<M> Sampled for Folds<M>
where
    M: green_metric::Metric + Clone + Send + Sync,
{
    fn paired(&self, a: usize, b: usize, s: &Settings) -> Result<PairedResult, Error> {
        let pair = Folded::new(
            self.metric.clone(),
            self.stats[a].clone(),
            self.stats[b].clone(),
        )?;
        Ok(paired_bootstrap(&pair, s.reps, s.seed, s.confidence)?)
    }
}

/// GREEN's region counts of the reference it chose for each sentence, `WIDTH` × n integers
/// per sentence (as `green paired` resamples them).
struct GreenStats {
    n: usize,
    beta: f64,
    rows: Vec<Vec<u64>>,
}

const WIDTH: usize = 7;

fn regions(sums: &[u64]) -> Vec<Regions> {
    sums.chunks(WIDTH)
        .map(|r| Regions {
            tk: r[0],
            td: r[1],
            ti: r[2],
            od: r[3],
            oi: r[4],
            ud: r[5],
            ui: r[6],
        })
        .collect()
}

impl GreenStats {
    fn sums(&self, sentences: &[usize], weights: &[u32], h: usize) -> Vec<u64> {
        let width = WIDTH * self.n;
        let mut sums = vec![0u64; width];
        for (&s, &w) in sentences.iter().zip(weights) {
            let row = &self.rows[h][s * width..(s + 1) * width];
            for (t, c) in sums.iter_mut().zip(row) {
                *t += u64::from(w) * c;
            }
        }
        sums
    }
}

impl Resample for GreenStats {
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64 {
        green_engine::score::green(&regions(&self.sums(sentences, weights, h)), self.beta)
    }
}

impl Sampled for GreenStats {
    fn paired(&self, a: usize, b: usize, s: &Settings) -> Result<PairedResult, Error> {
        let (n, beta) = (self.n, self.beta);
        let pair = Summed {
            stats: green_signif::Stats::new(WIDTH * n, self.rows[a].clone(), self.rows[b].clone())?,
            score: move |sums: &[u64]| green_engine::score::green(&regions(sums), beta),
        };
        Ok(paired_bootstrap(&pair, s.reps, s.seed, s.confidence)?)
    }
}

/// One metric, computed.
struct Computed {
    metric: Metric,
    signature: String,
    beta: f64,
    sampled: Box<dyn Sampled>,
    /// Per system: the corpus score, precision, recall and counts.
    totals: Vec<(f64, f64, f64, Option<Counts>)>,
    /// `[system][sentence]`.
    sentence: Vec<Vec<f64>>,
}

/// Texts as tokens joined by single spaces, as the edit metrics and the browser see them.
struct Texts {
    sources: Vec<String>,
    /// `[sentence][reference]`.
    refs: Vec<Vec<String>>,
    /// `[system][sentence]`.
    hyps: Vec<Vec<String>>,
}

fn retokenize_all(input: &Input, tok: &dyn Tokenizer) -> Result<Texts, Error> {
    let one = |i: usize, text: &str| -> Result<String, Error> {
        let t = green_engine::retokenize(tok, text).map_err(|e| {
            Error(format!(
                "sentence {}: tokenizer '{}' failed: {e}",
                i + 1,
                tok.name()
            ))
        })?;
        Ok(green_edits::m2::split(&t).collect::<Vec<_>>().join(" "))
    };
    let sources = input
        .sources
        .par_iter()
        .enumerate()
        .map(|(i, s)| one(i, s))
        .collect_in_order::<Vec<_>>()?;
    let refs = input
        .refs
        .par_iter()
        .enumerate()
        .map(|(i, r)| r.iter().map(|t| one(i, t)).collect())
        .collect_in_order::<Vec<_>>()?;
    let hyps = input
        .hyps
        .iter()
        .map(|h| {
            h.par_iter()
                .enumerate()
                .map(|(i, t)| one(i, t))
                .collect_in_order::<Vec<_>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Texts {
        sources,
        refs,
        hyps,
    })
}

/// The edits of `source` → each of `targets` (annotator = position), as `green
/// errant-parallel -lev -merge all-merge` extracts them from the tokens (a target with the
/// source's tokens is a noop, whatever its spaces). An empty source has none.
fn extract(i: usize, source: &str, targets: &[&str]) -> Result<Vec<Edit>, Error> {
    Ok(parallel::token_sentence(source, targets, Merge::AllMerge)
        .map_err(|e| Error(format!("sentence {}: {e}", i + 1)))?
        .map_or_else(Vec::new, |s| s.edits))
}

/// Every reference's and system's edits of the source, extracted from the texts.
struct Extracted {
    /// `[sentence]`: annotator = the reference's position.
    refs: Vec<Vec<Edit>>,
    /// `[system][sentence]`.
    hyps: Vec<Vec<Vec<Edit>>>,
}

fn extract_all(texts: &Texts) -> Result<Extracted, Error> {
    let sentences = texts.sources.len();
    let refs = (0..sentences)
        .into_par_iter()
        .map(|i| {
            let targets: Vec<&str> = texts.refs[i].iter().map(String::as_str).collect();
            extract(i, &texts.sources[i], &targets)
        })
        .collect_in_order()?;
    let hyps = texts
        .hyps
        .iter()
        .map(|h| {
            (0..sentences)
                .into_par_iter()
                .map(|i| extract(i, &texts.sources[i], &[h[i].as_str()]))
                .collect_in_order::<Vec<_>>()
        })
        .collect::<Result<_, _>>()?;
    Ok(Extracted { refs, hyps })
}

/// ERRANT's statistics and corpus folds of every system, and the reference (annotator) its
/// greedy fold chose for each sentence.
struct ErrantRun {
    stats: Vec<Vec<compare::SentenceStats>>,
    reports: Vec<compare::Report>,
    chosen: Vec<Vec<i64>>,
}

fn errant_run(edits: &Extracted, opts: &compare::Options) -> ErrantRun {
    let stats: Vec<Vec<compare::SentenceStats>> = edits
        .hyps
        .iter()
        .map(|h| {
            h.par_iter()
                .zip(&edits.refs)
                .map(|(hyp, reference)| compare::sentence_stats(hyp, reference, opts))
                .collect()
        })
        .collect();
    let reports: Vec<compare::Report> = stats.iter().map(|s| compare::fold(s, opts.beta)).collect();
    let chosen = stats
        .iter()
        .zip(&reports)
        .map(|(s, r)| {
            s.iter()
                .zip(&r.chosen)
                .map(|(s, &c)| s.pairs.get(c).map_or(0, |p| p.reference.max(0)))
                .collect()
        })
        .collect();
    ErrantRun {
        stats,
        reports,
        chosen,
    }
}

/// ERRANT as a metric of the report, from its run (whose statistics it keeps).
fn errant_metric(
    stats: Vec<Vec<compare::SentenceStats>>,
    reports: &[compare::Report],
    opts: &compare::Options,
    tokens: &Tokens,
) -> Computed {
    let metric = compare::Errant { beta: opts.beta };
    Computed {
        metric: Metric::Errant,
        signature: edit_signature(compare::signature(opts), tokens),
        beta: opts.beta,
        totals: reports
            .iter()
            .map(|r| {
                let s = &r.score;
                let counts = Counts {
                    tp: s.tp,
                    fp: s.fp,
                    fn_: s.fn_,
                };
                (s.f, s.p, s.r, Some(counts))
            })
            .collect(),
        sentence: stats.iter().map(|s| metric.sentence_scores(s)).collect(),
        sampled: Box::new(Folds { metric, stats }),
    }
}

/// Build the report.
pub fn build(
    input: &Input,
    files: Files,
    tokens: &Tokens,
    settings: &Settings,
) -> Result<Report, Error> {
    let sentences = input.sources.len();
    let systems = input.hyps.len();
    if sentences == 0 || systems == 0 {
        return Err(Error(
            "a report needs at least one sentence and one system".into(),
        ));
    }
    let texts = retokenize_all(input, tokens.tokenizer)?;
    let edits = extract_all(&texts)?;
    // ERRANT always: the browser's colours and the operation types come from its comparison.
    let errant_opts = compare::Options {
        beta: settings.edit_beta,
        ..Default::default()
    };
    let ErrantRun {
        stats,
        reports,
        chosen,
    } = errant_run(&edits, &errant_opts);
    let mut types = vec![operation_types(&reports, settings.edit_beta)];
    let mut errant_stats = Some(stats);
    let mut computed = Vec::new();
    let mut green_refs = None;
    for &metric in &settings.metrics {
        computed.push(match metric {
            Metric::Green => {
                let (c, refs) = green(input, tokens, settings)?;
                green_refs = Some(refs);
                c
            }
            Metric::M2 => m2(input, &texts, tokens, settings)?,
            Metric::Errant => errant_metric(
                errant_stats.take().unwrap_or_default(),
                &reports,
                &errant_opts,
                tokens,
            ),
            Metric::Cleme => cleme(&texts, &edits, tokens, settings)?,
        });
    }
    drop(errant_stats);
    let metrics = computed
        .iter()
        .map(|c| summary(c, sentences, systems, settings))
        .collect::<Result<Vec<_>, _>>()?;

    let mut warnings = Vec::new();
    let mut gold_types = None;
    if let Some((gold, doc)) = input.gold.and_then(|g| Some((g, g.typed.as_ref()?))) {
        match gold_table(gold, doc, &texts, &edits.hyps, settings.edit_beta) {
            Ok((table, per_sentence)) => {
                types.push(table);
                gold_types = Some(per_sentence);
            }
            Err(why) => warnings.push(why),
        }
    }
    let lengths: Vec<usize> = texts
        .sources
        .iter()
        .map(|s| green_edits::m2::split(s).count())
        .collect();
    let (system_sentences, aspects) =
        system_sentences(&texts, &edits, &chosen, &computed, green_refs.as_deref());
    let references = reference_edits(&texts, &edits);
    let corpus = Corpus {
        source: files.source,
        references: files.references,
        gold: input.gold.map(|g| g.path.clone()),
        sentences,
        max_refs: input.refs.iter().map(Vec::len).max().unwrap_or(0),
        tokenizer: tokens.tokenizer.name(),
        normalization: tokens.normalization.to_string(),
        join: tokens.join.clone(),
    };
    Ok(Report {
        version: env!("CARGO_PKG_VERSION").to_string(),
        title: settings.title.clone(),
        corpus,
        systems: files.systems,
        baseline: settings.baseline,
        bootstrap: Bootstrap {
            test: "paired-bootstrap".into(),
            replicates: settings.reps,
            seed: settings.seed,
            confidence: settings.confidence,
            generator: green_signif::GENERATOR.into(),
        },
        lengths: length_buckets(&computed, &lengths, &settings.buckets, systems),
        distributions: computed
            .iter()
            .map(|c| distribution(c.metric.name(), &c.sentence))
            .collect(),
        metrics,
        outcomes: Outcomes {
            against:
                "the edits of the reference ERRANT chose for each sentence (span and correction)"
                    .into(),
            systems: aspects,
        },
        types,
        sentences: Sentences {
            source: texts.sources,
            references,
            gold_types,
            systems: system_sentences,
        },
        warnings,
    })
}

/// The browser's data of every system (edits with their outcomes, chosen references,
/// sentence scores) and the outcome counts they add up to.
fn system_sentences(
    texts: &Texts,
    edits: &Extracted,
    chosen: &[Vec<i64>],
    computed: &[Computed],
    green_refs: Option<&[Vec<u32>]>,
) -> (Vec<SystemSentences>, Vec<Aspects>) {
    let systems = edits.hyps.len();
    let mut aspects = vec![Aspects::default(); systems];
    let mut out = Vec::with_capacity(systems);
    for h in 0..systems {
        let a = &mut aspects[h];
        let mut rows = Vec::with_capacity(texts.sources.len());
        let mut letters = Vec::with_capacity(texts.sources.len());
        for (i, &r) in chosen[h].iter().enumerate() {
            let reference: Vec<&Edit> = edits.refs[i]
                .iter()
                .filter(|e| e.annotator == r && !e.is_noop_span())
                .collect();
            let hyp: Vec<&Edit> = edits.hyps[h][i]
                .iter()
                .filter(|e| !e.is_noop_span())
                .collect();
            let (outcomes, l) = outcome::classify(&hyp, &reference);
            for &o in &outcomes {
                match o {
                    outcome::CORRECT => a.correct += 1,
                    outcome::WRONG => a.wrong += 1,
                    outcome::UNNECESSARY => a.unnecessary += 1,
                    _ => {}
                }
            }
            a.missed += l.matches('m').count() as u64;
            a.covered += l.matches('w').count() as u64;
            let mut row: Vec<HypEdit> = hyp
                .iter()
                .zip(outcomes)
                .map(|(e, o)| {
                    HypEdit(
                        e.start as u32,
                        e.end as u32,
                        e.correction.clone(),
                        e.kind.clone(),
                        o,
                    )
                })
                .collect();
            // An empty source has no extracted edits; the browser still shows the output.
            if texts.sources[i].is_empty() && !texts.hyps[h][i].is_empty() {
                row.push(HypEdit(
                    0,
                    0,
                    texts.hyps[h][i].clone(),
                    "M".into(),
                    outcome::NOT_SCORED,
                ));
            }
            rows.push(row);
            letters.push(l);
        }
        out.push(SystemSentences {
            edits: rows,
            reference: chosen[h].iter().map(|&r| r as u32).collect(),
            reference_outcomes: letters,
            green_reference: green_refs.map(|g| g[h].clone()),
            scores: computed
                .iter()
                .map(|c| {
                    let scores = c.sentence[h].iter().map(|&x| rounded(x)).collect();
                    (c.metric.name().to_string(), scores)
                })
                .collect(),
        });
    }
    (out, aspects)
}

/// Every reference's edits, per sentence, as the browser draws them.
fn reference_edits(texts: &Texts, edits: &Extracted) -> Vec<Vec<Vec<RefEdit>>> {
    (0..texts.sources.len())
        .map(|i| {
            (0..texts.refs[i].len())
                .map(|r| {
                    if texts.sources[i].is_empty() {
                        let text = &texts.refs[i][r];
                        return if text.is_empty() {
                            Vec::new()
                        } else {
                            vec![RefEdit(0, 0, text.clone(), "M".into())]
                        };
                    }
                    edits.refs[i]
                        .iter()
                        .filter(|e| e.annotator == r as i64 && !e.is_noop_span())
                        .map(|e| {
                            RefEdit(
                                e.start as u32,
                                e.end as u32,
                                e.correction.clone(),
                                e.kind.clone(),
                            )
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// A sentence score ×10,000, rounded; `None` when undefined.
fn rounded(x: f64) -> Option<i32> {
    x.is_finite().then(|| (x * 10_000.0).round() as i32)
}

/// An edit metric's signature, with how its edits were found.
fn edit_signature(metric: String, tokens: &Tokens) -> String {
    let base = metric
        .rsplit_once("|v:")
        .map_or(metric.clone(), |(b, _)| b.to_string());
    format!(
        "{base}|edits:parallel-lev-all-merge|tok:{}|norm:{}|v:{}",
        tokens.tokenizer.name(),
        tokens.normalization,
        env!("CARGO_PKG_VERSION")
    )
}

/// GREEN as `green paired` computes it: each sentence's regions against the reference it
/// chooses, summed. Also each sentence's chosen reference, per system.
fn green(
    input: &Input,
    tokens: &Tokens,
    settings: &Settings,
) -> Result<(Computed, Vec<Vec<u32>>), Error> {
    let (n, beta) = (settings.n, settings.beta);
    let config = Config::new(n, vec![beta]).map_err(|e| Error(e.to_string()))?;
    let scorer = Scorer::new(tokens.tokenizer, config);
    let systems = input.hyps.len();
    let total = input.sources.len();
    let mut rows = vec![Vec::with_capacity(total * WIDTH * n); systems];
    let mut sentence = vec![Vec::with_capacity(total); systems];
    let mut chosen = vec![Vec::with_capacity(total); systems];
    let refs: Vec<Vec<&str>> = input
        .refs
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let hyps: Vec<Vec<&str>> = (0..total)
        .map(|i| input.hyps.iter().map(|h| h[i].as_str()).collect())
        .collect();
    for start in (0..total).step_by(BATCH) {
        let end = (start + BATCH).min(total);
        let batch: Vec<Sentence> = (start..end)
            .map(|i| Sentence {
                source: &input.sources[i],
                refs: &refs[i],
                hyps: &hyps[i],
            })
            .collect();
        let counts = scorer.count_batch(&batch).map_err(|(i, e)| {
            Error(format!(
                "sentence {}: tokenizer '{}' failed: {e}",
                start + i + 1,
                tokens.tokenizer.name()
            ))
        })?;
        for (i, c) in counts.iter().enumerate() {
            if c.refs == 0 {
                return Err(Error(format!(
                    "sentence {} has no reference",
                    start + i + 1
                )));
            }
            for h in 0..systems {
                let (r, f) = select_reference(c, h, n, beta);
                for reg in &c.get(h, r)[..n] {
                    rows[h].extend([reg.tk, reg.td, reg.ti, reg.od, reg.oi, reg.ud, reg.ui]);
                }
                sentence[h].push(f);
                chosen[h].push(r as u32);
            }
        }
    }
    let stats = GreenStats { n, beta, rows };
    let all: Vec<usize> = (0..total).collect();
    let ones = vec![1u32; total];
    let totals = (0..systems)
        .map(|h| {
            let o = order_scores(&regions(&stats.sums(&all, &ones, h)), beta)[n - 1];
            (o.cum_f, o.cum_p, o.cum_r, None)
        })
        .collect();
    let signature = Signature {
        n,
        betas: vec![beta],
        tokenizer: tokens.tokenizer.name(),
        normalization: tokens.normalization,
        refs: input.refs.iter().map(Vec::len).max().unwrap_or(0),
        level: "corpus".into(),
        m2: settings.missing_annotator.clone(),
    }
    .to_string();
    Ok((
        Computed {
            metric: Metric::Green,
            signature,
            beta,
            sampled: Box::new(stats),
            totals,
            sentence,
        },
        chosen,
    ))
}

/// M2 as `green maxmatch` computes it against the gold file.
fn m2(
    input: &Input,
    texts: &Texts,
    tokens: &Tokens,
    settings: &Settings,
) -> Result<Computed, Error> {
    let gold = input.gold.ok_or_else(|| {
        Error(
            "the M2 metric needs gold edits: give a gold M2 file, or an M2 file as the reference"
                .into(),
        )
    })?;
    let opts = green_m2::Options {
        beta: settings.edit_beta,
        ..Default::default()
    };
    let mut stats = Vec::with_capacity(input.hyps.len());
    for (h, hyps) in input.hyps.iter().enumerate() {
        let lines = if tokens.m2_raw { hyps } else { &texts.hyps[h] };
        stats
            .push(green_m2::corpus_stats(&gold.m2, lines, &opts).map_err(|e| {
                Error(format!("M2 of system {} against {}: {e}", h + 1, gold.path))
            })?);
    }
    let metric = green_m2::MaxMatch {
        beta: settings.edit_beta,
    };
    let tokenizer = if tokens.m2_raw {
        "m2scorer-split".to_string()
    } else {
        tokens.tokenizer.name()
    };
    Ok(Computed {
        metric: Metric::M2,
        signature: green_m2::signature(
            &opts,
            &tokenizer,
            gold.m2.has_targets.then_some(green_m2::Alternatives::First),
        ),
        beta: settings.edit_beta,
        totals: stats
            .iter()
            .map(|s| {
                let t = metric.fold(s);
                let score = t.score(settings.edit_beta);
                let counts = Counts {
                    tp: t.correct,
                    fp: t.proposed - t.correct,
                    fn_: t.gold - t.correct,
                };
                (score.f, score.precision, score.recall, Some(counts))
            })
            .collect(),
        sentence: stats.iter().map(|s| metric.sentence_scores(s)).collect(),
        sampled: Box::new(Folds { metric, stats }),
    })
}

/// CLEME (dependent) on the extracted edits, as `green meta` computes it.
fn cleme(
    texts: &Texts,
    edits: &Extracted,
    tokens: &Tokens,
    settings: &Settings,
) -> Result<Computed, Error> {
    let opts = cleme::Options {
        beta: settings.edit_beta,
        merge_distance: 0,
    };
    let sentence = |i: usize, edits: &[Edit]| green_edits::Sentence {
        line: i + 1,
        source: texts.sources[i].clone(),
        edits: edits.to_vec(),
    };
    let stats: Vec<Vec<cleme::SentenceStats>> = edits
        .hyps
        .iter()
        .map(|h| {
            (0..texts.sources.len())
                .into_par_iter()
                .map(|i| {
                    cleme::text_stats(
                        &sentence(i, &h[i]),
                        &sentence(i, &edits.refs[i]),
                        &opts,
                        "the extracted edits",
                    )
                    .map_err(|e| Error(format!("CLEME, sentence {}: {e}", i + 1)))
                })
                .collect_in_order::<Vec<_>>()
        })
        .collect::<Result<_, _>>()?;
    let metric = cleme::Cleme {
        beta: settings.edit_beta,
        independent: false,
    };
    let mut totals = Vec::with_capacity(stats.len());
    for s in &stats {
        let corpus = cleme::fold(s, &opts)
            .map(|r| r.dependent.corpus)
            .map_err(|e| Error(format!("CLEME: {e}")))?;
        totals.push((corpus.f, corpus.p, corpus.r, None));
    }
    Ok(Computed {
        metric: Metric::Cleme,
        signature: edit_signature(format!("{}|dependent", cleme::signature(&opts)), tokens),
        beta: settings.edit_beta,
        totals,
        sentence: stats.iter().map(|s| metric.sentence_scores(s)).collect(),
        sampled: Box::new(Folds { metric, stats }),
    })
}

/// Corpus scores with their intervals, and every system against the baseline.
fn summary(
    c: &Computed,
    sentences: usize,
    systems: usize,
    settings: &Settings,
) -> Result<MetricSummary, Error> {
    let mut intervals = vec![[f64::NAN; 2]; systems];
    let mut versus = vec![None; systems];
    let base = settings.baseline;
    if systems == 1 {
        let all: Vec<usize> = (0..sentences).collect();
        let stat = |w: &[u32]| Some(c.sampled.score(&all, w, 0)).filter(|x| x.is_finite());
        if let Ok(i) = bootstrap(
            sentences,
            settings.reps,
            settings.seed,
            settings.confidence,
            stat,
        ) {
            intervals[0] = [i.low, i.high];
        }
    }
    for s in (0..systems).filter(|&s| s != base) {
        let r = c.sampled.paired(base, s, settings)?;
        if let Some([a, b, d]) = r.intervals {
            intervals[base] = [a.low, a.high];
            intervals[s] = [b.low, b.high];
            versus[s] = Some(Versus {
                delta: r.delta,
                interval: [d.low, d.high],
                p: r.p,
            });
        }
    }
    Ok(MetricSummary {
        metric: c.metric.name().into(),
        signature: c.signature.clone(),
        beta: c.beta,
        systems: c
            .totals
            .iter()
            .zip(intervals)
            .zip(versus)
            .map(
                |((&(score, precision, recall, counts), interval), versus)| MetricScore {
                    score,
                    precision,
                    recall,
                    counts,
                    interval,
                    versus,
                },
            )
            .collect(),
    })
}

/// A type's scores; undefined (NaN, `null` in JSON) for a type the system has no count of.
fn type_score([tp, fp, fn_]: [u64; 3], beta: f64) -> TypeScore {
    let (precision, recall, f) = if tp + fp + fn_ == 0 {
        (f64::NAN, f64::NAN, f64::NAN)
    } else {
        pyfloat::prf(tp as f64, fp as f64, fn_ as f64, beta)
    };
    TypeScore {
        tp,
        fp,
        fn_,
        precision,
        recall,
        f,
    }
}

/// A table from each system's per-type counts.
fn type_table(
    scheme: &str,
    description: &str,
    per_system: &[&compare::Categories],
    beta: f64,
) -> TypeTable {
    let types: Vec<String> = per_system
        .iter()
        .flat_map(|c| c.keys().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    TypeTable {
        scheme: scheme.into(),
        description: description.into(),
        systems: per_system
            .iter()
            .map(|c| {
                types
                    .iter()
                    .map(|t| type_score(c.get(t).copied().unwrap_or_default(), beta))
                    .collect()
            })
            .collect(),
        types,
    }
}

/// ERRANT's counts by operation (M, R, U), from the ERRANT fold itself.
fn operation_types(reports: &[compare::Report], beta: f64) -> TypeTable {
    let cats: Vec<&compare::Categories> = reports.iter().map(|r| &r.categories).collect();
    type_table(
        "operation",
        "ERRANT's span F by operation: M missing, R replacement, U unnecessary (edits extracted from the texts, without a tagger)",
        &cats,
        beta,
    )
}

/// The label of a system edit that overlaps no gold edit, in the gold categories' table.
const NO_GOLD_EDIT: &str = "(none)";

/// One sentence's counts of a system's edits against each gold annotator, with the system
/// edits typed by the gold edit they overlap (a wrong correction) or [`NO_GOLD_EDIT`] (an
/// unnecessary edit): ERRANT's comparison and greedy choice, with per-type precision.
fn gold_stats(hyp: &[Edit], gold: &[Edit], opts: &compare::Options) -> compare::SentenceStats {
    let mut annotators: Vec<i64> = Vec::new();
    for e in gold {
        if !annotators.contains(&e.annotator) {
            annotators.push(e.annotator);
        }
    }
    if annotators.is_empty() {
        // No gold line at all: one annotator without edits.
        annotators.push(0);
    }
    let mut pairs = Vec::new();
    for a in annotators {
        let mine: Vec<Edit> = gold.iter().filter(|e| e.annotator == a).cloned().collect();
        let typed: Vec<Edit> = hyp
            .iter()
            .map(|h| {
                let mut h = h.clone();
                if !h.is_noop_span() && h.kind != "UNK" {
                    h.kind = mine
                        .iter()
                        .find(|g| !g.is_noop_span() && g.kind != "noop" && outcome::touches(&h, g))
                        .map_or_else(|| NO_GOLD_EDIT.to_string(), |g| g.kind.clone());
                }
                h
            })
            .collect();
        pairs.extend(compare::sentence_stats(&typed, &mine, opts).pairs);
    }
    compare::SentenceStats { pairs }
}

/// The systems' extracted edits against the gold file's edits (its first alternative of
/// each annotator), counted and folded as ERRANT does, by the gold file's categories (see
/// [`gold_stats`]). Also the gold categories of each sentence. An error says why the table
/// cannot be made.
fn gold_table(
    gold: &Gold,
    doc: &green_edits::Document,
    texts: &Texts,
    hyp_edits: &[Vec<Vec<Edit>>],
    beta: f64,
) -> Result<(TypeTable, Vec<Vec<String>>), String> {
    if doc.sentences.len() != texts.sources.len() {
        return Err(format!(
            "gold categories left out: {} has {} sentences as ERRANT reads it, the corpus {}",
            gold.path,
            doc.sentences.len(),
            texts.sources.len()
        ));
    }
    if let Some(i) = (0..texts.sources.len()).find(|&i| {
        green_edits::m2::split(&doc.sentences[i].source)
            .ne(green_edits::m2::split(&texts.sources[i]))
    }) {
        return Err(format!(
            "gold categories left out: the tokens of sentence {} of {} differ from the source's tokens under this tokenizer, so their edit spans cannot be compared",
            i + 1,
            gold.path
        ));
    }
    // A deletion is an empty correction in extracted edits and in ERRANT's files, `-NONE-`
    // in the m2scorer's and ChERRANT's.
    let gold_edits: Vec<Vec<Edit>> = doc
        .sentences
        .iter()
        .map(|s| {
            s.edits
                .iter()
                .filter(|e| e.alternative == 0)
                .map(|e| Edit {
                    correction: e.correction_tokens().join(" "),
                    ..e.clone()
                })
                .collect()
        })
        .collect();
    let opts = compare::Options {
        beta,
        ..Default::default()
    };
    let reports: Vec<compare::Report> = hyp_edits
        .iter()
        .map(|h| {
            let stats: Vec<compare::SentenceStats> = h
                .par_iter()
                .zip(&gold_edits)
                .map(|(hyp, g)| gold_stats(hyp, g, &opts))
                .collect();
            compare::fold(&stats, beta)
        })
        .collect();
    let cats: Vec<&compare::Categories> = reports.iter().map(|r| &r.categories).collect();
    let table = type_table(
        "gold",
        "the systems' extracted edits against the gold file's edits, counted and folded as ERRANT does, by the gold categories: TP and FN under the gold edit's category, FP under the category of the gold edit it overlaps (a wrong correction) or (none) (an unnecessary edit)",
        &cats,
        beta,
    );
    let per_sentence = gold_edits
        .iter()
        .map(|edits| {
            edits
                .iter()
                .filter(|e| !e.is_noop_span() && e.kind != "noop")
                .map(|e| e.kind.clone())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        })
        .collect();
    Ok((table, per_sentence))
}

/// Each metric's corpus score of the sentences of each source-length bucket.
fn length_buckets(
    computed: &[Computed],
    lengths: &[usize],
    cutoffs: &[usize],
    systems: usize,
) -> Lengths {
    let mut bounds = vec![0];
    bounds.extend(cutoffs.iter().copied().filter(|&c| c > 0));
    let members: Vec<Vec<usize>> = (0..bounds.len())
        .map(|b| {
            let high = bounds.get(b + 1).copied();
            (0..lengths.len())
                .filter(|&i| lengths[i] >= bounds[b] && high.is_none_or(|h| lengths[i] < h))
                .collect()
        })
        .collect();
    let buckets = (0..bounds.len())
        .map(|b| {
            let high = bounds.get(b + 1).map(|h| h - 1);
            Bucket {
                label: match high {
                    Some(h) if h == bounds[b] => h.to_string(),
                    Some(h) => format!("{}–{h}", bounds[b]),
                    None => format!("{}+", bounds[b]),
                },
                low: bounds[b],
                high,
                sentences: members[b].len(),
            }
        })
        .collect();
    let scores = computed
        .iter()
        .map(|c| BucketScores {
            metric: c.metric.name().into(),
            systems: (0..systems)
                .map(|h| {
                    members
                        .iter()
                        .map(|m| {
                            if m.is_empty() {
                                return None;
                            }
                            let x = c.sampled.score(m, &vec![1; m.len()], h);
                            x.is_finite().then_some(x)
                        })
                        .collect()
                })
                .collect(),
        })
        .collect();
    Lengths { buckets, scores }
}

/// Sentence scores in tenths of the scale, from the rounded scores the JSON holds.
fn distribution(metric: &str, sentence: &[Vec<f64>]) -> Distribution {
    let mut systems = Vec::with_capacity(sentence.len());
    let mut mean = Vec::with_capacity(sentence.len());
    let mut undefined = Vec::with_capacity(sentence.len());
    for scores in sentence {
        let mut bins = vec![0u64; 10];
        let (mut sum, mut count, mut missing) = (0.0, 0u64, 0u64);
        for &x in scores {
            match rounded(x) {
                Some(v) => {
                    bins[(v.clamp(0, 10_000) / 1000).min(9) as usize] += 1;
                    sum += x;
                    count += 1;
                }
                None => missing += 1,
            }
        }
        systems.push(bins);
        mean.push(if count == 0 {
            f64::NAN
        } else {
            sum / count as f64
        });
        undefined.push(missing);
    }
    Distribution {
        metric: metric.into(),
        bins: (0..10)
            .map(|b| format!("{}–{}", b * 10, b * 10 + 10))
            .collect(),
        systems,
        mean,
        undefined,
    }
}
