//! Principal component analysis ([`Pca`], scikit-learn's `PCA`; catalog CL-157…CL-159).
//!
//! # Method
//!
//! Centre the rows on the training mean (and, with `scale`, divide each column by its training
//! standard deviation: the course notes insist that test data use the *training* statistics), then find
//! the orthonormal directions of largest variance. With `X̃ = U Σ Vᵀ` the thin SVD of the centred
//! data, the components are the rows of `Vᵀ`, the explained variances `σ_i² / (n − 1)` (the
//! eigenvalues of the sample covariance `X̃ᵀX̃ / (n − 1)`), and the scores `X̃ V = U Σ`.
//!
//! Solvers ([`PcaSolver`]), all giving the same answer up to rounding (tested):
//!
//! | solver | work | when `Auto` picks it |
//! |---|---|---|
//! | `CovarianceEigh` | `X̃ᵀX̃` (`n d²`) + `eigh` (`d³`) | `d ≤ 1000` and `n ≥ 10 d` (scikit-learn's rule) |
//! | `Gram` | `X̃X̃ᵀ` (`n² d`) + `eigh` (`n³`), `V = X̃ᵀ U Σ⁻¹` | `d ≥ 10 n` and `n ≤ 2000` |
//! | `Full` | thin SVD of `X̃` | otherwise, when `k ≥ 0.8 min(n, d)` or the data are small |
//! | `Randomized` | Halko–Martinsson–Tropp range finder, `k + 10` columns, projected on the whole block Krylov space of `⌈n_iter/2⌉` power steps (`block_krylov`, default; scikit-learn's last-block projection with `false`); products with the centred data through rank-one corrections, no centred copy | otherwise (a few components of large data) |
//! | `PowerIteration` | covariance, then `k` power iterations with Hotelling deflation (tol 1e-12, 10,000 rounds each) | never (the course notes' method, for teaching and tests) |
//!
//! With `n ≫ d` the covariance solver reads the data twice: one parallel pass for the column
//! sums, which doubles as the NaN/∞ check (a column sum is finite only if every entry of the
//! column is; the position of a bad value is searched only when a sum is not finite, and finite
//! values whose sums overflow get an error asking to rescale), and one
//! BLAS GEMM for `XᵀX`, centred by a rank-one correction (or from centred row blocks when the
//! mean is large against the spread).
//!
//! Signs follow scikit-learn's `svd_flip` on `Vᵀ` (the entry of largest magnitude of every
//! component is positive), so results are reproducible and comparable.
//!
//! Reconstruction from `k` components, `x̂ = μ + (x − μ) V_kᵀV_k`, is the orthogonal projection
//! onto their span (`V_kᵀV_k` for orthonormal rows; the course notes' "reduces to XXᵀ" is erratum E25).
//! A linear autoencoder with `k` hidden units learns that span; with one unit it learns the top
//! eigen*vector* (erratum E22 of the course notes' "first eigenvalue").
//!
//! `n_components` ([`NComponents`]): a count, a variance fraction `t` (the smallest `k` whose
//! cumulative explained-variance ratio exceeds `t`, the course notes' threshold), or all. `whiten`
//! divides the scores by `√λ_i`. The noise variance is the mean of the discarded eigenvalues;
//! [`FittedPca::score_samples`] is the probabilistic-PCA log-likelihood (Tipping & Bishop) with
//! it.
//!
//! ```
//! use ndlearn_decomposition::Pca;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform, InverseTransform};
//!
//! // the course notes' example: heights and weights of three people. The course notes' "covariance"
//! // [[200, 250], [250, 316.67]] is the scatter matrix X̃ᵀX̃ (no divisor): its eigenvalues
//! // 515.05 and 1.618 are the squared singular values; the explained variances (divisor
//! // n − 1 = 2, as scikit-learn) are half of them
//! let x = array![[170.0f64, 60.0], [180.0, 75.0], [160.0, 50.0]];
//! let pca = Pca::new(2).fit(&x)?;
//! let s2 = pca.singular_values().mapv(|v| v * v);
//! assert!((s2[0] - 515.05).abs() < 0.01 && (s2[1] - 1.618).abs() < 0.001);
//! assert!((pca.explained_variance()[0] - 257.52).abs() < 0.01);
//! let c = pca.components().row(0);
//! assert!((c[0] - 0.6216).abs() < 1e-4 && (c[1] - 0.7833).abs() < 1e-4);
//! let z = pca.transform(&x)?;
//! let back = pca.inverse_transform(&z)?;
//! assert!((&back - &x).iter().all(|v| v.abs() < 1e-9)); // all components: exact
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, RandomizedSvdOptions};
use ndlearn_core::stats::mergeable::CrossMoments;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_finite_2d, check_finite_through, check_fit_shape,
    check_n_features, check_predict_input,
};
use ndlearn_core::{Error, FitUnsupervised, Float, InverseTransform, Result, Transform};

/// How many components [`Pca`] keeps (scikit-learn's `n_components`: an integer, a fraction in
/// `(0, 1)`, `"mle"` or `None`; in JSON exactly those: `5`, `0.95`, `"mle"`, `null`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum NComponents {
    /// Exactly this many (at most `min(n, d)`).
    Count(usize),
    /// The fewest whose cumulative explained-variance ratio exceeds this fraction in `(0, 1)`.
    Variance(f64),
    /// All `min(n, d)`.
    All,
    /// Minka's maximum-likelihood choice (*Automatic choice of dimensionality for PCA*, NIPS
    /// 2000, as scikit-learn's `"mle"`): the `k` in `1..d` maximising the Laplace-approximated
    /// evidence of probabilistic PCA. Needs at least as many rows as columns.
    Mle,
}

#[cfg(feature = "serde")]
impl serde::Serialize for NComponents {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match *self {
            NComponents::Count(k) => s.serialize_u64(k as u64),
            NComponents::Variance(t) => s.serialize_f64(t),
            NComponents::All => s.serialize_none(),
            NComponents::Mle => s.serialize_str("mle"),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for NComponents {
    /// Accepts a count, a fraction, `"mle"`, `"all"` / `null`, and the older tagged forms
    /// `{"count": k}`, `{"variance": t}`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        fn float<E: serde::de::Error>(t: f64) -> std::result::Result<NComponents, E> {
            if t >= 1.0 && t.fract() == 0.0 && t <= u32::MAX as f64 {
                Ok(NComponents::Count(t as usize))
            } else {
                Ok(NComponents::Variance(t))
            }
        }
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = NComponents;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a count, a fraction in (0, 1), \"mle\" or null")
            }
            fn visit_u64<E: serde::de::Error>(self, k: u64) -> std::result::Result<NComponents, E> {
                usize::try_from(k)
                    .map(NComponents::Count)
                    .map_err(|_| E::custom("n_components is too large"))
            }
            fn visit_i64<E: serde::de::Error>(self, k: i64) -> std::result::Result<NComponents, E> {
                usize::try_from(k)
                    .map(NComponents::Count)
                    .map_err(|_| E::custom(format!("n_components must be positive, got {k}")))
            }
            fn visit_f64<E: serde::de::Error>(self, t: f64) -> std::result::Result<NComponents, E> {
                float(t)
            }
            fn visit_str<E: serde::de::Error>(
                self,
                s: &str,
            ) -> std::result::Result<NComponents, E> {
                match s.to_ascii_lowercase().as_str() {
                    "mle" => Ok(NComponents::Mle),
                    "all" | "none" => Ok(NComponents::All),
                    _ => Err(E::unknown_variant(s, &["mle", "all"])),
                }
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<NComponents, E> {
                Ok(NComponents::All)
            }
            fn visit_none<E: serde::de::Error>(self) -> std::result::Result<NComponents, E> {
                Ok(NComponents::All)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<NComponents, A::Error> {
                use serde::de::Error as _;
                let Some(key) = map.next_key::<String>()? else {
                    return Err(A::Error::custom("empty n_components object"));
                };
                let t: f64 = map.next_value()?;
                match key.to_ascii_lowercase().as_str() {
                    "count" => Ok(NComponents::Count(t as usize)),
                    "variance" => Ok(NComponents::Variance(t)),
                    other => Err(A::Error::unknown_variant(other, &["count", "variance"])),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The algorithm behind [`Pca`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PcaSolver {
    /// Chosen by shape (default).
    #[default]
    Auto,
    /// Thin SVD of the centred data.
    Full,
    /// Eigendecomposition of the `d × d` covariance matrix.
    CovarianceEigh,
    /// Eigendecomposition of the `n × n` Gram matrix.
    Gram,
    /// Randomized SVD (approximate; a count of components only).
    Randomized,
    /// Power iteration with deflation on the covariance matrix, top `k` only (the course notes'
    /// method; converges slowly when eigenvalues are close; a count of components only).
    PowerIteration,
}

/// Principal component analysis. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Pca {
    /// Components kept (default all).
    pub n_components: NComponents,
    /// Solver (default auto).
    #[cfg_attr(feature = "serde", serde(rename = "svd_solver", alias = "solver"))]
    pub solver: PcaSolver,
    /// Scale the scores to unit variance (default false).
    pub whiten: bool,
    /// Standardise every column with the training standard deviation before the analysis
    /// (default false; constant columns are left unscaled).
    pub scale: bool,
    /// Subspace iterations of the randomized solver (default `None`: 7 for `k < 0.1 min(n, d)`,
    /// else 4).
    #[cfg_attr(feature = "serde", serde(rename = "iterated_power", alias = "n_iter"))]
    pub n_iter: Option<usize>,
    /// Random seed of the randomized solver (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Randomized solver: project on the whole block Krylov space of the power iterations
    /// (half the passes over the data for at least the accuracy; default true) instead of the
    /// last block only (scikit-learn's `randomized_svd`).
    pub block_krylov: bool,
}

impl Default for Pca {
    fn default() -> Self {
        Self {
            n_components: NComponents::All,
            solver: PcaSolver::Auto,
            whiten: false,
            scale: false,
            n_iter: None,
            seed: 0,
            block_krylov: true,
        }
    }
}

impl Pca {
    /// PCA keeping `k` components.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: NComponents::Count(k),
            ..Self::default()
        }
    }
    /// PCA keeping the fewest components that explain more than `fraction` of the variance.
    pub fn with_variance(fraction: f64) -> Self {
        Self {
            n_components: NComponents::Variance(fraction),
            ..Self::default()
        }
    }
    /// PCA keeping Minka's maximum-likelihood number of components ([`NComponents::Mle`]).
    pub fn mle() -> Self {
        Self {
            n_components: NComponents::Mle,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the solver.
        solver: PcaSolver,
        /// Sets `whiten`.
        whiten: bool,
        /// Sets `scale`.
        scale: bool,
        /// Sets the seed.
        seed: u64,
        /// Sets `block_krylov` (randomized solver).
        block_krylov: bool,
    }

    /// The solver `Auto` resolves to for `n × d` data and `k` components (`None`: a fraction or
    /// all).
    pub fn resolve_solver(&self, n: usize, d: usize, k: Option<usize>) -> PcaSolver {
        match self.solver {
            PcaSolver::Auto => {
                let m = n.min(d);
                if d <= 1000 && n >= 10 * d {
                    PcaSolver::CovarianceEigh
                } else if d >= 10 * n && n <= 2000 {
                    PcaSolver::Gram
                } else if n.max(d) <= 500 {
                    PcaSolver::Full
                } else if let Some(k) = k
                    && (k as f64) < 0.8 * m as f64
                {
                    PcaSolver::Randomized
                } else {
                    PcaSolver::Full
                }
            }
            other => other,
        }
    }
}

/// The error for finite data whose sums or squares overflow.
fn too_large() -> Error {
    Error::invalid_param(
        "x",
        "feature values too large: the column sums or the covariance overflow; rescale the features",
    )
}

/// Minka's evidence for `rank` components of a spectrum of `d` eigenvalues from `n` rows
/// (scikit-learn's `_assess_dimension`, term for term).
fn assess_dimension<F: Float>(spectrum: &[F], rank: usize, n: usize) -> f64 {
    use ndlearn_core::stats::special::ln_gamma;
    let sp: Vec<f64> = spectrum.iter().map(|v| v.to_f64_lossless()).collect();
    let d = sp.len();
    let nf = n as f64;
    let eps = 1e-15;
    if sp[rank - 1] < eps {
        return f64::NEG_INFINITY;
    }
    let ln2 = 2f64.ln();
    let lnpi = std::f64::consts::PI.ln();
    let mut pu = -(rank as f64) * ln2;
    for i in 1..=rank {
        let a = (d - i + 1) as f64 / 2.0;
        pu += ln_gamma(a) - lnpi * a;
    }
    let pl = -sp[..rank].iter().map(|v| v.ln()).sum::<f64>() * nf / 2.0;
    let v = (sp[rank..].iter().sum::<f64>() / (d - rank) as f64).max(eps);
    let pv = -v.ln() * nf * (d - rank) as f64 / 2.0;
    let m = (d * rank) as f64 - rank as f64 * (rank as f64 + 1.0) / 2.0;
    let pp = (2.0 * std::f64::consts::PI).ln() * (m + rank as f64) / 2.0;
    let tail = |j: usize| if j >= rank { v } else { sp[j] };
    let mut pa = 0.0;
    for i in 0..rank {
        for j in i + 1..d {
            pa += ((sp[i] - sp[j]) * (1.0 / tail(j) - 1.0 / tail(i))).ln() + nf.ln();
        }
    }
    pu + pl + pv + pp - pa / 2.0 - rank as f64 * nf.ln() / 2.0
}

/// The `k ≥ 1` of largest Minka evidence (scikit-learn's `_infer_dimension`).
fn minka_mle<F: Float>(spectrum: &ndarray::Array1<F>, n: usize) -> usize {
    let sp = spectrum.to_vec();
    let mut best = (f64::NEG_INFINITY, 0usize);
    for rank in 1..sp.len() {
        let ll = assess_dimension(&sp, rank, n);
        if ll > best.0 {
            best = (ll, rank);
        }
    }
    // all eigenvalues degenerate: scikit-learn's argmax of all -inf is 0 components; keep one
    best.1.max(1)
}

/// `(C + Cᵀ) / 2`, one copy: the covariance built from blocks is symmetric up to rounding.
fn symmetrised<F: Float>(c: &Array2<F>) -> Array2<F> {
    let d = c.nrows();
    let half = F::cast(0.5);
    Array2::from_shape_fn((d, d), |(i, j)| (c[[i, j]] + c[[j, i]]) * half)
}

/// Top part of an SVD-like result: `(singular values, Vᵀ)` with the requested rows.
fn spectrum_from_eigh<F: Float>(
    vals: Array1<F>,
    vecs: Array2<F>,
    scale_n: F,
) -> (Array1<F>, Array2<F>) {
    // eigh_descending: largest first; singular values σ = √(λ · scale_n), λ clipped at 0
    let s = vals.mapv(|l| (l.max(F::zero()) * scale_n).sqrt());
    (s, vecs.t().to_owned())
}

impl Estimator for Pca {
    /// Checks a positive count of components or a variance fraction in `(0, 1)`, a count for the
    /// randomized and power-iteration solvers, and `n_iter ≥ 1` (counts against the data are
    /// checked at fit).
    fn validate(&self) -> Result<()> {
        match self.n_components {
            NComponents::Count(0) => {
                return Err(Error::invalid_param("n_components", "must be >= 1"));
            }
            NComponents::Variance(t) if !(t > 0.0 && t < 1.0) => {
                return Err(Error::invalid_param(
                    "n_components",
                    format!("a variance fraction must lie in (0, 1), got {t}"),
                ));
            }
            _ => {}
        }
        if matches!(
            self.solver,
            PcaSolver::Randomized | PcaSolver::PowerIteration
        ) && !matches!(self.n_components, NComponents::Count(_))
        {
            return Err(Error::invalid_param(
                "solver",
                "the randomized and power-iteration solvers need a count of components",
            ));
        }
        if self.n_iter == Some(0) {
            return Err(Error::invalid_param("n_iter", "must be >= 1"));
        }
        Ok(())
    }
}

impl Pca {
    /// The requested count of components, checked against `n × d` (`None` for a variance
    /// fraction, all, or Minka's MLE).
    fn component_count(&self, n: usize, d: usize) -> Result<Option<usize>> {
        let m = n.min(d);
        Ok(match self.n_components {
            NComponents::Count(k) => {
                if k == 0 || k > m {
                    return Err(Error::invalid_param(
                        "n_components",
                        format!("must be in 1..={m} (min of rows and columns), got {k}"),
                    ));
                }
                Some(k)
            }
            NComponents::Variance(t) => {
                if !(t > 0.0 && t < 1.0) {
                    return Err(Error::invalid_param(
                        "n_components",
                        format!("a variance fraction must lie in (0, 1), got {t}"),
                    ));
                }
                None
            }
            NComponents::All => None,
            NComponents::Mle => {
                if n < d {
                    return Err(Error::invalid_param(
                        "n_components",
                        format!("\"mle\" needs at least as many rows as columns, got {n} x {d}"),
                    ));
                }
                None
            }
        })
    }

    /// Fits from merged moments of the data (core's mergeable [`CrossMoments`] with no target,
    /// centred, with the Gram matrix `X_cᵀX_c`), as a driver does after merging its
    /// executors' partial moments: the covariance solvers (`CovarianceEigh`, which `Auto`
    /// becomes here, and `PowerIteration`) read nothing else, and the fit on the rows computes
    /// the same moments. `scale = true` standardises the covariance to the correlation matrix
    /// as the fit does.
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use ndlearn_core::stats::mergeable::{CrossMoments, CrossSpec, Mergeable, RowBlock};
    /// use ndlearn_core::FitUnsupervised;
    /// use ndlearn_decomposition::{Pca, PcaSolver};
    ///
    /// let x = Array2::from_shape_fn((200, 4), |(i, j)| ((i * 7919 + j * 104_729) % 997) as f64 * (j + 1) as f64);
    /// let spec = CrossSpec { n_features: 4, n_targets: 0, centred: true, gram: true };
    /// let mut m = CrossMoments::zero(&spec);
    /// for r in [0..50, 50..120, 120..200] {
    ///     m.update(&RowBlock::new(x.slice(s![r, ..])))?;
    /// }
    /// let pca = Pca::new(2).solver(PcaSolver::CovarianceEigh);
    /// let merged = pca.fit_moments(&m)?;
    /// let direct = pca.fit(&x)?;
    /// assert!((merged.components() - direct.components()).iter().all(|v| v.abs() < 1e-9));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Invalid hyperparameters or a component count out of range for `n × d`;
    /// [`Error::InvalidParam`] for moments that are not centred, carry no Gram matrix, or for a
    /// solver that needs the rows (`Full`, `Gram`, `Randomized`); [`Error::TooFewSamples`]
    /// below 2 rows.
    pub fn fit_moments<F: Float>(&self, mo: &CrossMoments<F>) -> Result<FittedPca<F>> {
        self.validate()?;
        let (n, d) = (mo.n, mo.x_mean.len());
        if n < 2 {
            return Err(Error::TooFewSamples {
                context: "Pca::fit_moments",
                needed: 2,
                found: n,
            });
        }
        let Some(scatter) = mo.xtx.as_ref().filter(|_| mo.centred) else {
            return Err(Error::invalid_param(
                "moments",
                "PCA needs centred moments with the Gram matrix (CrossSpec { centred: true, gram: true, .. })",
            ));
        };
        let count = self.component_count(n, d)?;
        let solver = match self.solver {
            PcaSolver::Auto | PcaSolver::CovarianceEigh => PcaSolver::CovarianceEigh,
            PcaSolver::PowerIteration if count.is_some() => PcaSolver::PowerIteration,
            other => {
                return Err(Error::invalid_param(
                    "solver",
                    format!(
                        "{other:?} needs the rows; fits from moments use CovarianceEigh or \
                         PowerIteration (with a count of components)"
                    ),
                ));
            }
        };
        if scatter.iter().any(|v| !v.is_finite()) {
            return Err(too_large());
        }
        let (cov, std) = self.covariance_of(scatter.clone(), n);
        let (sing, vt) = self.covariance_spectrum(solver, &cov, count, n)?;
        let total = cov.diag().sum();
        Ok(self.finish(
            solver,
            mo.x_mean.clone(),
            std,
            (sing, vt),
            total,
            count,
            n,
            d,
        ))
    }

    /// The sample covariance `S / (n − 1)` of a centred scatter `S` and, with `scale`, the
    /// column standard deviations it was standardised by (a zero deviation counts as 1).
    fn covariance_of<F: Float>(&self, sc: Array2<F>, n: usize) -> (Array2<F>, Option<Array1<F>>) {
        let d = sc.nrows();
        let nm1 = F::cast((n - 1) as f64);
        let sd = sc.diag().mapv(|v| {
            let sd = (v / nm1).sqrt();
            if sd > F::zero() { sd } else { F::one() }
        });
        let mut c = sc / nm1;
        let std = if self.scale {
            for i in 0..d {
                for j in 0..d {
                    c[[i, j]] /= sd[i] * sd[j];
                }
            }
            Some(sd)
        } else {
            None
        };
        (c, std)
    }

    /// Singular values and right singular vectors of the centred data from its covariance
    /// (`CovarianceEigh` or `PowerIteration`).
    fn covariance_spectrum<F: Float>(
        &self,
        solver: PcaSolver,
        cov: &Array2<F>,
        count: Option<usize>,
        n: usize,
    ) -> Result<(Array1<F>, Array2<F>)> {
        let d = cov.nrows();
        let nm1 = F::cast((n - 1) as f64);
        let c = symmetrised(cov);
        if solver == PcaSolver::PowerIteration {
            let k = count.unwrap_or(n.min(d));
            let p = linalg::power_iteration(&c, k, 10_000, F::cast(1e-12), self.seed)?;
            return Ok(spectrum_from_eigh(p.values, p.vectors, nm1));
        }
        // a count of components needs only the top k eigenpairs (MRRR: O(d) workspace and
        // O(d k) for the vectors); the variance fraction and Minka's MLE read the whole
        // spectrum. The total variance is the trace either way.
        let (vals, vecs) = match count {
            Some(k) if k < d => linalg::eigh_largest(&c, k)?,
            _ => linalg::eigh_descending(&c)?,
        };
        Ok(spectrum_from_eigh(vals, vecs, nm1))
    }

    /// The fitted model from the spectrum `(σ, Vᵀ)` and the total variance: sign flip, the
    /// number of components (count, variance fraction, Minka's MLE), explained variances and
    /// the noise variance.
    #[allow(clippy::too_many_arguments)]
    fn finish<F: Float>(
        &self,
        solver: PcaSolver,
        mean: Array1<F>,
        std: Option<Array1<F>>,
        (sing, vt): (Array1<F>, Array2<F>),
        total: F,
        count: Option<usize>,
        n: usize,
        d: usize,
    ) -> FittedPca<F> {
        let m = n.min(d);
        let nm1 = F::cast((n - 1) as f64);
        let vt = crate::common::flip_rows(vt);
        let ev_all = sing.mapv(|v| v * v / nm1);
        let k = match (self.n_components, count) {
            (_, Some(k)) => k,
            (NComponents::Mle, None) => minka_mle(&ev_all, n),
            (NComponents::Variance(t), None) => {
                let mut acc = F::zero();
                let mut k = ev_all.len();
                for (i, &v) in ev_all.iter().enumerate() {
                    acc += v / total;
                    if acc > F::cast(t) {
                        k = i + 1;
                        break;
                    }
                }
                k
            }
            _ => m.min(ev_all.len()),
        };
        let k = k.min(vt.nrows());
        let explained = ev_all.slice(s![..k]).to_owned();
        let noise = if k < m {
            ((total - explained.sum()) / F::cast((m - k) as f64)).max(F::zero())
        } else {
            F::zero()
        };
        FittedPca {
            params: self.clone(),
            solver,
            mean,
            std,
            components: vt.slice(s![..k, ..]).to_owned(),
            explained_variance_ratio: explained.mapv(|v| v / total),
            singular_values: sing.slice(s![..k]).to_owned(),
            explained_variance: explained,
            noise_variance: noise,
        }
    }
}

impl<F: Float> FitUnsupervised<F> for Pca {
    type Model = FittedPca<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_shape(x, 2, "Pca::fit")?;
        let (n, d) = x.dim();
        let m = n.min(d);
        let count = self.component_count(n, d)?;
        let solver = self.resolve_solver(n, d, count);
        if matches!(solver, PcaSolver::Randomized | PcaSolver::PowerIteration) && count.is_none() {
            return Err(Error::invalid_param(
                "solver",
                "the randomized and power-iteration solvers need a count of components",
            ));
        }
        // column means over fixed row blocks in parallel, the block sums added in order. The
        // sums double as the finiteness check: NaN and ±∞ propagate through a sum, so finite
        // sums prove finite data, and only a non-finite sum (bad data, or an overflow of huge
        // finite values) pays for the scan that locates the offending entry.
        let sums = ndlearn_core::par::map_row_chunks(x, 8192, |_, block| block.sum_axis(Axis(0)))
            .into_iter()
            .fold(Array1::<F>::zeros(d), |acc, p| acc + p);
        if sums.iter().any(|v| !v.is_finite()) {
            check_finite_2d(x, "X")?;
            return Err(too_large());
        }
        let mean = sums / F::cast(n as f64);
        let nm1 = F::cast((n - 1) as f64);
        let covariance_based = matches!(
            solver,
            PcaSolver::CovarianceEigh | PcaSolver::PowerIteration
        );
        // the covariance solvers never materialise the centred data: core's centred Gram
        // (one GEMM and a rank-one correction, exact centred blocks when it would cancel), the
        // scatter of its mergeable `CrossMoments`
        let scatter = if covariance_based {
            let sc = ndlearn_core::stats::mergeable::centred_gram(x, &mean, true);
            if sc.iter().any(|v| !v.is_finite()) {
                return Err(too_large());
            }
            Some(sc)
        } else {
            None
        };
        let sd_of = |diag: &Array1<F>| {
            diag.mapv(|v| {
                let sd = (v / nm1).sqrt();
                if sd > F::zero() { sd } else { F::one() }
            })
        };
        // per-column sums of squares of the centred data, for the randomized solver (which
        // never forms the centred copy either): one pass, fixed row blocks, summed in order
        let centred_ss = |x: &ArrayRef2<F>| {
            let parts = ndlearn_core::par::map_row_chunks(x, 4096, |_, block| {
                let mut ss = Array1::<F>::zeros(d);
                for row in block.rows() {
                    for ((acc, &v), &m) in ss.iter_mut().zip(row).zip(&mean) {
                        let c = v - m;
                        *acc += c * c;
                    }
                }
                ss
            });
            parts
                .into_iter()
                .fold(Array1::<F>::zeros(d), |acc, p| acc + p)
        };
        // the randomized solver centres implicitly unless the data sit so far from their mean
        // that the rank-one correction would cancel digits (`‖μ‖² ≤ 1e4 · tr(X̃ᵀX̃)/n`: at most
        // about 4 of the 16 digits)
        let implicit = if solver == PcaSolver::Randomized && scatter.is_none() {
            let ss = centred_ss(x);
            (mean.dot(&mean) <= F::cast(1e4) * ss.sum() / F::cast(n as f64)).then_some(ss)
        } else {
            None
        };
        let (xc, std, cov, implicit_ss) = match scatter {
            Some(sc) => {
                let (c, std) = self.covariance_of(sc, n);
                (None, std, Some(c), None)
            }
            None if implicit.is_some() => {
                let std = implicit
                    .as_ref()
                    .and_then(|ss| self.scale.then(|| sd_of(ss)));
                (None, std, None, implicit)
            }
            None => {
                let mut xc = x.to_owned();
                xc -= &mean;
                let std = if self.scale {
                    let ss = xc.map_axis(Axis(0), |c| c.iter().map(|&v| v * v).sum::<F>());
                    let sd = sd_of(&ss);
                    xc /= &sd;
                    Some(sd)
                } else {
                    None
                };
                (Some(xc), std, None, None)
            }
        };
        let (sing, vt): (Array1<F>, Array2<F>) = match (solver, &xc, &cov) {
            (PcaSolver::CovarianceEigh | PcaSolver::PowerIteration, _, Some(c)) => {
                self.covariance_spectrum(solver, c, count, n)?
            }
            (PcaSolver::Gram, Some(xc), _) => {
                let g = linalg::gram(&xc.t());
                let (vals, u) = linalg::eigh_descending(&g)?;
                // σ_i = √λ_i, v_i = X̃ᵀ u_i / σ_i (directions of zero variance are dropped to 0)
                let s = vals.mapv(|l| l.max(F::zero()).sqrt());
                let mut vt = linalg::matmul(&u.t(), xc);
                for (mut row, &si) in vt.rows_mut().into_iter().zip(&s) {
                    if si > F::epsilon() * s[0] {
                        row /= si;
                    } else {
                        row.fill(F::zero());
                    }
                }
                let k = m.min(vt.nrows());
                (
                    s.slice(s![..k]).to_owned(),
                    vt.slice(s![..k, ..]).to_owned(),
                )
            }
            (PcaSolver::Randomized, xc, _) => {
                let k = count.unwrap_or(m);
                let mut opts = RandomizedSvdOptions::default().seed(self.seed);
                if let Some(it) = self.n_iter {
                    opts = opts.n_iter(it);
                }
                let opts = opts.block_krylov(self.block_krylov);
                let svd = match xc {
                    Some(xc) => linalg::randomized_svd(xc, k, opts)?,
                    None => linalg::randomized_svd_centred(x, &mean, std.as_deref(), k, opts)?,
                };
                (svd.s, svd.vt)
            }
            (_, Some(xc), _) => {
                let svd = linalg::svd_thin(xc)?;
                (svd.s, svd.vt)
            }
            _ => {
                return Err(Error::invalid_param(
                    "solver",
                    "internal: no data for the solver",
                ));
            }
        };
        // total variance: the trace of the covariance (all of it, whatever the solver kept)
        let total: F = match (&cov, &xc, &implicit_ss) {
            (Some(c), _, _) => c.diag().sum(),
            (None, Some(xc), _) => xc.iter().map(|&v| v * v).sum::<F>() / nm1,
            (None, None, Some(ss)) => match &std {
                Some(sd) => ss.iter().zip(sd).map(|(&v, &s)| v / (s * s)).sum::<F>() / nm1,
                None => ss.sum() / nm1,
            },
            _ => F::zero(),
        };
        Ok(self.finish(solver, mean, std, (sing, vt), total, count, n, d))
    }
}

/// A fitted [`Pca`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPca<F: Float> {
    params: Pca,
    solver: PcaSolver,
    mean: Array1<F>,
    std: Option<Array1<F>>,
    components: Array2<F>,
    explained_variance: Array1<F>,
    explained_variance_ratio: Array1<F>,
    singular_values: Array1<F>,
    noise_variance: F,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedPca<F> {
    fn n_features_in(&self) -> usize {
        self.mean.len()
    }
}

impl<F: Float> FittedPca<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Pca {
        &self.params
    }
    /// The solver that ran (`Auto` resolved).
    pub fn solver(&self) -> PcaSolver {
        self.solver
    }
    /// The components, one per row (`k × d`, orthonormal rows).
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// Variance along each component (eigenvalues of the sample covariance, `n − 1` divisor).
    pub fn explained_variance(&self) -> &Array1<F> {
        &self.explained_variance
    }
    /// Fraction of the total variance along each component.
    pub fn explained_variance_ratio(&self) -> &Array1<F> {
        &self.explained_variance_ratio
    }
    /// Singular values of the centred (and scaled) training data.
    pub fn singular_values(&self) -> &Array1<F> {
        &self.singular_values
    }
    /// Training column means.
    pub fn mean(&self) -> &Array1<F> {
        &self.mean
    }
    /// Training column standard deviations when `scale` is on.
    pub fn scale(&self) -> Option<&Array1<F>> {
        self.std.as_ref()
    }
    /// Mean variance of the discarded directions (0 when all are kept).
    pub fn noise_variance(&self) -> F {
        self.noise_variance
    }
    /// Components kept.
    pub fn n_components(&self) -> usize {
        self.components.nrows()
    }

    fn prepare(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.mean.len(), "Pca: number of features")?;
        let mut xc = x.to_owned();
        xc -= &self.mean;
        if let Some(sd) = &self.std {
            xc /= sd;
        }
        Ok(xc)
    }

    /// Squared reconstruction error of every row (`‖x − inverse(transform(x))‖²`, in the
    /// original units).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    pub fn reconstruction_error(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let back = self.inverse_transform(&self.transform(x)?)?;
        let mut diff = back;
        diff -= &x.view();
        Ok(diff.map_axis(Axis(1), |r| r.iter().map(|&v| v * v).sum()))
    }

    /// Probabilistic-PCA log-likelihood of every row (scikit-learn's `score_samples`): the
    /// Gaussian with covariance `Wᵀ(Λ − σ²)W + σ² I` in the analysed (centred, scaled) space.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when the model keeps every direction of a rank-deficient fit
    /// (noise variance 0 and a zero eigenvalue: the density is degenerate); input errors.
    pub fn score_samples(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let xc = self.prepare(x)?;
        let d = self.mean.len();
        let s2 = self.noise_variance;
        let mut cov = Array2::<F>::eye(d) * s2;
        let w = &self.components;
        let diff = self.explained_variance.mapv(|l| (l - s2).max(F::zero()));
        let wl = w.t().to_owned() * &diff;
        cov += &wl.dot(w);
        let chol = linalg::CholeskyFactor::new(&cov).map_err(|_| {
            Error::invalid_param(
                "n_components",
                "the fitted covariance is singular (all directions kept of rank-deficient data)",
            )
        })?;
        let logdet = chol.logdet();
        let sol = chol.solve_many(&xc.t().to_owned())?;
        let c = F::cast(d as f64 * (2.0 * std::f64::consts::PI).ln());
        Ok(xc
            .rows()
            .into_iter()
            .zip(sol.columns())
            .map(|(r, s)| -F::cast(0.5) * (r.dot(&s) + c + logdet))
            .collect())
    }
}

impl<F: Float> Transform<F> for FittedPca<F> {
    /// Scores `(x − μ) Vᵀ` (divided by `√λ` with `whiten`), `n × k`.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(x.ncols(), self.mean.len(), "Pca: number of features")?;
        // x Wᵀ − μ Wᵀ with W = V (divided column-wise by σ with scale): one GEMM, no centred
        // copy of x (as scikit-learn); x's finiteness is checked through the product (one
        // pass over x instead of two)
        let mut w = self.components.clone();
        if let Some(sd) = &self.std {
            for mut row in w.rows_mut() {
                row /= sd;
            }
        }
        let mut z = linalg::matmul(x, &w.t());
        check_finite_through(x, &z, "X")?;
        let shift = self.mean.dot(&w.t());
        z -= &shift;
        if self.params.whiten {
            let sd = self.explained_variance.mapv(|v| v.sqrt());
            for mut row in z.rows_mut() {
                row /= &sd;
            }
        }
        Ok(z)
    }
}

impl<F: Float> InverseTransform<F> for FittedPca<F> {
    /// Back to the input space: `z V (· √λ with whiten) (· σ with scale) + μ`; exact when every
    /// component is kept, the best rank-`k` reconstruction otherwise.
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::common::check_scores(z, self.components.nrows(), "Pca::inverse_transform")?;
        let mut zz = z.to_owned();
        if self.params.whiten {
            let sd = self.explained_variance.mapv(|v| v.sqrt());
            for mut row in zz.rows_mut() {
                row *= &sd;
            }
        }
        let mut x = zz.dot(&self.components);
        if let Some(sd) = &self.std {
            x *= sd;
        }
        x += &self.mean;
        Ok(x)
    }
}

impl<F: Float> CheckModel for FittedPca<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedPca");
        c.params(&self.params)?;
        let d = self.mean.len();
        crate::common::check_components(&c, &self.components, d)?;
        let k = self.components.nrows();
        c.that(k <= d, || format!("{k} components of {d} features"))?;
        if let NComponents::Count(want) = self.params.n_components {
            c.len("components (rows)", k, want)?;
        }
        c.finite("mean", &self.mean)?;
        c.that(self.std.is_some() == self.params.scale, || {
            "`std` must be stored exactly when `scale` is on".into()
        })?;
        if let Some(sd) = &self.std {
            c.len("std", sd.len(), d)?;
            c.that(sd.iter().all(|v| v.is_finite() && *v > F::zero()), || {
                "`std` must be finite and positive".into()
            })?;
        }
        c.len("explained_variance", self.explained_variance.len(), k)?;
        c.non_negative("explained_variance", &self.explained_variance)?;
        c.len(
            "explained_variance_ratio",
            self.explained_variance_ratio.len(),
            k,
        )?;
        c.len("singular_values", self.singular_values.len(), k)?;
        c.non_negative("singular_values", &self.singular_values)?;
        crate::common::non_negative_value(&c, "noise_variance", self.noise_variance)
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_short_mean() {
        let x = array![
            [1.0f64, 2.0, 0.5],
            [2.0, 1.0, 1.5],
            [4.0, 3.0, 0.0],
            [0.0, 1.0, 2.0]
        ];
        let mut m = Pca::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.mean = array![0.0, 1.0];
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn fit_from_merged_moments_equals_the_covariance_fit() {
        use ndarray::{Array2, s};
        use ndlearn_core::stats::mergeable::{CrossSpec, Mergeable, RowBlock};
        let n = 120;
        let x = Array2::from_shape_fn((n, 5), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 * (1.0 + j as f64)
                + if j == 1 { 1e3 } else { 0.0 }
        });
        let spec = CrossSpec {
            n_features: 5,
            n_targets: 0,
            centred: true,
            gram: true,
        };
        let settings = [
            (NComponents::Count(2), false, PcaSolver::CovarianceEigh),
            (NComponents::Variance(0.9), true, PcaSolver::CovarianceEigh),
            (NComponents::Mle, false, PcaSolver::Auto),
            (NComponents::All, true, PcaSolver::CovarianceEigh),
            (NComponents::Count(3), false, PcaSolver::PowerIteration),
        ];
        for parts in [1, 3, 7] {
            let mut mo = CrossMoments::zero(&spec);
            for p in 0..parts {
                mo.update(&RowBlock::new(
                    x.slice(s![p * n / parts..(p + 1) * n / parts, ..]),
                ))
                .expect("block");
            }
            for (nc, scale, solver) in settings {
                let pca = Pca {
                    n_components: nc,
                    ..Pca::default()
                }
                .scale(scale)
                .solver(solver);
                let a = pca.fit_moments(&mo).expect("moments");
                let direct_solver = if solver == PcaSolver::Auto {
                    PcaSolver::CovarianceEigh
                } else {
                    solver
                };
                let b = pca.clone().solver(direct_solver).fit(&x).expect("rows");
                let close = |u: &Array1<f64>, v: &Array1<f64>| {
                    u.len() == v.len()
                        && (u - v)
                            .iter()
                            .zip(v)
                            .all(|(e, r)| e.abs() <= 1e-9 * (1.0 + r.abs()))
                };
                assert_eq!(a.components().dim(), b.components().dim(), "{nc:?}");
                assert!(
                    (a.components() - b.components())
                        .iter()
                        .all(|v| v.abs() < 1e-8),
                    "{nc:?} {parts}"
                );
                assert!(close(a.explained_variance(), b.explained_variance()));
                assert!(close(a.singular_values(), b.singular_values()));
                assert!(close(&a.mean, &b.mean));
                assert!(
                    (a.noise_variance - b.noise_variance).abs() <= 1e-9 * (1.0 + b.noise_variance)
                );
            }
        }
        let no_gram = CrossMoments::<f64>::zero(&CrossSpec {
            gram: false,
            ..spec
        });
        assert!(Pca::new(1).fit_moments(&no_gram).is_err());
        let mut mo = CrossMoments::zero(&spec);
        mo.update(&RowBlock::new(x.view())).expect("rows");
        assert!(matches!(
            Pca::new(1).solver(PcaSolver::Full).fit_moments(&mo),
            Err(Error::InvalidParam { name: "solver", .. })
        ));
        assert!(matches!(
            Pca::new(6).fit_moments(&mo),
            Err(Error::InvalidParam {
                name: "n_components",
                ..
            })
        ));
    }
}
