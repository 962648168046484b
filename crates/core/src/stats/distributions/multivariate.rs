//! Multivariate laws: the multivariate normal and the Dirichlet (named in the course notes as
//! the multidimensional Beta); see Bishop, *Pattern Recognition and Machine Learning*,
//! Springer (2006), §2.2.1, §2.3 and Appendix B.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

use super::sampling::{ln_standard_gamma, standard_normal};
use crate::linalg::CholeskyFactor;
use crate::random::Rng;
use crate::stats::special::ln_gamma;
use crate::validate::{check_finite_1d, check_finite_2d, check_positive};
use crate::{Error, Float, Result};

use super::xlogy;

const LN_2PI: f64 = 1.837_877_066_409_345_5;

/// The multivariate normal `N(μ, Σ)`,
/// `p(x) = ((2π)^d det Σ)^{−½} exp(−½ (x − μ)ᵀ Σ⁻¹ (x − μ))`
/// (`scipy.stats.multivariate_normal(mean, cov)`).
///
/// Built on the Cholesky factor `Σ = L Lᵀ`: `ln det Σ = 2 Σ ln Lᵢᵢ`, and the Mahalanobis term is
/// `‖L⁻¹(x − μ)‖²`; for a batch of rows `Z = (X − μ) L⁻ᵀ` is one gemm. Sampling draws
/// `μ + L z`, `z ~ N(0, I)`. A singular covariance is rejected (scipy's `allow_singular` is not
/// supported).
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::distributions::MultivariateNormal};
/// let mvn = MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 0.0], [0.0, 1.0]])?;
/// // standard bivariate normal at its mean: 1/(2π)
/// assert!((mvn.pdf(&array![0.0, 0.0])? - 1.0 / (2.0 * std::f64::consts::PI)).abs() < 1e-16);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MultivariateNormal {
    mean: Array1<f64>,
    cov: Array2<f64>,
    /// Lower Cholesky factor of `cov`.
    l: Array2<f64>,
    /// `L⁻¹`.
    l_inv: Array2<f64>,
    logdet: f64,
}

/// `L⁻¹` of a lower-triangular `L` by forward substitution (`d³/3` flops; `d` is small).
fn lower_inverse(l: &Array2<f64>) -> Array2<f64> {
    let d = l.nrows();
    let mut inv = Array2::<f64>::zeros((d, d));
    for j in 0..d {
        inv[[j, j]] = 1.0 / l[[j, j]];
        for i in (j + 1)..d {
            let mut s = 0.0;
            for k in j..i {
                s += l[[i, k]] * inv[[k, j]];
            }
            inv[[i, j]] = -s / l[[i, i]];
        }
    }
    inv
}

impl MultivariateNormal {
    /// `N(mean, cov)`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an empty mean; [`Error::NonFinite`] for NaN/∞;
    /// [`Error::ShapeMismatch`] unless `cov` is `d × d`; [`Error::Linalg`] when `cov` is not
    /// symmetric positive definite.
    pub fn new(mean: Array1<f64>, cov: Array2<f64>) -> Result<Self> {
        let d = mean.len();
        if d == 0 {
            return Err(Error::invalid_param("mean", "the dimension must be >= 1"));
        }
        check_finite_1d(&mean, "mean")?;
        if cov.dim() != (d, d) {
            return Err(Error::ShapeMismatch {
                context: "MultivariateNormal: covariance",
                expected: format!("{d} x {d} (the mean's length)"),
                found: format!("{} x {}", cov.nrows(), cov.ncols()),
            });
        }
        check_finite_2d(&cov, "cov")?;
        let chol = CholeskyFactor::new(&cov)?;
        let l = chol.l().clone();
        let l_inv = lower_inverse(&l);
        let logdet = chol.logdet();
        Ok(Self {
            mean,
            cov,
            l,
            l_inv,
            logdet,
        })
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// The mean `μ`.
    pub fn mean(&self) -> &Array1<f64> {
        &self.mean
    }

    /// The covariance `Σ`.
    pub fn cov(&self) -> &Array2<f64> {
        &self.cov
    }

    /// `ln det Σ`.
    pub fn logdet(&self) -> f64 {
        self.logdet
    }

    /// Squared Mahalanobis distance `(x − μ)ᵀ Σ⁻¹ (x − μ)`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a wrong length, [`Error::NonFinite`] for NaN/∞.
    pub fn mahalanobis_sq(&self, x: &ArrayRef1<f64>) -> Result<f64> {
        crate::validate::check_n_features(x.len(), self.dim(), "MultivariateNormal: point")?;
        check_finite_1d(x, "x")?;
        let mut c = x.to_owned();
        c -= &self.mean;
        let z = self.l_inv.dot(&c);
        Ok(z.dot(&z))
    }

    /// `ln p(x)`.
    ///
    /// # Errors
    /// As [`MultivariateNormal::mahalanobis_sq`].
    pub fn logpdf(&self, x: &ArrayRef1<f64>) -> Result<f64> {
        let m = self.mahalanobis_sq(x)?;
        Ok(-0.5 * (self.dim() as f64 * LN_2PI + self.logdet + m))
    }

    /// `p(x)`.
    ///
    /// # Errors
    /// As [`MultivariateNormal::logpdf`].
    pub fn pdf(&self, x: &ArrayRef1<f64>) -> Result<f64> {
        Ok(self.logpdf(x)?.exp())
    }

    /// `ln p(xᵢ)` for every row of `x` (one gemm; computed in `f64`).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `x` does not have `d` columns; [`Error::NonFinite`].
    pub fn logpdf_rows<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        crate::validate::check_n_features(x.ncols(), self.dim(), "MultivariateNormal: rows")?;
        check_finite_2d(x, "x")?;
        let mut c = x.mapv(|v| v.to_f64_lossless());
        c -= &self.mean;
        let z = c.dot(&self.l_inv.t());
        let konst = self.dim() as f64 * LN_2PI + self.logdet;
        Ok(z.map_axis(Axis(1), |row| row.dot(&row))
            .mapv(|m| F::cast(-0.5 * (konst + m))))
    }

    /// One draw `μ + L z`.
    pub fn sample(&self, rng: &mut Rng) -> Array1<f64> {
        let z = Array1::from_shape_simple_fn(self.dim(), || standard_normal(rng));
        self.l.dot(&z) + &self.mean
    }

    /// `n` draws (rows) from `random::rng(seed)`.
    pub fn sample_n(&self, seed: u64, n: usize) -> Array2<f64> {
        let mut rng = crate::random::rng(seed);
        let z = Array2::from_shape_simple_fn((n, self.dim()), || standard_normal(&mut rng));
        let mut out = z.dot(&self.l.t());
        out += &self.mean;
        out
    }
}

/// The Dirichlet law on the simplex `{x : xᵢ ≥ 0, Σxᵢ = 1}`,
/// `p(x) = Π xᵢ^{αᵢ−1} / B(α)`, `B(α) = Π Γ(αᵢ) / Γ(Σαᵢ)` (`scipy.stats.dirichlet(α)`).
///
/// Sampling normalizes independent `Gamma(αᵢ, 1)` draws (in log space, so tiny `αᵢ` work).
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::distributions::Dirichlet};
/// // Dirichlet(1, 1, 1) is uniform on the 2-simplex, whose area (in these coordinates) is ½.
/// let d = Dirichlet::new(&[1.0, 1.0, 1.0])?;
/// assert!((d.pdf(&array![0.2, 0.3, 0.5])? - 2.0).abs() < 1e-14);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dirichlet {
    alpha: Array1<f64>,
    ln_norm: f64,
}

impl Dirichlet {
    /// Concentrations `alpha` (at least 2, each finite and `> 0`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] otherwise.
    pub fn new(alpha: &[f64]) -> Result<Self> {
        if alpha.len() < 2 {
            return Err(Error::invalid_param(
                "alpha",
                format!("need at least 2 concentrations, got {}", alpha.len()),
            ));
        }
        for &a in alpha {
            check_positive("alpha", a)?;
        }
        let a0: f64 = alpha.iter().sum();
        let ln_norm = alpha.iter().map(|&a| ln_gamma(a)).sum::<f64>() - ln_gamma(a0);
        Ok(Self {
            alpha: Array1::from(alpha.to_vec()),
            ln_norm,
        })
    }

    /// The concentrations.
    pub fn alpha(&self) -> &Array1<f64> {
        &self.alpha
    }

    /// Means `αᵢ / α₀`.
    pub fn mean(&self) -> Array1<f64> {
        let a0 = self.alpha.sum();
        self.alpha.mapv(|a| a / a0)
    }

    /// Variances `αᵢ(α₀ − αᵢ) / (α₀²(α₀ + 1))`.
    pub fn var(&self) -> Array1<f64> {
        let a0 = self.alpha.sum();
        self.alpha.mapv(|a| a * (a0 - a) / (a0 * a0 * (a0 + 1.0)))
    }

    /// `ln p(x)`; `x` must lie on the simplex (entries in `[0, 1]` summing to 1 within 1e-9,
    /// scipy's tolerance). A zero entry gives `+∞` if its `αᵢ < 1`, `−∞` if `αᵢ > 1`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a wrong length; [`Error::NonFinite`];
    /// [`Error::InvalidParam`] for a point off the simplex.
    pub fn logpdf(&self, x: &ArrayRef1<f64>) -> Result<f64> {
        crate::validate::check_n_features(x.len(), self.alpha.len(), "Dirichlet: point")?;
        check_finite_1d(x, "x")?;
        if let Some(i) = x.iter().position(|v| !(0.0..=1.0).contains(v)) {
            return Err(Error::invalid_param(
                "x",
                format!("entries must lie in [0, 1]; entry {i} is {}", x[i]),
            ));
        }
        let s = x.sum();
        if (s - 1.0).abs() > 1e-9 {
            return Err(Error::invalid_param(
                "x",
                format!("the point must lie on the simplex (sum 1), its sum is {s}"),
            ));
        }
        let lp: f64 = x
            .iter()
            .zip(self.alpha.iter())
            .map(|(&xi, &a)| xlogy(a - 1.0, xi))
            .sum();
        Ok(lp - self.ln_norm)
    }

    /// `p(x)`.
    ///
    /// # Errors
    /// As [`Dirichlet::logpdf`].
    pub fn pdf(&self, x: &ArrayRef1<f64>) -> Result<f64> {
        Ok(self.logpdf(x)?.exp())
    }

    /// One draw (a point of the simplex).
    pub fn sample(&self, rng: &mut Rng) -> Array1<f64> {
        let lg = self.alpha.mapv(|a| ln_standard_gamma(rng, a));
        // A Dirichlet draw is the softmax of log-gamma draws (stable for tiny alphas).
        Array1::from(crate::numeric::softmax(&lg.to_vec()))
    }

    /// `n` draws (rows) from `random::rng(seed)`.
    pub fn sample_n(&self, seed: u64, n: usize) -> Array2<f64> {
        let mut rng = crate::random::rng(seed);
        let k = self.alpha.len();
        let mut out = Array2::zeros((n, k));
        for mut row in out.rows_mut() {
            row.assign(&self.sample(&mut rng));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn mvn_by_hand_and_errors() {
        // diagonal Σ = diag(4, 9): the product of two normals
        let m = MultivariateNormal::new(array![1.0, -1.0], array![[4.0, 0.0], [0.0, 9.0]])
            .expect("valid");
        let x = array![2.0, 1.0];
        let n1 = crate::stats::distributions::Normal::new(1.0, 2.0).expect("ok");
        let n2 = crate::stats::distributions::Normal::new(-1.0, 3.0).expect("ok");
        use crate::stats::distributions::Univariate;
        let want = n1.logpdf(2.0) + n2.logpdf(1.0);
        assert!((m.logpdf(&x).expect("ok") - want).abs() < 1e-14);
        assert!((m.mahalanobis_sq(&x).expect("ok") - (0.25 + 4.0 / 9.0)).abs() < 1e-15);
        let rows = array![[2.0f32, 1.0], [1.0, -1.0]];
        let lr = m.logpdf_rows(&rows).expect("ok");
        assert!((f64::from(lr[0]) - want).abs() < 1e-5);
        assert!(m.logpdf(&array![1.0]).is_err());
        assert!(m.logpdf(&array![f64::NAN, 0.0]).is_err());
        assert!(m.logpdf_rows(&array![[1.0, 2.0, 3.0]]).is_err());
        assert!(MultivariateNormal::new(array![], Array2::zeros((0, 0))).is_err());
        assert!(MultivariateNormal::new(array![0.0, 0.0], array![[1.0]]).is_err());
        assert!(matches!(
            MultivariateNormal::new(array![0.0, 0.0], array![[1.0, 2.0], [2.0, 1.0]]),
            Err(Error::Linalg { .. })
        ));
        assert!(MultivariateNormal::new(array![0.0], array![[f64::INFINITY]]).is_err());
    }

    #[test]
    fn mvn_sampling_moments() {
        let cov = array![[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]];
        let m = MultivariateNormal::new(array![1.0, 2.0, -3.0], cov.clone()).expect("valid");
        let n = 40_000;
        let x = m.sample_n(21, n);
        let mean = x.mean_axis(Axis(0)).expect("rows");
        for j in 0..3 {
            let se = (cov[[j, j]] / n as f64).sqrt();
            assert!((mean[j] - m.mean()[j]).abs() < 4.0 * se, "mean {j}");
        }
        let c = crate::stats::covariance(&x, 1).expect("n > 1");
        for i in 0..3 {
            for j in 0..3 {
                // se of a sample covariance ≈ √((σᵢᵢσⱼⱼ + σᵢⱼ²)/n)
                let se = ((cov[[i, i]] * cov[[j, j]] + cov[[i, j]].powi(2)) / n as f64).sqrt();
                assert!((c[[i, j]] - cov[[i, j]]).abs() < 4.0 * se, "cov {i}{j}");
            }
        }
        assert_eq!(x, m.sample_n(21, n));
    }

    #[test]
    fn dirichlet_by_hand_and_sampling() {
        // Dirichlet(a, b) on (x, 1 − x) is Beta(a, b)
        let d = Dirichlet::new(&[2.0, 3.0]).expect("valid");
        let b = crate::stats::distributions::Beta::new(2.0, 3.0).expect("valid");
        use crate::stats::distributions::Univariate;
        assert!((d.logpdf(&array![0.3, 0.7]).expect("ok") - b.logpdf(0.3)).abs() < 1e-14);
        assert!(d.logpdf(&array![0.3, 0.6]).is_err());
        assert!(d.logpdf(&array![1.2, -0.2]).is_err());
        assert!(d.logpdf(&array![0.3]).is_err());
        assert_eq!(d.logpdf(&array![0.0, 1.0]).expect("ok"), f64::NEG_INFINITY);
        assert!(Dirichlet::new(&[1.0]).is_err() && Dirichlet::new(&[1.0, 0.0]).is_err());
        let d = Dirichlet::new(&[0.3, 2.0, 5.0]).expect("valid");
        let n = 40_000;
        let x = d.sample_n(4, n);
        assert!(x.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
        let mean = x.mean_axis(Axis(0)).expect("rows");
        let (mu, var) = (d.mean(), d.var());
        for j in 0..3 {
            assert!(
                (mean[j] - mu[j]).abs() < 4.0 * (var[j] / n as f64).sqrt(),
                "mean {j}"
            );
        }
        // tiny concentrations still give points of the simplex
        let t = Dirichlet::new(&[1e-3, 1e-3])
            .expect("valid")
            .sample_n(1, 100);
        assert!(t.iter().all(|v| v.is_finite()));
    }
}
