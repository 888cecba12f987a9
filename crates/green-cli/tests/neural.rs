//! `green some` and `green scribendi` (the `neural` feature) on green-neural's tiny random
//! models: the corpus scores of the goldens that kokeman/SOME and gec-metrics computed, and
//! one clear error line for a bad models directory.
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
