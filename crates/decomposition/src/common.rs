//! Conventions shared by the decomposition estimators.

use ndarray::{Array2, ArrayRef2};
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
