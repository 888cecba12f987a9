//! Scoring with references given as M2 or para files: same numbers as the equivalent line
//! files, sentences with fewer references scored against the ones they have, clear errors.

use std::path::Path;
use std::process::{Command, Output};

fn green(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

const M2: &str = "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\nA 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1\n\n\
S I like cat .\nA 2 3|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||0\n\n\
S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n";

#[test]
fn missing_annotators_are_skipped_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("gold.m2"), M2).unwrap();
    std::fs::write(
        p.join("src.txt"),
        "He go to school .\nI like cat .\nIt is fine .\n",
    )
    .unwrap();
    // Sentence 2 left unchanged: annotator 1 (no line there) would call that perfect under
    // `source`, but under `skip` only annotator 0 ("cats") is a reference.
    std::fs::write(
        p.join("hyp.txt"),
        "He goes to school .\nI like cat .\nIt is fine .\n",
    )
    .unwrap();
    std::fs::write(
        p.join("ref0.txt"),
        "He goes to school .\nI like cats .\nIt is fine .\n",
    )
    .unwrap();
    std::fs::write(
        p.join("ref1s.txt"),
        "He went to school .\nI like cat .\nIt is fine .\n",
    )
    .unwrap();
    std::fs::write(
        p.join("ref1k.txt"),
        "He went to school .\nI like cats .\nIt is fine .\n",
    )
    .unwrap();
    let lines = |r1: &str| {
        ok(&green(
            p,
            &[
                "-s", "src.txt", "-r", "ref0.txt", r1, "-c", "hyp.txt", "-d", "6",
            ],
        ))
    };
    let m2 = |rule: &[&str]| {
        let mut args = vec!["-r", "gold.m2", "-c", "hyp.txt", "-d", "6"];
        args.extend(rule);
        ok(&green(p, &args))
    };
    assert_eq!(m2(&[]), lines("ref1k.txt"));
    assert_eq!(m2(&["--missing-annotator", "skip"]), lines("ref1k.txt"));
    assert_eq!(m2(&["--missing-annotator", "source"]), lines("ref1s.txt"));
    assert_ne!(lines("ref1k.txt"), lines("ref1s.txt"));
    let json = ok(&green(
        p,
        &["-r", "gold.m2", "-c", "hyp.txt", "--format", "json"],
    ));
    assert!(json.contains("|m2:skip|"), "{json}");
    let plain = ok(&green(
        p,
        &[
            "-s", "src.txt", "-r", "ref0.txt", "-c", "hyp.txt", "--format", "json",
        ],
    ));
    assert!(!plain.contains("|m2:"), "{plain}");
    let bad = green(
        p,
        &[
            "-r",
            "gold.m2",
            "-c",
            "hyp.txt",
            "--missing-annotator",
            "drop",
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown missing-annotator rule 'drop'"));
}

#[test]
fn m2_references_score_like_line_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("gold.m2"), M2).unwrap();
    std::fs::write(
        p.join("src.txt"),
        "He go to school .\nI like cat .\nIt is fine .\n",
    )
    .unwrap();
    std::fs::write(
        p.join("ref0.txt"),
        "He goes to school .\nI like cats .\nIt is fine .\n",
    )
    .unwrap();
    // Annotator 1 has no edit on sentences 2 and 3: its reference keeps the source.
    std::fs::write(
        p.join("ref1.txt"),
        "He went to school .\nI like cat .\nIt is fine .\n",
    )
    .unwrap();
    std::fs::write(
        p.join("hyp.txt"),
        "He goes to school .\nI like cats .\nIt is fine !\n",
    )
    .unwrap();
    let lines = ok(&green(
        p,
        &[
            "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-c", "hyp.txt", "-b", "0.5", "2", "-d",
            "6", "-n", "2",
        ],
    ));
    let m2 = ok(&green(
        p,
        &[
            "-r", "gold.m2", "-c", "hyp.txt", "-b", "0.5", "2", "-d", "6", "-n", "2",
        ],
    ));
    assert_eq!(m2, lines);
    // -s may still be given, and must agree in length.
    let with_src = ok(&green(
        p,
        &[
            "-s", "src.txt", "-r", "gold.m2", "-c", "hyp.txt", "-b", "0.5", "2", "-d", "6", "-n",
            "2",
        ],
    ));
    assert_eq!(with_src, lines);
    let json = ok(&green(
        p,
        &["-r", "gold.m2", "-c", "hyp.txt", "--format", "json"],
    ));
    assert!(json.contains("|refs:2|"), "{json}");
}

#[test]
fn para_sentences_use_the_references_they_have() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(
        p.join("dev.para"),
        "1\t他 去 学校 了\t他 去 了 学校\n2\t我 喜欢 猫\t我 喜欢 猫 咪\t我 很 喜欢 猫\n",
    )
    .unwrap();
    std::fs::write(p.join("hyp.txt"), "他 去 了 学校\n我 很 喜欢 猫\n").unwrap();
    std::fs::write(p.join("src.txt"), "他 去 学校 了\n我 喜欢 猫\n").unwrap();
    std::fs::write(p.join("r0.txt"), "他 去 了 学校\n我 喜欢 猫 咪\n").unwrap();
    std::fs::write(p.join("r1.txt"), "他 去 了 学校\n我 很 喜欢 猫\n").unwrap();
    let para = ok(&green(
        p,
        &["-r", "dev.para", "-c", "hyp.txt", "-d", "6", "-n", "2"],
    ));
    // Both hypotheses equal one of their sentence's references: a perfect score.
    assert!(para.ends_with("hyp.txt\t100.000000\n"), "{para}");
    let lines = ok(&green(
        p,
        &[
            "-s", "src.txt", "-r", "r0.txt", "r1.txt", "-c", "hyp.txt", "-d", "6", "-n", "2",
        ],
    ));
    assert_eq!(para, lines);
    // A para file with a .txt name needs --ref-format para.
    std::fs::copy(p.join("dev.para"), p.join("dev.txt")).unwrap();
    let forced = ok(&green(
        p,
        &[
            "-r",
            "dev.txt",
            "--ref-format",
            "para",
            "-c",
            "hyp.txt",
            "-d",
            "6",
            "-n",
            "2",
        ],
    ));
    assert_eq!(forced, para);
}

#[test]
fn format_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("gold.m2"), M2).unwrap();
    std::fs::write(p.join("short.txt"), "a\n").unwrap();
    for (args, needle) in [
        (
            vec!["-r", "gold.m2", "-c", "short.txt"],
            "line count mismatch: gold.m2 has 3 sentences but short.txt has 1 lines",
        ),
        (
            vec!["-r", "gold.m2", "--ref-format", "xml", "-c", "short.txt"],
            "unknown reference format 'xml'",
        ),
        (
            vec!["-r", "none.m2", "-c", "short.txt"],
            "cannot read none.m2",
        ),
    ] {
        let o = green(p, &args);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
}

#[test]
fn multigec_essays_score_per_essay() {
    // Three essays with paragraphs; ref2 covers two of them; the system lists them out of
    // order. At word level a newline is whitespace like a space, so the same essays as para
    // rows (newlines turned into spaces) must score identically.
    let essays = [
        (
            "7",
            "I go to school yesterday.\n\nIt were fun.",
            "I went to school yesterday.\n\nIt was fun.",
            Some("I went to school yesterday.\n\nIt was great fun."),
            "I went to school yesterday.\n\nIt were fun.",
        ),
        (
            "8",
            "She have a cat .",
            "She has a cat .",
            None,
            "She has a cat .",
        ),
        (
            "9",
            "Many peoples\nlikes it.",
            "Many people\nlike it.",
            Some("Many people like it."),
            "Many peoples\nlike it.",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let block = |id: &str, text: &str| format!("### essay_id = {id}\n{text}\n\n");
    let write = |name: &str, text: String| std::fs::write(dir.path().join(name), text).unwrap();
    write("orig.md", essays.iter().map(|e| block(e.0, e.1)).collect());
    write("ref1.md", essays.iter().map(|e| block(e.0, e.2)).collect());
    write(
        "ref2.md",
        essays
            .iter()
            .filter_map(|e| e.3.map(|r| block(e.0, r)))
            .collect(),
    );
    write(
        "hyp.md",
        essays.iter().rev().map(|e| block(e.0, e.4)).collect(),
    );
    let flat = |s: &str| s.replace('\n', " ");
    write(
        "refs.para",
        essays
            .iter()
            .map(|e| {
                let mut row = format!("{}\t{}\t{}", e.0, flat(e.1), flat(e.2));
                if let Some(r) = e.3 {
                    row += &format!("\t{}", flat(r));
                }
                row + "\n"
            })
            .collect(),
    );
    write("hyp.txt", essays.iter().map(|e| flat(e.4) + "\n").collect());
    let args = ["--level", "sentence", "-d", "8", "-b", "2"];
    let md = ok(&green(
        dir.path(),
        &[
            &["-s", "orig.md", "-r", "ref1.md", "ref2.md", "-c", "hyp.md"][..],
            &args,
        ]
        .concat(),
    ));
    let para = ok(&green(
        dir.path(),
        &[&["-r", "refs.para", "-c", "hyp.txt"][..], &args].concat(),
    ));
    assert_eq!(md.lines().count(), 3);
    assert_eq!(md, para);

    write("short.md", block("7", "x"));
    let out = green(
        dir.path(),
        &["-s", "orig.md", "-r", "ref1.md", "-c", "short.md"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("short.md has no essay_id = 8"),
        "{err}"
    );
    let out = green(dir.path(), &["-r", "ref1.md", "-c", "hyp.md"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("pass them with -s ORIGINAL.md"),
        "{err}"
    );
}
