//! Shape-parameter laws whose distribution functions are incomplete Beta / Gamma functions:
//! Beta and Gamma.

use super::sampling::{beta_draw, standard_gamma};
use super::{Univariate, check_prob, xlog1py, xlogy};
use crate::Result;
use crate::random::Rng;
use crate::stats::special::{
    beta_inc, beta_inc_inv, gamma_p, gamma_p_inv, gamma_q, ln_beta, ln_gamma,
};
use crate::validate::check_positive;

/// The Beta law `x^{α−1}(1 − x)^{β−1}/B(α, β)` on `[0, 1]` (Casella & Berger, *Statistical
/// Inference*, 2nd ed. (2002), ch. 3;
/// `scipy.stats.beta(α, β)`). cdf `I_x(α, β)`, quantile by [`beta_inc_inv`].
///
/// ```
/// use ndlearn_core::stats::distributions::{Beta, Univariate};
/// let b = Beta::new(2.0, 3.0)?;
/// // pdf = 12 x (1 − x)²
/// assert!((b.pdf(0.5) - 1.5).abs() < 1e-15);
/// assert!((b.mean() - 0.4).abs() < 1e-16);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Beta {
    alpha: f64,
    beta: f64,
}

impl Beta {
    /// `Beta(alpha, beta)`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParam`] unless both shapes are finite and `> 0`.
    pub fn new(alpha: f64, beta: f64) -> Result<Self> {
        check_positive("alpha", alpha)?;
        check_positive("beta", beta)?;
        Ok(Self { alpha, beta })
    }
}

impl Univariate for Beta {
    fn logpdf(&self, x: f64) -> f64 {
        if !(0.0..=1.0).contains(&x) {
            return f64::NEG_INFINITY;
        }
        xlogy(self.alpha - 1.0, x) + xlog1py(self.beta - 1.0, -x) - ln_beta(self.alpha, self.beta)
    }
    fn cdf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            0.0
        } else if x >= 1.0 {
            1.0
        } else {
            beta_inc(self.alpha, self.beta, x)
        }
    }
    fn sf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            1.0
        } else if x >= 1.0 {
            0.0
        } else {
            beta_inc(self.beta, self.alpha, 1.0 - x)
        }
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        check_prob(p)?;
        Ok(beta_inc_inv(self.alpha, self.beta, p))
    }
    fn mean(&self) -> f64 {
        self.alpha / (self.alpha + self.beta)
    }
    fn var(&self) -> f64 {
        let s = self.alpha + self.beta;
        self.alpha * self.beta / (s * s * (s + 1.0))
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        beta_draw(rng, self.alpha, self.beta)
    }
}

/// The Gamma law with shape `k` and scale `θ`: `x^{k−1} e^{−x/θ}/(Γ(k) θ^k)`, `x ≥ 0`
/// (`scipy.stats.gamma(k, scale=θ)`). Not in the course notes; used to sample Beta and
/// Dirichlet.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gamma {
    shape: f64,
    scale: f64,
}

impl Gamma {
    /// `Gamma(shape, scale)`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParam`] unless both parameters are finite and `> 0`.
    pub fn new(shape: f64, scale: f64) -> Result<Self> {
        check_positive("shape", shape)?;
        check_positive("scale", scale)?;
        Ok(Self { shape, scale })
    }
}

impl Univariate for Gamma {
    fn logpdf(&self, x: f64) -> f64 {
        if x < 0.0 {
            return f64::NEG_INFINITY;
        }
        let z = x / self.scale;
        xlogy(self.shape - 1.0, z) - z - ln_gamma(self.shape) - self.scale.ln()
    }
    fn cdf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            0.0
        } else {
            gamma_p(self.shape, x / self.scale)
        }
    }
    fn sf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            1.0
        } else {
            gamma_q(self.shape, x / self.scale)
        }
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        check_prob(p)?;
        Ok(self.scale * gamma_p_inv(self.shape, p))
    }
    fn mean(&self) -> f64 {
        self.shape * self.scale
    }
    fn var(&self) -> f64 {
        self.shape * self.scale * self.scale
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        self.scale * standard_gamma(rng, self.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::super::moment_check::assert_moments;
    use super::*;

    #[test]
    fn beta_by_hand() {
        // Beta(1, 1) is U[0, 1]
        let u = Beta::new(1.0, 1.0).expect("valid");
        assert_eq!((u.pdf(0.0), u.pdf(0.3), u.pdf(1.0)), (1.0, 1.0, 1.0));
        assert!((u.cdf(0.3) - 0.3).abs() < 1e-16);
        // Beta(2, 3): pdf 12 x (1 − x)², V = 6/(25·6) = 1/25
        let b = Beta::new(2.0, 3.0).expect("valid");
        assert!((b.pdf(0.2) - 12.0 * 0.2 * 0.64).abs() < 1e-14);
        assert!((b.var() - 0.04).abs() < 1e-17);
        assert_eq!(b.pdf(1.5), 0.0);
        assert!((b.cdf(0.4) + b.sf(0.4) - 1.0).abs() < 1e-15);
        assert!((b.cdf(b.ppf(0.37).expect("ok")) - 0.37).abs() < 1e-15);
        // U-shaped Beta(½, ½) is infinite at the ends
        assert_eq!(Beta::new(0.5, 0.5).expect("ok").pdf(0.0), f64::INFINITY);
        assert!(Beta::new(0.0, 1.0).is_err() && Beta::new(1.0, f64::NAN).is_err());
        assert!(b.ppf(2.0).is_err());
    }

    #[test]
    fn gamma_by_hand() {
        // shape 1 = exponential
        let g = Gamma::new(1.0, 2.0).expect("valid");
        assert!((g.pdf(1.0) - 0.5 * (-0.5f64).exp()).abs() < 1e-16);
        assert!((g.cdf(2.0) - (1.0 - (-1.0f64).exp())).abs() < 1e-15);
        let g3 = Gamma::new(3.0, 0.5).expect("valid");
        assert_eq!((g3.mean(), g3.var()), (1.5, 0.75));
        assert!((g3.cdf(g3.ppf(0.8).expect("ok")) - 0.8).abs() < 1e-15);
        assert_eq!(g3.logpdf(-1.0), f64::NEG_INFINITY);
        assert!(Gamma::new(-1.0, 1.0).is_err() && Gamma::new(1.0, 0.0).is_err());
    }

    #[test]
    fn sampling_moments() {
        let n = 40_000;
        for (i, &(a, b)) in [(0.3, 0.7), (2.0, 5.0), (30.0, 12.0)].iter().enumerate() {
            let d = Beta::new(a, b).expect("ok");
            assert_moments(&d.sample_n(7 + i as u64, n), d.mean(), d.var(), "beta");
        }
        for (i, &k) in [0.2, 1.0, 3.5, 80.0].iter().enumerate() {
            let d = Gamma::new(k, 1.7).expect("ok");
            assert_moments(&d.sample_n(70 + i as u64, n), d.mean(), d.var(), "gamma");
        }
    }
}
