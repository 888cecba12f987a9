//! CoNLL-U, the format UDPipe, Stanza and spaCy (through spacy-conll) write, read into the
//! token annotations that ERRANT's alignment, merger and classifier use: form, lemma, UPOS,
//! XPOS, head and dependency label. Morphology and enhanced dependencies are not read, as
//! ERRANT reads none.
//!
//! Multi-word token ranges (`1-2`) and empty nodes (`1.1`) are skipped: ERRANT works on the
//! syntactic words, which must then be the whitespace tokens of the text. `_` in a column is
//! an empty value (as UDPipe and spaCy read it), except a lemma `_` of the form `_`.

use crate::Error;

/// One syntactic word: its fields borrowed from the file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word<'a> {
    pub form: &'a str,
    pub lemma: &'a str,
    pub upos: &'a str,
    pub xpos: &'a str,
    /// 1-based head within the sentence; 0 for a root (or no head given).
    pub head: usize,
    pub deprel: &'a str,
}

/// A sentence and the line its first word is on (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence<'a> {
    pub line: usize,
    pub words: Vec<Word<'a>>,
}

/// Parse CoNLL-U text; `path` names it in errors.
pub fn parse<'a>(text: &'a str, path: &str) -> Result<Vec<Sentence<'a>>, Error> {
    let err = |line: usize, message: String| Error::Format {
        path: path.to_string(),
        line,
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut first = 0;
    // Words gather in one buffer; each sentence takes an exact copy (one allocation).
    let end = |words: &mut Vec<Word<'a>>, first: usize, out: &mut Vec<Sentence<'a>>| {
        if !words.is_empty() {
            out.push(Sentence {
                line: first,
                words: words.to_vec(),
            });
            words.clear();
        }
    };
    for (n, line) in text.split('\n').enumerate() {
        let n = n + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            end(&mut words, first, &mut out);
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        // The columns as `split('\t')` gives them, a byte loop being quicker on short fields.
        let mut cols = [""; 10];
        let mut count = 0;
        let mut from = 0;
        for (k, &b) in line.as_bytes().iter().enumerate() {
            if b == b'\t' {
                if count < cols.len() {
                    cols[count] = &line[from..k];
                }
                count += 1;
                from = k + 1;
            }
        }
        if count < cols.len() {
            cols[count] = &line[from..];
        }
        count += 1;
        if count != cols.len() {
            return Err(err(
                n,
                format!(
                    "{count} tab-separated columns, CoNLL-U has 10 (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)"
                ),
            ));
        }
        if cols[0].contains(['-', '.']) {
            continue; // a multi-word token's range or an empty node
        }
        let id: usize = cols[0]
            .parse()
            .map_err(|_| err(n, format!("ID '{}' is not a word number", cols[0])))?;
        if id != words.len() + 1 {
            return Err(err(
                n,
                format!(
                    "word {id} follows word {}; a sentence's words are numbered 1, 2, 3, ... (a blank line ends a sentence)",
                    words.len()
                ),
            ));
        }
        let head = match cols[6] {
            "_" => 0,
            h => h
                .parse()
                .map_err(|_| err(n, format!("HEAD '{h}' is not a word number")))?,
        };
        let value = |s: &'a str| if s == "_" { "" } else { s };
        let form = cols[1];
        let lemma = if cols[2] == "_" && form == "_" {
            form
        } else {
            value(cols[2])
        };
        if words.is_empty() {
            first = n;
        }
        words.push(Word {
            form,
            lemma,
            upos: value(cols[3]),
            xpos: value(cols[4]),
            head,
            deprel: value(cols[7]),
        });
    }
    end(&mut words, first, &mut out);
    for s in &out {
        if let Some(w) = s.words.iter().find(|w| w.head > s.words.len()) {
            return Err(err(
                s.line,
                format!(
                    "word '{}' has head {} but its sentence has {} words",
                    w.form,
                    w.head,
                    s.words.len()
                ),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_words_and_skips_ranges_comments_and_empty_nodes() {
        let text = "# text = I can't\n1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_\n2-3\tcan't\t_\t_\t_\t_\t_\t_\t_\t_\n2\tca\tcan\tAUX\tMD\t_\t3\taux\t_\t_\r\n3\tn't\t_\tPART\t_\t_\t0\tROOT\t_\t_\n3.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n\n\n1\t_\t_\tSYM\t_\t_\t_\t_\t_\t_\n";
        let s = parse(text, "t").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].line, 2);
        assert_eq!(
            s[0].words.iter().map(|w| w.form).collect::<Vec<_>>(),
            ["I", "ca", "n't"]
        );
        assert_eq!(s[0].words[2].lemma, "");
        assert_eq!(s[0].words[2].xpos, "");
        assert_eq!((s[0].words[0].head, s[0].words[2].head), (3, 0));
        assert_eq!(s[1].words[0].lemma, "_");
        assert_eq!(s[1].words[0].deprel, "");
    }

    #[test]
    fn malformed_lines_are_one_error_with_their_line() {
        for (text, want) in [
            ("1\ta\n", "t:1: 2 tab-separated columns"),
            (
                "1\ta\ta\tX\tX\t_\t0\tROOT\t_\t_\n3\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n",
                "t:2: word 3 follows word 1",
            ),
            ("x\ta\ta\tX\tX\t_\t0\tROOT\t_\t_\n", "t:1: ID 'x'"),
            (
                "1\ta\ta\tX\tX\t_\t2\tROOT\t_\t_\n",
                "t:1: word 'a' has head 2",
            ),
        ] {
            let e = parse(text, "t").unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
    }
}
