//! Real data (ignored unless run with `--ignored`; needs GREEN_SHARED): GoToScorer of the 13
//! CoNLL-2014 systems of `data/cleme/` against `golden/gotoscorer-conll14.json`, the numbers
//! gec-metrics' own code gives on the same edits (`scripts/gotoscorer-oracle.py`): the weight
//! file from all 13 systems byte for byte (its SHA-256), corpus counts and P/R/F and every
//! sentence's F, unweighted and weighted, bit for bit.

use std::path::Path;

use green_edits::gotoscorer;
use green_edits::parse;
use sha2::{Digest, Sha256};

fn read(path: &Path) -> green_edits::Document {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text, &path.display().to_string()).unwrap()
}

#[test]
#[ignore = "needs GREEN_SHARED"]
fn conll14_systems_equal_gec_metrics() {
    let golden: serde_json::Value =
        serde_json::from_str(include_str!("golden/gotoscorer-conll14.json")).unwrap();
    let dir = green_test_data::shared_file("data/cleme");
    let reference = read(&dir.join("conll14.errant"));
    let names: Vec<&String> = golden
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| !k.starts_with('_'))
        .collect();
    assert_eq!(names.len(), 13);
    let hyps: Vec<_> = names.iter().map(|n| read(&dir.join(n))).collect();
    let weights = gotoscorer::weight_file(&reference, 0, &hyps).unwrap();
    let json = serde_json::to_string_pretty(&weights).unwrap();
    let digest: String = Sha256::digest(json.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, golden["_weight_file_sha256"].as_str().unwrap());
    let mut checked = 0;
    for (name, hyp) in names.iter().zip(&hyps) {
        for (label, w) in [("unweighted", None), ("weighted", Some(&weights[..]))] {
            let stats = gotoscorer::corpus_stats(hyp, &reference, 0, w).unwrap();
            let want = &golden[name.as_str()][label];
            let c = gotoscorer::corpus(&stats, 0.5);
            for (k, v) in [
                ("tp", c.tp),
                ("fp", c.fp),
                ("fn", c.fn_),
                ("tn", c.tn),
                ("p", c.p),
                ("r", c.r),
                ("f", c.f),
            ] {
                assert_eq!(v, want[k].as_f64().unwrap(), "{name} {label} {k}");
                checked += 1;
            }
            let sentence: Vec<f64> = want["sentence_f"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let ours: Vec<f64> = stats
                .iter()
                .map(|s| gotoscorer::sentence(s, 0.5).f)
                .collect();
            assert_eq!(ours, sentence, "{name} {label}");
            checked += ours.len();
        }
    }
    assert_eq!(checked, 13 * 2 * (7 + 1312));
}
