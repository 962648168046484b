//! Small tensor utilities on `ndarray::ArrayD` (catalog X-03; terminology as in Kolda & Bader,
//! "Tensor decompositions and applications", SIAM Review 51(3), 2009).
//!
//! A tensor of **order** `N` is an `N`-way array (order 0 a scalar, 1 a vector, 2 a matrix); it
//! has `∏ₖ Iₖ` components (the course notes' "3ⁿ components" only holds for modes of size 3, erratum
//! E39; see [`n_components`]). Modes are numbered **from 0** as ndarray axes (the course notes use
//! "mode-0 fibers" for the columns `A_{:jk}`; Kolda & Bader's mode-1 is our mode 0).
//!
//! | operation | function | definition |
//! |---|---|---|
//! | mode-k fiber | [`fiber`] | fix every index but the `k`-th |
//! | slice | [`slice()`] | fix every index but two |
//! | dicing (MDDB range selection) | [`dice`] | a range along every mode |
//! | mode-k unfolding (matricisation) | [`unfold`] | `X₍ₖ₎ ∈ R^{Iₖ × ∏_{m≠k} I_m}` |
//! | folding | [`fold`] | the inverse of [`unfold`] |
//! | outer (dyadic) product | [`outer`], [`dyadic`] | `Tᵢⱼ… = vᵢ wⱼ …` (rank-1 tensor) |
//! | mode-k product | [`mode_product`] | `Y = X ×ₖ U ⇔ Y₍ₖ₎ = U X₍ₖ₎` |
//!
//! **Column order of the unfolding** (Kolda & Bader 2009, §2.4): tensor element
//! `(i₀, …, i_{N−1})` goes to row `iₖ` and column `j = Σ_{m≠k} i_m J_m` with
//! `J_m = ∏_{l<m, l≠k} I_l`, i.e. the remaining indices in increasing mode order with the
//! **first varying fastest**. The course notes name fibers and slices but give no unfolding; this
//! convention is the standard one (Kolda & Bader, "Tensor Decompositions and Applications",
//! SIAM Review 51(3)). The MDDB "slicing" of the course notes (rotating to a 2-D table) is
//! [`slice()`] or [`unfold`]; "dicing" is [`dice`].

use std::ops::Range;

use ndarray::{
    Array2, ArrayD, ArrayRef, ArrayRef1, ArrayRef2, ArrayView1, ArrayView2, ArrayViewD, Axis, Ix1,
    Ix2, IxDyn, Slice,
};

use crate::{Error, Float, Result};

/// Number of components `∏ₖ Iₖ` of a tensor of the given shape (1 for order 0).
pub fn n_components(shape: &[usize]) -> usize {
    shape.iter().product()
}

fn check_mode(order: usize, mode: usize, context: &'static str) -> Result<()> {
    if mode >= order {
        return Err(Error::invalid_param(
            "mode",
            format!(
                "{context}: mode {mode} out of range for a tensor of order {order} (modes are 0-based)"
            ),
        ));
    }
    Ok(())
}

fn check_index(i: usize, size: usize, mode: usize) -> Result<()> {
    if i >= size {
        return Err(Error::invalid_param(
            "index",
            format!("index {i} out of range 0..{size} along mode {mode}"),
        ));
    }
    Ok(())
}

fn shape_error(context: &'static str, e: impl std::fmt::Display) -> Error {
    Error::ShapeMismatch {
        context,
        expected: "a consistent tensor shape".into(),
        found: e.to_string(),
    }
}

/// The mode-`mode` fiber through the fixed indices `fixed` of the other modes (given in
/// increasing mode order, `N − 1` of them). For a 3-way tensor, `fiber(t, 0, &[j, k])` is the
/// column `t[:, j, k]`.
///
/// # Errors
/// [`Error::InvalidParam`] for a mode or an index out of range; [`Error::ShapeMismatch`] if
/// `fixed` does not have `N − 1` entries.
pub fn fiber<'a, A>(
    t: &'a ArrayRef<A, IxDyn>,
    mode: usize,
    fixed: &[usize],
) -> Result<ArrayView1<'a, A>> {
    let order = t.ndim();
    check_mode(order, mode, "fiber")?;
    let v = fix_all_but(t, &[mode], fixed, "fiber")?;
    v.into_dimensionality::<Ix1>()
        .map_err(|e| shape_error("fiber", e))
}

/// The slice of modes `(row_mode, col_mode)` through the fixed indices of the other modes
/// (increasing mode order, `N − 2` of them); rows follow the smaller of the two modes. For a
/// 3-way tensor, `slice(t, 0, 1, &[k])` is the frontal slice `t[:, :, k]`.
///
/// # Errors
/// As [`fiber`]; also [`Error::InvalidParam`] if the two modes are equal.
pub fn slice<'a, A>(
    t: &'a ArrayRef<A, IxDyn>,
    row_mode: usize,
    col_mode: usize,
    fixed: &[usize],
) -> Result<ArrayView2<'a, A>> {
    let order = t.ndim();
    check_mode(order, row_mode, "slice")?;
    check_mode(order, col_mode, "slice")?;
    if row_mode == col_mode {
        return Err(Error::invalid_param(
            "col_mode",
            "a slice needs two different modes",
        ));
    }
    let v = fix_all_but(
        t,
        &[row_mode.min(col_mode), row_mode.max(col_mode)],
        fixed,
        "slice",
    )?;
    let v = v
        .into_dimensionality::<Ix2>()
        .map_err(|e| shape_error("slice", e))?;
    Ok(if row_mode < col_mode {
        v
    } else {
        v.reversed_axes()
    })
}

fn fix_all_but<'a, A>(
    t: &'a ArrayRef<A, IxDyn>,
    keep: &[usize],
    fixed: &[usize],
    context: &'static str,
) -> Result<ArrayViewD<'a, A>> {
    let order = t.ndim();
    if fixed.len() + keep.len() != order {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("{} fixed indices (one per other mode)", order - keep.len()),
            found: format!("{}", fixed.len()),
        });
    }
    let others: Vec<usize> = (0..order).filter(|m| !keep.contains(m)).collect();
    for (&m, &i) in others.iter().zip(fixed) {
        check_index(i, t.shape()[m], m)?;
    }
    let mut v = t.view();
    // Remove the highest axes first so that the lower axis numbers stay valid.
    for (&m, &i) in others.iter().zip(fixed).rev() {
        v = v.index_axis_move(Axis(m), i);
    }
    Ok(v)
}

/// Dicing: the sub-tensor with index range `ranges[k]` along every mode `k` (a view).
///
/// # Errors
/// [`Error::ShapeMismatch`] if there is not one range per mode; [`Error::InvalidParam`] for a
/// range outside the mode or with `start > end`.
pub fn dice<'a, A>(
    t: &'a ArrayRef<A, IxDyn>,
    ranges: &[Range<usize>],
) -> Result<ArrayViewD<'a, A>> {
    if ranges.len() != t.ndim() {
        return Err(Error::ShapeMismatch {
            context: "dice",
            expected: format!("{} ranges (one per mode)", t.ndim()),
            found: format!("{}", ranges.len()),
        });
    }
    let mut v = t.view();
    for (m, r) in ranges.iter().enumerate() {
        if r.start > r.end || r.end > t.shape()[m] {
            return Err(Error::invalid_param(
                "ranges",
                format!(
                    "range {r:?} invalid along mode {m} of size {}",
                    t.shape()[m]
                ),
            ));
        }
        v.slice_axis_inplace(Axis(m), Slice::from(r.clone()));
    }
    Ok(v)
}

/// Axis order `[mode, last other, …, first other]`: read row-major, the first remaining mode
/// varies fastest (Kolda & Bader's column order).
fn unfold_axes(order: usize, mode: usize) -> Vec<usize> {
    let mut axes = vec![mode];
    axes.extend((0..order).rev().filter(|&m| m != mode));
    axes
}

/// Mode-`mode` unfolding `X₍ₘₒ𝒹ₑ₎` (`I_mode × ∏_{m≠mode} I_m`), Kolda & Bader column order
/// (module docs).
///
/// # Errors
/// [`Error::InvalidParam`] if `mode ≥ N` (order-0 tensors have no unfolding).
pub fn unfold<A: Clone>(t: &ArrayRef<A, IxDyn>, mode: usize) -> Result<Array2<A>> {
    check_mode(t.ndim(), mode, "unfold")?;
    let rows = t.shape()[mode];
    let cols: usize = t
        .shape()
        .iter()
        .enumerate()
        .filter(|&(m, _)| m != mode)
        .map(|(_, &s)| s)
        .product();
    let v = t.view().permuted_axes(IxDyn(&unfold_axes(t.ndim(), mode)));
    Array2::from_shape_vec((rows, cols), v.iter().cloned().collect())
        .map_err(|e| shape_error("unfold", e))
}

/// Folds a mode-`mode` unfolding back into a tensor of shape `shape` (the inverse of
/// [`unfold`]: `fold(&unfold(t, k)?, k, t.shape()) == t`).
///
/// # Errors
/// [`Error::InvalidParam`] if `mode ≥ shape.len()`; [`Error::ShapeMismatch`] if the matrix is
/// not `shape[mode] × ∏_{m≠mode} shape[m]`.
pub fn fold<A: Clone>(m: &ArrayRef2<A>, mode: usize, shape: &[usize]) -> Result<ArrayD<A>> {
    check_mode(shape.len(), mode, "fold")?;
    let rows = shape[mode];
    let cols: usize = shape
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != mode)
        .map(|(_, &s)| s)
        .product();
    if m.dim() != (rows, cols) {
        return Err(Error::ShapeMismatch {
            context: "fold",
            expected: format!("{rows} x {cols} unfolding"),
            found: format!("{} x {}", m.nrows(), m.ncols()),
        });
    }
    let axes = unfold_axes(shape.len(), mode);
    let pshape: Vec<usize> = axes.iter().map(|&a| shape[a]).collect();
    let p = ArrayD::from_shape_vec(IxDyn(&pshape), m.iter().cloned().collect())
        .map_err(|e| shape_error("fold", e))?;
    // Inverse permutation: original axis a sits at position pos[a] of `axes`.
    let mut inv = vec![0; axes.len()];
    for (pos, &a) in axes.iter().enumerate() {
        inv[a] = pos;
    }
    Ok(p.permuted_axes(IxDyn(&inv))
        .as_standard_layout()
        .into_owned())
}

/// Dyadic (outer) product of two vectors, `Aᵢⱼ = vᵢ wⱼ` (Kolda & Bader, SIAM Review 51(3),
/// 2009).
pub fn dyadic<F: Float>(v: &ArrayRef1<F>, w: &ArrayRef1<F>) -> Array2<F> {
    Array2::from_shape_fn((v.len(), w.len()), |(i, j)| v[i] * w[j])
}

/// Outer product of `N ≥ 1` vectors: the rank-1 tensor `T[i₀, …, i_{N−1}] = ∏ₖ vₖ[iₖ]`.
///
/// # Errors
/// [`Error::InvalidParam`] for an empty list.
pub fn outer<F: Float>(vectors: &[ArrayView1<'_, F>]) -> Result<ArrayD<F>> {
    if vectors.is_empty() {
        return Err(Error::invalid_param(
            "vectors",
            "the outer product needs at least one vector",
        ));
    }
    let shape: Vec<usize> = vectors.iter().map(|v| v.len()).collect();
    Ok(ArrayD::from_shape_fn(IxDyn(&shape), |idx| {
        vectors
            .iter()
            .enumerate()
            .fold(F::one(), |p, (k, v)| p * v[idx[k]])
    }))
}

/// Mode-`mode` (tensor-times-matrix) product `Y = X ×ₘₒ𝒹ₑ U` for `U` of shape
/// `J × I_mode`: `Y` has `J` in place of `I_mode`, and `Y₍ₘₒ𝒹ₑ₎ = U X₍ₘₒ𝒹ₑ₎` (one GEMM).
///
/// # Errors
/// [`Error::InvalidParam`] for a mode out of range; [`Error::ShapeMismatch`] if
/// `U.ncols() ≠ I_mode`.
pub fn mode_product<F: Float>(
    t: &ArrayRef<F, IxDyn>,
    u: &ArrayRef2<F>,
    mode: usize,
) -> Result<ArrayD<F>> {
    check_mode(t.ndim(), mode, "mode_product")?;
    if u.ncols() != t.shape()[mode] {
        return Err(Error::ShapeMismatch {
            context: "mode_product",
            expected: format!(
                "U with {} columns (the size of mode {mode})",
                t.shape()[mode]
            ),
            found: format!("{} x {}", u.nrows(), u.ncols()),
        });
    }
    let y = u.dot(&unfold(t, mode)?);
    let mut shape = t.shape().to_vec();
    shape[mode] = u.nrows();
    fold(&y, mode, &shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array3, array};

    /// Kolda & Bader (2009), Fig. 2.1 / §2.4: X ∈ R^{3×4×2} with frontal slices
    /// X₁ = [1 4 7 10; 2 5 8 11; 3 6 9 12], X₂ = [13 16 19 22; 14 17 20 23; 15 18 21 24],
    /// i.e. X[i, j, k] = 1 + i + 3j + 12k.
    fn kolda() -> ArrayD<f64> {
        Array3::from_shape_fn((3, 4, 2), |(i, j, k)| (1 + i + 3 * j + 12 * k) as f64).into_dyn()
    }

    #[test]
    fn unfoldings_match_kolda_bader() {
        let x = kolda();
        let x1 = unfold(&x, 0).expect("ok");
        assert_eq!(
            x1,
            array![
                [1., 4., 7., 10., 13., 16., 19., 22.],
                [2., 5., 8., 11., 14., 17., 20., 23.],
                [3., 6., 9., 12., 15., 18., 21., 24.]
            ]
        );
        let x2 = unfold(&x, 1).expect("ok");
        assert_eq!(
            x2,
            array![
                [1., 2., 3., 13., 14., 15.],
                [4., 5., 6., 16., 17., 18.],
                [7., 8., 9., 19., 20., 21.],
                [10., 11., 12., 22., 23., 24.]
            ]
        );
        let x3 = unfold(&x, 2).expect("ok");
        let want: Vec<f64> = (1..=24).map(f64::from).collect();
        assert_eq!(x3, Array2::from_shape_vec((2, 12), want).expect("2 x 12"));
        for mode in 0..3 {
            let back = fold(&unfold(&x, mode).expect("ok"), mode, x.shape()).expect("ok");
            assert_eq!(back, x);
        }
    }

    #[test]
    fn mode_product_matches_kolda_bader() {
        // Kolda & Bader §2.5: U = [1 3 5; 2 4 6], Y = X ×₁ U has frontal slices
        // Y₁ = [22 49 76 103; 28 64 100 136], Y₂ = [130 157 184 211; 172 208 244 280].
        // (Hand check: Y₁[0,0] = 1·1 + 3·2 + 5·3 = 22.)
        let u = array![[1., 3., 5.], [2., 4., 6.]];
        let y = mode_product(&kolda(), &u, 0).expect("ok");
        assert_eq!(y.shape(), &[2, 4, 2]);
        let y1 = slice(&y, 0, 1, &[0]).expect("ok");
        let y2 = slice(&y, 0, 1, &[1]).expect("ok");
        assert_eq!(y1, array![[22., 49., 76., 103.], [28., 64., 100., 136.]]);
        assert_eq!(
            y2,
            array![[130., 157., 184., 211.], [172., 208., 244., 280.]]
        );
        assert!(mode_product(&kolda(), &u, 1).is_err());
        assert!(mode_product(&kolda(), &u, 3).is_err());
    }

    #[test]
    fn fibers_slices_and_dice() {
        let x = kolda();
        // Mode-0 fiber (column) x[:, 1, 0] = (4, 5, 6); mode-1 fiber (row) x[2, :, 1].
        assert_eq!(
            fiber(&x, 0, &[1, 0]).expect("ok").to_vec(),
            vec![4., 5., 6.]
        );
        assert_eq!(
            fiber(&x, 1, &[2, 1]).expect("ok").to_vec(),
            vec![15., 18., 21., 24.]
        );
        // Mode-2 (tube) fiber x[0, 0, :] = (1, 13).
        assert_eq!(fiber(&x, 2, &[0, 0]).expect("ok").to_vec(), vec![1., 13.]);
        // Lateral slice x[:, 2, :] and its transpose.
        let s = slice(&x, 0, 2, &[2]).expect("ok");
        assert_eq!(s, array![[7., 19.], [8., 20.], [9., 21.]]);
        assert_eq!(slice(&x, 2, 0, &[2]).expect("ok"), s.t());
        assert!(fiber(&x, 0, &[4, 0]).is_err());
        assert!(fiber(&x, 0, &[1]).is_err());
        assert!(fiber(&x, 3, &[0, 0]).is_err());
        assert!(slice(&x, 1, 1, &[0]).is_err());
        let d = dice(&x, &[0..2, 1..3, 1..2]).expect("ok");
        assert_eq!(d.shape(), &[2, 2, 1]);
        assert_eq!(d[[1, 1, 0]], 1. + 1. + 6. + 12.);
        assert!(dice(&x, &[0..2, 1..3]).is_err());
        assert!(dice(&x, &[0..4, 0..1, 0..1]).is_err());
        assert_eq!(n_components(x.shape()), 24);
        assert_eq!(n_components(&[3, 3, 3]), 27);
        assert_eq!(n_components(&[]), 1);
    }

    #[test]
    fn outer_products() {
        let v = array![1., 2.];
        let w = array![3., 4., 5.];
        let z = array![1., -1.];
        assert_eq!(dyadic(&v, &w), array![[3., 4., 5.], [6., 8., 10.]]);
        let t = outer(&[v.view(), w.view(), z.view()]).expect("ok");
        assert_eq!(t.shape(), &[2, 3, 2]);
        assert_eq!(t[[1, 2, 1]], -10.);
        // A rank-1 tensor's unfoldings have rank 1: X₍₀₎ = v (w ⊗ z)ᵀ.
        let x0 = unfold(&t, 0).expect("ok");
        assert_eq!(x0.row(1), x0.row(0).mapv(|a| 2. * a));
        assert!(outer::<f64>(&[]).is_err());
        assert_eq!(
            unfold(&outer(&[v.view()]).expect("ok"), 0).expect("ok"),
            array![[1.], [2.]]
        );
    }

    #[test]
    fn fold_errors_and_empty_modes() {
        let m = Array2::<f64>::zeros((3, 7));
        assert!(matches!(
            fold(&m, 0, &[3, 4, 2]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(fold(&m, 3, &[3, 4, 2]).is_err());
        let scalar = ArrayD::<f64>::zeros(IxDyn(&[]));
        assert!(unfold(&scalar, 0).is_err());
        let empty = ArrayD::<f64>::zeros(IxDyn(&[0, 3]));
        let u = unfold(&empty, 0).expect("ok");
        assert_eq!(u.dim(), (0, 3));
        assert_eq!(fold(&u, 0, &[0, 3]).expect("ok"), empty);
    }
}
