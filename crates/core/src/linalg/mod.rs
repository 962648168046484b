//! The linear-algebra facade: the only module of ndlearn that touches `ndarray-linalg`.
//!
//! Every function takes `&ArrayRef2<F>` (any owned array or view), checks shapes and finiteness
//! first (LAPACK given NaN can loop or return garbage; given a wrong shape, `ndarray-linalg`
//! panics), and maps LAPACK failures to [`Error::Linalg`] naming the operation and what failed.
//! The hot matrix products of the estimators go through [`gemm`], [`matmul`] and [`gram`]: a
//! portable GEMM split over rayon, deterministic for any thread count, or the linked BLAS with
//! `NDLEARN_GEMM=blas` (decision 0029); other products use ndarray's `dot` (BLAS gemm).
//!
//! | function | LAPACK / BLAS | notes |
//! |---|---|---|
//! | [`solve`], [`solve_many`], [`inv`] | `getrf`/`getrs` | LU with partial pivoting |
//! | [`cholesky`], [`CholeskyFactor`], [`cholesky_solve`], [`logdet_spd`] | `potrf`, `trtrs` | lower factor `A = L Lᵀ` |
//! | [`qr`], [`lstsq_qr`] | `geqrf`/`orgqr`, `trtrs` | thin QR; full column rank required |
//! | [`lstsq`], [`pinv`], [`matrix_rank`], [`null_space`] | `gesdd` | minimum-norm, `rcond` cut-off |
//! | [`svd_full`], [`svd_thin`], [`svd_right`], [`svd_truncated`], [`singular_values`] | `gesvd` / `gesdd` | singular values descending |
//! | [`randomized_svd`] | gemm + QR | Halko, Martinsson & Tropp (2011), Alg. 4.4 |
//! | [`eigh`], [`eigh_descending`], [`eigvalsh`], [`eigh_generalized`] | `syevd` / `sygv` | ascending unless stated |
//! | [`eigh_range`], [`eigh_largest`] | `syevr` (MRRR) | only the eigenpairs asked for; `O(n)` workspace |
//! | [`power_iteration`], [`rayleigh_quotient`] | gemv | top-k by deflation |
//! | [`eigsh_top`], [`eigsh_top_op`] | gemm / any block product | top-k by restarted block Krylov |
//! | [`eigsh_smallest_psd`] | `potrf` + `potrs` | bottom-k of a PSD matrix by shift-invert block Krylov |
//! | [`gemm`], [`matmul`], [`gram`] | matrixmultiply (or `?gemm`) | blocks of `C` over rayon; `XᵀX` exactly symmetric |
//! | [`pairwise_sq_euclidean`] | gemm | Gram trick `‖x‖² + ‖y‖² − 2xᵀy`, clamped at 0 |
//! | [`gram_schmidt`], [`projection_matrix`], [`residual_maker`], [`project_onto`] | BLAS-1/3 | modified Gram–Schmidt; hat matrix `UUᵀ` |
//!
//! Tolerances follow numpy: rank and pseudo-inverse cut singular values below
//! `rcond · σ_max` with default `rcond = max(m, n) · ε`.

mod blas_threads;
mod distance;
mod gemm;
mod iterative;
mod projection;
pub mod sparse;

pub use blas_threads::{SingleThreadedBlas, blas_num_threads};
pub use distance::{pairwise_sq_euclidean, pairwise_sq_euclidean_self, row_sq_norms};
pub use gemm::{
    GemmBackend, K_CHUNK, gemm, gemm_backend, gemm_with, gram, gram_with, matmul, matmul_with,
};
pub use iterative::{
    PowerIteration, RandomizedSvdOptions, SmallestEigen, TopEigen, eigsh_smallest_psd, eigsh_top,
    eigsh_top_op, power_iteration, randomized_svd, randomized_svd_centred, rayleigh_quotient,
};
mod refine;
pub use projection::{gram_schmidt, project_onto, projection_matrix, residual_maker};
pub use refine::{MIXED_PRECISION_MIN_ORDER, RefinedSolution, SpdSolvePath, solve_spd_refined};
pub use sparse::{SparseCholesky, SymmetricCsr, eigsh_smallest_psd_sparse};

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, s};
use ndarray_linalg::error::LinalgError;
use ndarray_linalg::{
    Diag, EigValsh, Eigh, Factorize, Inverse, JobSvd, QR, SVD, SVDDC, Solve, SolveTriangular, UPLO,
};

use crate::validate::check_finite_2d;
use crate::{Error, Float, LinalgErrorKind, Result};

/// Translates an `ndarray-linalg` error. `on_failure` is what a LAPACK computational failure
/// (positive `info`) means for this operation.
fn map_err(op: &'static str, on_failure: LinalgErrorKind) -> impl FnOnce(LinalgError) -> Error {
    move |e| {
        let kind = match &e {
            LinalgError::NotSquare { .. } => LinalgErrorKind::NotSquare,
            LinalgError::Lapack(lax::error::Error::LapackComputationalFailure { .. }) => on_failure,
            _ => LinalgErrorKind::Backend,
        };
        Error::Linalg {
            op,
            kind,
            detail: Some(e.to_string()),
        }
    }
}

#[inline]
fn lv<F: Float>(a: &ArrayRef2<F>) -> ArrayView2<'_, F::Lapack> {
    F::view_lapack(a.view())
}

fn check_nonempty<F: Float>(a: &ArrayRef2<F>, op: &'static str) -> Result<()> {
    if a.is_empty() {
        return Err(Error::TooFewSamples {
            context: op,
            needed: 1,
            found: 0,
        });
    }
    Ok(())
}

fn check_square<F: Float>(a: &ArrayRef2<F>, op: &'static str) -> Result<()> {
    check_nonempty(a, op)?;
    if a.nrows() != a.ncols() {
        return Err(Error::Linalg {
            op,
            kind: LinalgErrorKind::NotSquare,
            detail: Some(format!("shape {}x{}", a.nrows(), a.ncols())),
        });
    }
    check_finite_2d(a, "matrix")
}

/// Errors unless `a` is symmetric to `1e-8 · max|aᵢⱼ|` (LAPACK would silently read one triangle).
///
/// Compares the triangles tile by tile (16 × 16) so that the transposed reads stay in cache: the
/// check costs a few percent of a Cholesky factorisation even at n = 64.
fn check_symmetric<F: Float>(a: &ArrayRef2<F>, op: &'static str) -> Result<()> {
    check_square(a, op)?;
    let n = a.nrows();
    let standard = a.as_standard_layout();
    let s = standard.as_slice().unwrap_or(&[]);
    if s.len() != n * n {
        return Ok(()); // unreachable: a standard-layout square matrix is contiguous
    }
    let tol = F::cast(1e-8) * crate::validate::max_abs(s);
    const TILE: usize = 16;
    // block-rows in parallel for large matrices (a memory-bound pass over n² entries); the
    // first offending pair in row order is reported whatever the thread count
    let block_row = |rows: std::ops::Range<usize>| -> Option<(usize, usize)> {
        for bi in rows.step_by(TILE) {
            for bj in (bi..n).step_by(TILE) {
                for i in bi..(bi + TILE).min(n) {
                    for j in bj.max(i + 1)..(bj + TILE).min(n) {
                        if (s[i * n + j] - s[j * n + i]).abs() > tol {
                            return Some((i, j));
                        }
                    }
                }
            }
        }
        None
    };
    let first = if n >= 512 {
        crate::par::map_chunks(n, 4 * TILE, block_row)
            .into_iter()
            .flatten()
            .min()
    } else {
        block_row(0..n)
    };
    match first {
        Some((i, j)) => {
            let (u, l) = (s[i * n + j], s[j * n + i]);
            Err(Error::invalid_param(
                "matrix",
                format!(
                    "{op} needs a symmetric matrix; entries ({i},{j}) and ({j},{i}) differ: {u} vs {l}"
                ),
            ))
        }
        None => Ok(()),
    }
}

fn check_rhs_len(n: usize, len: usize, op: &'static str) -> Result<()> {
    if n != len {
        return Err(Error::ShapeMismatch {
            context: op,
            expected: format!("right-hand side with {n} rows"),
            found: format!("{len} rows"),
        });
    }
    Ok(())
}

fn check_finite_1d_rhs<F: Float>(b: &ArrayRef1<F>) -> Result<()> {
    crate::validate::check_finite_1d(b, "right-hand side")
}

/// Size above which LU factorisations run on a helper thread with a large stack.
///
/// OpenBLAS 0.3.21 (Debian 12's) switches `getrf` to its parallel path around n ≈ 100 and then
/// uses several MiB of the *calling* thread's stack; on a 2 MiB thread (test threads, rayon
/// workers) that is a segfault. Other LAPACK drivers used here (potrf, syevd, sygv, gesdd, gesvd,
/// geqrf) are not affected (`tests/linalg_threads.rs`).
const LU_BIG_STACK_N: usize = 64;
const LU_STACK_BYTES: usize = 64 << 20;

/// Runs `f` on a scoped thread with a 64 MiB stack when `n > LU_BIG_STACK_N`, else in place.
/// Errors (`Linalg`/`Backend`) only when the OS refuses to create the thread.
fn lu_guard<T: Send>(op: &'static str, n: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    if n <= LU_BIG_STACK_N {
        return Ok(f());
    }
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("ndlearn-lu".into())
            .stack_size(LU_STACK_BYTES)
            .spawn_scoped(scope, f)
            .map_err(|e| Error::Linalg {
                op,
                kind: LinalgErrorKind::Backend,
                detail: Some(format!("cannot start the LU helper thread: {e}")),
            })?;
        match handle.join() {
            Ok(v) => Ok(v),
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// Default relative cut-off for singular values: `max(m, n) · ε`.
pub fn default_rcond<F: Float>(m: usize, n: usize) -> F {
    F::cast(m.max(n)) * F::epsilon()
}

// ---------------------------------------------------------------------------------------------
// Linear systems

/// Solves `A x = b` for square `A` (LU with partial pivoting).
///
/// Errors: [`LinalgErrorKind::Singular`] when `A` is exactly singular.
pub fn solve<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Result<Array1<F>> {
    check_square(a, "solve")?;
    check_rhs_len(a.nrows(), b.len(), "solve")?;
    check_finite_1d_rhs(b)?;
    let x = lu_guard("solve", a.nrows(), || {
        lv(a).solve(&F::view_lapack(b.view()))
    })?
    .map_err(map_err("solve", LinalgErrorKind::Singular))?;
    Ok(F::from_lapack(x))
}

/// Solves `A X = B` for every column of `B`, factorising `A` once.
pub fn solve_many<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef2<F>) -> Result<Array2<F>> {
    check_square(a, "solve_many")?;
    check_rhs_len(a.nrows(), b.nrows(), "solve_many")?;
    check_finite_2d(b, "right-hand side")?;
    let lu = lu_guard("solve_many", a.nrows(), || lv(a).factorize())?
        .map_err(map_err("solve_many", LinalgErrorKind::Singular))?;
    let mut out = Array2::zeros(b.raw_dim());
    for (j, col) in b.columns().into_iter().enumerate() {
        let bl = F::view_lapack(col);
        let x = lu
            .solve(&bl)
            .map_err(map_err("solve_many", LinalgErrorKind::Singular))?;
        out.column_mut(j).assign(&F::from_lapack(x));
    }
    Ok(out)
}

/// Inverse of a square matrix. Prefer [`solve`] / [`CholeskyFactor`] where you can.
pub fn inv<F: Float>(a: &ArrayRef2<F>) -> Result<Array2<F>> {
    check_square(a, "inv")?;
    let x = lu_guard("inv", a.nrows(), || lv(a).inv())?
        .map_err(map_err("inv", LinalgErrorKind::Singular))?;
    Ok(F::from_lapack(x))
}

// ---------------------------------------------------------------------------------------------
// Cholesky

/// Lower Cholesky factor `L` of a symmetric positive-definite `A = L Lᵀ`.
///
/// Errors: [`LinalgErrorKind::NotPositiveDefinite`].
pub fn cholesky<F: Float>(a: &ArrayRef2<F>) -> Result<Array2<F>> {
    Ok(CholeskyFactor::new(a)?.l)
}

/// A Cholesky factorisation kept for repeated solves.
///
/// Factorised by LAPACK's `?potrf` and solved by `?potrs` directly on the row-major buffer
/// (its lower triangle is LAPACK's column-major upper one), so neither the matrix nor the
/// factor is ever transposed or copied for a solve (decision 0022).
#[derive(Debug, Clone)]
pub struct CholeskyFactor<F: Float> {
    l: Array2<F>,
}

/// `a` as a standard-layout (row-major) buffer, moved without a copy when it already is one.
fn into_row_major<F: Float>(a: Array2<F>) -> Vec<F> {
    let len = a.len();
    if !a.is_standard_layout() {
        return a.iter().copied().collect();
    }
    // a standard-layout array is one contiguous run from its first element (at `offset` in
    // the buffer of an array sliced in place)
    let (mut v, offset) = a.into_raw_vec_and_offset();
    let o = offset.unwrap_or(0);
    if o != 0 || v.len() != len {
        v.drain(..o);
        v.truncate(len);
    }
    v
}

impl<F: Float> CholeskyFactor<F> {
    /// Factorises a symmetric positive-definite matrix.
    pub fn new(a: &ArrayRef2<F>) -> Result<Self> {
        check_symmetric(a, "cholesky")?;
        Self::from_symmetric(a.to_owned())
    }

    /// Factorises a symmetric positive-definite matrix, taking ownership (no copy when `a` is
    /// in standard layout). The caller vouches for symmetry and finiteness: only the lower
    /// triangle is read.
    pub(crate) fn from_symmetric(a: Array2<F>) -> Result<Self> {
        let n = a.nrows();
        let mut buf = into_row_major(a);
        F::potrf(&mut buf, n).map_err(|info| Error::Linalg {
            op: "cholesky",
            kind: if info > 0 {
                LinalgErrorKind::NotPositiveDefinite
            } else {
                LinalgErrorKind::Backend
            },
            detail: Some(if info > 0 {
                format!("the leading minor of order {info} is not positive definite")
            } else {
                format!("?potrf argument {} rejected", -info)
            }),
        })?;
        // the strict upper triangle still holds A's entries: clear it so that `l()` is L
        for i in 0..n {
            buf[i * n + i + 1..(i + 1) * n].fill(F::zero());
        }
        let l = Array2::from_shape_vec((n, n), buf).map_err(|e| Error::Linalg {
            op: "cholesky",
            kind: LinalgErrorKind::Backend,
            detail: Some(e.to_string()),
        })?;
        Ok(Self { l })
    }

    /// The lower factor `L`.
    pub fn l(&self) -> &Array2<F> {
        &self.l
    }

    /// Solves `A x = b` by two triangular solves.
    pub fn solve(&self, b: &ArrayRef1<F>) -> Result<Array1<F>> {
        check_rhs_len(self.l.nrows(), b.len(), "cholesky_solve")?;
        check_finite_1d_rhs(b)?;
        let mut x: Vec<F> = b.iter().copied().collect();
        self.potrs(&mut x, 1)?;
        Ok(Array1::from(x))
    }

    /// Solves `A X = B` for every column of `B`.
    pub fn solve_many(&self, b: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_rhs_len(self.l.nrows(), b.nrows(), "cholesky_solve")?;
        check_finite_2d(b, "right-hand side")?;
        let (n, k) = b.dim();
        // column-major right-hand sides for LAPACK: Bᵀ in row-major order
        let mut x: Vec<F> = b.t().as_standard_layout().iter().copied().collect();
        self.potrs(&mut x, k)?;
        Ok(Array2::from_shape_fn((n, k), |(i, j)| x[j * n + i]))
    }

    /// `?potrs` on column-major right-hand sides.
    fn potrs(&self, b: &mut [F], nrhs: usize) -> Result<()> {
        let n = self.l.nrows();
        let factor = self
            .l
            .as_slice()
            .ok_or_else(|| Error::linalg("cholesky_solve", LinalgErrorKind::Backend))?;
        F::potrs(factor, n, b, nrhs).map_err(|info| Error::Linalg {
            op: "cholesky_solve",
            kind: LinalgErrorKind::Backend,
            detail: Some(format!("?potrs argument {} rejected", -info)),
        })
    }

    /// `ln det A = 2 Σᵢ ln Lᵢᵢ`.
    pub fn logdet(&self) -> F {
        self.l.diag().iter().map(|d| d.ln()).sum::<F>() * F::cast(2.0)
    }

    /// `A⁻¹ = L⁻ᵀ L⁻¹`.
    pub fn inverse(&self) -> Result<Array2<F>> {
        let n = self.l.nrows();
        self.solve_many(&Array2::eye(n))
    }
}

/// Solves `A x = b` for symmetric positive-definite `A` by Cholesky.
pub fn cholesky_solve<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Result<Array1<F>> {
    CholeskyFactor::new(a)?.solve(b)
}

/// `ln det A` of a symmetric positive-definite matrix, by Cholesky (never forms `det A`, which
/// under- or overflows for moderate sizes).
pub fn logdet_spd<F: Float>(a: &ArrayRef2<F>) -> Result<F> {
    Ok(CholeskyFactor::new(a)?.logdet())
}

/// `true` when `A` is symmetric and its Cholesky factorisation succeeds.
pub fn is_positive_definite<F: Float>(a: &ArrayRef2<F>) -> Result<bool> {
    check_square(a, "is_positive_definite")?;
    if check_symmetric(a, "is_positive_definite").is_err() {
        return Ok(false);
    }
    match CholeskyFactor::new(a) {
        Ok(_) => Ok(true),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// `true` when `A` is symmetric and `λ_min ≥ −tol`, with default
/// `tol = n · ε · max|λ|`.
pub fn is_positive_semidefinite<F: Float>(a: &ArrayRef2<F>, tol: Option<F>) -> Result<bool> {
    check_square(a, "is_positive_semidefinite")?;
    if check_symmetric(a, "is_positive_semidefinite").is_err() {
        return Ok(false);
    }
    let w = eigvalsh(a)?;
    let max_abs = w.iter().fold(F::zero(), |m, v| m.max(v.abs()));
    let tol = tol.unwrap_or_else(|| F::cast(a.nrows()) * F::epsilon() * max_abs);
    Ok(w[0] >= -tol)
}

// ---------------------------------------------------------------------------------------------
// QR and least squares

/// Thin QR: `A = Q R` with `Q` (`m × k`, orthonormal columns) and `R` (`k × n`, upper
/// triangular), `k = min(m, n)`.
pub fn qr<F: Float>(a: &ArrayRef2<F>) -> Result<(Array2<F>, Array2<F>)> {
    check_nonempty(a, "qr")?;
    check_finite_2d(a, "matrix")?;
    let (q, r) = lv(a)
        .qr()
        .map_err(map_err("qr", LinalgErrorKind::Backend))?;
    Ok((F::from_lapack(q), F::from_lapack(r)))
}

/// Least squares `min ‖A x − b‖` by thin QR, for `A` of full column rank (`m ≥ n`).
///
/// Faster than [`lstsq`] and as accurate for well-conditioned problems. Errors with
/// [`LinalgErrorKind::Singular`] when a diagonal entry of `R` is below `max(m,n) · ε · max|Rᵢᵢ|`
/// (rank-deficient `A`: use [`lstsq`] for the minimum-norm solution).
pub fn lstsq_qr<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef1<F>) -> Result<Array1<F>> {
    let (m, n) = a.dim();
    check_rhs_len(m, b.len(), "lstsq_qr")?;
    check_finite_1d_rhs(b)?;
    if m < n {
        return Err(Error::ShapeMismatch {
            context: "lstsq_qr",
            expected: "at least as many rows as columns".into(),
            found: format!("{m}x{n}"),
        });
    }
    let (q, r) = qr(a)?;
    let dmax = r.diag().iter().fold(F::zero(), |mx, v| mx.max(v.abs()));
    let tol = default_rcond::<F>(m, n) * dmax;
    if let Some(i) = r.diag().iter().position(|v| v.abs() <= tol) {
        return Err(Error::Linalg {
            op: "lstsq_qr",
            kind: LinalgErrorKind::Singular,
            detail: Some(format!(
                "column {i} is (numerically) a combination of the others; use lstsq for the minimum-norm solution"
            )),
        });
    }
    let qtb = q.t().dot(b).insert_axis(Axis(1));
    let x = lv(&r)
        .solve_triangular(UPLO::Upper, Diag::NonUnit, &F::into_lapack(qtb))
        .map_err(map_err("lstsq_qr", LinalgErrorKind::Singular))?;
    Ok(F::from_lapack(x).index_axis_move(Axis(1), 0))
}

/// Result of [`lstsq`].
#[derive(Debug, Clone)]
pub struct Lstsq<F: Float> {
    /// The minimum-norm least-squares solution.
    pub solution: Array1<F>,
    /// Effective rank of `A` (singular values above the cut-off).
    pub rank: usize,
    /// Singular values of `A`, descending.
    pub singular_values: Array1<F>,
    /// Residual sum of squares `‖A x − b‖²`.
    pub residual_ss: F,
}

/// Minimum-norm least squares `min ‖A x − b‖` by thin SVD (works for any shape and rank).
///
/// Singular values below `rcond · σ_max` are treated as zero; default `rcond = max(m,n) · ε`
/// (numpy's `lstsq(rcond=None)`).
pub fn lstsq<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef1<F>, rcond: Option<F>) -> Result<Lstsq<F>> {
    let (m, n) = a.dim();
    check_rhs_len(m, b.len(), "lstsq")?;
    check_finite_1d_rhs(b)?;
    let svd = svd_thin(a)?;
    let cut = rcond.unwrap_or_else(|| default_rcond(m, n)) * svd.s[0];
    let rank = svd.s.iter().filter(|&&v| v > cut).count();
    let utb = svd.u.slice(s![.., ..rank]).t().dot(b);
    let scaled = &utb / &svd.s.slice(s![..rank]);
    let solution = svd.vt.slice(s![..rank, ..]).t().dot(&scaled);
    let resid = a.dot(&solution) - b;
    let residual_ss = resid.dot(&resid);
    Ok(Lstsq {
        solution,
        rank,
        singular_values: svd.s,
        residual_ss,
    })
}

// ---------------------------------------------------------------------------------------------
// SVD

/// A singular value decomposition `A = U diag(s) Vᵀ`, singular values descending.
#[derive(Debug, Clone)]
pub struct Svd<F: Float> {
    /// Left singular vectors as columns.
    pub u: Array2<F>,
    /// Singular values, descending, non-negative.
    pub s: Array1<F>,
    /// Right singular vectors as rows.
    pub vt: Array2<F>,
}

impl<F: Float> Svd<F> {
    /// `U diag(s) Vᵀ`.
    pub fn reconstruct(&self) -> Array2<F> {
        let k = self.s.len();
        let us = &self.u.slice(s![.., ..k]) * &self.s;
        us.dot(&self.vt.slice(s![..k, ..]))
    }

    /// Makes the signs deterministic, as scikit-learn's `svd_flip`: with `u_based`, the entry of
    /// largest magnitude in each column of `U` becomes positive; otherwise the entry of largest
    /// magnitude in each row of `Vᵀ`. The paired vector is flipped with it, so `U diag(s) Vᵀ` is
    /// unchanged.
    pub fn flip_signs(&mut self, u_based: bool) {
        let k = self.s.len().min(self.u.ncols()).min(self.vt.nrows());
        for j in 0..k {
            let lead = if u_based {
                largest_abs(self.u.column(j).iter().copied())
            } else {
                largest_abs(self.vt.row(j).iter().copied())
            };
            if lead < F::zero() {
                self.u.column_mut(j).mapv_inplace(|v| -v);
                self.vt.row_mut(j).mapv_inplace(|v| -v);
            }
        }
    }
}

/// The entry of largest magnitude (the first one on ties).
fn largest_abs<F: Float>(it: impl Iterator<Item = F>) -> F {
    it.fold(
        F::zero(),
        |best, v| if v.abs() > best.abs() { v } else { best },
    )
}

/// Full SVD: `U` is `m × m`, `Vᵀ` is `n × n`.
pub fn svd_full<F: Float>(a: &ArrayRef2<F>) -> Result<Svd<F>> {
    check_nonempty(a, "svd_full")?;
    check_finite_2d(a, "matrix")?;
    let (u, s, vt) = lv(a)
        .svd(true, true)
        .map_err(map_err("svd_full", LinalgErrorKind::NoConvergence))?;
    svd_from_parts("svd_full", u, s, vt)
}

fn svd_from_parts<F: Float>(
    op: &'static str,
    u: Option<Array2<F::Lapack>>,
    s: Array1<F::Lapack>,
    vt: Option<Array2<F::Lapack>>,
) -> Result<Svd<F>> {
    match (u, vt) {
        (Some(u), Some(vt)) => Ok(Svd {
            u: F::from_lapack(u),
            s: F::from_lapack(s),
            vt: F::from_lapack(vt),
        }),
        _ => Err(Error::Linalg {
            op,
            kind: LinalgErrorKind::Backend,
            detail: Some("LAPACK returned no singular vectors".into()),
        }),
    }
}

/// Thin SVD (divide and conquer, `gesdd`): `U` is `m × k`, `Vᵀ` is `k × n`, `k = min(m, n)`.
pub fn svd_thin<F: Float>(a: &ArrayRef2<F>) -> Result<Svd<F>> {
    check_nonempty(a, "svd_thin")?;
    check_finite_2d(a, "matrix")?;
    let (u, s, vt) = lv(a)
        .svddc(JobSvd::Some)
        .map_err(map_err("svd_thin", LinalgErrorKind::NoConvergence))?;
    svd_from_parts("svd_thin", u, s, vt)
}

/// Singular values and right singular vectors only, `(s, Vᵀ)` with `Vᵀ` of `k × n`,
/// `k = min(m, n)` (`gesvd` without `U`: for tall matrices LAPACK reduces `A` to its `n × n`
/// triangular factor first, `2mn² + O(n³)` flops, far cheaper than [`svd_thin`] when `m ≫ n`).
/// The same decomposition as [`svd_thin`] up to the signs of the singular vectors.
pub fn svd_right<F: Float>(a: &ArrayRef2<F>) -> Result<(Array1<F>, Array2<F>)> {
    check_nonempty(a, "svd_right")?;
    check_finite_2d(a, "matrix")?;
    let (_, s, vt) = lv(a)
        .svd(false, true)
        .map_err(map_err("svd_right", LinalgErrorKind::NoConvergence))?;
    let Some(vt) = vt else {
        return Err(Error::Linalg {
            op: "svd_right",
            kind: LinalgErrorKind::Backend,
            detail: Some("LAPACK returned no right singular vectors".into()),
        });
    };
    let k = a.nrows().min(a.ncols());
    let vt = F::from_lapack(vt);
    Ok((F::from_lapack(s), vt.slice(s![..k, ..]).to_owned()))
}

/// Singular values only, descending.
pub fn singular_values<F: Float>(a: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_nonempty(a, "singular_values")?;
    check_finite_2d(a, "matrix")?;
    if a.nrows() == 1 || a.ncols() == 1 {
        // one singular value, the Euclidean norm (LAPACK's `?gesdd` without vectors rejects the
        // empty vector outputs of a 1 × 1 matrix); scaled so that it neither overflows nor
        // underflows
        let scale = a.iter().fold(F::zero(), |m, v| m.max(v.abs()));
        if scale == F::zero() {
            return Ok(Array1::zeros(1));
        }
        let ss = a.iter().map(|&v| (v / scale) * (v / scale)).sum::<F>();
        return Ok(Array1::from_elem(1, scale * ss.sqrt()));
    }
    let (_, s, _) = lv(a)
        .svddc(JobSvd::None)
        .map_err(map_err("singular_values", LinalgErrorKind::NoConvergence))?;
    Ok(F::from_lapack(s))
}

/// The top `k` singular triplets (exact: thin SVD, then truncation). For large matrices and
/// small `k` use [`randomized_svd`].
///
/// By Eckart–Young, `U_k diag(s_k) V_kᵀ` is the best rank-`k` approximation in Frobenius and
/// spectral norm.
pub fn svd_truncated<F: Float>(a: &ArrayRef2<F>, k: usize) -> Result<Svd<F>> {
    let kmax = a.nrows().min(a.ncols());
    if k == 0 || k > kmax {
        return Err(Error::invalid_param(
            "k",
            format!("must lie in 1..={kmax} (min of the matrix dimensions), got {k}"),
        ));
    }
    let full = svd_thin(a)?;
    Ok(Svd {
        u: full.u.slice(s![.., ..k]).to_owned(),
        s: full.s.slice(s![..k]).to_owned(),
        vt: full.vt.slice(s![..k, ..]).to_owned(),
    })
}

/// Moore–Penrose pseudo-inverse `A⁺ = V diag(1/σ) Uᵀ` over the singular values above
/// `rcond · σ_max` (default `rcond = max(m,n) · ε`).
pub fn pinv<F: Float>(a: &ArrayRef2<F>, rcond: Option<F>) -> Result<Array2<F>> {
    let (m, n) = a.dim();
    let svd = svd_thin(a)?;
    let cut = rcond.unwrap_or_else(|| default_rcond(m, n)) * svd.s[0];
    let r = svd.s.iter().filter(|&&v| v > cut).count();
    let inv_s = svd.s.slice(s![..r]).mapv(|v| F::one() / v);
    let v_scaled = &svd.vt.slice(s![..r, ..]).t() * &inv_s;
    Ok(v_scaled.dot(&svd.u.slice(s![.., ..r]).t()))
}

/// Numerical rank: the number of singular values above `tol` (absolute); default
/// `tol = σ_max · max(m,n) · ε` (numpy's `matrix_rank`).
pub fn matrix_rank<F: Float>(a: &ArrayRef2<F>, tol: Option<F>) -> Result<usize> {
    let (m, n) = a.dim();
    let s = singular_values(a)?;
    let tol = tol.unwrap_or_else(|| s[0] * default_rcond(m, n));
    Ok(s.iter().filter(|&&v| v > tol).count())
}

/// Orthonormal basis of the null space `{x : A x = 0}` as columns (`n × nullity`), from the full
/// SVD; singular values at or below `rcond · σ_max` count as zero (default `max(m,n) · ε`).
pub fn null_space<F: Float>(a: &ArrayRef2<F>, rcond: Option<F>) -> Result<Array2<F>> {
    let (m, n) = a.dim();
    let svd = svd_full(a)?;
    let cut = rcond.unwrap_or_else(|| default_rcond(m, n)) * svd.s[0];
    let r = svd.s.iter().filter(|&&v| v > cut).count();
    Ok(svd.vt.slice(s![r.., ..]).t().to_owned())
}

// ---------------------------------------------------------------------------------------------
// Symmetric eigenproblems

/// Eigen-decomposition of a symmetric matrix: eigenvalues **ascending** and orthonormal
/// eigenvectors as columns (`A V = V diag(w)`), as numpy's `eigh`.
///
/// Errors when `A` is not symmetric (to `1e-8 · max|A|`), rather than reading one triangle.
pub fn eigh<F: Float>(a: &ArrayRef2<F>) -> Result<(Array1<F>, Array2<F>)> {
    check_symmetric(a, "eigh")?;
    let n = a.nrows();
    // LAPACK's divide and conquer (`?syevd`) on the row-major buffer read as column-major:
    // its upper triangle is `a`'s lower one, the triangle `?syev` read before
    let buf: Vec<F> = a.as_standard_layout().iter().copied().collect();
    if let Some((w, v)) = F::syevd(buf, n) {
        let v = Array2::from_shape_vec(ndarray::ShapeBuilder::f((n, n)), v)
            .map_err(|_| Error::linalg("eigh", LinalgErrorKind::Backend))?;
        return Ok((Array1::from(w), v));
    }
    let (w, v) = lv(a)
        .eigh(UPLO::Lower)
        .map_err(map_err("eigh", LinalgErrorKind::NoConvergence))?;
    Ok((F::from_lapack(w), F::from_lapack(v)))
}

/// [`eigh`] with eigenvalues **descending** (largest first, as PCA wants them).
pub fn eigh_descending<F: Float>(a: &ArrayRef2<F>) -> Result<(Array1<F>, Array2<F>)> {
    let (w, v) = eigh(a)?;
    let n = w.len();
    let w_desc = Array1::from_shape_fn(n, |i| w[n - 1 - i]);
    let v_desc = Array2::from_shape_fn(v.dim(), |(r, c)| v[[r, n - 1 - c]]);
    Ok((w_desc, v_desc))
}

/// Eigenpairs `range` (0-based positions in **ascending** order: `0..k` the `k` smallest,
/// `n − k..n` the `k` largest) of a symmetric matrix: eigenvalues ascending and orthonormal
/// eigenvectors as the columns of an `n × m` matrix.
///
/// LAPACK's MRRR driver `?syevr` computes only the eigenvectors asked for: after the shared
/// tridiagonal reduction (`4n³/3` flops) the vectors cost `O(n m)` and their back-transformation
/// `2n²m`, against `?syevd`'s `O(n³)` for all of them; its workspace is `O(n)` where `?syevd`'s
/// is `1 + 6n + 2n²` values. Eigenvectors of a cluster of close eigenvalues are only determined
/// as a subspace (as with [`eigh`]). The full range is [`eigh`] itself.
///
/// ```
/// use ndarray::{Array2, array};
/// use ndlearn_core::linalg::eigh_range;
/// let a: Array2<f64> = array![[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 5.0]];
/// let (w, v) = eigh_range(&a, 1..3)?; // the two largest: 3 and 5
/// assert!((w[0] - 3.0).abs() < 1e-12 && (w[1] - 5.0).abs() < 1e-12);
/// assert_eq!(v.dim(), (3, 2));
/// assert!((v[[2, 1]].abs() - 1.0).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn eigh_range<F: Float>(
    a: &ArrayRef2<F>,
    range: std::ops::Range<usize>,
) -> Result<(Array1<F>, Array2<F>)> {
    check_symmetric(a, "eigh_range")?;
    let n = a.nrows();
    if range.start >= range.end || range.end > n {
        return Err(Error::invalid_param(
            "range",
            format!(
                "must be a non-empty range within 0..{n}, got {}..{}",
                range.start, range.end
            ),
        ));
    }
    if range.start == 0 && range.end == n {
        return eigh(a);
    }
    let m = range.end - range.start;
    // row-major buffer read as column-major: LAPACK's upper triangle is `a`'s lower one
    let mut buf: Vec<F> = a.as_standard_layout().iter().copied().collect();
    if let Some((w, z)) = F::syevr(&mut buf, n, range.start + 1, range.end) {
        drop(buf);
        let v = Array2::from_shape_vec(ndarray::ShapeBuilder::f((n, m)), z)
            .map_err(|_| Error::linalg("eigh_range", LinalgErrorKind::Backend))?;
        return Ok((Array1::from(w), v));
    }
    // MRRR failed to converge (rare): the full divide and conquer, then the range
    drop(buf);
    let (w, v) = eigh(a)?;
    Ok((
        w.slice(s![range.clone()]).to_owned(),
        v.slice(s![.., range]).to_owned(),
    ))
}

/// [`Error::InvalidParam`] unless `1 ≤ k ≤ n` (the number of eigenpairs asked of an `n × n`
/// problem).
pub(crate) fn check_k(k: usize, n: usize) -> Result<()> {
    if k == 0 || k > n {
        return Err(Error::invalid_param(
            "k",
            format!("must lie in 1..={n}, got {k}"),
        ));
    }
    Ok(())
}

/// The `k` largest eigenpairs of a symmetric matrix, **descending** (largest first), by
/// [`eigh_range`]: eigenvectors as the columns of an `n × k` matrix.
pub fn eigh_largest<F: Float>(a: &ArrayRef2<F>, k: usize) -> Result<(Array1<F>, Array2<F>)> {
    let n = a.nrows();
    check_k(k, n)?;
    let (w, v) = eigh_range(a, n - k..n)?;
    let w_desc = Array1::from_shape_fn(k, |i| w[k - 1 - i]);
    let v_desc = Array2::from_shape_fn((n, k), |(r, c)| v[[r, k - 1 - c]]);
    Ok((w_desc, v_desc))
}

/// Eigenvalues of a symmetric matrix, ascending.
pub fn eigvalsh<F: Float>(a: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_symmetric(a, "eigvalsh")?;
    let w = lv(a)
        .eigvalsh(UPLO::Lower)
        .map_err(map_err("eigvalsh", LinalgErrorKind::NoConvergence))?;
    Ok(F::from_lapack(w))
}

/// Generalized symmetric-definite eigenproblem `A v = λ B v` (`A` symmetric, `B` symmetric
/// positive definite): eigenvalues ascending, eigenvectors as columns normalised so that
/// `Vᵀ B V = I` (scipy's `eigh(a, b)` convention).
pub fn eigh_generalized<F: Float>(
    a: &ArrayRef2<F>,
    b: &ArrayRef2<F>,
) -> Result<(Array1<F>, Array2<F>)> {
    check_symmetric(a, "eigh_generalized")?;
    check_symmetric(b, "eigh_generalized")?;
    if a.dim() != b.dim() {
        return Err(Error::ShapeMismatch {
            context: "eigh_generalized",
            expected: format!("B of shape {:?} (as A)", a.dim()),
            found: format!("{:?}", b.dim()),
        });
    }
    let pair = (lv(a), lv(b));
    let (w, (v, _)) = pair.eigh(UPLO::Lower).map_err(map_err(
        "eigh_generalized",
        LinalgErrorKind::NotPositiveDefinite,
    ))?;
    Ok((F::from_lapack(w), F::from_lapack(v)))
}

#[cfg(test)]
mod tests;
