//! green-engine: the language-agnostic core of GREEN (Koyama et al., INLG 2024).
//!
//! GREEN treats the source S, a reference R and a correction C as multisets of n-grams,
//! splits each n-gram into seven regions (true keep/delete/insert, over delete/insert,
//! under delete/insert) and computes precision, recall and F from them. This crate does
//! exactly that and nothing else: no I/O, no language knowledge. Tokenizers plug in through
//! the [`Tokenizer`] trait; the CLI, language packs and plugins live in other crates.
//!
//! ```
//! use green_engine::{Config, Scorer, Whitespace};
//!
//! let scorer = Scorer::new(Whitespace, Config::new(4, vec![2.0]).unwrap());
//! let sources = ["He go to school ."];
//! let references = [vec!["He goes to school ."]];
//! let systems = [vec!["He goes to the school ."]];
//! let eval = scorer.evaluate(&sources, &references, &systems).unwrap();
//! assert!((eval.report.systems[0].betas[0].corpus - 0.7217).abs() < 1e-4);
//! ```

mod common;
pub mod corpus;
pub mod count;
pub mod gec_metrics_gleu;
pub mod gleu;
pub mod napoles;
pub mod numpy;
pub mod ordered;
pub mod score;
mod shorts;
pub mod signature;
mod trie;

/// The tokenizer API lives in its own crate (green-tokenizer-api); these paths stay.
pub use green_tokenizer_api::{normalize, tokenizer};

pub use corpus::{
    Accumulator, BetaReport, Config, Report, Scorer, Sentence, SentenceScores, SystemReport, BATCH,
    MAX_N,
};
pub use count::{Counter, Regions, SentenceCounts};
pub use normalize::{is_cjk, Form, Normalization, Normalized};
pub use ordered::CollectInOrder;
pub use score::OrderScore;
pub use signature::{Signature, VERSION};
pub use tokenizer::{retokenize, Chars, TokenizeError, Tokenizer, Whitespace};

/// Everything that can go wrong in the engine. Messages are meant to be shown as they are.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Input(String),
    #[error("sentence {}: tokenizer failed: {source}", sentence + 1)]
    Tokenize {
        sentence: usize,
        source: TokenizeError,
    },
}

/// Corpus report plus every sentence's scores, from [`Scorer::evaluate`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Evaluation {
    pub report: Report,
    /// One entry per sentence.
    pub sentences: Vec<SentenceScores>,
}

impl<T: Tokenizer> Scorer<T> {
    /// Score in-memory text: `references[k]` and `systems[k]` each hold one line per source
    /// sentence (like one reference file and one system file).
    pub fn evaluate<S: AsRef<str> + Sync>(
        &self,
        sources: &[S],
        references: &[Vec<S>],
        systems: &[Vec<S>],
    ) -> Result<Evaluation, Error> {
        if references.is_empty() {
            return Err(Error::Input("no references given".into()));
        }
        if systems.is_empty() {
            return Err(Error::Input("no systems given".into()));
        }
        for (what, sets) in [("reference", references), ("system", systems)] {
            if let Some((k, set)) = sets
                .iter()
                .enumerate()
                .find(|(_, s)| s.len() != sources.len())
            {
                return Err(Error::Input(format!(
                    "{what} {} has {} lines but the source has {}",
                    k + 1,
                    set.len(),
                    sources.len()
                )));
            }
        }
        let refs: Vec<Vec<&str>> = (0..sources.len())
            .map(|i| references.iter().map(|set| set[i].as_ref()).collect())
            .collect();
        let hyps: Vec<Vec<&str>> = (0..sources.len())
            .map(|i| systems.iter().map(|set| set[i].as_ref()).collect())
            .collect();
        let sentences: Vec<Sentence> = (0..sources.len())
            .map(|i| Sentence {
                source: sources[i].as_ref(),
                refs: &refs[i],
                hyps: &hyps[i],
            })
            .collect();
        self.evaluate_sentences(&sentences, systems.len())
    }
}
