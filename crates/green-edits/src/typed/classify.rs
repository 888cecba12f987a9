//! ERRANT 3.0.2's English error-type classifier (`errant/en/classifier.py`), rule for rule,
//! and the variant MultiGEC-2025 scores with (cainesap/errant, `gleu_errant`): the same rules
//! reading fine tags through a UD tag map, where a token whose tag is empty or missing from
//! the map counts as POS `X` with the dependency `dep`.
//!
//! Its resources are data files beside this crate (`data/errant/`, with their licences):
//! ERRANT's PTB-to-UD map (`en-ptb_map`, MIT), cainesap's UD map (`ud-pos-tags`, MIT) and the
//! British English word list of Hunspell's en_GB-large 2020.12.07 (`en_GB-large.txt`, from
//! SCOWL, whose notice permits copying and distributing with the notice). Both licences allow
//! compiling them in, so the binary needs no data directory.

use std::collections::HashMap;

use super::lancaster::stem;
use super::{is_alpha, levenshtein_similarity, Doc, Token};

const PTB_MAP: &str = include_str!("../../data/errant/en-ptb_map");
const UD_MAP: &str = include_str!("../../data/errant/ud-pos-tags");
const WORD_LIST: &str = include_str!("../../data/errant/en_GB-large.txt");

/// A token whose fine tag the English (PTB) map lacks; ERRANT stops there with a KeyError.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{token}' has the XPOS tag '{tag}', which ERRANT's English tag map lacks; its classifier reads Penn Treebank tags, as spaCy's English models write them")]
pub struct UnknownTag {
    pub token: String,
    pub tag: String,
}

/// Which classifier: ERRANT's English one, or MultiGEC-2025's UD-map variant.
pub struct Classifier {
    map: HashMap<&'static str, String>,
    /// Unknown or empty tags are `X`/`dep` (the UD variant) instead of an error.
    lenient: bool,
}

/// `load_pos_map`: tab-separated tag and UD POS, with ADP → PREP, PROPN → NOUN, CCONJ →
/// CONJ, and spaCy's extra PTB tags.
fn load_map(text: &'static str) -> HashMap<&'static str, String> {
    let mut map: HashMap<&'static str, String> = text
        .lines()
        .filter_map(|line| {
            let mut cols = line.trim_matches(crate::m2::is_space).split('\t');
            let tag = cols.next()?;
            let pos = cols.next()?;
            Some((
                tag,
                match pos {
                    "ADP" => "PREP".to_string(),
                    "PROPN" => "NOUN".to_string(),
                    "CCONJ" => "CONJ".to_string(),
                    p => p.trim_matches(crate::m2::is_space).to_string(),
                },
            ))
        })
        .collect();
    for (tag, pos) in [
        ("\"\"", "PUNCT"),
        ("SP", "SPACE"),
        ("_SP", "SPACE"),
        ("BES", "VERB"),
        ("HVS", "VERB"),
        ("ADD", "X"),
        ("GW", "X"),
        ("NFP", "X"),
        ("XX", "X"),
    ] {
        map.insert(tag, pos.to_string());
    }
    map
}

/// Whether `word` is in the word list: a binary search on the file's text itself, whose
/// lines (each stripped) are sorted, so nothing is split, hashed or copied when a run starts
/// (splitting its 170,565 lines took most of the classifier's time on a CoNLL-2014 system).
fn known(word: &str) -> bool {
    let list = WORD_LIST.as_bytes();
    // Both ends are line starts (or the end of the text).
    let (mut lo, mut hi) = (0, list.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = list[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |k| lo + k + 1);
        let end = list[mid..hi]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(hi, |k| mid + k);
        match WORD_LIST[start..end]
            .trim_matches(crate::m2::is_space)
            .cmp(word)
        {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    false
}

const OPEN_POS: [&str; 4] = ["ADJ", "ADV", "NOUN", "VERB"];
const RARE_POS: [&str; 4] = ["INTJ", "NUM", "SYM", "X"];
const CONTRACTIONS: [&str; 7] = ["'d", "'ll", "'m", "n't", "'re", "'s", "'ve"];
const AUX_CONTRACTIONS: [(&str, &str); 3] = [("ca", "can"), ("sha", "shall"), ("wo", "will")];

fn dep_pos(dep: &str) -> Option<&'static str> {
    Some(match dep {
        "acomp" | "amod" => "ADJ",
        "advmod" => "ADV",
        "det" => "DET",
        "prep" => "PREP",
        "prt" => "PART",
        "punct" => "PUNCT",
        _ => return None,
    })
}

fn aux_contraction(s: &str) -> Option<&'static str> {
    AUX_CONTRACTIONS
        .iter()
        .find(|(short, _)| *short == s)
        .map(|(_, long)| *long)
}

/// One side of an edit: its tokens in their Doc.
#[derive(Clone, Copy)]
struct Side<'a> {
    doc: &'a Doc,
    start: usize,
    toks: &'a [Token],
}

impl<'a> Side<'a> {
    fn first(&self) -> &'a Token {
        &self.toks[0]
    }
    fn last(&self) -> &'a Token {
        &self.toks[self.toks.len() - 1]
    }
    fn len(&self) -> usize {
        self.toks.len()
    }
    fn lowers(&self) -> Vec<&'a str> {
        self.toks.iter().map(|t| t.lower.as_str()).collect()
    }
    fn truncated(&self) -> Side<'a> {
        Side {
            toks: &self.toks[..self.toks.len() - 1],
            ..*self
        }
    }
}

fn set<'s>(items: impl IntoIterator<Item = &'s str>) -> Vec<&'s str> {
    let mut v: Vec<&str> = items.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn subset(items: &[&str], of: &[&str]) -> bool {
    items.iter().all(|x| of.contains(x))
}

impl Classifier {
    /// ERRANT 3.0.2's English classifier: fine tags are PTB tags (spaCy's English `tag_`).
    pub fn english() -> Classifier {
        Classifier {
            map: load_map(PTB_MAP),
            lenient: false,
        }
    }

    /// MultiGEC-2025's variant (cainesap/errant): fine tags read through the UD tag map.
    pub fn ud() -> Classifier {
        Classifier {
            map: load_map(UD_MAP),
            lenient: true,
        }
    }

    /// The error type of the edit from `orig[os.0..os.1]` to `cor[cs.0..cs.1]`.
    pub fn classify(
        &self,
        orig: &Doc,
        os: (usize, usize),
        cor: &Doc,
        cs: (usize, usize),
    ) -> Result<String, UnknownTag> {
        let o = Side {
            doc: orig,
            start: os.0,
            toks: &orig.tokens[os.0..os.1],
        };
        let c = Side {
            doc: cor,
            start: cs.0,
            toks: &cor.tokens[cs.0..cs.1],
        };
        let same = o.len() == c.len() && o.toks.iter().zip(c.toks).all(|(a, b)| a.text == b.text);
        self.classify_sides(o, c, same)
    }

    fn classify_sides(&self, o: Side, c: Side, same: bool) -> Result<String, UnknownTag> {
        Ok(match (o.toks.is_empty(), c.toks.is_empty()) {
            (true, true) => "UNK".into(),
            (true, false) => format!("M:{}", self.one_sided(c)?),
            (false, true) => format!("U:{}", self.one_sided(o)?),
            // The strings stay those of the whole edit when the last tokens are dropped.
            _ if same => "UNK".into(),
            _ if o.last().lower == c.last().lower && (o.len() > 1 || c.len() > 1) => {
                self.classify_sides(o.truncated(), c.truncated(), same)?
            }
            _ => format!("R:{}", self.two_sided(o, c)?),
        })
    }

    /// `get_edit_info`: mapped POS and dependency labels.
    fn info<'t>(&'t self, toks: &'t [Token]) -> Result<(Vec<&'t str>, Vec<&'t str>), UnknownTag> {
        let mut pos = Vec::with_capacity(toks.len());
        let mut dep = Vec::with_capacity(toks.len());
        for t in toks {
            match self.map.get(t.tag.as_str()) {
                Some(p) => {
                    pos.push(p.as_str());
                    dep.push(t.dep.as_str());
                }
                None if self.lenient => {
                    pos.push("X");
                    dep.push("dep");
                }
                None => {
                    return Err(UnknownTag {
                        token: t.text.to_string(),
                        tag: t.tag.to_string(),
                    })
                }
            }
        }
        Ok((pos, dep))
    }

    fn one_sided(&self, side: Side) -> Result<String, UnknownTag> {
        let toks = side.toks;
        if toks.len() == 1 {
            let t = &toks[0];
            if t.tag == "POS" {
                return Ok("NOUN:POSS".into());
            }
            if CONTRACTIONS.contains(&t.lower.as_str()) {
                return Ok("CONTR".into());
            }
            if t.lower == "to" && t.pos == "PART" && t.dep != "prep" {
                return Ok("VERB:FORM".into());
            }
        }
        let (pos, dep) = self.info(toks)?;
        let (pos_set, dep_set) = (set(pos.iter().copied()), set(dep.iter().copied()));
        if subset(&dep_set, &["aux", "auxpass"]) {
            return Ok("VERB:TENSE".into());
        }
        if pos_set.len() == 1 && !RARE_POS.contains(&pos[0]) {
            return Ok(pos[0].into());
        }
        if dep_set.len() == 1 {
            if let Some(p) = dep_pos(dep[0]) {
                return Ok(p.into());
            }
        }
        Ok(if pos_set == ["PART", "VERB"] {
            "VERB".into()
        } else {
            "OTHER".into()
        })
    }

    fn two_sided(&self, o: Side, c: Side) -> Result<String, UnknownTag> {
        let (o_pos, o_dep) = self.info(o.toks)?;
        let (c_pos, c_dep) = self.info(c.toks)?;
        let (o_low, c_low) = (o.lowers(), c.lowers());
        // Orthography: only whitespace or case differ.
        if o_low.concat() == c_low.concat() {
            return Ok("ORTH".into());
        }
        // Word order: the same tokens reordered.
        let (mut a, mut b) = (o_low.clone(), c_low.clone());
        a.sort_unstable();
        b.sort_unstable();
        if a == b {
            return Ok("WO".into());
        }
        let all_pos = set(o_pos.iter().chain(&c_pos).copied());
        let all_dep = set(o_dep.iter().chain(&c_dep).copied());
        if o.len() == 1 && c.len() == 1 {
            let found = one_to_one(o, c, (&o_pos, &o_dep), (&c_pos, &c_dep), &all_pos, &all_dep);
            if let Some(kind) = found {
                return Ok(kind.into());
            }
        }
        // Multi-token replacements, and the 1:1 replacements that no rule above typed.
        if subset(&all_dep, &["aux", "auxpass"]) {
            return Ok("VERB:TENSE".into());
        }
        if all_pos.len() == 1 {
            if o_pos[0] == "VERB" && o.last().lemma == c.last().lemma {
                return Ok("VERB:TENSE".into());
            } else if !RARE_POS.contains(&o_pos[0]) {
                return Ok(o_pos[0].into());
            }
        }
        if all_dep.len() == 1 {
            if let Some(p) = dep_pos(o_dep[0]) {
                return Ok(p.into());
            }
        }
        if all_pos == ["PART", "VERB"] {
            return Ok(if o.last().lemma == c.last().lemma {
                "VERB:FORM".into()
            } else {
                "VERB".into()
            });
        }
        if (o_pos == ["NOUN", "PART"] || c_pos == ["NOUN", "PART"])
            && o.first().lemma == c.first().lemma
        {
            return Ok("NOUN:POSS".into());
        }
        let more = |t: &Token| t.lower == "most" || t.lower == "more";
        if (more(o.first()) || more(c.first()))
            && o.last().lemma == c.last().lemma
            && o.len() <= 2
            && c.len() <= 2
        {
            return Ok("ADJ:FORM".into());
        }
        Ok("OTHER".into())
    }
}

/// The 1:1 replacement rules of `get_two_sided_type`; `None` where ERRANT falls through to
/// its multi-token rules (an alphabetic pair that no string-similarity rule types).
fn one_to_one<'s>(
    o: Side,
    c: Side,
    (o_pos, o_dep): (&[&'s str], &[&'s str]),
    (c_pos, c_dep): (&[&'s str], &[&'s str]),
    all_pos: &[&str],
    all_dep: &[&str],
) -> Option<&'s str> {
    let (ot, ct) = (o.first(), c.first());
    let (ol, cl) = (ot.lower.as_str(), ct.lower.as_str());
    let pair = |x: &str, y: &str| (ol == x && cl == y) || (ol == y && cl == x);
    let rare = |p: &str| RARE_POS.contains(&p);
    // 1. Special cases.
    if ot.tag == "POS" || ct.tag == "POS" {
        return Some("NOUN:POSS");
    }
    if (CONTRACTIONS.contains(&ol) || CONTRACTIONS.contains(&cl)) && o_pos == c_pos {
        return Some("CONTR");
    }
    if aux_contraction(ol) == Some(cl) || aux_contraction(cl) == Some(ol) {
        return Some("CONTR");
    }
    if aux_contraction(ol).is_some() || aux_contraction(cl).is_some() {
        return Some("VERB:TENSE");
    }
    if pair("was", "were") {
        return Some("VERB:SVA");
    }
    // 2. Spelling and inflection.
    if is_alpha(&ot.text) && !known(&ot.text) && !known(ol) {
        if ot.lemma == ct.lemma {
            return Some(
                if o_pos == c_pos && (o_pos[0] == "NOUN" || o_pos[0] == "VERB") {
                    if o_pos[0] == "NOUN" {
                        "NOUN:INFL"
                    } else {
                        "VERB:INFL"
                    }
                } else {
                    "MORPH"
                },
            );
        }
        let sim = levenshtein_similarity(ol, cl);
        if sim > 0.55 {
            return Some("SPELL");
        }
        if (sim == 0.5 || format!("{sim:.3}") == "0.333")
            && ot.text.chars().count() <= 4
            && ct.text.chars().count() <= 4
        {
            return Some("SPELL");
        }
        return Some(if !rare(c_pos[0]) { c_pos[0] } else { "OTHER" });
    }
    // 3. Morphology.
    if ot.lemma == ct.lemma && OPEN_POS.contains(&o_pos[0]) && OPEN_POS.contains(&c_pos[0]) {
        if o_pos == c_pos {
            match o_pos[0] {
                "ADJ" => return Some("ADJ:FORM"),
                "NOUN" => return Some("NOUN:NUM"),
                "VERB" => {
                    if preceded_by_aux(o, c) {
                        return Some("VERB:FORM");
                    }
                    let either = |tags: &[&str]| {
                        tags.contains(&ot.tag.as_str()) || tags.contains(&ct.tag.as_str())
                    };
                    if either(&["VBG", "VBN"]) {
                        return Some("VERB:FORM");
                    }
                    if either(&["VBD"]) {
                        return Some("VERB:TENSE");
                    }
                    if either(&["VBZ"]) {
                        return Some("VERB:SVA");
                    }
                    if o_dep[0].starts_with("aux") && c_dep[0].starts_with("aux") {
                        return Some("VERB:TENSE");
                    }
                }
                _ => {}
            }
        }
        if subset(all_dep, &["acomp", "amod"]) {
            return Some("ADJ:FORM");
        }
        if o_pos[0] == "ADJ" && ct.tag == "NNS" {
            return Some("NOUN:NUM");
        }
        return Some(match ct.tag.as_str() {
            "VBG" | "VBN" => "VERB:FORM",
            "VBD" => "VERB:TENSE",
            "VBZ" => "VERB:SVA",
            _ => "MORPH",
        });
    }
    if stem(&ot.text) == stem(&ct.text)
        && OPEN_POS.contains(&o_pos[0])
        && OPEN_POS.contains(&c_pos[0])
    {
        return Some("MORPH");
    }
    // 4. General.
    if o_dep[0].starts_with("aux") && c_dep[0].starts_with("aux") {
        return Some("VERB:TENSE");
    }
    if o_pos == c_pos && !rare(o_pos[0]) {
        return Some(o_pos[0]);
    }
    if o_dep == c_dep {
        if let Some(p) = dep_pos(o_dep[0]) {
            return Some(p);
        }
    }
    if all_pos == ["PART", "PREP"] || all_dep == ["prep", "prt"] {
        return Some("PART");
    }
    if all_pos == ["DET", "PRON"] {
        if ["nsubj", "nsubjpass", "dobj", "pobj"].contains(&c_dep[0]) {
            return Some("PRON");
        }
        if c_dep[0] == "poss" {
            return Some("DET");
        }
    }
    if all_pos == ["DET", "NUM"] {
        return Some("DET");
    }
    if pair("other", "another") {
        return Some("DET");
    }
    if ol == "your" && cl == "yours" {
        return Some("PRON");
    }
    if pair("no", "not") {
        return Some("OTHER");
    }
    // 5. String similarity.
    if !(is_alpha(&ot.text) && is_alpha(&ct.text)) {
        return Some("OTHER");
    }
    let sim = levenshtein_similarity(ol, cl);
    let (on, cn) = (ot.text.chars().count(), ct.text.chars().count());
    match on {
        1 if cn == 2 && sim == 0.5 => return Some("SPELL"),
        2 if (2..=3).contains(&cn) && sim >= 0.5 => return Some("SPELL"),
        3 => {
            if (ol == "the" && cl == "that") || (ol == "all" && cl == "everything") {
                return Some("PRON");
            }
            if (2..=4).contains(&cn) && sim >= 0.5 {
                return Some("SPELL");
            }
        }
        4 => {
            if pair("that", "what") {
                return Some("PRON");
            }
            if pair("good", "well") && !rare(c_pos[0]) {
                return Some(c_pos[0]);
            }
            if (cn == 3 && sim > 0.5) || (cn == 4 && sim >= 0.5) || (cn == 5 && sim == 0.8) {
                return Some("SPELL");
            }
            if cn > 5 && sim > 0.5 && !rare(c_pos[0]) {
                return Some(c_pos[0]);
            }
        }
        5 => {
            if pair("after", "later") && !rare(c_pos[0]) {
                return Some(c_pos[0]);
            }
            if (cn == 4 && sim == 0.8) || (cn == 5 && sim >= 0.6) {
                return Some("SPELL");
            }
            if cn > 5 && !rare(c_pos[0]) {
                return Some(c_pos[0]);
            }
        }
        _ => {}
    }
    if on > 5 && cn > 5 {
        if (ol == "therefor" && cl == "therefore") || pair("though", "thought") {
            return Some("SPELL");
        }
        if (ot.text.starts_with(ct.text.as_str()) || ct.text.starts_with(ot.text.as_str()))
            && sim >= 0.66
        {
            return Some("MORPH");
        }
        if sim > 0.8 {
            return Some("SPELL");
        }
        if sim < 0.55 && !rare(c_pos[0]) {
            return Some(c_pos[0]);
        }
    }
    None
}

/// `preceded_by_aux`: both tokens have an auxiliary before them (for auxiliaries: neither is
/// the first auxiliary of its head; for main verbs: both have an aux or auxpass child).
fn preceded_by_aux(o: Side, c: Side) -> bool {
    let (ot, ct) = (o.first(), c.first());
    if ot.dep.starts_with("aux") && ct.dep.starts_with("aux") {
        let first_aux = |s: Side, t: &Token| {
            s.doc
                .children(t.head)
                .find(|child| child.dep.starts_with("aux"))
                .map(|child| child.text.clone())
        };
        if let Some(first) = first_aux(o, ot) {
            if first != ot.text {
                if let Some(first) = first_aux(c, ct) {
                    return first != ct.text;
                }
            }
        }
        false
    } else {
        let has_aux = |s: Side| {
            s.doc
                .children(s.start)
                .any(|child| child.dep == "aux" || child.dep == "auxpass")
        };
        has_aux(o) && has_aux(c)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_word_list_is_sorted_for_its_binary_search() {
        let words: Vec<&str> = super::WORD_LIST
            .lines()
            .map(|w| w.trim_matches(crate::m2::is_space))
            .collect();
        assert!(words.windows(2).all(|w| w[0] < w[1]));
        for w in [
            words[0],
            words[1],
            words[words.len() / 2],
            words[words.len() - 1],
        ] {
            assert!(super::known(w), "{w}");
        }
        assert!(super::known("apple") && !super::known("applf"));
        assert!(!super::known("") && !super::known("\u{10ffff}"));
    }
}
