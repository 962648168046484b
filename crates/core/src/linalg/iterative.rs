//! Iterative and randomized eigen/singular solvers: power iteration with deflation, the Rayleigh
//! quotient, and randomized SVD.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, s};

use super::{Svd, check_k, check_symmetric, qr, svd_thin};
use crate::random::{standard_normal, stream};
use crate::validate::check_finite_2d;
use crate::{Error, Float, Result};

/// Rayleigh quotient `xᵀ A x / xᵀ x` (an eigenvalue when `x` is an eigenvector).
pub fn rayleigh_quotient<F: Float>(a: &ArrayRef2<F>, x: &ArrayRef1<F>) -> Result<F> {
    if a.nrows() != a.ncols() || a.ncols() != x.len() {
        return Err(Error::ShapeMismatch {
            context: "rayleigh_quotient",
            expected: format!("square A and x of length {}", a.ncols()),
            found: format!("A {}x{}, x of length {}", a.nrows(), a.ncols(), x.len()),
        });
    }
    let xx = x.dot(x);
    if xx.is_nan() || xx <= F::zero() {
        return Err(Error::invalid_param(
            "x",
            "must be a non-zero finite vector",
        ));
    }
    Ok(x.dot(&a.dot(x)) / xx)
}

/// Result of [`power_iteration`].
#[derive(Debug, Clone)]
pub struct PowerIteration<F: Float> {
    /// Eigenvalues found, in the order found (decreasing magnitude).
    pub values: Array1<F>,
    /// Unit eigenvectors as columns, sign-normalised (largest-magnitude entry positive).
    pub vectors: Array2<F>,
    /// Iterations used for each eigenpair.
    pub n_iter: Vec<usize>,
    /// Whether every eigenpair met the tolerance within `max_iter`.
    pub converged: bool,
}

/// Top-`k` eigenpairs of a symmetric matrix by power iteration with (Hotelling) deflation:
/// after finding `(λ₁, u₁)`, iterate on `A − λ₁ u₁ u₁ᵀ`, and so on.
///
/// Finds the eigenvalues of largest *magnitude*; for positive semi-definite matrices
/// (covariances, Gram matrices) those are the largest. Convergence is geometric with ratio
/// `|λ_{j+1}/λ_j|`, so close eigenvalues converge slowly; a pair stops when
/// `‖v_t − v_{t−1}‖ ≤ tol` (up to sign). Start vectors are standard normal from
/// `random::stream(seed, j)`.
pub fn power_iteration<F: Float>(
    a: &ArrayRef2<F>,
    k: usize,
    max_iter: usize,
    tol: F,
    seed: u64,
) -> Result<PowerIteration<F>> {
    check_symmetric(a, "power_iteration")?;
    let n = a.nrows();
    check_k(k, n)?;
    if max_iter == 0 {
        return Err(Error::invalid_param("max_iter", "must be >= 1"));
    }
    let mut values = Array1::zeros(k);
    let mut vectors = Array2::zeros((n, k));
    let mut n_iters = Vec::with_capacity(k);
    let mut all_converged = true;
    for j in 0..k {
        let mut rng = stream(seed, j as u64);
        let mut v: Array1<F> = Array1::from_shape_fn(n, |_| standard_normal(&mut rng));
        normalize(&mut v);
        let mut lambda = F::zero();
        let mut converged = false;
        let mut it = 0;
        while it < max_iter {
            it += 1;
            let mut w = a.dot(&v);
            // Deflation: subtract the found components λᵢ uᵢ (uᵢᵀ v).
            for i in 0..j {
                let ui = vectors.column(i);
                let c: F = values[i] * ui.dot(&v);
                w.scaled_add(-c, &ui);
            }
            lambda = v.dot(&w);
            let norm = w.dot(&w).sqrt();
            if norm.is_nan() || norm <= F::zero() {
                // v lies in the null space of the deflated matrix: eigenvalue 0.
                converged = true;
                break;
            }
            w /= norm;
            let same = (&w - &v).mapv(|d| d * d).sum().sqrt();
            let flipped = (&w + &v).mapv(|d| d * d).sum().sqrt();
            v = w;
            if same.min(flipped) <= tol {
                converged = true;
                break;
            }
        }
        let lead = v
            .iter()
            .fold(F::zero(), |b, &x| if x.abs() > b.abs() { x } else { b });
        if lead < F::zero() {
            v.mapv_inplace(|x| -x);
        }
        values[j] = lambda;
        vectors.column_mut(j).assign(&v);
        n_iters.push(it);
        all_converged &= converged;
    }
    Ok(PowerIteration {
        values,
        vectors,
        n_iter: n_iters,
        converged: all_converged,
    })
}

fn normalize<F: Float>(v: &mut Array1<F>) {
    let n = v.dot(v).sqrt();
    if n > F::zero() {
        *v /= n;
    }
}

/// Options of [`randomized_svd`] (defaults as scikit-learn's `randomized_svd`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct RandomizedSvdOptions {
    /// Extra random directions beyond `k` (default 10).
    pub n_oversamples: usize,
    /// Power (subspace) iterations; `None` = 7 when `k < 0.1 · min(m, n)`, else 4.
    pub n_iter: Option<usize>,
    /// Seed of the Gaussian test matrix.
    pub seed: u64,
    /// Keep every block of the power iterations and project on their span (randomized block
    /// Krylov, Musco & Musco 2015) instead of on the last one (default false, as
    /// scikit-learn). With the same number of passes over `A` the Krylov basis is more
    /// accurate, so `Auto` counts of iterations are halved: `⌈n_iter / 2⌉` Krylov steps.
    pub block_krylov: bool,
}

impl Default for RandomizedSvdOptions {
    fn default() -> Self {
        Self {
            n_oversamples: 10,
            n_iter: None,
            seed: 0,
            block_krylov: false,
        }
    }
}

impl RandomizedSvdOptions {
    crate::setters! {
        /// Sets `n_oversamples`.
        n_oversamples: usize,
    }
    /// Sets `n_iter`.
    pub fn n_iter(mut self, v: usize) -> Self {
        self.n_iter = Some(v);
        self
    }
    crate::setters! {
        /// Sets `seed`.
        seed: u64,
        /// Sets `block_krylov`.
        block_krylov: bool,
    }
}

/// Approximate top-`k` SVD by the randomized range finder with subspace iteration
/// (Halko, Martinsson & Tropp, *Finding structure with randomness*, SIAM Review 2011,
/// Algorithms 4.4 and 5.1):
///
/// 1. `Ω` Gaussian `n × (k + p)`; `Q = orth(A Ω)`;
/// 2. `q` times: `Q = orth(A orth(Aᵀ Q))` (re-orthonormalised by QR each half step);
/// 3. `B = Qᵀ A` (small), `B = Û Σ Vᵀ` exactly, `U = Q Û`; keep `k`.
///
/// The error is close to the optimal `σ_{k+1}` when the spectrum decays. Signs are normalised
/// (`u_based`) so the result is deterministic for a seed.
pub fn randomized_svd<F: Float>(
    a: &ArrayRef2<F>,
    k: usize,
    opts: RandomizedSvdOptions,
) -> Result<Svd<F>> {
    check_finite_2d(a, "matrix")?;
    randomized_svd_op(
        a.dim(),
        k,
        opts,
        |m| super::matmul(a, m),
        |nn| super::matmul(&a.t(), nn),
    )
}

/// [`randomized_svd`] of the centred (and optionally scaled) matrix
/// `(A − 1 μᵀ) diag(1/s)` **without forming it**: every product goes through `A` and a rank-one
/// correction (`(A − 1μᵀ) M = A M − 1 (μᵀ M)`), so PCA's randomized solver needs no centred copy
/// of the data. The subtraction cancels about `log10(‖μ‖ / spread)` digits: for data far from
/// their mean relative to their spread, centre explicitly (PCA does when `‖μ‖² > 1e4 · tr Σ`).
///
/// # Errors
/// As [`randomized_svd`], plus [`Error::ShapeMismatch`] when `mean` or `scale` does not have one
/// entry per column, and [`Error::InvalidParam`] for a non-positive scale.
pub fn randomized_svd_centred<F: Float>(
    a: &ArrayRef2<F>,
    mean: &ArrayRef1<F>,
    scale: Option<&ArrayRef1<F>>,
    k: usize,
    opts: RandomizedSvdOptions,
) -> Result<Svd<F>> {
    check_finite_2d(a, "matrix")?;
    let d = a.ncols();
    if mean.len() != d || scale.is_some_and(|s| s.len() != d) {
        return Err(Error::ShapeMismatch {
            context: "randomized_svd_centred",
            expected: format!("mean (and scale) of length {d}"),
            found: format!("{} (and {:?})", mean.len(), scale.map(|s| s.len())),
        });
    }
    if let Some(s) = scale
        && s.iter()
            .any(|v| v.is_nan() || *v <= F::zero() || v.is_infinite())
    {
        return Err(Error::invalid_param("scale", "must be positive and finite"));
    }
    if mean.iter().any(|v| !v.is_finite()) {
        return Err(Error::invalid_param("mean", "must be finite"));
    }
    let inv = scale.map(|s| s.mapv(|v| F::one() / v));
    // A_c M = A (D⁻¹M) − 1 (μᵀ D⁻¹ M)
    let apply = |m: &Array2<F>| {
        let mut ms = m.clone();
        if let Some(iv) = &inv {
            for (mut row, &f) in ms.rows_mut().into_iter().zip(iv) {
                row *= f;
            }
        }
        let shift = mean.dot(&ms);
        let mut out = super::matmul(a, &ms);
        out -= &shift;
        out
    };
    // A_cᵀ N = D⁻¹ (Aᵀ N − μ (1ᵀ N))
    let apply_t = |nn: &Array2<F>| {
        let colsum = nn.sum_axis(ndarray::Axis(0));
        let mut out = super::matmul(&a.t(), nn);
        for (mut row, &mu) in out.rows_mut().into_iter().zip(mean) {
            row.scaled_add(-mu, &colsum);
        }
        if let Some(iv) = &inv {
            for (mut row, &f) in out.rows_mut().into_iter().zip(iv) {
                row *= f;
            }
        }
        out
    };
    randomized_svd_op(a.dim(), k, opts, apply, apply_t)
}

/// An orthonormal basis of the columns of a tall `y` by Cholesky QR done twice (two `yᵀy` GEMMs
/// and two triangular updates: BLAS-3, where Householder QR of a thin matrix runs at BLAS-2
/// speed); Householder QR when `y` is not tall or too ill-conditioned for it (a Cholesky
/// pivot below `√ε · 100` of the largest, i.e. `κ(y)` beyond about `1e6` in f64).
fn orthonormal_basis<F: Float>(y: &Array2<F>) -> Result<Array2<F>> {
    let chol_qr = |y: &Array2<F>| -> Option<Array2<F>> {
        let g = super::gram(y);
        let l = super::cholesky(&g).ok()?;
        let diag = l.diag();
        let mx = diag.iter().fold(F::zero(), |m, &v| m.max(v));
        let mn = diag.iter().fold(F::infinity(), |m, &v| m.min(v));
        if mn.is_nan() || mn <= mx * F::epsilon().sqrt() * F::cast(100.0) {
            return None;
        }
        let linv = super::inv(&l).ok()?;
        Some(super::matmul(y, &linv.t()))
    };
    if y.nrows() >= 4 * y.ncols()
        && let Some(q1) = chol_qr(y)
        && let Some(q2) = chol_qr(&q1)
    {
        return Ok(q2);
    }
    Ok(qr(y)?.0)
}

/// The randomized range finder and SVD over an operator given by its products with `A`
/// (`m × n`) and `Aᵀ`.
fn randomized_svd_op<F: Float>(
    (m, n): (usize, usize),
    k: usize,
    opts: RandomizedSvdOptions,
    apply: impl Fn(&Array2<F>) -> Array2<F>,
    apply_t: impl Fn(&Array2<F>) -> Array2<F>,
) -> Result<Svd<F>> {
    let kmax = m.min(n);
    if k == 0 || k > kmax {
        return Err(Error::invalid_param(
            "k",
            format!("must lie in 1..={kmax} (min of the matrix dimensions), got {k}"),
        ));
    }
    let l = (k + opts.n_oversamples).min(kmax);
    let n_iter = opts
        .n_iter
        .unwrap_or(if (k as f64) < 0.1 * kmax as f64 { 7 } else { 4 });
    let mut rng = stream(opts.seed, 0);
    let omega: Array2<F> = Array2::from_shape_fn((n, l), |_| standard_normal(&mut rng));
    let mut q = orthonormal_basis(&apply(&omega))?;
    if opts.block_krylov {
        // the blocks Q, (AAᵀ)Q, …: at most min(m, n) columns in all
        let steps = n_iter.div_ceil(2).min((kmax / l).saturating_sub(1));
        let mut blocks = vec![q.clone()];
        for _ in 0..steps {
            let z = orthonormal_basis(&apply_t(&q))?;
            let y = apply(&z);
            // each new block orthogonal to the earlier ones (two Gram–Schmidt passes), so the
            // stacked basis needs no tall QR at the end
            let mut y = orthonormal_basis(&y)?;
            for _ in 0..2 {
                for b in &blocks {
                    let c = b.t().dot(&y);
                    ndarray::linalg::general_mat_mul(-F::one(), b, &c, F::one(), &mut y);
                }
                y = orthonormal_basis(&y)?;
            }
            q = y;
            blocks.push(q.clone());
        }
        let views: Vec<_> = blocks.iter().map(|b| b.view()).collect();
        q = ndarray::concatenate(ndarray::Axis(1), &views)
            .map_err(|e| Error::invalid_param("randomized_svd", e.to_string()))?;
    } else {
        for _ in 0..n_iter {
            let z = orthonormal_basis(&apply_t(&q))?;
            q = orthonormal_basis(&apply(&z))?;
        }
    }
    let b = apply_t(&q).reversed_axes();
    let small = svd_thin(&b)?;
    let mut out = Svd {
        u: q.dot(&small.u.slice(s![.., ..k])),
        s: small.s.slice(s![..k]).to_owned(),
        vt: small.vt.slice(s![..k, ..]).to_owned(),
    };
    out.flip_signs(true);
    Ok(out)
}

/// Result of [`eigsh_top`].
#[derive(Debug, Clone)]
pub struct TopEigen<F: Float> {
    /// The `k` largest eigenvalues, descending.
    pub values: Array1<F>,
    /// Their orthonormal eigenvectors as columns (`n × k`).
    pub vectors: Array2<F>,
    /// Block products `A Q` computed (each `n² b` flops for a block of `b` columns).
    pub n_iter: usize,
    /// Whether every residual `‖A v − λ v‖` met `tol · max|λ|` within `max_iter` products.
    pub converged: bool,
}

/// The `k` largest (algebraic) eigenpairs of a symmetric matrix by restarted block Krylov
/// iteration with Rayleigh–Ritz projection (block Lanczos with full reorthogonalisation; Saad,
/// *Numerical Methods for Large Eigenvalue Problems*, ch. 6; Musco & Musco 2015):
///
/// 1. a start block `Q₀` (`n × b`, `b = min(n, k + 10)`) of orthonormalised Gaussian columns
///    from `random::stream(seed, 0)`;
/// 2. the Krylov basis `[Q₀, Q₁, …, Q_q]`, each `Q_{s+1} = orth(A Q_s)` made orthogonal to all
///    earlier blocks (two passes of block Gram–Schmidt), with `q` chosen so the basis has at most
///    `max(8 b, 160)` columns;
/// 3. Rayleigh–Ritz: `H = Qᵀ A Q` (from the stored products), `H = S Θ Sᵀ`; Ritz pairs
///    `(θ_i, Q s_i)` with residuals `‖A Q s_i − θ_i Q s_i‖`; stop when the top `k` residuals are
///    at most `tol · |θ_1|`, else restart from the top `b` Ritz vectors.
///
/// Blocks are orthonormalised by Cholesky QR done twice (Householder QR when a block is
/// ill-conditioned), the products of the basis through the portable GEMM ([`super::matmul`]).
/// One GEMM of `n² b` per block; the Krylov basis converges like Chebyshev polynomials of the
/// spectrum, much faster than plain subspace iteration when eigenvalues are close. For matrices
/// whose top eigenvalues are the largest in magnitude (PSD Gram and covariance matrices); for
/// indefinite matrices use [`super::eigh_descending`].
///
/// # Errors
/// [`Error::InvalidParam`] for `k` outside `1..=n`; [`Error::ShapeMismatch`] / non-symmetric
/// input; [`Error::Linalg`] from the small dense solves.
pub fn eigsh_top<F: Float>(
    a: &ArrayRef2<F>,
    k: usize,
    tol: F,
    max_iter: usize,
    seed: u64,
) -> Result<TopEigen<F>> {
    check_symmetric(a, "eigsh_top")?;
    let n = a.nrows();
    check_k(k, n)?;
    check_finite_2d(a, "matrix")?;
    eigsh_top_op(n, |q| Ok(a.dot(q)), k, tol, max_iter, seed)
}

/// [`eigsh_top`] for a symmetric operator given by its block product `apply(Q) = A Q` (`n × b`
/// in, `n × b` out): the same restarted block Krylov iteration, the same start block for a
/// seed, without the matrix (a sparse product, a factorised inverse: see
/// [`eigsh_smallest_psd`]). When `n` is too small for a Krylov basis of two blocks, `A` is
/// formed as `apply(I)` and solved densely.
///
/// # Errors
/// [`Error::InvalidParam`] for `k` outside `1..=n`; the errors of `apply`; [`Error::Linalg`]
/// from the small dense solves.
pub fn eigsh_top_op<F: Float, G>(
    n: usize,
    apply: G,
    k: usize,
    tol: F,
    max_iter: usize,
    seed: u64,
) -> Result<TopEigen<F>>
where
    G: FnMut(&Array2<F>) -> Result<Array2<F>>,
{
    eigsh_top_op_shaped(n, apply, k, tol, max_iter, seed, KrylovShape::DEFAULT)
}

/// Block size and basis length of [`eigsh_top_op_shaped`]: blocks of `k + extra` columns, a
/// basis of `max(blocks · b, min_cols)` columns before each restart.
#[derive(Debug, Clone, Copy)]
pub(super) struct KrylovShape {
    pub(super) extra: usize,
    pub(super) blocks: usize,
    pub(super) min_cols: usize,
}

impl KrylovShape {
    /// [`eigsh_top_op`]'s: blocks of `k + 10`, eight blocks (at least 160 columns).
    pub(super) const DEFAULT: Self = Self {
        extra: 10,
        blocks: 8,
        min_cols: 160,
    };
    /// For a shift-invert operator, whose wanted eigenvalues stand apart: blocks of `k + 6`,
    /// six blocks. On the digits kNN Laplacian (12 pairs) two restarts of 108 columns against
    /// two of 176: the same pairs to the tolerance, about a third less Krylov work (for 20
    /// pairs: 18 block solves against 16, no slower).
    pub(super) const SHIFT_INVERT: Self = Self {
        extra: 6,
        blocks: 6,
        min_cols: 0,
    };
}

/// [`eigsh_top_op`] with a chosen [`KrylovShape`].
pub(super) fn eigsh_top_op_shaped<F: Float, G>(
    n: usize,
    mut apply: G,
    k: usize,
    tol: F,
    max_iter: usize,
    seed: u64,
    shape: KrylovShape,
) -> Result<TopEigen<F>>
where
    G: FnMut(&Array2<F>) -> Result<Array2<F>>,
{
    check_k(k, n)?;
    let b = (k + shape.extra).min(n);
    let max_cols = (shape.blocks * b).max(shape.min_cols).min(n);
    if 2 * b > max_cols {
        // room for one block only (n < 2b): a Krylov basis cannot grow, so solve densely
        let a = apply(&Array2::eye(n))?;
        let a = (&a + &a.t()) * F::cast(0.5);
        let (w, v) = super::eigh_descending(&a)?;
        return Ok(TopEigen {
            values: w.slice(s![..k]).to_owned(),
            vectors: v.slice(s![.., ..k]).to_owned(),
            n_iter: 0,
            converged: true,
        });
    }
    let mut rng = stream(seed, 0);
    let omega: Array2<F> = Array2::from_shape_fn((n, b), |_| standard_normal(&mut rng));
    let mut start = orthonormal_basis(&omega)?;
    let mut products = 0usize;
    loop {
        // Krylov basis and its products
        let mut basis: Vec<Array2<F>> = vec![start];
        let mut images: Vec<Array2<F>> = Vec::new();
        let mut cols = b;
        loop {
            let last = basis
                .last()
                .map_or_else(|| Array2::zeros((n, 0)), Clone::clone);
            let y = apply(&last)?;
            products += 1;
            images.push(y.clone());
            if cols + b > max_cols || products >= max_iter {
                break;
            }
            let mut y = y;
            for _ in 0..2 {
                for q in &basis {
                    let c = super::matmul(&q.t(), &y);
                    super::gemm(-F::one(), q, &c, F::one(), &mut y);
                }
            }
            // a (nearly) invariant subspace leaves y tiny: its Q factor can then lean on the
            // basis, so orthogonalise the orthonormal block once more
            let mut next = orthonormal_basis(&y)?;
            for q in &basis {
                let c = super::matmul(&q.t(), &next);
                super::gemm(-F::one(), q, &c, F::one(), &mut next);
            }
            let next = orthonormal_basis(&next)?;
            basis.push(next);
            cols += b;
        }
        let (theta, xs, converged, full) = rayleigh_ritz(&basis, &images, n, k, b, tol)?;
        if converged || products >= max_iter || full {
            return Ok(TopEigen {
                values: theta.slice(s![..k]).to_owned(),
                vectors: xs.slice(s![.., ..k]).to_owned(),
                n_iter: products,
                converged: converged || full,
            });
        }
        start = orthonormal_basis(&xs)?;
    }
}

/// Rayleigh–Ritz on the Krylov basis `Q` (blocks) and its image `A Q`: the Ritz values
/// (descending), the first `b` Ritz vectors, whether the top `k` residuals `‖A x − θ x‖` are
/// at most `tol · max|θ|`, and whether the basis spans the whole space.
#[allow(clippy::type_complexity)]
fn rayleigh_ritz<F: Float>(
    basis: &[Array2<F>],
    images: &[Array2<F>],
    n: usize,
    k: usize,
    b: usize,
    tol: F,
) -> Result<(Array1<F>, Array2<F>, bool, bool)> {
    let views: Vec<_> = basis.iter().map(|q| q.view()).collect();
    let q = ndarray::concatenate(ndarray::Axis(1), &views)
        .map_err(|e| Error::invalid_param("eigsh_top_op", e.to_string()))?;
    let iviews: Vec<_> = images.iter().map(|q| q.view()).collect();
    let aq = ndarray::concatenate(ndarray::Axis(1), &iviews)
        .map_err(|e| Error::invalid_param("eigsh_top_op", e.to_string()))?;
    let h = super::matmul(&q.t(), &aq);
    let h = (&h + &h.t()) * F::cast(0.5);
    let (theta, sv) = super::eigh_descending(&h)?;
    let xs = super::matmul(&q, &sv.slice(s![.., ..b.min(sv.ncols())]));
    let ys = super::matmul(&aq, &sv.slice(s![.., ..b.min(sv.ncols())]));
    let scale = theta.iter().fold(F::zero(), |m, &v| m.max(v.abs()));
    let mut converged = true;
    for i in 0..k {
        let mut r = F::zero();
        for row in 0..n {
            let e = ys[[row, i]] - theta[i] * xs[[row, i]];
            r += e * e;
        }
        if r.sqrt() > tol * scale {
            converged = false;
            break;
        }
    }
    let full = q.ncols() >= n;
    Ok((theta, xs, converged, full))
}

/// Result of [`eigsh_smallest_psd`].
#[derive(Debug, Clone)]
pub struct SmallestEigen<F: Float> {
    /// The `k` smallest eigenvalues, ascending.
    pub values: Array1<F>,
    /// Their orthonormal eigenvectors as columns (`n × k`).
    pub vectors: Array2<F>,
    /// Largest residual `‖A v − λ v‖` over the `k` pairs, measured on `A` itself.
    pub max_residual: F,
    /// Block solves with the factor.
    pub n_iter: usize,
    /// Whether the Krylov iteration met its tolerance within `max_iter` solves.
    pub converged: bool,
}

/// The `k` smallest eigenpairs of a symmetric positive semi-definite matrix by shift-invert:
/// one Cholesky factorisation of `A + σI` (`σ > 0`, so the factor exists even for singular `A`
/// such as a graph Laplacian), then the block Krylov iteration of [`eigsh_top_op`] on
/// `(A + σI)⁻¹`, whose largest eigenvalues `θ = 1 / (λ + σ)` are `A`'s smallest, spread apart
/// (Ericsson & Ruhe, "The spectral transformation Lanczos method", Math. Comp. 35, 1980).
/// The eigenvalues are the Rayleigh quotients `vᵀ A v` of the converged vectors, and every
/// residual is measured on `A`.
///
/// Cost: `n³ / 3` for the factor (BLAS-3, against `4 n³ / 3` at half BLAS-2 speed for the
/// tridiagonal reduction of a dense eigensolver) plus `2 n² b` per block solve; the Krylov
/// iteration typically needs a few tens of block solves when `σ` lies well below the gap after
/// the `k`-th eigenvalue.
///
/// # Errors
/// [`Error::InvalidParam`] for `k` outside `1..=n` or `σ ≤ 0`; [`Error::ShapeMismatch`] /
/// non-symmetric input; [`Error::NonFinite`]; [`Error::Linalg`] when `A + σI` is not positive
/// definite (`A` not PSD) or a small dense solve fails.
pub fn eigsh_smallest_psd<F: Float>(
    a: &ArrayRef2<F>,
    k: usize,
    sigma: F,
    tol: F,
    max_iter: usize,
    seed: u64,
) -> Result<SmallestEigen<F>> {
    check_symmetric(a, "eigsh_smallest_psd")?;
    check_finite_2d(a, "matrix")?;
    let n = a.nrows();
    check_k(k, n)?;
    check_shift(sigma)?;
    let mut shifted = a.to_owned();
    for i in 0..n {
        shifted[[i, i]] += sigma;
    }
    let factor = super::CholeskyFactor::from_symmetric(shifted)?;
    let top = eigsh_top_op(n, |q| factor.solve_many(q), k, tol, max_iter, seed)?;
    let av = super::matmul(a, &top.vectors);
    Ok(smallest_from_top(top, &av))
}

/// The shift-invert shift `σ` must be positive and finite.
pub(super) fn check_shift<F: Float>(sigma: F) -> Result<()> {
    if sigma > F::zero() && sigma.is_finite() {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "sigma",
            format!("must be positive and finite, got {sigma}"),
        ))
    }
}

/// The smallest pairs from the top pairs of `(A + σI)⁻¹` (vectors `V`) and `A V`: each
/// eigenvalue the Rayleigh quotient `vᵀ A v`, each residual `‖A v − λ v‖` on `A` itself.
pub(super) fn smallest_from_top<F: Float>(top: TopEigen<F>, av: &Array2<F>) -> SmallestEigen<F> {
    let vectors = top.vectors;
    let k = vectors.ncols();
    let mut values = Array1::zeros(k);
    let mut max_residual = F::zero();
    for j in 0..k {
        let (v, w) = (vectors.column(j), av.column(j));
        let lambda = v.dot(&w);
        values[j] = lambda;
        let r = v
            .iter()
            .zip(w)
            .fold(F::zero(), |acc, (&vi, &wi)| {
                acc + (wi - lambda * vi).powi(2)
            })
            .sqrt();
        max_residual = max_residual.max(r);
    }
    SmallestEigen {
        values,
        vectors,
        max_residual,
        n_iter: top.n_iter,
        converged: top.converged,
    }
}
