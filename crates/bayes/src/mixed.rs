//! Naive Bayes with a density per feature and missing values ([`MixedNB`]; catalog G-03), and
//! the kernel-density classifier ([`KdeClassifier`]; catalog G-08).
//!
//! # MixedNB
//!
//! The naive Bayes log-likelihood decomposes per feature, so each feature may use its own model
//! ([`FeatureModel`]): Gaussian (MLE mean and biased variance), categorical frequencies
//! (optional smoothing `α`), Bernoulli, or a 1-D kernel density. This is the course notes'
//! mixed qualitative/quantitative classifier (Hastie, Tibshirani & Friedman, *The Elements of
//! Statistical Learning*, 2nd ed. (2009), §6.6.3, which also uses kernel densities per
//! feature).
//!
//! **Missing values.** A NaN cell is a missing feature: at fit it is left out of that
//! feature's estimates, and at prediction its factor is dropped from numerator and denominator
//! of Bayes' rule alike (the feature is marginalised out), i.e. the posterior is computed from
//! the observed features only. (`±∞` remains an error.)
//!
//! # KdeClassifier
//!
//! `p̂(x | c)` is a `d`-dimensional kernel density estimate on the rows of class `c`
//! (`ndlearn_core::stats::kde`: Gaussian, tophat or box kernel; fixed, Scott or Silverman
//! bandwidths, the latter the course notes' `(4/3)^{1/5} σ n^{−1/5}` in one dimension), combined with
//! the class priors. With a box kernel a query far from every class has density 0 under all of
//! them, and no class can be assigned (a typed error, as the course notes observe).
//!
//! ```
//! use ndlearn_bayes::{FeatureModel, MixedNB};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict, PredictProba};
//!
//! // exercise 2.2.1 of the course notes: weight in grams (Gaussian) and colour
//! // (categorical: 0 red, 1 yellow, 2 green); class 0 apple, 1 banana
//! let x = array![[162.0f64, 0.0], [186.0, 1.0], [112.0, 1.0], [142.0, 2.0], [128.0, 1.0]];
//! let y = array![0usize, 0, 1, 1, 1];
//! let nb = MixedNB::new(vec![FeatureModel::Gaussian, FeatureModel::Categorical])
//!     .alpha(0.0)
//!     .var_smoothing(0.0)
//!     .fit(&x, &y)?;
//! let p = nb.predict_proba(&array![[195.0, 1.0]])?;
//! assert!((p[[0, 0]] - 0.999998).abs() < 1e-6); // apple
//! // a missing weight: decided on the colour alone, P(yellow | c) π_c ∝ (1/2)(2/5), (2/3)(3/5)
//! let p = nb.predict_proba(&array![[f64::NAN, 1.0]])?;
//! assert!((p[[0, 0]] - 0.2 / 0.6).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::stats::kde::{Bandwidth, FittedKernelDensity, KdeKernel, KernelDensity};
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_n_features, check_predict_input,
};
use ndlearn_core::{Error, Estimator, Fit, FitUnsupervised, Float, Labels, Result};

use crate::framework::{
    JointLogLikelihood, bayes_predict, check_class_log_prior, check_log_probs, check_priors,
};

/// The class-conditional model of one feature of [`MixedNB`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum FeatureModel {
    /// Normal with the class mean and (biased) variance.
    #[default]
    Gaussian,
    /// Category codes `0, 1, 2, …` with smoothed frequencies.
    Categorical,
    /// 0/1 values with smoothed frequencies.
    Bernoulli,
    /// A one-dimensional kernel density estimate per class.
    Kde {
        /// The kernel.
        kernel: KdeKernel,
        /// The bandwidth or its rule.
        bandwidth: Bandwidth,
    },
}

/// Naive Bayes with one [`FeatureModel`] per feature and NaN as "missing". See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MixedNB {
    /// One model per feature, or a single model used for every feature (default
    /// `[Gaussian]`).
    pub features: Vec<FeatureModel>,
    /// Smoothing `α ≥ 0` of the categorical and Bernoulli frequencies (default 1; 0 gives the
    /// course notes' unsmoothed estimates).
    pub alpha: f64,
    /// Fraction of the largest Gaussian-feature variance added to the Gaussian variances
    /// (default 1e-9, as [`crate::GaussianNB`]).
    pub var_smoothing: f64,
    /// Class priors (default: class frequencies).
    pub priors: Option<Vec<f64>>,
}

impl Default for MixedNB {
    fn default() -> Self {
        Self::new(vec![FeatureModel::Gaussian])
    }
}

impl MixedNB {
    /// A model with the given per-feature models.
    pub fn new(features: Vec<FeatureModel>) -> Self {
        Self {
            features,
            alpha: 1.0,
            var_smoothing: 1e-9,
            priors: None,
        }
    }
    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `var_smoothing`.
        var_smoothing: f64,
        /// Sets the priors.
        priors: Option<Vec<f64>>,
    }
}

/// The fitted model of one feature: per class.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
enum FeatureFit<F: Float> {
    Gaussian {
        mean: Vec<F>,
        var: Vec<F>,
    },
    /// `log P(v | c)`, `n_classes × m`.
    Table {
        log_prob: Array2<F>,
        binary: bool,
    },
    Kde {
        kdes: Vec<FittedKernelDensity<F>>,
    },
}

fn code<F: Float>(v: F, binary: bool, r: usize, j: usize) -> Result<usize> {
    let f: f64 = v.as_();
    let ok = f >= 0.0 && f.fract() == 0.0 && f < 1e6 && (!binary || f <= 1.0);
    if !ok {
        return Err(Error::invalid_param(
            "x",
            format!(
                "row {r}, feature {j}: {f} is not a {} value",
                if binary {
                    "0/1"
                } else {
                    "category code (0, 1, 2, …)"
                }
            ),
        ));
    }
    Ok(f as usize)
}

fn check_no_infinity<F: Float>(x: &ArrayRef2<F>) -> Result<()> {
    if let Some(((row, col), _)) = x.indexed_iter().find(|(_, v)| v.is_infinite()) {
        return Err(Error::NonFinite {
            context: "X (NaN marks a missing value; ±∞ is not allowed)",
            row,
            col,
        });
    }
    Ok(())
}

/// A feature model's own parameters (a KDE bandwidth).
fn check_feature_model(m: &FeatureModel) -> Result<()> {
    match m {
        FeatureModel::Kde { kernel, bandwidth } => KernelDensity::default()
            .kernel(*kernel)
            .bandwidth(*bandwidth)
            .validate(),
        _ => Ok(()),
    }
}

impl Estimator for MixedNB {
    /// Checks `alpha` and `var_smoothing` (finite, `≥ 0`), at least one feature model with valid
    /// bandwidths, and the priors. (The number of models against the columns is checked at
    /// fit.)
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_non_negative("alpha", self.alpha)?;
        ndlearn_core::validate::check_non_negative("var_smoothing", self.var_smoothing)?;
        if self.features.is_empty() {
            return Err(Error::invalid_param(
                "features",
                "needs one feature model per column or a single one for all",
            ));
        }
        self.features.iter().try_for_each(check_feature_model)?;
        crate::framework::check_priors_values("priors", self.priors.as_deref())
    }
}

impl<F: Float> Fit<F> for MixedNB {
    type Target = Labels;
    type Model = FittedMixedNB<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let d = x.ncols();
        if self.features.len() != 1 && self.features.len() != d {
            return Err(Error::invalid_param(
                "features",
                format!(
                    "need one feature model per column ({d}) or a single one for all, got {}",
                    self.features.len()
                ),
            ));
        }
        check_no_infinity(x)?;
        // labels and shapes (NaN cells are allowed: check a NaN-free copy)
        let filled = x.mapv(|v| if v.is_nan() { F::zero() } else { v });
        let k = check_classification_input(&filled, y, 1, "MixedNB::fit")?;
        let model_of = |j: usize| self.features[if self.features.len() == 1 { 0 } else { j }];
        let mut counts = vec![0usize; k];
        for &c in y.iter() {
            counts[c] += 1;
        }
        // the largest variance among the Gaussian features, for var_smoothing
        let mut max_var = F::zero();
        for j in 0..d {
            if model_of(j) == FeatureModel::Gaussian {
                let vals: Vec<F> = x
                    .column(j)
                    .iter()
                    .copied()
                    .filter(|v| !v.is_nan())
                    .collect();
                if vals.len() > 1 {
                    let n = F::cast(vals.len() as f64);
                    let m = vals.iter().copied().sum::<F>() / n;
                    let v = vals.iter().map(|&t| (t - m) * (t - m)).sum::<F>() / n;
                    max_var = max_var.max(v);
                }
            }
        }
        let eps = F::cast(self.var_smoothing) * max_var;
        let a = F::cast(self.alpha);
        let mut fits = Vec::with_capacity(d);
        for j in 0..d {
            let model = model_of(j);
            let per_class: Vec<Vec<F>> = (0..k)
                .map(|c| {
                    x.column(j)
                        .iter()
                        .zip(y.iter())
                        .filter(|&(v, &l)| l == c && !v.is_nan())
                        .map(|(&v, _)| v)
                        .collect()
                })
                .collect();
            if let Some(c) = (0..k).find(|&c| counts[c] > 0 && per_class[c].is_empty()) {
                return Err(Error::invalid_param(
                    "x",
                    format!("feature {j} is missing (NaN) in every row of class {c}"),
                ));
            }
            let fit = match model {
                FeatureModel::Gaussian => {
                    let mut mean = vec![F::zero(); k];
                    let mut var = vec![F::one(); k];
                    for c in 0..k {
                        let v = &per_class[c];
                        if v.is_empty() {
                            continue;
                        }
                        let n = F::cast(v.len() as f64);
                        let m = v.iter().copied().sum::<F>() / n;
                        let s = v.iter().map(|&t| (t - m) * (t - m)).sum::<F>() / n + eps;
                        if s <= F::zero() || !s.is_finite() {
                            return Err(Error::invalid_param(
                                "var_smoothing",
                                format!(
                                    "feature {j} has variance {} in class {c}; use var_smoothing > 0 \
                                     or another feature model",
                                    s.to_f64().unwrap_or(f64::NAN)
                                ),
                            ));
                        }
                        mean[c] = m;
                        var[c] = s;
                    }
                    FeatureFit::Gaussian { mean, var }
                }
                FeatureModel::Categorical | FeatureModel::Bernoulli => {
                    let binary = model == FeatureModel::Bernoulli;
                    let mut codes = vec![Vec::new(); k];
                    for (i, (&v, &c)) in x.column(j).iter().zip(y.iter()).enumerate() {
                        if !v.is_nan() {
                            codes[c].push(code(v, binary, i, j)?);
                        }
                    }
                    let m = if binary {
                        2
                    } else {
                        codes.iter().flatten().copied().max().map_or(1, |v| v + 1)
                    };
                    let mut log_prob = Array2::zeros((k, m));
                    for c in 0..k {
                        let mut cnt = vec![F::zero(); m];
                        for &v in &codes[c] {
                            cnt[v] += F::one();
                        }
                        let denom = F::cast(codes[c].len() as f64) + a * F::cast(m as f64);
                        for (v, &n) in cnt.iter().enumerate() {
                            log_prob[[c, v]] = ((n + a) / denom).ln();
                        }
                    }
                    FeatureFit::Table { log_prob, binary }
                }
                FeatureModel::Kde { kernel, bandwidth } => {
                    let est = KernelDensity::default().kernel(kernel).bandwidth(bandwidth);
                    let kdes = per_class
                        .iter()
                        .map(|v| {
                            let col = Array1::from(if v.is_empty() {
                                vec![F::zero()]
                            } else {
                                v.clone()
                            });
                            est.fit_1d(&col)
                        })
                        .collect::<Result<Vec<_>>>()?;
                    FeatureFit::Kde { kdes }
                }
            };
            fits.push(fit);
        }
        let log_priors: Vec<F> = match &self.priors {
            Some(p) => check_priors(p, k)?.into_iter().map(F::cast).collect(),
            None => {
                let n = y.len() as f64;
                counts
                    .iter()
                    .map(|&c| F::cast((c as f64 / n).ln()))
                    .collect()
            }
        };
        Ok(FittedMixedNB {
            params: self.clone(),
            fits,
            log_priors,
        })
    }
}

/// A fitted [`MixedNB`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMixedNB<F: Float> {
    params: MixedNB,
    fits: Vec<FeatureFit<F>>,
    log_priors: Vec<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedMixedNB<F> {
    fn n_features_in(&self) -> usize {
        self.fits.len()
    }
}

impl<F: Float> FittedMixedNB<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &MixedNB {
        &self.params
    }
    /// Class log priors.
    pub fn log_priors(&self) -> &[F] {
        &self.log_priors
    }
    /// `log P̂(x_j = v | c)` of a categorical or Bernoulli feature `j` (`n_classes × m`).
    pub fn feature_log_prob(&self, j: usize) -> Option<&Array2<F>> {
        match self.fits.get(j) {
            Some(FeatureFit::Table { log_prob, .. }) => Some(log_prob),
            _ => None,
        }
    }
    /// Class means and variances of a Gaussian feature `j`.
    pub fn gaussian(&self, j: usize) -> Option<(&[F], &[F])> {
        match self.fits.get(j) {
            Some(FeatureFit::Gaussian { mean, var }) => Some((mean, var)),
            _ => None,
        }
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedMixedNB<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(x.ncols(), self.fits.len(), "MixedNB: number of features")?;
        check_no_infinity(x)?;
        let k = self.log_priors.len();
        let n = x.nrows();
        let mut out = Array2::zeros((n, k));
        for mut row in out.rows_mut() {
            for (o, &lp) in row.iter_mut().zip(&self.log_priors) {
                *o = lp;
            }
        }
        let half = F::cast(0.5);
        let ln2pi = F::cast((2.0 * std::f64::consts::PI).ln());
        for (j, fit) in self.fits.iter().enumerate() {
            match fit {
                FeatureFit::Gaussian { mean, var } => {
                    for (i, &v) in x.column(j).iter().enumerate() {
                        if v.is_nan() {
                            continue;
                        }
                        for c in 0..k {
                            let z = v - mean[c];
                            out[[i, c]] += -half * (ln2pi + var[c].ln()) - half * z * z / var[c];
                        }
                    }
                }
                FeatureFit::Table { log_prob, binary } => {
                    for (i, &v) in x.column(j).iter().enumerate() {
                        if v.is_nan() {
                            continue;
                        }
                        let code = code(v, *binary, i, j)?;
                        if code >= log_prob.ncols() {
                            return Err(Error::invalid_param(
                                "x",
                                format!(
                                    "row {i}, feature {j}: category {code} was not seen at fit"
                                ),
                            ));
                        }
                        for c in 0..k {
                            out[[i, c]] += log_prob[[c, code]];
                        }
                    }
                }
                FeatureFit::Kde { kdes } => {
                    let rows: Vec<usize> = (0..n).filter(|&i| !x[[i, j]].is_nan()).collect();
                    if rows.is_empty() {
                        continue;
                    }
                    let col = Array2::from_shape_fn((rows.len(), 1), |(r, _)| x[[rows[r], j]]);
                    for (c, kde) in kdes.iter().enumerate() {
                        let s = kde.score_samples(&col)?;
                        for (&i, &v) in rows.iter().zip(&s) {
                            out[[i, c]] += v;
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

bayes_predict!(FittedMixedNB);

/// A fitted density with the `kernel` over `d` features and finite positive bandwidths (its
/// training rows are private to core and not checked).
fn check_kde<F: Float>(
    c: &ModelCheck,
    kde: &FittedKernelDensity<F>,
    kernel: KdeKernel,
    d: usize,
) -> Result<()> {
    let h = kde.bandwidths();
    c.that(
        kde.kernel() == kernel
            && kde.n_features() == d
            && h.len() == d
            && h.iter().all(|v| v.is_finite() && *v > 0.0),
        || format!("a class density is not a {kernel:?} density over {d} features with positive bandwidths"),
    )
}

impl<F: Float> CheckModel for FittedMixedNB<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMixedNB");
        c.params(&self.params)?;
        let k = self.log_priors.len();
        c.at_least("log_priors", k, 1)?;
        let log_priors = Array1::from(self.log_priors.clone());
        check_class_log_prior(&c, &log_priors, self.params.priors.as_deref(), k)?;
        let d = self.fits.len();
        c.at_least("fits", d, 1)?;
        let models = &self.params.features;
        c.that(models.len() == 1 || models.len() == d, || {
            format!("{} feature models for {d} fitted features", models.len())
        })?;
        for (j, fit) in self.fits.iter().enumerate() {
            let model = models[if models.len() == 1 { 0 } else { j }];
            let ok = match (model, fit) {
                (FeatureModel::Gaussian, FeatureFit::Gaussian { mean, var }) => {
                    mean.len() == k
                        && var.len() == k
                        && mean.iter().all(|v| v.is_finite())
                        && var.iter().all(|v| v.is_finite() && *v > F::zero())
                }
                (
                    FeatureModel::Categorical | FeatureModel::Bernoulli,
                    FeatureFit::Table { log_prob, binary },
                ) => {
                    check_log_probs(&c, "log_prob", log_prob)?;
                    let m = log_prob.ncols();
                    *binary == (model == FeatureModel::Bernoulli)
                        && log_prob.nrows() == k
                        && m >= 1
                        && (!*binary || m == 2)
                }
                (FeatureModel::Kde { kernel, .. }, FeatureFit::Kde { kdes }) => {
                    c.len("kdes", kdes.len(), k)?;
                    kdes.iter()
                        .try_for_each(|kde| check_kde(&c, kde, kernel, 1))?;
                    true
                }
                _ => false,
            };
            c.that(ok, || {
                format!("feature {j}: the fitted model does not match {model:?} over {k} classes")
            })?;
        }
        Ok(())
    }
}

/// Kernel-density classifier: class priors times a `d`-dimensional KDE per class. See the
/// [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KdeClassifier {
    /// The kernel (default Gaussian).
    pub kernel: KdeKernel,
    /// The bandwidth or its rule (default Silverman, per class and dimension).
    pub bandwidth: Bandwidth,
}

impl KdeClassifier {
    ndlearn_core::setters! {
        /// Sets the kernel.
        kernel: KdeKernel,
        /// Sets the bandwidth.
        bandwidth: Bandwidth,
    }
}

impl Estimator for KdeClassifier {
    /// Checks the bandwidth (`> 0` for a fixed bandwidth or factor).
    fn validate(&self) -> Result<()> {
        check_feature_model(&FeatureModel::Kde {
            kernel: self.kernel,
            bandwidth: self.bandwidth,
        })
    }
}

impl<F: Float> Fit<F> for KdeClassifier {
    type Target = Labels;
    type Model = FittedKdeClassifier<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let k = check_classification_input(x, y, 1, "KdeClassifier::fit")?;
        let est = KernelDensity::default()
            .kernel(self.kernel)
            .bandwidth(self.bandwidth);
        let mut kdes = Vec::with_capacity(k);
        let mut log_priors = Vec::with_capacity(k);
        for c in 0..k {
            let idx: Vec<usize> = (0..y.len()).filter(|&i| y[i] == c).collect();
            if idx.is_empty() {
                kdes.push(None);
                log_priors.push(F::neg_infinity());
                continue;
            }
            let rows = x.select(ndarray::Axis(0), &idx);
            kdes.push(Some(est.fit(&rows)?));
            log_priors.push(F::cast((idx.len() as f64 / y.len() as f64).ln()));
        }
        Ok(FittedKdeClassifier {
            params: *self,
            kdes,
            log_priors,
            n_features: x.ncols(),
        })
    }
}

/// A fitted [`KdeClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKdeClassifier<F: Float> {
    params: KdeClassifier,
    kdes: Vec<Option<FittedKernelDensity<F>>>,
    log_priors: Vec<F>,
    n_features: usize,
}

impl<F: Float> FittedKdeClassifier<F> {
    /// The fitted density of each class (`None` for a class without training rows), whose
    /// [`bandwidths`](FittedKernelDensity::bandwidths) are the per-feature `h_j` the rule gave
    /// on that class's rows.
    pub fn class_densities(&self) -> &[Option<FittedKernelDensity<F>>] {
        &self.kdes
    }

    /// `ln π_c = ln(n_c / n)` per class (`−∞` for a class without rows).
    pub fn class_log_prior(&self) -> &[F] {
        &self.log_priors
    }
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKdeClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedKdeClassifier<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.n_features, "KdeClassifier: number of features")?;
        let mut out = Array2::from_elem((x.nrows(), self.kdes.len()), F::neg_infinity());
        for (c, kde) in self.kdes.iter().enumerate() {
            if let Some(kde) = kde {
                let s = kde.score_samples(x)?;
                for (o, &v) in out.column_mut(c).iter_mut().zip(&s) {
                    *o = v + self.log_priors[c];
                }
            }
        }
        Ok(out)
    }
}

bayes_predict!(FittedKdeClassifier);

impl<F: Float> CheckModel for FittedKdeClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKdeClassifier");
        c.params(&self.params)?;
        let (k, d) = (self.kdes.len(), self.n_features);
        c.at_least("kdes", k, 1)?;
        c.at_least("n_features", d, 1)?;
        c.len("log_priors", self.log_priors.len(), k)?;
        c.that(self.kdes.iter().any(Option::is_some), || {
            "no class has a density".into()
        })?;
        for (kde, &lp) in self.kdes.iter().zip(&self.log_priors) {
            if let Some(kde) = kde {
                check_kde(&c, kde, self.params.kernel, d)?;
                c.that(lp < F::infinity(), || "`log_priors` holds NaN or +∞".into())?;
            }
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
            [1.0f64, 0.0, 2.0],
            [1.5, 1.0, 1.0],
            [0.8, 0.0, 0.0],
            [4.0, 1.0, 2.0],
            [4.5, 1.0, 1.0],
            [3.7, 0.0, 2.0]
        ];
        let y = array![0usize, 0, 0, 1, 1, 1];
        let bad = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let kde = FeatureModel::Kde {
            kernel: KdeKernel::Gaussian,
            bandwidth: Bandwidth::default(),
        };
        let features = vec![FeatureModel::Gaussian, FeatureModel::Bernoulli, kde];
        let mut m = MixedNB::new(features).fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.fits[0] = FeatureFit::Gaussian {
            mean: vec![1.0],
            var: vec![1.0],
        };
        assert!(bad(m.check_model()));

        let mut m = KdeClassifier::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        m.log_priors.pop();
        assert!(bad(m.check_model()));
    }
}
