//! ERRANT 3.0.2's whole pipeline on token annotations from any tagger: the linguistic
//! alignment cost, the `rules` merger and the error-type classifier, as `errant_parallel`
//! runs them on spaCy Docs, with the Docs replaced by what ERRANT reads of each token (text,
//! lower case, lemma, coarse POS, fine tag, dependency label and head).
//!
//! green runs no tagger: the annotations come from CoNLL-U (UDPipe, Stanza, spaCy through
//! spacy-conll) or from spaCy Docs handed over by the Python bindings. Given the same
//! annotations, the M2 is ERRANT's byte for byte; how good the types are is the tagger's
//! business. Two classifiers: ERRANT 3.0.2's English one (PTB tags in XPOS), and the variant
//! that MultiGEC-2025 scores with (cainesap/errant: the same rules with a UD tag map, and
//! unknown or empty tags typed as `X` with the dependency `dep`).

pub mod classify;
mod lancaster;
pub mod merger;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt::Write as _;
use std::ops::Range;

use compact_str::CompactString;

use crate::align::{align, edits, Cost, Levenshtein, Merge, TooLong};
use crate::conllu;
pub use classify::{Classifier, UnknownTag};

/// One token as ERRANT reads a spaCy token. Its strings are kept inline up to 24 bytes
/// (nearly every word and label), so a Doc is one allocation, not six per token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: CompactString,
    /// `text` lower-cased as Python's `str.lower()` (spaCy's `lower_`).
    pub lower: CompactString,
    pub lemma: CompactString,
    /// Coarse part of speech (spaCy's `pos_`, CoNLL-U's UPOS).
    pub pos: CompactString,
    /// Fine tag (spaCy's `tag_`, CoNLL-U's XPOS).
    pub tag: CompactString,
    /// Dependency label (spaCy's `dep_`, CoNLL-U's DEPREL).
    pub dep: CompactString,
    /// Index of the head in the Doc; a root is its own head, as in spaCy.
    pub head: usize,
}

/// A parsed sentence: its tokens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc {
    pub tokens: Vec<Token>,
}

impl Doc {
    /// A Doc from one or more CoNLL-U sentences that together make one line of text (a
    /// tagger may split a line into sentences; their trees stay apart, as spaCy keeps them).
    pub fn from_conllu<'a, 'b: 'a>(
        sentences: impl IntoIterator<Item = &'a conllu::Sentence<'b>>,
    ) -> Doc {
        let mut tokens = Vec::new();
        for s in sentences {
            let offset = tokens.len();
            tokens.reserve_exact(s.words.len());
            for (i, w) in s.words.iter().enumerate() {
                let text = CompactString::from(w.form());
                tokens.push(Token {
                    lower: lower(&text),
                    text,
                    lemma: w.lemma().into(),
                    pos: w.upos().into(),
                    tag: w.xpos().into(),
                    dep: w.deprel().into(),
                    head: match w.head() {
                        0 => offset + i,
                        h => offset + h - 1,
                    },
                });
            }
        }
        Doc { tokens }
    }

    /// Children of token `i` in order (spaCy's `Token.children`).
    fn children(&self, i: usize) -> impl Iterator<Item = &Token> {
        self.tokens
            .iter()
            .enumerate()
            .filter(move |&(j, t)| t.head == i && j != i)
            .map(|(_, t)| t)
    }
}

/// Python's `str.lower()` (as Rust's `to_lowercase`), without a detour for ASCII, and a
/// copy of the text itself when it has no capital.
fn lower(text: &CompactString) -> CompactString {
    if !text.is_ascii() {
        text.as_str().to_lowercase().into()
    } else if text.bytes().any(|b| b.is_ascii_uppercase()) {
        let mut lower = text.clone();
        lower.make_ascii_lowercase();
        lower
    } else {
        text.clone()
    }
}

/// The Docs of a text file's lines from its CoNLL-U ([`line_sentences`], each made a Doc).
pub fn docs_for_lines(
    lines: &[String],
    sentences: &[conllu::Sentence<'_>],
    path: &str,
    conllu_path: &str,
) -> Result<Vec<Doc>, crate::Error> {
    Ok(line_sentences(lines, sentences, path, conllu_path)?
        .into_iter()
        .map(|r| Doc::from_conllu(&sentences[r]))
        .collect())
}

/// Which CoNLL-U sentences make each of a text file's lines: each non-empty line takes the
/// next sentences until their words are the line's tokens (an empty line takes none).
/// `path`, `conllu_path`: names for messages.
pub fn line_sentences(
    lines: &[String],
    sentences: &[conllu::Sentence<'_>],
    path: &str,
    conllu_path: &str,
) -> Result<Vec<Range<usize>>, crate::Error> {
    let mut next = 0;
    let mut out = Vec::with_capacity(lines.len());
    let mut tokens: Vec<&str> = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        split_into(line, &mut tokens);
        let start = next;
        let mut words = 0;
        while words < tokens.len() && next < sentences.len() {
            words += sentences[next].words.len();
            next += 1;
        }
        let forms = || {
            sentences[start..next]
                .iter()
                .flat_map(|s| s.words.iter().map(|w| w.form()))
        };
        if !forms().eq(tokens.iter().copied()) {
            let at = sentences
                .get(start)
                .map_or("its end".to_string(), |s| format!("line {}", s.line));
            return Err(crate::Error::Config(format!(
                "{path}:{}: the tokens '{}' are not the words of {conllu_path} at {at} ('{}'); the CoNLL-U must have the file's lines in order, tokenized as they are (one or more sentences per non-empty line)",
                n + 1,
                shown(tokens.iter().copied()),
                shown(forms())
            )));
        }
        out.push(start..next);
    }
    if let Some(s) = sentences.get(next) {
        return Err(crate::Error::Config(format!(
            "{conllu_path}:{}: more sentences than {path} has lines",
            s.line
        )));
    }
    Ok(out)
}

/// `line`'s tokens (Python's `str.split()`) into `tokens`; an ASCII line is split as bytes,
/// without decoding characters.
fn split_into<'a>(line: &'a str, tokens: &mut Vec<&'a str>) {
    tokens.clear();
    if !line.is_ascii() {
        tokens.extend(crate::m2::split(line));
        return;
    }
    // Python's ASCII whitespace: \t \n \v \f \r, \x1c-\x1f and the space.
    let space = |b: &u8| matches!(b, 9..=13 | 28..=32);
    let mut from = None;
    for (k, b) in line.bytes().enumerate() {
        match (space(&b), from) {
            (true, Some(f)) => {
                tokens.push(&line[f..k]);
                from = None;
            }
            (false, None) => from = Some(k),
            _ => {}
        }
    }
    if let Some(f) = from {
        tokens.push(&line[f..]);
    }
}

/// Tokens joined by spaces for a message, cut at 60 characters.
fn shown<'a>(tokens: impl Iterator<Item = &'a str>) -> String {
    let s = tokens.collect::<Vec<_>>().join(" ");
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

/// How non-matching operations become edits: ERRANT's rule-based merger, or one of `all-*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merger {
    Rules,
    All(Merge),
}

impl std::str::FromStr for Merger {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rules" => Ok(Merger::Rules),
            other => other.parse::<Merge>().map(Merger::All).map_err(|_| {
                format!("unknown merger '{other}'; use rules, all-split, all-merge or all-equal")
            }),
        }
    }
}

/// ERRANT's default alignment cost: a case change costs nothing; else a different lemma
/// 0.499, a different POS 0.25 between open classes (0.5 otherwise), plus the characters'
/// normalised Indel distance; transpositions of lower-cased windows are tried.
pub struct Linguistic<'a> {
    /// What the cost compares of each token, read once, not once per cell.
    orig_keys: Vec<Key<'a>>,
    cor_keys: Vec<Key<'a>>,
    /// Per source token whose text is ASCII of at most 64 bytes: where each byte occurs in
    /// it, for the bit-parallel LCS against every target token; made when the token's row is
    /// first aligned (the rows of a common prefix and suffix never are).
    masks: Vec<OnceCell<[u64; 128]>>,
}

/// A token's text, lower case, lemma and POS, whether the POS is an open class, and
/// whether the text is ASCII.
#[derive(Clone, Copy)]
struct Key<'a> {
    text: &'a str,
    lower: &'a str,
    lemma: &'a str,
    pos: &'a str,
    open: bool,
    ascii: bool,
}

impl<'a> Key<'a> {
    fn new(t: &'a Token) -> Self {
        Key {
            text: &t.text,
            lower: &t.lower,
            lemma: &t.lemma,
            pos: &t.pos,
            open: matches!(t.pos.as_str(), "ADJ" | "ADV" | "NOUN" | "VERB"),
            ascii: t.text.is_ascii(),
        }
    }
}

impl<'a> Linguistic<'a> {
    pub fn new(orig: &'a Doc, cor: &'a Doc) -> Self {
        let orig_keys: Vec<Key> = orig.tokens.iter().map(Key::new).collect();
        let cor_keys = cor.tokens.iter().map(Key::new).collect();
        let masks = orig_keys.iter().map(|_| OnceCell::new()).collect();
        Linguistic {
            orig_keys,
            cor_keys,
            masks,
        }
    }
}

impl Cost for Linguistic<'_> {
    fn substitute(&self, i: usize, j: usize) -> f64 {
        let (o, c) = (self.orig_keys[i], self.cor_keys[j]);
        if o.lower == c.lower {
            return 0.0;
        }
        let lemma = if o.lemma == c.lemma { 0.0 } else { 0.499 };
        let pos = if o.pos == c.pos {
            0.0
        } else if o.open && c.open {
            0.25
        } else {
            0.5
        };
        let (a, b) = (o.text, c.text);
        let chars = if o.ascii && c.ascii && a.len() <= 64 {
            let at = self.masks[i].get_or_init(|| masks(a.as_bytes()));
            ratio(a.len() + b.len(), lcs_masked(at, a.len(), b.as_bytes()))
        } else {
            indel_distance(a, b)
        };
        lemma + pos + chars
    }
    fn transpositions(&self) -> bool {
        true
    }
    fn lower(&self, source: bool, i: usize) -> &str {
        if source {
            self.orig_keys[i].lower
        } else {
            self.cor_keys[i].lower
        }
    }
}

/// rapidfuzz's `Indel.normalized_distance`: insertions and deletions over the two lengths
/// (in characters); 0 for two empty strings. Called for most cells of an alignment table, so
/// ASCII text (the common case) is compared as bytes, without collecting characters.
pub(crate) fn indel_distance(a: &str, b: &str) -> f64 {
    let (total, common) = if a.is_ascii() && b.is_ascii() {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let common = if a.len() <= 64 {
            lcs_masked(&masks(a), a.len(), b)
        } else {
            lcs(a, b)
        };
        (a.len() + b.len(), common)
    } else {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        (a.len() + b.len(), lcs(&a, &b))
    };
    ratio(total, common)
}

/// The Indel distance of two texts of `total` characters with `common` in common.
fn ratio(total: usize, common: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (total - 2 * common) as f64 / total as f64
}

/// Per ASCII byte: the bits of the positions of ASCII `a` (at most 64 bytes) that hold it.
fn masks(a: &[u8]) -> [u64; 128] {
    let mut at = [0u64; 128];
    for (i, &x) in a.iter().enumerate() {
        at[usize::from(x & 0x7F)] |= 1 << i;
    }
    at
}

/// Length of the longest common subsequence of ASCII `a` (at most 64 bytes, given by its
/// `masks` and length) and `b`, a whole row of the table at a time in the bits of one word
/// (Hyyrö's bit-parallel LCS: bit i of `row` is 0 where the LCS grows at position i of `a`).
fn lcs_masked(at: &[u64; 128], len: usize, b: &[u8]) -> usize {
    let mut row = !0u64;
    for &y in b {
        let matched = row & at[usize::from(y & 0x7F)];
        row = row.wrapping_add(matched) | (row - matched);
    }
    let used = if len == 64 { !0 } else { (1u64 << len) - 1 };
    (!row & used).count_ones() as usize
}

/// Length of the longest common subsequence, one row (on the stack for short words).
fn lcs<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut stack = [0usize; 32];
    let mut heap = Vec::new();
    let row: &mut [usize] = if b.len() < stack.len() {
        &mut stack[..=b.len()]
    } else {
        heap.resize(b.len() + 1, 0);
        &mut heap
    };
    for x in a {
        let mut diag = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[b.len()]
}

/// rapidfuzz's `Levenshtein.normalized_similarity`: 1 − distance / longer length.
pub(crate) fn levenshtein_similarity(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 1.0;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y {
                diag
            } else {
                1 + diag.min(up).min(row[j])
            };
            diag = up;
        }
    }
    1.0 - row[b.len()] as f64 / longer as f64
}

/// Python's `str.isalpha()`: not empty, and every character a letter (Lu, Ll, Lt, Lm, Lo).
pub(crate) fn is_alpha(s: &str) -> bool {
    if s.is_ascii() {
        // The ASCII letters are the only ASCII characters Python calls alphabetic.
        return !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphabetic());
    }
    static LETTERS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    LETTERS
        .get_or_init(|| regex::Regex::new(r"^\p{L}+$").expect("a valid pattern"))
        .is_match(s)
}

/// What can stop a sentence: a text too long to align, or a tag the classifier lacks.
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    #[error(transparent)]
    TooLong(#[from] TooLong),
    #[error(transparent)]
    UnknownTag(#[from] UnknownTag),
}

/// One edit: source span, target span (token offsets) and ERRANT's error type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedEdit {
    pub src: (usize, usize),
    pub tgt: (usize, usize),
    pub kind: String,
}

/// The typed edits from `orig` to `cor`.
pub fn typed_edits(
    orig: &Doc,
    cor: &Doc,
    lev: bool,
    merger: Merger,
    classifier: &Classifier,
) -> Result<Vec<TypedEdit>, BlockError> {
    let o: Vec<&str> = orig.tokens.iter().map(|t| t.text.as_str()).collect();
    let c: Vec<&str> = cor.tokens.iter().map(|t| t.text.as_str()).collect();
    let seq = if lev {
        align(&o, &c, &Levenshtein)?
    } else {
        align(&o, &c, &Linguistic::new(orig, cor))?
    };
    let spans = match merger {
        Merger::All(m) => edits(&seq, m),
        Merger::Rules => merger::rules(&seq, orig, cor),
    };
    spans
        .into_iter()
        .map(|(src, tgt)| {
            let kind = classifier.classify(orig, src, cor, tgt)?;
            Ok(TypedEdit { src, tgt, kind })
        })
        .collect()
}

/// A line's annotations: its Doc, or the CoNLL-U sentences to make one of when an alignment
/// needs it (a corrected line equal to its source needs none).
pub trait Annotated {
    /// The tokens' texts.
    fn forms(&self) -> impl Iterator<Item = &str>;
    /// The Doc itself.
    fn doc(&self) -> Cow<'_, Doc>;
}

impl Annotated for Doc {
    fn forms(&self) -> impl Iterator<Item = &str> {
        self.tokens.iter().map(|t| t.text.as_str())
    }
    fn doc(&self) -> Cow<'_, Doc> {
        Cow::Borrowed(self)
    }
}

impl Annotated for [conllu::Sentence<'_>] {
    fn forms(&self) -> impl Iterator<Item = &str> {
        self.iter().flat_map(|s| s.words.iter().map(|w| w.form()))
    }
    fn doc(&self) -> Cow<'_, Doc> {
        Cow::Owned(Doc::from_conllu(self))
    }
}

/// One source line and its corrections as ERRANT's `errant_parallel` writes them, from
/// their annotations (`cors`: each corrected line with its own). Nothing for an empty source
/// line.
pub fn block<A: Annotated + ?Sized>(
    source: &str,
    orig: &A,
    cors: &[(&str, &A)],
    lev: bool,
    merger: Merger,
    classifier: &Classifier,
) -> Result<String, BlockError> {
    if source.trim_matches(crate::m2::is_space).is_empty() {
        return Ok(String::new());
    }
    let joined = orig.forms().collect::<Vec<_>>().join(" ");
    let mut out = format!("S {joined}\n");
    let mut orig_doc = None;
    for (id, (line, cor)) in cors.iter().enumerate() {
        if joined == line.trim_matches(crate::m2::is_space) {
            let _ = writeln!(out, "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{id}");
            continue;
        }
        let orig = orig_doc.get_or_insert_with(|| orig.doc());
        let cor = cor.doc();
        for e in typed_edits(orig, &cor, lev, merger, classifier)? {
            let text: Vec<&str> = cor.tokens[e.tgt.0..e.tgt.1]
                .iter()
                .map(|t| t.text.as_str())
                .collect();
            let _ = writeln!(
                out,
                "A {} {}|||{}|||{}|||REQUIRED|||-NONE-|||{id}",
                e.src.0,
                e.src.1,
                e.kind,
                text.join(" ")
            );
        }
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bit_parallel_lcs_is_the_table_s() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "banana", "ananas", "the", "then", "aaaa",
        ];
        let long = "xy".repeat(32);
        for a in words.iter().copied().chain([long.as_str(), &long[1..]]) {
            for b in words.iter().copied().chain([long.as_str()]) {
                let (x, y) = (a.as_bytes(), b.as_bytes());
                assert_eq!(
                    super::lcs_masked(&super::masks(x), x.len(), y),
                    super::lcs(x, y),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    use super::*;

    #[test]
    fn string_measures_as_rapidfuzz() {
        assert_eq!(indel_distance("", ""), 0.0);
        assert_eq!(indel_distance("cat", "cats"), 1.0 / 7.0);
        assert_eq!(indel_distance("ab", "ba"), 0.5);
        assert_eq!(levenshtein_similarity("where", "were"), 0.8);
        assert_eq!(levenshtein_similarity("kitten", "sitting"), 1.0 - 3.0 / 7.0);
        assert!(is_alpha("Straße") && is_alpha("ǅ") && !is_alpha("") && !is_alpha("a-b"));
        assert!(is_alpha("Abc") && !is_alpha("a1") && !is_alpha("_"));
        // A combining mark is alphabetic to Rust but not a letter to Python.
        assert!(!is_alpha("e\u{301}"));
    }

    #[test]
    fn lines_take_sentences_until_their_tokens_are_covered() {
        let conllu = "1\ta\ta\tX\tX\t_\t0\tROOT\t_\t_\n\n1\tb\tb\tX\tX\t_\t0\tROOT\t_\t_\n2\tc\tc\tX\tX\t_\t1\tdep\t_\t_\n\n1\td\td\tX\tX\t_\t0\tROOT\t_\t_\n";
        let s = conllu::parse(conllu, "x.conllu").unwrap();
        let lines = vec!["a b c".to_string(), " ".to_string(), "d".to_string()];
        let docs = docs_for_lines(&lines, &s, "x.txt", "x.conllu").unwrap();
        assert_eq!(docs.len(), 3);
        assert_eq!(docs[0].tokens.len(), 3);
        // The second sentence's root is its own head, offset into the line's Doc.
        assert_eq!((docs[0].tokens[1].head, docs[0].tokens[2].head), (1, 1));
        assert!(docs[1].tokens.is_empty());
        let e = docs_for_lines(&lines[..1], &s, "x.txt", "x.conllu")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "x.conllu:6: more sentences than x.txt has lines");
        let bad = vec!["a b x".to_string()];
        let e = docs_for_lines(&bad, &s, "x.txt", "x.conllu")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "x.txt:1: the tokens 'a b x' are not the words of x.conllu at line 1 ('a b c')"
            ),
            "{e}"
        );
    }

    #[test]
    fn mergers_parse() {
        assert_eq!("rules".parse::<Merger>(), Ok(Merger::Rules));
        assert_eq!(
            "all-equal".parse::<Merger>(),
            Ok(Merger::All(Merge::AllEqual))
        );
        assert!("x".parse::<Merger>().unwrap_err().contains("rules"));
    }
}
