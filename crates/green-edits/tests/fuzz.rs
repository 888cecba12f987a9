//! Property tests (run with many more cases by `.ci/steps/27-fuzz.sh`): the M2 reader and
//! both metrics never panic on any input (an error is fine), and extracted edits rebuild the
//! corrected sentence from the source under every merger.

use green_edits::align::{align, edits, Levenshtein, Merge};
use green_edits::{cleme, compare, parallel, parse};
use proptest::prelude::*;

/// M2 text: blocks of an S line (0-4 tokens) and A lines with spans in range (or `-1 -1`),
/// random types, corrections and annotators; now and then a line of noise.
fn m2_text() -> impl Strategy<Value = String> {
    let block = (0usize..5).prop_flat_map(|n| {
        let edit = (
            0..=n,
            0..=n,
            0usize..5,
            0usize..4,
            prop_oneof![4 => 0i64..3, 1 => -1i64..5],
        )
            .prop_map(|(a, b, t, c, id)| {
                let (s, e) = if t == 4 {
                    (-1, -1)
                } else {
                    (a.min(b) as i64, a.max(b) as i64)
                };
                format!(
                    "A {s} {e}|||{}|||{}|||REQUIRED|||-NONE-|||{id}",
                    ["R:X", "M:Y", "UNK", "R:X", "noop"][t],
                    ["x", "-NONE-", "", "y z"][c]
                )
            });
        proptest::collection::vec(edit, 0..5).prop_map(move |edits| {
            let mut lines = vec![format!("S {}", ["a", "b", "c", "d", "e"][..n].join(" "))];
            lines.extend(edits);
            lines.join("\n")
        })
    });
    let noise = prop_oneof![19 => Just(String::new()), 1 => "[ -~]{0,12}"];
    (proptest::collection::vec(block, 1..6), noise).prop_map(|(b, noise)| b.join("\n\n") + &noise)
}

/// Make `doc` what CLEME reads: per sentence, annotators renumbered 0, 1, ... in order of id
/// (only 0 for a hypothesis), each annotator's edits sorted and without overlaps or `noop`
/// types on real spans.
fn tidy(doc: &mut green_edits::Document, hypothesis: bool) {
    for s in &mut doc.sentences {
        let mut edits: Vec<green_edits::Edit> = std::mem::take(&mut s.edits);
        edits.retain(|e| e.is_noop_span() || e.kind != "noop");
        if hypothesis {
            edits.iter_mut().for_each(|e| e.annotator = 0);
        }
        edits.sort_by_key(|e| (e.annotator, e.start));
        let mut ids: Vec<i64> = edits.iter().map(|e| e.annotator).collect();
        ids.dedup();
        let mut last_end: Option<(i64, i64)> = None;
        for mut e in edits {
            let id = ids.iter().position(|&a| a == e.annotator).unwrap() as i64;
            e.annotator = id;
            if !e.is_noop_span() {
                if let Some((a, end)) = last_end {
                    if a == id && e.start < end {
                        continue;
                    }
                }
                last_end = Some((id, e.end));
            }
            s.edits.push(e);
        }
    }
}

proptest! {
    #[test]
    fn reading_and_scoring_never_panic(hyp in m2_text(), reference in m2_text()) {
        let (Ok(h), Ok(r)) = (parse(&hyp, "h"), parse(&reference, "r")) else {
            return Ok(());
        };
        // Same sources, so that scoring gets past the alignment check.
        let mut h = h;
        for (hs, rs) in h.sentences.iter_mut().zip(&r.sentences) {
            hs.source = rs.source.clone();
            hs.edits.retain(|e| e.end <= rs.tokens().len() as i64);
        }
        h.sentences.truncate(r.sentences.len());
        let mut r = r;
        r.sentences.truncate(h.sentences.len());
        for mode in [compare::Mode::Correction, compare::Mode::DetectionToken] {
            let opts = compare::Options { mode, ..Default::default() };
            let _ = compare::score(&h, &r, &opts);
        }
        let _ = cleme::score(&h, &r, &cleme::Options::default());
        // And files CLEME accepts: annotators 0, 1, ... in order (one for the hypothesis),
        // each with sorted edits that do not overlap.
        tidy(&mut h, true);
        tidy(&mut r, false);
        // Then only an empty source or no reference change at all (after CLEME 1.0 drops
        // targets that delete everything) is refused.
        let c = cleme::score(&h, &r, &cleme::Options::default());
        if let Err(e) = c {
            let empty = r.sentences.iter().any(|s| s.tokens().is_empty());
            prop_assert!(
                empty || matches!(e, green_edits::Error::Config(_)),
                "{e}"
            );
        }
        let _ = cleme::score(&h, &r, &cleme::Options { merge_distance: 2, ..Default::default() });
    }

    #[test]
    fn extracted_edits_rebuild_the_correction(
        a in proptest::collection::vec(0u8..4, 0..9),
        b in proptest::collection::vec(0u8..4, 0..9),
    ) {
        for merge in [Merge::AllSplit, Merge::AllMerge, Merge::AllEqual] {
            let mut out: Vec<u8> = Vec::new();
            let mut at = 0;
            for ((os, oe), (cs, ce)) in edits(&align(&a, &b, &Levenshtein).unwrap(), merge) {
                out.extend(&a[at..os]);
                out.extend(&b[cs..ce]);
                at = oe;
            }
            out.extend(&a[at..]);
            prop_assert_eq!(&out, &b);
        }
    }

    #[test]
    fn an_extracted_file_scores_one_against_itself(
        src in proptest::collection::vec(0usize..4, 1..8),
        cor in proptest::collection::vec(0usize..4, 0..8),
    ) {
        let words = ["a", "b", "c", "d"];
        let s: Vec<&str> = src.iter().map(|&i| words[i]).collect();
        let c: Vec<&str> = cor.iter().map(|&i| words[i]).collect();
        let text = parallel::block(&s.join(" "), &[&c.join(" ")], Merge::AllMerge).unwrap();
        let doc = parse(&text, "x").unwrap();
        let r = compare::score(&doc, &doc, &compare::Options::default()).unwrap();
        prop_assert_eq!((r.score.p, r.score.r, r.score.f), (1.0, 1.0, 1.0));
        prop_assert_eq!(r.score.fp + r.score.fn_, 0);
        if s != c && !c.is_empty() {
            let stats = cleme::corpus_stats(&doc, &doc, &cleme::Options::default()).unwrap();
            prop_assert!(stats[0].dependent[0].fp.is_empty() && stats[0].dependent[0].fn_.is_empty());
        }
    }
}
