//! CLEME2.0 (Ye et al., ACL 2025): CLEME's chunks, scored as four interpretable rates.
//!
//! Every hypothesis chunk is classified against the references as CLEME does, with the false
//! positives split in two: a wrong correction where a reference changes the chunk too
//! (*necessary*, FP_NE) and an over-correction where none does (*unnecessary*, FP_UN). From
//! the (weighted) counts, with NE = TP + FP_NE + FN:
//! hit = TP/NE, err = FP_NE/NE, und = FN/NE, ove = FP_UN/(TP + FP) and the combination
//! com = f_hit·hit + f_err·(1 − err) + f_und·(1 − und) + f_ove·(1 − ove).
//! Corpus level sums the counts (each sentence's reference chosen greedily by the running
//! com); sentence level averages each sentence's best rates. Exact to THUKElab/CLEME's
//! `HEUOEditScorer` and `DependentCLEME`/`IndependentCLEME` at its CLEME2.0 release, with
//! three weighings of the chunks: none, the repository's length weigher (which ignores the
//! parameters it is given: always α 2, weights in [0.75, 1.25], TN 1), and similarity
//! weights computed elsewhere: the repository scores with BERTScore the pseudo-hypotheses
//! [`similarity_pairs`] lists, and a chunk weighs |F(source) − F(pseudo-hypothesis)|.

use serde::{Deserialize, Serialize};

use crate::cleme::{chunk, targets, Chunk, Options, Target, Weights};
use crate::m2::{Document, Sentence};
use crate::Error;

/// What a hypothesis chunk is against a reference (or all of them, independent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Tp,
    FpNe,
    FpUn,
    Fn,
    Tn,
}

/// One sentence: every hypothesis chunk's (length, class), in chunk order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SentenceStats {
    /// Against each reference (empty references dropped, as the original drops them).
    pub dependent: Vec<Vec<(u32, Class)>>,
    /// Against all references at once; the original repeats it once per reference.
    pub independent: Vec<(u32, Class)>,
    /// Sum and number of the lengths of the references' changed chunks.
    pub ref_length: (u64, u64),
}

/// The weights of the four rates in the combination.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Factors {
    pub hit: f64,
    pub err: f64,
    pub und: f64,
    pub ove: f64,
}

impl Factors {
    /// `main.py`'s corpus-level scorer (CLEME2.0).
    pub const CORPUS: Factors = Factors {
        hit: 0.45,
        err: 0.35,
        und: 0.15,
        ove: 0.05,
    };
    /// `main.py`'s sentence-level scorer (SentCLEME2.0).
    pub const SENTENCE: Factors = Factors {
        hit: 0.35,
        err: 0.25,
        und: 0.20,
        ove: 0.20,
    };

    /// Four factors that sum to 1 (within 1e-5, as the original checks).
    pub fn new(hit: f64, err: f64, und: f64, ove: f64) -> Result<Factors, Error> {
        let f = Factors { hit, err, und, ove };
        if !(hit + err + und + ove - 1.0).abs().le(&1e-5) {
            return Err(Error::Config(format!(
                "CLEME2.0 factors {hit}, {err}, {und}, {ove} sum to {}; they must sum to 1",
                hit + err + und + ove
            )));
        }
        Ok(f)
    }

    /// (hit, err, und, ove, com) of counts, as `compute_comprehensive_indicator`.
    fn rates(&self, c: &Counts) -> [f64; 5] {
        let ne = c.tp + c.fp_ne + c.fn_;
        let fp = c.fp_ne + c.fp_un;
        let ratio = |x: f64, d: f64| if d != 0.0 { x / d } else { 0.0 };
        let (hit, err, und) = (ratio(c.tp, ne), ratio(c.fp_ne, ne), ratio(c.fn_, ne));
        let ove = ratio(c.fp_un, c.tp + fp);
        let com = self.hit * hit
            + self.err * (1.0 - err)
            + self.und * (1.0 - und)
            + self.ove * (1.0 - ove);
        [hit, err, und, ove, com]
    }
}

/// How chunks weigh in the weighted rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Weigher<'a> {
    /// Every chunk 1 (the weighted rows equal the unweighted ones).
    None,
    /// The repository's `LengthWeigher` as it runs: CLEME's corpus weights around the mean
    /// length of the references' changed chunks.
    Length,
    /// Similarity weights: per sentence, per reference, one weight per chunk in the
    /// original's order (TP, FP, FP_NE, FP_UN, FN; from [`similarity_weights`]).
    Similarity(&'a [Vec<Vec<f64>>]),
}

/// (Weighted) counts of one outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub tp: f64,
    pub fp: f64,
    #[serde(rename = "fn")]
    pub fn_: f64,
    pub tn: f64,
    pub fp_ne: f64,
    pub fp_un: f64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
        self.fp_ne += o.fp_ne;
        self.fp_un += o.fp_un;
    }
}

/// One row: counts and rates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    #[serde(flatten)]
    pub counts: Counts,
    pub hit: f64,
    pub err: f64,
    pub und: f64,
    pub ove: f64,
    pub com: f64,
}

/// The four rows of one assumption.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub corpus: Row,
    pub corpus_weighted: Row,
    pub sentence: Row,
    pub sentence_weighted: Row,
}

/// CLEME2.0 of one hypothesis file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub sentences: usize,
    /// Mean length of the references' changed chunks (the length weigher's centre).
    pub mean_length: f64,
    pub dependent: Variant,
    pub independent: Variant,
}

/// The targets of one sentence: the hypothesis (first) and the non-empty references.
fn sentence_targets<'a>(
    hyp_doc: &Document,
    hyp: &'a Sentence,
    ref_doc: &Document,
    reference: &'a Sentence,
) -> Result<Vec<Target<'a>>, Error> {
    if hyp.tokens().is_empty() {
        return Err(Error::Format {
            path: hyp_doc.path.clone(),
            line: hyp.line,
            message: "an empty source sentence; CLEME2.0 has no chunks to score in it".into(),
        });
    }
    let mut out = targets(hyp_doc, hyp)?;
    if out.len() > 1 {
        return Err(Error::Format {
            path: hyp_doc.path.clone(),
            line: hyp.line,
            message: format!(
                "a hypothesis has one annotator, this sentence has {}",
                out.len()
            ),
        });
    }
    // The original drops references that delete the whole sentence ("to avoid chunk
    // partition collapse"), keeping the first when all do.
    let mut refs = targets(ref_doc, reference)?;
    if refs.iter().all(|t| t.tokens.is_empty()) {
        refs.truncate(1);
    } else {
        refs.retain(|t| !t.tokens.is_empty());
    }
    out.extend(refs);
    Ok(out)
}

/// The chunks of `targets` (hypothesis first).
fn chunks_of<'s, 'a>(
    n: usize,
    targets: &'s [Target<'a>],
    opts: &Options,
    ref_doc: &Document,
    reference: &Sentence,
) -> Result<Vec<Vec<Chunk<'s, 'a>>>, Error> {
    chunk(n, targets, opts.merge_distance).ok_or_else(|| Error::Format {
        path: ref_doc.path.clone(),
        line: reference.line,
        message: "the edits of this sentence do not map the source onto their targets consistently; check their spans".into(),
    })
}

/// The statistics of one sentence: `hyp` and `reference` are the same sentence in two files.
pub fn sentence_stats(
    hyp_doc: &Document,
    hyp: &Sentence,
    ref_doc: &Document,
    reference: &Sentence,
    opts: &Options,
) -> Result<SentenceStats, Error> {
    let t = sentence_targets(hyp_doc, hyp, ref_doc, reference)?;
    let chunks = chunks_of(hyp.tokens().len(), &t, opts, ref_doc, reference)?;
    let (hyp_chunks, ref_chunks) = chunks.split_first().expect("the hypothesis is target 0");
    let mut stats = SentenceStats::default();
    for r in ref_chunks {
        let mut out = Vec::with_capacity(hyp_chunks.len());
        for (h, rc) in hyp_chunks.iter().zip(r) {
            let class = match (h.changed, h.tokens == rc.tokens) {
                (true, true) => Class::Tp,
                (true, false) if rc.changed => Class::FpNe,
                (true, false) => Class::FpUn,
                (false, false) => Class::Fn,
                (false, true) => Class::Tn,
            };
            out.push((h.len, class));
            if rc.changed {
                stats.ref_length.0 += u64::from(rc.len);
                stats.ref_length.1 += 1;
            }
        }
        stats.dependent.push(out);
    }
    for (i, h) in hyp_chunks.iter().enumerate() {
        let class = if h.changed {
            if ref_chunks.iter().any(|r| r[i].tokens == h.tokens) {
                Class::Tp
            } else if ref_chunks.iter().any(|r| r[i].changed) {
                Class::FpNe
            } else {
                Class::FpUn
            }
        } else if ref_chunks.iter().all(|r| r[i].changed) {
            Class::Fn
        } else {
            Class::Tn
        };
        stats.independent.push((h.len, class));
    }
    Ok(stats)
}

/// Every sentence's statistics for two aligned M2 files.
pub fn corpus_stats(
    hyp: &Document,
    reference: &Document,
    opts: &Options,
) -> Result<Vec<SentenceStats>, Error> {
    crate::compare::check_aligned(hyp, reference)?;
    hyp.sentences
        .iter()
        .zip(&reference.sentences)
        .map(|(h, r)| sentence_stats(hyp, h, reference, r, opts))
        .collect()
}

/// The chunks of each class in the order the original weighs them: TP, FP (both kinds), FP_NE,
/// FP_UN, FN; each in chunk order, as (chunk index, length).
fn todo(chunks: &[(u32, Class)]) -> [Vec<(usize, u32)>; 5] {
    let of = |keep: &dyn Fn(Class) -> bool| -> Vec<(usize, u32)> {
        (chunks.iter().enumerate())
            .filter(|(_, c)| keep(c.1))
            .map(|(i, c)| (i, c.0))
            .collect()
    };
    [
        of(&|c| c == Class::Tp),
        of(&|c| matches!(c, Class::FpNe | Class::FpUn)),
        of(&|c| c == Class::FpNe),
        of(&|c| c == Class::FpUn),
        of(&|c| c == Class::Fn),
    ]
}

/// Counts of one outcome with each chunk weighing `weight(list, position in the todo order,
/// length)` (`None`: unweighted), summed in chunk order from 0 as Python's `sum` does.
fn counts(chunks: &[(u32, Class)], weight: Option<&dyn Fn(usize, usize, u32) -> f64>) -> Counts {
    let lists = todo(chunks);
    let tn = chunks.iter().filter(|c| c.1 == Class::Tn).count() as f64;
    let mut sums = [0.0; 5];
    let mut k = 0;
    for (l, list) in lists.iter().enumerate() {
        sums[l] = match weight {
            None => list.len() as f64,
            Some(w) => list.iter().fold(0.0, |s, &(_, len)| {
                k += 1;
                s + w(l, k - 1, len)
            }),
        };
    }
    Counts {
        tp: sums[0],
        fp: sums[1],
        fp_ne: sums[2],
        fp_un: sums[3],
        fn_: sums[4],
        tn,
    }
}

/// The weighted counts of one outcome against reference `r` of sentence `s`.
fn weighted(
    chunks: &[(u32, Class)],
    weigher: Weigher,
    mean: f64,
    s: usize,
    r: usize,
) -> Result<Counts, Error> {
    match weigher {
        Weigher::None => Ok(counts(chunks, Some(&|_, _, _| 1.0))),
        Weigher::Length => {
            let w = Weights::CORPUS;
            Ok(counts(
                chunks,
                Some(&|l, _, len| match l {
                    0 => w.weigh(len, mean, w.tp, false),
                    4 => w.weigh(len, mean, w.fn_, false),
                    _ => w.weigh(len, mean, w.fp, true),
                }),
            ))
        }
        Weigher::Similarity(all) => {
            let ws = all
                .get(s)
                .and_then(|x| x.get(r))
                .map_or(&[][..], |v| &v[..]);
            let need: usize = todo(chunks).iter().map(Vec::len).sum();
            if ws.len() != need {
                return Err(Error::Config(format!(
                    "sentence {}, reference {}: {need} similarity weights needed, {} given; compute them from the pairs `--pairs` lists",
                    s + 1,
                    r + 1,
                    ws.len()
                )));
            }
            Ok(counts(chunks, Some(&|_, k, _| ws[k])))
        }
    }
}

/// The weighing's centre: the mean length of the references' changed chunks (NaN when no
/// reference changes anything; only the length weigher uses it).
fn mean_length(stats: &[SentenceStats]) -> f64 {
    let (sum, n) = stats.iter().fold((0u64, 0u64), |(s, n), x| {
        (s + x.ref_length.0, n + x.ref_length.1)
    });
    sum as f64 / n as f64
}

/// Python's list comparison `a > b`.
fn gt(a: &[f64], b: &[f64]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x > y {
            return true;
        }
        if x < y {
            return false;
        }
    }
    false
}

fn row(counts: Counts, f: &Factors) -> Row {
    let [hit, err, und, ove, com] = f.rates(&counts);
    Row {
        counts,
        hit,
        err,
        und,
        ove,
        com,
    }
}

/// Corpus level (`score_corpus`): per sentence the reference whose counts give the best
/// running com (ties: more TP, fewer FP, fewer FN, more TN, then the first).
pub fn corpus(per_sentence: &[Vec<Counts>], f: &Factors) -> Row {
    let mut total = Counts::default();
    for refs in per_sentence {
        let mut best = Counts::default();
        let mut best_key = [-1.0, 0.0, 0.0, 0.0, 0.0];
        for c in refs {
            let mut t = total;
            t.add(c);
            let com = f.rates(&t)[4];
            let key = [com, c.tp, -c.fp, -c.fn_, c.tn];
            if gt(&key, &best_key) {
                best_key = key;
                best = *c;
            }
        }
        total.add(&best);
    }
    row(total, f)
}

/// Sentence level (`score_sentence`): per sentence the reference with the best (com, hit,
/// −err, −und, −ove); the rates averaged as NumPy averages, the chosen counts summed.
pub fn sentence(per_sentence: &[Vec<Counts>], f: &Factors) -> Row {
    let mut total = Counts::default();
    let mut rates: [Vec<f64>; 5] = Default::default();
    for refs in per_sentence.iter().filter(|r| !r.is_empty()) {
        let mut best = Counts::default();
        let mut best_rates = [-1.0; 5];
        for c in refs {
            let r = f.rates(c);
            let key = [r[4], r[0], -r[1], -r[2], -r[3]];
            let best_key = [
                best_rates[4],
                best_rates[0],
                -best_rates[1],
                -best_rates[2],
                -best_rates[3],
            ];
            if gt(&key, &best_key) {
                best_rates = r;
                best = *c;
            }
        }
        total.add(&best);
        for (v, x) in rates.iter_mut().zip(best_rates) {
            v.push(x);
        }
    }
    let mean = |xs: &[f64]| green_engine::numpy::numpy_mean(xs);
    Row {
        counts: total,
        hit: mean(&rates[0]),
        err: mean(&rates[1]),
        und: mean(&rates[2]),
        ove: mean(&rates[3]),
        com: mean(&rates[4]),
    }
}

/// The settings of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub merge_distance: usize,
    pub corpus_factors: Factors,
    pub sentence_factors: Factors,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            merge_distance: 0,
            corpus_factors: Factors::CORPUS,
            sentence_factors: Factors::SENTENCE,
        }
    }
}

/// Per sentence, per reference: the counts of one assumption, unweighted and weighted.
type PerSentence = (Vec<Vec<Counts>>, Vec<Vec<Counts>>);

fn per_sentence(
    stats: &[SentenceStats],
    weigher: Weigher,
    independent: bool,
    mean: f64,
) -> Result<PerSentence, Error> {
    let (mut plain, mut weigh) = (Vec::new(), Vec::new());
    for (s, x) in stats.iter().enumerate() {
        let outcomes: Vec<&Vec<(u32, Class)>> = if independent {
            vec![&x.independent; x.dependent.len()]
        } else {
            x.dependent.iter().collect()
        };
        plain.push(outcomes.iter().map(|c| counts(c, None)).collect());
        weigh.push(
            (outcomes.iter().enumerate())
                .map(|(r, c)| weighted(c, weigher, mean, s, r))
                .collect::<Result<_, _>>()?,
        );
    }
    Ok((plain, weigh))
}

/// Score the statistics of a corpus.
pub fn fold(
    stats: &[SentenceStats],
    settings: &Settings,
    weigher: Weigher,
    similarity_independent: Weigher,
) -> Result<Report, Error> {
    let mean = mean_length(stats);
    if weigher == Weigher::Length && !mean.is_finite() {
        return Err(Error::Config(
            "no reference changes anything, so the length weights (centred on the mean length of the references' changed chunks) are undefined".into(),
        ));
    }
    let variant = |independent: bool| -> Result<Variant, Error> {
        let w = if independent {
            similarity_independent
        } else {
            weigher
        };
        let (plain, weigh) = per_sentence(stats, w, independent, mean)?;
        let (c, s) = (&settings.corpus_factors, &settings.sentence_factors);
        Ok(Variant {
            corpus: corpus(&plain, c),
            corpus_weighted: corpus(&weigh, c),
            sentence: sentence(&plain, s),
            sentence_weighted: sentence(&weigh, s),
        })
    };
    Ok(Report {
        sentences: stats.len(),
        mean_length: mean,
        dependent: variant(false)?,
        independent: variant(true)?,
    })
}

/// The texts the similarity weigher scores, in the original's order, for one assumption:
/// per sentence and reference with a weighed chunk, the source then one pseudo-hypothesis
/// per chunk (the source with that chunk of the hypothesis, or of the reference for a
/// miss; an empty one replaced by the source), each paired with the reference.
pub fn similarity_pairs(
    hyp: &Document,
    reference: &Document,
    opts: &Options,
    stats: &[SentenceStats],
    independent: bool,
) -> Result<Vec<Vec<(String, String)>>, Error> {
    crate::compare::check_aligned(hyp, reference)?;
    let mut out = Vec::new();
    for ((h, r), st) in hyp.sentences.iter().zip(&reference.sentences).zip(stats) {
        let t = sentence_targets(hyp, h, reference, r)?;
        let chunks = chunks_of(h.tokens().len(), &t, opts, reference, r)?;
        let src_tokens = h.tokens();
        let source = h.source.as_str();
        let pseudo = |from: &[Chunk], at: usize| -> String {
            let mut tokens: Vec<&str> = Vec::new();
            for (i, c) in from.iter().enumerate() {
                if i == at {
                    tokens.extend(c.tokens.iter().copied());
                } else {
                    tokens.extend(&src_tokens[c.src.0..c.src.1]);
                }
            }
            let text = tokens.join(" ");
            if text.is_empty() {
                source.to_string()
            } else {
                text
            }
        };
        for (ri, rc) in chunks[1..].iter().enumerate() {
            let outcome = if independent {
                &st.independent
            } else {
                &st.dependent[ri]
            };
            let lists = todo(outcome);
            let ref_text = t[ri + 1].tokens.join(" ");
            let mut group = Vec::new();
            for (l, list) in lists.iter().enumerate() {
                for &(i, _) in list {
                    let from = if l == 4 { rc } else { &chunks[0] };
                    group.push((pseudo(from, i), ref_text.clone()));
                }
            }
            if !group.is_empty() {
                group.insert(0, (source.to_string(), ref_text));
            }
            out.push(group);
        }
    }
    Ok(out)
}

/// Per sentence and reference, the similarity weights from the scores of the pairs
/// [`similarity_pairs`] listed (in its order): |score(source) − score(pseudo-hypothesis)|.
pub fn similarity_weights(
    groups: &[Vec<(String, String)>],
    stats: &[SentenceStats],
    scores: &[f64],
) -> Result<Vec<Vec<Vec<f64>>>, Error> {
    let need: usize = groups.iter().map(Vec::len).sum();
    if scores.len() != need {
        return Err(Error::Config(format!(
            "{} similarity scores given, {need} pairs to score",
            scores.len()
        )));
    }
    let mut at = 0;
    let mut groups = groups.iter();
    let mut out = Vec::with_capacity(stats.len());
    for st in stats {
        let mut per_ref = Vec::new();
        for _ in &st.dependent {
            let g = groups.next().map_or(0, Vec::len);
            let w = if g == 0 {
                Vec::new()
            } else {
                let anchor = scores[at];
                scores[at + 1..at + g]
                    .iter()
                    .map(|x| (anchor - x).abs())
                    .collect()
            };
            at += g;
            per_ref.push(w);
        }
        out.push(per_ref);
    }
    Ok(out)
}

/// The eight rows of a report.
pub fn rows(r: &Report) -> [(&'static str, &Row); 8] {
    [
        ("CLEME2-dependent", &r.dependent.corpus),
        ("CLEME2-dependent-weighted", &r.dependent.corpus_weighted),
        ("CLEME2-independent", &r.independent.corpus),
        (
            "CLEME2-independent-weighted",
            &r.independent.corpus_weighted,
        ),
        ("SentCLEME2-dependent", &r.dependent.sentence),
        (
            "SentCLEME2-dependent-weighted",
            &r.dependent.sentence_weighted,
        ),
        ("SentCLEME2-independent", &r.independent.sentence),
        (
            "SentCLEME2-independent-weighted",
            &r.independent.sentence_weighted,
        ),
    ]
}

/// A plain-text table of a report.
pub fn render(r: &Report) -> String {
    let mut out = format!(
        "{:<34}{:>9}{:>9}{:>9}{:>9}{:>9}{:>8}{:>8}{:>8}{:>8}{:>8}\n",
        "metric", "TP", "FP_NE", "FP_UN", "FN", "TN", "HIT", "ERR", "UND", "OVE", "COM"
    );
    for (name, x) in rows(r) {
        let c = &x.counts;
        out += &format!(
            "{:<34}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>9.0}{:>8.4}{:>8.4}{:>8.4}{:>8.4}{:>8.4}\n",
            name, c.tp, c.fp_ne, c.fp_un, c.fn_, c.tn, x.hit, x.err, x.und, x.ove, x.com
        );
    }
    out
}

/// The signature of a configuration.
pub fn signature(s: &Settings, weigher: &str) -> String {
    let f = |f: &Factors| format!("{},{},{},{}", f.hit, f.err, f.und, f.ove);
    format!(
        "cleme2|merge-distance:{}|corpus:{}|sentence:{}|weights:{weigher}|v:{}",
        s.merge_distance,
        f(&s.corpus_factors),
        f(&s.sentence_factors),
        env!("CARGO_PKG_VERSION")
    )
}

/// CLEME2.0 as a [`green_metric::Metric`]: the corpus-level com (unweighted or length-
/// weighted), dependent or independent; sentence scores are each sentence's best com at
/// the sentence factors.
#[derive(Debug, Clone, Copy)]
pub struct Cleme2 {
    pub independent: bool,
    pub length_weighted: bool,
    pub corpus_factors: Factors,
    pub sentence_factors: Factors,
}

impl Cleme2 {
    fn weigher(&self) -> Weigher<'static> {
        if self.length_weighted {
            Weigher::Length
        } else {
            Weigher::None
        }
    }

    fn counts_of(&self, stats: &[SentenceStats]) -> Vec<Vec<Counts>> {
        let mean = mean_length(stats);
        match per_sentence(stats, self.weigher(), self.independent, mean) {
            Ok((plain, weigh)) => {
                if self.length_weighted {
                    weigh
                } else {
                    plain
                }
            }
            Err(_) => Vec::new(),
        }
    }
}

impl green_metric::Checked for SentenceStats {
    /// Every reference classifies the same hypothesis chunks as all of them at once, and the
    /// lengths stay within what a sentence can have.
    fn check(&self) -> Result<(), String> {
        let max = green_metric::MAX_COUNT;
        let lengths = (self.dependent.iter().flatten())
            .chain(&self.independent)
            .map(|&(l, _)| u64::from(l))
            .sum::<u64>();
        if lengths > max || self.ref_length.0 > max {
            return Err("CLEME2.0 statistics larger than a sentence can have".into());
        }
        let n = self.independent.len();
        if self.dependent.iter().any(|d| d.len() != n) {
            return Err(
                "CLEME2.0 statistics whose references classify different numbers of chunks".into(),
            );
        }
        if self.ref_length.1 > (n * self.dependent.len()) as u64 {
            return Err(
                "CLEME2.0 statistics with more changed reference chunks than chunks".into(),
            );
        }
        Ok(())
    }
}

impl green_metric::Metric for Cleme2 {
    type Stats = SentenceStats;
    type Totals = f64;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> f64 {
        let stats: Vec<SentenceStats> = stats.into_iter().cloned().collect();
        if self.length_weighted && !mean_length(&stats).is_finite() {
            return f64::NAN;
        }
        corpus(&self.counts_of(&stats), &self.corpus_factors).com
    }

    fn score(&self, com: &f64) -> f64 {
        *com
    }

    fn sentence_scores(&self, stats: &[SentenceStats]) -> Vec<f64> {
        if self.length_weighted && !mean_length(stats).is_finite() {
            return vec![f64::NAN; stats.len()];
        }
        self.counts_of(stats)
            .iter()
            .map(|refs| sentence(std::slice::from_ref(refs), &self.sentence_factors).com)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::m2::parse;

    fn stats(hyp: &str, reference: &str) -> SentenceStats {
        let (h, r) = (parse(hyp, "h").unwrap(), parse(reference, "r").unwrap());
        sentence_stats(
            &h,
            &h.sentences[0],
            &r,
            &r.sentences[0],
            &Options::default(),
        )
        .unwrap()
    }

    const REF: &str = "S a b c d e\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n";

    #[test]
    fn false_positives_split_into_necessary_and_unnecessary() {
        // The hypothesis changes b (wrongly) and d (which no reference changes).
        let hyp = "S a b c d e\nA 1 2|||R:X|||Z|||REQUIRED|||-NONE-|||0\nA 3 4|||R:X|||D|||REQUIRED|||-NONE-|||0\n";
        let s = stats(hyp, REF);
        use Class::*;
        assert_eq!(
            s.dependent[0],
            vec![(1, Tn), (1, FpNe), (1, Tn), (1, FpUn), (1, Tn)]
        );
        // Reference 1 changes nothing: both are over-corrections.
        assert_eq!(s.dependent[1][1], (1, FpUn));
        // Independent: b is necessary (one reference changes it).
        assert_eq!(s.independent[1], (1, FpNe));
        let r = fold(&[s], &Settings::default(), Weigher::None, Weigher::None).unwrap();
        // Dependent corpus: reference 0 gives NE = 1 (err 1), ove = 1/2:
        // com = 0.35·0 + 0.15·1 + 0.05·0.5 = 0.175; reference 1: NE = 0, ove = 1:
        // com = 0.35 + 0.15 + 0 = 0.5, chosen.
        let d = &r.dependent.corpus;
        assert_eq!((d.counts.fp_un, d.counts.fp_ne), (2.0, 0.0));
        assert!((d.com - 0.5).abs() < 1e-15);
        assert_eq!(r.dependent.corpus_weighted, r.dependent.corpus);
    }

    #[test]
    fn empty_references_are_dropped() {
        let reference = "S a b\nA 0 2|||U:X||||||REQUIRED|||-NONE-|||0\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||1\n";
        let hyp = "S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n";
        let s = stats(hyp, reference);
        assert_eq!(s.dependent.len(), 1);
        assert_eq!(s.dependent[0][0], (1, Class::Fn));
        // All empty: the first stays.
        let reference = "S a b\nA 0 2|||U:X||||||REQUIRED|||-NONE-|||0\n";
        assert_eq!(stats(hyp, reference).dependent.len(), 1);
    }

    #[test]
    fn factors_must_sum_to_one() {
        assert!(Factors::new(0.5, 0.5, 0.0, 0.0).is_ok());
        let e = Factors::new(0.5, 0.5, 0.5, 0.0).unwrap_err().to_string();
        assert!(e.contains("must sum to 1"), "{e}");
    }

    #[test]
    fn similarity_weights_are_distances_to_the_source_score() {
        let hyp = "S a b c\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n";
        let reference = "S a b c\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n";
        let (h, r) = (parse(hyp, "h").unwrap(), parse(reference, "r").unwrap());
        let opts = Options::default();
        let st = corpus_stats(&h, &r, &opts).unwrap();
        let pairs = similarity_pairs(&h, &r, &opts, &st, false).unwrap();
        assert_eq!(
            pairs[0],
            vec![
                ("a b c".to_string(), "a B c".to_string()),
                ("a B c".to_string(), "a B c".to_string())
            ]
        );
        let w = similarity_weights(&pairs, &st, &[0.25, 1.0]).unwrap();
        assert_eq!(w, vec![vec![vec![0.75]]]);
        let rep = fold(
            &st,
            &Settings::default(),
            Weigher::Similarity(&w),
            Weigher::Similarity(&w),
        )
        .unwrap();
        assert_eq!(rep.dependent.corpus_weighted.counts.tp, 0.75);
        assert!(similarity_weights(&pairs, &st, &[1.0]).is_err());
    }
}
