//! GPT-2's byte-level BPE as the fast Python tokenizer splits, from `tokenizer.json`, or
//! from `vocab.json` and `merges.txt` with GPT-2's settings; `<|endoftext|>` is its only
//! special token (the beginning-of-text token Scribendi puts before each sentence).

use std::path::{Path, PathBuf};

use tokenizers::models::bpe::BPE;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::{AddedToken, Tokenizer};

use crate::error::{Error, ErrorKind, Result};

/// GPT-2's beginning- and end-of-text token.
pub const END_OF_TEXT: &str = "<|endoftext|>";

/// A byte-level BPE tokenizer with its `<|endoftext|>` id.
pub struct Bpe {
    tokenizer: Tokenizer,
    /// The file it was read from (`tokenizer.json` or `vocab.json`).
    pub file: PathBuf,
    pub end_of_text: u32,
}

impl Bpe {
    /// Reads the tokenizer of the model directory `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let json = dir.join("tokenizer.json");
        let (vocab, merges) = (dir.join("vocab.json"), dir.join("merges.txt"));
        let unreadable = |file: &Path, e: Box<dyn std::error::Error + Send + Sync>| {
            Error::new(
                ErrorKind::Unreadable,
                file,
                format!("cannot read the tokenizer ({e})"),
            )
        };
        let (mut tokenizer, file) = if json.is_file() {
            let mut t = Tokenizer::from_file(&json).map_err(|e| unreadable(&json, e))?;
            t.with_truncation(None).map_err(|e| unreadable(&json, e))?;
            t.with_padding(None);
            (t, json)
        } else if vocab.is_file() && merges.is_file() {
            let model = BPE::from_file(&vocab.to_string_lossy(), &merges.to_string_lossy())
                .build()
                .map_err(|e| unreadable(&vocab, e))?;
            let mut t = Tokenizer::new(model);
            t.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
            (t, vocab)
        } else {
            return Err(Error::new(
                ErrorKind::Missing,
                dir,
                "no tokenizer; expected tokenizer.json, or vocab.json and merges.txt",
            ));
        };
        let Some(end_of_text) = tokenizer.token_to_id(END_OF_TEXT) else {
            return Err(Error::new(
                ErrorKind::Vocab,
                &file,
                format!("the vocabulary has no {END_OF_TEXT}; is this a GPT-2 tokenizer?"),
            ));
        };
        tokenizer
            .add_special_tokens([AddedToken::from(END_OF_TEXT, true)])
            .map_err(|e| unreadable(&file, e))?;
        Ok(Bpe {
            tokenizer,
            file,
            end_of_text,
        })
    }

    /// The number of ids the tokenizer can give.
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }

    /// `<|endoftext|>` and the tokens of `text`, as the Python tokenizer splits
    /// `"<|endoftext|>" + text`.
    pub fn with_start(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| {
            Error::new(
                ErrorKind::Unreadable,
                &self.file,
                format!("cannot tokenize ({e})"),
            )
        })?;
        let mut ids = Vec::with_capacity(encoding.len() + 1);
        ids.push(self.end_of_text);
        ids.extend(encoding.get_ids());
        Ok(ids)
    }
}
