//! Shards merge exactly: GREEN statistics of a corpus cut anywhere into shards, each
//! counted on its own (at any thread count) and merged in corpus order, give the report of
//! one pass bit for bit, including after a JSON round trip of every shard. The same holds
//! through the common [`green_metric::Metric`] path, for GREEN and the official GLEU.

use green_engine::gleu::{self, Gleu, GleuCounts};
use green_engine::score::Green;
use green_engine::{Accumulator, Config, Counter, Report, Scorer, Sentence, Whitespace};
use green_metric::{Metric, Shard};
use proptest::prelude::*;

fn sentence() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", "c", "the", "cat", ".", "é", "猫"]),
        0..10,
    )
    .prop_map(|w| w.join(" "))
}

/// Sentences of a source, one to three references and two systems.
fn corpus() -> impl Strategy<Value = Vec<Row>> {
    prop::collection::vec(
        (
            sentence(),
            prop::collection::vec(sentence(), 1..4),
            [sentence(), sentence()],
        ),
        1..30,
    )
}

type Row = (String, Vec<String>, [String; 2]);

/// `f` on the rows as engine sentences.
fn with_sentences<R>(rows: &[Row], f: impl FnOnce(&[Sentence]) -> R) -> R {
    let refs: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.1.iter().map(String::as_str).collect())
        .collect();
    let hyps: Vec<[&str; 2]> = rows
        .iter()
        .map(|r| [r.2[0].as_str(), r.2[1].as_str()])
        .collect();
    let sentences: Vec<Sentence> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Sentence {
            source: &r.0,
            refs: &refs[i],
            hyps: &hyps[i],
        })
        .collect();
    f(&sentences)
}

fn statistics(scorer: &Scorer<Whitespace>, rows: &[Row]) -> Accumulator {
    let mut acc = Accumulator::mergeable(&scorer.config, 2);
    for counts in with_sentences(rows, |s| scorer.count_batch(s)).unwrap() {
        acc.add(&counts).unwrap();
    }
    acc
}

fn one_pass(scorer: &Scorer<Whitespace>, rows: &[Row]) -> Report {
    with_sentences(rows, |s| scorer.evaluate_sentences(s, 2))
        .unwrap()
        .report
}

proptest! {
    #[test]
    fn shards_merge_into_one_pass(rows in corpus(), cuts in prop::collection::vec(0usize..30, 0..4), threads in 1usize..3) {
        let scorer = Scorer::new(Whitespace, Config::new(4, vec![0.5, 2.0, f64::INFINITY]).unwrap());
        let expected = one_pass(&scorer, &rows);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(rows.len())).collect();
        cuts.push(0);
        cuts.push(rows.len());
        cuts.sort_unstable();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let shards: Vec<Accumulator> = pool.install(|| {
            cuts.windows(2).map(|w| statistics(&scorer, &rows[w[0]..w[1]])).collect()
        });
        let mut merged = Accumulator::mergeable(&scorer.config, 2);
        for shard in &shards {
            let json = serde_json::to_string(shard).unwrap();
            let back: Accumulator = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, shard);
            merged.merge(&back).unwrap();
        }
        prop_assert_eq!(merged.sentences(), rows.len() as u64);
        let got = merged.finish();
        prop_assert_eq!(&got, &expected);
        for (g, e) in got.systems.iter().zip(&expected.systems) {
            for (g, e) in g.betas.iter().zip(&e.betas) {
                prop_assert_eq!(g.mean.to_bits(), e.mean.to_bits());
                prop_assert_eq!(g.corpus.to_bits(), e.corpus.to_bits());
            }
        }
    }
}

/// `stats[system][sentence]` cut at `cuts`, each piece through JSON, merged in order.
fn through_shards<S>(signature: &str, stats: Vec<Vec<S>>, cuts: &[usize]) -> Shard<S>
where
    S: Clone + serde::Serialize + serde::de::DeserializeOwned,
{
    cuts.windows(2)
        .map(|w| {
            let part = stats.iter().map(|s| s[w[0]..w[1]].to_vec()).collect();
            let json = serde_json::to_string(&Shard::new(signature.into(), part).unwrap()).unwrap();
            serde_json::from_str::<Shard<S>>(&json).unwrap()
        })
        .reduce(|a, b| a.merge(b).unwrap())
        .unwrap()
}

fn cut_points(cuts: Vec<usize>, len: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = cuts
        .into_iter()
        .map(|c| c.min(len))
        .chain([0, len])
        .collect();
    cuts.sort_unstable();
    cuts
}

proptest! {
    /// GREEN as a Metric: per-sentence region counts against every reference, merged shards
    /// folded, give the engine's corpus score and sentence scores bit for bit.
    #[test]
    fn green_metric_shards_fold_like_the_engine(rows in corpus(), cuts in prop::collection::vec(0usize..30, 0..4)) {
        let betas = vec![0.5, 2.0];
        let scorer = Scorer::new(Whitespace, Config::new(4, betas.clone()).unwrap());
        let expected = one_pass(&scorer, &rows);
        let counts = with_sentences(&rows, |s| scorer.count_batch(s)).unwrap();
        let stats: Vec<Vec<Vec<Vec<_>>>> = (0..2)
            .map(|h| {
                counts
                    .iter()
                    .map(|c| (0..c.refs).map(|r| c.get(h, r)[..4].to_vec()).collect())
                    .collect()
            })
            .collect();
        let merged = through_shards("green|n:4", stats, &cut_points(cuts, rows.len()));
        for (b, &beta) in betas.iter().enumerate() {
            let metric = Green { n: 4, beta };
            let totals = merged.fold(&metric, "green|n:4").unwrap();
            for (h, system) in expected.systems.iter().enumerate() {
                prop_assert_eq!(metric.score(&totals[h]).to_bits(), system.betas[b].corpus.to_bits());
                let sentences = metric.sentence_scores(&merged.systems[h]);
                let mean = sentences.iter().sum::<f64>() / sentences.len() as f64;
                prop_assert_eq!(mean.to_bits(), system.betas[b].mean.to_bits());
            }
        }
    }

    /// The official GLEU as a Metric: merged shards fold to the corpus GLEU of one pass
    /// (sampled references and `--max`).
    #[test]
    fn gleu_metric_shards_fold_like_one_pass(rows in corpus(), cuts in prop::collection::vec(0usize..30, 0..4)) {
        let mut counter = Counter::new();
        let all: Vec<GleuCounts> = rows
            .iter()
            .map(|r| {
                let refs: Vec<&str> = r.1.iter().map(String::as_str).collect();
                counter.count_gleu(&Whitespace, 4, &r.0, &refs, &[&r.2[0], &r.2[1]]).unwrap()
            })
            .collect();
        let stats: Vec<Vec<GleuCounts>> =
            (0..2).map(|h| all.iter().map(|c| c.hypothesis(h)).collect()).collect();
        let merged = through_shards("gleu|n:4", stats, &cut_points(cuts, rows.len()));
        for h in 0..2 {
            let sampled = Gleu { iterations: 20, max: false };
            let totals = merged.fold(&sampled, "gleu|n:4").unwrap();
            prop_assert_eq!(totals[h].to_bits(), gleu::sampled_corpus_score(&all, h, 20).to_bits());
            let max = Gleu { iterations: 1, max: true };
            let best = gleu::corpus_score(&all, h, &gleu::best_references(&all, h)).gleu;
            prop_assert_eq!(max.fold(&merged.systems[h]).to_bits(), best.to_bits());
            let sentences: Vec<u64> = all.iter().map(|c| gleu::sentence_score(c, h, false).to_bits()).collect();
            prop_assert_eq!(sampled.sentence_scores(&merged.systems[h]).iter().map(|x| x.to_bits()).collect::<Vec<_>>(), sentences);
        }
    }
}

#[test]
fn merging_refuses_other_settings_and_damaged_statistics() {
    let config = Config::new(4, vec![2.0]).unwrap();
    let mut a = Accumulator::mergeable(&config, 1);
    assert!(
        Accumulator::new(&config, 1).merge(&a.clone()).is_err(),
        "totals only"
    );
    assert!(a.merge(&Accumulator::mergeable(&config, 2)).is_err());
    let other = Config::new(3, vec![2.0]).unwrap();
    assert!(a.merge(&Accumulator::mergeable(&other, 1)).is_err());
    assert!(
        a.merge(&Accumulator::new(&config, 1)).is_err(),
        "totals only"
    );
    let mut json: serde_json::Value =
        serde_json::to_value(Accumulator::mergeable(&config, 1)).unwrap();
    json["sentences"] = 3.into();
    let damaged: Accumulator = serde_json::from_value(json).unwrap();
    let err = a.merge(&damaged).unwrap_err().to_string();
    assert!(err.contains("damaged"), "{err}");
}

/// Statistics edited after they were written: a score no sentence has, sums that are not the
/// sums of the scores, counts that wrap around u64. Each used to merge and print a score.
#[test]
fn merging_checks_what_no_counter_produces() {
    let scorer = Scorer::new(Whitespace, Config::new(2, vec![1.0]).unwrap());
    let rows: Vec<Row> = vec![
        (
            "a b c".into(),
            vec!["a x c".into()],
            ["a b c".into(), "a x c".into()],
        );
        3
    ];
    let good = statistics(&scorer, &rows);
    assert!(good.check().is_ok());
    let edit = |f: &dyn Fn(&mut serde_json::Value)| -> Accumulator {
        let mut json = serde_json::to_value(&good).unwrap();
        f(&mut json);
        serde_json::from_value(json).unwrap()
    };
    let above_one = edit(&|j| j["scores"][0] = 1.5.into());
    let err = good.clone().merge(&above_one).unwrap_err().to_string();
    assert!(err.contains("sentence 1 has a score of 1.5"), "{err}");
    let resummed = edit(&|j| j["sums"][0] = 0.25.into());
    let err = good.clone().merge(&resummed).unwrap_err().to_string();
    assert!(
        err.contains("not the sums of their sentence scores"),
        "{err}"
    );
    // A total no 3 sentences can have (u64::MAX would wrap around when added).
    let huge = edit(&|j| j["totals"][0]["tk"] = u64::MAX.into());
    let err = good.clone().merge(&huge).unwrap_err().to_string();
    assert!(
        err.contains("a total is larger than 3 sentences can have"),
        "{err}"
    );
}
