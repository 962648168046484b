//! `distance::pairwise_distances` and `Metric::distance` against scipy's `cdist`
//! (`datasets/golden/core/distance.json`, written by `scripts/golden/core_distance.py`).
//!
//! f64 results must agree to 1e-12 relative (absolute 1e-12 near zero); the f32 run of the
//! same inputs to 1e-4 relative to the largest entry.

use ndarray::Array2;
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_testkit::{Case, Golden};

fn cases() -> Vec<Case> {
    Golden::load("core", "distance")
        .cases()
        .into_iter()
        .cloned()
        .collect()
}

fn metric_of(case: &Case) -> Metric {
    match case.string("metric") {
        "euclidean" => Metric::Euclidean,
        "sqeuclidean" => Metric::SqEuclidean,
        "cityblock" => Metric::Manhattan,
        "chebyshev" => Metric::Chebyshev,
        "minkowski" => Metric::Minkowski {
            p: case.scalar("p"),
        },
        "cosine" => Metric::Cosine,
        "mahalanobis" => Metric::Mahalanobis {
            vi: case.matrix("vi"),
        },
        "hamming" => Metric::Hamming,
        "jaccard" => Metric::Jaccard,
        other => panic!("unknown metric {other}"),
    }
}

fn assert_close(got: &Array2<f64>, want: &Array2<f64>, rel: f64, name: &str) {
    assert_eq!(got.dim(), want.dim(), "{name}: shape");
    for ((idx, g), w) in got.indexed_iter().zip(want.iter()) {
        let tol = rel * w.abs().max(1.0);
        assert!(
            (g - w).abs() <= tol,
            "{name} {idx:?}: got {g:e}, want {w:e}"
        );
    }
}

#[test]
fn pairwise_matches_scipy_cdist() {
    let all = cases();
    assert!(all.len() >= 20, "expected the full golden file");
    for case in &all {
        let name = case.name();
        let (x, y, want) = (case.matrix("x"), case.matrix("y"), case.matrix("d"));
        let metric = metric_of(case);
        let got = pairwise_distances(&x, &y, &metric).expect("valid inputs");
        assert_close(&got, &want, 1e-12, name);
        // The single-pair path.
        let single =
            Array2::from_shape_fn(want.dim(), |(i, j)| metric.distance(&x.row(i), &y.row(j)));
        assert_close(&single, &want, 1e-12, name);
    }
}

#[test]
fn self_distances_are_exact_on_duplicates() {
    for case in cases()
        .iter()
        .filter(|c| c.name().starts_with("iris_self_"))
    {
        let name = case.name();
        let x = case.matrix("x");
        let want = case.matrix("d");
        let got = pairwise_distances(&x, &x, &metric_of(case)).expect("valid");
        let mut zeros = 0;
        for ((i, j), w) in want.indexed_iter() {
            if *w == 0.0 {
                assert_eq!(got[[i, j]], 0.0, "{name} ({i}, {j})");
                zeros += 1;
            }
        }
        assert!(
            zeros > x.nrows(),
            "{name}: the case must contain duplicated rows"
        );
    }
}

#[test]
fn f32_is_close() {
    for case in &cases() {
        let name = case.name();
        let metric = metric_of(case);
        let x = case.matrix("x").mapv(|v| v as f32);
        let y = case.matrix("y").mapv(|v| v as f32);
        let want = case.matrix("d");
        let got = pairwise_distances(&x, &y, &metric)
            .expect("valid")
            .mapv(f64::from);
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        // Mahalanobis on wine squares differences of ~1e3 against tiny VI entries: looser.
        let tol = if name.contains("mahalanobis") {
            1e-3
        } else {
            1e-4
        };
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= tol * scale, "{name}: {g} vs {w}");
        }
    }
}
