//! Loading real and deliberately broken plugins.
//!
//! C plugins are compiled here with the system C compiler (`cc`) into CARGO_TARGET_TMPDIR.
//! Rust plugins (plugins/regex, tests/fixtures/panicky) are dev-dependencies with a `cdylib`
//! crate type, so cargo builds them into this test binary's own `deps` directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use green_engine::{Config, Scorer, Tokenizer, Whitespace};
use green_plugin::{discover, load_from, Error, PluginTokenizer};

/// A Rust plugin built by cargo next to this test binary, e.g. `green_regex`.
fn rust_plugin(lib: &str) -> PathBuf {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let path = deps.join(format!(
        "{}{lib}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(
        path.is_file(),
        "{} missing: cargo builds it as a dev-dependency of green-plugin",
        path.display()
    );
    path
}

/// Compile a C plugin with `cc`, with `-D<define>` when given; returns the library's path.
fn c_plugin(source: &Path, define: Option<&str>, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("green-plugin-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../green-plugin-api/include");
    let mut cc = Command::new("cc");
    cc.args([
        "-std=c11",
        "-D_POSIX_C_SOURCE=199309L",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-shared",
        "-fPIC",
        "-O2",
        "-o",
    ])
    .arg(&out)
    .arg(source)
    .arg("-I")
    .arg(include);
    if let Some(d) = define {
        cc.arg(format!("-D{d}"));
    }
    let status = cc
        .status()
        .expect("running `cc` (the system C compiler, needed for the C plugin tests)");
    assert!(status.success(), "cc failed on {}", source.display());
    out
}

fn cws() -> PathBuf {
    c_plugin(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/c-whitespace/cws.c"),
        None,
        "green_cws",
    )
}

fn broken(mode: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken.c");
    c_plugin(
        &source,
        Some(mode),
        &format!("broken_{}", mode.to_lowercase()),
    )
}

fn load(path: &Path, config: Option<&str>) -> Result<PluginTokenizer, Error> {
    load_from(path.to_str().unwrap(), config, &[])
}

/// A deterministic corpus with varied whitespace: (sources, references, systems).
fn corpus(unicode: bool) -> (Vec<String>, Vec<Vec<String>>, Vec<Vec<String>>) {
    let words = [
        "the", "cat", "sat", "on", "a", "mat", "He", "go", "goes", "to", "school", ".", ",", "été",
        "我们",
    ];
    let spaces: &[&str] = if unicode {
        &[" ", "  ", "\t", "\u{3000}", "\u{a0}", "\u{2009}", " \u{1c}"]
    } else {
        &[" ", "  ", "\t", " \r "]
    };
    let mut seed = 42u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let line = |next: &mut dyn FnMut(usize) -> usize| {
        let len = 1 + next(14);
        let mut s = String::new();
        for i in 0..len {
            if i > 0 || next(3) == 0 {
                s.push_str(spaces[next(spaces.len())]);
            }
            s.push_str(words[next(words.len())]);
        }
        s
    };
    let n = 300;
    let src: Vec<String> = (0..n).map(|_| line(&mut next)).collect();
    let refs = (0..2)
        .map(|_| (0..n).map(|_| line(&mut next)).collect())
        .collect();
    let hyps = (0..3)
        .map(|_| (0..n).map(|_| line(&mut next)).collect())
        .collect();
    (src, refs, hyps)
}

fn assert_same_scores(plugin: PluginTokenizer, unicode: bool) {
    let (src, refs, hyps) = corpus(unicode);
    let config = Config::new(4, vec![0.5, 2.0]).unwrap();
    let builtin = Scorer::new(Whitespace, config.clone())
        .evaluate(&src, &refs, &hyps)
        .unwrap();
    let via_plugin = Scorer::new(plugin, config)
        .evaluate(&src, &refs, &hyps)
        .unwrap();
    assert_eq!(builtin, via_plugin);
}

#[test]
fn c_whitespace_plugin_scores_like_builtin_word() {
    let t = load(&cws(), None).unwrap();
    assert_eq!(t.name(), "plugin:cws@1.0.0");
    assert!(t.info().thread_safe);
    assert_eq!(
        t.tokens(" a\u{3000}b\u{1c}c\u{85}d  é ").unwrap(),
        ["a", "b", "c", "d", "é"]
    );
    assert_same_scores(t, true);
}

#[test]
fn regex_plugin_scores_like_builtin_word() {
    let t = load(&rust_plugin("green_regex"), Some(r"split:\s+")).unwrap();
    assert!(
        t.name()
            .starts_with(&format!("plugin:regex@{}:cfg-", env!("CARGO_PKG_VERSION"))),
        "{}",
        t.name()
    );
    assert_same_scores(t, false);
    // Match mode and the default (\S+) too.
    assert_same_scores(
        load(&rust_plugin("green_regex"), Some(r"\S+")).unwrap(),
        false,
    );
    let default = load(&rust_plugin("green_regex"), None).unwrap();
    assert_eq!(
        default.name(),
        format!("plugin:regex@{}", env!("CARGO_PKG_VERSION"))
    );
    assert_same_scores(default, false);
}

/// `regex` is linked into the host: found with no search path, after a library of that name.
#[test]
fn built_in_regex_needs_no_library_and_yields_to_one() {
    let built_in = load_from("regex", Some(r"split:\s+"), &[]).unwrap();
    assert_eq!(built_in.info().path, None);
    let library = load(&rust_plugin("green_regex"), Some(r"split:\s+")).unwrap();
    assert_eq!(built_in.name(), library.name());
    let line = "He  go\tto school .";
    assert_eq!(
        built_in.tokens(line).unwrap(),
        library.tokens(line).unwrap()
    );
    assert_same_scores(built_in, false);
    let dir = rust_plugin("green_regex").parent().unwrap().to_path_buf();
    let found = load_from("regex", None, &[dir]).unwrap();
    assert_eq!(found.info().path, Some(rust_plugin("green_regex")));
    let listed = green_plugin::built_in();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].as_ref().unwrap().name, "regex");
}

#[test]
fn signature_names_differ_by_config() {
    let a = load(&rust_plugin("green_regex"), Some(r"split:\s+")).unwrap();
    let b = load(&rust_plugin("green_regex"), Some(r"\w+")).unwrap();
    assert_ne!(a.name(), b.name());
}

#[test]
fn plugins_are_found_by_name_and_listed() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("green-plugin-search");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        cws(),
        dir.join(format!(
            "{}green_cws{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        )),
    )
    .unwrap();
    std::fs::copy(
        broken("NO_ENTRY"),
        dir.join(format!("not_a_plugin{}", std::env::consts::DLL_SUFFIX)),
    )
    .unwrap();
    // A library whose initialiser aborts the process: never loaded by a lookup of another name.
    std::fs::copy(
        broken("ABORT_ON_LOAD"),
        dir.join(format!("libgreen_boom{}", std::env::consts::DLL_SUFFIX)),
    )
    .unwrap();
    let dirs = [PathBuf::from("/nonexistent-dir"), dir.clone()];
    assert_eq!(load_from("cws", None, &dirs).unwrap().info().name, "cws");
    let err = load_from("klingon", None, &dirs).unwrap_err().0;
    assert!(
        err.contains("plugin 'klingon' not found in /nonexistent-dir, ")
            && err.contains(" nor built in (regex); ")
            && err.contains("plugins are found by file name (libklingon.so"),
        "{err}"
    );
    // A library named like the plugin that fails to load is named in the error.
    let err = load_from("plugin", None, &dirs).unwrap_err().0;
    assert!(
        err.contains("not_a_plugin") && err.contains("no symbol 'green_plugin_entry'"),
        "{err}"
    );
    std::fs::remove_file(dir.join(format!("libgreen_boom{}", std::env::consts::DLL_SUFFIX)))
        .unwrap();
    let found = discover(&dirs);
    assert_eq!(found.len(), 2);
    let info = found.iter().find_map(|(_, r)| r.as_ref().ok()).unwrap();
    assert_eq!(
        (info.name.as_str(), info.version.as_str(), info.abi_version),
        ("cws", "1.0.0", 1)
    );
    assert!(found.iter().any(|(_, r)| r
        .as_ref()
        .is_err_and(|e| e.0.contains("no symbol 'green_plugin_entry'"))));
}

/// The first error from tokenizing `text` with the broken plugin `mode`.
fn tokenize_error(mode: &str, text: &str) -> String {
    load(&broken(mode), None)
        .unwrap()
        .tokens(text)
        .unwrap_err()
        .to_string()
}

#[test]
fn missing_entry_symbol() {
    let err = load(&broken("NO_ENTRY"), None).unwrap_err().0;
    assert!(err.ends_with("no symbol 'green_plugin_entry': not a green plugin (export it as in green_plugin.h, see docs/plugins.md)"), "{err}");
}

#[test]
fn wrong_abi_version() {
    let err = load(&broken("BAD_ABI"), None).unwrap_err().0;
    assert!(
        err.contains("ABI version 99, but this green speaks ABI version 1; rebuild the plugin"),
        "{err}"
    );
}

#[test]
fn span_out_of_bounds() {
    assert_eq!(
        tokenize_error("OUT_OF_BOUNDS", "ab cd"),
        "plugin 'broken' 0.0.1: token 1 spans bytes 5..9 but the input has 5 bytes"
    );
}

#[test]
fn span_splitting_a_character() {
    assert_eq!(
        tokenize_error("SPLIT_UTF8", "é b"),
        "plugin 'broken' 0.0.1: token 1 (bytes 0..1) splits a UTF-8 character of the input"
    );
}

#[test]
fn invalid_utf8_text() {
    assert_eq!(
        tokenize_error("BAD_UTF8", "a b"),
        "plugin 'broken' 0.0.1: returned token text that is not valid UTF-8 (at byte 2)"
    );
}

#[test]
fn absurd_text_length() {
    assert_eq!(
        tokenize_error("HUGE_TEXT", "a b"),
        format!(
            "plugin 'broken' 0.0.1: returned a text of {} bytes for 3 bytes of input (at most 1024 MiB)",
            usize::MAX
        )
    );
}

#[test]
fn absurd_token_count() {
    let err = tokenize_error("HUGE_COUNT", "a b");
    assert!(
        err.starts_with("plugin 'broken' 0.0.1: returned 18446744073709551615 tokens for 3 bytes"),
        "{err}"
    );
}

#[test]
fn plugin_reporting_an_error() {
    assert_eq!(
        tokenize_error("FAIL", "a b"),
        "plugin 'broken' 0.0.1: tokenize failed: dictionary /nonexistent/dict.bin not found"
    );
}

#[test]
fn plugin_rejecting_its_configuration() {
    let err = load(&cws(), Some("lang=xx")).unwrap_err().0;
    assert_eq!(
        err,
        "plugin 'cws' 1.0.0: configuration rejected: cws takes no configuration, got 'lang=xx'"
    );
    let err = load(&rust_plugin("green_regex"), Some("split:("))
        .unwrap_err()
        .0;
    assert!(
        err.starts_with("plugin 'regex' ")
            && err.contains("configuration rejected: invalid regular expression '('"),
        "{err}"
    );
}

#[test]
fn rust_panics_do_not_cross_the_boundary() {
    let err = load(&rust_plugin("green_panicky"), Some("panic"))
        .unwrap_err()
        .0;
    assert!(
        err.contains("configuration rejected: panicked at ")
            && err.ends_with(": the panicky fixture panics on config 'panic'"),
        "{err}"
    );
    let t = load(&rust_plugin("green_panicky"), None).unwrap();
    let err = t.tokens("a PANIC b").unwrap_err().to_string();
    assert!(
        err.contains("tokenize failed: panicked at ")
            && err.ends_with(": the panicky fixture panics on PANIC"),
        "{err}"
    );
    // The plugin still works afterwards.
    assert_eq!(t.tokens("a b").unwrap(), ["a", "b"]);
}

#[test]
fn plugin_that_is_not_thread_safe_is_serialised() {
    let t = load(&broken("SERIAL"), None).unwrap();
    assert!(!t.info().thread_safe);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..50 {
                    assert_eq!(t.tokens("x y  z").unwrap(), ["x", "y", "z"]);
                }
            });
        }
    });
}
