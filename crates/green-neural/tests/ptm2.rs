//! PT-M2 on the tiny BERT of tests/data/impara-tiny/se (its first layer, a baseline file
//! written for it) against the original PT-M2 scorer on the same weights
//! (scripts/ptm2-oracle.py): every edit weight, the sentence-level mean and the
//! corpus-level P/R/F within 1e-5; every sentence's P/R/F within 1e-5 on the written
//! sentences, 1e-3 on CoNLL-2014 (see `check`).

mod common;

use std::fs;
use std::path::Path;

use common::{conll14, data, lines};
use green_m2::{parse_gold, Alternatives};
use green_neural::ptm2::{corpus_level, sentence_level, BertScore, SentenceStats, SentenceWeights};
use green_neural::ErrorKind;

fn scorer(layers: usize) -> BertScore {
    BertScore::open(
        &data("impara-tiny/se"),
        layers,
        Some(&data("ptm2-tiny-baseline.tsv")),
    )
    .unwrap()
}

fn weigh(scorer: &BertScore, m2: &Path, hyp: &Path) -> Vec<SentenceWeights> {
    let gold = parse_gold(
        &fs::read_to_string(m2).unwrap(),
        &m2.display().to_string(),
        Alternatives::First,
    )
    .unwrap();
    let hyps: Vec<String> = lines(hyp).iter().map(|l| l.trim().to_owned()).collect();
    scorer.weigh(&gold.sentences, &hyps).unwrap()
}

/// The largest differences from the golden (weights and corpus scores, sentence scores),
/// asserting weights and corpus scores are under 1e-5 and sentence scores under
/// `sentence_tol`: a sentence's P and R are ratios of its weights, differences of float32
/// BERTScores, so where they are all small their rounding is magnified.
fn stats(sentences: &[SentenceWeights]) -> Vec<SentenceStats> {
    sentences.iter().map(SentenceWeights::stats).collect()
}

fn check(sentences: &[SentenceWeights], golden: &Path, sentence_tol: f64) -> (f64, f64) {
    let golden = common::golden(golden);
    let (mut worst, mut worst_sentence) = (0f64, 0f64);
    let mut close = |what: String, ours: f64, theirs: f64| {
        let diff = (ours - theirs).abs();
        assert!(diff < 1e-5, "{what}: {ours} vs {theirs}");
        worst = worst.max(diff);
    };
    let mut close_sentence = |what: String, ours: f64, theirs: f64| {
        let diff = (ours - theirs).abs();
        assert!(diff < sentence_tol, "{what}: {ours} vs {theirs}");
        worst_sentence = worst_sentence.max(diff);
    };
    let rows = golden["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), sentences.len());
    let (scores, mean) = sentence_level(&stats(sentences), 0.5);
    for (i, (row, (s, prf))) in rows.iter().zip(sentences.iter().zip(&scores)).enumerate() {
        let theirs = row["weights"].as_array().unwrap();
        assert_eq!(theirs.len(), s.annotators.len(), "sentence {}", i + 1);
        for (a, (t, ours)) in theirs.iter().zip(&s.annotators).enumerate() {
            let t = t.as_array().unwrap();
            assert_eq!(
                t.len(),
                ours.weights.len(),
                "sentence {} annotator {a}",
                i + 1
            );
            let zero = ours.weights.iter().all(|(_, w)| *w == 0.0);
            for ((e, w), tw) in ours.weights.iter().zip(t) {
                assert_eq!(e.start as u64, tw[0].as_u64().unwrap());
                assert_eq!(e.end as u64, tw[1].as_u64().unwrap());
                // Weights that are all 0 count 1/n each at sentence level.
                let w = if zero { 1.0 / t.len() as f64 } else { *w };
                close(
                    format!("sentence {} weight", i + 1),
                    w,
                    tw[2].as_f64().unwrap(),
                );
            }
        }
        for (key, ours) in [("p", prf.precision), ("r", prf.recall), ("f", prf.f)] {
            close_sentence(
                format!("sentence {} {key}", i + 1),
                ours,
                row[key].as_f64().unwrap(),
            );
        }
    }
    close("sentm2".into(), mean, golden["sentm2"].as_f64().unwrap());
    let (_, corpus) = corpus_level(&stats(sentences), 0.5);
    for (key, ours) in [
        ("p", corpus.precision),
        ("r", corpus.recall),
        ("f", corpus.f),
    ] {
        close(
            format!("m2 {key}"),
            ours,
            golden["m2"][key].as_f64().unwrap(),
        );
    }
    (worst, worst_sentence)
}

#[test]
fn matches_the_original_on_written_sentences() {
    let s = weigh(
        &scorer(1),
        &data("ptm2-sentences.m2"),
        &data("ptm2-sentences.hyp"),
    );
    let (worst, sentence) = check(&s, &data("ptm2-sentences.golden.json"), 1e-5);
    eprintln!("max abs diff {worst:e}, sentence scores {sentence:e}");
}

#[test]
#[ignore = "reads CoNLL-14 from $GREEN_SHARED"]
fn matches_the_original_on_conll14_amu() {
    let dir = conll14();
    let s = weigh(
        &scorer(1),
        &dir.join("conll14st-test.m2"),
        &dir.join("systems/AMU.txt"),
    );
    let (worst, sentence) = check(&s, &data("ptm2-conll14-amu.golden.json"), 1e-3);
    eprintln!(
        "max abs diff {worst:e}, sentence scores {sentence:e}, over {} sentences",
        s.len()
    );
}

#[test]
fn rescaling_scales_the_weights_not_the_scores() {
    let plain = BertScore::open(&data("impara-tiny/se"), 1, None).unwrap();
    let m2 = data("ptm2-sentences.m2");
    let hyp = data("ptm2-sentences.hyp");
    let (a, b) = (weigh(&plain, &m2, &hyp), weigh(&scorer(1), &m2, &hyp));
    let (fa, fb) = (
        sentence_level(&stats(&a), 0.5).1,
        sentence_level(&stats(&b), 0.5).1,
    );
    assert!((fa - fb).abs() < 1e-6, "{fa} {fb}");
    let wa = a[0].annotators[0].weights[0].1;
    let wb = b[0].annotators[0].weights[0].1;
    assert!((wa / (1.0 - 0.355) - wb).abs() < 1e-6, "{wa} {wb}");
}

#[test]
fn refuses_more_layers_than_the_model_has_and_bad_baselines() {
    let e = BertScore::open(&data("impara-tiny/se"), 3, None)
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::Architecture);
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("base.tsv");
    fs::write(&bad, "LAYER,P,R,F\n0,0.1,0.1,0.1\n").unwrap();
    let e = BertScore::open(&data("impara-tiny/se"), 1, Some(&bad))
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::Unreadable);
    assert!(e.to_string().contains("no row for 1 layers"), "{e}");
}

/// Statistics are plain data: through JSON and in two shards, the report is the same.
#[test]
fn statistics_travel_and_concatenate() {
    let s = stats(&weigh(
        &scorer(1),
        &data("ptm2-sentences.m2"),
        &data("ptm2-sentences.hyp"),
    ));
    let text = serde_json::to_string(&s).unwrap();
    let back: Vec<SentenceStats> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let (head, tail) = s.split_at(s.len() / 2);
    let joined: Vec<SentenceStats> = head.iter().chain(tail).cloned().collect();
    assert_eq!(corpus_level(&joined, 0.5), corpus_level(&s, 0.5));
}

/// As a `green_metric::Metric`, PT-M2 folds any multiset of sentences (a view, a bootstrap
/// replicate) as `corpus_level` folds those sentences written out, bit for bit, and its
/// sentence scores are `sentence_level`'s.
#[test]
fn folds_are_the_corpus_level_of_the_sentences_they_repeat() {
    use green_metric::{Folds, Metric, Resample};
    use green_neural::ptm2::Ptm2;
    let s = stats(&weigh(
        &scorer(1),
        &data("ptm2-sentences.m2"),
        &data("ptm2-sentences.hyp"),
    ));
    let metric = Ptm2 { beta: 0.5 };
    let folds = Folds {
        metric,
        stats: vec![s.clone()],
    };
    let all: Vec<usize> = (0..s.len()).collect();
    let whole = folds.score(&all, &vec![1; s.len()], 0);
    assert_eq!(whole.to_bits(), corpus_level(&s, 0.5).1.f.to_bits());
    let picks = [(3, 2), (0, 1), (7, 0), (12, 3), (3, 1)];
    let (sentences, weights): (Vec<usize>, Vec<u32>) = picks.iter().copied().unzip();
    let repeated: Vec<SentenceStats> = picks
        .iter()
        .flat_map(|&(i, w)| std::iter::repeat_n(s[i].clone(), w as usize))
        .collect();
    assert_eq!(
        folds.score(&sentences, &weights, 0).to_bits(),
        corpus_level(&repeated, 0.5).1.f.to_bits()
    );
    let own: Vec<f64> = sentence_level(&s, 0.5).0.iter().map(|p| p.f).collect();
    assert_eq!(metric.sentence_scores(&s), own);
}
