//! green-zh: Chinese words with jieba-rs.
//!
//! Chinese is written without spaces, so the reference's whitespace "word level" turns a
//! whole sentence into one token. This pack segments with jieba-rs (a Rust port of Python's
//! jieba) and its dictionary, which the crate embeds (compressed at compile time: nothing
//! is read from disk or the network at run time).
//!
//! Mode: jieba's default "accurate" mode (`cut`), never search mode, which emits
//! overlapping sub-words and would count the same characters twice. HMM discovery of words
//! missing from the dictionary is on by default, as in Python's `jieba.cut(s)`, so the
//! tokens match what a Chinese GEC researcher gets from jieba; [`Hmm::Off`] (spec
//! `zh:nohmm`) segments by dictionary alone, so characters of unknown words stay single.
//! Whitespace is never a token: runs of it are dropped, as at every other word level.
//!
//! Loading the dictionary takes tens of milliseconds, so it happens once per process
//! ([`shared_jieba`]) and every tokenizer shares it; `Jieba` is read-only after loading,
//! so one instance serves all threads.

use std::sync::{Arc, OnceLock};

use green_engine::tokenizer::is_python_whitespace;
use green_engine::{TokenizeError, Tokenizer};
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

/// The process-wide jieba with its embedded default dictionary, loaded on first use.
pub fn shared_jieba() -> Arc<Jieba> {
    static JIEBA: OnceLock<Arc<Jieba>> = OnceLock::new();
    JIEBA.get_or_init(|| Arc::new(Jieba::new())).clone()
}

/// jieba word segmentation in accurate mode; whitespace dropped.
#[derive(Clone)]
pub struct Chinese {
    jieba: Arc<Jieba>,
    hmm: Hmm,
}

impl Chinese {
    /// A tokenizer on the shared default dictionary.
    pub fn new(hmm: Hmm) -> Self {
        Chinese {
            jieba: shared_jieba(),
            hmm,
        }
    }

    /// A tokenizer on a jieba the caller built (e.g. with a user dictionary).
    pub fn with_jieba(jieba: Arc<Jieba>, hmm: Hmm) -> Self {
        Chinese { jieba, hmm }
    }
}

impl std::fmt::Debug for Chinese {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chinese")
            .field("hmm", &self.hmm)
            .finish_non_exhaustive()
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
        for token in self.jieba.cut(text, self.hmm == Hmm::On) {
            let word = token.word;
            if word.contains(is_python_whitespace) {
                // jieba hands whitespace back as tokens (and `\r\n` as one); drop it.
                for part in word.split(is_python_whitespace).filter(|p| !p.is_empty()) {
                    sink(part);
                }
            } else {
                sink(word);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn one_dictionary_is_shared() {
        let (a, b) = (Chinese::new(Hmm::On), Chinese::new(Hmm::Off));
        assert!(Arc::ptr_eq(&a.jieba, &b.jieba));
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Chinese>();
    }
}
