//! Pieces of iterative training loops shared by the SGD models, gradient boosting and neural
//! networks: scikit-learn's learning-rate schedules ([`LearningRate`], [`Schedule`]), its
//! early-stopping rules ([`EarlyStopping`], [`PlateauTracker`]) and the held-out validation
//! split ([`validation_mask`]).
//!
//! # Learning rates
//!
//! | [`LearningRate`] | `η(t)` | scikit-learn |
//! |---|---|---|
//! | `Constant` | `η₀` | `"constant"` |
//! | `Optimal` | `1 / (α (t₀ + t − 1))`, Bottou's `t₀` from the loss ([`Schedule::optimal`]) | `"optimal"` (SGD's default) |
//! | `InvScaling` | `η₀ / t^power_t` | `"invscaling"` |
//! | `Adaptive` | `η₀`, divided by 5 each time the stopping rule fires, until `η ≤ 1e-6` | `"adaptive"` |
//!
//! `t` counts updates from 1 (SGD) or samples seen (MLP); the caller decides.
//!
//! # Early stopping
//!
//! A [`PlateauTracker`] receives one score per epoch or iteration (**higher is better**: pass
//! `−loss` for a loss) and says when the rule of [`EarlyStopping`] fires:
//!
//! | constructor | rule | used by scikit-learn's |
//! |---|---|---|
//! | [`EarlyStopping::sgd`] | `score < best + tol` counts a bad epoch, any other resets the count; fires when the count reaches `n_iter_no_change` | `SGDClassifier`, `SGDRegressor` |
//! | [`EarlyStopping::mlp`] | the same count; fires when it **exceeds** `n_iter_no_change` | `MLPClassifier`, `MLPRegressor` |
//! | [`EarlyStopping::hist_gradient_boosting`] | with more than `n` scores, fires when none of the last `n` beats the one `n + 1` back by more than `tol` | `HistGradientBoosting*` |
//! | [`EarlyStopping::gradient_boosting`] | fires when the score does not beat any of the last `n` kept scores by more than `tol` (a ring buffer started at `−∞`) | `GradientBoosting*` |
//!
//! With `tol = None` (scikit-learn's `tol=None` for SGD) the rule never fires.
//!
//! ```
//! use ndlearn_core::training::{EarlyStopping, LearningRate, Schedule};
//!
//! let mut tracker = EarlyStopping::sgd(2, Some(1e-3)).tracker();
//! assert!(!tracker.update(-1.0));   // first score: the best so far
//! assert!(!tracker.update(-1.0));   // no improvement by tol: count 1
//! assert!(tracker.update(-0.9995)); // still not by tol: count 2, fires
//! let mut s = Schedule::new(LearningRate::Adaptive, 0.1, 0.5);
//! assert!(s.on_plateau() && (s.eta(1.0) - 0.02).abs() < 1e-15);
//! ```

use crate::loss::Loss;
use crate::{Error, Result, random};

/// A learning-rate schedule (scikit-learn's `learning_rate`; see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LearningRate {
    /// `η = η₀`.
    Constant,
    /// `η = 1/(α(t₀ + t − 1))` with Bottou's `t₀` (default, as scikit-learn's SGD).
    #[default]
    Optimal,
    /// `η = η₀ / t^power_t` (scikit-learn's `"invscaling"`).
    #[cfg_attr(feature = "serde", serde(rename = "invscaling", alias = "inv_scaling"))]
    InvScaling,
    /// `η = η₀`, divided by 5 whenever the stopping rule fires.
    Adaptive,
}

/// A schedule in use: the rule and its state (the current rate of `Adaptive`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    kind: LearningRate,
    eta0: f64,
    power_t: f64,
    alpha: f64,
    t_offset: f64,
    eta: f64,
}

impl Schedule {
    /// `Constant`, `InvScaling` or `Adaptive` with initial rate `eta0` and exponent `power_t`.
    /// (`Optimal` needs [`Schedule::optimal`]; given here it behaves as `Constant`.)
    pub fn new(kind: LearningRate, eta0: f64, power_t: f64) -> Self {
        Self {
            kind,
            eta0,
            power_t,
            alpha: 0.0,
            t_offset: 0.0,
            eta: eta0,
        }
    }

    /// scikit-learn's `"optimal"` schedule `1/(α(t₀ + t − 1))` for a loss and penalty `alpha`,
    /// with Bottou's offset `t₀ = 1/(η_init α)`, `η_init = w_typ / max(1, −ℓ'(1, −w_typ))`,
    /// `w_typ = α^{−1/4}`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when `alpha ≤ 0` or is not finite.
    pub fn optimal(loss: &Loss, alpha: f64) -> Result<Self> {
        crate::validate::check_positive("alpha", alpha)?;
        let typw = (1.0 / alpha.sqrt()).sqrt();
        let initial_eta0 = typw / f64::max(1.0, loss.gradient(1.0, -typw));
        Ok(Self {
            kind: LearningRate::Optimal,
            eta0: initial_eta0,
            power_t: 0.0,
            alpha,
            t_offset: 1.0 / (initial_eta0 * alpha),
            eta: initial_eta0,
        })
    }

    /// The rule.
    pub fn kind(&self) -> LearningRate {
        self.kind
    }

    /// The rate at step `t ≥ 1`.
    #[inline]
    pub fn eta(&self, t: f64) -> f64 {
        match self.kind {
            LearningRate::Optimal => 1.0 / (self.alpha * (self.t_offset + t - 1.0)),
            LearningRate::InvScaling => self.eta0 / t.powf(self.power_t),
            LearningRate::Constant | LearningRate::Adaptive => self.eta,
        }
    }

    /// Reacts to a fired stopping rule: `Adaptive` with `η > 1e-6` divides `η` by 5 and returns
    /// `true` (keep training); otherwise returns `false` (stop).
    pub fn on_plateau(&mut self) -> bool {
        if self.kind == LearningRate::Adaptive && self.eta > 1e-6 {
            self.eta /= 5.0;
            true
        } else {
            false
        }
    }
}

/// The stopping rules of scikit-learn's estimators (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EarlyStopping {
    /// The patience `n`.
    pub n_iter_no_change: usize,
    /// The improvement that counts (`None`: never stop).
    pub tol: Option<f64>,
    rule: Rule,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Consecutive non-improvements vs the best, fire at `count ≥ n`.
    CountReaches,
    /// The same count, fire at `count > n`.
    CountExceeds,
    /// None of the last `n` beats the one `n + 1` back.
    Window,
    /// Not better than any of the last `n` kept scores.
    RingBuffer,
}

impl EarlyStopping {
    /// scikit-learn's SGD rule.
    pub fn sgd(n_iter_no_change: usize, tol: Option<f64>) -> Self {
        Self {
            n_iter_no_change,
            tol,
            rule: Rule::CountReaches,
        }
    }

    /// scikit-learn's MLP rule.
    pub fn mlp(n_iter_no_change: usize, tol: f64) -> Self {
        Self {
            n_iter_no_change,
            tol: Some(tol),
            rule: Rule::CountExceeds,
        }
    }

    /// scikit-learn's histogram gradient boosting rule.
    pub fn hist_gradient_boosting(n_iter_no_change: usize, tol: f64) -> Self {
        Self {
            n_iter_no_change,
            tol: Some(tol),
            rule: Rule::Window,
        }
    }

    /// scikit-learn's (exact) gradient boosting rule.
    pub fn gradient_boosting(n_iter_no_change: usize, tol: f64) -> Self {
        Self {
            n_iter_no_change,
            tol: Some(tol),
            rule: Rule::RingBuffer,
        }
    }

    /// Checks `n_iter_no_change ≥ 1` and a finite, non-negative `tol`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`].
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("n_iter_no_change", self.n_iter_no_change, 1)?;
        if let Some(t) = self.tol {
            crate::validate::check_non_negative("tol", t)?;
        }
        Ok(())
    }

    /// A fresh tracker for one training run.
    pub fn tracker(&self) -> PlateauTracker {
        PlateauTracker {
            rule: *self,
            best: f64::NEG_INFINITY,
            count: 0,
            history: Vec::new(),
            steps: 0,
            last_was_best: false,
        }
    }
}

/// The state of an [`EarlyStopping`] rule during one run.
#[derive(Debug, Clone, PartialEq)]
pub struct PlateauTracker {
    rule: EarlyStopping,
    best: f64,
    count: usize,
    history: Vec<f64>,
    steps: usize,
    last_was_best: bool,
}

impl PlateauTracker {
    /// Records one score (higher is better) and returns `true` when the rule fires.
    pub fn update(&mut self, score: f64) -> bool {
        self.steps += 1;
        let n = self.rule.n_iter_no_change;
        self.last_was_best = score > self.best;
        let Some(tol) = self.rule.tol else {
            if self.last_was_best {
                self.best = score;
            }
            return false;
        };
        match self.rule.rule {
            Rule::CountReaches | Rule::CountExceeds => {
                if score < self.best + tol {
                    self.count += 1;
                } else {
                    self.count = 0;
                }
                if self.last_was_best {
                    self.best = score;
                }
                if self.rule.rule == Rule::CountReaches {
                    self.count >= n
                } else {
                    self.count > n
                }
            }
            Rule::Window => {
                if self.last_was_best {
                    self.best = score;
                }
                self.history.push(score);
                let len = self.history.len();
                if len <= n {
                    return false;
                }
                let reference = self.history[len - n - 1] + tol;
                !self.history[len - n..].iter().any(|&s| s > reference)
            }
            Rule::RingBuffer => {
                if self.last_was_best {
                    self.best = score;
                }
                if self.history.is_empty() {
                    self.history = vec![f64::NEG_INFINITY; n];
                }
                if self.history.iter().any(|&h| score > h + tol) {
                    let slot = (self.steps - 1) % n;
                    self.history[slot] = score;
                    false
                } else {
                    true
                }
            }
        }
    }

    /// Restarts the count after the caller reacted to a fired rule (e.g. an adaptive learning
    /// rate was lowered).
    pub fn reset_count(&mut self) {
        self.count = 0;
    }

    /// The best score so far.
    pub fn best(&self) -> f64 {
        self.best
    }

    /// Whether the last score was a new best (MLPs keep those weights).
    pub fn last_was_best(&self) -> bool {
        self.last_was_best
    }

    /// The current count of non-improving steps (count rules).
    pub fn count(&self) -> usize {
        self.count
    }
}

/// The held-out rows for early stopping: `⌈fraction · n⌉` rows (`true` = validation), drawn
/// from the random stream `(seed, task)`; with `strata` (class labels) each class contributes in
/// proportion (largest remainders first), as a stratified split.
///
/// # Errors
/// [`Error::InvalidParam`] when the split leaves an empty training or validation set or
/// `fraction` is outside `(0, 1)`.
pub fn validation_mask(
    n: usize,
    strata: Option<&[usize]>,
    fraction: f64,
    seed: u64,
    task: u64,
) -> Result<Vec<bool>> {
    if !(fraction > 0.0 && fraction < 1.0) {
        return Err(Error::invalid_param(
            "validation_fraction",
            format!("must be in (0, 1); got {fraction}"),
        ));
    }
    let n_val = (fraction * n as f64).ceil() as usize;
    if n_val == 0 || n_val >= n {
        return Err(Error::invalid_param(
            "validation_fraction",
            format!(
                "splitting {n} samples with validation_fraction = {fraction} leaves an empty \
                 training or validation set; change it or disable early stopping"
            ),
        ));
    }
    let mut rng = random::stream(seed, task);
    let mut mask = vec![false; n];
    match strata {
        None => {
            let perm = random::permutation(&mut rng, n);
            for &i in &perm[..n_val] {
                mask[i] = true;
            }
        }
        Some(labels) => {
            let k = labels.iter().copied().max().map_or(0, |m| m + 1);
            let mut groups: Vec<Vec<usize>> = vec![Vec::new(); k];
            for (i, &c) in labels.iter().enumerate() {
                groups[c].push(i);
            }
            let exact: Vec<f64> = groups
                .iter()
                .map(|g| g.len() as f64 * n_val as f64 / n as f64)
                .collect();
            let mut take: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
            let mut rest = n_val - take.iter().sum::<usize>();
            let mut by_remainder: Vec<usize> = (0..k).collect();
            by_remainder.sort_by(|&a, &b| {
                (exact[b] - exact[b].floor())
                    .total_cmp(&(exact[a] - exact[a].floor()))
                    .then(a.cmp(&b))
            });
            for &c in &by_remainder {
                if rest == 0 {
                    break;
                }
                if take[c] < groups[c].len() {
                    take[c] += 1;
                    rest -= 1;
                }
            }
            for (g, &m) in groups.iter_mut().zip(&take) {
                random::shuffle(&mut rng, g);
                for &i in &g[..m] {
                    mask[i] = true;
                }
            }
        }
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        let c = Schedule::new(LearningRate::Constant, 0.5, 0.25);
        assert_eq!(c.eta(7.0), 0.5);
        let i = Schedule::new(LearningRate::InvScaling, 0.5, 0.5);
        assert_eq!(i.eta(4.0), 0.25);
        let mut a = Schedule::new(LearningRate::Adaptive, 1e-5, 0.5);
        assert!(a.on_plateau());
        assert!((a.eta(1.0) - 2e-6).abs() < 1e-20);
        assert!(a.on_plateau());
        assert!(!a.on_plateau(), "stops once η ≤ 1e-6");
        let mut c2 = c;
        assert!(!c2.on_plateau());
        let o = Schedule::optimal(&Loss::Hinge { threshold: 1.0 }, 1e-4).expect("ok");
        // t₀ = 1/(η_init α) so that η(1) = η_init.
        assert!((o.eta(1.0) - o.eta0).abs() < 1e-12 * o.eta0);
        assert!(o.eta(10.0) < o.eta(1.0));
        assert!(Schedule::optimal(&Loss::LogLoss, 0.0).is_err());
    }

    #[test]
    fn rules() {
        // MLP fires one step later than SGD.
        let mut s = EarlyStopping::sgd(2, Some(0.1)).tracker();
        let mut m = EarlyStopping::mlp(2, 0.1).tracker();
        let scores = [1.0, 1.05, 1.02, 1.08];
        let sgd: Vec<bool> = scores.iter().map(|&v| s.update(v)).collect();
        let mlp: Vec<bool> = scores.iter().map(|&v| m.update(v)).collect();
        assert_eq!(sgd, vec![false, false, true, true]);
        assert_eq!(mlp, vec![false, false, false, true]);
        assert_eq!(s.best(), 1.08);
        assert!(s.last_was_best());
        s.reset_count();
        assert_eq!(s.count(), 0);
        let mut never = EarlyStopping::sgd(1, None).tracker();
        assert!((0..10).all(|_| !never.update(0.0)));
        // Window: fires when the last 2 do not beat the score 3 back by tol.
        let mut w = EarlyStopping::hist_gradient_boosting(2, 0.0).tracker();
        assert_eq!(
            [1.0, 2.0, 3.0, 2.5, 2.9, 2.0].map(|v| w.update(v)),
            [false, false, false, false, true, false]
        );
        // Ring buffer: continues while the score beats one of the last kept scores.
        let mut r = EarlyStopping::gradient_boosting(2, 0.0).tracker();
        assert_eq!(
            [1.0, 2.0, 1.5, 1.5].map(|v| r.update(v)),
            [false, false, false, true]
        );
        assert!(EarlyStopping::mlp(0, 1e-4).validate().is_err());
        assert!(EarlyStopping::mlp(3, -1.0).validate().is_err());
    }

    #[test]
    fn validation_split_sizes_and_strata() {
        let labels: Vec<usize> = (0..100).map(|i| usize::from(i >= 70)).collect();
        let m = validation_mask(100, Some(&labels), 0.1, 3, 9).expect("split");
        assert_eq!(m.iter().filter(|&&v| v).count(), 10);
        let ones = m
            .iter()
            .zip(&labels)
            .filter(|&(&v, &l)| v && l == 1)
            .count();
        assert_eq!(ones, 3);
        assert_eq!(
            m,
            validation_mask(100, Some(&labels), 0.1, 3, 9).expect("split")
        );
        let plain = validation_mask(50, None, 0.25, 1, 9).expect("split");
        assert_eq!(plain.iter().filter(|&&v| v).count(), 13);
        assert!(validation_mask(1, None, 0.5, 1, 9).is_err());
        assert!(validation_mask(10, None, 1.0, 1, 9).is_err());
    }
}
