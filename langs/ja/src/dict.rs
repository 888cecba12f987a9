//! Finding IPADIC, building it from MeCab source when needed, and caching the build.
//!
//! Order of precedence (first match wins):
//! 1. an explicit path: the `ja_dict` option (`--ja-dict`), else the `GREEN_JA_DICT`
//!    environment variable. It may name a compiled lindera dictionary (a directory with
//!    `metadata.json`) or a MeCab dictionary source (`*.csv`, `matrix.def`, `char.def`,
//!    `unk.def`, EUC-JP or UTF-8), which is built into the cache like (3);
//! 2. IPADIC compiled into the binary, when green was built with the opt-in `embed-ipadic`
//!    feature (lindera downloads it at build time, so it is off by default);
//! 3. Debian/Ubuntu's `mecab-ipadic` package at `/usr/share/mecab/dic/ipadic`, built once
//!    into the per-user cache (`$XDG_CACHE_HOME/green` or `~/.cache/green`) and reused.
//!
//! An explicit path beats the embedded dictionary so that a user who names a dictionary
//! always gets it. Builds are atomic: lindera writes into a temporary directory beside the
//! final one, which is then renamed into place, so a crashed or concurrent build never
//! leaves a half-written dictionary that a later run would trust. The cache key holds
//! lindera's version (its on-disk format moves with it) and a fingerprint of the source
//! files (names, sizes, modification times), so upgrading either side rebuilds; the source
//! directory is listed once per run for it (whether it is a source, its key). Every entry
//! carries a manifest (each file's size and checksum), written last; an entry whose files do
//! not match it (a truncated or overwritten file, a missing manifest) is moved aside and
//! rebuilt instead of being trusted, and temporary directories left by crashed builds are
//! removed once they are an hour old.

use std::error::Error as StdError;
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use lindera::dictionary::{load_fs_dictionary, Dictionary, DictionaryBuilder, Metadata};

/// Environment variable naming a dictionary directory.
pub const ENV_VAR: &str = "GREEN_JA_DICT";
/// Where Debian and Ubuntu's `mecab-ipadic` package puts the IPADIC source.
pub const SYSTEM_IPADIC: &str = "/usr/share/mecab/dic/ipadic";

/// The IPADIC schema lindera uses (from lindera-ipadic's `metadata.json`); the encoding is
/// filled in per source directory.
const IPADIC_METADATA: &str = r#"{
  "name": "ipadic",
  "encoding": "UTF-8",
  "default_word_cost": -10000,
  "default_left_context_id": 0,
  "default_right_context_id": 0,
  "default_field_value": "*",
  "flexible_csv": true,
  "skip_invalid_cost_or_id": false,
  "normalize_details": true,
  "dictionary_schema": {
    "fields": ["surface", "left_context_id", "right_context_id", "cost", "part_of_speech",
      "part_of_speech_subcategory_1", "part_of_speech_subcategory_2",
      "part_of_speech_subcategory_3", "conjugation_form", "conjugation_type", "base_form",
      "reading", "pronunciation"]
  },
  "user_dictionary_schema": { "fields": ["surface", "part_of_speech", "reading"] }
}"#;

/// A dictionary could not be found, built or loaded. The message is one line meant for users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DictError(pub String);

/// Where to look for a dictionary. [`Locator::from_env`] fills it the way the CLI does;
/// tests set the fields directly.
#[derive(Debug, Clone)]
pub struct Locator {
    /// Explicit dictionary directory (flag or environment variable).
    pub path: Option<PathBuf>,
    /// MeCab IPADIC source installed by the system package manager.
    pub system_source: PathBuf,
    /// Root of the per-user cache; `None` when no cache directory can be determined.
    pub cache_root: Option<PathBuf>,
    /// Whether to use IPADIC compiled into the binary (only possible with `embed-ipadic`).
    pub use_embedded: bool,
}

/// Where the loaded dictionary came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary (`embed-ipadic`).
    Embedded,
    /// A compiled lindera dictionary directory given by the user.
    Compiled(PathBuf),
    /// Built from MeCab source into `cache`; `built_now` is false when the cache was reused.
    Cached {
        source: PathBuf,
        cache: PathBuf,
        built_now: bool,
    },
}

/// A loaded dictionary, the name it goes by in signatures, and where it came from.
pub struct Loaded {
    pub dictionary: Dictionary,
    pub name: String,
    pub origin: Origin,
}

impl Locator {
    /// The standard locations: `path`, else `$GREEN_JA_DICT`; the Debian package; the
    /// XDG cache directory; the embedded dictionary when compiled in.
    pub fn from_env(path: Option<PathBuf>) -> Self {
        let non_empty = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Locator {
            path: path.or_else(|| non_empty(ENV_VAR)),
            system_source: PathBuf::from(SYSTEM_IPADIC),
            cache_root: non_empty("XDG_CACHE_HOME")
                .or_else(|| non_empty("HOME").map(|h| h.join(".cache")))
                .map(|c| c.join("green")),
            use_embedded: cfg!(feature = "embed-ipadic"),
        }
    }

    /// Find, build if needed, and load a dictionary, in the documented order.
    pub fn load(&self) -> Result<Loaded, DictError> {
        if let Some(path) = &self.path {
            return self.load_dir(path);
        }
        if self.use_embedded {
            return load_embedded();
        }
        if let Some(source) = Source::read(&self.system_source) {
            return self.load_source(&source);
        }
        Err(DictError(format!(
            "no Japanese dictionary found; get one in any of three ways: (1) build green with \
             `--features embed-ipadic` (downloads IPADIC at build time); (2) pass --ja-dict DIR or \
             set {ENV_VAR}=DIR, to a compiled lindera dictionary or a MeCab IPADIC source \
             directory; (3) install the Debian/Ubuntu package (`apt-get install mecab-ipadic`, \
             giving {SYSTEM_IPADIC}), which green builds once into {}",
            self.cache_root.as_deref().map_or_else(
                || "$XDG_CACHE_HOME/green".into(),
                |p| p.display().to_string()
            )
        )))
    }

    /// Load a directory that is either a compiled lindera dictionary or MeCab source.
    fn load_dir(&self, dir: &Path) -> Result<Loaded, DictError> {
        if dir.join("metadata.json").is_file() {
            let dictionary = load_guarded(dir).map_err(|why| {
                DictError(format!(
                    "cannot load the lindera dictionary {}: {why}; rebuild it with this version \
                     of green, or point --ja-dict / {ENV_VAR} at the MeCab source instead",
                    dir.display()
                ))
            })?;
            let name = dictionary.metadata.name.clone();
            return Ok(Loaded {
                dictionary,
                name,
                origin: Origin::Compiled(dir.to_path_buf()),
            });
        }
        let source = Source::read(dir).ok_or_else(|| {
            DictError(format!(
                "{} is neither a compiled lindera dictionary (no metadata.json) nor a MeCab \
                 dictionary source (needs char.def, unk.def, matrix.def and *.csv); check the \
                 path given by --ja-dict or {ENV_VAR}",
                dir.display()
            ))
        })?;
        self.load_source(&source)
    }

    /// Load the cached build of `source`, building (or rebuilding) it when needed.
    fn load_source(&self, source: &Source) -> Result<Loaded, DictError> {
        let cache_root = self.cache_root.as_deref().ok_or_else(|| {
            DictError(format!(
                "cannot build the Japanese dictionary from {}: no cache directory (set \
                 XDG_CACHE_HOME or HOME), or build it once and pass the result with --ja-dict",
                source.dir.display()
            ))
        })?;
        let name = source_name(&source.dir);
        let (mut cache, mut built_now) = build_cached(source, cache_root, &name)?;
        let mut verified = verify(&cache);
        if verified.is_err() && !built_now {
            // Damaged after the fact: set it aside (atomically, so a concurrent run never
            // sees half of it) and build it again once.
            discard(&cache)?;
            (cache, built_now) = build_cached(source, cache_root, &name)?;
            verified = verify(&cache);
        }
        verified.map_err(|why| {
            DictError(format!(
                "the dictionary built at {} is damaged ({why}); delete that directory and try again",
                cache.display()
            ))
        })?;
        let dictionary = load_guarded(&cache).map_err(|why| {
            DictError(format!(
                "cannot load the dictionary built at {}: {why}; delete that directory and try again",
                cache.display()
            ))
        })?;
        Ok(Loaded {
            dictionary,
            name,
            origin: Origin::Cached {
                source: source.dir.clone(),
                cache,
                built_now,
            },
        })
    }
}

#[cfg(feature = "embed-ipadic")]
fn load_embedded() -> Result<Loaded, DictError> {
    let dictionary = lindera::dictionary::load_dictionary("embedded://ipadic")
        .map_err(|e| DictError(format!("cannot load the embedded IPADIC: {}", chain(&e))))?;
    Ok(Loaded {
        dictionary,
        name: "ipadic".into(),
        origin: Origin::Embedded,
    })
}

#[cfg(not(feature = "embed-ipadic"))]
fn load_embedded() -> Result<Loaded, DictError> {
    Err(DictError(
        "this green was built without the embed-ipadic feature".into(),
    ))
}

/// Load a compiled dictionary; a lindera panic on bad data becomes the reason it failed.
fn load_guarded(dir: &Path) -> Result<Dictionary, String> {
    match std::panic::catch_unwind(|| load_fs_dictionary(dir)) {
        Ok(Ok(d)) => Ok(d),
        Ok(Err(e)) => Err(chain(&e)),
        Err(_) => Err("the loader failed on its contents".into()),
    }
}

/// The manifest file of a cache entry: `<size> <checksum> <name>` per file, written last.
const MANIFEST: &str = "green-manifest.txt";

/// Every file of `dir` but the manifest, as `size checksum name` lines, sorted by name.
fn manifest_of(dir: &Path) -> std::io::Result<String> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    let mut out = String::new();
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == MANIFEST || !entry.file_type()?.is_file() {
            continue;
        }
        let bytes = fs::read(entry.path())?;
        out.push_str(&format!(
            "{} {:016x} {name}\n",
            bytes.len(),
            checksum(&bytes)
        ));
    }
    Ok(out)
}

/// Whether a cache entry's files match its manifest; the reason when not.
fn verify(dir: &Path) -> Result<(), String> {
    let recorded =
        fs::read_to_string(dir.join(MANIFEST)).map_err(|_| format!("no readable {MANIFEST}"))?;
    let actual = manifest_of(dir).map_err(|e| e.to_string())?;
    if recorded == actual {
        Ok(())
    } else {
        Err("its files do not match its manifest".into())
    }
}

/// Move a damaged entry out of the way, then delete it.
fn discard(entry: &Path) -> Result<(), DictError> {
    let trash = entry.with_extension(format!("damaged-{}", unique()));
    match fs::rename(entry, &trash) {
        Ok(()) => {
            let _ = fs::remove_dir_all(&trash);
            Ok(())
        }
        // Another run moved it first.
        Err(_) if !entry.exists() => Ok(()),
        Err(e) => Err(DictError(format!(
            "cannot remove the damaged cache {}: {e}",
            entry.display()
        ))),
    }
}

/// A name part no other process uses at the same time.
fn unique() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{}-{nanos}", std::process::id())
}

/// Remove temporary build directories older than an hour (left by crashed builds).
fn sweep(cache_root: &Path) {
    let Ok(entries) = fs::read_dir(cache_root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 3600);
        if stale && (name.contains(".tmp-") || name.contains(".damaged-")) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// FNV-1a over 8-byte words (fast enough for ~50 MB of dictionary on every load).
fn checksum(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        hash ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    fnv1a(&mut hash, words.remainder());
    hash
}

/// The error and its causes on one line (lindera keeps the useful part in the causes).
fn chain(e: &dyn StdError) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let msg = c.to_string();
        if !out.contains(&msg) {
            out.push_str(": ");
            out.push_str(&msg);
        }
        cause = c.source();
    }
    out
}

/// A MeCab dictionary source directory, listed once: whether it is one, its CSV files and
/// its fingerprint all come from this listing.
struct Source {
    dir: PathBuf,
    /// Every entry's name and `lstat`, sorted by name.
    entries: Vec<(OsString, fs::Metadata)>,
}

impl Source {
    /// The listing of `dir` if it looks like a MeCab dictionary source (`char.def`,
    /// `unk.def`, `matrix.def` and at least one `*.csv` file).
    fn read(dir: &Path) -> Option<Source> {
        let mut entries = fs::read_dir(dir)
            .ok()?
            .map(|e| e.and_then(|e| Ok((e.file_name(), e.metadata()?))))
            .collect::<std::io::Result<Vec<_>>>()
            .ok()?;
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let source = Source {
            dir: dir.to_path_buf(),
            entries,
        };
        let has = |name: &str| source.files().any(|(n, _)| n == name);
        let is_source = has("char.def")
            && has("unk.def")
            && has("matrix.def")
            && source.csv_files().next().is_some();
        is_source.then_some(source)
    }

    /// Names and paths of the regular files (symbolic links followed).
    fn files(&self) -> impl Iterator<Item = (&OsString, PathBuf)> {
        self.entries.iter().filter_map(|(name, meta)| {
            let path = self.dir.join(name);
            let file = meta.is_file() || (meta.is_symlink() && path.is_file());
            file.then_some((name, path))
        })
    }

    fn csv_files(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.files()
            .filter(|(_, p)| p.extension().is_some_and(|x| x == "csv"))
            .map(|(_, p)| p)
    }

    /// Its canonical path and every entry's name, size and modification time.
    fn fingerprint(&self) -> std::io::Result<u64> {
        let mut hash = 0xcbf2_9ce4_8422_2325;
        fnv1a(
            &mut hash,
            fs::canonicalize(&self.dir)?.to_string_lossy().as_bytes(),
        );
        for (name, meta) in &self.entries {
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok());
            fnv1a(&mut hash, name.to_string_lossy().as_bytes());
            fnv1a(&mut hash, &meta.len().to_le_bytes());
            fnv1a(&mut hash, &mtime.map_or(0, |d| d.as_nanos()).to_le_bytes());
        }
        Ok(hash)
    }
}

/// The dictionary's name in signatures: the source directory's name (`ipadic` for the
/// Debian package), restricted to characters that are safe in a signature and a path.
fn source_name(dir: &Path) -> String {
    let base = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        "mecab".into()
    } else {
        clean
    }
}

/// EUC-JP (Debian's IPADIC) or UTF-8 (most other distributions of MeCab dictionaries):
/// EUC-JP Japanese is practically never valid UTF-8, so a sample of a CSV file decides.
fn detect_encoding(csv: &Path) -> std::io::Result<&'static str> {
    let mut sample = Vec::with_capacity(1 << 16);
    fs::File::open(csv)?
        .take(1 << 16)
        .read_to_end(&mut sample)?;
    Ok(match std::str::from_utf8(&sample) {
        Ok(_) => "UTF-8",
        // Cut in the middle of a character at the end of the sample: still UTF-8.
        Err(e) if e.error_len().is_none() => "UTF-8",
        Err(_) => "EUC-JP",
    })
}

/// FNV-1a: a small, stable hash for cache keys (std's hasher may change between releases).
fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Build `source` into the cache unless an entry for it exists; returns the entry's path
/// and whether it was built by this call.
fn build_cached(
    source: &Source,
    cache_root: &Path,
    name: &str,
) -> Result<(PathBuf, bool), DictError> {
    let io = |what: &str, path: &Path, e: std::io::Error| {
        DictError(format!("cannot {what} {}: {e}", path.display()))
    };
    let key = source
        .fingerprint()
        .map_err(|e| io("read the dictionary source", &source.dir, e))?;
    let entry = format!("ja-{name}-lindera{}-{key:016x}", lindera::get_version());
    let final_dir = cache_root.join(&entry);
    if final_dir.join("metadata.json").is_file() {
        return Ok((final_dir, false));
    }
    fs::create_dir_all(cache_root).map_err(|e| io("create the cache directory", cache_root, e))?;
    sweep(cache_root);
    let csv = source
        .csv_files()
        .next()
        .expect("a MeCab source has a CSV file");
    let encoding = detect_encoding(&csv).map_err(|e| io("read", &csv, e))?;
    let mut metadata =
        Metadata::load(IPADIC_METADATA.as_bytes()).map_err(|e| DictError(chain(&e)))?;
    metadata.name = name.to_string();
    metadata.encoding = encoding.to_string();

    let tmp = cache_root.join(format!(".{entry}.tmp-{}", unique()));
    let built = DictionaryBuilder::new(metadata)
        .build_dictionary(&source.dir, &tmp)
        .map_err(|e| chain(&e))
        .and_then(|()| {
            let manifest = manifest_of(&tmp).map_err(|e| e.to_string())?;
            fs::write(tmp.join(MANIFEST), manifest).map_err(|e| e.to_string())
        });
    if let Err(e) = built {
        let _ = fs::remove_dir_all(&tmp);
        return Err(DictError(format!(
            "cannot build the Japanese dictionary from {} ({encoding}): {}; check that it is \
             a complete MeCab IPADIC source",
            source.dir.display(),
            e
        )));
    }
    if let Err(e) = fs::rename(&tmp, &final_dir) {
        let _ = fs::remove_dir_all(&tmp);
        // Another process finished the same build first: use its result.
        if !final_dir.join("metadata.json").is_file() {
            return Err(io("move the built dictionary into", &final_dir, e));
        }
    }
    Ok((final_dir, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_encoding_from_a_csv_sample() {
        let dir = tempfile::tempdir().unwrap();
        let utf8 = dir.path().join("u.csv");
        fs::write(&utf8, "学生,1,1,100,名詞\n").unwrap();
        assert_eq!(detect_encoding(&utf8).unwrap(), "UTF-8");
        // 学生 in EUC-JP.
        let euc = dir.path().join("e.csv");
        fs::write(&euc, b"\xb3\xd8\xc0\xb8,1,1,100\n").unwrap();
        assert_eq!(detect_encoding(&euc).unwrap(), "EUC-JP");
    }

    #[test]
    fn source_names_are_safe() {
        assert_eq!(
            source_name(Path::new("/usr/share/mecab/dic/ipadic")),
            "ipadic"
        );
        assert_eq!(source_name(Path::new("/x/my dic (v2)")), "my_dic__v2_");
        assert_eq!(source_name(Path::new("/")), "mecab");
    }

    #[test]
    fn error_chain_is_one_line() {
        let e = std::io::Error::other("inner");
        assert_eq!(chain(&e), "inner");
    }
}
