//! Polynomial regression: a polynomial basis expansion followed by least squares or ridge
//! ([`PolynomialRegression`]), and the train/test `E_RMS` curve over the polynomial order
//! ([`rms_error_curve`]).
//!
//! # Model and objective
//!
//! For one input, `f(x, w) = Σ_{j=0}^{M} w_j x^j` (the course notes' curve fitting); for `D` inputs,
//! every monomial of total degree `≤ M` (`C(D + M, M)` columns, the order of
//! [`ndlearn_core::preprocessing::PolynomialFeatures`], exactly scikit-learn's). The weights
//! minimise
//!
//! ```text
//! E(w) = ½ Σₙ (f(xₙ, w) − tₙ)² + (α/2) ‖w‖²          (α ≥ 0; α = 0 is least squares)
//! ```
//!
//! whose minimiser is that of scikit-learn's `Ridge` objective `‖t − Φw − b‖² + α‖w‖²` (the
//! scaling differs by ½, erratum E2). This is the pipeline
//! `make_pipeline(PolynomialFeatures(M), LinearRegression())` (or `Ridge(alpha)`):
//!
//! 1. `Φ = PolynomialFeatures(M).transform(X)` (with the bias column `1` when `include_bias`);
//! 2. with `fit_intercept`, `Φ` and `t` are centred and the intercept is unpenalised; the
//!    bias column is then constant, is left out of the solve and gets coefficient 0 (as in
//!    scikit-learn, where centring turns it into a zero column). Without `fit_intercept`, the
//!    bias column *is* the intercept `w₀` of the course notes' form (penalised along with the other
//!    weights when `α > 0`);
//! 3. `α = 0`: the minimum-norm least-squares solution by the thin SVD of the centred `Φ`
//!    ([`crate::OlsSolver::Svd`], singular values below `max(N, D)·ε·σ_max` dropped);
//!    `α > 0`: the ridge shrinkage form ([`crate::RidgeSolver::Svd`]). The monomial basis is
//!    badly conditioned (order 9 on `[0, 1]`: condition number ~10⁷), so the normal
//!    equations are never formed.
//!
//! Prediction expands the raw input the same way: `ŷ = Φ(x) w + b`.
//!
//! **Vandermonde rank (catalog L-03, erratum E15).** For one input and `α = 0`, the design
//! `[1, x, …, x^M]` has full column rank — `ΦᵀΦ` invertible, a unique least-squares
//! polynomial — iff there are at least `M + 1` *distinct* `xₙ` (the course notes print "`M` different
//! `xᵢ`", off by one). With fewer, [`PolynomialRegression`] returns
//! [`Error::InvalidParam`] for `degree` rather than silently picking the minimum-norm
//! polynomial (use a lower degree or `α > 0`). For a model without any constant column
//! (`include_bias = false`, `fit_intercept = false`) the condition is `M` distinct non-zero
//! `xₙ`. For several inputs no such count exists; rank-deficient designs get the minimum-norm
//! solution and [`FittedPolynomialRegression::rank`] reports the rank.
//!
//! **Difference from scikit-learn ≥ 1.8**: `LinearRegression(tol=1e-6)` passes `tol` to
//! `scipy.linalg.lstsq` as its singular-value cut, which at order 9 on 10 points drops a
//! direction and no longer interpolates; here the cut is machine precision, so the order-`N−1`
//! fit interpolates (scikit-learn agrees with `LinearRegression(tol=1e-13)`).
//!
//! # Choosing the order: `E_RMS`
//!
//! `E_RMS = √(2E(w)/N) = √((1/N) Σ (f(xₙ) − tₙ)²)` (with `α = 0` in `E`; catalog L-02/L-03)
//! puts training and test sets of different sizes on the target's scale.
//! [`rms_error_curve`] fits one model per order and returns both curves: training error
//! falls with the order (nested least-squares models), test error falls and then rises —
//! over-fitting. The course notes' experiment (`sin(2πx)` plus noise, 10 points, orders 0…9):
//!
//! ```
//! use ndlearn_core::ndarray::{Array1, Array2};
//! use ndlearn_core::random;
//! use ndlearn_linear::{PolynomialRegression, rms_error_curve};
//!
//! let target = |x: f64| (2.0 * std::f64::consts::PI * x).sin();
//! let mut rng = random::stream(4, 0);
//! let mut noisy = |x: f64| target(x) + 0.3 * random::standard_normal::<f64>(&mut rng);
//! let x_train = Array2::from_shape_fn((10, 1), |(i, _)| i as f64 / 9.0);
//! let y_train: Array1<f64> = x_train.column(0).mapv(&mut noisy);
//! let x_test = Array2::from_shape_fn((100, 1), |(i, _)| (i as f64 + 0.5) / 100.0);
//! let y_test: Array1<f64> = x_test.column(0).mapv(&mut noisy);
//!
//! let curve = rms_error_curve(
//!     &PolynomialRegression::default(), 0..=9, &x_train, &y_train, &x_test, &y_test,
//! )?;
//! // Training error never increases with the order ...
//! assert!(curve.train.windows(2).all(|w| w[1] <= w[0] + 1e-9));
//! // ... and order 9 passes through all 10 points,
//! assert!(curve.train[9] < 1e-6);
//! // while the test error of order 9 is far above that of order 3.
//! assert!(curve.test[9] > 2.0 * curve.test[3]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # Complexity
//!
//! `O(N·P)` for the expansion (`P` output columns) and `O(N·P·min(N, P))` for the SVD.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `degree` | 2 | `PolynomialFeatures(degree)` | ≥ 0 (`0` needs a bias column or intercept) |
//! | `alpha` | 0.0 | `Ridge(alpha)` (`0` = `LinearRegression`) | finite, ≥ 0 |
//! | `include_bias` | `true` | `PolynomialFeatures(include_bias)` | |
//! | `interaction_only` | `false` | `PolynomialFeatures(interaction_only)` | |
//! | `fit_intercept` | `true` | `LinearRegression(fit_intercept)` / `Ridge(fit_intercept)` | |
//!
//! # Errors
//!
//! [`Error::InvalidParam`]: negative or non-finite `alpha`; `degree = 0` with neither bias nor
//! intercept; fewer distinct inputs than the degree needs (one input, `α = 0`: E15); data whose
//! `max|x|^degree` overflows. Shape and finiteness errors as every regressor.
//!
//! # References
//!
//! Course notes: curve fitting, normal equations, `E_RMS`, regularised form, Vandermonde
//! invertibility; catalog L-02, L-03, CL-072, erratum E15. C. M. Bishop, *Pattern
//! Recognition and Machine Learning*, §1.1.

use ndlearn_core::Estimator;
use std::ops::RangeInclusive;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, s};
use ndlearn_core::preprocessing::{FittedPolynomialFeatures, PolynomialFeatures};
use ndlearn_core::validate::{check_predict_input, check_regression_input};
use ndlearn_core::{Error, Fit, FitUnsupervised, Float, Predict, Result, Transform};

use crate::{LinearRegression, OlsSolver, Ridge, RidgeSolver};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Polynomial regression: [`PolynomialFeatures`] followed by least squares (`alpha = 0`) or
/// ridge (scikit-learn's `make_pipeline(PolynomialFeatures(degree), LinearRegression())` or
/// `Ridge(alpha)`). See the [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict, ndarray::array};
/// use ndlearn_linear::PolynomialRegression;
///
/// // y = 1 − 2x + 3x² exactly: the quadratic fit recovers it.
/// let x = array![[-1.0_f64], [0.0], [0.5], [1.0], [2.0]];
/// let y = x.column(0).mapv(|v| 1.0 - 2.0 * v + 3.0 * v * v);
/// let fit = PolynomialRegression::new(2).fit(&x, &y)?;
/// assert!((fit.intercept() - 1.0).abs() < 1e-12);
/// assert!((fit.coef()[1] + 2.0).abs() < 1e-12 && (fit.coef()[2] - 3.0).abs() < 1e-12);
/// assert!((fit.predict(&array![[3.0_f64]])?[0] - 22.0).abs() < 1e-11);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PolynomialRegression {
    /// Largest total degree of the monomials (default 2).
    pub degree: usize,
    /// Ridge penalty `α ≥ 0`; `0` is least squares (default 0.0).
    pub alpha: f64,
    /// Include the constant column `1` in the expansion (default `true`).
    pub include_bias: bool,
    /// Only products of distinct inputs (default `false`).
    pub interaction_only: bool,
    /// Fit an unpenalised intercept by centring (default `true`).
    pub fit_intercept: bool,
}

impl Default for PolynomialRegression {
    fn default() -> Self {
        Self {
            degree: 2,
            alpha: 0.0,
            include_bias: true,
            interaction_only: false,
            fit_intercept: true,
        }
    }
}

impl PolynomialRegression {
    /// Least-squares polynomial regression of degree `degree`.
    pub fn new(degree: usize) -> Self {
        Self {
            degree,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `degree`.
        degree: usize,
        /// Sets `alpha` (0 = least squares).
        alpha: f64,
        /// Sets `include_bias`.
        include_bias: bool,
        /// Sets `interaction_only`.
        interaction_only: bool,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
    }

    fn features(&self) -> PolynomialFeatures {
        PolynomialFeatures::new(self.degree)
            .include_bias(self.include_bias)
            .interaction_only(self.interaction_only)
    }

    /// E15: one input and least squares need `degree + 1` distinct values (`degree`
    /// distinct non-zero values without any constant column).
    fn check_distinct<F: Float>(&self, x: &ArrayRef2<F>) -> Result<()> {
        if x.ncols() != 1 || self.alpha > 0.0 || self.interaction_only {
            return Ok(());
        }
        let constant = self.fit_intercept || self.include_bias;
        let mut v: Vec<F> = x
            .column(0)
            .iter()
            .copied()
            .filter(|v| constant || *v != F::zero())
            .collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        v.dedup();
        let needed = if constant {
            self.degree + 1
        } else {
            self.degree
        };
        if v.len() < needed {
            let what = if constant { "" } else { " non-zero" };
            return Err(Error::invalid_param(
                "degree",
                format!(
                    "a degree-{} least-squares polynomial needs at least {needed} distinct{what} \
                     x values (the Vandermonde matrix is rank-deficient otherwise), got {}; \
                     lower the degree or set alpha > 0",
                    self.degree,
                    v.len()
                ),
            ));
        }
        Ok(())
    }
}

impl ndlearn_core::Estimator for PolynomialRegression {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a negative or non-finite `alpha`, or `degree = 0` with
    /// neither `include_bias` nor `fit_intercept` (an empty model).
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_non_negative("alpha", self.alpha)?;
        if self.degree == 0 && !self.include_bias && !self.fit_intercept {
            return Err(Error::invalid_param(
                "degree",
                "degree 0 without include_bias or fit_intercept is an empty model",
            ));
        }
        if self.degree > 0 || self.include_bias {
            self.features().validate()?;
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for PolynomialRegression {
    type Target = ArrayRef1<F>;
    type Model = FittedPolynomialRegression<F>;

    /// Expands `x` and solves least squares or ridge (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        check_regression_input(x, y, 1, "PolynomialRegression::fit")?;
        self.check_distinct(x)?;
        let n = x.nrows();
        // Degree 0 without bias (and with an intercept): the model is the constant ȳ.
        let features = if self.degree == 0 && !self.include_bias {
            None
        } else {
            Some(FitUnsupervised::<F>::fit(&self.features(), x)?)
        };
        let phi = match &features {
            Some(f) => f.transform(x)?,
            None => Array2::zeros((n, 0)),
        };
        let n_out = phi.ncols();
        // With an intercept the bias column is constant: coefficient 0, left out of the solve.
        let skip = usize::from(self.fit_intercept && self.include_bias);
        let design = phi.slice(s![.., skip..]);
        let mut coef = Array1::zeros(n_out);
        let (intercept, rank) = if design.ncols() == 0 {
            let b = if self.fit_intercept {
                y.sum() / F::cast(n)
            } else {
                F::zero()
            };
            (b, 0)
        } else if self.alpha == 0.0 {
            let fit = LinearRegression::default()
                .fit_intercept(self.fit_intercept)
                .solver(OlsSolver::Svd)
                .fit(&design, y)?;
            coef.slice_mut(s![skip..]).assign(&fit.coef());
            (fit.intercept(), fit.rank())
        } else {
            let fit = Ridge::new(self.alpha)
                .fit_intercept(self.fit_intercept)
                .solver(RidgeSolver::Svd)
                .fit(&design, y)?;
            coef.slice_mut(s![skip..]).assign(&fit.coef());
            (fit.intercept(), design.ncols())
        };
        Ok(FittedPolynomialRegression {
            params: *self,
            features,
            n_features: x.ncols(),
            coef,
            intercept,
            rank,
        })
    }
}

/// A fitted [`PolynomialRegression`]: the expansion and the linear model on it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPolynomialRegression<F: Float> {
    params: PolynomialRegression,
    features: Option<FittedPolynomialFeatures>,
    n_features: usize,
    coef: Array1<F>,
    intercept: F,
    rank: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedPolynomialRegression<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedPolynomialRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &PolynomialRegression {
        &self.params
    }
    /// One coefficient per expanded column, in [`PolynomialFeatures`]' order (the bias
    /// column's is 0 when an intercept is fitted), as the pipeline's final `coef_`.
    pub fn coef(&self) -> &Array1<F> {
        &self.coef
    }
    /// The intercept (0 without `fit_intercept`).
    pub fn intercept(&self) -> F {
        self.intercept
    }
    /// Rank of the (centred) expanded design the solver saw, bias column excluded when an
    /// intercept is fitted (least squares; for ridge, the number of columns).
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// Number of raw input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
    /// Number of expanded columns.
    pub fn n_features_out(&self) -> usize {
        self.coef.len()
    }
    /// The fitted expansion (`None` for a degree-0 model without bias column).
    pub fn features(&self) -> Option<&FittedPolynomialFeatures> {
        self.features.as_ref()
    }
    /// Exponents of each expanded column (see [`FittedPolynomialFeatures::powers`]).
    pub fn powers(&self) -> &[Vec<usize>] {
        self.features.as_ref().map_or(&[], |f| f.powers())
    }
}

impl<F: Float> Predict<F> for FittedPolynomialRegression<F> {
    type Output = Array1<F>;

    /// `Φ(x) w + b` on raw inputs.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        check_predict_input(x, self.n_features, "predict: number of features")?;
        let mut out = match &self.features {
            Some(f) => f.transform(x)?.dot(&self.coef),
            None => Array1::zeros(x.nrows()),
        };
        out += self.intercept;
        Ok(out)
    }
}

/// `E_RMS = √((1/N) Σ (predictionₙ − targetₙ)²) = √(2E/N)` with `E = ½Σ(·)²`.
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths, [`Error::TooFewSamples`] for empty input.
pub fn rms_error<F: Float>(prediction: &ArrayRef1<F>, target: &ArrayRef1<F>) -> Result<f64> {
    ndlearn_core::validate::check_target_len(prediction.len(), target.len(), "rms_error")?;
    ndlearn_core::validate::check_min_samples(prediction.len(), 1, "rms_error")?;
    let sse: f64 = prediction
        .iter()
        .zip(target.iter())
        .map(|(&p, &t)| {
            let r = (p - t).to_f64_lossless();
            r * r
        })
        .sum();
    Ok((sse / prediction.len() as f64).sqrt())
}

/// Training and test `E_RMS` per polynomial order ([`rms_error_curve`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct OrderErrors {
    /// The orders, in the order given.
    pub degrees: Vec<usize>,
    /// Training `E_RMS` of each order.
    pub train: Vec<f64>,
    /// Test `E_RMS` of each order.
    pub test: Vec<f64>,
}

/// Fits `base` (its `degree` replaced) for every order in `degrees` and returns the training
/// and test `E_RMS` (the course notes' order-selection experiment; see the [module docs](self)).
///
/// # Errors
/// As [`PolynomialRegression`]'s fit and predict (for example an order too high for the number
/// of distinct training inputs, E15), and [`rms_error`].
pub fn rms_error_curve<F: Float>(
    base: &PolynomialRegression,
    degrees: RangeInclusive<usize>,
    x_train: &ArrayRef2<F>,
    y_train: &ArrayRef1<F>,
    x_test: &ArrayRef2<F>,
    y_test: &ArrayRef1<F>,
) -> Result<OrderErrors> {
    let mut out = OrderErrors {
        degrees: Vec::new(),
        train: Vec::new(),
        test: Vec::new(),
    };
    for degree in degrees {
        let fit = base.degree(degree).fit(x_train, y_train)?;
        out.degrees.push(degree);
        out.train.push(rms_error(&fit.predict(x_train)?, y_train)?);
        out.test.push(rms_error(&fit.predict(x_test)?, y_test)?);
    }
    Ok(out)
}

impl<F: Float> CheckModel for FittedPolynomialRegression<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedPolynomialRegression");
        c.params(&self.params)?;
        c.at_least("n_features", self.n_features, 1)?;
        let p = &self.params;
        c.that(
            self.features.is_none() == (p.degree == 0 && !p.include_bias),
            || "`features` does not match the degree and bias settings".into(),
        )?;
        match &self.features {
            Some(f) => {
                c.part("features", f)?;
                c.that(f.params() == &p.features(), || {
                    "`features` was fitted with other settings".into()
                })?;
                c.len("features.n_features", f.n_features(), self.n_features)?;
                c.len("coef", self.coef.len(), f.n_features_out())?;
            }
            None => c.len("coef", self.coef.len(), 0)?,
        }
        c.finite("coef", &self.coef)?;
        c.finite_value("intercept", self.intercept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::random;

    #[test]
    fn check_model_catches_a_broken_state() {
        let x = array![[0.0], [0.5], [1.0], [1.5], [2.0]];
        let y = array![1.0, 0.2, -0.3, 0.4, 2.0];
        let mut fit = PolynomialRegression::new(3).fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.coef = Array1::zeros(2);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let fit = PolynomialRegression::new(0)
            .include_bias(false)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
    }

    fn sin_problem(seed: u64) -> (Array2<f64>, Array1<f64>, Array2<f64>, Array1<f64>) {
        let mut rng = random::stream(seed, 0);
        let mut noisy = |x: f64| {
            (2.0 * std::f64::consts::PI * x).sin() + 0.3 * random::standard_normal::<f64>(&mut rng)
        };
        let xt = Array2::from_shape_fn((10, 1), |(i, _)| i as f64 / 9.0);
        let yt = xt.column(0).mapv(&mut noisy);
        let xs = Array2::from_shape_fn((100, 1), |(i, _)| (i as f64 + 0.5) / 100.0);
        let ys = xs.column(0).mapv(&mut noisy);
        (xt, yt, xs, ys)
    }

    #[test]
    fn erms_versus_order_experiment() {
        for seed in [2026, 1, 2, 3, 4, 5, 6, 7] {
            let (xt, yt, xs, ys) = sin_problem(seed);
            let c = rms_error_curve(&PolynomialRegression::default(), 0..=9, &xt, &yt, &xs, &ys)
                .expect("curve");
            assert_eq!(c.degrees, (0..=9).collect::<Vec<_>>());
            // Nested least-squares models: training error non-increasing.
            for w in c.train.windows(2) {
                assert!(w[1] <= w[0] + 1e-9, "seed {seed}: {:?}", c.train);
            }
            // Order 9 interpolates 10 distinct points.
            assert!(c.train[9] < 1e-6, "seed {seed}: {}", c.train[9]);
            // Order 0 is the mean: E_RMS = population std of y.
            let sd = yt
                .mapv(|v| v - yt.mean().unwrap_or(0.0))
                .mapv(|v| v * v)
                .mean();
            assert!((c.train[0] - sd.unwrap_or(0.0).sqrt()).abs() < 1e-12);
            // Over-fitting: the test error rises at high order.
            let best = c.test.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(c.test[9] > c.test[3], "seed {seed}: {:?}", c.test);
            if [2, 4, 7].contains(&seed) {
                // Seeds where the order-9 interpolant swings far between the points.
                assert!(c.test[9] > 2.0 * best, "seed {seed}: {:?}", c.test);
            }
            // Ridge tames order 9.
            let r = PolynomialRegression::new(9)
                .alpha(1e-3)
                .fit(&xt, &yt)
                .expect("fit");
            let rr = rms_error(&r.predict(&xs).expect("p"), &ys).expect("rms");
            assert!(rr < c.test[9], "seed {seed}");
        }
    }

    #[test]
    fn vandermonde_needs_degree_plus_one_distinct_points() {
        // E15: 3 distinct x values (each twice) support degree 2 but not degree 3.
        let x = array![[0.0], [1.0], [2.0], [0.0], [1.0], [2.0]];
        let y = array![1.0, 2.0, 5.0, 1.2, 1.8, 5.1];
        assert!(PolynomialRegression::new(2).fit(&x, &y).is_ok());
        for est in [
            PolynomialRegression::new(3),
            PolynomialRegression::new(3).fit_intercept(false),
            PolynomialRegression::new(3).include_bias(false),
        ] {
            assert!(
                matches!(
                    est.fit(&x, &y),
                    Err(Error::InvalidParam { name: "degree", .. })
                ),
                "{est:?}"
            );
        }
        // No constant column: x, x², x³ need 3 distinct non-zero values; {1, 2} are 2.
        let e = PolynomialRegression::new(2)
            .include_bias(false)
            .fit_intercept(false);
        assert!(e.fit(&x, &y).is_ok());
        assert!(e.degree(3).fit(&x, &y).is_err());
        // Ridge is unique for any rank.
        let r = PolynomialRegression::new(3)
            .alpha(0.1)
            .fit(&x, &y)
            .expect("ridge");
        assert_eq!(r.rank(), 3);
        // Exactly degree + 1 distinct points: interpolation.
        let x4: Array2<f64> = array![[0.0], [1.0], [2.0], [3.0]];
        let y4: Array1<f64> = array![1.0, -1.0, 2.0, 0.5];
        let fit = PolynomialRegression::new(3).fit(&x4, &y4).expect("fit");
        let p = fit.predict(&x4).expect("p");
        assert!((&p - &y4).iter().all(|v| v.abs() < 1e-12));
        assert_eq!(fit.rank(), 3);
    }

    #[test]
    fn hand_checkable_fits_and_layout() {
        // Two inputs, degree 2: [1, x0, x1, x0², x0x1, x1²]; y = 2 + x0·x1 exactly.
        let x = array![
            [0.0, 1.0],
            [1.0, 2.0],
            [2.0, -1.0],
            [-1.0, 0.5],
            [3.0, 3.0],
            [0.5, -2.0],
            [-2.0, 1.0]
        ];
        let y = x
            .rows()
            .into_iter()
            .map(|r| 2.0 + r[0] * r[1])
            .collect::<Array1<f64>>();
        let fit = PolynomialRegression::new(2).fit(&x, &y).expect("fit");
        assert_eq!(fit.n_features_out(), 6);
        assert_eq!(fit.powers()[4], vec![1, 1]);
        let want = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        for (a, b) in fit.coef().iter().zip(want) {
            assert!((a - b).abs() < 1e-12);
        }
        assert!((fit.intercept() - 2.0).abs() < 1e-12);
        // Without intercept, the bias column carries it.
        let nb = PolynomialRegression::new(2)
            .fit_intercept(false)
            .fit(&x, &y)
            .expect("fit");
        assert!((nb.coef()[0] - 2.0).abs() < 1e-12 && nb.intercept() == 0.0);
        // Degree 0: the mean.
        let c = PolynomialRegression::new(0).fit(&x, &y).expect("fit");
        let m = y.mean().expect("rows");
        assert!(
            c.predict(&x)
                .expect("p")
                .iter()
                .all(|v| (v - m).abs() < 1e-12)
        );
        let c = PolynomialRegression::new(0)
            .include_bias(false)
            .fit(&x, &y)
            .expect("fit");
        assert!(
            c.predict(&x)
                .expect("p")
                .iter()
                .all(|v| (v - m).abs() < 1e-12)
        );
        // f32.
        let f = PolynomialRegression::new(2)
            .fit(&x.mapv(|v| v as f32), &y.mapv(|v| v as f32))
            .expect("fit");
        assert!((f.coef()[4] - 1.0).abs() < 1e-4);
        // Wrong feature count at predict.
        assert!(matches!(
            fit.predict(&array![[1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn invalid_hyperparameters() {
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![1.0, 2.0, 0.0];
        for bad in [
            PolynomialRegression::new(1).alpha(-1.0),
            PolynomialRegression::new(1).alpha(f64::NAN),
            PolynomialRegression::new(0)
                .include_bias(false)
                .fit_intercept(false),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            rms_error(&array![1.0, 2.0], &array![1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        let e: Array1<f64> = Array1::zeros(0);
        assert!(rms_error(&e, &e).is_err());
    }
}
