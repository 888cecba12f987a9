//! `errant_parallel` without a tagger: an M2 file from a tokenized source file and one or
//! more corrected files, as ERRANT 3.0.2 writes it with `-lev -merge all-*`.
//!
//! Per source line: `S` and the tokens; per corrected file (annotator id = its position) a
//! `noop` line when the corrected line is the source, else one `A` line per edit. Without a
//! tagger the error type is only the operation, as ERRANT's classifier decides it: `M`
//! (missing), `U` (unnecessary), `R` (replacement), or `UNK` when both sides are the same
//! tokens (detected, not corrected); ERRANT's finer types (`R:NOUN:NUM`) need spaCy's tags.

use std::fmt::Write as _;

use crate::align::{align, edits, Levenshtein, Merge, TooLong};
use crate::m2::{split, Edit, Sentence};

/// One source line and its corrections as an M2 sentence (annotator id = position), or
/// `None` for an empty source line (ERRANT writes no block for it).
pub fn sentence(
    source: &str,
    corrections: &[&str],
    merge: Merge,
) -> Result<Option<Sentence>, TooLong> {
    let src = source.trim_matches(crate::m2::is_space);
    if src.is_empty() {
        return Ok(None);
    }
    let o: Vec<&str> = split(src).collect();
    let joined = o.join(" ");
    let mut edits_out = Vec::new();
    let edit = |start, end, kind: &str, correction: String, annotator| Edit {
        line: 0,
        start,
        end,
        kind: kind.to_string(),
        correction,
        annotator,
        alternative: 0,
    };
    for (id, cor) in corrections.iter().enumerate() {
        let id = id as i64;
        let cor = cor.trim_matches(crate::m2::is_space);
        if joined == cor {
            edits_out.push(edit(-1, -1, "noop", "-NONE-".into(), id));
            continue;
        }
        let c: Vec<&str> = split(cor).collect();
        for ((os, oe), (cs, ce)) in edits(&align(&o, &c, &Levenshtein)?, merge) {
            let kind = operation(&o[os..oe], &c[cs..ce], o[os..oe] == c[cs..ce]);
            edits_out.push(edit(os as i64, oe as i64, kind, c[cs..ce].join(" "), id));
        }
    }
    Ok(Some(Sentence {
        line: 0,
        source: joined,
        edits: edits_out,
    }))
}

/// [`sentence`] of texts whose tokens are all that counts, as `green meta` and `green report`
/// extract edits from tokenized text: runs of whitespace count as one space, so a correction
/// with the source's tokens is a `noop` (ERRANT, comparing the raw lines, writes nothing for
/// it and the annotator goes missing). A character tokenizer's space tokens make such runs.
pub fn token_sentence(
    source: &str,
    corrections: &[&str],
    merge: Merge,
) -> Result<Option<Sentence>, TooLong> {
    let single = |t: &str| split(t).collect::<Vec<_>>().join(" ");
    let corrections: Vec<String> = corrections.iter().map(|c| single(c)).collect();
    let corrections: Vec<&str> = corrections.iter().map(String::as_str).collect();
    sentence(&single(source), &corrections, merge)
}

/// One source line and its corrections, written as one M2 block (or nothing, as ERRANT
/// writes nothing for an empty source line).
pub fn block(source: &str, corrections: &[&str], merge: Merge) -> Result<String, TooLong> {
    let Some(s) = sentence(source, corrections, merge)? else {
        return Ok(String::new());
    };
    let mut out = format!("S {}\n", s.source);
    for e in &s.edits {
        let _ = writeln!(
            out,
            "A {} {}|||{}|||{}|||REQUIRED|||-NONE-|||{}",
            e.start, e.end, e.kind, e.correction, e.annotator
        );
    }
    out.push('\n');
    Ok(out)
}

/// The operation tier of ERRANT's classifier: `UNK` for nothing to nothing or the same
/// tokens on both sides, `M`/`U` when a side is empty, else `R`, except that an edit of more
/// than one token whose last tokens differ only in case is classified without them
/// ([internet → the Internet] is `M`).
fn operation(o: &[&str], c: &[&str], same: bool) -> &'static str {
    match (o.last(), c.last()) {
        (None, None) => "UNK",
        (None, Some(_)) => "M",
        (Some(_), None) => "U",
        _ if same => "UNK",
        (Some(a), Some(b))
            if (o.len() > 1 || c.len() > 1) && a.to_lowercase() == b.to_lowercase() =>
        {
            operation(&o[..o.len() - 1], &c[..c.len() - 1], same)
        }
        _ => "R",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_as_errant_writes_them() {
        let b = block(
            "he go to school",
            &["he goes to school .", "he go to school"],
            Merge::AllSplit,
        )
        .unwrap();
        assert_eq!(
            b,
            "S he go to school\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||M|||.|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
        );
        assert_eq!(
            block("a b c", &["a c"], Merge::AllMerge).unwrap(),
            "S a b c\nA 1 2|||U||||||REQUIRED|||-NONE-|||0\n\n"
        );
        // Not a noop (two spaces), but the same tokens: no edit at all, as ERRANT.
        assert_eq!(
            block("a b", &["a  b"], Merge::AllMerge).unwrap(),
            "S a b\n\n"
        );
        // Where only tokens count, it is a noop, and the annotator is not lost.
        let s = token_sentence("a   b", &["a  b", "a c"], Merge::AllMerge)
            .unwrap()
            .unwrap();
        let kinds: Vec<(&str, i64)> = s
            .edits
            .iter()
            .map(|e| (e.kind.as_str(), e.annotator))
            .collect();
        assert_eq!(kinds, [("noop", 0), ("R", 1)]);
        assert_eq!(block("  ", &["x"], Merge::AllMerge).unwrap(), "");
    }

    #[test]
    fn a_case_change_at_the_end_is_classified_without_it() {
        assert_eq!(operation(&["internet"], &["the", "Internet"], false), "M");
        assert_eq!(operation(&["For", "the"], &["The"], false), "U");
        assert_eq!(operation(&["a", "b"], &["c", "B"], false), "R");
        assert_eq!(operation(&["x"], &["x"], true), "UNK");
    }
}
