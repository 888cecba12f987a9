//! Real data (ignored unless run with `--ignored`; needs GREEN_SHARED): CLEME2.0 of the 13
//! CoNLL-2014 systems of `data/cleme/` against `golden/cleme2-conll14.json`, the numbers
//! THUKElab/CLEME's own code gives (`scripts/cleme2-oracle.py`: HEUOEditScorer with main.py's
//! factors, no weigher and the length weigher). Every count and rate bit for bit.

use std::path::Path;

use green_edits::cleme::Options;
use green_edits::cleme2::{self, Row, Settings, Weigher};
use green_edits::parse;

fn read(path: &Path) -> green_edits::Document {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text, &path.display().to_string()).unwrap()
}

fn check(ours: &Row, theirs: &serde_json::Value, what: &str) -> usize {
    let c = &ours.counts;
    let fields = [
        ("tp", c.tp),
        ("fp", c.fp),
        ("fn", c.fn_),
        ("tn", c.tn),
        ("fp_ne", c.fp_ne),
        ("fp_un", c.fp_un),
        ("hit", ours.hit),
        ("err", ours.err),
        ("und", ours.und),
        ("ove", ours.ove),
        ("com", ours.com),
    ];
    for (k, v) in fields {
        assert_eq!(v, theirs[k].as_f64().unwrap(), "{what} {k}");
    }
    fields.len()
}

#[test]
#[ignore = "needs GREEN_SHARED"]
fn conll14_systems_equal_the_repository() {
    let golden: serde_json::Value =
        serde_json::from_str(include_str!("golden/cleme2-conll14.json")).unwrap();
    let dir = green_test_data::shared_file("data/cleme");
    let reference = read(&dir.join("conll14.errant"));
    let opts = Options::default();
    let mut checked = 0;
    let systems = golden.as_object().unwrap();
    assert_eq!(systems.len(), 13);
    for (name, rows) in systems {
        let hyp = read(&dir.join(name));
        let stats = cleme2::corpus_stats(&hyp, &reference, &opts).unwrap();
        for (weigher, label) in [(Weigher::None, "none"), (Weigher::Length, "length")] {
            let r = cleme2::fold(&stats, &Settings::default(), weigher, weigher).unwrap();
            for (assumption, v) in [("dependent", &r.dependent), ("independent", &r.independent)] {
                for (level, plain, weighted) in [
                    ("corpus", &v.corpus, &v.corpus_weighted),
                    ("sentence", &v.sentence, &v.sentence_weighted),
                ] {
                    let key = format!("{assumption}-{level}");
                    checked += check(plain, &rows[format!("{key}-unweighted")], name);
                    checked += check(weighted, &rows[format!("{key}-{label}")], name);
                }
            }
        }
    }
    assert_eq!(checked, 13 * 2 * 2 * 2 * 2 * 11);
}
