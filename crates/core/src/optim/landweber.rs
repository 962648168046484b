//! Landweber iteration for least squares (catalog CL-016; the course notes' gradient descent on
//! `½‖Xβ − Y‖²_F`; Landweber, "An iteration formula for Fredholm integral equations of the
//! first kind", American Journal of Mathematics 73(3), 1951).
//!
//! `β_{k+1} = β_k + τ Xᵀ(Y − Xβ_k)`, started at `β_0 = 0`, converges for `0 < τ < 2/σ₁²` to the
//! **minimum-norm** least-squares solution `X⁺Y` (each iterate stays in the row space of `X`).
//! The default `τ = 1/σ₁²` follows the course notes. Works column-wise for multi-output `Y` (`n × t`).
//! Each step costs two gemms, `O(n d t)`; the error contracts by `1 − τσ_r²` per step (`σ_r` the
//! smallest non-zero singular value), so ill-conditioned problems converge slowly: prefer
//! [`crate::linalg::lstsq`] unless early stopping (implicit regularisation) is the point.

use ndarray::{Array2, ArrayRef2};

use super::{StopCriteria, StopReason};
use crate::validate::{check_finite_2d, check_target_len};
use crate::{Error, Float, Result, linalg};

/// Result of [`landweber`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LandweberResult<F: Float> {
    /// Coefficients `β` (`d × t`).
    pub coef: Array2<F>,
    /// Step size used.
    pub tau: F,
    /// Iterations performed.
    pub n_iter: usize,
    /// Whether `‖Δβ‖_F ≤ x_tol · max(1, ‖β‖_F)` was reached before `max_iter`.
    pub converged: bool,
    /// Which rule stopped the run (`StepNorm` or `MaxIter`).
    pub stop: StopReason,
}

/// Runs the Landweber iteration on `X` (`n × d`) and `Y` (`n × t`). `tau = None` uses `1/σ₁²`.
/// Only `stop.max_iter` and `stop.x_tol` apply.
///
/// # Errors
/// Shape mismatch, non-finite input, `tau` outside `(0, 2/σ₁²)`, an all-zero `X`, or invalid
/// stopping criteria.
pub fn landweber<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef2<F>,
    tau: Option<f64>,
    stop: &StopCriteria,
) -> Result<LandweberResult<F>> {
    stop.validate()?;
    check_target_len(x.nrows(), y.nrows(), "landweber")?;
    check_finite_2d(x, "X")?;
    check_finite_2d(y, "Y")?;
    let s1 = linalg::singular_values(x)?[0].to_f64_lossless();
    if s1 <= 0.0 {
        return Err(Error::invalid_param("x", "X is all zeros: nothing to fit"));
    }
    let limit = 2.0 / (s1 * s1);
    let tau = tau.unwrap_or(1.0 / (s1 * s1));
    if !(tau.is_finite() && tau > 0.0 && tau < limit) {
        return Err(Error::invalid_param(
            "tau",
            format!("must lie in (0, 2/σ₁²) = (0, {limit:e}) for convergence, got {tau}"),
        ));
    }
    let tau_f = F::cast(tau);
    let xt = x.t();
    let mut coef = Array2::<F>::zeros((x.ncols(), y.ncols()));
    let mut n_iter = 0;
    let mut reason = StopReason::MaxIter;
    while n_iter < stop.max_iter {
        n_iter += 1;
        let mut resid = x.dot(&coef);
        resid.zip_mut_with(y, |r, &yv| *r = yv - *r);
        let step = xt.dot(&resid) * tau_f;
        coef += &step;
        let step_norm = step.iter().map(|v| *v * *v).sum::<F>().sqrt();
        let coef_norm = coef.iter().map(|v| *v * *v).sum::<F>().sqrt();
        if stop.x_tol > 0.0 && step_norm <= F::cast(stop.x_tol) * F::one().max(coef_norm) {
            reason = StopReason::StepNorm;
            break;
        }
    }
    Ok(LandweberResult {
        coef,
        tau: tau_f,
        n_iter,
        converged: reason != StopReason::MaxIter,
        stop: reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn converges_to_the_minimum_norm_solution_multi_output() {
        // Rank-deficient X (column 2 = column 0 + column 1) and two outputs.
        let x: Array2<f64> = array![
            [1.0, 0.0, 1.0],
            [0.0, 1.0, 1.0],
            [1.0, 1.0, 2.0],
            [2.0, -1.0, 1.0],
            [1.0, 2.0, 3.0]
        ];
        let y: Array2<f64> = array![[1.0, 0.5], [2.0, -1.0], [2.5, 0.0], [0.0, 1.0], [4.0, 2.0]];
        let stop = StopCriteria::default().max_iter(100_000).x_tol(1e-14);
        let r = landweber(&x, &y, None, &stop).expect("valid");
        assert!(r.converged, "stopped by {:?} after {}", r.stop, r.n_iter);
        let expected = linalg::pinv(&x, None).expect("ok").dot(&y);
        assert!(
            (&r.coef - &expected).iter().all(|d| d.abs() < 1e-10),
            "{}",
            r.coef
        );
    }

    #[test]
    fn errors_and_max_iter() {
        let x: Array2<f64> = array![[1.0, 0.0], [0.0, 2.0]];
        let y: Array2<f64> = array![[1.0], [1.0]];
        let stop = StopCriteria::default();
        assert!(
            landweber(&x, &y, Some(0.5), &stop).is_err(),
            "tau >= 2/σ₁² = 0.5 diverges"
        );
        assert!(landweber(&x, &y, Some(0.0), &stop).is_err());
        assert!(landweber(&x, &array![[1.0]], None, &stop).is_err());
        assert!(landweber(&Array2::<f64>::zeros((2, 2)), &y, None, &stop).is_err());
        let r = landweber(&x, &y, None, &stop.max_iter(1)).expect("valid");
        assert!(!r.converged && r.n_iter == 1);
        // One step from 0 with τ = 1/σ₁² = 1/4: β = τ Xᵀ Y = [0.25, 0.5].
        assert!((r.coef[[0, 0]] - 0.25).abs() < 1e-15 && (r.coef[[1, 0]] - 0.5).abs() < 1e-15);
    }
}
