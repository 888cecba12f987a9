//! Fuzzing the readers on stable Rust (proptest; cargo-fuzz needs a nightly toolchain):
//! hostile line files, M2 and para text must give a value or one error, never a panic, and
//! what they give must be sane. `PROPTEST_CASES` sets the cases per round (`.ci/steps/27-fuzz.sh`
//! runs many more than `cargo test`'s default) and `GREEN_FUZZ_SECONDS` a time to fill.

use green_io::lines::lines_of;
use green_io::m2::{self, MissingAnnotator};
use green_io::{para, LineReader};
use proptest::prelude::*;

mod support {
    pub mod budget;
}
use support::budget::fuzz;

/// Pieces that M2 and para lines are made of, valid and not.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("S ".to_string()),
        Just("A ".to_string()),
        Just("T0-A0 ".to_string()),
        Just("T1-A1 ".to_string()),
        Just("T".to_string()),
        Just("|||".to_string()),
        Just("noop".to_string()),
        Just("-NONE-".to_string()),
        Just("REQUIRED".to_string()),
        Just("没有错误".to_string()),
        Just("-1 -1".to_string()),
        Just("\t".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r".to_string()),
        Just(" ".to_string()),
        Just("\u{feff}".to_string()),
        (0u32..12).prop_map(|n| n.to_string()),
        (0u64..u64::MAX).prop_map(|n| n.to_string()),
        "[a-z猫 ]{0,6}",
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..80).prop_map(|p| p.concat())
}

/// A well-formed plain M2 block list with random spans and annotators, so the parser's
/// happy path is fuzzed too.
fn plain_m2() -> impl Strategy<Value = String> {
    let block = (1usize..6).prop_flat_map(|ntok| {
        let edit = (0..=ntok, 0..=ntok, 0usize..4, "[a-z]{0,3}").prop_map(|(a, b, who, c)| {
            let (s, e) = (a.min(b), a.max(b));
            let c = if c.is_empty() { "-NONE-".into() } else { c };
            format!("A {s} {e}|||R|||{c}|||REQUIRED|||-NONE-|||{who}\n")
        });
        (Just(ntok), prop::collection::vec(edit, 0..5))
    });
    prop::collection::vec(block, 1..8).prop_map(|blocks| {
        blocks
            .into_iter()
            .map(|(ntok, edits)| {
                let source: Vec<String> = (0..ntok).map(|i| format!("w{i}")).collect();
                format!("S {}\n{}\n", source.join(" "), edits.concat())
            })
            .collect()
    })
}

fn check_m2(text: &str) -> Result<(), TestCaseError> {
    if let Ok(m) = m2::parse(LineReader::new(text.as_bytes(), "f.m2")) {
        for missing in [MissingAnnotator::Skip, MissingAnnotator::Source] {
            let refs = m.references(missing);
            prop_assert_eq!(refs.len(), m.sentences.len());
            prop_assert!(refs.iter().all(|r| !r.is_empty()));
        }
        let _ = m.warnings();
    }
    Ok(())
}

#[test]
fn line_reader_on_any_bytes() {
    fuzz(prop::collection::vec(any::<u8>(), 0..400), |bytes| {
        if let Ok(lines) = lines_of(&bytes[..], "f") {
            let text = String::from_utf8(bytes.clone()).unwrap();
            let unified = text.replace("\r\n", "\n").replace('\r', "\n");
            let expected = unified.strip_suffix('\n').unwrap_or(&unified);
            prop_assert_eq!(lines.join("\n"), expected);
        } else {
            prop_assert!(std::str::from_utf8(&bytes).is_err());
        }
        Ok(())
    });
}

#[test]
fn m2_on_hostile_text() {
    fuzz(text(), |t| check_m2(&t));
}

#[test]
fn m2_on_well_formed_blocks() {
    fuzz(plain_m2(), |t| {
        let m = m2::parse(LineReader::new(t.as_bytes(), "f.m2")).unwrap();
        prop_assert!(!m.sentences.is_empty());
        check_m2(&t)
    });
}

#[test]
fn para_on_hostile_text() {
    fuzz(text(), |t| {
        if let Ok(p) = para::parse(LineReader::new(t.as_bytes(), "f.para")) {
            prop_assert!(p.iter().all(|s| !s.refs.is_empty()));
        }
        Ok(())
    });
}

/// M2 → reference text: the conversion warns exactly when an annotator's edits are out of
/// order or overlap, and otherwise gives the source with each edit spliced in.
#[test]
fn m2_references_warn_exactly_when_edits_garble_them() {
    let edits = prop::collection::vec((0usize..6, 0usize..3, "[a-z]{0,2}"), 0..4);
    fuzz(prop::collection::vec(edits, 1..3), |annotators| {
        let ntok = 6;
        let source: Vec<String> = (0..ntok).map(|i| format!("w{i}")).collect();
        let mut text = format!("S {}\n", source.join(" "));
        let mut garbled = false;
        for (who, list) in annotators.iter().enumerate() {
            let spans: Vec<(usize, usize)> = list
                .iter()
                .map(|(s, len, _)| (*s, (*s + len).min(ntok)))
                .collect();
            garbled |= spans.windows(2).any(|w| w[1].0 < w[0].1 || w[1].0 < w[0].0);
            for ((s, e), (_, _, c)) in spans.iter().zip(list) {
                let c = if c.is_empty() { "-NONE-" } else { c };
                text.push_str(&format!(
                    "A {s} {e}|||R|||{c}|||REQUIRED|||-NONE-|||{who}\n"
                ));
            }
            if list.is_empty() {
                text.push_str(&format!(
                    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{who}\n"
                ));
            }
        }
        let m = m2::parse(LineReader::new(text.as_bytes(), "f.m2")).unwrap();
        let warned = m
            .edit_warnings()
            .iter()
            .any(|w| w.contains("out of order or overlapping"));
        prop_assert_eq!(warned, garbled, "{}", text);
        if !garbled {
            let refs = m.references(MissingAnnotator::Source);
            for (who, list) in annotators.iter().enumerate() {
                // Spliced from the end, so earlier spans keep their positions.
                let mut tokens: Vec<String> = source.clone();
                for (s, len, c) in list.iter().rev() {
                    let e = (s + len).min(ntok);
                    let with: Vec<String> = if c.is_empty() {
                        vec![]
                    } else {
                        vec![c.clone()]
                    };
                    tokens.splice(*s..e, with);
                }
                prop_assert_eq!(&refs[0][who], &tokens.join(" "));
            }
        }
        Ok(())
    });
}
