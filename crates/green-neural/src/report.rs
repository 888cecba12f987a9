//! The report of a model-based metric, as `green some|impara|scribendi|ptm2 --format json`
//! prints it and green_gec's classes return it: one shape for the four (signature, the
//! metric's own fields, then per system its path, corpus fields and sentence scores), built
//! in one place so that the command and Python cannot drift apart.

use serde::Serialize;

/// One system: its name, the metric's corpus fields (flattened in) and its sentence scores.
#[derive(Debug, Clone, Serialize)]
pub struct System<C, S> {
    pub path: String,
    #[serde(flatten)]
    pub corpus: C,
    pub sentences: Vec<S>,
}

/// The whole report: the signature, metric-wide fields (flattened in; SOME's weights) and
/// the systems.
#[derive(Debug, Clone, Serialize)]
pub struct Report<H, C, S> {
    pub signature: String,
    #[serde(flatten)]
    pub head: H,
    pub systems: Vec<System<C, S>>,
}

/// No metric-wide fields.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct NoHead {}

impl<H, C, S> Report<H, C, S> {
    /// The report of `systems` (name, sentence scores), each system's corpus fields made
    /// from its sentence scores by `corpus`.
    pub fn new(
        signature: String,
        head: H,
        systems: impl IntoIterator<Item = (String, Vec<S>)>,
        corpus: impl Fn(&[S]) -> C,
    ) -> Self {
        let systems = systems
            .into_iter()
            .map(|(path, sentences)| System {
                path,
                corpus: corpus(&sentences),
                sentences,
            })
            .collect();
        Report {
            signature,
            head,
            systems,
        }
    }
}

/// The version every signature ends with.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first 16 hex digits of a models digest, as signatures name models.
pub(crate) fn short(digest: &str) -> &str {
    &digest[..digest.len().min(16)]
}
