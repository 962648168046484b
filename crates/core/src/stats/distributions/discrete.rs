//! Discrete laws: Bernoulli, Binomial, Categorical, Multinomial.
//!
//! The binomial mass uses Loader's saddle-point form (Loader 2000, "Fast and accurate
//! computation of binomial probabilities"): `P(k) = exp(δ(n) − δ(k) − δ(n − k) − D(k, np) −
//! D(n − k, nq)) √(n / (2π k (n − k)))`, with `δ` the Stirling remainder and
//! `D(x, M) = x ln(x/M) + M − x` summed as a series when `x ≈ M`, so that no large logarithms
//! cancel (relative accuracy ~1e-14 even for `n = 10⁶`). The cdf is `I_{1−p}(n − k, k + 1)`.

use super::sampling::open_uniform;
use super::{Discrete, check_prob, xlog1py, xlogy};
use crate::random::Rng;
use crate::stats::special::{beta_inc, ln_gamma, stirling_correction};
use crate::validate::check_in_range;
use crate::{Error, Result};

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// Stirling remainder `δ(n) = ln n! − (n + ½) ln n + n − ½ ln 2π`, `n ≥ 1`.
fn stirlerr(n: f64) -> f64 {
    if n >= 15.0 {
        stirling_correction(n)
    } else {
        ln_gamma(n + 1.0) - (n + 0.5) * n.ln() + n - HALF_LN_2PI
    }
}

/// `D(x, M) = x ln(x/M) + M − x ≥ 0`, accurate when `x ≈ M`.
fn bd0(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let v = (x - m) / (x + m);
        let mut s = (x - m) * v;
        let mut ej = 2.0 * x * v;
        let v2 = v * v;
        for j in 1..1000 {
            ej *= v2;
            let s1 = s + ej / f64::from(2 * j + 1);
            if s1 == s {
                return s;
            }
            s = s1;
        }
        s
    } else {
        x * (x / m).ln() + m - x
    }
}

/// `ln P(K = k)` for `K ~ Bin(n, p)`.
fn binom_logpmf(k: u64, n: u64, p: f64) -> f64 {
    if k > n {
        return f64::NEG_INFINITY;
    }
    let (kf, nf) = (k as f64, n as f64);
    if p == 0.0 || p == 1.0 || k == 0 || k == n {
        // at most one term survives: k ln p + (n − k) ln(1 − p) with 0 ln 0 = 0
        return xlogy(kf, p) + xlog1py(nf - kf, -p);
    }
    let q = 1.0 - p;
    let lc =
        stirlerr(nf) - stirlerr(kf) - stirlerr(nf - kf) - bd0(kf, nf * p) - bd0(nf - kf, nf * q);
    lc + 0.5 * (nf / (2.0 * std::f64::consts::PI * kf * (nf - kf))).ln()
}

fn check_p(p: f64) -> Result<()> {
    check_in_range("p", p, 0.0, 1.0)
}

/// The Bernoulli law `θ^x (1 − θ)^{1−x}`, `x ∈ {0, 1}` (Casella & Berger, *Statistical
/// Inference*, 2nd ed. (2002), ch. 3; E = θ, V = θ(1 − θ); `scipy.stats.bernoulli(θ)`).
///
/// `ppf(0) = 0` (scipy returns −1 there; a `u64` cannot).
///
/// ```
/// use ndlearn_core::stats::distributions::{Bernoulli, Discrete};
/// let b = Bernoulli::new(0.3)?;
/// assert_eq!((b.pmf(1), b.mean()), (0.3, 0.3));
/// assert!((b.var() - 0.21).abs() < 1e-16);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bernoulli {
    p: f64,
}

impl Bernoulli {
    /// Success probability `p ∈ [0, 1]`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `p` outside `[0, 1]` or NaN.
    pub fn new(p: f64) -> Result<Self> {
        check_p(p)?;
        Ok(Self { p })
    }
}

impl Discrete for Bernoulli {
    fn pmf(&self, k: u64) -> f64 {
        match k {
            0 => 1.0 - self.p,
            1 => self.p,
            _ => 0.0,
        }
    }
    fn logpmf(&self, k: u64) -> f64 {
        match k {
            0 => (-self.p).ln_1p(),
            1 => self.p.ln(),
            _ => f64::NEG_INFINITY,
        }
    }
    fn cdf(&self, k: u64) -> f64 {
        if k == 0 { 1.0 - self.p } else { 1.0 }
    }
    fn sf(&self, k: u64) -> f64 {
        if k == 0 { self.p } else { 0.0 }
    }
    fn ppf(&self, q: f64) -> Result<u64> {
        check_prob(q)?;
        Ok(u64::from(q > 1.0 - self.p))
    }
    fn mean(&self) -> f64 {
        self.p
    }
    fn var(&self) -> f64 {
        self.p * (1.0 - self.p)
    }
    fn sample(&self, rng: &mut Rng) -> u64 {
        u64::from(1.0 - open_uniform(rng) < self.p)
    }
}

/// The binomial law `C(n, k) φ^k (1 − φ)^{n−k}` (Casella & Berger (2002), ch. 3;
/// `scipy.stats.binom(n, φ)`).
///
/// ```
/// use ndlearn_core::stats::distributions::{Binomial, Discrete};
/// let b = Binomial::new(4, 0.5)?;
/// assert!((b.pmf(2) - 6.0 / 16.0).abs() < 1e-15);
/// assert!((b.cdf(1) - 5.0 / 16.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Binomial {
    n: u64,
    p: f64,
}

impl Binomial {
    /// `n` trials with success probability `p`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `p` outside `[0, 1]` or NaN.
    pub fn new(n: u64, p: f64) -> Result<Self> {
        check_p(p)?;
        Ok(Self { n, p })
    }
}

impl Discrete for Binomial {
    fn logpmf(&self, k: u64) -> f64 {
        binom_logpmf(k, self.n, self.p)
    }
    fn cdf(&self, k: u64) -> f64 {
        if k >= self.n || self.p == 0.0 {
            1.0
        } else if self.p == 1.0 {
            0.0
        } else {
            beta_inc(self.n as f64 - k as f64, k as f64 + 1.0, 1.0 - self.p)
        }
    }
    fn sf(&self, k: u64) -> f64 {
        if k >= self.n || self.p == 0.0 {
            0.0
        } else if self.p == 1.0 {
            1.0
        } else {
            beta_inc(k as f64 + 1.0, self.n as f64 - k as f64, self.p)
        }
    }
    fn ppf(&self, q: f64) -> Result<u64> {
        check_prob(q)?;
        // smallest k with cdf(k) ≥ q, by bisection on [0, n]
        let (mut lo, mut hi) = (0u64, self.n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.cdf(mid) >= q {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    }
    fn mean(&self) -> f64 {
        self.n as f64 * self.p
    }
    fn var(&self) -> f64 {
        self.n as f64 * self.p * (1.0 - self.p)
    }
    fn sample(&self, rng: &mut Rng) -> u64 {
        if self.n < 32 {
            (0..self.n)
                .map(|_| u64::from(1.0 - open_uniform(rng) < self.p))
                .sum()
        } else {
            // inversion: the quantile of a uniform draw
            let u = 1.0 - open_uniform(rng);
            self.ppf(u).unwrap_or(self.n)
        }
    }
}

/// Validates and normalizes class probabilities.
fn normalized(probs: &[f64]) -> Result<Vec<f64>> {
    if probs.is_empty() {
        return Err(Error::invalid_param("probs", "need at least one category"));
    }
    if let Some(i) = probs.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
        return Err(Error::invalid_param(
            "probs",
            format!(
                "probabilities must be finite and >= 0; entry {i} is {}",
                probs[i]
            ),
        ));
    }
    let s: f64 = probs.iter().sum();
    if s <= 0.0 {
        return Err(Error::invalid_param("probs", "probabilities sum to 0"));
    }
    Ok(probs.iter().map(|v| v / s).collect())
}

/// Index of the category a uniform draw falls into (cumulative search).
fn draw_category(rng: &mut Rng, probs: &[f64]) -> usize {
    let u = 1.0 - open_uniform(rng);
    let mut acc = 0.0;
    for (i, &p) in probs.iter().enumerate() {
        acc += p;
        if u < acc {
            return i;
        }
    }
    // rounding left u ≥ Σp: the last category with positive mass
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// A categorical law over `0..k` (one draw of a multinomial; the class prior of the Bayes
/// classifiers). The probabilities are normalized by their sum.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Categorical {
    probs: Vec<f64>,
}

impl Categorical {
    /// Categories `0..probs.len()` with probabilities `probs / Σ probs`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for no category, a negative or non-finite entry, or a zero sum.
    pub fn new(probs: &[f64]) -> Result<Self> {
        Ok(Self {
            probs: normalized(probs)?,
        })
    }

    /// The normalized probabilities.
    pub fn probs(&self) -> &[f64] {
        &self.probs
    }

    /// `P(X = k)` (0 for `k ≥` the number of categories).
    pub fn pmf(&self, k: usize) -> f64 {
        self.probs.get(k).copied().unwrap_or(0.0)
    }

    /// `ln P(X = k)`.
    pub fn logpmf(&self, k: usize) -> f64 {
        self.pmf(k).ln()
    }

    /// Entropy `−Σ pᵢ ln pᵢ` in nats.
    pub fn entropy(&self) -> f64 {
        -self.probs.iter().map(|&p| xlogy(p, p)).sum::<f64>()
    }

    /// One draw.
    pub fn sample(&self, rng: &mut Rng) -> usize {
        draw_category(rng, &self.probs)
    }

    /// `n` draws from `random::rng(seed)`.
    pub fn sample_n(&self, seed: u64, n: usize) -> Vec<usize> {
        let mut rng = crate::random::rng(seed);
        (0..n).map(|_| self.sample(&mut rng)).collect()
    }
}

/// The multinomial law: counts of `n` independent categorical draws,
/// `P(x) = n! / Πxᵢ! · Π pᵢ^{xᵢ}` (`scipy.stats.multinomial(n, p)`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Multinomial {
    n: u64,
    probs: Vec<f64>,
}

impl Multinomial {
    /// `n` draws over categories with probabilities `probs / Σ probs`.
    ///
    /// # Errors
    /// As [`Categorical::new`].
    pub fn new(n: u64, probs: &[f64]) -> Result<Self> {
        Ok(Self {
            n,
            probs: normalized(probs)?,
        })
    }

    /// `ln P(X = counts)`; `−∞` when the counts do not sum to `n`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `counts` has the wrong length.
    pub fn logpmf(&self, counts: &[u64]) -> Result<f64> {
        if counts.len() != self.probs.len() {
            return Err(Error::ShapeMismatch {
                context: "Multinomial::logpmf",
                expected: format!("{} counts", self.probs.len()),
                found: format!("{}", counts.len()),
            });
        }
        if counts.iter().sum::<u64>() != self.n {
            return Ok(f64::NEG_INFINITY);
        }
        let mut lp = ln_gamma(self.n as f64 + 1.0);
        for (&c, &p) in counts.iter().zip(&self.probs) {
            let c = c as f64;
            lp += xlogy(c, p) - ln_gamma(c + 1.0);
        }
        Ok(lp)
    }

    /// `P(X = counts)`.
    ///
    /// # Errors
    /// As [`Multinomial::logpmf`].
    pub fn pmf(&self, counts: &[u64]) -> Result<f64> {
        Ok(self.logpmf(counts)?.exp())
    }

    /// Means `n pᵢ`.
    pub fn mean(&self) -> Vec<f64> {
        self.probs.iter().map(|p| self.n as f64 * p).collect()
    }

    /// One draw of the counts, by conditional binomials: `xᵢ ~ Bin(n − Σ_{j<i} xⱼ,
    /// pᵢ / Σ_{j≥i} pⱼ)`.
    pub fn sample(&self, rng: &mut Rng) -> Vec<u64> {
        let k = self.probs.len();
        let mut out = vec![0u64; k];
        let mut left = self.n;
        let mut mass = 1.0;
        for (i, (slot, &pi)) in out.iter_mut().zip(&self.probs).enumerate() {
            if left == 0 {
                break;
            }
            if i + 1 == k || mass <= 0.0 {
                *slot = left;
                break;
            }
            let p = (pi / mass).clamp(0.0, 1.0);
            let x = Binomial { n: left, p }.sample(rng);
            *slot = x;
            left -= x;
            mass -= pi;
        }
        out
    }

    /// `m` draws from `random::rng(seed)`.
    pub fn sample_n(&self, seed: u64, m: usize) -> Vec<Vec<u64>> {
        let mut rng = crate::random::rng(seed);
        (0..m).map(|_| self.sample(&mut rng)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_tv13_bernoulli_moments() {
        // Bernoulli moments: E = p, V = p(1 − p)
        let b = Bernoulli::new(0.25).expect("valid");
        assert_eq!((b.mean(), b.var()), (0.25, 0.1875));
        assert_eq!((b.pmf(0), b.pmf(1), b.pmf(2)), (0.75, 0.25, 0.0));
        assert_eq!((b.cdf(0), b.cdf(1), b.sf(0)), (0.75, 1.0, 0.25));
        assert_eq!((b.ppf(0.5).expect("ok"), b.ppf(0.9).expect("ok")), (0, 1));
        assert!(Bernoulli::new(1.5).is_err() && b.ppf(-1.0).is_err());
        let x = b.sample_n(3, 20_000);
        let m = x.iter().sum::<u64>() as f64 / 20_000.0;
        assert!((m - 0.25).abs() < 4.0 * (0.1875f64 / 20_000.0).sqrt());
    }

    #[test]
    fn binomial_by_hand() {
        // Bin(5, 0.3): pmf(2) = 10 · 0.09 · 0.343
        let b = Binomial::new(5, 0.3).expect("valid");
        assert!((b.pmf(2) - 10.0 * 0.09 * 0.343).abs() < 1e-15);
        let total: f64 = (0..=5).map(|k| b.pmf(k)).sum();
        assert!((total - 1.0).abs() < 1e-15);
        let c2: f64 = (0..=2).map(|k| b.pmf(k)).sum();
        assert!((b.cdf(2) - c2).abs() < 1e-15 && (b.sf(2) - (1.0 - c2)).abs() < 1e-15);
        assert_eq!(b.pmf(6), 0.0);
        assert_eq!(b.ppf(b.cdf(2)).expect("ok"), 2);
        assert_eq!(b.ppf(b.cdf(2) + 1e-9).expect("ok"), 3);
        assert_eq!((b.ppf(0.0).expect("ok"), b.ppf(1.0).expect("ok")), (0, 5));
        // degenerate p
        let z = Binomial::new(4, 0.0).expect("valid");
        assert_eq!((z.pmf(0), z.pmf(1), z.cdf(0)), (1.0, 0.0, 1.0));
        let o = Binomial::new(4, 1.0).expect("valid");
        assert_eq!((o.pmf(4), o.pmf(3), o.cdf(3)), (1.0, 0.0, 0.0));
        assert!(Binomial::new(3, -0.1).is_err());
    }

    #[test]
    fn binomial_sampling_moments() {
        for (i, &(n, p)) in [(10u64, 0.3), (200, 0.05), (5000, 0.6)].iter().enumerate() {
            let b = Binomial::new(n, p).expect("valid");
            let x: ndarray::Array1<f64> = b
                .sample_n(11 + i as u64, 20_000)
                .into_iter()
                .map(|v| v as f64)
                .collect();
            super::super::moment_check::assert_moments(&x, b.mean(), b.var(), "binomial");
        }
    }

    #[test]
    fn categorical_and_multinomial() {
        let c = Categorical::new(&[1.0, 3.0, 0.0]).expect("valid");
        assert_eq!(c.probs(), &[0.25, 0.75, 0.0]);
        assert_eq!((c.pmf(1), c.pmf(7)), (0.75, 0.0));
        assert!((c.entropy() - (-(0.25f64 * 0.25f64.ln()) - 0.75 * 0.75f64.ln())).abs() < 1e-15);
        let draws = c.sample_n(5, 40_000);
        assert!(draws.iter().all(|&k| k < 2));
        let f1 = draws.iter().filter(|&&k| k == 1).count() as f64 / 40_000.0;
        assert!((f1 - 0.75).abs() < 4.0 * (0.1875f64 / 40_000.0).sqrt());
        assert!(Categorical::new(&[]).is_err() && Categorical::new(&[0.0, 0.0]).is_err());
        assert!(Categorical::new(&[1.0, f64::NAN]).is_err());
        // Multinomial(3, (½, ½)): P(2, 1) = 3 · ⅛
        let m = Multinomial::new(3, &[1.0, 1.0]).expect("valid");
        assert!((m.pmf(&[2, 1]).expect("ok") - 0.375).abs() < 1e-15);
        assert_eq!(m.pmf(&[2, 2]).expect("ok"), 0.0);
        assert!(m.pmf(&[3]).is_err());
        assert_eq!(m.mean(), vec![1.5, 1.5]);
        let m = Multinomial::new(50, &[0.2, 0.5, 0.3]).expect("valid");
        let draws = m.sample_n(9, 4000);
        assert!(draws.iter().all(|d| d.iter().sum::<u64>() == 50));
        let mean0 = draws.iter().map(|d| d[0] as f64).sum::<f64>() / 4000.0;
        assert!((mean0 - 10.0).abs() < 4.0 * (50.0f64 * 0.2 * 0.8 / 4000.0).sqrt());
    }
}
