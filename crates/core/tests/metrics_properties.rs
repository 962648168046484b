//! Property tests of `ndlearn_core::metrics`: symmetries, ranges, identities, and bitwise
//! thread-count invariance of the parallel paths (ROC sort, blocked silhouette).

use ndarray::{Array1, Array2};
use ndlearn_core::distance::Metric;
use ndlearn_core::metrics::*;
use ndlearn_core::{par, random};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Binary labels with both classes and scores rounded to one decimal (ties).
fn binary_scored() -> impl Strategy<Value = (Array1<usize>, Array1<f64>)> {
    (4usize..80).prop_flat_map(|n| {
        (
            proptest::collection::vec(0usize..2, n),
            proptest::collection::vec(-2.0f64..2.0, n),
        )
            .prop_map(|(mut y, s)| {
                y[0] = 0;
                y[1] = 1;
                let s: Vec<f64> = s.iter().map(|v| (v * 10.0).round() / 10.0).collect();
                (Array1::from(y), Array1::from(s))
            })
    })
}

fn label_pair(k: usize) -> impl Strategy<Value = (Array1<usize>, Array1<usize>)> {
    (2usize..60).prop_flat_map(move |n| {
        (
            proptest::collection::vec(0usize..k, n),
            proptest::collection::vec(0usize..k, n),
        )
            .prop_map(|(a, b)| (Array1::from(a), Array1::from(b)))
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn auc_of_reversed_scores_is_one_minus_auc((y, s) in binary_scored()) {
        let a = roc_auc_score(&y, &s, None).expect("both classes");
        let r = roc_auc_score(&y, &s.mapv(|v| -v), None).expect("both classes");
        prop_assert!((a + r - 1.0).abs() < 1e-12, "{a} + {r}");
        prop_assert!((0.0..=1.0).contains(&a));
        // The curve's trapezoid gives the same area.
        let roc = roc_curve(&y, &s, None, true).expect("both classes");
        prop_assert!((auc(&roc.fpr, &roc.tpr).expect("monotone") - a).abs() < 1e-12);
        let ap = average_precision_score(&y, &s, None).expect("valid");
        prop_assert!((0.0..=1.0 + 1e-12).contains(&ap));
    }

    #[test]
    fn ari_and_nmi_ignore_label_values((a, b) in label_pair(5), shift in 1usize..1000) {
        // A bijective relabelling (reverse order, then shift) of a.
        let perm = a.mapv(|v| (4 - v) * 3 + shift);
        let ari = adjusted_rand_score(&a, &perm).expect("valid");
        prop_assert!((ari - 1.0).abs() < 1e-12, "{ari}");
        let x = adjusted_rand_score(&a, &b).expect("valid");
        let y = adjusted_rand_score(&perm, &b).expect("valid");
        prop_assert_eq!(x, y);
        let n1 = normalized_mutual_info_score(&a, &b, AverageMethod::Arithmetic).expect("valid");
        let n2 = normalized_mutual_info_score(&b, &a, AverageMethod::Arithmetic).expect("valid");
        prop_assert!((n1 - n2).abs() < 1e-12);
        prop_assert!((-1e-12..=1.0 + 1e-12).contains(&n1));
        let r = rand_score(&a, &b).expect("valid");
        prop_assert!((0.0..=1.0).contains(&r));
    }

    #[test]
    fn accuracy_plus_zero_one_loss_is_one(
        (a, b) in label_pair(4),
        wseed in 0u64..1000,
    ) {
        let acc = accuracy_score(&a, &b, None).expect("valid");
        let err = zero_one_loss(&a, &b, None).expect("valid");
        prop_assert!((acc + err - 1.0).abs() < 1e-15);
        let mut rng = random::rng(wseed);
        let w = Array1::from_shape_fn(a.len(), |_| random::uniform(&mut rng, 0.1, 2.0));
        let acc = accuracy_score(&a, &b, Some(&w)).expect("valid");
        let err = zero_one_loss(&a, &b, Some(&w)).expect("valid");
        prop_assert!((acc + err - 1.0).abs() < 1e-14);
        // Micro F1 = accuracy; macro scores and MCC stay in range.
        let f = f1_score(&a, &b, Average::Micro, None).expect("valid");
        prop_assert!((f - accuracy_score(&a, &b, None).expect("valid")).abs() < 1e-14);
        let m = f1_score(&a, &b, Average::Macro, None).expect("valid");
        prop_assert!((0.0..=1.0).contains(&m));
        let mcc = matthews_corrcoef(&a, &b, None).expect("valid");
        prop_assert!((-1.0 - 1e-12..=1.0 + 1e-12).contains(&mcc));
    }

    #[test]
    fn silhouette_lies_in_unit_interval(n in 6usize..60, k in 2usize..5, seed in 0u64..1000) {
        let mut rng = random::rng(seed);
        let x = Array2::from_shape_fn((n, 3), |_| random::standard_normal::<f64>(&mut rng));
        let mut labels = Array1::from_shape_fn(n, |i| i % k);
        labels[0] = 0;
        let s = silhouette_samples(&x, &labels, &Metric::Euclidean).expect("valid");
        prop_assert!(s.iter().all(|v| (-1.0..=1.0).contains(v)));
        let m = silhouette_samples(&x, &labels, &Metric::Manhattan).expect("valid");
        prop_assert!(m.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
}

#[test]
fn roc_and_silhouette_are_bitwise_thread_invariant() {
    let mut rng = random::rng(3);
    let n = 60_000;
    let y = Array1::from_shape_fn(n, |i| usize::from(i % 3 == 0));
    let s = Array1::from_shape_fn(n, |i| {
        let v: f64 = random::standard_normal(&mut rng);
        ((v + 0.5 * y[i] as f64) * 1000.0).round() / 1000.0
    });
    let w = Array1::from_shape_fn(n, |_| random::uniform(&mut rng, 0.0, 2.0));
    let run = |t: usize| {
        par::with_threads(t, || {
            let roc = roc_curve(&y, &s, Some(&w), true).expect("valid");
            let a = roc_auc_score(&y, &s, Some(&w)).expect("valid");
            let ap = average_precision_score(&y, &s, Some(&w)).expect("valid");
            (roc, a, ap)
        })
        .expect("pool")
    };
    let (r1, a1, p1) = run(1);
    let (r2, a2, p2) = run(2);
    assert_eq!(a1.to_bits(), a2.to_bits());
    assert_eq!(p1.to_bits(), p2.to_bits());
    assert_eq!(r1, r2);

    let (k, d, m) = (4, 5, 1500);
    let centres = Array2::from_shape_fn((k, d), |_| random::standard_normal::<f64>(&mut rng) * 4.0);
    let labels = Array1::from_shape_fn(m, |i| (i * 5 + 1) % k);
    let x = Array2::from_shape_fn((m, d), |(i, j)| {
        centres[[labels[i], j]] + random::standard_normal::<f64>(&mut rng)
    });
    let sil = |t: usize| {
        par::with_threads(t, || {
            (
                silhouette_samples(&x, &labels, &Metric::Euclidean).expect("valid"),
                silhouette_samples(&x, &labels, &Metric::Manhattan).expect("valid"),
            )
        })
        .expect("pool")
    };
    let (e1, m1) = sil(1);
    let (e2, m2) = sil(2);
    assert!(e1.iter().zip(&e2).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(m1.iter().zip(&m2).all(|(a, b)| a.to_bits() == b.to_bits()));
    // f32 data stay close to f64.
    let s32 = silhouette_score(&x.mapv(|v| v as f32), &labels, &Metric::Euclidean).expect("valid");
    let s64 = silhouette_score(&x, &labels, &Metric::Euclidean).expect("valid");
    assert!((s32 - s64).abs() < 1e-5, "{s32} vs {s64}");
}
