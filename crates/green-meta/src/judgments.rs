//! Human rankings in Appraise XML (GJG15, SEEDA, RevisitCGEC) and the pairwise judgments
//! they imply.
//!
//! One `<ranking-item>` is one annotator ranking a few outputs of one source sentence;
//! a `<translation system="A B" rank="k"/>` names every system that produced the same
//! output, so each of them gets rank k on its own (lower = better). Datasets differ in how
//! `src-id` counts (0- or 1-based, per `doc-id`); that mapping lives in the dataset
//! descriptor, here `src-id` is kept as written.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::Error;

/// One annotator's ranking of the outputs for one source sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingItem {
    /// `doc-id` attribute, if any (RevisitCGEC uses it to say which corpus).
    pub doc_id: Option<String>,
    /// `src-id` as written.
    pub src_id: i64,
    /// `user` attribute (empty when absent).
    pub user: String,
    /// (system index, rank) for every system, joined systems expanded; lower rank = better.
    pub ranks: Vec<(usize, u32)>,
    /// How many of `ranks` each `<translation>` gave, in file order (a data erratum such as
    /// [`crate::erratum`]'s is stated per translation, not per system).
    pub translations: Vec<usize>,
    /// 1-based line of the item in its file, for messages.
    pub line: u32,
}

impl RankingItem {
    /// Every pair of systems in the item, (a, b, how a compares to b as humans see it:
    /// `Greater` = a better). a < b in item order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, Ordering)> + '_ {
        self.ranks
            .iter()
            .enumerate()
            .flat_map(move |(i, &(a, ra))| {
                self.ranks[i + 1..]
                    .iter()
                    .map(move |&(b, rb)| (a, b, rb.cmp(&ra)))
            })
    }
}

/// Every ranking item of a file, with system names resolved to indices of `systems`.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgments {
    pub systems: Vec<String>,
    pub items: Vec<RankingItem>,
}

impl Judgments {
    /// Read an Appraise XML file. `systems` is the dataset's system list: a name outside it
    /// is an error (a typo in a descriptor must not silently drop judgments).
    pub fn read(path: &std::path::Path, systems: &[String]) -> Result<Judgments, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::Input(format!(
                "cannot read {}: {e}; check the data directory",
                path.display()
            ))
        })?;
        Self::parse(&text, &path.display().to_string(), systems)
    }

    /// Parse Appraise XML text; `name` is used in messages.
    pub fn parse(text: &str, name: &str, systems: &[String]) -> Result<Judgments, Error> {
        if let Some(line) = too_deep(text) {
            return Err(Error::Input(format!(
                "{name}:{line}: elements nested more than {MAX_DEPTH} deep; an Appraise file nests 4 deep, is this the right file?"
            )));
        }
        let doc = roxmltree::Document::parse(text).map_err(|e| {
            Error::Input(format!("{name}:{}: not well-formed XML: {e}", e.pos().row))
        })?;
        let index: HashMap<&str, usize> = systems
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect();
        let mut items = Vec::new();
        let mut rows = Rows::new(text);
        for node in doc.descendants().filter(|n| n.has_tag_name("ranking-item")) {
            let line = rows.at(node.range().start);
            let at = |msg: String| Error::Input(format!("{name}:{line}: {msg}"));
            let src_id = node
                .attribute("src-id")
                .ok_or_else(|| at("<ranking-item> has no src-id attribute; every item must name its source sentence".into()))?;
            let src_id: i64 = src_id
                .trim()
                .parse()
                .map_err(|_| at(format!("src-id \"{src_id}\" is not an integer")))?;
            let mut ranks = Vec::new();
            let mut translations = Vec::new();
            for t in node.children().filter(|n| n.has_tag_name("translation")) {
                let tline = rows.at(t.range().start);
                let at = |msg: String| Error::Input(format!("{name}:{tline}: {msg}"));
                let names = t
                    .attribute("system")
                    .ok_or_else(|| at("<translation> has no system attribute".into()))?;
                let rank = t
                    .attribute("rank")
                    .ok_or_else(|| at("<translation> has no rank attribute".into()))?;
                let rank: u32 = rank
                    .trim()
                    .parse()
                    .map_err(|_| at(format!("rank \"{rank}\" is not a non-negative integer")))?;
                let before = ranks.len();
                for s in names.split_whitespace() {
                    let i = *index.get(s).ok_or_else(|| {
                        at(format!(
                            "system \"{s}\" is not one of the dataset's systems ({}); add it to the descriptor",
                            systems.join(", ")
                        ))
                    })?;
                    ranks.push((i, rank));
                }
                translations.push(ranks.len() - before);
            }
            items.push(RankingItem {
                doc_id: node.attribute("doc-id").map(str::to_owned),
                src_id,
                user: node.attribute("user").unwrap_or_default().to_owned(),
                ranks,
                translations,
                line,
            });
        }
        if items.is_empty() {
            return Err(Error::Input(format!(
                "{name}: no <ranking-item> elements; is this an Appraise ranking file?"
            )));
        }
        Ok(Judgments {
            systems: systems.to_vec(),
            items,
        })
    }

    /// wins\[a\]\[b\] = number of pairwise judgments with a ranked strictly better than b,
    /// and ties\[a\]\[b\] (symmetric) over the given items.
    pub fn win_matrix<'a>(n: usize, items: impl IntoIterator<Item = &'a RankingItem>) -> Matrix {
        let mut m = Matrix {
            wins: vec![vec![0; n]; n],
            ties: vec![vec![0; n]; n],
        };
        for item in items {
            for (a, b, o) in item.pairs() {
                match o {
                    Ordering::Greater => m.wins[a][b] += 1,
                    Ordering::Less => m.wins[b][a] += 1,
                    Ordering::Equal => {
                        m.ties[a][b] += 1;
                        m.ties[b][a] += 1;
                    }
                }
            }
        }
        m
    }
}

/// Pairwise win and tie counts between systems.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    pub wins: Vec<Vec<u64>>,
    pub ties: Vec<Vec<u64>>,
}

/// An item with just these (system, rank) pairs, for the tests of this crate.
/// Deepest element nesting accepted (the XML parser recurses, so deeper input would overflow
/// the stack).
const MAX_DEPTH: usize = 256;

/// The line where elements first nest deeper than [`MAX_DEPTH`], by a cheap scan of the tags
/// (comments, declarations and self-closing tags do not nest).
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for i in memchr::memchr_iter(b'<', bytes) {
        match bytes.get(i + 1) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(b'?') | Some(b'!') | None => {}
            Some(_) => {
                let end = memchr::memchr(b'>', &bytes[i..]).map_or(bytes.len(), |e| i + e);
                if bytes[..end].last() != Some(&b'/') {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Some(1 + bytes[..i].iter().filter(|&&b| b == b'\n').count());
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
pub(crate) fn test_item(ranks: &[(usize, u32)]) -> RankingItem {
    RankingItem {
        doc_id: None,
        src_id: 0,
        user: String::new(),
        ranks: ranks.to_vec(),
        translations: vec![1; ranks.len()],
        line: 1,
    }
}

/// Line numbers of byte offsets asked for in document order, counted as roxmltree's
/// `text_pos_at` counts them (1 + the line feeds before), from the last offset on: asking
/// `text_pos_at` for every item rescans the file from its start (quadratic: a second of the
/// GJG15 + SEEDA load).
struct Rows<'a> {
    text: &'a [u8],
    at: usize,
    row: u32,
}

impl<'a> Rows<'a> {
    fn new(text: &'a str) -> Self {
        Rows {
            text: text.as_bytes(),
            at: 0,
            row: 1,
        }
    }

    fn at(&mut self, pos: usize) -> u32 {
        let pos = pos.min(self.text.len());
        if pos < self.at {
            (self.at, self.row) = (0, 1);
        }
        self.row += memchr::memchr_iter(b'\n', &self.text[self.at..pos]).count() as u32;
        self.at = pos;
        self.row
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn deeply_nested_xml_is_an_error_not_a_stack_overflow() {
        let text = format!("{}{}", "<a>".repeat(200_000), "</a>".repeat(200_000));
        let err = Judgments::parse(&text, "deep.xml", &[])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("deep.xml:"), "{err}");
    }

    use super::*;

    #[test]
    fn rows_are_roxmltree_s_in_any_order() {
        let text = "<a>\n<b/>\r\n\n  <c>\u{e9}\n</c>\n\n<d/></a>\n";
        let doc = roxmltree::Document::parse(text).unwrap();
        let mut rows = Rows::new(text);
        // Forward, repeated, backward and past the end.
        for pos in [
            0,
            4,
            4,
            9,
            12,
            16,
            18,
            3,
            20,
            text.len() - 1,
            text.len(),
            999,
        ] {
            assert_eq!(rows.at(pos), doc.text_pos_at(pos).row, "at {pos}");
        }
    }

    fn names(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn joined_systems_share_their_rank() {
        let xml = r#"<r><ranking-item src-id="3" user="u" doc-id="d">
            <translation system="A B" rank="1"/><translation system="C" rank="2"/>
        </ranking-item></r>"#;
        let j = Judgments::parse(xml, "x.xml", &names(&["A", "B", "C"])).unwrap();
        let item = &j.items[0];
        assert_eq!(
            (item.src_id, item.doc_id.as_deref(), item.line),
            (3, Some("d"), 1)
        );
        assert_eq!(item.ranks, [(0, 1), (1, 1), (2, 2)]);
        assert_eq!(item.translations, [2, 1]);
        let pairs: Vec<_> = item.pairs().collect();
        assert_eq!(
            pairs,
            [
                (0, 1, Ordering::Equal),
                (0, 2, Ordering::Greater),
                (1, 2, Ordering::Greater)
            ]
        );
        let m = Judgments::win_matrix(3, &j.items);
        assert_eq!(m.wins[0][2] + m.wins[1][2] + m.ties[0][1], 3);
    }

    #[test]
    fn errors_name_file_and_line() {
        let sys = names(&["A"]);
        let e = Judgments::parse("<r>\n<ranking-item src-id=\"1\">\n</r>", "bad.xml", &sys)
            .unwrap_err();
        assert!(
            e.to_string().starts_with("bad.xml:3: not well-formed XML"),
            "{e}"
        );
        let e = Judgments::parse("<r>\n<ranking-item/></r>", "f.xml", &sys).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.xml:2: <ranking-item> has no src-id"),
            "{e}"
        );
        let e =
            Judgments::parse(r#"<r><ranking-item src-id="x"/></r>"#, "f.xml", &sys).unwrap_err();
        assert!(
            e.to_string().contains("src-id \"x\" is not an integer"),
            "{e}"
        );
        let xml = "<r><ranking-item src-id=\"1\">\n<translation system=\"Z\" rank=\"1\"/></ranking-item></r>";
        let e = Judgments::parse(xml, "f.xml", &sys).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.xml:2: system \"Z\" is not one of"),
            "{e}"
        );
        let e = Judgments::parse("<r/>", "f.xml", &sys).unwrap_err();
        assert!(e.to_string().contains("no <ranking-item>"), "{e}");
    }
}
