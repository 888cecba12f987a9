//! Property tests of invariants that follow from the region definitions:
//! - C = R: every n-gram has r = c, so OD = OI = UD = UI = 0 (no FP, no FN);
//! - C = S: OD = max(0, min(s,r) - s) = 0 and OI = max(0, s - max(s,r)) = 0 (no FP);
//! - the seven regions partition the n-grams: TK+TD+OD+UD = |S|, TK+TI+OD+UI = |R|, TK+TI+OI+UD = |C|;
//! - corpus counts are sums, so permuting sentences leaves them unchanged;
//! - results do not depend on the number of threads;
//! - a sentence with many references (the sparse counting path) counts each reference as
//!   if it were the only one (the dense path);
//! - the counter equals the definition (n-gram multisets, regions per n-gram) however
//!   often the texts repeat one another (equal texts share their counts) or share a start
//!   and an end with the source (whose tokens and n-gram ids are copied), at word and
//!   character level, between assorted whitespace; and in long texts that share runs
//!   between their edits (which the counter takes out).

use green_engine::{Accumulator, Chars, Config, Counter, Regions, Scorer, Tokenizer, Whitespace};
use proptest::prelude::*;

fn sentence() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", "c", "the", "cat", ".", "é", "猫"]),
        0..12,
    )
    .prop_map(|w| w.join(" "))
}

/// Words of one to eight bytes that share starts and ends, between assorted whitespace
/// (spaces, a tab, an ideographic space, none).
fn spaced() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "a", "at", "cat", "bat", "the", "then", "sitting", "elephant", ".", "é", "猫",
    ]);
    let space = prop::sample::select(vec![" ", "  ", "\t", "\u{3000}", ""]);
    prop::collection::vec((word, space), 0..8)
        .prop_map(|w| w.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
}

/// Three texts that often share their start and their end, as corrections of one sentence do.
fn edited() -> impl Strategy<Value = Vec<String>> {
    let text = (spaced(), any::<bool>(), any::<bool>());
    (spaced(), spaced(), prop::collection::vec(text, 3)).prop_map(|(start, end, texts)| {
        texts
            .into_iter()
            .map(|(middle, a, b)| {
                let (start, end) = (
                    if a { &start[..] } else { "" },
                    if b { &end[..] } else { "" },
                );
                format!("{start} {middle} {end}")
            })
            .collect()
    })
}

/// A long source (60 to 160 words of a small vocabulary, so runs repeat) and three
/// corrections of it with up to five local edits each: the texts share runs between their
/// edits, which the counter cuts out of long sentences.
fn long_edited() -> impl Strategy<Value = Vec<String>> {
    let word = || prop::sample::select(vec!["a", "b", "the", "cat", ".", "é", "猫"]);
    let edit = (
        any::<prop::sample::Index>(),
        0..4usize,
        prop::collection::vec(word(), 0..3),
    );
    let edits = prop::collection::vec(prop::collection::vec(edit, 0..6), 3);
    (prop::collection::vec(word(), 60..160), edits).prop_map(|(source, edits)| {
        let mut texts = vec![source.join(" ")];
        for text_edits in edits {
            let mut text = source.clone();
            for (at, delete, insert) in text_edits {
                let i = at.index(text.len() + 1);
                let end = (i + delete).min(text.len());
                text.splice(i..end, insert);
            }
            texts.push(text.join(" "));
        }
        texts
    })
}

fn corpus() -> impl Strategy<Value = Vec<(String, String, String, String)>> {
    prop::collection::vec((sentence(), sentence(), sentence(), sentence()), 1..20)
}

fn ngrams(len: usize, n: usize) -> u64 {
    (len + 1).saturating_sub(n) as u64
}

/// Regions of one (S, R, C) triple straight from the definition: n-gram multisets and
/// `Regions::of` per n-gram.
fn naive(tokenizer: &dyn Tokenizer, s: &str, r: &str, c: &str, n: usize) -> Vec<Regions> {
    use std::collections::BTreeMap;
    let grams = |t: &str, k: usize| {
        let mut m: BTreeMap<Vec<String>, u64> = BTreeMap::new();
        for w in tokenizer.tokens(t).unwrap().windows(k) {
            *m.entry(w.to_vec()).or_default() += 1;
        }
        m
    };
    (1..=n)
        .map(|k| {
            let (gs, gr, gc) = (grams(s, k), grams(r, k), grams(c, k));
            let mut acc = Regions::default();
            for g in gs
                .keys()
                .chain(gr.keys())
                .chain(gc.keys())
                .collect::<std::collections::BTreeSet<_>>()
            {
                let at = |m: &BTreeMap<Vec<String>, u64>| m.get(g).copied().unwrap_or(0);
                acc.add(&Regions::of(at(&gs), at(&gr), at(&gc)));
            }
            acc
        })
        .collect()
}

proptest! {
    #[test]
    fn counts_equal_the_definition_when_texts_repeat(
        pool in prop_oneof![prop::collection::vec(sentence(), 3), edited()],
        s in 0..3usize,
        refs in prop::collection::vec(0..3usize, 1..4),
        hyps in prop::collection::vec(0..3usize, 1..4),
        tokenizer in 0..3usize,
    ) {
        let tokenizer: &dyn Tokenizer = match tokenizer {
            0 => &Whitespace,
            1 => &Chars { skip_whitespace: false },
            _ => &Chars { skip_whitespace: true },
        };
        let text = |i: usize| pool[i].as_str();
        let r: Vec<&str> = refs.iter().map(|&i| text(i)).collect();
        let h: Vec<&str> = hyps.iter().map(|&i| text(i)).collect();
        let got = Counter::new().count(tokenizer, 4, text(s), &r, &h).unwrap();
        for (hi, &c) in h.iter().enumerate() {
            for (ri, &reference) in r.iter().enumerate() {
                let expected = naive(tokenizer, text(s), reference, c, 4);
                prop_assert_eq!(got.get(hi, ri), &expected[..]);
            }
        }
    }

    #[test]
    fn counts_equal_the_definition_when_long_texts_share_runs_between_edits(
        pool in long_edited(),
        refs in prop::collection::vec(0..4usize, 1..3),
        hyps in prop::collection::vec(0..4usize, 1..3),
        n in 1..7usize,
        chars in any::<bool>(),
    ) {
        let tokenizer: &dyn Tokenizer = if chars { &Chars { skip_whitespace: true } } else { &Whitespace };
        let r: Vec<&str> = refs.iter().map(|&i| pool[i].as_str()).collect();
        let h: Vec<&str> = hyps.iter().map(|&i| pool[i].as_str()).collect();
        let got = Counter::new().count(tokenizer, n, &pool[0], &r, &h).unwrap();
        for (hi, &c) in h.iter().enumerate() {
            for (ri, &reference) in r.iter().enumerate() {
                let expected = naive(tokenizer, &pool[0], reference, c, n);
                prop_assert_eq!(got.get(hi, ri), &expected[..]);
            }
        }
    }

    #[test]
    fn many_references_count_like_each_alone(
        s in sentence(),
        refs in prop::collection::vec(sentence(), 40..80),
        hyps in prop::collection::vec(sentence(), 1..3),
    ) {
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let mut counter = Counter::new();
        let all = counter.count(&Chars::default(), 6, &s, &refs, &hyps).unwrap();
        for (r, reference) in refs.iter().enumerate() {
            let one = counter.count(&Chars::default(), 6, &s, &[reference], &hyps).unwrap();
            for h in 0..hyps.len() {
                prop_assert_eq!(all.get(h, r), one.get(h, 0));
            }
        }
    }

    #[test]
    fn hypothesis_equal_to_reference_has_no_errors(s in sentence(), r in sentence()) {
        let sc = Counter::new().count(&Whitespace, 4, &s, &[&r], &[&r]).unwrap();
        for reg in sc.get(0, 0) {
            prop_assert_eq!((reg.fp(), reg.fn_()), (0, 0));
        }
    }

    #[test]
    fn hypothesis_equal_to_source_has_no_false_positives(s in sentence(), r in sentence()) {
        let sc = Counter::new().count(&Chars::default(), 6, &s, &[&r], &[&s]).unwrap();
        for reg in sc.get(0, 0) {
            prop_assert_eq!(reg.fp(), 0);
        }
    }

    #[test]
    fn regions_partition_each_multiset(s in sentence(), r in sentence(), c in sentence()) {
        let sc = Counter::new().count(&Whitespace, 5, &s, &[&r], &[&c]).unwrap();
        let len = |t: &str| t.split_whitespace().count();
        for (i, g) in sc.get(0, 0).iter().enumerate() {
            let n = i + 1;
            prop_assert_eq!(g.tk + g.td + g.od + g.ud, ngrams(len(&s), n));
            prop_assert_eq!(g.tk + g.ti + g.od + g.ui, ngrams(len(&r), n));
            prop_assert_eq!(g.tk + g.ti + g.oi + g.ud, ngrams(len(&c), n));
        }
    }

    #[test]
    fn permuting_sentences_keeps_corpus_counts(data in corpus(), seed in any::<u64>()) {
        let scorer = Scorer::new(Whitespace, Config::new(4, vec![0.5, 2.0]).unwrap());
        let eval = |rows: &[(String, String, String, String)]| {
            let src: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
            let refs = vec![rows.iter().map(|r| r.1.as_str()).collect(), rows.iter().map(|r| r.2.as_str()).collect()];
            let hyps = vec![rows.iter().map(|r| r.3.as_str()).collect::<Vec<_>>()];
            scorer.evaluate(&src, &refs, &hyps).unwrap().report
        };
        let mut shuffled = data.clone();
        // Fisher-Yates with a small LCG: deterministic per seed.
        let mut x = seed | 1;
        for i in (1..shuffled.len()).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (x >> 33) as usize % (i + 1));
        }
        let (a, b) = (eval(&data), eval(&shuffled));
        for (sa, sb) in a.systems.iter().zip(&b.systems) {
            for (ba, bb) in sa.betas.iter().zip(&sb.betas) {
                let ra: Vec<Regions> = ba.orders.iter().map(|o| o.regions).collect();
                let rb: Vec<Regions> = bb.orders.iter().map(|o| o.regions).collect();
                prop_assert_eq!(ra, rb);
                prop_assert_eq!(ba.corpus, bb.corpus);
            }
        }
    }
}

#[test]
fn thread_count_does_not_change_results() {
    let words = ["a", "b", "c", "d", "the", "."];
    let mut x = 7u64;
    let mut line = |len| {
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                words[(x >> 33) as usize % words.len()]
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let src: Vec<String> = (0..10_000).map(|i| line(5 + i % 20)).collect();
    let refs = vec![
        (0..10_000).map(|i| line(5 + i % 17)).collect::<Vec<_>>(),
        (0..10_000).map(|i| line(4 + i % 13)).collect(),
    ];
    let hyps = vec![(0..10_000).map(|i| line(5 + i % 19)).collect::<Vec<_>>()];
    let scorer = Scorer::new(Whitespace, Config::new(4, vec![0.5, 1.0, 2.0]).unwrap());
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| scorer.evaluate(&src, &refs, &hyps).unwrap())
    };
    let one = run(1);
    for threads in [2, 3, 8] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
}

/// Fails on lines containing "bad".
struct Picky;

impl green_engine::Tokenizer for Picky {
    fn name(&self) -> String {
        "picky".into()
    }
    fn tokenize(
        &self,
        text: &str,
        sink: &mut dyn FnMut(&str),
    ) -> Result<(), green_engine::TokenizeError> {
        if text.contains("bad") {
            return Err(green_engine::TokenizeError::new(format!(
                "cannot read '{text}'"
            )));
        }
        Whitespace.tokenize(text, sink)
    }
}

#[test]
fn the_first_failing_sentence_is_reported_at_any_thread_count() {
    let src: Vec<String> = (0..5000)
        .map(|i| {
            if i % 700 == 699 {
                format!("bad {i}")
            } else {
                format!("ok {i}")
            }
        })
        .collect();
    let refs = vec![src.clone()];
    let hyps = vec![src.clone()];
    let scorer = Scorer::new(Picky, Config::new(2, vec![1.0]).unwrap());
    for threads in [1, 2, 8] {
        let err = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| scorer.evaluate(&src, &refs, &hyps).unwrap_err().to_string());
        assert_eq!(
            err, "sentence 700: tokenizer failed: cannot read 'bad 699'",
            "{threads} threads"
        );
    }
}

/// `add_sentences` (counted and scored in parallel, folded in order) and `fold_sentences`
/// (totals summed on the pool) add what `add` adds one sentence at a time, every sentence
/// score of a mergeable accumulator included, and stop at the same sentence: here the
/// fourth, which has no reference, with the three before it added.
#[test]
fn adding_a_batch_equals_adding_one_sentence_at_a_time() {
    let scorer = Scorer::new(Chars::default(), Config::new(6, vec![0.5, 2.0]).unwrap());
    let rows: Vec<(String, Vec<String>, Vec<String>)> = (0..300)
        .map(|i| {
            let source = format!("the cat {i} sat on the mat");
            let refs = (0..i % 3 + usize::from(i != 3))
                .map(|r| format!("the cat {i} sat on {r} mats"))
                .collect();
            let hyps = vec![source.clone(), format!("a cat {i} sat on the mat")];
            (source, refs, hyps)
        })
        .collect();
    let refs: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.1.iter().map(String::as_str).collect())
        .collect();
    let hyps: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.2.iter().map(String::as_str).collect())
        .collect();
    let sentences: Vec<green_engine::Sentence> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| green_engine::Sentence {
            source: &r.0,
            refs: &refs[i],
            hyps: &hyps[i],
        })
        .collect();
    let config = &scorer.config;
    let (mut batch, mut single) = (Accumulator::new(config, 2), Accumulator::new(config, 2));
    let mut counter = Counter::new();
    let mut scores = Vec::new();
    for s in &sentences[4..] {
        scores.push(single.add(&scorer.count(&mut counter, s).unwrap()).unwrap());
    }
    let scored = batch.add_sentences(&scorer, &sentences[4..]).unwrap();
    assert_eq!(scored.len(), sentences.len() - 4);
    for ((counts, got), (s, want)) in scored.iter().zip(sentences[4..].iter().zip(&scores)) {
        assert_eq!(counts, &scorer.count(&mut counter, s).unwrap());
        assert_eq!(got, want);
    }
    assert_eq!(batch.finish(), single.finish());
    let (mut folded, mut one) = (
        Accumulator::mergeable(config, 2),
        Accumulator::mergeable(config, 2),
    );
    // Two batches, so the second continues the float sums of the first.
    folded.fold_sentences(&scorer, &sentences[4..150]).unwrap();
    folded.fold_sentences(&scorer, &sentences[150..]).unwrap();
    for s in &sentences[4..] {
        one.add(&scorer.count(&mut counter, s).unwrap()).unwrap();
    }
    assert_eq!(folded, one);
    assert_eq!(folded.finish(), single.finish());

    let mut first = Accumulator::new(config, 2);
    for s in &sentences[..3] {
        first.add(&scorer.count(&mut counter, s).unwrap()).unwrap();
    }
    let mut stopped = Accumulator::new(config, 2);
    let err = stopped.add_sentences(&scorer, &sentences).unwrap_err();
    assert_eq!(err.to_string(), "sentence 4 has no reference");
    assert_eq!(stopped.finish(), first.finish());
    let mut stopped = Accumulator::new(config, 2);
    let err = stopped.fold_sentences(&scorer, &sentences).unwrap_err();
    assert_eq!(err.to_string(), "sentence 4 has no reference");
    assert_eq!(stopped, first);
}
