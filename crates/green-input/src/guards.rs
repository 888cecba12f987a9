//! Warnings for input that scores without error but almost surely not as meant.
//!
//! Each of these once gave a plausible but wrong number with exit 0: a para TSV file read as
//! a line file, character-spaced Chinese under a word segmenter (the score is a character
//! score under a word signature), unsegmented Chinese or Japanese at `-t word` (every line is
//! one token, every system scores about 0). The run goes on, and the warning says what to
//! pass instead.
//!
//! The whole input is sampled, not its head: a corpus whose first hundred lines are English
//! and whose next thousand are raw Chinese is as wrong as one that is Chinese throughout.
//! [`Guard::look`] takes every batch of a run and looks at [`PER_BATCH`] sentences spread
//! evenly over it; the counts add up over the run and [`Guard::warnings`] judges the total.

use green_engine::{is_cjk, Sentence};

/// Sentences looked at per batch, spread evenly over it: enough for a share of 80% on a
/// small corpus (one batch), and a small part of a run (64 of 4,096 sentences per batch).
pub const PER_BATCH: usize = 64;
/// Share of sampled lines (or CJK characters) that must show a pattern before a warning.
const SHARE: f64 = 0.8;
/// Fewest sampled lines (or CJK characters) for a verdict.
const FEWEST: usize = 5;

/// Tokenizers that segment words and so need unspaced CJK text.
const SEGMENTERS: &[&str] = &["zh", "zh:nohmm", "ja", "en"];

/// What the samples of a run showed so far.
#[derive(Debug, Clone)]
pub struct Guard {
    tokenizer: String,
    joins_cjk: bool,
    /// Names of the reference line files (empty when references come from M2 or para).
    ref_names: Vec<String>,
    /// Per reference file: (lines that look like para TSV, lines sampled).
    para: Vec<(usize, usize)>,
    /// Per role (sources, references, systems): (CJK characters standing alone, CJK characters).
    spaced: [(usize, usize); 3],
    /// At `-t word`, references then systems: (texts, those mostly CJK, those mostly CJK
    /// and one token).
    unsegmented: [(usize, usize, usize); 2],
}

impl Guard {
    /// A guard for a run with tokenizer spec `tokenizer` (`-t`), `joins_cjk` when `--norm`
    /// has `cjk-join`; `ref_names[k]` names the k-th reference when references come from
    /// line files (else empty).
    pub fn new(tokenizer: &str, joins_cjk: bool, ref_names: &[String]) -> Guard {
        Guard {
            tokenizer: tokenizer.to_owned(),
            joins_cjk,
            ref_names: ref_names.to_vec(),
            para: vec![(0, 0); ref_names.len()],
            spaced: [(0, 0); 3],
            unsegmented: [(0, 0, 0); 2],
        }
    }

    /// Look at [`PER_BATCH`] sentences of `batch`, spread evenly over it.
    pub fn look(&mut self, batch: &[Sentence]) {
        let step = batch.len().div_ceil(PER_BATCH).max(1);
        for s in batch.iter().step_by(step) {
            self.look_at(s);
        }
    }

    fn look_at(&mut self, s: &Sentence) {
        for (k, counts) in self.para.iter_mut().enumerate() {
            if let Some(line) = s.refs.get(k) {
                counts.0 += usize::from(looks_like_para(line));
                counts.1 += 1;
            }
        }
        // Every check below looks only at non-ASCII texts.
        let roles: [&[&str]; 3] = [std::slice::from_ref(&s.source), s.refs, s.hyps];
        for (role, texts) in roles.into_iter().enumerate() {
            for t in texts.iter().filter(|t| !t.is_ascii()) {
                let (spaced, cjk) = spaced_cjk(t);
                self.spaced[role].0 += spaced;
                self.spaced[role].1 += cjk;
            }
        }
        if self.tokenizer == "word" {
            for (counts, texts) in self.unsegmented.iter_mut().zip([s.refs, s.hyps]) {
                for t in texts {
                    counts.0 += 1;
                    if !t.is_ascii() && mostly_cjk(t) {
                        counts.1 += 1;
                        counts.2 += usize::from(t.split_whitespace().count() <= 1);
                    }
                }
            }
        }
    }

    /// The warnings for what was sampled, one line each.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, &(para, lines)) in self.ref_names.iter().zip(&self.para) {
            if lines >= FEWEST && para as f64 >= SHARE * lines as f64 {
                out.push(format!(
                    "{name} looks like a para TSV file (id<TAB>source<TAB>references on most lines) but is read as one reference per line; pass --ref-format para"
                ));
            }
        }
        let spaced: Vec<&str> = ["sources", "references", "systems"]
            .into_iter()
            .zip(self.spaced)
            .filter(|&(_, (spaced, cjk))| cjk >= FEWEST && spaced as f64 >= SHARE * cjk as f64)
            .map(|(role, _)| role)
            .collect();
        let tokenizer = &self.tokenizer;
        if SEGMENTERS.contains(&tokenizer.as_str()) && !self.joins_cjk && !spaced.is_empty() {
            out.push(format!(
                "the {} are Chinese or Japanese spaced character by character, so tokenizer '{tokenizer}' can only return characters there: the score mixes character and word level under a word-level signature; add --norm cjk-join to score words, or use -t char",
                spaced.join(" and ")
            ));
        }
        let unsegmented = |(texts, cjk, one_token): (usize, usize, usize)| {
            cjk >= FEWEST
                && cjk as f64 >= SHARE * texts as f64
                && one_token as f64 >= SHARE * cjk as f64
        };
        let [refs, hyps] = self.unsegmented;
        let both = (refs.0 + hyps.0, refs.1 + hyps.1, refs.2 + hyps.2);
        if unsegmented(hyps) && !spaced.is_empty() {
            out.push(format!(
                "the systems are Chinese or Japanese without spaces but the {} are spaced character by character, so -t word makes each system line one token; use -t char:nospace (characters, spaces left out), or space the systems as the references are",
                spaced.join(" and ")
            ));
        } else if unsegmented(both) {
            out.push(
                "the texts are Chinese or Japanese without spaces, so -t word makes each line one token and every system scores near 0; use -t zh, -t ja or -t char".into(),
            );
        }
        out
    }
}

/// `id<TAB>text<TAB>text...`: a short id field and at least two tabs. Only the first 41
/// bytes are searched for the first tab.
fn looks_like_para(line: &str) -> bool {
    let head = &line.as_bytes()[..line.len().min(41)];
    match head.iter().position(|&b| b == b'\t') {
        Some(tab) => {
            let id = &head[..tab];
            !id.is_empty() && !id.contains(&b' ') && line.as_bytes()[tab + 1..].contains(&b'\t')
        }
        None => false,
    }
}

/// (CJK characters standing alone between whitespace or line ends, all CJK characters).
fn spaced_cjk(t: &str) -> (usize, usize) {
    let (mut spaced, mut all) = (0, 0);
    let mut before = true;
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if is_cjk(c) {
            all += 1;
            let after = chars.peek().is_none_or(|n| n.is_whitespace());
            spaced += usize::from(before && after);
        }
        before = c.is_whitespace();
    }
    (spaced, all)
}

/// Whether most non-space characters of `t` are CJK (and it has a few).
fn mostly_cjk(t: &str) -> bool {
    let (mut visible, mut cjk) = (0, 0);
    for c in t.chars().filter(|c| !c.is_whitespace()) {
        visible += 1;
        cjk += usize::from(is_cjk(c));
    }
    cjk >= 4 && cjk * 2 >= visible
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The warnings for a corpus whose source, reference and system are each of `lines`.
    fn run(lines: &[&str], tokenizer: &str, joins: bool) -> Vec<String> {
        let refs: Vec<[&str; 1]> = lines.iter().map(|r| [*r]).collect();
        let sentences: Vec<Sentence> = refs
            .iter()
            .map(|r| Sentence {
                source: r[0],
                refs: &r[..],
                hyps: &r[..],
            })
            .collect();
        let mut guard = Guard::new(tokenizer, joins, &["ref.txt".to_string()]);
        for batch in sentences.chunks(4096) {
            guard.look(batch);
        }
        guard.warnings()
    }

    #[test]
    fn para_lines_read_as_references() {
        let para = ["1\t我去学校\t我去学校。"; 6];
        assert!(run(&para, "char", false)[0].contains("ref.txt looks like a para TSV file"));
        assert!(run(&["a b\tc"; 6], "word", false).is_empty());
        // The id is at most 40 bytes, without spaces, followed by at least two tabs.
        let id40 = format!("{}\tx\ty", "i".repeat(40));
        let id41 = format!("{}\tx\ty", "i".repeat(41));
        assert!(!run(&[id40.as_str(); 6], "word", false).is_empty());
        assert!(run(&[id41.as_str(); 6], "word", false).is_empty());
        assert!(run(&["a b\tx\ty"; 6], "word", false).is_empty());
        assert!(run(&["\tx\ty"; 6], "word", false).is_empty());
        assert!(run(&["id\tx y"; 6], "word", false).is_empty());
    }

    #[test]
    fn char_spaced_cjk_under_a_segmenter() {
        let spaced = ["我 去 学 校 。"; 6];
        assert!(run(&spaced, "zh", false)[0].contains("spaced character by character"));
        assert!(run(&spaced, "zh", true).is_empty());
        assert!(run(&spaced, "char", false).is_empty());
        assert!(run(&["我去 学校。"; 6], "zh", false).is_empty());
    }

    #[test]
    fn unsegmented_cjk_at_word_level() {
        let raw = ["我昨天去学校了。"; 6];
        assert!(run(&raw, "word", false)[0].contains("without spaces"));
        assert!(run(&raw, "zh", false).is_empty());
        assert!(run(&["我 昨天 去 学校 了 。"; 6], "word", false).is_empty());
        assert!(run(&["the cat sat"; 6], "word", false).is_empty());
    }

    #[test]
    fn raw_systems_against_character_spaced_references() {
        let spaced = "我 昨 天 去 学 校 了 。";
        let (refs, hyps) = ([spaced], ["我昨天去学校了。"]);
        let sentences: Vec<Sentence> = (0..8)
            .map(|_| Sentence {
                source: spaced,
                refs: &refs,
                hyps: &hyps,
            })
            .collect();
        let mut guard = Guard::new("word", false, &[]);
        guard.look(&sentences);
        let w = guard.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("the systems are Chinese or Japanese without spaces but the sources and references are spaced"), "{w:?}");
        let mut at_char = Guard::new("char", false, &[]);
        at_char.look(&sentences);
        assert!(at_char.warnings().is_empty());
    }

    #[test]
    fn too_few_lines_for_a_verdict() {
        assert!(run(&["我昨天去学校了。"; 2], "word", false).is_empty());
    }

    #[test]
    fn the_whole_input_is_sampled_not_its_head() {
        // 100 English lines, then 1,000 raw Chinese ones: a head of 64 sees only English.
        let mut lines = vec!["the cat sat on the mat"; 100];
        lines.extend(["我昨天去学校了。"; 1000]);
        assert!(run(&lines, "word", false)[0].contains("without spaces"));
        // Para lines after plain ones, and across batches (10,000 lines, 3 batches).
        let mut lines = vec!["a plain reference"; 64];
        lines.extend(["7\tsource\treference"; 9936]);
        assert!(run(&lines, "word", false)[0].contains("looks like a para TSV file"));
        // Mostly English with a few Chinese lines is no verdict.
        let mut lines = vec!["the cat sat on the mat"; 1000];
        lines.extend(["我昨天去学校了。"; 100]);
        assert!(run(&lines, "word", false).is_empty());
    }
}
