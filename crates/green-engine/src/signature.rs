//! The reproducibility signature: every setting that changes a number, in one string.
//!
//! In the spirit of sacrebleu: `green|n:4|beta:2|tok:word|norm:none|refs:2|v:0.1.0`.
//! A score reported with its signature can be reproduced from the signature alone.

/// The version every signature names (`v:`), which is also `green --version`'s.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

use std::fmt;

use crate::normalize::Normalization;

/// Settings that determine a GREEN score.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    pub n: usize,
    pub betas: Vec<f64>,
    /// Tokenizer name, e.g. `word`, `char`, `zh-jieba`.
    pub tokenizer: String,
    pub normalization: Normalization,
    /// Number of references (the largest per-sentence count when it varies).
    pub refs: usize,
    /// `corpus`, `sentence` or `mean`.
    pub level: String,
    /// Which annotators of an M2 file were references (`skip` or `source`), when references
    /// came from M2.
    pub m2: Option<String>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let betas: Vec<String> = self.betas.iter().map(|b| b.to_string()).collect();
        write!(
            f,
            "green|n:{}|beta:{}|tok:{}|norm:{}|refs:{}|level:{}{}|v:{}",
            self.n,
            betas.join(","),
            self.tokenizer,
            self.normalization,
            self.refs,
            self.level,
            self.m2
                .as_ref()
                .map_or(String::new(), |m| format!("|m2:{m}")),
            VERSION
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_lists_every_setting() {
        let s = Signature {
            n: 4,
            betas: vec![0.5, 2.0, f64::INFINITY],
            tokenizer: "zh-jieba".into(),
            normalization: "nfkc".parse().unwrap(),
            refs: 2,
            level: "corpus".into(),
            m2: None,
        };
        assert_eq!(
            s.to_string(),
            format!(
                "green|n:4|beta:0.5,2,inf|tok:zh-jieba|norm:nfkc|refs:2|level:corpus|v:{}",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn m2_reference_rule_is_in_the_signature() {
        let s = Signature {
            n: 4,
            betas: vec![0.5],
            tokenizer: "word".into(),
            normalization: "none".parse().unwrap(),
            refs: 2,
            level: "corpus".into(),
            m2: Some("skip".into()),
        };
        assert!(s.to_string().contains("|level:corpus|m2:skip|v:"), "{s}");
    }
}
