//! green-io: reading GEC data files, with errors that say which file and line.
//!
//! Line files are read the way the reference reads them (Python text mode): `\n`, `\r\n`
//! and a lone `\r` all end a line, a missing final newline is fine, trailing spaces stay.
//! The engine never does I/O; everything that touches a file lives here. References can also
//! come from M2 ([`m2`]) and para TSV ([`para`]) files, through [`references::load`].

pub mod batches;
pub mod lines;
pub mod m2;
pub mod multigec;
pub mod para;
pub mod references;

pub use batches::{Batch, Batches, Reader};
pub use lines::{
    map_text, read_lines, read_text, Input, LineReader, Text, MAX_LINE_BYTES, WHOLE_FILE_BYTES,
};
pub use references::{Corpus, Format};

/// An input problem, always naming the file and, where it applies, the line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {path}: {source}; check that the file exists and is readable")]
    Open {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: invalid UTF-8 at byte {byte} of the line; {advice}")]
    Utf8 {
        path: String,
        line: usize,
        byte: usize,
        /// What to do: which encoding to convert from, when the file says (a UTF-16 or
        /// UTF-32 byte-order mark), else a common one.
        advice: &'static str,
    },
    #[error("{path}:{line}: {message}")]
    Format {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{0}")]
    Other(String),
}
