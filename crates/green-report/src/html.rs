//! The page: the [`Report`] rendered as one HTML file that needs nothing else.
//!
//! Everything is inline: the style sheet, the charts (SVG), the data (the model's JSON in a
//! `<script type="application/json">` block) and the script that draws the sentence browser
//! from it. The summary, the tables and the charts are written here as static HTML, so they
//! show without the script; each number drawn from the model carries the path of its value
//! in the JSON (`data-json`) and how it is formatted (`data-fmt`), which is how CI checks
//! that the page shows exactly what `--format json` prints. Numbers are printed as `green
//! paired` prints them (×100, two digits, rounded half up).

use std::fmt::Write as _;

use green_output::number::percent;

use crate::model::*;
use crate::svg;

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// Text safe inside an element or a quoted attribute.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A score ×100 with two digits; a dash when undefined.
fn pct(x: f64) -> String {
    if x.is_finite() {
        percent(x, 2)
    } else {
        "–".into()
    }
}

fn ci(i: [f64; 2]) -> String {
    format!("[{}, {}]", pct(i[0]), pct(i[1]))
}

fn delta(x: f64) -> String {
    if x.is_finite() && x >= 0.0 {
        format!("+{}", pct(x))
    } else {
        pct(x)
    }
}

/// A table cell showing the model's value at `path`, formatted as `fmt`.
fn cell(path: &str, fmt: &str, text: &str) -> String {
    format!(
        r#"<td data-json="{path}" data-fmt="{fmt}">{}</td>"#,
        esc(text)
    )
}

/// The whole page.
pub fn page(r: &Report) -> Result<String, serde_json::Error> {
    // `<` never appears in JSON outside strings, so escaping it there keeps `</script>` and
    // `<!--` in a text from ending the block early.
    let data = serde_json::to_string(r)?.replace('<', "\\u003c");
    let mut out = String::with_capacity(data.len() + CSS.len() + JS.len() + 100_000);
    let names: Vec<String> = r.systems.iter().map(|s| s.name.clone()).collect();
    let _ = write!(
        out,
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="green {version}">
<title>{title}</title>
<style>{CSS}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="meta">{corpus}</p>
<nav><a href="#summary">Summary</a><a href="#outcomes">Edit outcomes</a><a href="#types">Error types</a><a href="#distributions">Sentence scores</a><a href="#lengths">Length buckets</a><a href="#sentences">Sentences</a></nav>
</header>
<main>
"##,
        version = esc(&r.version),
        title = esc(&r.title),
        corpus = corpus_line(r),
    );
    summary(&mut out, r, &names);
    outcomes(&mut out, r, &names);
    types(&mut out, r, &names);
    distributions(&mut out, r, &names);
    lengths(&mut out, r, &names);
    browser(&mut out, &names);
    let _ = write!(
        out,
        "</main>\n<footer>Written by green {} (<code>green report</code>). Everything on this page is in this file.</footer>\n<script type=\"application/json\" id=\"green-data\">{data}</script>\n<script>{JS}</script>\n</body>\n</html>\n",
        esc(&r.version)
    );
    Ok(out)
}

fn corpus_line(r: &Report) -> String {
    let c = &r.corpus;
    let mut parts = vec![
        format!(
            r#"<span data-json="corpus.sentences" data-fmt="int">{}</span> sentences"#,
            c.sentences
        ),
        format!(
            "source {}",
            esc(c.source.as_deref().unwrap_or("(from the references)"))
        ),
        format!(
            "references {}",
            c.references
                .iter()
                .map(|s| esc(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    if let Some(g) = &c.gold {
        parts.push(format!("gold edits {}", esc(g)));
    }
    parts.push(format!("tokenizer {}", esc(&c.tokenizer)));
    if c.normalization != "none" {
        parts.push(format!("normalisation {}", esc(&c.normalization)));
    }
    parts.push(format!(
        "{} systems, baseline <b>{}</b>",
        r.systems.len(),
        esc(&r.systems[r.baseline].name)
    ));
    parts.join(" · ")
}

fn summary(out: &mut String, r: &Report, names: &[String]) {
    let b = &r.bootstrap;
    let _ = write!(
        out,
        r#"<section id="summary"><h2>Summary</h2>
<p>Corpus scores ×100 with {level}% bootstrap intervals ({reps} replicates, seed {seed}); Δ, its interval and p from the paired bootstrap of each system against the baseline <b>{base}</b> (as <code>green paired</code>). ▲ ▼: p &lt; 0.05.</p>
<div class="scroll"><table class="summary"><thead><tr><th rowspan="2">system</th>"#,
        level = b.confidence * 100.0,
        reps = b.replicates,
        seed = b.seed,
        base = esc(&names[r.baseline]),
    );
    for m in &r.metrics {
        let _ = write!(
            out,
            r#"<th colspan="5" class="group">{} <small>β={}</small></th>"#,
            esc(&m.metric),
            m.beta
        );
    }
    out.push_str("</tr><tr>");
    for _ in &r.metrics {
        out.push_str(
            r#"<th>score</th><th>interval</th><th>Δ</th><th>interval of Δ</th><th>p</th>"#,
        );
    }
    out.push_str("</tr></thead><tbody>");
    for (s, name) in names.iter().enumerate() {
        let class = if s == r.baseline {
            r#" class="baseline""#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<tr{class}><th title="{}">{}</th>"#,
            esc(&r.systems[s].path),
            esc(name)
        );
        for (k, m) in r.metrics.iter().enumerate() {
            let v = &m.systems[s];
            let at = format!("metrics.{k}.systems.{s}");
            out.push_str(&cell(&format!("{at}.score"), "pct", &pct(v.score)));
            out.push_str(&cell(&format!("{at}.interval"), "ci", &ci(v.interval)));
            match &v.versus {
                Some(d) => {
                    let mark = match (d.p < 0.05, d.delta > 0.0) {
                        (true, true) => " up",
                        (true, false) => " down",
                        _ => "",
                    };
                    let _ = write!(
                        out,
                        r#"<td class="delta{mark}" data-json="{at}.versus.delta" data-fmt="delta">{}</td>"#,
                        delta(d.delta)
                    );
                    out.push_str(&cell(
                        &format!("{at}.versus.interval"),
                        "ci",
                        &ci(d.interval),
                    ));
                    out.push_str(&cell(
                        &format!("{at}.versus.p"),
                        "p",
                        &format!("{:.3}", d.p),
                    ));
                }
                None => out.push_str(r#"<td class="muted" colspan="3">baseline</td>"#),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str(
        "</tbody></table></div>\n<details><summary>Precision, recall and counts</summary>",
    );
    for (k, m) in r.metrics.iter().enumerate() {
        let counts = m.systems.iter().any(|s| s.counts.is_some());
        let _ = write!(
            out,
            r#"<h3>{}</h3><div class="scroll"><table><thead><tr><th>system</th><th>P</th><th>R</th><th>F</th>{}</tr></thead><tbody>"#,
            esc(&m.metric),
            if counts {
                "<th>TP</th><th>FP</th><th>FN</th>"
            } else {
                ""
            }
        );
        for (s, v) in m.systems.iter().enumerate() {
            let at = format!("metrics.{k}.systems.{s}");
            let _ = write!(out, "<tr><th>{}</th>", esc(&names[s]));
            out.push_str(&cell(&format!("{at}.precision"), "pct", &pct(v.precision)));
            out.push_str(&cell(&format!("{at}.recall"), "pct", &pct(v.recall)));
            out.push_str(&cell(&format!("{at}.score"), "pct", &pct(v.score)));
            if let Some(c) = &v.counts {
                out.push_str(&cell(&format!("{at}.counts.tp"), "int", &c.tp.to_string()));
                out.push_str(&cell(&format!("{at}.counts.fp"), "int", &c.fp.to_string()));
                out.push_str(&cell(&format!("{at}.counts.fn"), "int", &c.fn_.to_string()));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</details>\n<details><summary>Signatures</summary><dl class=\"signatures\">");
    for m in &r.metrics {
        let _ = write!(
            out,
            "<dt>{}</dt><dd><code>{}</code></dd>",
            esc(&m.metric),
            esc(&m.signature)
        );
    }
    let _ = write!(
        out,
        "<dt>intervals and tests</dt><dd><code>test:{}|reps:{}|seed:{}|confidence:{}|rng:{}</code></dd></dl></details>",
        esc(&b.test),
        b.replicates,
        b.seed,
        b.confidence,
        esc(&b.generator)
    );
    for w in &r.warnings {
        let _ = write!(out, r#"<p class="warning">{}</p>"#, esc(w));
    }
    out.push_str("</section>\n");
}

fn outcomes(out: &mut String, r: &Report, names: &[String]) {
    let _ = write!(
        out,
        r#"<section id="outcomes"><h2>Edit outcomes</h2>
<p>Each system's edits against {}, in CLEME 2.0's four aspects: <span class="key o0">correct</span> <span class="key o1">wrong correction</span> <span class="key o2">unnecessary</span> <span class="key miss">missed</span>. TP = correct, FP = wrong + unnecessary, FN = missed + covered (reference edits a wrong correction overlaps).</p>
<div class="scroll"><table><thead><tr><th>system</th><th>correct</th><th>wrong</th><th>unnecessary</th><th>missed</th><th>covered</th></tr></thead><tbody>"#,
        esc(&r.outcomes.against)
    );
    let mut bars = Vec::with_capacity(names.len());
    for (s, a) in r.outcomes.systems.iter().enumerate() {
        let at = format!("outcomes.systems.{s}");
        let _ = write!(out, "<tr><th>{}</th>", esc(&names[s]));
        for (field, v) in [
            ("correct", a.correct),
            ("wrong", a.wrong),
            ("unnecessary", a.unnecessary),
            ("missed", a.missed),
            ("covered", a.covered),
        ] {
            out.push_str(&cell(&format!("{at}.{field}"), "int", &v.to_string()));
        }
        out.push_str("</tr>");
        bars.push([a.correct, a.wrong, a.unnecessary, a.missed]);
    }
    out.push_str("</tbody></table></div>");
    out.push_str(&svg::outcome_bars(names, &bars));
    out.push_str("</section>\n");
}

fn types(out: &mut String, r: &Report, names: &[String]) {
    out.push_str(r#"<section id="types"><h2>Error types</h2>"#);
    for (k, t) in r.types.iter().enumerate() {
        let title = match t.scheme.as_str() {
            "gold" => format!(
                "By gold category ({})",
                esc(r.corpus.gold.as_deref().unwrap_or("gold"))
            ),
            _ => "By operation (ERRANT)".to_string(),
        };
        let _ = write!(
            out,
            r#"<h3>{title}</h3><p>{}. F per type and system (hover for TP, FP, FN; the baseline is black in the chart).</p><div class="scroll"><table class="heat"><thead><tr><th>type</th>"#,
            esc(&t.description)
        );
        for n in names {
            let _ = write!(out, "<th>{}</th>", esc(n));
        }
        out.push_str("</tr></thead><tbody>");
        for (i, ty) in t.types.iter().enumerate() {
            let _ = write!(out, "<tr><th>{}</th>", esc(ty));
            for (s, scores) in t.systems.iter().enumerate() {
                let v = &scores[i];
                let _ = write!(
                    out,
                    r#"<td data-json="types.{k}.systems.{s}.{i}.f" data-fmt="pct" title="TP {} FP {} FN {}" style="--h:{:.2}">{}</td>"#,
                    v.tp,
                    v.fp,
                    v.fn_,
                    if v.f.is_finite() { v.f } else { 0.0 },
                    pct(v.f)
                );
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
        let f: Vec<Vec<f64>> = t
            .systems
            .iter()
            .map(|s| s.iter().map(|v| v.f).collect())
            .collect();
        out.push_str(&svg::dot_plot(&t.types, names, &f, r.baseline));
        out.push_str(&svg::legend(names, r.baseline));
        out.push_str("<details><summary>TP, FP, FN, P, R, F per system</summary>");
        for (s, scores) in t.systems.iter().enumerate() {
            let _ = write!(
                out,
                r#"<h4>{}</h4><table><thead><tr><th>type</th><th>TP</th><th>FP</th><th>FN</th><th>P</th><th>R</th><th>F</th></tr></thead><tbody>"#,
                esc(&names[s])
            );
            for (i, v) in scores.iter().enumerate() {
                let at = format!("types.{k}.systems.{s}.{i}");
                let _ = write!(out, "<tr><th>{}</th>", esc(&t.types[i]));
                out.push_str(&cell(&format!("{at}.tp"), "int", &v.tp.to_string()));
                out.push_str(&cell(&format!("{at}.fp"), "int", &v.fp.to_string()));
                out.push_str(&cell(&format!("{at}.fn"), "int", &v.fn_.to_string()));
                out.push_str(&cell(&format!("{at}.precision"), "pct", &pct(v.precision)));
                out.push_str(&cell(&format!("{at}.recall"), "pct", &pct(v.recall)));
                out.push_str(&cell(&format!("{at}.f"), "pct", &pct(v.f)));
                out.push_str("</tr>");
            }
            out.push_str("</tbody></table>");
        }
        out.push_str("</details>");
    }
    out.push_str("</section>\n");
}

fn distributions(out: &mut String, r: &Report, names: &[String]) {
    out.push_str(r#"<section id="distributions"><h2>Sentence scores</h2><p>How many sentences score in each tenth of the scale (×100), and the mean sentence score.</p>"#);
    for (k, d) in r.distributions.iter().enumerate() {
        let undefined = d.undefined.iter().any(|&u| u > 0);
        let _ = write!(
            out,
            r#"<h3>{}</h3><div class="scroll"><table class="heat"><thead><tr><th>system</th>"#,
            esc(&d.metric)
        );
        for b in &d.bins {
            let _ = write!(out, "<th>{}</th>", esc(b));
        }
        out.push_str("<th>mean</th>");
        if undefined {
            out.push_str("<th>undefined</th>");
        }
        out.push_str("</tr></thead><tbody>");
        for (s, bins) in d.systems.iter().enumerate() {
            let most = bins.iter().copied().max().unwrap_or(0).max(1) as f64;
            let _ = write!(out, "<tr><th>{}</th>", esc(&names[s]));
            for (b, &c) in bins.iter().enumerate() {
                let _ = write!(
                    out,
                    r#"<td data-json="distributions.{k}.systems.{s}.{b}" data-fmt="int" style="--h:{:.2}">{c}</td>"#,
                    c as f64 / most
                );
            }
            out.push_str(&cell(
                &format!("distributions.{k}.mean.{s}"),
                "pct",
                &pct(d.mean[s]),
            ));
            if undefined {
                out.push_str(&cell(
                    &format!("distributions.{k}.undefined.{s}"),
                    "int",
                    &d.undefined[s].to_string(),
                ));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</section>\n");
}

fn lengths(out: &mut String, r: &Report, names: &[String]) {
    let l = &r.lengths;
    out.push_str(r#"<section id="lengths"><h2>Length buckets</h2><p>Sentences grouped by the length of their source in tokens (compare-mt's bucketed analysis); each bucket's corpus score per metric, as if the bucket were the corpus.</p><div class="scroll"><table><thead><tr><th>source tokens</th>"#);
    for b in &l.buckets {
        let _ = write!(out, "<th>{}</th>", esc(&b.label));
    }
    out.push_str("</tr></thead><tbody><tr><th>sentences</th>");
    for (i, b) in l.buckets.iter().enumerate() {
        out.push_str(&cell(
            &format!("lengths.buckets.{i}.sentences"),
            "int",
            &b.sentences.to_string(),
        ));
    }
    out.push_str("</tr></tbody></table></div>");
    let labels: Vec<String> = l.buckets.iter().map(|b| b.label.clone()).collect();
    for (k, m) in l.scores.iter().enumerate() {
        let _ = write!(
            out,
            r#"<h3>{}</h3><div class="pair"><div class="scroll"><table><thead><tr><th>system</th>"#,
            esc(&m.metric)
        );
        for b in &labels {
            let _ = write!(out, "<th>{}</th>", esc(b));
        }
        out.push_str("</tr></thead><tbody>");
        for (s, row) in m.systems.iter().enumerate() {
            let _ = write!(out, "<tr><th>{}</th>", esc(&names[s]));
            for (b, v) in row.iter().enumerate() {
                out.push_str(&cell(
                    &format!("lengths.scores.{k}.systems.{s}.{b}"),
                    "pct",
                    &v.map_or_else(|| "–".to_string(), pct),
                ));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
        out.push_str("<div>");
        out.push_str(&svg::lines(&labels, names, &m.systems, r.baseline));
        out.push_str(&svg::legend(names, r.baseline));
        out.push_str("</div></div>");
    }
    out.push_str("</section>\n");
}

fn browser(out: &mut String, names: &[String]) {
    let _ = write!(
        out,
        r#"<section id="sentences"><h2>Sentences</h2>
<p>Each system's output against the source, its edits coloured by outcome against the reference ERRANT chose: <span class="key o0">correct</span> <span class="key o1">wrong correction</span> <span class="key o2">unnecessary</span> <span class="key miss">missed</span> (what the reference does there). With GREEN regions on, each output's unigrams against the reference GREEN chose: <span class="g-oi">over-inserted</span>, <span class="g-ud">under-deleted</span>, <del class="o3 g-od">over-deleted</del>, and the reference's tokens not inserted (under-inserted) after the text. Link to a sentence with <code>#s</code> and its number.</p>
<noscript><p class="warning">The sentence browser needs JavaScript; the sections above do not.</p></noscript>
<div id="controls" hidden>
<label>search <input id="q" type="search" placeholder="text in any row"></label>
<label>type <select id="type"></select></label>
<label>system <select id="sys"></select></label>
<label>outcome <select id="outcome"><option value="">any</option><option value="0">has a correct edit</option><option value="1">has a wrong correction</option><option value="2">has an unnecessary edit</option><option value="m">misses an edit</option></select></label>
<label><input id="disagree" type="checkbox"> systems disagree</label>
<label>score difference ≥ <input id="diff" type="number" min="0" max="100" step="1" value="0"> in <select id="metric"></select></label>
<label>order <select id="sort"><option value="corpus">corpus</option><option value="diff">largest difference first</option></select></label>
<label><input id="group" type="checkbox" checked> one row per distinct output</label>
<label><input id="regions" type="checkbox"> GREEN regions</label>
<label>per page <select id="size"><option>10</option><option selected>20</option><option>50</option><option>100</option></select></label>
</div>
<details id="shown" hidden><summary>systems shown</summary><div id="shown-list"></div></details>
<p id="status" class="status"></p>
<div id="pager-top" class="pager"></div>
<div id="list"></div>
<div id="pager-bottom" class="pager"></div>
<details id="totals-box"><summary>Outcome totals, counted by the browser from the sentence data</summary><table id="totals"><thead><tr><th>system</th><th>correct</th><th>wrong</th><th>unnecessary</th><th>missed</th><th>covered</th></tr></thead><tbody>"#
    );
    for (s, name) in names.iter().enumerate() {
        let _ = write!(out, "<tr><th>{}</th>", esc(name));
        for field in ["correct", "wrong", "unnecessary", "missed", "covered"] {
            let _ = write!(
                out,
                r#"<td data-json="outcomes.systems.{s}.{field}" data-fmt="int" data-browser="{s} {field}"></td>"#
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></details></section>\n");
}
