//! Probability distributions (catalog CL-031; the laws of the course notes, as in Casella &
//! Berger, *Statistical Inference*, 2nd ed., Duxbury (2002), ch. 3, and Bishop, *Pattern
//! Recognition and Machine Learning*, Springer (2006), Appendix B): densities, log-densities,
//! distribution functions, quantiles, moments and seeded sampling.
//!
//! | type | course notes' formula | scipy equivalent |
//! |---|---|---|
//! | [`Normal`] | `N(x; μ, σ²) = (2πσ²)^{−½} exp(−(x − μ)²/(2σ²))` | `norm(loc=μ, scale=σ)` |
//! | [`Laplace`] | `Lap(x; μ, γ) = exp(−\|x − μ\|/γ)/(2γ)` | `laplace(loc=μ, scale=γ)` |
//! | [`Uniform`] | `1/(b − a)` on `[a, b]`; `U[0, 1]`: E = ½, V = 1/12 | `uniform(loc=a, scale=b−a)` |
//! | [`Beta`] | `x^{α−1}(1 − x)^{β−1}/B(α, β)` | `beta(α, β)` |
//! | [`LogNormal`] | `ln X ~ N(μ, σ²)` | `lognorm(s=σ, scale=e^μ)` |
//! | [`Gamma`] | `x^{k−1} e^{−x/θ}/(Γ(k) θ^k)` (not in the course notes; Dirichlet sampling) | `gamma(k, scale=θ)` |
//! | [`Exponential`] | `e^{−x/θ}/θ` (not in the course notes) | `expon(scale=θ)` |
//! | [`Bernoulli`] | `θ^x (1 − θ)^{1−x}`, E = θ, V = θ(1 − θ) | `bernoulli(θ)` |
//! | [`Binomial`] | `C(n, k) φ^k (1 − φ)^{n−k}` | `binom(n, φ)` |
//! | [`Categorical`], [`Multinomial`] | class probabilities; counts of `n` draws | `multinomial` |
//! | [`MultivariateNormal`] | `((2π)^k det Σ)^{−½} exp(−½(x − μ)ᵀΣ⁻¹(x − μ))` | `multivariate_normal` |
//! | [`Dirichlet`] | the multivariate Beta (only named in the course notes) | `dirichlet(α)` |
//!
//! Continuous one-dimensional laws implement [`Univariate`], discrete ones [`Discrete`].
//! Constructors validate their parameters and return [`crate::Error::InvalidParam`] (σ > 0,
//! probabilities in `[0, 1]`, …); evaluating a density or a distribution function never fails
//! (outside the support the density is 0 and the log-density `−∞`, like scipy). Quantile
//! functions take a user probability and return a `Result`.
//!
//! Sampling draws from a [`crate::random::Rng`]; `sample_n(seed, n)` uses
//! `random::rng(seed)`, so a seed always gives the same sample. The samplers (Box–Muller,
//! Marsaglia–Tsang Gamma, Beta and Dirichlet through Gammas, inversion for the discrete laws)
//! are implementation choices, documented in `sampling.rs`.

mod continuous;
mod discrete;
mod multivariate;
mod sampling;
mod shape;

pub use continuous::{Exponential, Laplace, LogNormal, Normal, Uniform};
pub use discrete::{Bernoulli, Binomial, Categorical, Multinomial};
pub use multivariate::{Dirichlet, MultivariateNormal};
pub use shape::{Beta, Gamma};

use ndarray::{Array1, ArrayRef1};

use crate::random::{self, Rng};
use crate::{Error, Result};

/// A continuous distribution on the real line.
pub trait Univariate {
    /// Density `f(x)` (0 outside the support).
    fn pdf(&self, x: f64) -> f64 {
        self.logpdf(x).exp()
    }
    /// Log-density `ln f(x)` (`−∞` outside the support).
    fn logpdf(&self, x: f64) -> f64;
    /// Distribution function `F(x) = P(X ≤ x)`.
    fn cdf(&self, x: f64) -> f64;
    /// Survival function `1 − F(x)`, computed without cancellation where the law allows it.
    fn sf(&self, x: f64) -> f64 {
        1.0 - self.cdf(x)
    }
    /// Quantile `F⁻¹(p)`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when `p` is NaN or outside `[0, 1]`.
    fn ppf(&self, p: f64) -> Result<f64>;
    /// Mean `E[X]`.
    fn mean(&self) -> f64;
    /// Variance `V[X]`.
    fn var(&self) -> f64;
    /// Standard deviation `√V[X]`.
    fn std(&self) -> f64 {
        self.var().sqrt()
    }
    /// One draw.
    fn sample(&self, rng: &mut Rng) -> f64;
    /// `n` draws from `random::rng(seed)`.
    fn sample_n(&self, seed: u64, n: usize) -> Array1<f64> {
        let mut rng = random::rng(seed);
        Array1::from_shape_simple_fn(n, || self.sample(&mut rng))
    }
    /// [`Univariate::logpdf`] of every entry.
    fn logpdf_many(&self, x: &ArrayRef1<f64>) -> Array1<f64> {
        x.mapv(|v| self.logpdf(v))
    }
}

/// A distribution on the non-negative integers.
pub trait Discrete {
    /// Probability mass `P(X = k)`.
    fn pmf(&self, k: u64) -> f64 {
        self.logpmf(k).exp()
    }
    /// `ln P(X = k)` (`−∞` outside the support).
    fn logpmf(&self, k: u64) -> f64;
    /// `P(X ≤ k)`.
    fn cdf(&self, k: u64) -> f64;
    /// `P(X > k)`.
    fn sf(&self, k: u64) -> f64 {
        1.0 - self.cdf(k)
    }
    /// Smallest `k` with `P(X ≤ k) ≥ p` (scipy's `ppf`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when `p` is NaN or outside `[0, 1]`.
    fn ppf(&self, p: f64) -> Result<u64>;
    /// Mean.
    fn mean(&self) -> f64;
    /// Variance.
    fn var(&self) -> f64;
    /// One draw.
    fn sample(&self, rng: &mut Rng) -> u64;
    /// `n` draws from `random::rng(seed)`.
    fn sample_n(&self, seed: u64, n: usize) -> Vec<u64> {
        let mut rng = random::rng(seed);
        (0..n).map(|_| self.sample(&mut rng)).collect()
    }
}

/// `p ∈ [0, 1]` check for quantile functions.
pub(crate) fn check_prob(p: f64) -> Result<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "p",
            format!("a probability must lie in [0, 1], got {p}"),
        ))
    }
}

/// Finite-parameter check (location parameters).
pub(crate) fn check_finite(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be finite, got {v}"),
        ))
    }
}

/// `a ln x` with `0 ln 0 = 0` (scipy's `xlogy`).
pub(crate) fn xlogy(a: f64, x: f64) -> f64 {
    if a == 0.0 && !x.is_nan() {
        0.0
    } else {
        a * x.ln()
    }
}

/// `a ln(1 + x)` with `0 ln(1 + x) = 0` (scipy's `xlog1py`).
pub(crate) fn xlog1py(a: f64, x: f64) -> f64 {
    if a == 0.0 && !x.is_nan() {
        0.0
    } else {
        a * x.ln_1p()
    }
}

/// Monte-Carlo moment checks shared by the unit tests of every distribution.
#[cfg(test)]
pub(crate) mod moment_check {
    use ndarray::Array1;

    /// Asserts that the sample mean is within 4 standard errors of `mean` and the sample
    /// variance within 4 standard errors (estimated from the sample's fourth moment) of `var`.
    pub(crate) fn assert_moments(x: &Array1<f64>, mean: f64, var: f64, what: &str) {
        let n = x.len() as f64;
        let m = x.sum() / n;
        let c2 = x.mapv(|v| (v - m).powi(2)).sum() / n;
        let c4 = x.mapv(|v| (v - m).powi(4)).sum() / n;
        let se_mean = (var / n).sqrt();
        assert!(
            (m - mean).abs() <= 4.0 * se_mean,
            "{what}: sample mean {m} vs {mean} (se {se_mean})"
        );
        let se_var = ((c4 - c2 * c2).max(0.0) / n).sqrt();
        assert!(
            (c2 - var).abs() <= 4.0 * se_var + 1e-12,
            "{what}: sample variance {c2} vs {var} (se {se_var})"
        );
    }
}
