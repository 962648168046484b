//! Input validation shared by every estimator.
//!
//! Each estimator's `fit` calls [`check_fit_input`] (or the supervised variants) before any
//! arithmetic, and its `predict`/`transform` calls [`check_predict_input`], so that bad input
//! becomes a typed [`Error`] instead of a panic or silent garbage.

use ndarray::{ArrayRef1, ArrayRef2};

use crate::{Error, Float, Result};

/// Finds the first non-finite entry of `x` (row-major order) and reports its row and column.
pub fn check_finite_2d<F: Float>(x: &ArrayRef2<F>, context: &'static str) -> Result<()> {
    // Fast path over contiguous memory: `0 · v` is 0 for finite values and NaN for NaN/±inf,
    // accumulated in 8 independent lanes so the loop vectorises. Only when something is wrong
    // are the rows walked to find the position.
    if let Some(s) = x.as_slice_memory_order() {
        // large inputs are scanned in parallel blocks (a boolean: the same for any thread count)
        let ok = if s.len() >= 1 << 21 {
            use rayon::prelude::*;
            s.par_chunks(1 << 18).all(all_finite)
        } else {
            all_finite(s)
        };
        if ok {
            return Ok(());
        }
    } else if x.iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    for (row, r) in x.rows().into_iter().enumerate() {
        if let Some(col) = r.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite { context, row, col });
        }
    }
    Ok(())
}

/// `true` when every value is finite (branch-free, vectorisable).
pub fn all_finite<F: Float>(s: &[F]) -> bool {
    let mut acc = [F::zero(); 8];
    let chunks = s.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] += c[k] * F::zero();
        }
    }
    acc.iter().all(|v| *v == F::zero()) && rest.iter().all(|v| v.is_finite())
}

/// Largest absolute value (0 for an empty slice); 8 independent lanes so the loop vectorises.
/// Inputs are expected finite (NaN entries are skipped by `max`).
pub fn max_abs<F: Float>(s: &[F]) -> F {
    let mut acc = [F::zero(); 8];
    let chunks = s.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] = acc[k].max(c[k].abs());
        }
    }
    rest.iter()
        .fold(acc.iter().fold(F::zero(), |m, v| m.max(*v)), |m, v| {
            m.max(v.abs())
        })
}

/// Finds the first non-finite entry of a vector (reported as column 0).
pub fn check_finite_1d<F: Float>(x: &ArrayRef1<F>, context: &'static str) -> Result<()> {
    match x.iter().position(|v| !v.is_finite()) {
        Some(row) => Err(Error::NonFinite {
            context,
            row,
            col: 0,
        }),
        None => Ok(()),
    }
}

/// Requires at least `needed` samples.
pub fn check_min_samples(found: usize, needed: usize, context: &'static str) -> Result<()> {
    if found < needed {
        Err(Error::TooFewSamples {
            context,
            needed,
            found,
        })
    } else {
        Ok(())
    }
}

/// Checks a training matrix: at least `min_samples` rows, at least one column, all finite.
pub fn check_fit_input<F: Float>(
    x: &ArrayRef2<F>,
    min_samples: usize,
    context: &'static str,
) -> Result<()> {
    check_fit_shape(x, min_samples, context)?;
    check_finite_2d(x, "X")
}

/// The shape half of [`check_fit_input`]: at least `min_samples` rows and at least one column,
/// without the finiteness scan. For estimators whose first pass over the data can prove
/// finiteness on the way (a column sum is finite only if every entry of the column is), and
/// which call [`check_finite_2d`] only when that pass finds a non-finite result.
pub fn check_fit_shape<F: Float>(
    x: &ArrayRef2<F>,
    min_samples: usize,
    context: &'static str,
) -> Result<()> {
    check_min_samples(x.nrows(), min_samples.max(1), context)?;
    if x.ncols() == 0 {
        return Err(Error::ShapeMismatch {
            context,
            expected: "at least one feature column".into(),
            found: "0 columns".into(),
        });
    }
    Ok(())
}

/// Checks a prediction matrix: the feature count seen at fit, all finite. Zero rows is allowed
/// (the result is empty).
pub fn check_predict_input<F: Float>(
    x: &ArrayRef2<F>,
    n_features: usize,
    context: &'static str,
) -> Result<()> {
    check_n_features(x.ncols(), n_features, context)?;
    check_finite_2d(x, "X")
}

/// The finiteness check of a linear map's input, done on its output: `out = X A (+ b)` with
/// finite `A` and `b` is finite whenever `X` is, and any NaN or ±∞ in `X` reaches `out` (a
/// product with ∞ or NaN is ∞ or NaN, even by 0), so only a non-finite `out` sends the scan back
/// to `X` for [`check_finite_2d`]'s error. Saves a pass over a large `X` at `transform`
/// (memory-bound for a narrow `A`). An `out` that overflowed from finite `X` passes, as it
/// would have after an up-front check. With zero columns on either side `X` is scanned.
///
/// ```
/// use ndlearn_core::validate::check_finite_through;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[1.0, f64::INFINITY]];
/// let a = array![[1.0], [0.0]];
/// let out = x.dot(&a);
/// assert!(check_finite_through(&x, &out, "X").is_err());
/// ```
pub fn check_finite_through<F: Float>(
    x: &ArrayRef2<F>,
    out: &ArrayRef2<F>,
    context: &'static str,
) -> Result<()> {
    let clean = x.ncols() > 0
        && out.ncols() > 0
        && out
            .as_slice_memory_order()
            .map_or_else(|| out.iter().all(|v| v.is_finite()), all_finite);
    if clean {
        return Ok(());
    }
    check_finite_2d(x, context)
}

/// Requires `found == expected` features.
pub fn check_n_features(found: usize, expected: usize, context: &'static str) -> Result<()> {
    if found != expected {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("{expected} features (as at fit)"),
            found: format!("{found} features"),
        });
    }
    Ok(())
}

/// Requires a target of the same length as the number of rows.
pub fn check_target_len(n_rows: usize, n_target: usize, context: &'static str) -> Result<()> {
    if n_rows != n_target {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("target of length {n_rows} (one per row of X)"),
            found: format!("length {n_target}"),
        });
    }
    Ok(())
}

/// Supervised regression input: [`check_fit_input`] plus a finite target of matching length.
pub fn check_regression_input<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    min_samples: usize,
    context: &'static str,
) -> Result<()> {
    check_target_len(x.nrows(), y.len(), context)?;
    check_fit_input(x, min_samples, context)?;
    check_finite_1d(y, "y")
}

/// Supervised classification input: [`check_fit_input`] plus [`check_labels`].
///
/// Returns the number of classes (`max label + 1`).
pub fn check_classification_input<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    min_classes: usize,
    context: &'static str,
) -> Result<usize> {
    check_target_len(x.nrows(), y.len(), context)?;
    check_fit_input(x, 1, context)?;
    check_labels(y, min_classes, context)
}

/// Checks class labels: non-empty, at least `min_classes` distinct values. Labels are the
/// indices `0..n_classes` with `n_classes = max + 1`; a class index with no sample is allowed
/// (it gets zero prior), as long as `n_classes` stays below `y.len() + 1_000_000` (a guard
/// against a raw label like `u32::MAX` passed without encoding).
///
/// Returns `n_classes`.
pub fn check_labels(
    y: &ArrayRef1<usize>,
    min_classes: usize,
    context: &'static str,
) -> Result<usize> {
    check_min_samples(y.len(), 1, context)?;
    let max = y.iter().copied().max().unwrap_or(0);
    let limit = y.len() + 1_000_000;
    if max >= limit {
        let index = y.iter().position(|&v| v == max).unwrap_or(0);
        return Err(Error::InvalidLabel {
            label: max,
            index,
            reason: "labels must be class indices 0..n_classes; encode raw labels with a label encoder first".into(),
        });
    }
    let n_classes = max + 1;
    let mut seen = vec![false; n_classes];
    for &v in y.iter() {
        seen[v] = true;
    }
    let distinct = seen.iter().filter(|&&s| s).count();
    if distinct < min_classes {
        return Err(Error::TooFewClasses {
            context,
            needed: min_classes,
            found: distinct,
        });
    }
    Ok(n_classes)
}

/// Checks that every label is a class index below `n_classes` (for scores or models whose
/// class count is fixed).
///
/// # Errors
/// [`Error::InvalidLabel`] naming the first label `≥ n_classes`.
pub fn check_labels_below(y: &ArrayRef1<usize>, n_classes: usize) -> Result<()> {
    match y.iter().position(|&c| c >= n_classes) {
        None => Ok(()),
        Some(index) => Err(Error::InvalidLabel {
            label: y[index],
            index,
            reason: format!("labels must be below the number of classes ({n_classes})"),
        }),
    }
}

/// Checks per-sample weights: length `n`, finite, non-negative, positive sum.
pub fn check_sample_weight<F: Float>(w: &ArrayRef1<F>, n: usize) -> Result<()> {
    if w.len() != n {
        return Err(Error::ShapeMismatch {
            context: "sample_weight",
            expected: format!("length {n}"),
            found: format!("length {}", w.len()),
        });
    }
    check_finite_1d(w, "sample_weight")?;
    if let Some(i) = w.iter().position(|&v| v < F::zero()) {
        return Err(Error::invalid_param(
            "sample_weight",
            format!("weights must be >= 0; entry {i} is {}", w[i]),
        ));
    }
    if w.iter().copied().sum::<F>() <= F::zero() {
        return Err(Error::invalid_param(
            "sample_weight",
            "weights must have a positive sum",
        ));
    }
    Ok(())
}

/// Hyperparameter check: `value > 0` and finite.
pub fn check_positive(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be a finite number > 0, got {value}"),
        ))
    }
}

/// Hyperparameter check: `value >= 0` and finite.
pub fn check_non_negative(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be a finite number >= 0, got {value}"),
        ))
    }
}

/// Hyperparameter check: `lo <= value <= hi`.
pub fn check_in_range(name: &'static str, value: f64, lo: f64, hi: f64) -> Result<()> {
    if value.is_finite() && (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must lie in [{lo}, {hi}], got {value}"),
        ))
    }
}

/// Hyperparameter check: a count of at least `min`.
pub fn check_at_least(name: &'static str, value: usize, min: usize) -> Result<()> {
    if value >= min {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be >= {min}, got {value}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn finite_reports_position() {
        let x = array![[1.0, 2.0], [3.0, f64::NAN]];
        match check_finite_2d(&x, "X") {
            Err(Error::NonFinite { row, col, .. }) => assert_eq!((row, col), (1, 1)),
            other => panic!("unexpected {other:?}"),
        }
        let y = array![0.0f32, f32::INFINITY];
        assert!(matches!(
            check_finite_1d(&y, "y"),
            Err(Error::NonFinite { row: 1, col: 0, .. })
        ));
        assert!(check_finite_2d(&array![[1.0f32]], "X").is_ok());
    }

    #[test]
    fn shapes_and_counts() {
        let x = ndarray::Array2::<f64>::zeros((0, 3));
        assert!(matches!(
            check_fit_input(&x, 1, "t"),
            Err(Error::TooFewSamples { found: 0, .. })
        ));
        let x = ndarray::Array2::<f64>::zeros((3, 0));
        assert!(matches!(
            check_fit_input(&x, 1, "t"),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            check_n_features(2, 3, "p"),
            Err(Error::ShapeMismatch { .. })
        ));
        let x = ndarray::Array2::<f64>::zeros((3, 2));
        assert!(matches!(
            check_regression_input(&x, &array![1.0, 2.0], 1, "t"),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(check_predict_input(&ndarray::Array2::<f64>::zeros((0, 2)), 2, "p").is_ok());
    }

    #[test]
    fn vectorised_helpers() {
        let mut v: Vec<f64> = (0..37).map(f64::from).collect();
        assert!(all_finite(&v));
        assert_eq!(max_abs(&v), 36.0);
        v[20] = -50.0;
        assert_eq!(max_abs(&v), 50.0);
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for pos in [3, 35] {
                let mut w = v.clone();
                w[pos] = bad;
                assert!(!all_finite(&w), "{bad} at {pos}");
            }
        }
        assert!(all_finite::<f32>(&[]) && max_abs::<f32>(&[]) == 0.0);
    }

    #[test]
    fn labels() {
        assert_eq!(check_labels(&array![0usize, 2, 1, 2], 2, "c").ok(), Some(3));
        assert!(matches!(
            check_labels(&array![1usize, 1], 2, "c"),
            Err(Error::TooFewClasses { found: 1, .. })
        ));
        assert!(matches!(
            check_labels(&array![0usize, usize::MAX], 2, "c"),
            Err(Error::InvalidLabel { index: 1, .. })
        ));
        assert!(check_labels(&ndarray::Array1::<usize>::zeros(0), 1, "c").is_err());
    }

    #[test]
    fn weights_and_params() {
        assert!(check_sample_weight(&array![1.0, 0.0], 2).is_ok());
        assert!(check_sample_weight(&array![1.0, -1.0], 2).is_err());
        assert!(check_sample_weight(&array![0.0, 0.0], 2).is_err());
        assert!(check_sample_weight(&array![1.0], 2).is_err());
        assert!(check_positive("alpha", 0.0).is_err());
        assert!(check_positive("alpha", f64::NAN).is_err());
        assert!(check_non_negative("alpha", 0.0).is_ok());
        assert!(check_in_range("p", 1.5, 0.0, 1.0).is_err());
        assert!(check_at_least("k", 0, 1).is_err());
    }
}

// ---------------------------------------------------------------------------------------------
// Fitted state

/// A fitted model checks its own state: every array the right shape for the others and for its
/// feature count, every parameter finite, every stored index in range.
///
/// Fitting always produces a consistent state; the check is for states that come from outside,
/// a model file read back (the registry's `Entry::load` calls it after deserialising, so a
/// truncated, corrupted or hand-edited file becomes [`Error::InvalidModel`] there instead of a
/// panic, an out-of-bounds read or an absurd allocation at predict). Implement it with a
/// [`ModelCheck`]:
///
/// ```
/// use ndlearn_core::ndarray::{Array1, array};
/// use ndlearn_core::validate::{CheckModel, ModelCheck};
/// use ndlearn_core::Result;
///
/// struct FittedLine { coef: Array1<f64>, intercept: f64, n_features: usize }
///
/// impl CheckModel for FittedLine {
///     fn check_model(&self) -> Result<()> {
///         let c = ModelCheck::new("FittedLine");
///         c.len("coef", self.coef.len(), self.n_features)?;
///         c.finite("coef", &self.coef)?;
///         c.finite_value("intercept", self.intercept)
///     }
/// }
///
/// let good = FittedLine { coef: array![1.0, 2.0], intercept: 0.5, n_features: 2 };
/// assert!(good.check_model().is_ok());
/// let bad = FittedLine { coef: array![1.0], intercept: 0.5, n_features: 2 };
/// assert!(bad.check_model().is_err());
/// ```
pub trait CheckModel {
    /// `Ok` when the fitted state is consistent.
    ///
    /// # Errors
    /// [`Error::InvalidModel`] naming the type and what is inconsistent.
    fn check_model(&self) -> Result<()>;
}

impl<T: CheckModel> CheckModel for Vec<T> {
    fn check_model(&self) -> Result<()> {
        self.iter().try_for_each(CheckModel::check_model)
    }
}

impl<T: CheckModel> CheckModel for Option<T> {
    fn check_model(&self) -> Result<()> {
        self.as_ref().map_or(Ok(()), CheckModel::check_model)
    }
}

impl<T: CheckModel + ?Sized> CheckModel for Box<T> {
    fn check_model(&self) -> Result<()> {
        (**self).check_model()
    }
}

/// The checks a [`CheckModel`] implementation is made of, each returning
/// [`Error::InvalidModel`] naming the model and the field.
#[derive(Debug, Clone, Copy)]
pub struct ModelCheck {
    model: &'static str,
}

impl ModelCheck {
    /// Checks for the fitted type `model` (its name appears in every error).
    pub fn new(model: &'static str) -> Self {
        Self { model }
    }

    /// The error for `reason`.
    pub fn error(&self, reason: impl Into<String>) -> Error {
        Error::InvalidModel {
            model: self.model,
            reason: reason.into(),
        }
    }

    /// `Ok` when `ok`, otherwise the error `reason()`.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn that(&self, ok: bool, reason: impl FnOnce() -> String) -> Result<()> {
        if ok {
            Ok(())
        } else {
            Err(self.error(reason()))
        }
    }

    /// The stored hyperparameters pass their estimator's `validate()` (a hand-edited file
    /// can hold values `fit` would have refused); any error becomes [`Error::InvalidModel`].
    ///
    /// # Errors
    /// [`Error::InvalidModel`] with the validation error as its reason.
    pub fn params(&self, est: &impl crate::Estimator) -> Result<()> {
        est.validate()
            .map_err(|e| self.error(format!("hyperparameters: {e}")))
    }

    /// `field` has length `expected`.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn len(&self, field: &str, found: usize, expected: usize) -> Result<()> {
        self.that(found == expected, || {
            format!("`{field}` has length {found}, expected {expected}")
        })
    }

    /// The 2-d `field` has shape `expected`.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn shape(
        &self,
        field: &str,
        found: (usize, usize),
        expected: (usize, usize),
    ) -> Result<()> {
        self.that(found == expected, || {
            format!(
                "`{field}` has shape {} × {}, expected {} × {}",
                found.0, found.1, expected.0, expected.1
            )
        })
    }

    /// `value` is at least `min` (counts such as the number of classes or features).
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn at_least(&self, field: &str, value: usize, min: usize) -> Result<()> {
        self.that(value >= min, || {
            format!("`{field}` is {value}, needs at least {min}")
        })
    }

    /// Every entry of `a` (any dimension, any layout) is finite.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn finite<F: Float, D: ndarray::Dimension>(
        &self,
        field: &str,
        a: &ndarray::ArrayRef<F, D>,
    ) -> Result<()> {
        self.that(a.iter().all(|v| v.is_finite()), || {
            format!("`{field}` holds a non-finite value")
        })
    }

    /// Every entry of the slice is finite.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn finite_slice<F: Float>(&self, field: &str, s: &[F]) -> Result<()> {
        self.that(all_finite(s), || {
            format!("`{field}` holds a non-finite value")
        })
    }

    /// One value is finite.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn finite_value<F: Float>(&self, field: &str, v: F) -> Result<()> {
        self.that(v.is_finite(), || format!("`{field}` is not finite"))
    }

    /// One value is finite and `> 0` (scales, bandwidths, precisions).
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn positive<F: Float>(&self, field: &str, v: F) -> Result<()> {
        self.that(v.is_finite() && v > F::zero(), || {
            format!("`{field}` must be finite and positive")
        })
    }

    /// Every entry is finite and `>= 0` (variances, weights, probabilities).
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn non_negative<F: Float, D: ndarray::Dimension>(
        &self,
        field: &str,
        a: &ndarray::ArrayRef<F, D>,
    ) -> Result<()> {
        self.that(a.iter().all(|v| v.is_finite() && *v >= F::zero()), || {
            format!("`{field}` must be finite and non-negative")
        })
    }

    /// Every index is `< bound` (feature indices, class indices, node links).
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn indices_below<'a>(
        &self,
        field: &str,
        indices: impl IntoIterator<Item = &'a usize>,
        bound: usize,
    ) -> Result<()> {
        match indices.into_iter().find(|&&i| i >= bound) {
            None => Ok(()),
            Some(i) => Err(self.error(format!("`{field}` holds index {i}, must be below {bound}"))),
        }
    }

    /// `offsets` are the running sums of `sizes` starting at 0 (`offsets[j]` = where block `j`
    /// starts, the last entry the total), with one entry more than `sizes`.
    ///
    /// # Errors
    /// [`Error::InvalidModel`].
    pub fn cumulative(
        &self,
        field: &str,
        offsets: &[usize],
        sizes: impl IntoIterator<Item = usize>,
    ) -> Result<()> {
        let mut sum = 0usize;
        let mut n = 0usize;
        for (j, size) in sizes.into_iter().enumerate() {
            self.that(offsets.get(j) == Some(&sum), || {
                format!("`{field}` does not match the block sizes at block {j}")
            })?;
            sum = sum
                .checked_add(size)
                .ok_or_else(|| self.error(format!("`{field}` overflows")))?;
            n = j + 1;
        }
        self.that(offsets.len() == n + 1 && offsets[n] == sum, || {
            format!("`{field}` needs {} entries ending at {sum}", n + 1)
        })
    }

    /// Checks a part of the model (a nested fitted state), naming the field in its error.
    ///
    /// # Errors
    /// [`Error::InvalidModel`] of the part, prefixed with this model and `field`.
    pub fn part(&self, field: &str, part: &impl CheckModel) -> Result<()> {
        part.check_model().map_err(|e| match e {
            Error::InvalidModel { model, reason } => {
                self.error(format!("`{field}` ({model}): {reason}"))
            }
            other => self.error(format!("`{field}`: {other}")),
        })
    }
}

#[cfg(test)]
mod model_check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn each_check_reports_the_model_and_field() {
        let c = ModelCheck::new("FittedThing");
        assert!(c.len("coef", 3, 3).is_ok());
        let e = c
            .len("coef", 2, 3)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("FittedThing") && e.contains("`coef` has length 2, expected 3"),
            "{e}"
        );
        assert!(c.shape("w", (2, 3), (2, 3)).is_ok());
        assert!(c.shape("w", (3, 2), (2, 3)).is_err());
        assert!(c.finite("w", &array![[1.0, 2.0]]).is_ok());
        assert!(c.finite("w", &array![[1.0, f64::NAN]]).is_err());
        assert!(c.finite_slice("s", &[1.0f32, f32::INFINITY]).is_err());
        assert!(c.finite_value("b", f64::NEG_INFINITY).is_err());
        assert!(c.positive("gamma", 0.0).is_err());
        assert!(c.positive("gamma", 1e-300).is_ok());
        assert!(c.non_negative("var", &array![0.0, 1.0]).is_ok());
        assert!(c.non_negative("var", &array![0.0, -1.0]).is_err());
        assert!(c.indices_below("feature", &[0, 4], 5).is_ok());
        assert!(c.indices_below("feature", &[0, 5], 5).is_err());
        assert!(c.at_least("n_classes", 1, 2).is_err());
        assert!(c.cumulative("offsets", &[0, 2, 5], [2, 3]).is_ok());
        assert!(c.cumulative("offsets", &[0, 2, 6], [2, 3]).is_err());
        assert!(c.cumulative("offsets", &[0, 2], [2, 3]).is_err());
        assert!(c.cumulative("offsets", &[0], []).is_ok());
        assert!(matches!(
            c.that(false, || "broken".into()),
            Err(Error::InvalidModel {
                model: "FittedThing",
                ..
            })
        ));
    }

    struct Inner(f64);
    impl CheckModel for Inner {
        fn check_model(&self) -> Result<()> {
            ModelCheck::new("Inner").finite_value("v", self.0)
        }
    }

    #[test]
    fn parts_and_containers_delegate() {
        let c = ModelCheck::new("Outer");
        assert!(c.part("inner", &Inner(1.0)).is_ok());
        let e = c
            .part("inner", &Inner(f64::NAN))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("Outer") && e.contains("`inner` (Inner)"), "{e}");
        assert!(vec![Inner(1.0), Inner(f64::NAN)].check_model().is_err());
        assert!(Some(Inner(1.0)).check_model().is_ok());
        assert!(None::<Inner>.check_model().is_ok());
    }
}
