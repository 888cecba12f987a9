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
    /// Cost of replacing source token `i` with target token `j` (they differ); never negative.
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
/// on it. A common prefix is left out of the table too, but not of the back-trace ([`table`]).
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
///
/// A common prefix of `p` tokens is left out of the table as well, though the back-trace may
/// leave the diagonal in it (a repeated token may align elsewhere): every cell (I, J) with
/// min(I, J) ≤ p costs exactly |I − J| (matches along the prefix, then insertions or
/// deletions, each costing 1, and no operation costs less than nothing). So the table starts
/// at cell (p, p) with the usual edges, a transposition's look-back into the prefix reads
/// |I − J|, and the back-trace decides each cell there as the table would ([`edge`]).
fn table<T: PartialEq>(src: &[T], tgt: &[T], cost: &dyn Cost) -> Vec<Op> {
    let (n, m) = (src.len(), tgt.len());
    let p = src.iter().zip(tgt).take_while(|(a, b)| a == b).count();
    // Cell (p + r, p + c) of the whole table is cell (r, c) here, index r * w + c.
    let w = m - p + 1;
    let cells = (n - p + 1) * w;
    let mut ops = vec![MATCH; cells];
    // Transposition windows by cell, for the rare cells that take one.
    let mut windows = std::collections::HashMap::new();
    let full = cost.transpositions();
    let mut window = full.then(|| Window::new(cost, n, m, p));
    // Row r of the costs is costs[row(r)..row(r) + w]: all rows with transpositions, else two.
    let mut costs = vec![0.0f64; if full { cells } else { 2 * w }];
    let row = |r: usize| if full { r * w } else { (r % 2) * w };
    for (c, x) in costs[..w].iter_mut().enumerate() {
        *x = c as f64;
    }
    for (i, s) in src.iter().enumerate().skip(p) {
        let r = i - p;
        let (prev, cur) = (row(r), row(r + 1));
        costs[cur] = (r + 1) as f64;
        if let Some(window) = &mut window {
            window.start_row(i);
        }
        for (j, t) in tgt.iter().enumerate().skip(p) {
            let c = j - p;
            let at = (r + 1) * w + c + 1;
            if let Some(window) = &mut window {
                window.seen_target(j);
            }
            if s == t {
                costs[cur + c + 1] = costs[prev + c];
                continue; // ops[at] is MATCH already
            }
            let del = costs[prev + c + 1] + 1.0;
            let ins = costs[cur + c] + 1.0;
            let sub = costs[prev + c] + cost.substitute(i, j);
            let mut trans = (f64::INFINITY, 0);
            if let Some(window) = &mut window {
                // The cost of cell (x, y) of the whole table (only with all rows kept).
                let cell = |x: usize, y: usize| {
                    if x < p || y < p {
                        x.abs_diff(y) as f64
                    } else {
                        costs[(x - p) * w + y - p]
                    }
                };
                // Windows ending here, longer while the diagonal's cost keeps changing, until
                // one holds the same words on both sides.
                let changes = |k: usize| cell(i - k + 1, j - k + 1) != cell(i - k, j - k);
                if let Some(k) = window.reordered(i, j, changes) {
                    trans = (cell(i - k, j - k) + k as f64, k + 1);
                }
            }
            // The first cheapest of transposition, substitution, insertion, deletion.
            let mut best = (trans.0, TRANSPOSE);
            for (x, code) in [(sub, SUBSTITUTE), (ins, INSERT), (del, DELETE)] {
                if x < best.0 {
                    best = (x, code);
                }
            }
            costs[cur + c + 1] = best.0;
            ops[at] = best.1;
            if best.1 == TRANSPOSE {
                windows.insert(at, trans.1);
            }
        }
    }
    let (mut i, mut j) = (n, m);
    let mut seq = Vec::new();
    while i + j != 0 {
        let at = (i.max(p) - p) * w + j.max(p) - p;
        let code = if i > p && j > p {
            ops[at]
        } else {
            edge(src, tgt, cost, i, j)
        };
        let kind = match code {
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

/// The operation the whole table holds at cell (i, j), outside [`table`]'s cells: min(i, j)
/// ≤ p, where the cell costs |i − j|. Equal tokens match; else the insertion (i < j) or
/// deletion (i > j) costs |i − j|, the substitution |i − j| plus its cost and wins a tie, the
/// other one and any transposition cost more.
fn edge<T: PartialEq>(src: &[T], tgt: &[T], cost: &dyn Cost, i: usize, j: usize) -> u8 {
    if i == 0 {
        return INSERT;
    }
    if j == 0 {
        return DELETE;
    }
    if src[i - 1] == tgt[j - 1] {
        return MATCH;
    }
    let d = i.abs_diff(j) as f64;
    if d + cost.substitute(i - 1, j - 1) <= d {
        SUBSTITUTE
    } else if i < j {
        INSERT
    } else {
        DELETE
    }
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
    /// `tgt_seen` before the first column of the table: the common prefix's.
    tgt_prefix: Vec<usize>,
}

impl Window {
    /// The window state of a table whose rows and columns start after `p` common tokens: those
    /// tokens are seen before the first row, and at the start of every row.
    fn new(cost: &dyn Cost, n: usize, m: usize, p: usize) -> Window {
        // Short keys, hashed once per token: Fx, not SipHash (no untrusted input to resist).
        let mut ids = rustc_hash::FxHashMap::with_capacity_and_hasher(n + m, Default::default());
        let mut id = |word| {
            let next = ids.len() as u32;
            *ids.entry(word).or_insert(next)
        };
        let src: Vec<u32> = (0..n).map(|i| id(cost.lower(true, i))).collect();
        let tgt: Vec<u32> = (0..m).map(|j| id(cost.lower(false, j))).collect();
        let words = ids.len();
        let mut src_seen = vec![0; words];
        let mut tgt_prefix = vec![0; words];
        for k in 0..p {
            src_seen[src[k] as usize] = k + 1;
            tgt_prefix[tgt[k] as usize] = k + 1;
        }
        Window {
            src,
            tgt,
            balance: vec![0; words],
            unbalanced: 0,
            src_seen,
            tgt_seen: tgt_prefix.clone(),
            tgt_prefix,
        }
    }

    fn start_row(&mut self, i: usize) {
        self.src_seen[self.src[i] as usize] = i + 1;
        self.tgt_seen.copy_from_slice(&self.tgt_prefix);
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

    /// Tokens with case variants, substitutions of a few costs (nothing for a case change,
    /// some ties), transpositions of lower-cased windows.
    struct Toy<'a>(&'a [String], &'a [String]);

    impl Cost for Toy<'_> {
        fn substitute(&self, i: usize, j: usize) -> f64 {
            let (a, b) = (self.0[i].as_bytes()[1], self.1[j].as_bytes()[1]);
            f64::from(a ^ b) * 0.25
        }
        fn transpositions(&self) -> bool {
            true
        }
        fn lower(&self, source: bool, i: usize) -> &str {
            if source {
                &self.0[i][1..]
            } else {
                &self.1[i][1..]
            }
        }
    }

    /// The whole table as ERRANT fills it (no prefix or suffix left out, windows sorted).
    fn whole_table(src: &[String], tgt: &[String], cost: &dyn Cost) -> Vec<Op> {
        let (n, m) = (src.len(), tgt.len());
        let mut d = vec![vec![0.0; m + 1]; n + 1];
        let mut op = vec![vec![(MATCH, 0); m + 1]; n + 1];
        for j in 1..=m {
            (d[0][j], op[0][j]) = (j as f64, (INSERT, 0));
        }
        for i in 1..=n {
            (d[i][0], op[i][0]) = (i as f64, (DELETE, 0));
        }
        for i in 0..n {
            for j in 0..m {
                if src[i] == tgt[j] {
                    d[i + 1][j + 1] = d[i][j];
                    continue;
                }
                let mut best = (f64::INFINITY, (TRANSPOSE, 0));
                if cost.transpositions() {
                    let mut k = 1;
                    while k <= i.min(j) && d[i - k + 1][j - k + 1] != d[i - k][j - k] {
                        let sorted = |source: bool, end: usize| {
                            let mut w: Vec<&str> =
                                (end - k..=end).map(|x| cost.lower(source, x)).collect();
                            w.sort_unstable();
                            w
                        };
                        if sorted(true, i) == sorted(false, j) {
                            best = (d[i - k][j - k] + k as f64, (TRANSPOSE, k + 1));
                            break;
                        }
                        k += 1;
                    }
                }
                for (x, code) in [
                    (d[i][j] + cost.substitute(i, j), SUBSTITUTE),
                    (d[i + 1][j] + 1.0, INSERT),
                    (d[i][j + 1] + 1.0, DELETE),
                ] {
                    if x < best.0 {
                        best = (x, (code, 0));
                    }
                }
                (d[i + 1][j + 1], op[i + 1][j + 1]) = (best.0, best.1);
            }
        }
        let (mut i, mut j) = (n, m);
        let mut seq = Vec::new();
        while i + j != 0 {
            let (kind, (di, dj)) = match op[i][j] {
                (MATCH, _) => (OpKind::Match, (1, 1)),
                (SUBSTITUTE, _) => (OpKind::Substitute, (1, 1)),
                (INSERT, _) => (OpKind::Insert, (0, 1)),
                (DELETE, _) => (OpKind::Delete, (1, 0)),
                (_, k) => (OpKind::Transpose(k), (k, k)),
            };
            seq.push(Op {
                kind,
                src: (i - di, i),
                tgt: (j - dj, j),
            });
            (i, j) = (i - di, j - dj);
        }
        seq.reverse();
        seq
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Leaving the common prefix and suffix out of the table changes no operation, with
        /// repeated tokens, free case changes and transpositions about the seams.
        #[test]
        fn cut_prefix_and_suffix_align_as_the_whole_table(
            prefix in proptest::collection::vec(0u8..6, 0..6),
            a in proptest::collection::vec(0u8..6, 0..7),
            b in proptest::collection::vec(0u8..6, 0..7),
            suffix in proptest::collection::vec(0u8..6, 0..4),
        ) {
            // Text: a case mark and the word, so "Aa" and "aa" differ only in case.
            let text = |x: &u8| format!("{}{}", ["a", "A"][usize::from(x % 2)], ["x", "y", "z"][usize::from(x / 2)]);
            let src: Vec<String> = prefix.iter().chain(&a).chain(&suffix).map(text).collect();
            let tgt: Vec<String> = prefix.iter().chain(&b).chain(&suffix).map(text).collect();
            let toy = Toy(&src, &tgt);
            proptest::prop_assert_eq!(align(&src, &tgt, &toy).unwrap(), whole_table(&src, &tgt, &toy));
            proptest::prop_assert_eq!(
                align(&src, &tgt, &Levenshtein).unwrap(),
                whole_table(&src, &tgt, &Levenshtein)
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
