//! Properties of logistic regression: probabilities are a distribution, IRLS = Newton = L-BFGS at
//! the optimum, predictions follow the probabilities, relabelling classes permutes the model,
//! f32 ≈ f64, separable data stays finite.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_linear::{LogisticRegression, LogisticSolver};
use ndlearn_testkit::{config, separable_blobs};
use proptest::prelude::*;

/// Blobs made overlapping by swapping a few labels (a finite optimum even without penalty).
fn noisy(x: &Array2<f64>, y: &Array1<usize>, k: usize) -> Array1<usize> {
    let mut y = y.clone();
    for i in (0..y.len()).step_by(5) {
        y[i] = (y[i] + 1) % k;
    }
    let _ = x;
    y
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn probabilities_and_solvers(data in separable_blobs(8..20, 2..4, 2..5), c in 0.05f64..5.0) {
        let (x, y) = data;
        let k = y.iter().max().map_or(1, |m| m + 1);
        let y = noisy(&x, &y, k);
        let base = LogisticRegression::new(c).tol(1e-10).max_iter(500);
        let newton = base.clone().solver(LogisticSolver::Newton).fit(&x, &y).expect("fit");
        let irls = base.clone().solver(LogisticSolver::Irls).fit(&x, &y).expect("fit");
        let lbfgs = base.clone().tol(1e-9).max_iter(5000).fit(&x, &y).expect("fit");
        let pn = newton.predict_proba(&x).expect("proba");
        prop_assert!(pn.iter().all(|&v| (0.0..=1.0).contains(&v)));
        prop_assert!(pn.sum_axis(Axis(1)).iter().all(|s| (s - 1.0).abs() < 1e-12));
        let pi = irls.predict_proba(&x).expect("proba");
        prop_assert!((&pi - &pn).iter().all(|v| v.abs() < 1e-8));
        let pl = lbfgs.predict_proba(&x).expect("proba");
        prop_assert!((&pl - &pn).iter().all(|v| v.abs() < 1e-4));
        // Predictions are the argmax of the probabilities.
        let pred = newton.predict(&x).expect("predict");
        for (i, row) in pn.rows().into_iter().enumerate() {
            let best = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            prop_assert!((row[pred[i]] - best).abs() < 1e-12);
        }
    }

    #[test]
    fn relabelling_permutes_probabilities(data in separable_blobs(10..20, 2..3, 3..4)) {
        let (x, y) = data;
        let y = noisy(&x, &y, 3);
        let perm = [2usize, 0, 1];
        let y2 = y.mapv(|c| perm[c]);
        let est = LogisticRegression::default().solver(LogisticSolver::Newton).tol(1e-11);
        let a = est.fit(&x, &y).expect("fit").predict_proba(&x).expect("proba");
        let b = est.fit(&x, &y2).expect("fit").predict_proba(&x).expect("proba");
        for (c, &pc) in perm.iter().enumerate() {
            let diff = &a.column(c) - &b.column(pc);
            prop_assert!(diff.iter().all(|v| v.abs() < 1e-8));
        }
    }

    #[test]
    fn f32_close_and_separable_finite(data in separable_blobs(8..20, 2..4, 2..3)) {
        let (x, y) = data;
        // Separable: with the L2 penalty the coefficients stay finite and the fit is exact.
        let fit = LogisticRegression::new(100.0).max_iter(1000).fit(&x, &y).expect("fit");
        prop_assert!(fit.coef().iter().all(|v| v.is_finite()));
        prop_assert_eq!(fit.predict(&x).expect("predict"), y.clone());
        let y = noisy(&x, &y, 2);
        let a = LogisticRegression::default().solver(LogisticSolver::Newton).tol(1e-10).fit(&x, &y).expect("fit");
        let b = LogisticRegression::default()
            .solver(LogisticSolver::Newton)
            .tol(1e-4)
            .fit(&x.mapv(|v| v as f32), &y)
            .expect("fit");
        let pa = a.predict_proba(&x).expect("proba");
        let pb = b.predict_proba(&x.mapv(|v| v as f32)).expect("proba");
        for (u, v) in pa.iter().zip(pb.iter()) {
            prop_assert!((u - f64::from(*v)).abs() < 1e-3);
        }
    }
}
