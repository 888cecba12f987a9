//! green-plugin: the host side of tokenizer plugins.
//!
//! A plugin is a shared library exporting the C ABI of `green-plugin-api`
//! (`green_plugin.h`). This crate finds it (by path, or by name on the search path
//! `GREEN_PLUGIN_PATH` plus `$XDG_DATA_HOME/green/plugins`, loading only libraries whose
//! file name fits the plugin's name), checks its entry symbol, ABI
//! version and descriptor, and wraps it as a [`Tokenizer`]. It trusts nothing a plugin
//! returns: spans are checked to be in bounds, non-empty and on UTF-8 boundaries, strings
//! to be UTF-8, counts to be sane; a plugin that is not thread-safe is called under a lock.
//! Every failure is one line naming the plugin. (A plugin that corrupts memory or aborts
//! cannot be stopped from inside the process; Rust plugins built with `export_plugin!`
//! catch their panics.)
//!
//! Loaded libraries are never unloaded: unmapping code whose thread-local destructors may
//! still run on the engine's worker threads is unsound, and a CLI loads a plugin once.

use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use green_plugin_api::{
    GreenPlugin, GreenPluginEntry, GreenSpan, GreenTokens, GREEN_PLUGIN_ABI_VERSION,
    GREEN_PLUGIN_OK, GREEN_PLUGIN_THREAD_SAFE,
};
use green_tokenizer_api::{TokenizeError, Tokenizer};

/// Longest token text a plugin may return for one line. The host cannot see how big the
/// plugin's buffer really is; this bounds what a wrong length can make it read.
pub const MAX_TEXT_BYTES: usize = 1 << 30;

/// The environment variable holding the plugin search path (directories, `:`-separated on Unix).
pub const PATH_VAR: &str = "GREEN_PLUGIN_PATH";

/// A plugin could not be found, loaded or used. The message names the plugin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// What a plugin's descriptor says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginInfo {
    pub name: String,
    pub version: String,
    pub abi_version: u32,
    pub thread_safe: bool,
    /// The library's file; `None` for a plugin linked into this program.
    pub path: Option<PathBuf>,
}

impl fmt::Display for PluginInfo {
    /// `plugin 'regex' 0.1.0`: how errors name a plugin.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "plugin '{}' {}", self.name, self.version)
    }
}

/// The directories searched for plugins by name, in order: each entry of
/// `GREEN_PLUGIN_PATH`, then `$XDG_DATA_HOME/green/plugins` (or `~/.local/share/green/plugins`).
pub fn search_path() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os(PATH_VAR)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| Path::new(&h).join(".local/share"))
        });
    if let Some(data) = data {
        dirs.push(data.join("green").join("plugins"));
    }
    dirs
}

/// A spec names a file (rather than a plugin name) when it has a directory part or ends
/// with the platform's shared-library extension.
pub fn is_path(spec: &str) -> bool {
    spec.contains('/')
        || spec.contains(std::path::MAIN_SEPARATOR)
        || Path::new(spec)
            .extension()
            .is_some_and(|e| e == std::env::consts::DLL_EXTENSION)
}

/// A library whose descriptor passed every check. Lives for the whole process.
#[derive(Clone, Copy)]
struct Loaded {
    descriptor: &'static GreenPlugin,
}

/// Plugins linked into this program. They go through the same C ABI and the same checks as
/// a loaded library, so `plugin:regex` works with no build step and no search path (from
/// Python too); a library of the same name on the search path comes first.
const BUILT_IN: &[GreenPluginEntry] = &[green_regex::green_plugin_entry];

/// Open `path` and check that it is a plugin this host understands. A library that crashes
/// while it is loaded or describes itself (its initialisers, its entry point) ends the
/// process with one error line naming it, not a bare "Segmentation fault".
fn open(path: &Path) -> Result<(Loaded, PluginInfo), Error> {
    let shown = path.display();
    let _named = crash::Naming::new(&format!(
        "green: error: plugin {shown} crashed while it was being loaded; it is not a working green plugin for this machine (rebuild it, or ask its author)\n"
    ));
    // SAFETY: loading a library runs its initialisers; the user chose to trust this file.
    let library = unsafe { libloading::Library::new(path) }
        .map_err(|e| Error(format!("plugin {shown}: cannot load: {e}")))?;
    let library: &'static libloading::Library = Box::leak(Box::new(library));
    let symbol = green_plugin_api::GREEN_PLUGIN_ENTRY_SYMBOL;
    // SAFETY: the symbol's type is fixed by the ABI.
    let entry = unsafe { library.get::<GreenPluginEntry>(format!("{symbol}\0").as_bytes()) }.map_err(|_| {
        Error(format!("plugin {shown}: no symbol '{symbol}': not a green plugin (export it as in green_plugin.h, see docs/plugins.md)"))
    })?;
    check(*entry, &shown.to_string(), Some(path))
}

/// While a library is being loaded, a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) is
/// reported as one line naming it before the process ends; the previous handlers are back
/// once loading is over.
#[cfg(unix)]
mod crash {
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
    use std::sync::Mutex;

    const SIGNALS: [libc::c_int; 5] = [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
        libc::SIGABRT,
    ];
    /// The line to print, set only while a library loads.
    static LINE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static LEN: AtomicUsize = AtomicUsize::new(0);
    /// One load at a time (the handlers are process-wide).
    static LOADING: Mutex<()> = Mutex::new(());

    extern "C" fn crashed(_: libc::c_int) {
        let (line, len) = (LINE.load(Ordering::SeqCst), LEN.load(Ordering::SeqCst));
        // SAFETY: write and _exit are async-signal-safe; the line outlives the load.
        unsafe {
            if !line.is_null() {
                libc::write(2, line.cast(), len);
            }
            libc::_exit(1);
        }
    }

    /// Handlers installed by [`Naming::new`], restored when it is dropped.
    pub(super) struct Naming {
        _lock: std::sync::MutexGuard<'static, ()>,
        line: Box<[u8]>,
        previous: Vec<libc::sigaction>,
    }

    impl Naming {
        pub(super) fn new(line: &str) -> Naming {
            let lock = LOADING.lock().unwrap_or_else(|e| e.into_inner());
            let mut line: Box<[u8]> = line.as_bytes().into();
            LEN.store(line.len(), Ordering::SeqCst);
            LINE.store(line.as_mut_ptr(), Ordering::SeqCst);
            let previous = SIGNALS
                .iter()
                .map(|&signal| {
                    // SAFETY: plain sigaction calls with zeroed, then filled structures.
                    unsafe {
                        let mut action: libc::sigaction = std::mem::zeroed();
                        action.sa_sigaction = crashed as *const () as libc::sighandler_t;
                        let mut old: libc::sigaction = std::mem::zeroed();
                        libc::sigaction(signal, &action, &mut old);
                        old
                    }
                })
                .collect();
            Naming {
                _lock: lock,
                line,
                previous,
            }
        }
    }

    impl Drop for Naming {
        fn drop(&mut self) {
            for (signal, old) in SIGNALS.iter().zip(&self.previous) {
                // SAFETY: restores the handler sigaction returned.
                unsafe {
                    libc::sigaction(*signal, old, std::ptr::null_mut());
                }
            }
            LINE.store(std::ptr::null_mut(), Ordering::SeqCst);
            let _ = &self.line;
        }
    }
}

#[cfg(not(unix))]
mod crash {
    pub(super) struct Naming;

    impl Naming {
        pub(super) fn new(_: &str) -> Naming {
            Naming
        }
    }
}

/// The plugins linked into this program, checked like libraries.
pub fn built_in() -> Vec<Result<PluginInfo, Error>> {
    BUILT_IN
        .iter()
        .map(|&entry| check(entry, "(built in)", None).map(|(_, info)| info))
        .collect()
}

/// Check the descriptor `entry` returns; `shown` names its library in errors, `path` is
/// `None` for a plugin linked into this program.
fn check(
    entry: GreenPluginEntry,
    shown: &str,
    path: Option<&Path>,
) -> Result<(Loaded, PluginInfo), Error> {
    let symbol = green_plugin_api::GREEN_PLUGIN_ENTRY_SYMBOL;
    // SAFETY: calling the entry point the ABI defines.
    let ptr = unsafe { entry() };
    if ptr.is_null() || !ptr.is_aligned() {
        return Err(Error(format!(
            "plugin {shown}: {symbol}() returned an invalid descriptor pointer"
        )));
    }
    // The first field is the ABI version in every version of the ABI; read it alone first.
    // SAFETY: non-NULL, aligned, and every descriptor starts with a u32.
    let abi_version = unsafe { ptr.cast::<u32>().read() };
    if abi_version != GREEN_PLUGIN_ABI_VERSION {
        return Err(Error(format!(
            "plugin {shown}: ABI version {abi_version}, but this green speaks ABI version {GREEN_PLUGIN_ABI_VERSION}; rebuild the plugin against the green_plugin.h of this green"
        )));
    }
    // SAFETY: ABI version 1 descriptors are GreenPlugin structs in static storage.
    let descriptor: &'static GreenPlugin = unsafe { &*ptr };
    let text = |p: *const std::ffi::c_char, what: &str| -> Result<String, Error> {
        let bad = || {
            Error(format!(
                "plugin {shown}: the descriptor's {what} is missing or not a short UTF-8 string"
            ))
        };
        if p.is_null() {
            return Err(bad());
        }
        // SAFETY: the ABI promises a NUL-terminated string.
        let s = unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| bad())?;
        if s.is_empty() || s.len() > 64 || s.chars().any(char::is_control) {
            return Err(bad());
        }
        Ok(s.to_string())
    };
    let name = text(descriptor.name, "name")?;
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        return Err(Error(format!(
            "plugin {shown}: name '{name}' may only use letters, digits, '.', '_' and '-'"
        )));
    }
    let version = text(descriptor.version, "version")?;
    let missing = [
        ("create", descriptor.create.is_none()),
        ("destroy", descriptor.destroy.is_none()),
        ("tokenize", descriptor.tokenize.is_none()),
        ("free_tokens", descriptor.free_tokens.is_none()),
        ("last_error", descriptor.last_error.is_none()),
    ];
    if let Some((f, _)) = missing.iter().find(|(_, m)| *m) {
        return Err(Error(format!(
            "plugin '{name}' {version} ({shown}): the descriptor has no '{f}' function"
        )));
    }
    let info = PluginInfo {
        name,
        version,
        abi_version,
        thread_safe: descriptor.flags & GREEN_PLUGIN_THREAD_SAFE != 0,
        path: path.map(Path::to_path_buf),
    };
    Ok((Loaded { descriptor }, info))
}

/// Every shared library in `dirs` (missing directories are skipped), in search order, with
/// what loading it gave. For listings such as `green plugins`.
pub fn discover(dirs: &[PathBuf]) -> Vec<(PathBuf, Result<PluginInfo, Error>)> {
    libraries(dirs)
        .into_iter()
        .map(|path| (path.clone(), open(&path).map(|(_, info)| info)))
        .collect()
}

fn libraries(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .is_some_and(|e| e == std::env::consts::DLL_EXTENSION)
            })
            .collect();
        found.sort();
        all.extend(found);
    }
    all
}

/// Find a plugin by file path or by descriptor name in `dirs`.
fn locate(spec: &str, dirs: &[PathBuf]) -> Result<(Loaded, PluginInfo), Error> {
    if spec.is_empty() {
        return Err(Error(
            "plugin: empty name; use -t plugin:NAME or -t plugin:PATH".into(),
        ));
    }
    if is_path(spec) {
        let path = std::path::absolute(spec).map_err(|e| Error(format!("plugin {spec}: {e}")))?;
        if path.is_dir() {
            return Err(Error(format!(
                "plugin {spec} is a directory; give the plugin's library file (e.g. {}/libNAME.so), or put the directory on GREEN_PLUGIN_PATH and name the plugin (-t plugin:NAME)",
                spec.trim_end_matches('/')
            )));
        }
        if !path.is_file() {
            return Err(Error(format!("plugin {spec}: no such file")));
        }
        return open(&path);
    }
    // Only libraries whose file name matches are loaded: loading runs a library's
    // initialisers, and one that aborts must not take down a lookup of another plugin.
    let mut failed = Vec::new();
    let mut other = Vec::new();
    for path in libraries(dirs).into_iter().filter(|p| named_like(p, spec)) {
        match open(&path) {
            Ok((loaded, info)) if info.name == spec => return Ok((loaded, info)),
            Ok((_, info)) => other.push(format!("{} is plugin '{}'", path.display(), info.name)),
            Err(e) => failed.push(e.0),
        }
    }
    if let Some(first) = failed.first() {
        return Err(Error(format!(
            "plugin '{spec}': {first}{}",
            if failed.len() > 1 {
                format!(
                    " (and {} more libraries named like it failed)",
                    failed.len() - 1
                )
            } else {
                String::new()
            }
        )));
    }
    for &entry in BUILT_IN {
        if let Ok((loaded, info)) = check(entry, "(built in)", None) {
            if info.name == spec {
                return Ok((loaded, info));
            }
        }
    }
    let searched = if dirs.is_empty() {
        "an empty search path".to_string()
    } else {
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let other = if other.is_empty() {
        String::new()
    } else {
        format!(" ({})", other.join("; "))
    };
    let file = format!(
        "{}{spec}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let built: Vec<String> = built_in()
        .into_iter()
        .filter_map(|i| i.ok().map(|i| i.name))
        .collect();
    Err(Error(format!(
        "plugin '{spec}' not found in {searched}{other} nor built in ({}); plugins are found by file name ({file}, or any name ending in _{spec} or -{spec}): put its directory in {PATH_VAR}, or give the library's path; `green plugins` lists what is there",
        built.join(", ")
    )))
}

/// Whether a library's file name fits plugin `name`: `libNAME.so`, `NAME.so`, or a stem
/// ending in `_NAME` or `-NAME` (`libgreen_regex.so` for `regex`); `-` and `_` are
/// the same (Cargo turns one into the other).
fn named_like(path: &Path, name: &str) -> bool {
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    let norm = |s: &str| s.replace('-', "_");
    let stem = norm(
        stem.strip_prefix(std::env::consts::DLL_PREFIX)
            .unwrap_or(stem),
    );
    let name = norm(name);
    stem == name || stem.ends_with(&format!("_{name}"))
}

/// Load the plugin `spec` (a path, or a name looked up in [`search_path`]) and create it
/// with `config` (`None` passes `""`).
pub fn load(spec: &str, config: Option<&str>) -> Result<PluginTokenizer, Error> {
    load_from(spec, config, &search_path())
}

/// [`load`] with an explicit search path.
pub fn load_from(
    spec: &str,
    config: Option<&str>,
    dirs: &[PathBuf],
) -> Result<PluginTokenizer, Error> {
    let (loaded, info) = locate(spec, dirs)?;
    PluginTokenizer::create(loaded, info, config.unwrap_or(""))
}

/// A plugin instance as a [`Tokenizer`].
pub struct PluginTokenizer {
    info: PluginInfo,
    descriptor: &'static GreenPlugin,
    handle: *mut c_void,
    /// Held around every call when the plugin is not thread-safe.
    lock: Option<Mutex<()>>,
    signature: String,
}

// SAFETY: the handle is only used through the plugin's functions; a plugin that does not
// declare GREEN_PLUGIN_THREAD_SAFE is only ever called with `lock` held.
unsafe impl Send for PluginTokenizer {}
unsafe impl Sync for PluginTokenizer {}

/// FNV-1a, 64 bits: a stable, dependency-free fingerprint of the configuration for signatures.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl PluginTokenizer {
    fn create(loaded: Loaded, info: PluginInfo, config: &str) -> Result<Self, Error> {
        let d = loaded.descriptor;
        let c_config = CString::new(config)
            .map_err(|_| Error(format!("{info}: the configuration contains a NUL byte")))?;
        let mut handle = std::ptr::null_mut();
        // SAFETY: calling the plugin as the ABI says; creation is single-threaded here.
        let status =
            unsafe { (d.create.expect("checked in open"))(c_config.as_ptr(), &mut handle) };
        let mut signature = format!("plugin:{}@{}", info.name, info.version);
        if !config.is_empty() {
            signature.push_str(&format!(":cfg-{:016x}", fnv1a(config.as_bytes())));
        }
        let lock = (!info.thread_safe).then(|| Mutex::new(()));
        let tokenizer = PluginTokenizer {
            info,
            descriptor: d,
            handle,
            lock,
            signature,
        };
        if status != GREEN_PLUGIN_OK {
            let msg = tokenizer.last_error(std::ptr::null_mut());
            // Nothing was created: forget the handle rather than destroy it.
            let info = tokenizer.info.clone();
            std::mem::forget(tokenizer);
            return Err(Error(format!("{info}: configuration rejected: {msg}")));
        }
        Ok(tokenizer)
    }

    pub fn info(&self) -> &PluginInfo {
        &self.info
    }

    /// The plugin's message for the last failure on this thread, cleaned to one line.
    fn last_error(&self, handle: *mut c_void) -> String {
        // SAFETY: checked present in open; the result is NULL or a NUL-terminated string.
        let p = unsafe { (self.descriptor.last_error.expect("checked in open"))(handle) };
        if p.is_null() {
            return "(the plugin gave no message)".into();
        }
        let msg = unsafe { CStr::from_ptr(p) }.to_string_lossy();
        let mut msg: String = msg.split_whitespace().collect::<Vec<_>>().join(" ");
        if msg.chars().count() > 300 {
            msg = msg.chars().take(300).collect::<String>() + "...";
        }
        if msg.is_empty() {
            "(the plugin gave no message)".into()
        } else {
            msg
        }
    }

    fn fail(&self, msg: impl fmt::Display) -> TokenizeError {
        TokenizeError::new(format!("{}: {msg}", self.info))
    }

    /// Check what the plugin returned and pass its tokens to `sink`.
    fn deliver(
        &self,
        input: &str,
        out: &GreenTokens,
        sink: &mut dyn FnMut(&str),
    ) -> Result<(), TokenizeError> {
        let (text, what) = if out.text.is_null() {
            (input, "input")
        } else if out.text_len > MAX_TEXT_BYTES {
            return Err(self.fail(format_args!(
                "returned a text of {} bytes for {} bytes of input (at most {} MiB)",
                out.text_len,
                input.len(),
                MAX_TEXT_BYTES >> 20
            )));
        } else {
            // SAFETY: the plugin promises text_len readable bytes at text.
            let bytes = unsafe { std::slice::from_raw_parts(out.text.cast::<u8>(), out.text_len) };
            let text = std::str::from_utf8(bytes).map_err(|e| {
                self.fail(format_args!(
                    "returned token text that is not valid UTF-8 (at byte {})",
                    e.valid_up_to()
                ))
            })?;
            (text, "returned text")
        };
        if out.count == 0 {
            return Ok(());
        }
        let most = input.len() + if out.text.is_null() { 0 } else { text.len() };
        if out.count > most {
            return Err(self.fail(format_args!(
                "returned {} tokens for {most} bytes of text (at most one per byte)",
                out.count
            )));
        }
        if out.spans.is_null() || !out.spans.is_aligned() {
            return Err(self.fail(format_args!(
                "returned {} tokens but an invalid span pointer",
                out.count
            )));
        }
        // SAFETY: non-NULL, aligned, and the plugin promises `count` spans.
        let spans = unsafe { std::slice::from_raw_parts(out.spans, out.count) };
        for (i, span) in spans.iter().enumerate() {
            // One branch for the common case; `bad_span` says what exactly is wrong.
            let (start, len) = (span.start, span.len);
            let ok = len != 0
                && start < text.len()
                && len <= text.len() - start
                && text.is_char_boundary(start)
                && text.is_char_boundary(start + len);
            if !ok {
                return Err(self.bad_span(i, span, text, what));
            }
            // SAFETY: checked just above: in bounds, both ends on character boundaries.
            sink(unsafe { text.get_unchecked(start..start + len) });
        }
        Ok(())
    }

    /// The error for token `i`, whose `span` failed the checks in `deliver`.
    #[cold]
    fn bad_span(&self, i: usize, span: &GreenSpan, text: &str, what: &str) -> TokenizeError {
        let end = span.start as u128 + span.len as u128;
        if end > text.len() as u128 {
            self.fail(format_args!(
                "token {} spans bytes {}..{end} but the {what} has {} bytes",
                i + 1,
                span.start,
                text.len()
            ))
        } else if span.len == 0 {
            self.fail(format_args!(
                "token {} is empty (at byte {})",
                i + 1,
                span.start
            ))
        } else {
            self.fail(format_args!(
                "token {} (bytes {}..{end}) splits a UTF-8 character of the {what}",
                i + 1,
                span.start
            ))
        }
    }
}

impl Tokenizer for PluginTokenizer {
    /// `plugin:NAME@VERSION`, plus `:cfg-HASH` (FNV-1a of the configuration) when configured.
    fn name(&self) -> String {
        self.signature.clone()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        let _guard = self
            .lock
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner));
        let d = self.descriptor;
        let mut out = GreenTokens::EMPTY;
        // SAFETY: the ABI: valid handle, input_len readable UTF-8 bytes, a zeroed out.
        let status = unsafe {
            (d.tokenize.expect("checked in open"))(
                self.handle,
                text.as_ptr().cast(),
                text.len(),
                &mut out,
            )
        };
        let result = if status == GREEN_PLUGIN_OK {
            self.deliver(text, &out, sink)
        } else {
            Err(self.fail(format_args!(
                "tokenize failed: {}",
                self.last_error(self.handle)
            )))
        };
        // SAFETY: the ABI: free_tokens once after every tokenize, on the same thread.
        unsafe { (d.free_tokens.expect("checked in open"))(self.handle, &mut out) };
        result
    }
}

impl Drop for PluginTokenizer {
    fn drop(&mut self) {
        let _guard = self
            .lock
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner));
        // SAFETY: the handle came from create and is not used again.
        unsafe { (self.descriptor.destroy.expect("checked in open"))(self.handle) };
    }
}

impl fmt::Debug for PluginTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PluginTokenizer")
            .field("info", &self.info)
            .field("signature", &self.signature)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_names() {
        assert!(
            is_path("./libx.so")
                && is_path("/a/b")
                && is_path(&format!("x.{}", std::env::consts::DLL_EXTENSION))
        );
        assert!(!is_path("regex") && !is_path("cws"));
    }

    #[test]
    fn config_fingerprint_is_stable() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn missing_plugins_are_clear() {
        let err = load_from("nothere", None, &[PathBuf::from("/nonexistent-dir")])
            .unwrap_err()
            .0;
        assert!(err.starts_with("plugin 'nothere' not found in /nonexistent-dir nor built in (regex); plugins are found by file name (libnothere.so"), "{err}");
        let err = load_from("./nothere.so", None, &[]).unwrap_err().0;
        assert_eq!(err, "plugin ./nothere.so: no such file");
    }
}
