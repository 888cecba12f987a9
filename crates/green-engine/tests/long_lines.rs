//! One very long line counts as the definition says, at word and character level.
//!
//! A sentence of three texts of 25,000 tokens or more is long from its first order on, so
//! it takes the counter's paths for long texts: a trie (with lists of at most two children
//! and lookups prefetched) whose frequent prefixes have hundreds of children, which move
//! from their list to a hash table, and ids of the parts the corrections share with the
//! source copied, not looked up. Lines are drawn from a seed, so a failure shrinks to a few
//! numbers rather than a megabyte of text.

use std::collections::HashMap;

use green_engine::{Chars, Counter, Regions, Tokenizer, Whitespace};
use proptest::prelude::*;

/// Draws from a seed (xorshift64*).
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    /// A token index below `vocab`: uniform, or skewed towards the first ones (the square
    /// of a uniform draw: token 0 is the most frequent, as a common word is).
    fn token(&mut self, vocab: usize, skewed: bool) -> usize {
        if skewed {
            let u = self.below(vocab);
            u * u / vocab
        } else {
            self.below(vocab)
        }
    }
}

/// Token `i`: a word (`w12`; some longer than 15 bytes, which are interned apart), or a
/// character (CJK, a few of them beyond the Basic Multilingual Plane).
fn token(i: usize, chars: bool) -> String {
    match (chars, i % 7) {
        (true, 0) => char::from_u32(0x2_0000 + i as u32).unwrap().to_string(),
        (true, _) => char::from_u32(0x4E00 + i as u32).unwrap().to_string(),
        (false, 0) => format!("long-word-number-{i}"),
        (false, _) => format!("w{i}"),
    }
}

/// A source of `len` tokens and two corrections of it (a substitution, deletion or
/// insertion every 20 tokens or so, each its own), as single lines.
fn line_and_corrections(
    seed: u64,
    len: usize,
    vocab: usize,
    skewed: bool,
    chars: bool,
) -> [String; 3] {
    let mut draw = Draw(seed | 1);
    let source: Vec<usize> = (0..len).map(|_| draw.token(vocab, skewed)).collect();
    let mut edit = || {
        let mut out = Vec::with_capacity(len + len / 20);
        for &tok in &source {
            match draw.below(80) {
                0 => out.push(draw.token(vocab, skewed)),
                1 => {}
                2 => out.extend([tok, draw.token(vocab, skewed)]),
                _ => out.push(tok),
            }
        }
        out
    };
    let (reference, hypothesis) = (edit(), edit());
    let sep = if chars { "" } else { " " };
    let text = |toks: &[usize]| {
        let toks: Vec<String> = toks.iter().map(|&i| token(i, chars)).collect();
        toks.join(sep)
    };
    [text(&source), text(&reference), text(&hypothesis)]
}

/// The regions of every order up to `n`, straight from the definition: count each text's
/// n-grams, then sum `Regions::of` over every n-gram of any text.
fn naive(tokenizer: &dyn Tokenizer, texts: &[String; 3], n: usize) -> Vec<Regions> {
    let tokens: Vec<Vec<String>> = texts.iter().map(|t| tokenizer.tokens(t).unwrap()).collect();
    (1..=n)
        .map(|k| {
            let mut counts: HashMap<&[String], [u64; 3]> = HashMap::new();
            for (t, toks) in tokens.iter().enumerate() {
                for gram in toks.windows(k) {
                    counts.entry(gram).or_default()[t] += 1;
                }
            }
            let mut sum = Regions::default();
            for [s, r, c] in counts.into_values() {
                sum.add(&Regions::of(s, r, c));
            }
            sum
        })
        .collect()
}

fn check(tokenizer: &dyn Tokenizer, texts: &[String; 3], n: usize) -> Result<(), TestCaseError> {
    let [s, r, c] = texts.each_ref().map(String::as_str);
    let got = Counter::new().count(tokenizer, n, s, &[r], &[c]).unwrap();
    prop_assert_eq!(got.get(0, 0), &naive(tokenizer, texts, n)[..]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_long_line_of_words_counts_as_defined(
        seed in any::<u64>(),
        len in 25_000usize..32_000,
        vocab in 1usize..3_000,
        skewed in any::<bool>(),
    ) {
        check(&Whitespace, &line_and_corrections(seed, len, vocab, skewed, false), 4)?;
    }

    #[test]
    fn a_long_line_of_characters_counts_as_defined(
        seed in any::<u64>(),
        len in 25_000usize..32_000,
        vocab in 1usize..6_000,
        skewed in any::<bool>(),
    ) {
        check(&Chars::default(), &line_and_corrections(seed, len, vocab, skewed, true), 6)?;
    }
}
