//! `green gleu --variant jfleg|gec-ranking`: GLEU as Napoles' scripts print it
//! ([`green_engine::napoles`]), because JFLEG's published numbers come from JFLEG's
//! `eval/gleu.py`, not from the PyPI package that plain `green gleu` follows.
//!
//! The files are read as Python 2 reads them, so that any bytes give the script's answer:
//! lines end at `\n` only (a `\r` stays in the line, where it separates tokens), nothing is
//! decoded (a file need not be UTF-8), and tokens are split at ASCII whitespace alone
//! ([`Python2Split`] on [`latin1`] text). Only the scripts' options apply; the package's
//! (`-m`, `-v`, tokenizers, M2 references, shards) are refused rather than ignored.

use anyhow::{bail, Result};
use green_engine::gleu::GleuCounts;
use green_engine::napoles::{self, latin1, Python2Split, Script, Summary};
use green_engine::{Counter, Tokenizer};
use green_output::napoles::{gec_ranking_text, jfleg_text, Run};
use rayon::prelude::*;

use crate::cmd::gleu::{Args, Level};
use crate::output::{emit, warn};

/// The options of plain `green gleu` that a script's variant has no counterpart for, refused
/// with one line; `split` says how that script splits tokens (why `-t` is refused). Returns
/// the source file, which every variant needs.
pub(crate) fn refuse_package_options<'a>(
    args: &'a Args,
    variant: &str,
    split: &str,
) -> Result<&'a str> {
    let tokenizer = format!("-t ({split})");
    let refused = [
        (args.max, "-m/--max"),
        (args.verbose, "-v/--verbose"),
        (args.level() == Level::Mean, "--level mean"),
        (
            args.digits.is_some(),
            "-d/--digit (the script prints its own digits)",
        ),
        (args.format != "text", "--format json"),
        (args.tokenizer.tokenizer != "word", tokenizer.as_str()),
        (args.tokenizer.normalization.to_string() != "none", "--norm"),
        (
            args.ref_format != "auto" && args.ref_format != "lines",
            "--ref-format (line files only)",
        ),
        (args.stats.is_some(), "--stats"),
        (args.rows.is_some(), "--rows"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        bail!("{flag} is not an option of --variant {variant}; drop it, or score with plain green gleu");
    }
    match args.source.as_deref() {
        Some(source) => Ok(source),
        None => bail!("--variant {variant} needs the source file (-s)"),
    }
}

/// A file's lines as Python 2's file iteration gives them: split after each `\n` (which
/// is kept here only as a token separator), a last line without one included.
fn read_lines(path: &str) -> Result<Vec<Vec<u8>>> {
    let input = green_io::Input::parse(path);
    let bytes = match &input {
        green_io::Input::Path(p) => std::fs::read(p),
        green_io::Input::Stdin => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map(|_| bytes)
        }
    }
    .map_err(|source| green_io::Error::Open {
        path: path.to_owned(),
        source,
    })?;
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        lines.pop();
    }
    Ok(lines)
}

pub fn run(args: &Args) -> Result<()> {
    let variant = args.variant.as_str();
    let script = match variant {
        "jfleg" => Script::Jfleg,
        _ => Script::GecRanking,
    };
    let source_path =
        refuse_package_options(args, variant, "the scripts split at ASCII whitespace")?;
    let orders = script.orders(args.n);
    crate::input::stdin_once(
        std::iter::once(source_path)
            .chain(args.refs.iter().map(String::as_str))
            .chain(args.hyps.iter().map(String::as_str)),
    )?;
    let source = read_lines(source_path)?;
    // The scripts keep, for source line i, line i of every reference file that has one: a
    // file longer than the source fails as they load it, and so does a line no file has.
    let refs = args
        .refs
        .iter()
        .map(|path| {
            let lines = read_lines(path)?;
            if lines.len() > source.len() {
                bail!(
                    "{path} has {} lines and the source {source_path} {}; the script fails on a reference line without a source line",
                    lines.len(),
                    source.len()
                );
            }
            Ok(lines)
        })
        .collect::<Result<Vec<_>>>()?;
    let longest = refs.iter().map(Vec::len).max().unwrap_or(0);
    if longest < source.len() {
        bail!(
            "no reference has line {} of the source {source_path} (the longest has {longest}); the script fails unless some reference has a line per source line",
            longest + 1
        );
    }
    // compute_gleu makes one draw when there is one reference; eval/gleu.py always 500.
    let iterations = match script {
        Script::GecRanking if refs.len() == 1 => 1,
        _ => args.iterations,
    };
    if orders.no_sums && iterations > 0 {
        bail!(
            "compute_gleu cannot score with -n {}: its running sums have no entries (it fails with a ValueError)",
            args.n
        );
    }
    if script == Script::Jfleg && args.iterations == 0 {
        bail!("--iter: '0' is not a whole number between 1 and 100000 (0 only with --variant gec-ranking)");
    }
    let sentences = args.level() == Level::Sentence;
    crate::args::start_pool(args.threads, false, None)?;
    let mut text = String::new();
    for path in &args.hyps {
        let hyps = read_lines(path)?;
        // compute_gleu with --iter 0 and no --debug never looks at a sentence's statistics.
        let looks = iterations > 0 || sentences;
        if hyps.len() > source.len() && looks {
            bail!(
                "{path} has {} lines and the source {source_path} {}; the script fails on a hypothesis line without a source line",
                hyps.len(),
                source.len()
            );
        }
        if hyps.len() < source.len() {
            warn(&format!(
                "{path} has {} lines and the source {}: scoring its first {} sentences, as the script does",
                hyps.len(),
                source.len(),
                hyps.len()
            ));
        }
        let scored = if looks { hyps.len() } else { 0 };
        let counts = count(&source, &refs, &hyps[..scored], orders, sentences)?;
        if sentences {
            if let Some(i) = counts.iter().position(|c| c.refs < refs.len()) {
                bail!(
                    "{}: sentence {} has {} of the {} references (shorter reference files end before it); the script fails scoring it against each reference; give every reference a line per source line",
                    path,
                    i + 1,
                    counts[i].refs,
                    refs.len()
                );
            }
        }
        let scores = napoles::iteration_scores(&counts, refs.len(), orders.corpus, iterations)
            .map_err(|m| {
                anyhow::anyhow!(
                    "{path}: sentence {} has {} of the {} references (shorter reference files end before it) and iteration {} draws reference {}; the script fails there; give every reference a line per source line",
                    m.sentence + 1,
                    counts[m.sentence].refs,
                    refs.len(),
                    m.iteration + 1,
                    m.reference + 1
                )
            })?;
        let corpus = Summary::of(&scores);
        let per_sentence = sentences.then(|| {
            counts
                .iter()
                .map(|c| Summary::of(&napoles::sentence_scores(c, orders.sentence)))
                .collect()
        });
        let run = Run {
            path: path.clone(),
            corpus,
            sentences: per_sentence,
        };
        match script {
            Script::Jfleg => match jfleg_text(&run, refs.len()) {
                Some(t) => text.push_str(&t),
                None => bail!("{path} is empty: eval/gleu.py fails with one reference and --sent on a file without sentences"),
            },
            Script::GecRanking => text.push_str(&gec_ranking_text(&run)),
        }
    }
    emit(&text)?;
    Ok(())
}

/// The GLEU statistics of every hypothesis line against its source and references, in
/// parallel: the corpus orders, and for sentence scores up to the hypothesis' length
/// (higher orders add nothing to a smoothed score; see [`napoles::sentence_scores`]).
fn count(
    source: &[Vec<u8>],
    refs: &[Vec<Vec<u8>>],
    hyps: &[Vec<u8>],
    orders: napoles::Orders,
    sentences: bool,
) -> Result<Vec<GleuCounts>> {
    (0..hyps.len())
        .into_par_iter()
        .map(|i| {
            let hyp = latin1(&hyps[i]);
            let src = latin1(&source[i]);
            // Line i of each reference file long enough to have one, in order.
            let texts: Vec<_> = refs
                .iter()
                .filter_map(|r| r.get(i))
                .map(|l| latin1(l))
                .collect();
            let ref_texts: Vec<&str> = texts.iter().map(|t| t.as_ref()).collect();
            let mut n = orders.corpus;
            if sentences {
                let len = Python2Split.tokens(&hyp).map_or(0, |t| t.len());
                n = n.max(orders.sentence.min(len));
            }
            // The counter needs one order at least; order 1 costs little and is not read.
            Counter::with_local(|c| {
                c.count_gleu(&Python2Split, n.max(1), &src, &ref_texts, &[&hyp])
            })
            .map_err(|e| anyhow::anyhow!("sentence {}: {e}", i + 1))
        })
        .collect()
}
