//! Distances and dissimilarities between two vectors (free functions).
//!
//! Every function checks that the two vectors have the same length and returns
//! [`Error::ShapeMismatch`] otherwise. Formulas are in the [module docs](super).

use ndarray::{ArrayRef1, ArrayRef2};

use super::check_same_len;
use super::kernels::{self, contiguous};
use crate::{Error, Float, Result};

/// Two vectors as contiguous slices.
type SlicePair<'a, F> = (std::borrow::Cow<'a, [F]>, std::borrow::Cow<'a, [F]>);

fn pair<'a, F: Float>(
    a: &'a ArrayRef1<F>,
    b: &'a ArrayRef1<F>,
    context: &'static str,
) -> Result<SlicePair<'a, F>> {
    check_same_len(a.len(), b.len(), context)?;
    Ok((contiguous(a), contiguous(b)))
}

/// Euclidean distance `√Σ (aₖ − bₖ)²`.
pub fn euclidean<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "euclidean")?;
    Ok(kernels::sq_euclidean(&a, &b).sqrt())
}

/// Squared Euclidean distance `Σ (aₖ − bₖ)²`.
pub fn sq_euclidean<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "sq_euclidean")?;
    Ok(kernels::sq_euclidean(&a, &b))
}

/// Manhattan (city-block, `L₁`) distance `Σ |aₖ − bₖ|`.
pub fn manhattan<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "manhattan")?;
    Ok(kernels::manhattan(&a, &b))
}

/// Chebyshev (`L∞`) distance `max |aₖ − bₖ|` (0 for empty vectors).
pub fn chebyshev<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "chebyshev")?;
    Ok(kernels::chebyshev(&a, &b))
}

/// Minkowski distance `(Σ |aₖ − bₖ|^p)^{1/p}` for `p ≥ 1`; `p = ∞` gives Chebyshev.
///
/// The course notes print the formula without the inner powers (erratum E5); this is the
/// correct form. `p = 1` is Manhattan, `p = 2` Euclidean. `Σ|Δ|^p` is not rescaled, so it can
/// overflow for large `p` and large differences: use Chebyshev for `p → ∞`.
///
/// # Errors
/// [`Error::InvalidParam`] if `p < 1` or NaN; [`Error::ShapeMismatch`] on different lengths.
pub fn minkowski<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>, p: f64) -> Result<F> {
    let metric = super::Metric::Minkowski { p };
    metric.validate()?;
    let (a, b) = pair(a, b, "minkowski")?;
    let k = metric.prepare::<F>();
    Ok(k.finalize(k.rdist(&a, &b)))
}

/// Cosine similarity `aᵀb / (‖a‖‖b‖)`, in `[−1, 1]`: 1 for parallel vectors, 0 for orthogonal
/// ones (Manning, Raghavan & Schütze, *Introduction to Information Retrieval*, Cambridge
/// University Press (2008), ch. 6).
///
/// **Zero vectors:** the similarity of a zero vector with anything is defined as `0`
/// (scikit-learn's convention; scipy gives NaN).
pub fn cosine_similarity<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "cosine_similarity")?;
    Ok(kernels::cosine_similarity(&a, &b))
}

/// Cosine distance `1 − cosine_similarity(a, b)`, in `[0, 2]` (1 when either vector is zero).
pub fn cosine_distance<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "cosine_distance")?;
    Ok(kernels::cosine_distance(&a, &b))
}

/// Mahalanobis distance `√((a − b)ᵀ VI (a − b))` for a symmetric positive semi-definite `VI`
/// (usually the inverse covariance `Σ⁻¹`; Mahalanobis, "On the generalised distance in
/// statistics", Proc. National Institute of Sciences of India 2(1), 1936; the course notes use
/// the square `(x − m)ᵀΣ⁻¹(x − m)`).
///
/// `VI` is checked (square, matching dimension, finite, symmetric PSD) on every call; for many
/// evaluations build a [`super::Metric::Mahalanobis`] once, validate it, and use
/// [`super::Metric::distance`] or [`super::pairwise_distances`].
pub fn mahalanobis<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>, vi: &ArrayRef2<F>) -> Result<F> {
    let (sa, sb) = pair(a, b, "mahalanobis")?;
    if vi.nrows() != sa.len() || vi.ncols() != sa.len() {
        return Err(Error::ShapeMismatch {
            context: "mahalanobis: VI",
            expected: format!("{0} x {0} (one row per coordinate)", sa.len()),
            found: format!("{} x {}", vi.nrows(), vi.ncols()),
        });
    }
    crate::validate::check_finite_2d(vi, "VI")?;
    if !sa.is_empty() && !crate::linalg::is_positive_semidefinite(vi, None)? {
        return Err(Error::invalid_param(
            "vi",
            "the Mahalanobis matrix VI must be symmetric positive semi-definite",
        ));
    }
    Ok(kernels::mahalanobis_reduced(&sa, &sb, vi).sqrt())
}

/// Hamming distance: the fraction of coordinates where `a` and `b` differ (scipy's `hamming`);
/// 0 for empty vectors.
pub fn hamming<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "hamming")?;
    Ok(kernels::hamming(&a, &b))
}

/// Simple-matching dissimilarity of binary (or categorical) vectors,
/// `(FN + FP) / (TP + FP + TN + FN)` (Han, Kamber & Pei, *Data Mining: Concepts and
/// Techniques*, 3rd ed., Morgan Kaufmann (2011), §2.4): the fraction of mismatches. It equals
/// [`hamming`] and, on category codes, [`nominal_dissimilarity`].
pub fn simple_matching<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "simple_matching")?;
    Ok(kernels::hamming(&a, &b))
}

/// Jaccard dissimilarity (scipy's definition): among the coordinates where at least one vector
/// is non-zero, the fraction where they differ; 0 when both are all zero. For 0/1 data this is
/// the course notes' `(FN + FP) / (TP + FP + FN)` (Han, Kamber & Pei (2011), §2.4): negative
/// matches (both 0) are
/// ignored, which suits asymmetric binary variables.
pub fn jaccard<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
    let (a, b) = pair(a, b, "jaccard")?;
    Ok(kernels::jaccard(&a, &b))
}

/// Nominal simple matching `(p − m)/p` (Han, Kamber & Pei (2011), §2.4): `p` variables, `m` of
/// them equal. Category codes can be any comparable values (labels, strings, integers). 0 for
/// `p = 0`.
pub fn nominal_dissimilarity<T: PartialEq>(a: &[T], b: &[T]) -> Result<f64> {
    check_same_len(a.len(), b.len(), "nominal_dissimilarity")?;
    if a.is_empty() {
        return Ok(0.0);
    }
    let m = a.iter().zip(b).filter(|(x, y)| x == y).count();
    Ok((a.len() - m) as f64 / a.len() as f64)
}

/// Ordinal rank to the unit interval, `z = (r − 1)/(M − 1)` (Han, Kamber & Pei (2011), §2.4),
/// for ranks
/// `r ∈ {1, …, M}`. `M = 1` (a single level) maps to 0.
///
/// # Errors
/// [`Error::InvalidParam`] if `M = 0` or `r ∉ [1, M]`.
pub fn ordinal_to_unit(r: usize, levels: usize) -> Result<f64> {
    if levels == 0 {
        return Err(Error::invalid_param(
            "levels",
            "an ordinal variable needs at least 1 level",
        ));
    }
    if r == 0 || r > levels {
        return Err(Error::invalid_param(
            "r",
            format!("ordinal ranks are 1..={levels}, got {r}"),
        ));
    }
    if levels == 1 {
        return Ok(0.0);
    }
    Ok((r - 1) as f64 / (levels - 1) as f64)
}

/// Ordinal dissimilarity `|z − z'| = |r − r'| / (M − 1)`: both ranks mapped by
/// [`ordinal_to_unit`] and then treated as numeric (Han, Kamber & Pei (2011), §2.4).
pub fn ordinal_dissimilarity(r1: usize, r2: usize, levels: usize) -> Result<f64> {
    Ok((ordinal_to_unit(r1, levels)? - ordinal_to_unit(r2, levels)?).abs())
}

/// Ratio-scaled variables (measured on an exponential scale like `A e^{Bt}`) are
/// log-transformed and then treated as numeric (Kaufman & Rousseeuw, *Finding Groups in Data*,
/// Wiley (1990), ch. 1): returns `ln x`.
///
/// # Errors
/// [`Error::InvalidParam`] unless `x > 0` and finite.
pub fn ratio_scaled_log<F: Float>(x: F) -> Result<F> {
    if x.is_nan() || x <= F::zero() || !x.is_finite() {
        return Err(Error::invalid_param(
            "x",
            format!("a ratio-scaled value must be positive and finite to take its log, got {x}"),
        ));
    }
    Ok(x.ln())
}

/// Distance from a point to the hyperplane `{z : wᵀz + b = 0}`: `|wᵀx + b| / ‖w‖₂`
/// (Bishop, *Pattern Recognition and Machine Learning* (2006), §4.1.1).
///
/// # Errors
/// [`Error::ShapeMismatch`] if `x` and `w` differ in length; [`Error::InvalidParam`] if
/// `w = 0` (no hyperplane).
pub fn hyperplane_distance<F: Float>(x: &ArrayRef1<F>, w: &ArrayRef1<F>, b: F) -> Result<F> {
    let (sx, sw) = pair(x, w, "hyperplane_distance")?;
    let norm = kernels::dot(&sw, &sw).sqrt();
    if norm == F::zero() {
        return Err(Error::invalid_param(
            "w",
            "the normal vector w is zero, which defines no hyperplane",
        ));
    }
    Ok((kernels::dot(&sx, &sw) + b).abs() / norm)
}

/// `L_p` distance between two time series of the same length (Yi & Faloutsos, "Fast time
/// sequence indexing for arbitrary Lp norms", VLDB 2000): the Euclidean
/// distance `√Σ(qᵢ − cᵢ)²` for `p = 2`, [`minkowski`] in general.
///
/// # Errors
/// [`Error::ShapeMismatch`] when the series differ in length (use [`super::Dtw`] for those);
/// [`Error::InvalidParam`] if `p < 1`.
pub fn lp_distance<F: Float>(q: &ArrayRef1<F>, c: &ArrayRef1<F>, p: f64) -> Result<F> {
    if q.len() != c.len() {
        return Err(Error::ShapeMismatch {
            context: "lp_distance: series lengths (use Dtw for series of different lengths)",
            expected: format!("{}", q.len()),
            found: format!("{}", c.len()),
        });
    }
    minkowski(q, c, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn hand_checked_values() {
        let a = array![0.0, 3.0, 1.0];
        let b = array![4.0, 0.0, 1.0];
        // Δ = (−4, 3, 0): L2 = 5, L2² = 25, L1 = 7, L∞ = 4, L3 = (64 + 27)^{1/3}.
        assert_eq!(euclidean(&a, &b).expect("ok"), 5.0);
        assert_eq!(sq_euclidean(&a, &b).expect("ok"), 25.0);
        assert_eq!(manhattan(&a, &b).expect("ok"), 7.0);
        assert_eq!(chebyshev(&a, &b).expect("ok"), 4.0);
        assert!((minkowski(&a, &b, 3.0).expect("ok") - 91f64.cbrt()).abs() < 1e-14);
        assert_eq!(minkowski(&a, &b, f64::INFINITY).expect("ok"), 4.0);
        assert_eq!(lp_distance(&a, &b, 2.0).expect("ok"), 5.0);
        // Inner powers matter: the course notes' printed form (Σ|Δ|)^{1/q} would give 7^{1/3}.
        assert!((minkowski(&a, &b, 3.0).expect("ok") - 7f64.cbrt()).abs() > 1.0);
    }

    #[test]
    fn cosine_conventions() {
        let a = array![1.0, 0.0];
        let b = array![0.0, 2.0];
        let c = array![3.0, 0.0];
        let z = array![0.0, 0.0];
        assert_eq!(cosine_similarity(&a, &b).expect("ok"), 0.0); // orthogonal
        assert_eq!(cosine_similarity(&a, &c).expect("ok"), 1.0); // parallel
        assert_eq!(cosine_distance(&a, &(-&c)).expect("ok"), 2.0); // opposite
        assert_eq!(cosine_similarity(&a, &z).expect("ok"), 0.0); // zero vector: 0 by convention
        assert_eq!(cosine_distance(&z, &z).expect("ok"), 1.0);
    }

    #[test]
    fn binary_and_nominal() {
        // TP (1,1) at 0; FN (1,0) at 1; FP (0,1) at 2; TN (0,0) at 3, 4.
        let a = array![1.0f64, 1.0, 0.0, 0.0, 0.0];
        let b = array![1.0, 0.0, 1.0, 0.0, 0.0];
        // Simple matching (FN + FP)/5 = 2/5; Jaccard (FN + FP)/(TP + FP + FN) = 2/3.
        assert_eq!(simple_matching(&a, &b).expect("ok"), 0.4);
        assert_eq!(hamming(&a, &b).expect("ok"), 0.4);
        assert!((jaccard(&a, &b).expect("ok") - 2.0 / 3.0).abs() < 1e-15);
        let z = array![0.0, 0.0];
        assert_eq!(jaccard(&z, &z).expect("ok"), 0.0);
        // Nominal: p = 4, m = 1 ⇒ 3/4.
        let x = ["red", "green", "blue", "red"];
        let y = ["red", "blue", "green", "green"];
        assert_eq!(nominal_dissimilarity(&x, &y).expect("ok"), 0.75);
        assert_eq!(nominal_dissimilarity::<u8>(&[], &[]).expect("ok"), 0.0);
        assert!(nominal_dissimilarity(&[1, 2], &[1]).is_err());
    }

    #[test]
    fn ordinal_and_ratio() {
        // M = 5: ranks 1..5 ↦ 0, .25, .5, .75, 1.
        assert_eq!(ordinal_to_unit(1, 5).expect("ok"), 0.0);
        assert_eq!(ordinal_to_unit(4, 5).expect("ok"), 0.75);
        assert_eq!(ordinal_dissimilarity(2, 5, 5).expect("ok"), 0.75);
        assert_eq!(ordinal_to_unit(1, 1).expect("ok"), 0.0);
        assert!(ordinal_to_unit(0, 3).is_err());
        assert!(ordinal_to_unit(4, 3).is_err());
        assert!(ordinal_to_unit(1, 0).is_err());
        assert!((ratio_scaled_log(std::f64::consts::E).expect("ok") - 1.0).abs() < 1e-15);
        assert!(ratio_scaled_log(0.0f64).is_err());
        assert!(ratio_scaled_log(f64::INFINITY).is_err());
    }

    #[test]
    fn mahalanobis_cases() {
        let a = array![1.0, 2.0];
        let b = array![3.0, 1.0];
        // VI = diag(1/4, 1): Δ = (−2, 1) ⇒ 4/4 + 1 = 2 ⇒ √2.
        let vi = array![[0.25, 0.0], [0.0, 1.0]];
        assert!((mahalanobis(&a, &b, &vi).expect("ok") - 2f64.sqrt()).abs() < 1e-15);
        assert!(matches!(
            mahalanobis(&a, &b, &Array2::eye(3)),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            mahalanobis(&a, &b, &array![[1.0, 0.0], [0.0, -1.0]]),
            Err(Error::InvalidParam { .. })
        ));
    }

    #[test]
    fn hyperplane() {
        // 3x + 4y − 5 = 0; from the origin: |−5| / 5 = 1; from (3, 4): |9 + 16 − 5|/5 = 4.
        let w = array![3.0, 4.0];
        assert_eq!(
            hyperplane_distance(&array![0.0, 0.0], &w, -5.0).expect("ok"),
            1.0
        );
        assert_eq!(
            hyperplane_distance(&array![3.0, 4.0], &w, -5.0).expect("ok"),
            4.0
        );
        assert!(hyperplane_distance(&array![1.0, 1.0], &array![0.0, 0.0], 1.0).is_err());
        assert!(hyperplane_distance(&array![1.0], &w, 1.0).is_err());
    }

    #[test]
    fn errors() {
        let a = array![1.0, 2.0];
        let b = array![1.0];
        assert!(matches!(
            euclidean(&a, &b),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            lp_distance(&a, &b, 2.0),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            minkowski(&a, &a, 0.5),
            Err(Error::InvalidParam { .. })
        ));
        assert!(cosine_similarity(&a, &b).is_err());
        assert!(jaccard(&a, &b).is_err());
        assert!(hamming(&a, &b).is_err());
        assert!(manhattan(&a, &b).is_err());
        assert!(chebyshev(&a, &b).is_err());
        assert!(sq_euclidean(&a, &b).is_err());
    }
}
