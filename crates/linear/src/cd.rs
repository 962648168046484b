//! Cyclic coordinate descent for the elastic net, in two storage variants (private solver
//! module shared by [`crate::lasso`] and [`crate::path`]).
//!
//! Both minimise scikit-learn's internal (un-normalised) form
//!
//! ```text
//! P(w) = ½‖y − Xw‖² + l1 ‖w‖₁ + ½ l2 ‖w‖²,       l1 = N·α·ρ,  l2 = N·α·(1 − ρ)
//! ```
//!
//! (`ρ` = `l1_ratio`), which is `N` times the estimators' objective. One *sweep* updates every
//! active coordinate in order `j = 0, 1, …` with the exact minimiser along it,
//!
//! ```text
//! wⱼ ← S(zⱼ, l1) / (‖xⱼ‖² + l2),     zⱼ = xⱼᵀ(y − Xw) + wⱼ‖xⱼ‖²,     S = soft threshold
//! ```
//!
//! (`wⱼ ← max(zⱼ − l1, 0)/(‖xⱼ‖² + l2)` with `positive`), keeping the residual `R = y − Xw`
//! (dense variant, `X` column-major so every column is a contiguous slice) or `Qw = XᵀXw`
//! (Gram variant, `Q = XᵀX`, `q = Xᵀy`, `O(D)` per changed coordinate instead of `O(N)`)
//! up to date.
//!
//! # Stopping rule (scikit-learn's)
//!
//! After a sweep whose largest coordinate change is at most `tol` times the largest
//! coefficient (or whose coefficients are all zero, or at the last allowed sweep), the duality
//! gap is computed; the run stops when `gap ≤ tol·‖y‖²`. For `l1 > 0` the gap is Fercoq,
//! Gramfort & Salmon's: with `ν = XᵀR − l2 w` and the dual point `θ = R·min(1, l1/‖ν‖_∞)`
//! (`max ν` instead of `‖ν‖_∞` with `positive`),
//!
//! ```text
//! gap = ½(‖R‖² + l2‖w‖²) + l1‖w‖₁ − [ −½s²(‖R‖² + l2‖w‖²) + s Rᵀy ],    s = min(1, l1/‖ν‖_∞).
//! ```
//!
//! For `l1 = 0 < l2` the ridge dual (Dünner et al.'s formulation B) is used, and for
//! `l1 = l2 = 0` the squared gradient norm `‖XᵀR‖²`. The gap is checked once before the first
//! sweep too (a warm start that is already optimal takes 0 sweeps).
//!
//! # Gap-safe screening
//!
//! Whenever a gap is computed (with `l1 > 0`), a feature whose dual constraint is provably
//! inactive, `(1 − |xⱼᵀθ|/l1·…)/√(‖xⱼ‖² + l2) > √(2·gap)/l1` (Ndiaye, Fercoq, Gramfort &
//! Salmon 2017, eq. 11), is set to 0 and dropped from later sweeps. The rule is safe: a
//! screened feature is zero at the optimum, so the solution is unchanged; only the work shrinks.
//! scikit-learn ≥ 1.8 screens the same way.
//!
//! # References
//!
//! - J. Friedman, T. Hastie, R. Tibshirani, "Regularization paths for generalized linear models
//!   via coordinate descent", J. Stat. Software 33(1), 2010.
//! - O. Fercoq, A. Gramfort, J. Salmon, "Mind the duality gap: safer rules for the Lasso",
//!   ICML 2015; E. Ndiaye et al., "Gap safe screening rules for sparsity enforcing
//!   penalties", JMLR 18, 2017.
//! - C. Dünner, S. Forte, M. Takáč, M. Jaggi, "Primal-dual rates and certificates", ICML 2016.

use ndarray::{Array2, ArrayRef2};
use ndlearn_core::Float;

use crate::design::{self, Moments};

/// Settings of one coordinate-descent run (penalties already multiplied by `N`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CdSettings<F> {
    pub l1: F,
    pub l2: F,
    pub max_iter: usize,
    pub tol: F,
    pub positive: bool,
}

/// Outcome of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CdOutcome<F> {
    /// Sweeps performed.
    pub n_iter: usize,
    /// Final duality gap (of the un-normalised objective).
    pub gap: F,
    /// Whether `gap ≤ tol·‖y‖²` was reached.
    pub converged: bool,
}

/// Longest vectors handed to BLAS `dot`: OpenBLAS computes level-1 dots of up to 10,000
/// elements on the calling thread (longer ones may be split over its own threads, whose number
/// would then change the rounding), so results stay bitwise identical for any thread count,
/// inside rayon tasks too.
const BLAS_DOT_MAX: usize = 10_000;

/// `aᵀb`: BLAS (about 1.3× faster here than the unrolled loop on columns streamed from L3:
/// its kernels prefetch) up to [`BLAS_DOT_MAX`] elements, the unrolled loop beyond.
#[inline]
fn dot<F: Float>(a: &[F], b: &[F]) -> F {
    if a.len() <= BLAS_DOT_MAX {
        ndarray::ArrayView1::from(a).dot(&ndarray::ArrayView1::from(b))
    } else {
        dot_unrolled(a, b)
    }
}

#[inline]
fn dot_unrolled<F: Float>(a: &[F], b: &[F]) -> F {
    let mut acc = [F::zero(); 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        acc[0] += x[0] * y[0];
        acc[1] += x[1] * y[1];
        acc[2] += x[2] * y[2];
        acc[3] += x[3] * y[3];
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        s += *x * *y;
    }
    s
}

#[inline]
fn axpy<F: Float>(a: F, x: &[F], y: &mut [F]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// The coordinate update `S(z, l1)/(c + l2)` (or its non-negative version).
#[inline]
fn update<F: Float>(z: F, c: F, s: &CdSettings<F>) -> F {
    if s.positive && z < F::zero() {
        return F::zero();
    }
    let shrunk = z.abs() - s.l1;
    if shrunk > F::zero() {
        shrunk.copysign(z) / (c + s.l2)
    } else {
        F::zero()
    }
}

/// Duality gap from the scalar pieces and `ν = XᵀR − l2 w` (`xtr_norm2` = ‖XᵀR‖² for the
/// `l1 = 0` formulations). Returns `(gap, dual norm of ν)`.
#[allow(clippy::too_many_arguments)]
fn gap_from_parts<F: Float>(
    s: &CdSettings<F>,
    nu: &[F],
    w: &[F],
    r_norm2: F,
    ry: F,
    xtr_norm2: F,
) -> (F, F) {
    let half = F::cast(0.5);
    let w_l2 = w.iter().map(|v| *v * *v).sum::<F>();
    if s.l1 == F::zero() {
        if s.l2 == F::zero() {
            return (xtr_norm2, xtr_norm2);
        }
        let gap = r_norm2 + half * s.l2 * w_l2 - ry + xtr_norm2 / (F::cast(2.0) * s.l2);
        return (gap, xtr_norm2);
    }
    let dual_norm = if s.positive {
        nu.iter().fold(F::neg_infinity(), |m, &v| m.max(v))
    } else {
        nu.iter().fold(F::zero(), |m, &v| m.max(v.abs()))
    };
    let w_l1 = w.iter().map(|v| v.abs()).sum::<F>();
    let primal = half * (r_norm2 + s.l2 * w_l2) + s.l1 * w_l1;
    let scale = if dual_norm > s.l1 {
        s.l1 / dual_norm
    } else {
        F::one()
    };
    let dual = -half * scale * scale * (r_norm2 + s.l2 * w_l2) + scale * ry;
    (primal - dual, dual_norm)
}

/// Gap-safe screening: returns the features that stay active; screened ones are zeroed through
/// `zero(j, w_j)` (which must also update the residual or `Qw`).
#[allow(clippy::too_many_arguments)]
fn screen<F: Float>(
    s: &CdSettings<F>,
    gap: F,
    nu: &[F],
    dual_norm: F,
    col_sq: impl Fn(usize) -> F,
    candidates: &[usize],
    w: &mut [F],
    mut zero: impl FnMut(usize, F),
) -> Vec<usize> {
    let radius = (F::cast(2.0) * gap.abs()).sqrt() / s.l1;
    let denom = s.l1.max(dual_norm);
    let mut active = Vec::with_capacity(candidates.len());
    for &j in candidates {
        let c = col_sq(j);
        if c == F::zero() {
            w[j] = F::zero();
            continue;
        }
        let dj = (F::one() - (nu[j] / denom).abs()) / (c + s.l2).sqrt();
        if dj <= radius {
            active.push(j);
        } else if w[j] != F::zero() {
            zero(j, w[j]);
            w[j] = F::zero();
        }
    }
    active
}

/// Column `j` of a column-major matrix stored as one slice.
pub(crate) struct ColMajor<'a, F> {
    pub data: &'a [F],
    pub n: usize,
}

impl<'a, F> ColMajor<'a, F> {
    /// A view of a column-major (Fortran-order) `N × D` array; `None` for another layout.
    pub fn new(a: &'a Array2<F>) -> Option<Self> {
        let n = a.nrows();
        let ok = a.t().is_standard_layout();
        let data = a.as_slice_memory_order()?;
        ok.then_some(Self { data, n })
    }

    #[inline]
    fn col(&self, j: usize) -> &'a [F] {
        &self.data[j * self.n..(j + 1) * self.n]
    }
}

/// Coordinate descent on column-major `X` with residuals.
///
/// `w` is the starting point on entry and the solution on exit.
pub(crate) fn cd_dense<F: Float>(
    xf: &ColMajor<'_, F>,
    y: &[F],
    col_sq: &[F],
    w: &mut [F],
    s: &CdSettings<F>,
) -> CdOutcome<F> {
    let d = col_sq.len();
    let col = |j: usize| xf.col(j);
    // R = y − Xw
    let mut r = y.to_vec();
    for (j, &wj) in w.iter().enumerate() {
        if wj != F::zero() {
            axpy(-wj, col(j), &mut r);
        }
    }
    let tol = s.tol * dot(y, y);
    let mut nu = vec![F::zero(); d];
    let gap_now = |r: &[F], w: &[F], nu: &mut [F]| -> (F, F) {
        let mut xtr2 = F::zero();
        for j in 0..d {
            let v = dot(col(j), r);
            xtr2 += v * v;
            nu[j] = v - s.l2 * w[j];
        }
        gap_from_parts(s, nu, w, dot(r, r), dot(r, y), xtr2)
    };
    let all: Vec<usize> = (0..d).collect();
    let (mut gap, mut dual_norm) = gap_now(&r, w, &mut nu);
    if gap <= tol {
        return CdOutcome {
            n_iter: 0,
            gap,
            converged: true,
        };
    }
    let screening = s.l1 > F::zero();
    let mut active = if screening {
        screen(
            s,
            gap,
            &nu,
            dual_norm,
            |j| col_sq[j],
            &all,
            w,
            |j, wj| axpy(wj, col(j), &mut r),
        )
    } else {
        all
    };
    for it in 0..s.max_iter {
        let mut w_max = F::zero();
        let mut d_w_max = F::zero();
        for &j in &active {
            let c = col_sq[j];
            if c == F::zero() {
                continue;
            }
            let xj = col(j);
            let w_old = w[j];
            let z = dot(xj, &r) + w_old * c;
            let w_new = update(z, c, s);
            if w_new != w_old {
                axpy(w_old - w_new, xj, &mut r);
                w[j] = w_new;
            }
            d_w_max = d_w_max.max((w_new - w_old).abs());
            w_max = w_max.max(w_new.abs());
        }
        if sweep_stopped(it, s.max_iter, d_w_max, w_max) {
            return CdOutcome {
                n_iter: it + 1,
                gap,
                converged: false,
            };
        }
        if w_max == F::zero() || d_w_max / w_max <= s.tol || it + 1 == s.max_iter {
            (gap, dual_norm) = gap_now(&r, w, &mut nu);
            if gap <= tol {
                return CdOutcome {
                    n_iter: it + 1,
                    gap,
                    converged: true,
                };
            }
            if screening {
                let cand = std::mem::take(&mut active);
                active = screen(
                    s,
                    gap,
                    &nu,
                    dual_norm,
                    |j| col_sq[j],
                    &cand,
                    w,
                    |j, wj| axpy(wj, col(j), &mut r),
                );
            }
        }
    }
    CdOutcome {
        n_iter: s.max_iter,
        gap,
        converged: false,
    }
}

/// Coordinate descent on the Gram matrix `q_mat = XᵀX` (symmetric, `D × D`, standard layout),
/// `q = Xᵀy` and `yy = ‖y‖²`.
pub(crate) fn cd_gram<F: Float>(
    q_mat: &Array2<F>,
    q: &[F],
    yy: F,
    w: &mut [F],
    s: &CdSettings<F>,
) -> CdOutcome<F> {
    let d = q.len();
    let data = q_mat.as_slice().unwrap_or(&[]);
    debug_assert_eq!(data.len(), d * d);
    let row = |j: usize| &data[j * d..(j + 1) * d];
    let diag: Vec<F> = (0..d).map(|j| data[j * d + j]).collect();
    // Qw = Q w
    let mut qw = vec![F::zero(); d];
    for (j, &wj) in w.iter().enumerate() {
        if wj != F::zero() {
            axpy(wj, row(j), &mut qw);
        }
    }
    let tol = s.tol * yy;
    let mut nu = vec![F::zero(); d];
    let gap_now = |qw: &[F], w: &[F], nu: &mut [F]| -> (F, F) {
        let qdw = dot(q, w);
        let wqw = dot(w, qw);
        let r_norm2 = yy + wqw - F::cast(2.0) * qdw;
        let ry = yy - qdw;
        let mut xtr2 = F::zero();
        for j in 0..d {
            let v = q[j] - qw[j];
            xtr2 += v * v;
            nu[j] = v - s.l2 * w[j];
        }
        gap_from_parts(s, nu, w, r_norm2, ry, xtr2)
    };
    let all: Vec<usize> = (0..d).collect();
    let (mut gap, mut dual_norm) = gap_now(&qw, w, &mut nu);
    // scikit-learn also requires gap ≥ 0 here; a slightly negative gap is rounding in
    // `‖y‖² − 2qᵀw + wᵀQw` near the optimum, and accepting it keeps warm starts idempotent.
    if gap <= tol {
        return CdOutcome {
            n_iter: 0,
            gap,
            converged: true,
        };
    }
    let screening = s.l1 > F::zero();
    let mut active = if screening {
        screen(
            s,
            gap,
            &nu,
            dual_norm,
            |j| diag[j],
            &all,
            w,
            |j, wj| axpy(-wj, row(j), &mut qw),
        )
    } else {
        all
    };
    for it in 0..s.max_iter {
        let mut w_max = F::zero();
        let mut d_w_max = F::zero();
        for &j in &active {
            let c = diag[j];
            if c == F::zero() {
                continue;
            }
            let w_old = w[j];
            let z = q[j] - qw[j] + w_old * c;
            let w_new = update(z, c, s);
            if w_new != w_old {
                axpy(w_new - w_old, row(j), &mut qw);
                w[j] = w_new;
            }
            d_w_max = d_w_max.max((w_new - w_old).abs());
            w_max = w_max.max(w_new.abs());
        }
        if sweep_stopped(it, s.max_iter, d_w_max, w_max) {
            return CdOutcome {
                n_iter: it + 1,
                gap,
                converged: false,
            };
        }
        if w_max == F::zero() || d_w_max / w_max <= s.tol || it + 1 == s.max_iter {
            (gap, dual_norm) = gap_now(&qw, w, &mut nu);
            if gap <= tol {
                return CdOutcome {
                    n_iter: it + 1,
                    gap,
                    converged: true,
                };
            }
            if screening {
                let cand = std::mem::take(&mut active);
                active = screen(
                    s,
                    gap,
                    &nu,
                    dual_norm,
                    |j| diag[j],
                    &cand,
                    w,
                    |j, wj| axpy(-wj, row(j), &mut qw),
                );
            }
        }
    }
    CdOutcome {
        n_iter: s.max_iter,
        gap,
        converged: false,
    }
}

// ---------------------------------------------------------------------------------------------
// Problem storage

/// Prepared data of one elastic-net problem: either the Gram matrix or a centred column-major
/// copy, plus the centred targets.
pub(crate) enum Prepared<F: Float> {
    Gram { g: Array2<F> },
    Dense { xf: Array2<F>, col_sq: Vec<F> },
}

impl<F: Float> Prepared<F> {
    /// Builds the Gram matrix (`use_gram`) or the centred column-major copy.
    pub fn new(x: &ArrayRef2<F>, m: &Moments<F>, use_gram: bool) -> Self {
        if use_gram {
            Self::Gram {
                g: design::gram(x, m),
            }
        } else {
            let xf = design::centred_copy_f(x, &m.x_mean);
            let col_sq = xf.columns().into_iter().map(|c| c.dot(&c)).collect();
            Self::Dense { xf, col_sq }
        }
    }

    /// Runs coordinate descent for one target from `w` (in place).
    pub fn solve(
        &self,
        yc: &[F],
        xty: &[F],
        yty: F,
        w: &mut [F],
        s: &CdSettings<F>,
    ) -> CdOutcome<F> {
        match self {
            Self::Gram { g } => cd_gram(g, xty, yty, w, s),
            Self::Dense { xf, col_sq } => match ColMajor::new(xf) {
                Some(cm) => cd_dense(&cm, yc, col_sq, w, s),
                None => unreachable_layout(),
            },
        }
    }
}

#[cold]
fn unreachable_layout() -> ! {
    // `Prepared::new` always allocates a column-major array.
    panic!("ndlearn-linear internal error: the dense coordinate-descent copy is not column-major")
}

/// `CdSettings` for penalty `alpha`, mix `l1_ratio`, `n` samples.
pub(crate) fn settings<F: Float>(
    p: &crate::lasso::ElasticNet,
    alpha: f64,
    n: usize,
) -> CdSettings<F> {
    let nf = n as f64;
    CdSettings {
        l1: F::cast(alpha * p.l1_ratio * nf),
        l2: F::cast(alpha * (1.0 - p.l1_ratio) * nf),
        max_iter: p.max_iter,
        tol: F::cast(p.tol),
        positive: p.positive,
    }
}

/// Reports one sweep to the installed [`ndlearn_core::observe`] observer (criterion: the
/// largest coefficient change relative to the largest coefficient); `true` when it asks to
/// stop (the fit then returns the current coefficients, not converged).
fn sweep_stopped<F: Float>(it: usize, max_iter: usize, d_w_max: F, w_max: F) -> bool {
    if !ndlearn_core::observe::is_observed() {
        return false;
    }
    let rel = if w_max > F::zero() {
        (d_w_max / w_max).to_f64().unwrap_or(f64::NAN)
    } else {
        0.0
    };
    ndlearn_core::observe::report(
        &ndlearn_core::observe::Progress::new("coordinate descent", it + 1)
            .max_iter(max_iter)
            .criterion(rel),
    )
    .is_stop()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ShapeBuilder, array};

    fn settings(l1: f64, l2: f64) -> CdSettings<f64> {
        CdSettings {
            l1,
            l2,
            max_iter: 10_000,
            tol: 1e-14,
            positive: false,
        }
    }

    #[test]
    fn one_dimensional_lasso_worked_example() {
        // The course notes' 1-D lasso: min ½(xβ − y)² + λ|β| ⇒ β̂ = max(y/x − λ/x², 0) for y/x > 0;
        // x = 2, y = 3, λ = 1 ⇒ 1.25; λ ≥ |xy| = 6 ⇒ 0 (catalog TV33).
        let x = array![[2.0]];
        let mut xf = Array2::zeros((1, 1).f());
        xf.assign(&x);
        let xf = ColMajor::new(&xf).expect("column-major");
        for (lambda, want) in [
            (1.0, 1.25),
            (5.9, (6.0 - 5.9) / 4.0),
            (6.0, 0.0),
            (7.0, 0.0),
        ] {
            let mut w = [0.0];
            let out = cd_dense(&xf, &[3.0], &[4.0], &mut w, &settings(lambda, 0.0));
            assert!(out.converged);
            assert!((w[0] - want).abs() < 1e-15, "λ = {lambda}: {}", w[0]);
            let mut wg = [0.0];
            cd_gram(&array![[4.0]], &[6.0], 9.0, &mut wg, &settings(lambda, 0.0));
            assert!((wg[0] - want).abs() < 1e-15);
        }
    }

    #[test]
    fn dense_and_gram_agree_and_satisfy_kkt() {
        let x = array![
            [1.0, 0.2, -0.5],
            [0.3, -1.0, 0.8],
            [-0.7, 0.5, 1.2],
            [1.5, 1.1, -0.3],
            [-0.2, -0.4, 0.6]
        ];
        let y = [1.0, -2.0, 0.5, 3.0, -0.7];
        let mut xf = Array2::zeros((5, 3).f());
        xf.assign(&x);
        let xf = ColMajor::new(&xf).expect("column-major");
        let col_sq: Vec<f64> = x.columns().into_iter().map(|c| c.dot(&c)).collect();
        let g = x.t().dot(&x);
        let yv = ndarray::Array1::from(y.to_vec());
        let q = x.t().dot(&yv);
        for (l1, l2, positive) in [
            (0.5, 0.0, false),
            (0.3, 0.4, false),
            (0.2, 0.0, true),
            (0.0, 0.5, false),
        ] {
            let s = CdSettings {
                positive,
                ..settings(l1, l2)
            };
            let mut wd = [0.0; 3];
            let od = cd_dense(&xf, &y, &col_sq, &mut wd, &s);
            let mut wg = [0.0; 3];
            let og = cd_gram(
                &g,
                q.as_slice().expect("contiguous"),
                yv.dot(&yv),
                &mut wg,
                &s,
            );
            assert!(od.converged && og.converged);
            for j in 0..3 {
                assert!((wd[j] - wg[j]).abs() < 1e-10, "{l1} {l2}: {wd:?} vs {wg:?}");
            }
            // KKT: xⱼᵀR − l2 wⱼ = l1 sign(wⱼ) on the support, |·| ≤ l1 off it.
            let w = ndarray::Array1::from(wd.to_vec());
            let r = &yv - &x.dot(&w);
            for j in 0..3 {
                let g = x.column(j).dot(&r) - l2 * w[j];
                if w[j] != 0.0 {
                    assert!((g - l1 * w[j].signum()).abs() < 1e-6);
                } else if positive {
                    assert!(g <= l1 + 1e-6);
                } else {
                    assert!(g.abs() <= l1 + 1e-6);
                }
            }
            if positive {
                assert!(wd.iter().all(|&v| v >= 0.0));
            }
        }
    }

    #[test]
    fn warm_start_at_the_optimum_takes_no_sweep() {
        let x = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let mut xf = Array2::zeros((3, 2).f());
        xf.assign(&x);
        let xf = ColMajor::new(&xf).expect("column-major");
        let y = [1.0, 2.0, 2.5];
        let col_sq = [2.0, 2.0];
        let s = settings(0.1, 0.0);
        let mut w = [0.0, 0.0];
        let first = cd_dense(&xf, &y, &col_sq, &mut w, &s);
        assert!(first.n_iter > 0);
        let again = cd_dense(&xf, &y, &col_sq, &mut w, &CdSettings { tol: 1e-8, ..s });
        assert_eq!(again.n_iter, 0);
        let mut none = [0.0, 0.0];
        let capped = cd_dense(
            &xf,
            &y,
            &col_sq,
            &mut none,
            &CdSettings { max_iter: 1, ..s },
        );
        assert!(!capped.converged && capped.n_iter == 1);
    }
}
