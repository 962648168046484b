//! Linear programming: `min cᵀx  s.t.  A_ub x ≤ b_ub,  A_eq x = b_eq,  loⱼ ≤ xⱼ ≤ hiⱼ` by a
//! dense two-phase simplex method with an anti-cycling pivot rule.
//!
//! # The math (catalog O-10)
//!
//! The course notes state the LP `min cᵀx + d s.t. Ax ≤ e, Bx = f`, that its optimum lies at a
//! vertex of the feasible polytope, and that `v* = +∞` when infeasible and `−∞` when unbounded.
//! They name no algorithm; this module implements the textbook simplex method (implementation
//! choice; Nocedal & Wright ch. 13, Bertsimas & Tsitsiklis ch. 3):
//!
//! 1. **Standard form** `min c̃ᵀz s.t. Ãz = b̃, z ≥ 0`: a variable with a finite lower bound is
//!    shifted, `x = lo + z` (a finite upper bound adds the row `z + s = hi − lo`); one with only
//!    an upper bound is mirrored, `x = hi − z`; a free one is split, `x = z⁺ − z⁻`. Inequality
//!    rows get slacks `s ≥ 0`. Rows are negated so that `b̃ ≥ 0`.
//! 2. **Starting basis**: each row takes a column that is a positive unit vector in it (a slack,
//!    or a structural column with a single non-zero, e.g. LAD's residual parts), else an
//!    artificial variable.
//! 3. **Phase 1** minimises the sum of the artificials; a positive optimum proves infeasibility.
//!    Artificials left in the basis at zero are pivoted out, or their row is dropped as
//!    redundant.
//! 4. **Phase 2** minimises `c̃ᵀz`. An entering column without a positive entry proves
//!    unboundedness.
//!
//! **Pivot rule.** [`PivotRule::Bland`] (lowest-index entering column with negative reduced
//! cost, ties in the ratio test broken by the lowest basic index) never cycles. The default
//! [`PivotRule::Largest`] takes the most negative reduced cost (fewer iterations) and switches to
//! Bland's rule after 20 consecutive degenerate pivots, until the objective strictly improves;
//! since the objective never increases and strictly decreases between Bland phases, no basis
//! repeats, so it terminates too.
//!
//! **Duals.** At an optimum the multipliers `y` of the standard form are read off the final
//! reduced costs of the starting unit columns (`dⱼ = cⱼ − yᵣ` for a starting column `eᵣ`) or,
//! when artificials were needed, recovered from the final basis `B` by solving `Bᵀy = c_B` (QR) and reported in the KKT sign convention of the Lagrangian
//! `L = cᵀx + μᵀ(A_ub x − b_ub) + λᵀ(A_eq x − b_eq) + ν_loᵀ(lo − x) + ν_hiᵀ(x − hi)`:
//! stationarity `c + A_ubᵀμ + A_eqᵀλ − ν_lo + ν_hi = 0`, `μ, ν ≥ 0` ([`LpDuals`]). scipy's
//! `linprog` reports `ineqlin.marginals = −μ`, `eqlin.marginals = −λ`, `lower.marginals = ν_lo`,
//! `upper.marginals = −ν_hi`. Check them with [`LinearProgram::kkt_residuals`].
//!
//! # Complexity
//!
//! Each pivot costs `O(m·k)` on the dense `m × (n + slacks + artificials)` tableau, `k` = the
//! non-zeros of the pivot row (LAD tableaux are sparse). The number of pivots is usually a small
//! multiple of `m + n` (worst case exponential). Fine for the intended sizes (LAD regression with
//! `n ≤ ~1000` rows, feasibility checks); large LPs need an interior-point or revised simplex
//! code.
//!
//! # Tolerances
//!
//! Pivot elements and reduced costs below `10⁻¹·√ε` (times `max(1, max|c|)` for reduced costs)
//! count as zero; phase 1 declares infeasibility when the artificial sum exceeds
//! `√ε·max(1, max|b̃|)`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

mod tableau;
#[cfg(test)]
mod tests;

use self::tableau::{Run, Tableau};
use super::kkt::{KktResiduals, linear_kkt};
use crate::{Error, Float, Result, linalg};

/// Outcome of a linear program. Infeasible and unbounded problems are answers, not errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LpStatus {
    /// An optimal vertex was found.
    Optimal,
    /// No point satisfies the constraints (`v* = +∞`).
    Infeasible,
    /// The objective is unbounded below on the feasible set (`v* = −∞`).
    Unbounded,
    /// The pivot limit was reached.
    MaxIter,
}

/// Anti-cycling pivot rule of the simplex method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PivotRule {
    /// Bland's rule throughout (provably finite, often slow).
    Bland,
    /// Most negative reduced cost (Dantzig), switching to Bland's rule while pivots are
    /// degenerate (finite as well; the default).
    Largest,
}

/// Lagrange multipliers of an optimal LP (KKT sign convention, see the module docs).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LpDuals<F: Float> {
    /// `μ ≥ 0`, one per inequality row.
    pub ineq: Array1<F>,
    /// `λ` (free sign), one per equality row.
    pub eq: Array1<F>,
    /// `ν_lo ≥ 0`, one per variable (0 where `lo = −∞`).
    pub lower: Array1<F>,
    /// `ν_hi ≥ 0`, one per variable (0 where `hi = +∞`).
    pub upper: Array1<F>,
}

/// Result of [`linprog`] / [`LinearProgram::solve`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LpResult<F: Float> {
    /// What was found.
    pub status: LpStatus,
    /// The optimal vertex for [`LpStatus::Optimal`]; otherwise the last basic solution (not
    /// meaningful for `Infeasible`; a feasible vertex where the unbounded ray starts for
    /// `Unbounded`).
    pub x: Array1<F>,
    /// `cᵀx` (`+∞` for infeasible, `−∞` for unbounded problems, as in the course notes).
    pub objective: F,
    /// Simplex pivots performed (both phases).
    pub n_iter: usize,
    /// Multipliers at an optimum (`None` otherwise).
    pub duals: Option<LpDuals<F>>,
}

/// A linear program, built step by step:
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::optim::{LinearProgram, LpStatus};
/// // max x + y s.t. x + 2y ≤ 4, 3x + y ≤ 6, x, y ≥ 0  ⇒  min −x − y; optimum (1.6, 1.2).
/// let r = LinearProgram::new(&array![-1.0f64, -1.0])
///     .inequalities(&array![[1.0, 2.0], [3.0, 1.0]], &array![4.0, 6.0])
///     .solve()?;
/// assert_eq!(r.status, LpStatus::Optimal);
/// assert!((r.x[0] - 1.6).abs() < 1e-12 && (r.x[1] - 1.2).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct LinearProgram<F: Float> {
    c: Array1<F>,
    a_ub: Array2<F>,
    b_ub: Array1<F>,
    a_eq: Array2<F>,
    b_eq: Array1<F>,
    bounds: Vec<(F, F)>,
    max_iter: usize,
    rule: PivotRule,
}

impl<F: Float> LinearProgram<F> {
    /// `min cᵀx` with default bounds `0 ≤ x < ∞` (as scipy) and no constraints.
    pub fn new(c: &ArrayRef1<F>) -> Self {
        let n = c.len();
        Self {
            c: c.to_owned(),
            a_ub: Array2::zeros((0, n)),
            b_ub: Array1::zeros(0),
            a_eq: Array2::zeros((0, n)),
            b_eq: Array1::zeros(0),
            bounds: Vec::new(),
            max_iter: 50_000,
            rule: PivotRule::Largest,
        }
    }
    /// Sets the inequality constraints `A_ub x ≤ b_ub`.
    pub fn inequalities(mut self, a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Self {
        self.a_ub = a.to_owned();
        self.b_ub = b.to_owned();
        self
    }
    /// Sets the equality constraints `A_eq x = b_eq`.
    pub fn equalities(mut self, a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Self {
        self.a_eq = a.to_owned();
        self.b_eq = b.to_owned();
        self
    }
    /// Sets the bounds: empty = `(0, +∞)` for every variable, one pair = the same for all,
    /// else one `(lo, hi)` per variable; `lo = −∞` and `hi = +∞` are allowed.
    pub fn bounds(mut self, bounds: Vec<(F, F)>) -> Self {
        self.bounds = bounds;
        self
    }
    crate::setters! {
        /// Sets the pivot limit (default 50 000).
        max_iter: usize,
    }
    /// Sets the pivot rule (default [`PivotRule::Largest`]).
    pub fn pivot_rule(mut self, v: PivotRule) -> Self {
        self.rule = v;
        self
    }

    /// Solves the program.
    ///
    /// Errors: empty or non-finite `c`; constraint matrices without `n` columns or with a
    /// right-hand side of the wrong length; non-finite matrix entries; NaN bounds,
    /// `lo = +∞` or `hi = −∞`; a bounds list that is not of length 0, 1 or `n`;
    /// `max_iter = 0`. (`lo > hi` is reported as [`LpStatus::Infeasible`].)
    pub fn solve(&self) -> Result<LpResult<F>> {
        let bounds = self.validate()?;
        let n = self.c.len();
        if bounds.iter().any(|&(lo, hi)| lo > hi) {
            return Ok(LpResult {
                status: LpStatus::Infeasible,
                x: Array1::zeros(n),
                objective: F::infinity(),
                n_iter: 0,
                duals: None,
            });
        }
        let sf = StandardForm::build(self, &bounds);
        sf.solve(self)
    }

    /// KKT residuals ([`KktResiduals`]) of an optimal result of this program, from its
    /// multipliers ([`LpResult::duals`]).
    ///
    /// Errors: `res` without multipliers (not optimal) or with `x` of the wrong length; the
    /// program's own validation errors.
    pub fn kkt_residuals(&self, res: &LpResult<F>) -> Result<KktResiduals<F>> {
        let bounds = self.validate()?;
        let d = res.duals.as_ref().ok_or_else(|| {
            Error::invalid_param("res", "no multipliers: the LP was not solved to optimality")
        })?;
        if res.x.len() != self.c.len() {
            return Err(Error::ShapeMismatch {
                context: "LinearProgram::kkt_residuals: x",
                expected: self.c.len().to_string(),
                found: res.x.len().to_string(),
            });
        }
        let lo: Vec<F> = bounds.iter().map(|b| b.0).collect();
        let hi: Vec<F> = bounds.iter().map(|b| b.1).collect();
        linear_kkt(
            &self.c,
            &res.x,
            (&self.a_ub, &self.b_ub, &d.ineq),
            (&self.a_eq, &self.b_eq, &d.eq),
            &lo,
            &hi,
            &d.lower,
            &d.upper,
        )
    }

    fn validate(&self) -> Result<Vec<(F, F)>> {
        let n = self.c.len();
        if n == 0 {
            return Err(Error::TooFewSamples {
                context: "linprog: number of variables (length of c)",
                needed: 1,
                found: 0,
            });
        }
        crate::validate::check_finite_1d(&self.c, "c")?;
        for (a, b, name) in [
            (&self.a_ub, &self.b_ub, "A_ub"),
            (&self.a_eq, &self.b_eq, "A_eq"),
        ] {
            if a.ncols() != n || a.nrows() != b.len() {
                return Err(Error::ShapeMismatch {
                    context: "linprog: constraint matrix / right-hand side",
                    expected: format!("{name} with {n} columns and as many rows as b"),
                    found: format!("{}x{} with b of length {}", a.nrows(), a.ncols(), b.len()),
                });
            }
            crate::validate::check_finite_2d(a, name)?;
            crate::validate::check_finite_1d(b, if name == "A_ub" { "b_ub" } else { "b_eq" })?;
        }
        crate::validate::check_at_least("max_iter", self.max_iter, 1)?;
        let bounds = match self.bounds.len() {
            0 => vec![(F::zero(), F::infinity()); n],
            1 => vec![self.bounds[0]; n],
            k if k == n => self.bounds.clone(),
            k => {
                return Err(Error::ShapeMismatch {
                    context: "linprog: bounds",
                    expected: format!("0, 1 or {n} (lo, hi) pairs"),
                    found: k.to_string(),
                });
            }
        };
        for (j, &(lo, hi)) in bounds.iter().enumerate() {
            if lo.is_nan() || hi.is_nan() || lo == F::infinity() || hi == F::neg_infinity() {
                return Err(Error::invalid_param(
                    "bounds",
                    format!(
                        "variable {j}: bounds ({lo}, {hi}) must be numbers with lo < +inf, hi > -inf"
                    ),
                ));
            }
        }
        Ok(bounds)
    }
}

/// Solves `min cᵀx s.t. A_ub x ≤ b_ub, A_eq x = b_eq, bounds` (scipy's argument order). Pass
/// `0 × n` matrices and empty vectors for absent constraints and `&[]` for the default bounds
/// `0 ≤ x < ∞`; see [`LinearProgram`] for the rest.
pub fn linprog<F: Float>(
    c: &ArrayRef1<F>,
    a_ub: &ArrayRef2<F>,
    b_ub: &ArrayRef1<F>,
    a_eq: &ArrayRef2<F>,
    b_eq: &ArrayRef1<F>,
    bounds: &[(F, F)],
) -> Result<LpResult<F>> {
    LinearProgram::new(c)
        .inequalities(a_ub, b_ub)
        .equalities(a_eq, b_eq)
        .bounds(bounds.to_vec())
        .solve()
}

/// How an original variable maps to standard-form columns.
#[derive(Debug, Clone, Copy)]
enum VarMap<F> {
    /// `x = lo + z[col]`.
    Shift { col: usize, lo: F },
    /// `x = hi − z[col]`.
    Mirror { col: usize, hi: F },
    /// `x = z[pos] − z[neg]`.
    Split { pos: usize, neg: usize },
}

#[derive(Debug, Clone, Copy)]
enum RowKind {
    Ub(usize),
    Eq(usize),
    Bound(usize),
}

/// The standard form `min c̃ᵀz s.t. Ãz = b̃, z ≥ 0` (before row normalisation).
struct StandardForm<F: Float> {
    a: Array2<F>,
    b: Array1<F>,
    c: Array1<F>,
    vars: Vec<VarMap<F>>,
    rows: Vec<RowKind>,
}

impl<F: Float> StandardForm<F> {
    fn build(lp: &LinearProgram<F>, bounds: &[(F, F)]) -> Self {
        let n = lp.c.len();
        let mut vars = Vec::with_capacity(n);
        let mut n_struct = 0;
        let mut bound_rows = Vec::new();
        for (j, &(lo, hi)) in bounds.iter().enumerate() {
            if lo.is_finite() {
                vars.push(VarMap::Shift { col: n_struct, lo });
                if hi.is_finite() {
                    bound_rows.push((j, n_struct, hi - lo));
                }
                n_struct += 1;
            } else if hi.is_finite() {
                vars.push(VarMap::Mirror { col: n_struct, hi });
                n_struct += 1;
            } else {
                vars.push(VarMap::Split {
                    pos: n_struct,
                    neg: n_struct + 1,
                });
                n_struct += 2;
            }
        }
        let (m_ub, m_eq) = (lp.a_ub.nrows(), lp.a_eq.nrows());
        let m = m_ub + m_eq + bound_rows.len();
        let n_slack = m_ub + bound_rows.len();
        let mut a = Array2::zeros((m, n_struct + n_slack));
        let mut b = Array1::zeros(m);
        let mut rows = Vec::with_capacity(m);
        let mut put = |r: usize, coefs: ndarray::ArrayView1<'_, F>, rhs: F, a: &mut Array2<F>| {
            let mut rhs = rhs;
            for (j, &v) in coefs.iter().enumerate() {
                if v == F::zero() {
                    continue;
                }
                match vars[j] {
                    VarMap::Shift { col, lo } => {
                        a[[r, col]] += v;
                        rhs -= v * lo;
                    }
                    VarMap::Mirror { col, hi } => {
                        a[[r, col]] -= v;
                        rhs -= v * hi;
                    }
                    VarMap::Split { pos, neg } => {
                        a[[r, pos]] += v;
                        a[[r, neg]] -= v;
                    }
                }
            }
            b[r] = rhs;
        };
        for k in 0..m_ub {
            put(k, lp.a_ub.row(k), lp.b_ub[k], &mut a);
            a[[k, n_struct + k]] = F::one();
            rows.push(RowKind::Ub(k));
        }
        for k in 0..m_eq {
            put(m_ub + k, lp.a_eq.row(k), lp.b_eq[k], &mut a);
            rows.push(RowKind::Eq(k));
        }
        for (t, &(j, col, width)) in bound_rows.iter().enumerate() {
            let r = m_ub + m_eq + t;
            a[[r, col]] = F::one();
            a[[r, n_struct + m_ub + t]] = F::one();
            b[r] = width;
            rows.push(RowKind::Bound(j));
        }
        let mut c = Array1::zeros(n_struct + n_slack);
        for (j, v) in vars.iter().enumerate() {
            match *v {
                VarMap::Shift { col, .. } => c[col] = lp.c[j],
                VarMap::Mirror { col, .. } => c[col] = -lp.c[j],
                VarMap::Split { pos, neg } => {
                    c[pos] = lp.c[j];
                    c[neg] = -lp.c[j];
                }
            }
        }
        Self {
            a,
            b,
            c,
            vars,
            rows,
        }
    }

    fn solve(&self, lp: &LinearProgram<F>) -> Result<LpResult<F>> {
        let (m, nz) = self.a.dim();
        let eps_sqrt = F::epsilon().sqrt();
        let piv_tol = F::cast(0.1) * eps_sqrt;
        let c_scale = self.c.iter().fold(F::one(), |s, v| s.max(v.abs()));
        let opt_tol = piv_tol * c_scale;

        // Row multipliers D (normalised row = D · built row) and the starting basis.
        let mut a0 = self.a.clone();
        let mut b0 = self.b.clone();
        let mut dmul = Array1::from_elem(m, F::one());
        for r in 0..m {
            if b0[r] < F::zero() {
                a0.row_mut(r).mapv_inplace(|v| -v);
                b0[r] = -b0[r];
                dmul[r] = -F::one();
            }
        }
        let nnz_col: Vec<usize> = (0..nz)
            .map(|j| a0.column(j).iter().filter(|&&v| v != F::zero()).count())
            .collect();
        let mut basis: Vec<Option<usize>> = vec![None; m];
        let mut used = vec![false; nz];
        for r in 0..m {
            let row_max = a0.row(r).iter().fold(F::zero(), |s, v| s.max(v.abs()));
            let cand = (0..nz)
                .find(|&j| !used[j] && nnz_col[j] == 1 && a0[[r, j]] > F::cast(1e-6) * row_max);
            if let Some(j) = cand {
                let s = F::one() / a0[[r, j]];
                a0.row_mut(r).mapv_inplace(|v| v * s);
                a0[[r, j]] = F::one();
                b0[r] *= s;
                dmul[r] *= s;
                basis[r] = Some(j);
                used[j] = true;
            } else if row_max > F::zero() {
                // Normalise rows that get an artificial to max |coefficient| = 1.
                let s = F::one() / row_max;
                a0.row_mut(r).mapv_inplace(|v| v * s);
                b0[r] *= s;
                dmul[r] *= s;
            }
        }
        let art_rows: Vec<usize> = (0..m).filter(|&r| basis[r].is_none()).collect();
        let n_art = art_rows.len();
        let b_scale = b0.iter().fold(F::one(), |s, v| s.max(v.abs()));
        let feas_tol = eps_sqrt * b_scale;

        // Phase-1 tableau: [a0 | artificials | b0], objective row last.
        let width = nz + n_art + 1;
        let mut t = Tableau::new(m, width);
        for r in 0..m {
            for j in 0..nz {
                t.set(r, j, a0[[r, j]]);
            }
            t.set(r, width - 1, b0[r]);
        }
        let mut bas: Vec<usize> = vec![0; m];
        for r in 0..m {
            if let Some(j) = basis[r] {
                bas[r] = j;
            }
        }
        for (k, &r) in art_rows.iter().enumerate() {
            t.set(r, nz + k, F::one());
            bas[r] = nz + k;
        }
        let mut n_iter = 0;
        let mut removed = vec![false; m];
        if n_art > 0 {
            // Reduced costs of phase 1: d = −Σ_{artificial rows} row.
            for &r in &art_rows {
                for j in 0..nz {
                    let v = t.get(m, j) - t.get(r, j);
                    t.set(m, j, v);
                }
                let v = t.get(m, width - 1) - t.get(r, width - 1);
                t.set(m, width - 1, v);
            }
            let out = t.run(
                &mut bas,
                nz,
                lp.rule,
                lp.max_iter,
                piv_tol,
                piv_tol,
                &mut n_iter,
            );
            let infeas = -t.get(m, width - 1);
            if out == Run::MaxIter {
                return Ok(self.result(lp, LpStatus::MaxIter, &t, &bas, &removed, n_iter));
            }
            if infeas > feas_tol {
                return Ok(self.result(lp, LpStatus::Infeasible, &t, &bas, &removed, n_iter));
            }
            // Drive remaining artificials out of the basis, or drop their (redundant) rows.
            for r in 0..m {
                if bas[r] < nz {
                    continue;
                }
                let best = (0..nz)
                    .map(|j| (j, t.get(r, j).abs()))
                    .filter(|&(_, v)| v > piv_tol)
                    .fold(None, |acc: Option<(usize, F)>, (j, v)| match acc {
                        Some((_, bv)) if bv >= v => acc,
                        _ => Some((j, v)),
                    });
                match best {
                    Some((j, _)) => {
                        t.pivot(r, j);
                        bas[r] = j;
                    }
                    None => removed[r] = true,
                }
            }
        }
        // Phase 2 on the kept rows, without artificial columns.
        let kept: Vec<usize> = (0..m).filter(|&r| !removed[r]).collect();
        let m2 = kept.len();
        let width2 = nz + 1;
        let mut t2 = Tableau::new(m2, width2);
        let mut bas2 = Vec::with_capacity(m2);
        for (i, &r) in kept.iter().enumerate() {
            for j in 0..nz {
                t2.set(i, j, t.get(r, j));
            }
            t2.set(i, nz, t.get(r, width - 1));
            bas2.push(bas[r]);
        }
        drop(t);
        for j in 0..nz {
            t2.set(m2, j, self.c[j]);
        }
        for (i, &bj) in bas2.iter().enumerate() {
            let cb = self.c[bj];
            if cb != F::zero() {
                for j in 0..width2 {
                    let v = t2.get(m2, j) - cb * t2.get(i, j);
                    t2.set(m2, j, v);
                }
            }
        }
        let remaining = lp.max_iter.saturating_sub(n_iter).max(1);
        let out = t2.run(
            &mut bas2,
            nz,
            lp.rule,
            remaining,
            piv_tol,
            opt_tol,
            &mut n_iter,
        );
        let status = match out {
            Run::Optimal => LpStatus::Optimal,
            Run::Unbounded => LpStatus::Unbounded,
            Run::MaxIter => LpStatus::MaxIter,
        };
        let removed2 = vec![false; m2];
        let mut res = self.result(lp, status, &t2, &bas2, &removed2, n_iter);
        if status == LpStatus::Optimal {
            // When every row started from a unit column of the normalised system (a slack or a
            // singleton, no artificial), the final reduced costs of those columns give the
            // duals directly: dⱼ = cⱼ − yᵣ for aⱼ = eᵣ. Otherwise solve Bᵀy = c_B.
            let direct = if n_art == 0 {
                basis
                    .iter()
                    .map(|b| b.map(|j| self.c[j] - t2.get(m2, j)))
                    .collect::<Option<Vec<F>>>()
            } else {
                None
            };
            res.duals = self.duals(&a0, &dmul, &kept, &bas2, direct).ok();
        }
        Ok(res)
    }

    /// Maps the basic solution of a tableau back to `x`.
    fn result(
        &self,
        lp: &LinearProgram<F>,
        status: LpStatus,
        t: &Tableau<F>,
        bas: &[usize],
        removed: &[bool],
        n_iter: usize,
    ) -> LpResult<F> {
        let nz = self.c.len();
        let mut z = Array1::<F>::zeros(nz);
        let rhs_col = t.width - 1;
        for (r, &j) in bas.iter().enumerate() {
            if j < nz && !removed[r] {
                z[j] = t.get(r, rhs_col).max(F::zero());
            }
        }
        let x = Array1::from_shape_fn(self.vars.len(), |j| match self.vars[j] {
            VarMap::Shift { col, lo } => lo + z[col],
            VarMap::Mirror { col, hi } => hi - z[col],
            VarMap::Split { pos, neg } => z[pos] - z[neg],
        });
        let objective = match status {
            LpStatus::Infeasible => F::infinity(),
            LpStatus::Unbounded => F::neg_infinity(),
            _ => lp.c.dot(&x),
        };
        LpResult {
            status,
            x,
            objective,
            n_iter,
            duals: None,
        }
    }

    /// Solves `Bᵀy = c_B` on the normalised rows and maps `y` to the KKT multipliers.
    fn duals(
        &self,
        a0: &Array2<F>,
        dmul: &Array1<F>,
        kept: &[usize],
        bas: &[usize],
        direct: Option<Vec<F>>,
    ) -> Result<LpDuals<F>> {
        let m2 = kept.len();
        let mut y_built = Array1::<F>::zeros(self.a.nrows());
        if let Some(y) = direct {
            for (r, yr) in y.into_iter().enumerate() {
                y_built[r] = dmul[r] * yr;
            }
        } else if m2 > 0 {
            let bt = Array2::from_shape_fn((m2, m2), |(i, k)| a0[[kept[k], bas[i]]]);
            let cb = Array1::from_shape_fn(m2, |i| self.c[bas[i]]);
            // QR rather than LU: OpenBLAS's threaded getrf keeps large arrays on the stack and
            // overflows 2 MiB thread stacks (test and rayon threads) for m ≳ 100.
            let y = match linalg::lstsq_qr(&bt, &cb) {
                Ok(y) => y,
                Err(_) => linalg::lstsq(&bt, &cb, None)?.solution,
            };
            for (k, &r) in kept.iter().enumerate() {
                y_built[r] = dmul[r] * y[k];
            }
        }
        // Reduced costs of the built (unnormalised) standard form.
        let d = &self.c - &self.a.t().dot(&y_built);
        let n = self.vars.len();
        let mut lower = Array1::zeros(n);
        let mut upper = Array1::zeros(n);
        let n_ub = self
            .rows
            .iter()
            .filter(|r| matches!(r, RowKind::Ub(_)))
            .count();
        let n_eq = self
            .rows
            .iter()
            .filter(|r| matches!(r, RowKind::Eq(_)))
            .count();
        let mut ineq = Array1::zeros(n_ub);
        let mut eq = Array1::zeros(n_eq);
        for (r, kind) in self.rows.iter().enumerate() {
            match *kind {
                RowKind::Ub(k) => ineq[k] = -y_built[r],
                RowKind::Eq(k) => eq[k] = -y_built[r],
                RowKind::Bound(j) => upper[j] = -y_built[r],
            }
        }
        for (j, v) in self.vars.iter().enumerate() {
            match *v {
                VarMap::Shift { col, .. } => lower[j] = d[col],
                VarMap::Mirror { col, .. } => upper[j] = d[col],
                VarMap::Split { .. } => {}
            }
        }
        Ok(LpDuals {
            ineq,
            eq,
            lower,
            upper,
        })
    }
}
