//! Real-data suite for Chinese scoring (needs GREEN_SHARED; run with `-- --ignored`):
//! MuCGEC dev (para, 1–7 references) and NLPCC-18 (character-tokenised M2) scored at word
//! and character level.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> PathBuf {
    let data = green_test_data::shared().join("data");
    assert!(data.join("zh").is_dir(), "{}/zh is missing", data.display());
    data
}

fn green(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn score(v: &serde_json::Value) -> f64 {
    v["systems"][0]["results"][0]["score"].as_f64().unwrap()
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn mucgec_first_reference_against_the_others() {
    let text = std::fs::read_to_string(data().join("zh/mucgec/MuCGEC_dev.txt")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (mut para, mut hyp) = (String::new(), String::new());
    let mut kept = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() >= 4 {
            para.push_str(&format!(
                "{}\t{}\t{}\n",
                cols[0],
                cols[1],
                cols[3..].join("\t")
            ));
            hyp.push_str(cols[2]);
            hyp.push('\n');
            kept += 1;
        }
    }
    assert!(
        kept > 300,
        "MuCGEC dev has {kept} sentences with two or more references"
    );
    std::fs::write(tmp.path().join("others.para"), para).unwrap();
    std::fs::write(tmp.path().join("first.txt"), hyp).unwrap();
    let word = green(
        tmp.path(),
        &[
            "-r",
            "others.para",
            "-c",
            "first.txt",
            "-t",
            "zh",
            "-b",
            "2",
        ],
    );
    let chars = green(
        tmp.path(),
        &[
            "-r",
            "others.para",
            "-c",
            "first.txt",
            "-t",
            "zh:char",
            "-n",
            "6",
            "-b",
            "2",
        ],
    );
    assert_eq!(word["sentences"], kept);
    assert!(word["signature"]
        .as_str()
        .unwrap()
        .contains("tok:zh-jieba-hmm"));
    for s in [score(&word), score(&chars)] {
        assert!(
            s > 30.0 && s < 100.0,
            "an annotator against the others scores {s}"
        );
    }
    assert_ne!(score(&word), score(&chars));
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn nlpcc18_spaced_chars_score_like_raw_text() {
    let m2 = data().join("zh/nlpcc18/nlpcc2018_official.ref.m2.char");
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    let out = Command::new(env!("CARGO_BIN_EXE_green"))
        .args(["m2", m2.to_str().unwrap(), "--out-dir", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The source as the system, scored against the M2 references, spaced (as shipped) ...
    let spaced = green(
        p,
        &[
            "-s",
            "source.txt",
            "-r",
            m2.to_str().unwrap(),
            "-c",
            "source.txt",
            "-t",
            "char:nospace",
            "-n",
            "6",
            "-b",
            "2",
        ],
    );
    assert_eq!(spaced["sentences"], 2000);
    // ... and with the spaces removed, at plain character level.
    for f in ["source.txt", "ref0.txt", "ref1.txt"] {
        let raw: String = std::fs::read_to_string(p.join(f)).unwrap().replace(' ', "");
        std::fs::write(p.join(format!("raw.{f}")), raw).unwrap();
    }
    let raw = green(
        p,
        &[
            "-s",
            "raw.source.txt",
            "-r",
            "raw.ref0.txt",
            "raw.ref1.txt",
            "-c",
            "raw.source.txt",
            "-t",
            "char",
            "-n",
            "6",
            "-b",
            "2",
        ],
    );
    assert_eq!(score(&spaced), score(&raw));
    assert!(score(&raw) > 0.0 && score(&raw) < 100.0);
    // Word level (jieba) on the raw text runs too.
    let word = green(
        p,
        &[
            "-s",
            "raw.source.txt",
            "-r",
            "raw.ref0.txt",
            "raw.ref1.txt",
            "-c",
            "raw.source.txt",
            "-t",
            "zh",
            "-b",
            "2",
        ],
    );
    assert!(score(&word) > 0.0 && score(&word) < 100.0);
}
