//! `--stats` and `green merge` for the edit-based metrics: a corpus scored in shards by
//! `green maxmatch`, `green errant-compare`, `green cleme`, `green cleme2` and
//! `green gotoscorer` and merged prints what one run
//! over the whole prints, byte for byte, in every output form. The corpora are generated, with
//! cuts where the running totals (M2, ERRANT) and the mean chunk length (CLEME) matter.

use std::path::Path;

mod common;
use common::{green, stderr, stdout};

/// A seeded stream of small numbers (a linear congruential generator).
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One sentence: its tokens and each annotator's edits as (start, end, correction).
struct Sentence {
    tokens: Vec<String>,
    annotators: Vec<Vec<(usize, usize, String)>>,
}

fn edits(draw: &mut Draw, len: usize) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < len {
        at += draw.below(4);
        if at > len {
            break;
        }
        let end = (at + draw.below(2)).min(len);
        let correction = match draw.below(3) {
            0 => String::new(),
            _ => format!("w{}", draw.below(8)),
        };
        out.push((at, end, correction));
        at = end + 1;
    }
    out
}

fn corpus(draw: &mut Draw, sentences: usize, annotators: usize) -> Vec<Sentence> {
    (0..sentences)
        .map(|_| {
            let len = 2 + draw.below(9);
            Sentence {
                tokens: (0..len).map(|_| format!("w{}", draw.below(8))).collect(),
                annotators: (0..annotators).map(|_| edits(draw, len)).collect(),
            }
        })
        .collect()
}

/// M2 text: a noop line for an annotator without edits, as the originals write it.
fn m2(sentences: &[Sentence]) -> String {
    let mut out = String::new();
    for s in sentences {
        out += &format!("S {}\n", s.tokens.join(" "));
        for (a, edits) in s.annotators.iter().enumerate() {
            if edits.is_empty() {
                out += &format!("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{a}\n");
            }
            for (start, end, correction) in edits {
                let kind = match (start == end, correction.is_empty()) {
                    (true, _) => "M:NOUN",
                    (false, true) => "U:NOUN",
                    _ => "R:NOUN",
                };
                out +=
                    &format!("A {start} {end}|||{kind}|||{correction}|||REQUIRED|||-NONE-|||{a}\n");
            }
        }
        out += "\n";
    }
    out
}

/// The text of annotator `a`'s correction of every sentence, one per line.
fn corrected(sentences: &[Sentence], a: usize) -> String {
    let mut out = String::new();
    for s in sentences {
        let mut tokens: Vec<&str> = Vec::new();
        let mut at = 0;
        for (start, end, correction) in &s.annotators[a] {
            tokens.extend(s.tokens[at..*start].iter().map(String::as_str));
            if !correction.is_empty() {
                tokens.push(correction);
            }
            at = *end;
        }
        tokens.extend(s.tokens[at..].iter().map(String::as_str));
        out += &tokens.join(" ");
        out += "\n";
    }
    out
}

/// Files of sentences `range`: the gold and two hypothesis M2 files (annotators 0 and 1 of
/// `hyps`), the two systems' lines, under `prefix`.
fn write(dir: &Path, prefix: &str, gold: &[Sentence], hyps: &[Sentence]) {
    std::fs::write(dir.join(format!("{prefix}gold.m2")), m2(gold)).unwrap();
    for k in 0..2 {
        let one: Vec<Sentence> = hyps
            .iter()
            .map(|s| Sentence {
                tokens: s.tokens.clone(),
                annotators: vec![s.annotators[k].clone()],
            })
            .collect();
        std::fs::write(dir.join(format!("{prefix}hyp{k}.m2")), m2(&one)).unwrap();
        std::fs::write(dir.join(format!("{prefix}sys{k}.txt")), corrected(hyps, k)).unwrap();
    }
}

fn with<S: AsRef<str>>(base: &[S], more: &[&str]) -> Vec<String> {
    base.iter()
        .map(AsRef::as_ref)
        .chain(more.iter().copied())
        .map(str::to_string)
        .collect()
}

fn run(dir: &Path, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    stdout(&green(dir, &args))
}

#[test]
fn edit_metric_shards_merge_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut draw = Draw(7);
    let gold = corpus(&mut draw, 240, 2);
    // The systems correct the same sentences: hypotheses share the gold's tokens.
    let hyps: Vec<Sentence> = gold
        .iter()
        .map(|s| Sentence {
            tokens: s.tokens.clone(),
            annotators: (0..2)
                .map(|k| match draw.below(3) {
                    0 => s.annotators[k % 2].clone(),
                    _ => edits(&mut draw, s.tokens.len()),
                })
                .collect(),
        })
        .collect();
    write(root, "", &gold, &hyps);
    let cuts = [0, 1, 170, 240];
    let parts: Vec<String> = (0..3).map(|p| format!("p{p}/")).collect();
    for (p, prefix) in parts.iter().enumerate() {
        std::fs::create_dir(root.join(prefix)).unwrap();
        let range = cuts[p]..cuts[p + 1];
        write(root, prefix, &gold[range.clone()], &hyps[range]);
    }
    // Every part has the whole's file names, in its own directory.
    let shard = |metric: &str, opts: &[&str]| -> Vec<String> {
        let files: &[&str] = match metric {
            "maxmatch" => &["sys0.txt", "sys1.txt", "gold.m2"],
            _ => &["--hyp", "hyp0.m2", "hyp1.m2", "--ref", "gold.m2"],
        };
        with(&with(&[metric], files), opts)
    };
    // (command, its settings, the output forms compared).
    type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a [&'a str]]);
    let cases: [Case; 8] = [
        (
            "maxmatch",
            &[],
            &[&[], &["-v"], &["--format", "json", "-v"]],
        ),
        ("maxmatch", &["--beta", "1"], &[&[]]),
        (
            "errant-compare",
            &[],
            &[&[], &["-v"], &["--format", "json"]],
        ),
        ("errant-compare", &["--cat", "3", "--ds"], &[&[]]),
        ("cleme", &[], &[&[], &["--format", "json"]]),
        ("cleme2", &[], &[&[], &["--format", "json"]]),
        ("cleme2", &["--weigher", "none"], &[&[]]),
        ("gotoscorer", &[], &[&[], &["--format", "json"]]),
    ];
    for (c, (metric, settings, outputs)) in cases.into_iter().enumerate() {
        let mut files = Vec::new();
        for (p, prefix) in parts.iter().enumerate() {
            let stats = format!("{metric}{c}-{p}.json");
            let to = format!("../{stats}");
            run(
                &root.join(prefix),
                &with(&shard(metric, settings), &["--stats", &to]),
            );
            files.push(stats);
        }
        for output in outputs {
            let whole = run(root, &with(&shard(metric, settings), output));
            let args: Vec<&str> = files.iter().map(String::as_str).collect();
            let merged = run(root, &with(&with(&["merge", "--concat"], &args), output));
            assert_eq!(merged, whole, "{metric} {settings:?} {output:?}");
        }
    }
    // Row ranges of the whole files (`--rows`), given in any order, merge to the whole too.
    for metric in [
        "maxmatch",
        "errant-compare",
        "cleme",
        "cleme2",
        "gotoscorer",
    ] {
        let mut files = Vec::new();
        for (p, rows) in ["170:", "0:1", "1:170"].into_iter().enumerate() {
            let stats = format!("{metric}-rows{p}.json");
            run(
                root,
                &with(&shard(metric, &[]), &["--rows", rows, "--stats", &stats]),
            );
            files.push(stats);
        }
        let args: Vec<&str> = files.iter().map(String::as_str).collect();
        let merged = run(root, &with(&["merge"], &args));
        assert_eq!(merged, run(root, &shard(metric, &[])), "{metric} --rows");
    }
    // The cut matters: M2's first shard alone is not the whole's first sentence score.
    let alone = run(
        root,
        &with(
            &["merge", "--concat"],
            &["maxmatch0-1.json", "maxmatch0-2.json"],
        ),
    );
    assert_ne!(alone, run(root, &shard("maxmatch", &[])));

    // Paired tests read the same shards: the parts give what the whole's statistics give.
    for (c, metric) in [
        (0, "maxmatch"),
        (2, "errant-compare"),
        (4, "cleme"),
        (5, "cleme2"),
        (7, "gotoscorer"),
    ] {
        let whole = format!("whole{c}.json");
        run(root, &with(&shard(metric, &[]), &["--stats", &whole]));
        let parts: Vec<String> = (0..3).map(|p| format!("{metric}{c}-{p}.json")).collect();
        for test in [
            &["--test", "bs", "--reps", "200"][..],
            &["--test", "ar", "--reps", "200"],
        ] {
            let mut args = with(&["paired", "--concat", "--stats"], &[]);
            args.extend(parts.iter().cloned());
            let from_parts = run(root, &with(&args, test));
            let from_whole = run(root, &with(&["paired", "--stats", &whole], test));
            assert_eq!(from_parts, from_whole, "{metric} {test:?}");
            assert!(
                from_whole
                    .lines()
                    .nth(2)
                    .is_some_and(|l| l.starts_with("hyp1.m2\t") || l.starts_with("sys1.txt\t")),
                "{from_whole}"
            );
        }
    }

    let refused = |args: &[&str], expected: &str| {
        let out = green(root, args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    };
    refused(
        &["merge", "--concat", "maxmatch0-0.json", "cleme4-1.json"],
        "holds cleme statistics but maxmatch0-0.json holds m2",
    );
    run(
        &root.join("p1"),
        &with(
            &shard("maxmatch", &["--beta", "1"]),
            &["--stats", "../beta1.json"],
        ),
    );
    refused(
        &["merge", "--concat", "maxmatch0-0.json", "beta1.json"],
        "beta1.json cannot follow maxmatch0-0.json",
    );
    refused(
        &["merge", "maxmatch0-0.json", "--level", "mean"],
        "leave out --level mean",
    );
    let green_stats = [
        "--stats",
        "green.json",
        "-r",
        "p1/sys1.txt",
        "-c",
        "p1/sys0.txt",
    ];
    run(root, &with(&green_stats, &["-s", "p1/sys0.txt"]));
    refused(
        &["paired", "--stats", "green.json"],
        "give green paired the -s/-r/-c files instead",
    );
    run(
        root,
        &with(
            &["maxmatch", "sys0.txt", "gold.m2"],
            &["--stats", "one.json"],
        ),
    );
    refused(
        &["paired", "--stats", "one.json"],
        "the statistics hold one system",
    );
    // Settings of the GREEN path would be silently ignored: they are refused.
    let err = stderr(&green(root, &["paired", "--stats", "one.json", "-b", "2"]));
    assert!(err.contains("cannot be used with"), "{err}");
}
