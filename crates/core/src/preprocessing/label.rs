//! [`LabelEncoder`]: arbitrary labels ↔ class indices `0..k`.

use ndarray::Array1;

use crate::{Error, Result};

/// Maps labels of any ordered type (strings, integers, enums) to the class indices `0..k` that
/// ndlearn's classifiers expect ([`crate::Labels`]), and back — scikit-learn's `LabelEncoder`.
///
/// `classes` are the distinct labels seen at fit, sorted; label `classes[c]` is encoded as `c`.
/// Labels must be `Ord` (floats are not: encode float codes with [`super::OrdinalEncoder`]).
///
/// `fit` is `O(n log n)`; `transform` is `O(n log k)` (binary search).
///
/// # Errors
///
/// [`Error::TooFewSamples`] when fitting on no labels; [`Error::InvalidParam`] for a label at
/// transform that was not seen at fit; [`Error::InvalidLabel`] for an index `≥ k` at
/// `inverse_transform`.
///
/// ```
/// use ndlearn_core::preprocessing::LabelEncoder;
///
/// let y = ["spam", "ham", "spam", "eggs"];
/// let enc = LabelEncoder::new().fit(&y)?;
/// assert_eq!(enc.classes(), &["eggs", "ham", "spam"]);
/// let codes = enc.transform(&y)?;
/// assert_eq!(codes.to_vec(), vec![2, 1, 2, 0]);
/// assert_eq!(enc.inverse_transform(&[1, 0])?, vec!["ham", "eggs"]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LabelEncoder {}

impl LabelEncoder {
    /// The encoder (it has no hyperparameters).
    pub fn new() -> Self {
        Self {}
    }

    /// Learns the sorted distinct labels.
    pub fn fit<T: Ord + Clone>(&self, y: &[T]) -> Result<FittedLabelEncoder<T>> {
        if y.is_empty() {
            return Err(Error::TooFewSamples {
                context: "LabelEncoder::fit",
                needed: 1,
                found: 0,
            });
        }
        let mut classes = y.to_vec();
        classes.sort();
        classes.dedup();
        Ok(FittedLabelEncoder { classes })
    }

    /// Fits and encodes `y` in one call.
    pub fn fit_transform<T: Ord + Clone>(
        &self,
        y: &[T],
    ) -> Result<(FittedLabelEncoder<T>, Array1<usize>)> {
        let fitted = self.fit(y)?;
        let codes = fitted.transform(y)?;
        Ok((fitted, codes))
    }
}

/// A fitted [`LabelEncoder`]: the sorted classes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLabelEncoder<T> {
    classes: Vec<T>,
}

impl<T: Ord + Clone> FittedLabelEncoder<T> {
    /// The distinct labels seen at fit, sorted (scikit-learn's `classes_`).
    pub fn classes(&self) -> &[T] {
        &self.classes
    }

    /// Number of classes `k`.
    pub fn n_classes(&self) -> usize {
        self.classes.len()
    }

    /// Encodes each label as its index in [`FittedLabelEncoder::classes`].
    pub fn transform(&self, y: &[T]) -> Result<Array1<usize>> {
        y.iter()
            .enumerate()
            .map(|(i, v)| {
                self.classes.binary_search(v).map_err(|_| {
                    Error::invalid_param(
                        "y",
                        format!(
                            "the label at index {i} was not seen at fit ({} classes known)",
                            self.classes.len()
                        ),
                    )
                })
            })
            .collect()
    }

    /// Maps class indices back to labels.
    pub fn inverse_transform(&self, codes: &[usize]) -> Result<Vec<T>> {
        codes
            .iter()
            .enumerate()
            .map(|(index, &c)| {
                self.classes
                    .get(c)
                    .cloned()
                    .ok_or_else(|| Error::InvalidLabel {
                        label: c,
                        index,
                        reason: format!("class indices must lie in 0..{}", self.classes.len()),
                    })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_and_errors() {
        let y = vec![30u32, 10, 20, 10];
        let (enc, codes) = LabelEncoder::new().fit_transform(&y).expect("fit");
        assert_eq!(enc.classes(), &[10, 20, 30]);
        assert_eq!(enc.n_classes(), 3);
        assert_eq!(codes.to_vec(), vec![2, 0, 1, 0]);
        assert_eq!(enc.inverse_transform(&codes.to_vec()).expect("inv"), y);
        assert!(matches!(
            enc.transform(&[40]),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            enc.inverse_transform(&[0, 3]),
            Err(Error::InvalidLabel {
                label: 3,
                index: 1,
                ..
            })
        ));
        assert!(LabelEncoder::new().fit::<u8>(&[]).is_err());
        let s: Vec<String> = vec!["b".into(), "a".into()];
        let enc = LabelEncoder::new().fit(&s).expect("fit");
        assert_eq!(enc.transform(&s).expect("t").to_vec(), vec![1, 0]);
    }
}
