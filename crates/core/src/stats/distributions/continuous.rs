//! Location–scale laws with closed-form quantiles: Normal, Laplace, Uniform, LogNormal,
//! Exponential.

use super::sampling::{open_uniform, standard_normal};
use super::{Univariate, check_finite, check_prob};
use crate::random::Rng;
use crate::stats::special::{norm_cdf, norm_logpdf, norm_ppf, norm_sf};
use crate::validate::check_positive;
use crate::{Error, Result};

/// The normal law `N(μ, σ²)` (Casella & Berger, *Statistical Inference*, 2nd ed. (2002), ch. 3;
/// `scipy.stats.norm(loc=μ, scale=σ)`).
///
/// ```
/// use ndlearn_core::stats::distributions::{Normal, Univariate};
/// let n = Normal::new(1.0, 2.0)?;
/// assert!((n.cdf(1.0) - 0.5).abs() < 1e-16);
/// assert!((n.ppf(0.975)? - (1.0 + 2.0 * 1.959_963_984_540_054)).abs() < 1e-14);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Normal {
    mean: f64,
    std: f64,
}

impl Normal {
    /// `N(mean, std²)`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `mean` is finite and `std` finite and `> 0`.
    pub fn new(mean: f64, std: f64) -> Result<Self> {
        check_finite("mean", mean)?;
        check_positive("std", std)?;
        Ok(Self { mean, std })
    }

    /// The standard normal `N(0, 1)`.
    pub fn standard() -> Self {
        Self {
            mean: 0.0,
            std: 1.0,
        }
    }

    /// `ln F(x)`, accurate far in the lower tail.
    pub fn logcdf(&self, x: f64) -> f64 {
        crate::stats::special::norm_logcdf((x - self.mean) / self.std)
    }
}

impl Univariate for Normal {
    fn pdf(&self, x: f64) -> f64 {
        crate::stats::special::norm_pdf((x - self.mean) / self.std) / self.std
    }
    fn logpdf(&self, x: f64) -> f64 {
        norm_logpdf((x - self.mean) / self.std) - self.std.ln()
    }
    fn cdf(&self, x: f64) -> f64 {
        norm_cdf((x - self.mean) / self.std)
    }
    fn sf(&self, x: f64) -> f64 {
        norm_sf((x - self.mean) / self.std)
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        Ok(self.mean + self.std * norm_ppf(p)?)
    }
    fn mean(&self) -> f64 {
        self.mean
    }
    fn var(&self) -> f64 {
        self.std * self.std
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        self.mean + self.std * standard_normal(rng)
    }
}

/// The Laplace law `Lap(x; μ, γ) = exp(−|x − μ|/γ)/(2γ)` (the double exponential of Casella &
/// Berger, *Statistical Inference*, 2nd ed. (2002), ch. 3; `scipy.stats.laplace(loc=μ,
/// scale=γ)`). Mean μ, variance 2γ².
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Laplace {
    loc: f64,
    scale: f64,
}

impl Laplace {
    /// `Lap(loc, scale)`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `loc` is finite and `scale` finite and `> 0`.
    pub fn new(loc: f64, scale: f64) -> Result<Self> {
        check_finite("loc", loc)?;
        check_positive("scale", scale)?;
        Ok(Self { loc, scale })
    }
}

impl Univariate for Laplace {
    fn logpdf(&self, x: f64) -> f64 {
        -(x - self.loc).abs() / self.scale - (2.0 * self.scale).ln()
    }
    fn cdf(&self, x: f64) -> f64 {
        let z = (x - self.loc) / self.scale;
        if z < 0.0 {
            0.5 * z.exp()
        } else {
            1.0 - 0.5 * (-z).exp()
        }
    }
    fn sf(&self, x: f64) -> f64 {
        let z = (x - self.loc) / self.scale;
        if z > 0.0 {
            0.5 * (-z).exp()
        } else {
            1.0 - 0.5 * z.exp()
        }
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        check_prob(p)?;
        Ok(if p <= 0.5 {
            self.loc + self.scale * (2.0 * p).ln()
        } else {
            // 1 − p exact for p ≥ ½
            self.loc - self.scale * (2.0 * (1.0 - p)).ln()
        })
    }
    fn mean(&self) -> f64 {
        self.loc
    }
    fn var(&self) -> f64 {
        2.0 * self.scale * self.scale
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        // difference of two exponentials
        let e1 = -open_uniform(rng).ln();
        let e2 = -open_uniform(rng).ln();
        self.loc + self.scale * (e1 - e2)
    }
}

/// The uniform law on `[low, high]` (Casella & Berger (2002), ch. 3: `U[0, 1]` has E = ½,
/// V = 1/12;
/// `scipy.stats.uniform(loc=low, scale=high − low)`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Uniform {
    low: f64,
    high: f64,
}

impl Uniform {
    /// `U[low, high]`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless both bounds are finite and `low < high`.
    pub fn new(low: f64, high: f64) -> Result<Self> {
        check_finite("low", low)?;
        check_finite("high", high)?;
        if low >= high {
            return Err(Error::invalid_param(
                "high",
                format!("must exceed low = {low}, got {high}"),
            ));
        }
        Ok(Self { low, high })
    }
}

impl Univariate for Uniform {
    fn pdf(&self, x: f64) -> f64 {
        if (self.low..=self.high).contains(&x) {
            1.0 / (self.high - self.low)
        } else {
            0.0
        }
    }
    fn logpdf(&self, x: f64) -> f64 {
        if (self.low..=self.high).contains(&x) {
            -(self.high - self.low).ln()
        } else {
            f64::NEG_INFINITY
        }
    }
    fn cdf(&self, x: f64) -> f64 {
        ((x - self.low) / (self.high - self.low)).clamp(0.0, 1.0)
    }
    fn sf(&self, x: f64) -> f64 {
        ((self.high - x) / (self.high - self.low)).clamp(0.0, 1.0)
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        check_prob(p)?;
        Ok(self.low + p * (self.high - self.low))
    }
    fn mean(&self) -> f64 {
        0.5 * (self.low + self.high)
    }
    fn var(&self) -> f64 {
        (self.high - self.low).powi(2) / 12.0
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        crate::random::uniform(rng, self.low, self.high)
    }
}

/// The log-normal law: `X = e^Y`, `Y ~ N(μ, σ²)` (Casella & Berger (2002), ch. 3;
/// `scipy.stats.lognorm(s=σ, scale=e^μ)`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LogNormal {
    mu: f64,
    sigma: f64,
}

impl LogNormal {
    /// Log-normal with log-mean `mu` and log-standard-deviation `sigma`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `mu` is finite and `sigma` finite and `> 0`.
    pub fn new(mu: f64, sigma: f64) -> Result<Self> {
        check_finite("mu", mu)?;
        check_positive("sigma", sigma)?;
        Ok(Self { mu, sigma })
    }
}

impl Univariate for LogNormal {
    fn logpdf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let lx = x.ln();
        norm_logpdf((lx - self.mu) / self.sigma) - self.sigma.ln() - lx
    }
    fn cdf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            0.0
        } else {
            norm_cdf((x.ln() - self.mu) / self.sigma)
        }
    }
    fn sf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            1.0
        } else {
            norm_sf((x.ln() - self.mu) / self.sigma)
        }
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        Ok((self.mu + self.sigma * norm_ppf(p)?).exp())
    }
    fn mean(&self) -> f64 {
        (self.mu + 0.5 * self.sigma * self.sigma).exp()
    }
    fn var(&self) -> f64 {
        let s2 = self.sigma * self.sigma;
        s2.exp_m1() * (2.0 * self.mu + s2).exp()
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        (self.mu + self.sigma * standard_normal(rng)).exp()
    }
}

/// The exponential law with scale θ (mean θ, rate 1/θ): `e^{−x/θ}/θ` for `x ≥ 0`
/// (`scipy.stats.expon(scale=θ)`). Not in the course notes; the Gamma with shape 1.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Exponential {
    scale: f64,
}

impl Exponential {
    /// Exponential with mean `scale`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `scale` is finite and `> 0`.
    pub fn new(scale: f64) -> Result<Self> {
        check_positive("scale", scale)?;
        Ok(Self { scale })
    }

    /// Exponential with rate `λ = 1/scale`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `rate` is finite and `> 0`.
    pub fn with_rate(rate: f64) -> Result<Self> {
        check_positive("rate", rate)?;
        Self::new(1.0 / rate)
    }
}

impl Univariate for Exponential {
    fn logpdf(&self, x: f64) -> f64 {
        if x < 0.0 {
            f64::NEG_INFINITY
        } else {
            -x / self.scale - self.scale.ln()
        }
    }
    fn cdf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            0.0
        } else {
            -(-x / self.scale).exp_m1()
        }
    }
    fn sf(&self, x: f64) -> f64 {
        if x <= 0.0 {
            1.0
        } else {
            (-x / self.scale).exp()
        }
    }
    fn ppf(&self, p: f64) -> Result<f64> {
        check_prob(p)?;
        Ok(-self.scale * (-p).ln_1p())
    }
    fn mean(&self) -> f64 {
        self.scale
    }
    fn var(&self) -> f64 {
        self.scale * self.scale
    }
    fn sample(&self, rng: &mut Rng) -> f64 {
        -self.scale * open_uniform(rng).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::super::moment_check::assert_moments;
    use super::*;
    use std::f64::consts::LN_2;

    #[test]
    fn constructors_validate() {
        assert!(matches!(
            Normal::new(0.0, 0.0),
            Err(Error::InvalidParam { name: "std", .. })
        ));
        assert!(Normal::new(f64::NAN, 1.0).is_err());
        assert!(Laplace::new(0.0, -1.0).is_err());
        assert!(Uniform::new(1.0, 1.0).is_err());
        assert!(Uniform::new(0.0, f64::INFINITY).is_err());
        assert!(LogNormal::new(0.0, 0.0).is_err());
        assert!(Exponential::new(0.0).is_err() && Exponential::with_rate(-2.0).is_err());
    }

    #[test]
    fn closed_forms_by_hand() {
        // Catalog TV13: U[0, 1] has E = ½ and V = 1/12.
        let u = Uniform::new(0.0, 1.0).expect("valid");
        assert_eq!((u.mean(), u.var()), (0.5, 1.0 / 12.0));
        assert_eq!(
            (
                u.pdf(0.3),
                u.pdf(1.5),
                u.cdf(0.25),
                u.ppf(0.75).expect("ok")
            ),
            (1.0, 0.0, 0.25, 0.75)
        );
        assert_eq!(u.logpdf(-1.0), f64::NEG_INFINITY);
        // Laplace: pdf at the centre 1/(2γ), cdf ½ there, ppf inverts
        let l = Laplace::new(1.0, 2.0).expect("valid");
        assert_eq!(l.pdf(1.0), 0.25);
        assert_eq!(l.cdf(1.0), 0.5);
        assert_eq!(l.var(), 8.0);
        for &p in &[0.01, 0.3, 0.5, 0.9] {
            assert!((l.cdf(l.ppf(p).expect("ok")) - p).abs() < 1e-15);
        }
        // Normal: φ(0)/σ, symmetric tails
        let n = Normal::new(3.0, 0.5).expect("valid");
        assert!((n.pdf(3.0) - 2.0 / (2.0 * std::f64::consts::PI).sqrt()).abs() < 1e-15);
        assert_eq!(n.sf(4.0), n.cdf(2.0));
        assert!((n.logcdf(3.0) + LN_2).abs() < 1e-16);
        // LogNormal: median e^μ, mean e^{μ + σ²/2}
        let ln = LogNormal::new(0.5, 0.3).expect("valid");
        assert!((ln.ppf(0.5).expect("ok") - 0.5f64.exp()).abs() < 1e-15);
        assert_eq!(ln.pdf(-1.0), 0.0);
        assert_eq!((ln.cdf(0.0), ln.sf(0.0)), (0.0, 1.0));
        // Exponential: median θ ln 2
        let e = Exponential::with_rate(4.0).expect("valid");
        assert!((e.ppf(0.5).expect("ok") - 0.25 * LN_2).abs() < 1e-16);
        assert!((e.cdf(1.0) + e.sf(1.0) - 1.0).abs() < 1e-16);
        assert!(e.ppf(1.2).is_err() && n.ppf(f64::NAN).is_err() && u.ppf(-0.1).is_err());
    }

    #[test]
    fn sampling_moments() {
        let n = 40_000;
        let cases: Vec<(Box<dyn Univariate>, &str)> = vec![
            (Box::new(Normal::new(-2.0, 3.0).expect("ok")), "normal"),
            (Box::new(Laplace::new(1.0, 0.5).expect("ok")), "laplace"),
            (Box::new(Uniform::new(-1.0, 3.0).expect("ok")), "uniform"),
            (Box::new(LogNormal::new(0.1, 0.4).expect("ok")), "lognormal"),
            (Box::new(Exponential::new(2.5).expect("ok")), "exponential"),
        ];
        for (i, (d, what)) in cases.iter().enumerate() {
            let x = d.sample_n(100 + i as u64, n);
            assert_moments(&x, d.mean(), d.var(), what);
            assert_eq!(x, d.sample_n(100 + i as u64, n), "{what}: seeded");
        }
    }
}
