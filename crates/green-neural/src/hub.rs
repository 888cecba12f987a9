//! Hub ids (`org/name`) as model directories: the snapshot a Hugging Face library left in
//! the local cache, found offline. Users who ran transformers once have their weights there
//! and should not have to spell `models--org--name/snapshots/<commit>`; green never
//! downloads, so a model that is not cached is an error that says how to get it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};

/// The cache directory the Hugging Face libraries use: `$HF_HUB_CACHE`, else
/// `$HF_HOME/hub`, else `~/.cache/huggingface/hub`.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("HF_HUB_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(home) = var("HF_HOME") {
        return PathBuf::from(home).join("hub");
    }
    let home = var("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache/huggingface/hub")
}

/// Whether `spec` can be a Hub id: `name` or `org/name`, of letters, digits, `-`, `_`, `.`.
fn is_hub_id(spec: &str) -> bool {
    let part = |p: &str| {
        !p.is_empty()
            && !p.starts_with('.')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    let mut parts = spec.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(a), None, None) => part(a),
        (Some(a), Some(b), None) => part(a) && part(b),
        _ => false,
    }
}

/// `spec` as a directory: itself when it is one; else, when it is a Hub id, its snapshot in
/// the cache ([`cache_dir`]) at `revision` (a branch or tag under `refs/`, or a commit;
/// `main` by default). With a `revision`, a directory given as a path is refused.
pub fn resolve(spec: &str, revision: Option<&str>) -> Result<PathBuf> {
    resolve_in(spec, revision, &cache_dir())
}

/// [`resolve`] with the cache at `cache`.
pub fn resolve_in(spec: &str, revision: Option<&str>, cache: &Path) -> Result<PathBuf> {
    let path = Path::new(spec);
    if path.is_dir() && revision.is_none() {
        return Ok(path.to_owned());
    }
    if !is_hub_id(spec) {
        let what = if path.is_dir() {
            "a revision is for a Hub id (org/name), not for a directory"
        } else {
            "no such model directory, and not a Hub id (org/name); give a directory holding config.json and the weights"
        };
        return Err(Error::new(ErrorKind::Missing, path, what));
    }
    let repo = cache.join(format!("models--{}", spec.replace('/', "--")));
    let revision = revision.unwrap_or("main");
    let not_cached = |looked: &Path| {
        Error::new(
            ErrorKind::Missing,
            path,
            format!(
                "not a directory, and the Hugging Face cache has no snapshot of it at revision {revision} (looked for {}); download it once (`huggingface-cli download {spec}`, or any transformers call) or give its directory; green never downloads",
                looked.display()
            ),
        )
    };
    let reference = repo.join("refs").join(revision);
    let commit = match fs::read_to_string(&reference) {
        Ok(text) => text.trim().to_owned(),
        // A commit hash given as the revision names its snapshot directly.
        Err(_) if repo.join("snapshots").join(revision).is_dir() => revision.to_owned(),
        Err(_) => return Err(not_cached(&reference)),
    };
    let snapshot = repo.join("snapshots").join(&commit);
    if commit.is_empty() || commit.contains(['/', '\\']) || !snapshot.is_dir() {
        return Err(not_cached(&snapshot));
    }
    Ok(snapshot)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache_with(id: &str, refs: &[(&str, &str)], snapshots: &[&str]) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp
            .path()
            .join(format!("models--{}", id.replace('/', "--")));
        for (name, commit) in refs {
            fs::create_dir_all(repo.join("refs")).unwrap();
            fs::write(repo.join("refs").join(name), commit).unwrap();
        }
        for s in snapshots {
            fs::create_dir_all(repo.join("snapshots").join(s)).unwrap();
        }
        tmp
    }

    #[test]
    fn hub_ids_are_found_in_the_cache() {
        let cache = cache_with(
            "org/tiny-model",
            &[("main", "abc123\n"), ("v1", "def456")],
            &["abc123", "def456"],
        );
        let repo = cache.path().join("models--org--tiny-model/snapshots");
        let found = resolve_in("org/tiny-model", None, cache.path()).unwrap();
        assert_eq!(found, repo.join("abc123"));
        let found = resolve_in("org/tiny-model", Some("v1"), cache.path()).unwrap();
        assert_eq!(found, repo.join("def456"));
        let found = resolve_in("org/tiny-model", Some("def456"), cache.path()).unwrap();
        assert_eq!(found, repo.join("def456"));
        // A canonical id without an organisation (gpt2, bert-base-cased).
        let cache = cache_with("gpt2", &[("main", "c0")], &["c0"]);
        let found = resolve_in("gpt2", None, cache.path()).unwrap();
        assert_eq!(found, cache.path().join("models--gpt2/snapshots/c0"));
    }

    #[test]
    fn what_is_not_cached_is_one_clear_error() {
        let cache = cache_with("org/m", &[("main", "gone")], &["abc"]);
        for (spec, revision, says) in [
            ("org/other", None, "models--org--other/refs/main"),
            ("org/m", None, "snapshots/gone"),
            ("org/m", Some("v2"), "revision v2"),
        ] {
            let e = resolve_in(spec, revision, cache.path()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Missing);
            let text = e.to_string();
            assert!(text.contains(says), "{text}");
            assert!(text.contains("green never downloads"), "{text}");
            assert!(!text.contains('\n'), "{text}");
        }
        let e = resolve_in("no/such/dir", None, cache.path()).unwrap_err();
        assert!(e.to_string().contains("not a Hub id"), "{e}");
    }

    #[test]
    fn directories_are_taken_as_they_are() {
        let cache = tempfile::tempdir().unwrap();
        let dir = cache.path().to_str().unwrap();
        assert_eq!(resolve_in(dir, None, cache.path()).unwrap(), cache.path());
        let e = resolve_in(dir, Some("main"), cache.path()).unwrap_err();
        assert!(e.to_string().contains("not for a directory"), "{e}");
    }
}
