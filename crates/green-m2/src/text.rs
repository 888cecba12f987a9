//! Text as Python 2 sees it: `unicode.split()`, `unicode.strip()`, `splitlines()`.
//!
//! The m2scorer decodes its files to `unicode` and splits with these; reproducing them
//! decides which tokens and lines it sees (U+001C..U+001F and U+180E are whitespace there,
//! not for Rust; U+2028 ends a line).

/// Python 2.7's `unicode.isspace()`: Unicode 5.2 whitespace, which still counts U+180E.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c) || c == '\u{180e}'
}

/// `s.split()`.
pub fn split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_space).filter(|t| !t.is_empty())
}

/// `s.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `unicode.splitlines(True)`: each line with its terminator (`\r\n` is one).
pub fn splitlines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let end = match c {
            '\r' => match it.peek() {
                Some(&(j, '\n')) => {
                    it.next();
                    j + 1
                }
                _ => i + 1,
            },
            '\n' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => i + c.len_utf8(),
            _ => continue,
        };
        out.push(&s[start..end]);
        start = end;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// A system file's lines as Python 2 `readlines()` gives them: only `\n` ends a line (a CR
/// stays and is whitespace), and a final line without `\n` counts.
pub fn system_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// Whether `tokens` joined by single spaces equal `text`, without building the string.
pub fn joined_eq<'a>(mut tokens: impl Iterator<Item = &'a str>, text: &str) -> bool {
    let mut rest = text;
    let mut first = true;
    for t in tokens.by_ref() {
        if !first {
            match rest.strip_prefix(' ') {
                Some(r) => rest = r,
                None => return false,
            }
        }
        first = false;
        match rest.strip_prefix(t) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace() {
        let s = "a\u{1c}b\u{180e}c\u{a0}d\u{3000}e\u{200b}f";
        assert_eq!(
            split(s).collect::<Vec<_>>(),
            ["a", "b", "c", "d", "e\u{200b}f"]
        );
        assert_eq!(strip(" \u{1f}x y\u{2028}"), "x y");
    }

    #[test]
    fn lines_like_python() {
        assert_eq!(
            splitlines("a\nb\r\nc\rd\u{2028}e\u{c}\n"),
            ["a\n", "b\r\n", "c\r", "d\u{2028}", "e\u{c}", "\n"]
        );
        assert_eq!(splitlines("x"), ["x"]);
        assert!(splitlines("").is_empty());
    }

    #[test]
    fn system_lines_end_only_at_lf() {
        assert_eq!(system_lines("a\r\nb\rc\nd"), ["a\r", "b\rc", "d"]);
        assert_eq!(system_lines("a\n\n"), ["a", ""]);
        assert!(system_lines("").is_empty());
    }

    #[test]
    fn joined() {
        let t = ["a", "bc"];
        assert!(joined_eq(t.iter().copied(), "a bc"));
        assert!(!joined_eq(t.iter().copied(), "a  bc"));
        assert!(!joined_eq(t.iter().copied(), "a bcd"));
        assert!(joined_eq([].iter().copied(), ""));
        assert!(!joined_eq([].iter().copied(), "x"));
    }
}
