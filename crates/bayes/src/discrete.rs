//! Naive Bayes for counts and categories: [`MultinomialNB`], [`ComplementNB`],
//! [`BernoulliNB`], [`CategoricalNB`] (scikit-learn's classes of the same names; catalog G-03).
//!
//! # Models
//!
//! With class counts `N_c`, per-class feature totals `N_cj = Σ_{i: y_i = c} x_ij` and additive
//! (Lidstone) smoothing `α ≥ 0` (`α = 1`: Laplace):
//!
//! * **multinomial** (word counts): `θ_cj = (N_cj + α) / (Σ_j N_cj + α d)`,
//!   `log p(x | c) = Σ_j x_j log θ_cj` (up to the multinomial coefficient, equal for all
//!   classes);
//! * **complement** (Rennie et al., 2003): weights from the *other* classes,
//!   `w_cj = −log((Σ_{c'≠c} N_c'j + α) / Σ_j (Σ_{c'≠c} N_c'j + α))` (or, with `norm`, the
//!   normalised `log(...) / Σ_j log(...)`), `score_c(x) = Σ_j x_j w_cj` (priors are not used,
//!   except for a single class, as in scikit-learn);
//! * **Bernoulli** (binary features, after thresholding at `binarize`):
//!   `p_cj = (N_cj + α) / (N_c + 2α)`,
//!   `log p(x | c) = Σ_j [x_j log p_cj + (1 − x_j) log(1 − p_cj)]`;
//! * **categorical** (each feature a category code `0, 1, …`; the course notes' frequency
//!   estimates, as in Mitchell, *Machine Learning*, McGraw-Hill (1997), ch. 6):
//!   `P̂(x_j = v | c) = (N_cjv + α) / (N_c + α m_j)` with `m_j` the number of categories of
//!   feature `j`; `α = 0` gives the course notes' unsmoothed `#{x_j = v, y = c} / N_c`.
//!
//! Smoothing is an implementation choice the course notes do not make (catalog G-03 gap): with
//! `α = 0` an unseen value has probability 0, and a query with zero likelihood under every
//! class is a typed error (no class can be assigned).
//!
//! Class priors: the given `class_prior`, else `N_c / N` (`fit_prior`, default), else uniform.
//!
//! All four stream with [`PartialFit`]: the counts are sums, so batches give exactly the
//! counts of one fit.
//!
//! ```
//! use ndlearn_bayes::{CategoricalNB, MultinomialNB};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//!
//! let counts = array![[3.0f64, 0.0, 1.0], [2.0, 0.0, 0.0], [0.0, 4.0, 1.0], [0.0, 3.0, 2.0]];
//! let y = array![0usize, 0, 1, 1];
//! let model = MultinomialNB::default().fit(&counts, &y)?;
//! assert_eq!(model.predict(&array![[5.0, 1.0, 0.0]])?.to_vec(), vec![0]);
//!
//! // the course notes' 9-row fruit table: colour 0 red, 1 green, 2 yellow;
//! // class 0 apple, 1 banana, 2 cherry. Unsmoothed P̂(red | apple) = 3/5: the table has five
//! // apples (rows 1, 2, 4, 7, 9), three of them red (the course notes' text says 3/4, counting four)
//! let colour = array![[0.0f64], [1.0], [2.0], [0.0], [2.0], [0.0], [1.0], [2.0], [0.0]];
//! let fruit = array![0usize, 0, 1, 0, 1, 2, 0, 1, 0];
//! let nb = CategoricalNB::default().alpha(0.0).fit(&colour, &fruit)?;
//! assert!((nb.feature_log_prob()[0][[0, 0]].exp() - 0.6).abs() < 1e-15);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_fit_input, check_n_features,
};
use ndlearn_core::{Error, Fit, Float, Labels, PartialFit, Result, par};

use crate::framework::{
    JointLogLikelihood, bayes_predict, check_class_log_prior, check_log_probs, check_priors,
    stream_classes,
};

const CHUNK: usize = 4096;

/// Class counts and per-class feature sums of `x` (fixed row chunks, summed in order).
fn class_sums<F: Float>(x: &ArrayRef2<F>, y: &Labels, k: usize) -> (Array1<F>, Array2<F>) {
    let (n, d) = x.dim();
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut cnt = Array1::<F>::zeros(k);
        let mut sum = Array2::<F>::zeros((k, d));
        for i in r {
            let c = y[i];
            cnt[c] += F::one();
            let mut row = sum.row_mut(c);
            row += &x.row(i);
        }
        (cnt, sum)
    });
    let mut cnt = Array1::<F>::zeros(k);
    let mut sum = Array2::<F>::zeros((k, d));
    for (c, s) in parts {
        cnt += &c;
        sum += &s;
    }
    (cnt, sum)
}

fn check_alpha(alpha: f64) -> Result<()> {
    ndlearn_core::validate::check_non_negative("alpha", alpha)?;
    if !alpha.is_finite() {
        return Err(Error::invalid_param("alpha", "must be finite"));
    }
    Ok(())
}

fn check_non_negative_x<F: Float>(x: &ArrayRef2<F>, what: &str) -> Result<()> {
    if let Some(((r, c), _)) = x.indexed_iter().find(|(_, v)| **v < F::zero()) {
        return Err(Error::invalid_param(
            "x",
            format!("{what} needs non-negative features; row {r}, column {c} is negative"),
        ));
    }
    Ok(())
}

/// Class log priors from the settings and the counts.
fn class_log_prior<F: Float>(
    given: &Option<Vec<f64>>,
    fit_prior: bool,
    counts: &Array1<F>,
) -> Result<Array1<F>> {
    let k = counts.len();
    if let Some(p) = given {
        return Ok(check_priors(p, k)?.into_iter().map(F::cast).collect());
    }
    if fit_prior {
        let total: F = counts.sum();
        Ok(counts.mapv(|c| c.ln() - total.ln()))
    } else {
        Ok(Array1::from_elem(k, -F::cast(k as f64).ln()))
    }
}

macro_rules! count_nb_params {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[non_exhaustive]
        pub struct $name {
            /// Additive smoothing `α ≥ 0` (default 1: Laplace).
            pub alpha: f64,
            /// Estimate class priors from the data (default `true`); `false`: uniform.
            pub fit_prior: bool,
            /// Given class priors (default `None`); overrides `fit_prior`.
            pub class_prior: Option<Vec<f64>>,
            /// Number of classes for streaming fits; `None`: largest label of the first
            /// batch + 1.
            pub n_classes: Option<usize>,
        }

        impl ndlearn_core::Estimator for $name {
            /// Checks `alpha` (finite, `≥ 0`), the class priors and `n_classes ≥ 1`.
            fn validate(&self) -> Result<()> {
                check_alpha(self.alpha)?;
                crate::framework::check_priors_values("class_prior", self.class_prior.as_deref())?;
                crate::framework::check_n_classes(self.n_classes)
            }
        }

        impl $name {
            ndlearn_core::setters! {
                /// Sets `alpha`.
                alpha: f64,
                /// Sets `fit_prior`.
                fit_prior: bool,
                /// Sets the class priors.
                class_prior: Option<Vec<f64>>,
                /// Sets the number of classes for streaming fits.
                n_classes: Option<usize>,
            }
        }
    };
}

/// The counting state shared by the multinomial, complement and Bernoulli models.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Counts<F: Float> {
    class_count: Array1<F>,
    feature_count: Array2<F>,
}

impl<F: Float> Counts<F> {
    /// Adds one batch (already validated and transformed) to `prev`.
    fn add(prev: Option<Self>, x: &ArrayRef2<F>, y: &Labels, k: usize) -> Result<Self> {
        let (cc, fc) = class_sums(x, y, k);
        match prev {
            None => Ok(Self {
                class_count: cc,
                feature_count: fc,
            }),
            Some(mut p) => {
                check_n_features(
                    x.ncols(),
                    p.feature_count.ncols(),
                    "naive Bayes partial_fit: number of features",
                )?;
                p.class_count += &cc;
                p.feature_count += &fc;
                Ok(p)
            }
        }
    }
}

impl<F: Float> Counts<F> {
    /// `k ≥ 1` class counts and a `k × d` feature-count matrix (`d ≥ 1`), finite and `≥ 0`, at
    /// least `n_classes` classes; returns `(k, d)`.
    fn check(&self, c: &ModelCheck, n_classes: Option<usize>) -> Result<(usize, usize)> {
        let (k, d) = self.feature_count.dim();
        c.at_least(
            "class_count",
            self.class_count.len(),
            n_classes.unwrap_or(1).max(1),
        )?;
        c.len("feature_count (rows)", k, self.class_count.len())?;
        c.at_least("feature_count (columns)", d, 1)?;
        c.non_negative("class_count", &self.class_count)?;
        c.non_negative("feature_count", &self.feature_count)?;
        Ok((k, d))
    }
}

fn first_fit_classes(y: &Labels, x: &ArrayRef2<impl Float>, n: Option<usize>) -> Result<usize> {
    let k = check_classification_input(x, y, 1, "naive Bayes fit")?;
    Ok(k.max(n.unwrap_or(0)))
}

fn stream_check<F: Float>(
    x: &ArrayRef2<F>,
    y: &Labels,
    given: Option<usize>,
    existing: Option<usize>,
) -> Result<usize> {
    ndlearn_core::validate::check_target_len(x.nrows(), y.len(), "naive Bayes partial_fit")?;
    check_fit_input(x, 1, "naive Bayes partial_fit")?;
    stream_classes(y, given, existing)
}

/// `Fit` and `PartialFit` of a count model (non-negative features, summed counts, then the
/// model's own `finish`).
macro_rules! count_fit {
    ($name:ident, $fitted:ident) => {
        impl<F: Float> Fit<F> for $name {
            type Target = Labels;
            type Model = $fitted<F>;

            fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
                self.validate()?;
                let k = first_fit_classes(y, x, self.n_classes)?;
                check_non_negative_x(x, stringify!($name))?;
                self.finish(Counts::add(None, x, y, k)?)
            }
        }

        impl<F: Float> PartialFit<F> for $name {
            type Target = Labels;
            type Model = $fitted<F>;

            fn partial_fit(
                &self,
                model: Option<Self::Model>,
                x: &ArrayRef2<F>,
                y: &Labels,
            ) -> Result<Self::Model> {
                self.validate()?;
                let existing = model.as_ref().map(|m| m.counts.class_count.len());
                let k = stream_check(x, y, self.n_classes, existing)?;
                check_non_negative_x(x, stringify!($name))?;
                self.finish(Counts::add(model.map(|m| m.counts), x, y, k)?)
            }
        }
    };
}

// ------------------------------------------------------------------------------ multinomial

count_nb_params!(
    MultinomialNB,
    "Multinomial naive Bayes for count features. See the [module docs](self)."
);

impl Default for MultinomialNB {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            fit_prior: true,
            class_prior: None,
            n_classes: None,
        }
    }
}

impl MultinomialNB {
    fn finish<F: Float>(&self, counts: Counts<F>) -> Result<FittedMultinomialNB<F>> {
        let a = F::cast(self.alpha);
        let smoothed = counts.feature_count.mapv(|v| v + a);
        let totals = smoothed.sum_axis(Axis(1));
        let mut flp = smoothed.mapv(F::ln);
        for (mut row, &t) in flp.rows_mut().into_iter().zip(&totals) {
            row.mapv_inplace(|v| v - t.ln());
        }
        Ok(FittedMultinomialNB {
            class_log_prior: class_log_prior(
                &self.class_prior,
                self.fit_prior,
                &counts.class_count,
            )?,
            params: self.clone(),
            feature_log_prob: flp,
            counts,
        })
    }
}

count_fit!(MultinomialNB, FittedMultinomialNB);

/// A fitted [`MultinomialNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMultinomialNB<F: Float> {
    params: MultinomialNB,
    counts: Counts<F>,
    feature_log_prob: Array2<F>,
    class_log_prior: Array1<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedMultinomialNB<F> {
    fn n_features_in(&self) -> usize {
        self.feature_log_prob.ncols()
    }
}

impl<F: Float> FittedMultinomialNB<F> {
    /// `log θ_cj`, `n_classes × d` (scikit-learn's `feature_log_prob_`).
    pub fn feature_log_prob(&self) -> &Array2<F> {
        &self.feature_log_prob
    }
    /// `log π_c`.
    pub fn class_log_prior(&self) -> &Array1<F> {
        &self.class_log_prior
    }
    /// Per-class feature sums `N_cj`.
    pub fn feature_count(&self) -> &Array2<F> {
        &self.counts.feature_count
    }
    /// Samples per class.
    pub fn class_count(&self) -> &Array1<F> {
        &self.counts.class_count
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedMultinomialNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        ndlearn_core::validate::check_predict_input(
            x,
            self.feature_log_prob.ncols(),
            "MultinomialNB: number of features",
        )?;
        check_non_negative_x(x, "MultinomialNB")?;
        Ok(linear_jll(
            x,
            &self.feature_log_prob,
            Some(&self.class_log_prior),
        ))
    }
}

/// `X Wᵀ + b`, with `0 · (−∞) = 0` (a zero count of a feature the class never shows does
/// not count against it).
fn linear_jll<F: Float>(x: &ArrayRef2<F>, w: &Array2<F>, b: Option<&Array1<F>>) -> Array2<F> {
    let finite = w.iter().all(|v| v.is_finite());
    let mut out = if finite {
        ndlearn_core::linalg::matmul(x, &w.t())
    } else {
        let mut o = Array2::zeros((x.nrows(), w.nrows()));
        for (xr, mut orow) in x.rows().into_iter().zip(o.rows_mut()) {
            for (c, o) in orow.iter_mut().enumerate() {
                *o = xr
                    .iter()
                    .zip(w.row(c))
                    .filter(|&(&v, _)| v != F::zero())
                    .map(|(&v, &wv)| v * wv)
                    .sum();
            }
        }
        o
    };
    if let Some(b) = b {
        out += b;
    }
    out
}

bayes_predict!(FittedMultinomialNB);

impl<F: Float> CheckModel for FittedMultinomialNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMultinomialNB");
        c.params(&self.params)?;
        let (k, d) = self.counts.check(&c, self.params.n_classes)?;
        let prior = self.params.class_prior.as_deref();
        check_class_log_prior(&c, &self.class_log_prior, prior, k)?;
        c.shape("feature_log_prob", self.feature_log_prob.dim(), (k, d))?;
        check_log_probs(&c, "feature_log_prob", &self.feature_log_prob)
    }
}

// ------------------------------------------------------------------------------- complement

/// Complement naive Bayes (Rennie et al., 2003) for count features, robust to imbalanced
/// classes. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ComplementNB {
    /// Additive smoothing `α ≥ 0` (default 1).
    pub alpha: f64,
    /// Normalise the weights (default `false`, as scikit-learn).
    pub norm: bool,
    /// Estimate class priors from the data (used only with a single class; default `true`).
    pub fit_prior: bool,
    /// Given class priors (used only with a single class).
    pub class_prior: Option<Vec<f64>>,
    /// Number of classes for streaming fits.
    pub n_classes: Option<usize>,
}

impl ndlearn_core::Estimator for ComplementNB {
    /// Checks `alpha` (finite, `≥ 0`), the class priors and `n_classes ≥ 1`.
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        crate::framework::check_priors_values("class_prior", self.class_prior.as_deref())?;
        crate::framework::check_n_classes(self.n_classes)
    }
}

impl Default for ComplementNB {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            norm: false,
            fit_prior: true,
            class_prior: None,
            n_classes: None,
        }
    }
}

impl ComplementNB {
    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `norm`.
        norm: bool,
        /// Sets the number of classes for streaming fits.
        n_classes: Option<usize>,
    }

    fn finish<F: Float>(&self, counts: Counts<F>) -> Result<FittedComplementNB<F>> {
        let a = F::cast(self.alpha);
        let all = counts.feature_count.sum_axis(Axis(0));
        let mut comp = counts.feature_count.mapv(|v| -v);
        comp += &all;
        comp.mapv_inplace(|v| v + a);
        let totals = comp.sum_axis(Axis(1));
        let mut logged = comp;
        for (mut row, &t) in logged.rows_mut().into_iter().zip(&totals) {
            row.mapv_inplace(|v| (v / t).ln());
        }
        let flp = if self.norm {
            let sums = logged.sum_axis(Axis(1));
            let mut l = logged;
            for (mut row, &s) in l.rows_mut().into_iter().zip(&sums) {
                row.mapv_inplace(|v| v / s);
            }
            l
        } else {
            logged.mapv(|v| -v)
        };
        Ok(FittedComplementNB {
            class_log_prior: class_log_prior(
                &self.class_prior,
                self.fit_prior,
                &counts.class_count,
            )?,
            params: self.clone(),
            feature_log_prob: flp,
            counts,
        })
    }
}

count_fit!(ComplementNB, FittedComplementNB);

/// A fitted [`ComplementNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedComplementNB<F: Float> {
    params: ComplementNB,
    counts: Counts<F>,
    feature_log_prob: Array2<F>,
    class_log_prior: Array1<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedComplementNB<F> {
    fn n_features_in(&self) -> usize {
        self.feature_log_prob.ncols()
    }
}

impl<F: Float> FittedComplementNB<F> {
    /// The class weights `w_cj` (scikit-learn's `feature_log_prob_`).
    pub fn feature_log_prob(&self) -> &Array2<F> {
        &self.feature_log_prob
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedComplementNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        ndlearn_core::validate::check_predict_input(
            x,
            self.feature_log_prob.ncols(),
            "ComplementNB: number of features",
        )?;
        check_non_negative_x(x, "ComplementNB")?;
        // classes without training samples never win; the priors only count with a single
        // (present) class, as scikit-learn
        let counts = &self.counts.class_count;
        let present = counts.iter().filter(|&&c| c > F::zero()).count();
        let prior = (present == 1).then_some(&self.class_log_prior);
        let mut jll = linear_jll(x, &self.feature_log_prob, prior);
        for (c, &n) in counts.iter().enumerate() {
            if n == F::zero() {
                jll.column_mut(c).fill(F::neg_infinity());
            }
        }
        Ok(jll)
    }
}

bayes_predict!(FittedComplementNB);

impl<F: Float> CheckModel for FittedComplementNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedComplementNB");
        c.params(&self.params)?;
        let (k, d) = self.counts.check(&c, self.params.n_classes)?;
        let prior = self.params.class_prior.as_deref();
        check_class_log_prior(&c, &self.class_log_prior, prior, k)?;
        c.shape("feature_log_prob", self.feature_log_prob.dim(), (k, d))?;
        // complement weights are negated log-probabilities (+∞ for α = 0): NaN is the only
        // impossible value
        c.that(self.feature_log_prob.iter().all(|v| !v.is_nan()), || {
            "`feature_log_prob` holds NaN".into()
        })
    }
}

// -------------------------------------------------------------------------------- Bernoulli

/// Bernoulli naive Bayes for binary features. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BernoulliNB {
    /// Additive smoothing `α ≥ 0` (default 1).
    pub alpha: f64,
    /// Threshold: `x > binarize` is 1 (default `Some(0.0)`); `None`: the data is already 0/1.
    pub binarize: Option<f64>,
    /// Estimate class priors from the data (default `true`).
    pub fit_prior: bool,
    /// Given class priors.
    pub class_prior: Option<Vec<f64>>,
    /// Number of classes for streaming fits.
    pub n_classes: Option<usize>,
}

impl Default for BernoulliNB {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            binarize: Some(0.0),
            fit_prior: true,
            class_prior: None,
            n_classes: None,
        }
    }
}

impl BernoulliNB {
    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets the binarisation threshold.
        binarize: Option<f64>,
        /// Sets `fit_prior`.
        fit_prior: bool,
        /// Sets the class priors.
        class_prior: Option<Vec<f64>>,
        /// Sets the number of classes for streaming fits.
        n_classes: Option<usize>,
    }

    /// `x` as 0/1 (thresholded, or checked to be binary).
    fn binary<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        ndlearn_core::validate::check_finite_2d(x, "X")?;
        match self.binarize {
            Some(t) => {
                let t = F::cast(t);
                Ok(x.mapv(|v| if v > t { F::one() } else { F::zero() }))
            }
            None => {
                if let Some(((r, c), _)) = x
                    .indexed_iter()
                    .find(|(_, v)| **v != F::zero() && **v != F::one())
                {
                    return Err(Error::invalid_param(
                        "x",
                        format!(
                            "BernoulliNB with binarize = None needs 0/1 features; row {r}, \
                             column {c} is neither"
                        ),
                    ));
                }
                Ok(x.to_owned())
            }
        }
    }

    fn finish<F: Float>(&self, counts: Counts<F>) -> Result<FittedBernoulliNB<F>> {
        let a = F::cast(self.alpha);
        let two = F::cast(2.0);
        let mut flp = counts.feature_count.mapv(|v| (v + a).ln());
        for (mut row, &n) in flp.rows_mut().into_iter().zip(&counts.class_count) {
            let denom = (n + two * a).ln();
            row.mapv_inplace(|v| v - denom);
        }
        // log(1 − p) computed from the counts, exact where p is close to 1
        let mut neg = Array2::zeros(flp.dim());
        for (c, (mut nrow, frow)) in neg
            .rows_mut()
            .into_iter()
            .zip(counts.feature_count.rows())
            .enumerate()
        {
            let n = counts.class_count[c];
            for (o, &f) in nrow.iter_mut().zip(frow) {
                *o = (n - f + a).ln() - (n + two * a).ln();
            }
        }
        Ok(FittedBernoulliNB {
            class_log_prior: class_log_prior(
                &self.class_prior,
                self.fit_prior,
                &counts.class_count,
            )?,
            params: self.clone(),
            feature_log_prob: flp,
            neg_log_prob: neg,
            counts,
        })
    }
}

impl ndlearn_core::Estimator for BernoulliNB {
    /// Checks `alpha` (finite, `≥ 0`), the class priors and `n_classes ≥ 1`.
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        crate::framework::check_priors_values("class_prior", self.class_prior.as_deref())?;
        if let Some(t) = self.binarize
            && !t.is_finite()
        {
            return Err(Error::invalid_param("binarize", "must be finite"));
        }
        crate::framework::check_n_classes(self.n_classes)
    }
}

impl<F: Float> Fit<F> for BernoulliNB {
    type Target = Labels;
    type Model = FittedBernoulliNB<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let k = first_fit_classes(y, x, self.n_classes)?;
        let xb = self.binary(x)?;
        self.finish(Counts::add(None, &xb, y, k)?)
    }
}

impl<F: Float> PartialFit<F> for BernoulliNB {
    type Target = Labels;
    type Model = FittedBernoulliNB<F>;

    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &Labels,
    ) -> Result<Self::Model> {
        self.validate()?;
        let existing = model.as_ref().map(|m| m.counts.class_count.len());
        let k = stream_check(x, y, self.n_classes, existing)?;
        let xb = self.binary(x)?;
        self.finish(Counts::add(model.map(|m| m.counts), &xb, y, k)?)
    }
}

/// A fitted [`BernoulliNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBernoulliNB<F: Float> {
    params: BernoulliNB,
    counts: Counts<F>,
    feature_log_prob: Array2<F>,
    neg_log_prob: Array2<F>,
    class_log_prior: Array1<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedBernoulliNB<F> {
    fn n_features_in(&self) -> usize {
        self.feature_log_prob.ncols()
    }
}

impl<F: Float> FittedBernoulliNB<F> {
    /// `log p_cj`, `n_classes × d` (scikit-learn's `feature_log_prob_`).
    pub fn feature_log_prob(&self) -> &Array2<F> {
        &self.feature_log_prob
    }
    /// `log π_c`.
    pub fn class_log_prior(&self) -> &Array1<F> {
        &self.class_log_prior
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedBernoulliNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(
            x.ncols(),
            self.feature_log_prob.ncols(),
            "BernoulliNB: number of features",
        )?;
        let xb = self.params.binary(x)?;
        let (k, _) = self.feature_log_prob.dim();
        let finite = self.feature_log_prob.iter().all(|v| v.is_finite())
            && self.neg_log_prob.iter().all(|v| v.is_finite());
        if finite {
            // log P(c) + Σ_j log(1 − p_cj) + Σ_j x_j (log p_cj − log(1 − p_cj)): one GEMM
            let diff = &self.feature_log_prob - &self.neg_log_prob;
            let mut out = ndlearn_core::linalg::matmul(&xb, &diff.t());
            let base: Array1<F> = self
                .neg_log_prob
                .rows()
                .into_iter()
                .zip(&self.class_log_prior)
                .map(|(r, &p)| p + r.sum())
                .collect();
            for mut o in out.rows_mut() {
                o += &base;
            }
            return Ok(out);
        }
        // Σ_j x_j log p + (1 − x_j) log(1 − p), summed directly so that 0 · log 0 = 0 when α = 0
        let mut out = Array2::zeros((xb.nrows(), k));
        for (xr, mut orow) in xb.rows().into_iter().zip(out.rows_mut()) {
            for (c, o) in orow.iter_mut().enumerate() {
                let mut s = self.class_log_prior[c];
                for ((&v, &lp), &ln) in xr
                    .iter()
                    .zip(self.feature_log_prob.row(c))
                    .zip(self.neg_log_prob.row(c))
                {
                    s += if v == F::one() { lp } else { ln };
                }
                *o = s;
            }
        }
        Ok(out)
    }
}

bayes_predict!(FittedBernoulliNB);

impl<F: Float> CheckModel for FittedBernoulliNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBernoulliNB");
        c.params(&self.params)?;
        let (k, d) = self.counts.check(&c, self.params.n_classes)?;
        let prior = self.params.class_prior.as_deref();
        check_class_log_prior(&c, &self.class_log_prior, prior, k)?;
        c.shape("feature_log_prob", self.feature_log_prob.dim(), (k, d))?;
        check_log_probs(&c, "feature_log_prob", &self.feature_log_prob)?;
        c.shape("neg_log_prob", self.neg_log_prob.dim(), (k, d))?;
        check_log_probs(&c, "neg_log_prob", &self.neg_log_prob)
    }
}

// ------------------------------------------------------------------------------ categorical

/// Categorical naive Bayes: every feature is a category code `0, 1, 2, …`. See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CategoricalNB {
    /// Additive smoothing `α ≥ 0` (default 1; 0 gives the course notes' frequency estimates).
    pub alpha: f64,
    /// Estimate class priors from the data (default `true`).
    pub fit_prior: bool,
    /// Given class priors.
    pub class_prior: Option<Vec<f64>>,
    /// Minimum number of categories per feature (default `None`: one more than the largest
    /// code seen); codes seen later extend it in streaming fits.
    pub min_categories: Option<usize>,
    /// Number of classes for streaming fits.
    pub n_classes: Option<usize>,
}

impl Default for CategoricalNB {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            fit_prior: true,
            class_prior: None,
            min_categories: None,
            n_classes: None,
        }
    }
}

/// The largest category code accepted (a guard against unencoded data).
const MAX_CATEGORY: f64 = 1e6;

impl CategoricalNB {
    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `fit_prior`.
        fit_prior: bool,
        /// Sets the class priors.
        class_prior: Option<Vec<f64>>,
        /// Sets `min_categories`.
        min_categories: Option<usize>,
        /// Sets the number of classes for streaming fits.
        n_classes: Option<usize>,
    }

    fn add<F: Float>(
        &self,
        prev: Option<FittedCategoricalNB<F>>,
        x: &ArrayRef2<F>,
        y: &Labels,
        k: usize,
    ) -> Result<FittedCategoricalNB<F>> {
        self.validate()?;
        let codes = category_codes(x)?;
        let d = x.ncols();
        let (mut class_count, mut counts) = match prev {
            Some(p) => {
                check_n_features(
                    d,
                    p.category_count.len(),
                    "CategoricalNB: number of features",
                )?;
                (p.class_count, p.category_count)
            }
            None => {
                let m = self.min_categories.unwrap_or(0);
                (Array1::zeros(k), vec![Array2::zeros((k, m)); d])
            }
        };
        for (j, cc) in counts.iter_mut().enumerate() {
            let need = codes.column(j).iter().copied().max().map_or(0, |v| v + 1);
            if need > cc.ncols() {
                let mut grown = Array2::zeros((k, need));
                grown.slice_mut(ndarray::s![.., ..cc.ncols()]).assign(cc);
                *cc = grown;
            }
        }
        for (i, &c) in y.iter().enumerate() {
            class_count[c] += F::one();
            for (j, cc) in counts.iter_mut().enumerate() {
                cc[[c, codes[[i, j]]]] += F::one();
            }
        }
        let a = F::cast(self.alpha);
        let flp = counts
            .iter()
            .map(|cc| {
                let m = F::cast(cc.ncols() as f64);
                let mut l = cc.mapv(|v| (v + a).ln());
                for (mut row, tot) in l.rows_mut().into_iter().zip(cc.sum_axis(Axis(1))) {
                    let denom = (tot + a * m).ln();
                    row.mapv_inplace(|v| v - denom);
                }
                l
            })
            .collect();
        Ok(FittedCategoricalNB {
            class_log_prior: class_log_prior(&self.class_prior, self.fit_prior, &class_count)?,
            params: self.clone(),
            class_count,
            category_count: counts,
            feature_log_prob: flp,
        })
    }
}

/// Checks that every cell is a category code (a non-negative integer below 1e6).
fn category_codes<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<usize>> {
    ndlearn_core::validate::check_finite_2d(x, "X")?;
    let mut out = Array2::zeros(x.dim());
    for ((r, c), &v) in x.indexed_iter() {
        let f: f64 = v.as_();
        if f < 0.0 || f.fract() != 0.0 || f >= MAX_CATEGORY {
            return Err(Error::invalid_param(
                "x",
                format!(
                    "CategoricalNB needs category codes 0, 1, 2, … (encode the categories first); \
                     row {r}, column {c} is {f}"
                ),
            ));
        }
        out[[r, c]] = f as usize;
    }
    Ok(out)
}

impl ndlearn_core::Estimator for CategoricalNB {
    /// Checks `alpha` (finite, `≥ 0`), the class priors and `n_classes ≥ 1`.
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        crate::framework::check_priors_values("class_prior", self.class_prior.as_deref())?;
        if self.min_categories == Some(0) {
            return Err(Error::invalid_param("min_categories", "must be >= 1"));
        }
        crate::framework::check_n_classes(self.n_classes)
    }
}

impl<F: Float> Fit<F> for CategoricalNB {
    type Target = Labels;
    type Model = FittedCategoricalNB<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let k = first_fit_classes(y, x, self.n_classes)?;
        self.add(None, x, y, k)
    }
}

impl<F: Float> PartialFit<F> for CategoricalNB {
    type Target = Labels;
    type Model = FittedCategoricalNB<F>;

    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &Labels,
    ) -> Result<Self::Model> {
        let existing = model.as_ref().map(|m| m.class_count.len());
        let k = stream_check(x, y, self.n_classes, existing)?;
        self.add(model, x, y, k)
    }
}

/// A fitted [`CategoricalNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedCategoricalNB<F: Float> {
    params: CategoricalNB,
    class_count: Array1<F>,
    category_count: Vec<Array2<F>>,
    feature_log_prob: Vec<Array2<F>>,
    class_log_prior: Array1<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedCategoricalNB<F> {
    fn n_features_in(&self) -> usize {
        self.category_count.len()
    }
}

impl<F: Float> FittedCategoricalNB<F> {
    /// Per feature, `log P̂(x_j = v | c)` as an `n_classes × m_j` matrix.
    pub fn feature_log_prob(&self) -> &[Array2<F>] {
        &self.feature_log_prob
    }
    /// `log π_c`.
    pub fn class_log_prior(&self) -> &Array1<F> {
        &self.class_log_prior
    }
    /// Number of categories of each feature.
    pub fn n_categories(&self) -> Vec<usize> {
        self.category_count.iter().map(|c| c.ncols()).collect()
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedCategoricalNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(
            x.ncols(),
            self.feature_log_prob.len(),
            "CategoricalNB: number of features",
        )?;
        let codes = category_codes(x)?;
        let k = self.class_log_prior.len();
        let mut out = Array2::zeros((x.nrows(), k));
        for (i, (crow, mut orow)) in codes.rows().into_iter().zip(out.rows_mut()).enumerate() {
            orow.assign(&self.class_log_prior);
            for (j, (&v, flp)) in crow.iter().zip(&self.feature_log_prob).enumerate() {
                if v >= flp.ncols() {
                    return Err(Error::invalid_param(
                        "x",
                        format!(
                            "row {i}, feature {j}: category {v} was not seen at fit (feature has \
                             {} categories; set min_categories)",
                            flp.ncols()
                        ),
                    ));
                }
                orow += &flp.column(v);
            }
        }
        Ok(out)
    }
}

bayes_predict!(FittedCategoricalNB);

impl<F: Float> CheckModel for FittedCategoricalNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedCategoricalNB");
        c.params(&self.params)?;
        let k = self.class_count.len();
        c.at_least("class_count", k, self.params.n_classes.unwrap_or(1).max(1))?;
        c.non_negative("class_count", &self.class_count)?;
        let prior = self.params.class_prior.as_deref();
        check_class_log_prior(&c, &self.class_log_prior, prior, k)?;
        let d = self.category_count.len();
        c.at_least("category_count (features)", d, 1)?;
        c.len(
            "feature_log_prob (features)",
            self.feature_log_prob.len(),
            d,
        )?;
        let min_m = self.params.min_categories.unwrap_or(1);
        for (j, (cc, flp)) in self
            .category_count
            .iter()
            .zip(&self.feature_log_prob)
            .enumerate()
        {
            c.that(cc.nrows() == k && cc.ncols() >= min_m, || {
                format!("feature {j}: category counts are not {k} × (at least {min_m})")
            })?;
            c.non_negative("category_count", cc)?;
            c.shape("feature_log_prob", flp.dim(), cc.dim())?;
            check_log_probs(&c, "feature_log_prob", flp)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_fits_and_rejects_broken_states() {
        let x = array![
            [2.0f64, 0.0, 1.0],
            [1.0, 1.0, 0.0],
            [0.0, 3.0, 1.0],
            [0.0, 2.0, 2.0]
        ];
        let y = array![0usize, 0, 1, 1];
        let bad = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));

        let mut m = MultinomialNB::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.class_log_prior = array![f64::NAN, -0.5];
        assert!(bad(m.check_model()));

        let mut m = ComplementNB::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.counts.class_count = array![2.0];
        assert!(bad(m.check_model()));

        let xb = x.mapv(|v| f64::from(u8::from(v > 0.0)));
        let mut m = BernoulliNB::default().fit(&xb, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.neg_log_prob = m.neg_log_prob.t().to_owned();
        assert!(bad(m.check_model()));

        // category counts per feature: a feature with classes missing is caught
        let mut m = CategoricalNB::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.feature_log_prob[1] = m.feature_log_prob[1].slice(ndarray::s![..1, ..]).to_owned();
        assert!(bad(m.check_model()));
    }
}
