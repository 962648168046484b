//! Row selection for features and targets of any type: [`SelectRows`] (select rows by index),
//! [`TargetRows`] (estimator targets whose selections can be handed back to `Fit::fit`) and
//! [`TargetElement`] (which element types are class labels, for stratification).

use ndarray::{Array1, Array2, ArrayBase, ArrayRef1, ArrayRef2, Axis, Data, Ix1, Ix2};

use crate::{Error, Result};

/// Something with one entry per sample whose rows can be selected by index: features
/// (`Array2<T>`, `ArrayRef2<T>`, views), labels (`Array1<usize>`, `ArrayRef1<usize>`),
/// regression targets (`Array1<F>`), multi-output targets (`Array2<F>`) or nothing at all
/// (`()`, for unsupervised estimators).
///
/// Model-selection code is written once over this trait, so the same cross-validation works for
/// classifiers, regressors and clusterers.
pub trait SelectRows {
    /// The owned result of a selection (`Array1<T>`, `Array2<T>`, `()`).
    type Owned;

    /// The number of samples, or `None` when the value carries no per-sample data (`()`).
    fn n_rows(&self) -> Option<usize>;

    /// The rows at `indices`, in that order (repetitions allowed).
    ///
    /// Errors with [`Error::InvalidParam`] when an index is out of bounds.
    fn select_rows(&self, indices: &[usize]) -> Result<Self::Owned>;

    /// The class labels, when `self` is a label vector (elements `usize`); stratified
    /// splitters use them. `None` for everything else.
    fn class_labels(&self) -> Option<&ArrayRef1<usize>> {
        None
    }
}

/// A [`SelectRows`] whose owned selection can be borrowed back as `Self`: the estimator target
/// types `ArrayRef1<T>` (labels, regression values), `ArrayRef2<T>` (multi-output) and `()`.
/// Cross-validation, search and curves need it to hand a selected target to `Fit::fit`.
pub trait TargetRows: SelectRows {
    /// Borrows an owned selection as `Self`.
    fn borrow_owned(owned: &Self::Owned) -> &Self;
}

/// Element types of one-dimensional targets. Only `usize` (class labels) reports its values as
/// labels for stratification.
pub trait TargetElement: Clone + Send + Sync + 'static {
    /// `Some(a)` for `usize` vectors, `None` for every other element type.
    fn as_labels(a: &ArrayRef1<Self>) -> Option<&ArrayRef1<usize>>;
}

impl TargetElement for usize {
    fn as_labels(a: &ArrayRef1<usize>) -> Option<&ArrayRef1<usize>> {
        Some(a)
    }
}

macro_rules! non_label_element {
    ($($t:ty),*) => {$(
        impl TargetElement for $t {
            fn as_labels(_: &ArrayRef1<$t>) -> Option<&ArrayRef1<usize>> {
                None
            }
        }
    )*};
}
non_label_element!(f32, f64, i32, i64, u32, u64, bool);

fn check_indices(indices: &[usize], n: usize) -> Result<()> {
    match indices.iter().find(|&&i| i >= n) {
        Some(&i) => Err(Error::invalid_param(
            "indices",
            format!("row index {i} is out of bounds for {n} rows"),
        )),
        None => Ok(()),
    }
}

impl<T: TargetElement> SelectRows for ArrayRef1<T> {
    type Owned = Array1<T>;

    fn n_rows(&self) -> Option<usize> {
        Some(self.len())
    }

    fn select_rows(&self, indices: &[usize]) -> Result<Array1<T>> {
        check_indices(indices, self.len())?;
        Ok(self.select(Axis(0), indices))
    }

    fn class_labels(&self) -> Option<&ArrayRef1<usize>> {
        T::as_labels(self)
    }
}

impl<T: TargetElement> TargetRows for ArrayRef1<T> {
    fn borrow_owned(owned: &Array1<T>) -> &Self {
        owned
    }
}

impl<T: Clone> SelectRows for ArrayRef2<T> {
    type Owned = Array2<T>;

    fn n_rows(&self) -> Option<usize> {
        Some(self.nrows())
    }

    fn select_rows(&self, indices: &[usize]) -> Result<Array2<T>> {
        check_indices(indices, self.nrows())?;
        Ok(self.select(Axis(0), indices))
    }
}

impl<T: Clone> TargetRows for ArrayRef2<T> {
    fn borrow_owned(owned: &Array2<T>) -> &Self {
        owned
    }
}

impl<S, T> SelectRows for ArrayBase<S, Ix1>
where
    S: Data<Elem = T>,
    T: TargetElement,
{
    type Owned = Array1<T>;

    fn n_rows(&self) -> Option<usize> {
        Some(self.len())
    }

    fn select_rows(&self, indices: &[usize]) -> Result<Array1<T>> {
        let r: &ArrayRef1<T> = self;
        r.select_rows(indices)
    }

    fn class_labels(&self) -> Option<&ArrayRef1<usize>> {
        T::as_labels(self)
    }
}

impl<S, T> SelectRows for ArrayBase<S, Ix2>
where
    S: Data<Elem = T>,
    T: Clone,
{
    type Owned = Array2<T>;

    fn n_rows(&self) -> Option<usize> {
        Some(self.nrows())
    }

    fn select_rows(&self, indices: &[usize]) -> Result<Array2<T>> {
        let r: &ArrayRef2<T> = self;
        r.select_rows(indices)
    }
}

impl SelectRows for () {
    type Owned = ();

    fn n_rows(&self) -> Option<usize> {
        None
    }

    fn select_rows(&self, _indices: &[usize]) -> Result<()> {
        Ok(())
    }
}

impl TargetRows for () {
    fn borrow_owned(owned: &()) -> &Self {
        owned
    }
}

/// Checks that a target has one entry per row of `x` (targets without per-sample data pass).
pub(crate) fn check_target_rows<Y: SelectRows + ?Sized>(
    n_samples: usize,
    y: &Y,
    context: &'static str,
) -> Result<()> {
    match y.n_rows() {
        Some(m) if m != n_samples => Err(Error::ShapeMismatch {
            context,
            expected: format!("target with {n_samples} rows (one per row of X)"),
            found: format!("{m} rows"),
        }),
        _ => Ok(()),
    }
}
