//! green-plugin-api: the stable C ABI between green and a tokenizer plugin.
//!
//! A tokenizer for a language green does not ship (Korean, Thai, Arabic, ...) can live in a
//! shared library written in any language with a C ABI, loaded at run time by the host crate
//! `green-plugin`, so nobody has to recompile green for it. This crate holds the `repr(C)`
//! definitions that mirror `include/green_plugin.h` (the contract itself, documented there;
//! `tests/header_drift.rs` fails if the two drift), and [`export_plugin!`], which turns any
//! [`green_tokenizer_api::Tokenizer`] into a plugin in a few lines:
//!
//! ```
//! use green_plugin_api::{export_plugin, FromConfig, TokenizeError, Tokenizer};
//!
//! struct Upper;
//! impl Tokenizer for Upper {
//!     fn name(&self) -> String {
//!         "upper".into()
//!     }
//!     fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
//!         text.split_whitespace().for_each(|t| sink(&t.to_uppercase()));
//!         Ok(())
//!     }
//! }
//! impl FromConfig for Upper {
//!     fn from_config(_config: &str) -> Result<Self, String> { Ok(Upper) }
//! }
//! export_plugin!(Upper, "upper");
//! ```
//!
//! Build such a crate as `crate-type = ["cdylib"]` with `panic = "unwind"` (the default), so
//! the helper can catch panics: nothing unwinds across the C boundary.

use std::ffi::{c_char, c_void};

pub use green_tokenizer_api::{TokenizeError, Tokenizer};

#[doc(hidden)]
pub mod export;
pub use export::FromConfig;

/// The ABI version this crate and `green_plugin.h` describe; the host rejects any other.
pub const GREEN_PLUGIN_ABI_VERSION: u32 = 1;
/// Bit in [`GreenPlugin::flags`]: `tokenize` may run concurrently on one handle.
pub const GREEN_PLUGIN_THREAD_SAFE: u32 = 1;
/// Return value of `create` and `tokenize` on success; any other value is a failure.
pub const GREEN_PLUGIN_OK: i32 = 0;
/// The one symbol the host looks up.
pub const GREEN_PLUGIN_ENTRY_SYMBOL: &str = "green_plugin_entry";

/// A token: bytes `start..start + len` of the text (see [`GreenTokens::text`]).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GreenSpan {
    pub start: usize,
    pub len: usize,
}

/// The tokens of one line, filled by `tokenize` and released by `free_tokens`.
#[repr(C)]
#[derive(Debug)]
pub struct GreenTokens {
    /// `count` spans, in order.
    pub spans: *const GreenSpan,
    pub count: usize,
    /// NULL: spans index the input; otherwise a UTF-8 buffer of `text_len` bytes.
    pub text: *const c_char,
    pub text_len: usize,
    /// Private to the plugin, for `free_tokens`; the host never reads it.
    pub owner: *mut c_void,
}

impl GreenTokens {
    /// The zeroed value the host passes to `tokenize`.
    pub const EMPTY: GreenTokens = GreenTokens {
        spans: std::ptr::null(),
        count: 0,
        text: std::ptr::null(),
        text_len: 0,
        owner: std::ptr::null_mut(),
    };
}

/// The descriptor returned by `green_plugin_entry`. `abi_version` stays the first field forever.
#[repr(C)]
#[derive(Debug)]
pub struct GreenPlugin {
    pub abi_version: u32,
    pub flags: u32,
    /// NUL-terminated, 1 to 64 of `[A-Za-z0-9._-]`.
    pub name: *const c_char,
    /// NUL-terminated, e.g. `1.0.0`.
    pub version: *const c_char,
    pub create:
        Option<unsafe extern "C" fn(config: *const c_char, handle: *mut *mut c_void) -> i32>,
    pub destroy: Option<unsafe extern "C" fn(handle: *mut c_void)>,
    pub tokenize: Option<
        unsafe extern "C" fn(
            handle: *mut c_void,
            input: *const c_char,
            input_len: usize,
            out: *mut GreenTokens,
        ) -> i32,
    >,
    pub free_tokens: Option<unsafe extern "C" fn(handle: *mut c_void, tokens: *mut GreenTokens)>,
    pub last_error: Option<unsafe extern "C" fn(handle: *mut c_void) -> *const c_char>,
}

/// The type of `green_plugin_entry`.
pub type GreenPluginEntry = unsafe extern "C" fn() -> *const GreenPlugin;
