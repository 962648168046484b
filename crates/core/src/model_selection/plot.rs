//! SVG plots of learning and validation curves (feature `plot`, plotters' SVG backend).
//!
//! Each plot has two series, "train" and "test": the mean score per point as a line with
//! markers and a translucent mean ± one standard deviation band, axis labels, a title and a
//! legend. Text is emitted as SVG `<text>` (no font files needed).

use std::path::Path;

use ndarray::Array1;
use plotters::prelude::*;

use super::curves::{LearningCurve, ValidationCurve};
use crate::{Error, Result};

/// Labels and size of a curve plot.
///
/// | field | learning-curve default | validation-curve default |
/// |---|---|---|
/// | `title` | "Learning curve" | "Validation curve" |
/// | `x_label` | "training examples" | "parameter value" |
/// | `y_label` | "score" | "score" |
/// | `width`, `height` | 800 × 500 | 800 × 500 |
/// | `log_x` | `false` | `false` (set it for scales such as λ) |
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PlotOptions {
    /// Title above the chart.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Plot `log10(x)` on the horizontal axis (all x must be positive).
    pub log_x: bool,
}

impl PlotOptions {
    /// Options with the given title and axis labels, 800 × 500, linear axes.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Self {
        Self {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            width: 800,
            height: 500,
            log_x: false,
        }
    }

    crate::setters! {
        /// Sets `log_x`.
        log_x: bool,
    }

    /// Sets the size in pixels.
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.width = width;
        self.height = height;
        self
    }
}

fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Io {
        path: "<svg>".into(),
        source: std::io::Error::other(format!("plotting failed: {e}")),
    }
}

/// One series: name, colour, means and standard deviations.
struct Series<'a> {
    name: &'a str,
    color: RGBColor,
    mean: Array1<f64>,
    std: Array1<f64>,
}

fn render(xs: &[f64], series: &[Series<'_>], opts: &PlotOptions) -> Result<String> {
    if opts.width < 100 || opts.height < 100 {
        return Err(Error::invalid_param(
            "size",
            format!(
                "a plot needs at least 100 × 100 pixels, got {} × {}",
                opts.width, opts.height
            ),
        ));
    }
    if opts.log_x {
        if let Some(bad) = xs.iter().find(|&&v| v.is_nan() || v <= 0.0) {
            return Err(Error::invalid_param(
                "log_x",
                format!("a logarithmic axis needs positive x values, got {bad}"),
            ));
        }
    }
    let xs: Vec<f64> = xs
        .iter()
        .map(|&v| if opts.log_x { v.log10() } else { v })
        .collect();
    let finite = |v: &f64| v.is_finite();
    let (mut x_lo, mut x_hi) = xs
        .iter()
        .copied()
        .filter(finite)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let (mut y_lo, mut y_hi) = series
        .iter()
        .flat_map(|s| {
            s.mean
                .iter()
                .zip(&s.std)
                .flat_map(|(m, d)| [m - d, m + d])
                .collect::<Vec<_>>()
        })
        .filter(finite)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !(x_lo.is_finite() && y_lo.is_finite()) {
        return Err(Error::invalid_param("scores", "nothing finite to plot"));
    }
    let pad = |lo: &mut f64, hi: &mut f64| {
        let span = (*hi - *lo).abs();
        let p = if span > 0.0 {
            0.05 * span
        } else {
            0.5 * lo.abs().max(1.0)
        };
        *lo -= p;
        *hi += p;
    };
    pad(&mut x_lo, &mut x_hi);
    pad(&mut y_lo, &mut y_hi);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (opts.width, opts.height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&opts.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(plot_error)?;
        let x_desc = if opts.log_x {
            format!("log10({})", opts.x_label)
        } else {
            opts.x_label.clone()
        };
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(opts.y_label.as_str())
            .draw()
            .map_err(plot_error)?;
        for s in series {
            let color = s.color;
            let pts: Vec<(f64, f64)> = xs
                .iter()
                .zip(&s.mean)
                .filter(|(x, m)| x.is_finite() && m.is_finite())
                .map(|(&x, &m)| (x, m))
                .collect();
            let mut band: Vec<(f64, f64)> = xs
                .iter()
                .zip(s.mean.iter().zip(&s.std))
                .filter(|(x, (m, d))| x.is_finite() && (*m + *d).is_finite())
                .map(|(&x, (m, d))| (x, m + d))
                .collect();
            let lower: Vec<(f64, f64)> = xs
                .iter()
                .zip(s.mean.iter().zip(&s.std))
                .filter(|(x, (m, d))| x.is_finite() && (*m - *d).is_finite())
                .map(|(&x, (m, d))| (x, m - d))
                .rev()
                .collect();
            band.extend(lower);
            chart
                .draw_series(std::iter::once(Polygon::new(
                    band,
                    color.mix(0.18).filled(),
                )))
                .map_err(plot_error)?;
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(plot_error)?
                .label(s.name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(PointSeries::of_element(
                    pts,
                    3,
                    color.filled(),
                    &|c, r, st| Circle::new(c, r, st),
                ))
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(legend_position(&xs, series, y_lo, y_hi))
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// Lower right, unless the curves end in the lower half of the chart (then upper right).
fn legend_position(xs: &[f64], series: &[Series<'_>], y_lo: f64, y_hi: f64) -> SeriesLabelPosition {
    let last: Vec<f64> = series
        .iter()
        .filter_map(|s| {
            xs.iter()
                .zip(&s.mean)
                .filter(|(x, m)| x.is_finite() && m.is_finite())
                .max_by(|a, b| a.0.total_cmp(b.0))
                .map(|(_, m)| *m)
        })
        .collect();
    let mid = 0.5 * (y_lo + y_hi);
    if !last.is_empty() && last.iter().sum::<f64>() / (last.len() as f64) < mid {
        SeriesLabelPosition::UpperRight
    } else {
        SeriesLabelPosition::LowerRight
    }
}

fn write_file(path: &Path, svg: &str) -> Result<()> {
    std::fs::write(path, svg).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}

const TRAIN_COLOR: RGBColor = RGBColor(31, 119, 180);
const TEST_COLOR: RGBColor = RGBColor(214, 39, 40);

impl LearningCurve {
    /// Default labels of a learning-curve plot.
    pub fn default_plot_options() -> PlotOptions {
        PlotOptions::new("Learning curve", "training examples", "score")
    }

    /// The curve as an SVG document: mean train and test scores against the training size,
    /// with mean ± std bands and a legend.
    ///
    /// ```
    /// use ndlearn_core::model_selection::LearningCurve;
    /// use ndlearn_core::ndarray::array;
    ///
    /// let lc = LearningCurve {
    ///     train_sizes: vec![10, 20, 40],
    ///     train_scores: array![[1.0, 0.9], [0.95, 0.9], [0.92, 0.9]],
    ///     test_scores: array![[0.6, 0.7], [0.75, 0.8], [0.85, 0.86]],
    ///     fit_times: array![[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
    /// };
    /// let svg = lc.to_svg_string(&LearningCurve::default_plot_options())?;
    /// assert!(svg.starts_with("<svg") && svg.contains("Learning curve"));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    pub fn to_svg_string(&self, opts: &PlotOptions) -> Result<String> {
        let xs: Vec<f64> = self.train_sizes.iter().map(|&n| n as f64).collect();
        render(
            &xs,
            &[
                Series {
                    name: "train",
                    color: TRAIN_COLOR,
                    mean: self.mean_train_scores(),
                    std: self.std_train_scores(),
                },
                Series {
                    name: "test",
                    color: TEST_COLOR,
                    mean: self.mean_test_scores(),
                    std: self.std_test_scores(),
                },
            ],
            opts,
        )
    }

    /// Writes [`to_svg_string`](Self::to_svg_string) to `path`.
    pub fn to_svg(&self, path: impl AsRef<Path>, opts: &PlotOptions) -> Result<()> {
        write_file(path.as_ref(), &self.to_svg_string(opts)?)
    }
}

impl ValidationCurve {
    /// Default labels of a validation-curve plot.
    pub fn default_plot_options() -> PlotOptions {
        PlotOptions::new("Validation curve", "parameter value", "score")
    }

    /// The curve as an SVG document: mean train and test scores against the parameter value,
    /// with mean ± std bands and a legend (`log_x` for scale parameters).
    pub fn to_svg_string(&self, opts: &PlotOptions) -> Result<String> {
        render(
            &self.param_values,
            &[
                Series {
                    name: "train",
                    color: TRAIN_COLOR,
                    mean: self.mean_train_scores(),
                    std: self.std_train_scores(),
                },
                Series {
                    name: "test",
                    color: TEST_COLOR,
                    mean: self.mean_test_scores(),
                    std: self.std_test_scores(),
                },
            ],
            opts,
        )
    }

    /// Writes [`to_svg_string`](Self::to_svg_string) to `path`.
    pub fn to_svg(&self, path: impl AsRef<Path>, opts: &PlotOptions) -> Result<()> {
        write_file(path.as_ref(), &self.to_svg_string(opts)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn curve() -> LearningCurve {
        LearningCurve {
            train_sizes: vec![10, 20, 40, 80],
            train_scores: array![[1.0, 0.9], [0.95, 0.91], [0.93, 0.9], [0.92, 0.91]],
            test_scores: array![[0.5, 0.7], [0.7, 0.74], [0.8, 0.84], [0.86, 0.88]],
            fit_times: Array2::zeros((4, 2)),
        }
    }

    use ndarray::Array2;

    #[test]
    fn svg_has_two_series_bands_labels_and_legend() {
        let opts = LearningCurve::default_plot_options();
        let svg = curve().to_svg_string(&opts).expect("plots");
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        // Per series: the mean line and its legend swatch are polylines in the series colour
        // (axes and ticks are black polylines), the band a polygon.
        let lines = |color: &str| {
            svg.lines()
                .filter(|l| {
                    l.starts_with("<polyline") && l.contains(&format!("stroke=\"{color}\""))
                })
                .count()
        };
        assert_eq!(lines("#1F77B4"), 2, "{svg}");
        assert_eq!(lines("#D62728"), 2, "{svg}");
        assert_eq!(svg.matches("<polygon").count(), 2);
        // 4 markers per series.
        assert_eq!(svg.matches("<circle").count(), 8);
        // Title, axis labels and legend entries as SVG text elements.
        for text in [
            "Learning curve",
            "training examples",
            "score",
            "train",
            "test",
        ] {
            assert!(
                svg.contains(&format!("\n{text}\n</text>")),
                "missing {text}"
            );
        }
    }

    #[test]
    fn svg_file_and_errors() {
        let dir = std::env::temp_dir().join(format!("ndlearn_plot_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("lc.svg");
        curve()
            .to_svg(&path, &LearningCurve::default_plot_options())
            .expect("writes");
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.contains("<svg"));
        std::fs::remove_dir_all(&dir).ok();
        let vc = ValidationCurve {
            param_values: vec![0.0, 1.0],
            train_scores: array![[1.0], [0.5]],
            test_scores: array![[0.2], [0.4]],
        };
        let log = ValidationCurve::default_plot_options().log_x(true);
        assert!(vc.to_svg_string(&log).is_err());
        assert!(
            vc.to_svg_string(&ValidationCurve::default_plot_options())
                .is_ok()
        );
        let tiny = ValidationCurve::default_plot_options().size(10, 10);
        assert!(vc.to_svg_string(&tiny).is_err());
        assert!(
            curve()
                .to_svg(
                    "/nonexistent-dir/x.svg",
                    &LearningCurve::default_plot_options()
                )
                .is_err()
        );
    }
}
