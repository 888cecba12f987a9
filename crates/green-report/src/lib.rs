//! green-report: `green report`, one self-contained HTML file that shows what GEC systems did
//! on one corpus, and the data behind it.
//!
//! Researchers do not stop at a corpus score: they want to see which errors a system fixed,
//! missed or introduced, and whether a difference is more than chance. compare-mt made that
//! one command for machine translation; this is the same for GEC, from the statistics green
//! already computes. [`build`] scores the corpus with each requested metric (GREEN, M2,
//! ERRANT, CLEME), draws the bootstrap intervals and paired tests, counts edits by outcome and
//! by error type, buckets sentences by length, and keeps every sentence's texts and edits:
//! the [`model::Report`]. [`html::page`] renders that model, and only that model, as a page
//! that opens offline (inline CSS, JavaScript and SVG; no fonts, no requests), so the page
//! and `--format json` cannot disagree. The summary, tables and charts are static HTML; the
//! sentence browser is drawn by the page's script from the embedded JSON a page at a time,
//! which keeps a 10^5-sentence report quick to open.

pub mod build;
pub mod html;
pub mod model;
pub mod outcome;
mod svg;

pub use build::{build, Files, Gold, Input, Metric, Settings, Tokens};
pub use model::Report;

/// Why a report cannot be made; the message is meant to be shown as it is.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

impl From<green_signif::Error> for Error {
    fn from(e: green_signif::Error) -> Self {
        Error(e.to_string())
    }
}

/// The report as JSON on one line (it holds every sentence, so it is not indented), with a
/// final newline: what `--format json` prints.
pub fn to_json(report: &Report) -> Result<String, serde_json::Error> {
    Ok(serde_json::to_string(report)? + "\n")
}
