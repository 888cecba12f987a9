//! The public datasets green's commands read, and where a command finds them.
//!
//! `green meta`'s descriptors and the docs' examples read CoNLL-2014, GJG15, SEEDA, JFLEG,
//! MuCGEC, NLPCC-2018, YACLC, RevisitCGEC, CLEME's M2 files and the Japanese QE scores from a
//! data directory. Those files live in the authors' repositories; a user who has only this
//! tool should get them through it, and get exactly the bytes the numbers in the docs were
//! computed on. So the registry (`data-registry.toml`, data rather than code) pins every file
//! to a commit and a SHA-256 taken from the upstream repository, and `green data get`
//! ([`crate::install`]) keeps nothing that does not match.
//!
//! Where the data is looked for, in order ([`find_data_dir`], [`find_file`]):
//! 1. `--data DIR`, when given (and then only there);
//! 2. `../shared/data`, the layout beside a clone of this repository;
//! 3. the user data directory `green data get` fills ([`user_data_dir`]): `$GREEN_DATA_DIR`,
//!    else `$XDG_DATA_HOME/green/data`, else `~/.local/share/green/data`.
//!
//! A directory is taken only if it holds every file the command needs, so a partly filled
//! `../shared/data` does not hide a complete user data directory; when none does, the error names what is
//! missing and the `green data get` that brings it.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

/// The registry compiled into the binary.
const BUILTIN: &str = include_str!("../data-registry.toml");

/// A registry file of the same shape that replaces the built-in one (tests, private mirrors).
pub const REGISTRY_VAR: &str = "GREEN_DATA_REGISTRY";

/// The data directory beside a clone of the repository, relative to the current directory.
pub const SHARED_DATA: &str = "../shared/data";

/// Every dataset `green data` knows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    #[serde(rename = "dataset")]
    pub datasets: Vec<Dataset>,
}

/// One dataset: its files, where they come from, and on what terms.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dataset {
    pub name: String,
    pub description: String,
    /// Short, for `green data list`.
    pub licence: String,
    /// The licence or its absence, and whom to cite, for `green data get`.
    pub terms: String,
    /// The repository the files come from ...
    pub source: String,
    /// ... and the commit their checksums were taken at.
    pub commit: String,
    /// The pinned location every file's `from` path is under.
    pub url: String,
    /// Datasets installed with this one (its descriptors read their files).
    #[serde(default)]
    pub needs: Vec<String>,
    #[serde(rename = "file")]
    pub files: Vec<File>,
}

/// One file of a dataset.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Where it goes under the data directory (and its path on a mirror).
    pub path: String,
    /// Its path under the dataset's `url`, when not `path`.
    pub from: Option<String>,
    /// Made after download from another file instead of downloaded.
    pub derive: Option<Derive>,
    pub size: u64,
    pub sha256: String,
}

/// A file made from an M2 file of the same dataset: one annotator's corrected text of every
/// sentence, as `green m2` writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Derive {
    pub m2: String,
    pub annotator: usize,
    pub missing_annotator: String,
}

impl Registry {
    /// The registry named by `GREEN_DATA_REGISTRY`, else the built-in one.
    pub fn load() -> Result<Registry> {
        match std::env::var_os(REGISTRY_VAR).filter(|v| !v.is_empty()) {
            Some(path) => {
                let path = PathBuf::from(path);
                let text = std::fs::read_to_string(&path).with_context(|| {
                    format!(
                        "cannot read the data registry {} ({REGISTRY_VAR})",
                        path.display()
                    )
                })?;
                Registry::parse(&text, &path.display().to_string())
            }
            None => Registry::parse(BUILTIN, "the built-in data registry"),
        }
    }

    /// Parse and check a registry; `name` is used in messages.
    pub fn parse(text: &str, name: &str) -> Result<Registry> {
        let registry: Registry = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(1);
            anyhow::anyhow!("{name}:{line}: bad data registry: {}", e.message())
        })?;
        registry
            .check()
            .map_err(|e| anyhow::anyhow!("{name}: bad data registry: {e}"))?;
        Ok(registry)
    }

    fn check(&self) -> Result<()> {
        let mut names = BTreeSet::new();
        let mut paths = BTreeSet::new();
        for d in &self.datasets {
            let valid_name = !d.name.is_empty()
                && d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid_name {
                bail!(
                    "dataset name '{}' must be lowercase letters, digits and '-'",
                    d.name
                );
            }
            if !names.insert(d.name.as_str()) {
                bail!("dataset '{}' is listed twice", d.name);
            }
            if !(d.url.starts_with("https://") || d.url.starts_with("http://")) {
                bail!("dataset '{}': url '{}' is not http(s)", d.name, d.url);
            }
            if d.files.is_empty() {
                bail!("dataset '{}' has no file", d.name);
            }
            for (k, f) in d.files.iter().enumerate() {
                let at = format!("dataset '{}', file '{}'", d.name, f.path);
                for p in std::iter::once(&f.path).chain(&f.from) {
                    if !is_plain_relative(p) {
                        bail!("{at}: '{p}' must be a relative path without '..'");
                    }
                }
                if !paths.insert(f.path.as_str()) {
                    bail!("{at}: another file already goes to that path");
                }
                let hex = f.sha256.len() == 64
                    && f.sha256
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                if !hex {
                    bail!("{at}: sha256 must be 64 lowercase hexadecimal digits");
                }
                if let Some(derive) = &f.derive {
                    if f.from.is_some() {
                        bail!("{at}: a derived file has no `from`");
                    }
                    let earlier = d.files[..k]
                        .iter()
                        .any(|e| e.path == derive.m2 && e.derive.is_none());
                    if !earlier {
                        bail!(
                            "{at}: derive.m2 '{}' must be a downloaded file of the same dataset, listed before it",
                            derive.m2
                        );
                    }
                    derive
                        .missing_annotator
                        .parse::<green_io::m2::MissingAnnotator>()
                        .map_err(|e| anyhow::anyhow!("{at}: {e}"))?;
                }
            }
        }
        for d in &self.datasets {
            self.with_needs(std::slice::from_ref(&d.name))?;
        }
        Ok(())
    }

    /// The dataset called `name`.
    pub fn get(&self, name: &str) -> Result<&Dataset> {
        self.datasets
            .iter()
            .find(|d| d.name == name)
            .with_context(|| {
                format!(
                    "no dataset '{name}'; the datasets are {} (green data list)",
                    self.names().join(", ")
                )
            })
    }

    pub fn names(&self) -> Vec<&str> {
        self.datasets.iter().map(|d| d.name.as_str()).collect()
    }

    /// `names` and every dataset they need, each once, a dataset after those it needs.
    pub fn with_needs(&self, names: &[String]) -> Result<Vec<&Dataset>> {
        fn visit<'a>(
            r: &'a Registry,
            name: &str,
            path: &mut Vec<String>,
            out: &mut Vec<&'a Dataset>,
        ) -> Result<()> {
            if out.iter().any(|d| d.name == name) {
                return Ok(());
            }
            if path.iter().any(|p| p == name) {
                bail!(
                    "datasets need each other in a circle: {} -> {name}",
                    path.join(" -> ")
                );
            }
            let d = r.get(name)?;
            path.push(name.to_string());
            for n in &d.needs {
                visit(r, n, path, out)?;
            }
            path.pop();
            out.push(d);
            Ok(())
        }
        let mut out = Vec::new();
        for n in names {
            visit(self, n, &mut Vec::new(), &mut out)?;
        }
        Ok(out)
    }

    /// The dataset a file of the data layout comes from.
    pub fn provider(&self, path: &str) -> Option<&Dataset> {
        self.datasets
            .iter()
            .find(|d| d.files.iter().any(|f| f.path == path))
    }
}

impl Dataset {
    /// Bytes of all its files.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// The directory under the data directory that holds all its files (`conll14/`,
    /// `zh/revisitcgec/`), as a path with a trailing `/`, or empty.
    pub fn dir(&self) -> String {
        let split = |p: &str| -> Vec<String> {
            let mut parts: Vec<String> = p.split('/').map(String::from).collect();
            parts.pop();
            parts
        };
        let mut common = split(&self.files[0].path);
        for f in &self.files[1..] {
            let parts = split(&f.path);
            let same = common
                .iter()
                .zip(&parts)
                .take_while(|(a, b)| a == b)
                .count();
            common.truncate(same);
        }
        common.iter().map(|c| format!("{c}/")).collect()
    }
}

/// `p` is relative, `/`-separated and stays below the directory it is joined to.
fn is_plain_relative(p: &str) -> bool {
    !p.is_empty()
        && !p.contains('\\')
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Where `green data get` puts the datasets, and the last place the other commands look.
pub const DATA_DIR_VAR: &str = "GREEN_DATA_DIR";

/// The user data directory: `$GREEN_DATA_DIR`, else `$XDG_DATA_HOME/green/data`, else
/// `$HOME/.local/share/green/data`.
pub fn user_data_dir() -> Result<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var(DATA_DIR_VAR) {
        return Ok(dir);
    }
    if let Some(xdg) = var("XDG_DATA_HOME").filter(|p| p.is_absolute()) {
        return Ok(xdg.join("green").join("data"));
    }
    match var("HOME") {
        Some(home) => Ok(home.join(".local").join("share").join("green").join("data")),
        None => bail!(
            "cannot tell where the user data directory is: none of {DATA_DIR_VAR}, XDG_DATA_HOME (an absolute path) and HOME is set; set one of them"
        ),
    }
}

/// The directories looked in when no `--data` is given, in order.
fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from(SHARED_DATA)];
    dirs.extend(user_data_dir().ok());
    dirs
}

/// The `green data get NAME...` that brings these files, when the registry has them all.
fn get_command(missing: &[&String]) -> Option<String> {
    let registry = Registry::load().ok()?;
    let mut names: Vec<&str> = Vec::new();
    for f in missing {
        let d = registry.provider(f)?;
        if !names.contains(&d.name.as_str()) {
            names.push(&d.name);
        }
    }
    Some(format!("green data get {}", names.join(" ")))
}

/// Why `dir` will not do: it does not exist, or which of the files it lacks.
fn describe(dir: &Path, missing: &[&String]) -> String {
    if !dir.is_dir() {
        return format!("{} does not exist", dir.display());
    }
    let more = match missing.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    format!("{} has no {}{more}", dir.display(), missing[0])
}

/// The data directory holding every one of `files` (paths relative to it): `given` (`--data`)
/// when there is one, else the first of [`SHARED_DATA`] and [`user_data_dir`] that has them all.
pub fn find_data_dir(given: Option<&Path>, files: &[String]) -> Result<PathBuf> {
    let lacking =
        |dir: &Path| -> Vec<&String> { files.iter().filter(|f| !dir.join(f).is_file()).collect() };
    if let Some(dir) = given {
        let missing = lacking(dir);
        if missing.is_empty() {
            return Ok(dir.to_path_buf());
        }
        let hint = get_command(&missing).map_or(String::new(), |c| {
            format!("; `{c} --from PATH` installs them into the user data directory, which is used when --data is left out")
        });
        bail!("data directory {}{hint}", describe(dir, &missing));
    }
    let mut looked = Vec::new();
    let mut missing = Vec::new();
    for dir in search_dirs() {
        missing = lacking(&dir);
        if missing.is_empty() {
            return Ok(dir);
        }
        looked.push(describe(&dir, &missing));
    }
    // `missing` is now what the user data directory (looked in last) lacks: what `green data
    // get` brings.
    let hint = get_command(&missing).map_or(String::new(), |c| {
        format!("; install them with `{c} --from PATH`")
    });
    bail!(
        "no data directory has every file needed ({}){hint}, or give --data DIR",
        looked.join("; ")
    )
}

/// A file named on the command line: `given` itself when it exists (or is `-`, an absolute
/// path, or a path starting with `.` or `..`), else `given` under `--data DIR`, or under the
/// first directory of the search order that has it.
pub fn find_file(given: &str, data: Option<&Path>) -> Result<String> {
    let path = Path::new(given);
    let literal = given == "-"
        || path.is_absolute()
        || path.exists()
        || matches!(
            path.components().next(),
            Some(Component::CurDir | Component::ParentDir)
        );
    if literal {
        return Ok(given.to_string());
    }
    let dirs = match data {
        Some(dir) => vec![dir.to_path_buf()],
        None => search_dirs(),
    };
    if let Some(found) = dirs.iter().map(|d| d.join(given)).find(|p| p.is_file()) {
        return Ok(found.to_string_lossy().into_owned());
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let hint = get_command(&[&given.to_string()]).map_or(String::new(), |c| {
        format!("; `{c} --from PATH` installs it")
    });
    bail!(
        "cannot find {given}: not here, nor under {}{hint}",
        looked.join(" or ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_registry_is_valid() {
        let r = Registry::parse(BUILTIN, "builtin").unwrap();
        let names = r.names();
        for n in [
            "conll14", "gjg15", "seeda", "jfleg", "mucgec", "nlpcc18", "yaclc",
        ] {
            assert!(names.contains(&n), "{n}");
        }
        // Every file the built-in meta descriptors read is in the registry.
        for (name, _) in green_meta::dataset::BUILTIN {
            let d = green_meta::dataset::builtin(name).unwrap();
            for f in d.files() {
                assert!(r.provider(&f).is_some(), "{name} reads {f}");
            }
        }
        let order: Vec<&str> = r
            .with_needs(&["revisitcgec".into(), "seeda".into()])
            .unwrap()
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        assert_eq!(
            order,
            ["mucgec", "yaclc", "revisitcgec", "conll14", "seeda"]
        );
        assert_eq!(r.get("revisitcgec").unwrap().dir(), "zh/revisitcgec/");
        assert_eq!(r.get("gjg15").unwrap().dir(), "conll14/");
    }

    #[test]
    fn bad_registries_are_refused_with_the_reason() {
        let one = |extra: &str, file: &str| {
            format!(
                "[[dataset]]\nname = \"a\"\ndescription = \"d\"\nlicence = \"l\"\nterms = \"t\"\nsource = \"s\"\ncommit = \"c\"\nurl = \"https://x\"\n{extra}\n[[dataset.file]]\n{file}\n"
            )
        };
        let good = "path = \"a/x.txt\"\nsize = 1\nsha256 = \"".to_string() + &"0".repeat(64) + "\"";
        assert!(Registry::parse(&one("", &good), "r").is_ok());
        let err = |text: String| Registry::parse(&text, "r.toml").unwrap_err().to_string();
        assert!(err(one("", &good.replace("a/x.txt", "../x"))).contains("without '..'"));
        assert!(err(one("", &good.replace(&"0".repeat(64), "abc"))).contains("64 lowercase"));
        assert!(err(one("needs = [\"b\"]", &good)).contains("no dataset 'b'"));
        assert!(err(one("needs = [\"a\"]", &good)).contains("in a circle: a -> a"));
        assert!(err(one("", &format!("{good}\nderive = {{ m2 = \"a/y.m2\", annotator = 1, missing_annotator = \"source\" }}")))
            .contains("must be a downloaded file of the same dataset"));
        assert!(err(one("colour = 1", &good)).starts_with("r.toml:9: bad data registry"));
    }

    #[test]
    fn plain_relative_paths() {
        assert!(is_plain_relative("zh/revisitcgec/x.txt"));
        assert!(is_plain_relative("sentence ids/x.txt"));
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a\\b", "./a"] {
            assert!(!is_plain_relative(bad), "{bad}");
        }
    }
}
