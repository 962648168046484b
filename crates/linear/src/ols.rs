//! Ordinary least squares: [`LinearRegression`] (the one-feature closed forms are in
//! [`crate::simple`]).
//!
//! # The model
//!
//! `ŷ = X w + b`, fitted by minimising the squared error
//!
//! ```text
//! (1/(2N)) ‖y − X w − b‖²          (the course notes' scaling; any positive factor gives the same ŵ)
//! ```
//!
//! With `fit_intercept`, `X` and `y` are centred (`X_c = X − 1x̄ᵀ`, `y_c = y − ȳ`), the
//! centred problem is solved for `w`, and `b = ȳ − x̄ᵀw`. The normal equations
//! `X_cᵀX_c w = X_cᵀy_c` have the unique solution `w = (X_cᵀX_c)⁻¹X_cᵀy_c` when `X_c` has full
//! column rank; otherwise every solver that can (SVD, and `Auto` through it) returns the
//! **minimum-norm** solution `w = X_c⁺ y_c`, which is what scikit-learn's `LinearRegression`
//! (LAPACK `gelsd`) returns.
//!
//! # Solvers ([`OlsSolver`])
//!
//! | solver | method | cost | rank-deficient `X` |
//! |---|---|---|---|
//! | `Cholesky` | normal equations: `G = X_cᵀX_c` by one BLAS gemm, `G = LLᵀ`, two triangular solves | `O(N D² + D³)` (the gemm dominates; no copy of `X`) | error |
//! | `Qr` | thin QR of the centred copy, `R w = Qᵀy_c` | `O(N D²)`, about twice the gemm, plus an `N × D` copy | error |
//! | `Svd` | thin SVD of the centred copy, `w = V Σ⁺ Uᵀ y_c` | `O(N D²)` with a larger constant | minimum-norm |
//! | `GradientDescent` | gradient descent on `(1/(2N))‖y_c − X_c w‖²` via `ndlearn_core::optim`, in its Gram form (`∇ = (G w − X_cᵀy_c)/N`, `O(D²)` per step), step `1/L` with `L = λ_max(G)/N` | `O(N D²)` once + `O(D²)` per iteration | converges to the minimum-norm solution from `w = 0` |
//! | `Auto` (default) | `Cholesky`, falling back to `Svd` (below) | as `Cholesky` on well-conditioned data | minimum-norm |
//!
//! `Auto` takes the SVD route directly when `N − 1 < D` (`N < D` without intercept), and
//! otherwise after the Cholesky factorisation when it fails (`G` not numerically positive
//! definite) or when its **pivot ratio** `min_i L_ii² / G_ii` is below `√ε` (`1.5e-8` in `f64`).
//! `L_ii²/G_ii = 1 − R²_i`, where `R²_i` is the coefficient of determination of feature `i`
//! regressed on the features before it, so the test flags near-collinear columns whatever the
//! column scales; `1/ratio` is a lower bound on the condition number of the scaled `G`. The
//! threshold is stricter than the usual `1e-10` so that the Cholesky answer keeps about 8
//! correct digits (its error grows like `cond(G)·ε`) before the SVD takes over. The fallback is
//! the SVD rather than QR because the data that trigger it are the (near) rank-deficient ones,
//! where only the minimum-norm solution is well defined. How `G` is formed (one gemm, a
//! rank-one centring correction, exact recomputation when centring would cancel digits) is
//! described in the crate-level docs.
//!
//! The SVD cut-off is `max(N, D)·ε·σ_max` (numpy's `lstsq` default); scipy's `lstsq`, which
//! scikit-learn calls, cuts at `ε·σ_max`, which can keep a spurious direction of size
//! `~ε·σ_max` for exactly collinear columns. On such data ndlearn returns the clean
//! minimum-norm answer.
//!
//! # Multi-output targets
//!
//! [`LinearRegression::fit_multi`] fits an `N × k` target matrix at the cost of one
//! factorisation: every target shares `G` (or the QR / SVD of `X_c`). See the [`crate`] docs for
//! how single- and multi-output models predict.
//!
//! # Simple regression and regression through the origin
//!
//! For one feature the normal equations reduce to `w = cov(x, y)/var(x)`, `b = ȳ − w x̄`
//! ([`simple_regression`](crate::simple_regression); defined iff `x` has at least two distinct values), and without
//! intercept to `w = Σxᵢyᵢ / Σxᵢ²` ([`regression_through_origin`](crate::regression_through_origin)).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `solver` | [`OlsSolver::Auto`] | — (always `gelsd`) | `GradientDescent`: `max_iter ≥ 1`, `tol ≥ 0` |
//!
//! # Errors
//!
//! `fit`: [`Error::ShapeMismatch`] (target length, zero columns), [`Error::TooFewSamples`] (zero
//! rows), [`Error::NonFinite`] (NaN/inf in `X` or `y`, or overflow of `XᵀX` for huge data),
//! [`Error::InvalidParam`] (solver settings), [`Error::Linalg`] when an explicitly chosen
//! `Cholesky` or `Qr` meets rank-deficient data (use `Auto` or `Svd`).
//!
//! # References
//!
//! - Course notes, least squares and its closed forms (1/(2N) objective, cov/var,
//!   `O(D²N + D³)`, simple regression, through the origin, multi-output, pseudo-inverse);
//!   catalog L-02 (CL-068, CL-069, CL-070). T. Hastie, R. Tibshirani, J. Friedman, *The
//!   Elements of Statistical Learning*, 2nd ed., 2009, §3.2.
//! - G. H. Golub, C. F. Van Loan, *Matrix Computations*, 4th ed., §5.3 (normal equations, QR and
//!   SVD least squares).
//!
//! ```
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//! use ndlearn_linear::{LinearRegression, OlsSolver};
//!
//! // y = 1 + 2 x₀ − x₁ exactly.
//! let x = array![[0.0_f64, 1.0], [1.0, 0.0], [2.0, 3.0], [3.0, 1.0], [4.0, 5.0]];
//! let y = array![0.0, 3.0, 2.0, 6.0, 4.0];
//! let fit = LinearRegression::default().fit(&x, &y)?;
//! assert!((fit.coef()[0] - 2.0).abs() < 1e-12 && (fit.coef()[1] + 1.0).abs() < 1e-12);
//! assert!((fit.intercept() - 1.0).abs() < 1e-12);
//! let svd = LinearRegression::default().solver(OlsSolver::Svd).fit(&x, &y)?;
//! assert!((svd.predict(&x)? - &y).iter().all(|r| r.abs() < 1e-12));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, CholeskyFactor};
use ndlearn_core::optim::{self, Objective, StepSize, StopCriteria};
use ndlearn_core::{Error, Fit, Float, LinalgErrorKind, Result};

use crate::design::{self, Moments, as_column, below, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::stats::mergeable::CrossMoments;
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// How [`LinearRegression`] solves the least-squares problem (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum OlsSolver {
    /// Cholesky on the normal equations, falling back to the SVD on ill-conditioned or
    /// rank-deficient data.
    #[default]
    Auto,
    /// Cholesky factorisation of `X_cᵀX_c` (errors on rank-deficient data).
    Cholesky,
    /// Thin QR of the centred `X` (errors on rank-deficient data or `N < D`).
    Qr,
    /// Thin SVD of the centred `X`: the minimum-norm solution for any rank.
    Svd,
    /// Gradient descent on `(1/(2N))‖y_c − X_c w‖²` from `w = 0` with step `1/L`, stopping
    /// when `‖∇f‖ ≤ tol · ‖∇f(0)‖` or after `max_iter` steps.
    GradientDescent {
        /// Maximum number of gradient steps (≥ 1).
        max_iter: usize,
        /// Relative gradient-norm tolerance (≥ 0).
        tol: f64,
    },
}

impl OlsSolver {
    /// Gradient descent with `max_iter = 100_000` and `tol = 1e-10`.
    pub fn gradient_descent() -> Self {
        Self::GradientDescent {
            max_iter: 100_000,
            tol: 1e-10,
        }
    }
}

/// Ordinary least squares (scikit-learn's `LinearRegression`). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LinearRegression {
    /// Fit an (unpenalised) intercept by centring `X` and `y` (default `true`).
    pub fit_intercept: bool,
    /// The solver (default [`OlsSolver::Auto`]).
    pub solver: OlsSolver,
}

impl Default for LinearRegression {
    fn default() -> Self {
        Self {
            fit_intercept: true,
            solver: OlsSolver::Auto,
        }
    }
}

impl LinearRegression {
    /// The defaults: intercept, [`OlsSolver::Auto`].
    pub fn new() -> Self {
        Self::default()
    }

    ndlearn_core::setters! {
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets the solver.
        solver: OlsSolver,
    }

    /// Fits every column of `y` (`N × k`) as a separate target with one factorisation.
    /// The model predicts with [`FittedLinearRegression::predict_multi`].
    ///
    /// # Errors
    /// As [`Fit::fit`] (the module docs list them); a `y` with zero columns is a
    /// [`Error::ShapeMismatch`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedLinearRegression<F>> {
        self.fit_targets(x, y.view(), true)
    }

    fn fit_targets<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: ArrayView2<'_, F>,
        multi_output: bool,
    ) -> Result<FittedLinearRegression<F>> {
        self.validate()?;
        check_xy(x, &y, 1, "LinearRegression::fit")?;
        let m = design::column_sums_and_xty(x, &y, self.fit_intercept)?;
        let (n, d) = x.dim();
        let n_eff = if self.fit_intercept { n - 1 } else { n };
        let sol = match self.solver {
            OlsSolver::Auto => {
                let chol = if n_eff >= d {
                    cholesky_solve(x, &m, true)?
                } else {
                    None
                };
                match chol {
                    Some(s) => s,
                    None => svd_solve(x, &y, &m)?,
                }
            }
            OlsSolver::Cholesky => match cholesky_solve(x, &m, false)? {
                Some(s) => s,
                None => {
                    return Err(Error::Linalg {
                        op: "LinearRegression (Cholesky)",
                        kind: LinalgErrorKind::NotPositiveDefinite,
                        detail: Some(
                            "XᵀX of the (centred) data is singular: columns are collinear or N ≤ D; use OlsSolver::Auto or OlsSolver::Svd".into(),
                        ),
                    });
                }
            },
            OlsSolver::Qr => qr_solve(x, &y, &m)?,
            OlsSolver::Svd => svd_solve(x, &y, &m)?,
            OlsSolver::GradientDescent { max_iter, tol } => gd_solve(x, &m, max_iter, tol)?,
        };
        Ok(FittedLinearRegression {
            params: *self,
            lin: LinearCoef::from_solution(&sol.w, &m.x_mean, &m.y_mean, multi_output),
            solver_used: sol.solver,
            rank: sol.rank,
            singular_values: sol.singular_values,
            n_iter: sol.n_iter,
            converged: sol.converged,
            n_samples: n,
        })
    }
}

impl LinearRegression {
    /// Fits from merged moments (count, means, `X_cᵀY_c`, `‖y_c‖²` and the Gram matrix
    /// `X_cᵀX_c`; core's mergeable [`CrossMoments`], accumulated with `gram: true` and centred
    /// when `fit_intercept`), as a driver does after merging its executors' partial moments.
    /// The solver is [`OlsSolver::Auto`]'s first choice, Cholesky on the normal equations (the
    /// fit on the rows computes the same); when the pivots say the data are ill-conditioned or
    /// rank-deficient, the minimum-norm solution from the eigendecomposition of the Gram matrix
    /// (reported as [`OlsSolver::Svd`], singular values `√λ`). Other solvers need the rows.
    /// One target column gives a single-output model, several a multi-output one.
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use ndlearn_core::stats::mergeable::{CrossMoments, CrossSpec, Mergeable, RowBlock};
    /// use ndlearn_core::Fit;
    /// use ndlearn_linear::LinearRegression;
    ///
    /// let x = Array2::from_shape_fn((30, 2), |(i, j)| ((i * 5 + j * 7) % 13) as f64);
    /// let y = (&x.column(0) * 3.0 - &x.column(1) + 2.0).insert_axis(ndarray::Axis(1));
    /// let spec = CrossSpec { n_features: 2, n_targets: 1, centred: true, gram: true };
    /// let parts: Vec<_> = [0..10, 10..30]
    ///     .into_iter()
    ///     .map(|r| CrossMoments::of(&spec, &RowBlock::new(x.slice(s![r.clone(), ..])).targets(y.slice(s![r, ..]))))
    ///     .collect::<Result<_, _>>()?;
    /// let m = CrossMoments::merge_all(&spec, &parts)?;
    /// let fit = LinearRegression::default().fit_moments(&m)?;
    /// assert!((fit.coef()[0] - 3.0).abs() < 1e-10 && (fit.intercept() - 2.0).abs() < 1e-9);
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for moments without a Gram matrix or target, centred
    /// differently from `fit_intercept`, or a solver other than `Auto` / `Cholesky`;
    /// [`Error::TooFewSamples`] for moments of no rows; `Cholesky` on a singular Gram matrix
    /// fails as in a fit.
    pub fn fit_moments<F: Float>(&self, m: &CrossMoments<F>) -> Result<FittedLinearRegression<F>> {
        self.validate()?;
        let g = design::check_moments(m, self.fit_intercept, "LinearRegression::fit_moments")?;
        let (d, k) = m.xty.dim();
        let n_eff = if m.centred { m.n - 1 } else { m.n };
        let sol = match self.solver {
            OlsSolver::Auto => {
                let chol = if n_eff >= d {
                    cholesky_from_gram(g.clone(), m, true)?
                } else {
                    None
                };
                match chol {
                    Some(s) => s,
                    None => gram_eigen_solve(g, m)?,
                }
            }
            OlsSolver::Cholesky => {
                cholesky_from_gram(g.clone(), m, false)?.ok_or_else(|| Error::Linalg {
                    op: "LinearRegression (Cholesky)",
                    kind: LinalgErrorKind::NotPositiveDefinite,
                    detail: Some("the merged Gram matrix is singular; use OlsSolver::Auto".into()),
                })?
            }
            other => {
                return Err(Error::invalid_param(
                    "solver",
                    format!("{other:?} needs the rows; fits from moments use Auto or Cholesky"),
                ));
            }
        };
        Ok(FittedLinearRegression {
            params: *self,
            lin: LinearCoef::from_solution(&sol.w, &m.x_mean, &m.y_mean, k > 1),
            solver_used: sol.solver,
            rank: sol.rank,
            singular_values: sol.singular_values,
            n_iter: sol.n_iter,
            converged: sol.converged,
            n_samples: m.n,
        })
    }
}

impl ndlearn_core::Estimator for LinearRegression {
    /// Checks the solver settings.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `GradientDescent` with `max_iter = 0` or a negative or
    /// non-finite `tol`.
    fn validate(&self) -> Result<()> {
        if let OlsSolver::GradientDescent { max_iter, tol } = self.solver {
            ndlearn_core::validate::check_at_least("max_iter", max_iter, 1)?;
            ndlearn_core::validate::check_non_negative("tol", tol)?;
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for LinearRegression {
    type Target = ArrayRef1<F>;
    type Model = FittedLinearRegression<F>;

    /// Fits `ŷ = Xw + b` by least squares (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedLinearRegression<F>> {
        self.fit_targets(x, as_column(y), false)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for LinearRegression {
    /// Fits every column of `y` (see [`LinearRegression::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedLinearRegression<F>> {
        LinearRegression::fit_multi(self, x, y)
    }
}

/// A fitted [`LinearRegression`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLinearRegression<F: Float> {
    params: LinearRegression,
    pub(crate) lin: LinearCoef<F>,
    solver_used: OlsSolver,
    rank: usize,
    singular_values: Option<Array1<F>>,
    n_iter: usize,
    converged: bool,
    n_samples: usize,
}

linear_model_api!(FittedLinearRegression);

impl<F: Float> FittedLinearRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &LinearRegression {
        &self.params
    }

    /// The solver that produced the coefficients (for `Auto`: `Cholesky` or `Svd`).
    pub fn solver_used(&self) -> OlsSolver {
        self.solver_used
    }

    /// Rank of the centred design (`n_features` when the Cholesky or QR path succeeded; from
    /// the singular values for the SVD path).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Singular values of the centred `X`, descending (SVD path only; scikit-learn's
    /// `singular_`).
    pub fn singular_values(&self) -> Option<&Array1<F>> {
        self.singular_values.as_ref()
    }

    /// Gradient-descent iterations (largest over targets; 0 for the closed forms).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }

    /// `false` only when gradient descent stopped at `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// Number of training rows.
    pub fn n_samples(&self) -> usize {
        self.n_samples
    }
}

// ---------------------------------------------------------------------------------------------
// Solvers

struct Solution<F: Float> {
    /// `d × k`.
    w: Array2<F>,
    rank: usize,
    singular_values: Option<Array1<F>>,
    n_iter: usize,
    converged: bool,
    solver: OlsSolver,
}

impl<F: Float> Solution<F> {
    fn closed(w: Array2<F>, rank: usize, solver: OlsSolver) -> Self {
        Self {
            w,
            rank,
            singular_values: None,
            n_iter: 0,
            converged: true,
            solver,
        }
    }
}

/// Smallest Cholesky pivot ratio `min_i L_ii² / G_ii` (0 for a zero diagonal entry of `G`).
pub(crate) fn pivot_ratio<F: Float>(l: &Array2<F>, g: &Array2<F>) -> F {
    l.diag()
        .iter()
        .zip(g.diag().iter())
        .map(|(&lii, &gii)| {
            if gii > F::zero() {
                lii * lii / gii
            } else {
                F::zero()
            }
        })
        .fold(F::one(), |a, b| if b < a || b.is_nan() { b } else { a })
}

/// Cholesky on the normal equations. `Ok(None)` when `G` is not numerically positive definite,
/// or (with `check_condition`) when the pivot ratio is below `√ε`.
fn cholesky_solve<F: Float>(
    x: &ArrayRef2<F>,
    m: &Moments<F>,
    check_condition: bool,
) -> Result<Option<Solution<F>>> {
    cholesky_from_gram(design::gram(x, m), m, check_condition)
}

/// [`cholesky_solve`] on the Gram matrix `g` of the moments.
fn cholesky_from_gram<F: Float>(
    g: Array2<F>,
    m: &Moments<F>,
    check_condition: bool,
) -> Result<Option<Solution<F>>> {
    let chol = match CholeskyFactor::new(&g) {
        Ok(c) => c,
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let ratio = pivot_ratio(chol.l(), &g);
    if ratio.is_nan()
        || ratio <= F::zero()
        || (check_condition && below(ratio, F::epsilon().sqrt()))
    {
        return Ok(None);
    }
    let w = chol.solve_many(&m.xty)?;
    Ok(Some(Solution::closed(w, g.nrows(), OlsSolver::Cholesky)))
}

/// Minimum-norm solution from the eigendecomposition `G = V Λ Vᵀ` of the Gram matrix alone
/// (`Λ = Σ²`: the right singular vectors and squared singular values of `X_c`), singular
/// values below `rcond · σ_max` cut as [`svd_solve`] cuts them. Squares the condition number:
/// only for fits from moments, when the rows are not at hand.
fn gram_eigen_solve<F: Float>(g: &Array2<F>, m: &Moments<F>) -> Result<Solution<F>> {
    let d = g.nrows();
    let (lam, v) = linalg::eigh_descending(g)?;
    let s = lam.mapv(|l| l.max(F::zero()).sqrt());
    let smax = s.first().copied().unwrap_or(F::zero());
    let cut = linalg::default_rcond::<F>(m.n, d) * smax;
    let rank = s.iter().filter(|&&v| v > cut && v > F::zero()).count();
    let mut vty = v.slice(s![.., ..rank]).t().dot(&m.xty);
    for (mut row, &l) in vty.axis_iter_mut(Axis(0)).zip(lam.iter()) {
        row.mapv_inplace(|t| t / l);
    }
    let w = v.slice(s![.., ..rank]).dot(&vty);
    Ok(Solution {
        w,
        rank,
        singular_values: Some(s),
        n_iter: 0,
        converged: true,
        solver: OlsSolver::Svd,
    })
}

/// Minimum-norm solution from the thin SVD of the centred `X`.
fn svd_solve<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    m: &Moments<F>,
) -> Result<Solution<F>> {
    let (n, d) = x.dim();
    let xc = design::centred_copy(x, &m.x_mean);
    let yc = design::centred_targets(y, &m.y_mean);
    let svd = linalg::svd_thin(&xc)?;
    drop(xc);
    let smax = svd.s.first().copied().unwrap_or(F::zero());
    let cut = linalg::default_rcond::<F>(n, d) * smax;
    let rank = svd.s.iter().filter(|&&v| v > cut && v > F::zero()).count();
    let mut uty = svd.u.slice(s![.., ..rank]).t().dot(&yc);
    for (mut row, &sv) in uty.axis_iter_mut(Axis(0)).zip(svd.s.iter()) {
        row.mapv_inplace(|v| v / sv);
    }
    let w = svd.vt.slice(s![..rank, ..]).t().dot(&uty);
    Ok(Solution {
        w,
        rank,
        singular_values: Some(svd.s),
        n_iter: 0,
        converged: true,
        solver: OlsSolver::Svd,
    })
}

/// Least squares by thin QR of the centred `X` (full column rank required).
fn qr_solve<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    m: &Moments<F>,
) -> Result<Solution<F>> {
    let (n, d) = x.dim();
    if n < d {
        return Err(Error::ShapeMismatch {
            context: "LinearRegression (QR)",
            expected: "at least as many rows as columns (use OlsSolver::Svd otherwise)".into(),
            found: format!("{n} x {d}"),
        });
    }
    let xc = design::centred_copy(x, &m.x_mean);
    let (q, r) = linalg::qr(&xc)?;
    drop(xc);
    let rmax = r.diag().iter().fold(F::zero(), |a, v| a.max(v.abs()));
    let tol = linalg::default_rcond::<F>(n, d) * rmax;
    if let Some(i) = r.diag().iter().position(|v| !below(tol, v.abs())) {
        return Err(Error::Linalg {
            op: "LinearRegression (QR)",
            kind: LinalgErrorKind::Singular,
            detail: Some(format!(
                "column {i} of the (centred) design is a combination of the others; use OlsSolver::Auto or OlsSolver::Svd for the minimum-norm solution"
            )),
        });
    }
    let yc = design::centred_targets(y, &m.y_mean);
    let qty = q.t().dot(&yc);
    let w = back_substitute(&r, &qty);
    Ok(Solution::closed(w, d, OlsSolver::Qr))
}

/// Solves `R W = B` for upper-triangular `R` (`d × d`, non-zero diagonal), column by column.
pub(crate) fn back_substitute<F: Float>(r: &Array2<F>, b: &Array2<F>) -> Array2<F> {
    let d = r.nrows();
    let mut w = b.clone();
    for mut col in w.columns_mut() {
        for i in (0..d).rev() {
            let mut acc = col[i];
            for j in i + 1..d {
                acc -= r[[i, j]] * col[j];
            }
            col[i] = acc / r[[i, i]];
        }
    }
    w
}

/// `f(w) = (1/(2N)) (wᵀGw − 2cᵀw + yᵀy)`, the least-squares loss in Gram form.
pub(crate) struct GramQuadratic<'a, F: Float> {
    pub g: &'a Array2<F>,
    pub c: Array1<F>,
    pub yy: F,
    pub n: F,
    /// Extra ridge term `(α/(2N))‖w‖²` (0 for OLS).
    pub ridge: F,
}

impl<F: Float> GramQuadratic<'_, F> {
    fn parts(&self, w: &ArrayRef1<F>) -> (F, Array1<F>) {
        let gw = self.g.dot(w);
        let two = F::cast(2.0);
        let value =
            (w.dot(&gw) - two * self.c.dot(w) + self.yy + self.ridge * w.dot(w)) / (two * self.n);
        let mut grad = gw - &self.c;
        grad.scaled_add(self.ridge, w);
        grad.mapv_inplace(|v| v / self.n);
        (value, grad)
    }
}

impl<F: Float> Objective<F> for GramQuadratic<'_, F> {
    fn dim(&self) -> usize {
        self.c.len()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        self.parts(w).0
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        self.parts(w).1
    }
    fn value_and_gradient(&self, w: &ArrayRef1<F>) -> (F, Array1<F>) {
        self.parts(w)
    }
    fn hessian(&self, _w: &ArrayRef1<F>) -> Option<Array2<F>> {
        let mut h = self.g.mapv(|v| v / self.n);
        for i in 0..h.nrows() {
            h[[i, i]] += self.ridge / self.n;
        }
        Some(h)
    }
}

/// Gradient descent on the Gram form, one run per target, step `1/L`.
fn gd_solve<F: Float>(
    x: &ArrayRef2<F>,
    m: &Moments<F>,
    max_iter: usize,
    tol: f64,
) -> Result<Solution<F>> {
    let g = design::gram(x, m);
    let nf = F::cast(m.n);
    let lmax = linalg::eigvalsh(&g)?
        .iter()
        .fold(F::zero(), |a, &v| a.max(v));
    let (d, k) = m.xty.dim();
    let mut w = Array2::zeros((d, k));
    let mut n_iter = 0;
    let mut converged = true;
    if lmax > F::zero() {
        let step = (nf / lmax).to_f64_lossless();
        for t in 0..k {
            let obj = GramQuadratic {
                g: &g,
                c: m.xty.column(t).to_owned(),
                yy: m.yty[t],
                n: nf,
                ridge: F::zero(),
            };
            let g0 = optim::norm2(&obj.c) / nf;
            let stop = StopCriteria::default()
                .max_iter(max_iter)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(tol * g0.to_f64_lossless());
            let res =
                optim::gradient_descent(&obj, &Array1::zeros(d), StepSize::Constant(step), stop)?;
            n_iter = n_iter.max(res.n_iter);
            converged &= res.converged;
            w.column_mut(t).assign(&res.x);
        }
    }
    Ok(Solution {
        w,
        rank: d,
        singular_values: None,
        n_iter,
        converged,
        solver: OlsSolver::GradientDescent { max_iter, tol },
    })
}

impl<F: Float> CheckModel for FittedLinearRegression<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLinearRegression");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        c.that(self.rank <= self.lin.n_features(), || {
            format!("`rank` {} exceeds the feature count", self.rank)
        })?;
        if let Some(s) = &self.singular_values {
            c.that(s.len() <= self.lin.n_features(), || {
                "more singular values than features".into()
            })?;
            c.non_negative("singular_values", s)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::Predict;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = exact_problem();
        let mut fit = LinearRegression::default()
            .solver(OlsSolver::Svd)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.lin.intercept = Array1::zeros(0);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn exact_problem() -> (Array2<f64>, Array1<f64>) {
        // y = 1 + 2 x₀ − x₁ exactly.
        let x = array![[0.0, 1.0], [1.0, 0.0], [2.0, 3.0], [3.0, 1.0], [4.0, 5.0]];
        let y = x.column(0).mapv(|v| 2.0 * v) - x.column(1).to_owned() + 1.0;
        (x, y)
    }

    #[test]
    fn every_solver_recovers_an_exact_model() {
        let (x, y) = exact_problem();
        for solver in [
            OlsSolver::Auto,
            OlsSolver::Cholesky,
            OlsSolver::Qr,
            OlsSolver::Svd,
            OlsSolver::gradient_descent(),
        ] {
            let fit = LinearRegression::default()
                .solver(solver)
                .fit(&x, &y)
                .expect("well-posed problem");
            assert!((fit.coef()[0] - 2.0).abs() < 1e-8, "{solver:?}");
            assert!((fit.coef()[1] + 1.0).abs() < 1e-8, "{solver:?}");
            assert!((fit.intercept() - 1.0).abs() < 1e-8, "{solver:?}");
        }
    }

    #[test]
    fn auto_uses_cholesky_when_well_conditioned_and_svd_when_collinear() {
        let (x, y) = exact_problem();
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        assert_eq!(fit.solver_used(), OlsSolver::Cholesky);
        assert_eq!(fit.rank(), 2);
        // Duplicate column 0: the minimum-norm solution splits its weight 1:1.
        let xd = ndarray::concatenate![Axis(1), x, x.slice(s![.., 0..1])];
        let fit = LinearRegression::default().fit(&xd, &y).expect("fit");
        assert_eq!(fit.solver_used(), OlsSolver::Svd);
        assert_eq!(fit.rank(), 2);
        assert!((fit.coef()[0] - 1.0).abs() < 1e-10 && (fit.coef()[2] - 1.0).abs() < 1e-10);
        // Explicit Cholesky and QR refuse rank-deficient data.
        for solver in [OlsSolver::Cholesky, OlsSolver::Qr] {
            let r = LinearRegression::default().solver(solver).fit(&xd, &y);
            assert!(matches!(r, Err(Error::Linalg { .. })), "{solver:?}: {r:?}");
        }
    }

    #[test]
    fn without_intercept_through_the_origin() {
        let x: Array2<f64> = array![[1.0], [2.0]];
        let y: Array1<f64> = array![2.0, 3.0];
        let fit = LinearRegression::default()
            .fit_intercept(false)
            .fit(&x, &y)
            .expect("fit");
        // Σxy / Σx² = 8 / 5.
        assert!((fit.coef()[0] - 1.6).abs() < 1e-15);
        assert_eq!(fit.intercept(), 0.0);
        let w = crate::regression_through_origin(&x.column(0), &y).expect("non-zero x");
        assert!((w - fit.coef()[0]).abs() < 1e-15);
    }

    #[test]
    fn multi_output_is_columnwise() {
        let (x, y) = exact_problem();
        let y2 = ndarray::stack![Axis(1), y, y.mapv(|v| 3.0 - v)];
        let fit = LinearRegression::default().fit_multi(&x, &y2).expect("fit");
        assert_eq!(fit.coef_multi().dim(), (2, 2));
        assert!(fit.is_multi_output());
        assert!((fit.coef_multi()[[1, 0]] + 2.0).abs() < 1e-10);
        assert!((fit.intercept_multi()[1] - 2.0).abs() < 1e-10);
        let p = fit.predict_multi(&x).expect("predict");
        assert!((&p - &y2).iter().all(|v| v.abs() < 1e-10));
        assert!(matches!(fit.predict(&x), Err(Error::ShapeMismatch { .. })));
        for solver in [OlsSolver::Qr, OlsSolver::Svd, OlsSolver::gradient_descent()] {
            let f2 = LinearRegression::default()
                .solver(solver)
                .fit_multi(&x, &y2)
                .expect("fit");
            assert!(
                (f2.coef_multi() - fit.coef_multi())
                    .iter()
                    .all(|v| v.abs() < 1e-7)
            );
        }
    }

    #[test]
    fn invalid_inputs_are_typed_errors() {
        let (x, y) = exact_problem();
        let bad = LinearRegression::default().solver(OlsSolver::GradientDescent {
            max_iter: 0,
            tol: 1e-8,
        });
        assert!(matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })));
        let bad = LinearRegression::default().solver(OlsSolver::GradientDescent {
            max_iter: 10,
            tol: f64::NAN,
        });
        assert!(bad.validate().is_err());
        let lr = LinearRegression::default();
        assert!(matches!(
            lr.fit(&x, &y.slice(s![..4]).to_owned()),
            Err(Error::ShapeMismatch { .. })
        ));
        let mut yn = y.clone();
        yn[2] = f64::INFINITY;
        assert!(matches!(
            lr.fit(&x, &yn),
            Err(Error::NonFinite { row: 2, .. })
        ));
        let fit = lr.fit(&x, &y).expect("fit");
        assert!(fit.predict(&array![[1.0, 2.0, 3.0]]).is_err());
        let y0 = Array2::<f64>::zeros((5, 0));
        assert!(lr.fit_multi(&x, &y0).is_err());
        // QR with fewer rows than columns.
        let wide = array![[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]];
        assert!(matches!(
            lr.solver(OlsSolver::Qr).fit(&wide, &array![1.0, 2.0]),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn wide_and_one_row_problems_give_minimum_norm_answers() {
        // One equation x₀ + 2x₁ = 5 without intercept: minimum norm w = (1, 2).
        let x: Array2<f64> = array![[1.0, 2.0]];
        let fit = LinearRegression::default()
            .fit_intercept(false)
            .fit(&x, &array![5.0])
            .expect("fit");
        assert!((fit.coef()[0] - 1.0).abs() < 1e-12 && (fit.coef()[1] - 2.0).abs() < 1e-12);
        // One row with intercept: w = 0, b = y.
        let fit = LinearRegression::default()
            .fit(&x, &array![5.0])
            .expect("fit");
        assert_eq!(fit.coef().to_vec(), vec![0.0, 0.0]);
        assert_eq!(fit.intercept(), 5.0);
        // Gradient descent from 0 also reaches the minimum-norm solution.
        let gd = LinearRegression::default()
            .fit_intercept(false)
            .solver(OlsSolver::gradient_descent())
            .fit(&x, &array![5.0])
            .expect("fit");
        assert!((gd.coef()[1] - 2.0).abs() < 1e-8);
    }

    #[test]
    fn f32_agrees_with_f64() {
        let (x, y) = exact_problem();
        let x32 = x.mapv(|v| v as f32);
        let y32 = y.mapv(|v| v as f32);
        for solver in [OlsSolver::Auto, OlsSolver::Qr, OlsSolver::Svd] {
            let fit = LinearRegression::default()
                .solver(solver)
                .fit(&x32, &y32)
                .expect("fit");
            assert!((fit.coef()[0] - 2.0).abs() < 1e-4, "{solver:?}");
            assert!((fit.intercept() - 1.0).abs() < 1e-4, "{solver:?}");
        }
    }
}
