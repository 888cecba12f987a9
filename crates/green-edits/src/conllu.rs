//! CoNLL-U, the format UDPipe, Stanza and spaCy (through spacy-conll) write, read into the
//! token annotations that ERRANT's alignment, merger and classifier use: form, lemma, UPOS,
//! XPOS, head and dependency label. Morphology and enhanced dependencies are not read, as
//! ERRANT reads none.
//!
//! Multi-word token ranges (`1-2`) and empty nodes (`1.1`) are skipped: ERRANT works on the
//! syntactic words, which must then be the whitespace tokens of the text. `_` in a column is
//! an empty value (as UDPipe and spaCy read it), except a lemma `_` of the form `_`.

use crate::Error;

/// One syntactic word: its line from FORM to DEPREL, borrowed from the file's text, and
/// where the columns ERRANT reads end in it. 32 bytes, not six slices' 88: a CoNLL-2014
/// system and its source are 60,000 words, and the memory they take is faulted in page by
/// page (a fifth of a one-thread run's time went to the kernel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    line: &'a str,
    /// Where FORM, LEMMA, UPOS, XPOS and HEAD end in `line` (DEPREL ends with it).
    ends: [u16; 5],
    head: u32,
}

impl<'a> Word<'a> {
    pub fn form(&self) -> &'a str {
        &self.line[..usize::from(self.ends[0])]
    }

    /// The lemma; `_` is empty, except for the form `_`.
    pub fn lemma(&self) -> &'a str {
        let lemma = self.column(1);
        if lemma == "_" && self.form() != "_" {
            ""
        } else {
            lemma
        }
    }

    pub fn upos(&self) -> &'a str {
        value(self.column(2))
    }

    pub fn xpos(&self) -> &'a str {
        value(self.column(3))
    }

    /// 1-based head within the sentence; 0 for a root (or no head given).
    pub fn head(&self) -> usize {
        self.head as usize
    }

    pub fn deprel(&self) -> &'a str {
        value(&self.line[usize::from(self.ends[4]) + 1..])
    }

    /// Column `k` after FORM (1: LEMMA, 2: UPOS, 3: XPOS), as written.
    fn column(&self, k: usize) -> &'a str {
        &self.line[usize::from(self.ends[k - 1]) + 1..usize::from(self.ends[k])]
    }
}

/// `_` is an empty value.
fn value(s: &str) -> &str {
    if s == "_" {
        ""
    } else {
        s
    }
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
    // Words gather in one buffer; each sentence takes an exact copy (one allocation), its
    // heads checked while the buffer is in cache.
    let mut end = |words: &mut Vec<Word<'a>>, first: usize| {
        if let Some(w) = words.iter().find(|w| w.head() > words.len()) {
            return Err(err(
                first,
                format!(
                    "word '{}' has head {} but its sentence has {} words",
                    w.form(),
                    w.head,
                    words.len()
                ),
            ));
        }
        if !words.is_empty() {
            out.push(Sentence {
                line: first,
                words: words.to_vec(),
            });
            words.clear();
        }
        Ok(())
    };
    let mut start = 0;
    let mut tabs = [0; 9];
    for n in 1.. {
        let (len, count) = scan_line(&text.as_bytes()[start..], &mut tabs);
        let whole = &text[start..start + len];
        start += len + 1;
        let line = whole.strip_suffix('\r').unwrap_or(whole);
        // A word or comment line starts with a visible character: only others may be blank.
        if !line.as_bytes().first().is_some_and(u8::is_ascii_graphic) && line.trim().is_empty() {
            end(&mut words, first)?;
        } else if !line.starts_with('#') {
            if let Some(word) = word(line, &tabs, count, words.len()).map_err(|m| err(n, m))? {
                if words.is_empty() {
                    first = n;
                }
                words.push(word);
            }
        }
        if start > text.len() {
            break;
        }
    }
    end(&mut words, first)?;
    Ok(out)
}

/// The word of a line with `count` tabs, the first nine at `tabs`, if it is the next of a
/// sentence that has `before` words; none for a multi-word token's range or an empty node.
fn word<'a>(
    line: &'a str,
    tabs: &[usize; 9],
    count: usize,
    before: usize,
) -> Result<Option<Word<'a>>, String> {
    if count != 9 {
        return Err(format!(
            "{} tab-separated columns, CoNLL-U has 10 (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)",
            count + 1
        ));
    }
    let bytes = line.as_bytes();
    let id = &bytes[..tabs[0]];
    if id.iter().any(|&b| b == b'-' || b == b'.') {
        return Ok(None);
    }
    if number(id) != Some(before + 1) {
        let id = &line[..tabs[0]];
        return Err(match id.parse::<usize>() {
            Err(_) => format!("ID '{id}' is not a word number"),
            Ok(id) => format!(
                "word {id} follows word {before}; a sentence's words are numbered 1, 2, 3, ... (a blank line ends a sentence)"
            ),
        });
    }
    let head = match &bytes[tabs[5] + 1..tabs[6]] {
        b"_" => Some(0),
        h => number(h).and_then(|h| u32::try_from(h).ok()),
    }
    .ok_or_else(|| {
        format!(
            "HEAD '{}' is not a word number",
            &line[tabs[5] + 1..tabs[6]]
        )
    })?;
    let from = tabs[0] + 1;
    if tabs[7] - from > usize::from(u16::MAX) {
        return Err("the columns FORM to DEPREL take more than 65,535 bytes; CoNLL-U columns are words and short labels".into());
    }
    // Each fits: the tabs come in order, the last within 65,535 bytes of `from`.
    let end = |k: usize| (tabs[k] - from) as u16;
    Ok(Some(Word {
        line: &line[from..tabs[7]],
        ends: [end(1), end(2), end(3), end(4), end(6)],
        head,
    }))
}

/// A decimal number as `str::parse::<usize>` reads one (a `+` may lead), without its
/// generality: IDs and heads are on every word line.
fn number(digits: &[u8]) -> Option<usize> {
    let digits = match digits {
        [b'+', rest @ ..] => rest,
        _ => digits,
    };
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0usize, |n, &b| {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n.checked_mul(10)?.checked_add(usize::from(d))
    })
}

/// Finds the end of `text`'s first line (its `\n`, or the end) and the tabs before it:
/// writes the offsets of the first nine into `tabs`, returns the line's length and how many
/// tabs it has. Eight bytes at a time: a CoNLL-U line is mostly short fields, so a byte
/// loop spends its time between them.
fn scan_line(text: &[u8], tabs: &mut [usize; 9]) -> (usize, usize) {
    let mut count = 0;
    let mut at = 0;
    while let Some(chunk) = text.get(at..at + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let newline = zero_bytes(x ^ 0x0A0A_0A0A_0A0A_0A0A);
        // Only the tabs before the first newline (its bit and all above it cleared).
        let mut tab = zero_bytes(x ^ 0x0909_0909_0909_0909) & newline.wrapping_sub(1) & !newline;
        while tab != 0 {
            found(tabs, &mut count, at + tab.trailing_zeros() as usize / 8);
            tab &= tab - 1;
        }
        if newline != 0 {
            return (at + newline.trailing_zeros() as usize / 8, count);
        }
        at += 8;
    }
    for (k, &b) in text[at..].iter().enumerate() {
        match b {
            b'\n' => return (at + k, count),
            b'\t' => found(tabs, &mut count, at + k),
            _ => {}
        }
    }
    (text.len(), count)
}

/// The high bit of each byte of `x` that is zero, and no other bit (no carry crosses bytes).
fn zero_bytes(x: u64) -> u64 {
    const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW) + LOW) | x | LOW)
}

/// Notes the tab at `at`, the `count`th of its line.
fn found(tabs: &mut [usize; 9], count: &mut usize, at: usize) {
    if let Some(t) = tabs.get_mut(*count) {
        *t = at;
    }
    *count += 1;
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
            s[0].words.iter().map(|w| w.form()).collect::<Vec<_>>(),
            ["I", "ca", "n't"]
        );
        assert_eq!(s[0].words[2].lemma(), "");
        assert_eq!(s[0].words[2].xpos(), "");
        assert_eq!((s[0].words[0].head(), s[0].words[2].head()), (3, 0));
        assert_eq!(s[1].words[0].lemma(), "_");
        assert_eq!(s[1].words[0].deprel(), "");
    }

    #[test]
    fn lines_and_tabs_are_found_as_a_byte_loop_finds_them() {
        for text in [
            "",
            "\t",
            "\n",
            "a\tb",
            "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\t",
            "\t\t\t\t\t\t\t\t\t\t\t\t",
            "\u{8}\t\u{1}\t\u{89}é\t\tx\u{9}\u{8}\n\t\t",
            "abcdefg\n\tabcdefgh\n",
        ] {
            let len = text.find('\n').unwrap_or(text.len());
            let want: Vec<usize> = text[..len].match_indices('\t').map(|(k, _)| k).collect();
            let mut tabs = [0; 9];
            let (got, count) = scan_line(text.as_bytes(), &mut tabs);
            assert_eq!((got, count), (len, want.len()), "{text:?}");
            assert_eq!(&tabs[..count.min(9)], &want[..count.min(9)], "{text:?}");
        }
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
            ("1\ta\ta\tX\tX\t_\t-1\tROOT\t_\t_\n", "t:1: HEAD '-1'"),
            ("1\ta\ta\tX\tX\t_\t1x\tROOT\t_\t_\n", "t:1: HEAD '1x'"),
            ("+1\ta\ta\tX\tX\t_\t0\tROOT\t_\t_\n2\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n1\tc\tc\tX\tX\t_\t1\tdep\t_\t_\n", "t:3: word 1 follows word 2"),
            (
                "1\ta\ta\tX\tX\t_\t2\tROOT\t_\t_\n",
                "t:1: word 'a' has head 2",
            ),
            (
                &format!("1\t{}\ta\tX\tX\t_\t0\tROOT\t_\t_\n", "a".repeat(65_536)),
                "t:1: the columns FORM to DEPREL take more than 65,535 bytes",
            ),
        ] {
            let e = parse(text, "t").unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
    }
}
