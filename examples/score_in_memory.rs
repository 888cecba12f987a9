//! Scoring in-memory strings from Rust, the way a benchmark suite embeds green.
//!
//! Run with `cargo run --example score_in_memory`.

use green::{Config, Normalization, Normalized, Scorer, Signature, Whitespace};

fn main() -> Result<(), green::Error> {
    let sources = [
        "She go to school every days .",
        "The informations are very usefull .",
    ];
    let references = vec![
        vec![
            "She goes to school every day .",
            "The information is very useful .",
        ],
        vec![
            "She goes to school each day .",
            "This information is very useful .",
        ],
    ];
    let systems = vec![
        vec![
            "She goes to school every day .",
            "The information are very useful .",
        ],
        vec![
            "She go to school every days .",
            "The informations are very usefull .",
        ],
    ];

    // wordGREEN as the paper recommends: N = 4, beta = 2; several betas cost one pass.
    let config = Config::new(4, vec![2.0, 0.5])?;
    let scorer = Scorer::new(
        Normalized::new(Whitespace, Normalization::default()),
        config.clone(),
    );
    let eval = scorer.evaluate(&sources, &references, &systems)?;

    for (name, system) in ["fixed", "copy"].iter().zip(&eval.report.systems) {
        for b in &system.betas {
            let sig = Signature {
                n: config.n,
                betas: vec![b.beta],
                tokenizer: "word".into(),
                normalization: Normalization::default(),
                refs: references.len(),
                level: "corpus".into(),
                m2: None,
            };
            println!(
                "{name}\tbeta={}\tcorpus={:.2}\tmean={:.2}\t{sig}",
                b.beta,
                b.corpus * 100.0,
                b.mean * 100.0
            );
        }
    }
    // Sentence level: scores[beta][system] for every sentence, and the reference each one chose.
    for (i, s) in eval.sentences.iter().enumerate() {
        println!(
            "sentence {}: {:?} (refs {:?})",
            i + 1,
            s.scores[0],
            s.chosen[0]
        );
    }
    Ok(())
}
