//! The `green` command line: a drop-in for the reference `green`/`sgreen`/`mgreen`, plus
//! subcommands. Scoring is the top level (no subcommand) so every reference invocation
//! works unchanged; everything beyond the reference is a flag or a subcommand.

pub mod args;
pub mod cmd;
#[cfg(feature = "download")]
pub mod download;
pub mod input;
pub mod install;
pub mod limits;
pub mod output;
pub mod registry;
pub mod stats;

use clap::{Args as _, Parser, Subcommand};

pub use args::Level;
use cmd::score;

#[derive(Parser, Debug)]
#[command(
    name = "green",
    version = green_engine::VERSION,
    long_version = concat!(env!("CARGO_PKG_VERSION"), " (the version every score's signature names, v:", env!("CARGO_PKG_VERSION"), ")"),
    about = "GREEN: alignment-free n-gram F-score for grammatical error correction, in any language",
    long_about = "Scores system corrections against references with GREEN (Koyama et al., INLG 2024).\n\
                  Without a subcommand it behaves like the reference `green` CLI:\n\
                  green -s SRC -r REF [REF ...] -c HYP [HYP ...] [-n 4] [-b 1.0 ...] [-d 2] [-t word|char] [-v] [-l]",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    infer_long_args = true,
    args_override_self = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(flatten)]
    pub score: score::Args,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands beyond the reference CLI.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// CLEME (Ye et al. 2023), dependent and independent, corpus and sentence level: green cleme -hyp HYP.m2... -ref REF.m2
    Cleme(cmd::cleme::Args),
    /// CLEME2.0 (Ye et al. 2025): hit-, wrong-, under- and over-correction and their combination: green cleme2 -hyp HYP.m2... -ref REF.m2
    Cleme2(cmd::cleme2::Args),
    /// Print a shell completion script: green completions bash|zsh|fish|elvish|powershell
    Completions(cmd::shell::CompletionArgs),
    /// The public datasets the other commands read: green data list, green data get NAME --from PATH (into the user data directory, checksums verified)
    Data(cmd::data::Args),
    /// ERRANT's span F-score exactly as errant_compare prints it: green errant-compare -hyp HYP.m2... -ref REF.m2 [-cat 3]
    #[command(name = "errant-compare", visible_alias = "errant_compare")]
    ErrantCompare(cmd::errant::Args),
    /// Edits from parallel text without a tagger, as errant_parallel -lev -merge all-* writes them: green errant-parallel -orig SRC -cor COR... -out OUT.m2 -lev -merge all-merge
    #[command(name = "errant-parallel", visible_alias = "errant_parallel")]
    ErrantParallel(cmd::parallel::Args),
    /// GLEU (Napoles et al.) exactly as the PyPI package `gleu --fix-seed` prints it.
    Gleu(cmd::gleu::Args),
    /// MultiGEC-2025's table (GLEU, ERRANT P/R/F0.5 per language and corpus) as its official scorer writes scores.csv: green multigec --ref-dir DIR --hyp-dir DIR
    Multigec(cmd::multigec::Args),
    /// GoToScorer (Gotou et al. 2020) as gec-metrics computes it: green gotoscorer -hyp HYP.m2... -ref REF.m2 [--weights W.json]
    Gotoscorer(cmd::gotoscorer::Args),
    /// GoToScorer's weight file from many systems, as gecmetrics-gen-gotoscorer-weight writes it: green gotoscorer-weights -ref REF.m2 -hyp HYP.m2... -out W.json
    #[command(name = "gotoscorer-weights")]
    GotoscorerWeights(cmd::gotoscorer::WeightArgs),
    /// IMPARA (Maeda et al. 2022) from a quality and a similarity estimator you supply: green impara --qe DIR --se DIR -s SRC -c SYS...
    #[cfg(feature = "neural")]
    Impara(cmd::impara::Args),
    #[cfg(not(feature = "neural"))]
    #[command(hide = true, disable_help_flag = true)]
    Impara(cmd::Absent),
    /// PT-M2 (Gong et al. 2022): M2 edits weighted by BERTScore on a BERT you supply: green ptm2 --model DIR --layers N --m2 GOLD.m2 -c SYS...
    #[cfg(feature = "neural")]
    Ptm2(cmd::ptm2::Args),
    #[cfg(not(feature = "neural"))]
    #[command(hide = true, disable_help_flag = true)]
    Ptm2(cmd::Absent),
    /// Write the sources and references of an M2 file as line files.
    M2(cmd::m2::Args),
    /// Print the man page (roff): green man > green.1
    Man(cmd::shell::ManArgs),
    /// MAEGE: validate GREEN/GLEU configurations from the gold edits of an M2 file.
    Maege(cmd::maege::Args),
    /// M2 (MaxMatch) exactly as the NUS m2scorer prints it: green maxmatch [-v] [--beta B] SYSTEM... GOLD.m2
    #[command(visible_alias = "m2scorer")]
    Maxmatch(cmd::maxmatch::Args),
    /// GREEN or GLEU of a corpus scored in shards: green merge PART1.json PART2.json ... (from green [gleu] ... --stats PART.json)
    Merge(cmd::merge::Args),
    /// Meta-evaluation: agreement of GREEN/GLEU configurations with human judgments.
    Meta(cmd::meta::Args),
    /// Paired significance of GREEN differences: each system against the first (baseline).
    Paired(cmd::paired::Args),
    /// List the tokenizer plugins on the search path (GREEN_PLUGIN_PATH) with name, version and ABI.
    Plugins(cmd::plugins::Args),
    /// One self-contained HTML page of systems on a corpus: scores with intervals and paired tests, edit outcomes, error types, a sentence browser: green report -s SRC -r REF... -c SYS... -o report.html
    Report(cmd::report::Args),
    /// Scribendi (Islam and Magnani 2021) from a GPT-2 you supply: green scribendi --model DIR -s SRC -c SYS...
    #[cfg(feature = "neural")]
    Scribendi(cmd::scribendi::Args),
    #[cfg(not(feature = "neural"))]
    #[command(hide = true, disable_help_flag = true)]
    Scribendi(cmd::Absent),
    /// SOME (Yoshimura et al. 2020) from three BERT regressors you supply: green some --models DIR -s SRC -c SYS...
    #[cfg(feature = "neural")]
    #[command(name = "some")]
    SomeMetric(cmd::some::Args),
    #[cfg(not(feature = "neural"))]
    #[command(name = "some", hide = true, disable_help_flag = true)]
    SomeMetric(cmd::Absent),
    /// Print the tokens of each input line, to see what a tokenizer (-t) makes of the text.
    Tokenize(cmd::tokenize::Args),
}

/// The reference's scoring command line alone, without the subcommands. Building every
/// subcommand's arguments is most of a small run's start-up, so a command line that starts
/// with an option is parsed with this first; anything it does not accept (help, version, a
/// subcommand, an error) is parsed again by [`Cli`], whose help and errors are the ones shown.
#[derive(Parser, Debug)]
#[command(
    name = "green",
    disable_help_flag = true,
    disable_version_flag = true,
    infer_long_args = true,
    args_override_self = true
)]
struct Scoring {
    #[command(flatten)]
    score: score::Args,
}

/// Adds a subcommand's arguments to a command (`clap::Args::augment_args`).
type Augment = fn(clap::Command) -> clap::Command;

/// The subcommands [`parse_alone`] parses alone, with the function that adds each one's
/// arguments to a command.
const ALONE: &[(&str, Augment)] = &[
    ("cleme", cmd::cleme::Args::augment_args),
    ("cleme2", cmd::cleme2::Args::augment_args),
    ("data", cmd::data::Args::augment_args),
    ("errant-compare", cmd::errant::Args::augment_args),
    ("errant-parallel", cmd::parallel::Args::augment_args),
    ("gleu", cmd::gleu::Args::augment_args),
    ("gotoscorer", cmd::gotoscorer::Args::augment_args),
    (
        "gotoscorer-weights",
        cmd::gotoscorer::WeightArgs::augment_args,
    ),
    ("m2", cmd::m2::Args::augment_args),
    ("maege", cmd::maege::Args::augment_args),
    ("maxmatch", cmd::maxmatch::Args::augment_args),
    ("merge", cmd::merge::Args::augment_args),
    ("meta", cmd::meta::Args::augment_args),
    ("multigec", cmd::multigec::Args::augment_args),
    ("paired", cmd::paired::Args::augment_args),
    ("plugins", cmd::plugins::Args::augment_args),
    ("report", cmd::report::Args::augment_args),
    ("tokenize", cmd::tokenize::Args::augment_args),
];

/// `green NAME ...` for a subcommand NAME, parsed by a command that holds NAME's arguments
/// alone: [`Cli`] builds (and then frees) every subcommand's arguments to parse any one,
/// most of a short run's instructions. The settings are [`Cli`]'s, which its subcommands
/// inherit. Anything this does not accept (help, an alias, an error) is parsed again by
/// [`Cli`], whose help and errors are the ones shown. The model-based subcommands, `man` and
/// `completions` (which describe the whole command) always take the full parse.
fn parse_alone(args: &[std::ffi::OsString]) -> Option<Command> {
    use clap::FromArgMatches;
    let given = args.get(1)?.to_str()?;
    let &(name, augment) = ALONE.iter().find(|(name, _)| *name == given)?;
    let mut green = clap::Command::new("green")
        .infer_long_args(true)
        .args_override_self(true)
        .subcommand(augment(clap::Command::new(name)));
    let matches = green.try_get_matches_from_mut(args).ok();
    // Freeing the parser would only cost time: the process ends after the command.
    std::mem::forget(green);
    Command::from_arg_matches(&matches?).ok()
}

fn run_command(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Cleme(args) => cmd::cleme::run(args),
        Command::Cleme2(args) => cmd::cleme2::run(args),
        Command::Completions(args) => cmd::shell::completions(args),
        Command::Data(args) => cmd::data::run(args),
        Command::ErrantCompare(args) => cmd::errant::run(args),
        Command::ErrantParallel(args) => cmd::parallel::run(args),
        Command::Gleu(args) => cmd::gleu::run(args),
        Command::Multigec(args) => cmd::multigec::run(args),
        Command::Gotoscorer(args) => cmd::gotoscorer::run(args),
        Command::GotoscorerWeights(args) => cmd::gotoscorer::run_weights(args),
        #[cfg(feature = "neural")]
        Command::Impara(args) => cmd::impara::run(args),
        #[cfg(feature = "neural")]
        Command::Ptm2(args) => cmd::ptm2::run(args),
        Command::M2(args) => cmd::m2::run(args),
        Command::Man(args) => cmd::shell::man(args),
        Command::Maege(args) => cmd::maege::run(args),
        Command::Maxmatch(args) => cmd::maxmatch::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Meta(args) => cmd::meta::run(args),
        Command::Paired(args) => cmd::paired::run(args),
        Command::Plugins(args) => cmd::plugins::run(args),
        Command::Report(args) => cmd::report::run(args),
        #[cfg(feature = "neural")]
        Command::Scribendi(args) => cmd::scribendi::run(args),
        #[cfg(feature = "neural")]
        Command::SomeMetric(args) => cmd::some::run(args),
        #[cfg(not(feature = "neural"))]
        Command::Impara(_) => cmd::absent("impara"),
        #[cfg(not(feature = "neural"))]
        Command::Ptm2(_) => cmd::absent("ptm2"),
        #[cfg(not(feature = "neural"))]
        Command::Scribendi(_) => cmd::absent("scribendi"),
        #[cfg(not(feature = "neural"))]
        Command::SomeMetric(_) => cmd::absent("some"),
        Command::Tokenize(args) => cmd::tokenize::run(args),
    }
}

/// The C `main` of a binary (`#![no_main]`, outside tests): [`start`] at `level`.
#[macro_export]
macro_rules! c_main {
    ($level:expr) => {
        #[cfg(not(test))]
        #[no_mangle]
        extern "C" fn main(
            _argc: std::ffi::c_int,
            _argv: *const *const std::ffi::c_char,
        ) -> std::ffi::c_int {
            $crate::start($level)
        }
    };
}

/// The process's start, called from the binaries' C `main` (`#![no_main]`): what Rust's
/// own start does that green needs, and no more. Rust's start also finds the main thread's
/// stack guard by reading `/proc/self/maps`, about 0.15 ms of a 7 ms run; without it a stack
/// overflow on the main thread is a plain SIGSEGV instead of a message (both end the run).
/// Kept: closed standard streams are opened on `/dev/null`, so no file green opens takes
/// their place; SIGPIPE is ignored, so a closed pipe is an error green handles (exit 0);
/// a panic exits 101.
pub fn start(level: Option<Level>) -> ! {
    #[cfg(unix)]
    // SAFETY: plain system calls on the process's own descriptors and signal disposition,
    // before any other thread exists.
    unsafe {
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
            {
                // The lowest free descriptor, which is `fd`: those below it are open.
                libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    exit(std::panic::catch_unwind(|| main(level)).unwrap_or(101))
}

/// Ends the process with `code` once the output is flushed, without running destructors.
/// [`main`] has returned, so what is left are the input maps scoring leaves in place, the
/// per-thread tables and the runtime's own; unmapping and freeing them cost about a tenth
/// of a millisecond on a small run.
fn exit(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    // SAFETY: standard output is flushed above and C's streams (a plugin's) here; _exit
    // only ends the process.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code)
    }
    #[cfg(not(unix))]
    std::process::exit(code)
}

/// Parse the command line, run, and return the process exit code. `level` is set by the
/// `sgreen` and `mgreen` wrappers.
pub fn main(level: Option<Level>) -> i32 {
    let args = errant_style(reference_prefixes(std::env::args_os().collect()));
    if let Some(command) = parse_alone(&args) {
        return exit_code(run_command(&command));
    }
    let scoring = args
        .get(1)
        .and_then(|a| a.to_str())
        .is_some_and(|a| a.starts_with('-'));
    let cli = match scoring
        .then(|| Scoring::try_parse_from(&args).ok())
        .flatten()
    {
        Some(Scoring { score }) => Cli {
            score,
            command: None,
        },
        None => match Cli::try_parse_from(args) {
            Ok(cli) => cli,
            Err(e) => {
                let code = e.exit_code();
                let _ = e.print();
                return code;
            }
        },
    };
    exit_code(match &cli.command {
        Some(command) => run_command(command),
        None => score::run(&cli.score, level),
    })
}

/// The exit code of a command's result, its error printed on one line.
fn exit_code(result: anyhow::Result<()>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            if is_broken_pipe(&e) {
                return 0;
            }
            output::error(&one_line(&e));
            1
        }
    }
}

/// The long options of the reference `green` CLI and of the PyPI `gleu` package, which read
/// their command lines with argparse.
const REFERENCE_LONGS: [&str; 22] = [
    "--src",
    "--source",
    "--ref",
    "--refs",
    "--references",
    "--cor",
    "--cors",
    "--corrected",
    "--corrected-sentences",
    "--out",
    "--outs",
    "--outputs",
    "--hyp",
    "--hyps",
    "--hypotheses",
    "--beta",
    "--digit",
    "--token",
    "--tokenize",
    "--tokenization",
    "--verbose",
    "--line-verbose",
];
const GLEU_LONGS: [&str; 13] = [
    "--src",
    "--source",
    "--ref",
    "--references",
    "--out",
    "--outputs",
    "--iter",
    "--digit",
    "--proc",
    "--token",
    "--max",
    "--fix",
    "--fix-seed",
];

/// argparse accepts a unique prefix of a long option (`--sou` for `--source`). Where one is
/// unique among the original tool's own options, it means that option here too, even when
/// green's extra options would make it ambiguous (`--l` is `--line-verbose`, not `--level`);
/// other prefixes are left to clap's inference over green's options.
fn reference_prefixes(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let (longs, skip): (&[&str], usize) = match args.get(1).and_then(|a| a.to_str()) {
        Some("gleu") => (&GLEU_LONGS, 2),
        Some(a) if a.starts_with('-') => (&REFERENCE_LONGS, 1),
        _ => return args,
    };
    for arg in args.iter_mut().skip(skip) {
        let Some(text) = arg.to_str() else { continue };
        if text == "--" {
            break;
        }
        let Some(prefix) = text.strip_prefix("--") else {
            continue;
        };
        let (name, value) = match prefix.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (prefix, None),
        };
        let full = format!("--{name}");
        if name.is_empty() || longs.contains(&full.as_str()) {
            continue;
        }
        let mut matches = longs.iter().filter(|l| l.starts_with(&full));
        if let (Some(only), None) = (matches.next(), matches.next()) {
            *arg = match value {
                Some(v) => format!("{only}={v}"),
                None => only.to_string(),
            }
            .into();
        }
    }
    args
}

/// ERRANT's and CLEME's single-dash long options (`-hyp`, `-ref`, `-cat`, `-ds`...) as
/// clap's `--hyp`..., for the subcommands that are drop-ins for them.
fn errant_style(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    const LONG: [&str; 15] = [
        "-hyp", "-ref", "-dt", "-ds", "-cs", "-cse", "-single", "-multi", "-filt", "-cat", "-orig",
        "-cor", "-out", "-lev", "-merge",
    ];
    let sub = args.get(1).and_then(|a| a.to_str()).unwrap_or_default();
    let drop_ins = [
        "errant-compare",
        "errant_compare",
        "errant-parallel",
        "errant_parallel",
        "cleme",
        "cleme2",
        "gotoscorer",
        "gotoscorer-weights",
    ];
    if drop_ins.contains(&sub) {
        for a in args.iter_mut().skip(2) {
            if let Some(flag) = a.to_str().filter(|f| LONG.contains(f)) {
                *a = format!("-{flag}").into();
            }
        }
    }
    args
}

/// The error and its causes on one line; a cause whose text the message already shows is
/// not repeated.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.contains(&text) {
            line = format!("{line}: {text}");
        }
    }
    line.replace('\n', " ")
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &[&str]) -> Vec<std::ffi::OsString> {
        errant_style(
            std::iter::once("green")
                .chain(line.iter().copied())
                .map(Into::into)
                .collect(),
        )
    }

    /// Every subcommand parsed alone gives what the full parse gives, with errant-style
    /// flags, abbreviated long options and repeated options.
    #[test]
    fn a_subcommand_alone_parses_as_the_full_command_line() {
        let lines: &[&[&str]] = &[
            &["cleme", "-hyp", "h.m2", "-ref", "r.m2"],
            &["cleme2", "-hyp", "h.m2", "g.m2", "-ref", "r.m2"],
            &["data", "list"],
            &[
                "errant-compare",
                "-hyp",
                "h.m2",
                "-ref",
                "r.m2",
                "-cat",
                "3",
                "-ds",
            ],
            &[
                "errant-parallel",
                "-orig",
                "s",
                "-cor",
                "c",
                "--annotations",
                "s.conllu",
                "c.conllu",
                "-out",
                "o.m2",
                "-lev",
                "-merge",
                "all-merge",
            ],
            &["gleu", "--ref", "r", "--out", "h", "-s", "src"],
            &["gotoscorer", "-hyp", "h.m2", "-ref", "r.m2"],
            &[
                "gotoscorer-weights",
                "-ref",
                "r.m2",
                "-hyp",
                "h.m2",
                "-out",
                "w.json",
            ],
            &["m2", "x.m2", "--out-dir", "d"],
            &["maege", "x.m2"],
            &["maxmatch", "-v", "sys.txt", "gold.m2"],
            &["merge", "a.json", "b.json"],
            &["meta"],
            &["multigec", "--ref-dir", "d", "--hyp-dir", "e"],
            &["paired", "--ref", "r", "--cor", "a", "b", "-s", "s"],
            &["plugins"],
            &["report", "--ref", "r", "--cor", "c", "-s", "s"],
            &["tokenize", "--se", " | ", "-t", "ja", "f.txt"],
            &["tokenize", "--sep", "a", "--sep", "b"],
        ];
        for (name, _) in ALONE {
            assert!(lines.iter().any(|l| l[0] == *name), "no line for {name}");
        }
        for line in lines {
            let args = args(line);
            let full = Cli::try_parse_from(&args)
                .unwrap_or_else(|e| panic!("{line:?}: {e}"))
                .command
                .expect("a subcommand");
            let alone = parse_alone(&args).unwrap_or_else(|| panic!("{line:?} alone"));
            assert_eq!(format!("{alone:?}"), format!("{full:?}"), "{line:?}");
        }
    }

    /// Help, aliases, errors and the commands that describe the whole CLI go to the full
    /// parse.
    #[test]
    fn what_a_subcommand_alone_does_not_take_goes_to_the_full_parse() {
        for line in [
            &["tokenize", "--help"][..],
            &["tokenize", "--bogus"],
            &["errant_compare", "-hyp", "h.m2", "-ref", "r.m2"],
            &["m2scorer", "sys.txt", "gold.m2"],
            &["man"],
            &["completions", "bash"],
            &["-s", "s", "-r", "r", "-c", "c"],
        ] {
            assert!(parse_alone(&args(line)).is_none(), "{line:?}");
        }
    }
}
