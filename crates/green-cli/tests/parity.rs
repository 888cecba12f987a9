//! Replays every case the differential fuzzer (`scripts/fuzz-reference.py`) recorded against
//! the reference CLI: same arguments in the fixture's directory, stdout byte for byte and the
//! same exit status class. No reference needed here: its output is in the fixture.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parity")
}

fn binary(prog: &str) -> &'static str {
    match prog {
        "green" => env!("CARGO_BIN_EXE_green"),
        "sgreen" => env!("CARGO_BIN_EXE_sgreen"),
        "mgreen" => env!("CARGO_BIN_EXE_mgreen"),
        other => panic!("unknown program {other} in a parity fixture"),
    }
}

fn replay(dir: &Path) -> Result<(), String> {
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
    let args: Vec<&str> = case["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let out = Command::new(binary(case["prog"].as_str().unwrap()))
        .current_dir(dir)
        .args(&args)
        .output()
        .unwrap();
    let expected = std::fs::read(dir.join("expected.stdout")).unwrap();
    let status = if out.status.success() { "ok" } else { "error" };
    if status != case["status"].as_str().unwrap() {
        return Err(format!(
            "{}: exit {status}, the reference's {}",
            dir.display(),
            case["status"]
        ));
    }
    if out.stdout != expected {
        return Err(format!(
            "{}: stdout differs\n--- reference\n{}\n--- ours\n{}",
            dir.display(),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    Ok(())
}

#[test]
fn every_recorded_case_matches_the_reference() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    dirs.sort();
    // The three classes the fuzzer found first (issue 17) are always among them.
    for class in ["decimal-str", "sentence-verbose", "numpy-mean"] {
        assert!(
            dirs.iter()
                .any(|d| d.file_name().unwrap().to_string_lossy().starts_with(class)),
            "no {class} fixture"
        );
    }
    let failures: Vec<String> = dirs.iter().filter_map(|d| replay(d).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
