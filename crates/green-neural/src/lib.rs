//! Model-backed GEC metrics on the CPU, from weights the user supplies.
//!
//! The other green crates score with counts and need no model; the reference-free metrics
//! that track human judgements best (SOME, Scribendi, …) are neural networks. This crate holds
//! the small inference layer they need — a Hugging Face model directory read from disk
//! ([`ModelDir`]), BERT forward passes with [candle](candle_core) ([`bert`]), WordPiece split
//! by the `tokenizers` crate as the Python tokenizers split ([`wordpiece`]) — and the metrics
//! on top ([`some`], [`impara`], [`scribendi`] with GPT-2 in [`gpt2`] and byte-level BPE in
//! [`bpe`]), PT-M2 in [`ptm2`] — and the report they print ([`report`]). A model is a
//! directory, or a Hub id found in the local Hugging Face cache ([`hub`]); nothing is ever
//! downloaded: a missing file is an error that names it.
//!
//! It is its own crate so that the model-free crates never link candle; the CLI links it
//! behind its `neural` feature.

pub mod bert;
pub mod bpe;
mod error;
pub mod fuzzy;
pub mod gpt2;
pub mod hub;
pub mod impara;
mod model_dir;
pub mod ptm2;
pub mod report;
pub mod scribendi;
pub mod some;
pub mod wordpiece;

pub use error::{Error, ErrorKind, Result};
pub use model_dir::{digest, ModelDir};
