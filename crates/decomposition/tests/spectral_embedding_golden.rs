//! `SpectralEmbedding` against an exact reference with tolerances derived from the Laplacian's
//! eigengaps (`datasets/golden/decomposition/spectral_embedding_eigengap.json`, written by
//! `scripts/golden/spectral_embedding.py`).
//!
//! The reference is a dense numpy `eigh` of `L = I − D^{−½} W D^{−½}` (the affinity's diagonal
//! ignored) put through scikit-learn's steps (`u = D^{−½} v`, largest-|.| entry positive, the
//! trivial column dropped); the file also holds scikit-learn's `SpectralEmbedding(arpack)`
//! embedding, which the script checks against the dense one. Our convention is scikit-learn's
//! (`norm_laplacian=True` scaling, `Uᵀ D U = I`), so columns are compared up to sign only, with no
//! per-column scale.
//!
//! Tolerances (the ingredients are stored per case and the formulas evaluated here):
//! * `η`: entrywise relative error of `W` (RBF: `ε (2 + γ (p + 3) · 2 max‖xᵢ‖²)`, the squared
//!   distance being formed from norms and a dot product; kNN: 0, the weights 0, ½, 1 are exact);
//! * `δ = 3η + 5nε`: the 2-norm of the difference of the two computed Laplacians' perturbations
//!   (normalisation by rounded degrees `3η + nε` relative on a non-negative matrix of 2-norm 1,
//!   plus each backward-stable dense eigensolver's `nε‖L‖₂ ≤ 2nε`);
//! * eigenvalues (Weyl): `|Δλ| ≤ δ`;
//! * column `j` (Davis–Kahan, gap `g_j` of `λ_j` to the rest of the spectrum): after sign
//!   alignment `‖Δv‖₂ ≤ √2 δ/(g_j − δ)`, and `u = v/√d` adds the degrees' rounding:
//!   `tol_j = √2 δ/(g_j − δ)/√(min d) + (η + nε) max|u_j|` (≈ 1e-11 here, a relative 1e-9 of the
//!   columns). Against scikit-learn's ARPACK embedding, which the script checks to lie within
//!   `tol_j` of the dense reference, the bound is `2 tol_j` (triangle inequality).

use ndarray::{Array1, Array2};
use ndlearn_core::FitUnsupervised;
use ndlearn_decomposition::{SpectralAffinity, SpectralEmbedding};
use ndlearn_testkit::{Case, Golden};

const EPS: f64 = f64::EPSILON;

/// `δ` and the per-column tolerances `tol_j` (see the module docs).
fn tolerances(case: &Case) -> (f64, Array1<f64>) {
    let want = case.matrix("embedding");
    let n = want.nrows() as f64;
    let eta = case.scalar("eta");
    let delta = 3.0 * eta + 5.0 * n * EPS;
    assert!(
        (delta - case.scalar("delta")).abs() <= 1e-12 * delta,
        "{}: delta",
        case.name()
    );
    let gaps = case.vector("gaps");
    let sqrt_dmin = case.scalar("min_degree").sqrt();
    let tol = Array1::from_shape_fn(gaps.len(), |j| {
        let top = want.column(j).iter().fold(0.0f64, |a, v| a.max(v.abs()));
        assert!(gaps[j] > 2.0 * delta, "{}: gap {j} too small", case.name());
        2f64.sqrt() * delta / (gaps[j] - delta) / sqrt_dmin + (eta + n * EPS) * top
    });
    let stored = case.vector("tolerance");
    for (a, b) in tol.iter().zip(&stored) {
        assert!(
            (a - b).abs() <= 1e-9 * b,
            "{}: tolerance formula",
            case.name()
        );
    }
    (delta, tol)
}

/// Compares `got` with `want` column by column up to sign; returns the sign applied to each
/// column of `got` (+1 or −1) and the worst error relative to its tolerance.
fn compare_up_to_sign(
    got: &Array2<f64>,
    want: &Array2<f64>,
    tol: &Array1<f64>,
    what: &str,
) -> (Vec<f64>, f64) {
    assert_eq!(got.dim(), want.dim(), "{what}: shape");
    let mut signs = Vec::new();
    let mut worst = 0.0f64;
    for j in 0..want.ncols() {
        let (g, w) = (got.column(j), want.column(j));
        let s = if g.dot(&w) < 0.0 { -1.0 } else { 1.0 };
        let err = g
            .iter()
            .zip(&w)
            .fold(0.0f64, |a, (x, y)| a.max((s * x - y).abs()));
        assert!(
            err <= tol[j],
            "{what}: column {j} differs by {err:e} > tolerance {:e}",
            tol[j]
        );
        worst = worst.max(err / tol[j]);
        signs.push(s);
    }
    (signs, worst)
}

fn estimator(case: &Case) -> SpectralEmbedding {
    let affinity = match case.string("affinity") {
        "rbf" => SpectralAffinity::Rbf {
            gamma: Some(case.scalar("gamma")),
        },
        "nearest_neighbors" => SpectralAffinity::NearestNeighbors {
            n_neighbors: Some(case.usize("n_neighbors")),
        },
        other => panic!("affinity {other}"),
    };
    SpectralEmbedding::new(case.usize("k")).affinity(affinity)
}

#[test]
fn embedding_matches_the_exact_reference_and_sklearn_within_the_eigengap_bound() {
    let g = Golden::load("decomposition", "spectral_embedding_eigengap");
    let cases = g.cases_with_prefix("embedding_");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let name = case.name();
        let (delta, tol) = tolerances(case);
        let m = estimator(case)
            .fit(&case.matrix("x"))
            .expect("spectral embedding fits");
        assert!(m.is_connected(), "{name}");

        let want_vals = case.vector("eigenvalues");
        assert_eq!(m.eigenvalues().len(), want_vals.len(), "{name}");
        for (i, (a, b)) in m.eigenvalues().iter().zip(&want_vals).enumerate() {
            assert!(
                (a - b).abs() <= delta,
                "{name}: eigenvalue {i}: {a} vs {b} (Weyl bound {delta:e})"
            );
        }

        let got = m.embedding();
        let (signs, worst) = compare_up_to_sign(got, &case.matrix("embedding"), &tol, name);
        // Every pivot is clear (largest |u_ij| beats the largest entry of opposite sign by more
        // than 4 tol_j, asserted by the script), so the deterministic sign flip must agree too.
        let margins = case.vector("pivot_margin");
        for (j, &s) in signs.iter().enumerate() {
            assert!(margins[j] > 4.0 * tol[j], "{name}: pivot {j}");
            assert_eq!(s, 1.0, "{name}: column {j} has the opposite sign");
        }
        let sk_tol = tol.mapv(|t| 2.0 * t);
        let (sk_signs, sk_worst) = compare_up_to_sign(
            got,
            &case.matrix("embedding_sklearn"),
            &sk_tol,
            &format!("{name} (scikit-learn)"),
        );
        assert!(sk_signs.iter().all(|&s| s == 1.0), "{name}: sklearn signs");
        eprintln!("{name}: worst error / tolerance {worst:.2e} (dense), {sk_worst:.2e} (sklearn)");
    }
}

/// The bound is tight enough to see a subtle change of the graph: γ off by one part in a
/// million moves the embedding of the iris case by far more than its tolerance, and so does
/// one neighbour more in the kNN graph.
#[test]
fn a_slightly_different_graph_is_outside_the_tolerance() {
    let g = Golden::load("decomposition", "spectral_embedding_eigengap");
    for (name, other) in [
        (
            "embedding_iris60_rbf_gamma0.5_k2",
            SpectralAffinity::Rbf {
                gamma: Some(0.5 * (1.0 + 1e-6)),
            },
        ),
        (
            "embedding_blobs100_knn8_k3",
            SpectralAffinity::NearestNeighbors {
                n_neighbors: Some(9),
            },
        ),
    ] {
        let case = g.case(name);
        let (_, tol) = tolerances(case);
        let m = SpectralEmbedding::new(case.usize("k"))
            .affinity(other)
            .fit(&case.matrix("x"))
            .expect("fit");
        let want = case.matrix("embedding");
        let excess = (0..want.ncols())
            .map(|j| {
                let (a, b) = (m.embedding().column(j), want.column(j));
                let s = if a.dot(&b) < 0.0 { -1.0 } else { 1.0 };
                let err = a
                    .iter()
                    .zip(&b)
                    .fold(0.0f64, |acc, (x, y)| acc.max((s * x - y).abs()));
                err / tol[j]
            })
            .fold(0.0f64, f64::max);
        assert!(
            excess > 10.0,
            "{name}: perturbed graph within {excess} tolerances"
        );
    }
}
