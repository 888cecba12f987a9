//! Fuzzing the meta-evaluation inputs on stable Rust (proptest): Appraise judgments XML and
//! dataset descriptors made of valid and hostile pieces give a value or one error, never a
//! panic or a stack overflow. `PROPTEST_CASES` sets the cases per round and
//! `GREEN_FUZZ_SECONDS` a time to fill (see green-io's tests/fuzz.rs).

use green_meta::judgments::Judgments;
use green_meta::Descriptor;
use proptest::prelude::*;

#[path = "../../green-io/tests/support/budget.rs"]
mod budget;
use budget::fuzz;

fn xml_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<?xml version=\"1.0\"?>".to_string()),
        Just("<appraise>".to_string()),
        Just("</appraise>".to_string()),
        Just("<seg>".to_string()),
        Just("</seg>".to_string()),
        Just("<ranking-item src-id=\"1\" doc-id=\"d\" user=\"u\">".to_string()),
        Just("<ranking-item>".to_string()),
        Just("</ranking-item>".to_string()),
        Just("<translation system=\"A\" rank=\"1\"/>".to_string()),
        Just("<translation system=\"B C\" rank=\"2\"/>".to_string()),
        Just("<translation system=\"Z\" rank=\"x\"/>".to_string()),
        Just("<translation>".to_string()),
        Just("</translation>".to_string()),
        Just("<!-- c -->".to_string()),
        Just("<a>".to_string()),
        Just("&amp;".to_string()),
        Just("&bogus;".to_string()),
        Just("<".to_string()),
        Just(">".to_string()),
        Just("\n".to_string()),
        "[a-z0-9 \"=]{0,5}",
    ]
}

fn toml_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name = \"x\"\n".to_string()),
        Just("systems = [\"A\", \"B\"]\n".to_string()),
        Just("[[parts]]\n".to_string()),
        Just("[[human]]\n".to_string()),
        Just("[[sets]]\n".to_string()),
        Just("name = \"p\"\n".to_string()),
        Just("source = \"s.txt\"\n".to_string()),
        Just("references = [\"r.txt\"]\n".to_string()),
        Just("hypotheses = \"{system}.txt\"\n".to_string()),
        Just("m2 = \"g.m2\"\n".to_string()),
        Just("missing_annotator = \"skip\"\n".to_string()),
        Just("judgments = \"j.xml\"\n".to_string()),
        Just("tokenizers = { word = \"zh\" }\n".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("\"".to_string()),
        Just("= ".to_string()),
        Just("\n".to_string()),
        "[a-z_]{0,6}",
    ]
}

#[test]
fn judgments_on_hostile_xml() {
    let systems = ["A".to_string(), "B".to_string(), "C".to_string()];
    fuzz(prop::collection::vec(xml_piece(), 0..60), |pieces| {
        if let Ok(j) = Judgments::parse(&pieces.concat(), "j.xml", &systems) {
            prop_assert!(!j.items.is_empty());
        }
        Ok(())
    });
}

#[test]
fn judgments_nested_deep() {
    fuzz(0usize..5000, |depth| {
        let text = format!(
            "{}<ranking-item src-id=\"1\"/>{}",
            "<a>".repeat(depth),
            "</a>".repeat(depth)
        );
        let _ = Judgments::parse(&text, "j.xml", &[]);
        Ok(())
    });
}

#[test]
fn descriptors_on_hostile_toml() {
    fuzz(prop::collection::vec(toml_piece(), 0..40), |pieces| {
        let _ = Descriptor::parse(&pieces.concat(), "d.toml");
        Ok(())
    });
}

#[test]
fn deeply_nested_toml_is_an_error_not_a_stack_overflow() {
    for depth in [100, 10_000, 200_000] {
        let text = format!("name = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
        assert!(Descriptor::parse(&text, "d.toml").is_err());
        let tables = format!("name = {}1{}\n", "{a = ".repeat(depth), "}".repeat(depth));
        assert!(Descriptor::parse(&tables, "d.toml").is_err());
    }
}
