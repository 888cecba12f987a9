//! Everything a command writes: standard output in one go, warnings and errors on standard
//! error, and files, each written whole or not at all.
//!
//! Files are written into a temporary file beside the target and renamed over it, so a full
//! disk or a crash never leaves a truncated file under the final name, and the previous good
//! file stays until the new one is complete. A set of files (`green m2 --out-dir`, `meta -o`)
//! is written all to temporary files first and renamed only once every one is complete. New
//! files get the permissions the umask gives (as `>` in a shell would); a file replaced keeps
//! its own. A symbolic link is written through (the file it names is replaced, the link
//! stays). A target that is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is
//! opened and written as a shell would: renaming over it would replace the device itself.
//! What is written (numbers as the originals print them, tables, JSON) is
//! green-output's.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Write `text` to standard output in one go. A closed pipe (`| head`) is not an error the
/// caller sees: it surfaces as `BrokenPipe`, which `main` turns into exit 0.
pub fn emit(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// One line on standard error. A standard error that cannot be written (a pipe whose reader
/// is gone) is not a reason to stop: the line is dropped.
pub fn note(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

fn stderr_line(kind: &str, message: &str) {
    note(&format!("green: {kind}: {message}"));
}

/// A warning: the run goes on.
pub fn warn(message: &str) {
    stderr_line("warning", message);
}

/// The one error line of a failed run.
pub fn error(message: &str) {
    stderr_line("error", message);
}

/// Write a file atomically (see the module documentation).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut set = FileSet::default();
    set.add(path, bytes.to_vec());
    set.write()
}

/// Files to write together: none is renamed into place before every one is written whole.
#[derive(Default)]
pub struct FileSet {
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl FileSet {
    pub fn add(&mut self, path: impl Into<PathBuf>, bytes: Vec<u8>) {
        self.files.push((path.into(), bytes));
    }

    /// Write every file to a temporary file beside it, then rename them all into place. On
    /// an error before the renames, nothing is left behind and no regular file has changed.
    /// Targets that are not regular files are written in place once every other file is
    /// staged, before the renames.
    pub fn write(self) -> Result<()> {
        let mut staged = Vec::with_capacity(self.files.len());
        let mut direct = Vec::new();
        for (path, bytes) in &self.files {
            match target(path) {
                Target::Direct => direct.push((path, bytes)),
                Target::Replace(real) => staged.push((path, stage(&real, bytes)?, real)),
            }
        }
        for (path, bytes) in direct {
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)
                .and_then(|mut f| f.write_all(bytes))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        for (path, tmp, real) in staged {
            tmp.persist(&real)
                .map_err(|e| e.error)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

/// How a file is written: replaced by a rename (at the path a link resolves to), or opened
/// and written in place because it is not a regular file.
enum Target {
    Replace(PathBuf),
    Direct,
}

fn target(path: &Path) -> Target {
    let Ok(link) = std::fs::symlink_metadata(path) else {
        return Target::Replace(path.to_path_buf());
    };
    if !link.file_type().is_symlink() {
        return if link.is_file() {
            Target::Replace(path.to_path_buf())
        } else {
            Target::Direct
        };
    }
    // `/dev/stdout` names `/proc/self/fd/1`, an open file of this process: write through it.
    if path.starts_with("/dev") || path.starts_with("/proc") {
        return Target::Direct;
    }
    match (std::fs::metadata(path), std::fs::canonicalize(path)) {
        (Ok(meta), Ok(real)) if meta.is_file() => Target::Replace(real),
        _ => Target::Direct,
    }
}

/// `bytes` in a complete temporary file beside `path`, with the permissions `path` will have.
fn stage(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        anyhow::bail!(
            "cannot write {}: the directory {} does not exist; create it first",
            path.display(),
            dir.display()
        );
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".green-tmp-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created 0666 less the umask (the kernel applies it), as a shell's `>` creates files.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).with_context(|| {
        format!(
            "cannot write {}: cannot create a file in {}",
            path.display(),
            dir.display()
        )
    })?;
    if let Ok(existing) = std::fs::metadata(path) {
        // A file replaced keeps its permissions.
        let _ = tmp.as_file().set_permissions(existing.permissions());
    }
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ref0.txt");
        std::fs::write(&path, "old contents\n").unwrap();
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left beside it");
        // A failed write leaves nothing under the final name, and says which directory.
        let missing = dir.path().join("no/such/dir/out.txt");
        let err = write_atomic(&missing, b"x").unwrap_err().to_string();
        assert!(
            err.contains("the directory") && err.contains("does not exist"),
            "{err}"
        );
        assert!(!missing.exists());
    }

    #[cfg(unix)]
    #[test]
    fn new_files_follow_the_umask_and_replaced_files_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // SAFETY: umask only sets the process's file-creation mask.
        let umask = unsafe { libc::umask(0o022) };
        let fresh = dir.path().join("fresh.txt");
        write_atomic(&fresh, b"x").unwrap();
        let kept = dir.path().join("kept.txt");
        std::fs::write(&kept, "old").unwrap();
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&kept, b"new").unwrap();
        // SAFETY: as above.
        unsafe { libc::umask(umask) };
        assert_eq!(mode(&fresh), 0o644);
        assert_eq!(mode(&kept), 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_written_through_and_devices_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // A link to a file not yet there creates it, as `>` does.
        let dangling = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink(dir.path().join("made.txt"), &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("made.txt")).unwrap(),
            "made"
        );
        // A device stays a device (as root, a rename would have replaced /dev/null).
        write_atomic(Path::new("/dev/null"), b"gone").unwrap();
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    }

    #[test]
    fn a_set_is_renamed_only_once_every_file_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "old a").unwrap();
        let mut set = FileSet::default();
        set.add(&a, b"new a".to_vec());
        set.add(dir.path().join("missing/b.txt"), b"b".to_vec());
        assert!(set.write().is_err());
        assert_eq!(
            std::fs::read_to_string(&a).unwrap(),
            "old a",
            "a is untouched"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
    }
}
