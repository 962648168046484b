//! Unit tests of the threshold curves and ranking scores.

use super::*;
use ndarray::{Array1, array};

fn example() -> (Array1<usize>, Array1<f64>) {
    (array![0usize, 0, 1, 1], array![0.1, 0.4, 0.35, 0.8])
}

#[test]
fn roc_and_pr_of_the_four_point_example() {
    let (y, s) = example();
    let roc = roc_curve(&y, &s, None, true).expect("ok");
    assert_eq!(roc.fpr.to_vec(), vec![0.0, 0.0, 0.5, 0.5, 1.0]);
    assert_eq!(roc.tpr.to_vec(), vec![0.0, 0.5, 0.5, 1.0, 1.0]);
    assert_eq!(
        roc.thresholds.to_vec(),
        vec![f64::INFINITY, 0.8, 0.4, 0.35, 0.1]
    );
    assert_eq!(roc_auc_score(&y, &s, None).expect("ok"), 0.75);
    let pr = precision_recall_curve(&y, &s, None, false).expect("ok");
    // Thresholds increasing 0.1, 0.35, 0.4, 0.8: TP 2, 2, 1, 1 of P = 2, predicted 4, 3, 2, 1.
    assert_eq!(pr.precision.to_vec(), vec![0.5, 2.0 / 3.0, 0.5, 1.0, 1.0]);
    assert_eq!(pr.recall.to_vec(), vec![1.0, 1.0, 0.5, 0.5, 0.0]);
    assert_eq!(pr.thresholds.to_vec(), vec![0.1, 0.35, 0.4, 0.8]);
    // AP = 0.5·1 + 0 + 0.5·(2/3) + 0.
    let ap = average_precision_score(&y, &s, None).expect("ok");
    assert!((ap - (0.5 + 1.0 / 3.0)).abs() < 1e-15);
    // DET: FPR/FNR at thresholds 0.35, 0.4, 0.8 (increasing).
    let det = det_curve(&y, &s, None, false).expect("ok");
    assert_eq!(det.fpr.to_vec(), vec![0.5, 0.5, 0.0]);
    assert_eq!(det.fnr.to_vec(), vec![0.0, 0.5, 0.5]);
    assert_eq!(det.thresholds.to_vec(), vec![0.35, 0.4, 0.8]);
    let t = confusion_matrix_at_thresholds(&y, &s, None).expect("ok");
    assert_eq!(t.tps.to_vec(), vec![1.0, 1.0, 2.0, 2.0]);
    assert_eq!(t.tns.to_vec(), vec![2.0, 1.0, 1.0, 0.0]);
}

#[test]
fn ties_count_half_and_signed_zeros_tie() {
    // One positive and one negative with the same score: AUC 1/2.
    let a = roc_auc_score(&array![0usize, 1], &array![0.5, 0.5], None).expect("ok");
    assert_eq!(a, 0.5);
    // −0.0 and +0.0 are one threshold.
    let roc = roc_curve(&array![0usize, 1], &array![-0.0, 0.0], None, false).expect("ok");
    assert_eq!(roc.thresholds.len(), 2);
    // Mann–Whitney by hand: positives {3, 2}, negatives {2, 1}: pairs (3>2), (3>1), (2=2 → ½),
    // (2>1) → 3.5/4.
    let a = roc_auc_score(&array![1usize, 1, 0, 0], &array![3.0, 2.0, 2.0, 1.0], None).expect("ok");
    assert_eq!(a, 3.5 / 4.0);
    // Reversing the scores gives 1 − AUC.
    let r = roc_auc_score(
        &array![1usize, 1, 0, 0],
        &array![-3.0, -2.0, -2.0, -1.0],
        None,
    )
    .expect("ok");
    assert_eq!(r, 0.5 / 4.0);
}

#[test]
fn drop_intermediate_keeps_the_area() {
    let y = array![1usize, 1, 0, 0, 1, 0];
    let s = array![6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
    let full = roc_curve(&y, &s, None, false).expect("ok");
    let thin = roc_curve(&y, &s, None, true).expect("ok");
    assert!(thin.fpr.len() < full.fpr.len());
    let a_full = auc(&full.fpr, &full.tpr).expect("ok");
    let a_thin = auc(&thin.fpr, &thin.tpr).expect("ok");
    assert!((a_full - a_thin).abs() < 1e-15);
    assert!((a_full - roc_auc_score(&y, &s, None).expect("ok")).abs() < 1e-15);
    let pr_thin = precision_recall_curve(&y, &s, None, true).expect("ok");
    let pr_full = precision_recall_curve(&y, &s, None, false).expect("ok");
    assert!(pr_thin.precision.len() < pr_full.precision.len());
}

#[test]
fn weights_and_zero_weights() {
    // A zero weight removes the sample and its threshold.
    let roc = roc_curve(
        &array![1usize, 0, 0],
        &array![0.9, 0.5, 0.1],
        Some(&array![1.0, 0.0, 1.0]),
        false,
    )
    .expect("ok");
    assert_eq!(roc.thresholds.to_vec(), vec![f64::INFINITY, 0.9, 0.1]);
    // Integer weights equal repeated samples.
    let y = array![1usize, 0, 1, 0];
    let s = array![0.8, 0.7, 0.3, 0.1];
    let w = array![2.0, 1.0, 1.0, 3.0];
    let yr = array![1usize, 1, 0, 1, 0, 0, 0];
    let sr = array![0.8, 0.8, 0.7, 0.3, 0.1, 0.1, 0.1];
    let a = roc_auc_score(&y, &s, Some(&w)).expect("ok");
    assert_eq!(a, roc_auc_score(&yr, &sr, None).expect("ok"));
    let ap = average_precision_score(&y, &s, Some(&w)).expect("ok");
    assert!((ap - average_precision_score(&yr, &sr, None).expect("ok")).abs() < 1e-15);
}

#[test]
fn degenerate_classes() {
    // No positive: AP is 0 and the PR recall is 1 everywhere (scikit-learn's convention).
    let (y0, s) = (array![0usize, 0, 0], array![0.3, 0.2, 0.1]);
    assert_eq!(average_precision_score(&y0, &s, None).expect("ok"), 0.0);
    let pr = precision_recall_curve(&y0, &s, None, false).expect("ok");
    assert_eq!(pr.recall.to_vec(), vec![1.0, 1.0, 1.0, 0.0]);
    // Only positives: AP 1.
    assert_eq!(
        average_precision_score(&array![1usize, 1], &array![0.3, 0.2], None).expect("ok"),
        1.0
    );
    for r in [
        roc_auc_score(&y0, &s, None).map(|_| ()),
        roc_curve(&y0, &s, None, true).map(|_| ()),
        det_curve(&y0, &s, None, false).map(|_| ()),
    ] {
        assert!(matches!(r, Err(Error::TooFewClasses { found: 1, .. })));
    }
}

#[test]
fn error_paths() {
    let (y, s) = example();
    assert!(matches!(
        roc_auc_score(&array![0usize, 2], &array![0.1, 0.2], None),
        Err(Error::InvalidLabel {
            label: 2,
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        roc_auc_score(&y, &array![0.1, 0.2], None),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        roc_curve(&y, &array![0.1, f64::NAN, 0.3, 0.4], None, true),
        Err(Error::NonFinite { row: 1, .. })
    ));
    let empty_y = Array1::<usize>::zeros(0);
    let empty_s = Array1::<f64>::zeros(0);
    assert!(matches!(
        average_precision_score(&empty_y, &empty_s, None),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(precision_recall_curve(&y, &s, Some(&array![1.0, 1.0]), false).is_err());
    assert!(matches!(
        auc(&array![0.0], &array![1.0]),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        auc(&array![0.0, 2.0, 1.0], &array![1.0, 1.0, 1.0]),
        Err(Error::InvalidParam { .. })
    ));
    // Decreasing x is allowed and gives the positive area.
    assert_eq!(
        auc(&array![2.0, 1.0, 0.0], &array![0.0, 1.0, 0.0]).expect("ok"),
        1.0
    );
}

#[test]
fn one_vs_rest() {
    // Each class column ranks its own samples first: every per-class AUC is 1.
    let y = array![0usize, 1, 2, 0, 1, 2];
    let p = array![
        [0.8, 0.1, 0.1],
        [0.1, 0.8, 0.1],
        [0.1, 0.1, 0.8],
        [0.6, 0.3, 0.1],
        [0.2, 0.7, 0.1],
        [0.3, 0.1, 0.6]
    ];
    for avg in [
        Average::Macro,
        Average::Weighted,
        Average::Binary { pos_label: 2 },
    ] {
        assert_eq!(roc_auc_score_ovr(&y, &p, avg, None).expect("ok"), 1.0);
        assert_eq!(
            average_precision_score_ovr(&y, &p, avg, None).expect("ok"),
            1.0
        );
    }
    let not_prob = p.mapv(|v| v * 2.0);
    assert!(matches!(
        roc_auc_score_ovr(&y, &not_prob, Average::Macro, None),
        Err(Error::InvalidParam {
            name: "y_score",
            ..
        })
    ));
    // Average precision does not need probabilities.
    assert!(average_precision_score_ovr(&y, &not_prob, Average::Macro, None).is_ok());
    let missing = array![0usize, 1, 1, 0, 1, 0];
    assert!(matches!(
        roc_auc_score_ovr(&missing, &p, Average::Macro, None),
        Err(Error::InvalidParam { name: "y_true", .. })
    ));
    assert!(matches!(
        roc_auc_score_ovr(&array![0usize, 1, 3, 0, 1, 2], &p, Average::Macro, None),
        Err(Error::InvalidLabel { label: 3, .. })
    ));
    assert!(matches!(
        roc_auc_score_ovr(&y, &p, Average::Binary { pos_label: 3 }, None),
        Err(Error::InvalidParam {
            name: "pos_label",
            ..
        })
    ));
    // Class 2 with zero weight: undefined for Macro, counted 0 under Weighted (scikit-learn).
    let w = array![1.0, 1.0, 0.0, 1.0, 1.0, 0.0];
    assert!(matches!(
        roc_auc_score_ovr(&y, &p, Average::Macro, Some(&w)),
        Err(Error::TooFewClasses { .. })
    ));
    assert_eq!(
        roc_auc_score_ovr(&y, &p, Average::Weighted, Some(&w)).expect("ok"),
        1.0
    );
    let one_col = ndarray::Array2::<f64>::ones((6, 1));
    assert!(matches!(
        roc_auc_score_ovr(&y, &one_col, Average::Macro, None),
        Err(Error::TooFewClasses { .. })
    ));
}
