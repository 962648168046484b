//! Matrix products: a portable GEMM split over rayon, or the linked BLAS (decision 0029).
//!
//! ndlearn links the system OpenBLAS for LAPACK. Its level-3 kernels are chosen at load time
//! from the CPU it recognises; Debian's 0.3.21 does not recognise recent CPUs and falls back
//! to its oldest x86-64 kernels (Prescott, SSE3), about a third of the machine's rate. The
//! portable path runs matrixmultiply's kernels, selected at run time from the CPU's features
//! (AVX2 + FMA where present), on blocks of `C` computed in parallel by rayon:
//!
//! - **Deterministic.** A block boundary never changes an element's arithmetic (each element
//!   of `C` is accumulated over `k` in the same order whichever block holds it; boundaries fall
//!   on multiples of 32 rows or columns, so the kernel's tiles are the same too), so the result
//!   is bitwise the same for any number of threads. Products with a small `C` and a long `k`
//!   (Gram matrices `XᵀX` of tall data) are split along `k` into fixed chunks of
//!   [`K_CHUNK`] whose partial products are added in chunk order, also independent of threads.
//! - **One thread pool.** The work runs on the caller's rayon pool, so `with_threads` and the
//!   estimators' `n_threads` bound it, and it never competes with a second pool of BLAS threads.
//!
//! `NDLEARN_GEMM=blas` routes the same calls to the linked BLAS (`?gemm` through ndarray) for
//! comparison; [`gemm_backend`] reports the choice.

use std::sync::OnceLock;

use ndarray::{Array2, ArrayRef2, ArrayView2, ArrayViewMut2, Axis, s};
use rayon::prelude::*;

use crate::Float;

/// Which implementation computes the matrix products of [`gemm`], [`matmul`] and [`gram`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GemmBackend {
    /// matrixmultiply's kernels (runtime CPU detection), split over rayon: the default.
    Portable,
    /// The linked BLAS library's `?gemm` (ndarray's `general_mat_mul`).
    Blas,
}

impl GemmBackend {
    /// Short name for reports ("portable" or "blas").
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Blas => "blas",
        }
    }
}

/// The backend chosen for this process: [`GemmBackend::Blas`] when the environment variable
/// `NDLEARN_GEMM` is `blas` at the first call, [`GemmBackend::Portable`] otherwise.
pub fn gemm_backend() -> GemmBackend {
    static BACKEND: OnceLock<GemmBackend> = OnceLock::new();
    *BACKEND.get_or_init(|| match std::env::var("NDLEARN_GEMM") {
        Ok(v) if v.trim().eq_ignore_ascii_case("blas") => GemmBackend::Blas,
        _ => GemmBackend::Portable,
    })
}

/// Length of the fixed `k` chunks of a product with a small `C` and a long inner dimension.
pub const K_CHUNK: usize = 8192;
/// Below this many multiply-adds (`m·n·k`) a product runs as one block in the calling thread.
/// Splitting smaller ones lost more to waking rayon's workers than it gained: an MLP's
/// mini-batch products (200 × 50 × 100) split from 2¹⁸ took its fit from 3.2 to 5.5 s.
const PARALLEL_MIN_WORK: usize = 1 << 21;
/// From this many multiply-adds on, `C` is cut into about four blocks per thread (load
/// balance); below it, one block per thread (a mini-batch's products).
const MANY_BLOCKS_WORK: usize = 1 << 23;
/// `C` with at most this many elements and `k ≥ 2·K_CHUNK` is split along `k`.
const SMALL_C: usize = 256 * 256;
/// Block boundaries fall on multiples of this many rows or columns (a multiple of every
/// kernel tile size), so the tiles are the same for every split.
const ALIGN: usize = 32;

/// `C ← α A B + β C` (`A` m × k, `B` k × n, `C` m × n; any strides) with the process's
/// backend. With `β = 0`, `C` is overwritten and its old values are never read.
///
/// # Panics
/// If the shapes do not agree, as ndarray's `general_mat_mul`.
///
/// ```
/// use ndlearn_core::linalg::gemm;
/// use ndlearn_core::ndarray::array;
///
/// let a = array![[1.0, 2.0], [3.0, 4.0]];
/// let b = array![[1.0], [1.0]];
/// let mut c = array![[10.0], [20.0]];
/// gemm(2.0, &a, &b, 1.0, &mut c);
/// assert_eq!(c, array![[16.0], [34.0]]);
/// ```
pub fn gemm<F: Float>(alpha: F, a: &ArrayRef2<F>, b: &ArrayRef2<F>, beta: F, c: &mut ArrayRef2<F>) {
    gemm_with(gemm_backend(), alpha, a, b, beta, c);
}

/// [`gemm`] with an explicit backend.
///
/// # Panics
/// If the shapes do not agree.
pub fn gemm_with<F: Float>(
    backend: GemmBackend,
    alpha: F,
    a: &ArrayRef2<F>,
    b: &ArrayRef2<F>,
    beta: F,
    c: &mut ArrayRef2<F>,
) {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert!(
        k == k2 && c.dim() == (m, n),
        "gemm: shapes {:?} × {:?} → {:?} do not agree",
        a.dim(),
        b.dim(),
        c.dim()
    );
    match backend {
        GemmBackend::Blas => ndarray::linalg::general_mat_mul(alpha, a, b, beta, c),
        GemmBackend::Portable => portable(alpha, a.view(), b.view(), beta, c.view_mut()),
    }
}

/// The product `A B` (m × k times k × n) as a new array, with the process's backend.
///
/// # Panics
/// If the inner dimensions differ.
///
/// ```
/// use ndlearn_core::linalg::matmul;
/// use ndlearn_core::ndarray::array;
///
/// let a = array![[1.0, 2.0], [3.0, 4.0]];
/// assert_eq!(matmul(&a, &a.t()), array![[5.0, 11.0], [11.0, 25.0]]);
/// ```
pub fn matmul<F: Float>(a: &ArrayRef2<F>, b: &ArrayRef2<F>) -> Array2<F> {
    matmul_with(gemm_backend(), a, b)
}

/// [`matmul`] with an explicit backend.
///
/// # Panics
/// If the inner dimensions differ.
pub fn matmul_with<F: Float>(
    backend: GemmBackend,
    a: &ArrayRef2<F>,
    b: &ArrayRef2<F>,
) -> Array2<F> {
    let mut c = Array2::zeros((a.nrows(), b.ncols()));
    gemm_with(backend, F::one(), a, b, F::zero(), &mut c);
    c
}

/// The Gram matrix `XᵀX` (d × d for `X` n × d) with the process's backend, exactly symmetric
/// (averaged with its transpose by [`crate::stats::symmetrize`]).
///
/// ```
/// use ndlearn_core::linalg::gram;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
/// assert_eq!(gram(&x), array![[35.0, 44.0], [44.0, 56.0]]);
/// ```
pub fn gram<F: Float>(x: &ArrayRef2<F>) -> Array2<F> {
    gram_with(gemm_backend(), x)
}

/// [`gram`] with an explicit backend.
pub fn gram_with<F: Float>(backend: GemmBackend, x: &ArrayRef2<F>) -> Array2<F> {
    let mut g = matmul_with(backend, &x.t(), x);
    crate::stats::symmetrize(&mut g);
    g
}

/// The portable path: one block, row or column blocks over rayon, or fixed `k` chunks.
fn portable<F: Float>(
    alpha: F,
    a: ArrayView2<'_, F>,
    b: ArrayView2<'_, F>,
    beta: F,
    mut c: ArrayViewMut2<'_, F>,
) {
    let ((m, k), n) = (a.dim(), b.ncols());
    let work = m.saturating_mul(n).saturating_mul(k);
    // The k split depends on the shape only (never on the thread count): its sums are
    // grouped differently from one block's.
    if m * n <= SMALL_C && k >= 2 * K_CHUNK {
        k_chunks(alpha, a, b, beta, c);
        return;
    }
    let threads = rayon::current_num_threads();
    if threads <= 1 || work < PARALLEL_MIN_WORK {
        block(alpha, a, b, beta, c);
        return;
    }
    // Blocks along the longer side of C, aligned to ALIGN.
    let axis = if m >= n { Axis(0) } else { Axis(1) };
    let len = m.max(n);
    let per_thread = if work >= MANY_BLOCKS_WORK { 4 } else { 1 };
    let per = len.div_ceil(per_thread * threads).div_ceil(ALIGN).max(1) * ALIGN;
    let blocks: Vec<_> = c.axis_chunks_iter_mut(axis, per).enumerate().collect();
    blocks.into_par_iter().for_each(|(i, cb)| {
        let start = i * per;
        let end = start + cb.len_of(axis);
        if axis == Axis(0) {
            block(alpha, a.slice(s![start..end, ..]), b, beta, cb);
        } else {
            block(alpha, a, b.slice(s![.., start..end]), beta, cb);
        }
    });
}

/// Chunks whose partial products are held at once (a fixed number, so the memory is bounded
/// by `K_BATCH` copies of `C` and the summation order does not depend on the thread count).
const K_BATCH: usize = 16;

/// `C ← α Σ_chunks A_c B_c + β C` with `k` cut into chunks of [`K_CHUNK`], computed in
/// parallel in batches of [`K_BATCH`] and added in chunk order.
fn k_chunks<F: Float>(
    alpha: F,
    a: ArrayView2<'_, F>,
    b: ArrayView2<'_, F>,
    beta: F,
    mut c: ArrayViewMut2<'_, F>,
) {
    let k = a.ncols();
    let n_chunks = k.div_ceil(K_CHUNK);
    let mut total = Array2::zeros(c.dim());
    for first in (0..n_chunks).step_by(K_BATCH) {
        let partials: Vec<Array2<F>> = (first..(first + K_BATCH).min(n_chunks))
            .into_par_iter()
            .map(|i| {
                let r = i * K_CHUNK..((i + 1) * K_CHUNK).min(k);
                let mut p = Array2::zeros(c.dim());
                block(
                    F::one(),
                    a.slice(s![.., r.clone()]),
                    b.slice(s![r, ..]),
                    F::zero(),
                    p.view_mut(),
                );
                p
            })
            .collect();
        for p in &partials {
            total += p;
        }
    }
    if beta == F::zero() {
        c.zip_mut_with(&total, |ci, &t| *ci = alpha * t);
    } else {
        c.zip_mut_with(&total, |ci, &t| *ci = alpha * t + beta * *ci);
    }
}

/// One block in the calling thread.
fn block<F: Float>(
    alpha: F,
    a: ArrayView2<'_, F>,
    b: ArrayView2<'_, F>,
    beta: F,
    c: ArrayViewMut2<'_, F>,
) {
    let agreed = F::gemm_block(alpha, a, b, beta, c);
    debug_assert!(agreed, "gemm block shapes checked by the caller");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{par, random};
    use ndarray::Array2;

    fn gaussian(n: usize, d: usize, seed: u64) -> Array2<f64> {
        let mut rng = random::rng(seed);
        Array2::from_shape_fn((n, d), |_| random::standard_normal(&mut rng))
    }

    fn naive(a: &Array2<f64>, b: &Array2<f64>) -> Array2<f64> {
        let (m, k, n) = (a.nrows(), a.ncols(), b.ncols());
        Array2::from_shape_fn((m, n), |(i, j)| (0..k).map(|l| a[[i, l]] * b[[l, j]]).sum())
    }

    fn max_rel(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
        let scale = b.iter().fold(1.0_f64, |s, v| s.max(v.abs()));
        a.iter()
            .zip(b)
            .fold(0.0_f64, |m, (x, y)| m.max((x - y).abs()))
            / scale
    }

    #[test]
    fn agrees_with_naive_and_blas_on_every_path() {
        // one block, row blocks, column blocks, k chunks; strided and transposed views
        for &(m, k, n) in &[
            (3, 4, 5),
            (700, 60, 90),
            (40, 80, 900),
            (8, 2 * K_CHUNK + 17, 6),
            // more chunks than one batch
            (3, (K_BATCH + 1) * K_CHUNK + 3, 2),
        ] {
            let a = gaussian(m, k, 1);
            let b = gaussian(k, n, 2);
            let want = naive(&a, &b);
            let got = matmul_with(GemmBackend::Portable, &a, &b);
            // k terms of size O(1): rounding grows like √k · ε at most k · ε
            assert!(max_rel(&got, &want) < 1e-13 * k as f64, "{m}×{k}×{n}");
            let blas = matmul_with(GemmBackend::Blas, &a, &b);
            assert!(max_rel(&got, &blas) < 1e-13 * k as f64);
            // transposed operands (column-major views)
            let at = a.t().to_owned();
            let bt = b.t().to_owned();
            let got_t = matmul_with(GemmBackend::Portable, &at.t(), &bt.t());
            assert_eq!(got_t, got, "transposed views give the same products");
        }
        // α, β and a strided C
        let a = gaussian(130, 70, 3);
        let b = gaussian(70, 50, 4);
        let c0 = gaussian(130, 100, 5);
        let mut c = c0.clone();
        gemm_with(
            GemmBackend::Portable,
            0.5,
            &a,
            &b,
            -2.0,
            &mut c.slice_mut(s![.., ..;2]),
        );
        let want = naive(&a, &b) * 0.5 - &c0.slice(s![.., ..;2]) * 2.0;
        assert!(max_rel(&c.slice(s![.., ..;2]).to_owned(), &want) < 1e-12);
        assert_eq!(c.slice(s![.., 1..;2]), c0.slice(s![.., 1..;2]));
    }

    #[test]
    fn beta_zero_overwrites_nan() {
        let a = gaussian(300, 200, 6);
        let b = gaussian(200, 300, 7);
        let mut c = Array2::from_elem((300, 300), f64::NAN);
        gemm_with(GemmBackend::Portable, 1.0, &a, &b, 0.0, &mut c);
        assert!(c.iter().all(|v| v.is_finite()));
        let mut c = Array2::from_elem((4, 3), f64::NAN);
        let (a, b) = (gaussian(4, 2 * K_CHUNK, 8), gaussian(2 * K_CHUNK, 3, 9));
        gemm_with(GemmBackend::Portable, 1.0, &a, &b, 0.0, &mut c);
        assert!(c.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn same_bits_for_any_thread_count() {
        let cases = [
            (gaussian(1000, 70, 10), gaussian(70, 300, 11)),
            (gaussian(90, 120, 12), gaussian(120, 1500, 13)),
            (
                gaussian(20, (K_BATCH + 2) * K_CHUNK + 5, 14),
                gaussian((K_BATCH + 2) * K_CHUNK + 5, 30, 15),
            ),
        ];
        for (a, b) in &cases {
            let one =
                par::with_threads(1, || matmul_with(GemmBackend::Portable, a, b)).expect("pool");
            for t in [2, 3, 7] {
                let many = par::with_threads(t, || matmul_with(GemmBackend::Portable, a, b))
                    .expect("pool");
                assert_eq!(one, many, "{t} threads");
            }
        }
    }

    #[test]
    fn gram_is_symmetric_and_matches_the_product() {
        let x = gaussian(3 * K_CHUNK, 40, 16);
        let g = gram_with(GemmBackend::Portable, &x);
        assert_eq!(g, g.t());
        let want = naive(&x.t().to_owned(), &x);
        assert!(max_rel(&g, &want) < 1e-13 * x.nrows() as f64);
        let x32 = x.mapv(|v| v as f32);
        let g32 = gram_with(GemmBackend::Portable, &x32);
        let rel = g32
            .iter()
            .zip(&g)
            .fold(0.0_f64, |m, (a, b)| m.max((f64::from(*a) - b).abs()))
            / g.iter().fold(1.0_f64, |s, v| s.max(v.abs()));
        assert!(rel < 1e-6 * (x.nrows() as f64).sqrt(), "{rel}");
    }
}
