//! `green gleu --variant gec-metrics`: GLEU as gec-metrics' `GLEU` class scores it
//! ([`green_engine::gec_metrics_gleu`]), the numbers of gec-metrics' README and of the
//! rating-based-aggregation paper, which green's own GLEU does not give (it clips each
//! sentence's numerator at 0).
//!
//! The files are read as `gecmetrics-eval` reads them: the whole text stripped of trailing
//! whitespace, split at `\n`, each line stripped (Python's `str.strip`). Text output is its
//! line per system; `--level sentence` prints one score per sentence.

use anyhow::{bail, Result};
use green_engine::gec_metrics_gleu::{corpus_score, count, sentence_score, SentenceStats};
use rayon::prelude::*;

use crate::cmd::gleu::{Args, Level};
use crate::output::emit;

/// Python's `str.isspace` for one character.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// `open(path).read().rstrip().split('\n')`, each line `.strip()`ped.
fn read_lines(path: &str) -> Result<Vec<String>> {
    let text = crate::input::read_text(path)?;
    Ok(text
        .trim_end_matches(py_space)
        .split('\n')
        .map(|l| l.trim_matches(py_space).to_owned())
        .collect())
}

pub fn run(args: &Args) -> Result<()> {
    let source_path = crate::cmd::napoles::refuse_package_options(
        args,
        "gec-metrics",
        "gec-metrics splits at single spaces",
    )?;
    let n = match usize::try_from(args.n) {
        Ok(n) if (1..=100).contains(&n) => n,
        _ => bail!("-n: '{}' is not a whole number between 1 and 100", args.n),
    };
    if args.iterations == 0 {
        bail!("--iter: '0' is not a whole number between 1 and 100000 (0 only with --variant gec-ranking)");
    }
    crate::input::stdin_once(
        std::iter::once(source_path)
            .chain(args.refs.iter().map(String::as_str))
            .chain(args.hyps.iter().map(String::as_str)),
    )?;
    let source = read_lines(source_path)?;
    let refs = args
        .refs
        .iter()
        .map(|path| {
            let lines = read_lines(path)?;
            if lines.len() != source.len() {
                bail!(
                    "{path} has {} lines and the source {source_path} {}; give every reference a line per source line",
                    lines.len(),
                    source.len()
                );
            }
            Ok(lines)
        })
        .collect::<Result<Vec<_>>>()?;
    crate::args::start_pool(args.threads, false, None)?;
    let mut text = String::new();
    for path in &args.hyps {
        let hyps = read_lines(path)?;
        if hyps.len() != source.len() {
            bail!(
                "{path} has {} lines and the source {source_path} {}; give the system a line per source line",
                hyps.len(),
                source.len()
            );
        }
        let counts: Vec<SentenceStats> = (0..hyps.len())
            .into_par_iter()
            .map(|i| {
                let r: Vec<&str> = refs.iter().map(|f| f[i].as_str()).collect();
                count(n, &source[i], &r, &hyps[i])
            })
            .collect();
        if args.level() == Level::Sentence {
            for c in &counts {
                text.push_str(&format!("{:?}\n", sentence_score(c)));
            }
        } else {
            let all: Vec<&SentenceStats> = counts.iter().collect();
            let score = corpus_score(&all, args.iterations as u64);
            text.push_str(&format!(
                "Score={score:?} | Metric=gleu | hyp_file={path}\n"
            ));
        }
    }
    emit(&text)
}
