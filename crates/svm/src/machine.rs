//! What the kernel SVMs share: the training data as `f64` with its prepared kernel (or a
//! precomputed Gram matrix), per-sample bounds from `C`, class and sample weights, and the
//! kernel expansion `Σ cᵢ k(svᵢ, x) − ρ` at predict.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, CowArray, Ix2};
use ndlearn_core::kernel::{Kernel, PreparedKernel};
use ndlearn_core::validate::ModelCheck;
use ndlearn_core::{Error, Float, Result};

use crate::cache::KernelRows;
use crate::solver::{self, Form, Problem, Settings, Solution};

/// The training rows of one dual problem (a subset of the data, in the given order).
pub(crate) struct Subset {
    /// Rows of the original data.
    pub rows: Vec<usize>,
    /// Its data (`f64`; rows × d), or its Gram block for a precomputed kernel; `None` when
    /// the rows are all the training rows (the problem then reads the training data itself,
    /// through the permutation `rows` when they are in another order: a binary problem holds
    /// no second copy of `X`).
    data: Option<Array2<f64>>,
}

/// The training data of a kernel SVM.
pub(crate) struct TrainData<'a> {
    /// The numeric kernel (`None`: `x` is a precomputed Gram matrix).
    pub kernel: Option<Kernel>,
    /// The caller's matrix when it is `f64`, else an `f64` copy.
    x: CowArray<'a, f64, Ix2>,
}

impl<'a> TrainData<'a> {
    /// Converts (`f64` input is borrowed, not copied) and checks `x` (square for a
    /// precomputed kernel).
    pub(crate) fn new<F: Float>(
        x: &'a ArrayRef2<F>,
        kernel: Option<Kernel>,
        context: &'static str,
    ) -> Result<Self> {
        if kernel.is_none() && x.nrows() != x.ncols() {
            return Err(Error::ShapeMismatch {
                context,
                expected: format!(
                    "a square {0} × {0} kernel matrix (kernel = precomputed)",
                    x.nrows()
                ),
                found: format!("{} × {}", x.nrows(), x.ncols()),
            });
        }
        let x = match F::as_f64_view(x.view()) {
            Some(x64) => CowArray::from(x64),
            None => CowArray::from(x.mapv(|v| v.to_f64().unwrap_or(f64::NAN))),
        };
        Ok(Self { kernel, x })
    }

    /// The rows `rows` as one problem's data.
    pub(crate) fn subset(&self, rows: Vec<usize>) -> Subset {
        // The rows of one problem are distinct, so as many as the data are a permutation.
        let all = rows.len() == self.x.nrows();
        let data = match self.kernel {
            _ if all => None,
            Some(_) => Some(self.x.select(Axis(0), &rows)),
            None => Some(self.x.select(Axis(0), &rows).select(Axis(1), &rows)),
        };
        Subset { rows, data }
    }

    /// Solves one dual on `sub` with a cache of `cache_mb`.
    pub(crate) fn solve(
        &self,
        sub: &Subset,
        form: Form,
        problem: Problem,
        settings: Settings,
        cache_mb: f64,
    ) -> Result<Solution> {
        let x: &ArrayRef2<f64> = match &sub.data {
            Some(d) => d,
            None => &self.x,
        };
        let prepared = match &self.kernel {
            Some(k) => PreparedKernel::new(k, x)?,
            None => PreparedKernel::precomputed(x)?,
        };
        let in_order = sub.rows.iter().enumerate().all(|(i, &r)| i == r);
        let mut rows = if sub.data.is_some() || in_order {
            KernelRows::new(prepared, cache_mb)
        } else {
            KernelRows::permuted(prepared, cache_mb, sub.rows.clone())
        };
        solver::solve(form, &mut rows, problem, settings)
    }

    /// `Σ_r c_r k(x_r, x_h) − ρ` for the held-out rows `held` of the training data, given
    /// `(row, coefficient)` pairs.
    pub(crate) fn decision_on_rows(
        &self,
        coef: &[(usize, f64)],
        rho: f64,
        held: &[usize],
    ) -> Result<Vec<f64>> {
        let sv: Vec<usize> = coef.iter().map(|&(r, _)| r).collect();
        let c = Array1::from_iter(coef.iter().map(|&(_, c)| c));
        let k = match &self.kernel {
            Some(kernel) => {
                let xh = self.x.select(Axis(0), held);
                let xs = self.x.select(Axis(0), &sv);
                kernel.cross_gram(&xh, &xs)?
            }
            None => self.x.select(Axis(0), held).select(Axis(1), &sv),
        };
        Ok(k.dot(&c).iter().map(|v| v - rho).collect())
    }

    /// The original rows `rows` (support vectors) in the element type of the model.
    pub(crate) fn rows_as<F: Float>(&self, rows: &[usize]) -> Array2<F> {
        self.x.select(Axis(0), rows).mapv(F::cast)
    }
}

/// Per-sample upper bounds `C · w_class · w_sample`, and the rows kept (libsvm drops the rows
/// of weight 0).
pub(crate) fn sample_bounds<F: Float>(
    c: f64,
    class_w: Option<(&[f64], &ArrayRef1<usize>)>,
    sample_weight: Option<&ArrayRef1<F>>,
    n: usize,
) -> (Vec<f64>, Vec<bool>) {
    let mut bounds = vec![c; n];
    if let Some((cw, y)) = class_w {
        for (b, &yi) in bounds.iter_mut().zip(y) {
            *b *= cw[yi];
        }
    }
    if let Some(w) = sample_weight {
        for (b, &wi) in bounds.iter_mut().zip(w) {
            *b *= wi.to_f64().unwrap_or(0.0);
        }
    }
    let keep = bounds.iter().map(|&b| b > 0.0).collect();
    (bounds, keep)
}

/// `K(x, sv)` for prediction: the cross-Gram through core (BLAS for dot-product kernels), or
/// `x` itself for a precomputed kernel (`m × n_train`, of which the support columns are taken).
pub(crate) fn cross_kernel<F: Float>(
    kernel: Option<&Kernel>,
    x: &ArrayRef2<F>,
    support_vectors: &Array2<F>,
    support: &[usize],
    n_train: usize,
    context: &'static str,
) -> Result<Array2<F>> {
    match kernel {
        Some(k) => k.cross_gram(x, support_vectors),
        None => {
            if x.ncols() != n_train {
                return Err(Error::ShapeMismatch {
                    context,
                    expected: format!(
                        "{n_train} columns (the training rows; kernel = precomputed)"
                    ),
                    found: format!("{}", x.ncols()),
                });
            }
            ndlearn_core::validate::check_finite_2d(x, "X")?;
            Ok(x.select(Axis(1), support))
        }
    }
}

/// A kernel stored in a fitted model (`None`: precomputed), valid and accepting `d` features,
/// a bad one reported as [`Error::InvalidModel`].
pub(crate) fn check_kernel(c: &ModelCheck, kernel: Option<&Kernel>, d: usize) -> Result<()> {
    match kernel {
        None => Ok(()),
        Some(k) => k
            .validate()
            .and_then(|()| k.check_n_features(d))
            .map_err(|e| c.error(format!("kernel: {e}"))),
    }
}

/// The kernel expansion of a fitted SVM: a valid kernel for `n_features ≥ 1` inputs (a
/// precomputed kernel takes rows of `n_train` Gram values), `support` rows below `n_train`
/// and one finite support vector of `n_features` values per support row.
pub(crate) fn check_expansion<F: Float>(
    c: &ModelCheck,
    kernel: Option<&Kernel>,
    n_features: usize,
    n_train: usize,
    support: &[usize],
    support_vectors: &Array2<F>,
) -> Result<()> {
    c.at_least("n_features", n_features, 1)?;
    c.at_least("n_train", n_train, 1)?;
    check_kernel(c, kernel, n_features)?;
    c.that(kernel.is_some() || n_features == n_train, || {
        format!("a precomputed kernel of {n_train} training rows with {n_features} columns")
    })?;
    c.indices_below("support", support, n_train)?;
    c.shape(
        "support_vectors",
        support_vectors.dim(),
        (support.len(), n_features),
    )?;
    c.finite("support_vectors", support_vectors)
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn expansions_need_matching_shapes_and_a_valid_kernel() {
        let c = ModelCheck::new("Test");
        let sv = array![[1.0, 2.0], [3.0, 4.0]];
        let rbf = Kernel::Rbf { gamma: 0.5 };
        assert!(check_expansion(&c, Some(&rbf), 2, 5, &[0, 4], &sv).is_ok());
        let invalid = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        assert!(invalid(check_expansion(&c, Some(&rbf), 2, 4, &[0, 4], &sv)));
        assert!(invalid(check_expansion(&c, Some(&rbf), 3, 5, &[0, 4], &sv)));
        let bad_gamma = Kernel::Rbf { gamma: -1.0 };
        assert!(invalid(check_expansion(
            &c,
            Some(&bad_gamma),
            2,
            5,
            &[0, 4],
            &sv
        )));
        // precomputed: rows of the n_train × n_train Gram matrix
        assert!(invalid(check_expansion(&c, None, 2, 5, &[0, 4], &sv)));
        assert!(check_expansion(&c, None, 2, 2, &[0, 1], &sv).is_ok());
    }
}
