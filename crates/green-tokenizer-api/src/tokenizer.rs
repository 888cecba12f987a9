//! The one trait every tokenizer implements: built-ins, language packs and plugins.
//!
//! A tokenizer pushes each token into a sink as a `&str`. The token may be a slice of the
//! input (whitespace, characters) or text the tokenizer made itself (a normalised or
//! dictionary form held in its own buffer); either way nothing is copied or allocated on
//! the engine's side, and the trait stays object-safe so `dyn Tokenizer` works for plugins.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// A tokenizer failed on one piece of text (plugins and dictionaries can fail; built-ins do not).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TokenizeError(pub String);

impl TokenizeError {
    pub fn new(msg: impl fmt::Display) -> Self {
        TokenizeError(msg.to_string())
    }
}

/// Splits one line of text into tokens.
///
/// Implementations must be deterministic: the same text gives the same tokens, whatever
/// the thread. `Send + Sync` lets the engine call one tokenizer from many threads; a
/// tokenizer that cannot be shared must lock inside (the plugin host does this).
pub trait Tokenizer: Send + Sync {
    /// A short stable name for the reproducibility signature, e.g. `word`, `char`, `zh-jieba`.
    fn name(&self) -> String;

    /// Call `sink` once per token, in order.
    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError>;

    /// Call `sink` once per token, in order, with the token's byte range in `text` when it
    /// has one. A token that is a slice of `text` has its range; a token the tokenizer made
    /// in its own buffer (a normalised or dictionary form) has `None`. Any tokenizer gets
    /// this for free: the range comes from where the token's bytes are.
    fn tokenize_spans(
        &self,
        text: &str,
        sink: &mut dyn FnMut(&str, Option<Range<usize>>),
    ) -> Result<(), TokenizeError> {
        let start = text.as_ptr() as usize;
        let end = start + text.len();
        self.tokenize(text, &mut |token| {
            let at = token.as_ptr() as usize;
            let span = (at >= start && at + token.len() <= end && !token.is_empty())
                .then(|| at - start..at - start + token.len());
            sink(token, span)
        })
    }

    /// Whether cutting a text just before an ASCII space never changes its tokens (the
    /// tokens of the whole are those of the parts, in order, each a slice of the text).
    /// A counter then tokenizes only the part of a correction that differs from its source.
    /// False unless the tokenizer says so.
    fn splits_before_spaces(&self) -> bool {
        false
    }

    /// Whether the tokens are exactly the text's characters (code points), in order. A
    /// counter then reads the characters itself, without a call per token.
    /// False unless the tokenizer says so.
    fn tokens_are_chars(&self) -> bool {
        false
    }

    /// Whether the tokens of a text of printable ASCII (every byte 0x20 to 0x7E, see
    /// [`is_printable_ascii`]) are exactly its runs between spaces, as [`split_spaces`] cuts
    /// them. A counter then cuts such a text itself, without a call per token.
    /// False unless the tokenizer says so.
    fn splits_printable_at_spaces(&self) -> bool {
        false
    }

    /// Convenience for callers that want owned tokens (tests, `green tokenize`).
    fn tokens(&self, text: &str) -> Result<Vec<String>, TokenizeError> {
        let mut out = Vec::new();
        self.tokenize(text, &mut |t| out.push(t.to_owned()))?;
        Ok(out)
    }
}

impl<T: Tokenizer + ?Sized> Tokenizer for &T {
    fn name(&self) -> String {
        (**self).name()
    }
    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        (**self).tokenize(text, sink)
    }
    fn splits_before_spaces(&self) -> bool {
        (**self).splits_before_spaces()
    }
    fn tokens_are_chars(&self) -> bool {
        (**self).tokens_are_chars()
    }
    fn splits_printable_at_spaces(&self) -> bool {
        (**self).splits_printable_at_spaces()
    }
}

impl<T: Tokenizer + ?Sized> Tokenizer for Box<T> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        (**self).tokenize(text, sink)
    }
    fn splits_before_spaces(&self) -> bool {
        (**self).splits_before_spaces()
    }
    fn tokens_are_chars(&self) -> bool {
        (**self).tokens_are_chars()
    }
    fn splits_printable_at_spaces(&self) -> bool {
        (**self).splits_printable_at_spaces()
    }
}

impl<T: Tokenizer + ?Sized> Tokenizer for Arc<T> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        (**self).tokenize(text, sink)
    }
    fn splits_before_spaces(&self) -> bool {
        (**self).splits_before_spaces()
    }
    fn tokens_are_chars(&self) -> bool {
        (**self).tokens_are_chars()
    }
    fn splits_printable_at_spaces(&self) -> bool {
        (**self).splits_printable_at_spaces()
    }
}

/// `text`'s tokens joined by single spaces: raw text made into the pre-tokenized lines that
/// edit-based scorers (M2) read.
pub fn retokenize(tokenizer: &dyn Tokenizer, text: &str) -> Result<String, TokenizeError> {
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    tokenizer.tokenize(text, &mut |t| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(t);
    })?;
    Ok(out)
}

/// Python's `str.isspace()`: Unicode White_Space plus the four information separators
/// U+001C..U+001F, which Python counts and Rust's `char::is_whitespace` does not.
pub fn is_python_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Word level as the reference computes it: Python `str.split()` with no argument.
#[derive(Debug, Clone, Copy, Default)]
pub struct Whitespace;

impl Tokenizer for Whitespace {
    fn name(&self) -> String {
        "word".into()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        // Printable ASCII (the common case) has one whitespace character, the space. One
        // pass without a branch says whether the text is all of it.
        if is_printable_ascii(text) {
            split_spaces(text, sink);
        } else if text.is_ascii() {
            // ASCII whitespace as Python sees it (\t \n \v \f \r, space, 0x1c..0x1f).
            let is_ws = |b: u8| matches!(b, b'\t'..=b'\r' | b' ' | 0x1c..=0x1f);
            let bytes = text.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                while i < bytes.len() && is_ws(bytes[i]) {
                    i += 1;
                }
                let start = i;
                while i < bytes.len() && !is_ws(bytes[i]) {
                    i += 1;
                }
                if start < i {
                    sink(&text[start..i]);
                }
            }
        } else {
            for tok in text.split(is_python_whitespace).filter(|t| !t.is_empty()) {
                sink(tok);
            }
        }
        Ok(())
    }

    fn splits_before_spaces(&self) -> bool {
        true
    }

    fn splits_printable_at_spaces(&self) -> bool {
        true
    }
}

/// Whether `text` is all printable ASCII (0x20 to 0x7E), whose one whitespace character is
/// the space: one pass without a branch.
pub fn is_printable_ascii(text: &str) -> bool {
    (text.bytes()).fold(true, |all, b| all & (b.wrapping_sub(b' ') < 0x60))
}

/// The runs of `text` between spaces ([`SpaceRuns`]), each given to `sink`.
pub fn split_spaces(text: &str, mut sink: impl FnMut(&str)) {
    for (start, end) in SpaceRuns::new(text.as_bytes()) {
        sink(&text[start..end]);
    }
}

/// The byte ranges of the runs of `bytes` between spaces, 64 bytes at a time: one bit per
/// byte says whether it is a space, and each run is read off the bits (two bit scans), not
/// found by a loop over its bytes that mispredicts where every token starts and ends. An
/// iterator small enough to inline, so a caller's loop over the runs keeps its own state in
/// registers (a callback per token was a call with its saves and reloads).
pub struct SpaceRuns<'a> {
    bytes: &'a [u8],
    /// Where the current chunk starts.
    base: usize,
    /// The current chunk's space bits; those past the text's end are set, so they end its
    /// last run. All set once the text is done.
    spaces: u64,
    /// The bit from which the current chunk is still to be read.
    at: u32,
    /// The start of a run that began in an earlier chunk.
    open: Option<usize>,
}

impl<'a> SpaceRuns<'a> {
    pub fn new(bytes: &'a [u8]) -> SpaceRuns<'a> {
        let mut runs = SpaceRuns {
            bytes,
            base: 0,
            spaces: !0,
            at: 0,
            open: None,
        };
        if !bytes.is_empty() {
            runs.load();
        }
        runs
    }

    /// Reads the space bits of the chunk at `base`.
    #[inline(always)]
    fn load(&mut self) {
        let chunk = &self.bytes[self.base..self.bytes.len().min(self.base + 64)];
        self.spaces = space_bits(chunk) | (!0u64).checked_shl(chunk.len() as u32).unwrap_or(0);
        self.at = 0;
    }

    /// Moves to the next chunk; false (and no bits left) at the end of the text.
    #[inline(always)]
    fn advance(&mut self) -> bool {
        if self.bytes.len() - self.base <= 64 {
            self.spaces = !0;
            return false;
        }
        self.base += 64;
        self.load();
        true
    }
}

impl Iterator for SpaceRuns<'_> {
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        loop {
            let start = match self.open {
                Some(start) => start,
                None => {
                    let words = !self.spaces & (!0u64 << self.at);
                    if words == 0 {
                        if self.advance() {
                            continue;
                        }
                        return None;
                    }
                    self.at = words.trailing_zeros();
                    self.base + self.at as usize
                }
            };
            let ends = self.spaces & (!0u64 << self.at);
            if ends == 0 {
                // The run goes on into the next chunk, or to the end of the text.
                if self.advance() {
                    self.open = Some(start);
                    continue;
                }
                self.open = None;
                return Some((start, self.bytes.len()));
            }
            self.at = ends.trailing_zeros();
            self.open = None;
            return Some((start, self.base + self.at as usize));
        }
    }
}

/// Bit i set when byte i of `chunk` (at most 64 bytes) is a space: eight bytes at a time, a
/// zero-byte test on the word XOR spaces, its high bits gathered by one multiplication.
fn space_bits(chunk: &[u8]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let mut bits = 0;
    let words = chunk.chunks_exact(8);
    let tail = words.remainder();
    for (k, word) in words.enumerate() {
        let x = u64::from_le_bytes(word.try_into().expect("8 bytes")) ^ 0x2020_2020_2020_2020;
        let zero = !(((x & LOW7) + LOW7) | x) & HIGH;
        bits |= ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    let done = chunk.len() - tail.len();
    for (i, &b) in tail.iter().enumerate() {
        bits |= u64::from(b == b' ') << (done + i);
    }
    bits
}

/// Character level: one token per Unicode code point.
///
/// By default spaces count, as in the reference. With `skip_whitespace`, whitespace code
/// points are dropped, so character-tokenised text (`我 们 去`) scores like raw text (`我们去`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Chars {
    pub skip_whitespace: bool,
}

impl Tokenizer for Chars {
    fn name(&self) -> String {
        if self.skip_whitespace {
            "char-nospace".into()
        } else {
            "char".into()
        }
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        for (i, c) in text.char_indices() {
            if self.skip_whitespace && is_python_whitespace(c) {
                continue;
            }
            sink(&text[i..i + c.len_utf8()]);
        }
        Ok(())
    }

    fn tokens_are_chars(&self) -> bool {
        !self.skip_whitespace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{Form, Normalization, Normalized};

    fn spans(t: &dyn Tokenizer, text: &str) -> Vec<(String, Option<Range<usize>>)> {
        let mut out = Vec::new();
        t.tokenize_spans(text, &mut |tok, span| out.push((tok.to_owned(), span)))
            .unwrap();
        out
    }

    #[test]
    fn slices_of_the_input_have_their_byte_spans() {
        let text = " He  gé 猫\tx";
        for (t, expected) in [
            (&Whitespace as &dyn Tokenizer, vec!["He", "gé", "猫", "x"]),
            (
                &Chars {
                    skip_whitespace: true,
                },
                vec!["H", "e", "g", "é", "猫", "x"],
            ),
        ] {
            let got = spans(t, text);
            assert_eq!(
                got.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(),
                expected
            );
            for (tok, span) in got {
                assert_eq!(&text[span.unwrap()], tok);
            }
        }
        // A normalised copy has no place in the input; an unchanged line keeps its spans.
        let nfkc = Normalized::new(
            Whitespace,
            Normalization {
                form: Form::Nfkc,
                ..Normalization::default()
            },
        );
        assert!(spans(&nfkc, "Ａ b").iter().all(|(_, s)| s.is_none()));
        // Only unnormalised words promise that a cut before a space keeps the tokens.
        assert!(Whitespace.splits_before_spaces());
        assert!(Normalized::new(Whitespace, Normalization::default()).splits_before_spaces());
        assert!(!nfkc.splits_before_spaces() && !Chars::default().splits_before_spaces());
        // Likewise for printable ASCII cut at spaces, whose tokens are then split_spaces'.
        assert!(Normalized::new(Whitespace, Normalization::default()).splits_printable_at_spaces());
        assert!(
            !nfkc.splits_printable_at_spaces() && !Chars::default().splits_printable_at_spaces()
        );
        let text = "  He said ,  \"no\" ! ";
        let mut cut = Vec::new();
        split_spaces(text, |t| cut.push(t.to_string()));
        assert!(
            is_printable_ascii(text) && !is_printable_ascii("a\tb") && !is_printable_ascii("é")
        );
        assert_eq!(cut, Whitespace.tokens(text).unwrap());
        // Only unnormalised, unskipped characters are the text's characters.
        let chars = |skip_whitespace, form| {
            Normalized::new(
                Chars { skip_whitespace },
                Normalization {
                    form,
                    ..Normalization::default()
                },
            )
        };
        assert!(chars(false, Form::None).tokens_are_chars());
        assert!(!chars(true, Form::None).tokens_are_chars());
        assert!(!chars(false, Form::Nfkc).tokens_are_chars());
        assert!(!Whitespace.tokens_are_chars());
        assert_eq!(spans(&nfkc, "a b")[1].1, Some(2..3));
    }

    #[test]
    fn whitespace_matches_python_split() {
        let t = Whitespace;
        assert_eq!(
            t.tokens("  a\tb\u{1c}c\u{85}d\u{3000}e  ").unwrap(),
            ["a", "b", "c", "d", "e"]
        );
        assert_eq!(t.tokens("x\u{1f}y\x0bz\x0c").unwrap(), ["x", "y", "z"]);
        assert!(t.tokens(" \t ").unwrap().is_empty());
        // U+200B (zero width space) and U+FEFF are not whitespace in Python.
        assert_eq!(
            t.tokens("a\u{200b}b \u{feff}c").unwrap(),
            ["a\u{200b}b", "\u{feff}c"]
        );
    }

    #[test]
    fn the_space_bits_split_like_python() {
        // Lines of every length across the 8- and 64-byte steps of `split_spaces`, tokens
        // and runs of spaces of every length, ending in a token or in spaces; printable only
        // (the bit path) and with a tab or an é (the byte and char paths) alike.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for alphabet in [&[" ", "a", "~", "!"][..], &[" ", "ab", "\t", "é"]] {
            for len in 0..300 {
                let text: String = (0..len)
                    .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                    .collect();
                let python: Vec<&str> = (text.split(is_python_whitespace))
                    .filter(|t| !t.is_empty())
                    .collect();
                assert_eq!(Whitespace.tokens(&text).unwrap(), python, "{text:?}");
            }
        }
        for text in [
            "",
            " ",
            "a",
            &"x".repeat(64),
            &"y".repeat(128),
            &format!("{} z", "w".repeat(62)),
        ] {
            let python: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
            assert_eq!(Whitespace.tokens(text).unwrap(), python, "{text:?}");
        }
    }

    #[test]
    fn chars_keep_or_skip_spaces() {
        assert_eq!(Chars::default().tokens("a é").unwrap(), ["a", " ", "é"]);
        let nospace = Chars {
            skip_whitespace: true,
        };
        assert_eq!(
            nospace.tokens("我 们\u{3000}去").unwrap(),
            ["我", "们", "去"]
        );
    }

    #[test]
    fn dyn_tokenizer_works() {
        let t: Box<dyn Tokenizer> = Box::new(Whitespace);
        assert_eq!(t.tokens("a b").unwrap(), ["a", "b"]);
        assert_eq!(t.name(), "word");
    }
}
