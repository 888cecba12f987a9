//! Real data (needs GREEN_SHARED): every MuCGEC dev sentence segments without loss, and
//! segmentations of learner sentences checked by hand.

use std::path::PathBuf;

use green_engine::Tokenizer;
use green_zh::{Chinese, Hmm};

/// Source and reference sentences of MuCGEC dev (`id<TAB>source<TAB>ref...`).
fn mucgec() -> Vec<String> {
    let dir = std::env::var_os("GREEN_SHARED")
        .expect("GREEN_SHARED is not set: point it at the shared data directory (../shared)");
    let path = PathBuf::from(dir).join("data/zh/mucgec/MuCGEC_dev.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .flat_map(|l| l.split('\t').skip(1).map(str::to_string))
        .collect()
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn every_mucgec_sentence_segments_without_loss() {
    let lines = mucgec();
    assert!(lines.len() > 2000, "only {} sentences", lines.len());
    for t in [Chinese::new(Hmm::On), Chinese::new(Hmm::Off)] {
        for line in &lines {
            let tokens = t.tokens(line).unwrap();
            let expected: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(tokens.concat(), expected, "{}: {line}", t.name());
        }
    }
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn learner_sentences_segment_as_a_reader_expects() {
    // MuCGEC dev sources and references, checked by hand.
    let cases: &[(&str, &[&str])] = &[
        (
            "因为在冰箱里没什么东西也做很好吃的菜。",
            &[
                "因为",
                "在",
                "冰箱",
                "里",
                "没什么",
                "东西",
                "也",
                "做",
                "很",
                "好吃",
                "的",
                "菜",
                "。",
            ],
        ),
        // The learner's 的 (for 地) stays a token of its own, so the edit is one token.
        (
            "我不愿意这么过分的喜欢歌手。",
            &[
                "我", "不", "愿意", "这么", "过分", "的", "喜欢", "歌手", "。",
            ],
        ),
        (
            "学生大概做飞机去北京。",
            &["学生", "大概", "做", "飞机", "去", "北京", "。"],
        ),
        (
            "学生大概坐飞机去北京。",
            &["学生", "大概", "坐飞机", "去", "北京", "。"],
        ),
        (
            "再说，他们可能以为自己吸烟时给别人带来的不便和不舒服也不会很大。",
            &[
                "再说", "，", "他们", "可能", "以为", "自己", "吸烟", "时", "给", "别人", "带来",
                "的", "不便", "和", "不", "舒服", "也", "不会", "很大", "。",
            ],
        ),
    ];
    let lines = mucgec();
    let t = Chinese::new(Hmm::On);
    for (line, expected) in cases {
        assert!(lines.iter().any(|l| l == line), "not in MuCGEC dev: {line}");
        assert_eq!(t.tokens(line).unwrap(), *expected, "{line}");
    }
}
