//! ERRANT 3.0.2's `rules` merger (`errant/en/merger.py`): which adjacent non-matching
//! operations of an alignment form one edit, decided from the tokens' tags, parts of speech
//! and spelling. Transpositions are always edits of their own; a run of deletions alone (or
//! insertions alone) is one edit; a run with substitutions is split or merged by rules tried
//! on its sub-spans, longest first.

use super::{indel_distance, Doc, Token};
use crate::align::{Op, OpKind};

type Span = ((usize, usize), (usize, usize));

/// The edits of an alignment under the rules merger.
pub fn rules(seq: &[Op], orig: &Doc, cor: &Doc) -> Vec<Span> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < seq.len() {
        let group = |op: &Op| match op.kind {
            OpKind::Match => 0,
            OpKind::Transpose(_) => 1,
            _ => 2,
        };
        let g = group(&seq[k]);
        let mut end = k + 1;
        while end < seq.len() && group(&seq[end]) == g {
            end += 1;
        }
        match g {
            0 => {}
            1 => out.extend(seq[k..end].iter().map(|op| (op.src, op.tgt))),
            _ => out.extend(
                process(&seq[k..end], orig, cor)
                    .into_iter()
                    .map(|op| (op.src, op.tgt)),
            ),
        }
        k = end;
    }
    out
}

/// One operation spanning a whole run.
fn merged(seq: &[Op]) -> Vec<Op> {
    match (seq.first(), seq.last()) {
        (Some(a), Some(b)) => vec![Op {
            kind: OpKind::Substitute,
            src: (a.src.0, b.src.1),
            tgt: (a.tgt.0, b.tgt.1),
        }],
        _ => Vec::new(),
    }
}

fn cat(parts: [Vec<Op>; 3]) -> Vec<Op> {
    parts.into_iter().flatten().collect()
}

/// `string.punctuation` holds the text as a substring (`"()"` counts), or the POS is PUNCT.
fn is_punct(t: &Token) -> bool {
    t.pos == "PUNCT" || "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".contains(t.text.as_str())
}

/// The first character is upper case (Python's `str.isupper()` on it).
fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

const OPEN_POS: [&str; 5] = ["ADJ", "AUX", "ADV", "NOUN", "VERB"];

/// `process_seq`: a run of D, I and S operations, merged and split by ERRANT's rules.
fn process(seq: &[Op], orig: &Doc, cor: &Doc) -> Vec<Op> {
    let n = seq.len();
    if n <= 1 {
        return seq.to_vec();
    }
    let ops: Vec<OpKind> = seq.iter().map(|op| op.kind).collect();
    if ops.iter().all(|&k| k == OpKind::Delete) || ops.iter().all(|&k| k == OpKind::Insert) {
        return merged(seq);
    }
    let mut content = false;
    // All (start, end) pairs, longest spans first, ties in order of start.
    for len in (1..n).rev() {
        for start in 0..n - len {
            let end = start + len;
            if !ops[start..=end].contains(&OpKind::Substitute) {
                continue;
            }
            let o = &orig.tokens[seq[start].src.0..seq[end].src.1];
            let c = &cor.tokens[seq[start].tgt.0..seq[end].tgt.1];
            let (o_last, c_last) = (&o[o.len() - 1], &c[c.len() - 1]);
            // Possessive suffixes.
            if start == 0 && (o[0].tag == "POS" || c[0].tag == "POS") {
                return cat([vec![seq[0]], process(&seq[1..], orig, cor), vec![]]);
            }
            if o_last.tag == "POS" || c_last.tag == "POS" {
                return cat([
                    process(&seq[..end - 1], orig, cor),
                    merged(&seq[end - 1..=end]),
                    process(&seq[end + 1..], orig, cor),
                ]);
            }
            // Case changes.
            if o_last.lower == c_last.lower {
                if start == 0
                    && ((o.len() == 1 && starts_upper(&c[0].text))
                        || (c.len() == 1 && starts_upper(&o[0].text)))
                {
                    return cat([
                        merged(&seq[start..=end]),
                        process(&seq[end + 1..], orig, cor),
                        vec![],
                    ]);
                }
                if (o.len() > 1 && is_punct(&o[o.len() - 2]))
                    || (c.len() > 1 && is_punct(&c[c.len() - 2]))
                {
                    return cat([
                        process(&seq[..end - 1], orig, cor),
                        merged(&seq[end - 1..=end]),
                        process(&seq[end + 1..], orig, cor),
                    ]);
                }
            }
            // Whitespace and hyphens: [acat -> a cat], [sub - way -> subway].
            let squash = |toks: &[Token]| -> String {
                toks.iter()
                    .flat_map(|t| t.lower.chars())
                    .filter(|&ch| ch != '\'' && ch != '-')
                    .collect()
            };
            let whole = || {
                cat([
                    process(&seq[..start], orig, cor),
                    merged(&seq[start..=end]),
                    process(&seq[end + 1..], orig, cor),
                ])
            };
            if squash(o) == squash(c) {
                return whole();
            }
            // Same POS, or auxiliary/infinitive/phrasal verbs.
            let mut pos: Vec<&str> = o.iter().chain(c).map(|t| t.pos.as_str()).collect();
            pos.sort_unstable();
            pos.dedup();
            if o.len() != c.len()
                && (pos.len() == 1 || pos.iter().all(|p| ["AUX", "PART", "VERB"].contains(p)))
            {
                return whole();
            }
            // Splits, at the smallest spans.
            if end - start < 2 {
                let split = || {
                    cat([
                        process(&seq[..start + 1], orig, cor),
                        process(&seq[start + 1..], orig, cor),
                        vec![],
                    ])
                };
                if o.len() == 2 && c.len() == 2 {
                    return split();
                }
                let similar = |a: &Token, b: &Token| 1.0 - indel_distance(&a.text, &b.text) > 0.75;
                if (ops[start] == OpKind::Substitute && similar(&o[0], &c[0]))
                    || (ops[end] == OpKind::Substitute && similar(o_last, c_last))
                {
                    return split();
                }
                let last = ops[n - 1];
                if end == n - 1
                    && ((matches!(last, OpKind::Delete | OpKind::Substitute)
                        && o_last.pos == "DET")
                        || (matches!(last, OpKind::Insert | OpKind::Substitute)
                            && c_last.pos == "DET"))
                {
                    return cat([process(&seq[..n - 1], orig, cor), vec![seq[n - 1]], vec![]]);
                }
            }
            if pos.iter().any(|p| OPEN_POS.contains(p)) {
                content = true;
            }
        }
    }
    if content {
        merged(seq)
    } else {
        seq.to_vec()
    }
}
