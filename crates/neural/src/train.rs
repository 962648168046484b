//! The training loops shared by [`crate::MLPClassifier`] and [`crate::MLPRegressor`]:
//! scikit-learn's stochastic solvers (`sgd`, `adam`: epochs of mini-batches, the MLP
//! stopping rule, early stopping on a validation split) and `lbfgs` on the packed parameters.

use std::cell::RefCell;

use std::borrow::Cow;

use ndarray::{
    Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, ArrayViewMut1, Axis, CowArray, Ix2, s,
};
use ndlearn_core::optim::{
    Adam, LbfgsOptions, Momentum, Nesterov, Objective, Optimizer, StopCriteria, lbfgs,
};
use ndlearn_core::training::{
    EarlyStopping, LearningRate, PlateauTracker, Schedule, validation_mask,
};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, observe, random};

use crate::network::{Network, Workspace};

/// The optimisation algorithm (scikit-learn's `solver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Solver {
    /// L-BFGS on the full batch (core's [`lbfgs`]).
    Lbfgs,
    /// Mini-batch SGD with (Nesterov) momentum.
    Sgd,
    /// Mini-batch Adam (scikit-learn's default).
    #[default]
    Adam,
}

/// Which form of Adam's step (see [`Adam`]): scikit-learn's (bias corrections folded into the
/// step size, `ε` added to `√v`) or the paper's (`ε` added to `√v̂`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AdamForm {
    /// scikit-learn's form (the default, for parity).
    #[default]
    Sklearn,
    /// Kingma & Ba's Algorithm 1.
    Paper,
}

/// The hyperparameters both MLP estimators share, as the training loops read them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hyper {
    pub hidden_layer_sizes: Vec<usize>,
    pub solver: Solver,
    pub alpha: f64,
    pub batch_size: Option<usize>,
    pub learning_rate: LearningRate,
    pub learning_rate_init: f64,
    pub power_t: f64,
    pub max_iter: usize,
    pub shuffle: bool,
    pub seed: u64,
    pub tol: f64,
    pub momentum: f64,
    pub nesterovs_momentum: bool,
    pub early_stopping: bool,
    pub validation_fraction: f64,
    pub beta_1: f64,
    pub beta_2: f64,
    pub epsilon: f64,
    pub n_iter_no_change: usize,
    pub max_fun: usize,
    pub adam_form: AdamForm,
    pub dropout: f64,
    pub input_noise: f64,
}

impl Hyper {
    pub(crate) fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_non_negative, check_positive};
        if self.hidden_layer_sizes.contains(&0) {
            return Err(Error::invalid_param(
                "hidden_layer_sizes",
                format!(
                    "every hidden layer needs at least one unit, got {:?}",
                    self.hidden_layer_sizes
                ),
            ));
        }
        check_non_negative("alpha", self.alpha)?;
        if let Some(b) = self.batch_size {
            check_at_least("batch_size", b, 1)?;
        }
        if !matches!(
            self.learning_rate,
            LearningRate::Constant | LearningRate::InvScaling | LearningRate::Adaptive
        ) {
            return Err(Error::invalid_param(
                "learning_rate",
                "must be constant, invscaling or adaptive",
            ));
        }
        check_positive("learning_rate_init", self.learning_rate_init)?;
        check_non_negative("power_t", self.power_t)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        if !(self.momentum.is_finite() && (0.0..1.0).contains(&self.momentum)) {
            return Err(Error::invalid_param(
                "momentum",
                format!("must lie in [0, 1), got {}", self.momentum),
            ));
        }
        if !(self.validation_fraction > 0.0 && self.validation_fraction < 1.0) {
            return Err(Error::invalid_param(
                "validation_fraction",
                format!("must lie in (0, 1), got {}", self.validation_fraction),
            ));
        }
        for (name, v) in [("beta_1", self.beta_1), ("beta_2", self.beta_2)] {
            if !(v.is_finite() && (0.0..1.0).contains(&v)) {
                return Err(Error::invalid_param(
                    name,
                    format!("must lie in [0, 1), got {v}"),
                ));
            }
        }
        check_positive("epsilon", self.epsilon)?;
        check_at_least("n_iter_no_change", self.n_iter_no_change, 1)?;
        check_at_least("max_fun", self.max_fun, 1)?;
        crate::network::check_dropout(self.dropout)?;
        check_non_negative("input_noise", self.input_noise)?;
        if self.input_noise > 0.0 && self.solver == Solver::Lbfgs {
            return Err(Error::invalid_param(
                "input_noise",
                "noise injection makes the objective random; use solver sgd or adam",
            ));
        }
        if self.dropout > 0.0 && self.solver == Solver::Lbfgs {
            return Err(Error::invalid_param(
                "dropout",
                "dropout makes the objective random; use solver sgd or adam",
            ));
        }
        Ok(())
    }
}

/// What a fit records (scikit-learn's fitted attributes).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrainingHistory {
    /// Mean training loss of every epoch (stochastic solvers; scikit-learn's `loss_curve_`).
    pub loss_curve: Vec<f64>,
    /// The loss of the final weights (`loss_`).
    pub loss: f64,
    /// Best training loss seen (`best_loss_`; `None` with early stopping or L-BFGS).
    pub best_loss: Option<f64>,
    /// Validation score (accuracy or R²) of every epoch with early stopping
    /// (`validation_scores_`).
    pub validation_scores: Vec<f64>,
    /// Best validation score (`best_validation_score_`).
    pub best_validation_score: Option<f64>,
    /// Epochs (stochastic) or iterations (L-BFGS) run, over all calls (`n_iter_`).
    pub n_iter: usize,
    /// Training samples seen by the stochastic solvers (`t_`).
    pub t: usize,
    /// Whether a stopping rule (not `max_iter`) ended the last fit.
    pub converged: bool,
    /// The current learning rate of SGD (changed by `invscaling` / `adaptive`).
    pub learning_rate: f64,
    /// Epochs without improvement so far (kept across `partial_fit` calls).
    pub no_improvement_count: usize,
}

impl CheckModel for TrainingHistory {
    /// The counters a later `partial_fit` or warm start continues from: a finite learning rate
    /// `≥ 0`, sample and epoch counts that cannot overflow when increased, and a count of epochs
    /// without improvement (replayed one by one) at most the samples seen.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("TrainingHistory");
        let lr = self.learning_rate;
        c.that(lr.is_finite() && lr >= 0.0, || {
            "`learning_rate` must be finite and >= 0".into()
        })?;
        let limit = isize::MAX as usize;
        c.that(self.t <= limit && self.n_iter <= limit, || {
            "`t` and `n_iter` must be at most isize::MAX".into()
        })?;
        c.that(self.no_improvement_count <= self.t, || {
            "`no_improvement_count` exceeds the samples seen".into()
        })
    }
}

/// The optimizer state kept between `partial_fit` calls (not serialised: a model read back
/// from a file continues with fresh moment buffers).
#[derive(Debug, Clone)]
pub(crate) enum OptState<F: Float> {
    Momentum(Momentum<F>),
    Nesterov(Nesterov<F>),
    Adam(Adam<F>),
}

impl<F: Float> OptState<F> {
    fn new(h: &Hyper) -> Result<Self> {
        Ok(match h.solver {
            Solver::Adam => Self::Adam(match h.adam_form {
                AdamForm::Sklearn => {
                    Adam::sklearn_form(h.learning_rate_init, h.beta_1, h.beta_2, h.epsilon)?
                }
                AdamForm::Paper => Adam::new(h.learning_rate_init, h.beta_1, h.beta_2, h.epsilon)?,
            }),
            _ if h.nesterovs_momentum => {
                Self::Nesterov(Nesterov::new(h.learning_rate_init, h.momentum)?)
            }
            _ => Self::Momentum(Momentum::new(h.learning_rate_init, h.momentum)?),
        })
    }

    fn opt(&mut self) -> &mut dyn Optimizer<F> {
        match self {
            Self::Momentum(o) => o,
            Self::Nesterov(o) => o,
            Self::Adam(o) => o,
        }
    }
}

/// The training targets: a dense matrix (regression, multi-label, autoencoders), or class
/// labels encoded row by row as batches are gathered (no `n × K` encoded copy of `y`).
#[derive(Debug)]
pub(crate) enum Targets<'a, F: Float> {
    /// One row of targets per sample.
    Dense(CowArray<'a, F, Ix2>),
    /// Class indices: one output column (`1` for class 1, `0` otherwise) when `width` is 1,
    /// one-hot over `width` classes otherwise.
    Classes {
        /// The label of each row.
        labels: Cow<'a, [usize]>,
        /// The number of output columns.
        width: usize,
    },
}

impl<'a, F: Float> Targets<'a, F> {
    /// Dense targets borrowing `y`.
    pub(crate) fn dense(y: &ArrayRef2<F>) -> Targets<'_, F> {
        Targets::Dense(CowArray::from(y.view()))
    }

    /// Class labels over `n_classes` classes (one output column for two classes).
    pub(crate) fn classes(labels: &[usize], n_classes: usize) -> Targets<'_, F> {
        Targets::Classes {
            labels: Cow::Borrowed(labels),
            width: if n_classes == 2 { 1 } else { n_classes },
        }
    }

    fn nrows(&self) -> usize {
        match self {
            Targets::Dense(y) => y.nrows(),
            Targets::Classes { labels, .. } => labels.len(),
        }
    }

    fn ncols(&self) -> usize {
        match self {
            Targets::Dense(y) => y.ncols(),
            Targets::Classes { width, .. } => *width,
        }
    }

    /// Writes row `i` into `out`.
    fn write_row(&self, i: usize, mut out: ArrayViewMut1<'_, F>) {
        match self {
            Targets::Dense(y) => out.assign(&y.row(i)),
            Targets::Classes { labels, width } => {
                let c = labels[i];
                if *width == 1 {
                    out[0] = if c == 1 { F::one() } else { F::zero() };
                } else {
                    for (k, v) in out.iter_mut().enumerate() {
                        *v = if k == c { F::one() } else { F::zero() };
                    }
                }
            }
        }
    }

    /// The rows `idx`, owned.
    fn select(&self, idx: &[usize]) -> Targets<'a, F> {
        match self {
            Targets::Dense(y) => Targets::Dense(CowArray::from(y.select(Axis(0), idx))),
            Targets::Classes { labels, width } => Targets::Classes {
                labels: Cow::Owned(idx.iter().map(|&i| labels[i]).collect()),
                width: *width,
            },
        }
    }

    /// The targets as a matrix (borrowed when dense, encoded otherwise).
    pub(crate) fn matrix(&self) -> CowArray<'_, F, Ix2> {
        match self {
            Targets::Dense(y) => CowArray::from(y.view()),
            Targets::Classes { .. } => {
                let mut m = Array2::zeros((self.nrows(), self.ncols()));
                for (i, row) in m.rows_mut().into_iter().enumerate() {
                    self.write_row(i, row);
                }
                CowArray::from(m)
            }
        }
    }
}

/// The epoch's row order: the rows as they are, or a shuffle evaluated position by position
/// ([`random::LazyPermutation`]: O(1) memory where an index array would take `n` entries).
enum RowOrder {
    Identity,
    Shuffled(random::LazyPermutation),
}

impl RowOrder {
    /// The rows at positions `start..end`.
    fn range(&self, start: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
        (start..end).map(move |j| match self {
            RowOrder::Identity => j,
            RowOrder::Shuffled(p) => p.at(j),
        })
    }
}

/// How early stopping scores the validation rows (higher is better).
pub(crate) type ScoreFn<'a, F> =
    &'a dyn Fn(&Network<F>, &ArrayView2<'_, F>, &ArrayView2<'_, F>) -> f64;

/// One stochastic fit (or one `partial_fit` epoch when `incremental`), continuing `net`,
/// `hist` and `state`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fit_stochastic<F: Float>(
    h: &Hyper,
    net: &mut Network<F>,
    hist: &mut TrainingHistory,
    state: &mut Option<OptState<F>>,
    x: &ArrayRef2<F>,
    y: &Targets<'_, F>,
    sample_weight: Option<&ArrayRef1<F>>,
    strata: Option<&[usize]>,
    score: ScoreFn<'_, F>,
    incremental: bool,
) -> Result<()> {
    if state.is_none() {
        let mut fresh = OptState::new(h)?;
        if hist.learning_rate > 0.0 && h.solver == Solver::Sgd {
            // A model read back from a file: continue with its (scheduled) learning rate.
            fresh.opt().set_lr(hist.learning_rate)?;
        } else {
            hist.learning_rate = h.learning_rate_init;
        }
        *state = Some(fresh);
    }
    let opt_state = state
        .as_mut()
        .ok_or_else(|| Error::invalid_param("solver", "no optimizer"))?;
    let early = h.early_stopping && !incremental;
    if h.early_stopping && incremental {
        return Err(Error::invalid_param(
            "early_stopping",
            "partial_fit does not support early_stopping = true",
        ));
    }
    // Training / validation rows.
    let (xt, y_split, wt, val) = if early {
        let mask = validation_mask(x.nrows(), strata, h.validation_fraction, h.seed, 1)?;
        let tr: Vec<usize> = (0..x.nrows()).filter(|&i| !mask[i]).collect();
        let va: Vec<usize> = (0..x.nrows()).filter(|&i| mask[i]).collect();
        if va.len() < 2 {
            return Err(Error::invalid_param(
                "validation_fraction",
                format!(
                    "the validation set has {} row(s); it needs at least 2",
                    va.len()
                ),
            ));
        }
        let yv = y.select(&va).matrix().into_owned();
        (
            CowArray::from(x.select(Axis(0), &tr)),
            Some(y.select(&tr)),
            sample_weight.map(|w| CowArray::from(w.select(Axis(0), &tr))),
            Some((x.select(Axis(0), &va), yv)),
        )
    } else {
        // No split: train on the caller's rows as they are (no copy of X; mini-batches are
        // gathered into a batch buffer).
        (
            CowArray::from(x.view()),
            None,
            sample_weight.map(|w| CowArray::from(w.view())),
            None,
        )
    };
    let yt = y_split.as_ref().unwrap_or(y);
    let n = xt.nrows();
    let batch = h.batch_size.map_or(n.min(200), |b| b.clamp(1, n));
    let alpha = F::cast(h.alpha);
    let mut ws = Workspace::default();
    let mut order = RowOrder::Identity;
    let (mut xb, mut yb) = (
        Array2::zeros((batch, xt.ncols())),
        Array2::zeros((batch, yt.ncols())),
    );
    let mut wb = wt.as_ref().map(|_| Array1::zeros(batch));
    let sched = Schedule::new(h.learning_rate, h.learning_rate_init, h.power_t);
    let rule = EarlyStopping::mlp(h.n_iter_no_change, h.tol);
    let mut tracker: PlateauTracker = rule.tracker();
    // Continue the stopping rule of earlier calls (warm start / partial_fit).
    if let Some(b) = if early {
        hist.best_validation_score
    } else {
        hist.best_loss.map(|l| -l)
    } {
        tracker.update(b);
        tracker.reset_count();
    }
    // ... and its count of epochs without improvement (a −∞ score counts one, changes no best).
    for _ in 0..hist.no_improvement_count {
        tracker.update(f64::NEG_INFINITY);
    }
    let mut count = hist.no_improvement_count;
    if early {
        hist.validation_scores.clear();
        hist.best_validation_score = None;
        hist.best_loss = None;
        count = 0;
        tracker = rule.tracker();
    }
    let mut best_net = if early { Some(net.clone()) } else { None };
    let n_layers = net.layers().len();
    hist.converged = false;
    for _ in 0..h.max_iter {
        if h.shuffle {
            let mut rng = random::stream(h.seed, 2 + hist.t as u64);
            order = RowOrder::Shuffled(random::LazyPermutation::new(&mut rng, n));
        }
        let mut acc = 0.0;
        let mut start = 0;
        // Dropout masks: one stream per epoch, indexed by the samples seen before it.
        let mut drop_rng = random::stream(h.seed, (1u64 << 40) + hist.t as u64);
        let mut noise_rng = random::stream(h.seed, (2u64 << 40) + hist.t as u64);
        while start < n {
            let end = (start + batch).min(n);
            let m = end - start;
            let lv = if h.shuffle || h.input_noise > 0.0 {
                let (mut xv, mut yv) = (xb.slice_mut(s![..m, ..]), yb.slice_mut(s![..m, ..]));
                for (r, i) in order.range(start, end).enumerate() {
                    xv.row_mut(r).assign(&xt.row(i));
                    yt.write_row(i, yv.row_mut(r));
                }
                if h.input_noise > 0.0 {
                    // Noise injection (data augmentation): a fresh N(0, σ²) draw per entry.
                    let sd = h.input_noise;
                    xv.mapv_inplace(|v| {
                        v + F::cast(sd * random::standard_normal::<f64>(&mut noise_rng))
                    });
                }
                let wv = match (&mut wb, &wt) {
                    (Some(buf), Some(w)) => {
                        for (r, i) in order.range(start, end).enumerate() {
                            buf[r] = w[i];
                        }
                        Some(buf.slice(s![..m]))
                    }
                    _ => None,
                };
                net.loss_gradient_dropout(
                    &xb.slice(s![..m, ..]),
                    &yb.slice(s![..m, ..]),
                    wv.as_deref(),
                    alpha,
                    (h.dropout, &mut drop_rng),
                    &mut ws,
                )?
            } else {
                let wv = wt.as_ref().map(|w| w.slice(s![start..end]));
                let yv = match yt {
                    Targets::Dense(y) => y.slice(s![start..end, ..]),
                    Targets::Classes { .. } => {
                        let mut yv = yb.slice_mut(s![..m, ..]);
                        for (r, i) in (start..end).enumerate() {
                            yt.write_row(i, yv.row_mut(r));
                        }
                        yb.slice(s![..m, ..])
                    }
                };
                net.loss_gradient_dropout(
                    &xt.slice(s![start..end, ..]),
                    &yv,
                    wv.as_deref(),
                    alpha,
                    (h.dropout, &mut drop_rng),
                    &mut ws,
                )?
            };
            acc += lv.reported.to_f64().unwrap_or(f64::NAN) * m as f64;
            let opt = opt_state.opt();
            for (l, layer) in net.layers_mut().iter_mut().enumerate() {
                opt.step(
                    2 * l,
                    &mut layer.weights.view_mut().into_dyn(),
                    &ws.grad_w[l].view().into_dyn(),
                )?;
                opt.step(
                    2 * l + 1,
                    &mut layer.bias.view_mut().into_dyn(),
                    &ws.grad_b[l].view().into_dyn(),
                )?;
                if let Some(bn) = layer.batch_norm.as_mut() {
                    // γ, β after every W, b index.
                    let base = 2 * n_layers + 2 * l;
                    opt.step(
                        base,
                        &mut bn.gamma.view_mut().into_dyn(),
                        &ws.grad_gamma[l].view().into_dyn(),
                    )?;
                    opt.step(
                        base + 1,
                        &mut bn.beta.view_mut().into_dyn(),
                        &ws.grad_beta[l].view().into_dyn(),
                    )?;
                }
            }
            net.update_running_stats(&ws);
            start = end;
        }
        hist.n_iter += 1;
        hist.loss = acc / n as f64;
        hist.t += n;
        hist.loss_curve.push(hist.loss);
        if !hist.loss.is_finite() {
            return Err(Error::invalid_param(
                "learning_rate_init",
                "the training loss became non-finite; lower the learning rate or scale the data",
            ));
        }
        // scikit-learn's _update_no_improvement_count.
        let fired = if let Some((xv, yv)) = &val {
            let sc = score(net, &xv.view(), &yv.view());
            hist.validation_scores.push(sc);
            let fired = tracker.update(sc);
            if tracker.last_was_best() {
                hist.best_validation_score = Some(sc);
                best_net = Some(net.clone());
            }
            fired
        } else {
            let fired = tracker.update(-hist.loss);
            if tracker.last_was_best() {
                hist.best_loss = Some(hist.loss);
            }
            fired
        };
        count = tracker.count();
        // iteration_ends: SGD's inverse scaling of the step.
        if h.solver == Solver::Sgd && h.learning_rate == LearningRate::InvScaling {
            hist.learning_rate = sched.eta(hist.t as f64 + 1.0);
            opt_state.opt().set_lr(hist.learning_rate)?;
        }
        let stop_obs = observe::report(
            &observe::Progress::new("mlp", hist.n_iter)
                .max_iter(h.max_iter)
                .objective(hist.loss),
        )
        .is_stop();
        if fired {
            // trigger_stopping: only adaptive SGD goes on, with the step divided by 5.
            let goes_on = h.solver == Solver::Sgd && {
                let mut s = Schedule::new(h.learning_rate, hist.learning_rate, h.power_t);
                let on = s.on_plateau();
                if on {
                    hist.learning_rate = s.eta(1.0);
                }
                on
            };
            if goes_on {
                opt_state.opt().set_lr(hist.learning_rate)?;
                tracker.reset_count();
                count = 0;
            } else {
                hist.converged = true;
                break;
            }
        }
        if incremental || stop_obs {
            break;
        }
    }
    hist.no_improvement_count = count;
    if let Some(best) = best_net {
        *net = best;
    }
    check_finite_weights(net)
}

/// The L-BFGS objective over the packed parameters of a network.
struct PackedObjective<'a, F: Float> {
    net: RefCell<Network<F>>,
    ws: RefCell<Workspace<F>>,
    x: &'a ArrayRef2<F>,
    y: &'a ArrayRef2<F>,
    w: Option<&'a ArrayRef1<F>>,
    alpha: F,
}

impl<F: Float> PackedObjective<'_, F> {
    /// The training-mode objective (batch statistics for batch-normalised layers, as the
    /// gradient uses them) and, when asked, its gradient.
    fn eval(&self, theta: &ArrayRef1<F>, with_grad: bool) -> (F, Option<Array1<F>>) {
        let mut net = self.net.borrow_mut();
        if net.unpack(theta).is_err() {
            return (F::nan(), None);
        }
        let mut ws = self.ws.borrow_mut();
        let v = net.loss_gradient(self.x, self.y, self.w, self.alpha, &mut ws);
        (v.objective, with_grad.then(|| net.pack_gradient(&ws)))
    }
}

impl<F: Float> Objective<F> for PackedObjective<'_, F> {
    fn dim(&self) -> usize {
        self.net.borrow().n_params()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        self.eval(w, false).0
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        let d = self.dim();
        self.eval(w, true)
            .1
            .unwrap_or_else(|| Array1::from_elem(d, F::nan()))
    }
    fn value_and_gradient(&self, w: &ArrayRef1<F>) -> (F, Array1<F>) {
        let d = self.dim();
        let (v, g) = self.eval(w, true);
        (v, g.unwrap_or_else(|| Array1::from_elem(d, F::nan())))
    }
}

/// L-BFGS on the full batch: at most `max_iter` iterations and `max_fun` evaluations, stopping
/// when `‖∇‖₂ ≤ tol` or the relative decrease of the objective is below scipy's default
/// `ftol = 2.22·10⁻⁹`.
pub(crate) fn fit_lbfgs<F: Float>(
    h: &Hyper,
    net: &mut Network<F>,
    hist: &mut TrainingHistory,
    x: &ArrayRef2<F>,
    y: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<()> {
    let theta0 = net.pack();
    let obj = PackedObjective {
        net: RefCell::new(net.clone()),
        ws: RefCell::new(Workspace::default()),
        x,
        y,
        w: sample_weight,
        alpha: F::cast(h.alpha),
    };
    let stop = StopCriteria::default()
        .max_iter(h.max_iter)
        .g_tol(h.tol)
        .f_tol(1e7 * f64::EPSILON)
        .x_tol(0.0);
    let opts = LbfgsOptions::default().stop(stop).max_eval(h.max_fun);
    let res = lbfgs(&obj, &theta0, &opts)?;
    net.unpack(&res.x)?;
    net.set_running_stats(x);
    hist.n_iter += res.n_iter;
    hist.converged = res.converged;
    let mut ws = Workspace::default();
    hist.loss = net
        .loss_gradient(x, y, sample_weight, F::cast(h.alpha), &mut ws)
        .reported
        .to_f64()
        .unwrap_or(f64::NAN);
    check_finite_weights(net)
}

fn check_finite_weights<F: Float>(net: &Network<F>) -> Result<()> {
    let ok = net
        .layers()
        .iter()
        .all(|l| l.weights.iter().chain(l.bias.iter()).all(|v| v.is_finite()));
    if ok {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "learning_rate_init",
            "the solver produced non-finite weights; the input may contain large values and \
             need scaling, or the learning rate is too large",
        ))
    }
}

/// serde for `batch_size: Option<usize>` in scikit-learn's spelling: `None` is written
/// `"auto"`; `"auto"`, `null`, a number or a numeric string are read.
#[cfg(feature = "serde")]
pub(crate) mod batch_size_serde {
    use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(usize),
        Text(String),
    }

    pub(crate) fn serialize<S: Serializer>(v: &Option<usize>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => s.serialize_u64(*b as u64),
            None => s.serialize_str("auto"),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
        match Option::<Raw>::deserialize(d)? {
            None => Ok(None),
            Some(Raw::Number(b)) => Ok(Some(b)),
            Some(Raw::Text(t)) if t.trim().eq_ignore_ascii_case("auto") => Ok(None),
            Some(Raw::Text(t)) => t.trim().parse().map(Some).map_err(|_| {
                D::Error::custom(format!("batch_size must be \"auto\" or a count, got {t:?}"))
            }),
        }
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn check_model_accepts_a_fresh_history_and_rejects_an_endless_replay() {
        let mut h = TrainingHistory::default();
        assert!(h.check_model().is_ok());
        h.no_improvement_count = usize::MAX;
        assert!(matches!(h.check_model(), Err(Error::InvalidModel { .. })));
    }
}
