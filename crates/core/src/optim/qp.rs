//! Convex quadratic programming: `min ½xᵀQx + cᵀx  s.t.  A_eq x = b_eq,  lo ≤ x ≤ hi` (`Q`
//! symmetric positive semidefinite) by a primal–dual interior-point method with Mehrotra's
//! predictor–corrector, followed by an active-set polishing step.
//!
//! # The math (catalog O-10, S-02)
//!
//! The course notes call the SVM primal and dual, and the lasso, QPs and leave the solver open
//! ("use blackbox solvers"). This solver (implementation choice; Nocedal & Wright §16.6,
//! Mehrotra 1992) works on the KKT conditions with bound slacks `s_lo = x − lo`, `s_hi = hi − x`
//! (finite bounds only) and multipliers `z_lo, z_hi ≥ 0`, `λ`:
//!
//! ```text
//! r_d = Qx + c + A_eqᵀλ − z_lo + z_hi = 0,    r_p = A_eq x − b_eq = 0,
//! s_lo ∘ z_lo = σμ,    s_hi ∘ z_hi = σμ,     μ = (s_loᵀz_lo + s_hiᵀz_hi) / n_bounds.
//! ```
//!
//! Each Newton step eliminates `Δz` and solves `(Q + Z_lo S_lo⁻¹ + Z_hi S_hi⁻¹) Δx + Aᵀ Δλ = …`,
//! `A Δx = −r_p` by a Cholesky factorisation of the (slightly regularised) `n × n` block and of
//! the `m × m` Schur complement `A H⁻¹ Aᵀ`; the factorisations serve both the affine (predictor)
//! and the centred (corrector) right-hand sides, with `σ = (μ_aff/μ)³`. Steps keep a fraction
//! `0.995` of the distance to the boundary. The iteration stops when the scaled primal and dual
//! residuals and `μ` are all below `tol`.
//!
//! **Polishing** (implementation choice, as in OSQP): variables whose slack is smaller than their
//! multiplier are fixed at that bound, and the equality-constrained QP in the remaining
//! variables is solved exactly by one (minimum-norm least-squares) KKT solve; the polished point replaces the interior-point
//! one when it is feasible, has multipliers of the right sign and a smaller KKT residual. This
//! gives vertex-exact answers (to rounding) on problems like SVM duals, where many variables sit
//! at `0` or `C`.
//!
//! Fixed variables (`lo = hi`) are eliminated before the iteration. A problem without any finite
//! bound is solved by a single KKT solve.
//!
//! Multipliers follow the sign convention of [`super::LinearProgram`]:
//! `Qx + c + A_eqᵀλ − ν_lo + ν_hi = 0`, `ν ≥ 0` ([`QpResult::eq_multipliers`],
//! [`QpResult::lower_multipliers`], [`QpResult::upper_multipliers`]).
//!
//! # Complexity
//!
//! `O(n³ + n²m + m³)` per iteration (dense factorisations), typically 10–30 iterations.
//! Intended for small and medium problems (SVM duals up to a few hundred samples, tests); large
//! SVMs use SMO in the svm crate.
//!
//! # Status
//!
//! [`QpStatus::Infeasible`] is reported for `lo > hi`; other infeasible problems, and problems
//! that are unbounded below (possible when `Q` is singular), end with [`QpStatus::MaxIter`] and a
//! large residual in [`QpResult::kkt`].

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

use super::kkt::{KktResiduals, linear_kkt};
use crate::linalg::{self, CholeskyFactor};
use crate::{Error, Float, LinalgErrorKind, Result};

/// Outcome of [`QuadraticProgram::solve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum QpStatus {
    /// Converged to the tolerance.
    Optimal,
    /// Some `lo > hi`.
    Infeasible,
    /// The iteration limit was reached (see [`QpResult::kkt`] for how far off it is).
    MaxIter,
}

/// Result of a QP solve.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct QpResult<F: Float> {
    /// What was found.
    pub status: QpStatus,
    /// The solution.
    pub x: Array1<F>,
    /// `½xᵀQx + cᵀx`.
    pub objective: F,
    /// Interior-point iterations.
    pub n_iter: usize,
    /// `λ`, one per equality row.
    pub eq_multipliers: Array1<F>,
    /// `ν_lo ≥ 0`, one per variable (0 for `lo = −∞`).
    pub lower_multipliers: Array1<F>,
    /// `ν_hi ≥ 0`, one per variable (0 for `hi = +∞`).
    pub upper_multipliers: Array1<F>,
    /// KKT residuals of the returned point.
    pub kkt: KktResiduals<F>,
    /// Whether the polishing step produced the returned point.
    pub polished: bool,
}

/// A convex QP, built step by step:
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::optim::{QuadraticProgram, QpStatus};
/// // min ½(x² + y²) − x − y s.t. x + y = 1, 0 ≤ x ≤ 0.2: optimum (0.2, 0.8).
/// let r = QuadraticProgram::new(&array![[1.0, 0.0], [0.0, 1.0]], &array![-1.0, -1.0])
///     .equalities(&array![[1.0, 1.0]], &array![1.0])
///     .bounds(&array![0.0, f64::NEG_INFINITY], &array![0.2, f64::INFINITY])
///     .solve()?;
/// assert_eq!(r.status, QpStatus::Optimal);
/// assert!((r.x[0] - 0.2).abs() < 1e-10 && (r.x[1] - 0.8).abs() < 1e-10);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct QuadraticProgram<F: Float> {
    q: Array2<F>,
    c: Array1<F>,
    a_eq: Array2<F>,
    b_eq: Array1<F>,
    lo: Array1<F>,
    hi: Array1<F>,
    max_iter: usize,
    tol: f64,
    polish: bool,
}

/// Solves `min ½xᵀQx + cᵀx s.t. A_eq x = b_eq, lo ≤ x ≤ hi` (pass a `0 × n` matrix and an
/// empty vector for no equalities, `±∞` for absent bounds). See [`QuadraticProgram`].
pub fn solve_qp<F: Float>(
    q: &ArrayRef2<F>,
    c: &ArrayRef1<F>,
    a_eq: &ArrayRef2<F>,
    b_eq: &ArrayRef1<F>,
    lo: &ArrayRef1<F>,
    hi: &ArrayRef1<F>,
) -> Result<QpResult<F>> {
    QuadraticProgram::new(q, c)
        .equalities(a_eq, b_eq)
        .bounds(lo, hi)
        .solve()
}

impl<F: Float> QuadraticProgram<F> {
    /// `min ½xᵀQx + cᵀx` without constraints (bounds `±∞`).
    pub fn new(q: &ArrayRef2<F>, c: &ArrayRef1<F>) -> Self {
        let n = c.len();
        Self {
            q: q.to_owned(),
            c: c.to_owned(),
            a_eq: Array2::zeros((0, n)),
            b_eq: Array1::zeros(0),
            lo: Array1::from_elem(n, F::neg_infinity()),
            hi: Array1::from_elem(n, F::infinity()),
            max_iter: 200,
            tol: 1e-10,
            polish: true,
        }
    }
    /// Sets `A_eq x = b_eq`.
    pub fn equalities(mut self, a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Self {
        self.a_eq = a.to_owned();
        self.b_eq = b.to_owned();
        self
    }
    /// Sets `lo ≤ x ≤ hi` (`−∞`/`+∞` allowed).
    pub fn bounds(mut self, lo: &ArrayRef1<F>, hi: &ArrayRef1<F>) -> Self {
        self.lo = lo.to_owned();
        self.hi = hi.to_owned();
        self
    }
    crate::setters! {
        /// Sets the iteration limit (default 200).
        max_iter: usize,
        /// Sets the tolerance on the scaled residuals and `μ` (default `1e-10`; at least
        /// `100·ε` of the element type is used).
        tol: f64,
        /// Enables or disables polishing (default on).
        polish: bool,
    }

    fn validate(&self) -> Result<()> {
        let n = self.c.len();
        if n == 0 {
            return Err(Error::TooFewSamples {
                context: "QP: number of variables (length of c)",
                needed: 1,
                found: 0,
            });
        }
        if self.q.dim() != (n, n) {
            return Err(Error::ShapeMismatch {
                context: "QP: Q",
                expected: format!("{n}x{n}"),
                found: format!("{}x{}", self.q.nrows(), self.q.ncols()),
            });
        }
        crate::validate::check_finite_2d(&self.q, "Q")?;
        crate::validate::check_finite_1d(&self.c, "c")?;
        if self.a_eq.ncols() != n || self.a_eq.nrows() != self.b_eq.len() {
            return Err(Error::ShapeMismatch {
                context: "QP: A_eq / b_eq",
                expected: format!("A_eq with {n} columns and as many rows as b_eq"),
                found: format!(
                    "{}x{} with b_eq of length {}",
                    self.a_eq.nrows(),
                    self.a_eq.ncols(),
                    self.b_eq.len()
                ),
            });
        }
        crate::validate::check_finite_2d(&self.a_eq, "A_eq")?;
        crate::validate::check_finite_1d(&self.b_eq, "b_eq")?;
        if self.lo.len() != n || self.hi.len() != n {
            return Err(Error::ShapeMismatch {
                context: "QP: bounds",
                expected: format!("lo and hi of length {n}"),
                found: format!("{} and {}", self.lo.len(), self.hi.len()),
            });
        }
        for j in 0..n {
            let (l, h) = (self.lo[j], self.hi[j]);
            if l.is_nan() || h.is_nan() || l == F::infinity() || h == F::neg_infinity() {
                return Err(Error::invalid_param(
                    "bounds",
                    format!("variable {j}: ({l}, {h}); need numbers with lo < +inf, hi > -inf"),
                ));
            }
        }
        crate::validate::check_at_least("max_iter", self.max_iter, 1)?;
        crate::validate::check_positive("tol", self.tol)?;
        // Q symmetric and positive semidefinite.
        let scale = self.q.iter().fold(F::zero(), |m, v| m.max(v.abs()));
        for i in 0..n {
            for j in (i + 1)..n {
                if (self.q[[i, j]] - self.q[[j, i]]).abs() > F::cast(1e-10) * scale {
                    return Err(Error::invalid_param(
                        "Q",
                        format!("must be symmetric; entries ({i},{j}) and ({j},{i}) differ"),
                    ));
                }
            }
        }
        if scale > F::zero() {
            let w = linalg::eigvalsh(&self.sym_q())?;
            let wmax = w.iter().fold(F::zero(), |m, v| m.max(v.abs()));
            if w[0] < -F::cast(1e-8).max(F::cast(n) * F::epsilon().sqrt()) * wmax {
                return Err(Error::invalid_param(
                    "Q",
                    format!(
                        "must be positive semidefinite; smallest eigenvalue {}",
                        w[0]
                    ),
                ));
            }
        }
        Ok(())
    }

    fn sym_q(&self) -> Array2<F> {
        let half = F::cast(0.5);
        Array2::from_shape_fn(self.q.dim(), |(i, j)| {
            half * (self.q[[i, j]] + self.q[[j, i]])
        })
    }

    /// KKT residuals of a result of this program (from its multipliers).
    ///
    /// Errors: `res.x` of the wrong length; the program's validation errors.
    pub fn kkt_residuals(&self, res: &QpResult<F>) -> Result<KktResiduals<F>> {
        self.validate()?;
        if res.x.len() != self.c.len() {
            return Err(Error::ShapeMismatch {
                context: "QuadraticProgram::kkt_residuals: x",
                expected: self.c.len().to_string(),
                found: res.x.len().to_string(),
            });
        }
        Ok(self.kkt_of(
            &res.x,
            &res.eq_multipliers,
            &res.lower_multipliers,
            &res.upper_multipliers,
        ))
    }

    fn kkt_of(
        &self,
        x: &Array1<F>,
        lam: &Array1<F>,
        zl: &Array1<F>,
        zu: &Array1<F>,
    ) -> KktResiduals<F> {
        let grad = self.q.dot(x) + &self.c;
        let empty2 = Array2::zeros((0, x.len()));
        let empty1 = Array1::zeros(0);
        let lo: Vec<F> = self.lo.to_vec();
        let hi: Vec<F> = self.hi.to_vec();
        linear_kkt(
            &grad,
            x,
            (&empty2, &empty1, &empty1),
            (&self.a_eq, &self.b_eq, lam),
            &lo,
            &hi,
            zl,
            zu,
        )
        .unwrap_or(KktResiduals {
            stationarity: F::infinity(),
            primal_feasibility: F::infinity(),
            dual_feasibility: F::infinity(),
            complementary_slackness: F::infinity(),
            max: F::infinity(),
        })
    }

    /// Solves the program (see the module docs).
    ///
    /// Errors: empty `c`; `Q` not `n × n`, not symmetric or not positive semidefinite; shape
    /// mismatches of `A_eq`, `b_eq`, `lo`, `hi`; non-finite data; NaN bounds, `lo = +∞` or
    /// `hi = −∞`; `max_iter = 0` or `tol ≤ 0`; a singular KKT system when no variable has a
    /// finite bound ([`Error::Linalg`]).
    pub fn solve(&self) -> Result<QpResult<F>> {
        self.validate()?;
        let n = self.c.len();
        let m = self.a_eq.nrows();
        if (0..n).any(|j| self.lo[j] > self.hi[j]) {
            return Ok(QpResult {
                status: QpStatus::Infeasible,
                x: Array1::zeros(n),
                objective: F::infinity(),
                n_iter: 0,
                eq_multipliers: Array1::zeros(m),
                lower_multipliers: Array1::zeros(n),
                upper_multipliers: Array1::zeros(n),
                kkt: self.kkt_of(
                    &Array1::zeros(n),
                    &Array1::zeros(m),
                    &Array1::zeros(n),
                    &Array1::zeros(n),
                ),
                polished: false,
            });
        }
        let q = self.sym_q();
        // Eliminate fixed variables.
        let fixed: Vec<bool> = (0..n).map(|j| self.lo[j] == self.hi[j]).collect();
        let free: Vec<usize> = (0..n).filter(|&j| !fixed[j]).collect();
        let mut x = Array1::from_shape_fn(n, |j| if fixed[j] { self.lo[j] } else { F::zero() });
        let mut lam = Array1::zeros(m);
        let mut n_iter = 0;
        let mut status = QpStatus::Optimal;
        if !free.is_empty() {
            let x_fixed = &x;
            let qf = q.select(Axis(0), &free).select(Axis(1), &free);
            let cf = Array1::from_shape_fn(free.len(), |k| {
                let j = free[k];
                self.c[j]
                    + (0..n)
                        .filter(|&i| fixed[i])
                        .map(|i| q[[j, i]] * x_fixed[i])
                        .sum::<F>()
            });
            let af = self.a_eq.select(Axis(1), &free);
            let bf = &self.b_eq - &self.a_eq.dot(x_fixed);
            let lof = self.lo.select(Axis(0), &free);
            let hif = self.hi.select(Axis(0), &free);
            let sub = Reduced {
                q: qf,
                c: cf,
                a: af,
                b: bf,
                lo: lof,
                hi: hif,
            };
            let tol = F::cast(self.tol).max(F::cast(100.0) * F::epsilon());
            let (xf, lf, it, st) = sub.interior_point(tol, self.max_iter)?;
            n_iter = it;
            status = st;
            for (k, &j) in free.iter().enumerate() {
                x[j] = xf[k];
            }
            lam = lf;
        }
        // Bound multipliers from stationarity: r = Qx + c + Aᵀλ = ν_lo − ν_hi.
        let (zl, zu) = self.bound_multipliers(&q, &x, &lam);
        let mut kkt = self.kkt_of(&x, &lam, &zl, &zu);
        let mut best = (x, lam, zl, zu);
        let mut polished = false;
        if self.polish {
            if let Some((xp, lp)) = self.polish_point(&q, &best.0, &best.2, &best.3) {
                let (pl, pu) = self.bound_multipliers(&q, &xp, &lp);
                let kp = self.kkt_of(&xp, &lp, &pl, &pu);
                if kp.max <= kkt.max {
                    best = (xp, lp, pl, pu);
                    kkt = kp;
                    polished = true;
                }
            }
        }
        let (x, lam, zl, zu) = best;
        let objective = F::cast(0.5) * x.dot(&q.dot(&x)) + self.c.dot(&x);
        Ok(QpResult {
            status,
            x,
            objective,
            n_iter,
            eq_multipliers: lam,
            lower_multipliers: zl,
            upper_multipliers: zu,
            kkt,
            polished,
        })
    }

    /// `ν_lo − ν_hi = Qx + c + Aᵀλ`, split by which bound is closer (0 where infinite).
    fn bound_multipliers(
        &self,
        q: &Array2<F>,
        x: &Array1<F>,
        lam: &Array1<F>,
    ) -> (Array1<F>, Array1<F>) {
        let n = x.len();
        let r = q.dot(x) + &self.c + self.a_eq.t().dot(lam);
        let mut zl = Array1::zeros(n);
        let mut zu = Array1::zeros(n);
        for j in 0..n {
            let (lo, hi) = (self.lo[j], self.hi[j]);
            let (dl, du) = ((x[j] - lo).abs(), (hi - x[j]).abs());
            if lo.is_finite() && (!hi.is_finite() || dl <= du) {
                if r[j] >= F::zero() || !hi.is_finite() {
                    zl[j] = r[j];
                } else {
                    zu[j] = -r[j];
                }
            } else if hi.is_finite() {
                if r[j] <= F::zero() || !lo.is_finite() {
                    zu[j] = -r[j];
                } else {
                    zl[j] = r[j];
                }
            }
        }
        (zl, zu)
    }

    /// Fixes the active bounds and solves the remaining equality-constrained QP exactly.
    fn polish_point(
        &self,
        q: &Array2<F>,
        x: &Array1<F>,
        zl: &Array1<F>,
        zu: &Array1<F>,
    ) -> Option<(Array1<F>, Array1<F>)> {
        let n = x.len();
        let m = self.a_eq.nrows();
        let mut xa = x.clone();
        let mut active = vec![false; n];
        for j in 0..n {
            let (lo, hi) = (self.lo[j], self.hi[j]);
            if lo == hi || (lo.is_finite() && x[j] - lo < zl[j]) {
                active[j] = true;
                xa[j] = lo;
            } else if hi.is_finite() && hi - x[j] < zu[j] {
                active[j] = true;
                xa[j] = hi;
            }
        }
        let free: Vec<usize> = (0..n).filter(|&j| !active[j]).collect();
        let nf = free.len();
        if nf + m == 0 {
            return Some((xa, Array1::zeros(0)));
        }
        // [[Q_FF, A_Fᵀ], [A_F, 0]] [x_F; λ] = [−c_F − Q_FA x_A; b − A_A x_A].
        let mut k = Array2::zeros((nf + m, nf + m));
        let mut rhs = Array1::zeros(nf + m);
        let xact = Array1::from_shape_fn(n, |j| if active[j] { xa[j] } else { F::zero() });
        let qxa = q.dot(&xact);
        let axa = self.a_eq.dot(&xact);
        for (s, &i) in free.iter().enumerate() {
            for (t, &j) in free.iter().enumerate() {
                k[[s, t]] = q[[i, j]];
            }
            for r in 0..m {
                k[[s, nf + r]] = self.a_eq[[r, i]];
                k[[nf + r, s]] = self.a_eq[[r, i]];
            }
            rhs[s] = -self.c[i] - qxa[i];
        }
        for r in 0..m {
            rhs[nf + r] = self.b_eq[r] - axa[r];
        }
        // Minimum-norm least squares: the KKT matrix is singular when λ is not unique (e.g. all
        // variables at bounds) or Q_FF is singular; the residual check rejects inconsistency.
        let sol = linalg::lstsq(&k, &rhs, None).ok()?.solution;
        let res = k.dot(&sol) - &rhs;
        let scale = F::one() + rhs.iter().fold(F::zero(), |m, v| m.max(v.abs()));
        if sol.iter().any(|v| !v.is_finite())
            || res.iter().any(|v| v.abs() > F::epsilon().sqrt() * scale)
        {
            return None;
        }
        for (s, &j) in free.iter().enumerate() {
            xa[j] = sol[s];
        }
        let lam = Array1::from_shape_fn(m, |r| sol[nf + r]);
        Some((xa, lam))
    }
}

/// The QP in the free (non-fixed) variables.
struct Reduced<F: Float> {
    q: Array2<F>,
    c: Array1<F>,
    a: Array2<F>,
    b: Array1<F>,
    lo: Array1<F>,
    hi: Array1<F>,
}

/// A factorised Newton system of one interior-point iteration.
struct NewtonSystem<F: Float> {
    h: CholeskyFactor<F>,
    /// `W = H⁻¹Aᵀ` (`n × m`).
    w: Array2<F>,
    s: Option<CholeskyFactor<F>>,
}

/// Cholesky of `a + δI` with the smallest `δ ∈ {δ₀, 100δ₀, …}` that works.
fn regularised_cholesky<F: Float>(a: &Array2<F>, op: &'static str) -> Result<CholeskyFactor<F>> {
    let n = a.nrows();
    let scale = a.diag().iter().fold(F::one(), |m, v| m.max(v.abs()));
    let mut delta = F::cast(10.0) * F::epsilon() * scale;
    let mut reg = a.clone();
    let mut added = F::zero();
    for _ in 0..12 {
        for i in 0..n {
            reg[[i, i]] += delta - added;
        }
        added = delta;
        if let Ok(c) = CholeskyFactor::new(&reg) {
            return Ok(c);
        }
        delta *= F::cast(100.0);
    }
    Err(Error::Linalg {
        op,
        kind: LinalgErrorKind::NotPositiveDefinite,
        detail: Some("interior-point Newton system could not be factorised".into()),
    })
}

impl<F: Float> Reduced<F> {
    /// Mehrotra predictor–corrector. Returns `(x, λ, iterations, status)`.
    fn interior_point(
        &self,
        tol: F,
        max_iter: usize,
    ) -> Result<(Array1<F>, Array1<F>, usize, QpStatus)> {
        let n = self.c.len();
        let m = self.a.nrows();
        let has_l: Vec<bool> = self.lo.iter().map(|v| v.is_finite()).collect();
        let has_u: Vec<bool> = self.hi.iter().map(|v| v.is_finite()).collect();
        let n_c = has_l.iter().chain(has_u.iter()).filter(|&&b| b).count();
        let zero = F::zero();
        let one = F::one();
        if n_c == 0 {
            // No bounds: one KKT solve.
            let mut k = Array2::zeros((n + m, n + m));
            k.slice_mut(ndarray::s![..n, ..n]).assign(&self.q);
            k.slice_mut(ndarray::s![..n, n..]).assign(&self.a.t());
            k.slice_mut(ndarray::s![n.., ..n]).assign(&self.a);
            let mut rhs = Array1::zeros(n + m);
            rhs.slice_mut(ndarray::s![..n]).assign(&self.c.mapv(|v| -v));
            rhs.slice_mut(ndarray::s![n..]).assign(&self.b);
            let sol = linalg::solve(&k, &rhs)?;
            return Ok((
                sol.slice(ndarray::s![..n]).to_owned(),
                sol.slice(ndarray::s![n..]).to_owned(),
                1,
                QpStatus::Optimal,
            ));
        }
        // Starting point strictly inside the bounds.
        let mut x = Array1::from_shape_fn(n, |j| match (has_l[j], has_u[j]) {
            (true, true) => F::cast(0.5) * (self.lo[j] + self.hi[j]),
            (true, false) => self.lo[j] + one,
            (false, true) => self.hi[j] - one,
            (false, false) => zero,
        });
        let mut lam: Array1<F> = Array1::zeros(m);
        let mut zl = Array1::from_shape_fn(n, |j| if has_l[j] { one } else { zero });
        let mut zu = Array1::from_shape_fn(n, |j| if has_u[j] { one } else { zero });
        let b_scale = one + self.b.iter().fold(zero, |s, v| s.max(v.abs()));
        let c_scale = one + self.c.iter().fold(zero, |s, v| s.max(v.abs()));
        let tau = F::cast(0.995);
        for it in 0..max_iter {
            // Slacks, floored at the rounding level of the bound (x − lo can round to 0 when
            // |lo| is large and x is within an ulp of it).
            let floor = |b: F| F::epsilon() * (one + b.abs());
            let sl = Array1::from_shape_fn(n, |j| {
                if has_l[j] {
                    (x[j] - self.lo[j]).max(floor(self.lo[j]))
                } else {
                    one
                }
            });
            let su = Array1::from_shape_fn(n, |j| {
                if has_u[j] {
                    (self.hi[j] - x[j]).max(floor(self.hi[j]))
                } else {
                    one
                }
            });
            let rd = self.q.dot(&x) + &self.c + self.a.t().dot(&lam) - &zl + &zu;
            let rp = self.a.dot(&x) - &self.b;
            let mu = (0..n)
                .map(|j| {
                    (if has_l[j] { sl[j] * zl[j] } else { zero })
                        + (if has_u[j] { su[j] * zu[j] } else { zero })
                })
                .sum::<F>()
                / F::cast(n_c);
            let obj = F::cast(0.5) * x.dot(&self.q.dot(&x)) + self.c.dot(&x);
            let pres = rp.iter().fold(zero, |s, v| s.max(v.abs())) / b_scale;
            let dres = rd.iter().fold(zero, |s, v| s.max(v.abs())) / c_scale;
            if pres <= tol && dres <= tol && mu <= tol * (one + obj.abs()) {
                return Ok((x, lam, it, QpStatus::Optimal));
            }
            if ![pres, dres, mu].iter().all(|v| v.is_finite()) {
                return Ok((x, lam, it, QpStatus::MaxIter));
            }
            let d = Array1::from_shape_fn(n, |j| {
                (if has_l[j] { zl[j] / sl[j] } else { zero })
                    + (if has_u[j] { zu[j] / su[j] } else { zero })
            });
            let mut h = self.q.clone();
            for j in 0..n {
                h[[j, j]] += d[j];
            }
            let sys = self.factor(&h)?;
            // Predictor (σ = 0).
            let rl = Array1::from_shape_fn(n, |j| if has_l[j] { sl[j] * zl[j] } else { zero });
            let ru = Array1::from_shape_fn(n, |j| if has_u[j] { su[j] * zu[j] } else { zero });
            let (dx_a, _, dzl_a, dzu_a) =
                self.direction(&sys, &rd, &rp, &rl, &ru, &sl, &su, &zl, &zu, &has_l, &has_u)?;
            let a_aff =
                max_step(&sl, &su, &zl, &zu, &dx_a, &dzl_a, &dzu_a, &has_l, &has_u).min(one);
            let mu_aff = (0..n)
                .map(|j| {
                    (if has_l[j] {
                        (sl[j] + a_aff * dx_a[j]) * (zl[j] + a_aff * dzl_a[j])
                    } else {
                        zero
                    }) + (if has_u[j] {
                        (su[j] - a_aff * dx_a[j]) * (zu[j] + a_aff * dzu_a[j])
                    } else {
                        zero
                    })
                })
                .sum::<F>()
                / F::cast(n_c);
            let sigma = (mu_aff / mu).powi(3).min(one);
            // Corrector.
            let rl = Array1::from_shape_fn(n, |j| {
                if has_l[j] {
                    sl[j] * zl[j] + dx_a[j] * dzl_a[j] - sigma * mu
                } else {
                    zero
                }
            });
            let ru = Array1::from_shape_fn(n, |j| {
                if has_u[j] {
                    su[j] * zu[j] - dx_a[j] * dzu_a[j] - sigma * mu
                } else {
                    zero
                }
            });
            let (dx, dl, dzl, dzu) =
                self.direction(&sys, &rd, &rp, &rl, &ru, &sl, &su, &zl, &zu, &has_l, &has_u)?;
            let alpha =
                (tau * max_step(&sl, &su, &zl, &zu, &dx, &dzl, &dzu, &has_l, &has_u)).min(one);
            x.scaled_add(alpha, &dx);
            lam.scaled_add(alpha, &dl);
            zl.scaled_add(alpha, &dzl);
            zu.scaled_add(alpha, &dzu);
        }
        Ok((x, lam, max_iter, QpStatus::MaxIter))
    }

    fn factor(&self, h: &Array2<F>) -> Result<NewtonSystem<F>> {
        let hc = regularised_cholesky(h, "qp")?;
        let m = self.a.nrows();
        if m == 0 {
            return Ok(NewtonSystem {
                h: hc,
                w: Array2::zeros((h.nrows(), 0)),
                s: None,
            });
        }
        let w = hc.solve_many(&self.a.t())?;
        let s = self.a.dot(&w);
        let half = F::cast(0.5);
        let s = Array2::from_shape_fn(s.dim(), |(i, j)| half * (s[[i, j]] + s[[j, i]]));
        let sc = regularised_cholesky(&s, "qp")?;
        Ok(NewtonSystem {
            h: hc,
            w,
            s: Some(sc),
        })
    }

    /// Solves the Newton system for the given complementarity right-hand sides.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn direction(
        &self,
        sys: &NewtonSystem<F>,
        rd: &Array1<F>,
        rp: &Array1<F>,
        rl: &Array1<F>,
        ru: &Array1<F>,
        sl: &Array1<F>,
        su: &Array1<F>,
        zl: &Array1<F>,
        zu: &Array1<F>,
        has_l: &[bool],
        has_u: &[bool],
    ) -> Result<(Array1<F>, Array1<F>, Array1<F>, Array1<F>)> {
        let n = rd.len();
        let zero = F::zero();
        let rhs1 = Array1::from_shape_fn(n, |j| {
            -rd[j] - (if has_l[j] { rl[j] / sl[j] } else { zero })
                + (if has_u[j] { ru[j] / su[j] } else { zero })
        });
        let h_rhs = sys.h.solve(&rhs1)?;
        let (dx, dl) = match &sys.s {
            Some(sc) => {
                // S Δλ = A H⁻¹ rhs1 + r_p;  Δx = H⁻¹ rhs1 − W Δλ.
                let dl = sc.solve(&(self.a.dot(&h_rhs) + rp))?;
                (h_rhs - sys.w.dot(&dl), dl)
            }
            None => (h_rhs, Array1::zeros(0)),
        };
        let dzl = Array1::from_shape_fn(n, |j| {
            if has_l[j] {
                (-rl[j] - zl[j] * dx[j]) / sl[j]
            } else {
                zero
            }
        });
        let dzu = Array1::from_shape_fn(n, |j| {
            if has_u[j] {
                (-ru[j] + zu[j] * dx[j]) / su[j]
            } else {
                zero
            }
        });
        Ok((dx, dl, dzl, dzu))
    }
}

/// Largest `α` keeping slacks and multipliers non-negative.
#[allow(clippy::too_many_arguments)]
fn max_step<F: Float>(
    sl: &Array1<F>,
    su: &Array1<F>,
    zl: &Array1<F>,
    zu: &Array1<F>,
    dx: &Array1<F>,
    dzl: &Array1<F>,
    dzu: &Array1<F>,
    has_l: &[bool],
    has_u: &[bool],
) -> F {
    let mut a = F::infinity();
    let mut limit = |s: F, ds: F| {
        if ds < F::zero() {
            a = a.min(-s / ds);
        }
    };
    for j in 0..sl.len() {
        if has_l[j] {
            limit(sl[j], dx[j]);
            limit(zl[j], dzl[j]);
        }
        if has_u[j] {
            limit(su[j], -dx[j]);
            limit(zu[j], dzu[j]);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn box_constrained_and_equality() {
        // min ½‖x − p‖² over the box [0, 1]² with p = (2, −1): the projection (1, 0).
        let q = Array2::<f64>::eye(2);
        let p = array![2.0, -1.0];
        let r = QuadraticProgram::new(&q, &p.mapv(|v| -v))
            .bounds(&array![0.0, 0.0], &array![1.0, 1.0])
            .solve()
            .expect("ok");
        assert_eq!(r.status, QpStatus::Optimal);
        assert!(
            (&r.x - &array![1.0, 0.0]).iter().all(|v| v.abs() < 1e-12),
            "{}",
            r.x
        );
        assert!(r.kkt.max < 1e-12 && r.polished);
        // Multipliers (by hand): gradient x − p = (−1, 1) ⇒ ν_hi₀ = 1, ν_lo₁ = 1.
        assert!(
            (r.upper_multipliers[0] - 1.0).abs() < 1e-12
                && (r.lower_multipliers[1] - 1.0).abs() < 1e-12
        );
        // Projection onto {x₀ + x₁ + x₂ = 1} of (1, 2, 3): subtract the mean excess 5/3 ⇒
        // (−2/3, 1/3, 4/3); λ = 5/3 (stationarity x − p + λ·1 = 0).
        let r = QuadraticProgram::new(&Array2::<f64>::eye(3), &array![-1.0, -2.0, -3.0])
            .equalities(&array![[1.0, 1.0, 1.0]], &array![1.0])
            .solve()
            .expect("ok");
        assert!(
            (&r.x - &array![-2.0 / 3.0, 1.0 / 3.0, 4.0 / 3.0])
                .iter()
                .all(|v| v.abs() < 1e-12)
        );
        assert!((r.eq_multipliers[0] - 5.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn tiny_svm_dual() {
        // Two points x₁ = (1, 0) (y = +1), x₂ = (−1, 0) (y = −1). Dual: min ½αᵀQα − 1ᵀα,
        // Q = (yyᵀ)∘(XXᵀ) = [[1, 1], [1, 1]], yᵀα = 0, 0 ≤ α ≤ C. By hand α₁ = α₂ = a,
        // objective 2a² − 2a, minimum at a = 1/2 (hard margin: w = Σαᵢyᵢxᵢ = (1, 0)).
        let q = array![[1.0, 1.0], [1.0, 1.0]];
        for c_box in [10.0, 0.3] {
            let r = solve_qp(
                &q,
                &array![-1.0, -1.0],
                &array![[1.0, -1.0]],
                &array![0.0],
                &array![0.0, 0.0],
                &array![c_box, c_box],
            )
            .expect("ok");
            let a = 0.5f64.min(c_box);
            assert!(
                (r.x[0] - a).abs() < 1e-10 && (r.x[1] - a).abs() < 1e-10,
                "C={c_box}: {}",
                r.x
            );
            assert!((r.objective - (2.0 * a * a - 2.0 * a)).abs() < 1e-12);
            assert!(r.kkt.max < 1e-10, "{:?}", r.kkt);
        }
    }

    #[test]
    fn fixed_variables_singular_q_and_f32() {
        // x₁ fixed at 2 (lo = hi); min ½x₀² + x₀x₁ ... Q = [[1, 1], [1, 1]] (singular, PSD),
        // c = 0: with x₁ = 2, min ½x₀² + 2x₀ over x₀ ≥ −1 ⇒ x₀ = −1 (unconstrained −2).
        let q = array![[1.0, 1.0], [1.0, 1.0]];
        let r = QuadraticProgram::new(&q, &array![0.0, 0.0])
            .bounds(&array![-1.0, 2.0], &array![f64::INFINITY, 2.0])
            .solve()
            .expect("ok");
        assert!((r.x[0] + 1.0).abs() < 1e-10 && r.x[1] == 2.0, "{}", r.x);
        assert!(r.kkt.max < 1e-9, "{:?}", r.kkt);
        // f32 box projection.
        let r = QuadraticProgram::new(&Array2::<f32>::eye(2), &array![-2.0f32, 1.0])
            .bounds(&array![0.0f32, 0.0], &array![1.0f32, 1.0])
            .solve()
            .expect("ok");
        assert!(
            (r.x[0] - 1.0).abs() < 1e-5 && r.x[1].abs() < 1e-5,
            "{}",
            r.x
        );
    }

    #[test]
    fn statuses_and_errors() {
        let q = Array2::<f64>::eye(2);
        let c = array![1.0, 1.0];
        let inf = QuadraticProgram::new(&q, &c)
            .bounds(&array![1.0, 0.0], &array![0.0, 1.0])
            .solve()
            .expect("ok");
        assert_eq!(inf.status, QpStatus::Infeasible);
        // Unbounded along a zero-curvature direction: ends with MaxIter and a big residual.
        let r = QuadraticProgram::new(&array![[1.0, 0.0], [0.0, 0.0]], &array![0.0, -1.0])
            .bounds(&array![-1.0, 0.0], &array![1.0, f64::INFINITY])
            .max_iter(30)
            .solve()
            .expect("ok");
        assert_eq!(r.status, QpStatus::MaxIter);
        // Unbounded and without any bound: the KKT system is singular.
        assert!(matches!(
            QuadraticProgram::new(&array![[1.0, 0.0], [0.0, 0.0]], &array![0.0, -1.0]).solve(),
            Err(Error::Linalg { .. })
        ));
        assert!(
            QuadraticProgram::new(&array![[1.0, 0.0], [0.0, -1.0]], &c)
                .solve()
                .is_err(),
            "indefinite"
        );
        assert!(
            QuadraticProgram::new(&array![[1.0, 0.5], [0.0, 1.0]], &c)
                .solve()
                .is_err(),
            "asymmetric"
        );
        assert!(
            QuadraticProgram::new(&Array2::<f64>::eye(3), &c)
                .solve()
                .is_err()
        );
        assert!(
            QuadraticProgram::new(&Array2::<f64>::zeros((0, 0)), &Array1::zeros(0))
                .solve()
                .is_err()
        );
        assert!(
            QuadraticProgram::new(&q, &c)
                .equalities(&array![[1.0]], &array![1.0])
                .solve()
                .is_err()
        );
        assert!(
            QuadraticProgram::new(&q, &c)
                .bounds(&array![0.0], &array![1.0])
                .solve()
                .is_err()
        );
        assert!(
            QuadraticProgram::new(&q, &c)
                .bounds(&array![f64::NAN, 0.0], &array![1.0, 1.0])
                .solve()
                .is_err()
        );
        assert!(QuadraticProgram::new(&q, &c).max_iter(0).solve().is_err());
        assert!(QuadraticProgram::new(&q, &c).tol(0.0).solve().is_err());
        assert!(
            QuadraticProgram::new(&q, &array![f64::NAN, 1.0])
                .solve()
                .is_err()
        );
    }
}
