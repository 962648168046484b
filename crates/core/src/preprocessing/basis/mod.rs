//! Univariate basis expansions and the course notes' custom embeddings.
//!
//! Each basis maps one value `x` to a row of basis functions. The free functions
//! ([`vandermonde`], [`gaussian_rbf`], [`fourier`]) expand a 1-D input; the transformers
//! ([`VandermondeFeatures`], [`GaussianRbfFeatures`], [`FourierFeatures`]) apply the basis to every
//! column of a matrix and concatenate the blocks in column order (`[1]`, block of column 0, block
//! of column 1, …), with at most one leading bias column. [`SquareEmbedding`] and
//! [`RadiusEmbedding`] are the course notes' explicit feature maps.

mod rbf;

pub use rbf::{FittedGaussianRbfFeatures, GaussianRbfFeatures, RbfCentres, RbfWidth, gaussian_rbf};

use crate::Estimator;
use ndarray::{Array2, ArrayRef1, ArrayRef2};

use super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::{check_fit_input, check_positive};
use crate::{Error, Float, Result};

/// Largest `|x|` of a matrix.
fn max_abs_2d<F: Float>(x: &ArrayRef2<F>) -> F {
    match x.as_slice_memory_order() {
        Some(s) => crate::validate::max_abs(s),
        None => x.iter().fold(F::zero(), |a, v| a.max(v.abs())),
    }
}

/// Errors if `factor · max|x|^power` overflows `F`.
fn check_power_bound<F: Float>(m: F, power: usize, factor: usize, what: &str) -> Result<()> {
    let p = i32::try_from(power).unwrap_or(i32::MAX);
    if (m.powi(p) * F::cast(factor.max(1))).is_finite() {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "x",
            format!(
                "the largest |x| is {m:e}, so {what} overflows {}; rescale the features first",
                F::NAME
            ),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Vandermonde

/// The Vandermonde matrix of a 1-D input: rows `[1, xᵢ, xᵢ², …, xᵢᵖ]` (without the 1 when
/// `include_bias = false`) — numpy's `vander(x, p + 1, increasing=True)`.
///
/// The course notes' polynomial-regression design matrix (Bishop, *Pattern Recognition and
/// Machine Learning* (2006), §1.1, §3.1). Note the corrected invertibility condition (catalog
/// erratum E15): for `N > p + 1` rows, `XᵀX` is invertible iff at least `p + 1` of the `xᵢ` are
/// distinct. Powers are built by repeated multiplication (`xᵏ = xᵏ⁻¹·x`), as numpy does.
///
/// # Errors
///
/// [`Error::NonFinite`] for NaN/∞ input; [`Error::InvalidParam`] when `max|x|ᵖ` overflows or
/// the output would be empty (`p = 0` without bias).
///
/// ```
/// use ndlearn_core::preprocessing::vandermonde;
/// use ndlearn_core::ndarray::array;
///
/// let v = vandermonde(&array![2.0, 3.0], 3, true)?;
/// assert_eq!(v, array![[1.0, 2.0, 4.0, 8.0], [1.0, 3.0, 9.0, 27.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn vandermonde<F: Float>(
    x: &ArrayRef1<F>,
    degree: usize,
    include_bias: bool,
) -> Result<Array2<F>> {
    let col = x.to_owned().insert_axis(ndarray::Axis(1));
    let fitted = VandermondeFeatures::new(degree)
        .include_bias(include_bias)
        .fit_with_zero_rows(&col)?;
    fitted.transform(&col)
}

/// Per-column polynomial basis `[1, x_j, x_j², …, x_jᵖ]` for every feature `j` (one shared
/// bias column): the [`vandermonde`] matrix of each column, side by side. Unlike
/// [`super::PolynomialFeatures`] there are no cross terms: `1 + d·p` columns instead of
/// `C(d + p, p)`. Stateless (fit records the feature count). Errors as [`vandermonde`].
///
/// | field | default | meaning |
/// |---|---|---|
/// | `degree` | 3 | largest power `p` |
/// | `include_bias` | `true` | leading column of ones |
///
/// ```
/// use ndlearn_core::preprocessing::VandermondeFeatures;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[2.0, -1.0]];
/// let v = VandermondeFeatures::new(2).fit(&x)?;
/// assert_eq!(v.transform(&x)?, array![[1.0, 2.0, 4.0, -1.0, 1.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct VandermondeFeatures {
    /// Largest power.
    pub degree: usize,
    /// Leading column of ones.
    pub include_bias: bool,
}

impl Default for VandermondeFeatures {
    fn default() -> Self {
        Self {
            degree: 3,
            include_bias: true,
        }
    }
}

impl VandermondeFeatures {
    /// Degree `degree`, with bias.
    pub fn new(degree: usize) -> Self {
        Self {
            degree,
            include_bias: true,
        }
    }
    crate::setters! {
        /// Sets `include_bias`.
        include_bias: bool,
    }

    fn fit_with_zero_rows<F: Float>(&self, x: &ArrayRef2<F>) -> Result<FittedVandermondeFeatures> {
        self.validate()?;
        check_fitted_input(x, x.ncols(), "vandermonde")?;
        check_power_bound(max_abs_2d(x), self.degree, 1, "x^degree")?;
        Ok(FittedVandermondeFeatures {
            params: *self,
            n_features: x.ncols(),
        })
    }
}

impl crate::Estimator for VandermondeFeatures {
    /// Requires a non-empty output.
    fn validate(&self) -> Result<()> {
        if self.degree == 0 && !self.include_bias {
            return Err(Error::invalid_param(
                "degree",
                "degree 0 without include_bias gives an empty output",
            ));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for VandermondeFeatures {
    type Model = FittedVandermondeFeatures;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        check_fit_input(x, 1, "VandermondeFeatures::fit")?;
        self.fit_with_zero_rows(x)
    }
}

/// A fitted [`VandermondeFeatures`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedVandermondeFeatures {
    params: VandermondeFeatures,
    n_features: usize,
}

impl FittedVandermondeFeatures {
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
    /// Number of output columns, `bias + d · degree`.
    pub fn n_features_out(&self) -> usize {
        usize::from(self.params.include_bias) + self.n_features * self.params.degree
    }
}

impl<F: Float> Transform<F> for FittedVandermondeFeatures {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features, "VandermondeFeatures::transform")?;
        check_power_bound(max_abs_2d(x), self.params.degree, 1, "x^degree")?;
        let p = self.params.degree;
        let bias = usize::from(self.params.include_bias);
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            if bias == 1 {
                out[0] = F::one();
            }
            for (j, &v) in row.iter().enumerate() {
                let block = &mut out[bias + j * p..bias + (j + 1) * p];
                let mut acc = v;
                for (k, o) in block.iter_mut().enumerate() {
                    if k > 0 {
                        acc *= v;
                    }
                    *o = acc;
                }
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// Fourier

/// The base angular frequency of a [`FourierFeatures`] basis.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Frequency {
    /// `ω` itself (finite, `> 0`).
    Omega(f64),
    /// The period `T > 0`: `ω = 2π/T`.
    Period(f64),
}

impl Frequency {
    fn omega(self) -> Result<f64> {
        match self {
            Frequency::Omega(w) => check_positive("omega", w).map(|()| w),
            Frequency::Period(t) => {
                check_positive("period", t).map(|()| 2.0 * std::f64::consts::PI / t)
            }
        }
    }
}

/// The Fourier basis of a 1-D input: rows `[1, sin ωx, cos ωx, sin 2ωx, cos 2ωx, …, sin Kωx,
/// cos Kωx]` (without the 1 when `include_bias = false`), the argument formed as `(k ω)·x`.
///
/// The course notes (and Bishop, *Pattern Recognition and Machine Learning* (2006), §3.1): a
/// natural basis only for periodic functions, with cheap coefficients by orthogonality.
///
/// ```
/// use ndlearn_core::preprocessing::{Frequency, fourier};
/// use ndlearn_core::ndarray::array;
///
/// let f = fourier(&array![0.25f64], 1, Frequency::Period(1.0), true)?; // ωx = π/2
/// assert_eq!(f[[0, 0]], 1.0);
/// assert!((f[[0, 1]] - 1.0).abs() < 1e-15 && f[[0, 2]].abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn fourier<F: Float>(
    x: &ArrayRef1<F>,
    n_harmonics: usize,
    frequency: Frequency,
    include_bias: bool,
) -> Result<Array2<F>> {
    let col = x.to_owned().insert_axis(ndarray::Axis(1));
    let est = FourierFeatures {
        n_harmonics,
        frequency,
        include_bias,
    };
    est.validate()?;
    check_fitted_input(&col, 1, "fourier")?;
    let fitted = FittedFourierFeatures {
        params: est,
        omega: est.frequency.omega()?,
        n_features: 1,
    };
    fitted.transform(&col)
}

/// Fourier features of every column (blocks `sin kωx_j, cos kωx_j`, `k = 1..K`, in column order,
/// after an optional column of ones). Stateless (fit records the feature count); the frequency
/// is a hyperparameter, not estimated.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `n_harmonics` | 3 | `K ≥ 1` |
/// | `frequency` | `Omega(1.0)` | base frequency |
/// | `include_bias` | `true` | leading column of ones (the constant function) |
///
/// `O(n d K)`.
///
/// ```
/// use ndlearn_core::preprocessing::{FourierFeatures, Frequency};
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let f = FourierFeatures::new(2).frequency(Frequency::Omega(1.0)).include_bias(false).fit(&array![[0.0]])?;
/// assert_eq!(f.transform(&array![[0.0]])?, array![[0.0, 1.0, 0.0, 1.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct FourierFeatures {
    /// Number of harmonics `K`.
    pub n_harmonics: usize,
    /// Base frequency.
    pub frequency: Frequency,
    /// Leading column of ones.
    pub include_bias: bool,
}

impl Default for FourierFeatures {
    fn default() -> Self {
        Self {
            n_harmonics: 3,
            frequency: Frequency::Omega(1.0),
            include_bias: true,
        }
    }
}

impl FourierFeatures {
    /// `n_harmonics` harmonics, `ω = 1`, with bias.
    pub fn new(n_harmonics: usize) -> Self {
        Self {
            n_harmonics,
            ..Self::default()
        }
    }
    crate::setters! {
        /// Sets `frequency`.
        frequency: Frequency,
        /// Sets `include_bias`.
        include_bias: bool,
    }
}

impl crate::Estimator for FourierFeatures {
    /// Requires `K ≥ 1` and a positive finite frequency or period.
    fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("n_harmonics", self.n_harmonics, 1)?;
        self.frequency.omega().map(|_| ())
    }
}

impl<F: Float> FitUnsupervised<F> for FourierFeatures {
    type Model = FittedFourierFeatures;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "FourierFeatures::fit")?;
        Ok(FittedFourierFeatures {
            params: *self,
            omega: self.frequency.omega()?,
            n_features: x.ncols(),
        })
    }
}

/// A fitted [`FourierFeatures`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedFourierFeatures {
    params: FourierFeatures,
    omega: f64,
    n_features: usize,
}

impl FittedFourierFeatures {
    /// The angular frequency `ω`.
    pub fn omega(&self) -> f64 {
        self.omega
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
    /// Number of output columns, `bias + 2 K d`.
    pub fn n_features_out(&self) -> usize {
        usize::from(self.params.include_bias) + 2 * self.params.n_harmonics * self.n_features
    }
}

impl<F: Float> Transform<F> for FittedFourierFeatures {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features, "FourierFeatures::transform")?;
        let bias = usize::from(self.params.include_bias);
        let kw: Vec<F> = (1..=self.params.n_harmonics)
            .map(|k| F::cast(k as f64 * self.omega))
            .collect();
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            let mut c = 0;
            if bias == 1 {
                out[0] = F::one();
                c = 1;
            }
            for &v in row {
                for &w in &kw {
                    let (s, co) = (w * v).sin_cos();
                    out[c] = s;
                    out[c + 1] = co;
                    c += 2;
                }
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// Custom embeddings

/// The course notes' embedding `φ(x) = (x₁, …, x_d, x₁², …, x_d²)` (a nonlinear transform as in
/// Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data* (2012), §3.4): a hyperplane in the
/// `2d`-dimensional space is a quadric `b + ⟨w, x⟩ + xᵀDx = 0` with diagonal `D` in the
/// original coordinates. Stateless; [`Error::InvalidParam`] when `x²` overflows.
///
/// ```
/// use ndlearn_core::preprocessing::SquareEmbedding;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[2.0, -3.0]];
/// assert_eq!(SquareEmbedding::new().fit(&x)?.transform(&x)?, array![[2.0, -3.0, 4.0, 9.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SquareEmbedding {}

/// The course notes' radius embedding `φ(x₁, x₂) = (x₁, x₂, x₁² + x₂²)` (cf. Abu-Mostafa et
/// al., *Learning from Data* (2012), §3.4), generalised to `d` features as
/// `(x₁, …, x_d, Σⱼ xⱼ²)`: the hyperplane `b + (x₁² + x₂²) = 0` with `b ≤ 0` is a circle in the
/// original plane. Stateless; [`Error::InvalidParam`] when `d · max|x|²` overflows.
///
/// ```
/// use ndlearn_core::preprocessing::RadiusEmbedding;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[3.0, 4.0]];
/// assert_eq!(RadiusEmbedding::new().fit(&x)?.transform(&x)?, array![[3.0, 4.0, 25.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RadiusEmbedding {}

/// A fitted [`SquareEmbedding`] or [`RadiusEmbedding`] (the feature count and which map).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedEmbedding {
    radius: bool,
    n_features: usize,
}

impl SquareEmbedding {
    /// The embedding.
    pub fn new() -> Self {
        Self {}
    }
}

impl RadiusEmbedding {
    /// The embedding.
    pub fn new() -> Self {
        Self {}
    }
}

fn fit_embedding<F: Float>(x: &ArrayRef2<F>, radius: bool) -> Result<FittedEmbedding> {
    check_fit_input(x, 1, "embedding fit")?;
    let f = FittedEmbedding {
        radius,
        n_features: x.ncols(),
    };
    f.check_bound(x)?;
    Ok(f)
}

impl<F: Float> FitUnsupervised<F> for SquareEmbedding {
    type Model = FittedEmbedding;
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        fit_embedding(x, false)
    }
}

impl<F: Float> FitUnsupervised<F> for RadiusEmbedding {
    type Model = FittedEmbedding;
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        fit_embedding(x, true)
    }
}

impl FittedEmbedding {
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
    /// Number of output columns (`2d` for the square embedding, `d + 1` for the radius).
    pub fn n_features_out(&self) -> usize {
        if self.radius {
            self.n_features + 1
        } else {
            2 * self.n_features
        }
    }
    fn check_bound<F: Float>(&self, x: &ArrayRef2<F>) -> Result<()> {
        let factor = if self.radius { self.n_features } else { 1 };
        check_power_bound(max_abs_2d(x), 2, factor, "the squared features")
    }
}

impl<F: Float> Transform<F> for FittedEmbedding {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features, "embedding transform")?;
        self.check_bound(x)?;
        let d = self.n_features;
        let radius = self.radius;
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            out[..d].copy_from_slice(row);
            if radius {
                out[d] = row.iter().fold(F::zero(), |a, v| a + *v * *v);
            } else {
                for (o, v) in out[d..].iter_mut().zip(row) {
                    *o = *v * *v;
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn vandermonde_by_hand() {
        let v = vandermonde(&array![2.0f64, -1.0], 2, false).expect("v");
        assert_eq!(v, array![[2.0, 4.0], [-1.0, 1.0]]);
        assert!(vandermonde(&array![f64::NAN], 2, true).is_err());
        assert!(vandermonde(&array![1e200f64], 2, true).is_err());
        assert!(vandermonde(&array![1.0f64], 0, false).is_err());
        // Zero rows are fine for the free function.
        assert_eq!(
            vandermonde(&ndarray::Array1::<f64>::zeros(0), 2, true)
                .expect("v")
                .dim(),
            (0, 3)
        );
        let x: Array2<f64> = array![[1.0, 2.0]];
        let f = VandermondeFeatures::new(3)
            .include_bias(false)
            .fit(&x)
            .expect("fit");
        assert_eq!(
            f.transform(&x).expect("t"),
            array![[1.0, 1.0, 1.0, 2.0, 4.0, 8.0]]
        );
        assert!(f.transform(&array![[1.0]]).is_err());
    }

    #[test]
    fn fourier_and_embeddings() {
        let f = fourier(&array![0.5f64], 2, Frequency::Period(2.0), false).expect("f");
        // ω = π: sin(π/2) = 1, cos(π/2) ≈ 0, sin(π) ≈ 0, cos(π) = -1.
        assert!((f[[0, 0]] - 1.0).abs() < 1e-15 && (f[[0, 3]] + 1.0).abs() < 1e-15);
        assert!(FourierFeatures::new(0).validate().is_err());
        assert!(
            FourierFeatures::new(1)
                .frequency(Frequency::Period(0.0))
                .validate()
                .is_err()
        );
        let x: Array2<f64> = array![[1.0, 2.0], [-1.0, 0.0]];
        let sq = SquareEmbedding::new().fit(&x).expect("fit");
        assert_eq!(
            sq.transform(&x).expect("t"),
            array![[1.0, 2.0, 1.0, 4.0], [-1.0, 0.0, 1.0, 0.0]]
        );
        let r = RadiusEmbedding::new().fit(&x).expect("fit");
        assert_eq!(
            r.transform(&x).expect("t"),
            array![[1.0, 2.0, 5.0], [-1.0, 0.0, 1.0]]
        );
        assert!(
            RadiusEmbedding::new()
                .fit(&array![[1e160f64, 1e160]])
                .is_err()
        );
        assert!(r.transform(&array![[1.0]]).is_err());
    }
}
