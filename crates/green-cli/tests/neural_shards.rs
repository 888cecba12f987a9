//! `--stats` and `--rows` of `green some`, `green impara`, `green scribendi` and `green ptm2`
//! (the `neural` feature): shards of a corpus, joined by `green merge`, print what one run
//! over the whole prints, text (with `-v`) and JSON, bit for bit when a batch is one sentence
//! (a model's float rounding depends on the batch a sentence is padded in, and a shard
//! batches only its own sentences); shards of other settings or models do not join.
#![cfg(feature = "neural")]

mod common;

use std::path::{Path, PathBuf};

use common::{green, stderr, stdout};

fn data(rel: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../green-neural/tests/data");
    root.join(rel).to_string_lossy().into_owned()
}

/// Each metric's command on the tiny models, without output options.
fn commands() -> Vec<(&'static str, Vec<String>)> {
    let (src, hyp) = (data("some-sentences.src"), data("some-sentences.hyp"));
    let on_source = |args: &[&str]| {
        let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        v.extend([
            "-s".into(),
            src.clone(),
            "-c".into(),
            hyp.clone(),
            src.clone(),
        ]);
        v
    };
    vec![
        ("some", on_source(&["some", "--models", &data("some-tiny")])),
        (
            "impara",
            on_source(&[
                "impara",
                "--qe",
                &data("impara-tiny/qe"),
                "--se",
                &data("impara-tiny/se"),
            ]),
        ),
        (
            "scribendi",
            on_source(&["scribendi", "--model", &data("scribendi-tiny")]),
        ),
        (
            "ptm2",
            [
                "ptm2",
                "--model",
                &data("impara-tiny/se"),
                "--layers",
                "1",
                "--baseline",
                &data("ptm2-tiny-baseline.tsv"),
                "--m2",
                &data("ptm2-sentences.m2"),
                "-c",
                &data("ptm2-sentences.hyp"),
            ]
            .iter()
            .map(|a| a.to_string())
            .collect(),
        ),
    ]
}

fn run(dir: &Path, base: &[String], extra: &[&str]) -> std::process::Output {
    let args = base.iter().map(String::as_str).chain(extra.iter().copied());
    green(dir, &args.collect::<Vec<_>>())
}

/// Three shards of `base`'s corpus (rows 0:5, 5:6, 6:) scored with `extra`, their files
/// given to `green merge` out of order.
fn shards(dir: &Path, name: &str, base: &[String], extra: &[&str]) -> Vec<String> {
    let mut parts = Vec::new();
    for (k, rows) in ["0:5", "5:6", "6:"].iter().enumerate() {
        let part = format!("{name}{k}.json");
        let args = [extra, &["--rows", rows, "--stats", &part]].concat();
        stdout(&run(dir, base, &args));
        parts.push(part);
    }
    parts.reverse();
    parts
}

fn merge(dir: &Path, parts: &[String], extra: &[&str]) -> String {
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(extra);
    stdout(&green(dir, &args))
}

#[test]
fn shards_merge_into_what_one_run_prints() {
    let dir = tempfile::tempdir().unwrap();
    let one = ["--batch-size", "1"];
    for (metric, base) in commands() {
        let whole_text = stdout(&run(dir.path(), &base, &[&one[..], &["-v"]].concat()));
        let whole_json = stdout(&run(
            dir.path(),
            &base,
            &[&one[..], &["--format", "json"]].concat(),
        ));
        let parts = shards(dir.path(), metric, &base, &one);
        assert_eq!(
            merge(dir.path(), &parts, &["-v"]),
            whole_text,
            "{metric}, text"
        );
        let json = merge(dir.path(), &parts, &["--format", "json"]);
        assert_eq!(json, whole_json, "{metric}, json");
        // A missing shard is named, not scored.
        let err = stderr(&green(dir.path(), &["merge", &parts[0], &parts[2]]));
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("rows 5..6"), "{err}");
    }
}

/// Every number in `a` within `tolerance` of the one in the same place in `b`, relative to
/// the larger of 1 and their size (perplexities are in the hundreds), all else equal.
fn close(a: &serde_json::Value, b: &serde_json::Value, tolerance: f64) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= tolerance * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y, tolerance))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| close(v, w, tolerance)))
        }
        _ => a == b,
    }
}

#[test]
fn shards_in_default_batches_differ_from_one_run_by_float_rounding_alone() {
    let dir = tempfile::tempdir().unwrap();
    for (metric, base) in commands() {
        let whole = stdout(&run(dir.path(), &base, &["--format", "json"]));
        let parts = shards(dir.path(), metric, &base, &[]);
        let merged = merge(dir.path(), &parts, &["--format", "json"]);
        let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
        assert!(
            close(&parse(&merged), &parse(&whole), 1e-4),
            "{metric}:\n{merged}\n{whole}"
        );
    }
}

#[test]
fn shards_of_other_settings_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (_, some) = commands().swap_remove(0);
    stdout(&run(
        dir.path(),
        &some,
        &["--rows", "0:5", "--stats", "a.json"],
    ));
    let other = ["--rows", "5:", "--weight-m", "0.1", "--stats", "b.json"];
    stdout(&run(dir.path(), &some, &other));
    let err = stderr(&green(dir.path(), &["merge", "a.json", "b.json"]));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot merge"), "{err}");
    // Another metric's shard.
    let (_, scribendi) = commands().swap_remove(2);
    stdout(&run(
        dir.path(),
        &scribendi,
        &["--rows", "5:", "--stats", "c.json"],
    ));
    let err = stderr(&green(dir.path(), &["merge", "a.json", "c.json"]));
    assert!(err.contains("give shards of one metric"), "{err}");
    // SOME's merge prints corpus scores only.
    stdout(&run(dir.path(), &some, &["--stats", "all.json"]));
    let err = stderr(&green(
        dir.path(),
        &["merge", "--level", "mean", "all.json"],
    ));
    assert!(err.contains("leave out --level mean"), "{err}");
}
