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
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_fit_input, check_predict_input,
    check_sample_weight,
};
use ndlearn_core::{Error, Estimator, Fit, FitWeighted, Float, Labels, PartialFit, Result, par};

use crate::framework::{JointLogLikelihood, bayes_predict, check_priors, stream_classes};

/// Rows per parallel task of the statistics passes (fixed: results do not depend on threads).
const CHUNK: usize = 4096;

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
        let d = x.ncols();
        let batch = class_stats(x, y, w, n_classes);
        let eps = F::cast(self.var_smoothing) * batch.max_overall_var;
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
                m.var.row_mut(c).assign(&batch.var.row(c));
            } else {
                let total = n_past + n_new;
                for j in 0..d {
                    let (mu_old, var_old) = (m.theta[[c, j]], m.var[[c, j]]);
                    let (mu_new, var_new) = (batch.mean[[c, j]], batch.var[[c, j]]);
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

/// Per-class statistics of one batch.
struct Stats<F> {
    count: Array1<F>,
    mean: Array2<F>,
    var: Array2<F>,
    /// The largest (unweighted, biased) overall feature variance of the batch.
    max_overall_var: F,
}

/// Per-class (weighted) means and variances in two passes over fixed row chunks, summed in
/// chunk order (deterministic for any thread count).
fn class_stats<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    w: Option<&ArrayRef1<F>>,
    k: usize,
) -> Stats<F> {
    let (n, d) = x.dim();
    let weight = |i: usize| w.map_or(F::one(), |w| w[i]);
    // pass 1: weighted sums, plus unweighted counts and sums for the overall variance
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut cnt = vec![F::zero(); k];
        let mut ucnt = vec![0usize; k];
        let mut sum = Array2::<F>::zeros((k, d));
        let mut usum = Array2::<F>::zeros((k, d));
        for i in r {
            let c = y[i];
            let wi = weight(i);
            cnt[c] += wi;
            ucnt[c] += 1;
            let row = x.row(i);
            for ((s, u), &v) in sum.row_mut(c).iter_mut().zip(usum.row_mut(c)).zip(row) {
                *s += wi * v;
                *u += v;
            }
        }
        (cnt, ucnt, sum, usum)
    });
    let mut count = Array1::<F>::zeros(k);
    let mut ucount = vec![0usize; k];
    let mut sum = Array2::<F>::zeros((k, d));
    let mut usum = Array2::<F>::zeros((k, d));
    for (c, u, s, us) in parts {
        for (a, b) in count.iter_mut().zip(c) {
            *a += b;
        }
        for (a, b) in ucount.iter_mut().zip(u) {
            *a += b;
        }
        sum += &s;
        usum += &us;
    }
    let mut mean = sum;
    for (c, mut row) in mean.rows_mut().into_iter().enumerate() {
        if count[c] > F::zero() {
            row.mapv_inplace(|v| v / count[c]);
        }
    }
    let overall_mean: Array1<F> = usum
        .sum_axis(ndarray::Axis(0))
        .mapv(|v| v / F::cast(n as f64));
    // pass 2: weighted squared deviations from the class means, and unweighted ones from the
    // overall means
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut ssd = Array2::<F>::zeros((k, d));
        let mut overall = Array1::<F>::zeros(d);
        for i in r {
            let c = y[i];
            let wi = weight(i);
            let row = x.row(i);
            for (((s, o), &v), (&m, &om)) in ssd
                .row_mut(c)
                .iter_mut()
                .zip(overall.iter_mut())
                .zip(row)
                .zip(mean.row(c).iter().zip(&overall_mean))
            {
                *s += wi * (v - m) * (v - m);
                *o += (v - om) * (v - om);
            }
        }
        (ssd, overall)
    });
    let mut var = Array2::<F>::zeros((k, d));
    let mut overall = Array1::<F>::zeros(d);
    for (s, o) in parts {
        var += &s;
        overall += &o;
    }
    for (c, mut row) in var.rows_mut().into_iter().enumerate() {
        if count[c] > F::zero() {
            row.mapv_inplace(|v| v / count[c]);
        }
    }
    let max_overall_var = overall
        .iter()
        .map(|&v| v / F::cast(n as f64))
        .fold(F::zero(), F::max);
    Stats {
        count,
        mean,
        var,
        max_overall_var,
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
}
