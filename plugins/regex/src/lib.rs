//! green-plugin-regex: a tokenizer plugin configured by a regular expression.
//!
//! Lets a user define a segmentation without writing code: the configuration string is a
//! regular expression (Rust `regex` syntax, Unicode-aware) and an optional mode prefix:
//!
//! - `match:RE` or just `RE`: every non-empty match of `RE` is a token (`\w+|[^\w\s]`).
//! - `split:RE`: `RE` matches separators; the non-empty pieces between them are tokens
//!   (`split:\s+` is a whitespace split).
//! - empty: `\S+`.
//!
//! Tokens are slices of the input, so they come back as spans (no copying).
//!
//! The commonest tokenizer patterns are one character class repeated (`\S+`, `split:\s+`,
//! `\w+`, `[^ ]+`): their tokens are the maximal runs of characters in (or, for `split:`,
//! out of) the class. Those run on a direct scanner with an ASCII table, giving exactly the
//! regex engine's tokens at a fraction of its per-match cost; every other pattern uses the
//! regex engine.

use green_plugin_api::{export_plugin, FromConfig, TokenizeError, Tokenizer};
use regex::Regex;
use regex_syntax::hir::{Class, HirKind};

/// Whether the expression describes tokens or what separates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Match,
    Split,
}

/// A character class as a membership test: a table for ASCII, sorted ranges beyond.
#[derive(Debug, Clone)]
struct CharClass {
    ascii: [bool; 128],
    ranges: Vec<(char, char)>,
}

impl CharClass {
    /// The class of `pattern` if the pattern is exactly `C+` (greedy) for one class `C`.
    fn of_repeated_class(pattern: &str) -> Option<CharClass> {
        let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
        let HirKind::Repetition(rep) = hir.kind() else {
            return None;
        };
        if rep.min != 1 || rep.max.is_some() || !rep.greedy {
            return None;
        }
        let ranges: Vec<(char, char)> = match rep.sub.kind() {
            HirKind::Class(Class::Unicode(c)) => {
                c.ranges().iter().map(|r| (r.start(), r.end())).collect()
            }
            // A byte class matches like a char class only while it stays within ASCII.
            HirKind::Class(Class::Bytes(c)) if c.ranges().iter().all(|r| r.end() < 0x80) => c
                .ranges()
                .iter()
                .map(|r| (char::from(r.start()), char::from(r.end())))
                .collect(),
            _ => return None,
        };
        let mut ascii = [false; 128];
        for (i, slot) in ascii.iter_mut().enumerate() {
            let c = char::from(i as u8);
            *slot = ranges.iter().any(|&(a, b)| a <= c && c <= b);
        }
        Some(CharClass { ascii, ranges })
    }

    fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            return self.ascii[c as usize];
        }
        // Ranges from regex-syntax are sorted and disjoint.
        let i = self.ranges.partition_point(|&(_, end)| end < c);
        self.ranges.get(i).is_some_and(|&(start, _)| start <= c)
    }

    /// Maximal runs of token characters: characters in the class when `INSIDE` (match mode),
    /// out of it otherwise (split mode). Monomorphised, so the mode costs nothing per byte;
    /// ASCII lines (most lines of most corpora) take the block scanner below.
    fn runs<const INSIDE: bool>(&self, text: &str, sink: &mut dyn FnMut(&str)) {
        if text.is_ascii() {
            return self.ascii_runs::<INSIDE>(text, sink);
        }
        let bytes = text.as_bytes();
        let n = bytes.len();
        // Width in bytes of the character at `i` if its being a token character is `want`,
        // else 0.
        let step = |i: usize, want: bool| -> usize {
            let b = bytes[i];
            if b < 0x80 {
                usize::from((self.ascii[usize::from(b)] == INSIDE) == want)
            } else {
                let c = text[i..].chars().next().expect("i is a char boundary");
                if (self.contains(c) == INSIDE) == want {
                    c.len_utf8()
                } else {
                    0
                }
            }
        };
        let mut i = 0;
        loop {
            while i < n {
                match step(i, false) {
                    0 => break,
                    w => i += w,
                }
            }
            if i == n {
                return;
            }
            // bytes[i] starts a token character, so the run below is not empty.
            let start = i;
            while i < n {
                match step(i, true) {
                    0 => break,
                    w => i += w,
                }
            }
            sink(&text[start..i]);
        }
    }

    /// [`Self::runs`] for ASCII text, without a branch per byte: each 64-byte block becomes a
    /// bit mask of token bytes, and tokens start and end where the mask changes. A branch per
    /// byte mispredicts at the end of nearly every word; this costs about one mispredict per
    /// block.
    fn ascii_runs<const INSIDE: bool>(&self, text: &str, sink: &mut dyn FnMut(&str)) {
        let mut open: Option<usize> = None; // start of the token running into this block
        let mut previous = 0u64; // 1 when the byte before this block is a token byte
        for (k, block) in text.as_bytes().chunks(64).enumerate() {
            let mut tokens = 0u64;
            for (j, &b) in block.iter().enumerate() {
                tokens |= u64::from(self.ascii[usize::from(b & 0x7f)] == INSIDE) << j;
            }
            // A bit per byte where a token starts or ends; a token ending at the end of a
            // short (last) block shows as a bit at block.len().
            let mut edges = tokens ^ ((tokens << 1) | previous);
            while edges != 0 {
                let at = k * 64 + edges.trailing_zeros() as usize;
                edges &= edges - 1;
                match open.take() {
                    Some(start) => sink(&text[start..at]),
                    None => open = Some(at),
                }
            }
            previous = tokens >> 63;
        }
        if let Some(start) = open {
            sink(&text[start..]);
        }
    }
}

/// How tokens are found.
#[derive(Debug, Clone)]
enum Engine {
    /// The pattern is one repeated class: tokens are runs, no regex search (and no regex is
    /// compiled, which would cost more than scoring a short file).
    Class(CharClass),
    Regex(Regex),
}

/// A tokenizer defined by a regular expression.
#[derive(Debug, Clone)]
pub struct RegexTokenizer {
    mode: Mode,
    engine: Engine,
}

impl RegexTokenizer {
    /// Parse a configuration string (see the crate docs).
    pub fn new(config: &str) -> Result<Self, String> {
        let (mode, pattern) = if let Some(p) = config.strip_prefix("split:") {
            (Mode::Split, p)
        } else if let Some(p) = config.strip_prefix("match:") {
            (Mode::Match, p)
        } else if config.is_empty() {
            (Mode::Match, r"\S+")
        } else {
            (Mode::Match, config)
        };
        if let Some(class) = CharClass::of_repeated_class(pattern) {
            return Ok(RegexTokenizer {
                mode,
                engine: Engine::Class(class),
            });
        }
        let re = Regex::new(pattern).map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .trim()
                .to_string();
            format!("invalid regular expression '{pattern}': {first}")
        })?;
        Ok(RegexTokenizer {
            mode,
            engine: Engine::Regex(re),
        })
    }
}

impl Tokenizer for RegexTokenizer {
    fn name(&self) -> String {
        "regex".into()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        let re = match &self.engine {
            Engine::Class(class) => {
                match self.mode {
                    Mode::Match => class.runs::<true>(text, sink),
                    Mode::Split => class.runs::<false>(text, sink),
                }
                return Ok(());
            }
            Engine::Regex(re) => re,
        };
        match self.mode {
            Mode::Match => re
                .find_iter(text)
                .map(|m| m.as_str())
                .filter(|t| !t.is_empty())
                .for_each(sink),
            Mode::Split => re.split(text).filter(|t| !t.is_empty()).for_each(sink),
        }
        Ok(())
    }
}

impl FromConfig for RegexTokenizer {
    fn from_config(config: &str) -> Result<Self, String> {
        RegexTokenizer::new(config)
    }
}

export_plugin!(RegexTokenizer, "regex");

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(config: &str, text: &str) -> Vec<String> {
        RegexTokenizer::new(config).unwrap().tokens(text).unwrap()
    }

    #[test]
    fn modes() {
        assert_eq!(toks("", " a  b\tc "), ["a", "b", "c"]);
        assert_eq!(toks(r"split:\s+", " a  b\tc "), ["a", "b", "c"]);
        assert_eq!(
            toks(r"\w+|[^\w\s]", "Don't go!"),
            ["Don", "'", "t", "go", "!"]
        );
        assert_eq!(toks(r"match:\w*", "a b"), ["a", "b"]);
        assert_eq!(toks("split:,", "a,,b"), ["a", "b"]);
    }

    /// The class scanner gives exactly the regex engine's tokens.
    #[test]
    fn class_runs_equal_regex_engine() {
        let texts = [
            "",
            "  a  b\tc ",
            "x\u{3000}y\u{a0}z\u{1c}w",
            "é-è, ça_va? 我们 去！",
            "\u{85}abc\u{2029}",
        ];
        // ASCII lines go through 64-byte blocks: tokens across, at and after block ends.
        let ascii = [
            "a".repeat(64),
            "a".repeat(65),
            " ".repeat(63) + "a",
            " ".repeat(64) + "a",
            "ab, c".repeat(40),
            "x ".repeat(64),
            " Don't go!\t".repeat(13) + "  ",
        ];
        let texts: Vec<&str> = texts
            .iter()
            .copied()
            .chain(ascii.iter().map(String::as_str))
            .collect();
        for config in [
            r"\S+",
            r"split:\s+",
            r"\w+",
            r"split:[ ,]+",
            r"[^ ]+",
            r"(?-u:\s)+",
            r"split:\p{P}+",
            r"[a-zé]+",
        ] {
            let fast = RegexTokenizer::new(config).unwrap();
            assert!(
                matches!(fast.engine, Engine::Class(_)),
                "{config} should use the scanner"
            );
            let pattern = config.strip_prefix("split:").unwrap_or(config);
            let slow = RegexTokenizer {
                engine: Engine::Regex(Regex::new(pattern).unwrap()),
                ..fast.clone()
            };
            for &text in &texts {
                assert_eq!(
                    fast.tokens(text).unwrap(),
                    slow.tokens(text).unwrap(),
                    "{config} on {text:?}"
                );
            }
        }
        for config in [r"\w+|[^\w\s]", r"\S+?", r"\s{2,}", r"a\S+", r"(\s)+"] {
            assert!(
                matches!(
                    RegexTokenizer::new(config).unwrap().engine,
                    Engine::Regex(_)
                ),
                "{config} is not a repeated class"
            );
        }
    }

    #[test]
    fn bad_pattern_is_one_line() {
        let err = RegexTokenizer::new("split:(").unwrap_err();
        assert!(err.starts_with("invalid regular expression '(': "), "{err}");
        assert!(!err.contains('\n'));
    }
}
