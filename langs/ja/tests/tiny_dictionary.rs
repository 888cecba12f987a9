//! The real lindera build-and-load path on a tiny EUC-JP MeCab dictionary (tests/fixtures/
//! tinydic), so it runs without IPADIC: build into a cache, reuse it, load a compiled
//! directory, recover from a damaged cache (stamped or not), build for one run when the
//! cache cannot be written, and say clearly when nothing is found.

use std::fs;
use std::path::{Path, PathBuf};

use green_engine::Tokenizer;
use green_ja::{Japanese, Locator, Origin};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tinydic")
}

fn locator(path: Option<PathBuf>, cache: &Path) -> Locator {
    Locator {
        path,
        system_source: PathBuf::from("/nonexistent/mecab/dic/ipadic"),
        cache_root: Some(cache.to_path_buf()),
        temp_root: std::env::temp_dir(),
        use_embedded: false,
        quiet: true,
    }
}

fn tokens(t: &Japanese, s: &str) -> Vec<String> {
    t.tokens(s).unwrap()
}

/// Build the fixture dictionary into `cache`; the compiled directory.
fn build_cache(cache: &Path) -> PathBuf {
    let Origin::Cached { cache: built, .. } =
        locator(Some(fixture()), cache).load().unwrap().origin
    else {
        panic!("expected a cache build");
    };
    built
}

#[test]
fn builds_from_mecab_source_then_reuses_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let loaded = locator(Some(fixture()), cache.path()).load().unwrap();
    let Origin::Cached {
        cache: built,
        built_now,
        ..
    } = loaded.origin.clone()
    else {
        panic!("expected a cache build, got {:?}", loaded.origin);
    };
    assert!(built_now);
    assert!(built.starts_with(cache.path()));
    assert_eq!(loaded.name, "tinydic");
    // Only the finished entry is left: the temporary build directory was renamed.
    let entries: Vec<_> = fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries, std::slice::from_ref(&built));

    let t = Japanese::from_loaded(loaded);
    assert_eq!(t.name(), "ja-lindera-tinydic");
    // Word costs pick 学生 over 学 + 生.
    assert_eq!(
        tokens(&t, "私は学生です。"),
        ["私", "は", "学生", "です", "。"]
    );
    assert_eq!(
        tokens(&t, "私は本を読む。"),
        ["私", "は", "本", "を", "読む", "。"]
    );
    // Unknown words: a katakana run and a Latin run each group into one token; ASCII
    // spaces (the SPACE class) and U+3000 (SYMBOL here) are dropped.
    assert_eq!(
        tokens(&t, "Tom は パン\u{3000}です"),
        ["Tom", "は", "パン", "です"]
    );
    assert!(tokens(&t, "").is_empty());

    let again = locator(Some(fixture()), cache.path()).load().unwrap();
    assert_eq!(
        again.origin,
        Origin::Cached {
            source: fixture(),
            cache: built,
            built_now: false
        }
    );
}

#[test]
fn loads_a_compiled_dictionary_directory() {
    let cache = tempfile::tempdir().unwrap();
    let built = build_cache(cache.path());
    let compiled = locator(Some(built.clone()), Path::new("/nonexistent"))
        .load()
        .unwrap();
    assert_eq!(compiled.origin, Origin::Compiled(built));
    assert_eq!(compiled.name, "tinydic");
    assert_eq!(
        tokens(&Japanese::from_loaded(compiled), "学生です"),
        ["学生", "です"]
    );
}

#[test]
fn system_source_is_used_when_no_path_is_given() {
    let cache = tempfile::tempdir().unwrap();
    let mut loc = locator(None, cache.path());
    loc.system_source = fixture();
    let loaded = loc.load().unwrap();
    assert!(matches!(
        loaded.origin,
        Origin::Cached {
            built_now: true,
            ..
        }
    ));
}

/// Damage one file of a built entry with `damage`, then load: the entry is rebuilt and
/// tokenizes as before, never trusted or panicking.
fn rebuilt_after(damage: impl Fn(&Path)) {
    let cache = tempfile::tempdir().unwrap();
    let built = build_cache(cache.path());
    damage(&built);
    let loaded = locator(Some(fixture()), cache.path()).load().unwrap();
    assert!(matches!(
        loaded.origin,
        Origin::Cached {
            built_now: true,
            ..
        }
    ));
    assert_eq!(
        tokens(&Japanese::from_loaded(loaded), "私は学生です。"),
        ["私", "は", "学生", "です", "。"]
    );
    // Only the rebuilt entry is left.
    assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 1);
}

#[test]
fn a_damaged_cache_entry_is_rebuilt() {
    rebuilt_after(|dir| fs::remove_file(dir.join("char_def.bin")).unwrap());
}

#[test]
fn an_emptied_file_is_not_trusted() {
    // Once: an emptied dict.vals retokenised most lines differently under the same signature.
    rebuilt_after(|dir| fs::write(dir.join("dict.vals"), b"").unwrap());
}

#[test]
fn random_bytes_do_not_panic() {
    rebuilt_after(|dir| {
        for f in fs::read_dir(dir).unwrap() {
            let path = f.unwrap().path();
            if path.file_name().unwrap() != "green-manifest.txt" {
                let len = fs::metadata(&path).unwrap().len() as usize;
                let noise: Vec<u8> = (0..len).map(|i| (i * 7919 % 251) as u8).collect();
                fs::write(&path, noise).unwrap();
            }
        }
    });
}

#[test]
fn an_entry_without_manifest_is_rebuilt() {
    rebuilt_after(|dir| fs::remove_file(dir.join("green-manifest.txt")).unwrap());
}

#[test]
fn an_edit_keeping_size_and_mtime_is_rebuilt() {
    rebuilt_after(|dir| {
        let path = dir.join("dict.words");
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        let mut bytes = fs::read(&path).unwrap();
        bytes[0] ^= 1;
        fs::write(&path, bytes).unwrap();
        set_mtime(&path, mtime);
    });
}

#[test]
fn swapped_files_are_rebuilt() {
    rebuilt_after(|dir| {
        let (a, b, tmp) = (dir.join("dict.vals"), dir.join("dict.words"), dir.join("x"));
        fs::rename(&a, &tmp).unwrap();
        fs::rename(&b, &a).unwrap();
        fs::rename(&tmp, &b).unwrap();
    });
}

fn set_mtime(path: &Path, mtime: std::time::SystemTime) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(mtime).unwrap();
}

/// A run after the settling time stamps the entry beside it and later runs trust the
/// stamp; damage that keeps every file's size and mtime still fails it and rebuilds.
#[cfg(unix)]
#[test]
fn a_stamped_entry_damaged_in_place_is_rebuilt() {
    let cache = tempfile::tempdir().unwrap();
    let built = build_cache(cache.path());
    let mut stamp = built.clone().into_os_string();
    stamp.push(".stamp");
    let stamp = PathBuf::from(stamp);
    assert!(!stamp.exists(), "a fresh build is not stamped");
    // Past the settling time (2 s) that a stamp waits for.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let reused = locator(Some(fixture()), cache.path()).load().unwrap();
    assert!(matches!(
        reused.origin,
        Origin::Cached {
            built_now: false,
            ..
        }
    ));
    assert!(stamp.exists());

    let path = built.join("dict.vals");
    let mtime = fs::metadata(&path).unwrap().modified().unwrap();
    let mut bytes = fs::read(&path).unwrap();
    bytes[0] ^= 1;
    fs::write(&path, bytes).unwrap();
    set_mtime(&path, mtime);
    let loaded = locator(Some(fixture()), cache.path()).load().unwrap();
    assert!(matches!(
        loaded.origin,
        Origin::Cached {
            built_now: true,
            ..
        }
    ));
    assert_eq!(
        tokens(&Japanese::from_loaded(loaded), "私は学生です。"),
        ["私", "は", "学生", "です", "。"]
    );
    // The old stamp went with the damaged entry.
    assert!(!stamp.exists());
    assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 1);
}

/// A directory path that cannot be created: it runs through a regular file.
fn under_a_file(dir: &Path) -> PathBuf {
    let file = dir.join("file");
    fs::write(&file, "").unwrap();
    file.join("cache")
}

#[test]
fn an_unwritable_cache_builds_for_this_run_only() {
    let dir = tempfile::tempdir().unwrap();
    let temp = dir.path().join("tmp");
    fs::create_dir(&temp).unwrap();
    for cache_root in [Some(under_a_file(dir.path())), None] {
        let mut loc = locator(Some(fixture()), Path::new("/unused"));
        loc.cache_root = cache_root;
        loc.temp_root = temp.clone();
        let loaded = loc.load().unwrap();
        assert_eq!(loaded.origin, Origin::Temporary { source: fixture() });
        // Deleted once loaded; the mapped files live on until the process ends.
        assert_eq!(fs::read_dir(&temp).unwrap().count(), 0);
        assert_eq!(
            tokens(&Japanese::from_loaded(loaded), "私は学生です。"),
            ["私", "は", "学生", "です", "。"]
        );
    }
}

#[test]
fn no_writable_directory_at_all_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let cache_root = under_a_file(dir.path());
    let mut loc = locator(Some(fixture()), &cache_root);
    loc.temp_root = cache_root.join("tmp");
    let err = loc.load().err().unwrap().to_string();
    assert!(
        err.starts_with("cannot build the Japanese dictionary from"),
        "{err}"
    );
    for part in [
        &format!("cannot create the cache directory {}", cache_root.display()),
        &format!(
            "nor in a temporary directory (Not a directory (os error 20) at path \"{}/green-ja-",
            loc.temp_root.display()
        ),
        "set XDG_CACHE_HOME to a writable directory",
        "--ja-dict DIR or GREEN_JA_DICT=DIR",
    ] {
        assert!(err.contains(part), "missing {part:?} in: {err}");
    }
    assert!(!err.contains('\n'));
}

#[test]
fn stale_temporary_builds_are_swept() {
    let cache = tempfile::tempdir().unwrap();
    let stale = cache.path().join(".ja-x.tmp-1-2");
    fs::create_dir(&stale).unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    fs::File::open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let fresh = cache.path().join(".ja-y.tmp-3-4");
    fs::create_dir(&fresh).unwrap();
    build_cache(cache.path());
    assert!(!stale.exists());
    assert!(
        fresh.exists(),
        "a build in progress elsewhere is left alone"
    );
}

#[test]
fn nothing_found_lists_the_three_ways() {
    let cache = tempfile::tempdir().unwrap();
    let err = locator(None, cache.path())
        .load()
        .err()
        .unwrap()
        .to_string();
    assert!(err.starts_with("no Japanese dictionary found"), "{err}");
    for way in [
        "--features embed-ipadic",
        "--ja-dict DIR",
        "GREEN_JA_DICT=DIR",
        "apt-get install mecab-ipadic",
    ] {
        assert!(err.contains(way), "missing {way:?} in: {err}");
    }
    assert!(!err.contains('\n'));
}

#[test]
fn a_path_that_is_no_dictionary_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = locator(Some(dir.path().to_path_buf()), dir.path())
        .load()
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("is neither a compiled lindera dictionary"),
        "{err}"
    );
    let broken = dir.path().join("broken");
    fs::create_dir(&broken).unwrap();
    for f in ["char.def", "unk.def", "matrix.def"] {
        fs::copy(fixture().join(f), broken.join(f)).unwrap();
    }
    fs::write(broken.join("words.csv"), "学生,1,1,notanumber,名詞\n").unwrap();
    let err = locator(Some(broken), dir.path())
        .load()
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.starts_with("cannot build the Japanese dictionary from"),
        "{err}"
    );
}
