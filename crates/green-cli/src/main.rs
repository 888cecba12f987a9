//! `green`: see `lib.rs` for the command line.
//! It starts from C's `main`, without Rust's runtime start ([`green_cli::start`] says why).
#![cfg_attr(not(test), no_main)]

green_cli::c_main!(None);
