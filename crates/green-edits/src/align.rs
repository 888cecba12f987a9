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

/// Most cells of an alignment table: one byte each, so at most 1 GiB (two texts of about
/// 32,000 tokens each). ERRANT's own table is as quadratic (and far larger per cell); a
/// "sentence" this long is a document or a file without line ends.
pub const MAX_CELLS: usize = 1 << 30;

/// Texts too long to align within [`MAX_CELLS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{src} and {tgt} tokens are too long to align (the table would have more than {} cells); split the text into sentences", MAX_CELLS)]
pub struct TooLong {
    pub src: usize,
    pub tgt: usize,
}

/// The back-trace codes of the table: one byte a cell.
const MATCH: u8 = 0;
const SUBSTITUTE: u8 = 1;
const INSERT: u8 = 2;
const DELETE: u8 = 3;
const TRANSPOSE: u8 = 4;

/// The cheapest operation sequence from `src` to `tgt`, ties broken as ERRANT breaks them.
/// Memory: a byte per table cell for the back-trace, and two rows of costs (the whole cost
/// table only with transpositions, which look back along the diagonal).
///
/// A common suffix is matched without being put in the table: equal tokens always match, so
/// the back-trace from the last cell walks straight through it, and no cell before it depends
/// on it. (A common prefix cannot be cut so: a repeated token may align elsewhere.)
pub fn align<T: PartialEq>(src: &[T], tgt: &[T], cost: &dyn Cost) -> Result<Vec<Op>, TooLong> {
    let (n, m) = (src.len(), tgt.len());
    (n + 1)
        .checked_mul(m + 1)
        .filter(|&c| c <= MAX_CELLS)
        .ok_or(TooLong { src: n, tgt: m })?;
    let suffix = src
        .iter()
        .rev()
        .zip(tgt.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut seq = table(&src[..n - suffix], &tgt[..m - suffix], cost);
    seq.extend((0..suffix).rev().map(|k| Op {
        kind: OpKind::Match,
        src: (n - k - 1, n - k),
        tgt: (m - k - 1, m - k),
    }));
    Ok(seq)
}

/// The table and back-trace of [`align`] (at most [`MAX_CELLS`] cells).
fn table<T: PartialEq>(src: &[T], tgt: &[T], cost: &dyn Cost) -> Vec<Op> {
    let (n, m) = (src.len(), tgt.len());
    let w = m + 1;
    let cells = (n + 1) * w;
    let mut ops = vec![MATCH; cells];
    // Transposition windows by cell, for the rare cells that take one.
    let mut windows = std::collections::HashMap::new();
    let full = cost.transpositions();
    let mut window = full.then(|| Window::new(cost, n, m));
    // Row i of the costs is costs[row(i)..row(i) + w]: all rows with transpositions, else two.
    let mut costs = vec![0.0f64; if full { cells } else { 2 * w }];
    let row = |i: usize| if full { i * w } else { (i % 2) * w };
    for (j, c) in costs[..w].iter_mut().enumerate() {
        *c = j as f64;
    }
    ops[1..w].fill(INSERT);
    for i in 0..n {
        let (prev, cur) = (row(i), row(i + 1));
        costs[cur] = (i + 1) as f64;
        ops[(i + 1) * w] = DELETE;
        if let Some(window) = &mut window {
            window.start_row(i);
        }
        for j in 0..m {
            let at = (i + 1) * w + j + 1;
            if let Some(window) = &mut window {
                window.seen_target(j);
            }
            if src[i] == tgt[j] {
                costs[cur + j + 1] = costs[prev + j];
                continue; // ops[at] is MATCH already
            }
            let del = costs[prev + j + 1] + 1.0;
            let ins = costs[cur + j] + 1.0;
            let sub = costs[prev + j] + cost.substitute(i, j);
            let mut trans = (f64::INFINITY, 0);
            if let Some(window) = &mut window {
                // Windows ending here, longer while the diagonal's cost keeps changing, until
                // one holds the same words on both sides.
                let changes =
                    |k: usize| costs[(i - k + 1) * w + j - k + 1] != costs[(i - k) * w + j - k];
                if let Some(k) = window.reordered(i, j, changes) {
                    trans = (costs[(i - k) * w + j - k] + k as f64, k + 1);
                }
            }
            // The first cheapest of transposition, substitution, insertion, deletion.
            let mut best = (trans.0, TRANSPOSE);
            for (c, code) in [(sub, SUBSTITUTE), (ins, INSERT), (del, DELETE)] {
                if c < best.0 {
                    best = (c, code);
                }
            }
            costs[cur + j + 1] = best.0;
            ops[at] = best.1;
            if best.1 == TRANSPOSE {
                windows.insert(at, trans.1);
            }
        }
    }
    let (mut i, mut j) = (n, m);
    let mut seq = Vec::new();
    while i + j != 0 {
        let at = i * w + j;
        let kind = match ops[at] {
            MATCH => OpKind::Match,
            SUBSTITUTE => OpKind::Substitute,
            INSERT => OpKind::Insert,
            DELETE => OpKind::Delete,
            _ => OpKind::Transpose(windows[&at]),
        };
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

/// Whether two windows hold the same lower-cased words (ERRANT sorts both and compares):
/// the words are numbered once, and a window grown by one word on each side updates a
/// count per word number, so each longer window costs one step, not a sort. Most cells need
/// none: a window must reach back to where the other side last had each end's word.
struct Window {
    src: Vec<u32>,
    tgt: Vec<u32>,
    /// Per word number: its count in the source window minus that in the target window.
    balance: Vec<i32>,
    /// How many word numbers have a non-zero balance.
    unbalanced: usize,
    /// Per word number: 1 + the last source position up to the current row holding it (0:
    /// none), and the same for the target up to the current column.
    src_seen: Vec<usize>,
    tgt_seen: Vec<usize>,
}

impl Window {
    fn new(cost: &dyn Cost, n: usize, m: usize) -> Window {
        let mut ids: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        let mut id = |word| {
            let next = ids.len() as u32;
            *ids.entry(word).or_insert(next)
        };
        let src = (0..n).map(|i| id(cost.lower(true, i))).collect();
        let tgt = (0..m).map(|j| id(cost.lower(false, j))).collect();
        let words = ids.len();
        Window {
            src,
            tgt,
            balance: vec![0; words],
            unbalanced: 0,
            src_seen: vec![0; words],
            tgt_seen: vec![0; words],
        }
    }

    fn start_row(&mut self, i: usize) {
        self.src_seen[self.src[i] as usize] = i + 1;
        self.tgt_seen.fill(0);
    }

    fn seen_target(&mut self, j: usize) {
        self.tgt_seen[self.tgt[j] as usize] = j + 1;
    }

    fn add(&mut self, id: u32, by: i32) {
        let b = &mut self.balance[id as usize];
        if *b == 0 {
            self.unbalanced += 1;
        }
        *b += by;
        if *b == 0 {
            self.unbalanced -= 1;
        }
    }

    /// ERRANT's search at cell (i, j): the first k = 1, 2, ... (while `changes(k)`, the
    /// diagonal's cost changing k cells back) where the source's words i-k..=i are the
    /// target's j-k..=j in some order.
    fn reordered(&mut self, i: usize, j: usize, changes: impl Fn(usize) -> bool) -> Option<usize> {
        let limit = i.min(j);
        // No window shorter than this holds both ends' words on both sides.
        let (p, q) = (
            self.tgt_seen[self.src[i] as usize],
            self.src_seen[self.tgt[j] as usize],
        );
        if p == 0 || q == 0 {
            return None;
        }
        let shortest = (j + 1 - p).max(i + 1 - q).max(1);
        if shortest > limit || !(1..=shortest).all(&changes) {
            return None;
        }
        for k in 0..=shortest {
            self.add(self.src[i - k], 1);
            self.add(self.tgt[j - k], -1);
        }
        let mut k = shortest;
        let found = loop {
            if self.unbalanced == 0 {
                break Some(k);
            }
            if k == limit || !changes(k + 1) {
                break None;
            }
            k += 1;
            self.add(self.src[i - k], 1);
            self.add(self.tgt[j - k], -1);
        };
        for x in i - k..=i {
            self.balance[self.src[x] as usize] = 0;
        }
        for y in j - k..=j {
            self.balance[self.tgt[y] as usize] = 0;
        }
        self.unbalanced = 0;
        found
    }
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
            .unwrap()
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
        let seq = align(&toks("a b c d e"), &toks("a x y d f g"), &Levenshtein).unwrap();
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
        let seq = align(&a, &b, &Lower(a.clone(), b.clone())).unwrap();
        assert_eq!(seq[1].kind, OpKind::Transpose(2));
        assert_eq!((seq[1].src, seq[1].tgt), ((1, 3), (1, 3)));
    }

    /// Transpositions allowed but never possible: the path that keeps the whole cost table.
    struct NeverTransposed;

    impl Cost for NeverTransposed {
        fn substitute(&self, _: usize, _: usize) -> f64 {
            1.0
        }
        fn transpositions(&self) -> bool {
            true
        }
        fn lower(&self, source: bool, _: usize) -> &str {
            if source {
                "s"
            } else {
                "t"
            }
        }
    }

    proptest::proptest! {
        /// Two rows of costs give the alignment of the whole table, tie for tie.
        #[test]
        fn two_cost_rows_align_as_the_whole_table(
            a in proptest::collection::vec(0u8..4, 0..14),
            b in proptest::collection::vec(0u8..4, 0..14),
        ) {
            proptest::prop_assert_eq!(
                align(&a, &b, &Levenshtein).unwrap(),
                align(&a, &b, &NeverTransposed).unwrap()
            );
        }
    }

    #[test]
    fn texts_too_long_to_align_are_an_error() {
        let long = vec![0u8; 40_000];
        let err = align(&long, &long[..30_000], &Levenshtein).unwrap_err();
        assert_eq!(
            err,
            TooLong {
                src: 40_000,
                tgt: 30_000
            }
        );
        assert!(err.to_string().contains("split the text into sentences"));
    }
}
