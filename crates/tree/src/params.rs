//! Hyperparameter types shared by the trees and forests: split criteria, the splitter, and
//! scikit-learn's "count or fraction" parameters (`max_features`, `min_samples_split`,
//! `min_samples_leaf`, `max_samples`).
//!
//! In JSON (model files, `key=value` on the command line) they are written as scikit-learn
//! writes them: `max_features` is `null`, `"sqrt"`, `"log2"`, an integer or a float;
//! `min_samples_leaf` an integer (a count) or a float (a fraction of the rows).

use ndlearn_core::{Error, Result};

/// Impurity criterion of a classification tree (scikit-learn's `criterion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ClassCriterion {
    /// Gini impurity `1 − Σ_c p_c²` (default).
    #[default]
    Gini,
    /// Shannon entropy `−Σ_c p_c log₂ p_c` in bits; the split maximises the information gain
    /// (scikit-learn's `"entropy"` and `"log_loss"`).
    #[cfg_attr(feature = "serde", serde(alias = "log_loss"))]
    Entropy,
    /// Misclassification error `1 − max_c p_c` (not in scikit-learn).
    Misclassification,
    /// C4.5's gain ratio: information gain divided by the split information
    /// `−Σ_{s∈{L,R}} (w_s/w) log₂(w_s/w)`; node impurity is the entropy (not in scikit-learn).
    GainRatio,
}

/// Impurity criterion of a regression tree (scikit-learn's `criterion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RegCriterion {
    /// Weighted variance (mean squared error around the node mean); leaves predict the mean
    /// (default).
    #[default]
    SquaredError,
    /// Squared error with Friedman's improvement score `w_L w_R (ȳ_L − ȳ_R)² / (w_L + w_R)`.
    FriedmanMse,
    /// Mean absolute deviation around the weighted median; leaves predict the median.
    AbsoluteError,
    /// Half Poisson deviance `(1/w) Σ wᵢ yᵢ ln(yᵢ/ȳ)`; needs `y ≥ 0` with a positive sum.
    Poisson,
}

/// How a node chooses its threshold (scikit-learn's `splitter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SplitterKind {
    /// The best threshold of every candidate feature (exact sorted sweep; default).
    #[default]
    Best,
    /// One uniformly drawn threshold between the node's minimum and maximum per candidate
    /// feature (extremely randomised trees).
    Random,
}

/// The number of features examined at each split (scikit-learn's `max_features`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum MaxFeatures {
    /// Every feature (`None`).
    #[default]
    All,
    /// `max(1, ⌊√d⌋)` (`"sqrt"`).
    Sqrt,
    /// `max(1, ⌊log₂ d⌋)` (`"log2"`).
    Log2,
    /// Exactly this many (`1 ≤ k ≤ d`).
    Count(usize),
    /// `max(1, ⌊f·d⌋)` for `f ∈ (0, 1]`.
    Fraction(f64),
}

impl MaxFeatures {
    /// Checks the value (independently of the data).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a zero count or a fraction outside `(0, 1]`.
    pub fn validate(&self) -> Result<()> {
        match *self {
            MaxFeatures::Count(0) => Err(Error::invalid_param(
                "max_features",
                "a count must be at least 1",
            )),
            MaxFeatures::Fraction(f) if !(f > 0.0 && f <= 1.0) => Err(Error::invalid_param(
                "max_features",
                format!("a fraction must be in (0, 1]; got {f}"),
            )),
            _ => Ok(()),
        }
    }

    /// The number of features for `d` input features.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a count above `d`.
    pub fn resolve(&self, d: usize) -> Result<usize> {
        self.validate()?;
        let k = match *self {
            MaxFeatures::All => d,
            MaxFeatures::Sqrt => ((d as f64).sqrt() as usize).max(1),
            MaxFeatures::Log2 => ((d as f64).log2() as usize).max(1),
            MaxFeatures::Count(k) => {
                if k > d {
                    return Err(Error::invalid_param(
                        "max_features",
                        format!("{k} features requested but X has {d}"),
                    ));
                }
                k
            }
            MaxFeatures::Fraction(f) => ((f * d as f64) as usize).max(1),
        };
        Ok(k.min(d).max(1))
    }
}

/// A number of rows given as a count or as a fraction of the training rows
/// (scikit-learn's `min_samples_split`, `min_samples_leaf`, `max_samples`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum SampleCount {
    /// This many rows.
    Count(usize),
    /// This fraction of the rows, rounded up (`⌈f·n⌉`) for the stopping rules.
    Fraction(f64),
}

impl SampleCount {
    /// Checks a count against its minimum and a fraction against `(0, max_fraction]`
    /// (`closed`) or `(0, max_fraction)`.
    pub(crate) fn validate(
        &self,
        name: &'static str,
        min_count: usize,
        max_fraction: f64,
        closed: bool,
    ) -> Result<()> {
        match *self {
            SampleCount::Count(k) if k < min_count => Err(Error::invalid_param(
                name,
                format!("a count must be at least {min_count}; got {k}"),
            )),
            SampleCount::Fraction(f)
                if !(f > 0.0 && (f < max_fraction || (closed && f == max_fraction))) =>
            {
                Err(Error::invalid_param(
                    name,
                    format!(
                        "a fraction must be in (0, {max_fraction}{}; got {f}",
                        if closed { "]" } else { ")" }
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// `⌈f·n⌉` for a fraction, the count itself otherwise.
    pub(crate) fn ceil_of(&self, n: usize) -> usize {
        match *self {
            SampleCount::Count(k) => k,
            SampleCount::Fraction(f) => (f * n as f64).ceil() as usize,
        }
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::{MaxFeatures, SampleCount};
    use serde::de::Error as _;
    use serde_json::Value;

    impl serde::Serialize for MaxFeatures {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            match *self {
                MaxFeatures::All => s.serialize_none(),
                MaxFeatures::Sqrt => s.serialize_str("sqrt"),
                MaxFeatures::Log2 => s.serialize_str("log2"),
                MaxFeatures::Count(k) => s.serialize_u64(k as u64),
                MaxFeatures::Fraction(f) => s.serialize_f64(f),
            }
        }
    }

    impl<'de> serde::Deserialize<'de> for MaxFeatures {
        /// Accepts `null` / `"all"` / `"none"`, `"sqrt"`, `"log2"`, an integer count or a
        /// float fraction (as scikit-learn: `1.0` is the fraction "all").
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let v = Value::deserialize(d)?;
            match &v {
                Value::Null => Ok(MaxFeatures::All),
                Value::String(s) => match s.to_ascii_lowercase().as_str() {
                    "all" | "none" => Ok(MaxFeatures::All),
                    "sqrt" | "auto" => Ok(MaxFeatures::Sqrt),
                    "log2" => Ok(MaxFeatures::Log2),
                    other => Err(D::Error::custom(format!(
                        "max_features: expected null, \"sqrt\", \"log2\", a count or a fraction; got \"{other}\""
                    ))),
                },
                Value::Number(n) => {
                    if let Some(k) = n.as_u64() {
                        Ok(MaxFeatures::Count(k as usize))
                    } else if let Some(f) = n.as_f64() {
                        Ok(MaxFeatures::Fraction(f))
                    } else {
                        Err(D::Error::custom("max_features: invalid number"))
                    }
                }
                _ => Err(D::Error::custom(
                    "max_features: expected null, \"sqrt\", \"log2\", a count or a fraction",
                )),
            }
        }
    }

    impl serde::Serialize for SampleCount {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            match *self {
                SampleCount::Count(k) => s.serialize_u64(k as u64),
                SampleCount::Fraction(f) => s.serialize_f64(f),
            }
        }
    }

    impl<'de> serde::Deserialize<'de> for SampleCount {
        /// Accepts an integer (a count) or a float (a fraction).
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let v = Value::deserialize(d)?;
            match &v {
                Value::Number(n) => {
                    if let Some(k) = n.as_u64() {
                        Ok(SampleCount::Count(k as usize))
                    } else if let Some(f) = n.as_f64() {
                        Ok(SampleCount::Fraction(f))
                    } else {
                        Err(D::Error::custom("expected a count or a fraction"))
                    }
                }
                _ => Err(D::Error::custom(
                    "expected an integer count or a float fraction",
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_features_resolves_like_scikit_learn() {
        assert_eq!(MaxFeatures::All.resolve(30).ok(), Some(30));
        assert_eq!(MaxFeatures::Sqrt.resolve(30).ok(), Some(5));
        assert_eq!(MaxFeatures::Log2.resolve(30).ok(), Some(4));
        assert_eq!(MaxFeatures::Log2.resolve(1).ok(), Some(1));
        assert_eq!(MaxFeatures::Fraction(0.5).resolve(7).ok(), Some(3));
        assert_eq!(MaxFeatures::Fraction(0.01).resolve(7).ok(), Some(1));
        assert_eq!(MaxFeatures::Count(7).resolve(7).ok(), Some(7));
        assert!(MaxFeatures::Count(8).resolve(7).is_err());
        assert!(MaxFeatures::Count(0).validate().is_err());
        assert!(MaxFeatures::Fraction(1.5).validate().is_err());
        assert!(MaxFeatures::Fraction(f64::NAN).validate().is_err());
    }

    #[test]
    fn sample_counts() {
        assert_eq!(SampleCount::Fraction(0.1).ceil_of(25), 3);
        assert!(SampleCount::Count(1).validate("x", 2, 1.0, true).is_err());
        assert!(
            SampleCount::Fraction(1.0)
                .validate("x", 2, 1.0, true)
                .is_ok()
        );
        assert!(
            SampleCount::Fraction(1.0)
                .validate("x", 1, 1.0, false)
                .is_err()
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_forms() {
        let m: MaxFeatures = serde_json::from_str("\"sqrt\"").expect("sqrt");
        assert_eq!(m, MaxFeatures::Sqrt);
        let m: MaxFeatures = serde_json::from_str("null").expect("null");
        assert_eq!(m, MaxFeatures::All);
        let m: MaxFeatures = serde_json::from_str("3").expect("3");
        assert_eq!(m, MaxFeatures::Count(3));
        let m: MaxFeatures = serde_json::from_str("0.5").expect("0.5");
        assert_eq!(m, MaxFeatures::Fraction(0.5));
        let s: SampleCount = serde_json::from_str("0.25").expect("0.25");
        assert_eq!(s, SampleCount::Fraction(0.25));
        assert_eq!(
            serde_json::to_string(&SampleCount::Count(4)).expect("json"),
            "4"
        );
        let c: ClassCriterion = serde_json::from_str("\"log_loss\"").expect("alias");
        assert_eq!(c, ClassCriterion::Entropy);
    }
}
