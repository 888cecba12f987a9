//! The `green` facade: the in-memory API a benchmark suite calls, on vectors A and C of the
//! reference implementation (retyped), plus error cases.

use green::{Chars, Config, Normalization, Normalized, Scorer, Sentence, Whitespace};

const SRC: [&str; 4] = [
    "This sentences contain gramamtical error .",
    "This is a sentence .",
    "This is no change .",
    "I bought a pen to write a letter to a friend .",
];
const HYP: [&str; 4] = [
    "This sentence contains a grammatical error .",
    "the sentence was corrected into completely different one .",
    "This is no change .",
    "I bought a pen to write a letter to a friend .",
];
const REF0: [&str; 4] = [
    "This sentence contains a gramamtical error .",
    "dummy sentence .",
    "This is no change .",
    "I bought a pen to write a letter to the friend .",
];
const REF1: [&str; 4] = [
    "These sentences contain grammatical errors .",
    "another dummy sentence .",
    "This is no change .",
    "I bought a pen to write the letter to the friend .",
];

fn close(x: f64, want: f64, digits: i32) {
    assert!(
        (x * 100.0 - want).abs() <= 0.5 * 10f64.powi(-digits),
        "{} vs {want}",
        x * 100.0
    );
}

#[test]
fn vector_a_through_the_api() {
    let scorer = Scorer::new(Whitespace, Config::new(4, vec![0.5, 1.0, 2.0]).unwrap());
    let eval = scorer
        .evaluate(&SRC, &[REF0.to_vec(), REF1.to_vec()], &[HYP.to_vec()])
        .unwrap();
    let betas = &eval.report.systems[0].betas;
    close(betas[0].corpus, 67.353281939, 9);
    close(betas[1].corpus, 69.530193, 6);
    close(betas[2].corpus, 71.852523832, 9);
    close(betas[0].mean, 72.669123030, 9);
    close(betas[2].mean, 75.877934680, 9);
    let want = [
        [67.080695, 70.581496, 74.467815],
        [34.099683, 43.743232, 60.992075],
        [100.0, 100.0, 100.0],
        [89.496114, 77.314563, 68.051848],
    ];
    for (s, w) in eval.sentences.iter().zip(want) {
        for (by_system, want) in s.scores.iter().zip(w) {
            close(by_system[0], want, 6);
        }
    }
    let counts: Vec<(u64, u64, u64)> = betas[2]
        .orders
        .iter()
        .map(|o| (o.tp, o.fp, o.fn_))
        .collect();
    assert_eq!(counts, [(29, 9, 3), (23, 12, 6), (18, 11, 9), (14, 9, 9)]);
}

#[test]
fn vector_a_chars_and_per_sentence_references() {
    let scorer = Scorer::new(Chars::default(), Config::new(4, vec![1.0]).unwrap());
    let eval = scorer
        .evaluate(&SRC, &[REF0.to_vec(), REF1.to_vec()], &[HYP.to_vec()])
        .unwrap();
    close(eval.report.systems[0].betas[0].corpus, 79.124351, 6);
    // Sentences may carry different numbers of references.
    let refs: Vec<Vec<&str>> = (0..4)
        .map(|i| {
            if i % 2 == 0 {
                vec![REF0[i], REF1[i]]
            } else {
                vec![REF0[i]]
            }
        })
        .collect();
    let hyps: Vec<Vec<&str>> = HYP.iter().map(|h| vec![*h]).collect();
    let sentences: Vec<Sentence> = (0..4)
        .map(|i| Sentence {
            source: SRC[i],
            refs: &refs[i],
            hyps: &hyps[i],
        })
        .collect();
    let varied = scorer.evaluate_sentences(&sentences, 1).unwrap();
    assert_eq!(varied.sentences[0], eval.sentences[0]);
    assert!(varied.sentences[1].scores[0][0] <= eval.sentences[1].scores[0][0]);
}

#[test]
fn normalisation_filter_and_errors() {
    let nfkc = Normalized::new(Whitespace, "nfkc+lower".parse::<Normalization>().unwrap());
    let scorer = Scorer::new(nfkc, Config::new(2, vec![1.0]).unwrap());
    let eval = scorer
        .evaluate(&["ＡＢ ｃ"], &[vec!["ab c"]], &[vec!["AB C"]])
        .unwrap();
    close(eval.report.systems[0].betas[0].corpus, 100.0, 9);
    assert!(Config::new(0, vec![1.0]).is_err());
    assert!(Config::new(4, vec![f64::NAN]).is_err());
    assert!(Config::new(4, vec![-0.5]).is_err());
    let plain = Scorer::new(Whitespace, Config::new(4, vec![1.0]).unwrap());
    let err = plain
        .evaluate(&["a", "b"], &[vec!["a"]], &[vec!["a", "b"]])
        .unwrap_err()
        .to_string();
    assert_eq!(err, "reference 1 has 1 lines but the source has 2");
    let none: Vec<Vec<&str>> = vec![];
    assert_eq!(
        plain
            .evaluate(&["a"], &none, &[vec!["a"]])
            .unwrap_err()
            .to_string(),
        "no references given"
    );
    // An empty corpus scores 0 for every system rather than failing or panicking.
    let empty: [&str; 0] = [];
    let eval = plain
        .evaluate(&empty, &[vec![]], &[vec![], vec![]])
        .unwrap();
    assert_eq!(eval.report.systems.len(), 2);
    assert_eq!(eval.report.systems[1].betas[0].corpus, 0.0);
    assert_eq!(eval.report.sentences, 0);
}
