//! `green tokenize`: one output line per input line, tokens visible, clear errors.

use std::io::Write;
use std::process::{Command, Stdio};

fn tokenize(args: &[&str], stdin: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_green"))
        .arg("tokenize")
        .args(args)
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
