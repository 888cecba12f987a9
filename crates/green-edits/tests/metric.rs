//! ERRANT's span F and CLEME through the common `green_metric` path: statistics cut into
//! one-sentence shards, sent through JSON and merged, fold to the scores of one pass.

use std::path::Path;

use green_edits::{cleme, compare};
use green_metric::{Metric, Shard};

/// One-sentence shards of `stats`, each through JSON, merged in order.
fn merged<S: Clone + serde::Serialize + serde::de::DeserializeOwned>(stats: &[S]) -> Shard<S> {
    stats
        .chunks(1)
        .map(|c| {
            let shard = Shard::new("edits".into(), vec![c.to_vec()]).unwrap();
            serde_json::from_str(&serde_json::to_string(&shard).unwrap()).unwrap()
        })
        .fold(
            Shard::new("edits".into(), vec![Vec::new()]).unwrap(),
            |a, b| a.merge(b).unwrap(),
        )
}

#[test]
fn shards_fold_like_one_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    let (mut cases, mut cleme_cases) = (0, 0);
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        if read("args").contains("--cherrant") {
            continue;
        }
        let hyp = green_edits::parse(&read("hyp.m2"), "hyp.m2").unwrap();
        let reference = green_edits::parse(&read("ref.m2"), "ref.m2").unwrap();
        for beta in [0.5, 1.0] {
            let opts = compare::Options {
                beta,
                ..Default::default()
            };
            let stats = compare::corpus_stats(&hyp, &reference, &opts).unwrap();
            let metric = compare::Errant { beta };
            let totals = merged(&stats).fold(&metric, "edits").unwrap();
            let one = compare::score(&hyp, &reference, &opts).unwrap();
            assert_eq!(totals[0], one, "{}", dir.display());
            assert_eq!(metric.score(&totals[0]).to_bits(), one.score.f.to_bits());

            let opts = cleme::Options {
                beta,
                merge_distance: 0,
            };
            // CLEME takes a one-annotator hypothesis; some ERRANT cases have more.
            let Ok(stats) = cleme::corpus_stats(&hyp, &reference, &opts) else {
                continue;
            };
            cleme_cases += 1;
            let shard = merged(&stats);
            for independent in [false, true] {
                let metric = cleme::Cleme { beta, independent };
                let got = metric.score(&shard.fold(&metric, "edits").unwrap()[0]);
                let sentences = metric.sentence_scores(&shard.systems[0]);
                match cleme::fold(&stats, &opts) {
                    Ok(one) => {
                        let variant = if independent {
                            &one.independent
                        } else {
                            &one.dependent
                        };
                        assert_eq!(
                            got.to_bits(),
                            variant.corpus.f.to_bits(),
                            "{}",
                            dir.display()
                        );
                        let want = cleme::sentence_f(&stats, &opts, independent).unwrap();
                        assert_eq!(sentences, want);
                    }
                    // No reference changes anything: undefined, and NaN says so.
                    Err(_) => assert!(got.is_nan() && sentences.iter().all(|s| s.is_nan())),
                }
            }
        }
        cases += 1;
    }
    assert!(
        cases >= 3 && cleme_cases >= 2,
        "the hand-made cases are missing"
    );
}
