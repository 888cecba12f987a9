//! Replays the cases under `tests/fixtures/compare/`: a hypothesis and a reference M2 file,
//! the original's flags, and what ERRANT 3.0.2's `errant_compare` printed for them (recorded
//! with `scripts/fuzz-errant-compare.py --record DIR`, which also writes every mismatch
//! its fuzzing finds here); cases whose args say `--cherrant` were recorded with ChERRANT's
//! `compare_m2_for_evaluation.py`. Ours must print the same bytes.

use std::path::Path;

use green_edits::compare::{self, Mode, Options};

fn options(args: &str) -> (Options, Option<u8>) {
    let mut o = Options::default();
    let mut cat = None;
    let mut it = args.split_whitespace().peekable();
    while let Some(a) = it.next() {
        match a {
            "-dt" => o.mode = Mode::DetectionToken,
            "-ds" => o.mode = Mode::DetectionSpan,
            "-cse" => o.mode = Mode::CorrectionTyped,
            "-cs" => o.mode = Mode::Correction,
            "-single" => o.single = true,
            "-multi" => o.multi = true,
            "-b" => o.beta = it.next().unwrap().parse().unwrap(),
            "--cherrant" => o.cherrant = true,
            "--max_answer_num" => o.max_answers = Some(it.next().unwrap().parse().unwrap()),
            "--reference_num" => o.references = Some(it.next().unwrap().parse().unwrap()),
            "-cat" => cat = Some(it.next().unwrap().parse().unwrap()),
            "-filt" => {
                while let Some(t) = it.next_if(|t| !t.starts_with('-')) {
                    o.filter.push(t.to_string());
                }
            }
            other => panic!("unknown flag {other}"),
        }
    }
    (o, cat)
}

#[test]
fn recorded_cases_print_what_the_original_printed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    let mut cases = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        let hyp = green_edits::parse(&read("hyp.m2"), "hyp.m2").unwrap();
        let reference = green_edits::parse(&read("ref.m2"), "ref.m2").unwrap();
        let (opts, cat) = options(&read("args"));
        let report = compare::score(&hyp, &reference, &opts).unwrap();
        assert_eq!(
            compare::render(&report, &opts, cat),
            read("expected.txt"),
            "case {}",
            dir.display()
        );
        cases += 1;
    }
    assert!(cases >= 3, "the hand-made cases are missing");
}
