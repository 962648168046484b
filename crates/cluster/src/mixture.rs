//! Gaussian mixture models fitted by expectation–maximisation ([`GaussianMixture`],
//! scikit-learn's `GaussianMixture`; catalog CL-154).
//!
//! # Model
//!
//! `p(x) = Σ_k π_k N(x | μ_k, Σ_k)` with weights `π_k ≥ 0`, `Σ π_k = 1` (Dempster, Laird &
//! Rubin, "Maximum likelihood from incomplete data via the EM algorithm", JRSS B 39(1), 1977;
//! Bishop, *Pattern Recognition and Machine Learning* (2006), §9.2). The covariance structure
//! ([`CovarianceType`]) is one full matrix per component, one shared (tied) matrix, a diagonal
//! per component, or one variance per component (spherical). Univariate mixtures (Han, Kamber
//! & Pei, *Data Mining: Concepts and Techniques*, 3rd ed. (2011), ch. 11) are the case `d = 1`.
//!
//! # EM
//!
//! * **E-step**: log-responsibilities `ln γ_ik = ln π_k + ln N(x_i | μ_k, Σ_k) − ln p(x_i)`,
//!   with `ln p(x_i)` by log-sum-exp (no density is ever exponentiated before normalising, so
//!   far-away points do not underflow to 0/0). The Gaussian log-density uses the Cholesky
//!   factor of the precision, `ln N = −½(d ln 2π + ‖(x − μ) P_k‖²) + Σ ln diag P_k`, and all
//!   components are evaluated with one GEMM `X [P_1 … P_K]`.
//! * **M-step**: `N_k = Σ_i γ_ik` (plus `10 ε` so an emptied component does not divide by 0,
//!   as scikit-learn), `π_k = N_k / N`, `μ_k = Σ γ_ik x_i / N_k`,
//!   `Σ_k = Σ γ_ik (x_i − μ_k)(x_i − μ_k)ᵀ / N_k + reg_covar · I` (the course notes' updates,
//!   as Bishop (2006), §9.2.2; the covariance update with the transposes in the right place,
//!   one set of the course notes prints them swapped; the univariate mean without the spurious `1/k`
//!   of another).
//! * **Stopping**: the mean log-likelihood `(1/N) Σ ln p(x_i)` (the *lower bound*) is computed
//!   at every E-step; EM stops when it changes by less than `tol` or after `max_iter` rounds. It
//!   never decreases (up to rounding); [`FittedGaussianMixture::lower_bound_history`] records it.
//!   A final E-step makes the training labels agree with `predict`.
//!
//! **Initialisation** ([`GmmInit`]): responsibilities from the labels of one k-means run
//! (default, as scikit-learn), from k-means++ seeds, random responsibilities, random data
//! points, or given parameters (weights, means, covariances; any omitted part comes from the
//! k-means responsibilities). `n_init` restarts run in parallel (restart `r` draws from random
//! stream `r`); the highest final lower bound wins.
//!
//! The data are centred on their column means internally (the log-densities of points far from
//! the origin keep their digits); everything reported is in the original coordinates.
//!
//! ```
//! use ndlearn_cluster::GaussianMixture;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict, PredictProba};
//!
//! let x = array![[0.0f64, 0.1], [0.2, -0.1], [-0.1, 0.0], [5.0, 5.1], [5.2, 4.9], [4.9, 5.0]];
//! let gm = GaussianMixture::new(2).reg_covar(1e-3).fit(&x)?;
//! let labels = gm.predict(&x)?;
//! assert_eq!(labels[0], labels[1]);
//! assert_ne!(labels[0], labels[3]);
//! let p = gm.predict_proba(&array![[0.0, 0.0]])?;
//! assert!((p.sum() - 1.0).abs() < 1e-12);
//! assert!(gm.bic(&x)? < gm.aic(&x)? + 100.0);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, Array3, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::CholeskyFactor;
use ndlearn_core::random::{self, Rng};
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

use crate::kmeans::{KMeans, plus_plus};

/// The covariance structure of a [`GaussianMixture`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CovarianceType {
    /// A full covariance matrix per component (default).
    #[default]
    Full,
    /// One full covariance matrix shared by all components.
    Tied,
    /// A diagonal covariance matrix per component.
    Diag,
    /// A single variance per component (`σ_k² I`).
    Spherical,
}

/// How [`GaussianMixture`] starts EM.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GmmInit {
    /// Hard responsibilities from one k-means run (default; scikit-learn's `"kmeans"`).
    #[default]
    KMeans,
    /// Hard responsibilities at `k` rows chosen by k-means++ seeding (`"k-means++"`).
    KMeansPlusPlus,
    /// Uniform random responsibilities, normalised per row (`"random"`).
    Random,
    /// Hard responsibilities at `k` distinct random rows (`"random_from_data"`).
    RandomFromData,
    /// Given parameters; a part left `None` comes from the k-means responsibilities (as
    /// scikit-learn's `weights_init`, `means_init`, `precisions_init`).
    Params {
        /// Mixture weights (`k`, positive, summing to 1).
        weights: Option<Array1<f64>>,
        /// Means (`k × d`).
        means: Option<Array2<f64>>,
        /// Covariance matrices (`k × d × d`, each symmetric positive definite; for the tied
        /// type all `k` must be equal, for diag and spherical the matching structure is taken
        /// from the diagonals).
        covariances: Option<Array3<f64>>,
    },
}

/// Gaussian mixture by EM. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct GaussianMixture {
    /// Number of components `k` (default 1).
    pub n_components: usize,
    /// Covariance structure (default full).
    pub covariance_type: CovarianceType,
    /// Stop when the mean log-likelihood changes by less than this (default 1e-3).
    pub tol: f64,
    /// Added to every covariance diagonal (default 1e-6).
    pub reg_covar: f64,
    /// Maximum EM rounds per restart (default 100).
    pub max_iter: usize,
    /// Restarts (default 1).
    pub n_init: usize,
    /// Initialisation (default k-means).
    #[cfg_attr(feature = "serde", serde(rename = "init_params", alias = "init"))]
    pub init: GmmInit,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for GaussianMixture {
    fn default() -> Self {
        Self::new(1)
    }
}

impl GaussianMixture {
    /// A mixture of `k` full-covariance components, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            covariance_type: CovarianceType::Full,
            tol: 1e-3,
            reg_covar: 1e-6,
            max_iter: 100,
            n_init: 1,
            init: GmmInit::KMeans,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the covariance structure.
        covariance_type: CovarianceType,
        /// Sets `tol`.
        tol: f64,
        /// Sets `reg_covar`.
        reg_covar: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets the number of restarts.
        n_init: usize,
        /// Sets the initialisation.
        init: GmmInit,
        /// Sets the seed.
        seed: u64,
    }
}

/// Mixture parameters in centred coordinates.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Params<F: Float> {
    weights: Array1<F>,
    means: Array2<F>,
    /// `k × d × d` (tied: the shared matrix repeated; diag / spherical: diagonal).
    covariances: Array3<F>,
    /// Upper-triangular `P_k` with `P_k P_kᵀ = Σ_k⁻¹`, stacked side by side: `d × (k d)`.
    prec_chol: Array2<F>,
    /// `Σ ln diag P_k`.
    log_det: Array1<F>,
}

fn ill_defined() -> Error {
    Error::invalid_param(
        "reg_covar",
        "a component has an ill-defined (singular) covariance: too few distinct points in it, \
         or duplicated features; increase reg_covar, lower n_components or rescale the data",
    )
}

/// Precision Cholesky factors of the covariances.
fn precisions<F: Float>(cov: &Array3<F>, ct: CovarianceType) -> Result<(Array2<F>, Array1<F>)> {
    let (k, d, _) = cov.dim();
    let mut pc = Array2::zeros((d, k * d));
    let mut log_det = Array1::zeros(k);
    for c in 0..k {
        let m = cov.index_axis(Axis(0), c);
        let mut block = pc.slice_mut(s![.., c * d..(c + 1) * d]);
        match ct {
            CovarianceType::Diag | CovarianceType::Spherical => {
                for j in 0..d {
                    let v = m[[j, j]];
                    if v.is_nan() || v <= F::zero() || !v.is_finite() {
                        return Err(ill_defined());
                    }
                    block[[j, j]] = F::one() / v.sqrt();
                }
            }
            _ => {
                let l = CholeskyFactor::new(&m).map_err(|_| ill_defined())?;
                let l = l.l();
                // P = L⁻ᵀ: solve L Y = I (forward substitution), P = Yᵀ
                let mut y = Array2::<F>::zeros((d, d));
                for col in 0..d {
                    for i in col..d {
                        let mut v = if i == col { F::one() } else { F::zero() };
                        for t in col..i {
                            v -= l[[i, t]] * y[[t, col]];
                        }
                        y[[i, col]] = v / l[[i, i]];
                    }
                }
                block.assign(&y.t());
            }
        }
        log_det[c] = (0..d).map(|j| block[[j, j]].ln()).sum::<F>();
        if !log_det[c].is_finite() {
            return Err(ill_defined());
        }
    }
    Ok((pc, log_det))
}

/// Rows per parallel task of the E- and M-steps.
const ROWS: usize = 2048;

/// `ln π_k + ln N(x_i | μ_k, Σ_k)` for every row and component (`n × k`).
///
/// Row chunks run in parallel; per row and component `y = (x − μ_k) P_k` is formed directly
/// from the triangular factor (`d(d+1)/2` multiply-adds, nothing of size `n × k d` is stored).
fn weighted_log_prob<F: Float>(x: &ArrayRef2<F>, p: &Params<F>) -> Array2<F> {
    let (n, d) = x.dim();
    let k = p.weights.len();
    // Pᵀ_k rows, lower triangle packed row by row: row j holds P[0..=j, j]
    let mut packed: Vec<F> = Vec::with_capacity(k * d * (d + 1) / 2);
    for c in 0..k {
        for j in 0..d {
            for t in 0..=j {
                packed.push(p.prec_chol[[t, c * d + j]]);
            }
        }
    }
    let tri = d * (d + 1) / 2;
    let consts: Vec<F> = (0..k)
        .map(|c| {
            F::cast(-0.5 * d as f64 * (2.0 * std::f64::consts::PI).ln())
                + p.log_det[c]
                + p.weights[c].ln()
        })
        .collect();
    let means = p.means.as_standard_layout();
    let ms = means.as_slice().unwrap_or(&[]);
    let data = x.as_standard_layout();
    let xs = data.as_slice().unwrap_or(&[]);
    let half = F::cast(0.5);
    let parts = par::map_chunks(n, ROWS, |rows| {
        let mut out = Vec::with_capacity(rows.len() * k);
        let mut diff = vec![F::zero(); d];
        for i in rows {
            let xi = &xs[i * d..(i + 1) * d];
            for c in 0..k {
                for ((t, &a), &m) in diff.iter_mut().zip(xi).zip(&ms[c * d..(c + 1) * d]) {
                    *t = a - m;
                }
                let pk = &packed[c * tri..(c + 1) * tri];
                let mut s = F::zero();
                let mut off = 0;
                for j in 0..d {
                    let row = &pk[off..off + j + 1];
                    let y: F = row.iter().zip(&diff[..=j]).map(|(&a, &b)| a * b).sum();
                    s += y * y;
                    off += j + 1;
                }
                out.push(consts[c] - half * s);
            }
        }
        out
    });
    Array2::from_shape_vec((n, k), parts.into_iter().flatten().collect())
        .unwrap_or_else(|_| Array2::zeros((n, k)))
}

/// `Σ_i γ_ik (x_i − μ_k)(x_i − μ_k)ᵀ` for every component (`k × d × d`), by row chunks in
/// parallel (upper triangle accumulated, then mirrored), chunks added in order.
fn scatter<F: Float>(x: &ArrayRef2<F>, resp: &Array2<F>, means: &Array2<F>) -> Array3<F> {
    let (n, d) = x.dim();
    let k = resp.ncols();
    let data = x.as_standard_layout();
    let xs = data.as_slice().unwrap_or(&[]);
    let ms = means.as_standard_layout();
    let ms = ms.as_slice().unwrap_or(&[]);
    let parts = par::map_chunks(n, ROWS, |rows| {
        let mut acc = vec![F::zero(); k * d * d];
        let mut diff = vec![F::zero(); d];
        for i in rows {
            let xi = &xs[i * d..(i + 1) * d];
            for c in 0..k {
                let g = resp[[i, c]];
                if g == F::zero() {
                    continue;
                }
                for ((t, &a), &m) in diff.iter_mut().zip(xi).zip(&ms[c * d..(c + 1) * d]) {
                    *t = a - m;
                }
                let block = &mut acc[c * d * d..(c + 1) * d * d];
                for a in 0..d {
                    let ga = g * diff[a];
                    for (o, &b) in block[a * d + a..(a + 1) * d].iter_mut().zip(&diff[a..]) {
                        *o += ga * b;
                    }
                }
            }
        }
        acc
    });
    let mut total = vec![F::zero(); k * d * d];
    for part in parts {
        for (t, v) in total.iter_mut().zip(part) {
            *t += v;
        }
    }
    let mut out =
        Array3::from_shape_vec((k, d, d), total).unwrap_or_else(|_| Array3::zeros((k, d, d)));
    for c in 0..k {
        for a in 0..d {
            for b in 0..a {
                out[[c, a, b]] = out[[c, b, a]];
            }
        }
    }
    out
}

/// Turns weighted log-probabilities into log-responsibilities in place; returns `ln p(x_i)`.
fn normalise<F: Float>(wlp: &mut Array2<F>) -> Array1<F> {
    wlp.rows_mut()
        .into_iter()
        .map(|mut row| {
            let lse = match row.as_slice() {
                Some(r) => ndlearn_core::numeric::log_sum_exp(r),
                None => ndlearn_core::numeric::log_sum_exp(&row.to_vec()),
            };
            row.mapv_inplace(|v| v - lse);
            lse
        })
        .collect()
}

/// The M-step from responsibilities `resp` (`n × k`) on centred data.
fn m_step<F: Float>(
    x: &ArrayRef2<F>,
    resp: &Array2<F>,
    ct: CovarianceType,
    reg: F,
) -> Result<Params<F>> {
    let (n, d) = x.dim();
    let k = resp.ncols();
    let eps10 = F::epsilon() * F::cast(10.0);
    let nk: Array1<F> = resp.sum_axis(Axis(0)).mapv(|v| v + eps10);
    let mut means = ndlearn_core::linalg::matmul(&resp.t(), x);
    for (mut row, &w) in means.rows_mut().into_iter().zip(&nk) {
        row /= w;
    }
    let mut cov = Array3::<F>::zeros((k, d, d));
    match ct {
        CovarianceType::Full | CovarianceType::Tied => {
            let sc = scatter(x, resp, &means);
            if ct == CovarianceType::Full {
                for c in 0..k {
                    let mut out = cov.index_axis_mut(Axis(0), c);
                    out.assign(&sc.index_axis(Axis(0), c));
                    out /= nk[c];
                    for i in 0..d {
                        out[[i, i]] += reg;
                    }
                }
            } else {
                // Σ_k Σ_i γ_ik (x_i − μ_k)(x_i − μ_k)ᵀ / Σ_k N_k: scikit-learn's
                // XᵀX − Σ N_k μ_k μ_kᵀ when every row's responsibilities sum to 1, and still
                // right for the hard one-point starts (k-means++, random rows)
                let shared = sc.sum_axis(Axis(0)) / nk.sum();
                for c in 0..k {
                    let mut out = cov.index_axis_mut(Axis(0), c);
                    out.assign(&shared);
                    for i in 0..d {
                        out[[i, i]] += reg;
                    }
                }
            }
        }
        CovarianceType::Diag | CovarianceType::Spherical => {
            let parts = par::map_chunks(n, 4096, |r| {
                let mut acc = Array2::<F>::zeros((k, d));
                for i in r {
                    let xi = x.row(i);
                    for c in 0..k {
                        let g = resp[[i, c]];
                        for j in 0..d {
                            let t = xi[j] - means[[c, j]];
                            acc[[c, j]] += g * t * t;
                        }
                    }
                }
                acc
            });
            let mut var = Array2::<F>::zeros((k, d));
            for a in parts {
                var += &a;
            }
            for c in 0..k {
                let row: Vec<F> = var.row(c).iter().map(|&v| v / nk[c] + reg).collect();
                let sph = row.iter().copied().sum::<F>() / F::cast(d as f64);
                for j in 0..d {
                    cov[[c, j, j]] = if ct == CovarianceType::Spherical {
                        sph
                    } else {
                        row[j]
                    };
                }
            }
        }
    }
    let weights = nk.mapv(|v| v / F::cast(n as f64));
    let (prec_chol, log_det) = precisions(&cov, ct)?;
    Ok(Params {
        weights,
        means,
        covariances: cov,
        prec_chol,
        log_det,
    })
}

/// `x − 1 rowᵀ`.
fn minus_row<F: Float>(x: &ArrayRef2<F>, row: &ndarray::ArrayView1<'_, F>) -> Array2<F> {
    let mut out = x.to_owned();
    out -= row;
    out
}

/// One-hot responsibilities from labels.
fn one_hot<F: Float>(labels: &[usize], k: usize) -> Array2<F> {
    let mut r = Array2::zeros((labels.len(), k));
    for (i, &l) in labels.iter().enumerate() {
        r[[i, l]] = F::one();
    }
    r
}

/// One EM run.
struct Run<F: Float> {
    params: Params<F>,
    lower_bound: F,
    history: Vec<F>,
    n_iter: usize,
    converged: bool,
}

impl GaussianMixture {
    fn check(&self, n: usize, d: usize) -> Result<()> {
        let k = self.n_components;
        crate::common::check_n_clusters("n_components", k, n)?;
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1"));
        }
        if self.n_init == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        ndlearn_core::validate::check_non_negative("reg_covar", self.reg_covar)?;
        if let GmmInit::Params {
            weights,
            means,
            covariances,
        } = &self.init
        {
            if let Some(w) = weights
                && (w.len() != k
                    || w.iter().any(|&v| v.is_nan() || v < 0.0 || !v.is_finite())
                    || (w.sum() - 1.0).abs() > 1e-6)
            {
                return Err(Error::invalid_param(
                    "init",
                    format!("weights must be {k} non-negative values summing to 1"),
                ));
            }
            if let Some(m) = means
                && (m.dim() != (k, d) || m.iter().any(|v| !v.is_finite()))
            {
                return Err(Error::invalid_param(
                    "init",
                    format!("means must be finite and {k} x {d}, got {:?}", m.dim()),
                ));
            }
            if let Some(c) = covariances
                && (c.dim() != (k, d, d) || c.iter().any(|v| !v.is_finite()))
            {
                return Err(Error::invalid_param(
                    "init",
                    format!(
                        "covariances must be finite and {k} x {d} x {d}, got {:?}",
                        c.dim()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Initial parameters for restart `r` on centred data with column means `mean`.
    fn initial<F: Float>(
        &self,
        xc: &ArrayRef2<F>,
        mean: &Array1<F>,
        rng: &mut Rng,
        r: usize,
    ) -> Result<Params<F>> {
        let (n, d) = xc.dim();
        let k = self.n_components;
        let reg = F::cast(self.reg_covar);
        let kmeans_resp = || -> Result<Array2<F>> {
            let m = KMeans::new(k)
                .n_init(Some(1))
                .seed(self.seed.wrapping_add(r as u64))
                .fit(xc)?;
            Ok(one_hot(m.labels().as_slice().unwrap_or(&[]), k))
        };
        let resp = match &self.init {
            GmmInit::KMeans | GmmInit::Params { .. } => kmeans_resp()?,
            GmmInit::KMeansPlusPlus => {
                let data = xc.as_standard_layout();
                let (_, idx) = plus_plus(data.as_slice().unwrap_or(&[]), d, k, rng)?;
                let mut resp = Array2::zeros((n, k));
                for (c, &i) in idx.iter().enumerate() {
                    resp[[i, c]] = F::one();
                }
                resp
            }
            GmmInit::Random => {
                let mut resp = Array2::from_shape_simple_fn((n, k), || {
                    random::uniform(rng, F::zero(), F::one())
                });
                for mut row in resp.rows_mut() {
                    let s = row.sum();
                    row /= s;
                }
                resp
            }
            GmmInit::RandomFromData => {
                let idx = random::sample_without_replacement(rng, n, k)?;
                let mut resp = Array2::zeros((n, k));
                for (c, &i) in idx.iter().enumerate() {
                    resp[[i, c]] = F::one();
                }
                resp
            }
        };
        let mut p = m_step(xc, &resp, self.covariance_type, reg)?;
        if let GmmInit::Params {
            weights,
            means,
            covariances,
        } = &self.init
        {
            if let Some(w) = weights {
                p.weights = w.mapv(F::cast);
            }
            if let Some(m) = means {
                p.means = m.mapv(F::cast) - mean;
            }
            if let Some(c) = covariances {
                let mut cov = c.mapv(F::cast);
                if matches!(
                    self.covariance_type,
                    CovarianceType::Diag | CovarianceType::Spherical
                ) {
                    for mut m in cov.outer_iter_mut() {
                        let diag: Vec<F> = m.diag().to_vec();
                        let sph = diag.iter().copied().sum::<F>() / F::cast(d as f64);
                        m.fill(F::zero());
                        for (j, v) in diag.into_iter().enumerate() {
                            m[[j, j]] = if self.covariance_type == CovarianceType::Spherical {
                                sph
                            } else {
                                v
                            };
                        }
                    }
                }
                let (pc, ld) = precisions(&cov, self.covariance_type)?;
                p.covariances = cov;
                p.prec_chol = pc;
                p.log_det = ld;
            }
        }
        Ok(p)
    }

    fn em<F: Float>(&self, xc: &ArrayRef2<F>, mut p: Params<F>, observed: bool) -> Result<Run<F>> {
        let reg = F::cast(self.reg_covar);
        let tol = F::cast(self.tol);
        let nf = F::cast(xc.nrows() as f64);
        let mut lower = F::neg_infinity();
        let mut history = Vec::new();
        let mut converged = false;
        let mut n_iter = 0;
        for it in 0..self.max_iter {
            n_iter = it + 1;
            let prev = lower;
            let mut log_resp = weighted_log_prob(xc, &p);
            let lpn = normalise(&mut log_resp);
            lower = lpn.sum() / nf;
            if !lower.is_finite() {
                return Err(ill_defined());
            }
            history.push(lower);
            p = m_step(xc, &log_resp.mapv(|v| v.exp()), self.covariance_type, reg)?;
            let change = lower - prev;
            if observed
                && ndlearn_core::observe::report(
                    &ndlearn_core::observe::Progress::new("GaussianMixture", it + 1)
                        .max_iter(self.max_iter)
                        .objective(lower.to_f64().unwrap_or(f64::NAN))
                        .criterion(change.abs().to_f64().unwrap_or(f64::NAN)),
                )
                .is_stop()
            {
                break;
            }
            if change.abs() < tol {
                converged = true;
                break;
            }
        }
        Ok(Run {
            params: p,
            lower_bound: lower,
            history,
            n_iter,
            converged,
        })
    }
}

impl Estimator for GaussianMixture {
    /// Checks `n_components`, `max_iter`, `n_init` (`≥ 1`), `tol` and `reg_covar` (`≥ 0`);
    /// given initial parameters are checked against the data at fit.
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_components", self.n_components, usize::MAX)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        ndlearn_core::validate::check_at_least("n_init", self.n_init, 1)?;
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        ndlearn_core::validate::check_non_negative("reg_covar", self.reg_covar)
    }
}

impl<F: Float> FitUnsupervised<F> for GaussianMixture {
    type Model = FittedGaussianMixture<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "GaussianMixture::fit")?;
        let (n, d) = x.dim();
        self.check(n, d)?;
        let mean = x
            .mean_axis(Axis(0))
            .ok_or_else(|| Error::invalid_param("x", "no rows"))?;
        let xc = minus_row(x, &mean.view());
        let single = self.n_init == 1;
        let run_one = |r: usize| -> Result<Run<F>> {
            let mut rng = random::stream(self.seed, r as u64);
            let init = self.initial(&xc, &mean, &mut rng, r)?;
            self.em(&xc, init, single)
        };
        let runs = if single {
            vec![run_one(0)?]
        } else {
            par::try_map_tasks(self.n_init, run_one)?
        };
        let best = runs
            .into_iter()
            .reduce(|a, b| if b.lower_bound > a.lower_bound { b } else { a })
            .ok_or_else(|| Error::invalid_param("n_init", "no restart ran"))?;
        let means = &best.params.means + &mean;
        Ok(FittedGaussianMixture {
            params_: self.clone(),
            means,
            center: mean,
            p: best.params,
            lower_bound: best.lower_bound,
            history: best.history,
            n_iter: best.n_iter,
            converged: best.converged,
        })
    }
}

/// A fitted [`GaussianMixture`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedGaussianMixture<F: Float> {
    params_: GaussianMixture,
    /// Means in the original coordinates.
    means: Array2<F>,
    /// Column means of the training data (the centring).
    center: Array1<F>,
    /// Parameters in centred coordinates.
    p: Params<F>,
    lower_bound: F,
    history: Vec<F>,
    n_iter: usize,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedGaussianMixture<F> {
    fn n_features_in(&self) -> usize {
        self.means.ncols()
    }
}

impl<F: Float> FittedGaussianMixture<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &GaussianMixture {
        &self.params_
    }
    /// The mixture weights `π_k`.
    pub fn weights(&self) -> &Array1<F> {
        &self.p.weights
    }
    /// The component means (`k × d`).
    pub fn means(&self) -> &Array2<F> {
        &self.means
    }
    /// The covariance matrices, `k × d × d` for every covariance type (tied: the shared
    /// matrix repeated; diag and spherical: diagonal matrices).
    pub fn covariances(&self) -> &Array3<F> {
        &self.p.covariances
    }
    /// The upper-triangular Cholesky factors `P_k` of the precisions (`P_k P_kᵀ = Σ_k⁻¹`),
    /// `k × d × d` (scikit-learn's `precisions_cholesky_` for the full type).
    pub fn precisions_cholesky(&self) -> Array3<F> {
        let (k, d) = self.p.means.dim();
        let mut out = Array3::zeros((k, d, d));
        for c in 0..k {
            out.index_axis_mut(Axis(0), c)
                .assign(&self.p.prec_chol.slice(s![.., c * d..(c + 1) * d]));
        }
        out
    }
    /// The mean log-likelihood at the last E-step of the best restart (scikit-learn's
    /// `lower_bound_`).
    pub fn lower_bound(&self) -> F {
        self.lower_bound
    }
    /// The mean log-likelihood at every E-step of the best restart (non-decreasing).
    pub fn lower_bound_history(&self) -> &[F] {
        &self.history
    }
    /// EM rounds of the best restart.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the best restart stopped on `tol` before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }

    fn log_resp(&self, x: &ArrayRef2<F>) -> Result<(Array2<F>, Array1<F>)> {
        check_predict_input(
            x,
            self.p.means.ncols(),
            "GaussianMixture: number of features",
        )?;
        let mut w = weighted_log_prob(&minus_row(x, &self.center.view()), &self.p);
        let lse = normalise(&mut w);
        Ok((w, lse))
    }

    /// `ln p(x_i)` of every row (scikit-learn's `score_samples`).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    pub fn score_samples(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        Ok(self.log_resp(x)?.1)
    }

    /// Mean log-likelihood of the rows (scikit-learn's `score`).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    pub fn score(&self, x: &ArrayRef2<F>) -> Result<F> {
        let s = self.score_samples(x)?;
        Ok(s.sum() / F::cast(s.len().max(1) as f64))
    }

    /// Number of free parameters: weights `k − 1`, means `k d`, covariances (full
    /// `k d(d+1)/2`, tied `d(d+1)/2`, diag `k d`, spherical `k`).
    pub fn n_parameters(&self) -> usize {
        let (k, d) = self.p.means.dim();
        let cov = match self.params_.covariance_type {
            CovarianceType::Full => k * d * (d + 1) / 2,
            CovarianceType::Tied => d * (d + 1) / 2,
            CovarianceType::Diag => k * d,
            CovarianceType::Spherical => k,
        };
        cov + k * d + k - 1
    }

    /// Bayesian information criterion `−2 N·score + p ln N` (lower is better).
    ///
    /// # Errors
    /// As [`Self::score`].
    pub fn bic(&self, x: &ArrayRef2<F>) -> Result<f64> {
        let n = x.nrows() as f64;
        let s = self.score(x)?.to_f64().unwrap_or(f64::NAN);
        Ok(-2.0 * s * n + self.n_parameters() as f64 * n.ln())
    }

    /// Akaike information criterion `−2 N·score + 2p` (lower is better).
    ///
    /// # Errors
    /// As [`Self::score`].
    pub fn aic(&self, x: &ArrayRef2<F>) -> Result<f64> {
        let n = x.nrows() as f64;
        let s = self.score(x)?.to_f64().unwrap_or(f64::NAN);
        Ok(-2.0 * s * n + 2.0 * self.n_parameters() as f64)
    }

    /// Draws `n` points from the mixture: the component counts from the multinomial of the
    /// weights, then `μ_k + L_k z` with `Σ_k = L_k L_kᵀ` and `z` standard normal. Returns the
    /// points grouped by component and their components.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `n = 0`.
    pub fn sample(&self, n: usize, seed: u64) -> Result<(Array2<F>, Array1<usize>)> {
        if n == 0 {
            return Err(Error::invalid_param("n", "must be >= 1"));
        }
        let mut rng = random::rng(seed);
        let (k, d) = self.p.means.dim();
        let mut counts = vec![0usize; k];
        for _ in 0..n {
            counts[random::weighted_index(&mut rng, self.p.weights.as_slice().unwrap_or(&[]))?] +=
                1;
        }
        let mut out = Array2::zeros((n, d));
        let mut labels = Array1::zeros(n);
        let mut row = 0;
        for (c, &count) in counts.iter().enumerate() {
            let cov = self.p.covariances.index_axis(Axis(0), c);
            let l = CholeskyFactor::new(&cov)?;
            let l = l.l();
            for _ in 0..count {
                let z: Vec<F> = (0..d).map(|_| random::standard_normal(&mut rng)).collect();
                for i in 0..d {
                    let mut v = self.means[[c, i]];
                    for (t, &zt) in z.iter().enumerate().take(i + 1) {
                        v += l[[i, t]] * zt;
                    }
                    out[[row, i]] = v;
                }
                labels[row] = c;
                row += 1;
            }
        }
        Ok((out, labels))
    }
}

impl<F: Float> ndlearn_core::PredictProba<F> for FittedGaussianMixture<F> {
    /// Component membership probabilities `γ_ik` (`n × k`, rows sum to 1).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        Ok(self.log_resp(x)?.0.mapv(|v| v.exp()))
    }
}

impl<F: Float> Predict<F> for FittedGaussianMixture<F> {
    type Output = Array1<usize>;

    /// The most probable component of every row (ties: the lower component).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let (w, _) = self.log_resp(x)?;
        Ok(ndlearn_core::numeric::argmax_rows(&w))
    }
}

/// Equal up to rounding (relative `√ε`, absolute near 0).
fn close<F: Float>(a: F, b: F) -> bool {
    (a - b).abs() <= F::epsilon().sqrt() * F::one().max(a.abs()).max(b.abs())
}

impl<F: Float> CheckModel for FittedGaussianMixture<F> {
    /// Besides shapes and finiteness: weights `≥ 0` summing to 1; every precision factor
    /// upper triangular with a positive diagonal (diagonal for diag and spherical, one value
    /// per component for spherical, one factor for tied) and `log_det` its log-determinant;
    /// covariances symmetric with the same structure.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedGaussianMixture");
        c.params(&self.params_)?;
        let p = &self.p;
        let k = self.params_.n_components;
        let d = crate::common::check_points(&c, "means", &self.means, k)?;
        c.shape("centred means", p.means.dim(), (k, d))?;
        c.finite("centred means", &p.means)?;
        c.len("center", self.center.len(), d)?;
        c.finite("center", &self.center)?;
        let shifted = ndarray::Zip::from(&self.means)
            .and(&p.means)
            .and_broadcast(&self.center)
            .all(|&m, &pm, &o| close(m, pm + o));
        c.that(shifted, || {
            "`means` differ from the centred means plus `center`".into()
        })?;
        c.len("weights", p.weights.len(), k)?;
        c.non_negative("weights", &p.weights)?;
        c.that(close(p.weights.sum(), F::one()), || {
            "`weights` must sum to 1".into()
        })?;
        c.that(p.covariances.dim() == (k, d, d), || {
            format!("`covariances` must be {k} x {d} x {d}")
        })?;
        c.finite("covariances", &p.covariances)?;
        c.shape("prec_chol", p.prec_chol.dim(), (d, k * d))?;
        c.finite("prec_chol", &p.prec_chol)?;
        c.len("log_det", p.log_det.len(), k)?;
        let ct = self.params_.covariance_type;
        let diagonal = matches!(ct, CovarianceType::Diag | CovarianceType::Spherical);
        let first = p.prec_chol.slice(s![.., 0..d]);
        for q in 0..k {
            let cov = p.covariances.index_axis(Axis(0), q);
            let pc = p.prec_chol.slice(s![.., q * d..(q + 1) * d]);
            let shaped = (0..d).all(|i| {
                pc[[i, i]] > F::zero()
                    && cov[[i, i]] > F::zero()
                    && (ct != CovarianceType::Spherical
                        || (close(pc[[i, i]], pc[[0, 0]]) && close(cov[[i, i]], cov[[0, 0]])))
                    && (0..d).all(|j| {
                        let zero = j < i || (diagonal && j != i);
                        (!zero || pc[[i, j]] == F::zero())
                            && (!diagonal || i == j || cov[[i, j]] == F::zero())
                            && close(cov[[i, j]], cov[[j, i]])
                            && (ct != CovarianceType::Tied || close(pc[[i, j]], first[[i, j]]))
                    })
            });
            c.that(shaped, || {
                format!("component {q}: covariance or precision factor not of the {ct:?} form")
            })?;
            let log_det: F = (0..d).map(|j| pc[[j, j]].ln()).sum();
            c.that(close(p.log_det[q], log_det), || {
                format!("`log_det` of component {q} differs from its precision factor")
            })?;
        }
        c.finite_value("lower_bound", self.lower_bound)?;
        c.finite_slice("history", &self.history)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![
            [0.0, 0.1],
            [0.2, -0.1],
            [-0.1, 0.0],
            [5.0, 5.1],
            [5.2, 4.9],
            [4.9, 5.0]
        ];
        for ct in [
            CovarianceType::Full,
            CovarianceType::Tied,
            CovarianceType::Diag,
            CovarianceType::Spherical,
        ] {
            let gm = GaussianMixture::new(2)
                .covariance_type(ct)
                .reg_covar(1e-3)
                .fit(&x)
                .expect("fit");
            assert!(gm.check_model().is_ok(), "{ct:?}");
            let gm32 = GaussianMixture::new(2)
                .covariance_type(ct)
                .reg_covar(1e-3)
                .fit(&x.mapv(|v| v as f32))
                .expect("fit");
            assert!(gm32.check_model().is_ok(), "{ct:?} f32");
            let mut bad = gm.clone();
            bad.p.prec_chol[[1, 0]] = 0.5; // below the diagonal
            assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
            let mut bad = gm;
            bad.p.weights[0] = -0.5;
            bad.p.weights[1] = 1.5;
            assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        }
    }
}
