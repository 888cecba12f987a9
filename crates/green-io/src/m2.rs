//! M2 files: a source sentence and the gold edits of one or more annotators.
//!
//! GEC test sets (CoNLL-2014, BEA-2019, NLPCC-2018, ...) ship their references as edits, not
//! as text. GREEN needs reference text, and MAEGE needs the edits themselves, so this module
//! keeps both: [`M2`] holds every parsed edit, and [`M2::references`] applies them.
//!
//! Two layouts are read:
//! - plain M2 (CoNLL, ERRANT): `S tokens`, then `A start end|||type|||correction|||required|||comment|||annotator`
//!   lines, blocks separated by a blank line. Which annotators are a sentence's references is
//!   a [`MissingAnnotator`] choice: by default (`skip`, the convention of the m2scorer, the GREEN
//!   paper and SEEDA) only those with at least one line (an edit or a `noop`) in the sentence's
//!   block; a block with no A line at all has one reference, the source. With `source`, every
//!   sentence gets one reference per annotator id that occurs in the file, and an annotator
//!   with no line keeps the source; this reproduces the official CoNLL-2014
//!   `ref0.txt`/`ref1.txt` byte for byte (88 of its sentences have no line of annotator 1).
//! - M2 with target lines (ChERRANT, as NLPCC-2018 ships): `T<ref>-A<alt> target` lines, each
//!   followed by the A lines that turn the source into that target. `<ref>` is a reference,
//!   `<alt>` an alternative edit set giving the same target; `T0 没有错误` ("no error") with a
//!   `noop` edit means the sentence is correct. A sentence has exactly the references its T lines
//!   name (so their number varies); each reference uses its first alternative's edits.
//!
//! Edits apply in file order with a running offset, exactly like the reference conversion
//! scripts (`cor[start+off:end+off] = correction`); `noop` edits are skipped, and a correction of
//! `-NONE-` is a deletion. Tokens are separated by single spaces.

use std::io::BufRead;

use crate::lines::{without_bom, Input, LineReader};
use crate::Error;

/// The target text of a correct sentence in ChERRANT's M2 ("no error"), with a `noop` edit.
const NO_ERROR: &str = "没有错误";

/// Highest annotator or reference id accepted (ids index arrays).
const MAX_ANNOTATOR: usize = 999;

/// Which annotators of a plain M2 file are a sentence's references.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MissingAnnotator {
    /// Only annotators with a line (edit or `noop`) in the sentence's block, as the m2scorer.
    #[default]
    Skip,
    /// Every annotator id that occurs in the file; one with no line in the block gives the source.
    Source,
}

impl MissingAnnotator {
    pub fn name(self) -> &'static str {
        match self {
            MissingAnnotator::Skip => "skip",
            MissingAnnotator::Source => "source",
        }
    }
}

impl std::str::FromStr for MissingAnnotator {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "skip" => Ok(MissingAnnotator::Skip),
            "source" => Ok(MissingAnnotator::Source),
            _ => Err(Error::Other(format!(
                "unknown missing-annotator rule '{s}'; use skip (only annotators with a line in the sentence's block, as the m2scorer) or source (every annotator; a missing one gives the source)"
            ))),
        }
    }
}

/// One gold edit: replace source tokens `start..end` with `correction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    /// The error type (second field), e.g. `ArtOrDet`, `R:VERB`, `S`.
    pub kind: String,
    /// Replacement tokens joined by single spaces; empty for a deletion.
    pub correction: String,
    pub annotator: usize,
    /// 1-based line of the edit in its file.
    pub line: usize,
}

/// One annotator's (or one target line's) edits of one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Annotator id (plain M2) or reference number `<ref>` of `T<ref>-A<alt>`.
    pub annotator: usize,
    /// `<alt>` of `T<ref>-A<alt>`; 0 in plain M2.
    pub alternative: usize,
    /// The text of the T line, when the file has target lines.
    pub target: Option<String>,
    /// Edits in file order, `noop` left out.
    pub edits: Vec<Edit>,
    /// Whether the annotator has a line (edit or `noop`) in this block; always true for
    /// target lines. See [`MissingAnnotator`].
    pub present: bool,
}

/// One block of an M2 file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct M2Sentence {
    /// 1-based line of the S line.
    pub line: usize,
    /// The S line without its `S ` prefix.
    pub source: String,
    /// Plain M2: one per annotator id that occurs in the file's plain blocks (just 0 when
    /// none does), ascending. With target lines: one per T line, in file order.
    pub annotations: Vec<Annotation>,
}

impl M2Sentence {
    /// The source tokens (split on spaces, empty pieces dropped).
    pub fn tokens(&self) -> Vec<&str> {
        split_tokens(&self.source)
    }

    /// The annotations that make references: the first alternative in the file of each
    /// annotator (`T0-A1` alone counts), by annotator id, keeping annotators without a line
    /// in this block only under [`MissingAnnotator::Source`]. A block where no annotator has a
    /// line keeps its first annotator (the source as the one reference), as the m2scorer does.
    /// Never empty: every parsed block has at least one annotation.
    pub fn primary(&self, missing: MissingAnnotator) -> Vec<&Annotation> {
        let mut v: Vec<&Annotation> = Vec::new();
        for a in &self.annotations {
            let wanted = missing == MissingAnnotator::Source || a.present;
            if wanted && !v.iter().any(|b| b.annotator == a.annotator) {
                v.push(a);
            }
        }
        if v.is_empty() {
            v.extend(self.annotations.first());
        }
        v.sort_by_key(|a| a.annotator);
        v
    }

    /// One reference per annotator (see [`M2Sentence::primary`]), edits applied to the source.
    pub fn references(&self, missing: MissingAnnotator) -> Vec<String> {
        let tokens = self.tokens();
        self.primary(missing)
            .iter()
            .map(|a| apply_edits(&tokens, &a.edits))
            .collect()
    }
}

/// A parsed M2 file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct M2 {
    /// The file name as given (for messages).
    pub name: String,
    pub sentences: Vec<M2Sentence>,
    /// Whether the file uses `T<ref>-A<alt>` target lines.
    pub has_targets: bool,
}

impl M2 {
    /// The source sentences, one per block.
    pub fn sources(&self) -> Vec<String> {
        self.sentences.iter().map(|s| s.source.clone()).collect()
    }

    /// Doubts about the file, one message each: edits that cannot make a clean reference
    /// text ([`M2::edit_warnings`]); and in a plain M2 file, annotator ids that are not
    /// `0..K`, and an annotator with lines in almost no sentence (a stray `A` line, which
    /// under [`MissingAnnotator::Source`] adds the source as a reference to every other one).
    pub fn warnings(&self) -> Vec<String> {
        let mut out = self.edit_warnings();
        if self.has_targets || self.sentences.is_empty() {
            return out;
        }
        let ids: Vec<usize> = self.sentences[0]
            .annotations
            .iter()
            .map(|a| a.annotator)
            .collect();
        if ids.iter().enumerate().any(|(i, &a)| i != a) {
            out.push(format!(
                "{}: annotator ids are {}, not 0..{}; check for a mistyped id in an A line",
                self.name,
                list(&ids),
                ids.len() - 1
            ));
        }
        let total = self.sentences.len();
        if ids.len() > 1 && total >= 20 {
            for (k, &id) in ids.iter().enumerate() {
                let blocks: Vec<&M2Sentence> = self
                    .sentences
                    .iter()
                    .filter(|s| s.annotations[k].present)
                    .collect();
                if blocks.len() <= (total / 100).max(1) {
                    let first = blocks.first().map_or(0, |s| s.line);
                    out.push(format!(
                        "{}: annotator {id} has lines in only {} of {total} sentences (first in the block at line {first}); a stray A line? With --missing-annotator source it adds the source as a reference to every other sentence",
                        self.name,
                        blocks.len()
                    ));
                }
            }
        }
        out
    }

    /// Edits whose reference text is not what the file means, each kind once with its first
    /// line and count: edits of one annotator out of order or overlapping (applied in file
    /// order they garble the text), corrections holding `||` alternatives (copied literally),
    /// and target lines that differ from what their edits make of the source.
    pub fn edit_warnings(&self) -> Vec<String> {
        // (first line, count) per kind.
        let mut found: [Option<(usize, usize)>; 3] = [None; 3];
        let mut note = |kind: usize, line: usize| {
            let slot = found[kind].get_or_insert((line, 0));
            slot.1 += 1;
        };
        for s in &self.sentences {
            for a in &s.annotations {
                for pair in a.edits.windows(2) {
                    if pair[1].start < pair[0].end || pair[1].start < pair[0].start {
                        note(0, pair[1].line);
                    }
                }
                for e in a.edits.iter().filter(|e| e.correction.contains("||")) {
                    note(1, e.line);
                }
                if let Some(target) = &a.target {
                    let made = apply_edits(&s.tokens(), &a.edits);
                    let no_error = a.edits.is_empty() && target.replace(' ', "") == NO_ERROR;
                    if !no_error && split_tokens(target) != split_tokens(&made) {
                        // The T line is the line before its first edit, or the S line's next.
                        note(2, a.edits.first().map_or(s.line + 1, |e| e.line - 1));
                    }
                }
            }
        }
        let what = [
            "edits of one annotator out of order or overlapping (applied in file order, they garble the reference text; sort them, or split the annotator)",
            "corrections holding alternatives separated by || (the reference text keeps them literally, '||' and all)",
            "target lines that differ from what their edits make of the source (the edits are applied; the T line's text is not used)",
        ];
        found
            .iter()
            .zip(what)
            .filter_map(|(f, what)| {
                let (line, count) = (*f)?;
                Some(format!("{}:{line}: {what}; {count} in the file", self.name))
            })
            .collect()
    }

    /// The references of every sentence, `[sentence][reference]`.
    pub fn references(&self, missing: MissingAnnotator) -> Vec<Vec<String>> {
        self.sentences
            .iter()
            .map(|s| s.references(missing))
            .collect()
    }
}

/// Split an M2 token string on spaces.
pub fn split_tokens(s: &str) -> Vec<&str> {
    s.split(' ').filter(|t| !t.is_empty()).collect()
}

/// Apply `edits` to `tokens` in the order given, with a running offset, and join with spaces.
///
/// Same as the reference scripts' `cor[s+off:e+off] = c; off += len(c) - (e - s)`. Edits that
/// overlap an earlier one's output are clamped to the current sentence (Python slice
/// semantics), so this never fails.
pub fn apply_edits<'e>(tokens: &[&str], edits: impl IntoIterator<Item = &'e Edit>) -> String {
    let mut out: Vec<&str> = tokens.to_vec();
    let mut off: isize = 0;
    for e in edits {
        let len = out.len() as isize;
        let s = (e.start as isize + off).clamp(0, len) as usize;
        let t = ((e.end as isize + off).clamp(0, len) as usize).max(s);
        let cor = split_tokens(&e.correction);
        off += cor.len() as isize - (e.end as isize - e.start as isize);
        out.splice(s..t, cor);
    }
    out.join(" ")
}

/// Read an M2 file (or `-`).
pub fn read(input: &Input) -> Result<M2, Error> {
    parse(input.open()?)
}

/// Parse M2 text from a line reader (see the module docs for the layouts).
pub fn parse<R: BufRead>(mut reader: LineReader<R>) -> Result<M2, Error> {
    let name = reader.name().to_owned();
    let err = |line: usize, message: String| Error::Format {
        path: name.clone(),
        line,
        message,
    };
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_block = false;
    let mut buf = String::new();
    while reader.next_line(&mut buf)? {
        let n = reader.lines_read();
        let text = without_bom(n, &buf);
        if text.trim().is_empty() {
            in_block = false;
            continue;
        }
        if let Some(src) = text
            .strip_prefix("S ")
            .or(if text == "S" { Some("") } else { None })
        {
            blocks.push(Block {
                line: n,
                source: src.to_owned(),
                ntok: split_tokens(src).len(),
                ..Block::default()
            });
            in_block = true;
            continue;
        }
        let Some(block) = blocks.last_mut().filter(|_| in_block) else {
            return Err(err(
                n,
                format!(
                    "'{}' is outside a sentence block; every block starts with an 'S <source tokens>' line",
                    excerpt(text)
                ),
            ));
        };
        if let Some(rest) = text.strip_prefix('T') {
            if !block.plain.is_empty() || !block.noop_plain.is_empty() {
                return Err(err(
                    n,
                    "target line after A lines that belong to no target line; put every A line under the T line it belongs to"
                        .into(),
                ));
            }
            let (annotator, alternative, target) = parse_target(rest).map_err(|m| err(n, m))?;
            block.targets.push(Annotation {
                annotator,
                alternative,
                target: Some(target),
                edits: Vec::new(),
                present: true,
            });
        } else if let Some(rest) = text.strip_prefix("A ") {
            let (annotator, edit) = parse_edit(rest, n, block.ntok).map_err(|m| err(n, m))?;
            match block.targets.last_mut() {
                Some(t) if t.annotator != annotator => {
                    return Err(err(
                        n,
                        format!(
                            "edit of annotator {annotator} under target line T{}; an A line's last field must be the reference number of the T line above it",
                            t.annotator
                        ),
                    ))
                }
                Some(t) => t.edits.extend(edit),
                None => match edit {
                    Some(e) => block.plain.push(e),
                    None => block.noop_plain.push(annotator),
                },
            }
        } else {
            return Err(err(
                n,
                format!(
                    "expected an 'S', 'A' or 'T' line or a blank line, found '{}'; M2 blocks are an S line, its A (and T) lines, then a blank line",
                    excerpt(text)
                ),
            ));
        }
    }
    // Plain blocks: one annotation per annotator id that occurs in plain blocks (0 if none),
    // so a stray id (999) adds one annotator, not a thousand.
    let mut annotators: Vec<usize> = blocks
        .iter()
        .filter(|b| b.targets.is_empty())
        .flat_map(|b| {
            b.plain
                .iter()
                .map(|e| e.annotator)
                .chain(b.noop_plain.iter().copied())
        })
        .collect();
    annotators.sort_unstable();
    annotators.dedup();
    if annotators.is_empty() {
        annotators.push(0);
    }
    let has_targets = blocks.iter().any(|b| !b.targets.is_empty());
    let sentences = blocks
        .into_iter()
        .map(|b| {
            let annotations = if b.targets.is_empty() {
                annotators
                    .iter()
                    .map(|&a| Annotation {
                        annotator: a,
                        alternative: 0,
                        target: None,
                        edits: b
                            .plain
                            .iter()
                            .filter(|e| e.annotator == a)
                            .cloned()
                            .collect(),
                        present: b.plain.iter().any(|e| e.annotator == a)
                            || b.noop_plain.contains(&a),
                    })
                    .collect()
            } else {
                b.targets
            };
            M2Sentence {
                line: b.line,
                source: b.source,
                annotations,
            }
        })
        .collect();
    Ok(M2 {
        name,
        sentences,
        has_targets,
    })
}

/// A block while it is being read.
#[derive(Default)]
struct Block {
    line: usize,
    source: String,
    ntok: usize,
    plain: Vec<Edit>,
    /// Annotator ids of plain `noop` lines (they count as annotators).
    noop_plain: Vec<usize>,
    targets: Vec<Annotation>,
}

/// `T<ref>-A<alt> text` or `T<ref> text` (after the `T`) → (ref, alt, text).
fn parse_target(rest: &str) -> Result<(usize, usize, String), String> {
    let (head, text) = rest.split_once(' ').unwrap_or((rest, ""));
    let bad = || {
        format!("malformed target line 'T{}'; expected 'T<ref>-A<alt> <target tokens>', e.g. 'T0-A0 ...'", excerpt(head))
    };
    let (r, a) = match head.split_once("-A") {
        Some((r, a)) => (r, a),
        None => (head, "0"),
    };
    let r: usize = r.parse().map_err(|_| bad())?;
    let a: usize = a.parse().map_err(|_| bad())?;
    if r > MAX_ANNOTATOR {
        return Err(format!(
            "reference number {r} in 'T{head}' is too large (at most {MAX_ANNOTATOR})"
        ));
    }
    Ok((r, a, text.to_owned()))
}

/// Parse the part of an A line after `A `: its annotator, and its edit (`None` for a `noop`).
fn parse_edit(rest: &str, line: usize, ntok: usize) -> Result<(usize, Option<Edit>), String> {
    let fields: Vec<&str> = rest.split("|||").collect();
    if fields.len() != 6 {
        return Err(format!(
            "A line has {} '|||'-separated fields, expected 6: 'A start end|||type|||correction|||required|||comment|||annotator'",
            fields.len()
        ));
    }
    let annotator: usize = fields[5].trim().parse().map_err(|_| {
        format!(
            "annotator '{}' is not a non-negative integer (last field of the A line)",
            excerpt(fields[5])
        )
    })?;
    if annotator > MAX_ANNOTATOR {
        return Err(format!(
            "annotator id {annotator} is too large (at most {MAX_ANNOTATOR})"
        ));
    }
    let kind = fields[1];
    if kind == "noop" {
        return Ok((annotator, None));
    }
    let span: Vec<&str> = fields[0].split_whitespace().collect();
    let parsed: Vec<Option<usize>> = span.iter().map(|s| s.parse().ok()).collect();
    let (start, end) = match parsed[..] {
        [Some(s), Some(e)] => (s, e),
        _ => {
            return Err(format!(
                "edit span '{}' is not two non-negative token offsets 'start end' (only a noop edit may use -1 -1)",
                excerpt(fields[0])
            ))
        }
    };
    if start > end || end > ntok {
        return Err(format!(
            "edit span {start} {end} does not fit the source's {ntok} tokens; offsets must satisfy 0 <= start <= end <= {ntok}"
        ));
    }
    let correction = match fields[2] {
        "-NONE-" => String::new(),
        c => split_tokens(c).join(" "),
    };
    Ok((
        annotator,
        Some(Edit {
            start,
            end,
            kind: kind.to_owned(),
            correction,
            annotator,
            line,
        }),
    ))
}

/// `0, 1, 999` (at most 10 ids, then `…`).
fn list(ids: &[usize]) -> String {
    let mut s: Vec<String> = ids.iter().take(10).map(usize::to_string).collect();
    if ids.len() > 10 {
        s.push("…".into());
    }
    s.join(", ")
}

/// The start of a line, for messages.
fn excerpt(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}
