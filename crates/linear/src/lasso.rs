//! The lasso ([`Lasso`]) and the elastic net ([`ElasticNet`]).
//!
//! # Objective
//!
//! scikit-learn's, with an unpenalised intercept (`ρ` = `l1_ratio`; the lasso is `ρ = 1`):
//!
//! ```text
//! min_{w, b}  (1/(2N)) ‖y − Xw − b‖² + α ρ ‖w‖₁ + ½ α (1 − ρ) ‖w‖²
//! ```
//!
//! The course notes write the lasso as `‖Xw − y‖² + λ‖w‖₁` or `½‖Xβ − y‖² + λ‖β‖₁`; these are the
//! same problem with `λ = 2Nα` and `λ = Nα`. For `α ≥ α_max = ‖X_cᵀy_c‖_∞ / (N ρ)` the
//! solution is `w = 0` (the course notes' 1-D rule `β̂ = 0 ⇔ λ ≥ |xy|`). There is no closed form; the
//! L1 term makes the solution sparse. The elastic net is not written out in the course notes (catalog
//! L-06 names it only); the form above is scikit-learn's.
//!
//! # Solvers ([`EnetSolver`])
//!
//! - **Coordinate descent** (default), cyclic, with scikit-learn's stopping rule: a duality gap
//!   below `tol·‖y_c‖²` (un-normalised objective), checked whenever a sweep's largest
//!   coefficient change falls below `tol` times the largest coefficient; gap-safe screening drops
//!   features that are provably zero. Two storage variants (the choice changes the speed, not
//!   the answer): **dense** on a centred column-major copy of `X` (`O(N D)` per sweep), and
//!   **Gram** on `X_cᵀX_c` and `X_cᵀy_c` (one gemm, then `O(D²)` per sweep), chosen by
//!   [`Precompute`]: `Auto` takes the Gram variant when `N ≥ 2D` and `D ≤ 1024` (the gemm then
//!   costs less than a few dense sweeps; an implementation choice), scikit-learn's
//!   `precompute=False` default corresponds to `Never`. The details are in the solver module
//!   (`src/cd.rs`). Coordinate descent is not in the course notes.
//! - **ISTA / FISTA** (the course notes' algorithm for the lasso; Daubechies, Defrise & De Mol,
//!   Comm. Pure Appl. Math. 57(11), 2004; Beck & Teboulle, SIAM J. Imaging Sciences 2(1),
//!   2009): proximal gradient on the smooth part `(1/(2N))‖y_c − X_c w‖² + ½α(1 − ρ)‖w‖²`
//!   (Gram form) with step `1/L`, `L = λ_max(X_cᵀX_c)/N + α(1 − ρ)` (the course notes'
//!   `τ = 1/σ₁(X)²` in this scaling), from `w = 0`, through `ndlearn_core::optim::proximal`;
//!   stops when the gradient-mapping norm is at most `tol·‖X_cᵀy_c‖/N` or after `max_iter`
//!   iterations.
//! - **Subgradient** descent (Shor, *Minimization Methods for Non-Differentiable Functions*,
//!   Springer, 1985) with a subgradient
//!   `∇f(w) + αρ·sign(w)` (`sign(0) = 0`) and the given step schedule, through
//!   `ndlearn_core::optim::subgradient_method`, returning the best iterate after `max_iter`
//!   steps; it only approaches the optimum (no sparsity at finite steps).
//!
//! ISTA, FISTA and the subgradient method are for teaching and tests; `positive` needs
//! coordinate descent.
//!
//! # Warm starts and multi-output
//!
//! [`ElasticNet::fit_from`] / [`Lasso::fit_from`] start coordinate descent from given
//! coefficients (scikit-learn's `warm_start`); a start that is already optimal returns after 0
//! sweeps. `fit_multi` fits each column of an `N × k` target independently (as scikit-learn's
//! `ElasticNet` does with 2-D `y`; this is not the multi-task lasso).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `alpha` | 1.0 | `alpha` | finite, ≥ 0 |
//! | `l1_ratio` (elastic net) | 0.5 | `l1_ratio` | `[0, 1]` |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `max_iter` | 1000 | `max_iter` | ≥ 1 |
//! | `tol` | 1e-4 | `tol` | finite, ≥ 0 |
//! | `positive` | `false` | `positive` | coordinate descent only |
//! | `precompute` | [`Precompute::Auto`] | `precompute` | |
//! | `solver` | [`EnetSolver::CoordinateDescent`] | — | |
//!
//! # Errors
//!
//! As [`crate::LinearRegression`]; [`Error::InvalidParam`] for invalid hyperparameters,
//! [`Error::ShapeMismatch`] for a warm start of the wrong length. Non-convergence is reported by
//! [`FittedElasticNet::converged`], not as an error.
//!
//! # References
//!
//! - Course notes: lasso (1-D solution, ISTA, subgradient descent); elastic net named only;
//!   catalog L-05, L-06 (CL-075, CL-076, CL-077).
//! - R. Tibshirani, "Regression shrinkage and selection via the lasso", JRSS B 58(1), 1996;
//!   H. Zou, T. Hastie, "Regularization and variable selection via the elastic net", JRSS B
//!   67(2), 2005.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_linear::{ElasticNet, Lasso};
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("regression target");
//! let lasso = Lasso::new(0.5).fit(data.x(), y)?;
//! assert!(lasso.converged());
//! assert!(lasso.coef().iter().any(|&w| w == 0.0));      // sparse
//! let enet = ElasticNet::new(0.01, 0.5).fit(data.x(), y)?;
//! assert_eq!(enet.predict(data.x())?.len(), 442);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2};
use ndlearn_core::Estimator;
use ndlearn_core::optim::StepSize;
use ndlearn_core::{Error, Fit, Float, Result};

pub(crate) use crate::cd::{Prepared, cd_gram, settings};
use crate::design::{self, Moments, as_column, check_xy};
use crate::enet_first_order::first_order;
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::stats::mergeable::CrossMoments;
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Whether coordinate descent works on the Gram matrix `X_cᵀX_c` or on the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Precompute {
    /// Gram when `N ≥ 2D` and `D ≤ 1024`, else the data.
    #[default]
    Auto,
    /// Always the Gram matrix.
    Always,
    /// Always the data (scikit-learn's default `precompute=False`).
    Never,
}

impl Precompute {
    pub(crate) fn use_gram(self, n: usize, d: usize) -> bool {
        match self {
            Self::Auto => n >= 2 * d && d <= 1024,
            Self::Always => true,
            Self::Never => false,
        }
    }
}

/// The algorithm of [`ElasticNet`] / [`Lasso`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum EnetSolver {
    /// Cyclic coordinate descent with the duality-gap stopping rule.
    #[default]
    CoordinateDescent,
    /// ISTA (proximal gradient, step `1/L`).
    Ista,
    /// FISTA (accelerated proximal gradient, step `1/L`).
    Fista,
    /// Subgradient descent with a fixed step schedule (best iterate).
    Subgradient {
        /// The step schedule (`Constant`, `InverseT`, `InverseSqrtT`).
        step: StepSize,
    },
}

/// The elastic net (scikit-learn's `ElasticNet`). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ElasticNet {
    /// Overall penalty `α ≥ 0` (default 1.0).
    pub alpha: f64,
    /// Mix `ρ ∈ [0, 1]` of L1 (`ρ = 1`: lasso) and L2 (default 0.5).
    pub l1_ratio: f64,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Maximum sweeps / iterations (default 1000).
    pub max_iter: usize,
    /// Tolerance (default 1e-4; see the solvers for its meaning).
    pub tol: f64,
    /// Constrain the coefficients to be ≥ 0 (default `false`).
    pub positive: bool,
    /// Gram-matrix variant of coordinate descent (default [`Precompute::Auto`]).
    pub precompute: Precompute,
    /// The algorithm (default coordinate descent).
    pub solver: EnetSolver,
}

impl Default for ElasticNet {
    fn default() -> Self {
        Self {
            alpha: 1.0,
            l1_ratio: 0.5,
            fit_intercept: true,
            max_iter: 1000,
            tol: 1e-4,
            positive: false,
            precompute: Precompute::Auto,
            solver: EnetSolver::CoordinateDescent,
        }
    }
}

macro_rules! enet_setters {
    () => {
        ndlearn_core::setters! {
            /// Sets `alpha`.
            alpha: f64,
            /// Sets `fit_intercept`.
            fit_intercept: bool,
            /// Sets `max_iter`.
            max_iter: usize,
            /// Sets `tol`.
            tol: f64,
            /// Sets `positive`.
            positive: bool,
            /// Sets `precompute`.
            precompute: Precompute,
            /// Sets the solver.
            solver: EnetSolver,
        }
    };
}

impl ElasticNet {
    /// An elastic net with penalty `alpha` and mix `l1_ratio`, other settings default.
    pub fn new(alpha: f64, l1_ratio: f64) -> Self {
        Self {
            alpha,
            l1_ratio,
            ..Self::default()
        }
    }

    enet_setters!();

    ndlearn_core::setters! {
        /// Sets `l1_ratio`.
        l1_ratio: f64,
    }

    /// Fits every column of `y` (`N × k`) independently.
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedElasticNet<F>> {
        fit_enet(self, x, y.view(), None, true).map(FittedElasticNet::from)
    }

    /// Fits starting coordinate descent from `coef_init` (scikit-learn's `warm_start`).
    ///
    /// # Errors
    /// As [`Fit::fit`]; [`Error::ShapeMismatch`] when `coef_init` does not have one entry per
    /// feature, [`Error::NonFinite`] for a non-finite start.
    pub fn fit_from<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        coef_init: &ArrayRef1<F>,
    ) -> Result<FittedElasticNet<F>> {
        let init = coef_init.view().insert_axis(ndarray::Axis(0));
        fit_enet(self, x, as_column(y), Some(init), false).map(FittedElasticNet::from)
    }

    /// Fits from merged moments (count, means, `X_cᵀy_c`, `‖y_c‖²` and the Gram matrix
    /// `X_cᵀX_c`; core's mergeable [`CrossMoments`], accumulated with `gram: true` and centred
    /// when `fit_intercept`): the fit the Gram path of [`Fit::fit`] computes from the rows those
    /// moments were read from (row blocks on threads, partitions of a table on other machines),
    /// with every solver. One target gives a single-output model, several a multi-output one.
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use ndlearn_core::stats::mergeable::{CrossMoments, CrossSpec, Mergeable, RowBlock};
    /// use ndlearn_core::{Fit, Predict};
    /// use ndlearn_linear::{ElasticNet, Precompute};
    ///
    /// let x = Array2::from_shape_fn((40, 3), |(i, j)| ((i * 7 + j * 3) % 11) as f64 - 5.0);
    /// let y = x.column(0).mapv(|v| 2.0 * v) - &x.column(2) + 1.0;
    /// let spec = CrossSpec { n_features: 3, n_targets: 1, centred: true, gram: true };
    /// let y2 = y.view().insert_axis(ndarray::Axis(1));
    /// let mut m = CrossMoments::zero(&spec);
    /// for r in [0..15, 15..40] {
    ///     let part = CrossMoments::of(&spec, &RowBlock::new(x.slice(s![r.clone(), ..])).targets(y2.slice(s![r, ..])))?;
    ///     m.merge(&part)?;
    /// }
    /// let est = ElasticNet::new(0.1, 0.5).precompute(Precompute::Always);
    /// let merged = est.fit_moments(&m)?;
    /// let direct = est.fit(&x, &y)?;
    /// assert!((&merged.coef() - &direct.coef()).iter().all(|v| v.abs() < 1e-10));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Invalid hyperparameters; [`Error::InvalidParam`] for moments without a Gram matrix or
    /// target, or centred differently from `fit_intercept`; [`Error::TooFewSamples`] for
    /// moments of no rows.
    pub fn fit_moments<F: Float>(&self, m: &CrossMoments<F>) -> Result<FittedElasticNet<F>> {
        enet_from_moments(self, m).map(FittedElasticNet::from)
    }
}

impl ndlearn_core::Estimator for ElasticNet {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field (see the table in the [module docs](self)).
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_in_range, check_non_negative};
        check_non_negative("alpha", self.alpha)?;
        check_in_range("l1_ratio", self.l1_ratio, 0.0, 1.0)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        match self.solver {
            EnetSolver::CoordinateDescent => {}
            EnetSolver::Subgradient { step } => {
                if step.is_backtracking() {
                    return Err(Error::invalid_param(
                        "step",
                        "the subgradient method needs a fixed schedule (Constant, InverseT or InverseSqrtT)",
                    ));
                }
                step.validate()?;
            }
            EnetSolver::Ista | EnetSolver::Fista => {}
        }
        if self.positive && self.solver != EnetSolver::CoordinateDescent {
            return Err(Error::invalid_param(
                "positive",
                "the positivity constraint needs the coordinate-descent solver",
            ));
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for ElasticNet {
    type Target = ArrayRef1<F>;
    type Model = FittedElasticNet<F>;

    /// Fits the elastic net from `w = 0` (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedElasticNet<F>> {
        fit_enet(self, x, as_column(y), None, false).map(FittedElasticNet::from)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for ElasticNet {
    /// Fits every column of `y` (see [`ElasticNet::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedElasticNet<F>> {
        ElasticNet::fit_multi(self, x, y)
    }
}

/// The lasso (scikit-learn's `Lasso`): [`ElasticNet`] with `l1_ratio = 1`. See the
/// [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Lasso {
    /// Penalty `α ≥ 0` (default 1.0).
    pub alpha: f64,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Maximum sweeps / iterations (default 1000).
    pub max_iter: usize,
    /// Tolerance (default 1e-4).
    pub tol: f64,
    /// Constrain the coefficients to be ≥ 0 (default `false`).
    pub positive: bool,
    /// Gram-matrix variant of coordinate descent (default [`Precompute::Auto`]).
    pub precompute: Precompute,
    /// The algorithm (default coordinate descent).
    pub solver: EnetSolver,
}

impl Default for Lasso {
    fn default() -> Self {
        Self::from_enet(&ElasticNet::default())
    }
}

impl Lasso {
    /// A lasso with penalty `alpha`, other settings default.
    pub fn new(alpha: f64) -> Self {
        Self {
            alpha,
            ..Self::default()
        }
    }

    enet_setters!();

    fn from_enet(e: &ElasticNet) -> Self {
        Self {
            alpha: e.alpha,
            fit_intercept: e.fit_intercept,
            max_iter: e.max_iter,
            tol: e.tol,
            positive: e.positive,
            precompute: e.precompute,
            solver: e.solver,
        }
    }

    /// The equivalent [`ElasticNet`] (`l1_ratio = 1`).
    pub fn as_elastic_net(&self) -> ElasticNet {
        ElasticNet {
            alpha: self.alpha,
            l1_ratio: 1.0,
            fit_intercept: self.fit_intercept,
            max_iter: self.max_iter,
            tol: self.tol,
            positive: self.positive,
            precompute: self.precompute,
            solver: self.solver,
        }
    }

    /// Fits every column of `y` (`N × k`) independently.
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedLasso<F>> {
        fit_enet(&self.as_elastic_net(), x, y.view(), None, true).map(FittedLasso::from)
    }

    /// Fits starting coordinate descent from `coef_init` (scikit-learn's `warm_start`).
    ///
    /// # Errors
    /// As [`ElasticNet::fit_from`].
    pub fn fit_from<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        coef_init: &ArrayRef1<F>,
    ) -> Result<FittedLasso<F>> {
        let init = coef_init.view().insert_axis(ndarray::Axis(0));
        fit_enet(&self.as_elastic_net(), x, as_column(y), Some(init), false).map(FittedLasso::from)
    }

    /// Fits from merged moments with their Gram matrix (see [`ElasticNet::fit_moments`]).
    ///
    /// # Errors
    /// As [`ElasticNet::fit_moments`].
    pub fn fit_moments<F: Float>(&self, m: &CrossMoments<F>) -> Result<FittedLasso<F>> {
        enet_from_moments(&self.as_elastic_net(), m).map(FittedLasso::from)
    }
}

impl ndlearn_core::Estimator for Lasso {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// As [`ElasticNet::validate`].
    fn validate(&self) -> Result<()> {
        self.as_elastic_net().validate()
    }
}

impl<F: Float> Fit<F> for Lasso {
    type Target = ArrayRef1<F>;
    type Model = FittedLasso<F>;

    /// Fits the lasso from `w = 0` (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedLasso<F>> {
        fit_enet(&self.as_elastic_net(), x, as_column(y), None, false).map(FittedLasso::from)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for Lasso {
    /// Fits every column of `y` (see [`Lasso::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedLasso<F>> {
        Lasso::fit_multi(self, x, y)
    }
}

// ---------------------------------------------------------------------------------------------
// Fitted models

/// What every elastic-net fit produces.
pub(crate) struct EnetFit<F: Float> {
    pub params: ElasticNet,
    pub lin: LinearCoef<F>,
    pub n_iter: usize,
    pub dual_gap: Vec<F>,
    pub converged: bool,
}

macro_rules! enet_model {
    ($(#[$doc:meta])* $name:ident, $params:ty, $conv:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name<F: Float> {
            params: $params,
            pub(crate) lin: LinearCoef<F>,
            n_iter: usize,
            dual_gap: Vec<F>,
            converged: bool,
        }

        linear_model_api!($name);

        impl<F: Float> From<EnetFit<F>> for $name<F> {
            fn from(f: EnetFit<F>) -> Self {
                Self {
                    params: $conv(&f.params),
                    lin: f.lin,
                    n_iter: f.n_iter,
                    dual_gap: f.dual_gap,
                    converged: f.converged,
                }
            }
        }

        impl<F: Float> CheckModel for $name<F> {
            fn check_model(&self) -> Result<()> {
                let c = ModelCheck::new(stringify!($name));
                c.params(&self.params)?;
                c.part("lin", &self.lin)?;
                c.len("dual_gap", self.dual_gap.len(), self.lin.coef.nrows())
            }
        }

        impl<F: Float> $name<F> {
            /// The hyperparameters of the fit.
            pub fn params(&self) -> &$params {
                &self.params
            }
            /// Sweeps (coordinate descent) or iterations (other solvers), the largest over
            /// targets (scikit-learn's `n_iter_`).
            pub fn n_iter(&self) -> usize {
                self.n_iter
            }
            /// Final duality gap of each target divided by `N` (scikit-learn's `dual_gap_`;
            /// coordinate descent only, 0 for the other solvers).
            pub fn dual_gap(&self) -> &[F] {
                &self.dual_gap
            }
            /// Whether every target met the tolerance before `max_iter`.
            pub fn converged(&self) -> bool {
                self.converged
            }
        }
    };
}

enet_model!(
    /// A fitted [`ElasticNet`].
    FittedElasticNet,
    ElasticNet,
    |p: &ElasticNet| *p
);
enet_model!(
    /// A fitted [`Lasso`].
    FittedLasso,
    Lasso,
    Lasso::from_enet
);

// ---------------------------------------------------------------------------------------------
// Fitting

pub(crate) fn fit_enet<F: Float>(
    p: &ElasticNet,
    x: &ArrayRef2<F>,
    y: ArrayView2<'_, F>,
    init: Option<ArrayView2<'_, F>>,
    multi_output: bool,
) -> Result<EnetFit<F>> {
    p.validate()?;
    check_xy(x, &y, 1, "ElasticNet::fit")?;
    let (n, d) = x.dim();
    let k = y.ncols();
    let mut w = Array2::<F>::zeros((d, k));
    if let Some(init) = init {
        if init.ncols() != d || init.nrows() != k {
            return Err(Error::ShapeMismatch {
                context: "warm start",
                expected: format!("{d} coefficients (one per feature)"),
                found: format!("{}", init.ncols()),
            });
        }
        ndlearn_core::validate::check_finite_2d(&init, "coef_init")?;
        w.assign(&init.t());
    }
    let m = design::column_sums_and_xty(x, &y, p.fit_intercept)?;
    if p.solver != EnetSolver::CoordinateDescent || p.precompute.use_gram(n, d) {
        // the Gram path: everything from the moments (as a fit from merged moments)
        let g = design::gram(x, &m);
        return enet_from_gram(p, &m, &g, w, multi_output);
    }
    let prep = Prepared::new(x, &m, false);
    let yc = design::centred_targets(&y, &m.y_mean);
    let s = settings::<F>(p, p.alpha, n);
    let mut n_iter = 0;
    let mut converged = true;
    let mut gaps = vec![F::zero(); k];
    for (t, gap) in gaps.iter_mut().enumerate() {
        let ycol: Vec<F> = yc.column(t).to_vec();
        let xty: Vec<F> = m.xty.column(t).to_vec();
        let mut wt: Vec<F> = w.column(t).to_vec();
        let out = prep.solve(&ycol, &xty, m.yty[t], &mut wt, &s);
        w.column_mut(t).assign(&Array1::from(wt));
        n_iter = n_iter.max(out.n_iter);
        converged &= out.converged;
        *gap = out.gap / F::cast(n);
    }
    enet_result(p, &m, w, n_iter, gaps, converged, multi_output)
}

/// The elastic net from the moments and their Gram matrix `g` alone, from `w` (`d × k`): every
/// solver (coordinate descent in its Gram form, subgradient, ISTA, FISTA).
pub(crate) fn enet_from_gram<F: Float>(
    p: &ElasticNet,
    m: &Moments<F>,
    g: &Array2<F>,
    mut w: Array2<F>,
    multi_output: bool,
) -> Result<EnetFit<F>> {
    let k = m.xty.ncols();
    let mut n_iter = 0;
    let mut converged = true;
    let mut gaps = vec![F::zero(); k];
    match p.solver {
        EnetSolver::CoordinateDescent => {
            let s = settings::<F>(p, p.alpha, m.n);
            for (t, gap) in gaps.iter_mut().enumerate() {
                let xty: Vec<F> = m.xty.column(t).to_vec();
                let mut wt: Vec<F> = w.column(t).to_vec();
                let out = cd_gram(g, &xty, m.yty[t], &mut wt, &s);
                w.column_mut(t).assign(&Array1::from(wt));
                n_iter = n_iter.max(out.n_iter);
                converged &= out.converged;
                *gap = out.gap / F::cast(m.n);
            }
        }
        solver => {
            for t in 0..k {
                let (wt, it, conv) = first_order(p, solver, g, m, t, w.column(t).to_owned())?;
                w.column_mut(t).assign(&wt);
                n_iter = n_iter.max(it);
                converged &= conv;
            }
        }
    }
    enet_result(p, m, w, n_iter, gaps, converged, multi_output)
}

/// Checks the coefficients and recovers the intercept.
fn enet_result<F: Float>(
    p: &ElasticNet,
    m: &Moments<F>,
    w: Array2<F>,
    n_iter: usize,
    dual_gap: Vec<F>,
    converged: bool,
    multi_output: bool,
) -> Result<EnetFit<F>> {
    if !w.iter().all(|v| v.is_finite()) {
        return Err(Error::NonFinite {
            context: "elastic-net coefficients (the data may be too large; rescale it)",
            row: 0,
            col: 0,
        });
    }
    Ok(EnetFit {
        params: *p,
        lin: LinearCoef::from_solution(&w, &m.x_mean, &m.y_mean, multi_output),
        n_iter,
        dual_gap,
        converged,
    })
}

/// The elastic net from merged moments (see [`ElasticNet::fit_moments`]).
pub(crate) fn enet_from_moments<F: Float>(
    p: &ElasticNet,
    m: &CrossMoments<F>,
) -> Result<EnetFit<F>> {
    p.validate()?;
    let g = design::check_moments(m, p.fit_intercept, "ElasticNet::fit_moments")?;
    let (d, k) = m.xty.dim();
    enet_from_gram(p, m, g, Array2::zeros((d, k)), k > 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Axis, array};
    use ndlearn_core::Predict;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = problem();
        let mut fit = Lasso::new(0.1).fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.lin.coef = Array2::zeros((1, 0));
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = ElasticNet::new(0.1, 0.5).fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.dual_gap.clear();
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn problem() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.0, 0.3],
            [2.0, -1.0, 0.0, 0.1],
            [3.0, 2.0, 1.0, -0.4],
            [4.0, 0.0, -2.0, 0.8],
            [5.0, 1.5, 0.5, -0.2],
            [6.0, -0.5, 1.5, 0.0],
            [7.0, 1.0, -0.5, 0.6],
            [8.0, 2.5, 2.0, -0.9]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5];
        (x, y)
    }

    fn objective(
        x: &Array2<f64>,
        y: &Array1<f64>,
        w: &ArrayRef1<f64>,
        b: f64,
        alpha: f64,
        rho: f64,
    ) -> f64 {
        let r = y - &(x.dot(w) + b);
        let n = x.nrows() as f64;
        r.dot(&r) / (2.0 * n)
            + alpha * rho * w.iter().map(|v| v.abs()).sum::<f64>()
            + 0.5 * alpha * (1.0 - rho) * w.dot(w)
    }

    #[test]
    fn large_alpha_gives_all_zeros() {
        let (x, y) = problem();
        let xm = x.mean_axis(Axis(0)).expect("rows");
        let yc = &y - y.mean().expect("rows");
        let alpha_max = (&x - &xm)
            .t()
            .dot(&yc)
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()))
            / 8.0;
        for precompute in [Precompute::Always, Precompute::Never] {
            let fit = Lasso::new(alpha_max)
                .precompute(precompute)
                .fit(&x, &y)
                .expect("fit");
            assert!(fit.coef().iter().all(|&w| w == 0.0));
            assert!((fit.intercept() - y.mean().expect("rows")).abs() < 1e-12);
            assert_eq!(fit.n_iter(), 0, "w = 0 is optimal before the first sweep");
            // Just below α_max the optimum is non-zero (with a tolerance tight enough that
            // w = 0 does not already pass the gap test).
            let below = Lasso::new(alpha_max * 0.99)
                .tol(1e-12)
                .precompute(precompute)
                .fit(&x, &y)
                .expect("fit");
            assert!(below.coef().iter().any(|&w| w != 0.0));
        }
    }

    #[test]
    fn gram_and_dense_agree_and_beat_perturbations() {
        let (x, y) = problem();
        for (alpha, rho) in [(0.1, 1.0), (0.05, 0.5), (0.3, 0.2)] {
            let est = ElasticNet::new(alpha, rho).tol(1e-12).max_iter(100_000);
            let a = est.precompute(Precompute::Always).fit(&x, &y).expect("fit");
            let b = est.precompute(Precompute::Never).fit(&x, &y).expect("fit");
            assert!(a.converged() && b.converged());
            assert!((&a.coef() - &b.coef()).iter().all(|v| v.abs() < 1e-8));
            let f0 = objective(&x, &y, &a.coef(), a.intercept(), alpha, rho);
            for j in 0..4 {
                for delta in [1e-4, -1e-4] {
                    let mut w = a.coef().to_owned();
                    w[j] += delta;
                    let xm = x.mean_axis(Axis(0)).expect("rows");
                    let b = y.mean().expect("rows") - xm.dot(&w);
                    assert!(objective(&x, &y, &w, b, alpha, rho) >= f0 - 1e-14);
                }
            }
        }
    }

    #[test]
    fn teaching_solvers_agree_with_coordinate_descent() {
        let (x, y) = problem();
        let cd = ElasticNet::new(0.05, 0.7)
            .tol(1e-14)
            .max_iter(100_000)
            .fit(&x, &y)
            .expect("fit");
        for solver in [EnetSolver::Ista, EnetSolver::Fista] {
            let fit = ElasticNet::new(0.05, 0.7)
                .solver(solver)
                .tol(1e-12)
                .max_iter(1_000_000)
                .fit(&x, &y)
                .expect("fit");
            assert!(fit.converged(), "{solver:?}");
            let err = (&fit.coef() - &cd.coef())
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(err < 1e-8, "{solver:?}: {err}");
        }
        let sub = ElasticNet::new(0.05, 0.7)
            .solver(EnetSolver::Subgradient {
                step: StepSize::InverseSqrtT(0.05),
            })
            .max_iter(200_000)
            .fit(&x, &y)
            .expect("fit");
        let f_cd = objective(&x, &y, &cd.coef(), cd.intercept(), 0.05, 0.7);
        let f_sub = objective(&x, &y, &sub.coef(), sub.intercept(), 0.05, 0.7);
        assert!(
            f_sub - f_cd < 1e-4 * f_cd.abs().max(1.0),
            "{f_sub} vs {f_cd}"
        );
    }

    #[test]
    fn warm_start_and_positive() {
        let (x, y) = problem();
        let est = Lasso::new(0.05).tol(1e-10);
        let cold = est.fit(&x, &y).expect("fit");
        let warm = est.fit_from(&x, &y, &cold.coef()).expect("fit");
        assert_eq!(warm.n_iter(), 0);
        assert_eq!(warm.coef(), cold.coef());
        assert!(matches!(
            est.fit_from(&x, &y, &array![1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        let pos = Lasso::new(0.01).positive(true).fit(&x, &y).expect("fit");
        assert!(pos.coef().iter().all(|&w| w >= 0.0));
        let neg_y = y.mapv(|v| -v);
        let pos = Lasso::new(0.01)
            .positive(true)
            .fit(&x, &neg_y)
            .expect("fit");
        assert!(pos.coef().iter().all(|&w| w >= 0.0));
        assert!(pos.predict(&x).is_ok());
    }

    #[test]
    fn l1_ratio_zero_is_ridge() {
        // ElasticNet(α, 0) = Ridge with penalty N·α (objective ½N(..) scaling).
        let (x, y) = problem();
        let en = ElasticNet::new(0.2, 0.0)
            .tol(1e-14)
            .max_iter(1_000_000)
            .fit(&x, &y)
            .expect("fit");
        let r = crate::Ridge::new(0.2 * 8.0).fit(&x, &y).expect("fit");
        assert!((&en.coef() - &r.coef()).iter().all(|v| v.abs() < 1e-8));
    }

    #[test]
    fn invalid_hyperparameters() {
        let (x, y) = problem();
        for bad in [
            ElasticNet::new(-1.0, 0.5),
            ElasticNet::new(1.0, 1.5),
            ElasticNet::new(1.0, 0.5).max_iter(0),
            ElasticNet::new(1.0, 0.5).tol(-1.0),
            ElasticNet::new(1.0, 0.5)
                .solver(EnetSolver::Ista)
                .positive(true),
            ElasticNet::new(1.0, 0.5).solver(EnetSolver::Subgradient {
                step: StepSize::backtracking(),
            }),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        assert!(Lasso::new(f64::NAN).fit(&x, &y).is_err());
    }
}
