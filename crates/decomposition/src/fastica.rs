//! Independent component analysis by FastICA ([`FastIca`], scikit-learn's `FastICA`).
//!
//! # Method
//!
//! Model: the rows of `X` (`n × d`) are `x = A s + μ` for `k` statistically independent,
//! non-Gaussian sources `s` and an unknown mixing matrix `A`. FastICA (Hyvärinen & Oja 2000)
//! finds an unmixing matrix `W` that makes the components of `W x` as non-Gaussian as possible,
//! measured by an approximation of negentropy `J(y) ∝ (E G(y) − E G(ν))²`, `ν ~ N(0, 1)`.
//!
//! 1. **Whitening** ([`IcaWhiten`], [`WhitenSolver`]): centre, then with `X̃ = U Σ Vᵀ` (thin SVD,
//!    `Svd`, default) or the eigendecomposition `X̃ᵀX̃ = V Σ² Vᵀ` (`Eigh`; eigenvalues below
//!    `10 ε` are raised to `10 ε` as scikit-learn does), the whitening matrix is
//!    `K = Σ_k⁻¹ V_kᵀ` (`k × d`; each column of `V` signed so that its first entry is positive,
//!    scikit-learn's convention) and the whitened data `Z = √n X̃ Kᵀ` have identity covariance
//!    (`1/n` normalisation).
//! 2. **Fixed-point iteration** on `Z` with `g = G'` ([`IcaFun`]):
//!    * `Parallel` (symmetric): `W ← (E[g(W z) zᵀ] − diag(E g'(W z)) W)`, then the symmetric
//!      decorrelation `W ← (W Wᵀ)^{-1/2} W` (eigendecomposition of `W Wᵀ`, eigenvalues clipped at
//!      the smallest positive float); stops when `max_i | |⟨w_i⁺, w_i⟩| − 1 | < tol`.
//!    * `Deflation`: one unit at a time, `w ← E[z g(wᵀz)] − E[g'(wᵀz)] w`, Gram–Schmidt against
//!      the units already found, normalised; stops when `| |⟨w⁺, w⟩| − 1 | < tol`. The
//!      reported iteration count is the largest over the units (as scikit-learn).
//!
//!    Note that `| |cos θ| − 1 | ≈ θ²/2`: `tol = 1e-10` means angles of about `1.4e-5` radian.
//! 3. With `UnitVariance` (default) every recovered source is scaled to unit standard deviation
//!    on the training data (`1/n`); `ArbitraryVariance` keeps the scale of the whitened
//!    iteration. The components (unmixing matrix, `k × d`) are `W K`, the mixing matrix
//!    (`d × k`) its Moore–Penrose pseudo-inverse.
//!
//! With `IcaWhiten::Disabled` the data are used as given (neither centred nor whitened; they
//! should already be white), `W` is `d × d`, the components are `W` and the stored mean is 0.
//!
//! `transform` is `(x − μ) componentsᵀ`; `inverse_transform` is `s mixingᵀ + μ` (exact on the
//! training data when `k = d`).
//!
//! Contrast functions ([`IcaFun`]):
//!
//! | fun | `G(u)` | `g(u)` | `g'(u)` |
//! |---|---|---|---|
//! | `Logcosh { alpha }` (default, `α = 1`) | `log cosh(α u) / α` | `tanh(α u)` | `α (1 − tanh²(α u))` |
//! | `Exp` | `−exp(−u²/2)` | `u exp(−u²/2)` | `(1 − u²) exp(−u²/2)` |
//! | `Cube` | `u⁴/4` | `u³` | `3 u²` |
//!
//! Non-convergence within `max_iter` is not an error: the model is returned and
//! [`FittedFastIca::converged`] is false (scikit-learn warns instead; it does not warn for
//! `Deflation`, ndlearn reports it for both). Sources are identified up to permutation and sign
//! only; the start (`w_init`, or a standard normal `k × k` matrix from the seeded stream of
//! `ndlearn_core::random`, not numpy's) decides which.
//!
//! Cost: whitening `O(n d min(n, d))` (SVD) or `O(n d² + d³)` (eigh); each iteration
//! `O(n k²)` (BLAS GEMMs `Z Wᵀ` and `g(·)ᵀ Z`, plus `O(n k)` evaluations of `g`).
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `n_components` | `None` (`min(n, d)`) | `n_components` | `1..=min(n, d)`; `None` (or `d`) without whitening |
//! | `algorithm` | `Parallel` | `algorithm` | |
//! | `whiten` | `UnitVariance` | `whiten` | `UnitVariance`, `ArbitraryVariance`, `Disabled` (`False`) |
//! | `fun` | `Logcosh { alpha: 1 }` | `fun`, `fun_args` | `alpha ∈ [1, 2]` |
//! | `max_iter` | 200 | `max_iter` | `≥ 1` |
//! | `tol` | `1e-4` | `tol` | `≥ 0` |
//! | `w_init` | `None` | `w_init` | `k × k`, finite |
//! | `whiten_solver` | `Svd` | `whiten_solver` | |
//! | `seed` | 0 | `random_state` | |
//!
//! Errors: [`Error::InvalidParam`] for a hyperparameter out of range, `k > min(n, d)` (scikit-learn
//! lowers `k` with a warning), centred data of rank below `k` (the whitening would divide by a
//! zero singular value; scikit-learn returns non-finite or meaningless numbers), a `w_init` of
//! the wrong shape, or a result that overflowed; [`Error::TooFewSamples`] for fewer than 2 rows;
//! the input errors of [`check_fit_input`] / [`check_predict_input`]; [`Error::Linalg`] from the
//! SVD or eigensolver.
//!
//! ```
//! use ndlearn_decomposition::FastIca;
//! use ndlearn_core::ndarray::{Array2, Axis};
//! use ndlearn_core::{FitUnsupervised, Transform, InverseTransform};
//!
//! // two non-Gaussian sources (a sine and a square wave) mixed by a fixed matrix
//! let n = 1000;
//! let s = Array2::from_shape_fn((n, 2), |(i, j)| {
//!     let t = 8.0 * i as f64 / n as f64;
//!     if j == 0 { (2.0 * t).sin() } else { (3.0 * t).sin().signum() }
//! });
//! let a = ndlearn_core::ndarray::array![[1.0, 1.0], [0.5, 2.0]];
//! let x = s.dot(&a.t());
//! let ica = FastIca::new(2).seed(0).fit(&x)?;
//! assert!(ica.converged());
//! let est = ica.transform(&x)?;
//! // each true source is recovered (up to sign and order) by one estimated source
//! let corr = |u: &[f64], v: &[f64]| {
//!     let (mu, mv) = (u.iter().sum::<f64>() / n as f64, v.iter().sum::<f64>() / n as f64);
//!     let cov: f64 = u.iter().zip(v).map(|(a, b)| (a - mu) * (b - mv)).sum();
//!     let su: f64 = u.iter().map(|a| (a - mu) * (a - mu)).sum::<f64>().sqrt();
//!     let sv: f64 = v.iter().map(|b| (b - mv) * (b - mv)).sum::<f64>().sqrt();
//!     cov / (su * sv)
//! };
//! for truth in s.columns() {
//!     let best = est
//!         .columns()
//!         .into_iter()
//!         .map(|e| corr(&truth.to_vec(), &e.to_vec()).abs())
//!         .fold(0.0, f64::max);
//!     assert!(best > 0.99, "{best}");
//! }
//! // all components kept: the mixing matrix undoes the unmixing exactly
//! let back = ica.inverse_transform(&est)?;
//! assert!((&back - &x).iter().all(|v| v.abs() < 1e-9));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! References: A. Hyvärinen & E. Oja, *Independent component analysis: algorithms and
//! applications*, Neural Networks 13(4–5), 2000; A. Hyvärinen, J. Karhunen & E. Oja,
//! *Independent Component Analysis*, Wiley 2001, tables 8.3 and 8.4. The course notes do not
//! cover ICA (catalog D-13): every choice here follows scikit-learn.

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg;
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, InverseTransform, Result, Transform, random};

/// FastICA's iteration scheme (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum IcaAlgorithm {
    /// All units at once with symmetric decorrelation (default).
    #[default]
    Parallel,
    /// One unit at a time with Gram–Schmidt deflation.
    Deflation,
}

/// The contrast function `G` of the negentropy approximation (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum IcaFun {
    /// `log cosh(α u) / α`, `α ∈ [1, 2]` (default, `α = 1`): a good general-purpose choice.
    Logcosh {
        /// The scale `α` (scikit-learn's `fun_args={"alpha": α}`).
        alpha: f64,
    },
    /// `−exp(−u²/2)`: for super-Gaussian sources, or when robustness matters.
    Exp,
    /// `u⁴/4` (kurtosis): for sub-Gaussian sources without outliers.
    Cube,
}

impl Default for IcaFun {
    fn default() -> Self {
        IcaFun::Logcosh { alpha: 1.0 }
    }
}

/// Whether and how [`FastIca`] whitens the data (scikit-learn's `whiten`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum IcaWhiten {
    /// Whiten, then scale the sources to unit variance (`"unit-variance"`, default).
    #[default]
    UnitVariance,
    /// Whiten; the sources keep the scale of the iteration (`"arbitrary-variance"`).
    ArbitraryVariance,
    /// Use the data as given: neither centred nor whitened (`False`).
    Disabled,
}

/// How the whitening matrix is computed (scikit-learn's `whiten_solver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum WhitenSolver {
    /// Thin SVD of the centred data (default; more stable when the data are degenerate).
    #[default]
    Svd,
    /// Eigendecomposition of `X̃ᵀX̃` (less memory; faster for `n ≫ d`).
    Eigh,
}

/// Independent component analysis by FastICA. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct FastIca {
    /// Sources `k` (default `None`: `min(n, d)`; must stay `None` or `d` without whitening).
    pub n_components: Option<usize>,
    /// Parallel or deflation (default parallel).
    pub algorithm: IcaAlgorithm,
    /// Whitening (default unit variance).
    pub whiten: IcaWhiten,
    /// Contrast function (default log-cosh with `α = 1`).
    pub fun: IcaFun,
    /// Iteration cap (per unit for deflation; default 200).
    pub max_iter: usize,
    /// Convergence tolerance on `| |⟨w⁺, w⟩| − 1 |` (default `1e-4`).
    pub tol: f64,
    /// Initial unmixing matrix (`k × k`; default `None`: standard normal from `seed`).
    pub w_init: Option<Array2<f64>>,
    /// Whitening solver (default SVD).
    pub whiten_solver: WhitenSolver,
    /// Seed of the random initial unmixing matrix (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for FastIca {
    fn default() -> Self {
        Self {
            n_components: None,
            algorithm: IcaAlgorithm::Parallel,
            whiten: IcaWhiten::UnitVariance,
            fun: IcaFun::default(),
            max_iter: 200,
            tol: 1e-4,
            w_init: None,
            whiten_solver: WhitenSolver::Svd,
            seed: 0,
        }
    }
}

impl FastIca {
    /// FastICA recovering `k` sources.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: Some(k),
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the algorithm.
        algorithm: IcaAlgorithm,
        /// Sets the whitening.
        whiten: IcaWhiten,
        /// Sets the contrast function.
        fun: IcaFun,
        /// Sets the iteration cap.
        max_iter: usize,
        /// Sets the tolerance.
        tol: f64,
    }
    /// Sets the initial unmixing matrix (`k × k`).
    pub fn w_init(mut self, w: Array2<f64>) -> Self {
        self.w_init = Some(w);
        self
    }
    ndlearn_core::setters! {
        /// Sets the whitening solver.
        whiten_solver: WhitenSolver,
        /// Sets the seed.
        seed: u64,
    }
}

impl ndlearn_core::Estimator for FastIca {
    /// Checks the hyperparameters that do not depend on the data.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first field out of range.
    fn validate(&self) -> Result<()> {
        if self.n_components == Some(0) {
            return Err(Error::invalid_param(
                "n_components",
                "must be at least 1 (or None for min(n_samples, n_features))",
            ));
        }
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        if let IcaFun::Logcosh { alpha } = self.fun {
            ndlearn_core::validate::check_in_range("fun", alpha, 1.0, 2.0)?;
        }
        if let Some(w) = &self.w_init
            && w.iter().any(|v| !v.is_finite())
        {
            return Err(Error::invalid_param(
                "w_init",
                "must be finite (NaN or infinity found)",
            ));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for FastIca {
    type Model = FittedFastIca<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 2, "FastIca::fit")?;
        let (n, d) = x.dim();
        let m = n.min(d);
        let whiten = self.whiten != IcaWhiten::Disabled;
        let k = match (whiten, self.n_components) {
            (true, Some(k)) if k > m => {
                return Err(Error::invalid_param(
                    "n_components",
                    format!("must be in 1..={m} (min of rows and columns), got {k}"),
                ));
            }
            (true, Some(k)) => k,
            (true, None) => m,
            (false, Some(k)) if k != d => {
                return Err(Error::invalid_param(
                    "n_components",
                    format!(
                        "without whitening every one of the {d} features is a source: leave \
                         n_components None (got {k})"
                    ),
                ));
            }
            (false, _) => d,
        };
        let (mean, whitening, xc, z) = if whiten {
            let mean = x
                .mean_axis(Axis(0))
                .ok_or_else(|| Error::invalid_param("x", "no rows"))?;
            let mut xc = x.to_owned();
            xc -= &mean;
            let kmat = whitening_matrix(&xc, k, self.whiten_solver)?;
            let mut z = xc.dot(&kmat.t());
            z *= F::cast(n).sqrt();
            (mean, Some(kmat), Some(xc), z)
        } else {
            (Array1::zeros(d), None, None, x.to_owned())
        };
        let w_init: Array2<F> = match &self.w_init {
            Some(w) => {
                if w.dim() != (k, k) {
                    return Err(Error::invalid_param(
                        "w_init",
                        format!(
                            "must be {k} x {k} (n_components squared), got {} x {}",
                            w.nrows(),
                            w.ncols()
                        ),
                    ));
                }
                w.mapv(F::cast)
            }
            None => {
                let mut rng = random::rng(self.seed);
                Array2::from_shape_simple_fn((k, k), || random::standard_normal(&mut rng))
            }
        };
        let tol = F::cast(self.tol);
        let (mut w, n_iter, converged) = match self.algorithm {
            IcaAlgorithm::Parallel => ica_parallel(&z, w_init, self.fun, tol, self.max_iter)?,
            IcaAlgorithm::Deflation => ica_deflation(&z, &w_init, self.fun, tol, self.max_iter),
        };
        let components = match (&whitening, &xc) {
            (Some(kmat), Some(xc)) => {
                if self.whiten == IcaWhiten::UnitVariance {
                    // scikit-learn: S = (W K) X̃ᵀ (numpy's multi_dot order for n > d), then
                    // every source divided by its standard deviation (1/n)
                    let sources = if n > d {
                        xc.dot(&w.dot(kmat).t())
                    } else {
                        xc.dot(&kmat.t()).dot(&w.t())
                    };
                    let sd = sources.map_axis(Axis(0), |c| {
                        let mu = c.iter().copied().sum::<F>() / F::cast(n);
                        (c.iter().map(|&v| (v - mu) * (v - mu)).sum::<F>() / F::cast(n)).sqrt()
                    });
                    for (mut row, &sdi) in w.rows_mut().into_iter().zip(&sd) {
                        row /= sdi;
                    }
                }
                w.dot(kmat)
            }
            _ => w.clone(),
        };
        let components = components.as_standard_layout().into_owned();
        if components.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "x",
                "the unmixing matrix is not finite (values out of the float range): rescale X",
            ));
        }
        let mixing = linalg::pinv(&components, None)?
            .as_standard_layout()
            .into_owned();
        if mixing.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "x",
                "the mixing matrix is not finite (values out of the float range): rescale X",
            ));
        }
        Ok(FittedFastIca {
            params: self.clone(),
            components,
            mixing,
            mean,
            whitening: whitening.map(|k| k.as_standard_layout().into_owned()),
            n_iter,
            converged,
        })
    }
}

/// A fitted [`FastIca`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedFastIca<F: Float> {
    params: FastIca,
    components: Array2<F>,
    mixing: Array2<F>,
    mean: Array1<F>,
    whitening: Option<Array2<F>>,
    n_iter: usize,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedFastIca<F> {
    fn n_features_in(&self) -> usize {
        self.components.ncols()
    }
}

impl<F: Float> FittedFastIca<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &FastIca {
        &self.params
    }
    /// The unmixing matrix applied to centred data, one source per row (`k × d`; scikit-learn's
    /// `components_`).
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// The mixing matrix (`d × k`), the pseudo-inverse of the components (`mixing_`).
    pub fn mixing(&self) -> &Array2<F> {
        &self.mixing
    }
    /// Training column means (zeros when whitening is disabled: the data are used as given).
    pub fn mean(&self) -> &Array1<F> {
        &self.mean
    }
    /// The whitening matrix `K` (`k × d`, `whitening_`); `None` when whitening is disabled.
    pub fn whitening(&self) -> Option<&Array2<F>> {
        self.whitening.as_ref()
    }
    /// Iterations run (the largest over the units for deflation).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the tolerance was met within `max_iter` (for every unit with deflation). A
    /// model that did not converge is still returned (scikit-learn warns).
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Sources recovered.
    pub fn n_components(&self) -> usize {
        self.components.nrows()
    }
}

impl<F: Float> Transform<F> for FittedFastIca<F> {
    /// The sources `(x − μ) componentsᵀ` (`n × k`).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.mean.len(), "FastIca: number of features")?;
        let mut xc = x.to_owned();
        xc -= &self.mean;
        Ok(xc.dot(&self.components.t()))
    }
}

impl<F: Float> InverseTransform<F> for FittedFastIca<F> {
    /// The data `s mixingᵀ + μ` (`n × d`).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::common::check_scores(z, self.components.nrows(), "FastIca::inverse_transform")?;
        let mut x = z.dot(&self.mixing.t());
        x += &self.mean;
        Ok(x)
    }
}

impl<F: Float> CheckModel for FittedFastIca<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedFastIca");
        c.params(&self.params)?;
        let d = self.mean.len();
        crate::common::check_components(&c, &self.components, d)?;
        let k = self.components.nrows();
        c.finite("mean", &self.mean)?;
        c.shape("mixing", self.mixing.dim(), (d, k))?;
        c.finite("mixing", &self.mixing)?;
        let whiten = self.params.whiten != IcaWhiten::Disabled;
        c.that(self.whitening.is_some() == whiten, || {
            "the whitening matrix must be stored exactly when whitening is on".into()
        })?;
        match &self.whitening {
            Some(kmat) => {
                c.shape("whitening", kmat.dim(), (k, d))?;
                c.finite("whitening", kmat)?;
                if let Some(want) = self.params.n_components {
                    c.len("components (rows)", k, want)?;
                }
                c.that(k <= d, || format!("{k} sources of {d} features"))
            }
            None => c.len("components (rows)", k, d),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Private helpers

/// `K = Σ_k⁻¹ V_kᵀ` (`k × d`) for centred `xc` (see the [module docs](self)).
fn whitening_matrix<F: Float>(xc: &Array2<F>, k: usize, solver: WhitenSolver) -> Result<Array2<F>> {
    let (n, d) = xc.dim();
    let (sv, mut u) = match solver {
        WhitenSolver::Svd => {
            let (s, vt) = linalg::svd_right(xc)?;
            if s[0] <= F::zero() || s[k - 1] <= s[0] * F::cast(n.max(d)) * F::epsilon() {
                return Err(rank_error(k));
            }
            (s, vt.t().to_owned())
        }
        WhitenSolver::Eigh => {
            let mut c = xc.t().dot(xc);
            if c.iter().any(|v| !v.is_finite()) {
                return Err(Error::invalid_param(
                    "whiten_solver",
                    "X̃ᵀX̃ overflows for data this large: use WhitenSolver::Svd or rescale X",
                ));
            }
            // LAPACK reads the lower triangle; mirror it so the symmetry check cannot object
            for i in 0..d {
                for j in 0..i {
                    c[[j, i]] = c[[i, j]];
                }
            }
            let (mut vals, vecs) = linalg::eigh_descending(&c)?;
            // eigenvalues are accurate to about ε λ_max: below that the direction is noise
            if vals[0] <= F::zero() {
                return Err(Error::invalid_param(
                    "whiten_solver",
                    "X̃ᵀX̃ is zero (constant data, or values so small that it underflows: use \
                     WhitenSolver::Svd or rescale X)",
                ));
            }
            if vals[k - 1] <= vals[0] * F::cast(n.max(d)) * F::epsilon() {
                return Err(rank_error(k));
            }
            let floor = F::epsilon() * F::cast(10.0);
            vals.mapv_inplace(|v| if v < floor { floor } else { v }.sqrt());
            (vals, vecs)
        }
    };
    for mut col in u.columns_mut() {
        if col[0] < F::zero() {
            col.mapv_inplace(|v| -v);
        }
    }
    let mut kmat = u.slice(s![.., ..k]).t().to_owned();
    for (mut row, &si) in kmat.rows_mut().into_iter().zip(sv.iter()) {
        row /= si;
    }
    Ok(kmat)
}

fn rank_error(k: usize) -> Error {
    Error::invalid_param(
        "n_components",
        format!(
            "the centred data have fewer than {k} independent directions (constant or collinear \
             columns, or too few rows): lower n_components"
        ),
    )
}

/// `g(u)` element-wise and the sample means of `g'(u)` per column (`u` is `n × k`: one column
/// per unit).
fn contrast<F: Float>(fun: IcaFun, u: &Array2<F>) -> (Array2<F>, Array1<F>) {
    let n = F::cast(u.nrows());
    let one = F::one();
    match fun {
        IcaFun::Logcosh { alpha } => {
            let a = F::cast(alpha);
            let g = u.mapv(|v| (a * v).tanh());
            let dg = g.map_axis(Axis(0), |c| {
                c.iter().map(|&t| a * (one - t * t)).sum::<F>() / n
            });
            (g, dg)
        }
        IcaFun::Exp => {
            let half = F::cast(0.5);
            let g = u.mapv(|v| v * (-(v * v) * half).exp());
            let dg = u.map_axis(Axis(0), |c| {
                c.iter()
                    .map(|&v| (one - v * v) * (-(v * v) * half).exp())
                    .sum::<F>()
                    / n
            });
            (g, dg)
        }
        IcaFun::Cube => {
            let three = F::cast(3.0);
            let g = u.mapv(|v| v * v * v);
            let dg = u.map_axis(Axis(0), |c| c.iter().map(|&v| three * v * v).sum::<F>() / n);
            (g, dg)
        }
    }
}

/// `W ← (W Wᵀ)^{-1/2} W` through the eigendecomposition of `W Wᵀ`.
fn sym_decorrelation<F: Float>(w: &Array2<F>) -> Result<Array2<F>> {
    let mut c = w.dot(&w.t());
    let k = c.nrows();
    for i in 0..k {
        for j in 0..i {
            c[[j, i]] = c[[i, j]];
        }
    }
    let (vals, u) = linalg::eigh(&c)?;
    let tiny = F::min_positive_value();
    let mut scaled = u.clone();
    for (mut col, &v) in scaled.columns_mut().into_iter().zip(&vals) {
        col /= v.max(tiny).sqrt();
    }
    // numpy's multi_dot of three square matrices: A (B C)
    Ok(scaled.dot(&u.t().dot(w)))
}

/// Parallel FastICA on the whitened `z` (`n × k`): `(W, n_iter, converged)`.
fn ica_parallel<F: Float>(
    z: &Array2<F>,
    w_init: Array2<F>,
    fun: IcaFun,
    tol: F,
    max_iter: usize,
) -> Result<(Array2<F>, usize, bool)> {
    let n = F::cast(z.nrows());
    let mut w = sym_decorrelation(&w_init)?;
    for it in 0..max_iter {
        let (g, dg) = contrast(fun, &z.dot(&w.t()));
        let mut w1 = g.t().dot(z);
        w1 /= n;
        for ((mut row, wrow), &d) in w1.rows_mut().into_iter().zip(w.rows()).zip(&dg) {
            row.scaled_add(-d, &wrow);
        }
        let w1 = sym_decorrelation(&w1)?;
        let lim = w1
            .rows()
            .into_iter()
            .zip(w.rows())
            .map(|(a, b)| (a.dot(&b).abs() - F::one()).abs())
            .fold(F::zero(), |m, v| if v > m { v } else { m });
        w = w1;
        if lim < tol {
            return Ok((w, it + 1, true));
        }
    }
    Ok((w, max_iter, false))
}

/// Deflationary FastICA on the whitened `z` (`n × k`): `(W, max n_iter, all converged)`.
fn ica_deflation<F: Float>(
    z: &Array2<F>,
    w_init: &Array2<F>,
    fun: IcaFun,
    tol: F,
    max_iter: usize,
) -> (Array2<F>, usize, bool) {
    let k = w_init.nrows();
    let n = F::cast(z.nrows());
    let mut w_all = Array2::<F>::zeros((k, k));
    let mut n_iter = 0;
    let mut converged = true;
    for j in 0..k {
        let mut w = w_init.row(j).to_owned();
        let norm = w.dot(&w).sqrt();
        w /= norm;
        let mut done = false;
        let mut used = max_iter;
        for it in 0..max_iter {
            let wtx = z.dot(&w).insert_axis(Axis(1));
            let (g, dg) = contrast(fun, &wtx);
            let mut w1 = z.t().dot(&g.column(0));
            w1 /= n;
            w1.scaled_add(-dg[0], &w);
            if j > 0 {
                let prev = w_all.slice(s![..j, ..]);
                let proj = prev.dot(&w1);
                w1 -= &prev.t().dot(&proj);
            }
            let norm = w1.dot(&w1).sqrt();
            w1 /= norm;
            let lim = (w1.dot(&w).abs() - F::one()).abs();
            w = w1;
            if lim < tol {
                done = true;
                used = it + 1;
                break;
            }
        }
        converged &= done;
        n_iter = n_iter.max(used);
        w_all.row_mut(j).assign(&w);
    }
    (w_all, n_iter, converged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_transposed_mixing() {
        let x = array![
            [0.0, 1.0, 2.0],
            [1.0, 0.5, 0.0],
            [2.0, 2.0, 1.0],
            [0.3, 0.1, 0.9],
            [1.5, 0.2, 0.4]
        ];
        let mut m = FastIca::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.mixing = m.mixing.t().to_owned();
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn invalid_hyperparameters_are_typed_errors() {
        let x = array![
            [0.0, 1.0, 2.0],
            [1.0, 0.5, 0.0],
            [2.0, 2.0, 1.0],
            [0.3, 0.1, 0.9]
        ];
        let bad = [
            FastIca::new(0),
            FastIca::new(4),
            FastIca::new(2).max_iter(0),
            FastIca::new(2).tol(-1.0),
            FastIca::new(2).fun(IcaFun::Logcosh { alpha: 3.0 }),
            FastIca::new(2).w_init(Array2::eye(3)),
            FastIca::new(2).w_init(Array2::from_elem((2, 2), f64::NAN)),
            FastIca::new(2).whiten(IcaWhiten::Disabled),
        ];
        for est in bad {
            let r: Result<FittedFastIca<f64>> = est.fit(&x);
            assert!(
                matches!(r, Err(Error::InvalidParam { .. })),
                "{est:?}: {r:?}"
            );
        }
        let r: Result<FittedFastIca<f64>> = FastIca::new(1).fit(&array![[1.0, 2.0]]);
        assert!(matches!(r, Err(Error::TooFewSamples { .. })), "{r:?}");
    }

    #[test]
    fn symmetric_decorrelation_gives_orthonormal_rows() {
        let w = array![[2.0, 1.0, 0.0], [0.5, 1.0, 0.3], [0.1, -1.0, 4.0]];
        let o = sym_decorrelation(&w).expect("decorrelate");
        let g = o.dot(&o.t());
        assert!(
            (&g - &Array2::<f64>::eye(3))
                .iter()
                .all(|v| v.abs() < 1e-12)
        );
        // an orthogonal matrix is a fixed point
        let again = sym_decorrelation(&o).expect("decorrelate");
        assert!((&again - &o).iter().all(|v| v.abs() < 1e-12));
    }

    #[test]
    fn whitened_data_have_identity_covariance() {
        let x = array![[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [0.0, 1.5], [3.0, 3.0]];
        let mean = x.mean_axis(Axis(0)).expect("rows");
        let xc = &x - &mean;
        for solver in [WhitenSolver::Svd, WhitenSolver::Eigh] {
            let k = whitening_matrix(&xc, 2, solver).expect("whiten");
            let z = xc.dot(&k.t()) * (5.0f64).sqrt();
            let cov = z.t().dot(&z) / 5.0;
            assert!(
                (&cov - &Array2::<f64>::eye(2))
                    .iter()
                    .all(|v| v.abs() < 1e-10),
                "{solver:?}: {cov}"
            );
        }
    }
}
