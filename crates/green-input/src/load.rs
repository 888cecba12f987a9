//! A corpus in memory from any files a command is given: a source, references (line, M2,
//! para or MultiGEC files) and systems, joined per sentence, checked to describe one corpus.
//!
//! Every command that reads whole corpora (GREEN with M2 or para references, `gleu`,
//! `paired`, the Python bindings) reads through [`load`], so one rule holds everywhere:
//! - a source given beside references that carry their own must equal it byte for byte; a
//!   source that differs only in spacing is refused too, because spaces are scored (at
//!   character level they are characters, at word level they cut words) and the references
//!   are spaced like their own source;
//! - files read as lines that start with a byte-order mark keep it (as the original tools
//!   read them) and are named in a warning;
//! - a line count that does not fit says which file, and an M2 file given where lines are
//!   expected is named as such.

use green_engine::Sentence;
use green_io::m2::MissingAnnotator;
use green_io::references::{self, Format};
use green_io::{multigec, Error, Input};

/// Sources, per-sentence references and systems, all in memory.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub sources: Vec<String>,
    /// `refs[sentence]`: that sentence's references (at least one).
    pub refs: Vec<Vec<String>>,
    /// `hyps[system][sentence]`.
    pub hyps: Vec<Vec<String>>,
    pub max_refs: usize,
    /// Whether any reference file was M2 (so the missing-annotator rule applies).
    pub from_m2: bool,
    /// Doubts about the input, one line each, for the caller to show.
    pub warnings: Vec<String>,
}

impl Loaded {
    /// Keep sentences `rows` only (a shard of the corpus).
    pub fn keep(&mut self, rows: std::ops::Range<usize>) {
        fn cut<T>(v: &mut Vec<T>, rows: &std::ops::Range<usize>) {
            v.truncate(rows.end);
            v.drain(..rows.start);
        }
        cut(&mut self.sources, &rows);
        cut(&mut self.refs, &rows);
        for h in &mut self.hyps {
            cut(h, &rows);
        }
    }

    /// Every sentence's texts as slices, for [`green_engine::Sentence`]s.
    pub fn views(&self) -> Views<'_> {
        Views {
            sources: &self.sources,
            refs: self
                .refs
                .iter()
                .map(|r| r.iter().map(String::as_str).collect())
                .collect(),
            hyps: (0..self.sources.len())
                .map(|i| self.hyps.iter().map(|h| h[i].as_str()).collect())
                .collect(),
        }
    }
}

/// A [`Loaded`] corpus per sentence: `refs[i]` and `hyps[i]` (every system's text) of
/// sentence `i`, borrowed.
pub struct Views<'a> {
    sources: &'a [String],
    pub refs: Vec<Vec<&'a str>>,
    pub hyps: Vec<Vec<&'a str>>,
}

impl Views<'_> {
    /// The engine's sentences, in corpus order.
    pub fn sentences(&self) -> Vec<Sentence<'_>> {
        (0..self.sources.len())
            .map(|i| Sentence {
                source: &self.sources[i],
                refs: &self.refs[i],
                hyps: &self.hyps[i],
            })
            .collect()
    }
}

/// The warning for a file read as lines that starts with a UTF-8 byte-order mark.
pub fn bom_warning(name: &str) -> String {
    format!("{name} starts with a UTF-8 byte-order mark; as in the original tools, it is kept as part of the first token (remove it if it is not meant as text)")
}

/// A line file's lines; a byte-order mark at its start is kept and warned about.
pub fn read_lines(input: &Input, warnings: &mut Vec<String>) -> Result<Vec<String>, Error> {
    let (lines, bom) = input.open()?.into_lines_and_bom()?;
    if bom {
        warnings.push(bom_warning(input.name()));
    }
    Ok(lines)
}

/// Whether `lines` look like an M2 file (an `S` line, then `A` lines), so that a line count
/// error can say so.
pub fn looks_like_m2(lines: &[String]) -> bool {
    let mut lines = lines.iter().filter(|l| !l.trim().is_empty());
    lines.next().is_some_and(|l| l.starts_with("S ")) && lines.take(8).any(|l| l.starts_with("A "))
}

/// What a line count error adds when the file given is an M2 file.
fn m2_hint(lines: &[String]) -> &'static str {
    if looks_like_m2(lines) {
        " (it looks like an M2 file: give M2 files as references, with -r FILE and --ref-format m2 if its name does not end in .m2)"
    } else {
        ""
    }
}

/// Read references (line, M2, para or MultiGEC files, `format: None` detects each by name),
/// and the source and system line files beside them. `source` may be left out when the
/// references carry their sources (M2, para).
pub fn load(
    source: Option<&str>,
    ref_paths: &[String],
    hyp_paths: &[String],
    format: Option<Format>,
    missing: MissingAnnotator,
) -> Result<Loaded, Error> {
    let fail = |message: String| Error::Other(message);
    let ref_inputs: Vec<Input> = ref_paths.iter().map(|r| Input::parse(r)).collect();
    let format_of = |i: &Input| format.unwrap_or_else(|| Format::detect(i.name()));
    if ref_inputs.iter().any(|i| format_of(i) == Format::MultiGec) {
        let source = source.ok_or_else(|| {
            fail("MultiGEC references align with their original essays: pass them with -s ORIGINAL.md".into())
        })?;
        let hyp_inputs: Vec<Input> = hyp_paths.iter().map(|h| Input::parse(h)).collect();
        let essays = multigec::load(&Input::parse(source), &ref_inputs, &hyp_inputs)?;
        if essays.sources.is_empty() {
            return Err(fail(format!(
                "{source} has no essays: there is nothing to score"
            )));
        }
        return Ok(Loaded {
            max_refs: essays.refs.iter().map(Vec::len).max().unwrap_or(0),
            sources: essays.sources,
            refs: essays.refs,
            hyps: essays.hyps,
            from_m2: false,
            warnings: Vec::new(),
        });
    }
    let from_m2 = ref_inputs.iter().any(|i| format_of(i) == Format::M2);
    let mut corpus = references::load_all(&ref_inputs, format, missing)?;
    let mut warnings = std::mem::take(&mut corpus.warnings);
    let sentences = corpus.refs.len();
    let max_refs = corpus.max_refs();
    let sources = match (source, corpus.sources) {
        (Some(path), carried) => {
            let lines = read_lines(&Input::parse(path), &mut warnings)?;
            if lines.len() != sentences {
                return Err(fail(format!(
                    "line count mismatch: {path} has {} lines but {} has {sentences} sentences{}",
                    lines.len(),
                    ref_paths[0],
                    m2_hint(&lines)
                )));
            }
            if let Some(m) = carried
                .as_deref()
                .and_then(|c| references::source_mismatch(&lines, c))
            {
                let how = if m.spacing_only {
                    " only in spacing, which changes scores (spaces are scored, and the references are spaced like their own source)"
                } else {
                    ""
                };
                return Err(fail(format!(
                    "line {} of {path} differs from the source of sentence {} in {}{how} ({} sentences differ); -s must be the corpus the references describe, byte for byte: leave -s out to use the references' own sources",
                    m.first + 1,
                    m.first + 1,
                    ref_paths[0],
                    m.count,
                )));
            }
            lines
        }
        (None, Some(sources)) => sources,
        (None, None) => return Err(fail("no source file given: pass it with -s SRC".into())),
    };
    let mut hyps = Vec::with_capacity(hyp_paths.len());
    for path in hyp_paths {
        let lines = read_lines(&Input::parse(path), &mut warnings)?;
        if lines.len() != sentences {
            return Err(fail(format!(
                "line count mismatch: {} has {sentences} sentences but {path} has {} lines; every system file needs one line per sentence{}",
                ref_paths[0],
                lines.len(),
                m2_hint(&lines)
            )));
        }
        hyps.push(lines);
    }
    if sentences == 0 {
        return Err(fail(format!(
            "{} has no sentences: there is nothing to score",
            ref_paths[0]
        )));
    }
    Ok(Loaded {
        sources,
        refs: corpus.refs,
        hyps,
        max_refs,
        from_m2,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    }

    const M2: &str = "S a b c d\nA 0 1|||R|||X|||REQUIRED|||-NONE-|||0\n\nS e f\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n";

    fn run(source: Option<&str>, refs: &[String], hyps: &[String]) -> Result<Loaded, String> {
        load(source, refs, hyps, None, MissingAnnotator::Skip).map_err(|e| e.to_string())
    }

    #[test]
    fn a_source_must_be_the_references_own_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let m2 = write(dir.path(), "gold.m2", M2);
        let hyp = write(dir.path(), "hyp.txt", "a b X d\ne f\n");
        let same = write(dir.path(), "same.txt", "a b c d\ne f\n");
        let loaded = run(
            Some(&same),
            std::slice::from_ref(&m2),
            std::slice::from_ref(&hyp),
        )
        .unwrap();
        assert_eq!(loaded.sources, ["a b c d", "e f"]);
        assert_eq!(loaded.refs[0], ["X b c d"]);
        // Equal ignoring spaces is not equal: it used to be accepted and then scored.
        let spaced = write(dir.path(), "spaced.txt", "ab c d\ne f\n");
        let err = run(
            Some(&spaced),
            std::slice::from_ref(&m2),
            std::slice::from_ref(&hyp),
        )
        .unwrap_err();
        assert!(
            err.contains("line 1 of")
                && err.contains("only in spacing")
                && err.contains("leave -s out"),
            "{err}"
        );
        let other = write(dir.path(), "other.txt", "a b c d\ng h\n");
        let err = run(Some(&other), &[m2], &[hyp]).unwrap_err();
        assert!(
            err.contains("line 2 of") && !err.contains("spacing"),
            "{err}"
        );
    }

    #[test]
    fn byte_order_marks_of_line_files_are_kept_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let m2 = write(dir.path(), "gold.m2", M2);
        let hyp = write(dir.path(), "hyp.txt", "\u{feff}a b X d\ne f\n");
        let loaded = run(None, &[m2], std::slice::from_ref(&hyp)).unwrap();
        assert_eq!(loaded.hyps[0][0], "\u{feff}a b X d");
        assert_eq!(loaded.warnings, [bom_warning(&hyp)]);
    }

    #[test]
    fn an_m2_file_where_lines_are_expected_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let m2 = write(dir.path(), "gold.m2", M2);
        let as_hyp = write(dir.path(), "gold.txt", M2);
        let err = run(None, std::slice::from_ref(&m2), &[as_hyp]).unwrap_err();
        assert!(
            err.contains("line count mismatch") && err.contains("looks like an M2 file"),
            "{err}"
        );
        let plain = write(dir.path(), "plain.txt", "a\nb\nc\n");
        let err = run(None, &[m2], &[plain]).unwrap_err();
        assert!(!err.contains("M2 file"), "{err}");
    }
}
