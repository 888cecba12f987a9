//! green-tokenizers: turns a tokenizer spec such as `word`, `char` or `zh:char` into a tokenizer.
//!
//! The engine knows no language and the language packs know nothing of each other; this
//! crate is the one place that knows them all, shared by the CLI, the meta-evaluation tools
//! and the Python bindings, so a spec means the same thing everywhere. Built-ins come back
//! as concrete types (static dispatch on the hot path); everything else as `dyn Tokenizer`.

use std::path::PathBuf;

use green_engine::{Chars, Normalization, Normalized, Tokenizer, Whitespace};

/// A tokenizer spec could not be turned into a tokenizer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// Settings a spec may need beyond its name.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub normalization: Normalization,
    /// Configuration string handed to a `plugin:` tokenizer (`None`: the plugin gets `""`).
    pub plugin_config: Option<String>,
    /// Japanese dictionary directory for `ja` (`None`: `$GREEN_JA_DICT`, then the usual places).
    pub ja_dict: Option<PathBuf>,
}

/// Option keys accepted by [`Options::set`]: every field of [`Options`] gets one, so front
/// ends (Python `options={...}`, `key=value` flags) pass options through without knowing them.
pub const OPTION_KEYS: &[(&str, &str)] = &[
    (
        "norm",
        "text normalisation: none, nfc, nfkc, lower, nfkc+lower",
    ),
    (
        "plugin-config",
        "configuration string for a plugin:NAME_OR_PATH tokenizer (its meaning is the plugin's)",
    ),
    (
        "ja-dict",
        "dictionary directory for ja: a compiled lindera dictionary or a MeCab IPADIC source",
    ),
];

impl Options {
    /// Set one option by key (see [`OPTION_KEYS`]) from its text value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        match key {
            "norm" => self.normalization = value.parse().map_err(Error)?,
            "plugin-config" => self.plugin_config = Some(value.to_string()),
            "ja-dict" => self.ja_dict = Some(PathBuf::from(value)),
            other => {
                let known: Vec<&str> = OPTION_KEYS.iter().map(|(k, _)| *k).collect();
                return Err(Error(format!(
                    "unknown tokenizer option '{other}'; known: {}",
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }
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
    ("en", "raw English: Unicode (UAX #29) word boundaries, punctuation kept as tokens, whitespace dropped"),
    ("zh", "Chinese words: jieba accurate mode with HMM for unknown words, as Python jieba.cut (embedded dictionary)"),
    ("zh:nohmm", "Chinese words: jieba accurate mode, dictionary words only (unknown words stay single characters)"),
    ("zh:char", "Chinese characters: one token per code point, whitespace dropped (same as char:nospace)"),
    ("ja", "Japanese words: lindera with IPADIC (dictionary: --ja-dict, GREEN_JA_DICT, or Debian's mecab-ipadic)"),
    ("ja:char", "Japanese characters: one token per code point, whitespace dropped (same as char:nospace)"),
    ("syntok", "syntok 1.4.4 word tokens, as MultiGEC-2025's scorer splits raw essays (`well-known` → `well`, `-known`; `n't` → `not`)"),
    ("plugin:NAME_OR_PATH", "a tokenizer plugin: a shared library path, or a name on GREEN_PLUGIN_PATH (docs/plugins.md)"),
];

/// Build the tokenizer named by `spec`.
pub fn build(spec: &str, options: &Options) -> Result<Built, Error> {
    let norm = options.normalization;
    if let Some(plugin) = spec.strip_prefix("plugin:") {
        let t =
            green_plugin::load(plugin, options.plugin_config.as_deref()).map_err(|e| Error(e.0))?;
        return Ok(Built::Dyn(Box::new(Normalized::new(t, norm))));
    }
    if options.plugin_config.is_some() {
        return Err(Error(format!("a plugin configuration was given but tokenizer '{spec}' is not a plugin; use -t plugin:NAME_OR_PATH")));
    }
    match spec {
        "word" => Ok(Built::Word(Normalized::new(Whitespace, norm))),
        "char" => Ok(Built::Char(Normalized::new(Chars::default(), norm))),
        "char:nospace" | "zh:char" | "ja:char" => Ok(Built::Char(Normalized::new(
            Chars {
                skip_whitespace: true,
            },
            norm,
        ))),
        "en" => Ok(Built::Dyn(Box::new(Normalized::new(
            green_en::English,
            norm,
        )))),
        "syntok" => Ok(Built::Dyn(Box::new(Normalized::new(
            green_syntok::Syntok,
            norm,
        )))),
        "zh" => Ok(Built::Dyn(Box::new(Normalized::new(
            green_zh::Chinese::new(green_zh::Hmm::On),
            norm,
        )))),
        "zh:nohmm" => Ok(Built::Dyn(Box::new(Normalized::new(
            green_zh::Chinese::new(green_zh::Hmm::Off),
            norm,
        )))),
        "ja" => {
            let t = green_ja::Japanese::load(options.ja_dict.clone()).map_err(|e| Error(e.0))?;
            Ok(Built::Dyn(Box::new(Normalized::new(t, norm))))
        }
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

    #[test]
    fn options_set_by_key() {
        let mut o = Options::default();
        o.set("norm", "nfkc+lower").unwrap();
        assert_eq!(o.normalization.to_string(), "nfkc+lower");
        assert!(o
            .set("norm", "nfd")
            .unwrap_err()
            .to_string()
            .contains("unknown normalisation 'nfd'"));
        assert_eq!(
            o.set("colour", "red").unwrap_err().to_string(),
            "unknown tokenizer option 'colour'; known: norm, plugin-config, ja-dict"
        );
    }
}
