//! Gram and cross-Gram matrices: one gemm per dot-product leaf, then element-wise maps in
//! parallel over fixed pieces (row chunks for cross-Gram matrices; for Gram matrices, pairs of
//! `TILE × TILE` tiles: the upper tile is computed and copied transposed into the lower one while
//! it is in cache, so the result is exactly symmetric at the cost of one pass over memory).

use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis, s};
use rayon::prelude::*;

use super::{Kernel, WeightFn, horner, inv_sqrt_or_zero, powi_degree};
use crate::linalg::row_sq_norms;
use crate::validate::check_finite_2d;
use crate::{Error, Float, Result, par};

/// Rows per parallel chunk of the element-wise passes (fixed: independent of the thread count).
const MAP_CHUNK_ROWS: usize = 64;

/// Side of the square tiles of the symmetric map.
const TILE: usize = 256;

/// Rows per chunk of the diagonal evaluation.
const DIAG_CHUNK_ROWS: usize = 1024;

/// Context of the error for a non-finite kernel value.
pub(super) const OVERFLOW_CONTEXT: &str =
    "kernel matrix (a kernel value overflowed: scale the inputs or lower gamma/degree)";

/// The kernel matrix of the rows of `x` against the rows of `y` (`None`: against `x` itself,
/// computed symmetric). Inputs are already validated.
pub(super) fn matrix<F: Float>(
    k: &Kernel,
    x: ArrayView2<'_, F>,
    y: Option<ArrayView2<'_, F>>,
) -> Result<Array2<F>> {
    let sym = y.is_none();
    let yv = y.unwrap_or(x);
    match k {
        Kernel::Linear => {
            let mut g = x.dot(&yv.t());
            leaf_map(&mut g, sym, |_, _, _| {})?;
            Ok(g)
        }
        Kernel::Polynomial {
            gamma,
            coef0,
            degree,
        } => {
            let (gm, c0, p) = (F::cast(*gamma), F::cast(*coef0), powi_degree(*degree));
            let mut g = x.dot(&yv.t());
            leaf_map(&mut g, sym, |_, _, row| {
                row.iter_mut().for_each(|v| *v = (gm * *v + c0).powi(p));
            })?;
            Ok(g)
        }
        Kernel::HomogeneousPolynomial { degree } => {
            let p = powi_degree(*degree);
            let mut g = x.dot(&yv.t());
            leaf_map(&mut g, sym, |_, _, row| {
                row.iter_mut().for_each(|v| *v = v.powi(p));
            })?;
            Ok(g)
        }
        Kernel::Sigmoid { gamma, coef0 } => {
            let (gm, c0) = (F::cast(*gamma), F::cast(*coef0));
            let mut g = x.dot(&yv.t());
            leaf_map(&mut g, sym, |_, _, row| {
                row.iter_mut().for_each(|v| *v = (gm * *v + c0).tanh());
            })?;
            Ok(g)
        }
        Kernel::Rbf { gamma } => rbf(x, yv, sym, F::cast(*gamma)),
        Kernel::Laplacian { gamma } => {
            let ng = -F::cast(*gamma);
            // Yᵀ in standard layout: the inner loop runs over j with contiguous memory (it
            // vectorises) and each sum still adds the features in order k = 0..d, as `eval`.
            let yt = yv.t().as_standard_layout().into_owned();
            let mut g = Array2::<F>::zeros((x.nrows(), yv.nrows()));
            leaf_map(&mut g, sym, |i, j0, row| {
                for (&xik, ytk) in x.row(i).iter().zip(yt.rows()) {
                    let ytk = ytk.slice_move(s![j0..]);
                    match ytk.to_slice() {
                        // Rows of the standard-layout Yᵀ are contiguous: plain slices vectorise.
                        Some(q) => {
                            for (v, &q) in row.iter_mut().zip(q) {
                                *v += (xik - q).abs();
                            }
                        }
                        None => {
                            for (v, &q) in row.iter_mut().zip(ytk.iter()) {
                                *v += (xik - q).abs();
                            }
                        }
                    }
                }
                row.iter_mut().for_each(|v| *v = (ng * *v).exp());
                if sym && j0 == i {
                    // k(x, x) = exp(0) = 1 exactly.
                    if let Some(first) = row.first_mut() {
                        *first = F::one();
                    }
                }
            })?;
            Ok(g)
        }
        Kernel::QuadraticForm { a } => {
            let af = a.mapv(F::cast);
            let mut g = x.dot(&af).dot(&yv.t());
            leaf_map(&mut g, sym, |_, _, _| {})?;
            Ok(g)
        }
        Kernel::Scaled { c, k } => {
            let c = F::cast(*c);
            let mut m = matrix(k, x, y)?;
            map_all(&mut m, sym, |v| c * v)?;
            Ok(m)
        }
        Kernel::Sum(k1, k2) => {
            let mut m = matrix(k1, x, y)?;
            let m2 = matrix(k2, x, y)?;
            zip_all(&mut m, &m2, sym, |p, q| p + q)?;
            Ok(m)
        }
        Kernel::Product(k1, k2) => {
            let mut m = matrix(k1, x, y)?;
            let m2 = matrix(k2, x, y)?;
            zip_all(&mut m, &m2, sym, |p, q| p * q)?;
            Ok(m)
        }
        Kernel::Exp(k) => {
            let mut m = matrix(k, x, y)?;
            map_all(&mut m, sym, |v| v.exp())?;
            Ok(m)
        }
        Kernel::PolynomialOf { coeffs, k } => {
            let mut m = matrix(k, x, y)?;
            map_all(&mut m, sym, |v| horner(coeffs, v))?;
            Ok(m)
        }
        Kernel::FeatureWeighted { f, k } => {
            let mut m = matrix(k, x, y)?;
            let fx = weights(f, k, x);
            let fy: Vec<F> = if sym {
                fx.to_vec()
            } else {
                weights(f, k, yv).to_vec()
            };
            // `K[i, j] · (f_i f_j)`: the weight product is commutative, so the symmetric map and a
            // cross map agree on the same entries.
            leaf_map(&mut m, sym, |i, j0, row| {
                let fi = fx[i];
                row.iter_mut()
                    .zip(&fy[j0..])
                    .for_each(|(v, &fj)| *v *= fi * fj);
            })?;
            Ok(m)
        }
        Kernel::SubvectorProduct { a, ka, b, kb } | Kernel::SubvectorSum { a, ka, b, kb } => {
            let xa = x.slice(s![.., a.clone()]);
            let xb = x.slice(s![.., b.clone()]);
            let ya = y.map(|y| y.slice_move(s![.., a.clone()]));
            let yb = y.map(|y| y.slice_move(s![.., b.clone()]));
            let mut m = matrix(ka, xa, ya)?;
            let m2 = matrix(kb, xb, yb)?;
            if matches!(k, Kernel::SubvectorProduct { .. }) {
                zip_all(&mut m, &m2, sym, |p, q| p * q)?;
            } else {
                zip_all(&mut m, &m2, sym, |p, q| p + q)?;
            }
            Ok(m)
        }
    }
}

/// RBF: `exp(−γ max(‖xᵢ‖² + ‖yⱼ‖² − 2 xᵢᵀyⱼ, 0))`, the Gram trick fused with the `exp`; the
/// symmetric diagonal is exactly 1 (distance 0).
fn rbf<F: Float>(
    x: ArrayView2<'_, F>,
    y: ArrayView2<'_, F>,
    sym: bool,
    gamma: F,
) -> Result<Array2<F>> {
    let xn = row_sq_norms(&x);
    let yn = if sym { xn.clone() } else { row_sq_norms(&y) };
    let mut g = x.dot(&y.t());
    let (ng, two, zero) = (-gamma, F::cast(2.0), F::zero());
    let yn: Vec<F> = yn.to_vec();
    leaf_map(&mut g, sym, |i, j0, row| {
        let xi = xn[i];
        for (v, &yj) in row.iter_mut().zip(&yn[j0..]) {
            // Clamp cancellation below 0; a NaN (∞ − ∞ from overflowing norms) stays NaN and
            // is reported instead of being read as distance 0.
            let d = xi + yj - two * *v;
            *v = ng * if d < zero { zero } else { d };
        }
        // the exponentials in one vectorised pass (decision 0022)
        crate::numeric::exp_in_place(row);
        if sym && j0 == i {
            if let Some(first) = row.first_mut() {
                *first = F::one();
            }
        }
    })?;
    Ok(g)
}

/// The weights `f(xᵢ)` of rule 2 for every row.
fn weights<F: Float>(f: &WeightFn, k: &Kernel, x: ArrayView2<'_, F>) -> Array1<F> {
    match f {
        WeightFn::InverseNorm => row_sq_norms(&x).mapv(inv_sqrt_or_zero),
        WeightFn::InverseFeatureNorm => diag_unchecked(k, x).mapv(inv_sqrt_or_zero),
        WeightFn::Gaussian { gamma } => {
            let ng = -F::cast(*gamma);
            row_sq_norms(&x).mapv(|v| (ng * v).exp())
        }
    }
}

/// `k(xᵢ, xᵢ)` for every row, in parallel over fixed chunks (no BLAS inside the tasks).
pub(super) fn diag_unchecked<F: Float>(k: &Kernel, x: ArrayView2<'_, F>) -> Array1<F> {
    let parts = par::map_row_chunks(&x, DIAG_CHUNK_ROWS, |_, rows| {
        rows.rows()
            .into_iter()
            .map(|r| k.eval_unchecked(r, r))
            .collect::<Vec<F>>()
    });
    Array1::from(parts.concat())
}

/// Error for the first non-finite entry of `m`.
fn overflow_error<F: Float>(m: &Array2<F>) -> Result<()> {
    check_finite_2d(m, OVERFLOW_CONTEXT)?;
    // Unreachable in practice (the caller saw a non-finite value); report position 0, 0.
    Err(Error::NonFinite {
        context: OVERFLOW_CONTEXT,
        row: 0,
        col: 0,
    })
}

/// Element-wise pass `f(i, j0, row segment starting at column j0)` over the whole matrix: the
/// tiled symmetric map when `sym` (upper triangle computed, lower mirrored), else row chunks.
/// Errors on a non-finite result.
fn leaf_map<F: Float, G>(g: &mut Array2<F>, sym: bool, f: G) -> Result<()>
where
    G: Fn(usize, usize, &mut [F]) + Sync,
{
    let finite = if sym {
        map_symmetric(g, f)
    } else {
        map_rows(g, f)
    };
    if finite { Ok(()) } else { overflow_error(g) }
}

/// `v ↦ f(v)` on every entry.
fn map_all<F: Float, G>(m: &mut Array2<F>, sym: bool, f: G) -> Result<()>
where
    G: Fn(F) -> F + Sync,
{
    leaf_map(m, sym, |_, _, row| row.iter_mut().for_each(|v| *v = f(*v)))
}

/// `m[i, j] ← f(m[i, j], other[i, j])` (same shape by construction).
fn zip_all<F: Float, G>(m: &mut Array2<F>, other: &Array2<F>, sym: bool, f: G) -> Result<()>
where
    G: Fn(F, F) -> F + Sync,
{
    leaf_map(m, sym, |i, j0, row| {
        for (v, &o) in row.iter_mut().zip(other.slice(s![i, j0..])) {
            *v = f(*v, o);
        }
    })
}

/// Runs `f(i, 0, row)` for every row `i` in parallel over fixed chunks of [`MAP_CHUNK_ROWS`]
/// rows. Returns whether every entry written is finite. Each entry is written by exactly one
/// task, so the result does not depend on the thread count.
fn map_rows<F: Float, G>(m: &mut Array2<F>, f: G) -> bool
where
    G: Fn(usize, usize, &mut [F]) + Sync,
{
    if m.is_empty() {
        return true;
    }
    if !m.is_standard_layout() {
        *m = m.as_standard_layout().into_owned();
    }
    let chunks: Vec<(usize, ArrayViewMut2<'_, F>)> = m
        .axis_chunks_iter_mut(Axis(0), MAP_CHUNK_ROWS)
        .enumerate()
        .collect();
    chunks
        .into_par_iter()
        .map(|(c, mut block)| {
            let r0 = c * MAP_CHUNK_ROWS;
            let mut finite = true;
            for (li, row) in block.rows_mut().into_iter().enumerate() {
                finite &= apply_to_row(row, 0, r0 + li, 0, &f);
            }
            finite
        })
        .reduce(|| true, |a, b| a && b)
}

/// Symmetric map on a square matrix: for every tile pair `(I, J)`, `I ≤ J`, of [`TILE`] × [`TILE`]
/// tiles, runs `f(i, j0, row segment)` on the rows of the upper tile (from the diagonal on, for
/// `I = J`) and copies the result transposed into the lower tile `(J, I)` while it is hot in
/// cache. Every tile is owned by exactly one task (disjoint mutable views), so the result is
/// exactly symmetric and independent of the thread count. Returns whether every value is finite.
fn map_symmetric<F: Float, G>(m: &mut Array2<F>, f: G) -> bool
where
    G: Fn(usize, usize, &mut [F]) + Sync,
{
    let n = m.nrows();
    if n == 0 || m.ncols() != n {
        return true;
    }
    if !m.is_standard_layout() {
        *m = m.as_standard_layout().into_owned();
    }
    let t = TILE;
    let nb = n.div_ceil(t);
    // Tile (I, J) at index I·nb + J.
    let mut tiles: Vec<Option<ArrayViewMut2<'_, F>>> = Vec::with_capacity(nb * nb);
    for block in m.axis_chunks_iter_mut(Axis(0), t) {
        let mut rest = block;
        for _ in 1..nb {
            let (tile, tail) = rest.split_at(Axis(1), t);
            tiles.push(Some(tile));
            rest = tail;
        }
        tiles.push(Some(rest));
    }
    let mut tasks = Vec::with_capacity(nb * (nb + 1) / 2);
    for bi in 0..nb {
        for bj in bi..nb {
            let lower = if bj > bi {
                tiles[bj * nb + bi].take()
            } else {
                None
            };
            if let Some(upper) = tiles[bi * nb + bj].take() {
                tasks.push((bi, bj, upper, lower));
            }
        }
    }
    tasks
        .into_par_iter()
        .map(|(bi, bj, mut upper, lower)| {
            let (r0, c0) = (bi * t, bj * t);
            let mut finite = true;
            for (li, row) in upper.rows_mut().into_iter().enumerate() {
                let start = if bi == bj { li } else { 0 };
                finite &= apply_to_row(row, start, r0 + li, c0 + start, &f);
            }
            if bi == bj {
                for a in 1..upper.nrows() {
                    for b in 0..a {
                        upper[[a, b]] = upper[[b, a]];
                    }
                }
            } else if let Some(mut lower) = lower {
                // lower[b, a] = upper[a, b], reading the hot upper tile by row slices.
                let src: Vec<&[F]> = upper
                    .rows()
                    .into_iter()
                    .filter_map(|r| r.to_slice())
                    .collect();
                for (b, mut lrow) in lower.rows_mut().into_iter().enumerate() {
                    match lrow.as_slice_mut() {
                        Some(d) if src.len() == d.len() => {
                            for (dv, s) in d.iter_mut().zip(&src) {
                                *dv = s[b];
                            }
                        }
                        // Not reached for the standard layout; kept as a safe fallback.
                        _ => {
                            for (a, dv) in lrow.iter_mut().enumerate() {
                                *dv = upper[[a, b]];
                            }
                        }
                    }
                }
            }
            finite
        })
        .reduce(|| true, |a, b| a && b)
}

/// Runs `f(i, j0, row[start..])` on one row and returns whether the written values are finite.
/// Rows of a standard-layout matrix (and of its tiles) are contiguous; a strided row goes
/// through a buffer.
fn apply_to_row<F: Float, G>(
    mut row: ArrayViewMut1<'_, F>,
    start: usize,
    i: usize,
    j0: usize,
    f: &G,
) -> bool
where
    G: Fn(usize, usize, &mut [F]),
{
    match row.as_slice_mut() {
        Some(s) => {
            let seg = &mut s[start..];
            f(i, j0, seg);
            seg.iter().all(|v| v.is_finite())
        }
        None => {
            let mut tail = row.slice_mut(s![start..]);
            let mut buf = tail.to_vec();
            f(i, j0, &mut buf);
            tail.iter_mut().zip(&buf).for_each(|(d, &v)| *d = v);
            buf.iter().all(|v| v.is_finite())
        }
    }
}
