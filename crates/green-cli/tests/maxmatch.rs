//! `green maxmatch`: the m2scorer's output through the command line. Small cases here; the
//! real-data suite (ignored unless GREEN_SHARED is set) checks all 13 CoNLL-2014 systems and
//! NLPCC-2018 against the original's goldens byte for byte, every sentence included.

use std::path::PathBuf;

mod common;
use common::{green, stderr, stdout};

const GOLD: &str = "S he go to school\nA 1 2|||V|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||P|||.|||REQUIRED|||-NONE-|||1\n\nS fine\n";

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gold.m2"), GOLD).unwrap();
    std::fs::write(dir.path().join("a.txt"), "he goes to school\nfine\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "he go to school .\nfine .\n").unwrap();
    dir
}

#[test]
fn drop_in_output_and_verbose_table() {
    let dir = setup();
    let out = stdout(&green(dir.path(), &["maxmatch", "a.txt", "gold.m2"]));
    assert_eq!(
        out,
        "Precision   : 1.0000\nRecall      : 1.0000\nF_0.5       : 1.0000\n"
    );
    let out = stdout(&green(
        dir.path(),
        &["m2scorer", "-v", "--beta", "1", "b.txt", "gold.m2"],
    ));
    assert_eq!(
        out,
        "line\tannotator\tcorrect\tproposed\tgold\tsystem_edits\n\
         1\t1\t1\t1\t1\t[[4, 4, \"\", \".\"]]\n\
         2\t0\t0\t1\t0\t[[1, 1, \"\", \".\"]]\n\
         Precision   : 0.5000\nRecall      : 1.0000\nF_1.0       : 0.6667\n"
    );
}

#[test]
fn several_systems_and_json_with_a_signature() {
    let dir = setup();
    let out = stdout(&green(
        dir.path(),
        &["maxmatch", "a.txt", "b.txt", "gold.m2"],
    ));
    assert!(out.starts_with("# a.txt\nPrecision   : 1.0000\n"), "{out}");
    assert!(out.contains("# b.txt\nPrecision   : 0.5000\n"), "{out}");
    let out = stdout(&green(
        dir.path(),
        &[
            "maxmatch",
            "--format",
            "json",
            "-v",
            "--max_unchanged_words",
            "1",
            "b.txt",
            "gold.m2",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["signature"],
        format!(
            "m2|beta:0.5|max-unchanged:1|ws-case:keep|tok:m2scorer-split|v:{}",
            env!("CARGO_PKG_VERSION")
        )
    );
    let s = &v["systems"][0];
    assert_eq!(
        (
            s["correct"].as_u64(),
            s["proposed"].as_u64(),
            s["gold"].as_u64()
        ),
        (Some(1), Some(2), Some(1))
    );
    assert_eq!(s["sentences"][0]["annotator"], 1);
}

#[test]
fn a_tokenizer_for_raw_system_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gold.m2"),
        "S 他 去 学 校\nA 1 2|||S|||在|||REQUIRED|||-NONE-|||0\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("raw.txt"), "他在学校\n").unwrap();
    let out = stdout(&green(
        dir.path(),
        &[
            "maxmatch", "-t", "char", "--format", "json", "raw.txt", "gold.m2",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["systems"][0]["f"], 1.0);
    assert!(
        v["signature"].as_str().unwrap().contains("|tok:char|"),
        "{v}"
    );
    // Without the tokenizer the raw line is one token: a single wrong edit.
    let out = stdout(&green(dir.path(), &["maxmatch", "raw.txt", "gold.m2"]));
    assert!(out.starts_with("Precision   : 0.0000\n"), "{out}");
}

#[test]
fn bad_input_is_one_clear_error() {
    let dir = setup();
    let p = dir.path();
    std::fs::write(p.join("short.txt"), "he goes to school\n").unwrap();
    std::fs::write(p.join("crlf.m2"), GOLD.replace('\n', "\r\n")).unwrap();
    std::fs::write(p.join("latin1.txt"), b"he goes\nfin\xe9\n").unwrap();
    std::fs::write(p.join("junk.txt"), format!("{}\nfine\n", "x ".repeat(5000))).unwrap();
    for (args, needle) in [
        (
            vec!["maxmatch", "short.txt", "gold.m2"],
            "has 1 lines but the gold file has 2 sentences",
        ),
        (
            vec!["maxmatch", "a.txt", "crlf.m2"],
            "crlf.m2:4: '': the file has CR or CRLF line ends",
        ),
        (
            vec!["maxmatch", "latin1.txt", "gold.m2"],
            "latin1.txt:2: invalid UTF-8 at byte 4",
        ),
        (
            vec!["maxmatch", "a.txt", "missing.m2"],
            "cannot read missing.m2",
        ),
        (
            vec!["maxmatch", "--beta", "nan", "a.txt", "gold.m2"],
            "is not a beta",
        ),
        (
            vec!["maxmatch", "--alternatives", "all", "a.txt", "gold.m2"],
            "use first",
        ),
        (
            vec!["maxmatch", "junk.txt", "gold.m2"],
            "sentence 1 (gold line 1)",
        ),
    ] {
        let err = stderr(&green(p, &args));
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

fn shared() -> PathBuf {
    let shared = PathBuf::from(std::env::var_os("GREEN_SHARED").expect("GREEN_SHARED is not set"));
    assert!(
        shared.join("golden/m2").is_dir(),
        "{} has no golden/m2",
        shared.display()
    );
    shared
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn conll14_every_system_and_sentence_byte_for_byte() {
    let shared = shared();
    let data = shared.join("data/conll14");
    let golden = shared.join("golden/m2/conll14");
    let mut n = 0;
    for entry in std::fs::read_dir(data.join("systems")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let out = stdout(&green(
            &data,
            &[
                "maxmatch",
                "-v",
                path.to_str().unwrap(),
                "conll14st-test.m2",
            ],
        ));
        let expected = std::fs::read_to_string(golden.join(format!("{name}.sentences.tsv")))
            .unwrap()
            + &std::fs::read_to_string(golden.join(format!("{name}.txt"))).unwrap();
        assert!(out == expected, "{name} differs from the m2scorer's output");
        n += 1;
    }
    assert_eq!(n, 13);
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn nlpcc18_first_alternatives() {
    let shared = shared();
    let golden = shared.join("golden/m2/nlpcc18");
    let gold = shared.join("data/zh/nlpcc18/nlpcc2018_official.ref.m2.char");
    let out = stdout(&green(
        &golden,
        &["maxmatch", "system.txt", gold.to_str().unwrap()],
    ));
    assert_eq!(
        out,
        std::fs::read_to_string(golden.join("score.txt")).unwrap()
    );
}
