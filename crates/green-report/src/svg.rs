//! The page's small charts as inline SVG, drawn from the model's numbers: no script and no
//! library, so they show even where scripts are off and print as they look.

use std::fmt::Write as _;

use crate::html::esc;

/// Which colour is which system, under a chart (HTML).
pub fn legend(names: &[String], baseline: usize) -> String {
    let mut out = String::from(r#"<p class="legend">"#);
    for (s, name) in names.iter().enumerate() {
        let _ = write!(
            out,
            r#"<span><i style="background:{}"></i>{}</span> "#,
            colour(s, names.len(), baseline),
            esc(name)
        );
    }
    out + "</p>"
}

/// A system's colour: the baseline black, the others spread around the hue circle.
pub fn colour(system: usize, systems: usize, baseline: usize) -> String {
    if system == baseline {
        return "#111".into();
    }
    let hue = (system * 360 / systems.max(1) + 200) % 360;
    format!("hsl({hue},65%,42%)")
}

const OUTCOMES: [(&str, &str); 4] = [
    ("correct", "var(--correct)"),
    ("wrong correction", "var(--wrong)"),
    ("unnecessary", "var(--unnecessary)"),
    ("missed", "var(--missed)"),
];

/// One stacked bar per system: correct, wrong, unnecessary and missed edits.
pub fn outcome_bars(names: &[String], counts: &[[u64; 4]]) -> String {
    let (label, width, row) = (150.0, 520.0, 22.0);
    let most = counts
        .iter()
        .map(|c| c.iter().sum::<u64>())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let height = row * names.len() as f64 + 24.0;
    let mut out = format!(
        r#"<svg class="chart" role="img" aria-label="edit outcomes per system" viewBox="0 0 {} {height}" width="{}" height="{height}">"#,
        label + width + 10.0,
        label + width + 10.0
    );
    for (i, (name, c)) in names.iter().zip(counts).enumerate() {
        let y = row * i as f64;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            label - 6.0,
            y + 15.0,
            esc(name)
        );
        let mut x = label;
        for (k, &(what, fill)) in OUTCOMES.iter().enumerate() {
            let w = c[k] as f64 / most * width;
            let _ = write!(
                out,
                r#"<rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="{}" style="fill:{fill}"><title>{}: {} {what}</title></rect>"#,
                y + 3.0,
                row - 6.0,
                esc(name),
                c[k]
            );
            x += w;
        }
    }
    let _ = write!(
        out,
        r#"<text x="{label}" y="{}" class="axis">0</text><text x="{}" y="{}" class="axis" text-anchor="end">{} edits</text></svg>"#,
        height - 6.0,
        label + width,
        height - 6.0,
        most
    );
    out
}

/// F per type (rows) as one dot per system on a 0–100 axis.
pub fn dot_plot(types: &[String], names: &[String], f: &[Vec<f64>], baseline: usize) -> String {
    let (label, width, row) = (110.0, 520.0, 20.0);
    let height = row * types.len() as f64 + 26.0;
    let mut out = format!(
        r#"<svg class="chart" role="img" aria-label="F per error type and system" viewBox="0 0 {} {height}" width="{}" height="{height}">"#,
        label + width + 20.0,
        label + width + 20.0
    );
    for tick in (0..=100).step_by(25) {
        let x = label + width * f64::from(tick) / 100.0;
        let _ = write!(
            out,
            r#"<line x1="{x}" x2="{x}" y1="0" y2="{}" class="grid"/><text x="{x}" y="{}" class="axis" text-anchor="middle">{tick}</text>"#,
            height - 20.0,
            height - 6.0
        );
    }
    for (t, name) in types.iter().enumerate() {
        let y = row * t as f64 + row / 2.0;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            label - 8.0,
            y + 4.0,
            esc(name)
        );
        // The baseline last, on top.
        let order = (0..names.len())
            .filter(|&s| s != baseline)
            .chain([baseline]);
        for s in order {
            let v = f[s][t];
            if !v.is_finite() {
                continue;
            }
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{y}" r="{}" style="fill:{}"><title>{} {}: F {:.2}</title></circle>"#,
                label + width * v,
                if s == baseline { 4.5 } else { 3.5 },
                colour(s, names.len(), baseline),
                esc(&names[s]),
                esc(name),
                v * 100.0
            );
        }
    }
    out + "</svg>"
}

/// One line per system over the length buckets (scores 0–100).
pub fn lines(
    buckets: &[String],
    names: &[String],
    v: &[Vec<Option<f64>>],
    baseline: usize,
) -> String {
    let (left, width, height, bottom, top) = (40.0, 560.0, 200.0, 24.0, 8.0);
    let step = width / buckets.len().max(1) as f64;
    let x = |b: usize| left + step * (b as f64 + 0.5);
    let y = |s: f64| top + (height - top) * (1.0 - s);
    let mut out = format!(
        r#"<svg class="chart" role="img" aria-label="score per length bucket and system" viewBox="0 0 {} {}" width="{}" height="{}">"#,
        left + width + 10.0,
        height + bottom,
        left + width + 10.0,
        height + bottom
    );
    for tick in (0..=100).step_by(25) {
        let ty = y(f64::from(tick) / 100.0);
        let _ = write!(
            out,
            r#"<line x1="{left}" x2="{}" y1="{ty}" y2="{ty}" class="grid"/><text x="{}" y="{}" class="axis" text-anchor="end">{tick}</text>"#,
            left + width,
            left - 4.0,
            ty + 4.0
        );
    }
    for (b, label) in buckets.iter().enumerate() {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{}" class="axis" text-anchor="middle">{}</text>"#,
            x(b),
            height + 16.0,
            esc(label)
        );
    }
    let order = (0..names.len())
        .filter(|&s| s != baseline)
        .chain([baseline]);
    for s in order {
        let c = colour(s, names.len(), baseline);
        let points: Vec<String> = v[s]
            .iter()
            .enumerate()
            .filter_map(|(b, p)| p.map(|p| format!("{:.1},{:.1}", x(b), y(p))))
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" style="fill:none;stroke:{c};stroke-width:{}"/>"#,
            points.join(" "),
            if s == baseline { 2.5 } else { 1.2 }
        );
        for (b, p) in v[s].iter().enumerate() {
            if let Some(p) = p {
                let _ = write!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" style="fill:{c}"><title>{} {}: {:.2}</title></circle>"#,
                    x(b),
                    y(*p),
                    esc(&names[s]),
                    esc(&buckets[b]),
                    p * 100.0
                );
            }
        }
    }
    out + "</svg>"
}
