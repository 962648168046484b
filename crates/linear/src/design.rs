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
use ndlearn_core::linalg::gemm;
use ndlearn_core::stats::mergeable::{CrossMoments, centred_gram};
use ndlearn_core::validate::check_min_samples;
use ndlearn_core::{Error, Float, Result};

/// Rows per block of the centred products.
const GRAM_CHUNK: usize = 2048;

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

/// The first-pass statistics of a regression problem: core's mergeable
/// [`CrossMoments`](ndlearn_core::stats::mergeable::CrossMoments) (count, means, `X_cᵀy_c`,
/// `‖y_c‖²`), so a fit from merged partial moments and a fit from the rows compute the same
/// thing.
pub(crate) type Moments<F> = CrossMoments<F>;

/// Pass 1: target means, column sums of `X` and `Xᵀ(y − ȳ)`; errors with the position of the
/// first non-finite entry of `X`.
pub(crate) fn column_sums_and_xty<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    fit_intercept: bool,
) -> Result<Moments<F>> {
    CrossMoments::from_rows(x, y, fit_intercept, false)
}

/// `X_cᵀX_c` (or `XᵀX` without intercept), symmetric, by one gemm and a rank-one correction,
/// recomputed exactly from centred blocks when the correction would cancel too many digits
/// (see the module docs); the moments' own Gram matrix when they carry one.
pub(crate) fn gram<F: Float>(x: &ArrayRef2<F>, m: &Moments<F>) -> Array2<F> {
    match &m.xtx {
        Some(g) => g.clone(),
        None => centred_gram(x, &m.x_mean, m.centred),
    }
}

/// Checks moments handed to a `fit_moments`: at least one row, a Gram matrix, at least one
/// target, centred as `fit_intercept` asks. Returns the Gram matrix.
pub(crate) fn check_moments<'a, F: Float>(
    m: &'a Moments<F>,
    fit_intercept: bool,
    context: &'static str,
) -> Result<&'a Array2<F>> {
    if m.n == 0 || (m.centred && m.n < 2) {
        return Err(Error::TooFewSamples {
            context,
            needed: if m.centred { 2 } else { 1 },
            found: m.n,
        });
    }
    let Some(g) = m.xtx.as_ref() else {
        return Err(Error::invalid_param(
            "moments",
            "the moments carry no Gram matrix: accumulate them with CrossSpec { gram: true, .. }",
        ));
    };
    if m.centred != fit_intercept {
        return Err(Error::invalid_param(
            "fit_intercept",
            format!(
                "fit_intercept = {fit_intercept} but the moments are {}centred",
                if m.centred { "" } else { "not " }
            ),
        ));
    }
    if m.xty.ncols() == 0 {
        return Err(Error::invalid_param(
            "moments",
            "the moments carry no target",
        ));
    }
    Ok(g)
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

    /// A well-conditioned problem with an offset column (so centring matters) and two targets.
    fn merge_problem() -> (Array2<f64>, Array2<f64>) {
        let x = Array2::from_shape_fn((61, 5), |(i, j)| {
            let h = ((i * 2_654_435_761 + j * 40_503) % 10_007) as f64 / 10_007.0;
            (h - 0.5) * (1.0 + j as f64) + if j == 2 { 100.0 } else { 0.0 }
        });
        let y = Array2::from_shape_fn((61, 2), |(i, t)| {
            let r = x.row(i);
            1.5 * r[0] - 2.0 * r[1]
                + 0.5 * r[2]
                + (t as f64) * r[4]
                + 3.0
                + (i as f64 * 1.7).cos() * 0.1
        });
        (x, y)
    }

    /// The merged moments of `parts` consecutive row blocks of `(x, y)` (targets `..k`).
    fn merged(
        x: &Array2<f64>,
        y: &Array2<f64>,
        k: usize,
        parts: usize,
        centred: bool,
    ) -> Moments<f64> {
        use ndlearn_core::stats::mergeable::{CrossSpec, Mergeable, RowBlock};
        let spec = CrossSpec {
            n_features: x.ncols(),
            n_targets: k,
            centred,
            gram: true,
        };
        let n = x.nrows();
        let mut m = Moments::zero(&spec);
        for p in 0..parts {
            let r = p * n / parts..(p + 1) * n / parts;
            let part = Moments::of(
                &spec,
                &RowBlock::new(x.slice(s![r.clone(), ..])).targets(y.slice(s![r, ..k])),
            )
            .expect("block");
            m.merge(&part).expect("same spec");
        }
        m
    }

    #[test]
    fn fits_from_merged_moments_equal_fits_on_the_rows() {
        use crate::{ElasticNet, Lasso, LinearRegression, OlsSolver, Precompute, Ridge};
        use ndlearn_core::Fit;
        let (x, y) = merge_problem();
        let y0 = y.column(0).to_owned();
        let close = |a: &Array2<f64>, b: &Array2<f64>, tol: f64| {
            let scale = b.iter().fold(1.0f64, |s, v| s.max(v.abs()));
            (a - b).iter().all(|v| v.abs() <= tol * scale)
        };
        for parts in [1, 3, 7] {
            for centred in [true, false] {
                let m1 = merged(&x, &y, 1, parts, centred);
                let m2 = merged(&x, &y, 2, parts, centred);
                let ols = LinearRegression::default().fit_intercept(centred);
                let (a, b) = (
                    ols.fit_moments(&m1).expect("ols"),
                    ols.fit(&x, &y0).expect("ols"),
                );
                assert!(
                    close(&a.lin.coef, &b.lin.coef, 1e-10),
                    "ols {parts} {centred}"
                );
                assert_eq!(a.solver_used(), OlsSolver::Cholesky);
                assert!((a.lin.intercept[0] - b.lin.intercept[0]).abs() < 1e-8);
                let multi = ols.fit_moments(&m2).expect("ols");
                assert!(close(
                    &multi.lin.coef,
                    &ols.fit_multi(&x, &y).expect("ols").lin.coef,
                    1e-10
                ));
                let ridge = Ridge::new(0.5).fit_intercept(centred);
                let (a, b) = (
                    ridge.fit_moments(&m1).expect("ridge"),
                    ridge.fit(&x, &y0).expect("ridge"),
                );
                assert!(
                    close(&a.lin.coef, &b.lin.coef, 1e-10),
                    "ridge {parts} {centred}"
                );
                let enet = ElasticNet::new(0.05, 0.7)
                    .fit_intercept(centred)
                    .precompute(Precompute::Always)
                    .tol(1e-12);
                let (a, b) = (
                    enet.fit_moments(&m1).expect("enet"),
                    enet.fit(&x, &y0).expect("enet"),
                );
                assert!(
                    close(&a.lin.coef, &b.lin.coef, 1e-8),
                    "enet {parts} {centred}"
                );
                let lasso = Lasso::new(0.05).fit_intercept(centred).tol(1e-12);
                let a = lasso.fit_moments(&m2).expect("lasso");
                let b = lasso.fit_multi(&x, &y).expect("lasso");
                assert!(
                    close(&a.lin.coef, &b.lin.coef, 1e-8),
                    "lasso {parts} {centred}"
                );
            }
        }
        // collinear columns: Auto falls back to the minimum-norm solution, as on the rows
        let mut xc = x.clone();
        let c0 = xc.column(0).to_owned();
        xc.column_mut(3).assign(&(&c0 * 2.0));
        let mc = merged(&xc, &y, 1, 3, true);
        let a = LinearRegression::default().fit_moments(&mc).expect("ols");
        let b = LinearRegression::default().fit(&xc, &y0).expect("ols");
        assert_eq!(a.rank(), 4);
        assert!(close(&a.lin.coef, &b.lin.coef, 1e-6));
    }

    #[test]
    fn fits_from_moments_reject_what_they_cannot_use() {
        use crate::{LinearRegression, OlsSolver, Ridge};
        use ndlearn_core::stats::mergeable::{CrossSpec, Mergeable};
        let (x, y) = merge_problem();
        let m = merged(&x, &y, 1, 2, true);
        let no_gram =
            CrossMoments::from_rows(&x, &y.slice(s![.., ..1]), true, false).expect("rows");
        assert!(matches!(
            Ridge::new(1.0).fit_moments(&no_gram),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            Ridge::new(1.0).fit_intercept(false).fit_moments(&m),
            Err(Error::InvalidParam {
                name: "fit_intercept",
                ..
            })
        ));
        assert!(matches!(
            LinearRegression::default()
                .solver(OlsSolver::Qr)
                .fit_moments(&m),
            Err(Error::InvalidParam { name: "solver", .. })
        ));
        let empty = Moments::<f64>::zero(&CrossSpec {
            n_features: 5,
            n_targets: 1,
            centred: true,
            gram: true,
        });
        assert!(matches!(
            LinearRegression::default().fit_moments(&empty),
            Err(Error::TooFewSamples { .. })
        ));
        let no_target = Moments::<f64>::zero(&CrossSpec {
            n_features: 5,
            n_targets: 0,
            centred: true,
            gram: true,
        });
        let mut nt = no_target.clone();
        nt.merge(&CrossMoments::from_rows(&x, &y.slice(s![.., ..0]), true, true).expect("rows"))
            .expect("merge");
        assert!(matches!(
            Ridge::new(1.0).fit_moments(&nt),
            Err(Error::InvalidParam {
                name: "moments",
                ..
            })
        ));
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
