//! M2 and para reading on hand-made fixtures, including malformed input.

use green_io::m2::MissingAnnotator;
use green_io::references::{load, load_all, Format};
use green_io::{m2, para, Input, LineReader};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn parse_m2(text: &str) -> Result<m2::M2, String> {
    m2::parse(LineReader::new(text.as_bytes(), "bad.m2")).map_err(|e| e.to_string())
}

fn parse_para(text: &str) -> Result<Vec<para::ParaSentence>, String> {
    para::parse(LineReader::new(text.as_bytes(), "bad.para")).map_err(|e| e.to_string())
}

#[test]
fn plain_m2_one_reference_per_annotator() {
    let m = m2::read(&Input::parse(&fixture("plain.m2"))).unwrap();
    assert!(!m.has_targets);
    assert_eq!(m.sentences.len(), 5);
    assert_eq!(m.sentences[3].line, 10);
    // Annotator 2 only appears on the last sentence, yet every sentence gets three references.
    assert!(m.sentences.iter().all(|s| s.annotations.len() == 3));
    let refs = m.references(MissingAnnotator::Source);
    let src = m.sources();
    assert_eq!(refs[0], vec![src[0].clone(); 3]);
    assert_eq!(
        refs[1][0],
        "People get certain diseases because of genetic changes ."
    );
    assert_eq!(refs[1][1], src[1]);
    // noop is skipped: annotator 0 keeps the source.
    assert_eq!(
        refs[2],
        [
            src[2].as_str(),
            "If you will develop heart disease .",
            src[2].as_str()
        ]
    );
    // Offsets shift as edits apply: a deletion then a later replacement.
    assert_eq!(
        refs[3][0],
        "When we are diagnosed with certain genetic diseases ."
    );
    assert_eq!(
        refs[3][1],
        "When we are diagnosed with a certain genetic disease ."
    );
    // Two insertions at the same point apply in file order.
    assert_eq!(refs[4][2], "we know other members who have got it .");
    let e = &m.sentences[3].annotations[0].edits[1];
    assert_eq!(
        (
            e.start,
            e.end,
            e.kind.as_str(),
            e.correction.as_str(),
            e.annotator,
            e.line
        ),
        (4, 5, "Prep", "", 0, 12)
    );
}

#[test]
fn m2_with_target_lines() {
    let m = m2::read(&Input::parse(&fixture("targets.m2.char"))).unwrap();
    assert!(m.has_targets);
    let refs = m.references(MissingAnnotator::Source);
    assert_eq!(refs.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2, 1, 1]);
    for s in &m.sentences {
        // Every reference equals the text of its own T line, except "no error" which is the source.
        for (a, r) in s
            .primary(MissingAnnotator::Source)
            .iter()
            .zip(s.references(MissingAnnotator::Source))
        {
            let t = a.target.as_deref().unwrap();
            assert_eq!(
                r,
                if t == "没有错误" {
                    s.source.as_str()
                } else {
                    t
                }
            );
        }
    }
    assert_eq!(refs[2][0], m.sentences[2].source);
    // The alternative T0-A1 is kept as data but makes no extra reference.
    assert_eq!(m.sentences[3].annotations.len(), 2);
    assert_eq!(m.sentences[3].annotations[1].alternative, 1);
    assert_eq!(m.sentences[3].annotations[1].edits[0].correction, "");
    assert_eq!(
        m.sentences[3].annotations[1].edits[1].correction,
        "的 气 体"
    );
}

#[test]
fn m2_crlf_bom_and_missing_final_newline() {
    let m =
        parse_m2("\u{feff}S a b c\r\nA 1 2|||R|||x y|||REQUIRED|||-NONE-|||0\r\n\r\nS d").unwrap();
    assert_eq!(
        m.references(MissingAnnotator::Source),
        [vec!["a x y c".to_string()], vec!["d".to_string()]]
    );
}

#[test]
fn m2_malformed_lines_name_file_line_and_fix() {
    let cases = [
        ("A 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n", "bad.m2:1: 'A 0 1|||R|||x|||REQUIRED|||-NONE-|||0' is outside a sentence block; every block starts with an 'S <source tokens>' line"),
        ("S a b\nA 0 1|||R|||x\n", "bad.m2:2: A line has 3 '|||'-separated fields, expected 6: 'A start end|||type|||correction|||required|||comment|||annotator'"),
        ("S a b\nA 0 3|||R|||x|||REQUIRED|||-NONE-|||0\n", "bad.m2:2: edit span 0 3 does not fit the source's 2 tokens; offsets must satisfy 0 <= start <= end <= 2"),
        ("S a b\nA 2 1|||R|||x|||REQUIRED|||-NONE-|||0\n", "bad.m2:2: edit span 2 1 does not fit the source's 2 tokens; offsets must satisfy 0 <= start <= end <= 2"),
        ("S a b\nA -1 -1|||R|||x|||REQUIRED|||-NONE-|||0\n", "bad.m2:2: edit span '-1 -1' is not two non-negative token offsets 'start end' (only a noop edit may use -1 -1)"),
        ("S a b\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||zero\n", "bad.m2:2: annotator 'zero' is not a non-negative integer (last field of the A line)"),
        ("S a b\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||5000\n", "bad.m2:2: annotator id 5000 is too large (at most 999)"),
        ("S a b\nX what\n", "bad.m2:2: expected an 'S', 'A' or 'T' line or a blank line, found 'X what'; M2 blocks are an S line, its A (and T) lines, then a blank line"),
        ("S a b\nTx-A0 a b\n", "bad.m2:2: malformed target line 'Tx-A0'; expected 'T<ref>-A<alt> <target tokens>', e.g. 'T0-A0 ...'"),
        ("S a b\nT0-A0 x b\nA 0 1|||S|||x|||REQUIRED|||-NONE-|||1\n", "bad.m2:3: edit of annotator 1 under target line T0; an A line's last field must be the reference number of the T line above it"),
        ("S a b\nA 0 1|||S|||x|||REQUIRED|||-NONE-|||0\nT0-A0 x b\n", "bad.m2:3: target line after A lines that belong to no target line; put every A line under the T line it belongs to"),
    ];
    for (text, want) in cases {
        assert_eq!(parse_m2(text).unwrap_err(), want, "input {text:?}");
    }
}

#[test]
fn apply_edits_never_panics_on_overlaps() {
    let toks = ["a", "b", "c"];
    let edit = |start, end, c: &str| m2::Edit {
        start,
        end,
        kind: "X".into(),
        correction: c.into(),
        annotator: 0,
        line: 1,
    };
    // The second edit overlaps the first's output; it is clamped like a Python slice.
    assert_eq!(
        m2::apply_edits(&toks, &[edit(0, 3, ""), edit(1, 2, "z")]),
        "z"
    );
    // Spans past the end clamp to the end instead of failing.
    assert_eq!(m2::apply_edits(&toks, &[edit(5, 7, "q")]), "a b c q");
}

#[test]
fn para_varying_references_and_quirks() {
    let p = para::read(&Input::parse(&fixture("mini.para"))).unwrap();
    assert_eq!(p.len(), 3);
    assert_eq!(p[0].id, "1");
    assert_eq!(p[0].refs.len(), 2);
    // 没有错误 means "no error": the reference is the source.
    assert_eq!(p[1].refs, [p[1].source.clone()]);
    // CRLF dropped, trailing space kept, empty trailing cell skipped.
    assert_eq!(p[2].refs, ["我想说的是:每个野菜都有自己最好吃的时期。 "]);
}

#[test]
fn para_malformed_lines() {
    let cases = [
        ("1\tsrc\n", "bad.para:1: sentence '1' has no reference; a para line is 'id<TAB>source<TAB>reference1...' with at least one non-empty reference"),
        ("1\tsrc\tref\n2 src ref\n", "bad.para:2: no tab on this line; a para line is 'id<TAB>source<TAB>reference1<TAB>reference2...'"),
        ("1\tsrc\tref\n\n2\tsrc\tref\n", "bad.para:2: empty line inside a para file; every line must be 'id<TAB>source<TAB>reference...' (delete the line)"),
    ];
    for (text, want) in cases {
        assert_eq!(parse_para(text).unwrap_err(), want, "input {text:?}");
    }
    // Empty lines at the very end are fine.
    assert_eq!(parse_para("1\ts\tr\n\n\n").unwrap().len(), 1);
}

#[test]
fn format_detection_and_names() {
    assert_eq!(Format::detect("x/conll14st-test.m2"), Format::M2);
    assert_eq!(Format::detect("nlpcc2018_official.ref.m2.char"), Format::M2);
    assert_eq!(Format::detect("yaclc-minimal_dev.PARA"), Format::Para);
    assert_eq!(Format::detect("refs.tsv"), Format::Para);
    assert_eq!(Format::detect("ref0.txt"), Format::Lines);
    assert_eq!(Format::detect("-"), Format::Lines);
    assert_eq!(Format::parse("auto").unwrap(), None);
    assert_eq!(Format::parse("para").unwrap(), Some(Format::Para));
    assert_eq!(Format::detect("cs-natwebinf-ref1-dev.md"), Format::MultiGec);
    assert_eq!(Format::parse("multigec").unwrap(), Some(Format::MultiGec));
    assert_eq!(
        Format::parse("xml").unwrap_err().to_string(),
        "unknown reference format 'xml'; use one of auto, lines, m2, para, multigec"
    );
}

#[test]
fn load_joins_files_per_sentence() {
    let m2c = load(
        &Input::parse(&fixture("targets.m2.char")),
        None,
        MissingAnnotator::Skip,
    )
    .unwrap();
    assert_eq!(m2c.max_refs(), 2);
    let sets = m2c.as_ref_sets();
    // A sentence with one reference repeats it in the second set.
    assert_eq!(sets[1][0], sets[0][0]);
    assert_eq!(
        sets[1][1],
        "这 部 电 影 不 仅 在 国 内 ， 在 国 外 也 很 有 名 。"
    );

    let lines = fixture("zh_raw_ref.txt");
    let both = load_all(
        &[Input::parse(&lines), Input::parse(&lines)],
        None,
        MissingAnnotator::Skip,
    )
    .unwrap();
    assert!(both.sources.is_none());
    assert_eq!(
        both.refs.iter().map(Vec::len).collect::<Vec<_>>(),
        [2, 2, 2]
    );
    let err = load_all(
        &[Input::parse(&lines), Input::parse(&fixture("plain.m2"))],
        None,
        MissingAnnotator::Skip,
    )
    .unwrap_err();
    let want = format!(
        "{} has 5 sentences but {lines} has 3; every reference file must cover the same sentences",
        fixture("plain.m2")
    );
    assert_eq!(err.to_string(), want);
    let forced = load(
        &Input::parse(&fixture("mini.para")),
        Some(Format::Lines),
        MissingAnnotator::Skip,
    )
    .unwrap();
    assert_eq!(forced.refs.len(), 3);
    assert_eq!(forced.refs[0].len(), 1);
}

/// Character-tokenised text (spaces between characters, as NLPCC-18 ships) scored with
/// `char:nospace` gives exactly the counts of the raw text: spaces are not characters to it.
#[test]
fn char_tokenised_text_scores_like_raw_text_with_char_nospace() {
    use green_engine::{Config, Scorer};
    // The evaluation of the `kind` fixture (raw or chars) with tokenizer `spec`.
    let evaluate = |spec: &str, kind: &str| {
        let read = |part: &str| {
            green_io::read_lines(&Input::parse(&fixture(&format!("zh_{kind}_{part}.txt")))).unwrap()
        };
        let tok = green_tokenizers::build(spec, &Default::default())
            .unwrap()
            .into_dyn();
        Scorer::new(tok, Config::new(4, vec![0.5, 2.0]).unwrap())
            .evaluate(&read("src"), &[read("ref")], &[read("hyp")])
            .unwrap()
    };
    let raw = evaluate("char:nospace", "raw");
    let spaced = evaluate("char:nospace", "chars");
    assert_eq!(raw, spaced);
    assert!(
        raw.report.systems[0].betas[0].corpus > 0.0 && raw.report.systems[0].betas[0].corpus < 1.0
    );
    // Plain `char` counts the spaces, so the two differ there.
    let raw = evaluate("char", "raw");
    let spaced = evaluate("char", "chars");
    assert_ne!(raw, spaced);
}

#[test]
fn missing_annotator_rules() {
    let text =
        "S a b\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\nA 1 2|||R|||y|||REQUIRED|||-NONE-|||1\n\n\
                S c d\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n\
                S e f\nA 0 1|||R|||z|||REQUIRED|||-NONE-|||0\n\n\
                S g h\n";
    let m = m2::parse(LineReader::new(text.as_bytes(), "t.m2")).unwrap();
    // skip: only annotators with a line in the block; a `noop` counts; no line at all keeps
    // annotator 0 with the source, as the m2scorer.
    assert_eq!(
        m.references(MissingAnnotator::Skip),
        [vec!["x b", "a y"], vec!["c d"], vec!["z f"], vec!["g h"]]
    );
    assert_eq!(
        m.references(MissingAnnotator::Source),
        [
            vec!["x b", "a y"],
            vec!["c d", "c d"],
            vec!["z f", "e f"],
            vec!["g h", "g h"]
        ]
    );
    let ids: Vec<usize> = m.sentences[1]
        .primary(MissingAnnotator::Skip)
        .iter()
        .map(|a| a.annotator)
        .collect();
    assert_eq!(ids, [1]);
    assert_eq!(
        "skip".parse::<MissingAnnotator>().unwrap(),
        MissingAnnotator::Skip
    );
    assert!("x".parse::<MissingAnnotator>().is_err());
}

#[test]
fn target_lines_with_only_a_second_alternative_still_give_a_reference() {
    // Once a panic: a sentence whose only target line is T0-A1 had no reference at all.
    let m = parse_m2(
        "S 我 去 学 校\nT0-A1 我 去 学校\nA 2 4|||S|||学校|||REQUIRED|||-NONE-|||0\n\nS 好\nT0-A0 好\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
    )
    .unwrap();
    for missing in [MissingAnnotator::Skip, MissingAnnotator::Source] {
        assert_eq!(m.references(missing), [vec!["我 去 学校"], vec!["好"]]);
    }
}

#[test]
fn first_alternative_of_each_reference_in_file_order() {
    let m = parse_m2(
        "S a b\nT0-A1 a c\nA 1 2|||S|||c|||REQUIRED|||-NONE-|||0\nT0-A0 a d\nA 1 2|||S|||d|||REQUIRED|||-NONE-|||0\nT1-A0 a e\nA 1 2|||S|||e|||REQUIRED|||-NONE-|||1\n",
    )
    .unwrap();
    assert_eq!(m.references(MissingAnnotator::Skip), [vec!["a c", "a e"]]);
}

/// `n` plain blocks; annotator 0 corrects each; `stray` adds one noop of annotator 999.
fn plain_corpus(n: usize, stray: bool) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "S w{i} x\nA 1 2|||R|||y|||REQUIRED|||-NONE-|||0\n"
        ));
        if stray && i == 3 {
            text.push_str("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||999\n");
        }
        text.push('\n');
    }
    text
}

#[test]
fn a_stray_annotator_id_adds_one_annotator_not_a_thousand() {
    // Once: one `noop` of annotator 999 gave every sentence 1,000 references.
    let m = parse_m2(&plain_corpus(30, true)).unwrap();
    let skip = m.references(MissingAnnotator::Skip);
    assert_eq!(skip[0], ["w0 y"]);
    assert_eq!(skip[3], ["w3 y", "w3 x"]);
    let source = m.references(MissingAnnotator::Source);
    assert!(source.iter().all(|r| r.len() == 2));
    let warnings = m.warnings();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("annotator ids are 0, 999, not 0..1"));
    assert!(warnings[1].contains("annotator 999 has lines in only 1 of 30 sentences"));
    assert!(parse_m2(&plain_corpus(30, false))
        .unwrap()
        .warnings()
        .is_empty());
}

#[test]
fn reference_files_of_different_corpora_are_not_joined() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.m2");
    let b = dir.path().join("b.m2");
    let c = dir.path().join("c.m2");
    std::fs::write(&a, "S the cat\n\nS a dog\n\n").unwrap();
    std::fs::write(&b, "S the bird\n\nS a dog\n\n").unwrap();
    // Same text, other spacing: the same corpus, but not the same references (spaces count).
    std::fs::write(&c, "S the  cat\n\nS a d og\n\n").unwrap();
    let inputs = |p: &[&std::path::Path]| -> Vec<Input> {
        p.iter()
            .map(|p| Input::parse(p.to_str().unwrap()))
            .collect()
    };
    let err = load_all(&inputs(&[&a, &b]), None, MissingAnnotator::Skip)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the source of sentence 1 in") && err.contains("(1 sentences differ)"),
        "{err}"
    );
    let err = load_all(&inputs(&[&a, &c]), None, MissingAnnotator::Skip)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the source of sentence 1 in")
            && err.contains("only in spacing (2 sentences differ)"),
        "{err}"
    );
    let ok = load_all(&inputs(&[&a, &a]), None, MissingAnnotator::Skip).unwrap();
    assert_eq!(ok.refs[0], ["the cat", "the cat"]);
}

/// M2 → reference text: edits that garble it, alternatives copied literally and T lines that
/// disagree with their edits used to pass silently; each kind is now named with its line.
#[test]
fn edits_that_cannot_make_a_clean_reference_are_named() {
    let warnings = |text: &str| parse_m2(text).unwrap().warnings();
    let clean = "S a b c d\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\nA 2 3|||R|||y|||REQUIRED|||-NONE-|||0\n\n";
    assert!(warnings(clean).is_empty(), "{:?}", warnings(clean));
    let swapped = "S a b c d\nA 2 3|||R|||y|||REQUIRED|||-NONE-|||0\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n";
    let w = warnings(swapped);
    assert!(
        w[0].contains(":3: edits of one annotator out of order or overlapping"),
        "{w:?}"
    );
    let overlapping = "S a b c d\nA 0 2|||R|||x|||REQUIRED|||-NONE-|||0\nA 1 3|||R|||y|||REQUIRED|||-NONE-|||0\n\n";
    assert!(warnings(overlapping)[0].contains(":3: edits of one annotator out of order"));
    let alternatives = "S a b\nA 0 1|||R|||x||z|||REQUIRED|||-NONE-|||0\n\n";
    assert!(warnings(alternatives)[0].contains(":2: corrections holding alternatives"));
    let target = "S a b\nT0-A0 x c\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\nS c\nT0-A0 没有错误\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n";
    let w = warnings(target);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains(":2: target lines that differ from what their edits make of the source")
            && w[0].ends_with("; 1 in the file"),
        "{w:?}"
    );
}
