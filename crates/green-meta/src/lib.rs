//! green-meta: checks a GEC metric against people.
//!
//! A metric is only as good as its agreement with human judgments, and researchers pick a
//! metric and its settings from tables like the GREEN paper's Table 2. This crate makes that
//! table one call for any metric configuration and any dataset described by a small TOML
//! descriptor: it reads Appraise judgment XML ([`judgments`]), turns it into human system
//! scores ([`human`]: Expected Wins, TrueSkill), scores every system with GREEN or GLEU from
//! region counts made once per tokenizer ([`metric`]), and correlates the two at system and
//! sentence level ([`eval`], on top of the general [`stats`] module that MAEGE reuses).

pub mod annotations;
pub mod dataset;
pub mod erratum;
pub mod eval;
pub mod human;
pub mod judgments;
pub mod maege;
pub mod metric;
pub mod plot;
pub mod rating;
pub mod report;
pub mod sampled;
pub mod stats;
pub mod table5;
pub mod trueskill;
pub mod uncertainty;

pub use dataset::{Dataset, Descriptor};
pub use eval::{HumanScore, TiePolicy};
pub use human::TrueSkill;
pub use metric::{Level, Metric, MetricConfig, Sweep};
pub use report::{run, Options, Report};
pub use uncertainty::Bootstrap;

/// Everything that can go wrong; messages are one line, meant to be shown as they are.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input data: names the file and, where it applies, the line.
    #[error("{0}")]
    Input(String),
    /// A bad setting.
    #[error("{0}")]
    Config(String),
}
