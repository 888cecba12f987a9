//! The formats on the real data in `$GREEN_SHARED/data` (run with `-- --ignored`).

use green_io::m2::MissingAnnotator;
use green_io::references::load;
use green_io::{m2, para, Input};

fn shared(rel: &str) -> String {
    let path = green_test_data::shared_file(format!("data/{rel}"));
    path.to_string_lossy().into_owned()
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn conll14_references_reproduced_byte_for_byte() {
    let m = m2::read(&Input::parse(&shared("conll14/conll14st-test.m2"))).unwrap();
    assert_eq!(m.sentences.len(), 1312);
    let refs = m.references(MissingAnnotator::Source);
    assert!(refs.iter().all(|r| r.len() == 2));
    for k in 0..2 {
        let mut text = String::new();
        for r in &refs {
            text.push_str(&r[k]);
            text.push('\n');
        }
        let want = std::fs::read_to_string(shared(&format!("conll14/ref{k}.txt"))).unwrap();
        assert!(
            text == want,
            "ref{k}.txt differs from the M2 file's annotator {k}"
        );
    }
    let source = std::fs::read_to_string(shared("conll14/source.txt")).unwrap();
    assert_eq!(m.sources().join("\n") + "\n", source);
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn nlpcc18_targets() {
    let m = m2::read(&Input::parse(&shared(
        "zh/nlpcc18/nlpcc2018_official.ref.m2.char",
    )))
    .unwrap();
    assert!(m.has_targets);
    assert_eq!(m.sentences.len(), 2000);
    let refs = m.references(MissingAnnotator::Source);
    assert_eq!(refs.iter().filter(|r| r.len() == 2).count(), 259);
    assert!(refs.iter().all(|r| (1..=2).contains(&r.len())));
    // Every T line's text is what its edits produce (alternatives included), "no error" aside.
    let mut checked = 0;
    for s in &m.sentences {
        let tokens = s.tokens();
        for a in &s.annotations {
            let t = a.target.as_deref().unwrap();
            let want = if t == "没有错误" {
                s.source.as_str()
            } else {
                t
            };
            assert_eq!(m2::apply_edits(&tokens, &a.edits), want, "line {}", s.line);
            checked += 1;
        }
    }
    assert_eq!(checked, 2287);
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn mucgec_and_yaclc_para() {
    let p = para::read(&Input::parse(&shared("zh/mucgec/MuCGEC_dev.txt"))).unwrap();
    assert_eq!(p.len(), 1137);
    let mut hist = [0usize; 8];
    for s in &p {
        hist[s.refs.len()] += 1;
    }
    assert_eq!(hist, [0, 287, 462, 313, 62, 10, 2, 1]);
    assert_eq!(
        p.iter()
            .flat_map(|s| &s.refs)
            .filter(|r| *r == para::NO_ERROR)
            .count(),
        0
    );
    assert_eq!((p[0].id.as_str(), p[1136].id.as_str()), ("1", "1137"));
    for (f, max) in [
        ("yaclc-minimal_dev.para", 11),
        ("yaclc-fluency_dev.para", 7),
    ] {
        let c = load(
            &Input::parse(&shared(&format!("zh/yaclc/{f}"))),
            None,
            MissingAnnotator::Skip,
        )
        .unwrap();
        assert_eq!(c.refs.len(), 1839, "{f}");
        assert_eq!(c.max_refs(), max, "{f}");
        assert_eq!(c.sources.as_ref().unwrap().len(), 1839);
    }
}
