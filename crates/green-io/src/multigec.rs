//! MultiGEC-2025 Markdown: essays, not sentences.
//!
//! The MultiGEC shared task (12 languages) ships each split as essay-aligned files, one of
//! original essays and one per reference set, each a sequence of blocks
//!
//! ```text
//! ### essay_id = 17
//! Full text of the essay (newlines and other whitespace kept).
//! ```
//!
//! with two newlines between blocks. A reference file may lack some essays (a second
//! reference often covers only part of a corpus). Scoring is per essay: each essay is one
//! "sentence" of the engine, aligned across files by its id, in the order of the original file.

use std::collections::HashMap;

use crate::lines::{read_lines, without_bom, Input};
use crate::Error;

const HEADER: &str = "### essay_id = ";

/// One essay: its id and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Essay {
    pub id: String,
    pub text: String,
}

/// The essays of one file, in file order. Lines before the first header must be blank; ids
/// must be unique. An essay's text is everything between its header and the next one, less
/// the blank lines that separate blocks.
pub fn read(input: &Input) -> Result<Vec<Essay>, Error> {
    let lines = read_lines(input)?;
    let mut essays: Vec<(Essay, usize)> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        // A byte-order mark is not part of a header (the format is structured, as M2).
        let line = without_bom(i + 1, line);
        if let Some(id) = line.strip_prefix(HEADER) {
            let id = id.trim().to_owned();
            if id.is_empty() {
                return Err(format_error(input, i + 1, "an essay header without an id"));
            }
            if let Some(first) = seen.insert(id.clone(), i + 1) {
                return Err(format_error(
                    input,
                    i + 1,
                    &format!("essay_id = {id} again (first at line {first}); ids must be unique"),
                ));
            }
            essays.push((
                Essay {
                    id,
                    text: String::new(),
                },
                0,
            ));
        } else if let Some((essay, count)) = essays.last_mut() {
            if *count > 0 {
                essay.text.push('\n');
            }
            essay.text.push_str(line);
            *count += 1;
        } else if !line.trim().is_empty() {
            return Err(format_error(
                input,
                i + 1,
                "text before the first `### essay_id = N` header; is this a MultiGEC Markdown file?",
            ));
        }
    }
    Ok(essays
        .into_iter()
        .map(|(mut essay, _)| {
            let kept = essay.text.trim_end_matches(['\n', '\r']).len();
            essay.text.truncate(kept);
            essay
        })
        .collect())
}

fn format_error(input: &Input, line: usize, message: &str) -> Error {
    Error::Format {
        path: input.name().to_owned(),
        line,
        message: message.to_owned(),
    }
}

/// Original essays with their references and the systems' corrections, aligned by id in the
/// order of the original file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aligned {
    pub ids: Vec<String>,
    pub sources: Vec<String>,
    /// Per essay, its references in the order of the reference files (at least one).
    pub refs: Vec<Vec<String>>,
    /// Per system file, one text per essay.
    pub hyps: Vec<Vec<String>>,
}

/// Reads and aligns a MultiGEC original file, reference files and system files. Every
/// essay needs a reference in at least one reference file and a text in every system file;
/// a file with an essay the original lacks is an error.
pub fn load(source: &Input, refs: &[Input], hyps: &[Input]) -> Result<Aligned, Error> {
    let origs = read(source)?;
    let index: HashMap<&str, usize> = origs
        .iter()
        .enumerate()
        .map(|(k, e)| (e.id.as_str(), k))
        .collect();
    let by_id = |input: &Input| -> Result<Vec<Option<String>>, Error> {
        let mut texts = vec![None; origs.len()];
        for essay in read(input)? {
            let k = *index.get(essay.id.as_str()).ok_or_else(|| {
                Error::Other(format!(
                    "{}: essay_id = {} is not in {}; the files must come from the same split",
                    input.name(),
                    essay.id,
                    source.name()
                ))
            })?;
            texts[k] = Some(essay.text);
        }
        Ok(texts)
    };
    let mut per_essay = vec![Vec::new(); origs.len()];
    for input in refs {
        for (k, text) in by_id(input)?.into_iter().enumerate() {
            per_essay[k].extend(text);
        }
    }
    if let Some(k) = per_essay.iter().position(Vec::is_empty) {
        return Err(Error::Other(format!(
            "essay_id = {} of {} has no reference in any reference file",
            origs[k].id,
            source.name()
        )));
    }
    let mut systems = Vec::with_capacity(hyps.len());
    for input in hyps {
        let texts = by_id(input)?;
        if let Some(k) = texts.iter().position(Option::is_none) {
            return Err(Error::Other(format!(
                "{} has no essay_id = {}; a system file needs every essay of {}",
                input.name(),
                origs[k].id,
                source.name()
            )));
        }
        systems.push(texts.into_iter().flatten().collect());
    }
    Ok(Aligned {
        ids: origs.iter().map(|e| e.id.clone()).collect(),
        sources: origs.into_iter().map(|e| e.text).collect(),
        refs: per_essay,
        hyps: systems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &std::path::Path, name: &str, text: &str) -> Input {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Input::parse(path.to_str().unwrap())
    }

    #[test]
    fn essays_keep_their_whitespace_and_align_by_id() {
        let dir = tempfile::tempdir().unwrap();
        let orig = file(
            dir.path(),
            "orig.md",
            "### essay_id = 1\nI go  home.\n\nNew paragraph.\n\n### essay_id = 2\nShe go.\n",
        );
        let essays = read(&orig).unwrap();
        assert_eq!(essays[0].text, "I go  home.\n\nNew paragraph.");
        assert_eq!(
            essays[1],
            Essay {
                id: "2".into(),
                text: "She go.".into()
            }
        );
        // ref2 covers essay 2 only; the system lists the essays in another order.
        let ref1 = file(
            dir.path(),
            "ref1.md",
            "### essay_id = 1\nI went home.\n\nNew paragraph.\n\n### essay_id = 2\nShe goes.\n",
        );
        let ref2 = file(dir.path(), "ref2.md", "### essay_id = 2\nShe went.\n");
        let hyp = file(
            dir.path(),
            "hyp.md",
            "### essay_id = 2\nShe goes.\n\n### essay_id = 1\nI go home.\n",
        );
        let a = load(&orig, &[ref1.clone(), ref2], &[hyp]).unwrap();
        assert_eq!(a.ids, ["1", "2"]);
        assert_eq!(a.refs[1], ["She goes.", "She went."]);
        assert_eq!(a.refs[0].len(), 1);
        assert_eq!(a.hyps[0], ["I go home.", "She goes."]);

        let short = file(dir.path(), "short.md", "### essay_id = 1\nI go home.\n");
        let e = load(&orig, std::slice::from_ref(&ref1), &[short])
            .unwrap_err()
            .to_string();
        assert!(e.contains("has no essay_id = 2"), "{e}");
        let stranger = file(dir.path(), "x.md", "### essay_id = 9\nHi.\n");
        let e = load(&orig, &[stranger], &[]).unwrap_err().to_string();
        assert!(e.contains("essay_id = 9 is not in"), "{e}");
        let e = load(&orig, &[], &[]).unwrap_err().to_string();
        assert!(
            e.contains("essay_id = 1 of") && e.contains("no reference"),
            "{e}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_header() {
        let dir = tempfile::tempdir().unwrap();
        let md = file(dir.path(), "bom.md", "\u{feff}### essay_id = 1\nI go.\n");
        assert_eq!(read(&md).unwrap()[0].id, "1");
    }

    #[test]
    fn malformed_files_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = file(dir.path(), "a.md", "\nplain text\n");
        assert!(read(&text)
            .unwrap_err()
            .to_string()
            .contains("a.md:2: text before the first"));
        let twice = file(
            dir.path(),
            "b.md",
            "### essay_id = 1\na\n### essay_id = 1\nb\n",
        );
        assert!(read(&twice)
            .unwrap_err()
            .to_string()
            .contains("b.md:3: essay_id = 1 again (first at line 1)"));
        let empty = file(dir.path(), "c.md", "### essay_id = \na\n");
        assert!(read(&empty)
            .unwrap_err()
            .to_string()
            .contains("c.md:1: an essay header without an id"));
    }
}
