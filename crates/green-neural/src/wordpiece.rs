//! BERT's WordPiece as the Python `BertTokenizer` gives it to a sentence-pair model:
//! `[CLS] a [SEP] b [SEP]`, cut to a maximum length the way the Python tokenizers cut
//! (`longest_first`: one token at a time from the end of the longer side, the second side
//! on a tie), token type 0 for the first side and 1 for the second.
//!
//! The splitting itself is the `tokenizers` crate's, from `tokenizer.json` when there is
//! one, else from `vocab.txt` with `BertTokenizer`'s settings (NFC first, as transformers 4
//! does; `do_lower_case` from `tokenizer_config.json`; cased when it does not say, as SOME's
//! `bert-base-cased` is).

use std::path::{Path, PathBuf};

use tokenizers::models::wordpiece::WordPiece as WordPieceModel;
use tokenizers::normalizers::bert::BertNormalizer;
use tokenizers::normalizers::{Sequence, NFC};
use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
use tokenizers::{AddedToken, Tokenizer};

use crate::error::{Error, ErrorKind, Result};

/// The special tokens a BERT vocabulary must hold.
const SPECIALS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// Token ids and token type ids of one model input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub type_ids: Vec<u32>,
}

/// A BERT WordPiece tokenizer with its special token ids.
pub struct WordPiece {
    tokenizer: Tokenizer,
    /// The file it was read from (`tokenizer.json` or `vocab.txt`).
    pub file: PathBuf,
    cls: u32,
    sep: u32,
    pub pad: u32,
}

impl WordPiece {
    /// Reads a tokenizer from `path`: a `tokenizer.json`, a `vocab.txt`, or a directory
    /// holding either (`tokenizer.json` first).
    pub fn open(path: &Path) -> Result<Self> {
        let file = if path.is_dir() {
            ["tokenizer.json", "vocab.txt"]
                .iter()
                .map(|name| path.join(name))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Missing,
                        path,
                        "no tokenizer; expected tokenizer.json or vocab.txt (SOME and IMPARA use bert-base-cased's)",
                    )
                })?
        } else if path.is_file() {
            path.to_owned()
        } else {
            return Err(Error::new(
                ErrorKind::Missing,
                path,
                "no such tokenizer file or directory",
            ));
        };
        let unreadable = |e: Box<dyn std::error::Error + Send + Sync>| {
            Error::new(
                ErrorKind::Unreadable,
                &file,
                format!("cannot read the tokenizer ({e})"),
            )
        };
        let mut tokenizer = if file.extension().is_some_and(|e| e == "json") {
            let mut t = Tokenizer::from_file(&file).map_err(unreadable)?;
            t.with_truncation(None).map_err(unreadable)?;
            t.with_padding(None);
            t
        } else {
            let model = WordPieceModel::from_file(&file.to_string_lossy())
                .unk_token("[UNK]".into())
                .continuing_subword_prefix("##".into())
                .max_input_chars_per_word(100)
                .build()
                .map_err(unreadable)?;
            let lowercase = lowercase_setting(&file)?;
            let mut t = Tokenizer::new(model);
            // transformers' BertTokenizer composes the text (NFC) before anything else.
            let normalizer = Sequence::new(vec![
                NFC.into(),
                BertNormalizer::new(true, true, None, lowercase).into(),
            ]);
            t.with_normalizer(Some(normalizer)).map_err(unreadable)?;
            t.with_pre_tokenizer(Some(BertPreTokenizer));
            t
        };
        if let Some(missing) = SPECIALS.iter().find(|s| tokenizer.token_to_id(s).is_none()) {
            return Err(Error::new(
                ErrorKind::Vocab,
                &file,
                format!("the vocabulary has no {missing}; is this a BERT tokenizer?"),
            ));
        }
        // Special tokens written in the text stay whole, as in the Python tokenizer.
        tokenizer
            .add_special_tokens(SPECIALS.iter().map(|s| AddedToken::from(*s, true)))
            .map_err(unreadable)?;
        let id = |token: &str| tokenizer.token_to_id(token).unwrap_or_default();
        let (cls, sep, pad) = (id("[CLS]"), id("[SEP]"), id("[PAD]"));
        Ok(WordPiece {
            tokenizer,
            file,
            cls,
            sep,
            pad,
        })
    }

    /// The number of ids the tokenizer can give (one more than the largest).
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }

    /// The id of `[CLS]`.
    pub fn cls(&self) -> u32 {
        self.cls
    }

    /// The id of `[SEP]`.
    pub fn sep(&self) -> u32 {
        self.sep
    }

    /// The word pieces of `text`, without special tokens.
    pub fn tokens(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| {
            Error::new(
                ErrorKind::Unreadable,
                &self.file,
                format!("cannot tokenize ({e})"),
            )
        })?;
        Ok(encoding.get_ids().to_vec())
    }

    /// `[CLS] text [SEP]`, the text cut to fit `max_length`.
    pub fn single(&self, text: &str, max_length: usize) -> Result<Encoded> {
        let mut a = self.tokens(text)?;
        a.truncate(max_length.saturating_sub(2));
        let mut ids = Vec::with_capacity(a.len() + 2);
        ids.push(self.cls);
        ids.extend(a);
        ids.push(self.sep);
        let type_ids = vec![0; ids.len()];
        Ok(Encoded { ids, type_ids })
    }

    /// `[CLS] a [SEP] b [SEP]`, cut to fit `max_length` by [`longest_first`].
    pub fn pair(&self, a: &str, b: &str, max_length: usize) -> Result<Encoded> {
        let (mut a, mut b) = (self.tokens(a)?, self.tokens(b)?);
        longest_first(&mut a, &mut b, max_length.saturating_sub(3));
        let mut ids = Vec::with_capacity(a.len() + b.len() + 3);
        ids.push(self.cls);
        ids.extend(&a);
        ids.push(self.sep);
        let first = ids.len();
        ids.extend(&b);
        ids.push(self.sep);
        let mut type_ids = vec![0; first];
        type_ids.resize(ids.len(), 1);
        Ok(Encoded { ids, type_ids })
    }
}

/// Cuts two token lists to `budget` tokens in all as the Python tokenizers' `longest_first`
/// does: a token from the end of the longer list at a time, from `b` when they are as long.
pub fn longest_first(a: &mut Vec<u32>, b: &mut Vec<u32>, budget: usize) {
    let excess = (a.len() + b.len()).saturating_sub(budget);
    // After the longer list is cut to the shorter's length, the rest alternates b, a, b, …
    let first = excess.min(a.len().abs_diff(b.len()));
    let rest = excess - first;
    let (cut_a, cut_b) = if a.len() > b.len() {
        (first + rest / 2, rest - rest / 2)
    } else {
        (rest / 2, first + rest - rest / 2)
    };
    a.truncate(a.len() - cut_a);
    b.truncate(b.len() - cut_b);
}

/// `do_lower_case` from the `tokenizer_config.json` beside a `vocab.txt`; false without one.
fn lowercase_setting(vocab: &Path) -> Result<bool> {
    let config = vocab.with_file_name("tokenizer_config.json");
    let Ok(text) = std::fs::read_to_string(&config) else {
        return Ok(false);
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::new(
            ErrorKind::Unreadable,
            &config,
            format!("not valid JSON ({e})"),
        )
    })?;
    Ok(value
        .get("do_lower_case")
        .and_then(|v| v.as_bool())
        .unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::longest_first;

    /// The Python loop: one token at a time from the longer list, `b` on a tie.
    fn one_by_one(a: &mut Vec<u32>, b: &mut Vec<u32>, budget: usize) {
        while a.len() + b.len() > budget {
            if a.len() > b.len() {
                a.pop();
            } else {
                b.pop();
            }
        }
    }

    #[test]
    fn longest_first_is_the_python_loop() {
        for la in 0..12u32 {
            for lb in 0..12u32 {
                for budget in 0..26 {
                    let (mut a, mut b): (Vec<u32>, Vec<u32>) =
                        ((0..la).collect(), (0..lb).collect());
                    let (mut a2, mut b2) = (a.clone(), b.clone());
                    longest_first(&mut a, &mut b, budget);
                    one_by_one(&mut a2, &mut b2, budget);
                    assert_eq!((a, b), (a2, b2), "{la} {lb} {budget}");
                }
            }
        }
    }
}
