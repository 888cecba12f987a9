//! MAEGE: lattices, chains and draws on hand-made M2, statistics on hand-computed cases,
//! and (ignored) the English and Chinese real-data runs.

use green_io::m2::MissingAnnotator;
use green_io::{m2, LineReader};
use green_meta::maege::{self, lattice, Options, RefMode};
use green_meta::stats::{spearman, PairCounts};
use green_meta::{Level, Metric, MetricConfig};

const M2: &str = "\
S a b c d e f
A 0 1|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 2 3|||Nn|||cs|||REQUIRED|||-NONE-|||0
A 5 5|||Prep|||g|||REQUIRED|||-NONE-|||0

S p q r s t
A 1 3|||Wci|||x|||REQUIRED|||-NONE-|||0
A 2 4|||Vt|||y z|||REQUIRED|||-NONE-|||0
A 4 4|||Prep|||on|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0

S no edits here
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
";

fn parse(text: &str) -> m2::M2 {
    m2::parse(LineReader::new(text.as_bytes(), "t.m2")).unwrap()
}

fn green(n: usize, beta: f64) -> MetricConfig {
    MetricConfig {
        metric: Metric::Green { n, beta },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    }
}

#[test]
fn lattice_of_independent_edits_has_every_subset() {
    let file = parse(M2);
    let units = lattice::units(
        &file,
        RefMode::All,
        false,
        MissingAnnotator::Source,
        lattice::Protocol::Lattice,
        None,
    );
    // The edit-free sentence makes no unit.
    assert_eq!(units.len(), 2);
    let u = &units[0];
    let lat = u.lattice().unwrap();
    assert_eq!(lat.len(), 8);
    let mut texts: Vec<String> = lat.iter().map(|s| u.apply(s)).collect();
    assert_eq!(texts[0], "a b c d e f");
    assert_eq!(
        texts[7],
        file.sentences[0].references(MissingAnnotator::Source)[0]
    );
    assert_eq!(texts[7], "the b cs d e g f");
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 8, "every subset gives a different sentence");
}

#[test]
fn overlapping_edits_are_merged_and_same_point_insertions_are_not() {
    let file = parse(M2);
    let u = &lattice::units(
        &file,
        RefMode::Own,
        false,
        MissingAnnotator::Source,
        lattice::Protocol::Lattice,
        None,
    )[1];
    // 1-3 and 2-4 share token 2: one merged edit; the two insertions at 4 stay separate
    // (they do not overlap the merged span 1-4, which ends where they are).
    assert_eq!(u.edits.len(), 3);
    assert_eq!(
        (u.edits[0].start, u.edits[0].end, u.edits[0].kind.as_str()),
        (1, 4, "Wci+Vt")
    );
    assert_eq!(u.lattice().unwrap().len(), 8);
    // The top is still the annotator's reference.
    assert_eq!(
        u.apply(&[0, 1, 2]),
        file.sentences[1].references(MissingAnnotator::Source)[0]
    );
    assert_eq!(u.refs, [u.apply(&[0, 1, 2])]);
    // An edit inside another's span is merged too.
    let nested = parse(
        "S a b c d\nA 0 3|||R|||x|||REQUIRED|||-NONE-|||0\nA 1 1|||M|||y|||REQUIRED|||-NONE-|||0\n",
    );
    let u = &lattice::units(
        &nested,
        RefMode::All,
        false,
        MissingAnnotator::Source,
        lattice::Protocol::Lattice,
        None,
    )[0];
    assert_eq!(u.edits.len(), 1);
    assert_eq!(
        u.apply(&[0]),
        nested.sentences[0].references(MissingAnnotator::Source)[0]
    );
}

#[test]
fn large_lattices_are_refused_not_enumerated() {
    let mut text = String::from("S");
    for i in 0..25 {
        text.push_str(&format!(" t{i}"));
    }
    text.push('\n');
    for i in 0..25 {
        text.push_str(&format!(
            "A {i} {}|||R|||u{i}|||REQUIRED|||-NONE-|||0\n",
            i + 1
        ));
    }
    let u = &lattice::units(
        &parse(&text),
        RefMode::All,
        false,
        MissingAnnotator::Source,
        lattice::Protocol::Lattice,
        None,
    )[0];
    let err = u.lattice().unwrap_err().to_string();
    assert_eq!(err, "sentence 1 annotator 0: 25 edits make 2^25 lattice elements; MAEGE samples such lattices instead");
}

#[test]
fn chains_grow_by_one_edit_and_end_at_the_top() {
    for unit in 0..20 {
        let k = 7;
        let src = lattice::random_source(
            k,
            false,
            &mut lattice::rng(3, 0, unit, lattice::Purpose::Source),
        );
        let chain = lattice::random_chain(
            k,
            &src,
            &mut lattice::rng(3, 0, unit, lattice::Purpose::Chain),
        );
        assert_eq!(src.len() + chain.len(), k);
        let mut prev = lattice::chain_element(&src, &chain, 0);
        assert_eq!(prev, src);
        for j in 1..=chain.len() {
            let next = lattice::chain_element(&src, &chain, j);
            assert_eq!(next.len(), prev.len() + 1);
            assert!(
                prev.iter().all(|e| next.contains(e)),
                "chain element {j} is not a superset"
            );
            prev = next;
        }
        assert_eq!(prev, (0..k).collect::<Vec<_>>());
    }
    // Precision variant: the source is the original sentence.
    assert!(lattice::random_source(
        7,
        true,
        &mut lattice::rng(3, 0, 0, lattice::Purpose::Source)
    )
    .is_empty());
}

#[test]
fn corpus_draws_are_a_clipped_binomial() {
    let mut rng = lattice::rng(1, 0, 0, lattice::Purpose::Corpus);
    let src = vec![0, 3];
    assert_eq!(lattice::corpus_draw(6, &src, 0, &mut rng), src);
    assert_eq!(
        lattice::corpus_draw(6, &src, 4, &mut rng),
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(
        lattice::corpus_draw(6, &src, 10, &mut rng),
        [0, 1, 2, 3, 4, 5]
    );
    // Mean m when m < r: 2 of 8 remaining edits on average.
    let total: usize = (0..4000)
        .map(|u| {
            lattice::corpus_draw(
                8,
                &[],
                2,
                &mut lattice::rng(1, 0, u, lattice::Purpose::Corpus),
            )
            .len()
        })
        .sum();
    let mean = total as f64 / 4000.0;
    assert!((mean - 2.0).abs() < 0.1, "mean {mean}");
}

#[test]
fn draws_are_reproducible_and_seed_dependent() {
    let sources = |seed| -> Vec<_> {
        (0..10)
            .map(|u| {
                lattice::random_source(
                    9,
                    false,
                    &mut lattice::rng(seed, 0, u, lattice::Purpose::Source),
                )
            })
            .collect()
    };
    let (a, b, c) = (sources(42), sources(42), sources(43));
    assert_eq!(a, b);
    assert_ne!(a, c);
    let file = parse(M2);
    let configs = [green(2, 1.0)];
    let run = |seed| {
        maege::run(
            &file,
            &configs,
            &Options {
                seed,
                ..Options::default()
            },
        )
        .unwrap()
        .json()
    };
    assert_eq!(run(7), run(7));
}

#[test]
fn kendall_tau_over_chain_pairs_by_hand() {
    // Pairs (0,1) agree, (0,2) agree, (1,2) disagree: tau = (2 - 1) / 3.
    let mut p = PairCounts::default();
    maege::chain_pairs(&[0.1, 0.3, 0.2], &mut p);
    assert_eq!((p.concordant, p.discordant, p.ties_y), (2, 1, 0));
    assert!((p.tau_a().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    // A metric tie counts in the denominator only: (2 - 0) / 3.
    let mut p = PairCounts::default();
    maege::chain_pairs(&[0.1, 0.1, 0.2], &mut p);
    assert_eq!((p.concordant, p.discordant, p.ties_y), (2, 0, 1));
    assert!((p.tau_a().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // Pooled over two chains: 1 + 3 pairs, all concordant but one tie.
    maege::chain_pairs(&[0.5, 0.6], &mut p);
    assert_eq!(p.pairs(), 4);
    // Spearman against M: ranks [1, 3, 2] vs [1, 2, 3] → 1 − 6·2 / (3·8) = 0.5.
    assert!((spearman(&[0.1, 0.3, 0.2], &[0.0, 1.0, 2.0]).unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn a_good_metric_on_a_tiny_file() {
    let file = parse(M2);
    let gleu = MetricConfig {
        metric: Metric::Gleu {
            n: 4,
            iterations: 3,
            seed: 0,
            smooth: true,
        },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let opts = Options {
        reps: 3,
        ..Options::default()
    };
    let report = maege::run(&file, &[green(4, 2.0), gleu], &opts).unwrap();
    assert_eq!((report.sentences, report.units, report.edits), (3, 2, 6));
    assert_eq!(report.rows.len(), 2);
    let p = &report.rows[0].precision;
    // From the original sentence every valid edit brings GREEN closer to the reference.
    assert_eq!(p.pairs.discordant, 0);
    assert_eq!(p.pairs.pairs(), 6 + 6);
    assert_eq!(p.corpus_scores.len(), 11);
    assert!(p.corpus_scores[0] < p.corpus_scores[10]);
    assert_eq!(report.type_counts.get("Wci+Vt"), Some(&1));
    let md = report.markdown(1);
    assert!(md.contains("| GREEN word N=4 β=2 corpus |"), "{md}");
    assert!(md.contains("| Wci+Vt | 1 |"), "{md}");
    assert!(report
        .tsv()
        .starts_with("metric\tcorpus_rho\ttau\tpearson\tties\tp_corpus_rho\tp_tau\tp_pearson\n"));
}

#[test]
fn m2_with_extracted_gold_edits() {
    // Edits far apart: ERRANT's all-merge extraction finds each one as a gold edit.
    let file = parse(
        "S a b c d e f g h\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\nA 3 4|||U|||-NONE-|||REQUIRED|||-NONE-|||0\nA 7 7|||M|||y|||REQUIRED|||-NONE-|||0\n",
    );
    let m2 = MetricConfig {
        metric: Metric::M2 { beta: 0.5 },
        tokenizer: "word".into(),
        normalization: Default::default(),
        level: Level::Corpus,
    };
    let opts = Options {
        reps: 2,
        ..Options::default()
    };
    let mut configs = vec![m2.clone(), green(4, 2.0)];
    configs.extend(MetricConfig::edit_rows(
        "word",
        Default::default(),
        Level::Corpus,
        false,
        true,
        false,
    ));
    let report = maege::run(&file, &configs, &opts).unwrap();
    // ERRANT and CLEME on the same extracted edits order the chain as M2 does.
    for row in &report.rows[2..] {
        let p = &row.precision;
        assert_eq!(
            (p.pairs.discordant, p.pairs.ties_y),
            (0, 0),
            "{}",
            row.label
        );
        assert!(p.corpus_scores[10] > p.corpus_scores[0], "{}", row.label);
    }
    let p = &report.rows[0].precision;
    // From the original sentence each gold edit adds a correct edit and nothing else: M2
    // orders every pair of the chain (F rises from 0 to 1), and its corpus score too.
    assert_eq!(p.pairs.pairs(), 6);
    assert_eq!(
        (p.pairs.discordant, p.pairs.ties_y + p.pairs.ties_xy),
        (0, 0)
    );
    assert_eq!(p.corpus_scores[0], 0.0);
    assert!(p.corpus_scores[10] > 0.99, "{:?}", p.corpus_scores);
    assert!(report.markdown(1).contains("| M2 word β=0.5 corpus |"));
    // Mean level: the mean of sentence M2.
    let mean = MetricConfig {
        level: Level::Mean,
        ..m2
    };
    let report = maege::run(&file, &[mean], &opts).unwrap();
    assert_eq!(report.rows[0].precision.pairs.discordant, 0);
}

#[test]
fn no_edits_is_a_clear_error() {
    let file = parse("S a b\n\nS c\n");
    let err = maege::run(&file, &[green(4, 2.0)], &Options::default())
        .unwrap_err()
        .to_string();
    assert_eq!(err, "t.m2: no sentence has an edit; MAEGE needs gold edits");
}

fn shared(rel: &str) -> String {
    let path = green_test_data::shared_file(format!("data/{rel}"));
    path.to_string_lossy().into_owned()
}

fn real_run(rel: &str, tokenizers: &[&str], strip: bool) -> (String, maege::Report) {
    let file = m2::read(&green_io::Input::parse(&shared(rel))).unwrap();
    let mut configs = Vec::new();
    for t in tokenizers {
        let mut c = green(4, 2.0);
        c.tokenizer = t.to_string();
        configs.push(c.clone());
        c.metric = Metric::Gleu {
            n: 4,
            iterations: 20,
            seed: 0,
            smooth: true,
        };
        configs.push(c);
    }
    let opts = Options {
        seed: 11,
        strip_spaces: strip,
        ..Options::default()
    };
    let a = maege::run(&file, &configs, &opts).unwrap();
    let b = maege::run(&file, &configs, &opts).unwrap();
    assert_eq!(a.json(), b.json(), "same seed, different output");
    (a.json(), a)
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn english_conll14_run_is_reproducible() {
    let (_, r) = real_run("conll14/conll14st-test.m2", &["word", "char"], false);
    assert_eq!(r.sentences, 1312);
    for row in &r.rows {
        let tau = row.standard.tau.unwrap();
        assert!(tau > 0.5, "{}: tau {tau}", row.label);
        assert!(row.standard.corpus_rho.unwrap() > 0.9, "{}", row.label);
    }
    // Every unit's lattice top is its annotator's reference (no true overlaps in CoNLL-14).
    let file = m2::read(&green_io::Input::parse(&shared(
        "conll14/conll14st-test.m2",
    )))
    .unwrap();
    for u in lattice::units(
        &file,
        RefMode::Own,
        false,
        MissingAnnotator::Source,
        lattice::Protocol::Lattice,
        None,
    ) {
        assert_eq!(
            u.refs[0],
            file.sentences[u.sentence].references(MissingAnnotator::Source)[u.annotator]
        );
    }
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn chinese_nlpcc18_run_is_reproducible() {
    let (_, r) = real_run(
        "zh/nlpcc18/nlpcc2018_official.ref.m2.char",
        &["char:nospace"],
        true,
    );
    assert_eq!(r.sentences, 2000);
    assert!(r.rows[0].standard.tau.unwrap() > 0.5);
    // Character-tokenised text scored with char:nospace equals the stripped text.
    let (_, spaced) = real_run(
        "zh/nlpcc18/nlpcc2018_official.ref.m2.char",
        &["char:nospace"],
        false,
    );
    assert_eq!(spaced.rows[0].standard, r.rows[0].standard);
}

/// Two annotators: sentence 1 both edit, sentence 2 annotator 1 leaves it unchanged.
const TWO: &str = "\
S a b c d
A 0 1|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 2 3|||Nn|||cs|||REQUIRED|||-NONE-|||0
A 0 1|||ArtOrDet|||an|||REQUIRED|||-NONE-|||1

S p q r
A 1 2|||Wci|||x|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
";

#[test]
fn paper_protocol_units_use_held_out_references() {
    let file = parse(TWO);
    let units = lattice::units(
        &file,
        RefMode::HeldOut,
        false,
        MissingAnnotator::Skip,
        lattice::Protocol::Paper,
        None,
    );
    // Sentence 2 is dropped (annotator 1 leaves it unchanged); in sentence 1 each annotation
    // is scored against the other annotator's reference only.
    assert_eq!(units.len(), 2);
    assert_eq!(units[0].refs, ["an b c d"]);
    assert_eq!(units[1].refs, ["the b cs d"]);
    // Gold score of the original: 1 − min(2, 1) edits / 4 tokens.
    assert_eq!(units[0].bottom, 0.75);
    // Extra held-out references replace the other annotators'.
    let extra = vec![vec!["A B C D".to_string()], vec!["P Q R".to_string()]];
    let units = lattice::units(
        &file,
        RefMode::HeldOut,
        false,
        MissingAnnotator::Skip,
        lattice::Protocol::Lattice,
        Some(&extra),
    );
    assert_eq!(units.len(), 3);
    assert!(units
        .iter()
        .all(|u| u.refs.len() == 1 && u.refs[0].chars().all(|c| !c.is_lowercase())));
}

#[test]
fn paper_binomial_has_mean_m_and_variance_point_nine() {
    assert_eq!(lattice::paper_binomial(0), (1, 0.0));
    let (n, p) = lattice::paper_binomial(1);
    assert_eq!(n, 10);
    assert!((p - 0.1).abs() < 1e-12);
    // n = 10²/9.1 = 10.99 truncated to 10, as the authors' numpy call does.
    let (n, p) = lattice::paper_binomial(10);
    assert_eq!(n, 10);
    assert!((p - 0.91).abs() < 1e-12);
    let mut rng = lattice::rng(3, 0, 0, lattice::Purpose::Corpus);
    let draws: Vec<usize> = (0..20_000)
        .map(|_| lattice::binomial(10, 0.1, &mut rng))
        .collect();
    let mean = draws.iter().sum::<usize>() as f64 / draws.len() as f64;
    let var = draws
        .iter()
        .map(|&d| (d as f64 - mean).powi(2))
        .sum::<f64>()
        / draws.len() as f64;
    assert!(
        (mean - 1.0).abs() < 0.03 && (var - 0.9).abs() < 0.05,
        "{mean} {var}"
    );
}

#[test]
fn paper_protocol_tau_counts_discordant_pairs_only() {
    let file = parse(TWO);
    let options = Options {
        refs: RefMode::HeldOut,
        protocol: lattice::Protocol::Paper,
        ..Options::default()
    };
    let report = maege::run(&file, &[green(1, 2.0)], &options).unwrap();
    let s = &report.rows[0].standard;
    let total = s.pairs.pairs() as f64;
    assert!(total > 0.0);
    assert_eq!(s.tau, Some(1.0 - 2.0 * s.pairs.discordant as f64 / total));
    assert_eq!(report.units, 2);
    // The same seed gives the same report; the paper's protocol needs held-out references.
    let again = maege::run(&file, &[green(1, 2.0)], &options).unwrap();
    assert_eq!(report.json(), again.json());
    let wrong = Options {
        refs: RefMode::All,
        protocol: lattice::Protocol::Paper,
        ..Options::default()
    };
    let err = maege::run(&file, &[green(1, 2.0)], &wrong).unwrap_err();
    assert!(err.to_string().contains("--refs held-out"), "{err}");
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn english_conll14_paper_protocol() {
    let file = m2::read(&green_io::Input::parse(&shared(
        "conll14/conll14st-test.m2",
    )))
    .unwrap();
    let opts = Options {
        refs: RefMode::HeldOut,
        protocol: lattice::Protocol::Paper,
        ..Options::default()
    };
    let configs = [green(4, 0.5), green(4, 2.0)];
    let a = maege::run(&file, &configs, &opts).unwrap();
    assert_eq!(a.json(), maege::run(&file, &configs, &opts).unwrap().json());
    // Sentences where an annotator changes nothing are dropped; the rest give one unit per
    // annotator, each scored against the other annotator.
    assert_eq!(a.units, 1626);
    // The README's findings: with a held-out reference, recall-leaning GREEN ranks the
    // corpora the right way and precision-leaning GREEN the wrong way; sentence τ is near 0.
    let (p, r) = (&a.rows[0].standard, &a.rows[1].standard);
    assert!(p.corpus_rho.unwrap() < -0.9 && r.corpus_rho.unwrap() > 0.5);
    assert!(r.tau.unwrap().abs() < 0.2, "{:?}", r.tau);
    assert!(a.rows[1].precision.tau.unwrap() > 0.4);
}
