//! `green multigec`: MultiGEC-2025's table — GLEU and ERRANT's P, R and F0.5 per language and
//! corpus — as the task's official scorer (spraakbanken/multigec-2025,
//! `scripts/local_eval/gleu_errant/gleu_errant_evaluation.py`) writes its `scores.csv`, from
//! the task's Markdown files alone or with a tagger's CoNLL-U of each.
//!
//! The scorer tokenizes each essay (syntok) into one line, scores GLEU on those lines
//! (`gleu -d 4 -f -n 4 -t word`) and ERRANT on them (cainesap/errant's `errant_parallel`, then
//! `errant_compare`). green tokenizes as it does (green-syntok) unless a file's CoNLL-U is
//! beside it, whose words are then the essay's tokens. The scorer's parse replaces
//! spacy-udpipe's tokenizer, which is where UDPipe runs, by a whitespace tokenizer, so its
//! Docs carry words only: by default green blanks the CoNLL-U's lemmas, tags and trees
//! likewise; `--tags` types edits from them instead. An essay a system file lacks is scored
//! as the scorer scores it: `!`, or, with several system files for a corpus, another file's.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use green_edits::typed::{Classifier, Doc, Merger, Token};
use green_engine::gleu::Gleu;
use green_engine::{Counter, Whitespace};
use green_metric::Metric;

#[derive(clap::Args, Debug)]
#[command(
    override_usage = "green multigec --ref-dir DIR --hyp-dir DIR [--split dev] [--tags] [--team NAME]"
)]
pub struct Args {
    /// The originals and references: {lang}-{corpus}-orig-{split}.md and
    /// {lang}-{corpus}-ref{N}-{split}.md, each with its CoNLL-U beside it (same name, .conllu) or
    /// none (tokenized as the scorer tokenizes).
    #[arg(long, value_name = "DIR")]
    pub ref_dir: PathBuf,

    /// The systems' files: {lang}-{corpus}-*-{split}.md (a "fluency" in the name is the
    /// fluency track; the scorer takes it from the last file), each with its CoNLL-U or none.
    #[arg(long, value_name = "DIR")]
    pub hyp_dir: PathBuf,

    /// The split named in the file names.
    #[arg(long, default_value = "dev")]
    pub split: String,

    /// Type ERRANT's edits from the CoNLL-U's lemmas, tags and trees (cainesap/errant's UD
    /// classifier) instead of the words only, as the official scorer's parse leaves them.
    #[arg(long)]
    pub tags: bool,

    /// The team_name column (the scorer writes `unknown` for a participant's files).
    #[arg(long, default_value = "unknown")]
    pub team: String,

    /// Also write the M2 files scored here, named as the scorer names them:
    /// {lang}-{corpus}-ref1-{split}.m2 (all references) and, per system file in name order,
    /// {lang}-{corpus}-hypo{N}-{split}.m2 (-fluency-hypo{N}- on the fluency track).
    #[arg(long, value_name = "DIR")]
    pub m2_dir: Option<PathBuf>,
}

/// One Markdown file's essays: per id, its tokens (joined by spaces, the scorer's line) and
/// its Doc.
struct Essays {
    order: Vec<String>,
    by_id: HashMap<String, (String, Doc)>,
}

pub fn run(args: &Args) -> Result<()> {
    let suffix = format!("-{}.md", args.split);
    let orig_suffix = format!("-orig{suffix}");
    let corpora: Vec<String> = names(&args.ref_dir)?
        .into_iter()
        .filter_map(|n| n.strip_suffix(&orig_suffix).map(str::to_owned))
        .collect();
    if corpora.is_empty() {
        bail!(
            "{}: no *{orig_suffix} file; the originals are named {{lang}}-{{corpus}}{orig_suffix}",
            args.ref_dir.display()
        );
    }
    let hyp_names = names(&args.hyp_dir)?;
    let mut rows = Vec::new();
    for corpus in &corpora {
        let hyps: Vec<&String> = hyp_names
            .iter()
            .filter(|n| n.starts_with(corpus.as_str()) && n.ends_with(&suffix))
            .filter(|n| !is_reference(n, corpus, &suffix))
            .collect();
        if hyps.is_empty() {
            continue; // as the scorer: a corpus without a system file is not scored
        }
        let orig = essays(
            &args.ref_dir.join(format!("{corpus}{orig_suffix}")),
            args.tags,
        )?;
        let mut refs = Vec::new();
        loop {
            let path = args
                .ref_dir
                .join(format!("{corpus}-ref{}{suffix}", refs.len() + 1));
            if !path.exists() {
                break;
            }
            refs.push((path.display().to_string(), essays(&path, args.tags)?));
        }
        if refs.is_empty() {
            bail!(
                "{}: no {corpus}-ref1{suffix}; each corpus needs its references",
                args.ref_dir.display()
            );
        }
        let systems = hyps
            .iter()
            .map(|h| essays(&args.hyp_dir.join(h), args.tags))
            .collect::<Result<Vec<_>>>()?;
        // The scorer's track is the last file's (its loop variable), for every file.
        let track = if hyps.last().is_some_and(|h| h.contains("fluency")) {
            "fluency"
        } else {
            "minimal"
        };
        let missing = (String::from("!"), bang());
        for (k, hyp) in hyps.iter().enumerate() {
            // As the scorer: system k scores, per essay, the k-th text of the essay among the
            // files that have it (the file's own when every file has it), and `!` past them.
            let texts: Vec<&(String, Doc)> = orig
                .order
                .iter()
                .map(|id| {
                    let mut have = systems
                        .iter()
                        .enumerate()
                        .filter_map(|(j, s)| Some((j, s.by_id.get(id)?)));
                    let (j, text) = match have.nth(k) {
                        Some((j, text)) => (Some(j), text),
                        None => (None, &missing),
                    };
                    if j != Some(k) {
                        let path = args.hyp_dir.join(hyp);
                        let what = j.map_or("`!`".to_owned(), |j| format!("{}'s text", hyps[j]));
                        crate::output::warn(&if systems[k].by_id.contains_key(id) {
                            format!("{}: essay_id = {id} is scored as {what}, as MultiGEC's scorer does: system file N takes the Nth text among the files that have the essay", path.display())
                        } else {
                            format!("{}: no essay_id = {id}; scored as {what}, as MultiGEC's scorer does", path.display())
                        });
                    }
                    text
                })
                .collect();
            let name = format!(
                "{corpus}-{}hypo{}-{}",
                if track == "fluency" { "fluency-" } else { "" },
                k + 1,
                args.split
            )
            .to_lowercase();
            let scored = score(&orig, &refs, &name, &texts)?;
            if let Some(dir) = &args.m2_dir {
                let write = |name: String, text: &str| {
                    let out = dir.join(name);
                    crate::output::write_atomic(&out, text.as_bytes())
                        .with_context(|| format!("cannot write {}", out.display()))
                };
                write(format!("{corpus}-ref1-{}.m2", args.split), &scored.ref_m2)?;
                write(format!("{name}.m2"), &scored.hyp_m2)?;
            }
            let Scored { gleu, p, r, f, .. } = scored;
            rows.push(Row {
                language: name.chars().take(2).collect(),
                corpus: name.split('-').nth(1).unwrap_or_default().to_owned(),
                track,
                gleu,
                p,
                r,
                f,
            });
        }
    }
    // pandas' sort_values(by=[language, corpus]) of several keys is stable.
    rows.sort_by(|a, b| (&a.language, &a.corpus).cmp(&(&b.language, &b.corpus)));
    let mut out = String::from("team_name,language,corpus,track,GLEU,precision,recall,F0.5\n");
    for r in rows {
        // float(str(x)) * 100 as Python prints it.
        let pct = |x: f64| green_edits::pyfloat::str(x * 100.0);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            args.team,
            r.language,
            r.corpus,
            r.track,
            r.gleu,
            pct(r.p),
            pct(r.r),
            pct(r.f)
        );
    }
    crate::output::emit(&out)
}

struct Row {
    language: String,
    corpus: String,
    track: &'static str,
    gleu: String,
    p: f64,
    r: f64,
    f: f64,
}

/// Whether a file name is the corpus' original or one of its references (when the systems'
/// files share their directory).
fn is_reference(name: &str, corpus: &str, suffix: &str) -> bool {
    let Some(kind) = name
        .strip_prefix(corpus)
        .and_then(|n| n.strip_suffix(suffix))
    else {
        return false;
    };
    kind == "-orig"
        || kind
            .strip_prefix("-ref")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A directory's file names, sorted.
fn names(dir: &Path) -> Result<Vec<String>> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the directory {}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    out.sort();
    Ok(out)
}

/// What one system file scores: GLEU as `gleu -d 4 -f -n 4 -t word` prints it, ERRANT's P, R,
/// F0.5 rounded to 4 as `errant_compare` prints them, and the two M2 files compared.
struct Scored {
    gleu: String,
    p: f64,
    r: f64,
    f: f64,
    hyp_m2: String,
    ref_m2: String,
}

fn score(
    orig: &Essays,
    refs: &[(String, Essays)],
    hyp_name: &str,
    hyp: &[&(String, Doc)],
) -> Result<Scored> {
    let metric = Gleu {
        iterations: 500,
        max: false,
    };
    let mut counts = Vec::with_capacity(orig.order.len());
    let (mut hyp_m2, mut ref_m2) = (String::new(), String::new());
    let ud = Classifier::ud();
    for (id, (h, h_doc)) in orig.order.iter().zip(hyp.iter().copied()) {
        let (source, source_doc) = &orig.by_id[id];
        let r: Vec<(&str, &Doc)> = refs
            .iter()
            .map(|(path, e)| {
                e.by_id
                    .get(id)
                    .map(|(t, d)| (t.as_str(), d))
                    .with_context(|| format!("{path}: no essay_id = {id}; every reference file must have every essay"))
            })
            .collect::<Result<_>>()?;
        let texts: Vec<&str> = r.iter().map(|(t, _)| *t).collect();
        counts.push(
            Counter::with_local(|c| c.count_gleu(&Whitespace, 4, source, &texts, &[h.as_str()]))
                .map_err(|e| anyhow::anyhow!("{e}"))?,
        );
        let block = |cors: &[(&str, &Doc)]| {
            green_edits::typed::block(source, source_doc, cors, false, Merger::Rules, &ud)
                .map_err(|e| anyhow::anyhow!("essay_id = {id}: {e}"))
        };
        hyp_m2 += &block(&[(h.as_str(), h_doc)])?;
        ref_m2 += &block(&r)?;
    }
    let gleu = green_output::number::quantize(100.0 * metric.score(&metric.fold(&counts)), 4);
    let report = green_edits::compare::score(
        &green_edits::parse(&hyp_m2, hyp_name)?,
        &green_edits::parse(&ref_m2, "references")?,
        &green_edits::compare::Options::default(),
    )?;
    let s = report.score;
    Ok(Scored {
        gleu,
        p: s.p,
        r: s.r,
        f: s.f,
        hyp_m2,
        ref_m2,
    })
}

/// A Markdown file's essays: tokenized as the scorer tokenizes them (syntok), or, when a
/// CoNLL-U (FILE.conllu) is beside it, with its words: one `# newdoc` line per essay, in the
/// file's order (`# newdoc id = ID`, if it names one, names that essay), its sentences after it.
fn essays(md: &Path, tags: bool) -> Result<Essays> {
    let md_name = md.display().to_string();
    let list = green_io::multigec::read(&green_io::Input::parse(&md_name))?;
    let conllu_path = md.with_extension("conllu");
    let conllu_name = conllu_path.display().to_string();
    if !conllu_path.exists() {
        if tags {
            bail!("cannot read {conllu_name}; --tags types the edits from the tagger's CoNLL-U beside each Markdown file");
        }
        return Ok(tokenized(list));
    }
    let text = std::fs::read_to_string(&conllu_path)
        .with_context(|| format!("cannot read {conllu_name}"))?;
    let sentences = green_edits::conllu::parse(&text, &conllu_name)?;
    // Where each essay starts: the line numbers of `# newdoc` and the ids they name.
    let docs: Vec<(usize, Option<&str>)> = text
        .split('\n')
        .enumerate()
        .filter_map(|(n, l)| {
            let rest = l.trim_end_matches('\r').strip_prefix("# newdoc")?;
            let id = rest
                .trim()
                .strip_prefix("id")
                .map(|r| r.trim_start().trim_start_matches('=').trim());
            Some((n + 1, id))
        })
        .collect();
    if docs.len() != list.len() {
        bail!(
            "{conllu_name}: {} `# newdoc` lines for the {} essays of {md_name}; each essay's sentences follow a `# newdoc id = ID` line, in the file's order",
            docs.len(),
            list.len()
        );
    }
    if let Some(s) = sentences.first().filter(|s| s.line < docs[0].0) {
        bail!(
            "{conllu_name}:{}: a sentence before the first `# newdoc` line",
            s.line
        );
    }
    let mut by_id = HashMap::new();
    let mut next = 0;
    for (k, essay) in list.iter().enumerate() {
        let (line, id) = docs[k];
        if id.is_some_and(|id| id != essay.id) {
            bail!(
                "{conllu_name}:{line}: `# newdoc` names essay {} where {md_name} has essay_id = {} (essay {} of the file)",
                id.unwrap_or_default(),
                essay.id,
                k + 1
            );
        }
        let end = docs.get(k + 1).map_or(usize::MAX, |d| d.0);
        let start = next;
        while next < sentences.len() && sentences[next].line < end {
            next += 1;
        }
        let doc = Doc::from_conllu(&sentences[start..next]);
        let words: Vec<&str> = doc.tokens.iter().map(|t| t.text.as_str()).collect();
        if words.is_empty() {
            bail!("{conllu_name}:{line}: essay {} has no words", essay.id);
        }
        if let Some(w) = words.iter().find(|w| w.chars().any(char::is_whitespace)) {
            bail!(
                "{conllu_name}: essay {}: the word '{w}' holds a space; the words are the essay's whitespace tokens",
                essay.id
            );
        }
        let line = words.join(" ");
        let doc = if tags { doc } else { blank(doc) };
        by_id.insert(essay.id.clone(), (line, doc));
    }
    Ok(Essays {
        order: list.into_iter().map(|e| e.id).collect(),
        by_id,
    })
}

/// A Doc with words only, as spaCy makes one from words: no lemma, tags or dependency, each
/// token its own head.
fn blank(doc: Doc) -> Doc {
    Doc {
        tokens: doc
            .tokens
            .into_iter()
            .enumerate()
            .map(|(i, t)| Token {
                lemma: Default::default(),
                pos: Default::default(),
                tag: Default::default(),
                dep: Default::default(),
                head: i,
                ..t
            })
            .collect(),
    }
}

/// Essays as the scorer's `md_to_dict` makes them: each one line of syntok's tokens; the Doc
/// has the line's words only, as the scorer's parse leaves them.
fn tokenized(list: Vec<green_io::multigec::Essay>) -> Essays {
    let mut by_id = HashMap::new();
    let mut order = Vec::with_capacity(list.len());
    for essay in list {
        let line = green_syntok::line(&essay.text);
        let words: Vec<&str> = green_edits::m2::split(&line).collect();
        let doc = words_doc(&words);
        by_id.insert(essay.id.clone(), (words.join(" "), doc));
        order.push(essay.id);
    }
    Essays { order, by_id }
}

/// A Doc of words only, as spaCy makes one from words: no lemma, tags or dependency, each
/// token its own head.
fn words_doc(words: &[&str]) -> Doc {
    Doc {
        tokens: words
            .iter()
            .enumerate()
            .map(|(i, w)| Token {
                text: (*w).into(),
                lower: w.to_lowercase().into(),
                lemma: Default::default(),
                pos: Default::default(),
                tag: Default::default(),
                dep: Default::default(),
                head: i,
            })
            .collect(),
    }
}

/// The Doc of the scorer's `!`, the line it scores for an essay a system lacks.
fn bang() -> Doc {
    words_doc(&["!"])
}
