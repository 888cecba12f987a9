//! Flags that several commands share, defined once: the tokenizer flags, `--threads`, the
//! score level and the output format. Each command's own flags live in its module.

use anyhow::{Context, Result};
use clap::ValueEnum;
use green_engine::Normalization;
pub use green_output::Level;
use green_tokenizers::Built;

use crate::output::warn;

/// `--level`: which score to report, the reference's `green`, `sgreen` or `mgreen`.
pub(crate) fn level_parser() -> impl clap::builder::TypedValueParser<Value = Level> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("corpus").help("Counts summed over the corpus, then P/R/F (`green`)"),
        PossibleValue::new("sentence").help("One score per sentence (`sgreen`)"),
        PossibleValue::new("mean").help("Mean of the sentence scores (`mgreen`)"),
    ])
    .try_map(|name| name.parse::<Level>())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The reference's tab-separated text.
    Text,
    /// Scores, per-order counts, P/R/F and a reproducibility signature.
    Json,
}

/// The tokenizer flags, shared by every command that tokenizes.
#[derive(clap::Args, Debug)]
pub struct TokenizerArgs {
    /// Tokenizer: word (Python str.split, default) or char (code points), or any spec `green tokenize --help` lists.
    #[arg(short = 't', long = "token", visible_aliases = ["tokenize", "tokenization"], default_value = "word")]
    pub tokenizer: String,

    /// Configuration string for a `-t plugin:NAME_OR_PATH` tokenizer (its meaning is the plugin's).
    #[arg(long, value_name = "STRING")]
    pub plugin_config: Option<String>,

    /// Dictionary for `-t ja`: a compiled lindera dictionary or a MeCab IPADIC source directory
    /// (default: $GREEN_JA_DICT, then the built-in or Debian's mecab-ipadic).
    #[arg(long, value_name = "DIR")]
    pub ja_dict: Option<std::path::PathBuf>,

    /// Text normalisation before tokenising: none, nfc, nfkc, lower, cjk-join (remove spaces between CJK characters), or e.g. nfkc+cjk-join.
    #[arg(long = "norm", default_value = "none", value_parser = parse_norm)]
    pub normalization: Normalization,
}

impl TokenizerArgs {
    /// Build the tokenizer these flags describe.
    pub fn build(&self) -> Result<Built> {
        let options = green_tokenizers::Options {
            normalization: self.normalization,
            plugin_config: self.plugin_config.clone(),
            ja_dict: self.ja_dict.clone(),
        };
        Ok(green_tokenizers::build(&self.tokenizer, &options)?)
    }

    /// A guard of a run with these flags ([`green_input::Guard`]).
    pub fn guard(&self, ref_names: &[String]) -> green_input::Guard {
        green_input::Guard::new(&self.tokenizer, self.normalization.join_cjk, ref_names)
    }
}

fn parse_norm(s: &str) -> Result<Normalization, String> {
    s.parse()
}

/// Worker threads beyond this many per core only cost time (each is started, and the work
/// is split finer): `--threads` above it is lowered to it, with a warning.
const THREADS_PER_CORE: usize = 4;

/// Input bytes per worker thread when `--threads` is not given and the inputs' sizes are
/// known. A worker costs its start (and rayon waits for it): on the project's 2-core machine
/// two threads only catch up with one from about 150 KB of input (CoNLL-14's first 300 lines
/// of a source, two references and a system), and a small run on a many-core machine would
/// otherwise start and wait for dozens of threads it cannot use.
const BYTES_PER_THREAD: u64 = 128 << 10;

/// Worker threads for `bytes` of input on a machine of `cores()` cores: one per
/// [`BYTES_PER_THREAD`], at least one, at most one per core. The cores are not counted for
/// an input that gets one thread anyway: counting them reads the cgroup's CPU quota, about
/// 0.1 ms of a small run.
fn threads_for(bytes: u64, cores: impl FnOnce() -> usize) -> usize {
    match usize::try_from(bytes.div_ceil(BYTES_PER_THREAD)).unwrap_or(usize::MAX) {
        0 | 1 => 1,
        wanted => wanted.min(cores().max(1)),
    }
}

/// Start the global thread pool with `threads` workers; by default one per core, or, when
/// the run's input is `input_bytes` long, one per [`BYTES_PER_THREAD`] of it up to one per
/// core (`RAYON_NUM_THREADS` still wins). With `use_current`, the calling thread is one of
/// them (no hand-off between reading and counting). A pool already started (green run twice
/// in one process) is kept.
pub fn start_pool(
    threads: Option<usize>,
    use_current: bool,
    input_bytes: Option<u64>,
) -> Result<()> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if use_current {
        pool = pool.use_current_thread();
    }
    let Some(asked) = threads else {
        let bytes = input_bytes.filter(|_| std::env::var_os("RAYON_NUM_THREADS").is_none());
        if let Some(bytes) = bytes {
            let cores = || std::thread::available_parallelism().map_or(1, |n| n.get());
            pool = pool.num_threads(threads_for(bytes, cores));
        }
        drop(pool.build_global());
        return Ok(());
    };
    // Any machine has a core, so up to THREADS_PER_CORE threads need no count of them.
    let threads = if asked <= THREADS_PER_CORE {
        asked
    } else {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let most = THREADS_PER_CORE * cores;
        if asked > most {
            warn(&format!(
                "--threads {asked} is more than {THREADS_PER_CORE} per core on this machine's {cores} cores; using {most} (results are the same at any count)"
            ));
        }
        asked.min(most)
    };
    pool.num_threads(threads)
        .build_global()
        .context("cannot set the number of threads")
}

/// The flags every model-based command (`some`, `impara`, `scribendi`) shares: the corpus,
/// the batch size, per-sentence output, the format and the revision of Hub ids.
#[cfg(feature = "neural")]
#[derive(clap::Args, Debug)]
pub struct NeuralArgs {
    /// Source sentences, one per line.
    #[arg(short = 's', long = "source", value_name = "SRC")]
    pub source: String,

    /// System outputs, one file per system, aligned with the source.
    #[arg(short = 'c', long = "hyp", value_name = "SYS", num_args = 1.., required = true)]
    pub hyp: Vec<String>,

    /// Sentences run through a model at once, grouped by length (scores do not depend on
    /// it); the original's by default: 64 for SOME, 32 for IMPARA and Scribendi.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: Option<u64>,

    /// Also print every sentence's scores (text output; json always has them).
    #[arg(short = 'v', long)]
    pub sentences: bool,

    /// Output: text (a line per system) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,

    /// With Hub ids: the revision (branch, tag or commit) of their snapshots in the local
    /// Hugging Face cache (default main).
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,

    /// Also write every sentence's scores to FILE (JSON): `green merge` joins the files of
    /// the shards of a corpus into what one run over the whole prints.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

#[cfg(feature = "neural")]
impl NeuralArgs {
    /// `--batch-size`, else `default`.
    pub fn batch_size(&self, default: usize) -> Result<usize> {
        self.batch_size
            .map_or(Ok(default), usize::try_from)
            .context("--batch-size is too large")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_inputs_get_one_thread_and_large_ones_every_core() {
        let cores = |n: usize| move || n;
        let uncounted = || -> usize { panic!("one thread needs no core count") };
        assert_eq!(threads_for(0, uncounted), 1);
        assert_eq!(threads_for(BYTES_PER_THREAD, uncounted), 1);
        assert_eq!(threads_for(BYTES_PER_THREAD + 1, cores(8)), 2);
        // CoNLL-14 AMU: source, two references and a system, about 600 KB.
        assert_eq!(threads_for(600_000, cores(2)), 2);
        assert_eq!(threads_for(600_000, cores(64)), 5);
        assert_eq!(threads_for(u64::MAX, cores(16)), 16);
        assert_eq!(threads_for(1 << 30, cores(0)), 1);
    }
}
