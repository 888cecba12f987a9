//! Replays cases whose expected output the original m2scorer produced (`scripts/fuzz-m2scorer.py
//! --record`): hand-made ones in `fixtures/cases/` (ties, duplicated and out-of-order gold
//! edits, `||` alternatives, insertions at the start, noop-only annotators, blocks without an
//! A line, several S lines in a block, unchanged-word limits, whitespace/casing with Unicode
//! 5.2's letter case, Unicode whitespace, tied annotators in Python 2 dict order) and any the
//! fuzzer found in `fixtures/parity/`. Scores and every sentence's chosen annotator, counts
//! and edits must be identical.

use std::path::Path;

use green_m2::{parse_gold, sentence_table, system_lines, Alternatives, Options};

fn options(args: &str) -> Options {
    let mut o = Options::default();
    let mut it = args.split_whitespace();
    while let Some(a) = it.next() {
        match a {
            "--beta" => o.beta = it.next().unwrap().parse().unwrap(),
            "--max_unchanged_words" => o.max_unchanged_words = it.next().unwrap().parse().unwrap(),
            "--ignore_whitespace_casing" => o.ignore_whitespace_casing = true,
            other => panic!("unknown option {other}"),
        }
    }
    o
}

fn replay(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries {
        let case = entry.unwrap().path();
        let read = |f: &str| std::fs::read_to_string(case.join(f)).unwrap();
        let opts = options(&read("args"));
        let gold = parse_gold(&read("gold.m2"), "gold.m2", Alternatives::First).unwrap();
        let system = read("system.txt");
        let hyps: Vec<String> = system_lines(&system)
            .into_iter()
            .map(String::from)
            .collect();
        let report = green_m2::score(&gold, &hyps, &opts).unwrap();
        assert_eq!(
            green_m2::render(&report.score, opts.beta),
            read("expected.txt"),
            "{}",
            case.display()
        );
        assert_eq!(
            sentence_table(&report),
            read("expected.tsv"),
            "{}",
            case.display()
        );
        n += 1;
    }
    n
}

#[test]
fn cases_equal_the_original() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    assert!(replay(&here.join("cases")) >= 16);
    replay(&here.join("parity"));
}

#[test]
fn statistics_serialise_and_fold_in_shards() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cases/annotator-ties");
    let gold = parse_gold(
        &std::fs::read_to_string(dir.join("gold.m2")).unwrap(),
        "gold.m2",
        Alternatives::First,
    )
    .unwrap();
    let hyps = ["a y b".to_string(), "r s".to_string()];
    let opts = Options::default();
    let stats = green_m2::corpus_stats(&gold, &hyps, &opts).unwrap();
    // Each shard's statistics travel as JSON and fold, in order, to the same report.
    let shards: Vec<String> = stats
        .chunks(1)
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    let back: Vec<green_m2::SentenceStats> = shards
        .iter()
        .flat_map(|s| serde_json::from_str::<Vec<green_m2::SentenceStats>>(s).unwrap())
        .collect();
    let report = green_m2::score(&gold, &hyps, &opts).unwrap();
    assert_eq!(green_m2::fold(&back, opts.beta), report);
    // The same through the common Metric path: shards of one sentence each, merged.
    use green_metric::{Metric, Shard};
    let metric = green_m2::MaxMatch { beta: opts.beta };
    let merged = stats
        .chunks(1)
        .map(|c| Shard::new("m2".into(), vec![c.to_vec()]).unwrap())
        .reduce(|a, b| a.merge(b).unwrap())
        .unwrap();
    let totals = merged.fold(&metric, "m2").unwrap();
    assert_eq!(totals[0], report.totals);
    assert_eq!(metric.score(&totals[0]).to_bits(), report.score.f.to_bits());
}
