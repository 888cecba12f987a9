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

#[test]
fn bootstrap_intervals_by_hand() {
    let config = MetricConfig {
        metric: Metric::Green { n: 1, beta: 1.0 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let options = Options {
        bootstrap: Some(green_meta::Bootstrap::new(400, 3, 0.95).unwrap()),
        ..Options::default()
    };
    let run_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                run(
                    &[load("tiny.toml").unwrap()],
                    std::slice::from_ref(&config),
                    &options,
                )
                .unwrap()
            })
    };
    let report = run_with(1);
    let row = &report.rows[0];
    assert_eq!(row.intervals.len(), row.values.len());
    // The estimate of every interval is the table's own number.
    for (iv, v) in row.intervals.iter().zip(&row.values) {
        assert_eq!(iv.map(|i| i.estimate), *v);
    }
    // Both sentences on their own give 2 agreeing and 1 disagreeing pair (see table_by_hand),
    // so every resample of the two sentences has accuracy 2/3 and tau 1/3 exactly.
    let acc = row.intervals[4].unwrap();
    assert_eq!((acc.low, acc.high), (4.0 / 6.0, 4.0 / 6.0));
    let tau = row.intervals[5].unwrap();
    assert_eq!((tau.low, tau.high), (2.0 / 6.0, 2.0 / 6.0));
    // Identical at any thread count.
    assert_eq!(
        format!("{:?}", row.intervals),
        format!("{:?}", run_with(3).rows[0].intervals)
    );
    assert!(report
        .markdown()
        .contains("percentile bootstrap, 400 replicates"));
}

#[test]
fn bootstrap_resamples_corpus_gleu_with_its_draws() {
    let gleu = MetricConfig {
        metric: Metric::Gleu {
            n: 1,
            iterations: 10,
            seed: 0,
            smooth: true,
        },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let options = Options {
        bootstrap: Some(green_meta::Bootstrap::new(10, 0, 0.95).unwrap()),
        ..Options::default()
    };
    let report = run(
        &[load("tiny.toml").unwrap()],
        std::slice::from_ref(&gleu),
        &options,
    )
    .unwrap();
    let row = &report.rows[0];
    assert_eq!(row.intervals.len(), report.columns.len());
    // Every number has an interval around the table's own number.
    for (iv, v) in row.intervals.iter().zip(&row.values) {
        assert_eq!(iv.map(|i| i.estimate), *v);
        if let Some(i) = iv {
            assert!(i.low <= i.estimate && i.estimate <= i.high, "{i:?}");
        }
    }
    assert!(row.intervals.iter().any(Option::is_some));
    // A seed whose draws would not fit CPython's seeding in 64 bits is one clear error.
    let mut huge = gleu;
    huge.metric = Metric::Gleu {
        n: 1,
        iterations: 10,
        seed: u64::MAX / 500,
        smooth: true,
    };
    let err = run(&[load("tiny.toml").unwrap()], &[huge], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("too large for GLEU's 10 reference draws"),
        "{err}"
    );
    assert!(green_meta::Bootstrap::new(0, 0, 0.95).is_err());
    assert!(green_meta::Bootstrap::new(10, 0, 1.0).is_err());
}

#[test]
fn a_system_without_judgments_is_an_error() {
    let err = load("tiny-unjudged.toml").unwrap_err().to_string();
    assert!(err.contains("no judgment of system(s) D"), "{err}");
}

#[test]
fn external_rows_and_sentence_export() {
    use green_meta::report::External;
    let config = MetricConfig {
        metric: Metric::Green { n: 1, beta: 1.0 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    // Scores equal to GREEN's own system scores (1, .6, 4/7) give the same r and rho.
    let text =
        "# a comment\nmine\ttiny\tA\t1\nmine\ttiny\tB\t0.6\r\nmine\ttiny\tC\t0.5714285714285714\n";
    let external = External::parse(text, "ext.tsv").unwrap();
    let data = load("tiny.toml").unwrap();
    let options = Options {
        external,
        ..Options::default()
    };
    let report = run(std::slice::from_ref(&data), &[config], &options).unwrap();
    let (green, mine) = (&report.rows[0].values, &report.rows[1].values);
    assert_eq!(report.rows[1].label, "mine");
    assert!((green[0].unwrap() - mine[0].unwrap()).abs() < 1e-12);
    assert_eq!(green[1], mine[1]);
    assert_eq!(&mine[4..], &[None, None, None, None]);
    // Sentence F1 (see table_by_hand): s1 A 1, B 2/3, C .75.
    let tsv = report.sentences_tsv(&[data]);
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines[0], "metric\tdataset\tsentence\tA\tB\tC");
    assert_eq!(
        lines[1],
        "GREEN word N=1 β=1 corpus\ttiny\t1\t1\t0.6666666666666666\t0.75"
    );
    assert_eq!(lines.len(), 3);
    // Errors name the file and line, or what is missing.
    let err = External::parse("mine\ttiny\tA\n", "ext.tsv")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("ext.tsv:1: expected"), "{err}");
    let err = External::parse("m\ttiny\tA\tNaN\n", "ext.tsv")
        .unwrap_err()
        .to_string();
    assert!(err.contains("finite"), "{err}");
    let partial = Options {
        external: External::parse("mine\ttiny\tA\t1\n", "x").unwrap(),
        ..Options::default()
    };
    let config = MetricConfig {
        metric: Metric::Green { n: 1, beta: 1.0 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let err = run(&[load("tiny.toml").unwrap()], &[config], &partial)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no score for system 'B' of dataset tiny"),
        "{err}"
    );
}

#[test]
fn permutation_p_values_by_hand() {
    let config = MetricConfig {
        metric: Metric::Green { n: 1, beta: 1.0 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let options = Options {
        permutation: true,
        ..Options::default()
    };
    let report = run(&[load("tiny.toml").unwrap()], &[config], &options).unwrap();
    let p = &report.rows[0].p_values;
    // Human EW (1, .25, .25) has 6 orders, two of them (the tied pair swapped) the observed
    // one; the others give |r| of about .48 and .59, below the observed .998: p = 2/6.
    assert!((p[0].unwrap() - 1.0 / 3.0).abs() < 1e-12, "{p:?}");
    assert_eq!(&p[4..], &[None, None, None, None]);
    assert!(report.markdown().contains("(p=0.333)"));
}

#[test]
fn errant_and_cleme_rows_from_extracted_edits() {
    let data = load("tiny.toml").unwrap();
    let configs = MetricConfig::edit_rows(
        "word",
        Default::default(),
        Level::Corpus,
        false,
        true,
        false,
    );
    assert_eq!(configs.len(), 3);
    let report = run(&[data], &configs, &Options::default()).unwrap();
    // Reference edits c→d and y→z. A makes both (F 1); B none (P 1, R 0: F 0); C makes c→e
    // and the merged [x y → q r], both wrong (F 0). CLEME's chunks give the same outcomes.
    for row in &report.rows {
        assert_eq!(row.system_scores[0].2, vec![1.0, 0.0, 0.0], "{}", row.label);
    }
    let labels: Vec<&str> = report.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "ERRANT word β=0.5 corpus",
            "CLEME-dep word β=0.5 corpus",
            "CLEME-ind word β=0.5 corpus"
        ]
    );
}

#[test]
fn bootstrap_refolds_corpus_edit_metrics() {
    let options = Options {
        bootstrap: Some(green_meta::Bootstrap::new(200, 0, 0.95).unwrap()),
        ..Options::default()
    };
    let configs = MetricConfig::edit_rows(
        "word",
        Default::default(),
        Level::Corpus,
        false,
        true,
        false,
    );
    let report = run(&[load("tiny.toml").unwrap()], &configs, &options).unwrap();
    for row in &report.rows {
        let some: Vec<_> = row.intervals.iter().flatten().collect();
        assert!(!some.is_empty(), "{}: no interval", row.label);
        for i in some {
            assert!(i.low <= i.high, "{}: {i:?}", row.label);
        }
    }
}

/// What used to change a correlation or print NA with exit 0: a judgment whose doc-id names
/// no part (dropped), a view naming an unknown part (read as the first), a published score
/// that is not a number (NaN), a conflicting second external score (ignored).
#[test]
fn silent_drops_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("j.xml");
    std::fs::write(
        &xml,
        std::fs::read_to_string(fixtures().join("judgments.xml"))
            .unwrap()
            .replace(
                r#"src-id="1" user="u1""#,
                r#"src-id="1" user="u1" doc-id="mine""#,
            )
            .replace(
                r#"src-id="2" user="u1""#,
                r#"src-id="2" user="u1" doc-id="other""#,
            ),
    )
    .unwrap();
    let nan = dir.path().join("ew.txt");
    std::fs::write(&nan, "0.5\nnan\n0.25\n").unwrap();
    let descriptor = |part_doc: &str, view: &str| {
        let toml = dir.path().join("d.toml");
        std::fs::write(
            &toml,
            format!(
                r#"name = "tiny"
systems = ["A", "B", "C"]
[[parts]]
name = "p"
source = "source.txt"
references = ["ref.txt"]
hypotheses = "systems/{{system}}.txt"
src_id_base = 1
{part_doc}
[[human]]
name = "tiny"
judgments = "{}"
{view}
[[sets]]
name = "all"
"#,
                xml.display()
            ),
        )
        .unwrap();
        Descriptor::load(toml.to_str().unwrap())
            .and_then(|d| Dataset::load(d, &fixtures()))
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let e = descriptor("doc_id = \"mine\"", "").unwrap_err();
    assert!(
        e.contains("j.xml:8: doc-id 'other' matches no part of dataset tiny"),
        "{e}"
    );
    let e = descriptor("", "parts = [\"q\"]").unwrap_err();
    assert!(
        e.contains("human view 'tiny' names unknown part 'q'"),
        "{e}"
    );
    let e = descriptor("", &format!("published_ew = \"{}\"", nan.display())).unwrap_err();
    assert!(
        e.contains("ew.txt:2: \"nan\" is not a finite number"),
        "{e}"
    );

    let mut external = Vec::new();
    green_meta::report::External::parse_into(&mut external, "m\ttiny\tA\t0.5\n", "a.tsv").unwrap();
    green_meta::report::External::parse_into(&mut external, "m\ttiny\tA\t0.5\n", "b.tsv").unwrap();
    let e = green_meta::report::External::parse_into(&mut external, "\nm\ttiny\tA\t0.7\n", "c.tsv")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("c.tsv:2: metric 'm' scores system 'A' of tiny 0.7, but a.tsv:1 gave it 0.5"),
        "{e}"
    );
}

#[test]
fn cleme2_and_gotoscorer_rows_from_extracted_edits() {
    let data = load("tiny.toml").unwrap();
    let configs = MetricConfig::cleme2_gotoscorer_rows("word", Default::default(), Level::Corpus);
    let report = run(&[data], &configs, &Options::default()).unwrap();
    let labels: Vec<&str> = report.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "CLEME2-dep word corpus",
            "CLEME2-dep-length word corpus",
            "CLEME2-ind word corpus",
            "CLEME2-ind-length word corpus",
            "GoToScorer word β=0.5 corpus",
            "GoToScorer-weighted word β=0.5 corpus"
        ]
    );
    // A makes both reference edits: every rate perfect, com 1 and F 1. B makes none: CLEME2
    // com = 0.35 (no wrong) + 0.05 (no over-correction) = 0.4; GoToScorer F 0 (P 1, R 0).
    // C's edits are both wrong: below A.
    for row in &report.rows {
        let s = &row.system_scores[0].2;
        assert!((s[0] - 1.0).abs() < 1e-12, "{}: {s:?}", row.label);
        if row.label.starts_with("CLEME2") {
            assert!((s[1] - 0.4).abs() < 1e-12, "{}: {s:?}", row.label);
        } else {
            assert_eq!(s[1], 0.0, "{}", row.label);
        }
        assert!(s[2] < s[0], "{}: {s:?}", row.label);
    }
}

/// `edit_references = "m2"`: ERRANT rows take the references' edits from the M2 file as
/// written (as `errant_compare -ref FILE.m2`), not from the reference texts. The M2 file's
/// second edit spans "x y" → "x z" where extraction from the text finds y → z, so A's y → z
/// is a false positive and the missed span a false negative.
#[test]
fn errant_reads_reference_edits_from_the_m2_file() {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "judgments.xml",
        "systems/A.txt",
        "systems/B.txt",
        "systems/C.txt",
    ] {
        let to = dir.path().join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(fixtures().join(f), to).unwrap();
    }
    std::fs::write(
        dir.path().join("gold.m2"),
        "S a b c\nA 2 3|||X|||d|||REQUIRED|||-NONE-|||0\n\nS x y\nA 0 2|||X|||x z|||REQUIRED|||-NONE-|||0\n\n",
    )
    .unwrap();
    let descriptor = |references: &str| {
        format!(
            "name = \"tiny-m2\"\nsystems = [\"A\", \"B\", \"C\"]\n[[parts]]\nname = \"p\"\nm2 = \"gold.m2\"\n{references}hypotheses = \"systems/{{system}}.txt\"\nsrc_id_base = 1\n[[human]]\nname = \"tiny\"\njudgments = \"judgments.xml\"\n[[sets]]\nname = \"all\"\n"
        )
    };
    let errant = |references: &str| {
        let path = dir.path().join("d.toml");
        std::fs::write(&path, descriptor(references)).unwrap();
        let d = Descriptor::load(path.to_str().unwrap())?;
        let data = Dataset::load(d, dir.path())?;
        let config = MetricConfig {
            metric: Metric::Errant { beta: 0.5 },
            tokenizer: "word".into(),
            normalization: Default::default(),
            level: Level::Corpus,
        };
        let report = run(&[data], &[config], &Options::default())?;
        Ok::<_, green_meta::Error>(report.rows[0].system_scores[0].2.clone())
    };
    assert_eq!(errant("").unwrap(), vec![1.0, 0.0, 0.0]);
    assert_eq!(
        errant("edit_references = \"texts\"\n").unwrap(),
        vec![1.0, 0.0, 0.0]
    );
    // A: TP 1, FP 1, FN 1.
    assert_eq!(
        errant("edit_references = \"m2\"\n").unwrap(),
        vec![0.5, 0.0, 0.0]
    );
    let e = errant("edit_references = \"spans\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("use texts") && e.contains("or m2"), "{e}");
}

/// Sentence scores computed elsewhere (the CLI's model-based metrics) make a row like a
/// mean-level configuration's, and with their statistics a row like a corpus-level one's:
/// GREEN's own sentence scores and statistics given back score as GREEN does, bootstrap
/// intervals included, at any thread count.
#[test]
fn scored_rows_are_rows_of_their_sentence_scores_or_statistics() {
    use green_meta::metric::{self, Counts};
    use green_meta::report::Scored;
    let configs: Vec<MetricConfig> = [Level::Corpus, Level::Mean]
        .map(|level| MetricConfig {
            metric: Metric::Green { n: 1, beta: 1.0 },
            tokenizer: "word".into(),
            normalization: Default::default(),
            level,
        })
        .to_vec();
    let data = load("tiny.toml").unwrap();
    let options = Options {
        bootstrap: Some(green_meta::Bootstrap::new(200, 5, 0.95).unwrap()),
        ..Options::default()
    };
    let green = run(std::slice::from_ref(&data), &configs, &options).unwrap();
    let sentences = green.rows[1].sentence_scores.clone();
    let counts = Counts::new(&data, "word", Default::default(), 1).unwrap();
    let folds = metric::score(&data, &counts, &configs[0])
        .unwrap()
        .folds
        .unwrap();
    let options = Options {
        scored: vec![
            Scored {
                label: "copy corpus".into(),
                sentences: sentences.clone(),
                folds: vec![("tiny".into(), folds)],
            },
            Scored {
                label: "copy mean".into(),
                sentences,
                folds: Vec::new(),
            },
        ],
        ..options
    };
    let run_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(std::slice::from_ref(&data), &configs, &options).unwrap())
    };
    let report = run_with(1);
    for (ours, copy) in green.rows.iter().zip(&report.rows[2..]) {
        assert!(copy.config.is_none());
        assert_eq!(format!("{:?}", ours.values), format!("{:?}", copy.values));
        assert_eq!(ours.system_scores, copy.system_scores);
        assert!(copy.intervals.iter().any(Option::is_some), "{}", copy.label);
        assert_eq!(
            format!("{:?}", ours.intervals),
            format!("{:?}", copy.intervals),
            "{}",
            copy.label
        );
    }
    assert_eq!(
        format!("{:?}", report.rows[2].intervals),
        format!("{:?}", run_with(3).rows[2].intervals)
    );
    // The corpus row is GREEN's corpus score, not the mean of its sentence scores.
    assert_ne!(report.rows[2].system_scores, report.rows[3].system_scores);
    assert_eq!(
        report
            .sentences_tsv(std::slice::from_ref(&data))
            .lines()
            .count(),
        9
    );
    // Scores or statistics of another shape or dataset are an error, not a guess.
    let short = Scored {
        label: "short".into(),
        sentences: vec![("tiny".into(), vec![vec![1.0, 0.5, 0.2]])],
        folds: Vec::new(),
    };
    let elsewhere = Scored {
        label: "elsewhere".into(),
        folds: vec![("other".into(), options.scored[0].folds[0].1.clone())],
        ..options.scored[0].clone()
    };
    for (scored, says) in [
        (short, "'short' must score each of the 2 sentences of tiny"),
        (elsewhere, "'elsewhere' has no statistics of dataset tiny"),
    ] {
        let bad = Options {
            scored: vec![scored],
            ..Options::default()
        };
        let err = run(std::slice::from_ref(&data), &configs, &bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{err}");
    }
}

/// The gold edits the M2 rows (and the CLI's PT-M2 row) read: every sentence's from an M2
/// part, and one error naming the metric when a part has none.
#[test]
fn gold_edits_of_m2_parts_or_one_error() {
    let data = load("tiny.toml").unwrap();
    let e = data.gold_edits("PT-M2").unwrap_err().to_string();
    assert_eq!(
        e,
        "dataset tiny: PT-M2 needs gold edits, and sentence 1 comes from a part without an M2 file"
    );
    let config = MetricConfig {
        metric: Metric::M2 { beta: 0.5 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let e = run(&[data], &[config], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("dataset tiny: M2 needs gold edits"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixtures().join("judgments.xml"), dir.path().join("j.xml")).unwrap();
    std::fs::write(
        dir.path().join("gold.m2"),
        "S a b c\nA 2 3|||X|||d|||REQUIRED|||-NONE-|||0\n\nS x y\n\n",
    )
    .unwrap();
    for system in ["A", "B", "C"] {
        std::fs::write(dir.path().join(format!("{system}.txt")), "a b d\nx y\n").unwrap();
    }
    std::fs::write(
        dir.path().join("d.toml"),
        "name = \"m2\"\nsystems = [\"A\", \"B\", \"C\"]\n[[parts]]\nname = \"p\"\nm2 = \"gold.m2\"\nhypotheses = \"{system}.txt\"\nsrc_id_base = 1\n[[human]]\nname = \"tiny\"\njudgments = \"j.xml\"\n[[sets]]\nname = \"all\"\n",
    )
    .unwrap();
    let d = Descriptor::load(dir.path().join("d.toml").to_str().unwrap()).unwrap();
    let data = Dataset::load(d, dir.path()).unwrap();
    let gold = data.gold_edits("M2").unwrap();
    assert_eq!(gold.len(), 2);
    assert_eq!(gold[0].source, "a b c");
    assert_eq!(gold[0].annotators[0].edits[0].corrections, ["d"]);
}
