//! PT-M2's `errant` and `senterrant` bases on the tiny BERT of tests/data/impara-tiny/se
//! (first layer, tests/data/ptm2-tiny-baseline.tsv) against the original PT-M2 scorer on
//! the same weights and ERRANT M2 files (scripts/ptm2-errant-oracle.py): every edit weight,
//! every sentence's P/R/F, their mean and the corpus P/R/F within 1e-5. The M2 files hold a
//! no-change UNK edit in each (dropped, as PT-M2 drops them), a noop line and a coder
//! without edits.

use std::fs;
use std::path::{Path, PathBuf};

use green_neural::ptm2::errant::{parse, Block};
use green_neural::ptm2::{corpus_level, sentence_level, BertScore, SentenceWeights};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn scorer() -> BertScore {
    BertScore::open(
        &data("impara-tiny/se"),
        1,
        Some(&data("ptm2-tiny-baseline.tsv")),
    )
    .unwrap()
}

fn blocks(name: &str) -> Vec<Block> {
    parse(&fs::read_to_string(data(name)).unwrap(), name).unwrap()
}

fn hyps() -> Vec<String> {
    fs::read_to_string(data("ptm2-sentences.hyp"))
        .unwrap()
        .lines()
        .map(|l| l.trim().to_owned())
        .collect()
}

fn weigh(
    gold: &[Block],
    system: &[Block],
    hyps: &[String],
) -> Result<Vec<SentenceWeights>, String> {
    scorer().weigh_errant(gold, system, hyps, ("gold.m2", "sys.m2"))
}

#[test]
fn matches_the_original() {
    let s = weigh(
        &blocks("ptm2-errant-gold.m2"),
        &blocks("ptm2-errant-sys.m2"),
        &hyps(),
    )
    .unwrap();
    let golden: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(data("ptm2-errant.golden.json")).unwrap())
            .unwrap();
    let mut worst = 0f64;
    let mut close = |what: String, ours: f64, theirs: f64| {
        let diff = (ours - theirs).abs();
        assert!(diff < 1e-5, "{what}: {ours} vs {theirs}");
        worst = worst.max(diff);
    };
    let rows = golden["sentences"].as_array().unwrap();
    assert_eq!(rows.len(), s.len());
    let stats: Vec<_> = s.iter().map(SentenceWeights::stats).collect();
    let (scores, mean) = sentence_level(&stats, 0.5);
    for (i, (row, (sent, prf))) in rows.iter().zip(s.iter().zip(&scores)).enumerate() {
        let theirs = row["weights"].as_array().unwrap();
        assert_eq!(theirs.len(), sent.annotators.len(), "sentence {}", i + 1);
        for (t, ours) in theirs.iter().zip(&sent.annotators) {
            let t = t.as_array().unwrap();
            assert_eq!(t.len(), ours.weights.len(), "sentence {}", i + 1);
            // Weights that are all 0 count 1/n each at sentence level (the golden's).
            let zero = ours.weights.iter().all(|(_, w)| *w == 0.0);
            for ((e, w), tw) in ours.weights.iter().zip(t) {
                assert_eq!(e.start as u64, tw[0].as_u64().unwrap());
                assert_eq!(e.end as u64, tw[1].as_u64().unwrap());
                let w = if zero { 1.0 / t.len() as f64 } else { *w };
                close(
                    format!("sentence {} weight", i + 1),
                    w,
                    tw[2].as_f64().unwrap(),
                );
            }
        }
        for (key, ours) in [("p", prf.precision), ("r", prf.recall), ("f", prf.f)] {
            close(
                format!("sentence {} {key}", i + 1),
                ours,
                row[key].as_f64().unwrap(),
            );
        }
    }
    close(
        "senterrant".into(),
        mean,
        golden["senterrant"].as_f64().unwrap(),
    );
    let (_, corpus) = corpus_level(&stats, 0.5);
    for (key, ours) in [
        ("p", corpus.precision),
        ("r", corpus.recall),
        ("f", corpus.f),
    ] {
        close(
            format!("errant {key}"),
            ours,
            golden["errant"][key].as_f64().unwrap(),
        );
    }
    eprintln!("max abs diff {worst:e}");
}

#[test]
fn reads_errant_m2_as_ptm2_does() {
    let b = parse(
        "S a b c\nA 0 1|||UNK|||x|||REQUIRED|||-NONE-|||1\nA 1 2|||R|||d|||REQUIRED|||-NONE-|||0\nA 1 2|||R|||d|||REQUIRED|||-NONE-|||0\n\nS a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS x\n",
        "t.m2",
    )
    .unwrap();
    // Coders in order of appearance; the UNK edit's coder kept without edits; duplicates merged.
    let coders: Vec<(i64, usize)> = b[0].coders.iter().map(|(c, e)| (*c, e.len())).collect();
    assert_eq!(coders, [(1, 0), (0, 1)]);
    assert_eq!(b[0].coders[1].1[0].original, "b");
    assert_eq!(b[1].coders, [(0, vec![])]);
    assert_eq!(b[2].coders, [(0, vec![])]);
}

#[test]
fn mismatches_are_errors() {
    let bad = |text: &str| parse(text, "t.m2").unwrap_err();
    assert!(bad("S a b\nA 1 3|||R|||x|||REQUIRED|||-NONE-|||0\n").contains("t.m2:2: the span 1 3"));
    assert!(bad("S a b\nA 0 1|||U|||-NONE-|||REQUIRED|||-NONE-|||0\n").contains("-NONE-"));
    assert!(bad("A 0 1|||U||||||REQUIRED|||-NONE-|||0\n").contains("t.m2:1: a block must start"));
    let gold = blocks("ptm2-errant-gold.m2");
    let system = blocks("ptm2-errant-sys.m2");
    let mut h = hyps();
    h[0] = "The cat sat on a mat .".into();
    let e = weigh(&gold, &system, &h).unwrap_err();
    assert!(
        e.starts_with("sys.m2:1: its edits give `The cat sat on the mat .`"),
        "{e}"
    );
    h.pop();
    let e = weigh(&gold, &system, &h).unwrap_err();
    assert!(
        e.contains("has 13 sentences, sys.m2 13 and the system output 12 lines"),
        "{e}"
    );
}
