//! Mergeable sufficient statistics: the data pass of a fit as `zero`, `update` with a block of
//! rows, `merge` and a byte form.
//!
//! Many fits read the data only through statistics that add up over rows: the centred `XᵀX` and
//! `Xᵀy` of least squares, the per-class means and variances of Gaussian naive Bayes, the cluster
//! sums of a k-means round, the gradient of a log-likelihood at given weights. Each of them is a
//! [`Mergeable`] value here: start from [`Mergeable::zero`], feed blocks of rows with
//! [`Mergeable::update`], combine partial results with [`Mergeable::merge`], and ship a partial
//! result between processes with [`Mergeable::encode`] / [`Mergeable::decode`]. A fit then
//! solves its small problem from the merged statistics, wherever the blocks were read: one
//! block on one machine (the single-machine estimators compute through these types), row chunks
//! on threads, or partitions of a table on the executors of a distributed engine (Spark's
//! `treeAggregate` design).
//!
//! | type | statistics | used by |
//! |---|---|---|
//! | [`CrossMoments`] | row count, column means of `X` and `Y`, centred `X_cᵀY_c`, `‖y_c‖²`, optionally centred `X_cᵀX_c` | OLS, ridge, the lasso / elastic-net Gram path, Bayesian ridge, PCA's covariance solvers |
//! | [`ClassMoments`] | per-class (weighted) counts, means and sums of squared deviations, overall variances | Gaussian naive Bayes |
//! | [`ClassScatter`] | per-class (weighted) counts, means and full centred scatter matrices | linear discriminant analysis (lsqr, eigen) |
//! | [`KMeansStats`] | per-cluster sums and counts, inertia, for given centres | k-means (Lloyd's round) |
//! | [`KMeansSample`] | rows drawn with probability `ℓ D²(x) / φ`, each draw keyed by the row's id (so the sample does not depend on the blocks) | k-means‖ initialisation |
//! | [`GlmStats`] | value, gradient (and Hessian) of a pointwise loss of `Xw + b` at given `(w, b)` | logistic and other GLM fits by L-BFGS or Newton |
//! | [`SoftmaxStats`] | value, gradient (and Hessian) of the multinomial log-loss of `X Wᵀ + b` at given `(W, b)` | multinomial logistic regression by L-BFGS or Newton |
//!
//! # Merging centred moments
//!
//! Two partial results `(n_a, x̄_a, S_a)` and `(n_b, x̄_b, S_b)` of centred scatter
//! `S = Σ (x − x̄)(y − ȳ)ᵀ` combine as (Chan, Golub & LeVeque)
//!
//! ```text
//! n = n_a + n_b,  δx = x̄_b − x̄_a,  δy = ȳ_b − ȳ_a,
//! x̄ = x̄_a + (n_b / n) δx,
//! S = S_a + S_b + (n_a n_b / n) δx δyᵀ,
//! ```
//!
//! which never subtracts two large uncentred sums, so the merged statistics are as accurate as
//! those of one pass over all the rows. The merge laws hold up to rounding: merging with
//! `zero` returns the other operand bit for bit; associativity and commutativity hold within a
//! few ulps of the entries (property-tested in this module's tests).
//!
//! # Example
//!
//! ```
//! use ndarray::array;
//! use ndlearn_core::stats::mergeable::{CrossMoments, CrossSpec, Mergeable, RowBlock};
//!
//! let x = array![[1.0f64, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]];
//! let y = array![[1.0], [0.0], [3.0], [2.0]];
//! let spec = CrossSpec { n_features: 2, n_targets: 1, centred: true, gram: true };
//! // two "partitions", merged
//! let mut a = CrossMoments::zero(&spec);
//! a.update(&RowBlock::new(x.slice(ndarray::s![..2, ..])).targets(y.slice(ndarray::s![..2, ..])))?;
//! let mut b = CrossMoments::zero(&spec);
//! b.update(&RowBlock::new(x.slice(ndarray::s![2.., ..])).targets(y.slice(ndarray::s![2.., ..])))?;
//! a.merge(&b)?;
//! // one pass over everything
//! let mut all = CrossMoments::zero(&spec);
//! all.update(&RowBlock::new(x.view()).targets(y.view()))?;
//! assert_eq!(a.n, 4);
//! assert!((a.x_mean[0] - 2.5).abs() < 1e-15);
//! let (g, h) = (a.xtx.as_ref().expect("gram"), all.xtx.as_ref().expect("gram"));
//! assert!((g - h).iter().all(|v| v.abs() < 1e-12));
//! // shipped as bytes and back, bit for bit
//! let back = CrossMoments::<f64>::decode(&a.encode())?;
//! assert_eq!(back.xty, a.xty);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

mod bytes;
mod class;
mod glm;
pub mod kmeans;
mod moments;
mod sample;
mod scatter;
mod softmax;
#[cfg(test)]
mod tests;

pub use class::{ClassMoments, ClassSpec};
pub use glm::{GlmSpec, GlmStats};
pub use kmeans::{KMeansSpec, KMeansStats};
pub use moments::{CrossMoments, CrossSpec, centred_gram};
pub use sample::{KMeansSample, SampleSpec, keyed_uniform};
pub use scatter::ClassScatter;
pub use softmax::{SoftmaxSpec, SoftmaxStats};

use crate::{Error, Float, Result};
use ndarray::{ArrayView1, ArrayView2};

/// Statistics that add up over blocks of rows (see the [module docs](self)).
///
/// The laws, up to floating-point rounding: `zero ⊕ s = s ⊕ zero = s` (exactly),
/// `(a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)`, `a ⊕ b = b ⊕ a`, and updating with the rows of two blocks gives
/// the merge of the two updates. Statistics built from different specs do not merge (a typed
/// error).
pub trait Mergeable<F: Float>: Sized + Clone + Send + Sync {
    /// What fixes the shape of the statistics and the parameters they are computed at
    /// (dimensions, classes, centres, weights).
    type Spec: Clone + Send + Sync;

    /// The statistics of no rows.
    fn zero(spec: &Self::Spec) -> Self;

    /// Adds the rows of `block`. An empty block changes nothing.
    ///
    /// # Errors
    /// A block whose shape or contents do not fit the spec (wrong number of features, missing
    /// targets or labels, a label out of range, NaN or infinity).
    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()>;

    /// Merges the statistics of other rows into `self`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `other` was built from a different spec.
    fn merge(&mut self, other: &Self) -> Result<()>;

    /// Number of rows seen.
    fn n_rows(&self) -> u64;

    /// The statistics as bytes (little-endian, with a header naming the type; values stored as
    /// `f64`, exact for `f32` and `f64`).
    fn encode(&self) -> Vec<u8>;

    /// The statistics back from [`encode`](Mergeable::encode)'s bytes.
    ///
    /// # Errors
    /// [`Error::Parse`] for bytes of another type or version, truncated or inconsistent bytes.
    fn decode(bytes: &[u8]) -> Result<Self>;

    /// The statistics of one block: `zero(spec)` updated with `block`.
    ///
    /// # Errors
    /// As [`update`](Mergeable::update).
    fn of(spec: &Self::Spec, block: &RowBlock<'_, F>) -> Result<Self> {
        let mut s = Self::zero(spec);
        s.update(block)?;
        Ok(s)
    }

    /// Merges the parts in their order into `zero(spec)` (a sequential fold, so the result does
    /// not depend on how the parts were computed).
    ///
    /// # Errors
    /// As [`merge`](Mergeable::merge).
    fn merge_all<'a, I>(spec: &Self::Spec, parts: I) -> Result<Self>
    where
        I: IntoIterator<Item = &'a Self>,
        Self: 'a,
    {
        let mut acc = Self::zero(spec);
        for p in parts {
            acc.merge(p)?;
        }
        Ok(acc)
    }
}

/// A block of rows handed to [`Mergeable::update`]: the features and, as the statistics need
/// them, regression targets, class labels and sample weights (one entry per row each).
#[derive(Debug, Clone)]
pub struct RowBlock<'a, F> {
    /// Features, `n × d`.
    pub x: ArrayView2<'a, F>,
    /// Targets, `n × t` (regression, GLM losses).
    pub y: Option<ArrayView2<'a, F>>,
    /// Class labels in `0..n_classes`.
    pub labels: Option<ArrayView1<'a, usize>>,
    /// Non-negative sample weights.
    pub weights: Option<ArrayView1<'a, F>>,
}

impl<'a, F: Float> RowBlock<'a, F> {
    /// A block of features only.
    pub fn new(x: ArrayView2<'a, F>) -> Self {
        Self {
            x,
            y: None,
            labels: None,
            weights: None,
        }
    }

    /// With targets (`n × t`).
    #[must_use]
    pub fn targets(mut self, y: ArrayView2<'a, F>) -> Self {
        self.y = Some(y);
        self
    }

    /// With class labels.
    #[must_use]
    pub fn labels(mut self, labels: ArrayView1<'a, usize>) -> Self {
        self.labels = Some(labels);
        self
    }

    /// With sample weights.
    #[must_use]
    pub fn weights(mut self, w: ArrayView1<'a, F>) -> Self {
        self.weights = Some(w);
        self
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.x.nrows()
    }

    /// Checks the number of features and that every per-row input has one entry per row and is
    /// finite (weights also non-negative; their sum may be zero).
    fn check(&self, n_features: usize, context: &'static str) -> Result<()> {
        let n = self.x.nrows();
        if self.x.ncols() != n_features {
            return Err(Error::ShapeMismatch {
                context,
                expected: format!("{n_features} features"),
                found: format!("{} features", self.x.ncols()),
            });
        }
        let len_err = |what: &str, len: usize| Error::ShapeMismatch {
            context,
            expected: format!("{n} {what} (one per row)"),
            found: format!("{len}"),
        };
        if let Some(y) = &self.y {
            if y.nrows() != n {
                return Err(len_err("target rows", y.nrows()));
            }
            crate::validate::check_finite_2d(y, "y")?;
        }
        if let Some(l) = &self.labels
            && l.len() != n
        {
            return Err(len_err("labels", l.len()));
        }
        if let Some(w) = &self.weights {
            if w.len() != n {
                return Err(len_err("sample weights", w.len()));
            }
            // finite and non-negative; a block of zero weight is fine (its partition may be)
            crate::validate::check_finite_1d(w, "sample_weight")?;
            if let Some(i) = w.iter().position(|&v| v < F::zero()) {
                return Err(Error::invalid_param(
                    "sample_weight",
                    format!("weights must be non-negative; entry {i} is {}", w[i]),
                ));
            }
        }
        Ok(())
    }

    /// The class labels, or an error naming `context` when the block has none
    /// ([`Error::InvalidParam`]) or one is `≥ n_classes` ([`Error::InvalidLabel`]).
    fn require_labels(
        &self,
        n_classes: usize,
        context: &'static str,
    ) -> Result<ArrayView1<'a, usize>> {
        let Some(labels) = self.labels else {
            return Err(Error::invalid_param(
                "y",
                format!("{context} needs class labels in the row block"),
            ));
        };
        if let Some((index, &label)) = labels.iter().enumerate().find(|&(_, &l)| l >= n_classes) {
            return Err(Error::InvalidLabel {
                label,
                index,
                reason: format!("{context}: the statistics hold {n_classes} classes"),
            });
        }
        Ok(labels)
    }

    /// The targets, or an error naming `context` when the block has none or has not `t` columns.
    fn require_targets(&self, t: usize, context: &'static str) -> Result<ArrayView2<'a, F>> {
        match &self.y {
            Some(y) if y.ncols() == t => Ok(*y),
            Some(y) => Err(Error::ShapeMismatch {
                context,
                expected: format!("{t} target columns"),
                found: format!("{}", y.ncols()),
            }),
            None => Err(Error::invalid_param(
                "y",
                format!("{context} needs targets in the row block"),
            )),
        }
    }
}

/// The error for statistics built from different specs.
fn spec_mismatch(context: &'static str, expected: String, found: String) -> Error {
    Error::ShapeMismatch {
        context,
        expected,
        found,
    }
}
