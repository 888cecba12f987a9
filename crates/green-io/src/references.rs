//! References from any supported file: line files, M2 and para TSV, behind one call.
//!
//! Wherever a tool reads references it calls [`load`] (one file) or [`load_all`] (several
//! `-r` arguments), so every format works everywhere. The result is per sentence because M2
//! with target lines and para files give each sentence its own number of references.

use std::path::Path;

use crate::lines::{read_lines, Input};
use crate::{m2, para, Error};

/// How a reference file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One reference per line (the reference implementation's format).
    Lines,
    /// M2 edits, plain or with `T<ref>-A<alt>` target lines.
    M2,
    /// `id<TAB>source<TAB>ref1<TAB>ref2...`.
    Para,
    /// MultiGEC-2025 Markdown essays (see [`crate::multigec`]), aligned with the original file.
    MultiGec,
}

impl Format {
    /// The names accepted by [`Format::parse`], for help texts.
    pub const NAMES: &'static [&'static str] = &["auto", "lines", "m2", "para", "multigec"];

    /// Parse a format name; `auto` gives `None` (detect from the file name).
    pub fn parse(name: &str) -> Result<Option<Format>, Error> {
        match name {
            "auto" => Ok(None),
            "lines" => Ok(Some(Format::Lines)),
            "m2" => Ok(Some(Format::M2)),
            "para" | "tsv" => Ok(Some(Format::Para)),
            "multigec" | "md" => Ok(Some(Format::MultiGec)),
            other => Err(Error::Other(format!(
                "unknown reference format '{other}'; use one of {}",
                Format::NAMES.join(", ")
            ))),
        }
    }

    /// Guess from the file name: a `.m2` suffix, or `.m2.` inside it (`x.m2.char`) → M2;
    /// `.para` or `.tsv` → para; `.md` → MultiGEC; anything else (and `-`) → lines.
    pub fn detect(name: &str) -> Format {
        let file = Path::new(name)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or(name)
            .to_ascii_lowercase();
        if file.ends_with(".m2") || file.contains(".m2.") {
            Format::M2
        } else if file.ends_with(".para") || file.ends_with(".tsv") {
            Format::Para
        } else if file.ends_with(".md") {
            Format::MultiGec
        } else {
            Format::Lines
        }
    }
}

/// References of a corpus, per sentence.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Corpus {
    /// The sources, when the file carries them (M2 and para do, line files do not).
    pub sources: Option<Vec<String>>,
    /// `refs[sentence]` holds that sentence's references, at least one each.
    pub refs: Vec<Vec<String>>,
    /// Doubts found while reading (see [`m2::M2::warnings`]), for the caller to print.
    pub warnings: Vec<String>,
}

impl Corpus {
    /// The largest number of references any sentence has.
    pub fn max_refs(&self) -> usize {
        self.refs.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Line-file view: `k`-th reference of every sentence, for `k < max_refs()`. A sentence
    /// with fewer references repeats its first one, which leaves GREEN's scores unchanged
    /// (GREEN keeps the best reference of each sentence, and a copy ties with its original).
    pub fn as_ref_sets(&self) -> Vec<Vec<String>> {
        (0..self.max_refs())
            .map(|k| {
                self.refs
                    .iter()
                    .map(|r| r.get(k).unwrap_or(&r[0]).clone())
                    .collect()
            })
            .collect()
    }
}

/// Read the references in one file; `format: None` detects it with [`Format::detect`].
/// `missing` decides which annotators of a plain M2 file are references (see
/// [`m2::MissingAnnotator`]); other formats ignore it.
pub fn load(
    input: &Input,
    format: Option<Format>,
    missing: m2::MissingAnnotator,
) -> Result<Corpus, Error> {
    match format.unwrap_or_else(|| Format::detect(input.name())) {
        Format::Lines => Ok(Corpus {
            sources: None,
            refs: read_lines(input)?.into_iter().map(|l| vec![l]).collect(),
            warnings: Vec::new(),
        }),
        Format::M2 => {
            let m = m2::read(input)?;
            Ok(Corpus {
                sources: Some(m.sources()),
                refs: m.references(missing),
                warnings: m.warnings(),
            })
        }
        Format::MultiGec => Err(Error::Other(format!(
            "{}: MultiGEC essays align with their original file by essay id; score them with -s ORIGINAL.md and the system files as MultiGEC Markdown too",
            input.name()
        ))),
        Format::Para => {
            let p = para::read(input)?;
            Ok(Corpus {
                sources: Some(p.iter().map(|s| s.source.clone()).collect()),
                refs: p.into_iter().map(|s| s.refs).collect(),
                warnings: Vec::new(),
            })
        }
    }
}

/// Read several reference files (e.g. every `-r` argument) and join their references per
/// sentence, in argument order. All must have the same number of sentences, and files that
/// carry sources must carry the same ones, byte for byte: two M2 files of different corpora
/// are an error, not a merge, and so are two spacings of one corpus (`猫 が` and `猫が`),
/// since each file's references are spaced like its own source and spaces are scored.
pub fn load_all(
    inputs: &[Input],
    format: Option<Format>,
    missing: m2::MissingAnnotator,
) -> Result<Corpus, Error> {
    let mut out: Option<(String, Corpus)> = None;
    for input in inputs {
        let c = load(input, format, missing)?;
        match &mut out {
            None => out = Some((input.name().to_owned(), c)),
            Some((first, acc)) => {
                if c.refs.len() != acc.refs.len() {
                    return Err(Error::Other(format!(
                        "{} has {} sentences but {first} has {}; every reference file must cover the same sentences",
                        input.name(),
                        c.refs.len(),
                        acc.refs.len()
                    )));
                }
                if let (Some(a), Some(b)) = (&acc.sources, &c.sources) {
                    if let Some(m) = source_mismatch(a, b) {
                        return Err(Error::Other(format!(
                            "the source of sentence {} in {} differs from the one in {first}{} ({} sentences differ); reference files must describe the same corpus, spaced the same way",
                            m.first + 1,
                            input.name(),
                            if m.spacing_only { " only in spacing" } else { "" },
                            m.count,
                        )));
                    }
                }
                for (a, b) in acc.refs.iter_mut().zip(c.refs) {
                    a.extend(b);
                }
                if acc.sources.is_none() {
                    acc.sources = c.sources;
                }
                acc.warnings.extend(c.warnings);
            }
        }
    }
    out.map(|(_, c)| c)
        .ok_or_else(|| Error::Other("no reference file given".into()))
}

/// Where two lists of sources disagree: see [`source_mismatch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// The first sentence (0-based) that differs.
    pub first: usize,
    /// How many sentences differ.
    pub count: usize,
    /// Whether that first sentence differs only in whitespace: the same corpus spaced
    /// another way, which scores differently all the same (spaces are scored).
    pub spacing_only: bool,
}

/// Where `a` and `b` (of the same length) differ, byte for byte; `None` when all agree.
pub fn source_mismatch(a: &[String], b: &[String]) -> Option<Mismatch> {
    let differ: Vec<usize> = (0..a.len().min(b.len()))
        .filter(|&i| a[i] != b[i])
        .collect();
    let &first = differ.first()?;
    let visible = |x: &str| x.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    Some(Mismatch {
        first,
        count: differ.len(),
        spacing_only: visible(&a[first]) == visible(&b[first]),
    })
}
