//! M2 (MaxMatch, Dahlmeier & Ng 2012), the official metric of CoNLL-2014 and NLPCC-2018,
//! computed exactly as the NUS m2scorer computes it, at a small fraction of its time.
//!
//! Exactness is the point: M2 has many equally good system edit sequences per sentence, and
//! the original's lattice order, duplicated arcs, float tie-breaks and greedy annotator choice
//! decide which one counts. Each module reproduces one step (`gold`: reading, `lattice`: the
//! edit graph, `search`: weights and best path, `score`: counting and the corpus fold); see
//! `docs/m2-spec.md` in the workspace's shared notes for the full statement.

pub mod gold;
pub mod lattice;
mod lower52;
mod pydict;
pub mod score;
pub mod search;
pub mod text;

pub use gold::{parse as parse_gold, Alternatives, Annotator, Gold, GoldEdit, GoldSentence};
pub use score::{
    corpus_stats, fold, render, score, sentence_stats, sentence_table, signature, Candidate,
    Chosen, Counts, Fold, MaxMatch, Options, Report, Score, SentenceStats, Summary, SystemEdit,
};
pub use text::system_lines;

/// What can go wrong reading or scoring.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}:{line}: {message}")]
    Format {
        path: String,
        line: usize,
        message: String,
    },
    #[error("sentence too different from its source for the M2 lattice: {0}; check that the system output is aligned with the gold file")]
    TooLong(String),
    #[error("sentence {sentence} (gold line {line}): {message}")]
    Sentence {
        sentence: usize,
        line: usize,
        message: String,
    },
    #[error("the system output has {hypotheses} lines but the gold file has {sentences} sentences; they must match one to one")]
    Count { hypotheses: usize, sentences: usize },
}
