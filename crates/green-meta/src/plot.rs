//! Scatter plots of metric against human system scores, one per dataset view, as SVG.
//!
//! plotters' SVG backend writes text as `<text>` elements, so no font file is needed at
//! build or run time (the bitmap backends would need one). Names are placed greedily so that
//! no two labels (and no label and point) overlap where any of eight positions around the
//! point is free; the label box is estimated from the name's length.

use plotters::prelude::*;

use crate::Error;

/// The SVG of `metric` (x) against `human` (y) with each point labelled by its system
/// name; `name` names the plot in errors.
pub fn scatter(
    name: &str,
    title: &str,
    systems: &[String],
    metric: &[f64],
    human: &[f64],
    x_label: &str,
    y_label: &str,
) -> Result<String, Error> {
    let err = |e: String| Error::Input(format!("cannot draw {name}: {e}"));
    if systems.len() != metric.len() || systems.len() != human.len() || systems.is_empty() {
        return Err(err(
            "systems, metric and human scores must have the same non-zero length".into(),
        ));
    }
    let range = |v: &[f64]| {
        let (lo, hi) = v
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let pad = if hi > lo { (hi - lo) * 0.08 } else { 0.01 };
        (lo - pad)..(hi + pad)
    };
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (720, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(range(metric), range(human))
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let pixels: Vec<(i32, i32)> = (0..systems.len())
        .map(|i| chart.backend_coord(&(metric[i], human[i])))
        .collect();
    let offsets = place_labels(&pixels, systems);
    chart
        .draw_series((0..systems.len()).map(|i| {
            EmptyElement::at((metric[i], human[i]))
                + Circle::new((0, 0), 4, BLUE.filled())
                + Text::new(systems[i].clone(), offsets[i], ("sans-serif", FONT))
        }))
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    drop(chart);
    drop(root);
    Ok(svg)
}

/// Label font size in pixels, and the estimated width of one character.
const FONT: i32 = 13;
const CHAR_WIDTH: i32 = 7;

/// A label box: left, top, right, bottom in pixels.
type Rect = (i32, i32, i32, i32);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Offsets (from each point, top-left of the text) such that labels avoid each other and
/// the points: the first of eight candidate positions that is free, else the one with the
/// fewest overlaps. Points are placed left to right, then top to bottom.
pub fn place_labels(points: &[(i32, i32)], names: &[String]) -> Vec<(i32, i32)> {
    let dots: Vec<Rect> = points
        .iter()
        .map(|&(x, y)| (x - 4, y - 4, x + 4, y + 4))
        .collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| (points[i].0, points[i].1));
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = vec![(6, -FONT); points.len()];
    for i in order {
        let (x, y) = points[i];
        let w = CHAR_WIDTH * names[i].chars().count() as i32;
        let candidates = [
            (6, -FONT),
            (6, 2),
            (-w - 6, -FONT),
            (-w - 6, 2),
            (-w / 2, -FONT - 6),
            (-w / 2, 6),
            (8, -FONT / 2),
            (-w - 8, -FONT / 2),
        ];
        let cost = |&(dx, dy): &(i32, i32)| {
            let r = (x + dx, y + dy, x + dx + w, y + dy + FONT);
            placed
                .iter()
                .chain(&dots)
                .filter(|&&o| overlaps(r, o))
                .count()
        };
        let best = candidates
            .iter()
            .min_by_key(|c| cost(c))
            .copied()
            .unwrap_or((6, -FONT));
        placed.push((x + best.0, y + best.1, x + best.0 + w, y + best.1 + FONT));
        out[i] = best;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_svg_with_names() {
        let names = vec!["AMU".to_string(), "CAMB".to_string()];
        let svg = scatter(
            "p.svg",
            "t",
            &names,
            &[0.5, 0.6],
            &[0.4, 0.7],
            "GREEN",
            "EW",
        )
        .unwrap();
        assert!(svg.contains("<svg") && svg.contains("AMU") && svg.contains("CAMB"));
        let err = scatter("p.svg", "t", &names, &[0.5], &[0.4, 0.7], "x", "y").unwrap_err();
        assert!(err.to_string().contains("cannot draw p.svg"), "{err}");
    }

    #[test]
    fn labels_of_close_points_do_not_overlap() {
        // Three points a few pixels apart: the default placement would stack their labels.
        let points = [(100, 100), (104, 103), (102, 110)];
        let names: Vec<String> = ["GECToR-BERT", "GECToR-ens", "BART"]
            .map(String::from)
            .to_vec();
        let offsets = place_labels(&points, &names);
        let rects: Vec<Rect> = points
            .iter()
            .zip(&offsets)
            .zip(&names)
            .map(|((&(x, y), &(dx, dy)), n)| {
                let w = CHAR_WIDTH * n.chars().count() as i32;
                (x + dx, y + dy, x + dx + w, y + dy + FONT)
            })
            .collect();
        for i in 0..3 {
            for j in i + 1..3 {
                assert!(!overlaps(rects[i], rects[j]), "{rects:?}");
            }
        }
    }
}
