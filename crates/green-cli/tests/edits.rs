//! `green errant-compare` and `green cleme` through the command line: the originals'
//! single-dash options, several files, JSON, and bad input as one clear error line. The
//! numbers themselves are checked in green-edits (recorded cases, Table 10 of the CLEME paper).

mod common;
use common::{green, stderr, stdout};

const REF: &str = "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\nA 1 2|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||1\n\nS fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||1\n";
const HYP: &str = "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\nS fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n";

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ref.m2"), REF).unwrap();
    std::fs::write(dir.path().join("hyp.m2"), HYP).unwrap();
    dir
}

#[test]
fn errant_compare_is_a_drop_in() {
    let dir = setup();
    let out = stdout(&green(
        dir.path(),
        &[
            "errant_compare",
            "-hyp",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "-cat",
            "2",
        ],
    ));
    assert_eq!(
        out,
        "\n===================== Span-Based Correction ======================\n\
         Category       TP       FP       FN       P        R        F0.5\n\
         PUNCT          0        0        1        1.0      0.0      0.0\n\
         VERB:SVA       1        0        0        1.0      1.0      1.0\n\
         \n=========== Span-Based Correction ============\n\
         TP\tFP\tFN\tPrec\tRec\tF0.5\n1\t0\t1\t1.0\t0.5\t0.8333\n\
         ==============================================\n\n"
    );
    let json = stdout(&green(
        dir.path(),
        &[
            "errant-compare",
            "-hyp",
            "hyp.m2",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "-ds",
            "-v",
            "--format",
            "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .starts_with("errant|mode:ds|beta:0.5"));
    assert_eq!(v["systems"].as_array().unwrap().len(), 2);
    assert_eq!(v["systems"][0]["score"]["tp"], 1);
    assert_eq!(v["systems"][0]["sentences"][0]["pair"]["ref"], 0);
    assert_eq!(v["systems"][0]["sentences"][1]["sentence"], 2);
}

#[test]
fn cleme_table_and_json() {
    let dir = setup();
    let out = stdout(&green(
        dir.path(),
        &["cleme", "-hyp", "hyp.m2", "-ref", "ref.m2"],
    ));
    assert!(
        out.starts_with("# hyp.m2: 2 sentences, mean reference chunk length 1.00\n"),
        "{out}"
    );
    assert!(out.contains("\nCLEME-dependent-unweighted              1.00      0.00      1.00         3  1.0000  0.5000  0.8333\n"), "{out}");
    let json = stdout(&green(
        dir.path(),
        &[
            "cleme", "--hyp", "hyp.m2", "--ref", "ref.m2", "--format", "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["systems"][0]["report"]["independent"]["corpus_unweighted"]["tp"],
        1.0
    );
    let tsv = stdout(&green(
        dir.path(),
        &[
            "cleme", "-hyp", "hyp.m2", "-ref", "ref.m2", "--format", "tsv",
        ],
    ));
    assert_eq!(tsv.lines().count(), 9);
}

#[test]
fn bad_input_is_one_clear_line() {
    let dir = setup();
    std::fs::write(dir.path().join("short.m2"), "S he go to school\n").unwrap();
    let err = stderr(&green(
        dir.path(),
        &["errant-compare", "-hyp", "short.m2", "-ref", "ref.m2"],
    ));
    assert!(
        err.contains("short.m2 has 1 sentences but ref.m2 has 2"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::write(
        dir.path().join("bad.m2"),
        HYP.replace("A 1 2|||", "A 1 x|||"),
    )
    .unwrap();
    let err = stderr(&green(
        dir.path(),
        &["cleme", "-hyp", "bad.m2", "-ref", "ref.m2"],
    ));
    assert!(
        err.contains("bad.m2:2: span end \"x\" is not an integer"),
        "{err}"
    );
    let err = stderr(&green(
        dir.path(),
        &["errant-compare", "-hyp", "hyp.m2", "-ref", "missing.m2"],
    ));
    assert!(err.contains("cannot read missing.m2"), "{err}");
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-compare",
            "-hyp",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "-ds",
            "-dt",
        ],
    ));
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn errant_parallel_writes_m2_and_refuses_what_needs_a_tagger() {
    let dir = setup();
    std::fs::write(dir.path().join("src.txt"), "he go to school\nfine\n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "he goes to school .\nfine\n").unwrap();
    let o = green(
        dir.path(),
        &[
            "errant_parallel",
            "-orig",
            "src.txt",
            "-cor",
            "a.txt",
            "-out",
            "out.m2",
            "-lev",
            "-merge",
            "all-split",
        ],
    );
    stdout(&o);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.m2")).unwrap(),
        "S he go to school\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||M|||.|||REQUIRED|||-NONE-|||0\n\n\
         S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    );
    // Its output scores directly.
    let out = stdout(&green(
        dir.path(),
        &["errant-compare", "-hyp", "out.m2", "-ref", "out.m2"],
    ));
    assert!(out.contains("\n2\t0\t0\t1.0\t1.0\t1.0\n"), "{out}");
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "src.txt",
            "-cor",
            "a.txt",
            "-out",
            "-",
            "-merge",
            "all-split",
        ],
    ));
    assert!(err.contains("pass -lev"), "{err}");
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "src.txt",
            "-cor",
            "a.txt",
            "-out",
            "-",
            "-lev",
        ],
    ));
    assert!(
        err.contains("-merge all-split, all-merge or all-equal"),
        "{err}"
    );
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "src.txt",
            "-cor",
            "a.txt",
            "-out",
            "-",
            "-lev",
            "-merge",
            "rules",
        ],
    ));
    assert!(err.contains("needs a tagger"), "{err}");
    std::fs::write(dir.path().join("short.txt"), "he goes\n").unwrap();
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "src.txt",
            "-cor",
            "short.txt",
            "-out",
            "-",
            "-lev",
            "-merge",
            "all-merge",
        ],
    ));
    assert!(
        err.contains("short.txt has 1 lines but src.txt has 2"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn errant_parallel_reads_para_files_and_raw_chinese() {
    let dir = setup();
    std::fs::write(
        dir.path().join("dev.para"),
        "1\t因为在冰箱里\t即使在冰箱里\t没有错误\n",
    )
    .unwrap();
    let out = stdout(&green(
        dir.path(),
        &[
            "errant-parallel",
            "--para",
            "dev.para",
            "-t",
            "zh:char",
            "-out",
            "-",
            "-lev",
            "-merge",
            "all-merge",
        ],
    ));
    assert_eq!(
        out,
        "S 因 为 在 冰 箱 里\nA 0 2|||R|||即 使|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
    );
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-out",
            "-",
            "-lev",
            "-merge",
            "all-merge",
        ],
    ));
    assert!(err.contains("--orig <ORIG>"), "{err}");
}

#[test]
fn cleme2_rows_pairs_and_similarities() {
    let dir = setup();
    let run = |extra: &[&str]| {
        let mut args = vec!["cleme2", "-hyp", "hyp.m2", "-ref", "ref.m2"];
        args.extend_from_slice(extra);
        green(dir.path(), &args)
    };
    let json = stdout(&run(&["--weigher", "none", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["signature"]
        .as_str()
        .unwrap()
        .starts_with("cleme2|merge-distance:0|"));
    // Sentence 1: "goes" is right against reference 0 (TP); sentence 2 misses the full stop.
    let d = &v["systems"][0]["report"]["dependent"]["corpus"];
    assert_eq!((d["tp"].as_f64(), d["fn"].as_f64()), (Some(1.0), Some(1.0)));
    // --pairs lists what the similarity weigher scores; --similarities reads one score each.
    assert!(run(&["--pairs", "pairs.tsv"]).status.success());
    let pairs = std::fs::read_to_string(dir.path().join("pairs.tsv")).unwrap();
    let n = pairs.lines().count();
    assert!(pairs.starts_with("hyp.m2\tdependent\t1\t1\the go to school\the goes to school\n"));
    let scores: String = (0..n).map(|i| format!("0.{i}\n")).collect();
    std::fs::write(dir.path().join("sim.txt"), &scores).unwrap();
    let ok = run(&["--weigher", "similarity", "--similarities", "sim.txt"]);
    assert!(stdout(&ok).contains("weights similarity"));
    std::fs::write(dir.path().join("short.txt"), "0.5\n").unwrap();
    let err = stderr(&run(&[
        "--weigher",
        "similarity",
        "--similarities",
        "short.txt",
    ]));
    assert!(
        err.contains(&format!("has 1 similarities but the files have {n} pairs")),
        "{err}"
    );
    std::fs::write(dir.path().join("bad.txt"), "x\n").unwrap();
    let err = stderr(&run(&[
        "--weigher",
        "similarity",
        "--similarities",
        "bad.txt",
    ]));
    assert!(err.contains("bad.txt:1: 'x' is not a number"), "{err}");
    let err = stderr(&run(&["--corpus-factors", "0.5,0.5,0.5,0"]));
    assert!(err.contains("must sum to 1"), "{err}");
}

#[test]
fn gotoscorer_and_its_weight_file() {
    let dir = setup();
    let out = stdout(&green(
        dir.path(),
        &["gotoscorer", "-hyp", "hyp.m2", "-ref", "ref.m2"],
    ));
    assert!(
        out.contains("# gotoscorer|beta:0.5|ref:0|weights:none|"),
        "{out}"
    );
    assert!(green(
        dir.path(),
        &[
            "gotoscorer-weights",
            "-ref",
            "ref.m2",
            "-hyp",
            "hyp.m2",
            "-out",
            "w.json"
        ],
    )
    .status
    .success());
    let w: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("w.json")).unwrap()).unwrap();
    // Sentence 1 "he go to school" → 9 chunks; the system writes "goes": weight 0 there.
    assert_eq!(w[0]["weights"].as_array().unwrap().len(), 9);
    assert_eq!(w[0]["weights"][3], 0.0);
    let json = stdout(&green(
        dir.path(),
        &[
            "gotoscorer",
            "-hyp",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "--weights",
            "w.json",
            "--format",
            "json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["systems"][0]["sentence_f"].as_array().unwrap().len(), 2);
    let err = stderr(&green(
        dir.path(),
        &[
            "gotoscorer",
            "-hyp",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "--ref-id",
            "5",
        ],
    ));
    assert!(
        err.contains("GoToScorer reads reference 5, this sentence has 2"),
        "{err}"
    );
    std::fs::write(dir.path().join("bad.json"), "{}").unwrap();
    let err = stderr(&green(
        dir.path(),
        &[
            "gotoscorer",
            "-hyp",
            "hyp.m2",
            "-ref",
            "ref.m2",
            "--weights",
            "bad.json",
        ],
    ));
    assert!(err.contains("is not a GoToScorer weight file"), "{err}");
}

#[test]
fn errant_parallel_types_edits_from_conllu_annotations() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../green-edits/tests/fixtures/errant-typed-small");
    let dir = setup();
    for f in [
        "orig.txt",
        "cor.txt",
        "cor2.txt",
        "orig.conllu",
        "cor.conllu",
        "cor2.conllu",
    ] {
        std::fs::copy(fixtures.join(f), dir.path().join(f)).unwrap();
    }
    let typed = |extra: &[&str]| {
        let mut args = vec![
            "errant_parallel",
            "-orig",
            "orig.txt",
            "-cor",
            "cor.txt",
            "cor2.txt",
            "--annotations",
            "orig.conllu",
            "cor.conllu",
            "cor2.conllu",
            "-out",
            "-",
        ];
        args.extend(extra);
        green(dir.path(), &args)
    };
    // ERRANT's own M2 from the same annotations, for the default merger and another.
    let want = |name: &str| std::fs::read_to_string(fixtures.join(name)).unwrap();
    assert_eq!(stdout(&typed(&[])), want("rules.m2"));
    assert_eq!(
        stdout(&typed(&["-merge", "all-equal"])),
        want("all-equal.m2")
    );
    // MultiGEC-2025's UD-map classifier on UD tags.
    for f in ["orig", "cor", "cor2"] {
        std::fs::copy(
            fixtures.join(format!("ud/{f}.conllu")),
            dir.path().join(format!("ud-{f}.conllu")),
        )
        .unwrap();
    }
    let out = stdout(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "orig.txt",
            "-cor",
            "cor.txt",
            "cor2.txt",
            "--annotations",
            "ud-orig.conllu",
            "ud-cor.conllu",
            "ud-cor2.conllu",
            "--classifier",
            "ud",
            "-out",
            "-",
        ],
    ));
    assert_eq!(out, want("ud/rules.m2"));
    // The typed M2 scores per type.
    std::fs::write(dir.path().join("rules.m2"), want("rules.m2")).unwrap();
    let out = stdout(&green(
        dir.path(),
        &[
            "errant-compare",
            "-hyp",
            "rules.m2",
            "-ref",
            "rules.m2",
            "-cat",
            "3",
        ],
    ));
    assert!(
        out.contains("\nR:VERB:SVA     3        0        0"),
        "{out}"
    );
    // A CoNLL-U that is not the file's text, one file short, a tag ERRANT's map lacks.
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "orig.txt",
            "-cor",
            "cor.txt",
            "--annotations",
            "orig.conllu",
            "cor2.conllu",
            "-out",
            "-",
        ],
    ));
    assert!(
        err.starts_with("green: error: cor.txt:1: the tokens 'He goes to school every day .' are not the words of cor2.conllu at line 2 ('He goes to the school every day .')"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "orig.txt",
            "-cor",
            "cor.txt",
            "--annotations",
            "orig.conllu",
            "-out",
            "-",
        ],
    ));
    assert!(err.contains("1 CoNLL-U files for 2 text files"), "{err}");
    std::fs::write(
        dir.path().join("ud.conllu"),
        want("cor.conllu").replace("\tVBZ\t", "\tVERB\t"),
    )
    .unwrap();
    let err = stderr(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "orig.txt",
            "-cor",
            "cor.txt",
            "--annotations",
            "orig.conllu",
            "ud.conllu",
            "-out",
            "-",
        ],
    ));
    assert!(
        err.contains("green: error: orig.txt:1: 'goes' has the XPOS tag 'VERB'"),
        "{err}"
    );
}
