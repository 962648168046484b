//! Unit tests of the labeling comparisons.

use super::*;
use ndarray::{Array1, array};

#[test]
fn pair_counts_rand_and_ari_by_hand() {
    // a groups {0,1},{2,3}; b groups {0,2},{1,3}: of the 6 pairs only (0,3) and (1,2) are apart
    // in both → Rand 2/6. Ordered pair counts n00 = 4, n01 = 4, n10 = 4, n11 = 0 →
    // ARI = 2(0·4 − 4·4)/((0 + 4)(4 + 4) + (0 + 4)(4 + 4)) = −1/2.
    let (a, b) = (array![0usize, 0, 1, 1], array![0usize, 1, 0, 1]);
    let pc = pair_confusion_matrix(&a, &b).expect("ok");
    assert_eq!(pc, array![[4.0, 4.0], [4.0, 0.0]]);
    assert!((rand_score(&a, &b).expect("ok") - 1.0 / 3.0).abs() < 1e-15);
    assert_eq!(adjusted_rand_score(&a, &b).expect("ok"), -0.5);
    assert_eq!(
        adjusted_rand_score(&a, &array![9usize, 9, 4, 4]).expect("ok"),
        1.0
    );
    assert_eq!(
        rand_score(&array![3usize], &array![1usize]).expect("ok"),
        1.0
    );
    let c = contingency_matrix(&a, &b).expect("ok");
    assert_eq!(c, array![[1, 1], [1, 1]]);
}

#[test]
fn information_measures_by_hand() {
    let a = array![0usize, 0, 1, 1];
    // Identical two-way split: I = H = ln 2.
    let mi = mutual_info_score(&a, &array![5usize, 5, 2, 2]).expect("ok");
    assert!((mi - 2f64.ln()).abs() < 1e-15);
    assert!((entropy(&a).expect("ok") - 2f64.ln()).abs() < 1e-15);
    for m in [
        AverageMethod::Min,
        AverageMethod::Geometric,
        AverageMethod::Arithmetic,
        AverageMethod::Max,
    ] {
        let nmi = normalized_mutual_info_score(&a, &array![5usize, 5, 2, 2], m).expect("ok");
        assert!((nmi - 1.0).abs() < 1e-15);
    }
    // Independent split: I = 0 → NMI 0, homogeneity 0, V 0.
    let b = array![0usize, 1, 0, 1];
    assert_eq!(mutual_info_score(&a, &b).expect("ok"), 0.0);
    assert_eq!(
        normalized_mutual_info_score(&a, &b, AverageMethod::Arithmetic).expect("ok"),
        0.0
    );
    let v = homogeneity_completeness_v_measure(&a, &b, 1.0).expect("ok");
    assert_eq!(
        (v.homogeneity, v.completeness, v.v_measure),
        (0.0, 0.0, 0.0)
    );
    // Splitting each class in two: homogeneous (1) but not complete (I/H(K) = ln 2 / ln 4).
    let split = array![0usize, 1, 2, 3];
    let v = homogeneity_completeness_v_measure(&a, &split, 1.0).expect("ok");
    assert!((v.homogeneity - 1.0).abs() < 1e-15);
    assert!((v.completeness - 0.5).abs() < 1e-15);
    assert!((v.v_measure - 2.0 * 0.5 / 1.5).abs() < 1e-15);
    assert!((homogeneity_score(&a, &split).expect("ok") - 1.0).abs() < 1e-15);
    assert!((completeness_score(&a, &split).expect("ok") - 0.5).abs() < 1e-15);
    // β = 2: (1 + 2)·1·0.5/(2·1 + 0.5) = 0.6.
    assert!((v_measure_score(&a, &split, 2.0).expect("ok") - 0.6).abs() < 1e-15);
}

#[test]
fn single_class_conventions() {
    let one = array![7usize, 7, 7, 7];
    let two = array![0usize, 0, 1, 1];
    assert_eq!(
        normalized_mutual_info_score(&one, &one, AverageMethod::Arithmetic).expect("ok"),
        1.0
    );
    assert_eq!(
        adjusted_mutual_info_score(&one, &one, AverageMethod::Arithmetic).expect("ok"),
        1.0
    );
    assert_eq!(
        adjusted_mutual_info_score(&one, &two, AverageMethod::Arithmetic).expect("ok"),
        0.0
    );
    assert_eq!(mutual_info_score(&one, &two).expect("ok"), 0.0);
    // H(C) = 0 → homogeneity 1 by convention.
    let v = homogeneity_completeness_v_measure(&one, &two, 1.0).expect("ok");
    assert_eq!(v.homogeneity, 1.0);
    assert_eq!(v.completeness, 0.0);
    assert_eq!(adjusted_rand_score(&one, &one).expect("ok"), 1.0);
    assert_eq!(
        fowlkes_mallows_score(&array![0usize, 1, 2], &array![0usize, 1, 2]).expect("ok"),
        0.0
    );
}

#[test]
fn fowlkes_mallows_and_ami_by_hand() {
    // Contingency [[2, 1, 0], [0, 1, 2]]: TK = 4 + 1 + 1 + 4 − 6 = 4, PK = 4 + 4 + 4 − 6 = 6,
    // QK = 9 + 9 − 6 = 12 → FMI = 4/√72.
    let (a, b) = (array![0usize, 0, 0, 1, 1, 1], array![0usize, 0, 1, 1, 2, 2]);
    let f = fowlkes_mallows_score(&a, &b).expect("ok");
    assert!((f - 4.0 / 72f64.sqrt()).abs() < 1e-15);
    // AMI of a relabelled copy is 1; of a partial agreement strictly between 0 and 1 and below
    // the NMI (chance correction).
    let ami = adjusted_mutual_info_score(&b, &array![1usize, 1, 2, 2, 0, 0], AverageMethod::Max)
        .expect("ok");
    assert!((ami - 1.0).abs() < 1e-12);
    let ami = adjusted_mutual_info_score(&a, &b, AverageMethod::Arithmetic).expect("ok");
    let nmi = normalized_mutual_info_score(&a, &b, AverageMethod::Arithmetic).expect("ok");
    assert!(ami > 0.0 && ami < nmi, "{ami} {nmi}");
}

#[test]
fn large_label_values_and_errors() {
    let a = array![usize::MAX, usize::MAX, 3, 3];
    assert_eq!(
        adjusted_rand_score(&a, &array![0usize, 0, 1, 1]).expect("ok"),
        1.0
    );
    let e = Array1::<usize>::zeros(0);
    assert!(matches!(
        rand_score(&e, &e),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        mutual_info_score(&array![0usize, 1], &array![0usize]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        v_measure_score(&a, &a, -1.0),
        Err(Error::InvalidParam { name: "beta", .. })
    ));
    assert!(entropy(&e).is_err());
}
