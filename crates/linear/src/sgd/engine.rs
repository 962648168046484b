//! The plain SGD loop shared by [`super::SGDClassifier`] and [`super::SGDRegressor`]: one binary
//! (or regression) problem, one pass over the rows per epoch (losses from
//! [`ndlearn_core::loss`]), the learning-rate schedules, the scaled weight vector and the truncated-gradient L1 step.
//!
//! The arithmetic follows scikit-learn's `_plain_sgd` operation by operation (same order of
//! additions in every dot product, same scalar precision: scalars in `f64`, weights in the
//! input precision), so that with `shuffle = false` the results agree with scikit-learn's to
//! rounding.

use ndlearn_core::loss::Loss;
use ndlearn_core::{Error, Float, Result, random};

use ndlearn_core::training::{EarlyStopping, LearningRate, Schedule};

use super::SgdPenalty;

/// Gradients are clipped to `±MAX_DLOSS` (scikit-learn's guard against overflow).
const MAX_DLOSS: f64 = 1e12;

/// Rows gathered at once in a shuffled epoch.
const BLOCK: usize = 64;

/// The weights of one problem between calls: the plain iterate and (when averaging) the
/// running average.
#[derive(Debug, Clone)]
pub(crate) struct State<F> {
    pub w: Vec<F>,
    pub intercept: f64,
    pub avg_w: Vec<F>,
    pub avg_intercept: f64,
}

/// Early-stopping hook: the held-out rows and a score of `(w, b)` on them (higher is better).
pub(crate) struct Validation<'a, F> {
    /// `true` for the rows held out of training.
    pub mask: &'a [bool],
    /// The validation score of the current true weights and intercept.
    pub score: &'a (dyn Fn(&[F], f64) -> f64 + Sync),
}

/// Everything one run of the loop needs (one binary problem or one regression).
pub(crate) struct Problem<'a, F> {
    /// Row-major `n × d` data.
    pub x: &'a [F],
    pub n: usize,
    pub d: usize,
    /// Encoded targets (`±1`, `{0, 1}` for the log loss, or real values).
    pub y: &'a [F],
    pub sample_weight: &'a [F],
    pub loss: Loss,
    pub penalty: SgdPenalty,
    pub alpha: f64,
    pub l1_ratio: f64,
    pub learning_rate: LearningRate,
    pub eta0: f64,
    pub power_t: f64,
    pub max_iter: usize,
    pub tol: Option<f64>,
    pub n_iter_no_change: usize,
    pub fit_intercept: bool,
    pub weight_pos: F,
    pub weight_neg: F,
    pub average: usize,
    /// `Some(rng)` shuffles the visiting order before every epoch.
    pub shuffle: Option<random::Rng>,
    pub validation: Option<Validation<'a, F>>,
    /// Name for progress reports.
    pub name: &'static str,
    /// Report epochs to `ndlearn_core::observe` (off for the parallel one-vs-all problems,
    /// whose reports would depend on the thread that runs them).
    pub report: bool,
}

/// The outcome of one run.
pub(crate) struct RunInfo {
    pub n_iter: usize,
    pub stopped: bool,
}

/// `w = wscale · v`: scaling the whole vector is O(1) (the L2 decay `w ← (1 − ηαρ)w` of every
/// step), with the squared and absolute norms tracked for the objective.
struct WeightVector<'s, F> {
    v: &'s mut [F],
    wscale: f64,
    sq_norm: f64,
    l1_norm: f64,
    /// Averaging: the average is `(aw + a·v) / b`.
    aw: Option<&'s mut [F]>,
    a: f64,
    b: f64,
    reset_threshold: f64,
}

impl<F: Float> WeightVector<'_, F> {
    #[inline]
    fn dot(&self, x: &[F]) -> f64 {
        let mut acc = 0.0f64;
        for (&w, &xv) in self.v.iter().zip(x) {
            acc += (w * xv).to_f64_lossless();
        }
        acc *= self.wscale;
        // scikit-learn returns the product in the input precision.
        F::cast(acc).to_f64_lossless()
    }

    /// `w += c·x` (c in the input precision), updating the norms when `track`.
    #[inline]
    fn add(&mut self, x: &[F], c: F, track: bool) {
        let ws = F::cast(self.wscale);
        let step = (c / ws).to_f64_lossless();
        for (w, &xv) in self.v.iter_mut().zip(x) {
            *w = F::cast(w.to_f64_lossless() + xv.to_f64_lossless() * step);
        }
        if track {
            let mut l2 = 0.0f64;
            let mut l1 = 0.0f64;
            for &w in self.v.iter() {
                l2 += (w * w).to_f64_lossless();
                l1 += w.abs().to_f64_lossless();
            }
            self.sq_norm = l2 * (ws * ws).to_f64_lossless();
            self.l1_norm = l1 * ws.to_f64_lossless();
        }
    }

    /// The averaging update of Bottou's sparse trick after a step with update `c` at average
    /// count `num_iter`.
    #[inline]
    fn add_average(&mut self, x: &[F], c: F, num_iter: F) {
        let mu = 1.0 / num_iter.to_f64_lossless();
        let wscale = self.wscale;
        if c != F::zero()
            && let Some(aw) = self.aw.as_deref_mut()
        {
            let f = -c.to_f64_lossless() / wscale;
            for (a, &xv) in aw.iter_mut().zip(x) {
                *a = F::cast(a.to_f64_lossless() + self.a * xv.to_f64_lossless() * f);
            }
        }
        if num_iter > F::one() {
            self.b /= 1.0 - mu;
        }
        self.a += mu * self.b * wscale;
    }

    #[inline]
    fn scale(&mut self, c: F) {
        let cd = c.to_f64_lossless();
        self.wscale *= cd;
        self.sq_norm *= (c * c).to_f64_lossless();
        self.l1_norm *= c.abs().to_f64_lossless();
        if self.wscale < self.reset_threshold {
            self.reset();
        }
    }

    /// Folds `wscale` (and the averaging coefficients) into the stored vectors.
    fn reset(&mut self) {
        if let Some(aw) = self.aw.as_deref_mut() {
            let a = F::cast(self.a);
            let inv_b = F::cast(1.0 / self.b);
            for (av, &w) in aw.iter_mut().zip(self.v.iter()) {
                *av = (*av + a * w) * inv_b;
            }
            self.a = 0.0;
            self.b = 1.0;
        }
        let s = F::cast(self.wscale);
        for w in self.v.iter_mut() {
            *w *= s;
        }
        self.wscale = 1.0;
    }

    /// Truncated-gradient L1 step (Tsuruoka et al. 2009): every weight is pulled towards 0 by
    /// the total penalty `u` it could have received minus what it did receive (`q`), never
    /// crossing 0.
    #[inline]
    fn l1_truncate(&mut self, q: &mut [F], u: f64) {
        let wscale = self.wscale;
        for (w, qj) in self.v.iter_mut().zip(q.iter_mut()) {
            let z = w.to_f64_lossless();
            let qd = qj.to_f64_lossless();
            if wscale * z > 0.0 {
                *w = F::cast(f64::max(0.0, z - (u + qd) / wscale));
            } else if wscale * z < 0.0 {
                *w = F::cast(f64::min(0.0, z + (u - qd) / wscale));
            }
            *qj = F::cast(qd + wscale * (w.to_f64_lossless() - z));
        }
    }
}

/// Runs up to `max_iter` epochs from `state` at step counter `t0`.
///
/// # Errors
/// [`Error::NonFinite`] when the weights overflow (the data need scaling).
pub(crate) fn run<F: Float>(p: Problem<'_, F>, state: &mut State<F>, t0: f64) -> Result<RunInfo> {
    let Problem {
        x,
        n,
        d,
        y,
        sample_weight,
        loss,
        penalty,
        alpha,
        l1_ratio,
        learning_rate,
        eta0,
        power_t,
        max_iter,
        tol,
        n_iter_no_change,
        fit_intercept,
        weight_pos,
        weight_neg,
        average,
        mut shuffle,
        validation,
        name,
        report,
    } = p;
    let l1_ratio = match penalty {
        SgdPenalty::L2 => 0.0,
        SgdPenalty::L1 => 1.0,
        _ => l1_ratio,
    };
    let decay = matches!(penalty, SgdPenalty::L2 | SgdPenalty::ElasticNet);
    let truncate = matches!(penalty, SgdPenalty::L1 | SgdPenalty::ElasticNet);
    let penalised = penalty != SgdPenalty::None;
    let observed = report && ndlearn_core::observe::is_observed();
    let early = validation.is_some();
    // The training objective is only needed for the tol stop (and progress reports).
    let track = (tol.is_some() && !early) || observed;
    let mut schedule = if learning_rate == LearningRate::Optimal {
        Schedule::optimal(&loss, alpha)?
    } else {
        Schedule::new(learning_rate, eta0, power_t)
    };
    let mut plateau = EarlyStopping::sgd(n_iter_no_change, tol).tracker();
    let (sq0, l10) = if track {
        (
            state.w.iter().map(|&v| (v * v).to_f64_lossless()).sum(),
            state.w.iter().map(|&v| v.abs().to_f64_lossless()).sum(),
        )
    } else {
        (0.0, 0.0)
    };
    let State {
        w: w_store,
        intercept,
        avg_w,
        avg_intercept,
    } = state;
    let mut w = WeightVector {
        v: w_store.as_mut_slice(),
        wscale: 1.0,
        sq_norm: sq0,
        l1_norm: l10,
        aw: if average > 0 {
            Some(avg_w.as_mut_slice())
        } else {
            None
        },
        a: 0.0,
        b: 1.0,
        reset_threshold: if F::NAME == "f32" { 1e-6 } else { 1e-9 },
    };
    let mut q: Vec<F> = if truncate {
        vec![F::zero(); d]
    } else {
        Vec::new()
    };
    let mut u = 0.0f64;
    let mut order: Vec<usize> = (0..n).collect();
    let shuffled = shuffle.is_some();
    let mut gathered: Vec<F> = Vec::with_capacity(if shuffled { BLOCK * d } else { 0 });
    let train_count = match &validation {
        Some(v) => v.mask.iter().filter(|&&m| !m).count(),
        None => n,
    } as f64;
    let mut t = t0;
    let mut epoch = 0usize;
    let mut stopped = false;
    let average_f = average as f64;
    while epoch < max_iter {
        let mut objective_sum = 0.0f64;
        if let Some(rng) = shuffle.as_mut() {
            random::shuffle(rng, &mut order);
        }
        for (block, idx) in order.chunks(BLOCK).enumerate() {
            // Shuffled epochs visit rows in random order, which the hardware prefetcher cannot
            // follow: gathering a block of rows first lets their loads overlap (a copy only;
            // the arithmetic is unchanged). Unshuffled epochs read `x` in place.
            let rows: &[F] = if shuffled {
                gathered.clear();
                for &i in idx {
                    gathered.extend_from_slice(&x[i * d..(i + 1) * d]);
                }
                &gathered
            } else {
                let start = block * BLOCK * d;
                &x[start..start + idx.len() * d]
            };
            for (&i, row) in idx.iter().zip(rows.chunks_exact(d.max(1))) {
                if let Some(v) = &validation
                    && v.mask[i]
                {
                    continue;
                }
                let yi = y[i].to_f64_lossless();
                let pred = w.dot(row) + *intercept;
                let eta = schedule.eta(t);
                if track {
                    objective_sum += loss.value(yi, pred);
                    if penalised {
                        let norm = w.sq_norm.sqrt();
                        objective_sum +=
                            alpha * ((1.0 - l1_ratio) * 0.5 * (norm * norm) + l1_ratio * w.l1_norm);
                    }
                }
                let class_weight = if yi > 0.0 { weight_pos } else { weight_neg };
                let dloss = loss.gradient(yi, pred).clamp(-MAX_DLOSS, MAX_DLOSS);
                let mut update = -eta * dloss;
                update *= (class_weight * sample_weight[i]).to_f64_lossless();
                if decay {
                    w.scale(F::cast(f64::max(0.0, 1.0 - (1.0 - l1_ratio) * eta * alpha)));
                }
                let update_f = F::cast(update);
                if update != 0.0 {
                    w.add(row, update_f, track);
                    if fit_intercept {
                        *intercept += update;
                    }
                }
                if average > 0 && average_f <= t {
                    let num_iter = t - average_f + 1.0;
                    w.add_average(row, update_f, F::cast(num_iter));
                    *avg_intercept += (*intercept - *avg_intercept) / num_iter;
                }
                if truncate {
                    u += l1_ratio * eta * alpha;
                    w.l1_truncate(&mut q, u);
                }
                t += 1.0;
            }
        }
        if !intercept.is_finite() || w.v.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFiniteResult {
                context: "SGD",
                reason: "the weights overflowed (scale the features, e.g. StandardScaler, or \
                         lower eta0)"
                    .into(),
            });
        }
        let objective = objective_sum / train_count;
        // Early stopping on the validation score, or on the training objective (higher is
        // better for the tracker, so the objective enters negated).
        let score = match &validation {
            Some(v) => {
                let s = F::cast(w.wscale);
                let scaled: Vec<F> = w.v.iter().map(|&a| a * s).collect();
                (v.score)(&scaled, *intercept)
            }
            None => -objective,
        };
        let fired = plateau.update(score);
        epoch += 1;
        if observed {
            let mut prog = ndlearn_core::observe::Progress::new(name, epoch).max_iter(max_iter);
            if track {
                prog = prog.objective(objective);
            }
            if ndlearn_core::observe::report(&prog).is_stop() {
                break;
            }
        }
        if fired {
            if schedule.on_plateau() {
                plateau.reset_count();
            } else {
                stopped = true;
                break;
            }
        }
    }
    w.reset();
    scores_stay_finite(x, d, &*w.v, *intercept)?;
    Ok(RunInfo {
        n_iter: epoch,
        stopped,
    })
}

/// A model whose training scores overflow is an error: `|wᵀx + b| ≤ ‖w‖₁ max|X| + |b|` is
/// checked first (one vectorised pass), the rows themselves only when that bound overflows.
fn scores_stay_finite<F: Float>(x: &[F], d: usize, w: &[F], b: f64) -> Result<()> {
    let l1: f64 = w.iter().map(|v| v.abs().to_f64_lossless()).sum();
    let bound = l1 * ndlearn_core::validate::max_abs(x).to_f64_lossless() + b.abs();
    if bound.is_finite() && F::cast(bound).is_finite() {
        return Ok(());
    }
    for (i, row) in x.chunks_exact(d.max(1)).enumerate() {
        let mut acc = F::zero();
        for (&a, &c) in row.iter().zip(w) {
            acc += a * c;
        }
        if !(acc + F::cast(b)).is_finite() {
            return Err(Error::NonFiniteResult {
                context: "SGD",
                reason: format!("the model's score of training row {i} overflows"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wscale_representation_is_exact_in_value() {
        let mut v = vec![1.0f64, -2.0, 0.5];
        let mut aw = vec![0.0; 3];
        let mut w = WeightVector {
            v: &mut v,
            wscale: 1.0,
            sq_norm: 5.25,
            l1_norm: 3.5,
            aw: Some(&mut aw),
            a: 0.0,
            b: 1.0,
            reset_threshold: 1e-9,
        };
        w.scale(0.5);
        assert_eq!(w.dot(&[1.0, 1.0, 1.0]), -0.25);
        assert_eq!(w.sq_norm, 5.25 * 0.25);
        w.add(&[2.0, 0.0, 0.0], 1.0, true);
        // true w = [0.5 + 2, -1, 0.25]
        assert_eq!(w.dot(&[1.0, 0.0, 0.0]), 2.5);
        assert!((w.sq_norm - (6.25 + 1.0 + 0.0625)).abs() < 1e-12);
        w.scale(1e-10); // below the threshold: folded into v
        assert_eq!(w.wscale, 1.0);
        assert!((w.v[0] - 2.5e-10).abs() < 1e-24);
    }
}
