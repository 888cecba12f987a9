//! `green errant-parallel` (alias `errant_parallel`): an M2 file from a tokenized source file
//! and corrected files, as ERRANT 3.0.2's `errant_parallel -lev -merge all-*` writes it,
//! without spaCy. ERRANT's default alignment and its `rules` merger need a tagger, so they
//! are refused with a message rather than approximated. The edits are `green_edits::parallel`.

use anyhow::{bail, Context, Result};
use green_edits::align::Merge;
use rayon::prelude::*;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The source file: one tokenized sentence per line.
    #[arg(long = "orig", required = true, value_name = "ORIG")]
    pub orig: String,

    /// Corrected files, one per annotator, line for line with the source.
    #[arg(long = "cor", num_args = 1.., required = true, value_name = "COR")]
    pub cor: Vec<String>,

    /// The M2 file to write (`-` for standard output).
    #[arg(long = "out", required = true, value_name = "OUT")]
    pub out: String,

    /// Align with plain Levenshtein costs (required: ERRANT's default cost needs a tagger).
    #[arg(long)]
    pub lev: bool,

    /// all-split (every non-match an edit), all-merge (adjacent non-matches merged) or
    /// all-equal (adjacent non-matches of one kind merged).
    #[arg(long, value_name = "MERGER", value_parser = |s: &str| s.parse::<Merge>())]
    pub merge: Option<Merge>,
}

/// A text file's lines as Python's text mode yields them.
fn lines(path: &str) -> Result<Vec<String>> {
    let text = super::maxmatch::read_text(path)?;
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Ok(lines)
}

pub fn run(args: &Args) -> Result<()> {
    if !args.lev {
        bail!("ERRANT's default alignment weighs lemmas and parts of speech, which need a tagger; pass -lev for the tagger-free Levenshtein alignment");
    }
    let Some(merge) = args.merge else {
        bail!("ERRANT's default merger (rules) needs a tagger; pass -merge all-split, all-merge or all-equal");
    };
    let orig = lines(&args.orig)?;
    let cors = args
        .cor
        .iter()
        .map(|p| lines(p))
        .collect::<Result<Vec<_>>>()?;
    for (path, c) in args.cor.iter().zip(&cors) {
        if c.len() != orig.len() {
            bail!(
                "{path} has {} lines but {} has {}; the corrected files must match the source line for line",
                c.len(),
                args.orig,
                orig.len()
            );
        }
    }
    for (n, line) in orig.iter().enumerate() {
        if line.trim().is_empty() {
            eprintln!(
                "warning: {}:{}: empty source line; like errant_parallel, no M2 block is written for it",
                args.orig,
                n + 1
            );
        }
    }
    let blocks: Vec<String> = (0..orig.len())
        .into_par_iter()
        .map(|i| {
            let c: Vec<&str> = cors.iter().map(|f| f[i].as_str()).collect();
            green_edits::parallel::block(&orig[i], &c, merge)
        })
        .collect();
    let text = blocks.concat();
    if args.out == "-" {
        crate::output::emit(&text)?;
    } else {
        crate::output::write_atomic(std::path::Path::new(&args.out), text.as_bytes())
            .with_context(|| format!("cannot write {}", args.out))?;
    }
    Ok(())
}
