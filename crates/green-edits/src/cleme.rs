//! CLEME (Ye et al., EMNLP 2023): chunk-level evaluation that is fair to several references.
//!
//! The edits of the hypothesis and of every reference are merged into shared source
//! intervals, so all of them cut the sentence into the same chunks; a hypothesis chunk is
//! then right or wrong as a whole. **Dependent**: against each reference in turn (the best
//! one per sentence, greedily over the corpus). **Independent**: a changed chunk is right if
//! any reference has it, an unchanged one is a miss only if every reference changed it.
//! Chunk counts are length-weighted (longer right chunks count more, longer wrong ones less)
//! around the mean length of the references' changed chunks. Numbers are those of the paper
//! (Table 10) and of the authors' code with the sentence-level weights the paper states.
//!
//! [`sentence_stats`] keeps, per sentence, the length of every classified chunk in order
//! (weights need the corpus mean length, known only at the end), so shards merge exactly.

use serde::{Deserialize, Serialize};

use crate::m2::{Document, Sentence};
use crate::pyfloat;
use crate::Error;

/// Length weighting: `alpha` and the clip range of each class (TN always weighs 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    pub alpha: f64,
    pub tp: (f64, f64),
    pub fp: (f64, f64),
    #[serde(rename = "fn")]
    pub fn_: (f64, f64),
}

impl Weights {
    /// Corpus level (the paper's CLEME): alpha 2, every weight in [0.75, 1.25].
    pub const CORPUS: Weights = Weights {
        alpha: 2.0,
        tp: (0.75, 1.25),
        fp: (0.75, 1.25),
        fn_: (0.75, 1.25),
    };

    /// Sentence level (SentCLEME): alpha 10, TP in [1, 10] (dependent) or [2.5, 10]
    /// (independent), FP in [0.25, 1], FN 1.
    pub fn sentence(independent: bool) -> Weights {
        Weights {
            alpha: 10.0,
            tp: (if independent { 2.5 } else { 1.0 }, 10.0),
            fp: (0.25, 1.0),
            fn_: (1.0, 1.0),
        }
    }

    /// The weight of a chunk of length `x` around the mean length `mean`; `reverse` for FP
    /// (a longer wrong chunk weighs less).
    pub(crate) fn weigh(&self, x: u32, mean: f64, (lo, hi): (f64, f64), reverse: bool) -> f64 {
        let a = self.alpha;
        let x = f64::from(x);
        let e = if reverse {
            (x - mean).exp()
        } else {
            (-x + mean).exp()
        };
        let w = a * (1.0 / (1.0 + (a - 1.0) * e));
        w.max(lo).min(hi)
    }
}

/// Options of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub beta: f64,
    /// Edits this close (in tokens) share a chunk (the original's `merge_distance`, 0).
    pub merge_distance: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            beta: 0.5,
            merge_distance: 0,
        }
    }
}

/// Hypothesis chunks of one sentence by outcome, each as its length max(|source|, |target|)
/// in chunk order (TN only counted: it always weighs 1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Classes {
    pub tp: Vec<u32>,
    pub fp: Vec<u32>,
    #[serde(rename = "fn")]
    pub fn_: Vec<u32>,
    pub tn: u64,
}

/// What one sentence contributes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SentenceStats {
    /// Dependent outcomes against each (non-empty) reference.
    pub dependent: Vec<Classes>,
    pub independent: Classes,
    /// Sum and number of the lengths of the references' changed chunks.
    pub ref_length: (u64, u64),
}

/// Counts (weighted or not) and scores of one variant.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub tp: f64,
    pub fp: f64,
    #[serde(rename = "fn")]
    pub fn_: f64,
    pub tn: f64,
    pub p: f64,
    pub r: f64,
    pub f: f64,
    pub acc: f64,
}

/// The four numbers the paper reports for one way of matching, plus unweighted ones.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// Corpus level, length-weighted (CLEME).
    pub corpus: Score,
    pub corpus_unweighted: Score,
    /// Sentence level, mean of sentence P/R/F, length-weighted (SentCLEME).
    pub sentence: Score,
    pub sentence_unweighted: Score,
}

/// CLEME of one hypothesis file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub sentences: usize,
    /// Mean length of the references' changed chunks (the weights' centre).
    pub mean_length: f64,
    pub dependent: Variant,
    pub independent: Variant,
}

/// A target sentence: tokens and the edits (source span, target span) that made it.
pub(crate) struct Target<'a> {
    pub(crate) tokens: Vec<&'a str>,
    edits: Vec<Span>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    src: (usize, usize),
    tgt: (usize, usize),
}

/// The targets of one M2 block, one per annotator, as CLEME's reader builds them.
pub(crate) fn targets<'a>(doc: &Document, s: &'a Sentence) -> Result<Vec<Target<'a>>, Error> {
    let src = s.tokens();
    let err = |line, message: String| Error::Format {
        path: doc.path.clone(),
        line,
        message,
    };
    let mut out: Vec<Target> = Vec::new();
    let mut last = -1i64;
    // ChERRANT files: CLEME reads the first alternative of each reference.
    for e in s.edits.iter().filter(|e| e.alternative == 0) {
        if e.annotator == last + 1 {
            out.push(Target {
                tokens: src.clone(),
                edits: Vec::new(),
            });
            last = e.annotator;
        } else if e.annotator != last || out.is_empty() {
            return Err(err(
                e.line,
                format!(
                    "annotator id {} is out of order; CLEME needs each annotator's edits together, annotators numbered 0, 1, 2... in order",
                    e.annotator
                ),
            ));
        }
        if e.is_noop_span() {
            continue;
        }
        if e.kind == "noop" || e.kind == "NA" {
            return Err(err(
                e.line,
                format!("a {} edit must have the span -1 -1", e.kind),
            ));
        }
        let t = out.last_mut().expect("the checks above pushed a target");
        let (start, end) = (e.start as usize, e.end as usize);
        let offset = t.tokens.len() as i64 - src.len() as i64;
        if let Some(prev) = t.edits.last() {
            if start < prev.src.1 {
                return Err(err(
                    e.line,
                    format!(
                        "edit {start} {end} overlaps or comes before the annotator's previous edit ({} {}); CLEME applies edits in order",
                        prev.src.0, prev.src.1
                    ),
                ));
            }
        }
        let cor = e.correction_tokens();
        let tgt_start = (start as i64 + offset) as usize;
        let tgt_end = tgt_start + cor.len();
        t.tokens
            .splice(tgt_start..(end as i64 + offset) as usize, cor);
        t.edits.push(Span {
            src: (start, end),
            tgt: (tgt_start, tgt_end),
        });
    }
    if out.is_empty() {
        out.push(Target {
            tokens: src,
            edits: Vec::new(),
        });
    }
    Ok(out)
}

/// `tokens[a..b]` with Python's slice clamping.
fn slice<'s, 'a>(tokens: &'s [&'a str], a: usize, b: usize) -> &'s [&'a str] {
    let b = b.min(tokens.len());
    &tokens[a.min(b)..b]
}

/// Source position → target position (CLEME's `map_parallel`; positions inside an edit
/// have none).
fn mapping(n: usize, edits: &[Span]) -> Vec<Option<usize>> {
    let mut m = vec![None; n + 1];
    let (mut s, mut t) = (0, 0);
    for e in edits {
        m[e.src.0] = Some(e.tgt.0);
        m[e.src.1] = Some(e.tgt.1);
        while s < e.src.0 {
            m[s] = Some(t);
            s += 1;
            t += 1;
        }
        s = e.src.1;
        t = e.tgt.1;
    }
    while s <= n {
        m[s] = Some(t);
        s += 1;
        t += 1;
    }
    m
}

/// One chunk of one target: its source span, its target tokens, and whether an edit made it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chunk<'s, 'a> {
    pub(crate) len: u32,
    /// The chunk's source interval.
    pub(crate) src: (usize, usize),
    pub(crate) tokens: &'s [&'a str],
    pub(crate) changed: bool,
}

/// Cut the hypothesis (target 0) and the references into the same chunks.
pub(crate) fn chunk<'s, 'a>(
    n: usize,
    targets: &'s [Target<'a>],
    merge_distance: usize,
) -> Option<Vec<Vec<Chunk<'s, 'a>>>> {
    let maps: Vec<Vec<Option<usize>>> = targets.iter().map(|t| mapping(n, &t.edits)).collect();
    let mut all: Vec<(usize, usize)> = targets
        .iter()
        .flat_map(|t| t.edits.iter().map(|e| e.src))
        .collect();
    all.sort_by_key(|s| s.0);
    let mut shared: Vec<(usize, usize)> = Vec::new();
    for (a, b) in all {
        match shared.last_mut() {
            Some(last) if a <= last.1 + merge_distance => last.1 = last.1.max(b),
            _ => shared.push((a, b)),
        }
    }
    // Chunk boundaries: unchanged stretches between the shared intervals.
    let mut intervals = Vec::new();
    let (mut s, mut i) = (0, 0);
    while s <= n {
        let Some(&cur) = shared.get(i) else {
            if s != n {
                intervals.push((s, n));
            }
            break;
        };
        if s == cur.0 && cur.0 == cur.1 {
            intervals.push(cur);
            i += 1;
        } else if cur.0 <= s && s < cur.1 {
            intervals.push(cur);
            s = cur.1;
            i += 1;
        } else {
            intervals.push((s, cur.0));
            s = cur.0;
        }
    }
    let mut out = Vec::with_capacity(targets.len());
    for (t, m) in targets.iter().zip(&maps) {
        // Each edit widened to its shared interval, duplicates dropped.
        let mut widened: Vec<((usize, usize), &[&str])> = Vec::new();
        for e in &t.edits {
            let sh = *shared
                .iter()
                .find(|sh| sh.0 <= e.src.0 && e.src.1 <= sh.1)?;
            let beg = if sh.0 == 0 { 0 } else { m[sh.0 - 1]? + 1 };
            let end = m[sh.1]?;
            let w = (sh, slice(&t.tokens, beg, end));
            if !widened.contains(&w) {
                widened.push(w);
            }
        }
        let mut chunks = Vec::with_capacity(intervals.len());
        for &iv in &intervals {
            let (tokens, changed) = match widened.iter().find(|w| w.0 == iv) {
                Some(w) => (w.1, true),
                None => {
                    let beg = m[iv.0]?;
                    let end = if iv.1 != 0 { m[iv.1 - 1]? + 1 } else { 0 };
                    (slice(&t.tokens, beg, end), false)
                }
            };
            let len = (iv.1 - iv.0).max(tokens.len()) as u32;
            chunks.push(Chunk {
                len,
                src: iv,
                tokens,
                changed,
            });
        }
        out.push(chunks);
    }
    Some(out)
}

/// The statistics of one sentence: `hyp` and `reference` are the same sentence in two files.
pub fn sentence_stats(
    hyp_doc: &Document,
    hyp: &Sentence,
    ref_doc: &Document,
    reference: &Sentence,
    opts: &Options,
) -> Result<SentenceStats, Error> {
    if hyp.tokens().is_empty() {
        return Err(Error::Format {
            path: hyp_doc.path.clone(),
            line: hyp.line,
            message: "an empty source sentence; CLEME has no chunks to score in it".into(),
        });
    }
    let mut all = targets(hyp_doc, hyp)?;
    if all.len() > 1 {
        return Err(Error::Format {
            path: hyp_doc.path.clone(),
            line: hyp.line,
            message: format!(
                "a hypothesis has one annotator, this sentence has {}",
                all.len()
            ),
        });
    }
    all.extend(targets(ref_doc, reference)?);
    // CLEME 1.0 (the published numbers) drops a target that deletes the whole sentence when
    // there are more than two, walking the list as Python's `enumerate` does while deleting
    // (the target after a dropped one is not looked at). The hypothesis is target 0: when it
    // is dropped, the first reference stands in for it.
    let mut i = 0;
    while i < all.len() {
        if all[i].tokens.is_empty() && all.len() > 2 {
            all.remove(i);
        }
        i += 1;
    }
    let n = hyp.tokens().len();
    let chunks = chunk(n, &all, opts.merge_distance).ok_or_else(|| Error::Format {
        path: ref_doc.path.clone(),
        line: reference.line,
        message: "the edits of this sentence do not map the source onto their targets consistently; check their spans".into(),
    })?;
    let (hyp_chunks, ref_chunks) = chunks.split_first().expect("the hypothesis is target 0");
    let mut stats = SentenceStats::default();
    for r in ref_chunks {
        let mut c = Classes::default();
        for (h, rc) in hyp_chunks.iter().zip(r) {
            match (h.changed, h.tokens == rc.tokens) {
                (true, true) => c.tp.push(h.len),
                (true, false) => c.fp.push(h.len),
                (false, false) => c.fn_.push(h.len),
                (false, true) => c.tn += 1,
            }
            if rc.changed {
                stats.ref_length.0 += u64::from(rc.len);
                stats.ref_length.1 += 1;
            }
        }
        stats.dependent.push(c);
    }
    let c = &mut stats.independent;
    for (i, h) in hyp_chunks.iter().enumerate() {
        if h.changed {
            if ref_chunks.iter().any(|r| r[i].tokens == h.tokens) {
                c.tp.push(h.len);
            } else {
                c.fp.push(h.len);
            }
        } else if ref_chunks.iter().all(|r| r[i].changed) {
            c.fn_.push(h.len);
        } else {
            c.tn += 1;
        }
    }
    Ok(stats)
}

/// The statistics of one sentence whose edits did not come from a file (e.g. extracted from
/// text by [`crate::parallel::sentence`]); errors name `what`. An empty source has no
/// chunks, so no outcome (a file's empty source sentence is an error instead).
pub fn text_stats(
    hyp: &Sentence,
    reference: &Sentence,
    opts: &Options,
    what: &str,
) -> Result<SentenceStats, Error> {
    if hyp.tokens().is_empty() {
        // Nothing to chunk: no outcome, and a reference slot per reference.
        let refs = reference
            .edits
            .iter()
            .map(|e| e.annotator)
            .max()
            .unwrap_or(0)
            + 1;
        return Ok(SentenceStats {
            dependent: vec![Classes::default(); refs.max(1) as usize],
            ..Default::default()
        });
    }
    let doc = Document {
        path: what.to_string(),
        sentences: Vec::new(),
        has_targets: false,
    };
    sentence_stats(&doc, hyp, &doc, reference, opts)
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

/// (TP, FP, FN, TN) of one outcome, weighted (in chunk order, as the original sums) or not.
fn counts(c: &Classes, weights: Option<(&Weights, f64)>) -> [f64; 4] {
    let sum = |xs: &[u32], range, reverse| match weights {
        Some((w, mean)) => xs
            .iter()
            .fold(0.0, |s, &x| s + w.weigh(x, mean, range, reverse)),
        None => xs.len() as f64,
    };
    let (tp, fp, fn_) = weights.map_or(((1.0, 1.0), (1.0, 1.0), (1.0, 1.0)), |(w, _)| {
        (w.tp, w.fp, w.fn_)
    });
    [
        sum(&c.tp, tp, false),
        sum(&c.fp, fp, true),
        sum(&c.fn_, fn_, false),
        c.tn as f64,
    ]
}

fn accuracy(c: [f64; 4]) -> f64 {
    pyfloat::round(accuracy_unrounded(c), 4)
}

fn accuracy_unrounded([tp, fp, fn_, tn]: [f64; 4]) -> f64 {
    let total = tp + fp + fn_ + tn;
    if total != 0.0 {
        (tp + tn) / total
    } else {
        0.0
    }
}

/// Whether a report's P, R, F and accuracy are rounded to 4 decimals as the original prints
/// them (choices between references always compare the rounded values, as the original does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rounding {
    Printed,
    Unrounded,
}

fn to_score(c: [f64; 4], beta: f64, rounding: Rounding) -> Score {
    let ((p, r, f), acc) = match rounding {
        Rounding::Printed => (pyfloat::prf(c[0], c[1], c[2], beta), accuracy(c)),
        Rounding::Unrounded => (
            pyfloat::prf_unrounded(c[0], c[1], c[2], beta),
            accuracy_unrounded(c),
        ),
    };
    Score {
        tp: c[0],
        fp: c[1],
        fn_: c[2],
        tn: c[3],
        p,
        r,
        f,
        acc,
    }
}

/// Corpus level: per sentence the reference whose counts give the best corpus F so far
/// (ties: more TP, fewer FP, fewer FN, more TN, then the first).
fn corpus(per_sentence: &[Vec<[f64; 4]>], beta: f64, rounding: Rounding) -> Score {
    let mut total = [0.0; 4];
    for results in per_sentence {
        let mut best: Option<(f64, [f64; 4])> = None;
        for &c in results {
            let (_, _, f) = pyfloat::prf(total[0] + c[0], total[1] + c[1], total[2] + c[2], beta);
            let key = [f, c[0], -c[1], -c[2], c[3]];
            let better = match best {
                None => true,
                Some((bf, b)) => gt(&key, &[bf, b[0], -b[1], -b[2], b[3]]),
            };
            if better {
                best = Some((f, c));
            }
        }
        if let Some((_, b)) = best {
            for k in 0..4 {
                total[k] += b[k];
            }
        }
    }
    to_score(total, beta, rounding)
}

/// Python's list comparison `a > b` on numbers.
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

/// One sentence's best reference by (F, P, R, accuracy): that key and its counts.
fn best_sentence(results: &[[f64; 4]], beta: f64) -> Option<([f64; 4], [f64; 4])> {
    let mut best: Option<([f64; 4], [f64; 4])> = None;
    for &c in results {
        let (p, r, f) = pyfloat::prf(c[0], c[1], c[2], beta);
        let key = [f, p, r, accuracy(c)];
        if best.is_none_or(|(b, _)| gt(&key, &b)) {
            best = Some((key, c));
        }
    }
    best
}

/// Sentence level: per sentence the reference with the best (F, P, R, accuracy); the
/// sentence P, R, F (rounded) averaged as NumPy averages.
fn sentence_level(per_sentence: &[Vec<[f64; 4]>], beta: f64, rounding: Rounding) -> Score {
    let mut total = [0.0; 4];
    let (mut ps, mut rs, mut fs, mut accs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for results in per_sentence {
        if let Some(([f, p, r, acc], c)) = best_sentence(results, beta) {
            fs.push(f);
            ps.push(p);
            rs.push(r);
            accs.push(acc);
            for k in 0..4 {
                total[k] += c[k];
            }
        }
    }
    let mean = |xs: &[f64]| {
        let mean = green_engine::numpy::numpy_mean(xs);
        match rounding {
            Rounding::Printed => pyfloat::round(mean, 4),
            Rounding::Unrounded => mean,
        }
    };
    Score {
        tp: total[0],
        fp: total[1],
        fn_: total[2],
        tn: total[3],
        p: mean(&ps),
        r: mean(&rs),
        f: mean(&fs),
        acc: mean(&accs),
    }
}

/// The weights' centre: the mean length of the references' changed chunks over `stats`.
fn mean_length<'a>(stats: impl Iterator<Item = &'a SentenceStats>) -> Result<f64, Error> {
    let (sum, count) = stats.fold((0u64, 0u64), |(s, c), x| {
        (s + x.ref_length.0, c + x.ref_length.1)
    });
    if count == 0 {
        return Err(Error::Config(
            "no reference changes anything, so CLEME's length weights (centred on the mean length of the references' changed chunks) are undefined".into(),
        ));
    }
    Ok(sum as f64 / count as f64)
}

/// Each sentence's SentCLEME F (its best reference, sentence-level weights centred on the
/// mean length over all of `stats`): the sentence scores the `sentence` rows average.
pub fn sentence_f(
    stats: &[SentenceStats],
    opts: &Options,
    independent: bool,
) -> Result<Vec<f64>, Error> {
    let mean = mean_length(stats.iter())?;
    Ok(stats
        .iter()
        .map(|s| sentence_f_at(s, opts.beta, independent, mean))
        .collect())
}

/// One sentence's SentCLEME F with the weights centred on a given mean length.
pub fn sentence_f_at(s: &SentenceStats, beta: f64, independent: bool, mean: f64) -> f64 {
    let w = Weights::sentence(independent);
    let results: Vec<[f64; 4]> = if independent {
        vec![counts(&s.independent, Some((&w, mean)))]
    } else {
        s.dependent
            .iter()
            .map(|c| counts(c, Some((&w, mean))))
            .collect()
    };
    best_sentence(&results, beta).map_or(0.0, |(k, _)| k[0])
}

/// CLEME as a [`green_metric::Metric`]: the length-weighted corpus F at `beta`, dependent or
/// independent. Its weights are centred on the mean length over the folded sentences, so an
/// undefined mean (no reference changes anything) scores NaN, never a number.
#[derive(Debug, Clone, Copy)]
pub struct Cleme {
    pub beta: f64,
    pub independent: bool,
}

impl green_metric::Checked for SentenceStats {
    /// Every reference (and the independent count) classifies the same chunks of the
    /// hypothesis, and at most every chunk of every reference is changed.
    fn check(&self) -> Result<(), String> {
        let chunks =
            |c: &Classes| c.tp.len() as u64 + c.fp.len() as u64 + c.fn_.len() as u64 + c.tn;
        let max = green_metric::MAX_COUNT;
        let lengths = [&self.independent]
            .into_iter()
            .chain(&self.dependent)
            .flat_map(|c| c.tp.iter().chain(&c.fp).chain(&c.fn_));
        if self.independent.tn > max
            || self.dependent.iter().any(|c| c.tn > max)
            || self.ref_length.0 > max
            || lengths.map(|&l| u64::from(l)).sum::<u64>() > max
        {
            return Err("CLEME statistics larger than a sentence can have".into());
        }
        let n = chunks(&self.independent);
        if self.dependent.iter().any(|c| chunks(c) != n) {
            return Err(
                "CLEME statistics whose references classify different numbers of chunks".into(),
            );
        }
        if self.ref_length.1 > n * self.dependent.len() as u64 {
            return Err("CLEME statistics with more changed reference chunks than chunks".into());
        }
        Ok(())
    }
}

impl green_metric::Metric for Cleme {
    type Stats = SentenceStats;
    type Totals = f64;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> f64 {
        let stats: Vec<&SentenceStats> = stats.into_iter().collect();
        corpus_f(&stats, self.beta, self.independent).unwrap_or(f64::NAN)
    }

    fn score(&self, f: &f64) -> f64 {
        *f
    }

    fn sentence_scores(&self, stats: &[SentenceStats]) -> Vec<f64> {
        match mean_length(stats.iter()) {
            Ok(mean) => stats
                .iter()
                .map(|s| sentence_f_at(s, self.beta, self.independent, mean))
                .collect(),
            Err(_) => vec![f64::NAN; stats.len()],
        }
    }
}

/// The corpus-level CLEME F (length-weighted, dependent or independent) of sentence
/// statistics given by reference, a sentence as often as it appears (bootstrap replicates).
pub fn corpus_f(stats: &[&SentenceStats], beta: f64, independent: bool) -> Result<f64, Error> {
    let mean = mean_length(stats.iter().copied())?;
    let w = Some((&Weights::CORPUS, mean));
    let per_sentence: Vec<Vec<[f64; 4]>> = stats
        .iter()
        .map(|s| {
            if independent {
                vec![counts(&s.independent, w)]
            } else {
                s.dependent.iter().map(|c| counts(c, w)).collect()
            }
        })
        .collect();
    Ok(corpus(&per_sentence, beta, Rounding::Printed).f)
}

/// Score merged statistics (in sentence order).
pub fn fold(stats: &[SentenceStats], opts: &Options) -> Result<Report, Error> {
    fold_with(stats, opts, Rounding::Printed)
}

/// [`fold`] with P, R, F and accuracy before the original rounds them to print (the
/// references chosen are the same): the numbers to keep as data.
pub fn fold_unrounded(stats: &[SentenceStats], opts: &Options) -> Result<Report, Error> {
    fold_with(stats, opts, Rounding::Unrounded)
}

fn fold_with(stats: &[SentenceStats], opts: &Options, rounding: Rounding) -> Result<Report, Error> {
    let mean = mean_length(stats.iter())?;
    let variant = |outcomes: &dyn Fn(&SentenceStats) -> Vec<&Classes>, independent: bool| {
        let at = |w: Option<&Weights>| -> Vec<Vec<[f64; 4]>> {
            stats
                .iter()
                .map(|s| {
                    outcomes(s)
                        .into_iter()
                        .map(|c| counts(c, w.map(|w| (w, mean))))
                        .collect()
                })
                .collect()
        };
        let plain = at(None);
        Variant {
            corpus: corpus(&at(Some(&Weights::CORPUS)), opts.beta, rounding),
            corpus_unweighted: corpus(&plain, opts.beta, rounding),
            sentence: sentence_level(
                &at(Some(&Weights::sentence(independent))),
                opts.beta,
                rounding,
            ),
            sentence_unweighted: sentence_level(&plain, opts.beta, rounding),
        }
    };
    Ok(Report {
        sentences: stats.len(),
        mean_length: mean,
        dependent: variant(&|s| s.dependent.iter().collect(), false),
        independent: variant(&|s| vec![&s.independent], true),
    })
}

/// CLEME of a hypothesis M2 file against a reference M2 file.
pub fn score(hyp: &Document, reference: &Document, opts: &Options) -> Result<Report, Error> {
    fold(&corpus_stats(hyp, reference, opts)?, opts)
}

/// The eight rows of a report, named as in the CLEME paper (`-unweighted`: without length
/// weights).
pub fn rows(r: &Report) -> [(&'static str, &Score); 8] {
    [
        ("CLEME-dependent", &r.dependent.corpus),
        ("CLEME-dependent-unweighted", &r.dependent.corpus_unweighted),
        ("CLEME-independent", &r.independent.corpus),
        (
            "CLEME-independent-unweighted",
            &r.independent.corpus_unweighted,
        ),
        ("SentCLEME-dependent", &r.dependent.sentence),
        (
            "SentCLEME-dependent-unweighted",
            &r.dependent.sentence_unweighted,
        ),
        ("SentCLEME-independent", &r.independent.sentence),
        (
            "SentCLEME-independent-unweighted",
            &r.independent.sentence_unweighted,
        ),
    ]
}

/// A plain-text table of a report.
pub fn render(r: &Report, beta: f64) -> String {
    let mut out = format!(
        "{:<34}{:>10}{:>10}{:>10}{:>10}{:>8}{:>8}{:>8}\n",
        "metric",
        "TP",
        "FP",
        "FN",
        "TN",
        "P",
        "R",
        format!("F{}", pyfloat::str(beta))
    );
    for (name, s) in rows(r) {
        out += &format!(
            "{:<34}{:>10.2}{:>10.2}{:>10.2}{:>10.0}{:>8.4}{:>8.4}{:>8.4}\n",
            name, s.tp, s.fp, s.fn_, s.tn, s.p, s.r, s.f
        );
    }
    out
}

/// The signature of a configuration.
pub fn signature(opts: &Options) -> String {
    format!(
        "cleme|beta:{}|merge-distance:{}|weights:paper|v:{}",
        opts.beta,
        opts.merge_distance,
        env!("CARGO_PKG_VERSION")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::m2::parse;

    /// The statistics of the first sentence of two one-sentence M2 texts.
    fn first_sentence(hyp: &str, reference: &str) -> Result<SentenceStats, Error> {
        let (h, r) = (parse(hyp, "h").unwrap(), parse(reference, "r").unwrap());
        sentence_stats(
            &h,
            &h.sentences[0],
            &r,
            &r.sentences[0],
            &Options::default(),
        )
    }

    fn stats(hyp: &str, reference: &str) -> SentenceStats {
        first_sentence(hyp, reference).unwrap()
    }

    const REF: &str = "S a b c d e\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\nA 3 3|||M:X|||x|||REQUIRED|||-NONE-|||0\nA 1 3|||R:X|||B C|||REQUIRED|||-NONE-|||1\n";

    #[test]
    fn statistics_read_back_are_checked() {
        use green_metric::Checked;
        let good = stats(
            "S a b c d e\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n",
            REF,
        );
        assert_eq!(good.check(), Ok(()));
        let mut bad = good.clone();
        bad.dependent[0].tn += 1;
        assert!(bad
            .check()
            .unwrap_err()
            .contains("classify different numbers of chunks"));
        let mut bad = good;
        bad.ref_length.1 = 1000;
        assert!(bad
            .check()
            .unwrap_err()
            .contains("more changed reference chunks"));
    }

    #[test]
    fn chunks_are_shared_and_widened() {
        // Intervals: [1,3] (1-2 and 1-3 merged, insertion at 3 touches), rest unchanged:
        // chunks [0,1] [1,3] [3,5]. Reference 0 widens to "B c x", reference 1 is "B C".
        let hyp = "S a b c d e\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n";
        let s = stats(hyp, REF);
        // The hypothesis chunk [1,3] is "B c": equal to neither reference.
        assert_eq!(s.dependent[0].fp, vec![2]);
        assert_eq!(s.dependent[1].fp, vec![2]);
        assert_eq!(s.dependent[0].tn, 2);
        assert_eq!(s.independent.fp, vec![2]);
        // Reference changed chunks: "B c x" (3) and "B C" (2).
        assert_eq!(s.ref_length, (5, 2));
        let hyp = "S a b c d e\nA 1 3|||R:X|||B C|||REQUIRED|||-NONE-|||0\n";
        let s = stats(hyp, REF);
        assert_eq!((s.dependent[0].fp.len(), s.dependent[1].tp.len()), (1, 1));
        assert_eq!(s.independent.tp, vec![2]);
    }

    #[test]
    fn misses_dependent_and_independent() {
        let hyp = "S a b c d e\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n";
        let only_one = "S a b c d e\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n";
        let s = stats(hyp, only_one);
        assert_eq!(s.dependent[0].fn_, vec![1]);
        assert!(s.dependent[1].fn_.is_empty());
        // Independent: a miss only if every reference changed the chunk.
        assert!(s.independent.fn_.is_empty());
        assert_eq!(s.independent.tn, 2);
    }

    #[test]
    fn insertions_are_zero_length_chunks() {
        let hyp = "S a b\nA 0 0|||M:X|||z|||REQUIRED|||-NONE-|||0\n";
        let reference = "S a b\nA 0 0|||M:X|||z|||REQUIRED|||-NONE-|||0\n";
        let s = stats(hyp, reference);
        assert_eq!(s.dependent[0].tp, vec![1]);
        assert_eq!(s.dependent[0].tn, 1);
    }

    #[test]
    fn weights_follow_the_paper() {
        let w = Weights::CORPUS;
        // At the mean length a weight is alpha / alpha = 1.
        assert!((w.weigh(2, 2.0, w.tp, false) - 1.0).abs() < 1e-12);
        assert_eq!(w.weigh(1, 3.0, w.tp, false), 0.75);
        assert_eq!(w.weigh(9, 3.0, w.tp, false), 1.25);
        assert_eq!(w.weigh(9, 3.0, w.fp, true), 0.75);
        let s = Weights::sentence(true);
        assert_eq!(s.weigh(1, 5.0, s.tp, false), 2.5);
        assert_eq!(s.weigh(1, 5.0, s.fn_, false), 1.0);
    }

    #[test]
    fn corpus_fold_prefers_the_better_reference() {
        let hyp = "S a b c d e\nA 1 3|||R:X|||B C|||REQUIRED|||-NONE-|||0\n";
        let (h, r) = (parse(hyp, "h").unwrap(), parse(REF, "r").unwrap());
        let rep = score(&h, &r, &Options::default()).unwrap();
        let d = &rep.dependent.corpus_unweighted;
        assert_eq!((d.tp, d.fp, d.fn_, d.tn), (1.0, 0.0, 0.0, 2.0));
        assert_eq!((d.p, d.r, d.f), (1.0, 1.0, 1.0));
        assert_eq!(rep.mean_length, 2.5);
    }

    #[test]
    fn bad_annotator_order_and_overlaps_are_errors() {
        let err = |h: &str, r: &str| first_sentence(h, r).unwrap_err().to_string();
        let e = err(
            "S a b\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||1\n",
            "S a b\n",
        );
        assert!(e.starts_with("h:2: annotator id 1 is out of order"), "{e}");
        let e = err("S \n", "S \n");
        assert!(e.starts_with("h:1: an empty source sentence"), "{e}");
        // Found by fuzzing: an annotator id of -1 first.
        let e = err(
            "S a b\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||-1\n",
            "S a b\n",
        );
        assert!(e.starts_with("h:2: annotator id -1 is out of order"), "{e}");
        let overlap = "S a b c\nA 0 2|||R:X|||z|||REQUIRED|||-NONE-|||0\nA 1 2|||R:X|||y|||REQUIRED|||-NONE-|||0\n";
        let e = err(overlap, overlap);
        assert!(e.contains("overlaps"), "{e}");
    }
}
