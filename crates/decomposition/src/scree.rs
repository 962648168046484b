//! Scree plot of a fitted [`crate::Pca`] as SVG (feature `plot`, plotters' SVG backend): the
//! explained-variance ratio of every kept component as bars and the cumulative ratio as a line
//! with markers, with an optional dashed horizontal line at the course notes' threshold `t` (the
//! smallest `k` whose cumulative ratio exceeds `t` is where the line crosses it; catalog CL-161).

use plotters::prelude::*;

use ndlearn_core::{Error, Float, Result};

use crate::FittedPca;

fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Io {
        path: "<svg>".into(),
        source: std::io::Error::other(format!("plotting failed: {e}")),
    }
}

impl<F: Float> FittedPca<F> {
    /// The scree plot as an SVG document of `width × height` pixels; `threshold` draws the
    /// variance-fraction line `t` (in `(0, 1)`).
    ///
    /// ```
    /// use ndlearn_decomposition::Pca;
    /// use ndlearn_core::FitUnsupervised;
    /// use ndlearn_core::ndarray::array;
    ///
    /// let x = array![[2.5f64, 2.4, 0.5], [0.5, 0.7, 0.1], [2.2, 2.9, 0.4], [1.9, 2.2, 0.3],
    ///                [3.1, 3.0, 0.9], [2.3, 2.7, 0.2]];
    /// let svg = Pca::default().fit(&x)?.scree_svg(640, 400, Some(0.95))?;
    /// assert!(svg.starts_with("<svg") && svg.contains("cumulative"));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a size under 100 × 100 pixels or a threshold outside
    /// `(0, 1)`; [`Error::Io`] if drawing fails.
    pub fn scree_svg(&self, width: u32, height: u32, threshold: Option<f64>) -> Result<String> {
        if width < 100 || height < 100 {
            return Err(Error::invalid_param(
                "size",
                format!("a plot needs at least 100 × 100 pixels, got {width} × {height}"),
            ));
        }
        if let Some(t) = threshold
            && !(t > 0.0 && t < 1.0)
        {
            return Err(Error::invalid_param(
                "threshold",
                format!("must lie in (0, 1), got {t}"),
            ));
        }
        let ratio: Vec<f64> = self
            .explained_variance_ratio()
            .iter()
            .map(|v| v.to_f64_lossless())
            .collect();
        let k = ratio.len();
        let mut cumulative = Vec::with_capacity(k);
        let mut acc = 0.0;
        for r in &ratio {
            acc += r;
            cumulative.push(acc);
        }
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(plot_error)?;
            let mut chart = ChartBuilder::on(&root)
                .caption("Scree plot", ("sans-serif", 22))
                .margin(15)
                .x_label_area_size(45)
                .y_label_area_size(60)
                .build_cartesian_2d(0.5f64..k as f64 + 0.5, 0.0f64..1.05)
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .x_desc("component")
                .y_desc("explained variance ratio")
                .draw()
                .map_err(plot_error)?;
            let bar = RGBColor(31, 119, 180);
            let line = RGBColor(214, 39, 40);
            chart
                .draw_series(ratio.iter().enumerate().map(|(i, &r)| {
                    let x = i as f64 + 1.0;
                    Rectangle::new([(x - 0.35, 0.0), (x + 0.35, r)], bar.mix(0.8).filled())
                }))
                .map_err(plot_error)?
                .label("per component")
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], bar.filled()));
            let pts: Vec<(f64, f64)> = cumulative
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 + 1.0, c))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), line.stroke_width(2)))
                .map_err(plot_error)?
                .label("cumulative")
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], line.stroke_width(2))
                });
            chart
                .draw_series(PointSeries::of_element(
                    pts,
                    3,
                    line.filled(),
                    &|c, r, s| Circle::new(c, r, s),
                ))
                .map_err(plot_error)?;
            if let Some(t) = threshold {
                chart
                    .draw_series(DashedLineSeries::new(
                        vec![(0.5, t), (k as f64 + 0.5, t)],
                        6,
                        4,
                        BLACK.stroke_width(1),
                    ))
                    .map_err(plot_error)?
                    .label(format!("threshold t = {t}"))
                    .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::MiddleRight)
                .draw()
                .map_err(plot_error)?;
            root.present().map_err(plot_error)?;
        }
        Ok(svg)
    }
}
