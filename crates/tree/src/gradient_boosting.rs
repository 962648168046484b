//! Exact gradient boosting over regression trees ([`GradientBoostingRegressor`],
//! [`GradientBoostingClassifier`]), scikit-learn's `GradientBoosting*` (Friedman's gradient
//! tree boosting with line search per leaf).
//!
//! # Algorithm
//!
//! Boosted regression trees: start from a constant raw score `F₀` (the loss's best constant:
//! mean, median, `α`-quantile, prior log-odds or class priors; or 0 with
//! [`GradientBoostingInit::Zero`]). For stages `m = 1..M` (`M = n_estimators`), with shrinkage
//! `λ = learning_rate`:
//!
//! ```text
//! 1. pseudo-residuals   rᵢ = −∂ℓ(yᵢ, F)/∂F |_{F = F_{m−1}(xᵢ)}
//! 2. fit a regression tree with terminal regions R_{jm} (squared error, depth ≤ d) to (xᵢ, rᵢ)
//! 3. line search per leaf   γ_{jm} = argmin_γ Σ_{xᵢ ∈ R_{jm}} wᵢ ℓ(yᵢ, F_{m−1}(xᵢ) + γ)
//! 4. F_m(x) = F_{m−1}(x) + λ Σ_j γ_{jm} [x ∈ R_{jm}]
//! ```
//!
//! With the squared error and `λ` small this is the course notes' boosted regression trees
//! (fit a tree with `d` splits to the current residuals, add `λ` times it, `B` rounds); any other
//! loss only changes the residuals of step 1 and the leaf values of step 3 (gradient boosting
//! with a pluggable loss). The losses, their pseudo-residuals and the line search of step 3 are
//! scikit-learn's (`_update_terminal_regions`), with `wᵢ` the sample weights of the rows of
//! the leaf:
//!
//! | loss | `ℓ(y, F)` | pseudo-residual `r` | leaf value `γ` |
//! |---|---|---|---|
//! | `squared_error` | `½(y − F)²` | `y − F` | the tree's mean of `r` (exact) |
//! | `absolute_error` | `\|y − F\|` | `sign(y − F)` | weighted median of `y − F` |
//! | `huber` (`alpha`) | Huber with `δ` = weighted `α`-percentile of `\|y − F\|` (per stage) | `y − F` clipped to `±δ` | `m + Σw·sign(dᵢ)min(δ, \|dᵢ\|)/Σw`, `m` = weighted median of `y − F`, `dᵢ = yᵢ − Fᵢ − m` |
//! | `quantile` (`alpha`) | pinball `α(y − F)₊ + (1 − α)(F − y)₊` | `α` or `α − 1` | weighted `α`-percentile of `y − F` |
//! | `log_loss`, 2 classes | `log(1 + eᶠ) − yF` | `y − p`, `p = σ(F)` | Newton step `Σw r / Σw p(1 − p)` |
//! | `log_loss`, `K > 2` | `log Σₖ e^{Fₖ} − F_y` (one tree per class and stage) | `[y = k] − pₖ` | `(K − 1)/K · Σw r / Σw pₖ(1 − pₖ)` |
//! | `exponential` | `y e^{−F} + (1 − y) e^{F}` | `y e^{−F} − (1 − y) e^{F}` | `Σw r / Σw \|r\|` |
//!
//! (Weighted percentiles are scikit-learn's `_weighted_percentile`, the inverted CDF; a Newton
//! step with a denominator below `1e-150` is 0.) Probabilities are `σ(F)` (two classes),
//! `σ(2F)` (exponential) and `softmax(F)` (`K > 2`); the binary prediction is class 1 when
//! `F ≥ 0`.
//!
//! **Subsampling** (`subsample < 1`, stochastic gradient boosting): every stage draws
//! `⌊subsample·n⌋` rows without replacement (scikit-learn's `_random_sample_mask` from the same
//! `RandomState` stream that seeds the trees), fits the tree and the line search on them, and
//! records the loss on the left-out rows (`oob_scores`, `oob_improvement`).
//!
//! **Early stopping** (`n_iter_no_change = Some(k)`): a `validation_fraction` of the rows is set
//! aside (scikit-learn's `train_test_split` with the same seed, stratified for classifiers) and
//! boosting stops at the first stage whose validation loss is not `tol` below any of the last
//! `k` recorded ones (that stage is kept).
//!
//! Every stage is reported to [`ndlearn_core::observe`] (iteration = stage, objective = its
//! training loss); an observer answering `Stop` ends the boosting after that stage, as
//! scikit-learn's `monitor` returning `True`.
//!
//! `train_score[m]` is the (weighted mean) training loss after stage `m` on the in-bag rows,
//! scaled as scikit-learn's (twice the half losses for `squared_error` and binary
//! `log_loss`). Importances are the mean over trees with at least one split of their
//! unnormalised impurity importances, normalised to sum 1.
//!
//! # Equality with scikit-learn
//!
//! ndlearn replays scikit-learn 1.9.1's random streams: the tree of stage `m` and class `k` gets
//! the splitter seed `randint(0, 2³¹ − 1)` from `RandomState(random_state)`, after that stage's
//! subsample draw, so on float32-representable data without equal-gain ties the trees, leaf
//! values, raw scores, probabilities, staged scores and training losses equal scikit-learn's
//! (`scripts/golden/gradient_boosting.py`, within 1e-8). scikit-learn 1.9 deprecated
//! `criterion` (trees always split by the squared error); both values are accepted and behave
//! alike. `warm_start` is the fitted models' `warm_start` / `fit_more`. A user `init` estimator
//! (`init=estimator`) is [`GradientBoostingRegressor::fit_with_init`] /
//! [`GradientBoostingClassifier::fit_with_init`] (and their weighted forms), giving a
//! [`GradientBoostingWithInit`]: the init model is fitted on the training part and the boosting
//! starts from its predictions through the loss's link (`scripts/golden/gradient_boosting_init.py`:
//! a linear regression, a tree and Gaussian naive Bayes as init models, within 1e-8).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `loss` | `squared_error` / `log_loss` | `loss` | see the table above |
//! | `learning_rate` | 0.1 | `learning_rate` | `≥ 0` |
//! | `n_estimators` | 100 | `n_estimators` | `≥ 1` |
//! | `subsample` | 1.0 | `subsample` | `(0, 1]` |
//! | `criterion` | `friedman_mse` | `criterion` (deprecated, no effect) | `friedman_mse`, `squared_error` |
//! | `max_depth` | `Some(3)` | `max_depth` | `≥ 1` or `None` |
//! | `min_samples_split`, `min_samples_leaf`, `min_weight_fraction_leaf`, `min_impurity_decrease`, `max_features`, `max_leaf_nodes`, `ccp_alpha` | as the trees' | same | as [`crate::DecisionTreeRegressor`] |
//! | `init` | loss constant | `init` (`None` / `"zero"`) | `constant`, `zero`; an estimator through `fit_with_init` |
//! | `alpha` (regressor) | 0.9 | `alpha` | `(0, 1)` |
//! | `n_iter_no_change` | `None` | `n_iter_no_change` | `≥ 1` |
//! | `validation_fraction` | 0.1 | `validation_fraction` | `(0, 1)` |
//! | `tol` | 1e-4 | `tol` | `≥ 0` |
//! | `seed` | 0 | `random_state` | |
//! | — | | `warm_start=True` | the fitted model's `warm_start(&estimator, …)` / `fit_more(…, n_estimators)` |
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for a hyperparameter out of range or `exponential` with more than two
//! classes; the usual input errors (shape, non-finite values, bad weights); fewer than two
//! classes (with positive weight); an early-stopping split that leaves a class out of the
//! training part or a class with a single row.
//!
//! # References
//!
//! - J. H. Friedman, "Greedy function approximation: a gradient boosting machine", Annals of
//!   Statistics 29(5), 2001.
//! - J. H. Friedman, "Stochastic gradient boosting", Computational Statistics & Data Analysis
//!   38(4), 2002.
//! - T. Hastie, R. Tibshirani, J. Friedman, *The Elements of Statistical Learning*, 2nd ed.,
//!   §10.9–10.12.
//! - scikit-learn's `sklearn/ensemble/_gb.py`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::loss::Loss;
use ndlearn_core::observe::{self, Progress};
use ndlearn_core::stats::order::weighted_percentiles_slices;
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    DecisionFunction, Error, Estimator, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn,
    Predict, PredictProba, Result, validate,
};

use crate::builder::{self, Columns};
use crate::common::{Growth, check_weighted_classes, check_x_and_weights};
use crate::criterion::RegCrit;
use crate::params::{MaxFeatures, RegCriterion, SampleCount, SplitterKind};
use crate::sk_random::{RandomState, TreeRng, numpy_sum};
use crate::tree::{LOCKSTEP, PackedTree, Tree, check_trees, packed_leaves};

/// Rows per parallel task of the gradient-boosting predictions: small enough that a few
/// thousand rows keep every thread busy, large enough that a task's walk over all the trees
/// outweighs its start.
const PREDICT_CHUNK: usize = 256;

mod user_init;
pub use user_init::GradientBoostingWithInit;

/// The loss of a [`GradientBoostingRegressor`] (scikit-learn's `loss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GradientBoostingRegressionLoss {
    /// `½(y − F)²`; leaves keep the tree's mean residual (default).
    #[default]
    SquaredError,
    /// `|y − F|`; leaves take the weighted median residual.
    AbsoluteError,
    /// Huber's loss with `δ` the `alpha`-percentile of the absolute residuals.
    Huber,
    /// The pinball loss of the `alpha`-quantile.
    Quantile,
}

/// The loss of a [`GradientBoostingClassifier`] (scikit-learn's `loss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GradientBoostingClassificationLoss {
    /// Binomial (two classes) or multinomial (`K` trees per stage) log-loss (default).
    #[default]
    LogLoss,
    /// The exponential (AdaBoost) loss; two classes only.
    Exponential,
}

/// The split criterion of the boosted trees (scikit-learn's deprecated `criterion`: since
/// scikit-learn 1.9 both values grow the same squared-error trees, as here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GradientBoostingCriterion {
    /// Friedman's MSE (default; the same trees as `squared_error`).
    #[default]
    #[cfg_attr(feature = "serde", serde(alias = "deprecated"))]
    FriedmanMse,
    /// Squared error.
    SquaredError,
}

/// The starting raw score `F₀` (scikit-learn's `init`: `None` or `"zero"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GradientBoostingInit {
    /// The loss's best constant: mean (squared error), median (absolute error, Huber),
    /// `alpha`-quantile (quantile), prior log-odds (log-loss, `½` of them for exponential),
    /// centred log class priors (multinomial) (default; scikit-learn's `init=None`).
    #[default]
    #[cfg_attr(feature = "serde", serde(alias = "none", alias = "null"))]
    Constant,
    /// `F₀ = 0`.
    Zero,
}

/// The loss as the boosting loop uses it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GbLoss {
    Squared,
    Absolute,
    Huber { alpha: f64 },
    Quantile { alpha: f64 },
    Binomial,
    Multinomial { k: usize },
    Exponential,
}

impl GbLoss {
    fn n_trees(self) -> usize {
        match self {
            GbLoss::Multinomial { k } => k,
            _ => 1,
        }
    }

    /// scikit-learn's factor between its loss objects and the reported scores.
    fn factor(self) -> f64 {
        match self {
            GbLoss::Squared | GbLoss::Binomial => 2.0,
            _ => 1.0,
        }
    }

    /// The pointwise loss of the scalar losses (`delta`: the current Huber threshold).
    fn scalar(self, delta: f64) -> Loss {
        match self {
            GbLoss::Squared => Loss::SquaredError,
            GbLoss::Absolute => Loss::AbsoluteError,
            GbLoss::Huber { .. } => Loss::Huber { delta },
            GbLoss::Quantile { alpha } => Loss::Pinball { quantile: alpha },
            GbLoss::Binomial => Loss::LogLoss,
            GbLoss::Exponential | GbLoss::Multinomial { .. } => Loss::Exponential,
        }
    }

    /// `ℓ(y, F)` of one row (`raw`: its `K` scores).
    fn value(self, y: f64, raw: &[f64], delta: f64) -> f64 {
        match self {
            GbLoss::Multinomial { .. } => {
                ndlearn_core::loss::MultinomialLoss::value_row(y as usize, raw)
            }
            _ => self.scalar(delta).value(y, raw[0]),
        }
    }

    /// `np.average(loss, weights=w)` over `rows`, times the reporting factor.
    fn score(self, y: &[f64], raw: &[f64], w: &[f64], rows: &[usize], delta: f64) -> f64 {
        let k = self.n_trees();
        let lw: Vec<f64> = rows
            .iter()
            .map(|&i| self.value(y[i], &raw[i * k..(i + 1) * k], delta) * w[i])
            .collect();
        let ws: Vec<f64> = rows.iter().map(|&i| w[i]).collect();
        self.factor() * (numpy_sum(&lw) / numpy_sum(&ws))
    }
}

/// The boosting settings both estimators share.
#[derive(Debug, Clone, Copy)]
struct Settings {
    learning_rate: f64,
    n_estimators: usize,
    subsample: f64,
    growth: Growth,
    init: GradientBoostingInit,
    seed: u64,
    validation_fraction: f64,
    n_iter_no_change: Option<usize>,
    tol: f64,
}

impl Settings {
    fn validate(&self) -> Result<()> {
        validate::check_non_negative("learning_rate", self.learning_rate)?;
        validate::check_at_least("n_estimators", self.n_estimators, 1)?;
        if !(self.subsample > 0.0 && self.subsample <= 1.0) {
            return Err(Error::invalid_param(
                "subsample",
                format!("must be in (0, 1]; got {}", self.subsample),
            ));
        }
        if !(self.validation_fraction > 0.0 && self.validation_fraction < 1.0) {
            return Err(Error::invalid_param(
                "validation_fraction",
                format!("must be in (0, 1); got {}", self.validation_fraction),
            ));
        }
        if self.n_iter_no_change == Some(0) {
            return Err(Error::invalid_param(
                "n_iter_no_change",
                "must be at least 1 (or None)",
            ));
        }
        validate::check_non_negative("tol", self.tol)?;
        self.growth.validate()
    }
}

/// `np.average(a, weights=w)`.
fn average(a: &[f64], w: &[f64]) -> f64 {
    let p: Vec<f64> = a.iter().zip(w).map(|(x, y)| x * y).collect();
    numpy_sum(&p) / numpy_sum(w)
}

/// `_safe_divide`: 0 for a denominator below `1e-150` in magnitude.
fn safe_divide(num: f64, den: f64) -> f64 {
    if den.abs() < 1e-150 { 0.0 } else { num / den }
}

/// scikit-learn's `_weighted_percentile` (inverted CDF).
fn wpercentile(x: &[f64], w: &[f64], rank: f64) -> Result<f64> {
    Ok(weighted_percentiles_slices(x, w, &[rank], false)?[0])
}

/// scikit-learn's `_random_sample_mask`: `n_in_bag` of `n` rows, from `n` uniform draws.
fn sample_mask(n: usize, n_in_bag: usize, rng: &mut RandomState) -> Vec<bool> {
    let u: Vec<f64> = (0..n).map(|_| rng.random_sample()).collect();
    let mut mask = vec![false; n];
    let mut bagged = 0usize;
    for i in 0..n {
        if u[i] * ((n - i) as f64) < (n_in_bag - bagged) as f64 {
            mask[i] = true;
            bagged += 1;
        }
    }
    mask
}

/// scikit-learn's `_approximate_mode` (with the stream `rng`).
fn approximate_mode(counts: &[usize], n_draws: usize, rng: &mut RandomState) -> Vec<usize> {
    let total: usize = counts.iter().sum();
    let continuous: Vec<f64> = counts
        .iter()
        .map(|&c| c as f64 / total as f64 * n_draws as f64)
        .collect();
    let mut floored: Vec<f64> = continuous.iter().map(|c| c.floor()).collect();
    let mut need = (n_draws as f64 - floored.iter().sum::<f64>()) as i64;
    if need > 0 {
        let remainder: Vec<f64> = continuous
            .iter()
            .zip(&floored)
            .map(|(c, f)| c - f)
            .collect();
        let mut values = remainder.clone();
        values.sort_by(|a, b| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
        values.dedup();
        for v in values {
            let inds: Vec<usize> = (0..remainder.len())
                .filter(|&i| remainder[i] == v)
                .collect();
            let add = (inds.len() as i64).min(need);
            let perm = rng.permutation(inds.len());
            for &p in &perm[..add as usize] {
                floored[inds[p]] += 1.0;
            }
            need -= add;
            if need == 0 {
                break;
            }
        }
    }
    floored.iter().map(|&f| f as usize).collect()
}

/// scikit-learn's `train_test_split(…, random_state=seed, test_size=fraction, stratify=…)`:
/// `(train rows, validation rows)` in scikit-learn's order.
fn early_stopping_split(
    n: usize,
    fraction: f64,
    seed: u64,
    stratify: Option<&[usize]>,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let n_test = (fraction * n as f64).ceil() as usize;
    let n_train = n.saturating_sub(n_test);
    if n_train == 0 || n_test == 0 {
        return Err(Error::invalid_param(
            "validation_fraction",
            format!("leaves an empty training or validation part of {n} rows"),
        ));
    }
    let mut rng = RandomState::new(seed);
    let Some(y) = stratify else {
        let p = rng.permutation(n);
        return Ok((p[n_test..n_test + n_train].to_vec(), p[..n_test].to_vec()));
    };
    // Present classes in increasing label order, their rows in increasing order.
    let k = y.iter().copied().max().unwrap_or(0) + 1;
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, &c) in y.iter().enumerate() {
        rows_of[c].push(i);
    }
    rows_of.retain(|r| !r.is_empty());
    let counts: Vec<usize> = rows_of.iter().map(Vec::len).collect();
    if counts.iter().any(|&c| c < 2) {
        return Err(Error::invalid_param(
            "n_iter_no_change",
            "the stratified early-stopping split needs at least 2 rows of every class",
        ));
    }
    if n_train < counts.len() || n_test < counts.len() {
        return Err(Error::invalid_param(
            "validation_fraction",
            "the early-stopping split needs at least one row per class on each side",
        ));
    }
    let n_i = approximate_mode(&counts, n_train, &mut rng);
    let remaining: Vec<usize> = counts.iter().zip(&n_i).map(|(c, a)| c - a).collect();
    let t_i = approximate_mode(&remaining, n_test, &mut rng);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (c, rows) in rows_of.iter().enumerate() {
        let perm = rng.permutation(rows.len());
        let shuffled: Vec<usize> = perm.iter().map(|&p| rows[p]).collect();
        train.extend_from_slice(&shuffled[..n_i[c]]);
        test.extend_from_slice(&shuffled[n_i[c]..n_i[c] + t_i[c]]);
    }
    rng.shuffle(&mut train);
    rng.shuffle(&mut test);
    Ok((train, test))
}

/// A fitted ensemble: the starting scores, the trees (stage-major, `K` per stage) and the
/// fit's records.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
struct Ensemble<F> {
    init: Vec<f64>,
    trees: Vec<Tree<F>>,
    n_trees_per_stage: usize,
    learning_rate: f64,
    train_score: Vec<f64>,
    oob_improvement: Option<Vec<f64>>,
    oob_scores: Option<Vec<f64>>,
    n_features: usize,
    /// The state of the `RandomState` stream after the last stage (for a warm start).
    rng_state: Vec<u32>,
}

impl<F: Float> Ensemble<F> {
    fn n_stages(&self) -> usize {
        self.trees.len() / self.n_trees_per_stage.max(1)
    }

    /// Raw scores `n × K` after each stage (`each(stage, scores)`), scikit-learn's order of
    /// additions.
    fn raw_staged(
        &self,
        x: &ArrayRef2<F>,
        context: &'static str,
        each: impl FnMut(usize, &Array2<f64>),
    ) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.n_features, context)?;
        let k = self.n_trees_per_stage;
        let mut raw = Array2::<f64>::zeros((x.nrows(), k));
        for mut row in raw.rows_mut() {
            row.iter_mut().zip(&self.init).for_each(|(r, &v)| *r = v);
        }
        self.add_stages(x, raw, each)
    }

    /// Adds the stages to starting raw scores `raw` (`n × K`; the constant `init` or a user
    /// init estimator's scores), calling `each` after every stage. `x` is checked by the caller.
    fn add_stages(
        &self,
        x: &ArrayRef2<F>,
        mut raw: Array2<f64>,
        mut each: impl FnMut(usize, &Array2<f64>),
    ) -> Result<Array2<f64>> {
        let k = self.n_trees_per_stage;
        for (s, stage) in self.trees.chunks(k).enumerate() {
            for (c, tree) in stage.iter().enumerate() {
                let leaves = tree.apply_unchecked(x);
                for (r, &leaf) in raw.column_mut(c).iter_mut().zip(leaves.iter()) {
                    *r += self.learning_rate * tree.node_value(leaf)[0];
                }
            }
            each(s, &raw);
        }
        Ok(raw)
    }

    /// Adds every stage to starting raw scores `raw` (`n × K`), the same sums in the same order
    /// as [`Ensemble::add_stages`], for chunks of rows in parallel: the trees are packed once
    /// and each chunk is walked in lockstep blocks (one copy of the chunk's rows, not one per
    /// tree), so the result is bitwise the same for any thread count. `x` is checked by the
    /// caller.
    fn add_all(&self, x: &ArrayRef2<F>, mut raw: Array2<f64>) -> Array2<f64> {
        let k = self.n_trees_per_stage.max(1);
        let packed: Vec<PackedTree<F>> = self.trees.iter().map(Tree::packed).collect();
        let d = x.ncols().max(1);
        let lr = self.learning_rate;
        ndlearn_core::par::for_each_row_chunk_mut(&mut raw, PREDICT_CHUNK, |range, mut acc| {
            let rows = x.slice(ndarray::s![range, ..]);
            let flat: Vec<F> = match rows.as_slice() {
                Some(s) => s.to_vec(),
                None => rows.iter().copied().collect(),
            };
            let mut leaves = vec![0usize; rows.nrows()];
            for (t, (tree, nodes)) in self.trees.iter().zip(&packed).enumerate() {
                let c = t % k;
                for (block, out) in flat.chunks(LOCKSTEP * d).zip(leaves.chunks_mut(LOCKSTEP)) {
                    packed_leaves(nodes, block, d, out);
                }
                for (r, &leaf) in acc.column_mut(c).iter_mut().zip(&leaves) {
                    *r += lr * tree.node_value(leaf)[0];
                }
            }
        });
        raw
    }

    fn raw(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.n_features, context)?;
        let mut raw = Array2::<f64>::zeros((x.nrows(), self.n_trees_per_stage));
        for mut row in raw.rows_mut() {
            row.iter_mut().zip(&self.init).for_each(|(r, &v)| *r = v);
        }
        Ok(self.add_all(x, raw))
    }

    fn staged(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Vec<Array2<f64>>> {
        let mut out = Vec::with_capacity(self.n_stages());
        self.raw_staged(x, context, |_, r| out.push(r.clone()))?;
        Ok(out)
    }

    fn feature_importances(&self) -> Array1<f64> {
        let relevant: Vec<Array1<f64>> = self
            .trees
            .iter()
            .filter(|t| t.node_count() > 1)
            .map(|t| t.feature_importances(false))
            .collect();
        if relevant.is_empty() {
            return Array1::zeros(self.n_features);
        }
        let n = relevant.len() as f64;
        let mean: Array1<f64> = (0..self.n_features)
            .map(|f| {
                let col: Vec<f64> = relevant.iter().map(|r| r[f]).collect();
                numpy_sum(&col) / n
            })
            .collect();
        let s = numpy_sum(mean.as_slice().unwrap_or(&[]));
        if s > 0.0 { mean / s } else { mean }
    }
}

impl<F: Float> Ensemble<F> {
    /// The fitted stages of a model with `k` trees per stage, at most `n_estimators` stages and
    /// `learning_rate` (its hyperparameters): one starting score per tree of a stage, whole
    /// stages (at least one) of one-output regression trees on the model's features, one
    /// training score per stage, and a `RandomState` saved whole (for a warm start).
    fn check(
        &self,
        c: &ModelCheck,
        k: usize,
        n_estimators: usize,
        learning_rate: f64,
    ) -> Result<()> {
        c.that(self.n_trees_per_stage == k, || {
            format!("{} trees per stage, expected {k}", self.n_trees_per_stage)
        })?;
        c.len("init", self.init.len(), k)?;
        c.finite_slice("init", &self.init)?;
        c.that(self.learning_rate == learning_rate, || {
            "`learning_rate` differs from the hyperparameters'".into()
        })?;
        c.that(self.trees.len() % k == 0, || {
            format!("{} trees are not whole stages of {k}", self.trees.len())
        })?;
        let stages = self.trees.len() / k;
        c.that((1..=n_estimators).contains(&stages), || {
            format!("{stages} stages, expected 1 to n_estimators = {n_estimators}")
        })?;
        check_trees(c, "trees", &self.trees, self.n_features, 1, 1)?;
        c.len("train_score", self.train_score.len(), stages)?;
        if let Some(v) = &self.oob_scores {
            c.len("oob_scores", v.len(), stages)?;
        }
        if let Some(v) = &self.oob_improvement {
            c.len("oob_improvement", v.len(), stages)?;
        }
        c.that(
            self.rng_state.len() == 625 && self.rng_state[624] <= 624,
            || "`rng_state` is not a saved MT19937 state (624 words and a position)".into(),
        )
    }
}

/// The starting scores of the `init = Constant` model on the training part.
fn init_scores(loss: GbLoss, y: &[f64], w: Option<&[f64]>, n_classes: usize) -> Result<Vec<f64>> {
    let yv = ndarray::ArrayView1::from(y);
    let wv = w.map(ndarray::ArrayView1::from);
    let eps = f64::EPSILON;
    let priors = || -> Vec<f64> {
        let mut counts = vec![0.0f64; n_classes];
        for (i, &c) in y.iter().enumerate() {
            counts[c as usize] += w.map_or(1.0, |w| w[i]);
        }
        let total = numpy_sum(&counts);
        counts
            .iter()
            .map(|c| (c / total).clamp(eps, 1.0 - eps))
            .collect()
    };
    Ok(match loss {
        GbLoss::Squared => vec![match w {
            None => numpy_sum(y) / y.len() as f64,
            Some(w) => average(y, w),
        }],
        GbLoss::Absolute | GbLoss::Huber { .. } => {
            vec![Loss::AbsoluteError.intercept_only(&yv, wv.as_deref())?]
        }
        GbLoss::Quantile { alpha } => {
            vec![Loss::Pinball { quantile: alpha }.intercept_only(&yv, wv.as_deref())?]
        }
        GbLoss::Binomial | GbLoss::Exponential => {
            let p = priors()[1];
            let logit = (p / (1.0 - p)).ln();
            vec![if loss == GbLoss::Exponential {
                0.5 * logit
            } else {
                logit
            }]
        }
        GbLoss::Multinomial { .. } => {
            let p = priors();
            let logs: Vec<f64> = p.iter().map(|v| v.ln()).collect();
            let gm = (numpy_sum(&logs) / p.len() as f64).exp();
            p.iter().map(|v| (v / gm).ln()).collect()
        }
    })
}

/// The target of a boosting fit.
struct Target<'a> {
    /// Targets, or class indices as `f64`.
    y: &'a [f64],
    /// Class indices (classifiers: the early-stopping split is stratified).
    stratify: Option<&'a [usize]>,
    /// Number of classes (0 for regression).
    n_classes: usize,
}

/// Runs the boosting stages on `(x, y)`, after the stages of `warm` if given.
fn boost<F: Float>(
    s: &Settings,
    loss: GbLoss,
    x: &ArrayRef2<F>,
    target: Target<'_>,
    w_given: Option<Vec<f64>>,
    warm: Option<&Ensemble<F>>,
    start: Option<&mut user_init::StartFn<'_, F>>,
) -> Result<Ensemble<F>> {
    let Target {
        y: y_all,
        stratify,
        n_classes,
    } = target;
    let (n_all, d) = x.dim();
    if let Some(prev) = warm {
        validate::check_n_features(d, prev.n_features, "gradient boosting warm start")?;
        if s.n_estimators < prev.n_stages() {
            return Err(Error::invalid_param(
                "n_estimators",
                format!(
                    "a warm start needs at least the {} stages already fitted; got {}",
                    prev.n_stages(),
                    s.n_estimators
                ),
            ));
        }
    }
    let weighted = w_given.is_some();
    let w_all = w_given.unwrap_or_else(|| vec![1.0; n_all]);
    // Early-stopping split.
    let (train, val) = match s.n_iter_no_change {
        Some(_) => early_stopping_split(n_all, s.validation_fraction, s.seed, stratify)?,
        None => ((0..n_all).collect(), Vec::new()),
    };
    if let (Some(_), Some(strat)) = (s.n_iter_no_change, stratify) {
        let mut seen = vec![false; n_classes];
        train.iter().for_each(|&i| seen[strat[i]] = true);
        let mut present = vec![false; n_classes];
        strat.iter().for_each(|&c| present[c] = true);
        if seen != present {
            return Err(Error::invalid_param(
                "n_iter_no_change",
                "the training data after the early-stopping split is missing some classes; \
                 try another seed",
            ));
        }
    }
    let x_train;
    let x_tr: &ArrayRef2<F> = if s.n_iter_no_change.is_some() {
        x_train = x.select(Axis(0), &train);
        &x_train
    } else {
        x
    };
    let x_val = x.select(Axis(0), &val);
    let y: Vec<f64> = train.iter().map(|&i| y_all[i]).collect();
    let w: Vec<f64> = train.iter().map(|&i| w_all[i]).collect();
    let y_val: Vec<f64> = val.iter().map(|&i| y_all[i]).collect();
    let w_val: Vec<f64> = val.iter().map(|&i| w_all[i]).collect();
    let n = y.len();
    let k = loss.n_trees();

    // a user init estimator, fitted on the training part (after the early-stopping split, as
    // scikit-learn's `init_.fit(X_train, ...)`), gives per-row starting scores; the
    // ensemble's own constant is then 0
    let started = match start {
        Some(f) => {
            let (tr, va) = f(x_tr, &y, weighted.then_some(w.as_slice()), &x_val)?;
            user_init::check_start(&tr, n, k)?;
            user_init::check_start(&va, val.len(), k)?;
            Some((tr, va))
        }
        None => None,
    };
    let init = match (warm, s.init, &started) {
        (Some(prev), _, _) => prev.init.clone(),
        (None, _, Some(_)) | (None, GradientBoostingInit::Zero, None) => vec![0.0; k],
        (None, GradientBoostingInit::Constant, None) => {
            init_scores(loss, &y, weighted.then_some(w.as_slice()), n_classes)?
        }
    };
    // A warm start continues from the fitted stages (scikit-learn's `_raw_predict(X_train)`).
    let (start_train, start_val) = started.unzip();
    let mut raw: Vec<f64> = match (warm, start_train) {
        (Some(prev), _) => Ensemble {
            learning_rate: s.learning_rate,
            ..prev.clone()
        }
        .raw(x_tr, "gradient boosting warm start")?
        .iter()
        .copied()
        .collect(),
        (None, Some(tr)) => tr,
        (None, None) => (0..n).flat_map(|_| init.iter().copied()).collect(),
    };
    let mut raw_val: Vec<f64> =
        start_val.unwrap_or_else(|| (0..val.len()).flat_map(|_| init.iter().copied()).collect());

    let xt = builder::to_columns(x_tr);
    let data = Columns::column_major(&xt, n, d);
    let mut rng = match warm {
        Some(prev) => RandomState::from_state(&prev.rng_state),
        None => RandomState::new(s.seed),
    };
    let do_oob = s.subsample < 1.0;
    let n_in_bag = ((s.subsample * n as f64) as usize).max(1);
    let all_rows: Vec<usize> = (0..n).collect();
    let val_rows: Vec<usize> = (0..val.len()).collect();
    let factor_loss = loss;
    let mut delta = 0.5;
    let begin = warm.map_or(0, Ensemble::n_stages);
    // reserved up to a bound: `n_estimators` is a user's (or a model file's) number, and an
    // absurd one must stop at the loop's observer or early stopping, not at the allocator
    let reserve = s.n_estimators.min(4096);
    let mut trees: Vec<Tree<F>> = Vec::with_capacity(reserve.saturating_mul(k));
    let mut train_score = Vec::with_capacity(reserve);
    let mut oob_scores = Vec::new();
    let mut oob_improvement = Vec::new();
    if let Some(prev) = warm {
        trees.extend(prev.trees.iter().cloned());
        train_score.extend_from_slice(&prev.train_score);
        // scikit-learn starts the out-of-bag records of a first fit without them at zeros.
        oob_scores = prev.oob_scores.clone().unwrap_or_else(|| vec![0.0; begin]);
        oob_improvement = prev
            .oob_improvement
            .clone()
            .unwrap_or_else(|| vec![0.0; begin]);
    }
    let mut history = vec![f64::INFINITY; s.n_iter_no_change.unwrap_or(0)];
    let mut initial_oob = 0.0;
    let mut grad = vec![0.0f64; n * k];
    let mut target = vec![0.0f64; n];
    let mut leaf_of = vec![0usize; n];
    let mut mask = vec![true; n];
    for stage in begin..s.n_estimators {
        if do_oob {
            mask = sample_mask(n, n_in_bag, &mut rng);
        }
        let in_bag: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
        let oob: Vec<usize> = (0..n).filter(|&i| !mask[i]).collect();
        if do_oob && stage == 0 {
            initial_oob = factor_loss.score(&y, &raw, &w, &oob, delta);
        }
        if let GbLoss::Huber { alpha } = loss {
            let abserr: Vec<f64> = y.iter().zip(&raw).map(|(a, b)| (a - b).abs()).collect();
            delta = wpercentile(&abserr, &w, 100.0 * alpha)?;
        }
        // Negative gradients (pseudo-residuals), n × K.
        match loss {
            GbLoss::Multinomial { .. } => {
                for i in 0..n {
                    let g = &mut grad[i * k..(i + 1) * k];
                    ndlearn_core::loss::MultinomialLoss::gradient_row(
                        y[i] as usize,
                        &raw[i * k..(i + 1) * k],
                        g,
                    );
                    g.iter_mut().for_each(|v| *v = -*v);
                }
            }
            _ => {
                let l = loss.scalar(delta);
                for i in 0..n {
                    grad[i] = -l.gradient(y[i], raw[i]);
                }
            }
        }
        let tree_w: Vec<f64> = if do_oob {
            w.iter()
                .zip(&mask)
                .map(|(&v, &m)| if m { v } else { 0.0 })
                .collect()
        } else {
            w.clone()
        };
        let total_w = numpy_sum(&tree_w);
        let cfg = s.growth.resolve(n, d, total_w)?;
        for c in 0..k {
            for i in 0..n {
                target[i] = grad[i * k + c];
            }
            let mut trng = TreeRng::from_random_state(&mut rng);
            let crit = RegCrit::new(&target, 1, Some(&tree_w), RegCriterion::SquaredError);
            let mut tree = builder::build(&data, Some(&tree_w), crit, cfg, &mut trng, 1, 1);
            if s.growth.ccp_alpha > 0.0 {
                tree = tree.prune(s.growth.ccp_alpha);
            }
            for (i, l) in leaf_of.iter_mut().enumerate() {
                *l = tree.leaf_of(|f| data.get(f, i));
            }
            if loss != GbLoss::Squared {
                line_search(
                    &mut tree, loss, &leaf_of, &in_bag, &y, &target, &raw, &w, k, c, delta,
                )?;
            }
            for i in 0..n {
                raw[i * k + c] += s.learning_rate * tree.node_value(leaf_of[i])[0];
            }
            trees.push(tree);
        }
        if !val.is_empty() {
            // scikit-learn's staged validation scores count stages from the first one, also
            // after a warm start (its generator restarts at stage 0).
            let t = stage - begin;
            for (c, tree) in trees[t * k..(t + 1) * k].iter().enumerate() {
                let leaves = tree.apply_unchecked(&x_val);
                for (i, &leaf) in leaves.iter().enumerate() {
                    raw_val[i * k + c] += s.learning_rate * tree.node_value(leaf)[0];
                }
            }
        }
        if do_oob {
            train_score.push(loss.score(&y, &raw, &w, &in_bag, delta));
            let cur = loss.score(&y, &raw, &w, &oob, delta);
            let prev = if stage == 0 {
                initial_oob
            } else {
                oob_scores[stage - 1]
            };
            oob_improvement.push(prev - cur);
            oob_scores.push(cur);
        } else {
            train_score.push(loss.score(&y, &raw, &w, &all_rows, delta));
        }
        // scikit-learn's `monitor`: an observer may stop the boosting after any stage.
        let progress = Progress::new("gradient_boosting", stage + 1)
            .max_iter(s.n_estimators)
            .objective(train_score[stage]);
        if observe::report(&progress).is_stop() {
            break;
        }
        if s.n_iter_no_change.is_some() {
            let vl = loss.score(&y_val, &raw_val, &w_val, &val_rows, delta);
            if history.iter().any(|&h| vl + s.tol < h) {
                let len = history.len();
                history[stage % len] = vl;
            } else {
                break;
            }
        }
    }
    if let Some(prev) = warm
        && !do_oob
        && let (Some(os), Some(oi)) = (&prev.oob_scores, &prev.oob_improvement)
    {
        // `np.resize` of the earlier records: repeated cyclically.
        let n_st = trees.len() / k;
        oob_scores = (0..n_st).map(|i| os[i % os.len()]).collect();
        oob_improvement = (0..n_st).map(|i| oi[i % oi.len()]).collect();
    }
    Ok(Ensemble {
        init,
        trees,
        n_trees_per_stage: k,
        learning_rate: s.learning_rate,
        train_score,
        oob_improvement: (do_oob || warm.is_some_and(|p| p.oob_scores.is_some()))
            .then_some(oob_improvement),
        oob_scores: (do_oob || warm.is_some_and(|p| p.oob_scores.is_some())).then_some(oob_scores),
        n_features: d,
        rng_state: rng.to_state(),
    })
}

/// scikit-learn's `_update_terminal_regions` for the losses other than the squared error:
/// every leaf gets the loss's step over its in-bag rows.
#[allow(clippy::too_many_arguments)]
fn line_search<F: Float>(
    tree: &mut Tree<F>,
    loss: GbLoss,
    leaf_of: &[usize],
    in_bag: &[usize],
    y: &[f64],
    neg_grad: &[f64],
    raw: &[f64],
    w: &[f64],
    k: usize,
    c: usize,
    delta: f64,
) -> Result<()> {
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); tree.node_count()];
    for &i in in_bag {
        rows_of[leaf_of[i]].push(i);
    }
    for (leaf, rows) in rows_of.iter().enumerate() {
        if !tree.is_leaf(leaf) || rows.is_empty() {
            continue;
        }
        let sw: Vec<f64> = rows.iter().map(|&i| w[i]).collect();
        if numpy_sum(&sw) <= 0.0 {
            continue;
        }
        let g: Vec<f64> = rows.iter().map(|&i| neg_grad[i]).collect();
        let yk = |i: usize| match loss {
            GbLoss::Multinomial { .. } => f64::from(u8::from(y[i] as usize == c)),
            _ => y[i],
        };
        let update = match loss {
            GbLoss::Binomial | GbLoss::Multinomial { .. } => {
                let hess: Vec<f64> = rows
                    .iter()
                    .zip(&g)
                    .map(|(&i, &gi)| {
                        let p = yk(i) - gi;
                        p * (1.0 - p)
                    })
                    .collect();
                let mut num = average(&g, &sw);
                if let GbLoss::Multinomial { k: kk } = loss {
                    num *= (kk as f64 - 1.0) / kk as f64;
                }
                safe_divide(num, average(&hess, &sw))
            }
            GbLoss::Exponential => {
                let hess: Vec<f64> = rows
                    .iter()
                    .zip(&g)
                    .map(|(&i, &gi)| if yk(i) == 0.0 { -gi } else { gi })
                    .collect();
                safe_divide(average(&g, &sw), average(&hess, &sw))
            }
            GbLoss::Absolute | GbLoss::Quantile { .. } | GbLoss::Huber { .. } => {
                let diff: Vec<f64> = rows.iter().map(|&i| y[i] - raw[i * k + c]).collect();
                match loss {
                    GbLoss::Absolute => wpercentile(&diff, &sw, 50.0)?,
                    GbLoss::Quantile { alpha } => wpercentile(&diff, &sw, 100.0 * alpha)?,
                    _ => {
                        let m = wpercentile(&diff, &sw, 50.0)?;
                        let term: Vec<f64> = diff
                            .iter()
                            .map(|&v| {
                                let e = v - m;
                                let sign = if e > 0.0 {
                                    1.0
                                } else if e < 0.0 {
                                    -1.0
                                } else {
                                    0.0
                                };
                                sign * delta.min(e.abs())
                            })
                            .collect();
                        m + average(&term, &sw)
                    }
                }
            }
            GbLoss::Squared => continue,
        };
        tree.set_first_value(leaf, update);
    }
    Ok(())
}

/// The tree settings both estimators expose, as a [`Growth`].
#[allow(clippy::too_many_arguments)]
fn growth(
    max_depth: Option<usize>,
    min_samples_split: SampleCount,
    min_samples_leaf: SampleCount,
    min_weight_fraction_leaf: f64,
    max_features: MaxFeatures,
    max_leaf_nodes: Option<usize>,
    min_impurity_decrease: f64,
    ccp_alpha: f64,
) -> Growth {
    Growth {
        splitter: SplitterKind::Best,
        max_depth,
        min_samples_split,
        min_samples_leaf,
        min_weight_fraction_leaf,
        max_features,
        max_leaf_nodes,
        min_impurity_decrease,
        ccp_alpha,
        max_bins: None,
    }
}

/// Gradient boosting for regression (scikit-learn's `GradientBoostingRegressor`). See the
/// [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_tree::{GradientBoostingRegressionLoss, GradientBoostingRegressor};
///
/// let data = ndlearn_datasets::diabetes();
/// let y = data.y_values().expect("target");
/// let gb = GradientBoostingRegressor::default().n_estimators(50);
/// let fit = gb.fit(data.x(), y)?;
/// // Training loss (mean squared error) decreases stage by stage.
/// let ts = fit.train_score();
/// assert!(ts.windows(2).all(|p| p[1] <= p[0]));
/// // The last staged prediction is the prediction.
/// let staged = fit.staged_predict(data.x())?;
/// assert_eq!(staged.last().expect("50 stages"), &fit.predict(data.x())?);
/// // A median regression: leaves take the median residual.
/// let lad = gb.loss(GradientBoostingRegressionLoss::AbsoluteError).fit(data.x(), y)?;
/// assert_eq!(lad.n_estimators(), 50);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct GradientBoostingRegressor {
    /// The loss (default squared error).
    pub loss: GradientBoostingRegressionLoss,
    /// Shrinkage `λ` of every tree (default 0.1).
    pub learning_rate: f64,
    /// Number of boosting stages `M` (default 100).
    pub n_estimators: usize,
    /// Fraction of rows drawn per stage (default 1: no subsampling).
    pub subsample: f64,
    /// Deprecated split criterion, no effect (default `friedman_mse`).
    pub criterion: GradientBoostingCriterion,
    /// Minimum rows to split a node (default 2).
    pub min_samples_split: SampleCount,
    /// Minimum rows in each leaf (default 1).
    pub min_samples_leaf: SampleCount,
    /// Minimum fraction of the total weight in each leaf (default 0).
    pub min_weight_fraction_leaf: f64,
    /// Maximum depth of each tree (default 3).
    pub max_depth: Option<usize>,
    /// Minimum weighted impurity decrease of a split (default 0).
    pub min_impurity_decrease: f64,
    /// Starting score (default the loss's best constant).
    pub init: GradientBoostingInit,
    /// Seed of the subsamples, the trees' feature orders and the early-stopping split
    /// (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Features searched per split (default all).
    pub max_features: MaxFeatures,
    /// Quantile of `huber` (its `δ`) and of `quantile` (default 0.9).
    pub alpha: f64,
    /// Best-first growth to at most this many leaves (default `None`).
    pub max_leaf_nodes: Option<usize>,
    /// Fraction of rows set aside for early stopping (default 0.1).
    pub validation_fraction: f64,
    /// Early stopping after this many stages without improvement (default `None`: off).
    pub n_iter_no_change: Option<usize>,
    /// Improvement needed by early stopping (default 1e-4).
    pub tol: f64,
    /// Cost-complexity pruning of each tree (default 0).
    pub ccp_alpha: f64,
}

impl Default for GradientBoostingRegressor {
    fn default() -> Self {
        GradientBoostingRegressor {
            loss: GradientBoostingRegressionLoss::SquaredError,
            learning_rate: 0.1,
            n_estimators: 100,
            subsample: 1.0,
            criterion: GradientBoostingCriterion::FriedmanMse,
            min_samples_split: SampleCount::Count(2),
            min_samples_leaf: SampleCount::Count(1),
            min_weight_fraction_leaf: 0.0,
            max_depth: Some(3),
            min_impurity_decrease: 0.0,
            init: GradientBoostingInit::Constant,
            seed: 0,
            max_features: MaxFeatures::All,
            alpha: 0.9,
            max_leaf_nodes: None,
            validation_fraction: 0.1,
            n_iter_no_change: None,
            tol: 1e-4,
            ccp_alpha: 0.0,
        }
    }
}

impl GradientBoostingRegressor {
    ndlearn_core::setters! {
        loss: GradientBoostingRegressionLoss,
        learning_rate: f64,
        n_estimators: usize,
        subsample: f64,
        criterion: GradientBoostingCriterion,
        min_samples_split: SampleCount,
        min_samples_leaf: SampleCount,
        min_weight_fraction_leaf: f64,
        max_depth: Option<usize>,
        min_impurity_decrease: f64,
        init: GradientBoostingInit,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
        max_features: MaxFeatures,
        alpha: f64,
        max_leaf_nodes: Option<usize>,
        validation_fraction: f64,
        n_iter_no_change: Option<usize>,
        tol: f64,
        ccp_alpha: f64,
    }

    fn settings(&self) -> Settings {
        Settings {
            learning_rate: self.learning_rate,
            n_estimators: self.n_estimators,
            subsample: self.subsample,
            growth: growth(
                self.max_depth,
                self.min_samples_split,
                self.min_samples_leaf,
                self.min_weight_fraction_leaf,
                self.max_features,
                self.max_leaf_nodes,
                self.min_impurity_decrease,
                self.ccp_alpha,
            ),
            init: self.init,
            seed: self.seed,
            validation_fraction: self.validation_fraction,
            n_iter_no_change: self.n_iter_no_change,
            tol: self.tol,
        }
    }

    fn gb_loss(&self) -> GbLoss {
        match self.loss {
            GradientBoostingRegressionLoss::SquaredError => GbLoss::Squared,
            GradientBoostingRegressionLoss::AbsoluteError => GbLoss::Absolute,
            GradientBoostingRegressionLoss::Huber => GbLoss::Huber { alpha: self.alpha },
            GradientBoostingRegressionLoss::Quantile => GbLoss::Quantile { alpha: self.alpha },
        }
    }

    fn fit_boost<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        warm: Option<&Ensemble<F>>,
        start: Option<&mut user_init::StartFn<'_, F>>,
    ) -> Result<FittedGradientBoostingRegressor<F>> {
        self.validate()?;
        const CONTEXT: &str = "GradientBoostingRegressor::fit";
        let w = check_x_and_weights(x, y.len(), sample_weight, CONTEXT)?;
        validate::check_finite_1d(y, "y")?;
        let ys: Vec<f64> = y.iter().map(|v| v.to_f64_lossless()).collect();
        let target = Target {
            y: &ys,
            stratify: None,
            n_classes: 0,
        };
        let ensemble = boost(&self.settings(), self.gb_loss(), x, target, w, warm, start)?;
        Ok(FittedGradientBoostingRegressor {
            params: self.clone(),
            ensemble,
        })
    }
}

impl Estimator for GradientBoostingRegressor {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.settings().validate()?;
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::invalid_param(
                "alpha",
                format!("must be in (0, 1); got {}", self.alpha),
            ));
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for GradientBoostingRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedGradientBoostingRegressor<F>;

    /// Runs the boosting stages.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_boost(x, y, None, None, None)
    }
}

impl<F: Float> FitWeighted<F> for GradientBoostingRegressor {
    /// Runs the boosting stages with per-sample weights (in the trees, the line searches, the
    /// starting constant and the scores).
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight, None, None)
    }
}

/// Accessors both fitted models share.
macro_rules! fitted_common {
    ($params:ty) => {
        /// The hyperparameters of the fit.
        pub fn params(&self) -> &$params {
            &self.params
        }

        /// The fitted trees, stage by stage (`n_trees_per_stage` per stage; scikit-learn's
        /// `estimators_` flattened).
        pub fn trees(&self) -> &[Tree<F>] {
            &self.ensemble.trees
        }

        /// Trees per stage: 1, or the number of classes for multinomial log-loss.
        pub fn n_trees_per_stage(&self) -> usize {
            self.ensemble.n_trees_per_stage
        }

        /// The number of stages fitted (fewer than `n_estimators` after early stopping;
        /// scikit-learn's `n_estimators_`).
        pub fn n_estimators(&self) -> usize {
            self.ensemble.n_stages()
        }

        /// The starting raw score(s) `F₀` (one per tree of a stage).
        pub fn init_scores(&self) -> &[f64] {
            &self.ensemble.init
        }

        /// The training loss after every stage, on the in-bag rows (scikit-learn's
        /// `train_score_`).
        pub fn train_score(&self) -> &[f64] {
            &self.ensemble.train_score
        }

        /// The out-of-bag loss after every stage (`subsample < 1` only; `oob_scores_`).
        pub fn oob_scores(&self) -> Option<&[f64]> {
            self.ensemble.oob_scores.as_deref()
        }

        /// The decrease of the out-of-bag loss at every stage (`subsample < 1` only;
        /// `oob_improvement_`).
        pub fn oob_improvement(&self) -> Option<&[f64]> {
            self.ensemble.oob_improvement.as_deref()
        }

        /// The out-of-bag loss of the last stage (`oob_score_`).
        pub fn oob_score(&self) -> Option<f64> {
            self.ensemble
                .oob_scores
                .as_ref()
                .and_then(|s| s.last().copied())
        }
    };
}

/// A fitted [`GradientBoostingRegressor`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
pub struct FittedGradientBoostingRegressor<F> {
    params: GradientBoostingRegressor,
    ensemble: Ensemble<F>,
}

impl<F: Float> FittedGradientBoostingRegressor<F> {
    fitted_common!(GradientBoostingRegressor);

    /// Warm start with the first fit's hyperparameters and `n_estimators` stages in total
    /// (see [`FittedGradientBoostingRegressor::warm_start`]).
    ///
    /// # Errors
    /// As [`FittedGradientBoostingRegressor::warm_start`].
    pub fn fit_more(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        n_estimators: usize,
    ) -> Result<Self> {
        let est = self.params.clone().n_estimators(n_estimators);
        self.warm_start(&est, x, y, sample_weight)
    }

    /// scikit-learn's refit with `warm_start=True`: `est` holds the new hyperparameters
    /// (usually a larger `n_estimators`; `learning_rate` applies to every stage, old ones
    /// included, as in scikit-learn). Keeps the fitted stages and the starting constant,
    /// recomputes the raw scores of `(x, y)` (the first fit's training data) and adds stages up
    /// to `est.n_estimators` in total, continuing the random stream where the first fit left
    /// it.
    ///
    /// # Errors
    /// `n_estimators` below the stages already fitted, a different feature count, and the
    /// errors of [`Fit::fit`].
    pub fn warm_start(
        &self,
        est: &GradientBoostingRegressor,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self> {
        est.fit_boost(x, y, sample_weight, Some(&self.ensemble), None)
    }

    /// The prediction after every stage (scikit-learn's `staged_predict`); the last one is
    /// [`Predict::predict`].
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn staged_predict(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<F>>> {
        Ok(self
            .ensemble
            .staged(x, "GradientBoostingRegressor::staged_predict")?
            .into_iter()
            .map(|r| r.column(0).mapv(F::cast))
            .collect())
    }
}

impl<F: Float> Predict<F> for FittedGradientBoostingRegressor<F> {
    type Output = Array1<F>;

    /// `F₀ + λ Σ_m tree_m(x)`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let raw = self.ensemble.raw(x, "GradientBoostingRegressor::predict")?;
        Ok(raw.column(0).mapv(F::cast))
    }
}

impl<F: Float> NFeaturesIn for FittedGradientBoostingRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.ensemble.n_features
    }
}

impl<F: Float> FeatureImportances<F> for FittedGradientBoostingRegressor<F> {
    /// Mean impurity importances of the trees with a split, normalised (scikit-learn's).
    fn feature_importances(&self) -> Array1<F> {
        self.ensemble.feature_importances().mapv(F::cast)
    }
}

/// Gradient boosting for classification (scikit-learn's `GradientBoostingClassifier`): one
/// tree per stage for two classes, one per class and stage for more. Labels are class indices
/// `0..K`. See the [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict, PredictProba};
/// use ndlearn_tree::GradientBoostingClassifier;
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let fit = GradientBoostingClassifier::default().n_estimators(20).fit(data.x(), y)?;
/// assert_eq!(fit.n_trees_per_stage(), 3); // multinomial: one tree per class and stage
/// let acc = fit.predict(data.x())?.iter().zip(y).filter(|(p, t)| p == t).count();
/// assert!(acc as f64 / y.len() as f64 > 0.97);
/// let p = fit.predict_proba(data.x())?;
/// assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct GradientBoostingClassifier {
    /// The loss (default log-loss).
    pub loss: GradientBoostingClassificationLoss,
    /// Shrinkage `λ` of every tree (default 0.1).
    pub learning_rate: f64,
    /// Number of boosting stages `M` (default 100).
    pub n_estimators: usize,
    /// Fraction of rows drawn per stage (default 1: no subsampling).
    pub subsample: f64,
    /// Deprecated split criterion, no effect (default `friedman_mse`).
    pub criterion: GradientBoostingCriterion,
    /// Minimum rows to split a node (default 2).
    pub min_samples_split: SampleCount,
    /// Minimum rows in each leaf (default 1).
    pub min_samples_leaf: SampleCount,
    /// Minimum fraction of the total weight in each leaf (default 0).
    pub min_weight_fraction_leaf: f64,
    /// Maximum depth of each tree (default 3).
    pub max_depth: Option<usize>,
    /// Minimum weighted impurity decrease of a split (default 0).
    pub min_impurity_decrease: f64,
    /// Starting score (default the prior log-odds / log priors).
    pub init: GradientBoostingInit,
    /// Seed of the subsamples, the trees' feature orders and the early-stopping split
    /// (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Features searched per split (default all).
    pub max_features: MaxFeatures,
    /// Best-first growth to at most this many leaves (default `None`).
    pub max_leaf_nodes: Option<usize>,
    /// Fraction of rows set aside (stratified) for early stopping (default 0.1).
    pub validation_fraction: f64,
    /// Early stopping after this many stages without improvement (default `None`: off).
    pub n_iter_no_change: Option<usize>,
    /// Improvement needed by early stopping (default 1e-4).
    pub tol: f64,
    /// Cost-complexity pruning of each tree (default 0).
    pub ccp_alpha: f64,
}

impl Default for GradientBoostingClassifier {
    fn default() -> Self {
        GradientBoostingClassifier {
            loss: GradientBoostingClassificationLoss::LogLoss,
            learning_rate: 0.1,
            n_estimators: 100,
            subsample: 1.0,
            criterion: GradientBoostingCriterion::FriedmanMse,
            min_samples_split: SampleCount::Count(2),
            min_samples_leaf: SampleCount::Count(1),
            min_weight_fraction_leaf: 0.0,
            max_depth: Some(3),
            min_impurity_decrease: 0.0,
            init: GradientBoostingInit::Constant,
            seed: 0,
            max_features: MaxFeatures::All,
            max_leaf_nodes: None,
            validation_fraction: 0.1,
            n_iter_no_change: None,
            tol: 1e-4,
            ccp_alpha: 0.0,
        }
    }
}

impl GradientBoostingClassifier {
    ndlearn_core::setters! {
        loss: GradientBoostingClassificationLoss,
        learning_rate: f64,
        n_estimators: usize,
        subsample: f64,
        criterion: GradientBoostingCriterion,
        min_samples_split: SampleCount,
        min_samples_leaf: SampleCount,
        min_weight_fraction_leaf: f64,
        max_depth: Option<usize>,
        min_impurity_decrease: f64,
        init: GradientBoostingInit,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
        max_features: MaxFeatures,
        max_leaf_nodes: Option<usize>,
        validation_fraction: f64,
        n_iter_no_change: Option<usize>,
        tol: f64,
        ccp_alpha: f64,
    }

    fn settings(&self) -> Settings {
        Settings {
            learning_rate: self.learning_rate,
            n_estimators: self.n_estimators,
            subsample: self.subsample,
            growth: growth(
                self.max_depth,
                self.min_samples_split,
                self.min_samples_leaf,
                self.min_weight_fraction_leaf,
                self.max_features,
                self.max_leaf_nodes,
                self.min_impurity_decrease,
                self.ccp_alpha,
            ),
            init: self.init,
            seed: self.seed,
            validation_fraction: self.validation_fraction,
            n_iter_no_change: self.n_iter_no_change,
            tol: self.tol,
        }
    }

    fn fit_boost<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        warm: Option<(&Ensemble<F>, usize)>,
        start: Option<&mut user_init::StartFn<'_, F>>,
    ) -> Result<FittedGradientBoostingClassifier<F>> {
        self.validate()?;
        const CONTEXT: &str = "GradientBoostingClassifier::fit";
        let w = check_x_and_weights(x, y.len(), sample_weight, CONTEXT)?;
        let k = validate::check_labels(y, 2, CONTEXT)?;
        if let Some((_, k0)) = warm
            && k != k0
        {
            return Err(Error::invalid_param(
                "y",
                format!("a warm start needs the {k0} classes of the first fit; got {k}"),
            ));
        }
        if let Some(w) = &w {
            check_weighted_classes(y, w, k, CONTEXT)?;
        }
        let loss = match (self.loss, k) {
            (GradientBoostingClassificationLoss::LogLoss, 2) => GbLoss::Binomial,
            (GradientBoostingClassificationLoss::LogLoss, _) => GbLoss::Multinomial { k },
            (GradientBoostingClassificationLoss::Exponential, 2) => GbLoss::Exponential,
            (GradientBoostingClassificationLoss::Exponential, _) => {
                return Err(Error::invalid_param(
                    "loss",
                    format!("exponential is only suitable for two classes, got {k}; use log_loss"),
                ));
            }
        };
        let labels: Vec<usize> = y.iter().copied().collect();
        let ys: Vec<f64> = labels.iter().map(|&c| c as f64).collect();
        let target = Target {
            y: &ys,
            stratify: Some(&labels),
            n_classes: k,
        };
        let ensemble = boost(
            &self.settings(),
            loss,
            x,
            target,
            w,
            warm.map(|(e, _)| e),
            start,
        )?;
        Ok(FittedGradientBoostingClassifier {
            params: self.clone(),
            ensemble,
            n_classes: k,
        })
    }
}

impl Estimator for GradientBoostingClassifier {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.settings().validate()
    }
}

impl<F: Float> Fit<F> for GradientBoostingClassifier {
    type Target = ArrayRef1<usize>;
    type Model = FittedGradientBoostingClassifier<F>;

    /// Runs the boosting stages.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_boost(x, y, None, None, None)
    }
}

impl<F: Float> FitWeighted<F> for GradientBoostingClassifier {
    /// Runs the boosting stages with per-sample weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight, None, None)
    }
}

/// A fitted [`GradientBoostingClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
pub struct FittedGradientBoostingClassifier<F> {
    params: GradientBoostingClassifier,
    ensemble: Ensemble<F>,
    n_classes: usize,
}

impl<F: Float> FittedGradientBoostingClassifier<F> {
    fitted_common!(GradientBoostingClassifier);

    /// Warm start with the first fit's hyperparameters and `n_estimators` stages in total
    /// (see [`FittedGradientBoostingClassifier::warm_start`]).
    ///
    /// # Errors
    /// As [`FittedGradientBoostingClassifier::warm_start`].
    pub fn fit_more(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        n_estimators: usize,
    ) -> Result<Self> {
        let est = self.params.clone().n_estimators(n_estimators);
        self.warm_start(&est, x, y, sample_weight)
    }

    /// scikit-learn's refit with `warm_start=True`: `est` holds the new hyperparameters
    /// (usually a larger `n_estimators`; `learning_rate` applies to every stage, old ones
    /// included). Keeps the fitted stages and the starting scores, recomputes the raw scores
    /// of `(x, y)` (the first fit's training data, same classes) and adds stages up to
    /// `est.n_estimators` in total, continuing the random stream where the first fit left it.
    ///
    /// # Errors
    /// `n_estimators` below the stages already fitted, a different feature or class count, a
    /// different loss, and the errors of [`Fit::fit`].
    pub fn warm_start(
        &self,
        est: &GradientBoostingClassifier,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self> {
        if est.loss != self.params.loss {
            return Err(Error::invalid_param(
                "loss",
                "a warm start keeps the loss of the first fit",
            ));
        }
        est.fit_boost(
            x,
            y,
            sample_weight,
            Some((&self.ensemble, self.n_classes)),
            None,
        )
    }

    /// The number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    fn exponential(&self) -> bool {
        self.params.loss == GradientBoostingClassificationLoss::Exponential
    }

    fn proba_of(&self, raw: &Array2<f64>) -> Array2<F> {
        if self.n_classes == 2 {
            let s = if self.exponential() { 2.0 } else { 1.0 };
            let mut p = Array2::<F>::zeros((raw.nrows(), 2));
            for (mut row, &r) in p.rows_mut().into_iter().zip(raw.column(0)) {
                let p1 = 1.0 / (1.0 + (-s * r).exp());
                row[1] = F::cast(p1);
                row[0] = F::cast(1.0 - p1);
            }
            p
        } else {
            ndlearn_core::numeric::softmax_rows(raw).mapv(F::cast)
        }
    }

    fn labels_of(&self, raw: &Array2<f64>) -> Array1<usize> {
        if self.n_classes == 2 {
            raw.column(0).mapv(|v| usize::from(v >= 0.0))
        } else {
            ndlearn_core::numeric::argmax_rows(raw)
        }
    }

    /// The raw scores after every stage (scikit-learn's `staged_decision_function`): `n × 1`
    /// for two classes, `n × K` otherwise.
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn staged_decision_function(&self, x: &ArrayRef2<F>) -> Result<Vec<Array2<F>>> {
        Ok(self
            .ensemble
            .staged(x, "GradientBoostingClassifier::staged_decision_function")?
            .into_iter()
            .map(|r| r.mapv(F::cast))
            .collect())
    }

    /// The predicted classes after every stage (`staged_predict`).
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn staged_predict(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<usize>>> {
        Ok(self
            .ensemble
            .staged(x, "GradientBoostingClassifier::staged_predict")?
            .iter()
            .map(|r| self.labels_of(r))
            .collect())
    }

    /// The class probabilities after every stage (`staged_predict_proba`).
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn staged_predict_proba(&self, x: &ArrayRef2<F>) -> Result<Vec<Array2<F>>> {
        Ok(self
            .ensemble
            .staged(x, "GradientBoostingClassifier::staged_predict_proba")?
            .iter()
            .map(|r| self.proba_of(r))
            .collect())
    }
}

impl<F: Float> DecisionFunction<F> for FittedGradientBoostingClassifier<F> {
    /// The raw scores `F(x)`: `n × 1` (two classes, positive for class 1) or `n × K`.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        Ok(self
            .ensemble
            .raw(x, "GradientBoostingClassifier::decision_function")?
            .mapv(F::cast))
    }
}

impl<F: Float> PredictProba<F> for FittedGradientBoostingClassifier<F> {
    /// `σ(F)` (two classes), `σ(2F)` (exponential) or `softmax(F)`.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let raw = self
            .ensemble
            .raw(x, "GradientBoostingClassifier::predict_proba")?;
        Ok(self.proba_of(&raw))
    }
}

impl<F: Float> Predict<F> for FittedGradientBoostingClassifier<F> {
    type Output = Array1<usize>;

    /// Class 1 where `F ≥ 0` (two classes), else the class of largest score.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let raw = self
            .ensemble
            .raw(x, "GradientBoostingClassifier::predict")?;
        Ok(self.labels_of(&raw))
    }
}

impl<F: Float> NFeaturesIn for FittedGradientBoostingClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.ensemble.n_features
    }
}

impl<F: Float> FeatureImportances<F> for FittedGradientBoostingClassifier<F> {
    /// Mean impurity importances of the trees with a split, normalised (scikit-learn's).
    fn feature_importances(&self) -> Array1<F> {
        self.ensemble.feature_importances().mapv(F::cast)
    }
}

impl<F: Float> CheckModel for FittedGradientBoostingRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedGradientBoostingRegressor");
        c.params(&self.params)?;
        let p = &self.params;
        self.ensemble.check(&c, 1, p.n_estimators, p.learning_rate)
    }
}

impl<F: Float> CheckModel for FittedGradientBoostingClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedGradientBoostingClassifier");
        c.params(&self.params)?;
        let k = self.n_classes;
        c.at_least("n_classes", k, 2)?;
        c.that(k == 2 || !self.exponential(), || {
            format!("the exponential loss with {k} classes")
        })?;
        // one tree per stage for two classes, one per class otherwise
        let per_stage = if k == 2 { 1 } else { k };
        let p = &self.params;
        self.ensemble
            .check(&c, per_stage, p.n_estimators, p.learning_rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn an_absurd_n_estimators_stops_early_without_an_absurd_allocation() {
        use ndlearn_core::Fit;
        let x = Array2::from_shape_fn((200, 2), |(i, j)| ((i * (j + 3)) % 13) as f64);
        let y = x.column(0).mapv(|v| (v - 6.0).abs());
        // before the bound, `Vec::with_capacity(usize::MAX)` aborted the process
        let fit = GradientBoostingRegressor::default()
            .n_estimators(usize::MAX)
            .n_iter_no_change(Some(2))
            .tol(1e9)
            .fit(&x, &y)
            .expect("early stopping ends the fit");
        assert!(fit.n_estimators() <= 3, "{}", fit.n_estimators());
    }

    #[test]
    fn sample_mask_draws_exactly_n_in_bag() {
        let mut rng = RandomState::new(3);
        for n_in in [1usize, 5, 17, 20] {
            let m = sample_mask(20, n_in, &mut rng);
            assert_eq!(m.iter().filter(|&&b| b).count(), n_in);
        }
    }

    #[test]
    fn approximate_mode_matches_scikit_learn_docs() {
        // The examples of sklearn.utils.extmath._approximate_mode.
        assert_eq!(
            approximate_mode(&[4, 2], 3, &mut RandomState::new(0)),
            vec![2, 1]
        );
        assert_eq!(
            approximate_mode(&[5, 2], 4, &mut RandomState::new(0)),
            vec![3, 1]
        );
        assert_eq!(
            approximate_mode(&[2, 2, 2, 1], 2, &mut RandomState::new(0)),
            vec![0, 1, 1, 0]
        );
        assert_eq!(
            approximate_mode(&[2, 2, 2, 1], 2, &mut RandomState::new(42)),
            vec![1, 1, 0, 0]
        );
    }

    #[test]
    fn one_stage_squared_error_by_hand() {
        // One stump on a step: F₀ = mean = 2, residuals ±1, leaves ±1, F₁ = 2 ± λ.
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![1.0, 1.0, 3.0, 3.0];
        let m = GradientBoostingRegressor::default()
            .n_estimators(1)
            .learning_rate(0.5)
            .max_depth(Some(1))
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(m.init_scores(), &[2.0]);
        assert_eq!(m.predict(&x).expect("predict"), array![1.5, 1.5, 2.5, 2.5]);
        // train_score = mean squared error = 0.25.
        assert!((m.train_score()[0] - 0.25).abs() < 1e-15);
    }

    #[test]
    fn invalid_settings_are_typed_errors() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![0usize, 0, 1, 2];
        let yr = array![0.0, 1.0, 2.0, 3.0];
        for bad in [
            GradientBoostingRegressor::default().n_estimators(0),
            GradientBoostingRegressor::default().learning_rate(-1.0),
            GradientBoostingRegressor::default().subsample(0.0),
            GradientBoostingRegressor::default().alpha(1.0),
            GradientBoostingRegressor::default().max_depth(Some(0)),
            GradientBoostingRegressor::default().n_iter_no_change(Some(0)),
            GradientBoostingRegressor::default().validation_fraction(1.0),
        ] {
            assert!(
                matches!(bad.fit(&x, &yr), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        let exp = GradientBoostingClassifier::default()
            .loss(GradientBoostingClassificationLoss::Exponential);
        assert!(matches!(exp.fit(&x, &y), Err(Error::InvalidParam { .. })));
        assert!(matches!(
            GradientBoostingClassifier::default().fit(&x, &array![1usize, 1, 1, 1]),
            Err(Error::TooFewClasses { .. })
        ));
    }

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_stages() {
        let data = ndlearn_datasets::iris();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let m = GradientBoostingClassifier::default()
            .n_estimators(3)
            .subsample(0.8)
            .fit(x, y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.ensemble.trees.pop(); // the last stage is missing a class's tree
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m.clone();
        bad.ensemble.init[1] = f64::INFINITY;
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.ensemble.trees[4].make_leaf(0);
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let yr: Array1<f64> = x.column(0).to_owned();
        let r = GradientBoostingRegressor::default()
            .n_estimators(3)
            .fit(x, &yr)
            .expect("fit");
        assert!(r.check_model().is_ok());
        let mut bad = r;
        bad.ensemble.n_trees_per_stage = 0; // `chunks(0)` at predict
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
