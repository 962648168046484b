//! `SpectralClustering`'s embedding and labels against scikit-learn
//! (`datasets/golden/decomposition/spectral_embedding_eigengap.json`, case
//! `clustering_blobs100_rbf_sigma2_k4`, written by `scripts/golden/spectral_embedding.py`).
//!
//! With the Gaussian affinity `exp(−‖xᵢ − xⱼ‖²/σ²)` (σ = 2, i.e. scikit-learn's `gamma = 1/4`,
//! exact in binary), the random-walk Laplacian and `drop_first`, the clustering's embedding is
//! `D^{−½} v` of the eigenvectors 2 … K of `L_sym` with the largest-|.| entry of each column
//! positive: scikit-learn's `SpectralEmbedding(K − 1, affinity="rbf", gamma)` embedding. It is
//! compared column by column up to sign with the dense reference (and scikit-learn's ARPACK
//! one), the tolerances derived from the eigengaps exactly as in
//! `crates/decomposition/tests/spectral_embedding_golden.rs`:
//! `δ = 3η + 5nε` (η the entrywise relative error of the RBF affinity), eigenvalues within `δ`
//! (Weyl), column `j` within `tol_j = √2 δ/(g_j − δ)/√(min d) + (η + nε) max|u_j|`
//! (Davis–Kahan), `2 tol_j` against scikit-learn's ARPACK embedding. The labels (k-means on the
//! embedding) must give adjusted Rand index 1 against scikit-learn's `SpectralClustering` labels
//! and against the blobs the points were drawn from (four well-separated blobs: the eigengap
//! after the fourth eigenvalue is 0.51).

use ndarray::Array1;
use ndlearn_cluster::{Affinity, SpectralClustering};
use ndlearn_core::FitUnsupervised;
use ndlearn_core::metrics::adjusted_rand_score;
use ndlearn_core::neighbors::LaplacianKind;
use ndlearn_testkit::Golden;

const EPS: f64 = f64::EPSILON;

#[test]
fn random_walk_embedding_and_labels_match_sklearn() {
    let g = Golden::load("decomposition", "spectral_embedding_eigengap");
    let case = g.case("clustering_blobs100_rbf_sigma2_k4");
    let x = case.matrix("x");
    let sigma = case.scalar("sigma");
    assert_eq!(1.0 / (sigma * sigma), case.scalar("gamma"));
    let k = case.usize("n_clusters");
    let m = SpectralClustering::new(k)
        .affinity(Affinity::Gaussian { sigma })
        .laplacian(LaplacianKind::RandomWalk)
        .fit(&x)
        .expect("spectral clustering fits");

    // tolerances from the stored eigengaps (module docs)
    let want = case.matrix("embedding");
    let n = want.nrows() as f64;
    let eta = case.scalar("eta");
    let delta = 3.0 * eta + 5.0 * n * EPS;
    let gaps = case.vector("gaps");
    let tol = Array1::from_shape_fn(gaps.len(), |j| {
        let top = want.column(j).iter().fold(0.0f64, |a, v| a.max(v.abs()));
        2f64.sqrt() * delta / (gaps[j] - delta) / case.scalar("min_degree").sqrt()
            + (eta + n * EPS) * top
    });
    for (a, b) in tol.iter().zip(&case.vector("tolerance")) {
        assert!((a - b).abs() <= 1e-9 * b, "tolerance formula");
    }

    let want_vals = case.vector("eigenvalues");
    for (i, &b) in want_vals.iter().enumerate() {
        let a = m.eigenvalues()[i];
        assert!(
            (a - b).abs() <= delta,
            "eigenvalue {i}: {a} vs {b} (bound {delta:e})"
        );
    }

    let got = m.embedding();
    assert_eq!(got.dim(), want.dim());
    for (reference, factor) in [("embedding", 1.0), ("embedding_sklearn", 2.0)] {
        let want = case.matrix(reference);
        for j in 0..want.ncols() {
            let (a, b) = (got.column(j), want.column(j));
            let s = if a.dot(&b) < 0.0 { -1.0 } else { 1.0 };
            let err = a
                .iter()
                .zip(&b)
                .fold(0.0f64, |acc, (x, y)| acc.max((s * x - y).abs()));
            assert!(
                err <= factor * tol[j],
                "{reference}: column {j} differs by {err:e} > {:e}",
                factor * tol[j]
            );
            // the pivots are clear (script: margin > 4 tol_j), so the sign rule must agree too
            assert_eq!(s, 1.0, "{reference}: column {j} has the opposite sign");
        }
    }

    let sk = case.labels("labels_sklearn");
    let truth = case.labels("labels_true");
    assert_eq!(adjusted_rand_score(&sk, m.labels()).expect("ari"), 1.0);
    assert_eq!(adjusted_rand_score(&truth, m.labels()).expect("ari"), 1.0);
    assert_eq!(m.n_clusters(), k);
}

/// The comparison is not vacuous: the symmetric (Ng–Jordan–Weiss, rows scaled to unit length)
/// or the unnormalised Laplacian gives an embedding far outside the tolerance of the
/// random-walk one.
#[test]
fn other_laplacians_do_not_pass() {
    let g = Golden::load("decomposition", "spectral_embedding_eigengap");
    let case = g.case("clustering_blobs100_rbf_sigma2_k4");
    let want = case.matrix("embedding");
    for kind in [LaplacianKind::Symmetric, LaplacianKind::Unnormalized] {
        let m = SpectralClustering::new(case.usize("n_clusters"))
            .affinity(Affinity::Gaussian {
                sigma: case.scalar("sigma"),
            })
            .laplacian(kind)
            .fit(&case.matrix("x"))
            .expect("fit");
        let worst = (0..want.ncols())
            .map(|j| {
                let (a, b) = (m.embedding().column(j), want.column(j));
                let s = if a.dot(&b) < 0.0 { -1.0 } else { 1.0 };
                a.iter()
                    .zip(&b)
                    .fold(0.0f64, |acc, (x, y)| acc.max((s * x - y).abs()))
            })
            .fold(0.0f64, f64::max);
        assert!(worst > 1e-3, "{kind:?}: {worst}");
    }
}
