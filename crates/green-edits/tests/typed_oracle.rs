//! Real data (ignored unless run with `--ignored`; needs GREEN_SHARED): ERRANT 3.0.2's typed
//! M2 (linguistic alignment, the four mergers, the English classifier) for the 13 CoNLL-2014
//! systems, byte for byte, from spaCy's annotations of the same sentences.
//!
//! `scripts/errant-typed-oracle.py` recorded, with ERRANT itself and spaCy's en_core_web_sm
//! 3.8.0, what a tagger says of each sentence (`annotations.tsv.gz`) and ERRANT's M2 files;
//! neither holds CoNLL-2014's text (its licence does not allow copying it): the M2 files' `S`
//! lines are cut and their corrections hashed. This test puts the words back from ../shared,
//! writes each file's CoNLL-U as a tagger would, reads it back through `green_edits::conllu`
//! and compares green's M2, its corrections hashed the same way, with ERRANT's.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use std::ops::Range;

use green_edits::conllu::Sentence;
use green_edits::typed::{block, line_sentences, Classifier, Merger};

/// What the goldens keep of a correction: `#` and the 64-bit FNV-1a hash of its bytes, so
/// they hold no fragment of the systems' text.
fn hashed(correction: &str) -> String {
    let h = correction.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("#{h:016x}")
}

/// `m2` with every `A` line's correction hashed.
fn hide_corrections(m2: &str) -> String {
    m2.split_inclusive('\n')
        .map(|line| match line.strip_prefix("A ") {
            Some(_) => {
                let mut fields: Vec<String> = line.split("|||").map(str::to_owned).collect();
                fields[2] = hashed(&fields[2]);
                fields.join("|||")
            }
            None => line.to_string(),
        })
        .collect()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errant-typed")
}

fn gunzip(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .read_to_string(&mut text)
    .unwrap();
    text
}

fn lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Python's universal newlines, as ERRANT reads its files.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.lines().map(str::to_owned).collect()
}

fn key(line: &str) -> String {
    green_edits::m2::split(line).collect::<Vec<_>>().join(" ")
}

/// The oracle's lemma rule put back on a form: `=`, `L` (lower case), or `[L]CUT|SUFFIX`.
fn lemma(form: &str, rule: &str) -> String {
    match rule {
        "=" => form.to_string(),
        "L" => form.to_lowercase(),
        _ => {
            let (base, rule) = match rule.strip_prefix('L') {
                Some(r) => (form.to_lowercase(), r),
                None => (form.to_string(), rule),
            };
            let (cut, suffix) = rule.split_once('|').unwrap();
            let chars: Vec<char> = base.chars().collect();
            let keep = chars.len() - cut.parse::<usize>().unwrap();
            chars[..keep].iter().collect::<String>() + suffix
        }
    }
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn typed_m2_equals_errant_for_13_systems_and_4_mergers() {
    let conll = green_test_data::shared_file("data/conll14");
    let source = lines(&conll.join("source.txt"));
    let mut systems: Vec<String> = std::fs::read_dir(conll.join("systems"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    systems.sort();
    let files: Vec<(String, Vec<String>)> = std::iter::once(("source".to_string(), source.clone()))
        .chain(systems.iter().map(|s| {
            (
                s.trim_end_matches(".txt").to_string(),
                lines(&conll.join("systems").join(s)),
            )
        }))
        .collect();
    // The unique sentences in the oracle's order, each with its annotation lines.
    let mut order = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, ls) in &files {
        for l in ls {
            let k = key(l);
            if !k.is_empty() && seen.insert(k.clone()) {
                order.push(k);
            }
        }
    }
    let annotations = gunzip(&fixtures().join("annotations.tsv.gz"));
    let blocks: Vec<&str> = annotations.split_terminator("\n\n").collect();
    assert_eq!(blocks.len(), order.len(), "annotations per unique sentence");
    let mut conllu_of: HashMap<&str, String> = HashMap::new();
    for (k, b) in order.iter().zip(&blocks) {
        let forms: Vec<&str> = k.split(' ').collect();
        let rows: Vec<&str> = b.split('\n').collect();
        assert_eq!(forms.len(), rows.len(), "{k}");
        let mut text = String::new();
        for (i, (form, row)) in forms.iter().zip(&rows).enumerate() {
            let c: Vec<&str> = row.split('\t').collect();
            let _ = writeln!(
                text,
                "{}\t{form}\t{}\t{}\t{}\t_\t{}\t{}\t_\t_",
                i + 1,
                lemma(form, c[0]),
                if c[1].is_empty() { "_" } else { c[1] },
                c[2],
                c[3],
                c[4]
            );
        }
        text.push('\n');
        conllu_of.insert(k, text);
    }
    // Each file's CoNLL-U (a sentence per non-empty line), read back as each line's
    // sentences, whose Docs `block` makes when it aligns (as `green errant-parallel` does).
    let conllu: HashMap<&str, String> = files
        .iter()
        .map(|(name, ls)| {
            let text: String = ls
                .iter()
                .map(|l| key(l))
                .filter(|k| !k.is_empty())
                .map(|k| conllu_of[k.as_str()].clone())
                .collect();
            (name.as_str(), text)
        })
        .collect();
    let parsed: HashMap<&str, (Vec<Sentence>, Vec<Range<usize>>)> = files
        .iter()
        .map(|(name, ls)| {
            let path = format!("{name}.conllu");
            let sentences = green_edits::conllu::parse(&conllu[name.as_str()], &path).unwrap();
            let ranges = line_sentences(ls, &sentences, name, &path).unwrap();
            (name.as_str(), (sentences, ranges))
        })
        .collect();
    let line = |name: &str, i: usize| {
        let (sentences, ranges) = &parsed[name];
        &sentences[ranges[i].clone()]
    };
    let english = Classifier::english();
    let mut checked = 0;
    let mut failures = Vec::new();
    for merge in ["rules", "all-split", "all-merge", "all-equal"] {
        let merger: Merger = merge.parse().unwrap();
        for system in &systems {
            let system = system.trim_end_matches(".txt");
            let golden = fixtures().join(format!("{system}.{merge}.m2.gz"));
            // The oracle cut each `S` line to `S`; the source's tokens go back in.
            let mut sources = source.iter().map(|l| key(l)).filter(|k| !k.is_empty());
            let want: String = gunzip(&golden)
                .split_inclusive('\n')
                .map(|l| {
                    if l == "S\n" {
                        format!("S {}\n", sources.next().unwrap())
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            let cor = &files.iter().find(|(n, _)| n == system).unwrap().1;
            let got: String = source
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    block(
                        s,
                        line("source", i),
                        &[(cor[i].as_str(), line(system, i))],
                        false,
                        merger,
                        &english,
                    )
                    .unwrap()
                })
                .collect();
            let got = hide_corrections(&got);
            if got != want {
                let first = got
                    .lines()
                    .zip(want.lines())
                    .enumerate()
                    .find(|(_, (a, b))| a != b)
                    .map(|(n, (a, b))| format!("line {}: green {a:?}, ERRANT {b:?}", n + 1))
                    .unwrap_or_else(|| "lengths differ".into());
                let differing = got
                    .lines()
                    .zip(want.lines())
                    .filter(|(a, b)| a != b)
                    .count();
                failures.push(format!(
                    "{system}.{merge}: {differing} lines differ, first {first}"
                ));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 52, "13 systems × 4 mergers");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
