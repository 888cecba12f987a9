//! One error type: what went wrong, with the file it concerns.

use std::fmt;
use std::path::{Path, PathBuf};

/// What kind of problem a model directory has, for callers (and tests) that tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file the model needs is not there.
    Missing,
    /// The directory holds a model of another kind than the metric needs.
    Architecture,
    /// The tokenizer's vocabulary does not fit the model's.
    Vocab,
    /// A file is there but cannot be read or parsed.
    Unreadable,
    /// The forward pass failed (a shape the weights do not have, …).
    Compute,
}

/// An error about a model directory or one of its files.
#[derive(Debug)]
pub struct Error {
    pub kind: ErrorKind,
    pub path: PathBuf,
    pub message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, path: &Path, message: impl Into<String>) -> Self {
        Error {
            kind,
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
