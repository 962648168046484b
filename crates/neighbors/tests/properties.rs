//! Property tests of ndlearn-neighbors: every search algorithm gives the same answers as a
//! plain brute-force vote written here, k-NN with k = n is the class frequencies, radius
//! neighbours with a huge radius are the training mean, and a model survives serde bit for bit.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2};
use ndlearn_core::distance::Metric;
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_neighbors::{
    Algorithm, KNeighborsClassifier, KNeighborsRegressor, RadiusNeighborsRegressor, Weights,
};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

fn data() -> impl Strategy<Value = (Array2<f64>, Array1<usize>, Array2<f64>)> {
    (5usize..40, 1usize..5).prop_flat_map(|(n, d)| {
        (
            prop::collection::vec(-3.0f64..3.0, n * d),
            prop::collection::vec(0usize..3, n),
            prop::collection::vec(-3.0f64..3.0, 7 * d),
        )
            .prop_map(move |(xs, ys, qs)| {
                // round to a grid so that ties in distance happen
                let x = Array2::from_shape_vec(
                    (n, d),
                    xs.iter().map(|v| (v * 2.0).round() / 2.0).collect(),
                )
                .expect("shape");
                let q = Array2::from_shape_vec((7, d), qs).expect("shape");
                (x, Array1::from(ys), q)
            })
    })
}

/// The reference: sort all training rows by (distance, index), take k, vote.
fn reference_proba(
    x: &Array2<f64>,
    y: &Array1<usize>,
    q: &Array2<f64>,
    k: usize,
    w: Weights,
    m: &Metric,
) -> Array2<f64> {
    let c = y.iter().max().map_or(1, |v| v + 1);
    let mut out = Array2::zeros((q.nrows(), c));
    for (qi, row) in q.rows().into_iter().enumerate() {
        let mut all: Vec<(f64, usize)> = x
            .rows()
            .into_iter()
            .enumerate()
            .map(|(i, r)| (m.distance(&row, &r), i))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let nb = &all[..k];
        let zero = nb.iter().any(|p| p.0 == 0.0);
        let mut total = 0.0;
        for &(d, i) in nb {
            let wt = match w {
                Weights::Uniform => 1.0,
                _ if zero => f64::from(u8::from(d == 0.0)),
                _ => 1.0 / d,
            };
            out[[qi, y[i]]] += wt;
            total += wt;
        }
        out.row_mut(qi).mapv_inplace(|v| v / total);
    }
    out
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn every_algorithm_matches_the_reference((x, y, q) in data(), k in 1usize..6, dist in any::<bool>(), metric in 0usize..3) {
        let k = k.min(x.nrows());
        let w = if dist { Weights::Distance } else { Weights::Uniform };
        let m = [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev][metric].clone();
        let expect = reference_proba(&x, &y, &q, k, w, &m);
        for algo in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree, Algorithm::Auto] {
            let model = KNeighborsClassifier::new(k).weights(w).algorithm(algo).metric(m.clone())
                .leaf_size(3).fit(&x, &y).expect("fit");
            let p = model.predict_proba(&q).expect("proba");
            for (a, b) in p.iter().zip(expect.iter()) {
                prop_assert!((a - b).abs() < 1e-12, "{algo:?}: {a} vs {b}");
            }
            let pred = model.predict(&q).expect("predict");
            for (r, &c) in pred.iter().enumerate() {
                let row = expect.row(r);
                let best = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                // the predicted class has the top vote and no lower class ties it
                prop_assert!((row[c] - best).abs() < 1e-12);
                // ties go to the lowest class
                let mine = p.row(r);
                prop_assert!(mine.iter().take(c).all(|&v| v < mine[c]));
            }
        }
    }

    #[test]
    fn k_equal_n_gives_class_frequencies((x, y, q) in data()) {
        let n = x.nrows();
        let model = KNeighborsClassifier::new(n).fit(&x, &y).expect("fit");
        let p = model.predict_proba(&q).expect("proba");
        let c = p.ncols();
        for row in p.rows() {
            for k in 0..c {
                let freq = y.iter().filter(|&&v| v == k).count() as f64 / n as f64;
                prop_assert!((row[k] - freq).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn huge_radius_and_k_n_regress_to_the_mean((x, y, q) in data()) {
        let t = y.mapv(|c| c as f64 * 1.5 - 0.25);
        let mean = t.mean().expect("non-empty");
        let r = RadiusNeighborsRegressor::new(1e6).fit(&x, &t).expect("fit");
        let k = KNeighborsRegressor::new(x.nrows()).fit(&x, &t).expect("fit");
        for v in r.predict(&q).expect("radius").iter().chain(k.predict(&q).expect("knn").iter()) {
            prop_assert!((v - mean).abs() < 1e-12);
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip_is_bitwise((x, y, q) in data()) {
        let model = KNeighborsClassifier::new(1).weights(Weights::Distance).fit(&x, &y).expect("fit");
        let json = serde_json::to_string(&model).expect("json");
        let back: ndlearn_neighbors::FittedKNeighborsClassifier<f64> = serde_json::from_str(&json).expect("load");
        prop_assert_eq!(model.predict_proba(&q).expect("a"), back.predict_proba(&q).expect("b"));
        prop_assert_eq!(serde_json::to_string(&back).expect("json"), json);
    }
}
