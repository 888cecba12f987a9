//! green-syntok against PyPI syntok 1.4.4: `fixtures/syntok.jsonl` holds texts written for
//! the test (hand-written tricky cases, then random strings over the scripts of MultiGEC's 12
//! languages, marks, digits and every kind of space) with the tokens syntok yields for each
//! and the MultiGEC scorer's line, recorded by `scripts/syntok-oracle.py`.

use green_syntok::{line, tokenize, Syntok};
use green_tokenizer_api::Tokenizer;

#[test]
fn every_recorded_text_splits_as_syntok_splits_it() {
    let golden = include_str!("fixtures/syntok.jsonl");
    let mut cases = 0;
    let mut wrong = Vec::new();
    for (n, l) in golden.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(l).unwrap();
        let text = case["text"].as_str().unwrap();
        let want: Vec<(String, String)> = case["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t[0].as_str().unwrap().to_owned(),
                    t[1].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let mut got = Vec::new();
        tokenize(text, &mut |s, v| got.push((s.to_owned(), v.to_owned())));
        let want_line = case["line"].as_str().unwrap();
        if got != want || line(text) != want_line {
            wrong.push(format!(
                "line {}: {text:?}\n  syntok {want:?}\n  green  {got:?}",
                n + 1
            ));
        }
        // The tokenizer's words are the line's (Python's str.split()).
        let words: Vec<&str> = want_line
            .split(green_tokenizer_api::is_python_whitespace)
            .filter(|w| !w.is_empty())
            .collect();
        assert_eq!(Syntok.tokens(text).unwrap(), words, "line {}", n + 1);
        cases += 1;
    }
    assert!(cases > 3000, "{cases}");
    assert!(
        wrong.is_empty(),
        "{} of {cases} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
