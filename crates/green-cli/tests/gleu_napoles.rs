//! `green gleu --variant jfleg|gec-ranking` against outputs of Napoles' scripts (JFLEG's
//! `eval/gleu.py`, gec-ranking's `compute_gleu`) under Python 2.7, recorded by
//! `scripts/fuzz-jfleg-gleu.py` and committed: a hand-made corpus of edge cases (bytes that
//! are not UTF-8, whitespace that only Python 3 splits at, `\r` inside lines, empty lines,
//! one reference, short and empty files, every reading of `-n`) and the cases the fuzzer
//! found. Each directory of `fixtures/gleu-napoles` has `cases.txt` (`NAME ARGS...`), and
//! per case `expected/NAME.txt` (the original's standard output) or `expected/NAME.fails`
//! (the original fails, so must green, with one error line last); `stdin.txt` is standard
//! input.
//! The real-data test replays `fixtures/gleu-jfleg` on the JFLEG dev and test sets in
//! `$GREEN_SHARED/data/jfleg`: the scripts' outputs for the source and each reference as
//! hypotheses (against all four references, and each against the other three, the
//! leaderboard's REFERENCE row), one reference, `-n 2 --iter 100`, and sentence scores,
//! recorded with `scripts/fuzz-jfleg-gleu.py --record … --data …` (outputs only; the data
//! stays outside the repository).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gleu-napoles")
}

/// green gleu ARGS in `dir`, with `stdin.txt` (if any) on standard input.
fn green_gleu(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .arg("gleu")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = std::fs::read(dir.join("stdin.txt")).unwrap_or_default();
    // green may stop before it reads its input (an error): a closed pipe is no failure.
    let _ = child.stdin.take().unwrap().write_all(&input);
    child.wait_with_output().unwrap()
}

#[test]
fn recorded_cases_byte_for_byte() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    let mut ran = 0;
    for dir in dirs {
        let cases = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
        for line in cases.lines().filter(|l| !l.trim().is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (name, args) = (words[0], &words[1..]);
            let out = green_gleu(&dir, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let expected = dir.join("expected");
            if expected.join(format!("{name}.fails")).exists() {
                assert!(
                    !out.status.success(),
                    "{}: {name} should fail",
                    dir.display()
                );
                let errors = stderr.lines().filter(|l| l.starts_with("green: error: "));
                assert_eq!(errors.count(), 1, "{name}: {stderr}");
                assert!(
                    stderr.lines().last().unwrap().starts_with("green: error: "),
                    "{name}: {stderr}"
                );
            } else {
                assert!(out.status.success(), "{}: {name}: {stderr}", dir.display());
                let want = std::fs::read(expected.join(format!("{name}.txt"))).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&want),
                    "{}: {name}: {args:?}",
                    dir.display()
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran} cases");
}

#[test]
fn package_options_are_refused_with_one_line() {
    let dir = fixtures().join("edge");
    let base = [
        "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-o", "hyp0.txt",
    ];
    for (extra, says) in [
        (
            &["--variant", "jfleg", "-m"][..],
            "-m/--max is not an option of --variant jfleg",
        ),
        (&["--variant", "gec-ranking", "-d", "3"], "-d/--digit"),
        (
            &["--variant", "jfleg", "-t", "char"],
            "-t (the scripts split",
        ),
        (&["--variant", "jfleg", "--level", "mean"], "--level mean"),
        (&["--variant", "jfleg", "--iter", "0"], "--iter: '0'"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let out = green_gleu(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    // A reference file shorter than the source leaves later sentences fewer references;
    // the script fails as soon as a draw picks a missing one.
    let out = green_gleu(
        &dir,
        &[
            "-s",
            "src.txt",
            "-r",
            "short.txt",
            "ref0.txt",
            "-o",
            "hyp0.txt",
            "--variant",
            "jfleg",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("hyp0.txt: sentence 7 has 1 of the 2 references")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn jfleg_dev_and_test_byte_for_byte() {
    let data = green_test_data::shared().join("data/jfleg");
    for split in ["dev", "test"] {
        for file in ["src", "ref0", "ref1", "ref2", "ref3"] {
            let path = data.join(format!("{split}.{file}"));
            assert!(path.is_file(), "{} is missing", path.display());
        }
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gleu-jfleg");
    let cases = std::fs::read_to_string(golden.join("cases.txt")).unwrap();
    let mut ran = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, args) = (words[0], &words[1..]);
        let out = green_gleu(&data, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let want = std::fs::read(golden.join("expected").join(format!("{name}.txt"))).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&want),
            "{name}: {args:?}"
        );
        ran += 1;
    }
    assert_eq!(ran, 26);
}
