//! `mgreen`: `green` at the mean-of-sentences level, like the reference's `mgreen`.
//! It starts from C's `main`, without Rust's runtime start ([`green_cli::start`] says why).
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    green_cli::start(Some(green_cli::Level::Mean))
}
