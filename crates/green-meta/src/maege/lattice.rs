//! MAEGE's lattice: every subset of one annotation's edits applied to its sentence.
//!
//! A *unit* is one (sentence, annotation) pair with at least one edit; its lattice has
//! 2^k elements, ordered by inclusion (more valid edits = better). Lattices are never
//! enumerated in full (k reaches 30 on CoNLL-2014): MAEGE samples from them, with a
//! ChaCha8 generator whose stream is derived from the seed, the unit and the purpose of the
//! draw, so every draw is the same on every platform, at any thread count, and for every
//! metric compared.
//!
//! Overlap rule: two edits of one annotation overlap when their source spans share a token
//! (`a.start < b.end && b.start < a.end`; an insertion strictly inside another edit's span
//! counts). Overlapping edits cannot be applied independently, so each connected group of
//! them is **merged** into one edit spanning the whole group, whose correction is the group
//! applied in file order and whose type is the group's types joined by `+`. Insertions at the
//! same point, or at the edge of another edit, do not overlap: they stay separate.

use green_io::m2::{self, Edit, MissingAnnotator, M2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Error;

/// Largest lattice [`Unit::lattice`] enumerates in full.
pub const MAX_ENUMERATE: usize = 20;

/// Which references the metric gets for a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefMode {
    /// Every reference of the sentence (as when scoring a system on the test set).
    All,
    /// Only the unit's own annotation fully applied (the lattice's top).
    Own,
}

/// One annotation of one sentence, ready for sampling.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Index of the sentence in the M2 file.
    pub sentence: usize,
    pub annotator: usize,
    pub tokens: Vec<String>,
    /// Non-overlapping edits sorted by (start, end), overlaps merged.
    pub edits: Vec<Edit>,
    /// The references the metric scores against.
    pub refs: Vec<String>,
}

impl Unit {
    /// The sentence with the edits at `subset` (ascending indices into `edits`) applied.
    pub fn apply(&self, subset: &[usize]) -> String {
        let tokens: Vec<&str> = self.tokens.iter().map(String::as_str).collect();
        m2::apply_edits(&tokens, subset.iter().map(|&i| &self.edits[i]))
    }

    /// Every lattice element as its edit subset (ascending indices), in binary-counting order.
    /// Fails above [`MAX_ENUMERATE`] edits (2^20 elements).
    pub fn lattice(&self) -> Result<Vec<Vec<usize>>, Error> {
        let k = self.edits.len();
        if k > MAX_ENUMERATE {
            return Err(Error::Config(format!(
                "sentence {} annotator {}: {k} edits make 2^{k} lattice elements; MAEGE samples such lattices instead",
                self.sentence + 1,
                self.annotator
            )));
        }
        Ok((0u32..1 << k)
            .map(|mask| (0..k).filter(|i| mask >> i & 1 == 1).collect())
            .collect())
    }
}

/// Build the units of an M2 file: one per annotation (alternative 0) with at least one edit.
/// `strip_spaces` removes every space from the texts the metric sees (character-tokenised
/// M2 such as NLPCC-18 becomes raw text, for word segmenters).
/// `missing` decides which annotators are references under [`RefMode::All`].
pub fn units(m2: &M2, refs: RefMode, strip_spaces: bool, missing: MissingAnnotator) -> Vec<Unit> {
    let mut out = Vec::new();
    for (s, sent) in m2.sentences.iter().enumerate() {
        let tokens: Vec<String> = sent.tokens().iter().map(|t| t.to_string()).collect();
        let all_refs = sent.references(missing);
        for a in sent.primary(missing) {
            let edits = merge_overlaps(&tokens, &a.edits);
            if edits.is_empty() {
                continue;
            }
            let mut unit = Unit {
                sentence: s,
                annotator: a.annotator,
                tokens: tokens.clone(),
                edits,
                refs: Vec::new(),
            };
            unit.refs = match refs {
                RefMode::All => all_refs.clone(),
                RefMode::Own => vec![unit.apply(&(0..unit.edits.len()).collect::<Vec<_>>())],
            };
            if strip_spaces {
                unit.refs.iter_mut().for_each(|r| r.retain(|c| c != ' '));
            }
            out.push(unit);
        }
    }
    out
}

/// Sort edits by (start, end) (file order on ties) and merge overlapping groups (module docs).
pub fn merge_overlaps(tokens: &[String], edits: &[Edit]) -> Vec<Edit> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut groups: Vec<Vec<&Edit>> = Vec::new();
    let mut group_end = 0;
    for e in sorted {
        match groups.last_mut() {
            Some(g)
                if e.start < group_end && g.iter().any(|o| e.start < o.end && o.start < e.end) =>
            {
                g.push(e);
                group_end = group_end.max(e.end);
            }
            _ => {
                groups.push(vec![e]);
                group_end = e.end;
            }
        }
    }
    groups
        .into_iter()
        .map(|g| {
            if g.len() == 1 {
                return g[0].clone();
            }
            let start = g.iter().map(|e| e.start).min().unwrap_or(0);
            let end = g.iter().map(|e| e.end).max().unwrap_or(start);
            let span: Vec<&str> = tokens[start..end].iter().map(String::as_str).collect();
            // Apply in file order, relative to the span.
            let mut in_file_order = g.clone();
            in_file_order.sort_by_key(|e| e.line);
            let shifted: Vec<Edit> = in_file_order
                .iter()
                .map(|e| Edit {
                    start: e.start - start,
                    end: e.end - start,
                    ..(*e).clone()
                })
                .collect();
            let mut kinds: Vec<&str> = Vec::new();
            for e in &in_file_order {
                if !kinds.contains(&e.kind.as_str()) {
                    kinds.push(&e.kind);
                }
            }
            Edit {
                start,
                end,
                kind: kinds.join("+"),
                correction: m2::apply_edits(&span, &shifted),
                annotator: g[0].annotator,
                line: in_file_order[0].line,
            }
        })
        .collect()
}

/// What a draw is for: each gets its own random stream.
#[derive(Debug, Clone, Copy)]
pub enum Purpose {
    Source = 0,
    Chain = 1,
    Corpus = 2,
    /// GLEU's per-iteration choice of one reference per sentence.
    Reference = 3,
}

/// The generator of one draw: seeded by `seed`, stream by (repetition, unit, purpose).
pub fn rng(seed: u64, rep: usize, unit: usize, purpose: Purpose) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(((rep as u64) << 40) ^ ((unit as u64) << 2) ^ purpose as u64);
    r
}

/// A uniformly random lattice element (each edit in with probability 1/2), or the empty set
/// (the original sentence) when `precision` is set.
pub fn random_source(k: usize, precision: bool, rng: &mut ChaCha8Rng) -> Vec<usize> {
    if precision {
        return Vec::new();
    }
    (0..k).filter(|_| rng.gen_bool(0.5)).collect()
}

/// The edits not in `source`, in a uniformly random order (Fisher–Yates on u32 draws, so the
/// order does not depend on the platform's word size).
pub fn random_chain(k: usize, source: &[usize], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut rest: Vec<usize> = (0..k).filter(|i| !source.contains(i)).collect();
    for i in (1..rest.len()).rev() {
        let j = rng.gen_range(0..=i as u32) as usize;
        rest.swap(i, j);
    }
    rest
}

/// Chain element `j` (0 = the source): the source plus the first `j` chain edits, ascending.
pub fn chain_element(source: &[usize], chain: &[usize], j: usize) -> Vec<usize> {
    let mut v: Vec<usize> = source.iter().chain(&chain[..j]).copied().collect();
    v.sort_unstable();
    v
}

/// The corpus draw for an expected `m` edits beyond the source: each of the `r` remaining
/// edits is added independently with probability min(1, m / r), i.e. Binomial(r, min(1, m/r))
/// edits chosen uniformly — MAEGE's binomial with mean m, clipped at the r edits there are.
pub fn corpus_draw(k: usize, source: &[usize], m: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let rest: Vec<usize> = (0..k).filter(|i| !source.contains(i)).collect();
    let p = if rest.is_empty() {
        0.0
    } else {
        (m as f64 / rest.len() as f64).min(1.0)
    };
    let mut v: Vec<usize> = source.to_vec();
    v.extend(rest.into_iter().filter(|_| rng.gen_bool(p)));
    v.sort_unstable();
    v
}
