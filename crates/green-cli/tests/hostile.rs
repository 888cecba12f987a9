//! Bad and hostile input, end to end: each case once gave a panic, an abort or a wrong score
//! with exit 0, and now gives one clear error line, a warning, or the right score.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn green(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn ok(o: &Output) -> (String, String) {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        String::from_utf8(o.stdout.clone()).unwrap(),
        String::from_utf8(o.stderr.clone()).unwrap(),
    )
}

/// One error line containing `needle`, exit status `code`, nothing on stdout.
fn fails(o: &Output, code: i32, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(o.stdout.is_empty());
    if code == 1 {
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// A plain M2 corpus of `n` sentences, each corrected by annotator 0; `stray` adds one noop
/// line of annotator 999 to sentence 4.
fn m2(n: usize, stray: bool) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "S word{i} is here\nA 1 2|||R:VERB|||was|||REQUIRED|||-NONE-|||0\n"
        ));
        if stray && i == 3 {
            text.push_str("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||999\n");
        }
        text.push('\n');
    }
    text
}

fn hyps(n: usize) -> String {
    (0..n).map(|i| format!("word{i} was here\n")).collect()
}

#[test]
fn a_stray_annotator_does_not_inflate_the_score() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clean.m2", &m2(30, false));
    write(dir.path(), "stray.m2", &m2(30, true));
    let mut half = hyps(30);
    half = half.replacen("word0 was", "word0 is", 1);
    write(dir.path(), "hyp.txt", &half);
    let (clean, quiet) = ok(&green(dir.path(), &["-r", "clean.m2", "-c", "hyp.txt"]));
    assert!(quiet.is_empty(), "{quiet}");
    let (stray, warned) = ok(&green(dir.path(), &["-r", "stray.m2", "-c", "hyp.txt"]));
    assert_eq!(clean, stray);
    assert!(
        warned.contains("annotator 999 has lines in only 1 of 30 sentences"),
        "{warned}"
    );
    let (source, _) = ok(&green(
        dir.path(),
        &[
            "-r",
            "stray.m2",
            "-c",
            "hyp.txt",
            "--missing-annotator",
            "source",
        ],
    ));
    // Two references per sentence under `source` (0 and 999), not a thousand.
    let json = green(
        dir.path(),
        &[
            "-r",
            "stray.m2",
            "-c",
            "hyp.txt",
            "--missing-annotator",
            "source",
            "--format",
            "json",
        ],
    );
    assert!(ok(&json).0.contains("|refs:2|"), "{}", ok(&json).0);
    assert!(!source.is_empty());
}

#[test]
fn m2_command_on_a_sentence_with_only_a_second_alternative() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "t.m2",
        "S 我 去 学 校\nT0-A1 我 去 学校\nA 2 4|||S|||学校|||REQUIRED|||-NONE-|||0\n\n",
    );
    let o = green(dir.path(), &["m2", "t.m2", "--out-dir", "out"]);
    ok(&o);
    let r = std::fs::read_to_string(dir.path().join("out/ref0.txt")).unwrap();
    assert_eq!(r, "我 去 学校\n");
}

#[test]
fn sources_that_disagree_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.m2", &m2(3, false));
    write(
        dir.path(),
        "b.m2",
        &m2(3, false).replace("word1 is", "other is"),
    );
    write(dir.path(), "hyp.txt", &hyps(3));
    write(
        dir.path(),
        "src.txt",
        "word0 is here\nword1  is here\nword9 is here\n",
    );
    fails(
        &green(dir.path(), &["-r", "a.m2", "b.m2", "-c", "hyp.txt"]),
        1,
        "the source of sentence 2 in b.m2 differs from the one in a.m2 (1 sentences differ)",
    );
    fails(
        &green(
            dir.path(),
            &["-s", "src.txt", "-r", "a.m2", "-c", "hyp.txt"],
        ),
        1,
        "line 2 of src.txt differs from the source of sentence 2 in a.m2 only in spacing, which changes scores",
    );
    // Other spacing is not the same source: spaces are scored (it used to be accepted, then
    // scored with the -s text against references spaced like the M2 source).
    write(
        dir.path(),
        "src.txt",
        "word0 is here\nword1  is here\nword2 is here\n",
    );
    for cmd in [&[][..], &["gleu"][..], &["paired"][..]] {
        let mut args = cmd.to_vec();
        args.extend(["-s", "src.txt", "-r", "a.m2", "-c", "hyp.txt", "hyp.txt"]);
        fails(
            &green(dir.path(), &args),
            1,
            "(1 sentences differ); -s must be the corpus the references describe, byte for byte",
        );
    }
    write(
        dir.path(),
        "src.txt",
        "word0 is here\nword1 is here\nword2 is here\n",
    );
    ok(&green(
        dir.path(),
        &["-s", "src.txt", "-r", "a.m2", "-c", "hyp.txt"],
    ));
}

/// The issue's case: `-s` equal to the M2 source but for one space scored 38.74 instead of 0.
#[test]
fn a_source_spaced_otherwise_is_not_scored() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "gold.m2",
        "S a b c d\nA 0 1|||X|||A|||REQUIRED|||-NONE-|||0\n\n",
    );
    write(dir.path(), "src.txt", "ab c d\n");
    write(dir.path(), "hyp.txt", "a b X d\n");
    let (alone, _) = ok(&green(
        dir.path(),
        &["-r", "gold.m2", "-c", "hyp.txt", "-n", "2", "-d", "4"],
    ));
    assert!(alone.ends_with("hyp.txt\t0.0000\n"), "{alone}");
    fails(
        &green(
            dir.path(),
            &[
                "-s", "src.txt", "-r", "gold.m2", "-c", "hyp.txt", "-n", "2", "-d", "4",
            ],
        ),
        1,
        "line 1 of src.txt differs from the source of sentence 1 in gold.m2 only in spacing",
    );
}

#[test]
fn para_file_read_as_lines_and_spaced_chinese_are_warned() {
    let dir = tempfile::tempdir().unwrap();
    let para: String = (1..=6)
        .map(|i| format!("{i}\t我去学校\t我去学校。\n"))
        .collect();
    write(dir.path(), "refs.txt", &para);
    write(dir.path(), "src.txt", &"我去学校\n".repeat(6));
    write(dir.path(), "hyp.txt", &"我去学校。\n".repeat(6));
    let (_, err) = ok(&green(
        dir.path(),
        &[
            "-s", "src.txt", "-r", "refs.txt", "-c", "hyp.txt", "-t", "char",
        ],
    ));
    assert!(err.contains("refs.txt looks like a para TSV file"), "{err}");
    let (_, err) = ok(&green(
        dir.path(),
        &[
            "-s",
            "src.txt",
            "-r",
            "refs.txt",
            "--ref-format",
            "para",
            "-c",
            "hyp.txt",
        ],
    ));
    assert!(err.contains("Chinese or Japanese without spaces"), "{err}");
    write(dir.path(), "spaced.txt", &"我 去 学 校 。\n".repeat(6));
    let (_, err) = ok(&green(
        dir.path(),
        &[
            "-s",
            "src.txt",
            "-r",
            "spaced.txt",
            "-c",
            "spaced.txt",
            "-t",
            "zh",
        ],
    ));
    assert!(err.contains("spaced character by character"), "{err}");
    let (joined, err) = ok(&green(
        dir.path(),
        &[
            "-s",
            "src.txt",
            "-r",
            "spaced.txt",
            "-c",
            "hyp.txt",
            "-t",
            "zh",
            "--norm",
            "cjk-join",
        ],
    ));
    assert!(err.is_empty(), "{err}");
    assert!(joined.ends_with("hyp.txt\t100.00\n"), "{joined}");
}

#[test]
fn numeric_flags_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    let base = ["-s", "a.txt", "-r", "a.txt", "-c", "a.txt"];
    for (flag, value) in [("--threads", "0"), ("--threads", "100000"), ("-d", "51")] {
        let args: Vec<&str> = base.iter().copied().chain([flag, value]).collect();
        fails(
            &green(dir.path(), &args),
            2,
            "is not a whole number between",
        );
    }
    write(dir.path(), "t.m2", &m2(3, false));
    for (flag, value) in [("--reps", "0"), ("--reps", "1000000"), ("--max-m", "101")] {
        fails(
            &green(dir.path(), &["maege", "t.m2", flag, value]),
            2,
            "is not a whole number between",
        );
    }
    fails(
        &green(dir.path(), &["meta", "--ts-runs", "0"]),
        2,
        "is not a whole number between 1 and 100000",
    );
}

/// Runs with standard output a pipe whose reading end is closed before green starts, as
/// `| head -0` would: every write fails (EPIPE; SIGPIPE would kill green were it not ignored).
fn with_closed_stdout(args: &[&str], dir: &Path) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .stdout(writer)
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_is_a_quiet_exit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t.m2", &m2(25, false));
    write(dir.path(), "a.txt", "a b\n");
    for args in [
        &["maege", "t.m2", "--reps", "1"][..],
        &["meta", "--list-datasets"][..],
        &["-s", "a.txt", "-r", "a.txt", "-c", "a.txt"][..],
    ] {
        let o = with_closed_stdout(args, dir.path());
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}

#[test]
fn closed_standard_streams_are_a_quiet_exit() {
    // `<&- >&-`: descriptors 0 and 1 closed when green starts (its own start, not Rust's,
    // opens them on /dev/null): the run succeeds, says nothing and leaves its input alone.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    let o = Command::new("sh")
        .current_dir(dir.path())
        .args(["-c", r#"exec "$0" -s a.txt -r a.txt -c a.txt <&- >&-"#])
        .arg(env!("CARGO_BIN_EXE_green"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "a b\n"
    );
}

#[test]
fn tokenize_prints_nothing_when_a_line_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.txt"), b"a b\nc d\nbad \xff\n").unwrap();
    fails(
        &green(dir.path(), &["tokenize", "t.txt"]),
        1,
        "t.txt:3: invalid UTF-8",
    );
}

#[test]
fn of_several_missing_files_the_first_given_is_named() {
    // Files are opened in parallel; the error is still the first missing file in the order
    // given (source, references, systems), at any thread count.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src.txt", "a b\n");
    write(dir.path(), "ref.txt", "a c\n");
    for threads in ["1", "2", "4"] {
        let o = green(
            dir.path(),
            &[
                "-s",
                "src.txt",
                "-r",
                "ref.txt",
                "gone0.txt",
                "-c",
                "gone1.txt",
                "gone2.txt",
                "--threads",
                threads,
            ],
        );
        fails(&o, 1, "cannot read gone0.txt");
    }
}

/// Input files are mapped; one truncated meanwhile raises SIGBUS when a lost page is read,
/// which must be one error line naming the file. No clock: green reads its source from
/// standard input, so it waits there with `a.txt` mapped (seen in /proc/PID/maps); the file
/// is truncated, then the source line is given, and scoring reads the lost page.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_mapped_is_an_error_line_naming_it() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = "a b c d e f g\n".repeat(500);
    write(dir.path(), "a.txt", &text);
    let mut child = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir.path())
        .args(["-s", "-", "-r", "a.txt", "-c", "a.txt", "--no-progress"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let maps = format!("/proc/{}/maps", child.id());
    let mapped = dir.path().join("a.txt").canonicalize().unwrap();
    let mapped = mapped.to_str().unwrap();
    while !std::fs::read_to_string(&maps).is_ok_and(|m| m.contains(mapped)) {
        if let Some(status) = child.try_wait().unwrap() {
            let o = child.wait_with_output().unwrap();
            panic!(
                "green ended ({status}) before a.txt was mapped: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::fs::File::options()
        .write(true)
        .open(dir.path().join("a.txt"))
        .unwrap()
        .set_len(0)
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(text.as_bytes()).unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    fails(
        &o,
        1,
        "green: error: a.txt was truncated while green was reading it; score it again once the file is complete",
    );
}

/// `green … 2>&1 | head -1`: a warning to a standard error whose reader is gone used to panic
/// (exit 101) before the scores were written. Now the warning is dropped and the run goes on.
#[test]
fn a_closed_stderr_is_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src.txt", "a b\n");
    write(dir.path(), "bom.txt", "\u{feff}a b\n");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir.path())
        .args(["-s", "src.txt", "-r", "src.txt", "-c", "bom.txt"])
        .stderr(writer)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("bom.txt\t"));
}

/// 100 English lines, then 1,000 raw Chinese ones at `-t word`: the guards looked at the
/// first 64 sentences only and warned of nothing (88.44, exit 0).
#[test]
fn the_guards_look_at_the_whole_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "the cat sat on the mat\n".repeat(100);
    text.push_str(&"我昨天去学校了。\n".repeat(1000));
    write(dir.path(), "mixed.txt", &text);
    let (_, err) = ok(&green(
        dir.path(),
        &["-s", "mixed.txt", "-r", "mixed.txt", "-c", "mixed.txt"],
    ));
    assert!(err.contains("Chinese or Japanese without spaces"), "{err}");
}

/// A byte-order mark in a system file changed `gleu` and `paired` with no warning; every
/// command that reads line files now says so, as the main scorer did.
#[test]
fn a_byte_order_mark_is_named_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..30).map(|i| format!("word{i} is here\n")).collect();
    write(dir.path(), "src.txt", &lines);
    write(dir.path(), "hyp.txt", &format!("\u{feff}{lines}"));
    for cmd in [&[][..], &["gleu"][..], &["paired"][..]] {
        let mut args = cmd.to_vec();
        args.extend(["-s", "src.txt", "-r", "src.txt", "-c", "src.txt", "hyp.txt"]);
        let (_, err) = ok(&green(dir.path(), &args));
        assert!(
            err.contains("hyp.txt starts with a UTF-8 byte-order mark"),
            "{args:?}: {err}"
        );
    }
    let (_, err) = ok(&green(
        dir.path(),
        &[
            "errant-parallel",
            "-orig",
            "src.txt",
            "-cor",
            "hyp.txt",
            "-out",
            "out.m2",
            "-lev",
            "-merge",
            "all-split",
        ],
    ));
    assert!(
        err.contains("hyp.txt starts with a UTF-8 byte-order mark"),
        "{err}"
    );
}

/// `-` twice: "- has 0 lines but - has 50" before; now the error says what is wrong.
#[test]
fn standard_input_given_twice_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    write(dir.path(), "gold.m2", "S a b\n\n");
    for args in [
        &["gleu", "-s", "-", "-r", "a.txt", "-c", "-"][..],
        &["paired", "-s", "a.txt", "-r", "-", "-c", "-", "a.txt"][..],
        &[
            "errant-parallel",
            "-orig",
            "-",
            "-cor",
            "-",
            "-out",
            "o.m2",
            "-lev",
            "-merge",
            "all-split",
        ][..],
        &["maxmatch", "-", "-"][..],
        &["errant-compare", "-hyp", "-", "-ref", "-"][..],
        &["cleme", "-hyp", "-", "-ref", "-"][..],
    ] {
        fails(
            &green(dir.path(), args),
            1,
            "standard input (-) can be given for one file only",
        );
    }
}

/// A UTF-16 file was told to convert from GB18030.
#[test]
fn a_utf16_file_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    std::fs::write(dir.path().join("u16.txt"), b"\xFF\xFEa\x00 \x00b\x00\n\x00").unwrap();
    fails(
        &green(dir.path(), &["-s", "a.txt", "-r", "a.txt", "-c", "u16.txt"]),
        1,
        "u16.txt:1: invalid UTF-8 at byte 1 of the line; the file is UTF-16 (little-endian byte-order mark); convert it with iconv -f UTF-16 -t UTF-8",
    );
}

/// Output files: `--stats -` wrote a file named `-`; a missing directory said "cannot create
/// a temporary file ... .tmpXXXX"; a write error on standard output did not say where.
#[test]
fn output_errors_say_where() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    write(
        dir.path(),
        "gold.m2",
        "S a b\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n",
    );
    let score = ["-s", "a.txt", "-r", "a.txt", "-c", "a.txt"];
    let mut args = score.to_vec();
    args.extend(["--stats", "-"]);
    fails(
        &green(dir.path(), &args),
        1,
        "--stats -: standard output carries the scores",
    );
    assert!(!dir.path().join("-").exists());
    fails(
        &green(dir.path(), &["m2", "gold.m2", "-o", "nodir/conll14."]),
        1,
        "cannot write nodir/conll14.source.txt: the directory nodir does not exist; create it first",
    );
    let full = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir.path())
        .args(score)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write to standard output"), "{err}");
}

/// `--threads 1024` on 2 cores took 5.6-9.5 s instead of 0.03 s; now it is lowered, with a
/// warning, and the scores are the same.
#[test]
fn too_many_threads_are_lowered() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a b\n");
    let score = ["-s", "a.txt", "-r", "a.txt", "-c", "a.txt"];
    let (plain, _) = ok(&green(dir.path(), &score));
    let mut args = score.to_vec();
    args.extend(["--threads", "1024"]);
    let (many, err) = ok(&green(dir.path(), &args));
    assert_eq!(plain, many);
    assert!(
        err.contains("--threads 1024 is more than 4 per core"),
        "{err}"
    );
}

/// β ≳ 1.4e154 printed F = NaN with changed P and R; an empty gold file scored 1.0000.
#[test]
fn edit_metrics_refuse_huge_betas_and_empty_corpora() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "gold.m2",
        "S a b\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n",
    );
    write(dir.path(), "sys.txt", "x b\n");
    write(dir.path(), "empty.m2", "");
    for args in [
        &["maxmatch", "--beta", "1e155", "sys.txt", "gold.m2"][..],
        &[
            "errant-compare",
            "-hyp",
            "gold.m2",
            "-ref",
            "gold.m2",
            "-b",
            "1e155",
        ],
        &["cleme", "-hyp", "gold.m2", "-ref", "gold.m2", "-b", "1e155"],
    ] {
        fails(
            &green(dir.path(), args),
            2,
            "is not a beta; use a number from 0 to 1e100",
        );
    }
    let (big, _) = ok(&green(
        dir.path(),
        &["maxmatch", "--beta", "1e100", "sys.txt", "gold.m2"],
    ));
    assert!(!big.contains("nan"), "{big}");
    for args in [
        &["maxmatch", "empty.m2", "empty.m2"][..],
        &["errant-compare", "-hyp", "empty.m2", "-ref", "empty.m2"],
        &["cleme", "-hyp", "empty.m2", "-ref", "empty.m2"],
    ] {
        fails(&green(dir.path(), args), 1, "no sentences");
    }
}

/// Raw (unspaced) Chinese through the edit metrics and against character-spaced references
/// scored a fraction of the right number with no warning; every command now looks.
#[test]
fn every_command_guards_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let (mut gold, mut raw, mut spaced) = (String::new(), String::new(), String::new());
    for i in 0..10 {
        let chars = format!("我昨天去学校了{i}");
        let spaced_line: Vec<String> = chars.chars().map(String::from).collect();
        gold.push_str(&format!(
            "S {}\nA 0 1|||S|||他|||REQUIRED|||-NONE-|||0\n\n",
            spaced_line.join(" ")
        ));
        raw.push_str(&format!("他{}\n", &chars[3..]));
        spaced.push_str(&format!("{}\n", spaced_line.join(" ")));
    }
    write(dir.path(), "gold.m2", &gold);
    write(dir.path(), "raw.txt", &raw);
    write(dir.path(), "spaced.txt", &spaced);
    let against_spaced = "the systems are Chinese or Japanese without spaces but the sources";
    let unsegmented = "the texts are Chinese or Japanese without spaces";
    for (args, warning) in [
        (&["maxmatch", "raw.txt", "gold.m2"][..], against_spaced),
        (&["-r", "gold.m2", "-c", "raw.txt"], against_spaced),
        (&["gleu", "-r", "gold.m2", "-c", "raw.txt"], against_spaced),
        (
            &["paired", "-r", "gold.m2", "-c", "raw.txt", "raw.txt"],
            against_spaced,
        ),
        (
            &["gleu", "-s", "raw.txt", "-r", "raw.txt", "-c", "raw.txt"],
            unsegmented,
        ),
        (
            &[
                "errant-parallel",
                "-orig",
                "raw.txt",
                "-cor",
                "raw.txt",
                "-out",
                "o.m2",
                "-lev",
                "-merge",
                "all-split",
            ],
            unsegmented,
        ),
    ] {
        let (_, err) = ok(&green(dir.path(), args));
        assert!(err.contains(warning), "{args:?}: {err}");
    }
    // As the warning says: at -t char:nospace, no warning, and the gold's own score.
    for args in [
        &["maxmatch", "-t", "char:nospace", "raw.txt", "gold.m2"][..],
        &["-r", "gold.m2", "-c", "raw.txt", "-t", "char:nospace"],
    ] {
        let (out, err) = ok(&green(dir.path(), args));
        assert!(!err.contains("without spaces"), "{err}");
        assert!(
            out.contains("1.0000") || out.ends_with("100.00\n"),
            "{args:?}: {out}"
        );
    }
}

/// `meta` on judgments that are all ties printed a table of NA with no reason.
#[test]
fn meta_says_why_a_view_is_all_na() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("../green-meta/tests/fixtures/tiny");
    for f in ["source.txt", "ref.txt"] {
        std::fs::copy(tiny.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::create_dir(dir.path().join("systems")).unwrap();
    for s in ["A", "B", "C"] {
        let f = format!("systems/{s}.txt");
        std::fs::copy(tiny.join(&f), dir.path().join(&f)).unwrap();
    }
    let xml = std::fs::read_to_string(tiny.join("judgments.xml")).unwrap();
    let ties = xml
        .replace("rank=\"2\"", "rank=\"1\"")
        .replace("rank=\"3\"", "rank=\"1\"");
    write(dir.path(), "judgments.xml", &ties);
    let toml = std::fs::read_to_string(tiny.join("tiny.toml")).unwrap();
    write(dir.path(), "ties.toml", &toml);
    let (out, err) = ok(&green(
        dir.path(),
        &["meta", "--data", ".", "--dataset", "ties.toml"],
    ));
    assert!(out.contains("| NA |"), "{out}");
    assert!(
        err.contains("every system has the same human score")
            && err.contains("all its judgments ties"),
        "{err}"
    );
}
