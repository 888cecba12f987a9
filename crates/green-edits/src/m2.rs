//! ERRANT-style M2 files: an `S` line with the tokenized source, then one `A` line per edit
//! (`A start end|||type|||correction|||REQUIRED|||-NONE-|||annotator`), blocks separated
//! by a blank line.
//!
//! Read the way ERRANT 3 and CLEME read them (Python 3 text mode, so `\r\n` and `\r` end
//! lines; the whole file stripped, then split at `\n\n`), but a line either original would
//! crash on or misread is an error naming the file and line.

use crate::Error;

/// One M2 file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub path: String,
    pub sentences: Vec<Sentence>,
    /// Whether the file has ChERRANT target lines (`T0-A1 ...`).
    pub has_targets: bool,
}

/// One block: a source sentence and its edits in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    /// Line of the `S` line (1-based).
    pub line: usize,
    /// The text after `S `.
    pub source: String,
    pub edits: Vec<Edit>,
}

/// One `A` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub line: usize,
    /// Source token span; `-1 -1` marks an annotator with no edit (`noop`).
    pub start: i64,
    pub end: i64,
    /// Error type (`R:NOUN:NUM`, `noop`, `UNK`...).
    pub kind: String,
    /// The correction field as written (`-NONE-` for a deletion).
    pub correction: String,
    pub annotator: i64,
    /// In ChERRANT files, the alternative (`T<ref>-A<alt>`) the edit is listed under; 0
    /// elsewhere.
    pub alternative: u32,
}

impl Edit {
    /// The `-1 -1` span of an annotator that made no edit.
    pub fn is_noop_span(&self) -> bool {
        self.start == -1 && self.end == -1
    }

    /// Correction tokens as CLEME reads them: split on whitespace, `-NONE-` first = none.
    pub fn correction_tokens(&self) -> Vec<&str> {
        let toks: Vec<&str> = split(&self.correction).collect();
        if toks.first() == Some(&"-NONE-") {
            Vec::new()
        } else {
            toks
        }
    }
}

impl Sentence {
    /// Source tokens (Python's `str.split()`).
    pub fn tokens(&self) -> Vec<&str> {
        split(&self.source).collect()
    }
}

/// Python 3's `str.isspace()`.
pub use green_engine::tokenizer::is_python_whitespace as is_space;

/// Python 3's `str.split()`.
pub fn split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_space).filter(|t| !t.is_empty())
}

/// Parse an M2 file's text; `path` names it in errors.
pub fn parse(text: &str, path: &str) -> Result<Document, Error> {
    let err = |line: usize, message: String| Error::Format {
        path: path.to_string(),
        line,
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Python's universal newlines.
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let body = text.trim_start_matches(is_space);
    let mut line = 1 + text[..text.len() - body.len()].matches('\n').count();
    let body = body.trim_end_matches(is_space);
    if body.is_empty() {
        return Err(err(
            1,
            "no sentences; an M2 file has an S line per sentence".into(),
        ));
    }
    let mut sentences = Vec::new();
    let mut has_targets = false;
    for block in body.split("\n\n") {
        let mut lines = block.split('\n');
        let first = lines.next().unwrap_or_default();
        let source = match first.strip_prefix("S ") {
            Some(s) => s,
            None if first == "S" => "",
            None => {
                return Err(err(
                    line,
                    format!(
                        "expected an S line starting a sentence, found {:?}; blocks are separated by exactly one blank line",
                        clip(first)
                    ),
                ))
            }
        };
        let n_tokens = split(source).count() as i64;
        let mut sentence = Sentence {
            line,
            source: source.to_string(),
            edits: Vec::new(),
        };
        let mut alternative = 0;
        for (i, l) in lines.enumerate() {
            let at = line + 1 + i;
            if let Some(t) = target_line(l) {
                // `T<ref>-A<alt> text`; a bare `T<ref> text` keeps the alternative before it.
                alternative = t.map_err(|m| err(at, m))?.unwrap_or(alternative);
                has_targets = true;
                continue;
            }
            let mut e = parse_edit(l, at, n_tokens).map_err(|m| err(at, m))?;
            e.alternative = alternative;
            sentence.edits.push(e);
        }
        line += block.matches('\n').count() + 2;
        sentences.push(sentence);
    }
    Ok(Document {
        path: path.to_string(),
        sentences,
        has_targets,
    })
}

/// A ChERRANT target line (`T<digits>` or `T<digits>-A<digits>`, then a space or the end):
/// `Some(Ok(Some(alt)))`, `Some(Ok(None))` without `-A`; `None` when it is not a T line.
fn target_line(line: &str) -> Option<Result<Option<u32>, String>> {
    let rest = line.strip_prefix('T')?;
    let head = rest.split(' ').next().unwrap_or_default();
    let (reference, alt) = match head.split_once("-A") {
        Some((r, a)) => (r, Some(a)),
        None => (head, None),
    };
    if reference.is_empty() || !reference.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match alt {
        None => Ok(None),
        Some(a) => a
            .parse()
            .map(Some)
            .map_err(|_| format!("the target line's alternative {a:?} is not a number")),
    })
}

fn parse_edit(line: &str, at: usize, n_tokens: i64) -> Result<Edit, String> {
    let Some(rest) = line.strip_prefix("A ") else {
        return Err(format!(
            "expected an A line (A start end|||type|||correction|||REQUIRED|||-NONE-|||annotator) or a target line (T0-A0 ...), found {:?}",
            clip(line)
        ));
    };
    let mut fields = [""; 6];
    let mut count = 0;
    for f in rest.split("|||") {
        if count < 6 {
            fields[count] = f;
        }
        count += 1;
    }
    if count != 6 {
        return Err(format!(
            "an A line has 6 fields separated by |||, this one has {count}"
        ));
    }
    let span: Vec<&str> = split(fields[0]).collect();
    let int = |s: &str, what: &str| {
        s.trim_matches(is_space)
            .parse::<i64>()
            .map_err(|_| format!("{what} {:?} is not an integer", clip(s)))
    };
    let [start, end] = span[..] else {
        return Err(format!(
            "the span {:?} is not two token offsets",
            clip(fields[0])
        ));
    };
    let (start, end) = (int(start, "span start")?, int(end, "span end")?);
    let noop = start == -1 && end == -1;
    if !(noop || (0 <= start && start <= end && end <= n_tokens)) {
        return Err(format!(
            "the span {start} {end} is not within the sentence's {n_tokens} tokens"
        ));
    }
    Ok(Edit {
        line: at,
        start,
        end,
        kind: fields[1].to_string(),
        correction: fields[2].to_string(),
        annotator: int(fields[5], "annotator id")?,
        alternative: 0,
    })
}

/// A line cut short for an error message.
fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "S A b c .\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\nS d\nA 0 1|||U:X|||-NONE-|||REQUIRED|||-NONE-|||0\n";

    #[test]
    fn reads_blocks_edits_and_lines() {
        let d = parse(TEXT, "t.m2").unwrap();
        assert_eq!(d.sentences.len(), 2);
        let s = &d.sentences[0];
        assert_eq!((s.line, s.source.as_str()), (1, "A b c ."));
        assert_eq!(s.edits.len(), 2);
        assert_eq!((s.edits[0].start, s.edits[0].end), (1, 2));
        assert!(s.edits[1].is_noop_span());
        assert_eq!(s.edits[1].annotator, 1);
        assert_eq!(d.sentences[1].line, 5);
        assert!(d.sentences[1].edits[0].correction_tokens().is_empty());
    }

    #[test]
    fn target_lines_set_the_alternative() {
        let t = "S a b\nT0-A0 x b\nA 0 1|||S|||x|||REQUIRED|||-NONE-|||0\nT0-A1 y b\nA 0 1|||S|||y|||REQUIRED|||-NONE-|||0\nT1 no error\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n";
        let d = parse(t, "t").unwrap();
        assert!(d.has_targets);
        let alts: Vec<u32> = d.sentences[0].edits.iter().map(|e| e.alternative).collect();
        assert_eq!(alts, [0, 1, 1]);
        assert!(!parse(TEXT, "t").unwrap().has_targets);
        let e = parse("S a\nT0-Ax a\n", "t").unwrap_err().to_string();
        assert!(e.starts_with("t:2: the target line's alternative"), "{e}");
    }

    #[test]
    fn crlf_is_read_as_python_reads_it() {
        let crlf = TEXT.replace('\n', "\r\n");
        assert_eq!(parse(&crlf, "t.m2").unwrap(), parse(TEXT, "t.m2").unwrap());
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let bad = TEXT.replace("A 0 1|||U:X", "A 0 9|||U:X");
        let e = parse(&bad, "t.m2").unwrap_err().to_string();
        assert!(e.starts_with("t.m2:6: the span 0 9"), "{e}");
        let e = parse(&TEXT.replace("\n\nS d", "\n\n\nS d"), "t.m2")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.m2:5: expected an S line"), "{e}");
        let e = parse(&TEXT.replace("|||1\n\n", "\n\n"), "t.m2")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.m2:3: an A line has 6 fields"), "{e}");
        assert!(parse(" \n", "t.m2").is_err());
    }
}
