//! `green paired`: the scores it tests are the scores `green` prints, identical systems are
//! never significantly different, results do not depend on the thread count, and bad
//! arguments give one error line.

use std::path::PathBuf;
use std::process::{Command, Output};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/data")
}

fn paired(args: &[&str], threads: &str) -> Output {
    let d = examples();
    let s = d.join("source.txt");
    let r0 = d.join("ref0.txt");
    let r1 = d.join("ref1.txt");
    Command::new(env!("CARGO_BIN_EXE_green"))
        .args([
            "paired",
            "-s",
            s.to_str().unwrap(),
            "-r",
            r0.to_str().unwrap(),
            r1.to_str().unwrap(),
        ])
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The field under header `name` in line `row` of the table.
fn field(text: &str, row: usize, name: &str) -> String {
    let header: Vec<&str> = text.lines().next().unwrap().split('\t').collect();
    let col = header.iter().position(|h| *h == name).unwrap();
    text.lines()
        .nth(row)
        .unwrap()
        .split('\t')
        .nth(col)
        .unwrap()
        .to_string()
}

#[test]
fn tests_the_scores_green_prints() {
    let d = examples();
    let (sys, src) = (d.join("system.txt"), d.join("source.txt"));
    let (sys, src) = (sys.to_str().unwrap(), src.to_str().unwrap());
    let out = stdout(&paired(&["-c", src, sys, "-b", "2", "--reps", "300"], "2"));
    // README quick start: system.txt scores 74.98 at beta 2.
    assert_eq!(field(&out, 2, "GREEN"), "74.98", "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("# green|n:4|beta:2|tok:word|"),
        "{out}"
    );
    assert!(
        out.contains("|test:paired-bootstrap|reps:300|seed:0|rng:xoshiro256**-splitmix64"),
        "{out}"
    );
}

#[test]
fn identical_systems_have_p_one_under_every_test() {
    let sys = examples().join("system.txt");
    let sys = sys.to_str().unwrap();
    for test in ["bs", "ar", "exact"] {
        let out = stdout(&paired(
            &["-c", sys, sys, "--test", test, "--reps", "99"],
            "2",
        ));
        assert_eq!(field(&out, 2, "delta"), "+0.00", "{test}: {out}");
        assert_eq!(field(&out, 2, "p"), "1.0000", "{test}: {out}");
    }
}

#[test]
fn swapping_baseline_and_system_flips_the_delta_not_the_p() {
    let d = examples();
    let (sys, src) = (d.join("system.txt"), d.join("source.txt"));
    let (sys, src) = (sys.to_str().unwrap(), src.to_str().unwrap());
    let a = stdout(&paired(&["-c", src, sys, "--test", "exact"], "2"));
    let b = stdout(&paired(&["-c", sys, src, "--test", "exact"], "2"));
    let (da, db) = (field(&a, 2, "delta"), field(&b, 2, "delta"));
    assert_eq!(
        da.trim_start_matches('+'),
        db.trim_start_matches('-'),
        "{a}{b}"
    );
    assert_eq!(field(&a, 2, "p"), field(&b, 2, "p"));
    // 5 sentences: the exact test enumerates 32 swaps, so p is a multiple of 1/32.
    let p: f64 = field(&a, 2, "p").parse().unwrap();
    assert_eq!((p * 32.0).fract(), 0.0, "{p}");
}

#[test]
fn same_output_at_any_thread_count() {
    let d = examples();
    let (sys, src) = (d.join("system.txt"), d.join("source.txt"));
    let (sys, src) = (sys.to_str().unwrap(), src.to_str().unwrap());
    for test in ["bs", "ar"] {
        let args = [
            "-c", src, sys, "--test", test, "--reps", "500", "--seed", "7", "--format", "json",
        ];
        assert_eq!(
            stdout(&paired(&args, "1")),
            stdout(&paired(&args, "3")),
            "{test}"
        );
    }
}

#[test]
fn bad_arguments_give_one_error_line() {
    let sys = examples().join("system.txt");
    let sys = sys.to_str().unwrap();
    for args in [
        vec!["-c", sys, sys, "--reps", "0"],
        vec!["-c", sys, sys, "--confidence", "1.5"],
        vec!["-c", sys, "/nonexistent/system.txt"],
    ] {
        let o = paired(&args, "2");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("green: error: "), "{err}");
    }
}
