//! Shared preprocessing of the design matrix: validation, centring, `XᵀX` and `Xᵀy`.
//!
//! Every closed-form linear model works on the *centred* problem when it fits an intercept:
//! `X_c = X − 1 x̄ᵀ`, `y_c = y − ȳ`, and the intercept is recovered as `b = ȳ − x̄ᵀw`
//! (the intercept is never penalised). This module computes, in as few passes over `X` as
//! possible:
//!
//! 1. **One fused, parallel pass** (fixed row chunks, partial sums folded in chunk order, so the
//!    result is bitwise identical for any thread count): the column sums of `X` and
//!    `Xᵀ(y − ȳ)`. `Xᵀ(y − ȳ) = X_cᵀ y_c` exactly in exact arithmetic because `Σ(yᵢ − ȳ) = 0`,
//!    and computing it this way avoids any cancellation from the means of `X`. The same pass
//!    doubles as the finiteness check of `X`: a NaN or infinity anywhere makes its column sum
//!    non-finite, and only then are the rows scanned for the position.
//! 2. **One BLAS gemm** for `XᵀX`, turned into `X_cᵀX_c = XᵀX − n x̄x̄ᵀ` by a rank-one
//!    correction. The correction cancels digits when a column's mean is large against its
//!    spread: column `j` loses about `log₁₀(G_raw,jj / G_c,jj)` digits. When any column would
//!    lose more than a quarter of the available digits (`G_c,jj < ε^{1/4} G_raw,jj`, i.e.
//!    ~4 digits in `f64`), the Gram matrix is recomputed exactly from a centred copy, built and
//!    multiplied 2,048 rows at a time (memory stays `O(2048·d)`). So the fast path is as
//!    accurate as the centred copy to about `1e-12` relative, and ill-centred data pays one extra
//!    pass.
//!
//! This is an implementation choice, not from the course notes (which centre explicitly).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, ShapeBuilder, s};
use ndlearn_core::linalg::{gemm, matmul};
use ndlearn_core::validate::{check_finite_2d, check_min_samples};
use ndlearn_core::{Error, Float, Result, par};

/// Rows per chunk of the fused pass (fixed: results do not depend on the thread count).
const PASS_CHUNK: usize = 2048;
/// Rows per block of the exact centred Gram product.
const GRAM_CHUNK: usize = 2048;
/// Up to this many targets the fused pass accumulates `Xᵀy` itself; beyond, a gemm does it.
const FUSED_TARGETS: usize = 8;

/// Checks shapes and the target: at least `min_samples` rows, at least one column, `y` with one
/// row per sample and finite. The finiteness of `X` is checked by [`column_sums_and_xty`].
pub(crate) fn check_xy<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    min_samples: usize,
    context: &'static str,
) -> Result<()> {
    if x.nrows() != y.nrows() {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("target with {} rows (one per row of X)", x.nrows()),
            found: format!("{} rows", y.nrows()),
        });
    }
    check_min_samples(x.nrows(), min_samples.max(1), context)?;
    if x.ncols() == 0 {
        return Err(Error::ShapeMismatch {
            context,
            expected: "at least one feature column".into(),
            found: "0 columns".into(),
        });
    }
    if y.ncols() == 0 {
        return Err(Error::ShapeMismatch {
            context,
            expected: "at least one target column".into(),
            found: "0 columns".into(),
        });
    }
    for (t, col) in y.columns().into_iter().enumerate() {
        if let Some(row) = col.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                context: "y",
                row,
                col: t,
            });
        }
    }
    Ok(())
}

/// A one-dimensional target seen as an `n × 1` matrix.
pub(crate) fn as_column<F: Float>(y: &ArrayRef1<F>) -> ArrayView2<'_, F> {
    y.view().insert_axis(Axis(1))
}

/// The first-pass statistics of a regression problem.
#[derive(Debug, Clone)]
pub(crate) struct Moments<F: Float> {
    /// Number of rows.
    pub n: usize,
    /// Column means of `X` (zeros without intercept).
    pub x_mean: Array1<F>,
    /// Means of the targets (zeros without intercept).
    pub y_mean: Array1<F>,
    /// `X_cᵀ y_c` (`d × k`).
    pub xty: Array2<F>,
    /// `‖y_c‖²` per target.
    pub yty: Array1<F>,
    /// Whether the intercept is fitted (centring applied).
    pub centred: bool,
}

/// Pass 1: target means, column sums of `X` and `Xᵀ(y − ȳ)`; errors with the position of the
/// first non-finite entry of `X`.
pub(crate) fn column_sums_and_xty<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    fit_intercept: bool,
) -> Result<Moments<F>> {
    let (n, d) = x.dim();
    let k = y.ncols();
    let nf = F::cast(n);
    let y_mean = if fit_intercept {
        y.sum_axis(Axis(0)).mapv(|s| s / nf)
    } else {
        Array1::zeros(k)
    };
    let mut yc = y.to_owned();
    if fit_intercept {
        yc -= &y_mean;
    }
    let yty = Array1::from_iter(yc.columns().into_iter().map(|c| c.dot(&c)));
    let fused = k <= FUSED_TARGETS && x.is_standard_layout();
    let (sums, xty) = if fused {
        fused_pass(x, &yc)
    } else {
        let sums = x.sum_axis(Axis(0));
        let xty = if sums.iter().all(|v| v.is_finite()) {
            matmul(&x.t(), &yc)
        } else {
            Array2::zeros((d, k))
        };
        (sums, xty)
    };
    if !sums.iter().all(|v| v.is_finite()) {
        // A NaN/inf entry, or finite values whose sum overflows (then the solvers report it).
        check_finite_2d(x, "X")?;
    }
    let x_mean = if fit_intercept {
        sums.mapv(|s| s / nf)
    } else {
        Array1::zeros(d)
    };
    Ok(Moments {
        n,
        x_mean,
        y_mean,
        xty,
        yty,
        centred: fit_intercept,
    })
}

/// Column sums and `Xᵀ yc` in one parallel pass over the rows of a standard-layout `X`.
fn fused_pass<F: Float>(x: &ArrayRef2<F>, yc: &Array2<F>) -> (Array1<F>, Array2<F>) {
    let (_, d) = x.dim();
    let k = yc.ncols();
    let parts = par::map_row_chunks(x, PASS_CHUNK, |rows, view| {
        let mut sums = vec![F::zero(); d];
        let mut sxy = vec![F::zero(); d * k];
        for (row, i) in view.rows().into_iter().zip(rows) {
            let Some(r) = row.to_slice() else {
                continue; // unreachable: rows of a standard-layout matrix are contiguous
            };
            for (s, &v) in sums.iter_mut().zip(r) {
                *s += v;
            }
            for t in 0..k {
                let yv = yc[[i, t]];
                for (s, &v) in sxy[t * d..(t + 1) * d].iter_mut().zip(r) {
                    *s += v * yv;
                }
            }
        }
        (sums, sxy)
    });
    let mut sums = Array1::zeros(d);
    let mut xty = Array2::zeros((d, k));
    for (ps, pxy) in parts {
        for (s, v) in sums.iter_mut().zip(ps) {
            *s += v;
        }
        for t in 0..k {
            for j in 0..d {
                xty[[j, t]] += pxy[t * d + j];
            }
        }
    }
    (sums, xty)
}

/// `X_cᵀX_c` (or `XᵀX` without intercept), symmetric, by one gemm and a rank-one correction,
/// recomputed exactly from centred blocks when the correction would cancel too many digits
/// (see the module docs).
pub(crate) fn gram<F: Float>(x: &ArrayRef2<F>, m: &Moments<F>) -> Array2<F> {
    let mut g = ndlearn_core::linalg::gram(x);
    if m.centred {
        let raw_diag = g.diag().to_owned();
        let nf = F::cast(m.n);
        for i in 0..g.nrows() {
            let a = nf * m.x_mean[i];
            for j in 0..g.ncols() {
                g[[i, j]] -= a * m.x_mean[j];
            }
        }
        let limit = F::epsilon().sqrt().sqrt();
        let cancels = g
            .diag()
            .iter()
            .zip(raw_diag.iter())
            .any(|(&c, &r)| r > F::zero() && below(c, limit * r));
        if cancels {
            g = centred_gram_exact(x, &m.x_mean);
        }
    }
    symmetrize(&mut g);
    g
}

/// `X_cᵀX_c` from centred blocks of [`GRAM_CHUNK`] rows (one gemm per block).
fn centred_gram_exact<F: Float>(x: &ArrayRef2<F>, mean: &Array1<F>) -> Array2<F> {
    let (n, d) = x.dim();
    let mut g = Array2::zeros((d, d));
    let mut buf = Array2::zeros((GRAM_CHUNK.min(n), d));
    let mut start = 0;
    while start < n {
        let end = (start + GRAM_CHUNK).min(n);
        let mut b = buf.slice_mut(s![..end - start, ..]);
        b.assign(&x.slice(s![start..end, ..]));
        b -= mean;
        gemm(F::one(), &b.t(), &b, F::one(), &mut g);
        start = end;
    }
    g
}

/// `(X − 1x̄ᵀ) B` (`n × m` for `B` of shape `d × m`), computed [`GRAM_CHUNK`] rows at a time so
/// that no full centred copy of `X` is made.
pub(crate) fn centred_dot<F: Float>(
    x: &ArrayRef2<F>,
    mean: &Array1<F>,
    b: &ArrayRef2<F>,
) -> Array2<F> {
    let (n, d) = x.dim();
    let mut out = Array2::zeros((n, b.ncols()));
    let mut buf = Array2::zeros((GRAM_CHUNK.min(n), d));
    let mut start = 0;
    while start < n {
        let end = (start + GRAM_CHUNK).min(n);
        let mut blk = buf.slice_mut(s![..end - start, ..]);
        blk.assign(&x.slice(s![start..end, ..]));
        blk -= mean;
        gemm(
            F::one(),
            &blk,
            b,
            F::zero(),
            &mut out.slice_mut(s![start..end, ..]),
        );
        start = end;
    }
    out
}

/// `a < b`, or either is NaN (the negation of `a >= b`, spelled out for NaN-aware tests).
pub(crate) fn below<F: Float>(a: F, b: F) -> bool {
    a.is_nan() || b.is_nan() || a < b
}

/// Replaces `A` by `(A + Aᵀ)/2` so that no solver depends on which triangle it reads.
pub(crate) use ndlearn_core::stats::symmetrize;

/// A centred copy `X − 1 x̄ᵀ` in row-major order.
pub(crate) fn centred_copy<F: Float>(x: &ArrayRef2<F>, mean: &Array1<F>) -> Array2<F> {
    let mut xc = x.to_owned();
    xc -= mean;
    xc
}

/// A centred copy `X − 1 x̄ᵀ` in column-major (Fortran) order, so that every column is one
/// contiguous slice (coordinate descent). The transposition is blocked (32 rows at a time, so
/// the rows being read stay in cache) and runs in parallel over blocks of columns; a pure copy,
/// so the result does not depend on the thread count.
pub(crate) fn centred_copy_f<F: Float>(x: &ArrayRef2<F>, mean: &Array1<F>) -> Array2<F> {
    use rayon::prelude::*;
    const ROWS: usize = 32;
    const COLS: usize = 64;
    let (n, d) = x.dim();
    let mut data = vec![F::zero(); n * d];
    let x_slice = x.as_slice();
    let mean_v = mean.to_vec();
    if n > 0 {
        data.par_chunks_mut(n * COLS)
            .enumerate()
            .for_each(|(cb, block)| {
                let j0 = cb * COLS;
                let ncols = block.len() / n;
                let mu = &mean_v[j0..j0 + ncols];
                for i0 in (0..n).step_by(ROWS) {
                    let i1 = (i0 + ROWS).min(n);
                    for i in i0..i1 {
                        match x_slice {
                            Some(xs) => {
                                let row = &xs[i * d + j0..i * d + j0 + ncols];
                                for (c, (&v, &m)) in row.iter().zip(mu).enumerate() {
                                    block[c * n + i] = v - m;
                                }
                            }
                            None => {
                                for (c, &m) in mu.iter().enumerate() {
                                    block[c * n + i] = x[[i, j0 + c]] - m;
                                }
                            }
                        }
                    }
                }
            });
    }
    // `data` holds column j at [j·n, (j+1)·n): the memory of an F-order n × d array.
    Array2::from_shape_vec((n, d).f(), data).unwrap_or_else(|_| Array2::zeros((n, d).f()))
}

/// The centred targets `Y − 1 ȳᵀ`.
pub(crate) fn centred_targets<F: Float>(y: &ArrayView2<'_, F>, mean: &Array1<F>) -> Array2<F> {
    let mut yc = y.to_owned();
    yc -= mean;
    yc
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn moments_match_a_direct_computation() {
        let x: Array2<f64> = array![[1.0, 10.0], [2.0, 11.0], [4.0, 9.0], [7.0, 13.0]];
        let y = array![1.0, 3.0, 2.0, 6.0];
        let yv = as_column(&y);
        let m = column_sums_and_xty(&x, &yv, true).expect("finite input");
        // x̄ = (3.5, 10.75), ȳ = 3.
        assert_eq!(m.x_mean, array![3.5, 10.75]);
        assert_eq!(m.y_mean, array![3.0]);
        let xc = centred_copy(&x, &m.x_mean);
        let yc = &y - 3.0;
        let want = xc.t().dot(&yc);
        for j in 0..2 {
            assert!((m.xty[[j, 0]] - want[j]).abs() < 1e-12);
        }
        assert!((m.yty[0] - yc.dot(&yc)).abs() < 1e-12);
        let g = gram(&x, &m);
        let want = xc.t().dot(&xc);
        assert!((&g - &want).iter().all(|v| v.abs() < 1e-12));
    }

    #[test]
    fn large_means_take_the_exact_path() {
        // Column 0 has mean 1e9 and spread 1: the rank-one correction would lose every digit.
        let x: Array2<f64> = array![
            [1e9 + 1.0, 1.0],
            [1e9 - 1.0, 2.0],
            [1e9 + 2.0, 0.5],
            [1e9 - 2.0, 4.0]
        ];
        let y = array![0.0, 1.0, 2.0, 3.0];
        let m = column_sums_and_xty(&x, &as_column(&y), true).expect("finite input");
        let g = gram(&x, &m);
        // Centred column 0 is (1, -1, 2, -2) exactly: Σ = 10.
        assert!((g[[0, 0]] - 10.0).abs() < 1e-6, "{}", g[[0, 0]]);
    }

    #[test]
    fn column_major_centred_copy() {
        // 70 columns: more than one 64-column block; 40 rows: more than one 32-row block.
        let x = Array2::from_shape_fn((40, 70), |(i, j)| (i * 70 + j) as f64 * 0.5);
        let mean = x.mean_axis(Axis(0)).expect("rows");
        let want = centred_copy(&x, &mean);
        for input in [x.clone(), x.t().as_standard_layout().t().to_owned()] {
            let xf = centred_copy_f(&input, &mean);
            assert!(xf.t().is_standard_layout());
            assert_eq!(xf, want);
        }
        let view = x.slice(s![..7, 3..9]);
        let m = view.mean_axis(Axis(0)).expect("rows");
        assert_eq!(centred_copy_f(&view, &m), centred_copy(&view, &m));
    }

    #[test]
    fn non_finite_x_is_located() {
        let x = array![[1.0, 2.0], [3.0, f64::NAN], [0.0, 1.0]];
        let y = array![1.0, 2.0, 3.0];
        match column_sums_and_xty(&x, &as_column(&y), true) {
            Err(Error::NonFinite { row, col, .. }) => assert_eq!((row, col), (1, 1)),
            other => panic!("unexpected {other:?}"),
        }
        let yv = as_column(&y);
        assert!(check_xy(&x.slice(s![..2, ..]), &yv, 1, "t").is_err());
    }
}
