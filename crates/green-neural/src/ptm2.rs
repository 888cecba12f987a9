//! PT-M2 (Gong et al., EMNLP 2022): the M2 scorer's edits, each weighted by how much it
//! moves the source towards the reference under BERTScore, so that a system that fixes the
//! errors that matter scores higher than one that fixes as many trivial ones.
//!
//! As github.com/pygongnlp/PT-M2 computes it (`evaluate.py --scorer bertscore`, with its
//! vendored bert_score): the M2 scorer's edit sequence against each annotator (green-m2's
//! exact one); that annotator's reference is the source with its edits applied (first
//! alternative; PT-M2 reads it from a file and asserts the two are equal). Each edit of the
//! union of system and gold edits weighs |F(source with that edit alone, reference) −
//! F(source, reference)|, F the BERTScore F1: the hidden states after the first `layers`
//! layers, each token's best cosine on the other side, `[CLS]`/`[SEP]` weighted 0 but
//! matchable, F rescaled by the baseline file's F as bert_score's `rescale_with_baseline`
//! does (the rescaling multiplies every weight by one constant, so P/R/F do not depend on
//! it; it is optional here). The counts are then sums of weights: correct = each match's
//! system edit, proposed = system edits, gold = gold edits; each sentence takes the annotator
//! with the best F so far, ties as in the M2 scorer.
//!
//! Sentence level (`sentm2`, the paper's recommended PT-M2): every sentence's F alone, all
//! weights 1/n when they sum to 0, the mean over sentences. Corpus level (`m2`): the sums
//! over the corpus, as the M2 scorer folds counts. The `errant`/`senterrant` bases, on
//! ERRANT M2 edits, are in [`errant`].

pub mod errant;

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use candle_core::DType;
use green_m2::{sentence_stats, GoldEdit, GoldSentence, Options, SystemEdit};
use green_metric::Metric;
use serde::{Deserialize, Serialize};

use crate::bert::{compute_error, Encoder};
use crate::error::{Error, ErrorKind, Result};
use crate::model_dir::digest;
use crate::report::{short, NoHead, Report, System, VERSION};
use crate::wordpiece::{Encoded, WordPiece};
use crate::ModelDir;

/// One edit as PT-M2 keys it: source tokens `start..end` (`original`) become `correction`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub original: String,
    pub correction: String,
}

impl Edit {
    fn of_system(e: &SystemEdit) -> Edit {
        Edit {
            start: e.start,
            end: e.end,
            original: e.original.clone(),
            correction: e.correction.clone(),
        }
    }

    /// A gold edit with its first alternative.
    fn of_gold(g: &GoldEdit) -> Edit {
        Edit {
            start: g.start,
            end: g.end,
            original: g.original.clone(),
            correction: g.corrections.first().cloned().unwrap_or_default(),
        }
    }
}

/// `source` with `edits` applied left to right (PT-M2's `get_ref`: each edit's offsets
/// shifted by the length change of those before it).
pub fn apply(source: &str, edits: &[&Edit]) -> String {
    let mut tokens: Vec<&str> = green_m2::text::split(source).collect();
    let mut shift: isize = 0;
    for e in edits {
        let end = if e.original.is_empty() {
            e.start
        } else {
            e.end
        };
        let clamp = |i: isize| i.clamp(0, tokens.len() as isize) as usize;
        let (s, t) = (clamp(e.start as isize + shift), clamp(end as isize + shift));
        let t = t.max(s);
        let new: Vec<&str> = green_m2::text::split(&e.correction).collect();
        shift += new.len() as isize - green_m2::text::split(&e.original).count() as isize;
        tokens.splice(s..t, new);
    }
    tokens.join(" ")
}

/// Weighted counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Weighted {
    pub correct: f64,
    pub proposed: f64,
    pub gold: f64,
}

impl std::ops::Add for Weighted {
    type Output = Weighted;
    fn add(self, o: Weighted) -> Weighted {
        Weighted {
            correct: self.correct + o.correct,
            proposed: self.proposed + o.proposed,
            gold: self.gold + o.gold,
        }
    }
}

/// Precision, recall and F_β.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub f: f64,
}

impl Weighted {
    /// The M2 scorer's P/R/F: 1 for an empty denominator, F 0 when P and R are.
    pub fn score(&self, beta: f64) -> Prf {
        let p = if self.proposed != 0.0 {
            self.correct / self.proposed
        } else {
            1.0
        };
        let r = if self.gold != 0.0 {
            self.correct / self.gold
        } else {
            1.0
        };
        let b2 = beta * beta;
        let f = if b2 * p + r != 0.0 {
            (1.0 + b2) * p * r / (b2 * p + r)
        } else {
            0.0
        };
        Prf {
            precision: p,
            recall: r,
            f,
        }
    }
}

/// What one annotator makes of a sentence: the weight of every edit (system and gold,
/// ordered) and the system's and the annotator's edits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnnotatorWeights {
    pub annotator: i64,
    pub weights: Vec<(Edit, f64)>,
    #[serde(skip)]
    system: Vec<Edit>,
    #[serde(skip)]
    gold: Vec<GoldEdit>,
}

impl AnnotatorWeights {
    /// The counts under `weights` (PT-M2's `matchSeq`: each system edit scans the gold edits
    /// after the last match and adds its weight once per match).
    fn counts(&self, weights: &BTreeMap<&Edit, f64>) -> Weighted {
        let w = |e: &Edit| weights[e];
        let mut correct = 0.0;
        let mut last = 0;
        for e in &self.system {
            for (i, g) in self.gold.iter().enumerate().skip(last) {
                if g.start == e.start
                    && g.end == e.end
                    && g.original == e.original
                    && g.corrections.contains(&e.correction)
                {
                    correct += w(e);
                    last = i + 1;
                }
            }
        }
        Weighted {
            correct,
            proposed: self.system.iter().map(|e| w(e).abs()).sum(),
            gold: self.gold.iter().map(|g| w(&Edit::of_gold(g))).sum(),
        }
    }

    /// The weights as PT-M2 uses them: sentence level replaces weights that sum to 0 by 1/n.
    fn effective(&self, sentence_level: bool) -> BTreeMap<&Edit, f64> {
        let mut map: BTreeMap<&Edit, f64> = self.weights.iter().map(|(e, w)| (e, *w)).collect();
        if sentence_level && map.values().sum::<f64>() == 0.0 {
            let n = map.len() as f64;
            map.values_mut().for_each(|w| *w = 1.0 / n);
        }
        map
    }
}

/// One sentence's annotators, in the gold file's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SentenceWeights {
    pub annotators: Vec<AnnotatorWeights>,
}

impl SentenceWeights {
    /// What the scores need of this sentence: every annotator's counts.
    pub fn stats(&self) -> SentenceStats {
        SentenceStats {
            annotators: self
                .annotators
                .iter()
                .map(|a| AnnotatorCounts {
                    corpus: a.counts(&a.effective(false)),
                    sentence: a.counts(&a.effective(true)),
                })
                .collect(),
        }
    }
}

/// One annotator's weighted counts of a sentence, under the corpus-level weights and under
/// the sentence-level ones (weights summing to 0 counted 1/n each).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AnnotatorCounts {
    pub corpus: Weighted,
    pub sentence: Weighted,
}

/// A sentence's sufficient statistics: every annotator's counts, in the gold file's order.
/// Statistics of consecutive shards concatenate into those of the whole corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentenceStats {
    pub annotators: Vec<AnnotatorCounts>,
}

impl SentenceStats {
    /// The chosen annotator's counts given the totals so far: the best F of totals + counts,
    /// then more correct, then smaller proposed + β²·gold, then the first.
    pub fn choose(&self, totals: Weighted, beta: f64, sentence_level: bool) -> (usize, Weighted) {
        let b2 = beta * beta;
        let mut best: Option<(usize, f64, Weighted, Weighted)> = None;
        for (i, a) in self.annotators.iter().enumerate() {
            let c = if sentence_level { a.sentence } else { a.corpus };
            let local = totals + c;
            let f = local.score(beta).f;
            let better = match &best {
                None => true,
                Some((_, bf, bl, _)) => {
                    *bf < f
                        || (*bf == f && bl.correct < local.correct)
                        || (*bf == f
                            && bl.correct == local.correct
                            && bl.proposed + b2 * bl.gold > local.proposed + b2 * local.gold)
                }
            };
            if better {
                best = Some((i, f, local, c));
            }
        }
        best.map(|(i, _, _, c)| (i, c)).unwrap_or_default()
    }
}

impl green_metric::Checked for SentenceStats {
    /// At least one annotator, every weighted count a number (read back from a `--stats`
    /// file).
    fn check(&self) -> std::result::Result<(), String> {
        if self.annotators.is_empty() {
            return Err("PT-M2 statistics without an annotator".into());
        }
        let finite = |w: &Weighted| {
            [w.correct, w.proposed, w.gold]
                .iter()
                .all(|x| x.is_finite())
        };
        if self
            .annotators
            .iter()
            .all(|a| finite(&a.corpus) && finite(&a.sentence))
        {
            Ok(())
        } else {
            Err("PT-M2 weighted counts that are not all numbers".into())
        }
    }
}

/// The sentence-level PT-M2 of each sentence (its own F) and their mean.
pub fn sentence_level(sentences: &[SentenceStats], beta: f64) -> (Vec<Prf>, f64) {
    let scores: Vec<Prf> = sentences
        .iter()
        .map(|s| s.choose(Weighted::default(), beta, true).1.score(beta))
        .collect();
    let mean = if scores.is_empty() {
        0.0
    } else {
        scores.iter().map(|s| s.f).sum::<f64>() / scores.len() as f64
    };
    (scores, mean)
}

/// The corpus-level PT-M2: weighted counts folded over the corpus in order.
pub fn corpus_level(sentences: &[SentenceStats], beta: f64) -> (Weighted, Prf) {
    let totals = Ptm2 { beta }.fold(sentences);
    (totals, totals.score(beta))
}

/// PT-M2 as a [`green_metric::Metric`], so that whatever folds statistics (`green meta`'s
/// views and bootstrap replicates) folds PT-M2's: a corpus is its sentences' chosen
/// annotators' weighted counts summed one sentence after another in the order given (the
/// floats always added in that order, so the sum does not depend on threads), and scored
/// as [`corpus_level`] scores it; a sentence's own score is [`sentence_level`]'s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ptm2 {
    pub beta: f64,
}

impl Metric for Ptm2 {
    type Stats = SentenceStats;
    type Totals = Weighted;

    fn fold<'a>(&self, stats: impl IntoIterator<Item = &'a SentenceStats>) -> Weighted {
        stats.into_iter().fold(Weighted::default(), |t, s| {
            t + s.choose(t, self.beta, false).1
        })
    }

    fn score(&self, totals: &Weighted) -> f64 {
        totals.score(self.beta).f
    }

    fn sentence_scores(&self, stats: &[SentenceStats]) -> Vec<f64> {
        sentence_level(stats, self.beta)
            .0
            .iter()
            .map(|p| p.f)
            .collect()
    }
}

/// A system's corpus fields in the report.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Corpus {
    /// The mean of the sentence scores (PT-M2's `sentm2`, the paper's recommendation).
    pub ptm2: f64,
    /// The corpus-level weighted counts and P/R/F (PT-M2's `m2`).
    pub corpus: Weighted,
    pub corpus_score: Prf,
}

/// The signature of a run: the base when it is ERRANT's ([`errant`]; M2's is unnamed, as
/// before that base existed), the model by its digest ([`BertScore::digest`]), the layers,
/// whether weights are rescaled, β.
pub fn signature(errant: bool, digest: &str, layers: usize, rescaled: bool, beta: f64) -> String {
    format!(
        "ptm2|{}model:sha256-{}|layers:{layers}|rescaled:{}|beta:{beta}|v:{VERSION}",
        if errant { "base:errant|" } else { "" },
        short(digest),
        if rescaled { "yes" } else { "no" },
    )
}

/// The report of systems (name, statistics): every sentence's P/R/F, their mean, and the
/// corpus-level counts and P/R/F.
pub fn report(
    signature: String,
    beta: f64,
    systems: impl IntoIterator<Item = (String, Vec<SentenceStats>)>,
) -> Report<NoHead, Corpus, Prf> {
    let systems = systems
        .into_iter()
        .map(|(path, stats)| {
            let (sentences, ptm2) = sentence_level(&stats, beta);
            let (corpus, corpus_score) = corpus_level(&stats, beta);
            System {
                path,
                corpus: Corpus {
                    ptm2,
                    corpus,
                    corpus_score,
                },
                sentences,
            }
        })
        .collect();
    Report {
        signature,
        head: NoHead {},
        systems,
    }
}

/// BERTScore's F1 on a BERT model directory.
pub struct BertScore {
    dir: ModelDir,
    tokenizer: WordPiece,
    encoder: Encoder,
    baseline: Option<(PathBuf, f32)>,
    max_length: usize,
    /// Sentences run through the model at once.
    pub batch_size: usize,
}

/// One sentence's token ids and unit-length hidden states.
struct Embedded {
    ids: Vec<u32>,
    states: Vec<Vec<f32>>,
}

impl BertScore {
    /// Loads the BERT model and tokenizer in `model`, keeping its first `layers` layers, and
    /// the F baseline of that layer count from a bert_score baseline file (`LAYER,P,R,F`
    /// rows, the row `layers` read).
    pub fn open(model: &Path, layers: usize, baseline: Option<&Path>) -> Result<Self> {
        let dir = ModelDir::open(model)?;
        let tokenizer = WordPiece::open(model)?;
        let mut encoder = Encoder::load(&dir)?;
        if tokenizer.vocab_size() > encoder.config.vocab_size {
            return Err(Error::new(
                ErrorKind::Vocab,
                &dir.path,
                format!(
                    "the tokenizer ({}) has {} tokens but the model only {}; use the tokenizer the model was trained with",
                    tokenizer.file.display(),
                    tokenizer.vocab_size(),
                    encoder.config.vocab_size
                ),
            ));
        }
        let total = encoder.config.num_hidden_layers;
        if !encoder.keep_layers(layers) {
            return Err(Error::new(
                ErrorKind::Architecture,
                &dir.path,
                format!("the model has {total} layers, fewer than the {layers} asked for"),
            ));
        }
        let baseline = match baseline {
            Some(p) => Some((p.to_owned(), read_baseline(p, layers)?)),
            None => None,
        };
        let max_length = model_max_length(model)
            .map_or(encoder.config.max_position_embeddings, |m| {
                m.min(encoder.config.max_position_embeddings)
            });
        Ok(BertScore {
            dir,
            tokenizer,
            encoder,
            baseline,
            max_length,
            batch_size: 32,
        })
    }

    /// SHA-256 over the model's config and weights, the tokenizer file and the baseline file.
    pub fn digest(&self) -> Result<String> {
        let mut files = self.dir.files();
        files.push(self.tokenizer.file.clone());
        if let Some((p, _)) = &self.baseline {
            files.push(p.clone());
        }
        digest(&files)
    }

    /// The unit-length hidden states of `texts`, batched by length.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Embedded>> {
        let inputs: Vec<Encoded> = texts
            .iter()
            .map(|t| self.tokenizer.single(t, self.max_length))
            .collect::<Result<_>>()?;
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_key(|&i| inputs[i].ids.len());
        let mut out: Vec<Option<Embedded>> = (0..inputs.len()).map(|_| None).collect();
        for chunk in order.chunks(self.batch_size.max(1)) {
            let batch: Vec<Encoded> = chunk.iter().map(|&i| inputs[i].clone()).collect();
            let run = || -> candle_core::Result<Vec<Vec<Vec<f32>>>> {
                let hidden = self.encoder.forward(&batch)?;
                hidden
                    .lengths
                    .iter()
                    .enumerate()
                    .map(|(i, &len)| {
                        hidden
                            .states
                            .get(i)?
                            .narrow(0, 0, len)?
                            .to_dtype(DType::F32)?
                            .to_vec2::<f32>()
                    })
                    .collect()
            };
            let states = run().map_err(|e| compute_error(&self.dir, e))?;
            for (&i, s) in chunk.iter().zip(states) {
                let states = s
                    .into_iter()
                    .map(|v| {
                        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                        v.into_iter().map(|x| x / norm).collect()
                    })
                    .collect();
                out[i] = Some(Embedded {
                    ids: inputs[i].ids.clone(),
                    states,
                });
            }
        }
        Ok(out
            .into_iter()
            .map(|e| e.expect("every input embedded"))
            .collect())
    }

    /// BERTScore F1 of `cand` against `reference` (float32 as torch), rescaled when there is
    /// a baseline; 0 before rescaling when either side has no tokens.
    fn f(&self, cand: &Embedded, reference: &Embedded) -> f32 {
        let weight = |e: &Embedded| -> Vec<f32> {
            e.ids
                .iter()
                .map(|&id| {
                    if id == self.tokenizer.cls() || id == self.tokenizer.sep() {
                        0.0
                    } else {
                        1.0
                    }
                })
                .collect()
        };
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let side = |a: &Embedded, b: &Embedded| -> f32 {
            let w = weight(a);
            let total: f32 = w.iter().sum();
            a.states
                .iter()
                .zip(&w)
                .map(|(x, &wi)| {
                    let best = b
                        .states
                        .iter()
                        .map(|y| dot(x, y))
                        .fold(f32::NEG_INFINITY, f32::max);
                    best * (wi / total)
                })
                .sum()
        };
        let (p, r) = (side(cand, reference), side(reference, cand));
        let mut f = 2.0 * p * r / (p + r);
        if f.is_nan() {
            f = 0.0;
        }
        match &self.baseline {
            Some((_, b)) => (f - b) / (1.0 - b),
            None => f,
        }
    }

    /// Every edit's weight against every annotator of every sentence, `hypotheses[i]` the
    /// system's output for `gold[i]` (gold sentences owned or borrowed, as a gold file or a
    /// `green meta` dataset holds them).
    pub fn weigh<G: Borrow<GoldSentence>>(
        &self,
        gold: &[G],
        hypotheses: &[String],
    ) -> std::result::Result<Vec<SentenceWeights>, String> {
        assert_eq!(
            gold.len(),
            hypotheses.len(),
            "one hypothesis per gold sentence"
        );
        let opts = Options::default();
        let mut texts = Texts::default();
        let mut plans = Vec::with_capacity(gold.len());
        for (k, (g, h)) in gold.iter().zip(hypotheses).enumerate() {
            let g = g.borrow();
            let stats =
                sentence_stats(g, h, &opts).map_err(|e| format!("sentence {}: {e}", k + 1))?;
            let source = texts.id(g.source.clone());
            let mut annotators = Vec::new();
            for (cand, ann) in stats.candidates.iter().zip(&g.annotators) {
                let system: Vec<Edit> = cand.edits.iter().map(Edit::of_system).collect();
                let mut gold_edits: Vec<Edit> = ann.edits.iter().map(Edit::of_gold).collect();
                gold_edits.sort_by_key(|e| (e.start, e.end));
                let reference = texts.id(apply(&g.source, &gold_edits.iter().collect::<Vec<_>>()));
                let applied = texts.each_alone(&g.source, system.iter().chain(&gold_edits));
                annotators.push(Plan {
                    annotator: cand.annotator,
                    system,
                    gold: ann.edits.clone(),
                    reference,
                    applied,
                });
            }
            plans.push((source, annotators));
        }
        self.weights_of(&texts, plans)
    }

    /// Every annotator's weights: the texts embedded once, then each edit weighs
    /// |F(source with that edit alone, reference) − F(source, reference)|.
    fn weights_of(
        &self,
        texts: &Texts,
        plans: Vec<(usize, Vec<Plan>)>,
    ) -> std::result::Result<Vec<SentenceWeights>, String> {
        let embedded = self.embed(&texts.all()).map_err(|e| e.to_string())?;
        Ok(plans
            .into_iter()
            .map(|(source, annotators)| SentenceWeights {
                annotators: annotators
                    .into_iter()
                    .map(|plan| {
                        let reference = &embedded[plan.reference];
                        let base = f64::from(self.f(&embedded[source], reference));
                        let weights = plan
                            .applied
                            .into_iter()
                            .map(|(e, t)| {
                                let s = f64::from(self.f(&embedded[t], reference));
                                (e, (s - base).abs())
                            })
                            .collect();
                        AnnotatorWeights {
                            annotator: plan.annotator,
                            weights,
                            system: plan.system,
                            gold: plan.gold,
                        }
                    })
                    .collect(),
            })
            .collect())
    }
}

/// What one annotator's weights need: the system's and the annotator's edits, and the ids
/// (in [`Texts`]) of its reference and of the source with each edit alone applied.
struct Plan {
    annotator: i64,
    system: Vec<Edit>,
    gold: Vec<GoldEdit>,
    reference: usize,
    applied: Vec<(Edit, usize)>,
}

/// The distinct texts to embed, each by an id in order of first use.
#[derive(Default)]
struct Texts {
    ids: HashMap<String, usize>,
    texts: Vec<String>,
}

impl Texts {
    fn id(&mut self, text: String) -> usize {
        if let Some(&id) = self.ids.get(&text) {
            return id;
        }
        self.texts.push(text.clone());
        self.ids.insert(text, self.texts.len() - 1);
        self.texts.len() - 1
    }

    /// The union of `edits` (sorted, each once), each with the id of `source` with that
    /// edit alone applied.
    fn each_alone<'e>(
        &mut self,
        source: &str,
        edits: impl Iterator<Item = &'e Edit>,
    ) -> Vec<(Edit, usize)> {
        let mut edits: Vec<Edit> = edits.cloned().collect();
        edits.sort();
        edits.dedup();
        edits
            .into_iter()
            .map(|e| {
                let t = self.id(apply(source, &[&e]));
                (e, t)
            })
            .collect()
    }

    fn all(&self) -> Vec<&str> {
        self.texts.iter().map(String::as_str).collect()
    }
}

/// `model_max_length` from `tokenizer_config.json`, when it is a usable number.
fn model_max_length(model: &Path) -> Option<usize> {
    let text = fs::read_to_string(model.join("tokenizer_config.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let m = v.get("model_max_length")?.as_f64()?;
    (2.0..1e9).contains(&m).then_some(m as usize)
}

/// The F column of row `layers` of a bert_score baseline file (`LAYER,P,R,F`).
fn read_baseline(path: &Path, layers: usize) -> Result<f32> {
    let bad = |what: String| Error::new(ErrorKind::Unreadable, path, what);
    let text = fs::read_to_string(path).map_err(|e| bad(format!("cannot read ({e})")))?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().unwrap_or_default();
    let columns: Vec<&str> = header.split(',').map(str::trim).collect();
    let f_col = columns.iter().position(|c| *c == "F").ok_or_else(|| {
        bad(
            "not a bert_score baseline file: the first line must name the columns LAYER,P,R,F"
                .into(),
        )
    })?;
    let row = lines.nth(layers).ok_or_else(|| {
        bad(format!(
            "no row for {layers} layers; a baseline file has one row per layer count from 0"
        ))
    })?;
    let value = row
        .split(',')
        .nth(f_col)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .ok_or_else(|| bad(format!("row {} has no number in column F", layers + 2)))?;
    Ok(value as f32)
}
