//! The conformance battery for SGDClassifier and SGDRegressor (f64, the battery's precision),
//! plus the same basic contract checked by hand in f32: typed errors for non-finite input and a
//! wrong feature count, predictions from a serde round trip equal to the original's.
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2, array};
use ndlearn_core::{Error, Fit, PartialFit, Predict, PredictProba};
use ndlearn_linear::{
    FittedSGDClassifier, FittedSGDRegressor, LearningRate, SGDClassifier, SGDRegressor, SgdLoss,
    SgdPenalty,
};
use ndlearn_testkit::Battery;

#[test]
fn sgd_classifier_conforms() {
    for (name, est) in [
        ("SGDClassifier(default)", SGDClassifier::default()),
        (
            "SGDClassifier(log, elastic net, no shuffle)",
            SGDClassifier::default()
                .loss(SgdLoss::LogLoss)
                .penalty(SgdPenalty::ElasticNet)
                .shuffle(false),
        ),
        (
            "SGDClassifier(modified Huber, L1, averaged)",
            SGDClassifier::default()
                .loss(SgdLoss::ModifiedHuber)
                .penalty(SgdPenalty::L1)
                .average(1),
        ),
        (
            "SGDClassifier(squared hinge, constant)",
            SGDClassifier::default()
                .loss(SgdLoss::SquaredHinge)
                .learning_rate(LearningRate::Constant)
                .eta0(0.01),
        ),
    ] {
        Battery::new(name).classifier(&est).assert_ok();
    }
}

#[test]
fn sgd_regressor_conforms() {
    for (name, est) in [
        ("SGDRegressor(default)", SGDRegressor::default()),
        (
            "SGDRegressor(Huber, no shuffle)",
            SGDRegressor::default().loss(SgdLoss::Huber).shuffle(false),
        ),
        (
            "SGDRegressor(epsilon-insensitive, L1, averaged)",
            SGDRegressor::default()
                .loss(SgdLoss::EpsilonInsensitive)
                .penalty(SgdPenalty::L1)
                .average(10),
        ),
        (
            "SGDRegressor(adaptive)",
            SGDRegressor::default().learning_rate(LearningRate::Adaptive),
        ),
    ] {
        Battery::new(name).regressor(&est).assert_ok();
    }
}

fn data32() -> (Array2<f32>, Array1<usize>, Array1<f32>) {
    let x: Array2<f32> = array![
        [-2.0, 1.0],
        [-1.5, -0.5],
        [-1.0, 0.3],
        [-1.8, 0.1],
        [1.0, 0.2],
        [1.5, -1.0],
        [2.0, 0.8],
        [1.2, 0.5]
    ];
    let labels = array![0usize, 0, 0, 0, 1, 1, 1, 1];
    let y = x.column(0).mapv(|v| 3.0 * v + 1.0);
    (x, labels, y)
}

#[test]
fn f32_contract() {
    let (x, labels, y) = data32();
    let clf: FittedSGDClassifier<f32> = SGDClassifier::default()
        .loss(SgdLoss::LogLoss)
        .fit(&x, &labels)
        .expect("fit");
    assert_eq!(clf.predict(&x).expect("predict"), labels);
    let p = clf.predict_proba(&x).expect("proba");
    assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-6));
    let json = serde_json::to_string(&clf).expect("serialize");
    let back: FittedSGDClassifier<f32> = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(back.predict(&x).expect("predict"), labels);
    assert_eq!(back, clf);

    let reg: FittedSGDRegressor<f32> = SGDRegressor::default()
        .learning_rate(LearningRate::Constant)
        .eta0(0.05)
        .tol(None)
        .max_iter(200)
        .fit(&x, &y)
        .expect("fit");
    let pred = reg.predict(&x).expect("predict");
    assert!((&pred - &y).iter().all(|r| r.abs() < 1e-2));
    let json = serde_json::to_string(&reg).expect("serialize");
    let back: FittedSGDRegressor<f32> = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(back.predict(&x).expect("predict"), pred);

    let mut bad = x.clone();
    bad[[2, 1]] = f32::NAN;
    assert!(matches!(
        SGDClassifier::default().fit(&bad, &labels),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        SGDRegressor::default().fit(&bad, &y),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        SGDRegressor::default().partial_fit(None, &bad, &y),
        Err(Error::NonFinite { .. })
    ));
    let wide = Array2::<f32>::zeros((2, 3));
    assert!(matches!(
        clf.predict(&wide),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        reg.predict(&wide),
        Err(Error::ShapeMismatch { .. })
    ));
}

/// Streaming over the whole data in one batch per epoch is the same computation as `fit` with
/// `max_iter` epochs and no stopping rule (same `t`, same order), bitwise.
#[test]
fn partial_fit_epochs_equal_fit_without_stopping() {
    let data = ndlearn_datasets::iris();
    let x = data.x().to_owned();
    let y = data.y_classes().expect("labels").to_owned();
    let est = SGDClassifier::default()
        .shuffle(false)
        .tol(None)
        .max_iter(4)
        .n_classes(Some(3));
    let fit = est.fit(&x, &y).expect("fit");
    let mut model = None;
    for _ in 0..4 {
        model = Some(est.partial_fit(model, &x, &y).expect("partial"));
    }
    let streamed = model.expect("model");
    assert_eq!(streamed.t(), fit.t());
    // The L1 accumulator and wscale restart with every call in both libraries, so compare an
    // L2 fit, where one call of 4 epochs and 4 calls of 1 epoch do the same arithmetic except
    // for the wscale folding at each call's end: equal to rounding.
    let d = (streamed.coef() - fit.coef())
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(d < 1e-10, "{d:e}");

    let reg = SGDRegressor::default().shuffle(false).tol(None).max_iter(3);
    let xd = ndlearn_datasets::diabetes().x().to_owned();
    let yd = ndlearn_datasets::diabetes()
        .y_values()
        .expect("target")
        .to_owned();
    let fit = reg.fit(&xd, &yd).expect("fit");
    let mut model = None;
    for _ in 0..3 {
        model = Some(reg.partial_fit(model, &xd, &yd).expect("partial"));
    }
    let streamed = model.expect("model");
    assert_eq!(streamed.t(), fit.t());
    assert!(
        (streamed.coef() - fit.coef())
            .iter()
            .all(|v| v.abs() < 1e-10)
    );
}
