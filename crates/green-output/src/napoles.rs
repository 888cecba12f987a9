//! The text Napoles' GLEU scripts print ([`green_engine::napoles`]), byte for byte as
//! Python 2.7 prints it, so that a published JFLEG table can be checked by `diff`:
//! JFLEG's `eval/gleu.py` prints each hypothesis path and then Python's `repr` of its list of
//! `[mean, std, interval]` string triples; `compute_gleu` prints the file's base name and
//! the mean, or with `-d` a table per sentence and the overall line.

use green_engine::napoles::Summary;

/// One hypothesis file's results: the corpus summary over the iterations, and with
/// sentence output each sentence's summary over its references.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub path: String,
    pub corpus: Summary,
    pub sentences: Option<Vec<Summary>>,
}

/// Python's `'%.{digits}f' % x`: correctly rounded, ties to even, as Rust's `{:.digits}`;
/// NaN is `nan` (whatever its sign bit) and the infinities `inf` and `-inf`.
pub fn python_f(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:.digits$}")
    }
}

/// The scripts' `get_gleu_stats`: `['%f' % mean, '%f' % std, '(%.3f,%.3f)' % interval]`.
pub fn triple(s: &Summary) -> [String; 3] {
    [
        python_f(s.mean, 6),
        python_f(s.std, 6),
        format!("({},{})", python_f(s.low, 3), python_f(s.high, 3)),
    ]
}

/// Python 2's `repr` of a list of triples (every string in them is plain ASCII without
/// quotes, so each is itself in single quotes).
fn repr_triples(rows: &[[String; 3]]) -> String {
    let inner: Vec<String> = rows
        .iter()
        .map(|t| format!("['{}', '{}', '{}']", t[0], t[1], t[2]))
        .collect();
    format!("[{}]", inner.join(", "))
}

/// What JFLEG's `eval/gleu.py` prints for one hypothesis file scored against `refs`
/// references: the path, then the triples of every sentence (`--sent`) or of the corpus
/// as a list; with one reference a note and the first triple's mean alone. `None` where
/// the script fails: one reference, `--sent` and no sentence (an IndexError).
pub fn jfleg_text(run: &Run, refs: usize) -> Option<String> {
    let rows: Vec<[String; 3]> = match &run.sentences {
        Some(sentences) => sentences.iter().map(triple).collect(),
        None => vec![triple(&run.corpus)],
    };
    let body = if refs == 1 {
        let [mean, ..] = rows.into_iter().next()?;
        format!("There is one reference. NOTE: GLEU is not computing the confidence interval.\n{mean}\n")
    } else {
        format!("{}\n", repr_triples(&rows))
    };
    Some(format!("{}\n{body}", run.path))
}

/// What gec-ranking's `compute_gleu` prints for one hypothesis file: `basename mean`, or with
/// `-d` (`sentences` given) a header, a line per sentence (numbered from 0) and the overall
/// triple.
pub fn gec_ranking_text(run: &Run) -> String {
    let Some(sentences) = &run.sentences else {
        // `print name,` then `print mean`: the soft space goes between, unless the name ends
        // in whitespace other than a space.
        let name = basename(&run.path);
        let space = match name.as_bytes().last() {
            Some(b'\t' | b'\n' | 0x0b | 0x0c | b'\r') => "",
            _ => " ",
        };
        return format!("{name}{space}{}\n", python_f(run.corpus.mean, 6));
    };
    let mut out = String::from("\n===== Sentence-level scores =====\nSID Mean Stdev 95%CI GLEU\n");
    for (i, s) in sentences.iter().enumerate() {
        out.push_str(&format!("{i} {}\n", triple(s).join(" ")));
    }
    out.push_str("\n==== Overall score =====\nMean Stdev 95%CI GLEU\n");
    out.push_str(&triple(&run.corpus).join(" "));
    out.push('\n');
    out
}

/// Python's `os.path.basename`: everything after the last `/`.
fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(mean: f64, std: f64, low: f64, high: f64) -> Summary {
        Summary {
            mean,
            std,
            low,
            high,
        }
    }

    #[test]
    fn formats_as_python_percent_f() {
        assert_eq!(python_f(0.0625, 3), "0.062");
        assert_eq!(python_f(-0.0004, 3), "-0.000");
        assert_eq!(python_f(f64::NAN, 6), "nan");
        assert_eq!(python_f(-f64::NAN, 3), "nan");
        assert_eq!(python_f(0.5, 6), "0.500000");
    }

    #[test]
    fn jfleg_prints_a_list_or_the_mean() {
        let run = Run {
            path: "dir/hyp.txt".into(),
            corpus: summary(0.382146, 0.009891, 0.3627, 0.4015),
            sentences: None,
        };
        assert_eq!(
            jfleg_text(&run, 4).unwrap(),
            "dir/hyp.txt\n[['0.382146', '0.009891', '(0.363,0.402)']]\n"
        );
        assert_eq!(
            jfleg_text(&run, 1).unwrap(),
            "dir/hyp.txt\nThere is one reference. NOTE: GLEU is not computing the confidence interval.\n0.382146\n"
        );
        let flat = summary(0.5, 0.0, f64::NAN, f64::NAN);
        let run = Run {
            sentences: Some(vec![flat, flat]),
            ..run
        };
        assert_eq!(
            jfleg_text(&run, 2).unwrap(),
            "dir/hyp.txt\n[['0.500000', '0.000000', '(nan,nan)'], ['0.500000', '0.000000', '(nan,nan)']]\n"
        );
        let empty = Run {
            sentences: Some(vec![]),
            ..run
        };
        assert_eq!(jfleg_text(&empty, 2).unwrap(), "dir/hyp.txt\n[]\n");
        assert_eq!(jfleg_text(&empty, 1), None);
    }

    #[test]
    fn gec_ranking_prints_the_base_name_or_a_table() {
        let mut run = Run {
            path: "dir/hyp.txt".into(),
            corpus: summary(0.25, 0.0, f64::NAN, f64::NAN),
            sentences: None,
        };
        assert_eq!(gec_ranking_text(&run), "hyp.txt 0.250000\n");
        run.path = "dir/".into();
        assert_eq!(gec_ranking_text(&run), " 0.250000\n");
        run.path = "a\t".into();
        assert_eq!(gec_ranking_text(&run), "a\t0.250000\n");
        run.sentences = Some(vec![summary(1.0, 0.0, f64::NAN, f64::NAN)]);
        assert_eq!(
            gec_ranking_text(&run),
            "\n===== Sentence-level scores =====\nSID Mean Stdev 95%CI GLEU\n\
             0 1.000000 0.000000 (nan,nan)\n\n==== Overall score =====\nMean Stdev 95%CI GLEU\n\
             0.250000 0.000000 (nan,nan)\n"
        );
    }
}
