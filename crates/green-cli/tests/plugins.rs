//! `green -t plugin:...` and `green plugins` end to end: the example plugins score exactly
//! like the built-in `word` tokenizer, and every broken plugin ends in one error line and
//! exit code 1, never a crash.
//!
//! C plugins are compiled here with `cc`; the Rust plugins are dev-dependencies with a
//! `cdylib` crate type, which cargo builds into this test binary's `deps` directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const DLL: (&str, &str) = (std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("green-cli-plugins");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rust_plugin(lib: &str) -> PathBuf {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let path = deps.join(format!("{}{lib}{}", DLL.0, DLL.1));
    assert!(
        path.is_file(),
        "{} missing: cargo builds it as a dev-dependency of green-cli",
        path.display()
    );
    path
}

/// Compile a C plugin into `dir` with `cc` (as docs/plugins.md tells users to).
fn c_plugin(source: &Path, define: Option<&str>, dir: &Path, name: &str) -> PathBuf {
    let out = dir.join(format!("{}{name}{}", DLL.0, DLL.1));
    let mut cc = Command::new("cc");
    cc.args([
        "-std=c11",
        "-D_POSIX_C_SOURCE=199309L",
        "-shared",
        "-fPIC",
        "-O2",
        "-o",
    ])
    .arg(&out)
    .arg(source)
    .arg("-I")
    .arg(workspace().join("crates/green-plugin-api/include"));
    if let Some(d) = define {
        cc.arg(format!("-D{d}"));
    }
    assert!(
        cc.status()
            .expect("running `cc`, the system C compiler")
            .success(),
        "cc failed on {}",
        source.display()
    );
    out
}

fn broken(mode: &str) -> PathBuf {
    let source = workspace().join("crates/green-plugin/tests/fixtures/broken.c");
    c_plugin(
        &source,
        Some(mode),
        &scratch(),
        &format!("broken_{}", mode.to_lowercase()),
    )
}

/// Writes a small corpus with irregular whitespace (once: tests run in parallel); returns its directory.
fn corpus() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(write_corpus).clone()
}

fn write_corpus() -> PathBuf {
    let dir = scratch().join("corpus");
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        ("src.txt", "He go to school .\nThe cat  sat on mat .\nÉté\u{3000}chaud , très chaud\n\tA b c d e f\n"),
        ("ref0.txt", "He goes to school .\nThe cat sat on the mat .\nÉté chaud , très chaud .\nA b c d e f\n"),
        ("ref1.txt", "He went to school .\nThe cat sat on a mat .\nL' été est chaud\nA b c d e f g\n"),
        ("hyp.txt", "He goes to the school .\nThe cat sat on mat .\nÉté  chaud , très chaud\nA b c e f\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn green(env: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_green"));
    cmd.current_dir(corpus())
        .args(args)
        .env_remove("GREEN_PLUGIN_PATH")
        .env("XDG_DATA_HOME", scratch().join("no-data-home"));
    if let Some(dir) = env {
        cmd.env("GREEN_PLUGIN_PATH", dir);
    }
    cmd.output().expect("green runs")
}

fn score(env: Option<&Path>, extra: &[&str]) -> Output {
    let mut args = vec![
        "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-c", "hyp.txt", "-b", "0.5", "2", "-v",
    ];
    args.extend_from_slice(extra);
    green(env, &args)
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Exactly one line `green: error: ...` containing `needle`, exit code 1 (not a signal).
fn fails_with(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(
        err.starts_with("green: error: ") && err.contains(needle),
        "expected '{needle}' in: {err}"
    );
}

#[test]
fn c_plugin_by_name_scores_like_word() {
    let dir = scratch().join("path-c");
    std::fs::create_dir_all(&dir).unwrap();
    c_plugin(
        &workspace().join("plugins/c-whitespace/cws.c"),
        None,
        &dir,
        "green_cws",
    );
    let builtin = stdout(&score(None, &[]));
    assert_eq!(stdout(&score(Some(&dir), &["-t", "plugin:cws"])), builtin);
    let listing = stdout(&green(Some(&dir), &["plugins"]));
    assert!(
        listing.lines().any(|l| l
            .split_whitespace()
            .take(4)
            .eq(["cws", "1.0.0", "1", "yes"])),
        "{listing}"
    );
}

#[test]
fn regex_plugin_by_path_scores_like_word() {
    let builtin = stdout(&score(None, &[]));
    let path = rust_plugin("green_regex");
    let via = score(
        None,
        &[
            "-t",
            &format!("plugin:{}", path.display()),
            "--plugin-config",
            r"split:\s+",
        ],
    );
    assert_eq!(stdout(&via), builtin);
}

/// `regex` ships inside green: no build step, no search path.
#[test]
fn built_in_regex_plugin_needs_no_search_path() {
    let builtin = stdout(&score(None, &[]));
    let via = score(
        None,
        &["-t", "plugin:regex", "--plugin-config", r"split:\s+"],
    );
    assert_eq!(stdout(&via), builtin);
    let listing = stdout(&green(None, &["plugins"]));
    assert!(
        listing.lines().any(|l| l.split_whitespace().eq([
            "regex",
            env!("CARGO_PKG_VERSION"),
            "1",
            "yes",
            "(built",
            "in)"
        ])),
        "{listing}"
    );
}

#[test]
fn plugin_name_is_in_the_signature() {
    let path = rust_plugin("green_regex");
    let out = stdout(&green(
        None,
        &[
            "-s",
            "src.txt",
            "-r",
            "ref0.txt",
            "-c",
            "hyp.txt",
            "--format",
            "json",
            "-t",
            &format!("plugin:{}", path.display()),
        ],
    ));
    assert!(
        out.contains(&format!("tok:plugin:regex@{}", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
}

#[test]
fn broken_plugins_fail_cleanly() {
    let spec = |mode: &str| format!("plugin:{}", broken(mode).display());
    for (mode, needle) in [
        ("NO_ENTRY", "no symbol 'green_plugin_entry': not a green plugin"),
        ("BAD_ABI", "ABI version 99, but this green speaks ABI version 1"),
        ("OUT_OF_BOUNDS", "src.txt:1: tokenizer 'plugin:broken@0.0.1' failed: plugin 'broken' 0.0.1: token 1 spans bytes 17..21 but the input has 17 bytes"),
        ("SPLIT_UTF8", "plugin 'broken' 0.0.1: token 1 (bytes 0..1) splits a UTF-8 character"),
        ("BAD_UTF8", "plugin 'broken' 0.0.1: returned token text that is not valid UTF-8"),
        ("FAIL", "plugin 'broken' 0.0.1: tokenize failed: dictionary /nonexistent/dict.bin not found"),
    ] {
        let out = if mode == "SPLIT_UTF8" {
            // The third line starts with a two-byte character.
            green(None, &["-s", "src.txt", "-r", "ref0.txt", "-c", "hyp.txt", "-t", &spec(mode)])
        } else {
            score(None, &["-t", &spec(mode)])
        };
        fails_with(&out, needle);
    }
}

/// `green tokenize` splits a long file into chunks across threads, and tokenizes a repeated
/// line once; a failure far into the file still names its own line, the first failing one.
#[test]
fn tokenize_names_the_first_failing_line_of_a_long_file() {
    let path = scratch().join("long-with-two-bad-lines.txt");
    let mut text: String = (0..700)
        .map(|i| format!("plain ascii words {i}\n"))
        .collect();
    text.push_str("é starts line 701\n");
    text.extend((0..300).map(|i| format!("more words {}\n", i % 50)));
    text.push_str("é starts line 701\n");
    text.push_str("é starts line 1003\n");
    std::fs::write(&path, text).unwrap();
    let spec = format!("plugin:{}", broken("SPLIT_UTF8").display());
    let out = green(None, &["tokenize", "-t", &spec, path.to_str().unwrap()]);
    fails_with(
        &out,
        "long-with-two-bad-lines.txt:701: tokenizer 'plugin:broken@0.0.1' failed",
    );
    assert!(out.stdout.is_empty(), "no partial output");
}

/// A library that crashes while it is loaded used to end green with a bare signal, naming
/// nothing; a directory given as a plugin was "no such file".
#[test]
fn a_plugin_that_crashes_on_load_is_named() {
    let lib = broken("ABORT_ON_LOAD");
    fails_with(
        &score(None, &["-t", &format!("plugin:{}", lib.display())]),
        &format!(
            "plugin {} crashed while it was being loaded; it is not a working green plugin",
            lib.display()
        ),
    );
    let dir = scratch();
    fails_with(
        &score(None, &["-t", &format!("plugin:{}", dir.display())]),
        "is a directory; give the plugin's library file",
    );
}

#[test]
fn panicking_rust_plugin_fails_cleanly() {
    let spec = format!("plugin:{}", rust_plugin("green_panicky").display());
    fails_with(
        &score(None, &["-t", &spec, "--plugin-config", "panic"]),
        "configuration rejected: panicked at ",
    );
}

#[test]
fn unknown_plugin_and_stray_config() {
    fails_with(
        &score(Some(&scratch().join("empty")), &["-t", "plugin:klingon"]),
        "plugin 'klingon' not found in ",
    );
    fails_with(
        &score(None, &["--plugin-config", "x"]),
        "tokenizer 'word' is not a plugin",
    );
    fails_with(
        &score(None, &["-t", "plugin:cws", "--plugin-config", "x"]),
        "plugin 'cws' not found",
    );
}

#[test]
fn check_finds_a_plugin_that_wrongly_claims_thread_safety() {
    let racy = broken("RACY");
    let racy = racy.to_str().unwrap();
    fails_with(
        &green(None, &["plugins", "--check", racy]),
        "claims to be thread-safe but is not",
    );
    let serial = broken("SERIAL");
    let ok = green(None, &["plugins", "--check", serial.to_str().unwrap()]);
    let text = stdout(&ok);
    assert!(
        text.contains("same tokens on 400 lines alone and from")
            && text.contains("not flagged thread-safe, so green calls it under a lock"),
        "{text}"
    );
    let regex = rust_plugin("green_regex");
    let ok = green(None, &["plugins", "--check", regex.to_str().unwrap()]);
    assert!(stdout(&ok).contains("plugin:regex@"));
}
