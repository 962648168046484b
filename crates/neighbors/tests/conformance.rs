//! The conformance battery for every estimator of ndlearn-neighbors, plus f32 fits.
#![cfg(feature = "serde")]

use ndarray::{Array2, array};
use ndlearn_core::distance::Metric;
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_neighbors::{
    Algorithm, CentroidMetric, KNeighborsClassifier, KNeighborsRegressor, NearestCentroid,
    NearestNeighborInterpolator, OutlierLabel, RadiusNeighborsClassifier, RadiusNeighborsRegressor,
    Weights,
};
use ndlearn_testkit::Battery;

#[test]
fn knn_classifier_conforms() {
    for algo in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
        for w in [Weights::Uniform, Weights::Distance] {
            Battery::new(&format!("KNeighborsClassifier({algo:?}, {w:?})"))
                .classifier(&KNeighborsClassifier::new(3).algorithm(algo).weights(w))
                .assert_ok();
        }
    }
    Battery::new("KNeighborsClassifier(manhattan)")
        .classifier(&KNeighborsClassifier::default().metric(Metric::Manhattan))
        .assert_ok();
}

#[test]
fn knn_regressor_conforms() {
    for algo in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
        for w in [Weights::Uniform, Weights::Distance] {
            Battery::new(&format!("KNeighborsRegressor({algo:?}, {w:?})"))
                .regressor(&KNeighborsRegressor::new(3).algorithm(algo).weights(w))
                .assert_ok();
        }
    }
    Battery::new("NearestNeighborInterpolator")
        .regressor(&NearestNeighborInterpolator::default())
        .assert_ok();
}

#[test]
fn radius_estimators_conform() {
    // the battery's data sets are standardised-scale; a large radius and outlier fallbacks
    // keep every query answerable (huge / tiny scales included)
    Battery::new("RadiusNeighborsClassifier")
        .classifier(&RadiusNeighborsClassifier::new(2.0).outlier_label(OutlierLabel::MostFrequent))
        .assert_ok();
    Battery::new("RadiusNeighborsClassifier(distance)")
        .classifier(
            &RadiusNeighborsClassifier::new(2.0)
                .weights(Weights::Distance)
                .outlier_label(OutlierLabel::Class(0)),
        )
        .assert_ok();
    Battery::new("RadiusNeighborsRegressor")
        .regressor(&RadiusNeighborsRegressor::new(2.0).outlier_value(Some(0.0)))
        .assert_ok();
}

#[test]
fn nearest_centroid_conforms() {
    Battery::new("NearestCentroid")
        .classifier(&NearestCentroid::default())
        .assert_ok();
    Battery::new("NearestCentroid(manhattan)")
        .classifier(&NearestCentroid::default().metric(CentroidMetric::Manhattan))
        .assert_ok();
    Battery::new("NearestCentroid(shrink 0.5)")
        .classifier(&NearestCentroid::default().shrink_threshold(Some(0.5)))
        .assert_ok();
}

fn two_blobs_f32() -> (Array2<f32>, ndarray::Array1<usize>) {
    let x = array![
        [0.0f32, 0.1],
        [0.2, -0.1],
        [-0.1, 0.0],
        [0.1, 0.3],
        [5.0, 5.1],
        [5.2, 4.9],
        [4.9, 5.0],
        [5.1, 5.3]
    ];
    (x, array![0usize, 0, 0, 0, 1, 1, 1, 1])
}

#[test]
fn f32_fits_agree_with_f64() {
    let (x32, y) = two_blobs_f32();
    let x64 = x32.mapv(f64::from);
    let q32 = array![[0.5f32, 0.5], [4.0, 4.5], [2.5, 2.6]];
    let q64 = q32.mapv(f64::from);
    for w in [Weights::Uniform, Weights::Distance] {
        let est = KNeighborsClassifier::new(3).weights(w);
        let m32 = est.fit(&x32, &y).expect("f32 fit");
        let m64 = est.fit(&x64, &y).expect("f64 fit");
        assert_eq!(
            m32.predict(&q32).expect("f32").to_vec(),
            m64.predict(&q64).expect("f64").to_vec()
        );
        let (p32, p64) = (
            m32.predict_proba(&q32).expect("f32"),
            m64.predict_proba(&q64).expect("f64"),
        );
        for (a, b) in p32.iter().zip(p64.iter()) {
            assert!((f64::from(*a) - b).abs() < 1e-6, "{a} vs {b}");
        }
    }
    let t32 = y.mapv(|c| c as f32 * 2.0 + 1.0);
    let t64 = t32.mapv(f64::from);
    let r32 = KNeighborsRegressor::new(2).fit(&x32, &t32).expect("f32");
    let r64 = KNeighborsRegressor::new(2).fit(&x64, &t64).expect("f64");
    for (a, b) in r32
        .predict(&q32)
        .expect("f32")
        .iter()
        .zip(r64.predict(&q64).expect("f64").iter())
    {
        assert!((f64::from(*a) - b).abs() < 1e-6);
    }
    let c32 = NearestCentroid::default().fit(&x32, &y).expect("f32");
    assert_eq!(c32.predict(&q32).expect("f32").to_vec(), vec![0, 1, 0]);
    let rad = RadiusNeighborsClassifier::new(1.5)
        .outlier_label(OutlierLabel::MostFrequent)
        .fit(&x32, &y)
        .expect("f32");
    assert_eq!(rad.predict(&q32).expect("f32").to_vec(), vec![0, 1, 0]);
}

#[test]
fn typed_errors_for_bad_settings() {
    let (x, y) = two_blobs_f32();
    let x = x.mapv(f64::from);
    // k > n
    assert!(matches!(
        KNeighborsClassifier::new(9).fit(&x, &y),
        Err(ndlearn_core::Error::InvalidParam {
            name: "n_neighbors",
            ..
        })
    ));
    assert!(KNeighborsClassifier::new(0).fit(&x, &y).is_err());
    assert!(
        KNeighborsClassifier::new(3)
            .leaf_size(0)
            .fit(&x, &y)
            .is_err()
    );
    assert!(
        KNeighborsClassifier::new(3)
            .metric(Metric::Minkowski { p: 0.5 })
            .fit(&x, &y)
            .is_err()
    );
    // the k-d tree does not support cosine
    assert!(
        KNeighborsClassifier::new(3)
            .metric(Metric::Cosine)
            .algorithm(Algorithm::KdTree)
            .fit(&x, &y)
            .is_err()
    );
    let m = KNeighborsClassifier::new(3).fit(&x, &y).expect("fit");
    assert!(m.kneighbors(&x, Some(20)).is_err());
    // radius: negative, no neighbour without fallback, outlier class out of range
    assert!(RadiusNeighborsClassifier::new(-1.0).fit(&x, &y).is_err());
    let r = RadiusNeighborsClassifier::new(0.5)
        .fit(&x, &y)
        .expect("fit");
    let err = r
        .predict(&array![[100.0, 100.0]])
        .expect_err("no neighbour");
    assert!(err.to_string().contains("row 0"), "{err}");
    assert!(
        RadiusNeighborsClassifier::new(0.5)
            .outlier_label(OutlierLabel::Class(7))
            .fit(&x, &y)
            .is_err()
    );
    let t = y.mapv(|c| c as f64);
    let rr = RadiusNeighborsRegressor::new(0.5).fit(&x, &t).expect("fit");
    assert!(rr.predict(&array![[100.0, 100.0]]).is_err());
    assert!(
        RadiusNeighborsRegressor::new(0.5)
            .outlier_value(Some(f64::NAN))
            .fit(&x, &t)
            .is_err()
    );
    // nearest centroid needs two classes
    assert!(NearestCentroid::default().fit(&x, &y.mapv(|_| 1)).is_err());
    assert!(
        NearestCentroid::default()
            .shrink_threshold(Some(-1.0))
            .fit(&x, &y)
            .is_err()
    );
}
