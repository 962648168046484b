//! Property tests of the linalg facade and stats (few cases: CI has 2 cores).
//!
//! Reconstruction of SVD / eigen / QR / Cholesky, the four Penrose conditions of pinv, distance
//! matrices symmetric with zero diagonal, 1 thread == N threads bitwise, f32 close to f64.

use ndarray::Array2;
use ndlearn_core::{linalg, par, stats};
use ndlearn_testkit::{
    any_matrix, assert_bitwise_eq, config, max_abs_diff, spd_matrix, symmetric_matrix,
    well_conditioned_matrix,
};
use proptest::prelude::*;

fn frob(a: &Array2<f64>) -> f64 {
    a.iter().map(|v| v * v).sum::<f64>().sqrt()
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn svd_reconstructs(a in any_matrix(1..12, 1..12, 10.0)) {
        let svd = linalg::svd_thin(&a).expect("finite input");
        let scale = frob(&a).max(1.0);
        prop_assert!(max_abs_diff(&svd.reconstruct(), &a) <= 1e-12 * scale);
        // Orthonormal singular vectors, descending non-negative values.
        let k = svd.s.len();
        prop_assert!(max_abs_diff(&svd.u.t().dot(&svd.u), &Array2::eye(k)) < 1e-12);
        prop_assert!(max_abs_diff(&svd.vt.dot(&svd.vt.t()), &Array2::eye(k)) < 1e-12);
        prop_assert!(svd.s.windows(2).into_iter().all(|w| w[0] >= w[1] && w[1] >= 0.0));
        let mut flipped = svd.clone();
        flipped.flip_signs(false);
        prop_assert!(max_abs_diff(&flipped.reconstruct(), &a) <= 1e-12 * scale);
    }

    #[test]
    fn eigh_reconstructs(a in symmetric_matrix(1..10)) {
        let (w, v) = linalg::eigh(&a).expect("symmetric");
        let recon = (&v * &w).dot(&v.t());
        prop_assert!(max_abs_diff(&recon, &a) <= 1e-12 * frob(&a).max(1.0));
        prop_assert!(w.windows(2).into_iter().all(|p| p[0] <= p[1]));
        prop_assert!(max_abs_diff(&v.t().dot(&v), &Array2::eye(a.nrows())) < 1e-12);
    }

    #[test]
    fn qr_and_cholesky_reconstruct(a in well_conditioned_matrix(3..10, 1..4), s in spd_matrix(1..9)) {
        let (q, r) = linalg::qr(&a).expect("finite");
        prop_assert!(max_abs_diff(&q.dot(&r), &a) < 1e-12 * frob(&a).max(1.0));
        prop_assert!(max_abs_diff(&q.t().dot(&q), &Array2::eye(q.ncols())) < 1e-12);
        for i in 0..r.nrows() { for j in 0..i.min(r.ncols()) { prop_assert!(r[[i, j]] == 0.0); } }
        let l = linalg::cholesky(&s).expect("SPD");
        prop_assert!(max_abs_diff(&l.dot(&l.t()), &s) < 1e-12 * frob(&s).max(1.0));
        prop_assert!(linalg::is_positive_definite(&s).expect("square"));
    }

    #[test]
    fn pinv_penrose_conditions(a in any_matrix(1..9, 1..9, 5.0)) {
        let p = linalg::pinv(&a, None).expect("finite");
        let tol = 1e-10 * frob(&a).max(1.0).powi(2);
        let ap = a.dot(&p);
        let pa = p.dot(&a);
        prop_assert!(max_abs_diff(&ap.dot(&a), &a) < tol);          // A A⁺ A = A
        prop_assert!(max_abs_diff(&pa.dot(&p), &p) < tol * frob(&p).max(1.0)); // A⁺ A A⁺ = A⁺
        prop_assert!(max_abs_diff(&ap, &ap.t().to_owned()) < tol);  // (A A⁺)ᵀ = A A⁺
        prop_assert!(max_abs_diff(&pa, &pa.t().to_owned()) < tol);  // (A⁺ A)ᵀ = A⁺ A
    }

    #[test]
    fn distances_symmetric_zero_diagonal(x in any_matrix(1..30, 1..6, 3.0)) {
        let d = linalg::pairwise_sq_euclidean_self(&x);
        prop_assert!(d.diag().iter().all(|&v| v == 0.0));
        prop_assert!(d == d.t());
        prop_assert!(d.iter().all(|&v| v >= 0.0));
        let g = linalg::pairwise_sq_euclidean(&x, &x).expect("same d");
        prop_assert!(g.iter().all(|&v| v >= 0.0));
        prop_assert!(max_abs_diff(&g, &d) < 1e-10 * (1.0 + d.iter().fold(0.0f64, |m, v| m.max(*v))));
        // Direct definition on one pair.
        let direct: f64 = (&x.row(0) - &x.row(x.nrows() - 1)).mapv(|v| v * v).sum();
        prop_assert!((d[[0, x.nrows() - 1]] - direct).abs() < 1e-10 * (1.0 + direct));
    }

    #[test]
    fn f32_close_to_f64(a in spd_matrix(2..8)) {
        let a32 = a.mapv(|v| v as f32);
        let w64 = linalg::eigvalsh(&a).expect("symmetric");
        let w32 = linalg::eigvalsh(&a32).expect("symmetric");
        let wmax = w64.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (x, y) in w32.iter().zip(w64.iter()) {
            prop_assert!((f64::from(*x) - y).abs() < 1e-4 * wmax);
        }
        let c64 = stats::covariance(&a, 1).expect("rows");
        let c32 = stats::covariance(&a32, 1).expect("rows");
        let cmax = c64.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        prop_assert!(c32.iter().zip(c64.iter()).all(|(x, y)| (f64::from(*x) - y).abs() < 1e-4 * cmax.max(1.0)));
    }
}

#[test]
fn parallel_reductions_are_thread_count_invariant() {
    let x = Array2::from_shape_fn((10_000, 7), |(i, j)| {
        ((i * 7 + j) as f64 * 0.001).sin() * 1e3
    });
    let run = |t| {
        par::with_threads(t, || {
            let sums = par::map_row_chunks(&x, par::DEFAULT_CHUNK, |_, v| v.sum());
            let total = sums.into_iter().fold(0.0f64, |a, b| a + b);
            let norms = par::map_row_chunks(&x, 100, |_, v| linalg::row_sq_norms(&v));
            (
                total,
                ndarray::concatenate(
                    ndarray::Axis(0),
                    &norms.iter().map(|n| n.view()).collect::<Vec<_>>(),
                )
                .expect("same dims"),
            )
        })
        .expect("pool")
    };
    let (t1, n1) = run(1);
    let (t2, n2) = run(2);
    let (t4, n4) = run(4);
    assert_eq!(t1.to_bits(), t2.to_bits());
    assert_eq!(t1.to_bits(), t4.to_bits());
    assert_bitwise_eq(&n1, &n2, "row norms 1 vs 2 threads");
    assert_bitwise_eq(&n1, &n4, "row norms 1 vs 4 threads");
}
