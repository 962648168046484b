//! [`GlmStats`]: value, gradient and (optionally) Hessian of a pointwise loss of the linear
//! score `f = Xw + b` at given `(w, b)`.

use super::bytes::{Reader, Writer};
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::linalg::gemm;
use crate::loss::Loss;
use crate::{Error, Float, Result};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, Array2, ArrayRef2, Axis};

/// Byte-form tag.
const TAG: u8 = 4;

/// Where a [`GlmStats`] is evaluated.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GlmSpec<F: Float> {
    /// The pointwise loss `ℓ(y, f)` (its targets: one column in the row block).
    pub loss: Loss,
    /// The coefficients `w` (`d`).
    pub coef: Array1<F>,
    /// The intercept `b`.
    pub intercept: F,
    /// Also accumulate the Hessian (`(d + 1)²`, for Newton / IRLS steps).
    pub hessian: bool,
}

/// The sums `Σ sᵢ ℓ(yᵢ, fᵢ)`, `Σ sᵢ ℓ'(yᵢ, fᵢ) xᵢ`, `Σ sᵢ ℓ'(yᵢ, fᵢ)` and, when asked,
/// `Σ sᵢ ℓ''(yᵢ, fᵢ) x̃ᵢx̃ᵢᵀ` with `x̃ = (x, 1)`, at `fᵢ = xᵢᵀw + b` (`sᵢ` the sample weights,
/// 1 without), and `Σ sᵢ`. An L-BFGS or Newton driver divides by the weight sum and adds its
/// penalty; every data pass of the fit is one aggregate of these statistics. The point
/// `(w, b)` and the loss travel with the statistics: statistics at other points do not merge.
///
/// In one block: one GEMV for the scores, the loss's value and first derivative per row
/// ([`Loss::value_gradient`]; the second derivative only for the Hessian), one GEMV `Xᵀg` and,
/// when asked, one GEMM `(X ∘ h)ᵀX` for the Hessian.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GlmStats<F: Float> {
    /// Where the statistics are evaluated.
    pub at: GlmSpec<F>,
    /// Number of rows.
    pub n: u64,
    /// `Σ sᵢ`.
    pub weight_sum: F,
    /// `Σ sᵢ ℓ(yᵢ, fᵢ)`.
    pub value: F,
    /// `Σ sᵢ ℓ'(yᵢ, fᵢ) xᵢ` (`d`).
    pub grad_coef: Array1<F>,
    /// `Σ sᵢ ℓ'(yᵢ, fᵢ)`.
    pub grad_intercept: F,
    /// `Σ sᵢ ℓ''(yᵢ, fᵢ) x̃ᵢx̃ᵢᵀ` (`(d + 1) × (d + 1)`, the intercept last) when the spec asks.
    pub hessian: Option<Array2<F>>,
}

impl<F: Float> GlmStats<F> {
    /// The kernel of [`Mergeable::update`] without its input checks, for a caller that checked
    /// the rows once and evaluates many points over them (the single-machine L-BFGS fit of
    /// `ndlearn_linear::LogisticRegression` adds its row blocks through this, so the fit on one
    /// machine and the fit from data passes share this code): adds the rows `x` with targets `y`
    /// in the loss's domain and optional non-negative weights `w`, all finite.
    ///
    /// # Errors
    /// [`Error::NonFiniteResult`] when the value or gradient overflows at the spec's point.
    ///
    /// # Panics
    /// If `x` has not `d` columns or `y` / `w` have not one entry per row.
    pub fn accumulate(&mut self, x: &ArrayRef2<F>, y: &[F], w: Option<&[F]>) -> Result<()> {
        let (n, d) = x.dim();
        assert_eq!(
            d,
            self.at.coef.len(),
            "GlmStats::accumulate: one column per coefficient"
        );
        assert_eq!(y.len(), n, "GlmStats::accumulate: one target per row");
        assert!(
            w.is_none_or(|w| w.len() == n),
            "GlmStats::accumulate: one weight per row"
        );
        if n == 0 {
            return Ok(());
        }
        let loss = self.at.loss;
        // scores, then the weighted first derivatives in their place
        let mut g = Array1::from_elem(n, self.at.intercept);
        general_mat_vec_mul(F::one(), x, &self.at.coef, F::one(), &mut g);
        let mut h = if self.hessian.is_some() {
            Array1::zeros(n)
        } else {
            Array1::zeros(0)
        };
        let mut value = F::zero();
        let mut weight_sum = F::zero();
        for (i, gi) in g.iter_mut().enumerate() {
            let s = w.map_or(F::one(), |w| w[i]);
            let (v, dv) = loss.value_gradient(y[i], *gi);
            if let Some(hi) = h.get_mut(i) {
                *hi = s * loss.hessian(y[i], *gi);
            }
            value += s * v;
            weight_sum += s;
            *gi = s * dv;
        }
        self.value += value;
        self.weight_sum += weight_sum;
        general_mat_vec_mul(F::one(), &x.t(), &g, F::one(), &mut self.grad_coef);
        self.grad_intercept += g.sum();
        if let Some(hess) = self.hessian.as_mut() {
            let mut xh = x.to_owned();
            xh *= &h.view().insert_axis(Axis(1));
            let mut top = hess.slice_mut(ndarray::s![..d, ..d]);
            gemm(F::one(), &xh.t(), x, F::one(), &mut top);
            let col = xh.sum_axis(Axis(0));
            for j in 0..d {
                hess[[j, d]] += col[j];
                hess[[d, j]] += col[j];
            }
            hess[[d, d]] += h.sum();
            crate::stats::symmetrize(hess);
        }
        self.n += n as u64;
        if !self.value.is_finite() || self.grad_coef.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFiniteResult {
                context: "GlmStats::update",
                reason: "the loss or its gradient overflowed at the given coefficients".into(),
            });
        }
        Ok(())
    }
}

impl<F: Float> Mergeable<F> for GlmStats<F> {
    type Spec = GlmSpec<F>;

    fn zero(spec: &GlmSpec<F>) -> Self {
        let d = spec.coef.len();
        Self {
            at: spec.clone(),
            n: 0,
            weight_sum: F::zero(),
            value: F::zero(),
            grad_coef: Array1::zeros(d),
            grad_intercept: F::zero(),
            hessian: spec.hessian.then(|| Array2::zeros((d + 1, d + 1))),
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let d = self.at.coef.len();
        block.check(d, "GlmStats::update")?;
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        self.at.loss.validate()?;
        let y = block
            .require_targets(1, "GlmStats::update")?
            .column(0)
            .to_owned();
        self.at.loss.check_target(&y)?;
        let w = block.weights.as_ref().map(|w| w.to_vec());
        self.accumulate(&block.x, y.as_slice().unwrap_or(&[]), w.as_deref())
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.at != other.at {
            return Err(spec_mismatch(
                "GlmStats::merge",
                "statistics at the same loss and coefficients".into(),
                "statistics at another point".into(),
            ));
        }
        self.n += other.n;
        self.weight_sum += other.weight_sum;
        self.value += other.value;
        self.grad_coef += &other.grad_coef;
        self.grad_intercept += other.grad_intercept;
        if let (Some(a), Some(b)) = (self.hessian.as_mut(), other.hessian.as_ref()) {
            *a += b;
        }
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n
    }

    fn encode(&self) -> Vec<u8> {
        let (code, param) = loss_code(self.at.loss);
        let mut w = Writer::new(TAG);
        w.u64(code)
            .float(param)
            .array1(&self.at.coef)
            .float(self.at.intercept)
            .u64(self.n)
            .float(self.weight_sum)
            .float(self.value)
            .array1(&self.grad_coef)
            .float(self.grad_intercept)
            .opt_array2(self.hessian.as_ref());
        w.finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "GlmStats")?;
        let code = r.u64()?;
        let param: f64 = r.float()?;
        let loss = loss_from_code(code, param).ok_or_else(|| r.inconsistent("unknown loss"))?;
        let coef: Array1<F> = r.array1()?;
        let intercept = r.float()?;
        let n = r.u64()?;
        let weight_sum = r.float()?;
        let value = r.float()?;
        let grad_coef: Array1<F> = r.array1()?;
        let grad_intercept = r.float()?;
        let hessian: Option<Array2<F>> = r.opt_array2()?;
        r.end()?;
        let d = coef.len();
        if grad_coef.len() != d || hessian.as_ref().is_some_and(|h| h.dim() != (d + 1, d + 1)) {
            return Err(r.inconsistent("array shapes disagree"));
        }
        Ok(Self {
            at: GlmSpec {
                loss,
                coef,
                intercept,
                hessian: hessian.is_some(),
            },
            n,
            weight_sum,
            value,
            grad_coef,
            grad_intercept,
            hessian,
        })
    }
}

/// A loss as `(variant, parameter)` for the byte form.
fn loss_code(loss: Loss) -> (u64, f64) {
    match loss {
        Loss::SquaredError => (0, 0.0),
        Loss::AbsoluteError => (1, 0.0),
        Loss::Huber { delta } => (2, delta),
        Loss::Pinball { quantile } => (3, quantile),
        Loss::EpsilonInsensitive { epsilon } => (4, epsilon),
        Loss::SquaredEpsilonInsensitive { epsilon } => (5, epsilon),
        Loss::Hinge { threshold } => (6, threshold),
        Loss::SquaredHinge { threshold } => (7, threshold),
        Loss::ModifiedHuber => (8, 0.0),
        Loss::LogLoss => (9, 0.0),
        Loss::Exponential => (10, 0.0),
        Loss::Poisson => (11, 0.0),
        Loss::Gamma => (12, 0.0),
    }
}

/// The inverse of [`loss_code`].
fn loss_from_code(code: u64, p: f64) -> Option<Loss> {
    Some(match code {
        0 => Loss::SquaredError,
        1 => Loss::AbsoluteError,
        2 => Loss::Huber { delta: p },
        3 => Loss::Pinball { quantile: p },
        4 => Loss::EpsilonInsensitive { epsilon: p },
        5 => Loss::SquaredEpsilonInsensitive { epsilon: p },
        6 => Loss::Hinge { threshold: p },
        7 => Loss::SquaredHinge { threshold: p },
        8 => Loss::ModifiedHuber,
        9 => Loss::LogLoss,
        10 => Loss::Exponential,
        11 => Loss::Poisson,
        12 => Loss::Gamma,
        _ => return None,
    })
}
