//! Gaussian radial basis functions: [`gaussian_rbf`] (1-D) and [`GaussianRbfFeatures`]
//! (per column).

use crate::Estimator;
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

use super::super::moments::column_min_max;
use super::super::quantile::{QuantileMethod, linspace, quantile_sorted, sort_finite};
use super::super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::{check_finite_1d, check_fit_input, check_min_samples, check_positive};
use crate::{Error, Float, Result, par};

/// Centres of a [`GaussianRbfFeatures`] basis.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RbfCentres {
    /// The same centres for every feature (finite, at least one).
    Given(Vec<f64>),
    /// `k` evenly spaced centres from each feature's training minimum to its maximum (both
    /// included; `k = 1` gives the midpoint).
    EvenlySpaced(usize),
    /// `k` centres at the quantiles `(i + ½)/k`, `i = 0..k`, of each feature (numpy's linear
    /// quantile): the midpoints of `k` equal-probability bins, denser where the data are.
    Quantiles(usize),
}

/// Width of a [`GaussianRbfFeatures`] basis.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RbfWidth {
    /// `φ(x) = exp(−(x − μ)²/(2σ²))` with this `σ > 0` (the course notes' `s`).
    Sigma(f64),
    /// `φ(x) = exp(−γ(x − μ)²)` with this `γ > 0` (the RBF kernel's `γ`; `σ = 1/√(2γ)`).
    Gamma(f64),
    /// `σ = c ·` (mean spacing of the feature's centres) for this factor `c > 0`; with a
    /// single centre, `c ·` (training range); 1 if that is 0.
    SpacingFactor(f64),
}

/// The Gaussian basis functions of a 1-D input: `Φ[i, m] = exp(−(xᵢ − μ_m)²/(2σ²))`.
///
/// The course notes' local basis and RBF features with centres `μ₁..μ_M` and a width as
/// hyperparameters (the Gaussian basis functions of Bishop, *Pattern Recognition and Machine
/// Learning* (2006), §3.1). Computed as
/// `exp(−t²/2)` with `t = (x − μ)/σ`, which cannot overflow to NaN.
///
/// # Errors
///
/// [`Error::NonFinite`] for NaN/∞ in `x` or `centres`; [`Error::InvalidParam`] for no centres
/// or `σ ≤ 0`.
///
/// ```
/// use ndlearn_core::preprocessing::gaussian_rbf;
/// use ndlearn_core::ndarray::array;
///
/// let phi = gaussian_rbf(&array![0.0, 1.0], &array![0.0, 2.0], 1.0)?;
/// assert_eq!(phi[[0, 0]], 1.0);
/// assert!((phi[[1, 1]] - (-0.5f64).exp()).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn gaussian_rbf<F: Float>(
    x: &ArrayRef1<F>,
    centres: &ArrayRef1<F>,
    sigma: f64,
) -> Result<Array2<F>> {
    check_finite_1d(x, "x")?;
    check_finite_1d(centres, "centres")?;
    check_min_samples(centres.len(), 1, "gaussian_rbf centres")?;
    check_positive("sigma", sigma)?;
    let s = F::cast(sigma);
    let half = F::cast(0.5);
    Ok(Array2::from_shape_fn((x.len(), centres.len()), |(i, m)| {
        let t = (x[i] - centres[m]) / s;
        (-half * t * t).exp()
    }))
}

/// Gaussian RBF features of every column: for feature `j` with centres `μ_{j,1..k}` and width
/// `σ_j`, the block `exp(−(x_j − μ_{j,m})²/(2σ_j²))`, `m = 1..k`; blocks in column order, after an
/// optional column of ones.
///
/// Centre selection from data ([`RbfCentres::EvenlySpaced`], [`RbfCentres::Quantiles`]) and the
/// data-driven width ([`RbfWidth::SpacingFactor`]) are deterministic implementation choices (the
/// notes leave centres and width as hyperparameters); no k-means or random choice is involved.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `centres` | `EvenlySpaced(10)` | where the bumps sit |
/// | `width` | `SpacingFactor(1.0)` | their width |
/// | `include_bias` | `false` | leading column of ones |
///
/// Fit `O(n d)` (`Quantiles`: `O(n log n · d)`), transform `O(n d k)`.
///
/// ```
/// use ndlearn_core::preprocessing::{GaussianRbfFeatures, RbfCentres, RbfWidth};
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[0.0], [4.0]];
/// let rbf = GaussianRbfFeatures::default()
///     .centres(RbfCentres::EvenlySpaced(3))      // 0, 2, 4
///     .width(RbfWidth::Sigma(2.0))
///     .fit(&x)?;
/// let z = rbf.transform(&array![[2.0]])?;
/// assert!((z[[0, 0]] - (-0.5f64).exp()).abs() < 1e-15 && z[[0, 1]] == 1.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct GaussianRbfFeatures {
    /// Centre selection.
    pub centres: RbfCentres,
    /// Width.
    pub width: RbfWidth,
    /// Leading column of ones.
    pub include_bias: bool,
}

impl Default for GaussianRbfFeatures {
    fn default() -> Self {
        Self {
            centres: RbfCentres::EvenlySpaced(10),
            width: RbfWidth::SpacingFactor(1.0),
            include_bias: false,
        }
    }
}

impl GaussianRbfFeatures {
    crate::setters! {
        /// Sets `centres`.
        centres: RbfCentres,
        /// Sets `width`.
        width: RbfWidth,
        /// Sets `include_bias`.
        include_bias: bool,
    }
}

impl crate::Estimator for GaussianRbfFeatures {
    /// Requires at least one finite centre and a positive width.
    fn validate(&self) -> Result<()> {
        match &self.centres {
            RbfCentres::Given(c) => {
                if c.is_empty() || c.iter().any(|v| !v.is_finite()) {
                    return Err(Error::invalid_param(
                        "centres",
                        "needs at least one centre, all finite",
                    ));
                }
            }
            RbfCentres::EvenlySpaced(k) | RbfCentres::Quantiles(k) => {
                crate::validate::check_at_least("centres", *k, 1)?;
            }
        }
        match self.width {
            RbfWidth::Sigma(v) => check_positive("sigma", v),
            RbfWidth::Gamma(v) => check_positive("gamma", v),
            RbfWidth::SpacingFactor(v) => check_positive("spacing_factor", v),
        }
    }
}

impl<F: Float> FitUnsupervised<F> for GaussianRbfFeatures {
    type Model = FittedGaussianRbfFeatures<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "GaussianRbfFeatures::fit")?;
        let (lo, hi) = column_min_max(x);
        let per_feature = par::map_tasks(x.ncols(), |j| {
            let (a, b) = (lo[j].to_f64_lossless(), hi[j].to_f64_lossless());
            let c: Vec<f64> = match &self.centres {
                RbfCentres::Given(c) => c.clone(),
                RbfCentres::EvenlySpaced(1) => vec![a + (b - a) * 0.5],
                RbfCentres::EvenlySpaced(k) => linspace(a, b, *k),
                RbfCentres::Quantiles(k) => {
                    let mut v: Vec<f64> = x.column(j).iter().map(|v| v.to_f64_lossless()).collect();
                    sort_finite(&mut v);
                    (0..*k)
                        .map(|i| {
                            quantile_sorted(
                                &v,
                                (i as f64 + 0.5) / *k as f64,
                                QuantileMethod::Linear,
                            )
                        })
                        .collect()
                }
            };
            let sigma = match self.width {
                RbfWidth::Sigma(s) => s,
                RbfWidth::Gamma(g) => 1.0 / (2.0 * g).sqrt(),
                RbfWidth::SpacingFactor(f) => {
                    let (cmin, cmax) = c
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(p, q), &v| {
                            (p.min(v), q.max(v))
                        });
                    let spread = if c.len() > 1 {
                        (cmax - cmin) / (c.len() - 1) as f64
                    } else {
                        b - a
                    };
                    let s = f * spread;
                    if s > 0.0 && s.is_finite() { s } else { 1.0 }
                }
            };
            (
                c.into_iter().map(F::cast).collect::<Vec<F>>(),
                F::cast(sigma),
            )
        });
        let sigma: Array1<F> = per_feature.iter().map(|p| p.1).collect();
        let centres: Vec<Vec<F>> = per_feature.into_iter().map(|p| p.0).collect();
        Ok(FittedGaussianRbfFeatures {
            include_bias: self.include_bias,
            centres,
            sigma,
        })
    }
}

/// A fitted [`GaussianRbfFeatures`]: centres and width of every feature.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedGaussianRbfFeatures<F> {
    include_bias: bool,
    centres: Vec<Vec<F>>,
    sigma: Array1<F>,
}

impl<F: Float> FittedGaussianRbfFeatures<F> {
    /// Centres of each feature.
    pub fn centres(&self) -> &[Vec<F>] {
        &self.centres
    }
    /// Width `σ` of each feature.
    pub fn sigma(&self) -> &Array1<F> {
        &self.sigma
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.centres.len()
    }
    /// Number of output columns.
    pub fn n_features_out(&self) -> usize {
        usize::from(self.include_bias) + self.centres.iter().map(Vec::len).sum::<usize>()
    }
}

impl<F: Float> Transform<F> for FittedGaussianRbfFeatures<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "GaussianRbfFeatures::transform")?;
        let bias = usize::from(self.include_bias);
        let half = F::cast(0.5);
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            let mut c = 0;
            if bias == 1 {
                out[0] = F::one();
                c = 1;
            }
            for (j, &v) in row.iter().enumerate() {
                let s = self.sigma[j];
                for &m in &self.centres[j] {
                    let t = (v - m) / s;
                    out[c] = (-half * t * t).exp();
                    c += 1;
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
    fn rbf_centres_and_widths() {
        let x: Array2<f64> = array![[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [10.0, 5.0]];
        let f = GaussianRbfFeatures::default()
            .centres(RbfCentres::EvenlySpaced(3))
            .fit(&x)
            .expect("fit");
        assert_eq!(f.centres()[0], vec![0.0, 5.0, 10.0]);
        assert_eq!(f.sigma()[0], 5.0);
        // Constant column: spacing 0 -> sigma 1.
        assert_eq!(f.sigma()[1], 1.0);
        let q = GaussianRbfFeatures::default()
            .centres(RbfCentres::Quantiles(2))
            .width(RbfWidth::Gamma(0.5))
            .include_bias(true)
            .fit(&x)
            .expect("fit");
        // Quantiles 0.25, 0.75 (linear): v = 0.75 -> 0.75, v = 2.25 -> 2 + 0.25·8 = 4.
        assert_eq!(q.centres()[0], vec![0.75, 4.0]);
        assert_eq!(q.sigma()[0], 1.0);
        let z = q.transform(&array![[4.0, 5.0]]).expect("t");
        assert_eq!(z.len(), 5);
        assert_eq!(z[[0, 0]], 1.0);
        assert_eq!(z[[0, 2]], 1.0);
        let g = GaussianRbfFeatures::default()
            .centres(RbfCentres::Given(vec![1.0]))
            .width(RbfWidth::Sigma(2.0))
            .fit(&x)
            .expect("fit");
        let z = g.transform(&array![[3.0, 1.0]]).expect("t");
        assert!((z[[0, 0]] - (-0.5f64).exp()).abs() < 1e-15);
        assert_eq!(z[[0, 1]], 1.0);
        for bad in [
            GaussianRbfFeatures::default().centres(RbfCentres::Given(vec![])),
            GaussianRbfFeatures::default().centres(RbfCentres::EvenlySpaced(0)),
            GaussianRbfFeatures::default().width(RbfWidth::Sigma(0.0)),
            GaussianRbfFeatures::default().width(RbfWidth::Gamma(f64::NAN)),
        ] {
            assert!(bad.fit(&x).is_err());
        }
        assert!(gaussian_rbf(&array![1.0f64], &array![1.0], -1.0).is_err());
    }
}
