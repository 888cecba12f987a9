//! GoToScorer (Gotou, Nagata, Mita, Tajiri; COLING 2020): chunk F-score where each error
//! weighs by how hard it is, i.e. by how few systems correct it.
//!
//! The reference's edits and every source token become chunks, with an empty chunk before
//! every token for a possible insertion; each reference chunk is then judged against the
//! hypothesis' chunks (correct or not, edited by the system or not) and counted, with its
//! weight, as TP, FP (and FN when the reference edits it), FN or TN, per error type. Corpus
//! level sums the sentences, sentence level is each sentence's own F. The weight file comes
//! from many systems' outputs: a chunk weighs 1 − (share of systems that get it right).
//! Exact to gec-metrics' `GoToScorer` and `gecmetrics-gen-gotoscorer-weight`, including the
//! generator's test of rightness, which compares only the corrected strings (its span test
//! compares the reference chunk with itself), so a chunk is right for a system whose chunks
//! contain the same string anywhere in the sentence. Edits come from M2 files (gec-metrics
//! extracts them with ERRANT; `noop` and `UNK` edits are left out as there).

use serde::{Deserialize, Serialize};

use crate::m2::{Document, Sentence};
use crate::Error;

const DUMMY: &str = "DUMMY:DUMMY";

/// One chunk: a source span, its correction, its type, whether an edit made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub start: usize,
    pub end: usize,
    pub correction: String,
    pub kind: String,
    pub edited: bool,
}

/// An edit as GoToScorer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub correction: String,
    pub kind: String,
}

/// The edits of annotator `annotator` of an M2 sentence, without `noop` and `UNK` edits;
/// errors name the line of a span outside the sentence.
pub fn edits(doc: &Document, s: &Sentence, annotator: i64) -> Result<Vec<Edit>, Error> {
    let n = s.tokens().len() as i64;
    let mut out = Vec::new();
    for e in s
        .edits
        .iter()
        .filter(|e| e.annotator == annotator && e.alternative == 0)
    {
        if e.is_noop_span() || e.kind == "noop" || e.kind == "UNK" {
            continue;
        }
        if !(0 <= e.start && e.start <= e.end && e.end <= n) {
            return Err(Error::Format {
                path: doc.path.clone(),
                line: e.line,
                message: format!(
                    "edit span {} {} is outside the sentence's {n} tokens",
                    e.start, e.end
                ),
            });
        }
        out.push(Edit {
            start: e.start as usize,
            end: e.end as usize,
            correction: e.correction_tokens().join(" "),
            kind: e.kind.clone(),
        });
    }
    Ok(out)
}

/// The source tokens as GoToScorer splits them (`str.split(' ')`).
fn source_tokens(s: &Sentence) -> Vec<&str> {
    s.source.split(' ').collect()
}

/// The chunk sequence of `edits` over `tokens` (`generate_chunks`); `None` for an empty
/// sentence without an edit, where the original fails.
pub fn chunks(edits: &[Edit], tokens: &[&str]) -> Option<Vec<Chunk>> {
    let edit_chunk = |e: &Edit| Chunk {
        start: e.start,
        end: e.end,
        correction: e.correction.clone(),
        kind: e.kind.clone(),
        edited: true,
    };
    let dummy = |start, end, correction: &str| Chunk {
        start,
        end,
        correction: correction.to_string(),
        kind: DUMMY.to_string(),
        edited: false,
    };
    let mut chunks = Vec::new();
    let (mut e, mut word) = (0, 0);
    while word < tokens.len() {
        match edits.get(e) {
            Some(edit) if edit.start == word => {
                chunks.push(edit_chunk(edit));
                e += 1;
                // `word_id = e.o_end - 1`, then `+ 1`.
                word = edit.end;
            }
            _ => {
                chunks.push(dummy(word, word + 1, tokens[word]));
                word += 1;
            }
        }
    }
    if let Some(last) = edits.last().filter(|l| l.start == tokens.len()) {
        chunks.push(edit_chunk(last));
    }
    let end = chunks.last()?.end;
    let mut out = Vec::with_capacity(2 * chunks.len() + 1);
    let mut after_insertion = false;
    for c in chunks {
        if c.start == c.end {
            after_insertion = true;
            out.push(c);
            continue;
        }
        if !after_insertion {
            out.push(dummy(c.start, c.start, ""));
        }
        out.push(c);
        after_insertion = false;
    }
    if !after_insertion {
        out.push(dummy(end, end, ""));
    }
    Some(out)
}

/// Whether the hypothesis gets reference chunk `r` right and whether it edits it
/// (`annotate`).
fn annotate(r: &Chunk, hyp: &[Chunk]) -> (bool, bool) {
    let (mut correct, mut try_edit) = (false, false);
    for h in hyp {
        if (r.start, r.end) == (h.start, h.end) {
            correct = r.correction == h.correction;
            try_edit = h.edited;
            break;
        } else if r.start == r.end {
            correct = true;
        } else if (r.start <= h.start && h.start < r.end) || (h.start <= r.start && r.start < h.end)
        {
            try_edit |= h.edited;
        }
    }
    (correct, try_edit)
}

/// One reference chunk's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Index into [`SentenceStats::types`].
    pub kind: u32,
    pub weight: f64,
    pub correct: bool,
    pub try_edit: bool,
    /// The reference edits the chunk.
    pub edited: bool,
}

/// What one sentence contributes: every reference chunk's outcome, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SentenceStats {
    /// Error types in the order they first appear (the original's dict order).
    pub types: Vec<String>,
    pub chunks: Vec<Outcome>,
}

/// Counts and scores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub tp: f64,
    pub fp: f64,
    #[serde(rename = "fn")]
    pub fn_: f64,
    pub tn: f64,
    pub p: f64,
    pub r: f64,
    pub f: f64,
}

impl Score {
    fn add(&mut self, [tp, fp, fn_, tn]: [f64; 4]) {
        self.tp += tp;
        self.fp += fp;
        self.fn_ += fn_;
        self.tn += tn;
    }

    /// P, R and F as gec-metrics' `Score` computes them (P = 1 without FP, R = 1 without FN).
    fn finish(mut self, beta: f64) -> Score {
        self.p = if self.fp == 0.0 {
            1.0
        } else {
            self.tp / (self.tp + self.fp)
        };
        self.r = if self.fn_ == 0.0 {
            1.0
        } else {
            self.tp / (self.tp + self.fn_)
        };
        let b2 = beta * beta;
        self.f = if self.p + self.r != 0.0 {
            (1.0 + b2) * self.p * self.r / (b2 * self.p + self.r)
        } else {
            0.0
        };
        self
    }
}

/// The statistics of one sentence: hypothesis edits against reference edits over the
/// source `tokens`, each reference chunk weighing `weights[i]` (`None`: 1).
pub fn sentence_stats(
    hyp: &[Edit],
    reference: &[Edit],
    tokens: &[&str],
    weights: Option<&[f64]>,
) -> Result<SentenceStats, String> {
    let empty = || "an empty source sentence without an edit has no chunks".to_string();
    let hyp_chunks = chunks(hyp, tokens).ok_or_else(empty)?;
    let ref_chunks = chunks(reference, tokens).ok_or_else(empty)?;
    if let Some(w) = weights {
        if w.len() != ref_chunks.len() {
            return Err(format!(
                "the weight file gives {} weights, the reference has {} chunks; make the weight file from the same reference",
                w.len(),
                ref_chunks.len()
            ));
        }
    }
    let mut stats = SentenceStats::default();
    for (i, r) in ref_chunks.iter().enumerate() {
        let kind = match stats.types.iter().position(|t| *t == r.kind) {
            Some(k) => k,
            None => {
                stats.types.push(r.kind.clone());
                stats.types.len() - 1
            }
        } as u32;
        let (correct, try_edit) = annotate(r, &hyp_chunks);
        stats.chunks.push(Outcome {
            kind,
            weight: weights.map_or(1.0, |w| w[i]),
            correct,
            try_edit,
            edited: r.edited,
        });
    }
    Ok(stats)
}

/// (TP, FP, FN, TN) of a sentence: per type in chunk order, then the types summed in order.
fn sentence_counts(s: &SentenceStats) -> [f64; 4] {
    let mut per_type = vec![[0.0f64; 4]; s.types.len()];
    for c in &s.chunks {
        let t = &mut per_type[c.kind as usize];
        let w = c.weight;
        match (c.try_edit, c.correct) {
            (true, true) => t[0] += w,
            (true, false) => {
                t[1] += w;
                if c.edited {
                    t[2] += w;
                }
            }
            (false, true) => t[3] += w,
            (false, false) => t[2] += w,
        }
    }
    let mut total = [0.0; 4];
    for t in per_type {
        for k in 0..4 {
            total[k] += t[k];
        }
    }
    total
}

/// Corpus level: the sentences' counts summed in order, then P, R, F.
pub fn corpus<'a>(stats: impl IntoIterator<Item = &'a SentenceStats>, beta: f64) -> Score {
    let mut score = Score::default();
    for s in stats {
        score.add(sentence_counts(s));
    }
    score.finish(beta)
}

/// Sentence level: each sentence's own score.
pub fn sentence(s: &SentenceStats, beta: f64) -> Score {
    let mut score = Score::default();
    score.add(sentence_counts(s));
    score.finish(beta)
}

/// Every sentence's statistics for a hypothesis M2 file against annotator `ref_id` of a
/// reference M2 file, with the weights of a weight file (`None`: all 1).
pub fn corpus_stats(
    hyp: &Document,
    reference: &Document,
    ref_id: i64,
    weights: Option<&[WeightEntry]>,
) -> Result<Vec<SentenceStats>, Error> {
    crate::compare::check_aligned(hyp, reference)?;
    if let Some(w) = weights {
        if w.len() < hyp.sentences.len() {
            return Err(Error::Config(format!(
                "the weight file has {} sentences, the corpus {}",
                w.len(),
                hyp.sentences.len()
            )));
        }
    }
    (hyp.sentences.iter().zip(&reference.sentences).enumerate())
        .map(|(i, (h, r))| {
            let he = edits(hyp, h, 0)?;
            let re = reference_edits(reference, r, ref_id)?;
            sentence_stats(
                &he,
                &re,
                &source_tokens(h),
                weights.map(|w| &w[i].weights[..]),
            )
            .map_err(|message| Error::Format {
                path: hyp.path.clone(),
                line: h.line,
                message,
            })
        })
        .collect()
}

/// Annotator `ref_id`'s edits, an error when the sentence has no such annotator.
fn reference_edits(doc: &Document, s: &Sentence, ref_id: i64) -> Result<Vec<Edit>, Error> {
    let annotators = s.edits.iter().map(|e| e.annotator).max().unwrap_or(0) + 1;
    if ref_id >= annotators {
        return Err(Error::Format {
            path: doc.path.clone(),
            line: s.line,
            message: format!(
                "GoToScorer reads reference {ref_id}, this sentence has {annotators}; choose another --ref-id"
            ),
        });
    }
    edits(doc, s, ref_id)
}

/// One sentence of a weight file: per reference chunk, per system, 1 if the system gets it
/// right; and the chunk's weight, 1 − the share of systems that get it right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightEntry {
    pub evaluations: Vec<Vec<u8>>,
    pub weights: Vec<f64>,
}

/// The weight file's entry of one sentence (`annotate_weight`): rightness compares the
/// corrected strings only, as the generator does.
pub fn weight_entry(
    reference: &[Edit],
    hyps: &[Vec<Edit>],
    tokens: &[&str],
) -> Result<WeightEntry, String> {
    let empty = || "an empty source sentence without an edit has no chunks".to_string();
    let ref_chunks = chunks(reference, tokens).ok_or_else(empty)?;
    let mut evaluations = vec![Vec::with_capacity(hyps.len()); ref_chunks.len()];
    for h in hyps {
        let hyp_chunks = chunks(h, tokens).ok_or_else(empty)?;
        for (e, r) in evaluations.iter_mut().zip(&ref_chunks) {
            e.push(u8::from(
                hyp_chunks.iter().any(|c| c.correction == r.correction),
            ));
        }
    }
    let weights = evaluations
        .iter()
        .map(|e| {
            let right: u64 = e.iter().map(|&x| u64::from(x)).sum();
            1.0 - right as f64 / e.len() as f64
        })
        .collect();
    Ok(WeightEntry {
        evaluations,
        weights,
    })
}

/// The weight file of a corpus: annotator `ref_id` of `reference` against every hypothesis.
pub fn weight_file(
    reference: &Document,
    ref_id: i64,
    hyps: &[Document],
) -> Result<Vec<WeightEntry>, Error> {
    for h in hyps {
        crate::compare::check_aligned(h, reference)?;
    }
    (reference.sentences.iter().enumerate())
        .map(|(i, r)| {
            let re = reference_edits(reference, r, ref_id)?;
            let he = hyps
                .iter()
                .map(|d| edits(d, &d.sentences[i], 0))
                .collect::<Result<Vec<_>, _>>()?;
            weight_entry(&re, &he, &source_tokens(r)).map_err(|message| Error::Format {
                path: reference.path.clone(),
                line: r.line,
                message,
            })
        })
        .collect()
}

/// The signature of a configuration.
pub fn signature(beta: f64, ref_id: i64, weighted: bool) -> String {
    format!(
        "gotoscorer|beta:{beta}|ref:{ref_id}|weights:{}|v:{}",
        if weighted { "file" } else { "none" },
        env!("CARGO_PKG_VERSION")
    )
}

/// GoToScorer as a [`green_metric::Metric`]: corpus F at `beta`; sentence scores are each
/// sentence's F.
#[derive(Debug, Clone, Copy)]
pub struct GoToScorer {
    pub beta: f64,
}

impl green_metric::Checked for SentenceStats {
    /// Every chunk names a type of the sentence and weighs a finite, non-negative amount.
    fn check(&self) -> Result<(), String> {
        let types = self.types.len() as u64;
        for c in &self.chunks {
            if u64::from(c.kind) >= types {
                return Err("GoToScorer statistics with a chunk of an unknown type".into());
            }
            if !(c.weight.is_finite() && c.weight >= 0.0) {
                return Err(format!(
                    "GoToScorer statistics with a chunk weight of {}",
                    c.weight
                ));
            }
        }
        Ok(())
    }
}

impl green_metric::Metric for GoToScorer {
    type Stats = SentenceStats;
    type Totals = Score;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> Score {
        corpus(stats, self.beta)
    }

    fn score(&self, s: &Score) -> f64 {
        s.f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, c: &str, kind: &str) -> Edit {
        Edit {
            start,
            end,
            correction: c.into(),
            kind: kind.into(),
        }
    }

    #[test]
    fn chunks_as_the_original_cuts_them() {
        // gec-metrics' test: 'This sentences contain gramamtical error .' →
        // 'This sentence contains a grammatical error .'
        let tokens: Vec<&str> = "This sentences contain gramamtical error ."
            .split(' ')
            .collect();
        let e = [
            edit(1, 2, "sentence", "R:NOUN:NUM"),
            edit(2, 3, "contains", "R:VERB:SVA"),
            edit(3, 3, "a", "M:DET"),
            edit(3, 4, "grammatical", "R:SPELL"),
        ];
        let c = chunks(&e, &tokens).unwrap();
        let spans: Vec<(usize, usize, &str, bool)> = c
            .iter()
            .map(|c| (c.start, c.end, c.correction.as_str(), c.edited))
            .collect();
        assert_eq!(
            spans,
            [
                (0, 0, "", false),
                (0, 1, "This", false),
                (1, 1, "", false),
                (1, 2, "sentence", true),
                (2, 2, "", false),
                (2, 3, "contains", true),
                (3, 3, "a", true),
                (3, 4, "grammatical", true),
                (4, 4, "", false),
                (4, 5, "error", false),
                (5, 5, "", false),
                (5, 6, ".", false),
                (6, 6, "", false),
            ]
        );
        assert_eq!(chunks(&[], &[]), None);
    }

    #[test]
    fn the_originals_test_scores() {
        // gec-metrics' gotoscorer_test (reference 0, no weights): corpus 0.40540540540540543
        // at beta 0.5, sentence scores [0.7894736842105263, 0.0, 1.0].
        let t0: Vec<&str> = "This sentences contain gramamtical error ."
            .split(' ')
            .collect();
        let h0 = [
            edit(1, 2, "sentence", "R:NOUN:NUM"),
            edit(2, 3, "contains", "R:VERB:SVA"),
            edit(3, 3, "a", "M:DET"),
            edit(3, 4, "grammatical", "R:SPELL"),
        ];
        let r0 = [
            edit(1, 2, "sentence", "R:NOUN:NUM"),
            edit(2, 3, "contains", "R:VERB:SVA"),
            edit(3, 3, "a", "M:DET"),
        ];
        let t1: Vec<&str> = "This is a sentence .".split(' ').collect();
        let h1 = [
            edit(0, 1, "this", "R:ORTH"),
            edit(1, 2, "was corrected", "R:VERB"),
            edit(2, 2, "into completely", "M:OTHER"),
            edit(2, 3, "different", "R:OTHER"),
            edit(3, 4, "one", "R:NOUN"),
        ];
        let r1 = [
            edit(0, 4, "dummy sentence", "R:OTHER"),
            edit(4, 5, ".", "R:PUNCT"),
        ];
        let r1 = &r1[..1];
        let t2: Vec<&str> = "This is no change .".split(' ').collect();
        let s = [
            sentence_stats(&h0, &r0, &t0, None).unwrap(),
            sentence_stats(&h1, r1, &t1, None).unwrap(),
            sentence_stats(&[], &[], &t2, None).unwrap(),
        ];
        let f: Vec<f64> = s.iter().map(|s| sentence(s, 0.5).f).collect();
        assert_eq!(f, [0.7894736842105263, 0.0, 1.0]);
    }

    #[test]
    fn weights_count_systems_that_share_the_string() {
        let tokens: Vec<&str> = "a b".split(' ').collect();
        let reference = [edit(1, 2, "B", "R:X")];
        // System 1 writes "B" (at the right place), system 2 nothing, system 3 writes "B" in
        // the wrong place: the generator counts it right too.
        let hyps = [
            vec![edit(1, 2, "B", "R:X")],
            vec![],
            vec![edit(0, 1, "B", "R:X")],
        ];
        let w = weight_entry(&reference, &hyps, &tokens).unwrap();
        // Chunks: '', a, '', B, ''. Empty strings are everywhere: weight 0.
        assert_eq!(w.evaluations[3], [1, 0, 1]);
        assert_eq!(w.weights, [0.0, 1.0 - 2.0 / 3.0, 0.0, 1.0 - 2.0 / 3.0, 0.0]);
    }
}
