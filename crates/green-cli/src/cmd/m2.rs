//! `green m2`: turn an M2 file into the line files every GEC scorer reads.
//!
//! Writes the sources and one reference file per annotator (plain M2) or per reference
//! (`T<ref>-A<alt>` target lines), so M2-only test sets can be scored by `green -s -r -c` and
//! by any other tool. The conversion is `green_io::m2`'s; on CoNLL-2014 it reproduces the
//! official `ref0.txt`/`ref1.txt` byte for byte.

use std::path::Path;

use anyhow::{bail, Context, Result};
use green_io::{m2, Input};

/// Plain M2 gives one reference per annotator, target lines one per `T<ref>`; a sentence with
/// fewer references than the most any sentence has repeats its first one in the missing files,
/// which leaves GREEN's scores unchanged (GREEN keeps the best reference per sentence).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The M2 file (`-` for standard input).
    #[arg(value_name = "FILE.m2")]
    pub input: String,

    /// Directory to write source.txt and ref0.txt, ref1.txt, ... into (created if missing).
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "prefix",
        required_unless_present = "prefix"
    )]
    pub out_dir: Option<String>,

    /// Prefix of the output files: PREFIXsource.txt, PREFIXref0.txt, ... (e.g. `out/conll14.`).
    #[arg(short = 'o', long, value_name = "PREFIX")]
    pub prefix: Option<String>,

    /// Do not write the source file.
    #[arg(long)]
    pub no_source: bool,

    /// Which annotators are a sentence's references: skip (only those with a line in its
    /// block, as the m2scorer; a sentence with fewer references repeats its first) or source
    /// (every annotator; a missing one gives the source, as CoNLL-14's official ref1.txt).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: green_io::m2::MissingAnnotator,
}

pub fn run(args: &Args) -> Result<()> {
    let parsed = m2::read(&Input::parse(&args.input))?;
    if parsed.sentences.is_empty() {
        bail!(
            "{}: no sentence found; an M2 file is blocks of an 'S' line and its 'A' lines",
            parsed.name
        );
    }
    let prefix = match (&args.out_dir, &args.prefix) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create directory {dir}"))?;
            Path::new(dir).join("").to_string_lossy().into_owned()
        }
        (None, Some(p)) => p.clone(),
        (None, None) => bail!("give --out-dir DIR or -o PREFIX"),
    };
    for w in parsed.warnings() {
        crate::output::warn(&w);
    }
    let corpus = green_io::Corpus {
        sources: Some(parsed.sources()),
        refs: parsed.references(args.missing_annotator),
        warnings: Vec::new(),
    };
    // Every file is written whole before any is renamed into place: a run that fails leaves
    // the previous set, not a mix of old and new files.
    let mut files = crate::output::FileSet::default();
    let mut written = Vec::new();
    let mut add = |path: String, lines: &mut dyn Iterator<Item = &String>| {
        files.add(
            &path,
            lines
                .flat_map(|l| [l.as_str(), "\n"])
                .collect::<String>()
                .into_bytes(),
        );
        written.push(path);
    };
    if !args.no_source {
        add(
            format!("{prefix}source.txt"),
            &mut corpus.sources.iter().flatten(),
        );
    }
    for (k, set) in corpus.as_ref_sets().iter().enumerate() {
        add(format!("{prefix}ref{k}.txt"), &mut set.iter());
    }
    files.write()?;
    let max = corpus.max_refs();
    let fewer = corpus.refs.iter().filter(|r| r.len() < max).count();
    crate::output::note(&format!(
        "green m2: {} sentences, {max} reference(s){}: wrote {}",
        corpus.refs.len(),
        if fewer > 0 {
            format!(" ({fewer} sentences have fewer; their missing references repeat their first)")
        } else {
            String::new()
        },
        written.join(" ")
    ));
    Ok(())
}
