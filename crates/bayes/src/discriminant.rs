//! Gaussian discriminant analysis: [`LinearDiscriminantAnalysis`] (shared covariance; catalog
//! G-05) and [`QuadraticDiscriminantAnalysis`] (one covariance per class, GDA; catalog G-04),
//! as scikit-learn's classes of the same names.
//!
//! # LDA
//!
//! Classes are Gaussian with means `μ_c` and one shared covariance `Σ`, so the posterior is a
//! softmax of linear scores (Hastie, Tibshirani & Friedman, *The Elements of Statistical
//! Learning*, 2nd ed. (2009), §4.3; Bishop, *Pattern Recognition and Machine Learning* (2006),
//! §4.2.1):
//!
//! ```text
//! p(c | x) = softmax_c(β_cᵀ x + γ_c),   β_c = Σ⁻¹ μ_c,   γ_c = −½ μ_cᵀ Σ⁻¹ μ_c + log π_c,
//! ```
//!
//! exposed as [`FittedLinearDiscriminantAnalysis::beta`] and `gamma`. `Σ` is the pooled MLE
//! `Σ_c π_c Σ̂_c` (the course notes leave it unwritten; with the default priors `π_c = N_c/N` this is
//! the within-class scatter over `N`). Solvers:
//!
//! * **`Svd`** (default): never forms `Σ`; whitens the within-class data by an SVD (rank cut at
//!   `tol`; computed from the `d × d` Gram matrix when every singular value is either well
//!   resolved by it, `κ ≤ 1e3` among the kept ones, or clearly below the cut, as for redundant
//!   or repeated features), then finds the between-class directions by a second SVD. Works
//!   for singular `Σ`
//!   and gives [`Transform`] (the Fisher directions, `min(C − 1, d)` of them). Without
//!   shrinkage all three solvers give the same `β`, `γ` and probabilities (up to rounding).
//! * **`Lsqr`**: `β_c` by least squares on `Σ β_c = μ_c`; supports shrinkage.
//! * **`Eigen`**: the generalised eigenproblem `S_B v = λ S_W v` (Fisher's criterion,
//!   catalog G-06) with `S_B = S_T − S_W`; supports shrinkage and gives `transform`.
//!
//! **Shrinkage** ([`Shrinkage`], lsqr and eigen only) regularises each class covariance towards
//! a scaled identity: a fixed `s ∈ [0, 1]`, or Ledoit–Wolf's optimal `s` on standardised data
//! ([`crate::covariance`]).
//!
//! Two classes: [`FittedLinearDiscriminantAnalysis::coef`] is the single row
//! `β_1 − β_0` (scikit-learn's `coef_`), and `decision_function` its log-odds.
//!
//! # QDA
//!
//! Each class has its own covariance, the MLE `Σ̂_c = (1/N_c) Σ (x − μ_c)(x − μ_c)ᵀ` of the
//! notes (as scikit-learn ≥ 1.8), either from an SVD of the centred class rows,
//! `Σ_c = V diag(S²/N_c) Vᵀ`, regularised as `(1 − r) S²/N_c + r` (`reg_param = r`; solver
//! `Svd`), or from an eigendecomposition of the (optionally shrunk, [`Shrinkage`]) covariance
//! (solver `Eigen`). The score is
//! `log π_c − ½ log|Σ_c| − ½ (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c)`: boundaries are quadratic. A class
//! whose (regularised) covariance is singular is a typed error suggesting `reg_param`
//! (scikit-learn only warns and then divides by ~0).
//!
//! ```
//! use ndlearn_bayes::{LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict, Transform};
//!
//! let x = array![[1.0, 2.0], [2.0, 3.0], [3.0, 3.0], [2.0, 1.0],
//!                [6.0, 5.0], [7.0, 8.0], [8.0, 7.0], [7.0, 6.0]];
//! let y = array![0usize, 0, 0, 0, 1, 1, 1, 1];
//! let lda = LinearDiscriminantAnalysis::default().fit(&x, &y)?;
//! assert_eq!(lda.predict(&array![[2.0, 2.0], [7.0, 7.0]])?.to_vec(), vec![0, 1]);
//! assert_eq!(lda.transform(&x)?.ncols(), 1); // C − 1 directions
//! let qda = QuadraticDiscriminantAnalysis::default().fit(&x, &y)?;
//! assert_eq!(qda.predict(&array![[2.0, 2.0], [7.0, 7.0]])?.to_vec(), vec![0, 1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg;
use ndlearn_core::stats::mergeable::ClassScatter;
use ndlearn_core::stats::symmetrize;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_finite_through, check_n_features,
    check_predict_input,
};
use ndlearn_core::{Error, Fit, Float, Labels, Result, Transform};

use crate::covariance::{empirical_covariance, ledoit_wolf, shrunk_covariance};
use crate::framework::{JointLogLikelihood, bayes_predict, check_priors};

/// The solver of [`LinearDiscriminantAnalysis`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LdaSolver {
    /// Two SVDs, no covariance matrix (default).
    #[default]
    Svd,
    /// Least squares on the pooled covariance.
    Lsqr,
    /// Generalised eigenproblem of the between- and within-class covariances.
    Eigen,
}

/// Covariance shrinkage of [`LinearDiscriminantAnalysis`] (lsqr and eigen solvers).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Shrinkage {
    /// The empirical covariance (default).
    #[default]
    None,
    /// Ledoit–Wolf shrinkage on standardised data.
    Auto,
    /// A fixed shrinkage `s ∈ [0, 1]`.
    Fixed(f64),
}

impl Shrinkage {
    /// A fixed shrinkage must lie in `[0, 1]`.
    fn check(self) -> Result<()> {
        match self {
            Shrinkage::Fixed(s) if !(0.0..=1.0).contains(&s) => Err(Error::invalid_param(
                "shrinkage",
                format!("must be in [0, 1], got {s}"),
            )),
            _ => Ok(()),
        }
    }
}

/// Class means and counts.
fn class_means<F: Float>(x: &ArrayRef2<F>, y: &Labels, k: usize) -> (Array2<F>, Vec<usize>) {
    let mut means = Array2::<F>::zeros((k, x.ncols()));
    let mut counts = vec![0usize; k];
    for (row, &c) in x.rows().into_iter().zip(y.iter()) {
        let mut m = means.row_mut(c);
        m += &row;
        counts[c] += 1;
    }
    for (mut m, &n) in means.rows_mut().into_iter().zip(&counts) {
        if n > 0 {
            m /= F::cast(n as f64);
        }
    }
    (means, counts)
}

/// The rows of class `c`.
fn class_rows<F: Float>(x: &ArrayRef2<F>, y: &Labels, c: usize) -> Array2<F> {
    let idx: Vec<usize> = y
        .iter()
        .enumerate()
        .filter(|&(_, &l)| l == c)
        .map(|(i, _)| i)
        .collect();
    x.select(Axis(0), &idx)
}

/// Priors: given (checked) or class frequencies. Every class needs at least one sample.
fn priors_for(given: &Option<Vec<f64>>, counts: &[usize]) -> Result<Array1<f64>> {
    let counts: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    priors_for_weights(given, &counts)
}

/// Column standard deviations (MLE, `1/n`), with 1 for constant columns (scikit-learn's
/// `StandardScaler.scale_`).
fn unit_scale<F: Float>(x: &ArrayRef2<F>) -> Result<Array1<F>> {
    Ok(ndlearn_core::stats::variance(x, 0)?
        .mapv(|v| if v == F::zero() { F::one() } else { v.sqrt() }))
}

/// Covariance of one block of rows with the given shrinkage (scikit-learn's `_cov`).
fn cov_with<F: Float>(x: &ArrayRef2<F>, shrinkage: Shrinkage) -> Result<Array2<F>> {
    match shrinkage {
        Shrinkage::None => empirical_covariance(x),
        Shrinkage::Fixed(s) => shrunk_covariance(&empirical_covariance(x)?, s),
        Shrinkage::Auto => {
            // Ledoit–Wolf on standardised columns, scaled back
            let xc = x.to_owned() - &ndlearn_core::stats::mean(x)?;
            let scale = unit_scale(x)?;
            let z = &xc / &scale;
            let (lw, _) = ledoit_wolf(&z)?;
            let mut out = lw;
            for ((i, j), v) in out.indexed_iter_mut() {
                *v = *v * scale[i] * scale[j];
            }
            Ok(out)
        }
    }
}

/// Singular values and right singular vectors of the scaled within-class data `Z` (`n × d`),
/// for the svd solver's rank cut at `tol`.
///
/// Fast path: the eigendecomposition of the `d × d` Gram matrix `ZᵀZ` (one GEMM), used when
/// every singular value it reports is either well resolved or clearly cut. An eigenvalue `λ` of
/// the computed Gram matrix is within `δ = d ε λ_max` of the exact `s²` (Weyl's inequality for
/// the rounding of the product and of the eigensolver, both backward stable), so
///
/// - a kept direction (`√λ > tol`) needs `λ ≥ 1e-6 λ_max`: its singular value then has a
///   relative error of at most `δ / 2λ ≈ 1e-6 d ε ≤ 1e-10` (`κ ≤ 1e3` among the kept ones);
/// - a cut direction needs `λ + δ < tol²`: its exact `s` is below `tol` too, so the rank is the
///   SVD's. Exactly collinear (redundant) features give `λ ≈ ±δ`, far below `tol² = 1e-8`.
///
/// Otherwise (a singular value near the cut or an ill-conditioned kept part), and for `d > n`,
/// the SVD proper (`gesvd` without `U`), which is what scikit-learn always does: on a tall `Z`
/// it is a Householder QR whose panels run at BLAS-2 speed, 10–30× the Gram path's time.
fn whitening_svd<F: Float>(z: &Array2<F>, tol: F) -> Result<(Array1<F>, Array2<F>)> {
    match gram_whitening(z, tol) {
        Some(sv) => Ok(sv),
        None => linalg::svd_right(z),
    }
}

/// [`whitening_svd`]'s fast path, `None` when it does not apply.
fn gram_whitening<F: Float>(z: &Array2<F>, tol: F) -> Option<(Array1<F>, Array2<F>)> {
    let (n, d) = z.dim();
    if n < d {
        return None;
    }
    let g = linalg::gram(z);
    let (lam, v) = linalg::eigh_descending(&g).ok()?;
    let hi = lam[0];
    let delta = F::cast(d as f64) * F::epsilon() * hi;
    let resolved = |l: F| {
        if l.max(F::zero()).sqrt() > tol {
            l >= F::cast(1e-6) * hi
        } else {
            l + delta < tol * tol
        }
    };
    (hi > F::zero() && lam.iter().all(|&l| resolved(l)))
        .then(|| (lam.mapv(|l| l.max(F::zero()).sqrt()), v.t().to_owned()))
}

/// Linear discriminant analysis. See the [module docs](self)./// Linear discriminant analysis. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LinearDiscriminantAnalysis {
    /// The solver (default `Svd`).
    pub solver: LdaSolver,
    /// Covariance shrinkage (default none; lsqr and eigen only).
    pub shrinkage: Shrinkage,
    /// Class priors (default: class frequencies).
    pub priors: Option<Vec<f64>>,
    /// Dimensions kept by `transform` (default all `min(C − 1, d)`).
    pub n_components: Option<usize>,
    /// Singular-value cut-off of the svd solver (default 1e-4).
    pub tol: f64,
}

impl Default for LinearDiscriminantAnalysis {
    fn default() -> Self {
        Self {
            solver: LdaSolver::Svd,
            shrinkage: Shrinkage::None,
            priors: None,
            n_components: None,
            tol: 1e-4,
        }
    }
}

impl LinearDiscriminantAnalysis {
    ndlearn_core::setters! {
        /// Sets the solver.
        solver: LdaSolver,
        /// Sets the shrinkage.
        shrinkage: Shrinkage,
        /// Sets the priors.
        priors: Option<Vec<f64>>,
        /// Sets `n_components`.
        n_components: Option<usize>,
        /// Sets the svd solver's tolerance.
        tol: f64,
    }
}

impl Estimator for LinearDiscriminantAnalysis {
    /// Checks `tol > 0`, a shrinkage in `[0, 1]` with a solver that supports it, the priors and
    /// `n_components ≥ 1`.
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_positive("tol", self.tol)?;
        self.shrinkage.check()?;
        if self.solver == LdaSolver::Svd && self.shrinkage != Shrinkage::None {
            return Err(Error::invalid_param(
                "shrinkage",
                "the svd solver does not support shrinkage; use lsqr or eigen",
            ));
        }
        if self.n_components == Some(0) {
            return Err(Error::invalid_param("n_components", "must be >= 1"));
        }
        crate::framework::check_priors_values("priors", self.priors.as_deref())
    }
}

impl<F: Float> Fit<F> for LinearDiscriminantAnalysis {
    type Target = Labels;
    type Model = FittedLinearDiscriminantAnalysis<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let k = check_classification_input(x, y, 2, "LinearDiscriminantAnalysis::fit")?;
        let (n, d) = x.dim();
        check_more_samples_than_classes(n, k)?;
        let n_components = self.n_components_for(k, d)?;
        if self.solver != LdaSolver::Svd && self.shrinkage != Shrinkage::Auto {
            // the lsqr and eigen solvers read the rows only through the class scatter, the
            // statistics a fit from data passes merges
            return self.fit_moments(&ClassScatter::from_rows(x, y, None, k));
        }
        let (means, counts) = class_means(x, y, k);
        let priors64 = priors_for(&self.priors, &counts)?;
        let log_priors = priors64.mapv(|p| F::cast(p.ln()));
        let mut fitted = self.unsolved(means, priors64.mapv(F::cast), n_components);
        match self.solver {
            LdaSolver::Svd => fitted.solve_svd(x, y, &counts, &log_priors)?,
            LdaSolver::Lsqr | LdaSolver::Eigen => {
                // Ledoit–Wolf shrinkage needs the rows of every class
                let mut sw = Array2::<F>::zeros((d, d));
                for c in 0..k {
                    let cov = cov_with(&class_rows(x, y, c), self.shrinkage)?;
                    sw.scaled_add(fitted.priors[c], &cov);
                }
                let st = match self.solver {
                    LdaSolver::Eigen => Some(cov_with(x, self.shrinkage)?),
                    _ => None,
                };
                fitted.solve_covariances(sw, st, &log_priors)?;
            }
        }
        Ok(fitted)
    }
}

/// `n > K` rows, or [`Error::TooFewSamples`].
fn check_more_samples_than_classes(n: usize, k: usize) -> Result<()> {
    if n <= k {
        return Err(Error::TooFewSamples {
            context: "LinearDiscriminantAnalysis::fit (more samples than classes)",
            needed: k + 1,
            found: n,
        });
    }
    Ok(())
}

impl LinearDiscriminantAnalysis {
    /// The number of discriminant directions kept: `n_components`, or `min(K − 1, d)`.
    fn n_components_for(&self, k: usize, d: usize) -> Result<usize> {
        let max_components = (k - 1).min(d);
        match self.n_components {
            None => Ok(max_components),
            Some(c) if c >= 1 && c <= max_components => Ok(c),
            Some(c) => Err(Error::invalid_param(
                "n_components",
                format!(
                    "need 1 <= n_components <= min(n_classes - 1, n_features) = {max_components}, got {c}"
                ),
            )),
        }
    }

    /// A fitted model with its means and priors, before a solver fills in the rest.
    fn unsolved<F: Float>(
        &self,
        means: Array2<F>,
        priors: Array1<F>,
        n_components: usize,
    ) -> FittedLinearDiscriminantAnalysis<F> {
        let (k, d) = means.dim();
        FittedLinearDiscriminantAnalysis {
            params: self.clone(),
            means,
            priors,
            beta: Array2::zeros((k, d)),
            gamma: Array1::zeros(k),
            scalings: None,
            xbar: None,
            explained_variance_ratio: Array1::zeros(0),
            covariance: None,
            n_components,
        }
    }

    /// Whether [`fit_moments`](Self::fit_moments) takes these hyperparameters (valid, solver
    /// lsqr or eigen, shrinkage none or fixed), checked before any data pass.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming what needs the rows or is invalid.
    pub fn check_fit_moments(&self) -> Result<()> {
        self.validate()?;
        if self.solver == LdaSolver::Svd {
            return Err(Error::invalid_param(
                "solver",
                "the svd solver needs the rows; fits from statistics take lsqr or eigen",
            ));
        }
        if self.shrinkage == Shrinkage::Auto {
            return Err(Error::invalid_param(
                "shrinkage",
                "Ledoit–Wolf shrinkage needs the rows; fits from statistics take none or a fixed value",
            ));
        }
        Ok(())
    }

    /// The lsqr or eigen fit from merged per-class statistics (the rows' class counts, means
    /// and centred scatter matrices, [`ClassScatter`]), for statistics computed elsewhere (data
    /// passes over partitions of a table); [`Fit::fit`] computes through this for those
    /// solvers, so both agree by construction. The class covariances are the scatter matrices
    /// over the class counts (shrunk with [`Shrinkage::Fixed`]), pooled with the priors; the
    /// eigen solver's total covariance follows from the same statistics.
    ///
    /// # Errors
    /// The svd solver or Ledoit–Wolf shrinkage (both need the rows), invalid hyperparameters
    /// ([`Error::InvalidParam`]); fewer than two classes, a class without rows
    /// ([`Error::InvalidLabel`]), no more rows than classes; a singular within-class
    /// covariance (eigen).
    pub fn fit_moments<F: Float>(
        &self,
        stats: &ClassScatter<F>,
    ) -> Result<FittedLinearDiscriminantAnalysis<F>> {
        self.check_fit_moments()?;
        let (k, d) = stats.mean.dim();
        if k < 2 {
            return Err(Error::TooFewClasses {
                context: "LinearDiscriminantAnalysis::fit_moments",
                needed: 2,
                found: k,
            });
        }
        let n = usize::try_from(stats.n).unwrap_or(usize::MAX);
        check_more_samples_than_classes(n, k)?;
        let n_components = self.n_components_for(k, d)?;
        let counts: Vec<f64> = stats.count.iter().map(|v| v.to_f64_lossless()).collect();
        let priors64 = priors_for_weights(&self.priors, &counts)?;
        let log_priors = priors64.mapv(|p| F::cast(p.ln()));
        let mut fitted = self.unsolved(stats.mean.clone(), priors64.mapv(F::cast), n_components);
        let shrink = |cov: Array2<F>| match self.shrinkage {
            Shrinkage::Fixed(s) => shrunk_covariance(&cov, s),
            _ => Ok(cov),
        };
        let mut sw = Array2::<F>::zeros((d, d));
        for c in 0..k {
            sw.scaled_add(fitted.priors[c], &shrink(stats.covariance(c))?);
        }
        let st = match self.solver {
            LdaSolver::Eigen => Some(shrink(stats.total_covariance())?),
            _ => None,
        };
        fitted.solve_covariances(sw, st, &log_priors)?;
        Ok(fitted)
    }
}

/// Priors from (weighted) class counts: given (checked) or the counts' shares. Every class
/// needs a positive, finite count.
fn priors_for_weights(given: &Option<Vec<f64>>, counts: &[f64]) -> Result<Array1<f64>> {
    if let Some(c) = counts.iter().position(|&n| !n.is_finite() || n <= 0.0) {
        return Err(Error::InvalidLabel {
            label: c,
            index: 0,
            reason: "discriminant analysis needs at least one sample of every class 0..n_classes"
                .into(),
        });
    }
    match given {
        Some(p) => {
            check_priors(p, counts.len())?;
            Ok(Array1::from(p.clone()))
        }
        None => {
            let n: f64 = counts.iter().sum();
            Ok(counts.iter().map(|&c| c / n).collect())
        }
    }
}

/// A fitted [`LinearDiscriminantAnalysis`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLinearDiscriminantAnalysis<F: Float> {
    params: LinearDiscriminantAnalysis,
    means: Array2<F>,
    priors: Array1<F>,
    beta: Array2<F>,
    gamma: Array1<F>,
    scalings: Option<Array2<F>>,
    xbar: Option<Array1<F>>,
    explained_variance_ratio: Array1<F>,
    covariance: Option<Array2<F>>,
    n_components: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedLinearDiscriminantAnalysis<F> {
    fn n_features_in(&self) -> usize {
        self.means.ncols()
    }
}

impl<F: Float> FittedLinearDiscriminantAnalysis<F> {
    /// The lsqr or eigen solution from the pooled within-class covariance `sw` (and, for eigen,
    /// the total covariance `st`).
    fn solve_covariances(
        &mut self,
        mut sw: Array2<F>,
        st: Option<Array2<F>>,
        log_priors: &Array1<F>,
    ) -> Result<()> {
        let (k, d) = self.means.dim();
        let max_components = (k - 1).min(d);
        symmetrize(&mut sw);
        match st {
            None => {
                for c in 0..k {
                    let sol = linalg::lstsq(&sw, &self.means.row(c), None)?;
                    self.beta.row_mut(c).assign(&sol.solution);
                }
            }
            Some(mut st) => {
                symmetrize(&mut st);
                let mut sb = &st - &sw;
                symmetrize(&mut sb);
                let (evals, evecs) = linalg::eigh_generalized(&sb, &sw).map_err(|_| {
                    Error::invalid_param(
                        "solver",
                        "the within-class covariance is singular; use the svd solver or shrinkage",
                    )
                })?;
                // descending
                let order: Vec<usize> = (0..d).rev().collect();
                let evecs = evecs.select(Axis(1), &order);
                let total: F = evals.sum();
                self.explained_variance_ratio = order
                    .iter()
                    .take(max_components)
                    .map(|&i| evals[i] / total)
                    .collect();
                self.beta = self.means.dot(&evecs).dot(&evecs.t());
                self.scalings = Some(evecs);
            }
        }
        for c in 0..k {
            self.gamma[c] =
                -F::cast(0.5) * self.means.row(c).dot(&self.beta.row(c)) + log_priors[c];
        }
        self.covariance = Some(sw);
        Ok(())
    }

    fn solve_svd(
        &mut self,
        x: &ArrayRef2<F>,
        y: &Labels,
        counts: &[usize],
        log_priors: &Array1<F>,
    ) -> Result<()> {
        let (n, d) = x.dim();
        let k = counts.len();
        let tol = F::cast(self.params.tol);
        // within-class centred data, scaled per column by its standard deviation
        let mut xc = x.to_owned();
        for (mut row, &c) in xc.rows_mut().into_iter().zip(y.iter()) {
            row -= &self.means.row(c);
        }
        let nf = F::cast(n as f64);
        let std = unit_scale(&xc)?;
        // the pooled MLE covariance (1/n), as the lsqr and eigen solvers (scikit-learn ≥ 1.8)
        let fac = (F::one() / F::cast(n as f64)).sqrt();
        xc /= &std;
        xc *= fac;
        let (sv, vt) = whitening_svd(&xc, tol)?;
        let rank = sv.iter().filter(|&&v| v > tol).count();
        if rank == 0 {
            return Err(Error::invalid_param(
                "x",
                "every feature is constant within the classes; LDA has no direction",
            ));
        }
        // scalings = (Vt[:rank] / std)ᵀ / S[:rank]  (d × rank)
        let mut scalings = Array2::<F>::zeros((d, rank));
        for r in 0..rank {
            for j in 0..d {
                scalings[[j, r]] = vt[[r, j]] / std[j] / sv[r];
            }
        }
        let xbar = self.priors.dot(&self.means);
        let fac2 = if k == 1 {
            F::one()
        } else {
            F::one() / F::cast((k - 1) as f64)
        };
        let mut centers = &self.means - &xbar;
        for (mut row, &p) in centers.rows_mut().into_iter().zip(&self.priors) {
            row *= (nf * p * fac2).sqrt();
        }
        let between = centers.dot(&scalings);
        let svd2 = linalg::svd_thin(&between)?;
        let s2: F = svd2.s.iter().map(|&v| v * v).sum();
        let max_components = (k - 1).min(d);
        self.explained_variance_ratio = svd2
            .s
            .iter()
            .take(max_components)
            .map(|&v| v * v / s2)
            .collect();
        let rank2 = svd2.s.iter().filter(|&&v| v > tol * svd2.s[0]).count();
        let scal = scalings.dot(&svd2.vt.slice(s![..rank2, ..]).t());
        let coef = (&self.means - &xbar).dot(&scal);
        let mut intercept: Array1<F> = coef
            .rows()
            .into_iter()
            .zip(log_priors)
            .map(|(r, &lp)| -F::cast(0.5) * r.dot(&r) + lp)
            .collect();
        let beta = coef.dot(&scal.t());
        intercept -= &beta.dot(&xbar);
        self.beta = beta;
        self.gamma = intercept;
        self.scalings = Some(scal);
        self.xbar = Some(xbar);
        Ok(())
    }

    /// The hyperparameters.
    pub fn params(&self) -> &LinearDiscriminantAnalysis {
        &self.params
    }
    /// Class means, `C × d`.
    pub fn means(&self) -> &Array2<F> {
        &self.means
    }
    /// Class priors.
    pub fn priors(&self) -> &Array1<F> {
        &self.priors
    }
    /// The course notes' `β_c = Σ⁻¹μ_c`, `C × d` (softmax form).
    pub fn beta(&self) -> &Array2<F> {
        &self.beta
    }
    /// The course notes' `γ_c = −½μ_cᵀΣ⁻¹μ_c + log π_c` (for the svd solver, shifted by a constant
    /// common to all classes, which the softmax ignores).
    pub fn gamma(&self) -> &Array1<F> {
        &self.gamma
    }
    /// scikit-learn's `coef_`: `β` (`C × d`), or the single row `β_1 − β_0` for two classes.
    pub fn coef(&self) -> Array2<F> {
        if self.beta.nrows() == 2 {
            (&self.beta.row(1) - &self.beta.row(0)).insert_axis(Axis(0))
        } else {
            self.beta.clone()
        }
    }
    /// scikit-learn's `intercept_`: `γ`, or `γ_1 − γ_0` for two classes.
    pub fn intercept(&self) -> Array1<F> {
        if self.gamma.len() == 2 {
            Array1::from_elem(1, self.gamma[1] - self.gamma[0])
        } else {
            self.gamma.clone()
        }
    }
    /// The pooled within-class covariance (lsqr and eigen solvers).
    pub fn covariance(&self) -> Option<&Array2<F>> {
        self.covariance.as_ref()
    }
    /// Share of the between-class variance along each discriminant direction (svd, eigen).
    pub fn explained_variance_ratio(&self) -> &Array1<F> {
        &self.explained_variance_ratio
    }
    /// The discriminant directions (`d × r`; svd and eigen solvers).
    pub fn scalings(&self) -> Option<&Array2<F>> {
        self.scalings.as_ref()
    }

    fn scores(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(
            x.ncols(),
            self.means.ncols(),
            "LinearDiscriminantAnalysis: number of features",
        )?;
        // one pass over x: its finiteness is checked through the product
        let mut s = linalg::matmul(x, &self.beta.t());
        check_finite_through(x, &s, "X")?;
        s += &self.gamma;
        Ok(s)
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedLinearDiscriminantAnalysis<F> {
    /// `x βᵀ + γ`: `n × C`, or the `n × 1` log-odds of class 1 for two classes (scikit-learn's
    /// `decision_function`).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let s = self.scores(x)?;
        if s.ncols() == 2 {
            let d = &s.column(1) - &s.column(0);
            return Ok(d.insert_axis(Axis(1)));
        }
        Ok(s)
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedLinearDiscriminantAnalysis<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.scores(x)
    }
}

bayes_predict!(FittedLinearDiscriminantAnalysis);

/// `k ≥ 2` class means over `d ≥ 1` features and `k` priors (finite, `≥ 0`, one positive; given
/// priors one per class), all finite; returns `(k, d)`.
fn check_means_priors<F: Float>(
    c: &ModelCheck,
    means: &Array2<F>,
    priors: &Array1<F>,
    given: Option<&[f64]>,
) -> Result<(usize, usize)> {
    let (k, d) = means.dim();
    c.at_least("means (classes)", k, 2)?;
    c.at_least("means (features)", d, 1)?;
    c.finite("means", means)?;
    c.len("priors", priors.len(), k)?;
    c.non_negative("priors", priors)?;
    c.that(priors.iter().any(|&p| p > F::zero()), || {
        "every class has prior 0".into()
    })?;
    if let Some(p) = given {
        c.len("priors (given)", p.len(), k)?;
    }
    Ok((k, d))
}

impl<F: Float> CheckModel for FittedLinearDiscriminantAnalysis<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLinearDiscriminantAnalysis");
        c.params(&self.params)?;
        let (k, d) =
            check_means_priors(&c, &self.means, &self.priors, self.params.priors.as_deref())?;
        c.shape("beta", self.beta.dim(), (k, d))?;
        c.finite("beta", &self.beta)?;
        c.len("gamma", self.gamma.len(), k)?;
        // log-scores: −∞ for a class with prior 0
        c.that(self.gamma.iter().all(|&v| v < F::infinity()), || {
            "`gamma` holds NaN or +∞".into()
        })?;
        let nc = self.n_components;
        c.that(nc >= 1 && nc <= (k - 1).min(d), || {
            format!("`n_components` is {nc}, must lie in 1..=min(n_classes − 1, n_features)")
        })?;
        let solver = self.params.solver;
        c.that(
            self.scalings.is_some() == (solver != LdaSolver::Lsqr),
            || "`scalings` must be stored exactly for the svd and eigen solvers".into(),
        )?;
        if let Some(w) = &self.scalings {
            c.that(w.nrows() == d && w.ncols() <= d, || {
                format!(
                    "`scalings` is {} × {}, expected {d} rows and at most {d} columns",
                    w.nrows(),
                    w.ncols()
                )
            })?;
            c.finite("scalings", w)?;
        }
        c.that(self.xbar.is_some() == (solver == LdaSolver::Svd), || {
            "`xbar` must be stored exactly for the svd solver".into()
        })?;
        if let Some(m) = &self.xbar {
            c.len("xbar", m.len(), d)?;
            c.finite("xbar", m)?;
        }
        if let Some(cov) = &self.covariance {
            c.shape("covariance", cov.dim(), (d, d))?;
            c.finite("covariance", cov)?;
        }
        Ok(())
    }
}

impl<F: Float> Transform<F> for FittedLinearDiscriminantAnalysis<F> {
    /// Projection onto the first `n_components` discriminant directions: `(x − x̄) W` (svd
    /// solver) or `x W` (eigen solver, as scikit-learn). The lsqr solver has no directions.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.means.ncols(),
            "LinearDiscriminantAnalysis: number of features",
        )?;
        let Some(w) = &self.scalings else {
            return Err(Error::invalid_param(
                "solver",
                "transform needs the svd or eigen solver",
            ));
        };
        let nc = self.n_components.min(w.ncols());
        let w = w.slice(s![.., ..nc]);
        Ok(match &self.xbar {
            Some(m) => (x.to_owned() - m).dot(&w),
            None => x.dot(&w),
        })
    }
}

/// The solver of [`QuadraticDiscriminantAnalysis`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum QdaSolver {
    /// SVD of the centred class rows (default; `reg_param`).
    #[default]
    Svd,
    /// Eigendecomposition of the class covariance (`shrinkage`).
    Eigen,
}

/// Quadratic discriminant analysis. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct QuadraticDiscriminantAnalysis {
    /// The solver (default `Svd`).
    pub solver: QdaSolver,
    /// Covariance shrinkage (eigen solver only; default none).
    pub shrinkage: Shrinkage,
    /// Class priors (default: class frequencies).
    pub priors: Option<Vec<f64>>,
    /// Regularisation `r ∈ [0, 1]` of the class covariances towards the identity (default 0).
    pub reg_param: f64,
    /// Variances (after regularisation) at or below this are singular (default 1e-4, as
    /// scikit-learn's rank threshold).
    pub tol: f64,
}

impl Default for QuadraticDiscriminantAnalysis {
    fn default() -> Self {
        Self {
            solver: QdaSolver::Svd,
            shrinkage: Shrinkage::None,
            priors: None,
            reg_param: 0.0,
            tol: 1e-4,
        }
    }
}

impl QuadraticDiscriminantAnalysis {
    ndlearn_core::setters! {
        /// Sets the solver.
        solver: QdaSolver,
        /// Sets the shrinkage (eigen solver).
        shrinkage: Shrinkage,
        /// Sets the priors.
        priors: Option<Vec<f64>>,
        /// Sets `reg_param`.
        reg_param: f64,
        /// Sets `tol`.
        tol: f64,
    }
}

impl Estimator for QuadraticDiscriminantAnalysis {
    /// Checks `reg_param ∈ [0, 1]`, a shrinkage in `[0, 1]` with a solver that supports it,
    /// `tol ≥ 0` and the priors.
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_in_range("reg_param", self.reg_param, 0.0, 1.0)?;
        if self.solver == QdaSolver::Svd && self.shrinkage != Shrinkage::None {
            return Err(Error::invalid_param(
                "shrinkage",
                "the svd solver does not support shrinkage; use the eigen solver",
            ));
        }
        self.shrinkage.check()?;
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        crate::framework::check_priors_values("priors", self.priors.as_deref())
    }
}

impl<F: Float> Fit<F> for QuadraticDiscriminantAnalysis {
    type Target = Labels;
    type Model = FittedQuadraticDiscriminantAnalysis<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let k = check_classification_input(x, y, 2, "QuadraticDiscriminantAnalysis::fit")?;
        let d = x.ncols();
        let (means, counts) = class_means(x, y, k);
        let priors = priors_for(&self.priors, &counts)?;
        let r = F::cast(self.reg_param);
        let mut rotations = Vec::with_capacity(k);
        let mut scalings = Vec::with_capacity(k);
        for (c, &count) in counts.iter().enumerate() {
            if count < 2 {
                return Err(Error::TooFewSamples {
                    context: "QuadraticDiscriminantAnalysis: rows per class",
                    needed: 2,
                    found: count,
                });
            }
            let mut xc = class_rows(x, y, c);
            xc -= &means.row(c);
            let (s2, rot): (Array1<F>, Array2<F>) = match self.solver {
                QdaSolver::Svd => {
                    let (sv, vt) = linalg::svd_right(&xc)?;
                    let denom = F::cast(count as f64);
                    (
                        sv.mapv(|v| (F::one() - r) * v * v / denom + r),
                        vt.t().to_owned(),
                    )
                }
                QdaSolver::Eigen => {
                    let mut cov = cov_with(&class_rows(x, y, c), self.shrinkage)?;
                    symmetrize(&mut cov);
                    let (w, v) = linalg::eigh_descending(&cov)?;
                    (w, v)
                }
            };
            if s2.iter().any(|v| !v.is_finite()) {
                return Err(Error::invalid_param(
                    "x",
                    "feature values too large: the class covariances overflow; rescale the features",
                ));
            }
            let rank = s2.iter().filter(|&&v| v > F::cast(self.tol)).count();
            if rank < d {
                return Err(Error::invalid_param(
                    "reg_param",
                    format!(
                        "the covariance of class {c} is singular (rank {rank} < {d} features: \
                         collinear or constant features, or fewer than d + 1 rows); use \
                         reg_param > 0 (svd) or shrinkage (eigen)"
                    ),
                ));
            }
            rotations.push(rot);
            scalings.push(s2);
        }
        Ok(FittedQuadraticDiscriminantAnalysis {
            params: self.clone(),
            means,
            priors: priors.mapv(F::cast),
            rotations,
            scalings,
        })
    }
}

/// A fitted [`QuadraticDiscriminantAnalysis`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedQuadraticDiscriminantAnalysis<F: Float> {
    params: QuadraticDiscriminantAnalysis,
    means: Array2<F>,
    priors: Array1<F>,
    rotations: Vec<Array2<F>>,
    scalings: Vec<Array1<F>>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedQuadraticDiscriminantAnalysis<F> {
    fn n_features_in(&self) -> usize {
        self.means.ncols()
    }
}

impl<F: Float> FittedQuadraticDiscriminantAnalysis<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &QuadraticDiscriminantAnalysis {
        &self.params
    }
    /// Class means.
    pub fn means(&self) -> &Array2<F> {
        &self.means
    }
    /// Class priors.
    pub fn priors(&self) -> &Array1<F> {
        &self.priors
    }
    /// Class covariances `V diag(S²) Vᵀ` (regularised).
    pub fn covariances(&self) -> Vec<Array2<F>> {
        self.rotations
            .iter()
            .zip(&self.scalings)
            .map(|(v, s)| (v * s).dot(&v.t()))
            .collect()
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedQuadraticDiscriminantAnalysis<F> {
    /// The discriminant scores `log π_c − ½ log|Σ_c| − ½ (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c)`
    /// (scikit-learn's `decision_function` for more than two classes).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.joint_log_likelihood(x)
    }
}

impl<F: Float> JointLogLikelihood<F> for FittedQuadraticDiscriminantAnalysis<F> {
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.means.ncols(),
            "QuadraticDiscriminantAnalysis: number of features",
        )?;
        let k = self.means.nrows();
        let mut out = Array2::zeros((x.nrows(), k));
        let half = F::cast(0.5);
        for c in 0..k {
            let s = &self.scalings[c];
            let w = &self.rotations[c] / &s.mapv(|v| v.sqrt());
            let z = (x.to_owned() - self.means.row(c)).dot(&w);
            let logdet: F = s.iter().map(|v| v.ln()).sum();
            let lp = self.priors[c].ln();
            for (o, zr) in out.column_mut(c).iter_mut().zip(z.rows()) {
                *o = -half * (zr.dot(&zr) + logdet) + lp;
            }
        }
        Ok(out)
    }
}

bayes_predict!(FittedQuadraticDiscriminantAnalysis);

impl<F: Float> CheckModel for FittedQuadraticDiscriminantAnalysis<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedQuadraticDiscriminantAnalysis");
        c.params(&self.params)?;
        let (k, d) =
            check_means_priors(&c, &self.means, &self.priors, self.params.priors.as_deref())?;
        c.len("rotations", self.rotations.len(), k)?;
        c.len("scalings", self.scalings.len(), k)?;
        for (class, (rot, s)) in self.rotations.iter().zip(&self.scalings).enumerate() {
            c.shape("rotations", rot.dim(), (d, d))?;
            c.finite("rotations", rot)?;
            c.len("scalings", s.len(), d)?;
            // the class covariance's eigenvalues: its log-determinant and inverse are used
            c.that(s.iter().all(|&v| v.is_finite() && v > F::zero()), || {
                format!("class {class}: the covariance eigenvalues must be finite and positive")
            })?;
        }
        Ok(())
    }
}

/// Fisher's linear discriminant (catalog G-06): the directions `w` maximising
/// `J(w) = wᵀ S_B w / wᵀ S_W w`, with the within-class scatter
/// `S_W = Σ_c Σ_{i ∈ c} (x_i − m_c)(x_i − m_c)ᵀ` and the between-class scatter
/// `S_B = Σ_c N_c (m_c − m)(m_c − m)ᵀ` (for two classes proportional to the course notes'
/// `(m₂ − m₁)(m₂ − m₁)ᵀ`).
///
/// Stationarity gives the generalised eigenproblem `S_B w = λ S_W w` (Fisher, "The use of
/// multiple measurements in taxonomic problems", Annals of Eugenics 7(2), 1936; Bishop,
/// *Pattern Recognition and Machine Learning* (2006), §4.1.4, §4.1.6); its top
/// `C − 1` eigenvectors span the discriminant subspace. For two classes the solution is the
/// closed form `w ∝ S_W⁻¹ (m₂ − m₁)` ([`FittedFisherDiscriminant::two_class_direction`]).
/// `reg ≥ 0` adds `reg · I` to `S_W` when it is singular (more features than rows, constant
/// features). Directions are scaled to unit length, with the sign making the largest entry
/// positive.
///
/// ```
/// use ndlearn_bayes::FisherDiscriminant;
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::{Fit, Transform};
///
/// let x = array![[1.0f64, 2.0], [2.0, 3.0], [3.0, 3.5], [6.0, 5.0], [7.0, 8.0], [8.0, 7.5]];
/// let y = array![0usize, 0, 0, 1, 1, 1];
/// let f = FisherDiscriminant::default().fit(&x, &y)?;
/// let w = f.two_class_direction().expect("two classes");
/// let z = f.transform(&x)?;
/// assert_eq!(z.ncols(), 1);
/// assert!((w.dot(w) - 1.0).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct FisherDiscriminant {
    /// Ridge `reg ≥ 0` added to the within-class scatter (default 0).
    pub reg: f64,
    /// Number of directions (default `None`: `min(C − 1, d)`).
    pub n_components: Option<usize>,
}

impl FisherDiscriminant {
    ndlearn_core::setters! {
        /// Sets `reg`.
        reg: f64,
        /// Sets `n_components`.
        n_components: Option<usize>,
    }
}

fn unit_positive<F: Float>(mut v: Array1<F>) -> Array1<F> {
    let norm = v.dot(&v).sqrt();
    if norm > F::zero() {
        v /= norm;
    }
    let lead = v
        .iter()
        .copied()
        .fold(F::zero(), |b, t| if t.abs() > b.abs() { t } else { b });
    if lead < F::zero() {
        v.mapv_inplace(|t| -t);
    }
    v
}

impl<F: Float> Fit<F> for FisherDiscriminant {
    type Target = Labels;
    type Model = FittedFisherDiscriminant<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        ndlearn_core::validate::check_non_negative("reg", self.reg)?;
        let k = check_classification_input(x, y, 2, "FisherDiscriminant::fit")?;
        let d = x.ncols();
        let (means, counts) = class_means(x, y, k);
        priors_for(&None, &counts)?;
        let max = (k - 1).min(d);
        let nc = match self.n_components {
            None => max,
            Some(c) if (1..=max).contains(&c) => c,
            Some(c) => {
                return Err(Error::invalid_param(
                    "n_components",
                    format!("need 1 <= n_components <= {max}, got {c}"),
                ));
            }
        };
        let mut xc = x.to_owned();
        for (mut row, &c) in xc.rows_mut().into_iter().zip(y.iter()) {
            row -= &means.row(c);
        }
        let mut sw = linalg::gram(&xc);
        for i in 0..d {
            sw[[i, i]] += F::cast(self.reg);
        }
        symmetrize(&mut sw);
        let n = F::cast(x.nrows() as f64);
        let overall = x.sum_axis(Axis(0)).mapv(|v| v / n);
        let mut sb = Array2::<F>::zeros((d, d));
        for (c, &count) in counts.iter().enumerate() {
            let diff = &means.row(c) - &overall;
            let outer = diff
                .view()
                .insert_axis(Axis(1))
                .dot(&diff.view().insert_axis(Axis(0)));
            sb.scaled_add(F::cast(count as f64), &outer);
        }
        symmetrize(&mut sb);
        let singular = || {
            Error::invalid_param(
                "reg",
                "the within-class scatter is singular (collinear or constant features, or d >= n); use reg > 0",
            )
        };
        let (evals, evecs) = linalg::eigh_generalized(&sb, &sw).map_err(|_| singular())?;
        let mut components = Array2::<F>::zeros((d, nc));
        for (out, src) in (0..nc).zip((0..d).rev()) {
            components
                .column_mut(out)
                .assign(&unit_positive(evecs.column(src).to_owned()));
        }
        let two_class = if k == 2 {
            let diff = &means.row(1) - &means.row(0);
            let w = linalg::solve(&sw, &diff).map_err(|_| singular())?;
            Some(unit_positive(w))
        } else {
            None
        };
        Ok(FittedFisherDiscriminant {
            params: *self,
            components,
            eigenvalues: (0..nc).map(|i| evals[d - 1 - i]).collect(),
            two_class,
            means,
        })
    }
}

/// A fitted [`FisherDiscriminant`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedFisherDiscriminant<F: Float> {
    params: FisherDiscriminant,
    components: Array2<F>,
    eigenvalues: Array1<F>,
    two_class: Option<Array1<F>>,
    means: Array2<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedFisherDiscriminant<F> {
    fn n_features_in(&self) -> usize {
        self.means.ncols()
    }
}

impl<F: Float> FittedFisherDiscriminant<F> {
    /// The discriminant directions as unit columns, `d × n_components`, by decreasing `J`.
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// The criterion values `J(w)` (generalised eigenvalues) of the directions.
    pub fn eigenvalues(&self) -> &Array1<F> {
        &self.eigenvalues
    }
    /// For two classes, the closed form `S_W⁻¹ (m₂ − m₁)` (unit length).
    pub fn two_class_direction(&self) -> Option<&Array1<F>> {
        self.two_class.as_ref()
    }
    /// Class means.
    pub fn means(&self) -> &Array2<F> {
        &self.means
    }
}

impl<F: Float> Transform<F> for FittedFisherDiscriminant<F> {
    /// `x W`: the coordinates along the discriminant directions.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.components.nrows(),
            "FisherDiscriminant: number of features",
        )?;
        Ok(x.dot(&self.components))
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    /// `n × 6` data: four random columns, a fifth their combination, a sixth a copy of the
    /// first plus `eps_dup` times an independent column (exactly collinear for 0).
    fn redundant(n: usize, eps_dup: f64) -> Array2<f64> {
        let mut rng = ndlearn_core::random::rng(5);
        let mut z = Array2::from_shape_fn((n, 6), |_| {
            ndlearn_core::random::standard_normal::<f64>(&mut rng)
        });
        for mut r in z.rows_mut() {
            r[4] = 0.5 * r[0] - 2.0 * r[1] + r[3];
            r[5] = r[0] + eps_dup * r[5];
        }
        z / (n as f64).sqrt()
    }

    #[test]
    fn a_fit_from_merged_class_scatter_equals_the_fit_on_rows() {
        use ndlearn_core::PredictProba;
        use ndlearn_core::stats::mergeable::{ClassSpec, Mergeable, RowBlock};
        let mut rng = ndlearn_core::random::rng(11);
        let n = 240;
        let y: Array1<usize> = (0..n).map(|i| i % 3).collect();
        let x = Array2::from_shape_fn((n, 4), |(i, j)| {
            ndlearn_core::random::standard_normal::<f64>(&mut rng) + (y[i] * (j + 1)) as f64 * 0.7
        });
        let spec = ClassSpec {
            n_classes: 3,
            n_features: 4,
        };
        for (solver, shrinkage) in [
            (LdaSolver::Lsqr, Shrinkage::None),
            (LdaSolver::Eigen, Shrinkage::None),
            (LdaSolver::Eigen, Shrinkage::Fixed(0.2)),
        ] {
            let est = LinearDiscriminantAnalysis::default()
                .solver(solver)
                .shrinkage(shrinkage);
            let direct = est.fit(&x, &y).expect("fit");
            // four uneven parts, merged in reverse
            let cuts = [0, 17, 90, 91, n];
            let mut merged = ClassScatter::zero(&spec);
            for p in (0..4).rev() {
                let r = cuts[p]..cuts[p + 1];
                let part = ClassScatter::of(
                    &spec,
                    &RowBlock::new(x.slice(s![r.clone(), ..])).labels(y.slice(s![r])),
                )
                .expect("part");
                merged.merge(&part).expect("merge");
            }
            let fit = est.fit_moments(&merged).expect("moments");
            let scale = direct.beta().iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(
                (fit.beta() - direct.beta())
                    .iter()
                    .all(|v| v.abs() <= 1e-10 * scale),
                "{solver:?} {shrinkage:?}"
            );
            assert!(
                (fit.gamma() - direct.gamma())
                    .iter()
                    .all(|v| v.abs() <= 1e-10 * scale)
            );
            assert_eq!(fit.priors(), direct.priors());
            let p = (fit.predict_proba(&x).expect("p") - direct.predict_proba(&x).expect("q"))
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(p <= 1e-10, "{p}");
        }
        // what needs the rows, and statistics that cannot give a fit
        let stats = ClassScatter::of(&spec, &RowBlock::new(x.view()).labels(y.view())).expect("s");
        for est in [
            LinearDiscriminantAnalysis::default(),
            LinearDiscriminantAnalysis::default()
                .solver(LdaSolver::Lsqr)
                .shrinkage(Shrinkage::Auto),
        ] {
            assert!(matches!(
                est.fit_moments(&stats),
                Err(Error::InvalidParam { .. })
            ));
        }
        let lsqr = LinearDiscriminantAnalysis::default().solver(LdaSolver::Lsqr);
        let two = ClassSpec {
            n_classes: 4,
            n_features: 4,
        };
        let missing = ClassScatter::of(&two, &RowBlock::new(x.view()).labels(y.view())).expect("s");
        assert!(matches!(
            lsqr.fit_moments(&missing),
            Err(Error::InvalidLabel { label: 3, .. })
        ));
        let one = ClassScatter::<f64>::zero(&ClassSpec {
            n_classes: 1,
            n_features: 4,
        });
        assert!(matches!(
            lsqr.fit_moments(&one),
            Err(Error::TooFewClasses { .. })
        ));
    }

    #[test]
    fn gram_whitening_takes_clean_rank_cuts_only() {
        let tol = 1e-4;
        // Exactly collinear columns: the Gram path applies, with the SVD's rank and values.
        let z = redundant(500, 0.0);
        let (s_gram, vt_gram) = gram_whitening(&z, tol).expect("a clean rank cut");
        let (s_svd, vt_svd) = linalg::svd_right(&z).expect("svd");
        let rank = |s: &Array1<f64>| s.iter().filter(|&&v| v > tol).count();
        assert_eq!(rank(&s_gram), 4);
        assert_eq!(rank(&s_svd), 4);
        for r in 0..4 {
            assert!((s_gram[r] - s_svd[r]).abs() <= 1e-10 * s_svd[r], "{r}");
            // the same direction up to sign
            let c = vt_gram.row(r).dot(&vt_svd.row(r)).abs();
            assert!((c - 1.0).abs() < 1e-10, "{r}: {c}");
        }
        // A nearly collinear pair: its singular value (~1e-3) is kept but poorly resolved by
        // the Gram matrix (λ ~ 1e-6 < 1e-6 λ_max): the SVD decides. One well below the cut
        // (~2e-6) is cut on both paths.
        assert!(gram_whitening(&redundant(500, 1e-3), tol).is_none());
        let z = redundant(500, 3e-6);
        let (s_cut, _) = gram_whitening(&z, tol).expect("clean cut");
        assert_eq!(rank(&s_cut), 4);
        assert_eq!(rank(&linalg::svd_right(&z).expect("svd").0), 4);
        // A wide matrix: the SVD.
        assert!(gram_whitening(&redundant(4, 0.0), tol).is_none());
    }

    #[test]
    fn check_model_accepts_fits_and_rejects_broken_states() {
        let x = array![
            [1.0f64, 2.0],
            [1.5, 1.8],
            [0.8, 2.6],
            [1.2, 2.9],
            [4.0, 5.0],
            [4.5, 4.2],
            [3.7, 4.9],
            [4.1, 5.6]
        ];
        let y = array![0usize, 0, 0, 0, 1, 1, 1, 1];
        let bad = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));

        let mut m = LinearDiscriminantAnalysis::default()
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.xbar = Some(array![1.0]);
        assert!(bad(m.check_model()));

        let eigen = LinearDiscriminantAnalysis::default().solver(LdaSolver::Eigen);
        assert!(eigen.fit(&x, &y).expect("fit").check_model().is_ok());

        let mut m = QuadraticDiscriminantAnalysis::default()
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.scalings[1][0] = 0.0;
        assert!(bad(m.check_model()));
    }
}
