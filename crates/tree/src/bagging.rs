//! Bagging over any estimator: [`BaggingClassifier`] (majority vote) and [`BaggingRegressor`]
//! (average), with bootstrap rows and/or random feature subsets, out-of-bag estimates and the
//! course notes' out-of-bag permutation importance. Random-subspace ensembles are the special case
//! without row sampling ([`BaggingClassifier::random_subspace`]).
//!
//! # Algorithm (catalog T-08, T-13, T-14)
//!
//! Member `b = 1..B` (`n_estimators`) is fitted on `m` rows (`max_samples`, default `n`) drawn
//! with replacement (`bootstrap`, default) or without, restricted to `k` features
//! (`max_features`, default all) drawn without replacement (or with, `bootstrap_features`), and
//! the ensemble predicts
//!
//! ```text
//! classifier:  ŷ(x) = argmax_c Σ_b 1[T_b(x) = c]        (majority vote, ties to the lower class)
//! regressor:   ŷ(x) = (1/B) Σ_b T_b(x)                  (f̂_bag of the course notes)
//! ```
//!
//! A bootstrap sample holds about `1 − e⁻¹ ≈ 63.2 %` distinct rows, so every member leaves about
//! `36.8 %` out of its bag. With `oob_score`, each row is predicted by the members that did not
//! see it: the accuracy (classifier) or R² (regressor) of those out-of-bag predictions
//! estimates the test error without a validation set (rows no member left out count with an
//! empty vote / a prediction of 0, as scikit-learn's).
//! [`FittedBaggingClassifier::oob_permutation_importance`] is the course notes' (and Breiman's)
//! importance: for every member, the increase of its error on its own out-of-bag rows when one
//! feature's values are permuted among those rows, averaged over the members.
//!
//! Random subspaces (Ho 1998): `bootstrap = false` with `max_features < d`, every member sees
//! all rows but only its features ([`BaggingClassifier::random_subspace`],
//! [`BaggingRegressor::random_subspace`]). Random patches: both samplings at once.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `estimator` | a decision tree (full depth) | `estimator` | any estimator of the right kind |
//! | `n_estimators` | 10 | `n_estimators` | `≥ 1` |
//! | `max_samples` | `None` (= `n`) | `max_samples` | count `1..=n` (up to `n` without bootstrap) or fraction `> 0` (`max(⌊f·n⌋, 1)`) |
//! | `max_features` | `Fraction(1.0)` | `max_features` | count `1..=d` or fraction in `(0, 1]` (`max(⌊f·d⌋, 1)`) |
//! | `bootstrap` | `true` | `bootstrap` | |
//! | `bootstrap_features` | `false` | `bootstrap_features` | |
//! | `oob_score` | `false` | `oob_score` | needs `bootstrap` |
//! | `seed` | 0 | `random_state` | |
//!
//! Differences from scikit-learn: `predict` is the course notes' majority vote for every base
//! estimator (scikit-learn averages `predict_proba` when the base has it; for fully grown trees,
//! whose probabilities are 0/1, the two are the same), and `predict_proba` gives the vote
//! fractions; [`FittedBaggingClassifier::predict_proba_mean`] is scikit-learn's soft rule. With
//! sample weights, rows are drawn uniformly and the members fitted with the drawn rows'
//! weights (scikit-learn ≥ 1.9 draws rows in proportion to the weights instead).
//!
//! # Threads and determinism
//!
//! Member `b` draws its features and rows from `random::stream(seed, b)`; members are fitted
//! and evaluated in parallel on the caller's rayon pool and combined in member order, so models,
//! predictions and importances are bitwise identical for any thread count (given a
//! deterministic base estimator).
//!
//! # Errors
//!
//! As the base estimator; `n_estimators = 0`; `max_samples` / `max_features` out of range;
//! `oob_score` without `bootstrap`; at predict time a feature count different from the fit.
//!
//! # References
//!
//! - L. Breiman, "Bagging predictors", Machine Learning 24(2), 1996; "Random forests", 2001
//!   (out-of-bag permutation importance).
//! - T. K. Ho, "The random subspace method for constructing decision forests", IEEE TPAMI
//!   20(8), 1998.
//! - scikit-learn's `BaggingClassifier` and `BaggingRegressor`.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::{BaggingClassifier, DecisionTreeClassifier};
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! let bag = BaggingClassifier::new(DecisionTreeClassifier::default())
//!     .n_estimators(20)
//!     .oob_score(true)
//!     .fit(data.x(), y)?;
//! assert!(bag.oob_score().expect("oob") > 0.9);
//! let imp = bag.oob_permutation_importance(data.x(), y, 2, 0)?;
//! assert_eq!(imp.importances_mean.len(), 30);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::model_selection::PermutationImportance;
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, Fit, FitWeighted, Float, NFeaturesIn, Predict, PredictProba, Result, par,
    random, validate,
};

use crate::classifier::DecisionTreeClassifier;
use crate::common::{argmax, r2, validate_max_samples};
use crate::params::SampleCount;
use crate::regressor::DecisionTreeRegressor;

/// The sampling settings shared by both bagging estimators.
#[derive(Debug, Clone, Copy)]
struct Sampling {
    n_estimators: usize,
    max_samples: Option<SampleCount>,
    max_features: SampleCount,
    bootstrap: bool,
    bootstrap_features: bool,
    oob_score: bool,
    seed: u64,
}

/// What member `b` was fitted on.
struct Draw {
    rows: Vec<usize>,
    features: Vec<usize>,
}

impl Sampling {
    fn validate(&self) -> Result<()> {
        validate::check_at_least("n_estimators", self.n_estimators, 1)?;
        if self.oob_score && !self.bootstrap {
            return Err(Error::invalid_param(
                "oob_score",
                "the out-of-bag estimate needs bootstrap = true",
            ));
        }
        validate_max_samples(self.max_samples)?;
        self.max_features.validate("max_features", 1, 1.0, true)
    }

    /// `(m, k)`: rows and features per member for `n` rows and `d` features.
    fn sizes(&self, n: usize, d: usize) -> Result<(usize, usize)> {
        let m = match self.max_samples {
            None => n,
            Some(SampleCount::Count(c)) => c,
            Some(SampleCount::Fraction(f)) => ((f * n as f64) as usize).max(1),
        };
        if !self.bootstrap && m > n {
            return Err(Error::invalid_param(
                "max_samples",
                format!("{m} rows cannot be drawn without replacement from {n}"),
            ));
        }
        let k = match self.max_features {
            SampleCount::Count(c) => c,
            SampleCount::Fraction(f) => ((f * d as f64) as usize).max(1),
        };
        if k > d {
            return Err(Error::invalid_param(
                "max_features",
                format!("{k} features requested; the data has {d}"),
            ));
        }
        Ok((m, k))
    }

    /// Member `b`'s features (sorted) and rows, from `random::stream(seed, b)`.
    fn draw(&self, b: usize, n: usize, d: usize, m: usize, k: usize) -> Result<Draw> {
        let mut rng = random::stream(self.seed, b as u64);
        let mut features = if self.bootstrap_features {
            random::sample_with_replacement(&mut rng, d, k)?
        } else if k == d {
            (0..d).collect()
        } else {
            random::sample_without_replacement(&mut rng, d, k)?
        };
        features.sort_unstable();
        let rows = if self.bootstrap {
            random::sample_with_replacement(&mut rng, n, m)?
        } else if m == n {
            (0..n).collect()
        } else {
            random::sample_without_replacement(&mut rng, n, m)?
        };
        Ok(Draw { rows, features })
    }
}

/// `x[rows, features]` as an owned matrix.
fn gather<F: Float>(x: &ArrayRef2<F>, rows: &[usize], features: &[usize]) -> Array2<F> {
    Array2::from_shape_fn((rows.len(), features.len()), |(i, j)| {
        x[[rows[i], features[j]]]
    })
}

/// The rows of `0..n` not in `rows`, ascending.
fn out_of_bag(rows: &[usize], n: usize) -> Vec<usize> {
    let mut seen = vec![false; n];
    rows.iter().for_each(|&i| seen[i] = true);
    (0..n).filter(|&i| !seen[i]).collect()
}

/// The fitted members and their features.
struct Members<M> {
    models: Vec<M>,
    features: Vec<Vec<usize>>,
}

/// Fits the members in parallel: member `b` on its draw, through `fit_one(x_b, rows_b)`.
fn fit_members<F, M, G>(s: &Sampling, x: &ArrayRef2<F>, fit_one: G) -> Result<Members<M>>
where
    F: Float,
    M: Send,
    G: Fn(&Array2<F>, &[usize]) -> Result<M> + Sync + Send,
{
    let (n, d) = x.dim();
    let (m, k) = s.sizes(n, d)?;
    let fitted = par::try_map_tasks(s.n_estimators, |b| {
        let draw = s.draw(b, n, d, m, k)?;
        let xb = gather(x, &draw.rows, &draw.features);
        Ok((fit_one(&xb, &draw.rows)?, draw.features))
    })?;
    let (models, features) = fitted.into_iter().unzip();
    Ok(Members { models, features })
}

/// Each member's predictions on `x` (only its features), in member order.
fn member_outputs<F, M, T, G>(
    models: &[M],
    features: &[Vec<usize>],
    x: &ArrayRef2<F>,
    rows: Option<&[usize]>,
    predict: G,
) -> Result<Vec<T>>
where
    F: Float,
    M: Sync,
    T: Send,
    G: Fn(&M, &ArrayRef2<F>) -> Result<T> + Sync + Send,
{
    let all_rows: Vec<usize>;
    let rows = match rows {
        Some(r) => r,
        None => {
            all_rows = (0..x.nrows()).collect();
            &all_rows
        }
    };
    par::try_map_tasks(models.len(), |b| {
        let f = &features[b];
        if rows.len() == x.nrows()
            && f.len() == x.ncols()
            && f.iter().enumerate().all(|(i, &j)| i == j)
        {
            predict(&models[b], x)
        } else {
            predict(&models[b], &gather(x, rows, f))
        }
    })
}

/// The course notes' out-of-bag permutation importance: for every member with out-of-bag rows, the
/// increase of `error` on those rows when one original feature is permuted among them, averaged
/// over those members (`d × n_repeats` drops).
pub(crate) fn oob_permutation<F, M, E>(
    models: &[M],
    features: &[Vec<usize>],
    oob_rows: &[Vec<usize>],
    x: &ArrayRef2<F>,
    n_repeats: usize,
    seed: u64,
    error: E,
) -> Result<PermutationImportance>
where
    F: Float,
    M: Sync,
    E: Fn(&M, &ArrayRef2<F>, &[usize]) -> Result<f64> + Sync + Send,
{
    validate::check_at_least("n_repeats", n_repeats, 1)?;
    let d = x.ncols();
    let parts = par::try_map_tasks(models.len(), |b| {
        let rows = &oob_rows[b];
        let mut drops = Array2::<f64>::zeros((d, n_repeats));
        if rows.is_empty() {
            return Ok(None);
        }
        let f = &features[b];
        let xo = gather(x, rows, f);
        let base = error(&models[b], &xo, rows)?;
        let mut used: Vec<usize> = f.clone();
        used.dedup();
        let mut rng = random::stream(seed, b as u64);
        let mut xp = xo.clone();
        for &j in &used {
            let cols: Vec<usize> = (0..f.len()).filter(|&p| f[p] == j).collect();
            for r in 0..n_repeats {
                let perm = random::permutation(&mut rng, rows.len());
                for &c in &cols {
                    for (i, &src) in perm.iter().enumerate() {
                        xp[[i, c]] = xo[[src, c]];
                    }
                }
                drops[[j, r]] = error(&models[b], &xp, rows)? - base;
            }
            for &c in &cols {
                xp.column_mut(c).assign(&xo.column(c));
            }
        }
        Ok(Some(drops))
    })?;
    let mut sum = Array2::<f64>::zeros((d, n_repeats));
    let mut count = 0usize;
    for p in parts.into_iter().flatten() {
        sum += &p;
        count += 1;
    }
    if count == 0 {
        return Err(Error::invalid_param(
            "n_estimators",
            "no member left a row out of its bag; the out-of-bag importance is undefined",
        ));
    }
    sum.mapv_inplace(|v| v / count as f64);
    Ok(PermutationImportance::from_drops(sum))
}

/// Checks the training data handed back to an out-of-bag computation.
fn check_training_data<F: Float>(
    x: &ArrayRef2<F>,
    n_target: usize,
    n_fit: usize,
    d_fit: usize,
    context: &'static str,
) -> Result<()> {
    validate::check_predict_input(x, d_fit, context)?;
    validate::check_target_len(x.nrows(), n_target, context)?;
    if x.nrows() != n_fit {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("the {n_fit} training rows"),
            found: format!("{} rows", x.nrows()),
        });
    }
    Ok(())
}

macro_rules! bagging_estimator {
    ($(#[$doc:meta])* $name:ident, $default_base:ty, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(
            feature = "serde",
            serde(default, bound(
                serialize = "E: serde::Serialize",
                deserialize = "E: serde::Deserialize<'de> + Default"
            ))
        )]
        #[non_exhaustive]
        pub struct $name<E = $default_base> {
            /// The base estimator, cloned for every member.
            pub estimator: E,
            /// Number of members `B` (default 10).
            pub n_estimators: usize,
            /// Rows per member: `None` = `n`, a count, or a fraction of `n`.
            pub max_samples: Option<SampleCount>,
            /// Features per member: a count or a fraction of `d` (default all).
            pub max_features: SampleCount,
            /// Draw rows with replacement (default `true`).
            pub bootstrap: bool,
            /// Draw features with replacement (default `false`).
            pub bootstrap_features: bool,
            /// Compute the out-of-bag estimate (default `false`).
            pub oob_score: bool,
            /// Seed of the draws (`random_state`).
            #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
            pub seed: u64,
        }

        impl<E: Default> Default for $name<E> {
            fn default() -> Self {
                Self::new(E::default())
            }
        }

        impl<E> $name<E> {
            #[doc = concat!("Bagging of ", $what, " over `estimator` with scikit-learn's defaults.")]
            pub fn new(estimator: E) -> Self {
                Self {
                    estimator,
                    n_estimators: 10,
                    max_samples: None,
                    max_features: SampleCount::Fraction(1.0),
                    bootstrap: true,
                    bootstrap_features: false,
                    oob_score: false,
                    seed: 0,
                }
            }

            /// A random-subspace ensemble (Ho 1998): every member on all rows (no bootstrap)
            /// and a random `max_features` subset of the features.
            pub fn random_subspace(estimator: E, max_features: SampleCount) -> Self {
                Self::new(estimator).bootstrap(false).max_features(max_features)
            }

            /// Sets `n_estimators`.
            pub fn n_estimators(mut self, v: usize) -> Self {
                self.n_estimators = v;
                self
            }
            /// Sets `max_samples`.
            pub fn max_samples(mut self, v: SampleCount) -> Self {
                self.max_samples = Some(v);
                self
            }
            /// Sets `max_features`.
            pub fn max_features(mut self, v: SampleCount) -> Self {
                self.max_features = v;
                self
            }
            /// Sets `bootstrap`.
            pub fn bootstrap(mut self, v: bool) -> Self {
                self.bootstrap = v;
                self
            }
            /// Sets `bootstrap_features`.
            pub fn bootstrap_features(mut self, v: bool) -> Self {
                self.bootstrap_features = v;
                self
            }
            /// Sets `oob_score`.
            pub fn oob_score(mut self, v: bool) -> Self {
                self.oob_score = v;
                self
            }
            /// Sets the seed (`random_state`).
            pub fn seed(mut self, v: u64) -> Self {
                self.seed = v;
                self
            }

            fn sampling(&self) -> Sampling {
                Sampling {
                    n_estimators: self.n_estimators,
                    max_samples: self.max_samples,
                    max_features: self.max_features,
                    bootstrap: self.bootstrap,
                    bootstrap_features: self.bootstrap_features,
                    oob_score: self.oob_score,
                    seed: self.seed,
                }
            }
        }

        impl<E: Estimator> Estimator for $name<E> {
            /// Checks the sampling settings and the base estimator.
            ///
            /// # Errors
            /// [`Error::InvalidParam`] naming the first invalid one.
            fn validate(&self) -> Result<()> {
                self.sampling().validate()?;
                self.estimator.validate()
            }
        }
    };
}

bagging_estimator!(
    /// Bagging classifier (catalog CL-117, CL-118, CL-121): majority vote of members fitted on
    /// bootstrap samples and/or feature subsets. See the [module documentation](self).
    BaggingClassifier,
    DecisionTreeClassifier,
    "classifiers"
);

bagging_estimator!(
    /// Bagging regressor (catalog CL-117, CL-118, CL-121): mean of members fitted on bootstrap
    /// samples and/or feature subsets. See the [module documentation](self).
    BaggingRegressor,
    DecisionTreeRegressor,
    "regressors"
);

/// A fitted [`BaggingClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "E: serde::Serialize, M: serde::Serialize",
        deserialize = "E: serde::Deserialize<'de> + Default, M: serde::Deserialize<'de>"
    ))
)]
pub struct FittedBaggingClassifier<E, M> {
    params: BaggingClassifier<E>,
    models: Vec<M>,
    features: Vec<Vec<usize>>,
    n_classes: usize,
    n_samples: usize,
    n_features: usize,
    oob_score: Option<f64>,
    oob_decision_function: Option<Array2<f64>>,
}

/// A fitted [`BaggingRegressor`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "E: serde::Serialize, M: serde::Serialize",
        deserialize = "E: serde::Deserialize<'de> + Default, M: serde::Deserialize<'de>"
    ))
)]
pub struct FittedBaggingRegressor<E, M> {
    params: BaggingRegressor<E>,
    models: Vec<M>,
    features: Vec<Vec<usize>>,
    n_samples: usize,
    n_features: usize,
    oob_score: Option<f64>,
    oob_prediction: Option<Array1<f64>>,
}

impl<E, M> FittedBaggingClassifier<E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &BaggingClassifier<E> {
        &self.params
    }
    /// The fitted members (scikit-learn's `estimators_`).
    pub fn estimators(&self) -> &[M] {
        &self.models
    }
    /// Each member's features, ascending (scikit-learn's `estimators_features_`).
    pub fn estimators_features(&self) -> &[Vec<usize>] {
        &self.features
    }
    /// The number of classes (`max label + 1`).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Out-of-bag accuracy (with `oob_score`).
    pub fn oob_score(&self) -> Option<f64> {
        self.oob_score
    }
    /// Out-of-bag vote fractions, `n × n_classes` (with `oob_score`; zero rows for rows every
    /// member drew).
    pub fn oob_decision_function(&self) -> Option<&Array2<f64>> {
        self.oob_decision_function.as_ref()
    }
    /// Each member's rows, in draw order (scikit-learn's `estimators_samples_`), regenerated
    /// from the seed.
    ///
    /// # Errors
    /// Never for a model returned by `fit` (the draw was valid then).
    pub fn estimators_samples(&self) -> Result<Vec<Vec<usize>>> {
        member_rows(&self.params.sampling(), self.n_samples, self.n_features)
    }
}

impl<E, M> FittedBaggingRegressor<E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &BaggingRegressor<E> {
        &self.params
    }
    /// The fitted members (scikit-learn's `estimators_`).
    pub fn estimators(&self) -> &[M] {
        &self.models
    }
    /// Each member's features, ascending (scikit-learn's `estimators_features_`).
    pub fn estimators_features(&self) -> &[Vec<usize>] {
        &self.features
    }
    /// Out-of-bag R² (with `oob_score`).
    pub fn oob_score(&self) -> Option<f64> {
        self.oob_score
    }
    /// Out-of-bag predictions (with `oob_score`; 0 for rows every member drew).
    pub fn oob_prediction(&self) -> Option<&Array1<f64>> {
        self.oob_prediction.as_ref()
    }
    /// Each member's rows, in draw order (scikit-learn's `estimators_samples_`).
    ///
    /// # Errors
    /// Never for a model returned by `fit`.
    pub fn estimators_samples(&self) -> Result<Vec<Vec<usize>>> {
        member_rows(&self.params.sampling(), self.n_samples, self.n_features)
    }
}

fn member_rows(s: &Sampling, n: usize, d: usize) -> Result<Vec<Vec<usize>>> {
    let (m, k) = s.sizes(n, d)?;
    (0..s.n_estimators)
        .map(|b| s.draw(b, n, d, m, k).map(|dr| dr.rows))
        .collect()
}

fn oob_rows_of(s: &Sampling, n: usize, d: usize) -> Result<Vec<Vec<usize>>> {
    if !s.bootstrap && s.max_samples.is_none() {
        return Err(Error::invalid_param(
            "bootstrap",
            "every member saw every row (bootstrap = false, max_samples = n): nothing is out of bag",
        ));
    }
    Ok(member_rows(s, n, d)?
        .iter()
        .map(|r| out_of_bag(r, n))
        .collect())
}

/// Majority votes (`n × K`) of member predictions.
fn votes(preds: &[Array1<usize>], n: usize, k: usize) -> Array2<f64> {
    let mut v = Array2::<f64>::zeros((n, k));
    for p in preds {
        for (i, &c) in p.iter().enumerate() {
            if c < k {
                v[[i, c]] += 1.0;
            }
        }
    }
    v
}

impl<E> BaggingClassifier<E> {
    fn fit_bag<F, M, G>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        fit_one: G,
    ) -> Result<FittedBaggingClassifier<E, M>>
    where
        E: Estimator + Clone,
        F: Float,
        M: Predict<F, Output = Array1<usize>> + Send + Sync,
        G: Fn(&Array2<F>, &Array1<usize>, Option<Array1<F>>) -> Result<M> + Sync + Send,
    {
        self.validate()?;
        let n_classes = validate::check_classification_input(x, y, 1, "BaggingClassifier")?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let s = self.sampling();
        let members = fit_members(&s, x, |xb, rows| {
            let yb: Array1<usize> = rows.iter().map(|&i| y[i]).collect();
            let wb = sample_weight.map(|w| rows.iter().map(|&i| w[i]).collect());
            fit_one(xb, &yb, wb)
        })?;
        let (n, d) = x.dim();
        let mut fitted = FittedBaggingClassifier {
            params: self.clone(),
            models: members.models,
            features: members.features,
            n_classes,
            n_samples: n,
            n_features: d,
            oob_score: None,
            oob_decision_function: None,
        };
        if self.oob_score {
            let oob = oob_rows_of(&s, n, d)?;
            let mut acc = Array2::<f64>::zeros((n, n_classes));
            let preds = par::try_map_tasks(fitted.models.len(), |b| {
                if oob[b].is_empty() {
                    return Ok(Array1::zeros(0));
                }
                fitted.models[b].predict(&gather(x, &oob[b], &fitted.features[b]))
            })?;
            for (rows, p) in oob.iter().zip(&preds) {
                for (&i, &c) in rows.iter().zip(p) {
                    if c < n_classes {
                        acc[[i, c]] += 1.0;
                    }
                }
            }
            let correct = (0..n)
                .filter(|&i| argmax(acc.row(i).iter().copied()) == y[i])
                .count();
            for mut row in acc.rows_mut() {
                let t = row.sum();
                if t > 0.0 {
                    row.mapv_inplace(|v| v / t);
                }
            }
            fitted.oob_score = Some(correct as f64 / n as f64);
            fitted.oob_decision_function = Some(acc);
        }
        Ok(fitted)
    }
}

impl<F, E> Fit<F> for BaggingClassifier<E>
where
    F: Float,
    E: Fit<F, Target = ArrayRef1<usize>> + Estimator + Clone + Sync,
    E::Model: Predict<F, Output = Array1<usize>> + Send + Sync,
{
    type Target = ArrayRef1<usize>;
    type Model = FittedBaggingClassifier<E, E::Model>;

    /// Fits the members (in parallel).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_bag(x, y, None, |xb, yb, _| self.estimator.fit(xb, yb))
    }
}

impl<F, E> FitWeighted<F> for BaggingClassifier<E>
where
    F: Float,
    E: FitWeighted<F, Target = ArrayRef1<usize>> + Estimator + Clone + Sync,
    E::Model: Predict<F, Output = Array1<usize>> + Send + Sync,
{
    /// Fits the members on uniformly drawn rows, each with its rows' weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_bag(x, y, sample_weight, |xb, yb, wb| {
            self.estimator.fit_weighted(xb, yb, wb.as_deref())
        })
    }
}

impl<F, E, M> Predict<F> for FittedBaggingClassifier<E, M>
where
    F: Float,
    M: Predict<F, Output = Array1<usize>> + Sync,
{
    type Output = Array1<usize>;

    /// Majority vote of the members (ties to the lower class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let v = self.vote_counts(x)?;
        Ok(v.rows()
            .into_iter()
            .map(|r| argmax(r.iter().copied()))
            .collect())
    }
}

impl<F, E, M> PredictProba<F> for FittedBaggingClassifier<E, M>
where
    F: Float,
    M: Predict<F, Output = Array1<usize>> + Sync,
{
    /// The members' vote fractions per class.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let v = self.vote_counts(x)?;
        let b = self.models.len() as f64;
        Ok(v.mapv(|c| F::cast(c / b)))
    }
}

impl<E, M> FittedBaggingClassifier<E, M> {
    /// Vote counts `n × n_classes`.
    fn vote_counts<F>(&self, x: &ArrayRef2<F>) -> Result<Array2<f64>>
    where
        F: Float,
        M: Predict<F, Output = Array1<usize>> + Sync,
    {
        validate::check_predict_input(x, self.n_features, "BaggingClassifier::predict")?;
        let preds = member_outputs(&self.models, &self.features, x, None, |m, xb| m.predict(xb))?;
        Ok(votes(&preds, x.nrows(), self.n_classes))
    }

    /// scikit-learn's soft rule: the mean of the members' `predict_proba` (columns of classes a
    /// member never saw count as 0).
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input, the members' errors.
    pub fn predict_proba_mean<F>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>
    where
        F: Float,
        M: PredictProba<F> + Sync,
    {
        validate::check_predict_input(x, self.n_features, "BaggingClassifier::predict_proba_mean")?;
        let probas = member_outputs(&self.models, &self.features, x, None, |m, xb| {
            m.predict_proba(xb)
        })?;
        let mut acc = Array2::<f64>::zeros((x.nrows(), self.n_classes));
        for p in &probas {
            let w = p.ncols().min(self.n_classes);
            for (mut a, r) in acc.rows_mut().into_iter().zip(p.rows()) {
                for c in 0..w {
                    a[c] += r[c].to_f64_lossless();
                }
            }
        }
        let b = probas.len() as f64;
        Ok(acc.mapv(|v| F::cast(v / b)))
    }

    /// The course notes' out-of-bag permutation importance (catalog CL-119): for each member, the
    /// increase of its misclassification rate on its out-of-bag rows when feature `j` is
    /// permuted among them, averaged over the members (`n_repeats` permutations each, from
    /// `random::stream(seed, b)`). `x`, `y` must be the training data.
    ///
    /// # Errors
    /// Data other than the training data's shape; `n_repeats = 0`; no out-of-bag rows
    /// (`bootstrap = false` without `max_samples`).
    pub fn oob_permutation_importance<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        n_repeats: usize,
        seed: u64,
    ) -> Result<PermutationImportance>
    where
        F: Float,
        M: Predict<F, Output = Array1<usize>> + Sync,
    {
        let ctx = "BaggingClassifier::oob_permutation_importance";
        check_training_data(x, y.len(), self.n_samples, self.n_features, ctx)?;
        let oob = oob_rows_of(&self.params.sampling(), self.n_samples, self.n_features)?;
        oob_permutation(
            &self.models,
            &self.features,
            &oob,
            x,
            n_repeats,
            seed,
            |m, xo, rows| {
                let p = m.predict(xo)?;
                let wrong = p.iter().zip(rows).filter(|&(&c, &i)| c != y[i]).count();
                Ok(wrong as f64 / rows.len() as f64)
            },
        )
    }
}

impl<E, M> NFeaturesIn for FittedBaggingClassifier<E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<E> BaggingRegressor<E> {
    fn fit_bag<F, M, G>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        fit_one: G,
    ) -> Result<FittedBaggingRegressor<E, M>>
    where
        E: Estimator + Clone,
        F: Float,
        M: Predict<F, Output = Array1<F>> + Send + Sync,
        G: Fn(&Array2<F>, &Array1<F>, Option<Array1<F>>) -> Result<M> + Sync + Send,
    {
        self.validate()?;
        validate::check_regression_input(x, y, 1, "BaggingRegressor")?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let s = self.sampling();
        let members = fit_members(&s, x, |xb, rows| {
            let yb: Array1<F> = rows.iter().map(|&i| y[i]).collect();
            let wb = sample_weight.map(|w| rows.iter().map(|&i| w[i]).collect());
            fit_one(xb, &yb, wb)
        })?;
        let (n, d) = x.dim();
        let mut fitted = FittedBaggingRegressor {
            params: self.clone(),
            models: members.models,
            features: members.features,
            n_samples: n,
            n_features: d,
            oob_score: None,
            oob_prediction: None,
        };
        if self.oob_score {
            let oob = oob_rows_of(&s, n, d)?;
            let preds = par::try_map_tasks(fitted.models.len(), |b| {
                if oob[b].is_empty() {
                    return Ok(Array1::zeros(0));
                }
                fitted.models[b].predict(&gather(x, &oob[b], &fitted.features[b]))
            })?;
            let mut acc = vec![0.0f64; n];
            let mut hits = vec![0usize; n];
            for (rows, p) in oob.iter().zip(&preds) {
                for (&i, v) in rows.iter().zip(p) {
                    acc[i] += v.to_f64_lossless();
                    hits[i] += 1;
                }
            }
            for (a, &h) in acc.iter_mut().zip(&hits) {
                *a /= h.max(1) as f64;
            }
            let ys: Vec<f64> = y.iter().map(|v| v.to_f64_lossless()).collect();
            fitted.oob_score = Some(r2(&acc, &ys));
            fitted.oob_prediction = Some(Array1::from(acc));
        }
        Ok(fitted)
    }
}

impl<F, E> Fit<F> for BaggingRegressor<E>
where
    F: Float,
    E: Fit<F, Target = ArrayRef1<F>> + Estimator + Clone + Sync,
    E::Model: Predict<F, Output = Array1<F>> + Send + Sync,
{
    type Target = ArrayRef1<F>;
    type Model = FittedBaggingRegressor<E, E::Model>;

    /// Fits the members (in parallel).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_bag(x, y, None, |xb, yb, _| self.estimator.fit(xb, yb))
    }
}

impl<F, E> FitWeighted<F> for BaggingRegressor<E>
where
    F: Float,
    E: FitWeighted<F, Target = ArrayRef1<F>> + Estimator + Clone + Sync,
    E::Model: Predict<F, Output = Array1<F>> + Send + Sync,
{
    /// Fits the members on uniformly drawn rows, each with its rows' weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_bag(x, y, sample_weight, |xb, yb, wb| {
            self.estimator.fit_weighted(xb, yb, wb.as_deref())
        })
    }
}

impl<F, E, M> Predict<F> for FittedBaggingRegressor<E, M>
where
    F: Float,
    M: Predict<F, Output = Array1<F>> + Sync,
{
    type Output = Array1<F>;

    /// The mean of the members' predictions (summed in member order).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        validate::check_predict_input(x, self.n_features, "BaggingRegressor::predict")?;
        let preds = member_outputs(&self.models, &self.features, x, None, |m, xb| m.predict(xb))?;
        let mut acc = vec![0.0f64; x.nrows()];
        for p in &preds {
            for (a, v) in acc.iter_mut().zip(p) {
                *a += v.to_f64_lossless();
            }
        }
        let b = preds.len() as f64;
        Ok(acc.into_iter().map(|a| F::cast(a / b)).collect())
    }
}

impl<E, M> FittedBaggingRegressor<E, M> {
    /// The course notes' out-of-bag permutation importance (catalog CL-119) with the squared error:
    /// for each member, the increase of its mean squared error on its out-of-bag rows when
    /// feature `j` is permuted among them, averaged over the members. `x`, `y` must be the
    /// training data.
    ///
    /// # Errors
    /// As [`FittedBaggingClassifier::oob_permutation_importance`].
    pub fn oob_permutation_importance<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        n_repeats: usize,
        seed: u64,
    ) -> Result<PermutationImportance>
    where
        F: Float,
        M: Predict<F, Output = Array1<F>> + Sync,
    {
        let ctx = "BaggingRegressor::oob_permutation_importance";
        check_training_data(x, y.len(), self.n_samples, self.n_features, ctx)?;
        let oob = oob_rows_of(&self.params.sampling(), self.n_samples, self.n_features)?;
        oob_permutation(
            &self.models,
            &self.features,
            &oob,
            x,
            n_repeats,
            seed,
            |m, xo, rows| {
                let p = m.predict(xo)?;
                let se: f64 = p
                    .iter()
                    .zip(rows)
                    .map(|(v, &i)| {
                        let e = v.to_f64_lossless() - y[i].to_f64_lossless();
                        e * e
                    })
                    .sum();
                Ok(se / rows.len() as f64)
            },
        )
    }
}

impl<E, M> NFeaturesIn for FittedBaggingRegressor<E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

/// The members of a fitted bagging model: `n_estimators` models, each valid, and their feature
/// subsets of the size the sampling draws for `n` rows and `d` features (sorted, below `d`).
fn check_members<M: CheckModel>(
    c: &ModelCheck,
    s: &Sampling,
    models: &[M],
    features: &[Vec<usize>],
    n: usize,
    d: usize,
) -> Result<()> {
    c.at_least("n_samples", n, 1)?;
    c.at_least("n_features", d, 1)?;
    c.len("estimators", models.len(), s.n_estimators)?;
    c.len("estimators_features", features.len(), s.n_estimators)?;
    let (_, k) = s
        .sizes(n, d)
        .map_err(|e| c.error(format!("sampling: {e}")))?;
    for (b, f) in features.iter().enumerate() {
        c.that(f.len() == k && f.windows(2).all(|w| w[0] <= w[1]), || {
            format!("`estimators_features[{b}]` must be {k} sorted feature indices")
        })?;
        c.indices_below("estimators_features", f, d)?;
    }
    models
        .iter()
        .enumerate()
        .try_for_each(|(b, m)| c.part(&format!("estimators[{b}]"), m))
}

impl<E: Estimator, M: CheckModel> CheckModel for FittedBaggingClassifier<E, M> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBaggingClassifier");
        c.params(&self.params)?;
        // fit's label check: `n_classes ≤ n_samples + 1 000 000` (the members do not say more)
        let k = self.n_classes;
        c.at_least("n_classes", k, 1)?;
        c.that(k <= self.n_samples.saturating_add(1_000_000), || {
            format!("{k} classes for {} training rows", self.n_samples)
        })?;
        let s = self.params.sampling();
        check_members(
            &c,
            &s,
            &self.models,
            &self.features,
            self.n_samples,
            self.n_features,
        )?;
        if let Some(v) = self.oob_score {
            c.finite_value("oob_score", v)?;
        }
        if let Some(d) = &self.oob_decision_function {
            c.shape(
                "oob_decision_function",
                d.dim(),
                (self.n_samples, self.n_classes),
            )?;
            c.finite("oob_decision_function", d)?;
        }
        Ok(())
    }
}

impl<E: Estimator, M: CheckModel> CheckModel for FittedBaggingRegressor<E, M> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBaggingRegressor");
        c.params(&self.params)?;
        let s = self.params.sampling();
        check_members(
            &c,
            &s,
            &self.models,
            &self.features,
            self.n_samples,
            self.n_features,
        )?;
        if let Some(v) = self.oob_score {
            c.finite_value("oob_score", v)?;
        }
        if let Some(p) = &self.oob_prediction {
            c.len("oob_prediction", p.len(), self.n_samples)?;
            c.finite("oob_prediction", p)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Axis, array};

    fn blobs() -> (Array2<f64>, Array1<usize>) {
        let mut rng = random::rng(3);
        let n = 120;
        let x = Array2::from_shape_fn((n, 4), |(i, j)| {
            let shift = if j < 2 { (i % 3) as f64 * 3.0 } else { 0.0 };
            shift + random::standard_normal::<f64>(&mut rng)
        });
        let y = (0..n).map(|i| i % 3).collect();
        (x, y)
    }

    #[test]
    fn draws_follow_the_settings() {
        let s = BaggingClassifier::new(DecisionTreeClassifier::default())
            .max_features(SampleCount::Fraction(0.5))
            .max_samples(SampleCount::Count(7))
            .sampling();
        let (m, k) = s.sizes(10, 5).expect("ok");
        assert_eq!((m, k), (7, 2)); // ⌊0.5·5⌋ = 2
        let d = s.draw(3, 10, 5, m, k).expect("ok");
        assert_eq!(d.rows.len(), 7);
        assert!(d.features.windows(2).all(|w| w[0] < w[1]) && d.features.len() == 2);
        // Without bootstrap and all rows: the identity, nothing out of bag.
        let sub = BaggingClassifier::random_subspace(
            DecisionTreeClassifier::default(),
            SampleCount::Count(3),
        )
        .sampling();
        let d = sub.draw(0, 10, 5, 10, 3).expect("ok");
        assert_eq!(d.rows, (0..10).collect::<Vec<_>>());
        assert!(oob_rows_of(&sub, 10, 5).is_err());
        assert_eq!(out_of_bag(&[0, 2, 2, 4], 6), vec![1, 3, 5]);
        // Out of range.
        assert!(s.sizes(10, 1).is_ok());
        let big = BaggingClassifier::new(DecisionTreeClassifier::default())
            .max_features(SampleCount::Count(6))
            .sampling();
        assert!(big.sizes(10, 5).is_err());
    }

    #[test]
    fn majority_vote_by_hand() {
        let preds = vec![array![0, 1, 2], array![1, 1, 2], array![1, 0, 0]];
        let v = votes(&preds, 3, 3);
        assert_eq!(v, array![[1.0, 2.0, 0.0], [1.0, 2.0, 0.0], [1.0, 0.0, 2.0]]);
        assert_eq!(argmax([1.0, 1.0, 0.0]), 0); // ties to the lower class
    }

    #[test]
    fn bagged_trees_vote_and_estimate_out_of_bag() {
        let (x, y) = blobs();
        let bag = BaggingClassifier::new(DecisionTreeClassifier::default())
            .n_estimators(15)
            .oob_score(true)
            .seed(4)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(bag.estimators().len(), 15);
        let p = bag.predict(&x).expect("ok");
        let acc = p.iter().zip(&y).filter(|(a, b)| a == b).count() as f64 / 120.0;
        assert!(acc > 0.95, "training accuracy {acc}");
        let oob = bag.oob_score().expect("ok");
        assert!(oob > 0.75 && oob <= acc, "oob {oob}");
        let proba = bag.predict_proba(&x).expect("ok");
        for row in proba.rows() {
            assert!((row.sum() - 1.0).abs() < 1e-12);
        }
        // Fully grown trees: vote fractions equal the mean of their 0/1 probabilities.
        let soft = bag.predict_proba_mean(&x).expect("ok");
        assert!(soft.iter().zip(&proba).all(|(a, b)| (a - b).abs() < 1e-12));
        // The importance finds the two informative features.
        let imp = bag.oob_permutation_importance(&x, &y, 3, 0).expect("ok");
        let r = imp.ranking();
        assert!(
            r[..2].contains(&0) && r[..2].contains(&1),
            "{:?}",
            imp.importances_mean
        );
        // Samples are regenerated as fitted.
        let rows = bag.estimators_samples().expect("ok");
        assert_eq!(rows.len(), 15);
        assert!(rows.iter().all(|r| r.len() == 120));
    }

    #[test]
    fn a_member_never_reads_a_feature_outside_its_subset() {
        // Feature 3 is pure noise and is the only feature of no member ⇒ importance 0.
        let (x, y) = blobs();
        let bag = BaggingClassifier::new(DecisionTreeClassifier::default())
            .n_estimators(6)
            .max_features(SampleCount::Count(2))
            .seed(1)
            .fit(&x, &y)
            .expect("ok");
        let imp = bag.oob_permutation_importance(&x, &y, 2, 5).expect("ok");
        for j in 0..4 {
            if !bag.estimators_features().iter().any(|f| f.contains(&j)) {
                assert_eq!(imp.importances_mean[j], 0.0);
            }
        }
        assert!(bag.estimators_features().iter().all(|f| f.len() == 2));
    }

    #[test]
    fn regressor_averages_and_is_deterministic() {
        let mut rng = random::rng(9);
        let x = Array2::from_shape_fn((150, 3), |_| random::standard_normal::<f64>(&mut rng));
        let y: Array1<f64> = x
            .rows()
            .into_iter()
            .map(|r| 2.0 * r[0] + r[1] * r[1])
            .collect();
        let est = BaggingRegressor::new(DecisionTreeRegressor::default())
            .n_estimators(12)
            .oob_score(true);
        let one = par::with_threads(1, || est.fit(&x, &y))
            .expect("ok")
            .expect("ok");
        let three = par::with_threads(3, || est.fit(&x, &y))
            .expect("ok")
            .expect("ok");
        assert_eq!(one, three);
        let p = one.predict(&x).expect("ok");
        // The mean of the members' predictions.
        let mut mean = Array1::<f64>::zeros(150);
        for (m, f) in one.estimators().iter().zip(one.estimators_features()) {
            mean += &m.predict(&x.select(Axis(1), f)).expect("ok");
        }
        mean /= 12.0;
        assert!(p.iter().zip(&mean).all(|(a, b)| (a - b).abs() < 1e-12));
        assert!(one.oob_score().expect("ok") > 0.6);
        let imp = one.oob_permutation_importance(&x, &y, 2, 1).expect("ok");
        assert_eq!(imp.ranking()[2], 2); // the noise feature is last
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let (x, y) = blobs();
        let base = BaggingClassifier::new(DecisionTreeClassifier::default());
        assert!(matches!(
            base.clone().n_estimators(0).fit(&x, &y),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            base.clone().bootstrap(false).oob_score(true).fit(&x, &y),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            base.clone().max_features(SampleCount::Count(9)).fit(&x, &y),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            base.clone()
                .bootstrap(false)
                .max_samples(SampleCount::Count(500))
                .fit(&x, &y),
            Err(Error::InvalidParam { .. })
        ));
        let mut bad = x.clone();
        bad[[1, 1]] = f64::NAN;
        assert!(base.fit(&bad, &y).is_err());
        let fitted = base.fit(&x, &y).expect("ok");
        assert!(fitted.predict(&x.slice(ndarray::s![.., ..3])).is_err());
        assert!(
            fitted
                .oob_permutation_importance(
                    &x.slice(ndarray::s![..10, ..]),
                    &y.slice(ndarray::s![..10]),
                    1,
                    0
                )
                .is_err()
        );
    }

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_members() {
        let (x, y) = blobs();
        let m = BaggingClassifier::new(DecisionTreeClassifier::default())
            .n_estimators(3)
            .max_features(SampleCount::Count(2))
            .oob_score(true)
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.features[1][0] = 4; // no such feature
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m.clone();
        bad.models.pop();
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.n_classes = 2; // the OOB votes have 3 columns
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let yr: Array1<f64> = x.column(0).to_owned();
        let r = BaggingRegressor::new(DecisionTreeRegressor::default())
            .n_estimators(2)
            .fit(&x, &yr)
            .expect("fit");
        assert!(r.check_model().is_ok());
        let mut bad = r;
        bad.features[0].truncate(2); // the members were fitted on all 4 features
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
