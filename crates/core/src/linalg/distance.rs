//! Pairwise squared Euclidean distances by the Gram trick.

use ndarray::{Array1, Array2, ArrayRef2, Axis};

use ndarray::parallel::prelude::*;

use crate::{Error, Float, Result};

/// Squared Euclidean norm of every row.
pub fn row_sq_norms<F: Float>(x: &ArrayRef2<F>) -> Array1<F> {
    x.map_axis(Axis(1), |r| r.dot(&r))
}

/// `D[i, j] = ‖xᵢ − yⱼ‖²` for the rows of `x` (`n × d`) and `y` (`m × d`), computed as
/// `‖xᵢ‖² + ‖yⱼ‖² − 2 xᵢᵀyⱼ` with one gemm (`X Yᵀ`), then clamped at 0 (cancellation can make
/// tiny distances slightly negative); NaN (from overflowing inputs) is kept, never turned into 0.
///
/// Cost `O(n m d)` at the machine's gemm rate. The cancellation error is about
/// `ε (‖xᵢ‖² + ‖yⱼ‖²)`, so for points far from the origin and close to each other center the
/// data first or compute those distances directly.
pub fn pairwise_sq_euclidean<F: Float>(x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Array2<F>> {
    if x.ncols() != y.ncols() {
        return Err(Error::ShapeMismatch {
            context: "pairwise_sq_euclidean",
            expected: format!("{} columns in y (as in x)", x.ncols()),
            found: format!("{} columns", y.ncols()),
        });
    }
    let xn = row_sq_norms(x);
    let yn = row_sq_norms(y);
    let mut d = super::matmul(x, &y.t());
    let two = F::cast(2.0);
    // The elementwise pass is memory-bound: run it over fixed row chunks in parallel (each
    // entry is independent, so the result does not depend on the thread count).
    let ncols = d.ncols().max(1);
    let rows_per_chunk = (1 << 16) / ncols + 1;
    d.axis_chunks_iter_mut(Axis(0), rows_per_chunk)
        .into_par_iter()
        .enumerate()
        .for_each(|(c, mut block)| {
            for (r, mut row) in block.rows_mut().into_iter().enumerate() {
                let xi = xn[c * rows_per_chunk + r];
                ndarray::Zip::from(&mut row).and(&yn).for_each(|v, &yj| {
                    let s = xi + yj - two * *v;
                    *v = if s < F::zero() { F::zero() } else { s };
                });
            }
        });
    Ok(d)
}

/// `D[i, j] = ‖xᵢ − xⱼ‖²` for the rows of one matrix: exactly symmetric with an exactly zero
/// diagonal (the Gram trick alone guarantees neither).
pub fn pairwise_sq_euclidean_self<F: Float>(x: &ArrayRef2<F>) -> Array2<F> {
    let n = x.nrows();
    let xn = row_sq_norms(x);
    let g = super::matmul(x, &x.t());
    let two = F::cast(2.0);
    let mut d = Array2::zeros((n, n));
    for i in 0..n {
        for j in (i + 1)..n {
            let s = xn[i] + xn[j] - two * g[[i, j]];
            let s = if s < F::zero() { F::zero() } else { s };
            d[[i, j]] = s;
            d[[j, i]] = s;
        }
    }
    d
}
