//! Unit tests of the label-based classification metrics (hand-checked values, error paths).

use super::*;
use crate::metrics::{KappaWeights, balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef};
use ndarray::{Array1, array};

/// The 2 × 2 example: truth 0,0,1,1,1 / prediction 0,1,1,1,0 → TN 1, FP 1, FN 1, TP 2.
fn two_by_two() -> (Array1<usize>, Array1<usize>) {
    (array![0usize, 0, 1, 1, 1], array![0usize, 1, 1, 1, 0])
}

const BIN: Average = Average::Binary { pos_label: 1 };

#[test]
fn two_by_two_hand_values() {
    let (t, p) = two_by_two();
    let c = confusion_matrix(&t, &p, None, None).expect("ok");
    assert_eq!(c, array![[1.0, 1.0], [1.0, 2.0]]);
    assert_eq!(accuracy_score(&t, &p, None).expect("ok"), 0.6);
    assert_eq!(accuracy_count(&t, &p, None).expect("ok"), 3.0);
    assert!((zero_one_loss(&t, &p, None).expect("ok") - 0.4).abs() < 1e-15);
    assert_eq!(zero_one_loss_count(&t, &p, None).expect("ok"), 2.0);
    // precision = TP/(TP+FP) = 2/3, recall = TP/(TP+FN) = 2/3, FPR = FP/(FP+TN) = 1/2.
    assert_eq!(precision_score(&t, &p, BIN, None).expect("ok"), 2.0 / 3.0);
    assert_eq!(recall_score(&t, &p, BIN, None).expect("ok"), 2.0 / 3.0);
    assert_eq!(false_positive_rate(&t, &p, BIN, None).expect("ok"), 0.5);
    assert_eq!(specificity_score(&t, &p, BIN, None).expect("ok"), 0.5);
    // F1 = 2TP/(2TP + FP + FN) = 4/6; F2 = 5TP/(5TP + 4FN + FP) = 10/15.
    assert!((f1_score(&t, &p, BIN, None).expect("ok") - 4.0 / 6.0).abs() < 1e-15);
    assert!((fbeta_score(&t, &p, 2.0, BIN, None).expect("ok") - 10.0 / 15.0).abs() < 1e-15);
    // Class 0 as positive: TP 1, FP 1, FN 1 → 1/2 each.
    let neg = Average::Binary { pos_label: 0 };
    assert_eq!(precision_score(&t, &p, neg, None).expect("ok"), 0.5);
    // MCC = (TP·TN − FP·FN)/√((TP+FP)(TP+FN)(TN+FP)(TN+FN)) = (2 − 1)/√(3·3·2·2) = 1/6.
    assert!((matthews_corrcoef(&t, &p, None).expect("ok") - 1.0 / 6.0).abs() < 1e-15);
    // Balanced accuracy = (1/2 + 2/3)/2 = 7/12.
    let ba = balanced_accuracy_score(&t, &p, false, None).expect("ok");
    assert!((ba - 7.0 / 12.0).abs() < 1e-15);
    // Adjusted: (7/12 − 1/2)/(1/2) = 1/6.
    let adj = balanced_accuracy_score(&t, &p, true, None).expect("ok");
    assert!((adj - 1.0 / 6.0).abs() < 1e-15);
    // Kappa: p_o = 3/5; p_e = (2/5)(2/5) + (3/5)(3/5) = 13/25 → κ = (15/25 − 13/25)/(12/25) = 1/6.
    let k = cohen_kappa_score(&t, &p, KappaWeights::Unweighted, None).expect("ok");
    assert!((k - 1.0 / 6.0).abs() < 1e-15);
    // With two labels linear and quadratic weights equal the unweighted ones.
    let kl = cohen_kappa_score(&t, &p, KappaWeights::Linear, None).expect("ok");
    assert!((kl - k).abs() < 1e-15);
}

#[test]
fn label_order_subset_and_weights() {
    let (t, p) = two_by_two();
    let c = confusion_matrix(&t, &p, Some(&[1, 0]), None).expect("ok");
    assert_eq!(c, array![[2.0, 1.0], [1.0, 1.0]]);
    // Only label 1: samples with a 0 on either side are dropped.
    let c1 = confusion_matrix(&t, &p, Some(&[1]), None).expect("ok");
    assert_eq!(c1, array![[2.0]]);
    // A label absent from the data gets an empty row and column.
    let c3 = confusion_matrix(&t, &p, Some(&[0, 1, 9]), None).expect("ok");
    assert_eq!(c3.row(2).sum() + c3.column(2).sum(), 0.0);
    let w = array![1.0, 2.0, 0.5, 0.5, 3.0];
    let cw = confusion_matrix(&t, &p, None, Some(&w)).expect("ok");
    assert_eq!(cw, array![[1.0, 2.0], [3.0, 1.0]]);
    // Weighted accuracy = (1 + 0.5 + 0.5)/7.
    assert!((accuracy_score(&t, &p, Some(&w)).expect("ok") - 2.0 / 7.0).abs() < 1e-15);
    assert_eq!(accuracy_count(&t, &p, Some(&w)).expect("ok"), 2.0);
    assert_eq!(zero_one_loss_count(&t, &p, Some(&w)).expect("ok"), 5.0);
    assert_eq!(
        unique_labels(&array![5usize, 1], &array![3usize]),
        vec![1, 3, 5]
    );
}

#[test]
fn normalisation_handles_empty_rows() {
    let c = array![[2.0, 2.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 3.0]];
    let t = normalize_confusion_matrix(&c, Normalize::Truth);
    assert_eq!(t.row(0).to_vec(), vec![0.5, 0.5, 0.0]);
    assert_eq!(t.row(1).to_vec(), vec![0.0, 0.0, 0.0]);
    let p = normalize_confusion_matrix(&c, Normalize::Pred);
    assert_eq!(p.column(0).to_vec(), vec![2.0 / 3.0, 0.0, 1.0 / 3.0]);
    let a = normalize_confusion_matrix(&c, Normalize::All);
    assert_eq!(a[[2, 2]], 3.0 / 8.0);
}

#[test]
fn multiclass_averages() {
    // Truth 0,1,2,2 / prediction 0,2,2,2: class 0 P 1 R 1; class 1 P 0 (never predicted,
    // zero division → 0) R 0; class 2 P 2/3 R 1.
    let (t, p) = (array![0usize, 1, 2, 2], array![0usize, 2, 2, 2]);
    let mac = precision_score(&t, &p, Average::Macro, None).expect("ok");
    assert!((mac - (1.0 + 0.0 + 2.0 / 3.0) / 3.0).abs() < 1e-15);
    // Weighted by support 1, 1, 2: (1 + 0 + 4/3)/4.
    let wtd = precision_score(&t, &p, Average::Weighted, None).expect("ok");
    assert!((wtd - (1.0 + 4.0 / 3.0) / 4.0).abs() < 1e-15);
    // Micro precision = recall = F1 = accuracy for single-label data.
    let acc = accuracy_score(&t, &p, None).expect("ok");
    for f in [precision_score, recall_score, f1_score] {
        assert!((f(&t, &p, Average::Micro, None).expect("ok") - acc).abs() < 1e-15);
    }
    // Micro FPR = Σ FP / Σ (FP + TN): one false positive (for class 2) over
    // Σ (n − support) = 3 + 3 + 2 = 8 one-vs-rest negatives.
    let fpr = false_positive_rate(&t, &p, Average::Micro, None).expect("ok");
    assert!((fpr - 1.0 / 8.0).abs() < 1e-15);
    let s = precision_recall_fscore_support(&t, &p, 1.0, Some(&[2, 1]), None).expect("ok");
    assert_eq!(s.labels, vec![2, 1]);
    assert_eq!(s.precision.to_vec(), vec![2.0 / 3.0, 0.0]);
    assert_eq!(s.support.to_vec(), vec![2.0, 1.0]);
    // β = 0 is precision, β = ∞ recall.
    let p0 = fbeta_score(&t, &p, 0.0, Average::Macro, None).expect("ok");
    assert!((p0 - mac).abs() < 1e-15);
    let rinf = fbeta_score(&t, &p, f64::INFINITY, Average::Macro, None).expect("ok");
    let rmac = recall_score(&t, &p, Average::Macro, None).expect("ok");
    assert!((rinf - rmac).abs() < 1e-15);
    let all = precision_recall_fscore(&t, &p, 1.0, Average::Macro, None).expect("ok");
    assert!((all.precision - mac).abs() < 1e-15);
    // Balanced accuracy ignores classes only predicted: truth 0,0 / prediction 0,1 → 1/2.
    let ba = balanced_accuracy_score(&array![0usize, 0], &array![0usize, 1], false, None);
    assert_eq!(ba.expect("ok"), 0.5);
}

#[test]
fn binary_average_rules() {
    // One present label and pos_label absent: every score is 0 (zero division), no error.
    let (t, p) = (array![0usize, 0], array![0usize, 0]);
    assert_eq!(f1_score(&t, &p, BIN, None).expect("ok"), 0.0);
    assert!(matches!(
        f1_score(&array![0usize, 1, 2], &array![0usize, 1, 2], BIN, None),
        Err(Error::InvalidParam {
            name: "average",
            ..
        })
    ));
    assert!(matches!(
        precision_score(&array![0usize, 2], &array![0usize, 2], BIN, None),
        Err(Error::InvalidParam {
            name: "pos_label",
            ..
        })
    ));
    assert_eq!(Average::default(), BIN);
    // MCC undefined (one predicted class) → 0.
    assert_eq!(
        matthews_corrcoef(&array![0usize, 1], &array![1usize, 1], None).expect("ok"),
        0.0
    );
}

#[test]
fn error_paths() {
    let (t, p) = two_by_two();
    let short = array![0usize, 1];
    let empty = Array1::<usize>::zeros(0);
    assert!(matches!(
        confusion_matrix(&t, &short, None, None),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        accuracy_score(&empty, &empty, None),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        precision_score(&t, &p, Average::Macro, Some(&array![1.0, 1.0])),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        recall_score(
            &t,
            &p,
            Average::Macro,
            Some(&array![1.0, -1.0, 1.0, 1.0, 1.0])
        ),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        accuracy_score(&t, &p, Some(&array![f64::NAN, 1.0, 1.0, 1.0, 1.0])),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        confusion_matrix(&t, &p, Some(&[]), None),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        confusion_matrix(&t, &p, Some(&[1, 1]), None),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        confusion_matrix(&t, &p, Some(&[7]), None),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        fbeta_score(&t, &p, -1.0, Average::Macro, None),
        Err(Error::InvalidParam { name: "beta", .. })
    ));
    assert!(fbeta_score(&t, &p, f64::NAN, Average::Macro, None).is_err());
    assert!(matches!(
        balanced_accuracy_score(&array![1usize, 1], &array![1usize, 0], true, None),
        Err(Error::TooFewClasses { .. })
    ));
    assert!(matches!(
        cohen_kappa_score(
            &array![3usize, 3],
            &array![3usize, 3],
            KappaWeights::Unweighted,
            None
        ),
        Err(Error::TooFewClasses { .. })
    ));
    assert!(precision_recall_fscore_support(&t, &p, 1.0, Some(&[0, 0]), None).is_err());
}
