//! Metric scores of every system of a dataset, from region counts made once.
//!
//! A dataset is counted once per tokenizer at the highest N any configuration needs
//! ([`Counts`]); every configuration (GREEN at any N ≤ that and any beta, GLEU) is then
//! computed from those counts without touching the text again. That is what makes a
//! 100-configuration sweep cheap.
//!
//! GLEU follows the GREEN paper's Section 3.3: per order, p_n = (TI + TK − UD) /
//! (TI + TK + OI + UD) summed over n-grams (the denominator is the hypothesis' n-gram
//! count), with the sentence numerator clipped at 0 as in Napoles et al.'s `gleu.py`;
//! GLEU = BP · exp(mean log p_1..p_N), BP = min(1, exp(1 − ref_len / hyp_len)), lengths in
//! tokens (order-1 counts: hypothesis = TK+TI+OI+UD, reference = TK+TI+OD+UI). Several
//! references: corpus GLEU is the mean over `iterations` (default 500, as in `gleu.py`) of
//! the corpus GLEU with one reference per sentence, drawn as the `gleu` package's
//! `--fix-seed` draws (`green_engine::gleu::draws`: CPython's generator seeded with
//! 101 · iteration; iteration `i` of seed `s` is the package's iteration `i + s ·
//! iterations`), the same draw for every system in an iteration. With seed 0 these are the
//! draws behind the GREEN paper's Table 2 and 4 (its wordGLEU corpus ρ 0.445 and AMU 58.08
//! come out only with them). Sentence GLEU is averaged over the sentence's references: the
//! expected value of the sampling, without noise. Smoothed, zero counts become 1 (as
//! `gleu.py` does for sentences); unsmoothed, as the package computes it, an order with no
//! hypothesis n-gram has precision 1, a zero numerator gives 0, and an empty hypothesis
//! scores 1 against an empty reference and 0 otherwise.

use green_engine::CollectInOrder;
use std::sync::Arc;

use green_engine::gec_metrics_gleu::{self, SentenceStats as GecStats};
use green_engine::{gleu, score, Counter, Normalization, Regions, SentenceCounts};
use green_metric::{Folds, Resample};
use rayon::prelude::*;

use crate::dataset::{Dataset, View};
use crate::rating::{Comparisons, Rating};
use crate::sampled::SampledGleu;
use crate::Error;

/// Which metric.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "metric", rename_all = "lowercase")]
pub enum Metric {
    Green {
        n: usize,
        beta: f64,
    },
    Gleu {
        n: usize,
        iterations: usize,
        seed: u64,
        /// Smooth sentence-level scores (zero n-gram precisions); corpus scores never are.
        smooth: bool,
    },
    /// GLEU exactly as gec-metrics' `GLEU` class computes it
    /// ([`green_engine::gec_metrics_gleu`]): numerators summed unclipped, its
    /// `random.randint` draws seeded with 101 · iteration (no seed offset), CPython's float
    /// sums; sentence scores are the mean over references, unsmoothed. The numbers of
    /// gec-metrics' README and the rating-based-aggregation paper's GLEU+.
    GleuGecMetrics {
        n: usize,
        iterations: usize,
    },
    /// M2 (MaxMatch) exactly as the m2scorer computes it, against the gold edits of parts read
    /// from M2; sentence scores are each sentence's F alone (best annotator).
    M2 {
        beta: f64,
    },
    /// ERRANT's span F (`errant_compare`), with the edits of each hypothesis and each
    /// reference extracted from the text (ERRANT `-lev -merge all-merge`, no tagger).
    Errant {
        beta: f64,
    },
    /// ERRANT's span F with ERRANT's own typed edits (its linguistic alignment and rule-based
    /// merger), from a tagger's annotations of every text ([`crate::annotations`]): the
    /// ERRANT of SEEDA's Table 5. Word level only (the tagger's tokens).
    ErrantTyped {
        beta: f64,
    },
    /// CLEME (Ye et al. 2023) on the same extracted edits: corpus level = CLEME with its
    /// corpus weights, mean level and sentence scores = SentCLEME's sentence F.
    Cleme {
        beta: f64,
        independent: bool,
    },
    /// CLEME2.0 (Ye et al. 2025) on the same extracted edits: com at main.py's factors,
    /// unweighted or with the repository's length weights; sentence scores are each
    /// sentence's best com.
    Cleme2 {
        independent: bool,
        length_weighted: bool,
    },
    /// GoToScorer (Gotou et al. 2020) on the same extracted edits against the first
    /// reference: unweighted, or weighted by how many of the dataset's systems get each
    /// reference chunk right (gec-metrics' weight generator over all the systems).
    GoToScorer {
        beta: f64,
        weighted: bool,
    },
}

/// How a configuration's system scores come about: the metric's own corpus score, the mean
/// of its sentence scores, or a rating of its sentence-by-sentence comparisons of the
/// systems ([`crate::rating`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Corpus,
    Mean,
    Rating(Rating),
}

impl Level {
    /// The name `--level` takes and labels show.
    pub fn name(self) -> &'static str {
        match self {
            Level::Corpus => "corpus",
            Level::Mean => "mean",
            Level::Rating(Rating::TrueSkill) => "trueskill",
            Level::Rating(Rating::ExpectedWins) => "expected-wins",
        }
    }
}

impl serde::Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "corpus" => Ok(Level::Corpus),
            "mean" => Ok(Level::Mean),
            "trueskill" => Ok(Level::Rating(Rating::TrueSkill)),
            "expected-wins" => Ok(Level::Rating(Rating::ExpectedWins)),
            _ => Err(Error::Config(format!(
                "unknown level '{s}'; use corpus, mean, trueskill or expected-wins"
            ))),
        }
    }
}

/// One metric configuration: a row of the table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MetricConfig {
    pub metric: Metric,
    /// Tokenizer spec (`word`, `char`, ... ; resolved through the dataset's aliases).
    pub tokenizer: String,
    #[serde(skip)]
    pub normalization: Normalization,
    pub level: Level,
}

/// What a sweep of `green meta`, `green maege` or their Python twins asks for; [`Sweep::configs`]
/// makes its rows in the one order all of them print.
pub struct Sweep<'a> {
    pub tokenizers: &'a [String],
    pub normalization: Normalization,
    pub levels: &'a [Level],
    /// GREEN's orders; empty: 6 for a character tokenizer, else 4.
    pub ns: &'a [usize],
    pub betas: &'a [f64],
    /// GREEN rows at all (`--gleu-only` leaves them out).
    pub green: bool,
    /// GLEU's (iterations, seed), when asked for.
    pub gleu: Option<(usize, u64)>,
    pub m2: bool,
    pub edits: bool,
    /// With `edits`: also ERRANT with typed edits (the datasets carry annotations).
    pub typed: bool,
    pub cleme2: bool,
}

impl Sweep<'_> {
    /// Per tokenizer (outer) and level: GREEN at every N and beta, GLEU, then M2, ERRANT and
    /// CLEME, then CLEME2.0 and GoToScorer.
    pub fn configs(&self) -> Vec<MetricConfig> {
        let mut out = Vec::new();
        for tok in self.tokenizers {
            let default = [if tok.contains("char") { 6 } else { 4 }];
            let ns: &[usize] = match (self.green, self.ns.is_empty()) {
                (false, _) => &[],
                (true, true) => &default,
                (true, false) => self.ns,
            };
            for &level in self.levels {
                let norm = self.normalization;
                out.extend(MetricConfig::grid(
                    tok, norm, level, ns, self.betas, self.gleu,
                ));
                out.extend(MetricConfig::edit_rows(
                    tok, norm, level, self.m2, self.edits, self.typed,
                ));
                if self.cleme2 {
                    out.extend(MetricConfig::cleme2_gotoscorer_rows(tok, norm, level));
                }
            }
        }
        out
    }
}

impl MetricConfig {
    /// The rows of one tokenizer and level in a sweep: GREEN at every N (outer) and beta
    /// (inner), then GLEU (N=4) when `gleu` gives its (iterations, seed).
    pub fn grid(
        tokenizer: &str,
        normalization: Normalization,
        level: Level,
        ns: &[usize],
        betas: &[f64],
        gleu: Option<(usize, u64)>,
    ) -> Vec<MetricConfig> {
        let green = ns
            .iter()
            .flat_map(|&n| betas.iter().map(move |&beta| Metric::Green { n, beta }));
        let gleu = gleu.map(|(iterations, seed)| Metric::Gleu {
            n: 4,
            iterations,
            seed,
            smooth: true,
        });
        Self::each(green.chain(gleu).collect(), tokenizer, normalization, level)
    }

    /// The rows of the GREEN paper's Table 2 (Koyama et al. 2024): per level (corpus, then the
    /// mean of sentence scores), GLEU then GREEN, word (N=4) then char (N=6); GREEN at beta 2,
    /// sentence-level GLEU unsmoothed. Run them on [`crate::dataset::GREEN_PAPER`].
    pub fn green_paper(gleu_iterations: usize, seed: u64) -> Vec<MetricConfig> {
        let mut out = Vec::new();
        for level in [Level::Corpus, Level::Mean] {
            for (green, n) in [(false, 4), (false, 6), (true, 4), (true, 6)] {
                let metric = if green {
                    Metric::Green { n, beta: 2.0 }
                } else {
                    Metric::Gleu {
                        n,
                        iterations: gleu_iterations,
                        seed,
                        smooth: false,
                    }
                };
                out.push(MetricConfig {
                    metric,
                    tokenizer: if n == 4 { "word" } else { "char" }.into(),
                    normalization: Normalization::default(),
                    level,
                });
            }
        }
        out
    }

    /// A short label such as `GREEN word N=4 β=2 corpus`.
    pub fn label(&self) -> String {
        let level = self.level.name();
        let norm = if self.normalization.is_identity() {
            String::new()
        } else {
            " norm".to_string()
        };
        match self.metric {
            Metric::Green { n, beta } => {
                format!("GREEN {}{norm} N={n} β={beta} {level}", self.tokenizer)
            }
            Metric::Gleu { n, smooth, .. } => format!(
                "GLEU-reformulated {}{norm} N={n}{} {level}",
                self.tokenizer,
                if smooth || self.level == Level::Corpus {
                    ""
                } else {
                    " unsmoothed"
                }
            ),
            Metric::GleuGecMetrics { n, .. } => {
                format!("GLEU-gec-metrics {}{norm} N={n} {level}", self.tokenizer)
            }
            Metric::M2 { beta } => format!("M2 {}{norm} β={beta} {level}", self.tokenizer),
            Metric::Errant { beta } => {
                format!("ERRANT {}{norm} β={beta} {level}", self.tokenizer)
            }
            Metric::ErrantTyped { beta } => {
                format!("ERRANT-typed {}{norm} β={beta} {level}", self.tokenizer)
            }
            Metric::Cleme { beta, independent } => format!(
                "CLEME-{} {}{norm} β={beta} {level}",
                if independent { "ind" } else { "dep" },
                self.tokenizer
            ),
            Metric::Cleme2 {
                independent,
                length_weighted,
            } => format!(
                "CLEME2-{}{} {}{norm} {level}",
                if independent { "ind" } else { "dep" },
                if length_weighted { "-length" } else { "" },
                self.tokenizer
            ),
            Metric::GoToScorer { beta, weighted } => format!(
                "GoToScorer{} {}{norm} β={beta} {level}",
                if weighted { "-weighted" } else { "" },
                self.tokenizer
            ),
        }
    }

    /// The highest n-gram order the configuration needs from [`Counts`] (1 for the edit
    /// metrics, which do not use them).
    pub fn n(&self) -> usize {
        match self.metric {
            Metric::Green { n, .. } | Metric::Gleu { n, .. } | Metric::GleuGecMetrics { n, .. } => {
                n
            }
            Metric::M2 { .. }
            | Metric::Errant { .. }
            | Metric::ErrantTyped { .. }
            | Metric::Cleme { .. }
            | Metric::Cleme2 { .. }
            | Metric::GoToScorer { .. } => 1,
        }
    }

    /// M2, ERRANT (and ERRANT with typed edits, `typed`) and CLEME rows for one tokenizer and
    /// level (`m2`, `edits`: which).
    pub fn edit_rows(
        tokenizer: &str,
        normalization: Normalization,
        level: Level,
        m2: bool,
        edits: bool,
        typed: bool,
    ) -> Vec<MetricConfig> {
        let mut metrics = Vec::new();
        if m2 {
            metrics.push(Metric::M2 { beta: 0.5 });
        }
        if edits {
            metrics.push(Metric::Errant { beta: 0.5 });
            if typed {
                metrics.push(Metric::ErrantTyped { beta: 0.5 });
            }
            for independent in [false, true] {
                metrics.push(Metric::Cleme {
                    beta: 0.5,
                    independent,
                });
            }
        }
        Self::each(metrics, tokenizer, normalization, level)
    }

    /// CLEME2.0 (dependent, independent; unweighted, length-weighted) and GoToScorer
    /// (unweighted, weighted by the dataset's systems) rows for one tokenizer and level.
    pub fn cleme2_gotoscorer_rows(
        tokenizer: &str,
        normalization: Normalization,
        level: Level,
    ) -> Vec<MetricConfig> {
        let mut metrics = Vec::new();
        for independent in [false, true] {
            for length_weighted in [false, true] {
                metrics.push(Metric::Cleme2 {
                    independent,
                    length_weighted,
                });
            }
        }
        for weighted in [false, true] {
            metrics.push(Metric::GoToScorer {
                beta: 0.5,
                weighted,
            });
        }
        Self::each(metrics, tokenizer, normalization, level)
    }

    /// `metrics`, each with the tokenizer, normalisation and level.
    fn each(
        metrics: Vec<Metric>,
        tokenizer: &str,
        normalization: Normalization,
        level: Level,
    ) -> Vec<MetricConfig> {
        metrics
            .into_iter()
            .map(|metric| MetricConfig {
                metric,
                tokenizer: tokenizer.to_owned(),
                normalization,
                level,
            })
            .collect()
    }
}

/// Region counts of every sentence of a dataset for one tokenizer, orders 1..=n.
pub struct Counts {
    pub tokenizer: String,
    pub normalization: Normalization,
    pub n: usize,
    pub sentences: Vec<SentenceCounts>,
}

impl Counts {
    /// Count every sentence (in parallel) with `spec` resolved through the dataset's aliases.
    pub fn new(
        data: &Dataset,
        spec: &str,
        normalization: Normalization,
        n: usize,
    ) -> Result<Counts, Error> {
        let resolved = data.descriptor.tokenizer(spec);
        let options = green_tokenizers::Options {
            normalization,
            ..Default::default()
        };
        let tok = green_tokenizers::build(resolved, &options)
            .map_err(|e| Error::Config(format!("dataset {}: {e}", data.descriptor.name)))?;
        let tok = tok.as_dyn();
        let sentences = data
            .sentences
            .par_iter()
            .enumerate()
            .map(|(i, s)| {
                Counter::with_local(|c| {
                    let refs: Vec<&str> = s.refs.iter().map(String::as_str).collect();
                    let hyps: Vec<&str> = s.hyps.iter().map(String::as_str).collect();
                    c.count(tok, n, &s.source, &refs, &hyps).map_err(|e| {
                        Error::Input(format!(
                            "dataset {}: sentence {}: tokenizer {resolved} failed: {e}",
                            data.descriptor.name,
                            i + 1
                        ))
                    })
                })
            })
            .collect_in_order::<Vec<_>>()?;
        Ok(Counts {
            tokenizer: spec.to_string(),
            normalization,
            n,
            sentences,
        })
    }
}

/// A configuration's scores on one dataset: per-sentence scores and per-view system scores.
#[derive(Clone)]
pub struct Scores {
    /// `[sentence][system]` sentence-level scores.
    pub sentence: Vec<Vec<f64>>,
    /// `[view][system]` system scores at the configuration's level (ratings: of all systems).
    pub system: Vec<Vec<f64>>,
    /// Rating levels only: `[view][set][system]`, each set's members rated among themselves
    /// (NaN outside the set); empty for the other levels.
    pub per_set: Vec<Vec<Vec<f64>>>,
    /// The metric's per-sentence statistics of every system, so corpus scores of resampled
    /// corpora are refolded without a recount (`None` for external scores).
    pub folds: Option<Arc<dyn Resample>>,
}

impl Scores {
    /// The system scores correlated on set `set` of view `v`: its members' own ratings, or the
    /// view's scores.
    pub fn of_set(&self, v: usize, set: usize) -> &[f64] {
        self.per_set
            .get(v)
            .and_then(|sets| sets.get(set))
            .unwrap_or(&self.system[v])
    }

    /// These scores with the corpus-level system scores of `systems` taken from `alt` (the
    /// same configuration on the dataset's [`Dataset::corpus_variant`]), for the view scores
    /// and for the refolds of a bootstrap.
    pub fn with_corpus_scores_of(mut self, alt: Scores, systems: &[usize]) -> Scores {
        for (mine, theirs) in self.system.iter_mut().zip(&alt.system) {
            for &h in systems {
                mine[h] = theirs[h];
            }
        }
        if let (Some(base), Some(alt)) = (self.folds.take(), alt.folds) {
            self.folds = Some(Arc::new(Spliced {
                base,
                alt,
                systems: systems.to_vec(),
            }));
        }
        self
    }
}

/// Corpus statistics of some systems from another dataset variant.
struct Spliced {
    base: Arc<dyn Resample>,
    alt: Arc<dyn Resample>,
    systems: Vec<usize>,
}

impl Resample for Spliced {
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64 {
        if self.systems.contains(&h) {
            self.alt.score(sentences, weights, h)
        } else {
            self.base.score(sentences, weights, h)
        }
    }

    fn scores(&self, sentences: &[usize], weights: &[u32], systems: usize) -> Vec<f64> {
        let mut out = self.base.scores(sentences, weights, systems);
        let alt = self.alt.scores(sentences, weights, systems);
        for &h in &self.systems {
            out[h] = alt[h];
        }
        out
    }
}

/// Score every system of `data` with `config` from `counts` (counted with its tokenizer).
pub fn score(data: &Dataset, counts: &Counts, config: &MetricConfig) -> Result<Scores, Error> {
    let n = config.n();
    if n == 0 || n > counts.n {
        return Err(Error::Config(format!(
            "N={n} needs counts up to order {n}, but they go to {}",
            counts.n
        )));
    }
    let systems = data.descriptor.systems.len();
    match config.metric {
        Metric::M2 { beta } => m2_scores(data, config, beta),
        Metric::Errant { .. }
        | Metric::ErrantTyped { .. }
        | Metric::Cleme { .. }
        | Metric::Cleme2 { .. }
        | Metric::GoToScorer { .. } => edit_scores(data, config),
        Metric::Green { beta, .. } => {
            // Per sentence and system: GREEN's choice of reference and its score. The fold
            // sums the chosen counts per view, as a refold of a replicate does.
            let mut sentence = Vec::with_capacity(counts.sentences.len());
            let mut chosen: Vec<Vec<Vec<Vec<Regions>>>> =
                vec![Vec::with_capacity(counts.sentences.len()); systems];
            for c in &counts.sentences {
                let mut row = Vec::with_capacity(systems);
                for (h, stats) in chosen.iter_mut().enumerate() {
                    let (r, score) = score::select_reference(c, h, n, beta);
                    stats.push(vec![c.get(h, r)[..n].to_vec()]);
                    row.push(score);
                }
                sentence.push(row);
            }
            let folds = Folds {
                metric: score::Green { n, beta },
                stats: chosen,
            };
            Ok(fold_scores(data, config, Some(sentence), folds))
        }
        Metric::GleuGecMetrics { iterations, .. } => {
            if iterations == 0 {
                return Err(Error::Config("GLEU needs at least one iteration".into()));
            }
            // stats[system][sentence]
            let stats: Vec<Vec<GecStats>> = (0..systems)
                .map(|h| {
                    (counts.sentences.iter())
                        .map(|c| {
                            let refs: Vec<&[Regions]> =
                                (0..c.refs).map(|r| &c.get(h, r)[..n]).collect();
                            GecStats::of_regions(&refs)
                        })
                        .collect()
                })
                .collect();
            let sentence: Vec<Vec<f64>> = (0..counts.sentences.len())
                .map(|i| {
                    (0..systems)
                        .map(|h| gec_metrics_gleu::sentence_score(&stats[h][i]))
                        .collect()
                })
                .collect();
            if config.level != Level::Corpus {
                return Ok(from_sentences(data, config.level, sentence));
            }
            let folds = GecMetricsFolds {
                stats,
                iterations: iterations as u64,
            };
            let system = per_view(data, |v, h| {
                folds.score(&v.sentences, &vec![1; v.sentences.len()], h)
            });
            Ok(Scores {
                sentence,
                system,
                per_set: Vec::new(),
                folds: Some(Arc::new(folds)),
            })
        }
        Metric::Gleu {
            iterations,
            seed,
            smooth,
            ..
        } => {
            // stats[sentence][system][ref]
            let stats: Vec<Vec<Vec<GleuStats>>> = counts
                .sentences
                .iter()
                .map(|c| {
                    (0..systems)
                        .map(|h| {
                            (0..c.refs)
                                .map(|r| GleuStats::of(&c.get(h, r)[..n]))
                                .collect()
                        })
                        .collect()
                })
                .collect();
            let sentence: Vec<Vec<f64>> = stats
                .iter()
                .map(|per_sys| {
                    per_sys
                        .iter()
                        .map(|refs| mean(refs.iter().map(|s| s.gleu(smooth))))
                        .collect()
                })
                .collect();
            if config.level != Level::Corpus {
                return Ok(from_sentences(data, config.level, sentence));
            }
            if iterations == 0 {
                return Err(Error::Config("GLEU needs at least one iteration".into()));
            }
            // Seed s takes the package's iterations s·K .. s·K + K − 1, seeded with 101 × the
            // iteration, which must fit in 64 bits.
            let first = seed
                .checked_add(1)
                .and_then(|s| s.checked_mul(iterations as u64 * 101))
                .map(|_| seed * iterations as u64)
                .ok_or_else(|| {
                    Error::Config(format!(
                        "seed {seed} is too large for GLEU's {iterations} reference draws: use a seed below {}",
                        u64::MAX / 101 / iterations as u64
                    ))
                })?;
            let draws: Vec<Vec<usize>> = (0..iterations as u64)
                .map(|i| {
                    let refs = stats.iter().map(|s| s.first().map_or(1, Vec::len));
                    gleu::draws(first + i, refs)
                })
                .collect();
            let sampled = SampledGleu::new(&stats, &draws);
            let system = data
                .views
                .iter()
                .map(|v| sampled.scores(&v.sentences, &vec![1; v.sentences.len()], systems))
                .collect();
            Ok(Scores {
                sentence,
                system,
                per_set: Vec::new(),
                folds: Some(Arc::new(sampled)),
            })
        }
    }
}

/// M2 of every system: per-sentence statistics in parallel, then the m2scorer's greedy fold
/// over each view's sentences in order (corpus) or each sentence's own F (sentence, mean).
fn m2_scores(data: &Dataset, config: &MetricConfig, beta: f64) -> Result<Scores, Error> {
    let name = &data.descriptor.name;
    let (tok, resolved) = raw_tokenizer(data, config)?;
    let opts = green_m2::Options {
        beta,
        ..Default::default()
    };
    let golds = data.gold_edits("M2")?;
    let stats: Vec<Vec<green_m2::SentenceStats>> = data
        .sentences
        .par_iter()
        .zip(golds)
        .enumerate()
        .map(|(i, (s, gold))| {
            s.hyps
                .iter()
                .map(|h| {
                    let h = match &tok {
                        None => h.clone(),
                        Some(t) => green_engine::retokenize(t.as_dyn(), h).map_err(|e| {
                            Error::Input(format!(
                                "dataset {name}: sentence {}: tokenizer {resolved} failed: {e}",
                                i + 1
                            ))
                        })?,
                    };
                    green_m2::sentence_stats(gold, &h, &opts).map_err(|e| {
                        Error::Input(format!("dataset {name}: sentence {}: {e}", i + 1))
                    })
                })
                .collect()
        })
        .collect_in_order()?;
    Ok(fold_scores(
        data,
        config,
        None,
        Folds {
            metric: green_m2::MaxMatch { beta },
            stats: by_system(stats, data.descriptor.systems.len()),
        },
    ))
}

/// The scores of a metric from its per-sentence statistics (`stats[system][sentence]`):
/// sentence scores (`None`: the metric's own), and per view the corpus fold over its
/// sentences (corpus level) or their mean (mean level).
fn fold_scores<M: green_metric::Metric + Send + Sync + 'static>(
    data: &Dataset,
    config: &MetricConfig,
    sentence: Option<Vec<Vec<f64>>>,
    folds: Folds<M>,
) -> Scores {
    let sentence = sentence.unwrap_or_else(|| {
        let by_system: Vec<Vec<f64>> = folds
            .stats
            .iter()
            .map(|s| folds.metric.sentence_scores(s))
            .collect();
        (0..data.sentences.len())
            .map(|i| by_system.iter().map(|row| row[i]).collect())
            .collect()
    });
    if config.level != Level::Corpus {
        return from_sentences(data, config.level, sentence);
    }
    let system = per_view(data, |v, h| {
        folds.score(&v.sentences, &vec![1; v.sentences.len()], h)
    });
    Scores {
        sentence,
        system,
        per_set: Vec::new(),
        folds: Some(Arc::new(folds)),
    }
}

/// Scores whose system scores come from the sentence scores alone: per view their mean
/// (`Mean`), or a rating of the systems' comparisons over all systems and, for the
/// correlations, over each system set's members (`Rating`).
fn from_sentences(data: &Dataset, level: Level, sentence: Vec<Vec<f64>>) -> Scores {
    let systems = data.descriptor.systems.len();
    let (system, per_set) = match level {
        Level::Rating(rating) => {
            let all: Vec<usize> = (0..systems).collect();
            let rate = |v: &View, members: &[usize]| {
                Comparisons::new(&sentence, &v.sentences, members).rate(rating, None, systems)
            };
            let system = data.views.iter().map(|v| rate(v, &all)).collect();
            let per_set = (data.views.iter())
                .map(|v| data.sets.iter().map(|(_, m)| rate(v, m)).collect())
                .collect();
            (system, per_set)
        }
        Level::Corpus | Level::Mean => (
            per_view(data, |v, h| view_mean(v, &sentence, h)),
            Vec::new(),
        ),
    };
    Scores {
        sentence,
        system,
        per_set,
        folds: None,
    }
}

/// `[sentence][system]` → `[system][sentence]`.
fn by_system<S>(rows: Vec<Vec<S>>, systems: usize) -> Vec<Vec<S>> {
    let mut out: Vec<Vec<S>> = (0..systems)
        .map(|_| Vec::with_capacity(rows.len()))
        .collect();
    for row in rows {
        for (column, x) in out.iter_mut().zip(row) {
            column.push(x);
        }
    }
    out
}

/// The tokenizer that turns raw text into the tokens edit metrics compare (`None`: the
/// text's own whitespace tokens), and its resolved spec.
fn raw_tokenizer<'d>(
    data: &'d Dataset,
    config: &'d MetricConfig,
) -> Result<(Option<green_tokenizers::Built>, &'d str), Error> {
    let resolved = data.descriptor.tokenizer(&config.tokenizer);
    if resolved == "word" && config.normalization.is_identity() {
        return Ok((None, resolved));
    }
    let options = green_tokenizers::Options {
        normalization: config.normalization,
        ..Default::default()
    };
    let tok = green_tokenizers::build(resolved, &options)
        .map_err(|e| Error::Config(format!("dataset {}: {e}", data.descriptor.name)))?;
    Ok((Some(tok), resolved))
}

/// Edits of `source` → all `refs` (one annotator each) and → each hypothesis, as ERRANT
/// extracts them without a tagger (`-lev -merge all-merge`), on `tok`'s tokens (`None`: the
/// text's own whitespace tokens; a text with the source's tokens is a noop, see
/// [`green_edits::parallel::token_sentence`]). An empty source has no edits.
pub(crate) fn extracted_edits(
    tok: Option<&dyn green_engine::Tokenizer>,
    source: &str,
    refs: &[&str],
    hyps: &[&str],
) -> Result<(green_edits::Sentence, Vec<green_edits::Sentence>), String> {
    use green_edits::{align::Merge, parallel, Sentence};
    let retok = |t: &str| match tok {
        None => Ok(t.to_string()),
        Some(tok) => green_engine::retokenize(tok, t).map_err(|e| format!("tokenizer failed: {e}")),
    };
    let source = retok(source)?;
    let sentence = |targets: &[String]| -> Result<Sentence, String> {
        let t: Vec<&str> = targets.iter().map(String::as_str).collect();
        Ok(parallel::token_sentence(&source, &t, Merge::AllMerge)
            .map_err(|e| e.to_string())?
            .unwrap_or(Sentence {
                line: 0,
                source: String::new(),
                edits: Vec::new(),
            }))
    };
    let refs = refs
        .iter()
        .map(|r| retok(r))
        .collect::<Result<Vec<_>, _>>()?;
    let hyps = hyps
        .iter()
        .map(|h| sentence(&[retok(h)?]))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((sentence(&refs)?, hyps))
}

/// The annotations a typed ERRANT row reads: the dataset's, on its own whitespace tokens.
fn typed_annotations<'d>(
    data: &'d Dataset,
    config: &MetricConfig,
) -> Result<&'d crate::annotations::Annotations, Error> {
    let name = &data.descriptor.name;
    if data.descriptor.tokenizer(&config.tokenizer) != "word" || !config.normalization.is_identity()
    {
        return Err(Error::Config(format!(
            "{}: typed ERRANT reads the tagger's tokens, the text's own whitespace tokens: use tokenizer word without normalisation",
            config.label()
        )));
    }
    data.annotations.as_deref().ok_or_else(|| {
        Error::Config(format!(
            "dataset {name}: {} needs a tagger's annotations of every source, reference and output (--annotations DIR; see docs/meta.md)",
            config.label()
        ))
    })
}

/// Edits of `source` → all `refs` (one annotator each) and → each hypothesis, as ERRANT
/// 3.0.2's `errant_parallel` makes them by default (linguistic alignment, rules merger,
/// English classifier) from the annotations of each text. As in [`extracted_edits`], a
/// target with the source's tokens is a noop and an empty source has no edits.
pub(crate) fn typed_edits(
    annotations: &crate::annotations::Annotations,
    classifier: &green_edits::typed::Classifier,
    source: &str,
    refs: &[&str],
    hyps: &[&str],
) -> Result<(green_edits::Sentence, Vec<green_edits::Sentence>), String> {
    use crate::annotations::key;
    use green_edits::{typed, Edit, Sentence};
    let src = key(source);
    let doc = |text: &str| {
        annotations.get(text).ok_or_else(|| {
            format!(
                "no annotation of the tokens '{}' in {}; it must hold every source, reference and output the rows read",
                shorten(&key(text)),
                annotations.dir.display()
            )
        })
    };
    let orig = if src.is_empty() {
        None
    } else {
        Some(doc(&src)?)
    };
    let sentence = |targets: &[&str]| -> Result<Sentence, String> {
        let mut edits = Vec::new();
        let Some(orig) = &orig else {
            return Ok(Sentence {
                line: 0,
                source: String::new(),
                edits,
            });
        };
        for (id, t) in targets.iter().enumerate() {
            let edit = |start, end, kind: String, correction: String| Edit {
                line: 0,
                start,
                end,
                kind,
                correction,
                annotator: id as i64,
                alternative: 0,
            };
            let t = key(t);
            if t == src {
                edits.push(edit(-1, -1, "noop".into(), "-NONE-".into()));
                continue;
            }
            let cor = doc(&t)?;
            let found = typed::typed_edits(orig, &cor, false, typed::Merger::Rules, classifier)
                .map_err(|e| e.to_string())?;
            for e in found {
                let text: Vec<&str> = cor.tokens[e.tgt.0..e.tgt.1]
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect();
                edits.push(edit(e.src.0 as i64, e.src.1 as i64, e.kind, text.join(" ")));
            }
        }
        Ok(Sentence {
            line: 0,
            source: src.clone(),
            edits,
        })
    };
    let hyps = hyps
        .iter()
        .map(|h| sentence(&[*h]))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((sentence(refs)?, hyps))
}

/// A text cut to 60 characters for a message.
fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

/// ERRANT or CLEME of every system: edits extracted from the text (source → each reference,
/// source → each hypothesis), per-sentence statistics in parallel, then each metric's corpus
/// fold over each view, or its sentence scores.
fn edit_scores(data: &Dataset, config: &MetricConfig) -> Result<Scores, Error> {
    use green_edits::{cleme, cleme2, compare, gotoscorer, Sentence};
    let name = &data.descriptor.name;
    let (tok, resolved) = raw_tokenizer(data, config)?;
    let systems = data.descriptor.systems.len();
    let typed = match config.metric {
        Metric::ErrantTyped { .. } => Some(typed_annotations(data, config)?),
        _ => None,
    };
    let classifier = green_edits::typed::Classifier::english();
    // ERRANT rows of parts with `edit_references = "m2"` read the references' edits from the
    // M2 file, whose spans are the file's own tokens.
    let m2_refs = matches!(
        config.metric,
        Metric::Errant { .. } | Metric::ErrantTyped { .. }
    );
    if m2_refs && tok.is_some() && data.sentences.iter().any(|s| s.m2_edits.is_some()) {
        return Err(Error::Config(format!(
            "dataset {name}: {}: its references' edits come from the M2 file (edit_references = \"m2\"), whose spans are the file's own tokens: use tokenizer word without normalisation",
            config.label()
        )));
    }
    // `[sentence][system]` hypothesis sentences and per-sentence reference sentences.
    let sentences: Vec<(Sentence, Vec<Sentence>)> = data
        .sentences
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let from_m2 = s.m2_edits.as_ref().filter(|_| m2_refs);
            let refs: Vec<&str> = match from_m2 {
                Some(_) => Vec::new(),
                None => s.refs.iter().map(String::as_str).collect(),
            };
            let hyps: Vec<&str> = s.hyps.iter().map(String::as_str).collect();
            let edits = match typed {
                Some(a) => typed_edits(a, &classifier, &s.source, &refs, &hyps),
                None => extracted_edits(tok.as_ref().map(|t| t.as_dyn()), &s.source, &refs, &hyps),
            };
            edits
                .map(|(r, hyps)| (from_m2.cloned().unwrap_or(r), hyps))
                .map_err(|e| {
                    Error::Input(format!(
                        "dataset {name}: sentence {} ({resolved}): {e}",
                        i + 1
                    ))
                })
        })
        .collect_in_order()?;
    match config.metric {
        Metric::Errant { beta } | Metric::ErrantTyped { beta } => {
            let opts = compare::Options {
                beta,
                ..Default::default()
            };
            let stats: Vec<Vec<compare::SentenceStats>> = sentences
                .par_iter()
                .map(|(r, hyps)| {
                    hyps.iter()
                        .map(|h| compare::sentence_stats(&h.edits, &r.edits, &opts))
                        .collect()
                })
                .collect();
            Ok(fold_scores(
                data,
                config,
                None,
                Folds {
                    metric: compare::Errant { beta },
                    stats: by_system(stats, systems),
                },
            ))
        }
        Metric::Cleme { beta, independent } => {
            let opts = cleme::Options {
                beta,
                merge_distance: 0,
            };
            let what = format!("dataset {name}");
            // `[system][sentence]`.
            let stats: Vec<Vec<cleme::SentenceStats>> = (0..systems)
                .into_par_iter()
                .map(|h| {
                    sentences
                        .iter()
                        .map(|(r, hyps)| cleme::text_stats(&hyps[h], r, &opts, &what))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect_in_order()
                .map_err(|e| Error::Input(e.to_string()))?;
            let by_system: Vec<Vec<f64>> = stats
                .iter()
                .map(|s| cleme::sentence_f(s, &opts, independent))
                .collect::<Result<_, _>>()
                .map_err(|e| Error::Input(format!("{what}: {e}")))?;
            let sentence: Vec<Vec<f64>> = (0..sentences.len())
                .map(|i| by_system.iter().map(|row| row[i]).collect())
                .collect();
            Ok(fold_scores(
                data,
                config,
                Some(sentence),
                Folds {
                    metric: cleme::Cleme { beta, independent },
                    stats,
                },
            ))
        }
        Metric::Cleme2 {
            independent,
            length_weighted,
        } => {
            let opts = cleme::Options::default();
            let what = format!("dataset {name}");
            let stats: Vec<Vec<cleme2::SentenceStats>> = (0..systems)
                .into_par_iter()
                .map(|h| {
                    sentences
                        .iter()
                        .map(|(r, hyps)| cleme2_stats(&hyps[h], r, &opts, &what))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect_in_order()
                .map_err(|e| Error::Input(e.to_string()))?;
            let defaults = cleme2::Settings::default();
            Ok(fold_scores(
                data,
                config,
                None,
                Folds {
                    metric: cleme2::Cleme2 {
                        independent,
                        length_weighted,
                        corpus_factors: defaults.corpus_factors,
                        sentence_factors: defaults.sentence_factors,
                    },
                    stats,
                },
            ))
        }
        Metric::GoToScorer { beta, weighted } => {
            let err = |i: usize, e: String| {
                Error::Input(format!(
                    "dataset {name}: sentence {} ({resolved}): {e}",
                    i + 1
                ))
            };
            // `[sentence]`: the first reference's and every system's edits.
            let per_sentence: Vec<(Vec<gotoscorer::Edit>, Vec<Vec<gotoscorer::Edit>>)> =
                (sentences.iter().enumerate())
                    .map(|(i, (r, hyps))| {
                        let hyps: Result<Vec<_>, String> =
                            hyps.iter().map(|h| goto_edits(h, 0)).collect();
                        Ok((
                            goto_edits(r, 0).map_err(|e| err(i, e))?,
                            hyps.map_err(|e| err(i, e))?,
                        ))
                    })
                    .collect::<Result<_, Error>>()?;
            let weights: Option<Vec<Vec<f64>>> = if weighted {
                Some(
                    (per_sentence.par_iter().zip(&sentences).enumerate())
                        .map(|(i, ((r, hyps), (s, _)))| {
                            gotoscorer::weight_entry(r, hyps, &goto_tokens(s))
                                .map(|w| w.weights)
                                .map_err(|e| err(i, e))
                        })
                        .collect_in_order()?,
                )
            } else {
                None
            };
            let stats: Vec<Vec<gotoscorer::SentenceStats>> =
                (per_sentence.par_iter().zip(&sentences).enumerate())
                    .map(|(i, ((r, hyps), (s, _)))| {
                        let tokens = goto_tokens(s);
                        hyps.iter()
                            .map(|h| {
                                gotoscorer::sentence_stats(
                                    h,
                                    r,
                                    &tokens,
                                    weights.as_ref().map(|w| &w[i][..]),
                                )
                                .map_err(|e| err(i, e))
                            })
                            .collect()
                    })
                    .collect_in_order()?;
            Ok(fold_scores(
                data,
                config,
                None,
                Folds {
                    metric: gotoscorer::GoToScorer { beta },
                    stats: by_system(stats, systems),
                },
            ))
        }
        _ => Err(Error::Config("internal: not an edit metric".into())),
    }
}

/// CLEME2.0 statistics of one sentence whose edits were extracted from text (an empty source
/// has no chunks: no outcome, one slot per reference).
fn cleme2_stats(
    hyp: &green_edits::Sentence,
    reference: &green_edits::Sentence,
    opts: &green_edits::cleme::Options,
    what: &str,
) -> Result<green_edits::cleme2::SentenceStats, green_edits::Error> {
    if hyp.tokens().is_empty() {
        return Ok(green_edits::cleme2::SentenceStats::default());
    }
    let doc = green_edits::Document {
        path: what.to_string(),
        sentences: Vec::new(),
        has_targets: false,
    };
    green_edits::cleme2::sentence_stats(&doc, hyp, &doc, reference, opts)
}

/// GoToScorer's edits of annotator `a` of an extracted sentence.
fn goto_edits(
    s: &green_edits::Sentence,
    a: i64,
) -> Result<Vec<green_edits::gotoscorer::Edit>, String> {
    let doc = green_edits::Document {
        path: String::new(),
        sentences: Vec::new(),
        has_targets: false,
    };
    green_edits::gotoscorer::edits(&doc, s, a).map_err(|e| e.to_string())
}

/// The source tokens the extracted edits index (whitespace tokens).
fn goto_tokens(s: &green_edits::Sentence) -> Vec<&str> {
    s.tokens()
}

/// `[view][system]` of `score(view, system)`.
fn per_view(data: &Dataset, score: impl Fn(&View, usize) -> f64) -> Vec<Vec<f64>> {
    let systems = data.descriptor.systems.len();
    data.views
        .iter()
        .map(|v| (0..systems).map(|h| score(v, h)).collect())
        .collect()
}

/// The mean of system `h`'s sentence scores (`[sentence][system]`) over a view.
fn view_mean(view: &View, sentence: &[Vec<f64>], h: usize) -> f64 {
    mean(view.sentences.iter().map(|&s| sentence[s][h]))
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (mut s, mut k) = (0.0, 0usize);
    for x in xs {
        s += x;
        k += 1;
    }
    if k == 0 {
        0.0
    } else {
        s / k as f64
    }
}

/// gec-metrics' GLEU statistics of every system (`stats[system][sentence]`), refolded over
/// any multiset of sentences: a sentence counted k times is k sentences, each with its draw.
struct GecMetricsFolds {
    stats: Vec<Vec<GecStats>>,
    iterations: u64,
}

impl Resample for GecMetricsFolds {
    fn score(&self, sentences: &[usize], weights: &[u32], h: usize) -> f64 {
        let corpus: Vec<&GecStats> = (sentences.iter().zip(weights))
            .flat_map(|(&s, &w)| std::iter::repeat_n(&self.stats[h][s], w as usize))
            .collect();
        gec_metrics_gleu::corpus_score(&corpus, self.iterations)
    }
}

/// GLEU sufficient statistics of one hypothesis against one reference.
#[derive(Debug, Clone, PartialEq)]
pub struct GleuStats {
    pub hyp_len: u64,
    pub ref_len: u64,
    /// Per order: (clipped TI + TK − UD, TI + TK + OI + UD).
    pub orders: Vec<(u64, u64)>,
}

impl GleuStats {
    /// Zero statistics for orders 1..=`n`, to [`add`](Self::add) sentences to.
    pub fn new(n: usize) -> Self {
        GleuStats {
            hyp_len: 0,
            ref_len: 0,
            orders: vec![(0, 0); n],
        }
    }

    /// From the regions of orders 1..=N.
    pub fn of(regions: &[Regions]) -> GleuStats {
        let u = regions.first().copied().unwrap_or_default();
        GleuStats {
            hyp_len: u.tk + u.ti + u.oi + u.ud,
            ref_len: u.tk + u.ti + u.od + u.ui,
            orders: regions
                .iter()
                .map(|r| {
                    (
                        (r.ti + r.tk).saturating_sub(r.ud),
                        r.ti + r.tk + r.oi + r.ud,
                    )
                })
                .collect(),
        }
    }

    /// Add another sentence's statistics (corpus GLEU sums them).
    pub fn add(&mut self, o: &GleuStats) {
        self.hyp_len += o.hyp_len;
        self.ref_len += o.ref_len;
        for (a, b) in self.orders.iter_mut().zip(&o.orders) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    /// GLEU; `smooth` replaces zero statistics by 1 (sentence level). Unsmoothed, as the
    /// `gleu` package: an order without hypothesis n-grams has precision 1, a zero numerator
    /// gives 0, an empty hypothesis gives 1 against an empty reference and 0 otherwise.
    pub fn gleu(&self, smooth: bool) -> f64 {
        gleu_value(
            self.hyp_len,
            self.ref_len,
            self.orders.iter().copied(),
            smooth,
        )
    }
}

/// GLEU of a hypothesis length `c`, reference length `r` and per-order (numerator,
/// denominator) statistics, as [`GleuStats::gleu`] describes.
pub(crate) fn gleu_value(
    c: u64,
    r: u64,
    orders: impl ExactSizeIterator<Item = (u64, u64)>,
    smooth: bool,
) -> f64 {
    let fix = |x: u64| if smooth && x == 0 { 1 } else { x };
    let (c, r) = (fix(c), fix(r));
    let n = orders.len();
    let mut log_p = 0.0;
    for (num, den) in orders {
        let (num, den) = (fix(num), fix(den));
        if den == 0 {
            continue;
        }
        if num == 0 {
            return 0.0;
        }
        log_p += (num as f64 / den as f64).ln();
    }
    // The package's brevity penalty: 1 for two empty texts, 0 for an empty hypothesis.
    (gleu::log_brevity_penalty(r, c) + log_p / n as f64).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use green_engine::Whitespace;

    #[test]
    fn grid_is_n_then_beta_then_gleu() {
        let level = "mean".parse::<Level>().unwrap();
        let rows = MetricConfig::grid(
            "char",
            Normalization::default(),
            level,
            &[1, 2],
            &[0.5, 2.0],
            Some((7, 3)),
        );
        let metrics: Vec<Metric> = rows.iter().map(|c| c.metric).collect();
        let green = |n, beta| Metric::Green { n, beta };
        assert_eq!(
            metrics,
            [
                green(1, 0.5),
                green(1, 2.0),
                green(2, 0.5),
                green(2, 2.0),
                Metric::Gleu {
                    n: 4,
                    iterations: 7,
                    seed: 3,
                    smooth: true
                }
            ]
        );
        assert!(rows
            .iter()
            .all(|c| c.tokenizer == "char" && c.level == Level::Mean));
        assert!(
            MetricConfig::grid("w", Normalization::default(), level, &[], &[2.0], None).is_empty()
        );
        assert_eq!(
            "sentence".parse::<Level>().unwrap_err().to_string(),
            "unknown level 'sentence'; use corpus, mean, trueskill or expected-wins"
        );
    }

    #[test]
    fn typed_edits_read_the_annotations_of_every_text() {
        // "he go school" → "he goes to school" with spaCy's annotations of both: ERRANT 3.0.2
        // gives one R:OTHER edit "go" → "goes to" (checked with `errant.annotate`); an
        // identical reference is a noop and needs no parse.
        let row = |i, form: &str, lemma: &str, upos: &str, xpos: &str, head, dep: &str| {
            format!("{i}\t{form}\t{lemma}\t{upos}\t{xpos}\t_\t{head}\t{dep}\t_\t_\n")
        };
        let conllu = [
            row(1, "he", "he", "PRON", "PRP", 2, "nsubj"),
            row(2, "go", "go", "VERB", "VBP", 0, "ROOT"),
            row(3, "school", "school", "NOUN", "NN", 2, "dobj"),
            "\n".into(),
            row(1, "he", "he", "PRON", "PRP", 2, "nsubj"),
            row(2, "goes", "go", "VERB", "VBZ", 0, "ROOT"),
            row(3, "to", "to", "ADP", "IN", 2, "prep"),
            row(4, "school", "school", "NOUN", "NN", 3, "pobj"),
        ]
        .concat();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("t.txt"),
            "he go school\nhe goes to school\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("t.conllu"), conllu).unwrap();
        let a = crate::annotations::Annotations::read(dir.path()).unwrap();
        let classifier = green_edits::typed::Classifier::english();
        let (refs, hyps) = typed_edits(
            &a,
            &classifier,
            "he go  school",
            &["he goes to school", "he go school"],
            &["he goes to school"],
        )
        .unwrap();
        let shown = |s: &green_edits::Sentence| -> Vec<(i64, i64, String, String, i64)> {
            (s.edits.iter())
                .map(|e| {
                    (
                        e.start,
                        e.end,
                        e.kind.clone(),
                        e.correction.clone(),
                        e.annotator,
                    )
                })
                .collect()
        };
        let want = vec![(1, 2, "R:OTHER".to_string(), "goes to".to_string(), 0)];
        assert_eq!(shown(&hyps[0]), want);
        let mut with_noop = want.clone();
        with_noop.push((-1, -1, "noop".into(), "-NONE-".into(), 1));
        assert_eq!(shown(&refs), with_noop);
        assert_eq!(refs.source, "he go school");
        let e = typed_edits(&a, &classifier, "he go school", &["she goes"], &[]).unwrap_err();
        assert!(
            e.starts_with("no annotation of the tokens 'she goes'"),
            "{e}"
        );
    }

    #[test]
    fn gleu_by_hand() {
        // S = "a b c", R = "a x c", C = "a b c": unigrams a: s1 r1 c1 → TK; b: s1 r0 c1 → UD;
        // c → TK; x: r only → UI. p1 = (0 + 2 - 1) / (2 + 0 + 1) = 1/3.
        // bigrams: ab UD, bc UD, ax UI, xc UI: p2 = (0 - 2 → 0) / 2 = 0.
        let c = Counter::new()
            .count(&Whitespace, 2, "a b c", &["a x c"], &["a b c"])
            .unwrap();
        let s = GleuStats::of(c.get(0, 0));
        assert_eq!(
            (s.hyp_len, s.ref_len, s.orders.clone()),
            (3, 3, vec![(1, 3), (0, 2)])
        );
        assert_eq!(s.gleu(false), 0.0);
        // Smoothed: p2 = 1/2; BP = 1: sqrt(1/3 · 1/2).
        assert!((s.gleu(true) - (1.0f64 / 6.0).sqrt()).abs() < 1e-12);
        // Hypothesis shorter than the reference: BP = exp(1 - 4/2).
        let c = Counter::new()
            .count(&Whitespace, 1, "a b", &["a b c d"], &["a b"])
            .unwrap();
        let s = GleuStats::of(c.get(0, 0));
        assert_eq!((s.hyp_len, s.ref_len), (2, 4));
        assert!((s.gleu(false) - (-1.0f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn unsmoothed_gleu_follows_the_package_on_short_and_empty_sentences() {
        // "a b" against itself at N=4: orders 3 and 4 have no n-gram, precision 1 (the
        // package's `p()` of a zero denominator), so GLEU is 1, not 0.
        let c = Counter::new()
            .count(&Whitespace, 4, "a b", &["a b"], &["a b"])
            .unwrap();
        let s = GleuStats::of(c.get(0, 0));
        assert_eq!(s.orders, vec![(2, 2), (1, 1), (0, 0), (0, 0)]);
        assert_eq!(s.gleu(false), 1.0);
        // An empty hypothesis: 1 against an empty reference (a deleted sentence), else 0.
        let c = Counter::new()
            .count(&Whitespace, 4, "a b", &["", "a"], &[""])
            .unwrap();
        assert_eq!(GleuStats::of(c.get(0, 0)).gleu(false), 1.0);
        assert_eq!(GleuStats::of(c.get(0, 1)).gleu(false), 0.0);
    }
}
