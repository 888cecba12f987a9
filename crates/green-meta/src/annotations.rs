//! A tagger's annotations of a dataset's texts, for rows that need ERRANT's typed edits.
//!
//! ERRANT's default alignment and rule-based merger read lemmas, parts of speech and
//! dependencies; green runs no tagger, so they come from CoNLL-U made with any tagger. A
//! dataset's sources, references and outputs are spread over M2 files, judged subsets and
//! corpus variants, so annotations are not tied to files: a directory holds pairs
//! `NAME.txt` (tokenized text, one sentence per line) and `NAME.conllu` (the tagger's output
//! for it, as `green errant-parallel --annotations` takes it: one or more sentences per
//! non-empty line, whose words are the line's tokens), and every text is looked up by its
//! tokens. The same tokens in several files take the first file's parse (files in name order).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use green_edits::typed::{docs_for_lines, Doc};

use crate::Error;

/// Parses of token sequences, keyed by the tokens joined with one space.
#[derive(Debug, Default)]
pub struct Annotations {
    docs: HashMap<String, Doc>,
    /// Where they were read from, for messages.
    pub dir: PathBuf,
}

/// The key of a text: its whitespace tokens joined by one space.
pub fn key(text: &str) -> String {
    green_edits::m2::split(text).collect::<Vec<_>>().join(" ")
}

impl Annotations {
    /// Read every `NAME.conllu` of `dir` with its `NAME.txt`.
    pub fn read(dir: &Path) -> Result<Annotations, Error> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| Error::Input(format!("annotations {}: {e}", dir.display())))?;
        let mut conllu: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "conllu"))
            .collect();
        conllu.sort();
        if conllu.is_empty() {
            return Err(Error::Input(format!(
                "annotations {}: no NAME.conllu (with its NAME.txt) in the directory; make them with scripts/seeda-table5-annotations.py or any tagger (docs/meta.md)",
                dir.display()
            )));
        }
        let mut out = Annotations {
            docs: HashMap::new(),
            dir: dir.to_path_buf(),
        };
        for c in conllu {
            let txt = c.with_extension("txt");
            let (c_name, t_name) = (c.display().to_string(), txt.display().to_string());
            let lines = green_io::read_lines(&green_io::Input::parse(&t_name)).map_err(|e| {
                Error::Input(format!(
                    "{c_name} needs its text beside it: {e} (annotations are pairs NAME.txt + NAME.conllu)"
                ))
            })?;
            let text =
                std::fs::read_to_string(&c).map_err(|e| Error::Input(format!("{c_name}: {e}")))?;
            let sentences = green_edits::conllu::parse(&text, &c_name)
                .map_err(|e| Error::Input(e.to_string()))?;
            let docs = docs_for_lines(&lines, &sentences, &t_name, &c_name)
                .map_err(|e| Error::Input(e.to_string()))?;
            for (line, doc) in lines.iter().zip(docs) {
                let k = key(line);
                if !k.is_empty() {
                    out.docs.entry(k).or_insert(doc);
                }
            }
        }
        Ok(out)
    }

    /// The parse of `text`'s tokens: an empty text has an empty one.
    pub fn get(&self, text: &str) -> Option<Doc> {
        let k = key(text);
        if k.is_empty() {
            return Some(Doc::default());
        }
        self.docs.get(&k).cloned()
    }

    /// How many distinct token sequences are annotated.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// No annotation at all.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONLLU: &str = "1\ta\ta\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t0\tROOT\t_\t_\n\n1\tdogs\tdog\tNOUN\tNNS\t_\t0\tROOT\t_\t_\n";

    #[test]
    fn texts_are_found_by_their_tokens() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.txt"), "a  cat\n\ndogs\n").unwrap();
        std::fs::write(dir.path().join("t.conllu"), CONLLU).unwrap();
        let a = Annotations::read(dir.path()).unwrap();
        assert_eq!(a.len(), 2);
        let doc = a.get(" a cat ").unwrap();
        assert_eq!(doc.tokens[1].lemma, "cat");
        assert_eq!(doc.tokens[0].head, 1);
        assert!(a.get("").unwrap().tokens.is_empty());
        assert!(a.get("a dog").is_none());
    }

    #[test]
    fn a_directory_without_pairs_is_one_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = Annotations::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("no NAME.conllu"), "{e}");
        std::fs::write(dir.path().join("t.conllu"), CONLLU).unwrap();
        let e = Annotations::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("needs its text beside it"), "{e}");
        std::fs::write(dir.path().join("t.txt"), "a cat\nbirds\n").unwrap();
        let e = Annotations::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("t.txt:2: the tokens 'birds'"), "{e}");
    }
}
