//! The output model: every metric's output survives a JSON round trip, the text is drawn
//! from the same values, and run-level fields sit beside the signature.

use green_engine::gleu::{Gleu, GleuCounts};
use green_engine::{
    Accumulator, Config, Counter, Normalization, Scorer, Sentence, Signature, Whitespace,
};
use green_output::green::{self, Files, GreenOutput, Verbose};
use green_output::{edits, gleu, Comparisons, Level, Output};

const SOURCES: [&str; 3] = ["he go to school", "fine", "a b c"];
const REFS: [[&str; 2]; 3] = [
    ["he goes to school", "he went to school"],
    ["fine .", "fine"],
    ["a x c", "a b c"],
];
const HYPS: [[&str; 2]; 3] = [
    ["he goes to school", "he go to school"],
    ["fine", "fine ."],
    ["a b c", "a x c"],
];

fn names() -> Vec<String> {
    vec!["sys1.txt".into(), "sys2.txt".into()]
}

fn green_output(level: Level, betas: Vec<f64>) -> GreenOutput {
    let config = Config::new(2, betas).unwrap();
    let scorer = Scorer::new(Whitespace, config.clone());
    let sentences: Vec<Sentence> = (0..3)
        .map(|i| Sentence {
            source: SOURCES[i],
            refs: &REFS[i],
            hyps: &HYPS[i],
        })
        .collect();
    let counts = scorer.count_batch(&sentences).unwrap();
    let mut acc = Accumulator::mergeable(&config, 2);
    let scores: Vec<_> = counts.iter().map(|c| acc.add(c).unwrap()).collect();
    let mut report = acc.finish();
    if level == Level::Mean {
        report.set_numpy_means(acc.sentence_scores().unwrap());
    }
    let base = Signature {
        n: 2,
        betas: vec![],
        tokenizer: "word".into(),
        normalization: Normalization::default(),
        refs: 2,
        level: level.name().into(),
        m2: None,
    };
    let refs = vec!["r0.txt".to_string(), "r1.txt".to_string()];
    let systems = names();
    let files = Files {
        source: Some("src.txt"),
        references: &refs,
        systems: &systems,
    };
    green::output(&report, Some(&scores), level, &base, &files)
}

fn round_trip<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let text = green_output::to_json(value).unwrap();
    assert!(text.ends_with("}\n"));
    let back: T = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, value);
}

#[test]
fn green_output_round_trips_and_writes_inf_as_text() {
    for level in [Level::Corpus, Level::Sentence, Level::Mean] {
        let out = green_output(level, vec![1.0, f64::INFINITY]);
        round_trip(&out);
        let value = serde_json::to_value(&out).unwrap();
        assert_eq!(value["betas"], serde_json::json!([1.0, "inf"]));
        assert_eq!(value["level"], level.name());
        assert_eq!(value["systems"][1]["path"], "sys2.txt");
        let at = &value["systems"][0]["results"][0];
        assert_eq!(
            at.get("sentence_scores").is_some(),
            level == Level::Sentence
        );
        assert!(value["signature"].as_str().unwrap().starts_with(&format!(
            "green|n:2|beta:1,inf|tok:word|norm:none|refs:2|level:{}|",
            level.name()
        )));
    }
}

#[test]
fn green_text_is_drawn_from_the_output() {
    let out = green_output(Level::Corpus, vec![1.0, 2.0]);
    let text = green::text(&out, 2, Verbose::No);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "alpha\t0.50\t0.20");
    assert_eq!(lines[1], "beta\t1.00\t2.00");
    let first = &out.systems[0].result.results;
    let expected = format!(
        "sys1.txt\t{}\t{}",
        green_output::number::quantize(first[0].score, 2),
        green_output::number::quantize(first[1].score, 2)
    );
    assert_eq!(lines[2], expected);
    assert_eq!(lines.len(), 4);
    // Sentence level: a line per sentence, a column per beta then system.
    let out = green_output(Level::Sentence, vec![1.0, 2.0]);
    let text = green::text(&out, 6, Verbose::No);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.len() == 4));
    let s = out.systems[1].result.results[0]
        .sentence_scores
        .as_ref()
        .unwrap();
    assert_eq!(rows[2][1], green_output::number::quantize(s[2], 6));
    // A hypothesis equal to a reference scores 100 at every beta.
    assert_eq!(rows[0][0], "100.000000");
    // Verbose lines: alpha, beta and the cumulative P, R, F of the highest order.
    let out = green_output(Level::Corpus, vec![1.0]);
    let text = green::text(&out, 2, Verbose::Lines);
    assert_eq!(text.lines().count(), 2);
    assert!(text.starts_with("0.50\t1.00\t"));
    let tables = green::text(&out, 2, Verbose::Tables);
    assert!(tables.starts_with("sys1.txt\talpha=0.50\tbeta=1.00\n+"));
    assert!(tables.contains("cumF"));
}

fn gleu_systems() -> Vec<Vec<GleuCounts>> {
    let mut counter = Counter::default();
    let counts: Vec<GleuCounts> = (0..3)
        .map(|i| {
            counter
                .count_gleu(&Whitespace, 4, SOURCES[i], &REFS[i], &HYPS[i])
                .unwrap()
        })
        .collect();
    (0..2)
        .map(|h| counts.iter().map(|c| c.hypothesis(h)).collect())
        .collect()
}

#[test]
fn gleu_output_round_trips_at_every_level_and_prints_its_text() {
    let systems = gleu_systems();
    let metric = Gleu {
        iterations: 20,
        max: false,
    };
    let settings = gleu::settings(4, 20, false, "word", "none");
    assert_eq!(
        settings,
        "gleu|n:4|iter:20|draw:python-mt19937-seed-101i|tok:word|norm:none"
    );
    for level in [Level::Corpus, Level::Sentence, Level::Mean] {
        let out = gleu::output(&metric, &settings, &names(), &systems, level);
        round_trip(&out);
        assert!(out
            .signature
            .contains(&format!("|refs:2|level:{}|", level.name())));
        let text = gleu::text(&out, 2);
        match level {
            Level::Sentence => {
                assert_eq!(text.lines().count(), 3);
                assert!(text.lines().all(|l| l.split('\t').count() == 2));
                assert!(out.systems[0].result.score.is_none());
            }
            _ => {
                let score = out.systems[1].result.score.unwrap();
                let line = format!("sys2.txt\t{}", green_output::number::quantize(score, 2));
                assert_eq!(text.lines().nth(1), Some(line.as_str()));
            }
        }
    }
}

const GOLD: &str = "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\nS fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n\nS a b c\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n";
const HYP: &str = "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\nS fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS a b c\nA 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n";

#[test]
fn edit_metric_outputs_round_trip() {
    let gold = green_m2::parse_gold(GOLD, "gold.m2", green_m2::Alternatives::default()).unwrap();
    let opts = green_m2::Options::default();
    let hyps: Vec<String> = ["he goes to school", "fine", "the b c"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let stats = green_m2::corpus_stats(&gold, &hyps, &opts).unwrap();
    for verbose in [false, true] {
        let out = edits::maxmatch(
            "m2".into(),
            &names(),
            &[stats.clone(), stats.clone()],
            0.5,
            verbose,
        );
        round_trip(&out);
        assert_eq!(out.systems[0].result.sentences.is_some(), verbose);
        assert_eq!(out.systems[0].result.summary.correct, 1);
    }

    let reference = green_edits::parse(GOLD, "ref.m2").unwrap();
    let hypothesis = green_edits::parse(HYP, "hyp.m2").unwrap();
    let opts = green_edits::compare::Options::default();
    let stats = green_edits::compare::corpus_stats(&hypothesis, &reference, &opts).unwrap();
    let out = edits::errant("errant".into(), &names()[..1], &[stats], opts.beta, 3, true);
    round_trip(&out);
    let score = &out.systems[0].result.score;
    assert_eq!((score.tp, score.fp, score.fn_), (1, 1, 2));
    assert_eq!(out.systems[0].result.sentences.as_ref().unwrap().len(), 3);

    let copts = green_edits::cleme::Options::default();
    let cstats = green_edits::cleme::corpus_stats(&hypothesis, &reference, &copts).unwrap();
    let out = edits::cleme("cleme".into(), &names()[..1], &[cstats], &copts).unwrap();
    round_trip(&out);
}

#[test]
fn comparisons_pair_each_system_with_the_baseline() {
    let systems = vec!["a".to_string(), "b".into(), "c".into()];
    let c = Comparisons::new("sig".into(), "m2", &systems, vec![1.5, -2.0]);
    round_trip(&c);
    assert_eq!(c.comparisons[1].baseline, "a");
    assert_eq!(c.comparisons[1].system, "c");
    let score = |x| gleu::Scores {
        score: Some(x),
        sentences: None,
    };
    let plain: Output<gleu::Scores> =
        Output::new("sig".into(), &systems[..2], vec![score(1.5), score(2.0)]);
    let text = serde_json::to_string(&plain).unwrap();
    assert_eq!(
        text,
        r#"{"signature":"sig","systems":[{"path":"a","score":1.5},{"path":"b","score":2.0}]}"#
    );
}

#[test]
fn levels_parse_and_name() {
    for name in Level::NAMES {
        assert_eq!(name.parse::<Level>().unwrap().name(), name);
    }
    assert_eq!(
        "median".parse::<Level>().unwrap_err(),
        "unknown level 'median'; use corpus, sentence or mean"
    );
}
