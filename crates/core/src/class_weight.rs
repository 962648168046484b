//! Class weights and per-sample weights for imbalanced classes: the one [`ClassWeight`] every
//! classifier of the workspace takes (scikit-learn's `class_weight`), and scikit-learn's
//! `compute_class_weight` / `compute_sample_weight`.
//!
//! | value | scikit-learn | weight of class `c` |
//! |---|---|---|
//! | [`ClassWeight::Uniform`] | `None` | 1 |
//! | [`ClassWeight::Balanced`] | `"balanced"` | `Σᵢ sᵢ / (K · Σ_{i: yᵢ = c} sᵢ)` (sample weights `sᵢ` where the estimator passes them) |
//! | [`ClassWeight::BalancedSubsample`] | `"balanced_subsample"` (forests) | balanced, on each tree's bootstrap sample |
//! | [`ClassWeight::Explicit`] | `{c: w}` | `w`, or 1 for classes not in the map |
//!
//! In JSON (model files, `--param class_weight=...`): `null` (uniform), `"balanced"`,
//! `"balanced_subsample"`, an object `{"0": 1.0, "2": 5.0}` or a list `[1.0, 5.0]` (one weight per
//! class).
//!
//! # References
//!
//! G. King, L. Zeng, "Logistic regression in rare events data", Political Analysis 9, 2001 (the
//! balanced weights); scikit-learn's `sklearn.utils.class_weight`.

use std::collections::BTreeMap;

use ndarray::{Array1, ArrayRef1};

use crate::{Error, Float, Result};

/// How to weight classes (scikit-learn's `class_weight`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum ClassWeight {
    /// Every class weight 1 (scikit-learn's `None`).
    #[default]
    Uniform,
    /// `w_c = n / (n_classes · n_c)`: every class gets the same total weight (`"balanced"`).
    Balanced,
    /// Balanced weights computed on each bootstrap sample (random forests only).
    BalancedSubsample,
    /// Explicit weights per class; classes not in the map get weight 1.
    Explicit(BTreeMap<usize, f64>),
}

impl ClassWeight {
    /// Explicit weights `w[c]` for the classes `0..w.len()`.
    pub fn per_class(w: &[f64]) -> Self {
        ClassWeight::Explicit(w.iter().copied().enumerate().collect())
    }

    /// Checks explicit weights: finite and `≥ 0`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming `class_weight`.
    pub fn validate(&self) -> Result<()> {
        if let ClassWeight::Explicit(map) = self
            && let Some((&c, &w)) = map.iter().find(|(_, w)| !(w.is_finite() && **w >= 0.0))
        {
            return Err(Error::invalid_param(
                "class_weight",
                format!("weights must be finite and >= 0; class {c} has {w}"),
            ));
        }
        Ok(())
    }

    /// Checks the weights and rejects `BalancedSubsample`, which only forests accept.
    ///
    /// # Errors
    /// [`Error::InvalidParam`].
    pub fn validate_not_subsample(&self) -> Result<()> {
        if *self == ClassWeight::BalancedSubsample {
            return Err(Error::invalid_param(
                "class_weight",
                "\"balanced_subsample\" is for forests (balanced on each bootstrap sample); use \"balanced\"",
            ));
        }
        self.validate()
    }

    /// The weight of every class `0..n_classes` for labels `y` (and, for `Balanced`, sample
    /// weights `sample_weight`): [`compute_class_weight`] with the classes `0..n_classes`.
    /// `BalancedSubsample` counts as `Balanced` here.
    ///
    /// # Errors
    /// As [`compute_class_weight`].
    pub fn for_classes(
        &self,
        y: &ArrayRef1<usize>,
        n_classes: usize,
        sample_weight: Option<&ArrayRef1<f64>>,
    ) -> Result<Vec<f64>> {
        let classes: Vec<usize> = (0..n_classes).collect();
        Ok(compute_class_weight(self, &classes, y, sample_weight)?.to_vec())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ClassWeight {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            ClassWeight::Uniform => s.serialize_none(),
            ClassWeight::Balanced => s.serialize_str("balanced"),
            ClassWeight::BalancedSubsample => s.serialize_str("balanced_subsample"),
            ClassWeight::Explicit(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    m.serialize_entry(&k.to_string(), v)?;
                }
                m.end()
            }
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ClassWeight {
    /// Accepts `null`, `"none"`, `"uniform"`, `"balanced"`, `"balanced_subsample"`, a map of
    /// class → weight, a list of weights, and the older forms `{"custom": [..]}`,
    /// `{"explicit": {..}}` (any case).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        let v = serde_json::Value::deserialize(d)?;
        from_json(&v).map_err(D::Error::custom)
    }
}

#[cfg(feature = "serde")]
fn from_json(v: &serde_json::Value) -> std::result::Result<ClassWeight, String> {
    use serde_json::Value;
    const EXPECTED: &str = "expected null, \"balanced\", \"balanced_subsample\", a map {\"class\": weight} or a list of weights";
    let weight = |w: &Value| {
        w.as_f64()
            .ok_or_else(|| format!("class weight {w} is not a number"))
    };
    match v {
        Value::Null => Ok(ClassWeight::Uniform),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "none" | "uniform" => Ok(ClassWeight::Uniform),
            "balanced" => Ok(ClassWeight::Balanced),
            "balanced_subsample" | "balancedsubsample" => Ok(ClassWeight::BalancedSubsample),
            other => Err(format!("unknown class weight `{other}`, {EXPECTED}")),
        },
        Value::Array(a) => Ok(ClassWeight::Explicit(
            a.iter()
                .enumerate()
                .map(|(c, w)| Ok((c, weight(w)?)))
                .collect::<std::result::Result<_, String>>()?,
        )),
        Value::Object(o) => {
            if o.len() == 1
                && let Some((key, inner)) = o.iter().next()
                && matches!(key.to_ascii_lowercase().as_str(), "custom" | "explicit")
            {
                return from_json(inner);
            }
            Ok(ClassWeight::Explicit(
                o.iter()
                    .map(|(k, w)| {
                        let c: usize = k
                            .trim()
                            .parse()
                            .map_err(|_| format!("class `{k}` is not a class index"))?;
                        Ok((c, weight(w)?))
                    })
                    .collect::<std::result::Result<_, String>>()?,
            ))
        }
        other => Err(format!("invalid class weight {other}, {EXPECTED}")),
    }
}

/// The weight of each class in `classes` (scikit-learn's `compute_class_weight`).
///
/// * `Uniform`: all ones.
/// * `Balanced`: `w_c = Σᵢ sᵢ / (K · Σ_{i: yᵢ = c} sᵢ)` with `K` the number of distinct labels
///   and `sᵢ` the sample weights (all 1 by default, giving `n / (K · n_c)`). Every class of
///   `classes` must occur in `y` (with positive total weight).
/// * `Explicit(map)`: `map[c]`, or 1 for classes not in the map. Keys that are not in `classes`
///   are an error when some class is missing from the map (scikit-learn's rule).
///
/// Every label of `y` must be in `classes`; `classes` must be distinct.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::class_weight::{ClassWeight, compute_class_weight};
///
/// // 6 samples, 2 classes: class 0 has 4 (weight 6 / (2·4) = 0.75), class 1 has 2 (1.5).
/// let y = array![0usize, 0, 1, 0, 1, 0];
/// let w = compute_class_weight(&ClassWeight::Balanced, &[0, 1], &y, None)?;
/// assert_eq!(w.to_vec(), vec![0.75, 1.5]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// A label of `y` not in `classes`, duplicate classes, a class absent from `y` (balanced),
/// non-finite or negative explicit weights, invalid sample weights.
pub fn compute_class_weight(
    class_weight: &ClassWeight,
    classes: &[usize],
    y: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<Array1<f64>> {
    let mut sorted = classes.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid_param("classes", "classes must be distinct"));
    }
    let position = |c: usize| sorted.binary_search(&c).ok();
    if let Some((index, &label)) = y.iter().enumerate().find(|(_, v)| position(**v).is_none()) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: format!("classes {classes:?} must include every label of y"),
        });
    }
    match class_weight {
        ClassWeight::Uniform => Ok(Array1::ones(classes.len())),
        ClassWeight::Balanced | ClassWeight::BalancedSubsample => {
            crate::validate::check_min_samples(y.len(), 1, "compute_class_weight")?;
            let mut totals = vec![0.0f64; sorted.len()];
            match sample_weight {
                Some(w) => {
                    crate::validate::check_sample_weight(w, y.len())?;
                    for (&v, &wi) in y.iter().zip(w) {
                        if let Some(p) = position(v) {
                            totals[p] += wi;
                        }
                    }
                }
                None => {
                    for &v in y {
                        if let Some(p) = position(v) {
                            totals[p] += 1.0;
                        }
                    }
                }
            }
            if let Some(p) = totals.iter().position(|&t| t <= 0.0) {
                return Err(Error::invalid_param(
                    "classes",
                    format!(
                        "class {} does not occur in y (or has zero total weight); balanced weights need every class",
                        sorted[p]
                    ),
                ));
            }
            let sum: f64 = totals.iter().sum();
            let k = sorted.len() as f64;
            Ok(classes
                .iter()
                .map(|&c| {
                    let t = position(c).map_or(1.0, |p| totals[p]);
                    sum / (k * t)
                })
                .collect())
        }
        ClassWeight::Explicit(map) => {
            if let Some((&c, &w)) = map.iter().find(|(_, w)| !(w.is_finite() && **w >= 0.0)) {
                return Err(Error::invalid_param(
                    "class_weight",
                    format!("weights must be finite and >= 0; class {c} has {w}"),
                ));
            }
            let unweighted: Vec<usize> = classes
                .iter()
                .copied()
                .filter(|c| !map.contains_key(c))
                .collect();
            let n_weighted = classes.len() - unweighted.len();
            if !unweighted.is_empty() && n_weighted != map.len() {
                return Err(Error::invalid_param(
                    "class_weight",
                    format!(
                        "the map names classes that are not in `classes` while classes {unweighted:?} have no weight; fix the keys"
                    ),
                ));
            }
            Ok(classes
                .iter()
                .map(|c| map.get(c).copied().unwrap_or(1.0))
                .collect())
        }
    }
}

/// One weight per sample, `w[i] = class_weight(y[i])` (scikit-learn's `compute_sample_weight`
/// for one output).
///
/// The classes are the distinct labels of `y`. With `indices` (a bootstrap or subsample, as in
/// a random forest with `class_weight = "balanced_subsample"`), the balanced weights are
/// computed on `y[indices]` and samples of classes absent from the subsample get weight 0; only
/// `Balanced` is allowed then (scikit-learn's rule).
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::class_weight::{ClassWeight, compute_sample_weight};
///
/// let y = array![0usize, 0, 1, 0, 1, 0];
/// let w: ndarray::Array1<f64> = compute_sample_weight(&ClassWeight::Balanced, &y, None)?;
/// assert_eq!(w.to_vec(), vec![0.75, 0.75, 1.5, 0.75, 1.5, 0.75]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// As [`compute_class_weight`]; `indices` with a non-balanced weight; an index out of range.
pub fn compute_sample_weight<F: Float>(
    class_weight: &ClassWeight,
    y: &ArrayRef1<usize>,
    indices: Option<&[usize]>,
) -> Result<Array1<F>> {
    let mut classes: Vec<usize> = y.to_vec();
    classes.sort_unstable();
    classes.dedup();
    let per_class: Vec<f64> = match indices {
        None => compute_class_weight(class_weight, &classes, y, None)?.to_vec(),
        Some(idx) => {
            if !matches!(
                class_weight,
                ClassWeight::Balanced | ClassWeight::BalancedSubsample
            ) {
                return Err(Error::invalid_param(
                    "class_weight",
                    "the only valid class weight with subsample indices is Balanced",
                ));
            }
            if let Some(&bad) = idx.iter().find(|&&i| i >= y.len()) {
                return Err(Error::invalid_param(
                    "indices",
                    format!("index {bad} is out of range for {} samples", y.len()),
                ));
            }
            let sub: Array1<usize> = idx.iter().map(|&i| y[i]).collect();
            let mut sub_classes = sub.to_vec();
            sub_classes.sort_unstable();
            sub_classes.dedup();
            let w = compute_class_weight(class_weight, &sub_classes, &sub, None)?;
            classes
                .iter()
                .map(|c| sub_classes.binary_search(c).map_or(0.0, |p| w[p]))
                .collect()
        }
    };
    Ok(y.iter()
        .map(|v| {
            let p = classes.binary_search(v).unwrap_or(0);
            F::cast(per_class[p])
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn balanced_by_hand() {
        // 3 classes with counts 1, 2, 3 of n = 6: 6/(3·1) = 2, 6/(3·2) = 1, 6/(3·3) = 2/3.
        let y = array![2usize, 1, 2, 0, 2, 1];
        let w = compute_class_weight(&ClassWeight::Balanced, &[0, 1, 2], &y, None).expect("ok");
        assert_eq!(w.to_vec(), vec![2.0, 1.0, 6.0 / 9.0]);
        // Order follows `classes`.
        let w = compute_class_weight(&ClassWeight::Balanced, &[2, 0, 1], &y, None).expect("ok");
        assert_eq!(w.to_vec(), vec![6.0 / 9.0, 2.0, 1.0]);
        // Sample weights: class totals 1, 2+2, 3 → 8 / (3 · t).
        let sw = array![1.0, 2.0, 1.0, 1.0, 1.0, 2.0];
        let w =
            compute_class_weight(&ClassWeight::Balanced, &[0, 1, 2], &y, Some(&sw)).expect("ok");
        assert_eq!(w.to_vec(), vec![8.0 / 3.0, 8.0 / 12.0, 8.0 / 9.0]);
        // Balanced weights equalise class totals: Σ_i w(y_i) = n / K per class.
        let s: f64 = compute_sample_weight::<f64>(&ClassWeight::Balanced, &y, None)
            .expect("ok")
            .iter()
            .zip(&y)
            .filter(|(_, c)| **c == 2)
            .map(|(w, _)| w)
            .sum();
        assert!((s - 2.0).abs() < 1e-15);
    }

    #[test]
    fn explicit_and_uniform() {
        let y = array![0usize, 1, 1];
        let map: BTreeMap<usize, f64> = [(1, 3.0)].into_iter().collect();
        let w = compute_class_weight(&ClassWeight::Explicit(map), &[0, 1], &y, None).expect("ok");
        assert_eq!(w.to_vec(), vec![1.0, 3.0]);
        let w = compute_class_weight(&ClassWeight::Uniform, &[0, 1, 5], &y, None).expect("ok");
        assert_eq!(w.to_vec(), vec![1.0; 3]);
        // Extra keys are fine when every class is weighted, an error otherwise.
        let map: BTreeMap<usize, f64> = [(0, 1.0), (1, 2.0), (9, 4.0)].into_iter().collect();
        assert!(compute_class_weight(&ClassWeight::Explicit(map), &[0, 1], &y, None).is_ok());
        let map: BTreeMap<usize, f64> = [(1, 2.0), (9, 4.0)].into_iter().collect();
        assert!(compute_class_weight(&ClassWeight::Explicit(map), &[0, 1], &y, None).is_err());
        let map: BTreeMap<usize, f64> = [(1, f64::NAN)].into_iter().collect();
        assert!(compute_class_weight(&ClassWeight::Explicit(map), &[0, 1], &y, None).is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_forms() {
        let cw: ClassWeight = serde_json::from_str("null").expect("null");
        assert_eq!(cw, ClassWeight::Uniform);
        assert_eq!(serde_json::to_string(&cw).expect("json"), "null");
        for (text, want) in [
            ("\"balanced\"", ClassWeight::Balanced),
            ("\"none\"", ClassWeight::Uniform),
            ("\"Balanced\"", ClassWeight::Balanced),
            ("\"balanced_subsample\"", ClassWeight::BalancedSubsample),
            ("[1.0, 2.5]", ClassWeight::per_class(&[1.0, 2.5])),
            (
                "{\"1\": 2.5}",
                ClassWeight::Explicit([(1, 2.5)].into_iter().collect()),
            ),
            (
                "{\"custom\": [1.0, 2.5]}",
                ClassWeight::per_class(&[1.0, 2.5]),
            ),
        ] {
            let got: ClassWeight = serde_json::from_str(text).expect(text);
            assert_eq!(got, want, "{text}");
            let back: ClassWeight =
                serde_json::from_str(&serde_json::to_string(&got).expect("json")).expect("back");
            assert_eq!(back, got);
        }
        assert!(serde_json::from_str::<ClassWeight>("\"heavy\"").is_err());
        assert!(serde_json::from_str::<ClassWeight>("{\"a\": 1}").is_err());
        assert!(ClassWeight::per_class(&[1.0, -1.0]).validate().is_err());
        assert!(
            ClassWeight::BalancedSubsample
                .validate_not_subsample()
                .is_err()
        );
    }

    #[test]
    fn errors() {
        let y = array![0usize, 1, 3];
        assert!(matches!(
            compute_class_weight(&ClassWeight::Balanced, &[0, 1], &y, None),
            Err(Error::InvalidLabel {
                label: 3,
                index: 2,
                ..
            })
        ));
        assert!(compute_class_weight(&ClassWeight::Balanced, &[0, 1, 2, 3], &y, None).is_err());
        assert!(compute_class_weight(&ClassWeight::Balanced, &[0, 1, 1, 3], &y, None).is_err());
        assert!(compute_sample_weight::<f64>(&ClassWeight::Uniform, &y, Some(&[0, 1])).is_err());
        assert!(compute_sample_weight::<f64>(&ClassWeight::Balanced, &y, Some(&[0, 7])).is_err());
    }

    #[test]
    fn subsample_zeroes_missing_classes() {
        let y = array![0usize, 1, 1, 2, 2, 2];
        // Subsample [1, 1, 3, 4]: classes 1 (2×) and 2 (2×): 4 / (2·2) = 1 each; class 0 → 0.
        let w: Array1<f32> =
            compute_sample_weight(&ClassWeight::Balanced, &y, Some(&[1, 1, 3, 4])).expect("ok");
        assert_eq!(w.to_vec(), vec![0.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    }
}
