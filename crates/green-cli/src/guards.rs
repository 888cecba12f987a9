//! Warnings for input that scores without error but almost surely not as meant.
//!
//! Each of these once gave a plausible but wrong number with exit 0: a para TSV file read as
//! a line file, character-spaced Chinese under a word segmenter (the score is a character
//! score under a word signature), unsegmented Chinese or Japanese at `-t word` (every line is
//! one token, every system scores about 0). The first sentences are looked at, the run goes
//! on, and the warning says what to pass instead.

use green_engine::{is_cjk, Sentence};

/// Sentences looked at: enough for a share of 80% (each has a source, references and
/// systems), and few enough that looking stays a small part of a small run: on CoNLL-14's
/// 1,312 sentences, 1,000 cost 3.5% of the run and 256 still 2%.
pub const SAMPLE: usize = 64;
/// Share of sampled lines (or CJK characters) that must show a pattern before a warning.
const SHARE: f64 = 0.8;
/// Fewest sampled lines (or CJK characters) for a verdict.
const FEWEST: usize = 5;

/// Tokenizers that segment words and so need unspaced CJK text.
const SEGMENTERS: &[&str] = &["zh", "zh:nohmm", "ja", "en"];

/// The warnings for the first sentences of a run, one line each. `ref_names[k]` names the
/// k-th reference file when references come from line files (else empty); `tokenizer` is
/// the `-t` spec and `joins_cjk` whether `--norm` has `cjk-join`.
pub fn check(
    sentences: &[Sentence],
    ref_names: &[String],
    tokenizer: &str,
    joins_cjk: bool,
) -> Vec<String> {
    let sample = &sentences[..sentences.len().min(SAMPLE)];
    let mut out = Vec::new();
    for (k, name) in ref_names.iter().enumerate() {
        let lines: Vec<&str> = sample
            .iter()
            .filter_map(|s| s.refs.get(k).copied())
            .collect();
        if share(&lines, looks_like_para) >= SHARE && lines.len() >= FEWEST {
            out.push(format!(
                "{name} looks like a para TSV file (id<TAB>source<TAB>references on most lines) but is read as one reference per line; pass --ref-format para"
            ));
        }
    }
    // Every check below looks only at non-ASCII texts: one pass over the sample finds them.
    let (_, sources) = non_ascii(sample.iter().map(|s| s.source));
    let (ref_count, refs) = non_ascii(sample.iter().flat_map(|s| s.refs.iter().copied()));
    let (hyp_count, hyps) = non_ascii(sample.iter().flat_map(|s| s.hyps.iter().copied()));
    let spaced: Vec<&str> = [
        ("sources", &sources),
        ("references", &refs),
        ("systems", &hyps),
    ]
    .into_iter()
    .filter(|(_, texts)| {
        let (spaced, cjk) = spaced_cjk(texts);
        cjk >= FEWEST && spaced as f64 >= SHARE * cjk as f64
    })
    .map(|(role, _)| role)
    .collect();
    if SEGMENTERS.contains(&tokenizer) && !joins_cjk && !spaced.is_empty() {
        out.push(format!(
            "the {} are Chinese or Japanese spaced character by character, so tokenizer '{tokenizer}' can only return characters there: the score mixes character and word level under a word-level signature; add --norm cjk-join to score words, or use -t char",
            spaced.join(" and ")
        ));
    }
    if tokenizer == "word" {
        let texts = ref_count + hyp_count;
        let cjk_lines: Vec<&str> = refs
            .iter()
            .chain(&hyps)
            .copied()
            .filter(|t| mostly_cjk(t))
            .collect();
        let one_token = |t: &str| t.split_whitespace().count() <= 1;
        if cjk_lines.len() >= FEWEST
            && cjk_lines.len() as f64 >= SHARE * texts as f64
            && share(&cjk_lines, one_token) >= SHARE
        {
            out.push(
                "the texts are Chinese or Japanese without spaces, so -t word makes each line one token and every system scores near 0; use -t zh, -t ja or -t char".into(),
            );
        }
    }
    out
}

/// How many texts there are, and those that are not ASCII.
fn non_ascii<'a>(texts: impl Iterator<Item = &'a str>) -> (usize, Vec<&'a str>) {
    let mut all = 0;
    let found = texts
        .inspect(|_| all += 1)
        .filter(|t| !t.is_ascii())
        .collect();
    (all, found)
}

/// Share of `lines` for which `pred` holds (0 for none).
fn share(lines: &[&str], pred: impl Fn(&str) -> bool) -> f64 {
    if lines.is_empty() {
        return 0.0;
    }
    lines.iter().filter(|l| pred(l)).count() as f64 / lines.len() as f64
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
fn spaced_cjk(texts: &[&str]) -> (usize, usize) {
    let (mut spaced, mut all) = (0, 0);
    for t in texts {
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

    fn run(refs: &[&str], tokenizer: &str, joins: bool) -> Vec<String> {
        let refs: Vec<[&str; 1]> = refs.iter().map(|r| [*r]).collect();
        let sentences: Vec<Sentence> = refs
            .iter()
            .map(|r| Sentence {
                source: r[0],
                refs: &r[..],
                hyps: &r[..],
            })
            .collect();
        check(&sentences, &["ref.txt".to_string()], tokenizer, joins)
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
    fn too_few_lines_for_a_verdict() {
        assert!(run(&["我昨天去学校了。"; 2], "word", false).is_empty());
    }
}
