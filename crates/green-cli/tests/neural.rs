//! `green some`, `green impara`, `green scribendi` and `green ptm2` (the `neural` feature) on
//! green-neural's tiny random models: the corpus scores of the goldens that kokeman/SOME and
//! gec-metrics and PT-M2 computed, one clear error line for a bad models directory, and the
//! input checks the reference-free three share.
#![cfg(feature = "neural")]

use std::path::PathBuf;
use std::process::{Command, Output};

fn data(rel: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../green-neural/tests/data");
    root.join(rel).to_string_lossy().into_owned()
}

fn green(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .args(args)
        .output()
        .unwrap()
}

fn golden(name: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(data(name)).unwrap()).unwrap()
}

#[test]
fn some_json_has_the_golden_system_score() {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    let models = data("some-tiny");
    let out = green(&[
        "some", "--models", &models, "-s", &src, "-c", &hyp, "--format", "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = json["systems"][0]["some"].as_f64().unwrap();
    let theirs = golden("some-sentences.golden.json")["system"]
        .as_f64()
        .unwrap();
    assert!((ours - theirs).abs() < 1e-5, "{ours} vs {theirs}");
    let signature = json["signature"].as_str().unwrap();
    assert!(signature.starts_with("some|models:sha256-"), "{signature}");
}

#[test]
fn scribendi_text_has_the_golden_corpus_score() {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    let model = data("scribendi-tiny");
    let out = green(&["scribendi", "--model", &model, "-s", &src, "-c", &hyp]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let corpus = golden("scribendi-sentences.golden.json")["corpus"]
        .as_i64()
        .unwrap();
    assert!(
        text.starts_with(&format!("{hyp}\tScribendi\t{corpus}\n")),
        "{text}"
    );
}

#[test]
fn a_bad_models_directory_is_one_error_line() {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    // A GPT-2 directory where SOME's models should be.
    let out = green(&[
        "some",
        "--models",
        &data("scribendi-tiny"),
        "-s",
        &src,
        "-c",
        &hyp,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("grammer"), "{err}");
    // A BERT regressor where a language model should be.
    let out = green(&[
        "scribendi",
        "--model",
        &data("some-tiny/grammer"),
        "-s",
        &src,
        "-c",
        &hyp,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not gpt2"), "{err}");
}

#[test]
fn impara_json_has_the_golden_sentence_and_corpus_scores() {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    let (qe, se) = (data("impara-tiny/qe"), data("impara-tiny/se"));
    let out = green(&[
        "impara", "--qe", &qe, "--se", &se, "-s", &src, "-c", &hyp, "--format", "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let golden = golden("impara-sentences.golden.json");
    let ours = json["systems"][0]["impara"].as_f64().unwrap();
    let theirs = golden["corpus"].as_f64().unwrap();
    assert!((ours - theirs).abs() < 1e-5, "{ours} vs {theirs}");
    let rows = golden["sentences"].as_array().unwrap();
    let sentences = json["systems"][0]["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), sentences.len());
    for (ours, theirs) in sentences.iter().zip(rows) {
        let (a, b) = (
            ours["impara"].as_f64().unwrap(),
            theirs["score"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }
    let signature = json["signature"].as_str().unwrap();
    assert!(
        signature.starts_with("impara|models:sha256-"),
        "{signature}"
    );
    assert!(signature.contains("|threshold:0.9|"), "{signature}");
}

#[test]
fn impara_without_a_tokenizer_anywhere_is_one_error_line() {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    // The trained layout has no tokenizer; a GPT-2 directory has no WordPiece one either.
    let out = green(&[
        "impara",
        "--qe",
        &data("impara-tiny/qe-trained"),
        "--se",
        &data("scribendi-tiny"),
        "-s",
        &src,
        "-c",
        &hyp,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The source and systems checks every model-based command shares (crate::input).
#[test]
fn neural_commands_share_the_input_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let short = tmp.path().join("short.txt");
    std::fs::write(&short, "one line\n").unwrap();
    let empty = tmp.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let (short, empty) = (short.to_str().unwrap(), empty.to_str().unwrap());
    let src = data("some-sentences.src");
    let (some, qe, se, gpt) = (
        data("some-tiny"),
        data("impara-tiny/qe"),
        data("impara-tiny/se"),
        data("scribendi-tiny"),
    );
    let commands: [Vec<&str>; 3] = [
        vec!["some", "--models", &some],
        vec!["impara", "--qe", &qe, "--se", &se],
        vec!["scribendi", "--model", &gpt],
    ];
    for command in &commands {
        let run = |tail: &[&str]| {
            let mut args = command.clone();
            args.extend(tail);
            let out = green(&args);
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            String::from_utf8(out.stderr).unwrap()
        };
        let err = run(&["-s", &src, "-c", short]);
        assert!(err.contains("has 1 lines but the source"), "{err}");
        let err = run(&["-s", empty, "-c", empty]);
        assert!(err.contains("nothing to score"), "{err}");
        let err = run(&["-s", "-", "-c", "-"]);
        assert!(err.contains("standard input"), "{err}");
    }
}

#[test]
fn ptm2_json_has_the_golden_sentence_and_corpus_scores() {
    let (m2, hyp) = (data("ptm2-sentences.m2"), data("ptm2-sentences.hyp"));
    let (model, baseline) = (data("impara-tiny/se"), data("ptm2-tiny-baseline.tsv"));
    let out = green(&[
        "ptm2",
        "--model",
        &model,
        "--layers",
        "1",
        "--baseline",
        &baseline,
        "--m2",
        &m2,
        "-c",
        &hyp,
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let golden = golden("ptm2-sentences.golden.json");
    let sys = &json["systems"][0];
    let close = |a: &serde_json::Value, b: &serde_json::Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    };
    close(&sys["ptm2"], &golden["sentm2"]);
    close(&sys["corpus_score"]["f"], &golden["m2"]["f"]);
    let rows = golden["sentences"].as_array().unwrap();
    let sentences = sys["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), sentences.len());
    for (ours, theirs) in sentences.iter().zip(rows) {
        close(&ours["f"], &theirs["f"]);
    }
    let signature = json["signature"].as_str().unwrap();
    assert!(signature.starts_with("ptm2|model:sha256-"), "{signature}");
    assert!(signature.contains("|layers:1|rescaled:yes|"), "{signature}");
}

#[test]
fn ptm2_bad_input_is_one_error_line() {
    let (m2, model) = (data("ptm2-sentences.m2"), data("impara-tiny/se"));
    // Four lines for thirteen gold sentences.
    let short = data("ptm2-tiny-baseline.tsv");
    let cases: [(Vec<&str>, &str); 2] = [
        (vec!["--layers", "1", "--m2", &m2, "-c", &short], "line"),
        (
            vec!["--layers", "7", "--m2", &m2, "-c", &short],
            "fewer than the 7",
        ),
    ];
    for (args, what) in cases {
        let mut all = vec!["ptm2", "--model", &model];
        all.extend(args);
        let out = green(&all);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(what), "{err}");
    }
}

#[test]
fn ptm2_hyp_m2_has_the_golden_errant_scores_and_checks_its_edits() {
    let (m2, hyp, hyp_m2) = (
        data("ptm2-errant-gold.m2"),
        data("ptm2-sentences.hyp"),
        data("ptm2-errant-sys.m2"),
    );
    let model = data("impara-tiny/se");
    let run = |c: &str| {
        green(&[
            "ptm2", "--model", &model, "--layers", "1", "--m2", &m2, "-c", c, "--hyp-m2", &hyp_m2,
            "--format", "json",
        ])
    };
    let out = run(&hyp);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let golden = golden("ptm2-errant.golden.json");
    let sys = &json["systems"][0];
    let close = |a: &serde_json::Value, b: &serde_json::Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    };
    close(&sys["ptm2"], &golden["senterrant"]);
    close(&sys["corpus_score"]["f"], &golden["errant"]["f"]);
    assert!(json["signature"]
        .as_str()
        .unwrap()
        .starts_with("ptm2|base:errant|"));
    // An output its M2 was not made from.
    let out = run(&data("some-sentences.hyp"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("ptm2-errant-sys.m2:"), "{err}");
    assert!(err.contains("its edits give"), "{err}");
}

/// A Hugging Face cache in `root` holding tests/data/`model` as Hub repository `repo` at
/// main (a snapshot directory and refs/main, as huggingface_hub leaves them).
fn hub_cache(root: &std::path::Path, repo: &str, model: &str) {
    let entry = root.join(format!("models--{}", repo.replace('/', "--")));
    let snapshot = entry.join("snapshots/0123abcd");
    std::fs::create_dir_all(&snapshot).unwrap();
    for f in std::fs::read_dir(data(model)).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, snapshot.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::create_dir_all(entry.join("refs")).unwrap();
    std::fs::write(entry.join("refs/main"), "0123abcd").unwrap();
}

#[test]
fn hub_ids_are_read_from_the_local_cache_and_nothing_is_downloaded() {
    let tmp = tempfile::tempdir().unwrap();
    hub_cache(tmp.path(), "tiny/gpt2", "scribendi-tiny");
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    let run = |model: &str, extra: &[&str]| {
        let mut args = vec!["scribendi", "--model", model, "-s", &src, "-c", &hyp];
        args.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_green"))
            .args(&args)
            .env("HF_HUB_CACHE", tmp.path())
            .output()
            .unwrap()
    };
    let by_dir = run(&data("scribendi-tiny"), &[]);
    let by_id = run("tiny/gpt2", &[]);
    assert!(
        by_id.status.success(),
        "{}",
        String::from_utf8_lossy(&by_id.stderr)
    );
    assert_eq!(by_id.stdout, by_dir.stdout);
    assert!(run("tiny/gpt2", &["--revision", "0123abcd"])
        .status
        .success());
    for (model, extra, says) in [
        ("tiny/other", &[][..], "models--tiny--other/refs/main"),
        ("tiny/gpt2", &["--revision", "v2"][..], "revision v2"),
    ] {
        let out = run(model, extra);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(says) && err.contains("green never downloads"),
            "{err}"
        );
    }
}

/// `green meta --neural`: rows of SOME, IMPARA and Scribendi on green-meta's tiny dataset,
/// each system's score the mean of the sentence scores the command itself gives.
#[test]
fn meta_rows_of_the_neural_metrics() {
    let tiny = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../green-meta/tests/fixtures/tiny");
    let dir = tiny.to_str().unwrap();
    let descriptor = tiny.join("tiny.toml");
    let (some, qe, se, gpt) = (
        data("some-tiny"),
        data("impara-tiny/qe"),
        data("impara-tiny/se"),
        data("scribendi-tiny"),
    );
    let out = green(&[
        "meta",
        "--data",
        dir,
        "-D",
        descriptor.to_str().unwrap(),
        "-t",
        "word",
        "-f",
        "json",
        "--neural",
        &format!("some={some}"),
        &format!("impara={qe},{se}"),
        &format!("scribendi={gpt}"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let labels: Vec<&str> = rows.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels[1..], ["SOME mean", "IMPARA mean", "Scribendi mean"]);
    let systems: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|s| {
            tiny.join(format!("systems/{s}.txt"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let src = tiny.join("source.txt");
    let mut args = vec![
        "some",
        "--models",
        &some,
        "-s",
        src.to_str().unwrap(),
        "--format",
        "json",
        "-c",
    ];
    args.extend(systems.iter().map(String::as_str));
    let direct: serde_json::Value = serde_json::from_slice(&green(&args).stdout).unwrap();
    let meta = rows[1]["system_scores"][0][2].as_array().unwrap();
    for (k, sys) in direct["systems"].as_array().unwrap().iter().enumerate() {
        let (a, b) = (meta[k].as_f64().unwrap(), sys["some"].as_f64().unwrap());
        assert!((a - b).abs() < 1e-12, "{a} {b}");
    }
    // Sentence-level agreement is computed for these rows (three systems, two sentences).
    assert!(rows[1]["values"]
        .as_array()
        .unwrap()
        .iter()
        .any(|v| !v.is_null()));
    let bad = green(&[
        "meta",
        "--data",
        dir,
        "-D",
        descriptor.to_str().unwrap(),
        "--neural",
        "bleu=x",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(
        err.contains("some=DIR, impara=QE,SE, scribendi=DIR or ptm2=DIR,LAYERS"),
        "{err}"
    );
}

/// What the PT-M2 meta tests compare: `green meta --m2 -f json --neural ptm2=DIR,1` (and
/// `extra` arguments) on a hand-written dataset read from an M2 file (tests/data/ptm2-meta),
/// the rows of its sentences.tsv (label, then each system's score), and `green ptm2 --format
/// json`'s systems on the same model, gold and outputs.
struct Ptm2Meta {
    json: serde_json::Value,
    sentences: Vec<(String, Vec<f64>)>,
    direct: Vec<serde_json::Value>,
}

impl Ptm2Meta {
    fn run(extra: &[&str]) -> Ptm2Meta {
        Ptm2Meta::run_on(&data("ptm2-meta/dataset.toml"), extra)
    }

    /// [`Ptm2Meta::run`] with another descriptor of the dataset's files.
    fn run_on(descriptor: &str, extra: &[&str]) -> Ptm2Meta {
        let root = data("");
        let (model, m2) = (data("impara-tiny/se"), data("ptm2-sentences.m2"));
        let out_dir = tempfile::tempdir().unwrap();
        let spec = format!("ptm2={model},1");
        let mut args = vec![
            "meta",
            "--data",
            &root,
            "-D",
            descriptor,
            "-t",
            "word",
            "--m2",
            "-f",
            "json",
            "-o",
            out_dir.path().to_str().unwrap(),
            "--neural",
            &spec,
        ];
        args.extend(extra);
        let out = green(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let tsv = std::fs::read_to_string(out_dir.path().join("sentences.tsv")).unwrap();
        let sentences = tsv
            .lines()
            .filter(|l| !l.starts_with("metric\t"))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                let scores = f[3..].iter().map(|x| x.parse().unwrap()).collect();
                (f[0].to_owned(), scores)
            })
            .collect();
        // The systems of the descriptor, in its order: A's file is the written corrections.
        let systems = [
            data("ptm2-sentences.hyp"),
            data("ptm2-meta/C.txt"),
            data("ptm2-meta/SOURCE.txt"),
        ];
        let mut args = vec![
            "ptm2", "--model", &model, "--layers", "1", "--m2", &m2, "--format", "json", "-c",
        ];
        args.extend(systems.iter().map(String::as_str));
        let direct = green(&args);
        assert!(direct.status.success());
        let direct: serde_json::Value = serde_json::from_slice(&direct.stdout).unwrap();
        Ptm2Meta {
            json: serde_json::from_slice(&out.stdout).unwrap(),
            sentences,
            direct: direct["systems"].as_array().unwrap().clone(),
        }
    }

    /// The row labelled `label`.
    fn row(&self, label: &str) -> &serde_json::Value {
        let rows = self.json["rows"].as_array().unwrap();
        rows.iter()
            .find(|r| r["label"] == label)
            .unwrap_or_else(|| panic!("no row {label}"))
    }

    /// The row's system scores on the dataset's one view, systems in descriptor order.
    fn system_scores(&self, label: &str) -> Vec<f64> {
        let scores = self.row(label)["system_scores"][0][2].as_array().unwrap();
        scores.iter().map(|x| x.as_f64().unwrap()).collect()
    }
}

/// `green meta --neural ptm2=DIR,LAYERS`: every sentence score of both rows is the F `green
/// ptm2` gives that sentence; every system's `PT-M2 corpus` is the corpus F `green ptm2`
/// prints for it (folded in the same order: bit for bit), its `PT-M2 mean` the PT-M2.
#[test]
fn meta_ptm2_rows_are_what_green_ptm2_gives_each_system() {
    let run = Ptm2Meta::run(&[]);
    let rows = run.json["rows"].as_array().unwrap();
    let labels: Vec<&str> = rows.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels[labels.len() - 2..], ["PT-M2 corpus", "PT-M2 mean"]);
    let (corpus, mean) = (
        run.system_scores("PT-M2 corpus"),
        run.system_scores("PT-M2 mean"),
    );
    assert_eq!((corpus.len(), mean.len()), (3, 3));
    for (k, sys) in run.direct.iter().enumerate() {
        let f = sys["corpus_score"]["f"].as_f64().unwrap();
        assert_eq!(
            corpus[k].to_bits(),
            f.to_bits(),
            "system {k}: {corpus:?} {f}"
        );
        let ptm2 = sys["ptm2"].as_f64().unwrap();
        assert!(
            (mean[k] - ptm2).abs() < 1e-12,
            "system {k}: {mean:?} {ptm2}"
        );
    }
    // The written corrections' corpus F is not the mean of their sentence Fs.
    assert_ne!(corpus[0], mean[0]);
    for label in ["PT-M2 corpus", "PT-M2 mean"] {
        let sentences: Vec<&Vec<f64>> = (run.sentences.iter())
            .filter(|(l, _)| l == label)
            .map(|(_, s)| s)
            .collect();
        assert_eq!(sentences.len(), 13, "{label}");
        for (i, scores) in sentences.iter().enumerate() {
            for (k, sys) in run.direct.iter().enumerate() {
                let f = sys["sentences"][i]["f"].as_f64().unwrap();
                assert_eq!(scores[k], f, "{label}: sentence {} system {k}", i + 1);
            }
        }
        // The row is correlated at system and sentence level.
        let values = run.row(label)["values"].as_array().unwrap();
        assert!(values.iter().any(|v| !v.is_null()), "{label}");
    }
}

/// A system with `corpus_system_files` is scored on those files by the corpus row only, as
/// by the M2 rows: here SOURCE's corpus scores are C's.
#[test]
fn meta_ptm2_corpus_row_reads_corpus_system_files() {
    let dir = tempfile::tempdir().unwrap();
    let descriptor = dir.path().join("dataset.toml");
    let text = std::fs::read_to_string(data("ptm2-meta/dataset.toml")).unwrap();
    let text = text.replace(
        "system_files = { A = \"ptm2-sentences.hyp\" }",
        "system_files = { A = \"ptm2-sentences.hyp\" }\ncorpus_system_files = { SOURCE = \"ptm2-meta/C.txt\" }",
    );
    std::fs::write(&descriptor, text).unwrap();
    let plain = Ptm2Meta::run(&[]);
    let run = Ptm2Meta::run_on(descriptor.to_str().unwrap(), &[]);
    let (corpus, m2) = (
        run.system_scores("PT-M2 corpus"),
        run.system_scores("M2 word β=0.5 corpus"),
    );
    assert_eq!(corpus[2], plain.system_scores("PT-M2 corpus")[1]);
    assert_eq!(m2[2], plain.system_scores("M2 word β=0.5 corpus")[1]);
    assert_eq!(corpus[..2], plain.system_scores("PT-M2 corpus")[..2]);
    // The sentence scores, and the mean row, are the system's own.
    assert_eq!(
        run.system_scores("PT-M2 mean"),
        plain.system_scores("PT-M2 mean")
    );
    assert_eq!(run.sentences, plain.sentences);
}

/// With `--bootstrap`, both PT-M2 rows have intervals around their own numbers: the corpus
/// row's replicates fold the replicate's sentences' weighted counts, the mean row's average
/// their sentence scores. The table's numbers are those of a run without it.
#[test]
fn meta_ptm2_rows_resample_with_the_bootstrap() {
    let plain = Ptm2Meta::run(&[]);
    let boot = Ptm2Meta::run(&["--bootstrap", "200", "--seed", "7"]);
    for label in ["PT-M2 corpus", "PT-M2 mean"] {
        let row = boot.row(label);
        assert_eq!(row["values"], plain.row(label)["values"], "{label}");
        assert_eq!(row["system_scores"], plain.row(label)["system_scores"]);
        let intervals = row["intervals"].as_array().unwrap();
        let values = row["values"].as_array().unwrap();
        assert_eq!(intervals.len(), values.len(), "{label}");
        assert!(intervals.iter().any(|i| !i.is_null()), "{label}");
        for (iv, v) in intervals.iter().zip(values) {
            if !iv.is_null() {
                assert_eq!(&iv["estimate"], v, "{label}");
                let (low, high) = (iv["low"].as_f64().unwrap(), iv["high"].as_f64().unwrap());
                assert!(low <= high, "{label}: {iv}");
            }
        }
    }
}

#[test]
fn meta_ptm2_bad_spec_or_model_is_one_error_line() {
    let root = data("");
    let descriptor = data("ptm2-meta/dataset.toml");
    let model = data("impara-tiny/se");
    let tiny = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../green-meta/tests/fixtures/tiny");
    let tiny_toml = tiny.join("tiny.toml");
    let missing = data("no-such-model");
    let run = |data_dir: &str, dataset: &str, spec: &str| {
        green(&[
            "meta", "--data", data_dir, "-D", dataset, "-t", "word", "--neural", spec,
        ])
    };
    let cases = [
        // No layer count, a bad one, one part too many.
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={model}"),
            "ptm2=DIR,LAYERS",
        ),
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={model},x"),
            "LAYERS 'x'",
        ),
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={model},0"),
            "LAYERS '0'",
        ),
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={model},1,2"),
            "ptm2=DIR,LAYERS",
        ),
        // A model directory that does not exist (nor is a Hub id in the cache).
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={missing},1"),
            "no-such-model",
        ),
        // More layers than the model has.
        (
            root.as_str(),
            descriptor.as_str(),
            format!("ptm2={model},7"),
            "fewer than the 7",
        ),
        // A dataset without gold edits: its parts are line files.
        (
            tiny.to_str().unwrap(),
            tiny_toml.to_str().unwrap(),
            format!("ptm2={model},1"),
            "PT-M2 needs gold edits",
        ),
    ];
    for (data_dir, dataset, spec, says) in cases {
        let out = run(data_dir, dataset, &spec);
        assert_eq!(out.status.code(), Some(1), "{spec}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{spec}: {err}");
        assert!(err.contains(says), "{spec}: {err}");
    }
}
