//! `green data get`: install a registered dataset into a data directory, keeping only what
//! matches the registry.
//!
//! A number computed on a file that differs from the authors' by one byte is not the number
//! the docs show, and a copy or download cut short looks like a file. So nothing is trusted
//! for its name: every file is written into a staging directory inside the data directory,
//! its size and SHA-256 are checked against the registry (those of the upstream file), and
//! only when every file of the dataset has passed are they renamed into place. Anything else
//! is refused with one error line and leaves nothing behind (the staging directory is removed
//! with it). The data directory's layout is shared between datasets (GJG15's outputs sit in
//! `conll14/` beside the CoNLL-2014 files), so a dataset is not one directory to rename; a
//! rename per file, all after the last check, is the nearest to that.
//!
//! A file already in place with the right checksum is not fetched again, so a second `get`
//! changes nothing, and one that stopped half way picks up where it stopped. A dataset is
//! installed when every one of its files is in place and verified ([`installed`]); there is
//! no other state to get out of step.
//!
//! Where the files come from ([`Source`]), never the network unless asked:
//! - a directory holding the data layout (`../shared/data`, or a copy of it), or a clone of the
//!   upstream repository (files are looked up at their place in the layout, then at their
//!   upstream path);
//! - a `.tar`, `.tar.gz` or `.tgz` archive of either, its members optionally under one
//!   top-level directory (as GitHub's archives are);
//! - in a build with the `download` feature, `--download`: the registry's pinned URLs, or
//!   `{mirror}/{path}` for a copy of the data directory served over HTTP.
//!
//! Derived files (`derive` in the registry) are made here, from the verified M2 file, and
//! checked like the others.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

use crate::registry::{Dataset, File};

/// Where `green data get` takes the files from.
pub enum Source {
    /// A directory holding the data layout or an upstream clone.
    Dir(PathBuf),
    /// A tar archive of one, gzipped when `gzip`.
    Archive { path: PathBuf, gzip: bool },
    /// The registry's URLs, or a mirror of the data layout.
    #[cfg(feature = "download")]
    Download(crate::download::Downloader),
}

impl Source {
    /// A local directory or archive, as given to `--from`.
    pub fn local(path: &Path) -> Result<Source> {
        if path.is_dir() {
            return Ok(Source::Dir(path.to_path_buf()));
        }
        if !path.is_file() {
            bail!(
                "--from {}: no such file or directory; give a directory holding the data layout (like ../shared/data) or a .tar.gz of one",
                path.display()
            );
        }
        let name = path.to_string_lossy().to_ascii_lowercase();
        let gzip = name.ends_with(".tar.gz") || name.ends_with(".tgz");
        if !gzip && !name.ends_with(".tar") {
            bail!(
                "--from {}: not a directory, .tar, .tar.gz or .tgz archive; give one of those",
                path.display()
            );
        }
        Ok(Source::Archive {
            path: path.to_path_buf(),
            gzip,
        })
    }

    /// How the source is named in messages.
    pub fn describe(&self) -> String {
        match self {
            Source::Dir(p) | Source::Archive { path: p, .. } => p.display().to_string(),
            #[cfg(feature = "download")]
            Source::Download(d) => d.describe(),
        }
    }
}

/// Installs datasets into one data directory from one source.
pub struct Installer {
    root: PathBuf,
    source: Source,
}

/// What [`Installer::install`] did.
pub struct Outcome {
    /// Files copied, extracted or downloaded.
    pub fetched: usize,
    pub derived: usize,
    /// Files that were already in place and verified.
    pub present: usize,
}

impl Installer {
    pub fn new(root: PathBuf, source: Source) -> Installer {
        Installer { root, source }
    }

    /// Bring every file of `dataset` into place, verified, or none of those it lacks.
    pub fn install(&self, dataset: &Dataset) -> Result<Outcome> {
        let mut outcome = Outcome {
            fetched: 0,
            derived: 0,
            present: 0,
        };
        let mut wanted: Vec<&File> = Vec::new();
        for file in &dataset.files {
            if verified(&self.root.join(&file.path), file)? {
                outcome.present += 1;
            } else {
                wanted.push(file);
            }
        }
        if wanted.is_empty() {
            return Ok(outcome);
        }
        std::fs::create_dir_all(&self.root)
            .with_context(|| format!("cannot create directory {}", self.root.display()))?;
        let staging = tempfile::Builder::new()
            .prefix(".green-staging-")
            .tempdir_in(&self.root)
            .with_context(|| {
                format!(
                    "cannot create a staging directory in {}",
                    self.root.display()
                )
            })?;
        let stage = staging.path();
        let fetch: Vec<&File> = wanted
            .iter()
            .copied()
            .filter(|f| f.derive.is_none())
            .collect();
        if !fetch.is_empty() {
            self.fetch(dataset, &fetch, stage)?;
            outcome.fetched = fetch.len();
        }
        for file in wanted.iter().filter(|f| f.derive.is_some()) {
            let derive = file.derive.as_ref().expect("filtered on derive");
            let staged = stage.join(&derive.m2);
            let m2 = if staged.is_file() {
                staged
            } else {
                self.root.join(&derive.m2)
            };
            let bytes = m2_annotator_text(&m2, derive.annotator, &derive.missing_annotator)?;
            let what = format!("{} made from {}", file.path, derive.m2);
            store(&mut bytes.as_slice(), file, &stage.join(&file.path), &what)?;
            outcome.derived += 1;
        }
        // Every file has passed: move them into place.
        for file in &wanted {
            let dest = self.root.join(&file.path);
            if let Some(dir) = dest.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create directory {}", dir.display()))?;
            }
            std::fs::rename(stage.join(&file.path), &dest)
                .with_context(|| format!("cannot move {} into place", dest.display()))?;
        }
        Ok(outcome)
    }

    /// Write each of `files` under `stage` from the source, verified.
    fn fetch(&self, dataset: &Dataset, files: &[&File], stage: &Path) -> Result<()> {
        match &self.source {
            Source::Dir(dir) => {
                for file in files {
                    let Some(found) = upstream_names(file)
                        .map(|n| dir.join(n))
                        .find(|p| p.is_file())
                    else {
                        bail!(
                            "{} has no {}{}; nothing was installed (is it the data directory, or a clone of {}?)",
                            dir.display(),
                            file.path,
                            or_from(file),
                            dataset.source
                        );
                    };
                    let mut f = std::fs::File::open(&found)
                        .with_context(|| format!("cannot read {}", found.display()))?;
                    store(
                        &mut f,
                        file,
                        &stage.join(&file.path),
                        &found.display().to_string(),
                    )?;
                }
                Ok(())
            }
            Source::Archive { path, gzip } => extract(path, *gzip, dataset, files, stage),
            #[cfg(feature = "download")]
            Source::Download(d) => {
                for file in files {
                    d.fetch(dataset, file, &mut |body, url| {
                        store(body, file, &stage.join(&file.path), url)
                    })?;
                }
                Ok(())
            }
        }
    }
}

/// The names a file may have in a source: its place in the layout, then its upstream path.
fn upstream_names(file: &File) -> impl Iterator<Item = &str> {
    std::iter::once(file.path.as_str()).chain(file.from.as_deref())
}

fn or_from(file: &File) -> String {
    file.from
        .as_ref()
        .map_or(String::new(), |f| format!(" (nor {f})"))
}

/// Take `files` out of a tar archive into `stage`, verified.
fn extract(
    path: &Path,
    gzip: bool,
    dataset: &Dataset,
    files: &[&File],
    stage: &Path,
) -> Result<()> {
    let open =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let reader: Box<dyn Read> = if gzip {
        Box::new(flate2::read::GzDecoder::new(std::io::BufReader::new(open)))
    } else {
        Box::new(std::io::BufReader::new(open))
    };
    let bad = |e: std::io::Error| {
        anyhow::anyhow!(
            "cannot read the archive {}: {e}; give a whole .tar or .tar.gz",
            path.display()
        )
    };
    let mut done = vec![false; files.len()];
    let mut archive = tar::Archive::new(reader);
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry
            .path()
            .map_err(bad)?
            .to_string_lossy()
            .replace('\\', "/");
        let name = name.trim_start_matches("./");
        // The member's name, and the same below its top-level directory.
        let names = [Some(name), name.split_once('/').map(|(_, rest)| rest)];
        let hit = files.iter().enumerate().position(|(k, f)| {
            !done[k]
                && names
                    .iter()
                    .flatten()
                    .any(|n| upstream_names(f).any(|u| u == *n))
        });
        if let Some(k) = hit {
            let what = format!("{} in {}", name, path.display());
            store(&mut entry, files[k], &stage.join(&files[k].path), &what)?;
            done[k] = true;
        }
    }
    if let Some(k) = done.iter().position(|d| !d) {
        bail!(
            "the archive {} has no {}{}; nothing was installed (is it an archive of the data directory, or of {}?)",
            path.display(),
            files[k].path,
            or_from(files[k]),
            dataset.source
        );
    }
    Ok(())
}

/// Write what `body` yields to `dest` if it has `file`'s size and SHA-256; `what` names the
/// body in messages. Reads one byte past the registry's size at most.
fn store(body: &mut dyn Read, file: &File, dest: &Path, what: &str) -> Result<()> {
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let mut out =
        std::fs::File::create(dest).with_context(|| format!("cannot write {}", dest.display()))?;
    let mut body = body.take(file.size + 1);
    let mut hasher = Sha256::new();
    let mut got: u64 = 0;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match body.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => bail!(
                "reading {what} broke off after {got} of {} bytes ({e}); nothing was installed",
                file.size
            ),
        };
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .with_context(|| format!("cannot write {}", dest.display()))?;
        got += n as u64;
    }
    if got != file.size {
        let has = if got > file.size {
            format!("more than the {} bytes", file.size)
        } else {
            format!("{got} bytes, not the {}", file.size)
        };
        bail!(
            "{what} has {has} the registry pins for {}; nothing was installed (is it the right version of the file?)",
            file.path
        );
    }
    let sha = hex(&hasher.finalize());
    if sha != file.sha256 {
        bail!(
            "{what} has SHA-256 {sha}, not {} as the registry pins for {}; nothing was installed (is it the right version of the file?)",
            file.sha256,
            file.path
        );
    }
    out.sync_all()
        .with_context(|| format!("cannot write {}", dest.display()))
}

/// Every file of `dataset` is under `root` with the registry's size and checksum.
pub fn installed(root: &Path, dataset: &Dataset) -> Result<bool> {
    for f in &dataset.files {
        if !verified(&root.join(&f.path), f)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `path` exists with `file`'s size and checksum.
fn verified(path: &Path, file: &File) -> Result<bool> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() == file.size => {}
        _ => return Ok(false),
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(hex(&Sha256::digest(&bytes)) == file.sha256)
}

/// One annotator's corrected text of every sentence of an M2 file, one line each, as `green
/// m2` writes `ref{annotator}.txt`.
fn m2_annotator_text(m2: &Path, annotator: usize, missing: &str) -> Result<Vec<u8>> {
    let rule: green_io::m2::MissingAnnotator =
        missing.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let parsed = green_io::m2::read(&green_io::Input::Path(m2.to_string_lossy().into_owned()))?;
    let corpus = green_io::Corpus {
        sources: None,
        refs: parsed.references(rule),
        warnings: Vec::new(),
    };
    let sets = corpus.as_ref_sets();
    let Some(set) = sets.get(annotator) else {
        bail!(
            "{} has {} annotator(s), so no annotator {annotator}",
            m2.display(),
            sets.len()
        );
    };
    Ok(set
        .iter()
        .flat_map(|l| [l.as_str(), "\n"])
        .collect::<String>()
        .into_bytes())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_annotator_text_is_green_m2s() {
        let dir = tempfile::tempdir().unwrap();
        let m2 = dir.path().join("x.m2");
        std::fs::write(
            &m2,
            "S a b c\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\nA 2 3|||R|||z|||REQUIRED|||-NONE-|||1\n\nS d e\nA 0 1|||R|||y|||REQUIRED|||-NONE-|||0\n\n",
        )
        .unwrap();
        let text = |k, rule| String::from_utf8(m2_annotator_text(&m2, k, rule).unwrap()).unwrap();
        assert_eq!(text(0, "source"), "x b c\ny e\n");
        // Annotator 1 has no line for the second sentence: its source.
        assert_eq!(text(1, "source"), "a b z\nd e\n");
        let err = m2_annotator_text(&m2, 2, "source").unwrap_err().to_string();
        assert!(err.contains("no annotator 2"), "{err}");
    }

    #[test]
    fn store_refuses_a_wrong_size_or_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let file = File {
            path: "a/x.txt".into(),
            from: None,
            derive: None,
            size: 3,
            sha256: hex(&Sha256::digest(b"abc")),
        };
        let dest = dir.path().join("x");
        store(&mut &b"abc"[..], &file, &dest, "x").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"abc");
        let err = |body: &[u8]| {
            store(&mut &body[..], &file, &dest, "x")
                .unwrap_err()
                .to_string()
        };
        assert!(err(b"ab").contains("x has 2 bytes, not the 3"));
        assert!(err(b"abcd").contains("x has more than the 3 bytes"));
        assert!(err(b"abd").contains("x has SHA-256 "));
    }
}
