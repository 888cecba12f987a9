//! green-signif: how sure a score is, and whether a difference is more than chance.
//!
//! A point estimate cannot say whether system B really beats system A, or whether metric X
//! agrees with people better than metric Y. This crate answers those questions for any
//! metric whose corpus score is a function of summed per-sentence statistics (GREEN's region
//! counts, GLEU's n-gram counts, M2's edit counts, ...), and for correlations:
//! - [`bootstrap`]: percentile confidence intervals, resampling whole items (sentences, or
//!   any cluster a caller chooses) with replacement;
//! - [`paired`]: paired bootstrap (Koehn 2004) and approximate randomisation (Riezler and
//!   Maxwell 2005) between two systems scored on the same sentences, exact enumeration when
//!   the corpus is tiny;
//! - [`williams`]: Williams' test for two dependent correlations sharing one variable (two
//!   metrics against the same human scores), as WMT metrics tasks use.
//!
//! Every random draw comes from one documented generator ([`Rng`]: xoshiro256** seeded by
//! SplitMix64), never from the `rand` crate, so a number published with its seed stays
//! reproducible across dependency upgrades. Replicate `k` draws from its own stream
//! `Rng::stream(seed, k)`, so results are identical at any thread count.

pub mod bootstrap;
pub mod paired;
pub mod rng;
pub mod williams;

pub use bootstrap::{bootstrap, bootstrap_many, percentile, Interval};
pub use paired::{
    approximate_randomisation, exact_randomisation, paired_bootstrap, Folded, Pair, PairedResult,
    Stats, Summed,
};
pub use rng::Rng;
pub use williams::{williams, Williams};

/// The name of the generator, for signatures.
pub const GENERATOR: &str = "xoshiro256**-splitmix64";

/// What can go wrong; messages are meant to be shown as they are.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Invalid(String),
}
