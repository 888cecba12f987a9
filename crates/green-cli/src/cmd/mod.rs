//! Subcommands other than scoring, one module each.

pub mod cleme;
pub mod data;
pub mod errant;
pub mod gleu;
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
pub mod shell;
pub mod tokenize;
