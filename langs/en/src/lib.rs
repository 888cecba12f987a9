//! green-en: word tokens for raw, untokenised English.
//!
//! GEC data such as CoNLL-14 ships pre-tokenised (`He goes to school .`), and for it the
//! engine's whitespace tokenizer is right and stays the default. Raw text (`He goes to
//! school.`) glues punctuation to words, so one comma changes a whole word token. This
//! tokenizer splits at Unicode word boundaries (UAX #29, via `unicode-segmentation`):
//! words stay whole (`don't`, `3.14`, `e-mail` → `e`, `-`, `mail`), every punctuation mark
//! is its own token and whitespace is dropped. It is language-neutral enough for any
//! space-delimited script (Latin, Cyrillic, Greek, …) but makes no attempt at Chinese or
//! Japanese, which have their own packs.

use green_tokenizer_api::is_python_whitespace;
use green_tokenizer_api::{TokenizeError, Tokenizer};
use unicode_segmentation::UnicodeSegmentation;

/// UAX #29 word-boundary tokenizer; punctuation kept, whitespace dropped.
#[derive(Debug, Clone, Copy, Default)]
pub struct English;

impl Tokenizer for English {
    fn name(&self) -> String {
        "en-uax29".into()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        for segment in text.split_word_bounds() {
            // A whitespace run is one segment; a combining mark after a space joins the
            // space's segment (UAX #29 WB4), so trim rather than test the whole segment.
            let token = segment.trim_matches(is_python_whitespace);
            if !token.is_empty() {
                sink(token);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        English.tokens(s).unwrap()
    }

    #[test]
    fn splits_punctuation_and_keeps_words_whole() {
        assert_eq!(
            toks("He doesn't go to school, does he?"),
            ["He", "doesn't", "go", "to", "school", ",", "does", "he", "?"]
        );
        assert_eq!(
            toks("It costs $3.50 (about 3,000 yen)."),
            ["It", "costs", "$", "3.50", "(", "about", "3,000", "yen", ")", "."]
        );
        assert_eq!(
            toks("e-mail ... ok"),
            ["e", "-", "mail", ".", ".", ".", "ok"]
        );
    }

    #[test]
    fn drops_every_kind_of_whitespace() {
        assert_eq!(
            toks("  a\tb\u{3000}c\u{1c}d \u{301}e  "),
            ["a", "b", "c", "d", "\u{301}", "e"]
        );
        assert!(toks(" \t\u{a0} ").is_empty());
        assert!(toks("").is_empty());
    }

    #[test]
    fn pre_tokenised_text_gives_the_same_tokens_as_raw_text() {
        assert_eq!(toks("He goes to school ."), toks("He goes to school."));
    }

    #[test]
    fn non_latin_scripts_and_emoji() {
        assert_eq!(toks("Привет, мир!"), ["Привет", ",", "мир", "!"]);
        assert_eq!(toks("café 👍🏽!"), ["café", "👍🏽", "!"]);
    }
}
