//! Platt scaling (a sigmoid of a decision value) and temperature scaling (a common inverse
//! temperature of `K` scores).
//!
//! # Platt scaling
//!
//! `P(y = 1 | f) = 1 / (1 + exp(A f + B))`, fitted by maximum likelihood on held-out decision
//! values `fᵢ` with Platt's regularised targets `t₊ = (N₊ + 1)/(N₊ + 2)`, `t₋ = 1/(N₋ + 2)`
//! (`N±` the weighted class totals):
//!
//! ```text
//! min_{A,B}  Σᵢ wᵢ [ log(1 + exp(zᵢ)) − (1 − tᵢ) zᵢ ],    zᵢ = A fᵢ + B
//! ```
//!
//! solved by Newton's method with a backtracking line search and a tiny ridge on the Hessian,
//! the algorithm of Lin, Lin and Weng (2007) that libsvm uses, started at `A = 0`,
//! `B = log((N₋ + 1)/(N₊ + 1))`. When `max|fᵢ| ≥ 30` the values are divided by it first
//! (as scikit-learn does) and `A` is scaled back, which changes nothing but the rounding. It
//! stops when both gradient components of the **mean** objective are below `tol` (default
//! `1e-12`; libsvm stops at `1e-5` on the summed objective and scikit-learn's L-BFGS at a
//! gradient norm of `1e-6`, so both sit slightly off this exact optimum).
//!
//! # Temperature scaling
//!
//! `P(y = k | z) = softmax(β z)ₖ` for one `β > 0` fitted by maximum likelihood (Guo et al.,
//! 2017); a binary decision value `f` becomes the logits `(−f, f)`. The mean multinomial loss is
//! convex in `β`; Newton's method with bisection safeguards finds its minimiser in
//! `[e^{−10}, e^{10}]` (scikit-learn's bounds on `log β`).
//!
//! # References
//!
//! - J. C. Platt, "Probabilistic outputs for support vector machines and comparisons to
//!   regularized likelihood methods", in Advances in Large Margin Classifiers, 1999.
//! - H.-T. Lin, C.-J. Lin, R. C. Weng, "A note on Platt's probabilistic outputs for support
//!   vector machines", Machine Learning 68, 2007.
//! - C. Guo, G. Pleiss, Y. Sun, K. Q. Weinberger, "On calibration of modern neural networks",
//!   ICML 2017.

use ndarray::{Array2, ArrayRef1, ArrayRef2};

use crate::numeric::{log1pexp, sigmoid};
use crate::validate::{check_finite_1d, check_sample_weight};
use crate::{Error, Float, Result};

/// Platt scaling: fits `P(y = 1 | f) = 1/(1 + exp(A f + B))` (see the [`calibration` module docs](crate::calibration)).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct PlattScaling {
    /// Maximum Newton iterations (default 100, libsvm's).
    pub max_iter: usize,
    /// Stop when both components of the mean objective's gradient are below it (default
    /// `1e-12`).
    pub tol: f64,
    /// Smallest line-search step before giving up (default `1e-10`, libsvm's).
    pub min_step: f64,
}

impl Default for PlattScaling {
    fn default() -> Self {
        Self {
            max_iter: 100,
            tol: 1e-12,
            min_step: 1e-10,
        }
    }
}

/// The fitted sigmoid `1/(1 + exp(A f + B))`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPlatt {
    /// The slope `A` (negative when larger decision values mean class 1).
    pub a: f64,
    /// The offset `B`.
    pub b: f64,
    /// Newton iterations used.
    pub n_iter: usize,
    /// Whether the gradient tolerance was reached.
    pub converged: bool,
}

impl FittedPlatt {
    /// `P(y = 1 | f)`.
    #[inline]
    pub fn probability<F: Float>(&self, f: F) -> F {
        // 1/(1 + e^z) = σ(−z), stable for any z.
        sigmoid(-(F::cast(self.a) * f + F::cast(self.b)))
    }
}

impl PlattScaling {
    crate::setters! {
        /// Sets the maximum number of Newton iterations.
        max_iter: usize,
        /// Sets the gradient tolerance.
        tol: f64,
        /// Sets the smallest line-search step.
        min_step: f64,
    }

    /// Checks `max_iter ≥ 1`, `tol > 0`, `min_step > 0`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`].
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("max_iter", self.max_iter, 1)?;
        crate::validate::check_positive("tol", self.tol)?;
        crate::validate::check_positive("min_step", self.min_step)
    }

    /// Fits on decision values `f` and binary labels (`true` = the positive class).
    ///
    /// # Errors
    /// Empty or non-finite values, a length mismatch, invalid weights.
    pub fn fit<F: Float>(
        &self,
        f: &ArrayRef1<F>,
        positive: &[bool],
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedPlatt> {
        self.validate()?;
        const CONTEXT: &str = "PlattScaling::fit";
        crate::validate::check_min_samples(f.len(), 1, CONTEXT)?;
        if positive.len() != f.len() {
            return Err(Error::ShapeMismatch {
                context: CONTEXT,
                expected: format!("{} labels", f.len()),
                found: format!("{}", positive.len()),
            });
        }
        check_finite_1d(f, "decision values")?;
        if let Some(w) = sample_weight {
            check_sample_weight(w, f.len())?;
        }
        let n = f.len();
        let fv: Vec<f64> = f.iter().map(|v| v.to_f64_lossless()).collect();
        let wv: Vec<f64> = match sample_weight {
            Some(w) => w.iter().map(|v| v.to_f64_lossless()).collect(),
            None => vec![1.0; n],
        };
        let scale = fv.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let scale = if scale >= 30.0 { scale } else { 1.0 };
        let fs: Vec<f64> = fv.iter().map(|v| v / scale).collect();
        let (mut prior1, mut prior0) = (0.0, 0.0);
        for (&p, &w) in positive.iter().zip(&wv) {
            if p {
                prior1 += w;
            } else {
                prior0 += w;
            }
        }
        let hi = (prior1 + 1.0) / (prior1 + 2.0);
        let lo = 1.0 / (prior0 + 2.0);
        let t: Vec<f64> = positive.iter().map(|&p| if p { hi } else { lo }).collect();
        let total: f64 = wv.iter().sum();
        let objective = |a: f64, b: f64| -> f64 {
            let mut s = 0.0;
            for i in 0..n {
                let z = a * fs[i] + b;
                s += wv[i] * (log1pexp(z) - (1.0 - t[i]) * z);
            }
            s
        };
        let (mut a, mut b) = (0.0, ((prior0 + 1.0) / (prior1 + 1.0)).ln());
        let mut fval = objective(a, b);
        let mut converged = false;
        let mut it = 0;
        while it < self.max_iter {
            // Gradient and Hessian of the summed objective (dz/dA = f, dz/dB = 1).
            let (mut g1, mut g2) = (0.0, 0.0);
            let (mut h11, mut h12, mut h22) = (0.0, 0.0, 0.0);
            for i in 0..n {
                let z = a * fs[i] + b;
                let p = sigmoid(z); // = 1 − P(y = 1)
                let d1 = wv[i] * (p - (1.0 - t[i]));
                let d2 = wv[i] * p * (1.0 - p);
                g1 += d1 * fs[i];
                g2 += d1;
                h11 += d2 * fs[i] * fs[i];
                h12 += d2 * fs[i];
                h22 += d2;
            }
            if g1.abs() <= self.tol * total && g2.abs() <= self.tol * total {
                converged = true;
                break;
            }
            it += 1;
            // Newton direction with libsvm's ridge σ = 1e-12 on the diagonal.
            let (h11, h22) = (h11 + 1e-12, h22 + 1e-12);
            let det = h11 * h22 - h12 * h12;
            let da = -(h22 * g1 - h12 * g2) / det;
            let db = -(-h12 * g1 + h11 * g2) / det;
            let gd = g1 * da + g2 * db;
            // Near the optimum the predicted decrease `−gd` falls below the rounding of the
            // summed objective, so comparing objectives cannot tell a good step from a bad one:
            // take the full Newton step (quadratic convergence there).
            if -gd <= 64.0 * f64::EPSILON * fval.abs().max(1.0) {
                a += da;
                b += db;
                fval = objective(a, b);
                continue;
            }
            let mut step = 1.0;
            let mut moved = false;
            while step >= self.min_step {
                let (na, nb) = (a + step * da, b + step * db);
                let nf = objective(na, nb);
                if nf < fval + 1e-4 * step * gd {
                    a = na;
                    b = nb;
                    fval = nf;
                    moved = true;
                    break;
                }
                step /= 2.0;
            }
            if !moved {
                // No decrease is possible at this precision: the optimum is reached up to
                // rounding of the objective.
                converged = g1.abs() <= 1e-8 * total && g2.abs() <= 1e-8 * total;
                break;
            }
        }
        Ok(FittedPlatt {
            a: a / scale,
            b,
            n_iter: it,
            converged,
        })
    }
}

/// Temperature scaling: one inverse temperature `β` for all scores (see the
/// [`calibration` module docs](crate::calibration)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TemperatureScaling;

/// The fitted inverse temperature.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedTemperature {
    /// The inverse temperature `β ∈ [e^{−10}, e^{10}]`.
    pub beta: f64,
}

/// The logits of scores: `(−f, f)` for one column, the scores themselves otherwise.
pub(crate) fn logits<F: Float>(scores: &ArrayRef2<F>) -> Array2<F> {
    if scores.ncols() == 1 {
        let mut z = Array2::zeros((scores.nrows(), 2));
        for (i, &f) in scores.column(0).iter().enumerate() {
            z[[i, 0]] = -f;
            z[[i, 1]] = f;
        }
        z
    } else {
        scores.to_owned()
    }
}

impl FittedTemperature {
    /// Class probabilities `softmax(β z)` for scores `z` (`n × 1` binary or `n × K`).
    pub fn probabilities<F: Float>(&self, scores: &ArrayRef2<F>) -> Array2<F> {
        let mut z = logits(scores);
        let b = F::cast(self.beta);
        z.mapv_inplace(|v| v * b);
        crate::numeric::softmax_rows_inplace(&mut z);
        z
    }
}

impl TemperatureScaling {
    /// Fits `β` on scores (`n × 1` for two classes, `n × K`) and labels `0..K`.
    ///
    /// # Errors
    /// Empty or non-finite scores, a label outside the score columns, invalid weights.
    pub fn fit<F: Float>(
        &self,
        scores: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedTemperature> {
        const CONTEXT: &str = "TemperatureScaling::fit";
        crate::validate::check_fit_shape(scores, 1, CONTEXT)?;
        crate::validate::check_finite_2d(scores, "scores")?;
        let z = logits(scores);
        let (n, k) = z.dim();
        if y.len() != n {
            return Err(Error::ShapeMismatch {
                context: CONTEXT,
                expected: format!("{n} labels"),
                found: format!("{}", y.len()),
            });
        }
        crate::validate::check_labels_below(y, k)?;
        if let Some(w) = sample_weight {
            check_sample_weight(w, n)?;
        }
        let w: Vec<f64> = (0..n)
            .map(|i| sample_weight.map_or(1.0, |w| w[i].to_f64_lossless()))
            .collect();
        let zf: Vec<f64> = z.iter().map(|v| v.to_f64_lossless()).collect();
        // d/dβ and d²/dβ² of Σ wᵢ [lse(β zᵢ) − β z_{i,yᵢ}]: Σ w (E_p[z] − z_y), Σ w Var_p(z).
        let derivs = |beta: f64| -> (f64, f64) {
            let (mut d1, mut d2) = (0.0, 0.0);
            let mut p = vec![0.0; k];
            for i in 0..n {
                let row = &zf[i * k..(i + 1) * k];
                let m = row.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(beta * v));
                let mut s = 0.0;
                for (pk, &v) in p.iter_mut().zip(row) {
                    *pk = (beta * v - m).exp();
                    s += *pk;
                }
                let (mut mean, mut sq) = (0.0, 0.0);
                for (pk, &v) in p.iter().zip(row) {
                    let q = pk / s;
                    mean += q * v;
                    sq += q * v * v;
                }
                d1 += w[i] * (mean - row[y[i]]);
                d2 += w[i] * (sq - mean * mean).max(0.0);
            }
            (d1, d2)
        };
        let (mut lo, mut hi) = ((-10.0f64).exp(), 10.0f64.exp());
        let (dlo, _) = derivs(lo);
        let (dhi, _) = derivs(hi);
        let beta = if dlo >= 0.0 {
            lo
        } else if dhi <= 0.0 {
            hi
        } else {
            // Safeguarded Newton on the increasing derivative.
            let mut beta = 1.0f64.clamp(lo, hi);
            for _ in 0..200 {
                let (d1, d2) = derivs(beta);
                if d1 == 0.0 {
                    break;
                }
                if d1 > 0.0 {
                    hi = beta;
                } else {
                    lo = beta;
                }
                let newton = if d2 > 0.0 { beta - d1 / d2 } else { f64::NAN };
                let next = if newton > lo && newton < hi {
                    newton
                } else {
                    0.5 * (lo + hi)
                };
                if (next - beta).abs() <= 1e-15 * beta || hi - lo <= 1e-15 * beta {
                    beta = next;
                    break;
                }
                beta = next;
            }
            beta
        };
        Ok(FittedTemperature { beta })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, array};

    #[test]
    fn platt_recovers_a_sigmoid_and_is_scale_invariant() {
        // Labels drawn deterministically with P(y = 1 | f) = σ(2f − 0.5).
        let n = 4000;
        let f: Array1<f64> = (0..n).map(|i| -3.0 + 6.0 * i as f64 / n as f64).collect();
        let mut rng = crate::random::rng(7);
        let y: Vec<bool> = f
            .iter()
            .map(|&v| crate::random::uniform(&mut rng, 0.0, 1.0) < sigmoid(2.0 * v - 0.5))
            .collect();
        let m = PlattScaling::default().fit(&f, &y, None).expect("fit");
        assert!(m.converged);
        assert!((m.a + 2.0).abs() < 0.2 && (m.b - 0.5).abs() < 0.15, "{m:?}");
        let big = f.mapv(|v| v * 100.0);
        let m2 = PlattScaling::default().fit(&big, &y, None).expect("fit");
        assert!((m2.a * 100.0 - m.a).abs() < 1e-9 && (m2.b - m.b).abs() < 1e-9);
        assert!((m.probability(0.0) - sigmoid(-m.b)).abs() < 1e-15);
        // Integer weights = repeated rows.
        let w = array![2.0, 1.0, 1.0];
        let fw = array![0.5, -1.0, 2.0];
        let yw = [true, false, false];
        let a = PlattScaling::default()
            .fit(&fw, &yw, Some(&w))
            .expect("fit");
        let b = PlattScaling::default()
            .fit(
                &array![0.5, 0.5, -1.0, 2.0],
                &[true, true, false, false],
                None,
            )
            .expect("fit");
        assert!((a.a - b.a).abs() < 1e-10 && (a.b - b.b).abs() < 1e-10);
        assert!(PlattScaling::default().fit(&fw, &yw[..2], None).is_err());
        assert!(
            PlattScaling::default()
                .tol(0.0)
                .fit(&fw, &yw, None)
                .is_err()
        );
    }

    #[test]
    fn temperature_minimises_the_log_loss() {
        let scores = array![
            [2.0_f64, 0.0, -1.0],
            [0.5, 1.5, 0.0],
            [-1.0, 0.0, 3.0],
            [1.0, 1.2, 0.9]
        ];
        let y = array![0usize, 1, 2, 2];
        let t = TemperatureScaling.fit(&scores, &y, None).expect("fit");
        let loss = |beta: f64| {
            let m = FittedTemperature { beta };
            let p = m.probabilities(&scores);
            -(0..4).map(|i| p[[i, y[i]]].ln()).sum::<f64>()
        };
        let best = loss(t.beta);
        for d in [0.99, 1.01, 0.9, 1.1] {
            assert!(best <= loss(t.beta * d) + 1e-12, "{}", t.beta);
        }
        let bin = TemperatureScaling
            .fit(&array![[1.0], [-2.0], [0.5]], &array![1usize, 0, 0], None)
            .expect("fit");
        assert!(bin.beta > 0.0);
        // Separable data: β runs to the upper bound.
        let sep = TemperatureScaling
            .fit(&array![[1.0], [-1.0]], &array![1usize, 0], None)
            .expect("fit");
        assert_eq!(sep.beta, 10f64.exp());
    }
}
