//! The Rust side of a plugin: generic `extern "C"` functions behind [`export_plugin!`].
//!
//! Every function catches panics and turns them into an error status plus a message for
//! `last_error`, because unwinding across a C boundary is undefined behaviour (and an abort
//! of the host since Rust 1.81). Errors are kept per thread, as the header asks. While a
//! plugin function runs, the panic hook records the panic's location instead of printing,
//! so the host shows one error line; panics elsewhere go to the previous hook as before.
//!
//! `tokenize` is called once per line, so its buffers are recycled: `free_tokens` parks the
//! returned buffers in a per-thread spare slot and the next `tokenize` on that thread takes
//! them back, instead of two allocations and frees per line. A buffer is only ever owned by
//! one `GreenTokens` or by the slot, so any interleaving of calls the ABI allows stays sound.

use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use green_tokenizer_api::Tokenizer;

use crate::{GreenPlugin, GreenSpan, GreenTokens, GREEN_PLUGIN_OK};

/// A tokenizer a plugin can build from the user's configuration string (`""` when none).
pub trait FromConfig: Tokenizer + Sized + 'static {
    /// Build the tokenizer, or explain in one line why the configuration is wrong.
    fn from_config(config: &str) -> Result<Self, String>;
}

/// Status returned for an error the plugin reported.
const FAILED: i32 = 1;
/// Status returned when the plugin panicked.
const PANICKED: i32 = 2;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
    /// Set while this thread runs plugin code under `guard`.
    static IN_PLUGIN: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic under `guard` happened.
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The buffers of the last `free_tokens` on this thread, for the next `tokenize`.
    static SPARE: Cell<Option<Box<Collected>>> = const { Cell::new(None) };
}

static HOOK: Once = Once::new();

/// Chain a panic hook that stays silent inside plugin calls and notes the location.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_PLUGIN.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

fn set_error(msg: &str) {
    // A message cannot carry NUL bytes through a C string; drop them.
    let msg = CString::new(msg.replace('\0', "")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = msg);
}

/// Run `f`, turning an error or a panic into a status and a `last_error` message.
fn guard(f: impl FnOnce() -> Result<(), String>) -> i32 {
    install_hook();
    let outer = IN_PLUGIN.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_PLUGIN.with(|c| c.set(outer));
    match result {
        Ok(Ok(())) => GREEN_PLUGIN_OK,
        Ok(Err(msg)) => {
            set_error(&msg);
            FAILED
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("unknown panic payload");
            let at = PANIC_AT
                .with(|p| p.borrow_mut().take())
                .map(|at| format!(" at {at}"))
                .unwrap_or_default();
            set_error(&format!("panicked{at}: {what}"));
            PANICKED
        }
    }
}

/// `Sync` wrapper so a descriptor full of raw pointers to static data can be a `static`.
#[repr(transparent)]
pub struct Descriptor(pub GreenPlugin);

// SAFETY: the descriptor is immutable and only points at 'static strings and functions.
unsafe impl Sync for Descriptor {}

/// `create` for `T`.
///
/// # Safety
/// `config` is NULL or a NUL-terminated string; `handle` is valid for a write (the ABI).
pub unsafe extern "C" fn create<T: FromConfig>(
    config: *const c_char,
    handle: *mut *mut c_void,
) -> i32 {
    guard(|| {
        if handle.is_null() {
            return Err("create called with a NULL handle pointer".into());
        }
        let config = if config.is_null() {
            ""
        } else {
            // SAFETY: the host passes a NUL-terminated string.
            unsafe { CStr::from_ptr(config) }
                .to_str()
                .map_err(|_| "the configuration is not valid UTF-8".to_string())?
        };
        let tokenizer = T::from_config(config)?;
        // SAFETY: checked non-NULL above.
        unsafe { *handle = Box::into_raw(Box::new(tokenizer)).cast() };
        Ok(())
    })
}

/// `destroy` for `T`.
///
/// # Safety
/// `handle` came from `create::<T>` and is not used afterwards.
pub unsafe extern "C" fn destroy<T: FromConfig>(handle: *mut c_void) {
    if !handle.is_null() {
        // SAFETY: created by Box::into_raw in create::<T>. A panicking Drop is swallowed.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            drop(unsafe { Box::from_raw(handle.cast::<T>()) })
        }));
    }
}

/// What one `tokenize` call hands out: spans, and a buffer once any token is not a slice of
/// the input (a normalising tokenizer).
#[derive(Default)]
struct Collected {
    spans: Vec<GreenSpan>,
    /// Token text, in use once `owned` is set; kept allocated between calls.
    buf: Vec<u8>,
    owned: bool,
}

/// Buffers above these capacities are freed rather than kept for the next call, so one
/// huge line does not pin its memory for the rest of the thread's life.
const SPARE_SPANS: usize = 1 << 16;
const SPARE_BYTES: usize = 1 << 20;

impl Collected {
    /// This thread's spare buffers, emptied, or new ones.
    fn take() -> Box<Collected> {
        SPARE
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Keep `self` as this thread's spare unless one is already there (or it is too big).
    fn recycle(mut self: Box<Self>) {
        if self.spans.capacity() > SPARE_SPANS || self.buf.capacity() > SPARE_BYTES {
            return;
        }
        self.spans.clear();
        self.buf.clear();
        self.owned = false;
        // Without the slot (thread exiting), or with a spare already there (two results were
        // in flight on this thread), `self` is simply dropped.
        let _ = SPARE.try_with(move |spare| {
            let keep = spare.take().unwrap_or(self);
            spare.set(Some(keep));
        });
    }

    #[inline]
    fn push(&mut self, input: &str, token: &str) {
        // The capacity test lets the common case compile to a few instructions with no call;
        // everything else (growing, owned tokens) is a tail call to `push_slow`.
        match span_in(input, token) {
            Some(span) if !self.owned && self.spans.len() < self.spans.capacity() => {
                self.spans.push(span)
            }
            _ => self.push_slow(input, token),
        }
    }

    /// `push` when the span vector is full or `token` is not a slice of the input (then it
    /// and every later token go to `buf`).
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, input: &str, token: &str) {
        if let (false, Some(span)) = (self.owned, span_in(input, token)) {
            self.spans.push(span);
            return;
        }
        if !self.owned {
            // First owned token: move every earlier span into the buffer.
            self.owned = true;
            self.buf.reserve(input.len() + token.len());
            for span in &mut self.spans {
                let start = self.buf.len();
                self.buf
                    .extend_from_slice(&input.as_bytes()[span.start..span.start + span.len]);
                span.start = start;
            }
        }
        self.spans.push(GreenSpan {
            start: self.buf.len(),
            len: token.len(),
        });
        self.buf.extend_from_slice(token.as_bytes());
    }
}

/// `token` as a span of `input`, if it is a slice of it.
#[inline]
fn span_in(input: &str, token: &str) -> Option<GreenSpan> {
    let base = input.as_ptr() as usize;
    let at = token.as_ptr() as usize;
    (at >= base && at + token.len() <= base + input.len()).then(|| GreenSpan {
        start: at - base,
        len: token.len(),
    })
}

/// `tokenize` for `T`.
///
/// # Safety
/// The ABI: `handle` from `create::<T>`, `input` valid for `input_len` bytes, `out` writable.
pub unsafe extern "C" fn tokenize<T: FromConfig>(
    handle: *mut c_void,
    input: *const c_char,
    input_len: usize,
    out: *mut GreenTokens,
) -> i32 {
    guard(|| {
        if handle.is_null() || out.is_null() || (input.is_null() && input_len > 0) {
            return Err("tokenize called with a NULL pointer".into());
        }
        // SAFETY: handle was made by create::<T>; input is input_len readable bytes.
        let tokenizer = unsafe { &*handle.cast::<T>() };
        let bytes = if input_len == 0 {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(input.cast::<u8>(), input_len) }
        };
        let text =
            std::str::from_utf8(bytes).map_err(|e| format!("input is not valid UTF-8: {e}"))?;
        let mut collected = Collected::take();
        // About one token per 4 bytes of text: few reallocations on the hot path.
        collected.spans.reserve(input_len / 4 + 4);
        tokenizer
            .tokenize(text, &mut |token| collected.push(text, token))
            .map_err(|e| e.to_string())?;
        let (buf_ptr, buf_len) = if collected.owned {
            (collected.buf.as_ptr().cast(), collected.buf.len())
        } else {
            (std::ptr::null(), 0)
        };
        // SAFETY: out checked non-NULL. The pointers stay valid until free_tokens takes the
        // box back (moving a Box does not move the vectors' heap buffers).
        unsafe {
            *out = GreenTokens {
                spans: collected.spans.as_ptr(),
                count: collected.spans.len(),
                text: buf_ptr,
                text_len: buf_len,
                owner: Box::into_raw(collected).cast(),
            };
        }
        Ok(())
    })
}

/// `free_tokens` for any `T`.
///
/// # Safety
/// `tokens` was filled by `tokenize` (or is zeroed) and is not read afterwards.
pub unsafe extern "C" fn free_tokens(_handle: *mut c_void, tokens: *mut GreenTokens) {
    if tokens.is_null() {
        return;
    }
    // SAFETY: owner is NULL or the Box made in tokenize; reset so a second call is harmless.
    let owner = std::mem::replace(unsafe { &mut *tokens }, GreenTokens::EMPTY).owner;
    if !owner.is_null() {
        // Nothing here can panic: clearing and moving vectors, thread-local access by try_with.
        unsafe { Box::from_raw(owner.cast::<Collected>()) }.recycle();
    }
}

/// `last_error`: this thread's last message.
///
/// # Safety
/// None beyond the ABI; the pointer is valid until the next failing call on this thread.
pub unsafe extern "C" fn last_error(_handle: *mut c_void) -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Export `$ty` (a [`Tokenizer`] + [`FromConfig`]) as a green plugin named `$name`, with the
/// crate's version. Rust tokenizers are `Send + Sync`, so the plugin is declared thread-safe.
#[macro_export]
macro_rules! export_plugin {
    ($ty:ty, $name:literal) => {
        /// The green plugin entry point (see green_plugin.h).
        #[no_mangle]
        pub extern "C" fn green_plugin_entry() -> *const $crate::GreenPlugin {
            static DESCRIPTOR: $crate::export::Descriptor =
                $crate::export::Descriptor($crate::GreenPlugin {
                    abi_version: $crate::GREEN_PLUGIN_ABI_VERSION,
                    flags: $crate::GREEN_PLUGIN_THREAD_SAFE,
                    name: concat!($name, "\0").as_ptr().cast(),
                    version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast(),
                    create: Some($crate::export::create::<$ty>),
                    destroy: Some($crate::export::destroy::<$ty>),
                    tokenize: Some($crate::export::tokenize::<$ty>),
                    free_tokens: Some($crate::export::free_tokens),
                    last_error: Some($crate::export::last_error),
                });
            &DESCRIPTOR.0
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use green_tokenizer_api::{TokenizeError, Whitespace};

    /// Whitespace split that upper-cases tokens with a `^` prefix, fails on `FAIL`, panics on `PANIC`.
    struct Mixed;

    impl Tokenizer for Mixed {
        fn name(&self) -> String {
            "mixed".into()
        }
        fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
            for tok in text.split(' ').filter(|t| !t.is_empty()) {
                match tok {
                    "FAIL" => return Err(TokenizeError::new("asked to fail")),
                    "PANIC" => panic!("asked to panic"),
                    _ => match tok.strip_prefix('^') {
                        Some(rest) => sink(&rest.to_uppercase()),
                        None => sink(tok),
                    },
                }
            }
            Ok(())
        }
    }

    impl FromConfig for Mixed {
        fn from_config(config: &str) -> Result<Self, String> {
            match config {
                "" => Ok(Mixed),
                "panic" => panic!("bad config"),
                other => Err(format!("unknown option '{other}'")),
            }
        }
    }

    impl FromConfig for Whitespace {
        fn from_config(_config: &str) -> Result<Self, String> {
            Ok(Whitespace)
        }
    }

    export_plugin!(Mixed, "mixed");

    fn error() -> String {
        unsafe { CStr::from_ptr(last_error(std::ptr::null_mut())) }
            .to_str()
            .unwrap()
            .to_owned()
    }

    /// Create a `Mixed` handle through the descriptor, as a host would.
    fn open(config: &str) -> Result<*mut c_void, (i32, String)> {
        let d = unsafe { &*green_plugin_entry() };
        let config = CString::new(config).unwrap();
        let mut handle = std::ptr::null_mut();
        match unsafe { (d.create.unwrap())(config.as_ptr(), &mut handle) } {
            GREEN_PLUGIN_OK => Ok(handle),
            status => Err((status, error())),
        }
    }

    /// The tokens `out` holds for the input `text`, as owned strings.
    fn strings(text: &str, out: &GreenTokens) -> Vec<String> {
        let base: &[u8] = if out.text.is_null() {
            text.as_bytes()
        } else {
            unsafe { std::slice::from_raw_parts(out.text.cast(), out.text_len) }
        };
        let spans = unsafe { std::slice::from_raw_parts(out.spans, out.count) };
        spans
            .iter()
            .map(|s| String::from_utf8(base[s.start..s.start + s.len].to_vec()).unwrap())
            .collect()
    }

    /// Tokenize through the descriptor; tokens as owned strings.
    fn run(handle: *mut c_void, text: &str) -> Result<(Vec<String>, bool), (i32, String)> {
        let d = unsafe { &*green_plugin_entry() };
        let mut out = GreenTokens::EMPTY;
        let status =
            unsafe { (d.tokenize.unwrap())(handle, text.as_ptr().cast(), text.len(), &mut out) };
        let result = if status == GREEN_PLUGIN_OK {
            Ok((strings(text, &out), !out.text.is_null()))
        } else {
            Err((status, error()))
        };
        unsafe { (d.free_tokens.unwrap())(handle, &mut out) };
        result
    }

    #[test]
    fn descriptor_names_the_plugin() {
        let d = unsafe { &*green_plugin_entry() };
        assert_eq!(d.abi_version, crate::GREEN_PLUGIN_ABI_VERSION);
        assert_eq!(unsafe { CStr::from_ptr(d.name) }.to_str().unwrap(), "mixed");
        assert_eq!(
            unsafe { CStr::from_ptr(d.version) }.to_str().unwrap(),
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(d.flags, crate::GREEN_PLUGIN_THREAD_SAFE);
    }

    #[test]
    fn slices_become_spans_and_owned_tokens_a_buffer() {
        let h = open("").unwrap();
        assert_eq!(
            run(h, " a bé  c").unwrap(),
            (vec!["a".to_string(), "bé".into(), "c".into()], false)
        );
        assert_eq!(
            run(h, "a ^xy b").unwrap(),
            (vec!["a".to_string(), "XY".into(), "b".into()], true)
        );
        assert_eq!(run(h, "").unwrap(), (vec![], false));
        unsafe { destroy::<Mixed>(h) };
    }

    /// Buffers are recycled per thread: results in flight at the same time never share one,
    /// and a recycled buffer starts empty and in span mode again.
    #[test]
    fn recycled_buffers_are_never_shared() {
        let h = open("").unwrap();
        let d = unsafe { &*green_plugin_entry() };
        let tokenize = |text: &str, out: &mut GreenTokens| {
            let status = unsafe { (d.tokenize.unwrap())(h, text.as_ptr().cast(), text.len(), out) };
            assert_eq!(status, GREEN_PLUGIN_OK);
        };
        for _ in 0..3 {
            let (a, b) = ("x ^yz", "p q r");
            let (mut ta, mut tb) = (GreenTokens::EMPTY, GreenTokens::EMPTY);
            tokenize(a, &mut ta);
            tokenize(b, &mut tb);
            assert_ne!(ta.owner, tb.owner);
            assert_eq!(strings(a, &ta), ["x", "YZ"]);
            assert_eq!(strings(b, &tb), ["p", "q", "r"]);
            assert!(!ta.text.is_null() && tb.text.is_null());
            // Freed in either order; the spare slot keeps one buffer, the other is dropped.
            unsafe { free_tokens(h, &mut ta) };
            tokenize("m n", &mut ta);
            assert_eq!(strings("m n", &ta), ["m", "n"]);
            assert!(ta.text.is_null());
            unsafe { free_tokens(h, &mut tb) };
            unsafe { free_tokens(h, &mut ta) };
        }
        // A line with more tokens than the recycled vector holds grows it.
        let long = "a ".repeat(10_000);
        assert_eq!(run(h, &long).unwrap().0.len(), 10_000);
        unsafe { destroy::<Mixed>(h) };
    }

    #[test]
    fn errors_and_panics_become_statuses() {
        assert_eq!(
            open("nope").unwrap_err(),
            (FAILED, "unknown option 'nope'".to_string())
        );
        let (status, msg) = open("panic").unwrap_err();
        assert_eq!(status, PANICKED);
        assert!(
            msg.starts_with("panicked at crates/green-plugin-api/src/export.rs:")
                && msg.ends_with(": bad config"),
            "{msg}"
        );
        let h = open("").unwrap();
        assert_eq!(
            run(h, "a FAIL").unwrap_err(),
            (FAILED, "asked to fail".to_string())
        );
        let (status, msg) = run(h, "a PANIC").unwrap_err();
        assert_eq!(status, PANICKED);
        assert!(msg.ends_with(": asked to panic"), "{msg}");
        // Still usable after a panic.
        assert_eq!(run(h, "b").unwrap().0, ["b"]);
        unsafe { destroy::<Mixed>(h) };
    }

    #[test]
    fn any_tokenizer_becomes_a_plugin() {
        let mut h = std::ptr::null_mut();
        assert_eq!(
            unsafe { create::<Whitespace>(std::ptr::null(), &mut h) },
            GREEN_PLUGIN_OK
        );
        let mut out = GreenTokens::EMPTY;
        let text = "x\u{3000}y";
        assert_eq!(
            unsafe { tokenize::<Whitespace>(h, text.as_ptr().cast(), text.len(), &mut out) },
            GREEN_PLUGIN_OK
        );
        assert_eq!(out.count, 2);
        unsafe { free_tokens(h, &mut out) };
        assert!(out.owner.is_null());
        unsafe { destroy::<Whitespace>(h) };
    }
}
