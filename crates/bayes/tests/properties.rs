//! Property tests of ndlearn-bayes: streaming equals one fit (exactly for counts, to rounding
//! for Gaussian moments), posteriors are distributions, row order does not matter, serde round
//! trips are bitwise.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, Axis, s};
use ndlearn_bayes::{
    BernoulliNB, CategoricalNB, GaussianNB, LinearDiscriminantAnalysis, MultinomialNB,
};
use ndlearn_core::{Fit, PartialFit, Predict, PredictProba};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Count data (small integers) with both classes present in the first rows.
fn counts() -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
    (8usize..40, 1usize..6).prop_flat_map(|(n, d)| {
        (
            prop::collection::vec(0u8..6, n * d),
            prop::collection::vec(0usize..3, n),
        )
            .prop_map(move |(xs, mut ys)| {
                ys[0] = 0;
                ys[1] = 1;
                ys[2] = 2;
                let x = Array2::from_shape_vec((n, d), xs.into_iter().map(f64::from).collect())
                    .expect("shape");
                (x, Array1::from(ys))
            })
    })
}

fn close(a: &Array2<f64>, b: &Array2<f64>, tol: f64) -> bool {
    a.iter().zip(b.iter()).all(|(u, v)| (u - v).abs() <= tol)
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn streaming_equals_one_fit((x, y) in counts(), cut in 3usize..8) {
        let cut = cut.min(x.nrows() - 1);
        let (x1, x2) = (x.slice(s![..cut, ..]), x.slice(s![cut.., ..]));
        let (y1, y2) = (y.slice(s![..cut]), y.slice(s![cut..]));
        let est = MultinomialNB::default().n_classes(Some(3));
        let full = est.fit(&x, &y).expect("fit");
        let part = est.partial_fit(None, &x1, &y1).expect("first");
        let part = est.partial_fit(Some(part), &x2, &y2).expect("second");
        prop_assert_eq!(full.feature_log_prob(), part.feature_log_prob());
        let est = BernoulliNB::default().binarize(Some(2.0)).n_classes(Some(3));
        let full = est.fit(&x, &y).expect("fit");
        let part = est.partial_fit(None, &x1, &y1).expect("first");
        let part = est.partial_fit(Some(part), &x2, &y2).expect("second");
        prop_assert_eq!(full.predict_proba(&x).expect("a"), part.predict_proba(&x).expect("b"));
        let est = CategoricalNB::default().n_classes(Some(3));
        let full = est.fit(&x, &y).expect("fit");
        let part = est.partial_fit(None, &x1, &y1).expect("first");
        let part = est.partial_fit(Some(part), &x2, &y2).expect("second");
        prop_assert!(close(&full.predict_proba(&x).expect("a"), &part.predict_proba(&x).expect("b"), 1e-12));
        // Gaussian: Chan's merge equals the direct moments (ε recomputed per batch: compare
        // without smoothing on data with variance in every class)
        let xg = &x + &Array2::from_shape_fn(x.dim(), |(i, j)| ((i * 7 + j * 3) % 5) as f64 * 0.1);
        let est = GaussianNB::default().var_smoothing(0.0).n_classes(Some(3));
        if let Ok(full) = est.fit(&xg, &y) {
            let part = est.partial_fit(None, &xg.slice(s![..cut, ..]), &y1)
                .and_then(|p| est.partial_fit(Some(p), &xg.slice(s![cut.., ..]), &y2));
            if let Ok(part) = part {
                prop_assert!(close(full.theta(), part.theta(), 1e-9));
                prop_assert!(close(full.var(), part.var(), 1e-9));
            }
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn posteriors_are_distributions_and_order_free((x, y) in counts(), rot in 1usize..7) {
        let xg = &x + &Array2::from_shape_fn(x.dim(), |(i, j)| ((i * 5 + j) % 7) as f64 * 0.05);
        let n = x.nrows();
        let perm: Vec<usize> = (0..n).map(|i| (i + rot) % n).collect();
        let (xp, yp) = (xg.select(Axis(0), &perm), y.select(Axis(0), &perm));
        let a = GaussianNB::default().fit(&xg, &y).expect("fit");
        let b = GaussianNB::default().fit(&xp, &yp).expect("fit");
        let (pa, pb) = (a.predict_proba(&xg).expect("a"), b.predict_proba(&xg).expect("b"));
        prop_assert!(close(&pa, &pb, 1e-9));
        for row in pa.rows() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12);
            prop_assert!(row.iter().all(|&p| (0.0..=1.0).contains(&p)));
        }
        let m = MultinomialNB::default().fit(&x, &y).expect("fit");
        for row in m.predict_proba(&x).expect("p").rows() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12);
        }
        if let Ok(lda) = LinearDiscriminantAnalysis::default().fit(&xg, &y) {
            let json = serde_json::to_string(&lda).expect("json");
            let back: ndlearn_bayes::FittedLinearDiscriminantAnalysis<f64> =
                serde_json::from_str(&json).expect("load");
            prop_assert_eq!(lda.predict(&xg).expect("a"), back.predict(&xg).expect("b"));
            prop_assert_eq!(lda.predict_proba(&xg).expect("a"), back.predict_proba(&xg).expect("b"));
        }
    }
}
