//! `green data list|get` offline: a registry of two small datasets made here (the `tiny`
//! meta-evaluation fixture), installed from a directory and from a .tar.gz into a data
//! directory of the test's own, checksums enforced, and `green meta` finding the installed
//! files with no `--data`. Never the network, never `../shared`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{stderr, stdout};
use sha2::{Digest, Sha256};

/// The `tiny` fixture's files, as they go under the data directory.
const FILES: [&str; 6] = [
    "tiny/source.txt",
    "tiny/ref.txt",
    "tiny/systems/A.txt",
    "tiny/systems/B.txt",
    "tiny/systems/C.txt",
    "tiny/judgments.xml",
];

/// A test's world: the source layout, a registry pinning it, a descriptor reading it, an
/// empty working directory and the data directory `green data` installs into.
struct World {
    _tmp: tempfile::TempDir,
    src: PathBuf,
    registry: PathBuf,
    descriptor: PathBuf,
    work: PathBuf,
    data: PathBuf,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../green-meta/tests/fixtures/tiny");
        let src = root.join("src");
        for f in FILES {
            let dest = src.join(f);
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::copy(fixture.join(f.strip_prefix("tiny/").unwrap()), dest).unwrap();
        }
        // `tiny-judged` holds only the judgments and needs `tiny`, as gjg15 needs conll14.
        let mut registry = String::new();
        for (name, needs, files) in [
            ("tiny", "", &FILES[..5]),
            ("tiny-judged", "needs = [\"tiny\"]\n", &FILES[5..]),
        ] {
            registry += &format!(
                "[[dataset]]\nname = \"{name}\"\ndescription = \"the {name} fixture\"\nlicence = \"CC0\"\nterms = \"CC0; cite nobody\"\nsource = \"https://example.org/{name}\"\ncommit = \"0123456789abcdef\"\nurl = \"https://example.org/{name}/raw\"\n{needs}"
            );
            for f in files {
                let bytes = std::fs::read(src.join(f)).unwrap();
                let sha: String = Sha256::digest(&bytes)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                registry += &format!(
                    "[[dataset.file]]\npath = \"{f}\"\nsize = {}\nsha256 = \"{sha}\"\n",
                    bytes.len()
                );
            }
        }
        std::fs::write(root.join("registry.toml"), registry).unwrap();
        let descriptor = std::fs::read_to_string(fixture.join("tiny.toml"))
            .unwrap()
            .replace("= \"source.txt\"", "= \"tiny/source.txt\"")
            .replace("[\"ref.txt\"]", "[\"tiny/ref.txt\"]")
            .replace("\"systems/{system}.txt\"", "\"tiny/systems/{system}.txt\"")
            .replace("\"judgments.xml\"", "\"tiny/judgments.xml\"");
        std::fs::write(root.join("tiny.toml"), descriptor).unwrap();
        std::fs::create_dir(root.join("work")).unwrap();
        World {
            src,
            registry: root.join("registry.toml"),
            descriptor: root.join("tiny.toml"),
            work: root.join("work"),
            data: root.join("data"),
            _tmp: tmp,
        }
    }

    /// `green ARGS` in the empty working directory, with this world's registry and data
    /// directory (and a HOME of its own, so nothing of the user's is read or written).
    fn green(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_green"))
            .current_dir(&self.work)
            .args(args)
            .env("GREEN_DATA_REGISTRY", &self.registry)
            .env("GREEN_DATA_DIR", &self.data)
            .env("HOME", self.work.join("home"))
            .env_remove("XDG_DATA_HOME")
            .output()
            .unwrap()
    }

    fn get_from(&self, name: &str, from: &Path) -> Output {
        self.green(&["data", "get", name, "--from", from.to_str().unwrap()])
    }

    /// The files under the data directory, relative to it, sorted.
    fn installed(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self.data.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(&self.data).unwrap();
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        out.sort();
        out
    }
}

fn sorted(files: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    v.sort();
    v
}

/// One line, no panic.
fn one_line(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn list_shows_each_dataset_and_whether_it_is_installed() {
    let w = World::new();
    let out = stdout(&w.green(&["data", "list"]));
    assert!(out.contains("tiny         the tiny fixture\n"), "{out}");
    assert!(
        out.contains(
            "not installed; 5 files, 1 kB; licence: CC0; https://example.org/tiny at 0123456"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(": none (green data get NAME --from PATH)\n"),
        "{out}"
    );
    assert!(out.contains(&w.data.display().to_string()), "{out}");
    stdout(&w.get_from("tiny", &w.src));
    let out = stdout(&w.green(&["data", "list"]));
    assert!(out.contains("  installed; 5 files"), "{out}");
    assert!(out.contains("not installed; 1 file, 1 kB"), "{out}");
    assert!(out.ends_with(": tiny\n"), "{out}");
}

#[test]
fn get_from_a_directory_then_meta_finds_it_without_data() {
    let w = World::new();
    let descriptor = w.descriptor.to_str().unwrap();
    // Before: meta says what is missing and how to install it.
    let err = one_line(&w.green(&["meta", "-D", descriptor, "-t", "word"]));
    assert!(
        err.contains("no data directory has every file needed")
            && err.contains("green data get tiny-judged tiny --from PATH"),
        "{err}"
    );
    // `tiny-judged` brings `tiny`, which it needs, first.
    let out = stdout(&w.get_from("tiny-judged", &w.src));
    assert!(out.starts_with("tiny: the tiny fixture\n"), "{out}");
    assert!(out.contains("  licence: CC0; cite nobody\n"), "{out}");
    assert!(
        out.contains(&format!(
            "5 from {}; every SHA-256 verified",
            w.src.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("tiny-judged: the tiny-judged fixture\n"),
        "{out}"
    );
    assert_eq!(w.installed(), sorted(&FILES));
    let found = stdout(&w.green(&["meta", "-D", descriptor, "-t", "word"]));
    let given = stdout(&w.green(&[
        "meta",
        "-D",
        descriptor,
        "-t",
        "word",
        "--data",
        w.src.to_str().unwrap(),
    ]));
    assert_eq!(found, given);
    assert!(found.contains("GREEN"), "{found}");
}

#[test]
fn the_data_directory_follows_xdg_and_the_flag() {
    let w = World::new();
    let xdg = w.work.join("xdg");
    let o = Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(&w.work)
        .args(["data", "get", "tiny", "--from", w.src.to_str().unwrap()])
        .env("GREEN_DATA_REGISTRY", &w.registry)
        .env_remove("GREEN_DATA_DIR")
        .env("XDG_DATA_HOME", &xdg)
        .output()
        .unwrap();
    stdout(&o);
    assert!(xdg.join("green/data/tiny/ref.txt").is_file());
    let elsewhere = w.work.join("elsewhere");
    stdout(&w.green(&[
        "data",
        "get",
        "tiny",
        "--from",
        w.src.to_str().unwrap(),
        "--dir",
        elsewhere.to_str().unwrap(),
    ]));
    assert!(elsewhere.join("tiny/systems/C.txt").is_file());
    assert!(w.installed().is_empty(), "{:?}", w.installed());
}

/// A .tar.gz of an upstream-like tree: one top-level directory, as GitHub's archives have.
#[test]
fn get_from_an_archive() {
    let w = World::new();
    let archive = w.work.join("tiny.tar.gz");
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&archive).unwrap(),
        flate2::Compression::default(),
    );
    let mut tar = tar::Builder::new(gz);
    for f in FILES {
        tar.append_path_with_name(w.src.join(f), format!("tiny-0123456/{f}"))
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    let out = stdout(&w.get_from("tiny-judged", &archive));
    assert!(out.contains("5 from "), "{out}");
    assert_eq!(w.installed(), sorted(&FILES));

    // An archive without one of the files installs none of that dataset's.
    let w = World::new();
    let partial = w.work.join("partial.tar");
    let mut tar = tar::Builder::new(std::fs::File::create(&partial).unwrap());
    for f in &FILES[1..] {
        tar.append_path_with_name(w.src.join(f), f).unwrap();
    }
    tar.finish().unwrap();
    let err = one_line(&w.get_from("tiny", &partial));
    assert!(
        err.contains("partial.tar has no tiny/source.txt; nothing was installed"),
        "{err}"
    );
    assert!(w.installed().is_empty(), "{:?}", w.installed());
}

#[test]
fn a_wrong_checksum_or_a_missing_file_installs_nothing() {
    let w = World::new();
    // One byte changed, same size: only the checksum tells.
    std::fs::write(w.src.join("tiny/systems/B.txt"), b"a b C\nx y\n").unwrap();
    let err = one_line(&w.get_from("tiny", &w.src));
    assert!(
        err.contains("tiny/systems/B.txt has SHA-256 ")
            && err.contains("as the registry pins for tiny/systems/B.txt; nothing was installed"),
        "{err}"
    );
    // Nothing of the dataset, and no staging directory, is left behind.
    assert!(w.installed().is_empty(), "{:?}", w.installed());
    assert_eq!(std::fs::read_dir(&w.data).unwrap().count(), 0);

    std::fs::write(w.src.join("tiny/systems/B.txt"), b"a b\n").unwrap();
    let err = one_line(&w.get_from("tiny", &w.src));
    assert!(
        err.contains("has 4 bytes, not the 10 the registry pins"),
        "{err}"
    );

    std::fs::remove_file(w.src.join("tiny/systems/B.txt")).unwrap();
    let err = one_line(&w.get_from("tiny", &w.src));
    assert!(
        err.contains(&format!(
            "{} has no tiny/systems/B.txt; nothing was installed",
            w.src.display()
        )),
        "{err}"
    );
    assert!(w.installed().is_empty());
}

#[test]
fn names_and_sources_are_checked() {
    let w = World::new();
    let err = one_line(&w.get_from("nope", &w.src));
    assert!(
        err.contains("no dataset 'nope'; the datasets are tiny, tiny-judged (green data list)"),
        "{err}"
    );
    let err = one_line(&w.green(&["data", "get", "tiny"]));
    assert!(
        err.contains("say where the files come from: --from PATH"),
        "{err}"
    );
    let err = one_line(&w.get_from("tiny", &w.work.join("missing")));
    assert!(err.contains("missing: no such file or directory"), "{err}");
    std::fs::write(w.work.join("x.zip"), "PK").unwrap();
    let err = one_line(&w.get_from("tiny", &w.work.join("x.zip")));
    assert!(
        err.contains("not a directory, .tar, .tar.gz or .tgz"),
        "{err}"
    );
    let err = one_line(&w.get_from("tiny", &{
        std::fs::write(w.work.join("bad.tar.gz"), "not gzip").unwrap();
        w.work.join("bad.tar.gz")
    }));
    assert!(err.contains("cannot read the archive"), "{err}");
    assert!(w.installed().is_empty());
}

#[test]
fn a_second_get_changes_nothing_and_a_damaged_file_is_replaced() {
    let w = World::new();
    stdout(&w.get_from("tiny", &w.src));
    let out = stdout(&w.get_from("tiny", &w.src));
    assert!(
        out.contains("already installed and verified; nothing changed"),
        "{out}"
    );
    // Nothing is read from the source when everything is in place.
    let out = stdout(&w.get_from("tiny", &w.work));
    assert!(out.contains("nothing changed"), "{out}");
    std::fs::write(w.data.join("tiny/ref.txt"), "damaged\n").unwrap();
    let out = stdout(&w.get_from("tiny", &w.src));
    assert!(
        out.contains("1 from ") && out.contains("4 already there; every SHA-256 verified"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(w.data.join("tiny/ref.txt")).unwrap(),
        std::fs::read(w.src.join("tiny/ref.txt")).unwrap()
    );
    assert_eq!(w.installed(), sorted(&FILES[..5]));
}

/// Real data: every registered dataset installs from GREEN_SHARED's data directory (so the
/// registry's checksums are those of the files the docs' numbers come from), and `green meta`
/// run in an empty directory finds GJG15 there and prints what it prints with `--data`.
#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn the_shared_data_installs_and_meta_finds_it() {
    let shared = green_test_data::shared().join("data");
    assert!(shared.is_dir(), "{} is missing", shared.display());
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let green = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_green"))
            .current_dir(&work)
            .args(args)
            .env("GREEN_DATA_DIR", &data)
            .env_remove("GREEN_DATA_REGISTRY")
            .output()
            .unwrap()
    };
    let out = stdout(&green(&[
        "data",
        "get",
        "--all",
        "--from",
        shared.to_str().unwrap(),
    ]));
    assert!(out.contains("every SHA-256 verified"), "{out}");
    let list = stdout(&green(&["data", "list"]));
    assert!(!list.contains("not installed"), "{list}");
    let meta = ["meta", "-D", "gjg15", "-t", "word", "-n", "4"];
    let found = stdout(&green(&meta));
    let mut with_data = meta.to_vec();
    with_data.extend(["--data", shared.to_str().unwrap()]);
    assert_eq!(found, stdout(&green(&with_data)));
}

#[cfg(not(feature = "download"))]
#[test]
fn a_default_build_does_not_download() {
    let w = World::new();
    let err = one_line(&w.green(&["data", "get", "tiny", "--download"]));
    assert!(
        err.contains("this green was built without downloads; give --from PATH"),
        "{err}"
    );
    assert!(w.installed().is_empty());
}

/// `--download --mirror` against a server on 127.0.0.1 started here, serving the source
/// layout whole, damaged or cut short: what is kept is what the registry pins, or nothing.
#[cfg(feature = "download")]
mod download {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// What the server does with a file: serve it, or a changed body, or declare its length
    /// and close after part of it.
    #[derive(Clone, Copy)]
    enum Serve {
        Whole,
        Changed,
        CutShort,
    }

    /// Serve `root` over HTTP on a free loopback port, `how` for paths ending in `damaged`;
    /// the URL.
    fn serve(root: PathBuf, damaged: &'static str, how: Serve) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let mut stream = stream.unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request = String::new();
                reader.read_line(&mut request).unwrap();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).unwrap() == 0 || header == "\r\n" {
                        break;
                    }
                }
                let path = request.split(' ').nth(1).unwrap_or("/").to_string();
                let Ok(mut body) = std::fs::read(root.join(path.trim_start_matches('/'))) else {
                    let _ = stream.write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    );
                    continue;
                };
                let mut length = body.len();
                if path.ends_with(damaged) {
                    match how {
                        Serve::Whole => {}
                        Serve::Changed => body[0] ^= 1,
                        Serve::CutShort => body.truncate(body.len() / 2),
                    }
                    if let Serve::Changed = how {
                        length = body.len();
                    }
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        url
    }

    fn get(w: &World, url: &str) -> Output {
        w.green(&["data", "get", "tiny-judged", "--download", "--mirror", url])
    }

    #[test]
    fn a_mirror_installs_and_meta_finds_it() {
        let w = World::new();
        let url = serve(w.src.clone(), "", Serve::Whole);
        let out = stdout(&get(&w, &url));
        assert!(out.contains(&format!("5 from the mirror {url}")), "{out}");
        assert_eq!(w.installed(), sorted(&FILES));
        let descriptor = w.descriptor.to_str().unwrap();
        assert!(stdout(&w.green(&["meta", "-D", descriptor, "-t", "word"])).contains("GREEN"));
    }

    #[test]
    fn a_changed_or_cut_download_is_not_kept() {
        for (how, says) in [
            (Serve::Changed, "has SHA-256 "),
            (Serve::CutShort, "nothing was installed"),
        ] {
            let w = World::new();
            let url = serve(w.src.clone(), "systems/B.txt", how);
            let err = one_line(&get(&w, &url));
            assert!(
                err.contains("tiny/systems/B.txt") && err.contains(says),
                "{err}"
            );
            assert!(w.installed().is_empty(), "{:?}", w.installed());
        }
        let w = World::new();
        let url = serve(w.work.clone(), "", Serve::Whole);
        let err = one_line(&get(&w, &url));
        assert!(
            err.contains("answered HTTP 404; nothing was installed"),
            "{err}"
        );
        assert!(w.installed().is_empty());
    }
}
