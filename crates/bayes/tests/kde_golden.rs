//! `KdeClassifier` against a reference built from scikit-learn's `KernelDensity` fitted per
//! class (`datasets/golden/bayes/kde_classifier.json`, written by
//! `scripts/golden/bayes_kde.py`): priors `ln(n_c/n)`, the per-class, per-feature bandwidths of
//! the Silverman / Scott / factor / fixed rules, the joint log-likelihoods
//! `ln π_c + ln p̂_c(x)`, the posteriors and the predictions, on the test rows `i % 4 == 0`.
//! The script checks every scikit-learn value against a direct sum over the training rows and
//! stores the direct one: on breast_cancer, 46 (row, class) log densities of scikit-learn's
//! tree traversal are not exact (e.g. −47.47 for −98.71) far from a class; ours are.
//!
//! Tolerances: the bandwidths are a standard deviation times a factor (a few roundings:
//! 1e-12 relative). A log density is the log of a sum of `n_c ≤ 300` kernel values whose
//! exponents `−‖(x − xᵢ)/h‖²/2` reach a few thousand on breast_cancer's 30 features; forming
//! them in another order (scaled differences here, scaled rows there) moves an exponent by
//! `~d ε` of its size, so joint log-likelihoods agree to 1e-10 relative plus 1e-10 absolute,
//! and posteriors (a softmax of differences of those) to 1e-8 absolute.

use ndarray::{Array1, Array2, Axis};
use ndlearn_bayes::KdeClassifier;
use ndlearn_bayes::framework::JointLogLikelihood;
use ndlearn_core::stats::kde::{Bandwidth, KdeKernel};
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_testkit::{Case, Golden, assert_close};

fn estimator(case: &Case) -> KdeClassifier {
    let kernel = match case.string("kernel") {
        "gaussian" => KdeKernel::Gaussian,
        "tophat" => KdeKernel::Tophat,
        other => panic!("kernel {other}"),
    };
    let bandwidth = match case.string("bandwidth_kind") {
        "silverman" => Bandwidth::Silverman,
        "scott" => Bandwidth::Scott,
        "factor" => Bandwidth::Factor(case.scalar("bandwidth_value")),
        "fixed" => Bandwidth::Fixed(case.scalar("bandwidth_value")),
        other => panic!("bandwidth {other}"),
    };
    KdeClassifier::default().kernel(kernel).bandwidth(bandwidth)
}

#[test]
fn kde_classifier_equals_per_class_kernel_density() {
    let g = Golden::load("bayes", "kde_classifier");
    let mut checked = 0;
    for case in g.cases() {
        let name = case.name();
        let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data set");
        let (x, y) = (ds.x(), ds.y_classes().expect("labels"));
        let tr: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 != 0).collect();
        let te: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 == 0).collect();
        let rows: Vec<usize> = case
            .usize_vector("test_rows")
            .into_iter()
            .map(|r| te[r])
            .collect();
        let m = estimator(case)
            .fit(&x.select(Axis(0), &tr), &y.select(Axis(0), &tr))
            .expect("fit");
        let xt = x.select(Axis(0), &rows);

        let priors = Array1::from(m.class_log_prior().to_vec());
        assert_close(&priors, &case.vector("log_prior"), 1e-14, 1e-14, name);
        let want_h = case.matrix("bandwidths");
        let got_h = Array2::from_shape_fn(want_h.dim(), |(c, j)| {
            m.class_densities()[c]
                .as_ref()
                .expect("class has rows")
                .bandwidths()[j]
        });
        assert_close(&got_h, &want_h, 1e-12, 0.0, &format!("{name}: bandwidths"));
        if case.has("joint_log_likelihood") {
            let jll = m.joint_log_likelihood(&xt).expect("jll");
            assert_close(
                &jll,
                &case.matrix("joint_log_likelihood"),
                1e-10,
                1e-10,
                &format!("{name}: joint log-likelihood"),
            );
        }
        assert_close(
            &m.predict_proba(&xt).expect("proba"),
            &case.matrix("proba"),
            0.0,
            1e-8,
            &format!("{name}: posteriors"),
        );
        assert_eq!(
            m.predict(&xt).expect("predict"),
            case.labels("pred"),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
}

/// A wrong bandwidth is caught: Scott's factor instead of Silverman's moves the joint
/// log-likelihoods of the iris case far beyond the tolerance above (the comparison is not
/// vacuous).
#[test]
fn a_different_bandwidth_does_not_pass() {
    let g = Golden::load("bayes", "kde_classifier");
    let case = g.case("gaussian_silverman_iris");
    let ds = ndlearn_datasets::by_name("iris").expect("iris");
    let (x, y) = (ds.x(), ds.y_classes().expect("labels"));
    let tr: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 != 0).collect();
    let te: Vec<usize> = (0..x.nrows()).filter(|i| i % 4 == 0).collect();
    let m = KdeClassifier::default()
        .bandwidth(Bandwidth::Scott)
        .fit(&x.select(Axis(0), &tr), &y.select(Axis(0), &tr))
        .expect("fit");
    let jll = m
        .joint_log_likelihood(&x.select(Axis(0), &te))
        .expect("jll");
    let want = case.matrix("joint_log_likelihood");
    let worst = (&jll - &want).mapv(f64::abs).fold(0.0f64, |a, &b| a.max(b));
    assert!(worst > 1e-3, "{worst}");
}
