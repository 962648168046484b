//! Properties of the perceptron and the least-squares discriminant: the PLA separates separable
//! data with zero training errors (catalog L-01, property 23), one-vs-rest is equivariant under
//! relabelling, one-hot least-squares scores sum to one and the ±1 coding gives the same
//! classifier, f32 ≈ f64.

use ndarray::{Array1, Axis};
use ndlearn_core::DecisionFunction;
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{LeastSquaresClassifier, LsTargets, Perceptron, PerceptronSolver};
use ndlearn_testkit::{config, separable_blobs};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn pla_separates_separable_data(data in separable_blobs(5..15, 3..5, 2..4), eta in 0.1f64..3.0) {
        let (x, y) = data;
        for solver in [PerceptronSolver::Classic, PerceptronSolver::Threshold] {
            let fit = Perceptron::new(solver).eta0(eta).max_iter(10_000).fit(&x, &y).expect("fit");
            prop_assert!(fit.converged(), "{:?}", solver);
            prop_assert_eq!(fit.predict(&x).expect("predict"), y.clone());
            // Every problem's last epoch was mistake-free: the plane is a fixed point.
            prop_assert!(fit.n_mistakes().iter().all(|m| m.last() == Some(&0)));
        }
    }

    #[test]
    fn one_vs_rest_relabelling_permutes_the_problems(data in separable_blobs(5..12, 3..5, 3..4)) {
        let (x, y) = data;
        let perm = [2usize, 0, 1];
        let y2: Array1<usize> = y.mapv(|c| perm[c]);
        let est = Perceptron::new(PerceptronSolver::Classic);
        let a = est.fit(&x, &y).expect("fit");
        let b = est.fit(&x, &y2).expect("fit");
        for (c, &pc) in perm.iter().enumerate() {
            prop_assert_eq!(a.coef().row(c), b.coef().row(pc));
            prop_assert_eq!(a.intercept()[c], b.intercept()[pc]);
        }
        let pa = a.predict(&x).expect("predict").mapv(|c| perm[c]);
        prop_assert_eq!(pa, b.predict(&x).expect("predict"));
    }

    #[test]
    fn least_squares_codings_agree(data in separable_blobs(6..15, 2..5, 2..5), alpha in 0.0f64..3.0) {
        let (x, y) = data;
        let oh = LeastSquaresClassifier::new(alpha).fit(&x, &y).expect("fit");
        let pm = LeastSquaresClassifier::new(alpha)
            .targets(LsTargets::PlusMinusOne)
            .fit(&x, &y)
            .expect("fit");
        let so = oh.decision_function(&x).expect("scores");
        prop_assert!(so.sum_axis(Axis(1)).iter().all(|s| (s - 1.0).abs() < 1e-8));
        prop_assert_eq!(oh.predict(&x).expect("predict"), pm.predict(&x).expect("predict"));
        // Separable blobs are classified perfectly by the least-squares discriminant too.
        prop_assert_eq!(oh.predict(&x).expect("predict"), y.clone());
        // f32 ≈ f64.
        let f32fit = LeastSquaresClassifier::new(alpha).fit(&x.mapv(|v| v as f32), &y).expect("fit");
        let s32 = f32fit.decision_function(&x.mapv(|v| v as f32)).expect("scores");
        prop_assert!(s32.iter().zip(so.iter()).all(|(a, b)| (f64::from(*a) - b).abs() < 1e-3));
    }
}
