//! IMPARA on tiny random models (tests/data/impara-tiny, made by
//! scripts/impara-tiny-models.py) against gec-metrics' own impara.py on the same weights
//! (scripts/impara-oracle.py), in both layouts a quality estimator comes in.

mod common;

use std::fs;
use std::path::Path;

use common::{conll14, conll14_amu, copy_models, data, edit_config, lines, sentences};
use green_neural::impara::{self, Scorer, SentenceScore, THRESHOLD};
use green_neural::ErrorKind;

fn scorer(qe: &str) -> Scorer {
    Scorer::open(&data(&format!("impara-tiny/{qe}")), &data("impara-tiny/se")).unwrap()
}

/// Each sentence's similarity, quality and score, and the corpus score, within 1e-5 of the
/// golden; the golden's similarities are far enough from its threshold that the gate is the
/// same whatever the float rounding.
fn check(scores: &[SentenceScore], golden: &Path) -> f64 {
    let golden = common::golden(golden);
    let threshold = golden["threshold"].as_f64().unwrap();
    let rows = golden["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), scores.len());
    let mut worst = 0f64;
    for (i, (row, s)) in rows.iter().zip(scores).enumerate() {
        let se = row["se"].as_f64().unwrap();
        assert!(
            (se - threshold).abs() > 1e-5,
            "sentence {}: gate too close",
            i + 1
        );
        for (key, ours) in [("se", s.similarity), ("qe", s.quality), ("score", s.impara)] {
            let theirs = row[key].as_f64().unwrap();
            let diff = (ours - theirs).abs();
            assert!(diff < 1e-5, "sentence {} {key}: {ours} vs {theirs}", i + 1);
            worst = worst.max(diff);
        }
    }
    let corpus = golden["corpus"].as_f64().unwrap();
    assert!((impara::corpus(scores) - corpus).abs() < 1e-5);
    worst
}

#[test]
fn matches_gec_metrics_with_its_qe_layout() {
    let (src, hyp) = sentences();
    let scores = scorer("qe").score(&src, &hyp, THRESHOLD).unwrap();
    let worst = check(&scores, &data("impara-sentences.golden.json"));
    eprintln!("max abs diff {worst:e} over {} sentences", scores.len());
    // Some are gated, some not.
    assert!(scores.iter().any(|s| s.impara == 0.0));
    assert!(scores.iter().any(|s| s.impara > 0.0));
}

#[test]
fn matches_gec_metrics_with_a_trained_qe_without_tokenizer() {
    let (src, hyp) = sentences();
    let s = scorer("qe-trained");
    // No tokenizer beside the regressor: the similarity estimator's is read.
    let [qe, se] = s.tokenizer_files();
    assert_eq!(qe, se);
    let scores = s.score(&src, &hyp, 0.97).unwrap();
    let worst = check(&scores, &data("impara-trained-sentences.golden.json"));
    eprintln!("max abs diff {worst:e} over {} sentences", scores.len());
}

#[test]
fn batch_size_does_not_change_scores() {
    let (src, hyp) = sentences();
    let mut s = scorer("qe");
    let all = s.score(&src, &hyp, THRESHOLD).unwrap();
    s.batch_size = 1;
    let one = s.score(&src, &hyp, THRESHOLD).unwrap();
    for (a, b) in all.iter().zip(&one) {
        assert!((a.similarity - b.similarity).abs() < 1e-6, "{a:?} {b:?}");
        assert!((a.quality - b.quality).abs() < 1e-6, "{a:?} {b:?}");
    }
}

#[test]
#[ignore = "reads CoNLL-14 from $GREEN_SHARED"]
fn matches_gec_metrics_on_conll14_amu() {
    let (src, hyp) = conll14_amu();
    let scores = scorer("qe").score(&src, &hyp, THRESHOLD).unwrap();
    let worst = check(&scores, &data("impara-conll14-amu.golden.json"));
    eprintln!("max abs diff {worst:e} over {} sentences", scores.len());
}

fn open_error(dir: &Path, qe: &str) -> green_neural::Error {
    match Scorer::open(&dir.join(qe), &dir.join("se")) {
        Ok(_) => panic!("{} opened", dir.display()),
        Err(e) => e,
    }
}

#[test]
fn missing_files_are_named() {
    let tmp = copy_models("impara-tiny");
    fs::remove_file(tmp.path().join("qe/model.safetensors")).unwrap();
    let e = open_error(tmp.path(), "qe");
    assert_eq!(e.kind, ErrorKind::Missing);
    assert!(e.to_string().contains("model.safetensors"), "{e}");

    let tmp = copy_models("impara-tiny");
    fs::remove_file(tmp.path().join("se/config.json")).unwrap();
    let e = open_error(tmp.path(), "qe");
    assert_eq!(e.kind, ErrorKind::Missing);
    assert!(e.path.ends_with("se/config.json"), "{e}");

    // A trained QE without a tokenizer, and none beside the similarity estimator either.
    let tmp = copy_models("impara-tiny");
    for f in ["tokenizer.json", "vocab.txt"] {
        fs::remove_file(tmp.path().join("se").join(f)).unwrap();
    }
    let e = open_error(tmp.path(), "qe-trained");
    assert_eq!(e.kind, ErrorKind::Missing);
    assert!(e.to_string().contains("tokenizer"), "{e}");

    let e = open_error(tmp.path(), "no-such-dir");
    assert_eq!(e.kind, ErrorKind::Missing);
}

#[test]
fn wrong_architecture_is_refused() {
    // A similarity estimator in the quality estimator's place: no classifier head.
    let tmp = copy_models("impara-tiny");
    let e = match Scorer::open(&tmp.path().join("se"), &tmp.path().join("se")) {
        Ok(_) => panic!("opened"),
        Err(e) => e,
    };
    assert_eq!(e.kind, ErrorKind::Architecture);

    let tmp = copy_models("impara-tiny");
    edit_config(
        &tmp.path().join("se/config.json"),
        "model_type",
        "gpt2".into(),
    );
    let e = open_error(tmp.path(), "qe");
    assert_eq!(e.kind, ErrorKind::Architecture);
    assert!(e.to_string().contains("gpt2"), "{e}");

    let tmp = copy_models("impara-tiny");
    edit_config(&tmp.path().join("qe/config.json"), "num_labels", 2.into());
    assert_eq!(open_error(tmp.path(), "qe").kind, ErrorKind::Architecture);

    let tmp = copy_models("impara-tiny");
    edit_config(&tmp.path().join("se/config.json"), "hidden_size", 64.into());
    let e = open_error(tmp.path(), "qe");
    assert_eq!(e.kind, ErrorKind::Architecture);
    assert!(e.to_string().contains("do not fit"), "{e}");

    let tmp = copy_models("impara-tiny");
    edit_config(
        &tmp.path().join("qe/config.json"),
        "max_position_embeddings",
        64.into(),
    );
    assert_eq!(open_error(tmp.path(), "qe").kind, ErrorKind::Architecture);
}

#[test]
fn a_tokenizer_that_does_not_fit_is_refused() {
    let tmp = copy_models("impara-tiny");
    fs::remove_file(tmp.path().join("qe/tokenizer.json")).unwrap();
    let vocab = tmp.path().join("qe/vocab.txt");
    let mut text = fs::read_to_string(&vocab).unwrap();
    text += &(0..50).map(|i| format!("extra{i}\n")).collect::<String>();
    fs::write(&vocab, text).unwrap();
    let e = open_error(tmp.path(), "qe");
    assert_eq!(e.kind, ErrorKind::Vocab);
    assert!(e.to_string().contains("tokenizer"), "{e}");
}

#[test]
fn long_inputs_are_cut_to_128_tokens() {
    let s = scorer("qe");
    let long = vec!["word ".repeat(400)];
    let short = vec!["word ".repeat(126)];
    // Over the limit: cut as the original does, not a crash; the first 126 words either way.
    let a = s.score(&long, &long, THRESHOLD).unwrap();
    let b = s.score(&short, &short, THRESHOLD).unwrap();
    assert_eq!(a, b);
}

#[test]
#[ignore = "reads CoNLL-14 from $GREEN_SHARED"]
fn ranks_conll14_systems_as_gec_metrics() {
    let golden = common::golden(&data("impara-conll14-systems.golden.json"));
    let dir = conll14();
    let src = lines(&dir.join("source.txt"));
    let s = scorer("qe");
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for (name, score) in golden["systems"].as_object().unwrap() {
        let hyp = lines(&dir.join(format!("systems/{name}.txt")));
        let corpus = impara::corpus(&s.score(&src, &hyp, THRESHOLD).unwrap());
        let golden = score.as_f64().unwrap();
        assert!(
            (corpus - golden).abs() < 1e-5,
            "{name}: {corpus} vs {golden}"
        );
        ours.push((corpus, name.clone()));
        theirs.push((golden, name.clone()));
    }
    let rank = |v: &mut Vec<(f64, String)>| {
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        v.iter().map(|(_, n)| n.clone()).collect::<Vec<_>>()
    };
    assert_eq!(rank(&mut ours), rank(&mut theirs));
}

/// The similarity estimator saved as a bare `BertModel` (names without `bert.`, LayerNorm
/// `weight`/`bias`, no heads) scores as the Hub-style checkpoint it was made from.
#[test]
fn a_bare_bert_model_is_read_as_the_hub_checkpoint() {
    let tmp = copy_models("impara-tiny");
    let se = tmp.path().join("se");
    let tensors =
        candle_core::safetensors::load(se.join("model.safetensors"), &candle_core::Device::Cpu)
            .unwrap();
    let bare: std::collections::HashMap<String, candle_core::Tensor> = tensors
        .into_iter()
        .filter_map(|(name, t)| {
            let name = name.strip_prefix("bert.")?;
            let name = name.replace("LayerNorm.gamma", "LayerNorm.weight");
            Some((name.replace("LayerNorm.beta", "LayerNorm.bias"), t))
        })
        .collect();
    assert!(bare.contains_key("embeddings.LayerNorm.weight"));
    candle_core::safetensors::save(&bare, se.join("model.safetensors")).unwrap();
    let (src, hyp) = sentences();
    let theirs = scorer("qe").score(&src, &hyp, THRESHOLD).unwrap();
    let ours = Scorer::open(&tmp.path().join("qe"), &se)
        .unwrap()
        .score(&src, &hyp, THRESHOLD)
        .unwrap();
    assert_eq!(ours, theirs);
}
