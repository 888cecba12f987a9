//! `green tokenize`: one output line per input line, tokens visible, clear errors, and what
//! `-t ja` says while it builds its dictionary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn tokenize(args: &[&str], stdin: &str) -> (String, String, bool) {
    tokenize_with(args, stdin, &[])
}

/// `tokenize` with these environment variables (and no GREEN_JA_DICT of the caller's).
fn tokenize_with(args: &[&str], stdin: &str, env: &[(&str, &Path)]) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_green"))
        .arg("tokenize")
        .args(args)
        .env_remove("GREEN_JA_DICT")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A process that fails before reading its input closes the pipe: that is fine here.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn one_output_line_per_input_line() {
    let (out, _, ok) = tokenize(
        &["-t", "zh", "--sep", " | "],
        "我们去北京大学。\r\n\n我爱北京\n",
    );
    assert!(ok);
    assert_eq!(out, "我们 | 去 | 北京大学 | 。\n\n我 | 爱 | 北京\n");
    let (out, _, _) = tokenize(&["-t", "en", "-"], "He doesn't go, OK?");
    assert_eq!(out, "He doesn't go , OK ?\n");
}

/// A costly tokenizer sees each distinct line once; every line still gets its own output
/// line, in order, across the parallel chunks.
#[test]
fn repeated_lines_keep_their_places() {
    let input: String = (0..1500)
        .map(|i| format!("Line {}, again.\n", i * 7 % 700))
        .collect();
    let expected: String = (0..1500)
        .map(|i| format!("Line {} , again .\n", i * 7 % 700))
        .collect();
    let (out, err, ok) = tokenize(&["-t", "en"], &input);
    assert!(ok, "{err}");
    assert_eq!(out, expected);
}

#[test]
fn normalisation_and_name() {
    let (out, err, ok) = tokenize(&["-t", "zh:char", "--norm", "nfkc", "--name"], "ＡＢ 我");
    assert!(ok);
    assert_eq!(out, "A B 我\n");
    assert_eq!(err, "char-nospace (normalisation: nfkc)\n");
}

#[test]
fn whitespace_tokens_are_visible() {
    let (out, _, _) = tokenize(&["-t", "char"], "a b");
    assert_eq!(out, "a ␣ b\n");
}

#[test]
fn errors_are_one_line() {
    let (_, err, ok) = tokenize(&["-t", "klingon"], "x");
    assert!(!ok);
    assert!(
        err.starts_with("green: error: unknown tokenizer 'klingon'; known: word"),
        "{err}"
    );
    let (_, err, ok) = tokenize(&["-t", "ja", "--ja-dict", "/nonexistent/dict"], "x");
    assert!(!ok);
    assert!(
        err.starts_with("green: error: /nonexistent/dict is neither a compiled lindera dictionary"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

/// The tiny MeCab dictionary of green-ja's tests.
const TINYDIC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../langs/ja/tests/fixtures/tinydic"
);

#[test]
fn a_japanese_dictionary_build_is_announced_once() {
    let cache = tempfile::tempdir().unwrap();
    let env = [("XDG_CACHE_HOME", cache.path())];
    let args = ["-t", "ja", "--ja-dict", TINYDIC];
    let (out, err, ok) = tokenize_with(&args, "私は学生です。", &env);
    assert!(ok, "{err}");
    assert_eq!(out, "私 は 学生 です 。\n");
    // One line and no spinner: standard error is not a terminal here.
    let into = format!("{}/green/ja-tinydic-lindera", cache.path().display());
    assert!(
        err.starts_with(&format!(
            "green: building the Japanese dictionary from {TINYDIC} into {into}"
        )) && err.ends_with(" (once, a few seconds)\n")
            && err.lines().count() == 1,
        "{err:?}"
    );
    let (out, err, ok) = tokenize_with(&args, "私は学生です。", &env);
    assert!(ok && err.is_empty(), "{err}");
    assert_eq!(out, "私 は 学生 です 。\n");

    // A damaged entry is named before it is built again.
    let entry = std::fs::read_dir(cache.path().join("green"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    std::fs::remove_file(entry.join("unk.bin")).unwrap();
    let (out, err, ok) = tokenize_with(&args, "私は学生です。", &env);
    assert!(ok, "{err}");
    assert_eq!(out, "私 は 学生 です 。\n");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(
        lines[0],
        format!(
            "green: warning: the Japanese dictionary cached at {} is damaged (its files do \
             not match its manifest); building it again",
            entry.display()
        )
    );
    assert!(lines[1].starts_with("green: building the Japanese dictionary"));
}

#[test]
fn an_unwritable_japanese_cache_falls_back_to_a_temporary_build() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let (cache, tmp) = (file.join("cache"), dir.path().join("tmp"));
    std::fs::create_dir(&tmp).unwrap();
    let args = ["-t", "ja", "--ja-dict", TINYDIC];
    let env = [
        ("XDG_CACHE_HOME", cache.as_path()),
        ("TMPDIR", tmp.as_path()),
    ];
    let (out, err, ok) = tokenize_with(&args, "私は学生です。", &env);
    assert!(ok, "{err}");
    assert_eq!(out, "私 は 学生 です 。\n");
    assert!(
        err.starts_with(&format!(
            "green: warning: cannot create the cache directory {}/green: ",
            cache.display()
        )),
        "{err}"
    );
    for part in [
        "for this run only",
        "set XDG_CACHE_HOME to a writable directory",
        "--ja-dict DIR or GREEN_JA_DICT=DIR",
    ] {
        assert!(err.contains(part), "missing {part:?} in: {err}");
    }
    assert_eq!(err.lines().count(), 1);
    // The temporary build is gone.
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);

    // Nowhere to write at all: one error line that says what to do.
    let env = [
        ("XDG_CACHE_HOME", cache.as_path()),
        ("TMPDIR", file.as_path()),
    ];
    let (_, err, ok) = tokenize_with(&args, "私は学生です。", &env);
    assert!(!ok);
    assert!(
        err.starts_with("green: error: cannot build the Japanese dictionary from"),
        "{err}"
    );
    assert!(
        err.contains("set XDG_CACHE_HOME to a writable directory"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}
