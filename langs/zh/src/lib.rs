//! green-zh: Chinese words, segmented as jieba does.
//!
//! Chinese is written without spaces, so the reference's whitespace "word level" turns a
//! whole sentence into one token. This pack segments as jieba-rs 0.11 (a Rust port of
//! Python's jieba) does with its default dictionary, token for token (tests compare the two
//! on every MuCGEC dev and NLPCC-18 sentence), but loads in no time: the dictionary is a
//! trie built at compile time ([`dict`]) instead of 349,045 lines parsed at every start
//! (about 80 ms). Nothing is read from disk or the network at run time.
//!
//! Mode: jieba's default "accurate" mode (`cut`), never search mode, which emits
//! overlapping sub-words and would count the same characters twice: the most probable path
//! through the dictionary words of each run of Han characters, letters and digits. HMM
//! discovery of words missing from the dictionary is on by default, as in Python's
//! `jieba.cut(s)`, so the tokens match what a Chinese GEC researcher gets from jieba; the
//! HMM itself is jieba-rs's (called on an empty dictionary, where it cuts exactly the run it
//! is given). [`Hmm::Off`] (spec `zh:nohmm`) segments by dictionary alone, so characters of
//! unknown words stay single. Whitespace is never a token: runs of it are dropped, as at
//! every other word level.

pub mod dict;

use std::cell::RefCell;
use std::sync::OnceLock;

use green_tokenizer_api::is_python_whitespace;
use green_tokenizer_api::{TokenizeError, Tokenizer};
use jieba_rs::Jieba;

/// Whether jieba's HMM guesses words that are not in its dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hmm {
    /// Python jieba's default (`jieba.cut(s)`, `HMM=True`).
    #[default]
    On,
    /// Dictionary words only; unknown characters become single-character tokens.
    Off,
}

/// jieba word segmentation in accurate mode; whitespace dropped.
#[derive(Debug, Clone, Copy)]
pub struct Chinese {
    hmm: Hmm,
}

impl Chinese {
    pub fn new(hmm: Hmm) -> Self {
        Chinese { hmm }
    }
}

impl Tokenizer for Chinese {
    fn name(&self) -> String {
        match self.hmm {
            Hmm::On => "zh-jieba-hmm".into(),
            Hmm::Off => "zh-jieba-nohmm".into(),
        }
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        SCRATCH.with(|scratch| cut(text, self.hmm == Hmm::On, &mut scratch.borrow_mut(), sink));
        Ok(())
    }
}

/// jieba's blocks: runs of these characters are segmented, anything else is a token of
/// its own (jieba-rs's `is_han_default`: CJK ideographs with their extensions, ASCII letters
/// and digits, and `+#&._%-`).
fn is_han(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2A6DF}'
        | '\u{2A700}'..='\u{2EBEF}'
        | '\u{2F800}'..='\u{2FA1F}')
        || c.is_ascii_alphanumeric()
        || matches!(c, '+' | '#' | '&' | '.' | '_' | '%' | '-')
}

/// Per-thread buffers, reused from block to block.
#[derive(Default)]
struct Scratch {
    /// Byte offset of every character of the block, and the block's length at the end.
    offsets: Vec<usize>,
    chars: Vec<char>,
    /// The DAG: dictionary words starting at character i, (end, ln frequency), are
    /// `ends[starts[i]..starts[i + 1]]`.
    ends: Vec<(usize, f64)>,
    starts: Vec<usize>,
    /// Best route from each character: (log probability, end of its first word).
    route: Vec<(f64, usize)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// jieba-rs with an empty dictionary: its HMM cut of a run.
fn hmm() -> &'static Jieba {
    static EMPTY: OnceLock<Jieba> = OnceLock::new();
    EMPTY.get_or_init(Jieba::empty)
}

fn cut(text: &str, hmm: bool, scratch: &mut Scratch, sink: &mut dyn FnMut(&str)) {
    let mut rest = text;
    while let Some(first) = rest.chars().next() {
        let han = is_han(first);
        let len = rest.find(|c| is_han(c) != han).unwrap_or(rest.len());
        let (block, tail) = rest.split_at(len);
        if han {
            cut_block(block, hmm, scratch, sink);
        } else {
            for (i, c) in block.char_indices() {
                if !is_python_whitespace(c) {
                    sink(&block[i..i + c.len_utf8()]);
                }
            }
        }
        rest = tail;
    }
}

/// Segments one block as jieba-rs's `cut_route` does.
fn cut_block(block: &str, hmm: bool, s: &mut Scratch, sink: &mut dyn FnMut(&str)) {
    s.offsets.clear();
    s.chars.clear();
    for (i, c) in block.char_indices() {
        s.offsets.push(i);
        s.chars.push(c);
    }
    s.offsets.push(block.len());
    let n = s.chars.len();

    // Every dictionary word at every character, shortest first.
    s.ends.clear();
    s.starts.clear();
    for i in 0..n {
        s.starts.push(s.ends.len());
        let mut node = dict::first(s.chars[i]);
        let mut end = i + 1;
        while let Some(at) = node {
            if let Some(log_freq) = at.log_freq() {
                s.ends.push((end, log_freq));
            }
            if end == n {
                break;
            }
            node = at.next(s.chars[end]);
            end += 1;
        }
    }
    s.starts.push(s.ends.len());

    // The most probable route, from the end; ties go to the longer word.
    let log_total = (dict::TOTAL as f64).ln();
    s.route.clear();
    s.route.resize(n + 1, (0.0, n));
    for i in (0..n).rev() {
        let mut best: Option<(f64, usize)> = None;
        for &(end, log_freq) in &s.ends[s.starts[i]..s.starts[i + 1]] {
            let prob = log_freq - log_total + s.route[end].0;
            if best.is_none_or(|(p, e)| prob > p || (prob == p && end > e)) {
                best = Some((prob, end));
            }
        }
        s.route[i] = best.unwrap_or(((0.0 - log_total) + s.route[i + 1].0, i + 1));
    }

    let word = |x: usize, y: usize| &block[s.offsets[x]..s.offsets[y]];
    // Single characters the route leaves alone are gathered into runs: with the HMM every
    // such character, without it only ASCII letters and digits (which become one word).
    let mut run: Option<usize> = None;
    let mut x = 0;
    while x < n {
        let y = s.route[x].1;
        if y - x == 1 && (hmm || s.chars[x].is_ascii_alphanumeric()) {
            run.get_or_insert(x);
        } else {
            if let Some(start) = run.take() {
                cut_run(s, block, start, x, hmm, sink);
            }
            sink(word(x, y));
        }
        x = y;
    }
    if let Some(start) = run {
        cut_run(s, block, start, n, hmm, sink);
    }
}

/// A run `x..y` of single characters: one word without the HMM; with it, one token per
/// character if the run is a dictionary word, the HMM's cut if not.
fn cut_run(s: &Scratch, block: &str, x: usize, y: usize, hmm: bool, sink: &mut dyn FnMut(&str)) {
    let text = &block[s.offsets[x]..s.offsets[y]];
    if !hmm || y - x == 1 {
        sink(text);
    } else if s.ends[s.starts[x]..s.starts[x + 1]]
        .iter()
        .any(|&(end, _)| end == y)
    {
        for i in x..y {
            sink(&block[s.offsets[i]..s.offsets[i + 1]]);
        }
    } else {
        for token in self::hmm().cut(text, true) {
            sink(token.word);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    #[test]
    fn segments_words_and_drops_whitespace() {
        let t = Chinese::new(Hmm::On);
        assert_eq!(
            t.tokens("我们去北京大学。").unwrap(),
            ["我们", "去", "北京大学", "。"]
        );
        assert_eq!(
            t.tokens("  我 爱\u{3000}北京 天安门\r\n").unwrap(),
            ["我", "爱", "北京", "天安门"]
        );
        assert!(t.tokens(" \t ").unwrap().is_empty());
    }

    #[test]
    fn hmm_setting_changes_unknown_words_and_the_name() {
        // 杭研 is not in the dictionary: HMM joins it, dictionary-only splits it.
        let on = Chinese::new(Hmm::On);
        let off = Chinese::new(Hmm::Off);
        assert_eq!(
            on.tokens("他来到了网易杭研大厦").unwrap(),
            ["他", "来到", "了", "网易", "杭研", "大厦"]
        );
        assert_eq!(
            off.tokens("他来到了网易杭研大厦").unwrap(),
            ["他", "来到", "了", "网易", "杭", "研", "大厦"]
        );
        assert_eq!(on.name(), "zh-jieba-hmm");
        assert_eq!(off.name(), "zh-jieba-nohmm");
    }

    #[test]
    fn latin_and_digits_stay_whole() {
        let t = Chinese::new(Hmm::Off);
        assert_eq!(
            t.tokens("我用GPT4写了3篇文章").unwrap(),
            ["我", "用", "GPT4", "写", "了", "3", "篇文章"]
        );
    }

    /// Random text from characters that make words, unknown words and every kind of block.
    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        let pool: Vec<char> = "我们中出了一个叛徒他来到网易杭研大厦北京大学的地得和尚未结婚小明硕士毕业于科学院计算所日本京都深造南市长江桥永服装饰品有限公司是不在有人这上为个国到以说时要就会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实"
            .chars()
            .chain("abcXYZ0129+#&._%- \t\r\n，。！？、Ａ１ㄅ😀𠀀丂".chars())
            .collect();
        proptest::collection::vec(proptest::sample::select(pool), 0..40)
            .prop_map(|chars| chars.into_iter().collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn random_text_cuts_as_jieba_rs_does(text in text()) {
            let jieba = reference();
            for hmm in [Hmm::On, Hmm::Off] {
                let expected: Vec<&str> = jieba
                    .cut(&text, hmm == Hmm::On)
                    .iter()
                    .map(|t| t.word)
                    .filter(|w| !w.contains(is_python_whitespace))
                    .collect();
                proptest::prop_assert_eq!(Chinese::new(hmm).tokens(&text).unwrap(), expected);
            }
        }
    }

    fn reference() -> &'static Jieba {
        static JIEBA: OnceLock<Jieba> = OnceLock::new();
        JIEBA.get_or_init(Jieba::new)
    }

    #[test]
    fn tokens_are_slices_of_the_input() {
        // Dictionary words, an HMM word (杭研) and Latin all point into the text.
        let text = "他来到了网易杭研大厦 GPT4";
        let mut n = 0;
        Chinese::new(Hmm::On)
            .tokenize_spans(text, &mut |tok, span| {
                assert_eq!(&text[span.expect("a span")], tok);
                n += 1;
            })
            .unwrap();
        assert_eq!(n, 7);
    }

    #[test]
    fn cuts_as_jieba_rs_does() {
        // Every branch of the segmentation: dictionary words, HMM runs (in and out of the
        // dictionary), Latin and digits, symbols, whitespace, CJK extensions, emoji.
        let jieba = reference();
        for text in [
            "我们中出了一个叛徒",
            "他来到了网易杭研大厦",
            "小明硕士毕业于中国科学院计算所，后在日本京都大学深造",
            "我用GPT4写了3篇文章, C++ & C# 的 3.14% a_b-c",
            "南京市长江大桥\r\n\t𠀀𠀁丂 Ａｂｃ ㄅㄆ 😀😀 ..",
            "永和服装饰品有限公司结婚的和尚未结婚的",
            "",
            "   ",
            "中中中中中中中中中中",
        ] {
            for hmm in [Hmm::On, Hmm::Off] {
                let expected: Vec<&str> = jieba
                    .cut(text, hmm == Hmm::On)
                    .iter()
                    .map(|t| t.word)
                    .filter(|w| !w.contains(is_python_whitespace))
                    .collect();
                assert_eq!(Chinese::new(hmm).tokens(text).unwrap(), expected, "{text}");
            }
        }
    }
}
