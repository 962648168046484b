//! Ridge regression: least squares with an L2 penalty on the coefficients ([`Ridge`]).
//!
//! # Objective
//!
//! scikit-learn's scaling, with an unpenalised intercept:
//!
//! ```text
//! min_{w, b}  ‖y − X w − b‖² + α ‖w‖²          (α ≥ 0)
//! ```
//!
//! (the course notes write `‖Xw − y‖² + λ‖w‖²` or `½‖·‖² + (λ/2)‖w‖²`; both give the same `ŵ` for
//! `λ = α`, erratum E2). With `fit_intercept`, `X` and `y` are centred and
//! `w = (X_cᵀX_c + αI)⁻¹X_cᵀy_c`, `b = ȳ − x̄ᵀw`. For every `α > 0` the solution is unique
//! whatever the rank of `X`; as `α → 0` it converges to the minimum-norm least-squares solution
//! `X_c⁺y_c` (a corollary in the course notes). This closed form is the one a set of the course
//! notes calls the "Lasso estimate": it is ridge (catalog erratum E13; the lasso has no closed
//! form, see [`crate::Lasso`]).
//!
//! # Solvers ([`RidgeSolver`])
//!
//! | solver | method | cost |
//! |---|---|---|
//! | `Cholesky` (and `Auto`, the default) | `N ≥ D`: primal `(X_cᵀX_c + αI) w = X_cᵀy_c` with `X_cᵀX_c` from one gemm (see the crate docs); `D > N`: the dual `(X_cX_cᵀ + αI) a = y_c`, `w = X_cᵀa`, as scikit-learn | `O(N D² + D³)` or `O(N² D + N³)` |
//! | `Svd` | shrinkage form `w = V diag(σᵢ/(σᵢ² + α)) Uᵀ y_c` from the thin SVD `X_c = U Σ Vᵀ` | `O(N D min(N, D))` |
//! | `Sgd` | mini-batch SGD (`ndlearn_core::optim::minibatch_gd`) on the mean form `(1/N)Σ ½(x_{c,i}ᵀw − y_{c,i})² + (α/(2N))‖w‖²`, whose minimiser is the same `ŵ` | `O(N D)` per epoch |
//!
//! The shrinkage form is the course notes' `V diag(σᵢ/(σᵢ² + λ)) Uᵀ` (catalog erratum E14: the
//! notes print `σᵢ/(σᵢ + λ)` at two places). With `α = 0` the SVD keeps singular values above
//! `max(N, D)·ε·σ_max` only, and a failed Cholesky factorisation (possible only for `α` at or
//! near 0 on rank-deficient data) falls back to the SVD, as scikit-learn does.
//!
//! The `Sgd` solver is for teaching: it follows the course notes' SGD for ridge (gradient
//! `(1/N)Σ∇ℓ + λ∇R`; Bottou, Curtis & Nocedal, "Optimization methods for large-scale machine
//! learning", SIAM Review 60(2), 2018) and reaches the closed form only to
//! the accuracy its step schedule allows (by default `η_t = η₀/√t` with
//! `η₀ = 1/max_i(‖x_{c,i}‖² + α/N)`, batches of 32, 500 epochs).
//!
//! # Multi-output
//!
//! [`Ridge::fit_multi`] fits every column of an `N × k` target with the same `α` (one
//! factorisation); [`Ridge::fit_multi_alphas`] takes one `α` per target (scikit-learn's
//! array-valued `alpha`; one factorisation per distinct value).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `alpha` | 1.0 | `alpha` | finite, ≥ 0 |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `solver` | [`RidgeSolver::Auto`] | `solver` (`"auto"` = `"cholesky"`, `"svd"`; `"sag"` ~ `Sgd`) | `Sgd`: `max_epochs ≥ 1`, `batch_size ≥ 1`, a schedule step |
//!
//! # Errors
//!
//! As [`crate::LinearRegression`]: shapes, non-finite input (or overflow of `XᵀX`), invalid
//! hyperparameters; `fit_multi_alphas` with the wrong number of alphas is a
//! [`Error::ShapeMismatch`].
//!
//! # References
//!
//! - Course notes: objective, unpenalised intercept, closed form, SGD, uniqueness, SVD form,
//!   limit λ → 0, 1-D example; catalog L-04, CL-073, CL-074. T. Hastie, R. Tibshirani,
//!   J. Friedman, *The Elements of Statistical Learning*, 2nd ed., 2009, §3.4.1.
//! - A. E. Hoerl, R. W. Kennard, "Ridge regression: biased estimation for nonorthogonal
//!   problems", Technometrics 12(1), 1970.
//!
//! ```
//! use ndlearn_core::{Fit, ndarray::array};
//! use ndlearn_linear::{Ridge, RidgeSolver};
//!
//! // The course notes' 1-D example without intercept: β̂ = xy / (x² + λ) = 2·3 / (4 + 1) = 1.2.
//! let x = array![[2.0_f64]];
//! let y = array![3.0];
//! let fit = Ridge::new(1.0).fit_intercept(false).fit(&x, &y)?;
//! assert!((fit.coef()[0] - 1.2).abs() < 1e-15);
//! let svd = Ridge::new(1.0).fit_intercept(false).solver(RidgeSolver::Svd).fit(&x, &y)?;
//! assert!((svd.coef()[0] - 1.2).abs() < 1e-15);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, CholeskyFactor};
use ndlearn_core::optim::{self, StepSize, StochasticObjective, StopCriteria};
use ndlearn_core::{Error, Fit, Float, LinalgErrorKind, Result};

use crate::design::{self, Moments, as_column, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::stats::mergeable::CrossMoments;
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// How [`Ridge`] solves its problem (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum RidgeSolver {
    /// `Cholesky` (scikit-learn's `"auto"` for dense data without sample weights).
    #[default]
    Auto,
    /// Cholesky on the primal (`N ≥ D`) or dual (`D > N`) normal equations.
    Cholesky,
    /// The SVD shrinkage form `V diag(σ/(σ² + α)) Uᵀ y`.
    Svd,
    /// Mini-batch SGD on the mean-scaled objective (teaching; approximate).
    Sgd {
        /// Number of passes over the data (≥ 1).
        max_epochs: usize,
        /// Samples per update (≥ 1).
        batch_size: usize,
        /// Step schedule (`Constant`, `InverseT`, `InverseSqrtT`); `None` = `InverseSqrtT(η₀)`
        /// with `η₀ = 1/max_i(‖x_{c,i}‖² + α/N)`.
        step: Option<StepSize>,
        /// Seed of the batch shuffling.
        seed: u64,
    },
}

impl RidgeSolver {
    /// SGD with 500 epochs, batches of 32, the automatic schedule and seed 0.
    pub fn sgd() -> Self {
        Self::Sgd {
            max_epochs: 500,
            batch_size: 32,
            step: None,
            seed: 0,
        }
    }
}

/// Ridge regression (scikit-learn's `Ridge`). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Ridge {
    /// Penalty strength `α ≥ 0` (default 1.0).
    pub alpha: f64,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// The solver (default [`RidgeSolver::Auto`]).
    pub solver: RidgeSolver,
}

impl Default for Ridge {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            fit_intercept: true,
            solver: RidgeSolver::Auto,
        }
    }
}

impl Ridge {
    /// Ridge with penalty `alpha` and the other defaults.
    pub fn new(alpha: f64) -> Self {
        Self {
            alpha,
            ..Self::default()
        }
    }

    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets the solver.
        solver: RidgeSolver,
    }

    /// Fits every column of `y` (`N × k`) with the same `alpha`.
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedRidge<F>> {
        self.fit_targets(x, y.view(), vec![self.alpha; y.ncols()], true)
    }

    /// Fits every column of `y` (`N × k`) with its own penalty `alphas[t]` (the `alpha` field is
    /// not used).
    ///
    /// # Errors
    /// As [`Fit::fit`]; [`Error::ShapeMismatch`] when `alphas.len() != k`,
    /// [`Error::InvalidParam`] for a negative or non-finite alpha.
    pub fn fit_multi_alphas<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        alphas: &[f64],
    ) -> Result<FittedRidge<F>> {
        if alphas.len() != y.ncols() {
            return Err(Error::ShapeMismatch {
                context: "Ridge::fit_multi_alphas",
                expected: format!("one alpha per target ({})", y.ncols()),
                found: format!("{} alphas", alphas.len()),
            });
        }
        for &a in alphas {
            ndlearn_core::validate::check_non_negative("alpha", a)?;
        }
        self.fit_targets(x, y.view(), alphas.to_vec(), true)
    }

    /// Fits from merged moments (count, means, `X_cᵀY_c`, `‖y_c‖²` and the Gram matrix
    /// `X_cᵀX_c`; core's mergeable [`CrossMoments`], accumulated with `gram: true` and centred
    /// when `fit_intercept`), as a driver does after merging its executors' partial moments:
    /// the primal Cholesky solve `(X_cᵀX_c + αI) W = X_cᵀY_c` that [`Fit::fit`] runs on the
    /// rows when `D ≤ N` (the same code). One target column gives a single-output model,
    /// several a multi-output one (the same `alpha` for all).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for moments without a Gram matrix or target, centred
    /// differently from `fit_intercept`, or an SGD solver; [`Error::TooFewSamples`] for
    /// moments of no rows; [`Error::Linalg`] when `X_cᵀX_c + αI` is not positive definite
    /// (`alpha = 0` on collinear features: use `alpha > 0`, or
    /// [`LinearRegression::fit_moments`](crate::LinearRegression::fit_moments)).
    pub fn fit_moments<F: Float>(&self, m: &CrossMoments<F>) -> Result<FittedRidge<F>> {
        self.validate()?;
        if matches!(self.solver, RidgeSolver::Sgd { .. }) {
            return Err(Error::invalid_param(
                "solver",
                "SGD needs the rows; fits from moments solve by Cholesky",
            ));
        }
        let g = design::check_moments(m, self.fit_intercept, "Ridge::fit_moments")?;
        let k = m.xty.ncols();
        let alphas = vec![self.alpha; k];
        let w = primal_from_gram(g, m, &alphas)?.ok_or_else(|| Error::Linalg {
            op: "Ridge::fit_moments (Cholesky)",
            kind: LinalgErrorKind::NotPositiveDefinite,
            detail: Some("X_cᵀX_c + αI is singular: use alpha > 0".into()),
        })?;
        Ok(FittedRidge {
            params: *self,
            lin: LinearCoef::from_solution(&w, &m.x_mean, &m.y_mean, k > 1),
            alphas,
            solver_used: RidgeSolver::Cholesky,
            n_iter: 0,
            converged: true,
        })
    }

    fn fit_targets<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: ArrayView2<'_, F>,
        alphas: Vec<f64>,
        multi_output: bool,
    ) -> Result<FittedRidge<F>> {
        self.validate()?;
        check_xy(x, &y, 1, "Ridge::fit")?;
        let m = design::column_sums_and_xty(x, &y, self.fit_intercept)?;
        let (n, d) = x.dim();
        let (w, solver_used, n_iter, converged) = match self.solver {
            RidgeSolver::Auto | RidgeSolver::Cholesky => {
                let chol = if d <= n {
                    primal_cholesky(x, &m, &alphas)?
                } else {
                    dual_cholesky(x, &y, &m, &alphas)?
                };
                match chol {
                    Some(w) => (w, RidgeSolver::Cholesky, 0, true),
                    None => (svd_solve(x, &y, &m, &alphas)?, RidgeSolver::Svd, 0, true),
                }
            }
            RidgeSolver::Svd => (svd_solve(x, &y, &m, &alphas)?, RidgeSolver::Svd, 0, true),
            RidgeSolver::Sgd {
                max_epochs,
                batch_size,
                step,
                seed,
            } => {
                let (w, it, conv) =
                    sgd_solve(x, &y, &m, &alphas, max_epochs, batch_size, step, seed)?;
                (w, self.solver, it, conv)
            }
        };
        Ok(FittedRidge {
            params: *self,
            lin: LinearCoef::from_solution(&w, &m.x_mean, &m.y_mean, multi_output),
            alphas,
            solver_used,
            n_iter,
            converged,
        })
    }
}

impl ndlearn_core::Estimator for Ridge {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a negative or non-finite `alpha` or invalid SGD settings.
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_non_negative("alpha", self.alpha)?;
        if let RidgeSolver::Sgd {
            max_epochs,
            batch_size,
            step,
            ..
        } = self.solver
        {
            ndlearn_core::validate::check_at_least("max_epochs", max_epochs, 1)?;
            ndlearn_core::validate::check_at_least("batch_size", batch_size, 1)?;
            if let Some(step) = step {
                if step.is_backtracking() {
                    return Err(Error::invalid_param(
                        "step",
                        "SGD needs a fixed schedule (Constant, InverseT or InverseSqrtT)",
                    ));
                }
                step.validate()?;
            }
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for Ridge {
    type Target = ArrayRef1<F>;
    type Model = FittedRidge<F>;

    /// Fits ridge regression (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedRidge<F>> {
        self.fit_targets(x, as_column(y), vec![self.alpha], false)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for Ridge {
    /// Fits every column of `y` (see [`Ridge::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedRidge<F>> {
        Ridge::fit_multi(self, x, y)
    }
}

/// A fitted [`Ridge`] model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRidge<F: Float> {
    params: Ridge,
    pub(crate) lin: LinearCoef<F>,
    alphas: Vec<f64>,
    solver_used: RidgeSolver,
    n_iter: usize,
    converged: bool,
}

linear_model_api!(FittedRidge);

impl<F: Float> FittedRidge<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &Ridge {
        &self.params
    }

    /// The penalty of each target.
    pub fn alphas(&self) -> &[f64] {
        &self.alphas
    }

    /// The solver that produced the coefficients (`Auto` resolves to `Cholesky`, or `Svd`
    /// after a failed factorisation).
    pub fn solver_used(&self) -> RidgeSolver {
        self.solver_used
    }

    /// SGD epochs (largest over targets; 0 for the closed forms).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }

    /// `false` only when SGD stopped at `max_epochs` before its step tolerance (the SGD
    /// solver runs all epochs unless the iterate stops moving).
    pub fn converged(&self) -> bool {
        self.converged
    }
}

// ---------------------------------------------------------------------------------------------
// Solvers

/// Target indices grouped by identical alpha, in first-appearance order.
fn alpha_groups(alphas: &[f64]) -> Vec<(f64, Vec<usize>)> {
    let mut groups: Vec<(f64, Vec<usize>)> = Vec::new();
    for (t, &a) in alphas.iter().enumerate() {
        match groups.iter_mut().find(|(b, _)| b.to_bits() == a.to_bits()) {
            Some((_, ts)) => ts.push(t),
            None => groups.push((a, vec![t])),
        }
    }
    groups
}

/// `A + αI`.
fn shifted<F: Float>(a: &Array2<F>, alpha: f64) -> Array2<F> {
    let mut s = a.clone();
    let al = F::cast(alpha);
    for i in 0..s.nrows() {
        s[[i, i]] += al;
    }
    s
}

/// Cholesky of `A + αI`; `Ok(None)` when it is not numerically positive definite.
fn factor<F: Float>(a: &Array2<F>, alpha: f64) -> Result<Option<CholeskyFactor<F>>> {
    match CholeskyFactor::new(&shifted(a, alpha)) {
        Ok(c) => Ok(Some(c)),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `(G + αI) W = X_cᵀy_c` per alpha group; `None` if a factorisation fails.
pub(crate) fn primal_cholesky<F: Float>(
    x: &ArrayRef2<F>,
    m: &Moments<F>,
    alphas: &[f64],
) -> Result<Option<Array2<F>>> {
    primal_from_gram(&design::gram(x, m), m, alphas)
}

/// [`primal_cholesky`] on the Gram matrix `g` of the moments.
fn primal_from_gram<F: Float>(
    g: &Array2<F>,
    m: &Moments<F>,
    alphas: &[f64],
) -> Result<Option<Array2<F>>> {
    let mut w = Array2::zeros(m.xty.raw_dim());
    for (alpha, ts) in alpha_groups(alphas) {
        let Some(chol) = factor(g, alpha)? else {
            return Ok(None);
        };
        let rhs = m.xty.select(Axis(1), &ts);
        let sol = chol.solve_many(&rhs)?;
        for (j, &t) in ts.iter().enumerate() {
            w.column_mut(t).assign(&sol.column(j));
        }
    }
    Ok(Some(w))
}

/// Dual form for `D > N`: `(X_cX_cᵀ + αI) A = y_c`, `W = X_cᵀA`.
fn dual_cholesky<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    m: &Moments<F>,
    alphas: &[f64],
) -> Result<Option<Array2<F>>> {
    let xc = design::centred_copy(x, &m.x_mean);
    let yc = design::centred_targets(y, &m.y_mean);
    let mut k = ndlearn_core::linalg::matmul(&xc, &xc.t());
    design::symmetrize(&mut k);
    let mut w = Array2::zeros(m.xty.raw_dim());
    for (alpha, ts) in alpha_groups(alphas) {
        let Some(chol) = factor(&k, alpha)? else {
            return Ok(None);
        };
        let dual = chol.solve_many(&yc.select(Axis(1), &ts))?;
        let sol = ndlearn_core::linalg::matmul(&xc.t(), &dual);
        for (j, &t) in ts.iter().enumerate() {
            w.column_mut(t).assign(&sol.column(j));
        }
    }
    Ok(Some(w))
}

/// The shrinkage form `V diag(σ/(σ² + α)) Uᵀ y_c`.
fn svd_solve<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    m: &Moments<F>,
    alphas: &[f64],
) -> Result<Array2<F>> {
    let (n, d) = x.dim();
    let xc = design::centred_copy(x, &m.x_mean);
    let yc = design::centred_targets(y, &m.y_mean);
    let svd = linalg::svd_thin(&xc)?;
    drop(xc);
    let smax = svd.s.first().copied().unwrap_or(F::zero());
    let cut = linalg::default_rcond::<F>(n, d) * smax;
    let r = svd.s.iter().filter(|&&v| v > cut && v > F::zero()).count();
    let uty = svd.u.slice(s![.., ..r]).t().dot(&yc);
    let v = svd.vt.slice(s![..r, ..]);
    let mut w = Array2::zeros((d, y.ncols()));
    for (t, &alpha) in alphas.iter().enumerate() {
        let a = F::cast(alpha);
        let z: Array1<F> = (0..r)
            .map(|j| {
                // σ/(σ² + α) written as 1/(σ + α/σ): no overflow or 0/0 when σ² underflows.
                let sj = svd.s[j];
                uty[[j, t]] / (sj + a / sj)
            })
            .collect();
        w.column_mut(t).assign(&v.t().dot(&z));
    }
    Ok(w)
}

/// Mean-scaled ridge loss on centred data for mini-batch SGD.
struct RidgeBatches<'a, F: Float> {
    xc: &'a Array2<F>,
    yc: Array1<F>,
    /// `α / N`.
    pen: F,
}

impl<F: Float> StochasticObjective<F> for RidgeBatches<'_, F> {
    fn dim(&self) -> usize {
        self.xc.ncols()
    }
    fn n_samples(&self) -> usize {
        self.xc.nrows()
    }
    fn batch_value(&self, w: &ArrayRef1<F>, batch: &[usize]) -> F {
        let half = F::cast(0.5);
        let loss: F = batch
            .iter()
            .map(|&i| {
                let r = self.xc.row(i).dot(w) - self.yc[i];
                half * r * r
            })
            .sum();
        loss / F::cast(batch.len()) + half * self.pen * w.dot(w)
    }
    fn batch_gradient(&self, w: &ArrayRef1<F>, batch: &[usize]) -> Array1<F> {
        let mut g = Array1::zeros(w.len());
        for &i in batch {
            let row = self.xc.row(i);
            let r = row.dot(w) - self.yc[i];
            g.scaled_add(r, &row);
        }
        g.mapv_inplace(|v| v / F::cast(batch.len()));
        g.scaled_add(self.pen, w);
        g
    }
}

#[allow(clippy::too_many_arguments)]
fn sgd_solve<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    m: &Moments<F>,
    alphas: &[f64],
    max_epochs: usize,
    batch_size: usize,
    step: Option<StepSize>,
    seed: u64,
) -> Result<(Array2<F>, usize, bool)> {
    let (n, d) = x.dim();
    let xc = design::centred_copy(x, &m.x_mean);
    let yc = design::centred_targets(y, &m.y_mean);
    let nf = F::cast(n);
    let max_row = xc
        .rows()
        .into_iter()
        .map(|r| r.dot(&r))
        .fold(F::zero(), |a, b| a.max(b));
    let mut w = Array2::zeros((d, y.ncols()));
    let mut n_iter = 0;
    let mut converged = true;
    for (t, &alpha) in alphas.iter().enumerate() {
        let pen = F::cast(alpha) / nf;
        let lmax = (max_row + pen).to_f64_lossless();
        let schedule = match step {
            Some(s) => s,
            None if lmax > 0.0 => StepSize::InverseSqrtT(1.0 / lmax),
            None => continue, // X_c = 0 and α = 0: w = 0
        };
        let obj = RidgeBatches {
            xc: &xc,
            yc: yc.column(t).to_owned(),
            pen,
        };
        let stop = StopCriteria::default()
            .max_iter(max_epochs)
            .f_tol(0.0)
            .x_tol(0.0)
            .g_tol(0.0);
        let res = optim::minibatch_gd(&obj, &Array1::zeros(d), batch_size, schedule, stop, seed)?;
        n_iter = n_iter.max(res.n_iter);
        converged &= res.converged || res.n_iter == max_epochs;
        w.column_mut(t).assign(&res.x);
    }
    Ok((w, n_iter, converged))
}

impl<F: Float> CheckModel for FittedRidge<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRidge");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        c.len("alphas", self.alphas.len(), self.lin.coef.nrows())?;
        c.that(
            self.alphas.iter().all(|a| a.is_finite() && *a >= 0.0),
            || "`alphas` must be finite and non-negative".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinearRegression;
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = problem();
        let mut fit = Ridge::new(0.5).fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.alphas.push(1.0);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn problem() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.0],
            [2.0, -1.0, 0.0],
            [3.0, 2.0, 1.0],
            [4.0, 0.0, -2.0],
            [5.0, 1.5, 0.5],
            [6.0, -0.5, 1.5],
            [7.0, 1.0, -0.5],
            [8.0, 2.5, 2.0]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5];
        (x, y)
    }

    #[test]
    fn one_dimensional_worked_example() {
        // The course notes' 1-D example: β̂ = xy/(x² + λ); x = 2, y = 3, λ = 1 ⇒ 1.2
        // (catalog TV33).
        let x: Array2<f64> = array![[2.0]];
        let y: Array1<f64> = array![3.0];
        for solver in [RidgeSolver::Cholesky, RidgeSolver::Svd] {
            let fit = Ridge::new(1.0)
                .fit_intercept(false)
                .solver(solver)
                .fit(&x, &y)
                .expect("fit");
            assert!((fit.coef()[0] - 1.2).abs() < 1e-15, "{solver:?}");
        }
        // β̂ ≠ 0 for every λ.
        for lambda in [0.0, 1e-3, 1.0, 1e3, 1e9] {
            let fit = Ridge::new(lambda)
                .fit_intercept(false)
                .fit(&x, &y)
                .expect("fit");
            assert!(fit.coef()[0] != 0.0);
            assert!((fit.coef()[0] - 6.0 / (4.0 + lambda)).abs() < 1e-14);
        }
    }

    #[test]
    fn cholesky_svd_and_dual_agree() {
        let (x, y) = problem();
        let a = Ridge::new(0.7).fit(&x, &y).expect("fit");
        let b = Ridge::new(0.7)
            .solver(RidgeSolver::Svd)
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(a.solver_used(), RidgeSolver::Cholesky);
        assert!((&a.coef() - &b.coef()).iter().all(|v| v.abs() < 1e-12));
        assert!((a.intercept() - b.intercept()).abs() < 1e-12);
        // Wide problem: the dual (kernel) form against the SVD.
        let xw = x.slice(s![..2, ..]).to_owned();
        let yw = y.slice(s![..2]).to_owned();
        let a = Ridge::new(0.3).fit(&xw, &yw).expect("fit");
        let b = Ridge::new(0.3)
            .solver(RidgeSolver::Svd)
            .fit(&xw, &yw)
            .expect("fit");
        assert!((&a.coef() - &b.coef()).iter().all(|v| v.abs() < 1e-12));
        // Normal equations hold: (X_cᵀX_c + αI) w = X_cᵀ y_c.
        let xm = x.mean_axis(Axis(0)).expect("rows");
        let xc = &x - &xm;
        let yc = &y - y.mean().expect("rows");
        let fit = Ridge::new(2.0).fit(&x, &y).expect("fit");
        let lhs = xc.t().dot(&xc).dot(&fit.coef()) + &fit.coef().mapv(|v| 2.0 * v);
        let rhs = xc.t().dot(&yc);
        assert!((&lhs - &rhs).iter().all(|v| v.abs() < 1e-10));
    }

    #[test]
    fn alpha_to_zero_gives_the_minimum_norm_solution() {
        // Rank-deficient: column 3 = column 0 + column 1.
        let (x, y) = problem();
        let extra = &x.column(0) + &x.column(1);
        let xd = ndarray::concatenate![Axis(1), x, extra.insert_axis(Axis(1))];
        let ols = LinearRegression::default().fit(&xd, &y).expect("fit");
        // The SVD shrinkage form σ/(σ² + α) → 1/σ on the range, 0 elsewhere.
        let mut prev = f64::INFINITY;
        for alpha in [1e-2, 1e-4, 1e-6, 1e-8, 1e-10] {
            let r = Ridge::new(alpha)
                .solver(RidgeSolver::Svd)
                .fit(&xd, &y)
                .expect("fit");
            let err = (&r.coef() - &ols.coef()).mapv(f64::abs).sum();
            assert!(err < prev, "alpha {alpha}: {err} not below {prev}");
            prev = err;
        }
        assert!(prev < 1e-8, "{prev}");
        // The normal equations get there too, until cond(XᵀX + αI) ~ 1/α costs digits.
        let r = Ridge::new(1e-6).fit(&xd, &y).expect("fit");
        assert!((&r.coef() - &ols.coef()).iter().all(|v| v.abs() < 1e-4));
        // α = 0 exactly on rank-deficient data: Cholesky fails, SVD gives the pinv solution.
        let r = Ridge::new(0.0).fit(&xd, &y).expect("fit");
        assert_eq!(r.solver_used(), RidgeSolver::Svd);
        assert!((&r.coef() - &ols.coef()).iter().all(|v| v.abs() < 1e-9));
    }

    #[test]
    fn per_target_alphas_match_single_fits() {
        let (x, y) = problem();
        let y2 = ndarray::stack![Axis(1), y, y.mapv(|v| 2.0 - v), y.mapv(|v| v * v)];
        let alphas = [0.5, 3.0, 0.5];
        for solver in [RidgeSolver::Cholesky, RidgeSolver::Svd] {
            let fit = Ridge::default()
                .solver(solver)
                .fit_multi_alphas(&x, &y2, &alphas)
                .expect("fit");
            for (t, &alpha) in alphas.iter().enumerate() {
                let one = Ridge::new(alpha)
                    .fit(&x, &y2.column(t).to_owned())
                    .expect("fit");
                let diff = &fit.coef_multi().row(t) - &one.coef();
                assert!(
                    diff.iter().all(|v| v.abs() < 1e-12),
                    "{solver:?} target {t}"
                );
                assert!((fit.intercept_multi()[t] - one.intercept()).abs() < 1e-12);
            }
            assert_eq!(fit.alphas(), &alphas);
        }
        assert!(matches!(
            Ridge::default().fit_multi_alphas(&x, &y2, &[1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            Ridge::default().fit_multi_alphas(&x, &y2, &[1.0, -1.0, 1.0]),
            Err(Error::InvalidParam { .. })
        ));
        let same = Ridge::new(0.5).fit_multi(&x, &y2).expect("fit");
        assert!(same.predict_multi(&x).expect("predict").dim() == (8, 3));
    }

    #[test]
    fn sgd_approaches_the_closed_form() {
        let (x, y) = problem();
        let exact = Ridge::new(1.0).fit(&x, &y).expect("fit");
        let sgd = Ridge::new(1.0)
            .solver(RidgeSolver::Sgd {
                max_epochs: 3000,
                batch_size: 4,
                step: None,
                seed: 7,
            })
            .fit(&x, &y)
            .expect("fit");
        let scale = exact.coef().iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let err = (&sgd.coef() - &exact.coef())
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(err < 2e-2 * scale, "SGD error {err} vs scale {scale}");
        assert_eq!(sgd.n_iter(), 3000);
        // Same seed, same answer.
        let again = Ridge::new(1.0)
            .solver(RidgeSolver::Sgd {
                max_epochs: 3000,
                batch_size: 4,
                step: None,
                seed: 7,
            })
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(again.coef(), sgd.coef());
    }

    #[test]
    fn invalid_hyperparameters() {
        let (x, y) = problem();
        for bad in [
            Ridge::new(-1.0),
            Ridge::new(f64::NAN),
            Ridge::default().solver(RidgeSolver::Sgd {
                max_epochs: 0,
                batch_size: 1,
                step: None,
                seed: 0,
            }),
            Ridge::default().solver(RidgeSolver::Sgd {
                max_epochs: 5,
                batch_size: 0,
                step: None,
                seed: 0,
            }),
            Ridge::default().solver(RidgeSolver::Sgd {
                max_epochs: 5,
                batch_size: 1,
                step: Some(StepSize::backtracking()),
                seed: 0,
            }),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
    }
}
