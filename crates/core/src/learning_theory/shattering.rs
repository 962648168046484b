//! Dichotomies of affine classifiers and the shattering check (CL-191; Abu-Mostafa,
//! Magdon-Ismail & Lin, *Learning from Data*, AMLBook (2012), §2.1; Cover, IEEE Trans.
//! Electronic Computers EC-14(3), 1965).
//!
//! A dichotomy `y ∈ {−1, +1}^N` of points `x₁..x_N ∈ R^d` is realized by `h(x) = sign(wᵀx + b)`
//! (`sign(0) = +1`) iff the points are strictly separable with those labels, i.e. iff the linear
//! program `find (w, b)  s.t.  yᵢ(wᵀxᵢ + b) ≥ 1` is feasible (scale `(w, b)` up; a point on the
//! hyperplane labelled `+1` can be moved off it by increasing `b` slightly, since the set is
//! finite). Each dichotomy is one feasibility LP solved by [`crate::optim::LinearProgram`];
//! a dichotomy and its complement are realized together (negate `(w, b)`), so only the `2^{N−1}`
//! dichotomies with `y₁ = +1` are solved.
//!
//! For `N` points in general position in `R^d` Cover's function counting theorem gives
//! `2 Σ_{i=0}^{d} C(N − 1, i)` dichotomies (`N² − N + 2` in the plane), so 3 points in general
//! position in `R²` are shattered and no 4 points are (the XOR labelling fails): the VC dimension
//! of lines in the plane is 3, of hyperplanes in `R^d` it is `d + 1`.
//! Brute force is exponential in `N`; `N ≤ 20` is enforced.

use ndarray::{Array1, Array2, ArrayRef2};

use crate::optim::{LinearProgram, LpStatus};
use crate::validate::check_finite_2d;
use crate::{Error, Result};

/// Largest point count accepted (2^19 feasibility LPs).
pub const MAX_SHATTER_POINTS: usize = 20;

fn check_points(points: &ArrayRef2<f64>) -> Result<()> {
    let (n, d) = points.dim();
    if n == 0 {
        return Err(Error::TooFewSamples {
            context: "dichotomies",
            needed: 1,
            found: 0,
        });
    }
    if d == 0 {
        return Err(Error::ShapeMismatch {
            context: "dichotomies",
            expected: "at least one coordinate".into(),
            found: "0 columns".into(),
        });
    }
    if n > MAX_SHATTER_POINTS {
        return Err(Error::invalid_param(
            "points",
            format!("brute force over 2^N dichotomies: N must be <= {MAX_SHATTER_POINTS}, got {n}"),
        ));
    }
    check_finite_2d(points, "points")
}

/// `true` when `sign(wᵀx + b)` can give the rows of `points` the labels `labels` (`true` = +1).
///
/// # Errors
/// [`Error::ShapeMismatch`] when `labels` does not have one entry per row; the errors of
/// [`count_dichotomies`] for the points; [`Error::InvalidParam`] if the separability LP hits
/// its pivot limit.
pub fn realizable(points: &ArrayRef2<f64>, labels: &[bool]) -> Result<bool> {
    check_points(points)?;
    if labels.len() != points.nrows() {
        return Err(Error::ShapeMismatch {
            context: "realizable: labels",
            expected: format!("{} labels", points.nrows()),
            found: format!("{}", labels.len()),
        });
    }
    realizable_unchecked(points, labels)
}

fn realizable_unchecked(points: &ArrayRef2<f64>, labels: &[bool]) -> Result<bool> {
    let (n, d) = points.dim();
    // variables (w, b), free; constraint −yᵢ(xᵢᵀw + b) ≤ −1
    let mut a = Array2::zeros((n, d + 1));
    for (i, row) in points.rows().into_iter().enumerate() {
        let y = if labels[i] { 1.0 } else { -1.0 };
        for j in 0..d {
            a[[i, j]] = -y * row[j];
        }
        a[[i, d]] = -y;
    }
    let b = Array1::from_elem(n, -1.0);
    let c = Array1::zeros(d + 1);
    let res = LinearProgram::new(&c)
        .inequalities(&a, &b)
        .bounds(vec![(f64::NEG_INFINITY, f64::INFINITY)])
        .solve()?;
    match res.status {
        LpStatus::Optimal | LpStatus::Unbounded => Ok(true),
        LpStatus::Infeasible => Ok(false),
        _ => Err(Error::invalid_param(
            "points",
            "the separability LP hit its pivot limit (degenerate or badly scaled points)",
        )),
    }
}

/// Number of dichotomies `|H(x₁, …, x_N)|` that affine classifiers realize on the rows of
/// `points` (at most `2^N`).
///
/// # Errors
/// [`Error::TooFewSamples`] without points, [`Error::ShapeMismatch`] without columns,
/// [`Error::NonFinite`], [`Error::InvalidParam`] for more than [`MAX_SHATTER_POINTS`] points.
///
/// ```
/// use ndlearn_core::{learning_theory::count_dichotomies, ndarray::array};
/// // 4 points in general position in the plane: N² − N + 2 = 14 of 16 (XOR fails)
/// let square = array![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
/// assert_eq!(count_dichotomies(&square)?, 14);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn count_dichotomies(points: &ArrayRef2<f64>) -> Result<u64> {
    check_points(points)?;
    let n = points.nrows();
    let half = 1u64 << (n - 1);
    let ok = crate::par::try_map_tasks(half as usize, |mask| {
        realizable_unchecked(points, &labels_of(mask as u64, n))
    })?;
    Ok(2 * ok.into_iter().filter(|&r| r).count() as u64)
}

/// `true` when affine classifiers shatter the rows of `points` (all `2^N` dichotomies are
/// realized; Abu-Mostafa et al., *Learning from Data* (2012), §2.1); stops at the first
/// dichotomy that fails.
///
/// # Errors
/// As [`count_dichotomies`].
///
/// ```
/// use ndlearn_core::{learning_theory::shatters, ndarray::array};
/// assert!(shatters(&array![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])?);
/// assert!(!shatters(&array![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])?); // collinear
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn shatters(points: &ArrayRef2<f64>) -> Result<bool> {
    check_points(points)?;
    let n = points.nrows();
    for mask in 0..(1u64 << (n - 1)) {
        if !realizable_unchecked(points, &labels_of(mask, n))? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Labels with `y₁ = +1` and the bits of `mask` for the others.
fn labels_of(mask: u64, n: usize) -> Vec<bool> {
    let mut y = vec![true; n];
    for (i, yi) in y.iter_mut().enumerate().skip(1) {
        *yi = (mask >> (i - 1)) & 1 == 1;
    }
    y
}

/// Cover's count `2 Σ_{i=0}^{d} C(N − 1, i)` of dichotomies of `N` points in general position
/// in `R^d` realized by affine classifiers (equals `2^N` for `N ≤ d + 1`).
pub fn cover_count(n: u64, d: u64) -> Option<u128> {
    if n == 0 {
        return Some(1);
    }
    let mut s: u128 = 0;
    for i in 0..=d.min(n - 1) {
        s = s.checked_add(super::bounds::binomial_exact(n - 1, i)?)?;
    }
    s.checked_mul(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn plane_vc_dimension_is_three() {
        // 3 points in general position are shattered; collinear ones are not (the middle point
        // cannot be separated from both ends); no 4 points are (XOR).
        let tri = array![[0.0, 0.0], [1.0, 0.0], [0.3, 1.0]];
        assert!(shatters(&tri).expect("ok"));
        assert_eq!(count_dichotomies(&tri).expect("ok"), 8);
        let line = array![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]];
        assert!(!shatters(&line).expect("ok"));
        assert_eq!(count_dichotomies(&line).expect("ok"), 6);
        assert!(!realizable(&line, &[true, false, true]).expect("ok"));
        let xor = array![[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]];
        assert!(!shatters(&xor).expect("ok"));
        assert!(!realizable(&xor, &[true, true, false, false]).expect("ok"));
        assert!(realizable(&xor, &[true, false, true, false]).expect("ok"));
        assert_eq!(count_dichotomies(&xor).expect("ok"), 14);
    }

    #[test]
    fn counts_match_cover_in_general_position() {
        let mut rng = crate::random::rng(5);
        for (n, d) in [(5usize, 2usize), (6, 2), (5, 3), (6, 1)] {
            let p = Array2::from_shape_simple_fn((n, d), || {
                crate::random::standard_normal::<f64>(&mut rng)
            });
            let want = cover_count(n as u64, d as u64).expect("small") as u64;
            assert_eq!(count_dichotomies(&p).expect("ok"), want, "N={n} d={d}");
        }
        // d + 1 points in general position in R^d are shattered (VC = d + 1)
        let simplex = array![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0]
        ];
        assert!(shatters(&simplex).expect("ok"));
        assert_eq!(cover_count(4, 3), Some(16));
        assert_eq!(cover_count(4, 2), Some(14));
    }

    #[test]
    fn errors() {
        assert!(count_dichotomies(&Array2::<f64>::zeros((0, 2))).is_err());
        assert!(count_dichotomies(&Array2::<f64>::zeros((3, 0))).is_err());
        assert!(count_dichotomies(&Array2::<f64>::zeros((21, 2))).is_err());
        assert!(shatters(&array![[f64::NAN, 0.0]]).is_err());
        assert!(realizable(&array![[0.0, 0.0]], &[true, false]).is_err());
        // one point: both labels
        assert_eq!(count_dichotomies(&array![[2.0, 3.0]]).expect("ok"), 2);
        // duplicated points can only share a label
        assert_eq!(count_dichotomies(&array![[1.0], [1.0]]).expect("ok"), 2);
    }
}
