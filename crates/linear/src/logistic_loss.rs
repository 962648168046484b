//! The weighted logistic / softmax loss behind [`crate::LogisticRegression`]: value, gradient
//! and Hessian over the packed parameters, the IRLS iteration, and the proximal Newton solver
//! for the L1 / elastic-net penalties (private; the formulas are in the [`crate::logistic`]
//! module docs).

use ndarray::linalg::{general_mat_mul, general_mat_vec_mul};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::linalg::CholeskyFactor;
use ndlearn_core::loss::Loss;
use ndlearn_core::numeric::{log_sum_exp, sigmoid, softmax, softmax_slice_inplace};
use ndlearn_core::optim::{self, Objective};
use ndlearn_core::stats::mergeable::{GlmSpec, GlmStats, Mergeable, SoftmaxSpec, SoftmaxStats};
use ndlearn_core::{Float, Labels, Result};

/// The weighted log-loss of the module docs over `θ` = `K` blocks of `[w_k (d), b_k]`.
pub(crate) struct LogLoss<'a, F: Float> {
    pub x: &'a ArrayRef2<F>,
    pub y: &'a Labels,
    /// Sample weights divided by their sum.
    pub sw: SampleWeights<'a, F>,
    /// 1 (binary) or the number of classes.
    pub k: usize,
    pub d: usize,
    pub fit_intercept: bool,
    /// Weight of `½‖W‖²` in the smooth part: `(1 − l1_ratio)/(C S)` (0 without penalty).
    pub l2: F,
    /// Weight of `‖W‖₁` (not part of the smooth value/gradient): `l1_ratio/(C S)`.
    pub l1: F,
}

/// Normalised sample weights: one common value `1/N` (no sample or class weights: no `N`-vector
/// is stored) or one per row.
#[derive(Clone, Copy)]
pub(crate) enum SampleWeights<'a, F> {
    /// Every row weighs the same.
    Uniform(F),
    /// Row `i` weighs `w[i]`.
    Given(&'a Array1<F>),
}

impl<F: Float> SampleWeights<'_, F> {
    #[inline]
    fn at(self, i: usize) -> F {
        match self {
            SampleWeights::Uniform(v) => v,
            SampleWeights::Given(w) => w[i],
        }
    }
}

/// Rows per block of the streamed objective: about 256 KiB of `X` (stays in cache between
/// the two products of a block), at least 64 rows.
fn block_rows(d: usize) -> usize {
    (32_768 / d.max(1)).max(64)
}

/// The minimum-norm element of `g + λ ∂|t|`.
fn min_norm_subgradient<F: Float>(t: F, g: F, lambda: F) -> F {
    if t > F::zero() {
        g + lambda
    } else if t < F::zero() {
        g - lambda
    } else {
        (g.abs() - lambda).max(F::zero())
    }
}

/// `sign(z)·max(|z| − λ, 0)`.
fn soft_threshold<F: Float>(z: F, lambda: F) -> F {
    if z > lambda {
        z - lambda
    } else if z < -lambda {
        z + lambda
    } else {
        F::zero()
    }
}

impl<F: Float> LogLoss<'_, F> {
    pub fn block(&self) -> usize {
        self.d + usize::from(self.fit_intercept)
    }

    /// `W` (`K × d`) and `b` (`K`) from `θ`.
    fn unpack(&self, theta: &ArrayRef1<F>) -> (Array2<F>, Array1<F>) {
        let p = self.block();
        let mut w = Array2::zeros((self.k, self.d));
        let mut b = Array1::zeros(self.k);
        for c in 0..self.k {
            w.row_mut(c).assign(&theta.slice(s![c * p..c * p + self.d]));
            if self.fit_intercept {
                b[c] = theta[c * p + self.d];
            }
        }
        (w, b)
    }

    /// Scores `Z = X Wᵀ + b` (`n × K`) over all rows.
    fn scores(&self, w: &Array2<F>, b: &Array1<F>) -> Array2<F> {
        let mut z = Array2::zeros((self.x.nrows(), self.k));
        self.scores_into(self.x, w, b, &mut z);
        z
    }

    /// Scores of the rows `xb` into `z` (`xb.nrows() × K`). One class column is a
    /// matrix-vector product (BLAS `gemv` streams the rows once; a `gemm` with one column would
    /// pack them into OpenBLAS's buffers, a second copy of the data in resident memory).
    fn scores_into(&self, xb: &ArrayRef2<F>, w: &Array2<F>, b: &Array1<F>, z: &mut ArrayRef2<F>) {
        if self.k == 1 {
            let mut col = z.column_mut(0);
            general_mat_vec_mul(F::one(), xb, &w.row(0), F::zero(), &mut col);
        } else {
            general_mat_mul(F::one(), xb, &w.t(), F::zero(), z);
        }
        *z += &**b;
    }

    /// Adds `Rᵀ X_b` to `gw` (`K × d`) for the rows `xb` and their residuals `r`; one column by
    /// `gemv`, as [`Self::scores_into`].
    fn add_residual_products(&self, xb: &ArrayRef2<F>, r: &ArrayRef2<F>, gw: &mut Array2<F>) {
        if self.k == 1 {
            let mut row = gw.row_mut(0);
            general_mat_vec_mul(F::one(), &xb.t(), &r.column(0), F::one(), &mut row);
        } else {
            general_mat_mul(F::one(), &r.t(), xb, F::one(), gw);
        }
    }

    /// Probabilities `P` (binary: `σ(z)`) in place of the scores `z` of the rows
    /// `start..start + z.nrows()`, returning their weighted loss `Σ sᵢ ℓᵢ` (summed in row
    /// order).
    fn probabilities_in_place(&self, start: usize, z: &mut ArrayRef2<F>) -> F {
        let mut loss = F::zero();
        let y = self.y.slice(s![start..start + z.nrows()]);
        if self.k == 1 {
            for (i, (zi, &yi)) in z.column_mut(0).iter_mut().zip(y.iter()).enumerate() {
                let yf = if yi == 1 { F::one() } else { F::zero() };
                loss += self.sw.at(start + i) * Loss::LogLoss.value(yf, *zi);
                *zi = sigmoid(*zi);
            }
        } else {
            // The half multinomial deviance log Σ exp(z) − z_y and the softmax, per row.
            for (i, (mut row, &yi)) in z.rows_mut().into_iter().zip(y.iter()).enumerate() {
                let lse = match row.as_slice() {
                    Some(r) => log_sum_exp(r),
                    None => log_sum_exp(&row.to_vec()),
                };
                loss += self.sw.at(start + i) * (lse - row[yi]);
                match row.as_slice_mut() {
                    Some(r) => softmax_slice_inplace(r),
                    None => {
                        let q = softmax(&row.to_vec());
                        row.iter_mut().zip(q).for_each(|(a, b)| *a = b);
                    }
                }
            }
        }
        loss
    }

    /// Weighted residuals `R = diag(s)(P − Y)` in place of the probabilities `p` of the rows
    /// `start..start + p.nrows()`.
    fn residuals_in_place(&self, start: usize, p: &mut ArrayRef2<F>) {
        let y = self.y.slice(s![start..start + p.nrows()]);
        for (i, (mut row, &yi)) in p.rows_mut().into_iter().zip(y.iter()).enumerate() {
            if self.k == 1 {
                if yi == 1 {
                    row[0] -= F::one();
                }
            } else {
                row[yi] -= F::one();
            }
            let si = self.sw.at(start + i);
            row.mapv_inplace(|v| v * si);
        }
    }

    /// The probabilities `P` (`n × K`) of all rows and their weighted loss.
    fn probabilities(&self, w: &Array2<F>, b: &Array1<F>) -> (Array2<F>, F) {
        let mut z = self.scores(w, b);
        let loss = self.probabilities_in_place(0, &mut z);
        (z, loss)
    }

    /// The weighted loss, `Rᵀ X` (`K × d`) and `Σ R` (`K`), streamed over blocks of rows
    /// through the mergeable statistics of core ([`GlmStats`] for two classes,
    /// [`SoftmaxStats`] otherwise: the same kernel as a fit from data passes), no `n`-long
    /// buffer. Blocks are added in order (the same bits for any thread count). Scores that
    /// overflow give an infinite value (a line search then steps back).
    fn streamed(&self, w: &Array2<F>, b: &Array1<F>) -> (F, Array2<F>, Array1<F>) {
        let n = self.x.nrows();
        let rows = block_rows(self.d).min(n).max(1);
        // uniform weights are applied once to the sums
        let (scale, weights) = match self.sw {
            SampleWeights::Uniform(v) => (v, None),
            SampleWeights::Given(w) => (F::one(), Some(w.as_standard_layout())),
        };
        let ws = weights.as_ref().and_then(|w| w.as_slice());
        let labels = self.y.as_standard_layout();
        let ys = labels.as_slice().unwrap_or(&[]);
        let blocks = (0..n)
            .step_by(rows)
            .map(|start| start..(start + rows).min(n));
        let (value, mut gw, mut gb, ok) = if self.k == 1 {
            let spec = GlmSpec {
                loss: Loss::LogLoss,
                coef: w.row(0).to_owned(),
                intercept: b[0],
                hessian: false,
            };
            let mut st = GlmStats::zero(&spec);
            let mut yb = Vec::with_capacity(rows);
            let mut ok = true;
            for r in blocks {
                if !ok {
                    break;
                }
                yb.clear();
                yb.extend(
                    ys[r.clone()]
                        .iter()
                        .map(|&c| if c == 1 { F::one() } else { F::zero() }),
                );
                let wb = ws.map(|w| &w[r.clone()]);
                ok &= st.accumulate(&self.x.slice(s![r, ..]), &yb, wb).is_ok();
            }
            let gw = st.grad_coef.insert_axis(Axis(0));
            (st.value, gw, Array1::from_elem(1, st.grad_intercept), ok)
        } else {
            let spec = SoftmaxSpec {
                coef: w.clone(),
                intercept: b.clone(),
                hessian: false,
            };
            let mut st = SoftmaxStats::zero(&spec);
            let mut ok = true;
            for r in blocks {
                if !ok {
                    break;
                }
                let wb = ws.map(|w| &w[r.clone()]);
                ok &= st
                    .accumulate(&self.x.slice(s![r.clone(), ..]), &ys[r], wb)
                    .is_ok();
            }
            (st.value, st.grad_coef, st.grad_intercept, ok)
        };
        if !ok {
            // the optimisers step back from an infinite value; no gradient is read there
            return (
                F::infinity(),
                gw.mapv(|_| F::zero()),
                gb.mapv(|_| F::zero()),
            );
        }
        if scale != F::one() {
            gw.mapv_inplace(|v| v * scale);
            gb.mapv_inplace(|v| v * scale);
        }
        (value * scale, gw, gb)
    }

    /// The objective and its gradient, streamed over row blocks (no copy of the probabilities
    /// kept).
    pub fn value_grad(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        let (w, b) = self.unpack(theta);
        let (loss, gw, gb) = self.streamed(&w, &b);
        self.assemble(&w, loss, &gw, &gb)
    }

    /// The objective, its gradient and the probabilities `P` (`n × K`, kept for the Hessian).
    pub fn parts(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>, Array2<F>) {
        let (w, b) = self.unpack(theta);
        let (p, loss) = self.probabilities(&w, &b);
        let mut r = p.clone();
        self.residuals_in_place(0, &mut r);
        let mut gw = Array2::zeros((self.k, self.d));
        self.add_residual_products(self.x, &r, &mut gw);
        let gb = r.sum_axis(Axis(0));
        let (value, g) = self.assemble(&w, loss, &gw, &gb);
        (value, g, p)
    }

    /// The objective value and packed gradient from the loss, `Rᵀ X` and `Σ R`.
    fn assemble(&self, w: &Array2<F>, loss: F, gw: &Array2<F>, gb: &Array1<F>) -> (F, Array1<F>) {
        let value = loss + F::cast(0.5) * self.l2 * w.iter().map(|v| *v * *v).sum::<F>();
        let pblk = self.block();
        let mut g = Array1::zeros(self.dim());
        for c in 0..self.k {
            for j in 0..self.d {
                g[c * pblk + j] = gw[[c, j]] + self.l2 * w[[c, j]];
            }
            if self.fit_intercept {
                g[c * pblk + self.d] = gb[c];
            }
        }
        (value, g)
    }

    /// Coordinates (within a block) on which the objective is invariant under a common shift
    /// over classes (multinomial only).
    fn unpenalised(&self) -> Vec<usize> {
        if self.k == 1 {
            return Vec::new();
        }
        let mut v: Vec<usize> = if self.l2 == F::zero() && self.l1 == F::zero() {
            (0..self.d).collect()
        } else {
            Vec::new()
        };
        if self.fit_intercept {
            v.push(self.d);
        }
        v
    }

    /// Makes the unpenalised coordinates sum to zero over classes.
    pub fn center_null_space(&self, theta: &mut Array1<F>) {
        let p = self.block();
        let kf = F::cast(self.k);
        for j in self.unpenalised() {
            let mean = (0..self.k).map(|c| theta[c * p + j]).sum::<F>() / kf;
            for c in 0..self.k {
                theta[c * p + j] -= mean;
            }
        }
    }

    /// The Hessian at `θ` (with the null-space fill of the module docs).
    fn hessian_at(&self, theta: &ArrayRef1<F>) -> Array2<F> {
        let (w, b) = self.unpack(theta);
        let (p, _) = self.probabilities(&w, &b);
        self.hessian_from(&p)
    }

    /// The smooth part (loss + `½ l2 ‖W‖²`) only, without the gradient.
    fn smooth_value(&self, theta: &ArrayRef1<F>) -> F {
        let (w, b) = self.unpack(theta);
        let (loss, _, _) = self.streamed(&w, &b);
        loss + F::cast(0.5) * self.l2 * w.iter().map(|v| *v * *v).sum::<F>()
    }

    /// Whether packed coordinate `i` is a coefficient (penalised) rather than an intercept.
    fn is_coef(&self, i: usize) -> bool {
        i % self.block() < self.d
    }

    /// `‖W‖₁` over the coefficients of `θ`.
    fn l1_norm(&self, theta: &ArrayRef1<F>) -> F {
        theta
            .iter()
            .enumerate()
            .filter(|(i, _)| self.is_coef(*i))
            .map(|(_, v)| v.abs())
            .sum()
    }

    /// The Euclidean norm of the minimum-norm subgradient of `smooth + l1‖W‖₁` at `θ`, given
    /// the smooth gradient `g` (0 exactly at the optimum; see the module docs).
    pub fn kkt_violation(&self, theta: &ArrayRef1<F>, g: &ArrayRef1<F>) -> F {
        let mut s = F::zero();
        for (i, (&t, &gi)) in theta.iter().zip(g.iter()).enumerate() {
            let v = min_norm_subgradient(t, gi, if self.is_coef(i) { self.l1 } else { F::zero() });
            s += v * v;
        }
        s.sqrt()
    }

    /// The Hessian from the probabilities `P` (with the null-space fill of the module docs).
    fn hessian_from(&self, p: &Array2<F>) -> Array2<F> {
        let pb = self.block();
        let dim = self.dim();
        let mut h = Array2::zeros((dim, dim));
        let n = self.x.nrows();
        for c in 0..self.k {
            for l in c..self.k {
                // D_cl = sᵢ p_ic (δ_cl − p_il) (binary: sᵢ pᵢ(1 − pᵢ)).
                let dvec: Array1<F> = (0..n)
                    .map(|i| {
                        let pc = p[[i, c]];
                        // Binary (k = 1) has only the diagonal block c = l = 0.
                        let t = if c == l {
                            pc * (F::one() - pc)
                        } else {
                            -pc * p[[i, l]]
                        };
                        self.sw.at(i) * t
                    })
                    .collect();
                let mut dx = self.x.to_owned();
                for (mut row, &dv) in dx.rows_mut().into_iter().zip(dvec.iter()) {
                    row.mapv_inplace(|v| v * dv);
                }
                let block_ww = self.x.t().dot(&dx);
                let mut blk = Array2::zeros((pb, pb));
                blk.slice_mut(s![..self.d, ..self.d]).assign(&block_ww);
                if self.fit_intercept {
                    let xd = dx.sum_axis(Axis(0));
                    blk.slice_mut(s![..self.d, self.d]).assign(&xd);
                    blk.slice_mut(s![self.d, ..self.d]).assign(&xd);
                    blk[[self.d, self.d]] = dvec.sum();
                }
                if c == l {
                    for j in 0..self.d {
                        blk[[j, j]] += self.l2;
                    }
                }
                h.slice_mut(s![c * pb..(c + 1) * pb, l * pb..(l + 1) * pb])
                    .assign(&blk);
                if c != l {
                    h.slice_mut(s![l * pb..(l + 1) * pb, c * pb..(c + 1) * pb])
                        .assign(&blk.t());
                }
            }
        }
        let free = self.unpenalised();
        if !free.is_empty() {
            let scale = h
                .diag()
                .iter()
                .fold(F::zero(), |m, &v| m.max(v))
                .max(F::epsilon())
                / F::cast(self.k);
            for &j in &free {
                for c in 0..self.k {
                    for l in 0..self.k {
                        h[[c * pb + j, l * pb + j]] += scale;
                    }
                }
            }
        }
        h
    }
}

impl<F: Float> Objective<F> for LogLoss<'_, F> {
    fn dim(&self) -> usize {
        self.k * self.block()
    }
    fn value(&self, theta: &ArrayRef1<F>) -> F {
        self.value_grad(theta).0
    }
    fn gradient(&self, theta: &ArrayRef1<F>) -> Array1<F> {
        self.value_grad(theta).1
    }
    fn value_and_gradient(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        self.value_grad(theta)
    }
    fn hessian(&self, theta: &ArrayRef1<F>) -> Option<Array2<F>> {
        Some(self.hessian_at(theta))
    }
}

/// IRLS: full Newton steps `θ ← θ − H⁻¹∇L` (see the module docs).
pub(crate) fn irls<F: Float>(
    loss: &LogLoss<'_, F>,
    mut theta: Array1<F>,
    max_iter: usize,
    tol: f64,
) -> Result<(Array1<F>, usize, bool)> {
    let tol = F::cast(tol);
    for it in 1..=max_iter {
        let (obj, g) = loss.value_grad(&theta);
        let gnorm = optim::norm2(&g);
        if gnorm <= tol {
            return Ok((theta, it - 1, true));
        }
        if ndlearn_core::observe::is_observed()
            && ndlearn_core::observe::report(
                &ndlearn_core::observe::Progress::new("IRLS", it)
                    .max_iter(max_iter)
                    .objective(obj.to_f64().unwrap_or(f64::NAN))
                    .criterion(gnorm.to_f64().unwrap_or(f64::NAN)),
            )
            .is_stop()
        {
            return Ok((theta, it - 1, false));
        }
        let h = loss.hessian_at(&theta);
        let step = match CholeskyFactor::new(&h) {
            Ok(c) => c.solve(&g)?,
            Err(_) => {
                // Singular XᵀSX (perfectly separated or degenerate data without penalty).
                return Ok((theta, it - 1, false));
            }
        };
        theta -= &step;
        let norm = optim::norm2(&theta);
        if optim::norm2(&step) <= tol * F::one().max(norm) {
            return Ok((theta, it, true));
        }
    }
    Ok((theta, max_iter, false))
}

/// Proximal Newton for `smooth(θ) + l1‖W‖₁` (see the module docs of [`crate::logistic`]):
/// the quadratic model of the smooth part at `θ` plus the exact L1 term is minimised by cyclic
/// coordinate descent on the explicit Hessian, and the step is accepted by an Armijo
/// backtracking test on the full objective. Stops when the minimum-norm subgradient norm is
/// `≤ tol`. Returns `(θ, outer iterations, converged)`.
pub(crate) fn prox_newton<F: Float>(
    loss: &LogLoss<'_, F>,
    mut theta: Array1<F>,
    max_iter: usize,
    tol: f64,
) -> Result<(Array1<F>, usize, bool)> {
    let tol = F::cast(tol);
    let sigma = F::cast(0.01);
    let half = F::cast(0.5);
    for it in 1..=max_iter {
        let (smooth, g, p) = loss.parts(&theta);
        let obj = smooth + loss.l1 * loss.l1_norm(&theta);
        let kkt = loss.kkt_violation(&theta, &g);
        if kkt <= tol {
            return Ok((theta, it - 1, true));
        }
        if ndlearn_core::observe::is_observed()
            && ndlearn_core::observe::report(
                &ndlearn_core::observe::Progress::new("proximal Newton", it)
                    .max_iter(max_iter)
                    .objective(obj.to_f64().unwrap_or(f64::NAN))
                    .criterion(kkt.to_f64().unwrap_or(f64::NAN)),
            )
            .is_stop()
        {
            return Ok((theta, it - 1, false));
        }
        let h = loss.hessian_from(&p);
        // Inexact inner solve: the model's own KKT violation ≤ min(0.1, √kkt)·kkt gives
        // superlinear outer convergence; the floor keeps the last steps accurate.
        let inner_tol = (F::cast(0.1).min(kkt.sqrt()) * kkt).max(F::cast(0.01) * tol);
        let delta = cd_on_model(loss, &theta, &g, &h, inner_tol, 1000);
        let next = &theta + &delta;
        // D = ∇fᵀΔ + l1(‖W + Δ‖₁ − ‖W‖₁), the L1 change summed per coordinate (no cancellation
        // of two large norms).
        let l1_change: F = (0..theta.len())
            .filter(|&i| loss.is_coef(i))
            .map(|i| next[i].abs() - theta[i].abs())
            .sum();
        let decrease = g.dot(&delta) + loss.l1 * l1_change;
        if decrease.is_nan() || decrease >= F::zero() {
            // No descent direction left at this precision.
            return Ok((theta, it - 1, false));
        }
        // Near the optimum the objective's decrease falls below its rounding error; the slack
        // of a few ulps of |F| lets the (then accurate) Newton step through.
        let slack = F::cast(16.0) * F::epsilon() * obj.abs();
        let mut t = F::one();
        let mut accepted = false;
        for _ in 0..50 {
            let cand = if t == F::one() {
                next.clone()
            } else {
                theta
                    .iter()
                    .zip(delta.iter())
                    .map(|(&a, &d)| a + t * d)
                    .collect()
            };
            let f = loss.smooth_value(&cand) + loss.l1 * loss.l1_norm(&cand);
            if f <= obj + sigma * t * decrease + slack {
                // A step below the rounding of θ changes nothing: the attainable accuracy
                // is reached (tol is below it), so stop rather than spin.
                let step = t * optim::norm2(&delta);
                let stalled = step <= F::cast(4.0) * F::epsilon() * optim::norm2(&cand);
                theta = cand;
                accepted = true;
                if stalled {
                    let (_, g) = loss.value_grad(&theta);
                    let converged = loss.kkt_violation(&theta, &g) <= tol;
                    return Ok((theta, it, converged));
                }
                break;
            }
            t *= half;
        }
        if !accepted {
            return Ok((theta, it - 1, false));
        }
    }
    let (_, g) = loss.value_grad(&theta);
    let converged = loss.kkt_violation(&theta, &g) <= tol;
    Ok((theta, max_iter, converged))
}

/// Cyclic coordinate descent on `q(Δ) = gᵀΔ + ½ΔᵀHΔ + l1‖W + Δ_W‖₁` from `Δ = 0`, keeping the
/// model gradient `r = g + HΔ` up to date (one row of `H` per changed coordinate).
fn cd_on_model<F: Float>(
    loss: &LogLoss<'_, F>,
    theta: &Array1<F>,
    g: &Array1<F>,
    h: &Array2<F>,
    tol: F,
    max_sweeps: usize,
) -> Array1<F> {
    let dim = theta.len();
    let mut delta = Array1::zeros(dim);
    let mut r = g.clone();
    let max_diag = h.diag().iter().fold(F::zero(), |m, &v| m.max(v));
    let floor = max_diag * F::epsilon();
    let mut last_pattern: Option<Vec<i8>> = None;
    let mut polished: Option<Vec<i8>> = None;
    for _ in 0..max_sweeps {
        for i in 0..dim {
            let a = h[[i, i]];
            if a <= floor {
                continue;
            }
            let step = if loss.is_coef(i) {
                let u = theta[i] + delta[i];
                soft_threshold(u - r[i] / a, loss.l1 / a) - u
            } else {
                -r[i] / a
            };
            if step != F::zero() {
                delta[i] += step;
                r.scaled_add(step, &h.row(i));
            }
        }
        if loss.k > 1 && loss.l1 > F::zero() {
            shift_columns(loss, theta, &mut delta, &mut r, h);
        }
        if model_violation(loss, theta, &delta, &r) <= tol {
            break;
        }
        // Once the sign pattern repeats, solve the model on it exactly (coordinate descent
        // alone is slow on an ill-conditioned Hessian).
        let pattern: Vec<i8> = (0..dim).map(|i| sign_of(theta[i] + delta[i])).collect();
        if last_pattern.as_ref() == Some(&pattern) && polished.as_ref() != Some(&pattern) {
            if polish(loss, theta, &mut delta, &mut r, h, &pattern)
                && model_violation(loss, theta, &delta, &r) <= tol
            {
                break;
            }
            polished = Some(pattern.clone());
        }
        last_pattern = Some(pattern);
    }
    delta
}

fn sign_of<F: Float>(v: F) -> i8 {
    if v > F::zero() {
        1
    } else if v < F::zero() {
        -1
    } else {
        0
    }
}

/// The norm of the model's minimum-norm subgradient at `Δ` (model gradient `r`).
fn model_violation<F: Float>(
    loss: &LogLoss<'_, F>,
    theta: &Array1<F>,
    delta: &Array1<F>,
    r: &Array1<F>,
) -> F {
    let mut v = F::zero();
    for i in 0..theta.len() {
        let lambda = if loss.is_coef(i) { loss.l1 } else { F::zero() };
        let s = min_norm_subgradient(theta[i] + delta[i], r[i], lambda);
        v += s * s;
    }
    v.sqrt()
}

/// The exact minimiser of the model on the sign pattern `pattern` (free coordinates: the
/// intercepts and the nonzero coefficients, whose signs are kept): one Cholesky solve of
/// `H_AA δ = −(r_A + l1 s_A)`. Applied only when no free coefficient changes sign (then it is
/// the model's minimiser on that orthant face); returns whether it was applied.
fn polish<F: Float>(
    loss: &LogLoss<'_, F>,
    theta: &Array1<F>,
    delta: &mut Array1<F>,
    r: &mut Array1<F>,
    h: &Array2<F>,
    pattern: &[i8],
) -> bool {
    let free: Vec<usize> = (0..theta.len())
        .filter(|&i| !loss.is_coef(i) || pattern[i] != 0)
        .collect();
    if free.is_empty() || free.len() > 4096 {
        return false;
    }
    let m = free.len();
    let half = F::cast(0.5);
    let haa = Array2::from_shape_fn((m, m), |(a, b)| {
        half * (h[[free[a], free[b]]] + h[[free[b], free[a]]])
    });
    let rhs: Array1<F> = free
        .iter()
        .map(|&i| {
            let sgn = if loss.is_coef(i) {
                F::cast(f64::from(pattern[i]))
            } else {
                F::zero()
            };
            -(r[i] + loss.l1 * sgn)
        })
        .collect();
    let Ok(step) = CholeskyFactor::new(&haa).and_then(|c| c.solve(&rhs)) else {
        return false;
    };
    let keeps_signs = free
        .iter()
        .zip(step.iter())
        .all(|(&i, &st)| !loss.is_coef(i) || sign_of(theta[i] + delta[i] + st) == pattern[i]);
    if !keeps_signs || !step.iter().all(|v| v.is_finite()) {
        return false;
    }
    for (&i, &st) in free.iter().zip(step.iter()) {
        delta[i] += st;
        r.scaled_add(st, &h.row(i));
    }
    true
}

/// Multinomial only: the softmax loss is invariant under adding the same `c` to one feature's
/// coefficient in every class, so its Hessian is (nearly) singular along that direction and
/// coordinate descent crawls along it when the penalty is what pins it down. This step
/// minimises the model exactly along each such direction `v_j = Σ_k e_{kj}`: a convex 1-D
/// piecewise quadratic `b c + ½ a c² + l1 Σ_k |u_k + c|`, whose minimiser is a breakpoint
/// `−u_k` or the stationary point of one piece (all candidates are compared, `K` is small).
fn shift_columns<F: Float>(
    loss: &LogLoss<'_, F>,
    theta: &Array1<F>,
    delta: &mut Array1<F>,
    r: &mut Array1<F>,
    h: &Array2<F>,
) {
    let (k, pb) = (loss.k, loss.block());
    let half = F::cast(0.5);
    for j in 0..loss.d {
        let idx: Vec<usize> = (0..k).map(|c| c * pb + j).collect();
        let u: Vec<F> = idx.iter().map(|&i| theta[i] + delta[i]).collect();
        let b: F = idx.iter().map(|&i| r[i]).sum();
        let a: F = idx
            .iter()
            .map(|&i| idx.iter().map(|&l| h[[i, l]]).sum::<F>())
            .sum();
        let f =
            |c: F| b * c + half * a * c * c + loss.l1 * u.iter().map(|&v| (v + c).abs()).sum::<F>();
        let mut best = (F::zero(), f(F::zero()));
        let mut consider = |c: F| {
            let v = f(c);
            if v < best.1 {
                best = (c, v);
            }
        };
        for &v in &u {
            consider(-v);
        }
        if a > F::zero() {
            for m in 0..=k {
                let slope = b + loss.l1 * F::cast(2.0 * m as f64 - k as f64);
                consider(-slope / a);
            }
        }
        let c = best.0;
        if c != F::zero() {
            for &i in &idx {
                delta[i] += c;
                r.scaled_add(c, &h.row(i));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn gradient_matches_finite_differences() {
        let binary = (
            array![
                [0.5, 1.0],
                [1.5, -0.5],
                [2.0, 0.3],
                [-1.0, 0.8],
                [-0.5, -1.2],
                [-2.0, 0.1]
            ],
            array![1usize, 1, 1, 0, 0, 0],
        );
        let three = (
            array![
                [0.0, 0.1],
                [0.3, -0.2],
                [2.0, 2.1],
                [2.3, 1.8],
                [-2.0, 2.0],
                [-2.2, 1.7]
            ],
            array![0usize, 0, 1, 1, 2, 2],
        );
        for (x, y) in [binary, three] {
            let n = x.nrows();
            let sw = Array1::from_elem(n, 1.0 / n as f64);
            let k = if y.iter().max() == Some(&1) { 1 } else { 3 };
            let loss = LogLoss {
                x: &x,
                y: &y,
                sw: SampleWeights::Given(&sw),
                k,
                d: 2,
                fit_intercept: true,
                l2: 0.3,
                l1: 0.0,
            };
            let theta = Array1::from_shape_fn(loss.dim(), |i| 0.1 * i as f64 - 0.2);
            let g = loss.gradient(&theta);
            let h = loss.hessian(&theta).expect("hessian");
            for j in 0..loss.dim() {
                let mut tp = theta.clone();
                let mut tm = theta.clone();
                tp[j] += 1e-6;
                tm[j] -= 1e-6;
                let fd = (loss.value(&tp) - loss.value(&tm)) / 2e-6;
                assert!((fd - g[j]).abs() < 1e-7, "grad {j}: {fd} vs {}", g[j]);
                if k == 1 {
                    let fdh = (&loss.gradient(&tp) - &loss.gradient(&tm)) / 2e-6;
                    for i in 0..loss.dim() {
                        assert!((fdh[i] - h[[i, j]]).abs() < 1e-6);
                    }
                }
            }
        }
    }

    #[test]
    fn overflowing_scores_give_an_infinite_value_and_no_nan() {
        // scores of 1e300 · 1e10 overflow: the kernel refuses, the objective is +∞ (a line
        // search steps back), uniform and given weights alike
        let x = array![[1e300, 0.0], [-1e300, 1.0], [0.5, 0.5]];
        let sw = Array1::from_elem(3, 1.0 / 3.0);
        for (y, k) in [(array![1usize, 0, 1], 1), (array![0usize, 1, 2], 3)] {
            for weights in [SampleWeights::Uniform(1.0 / 3.0), SampleWeights::Given(&sw)] {
                let loss = LogLoss {
                    x: &x,
                    y: &y,
                    sw: weights,
                    k,
                    d: 2,
                    fit_intercept: true,
                    l2: 0.0,
                    l1: 0.0,
                };
                let theta = Array1::from_elem(loss.dim(), 1e10);
                let (v, g) = loss.value_grad(&theta);
                assert_eq!(v, f64::INFINITY, "k = {k}");
                assert!(g.iter().all(|v| v.is_finite()), "k = {k}");
                // a finite point still evaluates
                let (v, _) = loss.value_grad(&Array1::zeros(loss.dim()));
                assert!(v.is_finite() && v > 0.0);
            }
        }
    }

    #[test]
    fn soft_threshold_and_subgradient_worked_examples() {
        // Catalog L-05 (derived): S₁([3, −0.5, −2]) = [2, 0, −1].
        let got: Vec<f64> = [3.0, -0.5, -2.0]
            .iter()
            .map(|&z| soft_threshold(z, 1.0))
            .collect();
        assert_eq!(got, vec![2.0, 0.0, -1.0]);
        // Minimum-norm subgradient of g·t + λ|t|: at t ≠ 0 the gradient g ± λ, at t = 0 the
        // excess of |g| over λ (0 inside the dead zone).
        assert_eq!(min_norm_subgradient(1.0, 0.5, 2.0), 2.5);
        assert_eq!(min_norm_subgradient(-1.0, 0.5, 2.0), -1.5);
        assert_eq!(min_norm_subgradient(0.0, 0.5, 2.0), 0.0);
        assert_eq!(min_norm_subgradient(0.0, -3.0, 2.0), 1.0);
    }

    #[test]
    fn shift_step_minimises_along_the_common_direction() {
        // K = 3, d = 1, no intercept: a model with zero Hessian along v = (1, 1, 1) and no linear
        // term there (b = 0): the best common shift of u = (1, 2, 4) under Σ|u_k + c| is
        // −median(u) = −2.
        let x = array![[1.0], [2.0], [-1.0]];
        let y = array![0usize, 1, 2];
        let sw = Array1::from_elem(3, 1.0 / 3.0);
        let loss = LogLoss {
            x: &x,
            y: &y,
            sw: SampleWeights::Given(&sw),
            k: 3,
            d: 1,
            fit_intercept: false,
            l2: 0.0,
            l1: 0.1,
        };
        let theta = array![1.0, 2.0, 4.0];
        let mut delta = Array1::zeros(3);
        let mut r: Array1<f64> = Array1::zeros(3);
        let h = Array2::from_shape_fn((3, 3), |(i, j)| if i == j { 2.0 } else { -1.0 });
        shift_columns(&loss, &theta, &mut delta, &mut r, &h);
        assert_eq!(delta, array![-2.0, -2.0, -2.0]);
        assert!(r.iter().all(|v| v.abs() < 1e-15));
    }
}
