//! Subcommands other than scoring, one module each.

pub mod cleme;
pub mod cleme2;
pub mod data;
pub mod errant;
pub mod gleu;
pub mod gotoscorer;
#[cfg(feature = "neural")]
pub mod impara;
pub mod m2;
pub mod maege;
pub mod maxmatch;
pub mod merge;
pub mod meta;
pub mod napoles;
pub mod paired;
pub mod parallel;
pub mod plugins;
pub mod report;
pub mod score;
#[cfg(feature = "neural")]
pub mod scribendi;
pub mod shell;
#[cfg(feature = "neural")]
pub mod some;
pub mod tokenize;
