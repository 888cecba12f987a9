//! Text normalisation as a tokenizer filter, for any language.
//!
//! The default is no normalisation (parity with the reference). NFKC folds full-width and
//! half-width forms, which matters for Chinese and Japanese; lower-casing helps raw English;
//! `cjk-join` removes the spaces of character-spaced Chinese or Japanese (NLPCC's `.m2.char`
//! references), so that a word segmenter sees words again.
//! Normalising happens on the whole line before tokenisation, so every tokenizer benefits.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::tokenizer::{TokenizeError, Tokenizer};

/// Unicode normalisation form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    #[default]
    None,
    Nfc,
    Nfkc,
}

/// A normalisation setting: a Unicode form and optional lower-casing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Normalization {
    pub form: Form,
    pub lowercase: bool,
    /// Remove whitespace between two CJK characters (Han or kana).
    pub join_cjk: bool,
}

impl Normalization {
    pub fn is_identity(&self) -> bool {
        self.form == Form::None && !self.lowercase && !self.join_cjk
    }

    /// Normalise `text`, borrowing when nothing changes.
    pub fn apply<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out: Cow<'a, str> = match self.form {
            Form::None => Cow::Borrowed(text),
            Form::Nfc if is_nfc_quick(text.chars()) == IsNormalized::Yes => Cow::Borrowed(text),
            Form::Nfkc if is_nfkc_quick(text.chars()) == IsNormalized::Yes => Cow::Borrowed(text),
            Form::Nfc => Cow::Owned(text.nfc().collect()),
            Form::Nfkc => Cow::Owned(text.nfkc().collect()),
        };
        if self.lowercase && out.chars().any(|c| c.is_uppercase()) {
            out = Cow::Owned(out.to_lowercase());
        }
        if self.join_cjk && out.chars().any(char::is_whitespace) {
            out = Cow::Owned(join_cjk(&out));
        }
        out
    }
}

/// Han ideographs (with extensions and compatibility forms), Japanese kana, CJK punctuation
/// (`。`, `、`, `「`) and full-width forms (`，`, `！`).
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3001}'..='\u{30FF}' | '\u{FF01}'..='\u{FF60}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3134F}')
}

/// `text` without the whitespace runs that sit between two CJK characters.
fn join_cjk(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let end = (i..chars.len())
                .find(|&j| !chars[j].is_whitespace())
                .unwrap_or(chars.len());
            let between = i > 0 && end < chars.len() && is_cjk(chars[i - 1]) && is_cjk(chars[end]);
            if !between {
                out.extend(&chars[i..end]);
            }
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

impl fmt::Display for Normalization {
    /// `none`, `nfc`, `nfkc`, `lower`, `nfkc+lower`, `nfkc+cjk-join`: the form used in
    /// signatures and flags.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let form = match self.form {
            Form::None => None,
            Form::Nfc => Some("nfc"),
            Form::Nfkc => Some("nfkc"),
        };
        let parts: Vec<&str> = form
            .into_iter()
            .chain(self.lowercase.then_some("lower"))
            .chain(self.join_cjk.then_some("cjk-join"))
            .collect();
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join("+"))
        }
    }
}

impl FromStr for Normalization {
    type Err = String;

    /// Parses `none`, `nfc`, `nfkc`, `lower`, `cjk-join`, or a `+`/`,`-joined combination
    /// such as `nfkc+lower`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut norm = Normalization::default();
        for part in s.split(['+', ',']).map(str::trim) {
            match part.to_ascii_lowercase().as_str() {
                "none" | "" => {}
                "nfc" => norm.form = Form::Nfc,
                "nfkc" => norm.form = Form::Nfkc,
                "lower" | "lowercase" => norm.lowercase = true,
                "cjk-join" => norm.join_cjk = true,
                other => {
                    return Err(format!(
                        "unknown normalisation '{other}': use none, nfc, nfkc, lower, cjk-join, or e.g. nfkc+lower"
                    ))
                }
            }
        }
        Ok(norm)
    }
}

/// A tokenizer that normalises each line before handing it to the inner tokenizer.
#[derive(Debug, Clone)]
pub struct Normalized<T> {
    pub inner: T,
    pub normalization: Normalization,
}

impl<T: Tokenizer> Normalized<T> {
    pub fn new(inner: T, normalization: Normalization) -> Self {
        Normalized {
            inner,
            normalization,
        }
    }
}

impl<T: Tokenizer> Tokenizer for Normalized<T> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        let text = self.normalization.apply(text);
        self.inner.tokenize(&text, sink)
    }

    /// Only without normalisation: a normalised text is a copy, its tokens no slices.
    fn splits_before_spaces(&self) -> bool {
        self.normalization.is_identity() && self.inner.splits_before_spaces()
    }

    /// Likewise: a normalised text's characters are not the input's.
    fn tokens_are_chars(&self) -> bool {
        self.normalization.is_identity() && self.inner.tokens_are_chars()
    }

    /// Likewise: a normalised text is not the one cut.
    fn splits_printable_at_spaces(&self) -> bool {
        self.normalization.is_identity() && self.inner.splits_printable_at_spaces()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Chars;

    #[test]
    fn parse_and_display_round_trip() {
        for s in [
            "none",
            "nfc",
            "nfkc",
            "lower",
            "nfkc+lower",
            "nfc+lower",
            "cjk-join",
            "nfkc+lower+cjk-join",
        ] {
            assert_eq!(s.parse::<Normalization>().unwrap().to_string(), s);
        }
        assert!("nfd"
            .parse::<Normalization>()
            .unwrap_err()
            .contains("unknown normalisation 'nfd'"));
    }

    #[test]
    fn cjk_join_removes_only_spaces_between_cjk_characters() {
        let n: Normalization = "cjk-join".parse().unwrap();
        assert_eq!(n.apply("我 去 学 校 。"), "我去学校。");
        assert_eq!(n.apply("我 用 iPhone 手 机"), "我用 iPhone 手机");
        assert_eq!(n.apply("  猫 \u{3000} が いる  "), "  猫がいる  ");
        assert_eq!(n.apply("no cjk here"), "no cjk here");
    }

    #[test]
    fn nfkc_folds_full_width_and_lower_cases() {
        let n: Normalization = "nfkc+lower".parse().unwrap();
        assert_eq!(n.apply("ＡＢＣ１２３，"), "abc123,");
        let nfc: Normalization = "nfc".parse().unwrap();
        assert_eq!(nfc.apply("e\u{301}"), "\u{e9}");
        assert!(matches!(
            Normalization::default().apply("Abc"),
            Cow::Borrowed("Abc")
        ));
    }

    #[test]
    fn normalized_tokenizer_filters_text() {
        let t = Normalized::new(Chars::default(), "nfkc".parse().unwrap());
        assert_eq!(t.tokens("ＡＢ").unwrap(), ["A", "B"]);
    }
}
