//! `green errant-parallel` (alias `errant_parallel`): an M2 file from a tokenized source file
//! and corrected files, as ERRANT 3.0.2's `errant_parallel` writes it. With `--annotations`
//! (a tagger's CoNLL-U for each file) it is ERRANT's whole pipeline, typed edits and all
//! (`green_edits::typed`); without, only `-lev -merge all-*`, whose edits need no tagger
//! (`green_edits::parallel`): ERRANT's default alignment and `rules` merger are refused with a
//! message rather than approximated.

use anyhow::{bail, Context, Result};
use std::ops::Range;

use green_edits::conllu::Sentence;
use green_edits::typed::{line_sentences, Classifier, Merger};
use green_engine::CollectInOrder;
use rayon::prelude::*;

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green errant-parallel -orig SRC -cor COR... --annotations SRC.conllu COR.conllu... -out OUT.m2 [-lev] [-merge rules|all-split|all-merge|all-equal]\n       green errant-parallel -orig SRC -cor COR... -out OUT.m2 -lev -merge all-split|all-merge|all-equal [OPTIONS]\n       green errant-parallel --para FILE -out OUT.m2 -lev -merge all-split|all-merge|all-equal [OPTIONS]",
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

    /// A tagger's CoNLL-U for each file, the source's first, then each corrected file's
    /// (UDPipe, Stanza, spaCy + spacy-conll): its sentences in line order, one or more per
    /// non-empty line, whose words are the line's tokens. Gives ERRANT's default alignment,
    /// the rules merger and typed edits (R:VERB:SVA, M:DET...).
    #[arg(long, num_args = 1.., value_name = "FILE.conllu", conflicts_with = "para")]
    pub annotations: Vec<String>,

    /// The error-type classifier for --annotations: `english` (ERRANT 3.0.2: Penn Treebank
    /// tags in XPOS) or `ud` (MultiGEC-2025's cainesap/errant: XPOS read through a UD tag
    /// map, a tag outside it typed as X with the dependency `dep`).
    #[arg(long, value_name = "NAME", default_value = "english", value_parser = ["english", "ud"], requires = "annotations")]
    pub classifier: String,

    /// Align with plain Levenshtein costs (required without --annotations: ERRANT's default
    /// cost weighs lemmas and parts of speech).
    #[arg(long)]
    pub lev: bool,

    /// rules (ERRANT's default; needs --annotations), all-split (every non-match an edit),
    /// all-merge (adjacent non-matches merged) or all-equal (adjacent non-matches of one kind
    /// merged).
    #[arg(long, value_name = "MERGER", value_parser = |s: &str| s.parse::<Merger>())]
    pub merge: Option<Merger>,
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
    if !args.annotations.is_empty() {
        return typed(args);
    }
    if !args.lev {
        bail!("ERRANT's default alignment weighs lemmas and parts of speech, which need a tagger; give its CoNLL-U with --annotations, or pass -lev for the tagger-free Levenshtein alignment");
    }
    let merge = match args.merge {
        Some(Merger::All(m)) => m,
        _ => bail!("ERRANT's default merger (rules) needs a tagger; give its CoNLL-U with --annotations, or pass -merge all-split, all-merge or all-equal"),
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
        .collect_in_order()?;
    write(args, &blocks.concat())
}

/// ERRANT's whole pipeline on the tagger's annotations of every file.
fn typed(args: &Args) -> Result<()> {
    let Some(orig_path) = &args.orig else {
        bail!("--annotations goes with -orig and -cor (one CoNLL-U file for each)");
    };
    if args.tokenizer.tokenizer != "word"
        || args.tokenizer.normalization != green_engine::Normalization::default()
        || args.tokenizer.plugin_config.is_some()
    {
        bail!("--annotations takes the text as the tagger tokenized it (the CoNLL-U words are the line's tokens); leave out the tokenizer options");
    }
    let paths: Vec<&String> = std::iter::once(orig_path).chain(&args.cor).collect();
    if args.annotations.len() != paths.len() {
        bail!(
            "{} CoNLL-U files for {} text files; --annotations takes one for -orig, then one for each -cor file, in that order",
            args.annotations.len(),
            paths.len()
        );
    }
    crate::input::stdin_once(
        paths
            .iter()
            .map(|p| p.as_str())
            .chain(args.annotations.iter().map(String::as_str)),
    )?;
    if rayon::current_num_threads() == 1 {
        one_arena();
    }
    // Each file's lines and CoNLL-U text (mapped), in parallel; then which sentences make each
    // line. Docs are made in the blocks, only for lines that are aligned.
    let texts: Vec<(Vec<String>, green_io::Text)> = paths
        .par_iter()
        .zip(&args.annotations)
        .map(|(path, conllu_path)| anyhow::Ok((lines(path)?, crate::input::map_text(conllu_path)?)))
        .collect_in_order()?;
    crate::input::name_texts(
        args.annotations
            .iter()
            .zip(&texts)
            .map(|(name, (_, text))| (name.as_str(), &**text)),
    );
    let files: Vec<AnnotatedFile> = texts
        .par_iter()
        .zip(paths.par_iter().zip(&args.annotations))
        .map(|((lines, text), (path, conllu_path))| {
            let sentences = green_edits::conllu::parse(text, conllu_path)?;
            let ranges = line_sentences(lines, &sentences, path, conllu_path)?;
            anyhow::Ok(AnnotatedFile {
                lines,
                sentences,
                ranges,
            })
        })
        .collect_in_order()?;
    let orig = &files[0].lines;
    for (path, c) in args.cor.iter().zip(&files[1..]) {
        if c.lines.len() != orig.len() {
            bail!(
                "{path} has {} lines but {orig_path} has {}; the corrected files must match the source line for line",
                c.lines.len(),
                orig.len()
            );
        }
    }
    for (n, source) in orig.iter().enumerate() {
        if source.trim().is_empty() {
            crate::output::warn(&format!(
                "{orig_path}:{}: empty source line; like errant_parallel, no M2 block is written for it",
                n + 1
            ));
        }
    }
    let merger = args.merge.unwrap_or(Merger::Rules);
    let classifier = if args.classifier == "ud" {
        Classifier::ud()
    } else {
        Classifier::english()
    };
    let blocks: Vec<String> = (0..orig.len())
        .into_par_iter()
        .map(|i| {
            let cors: Vec<(&str, &[Sentence])> = files[1..]
                .iter()
                .map(|f| (f.lines[i].as_str(), f.line(i)))
                .collect();
            green_edits::typed::block(
                &orig[i],
                files[0].line(i),
                &cors,
                args.lev,
                merger,
                &classifier,
            )
            .map_err(|e| anyhow::anyhow!("{orig_path}:{}: {e}", i + 1))
        })
        .collect_in_order()?;
    write(args, &blocks.concat())
}

/// A text file's lines, the sentences of its CoNLL-U, and which of them make each line.
struct AnnotatedFile<'a> {
    lines: &'a [String],
    sentences: Vec<Sentence<'a>>,
    ranges: Vec<Range<usize>>,
}

impl AnnotatedFile<'_> {
    /// The sentences of line `i`.
    fn line(&self, i: usize) -> &[Sentence<'_>] {
        &self.sentences[self.ranges[i].clone()]
    }
}

/// glibc gives each thread its own arena, which grows a page at a time, each step an
/// `mprotect` call: for the ~20 MB of Docs and tables a CoNLL-2014 system needs, a third of
/// a one-thread run. One arena for all threads (the main one, grown by `brk` in large steps)
/// before the pool's thread first allocates: the same output, AMU 51 → 42 ms. Only with one
/// worker: two threads on one arena wait on its lock (AMU 34.5 → 57.5 ms).
fn one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes the allocator's lock and only sets one of its parameters.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

fn write(args: &Args, text: &str) -> Result<()> {
    if args.out == "-" {
        crate::output::emit(text)?;
    } else {
        crate::output::write_atomic(std::path::Path::new(&args.out), text.as_bytes())
            .with_context(|| format!("cannot write {}", args.out))?;
    }
    Ok(())
}
