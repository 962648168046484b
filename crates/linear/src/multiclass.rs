//! Multiclass reductions: one-vs-rest ([`OneVsRestClassifier`]), one-vs-one
//! ([`OneVsOneClassifier`]) and an ensemble of random label bipartitions
//! ([`RandomBipartitionClassifier`], an error-correcting output code), over **any** binary
//! classifier of the workspace.
//!
//! # What
//!
//! A reduction trains several two-class problems with a base estimator `E`
//! (`E: Fit<F, Target = Labels>`, e.g. [`LogisticRegression`](crate::LogisticRegression)) and
//! combines their outputs into a `K`-class decision. Labels are `usize` in `0..K` and every class
//! `0..K` must have a training row. Each sub-problem sees the binary labels `0` / `1`; the
//! sub-models must give a real-valued score for class 1 through
//! [`DecisionFunction`] (one column, larger = more class 1), and a hard label through
//! [`Predict`]. A model that only has probabilities ([`PredictProba`]) is used by wrapping its
//! estimator in [`ProbaScore`], whose score is `p(class 1 | x) − ½` (see below).
//!
//! Write `s_m(x)` for the score of sub-model `m` and `h_m(x) ∈ {0, 1}` for its prediction.
//!
//! ## One-vs-rest (the course notes' one-vs-all)
//!
//! For `K ≥ 3`, sub-problem `k` is "class `k` (label 1) against every other class (label 0)" on
//! all `N` rows. Then
//!
//! ```text
//! decision_function(x)_k = s_k(x),        predict(x) = argmax_k s_k(x)
//! predict_proba(x)_k     = p_k(x) / Σ_l p_l(x),   p_k = sub-model k's probability of label 1
//! ```
//!
//! (scikit-learn's `OneVsRestClassifier`: each column the positive-class probability, rows
//! divided by their sum; a row whose probabilities are all 0 becomes uniform, `1/K`, where
//! scikit-learn leaves zeros). With `K = 2` one problem is fitted (class 1 against class 0), as
//! scikit-learn does, and the reduction *is* the base model: `predict`, the `N × 1` decision
//! function and the probabilities are the base model's (scikit-learn predicts class 1 only when
//! the score is strictly positive; the base model's own rule decides the exact 0, for
//! [`LogisticRegression`](crate::LogisticRegression) class 1, the course notes' `sign(0) = +1`).
//!
//! ## One-vs-one
//!
//! One sub-problem per pair `i < j` (in the order `(0,1), (0,2), …, (0,K−1), (1,2), …`) on the
//! rows of classes `i` and `j` only, class `i` → label 0, class `j` → label 1:
//! `K(K−1)/2` problems. A pair's model votes for `j` when `h = 1` and for `i` when `h = 0`, and
//! its score counts for `j` and against `i`:
//!
//! ```text
//! votes_k(x) = #{pairs whose model votes for k}
//! conf_k(x)  = Σ_{i<k} s_(i,k)(x) − Σ_{j>k} s_(k,j)(x)
//! D_k(x)     = votes_k(x) + conf_k / (3 (|conf_k| + 1))
//! ```
//!
//! `predict = argmax_k D_k` (the course notes' majority vote). The second term lies in `(−⅓, ⅓)` and is
//! increasing in `conf_k`, so it never overturns a difference of one vote and only breaks ties
//! between classes with equal votes, in favour of the larger summed confidence. This is the
//! rule of scikit-learn's `OneVsOneClassifier` (`decision_function` returns `D`, `N × K`; with
//! `K = 2` it returns the single column `D_1`, as here).
//!
//! ## Random label bipartitions (output codes)
//!
//! The course notes' third reduction: split the label set at random into two non-empty halves, train a
//! binary model on the relabelled data, and repeat `O(log K)` times. The splits form a *code
//! matrix* `M ∈ {0, 1}^{K × L}`: column `l` is bipartition `l` (`M_kl = 1`: class `k` is on the
//! positive side), row `k` is the *code word* of class `k`, and `σ_kl = 2M_kl − 1 ∈ {−1, +1}`.
//! Decoding takes the code word nearest to the `L` outputs ([`CodeDecoding`]):
//!
//! ```text
//! conf_k(x) = Σ_l σ_kl s_l(x)                              (agreement of the scores with row k)
//! Distance (default):  D_k(x) = conf_k(x)
//! Hamming:             D_k(x) = −ham_k(x) + conf_k / (3 (|conf_k| + 1)),
//!                      ham_k(x) = #{l : h_l(x) ≠ M_kl}     (hard predictions)
//! predict = argmax_k D_k
//! ```
//!
//! `Distance` is scikit-learn's `OutputCodeClassifier` rule: the nearest code word in Euclidean
//! distance, `argmin_k ‖s − σ_k‖²`, which is `argmax_k conf_k` since every `‖σ_k‖² = L` (and
//! for [`ProbaScore`] models, `s = p − ½`, it is also scikit-learn's rule on probabilities with
//! `{0, 1}` code words: `‖p − M_k‖²` differs from `−2 conf_k` by a term that does not depend on
//! `k`). It uses the margins, which Allwein, Schapire and Singer found more accurate than
//! Hamming decoding, and it is what the tests measure against (on 8 Gaussian classes with a
//! linear base, Hamming decoding loses a few points). `Hamming` counts disagreeing hard
//! predictions, independent of the scale of the scores, with the one-vs-one tie-break. With two
//! classes `decision_function` is the single column `D_1 − D_0`. With the one-vs-rest code
//! (`M = I_K`, through [`RandomBipartitionClassifier::fit_with_code`]) both decodings give
//! exactly the one-vs-rest prediction `argmax_k s_k` (`conf_k = 2s_k − Σ_l s_l`).
//!
//! **The code** (a seeded construction; the course notes leave it open): `L = n_bipartitions`, by
//! default `⌈10 log₂ K⌉` (the length of the random dense codes of Allwein, Schapire and Singer),
//! at most the number of distinct bipartitions `2^{K−1} − 1`; when `L` reaches that number the
//! code is *exhaustive* (every bipartition once, Dietterich and Bakiri's choice for small `K`;
//! for `K = 3` this is the one-vs-rest code). Otherwise column `l` is drawn from the random stream
//! `(seed, l)`: fair coin flips per class, normalised so that class `K − 1` is on side 0 (a
//! bipartition and its complement are the same problem), rejected when trivial (one side empty)
//! or equal to an earlier column; while two classes still share a code word, a candidate that
//! separates some such pair is preferred (at most 256 draws per column; after that the first
//! admissible draw, or the first unused bipartition in enumeration order). Each column
//! separates at least one more pair while one is left, so the code words are distinct once
//! `L ≥ K − 1`, and for the default length in practice always.
//!
//! # Tie-breaking (left open by the course notes)
//!
//! - every `argmax` takes the **lowest class index** among exact ties (scikit-learn's
//!   `np.argmax`; its one-vs-rest `predict` does the same);
//! - one-vs-one and Hamming-decoded output codes break vote / distance ties by the summed
//!   confidences (transformed as above), exactly as scikit-learn's one-vs-one;
//! - two classes: the base model's own rule.
//!
//! # Scores of probability-only models ([`ProbaScore`])
//!
//! scikit-learn falls back to `predict_proba[:, 1]` when a base model has no decision function.
//! [`ProbaScore`] gives such a model the score `p₁ − ½` instead of `p₁`: rankings, votes and the
//! one-vs-rest argmax are unchanged, and the summed confidences of one-vs-one and of the output
//! codes treat both sides of a problem alike (with `p₁`, every pair adds `+p` to its second
//! class and `−p` to its first, a bias of `(2k − K + 1)/2` towards higher classes `k`). With
//! `K ≥ 3` classes the score matrix is the probability matrix itself.
//!
//! # Threads, BLAS and determinism
//!
//! The sub-problems are independent: with `parallel = true` (the default) they are fitted as
//! rayon tasks (`ndlearn_core::par::try_map_tasks`, results in problem order, the first error
//! in problem order is returned), with `parallel = false` one after another. Each sub-model is
//! a function of its own rows and labels only, so the fitted models are bitwise identical for
//! any thread count and for either setting. The base estimator's `fit` then runs inside a task
//! and may call BLAS there, as in `ndlearn_core::model_selection::cross_validate`; for a
//! BLAS-heavy base estimator on large data set `parallel = false`, so that BLAS keeps every
//! core (docs/decisions/0014-multiclass-reductions.md). Prediction evaluates the sub-models one
//! after another at the top level.
//!
//! # Complexity
//!
//! One-vs-rest: `K` fits on `N` rows (one when `K = 2`); one-vs-one: `K(K−1)/2` fits on
//! `N_i + N_j` rows each (about `(K − 1) N` rows in total); output codes: `L` fits on `N` rows.
//! Prediction costs one decision function and (one-vs-one, codes) one prediction per sub-model.
//!
//! # Hyperparameters
//!
//! | estimator | field | default | scikit-learn | valid |
//! |---|---|---|---|---|
//! | all | `estimator` | `E::default()` | `estimator` | any two-class estimator |
//! | all | `parallel` | `true` | `n_jobs` (`None`: sequential) | |
//! | [`RandomBipartitionClassifier`] | `n_bipartitions` | `None` (`⌈10 log₂ K⌉`, capped at `2^{K−1} − 1`) | `code_size · K` | ≥ 1 |
//! | [`RandomBipartitionClassifier`] | `decoding` | `Distance` | (`Distance` is its rule) | `Distance`, `Hamming` |
//! | [`RandomBipartitionClassifier`] | `seed` | 0 | `random_state` | any |
//!
//! # Errors
//!
//! [`Error::TooFewClasses`] for fewer than two classes or a class index `< max label` without a
//! training row (labels must be `0..K` with every class present; encode raw labels first);
//! shape and non-finite errors from the input checks; [`Error::InvalidParam`] for
//! `n_bipartitions = Some(0)` or a code matrix with a trivial column; [`Error::ShapeMismatch`]
//! for a code matrix without one row per class, or a sub-model whose decision function has more
//! than one column; any error of the base estimator's `fit` (the first in problem order).
//!
//! # References
//!
//! - Course notes: one-vs-one and one-vs-all (C. M. Bishop, *Pattern Recognition and Machine
//!   Learning*, §4.1.2); random label partitions repeated `O(log n)` times; catalog L-12
//!   (CL-084).
//! - T. G. Dietterich, G. Bakiri, *Solving multiclass learning problems via error-correcting
//!   output codes*, JAIR 2 (1995).
//! - E. L. Allwein, R. E. Schapire, Y. Singer, *Reducing multiclass to binary: a unifying
//!   approach for margin classifiers*, JMLR 1 (2000).
//!
//! ```
//! use ndlearn_core::{DecisionFunction, Fit, Predict, PredictProba};
//! use ndlearn_linear::{LogisticRegression, OneVsOneClassifier, OneVsRestClassifier};
//!
//! let data = ndlearn_datasets::iris();
//! let (x, y) = (data.x(), data.y_classes().expect("labels"));
//! let ovr = OneVsRestClassifier::new(LogisticRegression::default()).fit(x, y)?;
//! let p = ovr.predict_proba(x)?;                        // 150 × 3, rows sum to 1
//! assert!((p.row(0).sum() - 1.0).abs() < 1e-12);
//! let ovo = OneVsOneClassifier::new(LogisticRegression::default()).fit(x, y)?;
//! assert_eq!(ovo.decision_function(x)?.ncols(), 3);
//! let acc = ovo.predict(x)?.iter().zip(y).filter(|(a, b)| a == b).count();
//! assert!(acc >= 140);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_predict_input,
};

use ndlearn_core::NFeaturesIn;
use ndlearn_core::{
    DecisionFunction, Error, Fit, Float, Labels, Predict, PredictProba, Result, par, random,
};

// ---------------------------------------------------------------------------------------------
// One-vs-rest

/// One-vs-rest (one-vs-all) reduction over a binary estimator `E` (scikit-learn's
/// `OneVsRestClassifier`). See the [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_linear::{LogisticRegression, OneVsRestClassifier};
///
/// let data = ndlearn_datasets::wine();                    // 3 classes, 13 features
/// let y = data.y_classes().expect("labels");
/// let est = OneVsRestClassifier::new(LogisticRegression::new(10.0).max_iter(1000));
/// let fit = est.fit(data.x(), y)?;
/// assert_eq!(fit.estimators().len(), 3);                 // one problem per class
/// let acc = fit.predict(data.x())?.iter().zip(y).filter(|(a, b)| a == b).count();
/// assert!(acc as f64 / y.len() as f64 > 0.9);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct OneVsRestClassifier<E> {
    /// The binary estimator fitted once per class.
    pub estimator: E,
    /// Fit the sub-problems as parallel rayon tasks (default `true`; results are identical
    /// either way).
    pub parallel: bool,
}

impl<E: Default> Default for OneVsRestClassifier<E> {
    /// The default base estimator, other fields as [`OneVsRestClassifier::new`].
    fn default() -> Self {
        Self::new(E::default())
    }
}

impl<E> OneVsRestClassifier<E> {
    /// One-vs-rest over `estimator`, fitted in parallel.
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            parallel: true,
        }
    }
    ndlearn_core::setters! {
        /// Sets the base estimator.
        estimator: E,
        /// Sets `parallel`.
        parallel: bool,
    }
}

impl<E> ndlearn_core::Estimator for OneVsRestClassifier<E> {
    /// Checks the hyperparameters of the reduction. It has no constrained field; the base
    /// estimator checks its own hyperparameters when it is fitted.
    ///
    /// # Errors
    /// None at this level.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F, E> Fit<F> for OneVsRestClassifier<E>
where
    F: Float,
    E: Fit<F, Target = Labels> + Clone + Sync,
    E::Model: Send,
{
    type Target = Labels;
    type Model = FittedOneVsRestClassifier<E, E::Model>;

    /// Fits one "class `k` against the rest" problem per class (one problem for two classes).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_multiclass_input(x, y, "OneVsRestClassifier::fit")?;
        let n_problems = if n_classes == 2 { 1 } else { n_classes };
        let estimators = run_tasks(self.parallel, n_problems, |c| {
            let positive = if n_classes == 2 { 1 } else { c };
            let yb: Array1<usize> = y.mapv(|l| usize::from(l == positive));
            self.estimator.fit(x, &yb)
        })?;
        Ok(FittedOneVsRestClassifier {
            params: self.clone(),
            estimators,
            n_classes,
            n_features: x.ncols(),
        })
    }
}

/// A fitted [`OneVsRestClassifier`]: the sub-models `M` of the base estimator `E`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedOneVsRestClassifier<E, M> {
    params: OneVsRestClassifier<E>,
    estimators: Vec<M>,
    n_classes: usize,
    n_features: usize,
}

impl<E, M> ndlearn_core::NFeaturesIn for FittedOneVsRestClassifier<E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<E, M: CheckModel + NFeaturesIn> CheckModel for FittedOneVsRestClassifier<E, M> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedOneVsRestClassifier");
        c.at_least("n_features", self.n_features, 1)?;
        c.at_least("n_classes", self.n_classes, 2)?;
        let problems = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        c.len("estimators", self.estimators.len(), problems)?;
        c.part("estimators", &self.estimators)?;
        check_sub_features(&c, &self.estimators, self.n_features)
    }
}

impl<E, M> FittedOneVsRestClassifier<E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &OneVsRestClassifier<E> {
        &self.params
    }
    /// The sub-models: model `k` separates class `k` from the rest (`K ≥ 3`); a single model
    /// of class 1 against class 0 when `K = 2`.
    pub fn estimators(&self) -> &[M] {
        &self.estimators
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
}

impl<F, E, M> DecisionFunction<F> for FittedOneVsRestClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F>,
{
    /// `N × K` sub-model scores (column `k`: class `k` against the rest), or the base model's
    /// `N × 1` score for two classes.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.n_features,
            "OneVsRestClassifier: number of features",
        )?;
        score_matrix(&self.estimators, x)
    }
}

impl<F, E, M> Predict<F> for FittedOneVsRestClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
{
    type Output = Array1<usize>;

    /// `argmax_k s_k(x)` (lowest class on ties); the base model's prediction for two classes.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(
            x,
            self.n_features,
            "OneVsRestClassifier: number of features",
        )?;
        if self.n_classes == 2 {
            return binary_predict(&self.estimators[0], x);
        }
        Ok(ndlearn_core::numeric::argmax_rows(&score_matrix(
            &self.estimators,
            x,
        )?))
    }
}

impl<F, E, M> PredictProba<F> for FittedOneVsRestClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + PredictProba<F> + Predict<F, Output = Array1<usize>>,
{
    /// Column `k`: sub-model `k`'s probability of its label 1, rows divided by their sum
    /// (uniform where the sum is 0); `[1 − p, p]` of the base model for two classes.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.n_features,
            "OneVsRestClassifier: number of features",
        )?;
        let n = x.nrows();
        let k = self.n_classes;
        let mut p = Array2::zeros((n, k));
        if k == 2 {
            let p1 = positive_proba(&self.estimators[0], x)?;
            for (i, &v) in p1.iter().enumerate() {
                p[[i, 0]] = F::one() - v;
                p[[i, 1]] = v;
            }
        } else {
            for (c, m) in self.estimators.iter().enumerate() {
                p.column_mut(c).assign(&positive_proba(m, x)?);
            }
        }
        let uniform = F::one() / F::cast(k as f64);
        for mut row in p.rows_mut() {
            let sum = row.sum();
            if sum > F::zero() {
                row.mapv_inplace(|v| v / sum);
            } else {
                row.fill(uniform);
            }
        }
        Ok(p)
    }
}

// ---------------------------------------------------------------------------------------------
// One-vs-one

/// One-vs-one reduction over a binary estimator `E` (scikit-learn's `OneVsOneClassifier`):
/// majority vote of the `K(K−1)/2` pairwise models, ties broken by summed confidences. See the
/// [module docs](self).
///
/// ```
/// use ndlearn_core::{DecisionFunction, Fit, Predict};
/// use ndlearn_linear::{LogisticRegression, OneVsOneClassifier};
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let fit = OneVsOneClassifier::new(LogisticRegression::default()).fit(data.x(), y)?;
/// assert_eq!(fit.pairs(), vec![(0, 1), (0, 2), (1, 2)]);
/// let d = fit.decision_function(data.x())?;            // votes + tie-break term
/// let votes: f64 = d.row(0).iter().map(|v| v.round()).sum();
/// assert_eq!(votes, 3.0);                                 // one vote per pair
/// assert_eq!(fit.predict(data.x())?[0], 0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct OneVsOneClassifier<E> {
    /// The binary estimator fitted once per pair of classes.
    pub estimator: E,
    /// Fit the sub-problems as parallel rayon tasks (default `true`; results are identical
    /// either way).
    pub parallel: bool,
}

impl<E: Default> Default for OneVsOneClassifier<E> {
    /// The default base estimator, other fields as [`OneVsOneClassifier::new`].
    fn default() -> Self {
        Self::new(E::default())
    }
}

impl<E> OneVsOneClassifier<E> {
    /// One-vs-one over `estimator`, fitted in parallel.
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            parallel: true,
        }
    }
    ndlearn_core::setters! {
        /// Sets the base estimator.
        estimator: E,
        /// Sets `parallel`.
        parallel: bool,
    }
}

impl<E> ndlearn_core::Estimator for OneVsOneClassifier<E> {
    /// Checks the hyperparameters of the reduction. It has no constrained field; the base
    /// estimator checks its own hyperparameters when it is fitted.
    ///
    /// # Errors
    /// None at this level.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F, E> Fit<F> for OneVsOneClassifier<E>
where
    F: Float,
    E: Fit<F, Target = Labels> + Clone + Sync,
    E::Model: Send,
{
    type Target = Labels;
    type Model = FittedOneVsOneClassifier<E, E::Model>;

    /// Fits one model per pair `i < j` on the rows of classes `i` (label 0) and `j` (label 1).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_multiclass_input(x, y, "OneVsOneClassifier::fit")?;
        let pairs = class_pairs(n_classes);
        let estimators = run_tasks(self.parallel, pairs.len(), |t| {
            let (i, j) = pairs[t];
            let rows: Vec<usize> = (0..y.len()).filter(|&r| y[r] == i || y[r] == j).collect();
            let xs = x.select(Axis(0), &rows);
            let yb: Array1<usize> = rows.iter().map(|&r| usize::from(y[r] == j)).collect();
            self.estimator.fit(&xs, &yb)
        })?;
        Ok(FittedOneVsOneClassifier {
            params: self.clone(),
            estimators,
            n_classes,
            n_features: x.ncols(),
        })
    }
}

/// A fitted [`OneVsOneClassifier`]: one sub-model `M` per pair of classes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedOneVsOneClassifier<E, M> {
    params: OneVsOneClassifier<E>,
    estimators: Vec<M>,
    n_classes: usize,
    n_features: usize,
}

impl<E, M> ndlearn_core::NFeaturesIn for FittedOneVsOneClassifier<E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<E, M: CheckModel + NFeaturesIn> CheckModel for FittedOneVsOneClassifier<E, M> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedOneVsOneClassifier");
        let k = self.n_classes;
        c.at_least("n_features", self.n_features, 1)?;
        c.at_least("n_classes", k, 2)?;
        // K(K−1)/2 pairs (checked: a huge K must not overflow).
        let pairs = k.checked_mul(k - 1).map(|v| v / 2);
        c.that(pairs == Some(self.estimators.len()), || {
            format!(
                "{k} classes need K(K-1)/2 sub-models, found {}",
                self.estimators.len()
            )
        })?;
        c.part("estimators", &self.estimators)?;
        check_sub_features(&c, &self.estimators, self.n_features)
    }
}

impl<E, M> FittedOneVsOneClassifier<E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &OneVsOneClassifier<E> {
        &self.params
    }
    /// The sub-models, in the order of [`pairs`](Self::pairs).
    pub fn estimators(&self) -> &[M] {
        &self.estimators
    }
    /// The class pairs `(i, j)`, `i < j`, of the sub-models: `(0,1), (0,2), …, (K−2,K−1)`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        class_pairs(self.n_classes)
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
}

impl<E, M> FittedOneVsOneClassifier<E, M> {
    /// `D = votes + conf/(3(|conf| + 1))`, `N × K` for every `K`.
    fn votes<F>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>
    where
        F: Float,
        M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
    {
        check_predict_input(x, self.n_features, "OneVsOneClassifier: number of features")?;
        let pairs = class_pairs(self.n_classes);
        let mut hard = Vec::with_capacity(pairs.len());
        let mut soft = Vec::with_capacity(pairs.len());
        for m in &self.estimators {
            hard.push(binary_predict(m, x)?);
            soft.push(binary_score(m, x)?);
        }
        Ok(ovo_combine(&pairs, &hard, &soft, x.nrows(), self.n_classes))
    }
}

impl<F, E, M> DecisionFunction<F> for FittedOneVsOneClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
{
    /// `D`, `N × K` (`K ≥ 3`) or its column `D_1`, `N × 1` (`K = 2`), as scikit-learn.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let d = self.votes(x)?;
        if self.n_classes == 2 {
            return Ok(d.column(1).to_owned().insert_axis(Axis(1)));
        }
        Ok(d)
    }
}

impl<F, E, M> Predict<F> for FittedOneVsOneClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
{
    type Output = Array1<usize>;

    /// `argmax_k D_k` (most votes; ties by summed confidence, then the lowest class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(ndlearn_core::numeric::argmax_rows(&self.votes(x)?))
    }
}

// ---------------------------------------------------------------------------------------------
// Random label bipartitions

/// How [`RandomBipartitionClassifier`] finds the nearest code word (see the
/// [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CodeDecoding {
    /// Largest `Σ_l σ_kl s_l`, i.e. the smallest Euclidean distance between the scores and the
    /// `±1` code words (scikit-learn's `OutputCodeClassifier`).
    #[default]
    Distance,
    /// Smallest Hamming distance between the hard predictions and the code words; ties by the
    /// summed confidences as in one-vs-one.
    Hamming,
}

/// Ensemble of binary models on random bipartitions of the label set, decoded by the nearest
/// code word (an error-correcting output code; in spirit scikit-learn's
/// `OutputCodeClassifier`, whose random code is not reproduced). See the
/// [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_linear::{LogisticRegression, RandomBipartitionClassifier};
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let est = RandomBipartitionClassifier::new(LogisticRegression::default()).seed(7);
/// let fit = est.fit(data.x(), y)?;
/// assert_eq!(fit.code().dim(), (3, 3));                 // K = 3: the exhaustive code
/// let acc = fit.predict(data.x())?.iter().zip(y).filter(|(a, b)| a == b).count();
/// assert!(acc >= 135);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RandomBipartitionClassifier<E> {
    /// The binary estimator fitted once per bipartition.
    pub estimator: E,
    /// Code length `L` (default `None`: `⌈10 log₂ K⌉`); capped at `2^{K−1} − 1`, the number of
    /// distinct bipartitions (the code is then exhaustive).
    pub n_bipartitions: Option<usize>,
    /// How the nearest code word is found (default `Distance`).
    pub decoding: CodeDecoding,
    /// Seed of the code matrix.
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Fit the sub-problems as parallel rayon tasks (default `true`; results are identical
    /// either way).
    pub parallel: bool,
}

impl<E: Default> Default for RandomBipartitionClassifier<E> {
    /// The default base estimator, other fields as [`RandomBipartitionClassifier::new`].
    fn default() -> Self {
        Self::new(E::default())
    }
}

impl<E> RandomBipartitionClassifier<E> {
    /// Random bipartitions over `estimator`, default length, seed 0, fitted in parallel.
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            n_bipartitions: None,
            decoding: CodeDecoding::Distance,
            seed: 0,
            parallel: true,
        }
    }
    ndlearn_core::setters! {
        /// Sets the base estimator.
        estimator: E,
        /// Sets `n_bipartitions` (`None`: `⌈10 log₂ K⌉`).
        n_bipartitions: Option<usize>,
        /// Sets the decoding.
        decoding: CodeDecoding,
        /// Sets the seed of the code.
        seed: u64,
        /// Sets `parallel`.
        parallel: bool,
    }

    /// The code length used for `n_classes` classes (see [`n_bipartitions`](Self::n_bipartitions)).
    pub fn code_length(&self, n_classes: usize) -> usize {
        let wanted = self
            .n_bipartitions
            .unwrap_or_else(|| (10.0 * (n_classes.max(2) as f64).log2()).ceil() as usize);
        wanted.max(1).min(max_bipartitions(n_classes))
    }

    /// The seeded code matrix for `n_classes` classes (`K × L`, `true` = positive side), as
    /// [`Fit::fit`] builds it (see the [module docs](self)).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for invalid hyperparameters; [`Error::TooFewClasses`] for
    /// `n_classes < 2`.
    pub fn code_matrix(&self, n_classes: usize) -> Result<Array2<bool>> {
        self.validate()?;
        if n_classes < 2 {
            return Err(Error::TooFewClasses {
                context: "RandomBipartitionClassifier::code_matrix",
                needed: 2,
                found: n_classes,
            });
        }
        Ok(random_code(
            n_classes,
            self.code_length(n_classes),
            self.seed,
        ))
    }

    /// Fits with a given code matrix `code` (`K × L`, one row per class `0..K`, `true` = the
    /// class is on side 1 of that bipartition) instead of the seeded one; `seed` and
    /// `n_bipartitions` are then unused. The identity `I_K` gives the one-vs-rest problems.
    ///
    /// # Errors
    /// As [`Fit::fit`], plus [`Error::ShapeMismatch`] when `code` has not `K` rows or no
    /// column, and [`Error::InvalidParam`] for a column with all classes on one side.
    pub fn fit_with_code<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        code: &ArrayRef2<bool>,
    ) -> Result<FittedRandomBipartitionClassifier<E, E::Model>>
    where
        F: Float,
        E: Fit<F, Target = Labels> + Clone + Sync,
        E::Model: Send,
    {
        self.validate()?;
        let n_classes = check_multiclass_input(x, y, "RandomBipartitionClassifier::fit")?;
        if code.nrows() != n_classes || code.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: "RandomBipartitionClassifier::fit_with_code: code matrix",
                expected: format!("{n_classes} rows (one per class) and at least one column"),
                found: format!("{} × {}", code.nrows(), code.ncols()),
            });
        }
        for (l, col) in code.columns().into_iter().enumerate() {
            let ones = col.iter().filter(|&&b| b).count();
            if ones == 0 || ones == n_classes {
                return Err(Error::invalid_param(
                    "code",
                    format!(
                        "column {l} puts every class on one side; each bipartition needs classes on both sides"
                    ),
                ));
            }
        }
        self.fit_code(x, y, n_classes, code.to_owned())
    }

    fn fit_code<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        n_classes: usize,
        code: Array2<bool>,
    ) -> Result<FittedRandomBipartitionClassifier<E, E::Model>>
    where
        F: Float,
        E: Fit<F, Target = Labels> + Clone + Sync,
        E::Model: Send,
    {
        let estimators = run_tasks(self.parallel, code.ncols(), |l| {
            let yb: Array1<usize> = y.mapv(|c| usize::from(code[[c, l]]));
            self.estimator.fit(x, &yb)
        })?;
        Ok(FittedRandomBipartitionClassifier {
            params: self.clone(),
            estimators,
            code,
            n_classes,
            n_features: x.ncols(),
        })
    }
}

impl<E> ndlearn_core::Estimator for RandomBipartitionClassifier<E> {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `n_bipartitions = Some(0)`.
    fn validate(&self) -> Result<()> {
        if let Some(l) = self.n_bipartitions {
            ndlearn_core::validate::check_at_least("n_bipartitions", l, 1)?;
        }
        Ok(())
    }
}

impl<F, E> Fit<F> for RandomBipartitionClassifier<E>
where
    F: Float,
    E: Fit<F, Target = Labels> + Clone + Sync,
    E::Model: Send,
{
    type Target = Labels;
    type Model = FittedRandomBipartitionClassifier<E, E::Model>;

    /// Builds the seeded code and fits one model per bipartition.
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_multiclass_input(x, y, "RandomBipartitionClassifier::fit")?;
        let code = random_code(n_classes, self.code_length(n_classes), self.seed);
        self.fit_code(x, y, n_classes, code)
    }
}

/// A fitted [`RandomBipartitionClassifier`]: the code matrix and one sub-model per column.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRandomBipartitionClassifier<E, M> {
    params: RandomBipartitionClassifier<E>,
    estimators: Vec<M>,
    code: Array2<bool>,
    n_classes: usize,
    n_features: usize,
}

impl<E, M> ndlearn_core::NFeaturesIn for FittedRandomBipartitionClassifier<E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<E, M: CheckModel + NFeaturesIn> CheckModel for FittedRandomBipartitionClassifier<E, M> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRandomBipartitionClassifier");
        c.params(&self.params)?;
        let k = self.n_classes;
        c.at_least("n_features", self.n_features, 1)?;
        c.at_least("n_classes", k, 2)?;
        c.at_least("estimators", self.estimators.len(), 1)?;
        c.shape("code", self.code.dim(), (k, self.estimators.len()))?;
        // Every bipartition has classes on both sides.
        c.that(
            self.code.columns().into_iter().all(|col| {
                let ones = col.iter().filter(|&&b| b).count();
                ones > 0 && ones < k
            }),
            || "a column of `code` puts every class on one side".into(),
        )?;
        c.part("estimators", &self.estimators)?;
        check_sub_features(&c, &self.estimators, self.n_features)
    }
}

impl<E, M> FittedRandomBipartitionClassifier<E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &RandomBipartitionClassifier<E> {
        &self.params
    }
    /// The sub-models, one per column of [`code`](Self::code).
    pub fn estimators(&self) -> &[M] {
        &self.estimators
    }
    /// The code matrix `K × L` (`true`: the class is on side 1 of that bipartition).
    pub fn code(&self) -> &Array2<bool> {
        &self.code
    }
    /// The code length `L`.
    pub fn n_bipartitions(&self) -> usize {
        self.code.ncols()
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// `D_k = conf_k` (distance) or `−Hamming_k + conf_k/(3(|conf_k| + 1))`, `N × K`.
    fn decode<F>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>
    where
        F: Float,
        M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
    {
        check_predict_input(
            x,
            self.n_features,
            "RandomBipartitionClassifier: number of features",
        )?;
        let (n, k) = (x.nrows(), self.n_classes);
        let mut ham = Array2::<F>::zeros((n, k));
        let mut conf = Array2::<F>::zeros((n, k));
        let hamming = self.params.decoding == CodeDecoding::Hamming;
        for (l, m) in self.estimators.iter().enumerate() {
            let h = if hamming {
                binary_predict(m, x)?
            } else {
                Array1::zeros(0)
            };
            let s = binary_score(m, x)?;
            for c in 0..k {
                let side = self.code[[c, l]];
                for i in 0..n {
                    if hamming && (h[i] == 1) != side {
                        ham[[i, c]] += F::one();
                    }
                    if side {
                        conf[[i, c]] += s[i];
                    } else {
                        conf[[i, c]] -= s[i];
                    }
                }
            }
        }
        if !hamming {
            return Ok(conf);
        }
        Ok(Array2::from_shape_fn((n, k), |(i, c)| {
            squash(conf[[i, c]]) - ham[[i, c]]
        }))
    }
}

impl<F, E, M> DecisionFunction<F> for FittedRandomBipartitionClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
{
    /// `D`, `N × K` (`K ≥ 3`), or `D_1 − D_0`, `N × 1` (`K = 2`).
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let d = self.decode(x)?;
        if self.n_classes == 2 {
            let diff = &d.column(1) - &d.column(0);
            return Ok(diff.insert_axis(Axis(1)));
        }
        Ok(d)
    }
}

impl<F, E, M> Predict<F> for FittedRandomBipartitionClassifier<E, M>
where
    F: Float,
    M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
{
    type Output = Array1<usize>;

    /// The nearest code word (see [`CodeDecoding`]; exact ties to the lowest class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(ndlearn_core::numeric::argmax_rows(&self.decode(x)?))
    }
}

// ---------------------------------------------------------------------------------------------
// Scores from probabilities

/// Makes a probabilistic classifier usable as the base of the reductions: its fitted model
/// ([`FittedProbaScore`]) scores with `p(class 1 | x) − ½` (`N × 1`) for two classes, the
/// probability matrix otherwise, and predicts and gives probabilities as the wrapped model.
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_linear::{LogisticRegression, OneVsRestClassifier, ProbaScore};
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let by_proba = OneVsRestClassifier::new(ProbaScore::new(LogisticRegression::default()));
/// let by_score = OneVsRestClassifier::new(LogisticRegression::default());
/// // σ is increasing: the argmax of the probabilities is the argmax of the log-odds.
/// assert_eq!(
///     by_proba.fit(data.x(), y)?.predict(data.x())?,
///     by_score.fit(data.x(), y)?.predict(data.x())?
/// );
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ProbaScore<E> {
    /// The wrapped estimator (its model must implement [`PredictProba`]).
    pub estimator: E,
}

impl<E> ProbaScore<E> {
    /// Wraps `estimator`.
    pub fn new(estimator: E) -> Self {
        Self { estimator }
    }
}

impl<F, E> Fit<F> for ProbaScore<E>
where
    F: Float,
    E: Fit<F, Target = Labels>,
{
    type Target = Labels;
    type Model = FittedProbaScore<E::Model>;

    /// Fits the wrapped estimator.
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        Ok(FittedProbaScore {
            model: self.estimator.fit(x, y)?,
        })
    }
}

/// A model fitted through [`ProbaScore`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedProbaScore<M> {
    model: M,
}

impl<M: ndlearn_core::NFeaturesIn> ndlearn_core::NFeaturesIn for FittedProbaScore<M> {
    fn n_features_in(&self) -> usize {
        self.model.n_features_in()
    }
}

impl<M: CheckModel> CheckModel for FittedProbaScore<M> {
    fn check_model(&self) -> Result<()> {
        ModelCheck::new("FittedProbaScore").part("model", &self.model)
    }
}

impl<M> FittedProbaScore<M> {
    /// The wrapped fitted model.
    pub fn model(&self) -> &M {
        &self.model
    }
}

impl<F: Float, M: Predict<F>> Predict<F> for FittedProbaScore<M> {
    type Output = M::Output;

    /// The wrapped model's prediction.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<M::Output> {
        self.model.predict(x)
    }
}

impl<F: Float, M: PredictProba<F>> PredictProba<F> for FittedProbaScore<M> {
    /// The wrapped model's probabilities.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.model.predict_proba(x)
    }
}

impl<F: Float, M: PredictProba<F>> DecisionFunction<F> for FittedProbaScore<M> {
    /// `p₁ − ½` (`N × 1`) for a two-class model, the probabilities (`N × K`) otherwise.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let p = self.model.predict_proba(x)?;
        if p.ncols() == 2 {
            let half = F::cast(0.5);
            return Ok(p.column(1).mapv(|v| v - half).insert_axis(Axis(1)));
        }
        Ok(p)
    }
}

// ---------------------------------------------------------------------------------------------
// Private helpers

/// [`check_classification_input`] with at least two classes, and every class `0..K` present.
fn check_multiclass_input<F: Float>(
    x: &ArrayRef2<F>,
    y: &Labels,
    context: &'static str,
) -> Result<usize> {
    let n_classes = check_classification_input(x, y, 2, context)?;
    let mut seen = vec![false; n_classes];
    for &l in y {
        seen[l] = true;
    }
    let found = seen.iter().filter(|&&s| s).count();
    if found < n_classes {
        return Err(Error::TooFewClasses {
            context,
            needed: n_classes,
            found,
        });
    }
    Ok(n_classes)
}

/// Every sub-model takes the `n_features` columns the reduction checks its input against.
fn check_sub_features<M: NFeaturesIn>(
    c: &ModelCheck,
    models: &[M],
    n_features: usize,
) -> Result<()> {
    match models.iter().position(|m| m.n_features_in() != n_features) {
        None => Ok(()),
        Some(i) => Err(c.error(format!(
            "sub-model {i} takes {} features, the reduction {n_features}",
            models[i].n_features_in()
        ))),
    }
}

/// Runs `f(0..n)` as parallel tasks or in a loop; results (and the first error) in index order.
fn run_tasks<T, G>(parallel: bool, n: usize, f: G) -> Result<Vec<T>>
where
    T: Send,
    G: Fn(usize) -> Result<T> + Sync + Send,
{
    if parallel {
        par::try_map_tasks(n, f)
    } else {
        (0..n).map(f).collect()
    }
}

/// The pairs `(i, j)`, `i < j`, in scikit-learn's order.
fn class_pairs(n_classes: usize) -> Vec<(usize, usize)> {
    (0..n_classes)
        .flat_map(|i| (i + 1..n_classes).map(move |j| (i, j)))
        .collect()
}

/// The one-column score of a two-class sub-model.
fn binary_score<F: Float, M: DecisionFunction<F>>(m: &M, x: &ArrayRef2<F>) -> Result<Array1<F>> {
    let s = m.decision_function(x)?;
    if s.ncols() != 1 {
        return Err(Error::ShapeMismatch {
            context: "decision_function of a two-class sub-model",
            expected: "one column (the score of class 1)".into(),
            found: format!("{} columns", s.ncols()),
        });
    }
    Ok(s.column(0).to_owned())
}

/// The hard 0/1 predictions of a two-class sub-model.
fn binary_predict<F, M>(m: &M, x: &ArrayRef2<F>) -> Result<Array1<usize>>
where
    F: Float,
    M: Predict<F, Output = Array1<usize>>,
{
    Ok(m.predict(x)?.mapv(|v| usize::from(v != 0)))
}

/// Column 1 of a two-class sub-model's probabilities.
fn positive_proba<F: Float, M: PredictProba<F>>(m: &M, x: &ArrayRef2<F>) -> Result<Array1<F>> {
    let p = m.predict_proba(x)?;
    if p.ncols() != 2 {
        return Err(Error::ShapeMismatch {
            context: "predict_proba of a two-class sub-model",
            expected: "two columns".into(),
            found: format!("{} columns", p.ncols()),
        });
    }
    Ok(p.column(1).to_owned())
}

/// The sub-models' scores side by side, `N × (number of models)`.
fn score_matrix<F: Float, M: DecisionFunction<F>>(
    models: &[M],
    x: &ArrayRef2<F>,
) -> Result<Array2<F>> {
    let mut s = Array2::zeros((x.nrows(), models.len()));
    for (c, m) in models.iter().enumerate() {
        s.column_mut(c).assign(&binary_score(m, x)?);
    }
    Ok(s)
}

/// `c / (3(|c| + 1))`: increasing, into `(−⅓, ⅓)`.
fn squash<F: Float>(c: F) -> F {
    c / (F::cast(3.0) * (c.abs() + F::one()))
}

/// One-vs-one votes plus the squashed summed confidences (`N × K`).
fn ovo_combine<F: Float>(
    pairs: &[(usize, usize)],
    hard: &[Array1<usize>],
    soft: &[Array1<F>],
    n: usize,
    n_classes: usize,
) -> Array2<F> {
    let mut votes = Array2::<F>::zeros((n, n_classes));
    let mut conf = Array2::<F>::zeros((n, n_classes));
    for (t, &(i, j)) in pairs.iter().enumerate() {
        for r in 0..n {
            let winner = if hard[t][r] == 1 { j } else { i };
            votes[[r, winner]] += F::one();
            conf[[r, i]] -= soft[t][r];
            conf[[r, j]] += soft[t][r];
        }
    }
    votes.zip_mut_with(&conf, |v, &c| *v += squash(c));
    votes
}

/// `2^{K−1} − 1`, saturating.
fn max_bipartitions(n_classes: usize) -> usize {
    let bits = n_classes.saturating_sub(1);
    if bits >= usize::BITS as usize {
        usize::MAX
    } else {
        (1usize << bits) - 1
    }
}

/// The bipartition numbered `mask ≥ 1`: class `c < K − 1` on side 1 iff bit `c` of `mask`.
fn enumerated_column(n_classes: usize, mask: usize) -> Vec<bool> {
    (0..n_classes)
        .map(|c| c + 1 < n_classes && c < usize::BITS as usize && (mask >> c) & 1 == 1)
        .collect()
}

/// The seeded `K × L` code (see the module docs).
fn random_code(n_classes: usize, length: usize, seed: u64) -> Array2<bool> {
    const DRAWS: usize = 256;
    let k = n_classes;
    let max = max_bipartitions(k);
    let columns: Vec<Vec<bool>> = if length >= max {
        (1..=max).map(|mask| enumerated_column(k, mask)).collect()
    } else {
        let mut cols: Vec<Vec<bool>> = Vec::with_capacity(length);
        // group[c]: classes with equal code words so far share a group id.
        let mut group = vec![0usize; k];
        for l in 0..length {
            let mut rng = random::stream(seed, l as u64);
            let tied = has_tie(&group);
            let mut first_valid: Option<Vec<bool>> = None;
            let mut chosen: Option<Vec<bool>> = None;
            for _ in 0..DRAWS {
                let mut cand: Vec<bool> = (0..k)
                    .map(|_| random::uniform::<f64>(&mut rng, 0.0, 1.0) < 0.5)
                    .collect();
                if cand[k - 1] {
                    cand.iter_mut().for_each(|b| *b = !*b);
                }
                if !cand.iter().any(|&b| b) || cols.contains(&cand) {
                    continue;
                }
                if !tied || splits_tie(&group, &cand) {
                    chosen = Some(cand);
                    break;
                }
                if first_valid.is_none() {
                    first_valid = Some(cand);
                }
            }
            let col = chosen.or(first_valid).unwrap_or_else(|| {
                (1..=max)
                    .map(|mask| enumerated_column(k, mask))
                    .find(|c| !cols.contains(c))
                    .unwrap_or_else(|| enumerated_column(k, 1))
            });
            group = refine(&group, &col);
            cols.push(col);
        }
        cols
    };
    Array2::from_shape_fn((k, columns.len()), |(c, l)| columns[l][c])
}

fn has_tie(group: &[usize]) -> bool {
    let mut seen = vec![false; group.len()];
    group.iter().any(|&g| std::mem::replace(&mut seen[g], true))
}

/// Whether `col` puts two classes of one group on different sides.
fn splits_tie(group: &[usize], col: &[bool]) -> bool {
    let mut side: Vec<Option<bool>> = vec![None; group.len()];
    group.iter().zip(col).any(|(&g, &b)| match side[g] {
        None => {
            side[g] = Some(b);
            false
        }
        Some(s) => s != b,
    })
}

/// Group ids after appending `col` to the code words (ids stay below `K`).
fn refine(group: &[usize], col: &[bool]) -> Vec<usize> {
    let mut ids: Vec<(usize, bool)> = Vec::new();
    group
        .iter()
        .zip(col)
        .map(|(&g, &b)| match ids.iter().position(|&key| key == (g, b)) {
            Some(p) => p,
            None => {
                ids.push((g, b));
                ids.len() - 1
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LogisticRegression;
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = three();
        let base = LogisticRegression::default();
        let mut fit = OneVsRestClassifier::new(base.clone())
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.estimators.pop();
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = OneVsOneClassifier::new(base.clone())
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.n_classes = usize::MAX;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = RandomBipartitionClassifier::new(base.clone())
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.code.fill(false);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = OneVsRestClassifier::new(ProbaScore::new(base))
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.n_features += 1;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn three() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [0.0, 0.1],
            [0.3, -0.2],
            [-0.2, 0.2],
            [0.4, 0.3],
            [2.0, 2.1],
            [2.3, 1.8],
            [1.7, 2.2],
            [2.1, 1.6],
            [-2.0, 2.0],
            [-2.2, 1.7],
            [-1.8, 2.4],
            [-1.9, 1.5]
        ];
        let y = array![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2];
        (x, y)
    }

    #[test]
    fn ovo_tie_break_worked_example() {
        // K = 3, one row, a cyclic vote: (0,1) → 0, (0,2) → 2, (1,2) → 1: one vote each.
        // Scores s_(0,1) = −1, s_(0,2) = 0.5, s_(1,2) = −2:
        // conf_0 = −s01 − s02 = 0.5, conf_1 = s01 − s12 = 1, conf_2 = s02 + s12 = −1.5;
        // c/(3(|c|+1)): 0.5/4.5 = 1/9, 1/6, −1.5/7.5 = −1/5.
        let pairs = class_pairs(3);
        let hard = vec![array![0usize], array![1], array![0]];
        let soft = vec![array![-1.0f64], array![0.5], array![-2.0]];
        let d = ovo_combine(&pairs, &hard, &soft, 1, 3);
        let want = [1.0 + 1.0 / 9.0, 1.0 + 1.0 / 6.0, 1.0 - 1.0 / 5.0];
        for k in 0..3 {
            assert!((d[[0, k]] - want[k]).abs() < 1e-15, "{k}");
        }
        assert_eq!(ndlearn_core::numeric::argmax_rows(&d)[0], 1);
        // A 2–1–0 vote is never overturned by confidences: class 0 wins two pairs with tiny
        // scores, against huge scores for the others.
        let hard = vec![array![0usize], array![0], array![1]];
        let soft = vec![array![-1e-9f64], array![-1e-9], array![1e9]];
        let d = ovo_combine(&pairs, &hard, &soft, 1, 3);
        assert_eq!(ndlearn_core::numeric::argmax_rows(&d)[0], 0);
        assert!(d[[0, 0]] > 1.6 && d[[0, 2]] < 4.0 / 3.0);
    }

    #[test]
    fn argmax_takes_the_lowest_index_on_ties() {
        let s = array![[1.0, 3.0, 3.0], [2.0, 2.0, 2.0], [f64::NAN, 0.0, -1.0]];
        assert_eq!(ndlearn_core::numeric::argmax_rows(&s), array![1, 0, 1]);
    }

    #[test]
    fn invalid_inputs_give_typed_errors() {
        let (x, y) = three();
        let lr = LogisticRegression::default();
        let one = Array1::from_elem(12, 1usize);
        assert!(matches!(
            OneVsRestClassifier::new(lr.clone()).fit(&x, &one),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(matches!(
            OneVsOneClassifier::new(lr.clone()).fit(&x, &one),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(matches!(
            RandomBipartitionClassifier::new(lr.clone()).fit(&x, &one),
            Err(Error::TooFewClasses { .. })
        ));
        // Class 1 absent (labels 0 and 2 only).
        let gap = y.mapv(|c| if c == 1 { 2 } else { c });
        assert!(matches!(
            OneVsRestClassifier::new(lr.clone()).fit(&x, &gap),
            Err(Error::TooFewClasses {
                needed: 3,
                found: 2,
                ..
            })
        ));
        assert!(matches!(
            OneVsOneClassifier::new(lr.clone()).fit(&x, &gap),
            Err(Error::TooFewClasses { .. })
        ));
        // Invalid hyperparameters: ours and the base estimator's.
        assert!(matches!(
            RandomBipartitionClassifier::new(lr.clone())
                .n_bipartitions(Some(0))
                .fit(&x, &y),
            Err(Error::InvalidParam {
                name: "n_bipartitions",
                ..
            })
        ));
        assert!(matches!(
            OneVsRestClassifier::new(LogisticRegression::new(-1.0)).fit(&x, &y),
            Err(Error::InvalidParam { name: "c", .. })
        ));
        // Code matrices.
        let est = RandomBipartitionClassifier::new(lr.clone());
        assert!(matches!(
            est.fit_with_code(&x, &y, &Array2::from_elem((2, 2), true)),
            Err(Error::ShapeMismatch { .. })
        ));
        let trivial = array![[true, true], [false, true], [false, true]];
        assert!(matches!(
            est.fit_with_code(&x, &y, &trivial),
            Err(Error::InvalidParam { name: "code", .. })
        ));
        // Predict: feature count and non-finite input.
        let m = OneVsOneClassifier::new(lr).fit(&x, &y).expect("fit");
        assert!(matches!(
            m.predict(&Array2::<f64>::zeros((2, 3))),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            m.predict(&array![[f64::NAN, 0.0]]),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn two_classes_reduce_to_the_base_model() {
        let (x, y3) = three();
        let rows: Vec<usize> = (0..8).collect();
        let x = x.select(Axis(0), &rows);
        let y = y3.select(Axis(0), &rows);
        let lr = LogisticRegression::default();
        let base = lr.fit(&x, &y).expect("base");
        let ovr = OneVsRestClassifier::new(lr.clone())
            .fit(&x, &y)
            .expect("ovr");
        assert_eq!(ovr.estimators().len(), 1);
        assert_eq!(ovr.estimators()[0], base);
        assert_eq!(ovr.predict(&x).expect("p"), base.predict(&x).expect("p"));
        let z = DecisionFunction::decision_function(&ovr, &x).expect("d");
        assert_eq!(z, base.decision_function(&x).expect("d"));
        let p = ovr.predict_proba(&x).expect("proba");
        let pb = base.predict_proba(&x).expect("proba");
        assert!((&p - &pb).iter().all(|v| v.abs() < 1e-15));
        // One-vs-one with two classes: one pair, D_1 = h + s/(3(|s|+1)).
        let ovo = OneVsOneClassifier::new(lr).fit(&x, &y).expect("ovo");
        let d = ovo.decision_function(&x).expect("d");
        let h = base.predict(&x).expect("p");
        for i in 0..x.nrows() {
            let want = h[i] as f64 + squash(z[[i, 0]]);
            assert!((d[[i, 0]] - want).abs() < 1e-15);
        }
        assert_eq!(ovo.predict(&x).expect("p"), h);
    }

    #[test]
    fn codes_are_valid_deterministic_and_exhaustive_when_short() {
        // K = 4: the default length 20 exceeds the 7 bipartitions: exhaustive code.
        let est = RandomBipartitionClassifier::new(LogisticRegression::default());
        let c4 = est.code_matrix(4).expect("code");
        assert_eq!(c4.dim(), (4, 7));
        for k in [3usize, 6, 9, 20] {
            for seed in [0u64, 1, 99] {
                let est = est.clone().seed(seed);
                let code = est.code_matrix(k).expect("code");
                assert_eq!(code, est.code_matrix(k).expect("again"));
                let l = code.ncols();
                assert_eq!(l, est.code_length(k));
                let cols: Vec<Vec<bool>> = code.columns().into_iter().map(|c| c.to_vec()).collect();
                for (a, col) in cols.iter().enumerate() {
                    let ones = col.iter().filter(|&&b| b).count();
                    assert!(ones > 0 && ones < k, "trivial column");
                    assert!(!col[k - 1], "canonical side");
                    assert!(!cols[..a].contains(col), "repeated column");
                }
                let rows: Vec<Vec<bool>> = code.rows().into_iter().map(|r| r.to_vec()).collect();
                for a in 0..k {
                    for b in a + 1..k {
                        assert_ne!(rows[a], rows[b], "code words {a} and {b} coincide");
                    }
                }
            }
        }
        // Different seeds give different random codes (K = 9: 34 of 255 bipartitions).
        assert_ne!(
            est.clone().seed(1).code_matrix(9).expect("a"),
            est.clone().seed(2).code_matrix(9).expect("b")
        );
        // Short codes still separate the classes: L = K − 1 always does.
        let short = est
            .clone()
            .n_bipartitions(Some(7))
            .code_matrix(8)
            .expect("c");
        let rows: Vec<Vec<bool>> = short.rows().into_iter().map(|r| r.to_vec()).collect();
        for a in 0..8 {
            assert!(!rows[a + 1..].contains(&rows[a]));
        }
    }

    #[test]
    fn defaults_are_documented_ones() {
        let ovr = OneVsRestClassifier::<LogisticRegression>::default();
        assert!(ovr.parallel && ovr.estimator == LogisticRegression::default());
        assert!(OneVsOneClassifier::<LogisticRegression>::default().parallel);
        let rb = RandomBipartitionClassifier::<LogisticRegression>::default();
        assert!(rb.parallel && rb.seed == 0 && rb.n_bipartitions.is_none());
        // ⌈10 log₂ K⌉, capped at 2^{K−1} − 1.
        assert_eq!(rb.code_length(3), 3);
        assert_eq!(rb.code_length(4), 7);
        assert_eq!(rb.code_length(6), 26);
        assert_eq!(rb.code_length(10), 34);
        assert_eq!(rb.clone().n_bipartitions(Some(2)).code_length(10), 2);
    }

    #[test]
    fn distance_decoding_is_the_nearest_code_word_in_euclidean_distance() {
        let (x, y) = three();
        let code = array![[true, false], [false, true], [true, true]];
        let m = RandomBipartitionClassifier::new(LogisticRegression::default())
            .fit_with_code(&x, &y, &code)
            .expect("fit");
        let d = m.decision_function(&x).expect("d");
        let s = score_matrix(m.estimators(), &x).expect("scores");
        for i in 0..x.nrows() {
            // ‖s − σ_k‖² = ‖s‖² − 2 conf_k + L: the argmin is the argmax of conf_k.
            let dist: Vec<f64> = (0..3)
                .map(|k| {
                    (0..2)
                        .map(|l| {
                            let sigma = if code[[k, l]] { 1.0 } else { -1.0 };
                            (s[[i, l]] - sigma) * (s[[i, l]] - sigma)
                        })
                        .sum()
                })
                .collect();
            let nearest = (0..3)
                .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
                .expect("classes");
            assert_eq!(ndlearn_core::numeric::argmax_rows(&d)[i], nearest);
            for k in 0..3 {
                let conf = (0..2)
                    .map(|l| if code[[k, l]] { s[[i, l]] } else { -s[[i, l]] })
                    .sum::<f64>();
                assert!((d[[i, k]] - conf).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn bookkeeping_helpers() {
        assert_eq!(max_bipartitions(2), 1);
        assert_eq!(max_bipartitions(3), 3);
        assert_eq!(max_bipartitions(200), usize::MAX);
        assert_eq!(enumerated_column(3, 3), vec![true, true, false]);
        assert!(has_tie(&[0, 1, 0]) && !has_tie(&[0, 1, 2]));
        assert!(splits_tie(&[0, 0, 1], &[true, false, false]));
        assert!(!splits_tie(&[0, 0, 1], &[true, true, false]));
        assert_eq!(refine(&[0, 0, 1], &[true, false, false]), vec![0, 1, 2]);
        assert_eq!(class_pairs(4).len(), 6);
    }
}
