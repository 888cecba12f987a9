//! Edits from parallel text without a tagger: ERRANT 3.0.2's alignment and its `all-*`
//! mergers (`errant_parallel -lev -merge all-split|all-merge|all-equal`).
//!
//! The alignment is a Levenshtein table where equal tokens always match, and a cell that
//! does not match takes the first cheapest of transposition, substitution, insertion and
//! deletion; the back-trace from the last cell gives one operation sequence. The
//! substitution cost is a [`Cost`]: [`Levenshtein`] (1, no transpositions) is ERRANT's
//! `-lev`; ERRANT's default cost needs each token's lemma and part of speech, which a user
//! with a tagger can supply through the same trait.

/// What a substitution costs, and whether transpositions are tried.
pub trait Cost {
    /// Cost of replacing source token `i` with target token `j` (they differ).
    fn substitute(&self, i: usize, j: usize) -> f64;
    /// Whether a window of tokens may be reordered at the cost of its length minus one.
    fn transpositions(&self) -> bool {
        false
    }
    /// Lower-cased token `i` of the source (`source`) or the target, for transpositions.
    fn lower(&self, _source: bool, _i: usize) -> &str {
        ""
    }
}

/// ERRANT's `-lev`: every substitution costs 1, no transpositions.
pub struct Levenshtein;

impl Cost for Levenshtein {
    fn substitute(&self, _i: usize, _j: usize) -> f64 {
        1.0
    }
}

/// One alignment operation with its source and target spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op {
    pub kind: OpKind,
    pub src: (usize, usize),
    pub tgt: (usize, usize),
}

/// Match, substitution, insertion, deletion, or transposition of a window of `n` tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    Match,
    Substitute,
    Insert,
    Delete,
    Transpose(usize),
}

/// The cheapest operation sequence from `src` to `tgt`, ties broken as ERRANT breaks them.
pub fn align<T: PartialEq>(src: &[T], tgt: &[T], cost: &dyn Cost) -> Vec<Op> {
    let (n, m) = (src.len(), tgt.len());
    let w = m + 1;
    let mut costs = vec![0.0f64; (n + 1) * w];
    let mut ops = vec![OpKind::Match; (n + 1) * w];
    for i in 1..=n {
        costs[i * w] = costs[(i - 1) * w] + 1.0;
        ops[i * w] = OpKind::Delete;
    }
    for j in 1..=m {
        costs[j] = costs[j - 1] + 1.0;
        ops[j] = OpKind::Insert;
    }
    for i in 0..n {
        for j in 0..m {
            let at = (i + 1) * w + j + 1;
            if src[i] == tgt[j] {
                costs[at] = costs[i * w + j];
                ops[at] = OpKind::Match;
                continue;
            }
            let del = costs[i * w + j + 1] + 1.0;
            let ins = costs[(i + 1) * w + j] + 1.0;
            let sub = costs[i * w + j] + cost.substitute(i, j);
            let mut trans = (f64::INFINITY, 0);
            if cost.transpositions() {
                let mut k = 1;
                while i >= k
                    && j >= k
                    && costs[(i - k + 1) * w + j - k + 1] != costs[(i - k) * w + j - k]
                {
                    let mut a: Vec<&str> = (i - k..=i).map(|x| cost.lower(true, x)).collect();
                    let mut b: Vec<&str> = (j - k..=j).map(|x| cost.lower(false, x)).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    if a == b {
                        trans = (costs[(i - k) * w + j - k] + k as f64, k + 1);
                        break;
                    }
                    k += 1;
                }
            }
            // The first cheapest of transposition, substitution, insertion, deletion.
            let mut best = (trans.0, OpKind::Transpose(trans.1));
            for (c, kind) in [
                (sub, OpKind::Substitute),
                (ins, OpKind::Insert),
                (del, OpKind::Delete),
            ] {
                if c < best.0 {
                    best = (c, kind);
                }
            }
            costs[at] = best.0;
            ops[at] = best.1;
        }
    }
    let (mut i, mut j) = (n, m);
    let mut seq = Vec::new();
    while i + j != 0 {
        let kind = ops[i * w + j];
        let (di, dj) = match kind {
            OpKind::Match | OpKind::Substitute => (1, 1),
            OpKind::Delete => (1, 0),
            OpKind::Insert => (0, 1),
            OpKind::Transpose(k) => (k, k),
        };
        seq.push(Op {
            kind,
            src: (i - di, i),
            tgt: (j - dj, j),
        });
        i -= di;
        j -= dj;
    }
    seq.reverse();
    seq
}

/// How non-matching operations become edits (ERRANT's `-merge all-*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// Every non-match is an edit.
    AllSplit,
    /// Adjacent non-matches form one edit.
    AllMerge,
    /// Adjacent non-matches of the same kind form one edit.
    AllEqual,
}

impl std::str::FromStr for Merge {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all-split" => Ok(Merge::AllSplit),
            "all-merge" => Ok(Merge::AllMerge),
            "all-equal" => Ok(Merge::AllEqual),
            "rules" => Err("the rules merger needs a tagger (part of speech, lemma, dependencies); use all-split, all-merge or all-equal".into()),
            other => Err(format!("unknown merger '{other}'; use all-split, all-merge or all-equal")),
        }
    }
}

/// The edits (source span, target span) of an alignment.
pub fn edits(seq: &[Op], merge: Merge) -> Vec<((usize, usize), (usize, usize))> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < seq.len() {
        if seq[k].kind == OpKind::Match {
            k += 1;
            continue;
        }
        let mut end = k + 1;
        let joins = |a: &Op, b: &Op| match merge {
            Merge::AllSplit => false,
            Merge::AllMerge => b.kind != OpKind::Match,
            Merge::AllEqual => b.kind == a.kind,
        };
        while end < seq.len() && joins(&seq[k], &seq[end]) {
            end += 1;
        }
        out.push((
            (seq[k].src.0, seq[end - 1].src.1),
            (seq[k].tgt.0, seq[end - 1].tgt.1),
        ));
        k = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    fn kinds(a: &str, b: &str) -> Vec<OpKind> {
        align(&toks(a), &toks(b), &Levenshtein)
            .into_iter()
            .map(|o| o.kind)
            .collect()
    }

    #[test]
    fn ties_prefer_substitution_then_insertion() {
        use OpKind::*;
        // "a x" → "x a": two substitutions beat delete-match-insert (same cost).
        assert_eq!(kinds("a x", "x a"), vec![Substitute, Substitute]);
        // Insertion at the start.
        assert_eq!(kinds("b c", "a b c"), vec![Insert, Match, Match]);
        assert_eq!(kinds("a b c", "b c"), vec![Delete, Match, Match]);
        assert_eq!(kinds("", "a"), vec![Insert]);
        assert_eq!(kinds("a", ""), vec![Delete]);
    }

    #[test]
    fn mergers() {
        let seq = align(&toks("a b c d e"), &toks("a x y d f g"), &Levenshtein);
        // S S M I S (the insertion before the substitution: the back-trace meets the
        // substitution first) → split: 4 edits; merge: [b c → x y], [e → f g]; equal: S S | I | S.
        assert_eq!(edits(&seq, Merge::AllSplit).len(), 4);
        assert_eq!(
            edits(&seq, Merge::AllMerge),
            vec![((1, 3), (1, 3)), ((4, 5), (4, 6))]
        );
        assert_eq!(
            edits(&seq, Merge::AllEqual),
            vec![((1, 3), (1, 3)), ((4, 4), (4, 5)), ((4, 5), (5, 6))]
        );
        assert!("rules".parse::<Merge>().unwrap_err().contains("tagger"));
    }

    struct Lower<'a>(Vec<&'a str>, Vec<&'a str>);

    impl Cost for Lower<'_> {
        fn substitute(&self, _: usize, _: usize) -> f64 {
            1.0
        }
        fn transpositions(&self) -> bool {
            true
        }
        fn lower(&self, source: bool, i: usize) -> &str {
            if source {
                self.0[i]
            } else {
                self.1[i]
            }
        }
    }

    #[test]
    fn transpositions_through_the_seam() {
        let (a, b) = (toks("x a b y"), toks("x b a y"));
        let seq = align(&a, &b, &Lower(a.clone(), b.clone()));
        assert_eq!(seq[1].kind, OpKind::Transpose(2));
        assert_eq!((seq[1].src, seq[1].tgt), ((1, 3), (1, 3)));
    }
}
