//! Conventions shared by the decomposition estimators.

use ndarray::{Array2, ArrayRef2};
use ndlearn_core::distance::Metric;
use ndlearn_core::kernel::Kernel;
use ndlearn_core::validate::ModelCheck;
use ndlearn_core::{Error, Float, Result};

/// scikit-learn's `svd_flip` on `Vᵀ`: every row's entry of largest magnitude (the first on
/// ties) made positive. Returned row-major, the layout a deserialised model has, so a saved and
/// reloaded model runs the same GEMM kernels.
pub(crate) fn flip_rows<F: Float>(vt: Array2<F>) -> Array2<F> {
    let mut vt = vt.as_standard_layout().into_owned();
    for mut row in vt.rows_mut() {
        let lead = row
            .iter()
            .fold(F::zero(), |b, &v| if v.abs() > b.abs() { v } else { b });
        if lead < F::zero() {
            row.mapv_inplace(|v| -v);
        }
    }
    vt
}

/// Scores passed to an `inverse_transform` must have one finite column per component.
pub(crate) fn check_scores<F: Float>(
    z: &ArrayRef2<F>,
    k: usize,
    context: &'static str,
) -> Result<()> {
    if z.ncols() != k {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("{k} columns (one per component)"),
            found: format!("{}", z.ncols()),
        });
    }
    ndlearn_core::validate::check_finite_2d(z, context)
}

/// A `k × d` matrix of components (`k ≥ 1`, `d ≥ 1`), finite.
pub(crate) fn check_components<F: Float>(
    c: &ModelCheck,
    components: &ArrayRef2<F>,
    d: usize,
) -> Result<()> {
    c.at_least("components (rows)", components.nrows(), 1)?;
    c.at_least("n_features", d, 1)?;
    c.shape("components", components.dim(), (components.nrows(), d))?;
    c.finite("components", components)
}

/// A metric stored with training rows of `d` columns: valid, and a Mahalanobis matrix `d × d`.
pub(crate) fn check_metric(c: &ModelCheck, metric: &Metric, d: usize) -> Result<()> {
    metric
        .validate()
        .map_err(|e| c.error(format!("metric: {e}")))?;
    c.that(
        !matches!(metric, Metric::Mahalanobis { vi } if vi.nrows() != d),
        || format!("the Mahalanobis matrix does not match the {d} features"),
    )
}

/// A kernel stored with training rows of `d` columns: valid and accepting `d` features.
pub(crate) fn check_kernel(c: &ModelCheck, kernel: &Kernel, d: usize) -> Result<()> {
    kernel
        .validate()
        .and_then(|()| kernel.check_n_features(d))
        .map_err(|e| c.error(format!("kernel: {e}")))
}

/// One value finite and `>= 0`.
pub(crate) fn non_negative_value<F: Float>(c: &ModelCheck, field: &str, v: F) -> Result<()> {
    c.that(v.is_finite() && v >= F::zero(), || {
        format!("`{field}` must be finite and non-negative")
    })
}
