//! green-input: what every command (and the Python bindings) does with its input before
//! anything is counted, written once so that one rule holds on every surface.
//!
//! [`load`] joins a corpus from any of the formats GEC data ships in and refuses files that
//! do not describe one corpus; [`Guard`] samples a whole run for input that would score
//! without error but not as meant, and says what to pass instead.

pub mod guards;
pub mod load;

pub use guards::Guard;
pub use load::{bom_warning, load, looks_like_m2, read_lines, Loaded, Views};
