//! "Para" TSV files: `id<TAB>source<TAB>ref1<TAB>ref2...`, one sentence per line.
//!
//! Chinese GEC data (MuCGEC, YACLC, the ChERRANT tools) ships references this way, with a
//! different number of references on each line. Rules, chosen from the real files:
//! - lines end in `\n`, `\r\n` or `\r` (Python text mode); a UTF-8 BOM on line 1 is dropped;
//! - cells are kept exactly as written (trailing spaces included: YACLC has some);
//! - an empty reference cell (e.g. a trailing tab) is not a reference and is skipped;
//! - a reference cell that is exactly `没有错误` ("no error", MuCGEC's mark of a correct
//!   sentence) stands for the source itself;
//! - every line needs an id, a source and at least one reference; empty lines at the end of
//!   the file are ignored, an empty line anywhere else is an error (it would shift every
//!   following sentence against the system output).

use std::io::BufRead;

use crate::lines::{without_bom, Input, LineReader};
use crate::Error;

/// MuCGEC's reference for a sentence that needs no correction.
pub const NO_ERROR: &str = "没有错误";

/// One line of a para file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParaSentence {
    pub id: String,
    pub source: String,
    /// At least one.
    pub refs: Vec<String>,
}

/// Read a para file (or `-`).
pub fn read(input: &Input) -> Result<Vec<ParaSentence>, Error> {
    parse(input.open()?)
}

/// Parse para text from a line reader.
pub fn parse<R: BufRead>(mut reader: LineReader<R>) -> Result<Vec<ParaSentence>, Error> {
    let name = reader.name().to_owned();
    let mut out = Vec::new();
    let mut empty_at: Option<usize> = None;
    let mut buf = String::new();
    while reader.next_line(&mut buf)? {
        let n = reader.lines_read();
        let text = without_bom(n, &buf);
        if text.is_empty() {
            empty_at.get_or_insert(n);
            continue;
        }
        if let Some(e) = empty_at {
            return Err(Error::Format {
                path: name,
                line: e,
                message: "empty line inside a para file; every line must be 'id<TAB>source<TAB>reference...' (delete the line)"
                    .into(),
            });
        }
        let mut cells = text.split('\t');
        let id = cells.next().unwrap_or_default();
        let Some(source) = cells.next() else {
            return Err(Error::Format {
                path: name,
                line: n,
                message: "no tab on this line; a para line is 'id<TAB>source<TAB>reference1<TAB>reference2...'".into(),
            });
        };
        let refs: Vec<String> = cells
            .filter(|c| !c.is_empty())
            .map(|c| {
                if c == NO_ERROR {
                    source.to_owned()
                } else {
                    c.to_owned()
                }
            })
            .collect();
        if refs.is_empty() {
            return Err(Error::Format {
                path: name,
                line: n,
                message: format!(
                    "sentence '{id}' has no reference; a para line is 'id<TAB>source<TAB>reference1...' with at least one non-empty reference"
                ),
            });
        }
        out.push(ParaSentence {
            id: id.to_owned(),
            source: source.to_owned(),
            refs,
        });
    }
    Ok(out)
}
