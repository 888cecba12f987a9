//! `green multigec` against MultiGEC-2025's official scorer: `tests/fixtures/multigec` holds
//! essays written for the test in the task's layout (an English corpus with one reference,
//! a Czech one with two, a German fluency-track system; a system file with its essays out of
//! order), the CoNLL-U of each file, and the `scores.csv` and M2 files that the scorer itself
//! wrote from them (`scripts/multigec-oracle.py`). Bad input is one error line.

mod common;
use std::path::Path;

use common::{green, stderr, stdout};

fn fixtures() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/multigec"
    ))
}

#[test]
fn the_table_and_the_m2_files_are_the_official_scorers() {
    let m2 = tempfile::tempdir().unwrap();
    let out = stdout(&green(
        fixtures(),
        &[
            "multigec",
            "--ref-dir",
            "ref",
            "--hyp-dir",
            "res",
            "--m2-dir",
            m2.path().to_str().unwrap(),
        ],
    ));
    let golden = std::fs::read_to_string(fixtures().join("scores.csv")).unwrap();
    assert_eq!(out, golden);
    let mut names = 0;
    for e in std::fs::read_dir(fixtures().join("m2")).unwrap() {
        let e = e.unwrap();
        let ours = std::fs::read_to_string(m2.path().join(e.file_name())).unwrap();
        assert_eq!(
            ours,
            std::fs::read_to_string(e.path()).unwrap(),
            "{:?}",
            e.file_name()
        );
        names += 1;
    }
    assert_eq!(names, 6);
}

#[test]
fn tags_change_the_edits_types_not_the_table_format() {
    let out = stdout(&green(
        fixtures(),
        &[
            "multigec",
            "--ref-dir",
            "ref",
            "--hyp-dir",
            "res",
            "--tags",
            "--team",
            "t",
        ],
    ));
    assert!(out.starts_with(
        "team_name,language,corpus,track,GLEU,precision,recall,F0.5\nt,cs,natform,minimal,"
    ));
}

#[test]
fn a_conllu_of_other_essays_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["ref", "res"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(sub).join(e.file_name())).unwrap();
        }
    }
    let conllu = dir.path().join("res/cs-natform-hypo1-dev.conllu");
    let text = std::fs::read_to_string(&conllu).unwrap();
    std::fs::write(
        &conllu,
        text.replace("# newdoc id = c2", "# newdoc id = c9"),
    )
    .unwrap();
    let err = stderr(&green(
        dir.path(),
        &["multigec", "--ref-dir", "ref", "--hyp-dir", "res"],
    ));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("names essay c9 where res/cs-natform-hypo1-dev.md has essay_id = c2"),
        "{err}"
    );
    std::fs::remove_file(&conllu).unwrap();
    let err = stderr(&green(
        dir.path(),
        &["multigec", "--ref-dir", "ref", "--hyp-dir", "res", "--tags"],
    ));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot read res/cs-natform-hypo1-dev.conllu"),
        "{err}"
    );
}

#[test]
fn systems_may_share_the_references_directory() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["ref", "res"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
    }
    let out = stdout(&green(
        dir.path(),
        &["multigec", "--ref-dir", ".", "--hyp-dir", "."],
    ));
    let golden = std::fs::read_to_string(fixtures().join("scores.csv")).unwrap();
    assert_eq!(out, golden);
}

/// Copies the Markdown files of a fixture (not the CoNLL-U) into `ref/` and `res/` of `dir`.
fn markdown_only(fixture: &Path, dir: &Path) {
    for sub in ["ref", "res"] {
        std::fs::create_dir(dir.join(sub)).unwrap();
        for e in std::fs::read_dir(fixture.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.path().extension().is_some_and(|x| x == "md") {
                std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
}

#[test]
fn without_conllu_the_markdown_is_tokenized_as_the_scorer_does() {
    // The CoNLL-U of the fixture holds the scorer's own tokens: without it, green's syntok
    // gives the same table.
    let dir = tempfile::tempdir().unwrap();
    markdown_only(fixtures(), dir.path());
    let out = stdout(&green(
        dir.path(),
        &["multigec", "--ref-dir", "ref", "--hyp-dir", "res"],
    ));
    let golden = std::fs::read_to_string(fixtures().join("scores.csv")).unwrap();
    assert_eq!(out, golden);
}

/// `tests/fixtures/multigec-raw`: Markdown only (English with two systems, German, Russian,
/// Greek), written for the test with what syntok splits in its own way (`don't`, `iPhone`,
/// `well-known`, e-mail addresses, quotes, glued sentences); the first English system lacks
/// an essay and the German one too; `scores.csv` and `m2/` are the scorer's.
#[test]
fn the_markdown_alone_and_missing_essays_score_as_the_official_scorer() {
    let raw = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/multigec-raw"
    ));
    let m2 = tempfile::tempdir().unwrap();
    let run = green(
        raw,
        &[
            "multigec",
            "--ref-dir",
            "ref",
            "--hyp-dir",
            "res",
            "--m2-dir",
            m2.path().to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(
        stdout(&run),
        std::fs::read_to_string(raw.join("scores.csv")).unwrap()
    );
    // As the scorer: system 1 gets system 2's essay e2, system 2 and the German system `!`.
    for warning in [
        "res/en-writeandimprove2024-hypo1-dev.md: no essay_id = e2; scored as en-writeandimprove2024-hypo2-dev.md's text",
        "res/en-writeandimprove2024-hypo2-dev.md: essay_id = e2 is scored as `!`",
        "res/de-merlin-fluency-hypo1-dev.md: no essay_id = d2; scored as `!`",
    ] {
        assert!(err.contains(warning), "{err}");
    }
    let mut names = 0;
    for e in std::fs::read_dir(raw.join("m2")).unwrap() {
        let e = e.unwrap();
        let ours = std::fs::read_to_string(m2.path().join(e.file_name())).unwrap();
        assert_eq!(
            ours,
            std::fs::read_to_string(e.path()).unwrap(),
            "{:?}",
            e.file_name()
        );
        names += 1;
    }
    assert_eq!(names, 9);
}
