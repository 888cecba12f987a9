//! Edit-based metrics for grammatical error correction: ERRANT's span-based F-score
//! (`errant_compare`) and CLEME (Ye et al., EMNLP 2023), computed from ERRANT-style M2 files
//! exactly as the reference implementations compute them.
//!
//! BEA-2019, FCE and most recent multilingual test sets report ERRANT's F0.5; CLEME removes
//! the bias that several references give it by scoring chunks that all references share.
//! Both only need edits (source span + correction), so they work for any language that has
//! M2 files; `align` and `parallel` write such files from parallel text without a tagger
//! (ERRANT's `-lev -merge all-*`), and `typed` runs ERRANT's whole pipeline (linguistic
//! alignment, rule merger, classifier) on a tagger's annotations (`conllu`). `m2` reads the
//! files, `compare` and `cleme` score them; each metric keeps
//! per-sentence statistics that merge exactly, and its corpus choice of reference is the
//! original's greedy fold. `docs/edit-metrics-spec.md` in the shared notes states the rules.

pub mod align;
pub mod cleme;
pub mod cleme2;
pub mod compare;
pub mod conllu;
pub mod gotoscorer;
pub mod m2;
pub mod parallel;
pub mod pyfloat;
pub mod typed;

pub use m2::{parse, Document, Edit, Sentence};

/// What can go wrong reading or scoring.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}:{line}: {message}")]
    Format {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{hyp} has {hyp_sentences} sentences but {reference} has {ref_sentences}; the hypothesis and reference M2 files must match sentence for sentence")]
    Count {
        hyp: String,
        hyp_sentences: usize,
        reference: String,
        ref_sentences: usize,
    },
    #[error("{0}")]
    Config(String),
}
