//! `green report` through the command line: the page and `--format json` carry the scores
//! the metrics' own commands print, the file is written whole and names no directory of the
//! machine, Chinese works at character level, and bad arguments give one error line.

mod common;
use common::{green, stderr, stdout};
use serde_json::Value;

const GOLD: &str = "S he go to school\nA 1 2|||V|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||P|||.|||REQUIRED|||-NONE-|||1\n\nS fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS a b\nA 0 1|||Det|||the|||REQUIRED|||-NONE-|||0\n\n";

/// A corpus of three sentences with its gold M2 file, its two references and two systems.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("gold.m2", GOLD);
    write("src.txt", "he go to school\nfine\na b\n");
    write("ref0.txt", "he goes to school\nfine\nthe b\n");
    write("ref1.txt", "he go to school .\nfine\na b\n");
    write("a.txt", "he goes to school\nfine\na b\n");
    write("b.txt", "he go to school .\nfine .\nthe b\n");
    dir
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap()
}

fn percent(v: &Value) -> String {
    format!("{:.2}", v.as_f64().unwrap() * 100.0)
}

#[test]
fn the_json_holds_the_commands_scores() {
    let dir = setup();
    let out = stdout(&green(
        dir.path(),
        &[
            "report",
            "-s",
            "src.txt",
            "-r",
            "gold.m2",
            "-c",
            "a.txt",
            "b.txt",
            "--metrics",
            "green,m2,errant",
            "--format",
            "json",
            "--reps",
            "100",
        ],
    ));
    let r = json(&out);
    let metrics: Vec<&str> = r["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["metric"].as_str().unwrap())
        .collect();
    assert_eq!(metrics, ["GREEN", "M2", "ERRANT"]);
    // M2 is `green maxmatch`'s.
    for (h, file) in ["a.txt", "b.txt"].iter().enumerate() {
        let m2 = stdout(&green(dir.path(), &["maxmatch", file, "gold.m2"]));
        let f = m2.lines().nth(2).unwrap().split(':').nth(1).unwrap().trim();
        let score = r["metrics"][1]["systems"][h]["score"].as_f64().unwrap();
        assert_eq!(format!("{score:.4}"), f, "{file}");
    }
    // GREEN is `green`'s against the M2 file's references.
    let g = stdout(&green(
        dir.path(),
        &["-r", "gold.m2", "-c", "a.txt", "b.txt"],
    ));
    for (h, line) in g.lines().skip(2).enumerate() {
        let want = line.split('\t').nth(1).unwrap();
        assert_eq!(
            percent(&r["metrics"][0]["systems"][h]["score"]),
            want,
            "{line}"
        );
    }
    // The first system is the baseline; the second is tested against it.
    assert_eq!(r["baseline"], 0);
    assert!(r["metrics"][0]["systems"][0].get("versus").is_none());
    assert!(
        r["metrics"][0]["systems"][1]["versus"]["p"]
            .as_f64()
            .unwrap()
            <= 1.0
    );
    // The gold categories are a type table of their own.
    let schemes: Vec<&str> = r["types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["scheme"].as_str().unwrap())
        .collect();
    assert_eq!(schemes, ["operation", "gold"]);
    assert_eq!(r["corpus"]["sentences"], 3);
    assert_eq!(r["corpus"]["gold"], "gold.m2");
}

#[test]
fn the_page_is_written_whole_and_names_no_directory() {
    let dir = setup();
    let abs = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let (src, r0, r1, a, b) = (
        abs("src.txt"),
        abs("ref0.txt"),
        abs("ref1.txt"),
        abs("a.txt"),
        abs("b.txt"),
    );
    let o = green(
        dir.path(),
        &[
            "report",
            "-s",
            &src,
            "-r",
            &r0,
            &r1,
            "-c",
            &a,
            &b,
            "--baseline",
            "b",
            "--reps",
            "50",
            "-o",
            "out/report.html",
        ],
    );
    // The directory must exist: said before anything is computed.
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("create it first"), "{err}");
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let o = green(
        dir.path(),
        &[
            "report",
            "-s",
            &src,
            "-r",
            &r0,
            &r1,
            "-c",
            &a,
            &b,
            "--baseline",
            "b",
            "--reps",
            "50",
            "-o",
            "out/report.html",
        ],
    );
    stdout(&o);
    let files: Vec<_> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files, ["report.html"], "no temporary file is left behind");
    let page = std::fs::read_to_string(dir.path().join("out/report.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    let root = dir.path().to_str().unwrap();
    assert!(!page.contains(root), "the page names the directory {root}");
    assert!(page.contains("baseline <b>b</b>"));
    // Without GREEN's references from M2 or a gold file, M2 is not offered by default.
    assert!(!page.contains(r#"<th colspan="5" class="group">M2"#));
}

#[test]
fn chinese_at_character_level() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("src.txt", "我们去学校了了\n他很高兴\n");
    write("ref.txt", "我们去学校了\n他很高兴\n");
    write("sys.txt", "我门去学校了\n他很高兴。\n");
    let out = stdout(&green(
        dir.path(),
        &[
            "report", "-s", "src.txt", "-r", "ref.txt", "-c", "sys.txt", "-t", "char", "--format",
            "json", "--reps", "50",
        ],
    ));
    let r = json(&out);
    assert_eq!(r["corpus"]["join"], "");
    assert_eq!(r["sentences"]["source"][1], "他 很 高 兴");
    // Buckets count characters.
    assert_eq!(r["lengths"]["buckets"][0]["label"], "0–19");
}

#[test]
fn bad_arguments_give_one_line() {
    let dir = setup();
    let base = ["report", "-s", "src.txt", "-r", "ref0.txt", "-c", "a.txt"];
    for (extra, says) in [
        (&[][..], "give -o report.html"),
        (
            &["--format", "json", "--metrics", "bleu"][..],
            "unknown metric 'bleu'",
        ),
        (
            &["--format", "json", "--metrics", "m2"][..],
            "needs gold edits",
        ),
        (
            &["--format", "json", "--baseline", "zzz"][..],
            "--baseline zzz is none of the systems",
        ),
        (
            &["--format", "json", "--buckets", "20,10"][..],
            "--buckets must be increasing",
        ),
        (
            &["--format", "json", "--names", "x", "y"][..],
            "--names gives 2 labels for 1 systems",
        ),
        (
            &["--format", "json", "--reps", "0"][..],
            "--reps must be between",
        ),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let err = stderr(&green(dir.path(), &args));
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::write(dir.path().join("short.txt"), "one line\n").unwrap();
    let err = stderr(&green(
        dir.path(),
        &[
            "report",
            "-s",
            "src.txt",
            "-r",
            "ref0.txt",
            "-c",
            "short.txt",
            "--format",
            "json",
        ],
    ));
    assert_eq!(err.lines().count(), 1, "{err}");
}
