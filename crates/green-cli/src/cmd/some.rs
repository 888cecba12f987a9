//! `green some`: SOME (Yoshimura et al. 2020), the reference-free score of three BERT
//! regressors, on a models directory the user supplies (`green_neural::some`). Only in a
//! build with the `neural` feature.

use anyhow::Result;
use green_neural::some::{self, Paths, Scorer, SentenceScore, Weights};

use crate::args::NeuralArgs;
use crate::cmd::neural::{model_path, print, score_and_show, systems, Settings};
use crate::stats::ShardFile;

#[derive(clap::Args, Debug)]
#[command(override_usage = "green some --models DIR -s SRC -c SYS... [OPTIONS]")]
pub struct Args {
    /// The models directory: grammer/ (or grammar/), fluency/ and meaning/, each a Hugging
    /// Face BertForSequenceClassification directory, and the tokenizer (vocab.txt or
    /// tokenizer.json; else it is looked for in grammer/); or a Hub id (org/name) of such a
    /// repository in the local Hugging Face cache.
    #[arg(long, value_name = "DIR|ID")]
    pub models: std::path::PathBuf,

    /// The tokenizer to use instead (a vocab.txt, a tokenizer.json or a directory holding one):
    /// SOME's is bert-base-cased's.
    #[arg(long, value_name = "PATH")]
    pub tokenizer: Option<std::path::PathBuf>,

    /// Weight of the grammaticality score.
    #[arg(long, default_value_t = 0.55)]
    pub weight_g: f64,

    /// Weight of the fluency score.
    #[arg(long, default_value_t = 0.43)]
    pub weight_f: f64,

    /// Weight of the meaning-preservation score.
    #[arg(long, default_value_t = 0.02)]
    pub weight_m: f64,

    #[command(flatten)]
    pub common: NeuralArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let revision = args.common.revision.as_deref();
    let mut paths = Paths::in_dir(&model_path(&args.models, revision)?)?;
    if let Some(t) = &args.tokenizer {
        paths.tokenizer = model_path(t, revision)?;
    }
    let mut scorer = Scorer::open(&paths)?;
    scorer.batch_size = args.common.batch_size(64)?;
    let weights = Weights {
        grammaticality: args.weight_g,
        fluency: args.weight_f,
        meaning: args.weight_m,
    };
    let digest = scorer.digest()?;
    let signature = some::signature(&digest, weights);
    score_and_show(
        &args.common,
        "some",
        (Settings::new(digest, weights), signature),
        |src, hyp| scorer.score(src, hyp, weights),
        show,
    )
}

/// What `--stats` writes: every system's sentence scores, the models' digest and the weights.
pub(crate) type StatsFile = ShardFile<Settings<Weights>, SentenceScore>;

/// The output of a run (or of merged shards).
pub(crate) fn show(file: &StatsFile, format: &str, sentences: bool) -> Result<()> {
    let s = &file.settings;
    let report = some::report(&s.digest, s.options, systems(file));
    print(
        &report,
        format,
        sentences,
        |c| format!("SOME\t{:.4}", c.some),
        |v| {
            format!(
                "{:.4}\t{:.4}\t{:.4}\t{:.4}",
                v.grammaticality, v.fluency, v.meaning, v.some
            )
        },
    )
}
