//! Properties of the trees on random data (proptest, few cases): a fully grown classifier fits
//! distinct training rows exactly and its probabilities are distributions; integer weights
//! give the fitted values of repeated rows; predictions do not depend on the order of the feature columns when
//! every feature is searched and no two splits tie; pruning along the path only removes
//! leaves and raises the training impurity.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::{Fit, FitWeighted, Predict, PredictProba};
use ndlearn_tree::{DecisionTreeClassifier, DecisionTreeRegressor};
use proptest::prelude::*;

mod common;

/// The shared generator with this file's regression noise.
fn data(seed: u64, n: usize, d: usize) -> (Array2<f64>, Array1<usize>, Array1<f64>) {
    common::data(seed, n, d, 0.1)
}

proptest! {
    #![proptest_config(ndlearn_testkit::strategies::config(12))]

    #[test]
    fn full_classifier_fits_and_gives_distributions(seed in 0u64..1_000, n in 5usize..60, d in 1usize..5) {
        let (x, y, _) = data(seed, n, d);
        let m = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        prop_assert_eq!(m.predict(&x).expect("predict"), y.clone());
        let p = m.predict_proba(&x).expect("proba");
        for row in p.rows() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12);
            prop_assert!(row.iter().all(|&v| (0.0..=1.0).contains(&v)));
        }
        let leaves = m.apply(&x).expect("apply");
        let paths = m.decision_path(&x).expect("paths");
        for i in 0..n {
            prop_assert_eq!(*paths.nodes(i).last().expect("leaf"), leaves[i]);
            prop_assert!(paths.nodes(i).len() <= m.get_depth() + 1);
        }
    }

    #[test]
    fn integer_weights_equal_repeated_rows(seed in 0u64..1_000, n in 4usize..40) {
        let (x, _, y) = data(seed, n, 3);
        let w: Array1<f64> = (0..n).map(|i| ((seed as usize + i) % 3 + 1) as f64).collect();
        let rows: Vec<usize> = (0..n).flat_map(|i| std::iter::repeat_n(i, w[i] as usize)).collect();
        let a = DecisionTreeRegressor::default().max_depth(Some(4)).fit_weighted(&x, &y, Some(&w)).expect("fit");
        let b = DecisionTreeRegressor::default()
            .max_depth(Some(4))
            .fit(&x.select(Axis(0), &rows), &y.select(Axis(0), &rows))
            .expect("fit");
        // The trees may differ where several features give the same partition (a node of
        // repeated rows draws features the weighted node never draws, so ties can be broken
        // differently); the partitions, hence the fitted values, are the same.
        let (pa, pb) = (a.predict(&x).expect("a"), b.predict(&x).expect("b"));
        for (u, v) in pa.iter().zip(&pb) {
            prop_assert!((u - v).abs() <= 1e-9 * (1.0 + v.abs()));
        }
    }

    #[test]
    fn column_order_does_not_matter_without_ties(seed in 0u64..1_000, n in 20usize..80) {
        let (x, _, y) = data(seed, n, 4);
        let perm = [2usize, 0, 3, 1];
        let xp = x.select(Axis(1), &perm);
        let est = DecisionTreeRegressor::default().max_depth(Some(3)).min_samples_leaf(ndlearn_tree::SampleCount::Count(3));
        let a = est.fit(&x, &y).expect("fit");
        let b = est.fit(&xp, &y).expect("fit");
        // Same partitions; leaf means may sum the same rows in another order.
        for (u, v) in a.predict(&x).expect("a").iter().zip(&b.predict(&xp).expect("b")) {
            prop_assert!((u - v).abs() <= 1e-12 * (1.0 + v.abs()));
        }
    }

    #[test]
    fn pruning_path_is_monotone(seed in 0u64..1_000, n in 10usize..60) {
        let (x, y, _) = data(seed, n, 3);
        let est = DecisionTreeClassifier::default();
        let path = est.cost_complexity_pruning_path(&x, &y, None).expect("path");
        prop_assert!(path.ccp_alphas.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(path.impurities.windows(2).all(|w| w[0] <= w[1] + 1e-12));
        let full = est.fit(&x, &y).expect("fit");
        let mut leaves = full.get_n_leaves();
        for &a in &path.ccp_alphas {
            let p = full.pruned(a);
            prop_assert!(p.get_n_leaves() <= leaves);
            leaves = p.get_n_leaves();
        }
        prop_assert_eq!(leaves, 1);
    }
}
