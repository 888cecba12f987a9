//! Per-sentence statistics, the greedy annotator choice, and P/R/F as the m2scorer computes
//! them.
//!
//! A sentence's sufficient statistics are one (correct, proposed, gold) triple per competing
//! annotator. The corpus score folds them in sentence order: each sentence takes the annotator
//! that maximises the corpus F so far (ties: more correct, then smaller proposed + β²·gold,
//! then the first in the original's order, that of its Python 2 dict: see `gold`). The fold
//! is sequential by definition; the statistics are computed in parallel, so results are
//! identical at any thread count.

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::gold::{Alternatives, Gold, GoldEdit, GoldSentence};
use crate::lattice;
use crate::lower52::LOWER;
use crate::search::Search;
use crate::text::split;
use crate::Error;

/// The original's options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub beta: f64,
    /// Most unchanged tokens inside one merged system edit.
    pub max_unchanged_words: i64,
    /// Drop system edits that only change spaces or letter case.
    pub ignore_whitespace_casing: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            beta: 0.5,
            max_unchanged_words: 2,
            ignore_whitespace_casing: false,
        }
    }
}

/// Edit counts; they add up exactly over sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub correct: u64,
    pub proposed: u64,
    pub gold: u64,
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            correct: self.correct + o.correct,
            proposed: self.proposed + o.proposed,
            gold: self.gold + o.gold,
        }
    }
}

/// Precision, recall and F_β.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub precision: f64,
    pub recall: f64,
    pub f: f64,
}

impl Counts {
    /// P = C/E (1 when E = 0), R = C/G (1 when G = 0), F from P and R (0 when both are 0).
    pub fn score(&self, beta: f64) -> Score {
        let (c, e, g) = (self.correct as f64, self.proposed as f64, self.gold as f64);
        let p = if e == 0.0 { 1.0 } else { c / e };
        let r = if g == 0.0 { 1.0 } else { c / g };
        let b2 = beta * beta;
        let den = b2 * p + r;
        let f = if den == 0.0 {
            0.0
        } else {
            (1.0 + b2) * p * r / den
        };
        Score {
            precision: p,
            recall: r,
            f,
        }
    }
}

/// One system edit: source tokens `start..end` (`original`) became `correction`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemEdit {
    pub start: usize,
    pub end: usize,
    pub original: String,
    pub correction: String,
}

impl SystemEdit {
    /// The edit without the tokens it keeps at both ends, as the original's verbose output
    /// prints it (`shrinkEdit`); the full edit is what was matched against the gold edits.
    pub fn shrunk(&self) -> SystemEdit {
        let o: Vec<&str> = split(&self.original).collect();
        let c: Vec<&str> = split(&self.correction).collect();
        let short = o.len().min(c.len());
        let head = o.iter().zip(&c).take_while(|(a, b)| a == b).count();
        let tail = o
            .iter()
            .rev()
            .zip(c.iter().rev())
            .take(short - head)
            .take_while(|(a, b)| a == b)
            .count();
        SystemEdit {
            start: self.start + head,
            end: self.end - tail,
            original: o[head..o.len() - tail].join(" "),
            correction: c[head..c.len() - tail].join(" "),
        }
    }
}

/// What one annotator makes of a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub annotator: i64,
    pub counts: Counts,
    /// The system's edit sequence chosen against this annotator.
    pub edits: Vec<SystemEdit>,
}

/// Sufficient statistics of one sentence: a candidate per annotator, in the gold sentence's
/// order (the original's, which decides ties).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentenceStats {
    pub candidates: Vec<Candidate>,
}

/// The statistics of one sentence (`source` and `hypothesis` are split on whitespace).
pub fn sentence_stats<'a>(
    gold: &'a GoldSentence,
    hypothesis: &'a str,
    opts: &Options,
) -> Result<SentenceStats, Error> {
    let src: Vec<&str> = split(&gold.source).collect();
    let hyp: Vec<&str> = split(hypothesis).collect();
    let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
    let mut intern = |t: &'a str| {
        let n = ids.len() as u32;
        *ids.entry(t).or_insert(n)
    };
    let src_ids: Vec<u32> = src.iter().map(|t| intern(t)).collect();
    let hyp_ids: Vec<u32> = hyp.iter().map(|t| intern(t)).collect();
    let lat = lattice::build(&src_ids, &hyp_ids, opts.max_unchanged_words)?;
    let search = Search::new(lat, src, hyp);
    let candidates = gold
        .annotators
        .iter()
        .map(|a| {
            let mut path = search.best_path(&a.edits);
            if opts.ignore_whitespace_casing {
                path.retain(|&id| {
                    let (_, _, o, c) = search.texts(id);
                    folded(o) != folded(c)
                });
            }
            let correct = matched(&search, &path, &a.edits);
            let edits = path
                .iter()
                .map(|&id| {
                    let (start, end, o, c) = search.texts(id);
                    SystemEdit {
                        start,
                        end,
                        original: o.join(" "),
                        correction: c.join(" "),
                    }
                })
                .collect();
            Candidate {
                annotator: a.id,
                counts: Counts {
                    correct,
                    proposed: path.len() as u64,
                    gold: a.edits.len() as u64,
                },
                edits,
            }
        })
        .collect();
    Ok(SentenceStats { candidates })
}

/// The original's `matchSeq`: each system edit scans the gold edits from just after the last
/// match to the end, counting every match (no break).
fn matched(search: &Search, path: &[u32], gold: &[GoldEdit]) -> u64 {
    let mut correct = 0;
    let mut last = 0;
    for &id in path {
        for (i, g) in gold.iter().enumerate().skip(last) {
            if search.matches(id, g) {
                correct += 1;
                last = i + 1;
            }
        }
    }
    correct
}

/// Tokens joined without spaces and lower-cased as the original's Python 2.7 does
/// (`unicode.lower()`: Unicode 5.2, one code point to one, so İ becomes i and there is no
/// final-sigma rule). Today's Unicode lower-cases about 400 more code points (Cherokee,
/// Georgian Mtavruli, ...), which would make edits "only casing" that the original counts.
fn folded(tokens: &[&str]) -> String {
    tokens
        .iter()
        .flat_map(|t| t.chars())
        .filter(|&c| c != ' ')
        .map(lower)
        .collect()
}

/// Python 2.7's lower case of one code point, from the frozen table.
fn lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    match LOWER.binary_search_by_key(&c, |&(upper, _)| upper) {
        Ok(i) => LOWER[i].1,
        Err(_) => c,
    }
}

/// The corpus fold: running totals and the greedy annotator choice.
#[derive(Debug, Clone, Copy)]
pub struct Fold {
    beta: f64,
    totals: Counts,
}

impl Fold {
    pub fn new(beta: f64) -> Self {
        Fold {
            beta,
            totals: Counts::default(),
        }
    }

    pub fn totals(&self) -> Counts {
        self.totals
    }

    /// Add a sentence; returns the index of the chosen candidate.
    pub fn push(&mut self, s: &SentenceStats) -> usize {
        let b2 = self.beta * self.beta;
        let (mut best_f, mut best_c, mut best_e, mut best_g) =
            (-1.0f64, -1.0f64, f64::INFINITY, f64::INFINITY);
        let mut chosen = 0;
        for (k, cand) in s.candidates.iter().enumerate() {
            let t = self.totals + cand.counts;
            let (c, e, g) = (t.correct as f64, t.proposed as f64, t.gold as f64);
            let den = b2 * g + e;
            let f = if den == 0.0 {
                if c == 0.0 {
                    1.0
                } else {
                    0.0
                }
            } else {
                (1.0 + b2) * c / den
            };
            if best_f < f
                || (best_f == f && best_c < c)
                || (best_f == f && best_c == c && best_e + b2 * best_g > e + b2 * g)
            {
                (best_f, best_c, best_e, best_g) = (f, c, e, g);
                chosen = k;
            }
        }
        if let Some(cand) = s.candidates.get(chosen) {
            self.totals = self.totals + cand.counts;
        }
        chosen
    }
}

/// A sentence's outcome in the corpus score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chosen {
    /// 1-based sentence number.
    pub line: usize,
    pub annotator: i64,
    pub counts: Counts,
    pub edits: Vec<SystemEdit>,
}

/// A corpus score with every sentence's choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub totals: Counts,
    pub score: Score,
    pub sentences: Vec<Chosen>,
}

/// The corpus numbers of a report, as the JSON outputs give them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub precision: f64,
    pub recall: f64,
    pub f: f64,
    pub correct: u64,
    pub proposed: u64,
    pub gold: u64,
}

impl Report {
    pub fn summary(&self) -> Summary {
        Summary {
            precision: self.score.precision,
            recall: self.score.recall,
            f: self.score.f,
            correct: self.totals.correct,
            proposed: self.totals.proposed,
            gold: self.totals.gold,
        }
    }
}

/// Every sentence's statistics, in parallel, in order.
pub fn corpus_stats(
    gold: &Gold,
    hypotheses: &[String],
    opts: &Options,
) -> Result<Vec<SentenceStats>, Error> {
    if hypotheses.len() != gold.sentences.len() {
        return Err(Error::Count {
            hypotheses: hypotheses.len(),
            sentences: gold.sentences.len(),
        });
    }
    gold.sentences
        .par_iter()
        .zip(hypotheses.par_iter())
        .enumerate()
        .map(|(i, (g, h))| {
            sentence_stats(g, h, opts).map_err(|e| Error::Sentence {
                sentence: i + 1,
                line: g.line,
                message: e.to_string(),
            })
        })
        .collect()
}

/// M2 as a [`green_metric::Metric`]: the m2scorer's greedy fold at `beta`, scored by its F.
#[derive(Debug, Clone, Copy)]
pub struct MaxMatch {
    pub beta: f64,
}

impl green_metric::Checked for SentenceStats {
    /// One candidate per annotator (their order is the original's, not derivable from the
    /// ids), each correct edit both proposed and gold.
    fn check(&self) -> Result<(), String> {
        if self.candidates.is_empty() {
            return Err("M2 statistics without an annotator".into());
        }
        let mut ids: Vec<i64> = self.candidates.iter().map(|c| c.annotator).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("M2 statistics with annotator {} twice", w[0]));
        }
        for c in &self.candidates {
            let n = &c.counts;
            let max = green_metric::MAX_COUNT;
            if n.correct > n.proposed || n.correct > n.gold || n.proposed > max || n.gold > max {
                return Err(format!(
                    "M2 counts of annotator {} with {} correct of {} proposed and {} gold edits",
                    c.annotator, n.correct, n.proposed, n.gold
                ));
            }
        }
        Ok(())
    }
}

impl green_metric::Metric for MaxMatch {
    type Stats = SentenceStats;
    type Totals = Counts;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> Counts {
        let mut fold = Fold::new(self.beta);
        for s in stats {
            fold.push(s);
        }
        fold.totals()
    }

    fn score(&self, totals: &Counts) -> f64 {
        totals.score(self.beta).f
    }
}

/// Fold statistics in order into the corpus score.
pub fn fold(stats: &[SentenceStats], beta: f64) -> Report {
    let mut fold = Fold::new(beta);
    let sentences = stats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let k = fold.push(s);
            let cand = s.candidates.get(k);
            Chosen {
                line: i + 1,
                annotator: cand.map_or(0, |c| c.annotator),
                counts: cand.map_or_else(Counts::default, |c| c.counts),
                edits: cand.map_or_else(Vec::new, |c| c.edits.clone()),
            }
        })
        .collect();
    Report {
        totals: fold.totals(),
        score: fold.totals().score(beta),
        sentences,
    }
}

/// Score a system against a gold file.
pub fn score(gold: &Gold, hypotheses: &[String], opts: &Options) -> Result<Report, Error> {
    Ok(fold(&corpus_stats(gold, hypotheses, opts)?, opts.beta))
}

/// The original's three output lines.
pub fn render(score: &Score, beta: f64) -> String {
    format!(
        "Precision   : {:.4}\nRecall      : {:.4}\nF_{:.1}       : {:.4}\n",
        score.precision, score.recall, beta, score.f
    )
}

/// `line, annotator, correct, proposed, gold, system_edits` (JSON `[start, end, original,
/// correction]` lists, shrunk as the original's verbose output prints them), one row per
/// sentence.
pub fn sentence_table(report: &Report) -> String {
    let mut out = String::from("line\tannotator\tcorrect\tproposed\tgold\tsystem_edits\n");
    for s in &report.sentences {
        let edits: Vec<String> = s
            .edits
            .iter()
            .map(|e| {
                let e = e.shrunk();
                format!(
                    "[{}, {}, {}, {}]",
                    e.start,
                    e.end,
                    py_json_str(&e.original),
                    py_json_str(&e.correction)
                )
            })
            .collect();
        out += &format!(
            "{}\t{}\t{}\t{}\t{}\t[{}]\n",
            s.line,
            s.annotator,
            s.counts.correct,
            s.counts.proposed,
            s.counts.gold,
            edits.join(", ")
        );
    }
    out
}

/// A string as Python's `json.dumps(..., ensure_ascii=False)` writes it.
fn py_json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Everything that changes an M2 number.
/// `tokenizer` is `m2scorer-split` for the original's whitespace split; `alternatives` is given
/// when the gold file has target lines.
pub fn signature(opts: &Options, tokenizer: &str, alternatives: Option<Alternatives>) -> String {
    format!(
        "m2|beta:{}|max-unchanged:{}|ws-case:{}|tok:{}{}|v:{}",
        opts.beta,
        opts.max_unchanged_words,
        if opts.ignore_whitespace_casing {
            "ignore"
        } else {
            "keep"
        },
        tokenizer,
        alternatives.map_or(String::new(), |a| format!("|alt:{}", a.name())),
        env!("CARGO_PKG_VERSION")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use green_metric::Checked;

    fn candidate(annotator: i64, correct: u64, proposed: u64, gold: u64) -> Candidate {
        Candidate {
            annotator,
            counts: Counts {
                correct,
                proposed,
                gold,
            },
            edits: Vec::new(),
        }
    }

    #[test]
    fn case_is_folded_as_python_2_7_folds_it() {
        assert!(LOWER.windows(2).all(|w| w[0].0 < w[1].0));
        for (upper, expected) in [
            ('A', 'a'),
            ('a', 'a'),
            ('\u{c9}', '\u{e9}'),
            ('\u{130}', 'i'),
            ('\u{3a3}', '\u{3c3}'),
            ('\u{10a0}', '\u{2d00}'),
            ('\u{10400}', '\u{10428}'),
            // Added after Unicode 5.2: their own lower case there.
            ('\u{1c90}', '\u{1c90}'),
            ('\u{13a0}', '\u{13a0}'),
            ('\u{a7ab}', '\u{a7ab}'),
        ] {
            assert_eq!(lower(upper), expected, "{upper:?}");
        }
        assert_eq!(folded(&["Ab", "\u{130}\u{1c90}"]), "abi\u{1c90}");
    }

    #[test]
    fn statistics_read_back_are_checked() {
        let stats = |candidates| SentenceStats { candidates };
        assert_eq!(
            stats(vec![candidate(8, 1, 2, 1), candidate(0, 0, 2, 0)]).check(),
            Ok(())
        );
        for (bad, why) in [
            (vec![], "without an annotator"),
            (
                vec![
                    candidate(1, 0, 0, 0),
                    candidate(0, 0, 0, 0),
                    candidate(1, 0, 0, 0),
                ],
                "annotator 1 twice",
            ),
            (vec![candidate(0, 2, 1, 2)], "2 correct of 1 proposed"),
            (
                vec![candidate(0, 2, 2, 1)],
                "2 correct of 2 proposed and 1 gold",
            ),
        ] {
            assert!(stats(bad).check().unwrap_err().contains(why), "{why}");
        }
    }
}
