//! green-tokenizer-api: what a tokenizer author needs, and nothing else.
//!
//! Language packs and plugins implement [`Tokenizer`]; the engine, the CLI and the Python
//! bindings consume it. Keeping the trait, its error, the two built-in tokenizers and the
//! normalising filter in this small crate (as tantivy keeps its `tokenizer-api`) means a
//! tokenizer crate does not follow every release of the engine. Tokens are `&str`; a token
//! that is a slice of its input also has a byte span ([`Tokenizer::tokenize_spans`]), which
//! edit-based metrics need.

pub mod normalize;
pub mod tokenizer;

pub use normalize::{is_cjk, Form, Normalization, Normalized};
pub use tokenizer::{
    is_python_whitespace, retokenize, Chars, TokenizeError, Tokenizer, Whitespace,
};
