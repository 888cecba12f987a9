//! Token runs that every text of a sentence shares with its source, anywhere in it, and
//! where to cut them.
//!
//! Corrections leave most of a sentence as it was, so the source, the references and the
//! hypotheses share long runs of tokens between their edits. Take out the middle of a run B
//! that every text contains, keeping n - 1 of its tokens on either side: each text loses
//! the n-grams that overlap what was taken out and gains the ones that now cross the seam,
//! and all of those lie inside B's tokens, so they are the same n-grams in every text. A
//! shift common to every text leaves every min unchanged up to that shift
//! (min(s + k, r + k) = min(s, r) + k), and each text loses exactly one n-gram per token
//! taken out at every order, so only TK moves, by the tokens taken out. At a text's start
//! or end no seam is made, so nothing need be kept on that side (one side is always kept,
//! so every order still loses exactly one n-gram per token).
//!
//! Runs are found by walking each text beside the source: after a mismatch, the nearest
//! pair of offsets where n tokens agree again (a small diagonal search, so edits of up to
//! [`REACH`] tokens are stepped over). Any equal runs would do; the search only decides how
//! much is cut, never what is counted.

/// Farthest the walk looks (tokens skipped in both texts together) to find the texts
/// agreeing again after an edit.
const REACH: usize = 24;

/// A run shared by the source and one text: its start in each, and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    source: usize,
    text: usize,
    len: usize,
}

/// Scratch space for [`Cuts::find`], kept from sentence to sentence.
#[derive(Default)]
pub(crate) struct Cuts {
    /// Runs of every text, text after text; `bounds[k]..bounds[k + 1]` are text k's.
    runs: Vec<Run>,
    bounds: Vec<usize>,
    /// Source ranges every text shares, and the next candidates while intersecting.
    common: Vec<(usize, usize)>,
    next: Vec<(usize, usize)>,
    /// Each text's length, and which of its runs the intersection has reached.
    lens: Vec<usize>,
    at: Vec<usize>,
    /// What to take out: per cut, its length, and its start in the source then in each text
    /// (`starts[cut * (1 + texts) + k]`, k = 0 the source).
    pub(crate) lengths: Vec<usize>,
    pub(crate) starts: Vec<usize>,
}

impl Cuts {
    /// Find the cuts for order `n` between `source` and the `texts` (every distinct text but
    /// the source, with how many tokens each shares with the source at its start and, after
    /// those, at its end). Afterwards `lengths` and `starts` list them in order, and the return
    /// value is the tokens each text loses.
    pub(crate) fn find<'a>(
        &mut self,
        n: usize,
        source: &[u32],
        texts: impl Iterator<Item = (&'a [u32], (usize, usize))> + Clone,
    ) -> usize {
        self.lengths.clear();
        self.starts.clear();
        let keep = n.saturating_sub(1);
        // A run shorter than n can give no cut, even at an end.
        let least = n.max(1);
        self.runs.clear();
        self.bounds.clear();
        self.bounds.push(0);
        for (text, (head, tail)) in texts.clone() {
            walk(source, text, head, tail, least, &mut self.runs);
            self.bounds.push(self.runs.len());
        }
        if self.bounds.len() == 1 {
            return 0;
        }
        self.common.clear();
        let first = &self.runs[self.bounds[0]..self.bounds[1]];
        self.common
            .extend(first.iter().map(|r| (r.source, r.source + r.len)));
        for k in 1..self.bounds.len() - 1 {
            let runs = &self.runs[self.bounds[k]..self.bounds[k + 1]];
            intersect(&self.common, runs, least, &mut self.next);
            std::mem::swap(&mut self.common, &mut self.next);
        }
        self.lens.clear();
        self.lens.extend(texts.map(|(t, _)| t.len()));
        self.at.clear();
        self.at.resize(self.lens.len(), 0);
        let mut cut = 0;
        for &(lo, hi) in &self.common {
            // Where this range starts in each text: in the run of that text holding it.
            let here = self.starts.len();
            self.starts.push(lo);
            for (k, i) in self.at.iter_mut().enumerate() {
                let runs = &self.runs[self.bounds[k]..self.bounds[k + 1]];
                while runs[*i].source + runs[*i].len < hi {
                    *i += 1;
                }
                self.starts.push(runs[*i].text + lo - runs[*i].source);
            }
            let (len, starts) = (hi - lo, &mut self.starts[here..]);
            let first = starts.iter().all(|&s| s == 0);
            let last = hi == source.len()
                && (starts[1..].iter().zip(&self.lens)).all(|(&s, &l)| s + len == l);
            // One side is always kept, so what is left of a text has n - 1 tokens or more.
            let (left, right) = match (first, last) {
                (true, _) => (0, keep),
                (false, true) => (keep, 0),
                (false, false) => (keep, keep),
            };
            let d = len.saturating_sub(left + right);
            if d > 0 {
                starts.iter_mut().for_each(|s| *s += left);
                self.lengths.push(d);
                cut += d;
            } else {
                self.starts.truncate(here);
            }
        }
        cut
    }
}

/// The runs of at least `least` tokens that `text` shares with `source`, in order: its
/// start and end shared with the source, and between them what a walk beside the source
/// finds.
fn walk(source: &[u32], text: &[u32], head: usize, tail: usize, least: usize, runs: &mut Vec<Run>) {
    if head >= least {
        runs.push(Run {
            source: 0,
            text: 0,
            len: head,
        });
    }
    let (s, t) = (&source[..source.len() - tail], &text[..text.len() - tail]);
    let (mut i, mut j) = (head, head);
    while let Some((a, b)) = agree_again(&s[i..], &t[j..], least) {
        (i, j) = (i + a, j + b);
        let len = same_start(&s[i..], &t[j..]);
        runs.push(Run {
            source: i,
            text: j,
            len,
        });
        (i, j) = (i + len, j + len);
    }
    if tail >= least {
        runs.push(Run {
            source: source.len() - tail,
            text: text.len() - tail,
            len: tail,
        });
    }
}

/// Eight ids as one array, to compare them at once.
fn eight(ids: &[u32]) -> [u32; 8] {
    ids.try_into().expect("8 ids")
}

/// How many ids `a` and `b` share at their start: eight at a time, then one at a time.
pub(crate) fn same_start(a: &[u32], b: &[u32]) -> usize {
    let same = (a.chunks_exact(8).zip(b.chunks_exact(8)))
        .take_while(|(x, y)| eight(x) == eight(y))
        .count()
        * 8;
    same + (a[same..].iter().zip(&b[same..]))
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many ids `a` and `b` share at their end.
pub(crate) fn same_end(a: &[u32], b: &[u32]) -> usize {
    let same = (a.rchunks_exact(8).zip(b.rchunks_exact(8)))
        .take_while(|(x, y)| eight(x) == eight(y))
        .count()
        * 8;
    let (a, b) = (&a[..a.len() - same], &b[..b.len() - same]);
    same + (a.iter().rev().zip(b.iter().rev()))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The nearest offsets (fewest tokens skipped in both together, at most [`REACH`], then
/// fewest in `s`) from which `s` and `t` agree for `least` tokens. Each number of skipped
/// tokens is an anti-diagonal, read as `s` forwards beside `t` backwards in a loop without
/// index checks; only where a first token agrees is the rest of the run compared, inline
/// (a call of `memcmp` cost more than most of the runs it compared).
fn agree_again(s: &[u32], t: &[u32], least: usize) -> Option<(usize, usize)> {
    if s.len() < least || t.len() < least {
        return None;
    }
    let (s_last, t_last) = (s.len() - least, t.len() - least);
    let reach = REACH.min(s_last + t_last);
    for skipped in 1..=reach {
        let (lo, hi) = (skipped.saturating_sub(t_last), skipped.min(s_last));
        let mut a = lo;
        while a <= hi {
            let Some(k) = crossing(&s[a..=hi], &t[skipped - hi..=skipped - a]) else {
                break;
            };
            a += k;
            let b = skipped - a;
            if (s[a + 1..a + least].iter()).eq(&t[b + 1..b + least]) {
                return Some((a, b));
            }
            a += 1;
        }
    }
    None
}

/// The first k with `x[k] == y[y.len() - 1 - k]`: `x` forwards beside `y` backwards.
fn crossing(x: &[u32], y: &[u32]) -> Option<usize> {
    x.iter().zip(y.iter().rev()).position(|(p, q)| p == q)
}

/// The parts of the source ranges `common` that one text's `runs` also cover, of at least
/// `least` tokens, into `out`.
fn intersect(common: &[(usize, usize)], runs: &[Run], least: usize, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let (mut i, mut k) = (0, 0);
    while i < common.len() && k < runs.len() {
        let (lo, hi) = common[i];
        let (rlo, rhi) = (runs[k].source, runs[k].source + runs[k].len);
        let (from, to) = (lo.max(rlo), hi.min(rhi));
        if to >= from + least {
            out.push((from, to));
        }
        if hi <= rhi {
            i += 1;
        } else {
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Few distinct ids, so texts agree at random here and there: the search finds the
        /// pair every pair of offsets, tried nearest first, would.
        #[test]
        fn agreeing_again_is_the_nearest_pair_of_offsets(
            s in proptest::collection::vec(0u32..3, 0..40),
            t in proptest::collection::vec(0u32..3, 0..40),
            least in 1usize..10,
        ) {
            let agree = |a: usize, b: usize| {
                a + least <= s.len() && b + least <= t.len() && s[a..a + least] == t[b..b + least]
            };
            let nearest = (1..=REACH)
                .flat_map(|skipped| (0..=skipped).map(move |a| (a, skipped - a)))
                .find(|&(a, b)| agree(a, b));
            proptest::prop_assert_eq!(agree_again(&s, &t, least), nearest);
        }
    }
}
