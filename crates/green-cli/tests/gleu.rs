//! `green gleu` against outputs of the PyPI package `gleu` 1.1 (`gleu`/`sgleu`/`mgleu
//! --fix-seed`, NumPy on its portable log/exp path), recorded once and committed: a small
//! hand-made corpus with empty lines for `cargo test`, and CoNLL-2014 (13 systems) and SEEDA
//! (15 systems, on CoNLL-2014's source and references), word and char, for the real-data
//! suite. `fixtures/*/cases.txt` holds `name program args...`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The package's program name as our level flag.
fn level(program: &str) -> &'static str {
    match program {
        "gleu" => "corpus",
        "sgleu" => "sentence",
        "mgleu" => "mean",
        other => panic!("unknown program {other}"),
    }
}

/// Run every case of `cases` in `dir` (`-o ALL` stands for `systems`) and compare stdout.
fn replay(cases: &Path, expected: &Path, dir: &Path, fixed: &[&str], systems: &[String]) {
    let text = std::fs::read_to_string(cases).unwrap();
    let mut ran = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let program = words.next().unwrap();
        let mut args: Vec<String> = vec!["gleu".into(), "--level".into(), level(program).into()];
        args.extend(fixed.iter().map(|s| s.to_string()));
        for w in words {
            if w == "ALL" {
                args.extend(systems.iter().cloned());
            } else {
                args.push(w.to_string());
            }
        }
        let out = Command::new(env!("CARGO_BIN_EXE_green"))
            .current_dir(dir)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want = std::fs::read_to_string(expected.join(format!("{name}.txt"))).unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            want,
            "case {name}: {args:?}"
        );
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn small_corpus_byte_for_byte() {
    let dir = fixtures().join("gleu");
    replay(
        &dir.join("cases.txt"),
        &dir.join("expected"),
        &dir,
        &[
            "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-o", "hyp0.txt", "hyp1.txt",
        ],
        &[],
    );
}

#[test]
fn json_has_the_scores_and_a_signature() {
    let dir = fixtures().join("gleu");
    let out = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(&dir)
        .args([
            "gleu", "-s", "src.txt", "-r", "ref0.txt", "ref1.txt", "-o", "hyp0.txt",
        ])
        .args(["--format", "json", "-i", "37", "-n", "3"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["signature"].as_str().unwrap(),
        format!(
            "gleu|n:3|iter:37|draw:python-mt19937-seed-101i|tok:word|norm:none|refs:2|level:corpus|v:{}",
            env!("CARGO_PKG_VERSION")
        )
    );
    let text = std::fs::read_to_string(dir.join("expected/gleu-6.txt")).unwrap();
    let printed: f64 = text
        .lines()
        .next()
        .unwrap()
        .split('\t')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let score = v["systems"][0]["score"].as_f64().unwrap();
    assert!((score - printed).abs() < 1e-12, "{score} vs {printed}");
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn conll14_byte_for_byte() {
    let shared = green_test_data::shared();
    let data = shared.join("data/conll14");
    assert!(data.is_dir(), "{} is missing", data.display());
    let mut systems: Vec<String> = std::fs::read_dir(data.join("systems"))
        .unwrap()
        .map(|e| format!("systems/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    systems.sort();
    assert_eq!(systems.len(), 13);
    let golden = fixtures().join("gleu-conll14");
    replay(
        &golden.join("cases.txt"),
        &golden,
        &data,
        &["-s", "source.txt", "-r", "ref0.txt", "ref1.txt"],
        &systems,
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn seeda_byte_for_byte() {
    let shared = green_test_data::shared();
    let data = shared.join("data");
    let outputs = data.join("seeda/outputs/all");
    assert!(outputs.is_dir(), "{} is missing", outputs.display());
    let mut systems: Vec<String> = std::fs::read_dir(&outputs)
        .unwrap()
        .map(|e| {
            format!(
                "seeda/outputs/all/{}",
                e.unwrap().file_name().to_string_lossy()
            )
        })
        .collect();
    systems.sort();
    assert_eq!(systems.len(), 15);
    let golden = fixtures().join("gleu-seeda");
    replay(
        &golden.join("cases.txt"),
        &golden,
        &data,
        &[
            "-s",
            "conll14/source.txt",
            "-r",
            "conll14/ref0.txt",
            "conll14/ref1.txt",
        ],
        &systems,
    );
}

/// The PyPI package reads its command line with argparse: unique prefixes of its long
/// options, the last value of a repeated option, `-p/--proc` (its worker processes, accepted
/// and ignored here). Expected outputs are the package's (gleu 1.1.0, `-f`).
#[test]
fn argparse_command_lines_as_the_package_reads_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/data");
    for (args, expected) in [
        (
            &[
                "--sou",
                "source.txt",
                "--ref",
                "ref0.txt",
                "ref1.txt",
                "-o",
                "system.txt",
                "--m",
                "--p",
                "2",
                "-n",
                "2",
                "-n",
                "3",
                "-f",
                "--dig",
                "4",
            ][..],
            "system.txt\t60.2290\n",
        ),
        (
            &[
                "--sou",
                "source.txt",
                "--references",
                "ref0.txt",
                "-r",
                "ref0.txt",
                "ref1.txt",
                "-o",
                "system.txt",
                "-f",
                "--i",
                "10",
            ],
            "system.txt\t45.14\n",
        ),
    ] {
        let mut all = vec!["gleu"];
        all.extend(args);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_green"))
            .current_dir(&dir)
            .args(&all)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected,
            "{all:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
