//! `green errant-compare` (alias `errant_compare`): ERRANT's span-based F-score from a
//! hypothesis and a reference M2 file, printed as ERRANT 3.0.2's `errant_compare` prints it.
//!
//! The original's single-dash options (`-hyp`, `-ref`, `-cat 3`, `-ds`...) work as written;
//! beyond it: several hypothesis files at once and JSON with a signature. The metric is
//! `green_edits::compare`.

use anyhow::Result;
use green_edits::compare::{self, Mode, Options};
use green_engine::CollectInOrder;

use crate::output::emit;
use crate::stats::{keep, write_stats, CorpusDigest, Provenance, Rows, ShardFile};

/// Said under the options of the commands that are drop-ins for ERRANT's and CLEME's.
pub(crate) const ONE_DASH: &str = "ERRANT's single-dash spellings are accepted too, as its commands write them: -hyp, -ref, -cat, -dt, -ds, -cs, -cse, -single, -multi, -filt (errant-compare); -orig, -cor, -out, -lev, -merge (errant-parallel).";

/// The files and beta of the edit metrics (`errant-compare`, `cleme`).
#[derive(clap::Args, Debug)]
pub struct Files {
    /// Hypothesis M2 files (one or more; ERRANT-style).
    #[arg(long = "hyp", num_args = 1.., required = true, value_name = "HYP")]
    pub hyp: Vec<String>,

    /// The reference M2 file (one annotator per reference).
    #[arg(long = "ref", required = true, value_name = "REF")]
    pub reference: String,

    /// Beta of the F-score.
    #[arg(short = 'b', long, default_value_t = 0.5, value_parser = super::maxmatch::parse_beta)]
    pub beta: f64,
}

impl Files {
    /// The reference and the hypotheses, read and parsed in parallel.
    pub fn read(&self) -> Result<(green_edits::Document, Vec<green_edits::Document>)> {
        use rayon::prelude::*;
        crate::input::stdin_once(
            std::iter::once(self.reference.as_str()).chain(self.hyp.iter().map(String::as_str)),
        )?;
        let (r, h) = rayon::join(
            || read_m2(&self.reference),
            || {
                self.hyp
                    .par_iter()
                    .map(|p| read_m2(p))
                    .collect_in_order::<Vec<_>>()
            },
        );
        Ok((r?, h?))
    }

    /// [`Files::read`], then `rows` of the corpus kept alone, with their provenance.
    pub(crate) fn read_rows(
        &self,
        rows: Option<Rows>,
    ) -> Result<(
        green_edits::Document,
        Vec<green_edits::Document>,
        Provenance,
    )> {
        let (mut reference, mut hyps) = self.read()?;
        let mut digest = CorpusDigest::new();
        for s in &reference.sentences {
            digest.row(&s.source, [format!("{:?}", s.edits).as_str()]);
        }
        let range = Rows::select(rows, reference.sentences.len())?;
        if range.len() < reference.sentences.len() {
            for hyp in &mut hyps {
                green_edits::compare::check_aligned(hyp, &reference)?;
                keep(&mut hyp.sentences, &range);
            }
            keep(&mut reference.sentences, &range);
        }
        Ok((reference, hyps, digest.provenance(&range)))
    }
}

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green errant-compare -hyp HYP.m2... -ref REF.m2 [OPTIONS]",
    after_help = ONE_DASH
)]
pub struct Args {
    #[command(flatten)]
    pub files: Files,

    /// Per sentence, the annotator pair chosen and its counts (a TSV table before the
    /// scores; with --format json, a list per file).
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// Detection, token by token.
    #[arg(long, group = "mode")]
    pub dt: bool,
    /// Detection, span by span.
    #[arg(long, group = "mode")]
    pub ds: bool,
    /// Correction, span by span (the default).
    #[arg(long, group = "mode")]
    pub cs: bool,
    /// Correction and error type, span by span.
    #[arg(long, group = "mode")]
    pub cse: bool,

    /// Only edits of at most one token on each side.
    #[arg(long)]
    pub single: bool,
    /// Only edits of two or more tokens on a side.
    #[arg(long)]
    pub multi: bool,
    /// Error types to leave out.
    #[arg(long, num_args = 1.., value_name = "TYPE")]
    pub filt: Vec<String>,

    /// ChERRANT's scorer (compare_m2_for_evaluation.py) instead: target lines (T0-A1 ...)
    /// allowed and every alternative pooled under its reference, spaces removed from
    /// corrections, a sentence whose only reference is an NA edit left out.
    #[arg(long)]
    pub cherrant: bool,
    /// With --cherrant: only annotators 0..K (K = 1, 2 or 3).
    #[arg(long = "max_answer_num", visible_alias = "max-answer-num", value_name = "K", requires = "cherrant", value_parser = clap::value_parser!(u8).range(1..=3))]
    pub max_answer_num: Option<u8>,
    /// With --cherrant: only sentences with exactly N references.
    #[arg(
        long = "reference_num",
        visible_alias = "reference-num",
        value_name = "N",
        requires = "cherrant"
    )]
    pub reference_num: Option<usize>,

    /// Per-type table: 1 operation (R), 2 main type (NOUN), 3 full type (R:NOUN).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub cat: Option<u8>,

    /// Output: text (the original's lines) or json (scores, per-type counts, signature).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,

    /// Also write every sentence's statistics to FILE (JSON): `green merge` joins the files
    /// of the shards of a corpus into what one run over the whole prints.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<String>,

    /// Score sentences A to B-1 only (counted from 0, as a Python slice): one shard of a corpus.
    #[arg(long, value_name = "A:B")]
    pub rows: Option<crate::stats::Rows>,
}

/// What `--stats` writes: every file's per-sentence statistics and the settings shown.
pub(crate) type StatsFile = ShardFile<Settings, compare::SentenceStats>;

/// What the output depends on beside the statistics.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Settings {
    pub(crate) options: Options,
    /// The per-type table shown (`--cat`).
    cat: Option<u8>,
}

impl Args {
    fn options(&self) -> Options {
        let mode = if self.dt {
            Mode::DetectionToken
        } else if self.ds {
            Mode::DetectionSpan
        } else if self.cse {
            Mode::CorrectionTyped
        } else {
            Mode::Correction
        };
        Options {
            beta: self.files.beta,
            mode,
            single: self.single,
            multi: self.multi,
            filter: self.filt.clone(),
            cherrant: self.cherrant,
            max_answers: self.max_answer_num,
            references: self.reference_num,
        }
    }
}

/// Read and parse an M2 file (`-` is standard input).
pub fn read_m2(path: &str) -> Result<green_edits::Document> {
    let text = crate::input::read_text(path)?;
    Ok(green_edits::parse(&text, path)?)
}

pub fn run(args: &Args) -> Result<()> {
    let opts = args.options();
    let (reference, hyps, provenance) = args.files.read_rows(args.rows)?;
    let stats = hyps
        .iter()
        .map(|hyp| compare::corpus_stats(hyp, &reference, &opts))
        .collect::<Result<Vec<_>, _>>()?;
    let signature = compare::signature(&opts);
    let settings = Settings {
        options: opts,
        cat: args.cat,
    };
    let file = StatsFile::new(
        "errant",
        provenance,
        settings,
        signature,
        &args.files.hyp,
        stats,
    )?;
    if let Some(path) = &args.stats {
        write_stats(path, &file)?;
    }
    emit(&print(&file, args.verbose, args.format == "json")?)
}

/// The output of a run (or of merged shards): the original's lines, or JSON.
pub(crate) fn print(file: &StatsFile, verbose: bool, json: bool) -> Result<String> {
    let Settings { options: opts, cat } = &file.settings;
    if json {
        let out = green_output::edits::errant(
            file.shard.signature.clone(),
            &file.systems,
            &file.shard.systems,
            opts.beta,
            cat.unwrap_or(3),
            verbose,
        );
        return Ok(green_output::to_json(&out)?);
    }
    let mut out = String::new();
    for (path, stats) in file.systems.iter().zip(&file.shard.systems) {
        let report = compare::fold(stats, opts.beta);
        if file.systems.len() > 1 {
            out += &format!("# {path}\n");
        }
        if verbose {
            out += "sentence\thyp\tref\ttp\tfp\tfn\n";
            for (i, p) in green_output::edits::chosen(stats, &report) {
                out += &format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\n",
                    i + 1,
                    p.hyp,
                    p.reference,
                    p.tp,
                    p.fp,
                    p.fn_
                );
            }
        }
        out += &compare::render(&report, opts, *cat);
    }
    Ok(out)
}
