//! `green completions SHELL` and `green man`: shell completions and the man page, generated
//! from the same clap definitions that parse the command line, so they cannot drift from it.

use std::io::Write;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

#[derive(clap::Args, Debug)]
pub struct CompletionArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {}

/// The completion script for `shell` on standard output (e.g. `green completions bash >
/// ~/.local/share/bash-completion/completions/green`).
pub fn completions(args: &CompletionArgs) -> Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut crate::Cli::command(), "green", &mut out);
    crate::output::emit(&String::from_utf8(out).context("completions are UTF-8")?)
}

/// The man page (roff) on standard output, the subcommands as sections of it (e.g. `green man
/// > ~/.local/share/man/man1/green.1`).
pub fn man(_: &ManArgs) -> Result<()> {
    let command = crate::Cli::command();
    let mut out = Vec::new();
    let page = clap_mangen::Man::new(command.clone());
    page.render_title(&mut out)?;
    page.render_name_section(&mut out)?;
    page.render_synopsis_section(&mut out)?;
    page.render_description_section(&mut out)?;
    page.render_options_section(&mut out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        writeln!(out, ".SS {}", sub.get_name())?;
        if let Some(about) = sub.get_about() {
            writeln!(out, "{}", escape(&about.to_string()))?;
        }
        let usage = sub
            .clone()
            .bin_name(format!("green {}", sub.get_name()))
            .render_usage();
        writeln!(out, ".PP\n{}", escape(&usage.to_string()))?;
    }
    page.render_version_section(&mut out)?;
    crate::output::emit(&String::from_utf8(out).context("the man page is UTF-8")?)
}

/// Text as roff shows it literally: backslashes doubled, and a line starting with `.` or `'`
/// (a request to roff) guarded.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
