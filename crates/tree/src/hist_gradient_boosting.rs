//! Histogram gradient boosting ([`HistGradientBoostingRegressor`],
//! [`HistGradientBoostingClassifier`]): scikit-learn's `HistGradientBoosting*`, LightGBM's
//! algorithm — Newton boosting over trees grown leaf-wise on binned features.
//!
//! # Algorithm
//!
//! 1. **Binning**: the training features are mapped to at most `max_bins` (≤ 255) quantile bins
//!    by the shared [`BinMapper`] (missing values get their own bin); the model keeps the
//!    thresholds.
//! 2. **Baseline**: the raw score starts at the loss's best constant (mean, median, quantile,
//!    `log` of the mean, prior log-odds or centred log class priors).
//! 3. **Iterations** `m = 1..max_iter`: per row the gradient `gᵢ = ∂ℓ/∂F` and hessian
//!    `hᵢ = ∂²ℓ/∂F²` at the current raw score (stored as `f32`, as scikit-learn and LightGBM);
//!    one tree per output (per class for `K > 2` classes) is grown best-first on histograms of
//!    `(Σg, Σh, count)` per feature and bin, splitting where
//!    `G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)` is largest (`λ = l2_regularization`); a leaf's
//!    value is the Newton step `−G/(H + λ)` times the learning rate. For the absolute and quantile
//!    losses the leaf values are then replaced by the median / quantile of the residuals
//!    `y − F` of the leaf's rows, times the learning rate (scikit-learn's leaf refit).
//! 4. **Early stopping** (on by default above 10,000 rows): a stratified `validation_fraction`
//!    of the rows is held out (or, with `validation_fraction = None`, the training loss is
//!    watched); boosting stops when none of the last `n_iter_no_change` scores beats the one
//!    before them by more than `tol`.
//!
//! **Contributions**: `predict_contributions` gives exact TreeSHAP values (Lundberg et al.,
//! path-dependent: expectations follow each tree's training-row counts), one per feature plus a
//! bias, summing to the raw score of every row (LightGBM's `pred_contrib`).
//!
//! **Monotonic constraints** (`monotonic_cst`, scikit-learn's rule): a split on a constrained
//! feature is rejected when its children's values are in the wrong order, and the values below
//! it are bounded by the mean of the two children's values (the left subtree below it, the right
//! above it for an increasing constraint), so the raw score is monotonic in that feature.
//!
//! **Interaction constraints** (`interaction_cst`, scikit-learn's and LightGBM's rule): below a
//! split on feature `f` only the groups containing `f` stay open, and a node splits only on the
//! features of its open groups; features in no group form one more group.
//!
//! **Categorical features** (`categorical_features`, scikit-learn's and LightGBM's rule): each
//! distinct value of a listed feature is a category with its own bin (at most `max_bins`
//! categories; missing values are one more category). At a node the categories with enough
//! support (hessian mass `≥ 10`, in rows when the hessians are constant) are sorted by
//! `G_c / (H_c + 10)` and the split sends a prefix (at most half of them) or a suffix (fewer than
//! half) of that order left, everything else right — the best of the `2^(m−1) − 1` two-way
//! partitions for the squared loss (Fisher 1958), found in `O(m log m)`. Trees store the
//! left-going categories as a 256-bit set ([`HistTree::bitsets`]); at prediction a category
//! never seen in training goes where missing values go. A categorical feature cannot carry a
//! monotonic constraint.
//!
//! The grower ([`HistTree`] and the module `hist_grower`) uses histogram subtraction (the larger
//! child's histograms are the parent's minus the smaller child's), stable row partitions, and
//! routes missing values by the learned direction of every split (features without missing
//! values in training send them to the child with more rows).
//!
//! | loss | `ℓ(y, F)` | `g` | `h` | prediction |
//! |---|---|---|---|---|
//! | `squared_error` | `½(F − y)²` | `F − y` | 1 | `F` |
//! | `absolute_error` | `\|F − y\|` | `sign(F − y)` | 1 (leaves refit to medians) | `F` |
//! | `quantile` (`quantile = τ`) | pinball | `1 − τ` or `−τ` | 1 (leaves refit to `τ`-quantiles) | `F` |
//! | `poisson` | `eᶠ − yF` | `eᶠ − y` | `eᶠ` | `eᶠ` |
//! | `gamma` | `F + y e⁻ᶠ` | `1 − y e⁻ᶠ` | `y e⁻ᶠ` | `eᶠ` |
//! | `log_loss`, 2 classes | `log(1 + eᶠ) − yF` | `σ(F) − y` | `σ(1 − σ)` | `σ(F)` |
//! | `log_loss`, `K` classes | `log Σ e^{Fₖ} − F_y` | `pₖ − [y = k]` | `pₖ(1 − pₖ)` | `softmax(F)` |
//!
//! Sample weights multiply gradients and hessians (and weight the bin quantiles, the baseline
//! and the early-stopping losses); class weights multiply the sample weights.
//!
//! # Equality with scikit-learn
//!
//! The bins equal scikit-learn's `_BinMapper` on up to 200,000 rows; with the same bins the
//! histograms are summed in scikit-learn's row order, the split scans, gains, tie rules (first
//! bin, then first feature of strictly largest gain, categorical features first as in
//! scikit-learn's internal column order), `min_samples_leaf` / `min_hessian` /
//! `max_depth` / `max_leaf_nodes` stops and missing-value rules are scikit-learn's, so the trees
//! are scikit-learn's node for node on data without equal-gain ties
//! (`scripts/golden/hist_gradient_boosting.py`: 16 cases, and
//! `scripts/golden/hist_gradient_boosting_categorical.py`: 8 cases of categorical splits, with
//! missing, rare and unseen categories; structure compared exactly; leaf
//! values and raw scores within 1e-6 of the case's largest, a bound set by the `f32` rounding of
//! the gradients on either side). The
//! early-stopping split and the binning subsample above 200,000 rows come from ndlearn's own
//! random streams; `max_features < 1` samples features per node from ndlearn's stream.
//! Interaction constraints name the user's columns (scikit-learn 1.9.1 applies them to its
//! reordered columns when some features are categorical).
//!
//! # Threads and determinism
//!
//! Histograms are built in parallel over features, split scans in parallel over features, the
//! gradients and predictions in parallel over rows; every sum runs in a fixed order, so the
//! model is bitwise the same for any number of threads.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `loss` | `squared_error` / `log_loss` | `loss` | table above |
//! | `quantile` | 0.5 | `quantile` | `(0, 1)`, for `quantile` |
//! | `learning_rate` | 0.1 | `learning_rate` | `> 0` |
//! | `max_iter` | 100 | `max_iter` | `≥ 1` |
//! | `max_leaf_nodes` | `Some(31)` | `max_leaf_nodes` | `≥ 2` or `None` |
//! | `max_depth` | `None` | `max_depth` | `≥ 1` or `None` |
//! | `min_samples_leaf` | 20 | `min_samples_leaf` | `≥ 1` |
//! | `l2_regularization` | 0 | `l2_regularization` | `≥ 0` |
//! | `min_hessian` | 1e-3 | (fixed `min_hessian_to_split`; LightGBM's `min_sum_hessian_in_leaf`) | `≥ 0` |
//! | `max_features` | 1.0 | `max_features` | `(0, 1]` |
//! | `max_bins` | 255 | `max_bins` | `2..=255` |
//! | `early_stopping` | `auto` (on above 10,000 rows) | `early_stopping` | `auto`, `on`, `off` |
//! | `validation_fraction` | `Some(0.1)` | `validation_fraction` | `(0, 1)` or `None` (training loss) |
//! | `n_iter_no_change` | 10 | `n_iter_no_change` | `≥ 1` |
//! | `tol` | 1e-7 | `tol` | `≥ 0` |
//! | `monotonic_cst` | `None` | `monotonic_cst` (list form) | one of `−1, 0, 1` per feature; not for more than two classes |
//! | `interaction_cst` | `None` | `interaction_cst` (list of sets) | indices `< d` |
//! | `categorical_features` | none | `categorical_features` (indices or mask) | indices `< d`, at most `max_bins` categories each |
//! | `class_weight` (classifier) | uniform | `class_weight` | not `balanced_subsample` |
//! | `seed` | 0 | `random_state` | |
//! | — | | `warm_start=True` | the fitted model's `fit_more` |
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for a hyperparameter out of range; infinite features (NaN is a
//! missing value), non-finite targets, targets outside the loss's domain (negative for Poisson,
//! non-positive for gamma), bad weights, fewer than two classes, a different feature count at
//! predict time.
//!
//! # References
//!
//! - G. Ke et al., "LightGBM: A highly efficient gradient boosting decision tree", NeurIPS 2017.
//! - T. Chen, C. Guestrin, "XGBoost: A scalable tree boosting system", KDD 2016 (Eqs. 5–7).
//! - scikit-learn's `sklearn/ensemble/_hist_gradient_boosting/`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::class_weight::ClassWeight;
use ndlearn_core::loss::{Loss, MultinomialLoss};
use ndlearn_core::observe::{self, Progress};
use ndlearn_core::training::{EarlyStopping, validation_mask};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    DecisionFunction, Error, Estimator, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn,
    Predict, PredictProba, Result, par, random, validate,
};

use crate::binning::{BinMapper, FittedBinMapper, MAX_BINS, check_no_infinite};
use crate::common::{check_feature_indices, check_weighted_classes, checked_weights};
use crate::hist_grower::{Binned, GrowParams, Grower, in_bitset};
pub use crate::hist_grower::{Bitset, HistNode, HistTree};

/// Rows per parallel chunk of the row-wise passes (fixed: results do not depend on threads).
const ROW_CHUNK: usize = 4096;

/// The loss of a [`HistGradientBoostingRegressor`] (scikit-learn's `loss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum HistGradientBoostingRegressionLoss {
    /// Half the squared error (default).
    #[default]
    SquaredError,
    /// The absolute error (leaves refit to medians).
    AbsoluteError,
    /// Half the Poisson deviance, log link (`y ≥ 0`, some `y > 0`).
    Poisson,
    /// Half the gamma deviance, log link (`y > 0`).
    Gamma,
    /// The pinball loss of the `quantile` field (leaves refit to quantiles).
    Quantile,
}

/// When to stop early (scikit-learn's `early_stopping`: `"auto"`, `True`, `False`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum EarlyStoppingMode {
    /// On when the training data has more than 10,000 rows (default).
    #[default]
    Auto,
    /// Always on.
    #[cfg_attr(feature = "serde", serde(alias = "true"))]
    On,
    /// Never.
    #[cfg_attr(feature = "serde", serde(alias = "false"))]
    Off,
}

/// The hyperparameters both estimators share.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Settings {
    learning_rate: f64,
    max_iter: usize,
    max_leaf_nodes: Option<usize>,
    max_depth: Option<usize>,
    min_samples_leaf: usize,
    l2_regularization: f64,
    min_hessian: f64,
    max_features: f64,
    max_bins: usize,
    early_stopping: EarlyStoppingMode,
    validation_fraction: Option<f64>,
    n_iter_no_change: usize,
    tol: f64,
    seed: u64,
}

impl Settings {
    fn validate(&self) -> Result<()> {
        validate::check_positive("learning_rate", self.learning_rate)?;
        validate::check_at_least("max_iter", self.max_iter, 1)?;
        if let Some(m) = self.max_leaf_nodes {
            validate::check_at_least("max_leaf_nodes", m, 2)?;
        }
        if let Some(m) = self.max_depth {
            validate::check_at_least("max_depth", m, 1)?;
        }
        validate::check_at_least("min_samples_leaf", self.min_samples_leaf, 1)?;
        validate::check_non_negative("l2_regularization", self.l2_regularization)?;
        validate::check_non_negative("min_hessian", self.min_hessian)?;
        if !(self.max_features > 0.0 && self.max_features <= 1.0) {
            return Err(Error::invalid_param(
                "max_features",
                format!("must be in (0, 1]; got {}", self.max_features),
            ));
        }
        if !(2..=MAX_BINS).contains(&self.max_bins) {
            return Err(Error::invalid_param(
                "max_bins",
                format!("must be in 2..=255; got {}", self.max_bins),
            ));
        }
        if let Some(f) = self.validation_fraction
            && !(f > 0.0 && f < 1.0)
        {
            return Err(Error::invalid_param(
                "validation_fraction",
                format!("must be in (0, 1) or None; got {f}"),
            ));
        }
        EarlyStopping::hist_gradient_boosting(self.n_iter_no_change, self.tol).validate()
    }

    fn grow_params(&self) -> GrowParams {
        GrowParams {
            max_leaf_nodes: self.max_leaf_nodes,
            max_depth: self.max_depth,
            min_samples_leaf: self.min_samples_leaf,
            l2: self.l2_regularization,
            min_hessian: self.min_hessian,
            shrinkage: self.learning_rate,
            feature_fraction: self.max_features,
        }
    }
}

/// The loss of one boosting run.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum HgbLoss {
    /// One raw score per row.
    Single(Loss),
    /// `k` raw scores per row (softmax).
    Multinomial { k: usize },
}

impl HgbLoss {
    fn n_outputs(self) -> usize {
        match self {
            HgbLoss::Single(_) => 1,
            HgbLoss::Multinomial { k } => k,
        }
    }

    /// Whether the hessian is 1 for every row (without sample weights).
    fn constant_hessian(self) -> bool {
        matches!(
            self,
            HgbLoss::Single(Loss::SquaredError | Loss::AbsoluteError | Loss::Pinball { .. })
        )
    }

    /// Whether the leaf values are refit to the residuals' median / quantile.
    fn refits_leaves(self) -> bool {
        matches!(
            self,
            HgbLoss::Single(Loss::AbsoluteError | Loss::Pinball { .. })
        )
    }

    /// The best constant raw score(s).
    fn baseline(self, y: &[f64], w: Option<&[f64]>) -> Result<Vec<f64>> {
        match self {
            HgbLoss::Single(loss) => {
                let ya = ndarray::ArrayView1::from(y);
                let wa = w.map(ndarray::ArrayView1::from);
                Ok(vec![loss.intercept_only(&ya, wa.as_deref())?])
            }
            HgbLoss::Multinomial { k } => {
                let labels: Array1<usize> = y.iter().map(|&c| c as usize).collect();
                let wa = w.map(ndarray::ArrayView1::from);
                Ok(MultinomialLoss::intercept_only::<f64>(&labels, wa.as_deref(), k)?.to_vec())
            }
        }
    }

    /// The weighted mean loss over rows (`raw` row-major `n × K`).
    fn mean_loss(self, y: &[f64], raw: &[f64], w: Option<&[f64]>) -> f64 {
        let k = self.n_outputs();
        let n = y.len();
        let parts = par::map_chunks(n, ROW_CHUNK, |r| {
            let mut num = 0.0;
            for i in r {
                let l = match self {
                    HgbLoss::Single(loss) => loss.value(y[i], raw[i]),
                    HgbLoss::Multinomial { .. } => {
                        MultinomialLoss::value_row(y[i] as usize, &raw[i * k..(i + 1) * k])
                    }
                };
                num += w.map_or(l, |w| w[i] * l);
            }
            num
        });
        let num: f64 = parts.iter().sum();
        let den = w.map_or(n as f64, |w| w.iter().sum());
        num / den
    }

    /// Gradients and hessians (`K` blocks of `n`, `f32`); hessians left empty when constant.
    fn gradients(
        self,
        y: &[f64],
        raw: &[f64],
        w: Option<&[f64]>,
        g: &mut [f32],
        h: &mut [f32],
        constant: bool,
    ) {
        let n = y.len();
        let k = self.n_outputs();
        let chunks = par::map_chunks(n, ROW_CHUNK, |r| {
            let m = r.len();
            let mut gc = vec![0f32; m * k];
            let mut hc = if constant {
                Vec::new()
            } else {
                vec![0f32; m * k]
            };
            let mut pg = vec![0f64; k];
            let mut ph = vec![0f64; k];
            for (t, i) in r.enumerate() {
                let wi = w.map_or(1.0, |w| w[i]);
                match self {
                    HgbLoss::Single(loss) => {
                        let (gi, hi) = loss.gradient_hessian(y[i], raw[i]);
                        gc[t] = (wi * gi) as f32;
                        if !constant {
                            hc[t] = (wi * hi) as f32;
                        }
                    }
                    HgbLoss::Multinomial { .. } => {
                        MultinomialLoss::gradient_hessian_row(
                            y[i] as usize,
                            &raw[i * k..(i + 1) * k],
                            &mut pg,
                            &mut ph,
                        );
                        for c in 0..k {
                            gc[c * m + t] = (wi * pg[c]) as f32;
                            hc[c * m + t] = (wi * ph[c]) as f32;
                        }
                    }
                }
            }
            (gc, hc)
        });
        let ranges = par::chunk_ranges(n, ROW_CHUNK);
        for ((gc, hc), r) in chunks.into_iter().zip(ranges) {
            let m = r.len();
            for c in 0..k {
                g[c * n + r.start..c * n + r.end].copy_from_slice(&gc[c * m..(c + 1) * m]);
                if !constant {
                    h[c * n + r.start..c * n + r.end].copy_from_slice(&hc[c * m..(c + 1) * m]);
                }
            }
        }
    }
}

/// The fitted boosting state both fitted models share.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Ensemble {
    bin_mapper: FittedBinMapper,
    loss: HgbLoss,
    baseline: Vec<f64>,
    /// Iteration-major: tree `k` of iteration `m` is `trees[m·K + k]`.
    trees: Vec<HistTree>,
    n_features: usize,
    train_score: Vec<f64>,
    validation_score: Vec<f64>,
    /// Seed of the early-stopping split (kept for warm starts).
    seed: u64,
}

impl Ensemble {
    fn k(&self) -> usize {
        self.loss.n_outputs()
    }

    fn n_iter(&self) -> usize {
        self.trees.len() / self.k()
    }

    fn check_x<F: Float>(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<()> {
        validate::check_n_features(x.ncols(), self.n_features, context)?;
        // A model file may have been edited: the walk below needs well-formed trees.
        if self.k() == 0
            || self.baseline.len() != self.k()
            || self.trees.len() % self.k() != 0
            || !self.trees.iter().all(|t| t.is_well_formed(self.n_features))
        {
            return Err(Error::invalid_param(
                "model",
                "malformed histogram gradient boosting model (tree links, features or baseline)",
            ));
        }
        check_no_infinite(x)
    }

    /// Raw scores (`n × K`) after the first `n_iter` iterations: blocks of 256 rows copied to
    /// a contiguous buffer, each tree (compact nodes) walked for every row of the block while
    /// it sits in L1, eight rows in lockstep for its full depth (leaves loop to themselves);
    /// every row sums its trees in iteration order.
    fn raw_upto<F: Float>(&self, x: &ArrayRef2<F>, n_iter: usize) -> Array2<f64> {
        let k = self.k();
        let (n, d) = x.dim();
        let flat: Vec<FlatTree> = self.trees[..n_iter * k].iter().map(FlatTree::of).collect();
        let blocks = par::map_chunks(n, 256, |r| {
            let m = r.len();
            let mut buf = Vec::with_capacity(m * d);
            for i in r {
                buf.extend(x.row(i).iter().map(|v| v.to_f64_lossless()));
            }
            self.encode_rows(&mut buf, d);
            let mut out = Vec::with_capacity(m * k);
            for _ in 0..m {
                out.extend_from_slice(&self.baseline);
            }
            for (t, tree) in flat.iter().enumerate() {
                tree.add_to(&buf, d, &mut out, k, t % k);
            }
            out
        });
        let flat_out: Vec<f64> = blocks.into_iter().flatten().collect();
        Array2::from_shape_vec((n, k), flat_out).expect("n × K scores")
    }

    /// Replaces, in rows of `d` values, each categorical feature's value by its code (NaN when
    /// missing or unseen), the values the trees' categorical splits test.
    fn encode_rows(&self, rows: &mut [f64], d: usize) {
        if !self.bin_mapper.has_categorical() {
            return;
        }
        for row in rows.chunks_exact_mut(d) {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.bin_mapper.encode(j, *v);
            }
        }
    }

    fn raw<F: Float>(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        self.check_x(x, context)?;
        Ok(self.raw_upto(x, self.n_iter()))
    }

    /// Raw scores after every iteration.
    fn staged<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        context: &'static str,
    ) -> Result<Vec<Array2<f64>>> {
        self.check_x(x, context)?;
        let k = self.k();
        let n = x.nrows();
        let mut cur = Array2::from_shape_fn((n, k), |(_, c)| self.baseline[c]);
        let mut out = Vec::with_capacity(self.n_iter());
        let d = x.ncols();
        let mut rows: Vec<f64> = x.iter().map(|v| v.to_f64_lossless()).collect();
        self.encode_rows(&mut rows, d);
        for m in 0..self.n_iter() {
            for c in 0..k {
                let tree = &self.trees[m * k + c];
                for (i, row) in rows.chunks_exact(d.max(1)).enumerate() {
                    let leaf = tree.leaf_of(|j| row[j]);
                    cur[[i, c]] += tree.nodes()[leaf].value;
                }
            }
            out.push(cur.clone());
        }
        Ok(out)
    }

    /// Exact TreeSHAP contributions, `n × K × (d + 1)`: per output, each feature's
    /// contribution and, last, the bias (baseline plus every tree's expected value).
    fn contributions<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        context: &'static str,
    ) -> Result<ndarray::Array3<f64>> {
        self.check_x(x, context)?;
        if let Some(deep) = self
            .trees
            .iter()
            .map(HistTree::max_depth)
            .find(|&m| m > crate::treeshap::MAX_DEPTH)
        {
            return Err(Error::invalid_param(
                "predict_contributions",
                format!(
                    "TreeSHAP explains trees of depth at most {}; this model has one of depth \
                     {deep} (its path buffers grow with the square of the depth)",
                    crate::treeshap::MAX_DEPTH
                ),
            ));
        }
        let k = self.k();
        let (n, d) = x.dim();
        let blocks = par::map_chunks(n, 64, |r| {
            let mut out = vec![0f64; r.len() * k * (d + 1)];
            let mut row = vec![0f64; d];
            for (t, i) in r.enumerate() {
                for (v, xv) in row.iter_mut().zip(x.row(i)) {
                    *v = xv.to_f64_lossless();
                }
                self.encode_rows(&mut row, d);
                let o = &mut out[t * k * (d + 1)..(t + 1) * k * (d + 1)];
                for c in 0..k {
                    o[c * (d + 1) + d] = self.baseline[c];
                }
                for (m, tree) in self.trees.iter().enumerate() {
                    let c = m % k;
                    crate::treeshap::tree_shap(tree, &row, &mut o[c * (d + 1)..(c + 1) * (d + 1)]);
                }
            }
            out
        });
        let flat: Vec<f64> = blocks.into_iter().flatten().collect();
        Ok(ndarray::Array3::from_shape_vec((n, k, d + 1), flat).expect("n × K × (d + 1)"))
    }

    /// Split-gain importances: each feature's total gain over all splits, normalised to sum 1
    /// (LightGBM's `importance_type = "gain"`; zeros when no tree splits).
    fn feature_importances(&self) -> Array1<f64> {
        let mut imp = Array1::<f64>::zeros(self.n_features);
        for t in &self.trees {
            for node in t.nodes().iter().filter(|n| !n.is_leaf) {
                imp[node.feature as usize] += node.gain.max(0.0);
            }
        }
        let s = imp.sum();
        if s > 0.0 {
            imp /= s;
        }
        imp
    }
}

impl Ensemble {
    /// The fitted state of a model whose hyperparameters give `loss` and `s`: a valid bin
    /// mapper of the model's feature count, one finite baseline per output, whole iterations
    /// of valid trees (at least one, at most `max_iter`) within `max_leaf_nodes` and
    /// `max_depth` (which bounds the TreeSHAP recursion), splitting on the model's features
    /// (categorically only on categorical ones).
    fn check(&self, c: &ModelCheck, loss: HgbLoss, s: &Settings) -> Result<()> {
        let max_iter = s.max_iter;
        c.that(self.loss == loss, || {
            format!(
                "the loss {:?} does not match the hyperparameters ({loss:?})",
                self.loss
            )
        })?;
        let (k, d) = (self.k(), self.n_features);
        c.at_least("n_features", d, 1)?;
        c.part("bin_mapper", &self.bin_mapper)?;
        c.len("bin_mapper (features)", self.bin_mapper.n_features(), d)?;
        c.len("baseline", self.baseline.len(), k)?;
        c.finite_slice("baseline", &self.baseline)?;
        let n_iter = self.trees.len() / k;
        c.that(
            self.trees.len() % k == 0 && (1..=max_iter).contains(&n_iter),
            || {
                format!(
                    "{} trees are not 1 to max_iter = {max_iter} iterations of {k}",
                    self.trees.len()
                )
            },
        )?;
        for (i, t) in self.trees.iter().enumerate() {
            let field = format!("trees[{i}]");
            c.part(&field, t)?;
            let (leaves, depth) = (t.n_leaves(), t.max_depth());
            c.that(
                s.max_leaf_nodes.is_none_or(|m| leaves <= m)
                    && s.max_depth.is_none_or(|m| depth <= m),
                || format!("`{field}` has {leaves} leaves and depth {depth}, beyond the limits"),
            )?;
            for node in t.nodes().iter().filter(|n| !n.is_leaf) {
                let f = node.feature as usize;
                let ok = f < d && (!node.is_categorical || self.bin_mapper.is_categorical(f));
                c.that(ok, || {
                    format!(
                        "`{field}` splits on feature {f}: not one of the {d} (or not categorical)"
                    )
                })?;
            }
        }
        Ok(())
    }
}

/// A prediction node: threshold, feature and children; a leaf points to itself (threshold
/// `+∞`, both children itself), so a walk can take a fixed number of steps without branches.
#[derive(Debug, Clone, Copy)]
struct FlatNode {
    threshold: f64,
    feature: u32,
    left: u32,
    right: u32,
    missing_left: bool,
}

/// A tree ready for prediction: its nodes, the leaf values (0 for internal nodes) and its depth;
/// with categorical splits, each node's bitset index (`NOT_CATEGORICAL` for the others) and
/// the bitsets.
struct FlatTree {
    nodes: Vec<FlatNode>,
    values: Vec<f64>,
    depth: usize,
    cat_of: Vec<u32>,
    bitsets: Vec<Bitset>,
}

/// `FlatTree::cat_of` of a numerical split or a leaf.
const NOT_CATEGORICAL: u32 = u32::MAX;

/// Rows walked through a tree in lockstep (independent walks overlap their load latencies).
const LANES: usize = 8;

impl FlatTree {
    fn of(tree: &HistTree) -> FlatTree {
        let nodes = tree
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if n.is_leaf {
                    FlatNode {
                        threshold: f64::INFINITY,
                        feature: 0,
                        left: i as u32,
                        right: i as u32,
                        missing_left: true,
                    }
                } else {
                    FlatNode {
                        threshold: n.threshold,
                        feature: n.feature,
                        left: n.left,
                        right: n.right,
                        missing_left: n.missing_go_to_left,
                    }
                }
            })
            .collect();
        let values = tree
            .nodes()
            .iter()
            .map(|n| if n.is_leaf { n.value } else { 0.0 })
            .collect();
        let cat_of = if tree.bitsets().is_empty() {
            Vec::new()
        } else {
            tree.nodes()
                .iter()
                .map(|n| {
                    if n.is_categorical && !n.is_leaf {
                        n.bitset_idx
                    } else {
                        NOT_CATEGORICAL
                    }
                })
                .collect()
        };
        FlatTree {
            nodes,
            values,
            depth: tree.max_depth(),
            cat_of,
            bitsets: tree.bitsets().to_vec(),
        }
    }

    /// One step from node `i` for a row (categorical features as codes when `CAT`).
    #[inline(always)]
    fn step<const CAT: bool>(&self, i: u32, row: &[f64]) -> u32 {
        let nd = &self.nodes[i as usize];
        let v = row[nd.feature as usize];
        let left = if CAT && self.cat_of[i as usize] != NOT_CATEGORICAL {
            if v.is_nan() {
                nd.missing_left
            } else {
                in_bitset(&self.bitsets[self.cat_of[i as usize] as usize], v as u8)
            }
        } else {
            (v <= nd.threshold) | (v.is_nan() & nd.missing_left)
        };
        if left { nd.left } else { nd.right }
    }

    /// Adds the tree's leaf value of every row (`d` features each) to `out[t·k + c]`.
    fn add_to(&self, rows: &[f64], d: usize, out: &mut [f64], k: usize, c: usize) {
        if self.cat_of.is_empty() {
            self.add_to_impl::<false>(rows, d, out, k, c);
        } else {
            self.add_to_impl::<true>(rows, d, out, k, c);
        }
    }

    fn add_to_impl<const CAT: bool>(
        &self,
        rows: &[f64],
        d: usize,
        out: &mut [f64],
        k: usize,
        c: usize,
    ) {
        let mut groups = rows.chunks_exact(LANES * d);
        let mut o = 0;
        for group in groups.by_ref() {
            let mut idx = [0u32; LANES];
            for _ in 0..self.depth {
                for (l, i) in idx.iter_mut().enumerate() {
                    *i = self.step::<CAT>(*i, &group[l * d..(l + 1) * d]);
                }
            }
            for i in idx {
                out[o * k + c] += self.values[i as usize];
                o += 1;
            }
        }
        for row in groups.remainder().chunks_exact(d) {
            let mut i = 0u32;
            for _ in 0..self.depth {
                i = self.step::<CAT>(i, row);
            }
            out[o * k + c] += self.values[i as usize];
            o += 1;
        }
    }
}

/// The user's constraints of one run.
#[derive(Debug, Clone, Copy)]
struct Constraints<'a> {
    monotonic: Option<&'a [i8]>,
    interaction: Option<&'a [Vec<usize>]>,
    /// Indices of the categorical features.
    categorical: &'a [usize],
}

/// The training target of one run.
struct Target<'a> {
    /// Regression targets, or class indices as `f64`.
    y: &'a [f64],
    /// Class labels (stratified early-stopping split).
    labels: Option<&'a [usize]>,
    /// Sample weights (class weights folded in).
    weights: Option<Vec<f64>>,
}

/// Runs the boosting (or continues `warm`).
fn boost<F: Float>(
    s: &Settings,
    loss: HgbLoss,
    x: &ArrayRef2<F>,
    target: Target<'_>,
    warm: Option<&Ensemble>,
    constraints: Constraints<'_>,
    estimator: &'static str,
) -> Result<Ensemble> {
    s.validate()?;
    let Constraints {
        monotonic,
        interaction,
        categorical,
    } = constraints;
    let w = target.weights.clone();
    let (n_all, d) = x.dim();
    if let Some(m) = monotonic {
        if m.len() != d {
            return Err(Error::invalid_param(
                "monotonic_cst",
                format!("needs one entry per feature ({d}); got {}", m.len()),
            ));
        }
        if let Some(v) = m.iter().find(|v| !(-1..=1).contains(*v)) {
            return Err(Error::invalid_param(
                "monotonic_cst",
                format!("entries must be -1, 0 or 1; got {v}"),
            ));
        }
        if loss.n_outputs() > 1 {
            return Err(Error::invalid_param(
                "monotonic_cst",
                "monotonic constraints are not supported for more than two classes",
            ));
        }
        if categorical
            .iter()
            .any(|&j| m.get(j).is_some_and(|&c| c != 0))
        {
            return Err(Error::invalid_param(
                "monotonic_cst",
                "categorical features cannot have monotonic constraints",
            ));
        }
    }
    check_feature_indices("categorical_features", categorical, d)?;
    // Interaction groups; features in no group form one more group (scikit-learn's rule).
    let groups: Vec<Vec<usize>> = match interaction {
        None => Vec::new(),
        Some(sets) => {
            let mut groups: Vec<Vec<usize>> = Vec::with_capacity(sets.len() + 1);
            let mut seen = vec![false; d];
            for set in sets {
                check_feature_indices("interaction_cst", set, d)?;
                let mut g = set.clone();
                g.sort_unstable();
                g.dedup();
                g.iter().for_each(|&j| seen[j] = true);
                groups.push(g);
            }
            let rest: Vec<usize> = (0..d).filter(|&j| !seen[j]).collect();
            if !rest.is_empty() {
                groups.push(rest);
            }
            groups
        }
    };
    if let Some(e) = warm {
        validate::check_n_features(d, e.n_features, estimator)?;
        if e.n_iter() > s.max_iter {
            return Err(Error::invalid_param(
                "max_iter",
                format!(
                    "a warm start needs max_iter >= the {} iterations already fitted",
                    e.n_iter()
                ),
            ));
        }
    }
    let seed = warm.map_or(s.seed, |e| e.seed);
    let early = match s.early_stopping {
        EarlyStoppingMode::Auto => n_all > 10_000,
        EarlyStoppingMode::On => true,
        EarlyStoppingMode::Off => false,
    };
    // Train / validation split.
    let (train_rows, val_rows): (Vec<usize>, Vec<usize>) = match (early, s.validation_fraction) {
        (true, Some(f)) => {
            let mask = validation_mask(n_all, target.labels, f, seed, 0x4847_4256)?;
            let (mut tr, mut va) = (Vec::new(), Vec::new());
            for (i, &m) in mask.iter().enumerate() {
                if m { va.push(i) } else { tr.push(i) }
            }
            (tr, va)
        }
        _ => ((0..n_all).collect(), Vec::new()),
    };
    let use_val = !val_rows.is_empty();
    let pick = |v: &[f64], rows: &[usize]| -> Vec<f64> { rows.iter().map(|&i| v[i]).collect() };
    // Without a validation split the caller's targets are used as they are (no copy).
    let (x_train_owned, y_train, w_train): (_, std::borrow::Cow<'_, [f64]>, _) = if use_val {
        (
            Some(x.select(Axis(0), &train_rows)),
            pick(target.y, &train_rows).into(),
            w.as_ref().map(|w| pick(w, &train_rows)),
        )
    } else {
        (None, target.y.into(), w.clone())
    };
    let x_train: &ArrayRef2<F> = x_train_owned.as_ref().map_or(x, |a| a);
    if let Some(labels) = target.labels {
        let k = loss.n_outputs().max(2);
        let mut seen = vec![false; k];
        train_rows.iter().for_each(|&i| seen[labels[i]] = true);
        if seen.iter().filter(|&&b| b).count() < 2 {
            return Err(Error::TooFewClasses {
                context: estimator,
                needed: 2,
                found: seen.iter().filter(|&&b| b).count(),
            });
        }
    }
    let n = train_rows.len();
    let k = loss.n_outputs();

    // Bins (kept from the first fit on a warm start).
    let bin_mapper = match warm {
        Some(e) => e.bin_mapper.clone(),
        None => {
            let wa = w_train
                .as_ref()
                .map(|w| Array1::from(w.iter().map(|&v| F::cast(v)).collect::<Vec<F>>()));
            let mut fitted = BinMapper::default()
                .max_bins(s.max_bins)
                .seed(seed)
                .categorical_features(categorical.to_vec())
                .fit_weighted(x_train, wa.as_deref())?;
            if use_val {
                // Categories come from every row (scikit-learn encodes them before its split).
                fitted.set_categories_from(x)?;
            }
            fitted
        }
    };
    let codes = bin_mapper.transform_columns(x_train)?;
    let missing_bin = bin_mapper.missing_bin();
    let n_bins_non_missing: Vec<usize> = (0..d).map(|j| bin_mapper.n_bins_non_missing(j)).collect();
    let has_missing: Vec<bool> = (0..d)
        .map(|j| codes[j * n..(j + 1) * n].contains(&missing_bin))
        .collect();
    let thresholds: Vec<Vec<f64>> = (0..d).map(|j| bin_mapper.thresholds(j).to_vec()).collect();
    let is_categorical: Vec<bool> = if bin_mapper.has_categorical() {
        (0..d).map(|j| bin_mapper.is_categorical(j)).collect()
    } else {
        Vec::new()
    };
    let binned = Binned {
        codes: &codes,
        n,
        d,
        n_bins_non_missing: &n_bins_non_missing,
        has_missing: &has_missing,
        missing_bin,
        thresholds: &thresholds,
        monotonic: monotonic.unwrap_or(&[]),
        interaction: &groups,
        categorical: &is_categorical,
    };
    let val_codes = if use_val {
        let xv = x.select(Axis(0), &val_rows);
        Some(bin_mapper.transform(&xv)?)
    } else {
        None
    };
    let y_val = pick(target.y, &val_rows);
    let w_val = w.as_ref().map(|w| pick(w, &val_rows));

    let baseline = match warm {
        Some(e) => e.baseline.clone(),
        None => loss.baseline(&y_train, w_train.as_deref())?,
    };
    let mut trees: Vec<HistTree> = warm.map_or_else(Vec::new, |e| e.trees.clone());
    let mut raw = vec![0f64; n * k];
    for i in 0..n {
        raw[i * k..(i + 1) * k].copy_from_slice(&baseline);
    }
    let mut raw_val = vec![0f64; val_rows.len() * k];
    for i in 0..val_rows.len() {
        raw_val[i * k..(i + 1) * k].copy_from_slice(&baseline);
    }
    // A warm start recomputes the scores of the kept trees.
    if !trees.is_empty() {
        add_binned(&trees, k, &codes, n, missing_bin, &mut raw);
        if let Some(vc) = &val_codes {
            let flat: Vec<u8> = vc.t().iter().copied().collect();
            add_binned(&trees, k, &flat, val_rows.len(), missing_bin, &mut raw_val);
        }
    }

    let constant = loss.constant_hessian() && w_train.is_none();
    let mut g = vec![0f32; n * k];
    let mut h = if constant {
        Vec::new()
    } else {
        vec![0f32; n * k]
    };
    let mut partition: Vec<u32> = Vec::with_capacity(n);
    let params = s.grow_params();
    let mut tracker = EarlyStopping::hist_gradient_boosting(s.n_iter_no_change, s.tol).tracker();
    let (mut train_score, mut validation_score) = match warm {
        Some(e) => (e.train_score.clone(), e.validation_score.clone()),
        None => (Vec::new(), Vec::new()),
    };
    if early {
        // Replay the recorded scores, then record the start if this is a first fit.
        let hist = if use_val {
            &validation_score
        } else {
            &train_score
        };
        for &sc in hist {
            tracker.update(sc);
        }
        if trees.is_empty() {
            let ts = -loss.mean_loss(&y_train, &raw, w_train.as_deref());
            train_score.push(ts);
            if use_val {
                let vs = -loss.mean_loss(&y_val, &raw_val, w_val.as_deref());
                validation_score.push(vs);
                tracker.update(vs);
            } else {
                tracker.update(ts);
            }
        }
    }
    let start_iter = trees.len() / k;
    for iter in start_iter..s.max_iter {
        loss.gradients(&y_train, &raw, w_train.as_deref(), &mut g, &mut h, constant);
        for c in 0..k {
            partition.clear();
            partition.extend(0..n as u32);
            let rng = random::stream(seed, (iter * k + c) as u64);
            let gs = &g[c * n..(c + 1) * n];
            let hs = (!constant).then(|| &h[c * n..(c + 1) * n]);
            let grown = Grower::new(&binned, gs, hs, params, &mut partition, rng).grow();
            let mut tree = grown.tree;
            if loss.refits_leaves()
                && let HgbLoss::Single(l) = loss
            {
                for (node, range) in &grown.leaves {
                    let rows = &partition[range.clone()];
                    let resid: Array1<f64> = rows
                        .iter()
                        .map(|&i| y_train[i as usize] - raw[i as usize])
                        .collect();
                    let wl: Option<Array1<f64>> = w_train
                        .as_ref()
                        .map(|w| rows.iter().map(|&i| w[i as usize]).collect());
                    let v = l.intercept_only(&resid, wl.as_deref())?;
                    tree.set_value(*node, s.learning_rate * v);
                }
            }
            for (node, range) in &grown.leaves {
                let v = tree.nodes()[*node].value;
                for &i in &partition[range.clone()] {
                    raw[i as usize * k + c] += v;
                }
            }
            trees.push(tree);
        }
        if let Some(vc) = &val_codes {
            let new = &trees[iter * k..(iter + 1) * k];
            for (i, row) in vc.rows().into_iter().enumerate() {
                for (c, t) in new.iter().enumerate() {
                    raw_val[i * k + c] += t.predict_binned(|j| row[j], missing_bin);
                }
            }
        }
        let mut stop = false;
        let mut objective = f64::NAN;
        if early {
            let ts = -loss.mean_loss(&y_train, &raw, w_train.as_deref());
            train_score.push(ts);
            objective = -ts;
            if use_val {
                let vs = -loss.mean_loss(&y_val, &raw_val, w_val.as_deref());
                validation_score.push(vs);
                stop = tracker.update(vs);
            } else {
                stop = tracker.update(ts);
            }
        }
        let progress = Progress::new(estimator, iter + 1)
            .max_iter(s.max_iter)
            .objective(objective);
        if observe::report(&progress).is_stop() || stop {
            break;
        }
    }
    Ok(Ensemble {
        bin_mapper,
        loss,
        baseline,
        trees,
        n_features: d,
        train_score,
        validation_score,
        seed,
    })
}

/// Adds the leaf values of `trees` to `raw` for column-major codes of `n` rows.
fn add_binned(
    trees: &[HistTree],
    k: usize,
    codes: &[u8],
    n: usize,
    missing_bin: u8,
    raw: &mut [f64],
) {
    for (m, t) in trees.iter().enumerate() {
        let c = m % k;
        for i in 0..n {
            raw[i * k + c] += t.predict_binned(|j| codes[j * n + i], missing_bin);
        }
    }
}

/// The hyperparameter fields and setters both estimators share.
macro_rules! shared_setters {
    () => {
        ndlearn_core::setters! {
            learning_rate: f64,
            max_iter: usize,
            max_leaf_nodes: Option<usize>,
            max_depth: Option<usize>,
            min_samples_leaf: usize,
            l2_regularization: f64,
            min_hessian: f64,
            max_features: f64,
            max_bins: usize,
            early_stopping: EarlyStoppingMode,
            validation_fraction: Option<f64>,
            monotonic_cst: Option<Vec<i8>>,
            interaction_cst: Option<Vec<Vec<usize>>>,
            categorical_features: Vec<usize>,
            n_iter_no_change: usize,
            tol: f64,
            /// Sets the seed (scikit-learn's `random_state`).
            seed: u64,
        }

        fn settings(&self) -> Settings {
            Settings {
                learning_rate: self.learning_rate,
                max_iter: self.max_iter,
                max_leaf_nodes: self.max_leaf_nodes,
                max_depth: self.max_depth,
                min_samples_leaf: self.min_samples_leaf,
                l2_regularization: self.l2_regularization,
                min_hessian: self.min_hessian,
                max_features: self.max_features,
                max_bins: self.max_bins,
                early_stopping: self.early_stopping,
                validation_fraction: self.validation_fraction,
                n_iter_no_change: self.n_iter_no_change,
                tol: self.tol,
                seed: self.seed,
            }
        }
    };
}

/// Histogram gradient boosting for regression (scikit-learn's
/// `HistGradientBoostingRegressor`). See the [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_tree::HistGradientBoostingRegressor;
///
/// let data = ndlearn_datasets::diabetes();
/// let y = data.y_values().expect("target");
/// let fit = HistGradientBoostingRegressor::default().max_iter(50).fit(data.x(), y)?;
/// let pred = fit.predict(data.x())?;
/// let mse = pred.iter().zip(y).map(|(p, t)| (p - t).powi(2)).sum::<f64>() / y.len() as f64;
/// let var = y.var(0.0);
/// assert!(mse < 0.5 * var); // well above a constant model on the training data
/// assert_eq!(fit.n_iter(), 50);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct HistGradientBoostingRegressor {
    /// The loss (default squared error).
    pub loss: HistGradientBoostingRegressionLoss,
    /// The quantile `τ` of the `quantile` loss (default 0.5).
    pub quantile: f64,
    /// Shrinkage of every tree (default 0.1).
    pub learning_rate: f64,
    /// Boosting iterations (default 100).
    pub max_iter: usize,
    /// Leaves per tree (default 31; `None`: unlimited).
    pub max_leaf_nodes: Option<usize>,
    /// Depth limit (default `None`).
    pub max_depth: Option<usize>,
    /// Rows per leaf at least (default 20).
    pub min_samples_leaf: usize,
    /// L2 penalty `λ` on leaf values (default 0).
    pub l2_regularization: f64,
    /// Hessian mass per child at least (default 1e-3).
    pub min_hessian: f64,
    /// Fraction of the features searched at each node (default 1).
    pub max_features: f64,
    /// Bins per feature, missing values excluded (default 255).
    pub max_bins: usize,
    /// Early stopping (default `auto`: above 10,000 rows).
    pub early_stopping: EarlyStoppingMode,
    /// Held-out fraction for early stopping (default 0.1; `None`: the training loss).
    pub validation_fraction: Option<f64>,
    /// Monotonic constraint per feature: `1` increasing, `−1` decreasing, `0` none (default
    /// `None`: no constraints).
    pub monotonic_cst: Option<Vec<i8>>,
    /// Interaction constraints: sets of feature indices allowed to split on one path; features
    /// in no set form one more set (default `None`: no constraints).
    pub interaction_cst: Option<Vec<Vec<usize>>>,
    /// Indices of the categorical features, split natively on sets of categories (default
    /// none; scikit-learn's `categorical_features` as indices; see the module docs).
    pub categorical_features: Vec<usize>,
    /// Patience of early stopping (default 10).
    pub n_iter_no_change: usize,
    /// Improvement that counts for early stopping (default 1e-7).
    pub tol: f64,
    /// Seed of the early-stopping split, the binning subsample and `max_features`
    /// (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for HistGradientBoostingRegressor {
    fn default() -> Self {
        Self {
            loss: HistGradientBoostingRegressionLoss::SquaredError,
            quantile: 0.5,
            learning_rate: 0.1,
            max_iter: 100,
            max_leaf_nodes: Some(31),
            max_depth: None,
            min_samples_leaf: 20,
            l2_regularization: 0.0,
            min_hessian: 1e-3,
            max_features: 1.0,
            max_bins: MAX_BINS,
            early_stopping: EarlyStoppingMode::Auto,
            validation_fraction: Some(0.1),
            monotonic_cst: None,
            interaction_cst: None,
            categorical_features: Vec::new(),
            n_iter_no_change: 10,
            tol: 1e-7,
            seed: 0,
        }
    }
}

impl HistGradientBoostingRegressor {
    shared_setters!();

    ndlearn_core::setters! {
        loss: HistGradientBoostingRegressionLoss,
        quantile: f64,
    }

    fn core_loss(&self) -> Loss {
        match self.loss {
            HistGradientBoostingRegressionLoss::SquaredError => Loss::SquaredError,
            HistGradientBoostingRegressionLoss::AbsoluteError => Loss::AbsoluteError,
            HistGradientBoostingRegressionLoss::Poisson => Loss::Poisson,
            HistGradientBoostingRegressionLoss::Gamma => Loss::Gamma,
            HistGradientBoostingRegressionLoss::Quantile => Loss::Pinball {
                quantile: self.quantile,
            },
        }
    }

    fn fit_boost<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        warm: Option<&Ensemble>,
    ) -> Result<FittedHistGradientBoostingRegressor> {
        const CONTEXT: &str = "HistGradientBoostingRegressor::fit";
        self.validate()?;
        let w = check_inputs(x, y.len(), sample_weight, CONTEXT)?;
        validate::check_finite_1d(y, "y")?;
        let loss = self.core_loss();
        loss.check_target(y)?;
        let ys: Vec<f64> = y.iter().map(|v| v.to_f64_lossless()).collect();
        if matches!(loss, Loss::Poisson) && ys.iter().all(|&v| v <= 0.0) {
            return Err(Error::invalid_param(
                "y",
                "the poisson loss needs some y > 0 (all targets are 0)",
            ));
        }
        let target = Target {
            y: &ys,
            labels: None,
            weights: w,
        };
        let ensemble = boost(
            &self.settings(),
            HgbLoss::Single(loss),
            x,
            target,
            warm,
            Constraints {
                monotonic: self.monotonic_cst.as_deref(),
                interaction: self.interaction_cst.as_deref(),
                categorical: &self.categorical_features,
            },
            "hist_gradient_boosting_regressor",
        )?;
        Ok(FittedHistGradientBoostingRegressor {
            params: self.clone(),
            ensemble,
        })
    }
}

/// Checks `X` (NaN allowed, infinities not), the target length and the weights.
fn check_inputs<F: Float>(
    x: &ArrayRef2<F>,
    n_target: usize,
    sample_weight: Option<&ArrayRef1<F>>,
    context: &'static str,
) -> Result<Option<Vec<f64>>> {
    validate::check_target_len(x.nrows(), n_target, context)?;
    validate::check_min_samples(x.nrows(), 1, context)?;
    if x.ncols() == 0 {
        return Err(Error::invalid_param("X", "needs at least one feature"));
    }
    check_no_infinite(x)?;
    checked_weights(sample_weight, x.nrows())
}

impl Estimator for HistGradientBoostingRegressor {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.settings().validate()?;
        if self.loss == HistGradientBoostingRegressionLoss::Quantile
            && !(self.quantile > 0.0 && self.quantile < 1.0)
        {
            return Err(Error::invalid_param(
                "quantile",
                format!("must be in (0, 1); got {}", self.quantile),
            ));
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for HistGradientBoostingRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedHistGradientBoostingRegressor;

    /// Bins the features and runs the boosting iterations.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_boost(x, y, None, None)
    }
}

impl<F: Float> FitWeighted<F> for HistGradientBoostingRegressor {
    /// As [`Fit::fit`] with per-sample weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight, None)
    }
}

/// Accessors both fitted models share.
macro_rules! fitted_common {
    ($params:ty) => {
        /// The hyperparameters of the fit.
        pub fn params(&self) -> &$params {
            &self.params
        }

        /// The trees, iteration by iteration (`n_trees_per_iteration` per iteration;
        /// scikit-learn's `_predictors` flattened).
        pub fn trees(&self) -> &[HistTree] {
            &self.ensemble.trees
        }

        /// Trees per iteration: 1, or the number of classes for more than two classes.
        pub fn n_trees_per_iteration(&self) -> usize {
            self.ensemble.k()
        }

        /// Iterations run (fewer than `max_iter` after early stopping; `n_iter_`).
        pub fn n_iter(&self) -> usize {
            self.ensemble.n_iter()
        }

        /// The starting raw score(s) (scikit-learn's `_baseline_prediction`).
        pub fn baseline(&self) -> &[f64] {
            &self.ensemble.baseline
        }

        /// The feature binning of the fit.
        pub fn bin_mapper(&self) -> &FittedBinMapper {
            &self.ensemble.bin_mapper
        }

        /// Negative training losses, the start first (with early stopping only; `train_score_`).
        pub fn train_score(&self) -> &[f64] {
            &self.ensemble.train_score
        }

        /// Negative validation losses, the start first (early stopping on a validation split;
        /// `validation_score_`).
        pub fn validation_score(&self) -> &[f64] {
            &self.ensemble.validation_score
        }
    };
}

/// A fitted [`HistGradientBoostingRegressor`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedHistGradientBoostingRegressor {
    params: HistGradientBoostingRegressor,
    ensemble: Ensemble,
}

impl FittedHistGradientBoostingRegressor {
    fitted_common!(HistGradientBoostingRegressor);

    /// Warm start (scikit-learn's `warm_start=True`): keeps the bins, the baseline and the
    /// trees, recomputes the scores of `(x, y)` (the first fit's data) and adds iterations up
    /// to `max_iter` in total (early stopping continues with the recorded scores).
    ///
    /// # Errors
    /// `max_iter` below the iterations already fitted, a different feature count, and the
    /// errors of [`Fit::fit`].
    pub fn fit_more<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        max_iter: usize,
    ) -> Result<Self> {
        let est = self.params.clone().max_iter(max_iter);
        est.fit_boost(x, y, sample_weight, Some(&self.ensemble))
    }

    /// The raw score `F(x)` (before the inverse link).
    ///
    /// # Errors
    /// A different feature count, infinite values.
    pub fn raw_predict<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array1<f64>> {
        let raw = self
            .ensemble
            .raw(x, "HistGradientBoostingRegressor::raw_predict")?;
        Ok(raw.column(0).to_owned())
    }

    /// Exact per-feature contributions to the raw score by TreeSHAP (LightGBM's
    /// `pred_contrib`, XGBoost's `pred_contribs`): `n × (d + 1)`, the last column the bias
    /// (baseline plus the trees' expected values); each row sums to
    /// [`raw_predict`](Self::raw_predict). Expectations follow the trees' training-row counts.
    ///
    /// # Errors
    /// A different feature count, infinite values.
    pub fn predict_contributions<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<f64>> {
        let c = self
            .ensemble
            .contributions(x, "HistGradientBoostingRegressor::predict_contributions")?;
        Ok(c.index_axis_move(Axis(1), 0))
    }

    /// The prediction after every iteration (scikit-learn's `staged_predict`).
    ///
    /// # Errors
    /// As [`Predict::predict`].
    pub fn staged_predict<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<F>>> {
        let link = self.link();
        Ok(self
            .ensemble
            .staged(x, "HistGradientBoostingRegressor::staged_predict")?
            .into_iter()
            .map(|r| r.column(0).mapv(|v| F::cast(link.inverse_link(v))))
            .collect())
    }

    fn link(&self) -> Loss {
        match self.ensemble.loss {
            HgbLoss::Single(l) => l,
            HgbLoss::Multinomial { .. } => Loss::SquaredError,
        }
    }
}

impl<F: Float> Predict<F> for FittedHistGradientBoostingRegressor {
    type Output = Array1<F>;

    /// `h(F(x))`: the raw score through the inverse link (`eᶠ` for Poisson and gamma).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let link = self.link();
        Ok(self.raw_predict(x)?.mapv(|v| F::cast(link.inverse_link(v))))
    }
}

impl NFeaturesIn for FittedHistGradientBoostingRegressor {
    fn n_features_in(&self) -> usize {
        self.ensemble.n_features
    }
}

impl CheckModel for FittedHistGradientBoostingRegressor {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedHistGradientBoostingRegressor");
        c.params(&self.params)?;
        let loss = HgbLoss::Single(self.params.core_loss());
        self.ensemble.check(&c, loss, &self.params.settings())
    }
}

impl<F: Float> FeatureImportances<F> for FittedHistGradientBoostingRegressor {
    /// Total split gain per feature, normalised (LightGBM's gain importance).
    fn feature_importances(&self) -> Array1<F> {
        self.ensemble.feature_importances().mapv(F::cast)
    }
}

/// Histogram gradient boosting for classification (scikit-learn's
/// `HistGradientBoostingClassifier`): binomial log-loss (one tree per iteration) for two
/// classes, multinomial (one tree per class and iteration) for more. Labels are class indices
/// `0..K`. See the [module docs](self).
///
/// ```
/// use ndlearn_core::{Fit, Predict, PredictProba};
/// use ndlearn_tree::HistGradientBoostingClassifier;
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let fit = HistGradientBoostingClassifier::default().max_iter(30).fit(data.x(), y)?;
/// assert_eq!(fit.n_trees_per_iteration(), 3);
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
pub struct HistGradientBoostingClassifier {
    /// Shrinkage of every tree (default 0.1).
    pub learning_rate: f64,
    /// Boosting iterations (default 100).
    pub max_iter: usize,
    /// Leaves per tree (default 31; `None`: unlimited).
    pub max_leaf_nodes: Option<usize>,
    /// Depth limit (default `None`).
    pub max_depth: Option<usize>,
    /// Rows per leaf at least (default 20).
    pub min_samples_leaf: usize,
    /// L2 penalty `λ` on leaf values (default 0).
    pub l2_regularization: f64,
    /// Hessian mass per child at least (default 1e-3).
    pub min_hessian: f64,
    /// Fraction of the features searched at each node (default 1).
    pub max_features: f64,
    /// Bins per feature, missing values excluded (default 255).
    pub max_bins: usize,
    /// Early stopping (default `auto`: above 10,000 rows).
    pub early_stopping: EarlyStoppingMode,
    /// Held-out fraction (stratified) for early stopping (default 0.1; `None`: the training
    /// loss).
    pub validation_fraction: Option<f64>,
    /// Monotonic constraint per feature on the raw score (two classes only): `1` increasing,
    /// `−1` decreasing, `0` none (default `None`).
    pub monotonic_cst: Option<Vec<i8>>,
    /// Interaction constraints: sets of feature indices allowed to split on one path; features
    /// in no set form one more set (default `None`: no constraints).
    pub interaction_cst: Option<Vec<Vec<usize>>>,
    /// Indices of the categorical features, split natively on sets of categories (default
    /// none; scikit-learn's `categorical_features` as indices; see the module docs).
    pub categorical_features: Vec<usize>,
    /// Patience of early stopping (default 10).
    pub n_iter_no_change: usize,
    /// Improvement that counts for early stopping (default 1e-7).
    pub tol: f64,
    /// Class weights multiplying the sample weights (default uniform).
    pub class_weight: ClassWeight,
    /// Seed of the early-stopping split, the binning subsample and `max_features`
    /// (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for HistGradientBoostingClassifier {
    fn default() -> Self {
        Self {
            learning_rate: 0.1,
            max_iter: 100,
            max_leaf_nodes: Some(31),
            max_depth: None,
            min_samples_leaf: 20,
            l2_regularization: 0.0,
            min_hessian: 1e-3,
            max_features: 1.0,
            max_bins: MAX_BINS,
            early_stopping: EarlyStoppingMode::Auto,
            validation_fraction: Some(0.1),
            monotonic_cst: None,
            interaction_cst: None,
            categorical_features: Vec::new(),
            n_iter_no_change: 10,
            tol: 1e-7,
            class_weight: ClassWeight::Uniform,
            seed: 0,
        }
    }
}

impl HistGradientBoostingClassifier {
    shared_setters!();

    ndlearn_core::setters! {
        class_weight: ClassWeight,
    }

    fn fit_boost<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        warm: Option<(&Ensemble, usize)>,
    ) -> Result<FittedHistGradientBoostingClassifier> {
        const CONTEXT: &str = "HistGradientBoostingClassifier::fit";
        self.validate()?;
        let mut w = check_inputs(x, y.len(), sample_weight, CONTEXT)?;
        let k = validate::check_labels(y, 2, CONTEXT)?;
        if let Some((_, k0)) = warm
            && k != k0
        {
            return Err(Error::invalid_param(
                "y",
                format!("a warm start needs the {k0} classes of the first fit; got {k}"),
            ));
        }
        if self.class_weight != ClassWeight::Uniform {
            let cw = self.class_weight.for_classes(y, k, None)?;
            let base = w.unwrap_or_else(|| vec![1.0; y.len()]);
            w = Some(base.iter().zip(y).map(|(&b, &c)| b * cw[c]).collect());
        }
        if let Some(w) = &w {
            check_weighted_classes(y, w, k, CONTEXT)?;
        }
        let loss = if k == 2 {
            HgbLoss::Single(Loss::LogLoss)
        } else {
            HgbLoss::Multinomial { k }
        };
        let labels: Vec<usize> = y.iter().copied().collect();
        let ys: Vec<f64> = labels.iter().map(|&c| c as f64).collect();
        let target = Target {
            y: &ys,
            labels: Some(&labels),
            weights: w,
        };
        let ensemble = boost(
            &self.settings(),
            loss,
            x,
            target,
            warm.map(|(e, _)| e),
            Constraints {
                monotonic: self.monotonic_cst.as_deref(),
                interaction: self.interaction_cst.as_deref(),
                categorical: &self.categorical_features,
            },
            "hist_gradient_boosting_classifier",
        )?;
        Ok(FittedHistGradientBoostingClassifier {
            params: self.clone(),
            ensemble,
            n_classes: k,
        })
    }
}

impl Estimator for HistGradientBoostingClassifier {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.settings().validate()?;
        self.class_weight.validate_not_subsample()
    }
}

impl<F: Float> Fit<F> for HistGradientBoostingClassifier {
    type Target = ArrayRef1<usize>;
    type Model = FittedHistGradientBoostingClassifier;

    /// Bins the features and runs the boosting iterations.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_boost(x, y, None, None)
    }
}

impl<F: Float> FitWeighted<F> for HistGradientBoostingClassifier {
    /// As [`Fit::fit`] with per-sample weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight, None)
    }
}

/// A fitted [`HistGradientBoostingClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedHistGradientBoostingClassifier {
    params: HistGradientBoostingClassifier,
    ensemble: Ensemble,
    n_classes: usize,
}

impl FittedHistGradientBoostingClassifier {
    fitted_common!(HistGradientBoostingClassifier);

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Warm start with more iterations (see
    /// [`FittedHistGradientBoostingRegressor::fit_more`]).
    ///
    /// # Errors
    /// As [`FittedHistGradientBoostingRegressor::fit_more`]; other classes than the first fit's.
    pub fn fit_more<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        max_iter: usize,
    ) -> Result<Self> {
        let est = self.params.clone().max_iter(max_iter);
        est.fit_boost(x, y, sample_weight, Some((&self.ensemble, self.n_classes)))
    }

    fn proba_of(&self, raw: &Array2<f64>) -> Array2<f64> {
        if self.n_classes == 2 {
            let mut p = Array2::zeros((raw.nrows(), 2));
            for (i, &f) in raw.column(0).iter().enumerate() {
                let q = Loss::LogLoss.inverse_link(f);
                p[[i, 0]] = 1.0 - q;
                p[[i, 1]] = q;
            }
            p
        } else {
            MultinomialLoss::predict_proba(raw)
        }
    }

    /// Exact per-feature contributions to the raw scores by TreeSHAP: `n × K × (d + 1)` with
    /// `K` = 1 for two classes (the log-odds) and the number of classes otherwise; the last
    /// entry of each output is the bias. Each `[i, k, ..]` sums to
    /// [`DecisionFunction::decision_function`]`[i, k]`.
    ///
    /// # Errors
    /// A different feature count, infinite values.
    pub fn predict_contributions<F: Float>(
        &self,
        x: &ArrayRef2<F>,
    ) -> Result<ndarray::Array3<f64>> {
        self.ensemble
            .contributions(x, "HistGradientBoostingClassifier::predict_contributions")
    }

    /// Class probabilities after every iteration (scikit-learn's `staged_predict_proba`).
    ///
    /// # Errors
    /// As [`Predict::predict`].
    pub fn staged_predict_proba<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Vec<Array2<F>>> {
        Ok(self
            .ensemble
            .staged(x, "HistGradientBoostingClassifier::staged_predict_proba")?
            .iter()
            .map(|r| self.proba_of(r).mapv(F::cast))
            .collect())
    }

    /// Predicted classes after every iteration (scikit-learn's `staged_predict`).
    ///
    /// # Errors
    /// As [`Predict::predict`].
    pub fn staged_predict<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<usize>>> {
        Ok(self
            .ensemble
            .staged(x, "HistGradientBoostingClassifier::staged_predict")?
            .iter()
            .map(|r| self.classes_of(r))
            .collect())
    }

    fn classes_of(&self, raw: &Array2<f64>) -> Array1<usize> {
        if self.n_classes == 2 {
            raw.column(0).mapv(|f| usize::from(f > 0.0))
        } else {
            raw.rows()
                .into_iter()
                .map(|r| crate::common::argmax(r.iter().copied()))
                .collect()
        }
    }
}

impl<F: Float> Predict<F> for FittedHistGradientBoostingClassifier {
    type Output = Array1<usize>;

    /// The class of largest probability (`F > 0` for two classes).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let raw = self
            .ensemble
            .raw(x, "HistGradientBoostingClassifier::predict")?;
        Ok(self.classes_of(&raw))
    }
}

impl<F: Float> PredictProba<F> for FittedHistGradientBoostingClassifier {
    /// `[1 − σ(F), σ(F)]` for two classes, `softmax(F)` for more.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let raw = self
            .ensemble
            .raw(x, "HistGradientBoostingClassifier::predict_proba")?;
        Ok(self.proba_of(&raw).mapv(F::cast))
    }
}

impl<F: Float> DecisionFunction<F> for FittedHistGradientBoostingClassifier {
    /// The raw scores: one column for two classes, `K` for more.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let raw = self
            .ensemble
            .raw(x, "HistGradientBoostingClassifier::decision_function")?;
        Ok(raw.mapv(F::cast))
    }
}

impl NFeaturesIn for FittedHistGradientBoostingClassifier {
    fn n_features_in(&self) -> usize {
        self.ensemble.n_features
    }
}

impl<F: Float> FeatureImportances<F> for FittedHistGradientBoostingClassifier {
    /// Total split gain per feature, normalised (LightGBM's gain importance).
    fn feature_importances(&self) -> Array1<F> {
        self.ensemble.feature_importances().mapv(F::cast)
    }
}

impl CheckModel for FittedHistGradientBoostingClassifier {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedHistGradientBoostingClassifier");
        c.params(&self.params)?;
        let k = self.n_classes;
        c.at_least("n_classes", k, 2)?;
        let loss = if k == 2 {
            HgbLoss::Single(Loss::LogLoss)
        } else {
            HgbLoss::Multinomial { k }
        };
        self.ensemble.check(&c, loss, &self.params.settings())
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_ensembles() {
        let data = ndlearn_datasets::iris();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let m = HistGradientBoostingClassifier::default()
            .max_iter(3)
            .fit(x, y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let invalid = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let mut bad = m.clone();
        bad.ensemble.trees.pop(); // the last iteration is missing a class's tree
        assert!(invalid(bad.check_model()));
        let mut bad = m.clone();
        bad.n_classes = 2; // a multinomial loss of 3 outputs
        assert!(invalid(bad.check_model()));
        let mut bad = m.clone();
        bad.ensemble.n_features = 2; // the bins and the splits are over 4 features
        assert!(invalid(bad.check_model()));
        let mut bad = m;
        bad.params.max_leaf_nodes = Some(2); // the trees have more leaves
        assert!(invalid(bad.check_model()));
        let yr: Array1<f64> = x.column(0).to_owned();
        let r = HistGradientBoostingRegressor::default()
            .max_iter(3)
            .fit(x, &yr)
            .expect("fit");
        assert!(r.check_model().is_ok());
        let mut bad = r;
        bad.ensemble.baseline[0] = f64::NAN;
        assert!(invalid(bad.check_model()));
    }

    #[test]
    fn contributions_of_a_too_deep_tree_are_a_typed_error() {
        let x = Array2::from_shape_fn((200, 2), |(i, j)| ((i * (j + 2)) % 17) as f64);
        let y = x.column(0).to_owned();
        let mut m = HistGradientBoostingRegressor::default()
            .max_iter(2)
            .fit(&x, &y)
            .expect("fit");
        m.params.max_leaf_nodes = None; // the chains below have more than 31 leaves
        // within the limit: explained, and each row still sums to the raw prediction
        m.ensemble.trees[0] = HistTree::chain(crate::treeshap::MAX_DEPTH);
        assert!(m.check_model().is_ok());
        let few = x.slice(ndarray::s![..20, ..]);
        let c = m.predict_contributions(&few).expect("depth at the limit");
        let raw = m.ensemble.raw(&few, "test").expect("raw");
        for i in 0..few.nrows() {
            let sum: f64 = c.row(i).sum();
            assert!((sum - raw[[i, 0]]).abs() < 1e-9, "{sum} vs {}", raw[[i, 0]]);
        }
        // a chain far deeper (a hand-edited model file): a typed error, no stack overflow
        m.ensemble.trees[0] = HistTree::chain(200_000);
        assert!(m.check_model().is_ok(), "a deep chain is a valid tree");
        let err = m.predict_contributions(&x).expect_err("too deep");
        assert!(matches!(err, Error::InvalidParam { .. }), "{err}");
        assert!(m.predict(&x).is_ok(), "prediction walks any depth");
    }
}
