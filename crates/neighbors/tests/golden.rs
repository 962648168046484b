//! ndlearn-neighbors against scikit-learn (`datasets/golden/neighbors/knn.json`, written by
//! `scripts/golden/neighbors.py`). Train rows are `i % 4 != 0`, test rows `i % 4 == 0` of the
//! embedded data sets. Rows flagged `tie` (the k-th and (k+1)-th neighbours at the same
//! distance: the neighbour set is not unique) are skipped; everywhere else predictions are
//! identical and probabilities equal to 1e-12, for every algorithm and weighting.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::distance::Metric;
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_neighbors::{
    Algorithm, CentroidMetric, KNeighborsClassifier, KNeighborsRegressor, NearestCentroid,
    RadiusNeighborsClassifier, RadiusNeighborsRegressor, Weights,
};
use ndlearn_testkit::{Case, Golden, assert_close};

fn golden() -> Golden {
    Golden::load("neighbors", "knn")
}

struct Split {
    x: Array2<f64>,
    xt: Array2<f64>,
    labels: Option<(Array1<usize>, Array1<usize>)>,
    values: Option<Array1<f64>>,
}

fn split(case: &Case) -> Split {
    // the golden CSV of diabetes is the raw (unscaled) data set
    let name = match case.string("dataset") {
        "diabetes" => "diabetes_raw",
        other => other,
    };
    let ds = ndlearn_datasets::by_name(name).expect("embedded data set");
    let x = ds.x();
    let tr: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 != 0).collect();
    let te: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 == 0).collect();
    Split {
        x: x.select(Axis(0), &tr),
        xt: x.select(Axis(0), &te),
        labels: ds
            .y_classes()
            .map(|y| (y.select(Axis(0), &tr), y.select(Axis(0), &te))),
        values: ds.y_values().map(|y| y.select(Axis(0), &tr)),
    }
}

fn algorithm(case: &Case) -> Algorithm {
    if !case.has("algorithm") {
        return Algorithm::Brute;
    }
    match case.string("algorithm") {
        "kd_tree" => Algorithm::KdTree,
        "ball_tree" => Algorithm::BallTree,
        _ => Algorithm::Brute,
    }
}

fn weights(case: &Case) -> Weights {
    if case.has("weights") && case.string("weights") == "distance" {
        Weights::Distance
    } else {
        Weights::Uniform
    }
}

fn metric(case: &Case) -> Metric {
    if !case.has("metric") {
        return Metric::Euclidean;
    }
    match case.string("metric") {
        "manhattan" => Metric::Manhattan,
        "chebyshev" => Metric::Chebyshev,
        _ => Metric::Minkowski { p: 3.0 },
    }
}

/// Rows to compare: not flagged `tie` (k-NN) or `boundary` (radius).
fn kept(case: &Case, n: usize) -> Vec<usize> {
    let flag = ["tie", "boundary"].into_iter().find(|f| case.has(f));
    let Some(flag) = flag else {
        return (0..n).collect();
    };
    let v = case.usize_vector(flag);
    (0..n).filter(|&i| v[i] == 0).collect()
}

#[test]
fn knn_classifier_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("knn_clf_");
    assert!(cases.len() >= 30);
    for case in cases {
        let s = split(case);
        let (y, _) = s.labels.clone().expect("labels");
        let name = case.name();
        let m = KNeighborsClassifier::new(case.usize("k"))
            .algorithm(algorithm(case))
            .weights(weights(case))
            .metric(metric(case))
            .fit(&s.x, &y)
            .expect("fit");
        let keep = kept(case, s.xt.nrows());
        let xt = s.xt.select(Axis(0), &keep);
        assert_close(
            &m.predict_proba(&xt).expect("proba"),
            &case.matrix("proba").select(Axis(0), &keep),
            0.0,
            1e-12,
            &format!("{name}: proba"),
        );
        let pred = m.predict(&xt).expect("predict");
        let want = case.labels("pred").select(Axis(0), &keep);
        assert_eq!(pred, want, "{name}: predictions");
        if case.has("kn_dist") {
            let (dist, ind) = m.kneighbors(&xt, None).expect("kneighbors");
            let want_d = case.matrix("kn_dist").select(Axis(0), &keep);
            // scikit-learn's brute distances come from ‖x‖² + ‖y‖² − 2xᵀy (relative error
            // ~1e-11 on breast_cancer); ours are computed directly
            assert_close(&dist, &want_d, 1e-10, 1e-10, &format!("{name}: distances"));
            let want_i = case.matrix("kn_ind").select(Axis(0), &keep);
            for (r, (a, b)) in ind.rows().into_iter().zip(want_i.rows()).enumerate() {
                let mut a: Vec<usize> = a.to_vec();
                let mut b: Vec<usize> = b.iter().map(|&v| v as usize).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{name}: neighbour set of row {r}");
            }
        }
    }
}

#[test]
fn knn_regressor_matches_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("knn_reg_") {
        let s = split(case);
        let y = s.values.clone().expect("values");
        let name = case.name();
        let est = KNeighborsRegressor::new(case.usize("k"))
            .algorithm(algorithm(case))
            .weights(weights(case));
        let keep = kept(case, s.xt.nrows());
        let xt = s.xt.select(Axis(0), &keep);
        if name.ends_with("_multi") {
            let y2 = ndarray::stack![Axis(1), y, y.mapv(f64::sqrt)];
            let m = est.fit_multi(&s.x, &y2).expect("fit");
            assert_close(
                &m.predict_multi(&xt).expect("predict"),
                &case.matrix("pred").select(Axis(0), &keep),
                1e-12,
                1e-12,
                name,
            );
        } else {
            let m = est.fit(&s.x, &y).expect("fit");
            assert_close(
                &m.predict(&xt).expect("predict"),
                &case.vector("pred").select(Axis(0), &keep),
                1e-12,
                1e-12,
                name,
            );
        }
    }
}

#[test]
fn radius_neighbors_match_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("radius_clf_") {
        let s = split(case);
        let (y, _) = s.labels.clone().expect("labels");
        let m = RadiusNeighborsClassifier::new(case.scalar("radius"))
            .weights(weights(case))
            .fit(&s.x, &y)
            .expect("fit");
        let counts: Vec<usize> = m
            .radius_neighbors(&s.xt, None)
            .expect("radius")
            .iter()
            .map(|(_, i)| i.len())
            .collect();
        assert_eq!(
            counts,
            case.usize_vector("counts"),
            "{}: counts",
            case.name()
        );
        let keep = kept(case, s.xt.nrows());
        let xt = s.xt.select(Axis(0), &keep);
        assert_close(
            &m.predict_proba(&xt).expect("proba"),
            &case.matrix("proba").select(Axis(0), &keep),
            0.0,
            1e-12,
            case.name(),
        );
        assert_eq!(
            m.predict(&xt).expect("predict"),
            case.labels("pred").select(Axis(0), &keep)
        );
    }
    for case in g.cases_with_prefix("radius_reg_") {
        let s = split(case);
        let y = s.values.clone().expect("values");
        let m = RadiusNeighborsRegressor::new(case.scalar("radius"))
            .weights(weights(case))
            .fit(&s.x, &y)
            .expect("fit");
        let keep = kept(case, s.xt.nrows());
        assert_close(
            &m.predict(&s.xt.select(Axis(0), &keep)).expect("predict"),
            &case.vector("pred").select(Axis(0), &keep),
            1e-12,
            1e-12,
            case.name(),
        );
    }
}

#[test]
fn nearest_centroid_matches_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("nearest_centroid_") {
        let s = split(case);
        let (y, _) = s.labels.clone().expect("labels");
        let name = case.name();
        let mut est = NearestCentroid::default();
        if name.ends_with("manhattan") {
            est = est.metric(CentroidMetric::Manhattan);
        }
        if case.has("shrink_threshold") {
            est = est.shrink_threshold(Some(case.scalar("shrink_threshold")));
        }
        let m = est.fit(&s.x, &y).expect("fit");
        assert_close(
            m.centroids(),
            &case.matrix("centroids"),
            1e-12,
            1e-12,
            &format!("{name}: centroids"),
        );
        assert_eq!(
            m.predict(&s.xt).expect("predict"),
            case.labels("pred"),
            "{name}"
        );
    }
}
