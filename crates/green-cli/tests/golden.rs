//! Real-data suite: byte-for-byte parity with every file in `../shared/golden/conll14`,
//! running the binaries exactly as `../shared/golden/README.md` lists. Needs GREEN_SHARED;
//! run with `cargo test -- --ignored` (CI does). Fails, never skips, when the data is missing.

use std::path::PathBuf;
use std::process::Command;

fn shared() -> PathBuf {
    green_test_data::shared_file("golden/conll14");
    green_test_data::shared()
}

const SYSTEMS: [&str; 13] = [
    "AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC",
    "UMC",
];

fn check(bin: &str, args: &[&str], golden: &str) {
    let shared = shared();
    let out = Command::new(bin)
        .current_dir(shared.join("data/conll14"))
        .args(args)
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read(shared.join("golden/conll14").join(golden)).unwrap();
    assert!(
        out.stdout == want,
        "{golden} differs:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn all_systems(level_bin: &str, tok: &str, n: &str, golden: &str) {
    let systems: Vec<String> = SYSTEMS.iter().map(|s| format!("systems/{s}.txt")).collect();
    let mut args = vec!["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c"];
    args.extend(systems.iter().map(String::as_str));
    args.extend(["-b", "0.5", "1", "2", "-d", "6", "-t", tok, "-n", n]);
    check(level_bin, &args, golden);
}

fn amu_iitb(tok: &str, n: &str, golden: &str) {
    let args = [
        "-s",
        "source.txt",
        "-r",
        "ref0.txt",
        "ref1.txt",
        "-c",
        "systems/AMU.txt",
        "systems/IITB.txt",
        "-b",
        "0.5",
        "2",
        "-d",
        "6",
        "-t",
        tok,
        "-n",
        n,
    ];
    check(env!("CARGO_BIN_EXE_sgreen"), &args, golden);
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_corpus_word_n4() {
    all_systems(
        env!("CARGO_BIN_EXE_green"),
        "word",
        "4",
        "corpus.word.n4.tsv",
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_corpus_char_n6() {
    all_systems(
        env!("CARGO_BIN_EXE_green"),
        "char",
        "6",
        "corpus.char.n6.tsv",
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_mean_word_n4() {
    all_systems(
        env!("CARGO_BIN_EXE_mgreen"),
        "word",
        "4",
        "mean.word.n4.tsv",
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_mean_char_n6() {
    all_systems(
        env!("CARGO_BIN_EXE_mgreen"),
        "char",
        "6",
        "mean.char.n6.tsv",
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_sentence_word_n4() {
    amu_iitb("word", "4", "sentence.word.n4.AMU-IITB.tsv");
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_sentence_char_n6() {
    amu_iitb("char", "6", "sentence.char.n6.AMU-IITB.tsv");
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_verbose_word_n4() {
    let args = [
        "-s",
        "source.txt",
        "-r",
        "ref0.txt",
        "ref1.txt",
        "-c",
        "systems/AMU.txt",
        "-b",
        "2",
        "-d",
        "6",
        "-t",
        "word",
        "-n",
        "4",
        "-v",
    ];
    check(
        env!("CARGO_BIN_EXE_green"),
        &args,
        "verbose.word.n4.AMU.txt",
    );
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn golden_every_file_is_covered() {
    let mut files: Vec<String> = std::fs::read_dir(shared().join("golden/conll14"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "corpus.char.n6.tsv",
            "corpus.word.n4.tsv",
            "mean.char.n6.tsv",
            "mean.word.n4.tsv",
            "sentence.char.n6.AMU-IITB.tsv",
            "sentence.word.n4.AMU-IITB.tsv",
            "verbose.word.n4.AMU.txt"
        ],
        "a golden file was added: add a test for it"
    );
}
