//! `green m2`: M2 files to line files, end to end.

use std::path::Path;
use std::process::{Command, Output};

const M2: &str =
    "S a b c d\nA 1 2|||R|||x|||REQUIRED|||-NONE-|||0\nA 3 3|||M|||e|||REQUIRED|||-NONE-|||1\n\n\
                  S f g\nA 0 1|||R|||h|||REQUIRED|||-NONE-|||0\n";

fn green(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn writes_source_and_one_reference_per_annotator() {
    let dir = tempfile::tempdir().unwrap();
    let m2 = dir.path().join("t.m2");
    std::fs::write(&m2, M2).unwrap();
    let out = dir.path().join("out");
    let o = green(&[
        "m2",
        m2.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&out.join("source.txt")), "a b c d\nf g\n");
    assert_eq!(read(&out.join("ref0.txt")), "a x c d\nh g\n");
    // Annotator 1 has no line on sentence 2: by default (skip, as the m2scorer) it is no
    // reference there, so the sentence's one reference repeats in ref1.txt.
    assert_eq!(read(&out.join("ref1.txt")), "a b c e d\nh g\n");
    assert!(String::from_utf8_lossy(&o.stderr).starts_with(
        "green m2: 2 sentences, 2 reference(s) (1 sentences have fewer; their missing references repeat their first): wrote "
    ));

    // With --missing-annotator source the missing annotator's reference is the source (the
    // official CoNLL-14 ref1.txt convention).
    let prefix = format!("{}/p.", dir.path().display());
    let o = green(&[
        "m2",
        m2.to_str().unwrap(),
        "-o",
        &prefix,
        "--no-source",
        "--missing-annotator",
        "source",
    ]);
    assert!(o.status.success());
    assert_eq!(read(&dir.path().join("p.ref1.txt")), "a b c e d\nf g\n");
    assert!(!dir.path().join("p.source.txt").exists());
}

#[test]
fn malformed_m2_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let m2 = dir.path().join("bad.m2");
    std::fs::write(&m2, "S a b\nA 0 9|||R|||x|||REQUIRED|||-NONE-|||0\n").unwrap();
    let o = green(&[
        "m2",
        m2.to_str().unwrap(),
        "--out-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(
        err,
        format!("green: error: {}:2: edit span 0 9 does not fit the source's 2 tokens; offsets must satisfy 0 <= start <= end <= 2\n", m2.display())
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn conll14_m2_gives_the_official_references() {
    let conll = green_test_data::shared().join("data/conll14");
    assert!(
        conll.join("conll14st-test.m2").is_file(),
        "{} is missing",
        conll.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let bin = std::env::var("GREEN_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_green").to_owned());
    let o = Command::new(bin)
        .args([
            "m2",
            conll.join("conll14st-test.m2").to_str().unwrap(),
            "--out-dir",
            dir.path().to_str().unwrap(),
            "--missing-annotator",
            "source",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["source.txt", "ref0.txt", "ref1.txt"] {
        assert!(
            read(&dir.path().join(f)) == read(&conll.join(f)),
            "{f} differs"
        );
    }
}

#[test]
fn maege_prints_the_table_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let m2 = dir.path().join("t.m2");
    std::fs::write(&m2, M2).unwrap();
    let args = [
        "maege",
        m2.to_str().unwrap(),
        "-n",
        "2",
        "-b",
        "1,2",
        "--gleu",
        "--seed",
        "5",
        "-f",
        "tsv",
    ];
    let a = green(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let out = String::from_utf8(a.stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("GREEN word N=2 β=1 corpus\t"));
    assert_eq!(green(&args).stdout, a.stdout);
    let bad = green(&["maege", m2.to_str().unwrap(), "--refs", "some"]);
    assert_eq!(
        String::from_utf8(bad.stderr).unwrap(),
        "green: error: unknown --refs 'some'; use all, own or held-out\n"
    );
    // The paper's protocol: held-out references by default (sentence 1: each annotator
    // against the other; sentence 2 has one annotator, so no unit); --held-out files supply
    // them for every sentence.
    let paper = green(&["maege", m2.to_str().unwrap(), "--protocol", "paper"]);
    assert!(
        paper.status.success(),
        "{}",
        String::from_utf8_lossy(&paper.stderr)
    );
    let text = String::from_utf8_lossy(&paper.stdout);
    assert!(
        text.contains("2 annotations with edits") && text.contains("protocol paper"),
        "{text}"
    );
    let refs = dir.path().join("refs.txt");
    std::fs::write(&refs, "a x c d\nh g\n").unwrap();
    let paper = green(&[
        "maege",
        m2.to_str().unwrap(),
        "--protocol",
        "paper",
        "--held-out",
        refs.to_str().unwrap(),
        "-f",
        "tsv",
    ]);
    assert!(
        paper.status.success(),
        "{}",
        String::from_utf8_lossy(&paper.stderr)
    );
    let mismatch = green(&[
        "maege",
        m2.to_str().unwrap(),
        "--held-out",
        refs.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&mismatch.stderr).contains("--refs held-out"));
}
