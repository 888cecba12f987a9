//! Real data (needs GREEN_SHARED): every MuCGEC dev sentence segments without loss, every
//! Chinese sentence of the shared data segments as jieba-rs segments it, and segmentations
//! of learner sentences checked by hand.

use green_engine::tokenizer::is_python_whitespace;
use green_engine::Tokenizer;
use green_zh::{Chinese, Hmm};

fn read(relative: &str) -> String {
    let path = green_test_data::shared().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every column but the id of a tab-separated para file (`id<TAB>source<TAB>ref...`).
fn para(relative: &str) -> Vec<String> {
    read(relative)
        .lines()
        .flat_map(|l| l.split('\t').skip(1).map(str::to_string))
        .collect()
}

/// Source and reference sentences of MuCGEC dev.
fn mucgec() -> Vec<String> {
    para("data/zh/mucgec/MuCGEC_dev.txt")
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn every_sentence_segments_as_jieba_rs_segments_it() {
    let mut lines = mucgec();
    lines.extend(para("data/zh/yaclc/yaclc-minimal_dev.para"));
    lines.extend(para("data/zh/yaclc/yaclc-fluency_dev.para"));
    // NLPCC-18 sources, with the spaces between characters removed.
    lines.extend(
        read("data/zh/nlpcc18/nlpcc2018_official.ref.m2.char")
            .lines()
            .filter_map(|l| l.strip_prefix("S "))
            .map(|l| l.replace(' ', "")),
    );
    for system in ["bart", "char", "s2e", "spm", "t5"] {
        for set in ["mucgec", "yaclc"] {
            let file = format!("data/zh/revisitcgec/system-corrections/{system}.{set}.txt");
            lines.extend(read(&file).lines().map(str::to_string));
        }
    }
    assert!(lines.len() > 25_000, "only {} sentences", lines.len());
    let jieba = jieba_rs::Jieba::new();
    for hmm in [Hmm::On, Hmm::Off] {
        let ours = Chinese::new(hmm);
        for line in &lines {
            let expected: Vec<&str> = jieba
                .cut(line, hmm == Hmm::On)
                .iter()
                .map(|t| t.word)
                .filter(|w| !w.contains(is_python_whitespace))
                .collect();
            assert_eq!(
                ours.tokens(line).unwrap(),
                expected,
                "{}: {line}",
                ours.name()
            );
        }
    }
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
