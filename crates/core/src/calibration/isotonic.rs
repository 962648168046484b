//! Isotonic regression: the best monotone fit in weighted least squares, by the pool adjacent
//! violators algorithm (PAVA), as a function ([`isotonic_regression`]) and as an estimator
//! ([`IsotonicRegression`], scikit-learn's `IsotonicRegression`).
//!
//! # Objective
//!
//! ```text
//! min_ŷ  Σᵢ wᵢ (yᵢ − ŷᵢ)²   subject to  ŷ₁ ≤ ŷ₂ ≤ … ≤ ŷₙ     (or ≥ for a decreasing fit)
//! ```
//!
//! over the points ordered by `x`. PAVA merges adjacent blocks that violate the order into
//! their weighted mean until none does: `O(n)` after the sort. The estimator follows
//! scikit-learn step by step: zero-weight points are dropped, points are sorted by `(x, y)`,
//! points whose `x` differ by less than the type's resolution (`1e-15` in `f64`, `1e-6` in
//! `f32`) are merged into their weighted mean, PAVA runs on the merged points, the fit is
//! clipped to `[y_min, y_max]`, and only the points where the fitted step function changes are
//! kept (`x_thresholds`, `y_thresholds`). `predict` interpolates linearly between them (as
//! scipy's `interp1d`), and outside `[x_min, x_max]` gives NaN, the boundary value, or an error
//! ([`OutOfBounds`]). With `increasing = Auto` the direction is the sign of Spearman's
//! correlation of `x` and `y` (scikit-learn's `check_increasing`, without its warning).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `y_min`, `y_max` | `None` | `y_min`, `y_max` | finite, `y_min ≤ y_max` |
//! | `increasing` | [`Increasing::True`] | `increasing` (`True`, `False`, `"auto"`) | |
//! | `out_of_bounds` | [`OutOfBounds::Nan`] | `out_of_bounds` | |
//!
//! ```
//! use ndlearn_core::calibration::{isotonic_regression, IsotonicRegression};
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//!
//! let y = array![5.0, 3.0, 1.0, 2.0, 8.0, 10.0, 7.0, 9.0, 6.0, 4.0];
//! let fit = isotonic_regression(&y, None, true)?;
//! assert_eq!(fit[0], 2.75);                          // the first four pooled
//! let x = array![[1.0], [2.0], [3.0], [4.0]];
//! let model = IsotonicRegression::default().fit(&x, &array![1.0, 3.0, 2.0, 4.0])?;
//! assert_eq!(model.predict(&array![[2.5]])?[0], 2.5);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! - M. J. Best, N. Chakravarti, "Active set algorithms for isotonic regression; a unifying
//!   framework", Mathematical Programming 47, 1990.
//! - B. Zadrozny, C. Elkan, "Transforming classifier scores into accurate multiclass probability
//!   estimates", KDD 2002 (isotonic calibration).
//! - scikit-learn's `sklearn.isotonic.IsotonicRegression`.

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use crate::traits::{Estimator, Fit, FitWeighted, NFeaturesIn, Predict};
use crate::validate::{check_finite_1d, check_predict_input, check_sample_weight};
use crate::{Error, Float, Result};

/// The direction of an isotonic fit (scikit-learn's `increasing`: `True`, `False` or
/// `"auto"`; serialised as `true`, `false`, `"auto"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Increasing {
    /// Non-decreasing fit (default).
    #[default]
    True,
    /// Non-increasing fit.
    False,
    /// The sign of Spearman's rank correlation of `x` and `y` (`≥ 0`: increasing).
    Auto,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Increasing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Increasing::True => s.serialize_bool(true),
            Increasing::False => s.serialize_bool(false),
            Increasing::Auto => s.serialize_str("auto"),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Increasing {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Increasing;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false or \"auto\"")
            }
            fn visit_bool<E: serde::de::Error>(
                self,
                v: bool,
            ) -> std::result::Result<Increasing, E> {
                Ok(if v {
                    Increasing::True
                } else {
                    Increasing::False
                })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Increasing, E> {
                match v {
                    "auto" => Ok(Increasing::Auto),
                    "true" | "True" => Ok(Increasing::True),
                    "false" | "False" => Ok(Increasing::False),
                    other => Err(E::unknown_variant(other, &["true", "false", "auto"])),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// What `predict` does with inputs outside the training range `[x_min, x_max]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum OutOfBounds {
    /// Predict NaN (default, scikit-learn's `"nan"`).
    #[default]
    Nan,
    /// Predict the value at the nearest end (`"clip"`).
    Clip,
    /// Return an error (`"raise"`).
    Raise,
}

/// Weighted least-squares isotonic fit of `y` in the given order (PAVA): non-decreasing when
/// `increasing`, else non-increasing. `sample_weight` defaults to ones.
///
/// # Errors
/// Empty or non-finite `y`, invalid weights (negative, non-finite, wrong length, zero sum).
pub fn isotonic_regression<F: Float>(
    y: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    increasing: bool,
) -> Result<Array1<F>> {
    crate::validate::check_min_samples(y.len(), 1, "isotonic_regression")?;
    check_finite_1d(y, "y")?;
    if let Some(w) = sample_weight {
        check_sample_weight(w, y.len())?;
    }
    let mut v: Vec<F> = y.to_vec();
    let mut w: Vec<F> = match sample_weight {
        Some(w) => w.to_vec(),
        None => vec![F::one(); y.len()],
    };
    if !increasing {
        v.reverse();
        w.reverse();
    }
    pava(&mut v, &w);
    if !increasing {
        v.reverse();
    }
    Ok(Array1::from(v))
}

/// Non-decreasing PAVA in place: blocks on a stack, each the weighted mean of its points.
/// Points of zero weight join a neighbouring block without moving its mean.
fn pava<F: Float>(y: &mut [F], w: &[F]) {
    // (weighted mean, total weight, first index)
    let mut blocks: Vec<(F, F, usize)> = Vec::with_capacity(y.len());
    for i in 0..y.len() {
        let mut cur = (y[i], w[i], i);
        while let Some(&(m, wt, start)) = blocks.last() {
            if m < cur.0 {
                break;
            }
            // Pool: the weighted mean of the two blocks (zero total weight keeps the left mean).
            let total = wt + cur.1;
            let mean = if total > F::zero() {
                (m * wt + cur.0 * cur.1) / total
            } else {
                m.min(cur.0)
            };
            cur = (mean, total, start);
            blocks.pop();
        }
        blocks.push(cur);
    }
    let mut end = y.len();
    for &(m, _, start) in blocks.iter().rev() {
        y[start..end].iter_mut().for_each(|v| *v = m);
        end = start;
    }
}

/// Isotonic regression as an estimator on one feature (scikit-learn's `IsotonicRegression`;
/// see the [`calibration` module docs](crate::calibration)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct IsotonicRegression {
    /// Lower bound of the fitted values (default none).
    pub y_min: Option<f64>,
    /// Upper bound of the fitted values (default none).
    pub y_max: Option<f64>,
    /// Direction of the fit (default increasing).
    pub increasing: Increasing,
    /// Inputs outside the training range at predict (default NaN).
    pub out_of_bounds: OutOfBounds,
}

impl IsotonicRegression {
    crate::setters! {
        /// Sets the lower bound of the fitted values.
        y_min: Option<f64>,
        /// Sets the upper bound of the fitted values.
        y_max: Option<f64>,
        /// Sets the direction.
        increasing: Increasing,
        /// Sets the out-of-bounds rule.
        out_of_bounds: OutOfBounds,
    }

    /// Fits on a 1-D input `x` (the same as `fit` on an `n × 1` matrix).
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_1d<F: Float>(
        &self,
        x: &ArrayRef1<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedIsotonicRegression<F>> {
        self.validate()?;
        const CONTEXT: &str = "IsotonicRegression::fit";
        crate::validate::check_min_samples(x.len(), 1, CONTEXT)?;
        if y.len() != x.len() {
            return Err(Error::ShapeMismatch {
                context: CONTEXT,
                expected: format!("{} targets", x.len()),
                found: format!("{}", y.len()),
            });
        }
        check_finite_1d(x, "x")?;
        check_finite_1d(y, "y")?;
        if let Some(w) = sample_weight {
            check_sample_weight(w, x.len())?;
        }
        let increasing = match self.increasing {
            Increasing::True => true,
            Increasing::False => false,
            Increasing::Auto => crate::stats::spearman(x, y)? >= 0.0 || x.len() < 2,
        };
        // Drop zero weights, sort by (x, y).
        let keep: Vec<usize> = (0..x.len())
            .filter(|&i| sample_weight.is_none_or(|w| w[i] > F::zero()))
            .collect();
        let mut order = keep;
        order.sort_by(|&a, &b| {
            x[a].partial_cmp(&x[b])
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(y[a].partial_cmp(&y[b]).unwrap_or(std::cmp::Ordering::Equal))
        });
        // Merge x values closer than the type's resolution (scikit-learn's `_make_unique`).
        let resolution = F::cast(if F::NAME == "f32" { 1e-6 } else { 1e-15 });
        let (mut ux, mut uy, mut uw) = (Vec::new(), Vec::new(), Vec::new());
        let mut cur_x = x[order[0]];
        let (mut cur_wy, mut cur_w) = (F::zero(), F::zero());
        for &i in &order {
            let wi = sample_weight.map_or(F::one(), |w| w[i]);
            if x[i] - cur_x >= resolution {
                ux.push(cur_x);
                uw.push(cur_w);
                uy.push(cur_wy / cur_w);
                cur_x = x[i];
                cur_w = wi;
                cur_wy = y[i] * wi;
            } else {
                cur_w += wi;
                cur_wy += y[i] * wi;
            }
        }
        ux.push(cur_x);
        uw.push(cur_w);
        uy.push(cur_wy / cur_w);
        let mut fitted =
            isotonic_regression(&Array1::from(uy), Some(&Array1::from(uw)), increasing)?.to_vec();
        let lo = self.y_min.map_or(F::neg_infinity(), F::cast);
        let hi = self.y_max.map_or(F::infinity(), F::cast);
        fitted.iter_mut().for_each(|v| *v = v.max(lo).min(hi));
        let x_min = ux[0];
        let x_max = ux[ux.len() - 1];
        // Keep the points where the step function changes (and both ends).
        let n = fitted.len();
        let mut xt = Vec::new();
        let mut yt = Vec::new();
        for i in 0..n {
            let keep =
                i == 0 || i + 1 == n || fitted[i] != fitted[i - 1] || fitted[i] != fitted[i + 1];
            if keep {
                xt.push(ux[i]);
                yt.push(fitted[i]);
            }
        }
        Ok(FittedIsotonicRegression {
            params: *self,
            x_thresholds: xt,
            y_thresholds: yt,
            x_min,
            x_max,
            increasing,
        })
    }
}

impl Estimator for IsotonicRegression {
    /// Checks the bounds: finite and `y_min ≤ y_max`.
    fn validate(&self) -> Result<()> {
        for (name, v) in [("y_min", self.y_min), ("y_max", self.y_max)] {
            if let Some(v) = v
                && !v.is_finite()
            {
                return Err(Error::invalid_param(
                    name,
                    format!("must be finite; got {v}"),
                ));
            }
        }
        if let (Some(a), Some(b)) = (self.y_min, self.y_max)
            && a > b
        {
            return Err(Error::invalid_param(
                "y_min",
                format!("must be <= y_max; got {a} > {b}"),
            ));
        }
        Ok(())
    }
}

fn single_column<F: Float>(x: &ArrayRef2<F>, context: &'static str) -> Result<()> {
    if x.ncols() != 1 {
        return Err(Error::ShapeMismatch {
            context,
            expected: "one feature column".into(),
            found: format!("{} columns", x.ncols()),
        });
    }
    Ok(())
}

impl<F: Float> Fit<F> for IsotonicRegression {
    type Target = ArrayRef1<F>;
    type Model = FittedIsotonicRegression<F>;

    /// Fits on `x` with exactly one column.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedIsotonicRegression<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for IsotonicRegression {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedIsotonicRegression<F>> {
        self.validate()?;
        crate::validate::check_fit_shape(x, 1, "IsotonicRegression::fit")?;
        single_column(x, "IsotonicRegression::fit")?;
        self.fit_1d(&x.column(0), y, sample_weight)
    }
}

/// A fitted [`IsotonicRegression`]: a piecewise-linear monotone function through
/// `(x_thresholds, y_thresholds)`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedIsotonicRegression<F: Float> {
    params: IsotonicRegression,
    x_thresholds: Vec<F>,
    y_thresholds: Vec<F>,
    x_min: F,
    x_max: F,
    increasing: bool,
}

impl<F: Float> FittedIsotonicRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &IsotonicRegression {
        &self.params
    }
    /// The distinct `x` where the fitted function changes slope (ascending), with both ends.
    pub fn x_thresholds(&self) -> &[F] {
        &self.x_thresholds
    }
    /// The fitted values at [`x_thresholds`](Self::x_thresholds).
    pub fn y_thresholds(&self) -> &[F] {
        &self.y_thresholds
    }
    /// The smallest training input.
    pub fn x_min(&self) -> F {
        self.x_min
    }
    /// The largest training input.
    pub fn x_max(&self) -> F {
        self.x_max
    }
    /// The direction used (resolved from `Auto`).
    pub fn increasing(&self) -> bool {
        self.increasing
    }

    /// The fitted function at one point (linear interpolation as scipy's `interp1d`).
    fn at(&self, t: F) -> Result<F> {
        let (xs, ys) = (&self.x_thresholds, &self.y_thresholds);
        let t = match self.params.out_of_bounds {
            OutOfBounds::Clip => t.max(self.x_min).min(self.x_max),
            OutOfBounds::Nan if t < self.x_min || t > self.x_max => return Ok(F::nan()),
            OutOfBounds::Raise if t < self.x_min || t > self.x_max => {
                return Err(Error::invalid_param(
                    "x",
                    format!(
                        "{t} is outside the training range [{}, {}] (out_of_bounds = raise)",
                        self.x_min, self.x_max
                    ),
                ));
            }
            _ => t,
        };
        if xs.len() == 1 {
            return Ok(ys[0]);
        }
        let idx = xs.partition_point(|&v| v < t).clamp(1, xs.len() - 1);
        let (lo, hi) = (idx - 1, idx);
        let slope = (ys[hi] - ys[lo]) / (xs[hi] - xs[lo]);
        Ok(slope * (t - xs[lo]) + ys[lo])
    }

    /// Predictions for a 1-D input.
    ///
    /// # Errors
    /// Non-finite input; inputs outside the range with `out_of_bounds = Raise`.
    pub fn predict_1d(&self, x: &ArrayRef1<F>) -> Result<Array1<F>> {
        check_finite_1d(x, "x")?;
        x.iter().map(|&t| self.at(t)).collect()
    }
}

impl<F: Float> Predict<F> for FittedIsotonicRegression<F> {
    type Output = Array1<F>;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        check_predict_input(x, 1, "IsotonicRegression::predict")?;
        self.predict_1d(&x.column(0))
    }
}

impl<F: Float> NFeaturesIn for FittedIsotonicRegression<F> {
    fn n_features_in(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn pava_by_hand_and_weights() {
        let y = array![1.0, 3.0, 2.0, 4.0, 3.5, 5.0];
        let f = isotonic_regression(&y, None, true).expect("ok");
        assert_eq!(f.to_vec(), vec![1.0, 2.5, 2.5, 3.75, 3.75, 5.0]);
        let w = array![1.0, 1.0, 3.0, 1.0, 1.0, 1.0];
        let fw = isotonic_regression(&y, Some(&w), true).expect("ok");
        assert_eq!(fw[1], (3.0 + 6.0) / 4.0);
        let d = isotonic_regression(&y, None, false).expect("ok");
        for i in 1..d.len() {
            assert!(d[i] <= d[i - 1]);
        }
        // Already monotone data is its own fit.
        let m = array![0.0, 1.0, 1.0, 2.0];
        assert_eq!(isotonic_regression(&m, None, true).expect("ok"), m);
        assert!(isotonic_regression(&array![f64::NAN], None, true).is_err());
    }

    #[test]
    fn estimator_thresholds_interpolation_and_bounds() {
        let x = array![[1.0_f64], [2.0], [2.0], [3.0], [5.0]];
        let y = array![1.0_f64, 4.0, 2.0, 2.0, 6.0];
        let m = IsotonicRegression::default().fit(&x, &y).expect("fit");
        // x = 2 merges to mean 3; PAVA pools (3, 2) at x = 2, 3 into 2.5 (weights 2 and 1:
        // (3·2 + 2)/3 = 8/3).
        assert_eq!(m.x_thresholds(), &[1.0, 2.0, 3.0, 5.0]);
        assert!((m.y_thresholds()[1] - 8.0 / 3.0).abs() < 1e-15);
        let p = m.predict(&array![[4.0], [0.0], [6.0]]).expect("ok");
        assert!((p[0] - (8.0 / 3.0 + 6.0) / 2.0).abs() < 1e-14);
        assert!(p[1].is_nan() && p[2].is_nan());
        let clip = IsotonicRegression::default()
            .out_of_bounds(OutOfBounds::Clip)
            .y_max(Some(5.0))
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(
            clip.predict(&array![[0.0], [9.0]]).expect("ok").to_vec(),
            vec![1.0, 5.0]
        );
        let raise = IsotonicRegression::default()
            .out_of_bounds(OutOfBounds::Raise)
            .fit(&x, &y)
            .expect("fit");
        assert!(raise.predict(&array![[9.0]]).is_err());
        assert!(
            IsotonicRegression::default()
                .fit(&array![[1.0, 2.0]], &array![1.0])
                .is_err()
        );
        assert!(
            IsotonicRegression::default()
                .y_min(Some(2.0))
                .y_max(Some(1.0))
                .fit(&x, &y)
                .is_err()
        );
        let auto = IsotonicRegression::default()
            .increasing(Increasing::Auto)
            .fit(&x, &y.mapv(|v| -v))
            .expect("fit");
        assert!(!auto.increasing());
    }
}
