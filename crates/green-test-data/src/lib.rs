//! The real-data test suites (`cargo test -- --ignored`) read the corpora in `../shared`
//! through `$GREEN_SHARED`. Cargo runs each test from its own crate's folder, so a relative
//! `GREEN_SHARED=../shared` would name `crates/shared`; here a relative path is taken from
//! the workspace root, as the README writes it, and a missing or wrong directory fails the
//! test (never skips it) with one message saying what was looked for.

use std::path::{Path, PathBuf};

/// The shared directory: `$GREEN_SHARED`, a relative path resolved against the workspace
/// root. Panics, naming the path, when it is unset or has no `data/` directory.
pub fn shared() -> PathBuf {
    let Some(value) = std::env::var_os("GREEN_SHARED") else {
        panic!(
            "GREEN_SHARED is not set: set it to the shared data directory, e.g. GREEN_SHARED=../shared (relative to the repository root)"
        );
    };
    let given = PathBuf::from(&value);
    let path = if given.is_absolute() {
        given.clone()
    } else {
        workspace_root().join(&given)
    };
    assert!(
        path.join("data").is_dir(),
        "GREEN_SHARED={} is {}, which has no data/ directory; point it at the shared data directory (relative paths start at the repository root)",
        given.display(),
        path.display()
    );
    path
}

/// `rel` under the shared directory, which must exist.
pub fn shared_file(rel: impl AsRef<Path>) -> PathBuf {
    let path = shared().join(rel);
    assert!(
        path.exists(),
        "{} is missing; GREEN_SHARED must point at the shared data directory",
        path.display()
    );
    path
}

/// The repository's root: two levels above this crate.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"));
    }
}
