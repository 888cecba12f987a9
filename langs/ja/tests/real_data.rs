//! Real data (needs GREEN_SHARED and a Japanese dictionary, e.g. Debian's mecab-ipadic):
//! every line of the TEC-JL quality-estimation files tokenised and scored, and
//! segmentations of learner sentences checked by hand.

use std::path::PathBuf;

use green_engine::{Config, Scorer, Tokenizer};
use green_ja::Japanese;

fn shared() -> PathBuf {
    green_test_data::shared()
}

fn ipadic() -> Japanese {
    Japanese::load(None).unwrap_or_else(|e| panic!("{e}"))
}

/// (source, output) pairs of one TEC-JL file: TSV with a header, columns 原文 訂正 個別評価 評価.
fn tecjl(name: &str) -> Vec<(String, String)> {
    let path = shared().join("data/ja/tecjl").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines();
    assert!(
        lines.next().unwrap().starts_with("原文\t訂正"),
        "{}: unexpected header",
        path.display()
    );
    lines
        .enumerate()
        .map(|(i, line)| {
            let mut cols = line.split('\t');
            match (cols.next(), cols.next()) {
                (Some(s), Some(o)) => (s.to_string(), o.to_string()),
                _ => panic!("{}:{}: fewer than two columns", path.display(), i + 2),
            }
        })
        .collect()
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn every_tecjl_line_tokenises_and_scores() {
    let t = ipadic();
    assert_eq!(t.name(), "ja-lindera-ipadic");
    for file in ["human_qe_TECJL.csv", "human_qe_FLUTEC.csv"] {
        let pairs = tecjl(file);
        assert!(pairs.len() > 4000, "{file}: only {} rows", pairs.len());
        let (sources, outputs): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
        for line in sources.iter().chain(&outputs) {
            let tokens = t.tokens(line).unwrap();
            assert!(
                !tokens.is_empty() || line.trim().is_empty(),
                "{file}: no tokens for {line:?}"
            );
            // Morphemes tile the line: nothing but whitespace is lost or invented.
            let joined: String = tokens.concat();
            let expected: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(joined, expected, "{file}: tokens do not cover {line:?}");
        }
        // Output against the source as a stand-in reference (TEC-JL has no references).
        let scorer = Scorer::new(&t, Config::new(4, vec![0.5]).unwrap());
        let eval = scorer
            .evaluate(&sources, std::slice::from_ref(&sources), &[outputs])
            .unwrap();
        let f = eval.report.systems[0].betas[0].corpus;
        assert!((0.0..=1.0).contains(&f), "{file}: F = {f}");
        assert_eq!(eval.sentences.len(), sources.len());
    }
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn learner_sentences_segment_as_a_reader_expects() {
    let t = ipadic();
    // TEC-JL / FLUTEC lines, checked by hand against IPADIC's (MeCab's) conventions.
    let cases: &[(&str, &[&str])] = &[
        (
            "先生は頷きながらそれを受け取りました。",
            &[
                "先生",
                "は",
                "頷き",
                "ながら",
                "それ",
                "を",
                "受け取り",
                "まし",
                "た",
                "。",
            ],
        ),
        (
            "マリア：これはフランスのワインですか。",
            &[
                "マリア",
                "：",
                "これ",
                "は",
                "フランス",
                "の",
                "ワイン",
                "です",
                "か",
                "。",
            ],
        ),
        (
            "出かけには何をすればいいかわからなかった。",
            &[
                "出かけ",
                "に",
                "は",
                "何",
                "を",
                "すれ",
                "ば",
                "いい",
                "か",
                "わから",
                "なかっ",
                "た",
                "。",
            ],
        ),
        // A learner's typo (てす for です) stays confined to its own tokens.
        (
            "しかし、古いのは新しいのより不安なてす。",
            &[
                "しかし",
                "、",
                "古い",
                "の",
                "は",
                "新しい",
                "の",
                "より",
                "不安",
                "な",
                "て",
                "す",
                "。",
            ],
        ),
        // The full-width space (U+3000) is dropped like any other whitespace.
        (
            "」　これで自分の日本語にとても悔しい間違えに気づいた！",
            &[
                "」",
                "これ",
                "で",
                "自分",
                "の",
                "日本語",
                "に",
                "とても",
                "悔しい",
                "間違え",
                "に",
                "気づい",
                "た",
                "！",
            ],
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(t.tokens(line).unwrap(), *expected, "{line}");
    }
}
