//! `green plugins`: what tokenizer plugins `-t plugin:NAME` can find, and why others fail.
//!
//! Lists the search path (GREEN_PLUGIN_PATH, then the default directory) and every shared
//! library in it with the name, version and ABI version its descriptor declares; a library
//! that is not a usable plugin is listed with its error, so a user can tell "not found" from
//! "found but broken".

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Also search these directories (before the search path).
    #[arg(long = "dir", value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut dirs = args.dirs.clone();
    for dir in green_plugin::search_path() {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "search path ({} first):", green_plugin::PATH_VAR)?;
    for dir in &dirs {
        let note = if dir.is_dir() { "" } else { "  (missing)" };
        writeln!(out, "  {}{note}", dir.display())?;
    }
    let found = green_plugin::discover(&dirs);
    if found.is_empty() {
        writeln!(
            out,
            "no plugins found; put a plugin's directory in {}",
            green_plugin::PATH_VAR
        )?;
        return Ok(());
    }
    let rows: Vec<[String; 5]> = found
        .iter()
        .filter_map(|(path, r)| r.as_ref().ok().map(|i| (path, i)))
        .map(|(path, i)| {
            let threads = if i.thread_safe { "yes" } else { "no" };
            [
                i.name.clone(),
                i.version.clone(),
                i.abi_version.to_string(),
                threads.to_string(),
                path.display().to_string(),
            ]
        })
        .collect();
    let header = ["NAME", "VERSION", "ABI", "THREADS", "PATH"].map(String::from);
    let width = |c: usize| {
        rows.iter()
            .chain([&header])
            .map(|r| r[c].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths = [width(0), width(1), width(2), width(3)];
    for row in [&header].into_iter().chain(&rows) {
        writeln!(
            out,
            "{:w0$}  {:w1$}  {:w2$}  {:w3$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        )?;
    }
    for (_, r) in &found {
        if let Err(e) = r {
            writeln!(out, "not a usable plugin: {e}")?;
        }
    }
    Ok(())
}
