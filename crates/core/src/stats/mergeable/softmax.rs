//! [`SoftmaxStats`]: value, gradient and (optionally) Hessian of the multinomial log-loss of the
//! linear scores `Z = X Wᵀ + b` at given `(W, b)`.

use super::bytes::{Reader, Writer};
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::linalg::gemm;
use crate::{Error, Float, Result};
use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayRef2, Axis, s};

/// Byte-form tag.
const TAG: u8 = 6;

/// Where a [`SoftmaxStats`] is evaluated: the coefficients of `K` classes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SoftmaxSpec<F: Float> {
    /// The coefficients `W` (`K × d`, one row per class, `K ≥ 2`).
    pub coef: Array2<F>,
    /// The intercepts `b` (`K`).
    pub intercept: Array1<F>,
    /// Also accumulate the Hessian (`(K (d + 1))²`, for Newton steps; the intercept rows and
    /// columns are always there: a fit without intercepts drops them).
    pub hessian: bool,
}

/// The sums, over rows `i` with class labels `yᵢ ∈ 0..K` and weights `sᵢ` (1 without), of the
/// multinomial log-loss `ℓᵢ = log Σₖ e^{z_ik} − z_{i,yᵢ}` at `zᵢ = W xᵢ + b` (the half
/// multinomial deviance of scikit-learn's `LogisticRegression`), its gradient
/// `Σ sᵢ (pᵢ − e_{yᵢ}) x̃ᵢᵀ` (`pᵢ = softmax(zᵢ)`, `x̃ = (x, 1)`) and, when asked, its Hessian, whose
/// `(k, l)` block of `(d + 1)²` entries is `Σ sᵢ p_ik (δ_kl − p_il) x̃ᵢ x̃ᵢᵀ` (the parameters packed
/// as `K` blocks `[w_k, b_k]`). Like [`GlmStats`](super::GlmStats) for the binary log-loss, an
/// L-BFGS or Newton driver divides by `Σ sᵢ` and adds its penalty; the point travels with the
/// statistics, and statistics at other points do not merge.
///
/// In one block: one GEMM for the scores, a stable log-sum-exp and softmax per row, one GEMM
/// `RᵀX` for the gradient and, for the Hessian, `K (K + 1) / 2` GEMMs of `(d + 1)²`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SoftmaxStats<F: Float> {
    /// Where the statistics are evaluated.
    pub at: SoftmaxSpec<F>,
    /// Number of rows.
    pub n: u64,
    /// `Σ sᵢ`.
    pub weight_sum: F,
    /// `Σ sᵢ ℓᵢ`.
    pub value: F,
    /// `Σ sᵢ (pᵢ − e_{yᵢ}) xᵢᵀ` (`K × d`).
    pub grad_coef: Array2<F>,
    /// `Σ sᵢ (pᵢ − e_{yᵢ})` (`K`).
    pub grad_intercept: Array1<F>,
    /// The Hessian (`K (d + 1)` square, class blocks `[w_k, b_k]`) when the spec asks.
    pub hessian: Option<Array2<F>>,
}

impl<F: Float> SoftmaxStats<F> {
    /// The kernel of [`Mergeable::update`] without its input checks, for a caller that checked
    /// the rows once and evaluates many points over them (the single-machine L-BFGS fit of
    /// `ndlearn_linear::LogisticRegression` adds its row blocks through this): adds the finite
    /// rows `x` with labels `y` and optional finite, non-negative weights `w`.
    ///
    /// # Errors
    /// [`Error::NonFiniteResult`] when the value or gradient overflows at the spec's point.
    ///
    /// # Panics
    /// If `x` has not `d` columns, the spec has not one intercept per coefficient row, `y` / `w`
    /// have not one entry per row, or a label is `≥ K`.
    pub fn accumulate(&mut self, x: &ArrayRef2<F>, y: &[usize], w: Option<&[F]>) -> Result<()> {
        let (n, d) = x.dim();
        let k = self.at.coef.nrows();
        assert_eq!(
            d,
            self.at.coef.ncols(),
            "SoftmaxStats::accumulate: d columns"
        );
        assert_eq!(y.len(), n, "SoftmaxStats::accumulate: one label per row");
        assert!(
            w.is_none_or(|w| w.len() == n),
            "SoftmaxStats::accumulate: one weight per row"
        );
        assert!(
            y.iter().all(|&c| c < k),
            "SoftmaxStats::accumulate: labels below K"
        );
        if n == 0 {
            return Ok(());
        }
        // scores Z = X Wᵀ + b, then probabilities, then weighted residuals in place
        let mut z = Array2::from_shape_fn((n, k), |(_, c)| self.at.intercept[c]);
        general_mat_mul(F::one(), x, &self.at.coef.t(), F::one(), &mut z);
        let mut value = F::zero();
        let mut weight_sum = F::zero();
        // the probabilities, kept for the Hessian
        let mut probs = self.hessian.as_ref().map(|_| Array2::<F>::zeros((n, k)));
        for (i, mut row) in z.rows_mut().into_iter().enumerate() {
            let s = w.map_or(F::one(), |w| w[i]);
            let mut m = row[0];
            for &v in row.iter() {
                if v > m {
                    m = v;
                }
            }
            let mut sum = F::zero();
            let zy = row[y[i]];
            for v in row.iter_mut() {
                *v = (*v - m).exp();
                sum += *v;
            }
            value += s * ((m - zy) + sum.ln());
            weight_sum += s;
            let inv = F::one() / sum;
            for v in row.iter_mut() {
                *v *= inv;
            }
            if let Some(p) = probs.as_mut() {
                p.row_mut(i).assign(&row);
            }
            row[y[i]] -= F::one();
            row.mapv_inplace(|v| v * s);
        }
        self.value += value;
        self.weight_sum += weight_sum;
        general_mat_mul(F::one(), &z.t(), x, F::one(), &mut self.grad_coef);
        self.grad_intercept += &z.sum_axis(Axis(0));
        if let (Some(hess), Some(probs)) = (self.hessian.as_mut(), probs) {
            // block (a, b) += X̃ᵀ diag(sᵢ p_ia (δ_ab − p_ib)) X̃; the lower blocks mirror the upper
            let p = d + 1;
            let mut xt = Array2::<F>::ones((n, p));
            xt.slice_mut(s![.., ..d]).assign(x);
            let mut xc = Array2::<F>::zeros((n, p));
            for a in 0..k {
                for b in a..k {
                    for i in 0..n {
                        let si = w.map_or(F::one(), |w| w[i]);
                        let delta = if a == b { F::one() } else { F::zero() };
                        let c = si * probs[[i, a]] * (delta - probs[[i, b]]);
                        xc.row_mut(i).zip_mut_with(&xt.row(i), |o, &v| *o = c * v);
                    }
                    let mut blk = hess.slice_mut(s![a * p..(a + 1) * p, b * p..(b + 1) * p]);
                    gemm(F::one(), &xc.t(), &xt, F::one(), &mut blk);
                    if a != b {
                        let upper = hess
                            .slice(s![a * p..(a + 1) * p, b * p..(b + 1) * p])
                            .t()
                            .to_owned();
                        hess.slice_mut(s![b * p..(b + 1) * p, a * p..(a + 1) * p])
                            .assign(&upper);
                    }
                }
            }
        }
        self.n += n as u64;
        if !self.value.is_finite() || self.grad_coef.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFiniteResult {
                context: "SoftmaxStats::update",
                reason: "the loss or its gradient overflowed at the given coefficients".into(),
            });
        }
        Ok(())
    }
}

impl<F: Float> Mergeable<F> for SoftmaxStats<F> {
    type Spec = SoftmaxSpec<F>;

    fn zero(spec: &SoftmaxSpec<F>) -> Self {
        let (k, d) = spec.coef.dim();
        Self {
            at: spec.clone(),
            n: 0,
            weight_sum: F::zero(),
            value: F::zero(),
            grad_coef: Array2::zeros((k, d)),
            grad_intercept: Array1::zeros(k),
            hessian: spec
                .hessian
                .then(|| Array2::zeros((k * (d + 1), k * (d + 1)))),
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let (k, d) = self.at.coef.dim();
        block.check(d, "SoftmaxStats::update")?;
        if self.at.intercept.len() != k || k < 2 {
            return Err(Error::ShapeMismatch {
                context: "SoftmaxStats::update",
                expected: format!("K ≥ 2 coefficient rows and {k} intercepts"),
                found: format!("{k} rows, {} intercepts", self.at.intercept.len()),
            });
        }
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        let labels = block.require_labels(k, "SoftmaxStats::update")?;
        let y = labels.to_vec();
        let w = block.weights.as_ref().map(|w| w.to_vec());
        self.accumulate(&block.x, &y, w.as_deref())
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.at != other.at {
            return Err(spec_mismatch(
                "SoftmaxStats::merge",
                "statistics at the same coefficients".into(),
                "statistics at another point".into(),
            ));
        }
        self.n += other.n;
        self.weight_sum += other.weight_sum;
        self.value += other.value;
        self.grad_coef += &other.grad_coef;
        self.grad_intercept += &other.grad_intercept;
        if let (Some(a), Some(b)) = (self.hessian.as_mut(), other.hessian.as_ref()) {
            *a += b;
        }
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n
    }

    fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new(TAG);
        w.array2(&self.at.coef)
            .array1(&self.at.intercept)
            .u64(self.n)
            .float(self.weight_sum)
            .float(self.value)
            .array2(&self.grad_coef)
            .array1(&self.grad_intercept)
            .opt_array2(self.hessian.as_ref());
        w.finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "SoftmaxStats")?;
        let coef: Array2<F> = r.array2()?;
        let intercept: Array1<F> = r.array1()?;
        let n = r.u64()?;
        let weight_sum = r.float()?;
        let value = r.float()?;
        let grad_coef: Array2<F> = r.array2()?;
        let grad_intercept: Array1<F> = r.array1()?;
        let hessian: Option<Array2<F>> = r.opt_array2()?;
        r.end()?;
        let (k, d) = coef.dim();
        let q = k * (d + 1);
        if intercept.len() != k
            || grad_coef.dim() != (k, d)
            || grad_intercept.len() != k
            || hessian.as_ref().is_some_and(|h| h.dim() != (q, q))
        {
            return Err(r.inconsistent("array shapes disagree"));
        }
        Ok(Self {
            at: SoftmaxSpec {
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
