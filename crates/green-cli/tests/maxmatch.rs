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

/// The case: annotators A (one edit) and B (two) tie exactly at β = 1 on `x b y d`;
/// the m2scorer keeps the first in its Python 2.7 dict order, which is not the lowest id.
#[test]
fn tied_annotators_in_the_originals_dict_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hyp.txt"), "x b y d\n").unwrap();
    // (A's id, B's id, the original's choice, its precision and recall)
    for (a, b, chosen, p, r) in [
        (8, 0, 8, "0.5000", "1.0000"),
        (1000, 0, 1000, "0.5000", "1.0000"),
        (-1, 0, 0, "1.0000", "0.5000"),
        (0, 1, 0, "0.5000", "1.0000"),
    ] {
        let gold = format!(
            "S a b c d\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||{a}\n\
             A 0 3|||R|||x b y|||REQUIRED|||-NONE-|||{b}\nA 3 4|||R|||z|||REQUIRED|||-NONE-|||{b}\n"
        );
        std::fs::write(dir.path().join("gold.m2"), gold).unwrap();
        let out = stdout(&green(
            dir.path(),
            &["maxmatch", "-v", "--beta", "1", "hyp.txt", "gold.m2"],
        ));
        let row = out.lines().nth(1).unwrap();
        assert!(row.starts_with(&format!("1\t{chosen}\t")), "{a} {b}: {out}");
        assert!(
            out.contains(&format!("Precision   : {p}\nRecall      : {r}\n")),
            "{a} {b}: {out}"
        );
    }
}

/// The original's Python 2.7 lower-cases with Unicode 5.2: Georgian Mtavruli (Unicode 11)
/// has no lower case there, so `Ა` → `ა` is a real edit, not one of casing only.
#[test]
fn ignore_whitespace_casing_with_python_2_7s_letter_case() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gold.m2"), "S \u{1c90} y\n").unwrap();
    std::fs::write(dir.path().join("hyp.txt"), "\u{10d0} y\n").unwrap();
    let args = |hyp| ["maxmatch", "--ignore_whitespace_casing", hyp, "gold.m2"];
    let out = stdout(&green(dir.path(), &args("hyp.txt")));
    assert!(out.starts_with("Precision   : 0.0000\n"), "{out}");
    std::fs::write(dir.path().join("gold.m2"), "S \u{10a0} y\n").unwrap();
    std::fs::write(dir.path().join("hyp.txt"), "\u{2d00} y\n").unwrap();
    let out = stdout(&green(dir.path(), &args("hyp.txt")));
    assert!(out.starts_with("Precision   : 1.0000\n"), "{out}");
}

/// Command lines as the original's `getopt` reads them: unique prefixes of long options,
/// `--very_verbose` (here `-v`), the last of a repeated option.
#[test]
fn the_originals_command_lines() {
    let dir = setup();
    let p = dir.path();
    let run = |args: &[&str]| {
        let mut all = vec!["maxmatch"];
        all.extend_from_slice(args);
        all.extend(["b.txt", "gold.m2"]);
        stdout(&green(p, &all))
    };
    let expected = run(&["-v", "--beta", "1", "--max_unchanged_words", "0"]);
    for args in [
        &["--very_verbose", "--be", "1", "--max", "0"][..],
        &["--very", "--b=1", "--m=0"],
        &["--verb", "--bet", "1", "--max_unch", "0"],
        &[
            "-vv",
            "--beta",
            "2",
            "--beta",
            "1",
            "--max_unchanged_words",
            "0",
        ],
    ] {
        assert_eq!(run(args), expected, "{args:?}");
    }
    assert_eq!(
        run(&["--ign"]),
        run(&["--ignore_whitespace_casing"]),
        "--ign"
    );
    // Ambiguous in the original too (--verbose or --very_verbose).
    for prefix in ["--v", "--ver"] {
        let err = stderr(&green(p, &["maxmatch", prefix, "b.txt", "gold.m2"]));
        assert!(err.contains(&format!("'{prefix}'")), "{err}");
    }
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
    green_test_data::shared_file("golden/m2");
    green_test_data::shared()
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
