//! ERRANT's span-based F-score, as `errant_compare -hyp HYP -ref REF` (ERRANT 3.0.2) computes
//! and prints it.
//!
//! Per sentence every (hypothesis annotator, reference annotator) pair is counted; the pair
//! whose counts give the best corpus F so far (rounded to 4 decimals; ties: more TP, fewer
//! FP, fewer FN, then the first) is kept. Edits are keyed by span and correction (or span
//! only, or one key per token, for detection); a key written twice counts twice.
//! [`sentence_stats`] are the per-pair counts of one sentence and merge by concatenation;
//! [`fold`] replays the original's greedy choice over them in sentence order.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::m2::{split, Document, Edit};
use crate::pyfloat;
use crate::Error;

/// What an edit must match to count (the original's `-cs`, `-cse`, `-ds`, `-dt`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Span and correction (`-cs`, the default).
    #[default]
    Correction,
    /// Span, correction and error type (`-cse`).
    CorrectionTyped,
    /// Span only (`-ds`).
    DetectionSpan,
    /// Each token of the span (`-dt`; an insertion counts as the token after it).
    DetectionToken,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Correction => "cs",
            Mode::CorrectionTyped => "cse",
            Mode::DetectionSpan => "ds",
            Mode::DetectionToken => "dt",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Mode::Correction => " Span-Based Correction ",
            Mode::CorrectionTyped => " Span-Based Correction + Classification ",
            Mode::DetectionSpan => " Span-Based Detection ",
            Mode::DetectionToken => " Token-Based Detection ",
        }
    }
}

/// The original's options other than the files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub beta: f64,
    pub mode: Mode,
    /// Only edits of one token or less on each side (`-single`).
    pub single: bool,
    /// Only edits of two tokens or more on a side (`-multi`).
    pub multi: bool,
    /// Error types left out (`-filt`).
    pub filter: Vec<String>,
    /// ChERRANT's `compare_m2_for_evaluation.py` instead: target lines allowed (every
    /// alternative's edits pooled under its reference), spaces removed from corrections, and
    /// a sentence whose only reference is one `NA` edit left out.
    pub cherrant: bool,
    /// ChERRANT's `--max_answer_num` (1 to 3): only annotators below it.
    pub max_answers: Option<u8>,
    /// ChERRANT's `--reference_num`: only sentences with exactly this many references.
    pub references: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            beta: 0.5,
            mode: Mode::Correction,
            single: false,
            multi: false,
            filter: Vec::new(),
            cherrant: false,
            max_answers: None,
            references: None,
        }
    }
}

/// Per error type: TP, FP, FN.
pub type Categories = BTreeMap<String, [u64; 3]>;

/// The counts of one (hypothesis annotator, reference annotator) pair in one sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub hyp: i64,
    #[serde(rename = "ref")]
    pub reference: i64,
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    /// Error types in the order the original meets them.
    pub categories: Vec<(String, [u64; 3])>,
}

/// Every pair of one sentence, hypothesis annotators outer, in the order they first appear.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentenceStats {
    pub pairs: Vec<Pair>,
}

/// Corpus counts and scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub p: f64,
    pub r: f64,
    pub f: f64,
}

/// The result of [`fold`]: the corpus score, per-type counts, and per sentence the index of
/// the pair chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub score: Score,
    pub categories: Categories,
    pub chosen: Vec<usize>,
}

/// An edit's key: span (always), then type and correction where the mode compares them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key<'a> {
    start: i64,
    end: i64,
    kind: Option<&'a str>,
    correction: Option<&'a str>,
}

/// One annotator's keys in first-seen order, each with the types written under it.
type Keyed<'a> = Vec<(Key<'a>, Vec<&'a str>)>;

fn insert<'a>(keyed: &mut Keyed<'a>, key: Key<'a>, kind: &'a str) {
    match keyed.iter_mut().find(|(k, _)| *k == key) {
        Some((_, kinds)) => kinds.push(kind),
        None => keyed.push((key, vec![kind])),
    }
}

/// `process_edits`: the annotators of one sentence, in first-seen order, with their keys.
fn process<'a>(edits: &'a [Edit], opts: &Options) -> Vec<(i64, Keyed<'a>)> {
    const NOOP: (i64, i64, &str, &str, i64) = (-1, -1, "noop", "-NONE-", 0);
    let fields: Vec<(i64, i64, &str, &str, i64)> = if edits.is_empty() {
        vec![NOOP]
    } else {
        edits
            .iter()
            .map(|e| (e.start, e.end, &*e.kind, &*e.correction, e.annotator))
            .collect()
    };
    let mut coders: Vec<(i64, Keyed)> = Vec::new();
    for (start, end, kind, correction, coder) in fields {
        let at = match coders.iter().position(|(c, _)| *c == coder) {
            Some(i) => i,
            None => {
                coders.push((coder, Vec::new()));
                coders.len() - 1
            }
        };
        let keyed = &mut coders[at].1;
        let detection = matches!(opts.mode, Mode::DetectionSpan | Mode::DetectionToken);
        let cor_len = split(correction).count();
        if (!detection && kind == "UNK")
            || (opts.single && (end - start >= 2 || cor_len >= 2))
            || (opts.multi && end - start < 2 && cor_len < 2)
            || opts.filter.iter().any(|f| f == kind)
        {
            continue;
        }
        let span = |start, end| Key {
            start,
            end,
            kind: None,
            correction: None,
        };
        match opts.mode {
            Mode::DetectionToken if start == -1 => insert(keyed, span(start, start), kind),
            Mode::DetectionToken if start == end && start >= 0 => {
                insert(keyed, span(start, start + 1), kind)
            }
            Mode::DetectionToken => {
                for t in start..end {
                    insert(keyed, span(t, t + 1), kind);
                }
            }
            Mode::DetectionSpan => insert(keyed, span(start, end), kind),
            Mode::CorrectionTyped => insert(
                keyed,
                Key {
                    kind: Some(kind),
                    correction: Some(correction),
                    ..span(start, end)
                },
                kind,
            ),
            Mode::Correction => insert(
                keyed,
                Key {
                    correction: Some(correction),
                    ..span(start, end)
                },
                kind,
            ),
        }
    }
    coders
}

fn bump(cats: &mut Vec<(String, [u64; 3])>, kind: &str, slot: usize) {
    match cats.iter_mut().find(|(k, _)| k == kind) {
        Some((_, c)) => c[slot] += 1,
        None => {
            let mut c = [0; 3];
            c[slot] = 1;
            cats.push((kind.to_string(), c));
        }
    }
}

/// `compareEdits`: TP (counted with the reference's multiplicity), FP, FN of one pair.
fn compare_pair(hyp: &Keyed, reference: &Keyed) -> (u64, u64, u64, Vec<(String, [u64; 3])>) {
    let (mut tp, mut fp, mut fn_) = (0, 0, 0);
    let mut cats = Vec::new();
    let find = |keyed: &'_ Keyed, key: &Key| keyed.iter().position(|(k, _)| k == key);
    for (key, kinds) in hyp {
        if kinds[0] == "noop" {
            continue;
        }
        match find(reference, key) {
            Some(i) => {
                for kind in &reference[i].1 {
                    tp += 1;
                    bump(&mut cats, kind, 0);
                }
            }
            None => {
                for kind in kinds {
                    fp += 1;
                    bump(&mut cats, kind, 1);
                }
            }
        }
    }
    for (key, kinds) in reference {
        if kinds[0] == "noop" || find(hyp, key).is_some() {
            continue;
        }
        for kind in kinds {
            fn_ += 1;
            bump(&mut cats, kind, 2);
        }
    }
    (tp, fp, fn_, cats)
}

/// Every pair's counts for one sentence (none when ChERRANT's rules leave it out).
pub fn sentence_stats(hyp: &[Edit], reference: &[Edit], opts: &Options) -> SentenceStats {
    let prepared = |edits: &[Edit]| -> Vec<Edit> {
        edits
            .iter()
            .filter(|e| {
                opts.max_answers
                    .is_none_or(|k| (0..i64::from(k)).contains(&e.annotator))
            })
            .map(|e| Edit {
                correction: e.correction.replace(' ', ""),
                ..e.clone()
            })
            .collect()
    };
    let (hyp, reference) = if opts.cherrant {
        (
            std::borrow::Cow::Owned(prepared(hyp)),
            std::borrow::Cow::Owned(prepared(reference)),
        )
    } else {
        (hyp.into(), reference.into())
    };
    let hyps = process(&hyp, opts);
    let refs = process(&reference, opts);
    if opts.cherrant {
        let only_na = refs.len() == 1 && refs[0].1.len() == 1 && refs[0].1[0].1[0] == "NA";
        if only_na || opts.references.is_some_and(|n| n != refs.len()) {
            return SentenceStats { pairs: Vec::new() };
        }
    }
    let mut pairs = Vec::with_capacity(hyps.len() * refs.len());
    for (h, hk) in &hyps {
        for (r, rk) in &refs {
            let (tp, fp, fn_, categories) = compare_pair(hk, rk);
            pairs.push(Pair {
                hyp: *h,
                reference: *r,
                tp,
                fp,
                fn_,
                categories,
            });
        }
    }
    SentenceStats { pairs }
}

/// The statistics of every sentence of two aligned M2 files.
pub fn corpus_stats(
    hyp: &Document,
    reference: &Document,
    opts: &Options,
) -> Result<Vec<SentenceStats>, Error> {
    check_aligned(hyp, reference)?;
    if !opts.cherrant {
        if let Some(d) = [hyp, reference].into_iter().find(|d| d.has_targets) {
            return Err(Error::Config(format!(
                "{} has ChERRANT target lines (T0-A0 ...), which errant_compare cannot read; score it with --cherrant (ChERRANT's compare_m2_for_evaluation)",
                d.path
            )));
        }
    }
    Ok(hyp
        .sentences
        .iter()
        .zip(&reference.sentences)
        .map(|(h, r)| sentence_stats(&h.edits, &r.edits, opts))
        .collect())
}

/// Both files must have the same sentences in the same order.
pub fn check_aligned(hyp: &Document, reference: &Document) -> Result<(), Error> {
    if hyp.sentences.len() != reference.sentences.len() {
        return Err(Error::Count {
            hyp: hyp.path.clone(),
            hyp_sentences: hyp.sentences.len(),
            reference: reference.path.clone(),
            ref_sentences: reference.sentences.len(),
        });
    }
    for (h, r) in hyp.sentences.iter().zip(&reference.sentences) {
        if h.source != r.source && split(&h.source).ne(split(&r.source)) {
            return Err(Error::Format {
                path: hyp.path.clone(),
                line: h.line,
                message: format!(
                    "this source differs from the one at {}:{}; both files must list the same sentences in the same order",
                    reference.path, r.line
                ),
            });
        }
    }
    Ok(())
}

/// ERRANT's span F as a [`green_metric::Metric`]: the original's greedy fold at `beta`.
#[derive(Debug, Clone, Copy)]
pub struct Errant {
    pub beta: f64,
}

impl green_metric::Checked for SentenceStats {
    /// At least one annotator pair, whose per-type counts add up to no more than its totals.
    fn check(&self) -> Result<(), String> {
        if self.pairs.is_empty() {
            return Err("ERRANT statistics without an annotator pair".into());
        }
        for p in &self.pairs {
            if [p.tp, p.fp, p.fn_]
                .iter()
                .any(|&c| c > green_metric::MAX_COUNT)
            {
                return Err(format!(
                    "ERRANT counts of pair {}-{} larger than a sentence can have",
                    p.hyp, p.reference
                ));
            }
            let mut sums = [0u64; 3];
            for (_, counts) in &p.categories {
                for (sum, c) in sums.iter_mut().zip(counts) {
                    *sum = sum
                        .checked_add(*c)
                        .ok_or("ERRANT counts too large to add")?;
                }
            }
            if sums[0] > p.tp || sums[1] > p.fp || sums[2] > p.fn_ {
                return Err(format!(
                    "ERRANT counts of pair {}-{}: its error types add up to more than its totals",
                    p.hyp, p.reference
                ));
            }
        }
        Ok(())
    }
}

impl green_metric::Metric for Errant {
    type Stats = SentenceStats;
    type Totals = Report;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> Report {
        fold_refs(stats, self.beta)
    }

    fn score(&self, report: &Report) -> f64 {
        report.score.f
    }
}

/// The original's greedy corpus fold over sentence statistics in order.
pub fn fold(stats: &[SentenceStats], beta: f64) -> Report {
    fold_refs(stats, beta)
}

/// [`fold`] over statistics given by reference (a sentence may come more than once, as in a
/// bootstrap replicate).
pub fn fold_refs<'a>(stats: impl IntoIterator<Item = &'a SentenceStats>, beta: f64) -> Report {
    let (mut tp, mut fp, mut fn_) = (0u64, 0u64, 0u64);
    let mut categories = Categories::new();
    let mut chosen = Vec::new();
    for s in stats {
        let mut best: Option<(usize, f64)> = None;
        for (i, p) in s.pairs.iter().enumerate() {
            let (_, _, f) = pyfloat::prf(
                (tp + p.tp) as f64,
                (fp + p.fp) as f64,
                (fn_ + p.fn_) as f64,
                beta,
            );
            let better = match best {
                None => true,
                Some((b, bf)) => {
                    let q = &s.pairs[b];
                    f > bf
                        || (f == bf && p.tp > q.tp)
                        || (f == bf && p.tp == q.tp && p.fp < q.fp)
                        || (f == bf && p.tp == q.tp && p.fp == q.fp && p.fn_ < q.fn_)
                }
            };
            if better {
                best = Some((i, f));
            }
        }
        let Some((b, _)) = best else {
            chosen.push(usize::MAX);
            continue;
        };
        let p = &s.pairs[b];
        tp += p.tp;
        fp += p.fp;
        fn_ += p.fn_;
        for (kind, c) in &p.categories {
            let t = match categories.get_mut(kind) {
                Some(t) => t,
                None => categories.entry(kind.clone()).or_default(),
            };
            for k in 0..3 {
                t[k] += c[k];
            }
        }
        chosen.push(b);
    }
    let (p, r, f) = pyfloat::prf(tp as f64, fp as f64, fn_ as f64, beta);
    Report {
        score: Score {
            tp,
            fp,
            fn_,
            p,
            r,
            f,
        },
        categories,
        chosen,
    }
}

/// Score a hypothesis M2 file against a reference M2 file.
pub fn score(hyp: &Document, reference: &Document, opts: &Options) -> Result<Report, Error> {
    Ok(fold(&corpus_stats(hyp, reference, opts)?, opts.beta))
}

/// `-cat 1|2|3`: per-type counts by operation (`R`), by main type (`NOUN`) or as written.
pub fn categories_at(categories: &Categories, level: u8) -> Categories {
    let mut out = Categories::new();
    for (kind, c) in categories {
        let name: String = match level {
            _ if kind == "UNK" => kind.clone(),
            1 => kind.chars().take(1).collect(),
            2 => kind.chars().skip(2).collect(),
            _ => kind.clone(),
        };
        let t = out.entry(name).or_default();
        for k in 0..3 {
            t[k] += c[k];
        }
    }
    out
}

/// What `errant_compare` prints, byte for byte (`cat`: the `-cat` level, if any).
pub fn render(report: &Report, opts: &Options, cat: Option<u8>) -> String {
    let title = opts.mode.title();
    let beta = format!("F{}", pyfloat::str(opts.beta));
    let mut out = String::new();
    if let Some(level) = cat {
        let _ = writeln!(out, "\n{}", center(title, 66));
        let _ = writeln!(
            out,
            "{:<14} {:<8} {:<8} {:<8} {:<8} {:<8} {beta}",
            "Category", "TP", "FP", "FN", "P", "R"
        );
        for (kind, c) in categories_at(&report.categories, level) {
            let (p, r, f) = pyfloat::prf(c[0] as f64, c[1] as f64, c[2] as f64, opts.beta);
            let _ = writeln!(
                out,
                "{:<14} {:<8} {:<8} {:<8} {:<8} {:<8} {}",
                kind,
                c[0],
                c[1],
                c[2],
                pyfloat::str(p),
                pyfloat::str(r),
                pyfloat::str(f)
            );
        }
    }
    let s = &report.score;
    let _ = writeln!(out, "\n{}", center(title, 46));
    let _ = writeln!(out, "TP\tFP\tFN\tPrec\tRec\t{beta}");
    let _ = writeln!(
        out,
        "{}\t{}\t{}\t{}\t{}\t{}",
        s.tp,
        s.fp,
        s.fn_,
        pyfloat::str(s.p),
        pyfloat::str(s.r),
        pyfloat::str(s.f)
    );
    let _ = writeln!(out, "{}\n", center("", 46));
    out
}

/// Python's `'{:=^width}'.format(s)`: the extra fill goes right.
fn center(s: &str, width: usize) -> String {
    let pad = width.saturating_sub(s.chars().count());
    format!("{}{s}{}", "=".repeat(pad / 2), "=".repeat(pad - pad / 2))
}

/// The signature of a configuration.
pub fn signature(opts: &Options) -> String {
    let mut s = format!("errant|mode:{}|beta:{}", opts.mode.name(), opts.beta);
    if opts.single {
        s += "|single";
    }
    if opts.multi {
        s += "|multi";
    }
    if !opts.filter.is_empty() {
        s += &format!("|filt:{}", opts.filter.join(","));
    }
    if opts.cherrant {
        s += "|cherrant";
    }
    if let Some(k) = opts.max_answers {
        s += &format!("|max-answers:{k}");
    }
    if let Some(n) = opts.references {
        s += &format!("|references:{n}");
    }
    s + "|v:" + env!("CARGO_PKG_VERSION")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::m2::parse;

    fn doc(text: &str) -> Document {
        parse(text, "t").unwrap()
    }

    const REF: &str = "S a b c d\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\nA 2 3|||U:Y|||-NONE-|||REQUIRED|||-NONE-|||0\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||1\n\nS e f\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n";

    #[test]
    fn statistics_read_back_are_checked() {
        use green_metric::Checked;
        let hyp = "S a b c d\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\n\nS e f\nA 1 2|||R:Q|||g|||REQUIRED|||-NONE-|||0\n";
        let stats = corpus_stats(&doc(hyp), &doc(REF), &Options::default()).unwrap();
        assert!(stats.iter().all(|s| s.check().is_ok()));
        let mut bad = stats[0].clone();
        bad.pairs[0].tp = 0;
        assert!(bad
            .check()
            .unwrap_err()
            .contains("add up to more than its totals"));
        assert!(SentenceStats { pairs: vec![] }.check().is_err());
    }

    #[test]
    fn best_pair_and_counts() {
        let hyp = "S a b c d\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\nA 3 3|||M:Z|||z|||REQUIRED|||-NONE-|||0\n\nS e f\nA 1 2|||R:Q|||g|||REQUIRED|||-NONE-|||0\n";
        let r = score(&doc(hyp), &doc(REF), &Options::default()).unwrap();
        // Sentence 1: annotator 1 (TP 1, FP 1, FN 0) beats 0 (TP 1, FP 1, FN 1).
        assert_eq!(r.chosen, vec![1, 0]);
        assert_eq!((r.score.tp, r.score.fp, r.score.fn_), (1, 2, 0));
        assert_eq!(r.categories["R:X"], [1, 0, 0]);
        assert_eq!(r.categories["R:Q"], [0, 1, 0]);
        let text = render(&r, &Options::default(), Some(1));
        assert!(text.contains("\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n1\t2\t0\t0.3333\t1.0\t0.3846\n==============================================\n\n"), "{text}");
        assert!(
            text.contains("\nR              1        1        0        0.5      1.0      0.5556\n"),
            "{text}"
        );
    }

    #[test]
    fn duplicates_count_twice_and_unk_is_skipped() {
        let reference = "S a b\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n";
        let hyp = "S a b\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\nA 1 2|||UNK|||b|||REQUIRED|||-NONE-|||0\n";
        let s = sentence_stats(
            &doc(hyp).sentences[0].edits,
            &doc(reference).sentences[0].edits,
            &Options::default(),
        );
        assert_eq!((s.pairs[0].tp, s.pairs[0].fp, s.pairs[0].fn_), (2, 0, 0));
        let ds = Options {
            mode: Mode::DetectionSpan,
            ..Options::default()
        };
        let s = sentence_stats(
            &doc(hyp).sentences[0].edits,
            &doc(reference).sentences[0].edits,
            &ds,
        );
        assert_eq!((s.pairs[0].tp, s.pairs[0].fp, s.pairs[0].fn_), (2, 1, 0));
    }

    #[test]
    fn token_detection_splits_spans_and_moves_insertions_right() {
        let reference = "S a b c\nA 0 2|||R:X|||d|||REQUIRED|||-NONE-|||0\n";
        let hyp = "S a b c\nA 1 1|||M:X|||e|||REQUIRED|||-NONE-|||0\n";
        let dt = Options {
            mode: Mode::DetectionToken,
            ..Options::default()
        };
        let s = sentence_stats(
            &doc(hyp).sentences[0].edits,
            &doc(reference).sentences[0].edits,
            &dt,
        );
        assert_eq!((s.pairs[0].tp, s.pairs[0].fp, s.pairs[0].fn_), (1, 0, 1));
    }

    #[test]
    fn misaligned_files_are_an_error() {
        let e = score(&doc("S x\n"), &doc(REF), &Options::default()).unwrap_err();
        assert!(e.to_string().contains("has 1 sentences"), "{e}");
        let e = score(&doc("S a b c e\n\nS e f\n"), &doc(REF), &Options::default()).unwrap_err();
        assert!(e.to_string().starts_with("t:1: this source differs"), "{e}");
    }

    #[test]
    fn cherrant_pools_alternatives_and_skips_na() {
        let reference = "S a b c\nT0-A0 x b c\nA 0 1|||S|||x|||REQUIRED|||-NONE-|||0\nT0-A1 y z b c\nA 0 1|||S|||y z|||REQUIRED|||-NONE-|||0\n\nS d\nT0 no error\nA -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0\n";
        let hyp = "S a b c\nA 0 1|||S|||yz|||REQUIRED|||-NONE-|||0\n\nS d\nA 0 1|||S|||e|||REQUIRED|||-NONE-|||0\n";
        let opts = Options {
            cherrant: true,
            ..Options::default()
        };
        let r = score(&doc(hyp), &doc(reference), &opts).unwrap();
        // "y z" without spaces matches the hypothesis; the NA sentence counts nothing.
        assert_eq!((r.score.tp, r.score.fp, r.score.fn_), (1, 0, 1));
        assert_eq!(r.chosen[1], usize::MAX);
        let e = score(&doc(hyp), &doc(reference), &Options::default()).unwrap_err();
        assert!(e.to_string().contains("with --cherrant"), "{e}");
        let two = Options {
            references: Some(2),
            ..opts
        };
        assert_eq!(score(&doc(hyp), &doc(reference), &two).unwrap().score.tp, 0);
    }

    #[test]
    fn category_levels() {
        let mut c = Categories::new();
        c.insert("R:NOUN".into(), [1, 0, 0]);
        c.insert("M:NOUN".into(), [0, 1, 0]);
        c.insert("UNK".into(), [0, 0, 1]);
        assert_eq!(categories_at(&c, 2)["NOUN"], [1, 1, 0]);
        assert_eq!(categories_at(&c, 1)["UNK"], [0, 0, 1]);
        assert_eq!(categories_at(&c, 3).len(), 3);
    }
}
