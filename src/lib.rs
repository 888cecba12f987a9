//! `green`: the one crate to depend on. Re-exports the engine; see `green_engine` for details.
pub use green_engine::*;
