//! MAEGE (Choshen and Abend, ACL 2018): validating a metric from gold edits alone.
//!
//! Human rankings exist for a handful of datasets; M2 files exist for many languages. MAEGE
//! needs only the M2 file: applying more of an annotator's valid edits must never make a
//! sentence worse, so a good metric orders the elements of each sentence's edit lattice
//! ([`lattice`]) by inclusion. What is measured, per metric configuration:
//!
//! - **corpus level**: for each expected number M = 0..=`max_m` of edits applied beyond the
//!   source, a corpus made of one draw per unit ([`lattice::corpus_draw`]: each remaining
//!   edit in with probability min(1, M/r), a binomial with mean M clipped at the r edits
//!   there are). The same source and references serve all M. This is repeated `reps` times
//!   with fresh draws; Spearman's rho is taken between the corpus scores and M over all
//!   `reps × (max_m + 1)` corpora.
//! - **sentence level**: per unit a random chain source ⊂ +e_σ1 ⊂ +e_σ2 ⊂ ... ⊂ all edits.
//!   Every pair of a chain is comparable. Kendall tau = (C − D) / (C + D + T) pooled over all
//!   pairs of all chains, where a pair the metric ties counts as T (in the denominator only:
//!   a metric that cannot tell two elements apart is not rewarded); the tie share is reported
//!   too. Pearson r is taken between the metric's sentence scores of every chain element and
//!   the linear gold score |edits applied| / k (source edits included; 1 at the top).
//! - **per error type**: the mean change of the sentence score when one edit of that type is
//!   added along a chain; negative = the metric penalises that valid correction.
//!
//! The **source** the metric sees is itself a random lattice element (each edit applied with
//! probability 1/2, [`lattice::random_source`]); the **precision-oriented variant** uses the
//! original sentence as the source. References are all of the sentence's references by
//! default ([`RefMode`]). Draws depend only on the seed (ChaCha8), never on the metric, so
//! every configuration is compared on the same corpora and chains.
//!
//! A metric is any GREEN configuration (tokenizer spec, N, beta, corpus or mean level), GLEU
//! ([`crate::metric::GleuStats`], this crate's GLEU) or M2: a [`MetricConfig`]. M2 needs gold
//! edits from the source the metric sees to each reference, and MAEGE's sources are new
//! sentences, so (as the paper does, with ERRANT) they are extracted automatically: ERRANT's
//! tagger-free alignment with adjacent non-matches merged (`green_edits::align`, `-lev
//! -merge all-merge`); the corpus score is the m2scorer's greedy annotator fold.

pub mod lattice;

use green_engine::CollectInOrder;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use green_engine::{score, Counter, Regions, SentenceCounts, Tokenizer};
use green_io::m2::M2;
use rand::Rng;
use rayon::prelude::*;

pub use lattice::{Protocol, RefMode, Unit};

use crate::metric::{extracted_edits, GleuStats, Level, Metric, MetricConfig};
use crate::stats::{pearson, spearman, PairCounts};
use crate::Error;
use lattice::Purpose;

/// Units per parallel batch (results are folded in unit order, so thread count never matters).
const BATCH: usize = 256;

/// Settings of a MAEGE run other than the metrics.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Options {
    pub seed: u64,
    /// Corpus-level repetitions (fresh sources and draws each).
    pub reps: usize,
    /// Largest expected number of edits M (MAEGE: 10).
    pub max_m: usize,
    pub refs: RefMode,
    /// Remove spaces from every text before scoring (character-tokenised M2 → raw text).
    pub strip_spaces: bool,
    /// Which annotators are a sentence's references (see `green_io::m2::MissingAnnotator`).
    #[serde(serialize_with = "missing_name")]
    pub missing_annotator: green_io::m2::MissingAnnotator,
    pub protocol: Protocol,
    /// With [`RefMode::HeldOut`]: extra references per M2 sentence, instead of the other
    /// annotators'.
    #[serde(skip)]
    pub held_out: Option<Vec<Vec<String>>>,
}

fn missing_name<S: serde::Serializer>(
    m: &green_io::m2::MissingAnnotator,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            reps: 5,
            max_m: 10,
            refs: RefMode::All,
            strip_spaces: false,
            missing_annotator: Default::default(),
            protocol: Protocol::Lattice,
            held_out: None,
        }
    }
}

/// The results of one variant (standard or precision-oriented) for one configuration.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct VariantResult {
    /// Spearman rho of corpus scores against M.
    pub corpus_rho: Option<f64>,
    /// Mean corpus score at each M (averaged over repetitions).
    pub corpus_scores: Vec<f64>,
    pub pairs: PairCounts,
    /// (C − D) / (C + D + T) over chain pairs.
    pub tau: Option<f64>,
    /// Share of chain pairs the metric ties.
    pub ties: Option<f64>,
    /// Pearson r of sentence scores against |applied| / k.
    pub pearson: Option<f64>,
}

/// Mean sentence-score change when one edit of a type is added.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TypeDelta {
    pub count: u64,
    pub mean: f64,
    /// Share of additions that lowered the score.
    pub worse: f64,
}

/// One configuration's row.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub label: String,
    pub config: MetricConfig,
    pub standard: VariantResult,
    pub precision: VariantResult,
    /// Per error type, from the standard variant's chains.
    pub types: BTreeMap<String, TypeDelta>,
}

impl Row {
    /// The numbers of the table columns after the label (Markdown and TSV alike).
    fn columns(&self) -> [Option<f64>; 7] {
        let (s, p) = (&self.standard, &self.precision);
        [
            s.corpus_rho,
            s.tau,
            s.pearson,
            s.ties,
            p.corpus_rho,
            p.tau,
            p.pearson,
        ]
    }
}

/// A MAEGE run over one M2 file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub file: String,
    pub options: Options,
    pub sentences: usize,
    pub units: usize,
    pub edits: usize,
    /// Edits per error type (after merging overlaps).
    pub type_counts: BTreeMap<String, u64>,
    pub rows: Vec<Row>,
}

/// Texts of one variant, drawn once and shared by every metric.
struct Drawn<'a> {
    /// Per unit: chain sources, chain texts, gold scores per chain element, added types.
    chains: Vec<Chain>,
    /// The corpus items: the repetitions' texts are drawn when they are counted
    /// ([`Drawn::item`]), one repetition at a time, so memory does not grow with `--reps`.
    corpora: Corpora<'a>,
}

/// What draws the corpora's items: one item per unit ([`Protocol::Lattice`]) or per
/// sentence ([`Protocol::Paper`], `sentences[i]` = its first unit and how many it has).
struct Corpora<'a> {
    units: &'a [Unit],
    opts: &'a Options,
    precision: bool,
    sentences: Option<Vec<(usize, usize)>>,
}

impl Corpora<'_> {
    fn items(&self) -> usize {
        self.sentences.as_ref().map_or(self.units.len(), Vec::len)
    }

    /// Item `i` of repetition `rep`: the unit whose references score it, the source text and
    /// the `max_m + 1` corpus texts. Each draw depends on (seed, repetition, item) only.
    fn item(&self, rep: usize, i: usize) -> (usize, String, Vec<String>) {
        let opts = self.opts;
        let strip = |mut s: String| {
            if opts.strip_spaces {
                s.retain(|c| c != ' ');
            }
            s
        };
        match &self.sentences {
            Some(sentences) => {
                let (first, count) = sentences[i];
                paper_item(self.units, opts, rep, first, count, self.precision, &strip)
            }
            None => {
                let unit = &self.units[i];
                let k = unit.edits.len();
                let src = lattice::random_source(
                    k,
                    self.precision,
                    &mut lattice::rng(opts.seed, rep, i, Purpose::Source),
                );
                let mut rng = lattice::rng(opts.seed, rep, i, Purpose::Corpus);
                let texts = (0..=opts.max_m)
                    .map(|m| strip(unit.apply(&lattice::corpus_draw(k, &src, m, &mut rng))))
                    .collect();
                (i, strip(unit.apply(&src)), texts)
            }
        }
    }
}

struct Chain {
    source: String,
    texts: Vec<String>,
    gold: Vec<f64>,
    /// Type of the edit added at step j (between texts[j] and texts[j + 1]).
    added: Vec<String>,
}

fn draw<'a>(units: &'a [Unit], opts: &'a Options, precision: bool) -> Drawn<'a> {
    let strip = |mut s: String| {
        if opts.strip_spaces {
            s.retain(|c| c != ' ');
        }
        s
    };
    let paper = opts.protocol == Protocol::Paper;
    let chains = units
        .iter()
        .enumerate()
        .map(|(u, unit)| {
            let k = unit.edits.len();
            let mut source_rng = lattice::rng(opts.seed, 0, u, Purpose::Source);
            // Lattice: chains climb from a random element. Paper: from the original, the
            // source drawn among the chain's elements.
            let start = if paper {
                Vec::new()
            } else {
                lattice::random_source(k, precision, &mut source_rng)
            };
            let order = lattice::random_chain(
                k,
                &start,
                &mut lattice::rng(opts.seed, 0, u, Purpose::Chain),
            );
            let elements: Vec<Vec<usize>> = (0..=order.len())
                .map(|j| lattice::chain_element(&start, &order, j))
                .collect();
            let source = match (paper, precision) {
                (true, false) => elements[source_rng.gen_range(0..=k as u32) as usize].clone(),
                _ => start.clone(),
            };
            let gold = (0..=order.len())
                .map(|j| {
                    if paper {
                        unit.bottom + (1.0 - unit.bottom) * j as f64 / k as f64
                    } else {
                        (start.len() + j) as f64 / k as f64
                    }
                })
                .collect();
            Chain {
                source: strip(unit.apply(&source)),
                texts: elements.iter().map(|e| strip(unit.apply(e))).collect(),
                gold,
                added: order.iter().map(|&i| unit.edits[i].kind.clone()).collect(),
            }
        })
        .collect();
    // The paper's corpora have one item per sentence: its units are consecutive.
    let sentences = paper.then(|| {
        let mut out = Vec::new();
        let mut first = 0;
        while first < units.len() {
            let sentence = units[first].sentence;
            let count = units[first..]
                .iter()
                .take_while(|u| u.sentence == sentence)
                .count();
            out.push((first, count));
            first += count;
        }
        out
    });
    Drawn {
        chains,
        corpora: Corpora {
            units,
            opts,
            precision,
            sentences,
        },
    }
}

/// One sentence of a repetition of the paper's corpora (its units `first..first + count`):
/// one annotation drawn uniformly (the same for every M of this repetition, so that one set
/// of held-out references scores them all), Binomial(n, p) edits of it applied for each M,
/// and a source that is a uniform lattice element of an annotation drawn independently (the
/// original in the precision variant).
fn paper_item(
    units: &[Unit],
    opts: &Options,
    rep: usize,
    first: usize,
    count: usize,
    precision: bool,
    strip: &dyn Fn(String) -> String,
) -> (usize, String, Vec<String>) {
    let mut rng = lattice::rng(opts.seed, rep, first, Purpose::Corpus);
    let unit = first + rng.gen_range(0..count as u32) as usize;
    let other = &units[first + rng.gen_range(0..count as u32) as usize];
    let mut source_rng = lattice::rng(opts.seed, rep, first, Purpose::Source);
    let source = lattice::random_source(other.edits.len(), precision, &mut source_rng);
    let k = units[unit].edits.len();
    let texts = (0..=opts.max_m)
        .map(|m| {
            let (n, p) = lattice::paper_binomial(m);
            let take = lattice::binomial(n, p, &mut rng).min(k);
            let mut chosen = lattice::random_chain(k, &[], &mut rng);
            chosen.truncate(take);
            chosen.sort_unstable();
            strip(units[unit].apply(&chosen))
        })
        .collect();
    (unit, strip(other.apply(&source)), texts)
}

/// Run MAEGE on a parsed M2 file for every configuration.
pub fn run(m2: &M2, configs: &[MetricConfig], opts: &Options) -> Result<Report, Error> {
    if configs.is_empty() {
        return Err(Error::Config(
            "MAEGE needs at least one metric configuration".into(),
        ));
    }
    if opts.reps == 0 {
        return Err(Error::Config(
            "MAEGE needs at least one corpus repetition".into(),
        ));
    }
    if let Some(c) = configs.iter().find(|c| matches!(c.level, Level::Rating(_))) {
        return Err(Error::Config(format!(
            "MAEGE orders corpora by their scores; level {} rates systems against each other on shared sentences, which MAEGE's corpora are not: use corpus or mean",
            c.level.name()
        )));
    }
    if let Some(c) = configs.iter().find(|c| {
        matches!(
            c.metric,
            Metric::Cleme2 { .. }
                | Metric::GoToScorer { .. }
                | Metric::ErrantTyped { .. }
                | Metric::GleuGecMetrics { .. }
        )
    }) {
        return Err(Error::Config(format!(
            "MAEGE does not score {} yet: use it in `green meta`",
            c.label()
        )));
    }
    if let Some(extra) = &opts.held_out {
        if extra.len() != m2.sentences.len() {
            return Err(Error::Input(format!(
                "the held-out references cover {} sentences but {} has {}",
                extra.len(),
                m2.name,
                m2.sentences.len()
            )));
        }
    }
    if opts.protocol == Protocol::Paper && opts.refs != RefMode::HeldOut {
        return Err(Error::Config(
            "the paper's protocol scores against held-out references: use --refs held-out".into(),
        ));
    }
    let units = lattice::units(
        m2,
        opts.refs,
        opts.strip_spaces,
        opts.missing_annotator,
        opts.protocol,
        opts.held_out.as_deref(),
    );
    if units.is_empty() {
        return Err(Error::Input(if opts.refs == RefMode::HeldOut {
            format!(
                "{}: no annotation has both edits and a held-out reference (another annotator or --held-out); MAEGE needs them",
                m2.name
            )
        } else {
            format!(
                "{}: no sentence has an edit; MAEGE needs gold edits",
                m2.name
            )
        }));
    }
    let mut type_counts = BTreeMap::new();
    for u in &units {
        for e in &u.edits {
            *type_counts.entry(e.kind.clone()).or_insert(0u64) += 1;
        }
    }
    let variants = [draw(&units, opts, false), draw(&units, opts, true)];
    let refs: Vec<Vec<&str>> = units
        .iter()
        .map(|u| u.refs.iter().map(String::as_str).collect())
        .collect();

    let mut rows: Vec<Option<Row>> = vec![None; configs.len()];
    // One counting pass per tokenizer (and normalisation) at the highest N it needs.
    let mut groups: Vec<(String, green_engine::Normalization, Vec<usize>)> = Vec::new();
    for (i, c) in configs.iter().enumerate() {
        match groups
            .iter_mut()
            .find(|g| g.0 == c.tokenizer && g.1 == c.normalization)
        {
            Some(g) => g.2.push(i),
            None => groups.push((c.tokenizer.clone(), c.normalization, vec![i])),
        }
    }
    for (spec, norm, members) in groups {
        let options = green_tokenizers::Options {
            normalization: norm,
            ..Default::default()
        };
        let tok =
            green_tokenizers::build(&spec, &options).map_err(|e| Error::Config(e.to_string()))?;
        let tok = tok.as_dyn();
        let cfgs: Vec<&MetricConfig> = members.iter().map(|&i| &configs[i]).collect();
        let n = cfgs.iter().map(|c| c.n()).max().unwrap_or(1);
        let [standard, precision] =
            [&variants[0], &variants[1]].map(|v| evaluate(tok, n, &cfgs, v, &refs, opts));
        let (standard, precision) = (standard?, precision?);
        for (j, &i) in members.iter().enumerate() {
            rows[i] = Some(Row {
                label: configs[i].label(),
                config: configs[i].clone(),
                standard: standard.0[j].clone(),
                precision: precision.0[j].clone(),
                types: standard.1[j].clone(),
            });
        }
    }
    Ok(Report {
        file: m2.name.clone(),
        options: opts.clone(),
        sentences: m2.sentences.len(),
        units: units.len(),
        edits: units.iter().map(|u| u.edits.len()).sum(),
        type_counts,
        rows: rows.into_iter().flatten().collect(),
    })
}

/// Per configuration: the running totals of one variant.
struct Fold {
    pairs: PairCounts,
    sent_scores: Vec<f64>,
    sent_gold: Vec<f64>,
    types: BTreeMap<String, (f64, u64, u64)>,
    /// The corpus repetition being folded.
    rep: RepTotals,
    /// Every repetition's corpus score per M, in order: (scores, their M).
    corpus_xy: (Vec<f64>, Vec<f64>),
    /// Per M, the mean corpus score over the repetitions.
    per_m: Vec<f64>,
}

/// One corpus repetition's totals per M, folded over its items in order.
#[derive(Clone)]
struct RepTotals {
    /// GREEN region totals (corpus level) or sentence-score sums (mean level).
    regions: Vec<Vec<Regions>>,
    sums: Vec<f64>,
    /// GLEU corpus: `[iteration][m]` statistics.
    gleu: Vec<Vec<GleuStats>>,
    /// M2 corpus: greedy folds.
    m2: Vec<green_m2::Fold>,
    /// ERRANT and CLEME corpus: sentence statistics in item order.
    errant: Vec<Vec<green_edits::compare::SentenceStats>>,
    cleme: Vec<Vec<green_edits::cleme::SentenceStats>>,
}

impl RepTotals {
    fn new(cfg: &MetricConfig, ms: usize) -> RepTotals {
        let iters = match cfg.metric {
            Metric::Gleu { iterations, .. } if cfg.level == Level::Corpus => iterations.max(1),
            _ => 0,
        };
        let gn = cfg.n();
        RepTotals {
            regions: vec![vec![Regions::default(); gn]; ms],
            sums: vec![0.0; ms],
            gleu: vec![vec![GleuStats::new(gn); ms]; iters],
            m2: match cfg.metric {
                Metric::M2 { beta } if cfg.level == Level::Corpus => {
                    vec![green_m2::Fold::new(beta); ms]
                }
                _ => Vec::new(),
            },
            errant: vec![Vec::new(); ms],
            cleme: vec![Vec::new(); ms],
        }
    }
}

/// What one text set (a chain, or one repetition of a corpus item) gives the metrics: the
/// GREEN/GLEU counts and, when an M2 configuration is asked for, M2 statistics per text.
struct Counted {
    counts: SentenceCounts,
    m2: Vec<green_m2::SentenceStats>,
    errant: Vec<green_edits::compare::SentenceStats>,
    cleme: Vec<green_edits::cleme::SentenceStats>,
    /// CLEME's sentence weights' centre (the same for every text set of a run).
    cleme_mean: f64,
}

/// M2 statistics of each hypothesis against gold edits extracted from `source` to each
/// reference (annotator = reference index; a reference equal to the source has no edit).
fn m2_stats(
    tok: &dyn Tokenizer,
    source: &str,
    refs: &[&str],
    hyps: &[&str],
) -> Result<Vec<green_m2::SentenceStats>, String> {
    use green_edits::align::{align, edits, Levenshtein, Merge};
    let retok = |t: &str| green_engine::retokenize(tok, t).map_err(|e| e.to_string());
    let source = retok(source)?;
    let s: Vec<&str> = source.split(' ').filter(|t| !t.is_empty()).collect();
    let mut annotators = Vec::with_capacity(refs.len());
    for (id, r) in refs.iter().enumerate() {
        let r = retok(r)?;
        let t: Vec<&str> = r.split(' ').filter(|t| !t.is_empty()).collect();
        let gold = edits(
            &align(&s, &t, &Levenshtein).map_err(|e| e.to_string())?,
            Merge::AllMerge,
        )
        .into_iter()
        .map(|((a, b), (c, d))| green_m2::GoldEdit {
            start: a,
            end: b,
            original: s[a..b].join(" "),
            corrections: vec![t[c..d].join(" ")],
        })
        .collect();
        annotators.push(green_m2::Annotator {
            id: id as i64,
            edits: gold,
        });
    }
    let gold = green_m2::GoldSentence {
        line: 0,
        source: source.clone(),
        annotators,
    };
    let opts = green_m2::Options::default();
    hyps.iter()
        .map(|h| green_m2::sentence_stats(&gold, &retok(h)?, &opts).map_err(|e| e.to_string()))
        .collect()
}

/// The M2 score of one sentence alone (its best annotator).
fn m2_alone(s: &green_m2::SentenceStats, beta: f64) -> f64 {
    let mut f = green_m2::Fold::new(beta);
    f.push(s);
    f.totals().score(beta).f
}

/// Score one variant with every configuration of one tokenizer.
#[allow(clippy::type_complexity)]
fn evaluate(
    tok: &dyn Tokenizer,
    n: usize,
    cfgs: &[&MetricConfig],
    drawn: &Drawn,
    refs: &[Vec<&str>],
    opts: &Options,
) -> Result<(Vec<VariantResult>, Vec<BTreeMap<String, TypeDelta>>), Error> {
    let ms = opts.max_m + 1;
    let needs = |f: fn(&Metric) -> bool| cfgs.iter().any(|c| f(&c.metric));
    let m2 = needs(|m| matches!(m, Metric::M2 { .. }));
    let errant = needs(|m| matches!(m, Metric::Errant { .. }));
    let cleme = needs(|m| matches!(m, Metric::Cleme { .. }));
    let cleme_opts = green_edits::cleme::Options::default();
    // CLEME's sentence weights are centred on a corpus-wide mean chunk length; MAEGE's chains
    // have no corpus, so the centre is the gold's: the references' changed chunks against
    // each chain's source, over all units.
    let cleme_mean = if cleme {
        let sums = (0..drawn.chains.len())
            .into_par_iter()
            .map(|u| {
                let (r, _) = extracted_edits(Some(tok), &drawn.chains[u].source, &refs[u], &[])?;
                let none = green_edits::Sentence {
                    edits: Vec::new(),
                    ..r.clone()
                };
                green_edits::cleme::text_stats(&none, &r, &cleme_opts, "MAEGE")
                    .map(|s| s.ref_length)
                    .map_err(|e| format!("unit {}: {e}", u + 1))
            })
            .collect_in_order::<Vec<_>>()
            .map_err(Error::Input)?;
        let (sum, count) = sums
            .iter()
            .fold((0u64, 0u64), |(s, c), x| (s + x.0, c + x.1));
        if count == 0 {
            return Err(Error::Input(
                "no reference changes its source, so CLEME's length weights are undefined".into(),
            ));
        }
        sum as f64 / count as f64
    } else {
        f64::NAN
    };
    let count = |counter: &mut Counter, source: &str, refs: &[&str], hyps: &[&str]| {
        let counts = counter
            .count(tok, n, source, refs, hyps)
            .map_err(|e| format!("tokenizer failed: {e}"))?;
        let m2 = if m2 {
            m2_stats(tok, source, refs, hyps)?
        } else {
            Vec::new()
        };
        let (mut errant_stats, mut cleme_stats) = (Vec::new(), Vec::new());
        if errant || cleme {
            let (r, hs) = extracted_edits(Some(tok), source, refs, hyps)?;
            for h in &hs {
                if errant {
                    errant_stats.push(green_edits::compare::sentence_stats(
                        &h.edits,
                        &r.edits,
                        &Default::default(),
                    ));
                }
                if cleme {
                    cleme_stats.push(
                        green_edits::cleme::text_stats(h, &r, &cleme_opts, "MAEGE")
                            .map_err(|e| e.to_string())?,
                    );
                }
            }
        }
        Ok::<_, String>(Counted {
            counts,
            m2,
            errant: errant_stats,
            cleme: cleme_stats,
            cleme_mean,
        })
    };
    let mut folds: Vec<Fold> = cfgs
        .iter()
        .map(|c| Fold {
            pairs: PairCounts::default(),
            sent_scores: Vec::new(),
            sent_gold: Vec::new(),
            types: BTreeMap::new(),
            rep: RepTotals::new(c, ms),
            corpus_xy: (Vec::new(), Vec::new()),
            per_m: vec![0.0; ms],
        })
        .collect();
    let units = drawn.chains.len();
    let fail = |u: usize| move |e| Error::Input(format!("unit {}: {e}", u + 1));
    for start in (0..units).step_by(BATCH) {
        let end = (start + BATCH).min(units);
        let counted: Vec<Counted> = (start..end)
            .into_par_iter()
            .map(|u| {
                Counter::with_local(|counter| {
                    let chain = &drawn.chains[u];
                    let hyps: Vec<&str> = chain.texts.iter().map(String::as_str).collect();
                    count(counter, &chain.source, &refs[u], &hyps).map_err(fail(u))
                })
            })
            .collect_in_order()?;
        for (off, chain_counts) in counted.iter().enumerate() {
            let chain = &drawn.chains[start + off];
            for (cfg, fold) in cfgs.iter().zip(folds.iter_mut()) {
                let scores: Vec<f64> = (0..chain.texts.len())
                    .map(|h| sentence_score(cfg, chain_counts, h))
                    .collect();
                chain_pairs(&scores, &mut fold.pairs);
                for (step, kind) in chain.added.iter().enumerate() {
                    let d = scores[step + 1] - scores[step];
                    let t = fold.types.entry(kind.clone()).or_insert((0.0, 0, 0));
                    t.0 += d;
                    t.1 += 1;
                    t.2 += u64::from(d < 0.0);
                }
                fold.sent_scores.extend(&scores);
                fold.sent_gold.extend(&chain.gold);
            }
        }
    }
    // Corpus items, one repetition at a time: its items are drawn as they are counted and
    // folded in order, then the repetition is scored and its totals dropped, so memory does
    // not grow with the number of repetitions.
    let items = drawn.corpora.items();
    for rep in 0..opts.reps {
        for start in (0..items).step_by(BATCH) {
            let end = (start + BATCH).min(items);
            let counted: Vec<Counted> = (start..end)
                .into_par_iter()
                .map(|i| {
                    let (u, src, texts) = drawn.corpora.item(rep, i);
                    let hyps: Vec<&str> = texts.iter().map(String::as_str).collect();
                    Counter::with_local(|counter| {
                        count(counter, &src, &refs[u], &hyps).map_err(fail(u))
                    })
                })
                .collect_in_order()?;
            for (off, item_counts) in counted.iter().enumerate() {
                for (cfg, fold) in cfgs.iter().zip(folds.iter_mut()) {
                    fold_corpus(cfg, &mut fold.rep, item_counts, rep, start + off);
                }
            }
        }
        for (cfg, fold) in cfgs.iter().zip(folds.iter_mut()) {
            let totals = std::mem::replace(&mut fold.rep, RepTotals::new(cfg, ms));
            for (m, slot) in fold.per_m.iter_mut().enumerate() {
                let s = corpus_score(cfg, &totals, m, items);
                *slot += s / opts.reps as f64;
                fold.corpus_xy.0.push(s);
                fold.corpus_xy.1.push(m as f64);
            }
        }
    }
    let results = folds
        .into_iter()
        .map(|f| {
            let (x, y) = &f.corpus_xy;
            let total = f.pairs.pairs();
            let ties = f.pairs.ties_y + f.pairs.ties_xy;
            let types = f
                .types
                .iter()
                .map(|(k, &(sum, count, worse))| {
                    (
                        k.clone(),
                        TypeDelta {
                            count,
                            mean: sum / count as f64,
                            worse: worse as f64 / count as f64,
                        },
                    )
                })
                .collect();
            let tau = match opts.protocol {
                Protocol::Lattice => f.pairs.tau_a(),
                // 1 − 2·discordant/pairs: a metric tie is not discordant.
                Protocol::Paper => {
                    (total > 0).then(|| 1.0 - 2.0 * f.pairs.discordant as f64 / total as f64)
                }
            };
            let v = VariantResult {
                corpus_rho: spearman(x, y),
                corpus_scores: f.per_m,
                pairs: f.pairs,
                tau,
                ties: (total > 0).then(|| ties as f64 / total as f64),
                pearson: pearson(&f.sent_scores, &f.sent_gold),
            };
            (v, types)
        })
        .unzip();
    Ok(results)
}

/// Count every pair of a chain's scores (element i is below element j for i < j): the
/// metric agrees (concordant), disagrees (discordant) or ties (`ties_y`).
pub fn chain_pairs(scores: &[f64], pairs: &mut PairCounts) {
    for i in 0..scores.len() {
        for j in i + 1..scores.len() {
            pairs.add(
                Some(std::cmp::Ordering::Less),
                scores[i].partial_cmp(&scores[j]),
            );
        }
    }
}

/// The sentence score of hypothesis `h` (GREEN: best reference; GLEU: mean over references;
/// M2: the best annotator's).
fn sentence_score(cfg: &MetricConfig, counted: &Counted, h: usize) -> f64 {
    let c = &counted.counts;
    match cfg.metric {
        Metric::Green { n, beta } => score::select_reference(c, h, n, beta).1,
        Metric::M2 { beta } => m2_alone(&counted.m2[h], beta),
        Metric::Errant { beta } => {
            green_edits::compare::fold(std::slice::from_ref(&counted.errant[h]), beta)
                .score
                .f
        }
        Metric::Cleme { beta, independent } => green_edits::cleme::sentence_f_at(
            &counted.cleme[h],
            beta,
            independent,
            counted.cleme_mean,
        ),
        // Refused by `run`.
        Metric::Cleme2 { .. }
        | Metric::GoToScorer { .. }
        | Metric::ErrantTyped { .. }
        | Metric::GleuGecMetrics { .. } => f64::NAN,
        Metric::Gleu { n, smooth, .. } => {
            (0..c.refs)
                .map(|r| GleuStats::of(&c.get(h, r)[..n]).gleu(smooth))
                .sum::<f64>()
                / c.refs.max(1) as f64
        }
    }
}

/// Add one corpus item's counts (hypotheses = M) of repetition `rep` to its totals.
fn fold_corpus(
    cfg: &MetricConfig,
    fold: &mut RepTotals,
    counted: &Counted,
    rep: usize,
    item: usize,
) {
    {
        let c = &counted.counts;
        match (cfg.metric, cfg.level) {
            (Metric::Green { n, beta }, Level::Corpus) => {
                for m in 0..c.hyps {
                    let (r, _) = score::select_reference(c, m, n, beta);
                    for (t, reg) in fold.regions[m].iter_mut().zip(&c.get(m, r)[..n]) {
                        t.add(reg);
                    }
                }
            }
            (Metric::M2 { .. }, Level::Corpus) => {
                for (f, s) in fold.m2.iter_mut().zip(&counted.m2) {
                    f.push(s);
                }
            }
            (Metric::Errant { .. }, Level::Corpus) => {
                for (f, s) in fold.errant.iter_mut().zip(&counted.errant) {
                    f.push(s.clone());
                }
            }
            (Metric::Cleme { .. }, Level::Corpus) => {
                for (f, s) in fold.cleme.iter_mut().zip(&counted.cleme) {
                    f.push(s.clone());
                }
            }
            (Metric::Gleu { n, seed, .. }, Level::Corpus) => {
                // One reference per sentence drawn per iteration, as gleu.py does, the same
                // for every M; the draw depends on (seed, repetition, item, iteration) only.
                let mut rng = lattice::rng(seed, rep, item, Purpose::Reference);
                let choice: Vec<usize> = (0..fold.gleu.len())
                    .map(|_| {
                        if c.refs > 1 {
                            rng.gen_range(0..c.refs as u32) as usize
                        } else {
                            0
                        }
                    })
                    .collect();
                for m in 0..c.hyps {
                    let stats: Vec<GleuStats> = (0..c.refs)
                        .map(|r| GleuStats::of(&c.get(m, r)[..n]))
                        .collect();
                    for (it, &r) in fold.gleu.iter_mut().zip(&choice) {
                        it[m].add(&stats[r]);
                    }
                }
            }
            // Mean level (`run` refuses the rating levels).
            _ => {
                for m in 0..c.hyps {
                    fold.sums[m] += sentence_score(cfg, counted, m);
                }
            }
        }
    }
}

fn corpus_score(cfg: &MetricConfig, f: &RepTotals, m: usize, items: usize) -> f64 {
    match (cfg.metric, cfg.level) {
        (Metric::Green { beta, .. }, Level::Corpus) => score::green(&f.regions[m], beta),
        (Metric::M2 { beta }, Level::Corpus) => f.m2[m].totals().score(beta).f,
        (Metric::Errant { beta }, Level::Corpus) => {
            green_edits::compare::fold(&f.errant[m], beta).score.f
        }
        (Metric::Cleme { beta, independent }, Level::Corpus) => {
            let opts = green_edits::cleme::Options {
                beta,
                merge_distance: 0,
            };
            green_edits::cleme::fold(&f.cleme[m], &opts).map_or(f64::NAN, |r| {
                if independent {
                    r.independent.corpus.f
                } else {
                    r.dependent.corpus.f
                }
            })
        }
        (Metric::Gleu { .. }, Level::Corpus) => {
            f.gleu.iter().map(|it| it[m].gleu(false)).sum::<f64>() / f.gleu.len() as f64
        }
        // Mean level (`run` refuses the rating levels).
        _ => f.sums[m] / items as f64,
    }
}

impl Report {
    /// The MAEGE table (rows = configurations) and the per-type table, as Markdown.
    pub fn markdown(&self, min_type_count: u64) -> String {
        let f = |v: Option<f64>| v.map_or("–".to_string(), |x| format!("{x:.3}"));
        let mut s = String::new();
        let _ = writeln!(
            s,
            "MAEGE on {}: {} sentences, {} annotations with edits, {} edits; protocol {}; seed {}, {} corpus repetitions, M = 0..{}, references: {}.\n",
            self.file,
            self.sentences,
            self.units,
            self.edits,
            match self.options.protocol {
                Protocol::Lattice => "lattice (this tool's; τ counts ties in the denominator)",
                Protocol::Paper => "paper (Choshen and Abend 2018; τ = 1 − 2D/N)",
            },
            self.options.seed,
            self.options.reps,
            self.options.max_m,
            match (self.options.refs, &self.options.held_out) {
                (RefMode::All, _) => "all",
                (RefMode::Own, _) => "own annotation",
                (RefMode::HeldOut, None) => "held out (the other annotators)",
                (RefMode::HeldOut, Some(_)) => "held out (extra reference files)",
            }
        );
        s.push_str("| metric | corpus ρ | sentence τ | sentence r | ties | P: corpus ρ | P: sentence τ | P: sentence r |\n");
        s.push_str("|---|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            let cells: Vec<String> = r.columns().into_iter().map(f).collect();
            let _ = writeln!(s, "| {} | {} |", r.label, cells.join(" | "));
        }
        let types: Vec<&String> = self
            .type_counts
            .iter()
            .filter(|(_, &c)| c >= min_type_count)
            .map(|(k, _)| k)
            .collect();
        if types.is_empty() {
            return s;
        }
        let _ = writeln!(
            s,
            "\nMean sentence-score change when one edit of a type is added (×100; negative = penalised), types with at least {min_type_count} edits:\n"
        );
        s.push_str("| type | edits |");
        for r in &self.rows {
            let _ = write!(s, " {} |", r.label);
        }
        s.push_str("\n|---|---|");
        s.push_str(&"---|".repeat(self.rows.len()));
        s.push('\n');
        for t in types {
            let _ = write!(s, "| {t} | {} |", self.type_counts[t]);
            for r in &self.rows {
                let _ = match r.types.get(t) {
                    Some(d) => write!(s, " {:+.2} |", d.mean * 100.0),
                    None => write!(s, " – |"),
                };
            }
            s.push('\n');
        }
        s
    }

    /// Everything, as pretty JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// One line per configuration, tab-separated, with a header.
    pub fn tsv(&self) -> String {
        let f = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.6}"));
        let mut s = String::from(
            "metric\tcorpus_rho\ttau\tpearson\tties\tp_corpus_rho\tp_tau\tp_pearson\n",
        );
        for r in &self.rows {
            let cells: Vec<String> = r.columns().into_iter().map(f).collect();
            let _ = writeln!(s, "{}\t{}", r.label, cells.join("\t"));
        }
        s
    }
}
