//! Datasets as small declarative TOML descriptors, so adding a dataset is a data change.
//!
//! A descriptor names the systems, the parts of the corpus (line files, or para TSV files
//! with an id list), how a judgment's `src-id` maps to a sentence (id base or offset, and
//! `doc-id`), the human views (judgment file, which parts, published scores) and the system
//! sets to correlate on. Paths are relative to a data directory given at run time. The
//! descriptors of GJG15, SEEDA and RevisitCGEC ship inside the crate ([`builtin`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use green_io::m2::MissingAnnotator;

use crate::erratum::Erratum;
use crate::judgments::{Judgments, RankingItem};
use crate::Error;

/// The descriptors shipped with the crate: (name, TOML text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("gjg15", include_str!("../datasets/gjg15.toml")),
    ("seeda", include_str!("../datasets/seeda.toml")),
    ("seeda-all", include_str!("../datasets/seeda-all.toml")),
    ("gjg15-paper", include_str!("../datasets/gjg15-paper.toml")),
    ("seeda-paper", include_str!("../datasets/seeda-paper.toml")),
    (
        "gjg15-table5",
        include_str!("../datasets/gjg15-table5.toml"),
    ),
    (
        "seeda-table5",
        include_str!("../datasets/seeda-table5.toml"),
    ),
    (
        "revisitcgec-minimal",
        include_str!("../datasets/revisitcgec-minimal.toml"),
    ),
    (
        "revisitcgec-fluency",
        include_str!("../datasets/revisitcgec-fluency.toml"),
    ),
];

/// The built-in datasets of the GREEN paper's Table 2 (see [`crate::MetricConfig::green_paper`]).
pub const GREEN_PAPER: [&str; 2] = ["gjg15-paper", "seeda-paper"];

/// The built-in datasets of SEEDA's Table 5 (see [`crate::table5`]).
pub const SEEDA_TABLE5: [&str; 2] = ["gjg15-table5", "seeda-table5"];

/// A built-in descriptor by name.
pub fn builtin(name: &str) -> Option<Descriptor> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, t)| Descriptor::parse(t, n).expect("built-in descriptors parse"))
}

/// A dataset descriptor as written in TOML.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    pub name: String,
    /// Every system, in the order of published score files.
    pub systems: Vec<String>,
    /// Tokenizer aliases for this dataset's language, e.g. `word = "zh"`: a metric asking for
    /// `word` gets the language's word segmenter.
    #[serde(default)]
    pub tokenizers: BTreeMap<String, String>,
    pub parts: Vec<Part>,
    pub human: Vec<HumanView>,
    pub sets: Vec<SystemSet>,
    /// The set whose systems the window analysis slides over.
    pub window_set: Option<String>,
}

/// A block of sentences.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub name: String,
    /// Line file of sources (with `references`), or ...
    pub source: Option<String>,
    #[serde(default)]
    pub references: Vec<String>,
    /// ... a para TSV file `id<TAB>source<TAB>refs...` with `ids`, the para ids in the order
    /// of the system files.
    pub para: Option<String>,
    pub ids: Option<String>,
    /// ... or an M2 file giving sources and references (line `i` = src-id `i + src_id_base`).
    pub m2: Option<String>,
    /// With `m2`: which annotators are a sentence's references, `skip` (default, as the
    /// m2scorer, the GREEN paper and SEEDA) or `source`.
    pub missing_annotator: Option<String>,
    /// With `m2`: where ERRANT rows take a sentence's reference edits from, `texts` (default:
    /// extracted from the reference texts as the hypotheses' edits are) or `m2` (the M2 file's
    /// own edits, as `errant_compare -ref FILE.m2` reads them). SEEDA's ERRANT cells read the
    /// official M2 file.
    pub edit_references: Option<String>,
    /// System output file, `{system}` replaced by the system name.
    pub hypotheses: String,
    /// Files for particular systems instead of `hypotheses` (e.g. `INPUT = "conll14/source.txt"`).
    #[serde(default)]
    pub system_files: BTreeMap<String, String>,
    /// Files for particular systems used **only for corpus-level system scores** (the metric's
    /// own corpus fold); their sentence scores, mean-level and rating-level scores and every
    /// sentence-level statistic keep the regular file. For reproducing a paper whose
    /// corpus-level cells were computed from another file than its sentence-level ones (SEEDA's
    /// Table 5 scored LM-Critic with a copy of PIE's output at corpus level).
    #[serde(default)]
    pub corpus_system_files: BTreeMap<String, String>,
    /// Line files: the `src-id` of the first line (0 or 1).
    #[serde(default)]
    pub src_id_base: i64,
    /// Para files: `src-id` = para id + offset.
    #[serde(default)]
    pub src_id_offset: i64,
    /// Only judgments with this `doc-id` belong to this part.
    pub doc_id: Option<String>,
    /// Keep only the judged lines of the source and references (sorted by src-id); a
    /// hypothesis file holds either exactly those lines (SEEDA's `outputs/subset`) or every
    /// line, of which the judged ones are kept (GJG15's CoNLL-2014 submissions).
    #[serde(default)]
    pub judged_only: bool,
}

/// One set of human judgments and the sentences it covers.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct HumanView {
    pub name: String,
    pub judgments: String,
    /// Parts this view covers (default: all).
    pub parts: Option<Vec<String>>,
    /// Published Expected Wins / TrueSkill: a file of one score per line (systems in
    /// descriptor order) ...
    pub published_ew: Option<String>,
    pub published_ts: Option<String>,
    /// ... or inline, system → score.
    #[serde(default)]
    pub published_ew_values: BTreeMap<String, f64>,
    #[serde(default)]
    pub published_ts_values: BTreeMap<String, f64>,
    /// A known error of the judgment file to correct for sentence-level statistics only
    /// (`seeda-edit-input-first`, see [`crate::erratum`]); human system scores keep the file
    /// as published.
    pub rank_swap_erratum: Option<String>,
}

/// A named subset of the systems.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SystemSet {
    pub name: String,
    /// The systems; default all of them ...
    pub systems: Option<Vec<String>>,
    /// ... minus these.
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl Descriptor {
    /// Parse TOML; `name` (a path or built-in name) is used in messages.
    pub fn parse(text: &str, name: &str) -> Result<Descriptor, Error> {
        let d: Descriptor = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(1);
            Error::Input(format!(
                "{name}:{line}: bad dataset descriptor: {}",
                e.message()
            ))
        })?;
        d.check(name)?;
        Ok(d)
    }

    /// A built-in name or a path to a TOML file.
    pub fn load(spec: &str) -> Result<Descriptor, Error> {
        if let Some(d) = builtin(spec) {
            return Ok(d);
        }
        let text = std::fs::read_to_string(spec).map_err(|e| {
            let known: Vec<_> = BUILTIN.iter().map(|(n, _)| *n).collect();
            Error::Input(format!(
                "dataset '{spec}' is neither built in ({}) nor a readable file: {e}",
                known.join(", ")
            ))
        })?;
        Descriptor::parse(&text, spec)
    }

    fn check(&self, name: &str) -> Result<(), Error> {
        let bad = |m: String| Err(Error::Input(format!("{name}: {m}")));
        let known: BTreeSet<&str> = self.systems.iter().map(String::as_str).collect();
        if known.len() != self.systems.len() || known.len() < 2 {
            return bad("`systems` must list at least two distinct systems".into());
        }
        for p in &self.parts {
            let line = p.source.is_some() && !p.references.is_empty();
            let para = p.para.is_some() && p.ids.is_some();
            let m2 = p.m2.is_some();
            if [line, para, m2].iter().filter(|&&x| x).count() != 1 {
                return bad(format!(
                    "part '{}' needs exactly one of `source` + `references` (line files), `para` + `ids` (a para TSV file) or `m2` (an M2 file)",
                    p.name
                ));
            }
            match p.edit_references.as_deref() {
                None | Some("texts") => {}
                Some("m2") if m2 => {}
                Some("m2") => {
                    return bad(format!("part '{}': `edit_references = \"m2\"` needs `m2`", p.name))
                }
                Some(other) => {
                    return bad(format!(
                        "part '{}': `edit_references = \"{other}\"`: use texts (extract them from the reference texts) or m2 (the M2 file's edits)",
                        p.name
                    ))
                }
            }
            if let Some(rule) = &p.missing_annotator {
                if !m2 {
                    return bad(format!("part '{}': `missing_annotator` needs `m2`", p.name));
                }
                if let Err(e) = rule.parse::<MissingAnnotator>() {
                    return bad(format!("part '{}': {e}", p.name));
                }
            }
            for (field, files) in [
                ("system_files", &p.system_files),
                ("corpus_system_files", &p.corpus_system_files),
            ] {
                if let Some(s) = files.keys().find(|s| !known.contains(s.as_str())) {
                    return bad(format!(
                        "part '{}': `{field}` names '{s}', which is not in `systems`",
                        p.name
                    ));
                }
            }
            if !p.hypotheses.contains("{system}") {
                return bad(format!(
                    "part '{}': `hypotheses` must contain {{system}}",
                    p.name
                ));
            }
        }
        let parts: BTreeSet<&str> = self.parts.iter().map(|p| p.name.as_str()).collect();
        for h in &self.human {
            for p in h.parts.iter().flatten() {
                if !parts.contains(p.as_str()) {
                    return bad(format!("human view '{}' names unknown part '{p}'", h.name));
                }
            }
            if let Some(rule) = &h.rank_swap_erratum {
                let rule: Erratum = rule.parse().map_err(|e: Error| {
                    Error::Input(format!("{name}: human view '{}': {e}", h.name))
                })?;
                if let Some(s) = rule.systems().iter().find(|s| !known.contains(*s)) {
                    return bad(format!(
                        "human view '{}': rank_swap_erratum {} is stated in terms of system '{s}', which is not in `systems`",
                        h.name,
                        rule.name()
                    ));
                }
            }
            for s in h
                .published_ew_values
                .keys()
                .chain(h.published_ts_values.keys())
            {
                if !known.contains(s.as_str()) {
                    return bad(format!(
                        "human view '{}' has a published score for unknown system '{s}'",
                        h.name
                    ));
                }
            }
        }
        for s in &self.sets {
            for sys in s.systems.iter().flatten().chain(&s.exclude) {
                if !known.contains(sys.as_str()) {
                    return bad(format!(
                        "system set '{}' names unknown system '{sys}'",
                        s.name
                    ));
                }
            }
        }
        if let Some(w) = &self.window_set {
            if !self.sets.iter().any(|s| &s.name == w) {
                return bad(format!("window_set '{w}' is not one of the sets"));
            }
        }
        if self.parts.is_empty() || self.human.is_empty() || self.sets.is_empty() {
            return bad("a descriptor needs at least one [[parts]], [[human]] and [[sets]]".into());
        }
        Ok(())
    }

    /// The tokenizer spec to use for `spec` on this dataset (after aliases).
    pub fn tokenizer<'a>(&'a self, spec: &'a str) -> &'a str {
        self.tokenizers.get(spec).map_or(spec, String::as_str)
    }

    /// Every file [`Dataset::load`] reads, relative to the data directory, each once. A caller
    /// can look for a data directory that has them all (or say which are missing) before
    /// reading any.
    pub fn files(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |f: &str| {
            if !out.iter().any(|o| o == f) {
                out.push(f.to_string());
            }
        };
        for h in &self.human {
            add(&h.judgments);
            for f in h.published_ew.iter().chain(&h.published_ts) {
                add(f);
            }
        }
        for p in &self.parts {
            let inputs = [&p.m2, &p.source, &p.para, &p.ids];
            for f in inputs.into_iter().flatten().chain(&p.references) {
                add(f);
            }
            for sys in &self.systems {
                match p.system_files.get(sys) {
                    Some(f) => add(f),
                    None => add(&p.hypotheses.replace("{system}", sys)),
                }
            }
        }
        out
    }
}

/// One sentence with every system's output.
#[derive(Debug, Clone)]
pub struct Sentence {
    pub source: String,
    pub refs: Vec<String>,
    /// One per system, in descriptor order.
    pub hyps: Vec<String>,
    /// The gold edits as the m2scorer reads them, for parts read from M2 (M2 rows need them).
    pub gold: Option<green_m2::GoldSentence>,
    /// The M2 block's edits as `errant_compare` reads them, for parts with
    /// `edit_references = "m2"`: ERRANT rows take these as the references' edits.
    pub m2_edits: Option<green_edits::Sentence>,
}

/// A human view resolved against the loaded sentences.
#[derive(Debug, Clone)]
pub struct View {
    pub name: String,
    /// Sentence indices covered (the view's parts, in order).
    pub sentences: Vec<usize>,
    /// Parts covered (indices into `Dataset::parts`).
    pub parts: Vec<usize>,
    /// Every ranking item with the index of its sentence, as published: human system scores
    /// come from these.
    pub items: Vec<(usize, RankingItem)>,
    /// The items sentence-level statistics compare with: `items` with the view's erratum
    /// applied, if it has one.
    pub sentence_items: Vec<(usize, RankingItem)>,
    /// The erratum applied to `sentence_items` and how many items it changed.
    pub erratum: Option<(Erratum, usize)>,
    pub published_ew: Option<Vec<f64>>,
    pub published_ts: Option<Vec<f64>>,
}

/// A dataset loaded from a data directory.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub descriptor: Descriptor,
    pub sentences: Vec<Sentence>,
    /// Sentence index range of each part.
    pub parts: Vec<std::ops::Range<usize>>,
    pub views: Vec<View>,
    /// System indices of each set, in descriptor order of `sets`.
    pub sets: Vec<(String, Vec<usize>)>,
    /// Hypotheses that replace a system's for corpus-level scores only (`corpus_system_files`):
    /// (sentence, system, text).
    pub corpus_hyps: Vec<(usize, usize, String)>,
    /// A tagger's annotations of the texts, for typed ERRANT rows ([`Dataset::with_annotations`]).
    pub annotations: Option<std::sync::Arc<crate::annotations::Annotations>>,
}

/// A sentence as read: its src-id, source, references, gold edits (M2 parts) and the M2
/// block's edits as ERRANT reads them (`edit_references = "m2"`).
type Row = (
    i64,
    String,
    Vec<String>,
    Option<green_m2::GoldSentence>,
    Option<green_edits::Sentence>,
);

fn read_lines(path: &Path) -> Result<Vec<String>, Error> {
    green_io::read_lines(&green_io::Input::parse(&path.to_string_lossy()))
        .map_err(|e| Error::Input(e.to_string()))
}

impl Dataset {
    /// Read every file the descriptor names from under `data_dir`.
    pub fn load(descriptor: Descriptor, data_dir: &Path) -> Result<Dataset, Error> {
        let d = &descriptor;
        let path = |p: &str| -> PathBuf { data_dir.join(p) };
        // Judgments first: judged-only parts need their src-ids.
        let judgments: Vec<Judgments> = d
            .human
            .iter()
            .map(|h| Judgments::read(&path(&h.judgments), &d.systems))
            .collect::<Result<_, _>>()?;

        let mut sentences = Vec::new();
        let mut corpus_hyps = Vec::new();
        let mut ranges = Vec::new();
        // (doc filter, src-id) → sentence index, per part.
        let mut keys: Vec<HashMap<i64, usize>> = Vec::new();
        for p in &d.parts {
            let start = sentences.len();
            let mut key = HashMap::new();
            let lines_or_m2 = match (&p.m2, &p.source) {
                (Some(m2), _) => {
                    let file =
                        green_io::m2::read(&green_io::Input::parse(&path(m2).to_string_lossy()))
                            .map_err(|e| Error::Input(e.to_string()))?;
                    let rule = p
                        .missing_annotator
                        .as_deref()
                        .unwrap_or("skip")
                        .parse::<MissingAnnotator>()
                        .map_err(|e| Error::Input(e.to_string()))?;
                    let text = std::fs::read_to_string(path(m2))
                        .map_err(|e| Error::Input(format!("{}: {e}", path(m2).display())))?;
                    let gold = green_m2::parse_gold(&text, m2, green_m2::Alternatives::First)
                        .map_err(|e| Error::Input(e.to_string()))?;
                    if gold.sentences.len() != file.sentences.len() {
                        return Err(Error::Input(format!(
                            "{}: {} S lines in {} blocks; M2 rows need one S line per block",
                            path(m2).display(),
                            gold.sentences.len(),
                            file.sentences.len()
                        )));
                    }
                    let golds: Vec<_> = gold.sentences.into_iter().map(Some).collect();
                    let edits: Vec<Option<green_edits::Sentence>> = if p.edit_references.as_deref()
                        == Some("m2")
                    {
                        let doc = green_edits::m2::parse(&text, m2)
                            .map_err(|e| Error::Input(e.to_string()))?;
                        if doc.sentences.len() != golds.len() {
                            return Err(Error::Input(format!(
                                "{}: ERRANT reads {} sentences where the m2scorer reads {}; edit_references = \"m2\" needs one S line per block",
                                path(m2).display(),
                                doc.sentences.len(),
                                golds.len()
                            )));
                        }
                        doc.sentences.into_iter().map(Some).collect()
                    } else {
                        vec![None; golds.len()]
                    };
                    Some((file.sources(), file.references(rule), golds, edits))
                }
                (None, Some(src)) if !p.references.is_empty() => {
                    let source = read_lines(&path(src))?;
                    let sets: Vec<Vec<String>> = p
                        .references
                        .iter()
                        .map(|r| read_lines(&path(r)))
                        .collect::<Result<_, _>>()?;
                    for (r, name) in sets.iter().zip(&p.references) {
                        if r.len() != source.len() {
                            return Err(Error::Input(format!(
                                "{} has {} lines but {} has {}; references must align with the source line by line",
                                path(name).display(),
                                r.len(),
                                path(src).display(),
                                source.len()
                            )));
                        }
                    }
                    let refs = (0..source.len())
                        .map(|i| sets.iter().map(|r| r[i].clone()).collect())
                        .collect();
                    let golds = vec![None; source.len()];
                    let edits: Vec<Option<green_edits::Sentence>> = vec![None; source.len()];
                    Some((source, refs, golds, edits))
                }
                _ => None,
            };
            // With `judged_only`: how many lines the files have and which of them are kept, so
            // that hypothesis files of every line can be cut to the judged ones.
            let mut judged_lines: Option<(usize, Vec<usize>)> = None;
            let rows: Vec<Row> = if let Some((source, refs, golds, edits)) = lines_or_m2 {
                let judged: BTreeSet<i64> = judgments
                    .iter()
                    .flat_map(|j| &j.items)
                    .filter(|it| p.doc_id.is_none() || it.doc_id == p.doc_id)
                    .map(|it| it.src_id)
                    .collect();
                let all = source.len();
                let rows: Vec<Row> = source
                    .into_iter()
                    .zip(refs)
                    .zip(golds)
                    .zip(edits)
                    .enumerate()
                    .map(|(i, (((s, r), g), e))| (i as i64 + p.src_id_base, s, r, g, e))
                    .filter(|(id, ..)| !p.judged_only || judged.contains(id))
                    .collect();
                if p.judged_only {
                    let kept = rows
                        .iter()
                        .map(|r| (r.0 - p.src_id_base) as usize)
                        .collect();
                    judged_lines = Some((all, kept));
                }
                rows
            } else {
                let para_path = path(p.para.as_deref().unwrap_or_default());
                let para =
                    green_io::para::read(&green_io::Input::parse(&para_path.to_string_lossy()))
                        .map_err(|e| Error::Input(e.to_string()))?;
                let by_id: HashMap<&str, &green_io::para::ParaSentence> =
                    para.iter().map(|s| (s.id.as_str(), s)).collect();
                let ids_path = path(p.ids.as_deref().unwrap_or_default());
                let mut rows = Vec::new();
                for (i, id) in read_lines(&ids_path)?.iter().enumerate() {
                    let id = id.trim();
                    let s = by_id.get(id).ok_or_else(|| {
                        Error::Input(format!(
                            "{}:{}: id '{id}' is not in {}",
                            ids_path.display(),
                            i + 1,
                            para_path.display()
                        ))
                    })?;
                    let num: i64 = id.parse().map_err(|_| {
                        Error::Input(format!(
                            "{}:{}: id '{id}' is not an integer",
                            ids_path.display(),
                            i + 1
                        ))
                    })?;
                    rows.push((
                        num + p.src_id_offset,
                        s.source.clone(),
                        s.refs.clone(),
                        None,
                        None,
                    ));
                }
                rows
            };
            let n = rows.len();
            for (k, (id, source, refs, gold, m2_edits)) in rows.into_iter().enumerate() {
                key.insert(id, start + k);
                sentences.push(Sentence {
                    source,
                    refs,
                    hyps: Vec::with_capacity(d.systems.len()),
                    gold,
                    m2_edits,
                });
            }
            // A system's lines, aligned with the part's sentences.
            let hypotheses = |file: &str| -> Result<Vec<String>, Error> {
                let hp = path(file);
                let lines = read_lines(&hp)?;
                match &judged_lines {
                    _ if lines.len() == n => Ok(lines),
                    Some((all, kept)) if lines.len() == *all => {
                        Ok(kept.iter().map(|&i| lines[i].clone()).collect())
                    }
                    Some((all, _)) => Err(Error::Input(format!(
                        "{} has {} lines but part '{}' has {all} lines of which {n} are judged; a system's output must have one line per source line or per judged line",
                        hp.display(),
                        lines.len(),
                        p.name
                    ))),
                    None => Err(Error::Input(format!(
                        "{} has {} lines but part '{}' has {n} sentences; system outputs must align with the sources",
                        hp.display(),
                        lines.len(),
                        p.name
                    ))),
                }
            };
            for (h, sys) in d.systems.iter().enumerate() {
                let file = p
                    .system_files
                    .get(sys)
                    .cloned()
                    .unwrap_or_else(|| p.hypotheses.replace("{system}", sys));
                for (k, line) in hypotheses(&file)?.into_iter().enumerate() {
                    sentences[start + k].hyps.push(line);
                }
                if let Some(file) = p.corpus_system_files.get(sys) {
                    for (k, line) in hypotheses(file)?.into_iter().enumerate() {
                        corpus_hyps.push((start + k, h, line));
                    }
                }
            }
            ranges.push(start..sentences.len());
            keys.push(key);
        }

        let mut views = Vec::new();
        for (h, j) in d.human.iter().zip(judgments) {
            // Part names were checked when the descriptor was read.
            let parts: Vec<usize> = match &h.parts {
                None => (0..d.parts.len()).collect(),
                Some(ps) => ps
                    .iter()
                    .filter_map(|n| d.parts.iter().position(|p| &p.name == n))
                    .collect(),
            };
            let mut items = Vec::new();
            for it in j.items {
                let part = parts
                    .iter()
                    .copied()
                    .find(|&p| d.parts[p].doc_id.is_none() || d.parts[p].doc_id == it.doc_id);
                let Some(part) = part else {
                    // A judgment of a part outside this view belongs to another view; one of
                    // no part at all would be dropped without a word.
                    if !d
                        .parts
                        .iter()
                        .any(|p| p.doc_id.is_none() || p.doc_id == it.doc_id)
                    {
                        return Err(Error::Input(format!(
                            "{}:{}: doc-id {} matches no part of dataset {}; check the judgments file or the parts' doc_id",
                            path(&h.judgments).display(),
                            it.line,
                            it.doc_id.as_deref().map_or("(none)".into(), |d| format!("'{d}'")),
                            d.name
                        )));
                    }
                    continue;
                };
                let s = *keys[part].get(&it.src_id).ok_or_else(|| {
                    Error::Input(format!(
                        "{}:{}: src-id {} matches no sentence of part '{}'; check src_id_base / src_id_offset in the descriptor",
                        path(&h.judgments).display(),
                        it.line,
                        it.src_id,
                        d.parts[part].name
                    ))
                })?;
                items.push((s, it));
            }
            let published = |file: &Option<String>,
                             values: &BTreeMap<String, f64>|
             -> Result<Option<Vec<f64>>, Error> {
                if let Some(f) = file {
                    return crate::human::read_scores(&path(f), d.systems.len()).map(Some);
                }
                if values.is_empty() {
                    return Ok(None);
                }
                d.systems
                    .iter()
                    .map(|s| {
                        values.get(s).copied().ok_or_else(|| {
                            Error::Input(format!(
                                "human view '{}': no published score for system '{s}'",
                                h.name
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some)
            };
            let mut judged = vec![false; d.systems.len()];
            for (_, it) in &items {
                it.ranks.iter().for_each(|&(sys, _)| judged[sys] = true);
            }
            let unjudged: Vec<&str> = (0..d.systems.len())
                .filter(|&i| !judged[i])
                .map(|i| d.systems[i].as_str())
                .collect();
            if !unjudged.is_empty() {
                return Err(Error::Input(format!(
                    "{}: human view '{}' has no judgment of system(s) {}; Expected Wins averages over every system, so an unjudged one changes everyone's score: remove it from `systems` in the descriptor or add its judgments",
                    d.name,
                    h.name,
                    unjudged.join(", ")
                )));
            }
            let erratum: Option<Erratum> = h
                .rank_swap_erratum
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|e| Error::Input(format!("{}: human view '{}': {e}", d.name, h.name)))?;
            let mut changed = 0;
            let sentence_items = items
                .iter()
                .map(
                    |(s, it)| match erratum.and_then(|e| e.apply(it, &d.systems)) {
                        Some(fixed) => {
                            changed += 1;
                            (*s, fixed)
                        }
                        None => (*s, it.clone()),
                    },
                )
                .collect();
            views.push(View {
                name: h.name.clone(),
                sentences: parts.iter().flat_map(|&p| ranges[p].clone()).collect(),
                parts,
                items,
                sentence_items,
                erratum: erratum.map(|e| (e, changed)),
                published_ew: published(&h.published_ew, &h.published_ew_values)?,
                published_ts: published(&h.published_ts, &h.published_ts_values)?,
            });
        }
        let sets = d
            .sets
            .iter()
            .map(|s| {
                let members: Vec<usize> = (0..d.systems.len())
                    .filter(|&i| {
                        let name = &d.systems[i];
                        s.systems.as_ref().is_none_or(|l| l.contains(name))
                            && !s.exclude.contains(name)
                    })
                    .collect();
                (s.name.clone(), members)
            })
            .collect();
        Ok(Dataset {
            descriptor,
            sentences,
            parts: ranges,
            views,
            sets,
            corpus_hyps,
            annotations: None,
        })
    }

    /// The dataset with a tagger's annotations of its texts, which typed ERRANT rows read.
    pub fn with_annotations(
        mut self,
        annotations: std::sync::Arc<crate::annotations::Annotations>,
    ) -> Dataset {
        self.annotations = Some(annotations);
        self
    }

    /// Every sentence's gold edits as the m2scorer reads them, for the metrics on M2 edits
    /// (the M2 rows; PT-M2, which the CLI runs): an error naming `metric` when a sentence
    /// comes from a part without an M2 file.
    pub fn gold_edits(&self, metric: &str) -> Result<Vec<&green_m2::GoldSentence>, Error> {
        self.sentences
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.gold.as_ref().ok_or_else(|| {
                    Error::Config(format!(
                        "dataset {}: {metric} needs gold edits, and sentence {} comes from a part without an M2 file",
                        self.descriptor.name,
                        i + 1
                    ))
                })
            })
            .collect()
    }

    /// The dataset whose hypotheses are those of corpus-level scores: `None` without
    /// `corpus_system_files`, else a copy with those files' lines in place, and the systems
    /// they replace.
    pub fn corpus_variant(&self) -> Option<(Dataset, Vec<usize>)> {
        if self.corpus_hyps.is_empty() {
            return None;
        }
        let mut variant = self.clone();
        let mut systems = Vec::new();
        for (s, h, text) in &self.corpus_hyps {
            variant.sentences[*s].hyps[*h] = text.clone();
            if !systems.contains(h) {
                systems.push(*h);
            }
        }
        variant.corpus_hyps.clear();
        systems.sort_unstable();
        Some((variant, systems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse() {
        for (name, _) in BUILTIN {
            let d = builtin(name).unwrap();
            assert!(!d.systems.is_empty(), "{name}");
        }
    }

    #[test]
    fn files_lists_what_load_reads() {
        let d = builtin("gjg15-paper").unwrap();
        let files = d.files();
        assert_eq!(files[0], "conll14/judgments.xml");
        assert!(files.contains(&"conll14/conll14st-test.m2".to_string()));
        assert!(files.contains(&"conll14/systems/AMU.txt".to_string()));
        // INPUT is read from its `system_files` entry, not from the `hypotheses` pattern.
        assert!(files.contains(&"conll14/source.txt".to_string()));
        assert!(!files.contains(&"conll14/systems/INPUT.txt".to_string()));
        assert_eq!(files.len(), 1 + 1 + 13);
        let r = builtin("revisitcgec-minimal").unwrap().files();
        // One judgments file for three views, listed once.
        assert_eq!(r.iter().filter(|f| f.ends_with("judgments.xml")).count(), 1);
        assert!(r.contains(&"zh/yaclc/yaclc-minimal_dev.para".to_string()));
        assert!(r.contains(&"zh/revisitcgec/sentence-ids/mucgec_ids.txt".to_string()));
        let s = builtin("seeda").unwrap().files();
        assert!(s.contains(&"seeda/human/TS_edit.txt".to_string()));
        assert!(s.contains(&"conll14/ref1.txt".to_string()));
    }

    #[test]
    fn descriptor_errors_are_clear() {
        let e = Descriptor::parse("name = 1", "x.toml").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.toml:1: bad dataset descriptor"),
            "{e}"
        );
        let text = r#"name = "x"
systems = ["A", "B"]
[[parts]]
name = "p"
source = "s.txt"
hypotheses = "{system}.txt"
[[human]]
name = "h"
judgments = "j.xml"
[[sets]]
name = "all"
"#;
        let e = Descriptor::parse(text, "x.toml").unwrap_err();
        assert!(
            e.to_string()
                .contains("part 'p' needs exactly one of `source` + `references`"),
            "{e}"
        );
        let both = text.replace(
            "source = \"s.txt\"",
            "m2 = \"g.m2\"\npara = \"p.tsv\"\nids = \"i.txt\"",
        );
        let e = Descriptor::parse(&both, "x.toml").unwrap_err();
        assert!(e.to_string().contains("needs exactly one of"), "{e}");
        let rule = text.replace(
            "source = \"s.txt\"",
            "m2 = \"g.m2\"\nmissing_annotator = \"all\"",
        );
        let e = Descriptor::parse(&rule, "x.toml").unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown missing-annotator rule 'all'"),
            "{e}"
        );
        let unknown = text.replace(
            "source = \"s.txt\"",
            "m2 = \"g.m2\"\nsystem_files = { C = \"c.txt\" }",
        );
        let e = Descriptor::parse(&unknown, "x.toml").unwrap_err();
        assert!(
            e.to_string()
                .contains("names 'C', which is not in `systems`"),
            "{e}"
        );
    }
}
