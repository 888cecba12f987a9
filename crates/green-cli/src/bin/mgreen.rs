//! `mgreen`: `green` at the mean-of-sentences level, like the reference's `mgreen`.
//! It starts from C's `main`, without Rust's runtime start ([`green_cli::start`] says why).
#![cfg_attr(not(test), no_main)]

green_cli::c_main!(Some(green_cli::Level::Mean));
