//! `green plugins`: what tokenizer plugins `-t plugin:NAME` can find, and why others fail.
//!
//! Lists the search path (GREEN_PLUGIN_PATH, then the default directory) and every shared
//! library in it with the name, version and ABI version its descriptor declares; a library
//! that is not a usable plugin is listed with its error, so a user can tell "not found" from
//! "found but broken". The plugins built into green follow, marked `(built in)`. `--check`
//! tests one plugin's claim to be thread-safe: a plugin that wrongly claims it gives scores
//! that vary from run to run, and nothing else shows it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use green_engine::Tokenizer;
use green_io::{read_lines, Input};
use rayon::prelude::*;

use crate::output::emit;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Also search these directories (before the search path).
    #[arg(long = "dir", value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    /// Check that plugin NAME_OR_PATH gives the same tokens when called from many threads at
    /// once as when called alone (what its thread-safe flag promises); exit 1 if not.
    #[arg(long, value_name = "NAME_OR_PATH")]
    pub check: Option<String>,

    /// With --check: the lines to tokenise (default: a built-in mix of languages).
    #[arg(long, value_name = "FILE", requires = "check")]
    pub input: Option<String>,

    /// With --check: the plugin's configuration string.
    #[arg(long, value_name = "STRING", requires = "check")]
    pub plugin_config: Option<String>,
}

/// Rounds of concurrent tokenisation in `--check`.
const ROUNDS: usize = 8;

/// The default `--check` text: short and long lines, several scripts.
fn sample() -> Vec<String> {
    let base = [
        "He go to school every days .",
        "The cat sat on the mat , and the dog did not .",
        "猫 が 好き です 。",
        "我 去 学校 了",
        "Été chaud , très chaud",
        "a",
        "",
        "one two three four five six seven eight nine ten eleven twelve",
    ];
    (0..400)
        .map(|i| format!("{} {i}", base[i % base.len()].repeat(1 + i % 5)))
        .collect()
}

/// `--check`: tokenise every line alone, then all lines from every thread at once,
/// [`ROUNDS`] times, and compare.
fn check(args: &Args, spec: &str) -> Result<()> {
    let plugin = green_plugin::load(spec, args.plugin_config.as_deref())?;
    let lines = match &args.input {
        Some(path) => read_lines(&Input::parse(path))?,
        None => sample(),
    };
    let alone: Vec<Vec<String>> = lines
        .iter()
        .map(|l| plugin.tokens(l))
        .collect::<Result<_, _>>()?;
    let threads = rayon::current_num_threads().max(2);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    for round in 0..ROUNDS {
        let together: Vec<Result<Vec<String>, _>> =
            pool.install(|| lines.par_iter().map(|l| plugin.tokens(l)).collect());
        if let Some(i) = (0..lines.len()).find(|&i| together[i].as_ref().ok() != Some(&alone[i])) {
            let what = match &together[i] {
                Ok(tokens) => format!("{} tokens instead of {}", tokens.len(), alone[i].len()),
                Err(e) => format!("an error ({e})"),
            };
            bail!(
                "{}: line {} gave {what} when called from {threads} threads at once (round {}); the plugin claims to be thread-safe but is not: ask its author to clear GREEN_PLUGIN_THREAD_SAFE, and score with --threads 1 meanwhile",
                plugin.name(),
                i + 1,
                round + 1
            );
        }
    }
    emit(&format!(
        "{}: same tokens on {} lines alone and from {threads} threads at once ({ROUNDS} rounds){}\n",
        plugin.name(),
        lines.len(),
        if plugin.info().thread_safe {
            ""
        } else {
            "; it is not flagged thread-safe, so green calls it under a lock anyway"
        }
    ))?;
    Ok(())
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(spec) = &args.check {
        return check(args, spec);
    }
    let mut dirs = args.dirs.clone();
    for dir in green_plugin::search_path() {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let mut out = Vec::new();
    writeln!(out, "search path ({} first):", green_plugin::PATH_VAR)?;
    for dir in &dirs {
        let note = if dir.is_dir() { "" } else { "  (missing)" };
        writeln!(out, "  {}{note}", dir.display())?;
    }
    let found = green_plugin::discover(&dirs);
    if found.is_empty() {
        writeln!(
            out,
            "no plugin libraries found; put a plugin's directory in {}",
            green_plugin::PATH_VAR
        )?;
    }
    // Libraries first, in search order, as `-t plugin:NAME` looks them up; then the built-ins.
    let listed: Vec<(String, &green_plugin::PluginInfo)> = found
        .iter()
        .filter_map(|(path, r)| r.as_ref().ok().map(|i| (path.display().to_string(), i)))
        .collect();
    let built_in = green_plugin::built_in()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let built_in = built_in.iter().map(|i| ("(built in)".to_string(), i));
    let rows: Vec<[String; 5]> = listed
        .into_iter()
        .chain(built_in)
        .map(|(path, i)| {
            let threads = if i.thread_safe { "yes" } else { "no" };
            [
                i.name.clone(),
                i.version.clone(),
                i.abi_version.to_string(),
                threads.to_string(),
                path,
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
    emit(&String::from_utf8(out)?)?;
    Ok(())
}
