//! End to end on a hand-made dataset (tests/fixtures/tiny) with hand-computed answers.

use std::path::PathBuf;

use green_meta::dataset::{Dataset, Descriptor};
use green_meta::{run, Level, Metric, MetricConfig, Options};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

fn load(toml: &str) -> Result<Dataset, green_meta::Error> {
    let path = fixtures().join(toml);
    Dataset::load(Descriptor::load(path.to_str().unwrap())?, &fixtures())
}

#[test]
fn table_by_hand() {
    let data = load("tiny.toml").unwrap();
    let config = MetricConfig {
        metric: Metric::Green { n: 1, beta: 1.0 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let report = run(&[data], &[config], &Options::default()).unwrap();
    // EW: wins A>B 2, A>C 2, B>C 1, C>B 1 → A 1, B .25, C .25.
    assert_eq!(report.human[0].scores, [1.0, 0.25, 0.25]);
    // Corpus unigram F1: A TP 6 → 1; B TP 3 FN 4 → 0.6; C TP 4 FP 4 FN 2 → 4/7.
    let sys = &report.rows[0].system_scores[0].2;
    for (x, want) in sys.iter().zip([1.0, 0.6, 4.0 / 7.0]) {
        assert!((x - want).abs() < 1e-12, "{sys:?}");
    }
    let labels: Vec<String> = report.columns.iter().map(|c| c.label()).collect();
    assert_eq!(
        labels,
        [
            "tiny all sys r",
            "tiny all sys rho",
            "tiny AB sys r",
            "tiny AB sys rho",
            "tiny all sent acc",
            "tiny all sent tau",
            "tiny AB sent acc",
            "tiny AB sent tau"
        ]
    );
    let v = &report.rows[0].values;
    // r of (1, .6, 4/7) and (1, .25, .25) = 0.99823; rho: ranks (3,2,1) vs (3,1.5,1.5) → 1.5/√3.
    assert!((v[0].unwrap() - 0.99823).abs() < 1e-5, "{v:?}");
    assert!((v[1].unwrap() - 1.5 / 3f64.sqrt()).abs() < 1e-12);
    assert!(
        (v[2].unwrap() - 1.0).abs() < 1e-12 && (v[3].unwrap() - 1.0).abs() < 1e-12,
        "{v:?}"
    );
    // Sentence F1: s1 A 1, B 2/3, C .75; s2 A 1, B .5, C 1/3. Human pairs: A>B, A>C (both
    // sentences) agree; B>C (s1) and C>B (s2) disagree → 4 agree, 2 disagree.
    assert_eq!((v[4], v[5]), (Some(4.0 / 6.0), Some(2.0 / 6.0)));
    // On {A, B}: the two A>B pairs agree.
    assert_eq!((v[6], v[7]), (Some(1.0), Some(1.0)));
    // Tables come out in every format.
    assert!(report.tsv().starts_with("metric\ttiny tiny all sys r"));
    assert!(report
        .markdown()
        .contains("| GREEN word N=1 β=1 corpus | 0.998 | 0.866 |"));
    assert!(report.json().contains("\"system_scores\""));
}

#[test]
fn unknown_src_id_is_a_clear_error() {
    let e = load("tiny-bad-id.toml").unwrap_err().to_string();
    assert!(
        e.contains("judgments-bad-id.xml:8: src-id 7 matches no sentence of part 'p'"),
        "{e}"
    );
}
