//! Slice kernels shared by [`super::Metric`], the pairwise matrices and the neighbour index.
//!
//! Every distance in this crate is computed as a *reduced distance* `r` (a cheaper monotone
//! function of the distance: the sum of squares for Euclidean, `Σ|Δ|^p` for Minkowski, the
//! quadratic form for Mahalanobis) and then *finalised* (`√r`, `r^{1/p}`). All code paths (the
//! [`super::Metric::distance`] method, brute force, the trees) call the same kernel on the same
//! coordinates in the same order of operations, so they agree bit for bit. The sums use eight
//! independent accumulators combined in a fixed tree, which lets the compiler vectorise the loop
//! and is still a fixed, input-independent order of operations.

use std::borrow::Cow;

use ndarray::{Array2, ArrayRef1, ArrayRef2};

use crate::Float;

/// Number of independent accumulators of the summing kernels.
const LANES: usize = 8;

/// The contiguous data of a vector, copied only when the view is strided.
pub(crate) fn contiguous<F: Clone>(a: &ArrayRef1<F>) -> Cow<'_, [F]> {
    match a.as_slice() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(a.iter().cloned().collect()),
    }
}

#[inline(always)]
fn combine<F: Float>(acc: &[F; LANES]) -> F {
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
}

/// `Σ_k t(a_k, b_k)` in the fixed 8-lane order. Both slices must have the same length.
#[inline(always)]
fn lane_sum<F: Float, T: Fn(F, F) -> F>(a: &[F], b: &[F], t: T) -> F {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [F::zero(); LANES];
    let ca = a.chunks_exact(LANES);
    let cb = b.chunks_exact(LANES);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            acc[l] += t(x[l], y[l]);
        }
    }
    let mut s = combine(&acc);
    for (&x, &y) in ra.iter().zip(rb) {
        s += t(x, y);
    }
    s
}

/// [`lane_sum`] that may stop early: returns exactly `lane_sum(a, b, t)` when that is
/// `≤ bound`, and otherwise some partial sum `> bound` (the terms are non-negative and rounding
/// is monotone, so a partial sum above the bound proves the full one is above it too).
#[inline(always)]
fn lane_sum_bounded<F: Float, T: Fn(F, F) -> F>(a: &[F], b: &[F], t: T, bound: F) -> F {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [F::zero(); LANES];
    let ca = a.chunks_exact(LANES);
    let cb = b.chunks_exact(LANES);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    let chunks = n / LANES;
    for (c, (x, y)) in ca.zip(cb).enumerate() {
        for l in 0..LANES {
            acc[l] += t(x[l], y[l]);
        }
        if c + 1 < chunks || !ra.is_empty() {
            let partial = combine(&acc);
            if partial > bound {
                return partial;
            }
        }
    }
    let mut s = combine(&acc);
    for (&x, &y) in ra.iter().zip(rb) {
        s += t(x, y);
    }
    s
}

/// [`sq_euclidean`] with early exit above `bound` (see [`lane_sum_bounded`]).
#[inline]
pub(crate) fn sq_euclidean_bounded<F: Float>(a: &[F], b: &[F], bound: F) -> F {
    lane_sum_bounded(
        a,
        b,
        |x, y| {
            let d = x - y;
            d * d
        },
        bound,
    )
}

/// [`manhattan`] with early exit above `bound`.
#[inline]
pub(crate) fn manhattan_bounded<F: Float>(a: &[F], b: &[F], bound: F) -> F {
    lane_sum_bounded(a, b, |x, y| (x - y).abs(), bound)
}

/// [`minkowski_reduced`] with early exit above `bound`.
#[inline]
pub(crate) fn minkowski_reduced_bounded<F: Float>(
    a: &[F],
    b: &[F],
    p: F,
    ip: Option<i32>,
    bound: F,
) -> F {
    lane_sum_bounded(a, b, |x, y| pow_term(x - y, p, ip), bound)
}

/// `Σ (a_k − b_k)²`.
#[inline]
pub(crate) fn sq_euclidean<F: Float>(a: &[F], b: &[F]) -> F {
    lane_sum(a, b, |x, y| {
        let d = x - y;
        d * d
    })
}

/// `Σ |a_k − b_k|`.
#[inline]
pub(crate) fn manhattan<F: Float>(a: &[F], b: &[F]) -> F {
    lane_sum(a, b, |x, y| (x - y).abs())
}

/// `max |a_k − b_k|` (0 for empty vectors).
#[inline]
pub(crate) fn chebyshev<F: Float>(a: &[F], b: &[F]) -> F {
    a.iter()
        .zip(b)
        .fold(F::zero(), |m, (&x, &y)| m.max((x - y).abs()))
}

/// `|d|^p`, with `powi` for small integral `p` (faster, and as accurate).
#[inline(always)]
pub(crate) fn pow_term<F: Float>(d: F, p: F, ip: Option<i32>) -> F {
    match ip {
        Some(i) => d.abs().powi(i),
        None => d.abs().powf(p),
    }
}

/// `Σ |a_k − b_k|^p`.
#[inline]
pub(crate) fn minkowski_reduced<F: Float>(a: &[F], b: &[F], p: F, ip: Option<i32>) -> F {
    lane_sum(a, b, |x, y| pow_term(x - y, p, ip))
}

/// `(a, b)` dot product in the fixed lane order.
#[inline]
pub(crate) fn dot<F: Float>(a: &[F], b: &[F]) -> F {
    lane_sum(a, b, |x, y| x * y)
}

/// Cosine similarity `aᵀb / (‖a‖ ‖b‖)`, clamped to `[−1, 1]`; **0 when either vector is zero**
/// (scikit-learn's convention: zero rows are left at zero by its row normalisation).
#[inline]
pub(crate) fn cosine_similarity<F: Float>(a: &[F], b: &[F]) -> F {
    let na = dot(a, a);
    let nb = dot(b, b);
    if na == F::zero() || nb == F::zero() {
        return F::zero();
    }
    let s = dot(a, b) / (na.sqrt() * nb.sqrt());
    s.max(-F::one()).min(F::one())
}

/// `1 − cosine_similarity`, in `[0, 2]`.
#[inline]
pub(crate) fn cosine_distance<F: Float>(a: &[F], b: &[F]) -> F {
    F::one() - cosine_similarity(a, b)
}

/// Quadratic form `(a − b)ᵀ VI (a − b)`, clamped at 0, with `VI` read through `F::cast` (so an
/// `f64` matrix and its `F` copy give the same arithmetic). `VI` must be `d × d`.
#[inline]
pub(crate) fn mahalanobis_reduced<F: Float, G: Float>(a: &[F], b: &[F], vi: &ArrayRef2<G>) -> F {
    let d = a.len().min(b.len());
    let mut q = F::zero();
    for i in 0..d {
        let row = vi.row(i);
        let mut s = F::zero();
        for (j, v) in row.iter().enumerate().take(d) {
            s += F::cast(*v) * (a[j] - b[j]);
        }
        q += (a[i] - b[i]) * s;
    }
    q.max(F::zero())
}

/// Fraction of coordinates where `a_k ≠ b_k` (scipy's `hamming`); 0 for empty vectors.
#[inline]
pub(crate) fn hamming<F: Float>(a: &[F], b: &[F]) -> F {
    let n = a.len().min(b.len());
    if n == 0 {
        return F::zero();
    }
    let diff = a.iter().zip(b).filter(|(x, y)| x != y).count();
    F::cast(diff) / F::cast(n)
}

/// scipy's `jaccard`: among the coordinates where at least one vector is non-zero, the fraction
/// where they differ; 0 when both vectors are all zero. For 0/1 data this is the course notes'
/// `(FN + FP) / (TP + FP + FN)`.
#[inline]
pub(crate) fn jaccard<F: Float>(a: &[F], b: &[F]) -> F {
    let mut nonzero = 0usize;
    let mut unequal = 0usize;
    for (&x, &y) in a.iter().zip(b) {
        if x != F::zero() || y != F::zero() {
            nonzero += 1;
            if x != y {
                unequal += 1;
            }
        }
    }
    if nonzero == 0 {
        F::zero()
    } else {
        F::cast(unequal) / F::cast(nonzero)
    }
}

/// A metric with its parameters converted to `F`, ready for tight loops.
#[derive(Debug, Clone)]
pub(crate) enum Prepared<F: Float> {
    /// Sum of squares; `sqrt_final` says whether the reported distance is its square root.
    SqEuclid {
        sqrt_final: bool,
    },
    Manhattan,
    Chebyshev,
    Minkowski {
        p: F,
        ip: Option<i32>,
        inv_p: F,
    },
    Cosine,
    Mahalanobis {
        vi: Array2<F>,
    },
    Hamming,
    Jaccard,
}

impl<F: Float> Prepared<F> {
    /// Reduced distance between two equal-length slices.
    #[inline]
    pub(crate) fn rdist(&self, a: &[F], b: &[F]) -> F {
        match self {
            Self::SqEuclid { .. } => sq_euclidean(a, b),
            Self::Manhattan => manhattan(a, b),
            Self::Chebyshev => chebyshev(a, b),
            Self::Minkowski { p, ip, .. } => minkowski_reduced(a, b, *p, *ip),
            Self::Cosine => cosine_distance(a, b),
            Self::Mahalanobis { vi } => mahalanobis_reduced(a, b, vi),
            Self::Hamming => hamming(a, b),
            Self::Jaccard => jaccard(a, b),
        }
    }

    /// The reported distance for a reduced distance.
    #[inline]
    pub(crate) fn finalize(&self, r: F) -> F {
        match self {
            Self::SqEuclid { sqrt_final: true } | Self::Mahalanobis { .. } => r.sqrt(),
            Self::Minkowski { inv_p, .. } => r.powf(*inv_p),
            _ => r,
        }
    }

    /// A reduced distance `≥` the one of every point at reported distance `≤ d` (the inverse
    /// of [`Self::finalize`], inflated by a few ulps so that pruning stays conservative).
    #[inline]
    pub(crate) fn reduced_upper(&self, d: F) -> F {
        let (r, ulps) = match self {
            Self::SqEuclid { sqrt_final: true } | Self::Mahalanobis { .. } => {
                (d * d, F::cast(16.0))
            }
            Self::Minkowski { p, .. } => (d.powf(*p), F::cast(4.0) * *p + F::cast(16.0)),
            _ => (d, F::cast(16.0)),
        };
        r * (F::one() + ulps * F::epsilon()) + F::min_positive_value()
    }

    /// The distance that satisfies the triangle inequality (used for ball-tree bounds): like
    /// [`Self::finalize`] except that squared Euclidean is mapped to Euclidean.
    #[inline]
    pub(crate) fn true_distance(&self, r: F) -> F {
        match self {
            Self::SqEuclid { .. } | Self::Mahalanobis { .. } => r.sqrt(),
            Self::Minkowski { inv_p, .. } => r.powf(*inv_p),
            _ => r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_sum_handles_remainders_and_matches_naive() {
        for n in [0usize, 1, 7, 8, 9, 17, 33] {
            let a: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
            let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
            let naive: f64 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            assert!((sq_euclidean(&a, &b) - naive).abs() <= 1e-12 * naive.max(1.0));
            let naive_l1: f64 = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum();
            assert!((manhattan(&a, &b) - naive_l1).abs() <= 1e-12 * naive_l1.max(1.0));
            // Bounded variants: exact below the bound, above it otherwise.
            let full = sq_euclidean(&a, &b);
            assert_eq!(sq_euclidean_bounded(&a, &b, full), full);
            assert_eq!(sq_euclidean_bounded(&a, &b, f64::INFINITY), full);
            if full > 0.0 {
                assert!(sq_euclidean_bounded(&a, &b, full * 0.5) > full * 0.5);
            }
            assert_eq!(manhattan_bounded(&a, &b, naive_l1 * 2.0), manhattan(&a, &b));
            let m3 = minkowski_reduced(&a, &b, 3.0, Some(3));
            assert_eq!(minkowski_reduced_bounded(&a, &b, 3.0, Some(3), m3), m3);
        }
    }

    #[test]
    fn kernels_are_exactly_symmetric() {
        let a = [0.1f64, -3.0, 2.5, 7.25, 1e-3, 4.0, 2.0, 1.0, 9.5];
        let b = [1.3f64, 0.0, -2.5, 7.0, 2e-3, 0.0, 2.0, -1.0, 0.5];
        assert_eq!(sq_euclidean(&a, &b), sq_euclidean(&b, &a));
        assert_eq!(manhattan(&a, &b), manhattan(&b, &a));
        assert_eq!(
            minkowski_reduced(&a, &b, 3.0, Some(3)),
            minkowski_reduced(&b, &a, 3.0, Some(3))
        );
        assert_eq!(cosine_distance(&a, &b), cosine_distance(&b, &a));
        assert_eq!(jaccard(&a, &b), jaccard(&b, &a));
    }
}
