//! Scatter plots of metric against human system scores, one per dataset view, as SVG.
//!
//! plotters' SVG backend writes text as `<text>` elements, so no font file is needed at
//! build or run time (the bitmap backends would need one).

use std::path::Path;

use plotters::prelude::*;

use crate::Error;

/// Draw `metric` (x) against `human` (y) with each point labelled by its system name.
pub fn scatter(
    path: &Path,
    title: &str,
    systems: &[String],
    metric: &[f64],
    human: &[f64],
    x_label: &str,
    y_label: &str,
) -> Result<(), Error> {
    let err = |e: String| Error::Input(format!("cannot draw {}: {e}", path.display()));
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
    let root = SVGBackend::new(path, (720, 540)).into_drawing_area();
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
    let points: Vec<(f64, f64, &str)> = systems
        .iter()
        .enumerate()
        .map(|(i, s)| (metric[i], human[i], s.as_str()))
        .collect();
    chart
        .draw_series(points.iter().map(|&(x, y, name)| {
            EmptyElement::at((x, y))
                + Circle::new((0, 0), 4, BLUE.filled())
                + Text::new(name.to_string(), (6, -12), ("sans-serif", 13))
        }))
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_svg_with_names() {
        let dir = std::env::temp_dir().join(format!("green-meta-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.svg");
        let names = vec!["AMU".to_string(), "CAMB".to_string()];
        scatter(&path, "t", &names, &[0.5, 0.6], &[0.4, 0.7], "GREEN", "EW").unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("<svg") && svg.contains("AMU") && svg.contains("CAMB"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(scatter(&path, "t", &names, &[0.5], &[0.4, 0.7], "x", "y").is_err());
    }
}
