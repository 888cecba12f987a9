//! What the tests of every metric share: the committed data (tiny models, sentences,
//! goldens), CoNLL-2014 from $GREEN_SHARED for the real-data tests, and copies of the tiny
//! models to break.
#![allow(dead_code)] // each test binary uses part of it

use std::fs;
use std::path::{Path, PathBuf};

/// A file or directory of tests/data.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// A file's lines, line ends stripped.
pub fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A golden of tests/data, parsed.
pub fn golden(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The written sentences the reference-free metrics' goldens score: (sources, hypotheses).
pub fn sentences() -> (Vec<String>, Vec<String>) {
    (
        lines(&data("some-sentences.src")),
        lines(&data("some-sentences.hyp")),
    )
}

/// CoNLL-2014's sources and AMU's output, from $GREEN_SHARED.
pub fn conll14_amu() -> (Vec<String>, Vec<String>) {
    let dir = conll14();
    (
        lines(&dir.join("source.txt")),
        lines(&dir.join("systems/AMU.txt")),
    )
}

/// CoNLL-2014's directory under $GREEN_SHARED.
pub fn conll14() -> PathBuf {
    green_test_data::shared_file("data/conll14")
}

/// A copy of tests/data/`rel` (a directory, recursively) in a temporary directory, to break.
pub fn copy_models(rel: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&data(rel), tmp.path());
    tmp
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            fs::copy(&p, &target).unwrap();
        }
    }
}

/// Sets `key` of the JSON file at `path` (a model's config.json) to `value`.
pub fn edit_config(path: &Path, key: &str, value: serde_json::Value) {
    let mut config = golden(path);
    config[key] = value;
    fs::write(path, config.to_string()).unwrap();
}
