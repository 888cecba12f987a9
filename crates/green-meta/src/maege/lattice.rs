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
    /// References the lattice was not built from: the sentence's other annotators, or an extra
    /// reference set (MAEGE's protocol; a unit without one is left out).
    #[serde(rename = "held-out")]
    HeldOut,
}

/// How lattices are sampled and τ is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// This crate's original mode: the source is a random lattice element and chains climb
    /// from it; corpora are drawn per unit with each remaining edit in with probability
    /// min(1, M/r); τ counts metric ties in the denominator.
    Lattice,
    /// Choshen and Abend (2018) as published: sentences an annotator leaves unchanged are
    /// dropped; chains run from the original (∅) to all edits with the source sampled
    /// uniformly among the chain's elements; gold scores are linear from the original's
    /// 1 − min_i |edits_i|/|tokens| to 1; τ = 1 − 2·discordant/pairs; corpora draw per
    /// sentence one annotation and Binomial(n, p) edits with mean M and variance 0.9
    /// (n = ⌊M²/(M − 0.9)⌋, p = (M − 0.9)/M, as the authors' code), clipped at the edits there are.
    Paper,
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
    /// The paper's gold score of the original sentence, 1 − min_i |edits(s, a_i)| / |tokens(s)|
    /// (a perfect correction scores 1; [`Protocol::Paper`]'s sentence-level r).
    pub bottom: f64,
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
/// `missing` decides which annotators are the sentence's references and annotations.
/// `held_out`, with [`RefMode::HeldOut`], gives extra references per sentence instead of the
/// other annotators'. Under [`Protocol::Paper`], sentences that an annotator leaves unchanged
/// are dropped (as the paper does), and so is a unit with no held-out reference.
pub fn units(
    m2: &M2,
    refs: RefMode,
    strip_spaces: bool,
    missing: MissingAnnotator,
    protocol: Protocol,
    held_out: Option<&[Vec<String>]>,
) -> Vec<Unit> {
    let mut out = Vec::new();
    for (s, sent) in m2.sentences.iter().enumerate() {
        let tokens: Vec<String> = sent.tokens().iter().map(|t| t.to_string()).collect();
        let annotations = sent.primary(missing);
        let all_refs = sent.references(missing);
        let merged: Vec<Vec<Edit>> = annotations
            .iter()
            .map(|a| merge_overlaps(&tokens, &a.edits))
            .collect();
        if protocol == Protocol::Paper && merged.iter().any(Vec::is_empty) {
            continue;
        }
        // The paper's gold score of the original: 1 − min over annotations of edits / tokens.
        let fewest = merged.iter().map(Vec::len).min().unwrap_or(0);
        let bottom = 1.0 - fewest as f64 / tokens.len().max(1) as f64;
        for (a, (annotation, edits)) in annotations.iter().zip(merged).enumerate() {
            if edits.is_empty() {
                continue;
            }
            let mut unit = Unit {
                sentence: s,
                annotator: annotation.annotator,
                tokens: tokens.clone(),
                edits,
                refs: Vec::new(),
                bottom: bottom.clamp(0.0, 1.0),
            };
            unit.refs = match (refs, held_out) {
                (RefMode::All, _) => all_refs.clone(),
                (RefMode::Own, _) => vec![unit.apply(&(0..unit.edits.len()).collect::<Vec<_>>())],
                (RefMode::HeldOut, Some(extra)) => extra.get(s).cloned().unwrap_or_default(),
                (RefMode::HeldOut, None) => all_refs
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != a)
                    .map(|(_, r)| r.clone())
                    .collect(),
            };
            if unit.refs.is_empty() {
                continue;
            }
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

/// A Binomial(n, p) draw by n Bernoulli trials (n is small: at most ⌊M²/(M − 0.9)⌋).
pub fn binomial(n: u64, p: f64, rng: &mut ChaCha8Rng) -> usize {
    (0..n).filter(|_| rng.gen_bool(p.clamp(0.0, 1.0))).count()
}

/// MAEGE's corpus model M as (n, p) of a binomial with mean M and variance 0.9, n truncated
/// to an integer (the authors' `binomial_parameters_by_mean_and_var` fed to numpy); M = 0
/// gives no edit. M must be 0 or at least 1.
pub fn paper_binomial(m: usize) -> (u64, f64) {
    if m == 0 {
        return (1, 0.0);
    }
    let mf = m as f64;
    let p = (mf - 0.9) / mf;
    ((mf / p).floor() as u64, p)
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
