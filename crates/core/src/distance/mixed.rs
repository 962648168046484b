//! Mixed-type (Gower-style) weighted dissimilarity.
//!
//! The course notes combine per-variable dissimilarities of mixed types by a weighted average
//! (as Han, Kamber & Pei, *Data Mining: Concepts and Techniques*, 3rd ed. (2011), §2.4) and
//! write the general form `d(x, x') = f(Σᵢ wᵢ dᵢ(xᵢ, x'ᵢ))`. This is Gower's coefficient (Gower,
//! "A general coefficient of similarity and some of its properties", Biometrics 27, 1971):
//!
//! ```text
//! d(x, x') = Σᵢ wᵢ δᵢ dᵢ(xᵢ, x'ᵢ) / Σᵢ wᵢ δᵢ
//! ```
//!
//! with per-feature dissimilarities in `[0, 1]`:
//!
//! | kind | `dᵢ` |
//! |---|---|
//! | `Numeric { range }` | `|xᵢ − x'ᵢ| / range` (range-normalised) |
//! | `Nominal` | `0` if equal codes, else `1` (simple matching) |
//! | `Ordinal { levels: M }` | ranks `r ∈ {1..M}`: `|r − r'| / (M − 1)` |
//! | `Binary { asymmetric }` | `0` if equal, else `1`; values must be 0 or 1 |
//!
//! and `δᵢ = 0` (the feature is left out of numerator **and** denominator) when either value
//! is missing (NaN) or, for an asymmetric binary feature, when both values are 0 (a negative
//! match carries no information, as in Jaccard). Otherwise `δᵢ = 1`.
//!
//! Implementation choices (the course notes give only the weighted average): the range normalisation
//! of numeric features, the missing-value rule and the asymmetric-binary rule follow Gower
//! (1971). When no feature is comparable (`Σ wᵢδᵢ = 0`) the dissimilarity is undefined and an
//! error is returned. Cost `O(p)` per pair.

use ndarray::{Array2, ArrayRef1, ArrayRef2, Axis};

use crate::{Error, Float, Result};

/// Type of one feature for [`MixedDissimilarity`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FeatureKind {
    /// Interval-scaled value; the difference is divided by `range` (> 0), usually
    /// `max − min` over the data (see [`MixedDissimilarity::fit_ranges`]).
    Numeric {
        /// Normalising range (`> 0`).
        range: f64,
    },
    /// Category code; any two different codes are at dissimilarity 1.
    Nominal,
    /// Rank `r ∈ {1, …, levels}` (stored as a float holding an integer).
    Ordinal {
        /// Number of ordered levels `M ≥ 1`.
        levels: usize,
    },
    /// 0/1 value; `asymmetric = true` ignores features where both values are 0.
    Binary {
        /// Whether a 0–0 match is ignored (asymmetric binary variable).
        asymmetric: bool,
    },
}

/// Gower-style weighted dissimilarity of mixed-type feature vectors (see the module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MixedDissimilarity {
    /// The type of each feature (one per column).
    pub kinds: Vec<FeatureKind>,
    /// Non-negative weight of each feature (same length as `kinds`).
    pub weights: Vec<f64>,
}

impl MixedDissimilarity {
    /// Unit weights for the given feature kinds.
    pub fn new(kinds: Vec<FeatureKind>) -> Self {
        let weights = vec![1.0; kinds.len()];
        Self { kinds, weights }
    }

    crate::setters! {
        /// Sets the feature weights.
        weights: Vec<f64>,
    }

    /// Sets the `range` of every numeric feature to `max − min` of its column in `x` (NaN
    /// ignored). A constant (or all-missing) column gets range 1, so its differences stay 0.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] if `x` does not have one column per feature.
    pub fn fit_ranges<F: Float>(mut self, x: &ArrayRef2<F>) -> Result<Self> {
        check_len(
            x.ncols(),
            self.kinds.len(),
            "MixedDissimilarity::fit_ranges",
        )?;
        for (j, kind) in self.kinds.iter_mut().enumerate() {
            if let FeatureKind::Numeric { range } = kind {
                let col = x.index_axis(Axis(1), j);
                let (lo, hi) = col.iter().filter(|v| !v.is_nan()).fold(
                    (f64::INFINITY, f64::NEG_INFINITY),
                    |(lo, hi), v| {
                        let v = v.to_f64_lossless();
                        (lo.min(v), hi.max(v))
                    },
                );
                let r = hi - lo;
                *range = if r.is_finite() && r > 0.0 { r } else { 1.0 };
            }
        }
        Ok(self)
    }

    /// Checks kinds and weights: equal lengths, at least one feature, ranges finite and `> 0`,
    /// `levels ≥ 1`, weights finite and `≥ 0` with a positive sum.
    pub fn validate(&self) -> Result<()> {
        if self.kinds.is_empty() {
            return Err(Error::invalid_param(
                "kinds",
                "at least one feature is needed",
            ));
        }
        check_len(
            self.weights.len(),
            self.kinds.len(),
            "MixedDissimilarity: weights",
        )?;
        for kind in &self.kinds {
            match kind {
                FeatureKind::Numeric { range } if !(range.is_finite() && *range > 0.0) => {
                    return Err(Error::invalid_param(
                        "range",
                        format!("numeric feature ranges must be finite and > 0, got {range}"),
                    ));
                }
                FeatureKind::Ordinal { levels: 0 } => {
                    return Err(Error::invalid_param(
                        "levels",
                        "ordinal features need >= 1 level",
                    ));
                }
                _ => {}
            }
        }
        if self.weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(Error::invalid_param(
                "weights",
                "weights must be finite and >= 0",
            ));
        }
        if self.weights.iter().sum::<f64>() <= 0.0 {
            return Err(Error::invalid_param(
                "weights",
                "at least one weight must be > 0",
            ));
        }
        Ok(())
    }

    /// The dissimilarity of two rows, in `[0, 1]`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] on lengths other than the number of features; the errors of
    /// [`Self::validate`]; [`Error::InvalidParam`] for an ordinal value that is not a rank in
    /// `1..=levels`, a binary value other than 0/1, an infinite value, or when no feature is
    /// comparable (all missing or asymmetric 0–0).
    pub fn distance<F: Float>(&self, a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
        self.validate()?;
        check_len(a.len(), self.kinds.len(), "MixedDissimilarity::distance: a")?;
        check_len(b.len(), self.kinds.len(), "MixedDissimilarity::distance: b")?;
        self.distance_unchecked(a, b)
    }

    fn distance_unchecked<F: Float>(&self, a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
        let mut num = 0.0f64;
        let mut den = 0.0f64;
        for (((kind, &w), &x), &y) in self.kinds.iter().zip(&self.weights).zip(a).zip(b) {
            if x.is_nan() || y.is_nan() {
                continue;
            }
            let (x, y) = (x.to_f64_lossless(), y.to_f64_lossless());
            if x.is_infinite() || y.is_infinite() {
                return Err(Error::invalid_param("x", "infinite feature value"));
            }
            let d = match *kind {
                FeatureKind::Numeric { range } => ((x - y).abs() / range).min(1.0),
                FeatureKind::Nominal => f64::from(u8::from(x != y)),
                FeatureKind::Ordinal { levels } => {
                    let (rx, ry) = (rank(x, levels)?, rank(y, levels)?);
                    super::ordinal_dissimilarity(rx, ry, levels)?
                }
                FeatureKind::Binary { asymmetric } => {
                    for v in [x, y] {
                        if v != 0.0 && v != 1.0 {
                            return Err(Error::invalid_param(
                                "x",
                                format!("binary features take the values 0 and 1, got {v}"),
                            ));
                        }
                    }
                    if asymmetric && x == 0.0 && y == 0.0 {
                        continue;
                    }
                    f64::from(u8::from(x != y))
                }
            };
            num += w * d;
            den += w;
        }
        if den <= 0.0 {
            return Err(Error::invalid_param(
                "x",
                "no feature is observed (non-NaN) in both rows with a positive weight, so the \
                 mixed dissimilarity is undefined",
            ));
        }
        Ok(F::cast(num / den))
    }

    /// Matrix `D[i, j] = d(xᵢ, yⱼ)` (rows in parallel, fixed chunks).
    pub fn pairwise<F: Float>(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.validate()?;
        check_len(
            x.ncols(),
            self.kinds.len(),
            "MixedDissimilarity::pairwise: x columns",
        )?;
        check_len(
            y.ncols(),
            self.kinds.len(),
            "MixedDissimilarity::pairwise: y columns",
        )?;
        let m = y.nrows();
        let rows = crate::par::map_row_chunks(x, 64, |_, xc| {
            let mut out = Vec::with_capacity(xc.nrows() * m);
            for a in xc.rows() {
                for b in y.rows() {
                    out.push(self.distance_unchecked(&a, &b)?);
                }
            }
            Ok::<_, Error>(out)
        });
        let mut data = Vec::with_capacity(x.nrows() * m);
        for r in rows {
            data.extend(r?);
        }
        Array2::from_shape_vec((x.nrows(), m), data).map_err(|e| Error::ShapeMismatch {
            context: "MixedDissimilarity::pairwise",
            expected: format!("{} x {m}", x.nrows()),
            found: e.to_string(),
        })
    }
}

fn rank(v: f64, levels: usize) -> Result<usize> {
    if v.fract() != 0.0 || v < 1.0 || v > levels as f64 {
        return Err(Error::invalid_param(
            "x",
            format!("ordinal features hold ranks 1..={levels}, got {v}"),
        ));
    }
    Ok(v as usize)
}

fn check_len(found: usize, expected: usize, context: &'static str) -> Result<()> {
    if found != expected {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("{expected} (one per feature kind)"),
            found: format!("{found}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn example() -> MixedDissimilarity {
        MixedDissimilarity::new(vec![
            FeatureKind::Numeric { range: 10.0 },
            FeatureKind::Nominal,
            FeatureKind::Ordinal { levels: 3 },
            FeatureKind::Binary { asymmetric: true },
        ])
    }

    #[test]
    fn hand_computed_gower() {
        let m = example();
        let a = array![2.0f64, 1.0, 1.0, 1.0];
        let b = array![6.0, 2.0, 3.0, 0.0];
        // d = (4/10 + 1 + 2/2 + 1) / 4 = 3.4 / 4 = 0.85.
        assert!((m.distance(&a, &b).expect("ok") - 0.85).abs() < 1e-15);
        // Asymmetric binary 0–0 and a NaN numeric are skipped: only nominal (0) and ordinal
        // (|1 − 2|/2) remain ⇒ 0.5 / 2 = 0.25.
        let c = array![f64::NAN, 1.0, 1.0, 0.0];
        let d = array![3.0, 1.0, 2.0, 0.0];
        assert!((m.distance(&c, &d).expect("ok") - 0.25).abs() < 1e-15);
        // Weights: (3·0.4 + 1 + 1 + 1)/6 = 4.2/6 = 0.7.
        let w = example().weights(vec![3.0, 1.0, 1.0, 1.0]);
        assert!((w.distance(&a, &b).expect("ok") - 0.7).abs() < 1e-15);
        // Symmetric binary counts 0–0 as a match: (0 + 0 + 0 + 0)/4.
        let s = MixedDissimilarity::new(vec![FeatureKind::Binary { asymmetric: false }]);
        assert_eq!(s.distance(&array![0.0], &array![0.0]).expect("ok"), 0.0);
    }

    #[test]
    fn errors_and_validation() {
        let m = example();
        let a = array![2.0, 1.0, 1.0, 1.0];
        assert!(matches!(
            m.distance(&a, &array![1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(m.distance(&a, &array![2.0, 1.0, 4.0, 1.0]).is_err()); // rank 4 > 3
        assert!(m.distance(&a, &array![2.0, 1.0, 1.5, 1.0]).is_err()); // non-integral rank
        assert!(m.distance(&a, &array![2.0, 1.0, 1.0, 2.0]).is_err()); // binary 2
        let nan = ndarray::Array1::from_elem(4, f64::NAN);
        assert!(m.distance(&nan, &a).is_err()); // nothing comparable
        assert!(example().weights(vec![1.0]).validate().is_err());
        assert!(example().weights(vec![0.0; 4]).validate().is_err());
        assert!(
            example()
                .weights(vec![-1.0, 1.0, 1.0, 1.0])
                .validate()
                .is_err()
        );
        assert!(MixedDissimilarity::new(vec![]).validate().is_err());
        assert!(
            MixedDissimilarity::new(vec![FeatureKind::Numeric { range: 0.0 }])
                .validate()
                .is_err()
        );
        assert!(
            MixedDissimilarity::new(vec![FeatureKind::Ordinal { levels: 0 }])
                .validate()
                .is_err()
        );
    }

    #[test]
    fn ranges_from_data_and_pairwise() {
        let x = array![[1.0, 0.0], [5.0, 1.0], [f64::NAN, 0.0], [3.0, 2.0]];
        let m = MixedDissimilarity::new(vec![
            FeatureKind::Numeric { range: 1.0 },
            FeatureKind::Nominal,
        ])
        .fit_ranges(&x)
        .expect("shape ok");
        assert_eq!(m.kinds[0], FeatureKind::Numeric { range: 4.0 });
        let d = m.pairwise(&x, &x).expect("ok");
        // Rows 0 and 1: (4/4 + 1)/2 = 1; rows 0 and 2: only the nominal feature, equal ⇒ 0.
        assert_eq!(d[[0, 1]], 1.0);
        assert_eq!(d[[0, 2]], 0.0);
        assert_eq!(d[[1, 3]], (0.5 + 1.0) / 2.0);
        for i in 0..4 {
            assert_eq!(d[[i, i]], 0.0);
        }
        assert!(m.fit_ranges(&array![[1.0]]).is_err());
    }
}
