//! `green merge` on damaged statistics files: random edits to the JSON of real shards (a
//! number changed, an element or a member removed, a value of another type), with the
//! checksum written again most of the time so the edit reaches the parsing and the checks
//! of each metric's statistics. Whatever the edit, the run prints a score (exit 0) or one
//! error line (exit 1): never a panic, never a wrapped-around count.

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn green(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Two shards each of GREEN (mean level needs the sentence scores), GLEU, M2, ERRANT and CLEME.
fn shards(dir: &Path) -> Vec<(String, [String; 2])> {
    let lines = |v: &[&str]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    std::fs::write(
        dir.join("src.txt"),
        lines(&["a b c d", "e f g", "h i", "j k l m"]),
    )
    .unwrap();
    std::fs::write(
        dir.join("ref.txt"),
        lines(&["a x c d", "e f", "h i j", "j k m"]),
    )
    .unwrap();
    std::fs::write(
        dir.join("hyp.txt"),
        lines(&["a x c", "e f g", "h i j", "j k l"]),
    )
    .unwrap();
    let m2 = "S a b c d\nA 1 2|||R|||x|||REQUIRED|||-NONE-|||0\nA 0 1|||R|||y|||REQUIRED|||-NONE-|||1\n\n\
              S e f g\nA 2 3|||U|||-NONE-|||REQUIRED|||-NONE-|||0\n\n\
              S h i\nA 2 2|||M|||j|||REQUIRED|||-NONE-|||0\n\n\
              S j k l m\nA 2 3|||U|||-NONE-|||REQUIRED|||-NONE-|||0\n\n";
    std::fs::write(dir.join("gold.m2"), m2).unwrap();
    // A hypothesis M2 file has one annotator.
    let hyp: String = m2
        .lines()
        .filter(|l| !l.ends_with("|||1"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(
        dir.join("hyp.m2"),
        hyp.replace("|||x|||", "|||z|||")
            .replace("A 2 2|||M", "A 1 1|||M"),
    )
    .unwrap();
    let runs: [(&str, Vec<&str>); 5] = [
        (
            "green",
            vec![
                "-s", "src.txt", "-r", "ref.txt", "-c", "hyp.txt", "-b", "0.5", "2",
            ],
        ),
        (
            "gleu",
            vec![
                "gleu", "-s", "src.txt", "-r", "ref.txt", "-o", "hyp.txt", "-i", "5",
            ],
        ),
        ("m2", vec!["maxmatch", "hyp.txt", "gold.m2"]),
        (
            "errant",
            vec!["errant-compare", "-hyp", "hyp.m2", "-ref", "gold.m2"],
        ),
        ("cleme", vec!["cleme", "-hyp", "hyp.m2", "-ref", "gold.m2"]),
    ];
    runs.into_iter()
        .map(|(name, args)| {
            let files = ["0:2", "2:"].map(|rows| {
                let file = format!("{name}-{}.json", &rows[..1]);
                let mut all = args.clone();
                all.extend(["--rows", rows, "--stats", &file]);
                let o = green(dir, &all);
                assert!(
                    o.status.success(),
                    "{all:?}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                std::fs::read_to_string(dir.join(&file)).unwrap()
            });
            (name.to_string(), files)
        })
        .collect()
}

/// Every value of `v` in document order, as paths of keys and indices.
fn paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                at.push(Value::String(k.clone()));
                paths(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(Value::from(i));
                paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(s) => &mut v[s.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

/// Edit one value of the file `text`: replace it, or remove it from its parent.
fn edit(text: &str, pick: usize, how: usize, resum: bool) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    v.as_object_mut().unwrap().remove("checksum");
    let mut all = Vec::new();
    paths(&v, &mut Vec::new(), &mut all);
    let path = &all[1 + pick % (all.len() - 1)];
    let replacements = [
        Value::from(0),
        Value::from(-1),
        Value::from(1.5),
        Value::from(1e300),
        Value::from(u64::MAX),
        Value::from("x"),
        Value::Null,
        Value::Array(vec![]),
    ];
    if how < replacements.len() {
        *at(&mut v, path) = replacements[how].clone();
    } else {
        let (last, parent) = path.split_last().unwrap();
        match (at(&mut v, parent), last) {
            (Value::Object(m), Value::String(k)) => {
                m.remove(k);
            }
            (Value::Array(a), i) => {
                a.remove(i.as_u64().unwrap() as usize);
            }
            _ => {}
        }
    }
    if resum {
        let sum: String = Sha256::digest(v.to_string().as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        v.as_object_mut()
            .unwrap()
            .insert("checksum".into(), Value::String(sum));
    }
    v.to_string()
}

#[test]
fn merge_never_panics_on_damaged_shards() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(dir.path());
    let config = ProptestConfig {
        cases: 500,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(metric in 0usize..5, which in 0usize..2, pick in any::<usize>(), how in 0usize..10, resum in prop::bool::weighted(0.8), mean in any::<bool>())| {
        let (name, files) = &shards[metric];
        let edited = edit(&files[which], pick, how, resum);
        std::fs::write(dir.path().join("edited.json"), &edited).unwrap();
        std::fs::write(dir.path().join("other.json"), &files[1 - which]).unwrap();
        let mut args = vec!["merge", "edited.json", "other.json"];
        if mean && (name == "green" || name == "gleu") {
            args.extend(["--level", "mean"]);
        }
        let o = green(dir.path(), &args);
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(!err.contains("panicked"), "{name}: {err}\n{edited}");
        match o.status.code() {
            Some(0) => prop_assert!(!o.stdout.is_empty()),
            Some(1) => prop_assert!(err.starts_with("green: error: ") && err.lines().count() == 1, "{err}"),
            other => prop_assert!(false, "{name}: exit {other:?}: {err}\n{edited}"),
        }
    });
}
