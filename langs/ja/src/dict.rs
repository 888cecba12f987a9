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
//! directory is listed once per run for it (whether it is a source, its key). A build takes
//! seconds, so it is announced on standard error (with a spinner when that is a terminal).
//! When the cache cannot be written (an unwritable `XDG_CACHE_HOME`, no `HOME`), the
//! dictionary is built into a temporary directory for this run only, with a warning that
//! says how to keep it.
//!
//! Integrity: every entry carries a manifest (each file's size and checksum), written last;
//! an entry whose files do not match it (a truncated, edited or swapped file, a missing
//! manifest) is moved aside and rebuilt instead of being trusted, and temporary directories
//! left by crashed builds are removed once they are an hour old. Checksumming reads all
//! ~46 MB (some 30 ms, against 2 ms for the rest of a one-line run), so it is not done on
//! every start. A fresh build is checksummed; a later run that finds the entry sound writes
//! a stamp beside it (`<entry>.stamp`; older versions took any extra file inside an entry
//! for damage): what `stat` says of each file (size, inode, modification and status-change
//! times). A run whose `stat` gives the same stamp skips the checksums; any difference
//! means a full check (then a new stamp, or a rebuild). Any write, truncation, rename over
//! a file or reset of its modification time moves its status-change time (ctime), which
//! user space cannot set back, so a file edited in place with its size and mtime restored
//! still fails the stamp. A stamp is written only once every file's ctime is two seconds
//! old (`SETTLE`), so that a write landing in the same tick of a coarse filesystem clock as
//! the stamp cannot hide (git's "racily clean" index entries). What a stamp cannot see is
//! damage that bypasses the kernel's file writes (a disk's bit rot, writes to the raw block
//! device); nothing can, short of reading every page on every start, the cost this avoids.
//! Where there is no ctime (not Unix) or the stamp cannot be written (a read-only cache),
//! every run checksums.

use std::error::Error as StdError;
use std::ffi::OsString;
use std::fs;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use lindera::dictionary::{Dictionary, DictionaryBuilder, Metadata};
use lindera_dictionary::dictionary::character_definition::CharacterDefinition;

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

/// What to do when the cache cannot be written, said after the reason.
const UNWRITABLE_HINT: &str = "set XDG_CACHE_HOME to a writable directory to keep the build, \
     or pass a compiled dictionary with --ja-dict DIR or GREEN_JA_DICT=DIR";

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
    /// Where to build for this run only when the cache cannot be written.
    pub temp_root: PathBuf,
    /// Whether to use IPADIC compiled into the binary (only possible with `embed-ipadic`).
    pub use_embedded: bool,
    /// Say nothing on standard error (the build notice, its spinner, warnings).
    pub quiet: bool,
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
    /// Built from MeCab source for this run only (and deleted), as the cache was unwritable.
    Temporary { source: PathBuf },
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
            temp_root: std::env::temp_dir(),
            use_embedded: cfg!(feature = "embed-ipadic"),
            quiet: false,
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
        let name = source_name(&source.dir);
        let Some(cache_root) = self.cache_root.as_deref() else {
            return self.load_temporary(
                source,
                &name,
                "no cache directory (neither XDG_CACHE_HOME nor HOME is set)".into(),
            );
        };
        let key = source.fingerprint().map_err(|e| {
            DictError(format!(
                "cannot read the dictionary source {}: {e}",
                source.dir.display()
            ))
        })?;
        let entry = cache_root.join(format!(
            "ja-{name}-lindera{}-{key:016x}",
            lindera::get_version()
        ));
        let mut built_now = false;
        if !entry.join("metadata.json").is_file() {
            match self.build_entry(source, cache_root, &entry, &name)? {
                Built::Here => built_now = true,
                Built::Elsewhere => {}
                Built::Unwritable(why) => return self.load_temporary(source, &name, why),
            }
        }
        // A fresh build is checksummed; it is stamped by a later run, once it has settled.
        let mut checked = if built_now {
            verify(&entry)
        } else {
            check(&entry, SETTLE).map(drop)
        };
        if let (Err(why), false) = (&checked, built_now) {
            // Damaged after the fact: set it aside (atomically, so a concurrent run never
            // sees half of it) and build it again once.
            self.say(&format!(
                "warning: the Japanese dictionary cached at {} is damaged ({why}); building it \
                 again",
                entry.display()
            ));
            discard(&entry)?;
            match self.build_entry(source, cache_root, &entry, &name)? {
                Built::Here => built_now = true,
                Built::Elsewhere => {}
                Built::Unwritable(why) => return self.load_temporary(source, &name, why),
            }
            checked = verify(&entry);
        }
        checked.map_err(|why| {
            DictError(format!(
                "the dictionary built at {} is damaged ({why}); delete that directory and try again",
                entry.display()
            ))
        })?;
        let dictionary = load_guarded(&entry).map_err(|why| {
            DictError(format!(
                "cannot load the dictionary built at {}: {why}; delete that directory and try again",
                entry.display()
            ))
        })?;
        Ok(Loaded {
            dictionary,
            name,
            origin: Origin::Cached {
                source: source.dir.clone(),
                cache: entry,
                built_now,
            },
        })
    }

    /// Build `source` into the cache entry `entry` under `cache_root`.
    fn build_entry(
        &self,
        source: &Source,
        cache_root: &Path,
        entry: &Path,
        name: &str,
    ) -> Result<Built, DictError> {
        if let Err(e) = fs::create_dir_all(cache_root) {
            return Ok(Built::Unwritable(format!(
                "cannot create the cache directory {}: {e}",
                cache_root.display()
            )));
        }
        sweep(cache_root);
        let file_name = entry.file_name().unwrap_or_default().to_string_lossy();
        let tmp = cache_root.join(format!(".{file_name}.tmp-{}", unique()));
        if let Err(e) = fs::create_dir(&tmp) {
            return Ok(Built::Unwritable(format!(
                "cannot write in the cache directory {}: {e}",
                cache_root.display()
            )));
        }
        self.say(&format!(
            "building the Japanese dictionary from {} into {} (once, a few seconds)",
            source.dir.display(),
            entry.display()
        ));
        if let Err(e) = self.build_into(source, &tmp, name) {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e);
        }
        if let Err(e) = fs::rename(&tmp, entry) {
            let _ = fs::remove_dir_all(&tmp);
            // Another process finished the same build first: use its result.
            if entry.join("metadata.json").is_file() {
                return Ok(Built::Elsewhere);
            }
            return Err(DictError(format!(
                "cannot move the built dictionary into {}: {e}",
                entry.display()
            )));
        }
        Ok(Built::Here)
    }

    /// The cache cannot be written (`why`): build into a temporary directory, load the
    /// build, and delete it (its files stay mapped until the process ends).
    fn load_temporary(
        &self,
        source: &Source,
        name: &str,
        why: String,
    ) -> Result<Loaded, DictError> {
        let tmp = tempfile::Builder::new()
            .prefix("green-ja-")
            .tempdir_in(&self.temp_root)
            .map_err(|e| {
                DictError(format!(
                    "cannot build the Japanese dictionary from {}: {why}; nor in a temporary \
                     directory ({e}); {UNWRITABLE_HINT}",
                    source.dir.display()
                ))
            })?;
        self.say(&format!(
            "warning: {why}; building the Japanese dictionary from {} into {} for this run \
             only (a few seconds every run): {UNWRITABLE_HINT}",
            source.dir.display(),
            tmp.path().display()
        ));
        self.build_into(source, tmp.path(), name)?;
        let dictionary = load_guarded(tmp.path()).map_err(|why| {
            DictError(format!(
                "cannot load the dictionary built at {}: {why}",
                tmp.path().display()
            ))
        })?;
        Ok(Loaded {
            dictionary,
            name: name.to_string(),
            origin: Origin::Temporary {
                source: source.dir.clone(),
            },
        })
    }

    /// Build `source` into the empty directory `out`, manifest last, a spinner meanwhile.
    fn build_into(&self, source: &Source, out: &Path, name: &str) -> Result<(), DictError> {
        let csv = source
            .csv_files()
            .next()
            .expect("a MeCab source has a CSV file");
        let encoding = detect_encoding(&csv)
            .map_err(|e| DictError(format!("cannot read {}: {e}", csv.display())))?;
        let mut metadata =
            Metadata::load(IPADIC_METADATA.as_bytes()).map_err(|e| DictError(chain(&e)))?;
        metadata.name = name.to_string();
        metadata.encoding = encoding.to_string();
        let spinner = self.spinner();
        DictionaryBuilder::new(metadata)
            .build_dictionary(&source.dir, out)
            .map_err(|e| chain(&e))
            .and_then(|()| {
                let manifest = manifest_of(out).map_err(|e| e.to_string())?;
                fs::write(out.join(MANIFEST), manifest).map_err(|e| e.to_string())
            })
            .map_err(|e| {
                DictError(format!(
                    "cannot build the Japanese dictionary from {} ({encoding}): {e}; check \
                     that it is a complete MeCab IPADIC source",
                    source.dir.display()
                ))
            })?;
        spinner.finish_and_clear();
        Ok(())
    }

    /// A spinner on standard error while a build runs, only when that is a terminal.
    fn spinner(&self) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            .with_style(
                ProgressStyle::with_template(
                    "{spinner} building the Japanese dictionary {elapsed}",
                )
                .expect("valid template"),
            )
            .with_finish(ProgressFinish::AndClear);
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    }

    /// One line on standard error unless quiet; a closed standard error is no reason to stop.
    fn say(&self, line: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr().lock(), "green: {line}");
        }
    }
}

/// How [`Locator::build_entry`] ended.
enum Built {
    /// Built by this call.
    Here,
    /// Another process renamed the same build into place first.
    Elsewhere,
    /// The cache directory cannot be written, for this reason.
    Unwritable(String),
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
    match std::panic::catch_unwind(|| load_mapped(dir)) {
        Ok(result) => result,
        Err(_) => Err("the loader failed on its contents".into()),
    }
}

/// A compiled dictionary, loaded as lindera's `load_fs_dictionary` loads it (the format
/// checked first, the matrix and the words mapped) but for its character definition, which
/// is read without the table of every code point's categories that lindera builds on each
/// load: 65,536 binary searches, 6.4 M instructions, nine tenths of a warm one-line run.
/// Without that table lindera looks a character's categories up in the same definition by
/// binary search (its fallback for a table not built), so the tokens are the same; a
/// [`crate::Japanese`] builds the table once a long text makes it pay.
fn load_mapped(dir: &Path) -> Result<Dictionary, String> {
    use lindera_dictionary::loader::connection_cost_matrix::ConnectionCostMatrixLoader;
    use lindera_dictionary::loader::metadata::MetadataLoader;
    use lindera_dictionary::loader::prefix_dictionary::PrefixDictionaryLoader;
    use lindera_dictionary::loader::unknown_dictionary::UnknownDictionaryLoader;
    use std::sync::Arc;

    let lindera = |e: lindera::error::LinderaError| chain(&e);
    let metadata = MetadataLoader::load(dir).map_err(lindera)?;
    metadata.validate_format_version().map_err(lindera)?;
    let character_definition = character_definition(dir)?;
    Ok(Dictionary {
        connection_cost_matrix: Arc::new(
            ConnectionCostMatrixLoader::load_mmap(dir).map_err(lindera)?,
        ),
        prefix_dictionary: Arc::new(PrefixDictionaryLoader::load_mmap(dir).map_err(lindera)?),
        unknown_dictionary: Arc::new(UnknownDictionaryLoader::load(dir).map_err(lindera)?),
        character_definition: Arc::new(character_definition),
        metadata: Arc::new(metadata),
    })
}

/// `char_def.bin` (an rkyv archive, checked as it is read), without the code point table.
fn character_definition(dir: &Path) -> Result<CharacterDefinition, String> {
    let path = dir.join("char_def.bin");
    let bytes = fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(bytes.len());
    aligned.extend_from_slice(&bytes);
    rkyv::from_bytes::<CharacterDefinition, rkyv::rancor::Error>(&aligned)
        .map_err(|e| format!("{} is not a character definition: {e}", path.display()))
}

/// The manifest file of a cache entry: `<size> <checksum> <name>` per file, written last.
const MANIFEST: &str = "green-manifest.txt";
/// How old a file's last change must be before a stamp vouches for it.
const SETTLE: Duration = Duration::from_secs(2);

/// The regular files of an entry the manifest covers (all but itself), sorted by name.
fn entry_files(dir: &Path) -> std::io::Result<Vec<fs::DirEntry>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name() != MANIFEST && entry.file_type()?.is_file() {
            files.push(entry);
        }
    }
    files.sort_by_key(|e| e.file_name());
    Ok(files)
}

/// The stamp of an entry that matched its manifest (see the module documentation): a file
/// beside the entry, not in it, as green before stamps took any extra file in an entry for
/// damage.
fn stamp_file(entry: &Path) -> PathBuf {
    let mut name = entry.as_os_str().to_owned();
    name.push(".stamp");
    PathBuf::from(name)
}

/// Every file of `dir` but the manifest, as `size checksum name` lines.
fn manifest_of(dir: &Path) -> std::io::Result<String> {
    let mut out = String::new();
    for entry in entry_files(dir)? {
        let bytes = fs::read(entry.path())?;
        out.push_str(&format!(
            "{} {:016x} {}\n",
            bytes.len(),
            checksum(&bytes),
            entry.file_name().to_string_lossy()
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

/// How an entry was found sound.
#[derive(Debug, PartialEq, Eq)]
enum Checked {
    /// `stat` gives the stamp of the last full check: no file was read.
    ByStamp,
    /// Checksummed, and stamped for the next run.
    InFullStamped,
    /// Checksummed, not stamped (a file changed too recently, or no stamp can be kept).
    InFull,
}

/// Check an entry against its stamp, else against its manifest (then stamping it, once
/// every file has been left alone for `settle`).
fn check(dir: &Path, settle: Duration) -> Result<Checked, String> {
    let before = stamp_of(dir);
    if let Some((stamp, _)) = &before {
        if fs::read_to_string(stamp_file(dir)).is_ok_and(|s| s == *stamp) {
            return Ok(Checked::ByStamp);
        }
    }
    verify(dir)?;
    let Some((stamp, last_change)) = before else {
        return Ok(Checked::InFull);
    };
    let settled = SystemTime::now()
        .duration_since(last_change)
        .is_ok_and(|age| age >= settle);
    // Unchanged while it was read, so the checksums vouch for this stamp.
    let unchanged = stamp_of(dir).is_some_and(|(after, _)| after == stamp);
    if settled && unchanged && write_stamp(dir, &stamp).is_ok() {
        Ok(Checked::InFullStamped)
    } else {
        Ok(Checked::InFull)
    }
}

/// Replace the stamp atomically (through a temporary file beside it).
fn write_stamp(dir: &Path, stamp: &str) -> std::io::Result<()> {
    let file = stamp_file(dir);
    let mut tmp = file.clone().into_os_string();
    tmp.push(format!(".tmp-{}", unique()));
    let tmp = PathBuf::from(tmp);
    let written = fs::write(&tmp, stamp).and_then(|()| fs::rename(&tmp, &file));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// What `stat` says of each file the manifest covers and of the manifest, one line each:
/// size, inode, modification and status-change times; and the latest status change.
/// `None` where the platform has no status-change time or the entry cannot be listed.
#[cfg(unix)]
fn stamp_of(dir: &Path) -> Option<(String, SystemTime)> {
    use std::os::unix::fs::MetadataExt;
    let mut paths: Vec<PathBuf> = entry_files(dir).ok()?.iter().map(|e| e.path()).collect();
    paths.push(dir.join(MANIFEST));
    let mut stamp = String::new();
    let mut last_change = UNIX_EPOCH;
    for path in paths {
        let m = fs::symlink_metadata(&path).ok()?;
        let name = path.file_name()?.to_string_lossy();
        stamp.push_str(&format!(
            "{} {} {}.{:09} {}.{:09} {name}\n",
            m.len(),
            m.ino(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec()
        ));
        let changed = u64::try_from(m.ctime()).unwrap_or(0);
        let nanos = u32::try_from(m.ctime_nsec()).unwrap_or(0);
        last_change = last_change.max(UNIX_EPOCH + Duration::new(changed, nanos));
    }
    Some((stamp, last_change))
}

#[cfg(not(unix))]
fn stamp_of(_: &Path) -> Option<(String, SystemTime)> {
    None
}

/// Move a damaged entry out of the way, then delete it and its stamp.
fn discard(entry: &Path) -> Result<(), DictError> {
    let _ = fs::remove_file(stamp_file(entry));
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

/// Remove temporary build directories and stamps older than an hour (left by crashes).
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
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = fs::remove_dir_all(entry.path());
            } else {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// FNV-1a over 8-byte words (fast enough for ~50 MB of dictionary after a build).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture dictionary (tests/fixtures/tinydic) built into a fresh cache.
    fn built() -> (tempfile::TempDir, PathBuf) {
        let cache = tempfile::tempdir().unwrap();
        let locator = Locator {
            path: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tinydic")),
            system_source: PathBuf::from("/nonexistent"),
            cache_root: Some(cache.path().to_path_buf()),
            temp_root: cache.path().to_path_buf(),
            use_embedded: false,
            quiet: true,
        };
        let Origin::Cached { cache: entry, .. } = locator.load().unwrap().origin else {
            panic!("expected a cache build");
        };
        (cache, entry)
    }

    /// Without lindera's code point table ([`load_mapped`]) a dictionary segments exactly as
    /// through lindera's own loader: known and unknown words, every kind of character.
    #[test]
    fn loading_without_the_code_point_table_segments_the_same() {
        use green_tokenizer_api::Tokenizer;
        let (_cache, entry) = built();
        let ours = crate::Japanese::new(load_mapped(&entry).unwrap(), "t");
        let dict = lindera::dictionary::load_fs_dictionary(&entry).unwrap();
        let theirs = crate::Japanese::new(dict, "t");
        let text =
            "東京に住む。ＡＢＣabc 123１２３ カタカナとひらがな、漢字！ 𠮷野家 αβγ ﾊﾝｶｸ\u{3000}終";
        let tokens = |t: &crate::Japanese| {
            let mut out = Vec::new();
            t.tokenize(text, &mut |s| out.push(s.to_string())).unwrap();
            out
        };
        assert!(tokens(&ours).len() > 10);
        // Past TABLE_FROM bytes `ours` builds lindera's table itself: the same tokens again.
        let mut fed = 0;
        while fed <= crate::TABLE_FROM {
            assert_eq!(tokens(&ours), tokens(&theirs));
            fed += text.len();
        }
        assert!(ours.has_table());
        assert_eq!(tokens(&ours), tokens(&theirs));
    }

    /// The embedded dictionary comes from lindera's own loader, with the code point table:
    /// its tokenizer uses that from the start rather than building a second one.
    #[test]
    fn a_dictionary_from_lindera_s_loader_keeps_its_table() {
        let (_cache, entry) = built();
        let loaded = Loaded {
            dictionary: lindera::dictionary::load_fs_dictionary(&entry).unwrap(),
            name: "t".into(),
            origin: Origin::Embedded,
        };
        assert!(crate::Japanese::from_loaded(loaded).has_table());
        let loaded = Loaded {
            dictionary: load_mapped(&entry).unwrap(),
            name: "t".into(),
            origin: Origin::Cached {
                source: entry.clone(),
                cache: entry.clone(),
                built_now: false,
            },
        };
        assert!(!crate::Japanese::from_loaded(loaded).has_table());
    }

    #[cfg(unix)]
    #[test]
    fn a_sound_entry_is_checksummed_then_trusted_by_its_stamp() {
        let (_cache, entry) = built();
        // Too fresh for the settling time: checksummed, not stamped.
        assert_eq!(
            check(&entry, Duration::from_secs(3600)),
            Ok(Checked::InFull)
        );
        assert!(!stamp_file(&entry).exists());
        assert_eq!(check(&entry, Duration::ZERO), Ok(Checked::InFullStamped));
        assert_eq!(check(&entry, SETTLE), Ok(Checked::ByStamp));
        // The stamp lives beside the entry: the entry still matches its manifest.
        assert_eq!(verify(&entry), Ok(()));
    }

    /// Set a file's modification time.
    fn set_mtime(path: &Path, mtime: SystemTime) {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(mtime).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn damage_that_keeps_size_and_mtime_is_caught() {
        let (_a, edited) = built();
        let (b, replaced) = built();
        // Stamped by a run after the settling time, so that a later write moves the ctime
        // even on a filesystem with a coarse clock.
        std::thread::sleep(SETTLE);
        for entry in [&edited, &replaced] {
            assert_eq!(check(entry, SETTLE), Ok(Checked::InFullStamped));
        }

        // Edited in place, size and mtime restored: same inode, only the ctime tells.
        let path = edited.join("dict.vals");
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        let mut bytes = fs::read(&path).unwrap();
        bytes[0] ^= 1;
        fs::write(&path, &bytes).unwrap();
        set_mtime(&path, mtime);
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), mtime);
        assert_eq!(
            check(&edited, SETTLE),
            Err("its files do not match its manifest".into())
        );

        // Swapped for another file of the same size and mtime: the inode tells.
        let path = replaced.join("matrix.mtx");
        let meta = fs::metadata(&path).unwrap();
        let other = b.path().join("other");
        fs::write(&other, vec![7u8; meta.len() as usize]).unwrap();
        set_mtime(&other, meta.modified().unwrap());
        fs::rename(&other, &path).unwrap();
        assert!(check(&replaced, SETTLE).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_copied_entry_is_checksummed_again_not_rebuilt() {
        let (cache, entry) = built();
        assert_eq!(check(&entry, Duration::ZERO), Ok(Checked::InFullStamped));
        // A copy keeps contents and mtimes but not inodes or ctimes (a backup restored).
        let copy = cache.path().join("copy");
        fs::create_dir(&copy).unwrap();
        for file in fs::read_dir(&entry).unwrap() {
            let file = file.unwrap();
            let to = copy.join(file.file_name());
            fs::copy(file.path(), &to).unwrap();
            set_mtime(&to, file.metadata().unwrap().modified().unwrap());
        }
        fs::copy(stamp_file(&entry), stamp_file(&copy)).unwrap();
        assert_eq!(check(&copy, Duration::ZERO), Ok(Checked::InFullStamped));
        assert_eq!(check(&copy, Duration::ZERO), Ok(Checked::ByStamp));
    }

    #[test]
    fn a_garbled_stamp_only_costs_a_full_check() {
        let (_cache, entry) = built();
        fs::write(stamp_file(&entry), "garbage\n").unwrap();
        assert!(matches!(
            check(&entry, Duration::ZERO),
            Ok(Checked::InFull | Checked::InFullStamped)
        ));
    }

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
