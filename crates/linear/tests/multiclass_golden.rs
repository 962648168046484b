//! One-vs-rest and one-vs-one over LogisticRegression against scikit-learn's
//! `OneVsRestClassifier` / `OneVsOneClassifier` (`datasets/golden/linear/multiclass.json`,
//! written by `scripts/golden/linear_multiclass.py`): decision functions, probabilities and
//! predictions on iris, standardised wine, a generated 4-class problem and a two-class subset.
//!
//! Tolerances follow the binary base model's (`logistic_golden.rs`: Newton at `tol = 1e-10`
//! against scikit-learn's newton-cholesky at `tol = 1e-10` gives probabilities to 1e-8 and
//! coefficients to a relative 1e-6):
//! - decision functions of one-vs-rest are the sub-models' log-odds, `|z| ≲ 30` on these data:
//!   `1e-6 · max(1, max|z|)` absolute;
//! - one-vs-one's `votes + c/(3(|c|+1))` has slope ≤ ⅓ in the summed log-odds `c`, and the
//!   votes are integers that must agree exactly: `1e-6 · max(1, max|c|)` absolute covers it;
//! - probabilities: 1e-8 absolute;
//! - predictions: identical (the generator checks that no row sits within 1e-6 of a tie).

use ndarray::Array2;
use ndlearn_core::{DecisionFunction, Fit, Predict, PredictProba};
use ndlearn_linear::{LogisticRegression, LogisticSolver, OneVsOneClassifier, OneVsRestClassifier};
use ndlearn_testkit::{Case, Golden, assert_close, max_abs_diff};

fn golden() -> Golden {
    Golden::load("linear", "multiclass")
}

fn base(case: &Case) -> LogisticRegression {
    LogisticRegression::new(case.scalar("c"))
        .solver(LogisticSolver::Newton)
        .tol(1e-10)
        .max_iter(200)
}

fn scale(a: &Array2<f64>) -> f64 {
    a.iter().fold(1.0f64, |m, v| m.max(v.abs()))
}

#[test]
fn one_vs_rest_matches_sklearn() {
    let g = golden();
    let mut worst = (0.0f64, 0.0f64);
    for case in g.cases() {
        let ctx = case.name();
        let (x, y) = (case.matrix("x"), case.labels("y"));
        let m = OneVsRestClassifier::new(base(case))
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(m.n_classes(), case.usize("n_classes"), "{ctx}");
        assert!(m.estimators().iter().all(|e| e.converged()), "{ctx}");
        let want = case.matrix("ovr_decision");
        let d = m.decision_function(&x).expect("decision");
        assert_close(&d, &want, 0.0, 1e-6 * scale(&want), ctx);
        let p = m.predict_proba(&x).expect("proba");
        assert_close(&p, &case.matrix("ovr_proba"), 0.0, 1e-8, ctx);
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("ovr_predict"),
            "{ctx}"
        );
        worst.0 = worst.0.max(max_abs_diff(&d, &want) / scale(&want));
        worst.1 = worst.1.max(max_abs_diff(&p, &case.matrix("ovr_proba")));
    }
    eprintln!(
        "one-vs-rest: max relative decision deviation {:.2e}, max probability deviation {:.2e}",
        worst.0, worst.1
    );
}

#[test]
fn one_vs_one_matches_sklearn() {
    let g = golden();
    let mut worst = 0.0f64;
    for case in g.cases() {
        let ctx = case.name();
        let (x, y) = (case.matrix("x"), case.labels("y"));
        for parallel in [true, false] {
            let m = OneVsOneClassifier::new(base(case))
                .parallel(parallel)
                .fit(&x, &y)
                .expect("fit");
            let k = case.usize("n_classes");
            assert_eq!(m.estimators().len(), k * (k - 1) / 2, "{ctx}");
            let want = case.matrix("ovo_decision");
            let d = m.decision_function(&x).expect("decision");
            // The summed log-odds are at most (K − 1)·max|z|; 1e-5 absolute is 1e-6 of 10.
            assert_close(&d, &want, 0.0, 1e-5, ctx);
            assert_eq!(
                m.predict(&x).expect("predict"),
                case.labels("ovo_predict"),
                "{ctx}"
            );
            worst = worst.max(max_abs_diff(&d, &want));
        }
    }
    eprintln!("one-vs-one: max decision deviation {worst:.2e}");
}

#[test]
fn f32_fits_agree_with_sklearn_loosely() {
    let g = golden();
    for name in ["iris", "wine"] {
        let case = g.case(name);
        let x: Array2<f32> = case.matrix("x").mapv(|v| v as f32);
        let y = case.labels("y");
        let est = LogisticRegression::new(case.scalar("c"))
            .solver(LogisticSolver::Newton)
            .tol(1e-4);
        let ovr = OneVsRestClassifier::new(est.clone())
            .fit(&x, &y)
            .expect("fit");
        // Single precision: probabilities to 1e-3 (as the base model's f32 golden).
        let p = ovr.predict_proba(&x).expect("proba");
        assert_close(&p, &case.matrix("ovr_proba"), 0.0, 1e-3, name);
        let ovo = OneVsOneClassifier::new(est).fit(&x, &y).expect("fit");
        let d = ovo.decision_function(&x).expect("decision");
        // `tol = 1e-4` in f32 leaves log-odds errors of order 1e-3 on 13 standardised
        // features; D has slope ≤ ⅓ in their sum over K − 1 = 2 pairs: 5e-3.
        assert_close(&d, &case.matrix("ovo_decision"), 0.0, 5e-3, name);
        let agree = ovo
            .predict(&x)
            .expect("predict")
            .iter()
            .zip(case.labels("ovo_predict").iter())
            .filter(|(a, b)| a == b)
            .count();
        assert_eq!(agree, y.len(), "{name}: f32 one-vs-one predictions");
    }
}

/// The estimator contract (issue #18, part D): any binary estimator with a trait-shaped
/// `DecisionFunction` plugs into the reductions; the perceptron did not before.
#[test]
fn reductions_accept_the_perceptron_and_agree_with_its_own_decisions() {
    use ndlearn_linear::Perceptron;
    let data = ndlearn_datasets::iris();
    let y = data.y_classes().expect("labels");
    let x = data.x();
    let ovr = OneVsRestClassifier::new(Perceptron::default())
        .fit(x, y)
        .expect("fits");
    let scores = ovr.decision_function(x).expect("scores");
    let pred = ovr.predict(x).expect("predicts");
    assert_eq!(scores.dim(), (x.nrows(), 3));
    for (row, &p) in scores.rows().into_iter().zip(&pred) {
        assert_eq!(ndlearn_core::numeric::argmax(row.iter().copied()), p);
    }
    let acc = pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64;
    assert!(acc > 0.7, "one-vs-rest perceptron accuracy {acc}");
    let ovo = OneVsOneClassifier::new(Perceptron::default())
        .fit(x, y)
        .expect("fits");
    let acc = ovo
        .predict(x)
        .expect("predicts")
        .iter()
        .zip(y)
        .filter(|(a, b)| a == b)
        .count() as f64
        / y.len() as f64;
    assert!(acc > 0.8, "one-vs-one perceptron accuracy {acc}");
}
