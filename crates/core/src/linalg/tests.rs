//! Hand-checkable cases and error paths of the facade (golden comparisons against numpy/scipy
//! live in `tests/linalg_golden.rs`, invariants in `tests/properties.rs`).

use super::*;
use ndarray::array;

fn max_abs_diff(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    (a - b).iter().fold(0.0, |m, v| m.max(v.abs()))
}

#[test]
fn solve_and_inverse() {
    let a: Array2<f64> = array![[4.0, 1.0], [2.0, 3.0]];
    let x = solve(&a, &array![1.0, 2.0]).expect("regular");
    assert!((x[0] - 0.1).abs() < 1e-15 && (x[1] - 0.6).abs() < 1e-15);
    let ai = inv(&a).expect("regular");
    assert!(max_abs_diff(&a.dot(&ai), &Array2::eye(2)) < 1e-15);
    let xs = solve_many(&a, &array![[1.0, 4.0], [2.0, 2.0]]).expect("regular");
    assert!((xs[[0, 1]] - 1.0).abs() < 1e-15 && xs[[1, 1]].abs() < 1e-15);
    let singular: Array2<f64> = array![[1.0, 2.0], [2.0, 4.0]];
    assert!(matches!(
        solve(&singular, &array![1.0, 1.0]),
        Err(Error::Linalg {
            op: "solve",
            kind: LinalgErrorKind::Singular,
            ..
        })
    ));
    assert!(matches!(
        solve(&a, &array![1.0]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        solve(&array![[1.0, 2.0]], &array![1.0]),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotSquare,
            ..
        })
    ));
    assert!(matches!(
        solve(&array![[f64::NAN]], &array![1.0]),
        Err(Error::NonFinite { .. })
    ));
}

#[test]
fn cholesky_by_hand() {
    // A = L Lᵀ with L = [[2, 0], [1, 3]].
    let a: Array2<f64> = array![[4.0, 2.0], [2.0, 10.0]];
    let f = CholeskyFactor::new(&a).expect("SPD");
    assert_eq!(f.l(), &array![[2.0, 0.0], [1.0, 3.0]]);
    assert!((f.logdet() - 36.0f64.ln()).abs() < 1e-14);
    let x = f.solve(&array![6.0, 12.0]).expect("ok");
    assert!((x[0] - 1.0).abs() < 1e-14 && (x[1] - 1.0).abs() < 1e-14);
    assert!(max_abs_diff(&f.inverse().expect("ok").dot(&a), &Array2::eye(2)) < 1e-14);
    assert!(matches!(
        cholesky(&array![[1.0, 2.0], [2.0, 1.0]]),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        })
    ));
    assert!(matches!(
        cholesky(&array![[1.0, 2.0], [0.0, 1.0]]),
        Err(Error::InvalidParam { .. })
    ));
    assert_eq!(is_positive_definite(&a).ok(), Some(true));
    assert_eq!(
        is_positive_definite(&array![[1.0, 0.0], [0.0, 0.0]]).ok(),
        Some(false)
    );
    assert_eq!(
        is_positive_semidefinite(&array![[1.0, 0.0], [0.0, 0.0]], None).ok(),
        Some(true)
    );
    assert_eq!(
        is_positive_semidefinite(&array![[1.0, 0.0], [0.0, -1e-3]], None).ok(),
        Some(false)
    );
    let lf = logdet_spd(&array![[1e-200f64, 0.0], [0.0, 1e-200]]).expect("SPD");
    assert!(
        (lf - 2.0 * (1e-200f64).ln()).abs() < 1e-10,
        "no underflow through det"
    );
}

#[test]
fn least_squares_paths_agree() {
    let a: Array2<f64> = array![[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]];
    let b: Array1<f64> = array![1.0, 3.0, 5.0, 7.0];
    let x1 = lstsq_qr(&a, &b).expect("full rank");
    let r = lstsq(&a, &b, None).expect("ok");
    assert!((x1[0] - 1.0).abs() < 1e-13 && (x1[1] - 2.0).abs() < 1e-13);
    assert!((&r.solution - &x1).iter().all(|d| d.abs() < 1e-13));
    assert_eq!(r.rank, 2);
    assert!(r.residual_ss < 1e-24);
    // Rank-deficient: duplicated column. QR refuses, SVD gives the minimum-norm split.
    let a2: Array2<f64> = array![[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
    let b2: Array1<f64> = array![2.0, 4.0, 6.0];
    assert!(matches!(
        lstsq_qr(&a2, &b2),
        Err(Error::Linalg {
            kind: LinalgErrorKind::Singular,
            ..
        })
    ));
    let r2 = lstsq(&a2, &b2, None).expect("ok");
    assert_eq!(r2.rank, 1);
    assert!((r2.solution[0] - 1.0).abs() < 1e-14 && (r2.solution[1] - 1.0).abs() < 1e-14);
    assert!(lstsq_qr(&array![[1.0, 2.0]], &array![1.0]).is_err());
}

#[test]
fn svd_variants() {
    let a: Array2<f64> = array![[3.0, 0.0], [0.0, -2.0], [0.0, 0.0]];
    let s = singular_values(&a).expect("ok");
    assert!((s[0] - 3.0).abs() < 1e-14 && (s[1] - 2.0).abs() < 1e-14);
    let full = svd_full(&a).expect("ok");
    assert_eq!(full.u.dim(), (3, 3));
    assert_eq!(full.vt.dim(), (2, 2));
    let mut thin = svd_thin(&a).expect("ok");
    assert_eq!(thin.u.dim(), (3, 2));
    thin.flip_signs(true);
    assert!(max_abs_diff(&thin.reconstruct(), &a) < 1e-15);
    assert!(thin.u.column(0).iter().all(|&v| v >= 0.0));
    let t = svd_truncated(&a, 1).expect("ok");
    assert_eq!(t.s.len(), 1);
    assert!((t.s[0] - 3.0).abs() < 1e-14);
    assert!(svd_truncated(&a, 0).is_err());
    assert!(svd_truncated(&a, 3).is_err());
    assert!(matches!(
        svd_thin(&Array2::<f64>::zeros((0, 3))),
        Err(Error::TooFewSamples { .. })
    ));
}

#[test]
fn pinv_rank_null_space() {
    let a: Array2<f64> = array![[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]];
    assert_eq!(matrix_rank(&a, None).ok(), Some(1));
    let p = pinv(&a, None).expect("ok");
    // Penrose: A A⁺ A = A.
    assert!(max_abs_diff(&a.dot(&p).dot(&a), &a) < 1e-13);
    let ns = null_space(&a, None).expect("ok");
    assert_eq!(ns.dim(), (3, 2));
    assert!(a.dot(&ns).iter().all(|v| v.abs() < 1e-13));
    assert!(max_abs_diff(&ns.t().dot(&ns), &Array2::eye(2)) < 1e-14);
}

#[test]
fn symmetric_eigen() {
    let a: Array2<f64> = array![[2.0, 1.0], [1.0, 2.0]];
    let (w, v) = eigh(&a).expect("symmetric");
    assert!((w[0] - 1.0).abs() < 1e-15 && (w[1] - 3.0).abs() < 1e-15);
    assert!(max_abs_diff(&a.dot(&v), &(&v * &w)) < 1e-14);
    let (wd, vd) = eigh_descending(&a).expect("symmetric");
    assert_eq!(wd[0], w[1]);
    assert_eq!(vd.column(0), v.column(1));
    assert_eq!(eigvalsh(&a).expect("ok"), w);
    assert!(eigh(&array![[1.0, 2.0], [0.0, 1.0]]).is_err());
    // Generalized: A v = λ B v with B = diag(1, 2).
    let b: Array2<f64> = array![[1.0, 0.0], [0.0, 2.0]];
    let (gw, gv) = eigh_generalized(&array![[2.0, 0.0], [0.0, 2.0]], &b).expect("ok");
    assert!((gw[0] - 1.0).abs() < 1e-15 && (gw[1] - 2.0).abs() < 1e-15);
    assert!(max_abs_diff(&gv.t().dot(&b).dot(&gv), &Array2::eye(2)) < 1e-14);
    assert!(matches!(
        eigh_generalized(&a, &array![[1.0, 0.0], [0.0, -1.0]]),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        })
    ));
}

/// A symmetric matrix with a known spectrum `1, 2, …, n` (gaps of 1) in a deterministic
/// orthonormal basis (Householder reflection of the identity's columns).
fn known_spectrum(n: usize) -> (Array2<f64>, Array2<f64>) {
    let u = Array1::from_shape_fn(n, |i| ((i * 7 + 3) % 11) as f64 - 5.0);
    let u = &u / u.dot(&u).sqrt();
    let q = Array2::eye(n)
        - 2.0
            * &u.view()
                .insert_axis(Axis(1))
                .dot(&u.view().insert_axis(Axis(0)));
    let d = Array2::from_diag(&Array1::from_shape_fn(n, |i| (i + 1) as f64));
    let a = q.dot(&d).dot(&q.t());
    let a = (&a + &a.t()) * 0.5;
    (a, q)
}

#[test]
fn eigh_range_computes_the_requested_pairs() {
    let n = 40;
    let (a, q) = known_spectrum(n);
    // eigenvalue errors ≤ c·n·ε·‖A‖ (backward stable); eigenvector angles ≤ that over the gap (1)
    let tol = 100.0 * n as f64 * f64::EPSILON * n as f64;
    for range in [0..1, 0..5, 33..40, 10..17, 39..40, 0..40] {
        let (w, v) = eigh_range(&a, range.clone()).expect("symmetric");
        assert_eq!(w.len(), range.len());
        assert_eq!(v.dim(), (n, range.len()));
        for (j, pos) in range.clone().enumerate() {
            assert!(
                (w[j] - (pos + 1) as f64).abs() < tol,
                "{range:?}: λ {}",
                w[j]
            );
            // the true eigenvector of eigenvalue pos + 1 is column pos of q, up to sign
            let cos = v.column(j).dot(&q.column(pos)).abs();
            assert!((1.0 - cos).abs() < tol, "{range:?}: |cos| {cos}");
        }
        assert!(max_abs_diff(&v.t().dot(&v), &Array2::eye(range.len())) < tol);
        assert!(max_abs_diff(&a.dot(&v), &(&v * &w)) < tol);
    }
    let (wl, vl) = eigh_largest(&a, 3).expect("symmetric");
    assert_eq!(wl.len(), 3);
    assert!((wl[0] - 40.0).abs() < tol && (wl[2] - 38.0).abs() < tol);
    assert!((1.0 - vl.column(0).dot(&q.column(39)).abs()).abs() < tol);
    // f32 through ssyevr: residuals at single precision
    let a32 = a.mapv(|x| x as f32);
    let (w32, v32) = eigh_range(&a32, 35..40).expect("symmetric");
    let tol32 = 100.0 * n as f32 * f32::EPSILON * n as f32;
    assert!((w32[4] - 40.0).abs() < tol32);
    assert!(
        (&a32.dot(&v32) - &(&v32 * &w32))
            .iter()
            .all(|r| r.abs() < tol32)
    );
    // bad ranges and non-symmetric or non-finite input are typed errors
    assert!(eigh_range(&a, 3..3).is_err());
    assert!(eigh_range(&a, 0..41).is_err());
    assert!(eigh_largest(&a, 0).is_err());
    assert!(eigh_largest(&a, 41).is_err());
    assert!(eigh_range(&array![[1.0, 2.0], [0.0, 1.0]], 0..1).is_err());
    assert!(eigh_range(&array![[1.0, f64::NAN], [f64::NAN, 1.0]], 0..1).is_err());
}

#[test]
fn power_iteration_matches_eigh() {
    let a: Array2<f64> = array![[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 1.0]];
    let (w, v) = eigh_descending(&a).expect("ok");
    let p = power_iteration(&a, 2, 10_000, 1e-12, 7).expect("ok");
    assert!(p.converged);
    for j in 0..2 {
        assert!((p.values[j] - w[j]).abs() < 1e-10);
        let dot = p.vectors.column(j).dot(&v.column(j)).abs();
        assert!((dot - 1.0).abs() < 1e-10);
        let rq = rayleigh_quotient(&a, &p.vectors.column(j)).expect("ok");
        assert!((rq - w[j]).abs() < 1e-10);
    }
    assert!(power_iteration(&a, 4, 10, 1e-6, 0).is_err());
    assert!(rayleigh_quotient(&a, &array![0.0, 0.0, 0.0]).is_err());
}

#[test]
fn randomized_svd_recovers_low_rank() {
    // Exact rank-3 matrix: the randomized range finder captures it exactly.
    let u = Array2::from_shape_fn((40, 3), |(i, j)| ((i * (j + 1)) as f64 * 0.1).sin());
    let vt = Array2::from_shape_fn((3, 25), |(i, j)| ((i + 2 * j) as f64 * 0.07).cos());
    let a = u.dot(&vt);
    let exact = singular_values(&a).expect("ok");
    let r = randomized_svd(&a, 3, RandomizedSvdOptions::default().seed(3)).expect("ok");
    for j in 0..3 {
        assert!((r.s[j] - exact[j]).abs() < 1e-10 * exact[0]);
    }
    assert!(max_abs_diff(&r.reconstruct(), &a) < 1e-10);
    let again = randomized_svd(&a, 3, RandomizedSvdOptions::default().seed(3)).expect("ok");
    assert_eq!(r.u, again.u, "same seed, same result");
    assert!(randomized_svd(&a, 26, RandomizedSvdOptions::default()).is_err());
}

#[test]
fn randomized_svd_centred_and_block_krylov() {
    // a decaying spectrum far from the origin: the implicit centring equals the explicit one
    let a = Array2::from_shape_fn((200, 30), |(i, j)| {
        100.0
            + ((i * (j + 1)) as f64 * 0.013).sin() / (1.0 + j as f64)
            + 0.01 * ((i * j) % 7) as f64
    });
    let mean = a.mean_axis(ndarray::Axis(0)).expect("rows");
    let mut ac = a.clone();
    ac -= &mean;
    let exact = singular_values(&ac).expect("svd");
    let opts = RandomizedSvdOptions::default().seed(5);
    let explicit = randomized_svd(&ac, 4, opts).expect("explicit");
    let implicit = randomized_svd_centred(&a, &mean, None, 4, opts).expect("implicit");
    for j in 0..4 {
        assert!(
            (explicit.s[j] - implicit.s[j]).abs() < 1e-9 * exact[0],
            "σ_{j}"
        );
    }
    // scaling by s: the same as dividing the centred columns
    let sd = ac.map_axis(ndarray::Axis(0), |c| c.dot(&c).sqrt());
    let scaled = randomized_svd_centred(&a, &mean, Some(&sd), 4, opts).expect("scaled");
    let ex_scaled = randomized_svd(&(&ac / &sd), 4, opts).expect("explicit scaled");
    for j in 0..4 {
        assert!((scaled.s[j] - ex_scaled.s[j]).abs() < 1e-9 * ex_scaled.s[0]);
    }
    // the block Krylov basis (fewer passes over A) is at least as accurate, and orthonormal
    let krylov = randomized_svd(&ac, 4, opts.n_iter(2).block_krylov(true)).expect("krylov");
    let power = randomized_svd(&ac, 4, opts.n_iter(2)).expect("power");
    for j in 0..4 {
        let ek = (krylov.s[j] - exact[j]).abs();
        let ep = (power.s[j] - exact[j]).abs();
        assert!(
            ek < 1e-8 * exact[0] && ek <= ep + 1e-8 * exact[0],
            "σ_{j}: krylov {ek}, power {ep}"
        );
    }
    let g = krylov.u.t().dot(&krylov.u);
    assert!(max_abs_diff(&g, &Array2::eye(4)) < 1e-10);
    assert!(randomized_svd_centred(&a, &mean.slice(ndarray::s![..3]), None, 2, opts).is_err());
}

#[test]
fn eigsh_top_matches_the_dense_solver() {
    // a PSD matrix with a decaying spectrum and one of exact low rank (invariant Krylov space)
    let g = Array2::from_shape_fn((300, 40), |(i, j)| ((i * 7 + j * 13) as f64 * 0.37).sin());
    let full = g.dot(&g.t());
    let low = g
        .slice(ndarray::s![.., ..4])
        .dot(&g.slice(ndarray::s![.., ..4]).t());
    for (a, k) in [(&full, 6), (&low, 4), (&low, 8)] {
        let (w, v) = eigh_descending(a).expect("dense");
        let t = eigsh_top(a, k, 1e-12, 500, 7).expect("top");
        assert!(t.converged);
        for j in 0..k {
            assert!((t.values[j] - w[j]).abs() < 1e-9 * w[0], "eigenvalue {j}");
            if w[j] > 1e-8 * w[0] && (j + 1 == k || w[j] - w[j + 1] > 1e-6 * w[0]) {
                let dot = t.vectors.column(j).dot(&v.column(j)).abs();
                assert!((dot - 1.0).abs() < 1e-8, "eigenvector {j}: {dot}");
            }
        }
        // orthonormal columns
        let gram = t.vectors.t().dot(&t.vectors);
        assert!(max_abs_diff(&gram, &Array2::eye(k)) < 1e-10);
    }
    // fewer rows than two blocks (n = 29 < 2 (k + 10)): solved densely, not stalled
    let small = full.slice(ndarray::s![..29, ..29]).to_owned();
    let (ws, _) = eigh_descending(&small).expect("dense");
    let t = eigsh_top(&small, 5, 1e-12, 50, 0).expect("top");
    assert!(t.converged);
    for j in 0..5 {
        assert!((t.values[j] - ws[j]).abs() < 1e-9 * ws[0]);
    }
    assert!(eigsh_top(&full, 0, 1e-12, 10, 0).is_err());
    assert!(eigsh_top(&full, 301, 1e-12, 10, 0).is_err());
}

#[test]
fn eigsh_smallest_psd_matches_the_dense_solver_on_a_graph_laplacian() {
    // the Laplacian of a ring of 400 nodes with chords: PSD, singular (λ₁ = 0), eigenvalues
    // near zero close together (the case a plain Krylov iteration on L converges slowly on)
    let n = 400;
    let mut l = Array2::<f64>::zeros((n, n));
    for i in 0..n {
        for (j, w) in [
            ((i + 1) % n, 1.0),
            ((i + 37) % n, 0.25 + (i % 5) as f64 * 0.1),
        ] {
            l[[i, j]] -= w;
            l[[j, i]] -= w;
            l[[i, i]] += w;
            l[[j, j]] += w;
        }
    }
    let (w, v) = eigh(&l).expect("dense");
    let k = 8;
    let r = eigsh_smallest_psd(&l, k, 1e-3, 1e-12, 100, 3).expect("shift-invert");
    assert!(r.converged && r.n_iter > 0);
    assert!(r.max_residual < 1e-9, "residual {}", r.max_residual);
    for j in 0..k {
        assert!(
            (r.values[j] - w[j]).abs() < 1e-10,
            "λ_{j}: {} vs {}",
            r.values[j],
            w[j]
        );
        // eigenvectors of simple eigenvalues (the ring leaves some pairs nearly degenerate,
        // whose vectors are any basis of their plane)
        let gap = (if j == 0 {
            f64::INFINITY
        } else {
            w[j] - w[j - 1]
        })
        .min(w[j + 1] - w[j]);
        if gap > 1e-6 {
            let dot = r.vectors.column(j).dot(&v.column(j)).abs();
            assert!((dot - 1.0).abs() < 1e-8, "eigenvector {j}: {dot}");
        }
    }
    let gram = r.vectors.t().dot(&r.vectors);
    assert!(max_abs_diff(&gram, &Array2::eye(k)) < 1e-10);
    // the same seed, the same bits
    let again = eigsh_smallest_psd(&l, k, 1e-3, 1e-12, 100, 3).expect("again");
    assert_eq!(again.vectors, r.vectors);
    // bad settings and a matrix that is not PSD
    assert!(eigsh_smallest_psd(&l, 0, 1e-3, 1e-12, 10, 0).is_err());
    assert!(eigsh_smallest_psd(&l, k, 0.0, 1e-12, 10, 0).is_err());
    assert!(eigsh_smallest_psd(&l, k, f64::NAN, 1e-12, 10, 0).is_err());
    let neg = l.mapv(|x| -x);
    assert!(matches!(
        eigsh_smallest_psd(&neg, k, 1e-3, 1e-12, 10, 0),
        Err(Error::Linalg { .. })
    ));
}

#[test]
fn eigsh_top_op_with_a_closure_equals_eigsh_top() {
    let g = Array2::from_shape_fn((200, 30), |(i, j)| ((i * 5 + j * 11) as f64 * 0.29).cos());
    let a = g.dot(&g.t());
    let dense = eigsh_top(&a, 5, 1e-12, 200, 1).expect("dense");
    let op = eigsh_top_op(200, |q| Ok(a.dot(q)), 5, 1e-12, 200, 1).expect("op");
    assert_eq!(dense.values, op.values);
    assert_eq!(dense.vectors, op.vectors);
}

#[test]
fn pairwise_distances_by_hand() {
    let x: Array2<f64> = array![[0.0, 0.0], [3.0, 4.0]];
    let y: Array2<f64> = array![[0.0, 0.0], [1.0, 1.0], [3.0, 4.0]];
    let d = pairwise_sq_euclidean(&x, &y).expect("ok");
    assert_eq!(d, array![[0.0, 2.0, 25.0], [25.0, 13.0, 0.0]]);
    let ds = pairwise_sq_euclidean_self(&y);
    assert_eq!(
        ds,
        array![[0.0, 2.0, 25.0], [2.0, 0.0, 13.0], [25.0, 13.0, 0.0]]
    );
    assert!(pairwise_sq_euclidean(&x, &array![[1.0]]).is_err());
}

#[test]
fn f32_works_too() {
    let a: Array2<f32> = array![[4.0f32, 2.0], [2.0, 10.0]];
    let l = cholesky(&a).expect("SPD");
    assert!((l[[1, 1]] - 3.0).abs() < 1e-6);
    let s = singular_values(&a).expect("ok");
    assert!(s[0] > s[1]);
}

#[test]
fn svd_right_matches_the_thin_svd() {
    // tall, wide and square
    for (m, n) in [(40usize, 5usize), (4, 9), (6, 6)] {
        let a = Array2::from_shape_fn((m, n), |(i, j)| {
            ((i * 7 + j * 13) % 11) as f64 - 5.0 + 0.1 * (i as f64) * (j as f64).sin()
        });
        let thin = svd_thin(&a).expect("thin");
        let (s, vt) = svd_right(&a).expect("right");
        assert_eq!(vt.dim(), (m.min(n), n));
        for (x, y) in s.iter().zip(thin.s.iter()) {
            assert!((x - y).abs() < 1e-12 * thin.s[0]);
        }
        for r in 0..m.min(n) {
            if thin.s[r] < 1e-10 * thin.s[0] {
                continue; // the null space has no unique basis
            }
            let dot: f64 = vt.row(r).dot(&thin.vt.row(r));
            assert!((dot.abs() - 1.0).abs() < 1e-10, "row {r}: {dot}");
        }
    }
    assert!(svd_right(&Array2::<f64>::zeros((0, 3))).is_err());
}

#[test]
fn singular_values_of_a_single_row_column_or_entry_is_the_norm() {
    assert_eq!(
        singular_values(&array![[-3.0f64]]).expect("1 x 1").to_vec(),
        vec![3.0]
    );
    let row = singular_values(&array![[3.0f64, 4.0]]).expect("row");
    let col = singular_values(&array![[3.0f64], [4.0]]).expect("column");
    assert!((row[0] - 5.0).abs() < 1e-15 && (col[0] - 5.0).abs() < 1e-15);
    // scaled: no overflow for huge entries, and zero stays zero
    let huge = singular_values(&array![[3e300f64, 4e300]]).expect("huge");
    assert!((huge[0] / 5e300 - 1.0).abs() < 1e-15);
    assert_eq!(
        singular_values(&array![[0.0f32, 0.0]]).expect("zero")[0],
        0.0
    );
    // and agrees with the general path on a 1 x 3 that it would have taken
    let v = array![[1.0f64, -2.0, 2.0]];
    assert!((singular_values(&v).expect("v")[0] - 3.0).abs() < 1e-15);
    assert!(singular_values(&array![[f64::NAN]]).is_err());
}
