//! The [`Dataset`] container shared by the embedded data sets and the CSV loader.

use ndarray::{Array1, Array2};
use ndlearn_core::{Error, Float, Result};

/// The target (response) of a [`Dataset`].
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Class labels encoded as `0..names.len()`; `names[k]` is the original name of class `k`.
    Classes {
        /// One class index per sample.
        y: Array1<usize>,
        /// Class names, indexed by class index (sorted order for CSV files, scikit-learn's
        /// `target_names` for the embedded sets).
        names: Vec<String>,
    },
    /// A real-valued (regression) target, one value per sample.
    Values(Array1<f64>),
    /// No target column (unsupervised data, or `TargetColumn::None` when loading a CSV file).
    None,
}

impl Target {
    /// Number of target entries (0 for [`Target::None`]).
    pub fn len(&self) -> usize {
        match self {
            Self::Classes { y, .. } => y.len(),
            Self::Values(v) => v.len(),
            Self::None => 0,
        }
    }

    /// `true` when there is no target entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A data set: a feature matrix, a target, and names.
///
/// Features are stored as `f64` (the embedded files hold exactly the `float64` values scikit-learn
/// loads); use [`Dataset::x_as`] / [`Dataset::y_values_as`] for `f32`.
///
/// The struct is `#[non_exhaustive]`: read its public fields directly, build one with
/// [`Dataset::new`].
///
/// ```
/// use ndlearn_datasets::iris;
///
/// let iris = iris();                       // &'static Dataset, parsed once
/// assert_eq!((iris.n_samples(), iris.n_features()), (150, 4));
/// assert_eq!(iris.n_classes(), Some(3));
/// assert_eq!(iris.class_name(0), Some("setosa"));
/// let x32 = iris.x_as::<f32>();            // f32 copy of the features
/// assert_eq!(x32[[0, 0]], 5.1f32);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Dataset {
    /// Short name (`"iris"` for the embedded sets, the file stem for a CSV file).
    pub name: String,
    /// Feature matrix, `n_samples × n_features`, row-major sample order as in the source.
    pub x: Array2<f64>,
    /// The target.
    pub target: Target,
    /// One name per feature column.
    pub feature_names: Vec<String>,
    /// Name of the target column, when there is one (`"target"` for the embedded sets).
    pub target_name: Option<String>,
}

impl Dataset {
    /// Builds a data set after checking that the pieces agree: `feature_names.len() ==
    /// x.ncols()`, a target (if any) with one entry per row, class indices below
    /// `names.len()`.
    ///
    /// # Errors
    ///
    /// [`Error::ShapeMismatch`] on inconsistent lengths, [`Error::InvalidLabel`] on a class index
    /// without a name.
    pub fn new(
        name: impl Into<String>,
        x: Array2<f64>,
        target: Target,
        feature_names: Vec<String>,
        target_name: Option<String>,
    ) -> Result<Self> {
        if feature_names.len() != x.ncols() {
            return Err(Error::ShapeMismatch {
                context: "Dataset::new: feature_names",
                expected: format!("{} names (one per column of x)", x.ncols()),
                found: format!("{} names", feature_names.len()),
            });
        }
        if !matches!(target, Target::None) && target.len() != x.nrows() {
            return Err(Error::ShapeMismatch {
                context: "Dataset::new: target",
                expected: format!("{} entries (one per row of x)", x.nrows()),
                found: format!("{} entries", target.len()),
            });
        }
        if let Target::Classes { y, names } = &target {
            if let Some(index) = y.iter().position(|&c| c >= names.len()) {
                return Err(Error::InvalidLabel {
                    label: y[index],
                    index,
                    reason: format!("only {} class names are given", names.len()),
                });
            }
        }
        Ok(Self {
            name: name.into(),
            x,
            target,
            feature_names,
            target_name,
        })
    }

    /// The feature matrix.
    pub fn x(&self) -> &Array2<f64> {
        &self.x
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The short name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The feature names.
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    /// Class indices, for a classification target.
    pub fn y_classes(&self) -> Option<&Array1<usize>> {
        match &self.target {
            Target::Classes { y, .. } => Some(y),
            _ => None,
        }
    }

    /// Target values, for a regression target.
    pub fn y_values(&self) -> Option<&Array1<f64>> {
        match &self.target {
            Target::Values(v) => Some(v),
            _ => None,
        }
    }

    /// Class names indexed by class index, for a classification target.
    pub fn class_names(&self) -> Option<&[String]> {
        match &self.target {
            Target::Classes { names, .. } => Some(names),
            _ => None,
        }
    }

    /// Name of class `k` (decodes a prediction), `None` when out of range or not a
    /// classification target.
    pub fn class_name(&self, k: usize) -> Option<&str> {
        self.class_names()
            .and_then(|n| n.get(k))
            .map(String::as_str)
    }

    /// Number of rows.
    pub fn n_samples(&self) -> usize {
        self.x.nrows()
    }

    /// Number of feature columns.
    pub fn n_features(&self) -> usize {
        self.x.ncols()
    }

    /// Number of classes (the number of class names), for a classification target.
    pub fn n_classes(&self) -> Option<usize> {
        self.class_names().map(<[String]>::len)
    }

    /// `true` for a classification target.
    pub fn is_classification(&self) -> bool {
        matches!(self.target, Target::Classes { .. })
    }

    /// The features converted to `F` (`f32` rounds to nearest).
    pub fn x_as<F: Float>(&self) -> Array2<F> {
        self.x.mapv(F::cast)
    }

    /// The regression target converted to `F`.
    pub fn y_values_as<F: Float>(&self) -> Option<Array1<F>> {
        self.y_values().map(|v| v.mapv(F::cast))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn new_checks_lengths_and_labels() {
        let x = array![[1.0, 2.0], [3.0, 4.0]];
        let names = vec!["a".to_string(), "b".to_string()];
        let ok = Dataset::new(
            "t",
            x.clone(),
            Target::Classes {
                y: array![0, 1],
                names: vec!["n".into(), "p".into()],
            },
            names.clone(),
            Some("target".into()),
        )
        .expect("consistent pieces");
        assert_eq!(ok.n_classes(), Some(2));
        assert_eq!(ok.class_name(1), Some("p"));
        assert_eq!(ok.class_name(2), None);
        assert!(ok.is_classification());
        assert_eq!(ok.y_values(), None);

        let bad_names = Dataset::new("t", x.clone(), Target::None, vec!["a".into()], None);
        assert!(matches!(bad_names, Err(Error::ShapeMismatch { .. })));
        let bad_len = Dataset::new(
            "t",
            x.clone(),
            Target::Values(array![1.0]),
            names.clone(),
            None,
        );
        assert!(matches!(bad_len, Err(Error::ShapeMismatch { .. })));
        let bad_label = Dataset::new(
            "t",
            x.clone(),
            Target::Classes {
                y: array![0, 2],
                names: vec!["n".into(), "p".into()],
            },
            names.clone(),
            None,
        );
        assert!(matches!(
            bad_label,
            Err(Error::InvalidLabel {
                label: 2,
                index: 1,
                ..
            })
        ));
        let reg = Dataset::new("r", x, Target::Values(array![0.5, 1.5]), names, None)
            .expect("consistent pieces");
        assert_eq!(reg.y_values_as::<f32>(), Some(array![0.5f32, 1.5]));
        assert_eq!(reg.n_classes(), None);
        assert_eq!(reg.target().len(), 2);
        assert!(Target::None.is_empty());
    }
}
