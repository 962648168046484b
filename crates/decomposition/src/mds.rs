//! Multidimensional scaling: classical MDS ([`ClassicalMds`], scikit-learn's `ClassicalMDS`;
//! catalog CL-163) and metric stress MDS ([`Mds`], scikit-learn's `MDS(metric_mds=True)`;
//! CL-164).
//!
//! # Classical MDS (Torgerson–Gower scaling, principal coordinates)
//!
//! Given squared dissimilarities `D²_ij = ‖x_i − x_j‖²` the course notes recover the Gram matrix
//! `M = X Xᵀ` "up to translation" (Torgerson 1952; Gower 1966): with the centring matrix
//! `J = I − 11ᵀ/n`, **double centring** gives `B = −½ J D² J`, the Gram matrix of the centred
//! points. With `B = U Λ Uᵀ` (eigenvalues descending), the embedding is the `k` leading columns of
//! `U Λ^{1/2}`, and `X̃ X̃ᵀ = B` when `k = rank B`. A Mercer similarity matrix `S` (a kernel's
//! Gram matrix) can be used as `M` directly (as the course notes allow): it is double-centred
//! the same way, `B = J S J`, which is classical MDS of the kernel-induced distances
//! `d²_ij = s_ii + s_jj − 2 s_ij` (and kernel PCA's scores).
//!
//! | [`MdsInput`] | `fit(x)` reads `x` as | `transform(x)` reads `x` as |
//! |---|---|---|
//! | `Data(Metric::Euclidean)` (default) | data rows; `B = X̃ X̃ᵀ` (centred data, one GEMM) | new data rows |
//! | `Data(metric)` | data rows; `D` from [`pairwise_distances`] | new data rows |
//! | `Kernel(kernel)` | data rows; `S = K(X, X)` | new data rows |
//! | `PrecomputedDistances` | the `n × n` dissimilarities | `m × n` dissimilarities to the training points |
//! | `PrecomputedSimilarities` | the `n × n` similarities | `m × n` similarities to the training points |
//!
//! **Non-Euclidean input** (the course notes leave it open, catalog D-06): `B` then has negative
//! eigenvalues. They are never used: a kept eigenvalue `λ_j ≤ n ε max|λ|` gives an all-zero
//! embedding column ([`FittedClassicalMds::n_clipped`] counts them), and
//! [`FittedClassicalMds::negative_eigenvalue_ratio`] reports `Σ|λ₋| / Σ|λ|` over the whole
//! spectrum (0 for Euclidean distances). scikit-learn takes `√λ` of a negative eigenvalue
//! (NaN).
//!
//! **Signs**: every embedding column has its entry of largest magnitude positive (the first on
//! ties), scikit-learn's `svd_flip` on the eigenvectors.
//!
//! **Out-of-sample points** (Gower 1968; landmark MDS, de Silva & Tenenbaum 2004; scikit-learn
//! has no `transform`): a new point with squared dissimilarities `δ²` to the training points is
//! placed at `z = −½ Λ^{-1/2} Uᵀ (δ² − mean_col(D²) − mean(δ²) + mean(D²))` (the new row of
//! `B`, centred with the training means, projected on the eigenvectors; for similarities `s`,
//! `z = Λ^{-1/2} Uᵀ (s − mean_col(S) − mean(s) + mean(S))`). A training point is mapped exactly
//! onto its embedding (tested), for any input. For Euclidean data the formula is the PCA
//! projection `(x − μ) X̃ᵀ U Λ^{-1/2}`, which is what is stored (no training data kept).
//!
//! Cost: forming `B` (`n² d`) and a dense symmetric eigendecomposition (`n³`), as
//! scikit-learn.
//!
//! # Metric stress MDS (SMACOF)
//!
//! [`Mds`] minimises the raw stress over configurations `X ∈ ℝ^{n×k}`,
//!
//! ```text
//! σ(X) = Σ_{i<j} (d_ij(X) − δ_ij)²,        d_ij(X) = ‖x_i − x_j‖,
//! ```
//!
//! by SMACOF (de Leeuw 1977; Borg & Groenen, *Modern Multidimensional Scaling*, ch. 8): the
//! Guttman transform `X ← n⁻¹ B(X) X` with `B_ij = −δ_ij/d_ij` (`i ≠ j`, 0 when `d_ij = 0`),
//! `B_ii = −Σ_{j≠i} B_ij`, never increases `σ` (tested). As scikit-learn 1.9, the run stops at
//! iteration `t ≥ 2` when `(σ_{t−1} − σ_t) / Σ_{i<j} d_ij(X_t)² < eps`, or after `max_iter`
//! transforms; `stress` is `σ` of the final configuration and `stress1` Kruskal's
//! `√(σ / Σ_{i<j} d_ij²)` (scikit-learn's `normalized_stress=True`). From the same start the
//! iterates agree with scikit-learn's to rounding (golden tests). The one difference: a pair at
//! distance 0 gets `B_ij = 0` (the majorisation of de Leeuw), where scikit-learn replaces the
//! distance by `1e-5`.
//!
//! The course notes state the problem as a non-convex optimisation,
//! `argmin Σ_{i≠j} (‖x̃_i − x̃_j‖² − D_ij)²` on *squared* distances (the S-stress of Takane,
//! Young & de Leeuw). [`MdsSolver::GradientDescent`] minimises either loss ([`MdsLoss::Stress`]
//! or [`MdsLoss::SquaredStress`] = `Σ_{i<j} (d_ij² − δ_ij²)²`, half the course notes' sum over
//! ordered pairs) by gradient descent with Armijo backtracking (step doubled after every
//! accepted step, halved until `f(X − α g) ≤ f(X) − 10⁻⁴ α ‖g‖²`; first step `1/(2n)`, SMACOF's
//! step, for the stress, `1/(12 n mean δ²)` for the squared stress), and the same relative
//! stopping rule (normalised by `Σ d²`, or `Σ d⁴` for the squared stress). This is an
//! implementation choice; SMACOF is the default.
//!
//! Starts ([`MdsInit`]): uniform `[0, 1)^{n×k}` from `random::stream(seed, r)` for restart `r`
//! (scikit-learn draws the same law from its own generator), `n_init` restarts run in
//! parallel (rayon) and the lowest final loss wins (the first on ties), so the result does not
//! depend on the thread count; or the classical MDS of the dissimilarities (one run); or a given
//! configuration ([`Mds::fit_with_init`], one run).
//!
//! **New points** (an extension; scikit-learn's `MDS` has no `transform`): the training
//! configuration `Y` is kept fixed and the new point's stress `Σ_i (‖z − y_i‖ − δ_i)²` is
//! minimised over `z` alone, starting from the classical (least-squares triangulation)
//! position `z₀ = ȳ − ½ Ỹ⁺ ((δ² − mean δ²) − (r − mean r))` (`Ỹ = Y − ȳ`, `r_i = ‖ỹ_i‖²`), by
//! single-point Guttman transforms `z ← n⁻¹ Σ_i (y_i + δ_i (z − y_i)/‖z − y_i‖)` (monotone,
//! at most `transform_max_iter`). A training row is mapped near, not onto, its embedding
//! (exactly only when the fit is exact).
//!
//! Each iteration costs `O(n² k)`, run over fixed blocks of rows in parallel with the
//! reductions summed in block order (no `n × n` work matrix besides `δ`; for `k` of a few
//! columns the direct loop beats forming `B(X)` for a GEMM).
//!
//! # Example
//!
//! ```
//! use ndlearn_decomposition::{ClassicalMds, Mds, MdsInit};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform};
//!
//! // four corners of a 3 × 4 rectangle: classical MDS recovers them up to a rigid motion
//! let x = array![[0.0f64, 0.0], [3.0, 0.0], [3.0, 4.0], [0.0, 4.0]];
//! let cmds = ClassicalMds::new(2).fit(&x)?;
//! let z = cmds.embedding();
//! let d = |a: usize, b: usize| (&z.row(a) - &z.row(b)).mapv(|v| v * v).sum().sqrt();
//! assert!((d(0, 2) - 5.0).abs() < 1e-12 && (d(0, 1) - 3.0).abs() < 1e-12);
//! // a new point is placed by Gower's formula (here the PCA projection)
//! let p = cmds.transform(&array![[1.5, 2.0]])?;
//! assert!(p.iter().all(|v| v.abs() < 1e-12)); // the centre
//!
//! // stress MDS from the classical start: already exact, stress ~ 0
//! let m = Mds::new(2).init(MdsInit::Classical).fit(&x)?;
//! assert!(m.stress() < 1e-20);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! The course notes (catalog D-06). Torgerson (1952), Gower (1966,
//! 1968: adding a point to a principal-coordinates analysis); de Silva & Tenenbaum, *Sparse
//! multidimensional scaling using landmark points* (2004); de Leeuw, *Applications of convex
//! analysis to multidimensional scaling* (1977); Borg & Groenen (2005), ch. 8 and 12.

pub mod classical;
mod solvers;

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_finite_2d, check_fit_input, check_min_samples,
    check_predict_input,
};
use ndlearn_core::{Error, FitUnsupervised, Float, Result, Transform, linalg, par, random};

pub use classical::{
    ClassicalMds, FittedClassicalMds, MdsInput, classical_mds_from_distances,
    classical_mds_from_similarities,
};
use classical::{classical_core, double_centre};
use solvers::{Pass, ROW_BLOCK, Run, gradient_descent, pair_pass, smacof};

// ---------------------------------------------------------------------------------------------
// Stress MDS: hyperparameters

/// Where [`Mds`] takes its dissimilarities from.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MdsDissimilarity {
    /// Distances between data rows under a metric (default Euclidean).
    Metric(Metric),
    /// `fit` gets the `n × n` dissimilarity matrix, `transform` rows of dissimilarities from
    /// new points to the training points.
    Precomputed,
}

impl Default for MdsDissimilarity {
    fn default() -> Self {
        Self::Metric(Metric::Euclidean)
    }
}

/// The optimiser of [`Mds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MdsSolver {
    /// Guttman transforms (scikit-learn's algorithm; default).
    #[default]
    Smacof,
    /// Gradient descent with Armijo backtracking (any [`MdsLoss`]).
    GradientDescent,
}

/// The loss [`Mds`] minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MdsLoss {
    /// Raw stress `Σ_{i<j} (d_ij − δ_ij)²` (default; scikit-learn's).
    #[default]
    Stress,
    /// The course notes' objective on squared distances, `Σ_{i<j} (d_ij² − δ_ij²)²` (S-stress);
    /// gradient descent only.
    SquaredStress,
}

/// The starting configuration of [`Mds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MdsInit {
    /// Uniform on `[0, 1)^{n×k}`, one per restart (default; scikit-learn's `init="random"`).
    #[default]
    Random,
    /// Classical MDS of the dissimilarities (one run; scikit-learn's `init="classical_mds"`).
    Classical,
}

/// Metric multidimensional scaling by stress minimisation. See the [module docs](self).
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_components` | 2 | `n_components` | `1 ≤ k ≤ n − 1` |
/// | `dissimilarity` | Euclidean | `metric` | any [`MdsDissimilarity`] |
/// | `solver` | SMACOF | — | [`MdsSolver`] |
/// | `loss` | stress | — (stress) | [`MdsLoss`]; squared stress needs gradient descent |
/// | `init` | random | `init` | [`MdsInit`] (or [`Mds::fit_with_init`]) |
/// | `n_init` | 1 | `n_init` | `≥ 1` (random starts only) |
/// | `max_iter` | 300 | `max_iter` | `≥ 1` |
/// | `eps` | 1e-6 | `eps` | finite, `≥ 0` |
/// | `seed` | 0 | `random_state` | any |
/// | `transform_max_iter` | 100 | — | `≥ 0` (Guttman steps per new point) |
///
/// # Errors
/// `fit`: [`Error::InvalidParam`] for invalid hyperparameters, `k ≥ n`, an asymmetric,
/// negative or non-zero-diagonal precomputed matrix, or overflowing distances;
/// [`Error::ShapeMismatch`] for a non-square precomputed matrix or a wrongly shaped `init`;
/// [`Error::NonFinite`]; [`Error::TooFewSamples`] for fewer than 2 points.
///
/// ```
/// use ndlearn_decomposition::Mds;
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::FitUnsupervised;
///
/// let x = array![[0.0f64, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.2, 0.1]];
/// let m = Mds::new(2).n_init(4).seed(7).fit(&x)?;
/// assert_eq!(m.embedding().dim(), (5, 2));
/// assert!(m.stress1() < 0.2);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Mds {
    /// Embedding dimension `k` (default 2).
    pub n_components: usize,
    /// Where the dissimilarities come from (default Euclidean distances of data rows).
    pub dissimilarity: MdsDissimilarity,
    /// Optimiser (default SMACOF).
    pub solver: MdsSolver,
    /// Loss (default raw stress).
    pub loss: MdsLoss,
    /// Starting configuration (default random).
    pub init: MdsInit,
    /// Random restarts, the best kept (default 1; ignored for the classical or a given start).
    pub n_init: usize,
    /// Iterations per run (default 300).
    pub max_iter: usize,
    /// Relative loss decrease that stops a run (default 1e-6).
    pub eps: f64,
    /// Seed of the random starts (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Guttman steps when placing a new point (default 100).
    pub transform_max_iter: usize,
}

impl Default for Mds {
    fn default() -> Self {
        Self {
            n_components: 2,
            dissimilarity: MdsDissimilarity::default(),
            solver: MdsSolver::Smacof,
            loss: MdsLoss::Stress,
            init: MdsInit::Random,
            n_init: 1,
            max_iter: 300,
            eps: 1e-6,
            seed: 0,
            transform_max_iter: 100,
        }
    }
}

impl Mds {
    /// Stress MDS into `k` dimensions of Euclidean data.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `n_components`.
        n_components: usize,
        /// Sets where the dissimilarities come from.
        dissimilarity: MdsDissimilarity,
        /// Sets the solver.
        solver: MdsSolver,
        /// Sets the loss.
        loss: MdsLoss,
        /// Sets the start.
        init: MdsInit,
        /// Sets `n_init`.
        n_init: usize,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `eps`.
        eps: f64,
        /// Sets the seed.
        seed: u64,
        /// Sets `transform_max_iter`.
        transform_max_iter: usize,
    }

    /// The dissimilarity matrix of the training input (checked) and the rows kept for
    /// `transform`.
    fn dissimilarities<F: Float>(
        &self,
        x: &ArrayRef2<F>,
    ) -> Result<(Array2<F>, Option<Array2<F>>)> {
        let (delta, train) = match &self.dissimilarity {
            MdsDissimilarity::Metric(metric) => {
                check_fit_input(x, 2, "Mds::fit")?;
                let d = symmetrise(pairwise_distances(x, x, metric)?);
                (d, Some(x.to_owned()))
            }
            MdsDissimilarity::Precomputed => {
                (check_square(x, SquareKind::Distances, "Mds::fit")?, None)
            }
        };
        check_k(self.n_components, delta.nrows())?;
        check_squares_finite(&delta, "x")?;
        Ok((delta, train))
    }

    /// Fits from the given starting configuration (`n × n_components`; one run, as
    /// scikit-learn's `fit_transform(X, init=...)`).
    ///
    /// # Errors
    /// As `fit`, plus [`Error::ShapeMismatch`] / [`Error::NonFinite`] for a bad `init`.
    pub fn fit_with_init<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        init: &ArrayRef2<F>,
    ) -> Result<FittedMds<F>> {
        self.validate()?;
        let (delta, train) = self.dissimilarities(x)?;
        let n = delta.nrows();
        if init.dim() != (n, self.n_components) {
            return Err(Error::ShapeMismatch {
                context: "Mds::fit_with_init: init",
                expected: format!("{n} x {} (points x n_components)", self.n_components),
                found: format!("{} x {}", init.nrows(), init.ncols()),
            });
        }
        check_finite_2d(init, "init")?;
        let start = init.as_standard_layout().into_owned();
        self.finish(x.ncols(), delta, train, vec![start])
    }

    /// Runs the solver from every start and builds the model from the best run.
    fn finish<F: Float>(
        &self,
        n_cols: usize,
        delta: Array2<F>,
        train: Option<Array2<F>>,
        starts: Vec<Array2<F>>,
    ) -> Result<FittedMds<F>> {
        let n = delta.nrows();
        let runs = par::map_tasks(starts.len(), |r| self.solve(&delta, starts[r].clone()));
        let mut best = 0;
        for (r, run) in runs.iter().enumerate() {
            if run.objective < runs[best].objective {
                best = r;
            }
        }
        let run = runs
            .into_iter()
            .nth(best)
            .ok_or_else(|| Error::invalid_param("n_init", "no run"))?;
        let (stress, half_ssd, _) = pair_pass(&delta, &run.x, Pass::Stress);
        let stress1 = if half_ssd > F::zero() {
            (stress / half_ssd).sqrt()
        } else if stress > F::zero() {
            F::one()
        } else {
            F::zero()
        };
        let y = run.x;
        let centre = y
            .mean_axis(Axis(0))
            .ok_or_else(|| Error::invalid_param("x", "no rows"))?;
        let mut yc = y.clone();
        yc -= &centre;
        let radii: Array1<F> = yc.rows().into_iter().map(|r| r.dot(&r)).collect();
        let scale = (radii.sum() / F::cast(n as f64)).sqrt();
        let pinv = linalg::pinv(&yc, None)?.as_standard_layout().into_owned();
        Ok(FittedMds {
            params: self.clone(),
            n_input: if train.is_some() { n_cols } else { n },
            embedding: y,
            stress,
            stress1,
            objective: run.objective,
            n_iter: run.n_iter,
            converged: run.converged,
            history: Array1::from(run.history),
            best_restart: best,
            train,
            centre,
            radii,
            scale,
            pinv,
        })
    }

    fn solve<F: Float>(&self, delta: &Array2<F>, x0: Array2<F>) -> Run<F> {
        match self.solver {
            MdsSolver::Smacof => smacof(delta, x0, self.max_iter, F::cast(self.eps)),
            MdsSolver::GradientDescent => {
                gradient_descent(delta, x0, self.loss, self.max_iter, F::cast(self.eps))
            }
        }
    }
}

impl ndlearn_core::Estimator for Mds {
    /// Checks the hyperparameters (`fit` calls it first).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the offending field.
    fn validate(&self) -> Result<()> {
        if self.n_components == 0 {
            return Err(Error::invalid_param("n_components", "must be >= 1, got 0"));
        }
        if self.n_init == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1, got 0"));
        }
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1, got 0"));
        }
        ndlearn_core::validate::check_non_negative("eps", self.eps)?;
        if self.loss == MdsLoss::SquaredStress && self.solver == MdsSolver::Smacof {
            return Err(Error::invalid_param(
                "loss",
                "the squared stress has no Guttman transform: use MdsSolver::GradientDescent",
            ));
        }
        if let MdsDissimilarity::Metric(m) = &self.dissimilarity {
            m.validate()?;
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for Mds {
    type Model = FittedMds<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let (delta, train) = self.dissimilarities(x)?;
        let (n, k) = (delta.nrows(), self.n_components);
        let starts = match self.init {
            MdsInit::Classical => {
                let s = delta.mapv(|v| F::cast(-0.5) * v * v);
                let (b, _, _) = double_centre(&s);
                vec![classical_core(&b, k)?.embedding]
            }
            MdsInit::Random => (0..self.n_init)
                .map(|r| {
                    let mut rng = random::stream(self.seed, r as u64);
                    Array2::from_shape_fn((n, k), |_| {
                        random::uniform(&mut rng, F::zero(), F::one())
                    })
                })
                .collect(),
        };
        self.finish(x.ncols(), delta, train, starts)
    }
}

// ---------------------------------------------------------------------------------------------
// Stress MDS: fitted model

/// A fitted [`Mds`]. With data input it keeps a copy of the training rows (`n × d`), from
/// which `transform` computes the dissimilarities of new points.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMds<F: Float> {
    params: Mds,
    n_input: usize,
    embedding: Array2<F>,
    stress: F,
    stress1: F,
    objective: F,
    n_iter: usize,
    converged: bool,
    history: Array1<F>,
    best_restart: usize,
    /// Training rows (metric input) for the dissimilarities of new points.
    train: Option<Array2<F>>,
    /// Mean of the configuration, squared radii `‖y_i − ȳ‖²`, RMS radius, `(Y − ȳ)⁺` (`k × n`).
    centre: Array1<F>,
    radii: Array1<F>,
    scale: F,
    pinv: Array2<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedMds<F> {
    fn n_features_in(&self) -> usize {
        self.n_input
    }
}

impl<F: Float> FittedMds<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Mds {
        &self.params
    }
    /// The configuration of the training points (`n × k`; scikit-learn's `embedding_`).
    pub fn embedding(&self) -> &Array2<F> {
        &self.embedding
    }
    /// Raw stress `Σ_{i<j} (d_ij − δ_ij)²` of the configuration (scikit-learn's `stress_`).
    pub fn stress(&self) -> F {
        self.stress
    }
    /// Kruskal's stress-1 `√(stress / Σ_{i<j} d_ij²)` (scikit-learn's
    /// `normalized_stress=True`; 1 for a collapsed configuration with positive stress).
    pub fn stress1(&self) -> F {
        self.stress1
    }
    /// Final value of the minimised loss (the stress, or the squared stress).
    pub fn objective(&self) -> F {
        self.objective
    }
    /// Iterations of the winning run (scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the winning run met the `eps` criterion before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// The loss after every iteration of the winning run (non-increasing).
    pub fn loss_history(&self) -> &Array1<F> {
        &self.history
    }
    /// Index of the winning restart (0 for a classical or given start).
    pub fn best_restart(&self) -> usize {
        self.best_restart
    }
    /// Embedding dimension `k`.
    pub fn n_components(&self) -> usize {
        self.embedding.ncols()
    }
    /// Columns `transform` expects: the feature count for data input, the number of training
    /// points for precomputed dissimilarities.
    pub fn n_input_columns(&self) -> usize {
        self.n_input
    }

    /// Places one new point with dissimilarities `delta` (length `n`) to the training points.
    fn place(&self, delta: &[F]) -> Vec<F> {
        let y = &self.embedding;
        let (n, k) = y.dim();
        let nf = F::cast(n as f64);
        let half = F::cast(0.5);
        let sq_mean = delta.iter().map(|&d| d * d).sum::<F>() / nf;
        let r_mean = self.radii.sum() / nf;
        // z0 = ȳ − ½ Ỹ⁺ ((δ² − mean δ²) − (r − mean r))
        let rhs: Array1<F> = delta
            .iter()
            .zip(&self.radii)
            .map(|(&d, &r)| (d * d - sq_mean) - (r - r_mean))
            .collect();
        // a plain loop: this runs inside parallel row tasks, where BLAS must not be called
        let step: Vec<F> = self
            .pinv
            .rows()
            .into_iter()
            .map(|r| r.iter().zip(&rhs).map(|(&a, &b)| a * b).sum::<F>())
            .collect();
        let mut z: Vec<F> = (0..k).map(|c| self.centre[c] - half * step[c]).collect();
        let tol = F::cast(1e-12) * self.scale;
        let mut next = vec![F::zero(); k];
        for _ in 0..self.params.transform_max_iter {
            next.iter_mut().for_each(|v| *v = F::zero());
            for (yi, &di) in y.rows().into_iter().zip(delta) {
                let dist = yi
                    .iter()
                    .zip(&z)
                    .map(|(&a, &b)| (b - a) * (b - a))
                    .sum::<F>()
                    .sqrt();
                let ratio = if dist > F::zero() {
                    di / dist
                } else {
                    F::zero()
                };
                for c in 0..k {
                    next[c] += yi[c] + ratio * (z[c] - yi[c]);
                }
            }
            let mut moved = F::zero();
            for c in 0..k {
                let v = next[c] / nf;
                moved += (v - z[c]) * (v - z[c]);
                z[c] = v;
            }
            if moved.sqrt() <= tol {
                break;
            }
        }
        z
    }
}

impl<F: Float> Transform<F> for FittedMds<F> {
    /// Positions of new points by stress minimisation against the fixed training configuration
    /// (an extension; see the [module docs](self)). `x`: data rows, or rows of dissimilarities
    /// to the training points for [`MdsDissimilarity::Precomputed`].
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.n_input, "Mds: number of input columns")?;
        let delta = match (&self.train, &self.params.dissimilarity) {
            (Some(train), MdsDissimilarity::Metric(metric)) => {
                pairwise_distances(x, train, metric)?
            }
            _ => {
                check_non_negative(x, "x")?;
                x.as_standard_layout().into_owned()
            }
        };
        check_squares_finite(&delta, "x")?;
        let (m, k) = (delta.nrows(), self.embedding.ncols());
        let blocks = par::map_chunks(m, ROW_BLOCK, |rows| {
            let mut out = Array2::<F>::zeros((rows.len(), k));
            for (r, i) in rows.enumerate() {
                let z = self.place(&delta.row(i).to_vec());
                out.row_mut(r).assign(&Array1::from(z));
            }
            out
        });
        let mut z = Array2::<F>::zeros((m, k));
        let mut at = 0;
        for b in blocks {
            let len = b.nrows();
            z.slice_mut(s![at..at + len, ..]).assign(&b);
            at += len;
        }
        Ok(z)
    }
}

impl<F: Float> CheckModel for FittedMds<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMds");
        c.params(&self.params)?;
        let (n, k) = self.embedding.dim();
        c.len("embedding (columns)", k, self.params.n_components)?;
        c.that(k < n, || format!("{k} components of {n} training points"))?;
        c.finite("embedding", &self.embedding)?;
        let d = self.n_input;
        match (&self.params.dissimilarity, &self.train) {
            (MdsDissimilarity::Metric(metric), Some(train)) => {
                c.at_least("n_input", d, 1)?;
                crate::common::check_metric(&c, metric, d)?;
                c.shape("train", train.dim(), (n, d))?;
                c.finite("train", train)?;
            }
            (MdsDissimilarity::Precomputed, None) => c.len("n_input (training points)", d, n)?,
            _ => return Err(c.error("training rows must be stored exactly for metric input")),
        }
        c.len("centre", self.centre.len(), k)?;
        c.finite("centre", &self.centre)?;
        c.len("radii", self.radii.len(), n)?;
        c.non_negative("radii", &self.radii)?;
        crate::common::non_negative_value(&c, "scale", self.scale)?;
        c.shape("pinv", self.pinv.dim(), (k, n))?;
        c.finite("pinv", &self.pinv)?;
        c.that(self.best_restart < self.params.n_init, || {
            "`best_restart` is not one of the restarts".into()
        })?;
        for (field, v) in [
            ("stress", self.stress),
            ("stress1", self.stress1),
            ("objective", self.objective),
        ] {
            c.finite_value(field, v)?;
        }
        c.finite("history", &self.history)
    }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// `½ (A + Aᵀ)` with every pair computed once (exactly symmetric), standard layout.
pub(crate) fn symmetrise<F: Float>(a: Array2<F>) -> Array2<F> {
    let n = a.nrows();
    let half = F::cast(0.5);
    let mut out = a.as_standard_layout().into_owned();
    for i in 0..n {
        for j in (i + 1)..n {
            let v = (out[[i, j]] + out[[j, i]]) * half;
            out[[i, j]] = v;
            out[[j, i]] = v;
        }
    }
    out
}

/// Kinds of precomputed square matrices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SquareKind {
    /// Non-negative, zero diagonal.
    Distances,
    /// Any real values.
    Similarities,
    /// Non-negative (the diagonal is ignored by the caller).
    Affinities,
}

/// Checks a precomputed `n × n` matrix (square, at least 2 rows, finite, symmetric to
/// `1e-10 · max|a|`, non-negative for distances and affinities, zero diagonal for distances) and
/// returns its exactly symmetric part `½ (A + Aᵀ)` (diagonal zeroed for distances).
pub(crate) fn check_square<F: Float>(
    a: &ArrayRef2<F>,
    kind: SquareKind,
    context: &'static str,
) -> Result<Array2<F>> {
    let n = a.nrows();
    if a.ncols() != n {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("a square {n} x {n} precomputed matrix"),
            found: format!("{} x {}", n, a.ncols()),
        });
    }
    check_min_samples(n, 2, context)?;
    check_finite_2d(a, "X")?;
    let max_abs = a.iter().fold(F::zero(), |m, &v| m.max(v.abs()));
    let tol = F::cast(1e-10) * max_abs;
    for i in 0..n {
        for j in (i + 1)..n {
            if (a[[i, j]] - a[[j, i]]).abs() > tol {
                return Err(Error::invalid_param(
                    "x",
                    format!(
                        "a precomputed matrix must be symmetric: entries ({i}, {j}) = {} and ({j}, {i}) = {} differ",
                        a[[i, j]],
                        a[[j, i]]
                    ),
                ));
            }
        }
    }
    if kind != SquareKind::Similarities {
        check_non_negative(a, "x")?;
    }
    if kind == SquareKind::Distances {
        if let Some(i) = (0..n).find(|&i| a[[i, i]].abs() > tol) {
            return Err(Error::invalid_param(
                "x",
                format!(
                    "a dissimilarity matrix must have a zero diagonal; entry ({i}, {i}) = {}",
                    a[[i, i]]
                ),
            ));
        }
    }
    let mut out = symmetrise(a.to_owned());
    if kind == SquareKind::Distances {
        out.diag_mut().fill(F::zero());
    }
    Ok(out)
}

/// Every entry `≥ 0`.
pub(crate) fn check_non_negative<F: Float>(a: &ArrayRef2<F>, name: &'static str) -> Result<()> {
    if let Some(((i, j), v)) = a.indexed_iter().find(|(_, v)| **v < F::zero()) {
        return Err(Error::invalid_param(
            name,
            format!("dissimilarities and affinities must be >= 0; entry ({i}, {j}) = {v}"),
        ));
    }
    Ok(())
}

/// Squared distances or a centred Gram matrix that overflowed.
fn check_overflow<F: Float>(a: &Array2<F>, name: &'static str) -> Result<()> {
    if a.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            "squared distances overflow the floating-point range; rescale the data",
        ))
    }
}

/// Dissimilarities whose squares stay finite (the stress and the classical start square them).
fn check_squares_finite<F: Float>(d: &Array2<F>, name: &'static str) -> Result<()> {
    if d.iter().all(|&v| (v * v).is_finite()) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            "squared distances overflow the floating-point range; rescale the data",
        ))
    }
}

/// `1 ≤ k ≤ n − 1`.
fn check_k(k: usize, n: usize) -> Result<()> {
    if k == 0 || k >= n {
        return Err(Error::invalid_param(
            "n_components",
            format!(
                "must lie in 1..={} (fewer than the {n} points), got {k}",
                n.saturating_sub(1)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_short_pinv() {
        let x = array![
            [0.0f64, 1.0],
            [1.0, 0.0],
            [2.0, 2.0],
            [3.0, 1.0],
            [0.5, 2.5]
        ];
        let mut m: FittedMds<f64> = Mds::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.pinv = m.pinv.slice(s![.., 1..]).to_owned();
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn invalid_hyperparameters() {
        let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]];
        let e = FitUnsupervised::<f64>::fit(&ClassicalMds::new(0), &x);
        assert!(matches!(
            e,
            Err(Error::InvalidParam {
                name: "n_components",
                ..
            })
        ));
        assert!(FitUnsupervised::<f64>::fit(&ClassicalMds::new(4), &x).is_err());
        assert!(Mds::new(2).n_init(0).validate().is_err());
        assert!(Mds::new(2).max_iter(0).validate().is_err());
        assert!(Mds::new(2).eps(-1.0).validate().is_err());
        assert!(Mds::new(2).eps(f64::NAN).validate().is_err());
        assert!(Mds::new(2).loss(MdsLoss::SquaredStress).validate().is_err());
        assert!(
            Mds::new(2)
                .loss(MdsLoss::SquaredStress)
                .solver(MdsSolver::GradientDescent)
                .validate()
                .is_ok()
        );
        let bad_metric = MdsInput::Data(Metric::Minkowski { p: 0.5 });
        assert!(FitUnsupervised::<f64>::fit(&ClassicalMds::new(1).input(bad_metric), &x).is_err());
    }

    #[test]
    fn double_centring_is_exactly_symmetric_and_centred() {
        let s = array![[1.0f64, 0.3, -2.0], [0.3, 4.0, 0.7], [-2.0, 0.7, 0.1]];
        let (b, m, g) = double_centre(&s);
        assert_eq!(b, b.t());
        for r in b.rows() {
            assert!(r.sum().abs() < 1e-14);
        }
        assert!((m.sum() / 3.0 - g).abs() < 1e-15);
    }

    #[test]
    fn pair_pass_matches_the_definitions() {
        let x = array![[0.0f64, 0.0], [3.0, 0.0], [0.0, 4.0]];
        let delta = array![[0.0f64, 2.0, 4.0], [2.0, 0.0, 6.0], [4.0, 6.0, 0.0]];
        let (st, half, rows) = pair_pass(&delta, &x, Pass::Guttman);
        // distances 3, 4, 5 against 2, 4, 6: stress 1 + 0 + 1, Σ d² = 9 + 16 + 25
        assert!((st - 2.0).abs() < 1e-14 && (half - 50.0).abs() < 1e-12);
        let rows = rows.expect("rows");
        // Guttman row 0: (1/3) [2/3 (x0 − x1) + 4/4 (x0 − x2)] = (1/3)(−2, −4)
        assert!((rows[[0, 0]] + 2.0 / 3.0).abs() < 1e-14);
        assert!((rows[[0, 1]] + 4.0 / 3.0).abs() < 1e-14);
        let (ss, s4, _) = pair_pass(&delta, &x, Pass::SStress);
        // (9 − 4)² + (16 − 16)² + (25 − 36)² = 25 + 0 + 121
        assert!((ss - 146.0).abs() < 1e-12 && (s4 - (81.0 + 256.0 + 625.0)).abs() < 1e-9);
    }

    #[test]
    fn gradients_match_finite_differences() {
        let x = array![[0.1f64, 0.2], [1.3, -0.4], [0.5, 1.7], [-0.8, 0.9]];
        let delta = array![
            [0.0f64, 1.0, 2.0, 1.5],
            [1.0, 0.0, 1.2, 2.2],
            [2.0, 1.2, 0.0, 1.1],
            [1.5, 2.2, 1.1, 0.0]
        ];
        for (grad_pass, loss_pass) in [
            (Pass::StressGradient, Pass::Stress),
            (Pass::SStressGradient, Pass::SStress),
        ] {
            let g = pair_pass(&delta, &x, grad_pass).2.expect("gradient");
            let h = 1e-6;
            for i in 0..4 {
                for c in 0..2 {
                    let mut xp = x.clone();
                    xp[[i, c]] += h;
                    let mut xm = x.clone();
                    xm[[i, c]] -= h;
                    let fd = (pair_pass(&delta, &xp, loss_pass).0
                        - pair_pass(&delta, &xm, loss_pass).0)
                        / (2.0 * h);
                    assert!(
                        (fd - g[[i, c]]).abs() < 1e-6,
                        "{grad_pass:?} {i} {c}: {fd} vs {}",
                        g[[i, c]]
                    );
                }
            }
        }
    }

    #[test]
    fn precomputed_checks() {
        let ok = array![[0.0f64, 1.0], [1.0, 0.0]];
        assert!(check_square(&ok, SquareKind::Distances, "t").is_ok());
        let diag = array![[1.0f64, 1.0], [1.0, 0.0]];
        assert!(check_square(&diag, SquareKind::Distances, "t").is_err());
        assert!(check_square(&diag, SquareKind::Similarities, "t").is_ok());
        let neg = array![[0.0f64, -1.0], [-1.0, 0.0]];
        assert!(check_square(&neg, SquareKind::Distances, "t").is_err());
        assert!(check_square(&neg, SquareKind::Similarities, "t").is_ok());
        let one = array![[0.0f64]];
        assert!(matches!(
            check_square(&one, SquareKind::Distances, "t"),
            Err(Error::TooFewSamples { .. })
        ));
    }
}
