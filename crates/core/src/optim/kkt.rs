//! Karush–Kuhn–Tucker residuals: how far a candidate `(x, μ, λ)` is from satisfying the
//! optimality conditions of `min f(x) s.t. gᵢ(x) ≤ 0, hⱼ(x) = 0`.
//!
//! # The math (catalog O-11)
//!
//! With the Lagrangian `L(x, μ, λ) = f(x) + μᵀg(x) + λᵀh(x)` the KKT conditions (Kuhn & Tucker,
//! "Nonlinear programming", Proc. 2nd Berkeley Symposium, 1951; Boyd & Vandenberghe, *Convex
//! Optimization*, Cambridge University Press (2004), §5.5.3) are
//!
//! | condition | formula | residual reported (∞-norms, absolute) |
//! |---|---|---|
//! | stationarity | `∇f + J_gᵀμ + J_hᵀλ = 0` | `‖∇f + J_gᵀμ + J_hᵀλ‖∞` |
//! | primal feasibility | `gᵢ ≤ 0`, `hⱼ = 0` | `max(maxᵢ gᵢ⁺, maxⱼ |hⱼ|)` |
//! | dual feasibility | `μᵢ ≥ 0` | `maxᵢ (−μᵢ)⁺` |
//! | complementary slackness | `μᵢgᵢ = 0` | `maxᵢ |μᵢgᵢ|` |
//!
//! For a convex problem (convex `f`, `gᵢ`; affine `h`) a point with all four residuals zero is
//! optimal; in general it is a candidate (a stationary point of `L`). The residuals are absolute:
//! compare them with the scale of your data. `J_g`, `J_h` are Jacobians with one row per
//! constraint (`∂gᵢ/∂xᵀ`, the course notes' convention).
//!
//! [`super::LinearProgram::kkt_residuals`] and [`super::QuadraticProgram::kkt_residuals`] build
//! these inputs for LP/QP solutions (bounds become rows `lo − x ≤ 0`, `x − hi ≤ 0`).
//!
//! # Complexity
//!
//! `O((m_g + m_h)·n)` for the two Jacobian–vector products.

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use crate::{Error, Float, Result};

/// One block of constraints at a point: values, Jacobian (one row per constraint) and
/// multipliers.
#[derive(Debug, Clone, Copy)]
pub struct ConstraintBlock<'a, F: Float> {
    /// `g(x)` or `h(x)` (length `m`).
    pub values: &'a ArrayRef1<F>,
    /// Jacobian (`m × n`).
    pub jacobian: &'a ArrayRef2<F>,
    /// Multipliers (`μ` or `λ`, length `m`).
    pub multipliers: &'a ArrayRef1<F>,
}

/// The four KKT residuals and their maximum (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KktResiduals<F: Float> {
    /// `‖∇f + J_gᵀμ + J_hᵀλ‖∞`.
    pub stationarity: F,
    /// `max(maxᵢ gᵢ⁺, maxⱼ |hⱼ|)`.
    pub primal_feasibility: F,
    /// `maxᵢ (−μᵢ)⁺`.
    pub dual_feasibility: F,
    /// `maxᵢ |μᵢ gᵢ|`.
    pub complementary_slackness: F,
    /// The largest of the four.
    pub max: F,
}

/// KKT residuals of `(x, μ, λ)` for `min f s.t. g ≤ 0, h = 0`, given `∇f(x)` and the constraint
/// blocks at `x` (`None` for an absent block).
///
/// Errors: [`Error::ShapeMismatch`] when a Jacobian does not have `len(grad_f)` columns or its
/// rows, values and multipliers differ in number; [`Error::NonFinite`] for non-finite inputs.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::optim::{kkt_residuals, ConstraintBlock};
/// // min x² s.t. 1 − x ≤ 0: x* = 1, μ* = 2 (∇f = 2x = 2, ∇g = −1).
/// let r = kkt_residuals(
///     &array![2.0],
///     Some(ConstraintBlock { values: &array![0.0], jacobian: &array![[-1.0]], multipliers: &array![2.0] }),
///     None,
/// )?;
/// assert_eq!(r.max, 0.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn kkt_residuals<F: Float>(
    grad_f: &ArrayRef1<F>,
    ineq: Option<ConstraintBlock<'_, F>>,
    eq: Option<ConstraintBlock<'_, F>>,
) -> Result<KktResiduals<F>> {
    let n = grad_f.len();
    crate::validate::check_finite_1d(grad_f, "grad_f")?;
    let mut lag: Array1<F> = grad_f.to_owned();
    let zero = F::zero();
    let mut primal = zero;
    let mut dual = zero;
    let mut compl = zero;
    for (block, is_ineq) in [(ineq, true), (eq, false)] {
        let Some(c) = block else { continue };
        let m = c.values.len();
        if c.jacobian.dim() != (m, n) || c.multipliers.len() != m {
            return Err(Error::ShapeMismatch {
                context: "kkt_residuals: constraint block",
                expected: format!("values and multipliers of equal length m, Jacobian m x {n}"),
                found: format!(
                    "values {}, multipliers {}, Jacobian {}x{}",
                    m,
                    c.multipliers.len(),
                    c.jacobian.nrows(),
                    c.jacobian.ncols()
                ),
            });
        }
        crate::validate::check_finite_1d(c.values, "constraint values")?;
        crate::validate::check_finite_2d(c.jacobian, "constraint Jacobian")?;
        crate::validate::check_finite_1d(c.multipliers, "multipliers")?;
        lag += &c.jacobian.t().dot(c.multipliers);
        for (&v, &mu) in c.values.iter().zip(c.multipliers.iter()) {
            if is_ineq {
                primal = primal.max(v.max(zero));
                dual = dual.max((-mu).max(zero));
                compl = compl.max((mu * v).abs());
            } else {
                primal = primal.max(v.abs());
            }
        }
    }
    let stationarity = lag.iter().fold(zero, |m, v| m.max(v.abs()));
    Ok(KktResiduals {
        stationarity,
        primal_feasibility: primal,
        dual_feasibility: dual,
        complementary_slackness: compl,
        max: stationarity.max(primal).max(dual).max(compl),
    })
}

/// KKT residuals for linear constraints `A_ub x ≤ b_ub`, `A_eq x = b_eq` and bounds
/// `lo ≤ x ≤ hi` (infinite bounds skipped), with multipliers in the sign convention
/// `∇f + A_ubᵀμ + A_eqᵀλ − ν_lo + ν_hi = 0` (used by the LP and QP solvers).
#[allow(clippy::too_many_arguments)]
pub(crate) fn linear_kkt<F: Float>(
    grad_f: &ArrayRef1<F>,
    x: &ArrayRef1<F>,
    (a_ub, b_ub, mu): (&ArrayRef2<F>, &ArrayRef1<F>, &ArrayRef1<F>),
    (a_eq, b_eq, lam): (&ArrayRef2<F>, &ArrayRef1<F>, &ArrayRef1<F>),
    lo: &[F],
    hi: &[F],
    nu_lo: &ArrayRef1<F>,
    nu_hi: &ArrayRef1<F>,
) -> Result<KktResiduals<F>> {
    let n = x.len();
    // Inequality rows: A_ub x − b_ub, then lo − x (finite lo), then x − hi (finite hi).
    let lo_idx: Vec<usize> = (0..n).filter(|&j| lo[j].is_finite()).collect();
    let hi_idx: Vec<usize> = (0..n).filter(|&j| hi[j].is_finite()).collect();
    let m = a_ub.nrows() + lo_idx.len() + hi_idx.len();
    let mut g = Array1::zeros(m);
    let mut jac = ndarray::Array2::zeros((m, n));
    let mut mult = Array1::zeros(m);
    let gub = a_ub.dot(x) - b_ub;
    for k in 0..a_ub.nrows() {
        g[k] = gub[k];
        jac.row_mut(k).assign(&a_ub.row(k));
        mult[k] = mu[k];
    }
    let mut r = a_ub.nrows();
    for &j in &lo_idx {
        g[r] = lo[j] - x[j];
        jac[[r, j]] = -F::one();
        mult[r] = nu_lo[j];
        r += 1;
    }
    for &j in &hi_idx {
        g[r] = x[j] - hi[j];
        jac[[r, j]] = F::one();
        mult[r] = nu_hi[j];
        r += 1;
    }
    let h = a_eq.dot(x) - b_eq;
    kkt_residuals(
        grad_f,
        Some(ConstraintBlock {
            values: &g,
            jacobian: &jac,
            multipliers: &mult,
        }),
        Some(ConstraintBlock {
            values: &h,
            jacobian: a_eq,
            multipliers: lam,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn residuals_at_a_hand_solved_problem() {
        // min (x−2)² + (y−1)² s.t. x + y ≤ 2 (g), x − y = 0 (h).
        // By hand: x = y = 1; ∇f = (−2, 0); stationarity −2 + μ + λ = 0, 0 + μ − λ = 0 ⇒
        // μ = λ = 1.
        let x = array![1.0, 1.0];
        let grad = array![2.0 * (x[0] - 2.0), 2.0 * (x[1] - 1.0)];
        let jg = array![[1.0, 1.0]];
        let jh = array![[1.0, -1.0]];
        let r = kkt_residuals(
            &grad,
            Some(ConstraintBlock {
                values: &array![x[0] + x[1] - 2.0],
                jacobian: &jg,
                multipliers: &array![1.0],
            }),
            Some(ConstraintBlock {
                values: &array![x[0] - x[1]],
                jacobian: &jh,
                multipliers: &array![1.0],
            }),
        )
        .expect("shapes agree");
        assert_eq!(r.max, 0.0);
        // Wrong multiplier sign: dual infeasible and stationarity off.
        let r = kkt_residuals(
            &grad,
            Some(ConstraintBlock {
                values: &array![0.0],
                jacobian: &jg,
                multipliers: &array![-1.0],
            }),
            Some(ConstraintBlock {
                values: &array![0.0],
                jacobian: &jh,
                multipliers: &array![1.0],
            }),
        )
        .expect("ok");
        assert_eq!(r.dual_feasibility, 1.0);
        assert_eq!(r.stationarity, 2.0);
        // Infeasible point (1.5, 1): g = 0.5, h = 0.5; μg = 0.5; ∇f + μ∇g = (0, 1).
        let r = kkt_residuals(
            &array![-1.0, 0.0],
            Some(ConstraintBlock {
                values: &array![0.5],
                jacobian: &jg,
                multipliers: &array![1.0],
            }),
            Some(ConstraintBlock {
                values: &array![0.5],
                jacobian: &jh,
                multipliers: &array![0.0],
            }),
        )
        .expect("ok");
        assert_eq!(r.primal_feasibility, 0.5);
        assert_eq!(r.complementary_slackness, 0.5);
        assert_eq!(r.stationarity, 1.0);
        assert_eq!(r.max, 1.0);
    }

    #[test]
    fn unconstrained_and_errors() {
        let r = kkt_residuals(&array![0.0, -3.0], None, None).expect("ok");
        assert_eq!((r.stationarity, r.max), (3.0, 3.0));
        let bad = kkt_residuals(
            &array![0.0, 0.0],
            Some(ConstraintBlock {
                values: &array![0.0],
                jacobian: &Array2::zeros((1, 3)),
                multipliers: &array![0.0],
            }),
            None,
        );
        assert!(matches!(bad, Err(Error::ShapeMismatch { .. })));
        let bad = kkt_residuals(
            &array![0.0],
            None,
            Some(ConstraintBlock {
                values: &array![0.0],
                jacobian: &array![[1.0]],
                multipliers: &array![0.0, 1.0],
            }),
        );
        assert!(matches!(bad, Err(Error::ShapeMismatch { .. })));
        assert!(matches!(
            kkt_residuals(&array![f64::NAN], None, None),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn linear_helper_skips_infinite_bounds() {
        // min x s.t. x ≥ 1 (lo = 1), hi = +∞: x = 1, ν_lo = 1.
        let r = linear_kkt(
            &array![1.0],
            &array![1.0],
            (&Array2::zeros((0, 1)), &Array1::zeros(0), &Array1::zeros(0)),
            (&Array2::zeros((0, 1)), &Array1::zeros(0), &Array1::zeros(0)),
            &[1.0],
            &[f64::INFINITY],
            &array![1.0],
            &array![0.0],
        )
        .expect("ok");
        assert_eq!(r.max, 0.0);
    }
}
