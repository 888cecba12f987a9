//! green-ja: Japanese words with lindera and IPADIC.
//!
//! Japanese is written without spaces, so the reference's whitespace "word level" makes a
//! whole sentence one token. This pack runs lindera's morphological analyser (MeCab's
//! algorithm, in Rust) with IPADIC and emits each morpheme's surface form. Whitespace is
//! never a token. The dictionary is large and lindera's own way to get it downloads at
//! build time, so [`dict`] finds one at run time instead (see there for the order).
//!
//! A [`Japanese`] tokenizer owns the loaded dictionary behind an `Arc`: clones share it,
//! and it is read-only, so one tokenizer serves every thread. Each thread keeps its own
//! Viterbi lattice and reuses it from line to line.
//!
//! A dictionary is loaded without lindera's table of every code point's categories (see
//! [`dict`]): a short text looks each character up by binary search instead, which is
//! cheaper than building the table. Once [`TABLE_FROM`] bytes have been tokenized, the
//! table is built (once, for every clone and thread) and the rest goes through it. Either
//! way the tokens are the same.

pub mod dict;

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use green_tokenizer_api::is_python_whitespace;
use green_tokenizer_api::{TokenizeError, Tokenizer};
use lindera::dictionary::{Dictionary, Lattice};
use lindera::mode::Mode;
use lindera::segmenter::Segmenter;
use lindera_dictionary::dictionary::character_definition::CharacterDefinition;

pub use dict::{DictError, Loaded, Locator, Origin};

/// Bytes of text after which a tokenizer builds lindera's code point table: about 100,000
/// Japanese characters, whose binary searches cost what building the table does (65,536
/// searches, 6.4 M instructions).
pub const TABLE_FROM: usize = 256 << 10;

/// lindera morphological analysis (normal mode); one token per morpheme surface.
#[derive(Clone)]
pub struct Japanese {
    /// On the dictionary as given.
    segmenter: Arc<Segmenter>,
    /// On the same dictionary with lindera's code point table, from [`TABLE_FROM`] bytes on.
    tabled: Arc<OnceLock<Segmenter>>,
    /// Bytes tokenized before the table was built.
    seen: Arc<AtomicUsize>,
    dict_name: String,
}

impl Japanese {
    /// Find and load a dictionary the standard way (see [`dict`]); `path` is the
    /// `--ja-dict` value, if any.
    pub fn load(path: Option<std::path::PathBuf>) -> Result<Self, DictError> {
        Ok(Self::from_loaded(Locator::from_env(path).load()?))
    }

    /// A tokenizer on a dictionary the caller found.
    pub fn from_loaded(loaded: Loaded) -> Self {
        let japanese = Self::new(loaded.dictionary, loaded.name);
        // The embedded dictionary comes from lindera's own loader, which builds the table:
        // the segmenter as given is the one with it.
        if loaded.origin == Origin::Embedded {
            let tabled = (*japanese.segmenter).clone();
            japanese.tabled.get_or_init(|| tabled);
        }
        japanese
    }

    /// A tokenizer on `dictionary`, called `dict_name` in signatures (e.g. `ipadic`). The
    /// dictionary is taken to be without lindera's code point table (as [`dict`] loads
    /// one), which is built once [`TABLE_FROM`] bytes have been tokenized.
    pub fn new(dictionary: Dictionary, dict_name: impl Into<String>) -> Self {
        Japanese {
            segmenter: Arc::new(Segmenter::new(Mode::Normal, dictionary, None)),
            tabled: Arc::default(),
            seen: Arc::default(),
            dict_name: dict_name.into(),
        }
    }

    /// Whether the code point table has been built (see [`TABLE_FROM`]).
    #[cfg(test)]
    fn has_table(&self) -> bool {
        self.tabled.get().is_some()
    }

    /// The segmenter for the next `bytes` of text: see [`TABLE_FROM`].
    fn segmenter(&self, bytes: usize) -> &Segmenter {
        if let Some(tabled) = self.tabled.get() {
            return tabled;
        }
        if self.seen.fetch_add(bytes, Ordering::Relaxed) + bytes < TABLE_FROM {
            return &self.segmenter;
        }
        self.tabled.get_or_init(|| {
            let mut dictionary = self.segmenter.dictionary.clone();
            let def = &dictionary.character_definition;
            // `new` builds the table.
            dictionary.character_definition = Arc::new(CharacterDefinition::new(
                def.category_definitions.clone(),
                def.category_names.clone(),
                def.mapping.clone(),
            ));
            Segmenter::new(Mode::Normal, dictionary, None)
        })
    }
}

impl std::fmt::Debug for Japanese {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Japanese")
            .field("dict_name", &self.dict_name)
            .finish_non_exhaustive()
    }
}

thread_local! {
    static LATTICE: RefCell<Lattice> = RefCell::new(Lattice::default());
}

impl Tokenizer for Japanese {
    fn name(&self) -> String {
        format!("ja-lindera-{}", self.dict_name)
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        LATTICE.with(|lattice| {
            // A sink that tokenizes again on this thread would find the lattice borrowed.
            let mut fresh = Lattice::default();
            let mut guard = lattice.try_borrow_mut();
            let lattice = match guard.as_deref_mut() {
                Ok(l) => l,
                Err(_) => &mut fresh,
            };
            let tokens = self
                .segmenter(text.len())
                .segment_with_lattice(Cow::Borrowed(text), lattice)
                .map_err(|e| {
                    let why = e.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
                    TokenizeError::new(format!(
                        "the Japanese analyser (lindera, dictionary {}) could not segment the line: {why}; check the dictionary given by --ja-dict or GREEN_JA_DICT",
                        self.dict_name
                    ))
                })?;
            for token in &tokens {
                let surface: &str = &token.surface;
                // lindera drops the dictionary's SPACE class; catch the rest (e.g. U+3000).
                if surface.contains(is_python_whitespace) {
                    for part in surface
                        .split(is_python_whitespace)
                        .filter(|p| !p.is_empty())
                    {
                        sink(part);
                    }
                } else {
                    sink(surface);
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Japanese>();
    }
}
