//! Subcommands other than scoring, one module each.

pub mod cleme;
pub mod cleme2;
pub mod data;
pub mod errant;
pub mod gec_metrics_gleu;
pub mod gleu;
pub mod gotoscorer;
#[cfg(feature = "neural")]
pub mod impara;
pub mod m2;
pub mod maege;
pub mod maxmatch;
pub mod merge;
pub mod meta;
pub mod multigec;
pub mod napoles;
#[cfg(feature = "neural")]
pub mod neural;
pub mod paired;
pub mod parallel;
pub mod plugins;
#[cfg(feature = "neural")]
pub mod ptm2;
pub mod report;
pub mod score;
#[cfg(feature = "neural")]
pub mod scribendi;
pub mod shell;
#[cfg(feature = "neural")]
pub mod some;
pub mod tokenize;

/// The arguments of a subcommand this build leaves out (the model-based metrics without the
/// `neural` feature): anything is taken, so the command says what is missing rather than
/// clap calling it an unknown subcommand.
#[cfg(not(feature = "neural"))]
#[derive(clap::Args, Debug)]
pub struct Absent {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<std::ffi::OsString>,
}

/// The one error line of a model-based metric in a build without the `neural` feature.
#[cfg(not(feature = "neural"))]
pub fn absent(command: &str) -> anyhow::Result<()> {
    anyhow::bail!(
        "green {command} is not in this build: the model-based metrics need the neural feature (cargo install --path crates/green-cli --features neural)"
    )
}
