//! Symmetric positive-definite solves in mixed precision: a single-precision Cholesky
//! factorisation, refined to a double-precision solution (LAPACK's `dsposv` scheme; decision
//! 0022).
//!
//! For `A x = b` with `A` symmetric positive definite, the `n³/3` flops of the factorisation
//! dominate. Factorised in `f32` they run about twice as fast (twice the SIMD lanes, half the
//! memory traffic). The refinement loop
//!
//! ```text
//! x₀ = solve₃₂(b);   rₖ = b − A xₖ (in f64);   xₖ₊₁ = xₖ + solve₃₂(rₖ)
//! ```
//!
//! contracts the error by about `κ(A)·ε₃₂` per step, so for `κ(A) ≲ 10⁶` a few steps of `O(n²)`
//! reach the residual test of a double-precision solver: `‖rₖ‖_∞ ≤ ‖xₖ‖_∞ · ‖A‖_∞ · ε₆₄ · √n`
//! (the test of `dsposv`), i.e. a solution as backward-stable as `dposv`'s. When the single
//! factorisation fails (not positive definite in `f32`, entries beyond `f32`'s range) or the
//! residual stops shrinking (ill-conditioned `A`), the solve falls back to the double-precision
//! factorisation, so the answer never depends on the shortcut working.

use ndarray::{Array2, ArrayRef2, Zip};

use crate::Result;
use crate::linalg::{CholeskyFactor, check_rhs_len, check_symmetric};
use crate::validate::check_finite_2d;

/// Below this order the double-precision factorisation is used directly: its cost is then
/// below the refinement's fixed costs (a copy and at least one residual).
pub const MIXED_PRECISION_MIN_ORDER: usize = 256;

/// The most refinement steps before falling back (`dsposv`'s `ITERMAX`).
const MAX_STEPS: usize = 30;

/// How [`solve_spd_refined`] reached its solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpdSolvePath {
    /// Single-precision factor plus this many double-precision refinement steps (0: the first
    /// single-precision solution already passed the residual test).
    Mixed {
        /// Refinement steps taken.
        steps: usize,
    },
    /// Double-precision Cholesky (small order, or the mixed path did not converge).
    Double,
}

/// The solution of [`solve_spd_refined`] and how it was reached.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RefinedSolution {
    /// `X` with `A X = B` (`n × k`).
    pub x: Array2<f64>,
    /// Which path produced `x`.
    pub path: SpdSolvePath,
}

/// Solves `A X = B` for a symmetric positive-definite `A` in double precision by a
/// single-precision Cholesky factorisation and iterative refinement (see the
/// [`linalg` module docs](crate::linalg)); falls back to a double-precision factorisation whenever the shortcut
/// does not converge.
///
/// ```
/// use ndarray::array;
/// use ndlearn_core::linalg::{solve_spd_refined, SpdSolvePath};
///
/// let n = 300;
/// let a = ndarray::Array2::from_shape_fn((n, n), |(i, j)| {
///     if i == j { 4.0 } else { 1.0 / (1.0 + (i as f64 - j as f64).abs()) }
/// });
/// let b = ndarray::Array2::from_shape_fn((n, 1), |(i, _)| (i as f64).sin());
/// let sol = solve_spd_refined(&a, &b)?;
/// let r = &b - &a.dot(&sol.x);
/// assert!(r.iter().all(|v| v.abs() < 1e-12));
/// assert!(matches!(sol.path, SpdSolvePath::Mixed { .. }));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// Empty, non-square, non-finite or non-symmetric `A`; `B` of the wrong row count or
/// non-finite; [`crate::LinalgErrorKind::NotPositiveDefinite`] when the double-precision
/// factorisation fails too.
pub fn solve_spd_refined(a: &ArrayRef2<f64>, b: &ArrayRef2<f64>) -> Result<RefinedSolution> {
    check_symmetric(a, "solve_spd_refined")?;
    let n = a.nrows();
    check_rhs_len(n, b.nrows(), "solve_spd_refined")?;
    check_finite_2d(b, "right-hand side")?;
    if n >= MIXED_PRECISION_MIN_ORDER
        && let Some((x, steps)) = mixed(a, b)
    {
        return Ok(RefinedSolution {
            x,
            path: SpdSolvePath::Mixed { steps },
        });
    }
    let x = CholeskyFactor::from_symmetric(a.to_owned())?.solve_many(b)?;
    Ok(RefinedSolution {
        x,
        path: SpdSolvePath::Double,
    })
}

/// The mixed-precision attempt: `None` when it does not reach the residual test.
fn mixed(a: &ArrayRef2<f64>, b: &ArrayRef2<f64>) -> Option<(Array2<f64>, usize)> {
    let n = a.nrows();
    let k = b.ncols();
    if b.iter().any(|v| v.abs() > 1e300) {
        return None;
    }
    // one parallel pass over A: its f32 copy, ‖A‖_∞ (max row sum) for dsposv's tolerance,
    // and whether every entry fits f32's range
    let mut a32 = Array2::<f32>::zeros((n, n));
    let row_sums = std::sync::Mutex::new(vec![0.0f64; n]);
    let out_of_range = std::sync::atomic::AtomicBool::new(false);
    crate::par::for_each_row_chunk_mut(&mut a32, 64, |rows, mut block| {
        let mut sums = Vec::with_capacity(rows.len());
        for (i, mut out) in rows.clone().zip(block.rows_mut()) {
            let (mut sum, mut max) = (0.0f64, 0.0f64);
            for (o, &v) in out.iter_mut().zip(a.row(i)) {
                sum += v.abs();
                max = max.max(v.abs());
                *o = v as f32;
            }
            if max > f64::from(f32::MAX) {
                out_of_range.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            sums.push(sum);
        }
        if let Ok(mut all) = row_sums.lock() {
            all[rows].copy_from_slice(&sums);
        }
    });
    let row_sums = row_sums.into_inner().ok()?;
    let a_norm = row_sums.iter().fold(0.0f64, |m, &v| m.max(v));
    if !a_norm.is_finite() || out_of_range.into_inner() {
        return None;
    }
    let tol = a_norm * f64::EPSILON * (n as f64).sqrt();
    let factor = CholeskyFactor::<f32>::from_symmetric(a32).ok()?;
    // x and the residual column-major (k columns of n) as ?potrs wants them
    let solve32 = |r: &Array2<f64>| -> Option<Array2<f64>> {
        let mut buf: Vec<f32> = r.t().iter().map(|&v| v as f32).collect();
        if buf.iter().any(|v| !v.is_finite()) {
            return None;
        }
        factor.potrs(&mut buf, k).ok()?;
        Some(Array2::from_shape_fn((n, k), |(i, j)| {
            f64::from(buf[j * n + i])
        }))
    };
    let b = b.to_owned();
    let mut x = solve32(&b)?;
    let mut prev = f64::INFINITY;
    for step in 0..=MAX_STEPS {
        // r = b − A x, column by column (BLAS gemv in f64: a gemm with one column would pack
        // all of A first)
        let mut r = b.clone();
        for (mut rc, xc) in r.columns_mut().into_iter().zip(x.columns()) {
            ndarray::linalg::general_mat_vec_mul(-1.0, a, &xc, 1.0, &mut rc);
        }
        let mut worst = 0.0f64;
        let mut done = true;
        for (rc, xc) in r.columns().into_iter().zip(x.columns()) {
            let rn = rc.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let xn = xc.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let passes = rn <= xn * tol; // false for NaN
            if !passes {
                done = false;
            }
            worst = worst.max(rn / xn.max(f64::MIN_POSITIVE));
        }
        if done {
            return Some((x, step));
        }
        // a contraction factor above 1/2 means κ(A)·ε₃₂ is too large for refinement to pay
        let contracting = worst <= 0.5 * prev; // false for NaN
        if step == MAX_STEPS || !contracting {
            return None;
        }
        prev = worst;
        let d = solve32(&r)?;
        Zip::from(&mut x).and(&d).for_each(|xi, &di| *xi += di);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random;
    use ndarray::Array2;

    /// `G Gᵀ / d + shift·I`: SPD with condition number about `(n/d + shift) / shift`.
    fn spd(n: usize, shift: f64, seed: u64) -> Array2<f64> {
        let mut rng = random::rng(seed);
        let d = 20;
        let g = Array2::from_shape_fn((n, d), |_| random::standard_normal::<f64>(&mut rng));
        let mut a = g.dot(&g.t()) / d as f64;
        for i in 0..n {
            a[[i, i]] += shift;
        }
        // exact symmetry (the product's triangles can differ in the last bit)
        let at = a.t().to_owned();
        (&a + &at) / 2.0
    }

    fn rhs(n: usize, k: usize) -> Array2<f64> {
        Array2::from_shape_fn((n, k), |(i, j)| ((i * 7 + j * 3) as f64).sin())
    }

    fn backward_error(a: &Array2<f64>, x: &Array2<f64>, b: &Array2<f64>) -> f64 {
        let r = b - &a.dot(x);
        let a_norm = a
            .rows()
            .into_iter()
            .map(|r| r.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max);
        let rn = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let xn = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        rn / (a_norm * xn)
    }

    #[test]
    fn well_conditioned_systems_take_the_mixed_path_to_double_accuracy() {
        let n = 400;
        let a = spd(n, 1.0, 1);
        let b = rhs(n, 3);
        let sol = solve_spd_refined(&a, &b).expect("solve");
        assert!(
            matches!(sol.path, SpdSolvePath::Mixed { steps } if steps <= 6),
            "{:?}",
            sol.path
        );
        // dsposv's residual test, and the same solution as the double factorisation to κ·ε
        assert!(backward_error(&a, &sol.x, &b) <= f64::EPSILON * (n as f64).sqrt());
        let direct = CholeskyFactor::new(&a)
            .expect("factor")
            .solve_many(&b)
            .expect("solve");
        let diff = (&sol.x - &direct)
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let scale = direct.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(diff <= 1e-11 * scale, "{diff} vs {scale}");
    }

    #[test]
    fn ill_conditioned_systems_fall_back_to_the_double_factorisation() {
        let n = 300;
        // rank-20 part plus 1e-9·I: κ ≈ 1e10, far beyond what f32 refinement can fix
        let a = spd(n, 1e-9, 2);
        let b = rhs(n, 1);
        let sol = solve_spd_refined(&a, &b).expect("solve");
        assert_eq!(sol.path, SpdSolvePath::Double);
        assert!(backward_error(&a, &sol.x, &b) <= 1e3 * f64::EPSILON);
    }

    #[test]
    fn small_systems_use_the_double_factorisation() {
        let a = spd(50, 1.0, 3);
        let sol = solve_spd_refined(&a, &rhs(50, 2)).expect("solve");
        assert_eq!(sol.path, SpdSolvePath::Double);
    }

    #[test]
    fn indefinite_and_bad_input_are_typed_errors() {
        let mut a = spd(300, 1.0, 4);
        a[[5, 5]] = -1e3;
        assert!(matches!(
            solve_spd_refined(&a, &rhs(300, 1)),
            Err(crate::Error::Linalg {
                kind: crate::LinalgErrorKind::NotPositiveDefinite,
                ..
            })
        ));
        let a = spd(300, 1.0, 4);
        assert!(solve_spd_refined(&a, &rhs(299, 1)).is_err());
        let mut b = rhs(300, 1);
        b[[0, 0]] = f64::NAN;
        assert!(solve_spd_refined(&a, &b).is_err());
        let mut asym = a.clone();
        asym[[0, 1]] += 1.0;
        assert!(solve_spd_refined(&asym, &rhs(300, 1)).is_err());
    }
}
