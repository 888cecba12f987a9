//! Turning a command's file arguments into text, the same way for every command.
//!
//! Line files of a scoring run are mapped into memory, not read
//! ([`green_io::Input::open_mapped`]), so nothing is copied and no fresh memory is faulted
//! in; on a 1,300-line corpus that was a tenth of the whole run. The one thing a map adds
//! that can go wrong, a file truncated while green reads it, gives one error line naming the
//! file and exit status 1, not a crash. Whole corpora (M2, para and MultiGEC references, and
//! every command but plain GREEN) are read through [`green_input::load`], whose warnings are
//! printed here.

use anyhow::{bail, Result};
use green_input::Loaded;
use green_io::m2::MissingAnnotator;
use green_io::references::Format;
use green_io::{Error, Input, Reader};
use rayon::prelude::*;

use crate::output::warn;

/// Opens every input on the pool; the first error in file order is the one returned.
pub fn open_all(inputs: &[Input]) -> Result<Vec<Reader>, Error> {
    truncation::install();
    // SAFETY: green does not write its inputs; a file truncated by another process while
    // mapped raises SIGBUS, which the handler turns into an error line and exit 1.
    let opened: Vec<_> = inputs
        .par_iter()
        .map(|input| unsafe { input.open_mapped() })
        .collect();
    let readers: Vec<Reader> = opened.into_iter().collect::<Result<_, _>>()?;
    truncation::name_maps(&readers);
    Ok(readers)
}

/// Standard input can be read once: `-` for two files is an error, not an empty second file.
pub fn stdin_once<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<()> {
    if paths.into_iter().filter(|&p| p == "-").count() > 1 {
        bail!("standard input (-) can be given for one file only; write the others to files");
    }
    Ok(())
}

/// A corpus from a command's `-s`, `-r` and `-c` files ([`green_input::load`]), its warnings
/// printed.
pub fn load(
    source: Option<&str>,
    refs: &[String],
    hyps: &[String],
    ref_format: &str,
    missing: MissingAnnotator,
) -> Result<Loaded> {
    stdin_once(
        source
            .into_iter()
            .chain(refs.iter().map(String::as_str))
            .chain(hyps.iter().map(String::as_str)),
    )?;
    let format = Format::parse(ref_format)?;
    let mut loaded = green_input::load(source, refs, hyps, format, missing)?;
    for w in loaded.warnings.drain(..) {
        warn(&w);
    }
    Ok(loaded)
}

/// Print what `guard` finds in `sentences` (a corpus in memory), a batch at a time as a
/// scoring run looks.
pub fn guard(mut guard: green_input::Guard, sentences: &[green_engine::Sentence]) {
    for batch in sentences.chunks(green_engine::BATCH) {
        guard.look(batch);
    }
    for w in guard.warnings() {
        warn(&w);
    }
}

/// Line files given as references (their names, for the para check), or none when any is
/// of a format that carries its sources.
pub fn line_refs(refs: &[String], ref_format: &str) -> Result<Vec<String>> {
    let format = Format::parse(ref_format)?;
    let lines = refs
        .iter()
        .all(|r| format.unwrap_or_else(|| Format::detect(r)) == Format::Lines);
    Ok(if lines { refs.to_vec() } else { Vec::new() })
}

/// A source and the systems that correct it, read as lines for the reference-free commands:
/// `-` for one file only, a byte-order mark warned about, one line per source line in every
/// system, and something to score.
#[cfg(feature = "neural")]
pub fn source_and_systems(
    source: &str,
    hyps: &[String],
) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    stdin_once(std::iter::once(source).chain(hyps.iter().map(String::as_str)))?;
    let mut warnings = Vec::new();
    let sources = green_input::read_lines(&Input::parse(source), &mut warnings)?;
    let mut systems = Vec::with_capacity(hyps.len());
    for path in hyps {
        let lines = green_input::read_lines(&Input::parse(path), &mut warnings)?;
        if lines.len() != sources.len() {
            bail!(
                "{path} has {} lines but the source {source} has {}; give one output line per source line",
                lines.len(),
                sources.len()
            );
        }
        systems.push(lines);
    }
    for w in &warnings {
        warn(w);
    }
    if sources.is_empty() {
        bail!("{source} has no sentences: there is nothing to score");
    }
    Ok((sources, systems))
}

/// A whole file (`-` is standard input) as UTF-8 text.
pub fn read_text(path: &str) -> Result<String> {
    Ok(green_io::read_text(&Input::parse(path))?)
}

/// [`read_text`], but a regular file is mapped into memory, not read
/// ([`green_io::map_text`]): the CoNLL-U of a CoNLL-2014 system and of its source are 2.5 MB,
/// which reading copies into 600 freshly faulted pages. Name each text with [`name_texts`]
/// once all are open, so that a truncated file's error line names it.
pub fn map_text(path: &str) -> Result<green_io::Text> {
    truncation::install();
    // SAFETY: green does not write its inputs; a file truncated by another process while
    // mapped raises SIGBUS, which the handler turns into an error line and exit 1.
    Ok(unsafe { green_io::map_text(&Input::parse(path)) }?)
}

/// Remember where each (name, text) lies, for the error line of a file truncated while mapped.
pub fn name_texts<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) {
    truncation::name_texts(texts);
}

/// Reading a page of a mapped file that was cut off raises SIGBUS: name the file, exit 1.
#[cfg(unix)]
mod truncation {
    use std::sync::OnceLock;

    use green_io::Reader;

    /// The mapped texts' address ranges, each with its error line.
    static MAPS: OnceLock<Vec<(usize, usize, Vec<u8>)>> = OnceLock::new();

    const SOME_FILE: &[u8] = b"green: error: an input file was truncated while green was reading it; score it again once the file is complete\n";

    extern "C" fn truncated(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
        let at = unsafe { (*info).si_addr() } as usize;
        let message = MAPS
            .get()
            .and_then(|maps| {
                maps.iter()
                    .find(|(start, end, _)| (*start..*end).contains(&at))
            })
            .map_or(SOME_FILE, |(_, _, m)| m.as_slice());
        // SAFETY: write and _exit are async-signal-safe; MAPS is only read once set.
        unsafe {
            libc::write(2, message.as_ptr().cast(), message.len());
            libc::_exit(1);
        }
    }

    pub(super) fn install() {
        // SAFETY: installs a handler that only calls async-signal-safe functions.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = truncated as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    }

    /// Remember where each input's text lies, so the handler can name the file.
    pub(super) fn name_maps(readers: &[Reader]) {
        name_texts(
            readers
                .iter()
                .filter_map(|r| Some((r.name(), &***r.whole_text()?))),
        );
    }

    /// Remember where each (name, text) lies; only the first call of a run counts.
    pub(super) fn name_texts<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) {
        let maps = texts
            .into_iter()
            .map(|(name, text)| {
                let start = text.as_ptr() as usize;
                let line = format!("green: error: {name} was truncated while green was reading it; score it again once the file is complete\n");
                (start, start + text.len(), line.into_bytes())
            })
            .collect();
        let _ = MAPS.set(maps);
    }
}

#[cfg(not(unix))]
mod truncation {
    pub(super) fn install() {}
    pub(super) fn name_maps(_: &[green_io::Reader]) {}
    pub(super) fn name_texts<'a>(_: impl IntoIterator<Item = (&'a str, &'a str)>) {}
}
