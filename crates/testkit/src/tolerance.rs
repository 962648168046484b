//! Numeric comparisons with tolerances, sign normalisation and bitwise equality.
//!
//! The closeness rule is numpy's `allclose`: `|a − e| ≤ atol + rtol·|e|` element-wise, with the
//! *expected* value (usually a golden reference, always `f64`) on the right. `NaN` equals `NaN`
//! and an infinity equals the same infinity; anything else involving a non-finite value fails.
//!
//! On failure the panic message gives the context, the shape, how many elements failed, the
//! worst element (largest `|a − e| / (atol + rtol·|e|)`) with both values, and the largest
//! absolute and relative errors over the whole array, so a failing golden test says at once how
//! far off it is.

use std::fmt::Write as _;

use ndarray::{Array2, ArrayRef, Axis, Dimension};
use ndlearn_core::Float;

/// How one pair of elements compares.
fn pair_error(a: f64, e: f64, rtol: f64, atol: f64) -> (f64, f64, bool) {
    // (abs error, violation ratio, ok)
    if a.is_nan() || e.is_nan() {
        let ok = a.is_nan() && e.is_nan();
        return (
            if ok { 0.0 } else { f64::INFINITY },
            if ok { 0.0 } else { f64::INFINITY },
            ok,
        );
    }
    if a.is_infinite() || e.is_infinite() {
        let ok = a == e;
        return (
            if ok { 0.0 } else { f64::INFINITY },
            if ok { 0.0 } else { f64::INFINITY },
            ok,
        );
    }
    let err = (a - e).abs();
    let allowed = atol + rtol * e.abs();
    let ok = err <= allowed;
    let ratio = if allowed > 0.0 {
        err / allowed
    } else if err > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    (err, ratio, ok)
}

#[track_caller]
fn check_tolerances(rtol: f64, atol: f64, context: &str) {
    assert!(
        rtol >= 0.0 && atol >= 0.0 && !rtol.is_nan() && !atol.is_nan(),
        "{context}: tolerances must be >= 0 (rtol = {rtol}, atol = {atol})"
    );
}

fn render<T: std::fmt::Debug>(v: &T) -> String {
    let s = format!("{v:?}");
    s.replace('\n', "\n    ")
}

/// Asserts `|actual − expected| ≤ atol + rtol·|expected|` element-wise.
///
/// Shapes must match exactly. `NaN` matches only `NaN`, `±∞` only the same infinity.
///
/// # Panics
/// On a shape mismatch, a negative tolerance, or any element out of tolerance; the message has
/// `context`, the worst index with both values, the number of failing elements and the largest
/// absolute and relative errors (small arrays are printed in full).
#[track_caller]
pub fn assert_close<F: Float, D: Dimension>(
    actual: &ArrayRef<F, D>,
    expected: &ArrayRef<f64, D>,
    rtol: f64,
    atol: f64,
    context: &str,
) {
    check_tolerances(rtol, atol, context);
    assert!(
        actual.shape() == expected.shape(),
        "{context}: shape mismatch: actual {:?}, expected {:?}",
        actual.shape(),
        expected.shape()
    );
    let mut n_bad = 0usize;
    let mut worst: Option<(D::Pattern, f64, f64, f64)> = None; // (index, a, e, ratio)
    let mut max_abs = 0.0f64;
    let mut max_rel = 0.0f64;
    for ((idx, &a), &e) in actual.indexed_iter().zip(expected.iter()) {
        let a = a.to_f64_lossless();
        let (err, ratio, ok) = pair_error(a, e, rtol, atol);
        max_abs = max_abs.max(err);
        if e != 0.0 && e.is_finite() {
            max_rel = max_rel.max(err / e.abs());
        } else if err > 0.0 {
            max_rel = f64::INFINITY;
        }
        if !ok {
            n_bad += 1;
            if worst.as_ref().is_none_or(|w| ratio > w.3) {
                worst = Some((idx, a, e, ratio));
            }
        }
    }
    if let Some((idx, a, e, _)) = worst {
        let mut msg = format!(
            "{context}: {n_bad} of {} elements out of tolerance (rtol = {rtol:e}, atol = {atol:e}, \
             element type {})\n  worst at index {idx:?}: actual {a:e}, expected {e:e}, \
             |diff| = {:e}, allowed {:e}\n  max abs error {max_abs:e}, max rel error {max_rel:e}",
            actual.len(),
            F::NAME,
            (a - e).abs(),
            atol + rtol * e.abs()
        );
        if actual.len() <= 36 {
            let _ = write!(
                msg,
                "\n  actual:\n    {}\n  expected:\n    {}",
                render(&actual.to_owned()),
                render(&expected.to_owned())
            );
        }
        panic!("{msg}");
    }
}

/// Asserts `|actual − expected| ≤ atol + rtol·|expected|` for one value.
///
/// # Panics
/// When out of tolerance (or on a negative tolerance), with both values and the errors.
#[track_caller]
pub fn assert_close_scalar<F: Float>(
    actual: F,
    expected: f64,
    rtol: f64,
    atol: f64,
    context: &str,
) {
    check_tolerances(rtol, atol, context);
    let a = actual.to_f64_lossless();
    let (err, _, ok) = pair_error(a, expected, rtol, atol);
    if !ok {
        let rel = if expected != 0.0 && expected.is_finite() {
            err / expected.abs()
        } else {
            f64::INFINITY
        };
        panic!(
            "{context}: actual {a:e}, expected {expected:e} (element type {}): |diff| = {err:e}, \
             allowed {:e} (rtol = {rtol:e}, atol = {atol:e}), rel error {rel:e}",
            F::NAME,
            atol + rtol * expected.abs()
        );
    }
}

/// The largest `|a − b|` over all elements, as `f64`.
///
/// Matching `NaN`s and equal infinities count as 0; a `NaN` or infinity against anything else
/// counts as `+∞`. Empty arrays give 0.
///
/// # Panics
/// If the shapes differ.
#[track_caller]
pub fn max_abs_diff<F: Float, D: Dimension>(a: &ArrayRef<F, D>, b: &ArrayRef<F, D>) -> f64 {
    assert!(
        a.shape() == b.shape(),
        "max_abs_diff: shape mismatch: {:?} vs {:?}",
        a.shape(),
        b.shape()
    );
    a.iter().zip(b.iter()).fold(0.0f64, |m, (&x, &y)| {
        let (err, _, _) = pair_error(x.to_f64_lossless(), y.to_f64_lossless(), 0.0, 0.0);
        m.max(err)
    })
}

/// Position of the largest `|v|` (the first one on ties); `None` if all are NaN or the lane is
/// empty.
fn pivot<'a>(lane: impl Iterator<Item = &'a f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &v) in lane.enumerate() {
        let m = v.abs();
        if m.is_nan() {
            continue;
        }
        if best.is_none_or(|(_, b)| m > b) {
            best = Some((i, m));
        }
    }
    best.map(|(i, _)| i)
}

/// Flips the sign of every column whose largest-magnitude entry is negative, so that entry
/// becomes positive (the first such entry on ties; zero columns are left alone).
///
/// This is the convention of the golden files for eigenvectors and singular vectors (columns).
pub fn normalize_column_signs(m: &mut Array2<f64>) {
    normalize_lanes(m, Axis(1));
}

/// Flips the sign of every row whose largest-magnitude entry is negative (the convention for
/// components stored as rows, e.g. `vt` or PCA's `components_`).
pub fn normalize_row_signs(m: &mut Array2<f64>) {
    normalize_lanes(m, Axis(0));
}

fn normalize_lanes(m: &mut Array2<f64>, axis: Axis) {
    for mut lane in m.axis_iter_mut(axis) {
        if let Some(p) = pivot(lane.iter()) {
            if lane[p] < 0.0 {
                lane.mapv_inplace(|v| -v);
            }
        }
    }
}

/// Bit pattern of an element in its own type (`f32` bits for `f32`, `f64` bits for `f64`).
fn bits<F: Float>(v: F) -> u64 {
    let x = v.to_f64_lossless();
    if F::NAME == "f32" {
        u64::from((x as f32).to_bits())
    } else {
        x.to_bits()
    }
}

/// Asserts that two arrays are bitwise identical (`to_bits` equality: `0.0` and `-0.0` differ),
/// except that any `NaN` matches any `NaN`.
///
/// Used for determinism checks (1 thread vs N threads, serde round trips).
///
/// # Panics
/// On a shape mismatch or any differing element; the message gives the first differing index,
/// both values and bit patterns, and the number of differing elements.
#[track_caller]
pub fn assert_bitwise_eq<F: Float, D: Dimension>(
    a: &ArrayRef<F, D>,
    b: &ArrayRef<F, D>,
    context: &str,
) {
    if let Some(msg) = bitwise_diff(a, b) {
        panic!("{context}: {msg}");
    }
}

/// `None` when `a` and `b` are bitwise identical (NaN matches NaN), otherwise a description of
/// the difference.
pub(crate) fn bitwise_diff<F: Float, D: Dimension>(
    a: &ArrayRef<F, D>,
    b: &ArrayRef<F, D>,
) -> Option<String> {
    if a.shape() != b.shape() {
        return Some(format!(
            "shape mismatch: {:?} vs {:?}",
            a.shape(),
            b.shape()
        ));
    }
    let mut first: Option<(D::Pattern, F, F)> = None;
    let mut n_diff = 0usize;
    for ((idx, &x), &y) in a.indexed_iter().zip(b.iter()) {
        let same = (x.is_nan() && y.is_nan()) || bits(x) == bits(y);
        if !same {
            n_diff += 1;
            if first.is_none() {
                first = Some((idx, x, y));
            }
        }
    }
    first.map(|(idx, x, y)| {
        format!(
            "{n_diff} of {} elements differ bitwise; first at index {idx:?}: {x:e} (bits {:#x}) vs \
             {y:e} (bits {:#x}), |diff| = {:e}",
            a.len(),
            bits(x),
            bits(y),
            (x.to_f64_lossless() - y.to_f64_lossless()).abs()
        )
    })
}

/// Whether two labelings are the same partition up to a renaming of the labels (a bijection
/// between the label sets maps one onto the other). Lengths must agree.
///
/// ```
/// use ndlearn_testkit::same_partition;
/// assert!(same_partition(&[0, 0, 1, 2], &[5, 5, 3, 9]));
/// assert!(!same_partition(&[0, 0, 1, 1], &[0, 1, 1, 1]));
/// assert!(!same_partition(&[0, 1], &[7, 7]));
/// ```
pub fn same_partition<A: PartialEq + Copy, B: PartialEq + Copy>(a: &[A], b: &[B]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut pairs: Vec<(A, B)> = Vec::new();
    for (&u, &v) in a.iter().zip(b) {
        match pairs.iter().find(|(p, q)| *p == u || *q == v) {
            Some(&(p, q)) if p == u && q == v => {}
            Some(_) => return false,
            None => pairs.push((u, v)),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, array};

    #[test]
    fn close_arrays_pass() {
        let a = array![[1.0, 2.0], [3.0, 4.0 + 1e-12]];
        let e = array![[1.0, 2.0], [3.0, 4.0]];
        assert_close(&a, &e, 1e-10, 0.0, "2d");
        let a32 = array![1.0f32, 2.0];
        assert_close(&a32, &array![1.0, 2.0000001], 1e-6, 0.0, "f32 vs f64");
        assert_close(
            &array![f64::NAN, f64::INFINITY],
            &array![f64::NAN, f64::INFINITY],
            0.0,
            0.0,
            "nan",
        );
        assert_close(
            &Array1::<f64>::zeros(0),
            &Array1::<f64>::zeros(0),
            0.0,
            0.0,
            "empty",
        );
        assert_close(&array![1e-9], &array![0.0], 0.0, 1e-8, "atol");
        // A view works as well as an owned array.
        assert_close(&a.row(1), &e.row(1), 1e-10, 0.0, "view");
        assert_close_scalar(1.0 + 1e-9, 1.0, 1e-8, 0.0, "scalar");
        assert_close_scalar(0.5f32, 0.5, 0.0, 0.0, "scalar f32");
    }

    #[test]
    #[should_panic(expected = "worst at index (1, 0): actual 3.1e0, expected 3e0")]
    fn reports_worst_index() {
        let a = array![[1.0, 2.0001], [3.1, 4.0]];
        let e = array![[1.0, 2.0], [3.0, 4.0]];
        assert_close(&a, &e, 1e-6, 0.0, "worst");
    }

    #[test]
    #[should_panic(expected = "my context: 2 of 2 elements out of tolerance")]
    fn reports_context_and_count() {
        assert_close(
            &array![1.0, 2.0],
            &array![1.5, 2.5],
            1e-3,
            1e-3,
            "my context",
        );
    }

    #[test]
    #[should_panic(expected = "shape mismatch")]
    fn shape_mismatch_panics() {
        assert_close(
            &array![[1.0, 2.0]],
            &array![[1.0], [2.0]],
            1.0,
            1.0,
            "shape",
        );
    }

    #[test]
    #[should_panic(expected = "out of tolerance")]
    fn nan_against_number_fails() {
        assert_close(&array![f64::NAN], &array![1.0], 1.0, 1.0, "nan");
    }

    #[test]
    #[should_panic(expected = "scalar ctx: actual 1.1e0, expected 1e0")]
    fn scalar_failure() {
        assert_close_scalar(1.1, 1.0, 1e-3, 0.0, "scalar ctx");
    }

    #[test]
    fn max_abs_diff_values() {
        assert_eq!(max_abs_diff(&array![1.0, 2.0], &array![1.5, 1.0]), 1.0);
        assert_eq!(max_abs_diff(&array![f64::NAN], &array![f64::NAN]), 0.0);
        assert_eq!(max_abs_diff(&array![f64::NAN], &array![0.0]), f64::INFINITY);
        assert_eq!(
            max_abs_diff(&Array1::<f32>::zeros(0), &Array1::<f32>::zeros(0)),
            0.0
        );
    }

    #[test]
    fn sign_normalisation() {
        let mut m = array![[1.0, -3.0, 0.0, -2.0], [-2.0, 1.0, 0.0, 2.0]];
        normalize_column_signs(&mut m);
        // col 0: largest |.| is -2 -> flipped; col 1: -3 -> flipped; col 2: zero, untouched;
        // col 3: tie between -2 and 2, the first (-2) decides -> flipped.
        assert_eq!(m, array![[-1.0, 3.0, 0.0, 2.0], [2.0, -1.0, 0.0, -2.0]]);
        let mut r = array![[1.0, -3.0], [0.5, 0.25], [-1.0, 1.0]];
        normalize_row_signs(&mut r);
        assert_eq!(r, array![[-1.0, 3.0], [0.5, 0.25], [1.0, -1.0]]);
        // Idempotent, and undoes any sign flip.
        let mut again = r.clone();
        normalize_row_signs(&mut again);
        assert_eq!(again, r);
        let mut flipped = -&r;
        normalize_row_signs(&mut flipped);
        assert_eq!(flipped, r);
    }

    #[test]
    fn bitwise_equality() {
        assert_bitwise_eq(
            &array![1.0, f64::NAN],
            &array![1.0, -f64::NAN],
            "nan payloads",
        );
        assert_bitwise_eq(&array![[1.5f32]], &array![[1.5f32]], "f32");
        assert!(bitwise_diff(&array![0.0], &array![-0.0]).is_some());
        assert!(bitwise_diff(&array![1.0f32], &array![1.0f32 + f32::EPSILON]).is_some());
    }

    #[test]
    #[should_panic(expected = "ctx: 1 of 2 elements differ bitwise; first at index 1")]
    fn bitwise_failure() {
        let b = 2.0f64;
        assert_bitwise_eq(&array![1.0, b], &array![1.0, b + 4.0 * f64::EPSILON], "ctx");
    }
}
