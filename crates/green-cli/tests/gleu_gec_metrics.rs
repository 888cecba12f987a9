//! `green gleu --variant gec-metrics` against gec-metrics' `GLEU` class (CPython 3.12),
//! recorded by `scripts/fuzz-gec-metrics-gleu.py --record`: random corpora (runs of spaces
//! and tabs inside lines, empty lines, negative numerators), random `-n` and `--iter`. Each
//! `fixtures/gleu-gec-metrics/caseN` has `src.txt`, `refK.txt`, `hypK.txt` and
//! `expected.json` (corpus score per system, sentence scores per system); green must give
//! the same floats.

mod common;

use std::path::Path;

/// What `green gleu --variant gec-metrics ARGS` prints in `dir` (it must succeed).
fn green(dir: &Path, args: &[String]) -> String {
    let all: Vec<&str> = ["gleu", "--variant", "gec-metrics"]
        .into_iter()
        .chain(args.iter().map(String::as_str))
        .collect();
    common::stdout(&common::green(dir, &all))
}

#[test]
fn recorded_cases_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gleu-gec-metrics");
    let mut ran = 0;
    for entry in std::fs::read_dir(root).unwrap() {
        let dir = entry.unwrap().path();
        let want: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let (refs, hyps) = (
            want["refs"].as_u64().unwrap(),
            want["hyps"].as_u64().unwrap(),
        );
        let base: Vec<String> = ["-s", "src.txt", "-r"]
            .map(String::from)
            .into_iter()
            .chain((0..refs).map(|k| format!("ref{k}.txt")))
            .chain(["-n".into(), want["n"].to_string()])
            .collect();
        let floats = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let mut corpus_args = base.clone();
        corpus_args.extend(["--iter".into(), want["iter"].to_string(), "-o".into()]);
        corpus_args.extend((0..hyps).map(|k| format!("hyp{k}.txt")));
        let got: Vec<f64> = green(&dir, &corpus_args)
            .lines()
            .map(|l| {
                l.split(" | ").next().unwrap()["Score=".len()..]
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(got, floats(&want["corpus"]), "{}", dir.display());
        for k in 0..hyps as usize {
            let mut args = base.clone();
            args.extend(["--level", "sentence", "-o"].map(String::from));
            args.push(format!("hyp{k}.txt"));
            let got: Vec<f64> = green(&dir, &args)
                .lines()
                .map(|l| l.parse().unwrap())
                .collect();
            assert_eq!(
                got,
                floats(&want["sentence"][k]),
                "{} hyp{k}",
                dir.display()
            );
        }
        ran += 1;
    }
    assert_eq!(ran, 8);
}
