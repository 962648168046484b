//! The SVG bar chart of the time ratios written by `compare` (`target/ndlearn-bench/ratios.svg`).

use std::path::Path;

use plotters::prelude::*;

/// Draws one horizontal bar per `(label, ratio)` on a log₂ axis centred on 1 (no difference):
/// green bars (ratio below 1) are cases where ndlearn is faster, red ones where it is slower.
pub fn ratio_bars(path: &Path, bars: &[(String, f64)]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let height = 60 + 18 * bars.len() as u32;
    let root = SVGBackend::new(path, (900, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let logs: Vec<f64> = bars.iter().map(|(_, r)| r.log2()).collect();
    let reach = logs
        .iter()
        .fold(1.0_f64, |m, v| m.max(v.abs()))
        .ceil()
        .min(10.0);
    let n = bars.len();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "time ratio ndlearn / reference (log2; left of 0 = ndlearn faster)",
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(260)
        .build_cartesian_2d(-reach..reach, 0.0..n as f64)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n.max(1))
        .y_label_formatter(&|y| {
            let i = y.floor() as usize;
            bars.get(n.saturating_sub(i + 1))
                .map_or_else(String::new, |(l, _)| l.clone())
        })
        .x_label_formatter(&|x| format!("{:.2}×", 2f64.powf(*x)))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(logs.iter().enumerate().map(|(i, &v)| {
            let y0 = (n - i - 1) as f64 + 0.15;
            let colour = if v <= 0.0 {
                GREEN.mix(0.7)
            } else {
                RED.mix(0.7)
            };
            let v = v.clamp(-reach, reach);
            Rectangle::new(
                [(0.0_f64.min(v), y0), (0.0_f64.max(v), y0 + 0.7)],
                colour.filled(),
            )
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (0.0, n as f64)],
            BLACK.stroke_width(1),
        )))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_an_svg_with_one_bar_per_case() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let path = dir.path().join("r.svg");
        ratio_bars(
            &path,
            &[
                ("ols / diabetes".into(), 0.5),
                ("lasso / diabetes".into(), 2.0),
            ],
        )?;
        let svg = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("ols / diabetes") && svg.contains("lasso / diabetes"));
        assert!(
            svg.matches("<rect").count() >= 3,
            "two bars and the background"
        );
        Ok(())
    }
}
