//! Scoring from files: the reference's `green`, `sgreen` and `mgreen`, streamed.
//!
//! Every file is read in lock step, a batch of sentences at a time; each batch is counted
//! in parallel and folded in order, so memory stays flat at corpus and mean level and the
//! numbers do not depend on the thread count. Nothing is printed until every file has been
//! read to the end without error, so a bad input never yields a partial score.

use std::io::IsTerminal;

use anyhow::{bail, Context, Result};
use clap::ArgAction;
use green_engine::{
    Accumulator, Config, Report, Scorer, Sentence, SentenceCounts, SentenceScores, Signature,
    Tokenizer, BATCH,
};
use green_input::{Guard, Loaded};
use green_io::m2::MissingAnnotator;
use green_io::references::Format as RefFormat;
use green_io::{Batches, Input};
use green_output::green;
use green_tokenizers::Built;
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::level_parser;
pub use crate::args::{Format, Level, TokenizerArgs};
use crate::limits::{bounded, MAX_DIGITS, MAX_THREADS};
use crate::output::{emit, warn};
use crate::stats::{write_stats, CorpusDigest, Provenance, Rows, StatsFile, STATS_FORMAT};

/// Show a progress bar (on a terminal) when the source file is at least this big.
const PROGRESS_BYTES: u64 = 8 << 20;

/// The reference CLI's arguments, with its aliases and defaults, plus our additions.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Source file (one sentence per line; `-` for standard input).
    #[arg(
        short = 's',
        long = "src",
        visible_alias = "source",
        value_name = "SRC"
    )]
    pub source: Option<String>,

    /// Reference files, one reference set per file.
    #[arg(short = 'r', long = "ref", visible_aliases = ["refs", "references"], num_args = 1.., action = ArgAction::Set, value_name = "REF")]
    pub refs: Vec<String>,

    /// Corrected (system) files, one system per file.
    #[arg(
        short = 'c',
        short_alias = 'o',
        long = "cor",
        visible_aliases = ["cors", "corrected", "corrected-sentences", "out", "outs", "outputs", "hyp", "hyps", "hypotheses"],
        num_args = 1..,
        action = ArgAction::Set,
        value_name = "HYP"
    )]
    pub hyps: Vec<String>,

    /// Highest n-gram order N.
    #[arg(short = 'n', default_value_t = 4, allow_negative_numbers = true)]
    pub n: i64,

    /// One or more betas (recall weight); `inf` means recall only.
    #[arg(short = 'b', long = "beta", num_args = 1.., value_delimiter = ',', action = ArgAction::Set, default_values_t = [1.0], allow_negative_numbers = true)]
    pub betas: Vec<f64>,

    /// Digits after the decimal point.
    #[arg(short = 'd', long = "digit", default_value_t = 2, value_parser = bounded(0, MAX_DIGITS))]
    pub digits: usize,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Print the per-order table of counts and scores (corpus level).
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With -v: one line per system and beta instead of the table.
    #[arg(short = 'l', long = "line-verbose")]
    pub line_verbose: bool,

    /// Layout of the -r files: auto (by name: *.m2, *.m2.*, *.para, *.tsv, *.md; else lines), lines, m2, para or
    /// multigec. M2 and para files carry the sources, so -s may be left out; sentences may have different numbers of
    /// references. MultiGEC Markdown (-s, -r and -c all *.md essays) is scored per essay, aligned by essay id.
    #[arg(long, default_value = "auto", value_name = "FORMAT")]
    pub ref_format: String,

    /// M2 references: skip (default: a sentence's references are the annotators with a line in
    /// its block, as the m2scorer, the GREEN paper and SEEDA count them) or source (every
    /// annotator of the file; one with no line gives the source, like CoNLL-14's ref1.txt).
    #[arg(long, default_value = "skip", value_name = "RULE")]
    pub missing_annotator: MissingAnnotator,

    /// Score level; `sgreen` and `mgreen` set sentence and mean.
    #[arg(long, value_parser = level_parser())]
    pub level: Option<Level>,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,

    /// Worker threads (default: one per 128 KiB of input, up to one per core). Results are
    /// identical at any count.
    #[arg(long, value_parser = bounded(1, MAX_THREADS))]
    pub threads: Option<usize>,

    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// Also write the run's statistics (integer region totals and every sentence score) to
    /// FILE as JSON: `green merge` joins the files of the shards of a corpus into exactly the
    /// scores of one run.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score rows A to B-1 of the files only (counted from 0, as a Python slice; `A:` to the
    /// end): one shard of a corpus, every shard reading the whole files, for `--stats`.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<Rows>,
}

/// Everything read and counted: the report, and sentence scores when asked for.
pub(crate) struct Scored {
    pub(crate) report: Report,
    sentences: Vec<SentenceScores>,
    /// `sgreen -v`: the per-sentence blocks.
    verbose: Option<String>,
    /// References per sentence (the largest count when it varies).
    pub(crate) refs: usize,
    /// With `--stats`: the mergeable statistics, and where they come from.
    stats: Option<(Accumulator, Provenance)>,
}

pub fn run(args: &Args, level: Option<Level>) -> Result<()> {
    let level = args.level.or(level).unwrap_or(Level::Corpus);
    let ref_format = RefFormat::parse(&args.ref_format)?;
    let streaming = args
        .refs
        .iter()
        .all(|r| ref_format.unwrap_or_else(|| RefFormat::detect(r)) == RefFormat::Lines);
    if args.source.is_none() && streaming {
        bail!("no source file given: pass it with -s SRC (or give references as M2 or para files, which carry the sources)");
    }
    if args.refs.is_empty() {
        bail!("no reference files given: pass one or more with -r REF [REF ...]");
    }
    if args.hyps.is_empty() {
        bail!("no system files given: pass one or more with -c HYP [HYP ...]");
    }
    if !(1..=green_engine::MAX_N as i64).contains(&args.n) {
        bail!(
            "N must be between 1 and {} (got -n {})",
            green_engine::MAX_N,
            args.n
        );
    }
    let config = Config::new(args.n as usize, args.betas.clone())?;
    let inputs: Vec<Input> = args
        .source
        .iter()
        .chain(&args.refs)
        .chain(&args.hyps)
        .map(|p| Input::parse(p))
        .collect();
    crate::input::stdin_once(inputs.iter().map(Input::name))?;
    // The main thread is one of the pool's workers: one thread fewer to start, and no hand-off
    // between the thread that reads the files and those that count them.
    let bytes = inputs.iter().map(Input::len).sum::<Option<u64>>();
    crate::args::start_pool(args.threads, true, bytes)?;
    let built = args.tokenizer.build()?;
    let tokenizer_name = built.name();
    let keep = Keep::new(level, args, &config);
    let mut scored = if streaming {
        match built {
            Built::Word(t) => score_files(t, config, &inputs, args, keep)?,
            Built::Char(t) => score_files(t, config, &inputs, args, keep)?,
            Built::Dyn(t) => score_files(t, config, &inputs, args, keep)?,
        }
    } else {
        let data = crate::input::load(
            args.source.as_deref(),
            &args.refs,
            &args.hyps,
            &args.ref_format,
            args.missing_annotator,
        )?;
        let guard = args.tokenizer.guard(&[]);
        let scored = match built {
            Built::Word(t) => score_loaded(t, config, &data, keep, guard)?,
            Built::Char(t) => score_loaded(t, config, &data, keep, guard)?,
            Built::Dyn(t) => score_loaded(t, config, &data, keep, guard)?,
        };
        // Freeing every sentence's strings would only cost time: the process ends soon.
        std::mem::forget(data);
        scored
    };
    let m2 = args
        .refs
        .iter()
        .any(|r| ref_format.unwrap_or_else(|| RefFormat::detect(r)) == RefFormat::M2)
        .then(|| args.missing_annotator.name().to_string());
    if let (Some(path), Some((statistics, provenance))) = (&args.stats, scored.stats.take()) {
        let file = StatsFile {
            format: STATS_FORMAT.into(),
            provenance,
            tokenizer: tokenizer_name.clone(),
            normalization: args.tokenizer.normalization.to_string(),
            m2: m2.clone(),
            refs: scored.refs,
            source: args.source.clone(),
            references: args.refs.clone(),
            systems: args.hyps.clone(),
            statistics,
        };
        write_stats(path, &file)?;
    }
    let base = Signature {
        n: args.n as usize,
        betas: Vec::new(),
        tokenizer: tokenizer_name,
        normalization: args.tokenizer.normalization,
        refs: scored.refs,
        level: level.name().into(),
        m2,
    };
    print(&scored, args, level, &base)
}

/// Print `scored` as `args` asks; `base` is the signature without its betas.
pub(crate) fn print(scored: &Scored, args: &Args, level: Level, base: &Signature) -> Result<()> {
    let files = green::Files {
        source: args.source.as_deref(),
        references: &args.refs,
        systems: &args.hyps,
    };
    let out = green::output(&scored.report, Some(&scored.sentences), level, base, &files);
    let text = match (args.format, &scored.verbose) {
        (Format::Json, _) => green_output::to_json(&out)?,
        (Format::Text, Some(blocks)) if level == Level::Sentence => blocks.clone(),
        (Format::Text, _) => {
            let verbose = match (args.verbose, args.line_verbose) {
                (false, _) => green::Verbose::No,
                (true, false) => green::Verbose::Tables,
                (true, true) => green::Verbose::Lines,
            };
            green::text(&out, args.digits, verbose)
        }
    };
    emit(&text)?;
    Ok(())
}

impl Scored {
    /// The report of merged statistics at `level` (corpus or mean; the mean as the reference
    /// averages, NumPy's pairwise sum over the sentence scores).
    pub(crate) fn merged(stats: &Accumulator, refs: usize, level: Level) -> Result<Scored> {
        let mut report = stats.finish();
        if level == Level::Mean {
            let scores = stats
                .sentence_scores()
                .context("internal: merged statistics without sentence scores")?;
            report.set_numpy_means(scores);
        }
        Ok(Scored {
            report,
            sentences: Vec::new(),
            verbose: None,
            refs,
            stats: None,
        })
    }
}

/// What scoring keeps beside the running totals, by level and flags.
struct Keep {
    /// Sentence level: every sentence's scores.
    sentences: Option<Vec<SentenceScores>>,
    /// Mean level: the accumulator keeps every sentence score, averaged at the end.
    mean: bool,
    /// `sgreen -v`: the per-sentence blocks, in order.
    verbose: Option<String>,
    betas: Vec<f64>,
    n: usize,
    digits: usize,
    /// `--stats`: keep mergeable statistics, and the digest of the whole corpus.
    mergeable: bool,
    digest: Option<CorpusDigest>,
    /// `--rows`.
    rows: Option<Rows>,
}

impl Keep {
    fn new(level: Level, args: &Args, config: &Config) -> Keep {
        Keep {
            sentences: (level == Level::Sentence).then(Vec::new),
            mean: level == Level::Mean,
            verbose: (level == Level::Sentence && args.verbose).then(String::new),
            betas: config.betas.clone(),
            n: config.n,
            digits: args.digits,
            mergeable: args.stats.is_some(),
            digest: args.stats.is_some().then(CorpusDigest::new),
            rows: args.rows,
        }
    }

    /// Takes a batch of the corpus whose first sentence is `first` (0-based): adds it to the
    /// corpus digest, and returns the part of it that `--rows` selects, with the index of its
    /// first sentence.
    fn select<'b, 's>(
        &mut self,
        batch: &'b [Sentence<'s>],
        first: usize,
    ) -> (&'b [Sentence<'s>], usize) {
        if let Some(d) = &mut self.digest {
            for s in batch {
                d.row(s.source, s.refs.iter().copied());
            }
        }
        let Some(rows) = self.rows else {
            return (batch, first);
        };
        let end = first + batch.len();
        let lo = rows.first.clamp(first, end);
        let hi = rows.end.unwrap_or(end).clamp(lo, end);
        (&batch[lo - first..hi - first], lo)
    }

    /// The accumulator of a run: mergeable (every sentence score kept) with `--stats` or at
    /// mean level, totals only otherwise.
    fn accumulator(&self, config: &Config, hyps: usize) -> Accumulator {
        if self.mergeable || self.mean {
            Accumulator::mergeable(config, hyps)
        } else {
            Accumulator::new(config, hyps)
        }
    }

    /// Counts and adds a batch whose first sentence is `first` (0-based), keeping what is
    /// asked for of each sentence; with nothing to keep, the batch is folded on the pool.
    fn add_batch<T: Tokenizer>(
        &mut self,
        acc: &mut Accumulator,
        scorer: &Scorer<T>,
        batch: &[Sentence],
        first: usize,
    ) -> Result<(), green_engine::Error> {
        if self.sentences.is_none() && self.verbose.is_none() {
            return acc.fold_sentences(scorer, batch);
        }
        let scored = acc.add_sentences(scorer, batch)?;
        for (i, ((c, s), sentence)) in scored.into_iter().zip(batch).enumerate() {
            self.add(first + i, sentence, &c, s);
        }
        Ok(())
    }

    /// Keep what is asked for of sentence `index` (0-based).
    fn add(
        &mut self,
        index: usize,
        sentence: &Sentence,
        counts: &SentenceCounts,
        s: SentenceScores,
    ) {
        if let Some(out) = &mut self.verbose {
            sentence_blocks(
                out,
                index,
                sentence,
                counts,
                &self.betas,
                self.n,
                self.digits,
            );
        }
        if let Some(all) = &mut self.sentences {
            all.push(s);
        }
    }

    /// The scored result of a corpus of `rows` sentences, with mean-level scores replaced by
    /// the reference's averages.
    fn finish(self, acc: Accumulator, refs: usize, rows: usize) -> Result<Scored> {
        let selected = Rows::select(self.rows, rows)?;
        let mut report = acc.finish();
        if let (true, Some(scores)) = (self.mean, acc.sentence_scores()) {
            report.set_numpy_means(scores);
        }
        let stats = match (self.mergeable, self.digest) {
            (true, Some(digest)) => Some((acc, digest.provenance(&selected))),
            _ => None,
        };
        Ok(Scored {
            report,
            sentences: self.sentences.unwrap_or_default(),
            verbose: self.verbose,
            refs,
            stats,
        })
    }
}

/// The reference's `sgreen -v` output for one sentence: for every system and beta, every
/// reference's per-order table under the sentence, the chosen reference marked with `*`.
fn sentence_blocks(
    out: &mut String,
    index: usize,
    s: &Sentence,
    counts: &SentenceCounts,
    betas: &[f64],
    n: usize,
    digits: usize,
) {
    let d = index + 1;
    for (c, hyp) in s.hyps.iter().enumerate() {
        for &beta in betas {
            let (chosen, _) = green_engine::score::select_reference(counts, c, n, beta);
            for (r, reference) in s.refs.iter().enumerate() {
                let mark = if r == chosen { '*' } else { ' ' };
                out.push_str(&format!("S-{d}   \t{}\n", s.source));
                out.push_str(&format!("C-{d}-{} \t{hyp}\n", c + 1));
                out.push_str(&format!("R-{d}-{}{mark}\t{reference}\n", r + 1));
                let orders: Vec<green::Order> =
                    green_engine::score::order_scores(&counts.get(c, r)[..n], beta)
                        .iter()
                        .map(green::order)
                        .collect();
                out.push_str(&green::verbose_table(&orders, beta, digits));
            }
        }
    }
}

/// Read every file in lock step and score it. Files are opened on the rayon pool, small
/// ones mapped whole ([`crate::inputs`]; on a small corpus opening would otherwise be a
/// serial tenth of the run); for larger files a reader thread fills batches of lines while
/// the pool counts the previous batch, so reading and counting overlap.
fn score_files<T: Tokenizer>(
    tokenizer: T,
    config: Config,
    inputs: &[Input],
    args: &Args,
    mut keep: Keep,
) -> Result<Scored> {
    let files = inputs.len();
    let refs = args.refs.len();
    let readers = crate::input::open_all(inputs)?;
    let progress = progress_bar(&inputs[0], args.no_progress);
    let scorer = Scorer::new(tokenizer, config);
    let mut acc = keep.accumulator(&scorer.config, args.hyps.len());
    let mut done = 0usize;
    let mut guard = args.tokenizer.guard(&args.refs);
    // No bar at all rather than a hidden one: a hidden bar still takes a lock and reads the
    // clock on every row, and making one builds a default style.
    let bar = progress.clone();
    let mut batches = Batches::spawn(readers, move |bytes| {
        if let Some(bar) = &bar {
            bar.inc(bytes)
        }
    });
    if rayon::current_num_threads() == 1 {
        batches = batches.small();
    }
    for batch in batches.by_ref() {
        let batch = batch?;
        let views: Vec<&str> = batch.lines().collect();
        let sentences = Sentence::from_rows(&views, files, refs);
        guard.look(&sentences);
        let (selected, first) = keep.select(&sentences, done);
        keep.add_batch(&mut acc, &scorer, selected, first)
            .map_err(|e| match e {
                green_engine::Error::Tokenize { sentence, source } => anyhow::anyhow!(
                    "{}:{}: tokenizer '{}' failed: {source}",
                    inputs[0].name(),
                    first + sentence + 1,
                    scorer.tokenizer.name()
                ),
                e => e.into(),
            })?;
        done += sentences.len();
    }
    let readers = batches.finish()?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if done == 0 {
        bail!("{} is empty: there is nothing to score", inputs[0].name());
    }
    for w in guard.warnings() {
        warn(&w);
    }
    for r in readers.iter().filter(|r| r.had_bom()) {
        warn(&green_input::bom_warning(r.name()));
    }
    // Unmapping the files (and a `-t ja` dictionary) would only cost time: the process
    // ends after printing.
    std::mem::forget((readers, scorer));
    keep.finish(acc, refs, done)
}

/// Score in-memory data whose sentences may have different numbers of references.
fn score_loaded<T: Tokenizer>(
    tokenizer: T,
    config: Config,
    data: &Loaded,
    mut keep: Keep,
    mut guard: Guard,
) -> Result<Scored> {
    let scorer = Scorer::new(tokenizer, config);
    let mut acc = keep.accumulator(&scorer.config, data.hyps.len());
    let views = data.views();
    let sentences = views.sentences();
    for (b, chunk) in sentences.chunks(BATCH).enumerate() {
        guard.look(chunk);
        let (selected, first) = keep.select(chunk, b * BATCH);
        keep.add_batch(&mut acc, &scorer, selected, first)
            .map_err(|e| match e {
                green_engine::Error::Tokenize { sentence, source } => anyhow::anyhow!(
                    "sentence {}: tokenizer '{}' failed: {source}",
                    first + sentence + 1,
                    scorer.tokenizer.name()
                ),
                e => e.into(),
            })?;
    }
    for w in guard.warnings() {
        warn(&w);
    }
    keep.finish(acc, data.max_refs, sentences.len())
}

fn progress_bar(source: &Input, disabled: bool) -> Option<ProgressBar> {
    match source.len() {
        Some(len) if !disabled && len >= PROGRESS_BYTES && std::io::stderr().is_terminal() => {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} scoring {bar:40} {bytes}/{total_bytes} ({eta})",
                )
                .expect("valid template"),
            );
            Some(bar)
        }
        _ => None,
    }
}
