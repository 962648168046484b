//! One-feature least squares in closed form: [`simple_regression`] (slope `cov(x, y)/var(x)`,
//! intercept `ȳ − w x̄`) and [`regression_through_origin`] (`w = Σxᵢyᵢ / Σxᵢ²`).
//!
//! For one feature the normal equations are the 2 × 2 system
//! `[[Σx², Σx], [Σx, N]]·[w, b]ᵀ = [Σxy, Σy]ᵀ`, whose determinant is `N Σ(x − x̄)²`: it is
//! solvable iff `x` takes at least two distinct values. Without intercept the single equation
//! `w Σx² = Σxy` needs one non-zero `x`. Both are computed with centred sums (no cancellation
//! from large means).
//!
//! References: the course notes (cov/var, the 2 × 2 system, determinant, through the origin);
//! catalog L-02 (CL-069). L. Wasserman, *All of Statistics*, Springer (2004), ch. 13 (simple
//! linear regression).

use ndarray::ArrayRef1;
use ndlearn_core::{Error, Float, Result};

use crate::design::below;

/// Slope and intercept of a simple (one-feature) regression.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SimpleRegression<F> {
    /// `w = cov(x, y) / var(x) = Σ(xᵢ − x̄)(yᵢ − ȳ) / Σ(xᵢ − x̄)²`.
    pub slope: F,
    /// `b = ȳ − w x̄`.
    pub intercept: F,
}

fn check_pair<F: Float>(x: &ArrayRef1<F>, y: &ArrayRef1<F>, context: &'static str) -> Result<()> {
    ndlearn_core::validate::check_target_len(x.len(), y.len(), context)?;
    ndlearn_core::validate::check_finite_1d(x, "x")?;
    ndlearn_core::validate::check_finite_1d(y, "y")
}

/// The closed form of least squares with one feature and an intercept (the course notes' cov/var
/// formula). See the [module docs](self).
///
/// ```
/// use ndlearn_core::ndarray::array;
/// // y = 2x + 1 exactly.
/// let r = ndlearn_linear::simple_regression(&array![0.0_f64, 1.0, 2.0], &array![1.0, 3.0, 5.0])?;
/// assert!((r.slope - 2.0).abs() < 1e-15 && (r.intercept - 1.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths, [`Error::NonFinite`], and
/// [`Error::InvalidParam`] when `x` has fewer than two distinct values (the 2 × 2 normal
/// equations are then singular).
pub fn simple_regression<F: Float>(
    x: &ArrayRef1<F>,
    y: &ArrayRef1<F>,
) -> Result<SimpleRegression<F>> {
    check_pair(x, y, "simple_regression")?;
    ndlearn_core::validate::check_min_samples(x.len(), 2, "simple_regression")?;
    let n = F::cast(x.len());
    let xm = x.sum() / n;
    let ym = y.sum() / n;
    let (mut sxy, mut sxx) = (F::zero(), F::zero());
    for (&a, &b) in x.iter().zip(y.iter()) {
        sxy += (a - xm) * (b - ym);
        sxx += (a - xm) * (a - xm);
    }
    if !below(F::zero(), sxx) {
        return Err(Error::invalid_param(
            "x",
            "simple regression needs at least two distinct x values (var(x) = 0)",
        ));
    }
    let slope = sxy / sxx;
    Ok(SimpleRegression {
        slope,
        intercept: ym - slope * xm,
    })
}

/// Least squares through the origin, `w = Σxᵢyᵢ / Σxᵢ²` (the model `ŷ = w x`).
///
/// ```
/// use ndlearn_core::ndarray::array;
/// // Σxy = 1·2 + 2·3 = 8, Σx² = 5.
/// let w = ndlearn_linear::regression_through_origin(&array![1.0_f64, 2.0], &array![2.0, 3.0])?;
/// assert!((w - 1.6).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths, [`Error::TooFewSamples`] for empty input,
/// [`Error::NonFinite`], and [`Error::InvalidParam`] when every `xᵢ` is 0.
pub fn regression_through_origin<F: Float>(x: &ArrayRef1<F>, y: &ArrayRef1<F>) -> Result<F> {
    check_pair(x, y, "regression_through_origin")?;
    ndlearn_core::validate::check_min_samples(x.len(), 1, "regression_through_origin")?;
    let sxx = x.dot(x);
    if !below(F::zero(), sxx) {
        return Err(Error::invalid_param(
            "x",
            "regression through the origin needs a non-zero x (Σx² = 0)",
        ));
    }
    Ok(x.dot(y) / sxx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinearRegression;
    use ndarray::{Array1, Axis, array};
    use ndlearn_core::Fit;

    #[test]
    fn simple_regression_matches_the_estimator() {
        let x: Array1<f64> = array![1.0, 2.0, 4.0, 7.0];
        let y: Array1<f64> = array![1.0, 3.0, 2.0, 6.0];
        let r = simple_regression(&x, &y).expect("distinct x");
        // x̄ = 3.5, ȳ = 3; Σ(x−x̄)(y−ȳ) = 5 + 0 − 0.5 + 10.5 = 15... computed exactly below.
        let (sxy, sxx) = x.iter().zip(y.iter()).fold((0.0, 0.0), |(a, b), (&u, &v)| {
            (a + (u - 3.5) * (v - 3.0), b + (u - 3.5) * (u - 3.5))
        });
        assert!((r.slope - sxy / sxx).abs() < 1e-15);
        let x2 = x.clone().insert_axis(Axis(1));
        let fit = LinearRegression::default().fit(&x2, &y).expect("fit");
        assert!((fit.coef()[0] - r.slope).abs() < 1e-12);
        assert!((fit.intercept() - r.intercept).abs() < 1e-12);
        assert!(matches!(
            simple_regression(&array![1.0, 1.0], &array![1.0, 2.0]),
            Err(Error::InvalidParam { .. })
        ));
        assert!(simple_regression(&array![1.0], &array![1.0]).is_err());
        assert!(simple_regression(&array![1.0, 2.0], &array![1.0]).is_err());
        assert!(regression_through_origin(&array![0.0, 0.0], &array![1.0, 2.0]).is_err());
        assert!(regression_through_origin(&array![f64::NAN], &array![1.0]).is_err());
    }
}
