//! liblinear's solvers for linear SVMs on a dense design `X̃` (one row per sample, the
//! synthetic bias column included when an intercept is fitted), with per-sample penalties
//! `Cᵢ`, as used by [`LinearSvc`](crate::LinearSvc) and [`LinearSvr`](crate::LinearSvr).
//!
//! | solver | problem | method |
//! |---|---|---|
//! | [`dual_cd_svc`] | `min_α ½αᵀ(Q + D)α − eᵀα`, `0 ≤ αᵢ ≤ Uᵢ` | dual coordinate descent with shrinking (Hsieh et al. 2008, Algorithm 3) |
//! | [`dual_cd_svr`] | `min_β ½βᵀ(Q + Λ)β − yᵀβ + ε‖β‖₁`, `\|βᵢ\| ≤ Uᵢ` | dual coordinate descent with shrinking (Ho and Lin 2012, Algorithm 4) |
//! | [`tron`] | `min_w ½‖w‖² + Σᵢ Cᵢ ℓ²(wᵀx̃ᵢ)` (squared hinge / squared ε-insensitive) | trust-region Newton with conjugate gradients (Lin, Weng and Keerthi 2008) |
//! | [`l1r_l2_svc`] | `min_w ‖w‖₁ + Σᵢ Cᵢ max(0, 1 − yᵢwᵀx̃ᵢ)²` | primal coordinate descent with a one-dimensional Newton step and line search (Yuan et al. 2010) |
//!
//! L1-loss: `D = 0`, `Uᵢ = Cᵢ`; L2-loss: `Dᵢᵢ = 1/(2Cᵢ)`, `Uᵢ = ∞` (and `Λ` likewise for
//! regression). The coordinate descent solvers permute the active variables at every outer
//! iteration with the caller's seeded stream; the stopping rules, tolerances and shrinking
//! follow the papers and liblinear (scikit-learn's bundled copy), so that both stop at the same
//! accuracy; the iterates differ through the random permutation.

use ndarray::{Array2, ArrayRef2};
use ndlearn_core::loss::Loss;
use ndlearn_core::random::{self, Rng};

/// Which loss a dual coordinate descent solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DualLoss {
    /// Hinge / ε-insensitive (box constraints `0 ≤ α ≤ C`).
    L1,
    /// Squared hinge / squared ε-insensitive (a diagonal `1/(2C)` added to `Q`).
    L2,
}

/// A solver's result: the weights over the columns of `X̃`, outer iterations, convergence.
#[derive(Debug, Clone)]
pub(crate) struct SolverOutput {
    pub w: Vec<f64>,
    pub n_iter: usize,
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(u, v)| u * v).sum()
}

fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

fn row(x: &ArrayRef2<f64>, i: usize) -> &[f64] {
    x.row(i).to_slice().expect("standard layout design")
}

/// Dual coordinate descent for the L1- or L2-loss SVM (liblinear's `solve_l2r_l1l2_svc`):
/// `y ∈ {±1}`, per-sample `c`, stopping when the spread of the projected gradient
/// `max PG − min PG ≤ eps` over all variables.
pub(crate) fn dual_cd_svc(
    x: &ArrayRef2<f64>,
    y: &[f64],
    c: &[f64],
    loss: DualLoss,
    eps: f64,
    max_iter: usize,
    rng: &mut Rng,
) -> SolverOutput {
    let l = x.nrows();
    let mut w = vec![0.0; x.ncols()];
    let (diag, upper): (Vec<f64>, Vec<f64>) = match loss {
        DualLoss::L1 => (vec![0.0; l], c.to_vec()),
        DualLoss::L2 => (
            c.iter().map(|ci| 0.5 / ci).collect(),
            vec![f64::INFINITY; l],
        ),
    };
    let qd: Vec<f64> = (0..l)
        .map(|i| diag[i] + dot(row(x, i), row(x, i)))
        .collect();
    let mut alpha = vec![0.0; l];
    let mut index: Vec<usize> = (0..l).collect();
    let mut active = l;
    let (mut pg_max_old, mut pg_min_old) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut iter = 0;
    while iter < max_iter {
        let (mut pg_max_new, mut pg_min_new) = (f64::NEG_INFINITY, f64::INFINITY);
        random::shuffle(rng, &mut index[..active]);
        let mut s = 0;
        while s < active {
            let i = index[s];
            let xi = row(x, i);
            let mut g = dot(&w, xi) * y[i] - 1.0;
            let ub = upper[i];
            g += alpha[i] * diag[i];
            let mut pg = 0.0;
            if alpha[i] == 0.0 {
                if g > pg_max_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else if g < 0.0 {
                    pg = g;
                }
            } else if alpha[i] == ub {
                if g < pg_min_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else if g > 0.0 {
                    pg = g;
                }
            } else {
                pg = g;
            }
            pg_max_new = pg_max_new.max(pg);
            pg_min_new = pg_min_new.min(pg);
            if pg.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = (alpha[i] - g / qd[i]).max(0.0).min(ub);
                axpy((alpha[i] - old) * y[i], xi, &mut w);
            }
            s += 1;
        }
        iter += 1;
        if pg_max_new - pg_min_new <= eps {
            if active == l {
                break;
            }
            active = l;
            pg_max_old = f64::INFINITY;
            pg_min_old = f64::NEG_INFINITY;
            continue;
        }
        pg_max_old = if pg_max_new <= 0.0 {
            f64::INFINITY
        } else {
            pg_max_new
        };
        pg_min_old = if pg_min_new >= 0.0 {
            f64::NEG_INFINITY
        } else {
            pg_min_new
        };
    }
    SolverOutput {
        w,
        n_iter: iter,
        converged: iter < max_iter,
    }
}

/// Dual coordinate descent for L1- or L2-loss ε-SVR (liblinear's `solve_l2r_l1l2_svr`),
/// stopping when the 1-norm of the minimum-norm subgradient falls to `eps` times its value at
/// the first iteration.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dual_cd_svr(
    x: &ArrayRef2<f64>,
    y: &[f64],
    c: &[f64],
    p: f64,
    loss: DualLoss,
    eps: f64,
    max_iter: usize,
    rng: &mut Rng,
) -> SolverOutput {
    let l = x.nrows();
    let mut w = vec![0.0; x.ncols()];
    let (lambda, upper): (Vec<f64>, Vec<f64>) = match loss {
        DualLoss::L1 => (vec![0.0; l], c.to_vec()),
        DualLoss::L2 => (
            c.iter().map(|ci| 0.5 / ci).collect(),
            vec![f64::INFINITY; l],
        ),
    };
    let qd: Vec<f64> = (0..l).map(|i| dot(row(x, i), row(x, i))).collect();
    let mut beta = vec![0.0; l];
    let mut index: Vec<usize> = (0..l).collect();
    let mut active = l;
    let mut gmax_old = f64::INFINITY;
    let mut gnorm1_init = -1.0;
    let mut iter = 0;
    while iter < max_iter {
        let mut gmax_new: f64 = 0.0;
        let mut gnorm1_new = 0.0;
        random::shuffle(rng, &mut index[..active]);
        let mut s = 0;
        while s < active {
            let i = index[s];
            let xi = row(x, i);
            let g = -y[i] + lambda[i] * beta[i] + dot(&w, xi);
            let h = qd[i] + lambda[i];
            let (gp, gn) = (g + p, g - p);
            let ub = upper[i];
            let violation;
            if beta[i] == 0.0 {
                if gp < 0.0 {
                    violation = -gp;
                } else if gn > 0.0 {
                    violation = gn;
                } else if gp > gmax_old && gn < -gmax_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else {
                    violation = 0.0;
                }
            } else if beta[i] >= ub {
                if gp > 0.0 {
                    violation = gp;
                } else if gp < -gmax_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else {
                    violation = 0.0;
                }
            } else if beta[i] <= -ub {
                if gn < 0.0 {
                    violation = -gn;
                } else if gn > gmax_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else {
                    violation = 0.0;
                }
            } else if beta[i] > 0.0 {
                violation = gp.abs();
            } else {
                violation = gn.abs();
            }
            gmax_new = gmax_new.max(violation);
            gnorm1_new += violation;
            s += 1;
            // the Newton direction of the one-variable problem
            let d = if gp < h * beta[i] {
                -gp / h
            } else if gn > h * beta[i] {
                -gn / h
            } else {
                -beta[i]
            };
            if d.abs() < 1e-12 || !d.is_finite() {
                continue;
            }
            let old = beta[i];
            beta[i] = (beta[i] + d).max(-ub).min(ub);
            let d = beta[i] - old;
            if d != 0.0 {
                axpy(d, xi, &mut w);
            }
        }
        if iter == 0 {
            gnorm1_init = gnorm1_new;
        }
        iter += 1;
        if gnorm1_new <= eps * gnorm1_init {
            if active == l {
                break;
            }
            active = l;
            gmax_old = f64::INFINITY;
            continue;
        }
        gmax_old = gmax_new;
    }
    SolverOutput {
        w,
        n_iter: iter,
        converged: iter < max_iter,
    }
}

/// The smooth primal objectives [`tron`] minimises.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SmoothLoss {
    /// `Cᵢ max(0, 1 − yᵢ fᵢ)²`, `y ∈ {±1}`.
    SquaredHinge,
    /// `Cᵢ max(0, |fᵢ − yᵢ| − ε)²`.
    SquaredEpsilon(f64),
}

/// `½‖w‖² + Σᵢ Cᵢ ℓ(fᵢ)` with its gradient and generalised Hessian-vector product
/// (liblinear's `l2r_l2_svc_fun` / `l2r_l2_svr_fun`).
struct PrimalFun<'a> {
    x: &'a ArrayRef2<f64>,
    y: &'a [f64],
    c: &'a [f64],
    loss: SmoothLoss,
    /// The scores `X̃w` of the last [`PrimalFun::fun`] call.
    z: Vec<f64>,
    /// The rows where the loss is active (curvature `2Cᵢ`), set by [`PrimalFun::grad`].
    active: Vec<usize>,
}

impl PrimalFun<'_> {
    fn fun(&mut self, w: &[f64]) -> f64 {
        let mut f = dot(w, w) / 2.0;
        for i in 0..self.x.nrows() {
            self.z[i] = dot(row(self.x, i), w);
            let r = residual(self.loss, self.y[i], self.z[i]);
            if r != 0.0 {
                f += self.c[i] * r * r;
            }
        }
        f
    }

    /// The gradient at the point of the last `fun` call.
    fn grad(&mut self, w: &[f64], g: &mut [f64]) {
        g.fill(0.0);
        self.active.clear();
        for i in 0..self.x.nrows() {
            let r = residual(self.loss, self.y[i], self.z[i]);
            if r != 0.0 {
                self.active.push(i);
                // ∂/∂f of Cᵢ r² is 2Cᵢ r ∂r/∂f, ∂r/∂f = −y (hinge) or sign (ε-insensitive)
                let coef = match self.loss {
                    SmoothLoss::SquaredHinge => -self.c[i] * self.y[i] * r,
                    SmoothLoss::SquaredEpsilon(_) => {
                        self.c[i] * r * (self.z[i] - self.y[i]).signum()
                    }
                };
                axpy(coef, row(self.x, i), g);
            }
        }
        for (gj, wj) in g.iter_mut().zip(w) {
            *gj = wj + 2.0 * *gj;
        }
    }

    fn hv(&self, s: &[f64], hs: &mut [f64]) {
        hs.fill(0.0);
        for &i in &self.active {
            let xi = row(self.x, i);
            axpy(self.c[i] * dot(xi, s), xi, hs);
        }
        for (h, sj) in hs.iter_mut().zip(s) {
            *h = sj + 2.0 * *h;
        }
    }
}

/// The margin violation `r ≥ 0` of one sample (`ℓ = C r²`).
fn residual(loss: SmoothLoss, y: f64, f: f64) -> f64 {
    match loss {
        SmoothLoss::SquaredHinge => (1.0 - y * f).max(0.0),
        SmoothLoss::SquaredEpsilon(p) => ((f - y).abs() - p).max(0.0),
    }
}

fn norm(v: &[f64]) -> f64 {
    dot(v, v).sqrt()
}

/// Trust-region Newton (liblinear's `TRON::tron`): from `w = 0`, conjugate-gradient steps
/// inside a trust region, stopping when `‖∇f(w)‖ ≤ eps ‖∇f(0)‖`.
pub(crate) fn tron(
    x: &ArrayRef2<f64>,
    y: &[f64],
    c: &[f64],
    loss: SmoothLoss,
    eps: f64,
    max_iter: usize,
) -> SolverOutput {
    let (eta0, eta1, eta2) = (1e-4, 0.25, 0.75);
    let (sigma1, sigma2, sigma3): (f64, f64, f64) = (0.25, 0.5, 4.0);
    let n = x.ncols();
    let mut fun = PrimalFun {
        x,
        y,
        c,
        loss,
        z: vec![0.0; x.nrows()],
        active: Vec::new(),
    };
    let mut w = vec![0.0; n];
    let mut f = fun.fun(&w);
    let mut g = vec![0.0; n];
    fun.grad(&w, &mut g);
    let mut delta = norm(&g);
    let gnorm1 = delta;
    let search = gnorm1 > eps * gnorm1;
    let (mut s, mut r, mut w_new) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut iter = 1;
    let mut converged = !search;
    // `iter` counts accepted steps only (liblinear's rule); rejected steps shrink the trust
    // region, and are capped too, so that a NaN reduction (overflowing data) cannot loop.
    let mut steps = 0usize;
    while iter <= max_iter && search && steps < max_iter.saturating_mul(10) {
        steps += 1;
        trcg(&fun, delta, &g, &mut s, &mut r);
        w_new.copy_from_slice(&w);
        axpy(1.0, &s, &mut w_new);
        let gs = dot(&g, &s);
        let prered = -0.5 * (gs - dot(&s, &r));
        let fnew = fun.fun(&w_new);
        let actred = f - fnew;
        let snorm = norm(&s);
        if !(actred.is_finite() && prered.is_finite() && snorm.is_finite()) {
            // Overflow: no step can be measured (reported as not converged).
            break;
        }
        if iter == 1 {
            delta = delta.min(snorm);
        }
        let alpha = if fnew - f - gs <= 0.0 {
            sigma3
        } else {
            sigma1.max(-0.5 * (gs / (fnew - f - gs)))
        };
        if actred < eta0 * prered {
            delta = (alpha.max(sigma1) * snorm).min(sigma2 * delta);
        } else if actred < eta1 * prered {
            delta = (sigma1 * delta).max((alpha * snorm).min(sigma2 * delta));
        } else if actred < eta2 * prered {
            delta = (sigma1 * delta).max((alpha * snorm).min(sigma3 * delta));
        } else {
            delta = delta.max((alpha * snorm).min(sigma3 * delta));
        }
        if actred > eta0 * prered {
            iter += 1;
            w.copy_from_slice(&w_new);
            f = fnew;
            fun.grad(&w, &mut g);
            if norm(&g) <= eps * gnorm1 {
                converged = true;
                break;
            }
        }
        if f < -1.0e32 {
            break;
        }
        if actred.abs() <= 0.0 && prered <= 0.0 {
            break;
        }
        if actred.abs() <= 1e-12 * f.abs() && prered.abs() <= 1e-12 * f.abs() {
            // no further progress is representable: the point is optimal to rounding
            converged = true;
            break;
        }
    }
    SolverOutput {
        w,
        n_iter: iter - 1,
        converged,
    }
}

/// Conjugate gradients on `∇²f s = −g` inside `‖s‖ ≤ Δ` (liblinear's `TRON::trcg`); `r` is
/// left as the residual `−g − ∇²f s`.
fn trcg(fun: &PrimalFun<'_>, delta: f64, g: &[f64], s: &mut [f64], r: &mut [f64]) {
    let n = g.len();
    s.fill(0.0);
    for (ri, gi) in r.iter_mut().zip(g) {
        *ri = -gi;
    }
    let mut d = r.to_vec();
    let mut hd = vec![0.0; n];
    let cgtol = 0.1 * norm(g);
    let mut rtr = dot(r, r);
    // at most n + a few steps in exact arithmetic; a cap guards against rounding loops
    for _ in 0..(2 * n + 10) {
        if norm(r) <= cgtol {
            break;
        }
        fun.hv(&d, &mut hd);
        let mut alpha = rtr / dot(&d, &hd);
        axpy(alpha, &d, s);
        if norm(s) > delta {
            axpy(-alpha, &d, s);
            let std = dot(s, &d);
            let sts = dot(s, s);
            let dtd = dot(&d, &d);
            let dsq = delta * delta;
            let rad = (std * std + dtd * (dsq - sts)).sqrt();
            alpha = if std >= 0.0 {
                (dsq - sts) / (std + rad)
            } else {
                (rad - std) / dtd
            };
            axpy(alpha, &d, s);
            axpy(-alpha, &hd, r);
            break;
        }
        axpy(-alpha, &hd, r);
        let rnew = dot(r, r);
        let beta = rnew / rtr;
        for (di, ri) in d.iter_mut().zip(r.iter()) {
            *di = beta * *di + ri;
        }
        rtr = rnew;
    }
}

/// Primal coordinate descent for the L1-regularised squared-hinge SVM (liblinear's
/// `solve_l1r_l2_svc`): `xt` is `X̃ᵀ` (one row per feature), `y ∈ {±1}`, stopping when the
/// 1-norm of the minimum-norm subgradient falls to `eps` times its first value.
pub(crate) fn l1r_l2_svc(
    xt: &ArrayRef2<f64>,
    y: &[f64],
    c: &[f64],
    eps: f64,
    max_iter: usize,
    rng: &mut Rng,
) -> SolverOutput {
    let (w_size, l) = (xt.nrows(), xt.ncols());
    let max_num_linesearch = 20;
    let sigma = 0.01;
    // columns times yᵢ, as liblinear stores them
    let mut xy = xt.to_owned();
    for mut col in xy.rows_mut() {
        for (v, yi) in col.iter_mut().zip(y) {
            *v *= yi;
        }
    }
    let xy: Array2<f64> = xy;
    let mut w = vec![0.0; w_size];
    let mut b = vec![1.0; l];
    let xj_sq: Vec<f64> = (0..w_size)
        .map(|j| row(&xy, j).iter().zip(c).map(|(v, ci)| ci * v * v).sum())
        .collect();
    let mut index: Vec<usize> = (0..w_size).collect();
    let mut active = w_size;
    let mut gmax_old = f64::INFINITY;
    let mut gnorm1_init = -1.0;
    let mut iter = 0;
    let lf = l as f64;
    while iter < max_iter {
        let mut gmax_new: f64 = 0.0;
        let mut gnorm1_new = 0.0;
        random::shuffle(rng, &mut index[..active]);
        let mut s = 0;
        while s < active {
            let j = index[s];
            let xj = row(&xy, j);
            let (mut g_loss, mut h) = (0.0, 0.0);
            for (i, &v) in xj.iter().enumerate() {
                if v != 0.0 && b[i] > 0.0 {
                    let tmp = c[i] * v;
                    g_loss -= tmp * b[i];
                    h += tmp * v;
                }
            }
            g_loss *= 2.0;
            let g = g_loss;
            let h = (2.0 * h).max(1e-12);
            let (gp, gn) = (g + 1.0, g - 1.0);
            let violation;
            if w[j] == 0.0 {
                if gp < 0.0 {
                    violation = -gp;
                } else if gn > 0.0 {
                    violation = gn;
                } else if gp > gmax_old / lf && gn < -gmax_old / lf {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                } else {
                    violation = 0.0;
                }
            } else if w[j] > 0.0 {
                violation = gp.abs();
            } else {
                violation = gn.abs();
            }
            gmax_new = gmax_new.max(violation);
            gnorm1_new += violation;
            s += 1;
            let mut d = if gp < h * w[j] {
                -gp / h
            } else if gn > h * w[j] {
                -gn / h
            } else {
                -w[j]
            };
            if d.abs() < 1e-12 {
                continue;
            }
            let mut delta = (w[j] + d).abs() - w[j].abs() + g * d;
            let mut d_old = 0.0;
            let mut loss_old = 0.0;
            let mut num_linesearch = 0;
            while num_linesearch < max_num_linesearch {
                let d_diff = d_old - d;
                let mut cond = (w[j] + d).abs() - w[j].abs() - sigma * delta;
                let appxcond = xj_sq[j] * d * d + g_loss * d + cond;
                if appxcond <= 0.0 {
                    for (bi, &v) in b.iter_mut().zip(xj) {
                        if v != 0.0 {
                            *bi += d_diff * v;
                        }
                    }
                    break;
                }
                let mut loss_new = 0.0;
                if num_linesearch == 0 {
                    loss_old = 0.0;
                    for (i, &v) in xj.iter().enumerate() {
                        if v == 0.0 {
                            continue;
                        }
                        if b[i] > 0.0 {
                            loss_old += c[i] * b[i] * b[i];
                        }
                        b[i] += d_diff * v;
                        if b[i] > 0.0 {
                            loss_new += c[i] * b[i] * b[i];
                        }
                    }
                } else {
                    for (i, &v) in xj.iter().enumerate() {
                        if v == 0.0 {
                            continue;
                        }
                        b[i] += d_diff * v;
                        if b[i] > 0.0 {
                            loss_new += c[i] * b[i] * b[i];
                        }
                    }
                }
                cond = cond + loss_new - loss_old;
                if cond <= 0.0 {
                    break;
                }
                d_old = d;
                d *= 0.5;
                delta *= 0.5;
                num_linesearch += 1;
            }
            w[j] += d;
            if num_linesearch >= max_num_linesearch {
                // recompute b from scratch after a failed line search
                b.fill(1.0);
                for (k, &wk) in w.iter().enumerate() {
                    if wk != 0.0 {
                        for (bi, &v) in b.iter_mut().zip(row(&xy, k)) {
                            *bi -= wk * v;
                        }
                    }
                }
            }
        }
        if iter == 0 {
            gnorm1_init = gnorm1_new;
        }
        iter += 1;
        if gnorm1_new <= eps * gnorm1_init {
            if active == w_size {
                break;
            }
            active = w_size;
            gmax_old = f64::INFINITY;
            continue;
        }
        gmax_old = gmax_new;
    }
    SolverOutput {
        w,
        n_iter: iter,
        converged: iter < max_iter,
    }
}

/// The penalty of a primal objective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reg {
    /// `½‖w‖²`.
    L2,
    /// `‖w‖₁`.
    L1,
}

/// liblinear's primal objective `R(w) + Σᵢ Cᵢ ℓ(yᵢ, wᵀx̃ᵢ)` over the rows of `x` (the bias
/// weight is part of `w` and of the penalty), with the loss from core.
pub(crate) fn primal_objective(
    x: &ArrayRef2<f64>,
    y: &[f64],
    c: &[f64],
    w: &[f64],
    reg: Reg,
    loss: Loss,
) -> f64 {
    let r = match reg {
        Reg::L2 => dot(w, w) / 2.0,
        Reg::L1 => w.iter().map(|v| v.abs()).sum(),
    };
    r + (0..x.nrows())
        .map(|i| c[i] * loss.value(y[i], dot(row(x, i), w)))
        .sum::<f64>()
}

/// Dual coordinate descent for Crammer and Singer's multi-class SVM (liblinear's
/// `Solver_MCSVM_CS`): `y` are class indices `0..k`, `c` per sample; `w` is returned
/// feature-major (`w[j·k + m]`). One block of `k` dual variables per sample is solved exactly
/// per visit; stops when the largest gradient spread of a pass is below `eps` after a pass over
/// all samples.
pub(crate) fn crammer_singer(
    x: &ArrayRef2<f64>,
    y: &[usize],
    c: &[f64],
    k: usize,
    eps: f64,
    max_iter: usize,
    rng: &mut Rng,
) -> SolverOutput {
    let (l, p) = x.dim();
    let mut w = vec![0.0; p * k];
    let mut alpha = vec![0.0; l * k];
    let mut alpha_index: Vec<usize> = (0..l).flat_map(|_| 0..k).collect();
    let qd: Vec<f64> = (0..l).map(|i| dot(row(x, i), row(x, i))).collect();
    let mut active_size_i = vec![k; l];
    let mut y_index: Vec<usize> = y.to_vec();
    let mut index: Vec<usize> = (0..l).collect();
    let mut active = l;
    let mut eps_shrink = (10.0 * eps).max(1.0);
    let mut start_from_all = true;
    let (mut g, mut b, mut alpha_new) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    let mut d_ind: Vec<usize> = Vec::with_capacity(k);
    let mut d_val: Vec<f64> = Vec::with_capacity(k);
    let mut iter = 0;
    while iter < max_iter {
        let mut stopping = f64::NEG_INFINITY;
        random::shuffle(rng, &mut index[..active]);
        let mut s = 0;
        while s < active {
            let i = index[s];
            let ai = qd[i];
            if ai <= 0.0 {
                s += 1;
                continue;
            }
            let base = i * k;
            let xi = row(x, i);
            let asz = active_size_i[i];
            g[..asz].fill(1.0);
            if y_index[i] < asz {
                g[y_index[i]] = 0.0;
            }
            for (j, &v) in xi.iter().enumerate() {
                if v != 0.0 {
                    let wj = &w[j * k..(j + 1) * k];
                    for m in 0..asz {
                        g[m] += wj[alpha_index[base + m]] * v;
                    }
                }
            }
            let (mut min_g, mut max_g) = (f64::INFINITY, f64::NEG_INFINITY);
            for m in 0..asz {
                if alpha[base + alpha_index[base + m]] < 0.0 && g[m] < min_g {
                    min_g = g[m];
                }
                max_g = max_g.max(g[m]);
            }
            if y_index[i] < asz && alpha[base + y[i]] < c[i] && g[y_index[i]] < min_g {
                min_g = g[y_index[i]];
            }
            let shrunk = |m: usize, y_idx: usize, g: &[f64], alpha_index: &[usize]| {
                let bound = if m == y_idx { c[i] } else { 0.0 };
                alpha[base + alpha_index[base + m]] == bound && g[m] < min_g
            };
            let mut m = 0;
            while m < active_size_i[i] {
                if shrunk(m, y_index[i], &g, &alpha_index) {
                    active_size_i[i] -= 1;
                    while active_size_i[i] > m {
                        let a = active_size_i[i];
                        if !shrunk(a, y_index[i], &g, &alpha_index) {
                            alpha_index.swap(base + m, base + a);
                            g.swap(m, a);
                            if y_index[i] == a {
                                y_index[i] = m;
                            } else if y_index[i] == m {
                                y_index[i] = a;
                            }
                            break;
                        }
                        active_size_i[i] -= 1;
                    }
                }
                m += 1;
            }
            let asz = active_size_i[i];
            if asz <= 1 {
                active -= 1;
                index.swap(s, active);
                continue;
            }
            s += 1;
            if max_g - min_g <= 1e-12 {
                continue;
            }
            stopping = stopping.max(max_g - min_g);
            for m in 0..asz {
                b[m] = g[m] - ai * alpha[base + alpha_index[base + m]];
            }
            cs_sub_problem(ai, y_index[i], c[i], &b[..asz], &mut alpha_new[..asz]);
            d_ind.clear();
            d_val.clear();
            for m in 0..asz {
                let slot = base + alpha_index[base + m];
                let d = alpha_new[m] - alpha[slot];
                alpha[slot] = alpha_new[m];
                if d.abs() >= 1e-12 {
                    d_ind.push(alpha_index[base + m]);
                    d_val.push(d);
                }
            }
            for (j, &v) in xi.iter().enumerate() {
                if v != 0.0 {
                    for (&m, &d) in d_ind.iter().zip(&d_val) {
                        w[j * k + m] += d * v;
                    }
                }
            }
        }
        iter += 1;
        if stopping < eps_shrink {
            if stopping < eps && start_from_all {
                break;
            }
            active = l;
            active_size_i.fill(k);
            eps_shrink = (eps_shrink / 2.0).max(eps);
            start_from_all = true;
        } else {
            start_from_all = false;
        }
    }
    SolverOutput {
        w,
        n_iter: iter,
        converged: iter < max_iter,
    }
}

/// The exact solution of one sample's block (liblinear's `solve_sub_problem`): `b` are the
/// active gradients minus `A αₘ`, `yi` the position of the sample's class among them.
fn cs_sub_problem(a: f64, yi: usize, c_yi: f64, b: &[f64], alpha_new: &mut [f64]) {
    let n = b.len();
    let mut d = b.to_vec();
    if yi < n {
        d[yi] += a * c_yi;
    }
    d.sort_by(|u, v| v.total_cmp(u));
    let mut beta = d[0] - a * c_yi;
    let mut r = 1;
    while r < n && beta < r as f64 * d[r] {
        beta += d[r];
        r += 1;
    }
    beta /= r as f64;
    for (m, an) in alpha_new.iter_mut().enumerate() {
        let v = (beta - b[m]) / a;
        *an = if m == yi { c_yi.min(v) } else { v.min(0.0) };
    }
}

/// Crammer and Singer's primal objective `½ Σₘ ‖w̃ₘ‖² + Σᵢ Cᵢ maxₘ (eᵢᵐ + w̃ₘᵀx̃ᵢ − w̃_yᵢᵀx̃ᵢ)`
/// (`eᵢᵐ = 1` for `m ≠ yᵢ`, 0 otherwise), with `w` feature-major as [`crammer_singer`]
/// returns it.
pub(crate) fn crammer_singer_objective(
    x: &ArrayRef2<f64>,
    y: &[usize],
    c: &[f64],
    w: &[f64],
    k: usize,
) -> f64 {
    let reg = dot(w, w) / 2.0;
    let mut loss = 0.0;
    let mut scores = vec![0.0; k];
    for i in 0..x.nrows() {
        scores.fill(0.0);
        for (j, &v) in row(x, i).iter().enumerate() {
            for m in 0..k {
                scores[m] += w[j * k + m] * v;
            }
        }
        let own = scores[y[i]];
        let worst = (0..k)
            .map(|m| f64::from(u8::from(m != y[i])) + scores[m] - own)
            .fold(f64::NEG_INFINITY, f64::max);
        loss += c[i] * worst;
    }
    reg + loss
}
