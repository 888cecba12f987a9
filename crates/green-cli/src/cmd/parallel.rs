//! `green errant-parallel` (alias `errant_parallel`): an M2 file from a tokenized source file
//! and corrected files, as ERRANT 3.0.2's `errant_parallel -lev -merge all-*` writes it,
//! without spaCy. ERRANT's default alignment and its `rules` merger need a tagger, so they
//! are refused with a message rather than approximated. The edits are `green_edits::parallel`.

use anyhow::{bail, Context, Result};
use green_edits::align::Merge;
use rayon::prelude::*;

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green errant-parallel -orig SRC -cor COR... -out OUT.m2 -lev -merge all-split|all-merge|all-equal [OPTIONS]\n       green errant-parallel --para FILE -out OUT.m2 -lev -merge all-split|all-merge|all-equal [OPTIONS]",
    after_help = super::errant::ONE_DASH
)]
pub struct Args {
    /// The source file: one tokenized sentence per line.
    #[arg(
        long = "orig",
        required_unless_present = "para",
        conflicts_with = "para",
        value_name = "ORIG"
    )]
    pub orig: Option<String>,

    /// Corrected files, one per annotator, line for line with the source.
    #[arg(long = "cor", num_args = 1.., required_unless_present = "para", value_name = "COR")]
    pub cor: Vec<String>,

    /// Instead of -orig/-cor: a para file (id<TAB>source<TAB>correction..., as MuCGEC and
    /// ChERRANT's parallel_to_m2 take it; 没有错误 = the source), one annotator per column.
    #[arg(long, value_name = "FILE", conflicts_with = "cor")]
    pub para: Option<String>,

    /// Tokenizer for raw text (default: the text's own whitespace tokens, as ERRANT without
    /// -tok); e.g. `-t char` gives ChERRANT's character level for Chinese.
    #[command(flatten)]
    pub tokenizer: crate::args::TokenizerArgs,

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

/// A text file's lines as Python's text mode yields them (a byte-order mark kept, and named).
fn lines(path: &str) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    let lines = green_input::read_lines(&green_io::Input::parse(path), &mut warnings)?;
    for w in warnings {
        crate::output::warn(&w);
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
    // Per line: the source and its corrections.
    let (name, rows): (&str, Vec<(String, Vec<String>)>) = match (&args.para, &args.orig) {
        (Some(para), _) => (
            para,
            green_io::para::read(&green_io::Input::parse(para))?
                .into_iter()
                .map(|s| (s.source, s.refs))
                .collect(),
        ),
        (None, Some(orig_path)) => {
            crate::input::stdin_once(
                std::iter::once(orig_path.as_str()).chain(args.cor.iter().map(String::as_str)),
            )?;
            let orig = lines(orig_path)?;
            let cors = args
                .cor
                .iter()
                .map(|p| lines(p))
                .collect::<Result<Vec<_>>>()?;
            for (path, c) in args.cor.iter().zip(&cors) {
                if c.len() != orig.len() {
                    bail!(
                        "{path} has {} lines but {orig_path} has {}; the corrected files must match the source line for line",
                        c.len(),
                        orig.len()
                    );
                }
            }
            let rows = orig
                .into_iter()
                .enumerate()
                .map(|(i, o)| (o, cors.iter().map(|c| c[i].clone()).collect()))
                .collect();
            (orig_path, rows)
        }
        (None, None) => bail!("give -orig and -cor, or --para"),
    };
    let views: Vec<Vec<&str>> = rows
        .iter()
        .map(|(_, cors)| cors.iter().map(String::as_str).collect())
        .collect();
    let sentences: Vec<green_engine::Sentence> = rows
        .iter()
        .zip(&views)
        .map(|((source, _), cors)| green_engine::Sentence {
            source,
            refs: &[],
            hyps: cors,
        })
        .collect();
    crate::input::guard(args.tokenizer.guard(&[]), &sentences);
    for (n, (source, _)) in rows.iter().enumerate() {
        if source.trim().is_empty() {
            crate::output::warn(&format!(
                "{name}:{}: empty source line; like errant_parallel, no M2 block is written for it",
                n + 1
            ));
        }
    }
    let default = args.tokenizer.tokenizer == "word"
        && args.tokenizer.normalization == green_engine::Normalization::default()
        && args.tokenizer.plugin_config.is_none();
    let tok = if default {
        None
    } else {
        Some(args.tokenizer.build()?)
    };
    let blocks: Vec<String> = rows
        .par_iter()
        .enumerate()
        .map(|(i, (source, cors))| {
            let retok = |t: &str| match &tok {
                None => Ok(t.to_string()),
                Some(b) => green_engine::retokenize(b.as_dyn(), t).map_err(|e| {
                    anyhow::anyhow!("{name}:{}: tokenizer '{}' failed: {e}", i + 1, b.name())
                }),
            };
            let source = retok(source)?;
            let cors = cors.iter().map(|c| retok(c)).collect::<Result<Vec<_>>>()?;
            let c: Vec<&str> = cors.iter().map(String::as_str).collect();
            green_edits::parallel::block(&source, &c, merge)
                .map_err(|e| anyhow::anyhow!("{name}:{}: {e}", i + 1))
        })
        .collect::<Result<_>>()?;
    let text = blocks.concat();
    if args.out == "-" {
        crate::output::emit(&text)?;
    } else {
        crate::output::write_atomic(std::path::Path::new(&args.out), text.as_bytes())
            .with_context(|| format!("cannot write {}", args.out))?;
    }
    Ok(())
}
