//! End-to-end tests of the `green`, `sgreen` and `mgreen` binaries on hand-written fixtures:
//! the vectors of the reference implementation retyped, edge cases, and every error path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn run_in(bin: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

fn green(dir: &Path, args: &[&str]) -> Output {
    run_in(env!("CARGO_BIN_EXE_green"), dir, args)
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Runs and expects exactly one error line starting with `green: error: ` and containing `needle`.
fn fails_with(o: &Output, needle: &str) {
    assert_eq!(
        o.status.code(),
        Some(1),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(err.starts_with("green: error: "), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(o.stdout.is_empty(), "no partial output");
}

fn a() -> PathBuf {
    fixtures().join("a")
}

const A: [&str; 7] = [
    "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-c", "hyp.txt",
];

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn vector_a_corpus_word() {
    let out = stdout(&green(&a(), &with(&A, &["-b", "0.5", "1", "2", "-d", "9"])));
    let line = out.lines().nth(2).unwrap();
    let cells: Vec<&str> = line.split('\t').collect();
    assert_eq!(cells[0], "hyp.txt");
    assert_eq!(cells[1], "67.353281939");
    assert!(cells[2].starts_with("69.530193"));
    assert_eq!(cells[3], "71.852523832");
}

#[test]
fn vector_a_header_and_default_digits() {
    let out = stdout(&green(
        &a(),
        &[
            "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-c", "hyp.txt", "src.txt", "-b", "0.5",
            "1", "2",
        ],
    ));
    assert_eq!(
        out,
        "alpha\t0.80\t0.50\t0.20\nbeta\t0.50\t1.00\t2.00\nhyp.txt\t67.35\t69.53\t71.85\nsrc.txt\t81.33\t63.54\t52.14\n"
    );
}

#[test]
fn vector_a_sentences_and_mean() {
    let out = run_in(
        env!("CARGO_BIN_EXE_sgreen"),
        &a(),
        &with(&A, &["-b", "0.5", "1", "2", "-d", "6"]),
    );
    assert_eq!(
        stdout(&out),
        "67.080695\t70.581496\t74.467815\n34.099683\t43.743232\t60.992075\n\
         100.000000\t100.000000\t100.000000\n89.496114\t77.314563\t68.051848\n"
    );
    let mean = stdout(&run_in(
        env!("CARGO_BIN_EXE_mgreen"),
        &a(),
        &with(&A, &["-b", "0.5", "2", "-d", "9"]),
    ));
    assert_eq!(
        mean.lines().nth(2).unwrap(),
        "hyp.txt\t72.669123030\t75.877934680"
    );
    // --level is the same as the sgreen/mgreen names.
    let flag = stdout(&green(
        &a(),
        &with(&A, &["-b", "0.5", "2", "-d", "9", "--level", "mean"]),
    ));
    assert_eq!(flag, mean);
}

#[test]
fn vector_a_char() {
    let corpus = stdout(&green(
        &a(),
        &with(
            &A,
            &["-t", "char", "-n", "4", "-b", "0.5", "1", "2", "-d", "6"],
        ),
    ));
    assert_eq!(
        corpus.lines().nth(2).unwrap(),
        "hyp.txt\t74.792087\t79.124351\t85.335291"
    );
    let sent = stdout(&run_in(
        env!("CARGO_BIN_EXE_sgreen"),
        &a(),
        &with(
            &A,
            &["-t", "char", "-n", "4", "-b", "0.5", "1", "2", "-d", "6"],
        ),
    ));
    assert_eq!(
        sent,
        "90.954980\t94.148383\t97.574183\n35.996245\t43.340205\t55.153275\n\
         100.000000\t100.000000\t100.000000\n96.743140\t92.237090\t88.132119\n"
    );
    let mean = stdout(&run_in(
        env!("CARGO_BIN_EXE_mgreen"),
        &a(),
        &with(
            &A,
            &["-t", "char", "-n", "4", "-b", "0.5", "1", "2", "-d", "6"],
        ),
    ));
    assert_eq!(
        mean.lines().nth(2).unwrap(),
        "hyp.txt\t80.923591\t82.431419\t85.214894"
    );
}

#[test]
fn vector_a_verbose_counts() {
    let out = stdout(&green(&a(), &with(&A, &["-b", "2", "-v"])));
    let mut lines = out.lines();
    assert_eq!(lines.next().unwrap(), "hyp.txt\talpha=0.20\tbeta=2.00");
    let rows: Vec<Vec<String>> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("tk"))
        .map(|l| {
            l.split('|')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    let expect = [
        "1 21 5 3 1 8 1 2 29 9 3 76.32 90.63 87.35",
        "2 14 6 3 2 10 2 4 23 12 6 70.82 84.78 81.56",
        "3 10 6 2 1 10 3 6 18 11 9 67.77 78.25 75.90",
        "4 8 5 1 0 9 3 6 14 9 9 65.98 73.49 71.85",
    ];
    for (row, want) in rows.iter().zip(expect) {
        let picked: Vec<&str> = row[..11]
            .iter()
            .chain(&row[14..17])
            .map(String::as_str)
            .collect();
        assert_eq!(picked.join(" "), want);
    }
    assert_eq!(rows.len(), 4);
    assert!(out.contains("|   | tk | td | ti | od | oi | ud | ui | TP | FP | FN |   P   |   R   |  F2.0 |  cumP |  cumR |  cumF |"), "{out}");
    let line = stdout(&green(&a(), &with(&A, &["-b", "2", "-v", "-l"])));
    assert_eq!(line, "0.20\t2.00\t65.98\t73.49\t71.85\n");
}

#[test]
fn vector_b_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s"), "He go to school .\n").unwrap();
    std::fs::write(dir.path().join("r"), "He goes to school .\n").unwrap();
    std::fs::write(dir.path().join("c"), "He goes to the school .\n").unwrap();
    let base = ["-s", "s", "-r", "r", "-c", "c"];
    let out = stdout(&green(
        dir.path(),
        &with(&base, &["-b", "0.5", "1", "2", "-d", "4"]),
    ));
    assert_eq!(out.lines().nth(2).unwrap(), "c\t58.5202\t64.6323\t72.1700");
    let ch = stdout(&green(
        dir.path(),
        &with(&base, &["-t", "char", "-n", "2", "-d", "4"]),
    ));
    assert_eq!(ch.lines().nth(2).unwrap(), "c\t90.4762");
}

#[test]
fn vector_c_edge_cases() {
    let c = fixtures().join("c");
    let base = ["-s", "src.txt", "-r", "ref.txt", "-c", "hyp.txt", "-d", "4"];
    let sgreen = |more: &[&str]| {
        stdout(&run_in(
            env!("CARGO_BIN_EXE_sgreen"),
            &c,
            &with(&base, more),
        ))
    };
    assert_eq!(sgreen(&[]), "0.0000\n0.0000\n0.0000\n0.0000\n63.8943\n");
    assert_eq!(
        sgreen(&["-t", "char"]),
        "100.0000\n100.0000\n0.0000\n100.0000\n82.4188\n"
    );
    let corpus = stdout(&green(&c, &base));
    assert_eq!(corpus.lines().nth(2).unwrap(), "hyp.txt\t72.1733");
    let chars = stdout(&green(&c, &with(&base, &["-t", "char"])));
    assert_eq!(chars.lines().nth(2).unwrap(), "hyp.txt\t90.1080");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&green(&c, &with(&base, &["--format", "json"])))).unwrap();
    let orders = &json["systems"][0]["results"][0]["orders"];
    let tpfpfn: Vec<(u64, u64, u64)> = (0..4)
        .map(|i| {
            let o = &orders[i];
            (
                o["tp"].as_u64().unwrap(),
                o["fp"].as_u64().unwrap(),
                o["fn"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(tpfpfn, [(13, 1, 1), (9, 2, 2), (5, 2, 2), (2, 2, 2)]);
}

#[test]
fn json_has_signature_and_counts() {
    let out = stdout(&green(
        &a(),
        &with(&A, &["-b", "2", "inf", "--format", "json"]),
    ));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        v["signature"],
        format!("green|n:4|beta:2,inf|tok:word|norm:none|refs:2|level:corpus|v:{version}")
    );
    let r = &v["systems"][0]["results"];
    assert_eq!(
        r[0]["signature"],
        format!("green|n:4|beta:2|tok:word|norm:none|refs:2|level:corpus|v:{version}")
    );
    assert!((r[0]["score"].as_f64().unwrap() - 71.852523832).abs() < 1e-8);
    assert_eq!(r[1]["beta"], "inf");
    // beta = inf is recall only.
    assert_eq!(r[1]["score"], r[1]["orders"][3]["cum_r"]);
    assert_eq!(r[0]["orders"][0]["tk"], 21);
}

#[test]
fn beta_zero_and_infinity_are_precision_and_recall() {
    let out = stdout(&green(
        &a(),
        &with(&A, &["-b", "0", "inf", "-v", "-l", "-d", "6"]),
    ));
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0][4], lines[0][2], "beta 0: F = cumP");
    assert_eq!(lines[1][4], lines[1][3], "beta inf: F = cumR");
    assert_eq!(lines[1][1], "inf");
}

#[test]
fn stdin_crlf_bom_and_missing_newline() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("s"), "a b c\nd e f\n").unwrap();
    std::fs::write(p.join("r"), "a b c\r\nd e g").unwrap();
    std::fs::write(p.join("c"), "a b c\nd e g\n").unwrap();
    let plain = stdout(&green(
        p,
        &["-s", "s", "-r", "r", "-c", "c", "-d", "6", "-n", "2"],
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(p)
        .args(["-s", "-", "-r", "r", "-c", "c", "-d", "6", "-n", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a b c\nd e f\n")
        .unwrap();
    let piped = child.wait_with_output().unwrap();
    assert_eq!(stdout(&piped), plain);
    assert!(plain.ends_with("c\t100.000000\n"), "{plain}");
    // A BOM is kept as part of the first token, like Python's utf-8 codec, with a warning.
    std::fs::write(p.join("bom"), "\u{feff}a b c\nd e g\n").unwrap();
    let o = green(
        p,
        &["-s", "s", "-r", "r", "-c", "bom", "-d", "6", "-n", "2"],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("bom starts with a UTF-8 byte-order mark"));
    assert_ne!(
        stdout(&o).lines().nth(2).unwrap().split('\t').nth(1),
        plain.lines().nth(2).unwrap().split('\t').nth(1)
    );
}

/// Seeded pseudo-random numbers below `m` (a 64-bit LCG), for generated corpora.
fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |m| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    }
}

#[test]
fn long_lines_split_into_batches_by_bytes_score_as_one_pass() {
    // ~6 MB of lines of up to 2,000 words: the streaming reader ends a batch at 2 MiB of
    // text, so this takes several batches; the para path holds the corpus in memory.
    let dir = tempfile::tempdir().unwrap();
    let mut next = numbers(7);
    let (mut s, mut r, mut c, mut p) = (String::new(), String::new(), String::new(), String::new());
    for i in 0..500 {
        let len = [3, 1500, 2000][next(3) as usize];
        let words: Vec<String> = (0..len).map(|_| format!("w{}", next(300))).collect();
        let edit = |words: &[String], k: u64| {
            let mut out = words.to_vec();
            out[k as usize % words.len()] = "x".into();
            out.join(" ")
        };
        let (reference, hypothesis) = (edit(&words, next(len)), edit(&words, next(len)));
        s += &(words.join(" ") + "\n");
        r += &(reference.clone() + "\n");
        c += &(hypothesis + "\n");
        p += &format!("{i}\t{}\t{reference}\n", words.join(" "));
    }
    for (name, text) in [("s", &s), ("r", &r), ("c", &c), ("p", &p)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let streamed = stdout(&green(
        dir.path(),
        &[
            "-s", "s", "-r", "r", "-c", "c", "--level", "sentence", "-d", "8",
        ],
    ));
    let in_memory = stdout(&green(
        dir.path(),
        &[
            "-r",
            "p",
            "--ref-format",
            "para",
            "-c",
            "c",
            "--level",
            "sentence",
            "-d",
            "8",
        ],
    ));
    assert_eq!(streamed.lines().count(), 500);
    assert_eq!(streamed, in_memory);
}

#[test]
fn thread_count_does_not_change_output() {
    let base = with(&A, &["-b", "0.5", "1", "2", "-d", "12", "--format", "json"]);
    let one = stdout(&green(&a(), &with(&base, &["--threads", "1"])));
    let four = stdout(&green(&a(), &with(&base, &["--threads", "4"])));
    assert_eq!(one, four);
}

#[test]
fn errors_are_one_clear_line() {
    let dir = a();
    fails_with(
        &green(&dir, &["-s", "src.txt", "-r", "nope.txt", "-c", "hyp.txt"]),
        "cannot read nope.txt",
    );
    fails_with(
        &green(&dir, &["-s", "src.txt", "-c", "hyp.txt"]),
        "no reference files given",
    );
    fails_with(
        &green(&dir, &["-s", "src.txt", "-r", "ref0.txt"]),
        "no system files given",
    );
    fails_with(
        &green(&dir, &["-r", "ref0.txt", "-c", "hyp.txt"]),
        "no source file given",
    );
    fails_with(
        &green(&dir, &with(&A, &["-n", "0"])),
        "N must be between 1 and 100 (got -n 0)",
    );
    fails_with(
        &green(&dir, &with(&A, &["-n", "1000000000"])),
        "N must be between 1 and 100",
    );
    fails_with(
        &green(&dir, &with(&A, &["-b", "-1"])),
        "beta must be a non-negative number",
    );
    fails_with(
        &green(&dir, &with(&A, &["-b", "nan"])),
        "beta must be a non-negative number",
    );
    fails_with(
        &green(&dir, &with(&A, &["-t", "klingon"])),
        "unknown tokenizer 'klingon'",
    );
    fails_with(
        &green(&dir, &["-s", "-", "-r", "-", "-c", "hyp.txt"]),
        "standard input (-) can be given for one file only",
    );
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    std::fs::write(p.join("s"), "a\nb\nc\n").unwrap();
    std::fs::write(p.join("short"), "a\nb\n").unwrap();
    std::fs::write(p.join("bad"), b"a\nb \xff\nc\n").unwrap();
    std::fs::write(p.join("empty"), "").unwrap();
    fails_with(
        &green(p, &["-s", "s", "-r", "s", "-c", "short"]),
        "line count mismatch: s has 3 lines but short has 2",
    );
    fails_with(
        &green(p, &["-s", "s", "-r", "s", "-c", "bad"]),
        "bad:2: invalid UTF-8",
    );
    fails_with(
        &green(p, &["-s", "empty", "-r", "empty", "-c", "empty"]),
        "empty is empty",
    );
    // sgreen must not print the sentences before the mismatch.
    let o = run_in(
        env!("CARGO_BIN_EXE_sgreen"),
        p,
        &["-s", "s", "-r", "short", "-c", "s"],
    );
    fails_with(&o, "line count mismatch");
}

#[test]
fn usage_errors_exit_2() {
    let o = green(
        &a(),
        &[
            "-s", "src.txt", "-r", "ref0.txt", "-c", "hyp.txt", "-d", "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn long_aliases_of_the_reference() {
    let short = stdout(&green(&a(), &A));
    for (s, r, c) in [
        ("--src", "--ref", "--cor"),
        ("--source", "--references", "--hypotheses"),
        ("--source", "--refs", "--outputs"),
    ] {
        let out = green(
            &a(),
            &[s, "src.txt", r, "ref0.txt", "ref1.txt", c, "hyp.txt"],
        );
        assert_eq!(stdout(&out), short);
    }
    let o = stdout(&green(
        &a(),
        &[
            "-s",
            "src.txt",
            "-r",
            "ref0.txt",
            "ref1.txt",
            "-o",
            "hyp.txt",
            "--tokenization",
            "word",
            "--digit",
            "2",
            "--beta",
            "1",
        ],
    ));
    assert_eq!(o, short);
}

/// A corpus scored in three shards with `--stats` and joined by `green merge` prints what one
/// run prints, at corpus and mean level, as text, -v tables and JSON; for GREEN and for GLEU.
/// Shards are row ranges of the whole files (`--rows`), given in any order; or separately
/// split files joined with `--concat` in the order given.
#[test]
fn merged_shard_statistics_print_one_run() {
    let root = tempfile::tempdir().unwrap();
    let mut next = numbers(11);
    let words = ["a", "b", "the", "cat", "sat", "on", "mat", ".", "猫"];
    let mut line = || -> String {
        let n = next(12) as usize;
        (0..n)
            .map(|_| words[next(9) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let files = ["src", "ref0", "ref1", "hyp0", "hyp1"];
    let rows: Vec<Vec<String>> = (0..5000)
        .map(|_| files.iter().map(|_| line()).collect())
        .collect();
    let write = |dir: &Path, rows: &[Vec<String>]| {
        std::fs::create_dir_all(dir).unwrap();
        for (f, name) in files.iter().enumerate() {
            let text: String = rows.iter().map(|r| format!("{}\n", r[f])).collect();
            std::fs::write(dir.join(name), text).unwrap();
        }
    };
    let base = [
        "-s", "src", "-r", "ref0", "ref1", "-c", "hyp0", "hyp1", "-b", "0.5", "2", "-n", "3",
    ];
    let whole_dir = root.path().join("whole");
    write(&whole_dir, &rows);
    let cuts = ["0:1", "1:4200", "4200:"];
    for (k, range) in [&rows[..1], &rows[1..4200], &rows[4200..]]
        .into_iter()
        .enumerate()
    {
        let stats = root.path().join(format!("part{k}.json"));
        stdout(&green(
            &whole_dir,
            &with(
                &base,
                &["--rows", cuts[k], "--stats", stats.to_str().unwrap()],
            ),
        ));
        let dir = root.path().join(format!("part{k}"));
        write(&dir, range);
        let split = root.path().join(format!("split{k}.json"));
        stdout(&green(
            &dir,
            &with(&base, &["--stats", split.to_str().unwrap()]),
        ));
    }
    let parts = ["part0.json", "part1.json", "part2.json"];
    let any_order = ["part2.json", "part0.json", "part1.json"];
    let split = ["--concat", "split0.json", "split1.json", "split2.json"];
    for opts in [
        &[][..],
        &["--level", "mean"],
        &["-v"],
        &["--format", "json", "-d", "6"],
        &["--level", "mean", "--format", "json"],
    ] {
        let whole = stdout(&green(&whole_dir, &with(&base, opts)));
        for files in [&parts[..], &any_order, &split] {
            let merged = stdout(&green(root.path(), &with(&with(&["merge"], files), opts)));
            assert_eq!(merged, whole, "{files:?} {opts:?}");
        }
    }
    // What used to merge and print a score: one error line each.
    for (files, error) in [
        (
            &["part0.json", "part0.json", "part1.json", "part2.json"][..],
            "part0.json and part0.json hold the same rows (0..1) of one corpus",
        ),
        (
            &["part0.json", "part2.json"],
            "rows 1..4200 of the corpus are in none of the files given",
        ),
        (
            &["part0.json", "part1.json"],
            "rows 4200..5000 of the corpus (5000 rows) are in none of the files given",
        ),
        (
            &["split0.json", "split1.json", "split2.json"],
            "split1.json is of another corpus than split0.json",
        ),
        (
            &["--concat", "split0.json", "split0.json"],
            "split0.json and split0.json hold the same rows (0..1)",
        ),
    ] {
        fails_with(&green(root.path(), &with(&["merge"], files)), error);
    }
    // Rows out of the corpus.
    fails_with(
        &green(&whole_dir, &with(&base, &["--rows", "4000:6000"])),
        "--rows 4000:6000: the corpus has 5000 rows",
    );
    // GLEU: every sentence's statistics per shard, folded by the official GLEU's Metric.
    let gleu = [
        "gleu", "-s", "src", "-r", "ref0", "ref1", "-o", "hyp0", "hyp1", "-n", "3",
    ];
    for (name, mode) in [("sampled", &["-i", "50"][..]), ("max", &["-m"])] {
        for (k, cut) in cuts.iter().enumerate() {
            let stats = root.path().join(format!("{name}{k}.json"));
            let args = with(
                &with(&gleu, mode),
                &["--rows", cut, "--stats", stats.to_str().unwrap()],
            );
            stdout(&green(&whole_dir, &args));
        }
        let parts = [0, 1, 2].map(|k| format!("{name}{k}.json"));
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        for opts in [
            &[][..],
            &["--level", "mean"],
            &["--format", "json", "-d", "6"],
        ] {
            let whole = stdout(&green(&whole_dir, &with(&with(&gleu, mode), opts)));
            let merged = stdout(&green(root.path(), &with(&with(&["merge"], &parts), opts)));
            assert_eq!(merged, whole, "{name} {opts:?}");
        }
    }
    fails_with(
        &green(
            root.path(),
            &["merge", "sampled0.json", "max1.json", "sampled2.json"],
        ),
        "max1.json cannot follow sampled0.json",
    );
    fails_with(
        &green(root.path(), &["merge", "part0.json", "max1.json"]),
        "max1.json holds gleu statistics but part0.json holds green",
    );
    // Shards of other settings, damaged, edited or foreign files: one error line each.
    let char_stats = root.path().join("char.json");
    stdout(&green(
        &whole_dir,
        &with(
            &base,
            &[
                "-t",
                "char",
                "--rows",
                "1:",
                "--stats",
                char_stats.to_str().unwrap(),
            ],
        ),
    ));
    fails_with(
        &green(root.path(), &["merge", "part0.json", "char.json"]),
        "char.json: tokenizer \"char\", but part0.json has \"word\"",
    );
    std::fs::write(root.path().join("junk.json"), "{\"format\": 1}").unwrap();
    fails_with(
        &green(root.path(), &["merge", "part0.json", "junk.json"]),
        "junk.json: not a statistics file of --stats",
    );
    let text = std::fs::read_to_string(root.path().join("part1.json")).unwrap();
    for (name, edited) in [
        (
            "cut.json",
            text.replace("\"sentences\":4199", "\"sentences\":4198"),
        ),
        ("count.json", text.replacen("\"tk\":", "\"tk\":1", 1)),
    ] {
        std::fs::write(root.path().join(name), edited).unwrap();
        fails_with(
            &green(root.path(), &["merge", "part0.json", name, "part2.json"]),
            &format!("{name}: the statistics were changed after green wrote them"),
        );
    }
}

/// What a CLI owes its users (issue 43): usage when run bare, completions and a man page from
/// the same definitions, a version that names the signatures' version, colour only when
/// asked for (never through a pipe, never with NO_COLOR), commas between betas.
#[test]
fn conventions_of_a_command_line() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_green"));
        c.args(args)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let bare = run(&[], &[]);
    let text = String::from_utf8_lossy(&bare.stderr);
    assert!(
        text.contains("Usage: green [OPTIONS]") && text.contains("Commands:"),
        "{text}"
    );
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell], &[]);
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success()
                && script.contains("errant-compare")
                && script.contains("missing-annotator"),
            "{shell}"
        );
    }
    let man = run(&["man"], &[]);
    let page = String::from_utf8_lossy(&man.stdout);
    assert!(
        page.starts_with(".ie") && page.contains(".SH COMMANDS") && page.contains(".SS maxmatch"),
        "{page}"
    );
    let version = String::from_utf8_lossy(&run(&["--version"], &[]).stdout).into_owned();
    let signature = stdout(&run(
        &[
            "-s",
            "../../examples/data/source.txt",
            "-r",
            "../../examples/data/ref0.txt",
            "-c",
            "../../examples/data/system.txt",
            "--format",
            "json",
        ],
        &[],
    ));
    let v = version
        .trim()
        .rsplit("v:")
        .next()
        .unwrap()
        .trim_end_matches(')');
    assert!(
        signature.contains(&format!("|v:{v}")),
        "{version} / {signature}"
    );
    for (env, coloured) in [
        (&[][..], false),
        (&[("CLICOLOR_FORCE", "1")][..], true),
        (&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")][..], false),
    ] {
        let help = run(&["--help"], env);
        assert_eq!(help.stdout.contains(&0x1b), coloured, "{env:?}");
    }
    let commas = stdout(&run(
        &[
            "-s",
            "../../examples/data/source.txt",
            "-r",
            "../../examples/data/ref0.txt",
            "-c",
            "../../examples/data/system.txt",
            "-b",
            "0.5,2",
        ],
        &[],
    ));
    assert!(
        commas.starts_with("alpha\t0.80\t0.20\nbeta\t0.50\t2.00\n"),
        "{commas}"
    );
}

#[cfg(not(feature = "neural"))]
#[test]
fn model_based_metrics_name_the_feature_they_need() {
    let dir = fixtures();
    for args in [
        &["some", "--models", "m", "-s", "a", "-c", "b"][..],
        &["impara", "--help"],
        &["scribendi"],
        &["ptm2", "--model", "x", "--layers", "1"],
    ] {
        fails_with(
            &green(&dir, args),
            &format!(
                "green {} is not in this build: the model-based metrics need the neural feature",
                args[0]
            ),
        );
    }
    let help = stdout(&green(&dir, &["--help"]));
    assert!(!help.contains("scribendi"), "{help}");
}
