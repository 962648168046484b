//! Gaussian naive Bayes ([`GaussianNB`], scikit-learn's `GaussianNB`; catalog G-03).
//!
//! # Model
//!
//! Features are independent given the class and Gaussian:
//! `log p(x | c) = Σ_j [−½ log(2π σ²_cj) − (x_j − μ_cj)² / (2σ²_cj)]`, with the MLE
//! (**biased**, `1/N_c`) variances of the course notes (Hastie, Tibshirani & Friedman, *The
//! Elements of Statistical Learning*, 2nd ed. (2009), §6.6.3). Gaussian NB is GDA with a
//! diagonal covariance (Murphy, *Machine Learning: A Probabilistic Perspective*, MIT Press
//! (2012), §4.2).
//!
//! **Variance smoothing** (scikit-learn's `var_smoothing`, not in the course notes): every variance
//! gets `ε = var_smoothing · max_j Var(x_j)` added (the largest *overall* feature variance of
//! the fitted data, biased), so a feature that is constant within a class does not give an
//! infinite density. With `var_smoothing = 0` such a feature makes the fit fail with a typed
//! error instead.
//!
//! **Sample weights** ([`GaussianNB::fit_weighted`]): weighted means, variances and class
//! counts (scikit-learn's `sample_weight`; `ε` stays unweighted, as there).
//!
//! **Streaming** ([`PartialFit`]): the per-class mean and variance are merged batch by batch
//! with Chan et al.'s pairwise update, so the result equals one fit on the concatenated data up
//! to rounding, except `ε`, which, as in scikit-learn, is recomputed from each new batch.
//!
//! ```
//! use ndlearn_bayes::GaussianNB;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict, PredictProba};
//!
//! let x = array![[1.0f64, 20.0], [1.2, 22.0], [0.8, 19.0], [3.0, 5.0], [3.3, 4.0], [2.9, 6.5]];
//! let model = GaussianNB::default().fit(&x, &array![0usize, 0, 0, 1, 1, 1])?;
//! assert_eq!(model.predict(&array![[1.1, 21.0], [3.1, 5.0]])?.to_vec(), vec![0, 1]);
//! let p = model.predict_proba(&array![[2.0, 12.0]])?;
//! assert!((p.sum() - 1.0).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::stats::mergeable::ClassMoments;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_fit_input, check_predict_input,
    check_sample_weight,
};
use ndlearn_core::{Error, Estimator, Fit, FitWeighted, Float, Labels, PartialFit, Result, par};

use crate::framework::{JointLogLikelihood, bayes_predict, check_priors, stream_classes};

/// Gaussian naive Bayes. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct GaussianNB {
    /// Class priors (default `None`: class frequencies).
    pub priors: Option<Vec<f64>>,
    /// Fraction of the largest feature variance added to every variance (default 1e-9).
    pub var_smoothing: f64,
    /// Number of classes for streaming fits (scikit-learn's `classes` at the first
    /// `partial_fit`); `None`: the largest label of the first batch + 1.
    pub n_classes: Option<usize>,
}

impl Default for GaussianNB {
    fn default() -> Self {
        Self {
            priors: None,
            var_smoothing: 1e-9,
            n_classes: None,
        }
    }
}

impl GaussianNB {
    ndlearn_core::setters! {
        /// Sets the class priors.
        priors: Option<Vec<f64>>,
        /// Sets `var_smoothing`.
        var_smoothing: f64,
        /// Sets the number of classes for streaming fits.
        n_classes: Option<usize>,
    }

    /// Fits from merged sufficient statistics (per-class weighted counts, means and squared
    /// deviations, overall variances): the model [`fit_weighted`](FitWeighted::fit_weighted)
    /// returns on the rows those statistics were read from, wherever they were read (row
    /// blocks on threads, partitions of a table on other machines). A fit computes through the
    /// same statistics.
    ///
    /// ```
    /// use ndarray::{array, s};
    /// use ndlearn_bayes::GaussianNB;
    /// use ndlearn_core::stats::mergeable::{ClassMoments, ClassSpec, Mergeable, RowBlock};
    /// use ndlearn_core::Fit;
    ///
    /// let x = array![[1.0f64, 2.0], [1.5, 1.8], [0.8, 2.6], [4.0, 5.0], [4.5, 4.2], [3.7, 4.9]];
    /// let y = array![0usize, 0, 1, 1, 1, 0];
    /// let spec = ClassSpec { n_classes: 2, n_features: 2 };
    /// let mut stats = ClassMoments::zero(&spec);
    /// for r in [0..4, 4..6] {
    ///     let part = ClassMoments::of(&spec, &RowBlock::new(x.slice(s![r.clone(), ..])).labels(y.slice(s![r])))?;
    ///     stats.merge(&part)?; // as a driver merges its executors' partial results
    /// }
    /// let merged = GaussianNB::default().fit_moments(&stats)?;
    /// let direct = GaussianNB::default().fit(&x, &y)?;
    /// assert!((merged.theta() - direct.theta()).iter().all(|v| v.abs() < 1e-12));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As a fit: invalid hyperparameters, no rows, every weight zero, a zero variance with
    /// `var_smoothing = 0`, overflowing variances.
    pub fn fit_moments<F: Float>(&self, stats: &ClassMoments<F>) -> Result<FittedGaussianNB<F>> {
        self.validate()?;
        if stats.n == 0 {
            return Err(Error::TooFewSamples {
                context: "GaussianNB::fit_moments",
                needed: 1,
                found: 0,
            });
        }
        if stats.count.sum() <= F::zero() {
            return Err(Error::invalid_param(
                "sample_weight",
                "the statistics carry no weight (every sample weight is zero)",
            ));
        }
        self.update_with(None, stats)
    }

    /// One streaming step (a fit is one step from nothing).
    fn update<F: Float>(
        &self,
        model: Option<FittedGaussianNB<F>>,
        x: &ArrayRef2<F>,
        y: &Labels,
        w: Option<&ArrayRef1<F>>,
        n_classes: usize,
    ) -> Result<FittedGaussianNB<F>> {
        self.validate()?;
        if let Some(w) = w {
            check_sample_weight(w, x.nrows())?;
        }
        // the batch's sufficient statistics: core's mergeable per-class moments
        let batch = ClassMoments::from_rows(x, y, w, n_classes);
        self.update_with(model, &batch)
    }

    /// Merges a batch's statistics into `model` (scikit-learn's `partial_fit` update: the
    /// batch's variance smoothing replaces the previous one).
    fn update_with<F: Float>(
        &self,
        model: Option<FittedGaussianNB<F>>,
        batch: &ClassMoments<F>,
    ) -> Result<FittedGaussianNB<F>> {
        let (n_classes, d) = batch.mean.dim();
        let batch_var = batch.var();
        let eps = F::cast(self.var_smoothing) * batch.max_overall_var();
        let mut m = match model {
            Some(m) => {
                if m.theta.ncols() != d {
                    return Err(Error::ShapeMismatch {
                        context: "GaussianNB::partial_fit: number of features",
                        expected: format!("{} features (as the first batch)", m.theta.ncols()),
                        found: format!("{d} features"),
                    });
                }
                m
            }
            None => FittedGaussianNB {
                params: self.clone(),
                theta: Array2::zeros((n_classes, d)),
                var: Array2::zeros((n_classes, d)),
                class_count: Array1::zeros(n_classes),
                class_prior: Array1::zeros(n_classes),
                epsilon: F::zero(),
            },
        };
        // as scikit-learn: take the (new) epsilon off before merging, add it back after
        m.var.mapv_inplace(|v| v - eps);
        for c in 0..n_classes {
            let n_new = batch.count[c];
            if n_new <= F::zero() {
                continue;
            }
            let n_past = m.class_count[c];
            if n_past == F::zero() {
                m.theta.row_mut(c).assign(&batch.mean.row(c));
                m.var.row_mut(c).assign(&batch_var.row(c));
            } else {
                let total = n_past + n_new;
                for j in 0..d {
                    let (mu_old, var_old) = (m.theta[[c, j]], m.var[[c, j]]);
                    let (mu_new, var_new) = (batch.mean[[c, j]], batch_var[[c, j]]);
                    let mu = (n_new * mu_new + n_past * mu_old) / total;
                    let ssd = n_past * var_old
                        + n_new * var_new
                        + (n_new * n_past / total) * (mu_old - mu_new) * (mu_old - mu_new);
                    m.theta[[c, j]] = mu;
                    m.var[[c, j]] = ssd / total;
                }
            }
            m.class_count[c] += n_new;
        }
        m.var.mapv_inplace(|v| v + eps);
        m.epsilon = eps;
        if !eps.is_finite() || m.var.iter().chain(m.theta.iter()).any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "x",
                "feature values too large: the class variances overflow; rescale the features",
            ));
        }
        if let Some((r, c)) = m
            .var
            .indexed_iter()
            .find(|&((c, _), &v)| m.class_count[c] > F::zero() && v <= F::zero())
            .map(|(ij, _)| ij)
        {
            return Err(Error::invalid_param(
                "var_smoothing",
                format!(
                    "feature {c} has zero variance in class {r}; use var_smoothing > 0 (the \
                     default 1e-9 adds a fraction of the largest feature variance)"
                ),
            ));
        }
        m.class_prior = match &self.priors {
            Some(p) => {
                check_priors(p, n_classes)?;
                p.iter().map(|&v| F::cast(v)).collect()
            }
            None => {
                let total: F = m.class_count.sum();
                m.class_count.mapv(|c| c / total)
            }
        };
        Ok(m)
    }
}

impl Estimator for GaussianNB {
    /// Checks `var_smoothing` (finite, `≥ 0`), the priors (finite, non-negative, summing to 1)
    /// and `n_classes ≥ 1`.
    fn validate(&self) -> Result<()> {
        crate::framework::check_smoothing("var_smoothing", self.var_smoothing)?;
        crate::framework::check_priors_values("priors", self.priors.as_deref())?;
        crate::framework::check_n_classes(self.n_classes)
    }
}

impl<F: Float> Fit<F> for GaussianNB {
    type Target = Labels;
    type Model = FittedGaussianNB<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for GaussianNB {
    /// Fits with per-sample weights (non-negative, finite, not all zero): weighted class
    /// counts, means and variances.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedGaussianNB<F>> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 1, "GaussianNB::fit")?;
        let n_classes = n_classes.max(self.n_classes.unwrap_or(0));
        self.update(None, x, y, sample_weight, n_classes)
    }
}

impl<F: Float> PartialFit<F> for GaussianNB {
    type Target = Labels;
    type Model = FittedGaussianNB<F>;

    /// Merges one batch (see the [module docs](self)). The first batch fixes the number of
    /// classes ([`GaussianNB::n_classes`], or its largest label + 1).
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &Labels,
    ) -> Result<Self::Model> {
        ndlearn_core::validate::check_target_len(x.nrows(), y.len(), "GaussianNB::partial_fit")?;
        check_fit_input(x, 1, "GaussianNB::partial_fit")?;
        let existing = model.as_ref().map(|m| m.class_count.len());
        let k = stream_classes(y, self.n_classes, existing)?;
        self.update(model, x, y, None, k)
    }
}

/// A fitted [`GaussianNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedGaussianNB<F: Float> {
    params: GaussianNB,
    theta: Array2<F>,
    var: Array2<F>,
    class_count: Array1<F>,
    class_prior: Array1<F>,
    epsilon: F,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedGaussianNB<F> {
    fn n_features_in(&self) -> usize {
        self.theta.ncols()
    }
}

impl<F: Float> FittedGaussianNB<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &GaussianNB {
        &self.params
    }
    /// Class means `μ_cj`, `n_classes × d` (scikit-learn's `theta_`).
    pub fn theta(&self) -> &Array2<F> {
        &self.theta
    }
    /// Class variances `σ²_cj + ε`, `n_classes × d` (scikit-learn's `var_`).
    pub fn var(&self) -> &Array2<F> {
        &self.var
    }
    /// Samples (summed weights) per class.
    pub fn class_count(&self) -> &Array1<F> {
        &self.class_count
    }
    /// Class priors.
    pub fn class_prior(&self) -> &Array1<F> {
        &self.class_prior
    }
    /// The variance smoothing `ε` added to every variance.
    pub fn epsilon(&self) -> F {
        self.epsilon
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedGaussianNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let (k, d) = self.theta.dim();
        check_predict_input(x, d, "GaussianNB: number of features")?;
        let two_pi = F::cast(2.0 * std::f64::consts::PI);
        let half = F::cast(0.5);
        let constant: Vec<F> = (0..k)
            .map(|c| {
                self.class_prior[c].ln()
                    - half
                        * self
                            .var
                            .row(c)
                            .iter()
                            .map(|&v| (two_pi * v).ln())
                            .sum::<F>()
            })
            .collect();
        let inv = self.var.mapv(|v| F::one() / v);
        let mut out = Array2::zeros((x.nrows(), k));
        par::for_each_row_chunk_mut(&mut out, 256, |rows, mut block| {
            for (r, mut orow) in block.rows_mut().into_iter().enumerate() {
                let q = x.row(rows.start + r);
                for (c, o) in orow.iter_mut().enumerate() {
                    if self.class_count[c] <= F::zero() {
                        // a class announced for streaming but not seen yet: no density
                        *o = F::neg_infinity();
                        continue;
                    }
                    let mut s = F::zero();
                    for ((&v, &m), &iv) in q.iter().zip(self.theta.row(c)).zip(inv.row(c)) {
                        s += (v - m) * (v - m) * iv;
                    }
                    *o = constant[c] - half * s;
                }
            }
        });
        Ok(out)
    }
}

bayes_predict!(FittedGaussianNB);

impl<F: Float> CheckModel for FittedGaussianNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedGaussianNB");
        c.params(&self.params)?;
        let (k, d) = self.theta.dim();
        c.at_least(
            "theta (classes)",
            k,
            self.params.n_classes.unwrap_or(1).max(1),
        )?;
        c.at_least("theta (features)", d, 1)?;
        c.finite("theta", &self.theta)?;
        c.shape("var", self.var.dim(), (k, d))?;
        c.len("class_count", self.class_count.len(), k)?;
        c.non_negative("class_count", &self.class_count)?;
        c.that(self.class_count.iter().any(|&n| n > F::zero()), || {
            "no class has a sample".into()
        })?;
        c.non_negative("var", &self.var)?;
        // the density of a class seen in training divides by its variances and takes their logs
        for (class, row) in self.var.rows().into_iter().enumerate() {
            c.that(
                self.class_count[class] <= F::zero() || row.iter().all(|&v| v > F::zero()),
                || format!("class {class}: the variances must be positive"),
            )?;
        }
        c.len("class_prior", self.class_prior.len(), k)?;
        c.non_negative("class_prior", &self.class_prior)?;
        if let Some(p) = &self.params.priors {
            c.len("priors (given)", p.len(), k)?;
        }
        crate::framework::non_negative_value(&c, "epsilon", self.epsilon)
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_zero_variance() {
        let x = array![
            [1.0f64, 2.0],
            [1.5, 1.8],
            [0.8, 2.6],
            [4.0, 5.0],
            [4.5, 4.2],
            [3.7, 4.9]
        ];
        let y = array![0usize, 0, 0, 1, 1, 1];
        let mut m = GaussianNB::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.var[[1, 0]] = 0.0;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn fit_from_merged_moments_equals_the_weighted_fit_for_any_partition() {
        use ndarray::{Array1, Array2, s};
        use ndlearn_core::stats::mergeable::{ClassSpec, Mergeable, RowBlock};
        let n = 50;
        let x = Array2::from_shape_fn((n, 3), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 + 30.0 * j as f64
        });
        let y = Array1::from_shape_fn(n, |i| (i * 31 % 7) % 3);
        let w = Array1::from_shape_fn(n, |i| 0.5 + (i % 4) as f64);
        let est = GaussianNB::default();
        let direct = est.fit_weighted(&x, &y, Some(&w)).expect("fit");
        let spec = ClassSpec {
            n_classes: 3,
            n_features: 3,
        };
        for parts in [1, 3, 7] {
            let mut stats = ClassMoments::zero(&spec);
            for p in 0..parts {
                let r = p * n / parts..(p + 1) * n / parts;
                let block = RowBlock::new(x.slice(s![r.clone(), ..]))
                    .labels(y.slice(s![r.clone()]))
                    .weights(w.slice(s![r]));
                stats
                    .merge(&ClassMoments::of(&spec, &block).expect("block"))
                    .expect("merge");
            }
            let merged = est.fit_moments(&stats).expect("fit");
            let close =
                |a: &Array2<f64>, b: &Array2<f64>| (a - b).iter().all(|v| v.abs() <= 1e-12 * 100.0);
            assert!(close(merged.theta(), direct.theta()), "{parts} parts");
            assert!(close(merged.var(), direct.var()), "{parts} parts");
            assert!((merged.epsilon() - direct.epsilon()).abs() < 1e-20);
            assert!(
                (merged.class_prior() - direct.class_prior())
                    .iter()
                    .all(|v| v.abs() < 1e-15)
            );
            if parts == 1 {
                assert_eq!(
                    merged, direct,
                    "one block computes exactly what fit computes"
                );
            }
        }
        let empty = ClassMoments::<f64>::zero(&spec);
        assert!(matches!(
            est.fit_moments(&empty),
            Err(Error::TooFewSamples { .. })
        ));
    }
}
