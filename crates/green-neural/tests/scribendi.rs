//! Scribendi on a tiny random GPT-2 (tests/data/scribendi-tiny, made by
//! scripts/scribendi-tiny-model.py) against gec-metrics' own Scribendi on the same weights
//! (scripts/scribendi-oracle.py).

mod common;

use std::fs;
use std::path::Path;

use common::{conll14_amu, copy_models, data, sentences};
use green_neural::scribendi::{self, Scorer, SentenceScore};
use green_neural::ErrorKind;

fn scorer() -> Scorer {
    Scorer::open(&data("scribendi-tiny")).unwrap()
}

/// Every sentence's score equal, perplexities within 1e-5 relative; returns the largest
/// relative difference.
fn check(scores: &[SentenceScore], golden: &Path) -> f64 {
    let golden = common::golden(golden);
    let rows = golden["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), scores.len());
    let mut worst = 0f64;
    for (i, (row, s)) in rows.iter().zip(scores).enumerate() {
        assert_eq!(
            i64::from(s.score),
            row["score"].as_i64().unwrap(),
            "sentence {}",
            i + 1
        );
        for (key, ours) in [("ppl_s", s.ppl_source), ("ppl_h", s.ppl_hypothesis)] {
            match (row.get(key), ours) {
                (None, None) => {}
                (Some(serde_json::Value::Null), Some(x)) => {
                    assert!(x.is_nan(), "sentence {}", i + 1)
                }
                (Some(theirs), Some(ours)) => {
                    let theirs = theirs.as_f64().unwrap();
                    let rel = (ours - theirs).abs() / theirs;
                    assert!(rel < 1e-5, "sentence {} {key}: {ours} vs {theirs}", i + 1);
                    worst = worst.max(rel);
                }
                other => panic!("sentence {} {key}: {other:?}", i + 1),
            }
        }
    }
    assert_eq!(
        scribendi::corpus(scores),
        golden["corpus"].as_i64().unwrap()
    );
    worst
}

#[test]
fn matches_gec_metrics_on_written_sentences() {
    let (src, hyp) = sentences();
    let scores = scorer().score(&src, &hyp).unwrap();
    let worst = check(&scores, &data("scribendi-sentences.golden.json"));
    eprintln!(
        "max relative perplexity diff {worst:e} over {} sentences",
        scores.len()
    );
}

#[test]
#[ignore = "reads CoNLL-14 from $GREEN_SHARED"]
fn matches_gec_metrics_on_conll14_amu() {
    let (src, hyp) = conll14_amu();
    let scores = scorer().score(&src, &hyp).unwrap();
    let worst = check(&scores, &data("scribendi-conll14-amu.golden.json"));
    eprintln!(
        "max relative perplexity diff {worst:e} over {} sentences",
        scores.len()
    );
}

#[test]
fn batch_size_does_not_change_scores() {
    let (src, hyp) = sentences();
    let mut s = scorer();
    let all = s.score(&src, &hyp).unwrap();
    s.batch_size = 1;
    let one = s.score(&src, &hyp).unwrap();
    for (a, b) in all.iter().zip(&one) {
        assert_eq!(a.score, b.score);
    }
}

#[test]
fn failure_modes() {
    let empty = tempfile::tempdir().unwrap();
    let e = Scorer::open(empty.path()).err().unwrap();
    assert_eq!(e.kind, ErrorKind::Missing);
    let tmp = copy_models("scribendi-tiny");
    // A BERT directory is not a language model.
    let config = tmp.path().join("config.json");
    let text = fs::read_to_string(&config).unwrap();
    fs::write(&config, text.replace("\"gpt2\"", "\"bert\"")).unwrap();
    let e = Scorer::open(tmp.path()).err().unwrap();
    assert_eq!(e.kind, ErrorKind::Architecture, "{e}");
    fs::write(&config, &text).unwrap();
    // A sentence longer than the model's positions: an error, not a crash.
    let s = Scorer::open(tmp.path()).unwrap();
    let long = vec!["x ".repeat(2000)];
    let e = s.score(&["y".to_owned()], &long).err().unwrap();
    assert_eq!(e.kind, ErrorKind::Compute);
    assert!(e.to_string().contains("positions"), "{e}");
}
