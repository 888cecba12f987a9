//! The gold M2 file exactly as the m2scorer reads it.
//!
//! `green_io::m2` reads M2 leniently to build reference text; scoring M2 needs the scorer's
//! own rules, quirks included, or the numbers differ: blocks end only at a line that is
//! exactly `\n`; a block's first line is taken to be its S line; every S line of a block is a
//! sentence of its own whose edits are the block's edits that end within the tokens seen so
//! far; `noop` edits are dropped but their annotator competes; `-NONE-` is an empty
//! correction; the edit's original text comes from the block's tokens; a sentence's
//! annotators come in the order of the original's dict, which decides its ties. Where the
//! original would crash (a stray line, a short A line) this returns an error naming the line
//! instead.

use std::collections::HashMap;

use crate::pydict::iteration_order;
use crate::text::{split, splitlines, strip};
use crate::Error;

/// What to do with ChERRANT target lines (`T<ref>-A<alt> text`), which the original rejects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Alternatives {
    /// Keep only the edits of each reference's first alternative (`T<ref>` or `T<ref>-A0`).
    #[default]
    First,
    /// Keep every alternative's edits, pooled under the reference's annotator id.
    Pool,
}

impl Alternatives {
    pub fn name(self) -> &'static str {
        match self {
            Alternatives::First => "first",
            Alternatives::Pool => "pool",
        }
    }
}

impl std::str::FromStr for Alternatives {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "first" => Ok(Alternatives::First),
            "pool" => Ok(Alternatives::Pool),
            _ => Err(format!(
                "unknown rule '{s}' for T<ref>-A<alt> lines; use first (alternative 0 of each reference) or pool (all alternatives' edits)"
            )),
        }
    }
}

/// One gold edit: source tokens `start..end` become one of `corrections`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldEdit {
    pub start: usize,
    pub end: usize,
    /// The block's tokens `start..end` joined by spaces.
    pub original: String,
    /// Alternatives (`||`), each stripped; `-NONE-` is the empty string.
    pub corrections: Vec<String>,
}

/// One annotator's edits of one sentence, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotator {
    pub id: i64,
    pub edits: Vec<GoldEdit>,
}

/// One sentence: its source and its competing annotators (never empty), in the order the
/// m2scorer iterates them, which decides its ties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldSentence {
    /// 1-based line of the S line.
    pub line: usize,
    pub source: String,
    pub annotators: Vec<Annotator>,
}

/// A parsed gold file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gold {
    pub sentences: Vec<GoldSentence>,
    /// Whether the file had `T` target lines.
    pub has_targets: bool,
    /// Things the original does silently that change a score, one message each.
    pub warnings: Vec<String>,
}

/// Parse a gold M2 file's text; `name` is used in messages.
pub fn parse(text: &str, name: &str, alternatives: Alternatives) -> Result<Gold, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut gold = Gold {
        sentences: Vec::new(),
        has_targets: false,
        warnings: Vec::new(),
    };
    let mut dropped = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    let lines = splitlines(text);
    for (n, line) in lines.iter().enumerate() {
        if *line == "\n" {
            read_block(&block, name, alternatives, &mut gold, &mut dropped)?;
            block.clear();
        } else {
            block.push((n + 1, line));
        }
    }
    read_block(&block, name, alternatives, &mut gold, &mut dropped)?;
    if let Some(first) = dropped.iter().min() {
        gold.warnings.push(format!(
            "{name}: {} edit(s) end past their sentence (first at line {first}); the m2scorer ignores them, and so does this score",
            dropped.len()
        ));
    }
    Ok(gold)
}

fn read_block(
    block: &[(usize, &str)],
    name: &str,
    alternatives: Alternatives,
    gold: &mut Gold,
    dropped: &mut Vec<usize>,
) -> Result<(), Error> {
    let Some(&(first_line, first)) = block.first() else {
        return Ok(());
    };
    let err = |line: usize, message: String| Error::Format {
        path: name.to_owned(),
        line,
        message,
    };
    let first = strip_terminator(first);
    if s_text(first).is_none() {
        return Err(err(first_line, format!(
            "a sentence block must start with an S line, not '{}' (blocks are separated by a line that is exactly a newline; a blank line with spaces, tabs or a CR does not separate them)",
            preview(first)
        )));
    }
    let mut sentences: Vec<(usize, String)> = Vec::new();
    // Annotators in the order of their first line, as the original's dict receives them.
    let mut annotations: Vec<(i64, Vec<RawEdit>)> = Vec::new();
    let mut index: HashMap<i64, usize> = HashMap::new();
    let mut keep = true;
    for &(n, raw) in block {
        let line = strip_terminator(raw);
        if let Some(s) = s_text(line) {
            sentences.push((n, strip(s).to_owned()));
            continue;
        }
        if line.starts_with("I ") {
            continue;
        }
        if let Some(alt) = target_alternative(line) {
            gold.has_targets = true;
            keep = alternatives == Alternatives::Pool || alt == 0;
            continue;
        }
        let Some(rest) = line.strip_prefix("A ") else {
            let why = if raw.contains('\r') {
                "the file has CR or CRLF line ends, and the m2scorer ends a sentence block only at a line that is exactly a newline; convert the file to LF line ends (e.g. dos2unix)"
            } else if strip(line).is_empty() {
                "a blank line that is not exactly a newline (it has spaces, tabs, a CR or a form feed) does not end a sentence block; make it empty"
            } else {
                "expected an S, A, I or T line"
            };
            return Err(err(n, format!("'{}': {why}", preview(line))));
        };
        let fields: Vec<&str> = rest.split("|||").collect();
        if fields.len() < 6 {
            return Err(err(n, format!(
                "an A line needs 6 fields 'start end|||type|||correction|||required|||comment|||annotator', this one has {}",
                fields.len()
            )));
        }
        let span: Vec<&str> = split(fields[0]).collect();
        if span.len() < 2 {
            return Err(err(
                n,
                format!("'{}' is not a token span 'start end'", fields[0]),
            ));
        }
        let (mut start, mut end) = (int(span[0], n, name)?, int(span[1], n, name)?);
        if fields[1] == "noop" {
            (start, end) = (-1, -1);
        }
        let annotator = int(fields[5], n, name)?;
        if !keep {
            continue;
        }
        let corrections = fields[2]
            .split("||")
            .map(|c| {
                if c == "-NONE-" {
                    String::new()
                } else {
                    strip(c).to_owned()
                }
            })
            .collect();
        let k = *index.entry(annotator).or_insert_with(|| {
            annotations.push((annotator, Vec::new()));
            annotations.len() - 1
        });
        annotations[k].1.push((n, start, end, corrections));
    }
    let joined: Vec<String> = sentences.iter().map(|(_, s)| s.clone()).collect();
    let all: Vec<&str> = joined.iter().flat_map(|s| split(s)).collect();
    let total = all.len() as i64;
    for (_, edits) in &annotations {
        dropped.extend(
            edits
                .iter()
                .filter(|&&(_, s, e, _)| s.min(e) >= 0 && s.max(e) > total)
                .map(|&(n, ..)| n),
        );
    }
    let ids: Vec<i64> = annotations.iter().map(|&(id, _)| id).collect();
    let ordered: Vec<&(i64, Vec<RawEdit>)> = order(&ids)
        .iter()
        .map(|id| &annotations[index[id]])
        .collect();
    let mut offset = 0i64;
    for (line, source) in sentences {
        offset += split(&source).count() as i64;
        let mut annotators: Vec<Annotator> = ordered
            .iter()
            .map(|&(id, edits)| Annotator {
                id: *id,
                edits: edits
                    .iter()
                    .filter(|&&(_, s, e, _)| s >= 0 && e >= 0 && s <= offset && e <= offset)
                    .map(|(_, s, e, c)| GoldEdit {
                        start: *s as usize,
                        end: *e as usize,
                        original: slice(&all, *s, *e).join(" "),
                        corrections: c.clone(),
                    })
                    .collect(),
            })
            .collect();
        if annotators.is_empty() {
            annotators.push(Annotator {
                id: 0,
                edits: Vec::new(),
            });
        }
        gold.sentences.push(GoldSentence {
            line,
            source,
            annotators,
        });
    }
    Ok(())
}

/// The order in which the m2scorer iterates the annotators of a block whose ids first
/// appear in `first_seen` order. It collects a block's edits in a dict (annotator → edits)
/// in that order, then copies it, iterating, into a fresh dict per sentence, which it
/// iterates to choose an annotator, keeping the first of tied ones: two rounds of CPython
/// 2.7 dict order, which is ascending only while every id is below the table size (8 slots
/// for up to 5 annotators) and none is −1.
fn order(first_seen: &[i64]) -> Vec<i64> {
    iteration_order(&iteration_order(first_seen))
}

/// An A line as read: its line, start, end (−1 for noop) and corrections.
type RawEdit = (usize, i64, i64, Vec<String>);

/// The text of an S line (`S` alone is an empty sentence).
fn s_text(line: &str) -> Option<&str> {
    line.strip_prefix("S ")
        .or(if line == "S" { Some("") } else { None })
}

fn strip_terminator(raw: &str) -> &str {
    let t = raw.trim_end_matches(['\n', '\r']);
    t.strip_suffix([
        '\u{b}', '\u{c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}', '\u{2028}', '\u{2029}',
    ])
    .unwrap_or(t)
}

/// `T<ref>` or `T<ref>-A<alt>` (then a space or the end): the alternative number.
fn target_alternative(line: &str) -> Option<u64> {
    let head = line.split(' ').next()?.strip_prefix('T')?;
    let (r, alt) = match head.split_once("-A") {
        Some((r, a)) => (r, a.parse().ok()?),
        None => (head, 0),
    };
    r.parse::<u64>().ok().map(|_| alt)
}

/// Python's `int()` on a field: surrounding whitespace and a sign allowed.
fn int(s: &str, line: usize, name: &str) -> Result<i64, Error> {
    strip(s).parse().map_err(|_| Error::Format {
        path: name.to_owned(),
        line,
        message: format!("'{}' is not an integer", preview(s)),
    })
}

/// Python slice `all[s:e]` for non-negative bounds.
fn slice<'a>(all: &'a [&'a str], s: i64, e: i64) -> &'a [&'a str] {
    let len = all.len() as i64;
    let s = s.clamp(0, len) as usize;
    let e = e.clamp(0, len) as usize;
    if s < e {
        &all[s..e]
    } else {
        &[]
    }
}

fn preview(s: &str) -> String {
    let mut p: String = s.chars().take(60).collect();
    if p.len() < s.len() {
        p.push('…');
    }
    p.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TARGETS: &str = "S a b c\nT0-A0 a x c\nA 1 2|||S|||x|||REQUIRED|||-NONE-|||0\nT0-A1 a y c\nA 1 2|||S|||y|||REQUIRED|||-NONE-|||0\nT1 a b c d\nA 3 3|||M|||d|||REQUIRED|||-NONE-|||1\n";

    fn edits(g: &Gold) -> Vec<(i64, Vec<String>)> {
        g.sentences[0]
            .annotators
            .iter()
            .map(|a| {
                (
                    a.id,
                    a.edits.iter().map(|e| e.corrections.join("|")).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn target_lines_first_or_pooled() {
        let first = parse(TARGETS, "t.m2", Alternatives::First).unwrap();
        assert!(first.has_targets);
        assert_eq!(
            edits(&first),
            [(0, vec!["x".into()]), (1, vec!["d".into()])]
        );
        let pool = parse(TARGETS, "t.m2", Alternatives::Pool).unwrap();
        assert_eq!(
            edits(&pool),
            [(0, vec!["x".into(), "y".into()]), (1, vec!["d".into()])]
        );
        // `first` is what the golden NLPCC-18 file was scored on: T lines and later
        // alternatives removed.
        let stripped = "S a b c\nA 1 2|||S|||x|||REQUIRED|||-NONE-|||0\nA 3 3|||M|||d|||REQUIRED|||-NONE-|||1\n";
        assert_eq!(
            parse(stripped, "s.m2", Alternatives::First)
                .unwrap()
                .sentences,
            first.sentences
        );
    }

    #[test]
    fn fields_as_the_original_reads_them() {
        let g = parse(
            "S a  b\u{3000}c \nA 0 2|||X||| x  y ||-NONE-|| -NONE- |||R|||C||| 3 \nA 1 1|||noop|||-NONE-|||R|||C|||1\n",
            "g.m2",
            Alternatives::First,
        )
        .unwrap();
        let s = &g.sentences[0];
        assert_eq!(s.source, "a  b\u{3000}c");
        assert_eq!(s.annotators.len(), 2);
        assert_eq!(s.annotators[0].id, 1);
        assert!(s.annotators[0].edits.is_empty());
        let e = &s.annotators[1].edits[0];
        assert_eq!((e.start, e.end, e.original.as_str()), (0, 2, "a b"));
        assert_eq!(e.corrections, ["x  y", "", "-NONE-"]);
    }

    #[test]
    fn annotators_in_the_originals_dict_order() {
        let ids = |text: &str| -> Vec<i64> {
            let g = parse(text, "g.m2", Alternatives::First).unwrap();
            g.sentences[0].annotators.iter().map(|a| a.id).collect()
        };
        let a = |id: i64| format!("A 0 1|||X|||b|||R|||C|||{id}\n");
        assert_eq!(ids(&format!("S a\n{}{}{}", a(3), a(1), a(3))), [1, 3]);
        assert_eq!(ids(&format!("S a\n{}{}", a(8), a(0))), [8, 0]);
        assert_eq!(ids(&format!("S a\n{}{}", a(-1), a(0))), [0, -1]);
        // First seen 6, -1: the block's dict iterates -1, 6, and the sentence's dict, filled
        // in that order, 6, -1.
        assert_eq!(ids(&format!("S a\n{}{}", a(6), a(-1))), [6, -1]);
    }

    #[test]
    fn no_a_line_means_annotator_zero() {
        let g = parse("S a\n\n\n\nS b\nI ignored\n", "g.m2", Alternatives::First).unwrap();
        assert_eq!(g.sentences.len(), 2);
        for s in &g.sentences {
            assert_eq!(
                s.annotators,
                [Annotator {
                    id: 0,
                    edits: vec![]
                }]
            );
        }
    }

    #[test]
    fn what_the_original_crashes_on_is_an_error_with_a_line() {
        for (text, line, needle) in [
            (
                "S a\r\nA 0 1|||X|||b|||R|||C|||0\r\n\r\nS b\r\n",
                3,
                "CRLF line ends",
            ),
            ("S a\n \nS b\n", 2, "blank line"),
            (
                "A 0 1|||X|||b|||R|||C|||0\nS a\n",
                1,
                "must start with an S line",
            ),
            ("S a\nA 0 1|||X|||b\n", 2, "6 fields"),
            ("S a\nA 0|||X|||b|||R|||C|||0\n", 2, "token span"),
            ("S a\nA 0 1|||X|||b|||R|||C|||zero\n", 2, "not an integer"),
            ("S a\nnonsense\n", 2, "expected an S, A, I or T line"),
        ] {
            let e = parse(text, "g.m2", Alternatives::First)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(&format!("g.m2:{line}: ")), "{e}");
            assert!(e.contains(needle), "{e}");
        }
    }

    #[test]
    fn edits_past_the_sentence_are_dropped_with_a_warning() {
        let g = parse(
            "S a b\nA 1 5|||X|||c|||R|||C|||0\n",
            "g.m2",
            Alternatives::First,
        )
        .unwrap();
        assert!(g.sentences[0].annotators[0].edits.is_empty());
        assert!(
            g.warnings[0].contains("end past their sentence (first at line 2)"),
            "{:?}",
            g.warnings
        );
    }
}
