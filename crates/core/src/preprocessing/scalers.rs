//! Feature scalers: z-score ([`StandardScaler`]), range ([`MinMaxScaler`]), maximum absolute
//! value ([`MaxAbsScaler`]), per-row norms ([`Normalizer`]) and train-only centring ([`center`]).
//!
//! The robust scalers (median/IQR and the course notes' mean absolute deviation) are in
//! [`super::RobustScaler`] and [`super::MeanAbsDevScaler`].

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView1};

use super::moments::{column_max_abs, column_min_max, column_moments};
use super::{check_fitted_input, handle_zero_scale, map_rows};
use crate::traits::{FitUnsupervised, FitUnsupervisedWeighted, InverseTransform, Transform};
use crate::validate::{check_fit_input, check_n_features, check_sample_weight};
use crate::{Error, Float, Result};

// ---------------------------------------------------------------------------------------------
// StandardScaler

/// Standardises each feature: `z = (x − μ) / σ` with the training mean `μ` and the population
/// standard deviation `σ` (divisor `n`, `ddof = 0`) — scikit-learn's `StandardScaler`.
///
/// # Math
///
/// `μⱼ = Σᵢ wᵢ xᵢⱼ / Σᵢ wᵢ`, `σⱼ² = Σᵢ wᵢ (xᵢⱼ − μⱼ)² / Σᵢ wᵢ` (`wᵢ = 1` without sample weights).
/// A column is treated as constant, and gets `σⱼ = 1` (so it maps to 0 instead of dividing by
/// zero), when `σⱼ² ≤ n ε σⱼ² + (n μⱼ ε)²` with `ε` the `f64` machine epsilon and `n = Σᵢ wᵢ`:
/// scikit-learn's rule, the error bound of the two-pass variance (Chan, Golub & LeVeque), so
/// columns that are constant up to rounding are recognised.
///
/// The course notes' z-score `x' = (x − μ)/σ` (scikit-learn user guide: Preprocessing data,
/// Standardization); dividing by the standard deviation is optional: `with_std = false`. The
/// statistics come from the training data only and are applied unchanged to test data
/// (scikit-learn user guide: Common pitfalls, Data leakage): fit on the training split,
/// transform both.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `with_mean` | `true` | `with_mean` | subtract `μ` |
/// | `with_std` | `true` | `with_std` | divide by `σ` |
///
/// # Numerics and complexity
///
/// `O(n d)`: rows are cut into fixed blocks of 2,048; each block computes its mean and centred
/// sum of squares in two passes while it is in cache (with the correction term
/// `Σ(x − m̄)²  − (Σ(x − m̄))²/n`), and the blocks are merged in block order with Chan's pairwise
/// update, so the result is bitwise identical for any thread count. Accumulation is in `f64`
/// for `f32` input too (as scikit-learn). Columns whose magnitude would overflow or underflow
/// the squares (`max|x| > 1e150` or `< 1e-150`) are recomputed after an exact power-of-two
/// rescaling, so `σ` stays finite and correct; their `var` may still be `∞` (it is not
/// representable) — such a model does not round-trip through JSON.
///
/// # Errors
///
/// [`Error::TooFewSamples`] (0 rows), [`Error::ShapeMismatch`] (0 columns, or a different
/// feature count at transform), [`Error::NonFinite`] (NaN/∞: scikit-learn ignores NaN in fit
/// and passes it through; here impute first, e.g. with [`super::SimpleImputer`]).
///
/// # Example
///
/// ```
/// use ndlearn_core::preprocessing::StandardScaler;
/// use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, ndarray::array};
///
/// let train = array![[1.0, 10.0], [2.0, 10.0], [3.0, 10.0]];
/// let scaler = StandardScaler::default().fit(&train)?;
/// let z = scaler.transform(&array![[2.0, 10.0], [5.0, 11.0]])?;
/// assert_eq!(z[[0, 0]], 0.0);                       // the training mean
/// assert!((z[[1, 0]] - 3.0 / (2.0f64 / 3.0).sqrt()).abs() < 1e-12);
/// assert_eq!(z[[1, 1]], 1.0);                       // constant column: scale 1
/// let back = scaler.inverse_transform(&z)?;
/// assert!((back[[1, 0]] - 5.0).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct StandardScaler {
    /// Subtract the training mean.
    pub with_mean: bool,
    /// Divide by the training standard deviation.
    pub with_std: bool,
}

impl Default for StandardScaler {
    fn default() -> Self {
        Self {
            with_mean: true,
            with_std: true,
        }
    }
}

impl StandardScaler {
    /// The default scaler (`with_mean = with_std = true`).
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets `with_mean`.
        with_mean: bool,
        /// Sets `with_std`.
        with_std: bool,
    }

    fn fit_inner<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        w: Option<ArrayView1<'_, F>>,
    ) -> FittedStandardScaler<F> {
        let stats = column_moments(x, w);
        let d = x.ncols();
        let eps = f64::EPSILON;
        let n = stats.weight;
        let mut mean = Array1::zeros(d);
        let mut var = Array1::zeros(d);
        let mut scale = Array1::ones(d);
        for j in 0..d {
            let (m, v, factor) = (stats.mean[j], stats.var[j], stats.factor[j]);
            // The constant-column rule is scale invariant; it is evaluated on the (possibly
            // rescaled) moments so that it cannot overflow.
            let constant = v <= n * eps * v + (n * m * eps).powi(2);
            mean[j] = F::cast(m * factor);
            var[j] = F::cast(v * factor * factor);
            if !constant {
                scale[j] = F::cast(v.sqrt() * factor);
            }
        }
        FittedStandardScaler {
            params: self.clone(),
            mean,
            var,
            scale,
            n_samples_seen: n,
        }
    }
}

impl crate::Estimator for StandardScaler {
    /// Every setting is valid; kept for the estimator pattern.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for StandardScaler {
    type Model = FittedStandardScaler<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "StandardScaler::fit")?;
        Ok(self.fit_inner(x, None))
    }
}

impl<F: Float> FitUnsupervisedWeighted<F> for StandardScaler {
    /// Fits with per-sample weights (`≥ 0`, positive sum): weighted mean and variance with
    /// divisor `Σw` (scikit-learn's `fit(X, sample_weight=w)`).
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedStandardScaler<F>> {
        self.validate()?;
        check_fit_input(x, 1, "StandardScaler::fit")?;
        if let Some(w) = sample_weight {
            check_sample_weight(w, x.nrows())?;
        }
        Ok(self.fit_inner(x, sample_weight.map(|w| w.view())))
    }
}

/// A fitted [`StandardScaler`]: the training mean, variance and scale of every feature.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedStandardScaler<F> {
    params: StandardScaler,
    mean: Array1<F>,
    var: Array1<F>,
    scale: Array1<F>,
    n_samples_seen: f64,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedStandardScaler<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedStandardScaler<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &StandardScaler {
        &self.params
    }
    /// Training mean of each feature (computed even when `with_mean = false`).
    pub fn mean(&self) -> &Array1<F> {
        &self.mean
    }
    /// Training variance (`ddof = 0`) of each feature.
    pub fn var(&self) -> &Array1<F> {
        &self.var
    }
    /// The divisor of each feature: `σ`, or 1 for constant features (all ones when
    /// `with_std = false`, which scikit-learn reports as `None`).
    pub fn scale(&self) -> &Array1<F> {
        &self.scale
    }
    /// Number of training rows (the sum of the weights for weighted fits).
    pub fn n_samples_seen(&self) -> f64 {
        self.n_samples_seen
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.mean.len()
    }

    fn shift_and_scale(&self) -> (Array1<F>, Array1<F>) {
        let d = self.n_features();
        let shift = if self.params.with_mean {
            self.mean.clone()
        } else {
            Array1::zeros(d)
        };
        let scale = if self.params.with_std {
            self.scale.clone()
        } else {
            Array1::ones(d)
        };
        (shift, scale)
    }
}

impl<F: Float> Transform<F> for FittedStandardScaler<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "StandardScaler::transform")?;
        let (m, s) = self.shift_and_scale();
        let (m, s) = (m.to_vec(), s.to_vec());
        Ok(map_rows(x, x.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = (row[j] - m[j]) / s[j];
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedStandardScaler<F> {
    /// `x = z σ + μ` (each part only if enabled).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "StandardScaler::inverse_transform")?;
        let (m, s) = self.shift_and_scale();
        let (m, s) = (m.to_vec(), s.to_vec());
        Ok(map_rows(z, z.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = row[j] * s[j] + m[j];
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// center

/// Centres `train` and `test` with the column means of `train` only.
///
/// The course notes insist on this: "one should neither use statistics of test set to normalize
/// nor compute the statistics using the whole dataset" (scikit-learn user guide: Common
/// pitfalls, Data leakage); the mean-centring of PCA (Jolliffe, *Principal Component
/// Analysis*, 2nd ed., Springer (2002)) is the same operation. Returns
/// `(train − μ, test − μ, μ)`; equivalent to `StandardScaler::new().with_std(false)` fitted on
/// `train` and applied to both.
///
/// # Errors
///
/// As [`StandardScaler`]: empty or non-finite `train`, non-finite `test`, or `test` with a
/// different number of columns ([`Error::ShapeMismatch`]).
///
/// # Example
///
/// The course notes' example: heights and weights of three people.
///
/// ```
/// use ndlearn_core::preprocessing::center;
/// use ndlearn_core::ndarray::array;
///
/// let train = array![[170.0f64, 60.0], [180.0, 75.0], [160.0, 50.0]];
/// let test = array![[175.0, 70.0]];
/// let (tc, xc, mean) = center(&train, &test)?;
/// assert_eq!(mean[0], 170.0);
/// assert!((mean[1] - 185.0 / 3.0).abs() < 1e-12);      // "61,66"
/// assert!((tc[[0, 1]] + 5.0 / 3.0).abs() < 1e-12);       // -1.67
/// assert_eq!(xc[[0, 0]], 5.0);                            // uses the training mean
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn center<F: Float>(
    train: &ArrayRef2<F>,
    test: &ArrayRef2<F>,
) -> Result<(Array2<F>, Array2<F>, Array1<F>)> {
    let fitted = StandardScaler::new().with_std(false).fit(train)?;
    check_n_features(test.ncols(), train.ncols(), "center: test columns")?;
    let a = fitted.transform(train)?;
    let b = fitted.transform(test)?;
    Ok((a, b, fitted.mean))
}

// ---------------------------------------------------------------------------------------------
// MinMaxScaler

/// Scales each feature to `feature_range = (lo, hi)`: `x' = (x − min)·s + lo` with
/// `s = (hi − lo)/(max − min)` from the training data (scikit-learn's `MinMaxScaler`).
///
/// A column whose range `max − min` is below `10 ε` (absolute, `ε` of `F`) gets range 1, as
/// scikit-learn's `_handle_zeros_in_scale`, so constant columns map to `lo`. With `clip`, test
/// values outside the training range are clipped to `[lo, hi]`.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `feature_range` | `(0, 1)` | `feature_range` | finite, `lo < hi` |
/// | `clip` | `false` | `clip` | |
///
/// `O(n d)`. Errors as [`StandardScaler`], plus [`Error::InvalidParam`] for a bad range.
///
/// ```
/// use ndlearn_core::preprocessing::MinMaxScaler;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let s = MinMaxScaler::default().feature_range(-1.0, 1.0).fit(&array![[0.0], [4.0]])?;
/// assert_eq!(s.transform(&array![[1.0], [6.0]])?, array![[-0.5], [2.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MinMaxScaler {
    /// Target range `(lo, hi)`.
    pub feature_range: (f64, f64),
    /// Clip transformed values to the target range.
    pub clip: bool,
}

impl Default for MinMaxScaler {
    fn default() -> Self {
        Self {
            feature_range: (0.0, 1.0),
            clip: false,
        }
    }
}

impl MinMaxScaler {
    /// Sets the target range.
    #[must_use]
    pub fn feature_range(mut self, lo: f64, hi: f64) -> Self {
        self.feature_range = (lo, hi);
        self
    }
    crate::setters! {
        /// Sets `clip`.
        clip: bool,
    }
}

impl crate::Estimator for MinMaxScaler {
    /// Requires a finite range with `lo < hi`.
    fn validate(&self) -> Result<()> {
        let (lo, hi) = self.feature_range;
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(Error::invalid_param(
                "feature_range",
                format!("needs finite lo < hi, got ({lo}, {hi})"),
            ));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for MinMaxScaler {
    type Model = FittedMinMaxScaler<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "MinMaxScaler::fit")?;
        let (lo, hi) = column_min_max(x);
        let (a, b) = self.feature_range;
        let width = F::cast(b - a);
        let data_min = Array1::from(lo);
        let data_max = Array1::from(hi);
        let data_range = &data_max - &data_min;
        let scale = data_range.mapv(|r| width / handle_zero_scale(r));
        let min = Array1::from_shape_fn(data_min.len(), |j| F::cast(a) - data_min[j] * scale[j]);
        Ok(FittedMinMaxScaler {
            params: self.clone(),
            data_min,
            data_max,
            scale,
            min,
        })
    }
}

/// A fitted [`MinMaxScaler`]: `x' = x·scale + min`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMinMaxScaler<F> {
    params: MinMaxScaler,
    data_min: Array1<F>,
    data_max: Array1<F>,
    scale: Array1<F>,
    min: Array1<F>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedMinMaxScaler<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedMinMaxScaler<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &MinMaxScaler {
        &self.params
    }
    /// Training minimum of each feature.
    pub fn data_min(&self) -> &Array1<F> {
        &self.data_min
    }
    /// Training maximum of each feature.
    pub fn data_max(&self) -> &Array1<F> {
        &self.data_max
    }
    /// Multiplier of each feature (scikit-learn's `scale_`).
    pub fn scale(&self) -> &Array1<F> {
        &self.scale
    }
    /// Offset of each feature (scikit-learn's `min_`).
    pub fn min(&self) -> &Array1<F> {
        &self.min
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.scale.len()
    }
}

impl<F: Float> Transform<F> for FittedMinMaxScaler<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "MinMaxScaler::transform")?;
        let (s, m) = (self.scale.to_vec(), self.min.to_vec());
        let (lo, hi) = (
            F::cast(self.params.feature_range.0),
            F::cast(self.params.feature_range.1),
        );
        let clip = self.params.clip;
        Ok(map_rows(x, x.ncols(), |row, out| {
            for j in 0..row.len() {
                let v = row[j] * s[j] + m[j];
                out[j] = if clip { v.max(lo).min(hi) } else { v };
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedMinMaxScaler<F> {
    /// `x = (x' − min) / scale`.
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "MinMaxScaler::inverse_transform")?;
        let (s, m) = (self.scale.to_vec(), self.min.to_vec());
        Ok(map_rows(z, z.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = (row[j] - m[j]) / s[j];
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// MaxAbsScaler

/// Divides each feature by its largest training `|x|`, mapping it into `[−1, 1]` without
/// shifting (zeros stay zeros) — scikit-learn's `MaxAbsScaler`. A maximum below `10 ε` gives
/// scale 1. `O(n d)`; errors as [`StandardScaler`].
///
/// ```
/// use ndlearn_core::preprocessing::MaxAbsScaler;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let s = MaxAbsScaler::default().fit(&array![[-4.0, 0.0], [2.0, 0.0]])?;
/// assert_eq!(s.transform(&array![[1.0, 3.0]])?, array![[0.25, 3.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MaxAbsScaler {}

impl MaxAbsScaler {
    /// The scaler (it has no hyperparameters).
    pub fn new() -> Self {
        Self {}
    }
}

impl crate::Estimator for MaxAbsScaler {
    /// Nothing to check; kept for the estimator pattern.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for MaxAbsScaler {
    type Model = FittedMaxAbsScaler<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        check_fit_input(x, 1, "MaxAbsScaler::fit")?;
        let max_abs = Array1::from(column_max_abs(x));
        let scale = max_abs.mapv(handle_zero_scale);
        Ok(FittedMaxAbsScaler { max_abs, scale })
    }
}

/// A fitted [`MaxAbsScaler`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMaxAbsScaler<F> {
    max_abs: Array1<F>,
    scale: Array1<F>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedMaxAbsScaler<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedMaxAbsScaler<F> {
    /// Largest training `|x|` of each feature.
    pub fn max_abs(&self) -> &Array1<F> {
        &self.max_abs
    }
    /// The divisor of each feature (`max_abs`, or 1 when it is below `10 ε`).
    pub fn scale(&self) -> &Array1<F> {
        &self.scale
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.scale.len()
    }
}

impl<F: Float> Transform<F> for FittedMaxAbsScaler<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "MaxAbsScaler::transform")?;
        let s = self.scale.to_vec();
        Ok(map_rows(x, x.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = row[j] / s[j];
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedMaxAbsScaler<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "MaxAbsScaler::inverse_transform")?;
        let s = self.scale.to_vec();
        Ok(map_rows(z, z.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = row[j] * s[j];
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// Normalizer

/// The row norm a [`Normalizer`] divides by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Norm {
    /// `Σ |xⱼ|`.
    L1,
    /// `√Σ xⱼ²` (the default).
    #[default]
    L2,
    /// `max |xⱼ|`.
    Max,
}

/// The norm of one row, computed without overflow or underflow (`L2` rescales by the largest
/// `|x|` first; the result agrees with the plain formula to rounding whenever that one is finite
/// and non-zero).
pub(crate) fn row_norm<F: Float>(row: &[F], norm: Norm) -> F {
    match norm {
        Norm::L1 => row.iter().fold(F::zero(), |a, v| a + v.abs()),
        Norm::Max => row.iter().fold(F::zero(), |a, v| a.max(v.abs())),
        Norm::L2 => {
            let ss = row.iter().fold(F::zero(), |a, v| a + *v * *v);
            if ss.is_finite() && ss >= F::min_positive_value() {
                return ss.sqrt();
            }
            let m = row.iter().fold(F::zero(), |a, v| a.max(v.abs()));
            if m == F::zero() {
                return F::zero();
            }
            let ss = row.iter().fold(F::zero(), |a, v| {
                let t = *v / m;
                a + t * t
            });
            ss.sqrt() * m
        }
    }
}

/// Scales each *row* to unit norm (`l1`, `l2` or `max`): scikit-learn's `Normalizer` /
/// `normalize`. Stateless: `fit` only records the number of features (checked at transform).
/// A row whose norm is below `10 ε` is left unchanged (scikit-learn's rule, so zero rows stay
/// zero). There is no inverse (the norms are not kept). `O(n d)`.
///
/// ```
/// use ndlearn_core::preprocessing::{Norm, Normalizer};
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[3.0, 4.0], [0.0, 0.0]];
/// let z = Normalizer::new(Norm::L2).fit(&x)?.transform(&x)?;
/// assert_eq!(z, array![[0.6, 0.8], [0.0, 0.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Normalizer {
    /// Which norm (default `L2`).
    pub norm: Norm,
}

impl Normalizer {
    /// A normalizer for `norm`.
    pub fn new(norm: Norm) -> Self {
        Self { norm }
    }
}

impl crate::Estimator for Normalizer {
    /// Nothing to check; kept for the estimator pattern.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for Normalizer {
    type Model = FittedNormalizer;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        check_fit_input(x, 1, "Normalizer::fit")?;
        Ok(FittedNormalizer {
            norm: self.norm,
            n_features: x.ncols(),
        })
    }
}

/// A fitted [`Normalizer`] (the norm and the feature count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedNormalizer {
    norm: Norm,
    n_features: usize,
}

impl crate::NFeaturesIn for FittedNormalizer {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl FittedNormalizer {
    /// The norm.
    pub fn norm(&self) -> Norm {
        self.norm
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> Transform<F> for FittedNormalizer {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features, "Normalizer::transform")?;
        let norm = self.norm;
        Ok(map_rows(x, x.ncols(), |row, out| {
            let r = handle_zero_scale(row_norm(row, norm));
            for j in 0..row.len() {
                out[j] = row[j] / r;
            }
        }))
    }
}

impl<F: Float> CheckModel for FittedStandardScaler<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedStandardScaler");
        c.params(&self.params)?;
        let d = self.mean.len();
        c.at_least("mean", d, 1)?;
        c.len("var", self.var.len(), d)?;
        c.len("scale", self.scale.len(), d)?;
        c.finite("mean", &self.mean)?;
        c.non_negative("var", &self.var)?;
        c.that(
            self.scale.iter().all(|s| s.is_finite() && *s > F::zero()),
            || "`scale` must be finite and positive".into(),
        )?;
        c.finite_value("n_samples_seen", self.n_samples_seen)
    }
}

impl<F: Float> CheckModel for FittedMinMaxScaler<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMinMaxScaler");
        c.params(&self.params)?;
        let d = self.data_min.len();
        c.at_least("data_min", d, 1)?;
        for (field, a) in [
            ("data_max", &self.data_max),
            ("scale", &self.scale),
            ("min", &self.min),
        ] {
            c.len(field, a.len(), d)?;
            c.finite(field, a)?;
        }
        c.finite("data_min", &self.data_min)
    }
}

impl<F: Float> CheckModel for FittedMaxAbsScaler<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMaxAbsScaler");
        c.at_least("max_abs", self.max_abs.len(), 1)?;
        c.len("scale", self.scale.len(), self.max_abs.len())?;
        c.non_negative("max_abs", &self.max_abs)?;
        c.that(
            self.scale.iter().all(|s| s.is_finite() && *s > F::zero()),
            || "`scale` must be finite and positive".into(),
        )
    }
}

impl CheckModel for FittedNormalizer {
    fn check_model(&self) -> Result<()> {
        ModelCheck::new("FittedNormalizer").at_least("n_features", self.n_features, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn standard_scaler_hand_case() {
        // Column 0: 1, 2, 3 -> mean 2, var 2/3. Column 1 constant -> scale 1.
        let x: Array2<f64> = array![[1.0, 10.0], [2.0, 10.0], [3.0, 10.0]];
        let f = StandardScaler::default().fit(&x).expect("fit");
        assert_eq!(f.mean(), &array![2.0, 10.0]);
        assert!((f.var()[0] - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(f.scale()[1], 1.0);
        let z = f.transform(&x).expect("transform");
        assert!(z.sum_axis(ndarray::Axis(0)).iter().all(|v| v.abs() < 1e-15));
        assert_eq!(z.column(1).to_vec(), vec![0.0; 3]);
        // Feature count checked at transform.
        assert!(matches!(
            f.transform(&array![[1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            f.transform(&array![[1.0, f64::NAN]]),
            Err(Error::NonFinite { row: 0, col: 1, .. })
        ));
    }

    #[test]
    fn standard_scaler_flags_and_weights() {
        let x: Array2<f64> = array![[1.0], [3.0]];
        let f = StandardScaler::new().with_mean(false).fit(&x).expect("fit");
        // mean 2, std 1: divide only.
        assert_eq!(f.transform(&x).expect("t"), array![[1.0], [3.0]]);
        let f = StandardScaler::new().with_std(false).fit(&x).expect("fit");
        assert_eq!(f.transform(&x).expect("t"), array![[-1.0], [1.0]]);
        // Weights 3:1 on 1 and 3: mean 1.5, var (3·0.25 + 2.25)/4 = 0.75.
        let f = StandardScaler::new()
            .fit_weighted(&x, Some(&array![3.0, 1.0]))
            .expect("fit");
        assert_eq!(f.mean()[0], 1.5);
        assert!((f.var()[0] - 0.75).abs() < 1e-15);
        assert_eq!(f.n_samples_seen(), 4.0);
        assert!(
            StandardScaler::new()
                .fit_weighted(&x, Some(&array![-1.0, 1.0]))
                .is_err()
        );
        assert!(
            StandardScaler::new()
                .fit_weighted(&x, Some(&array![1.0]))
                .is_err()
        );
        let empty = Array2::<f64>::zeros((0, 2));
        assert!(matches!(
            StandardScaler::new().fit(&empty),
            Err(Error::TooFewSamples { .. })
        ));
    }

    #[test]
    fn standard_scaler_survives_extreme_scales() {
        for s in [1e300, 1e-300] {
            let x: Array2<f64> = array![[1.0 * s], [2.0 * s], [4.0 * s]];
            let f = StandardScaler::default().fit(&x).expect("fit");
            let z = f.transform(&x).expect("t");
            // Same as the unscaled data: mean 7/3, var 14/9.
            let want = (1.0 - 7.0 / 3.0) / (14.0f64 / 9.0).sqrt();
            assert!((z[[0, 0]] - want).abs() < 1e-12, "{s}: {z}");
        }
    }

    #[test]
    fn center_uses_training_statistics() {
        let train: Array2<f64> = array![[170.0, 60.0], [180.0, 75.0], [160.0, 50.0]];
        let (tc, xc, m) = center(&train, &array![[170.0, 60.0]]).expect("center");
        // The course notes' example: [[0,-1.67],[10,13.33],[-10,-11.67]].
        let want: Array2<f64> = array![[0.0, -5.0 / 3.0], [10.0, 40.0 / 3.0], [-10.0, -35.0 / 3.0]];
        assert!((&tc - &want).iter().all(|v| v.abs() < 1e-12));
        assert_eq!(xc[[0, 0]], 0.0);
        assert!((m[1] - 185.0 / 3.0).abs() < 1e-12);
        assert!(center(&train, &array![[1.0]]).is_err());
    }

    #[test]
    fn minmax_and_maxabs() {
        let x: Array2<f64> = array![[0.0, 5.0], [10.0, 5.0]];
        let f = MinMaxScaler::default().fit(&x).expect("fit");
        // Constant column: range 1, maps to lo - 5·1 + 5 = 0.
        assert_eq!(f.transform(&x).expect("t"), array![[0.0, 0.0], [1.0, 0.0]]);
        let f = MinMaxScaler::default().clip(true).fit(&x).expect("fit");
        assert_eq!(
            f.transform(&array![[20.0, 5.0]]).expect("t"),
            array![[1.0, 0.0]]
        );
        assert!(
            MinMaxScaler::default()
                .feature_range(1.0, 1.0)
                .validate()
                .is_err()
        );
        assert!(
            MinMaxScaler::default()
                .feature_range(0.0, f64::NAN)
                .fit(&x)
                .is_err()
        );
        let f = MaxAbsScaler::new().fit(&x).expect("fit");
        assert_eq!(f.scale(), &array![10.0, 5.0]);
        let back = f
            .inverse_transform(&f.transform(&x).expect("t"))
            .expect("inverse");
        assert_eq!(back, x);
    }

    #[test]
    fn normalizer_norms() {
        let x: Array2<f64> = array![[1.0, -3.0], [0.0, 0.0]];
        let l1 = Normalizer::new(Norm::L1).fit(&x).expect("fit");
        assert_eq!(
            l1.transform(&x).expect("t"),
            array![[0.25, -0.75], [0.0, 0.0]]
        );
        let mx = Normalizer::new(Norm::Max).fit(&x).expect("fit");
        assert_eq!(
            mx.transform(&x).expect("t"),
            array![[1.0 / 3.0, -1.0], [0.0, 0.0]]
        );
        // Huge rows do not overflow: (3, 4)·1e300 -> (0.6, 0.8).
        let big: Array2<f64> = array![[3e300, 4e300]];
        let z = Normalizer::default()
            .fit(&big)
            .expect("fit")
            .transform(&big)
            .expect("t");
        assert!((z[[0, 0]] - 0.6).abs() < 1e-15 && (z[[0, 1]] - 0.8).abs() < 1e-15);
        assert!(matches!(
            l1.transform(&array![[1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
