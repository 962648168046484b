//! Distances, dissimilarities and similarities.
//!
//! | item | function | formula |
//! |---|---|---|
//! | Euclidean | [`euclidean`] | `√Σ (aₖ − bₖ)²` |
//! | squared Euclidean | [`sq_euclidean`] | `Σ (aₖ − bₖ)²` |
//! | Manhattan | [`manhattan`] | `Σ |aₖ − bₖ|` |
//! | Chebyshev | [`chebyshev`] | `maxₖ |aₖ − bₖ|` |
//! | Minkowski | [`minkowski`] | `(Σ |aₖ − bₖ|^p)^{1/p}`, `p ≥ 1`, `p = ∞` → Chebyshev |
//! | cosine | [`cosine_similarity`], [`cosine_distance`] | `aᵀb / (‖a‖‖b‖)`, `1 − that` |
//! | Mahalanobis | [`mahalanobis`] | `√((a − b)ᵀ VI (a − b))`, `VI` symmetric PSD (an inverse covariance) |
//! | Hamming / simple matching / nominal | [`hamming`], [`simple_matching`], [`nominal_dissimilarity`] | fraction of differing coordinates, `(p − m)/p` |
//! | Jaccard (binary) | [`jaccard`] | `(FN + FP) / (TP + FP + FN)` (scipy's definition) |
//! | ordinal | [`ordinal_to_unit`], [`ordinal_dissimilarity`] | `z = (r − 1)/(M − 1)`, `|z − z'|` |
//! | ratio-scaled | [`ratio_scaled_log`] | `ln x`, then treat as numeric |
//! | mixed types (Gower) | [`MixedDissimilarity`] | `Σ wᵢδᵢdᵢ / Σ wᵢδᵢ` |
//! | point to hyperplane | [`hyperplane_distance`] | `|wᵀx + b| / ‖w‖` |
//! | pairwise matrices | [`pairwise_distances`], [`pairwise_dot`] | GEMM for (squared) Euclidean and cosine |
//! | time series | [`lp_distance`], [`Dtw`] | `L_p` between equal-length series; dynamic time warping (types 1 and 2) |
//! | distance concentration | [`relative_contrast`], [`simulate_relative_contrast`] | `(D_max − D_min)/D_min` (curse of dimensionality) |
//!
//! [`Metric`] names a metric as a value (serde-derivable) for estimators and the neighbour index
//! ([`crate::neighbors`]).
//!
//! # Conventions (implementation choices, not in the course notes)
//!
//! * **Zero vectors and cosine.** The cosine similarity of a zero vector with anything is `0`
//!   (so the cosine distance is `1`), as in scikit-learn, whose row normalisation leaves zero rows
//!   at zero. scipy returns NaN instead. Choosing a value keeps pairwise matrices finite.
//! * **Jaccard** follows scipy: among coordinates where at least one vector is non-zero, the
//!   fraction where they differ; `0` when both vectors are zero.
//! * **Hamming** is the fraction (not the count) of differing coordinates, as scipy.
//! * Minkowski needs `p ≥ 1` (below 1 it is not a metric).
//! * Free functions check lengths ([`crate::Error::ShapeMismatch`]) but not finiteness: a NaN
//!   input gives a NaN distance (Hamming/Jaccard count it as "different").
//!
//! # Numerics
//!
//! Sums use a fixed 8-lane accumulation order (vectorisable, and identical in every code path,
//! so the neighbour index, brute force and [`Metric::distance`] agree bit for bit). The GEMM
//! path of [`pairwise_distances`] is described there.
//!
//! # References
//!
//! The course notes (catalog C-13, X-02, X-04) cover Minkowski / binary / nominal / ordinal /
//! ratio-scaled / mixed dissimilarities (as in Han, Kamber & Pei, *Data Mining: Concepts and
//! Techniques*, 3rd ed., Morgan Kaufmann (2011), §2.4, and Kaufman & Rousseeuw, *Finding Groups
//! in Data*, Wiley (1990), ch. 1; the Minkowski formula in the course notes drops the inner powers,
//! erratum E5); L_p for sequences and DTW (Sakoe & Chiba, IEEE Trans. ASSP 26(1), 1978);
//! cosine; Mahalanobis (Proc. National Institute of Sciences of India 2(1), 1936); the general
//! mixed form `d = f(Σ wᵢ dᵢ)` and the Gram trick; point to hyperplane (Bishop, *Pattern
//! Recognition and Machine Learning* (2006), §4.1.1); distance concentration (Beyer,
//! Goldstein, Ramakrishnan & Shaft, "When is 'nearest neighbor' meaningful?", ICDT 1999).
//! Gower, J. C. (1971), "A general coefficient of similarity and some of its properties",
//! Biometrics 27.

mod concentration;
mod dtw;
mod hypersphere;
pub(crate) mod kernels;
mod mixed;
mod pairwise;
mod vector;

pub use concentration::{relative_contrast, simulate_relative_contrast};
pub use dtw::{Dtw, DtwKind, DtwResult, LocalCost};
pub use hypersphere::{hypersphere_area, hypersphere_volume, shell_fraction};
pub use mixed::{FeatureKind, MixedDissimilarity};
pub(crate) use pairwise::column_means as pairwise_column_means;
pub use pairwise::{pairwise_distances, pairwise_dot};
pub use vector::{
    chebyshev, cosine_distance, cosine_similarity, euclidean, hamming, hyperplane_distance,
    jaccard, lp_distance, mahalanobis, manhattan, minkowski, nominal_dissimilarity,
    ordinal_dissimilarity, ordinal_to_unit, ratio_scaled_log, simple_matching, sq_euclidean,
};

use ndarray::{Array2, ArrayRef1};

use crate::{Error, Float, Result};
use kernels::{Prepared, contiguous};

/// A distance (or dissimilarity) between two feature vectors, as a value.
///
/// Build it, call [`Metric::validate`] once (estimators and [`crate::neighbors::NeighborIndex`]
/// do), then evaluate with [`Metric::distance`]. Parameters are stored as `f64`.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Metric {
    /// `√Σ (aₖ − bₖ)²` (scikit-learn `"euclidean"`).
    #[default]
    #[cfg_attr(feature = "serde", serde(alias = "l2"))]
    Euclidean,
    /// `Σ (aₖ − bₖ)²` (`"sqeuclidean"`). Not a metric (no triangle inequality), but the trees
    /// support it through the Euclidean geometry.
    #[cfg_attr(feature = "serde", serde(alias = "sqeuclidean"))]
    SqEuclidean,
    /// `Σ |aₖ − bₖ|` (`"manhattan"`, `"cityblock"`).
    #[cfg_attr(feature = "serde", serde(alias = "cityblock", alias = "l1"))]
    Manhattan,
    /// `max |aₖ − bₖ|` (`"chebyshev"`).
    Chebyshev,
    /// `(Σ |aₖ − bₖ|^p)^{1/p}` with `p ≥ 1`; `p = ∞` is Chebyshev (`"minkowski"`).
    Minkowski {
        /// The order `p ≥ 1` (may be `f64::INFINITY`).
        p: f64,
    },
    /// `1 − aᵀb / (‖a‖‖b‖)` (`"cosine"`); a zero vector has similarity 0 (distance 1) with
    /// everything. Not a metric.
    Cosine,
    /// `√((a − b)ᵀ VI (a − b))` (`"mahalanobis"`), `VI` a symmetric positive semi-definite
    /// `d × d` matrix, usually the inverse covariance of the data.
    Mahalanobis {
        /// The inverse covariance `VI` (`d × d`, symmetric PSD).
        vi: Array2<f64>,
    },
    /// Fraction of differing coordinates (`"hamming"`); for categorical codes this is the
    /// course notes' nominal simple matching `(p − m)/p`, for 0/1 data `(FN + FP)/p`.
    Hamming,
    /// scipy's Jaccard dissimilarity (`"jaccard"`), for binary (0/1) data
    /// `(FN + FP) / (TP + FP + FN)`.
    Jaccard,
}

impl Metric {
    /// Checks the parameters: Minkowski `p ≥ 1` (or `∞`); Mahalanobis `VI` square, finite,
    /// symmetric and positive semi-definite.
    pub fn validate(&self) -> Result<()> {
        match self {
            Self::Minkowski { p } => {
                if p.is_nan() || *p < 1.0 {
                    return Err(Error::invalid_param(
                        "p",
                        format!("Minkowski order must be >= 1 (or infinity), got {p}"),
                    ));
                }
                Ok(())
            }
            Self::Mahalanobis { vi } => {
                if vi.nrows() != vi.ncols() || vi.nrows() == 0 {
                    return Err(Error::ShapeMismatch {
                        context: "Metric::Mahalanobis: VI",
                        expected: "a non-empty square d x d matrix".into(),
                        found: format!("{} x {}", vi.nrows(), vi.ncols()),
                    });
                }
                crate::validate::check_finite_2d(vi, "VI")?;
                if !crate::linalg::is_positive_semidefinite(vi, None)? {
                    return Err(Error::invalid_param(
                        "vi",
                        "the Mahalanobis matrix VI must be symmetric positive semi-definite \
                         (e.g. the inverse of a covariance matrix)",
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `true` when the triangle inequality holds (a metric or pseudometric), which the ball tree
    /// needs: every variant except [`Metric::SqEuclidean`] and [`Metric::Cosine`].
    pub fn is_true_metric(&self) -> bool {
        !matches!(self, Self::SqEuclidean | Self::Cosine)
    }

    /// `true` for the Minkowski family (Euclidean, squared Euclidean, Manhattan, Chebyshev,
    /// Minkowski), the metrics the k-d tree supports.
    pub fn is_minkowski_family(&self) -> bool {
        matches!(
            self,
            Self::Euclidean
                | Self::SqEuclidean
                | Self::Manhattan
                | Self::Chebyshev
                | Self::Minkowski { .. }
        )
    }

    /// The scikit-learn / scipy name of the metric.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Euclidean => "euclidean",
            Self::SqEuclidean => "sqeuclidean",
            Self::Manhattan => "manhattan",
            Self::Chebyshev => "chebyshev",
            Self::Minkowski { .. } => "minkowski",
            Self::Cosine => "cosine",
            Self::Mahalanobis { .. } => "mahalanobis",
            Self::Hamming => "hamming",
            Self::Jaccard => "jaccard",
        }
    }

    /// The distance between `a` and `b`.
    ///
    /// The metric must have passed [`Metric::validate`] and `a`, `b` must have the same length
    /// (and, for Mahalanobis, the dimension of `VI`); a length mismatch returns NaN rather than
    /// panicking. Use [`Metric::try_distance`] for checked evaluation.
    pub fn distance<F: Float>(&self, a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> F {
        if a.len() != b.len() {
            return F::nan();
        }
        let (sa, sb) = (contiguous(a), contiguous(b));
        match self {
            Self::Mahalanobis { vi } => {
                if vi.nrows() != a.len() || vi.ncols() != a.len() {
                    return F::nan();
                }
                kernels::mahalanobis_reduced(&sa, &sb, vi).sqrt()
            }
            other => {
                let p = other.prepare::<F>();
                p.finalize(p.rdist(&sa, &sb))
            }
        }
    }

    /// [`Metric::distance`] with the parameters validated and the lengths checked.
    pub fn try_distance<F: Float>(&self, a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
        self.validate()?;
        check_same_len(a.len(), b.len(), "Metric::distance")?;
        self.check_dim(a.len(), "Metric::distance")?;
        Ok(self.distance(a, b))
    }

    /// Errors unless vectors of length `d` fit the metric (Mahalanobis: `VI` is `d × d`).
    pub(crate) fn check_dim(&self, d: usize, context: &'static str) -> Result<()> {
        match self {
            Self::Mahalanobis { vi } if vi.nrows() != d || vi.ncols() != d => {
                Err(Error::ShapeMismatch {
                    context,
                    expected: format!("{d} x {d} Mahalanobis matrix VI (one row per feature)"),
                    found: format!("{} x {}", vi.nrows(), vi.ncols()),
                })
            }
            _ => Ok(()),
        }
    }

    /// The kernel with parameters converted to `F` (Minkowski `p = 1, 2, ∞` mapped to the
    /// specialised kernels).
    pub(crate) fn prepare<F: Float>(&self) -> Prepared<F> {
        match self {
            Self::Euclidean => Prepared::SqEuclid { sqrt_final: true },
            Self::SqEuclidean => Prepared::SqEuclid { sqrt_final: false },
            Self::Manhattan => Prepared::Manhattan,
            Self::Chebyshev => Prepared::Chebyshev,
            Self::Minkowski { p } => {
                let p = *p;
                if p == 1.0 {
                    Prepared::Manhattan
                } else if p == 2.0 {
                    Prepared::SqEuclid { sqrt_final: true }
                } else if p.is_infinite() {
                    Prepared::Chebyshev
                } else {
                    let ip = if p.fract() == 0.0 && p <= 64.0 {
                        Some(p as i32)
                    } else {
                        None
                    };
                    Prepared::Minkowski {
                        p: F::cast(p),
                        ip,
                        inv_p: F::cast(1.0 / p),
                    }
                }
            }
            Self::Cosine => Prepared::Cosine,
            Self::Mahalanobis { vi } => Prepared::Mahalanobis {
                vi: vi.mapv(F::cast),
            },
            Self::Hamming => Prepared::Hamming,
            Self::Jaccard => Prepared::Jaccard,
        }
    }
}

/// Errors unless two lengths agree.
pub(crate) fn check_same_len(a: usize, b: usize, context: &'static str) -> Result<()> {
    if a != b {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("vectors of equal length ({a})"),
            found: format!("length {b}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn metric_dispatch_matches_free_functions() {
        let a = array![1.0, -2.0, 0.5, 4.0];
        let b = array![0.0, 1.0, 0.5, 2.0];
        // Differences (1, -3, 0, 2): L2 = √14, L1 = 6, L∞ = 3, L3 = (1 + 27 + 8)^{1/3} = 36^{1/3}.
        let e = Metric::Euclidean.distance(&a, &b);
        assert!((e - 14f64.sqrt()).abs() < 1e-15);
        assert_eq!(Metric::SqEuclidean.distance(&a, &b), 14.0);
        assert_eq!(Metric::Manhattan.distance(&a, &b), 6.0);
        assert_eq!(Metric::Chebyshev.distance(&a, &b), 3.0);
        let m3 = Metric::Minkowski { p: 3.0 }.distance(&a, &b);
        assert!((m3 - 36f64.powf(1.0 / 3.0)).abs() < 1e-14);
        assert_eq!(Metric::Minkowski { p: 1.0 }.distance(&a, &b), 6.0);
        assert_eq!(Metric::Minkowski { p: 2.0 }.distance(&a, &b), e);
        assert_eq!(Metric::Minkowski { p: f64::INFINITY }.distance(&a, &b), 3.0);
        // Non-integral p goes through powf: (1 + 3^2.5 + 2^2.5)^{1/2.5}.
        let m25 = Metric::Minkowski { p: 2.5 }.distance(&a, &b);
        let want = (1.0 + 3f64.powf(2.5) + 2f64.powf(2.5)).powf(0.4);
        assert!((m25 - want).abs() < 1e-14);
        // Hamming: 3 of 4 coordinates differ.
        assert_eq!(Metric::Hamming.distance(&a, &b), 0.75);
        // Identity VI gives Euclidean.
        let vi = Array2::<f64>::eye(4);
        let m = Metric::Mahalanobis { vi };
        assert!((m.distance(&a, &b) - e).abs() < 1e-15);
        // Strided views work.
        let x = array![[1.0, 0.0], [-2.0, 1.0], [0.5, 0.5], [4.0, 2.0]];
        assert_eq!(Metric::Manhattan.distance(&x.column(0), &x.column(1)), 6.0);
    }

    #[test]
    fn validate_rejects_bad_parameters() {
        assert!(matches!(
            Metric::Minkowski { p: 0.5 }.validate(),
            Err(Error::InvalidParam { name: "p", .. })
        ));
        assert!(Metric::Minkowski { p: f64::NAN }.validate().is_err());
        assert!(Metric::Minkowski { p: f64::INFINITY }.validate().is_ok());
        let not_square = Metric::Mahalanobis {
            vi: Array2::zeros((2, 3)),
        };
        assert!(matches!(
            not_square.validate(),
            Err(Error::ShapeMismatch { .. })
        ));
        let indefinite = Metric::Mahalanobis {
            vi: array![[1.0, 0.0], [0.0, -1.0]],
        };
        assert!(matches!(
            indefinite.validate(),
            Err(Error::InvalidParam { name: "vi", .. })
        ));
        let asym = Metric::Mahalanobis {
            vi: array![[1.0, 0.5], [0.0, 1.0]],
        };
        assert!(asym.validate().is_err());
        let nan = Metric::Mahalanobis {
            vi: array![[1.0, f64::NAN], [f64::NAN, 1.0]],
        };
        assert!(matches!(nan.validate(), Err(Error::NonFinite { .. })));
        // PSD but singular is fine (a pseudometric).
        let psd = Metric::Mahalanobis {
            vi: array![[1.0, 1.0], [1.0, 1.0]],
        };
        assert!(psd.validate().is_ok());
    }

    #[test]
    fn length_mismatch_is_nan_or_error() {
        let a = array![1.0f64, 2.0];
        let b = array![1.0, 2.0, 3.0];
        assert!(Metric::Euclidean.distance(&a, &b).is_nan());
        assert!(matches!(
            Metric::Euclidean.try_distance(&a, &b),
            Err(Error::ShapeMismatch { .. })
        ));
        let m = Metric::Mahalanobis { vi: Array2::eye(3) };
        assert!(m.distance(&a, &a).is_nan());
        assert!(matches!(
            m.try_distance(&a, &a),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(Metric::Minkowski { p: 0.1 }.try_distance(&a, &a).is_err());
    }

    #[test]
    fn properties_of_the_enum() {
        assert!(Metric::Euclidean.is_true_metric());
        assert!(!Metric::SqEuclidean.is_true_metric());
        assert!(!Metric::Cosine.is_true_metric());
        assert!(Metric::Jaccard.is_true_metric());
        assert!(Metric::Minkowski { p: 3.0 }.is_minkowski_family());
        assert!(!Metric::Hamming.is_minkowski_family());
        assert_eq!(Metric::default(), Metric::Euclidean);
        assert_eq!(Metric::Cosine.name(), "cosine");
        let f32_d = Metric::Euclidean.distance(&array![0.0f32, 0.0], &array![3.0f32, 4.0]);
        assert_eq!(f32_d, 5.0f32);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip() {
        for m in [
            Metric::Minkowski { p: 3.0 },
            Metric::Mahalanobis { vi: Array2::eye(2) },
            Metric::Jaccard,
        ] {
            let s = serde_json::to_string(&m).expect("serialise");
            let back: Metric = serde_json::from_str(&s).expect("deserialise");
            assert_eq!(back, m);
        }
    }
}
