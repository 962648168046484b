//! Covariance estimators used by the discriminant analyses: the empirical (MLE) covariance,
//! fixed shrinkage towards a scaled identity, and the Ledoit–Wolf optimal shrinkage
//! (scikit-learn's `empirical_covariance`, `shrunk_covariance`, `ledoit_wolf`).
//!
//! Shrinkage `s ∈ [0, 1]` replaces `Σ̂` by `(1 − s) Σ̂ + s μ I` with `μ = tr(Σ̂)/d`. Ledoit and
//! Wolf (2004) choose `s = min(β̂, δ̂)/δ̂` with `δ̂ = ‖Σ̂ − μI‖²_F / d` and
//! `β̂ = (1/(d n)) (1/n Σ_i ‖x_i‖⁴ − ‖Σ̂‖²_F)` computed on the centred data, which minimises
//! the expected Frobenius loss asymptotically.
//!
//! ```
//! use ndlearn_bayes::covariance::{empirical_covariance, ledoit_wolf, shrunk_covariance};
//! use ndlearn_core::ndarray::array;
//!
//! let x = array![[1.0f64, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]];
//! let c = empirical_covariance(&x)?;
//! assert!((c[[0, 0]] - 1.25).abs() < 1e-15);
//! let s = shrunk_covariance(&c, 1.0)?; // full shrinkage: μ I
//! assert!((s[[0, 1]]).abs() < 1e-15 && (s[[0, 0]] - s[[1, 1]]).abs() < 1e-15);
//! let (lw, shrinkage) = ledoit_wolf(&x)?;
//! assert!((0.0..=1.0).contains(&shrinkage) && lw.nrows() == 2);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array2, ArrayRef2, Axis};
use ndlearn_core::validate::check_fit_input;
use ndlearn_core::{Error, Float, Result};

/// The MLE covariance `(X − x̄)ᵀ(X − x̄) / n` (`d × d`, exactly symmetric).
///
/// # Errors
/// Empty or non-finite `x`.
pub fn empirical_covariance<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<F>> {
    check_fit_input(x, 1, "empirical_covariance")?;
    ndlearn_core::stats::covariance(x, 0)
}

/// `(1 − s) Σ + s (tr Σ / d) I`.
///
/// # Errors
/// [`Error::InvalidParam`] for `s` outside `[0, 1]`; a non-square `cov`.
pub fn shrunk_covariance<F: Float>(cov: &ArrayRef2<F>, s: f64) -> Result<Array2<F>> {
    if !(0.0..=1.0).contains(&s) {
        return Err(Error::invalid_param(
            "shrinkage",
            format!("must be in [0, 1], got {s}"),
        ));
    }
    let d = cov.nrows();
    if cov.ncols() != d {
        return Err(Error::ShapeMismatch {
            context: "shrunk_covariance",
            expected: "a square matrix".into(),
            found: format!("{:?}", cov.dim()),
        });
    }
    let mu = cov.diag().sum() / F::cast(d as f64);
    let sf = F::cast(s);
    let mut out = cov.mapv(|v| (F::one() - sf) * v);
    for i in 0..d {
        out[[i, i]] += sf * mu;
    }
    Ok(out)
}

/// The Ledoit–Wolf shrinkage coefficient of `x` (centred here).
///
/// # Errors
/// Empty or non-finite `x`.
pub fn ledoit_wolf_shrinkage<F: Float>(x: &ArrayRef2<F>) -> Result<f64> {
    check_fit_input(x, 1, "ledoit_wolf")?;
    let (n, d) = x.dim();
    if d == 1 {
        return Ok(0.0);
    }
    let mean = x
        .mean_axis(Axis(0))
        .unwrap_or_else(|| ndarray::Array1::zeros(d));
    let xc = (x.to_owned() - &mean).mapv(|v| -> f64 { v.as_() });
    let nf = n as f64;
    let x2 = xc.mapv(|v| v * v);
    let emp_trace = x2.sum_axis(Axis(0)) / nf;
    let mu = emp_trace.sum() / d as f64;
    let beta_raw = ndlearn_core::linalg::gram(&x2).sum();
    let g = ndlearn_core::linalg::gram(&xc);
    let delta_raw = g.mapv(|v| v * v).sum() / (nf * nf);
    let beta = (beta_raw / nf - delta_raw) / (d as f64 * nf);
    let delta = (delta_raw - 2.0 * mu * emp_trace.sum() + d as f64 * mu * mu) / d as f64;
    let beta = beta.min(delta);
    Ok(if beta == 0.0 { 0.0 } else { beta / delta })
}

/// The Ledoit–Wolf shrunk covariance and its shrinkage coefficient.
///
/// # Errors
/// Empty or non-finite `x`.
pub fn ledoit_wolf<F: Float>(x: &ArrayRef2<F>) -> Result<(Array2<F>, f64)> {
    let s = ledoit_wolf_shrinkage(x)?;
    let c = empirical_covariance(x)?;
    Ok((shrunk_covariance(&c, s)?, s))
}
