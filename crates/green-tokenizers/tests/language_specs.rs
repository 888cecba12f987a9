//! The language-pack specs: each builds, tokenises, and names itself in the signature.

use green_tokenizers::{build, Options, KNOWN};

fn tokens(spec: &str, text: &str) -> Vec<String> {
    build(spec, &Options::default())
        .unwrap()
        .as_dyn()
        .tokens(text)
        .unwrap()
}

#[test]
fn language_specs_tokenise_and_name_themselves() {
    assert_eq!(
        tokens("en", "He goes to school."),
        ["He", "goes", "to", "school", "."]
    );
    assert_eq!(
        tokens("zh", "我们去北京大学。"),
        ["我们", "去", "北京大学", "。"]
    );
    assert_eq!(tokens("zh:nohmm", "网易杭研"), ["网易", "杭", "研"]);
    assert_eq!(tokens("zh:char", "我 们去"), ["我", "们", "去"]);
    assert_eq!(tokens("ja:char", "私は　学生"), ["私", "は", "学", "生"]);
    let names: Vec<String> = ["en", "zh", "zh:nohmm", "zh:char", "ja:char"]
        .iter()
        .map(|s| build(s, &Options::default()).unwrap().name())
        .collect();
    assert_eq!(
        names,
        [
            "en-uax29",
            "zh-jieba-hmm",
            "zh-jieba-nohmm",
            "char-nospace",
            "char-nospace"
        ]
    );
    for spec in ["en", "zh", "zh:nohmm", "zh:char", "ja", "ja:char"] {
        assert!(
            KNOWN.iter().any(|(k, _)| *k == spec),
            "{spec} missing from KNOWN"
        );
    }
}

#[test]
fn normalisation_applies_before_segmentation() {
    let mut o = Options::default();
    o.set("norm", "nfkc+lower").unwrap();
    let t = build("en", &o).unwrap();
    assert_eq!(
        t.as_dyn().tokens("ＨＥＬＬＯ，World！").unwrap(),
        ["hello", ",", "world", "!"]
    );
}

#[test]
fn ja_with_a_bad_dictionary_path_is_one_clear_error() {
    let mut o = Options::default();
    o.set("ja-dict", "/nonexistent/green-test-dict").unwrap();
    let err = build("ja", &o).err().unwrap().to_string();
    assert!(
        err.starts_with("/nonexistent/green-test-dict is neither a compiled lindera dictionary"),
        "{err}"
    );
    assert!(!err.contains('\n'));
}
