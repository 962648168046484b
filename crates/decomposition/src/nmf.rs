//! Non-negative matrix factorisation ([`Nmf`], scikit-learn's `NMF` with the Frobenius loss).
//!
//! # Method
//!
//! Find `W ≥ 0` (`n × k`) and `H ≥ 0` (`k × d`) with `X ≈ W H` for a non-negative `X`
//! (`n × d`), minimising scikit-learn's objective (`ρ = l1_ratio`)
//!
//! ```text
//! L(W, H) = ½ ‖X − W H‖²_F
//!         + α_W ρ d ‖W‖₁ + ½ α_W (1 − ρ) d ‖W‖²_F
//!         + α_H ρ n ‖H‖₁ + ½ α_H (1 − ρ) n ‖H‖²_F
//! ```
//!
//! (`‖·‖₁` the element-wise sum of absolute values). The penalties on `W` are scaled by the number
//! of features `d` and those on `H` by the number of samples `n`, as scikit-learn ≥ 1.2 does, so
//! that their weight relative to the data term does not depend on the size of the training set.
//! The rows of `H` are the components; the rows of `W` are the coefficients of the samples.
//!
//! Solvers ([`NmfSolver`]), both alternating between `W` and `H`:
//!
//! * **Coordinate descent** (default; scikit-learn's `cd`, the "fast HALS" of Cichocki & Phan,
//!   2009): with `G = H Hᵀ + l2 I` and `B = X Hᵀ − l1`, one pass updates column `t` of `W` for
//!   every row `i` as `W_it ← max(0, W_it − ((W G)_it − B_it) / G_tt)`, the columns in order
//!   `0, 1, …, k − 1` (or a seeded random order with `shuffle`); then the same for `Hᵀ` with
//!   `WᵀW` and `XᵀW`. The stopping rule is scikit-learn's: the sum of the absolute projected
//!   gradients met in a sweep, divided by that of the first sweep, at most `tol`.
//! * **Multiplicative updates** (scikit-learn's `mu`, Lee & Seung 2001):
//!   `W ← W ∘ (X Hᵀ) / (W H Hᵀ + l1_W + l2_W W)`, then
//!   `H ← H ∘ (Wᵀ X) / (WᵀW H + l1_H + l2_H H)` (a zero denominator is replaced by the `f32`
//!   machine epsilon, as scikit-learn). Every 10 iterations the error `‖X − W H‖_F` is computed
//!   and the loop stops when its decrease since the last check, divided by the error at the
//!   start, is below `tol`. Without penalties the error never increases (tested).
//!   Multiplicative updates cannot move an entry away from 0, so [`NmfInit::Nndsvd`] (which has
//!   zeros) is a poor start for them.
//!
//! Initialisations ([`NmfInit`], as scikit-learn's `_initialize_nmf`):
//!
//! | init | `W`, `H` |
//! |---|---|
//! | `Auto` (default) | `Nndsvda` when `k ≤ min(n, d)`, else `Random` |
//! | `Random` | `√(mean(X)/k) · abs(N(0, 1))` entries from the seeded stream |
//! | `Nndsvd` | Boutsidis & Gallopoulos (2008): from the top `k` singular triplets, the larger of the positive / negative parts of each pair of singular vectors; entries below `1e-6` set to 0 |
//! | `Nndsvda` | `Nndsvd` with the zeros replaced by `mean(X)` |
//! | `Nndsvdar` | `Nndsvd` with the zeros replaced by `mean(X) · abs(N(0, 1)) / 100` |
//! | `Custom(W, H)` | the given matrices (non-negative, not all zero) |
//!
//! The SVD behind the `Nndsvd*` inits is exact (LAPACK) when `min(n, d) ≤ 1000` and randomized
//! (Halko et al., `k + 10` directions, seeded) above; scikit-learn always uses its randomized
//! solver, which agrees with the exact one to rounding when `k + 10 ≥ min(n, d)` and to about
//! `1e-7` relative otherwise (tested on digits). NNDSVD does not depend on the signs of the
//! singular vectors. An exactly zero pair of parts (rank-deficient data) gives a zero column
//! where scikit-learn would divide by zero.
//!
//! `transform` solves for `W` with `H` fixed by the same solver, tolerance and iteration cap,
//! starting as scikit-learn does from `√(mean(X)/k)` everywhere (multiplicative updates) or
//! from 0 (coordinate descent), with the `W` penalties. `inverse_transform` is `W H`.
//!
//! Cost per iteration: `O(n d k)` for the products `X Hᵀ`, `Wᵀ X` (BLAS GEMMs) plus
//! `O((n + d) k²)`.
//! Deterministic for a seed (only `Random`, `Nndsvdar`, the randomized SVD and `shuffle` draw
//! random numbers, from `ndlearn_core::random`; scikit-learn's streams are not reproduced).
//! Not converging within `max_iter` is not an error: see [`FittedNmf::converged`].
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `n_components` | `None` (`d`, or the rows of a custom `H`) | `n_components` | `≥ 1` |
//! | `init` | `Auto` | `init` (`None`) | see above; the `Nndsvd*` inits need `k ≤ min(n, d)` |
//! | `solver` | `CoordinateDescent` | `solver` (`"cd"`) | |
//! | `tol` | `1e-4` | `tol` | `≥ 0` |
//! | `max_iter` | 200 | `max_iter` | `≥ 1` |
//! | `alpha_w` | 0 | `alpha_W` | `≥ 0` |
//! | `alpha_h` | `None` (= `alpha_w`) | `alpha_H` (`"same"`) | `≥ 0` |
//! | `l1_ratio` | 0 | `l1_ratio` | `[0, 1]` |
//! | `shuffle` | false | `shuffle` | coordinate descent only |
//! | `seed` | 0 | `random_state` | |
//!
//! Errors: [`Error::InvalidParam`] for a hyperparameter out of range, negative data (at fit and
//! transform), a custom init of the wrong shape, negative or all zero, an `Nndsvd*` init with
//! `k > min(n, d)`, or a fit that overflowed (data near the largest float); the input errors of
//! [`check_fit_input`] / [`check_predict_input`].
//!
//! ```
//! use ndlearn_decomposition::{Nmf, NmfSolver};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform, InverseTransform};
//!
//! // a non-negative matrix of rank 2 is factorised (almost) exactly with k = 2
//! let w = array![[1.0f64, 0.0], [0.5, 1.0], [0.0, 2.0], [1.0, 1.0]];
//! let h = array![[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]];
//! let x = w.dot(&h);
//! let model = Nmf::new(2).max_iter(2000).tol(1e-12).fit(&x)?;
//! assert!(model.reconstruction_err() < 1e-4);
//! assert!(model.components().iter().all(|&v| v >= 0.0));
//! let codes = model.transform(&x)?;
//! let back = model.inverse_transform(&codes)?;
//! assert!((&back - &x).iter().all(|v| v.abs() < 1e-3));
//! // the same with multiplicative updates
//! let mu = Nmf::new(2).solver(NmfSolver::MultiplicativeUpdate).max_iter(5000).tol(0.0).fit(&x)?;
//! assert!(mu.reconstruction_err() < 1e-2);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! References: D. D. Lee & H. S. Seung, *Algorithms for non-negative matrix factorization*,
//! NIPS 2001; A. Cichocki & A.-H. Phan, *Fast local algorithms for large scale nonnegative matrix
//! and tensor factorizations*, IEICE Trans. 2009; C. Boutsidis & E. Gallopoulos, *SVD based
//! initialization: a head start for nonnegative matrix factorization*, Pattern Recognition 2008.
//! The course notes do not cover NMF (catalog D-13): every choice here follows scikit-learn.

use ndarray::{Array1, Array2, ArrayRef2, Zip, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, RandomizedSvdOptions};
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, InverseTransform, Result, Transform, random};

/// The algorithm behind [`Nmf`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum NmfSolver {
    /// Cyclic coordinate descent, scikit-learn's `cd` (default).
    #[default]
    CoordinateDescent,
    /// Lee–Seung multiplicative updates, scikit-learn's `mu`.
    MultiplicativeUpdate,
}

/// How [`Nmf`] starts (see the [module docs](self) for the formulas).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum NmfInit {
    /// `Nndsvda` when `k ≤ min(n, d)`, else `Random` (scikit-learn's `init=None`; default).
    #[default]
    Auto,
    /// Scaled absolute standard normal entries.
    Random,
    /// Non-negative double SVD (sparse start).
    Nndsvd,
    /// NNDSVD with its zeros replaced by the mean of `X`.
    Nndsvda,
    /// NNDSVD with its zeros replaced by small random values.
    Nndsvdar,
    /// Given `W` (`n × k`) and `H` (`k × d`), non-negative and not all zero.
    Custom(Array2<f64>, Array2<f64>),
}

impl NmfInit {
    /// The starting `(W, H)` this init gives for `x` and `k` components (scikit-learn's
    /// `_initialize_nmf`; `Auto` resolved by the shape; `seed` feeds `Random`, `Nndsvdar` and the
    /// randomized SVD of large data).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `k = 0`, negative data, an `Nndsvd*` init with
    /// `k > min(n, d)` or a custom pair of the wrong shape, negative or all zero; the input
    /// errors of [`check_fit_input`]; [`Error::Linalg`] when the SVD fails.
    pub fn initialize<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        k: usize,
        seed: u64,
    ) -> Result<(Array2<F>, Array2<F>)> {
        check_fit_input(x, 1, "NmfInit::initialize")?;
        check_non_negative(x, "NmfInit::initialize")?;
        if k == 0 {
            return Err(Error::invalid_param("n_components", "must be at least 1"));
        }
        initialise(x, k, self, seed)
    }
}

/// Non-negative matrix factorisation. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Nmf {
    /// Components `k` (default `None`: the number of features, or the rows of a custom `H`).
    pub n_components: Option<usize>,
    /// Initialisation (default `Auto`).
    pub init: NmfInit,
    /// Solver (default coordinate descent).
    pub solver: NmfSolver,
    /// Stopping tolerance (default `1e-4`; 0 runs `max_iter` iterations).
    pub tol: f64,
    /// Iteration cap (default 200).
    pub max_iter: usize,
    /// Penalty weight on `W` (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "alpha_W", alias = "alpha_w"))]
    pub alpha_w: f64,
    /// Penalty weight on `H` (default `None`: the same as `alpha_w`).
    #[cfg_attr(feature = "serde", serde(rename = "alpha_H", alias = "alpha_h"))]
    pub alpha_h: Option<f64>,
    /// Share of the L1 penalty in `[0, 1]` (default 0: pure L2).
    pub l1_ratio: f64,
    /// Visit the coordinates in a random order (coordinate descent; default false).
    pub shuffle: bool,
    /// Seed of the random inits, the randomized SVD and `shuffle` (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for Nmf {
    fn default() -> Self {
        Self {
            n_components: None,
            init: NmfInit::Auto,
            solver: NmfSolver::CoordinateDescent,
            tol: 1e-4,
            max_iter: 200,
            alpha_w: 0.0,
            alpha_h: None,
            l1_ratio: 0.0,
            shuffle: false,
            seed: 0,
        }
    }
}

impl Nmf {
    /// NMF with `k` components.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: Some(k),
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the initialisation.
        init: NmfInit,
        /// Sets the solver.
        solver: NmfSolver,
        /// Sets the tolerance.
        tol: f64,
        /// Sets the iteration cap.
        max_iter: usize,
        /// Sets the penalty weight on `W`.
        alpha_w: f64,
        /// Sets the penalty weight on `H` (`None`: as `alpha_w`).
        alpha_h: Option<f64>,
        /// Sets the L1 share of the penalties.
        l1_ratio: f64,
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets the seed.
        seed: u64,
    }

    /// The scaled penalties `(l1_W, l1_H, l2_W, l2_H)` for `n × d` data (scikit-learn's
    /// `_compute_regularization`).
    fn penalties(&self, n: usize, d: usize) -> Penalties {
        let aw = self.alpha_w;
        let ah = self.alpha_h.unwrap_or(aw);
        let (n, d) = (n as f64, d as f64);
        Penalties {
            l1_w: d * aw * self.l1_ratio,
            l1_h: n * ah * self.l1_ratio,
            l2_w: d * aw * (1.0 - self.l1_ratio),
            l2_h: n * ah * (1.0 - self.l1_ratio),
        }
    }
}

impl ndlearn_core::Estimator for Nmf {
    /// Checks the hyperparameters that do not depend on the data.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first field out of range.
    fn validate(&self) -> Result<()> {
        if self.n_components == Some(0) {
            return Err(Error::invalid_param(
                "n_components",
                "must be at least 1 (or None for the number of features)",
            ));
        }
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        ndlearn_core::validate::check_non_negative("alpha_w", self.alpha_w)?;
        if let Some(a) = self.alpha_h {
            ndlearn_core::validate::check_non_negative("alpha_h", a)?;
        }
        ndlearn_core::validate::check_in_range("l1_ratio", self.l1_ratio, 0.0, 1.0)?;
        Ok(())
    }
}

/// The penalty terms of the updates (already scaled by `n` or `d`).
#[derive(Debug, Clone, Copy)]
struct Penalties {
    l1_w: f64,
    l1_h: f64,
    l2_w: f64,
    l2_h: f64,
}

impl<F: Float> FitUnsupervised<F> for Nmf {
    type Model = FittedNmf<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "Nmf::fit")?;
        check_non_negative(x, "Nmf::fit")?;
        let (n, d) = x.dim();
        let k = match (self.n_components, &self.init) {
            (Some(k), _) => k,
            (None, NmfInit::Custom(_, h)) => h.nrows(),
            (None, _) => d,
        };
        if k == 0 {
            return Err(Error::invalid_param(
                "init",
                "the custom H has no rows (no components)",
            ));
        }
        let (mut w, mut h) = initialise(x, k, &self.init, self.seed)?;
        let pen = self.penalties(n, d);
        let run = solve(x, &mut w, &mut h, true, pen, self)?;
        let err = frobenius_error(x, &w, &h);
        if !err.is_finite() || w.iter().any(|v| !v.is_finite()) || h.iter().any(|v| !v.is_finite())
        {
            return Err(Error::invalid_param(
                "x",
                "the factorisation overflowed (values too large for the float type): rescale X",
            ));
        }
        Ok(FittedNmf {
            params: self.clone(),
            // row-major, the layout a deserialised model has (same GEMM kernels after a round
            // trip, so bit-identical transforms)
            components: h.as_standard_layout().into_owned(),
            w: w.as_standard_layout().into_owned(),
            reconstruction_err: err,
            n_iter: run.n_iter,
            converged: run.converged,
        })
    }
}

/// A fitted [`Nmf`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedNmf<F: Float> {
    params: Nmf,
    components: Array2<F>,
    w: Array2<F>,
    reconstruction_err: F,
    n_iter: usize,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedNmf<F> {
    fn n_features_in(&self) -> usize {
        self.components.ncols()
    }
}

impl<F: Float> FittedNmf<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Nmf {
        &self.params
    }
    /// The components `H`, one per row (`k × d`, non-negative).
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// The coefficients `W` of the training rows (`n × k`, non-negative): scikit-learn's
    /// `fit_transform` output.
    pub fn w(&self) -> &Array2<F> {
        &self.w
    }
    /// `‖X − W H‖_F` on the training data (scikit-learn's `reconstruction_err_`; the penalties
    /// are not included).
    pub fn reconstruction_err(&self) -> F {
        self.reconstruction_err
    }
    /// Iterations run by the fit.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the stopping rule was met within `max_iter` (scikit-learn warns when it is not).
    /// Always false with `tol = 0`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Components kept.
    pub fn n_components(&self) -> usize {
        self.components.nrows()
    }
}

impl<F: Float> Transform<F> for FittedNmf<F> {
    /// The coefficients `W ≥ 0` (`n × k`) of new non-negative rows with `H` fixed (see the
    /// [module docs](self)).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let d = self.components.ncols();
        let k = self.components.nrows();
        check_predict_input(x, d, "Nmf: number of features")?;
        check_non_negative(x, "Nmf::transform")?;
        let n = x.nrows();
        if n == 0 {
            return Ok(Array2::zeros((0, k)));
        }
        let mut w = match self.params.solver {
            NmfSolver::MultiplicativeUpdate => {
                Array2::from_elem((n, k), (mean_of(x) / F::cast(k)).sqrt())
            }
            NmfSolver::CoordinateDescent => Array2::zeros((n, k)),
        };
        let mut h = self.components.clone();
        let pen = self.params.penalties(n, d);
        solve(x, &mut w, &mut h, false, pen, &self.params)?;
        Ok(w)
    }
}

impl<F: Float> InverseTransform<F> for FittedNmf<F> {
    /// `W H` (`n × d`).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::common::check_scores(z, self.components.nrows(), "Nmf::inverse_transform")?;
        Ok(z.dot(&self.components))
    }
}

impl<F: Float> CheckModel for FittedNmf<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedNmf");
        c.params(&self.params)?;
        let (k, d) = self.components.dim();
        crate::common::check_components(&c, &self.components, d)?;
        if let Some(want) = self.params.n_components {
            c.len("components (rows)", k, want)?;
        }
        c.non_negative("components", &self.components)?;
        c.at_least("w (rows)", self.w.nrows(), 1)?;
        c.len("w (columns)", self.w.ncols(), k)?;
        c.non_negative("w", &self.w)?;
        crate::common::non_negative_value(&c, "reconstruction_err", self.reconstruction_err)
    }
}

// ---------------------------------------------------------------------------------------------
// Private helpers

/// NMF needs `X ≥ 0`: the first negative entry is reported.
fn check_non_negative<F: Float>(x: &ArrayRef2<F>, context: &'static str) -> Result<()> {
    for ((i, j), &v) in x.indexed_iter() {
        if v < F::zero() {
            return Err(Error::invalid_param(
                "x",
                format!("{context}: NMF needs non-negative data, found {v} at row {i}, column {j}"),
            ));
        }
    }
    Ok(())
}

fn mean_of<F: Float>(x: &ArrayRef2<F>) -> F {
    let n = x.len();
    if n == 0 {
        return F::zero();
    }
    x.iter().copied().sum::<F>() / F::cast(n)
}

/// `‖X − W H‖_F`.
fn frobenius_error<F: Float>(x: &ArrayRef2<F>, w: &Array2<F>, h: &Array2<F>) -> F {
    let wh = w.dot(h);
    Zip::from(x)
        .and(&wh)
        .fold(F::zero(), |acc, &a, &b| acc + (a - b) * (a - b))
        .sqrt()
}

/// `A B C` in the cheaper association (numpy's `multi_dot` rule, so the rounding follows
/// scikit-learn's).
fn dot3<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef2<F>, c: &ArrayRef2<F>) -> Array2<F> {
    let (a0, a1) = a.dim();
    let (b1, c1) = (c.nrows(), c.ncols());
    let cost1 = a0 * b1 * (a1 + c1);
    let cost2 = a1 * c1 * (a0 + b1);
    if cost1 < cost2 {
        a.dot(b).dot(c)
    } else {
        a.dot(&b.dot(c))
    }
}

/// The starting `(W, H)`, both in standard layout.
fn initialise<F: Float>(
    x: &ArrayRef2<F>,
    k: usize,
    init: &NmfInit,
    seed: u64,
) -> Result<(Array2<F>, Array2<F>)> {
    let (n, d) = x.dim();
    let m = n.min(d);
    let init = match init {
        NmfInit::Auto if k <= m => &NmfInit::Nndsvda,
        NmfInit::Auto => &NmfInit::Random,
        other => other,
    };
    match init {
        NmfInit::Custom(w, h) => {
            check_custom(w, (n, k), "W")?;
            check_custom(h, (k, d), "H")?;
            Ok((w.mapv(F::cast), h.mapv(F::cast)))
        }
        NmfInit::Random => {
            let avg = (mean_of(x) / F::cast(k)).sqrt();
            let mut rng = random::rng(seed);
            // H first, then W, as scikit-learn draws them
            let h = Array2::from_shape_simple_fn((k, d), || {
                avg * random::standard_normal::<F>(&mut rng).abs()
            });
            let w = Array2::from_shape_simple_fn((n, k), || {
                avg * random::standard_normal::<F>(&mut rng).abs()
            });
            Ok((w, h))
        }
        _ => {
            if k > m {
                return Err(Error::invalid_param(
                    "init",
                    format!(
                        "the NNDSVD inits need n_components <= min(n_samples, n_features) = {m}, \
                         got {k}; use NmfInit::Random or fewer components"
                    ),
                ));
            }
            let (mut w, mut h) = nndsvd(x, k, seed)?;
            let avg = mean_of(x);
            match init {
                NmfInit::Nndsvda => {
                    w.mapv_inplace(|v| if v == F::zero() { avg } else { v });
                    h.mapv_inplace(|v| if v == F::zero() { avg } else { v });
                }
                NmfInit::Nndsvdar => {
                    let mut rng = random::rng(seed);
                    let hundred = F::cast(100.0);
                    for v in w.iter_mut().chain(h.iter_mut()) {
                        if *v == F::zero() {
                            *v = (avg * random::standard_normal::<F>(&mut rng) / hundred).abs();
                        }
                    }
                }
                _ => {}
            }
            Ok((w, h))
        }
    }
}

fn check_custom(a: &Array2<f64>, shape: (usize, usize), which: &str) -> Result<()> {
    if a.dim() != shape {
        return Err(Error::invalid_param(
            "init",
            format!(
                "the custom {which} must be {} x {}, got {} x {}",
                shape.0,
                shape.1,
                a.nrows(),
                a.ncols()
            ),
        ));
    }
    if a.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(Error::invalid_param(
            "init",
            format!("the custom {which} must be finite and non-negative"),
        ));
    }
    if a.iter().all(|&v| v == 0.0) {
        return Err(Error::invalid_param(
            "init",
            format!("the custom {which} is all zeros (no update can leave that point)"),
        ));
    }
    Ok(())
}

/// Boutsidis–Gallopoulos NNDSVD (entries below `1e-6` set to 0).
fn nndsvd<F: Float>(x: &ArrayRef2<F>, k: usize, seed: u64) -> Result<(Array2<F>, Array2<F>)> {
    let (n, d) = x.dim();
    let svd = if n.min(d) <= 1000 {
        let full = linalg::svd_thin(x)?;
        linalg::Svd {
            u: full.u.slice(s![.., ..k]).to_owned(),
            s: full.s.slice(s![..k]).to_owned(),
            vt: full.vt.slice(s![..k, ..]).to_owned(),
        }
    } else {
        linalg::randomized_svd(x, k, RandomizedSvdOptions::default().seed(seed))?
    };
    let mut w = Array2::<F>::zeros((n, k));
    let mut h = Array2::<F>::zeros((k, d));
    let norm = |v: &Array1<F>| v.iter().map(|&a| a * a).sum::<F>().sqrt();
    let s0 = svd.s[0].sqrt();
    w.column_mut(0)
        .assign(&svd.u.column(0).mapv(|v| s0 * v.abs()));
    h.row_mut(0).assign(&svd.vt.row(0).mapv(|v| s0 * v.abs()));
    for j in 1..k {
        let (xv, yv) = (svd.u.column(j), svd.vt.row(j));
        let xp = xv.mapv(|v| v.max(F::zero()));
        let yp = yv.mapv(|v| v.max(F::zero()));
        let xn = xv.mapv(|v| v.min(F::zero()).abs());
        let yn = yv.mapv(|v| v.min(F::zero()).abs());
        let (xpn, ypn, xnn, ynn) = (norm(&xp), norm(&yp), norm(&xn), norm(&yn));
        let (mp, mn) = (xpn * ypn, xnn * ynn);
        let (u, v, un, vn, sigma) = if mp > mn {
            (xp, yp, xpn, ypn, mp)
        } else {
            (xn, yn, xnn, ynn, mn)
        };
        if sigma <= F::zero() {
            continue; // both parts vanish: a zero column (scikit-learn divides by zero here)
        }
        let lbd = (svd.s[j] * sigma).sqrt();
        w.column_mut(j).assign(&u.mapv(|a| lbd * a / un));
        h.row_mut(j).assign(&v.mapv(|a| lbd * a / vn));
    }
    let eps = F::cast(1e-6);
    w.mapv_inplace(|v| if v < eps { F::zero() } else { v });
    h.mapv_inplace(|v| if v < eps { F::zero() } else { v });
    Ok((w, h))
}

/// What a solver run did.
struct Run {
    n_iter: usize,
    converged: bool,
}

/// Runs the configured solver on `(W, H)` in place (`H` fixed when `!update_h`).
fn solve<F: Float>(
    x: &ArrayRef2<F>,
    w: &mut Array2<F>,
    h: &mut Array2<F>,
    update_h: bool,
    pen: Penalties,
    p: &Nmf,
) -> Result<Run> {
    match p.solver {
        NmfSolver::MultiplicativeUpdate => Ok(multiplicative_update(x, w, h, update_h, pen, p)),
        NmfSolver::CoordinateDescent => coordinate_descent(x, w, h, update_h, pen, p),
    }
}

/// scikit-learn's `_fit_multiplicative_update` for β = 2.
fn multiplicative_update<F: Float>(
    x: &ArrayRef2<F>,
    w: &mut Array2<F>,
    h: &mut Array2<F>,
    update_h: bool,
    pen: Penalties,
    p: &Nmf,
) -> Run {
    let eps = F::cast(f32::EPSILON);
    let (l1w, l2w) = (F::cast(pen.l1_w), F::cast(pen.l2_w));
    let (l1h, l2h) = (F::cast(pen.l1_h), F::cast(pen.l2_h));
    let tol = F::cast(p.tol);
    let error_at_init = frobenius_error(x, w, h);
    let mut previous = error_at_init;
    // with H fixed, X Hᵀ and H Hᵀ are computed once
    let fixed = if update_h {
        None
    } else {
        Some((x.dot(&h.t()), h.dot(&h.t())))
    };
    let mut n_iter = p.max_iter;
    let mut converged = false;
    for it in 1..=p.max_iter {
        // W ← W ∘ (X Hᵀ) / (W H Hᵀ + l1 + l2 W)
        let fresh;
        let (xht, hht) = match &fixed {
            Some((a, b)) => (a, b),
            None => {
                fresh = (x.dot(&h.t()), h.dot(&h.t()));
                (&fresh.0, &fresh.1)
            }
        };
        let den = w.dot(hht);
        Zip::from(&mut *w)
            .and(xht)
            .and(&den)
            .for_each(|wv, &num, &dv| {
                *wv *= num / mu_denominator(dv, *wv, l1w, l2w, eps);
            });
        if update_h {
            // H ← H ∘ (Wᵀ X) / (WᵀW H + l1 + l2 H)
            let num = w.t().dot(x);
            let den = dot3(&w.t(), w, h);
            Zip::from(&mut *h)
                .and(&num)
                .and(&den)
                .for_each(|hv, &nv, &dv| {
                    *hv *= nv / mu_denominator(dv, *hv, l1h, l2h, eps);
                });
        }
        if p.tol > 0.0 && it % 10 == 0 {
            let error = frobenius_error(x, w, h);
            // an exact start (error 0) cannot improve: scikit-learn would divide 0 by 0 here
            if error_at_init == F::zero() || (previous - error) / error_at_init < tol {
                n_iter = it;
                converged = true;
                break;
            }
            previous = error;
        }
    }
    Run { n_iter, converged }
}

/// The penalised denominator of a multiplicative update (scikit-learn's order of operations;
/// an exact 0 becomes `eps`).
#[inline]
fn mu_denominator<F: Float>(base: F, current: F, l1: F, l2: F, eps: F) -> F {
    let mut d = base;
    if l1 > F::zero() {
        d += l1;
    }
    if l2 > F::zero() {
        d += l2 * current;
    }
    if d == F::zero() { eps } else { d }
}

/// scikit-learn's `_fit_coordinate_descent`.
fn coordinate_descent<F: Float>(
    x: &ArrayRef2<F>,
    w: &mut Array2<F>,
    h: &mut Array2<F>,
    update_h: bool,
    pen: Penalties,
    p: &Nmf,
) -> Result<Run> {
    let k = w.ncols();
    let mut ws = w.as_standard_layout().into_owned();
    let mut ht = h.t().as_standard_layout().into_owned();
    let mut rng = random::rng(p.seed);
    let order = |rng: &mut random::Rng| -> Vec<usize> {
        if p.shuffle {
            random::permutation(rng, k)
        } else {
            (0..k).collect()
        }
    };
    let tol = F::cast(p.tol);
    // with H fixed, H Hᵀ and X Hᵀ are computed once
    let fixed = if update_h {
        None
    } else {
        Some(cd_terms(x, &ht, pen.l1_w, pen.l2_w))
    };
    let mut violation_init = F::zero();
    let mut n_iter = p.max_iter;
    let mut converged = false;
    for it in 1..=p.max_iter {
        let perm = order(&mut rng);
        let mut violation = match &fixed {
            Some((g, b)) => cd_sweep(&mut ws, g, b, &perm)?,
            None => {
                let (g, b) = cd_terms(x, &ht, pen.l1_w, pen.l2_w);
                cd_sweep(&mut ws, &g, &b, &perm)?
            }
        };
        if update_h {
            let perm = order(&mut rng);
            let (g, b) = cd_terms(&x.t(), &ws, pen.l1_h, pen.l2_h);
            violation += cd_sweep(&mut ht, &g, &b, &perm)?;
        }
        if it == 1 {
            violation_init = violation;
        }
        if violation_init == F::zero() || violation / violation_init <= tol {
            n_iter = it;
            converged = true;
            break;
        }
    }
    *w = ws;
    if update_h {
        *h = ht.t().as_standard_layout().into_owned();
    }
    Ok(Run { n_iter, converged })
}

/// The Gram matrix `G = HtᵀHt + l2 I` (`k × k`) and `B = X Ht − l1` (`m × k`) of a
/// coordinate-descent sweep on `W` for `X ≈ W Htᵀ` (scikit-learn's `_update_coordinate_descent`),
/// row-major.
fn cd_terms<F: Float>(
    x: &ArrayRef2<F>,
    ht: &Array2<F>,
    l1: f64,
    l2: f64,
) -> (Array2<F>, Array2<F>) {
    let mut hht = ht.t().dot(ht);
    let mut xht = x.dot(ht);
    if l2 != 0.0 {
        let l2 = F::cast(l2);
        for t in 0..hht.nrows() {
            hht[[t, t]] += l2;
        }
    }
    if l1 != 0.0 {
        let l1 = F::cast(l1);
        xht.mapv_inplace(|v| v - l1);
    }
    (
        hht.as_standard_layout().into_owned(),
        xht.as_standard_layout().into_owned(),
    )
}

/// One coordinate-descent sweep over the columns of `W` (`m × k`) with the terms of
/// [`cd_terms`] (scikit-learn's `_update_cdnmf_fast`); returns the sum of the absolute
/// projected gradients met.
fn cd_sweep<F: Float>(
    w: &mut Array2<F>,
    hht: &Array2<F>,
    xht: &Array2<F>,
    perm: &[usize],
) -> Result<F> {
    let k = w.ncols();
    let m = w.nrows();
    let contiguous = || Error::invalid_param("w", "internal: a non-contiguous factor");
    let g = hht.as_slice().ok_or_else(contiguous)?;
    let b = xht.as_slice().ok_or_else(contiguous)?;
    let ws = w.as_slice_mut().ok_or_else(contiguous)?;
    let mut violation = F::zero();
    for &t in perm {
        let hess = g[t * k + t];
        let gt = &g[t * k..(t + 1) * k];
        for i in 0..m {
            let row = &mut ws[i * k..(i + 1) * k];
            let mut grad = -b[i * k + t];
            for (gr, wr) in gt.iter().zip(row.iter()) {
                grad += *gr * *wr;
            }
            let pg = if row[t] == F::zero() {
                grad.min(F::zero())
            } else {
                grad
            };
            violation += pg.abs();
            if hess != F::zero() {
                row[t] = (row[t] - grad / hess).max(F::zero());
            }
        }
    }
    Ok(violation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn small() -> Array2<f64> {
        array![
            [1.0, 2.0, 0.5],
            [0.0, 1.0, 3.0],
            [2.0, 0.0, 1.0],
            [1.0, 1.0, 1.0]
        ]
    }

    #[test]
    fn check_model_accepts_a_fit_and_rejects_negative_components() {
        let mut m = Nmf::new(2).fit(&small()).expect("fit");
        assert!(m.check_model().is_ok());
        m.components[[0, 1]] = -1.0;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn invalid_hyperparameters_are_typed_errors() {
        let x = small();
        let bad = [
            Nmf::new(0),
            Nmf::new(2).tol(-1.0),
            Nmf::new(2).max_iter(0),
            Nmf::new(2).alpha_w(-0.1),
            Nmf::new(2).alpha_h(Some(f64::NAN)),
            Nmf::new(2).l1_ratio(1.5),
            Nmf::new(4).init(NmfInit::Nndsvd), // k > min(n, d) = 3
            Nmf::new(2).init(NmfInit::Custom(Array2::ones((3, 2)), Array2::ones((2, 3)))),
            Nmf::new(2).init(NmfInit::Custom(Array2::zeros((4, 2)), Array2::ones((2, 3)))),
            Nmf::new(2).init(NmfInit::Custom(-Array2::ones((4, 2)), Array2::ones((2, 3)))),
        ];
        for est in bad {
            let r: Result<FittedNmf<f64>> = est.fit(&x);
            assert!(
                matches!(r, Err(Error::InvalidParam { .. })),
                "{est:?}: {r:?}"
            );
        }
        let neg = array![[1.0, -0.5], [0.0, 1.0]];
        let r: Result<FittedNmf<f64>> = Nmf::new(1).fit(&neg);
        assert!(matches!(r, Err(Error::InvalidParam { name: "x", .. })));
        // random init allows k > min(n, d); auto falls back to it
        let m: FittedNmf<f64> = Nmf::new(5).fit(&x).expect("auto -> random");
        assert_eq!(m.components().dim(), (5, 3));
    }

    #[test]
    fn nndsvd_of_a_rank_one_matrix_is_exact() {
        // X = u vᵀ with positive u, v: the leading triplet alone reproduces it
        let u = array![1.0, 2.0, 3.0];
        let v = array![0.5, 1.0];
        let x: Array2<f64> = Array2::from_shape_fn((3, 2), |(i, j)| u[i] * v[j]);
        let (w, h): (Array2<f64>, Array2<f64>) = nndsvd(&x, 1, 0).expect("nndsvd");
        let back = w.dot(&h);
        assert!((&back - &x).iter().all(|d| d.abs() < 1e-12));
    }

    #[test]
    fn dot3_picks_numpys_association() {
        let a = Array2::<f64>::ones((2, 50));
        let b = Array2::<f64>::ones((50, 2));
        let c = Array2::<f64>::ones((2, 40));
        assert_eq!(dot3(&a, &b, &c), Array2::from_elem((2, 40), 100.0));
    }
}
