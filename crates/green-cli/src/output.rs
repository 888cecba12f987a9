//! Writing what a command produces: to standard output in one go, or to a file atomically.
//! What is written (numbers as the reference prints them, tables, JSON) is green-output's.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Write `text` to standard output in one go. A closed pipe (`| head`) is not an error the
/// caller sees: it surfaces as `BrokenPipe`, which `main` turns into exit 0.
pub fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Write a file atomically: into a temporary file beside it, then renamed over it, so a full
/// disk or a crash never leaves a truncated file under the final name.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
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
        // A failed write leaves nothing under the final name.
        let missing = dir.path().join("no/such/dir/out.txt");
        let err = write_atomic(&missing, b"x").unwrap_err().to_string();
        assert!(err.contains("cannot create a temporary file in"), "{err}");
        assert!(!missing.exists());
    }
}
