//! Counting: tokens → ids → n-gram ids → multiset counts → the seven region counts.
//!
//! Interning is local to one sentence: an n-gram only ever meets the n-grams of its own
//! source, references and hypotheses, so ids need no global table, sentences can be
//! counted on any thread in any order, and memory stays flat however long the corpus is.
//! A token is hashed once (into a per-sentence arena); an n-gram of order n+1 is a child of
//! its first n tokens in a trie of ids, so higher orders never hash at all.

use std::cell::RefCell;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::common::{same_end, same_start, Cuts};
use crate::shorts::Shorts;
use crate::tokenizer::{is_printable_ascii, SpaceRuns, TokenizeError, Tokenizer};
use crate::trie::Trie;

/// The seven regions of the Venn diagram of S, R and C for one n-gram order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Regions {
    pub tk: u64,
    pub td: u64,
    pub ti: u64,
    pub od: u64,
    pub oi: u64,
    pub ud: u64,
    pub ui: u64,
}

impl Regions {
    /// `self + other`, or `None` where a count would pass `u64::MAX`.
    pub fn checked_add(&self, other: &Regions) -> Option<Regions> {
        Some(Regions {
            tk: self.tk.checked_add(other.tk)?,
            td: self.td.checked_add(other.td)?,
            ti: self.ti.checked_add(other.ti)?,
            od: self.od.checked_add(other.od)?,
            oi: self.oi.checked_add(other.oi)?,
            ud: self.ud.checked_add(other.ud)?,
            ui: self.ui.checked_add(other.ui)?,
        })
    }

    /// Regions of one n-gram with multiplicities `s`, `r`, `c` in source, reference, hypothesis.
    #[inline]
    pub fn of(s: u64, r: u64, c: u64) -> Regions {
        Regions {
            tk: s.min(r).min(c),
            td: s.saturating_sub(r.max(c)),
            ti: r.min(c).saturating_sub(s),
            od: s.min(r).saturating_sub(c),
            oi: c.saturating_sub(s.max(r)),
            ud: s.min(c).saturating_sub(r),
            ui: r.saturating_sub(s.max(c)),
        }
    }

    /// The regions summed over every n-gram, from the texts' sizes `[|S|, |R|, |C|]` and four
    /// sums over the n-grams: Σ min(s, r), Σ min(s, c), Σ min(r, c) and Σ min(s, r, c).
    /// Exact: per n-gram, max(a, b) = a + b - min(a, b) turns each region into these mins
    /// (e.g. td = s - min(s, max(r, c)) = s - min(s, r) - min(s, c) + min(s, r, c)).
    pub fn from_sums([s, r, c]: [u64; 3], msr: u64, msc: u64, mrc: u64, msrc: u64) -> Regions {
        Regions {
            tk: msrc,
            td: s + msrc - msr - msc,
            ti: mrc - msrc,
            od: msr - msrc,
            oi: c + msrc - msc - mrc,
            ud: msc - msrc,
            ui: r + msrc - msr - mrc,
        }
    }

    #[inline]
    pub fn add(&mut self, o: &Regions) {
        self.tk += o.tk;
        self.td += o.td;
        self.ti += o.ti;
        self.od += o.od;
        self.oi += o.oi;
        self.ud += o.ud;
        self.ui += o.ui;
    }

    /// True positives: TK + TD + TI.
    pub fn tp(&self) -> u64 {
        self.tk + self.td + self.ti
    }

    /// False positives: OD + OI.
    pub fn fp(&self) -> u64 {
        self.od + self.oi
    }

    /// False negatives: UD + UI.
    pub fn fn_(&self) -> u64 {
        self.ud + self.ui
    }
}

/// Region counts of one sentence: for every hypothesis, every reference and every order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SentenceCounts {
    /// Highest n-gram order counted; orders are 1..=n.
    pub n: usize,
    /// Number of references of this sentence (may differ between sentences).
    pub refs: usize,
    /// Number of hypotheses (systems).
    pub hyps: usize,
    /// Flat `[hyp][ref][order]`.
    pub regions: Vec<Regions>,
}

impl SentenceCounts {
    /// The per-order regions of hypothesis `hyp` against reference `reference`, orders 1..=n.
    pub fn get(&self, hyp: usize, reference: usize) -> &[Regions] {
        let start = (hyp * self.refs + reference) * self.n;
        &self.regions[start..start + self.n]
    }
}

/// Reusable scratch space for counting one sentence at a time (one per thread).
#[derive(Default)]
pub struct Counter {
    /// One code point of the Basic Multilingual Plane (every token at character level; at
    /// word level, characters of two or three bytes): id + 1 by code point, 0 = not seen in
    /// this sentence; and the code points to clear before the next sentence.
    bmp: Vec<u32>,
    bmp_seen: Vec<u16>,
    /// Other tokens of up to [`SHORT_BYTES`] bytes (most words), keyed by their packed bytes:
    /// no text to store or compare.
    short: Shorts,
    /// Longer tokens.
    long: Longs,
    /// [`Counter::intern_spaced`]'s copy of a text, with sixteen zero bytes after it.
    padded: Vec<u8>,
    vocab: u32,
    /// Token ids of every text, concatenated; `bounds[t]..bounds[t + 1]` is text `t`.
    tokens: Vec<u32>,
    bounds: Vec<usize>,
    /// Per text, the first text equal to it (itself if none): equal texts have equal
    /// n-grams, so only the first is counted and its sums stand for the others.
    alias: Vec<usize>,
    /// Per text, how many tokens it shares with the source at its start and, after those,
    /// at its end: the n-grams inside either part are the source's (their ids are copied).
    shared: Vec<(usize, usize)>,
    /// Byte range of each source token, when the tokenizer may be cut before spaces.
    source_spans: Vec<(usize, usize)>,
    /// N-gram ids of the current order, laid out like `tokens` (each text n-1 shorter);
    /// those of the next order are written to `next`, which then takes its place.
    grams: Vec<u32>,
    next: Vec<u32>,
    gram_bounds: Vec<usize>,
    /// Per text, a bound on its n-gram ids at the current order: ids are numbered text after
    /// text, so a text's are below the count numbered once it is done (the sums of
    /// [`Counter::count_dense`] stop there).
    upto: Vec<u32>,
    /// Building the next order: a dense (prefix, token) table, or a trie. A dense slot holds
    /// an id in its low [`ID_BITS`] and, above them, the `generation` (call of `next_order`,
    /// or sentence of `count_fused`) that wrote it: a slot from an earlier one reads as empty,
    /// so the table is cleared only when the generation wraps.
    dense: Vec<u32>,
    generation: u32,
    trie: Trie,
    /// Counts of each n-gram id per text, `[id][text]` (sparse mode: source and hypotheses).
    counts: Vec<u32>,
    /// The same, `u16`, for a dense order whose texts have fewer than 2^16 n-grams, and for
    /// [`Counter::count_fused`].
    counts16: Vec<u16>,
    /// Counts in the reference being scored, by id (zeroed again after each reference).
    ref_counts: Vec<u32>,
    /// Which (reference, hypothesis) pair last visited an id, so each id counts once.
    stamps: Vec<usize>,
    /// Σ min(s, t) per text t and order summed ([`pair_regions`]).
    with_source: Vec<u64>,
    /// [`Counter::count_fused`]: per text, the bound on its ids at each order (`[order][text]`,
    /// as `upto`), and the column of its counts (texts equal to an earlier one have none).
    fused_upto: Vec<u32>,
    fused_column: Vec<usize>,
    /// Set when a sentence's tokens outgrow [`MAX_TOKEN_BYTES`].
    overflow: bool,
    /// The runs every text shares with the source, to take out before counting.
    cuts: Cuts,
    /// Whether the CPU has AVX2, asked once per counter rather than at every sum.
    #[cfg(target_arch = "x86_64")]
    avx2: Avx2,
}

/// Whether [`Counter::count_dense`] may run its AVX2 copy: the CPU's answer, taken when
/// the counter is made.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2(bool);

#[cfg(target_arch = "x86_64")]
impl Default for Avx2 {
    fn default() -> Self {
        Avx2(std::is_x86_feature_detected!("avx2"))
    }
}

/// The code point of a token that is one character of the Basic Multilingual Plane
/// (one to three UTF-8 bytes whose first byte says the character is that long).
#[inline(always)]
fn bmp_code_point(b: &[u8]) -> Option<u16> {
    match *b {
        [a] => Some(u16::from(a)),
        [a, c] if a & 0xE0 == 0xC0 => Some(u16::from(a & 0x1F) << 6 | u16::from(c & 0x3F)),
        [a, c, d] if a & 0xF0 == 0xE0 => {
            Some(u16::from(a & 0x0F) << 12 | u16::from(c & 0x3F) << 6 | u16::from(d & 0x3F))
        }
        _ => None,
    }
}

/// Longest token kept in [`Counter::short`]: its bytes and its length fill a `u128`.
const SHORT_BYTES: usize = 15;

/// A token of up to [`SHORT_BYTES`] bytes as one number: its bytes from the lowest, its
/// length in the highest byte. Built from two overlapping reads of the widest size that fits
/// (the bytes both read land in the same place), not copied through memory, which would
/// stall the read of the whole number that follows.
#[inline(always)]
fn short_key(b: &[u8]) -> u128 {
    let len = b.len();
    let two = |i: usize| u128::from(u16::from_le_bytes([b[i], b[i + 1]]));
    let four = |i: usize| u128::from(u32::from_le_bytes(b[i..i + 4].try_into().expect("4")));
    let eight = |i: usize| u128::from(u64::from_le_bytes(b[i..i + 8].try_into().expect("8")));
    let bytes = match len {
        0 => 0,
        1 => u128::from(b[0]),
        2..=3 => two(0) | two(len - 2) << (8 * (len - 2)),
        4..=7 => four(0) | four(len - 4) << (8 * (len - 4)),
        _ => eight(0) | eight(len - 8) << (8 * (len - 8)),
    };
    bytes | (len as u128) << 120
}

/// [`short_key`] of the `len` (at most [`SHORT_BYTES`]) bytes at the start of `padded`,
/// which holds at least 16: one read of sixteen bytes, masked to `len`, with no branch on the
/// length (which mispredicts token after token when the lengths vary).
#[inline(always)]
fn padded_short_key(padded: &[u8], len: usize) -> u128 {
    let word = u128::from_le_bytes(padded[..16].try_into().expect("16 bytes"));
    word & KEEP[len] | (len as u128) << 120
}

/// The mask of the low `len` bytes of a `u128`, by `len`: read, where computing it was a
/// dozen instructions a token (a `u128` shift by a variable amount, branch-free).
static KEEP: [u128; SHORT_BYTES + 1] = {
    let mut keep = [0; SHORT_BYTES + 1];
    let mut len = 1;
    while len <= SHORT_BYTES {
        keep[len] = u128::MAX >> (128 - 8 * len);
        len += 1;
    }
    keep
};

/// A [`short_key`]'s hash: its halves multiplied into 128 bits and folded (one multiply;
/// every bit of the key reaches the low bits, which pick the bucket, and the high bits,
/// which the table keeps as a tag). Neither factor is ever zero: the low half is UTF-8
/// text, which never starts with the bytes D3 08, and the high half's top byte is a length
/// of at most 15, not 0x13.
#[inline(always)]
pub(crate) fn short_hash(key: u128) -> u64 {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    let m = u128::from(lo ^ 0x243F_6A88_85A3_08D3) * u128::from(hi ^ 0x1319_8A2E_0370_7344);
    (m as u64) ^ (m >> 64) as u64
}

/// The id in `short` of a token of up to [`SHORT_BYTES`] bytes, by its [`short_key`]; a new
/// one is `*vocab`, which then moves on.
#[inline(always)]
fn short_id(short: &mut Shorts, vocab: &mut u32, key: u128) -> u32 {
    short.id(short_hash(key), key, vocab)
}

/// The id in `bmp` (id + 1 by code point, 0 = not seen) of a one-character token of the
/// Basic Multilingual Plane; a new one is `*vocab`, which then moves on, and its code point
/// goes into `seen`, to be cleared before the next sentence.
#[inline(always)]
fn bmp_id(bmp: &mut [u32], seen: &mut Vec<u16>, vocab: &mut u32, cp: u16) -> u32 {
    let slot = &mut bmp[usize::from(cp)];
    if *slot == 0 {
        *vocab += 1;
        *slot = *vocab;
        seen.push(cp);
    }
    *slot - 1
}

/// One sentence's tokens longer than [`SHORT_BYTES`] bytes: their text in `arena`, looked up
/// through `table`.
#[derive(Default)]
struct Longs {
    arena: String,
    /// `(start, end, id)` of each token's text in `arena`.
    spans: Vec<(u32, u32, u32)>,
    table: HashTable<u32>,
}

impl Longs {
    fn clear(&mut self) {
        self.arena.clear();
        self.spans.clear();
        reset(&mut self.table);
    }

    /// The id of `tok`; a new one is `*vocab`, which then moves on. Past
    /// [`MAX_TOKEN_BYTES`] of text, `overflow` is set (and 0 returned).
    #[inline(never)]
    fn id(&mut self, tok: &str, vocab: &mut u32, overflow: &mut bool) -> u32 {
        let hash = FxBuildHasher.hash_one(tok);
        let (arena, spans) = (&self.arena, &self.spans);
        let text = |slot: u32| {
            let (s, e, _) = spans[slot as usize];
            &arena[s as usize..e as usize]
        };
        if let Some(&slot) = self.table.find(hash, |&slot| text(slot) == tok) {
            return self.spans[slot as usize].2;
        }
        if self.arena.len() + tok.len() > MAX_TOKEN_BYTES {
            *overflow = true;
            return 0;
        }
        let (slot, id) = (self.spans.len() as u32, *vocab);
        *vocab += 1;
        let start = self.arena.len() as u32;
        self.arena.push_str(tok);
        self.spans.push((start, self.arena.len() as u32, id));
        let (arena, spans) = (&self.arena, &self.spans);
        self.table.insert_unique(hash, slot, |&slot| {
            let (s, e, _) = spans[slot as usize];
            FxBuildHasher.hash_one(&arena[s as usize..e as usize])
        });
        id
    }
}

/// Where a text and its source part, cut just before ASCII spaces (or at either end):
/// `text[..head] == source[..head]` and `text[tail..] == source[source_tail..]`, with
/// `head <= tail` and `head <= source_tail`. Between the cuts the text must be tokenized.
fn cuts(source: &[u8], text: &[u8]) -> (usize, usize, usize) {
    let same = common_prefix(source, text);
    let head = source[..same].iter().rposition(|&b| b == b' ').unwrap_or(0);
    let same_end = common_suffix(&source[head..], &text[head..]);
    let from = text.len() - same_end;
    let tail = text[from..]
        .iter()
        .position(|&b| b == b' ')
        .map_or(text.len(), |i| from + i);
    (head, tail, tail + source.len() - text.len())
}

/// How many tokens `text` shares with `source` at its start and, after those, at its end.
fn shared_ends(source: &[u32], text: &[u32]) -> (usize, usize) {
    let head = same_start(source, text);
    (head, same_end(&source[head..], &text[head..]))
}

/// One n-gram's count in one text. `u16` where no text has 2^16 n-grams at the order (then
/// neither does any count, nor any sum of mins, each at most one text's n-grams): half the
/// memory to zero and sixteen counts to a vector; `u32` otherwise.
trait Count:
    Copy + Ord + Default + std::ops::AddAssign + std::iter::Sum + Into<u64> + From<u8>
{
    /// Every column of counts is a whole number of these long, and so is every sum of mins
    /// over columns (one AVX2 vector): the loops the compiler makes of the sums never run
    /// their one-at-a-time tail, whose exit would mispredict at almost every sum (their
    /// lengths vary).
    const LANES: usize;
}

impl Count for u16 {
    const LANES: usize = 16;
}

impl Count for u32 {
    const LANES: usize = 8;
}

/// Σ min(a, b) over two count columns.
#[inline(always)]
fn sum_min<T: Count>(a: &[T], b: &[T]) -> u64 {
    a.iter().zip(b).map(|(&a, &b)| a.min(b)).sum::<T>().into()
}

/// Σ min(r, c) and Σ min(s, r, c) over three count columns.
#[inline(always)]
fn sum_min_pair<T: Count>(s: &[T], r: &[T], c: &[T]) -> (u64, u64) {
    let (mut mrc, mut msrc) = (T::default(), T::default());
    for ((&s, &r), &c) in s.iter().zip(r).zip(c) {
        let m = r.min(c);
        mrc += m;
        msrc += m.min(s);
    }
    (mrc.into(), msrc.into())
}

/// The regions of every (hypothesis, reference) pair at `orders` (from 0 for order 1) from
/// every text's columns of counts in `counts`, by the text it equals (`alias`): at order
/// index k, the column of text `a` starts at `start(a, k)`, its ids are below `upto(a, k)`
/// (it is at least that rounded up to whole [`Count::LANES`] long, and zero from there),
/// and it has `len(a, k)` n-grams. Seven regions need only four sums over the n-grams, the
/// rest follow from the texts' lengths ([`Regions::from_sums`]): Σ min(s, r) per reference,
/// Σ min(s, c) per hypothesis, Σ min(r, c) and Σ min(s, r, c) per pair. Ids absent from S,
/// R and C add zero, so the sums run over whole columns without a branch. A text equal to
/// another has that text's column and sums: with C = S, for instance, Σ min(r, c) =
/// Σ min(s, r, c) = Σ min(s, r), and nothing is summed for the pair.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pair_regions<T: Count>(
    counts: &[T],
    alias: &[usize],
    orders: std::ops::Range<usize>,
    start: impl Fn(usize, usize) -> usize,
    upto: impl Fn(usize, usize) -> usize,
    len: impl Fn(usize, usize) -> u64,
    (refs, hyps): (usize, usize),
    with_source: &mut Vec<u64>,
    out: &mut SentenceCounts,
) {
    let texts = alias.len();
    // Text a's column at order index k, up to `end`: a text has no id from its bound on, so
    // a sum of mins of two columns stops at the lower bound, rounded up to whole lanes (the
    // columns are that long, and zero past their text's ids).
    let column = |a: usize, k: usize, end: usize| {
        let at = start(a, k);
        &counts[at..at + end.next_multiple_of(T::LANES)]
    };
    // Σ min(s, t) for every text t, `[t][order]`. Sums of mins fit in a count as the counts
    // do: each is at most one text's number of n-grams.
    let width = orders.len();
    // Every sum is written below before it is read: no zeros needed.
    if with_source.len() < texts * width {
        with_source.resize(texts * width, 0);
    }
    for (k, sum) in orders.clone().zip(&mut with_source[..width]) {
        *sum = len(0, k);
    }
    for t in 1..texts {
        let a = alias[t];
        for (i, k) in orders.clone().enumerate() {
            with_source[t * width + i] = match a {
                a if a != t => with_source[a * width + i],
                _ => {
                    let end = upto(0, k).min(upto(t, k));
                    sum_min(column(0, k, end), column(t, k, end))
                }
            };
        }
    }
    for r in 0..refs {
        let (rt, ra) = (1 + r, alias[1 + r]);
        for h in 0..hyps {
            let (ct, ca) = (1 + refs + h, alias[1 + refs + h]);
            let regions = &mut out.regions[(h * refs + r) * out.n..][..out.n];
            for (i, k) in orders.clone().enumerate() {
                let (msr, msc) = (with_source[rt * width + i], with_source[ct * width + i]);
                let (mrc, msrc) = match (ra, ca) {
                    (x, y) if x == y => (len(ra, k), msr),
                    (0, _) => (msc, msc),
                    (_, 0) => (msr, msr),
                    _ => {
                        let end = upto(ra, k).min(upto(ca, k));
                        sum_min_pair(column(0, k, end), column(ra, k, end), column(ca, k, end))
                    }
                };
                let lens = [len(0, k), len(ra, k), len(ca, k)];
                regions[k] = Regions::from_sums(lens, msr, msc, mrc, msrc);
            }
        }
    }
}

/// One more in `counts[t * stride + id]` for every id of every text t that is its own
/// (`alias[t] == t`), whose ids are `ids[bounds[t]..bounds[t + 1]]`. The largest of all the
/// texts' ids is checked against `width` once (a vector max: with AVX2, a quarter of an
/// instruction an id), so that each count is a load and an add, without a check of its own
/// (the check was two of the loop's five instructions an id), and short texts pay no set-up
/// of a check each. Inlined, so that it is compiled with its caller's target features.
#[inline(always)]
fn count_columns<T: Count>(
    counts: &mut [T],
    (stride, width): (usize, usize),
    ids: &[u32],
    bounds: &[usize],
    alias: &[usize],
) {
    let ids = &ids[..bounds[alias.len()]];
    let most = ids.iter().copied().fold(0, u32::max) as usize;
    assert!(
        width <= stride && alias.len() * stride <= counts.len() && (ids.is_empty() || most < width),
        "an id beyond its column"
    );
    for t in (0..alias.len()).filter(|&t| alias[t] == t) {
        let column = &mut counts[t * stride..];
        // Four ids a step: one loop test for four counts.
        let mut fours = ids[bounds[t]..bounds[t + 1]].chunks_exact(4);
        for four in &mut fours {
            for &id in four {
                // SAFETY: `id <= most < width <= stride`, and `column` is at least
                // `(alias.len() - t) * stride >= stride` long (checked above).
                unsafe { *column.get_unchecked_mut(id as usize) += T::from(1) };
            }
        }
        for &id in fours.remainder() {
            // SAFETY: as above.
            unsafe { *column.get_unchecked_mut(id as usize) += T::from(1) };
        }
    }
}

/// `v` as `len` copies of `value`. A table that must grow gets a fresh allocation (at least
/// double): growing in place would copy its stale contents, and fault in a second buffer.
fn refill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    if v.capacity() < len {
        *v = Vec::with_capacity(len.max(2 * v.capacity()));
    }
    v.clear();
    v.resize(len, value);
}

/// Sixteen bytes as one number, to compare them at once.
fn wide(c: &[u8]) -> u128 {
    u128::from_ne_bytes(c.try_into().expect("16 bytes"))
}

/// How many bytes `a` and `b` share at their start: sixteen at a time, then one at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let same = (a.chunks_exact(16).zip(b.chunks_exact(16)))
        .take_while(|(x, y)| wide(x) == wide(y))
        .count()
        * 16;
    same + (a[same..].iter().zip(&b[same..]))
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let same = (a.rchunks_exact(16).zip(b.rchunks_exact(16)))
        .take_while(|(x, y)| wide(x) == wide(y))
        .count()
        * 16;
    let (a, b) = (&a[..a.len() - same], &b[..b.len() - same]);
    same + (a.iter().rev().zip(b.iter().rev()))
        .take_while(|(x, y)| x == y)
        .count()
}

/// Most slots of the dense (prefix, token) table (4 MiB): beyond what the caches hold its
/// random reads cost more than the trie's, and in a long text it would take 16 bytes per
/// n-gram (a 15 MB line at character level: gigabytes).
const DENSE_SLOTS: usize = 1 << ID_BITS;

/// Bits of a dense slot that hold the n-gram id: every id of an order numbered through the
/// table is a distinct slot, so there are fewer than [`DENSE_SLOTS`]. The generation takes
/// the other 12 bits, which keeps a slot at 4 bytes (twice as many in each cache line as
/// with a 32-bit generation: on CoNLL-14 at character level the table's reads are most of
/// the numbering's time).
const ID_BITS: u32 = 20;

/// The largest id a dense slot holds.
const ID: u32 = (1 << ID_BITS) - 1;

/// The generation after the last that fits beside an id.
const GENERATIONS: u32 = 1 << (32 - ID_BITS);

/// Most children a prefix keeps in its trie list before they move to a hash table, in a
/// short sentence (its lists are in cache)...
const LIST_SHORT: u32 = 8;
/// ...and in a long one (its lists lie all over memory: one cache miss a step).
const LIST_LONG: u32 = 2;

/// N-grams (of every text, at one order) from which a sentence is long: its lookups read
/// ahead what the ones a few positions on will need.
const LONG_GRAMS: usize = 1 << 16;

/// How many positions ahead a long sentence's lookups ask for the memory they will read.
const AHEAD: usize = 16;

/// Empties a hash table for the next sentence. Clearing one costs its capacity, so a table
/// left large by a long sentence is dropped once a short one has used it, rather than
/// cleared at that cost for every sentence after.
fn reset<T>(table: &mut HashTable<T>) {
    if table.capacity() > 1 << 12 && table.len() < table.capacity() / 8 {
        *table = HashTable::new();
    } else {
        table.clear();
    }
}

/// Most orders [`Counter::count_fused`] takes (a few small arrays of this length each).
const FUSED_ORDERS: usize = 8;

/// Where [`Counter::count_fused`] puts each order (index order - 1).
#[derive(Default)]
struct Plan {
    /// The length of each text's column of counts (`u16`): a bound on the order's ids,
    /// rounded up to whole [`Count::LANES`].
    column: [usize; FUSED_ORDERS],
    /// Where the order's columns start in `counts`, one after another by text.
    counts_at: [usize; FUSED_ORDERS],
    /// Where the dense table of the next order's n-grams, by (this order's id, token), starts.
    table_at: [usize; FUSED_ORDERS],
    /// Counts and table slots in all.
    counts: usize,
    slots: usize,
}

/// Fewest tokens a source must keep once its shared start and end are cut for its middle to
/// be searched for runs every text shares ([`Counter::cut_interior`]). In shorter ones the
/// search costs more than it saves: on CoNLL-14 AMU, searching every sentence made word
/// level 3% slower, and from 64 tokens (most sentences at character level, few at word
/// level) character level N=6 is 10% faster and word level unchanged.
const INTERIOR_FROM: usize = 64;

/// Most bytes of distinct long tokens one sentence may produce (a tokenizer plugin that
/// returns every suffix of a long line would otherwise exhaust memory).
pub const MAX_TOKEN_BYTES: usize = 1 << 30;

thread_local! {
    static LOCAL: RefCell<Counter> = RefCell::new(Counter::new());
}

impl Counter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `f` with this thread's own counter, kept from call to call, so its tables
    /// (the 256 KiB code point table above all) are allocated and paged in once per thread,
    /// not once per parallel task. A nested call gets a fresh counter.
    pub fn with_local<R>(f: impl FnOnce(&mut Counter) -> R) -> R {
        LOCAL.with(|cell| match cell.try_borrow_mut() {
            Ok(mut counter) => f(&mut counter),
            Err(_) => f(&mut Counter::new()),
        })
    }

    /// The id of a token in this sentence: a character of two or three bytes by code point,
    /// others of up to [`SHORT_BYTES`] (one byte too, keyed as [`Counter::intern_spaced`]
    /// keys it) by packed bytes, longer ones by text. Inline but for the last.
    #[inline(always)]
    fn intern(&mut self, tok: &str) -> u32 {
        match bmp_code_point(tok.as_bytes()) {
            Some(cp) if tok.len() > 1 => self.intern_bmp(cp),
            _ if tok.len() <= SHORT_BYTES => self.intern_short(short_key(tok.as_bytes())),
            _ => self.intern_long(tok),
        }
    }

    /// The id of a token of up to [`SHORT_BYTES`] bytes, by its [`short_key`].
    #[inline(always)]
    fn intern_short(&mut self, key: u128) -> u32 {
        short_id(&mut self.short, &mut self.vocab, key)
    }

    /// The id of a one-character token of the Basic Multilingual Plane.
    #[inline(always)]
    fn intern_bmp(&mut self, cp: u16) -> u32 {
        bmp_id(&mut self.bmp, &mut self.bmp_seen, &mut self.vocab, cp)
    }

    /// The ids of a text's characters, for a tokenizer whose tokens are exactly those. They
    /// are written into room made first (a text has at most one character a byte), and the
    /// tables are borrowed as locals, so the loop keeps its lengths and counters in registers.
    fn intern_chars(&mut self, text: &str, ids: &mut Vec<u32>) {
        let start = ids.len();
        ids.resize(start + text.len(), 0);
        let out = &mut ids[start..];
        let Counter {
            bmp,
            bmp_seen,
            short,
            ..
        } = self;
        let bmp: &mut [u32; 1 << 16] = bmp.as_mut_slice().try_into().expect("BMP table");
        let (mut n, mut vocab) = (0, self.vocab);
        // ASCII (most text that is scored at character level) is its own code points: no
        // decoding, and a loop the length of the text.
        if text.is_ascii() {
            for (id, &b) in out.iter_mut().zip(text.as_bytes()) {
                *id = bmp_id(bmp, bmp_seen, &mut vocab, u16::from(b));
            }
            self.vocab = vocab;
            return;
        }
        for c in text.chars() {
            out[n] = match u16::try_from(u32::from(c)) {
                Ok(cp) => bmp_id(bmp, bmp_seen, &mut vocab, cp),
                Err(_) => short_id(
                    short,
                    &mut vocab,
                    short_key(c.encode_utf8(&mut [0; 4]).as_bytes()),
                ),
            };
            n += 1;
        }
        self.vocab = vocab;
        ids.truncate(start + n);
    }

    /// The ids of a text's characters after the source's (which `ids` starts with): the
    /// start and the end it shares with the source, byte for byte, have the source's ids,
    /// only the rest is read. A cut between equal bytes that is a character boundary in one
    /// text is one in the other (the same bytes before it, or after it, say so). Returns
    /// the characters of that start and end: those [`shared_ends`] would find, as the
    /// character after the start (before the end) differs in a byte, so in its id.
    fn intern_chars_from(
        &mut self,
        source: &str,
        text: &str,
        ids: &mut Vec<u32>,
    ) -> (usize, usize) {
        let (s, x) = (source.as_bytes(), text.as_bytes());
        let mut head = common_prefix(s, x);
        while !text.is_char_boundary(head) {
            head -= 1;
        }
        let mut tail = common_suffix(&s[head..], &x[head..]);
        while !text.is_char_boundary(text.len() - tail) {
            tail -= 1;
        }
        let source_len = self.bounds[1];
        // A source with as many characters as bytes is ASCII: its bytes are its characters.
        let (head_chars, tail_chars) = match source_len == source.len() {
            true => (head, tail),
            false => (
                source[..head].chars().count(),
                source[source.len() - tail..].chars().count(),
            ),
        };
        ids.extend_from_within(..head_chars);
        self.intern_chars(&text[head..text.len() - tail], ids);
        ids.extend_from_within(source_len - tail_chars..source_len);
        (head_chars, tail_chars)
    }

    /// The id of a token longer than [`SHORT_BYTES`] bytes.
    fn intern_long(&mut self, tok: &str) -> u32 {
        self.long.id(tok, &mut self.vocab, &mut self.overflow)
    }

    /// The ids of the runs between spaces of a printable-ASCII text (the tokens of a
    /// tokenizer that splits such text at spaces), in one loop over [`SpaceRuns`] with the
    /// tables' state in locals, as [`Counter::intern_chars`] does for characters: through a
    /// callback per token, each was a call that saved and reloaded that state. `spans`, if
    /// given, gets where each token lies in `text`.
    fn intern_spaced(
        &mut self,
        text: &str,
        ids: &mut Vec<u32>,
        mut spans: Option<&mut Vec<(usize, usize)>>,
    ) {
        let bytes = text.as_bytes();
        let start = ids.len();
        // k tokens take at least 2k - 1 bytes.
        ids.resize(start + bytes.len().div_ceil(2), 0);
        let out = &mut ids[start..];
        let Counter {
            short,
            long,
            vocab,
            overflow,
            padded,
            ..
        } = self;
        // The text and sixteen zeros, for [`padded_short_key`].
        padded.clear();
        padded.extend_from_slice(bytes);
        padded.extend_from_slice(&[0; 16]);
        let (mut n, mut next) = (0, *vocab);
        for (s, e) in SpaceRuns::new(bytes) {
            let len = e - s;
            // As `intern`: up to SHORT_BYTES by packed bytes ([`short_key`]).
            out[n] = if len <= SHORT_BYTES {
                short_id(short, &mut next, padded_short_key(&padded[s..], len))
            } else {
                long.id(&text[s..e], &mut next, overflow)
            };
            n += 1;
            if let Some(spans) = spans.as_deref_mut() {
                spans.push((s, e));
            }
        }
        *vocab = next;
        ids.truncate(start + n);
    }

    /// Count one sentence: its source, its references and the hypotheses of every system.
    pub fn count<T: Tokenizer + ?Sized>(
        &mut self,
        tokenizer: &T,
        n: usize,
        source: &str,
        refs: &[&str],
        hyps: &[&str],
    ) -> Result<SentenceCounts, TokenizeError> {
        self.intern_texts(tokenizer, source, refs, hyps)?;
        let common = self.trim_common(n);
        let mut out = SentenceCounts {
            n,
            refs: refs.len(),
            hyps: hyps.len(),
            regions: vec![Regions::default(); hyps.len() * refs.len() * n],
        };
        match self.plan(n) {
            Some(plan) => self.count_fused(&plan, refs.len(), hyps.len(), &mut out),
            None => self.count_by_order(n, refs.len(), hyps.len(), &mut out),
        }
        for regions in &mut out.regions {
            regions.tk += common;
        }
        Ok(out)
    }

    /// [`Counter::count`] one order at a time: the n-gram ids of each order from those of the
    /// order below ([`Counter::next_order`]), then their counts (dense or sparse). For what
    /// [`Counter::count_fused`] does not take: long sentences, many texts, high orders.
    fn count_by_order(&mut self, n: usize, refs: usize, hyps: usize, out: &mut SentenceCounts) {
        let texts = 1 + refs + hyps;
        self.grams.clone_from(&self.tokens);
        self.gram_bounds.clone_from(&self.bounds);
        let mut vocab = self.vocab as usize;
        for order in 1..=n {
            if order > 1 {
                vocab = self.next_order(order, texts, vocab);
            }
            // A dense [id][text] table is fastest while it stays within a few times the
            // n-grams' own size; with many references it would grow as references × vocabulary.
            if texts.saturating_mul(vocab) <= 8 * self.grams.len() + 4096 {
                self.count_dense(order, texts, refs, hyps, vocab, out);
            } else {
                self.count_sparse(order, refs, hyps, vocab, out);
            }
        }
    }

    /// Where [`Counter::count_fused`] would put each order, if the sentence is short enough
    /// for it: at most [`FUSED_ORDERS`] orders, [`LONG_GRAMS`] n-grams, and tables within the
    /// bounds [`Counter::next_order`] and [`Counter::count_by_order`] keep to at every order.
    fn plan(&self, n: usize) -> Option<Plan> {
        if n == 0 || n > FUSED_ORDERS {
            return None;
        }
        let (bounds, alias) = (&self.bounds, &self.alias);
        let width = self.vocab as usize;
        let mut plan = Plan::default();
        let mut texts = 0;
        for t in (0..alias.len()).filter(|&t| alias[t] == t) {
            texts += 1;
            for k in 1..n {
                plan.column[k] += (bounds[t + 1] - bounds[t]).saturating_sub(k);
            }
        }
        // Order 1's ids are the tokens'; every other order numbers its n-grams from 0, so
        // their number bounds its ids.
        plan.column[0] = width;
        let all: usize = plan.column[..n].iter().sum();
        let (mut counts, mut slots) = (0, 0);
        for k in 0..n {
            if k + 1 < n {
                plan.table_at[k] = slots;
                slots += plan.column[k] * width;
            }
            plan.column[k] = plan.column[k].next_multiple_of(<u16 as Count>::LANES);
            plan.counts_at[k] = counts;
            counts += texts * plan.column[k];
        }
        plan.counts = counts;
        plan.slots = slots;
        // Its counts are u16: no text has as many n-grams at any order as all its tokens.
        let fits = self.tokens.len() <= usize::from(u16::MAX)
            && all < LONG_GRAMS
            && slots <= (4 * all + 4096).min(DENSE_SLOTS)
            && counts <= 8 * all + 4096;
        fits.then_some(plan)
    }

    /// [`Counter::count`] at every order in one pass over each text: at each position, the
    /// n-grams starting there, order after order, each numbered through its prefix's id in a
    /// dense (prefix, token) table of its own order and counted as it is numbered. Ids are
    /// numbered text after text as in [`Counter::next_order`], so each text's are below the
    /// count numbered once it is done, and the sums are [`pair_regions`]'. Short sentences
    /// (most at word level) spend most of their time in the per-order set-up this saves.
    fn count_fused(&mut self, plan: &Plan, refs: usize, hyps: usize, out: &mut SentenceCounts) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2.0 {
            // SAFETY: the CPU has AVX2 (`Avx2::default` asked it).
            unsafe { self.count_fused_avx2(plan, refs, hyps, out) };
            return;
        }
        self.count_fused_portable(plan, refs, hyps, out);
    }

    /// [`Counter::count_fused`] where the CPU has AVX2 (see [`Counter::count_dense_avx2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn count_fused_avx2(
        &mut self,
        plan: &Plan,
        refs: usize,
        hyps: usize,
        out: &mut SentenceCounts,
    ) {
        self.count_fused_portable(plan, refs, hyps, out);
    }

    #[inline(always)]
    fn count_fused_portable(
        &mut self,
        plan: &Plan,
        refs: usize,
        hyps: usize,
        out: &mut SentenceCounts,
    ) {
        let n = out.n;
        let tag = fresh_tag(&mut self.dense, &mut self.generation, plan.slots);
        let Counter {
            tokens,
            bounds,
            alias,
            dense: table,
            counts16: counts,
            upto,
            fused_upto,
            fused_column,
            with_source,
            vocab,
            ..
        } = self;
        // The tables' rows are a token wide (the counts' columns are rounded up).
        let (texts, width) = (alias.len(), *vocab as usize);
        refill(counts, plan.counts, 0);
        refill(fused_upto, n * texts, 0);
        refill(fused_column, texts, 0);
        let mut ids = [0u32; FUSED_ORDERS];
        let table = &mut table[..plan.slots];
        let state = (tag, width);
        let count = match n {
            1 => number_and_count::<1>,
            2 => number_and_count::<2>,
            3 => number_and_count::<3>,
            4 => number_and_count::<4>,
            5 => number_and_count::<5>,
            6 => number_and_count::<6>,
            7 => number_and_count::<7>,
            _ => number_and_count::<8>,
        };
        for (column, t) in (0..texts).filter(|&t| alias[t] == t).enumerate() {
            fused_column[t] = column;
            let at: [usize; FUSED_ORDERS] =
                std::array::from_fn(|k| plan.counts_at[k] + column * plan.column[k]);
            let toks = &tokens[bounds[t]..bounds[t + 1]];
            count(toks, table, counts, state, &plan.table_at, &at, &mut ids);
            fused_upto[t] = upto[t];
            for k in 1..n {
                fused_upto[k * texts + t] = ids[k];
            }
        }
        pair_regions(
            counts,
            alias,
            0..n,
            |a, k| plan.counts_at[k] + fused_column[a] * plan.column[k],
            |a, k| fused_upto[k * texts + a] as usize,
            |a, k| (bounds[a + 1] - bounds[a]).saturating_sub(k) as u64,
            (refs, hyps),
            with_source,
            out,
        );
    }

    /// Drop the tokens at the start and end that every text shares with the source, all but
    /// the n - 1 next to the rest; returns how many n-grams each text lost at every order.
    ///
    /// The n-grams dropped are the same in every text, so each n-gram's count falls by the
    /// same k in S, R and C; min is unchanged by a common shift (min(s + k, r + k) =
    /// min(s, r) + k), so every sum of [`Regions::from_sums`] and every length fall by the
    /// number dropped, which only moves TK. Each text keeps n - 1 tokens of the shared part
    /// on either side, so every order loses exactly one n-gram per token dropped, and no
    /// n-gram is dropped twice (what is left spans at least n tokens when both ends are cut).
    /// A long middle is then searched for more runs that every text shares.
    fn trim_common(&mut self, n: usize) -> u64 {
        let texts = self.alias.len();
        let others = (1..texts).filter(|&t| self.alias[t] == t);
        // Texts equal to the source share all of it; with none other, its start is all.
        let source_len = self.bounds[1];
        let head = others
            .clone()
            .map(|t| self.shared[t].0)
            .min()
            .unwrap_or(source_len);
        let tail = others.map(|t| self.shared[t].1).min().unwrap_or(0);
        let keep = n.saturating_sub(1);
        let (cut_head, cut_tail) = (head.saturating_sub(keep), tail.saturating_sub(keep));
        if cut_head + cut_tail > 0 {
            self.cut_ends(cut_head, cut_tail);
        }
        // Searching the middle pays only where it is long (sentences at character level).
        let mut cut = (cut_head + cut_tail) as u64;
        if self.bounds[1] >= INTERIOR_FROM {
            cut += self.cut_interior(n);
        }
        cut
    }

    /// Take `cut_head` tokens off the start of every text and `cut_tail` off its end.
    fn cut_ends(&mut self, cut_head: usize, cut_tail: usize) {
        let texts = self.alias.len();
        let mut write = 0;
        for t in 0..texts {
            let (start, end) = (self.bounds[t], self.bounds[t + 1]);
            self.bounds[t] = write;
            if self.alias[t] != t {
                continue;
            }
            self.tokens
                .copy_within(start + cut_head..end - cut_tail, write);
            write += end - start - cut_head - cut_tail;
            if t > 0 {
                let (h, l) = self.shared[t];
                self.shared[t] = (h - cut_head, l - cut_tail);
            }
        }
        self.bounds[texts] = write;
        self.tokens.truncate(write);
    }

    /// Take out of every text the runs of tokens that all of them share with the source
    /// between their edits, all but the n - 1 on either side ([`crate::common`] says why
    /// that only moves TK); returns how many n-grams each text lost at every order.
    fn cut_interior(&mut self, n: usize) -> u64 {
        let Counter {
            tokens,
            bounds,
            alias,
            shared,
            cuts,
            ..
        } = self;
        let texts = alias.len();
        let others = (1..texts).filter(|&t| alias[t] == t);
        let cut = cuts.find(
            n,
            &tokens[..bounds[1]],
            others.map(|t| (&tokens[bounds[t]..bounds[t + 1]], shared[t])),
        );
        if cut == 0 {
            return 0;
        }
        let (lens, starts) = (&cuts.lengths, &cuts.starts);
        let stride = starts.len() / lens.len();
        let (mut write, mut k) = (0, 0);
        for t in 0..texts {
            let (start, end) = (bounds[t], bounds[t + 1]);
            bounds[t] = write;
            if alias[t] != t {
                continue;
            }
            let mut from = start;
            for (c, &d) in lens.iter().enumerate() {
                let at = start + starts[c * stride + k];
                tokens.copy_within(from..at, write);
                write += at - from;
                from = at + d;
            }
            tokens.copy_within(from..end, write);
            write += end - from;
            k += 1;
        }
        bounds[texts] = write;
        tokens.truncate(write);
        for t in (1..texts).filter(|&t| alias[t] == t) {
            shared[t] = shared_ends(&tokens[..bounds[1]], &tokens[bounds[t]..bounds[t + 1]]);
        }
        cut as u64
    }

    /// GLEU's statistics of one sentence (Napoles et al.; see [`crate::gleu`]): for every
    /// hypothesis, reference and order, over the hypothesis' distinct n-grams g,
    /// `matched = Σ min(r_g, c_g)`, `penalty = Σ_{r_g = 0} min(s_g, c_g)`, `total = Σ c_g`;
    /// and every text's length in tokens.
    pub fn count_gleu<T: Tokenizer + ?Sized>(
        &mut self,
        tokenizer: &T,
        n: usize,
        source: &str,
        refs: &[&str],
        hyps: &[&str],
    ) -> Result<crate::gleu::GleuCounts, TokenizeError> {
        self.intern_texts(tokenizer, source, refs, hyps)?;
        let texts = 1 + refs.len() + hyps.len();
        let len = |t: usize| (self.bounds[t + 1] - self.bounds[t]) as u64;
        let mut out = crate::gleu::GleuCounts {
            n,
            refs: refs.len(),
            hyps: hyps.len(),
            stats: vec![crate::gleu::GleuStats::default(); hyps.len() * refs.len() * n],
            ref_len: (0..refs.len()).map(|r| len(1 + r)).collect(),
            hyp_len: (0..hyps.len()).map(|h| len(1 + refs.len() + h)).collect(),
        };
        self.grams.clone_from(&self.tokens);
        self.gram_bounds.clone_from(&self.bounds);
        let mut vocab = self.vocab as usize;
        for order in 1..=n {
            if order > 1 {
                vocab = self.next_order(order, texts, vocab);
            }
            self.gleu_order(order, refs.len(), hyps.len(), vocab, &mut out);
        }
        Ok(out)
    }

    /// [`Counter::count_gleu`] at one order: source and hypothesis counts in one table, each
    /// reference's counts in turn, each hypothesis' distinct ids visited once.
    fn gleu_order(
        &mut self,
        order: usize,
        refs: usize,
        hyps: usize,
        vocab: usize,
        out: &mut crate::gleu::GleuCounts,
    ) {
        let width = 1 + hyps;
        self.per_reference_tables(refs, hyps, vocab);
        for r in 0..refs {
            let reference = self.grams_of(1 + r);
            for &id in &self.grams[reference.clone()] {
                self.ref_counts[id as usize] += 1;
            }
            for h in 0..hyps {
                let pair = r * hyps + h;
                let mut stats = crate::gleu::GleuStats::default();
                for &id in &self.grams[self.grams_of(1 + refs + h)] {
                    let id = id as usize;
                    if self.stamps[id] == pair {
                        continue;
                    }
                    self.stamps[id] = pair;
                    let row = &self.counts[id * width..];
                    let (s, c) = (u64::from(row[0]), u64::from(row[1 + h]));
                    let r = u64::from(self.ref_counts[id]);
                    stats.matched += r.min(c);
                    if r == 0 {
                        stats.penalty += s.min(c);
                    }
                    stats.total += c;
                }
                out.stats[(h * refs + r) * out.n + order - 1] = stats;
            }
            for &id in &self.grams[reference] {
                self.ref_counts[id as usize] = 0;
            }
        }
    }

    /// Intern every token of the source, references and hypotheses into `tokens`, text
    /// by text (`bounds[t]..bounds[t + 1]` is text `t`).
    fn intern_texts<T: Tokenizer + ?Sized>(
        &mut self,
        tokenizer: &T,
        source: &str,
        refs: &[&str],
        hyps: &[&str],
    ) -> Result<(), TokenizeError> {
        if self.bmp.is_empty() {
            self.bmp = vec![0; 1 << 16];
        }
        for &cp in &self.bmp_seen {
            self.bmp[cp as usize] = 0;
        }
        self.bmp_seen.clear();
        self.short.clear();
        self.long.clear();
        self.vocab = 0;
        self.tokens.clear();
        self.bounds.clear();
        self.bounds.push(0);
        self.alias.clear();
        self.shared.clear();
        self.upto.clear();
        self.overflow = false;
        let mut cut = tokenizer.splits_before_spaces();
        let chars = tokenizer.tokens_are_chars();
        let text = |t: usize| match t {
            0 => source,
            t if t <= refs.len() => refs[t - 1],
            t => hyps[t - 1 - refs.len()],
        };
        for t in 0..1 + refs.len() + hyps.len() {
            // A text equal to an earlier one (a system that left the sentence unchanged, a
            // reference equal to the source) has its tokens: copy their ids.
            if let Some(j) = (0..t).find(|&j| text(j) == text(t)) {
                self.tokens
                    .extend_from_within(self.bounds[j]..self.bounds[j + 1]);
                self.bounds.push(self.tokens.len());
                self.alias.push(j);
                self.shared.push((0, 0));
                self.upto.push(self.upto[j]);
                continue;
            }
            self.alias.push(t);
            let text = text(t);
            let mut ids = std::mem::take(&mut self.tokens);
            let mut ends = None;
            if chars && t > 0 {
                ends = Some(self.intern_chars_from(source, text, &mut ids));
            } else if chars {
                self.intern_chars(text, &mut ids);
            } else if cut {
                cut = self.intern_cut(tokenizer, source, (t > 0).then_some(text), &mut ids)?;
            } else {
                tokenizer.tokenize(text, &mut |tok| ids.push(self.intern(tok)))?;
            }
            self.tokens = ids;
            self.bounds.push(self.tokens.len());
            self.upto.push(self.vocab);
            self.shared.push(match (t, ends) {
                (0, _) => (0, 0),
                (_, Some(ends)) => ends,
                _ => shared_ends(
                    &self.tokens[..self.bounds[1]],
                    &self.tokens[self.bounds[t]..self.bounds[t + 1]],
                ),
            });
            if self.overflow {
                return Err(TokenizeError::new(format!(
                    "the tokenizer returned more than {} MiB of distinct tokens for one sentence",
                    MAX_TOKEN_BYTES >> 20
                )));
            }
        }
        Ok(())
    }

    /// Intern the tokens of a text whose tokenizer may be cut before spaces. The source
    /// (`text` None) records where its tokens lie; another text is tokenized only
    /// between the start and the end it shares with the source, the rest has the source's
    /// ids. Returns whether later texts may still be cut (the source's tokens were slices).
    #[inline(never)]
    fn intern_cut<T: Tokenizer + ?Sized>(
        &mut self,
        tokenizer: &T,
        source: &str,
        text: Option<&str>,
        ids: &mut Vec<u32>,
    ) -> Result<bool, TokenizeError> {
        // Printable ASCII that the tokenizer cuts at spaces is cut here ([`Counter::intern_spaced`]).
        let here = |text: &str| tokenizer.splits_printable_at_spaces() && is_printable_ascii(text);
        let Some(text) = text else {
            let mut spans = std::mem::take(&mut self.source_spans);
            spans.clear();
            let base = source.as_ptr() as usize;
            if here(source) {
                self.intern_spaced(source, ids, Some(&mut spans));
            } else {
                tokenizer.tokenize(source, &mut |tok: &str| {
                    let at = (tok.as_ptr() as usize).wrapping_sub(base);
                    if at <= source.len() && tok.len() <= source.len() - at {
                        spans.push((at, at + tok.len()));
                    }
                    ids.push(self.intern(tok));
                })?;
            }
            let sliced = spans.len() == ids.len();
            self.source_spans = spans;
            return Ok(sliced);
        };
        let (head, tail, source_tail) = cuts(source.as_bytes(), text.as_bytes());
        let spans = &self.source_spans;
        let before = spans.partition_point(|&(_, end)| end <= head);
        let after = spans.partition_point(|&(start, _)| start < source_tail);
        let count = spans.len();
        ids.extend_from_within(..before);
        let middle = &text[head..tail];
        if here(middle) {
            self.intern_spaced(middle, ids, None);
        } else {
            tokenizer.tokenize(middle, &mut |tok| ids.push(self.intern(tok)))?;
        }
        ids.extend_from_within(after..count);
        Ok(true)
    }

    /// The regions of every (hypothesis, reference) pair at one order, from a dense table of
    /// every text's counts ([`pair_regions`]).
    fn count_dense(
        &mut self,
        order: usize,
        texts: usize,
        refs: usize,
        hyps: usize,
        vocab: usize,
        out: &mut SentenceCounts,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2.0 {
            // SAFETY: the CPU has AVX2 (`Avx2::default` asked it).
            unsafe { self.count_dense_avx2(order, texts, refs, hyps, vocab, out) };
            return;
        }
        self.count_dense_portable(order, texts, refs, hyps, vocab, out);
    }

    /// [`Counter::count_dense`] where the CPU has AVX2: the same code, whose sums of mins
    /// the compiler writes eight counts at a time with one instruction for each min (the
    /// x86-64 baseline, SSE2, has no unsigned min: six instructions for four counts).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn count_dense_avx2(
        &mut self,
        order: usize,
        texts: usize,
        refs: usize,
        hyps: usize,
        vocab: usize,
        out: &mut SentenceCounts,
    ) {
        self.count_dense_portable(order, texts, refs, hyps, vocab, out);
    }

    #[inline(always)]
    fn count_dense_portable(
        &mut self,
        order: usize,
        texts: usize,
        refs: usize,
        hyps: usize,
        vocab: usize,
        out: &mut SentenceCounts,
    ) {
        // u16 where all the texts' n-grams together are fewer than 2^16 (so are each text's).
        if self.gram_bounds[texts] <= usize::from(u16::MAX) {
            let mut counts = std::mem::take(&mut self.counts16);
            self.count_dense_in(&mut counts, order, texts, (refs, hyps), vocab, out);
            self.counts16 = counts;
        } else {
            let mut counts = std::mem::take(&mut self.counts);
            self.count_dense_in(&mut counts, order, texts, (refs, hyps), vocab, out);
            self.counts = counts;
        }
    }

    /// [`Counter::count_dense`] with counts of type `T`, in `counts`.
    #[inline(always)]
    fn count_dense_in<T: Count>(
        &mut self,
        counts: &mut Vec<T>,
        order: usize,
        texts: usize,
        (refs, hyps): (usize, usize),
        vocab: usize,
        out: &mut SentenceCounts,
    ) {
        let (grams, bounds, alias) = (&self.grams, &self.gram_bounds, &self.alias);
        // Laid out [text][id]: each sum below runs down two or three whole columns, which
        // the compiler turns into vector code.
        let stride = vocab.next_multiple_of(T::LANES);
        refill(counts, texts * stride, T::default());
        count_columns(
            counts,
            (stride, vocab),
            grams,
            &bounds[..=texts],
            &alias[..texts],
        );
        let upto = &self.upto;
        pair_regions(
            counts,
            alias,
            order - 1..order,
            |a, _| a * stride,
            |a, _| upto[a] as usize,
            |a, _| (bounds[a + 1] - bounds[a]) as u64,
            (refs, hyps),
            &mut self.with_source,
            out,
        );
    }

    /// The same regions without the dense table, for many references. Only n-grams of S, R
    /// and C can give non-zero regions, so each pair walks those three texts' ids (each id
    /// once): time and memory stay linear in the number of references.
    fn count_sparse(
        &mut self,
        order: usize,
        refs: usize,
        hyps: usize,
        vocab: usize,
        out: &mut SentenceCounts,
    ) {
        let width = 1 + hyps;
        self.per_reference_tables(refs, hyps, vocab);
        for r in 0..refs {
            let reference = self.grams_of(1 + r);
            for &id in &self.grams[reference.clone()] {
                self.ref_counts[id as usize] += 1;
            }
            for h in 0..hyps {
                let pair = r * hyps + h;
                let mut acc = Regions::default();
                let ids = self.grams[self.grams_of(0)]
                    .iter()
                    .chain(&self.grams[reference.clone()])
                    .chain(&self.grams[self.grams_of(1 + refs + h)]);
                for &id in ids {
                    let id = id as usize;
                    if self.stamps[id] != pair {
                        self.stamps[id] = pair;
                        let row = &self.counts[id * width..];
                        acc.add(&Regions::of(
                            u64::from(row[0]),
                            u64::from(self.ref_counts[id]),
                            u64::from(row[1 + h]),
                        ));
                    }
                }
                out.regions[(h * refs + r) * out.n + order - 1] = acc;
            }
            for &id in &self.grams[reference] {
                self.ref_counts[id as usize] = 0;
            }
        }
    }

    /// Where text `t`'s n-gram ids of the current order lie in `grams` (those of the text
    /// it equals, if any).
    fn grams_of(&self, t: usize) -> std::ops::Range<usize> {
        let t = self.alias[t];
        self.gram_bounds[t]..self.gram_bounds[t + 1]
    }

    /// Tables for walking one reference at a time: the counts of the source and every
    /// hypothesis in one row per id (`[id][text]`, so they share a cache line), zeroed
    /// reference counts, and fresh visit stamps.
    fn per_reference_tables(&mut self, refs: usize, hyps: usize, vocab: usize) {
        let width = 1 + hyps;
        refill(&mut self.counts, vocab * width, 0);
        for (k, t) in std::iter::once(0)
            .chain(1 + refs..1 + refs + hyps)
            .enumerate()
        {
            for &id in &self.grams[self.grams_of(t)] {
                self.counts[id as usize * width + k] += 1;
            }
        }
        refill(&mut self.ref_counts, vocab, 0);
        refill(&mut self.stamps, vocab, usize::MAX);
    }

    /// Replace the n-gram ids of order `order - 1` by those of `order`; returns the vocabulary
    /// size. A text equal to an earlier one gets no ids of its own: it is read through `alias`.
    ///
    /// An n-gram is an (n-1)-gram followed by a token. When (prefix, token) pairs are few
    /// enough, a dense table indexed by both gives the id directly; otherwise the n-grams
    /// form a trie where each prefix heads a short list of (token, id) children, cheaper
    /// than hashing since almost every long prefix has one or two continuations (a prefix
    /// with more, a frequent word in a long text, has them hashed: see [`crate::trie`]).
    fn next_order(&mut self, order: usize, texts: usize, prev_vocab: usize) -> usize {
        let width = self.vocab as usize;
        let Counter {
            dense: table,
            generation,
            trie,
            grams,
            next,
            gram_bounds,
            upto,
            tokens,
            bounds,
            alias,
            shared,
            ..
        } = self;
        let slots = prev_vocab.saturating_mul(width);
        let dense = slots <= (4 * grams.len() + 4096).min(DENSE_SLOTS);
        let tag = if dense {
            fresh_tag(table, generation, slots)
        } else {
            trie.start(prev_vocab);
            0
        };
        let long = grams.len() >= LONG_GRAMS;
        let mut ids = 0u32;
        next.clear();
        for t in 0..texts {
            let (gs, ge) = (gram_bounds[t], gram_bounds[t + 1]);
            gram_bounds[t] = next.len();
            if alias[t] != t {
                continue;
            }
            let toks = &tokens[bounds[t]..bounds[t + 1]];
            let count = (ge - gs).saturating_sub(1);
            // N-grams within the start or end shared with the source are the source's, whose
            // ids (written first, from 0) are final: only the middle is looked up.
            let (head, tail) = shared[t];
            let copy_head = (head + 1).saturating_sub(order).min(count);
            let copy_tail = (toks.len() - tail).clamp(copy_head, count);
            next.extend_from_within(..copy_head);
            // The n-gram at i is the (n-1)-gram at i followed by token i + order - 1.
            let prev = &grams[gs + copy_head..gs + copy_tail];
            let last = toks.get(order - 1 + copy_head..order - 1 + copy_tail);
            let last = last.unwrap_or_default();
            if dense {
                ids = number_dense((table, slots), tag, width, prev, last, next, ids);
            } else if long {
                // The trie of a long text lies all over memory: ask for a prefix's head
                // 2 * AHEAD positions before its lookup, and for what follows the head
                // AHEAD positions before, so the lookup finds both in cache.
                for (i, (&p, &tok)) in prev.iter().zip(last).enumerate() {
                    if let Some(&ahead) = prev.get(i + 2 * AHEAD) {
                        trie.prefetch_head(ahead);
                    }
                    if let (Some(&ahead), Some(&tok)) = (prev.get(i + AHEAD), last.get(i + AHEAD)) {
                        trie.prefetch_child(ahead, tok);
                    }
                    next.push(trie.child(p, tok, &mut ids, LIST_LONG));
                }
            } else {
                for (&p, &tok) in prev.iter().zip(last) {
                    next.push(trie.child(p, tok, &mut ids, LIST_SHORT));
                }
            }
            // Source position i + |S| - |T| never underflows: i >= |T| - tail.
            if copy_tail < count {
                let from = copy_tail + bounds[1] - toks.len();
                next.extend_from_within(from..from + count - copy_tail);
            }
            // Every id of this text is below `ids` (those it copies, the source's, too).
            upto[t] = ids;
        }
        gram_bounds[texts] = next.len();
        std::mem::swap(grams, next);
        if !dense {
            trie.finish(prev_vocab);
        }
        ids as usize
    }
}

/// The dense table made ready for a fresh numbering with at least `slots` slots; returns the
/// tag (generation) of its slots written from now on.
fn fresh_tag(table: &mut Vec<u32>, generation: &mut u32, slots: usize) -> u32 {
    // A fresh table reads as empty (generation 0): growing need not copy the old one. Its
    // zeros are written here rather than left to the allocator: a fresh page that the
    // numbering reads before writing would be mapped to the zero page, then copied on the
    // write (two faults, and a TLB flush that interrupts the other worker's core).
    // Its length is a power of two, at least one slot ([`number_dense`] masks by it).
    if table.len() < slots.max(1) {
        let len = slots
            .next_power_of_two()
            .max(2 * table.len())
            .min(DENSE_SLOTS);
        *table = Vec::with_capacity(len);
        table.resize(len, 0);
    }
    // Generation 0 marks the slots never written; once they are all used, start over.
    *generation += 1;
    if *generation == GENERATIONS {
        table.fill(0);
        *generation = 1;
    }
    *generation << ID_BITS
}

/// The id of the n-gram whose dense table slot is `slot`: the one written there in this
/// generation (`tag`), or else a new one, `*ids`, which then moves on. Without a branch: new
/// or not is data.
#[inline(always)]
fn number(slot: &mut u32, tag: u32, ids: &mut u32) -> u32 {
    // The slot's generation is this one where the xor clears it: what is left is the id.
    let seen = *slot ^ tag;
    let new = seen > ID;
    let id = if new { *ids } else { seen };
    *slot = tag | id;
    *ids += u32::from(new);
    id
}

/// One text's n-grams of orders 1..=N for [`Counter::count_fused`], counted into the columns
/// that start at `count_at` (by order). An n-gram of order k + 1 is numbered through the
/// table at `table_at[k - 1]` by its prefix's id and its last token ([`number`]);
/// a new one takes the id `ids[k]`, which then moves on. The orders are a constant, so the
/// loop over them unrolls and their state stays in registers.
#[inline(always)]
fn number_and_count<const N: usize>(
    toks: &[u32],
    table: &mut [u32],
    counts: &mut [u16],
    (tag, width): (u32, usize),
    table_at: &[usize; FUSED_ORDERS],
    count_at: &[usize; FUSED_ORDERS],
    ids: &mut [u32; FUSED_ORDERS],
) {
    for &tok in toks {
        counts[count_at[0] + tok as usize] += 1;
    }
    let table_at: [usize; N] = std::array::from_fn(|k| table_at[k.saturating_sub(1)]);
    let count_at: [usize; N] = std::array::from_fn(|k| count_at[k]);
    let mut next: [u32; N] = std::array::from_fn(|k| ids[k]);
    // The n-gram of order k + 1 at a position: that of order k (`id`) followed by `tok`.
    let mut step = |k: usize, id: u32, tok: u32| {
        let slot = &mut table[table_at[k] + id as usize * width + tok as usize];
        let id = number(slot, tag, &mut next[k]);
        counts[count_at[k] + id as usize] += 1;
        id
    };
    // Positions where every order has an n-gram, then the last few, where the higher do not.
    for window in toks.windows(N) {
        let mut id = window[0];
        for (k, &tok) in window.iter().enumerate().skip(1) {
            id = step(k, id, tok);
        }
    }
    for i in (toks.len() + 1).saturating_sub(N)..toks.len() {
        let mut id = toks[i];
        for (k, &tok) in toks[i..].iter().enumerate().skip(1) {
            id = step(k, id, tok);
        }
    }
    ids[..N].copy_from_slice(&next);
}

/// Numbers n-grams through the dense table, onto the end of `next`: the one at `k` is the
/// n-gram of id `prev[k]` of the order below followed by token `last[k]`. A new n-gram takes
/// the id `ids`, which then moves on; returns it. Written without a branch (new or not is
/// data), out of line, and as a plain loop over room reserved first in `next` (written
/// once, not zeroed before): through `Vec::extend` the loop was a call of its own that kept
/// the counter in memory (a store and a load an n-gram, one after the other).
#[inline(never)]
fn number_dense(
    (table, slots): (&mut [u32], usize),
    tag: u32,
    width: usize,
    prev: &[u32],
    last: &[u32],
    next: &mut Vec<u32>,
    mut ids: u32,
) -> u32 {
    let start = next.len();
    let len = prev.len().min(last.len());
    next.reserve(len);
    let room = &mut next.spare_capacity_mut()[..len];
    // The table's length is a power of two, so a slot masked by it is itself, and in it
    // without a check (the mask is one instruction, a check two). Every slot is below
    // `slots` (each prefix below the order's, each token below `width`): debug builds, the
    // tests', check it.
    let mask = table.len() - 1;
    for ((out, &p), &tok) in room.iter_mut().zip(prev).zip(last) {
        let at = p as usize * width + tok as usize;
        debug_assert!(at < slots, "a slot beyond the numbering's");
        let slot = &mut table[at & mask];
        out.write(number(slot, tag, &mut ids));
    }
    // SAFETY: the `len` slots after `start` were written just above.
    unsafe { next.set_len(start + len) };
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::{Chars, Whitespace};

    #[test]
    fn short_keys_are_the_bytes_and_the_length() {
        let long = "abcdefghijklmnopqrstuvwxyz";
        let mut toks: Vec<&str> = (0..=SHORT_BYTES).map(|n| &long[..n]).collect();
        toks.extend([
            "a\0",
            "\0\0",
            "é",
            "中",
            "😀",
            "née",
            "Straße",
            "日本語です",
        ]);
        for tok in toks {
            let mut key = [0u8; 16];
            key[..tok.len()].copy_from_slice(tok.as_bytes());
            key[15] = tok.len() as u8;
            assert_eq!(
                short_key(tok.as_bytes()),
                u128::from_le_bytes(key),
                "{tok:?}"
            );
        }
    }

    #[test]
    fn padded_short_keys_are_short_keys() {
        // Every length, followed by other bytes that the mask must drop.
        let text = "abcdefghijklmnopqrstuvwxyz0123456789";
        for start in 0..4 {
            for len in 1..=SHORT_BYTES {
                let tok = &text.as_bytes()[start..start + len];
                assert_eq!(
                    padded_short_key(&text.as_bytes()[start..], len),
                    short_key(tok),
                    "{start} {len}"
                );
            }
        }
    }

    #[test]
    fn tokens_of_every_length_get_one_id_each() {
        // Thousands of distinct words of 1 to 24 bytes (the tables grow), in one order in
        // the source and reversed in the hypothesis.
        let words: Vec<String> = (0..3000)
            .map(|i| format!("{}{i}", "é".repeat(i % 11)))
            .collect();
        let source = words.join(" ");
        let reversed: Vec<&str> = words.iter().rev().map(String::as_str).collect();
        let hyp = reversed.join(" ");
        let mut counter = Counter::new();
        counter
            .intern_texts(&Whitespace, &source, &[], &[&hyp])
            .unwrap();
        let n = words.len() as u32;
        let expected: Vec<u32> = (0..n).chain((0..n).rev()).collect();
        assert_eq!(counter.tokens, expected);
    }

    #[test]
    fn bmp_code_points_are_exactly_the_one_character_bmp_tokens() {
        for c in (0..=0xFFFF).filter_map(char::from_u32) {
            let s = c.to_string();
            assert_eq!(bmp_code_point(s.as_bytes()), Some(c as u16), "{c:?}");
        }
        for other in ["ab", "abc", "aé", "éa", "😀", "中a", "\u{10000}"] {
            assert_eq!(bmp_code_point(other.as_bytes()), None, "{other}");
        }
        // Ids are per sentence: a code point seen in one sentence is new in the next.
        let mut counter = Counter::new();
        for _ in 0..2 {
            counter
                .intern_texts(&Chars::default(), "ab中", &["中b"], &["x"])
                .unwrap();
            assert_eq!(counter.tokens, [0, 1, 2, 2, 1, 3]);
        }
    }

    #[test]
    fn many_references_count_like_one_at_a_time() {
        // 300 references of distinct words take the sparse path; one reference at a time
        // takes the dense one. Both must give the same regions, with texts equal to others
        // (a reference equal to the source, two equal references, a hypothesis equal to a
        // reference and one equal to the source) read through their first occurrence.
        let words = |seed: usize, len: usize| -> String {
            (0..len)
                .map(|i| format!("w{}", (seed * 7919 + i * i * 31) % (40 + seed)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let source = words(1, 30);
        let mut refs: Vec<String> = (0..300).map(|r| words(r + 2, 25)).collect();
        refs[5] = source.clone();
        refs[7] = refs[6].clone();
        let hyps = [words(3, 28), source.clone(), refs[9].clone()];
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let mut c = Counter::new();
        let all = c.count(&Whitespace, 4, &source, &refs, &hyps).unwrap();
        for (r, reference) in refs.iter().enumerate() {
            let one = c
                .count(&Whitespace, 4, &source, &[reference], &hyps)
                .unwrap();
            for h in 0..hyps.len() {
                assert_eq!(
                    all.get(h, r),
                    one.get(h, 0),
                    "reference {r}, hypothesis {h}"
                );
            }
        }
    }

    #[test]
    fn the_dense_table_starts_over_when_its_generation_wraps() {
        // After GENERATIONS - 1 numberings (a sentence's, all orders at once; or an order's)
        // the generation would reach the bits beyond a slot's and wrap to 0, the mark of a
        // slot never written: the table must be cleared then, or its empty slots would read
        // as n-gram id 0.
        let (source, refs, hyps) = ("a b c d e", ["a b x d e", "b c"], ["a c c d e f"]);
        let expected = Counter::new()
            .count(&Whitespace, 4, source, &refs, &hyps)
            .unwrap();
        let mut c = Counter::new();
        c.count(&Whitespace, 4, "e d c b a x", &refs, &hyps)
            .unwrap();
        c.generation = GENERATIONS - 2;
        for _ in 0..2 {
            assert_eq!(
                c.count(&Whitespace, 4, source, &refs, &hyps).unwrap(),
                expected
            );
        }
        assert_eq!(c.generation, 1);
        c.generation = GENERATIONS - 2;
        for _ in 0..2 {
            let (counts, _) = count_by_order(&mut c, &Whitespace, 4, source, &refs, &hyps);
            assert_eq!(counts, expected);
        }
        assert_eq!(c.generation, 5);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn dense_orders_with_more_n_grams_than_u16_counts_count_as_defined() {
        // 40,000 words of three kinds, the reference and the hypothesis each changing every
        // tenth (at different places, so little is cut): more n-grams than a u16 counts at
        // every order, yet few distinct ones, so every order is counted dense, in u32.
        let kinds = ["a", "b", "c"];
        let source: Vec<usize> = (0..40_000).map(|i| (i * 7 + i / 3) % 3).collect();
        let edited = |at: usize| -> Vec<&str> {
            let kind = |(i, &k): (usize, &usize)| kinds[if i % 10 == at { (k + 1) % 3 } else { k }];
            source.iter().enumerate().map(kind).collect()
        };
        let texts = [edited(10), edited(3), edited(7)];
        // Order 1 alone, texts with nothing in common: the one-pass path, whose counts are
        // u16, must not take them (one word 70,000 times).
        let apart = ["a", "b", "c"].map(|w| vec![w; 70_000]);
        for (texts, n) in [(&texts, 4), (&apart, 1)] {
            let [s, r, c] = texts.each_ref().map(|t| t.join(" "));
            let mut counter = Counter::new();
            let got = counter.count(&Whitespace, n, &s, &[&r], &[&c]).unwrap();
            // Dense (the sparse path fills `ref_counts`), in u32 columns only.
            assert!(counter.ref_counts.is_empty() && counter.counts16.is_empty());
            assert!(!counter.counts.is_empty());
            for k in 1..=n {
                let count = |t: &Vec<&'static str>| {
                    let mut m = std::collections::HashMap::new();
                    for g in t.windows(k) {
                        *m.entry(g.to_vec()).or_insert(0u64) += 1;
                    }
                    m
                };
                let [ms, mr, mc] = texts.each_ref().map(count);
                let grams: std::collections::HashSet<_> =
                    ms.keys().chain(mr.keys()).chain(mc.keys()).collect();
                let mut want = Regions::default();
                for g in grams {
                    let of = |m: &std::collections::HashMap<Vec<&str>, u64>| {
                        m.get(g).copied().unwrap_or(0)
                    };
                    want.add(&Regions::of(of(&ms), of(&mr), of(&mc)));
                }
                assert_eq!(got.get(0, 0)[k - 1], want, "order {k}");
            }
        }
    }

    #[test]
    fn dense_sums_are_the_same_with_and_without_avx2() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        // Texts of a few words repeated at random, up to 300 tokens: count columns longer
        // than a vector, counts above one, texts equal to others.
        let mut seed = 7u64;
        let mut text = |len: usize| {
            let words: Vec<&str> = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ["a", "b", "c", "d", "e", "f", "g"][(seed >> 33) as usize % 7]
                })
                .collect();
            words.join(" ")
        };
        let mut counter = Counter::new();
        for len in [1, 5, 9, 17, 40, 300] {
            let source = text(len);
            let refs = [text(len), text(len / 2 + 1), source.clone()];
            let hyps = [text(len + 3), source.clone(), refs[0].clone()];
            let (refs, hyps): (Vec<&str>, Vec<&str>) = (
                refs.iter().map(String::as_str).collect(),
                hyps.iter().map(String::as_str).collect(),
            );
            counter
                .intern_texts(&Whitespace, &source, &refs, &hyps)
                .unwrap();
            let texts = 1 + refs.len() + hyps.len();
            let (n, r, h) = (5, refs.len(), hyps.len());
            let empty = SentenceCounts {
                n,
                refs: r,
                hyps: h,
                regions: vec![Regions::default(); r * h * n],
            };
            // All orders at once, but for the longest sentence, whose tables would be too large.
            match counter.plan(n) {
                Some(plan) => {
                    let (mut plain, mut avx2) = (empty.clone(), empty.clone());
                    counter.count_fused_portable(&plan, r, h, &mut plain);
                    // SAFETY: the CPU has AVX2, checked above.
                    unsafe { counter.count_fused_avx2(&plan, r, h, &mut avx2) };
                    assert_eq!(plain, avx2, "{len} tokens, all orders at once");
                }
                None => assert_eq!(len, 300),
            }
            counter.grams.clone_from(&counter.tokens);
            counter.gram_bounds.clone_from(&counter.bounds);
            let mut vocab = counter.vocab as usize;
            for order in 1..=n {
                if order > 1 {
                    vocab = counter.next_order(order, texts, vocab);
                }
                let (mut plain, mut avx2) = (empty.clone(), empty.clone());
                counter.count_dense_portable(order, texts, r, h, vocab, &mut plain);
                // SAFETY: the CPU has AVX2, checked above.
                unsafe { counter.count_dense_avx2(order, texts, r, h, vocab, &mut avx2) };
                assert_eq!(plain, avx2, "{len} tokens, order {order}");
                if order <= len {
                    assert_ne!(plain.regions[order - 1], Regions::default());
                }
            }
        }
    }

    /// Emits 1,100 distinct tokens of 1 MiB each, whatever the text.
    struct Huge;

    impl Tokenizer for Huge {
        fn name(&self) -> String {
            "huge".into()
        }
        fn tokenize(&self, _: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
            let mut tok = "x".repeat(1 << 20);
            for i in 0..1100 {
                tok.replace_range(..8, &format!("{i:08}"));
                sink(&tok);
            }
            Ok(())
        }
    }

    #[test]
    fn too_many_token_bytes_are_an_error_not_a_panic() {
        let err = Counter::new()
            .count(&Huge, 2, "s", &["r"], &["c"])
            .unwrap_err();
        assert!(
            err.0.contains("more than 1024 MiB of distinct tokens"),
            "{err:?}"
        );
    }

    /// Forwards `tokenize` only, so the counter takes every token through the tokenizer.
    struct Whole<T>(T);

    impl<T: Tokenizer> Tokenizer for Whole<T> {
        fn name(&self) -> String {
            self.0.name()
        }
        fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
            self.0.tokenize(text, sink)
        }
    }

    #[test]
    fn texts_cut_before_spaces_count_as_if_tokenized_whole() {
        let source = "the cat sat on then mat";
        // Shared starts and ends that begin or end inside a word, tabs, longer and shorter.
        let others = [
            // A middle of non-ASCII text is tokenized and interned token by token, the other
            // middles by `intern_spaced`: both key the comma alike.
            "the c\u{e4}t , sat on then mat",
            "the bat sat on then mat",
            "then cat sat on the mat",
            "the cat sat on then at",
            "the cat sat\ton then mat",
            "he cat sat on then mat.",
            "the cat sat on then mat and more",
            "the",
            "",
            // Runs of spaces, words longer than 15 bytes, a text over 64 bytes whose words
            // cross the 64-byte steps of `SpaceRuns`.
            "  the  cat sat on   then mat ",
            "the extraordinarily-long-cat sat on then mat",
            "the cat sat on then mat while the quick brown fox jumped over the lazy dog again",
            "the cat , sat on then mat",
        ];
        assert_eq!(cuts(b"the cat sat", b"the bat sat"), (3, 7, 7));
        let long = b"a long shared start of more than sixteen bytes, and an end";
        assert_eq!(
            cuts(
                long,
                b"a long shared start of more than sixteen bytes, an end"
            ),
            (47, 47, 51)
        );
        assert_eq!(cuts(b"a cat", b"a bat"), (1, 5, 5));
        let mut counter = Counter::new();
        for (r, c) in others.iter().zip(others.iter().rev()) {
            let cut = counter.count(&Whitespace, 4, source, &[r], &[c]).unwrap();
            let whole = counter.count(&Whole(Whitespace), 4, source, &[r], &[c]);
            assert_eq!(cut, whole.unwrap(), "{r:?} {c:?}");
        }
    }

    /// [`Counter::count`] through [`Counter::count_by_order`] whatever the sentence, and
    /// whether [`Counter::count_fused`] would have taken it.
    fn count_by_order(
        counter: &mut Counter,
        tokenizer: &dyn Tokenizer,
        n: usize,
        source: &str,
        refs: &[&str],
        hyps: &[&str],
    ) -> (SentenceCounts, bool) {
        counter.intern_texts(tokenizer, source, refs, hyps).unwrap();
        let common = counter.trim_common(n);
        let fused = counter.plan(n).is_some();
        let mut out = SentenceCounts {
            n,
            refs: refs.len(),
            hyps: hyps.len(),
            regions: vec![Regions::default(); hyps.len() * refs.len() * n],
        };
        counter.count_by_order(n, refs.len(), hyps.len(), &mut out);
        for regions in &mut out.regions {
            regions.tk += common;
        }
        (out, fused)
    }

    proptest::proptest! {
        /// Texts of a few words (so n-grams repeat within and across texts), some equal to
        /// others, at word and character level: all orders at once count as one at a time.
        #[test]
        fn every_order_at_once_counts_as_one_order_at_a_time(
            words in proptest::collection::vec(
                proptest::collection::vec(0usize..5, 0..30), 3..8),
            n in 1usize..=9,
            refs in 1usize..4,
            same in proptest::collection::vec(0usize..8, 0..3),
            chars in proptest::bool::ANY,
        ) {
            let vocab = ["a", "b", "cd", "é", "中"];
            let mut texts: Vec<String> = words
                .iter()
                .map(|w| w.iter().map(|&i| vocab[i]).collect::<Vec<_>>().join(" "))
                .collect();
            // Some texts equal to an earlier one.
            for &j in &same {
                let last = texts.len() - 1;
                texts[last] = texts[j % last].clone();
            }
            let refs = refs.min(texts.len() - 2);
            let (source, rest) = texts.split_first().unwrap();
            let (refs, hyps) = rest.split_at(refs);
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let tokenizer: Box<dyn Tokenizer> = match chars {
                true => Box::new(Chars::default()),
                false => Box::new(Whitespace),
            };
            let mut counter = Counter::new();
            let all = counter.count(tokenizer.as_ref(), n, source, &refs, &hyps).unwrap();
            let (one, fused) =
                count_by_order(&mut counter, tokenizer.as_ref(), n, source, &refs, &hyps);
            proptest::prop_assert_eq!(all, one);
            // The one-pass path takes every sentence of at most 64 tokens once cut (its
            // tables then fit the bounds of `plan` whatever the texts), and none above
            // FUSED_ORDERS; a longer one may not fit.
            if n > FUSED_ORDERS {
                proptest::prop_assert!(!fused);
            } else if counter.tokens.len() <= 64 {
                proptest::prop_assert!(fused, "{} tokens", counter.tokens.len());
            }
        }

        /// Texts that share a start and an end (of characters of one to four bytes, some
        /// sharing a first or last byte) around middles of their own: the characters read
        /// from the source's ids where a text shares its bytes, and the ends cut before
        /// counting, leave the regions as counting every character.
        #[test]
        fn shared_character_ends_count_as_every_character(
            head in proptest::collection::vec(0usize..6, 0..12),
            middles in proptest::collection::vec(
                proptest::collection::vec(0usize..6, 0..6), 2..7),
            tail in proptest::collection::vec(0usize..6, 0..12),
            n in 1usize..=9,
            refs in 1usize..4,
        ) {
            let chars = ["a", " ", "é", "è", "中", "😀"];
            let text = |v: &[usize]| v.iter().map(|&i| chars[i]).collect::<String>();
            let (head, tail) = (text(&head), text(&tail));
            let texts: Vec<String> =
                middles.iter().map(|m| format!("{head}{}{tail}", text(m))).collect();
            let refs = refs.min(texts.len() - 2).max(1);
            let (source, rest) = texts.split_first().unwrap();
            let (refs, hyps) = rest.split_at(refs);
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let mut counter = Counter::new();
            // The ends that reading characters finds are those of the ids.
            counter.intern_texts(&Chars::default(), source, &refs, &hyps).unwrap();
            let (tokens, bounds) = (&counter.tokens, &counter.bounds);
            for t in (1..counter.alias.len()).filter(|&t| counter.alias[t] == t) {
                let ends = shared_ends(&tokens[..bounds[1]], &tokens[bounds[t]..bounds[t + 1]]);
                proptest::prop_assert_eq!(counter.shared[t], ends);
            }
            let cut = counter.count(&Chars::default(), n, source, &refs, &hyps).unwrap();
            let whole = counter.count(&Whole(Chars::default()), n, source, &refs, &hyps);
            proptest::prop_assert_eq!(cut, whole.unwrap());
        }

        #[test]
        fn common_starts_and_ends_are_those_one_by_one(
            shared in proptest::collection::vec(0u8..3, 0..70),
            a in proptest::collection::vec(0u8..3, 0..40),
            b in proptest::collection::vec(0u8..3, 0..40),
        ) {
            // Few distinct bytes, so the texts go on agreeing past the shared part at random.
            // The same of token ids (shared_ends, and the runs of crate::common).
            let ids = |v: &[u8]| v.iter().map(|&b| u32::from(b)).collect::<Vec<_>>();
            let (x, y) = ([&shared[..], &a].concat(), [&shared[..], &b].concat());
            let prefix = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
            proptest::prop_assert_eq!(common_prefix(&x, &y), prefix);
            proptest::prop_assert_eq!(same_start(&ids(&x), &ids(&y)), prefix);
            let (x, y) = ([&a[..], &shared].concat(), [&b[..], &shared].concat());
            let suffix = x.iter().rev().zip(y.iter().rev()).take_while(|(p, q)| p == q).count();
            proptest::prop_assert_eq!(common_suffix(&x, &y), suffix);
            proptest::prop_assert_eq!(same_end(&ids(&x), &ids(&y)), suffix);
        }
    }

    #[test]
    fn characters_read_by_the_counter_are_the_tokenizer_s() {
        // Distinct astral characters, a combining mark, characters of one to four bytes,
        // characters that share their first byte (é è) or their last (é ũ) where the
        // texts part; every text as the source, a reference and a hypothesis.
        let wide = [
            "猫が座った",
            "猫が😀座った",
            "猫が😁座った",
            "é\u{301} 😀😀",
            "cat sat",
            "猫が座っ",
            "ɩが座った",
            "獲が座った",
            "猫が座っ\u{71f}",
            "é猫が座ったé",
            "è猫が座ったũ",
            "",
        ];
        let mut counter = Counter::new();
        for s in wide {
            for r in wide {
                for c in wide {
                    let own = counter.count(&Chars::default(), 6, s, &[r], &[c]);
                    let whole = counter.count(&Whole(Chars::default()), 6, s, &[r], &[c]);
                    assert_eq!(own.unwrap(), whole.unwrap(), "{s:?} {r:?} {c:?}");
                }
            }
        }
    }

    #[test]
    fn texts_equal_to_earlier_ones_count_as_if_tokenized() {
        // Equal texts copy the earlier text's ids; the same tokens spelt with other spaces
        // are tokenized. Both must give the same regions.
        let (s, r, c) = ("a b c a b", "a x c a b", "a b c d");
        let spaced = |t: &str| t.replace(' ', "  ");
        let (s2, r2) = (spaced(s), spaced(r));
        let mut counter = Counter::new();
        let copied = counter
            .count(&Whitespace, 3, s, &[r, s, r], &[s, c, r, c])
            .unwrap();
        let tokenized = counter
            .count(
                &Whitespace,
                3,
                s,
                &[r, &s2, &r2],
                &[&s2, c, &r2, &spaced(c)],
            )
            .unwrap();
        assert_eq!(copied, tokenized);
        assert_eq!(copied.get(0, 1)[0].tk, 5);
    }

    #[test]
    fn one_sentence_by_hand() {
        // vectors.md case B.
        let mut c = Counter::new();
        let sc = c
            .count(
                &Whitespace,
                4,
                "He go to school .",
                &["He goes to school ."],
                &["He goes to the school ."],
            )
            .unwrap();
        let r = sc.get(0, 0);
        assert_eq!((r[0].tk, r[0].td, r[0].ti, r[0].oi), (4, 1, 1, 1));
        assert_eq!((r[0].tp(), r[0].fp(), r[0].fn_()), (6, 1, 0));
        assert_eq!(
            (r[1].tk, r[1].td, r[1].ti, r[1].od, r[1].oi),
            (1, 2, 2, 1, 2)
        );
        assert_eq!(
            (r[2].td, r[2].ti, r[2].od, r[2].oi, r[2].ui),
            (2, 1, 1, 3, 1)
        );
        assert_eq!((r[3].td, r[3].oi, r[3].ui), (2, 3, 2));
        assert_eq!((r[3].tp(), r[3].fp(), r[3].fn_()), (2, 3, 2));
    }

    #[test]
    fn char_orders_by_hand() {
        let mut c = Counter::new();
        let sc = c
            .count(
                &Chars::default(),
                2,
                "He go to school .",
                &["He goes to school ."],
                &["He goes to the school ."],
            )
            .unwrap();
        let r = sc.get(0, 0);
        assert_eq!(
            (r[0].tk, r[0].ti, r[0].oi, r[0].tp(), r[0].fp(), r[0].fn_()),
            (17, 2, 4, 19, 4, 0)
        );
        assert_eq!((r[1].tk, r[1].td, r[1].ti, r[1].oi), (15, 1, 3, 4));
    }

    #[test]
    fn orders_longer_than_sentence_are_empty() {
        let mut c = Counter::new();
        let sc = c.count(&Whitespace, 4, "a b", &["a b"], &["a b"]).unwrap();
        assert_eq!(sc.get(0, 0)[1].tk, 1);
        assert_eq!(sc.get(0, 0)[2], Regions::default());
        let empty = c.count(&Whitespace, 2, "", &[""], &[""]).unwrap();
        assert!(empty.regions.iter().all(|r| *r == Regions::default()));
    }

    #[test]
    fn several_refs_and_hyps_are_independent() {
        let mut c = Counter::new();
        let both = c
            .count(
                &Whitespace,
                3,
                "a b c",
                &["a b d", "x b c"],
                &["a b", "a b c d"],
            )
            .unwrap();
        for (h, hyp) in ["a b", "a b c d"].iter().enumerate() {
            for (r, rf) in ["a b d", "x b c"].iter().enumerate() {
                let alone = Counter::new()
                    .count(&Whitespace, 3, "a b c", &[rf], &[hyp])
                    .unwrap();
                assert_eq!(both.get(h, r), alone.get(0, 0));
            }
        }
    }
}
