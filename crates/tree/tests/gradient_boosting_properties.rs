//! Properties of gradient boosting on random data (proptest, few cases; up to 600 rows, so
//! the parallel prediction spans several row chunks): the last staged
//! prediction is the prediction for every loss; shrinkage trades off against the number of
//! stages; the fit does not depend on the order of the rows when no splits tie; models are
//! bitwise identical for 1, 2 and 3 threads; f32 fits agree with f64 fits on float32 data.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::{DecisionFunction, Fit, FitWeighted, Predict, PredictProba};
use ndlearn_tree::{
    GradientBoostingClassificationLoss, GradientBoostingClassifier, GradientBoostingRegressionLoss,
    GradientBoostingRegressor,
};
use proptest::prelude::*;

mod common;

/// The shared generator with this file's regression noise.
fn data(seed: u64, n: usize, d: usize) -> (Array2<f64>, Array1<usize>, Array1<f64>) {
    common::data(seed, n, d, 0.3)
}

const REG_LOSSES: [GradientBoostingRegressionLoss; 4] = [
    GradientBoostingRegressionLoss::SquaredError,
    GradientBoostingRegressionLoss::AbsoluteError,
    GradientBoostingRegressionLoss::Huber,
    GradientBoostingRegressionLoss::Quantile,
];

fn variance(y: &Array1<f64>) -> f64 {
    let m = y.mean().unwrap_or(0.0);
    y.mapv(|v| (v - m) * (v - m)).mean().unwrap_or(0.0)
}

proptest! {
    #![proptest_config(ndlearn_testkit::strategies::config(8))]

    #[test]
    fn last_stage_is_the_prediction(seed in 0u64..1_000, n in 20usize..600, loss in 0usize..4,
                                    subsample in prop::sample::select(vec![1.0, 0.7])) {
        let (x, yc, yr) = data(seed, n, 3);
        let reg = GradientBoostingRegressor::default()
            .loss(REG_LOSSES[loss])
            .n_estimators(8)
            .subsample(subsample)
            .seed(seed)
            .fit(&x, &yr)
            .expect("fit");
        let staged = reg.staged_predict(&x).expect("staged");
        prop_assert_eq!(staged.len(), 8);
        prop_assert_eq!(staged.last().expect("stages"), &reg.predict(&x).expect("predict"));
        // Two classes (log-loss / exponential) and three (multinomial).
        let yb = yc.mapv(|c| usize::from(c > 0));
        for (y, l) in [
            (&yb, GradientBoostingClassificationLoss::LogLoss),
            (&yb, GradientBoostingClassificationLoss::Exponential),
            (&yc, GradientBoostingClassificationLoss::LogLoss),
        ] {
            let distinct = y.iter().collect::<std::collections::BTreeSet<_>>().len();
            if distinct < 2 {
                continue;
            }
            let clf = GradientBoostingClassifier::default()
                .loss(l)
                .n_estimators(6)
                .subsample(subsample)
                .seed(seed)
                .fit(&x, y)
                .expect("fit");
            let dec = clf.staged_decision_function(&x).expect("staged");
            prop_assert_eq!(dec.last().expect("stages"), &clf.decision_function(&x).expect("dec"));
            let proba = clf.staged_predict_proba(&x).expect("staged");
            let p = clf.predict_proba(&x).expect("proba");
            prop_assert_eq!(proba.last().expect("stages"), &p);
            for row in p.rows() {
                prop_assert!((row.sum() - 1.0).abs() < 1e-12);
            }
            let labels = clf.staged_predict(&x).expect("staged");
            prop_assert_eq!(labels.last().expect("stages"), &clf.predict(&x).expect("predict"));
        }
    }

    #[test]
    fn shrinkage_trades_off_against_stages(seed in 0u64..1_000, n in 40usize..100) {
        let (x, _, y) = data(seed, n, 3);
        let fit = |lr: f64, m: usize| {
            let f = GradientBoostingRegressor::default()
                .learning_rate(lr)
                .n_estimators(m)
                .max_depth(Some(2))
                .fit(&x, &y)
                .expect("fit");
            *f.train_score().last().expect("stages")
        };
        let v = variance(&y);
        let (slow, fast, long) = (fit(0.05, 20), fit(0.2, 20), fit(0.1, 40));
        // Every setting improves on the constant model; at equal stages the larger step fits the
        // training data better; λ·M equal gives training losses of the same order.
        prop_assert!(slow < v && fast < v && long < v);
        prop_assert!(fast <= slow);
        prop_assert!((long - fast).abs() < 0.25 * v, "λM = 4: {long} vs {fast} (variance {v})");
    }

    #[test]
    // Squared error and Huber only: the pseudo-residuals of the absolute and quantile losses take
    // two values, so equal-gain splits are common and their winner depends on the row order (in
    // scikit-learn too).
    fn row_order_does_not_matter_without_ties(seed in 0u64..1_000, n in 20usize..70, loss in prop::sample::select(vec![0usize, 2])) {
        let (x, yc, yr) = data(seed, n, 3);
        let perm: Vec<usize> = (0..n).map(|i| (i * 7 + seed as usize) % n).collect();
        // 7 is coprime with n unless n is a multiple of 7.
        prop_assume!(n % 7 != 0);
        let (xp, yrp, ycp) = (x.select(Axis(0), &perm), yr.select(Axis(0), &perm), yc.select(Axis(0), &perm));
        let w: Array1<f64> = (0..n).map(|i| 0.5 + (i % 3) as f64).collect();
        let wp = w.select(Axis(0), &perm);
        let est = GradientBoostingRegressor::default().loss(REG_LOSSES[loss]).n_estimators(10);
        let a = est.fit_weighted(&x, &yr, Some(&w)).expect("fit").predict(&x).expect("predict");
        let b = est.fit_weighted(&xp, &yrp, Some(&wp)).expect("fit").predict(&x).expect("predict");
        for (u, v) in a.iter().zip(&b) {
            prop_assert!((u - v).abs() <= 1e-9 * (1.0 + u.abs()), "{u} vs {v}");
        }
        let clf = GradientBoostingClassifier::default().n_estimators(6);
        let a = clf.fit(&x, &yc).expect("fit").predict_proba(&x).expect("proba");
        let b = clf.fit(&xp, &ycp).expect("fit").predict_proba(&x).expect("proba");
        for (u, v) in a.iter().zip(b.iter()) {
            prop_assert!((u - v).abs() <= 1e-9, "{u} vs {v}");
        }
    }
}

#[test]
fn bitwise_identical_for_one_two_and_three_threads() {
    // Large enough for the parallel split search (nodes of ≥ 8,192 rows) and several
    // prediction chunks.
    let (x, yc, yr) = data(7, 9_000, 4);
    let reg = GradientBoostingRegressor::default()
        .loss(GradientBoostingRegressionLoss::Huber)
        .n_estimators(3)
        .subsample(0.9)
        .seed(3);
    let clf = GradientBoostingClassifier::default()
        .n_estimators(2)
        .seed(5);
    let run = |threads: usize| {
        ndlearn_core::par::with_threads(threads, || {
            let r = reg.fit(&x, &yr).expect("fit");
            let c = clf.fit(&x, &yc).expect("fit");
            (
                r.predict(&x).expect("predict"),
                r.trees().to_vec(),
                c.decision_function(&x).expect("decision"),
                c.trees().to_vec(),
            )
        })
        .expect("pool")
    };
    let one = run(1);
    for t in [2, 3] {
        assert!(one == run(t), "{t} threads differ from 1");
    }
}

#[test]
fn early_stopping_stops_and_keeps_the_stage() {
    let (x, yc, yr) = data(11, 300, 3);
    let m = GradientBoostingRegressor::default()
        .n_estimators(500)
        .learning_rate(0.5)
        .n_iter_no_change(Some(2))
        .fit(&x, &yr)
        .expect("fit");
    assert!(m.n_estimators() < 500);
    assert_eq!(m.train_score().len(), m.n_estimators());
    let c = GradientBoostingClassifier::default()
        .n_estimators(500)
        .learning_rate(0.5)
        .n_iter_no_change(Some(2))
        .fit(&x, &yc)
        .expect("fit");
    assert!(c.n_estimators() < 500);
    assert_eq!(c.trees().len(), 3 * c.n_estimators());
}

#[test]
fn f32_fit_matches_f64_on_float32_data() {
    // float32-representable inputs: the same trees (thresholds stored in f32 or f64 split the
    // training rows alike), raw scores accumulated in f64 in both, outputs cast at the end.
    let (x, yc, yr) = data(5, 120, 3);
    let (x, yr) = (x.mapv(|v| v as f32 as f64), yr.mapv(|v| v as f32 as f64));
    let (x32, yr32) = (x.mapv(|v| v as f32), yr.mapv(|v| v as f32));
    for loss in REG_LOSSES {
        let est = GradientBoostingRegressor::default()
            .loss(loss)
            .n_estimators(15);
        let a = est.fit(&x, &yr).expect("fit").predict(&x).expect("predict");
        let b = est
            .fit(&x32, &yr32)
            .expect("fit")
            .predict(&x32)
            .expect("predict");
        for (u, v) in a.iter().zip(&b) {
            assert!(
                (u - f64::from(*v)).abs() <= 1e-6 * (1.0 + u.abs()),
                "{loss:?}: {u} vs {v}"
            );
        }
    }
    let est = GradientBoostingClassifier::default().n_estimators(10);
    let a = est
        .fit(&x, &yc)
        .expect("fit")
        .predict_proba(&x)
        .expect("proba");
    let b = est
        .fit(&x32, &yc)
        .expect("fit")
        .predict_proba(&x32)
        .expect("proba");
    for (u, v) in a.iter().zip(b.iter()) {
        assert!((u - f64::from(*v)).abs() <= 1e-6, "{u} vs {v}");
    }
}
