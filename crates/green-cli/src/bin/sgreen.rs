//! `sgreen`: `green` at sentence level, like the reference's `sgreen`.
//! It starts from C's `main`, without Rust's runtime start ([`green_cli::start`] says why).
#![cfg_attr(not(test), no_main)]

green_cli::c_main!(Some(green_cli::Level::Sentence));
