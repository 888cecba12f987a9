//! `green data list|get`: the public datasets green's commands read, installed on request
//! into the user data directory, where `green meta` and `green maege` find them.
//!
//! Nothing touches the network unless asked: `get` installs from a local directory or archive
//! (`--from`), and fetches the registry's URLs only with `--download`, in a build with the
//! `download` feature. `list` shows what there is, where it comes from, on what terms and
//! whether it is installed; `get` prints each dataset's licence (or that none is stated, and
//! whom to cite) and where its files went. The registry and the search order are
//! [`crate::registry`]'s; the checks and the atomic install [`crate::install`]'s.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::install::{installed, Installer, Source};
use crate::output::emit;
use crate::registry::{user_data_dir, Dataset, Registry};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: DataCommand,

    /// The data directory to list or install into (default: $GREEN_DATA_DIR, else
    /// $XDG_DATA_HOME/green/data, else ~/.local/share/green/data, where `meta` and `maege`
    /// look).
    #[arg(long, value_name = "DIR", global = true)]
    pub dir: Option<PathBuf>,
}

#[derive(clap::Subcommand, Debug)]
pub enum DataCommand {
    /// List the datasets (name, files, size, licence, source) and which are installed.
    List,
    /// Install datasets, with those they need, from --from PATH (or --download); every file's
    /// size and SHA-256 is checked before any is kept.
    Get(GetArgs),
}

#[derive(clap::Args, Debug)]
pub struct GetArgs {
    /// Datasets to install (see `green data list`).
    #[arg(value_name = "NAME", required_unless_present = "all")]
    pub names: Vec<String>,

    /// Install every dataset.
    #[arg(long, conflicts_with = "names")]
    pub all: bool,

    /// Take the files from this directory or .tar/.tar.gz archive: the data layout
    /// (../shared/data or a copy of it) or a clone of the dataset's upstream repository.
    #[arg(long, value_name = "PATH", conflicts_with = "download")]
    pub from: Option<PathBuf>,

    /// Download the files from their pinned upstream URLs (a build with `--features
    /// download` only).
    #[arg(long)]
    pub download: bool,

    /// With --download: fetch each file as URL/PATH, PATH as in the data directory
    /// (`seeda/human/EW_sent.txt`), instead of from upstream.
    #[arg(long, value_name = "URL", requires = "download")]
    pub mirror: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let registry = Registry::load()?;
    let root = match &args.dir {
        Some(dir) => dir.clone(),
        None => user_data_dir()?,
    };
    match &args.command {
        DataCommand::List => list(&registry, &root),
        DataCommand::Get(get_args) => get(&registry, &root, get_args),
    }
}

fn list(registry: &Registry, root: &std::path::Path) -> Result<()> {
    let width = registry.names().iter().map(|n| n.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut present = Vec::new();
    for d in &registry.datasets {
        let here = installed(root, d)?;
        if here {
            present.push(d.name.as_str());
        }
        out += &format!("{:width$}  {}\n", d.name, d.description);
        out += &format!(
            "{:width$}  {}; {} file{}, {}; licence: {}; {} at {}\n",
            "",
            if here { "installed" } else { "not installed" },
            d.files.len(),
            if d.files.len() == 1 { "" } else { "s" },
            size(d.size()),
            d.licence,
            d.source,
            &d.commit[..d.commit.len().min(7)]
        );
    }
    out += &format!(
        "installed in {}: {}\n",
        root.display(),
        if present.is_empty() {
            "none (green data get NAME --from PATH)".to_string()
        } else {
            present.join(", ")
        }
    );
    emit(&out)
}

fn get(registry: &Registry, root: &std::path::Path, args: &GetArgs) -> Result<()> {
    let names: Vec<String> = if args.all {
        registry.names().iter().map(|n| n.to_string()).collect()
    } else {
        args.names.clone()
    };
    let datasets = registry.with_needs(&names)?;
    let source = source(args)?;
    let from = source.describe();
    let installer = Installer::new(root.to_path_buf(), source);
    for d in datasets {
        let outcome = installer.install(d)?;
        let mut done = Vec::new();
        if outcome.fetched > 0 {
            done.push(format!("{} from {from}", outcome.fetched));
        }
        if outcome.derived > 0 {
            done.push(format!("{} made from the M2 file", outcome.derived));
        }
        let files = if done.is_empty() {
            "already installed and verified; nothing changed".to_string()
        } else {
            if outcome.present > 0 {
                done.push(format!("{} already there", outcome.present));
            }
            format!("{}; every SHA-256 verified", done.join(", "))
        };
        emit(&block(d, &root.join(d.dir()), &files))?;
    }
    Ok(())
}

/// Where `get` takes the files from: --from, or --download in a build that can.
fn source(args: &GetArgs) -> Result<Source> {
    if let Some(path) = &args.from {
        return Source::local(path);
    }
    if !args.download {
        bail!(
            "say where the files come from: --from PATH (a directory or .tar.gz holding the data layout, like ../shared/data), or --download; nothing is downloaded unless asked"
        );
    }
    #[cfg(feature = "download")]
    {
        let downloader = crate::download::Downloader::new(args.mirror.clone())?;
        Ok(Source::Download(downloader))
    }
    #[cfg(not(feature = "download"))]
    bail!(
        "this green was built without downloads; give --from PATH, or rebuild with `cargo install --path crates/green-cli --features download`"
    )
}

/// What `get` prints of one dataset: what it is, its licence, where it came from and where
/// its files are.
fn block(d: &Dataset, dir: &std::path::Path, files: &str) -> String {
    let mut out = format!("{}: {}\n", d.name, d.description);
    out += &format!("  licence: {}\n", d.terms);
    out += &format!("  source:  {} at commit {}\n", d.source, d.commit);
    out += &format!(
        "  files:   {} in {}: {files}\n",
        d.files.len(),
        dir.display()
    );
    out
}

/// Bytes as kB below a megabyte, else MB with one decimal.
fn size(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{} kB", bytes.div_ceil(1000))
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(size(1), "1 kB");
        assert_eq!(size(488_884), "489 kB");
        assert_eq!(size(4_412_345), "4.4 MB");
    }
}
