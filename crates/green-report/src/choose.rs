//! The choices a report makes from what its caller asked for — which metrics, which length
//! buckets, which system is the baseline, whether a gold M2 file fits the corpus, how texts
//! are joined — made here once, so `green report` and Python's `green_gec.html_report` agree
//! on every default and give the same errors.

use green_engine::{Normalization, Tokenizer};

use crate::{Error, Gold, Metric, Tokens};

/// Tokenizers whose tokens are glued back without spaces (characters, Chinese, Japanese).
pub fn glued(spec: &str) -> bool {
    ["char", "zh", "ja"]
        .iter()
        .any(|p| spec == *p || spec.starts_with(&format!("{p}:")))
}

impl<'a> Tokens<'a> {
    /// How the tokenizer `spec` (as `green -t` takes it) makes tokens: system lines go to the
    /// m2scorer untouched only with the plain word tokenizer, as `green maxmatch` without -t.
    pub fn new(
        tokenizer: &'a dyn Tokenizer,
        spec: &str,
        normalization: Normalization,
        configured: bool,
    ) -> Self {
        Tokens {
            tokenizer,
            normalization,
            m2_raw: spec == "word" && normalization.is_identity() && !configured,
            join: if glued(spec) { "" } else { " " }.into(),
        }
    }
}

/// The metrics asked for (names as `--metrics` takes them, duplicates dropped), or the default:
/// GREEN, M2 when there are gold edits, ERRANT. M2 needs gold edits.
pub fn metrics(asked: &[String], gold: bool) -> Result<Vec<Metric>, Error> {
    if asked.is_empty() {
        let mut all = vec![Metric::Green];
        if gold {
            all.push(Metric::M2);
        }
        all.push(Metric::Errant);
        return Ok(all);
    }
    let mut out: Vec<Metric> = Vec::new();
    for m in asked {
        let metric: Metric = m.parse().map_err(Error)?;
        if metric == Metric::M2 && !gold {
            return Err(Error(
                "the M2 metric needs gold edits: give a gold M2 file, or an M2 file as the reference".into(),
            ));
        }
        if !out.contains(&metric) {
            out.push(metric);
        }
    }
    Ok(out)
}

/// Length buckets' lower bounds as asked (increasing, above 0), or the default for the
/// tokenizer: 10, 20, ... 60 tokens, or 20, 40, ... 120 for glued tokenizers. `flag` is how
/// the caller spells the setting in errors (`--buckets`, `buckets=`).
pub fn buckets(asked: &[usize], spec: &str, flag: &str) -> Result<Vec<usize>, Error> {
    if asked.windows(2).any(|w| w[0] >= w[1]) || asked.first() == Some(&0) {
        return Err(Error(format!(
            "{flag} must be increasing lengths above 0, e.g. 10,20,30 (got {})",
            asked
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )));
    }
    Ok(if !asked.is_empty() {
        asked.to_vec()
    } else if glued(spec) {
        vec![20, 40, 60, 80, 100, 120]
    } else {
        vec![10, 20, 30, 40, 50, 60]
    })
}

/// The baseline's index: `asked` as a label, a file as given (`paths`), or a position from 1;
/// the first system when nothing is asked. `flag` is how the caller spells the setting.
pub fn baseline(
    asked: Option<&str>,
    names: &[String],
    paths: &[String],
    flag: &str,
) -> Result<usize, Error> {
    let Some(b) = asked else {
        return Ok(0);
    };
    if let Some(i) = names.iter().position(|n| n == b) {
        return Ok(i);
    }
    if let Some(i) = paths.iter().position(|p| p == b) {
        return Ok(i);
    }
    match b.parse::<usize>() {
        Ok(k) if (1..=names.len()).contains(&k) => Ok(k - 1),
        _ => Err(Error(format!(
            "{flag} {b} is none of the systems ({}); give a label, a system's file or a position from 1",
            names.join(", ")
        ))),
    }
}

/// The gold M2 file `text` (named `path`) read as the m2scorer and as ERRANT read it, checked
/// against the corpus's `sources` (same sentences, in order), with the reader's warnings.
pub fn gold(
    text: &str,
    path: &str,
    alternatives: green_m2::Alternatives,
    sources: &[String],
) -> Result<(Gold, Vec<String>), Error> {
    let m2 = green_m2::parse_gold(text, path, alternatives).map_err(|e| Error(e.to_string()))?;
    let mut warnings = m2.warnings.clone();
    if m2.sentences.len() != sources.len() {
        return Err(Error(format!(
            "{path} has {} sentences but the corpus has {}; the gold file must describe the same sentences",
            m2.sentences.len(),
            sources.len()
        )));
    }
    let split = |s: &str| {
        green_edits::m2::split(s)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    if let Some(i) =
        (0..sources.len()).find(|&i| split(&m2.sentences[i].source) != split(&sources[i]))
    {
        return Err(Error(format!(
            "sentence {} of {path} has another source than the corpus's sentence {}; the gold file must describe the same sentences, in order",
            i + 1,
            i + 1
        )));
    }
    let typed = match green_edits::parse(text, path) {
        Ok(doc) => Some(doc),
        Err(e) => {
            warnings.push(format!("gold categories left out: {e}"));
            None
        }
    };
    Ok((
        Gold {
            path: path.to_string(),
            m2,
            typed,
        },
        warnings,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_gold_and_the_tokenizer() {
        let names = |m: Vec<Metric>| m.iter().map(|m| m.name()).collect::<Vec<_>>();
        assert_eq!(names(metrics(&[], false).unwrap()), ["GREEN", "ERRANT"]);
        assert_eq!(
            names(metrics(&[], true).unwrap()),
            ["GREEN", "M2", "ERRANT"]
        );
        let asked = ["cleme".to_string(), "green".into(), "CLEME".into()];
        assert_eq!(names(metrics(&asked, false).unwrap()), ["CLEME", "GREEN"]);
        assert!(metrics(&["m2".into()], false).is_err());
        assert!(metrics(&["bleu".into()], true).is_err());
        assert_eq!(buckets(&[], "word", "b").unwrap(), [10, 20, 30, 40, 50, 60]);
        assert_eq!(buckets(&[], "zh:char", "b").unwrap()[0], 20);
        assert_eq!(buckets(&[5, 9], "ja", "b").unwrap(), [5, 9]);
        assert!(buckets(&[9, 5], "word", "b").is_err());
        assert!(buckets(&[0, 5], "word", "b").is_err());
        assert!(glued("char") && glued("ja") && !glued("word") && !glued("charlie"));
    }

    #[test]
    fn the_baseline_is_a_label_a_file_or_a_position() {
        let names = ["a".to_string(), "b".into(), "2".into()];
        let paths = ["x/a.txt".to_string(), "x/b.txt".into(), "x/c.txt".into()];
        assert_eq!(baseline(None, &names, &paths, "b").unwrap(), 0);
        assert_eq!(baseline(Some("b"), &names, &paths, "b").unwrap(), 1);
        assert_eq!(baseline(Some("x/c.txt"), &names, &paths, "b").unwrap(), 2);
        // A label wins over a position.
        assert_eq!(baseline(Some("2"), &names, &paths, "b").unwrap(), 2);
        assert_eq!(baseline(Some("1"), &names, &paths, "b").unwrap(), 0);
        assert!(baseline(Some("4"), &names, &paths, "b").is_err());
        assert!(baseline(Some("z"), &names, &[], "b").is_err());
    }

    #[test]
    fn a_gold_file_must_describe_the_corpus() {
        let text = "S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\n";
        let sources = ["a b c".to_string()];
        let (gold, warnings) = gold(text, "g.m2", Default::default(), &sources).unwrap();
        assert!(warnings.is_empty() && gold.typed.is_some());
        let other = ["a b d".to_string()];
        let e = super::gold(text, "g.m2", Default::default(), &other)
            .err()
            .expect("refused");
        assert!(e.0.contains("sentence 1 of g.m2"), "{e}");
        let two = ["a b c".to_string(), "d".into()];
        let e = super::gold(text, "g.m2", Default::default(), &two)
            .err()
            .expect("refused");
        assert!(e.0.contains("has 1 sentences but the corpus has 2"), "{e}");
    }
}
