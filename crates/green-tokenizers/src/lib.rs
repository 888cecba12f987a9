//! green-tokenizers: turns a tokenizer spec such as `word`, `char` or `zh:char` into a tokenizer.
//!
//! The engine knows no language and the language packs know nothing of each other; this
//! crate is the one place that knows them all, shared by the CLI, the meta-evaluation tools
//! and the Python bindings, so a spec means the same thing everywhere. Built-ins come back
//! as concrete types (static dispatch on the hot path); everything else as `dyn Tokenizer`.

use green_engine::{Chars, Normalization, Normalized, Tokenizer, Whitespace};

/// A tokenizer spec could not be turned into a tokenizer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// Settings a spec may need beyond its name.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub normalization: Normalization,
}

/// A built tokenizer, concrete where that is cheap to match on.
pub enum Built {
    Word(Normalized<Whitespace>),
    Char(Normalized<Chars>),
    Dyn(Box<dyn Tokenizer>),
}

impl Built {
    /// The name in signatures.
    pub fn name(&self) -> String {
        match self {
            Built::Word(t) => t.name(),
            Built::Char(t) => t.name(),
            Built::Dyn(t) => t.name(),
        }
    }

    /// As a trait object (for callers that do not need static dispatch).
    pub fn as_dyn(&self) -> &dyn Tokenizer {
        match self {
            Built::Word(t) => t,
            Built::Char(t) => t,
            Built::Dyn(t) => t.as_ref(),
        }
    }

    pub fn into_dyn(self) -> Box<dyn Tokenizer> {
        match self {
            Built::Word(t) => Box::new(t),
            Built::Char(t) => Box::new(t),
            Built::Dyn(t) => t,
        }
    }
}

/// The specs this build knows, for help texts and error messages.
pub const KNOWN: &[(&str, &str)] = &[
    ("word", "split on whitespace, exactly like Python str.split() (the reference's word level; default)"),
    ("char", "one token per Unicode code point, spaces included (the reference's char level)"),
    ("char:nospace", "one token per code point, whitespace dropped (character-tokenised text scores like raw text)"),
];

/// Build the tokenizer named by `spec`.
pub fn build(spec: &str, options: &Options) -> Result<Built, Error> {
    let norm = options.normalization;
    match spec {
        "word" => Ok(Built::Word(Normalized::new(Whitespace, norm))),
        "char" => Ok(Built::Char(Normalized::new(Chars::default(), norm))),
        "char:nospace" => Ok(Built::Char(Normalized::new(
            Chars {
                skip_whitespace: true,
            },
            norm,
        ))),
        other => Err(Error(format!(
            "unknown tokenizer '{other}'; known: {}",
            KNOWN.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_builtins_and_rejects_unknown() {
        let o = Options::default();
        assert_eq!(
            build("word", &o).unwrap().as_dyn().tokens("a  b").unwrap(),
            ["a", "b"]
        );
        assert_eq!(build("char", &o).unwrap().name(), "char");
        assert_eq!(
            build("char:nospace", &o)
                .unwrap()
                .as_dyn()
                .tokens("a b")
                .unwrap(),
            ["a", "b"]
        );
        assert!(build("klingon", &o)
            .err()
            .unwrap()
            .to_string()
            .starts_with("unknown tokenizer 'klingon'; known: word, char"));
    }
}
