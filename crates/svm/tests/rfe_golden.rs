//! SVM-RFE (CL-105): core's recursive feature elimination with the linear `Svc` as its
//! estimator ranks features as scikit-learn's `RFE(SVC(kernel="linear"))`
//! (`datasets/golden/svm/svm_rfe.json`, `scripts/golden/svm_rfe.py`). Each case records the
//! smallest relative gap at an elimination cut (`min_gap`, at least 8e-4 here); both solvers run
//! at tol 1e-10, far below it, so the rankings are exact references on any CPU.

use ndlearn_core::feature_selection::{Rfe, Step};
use ndlearn_core::traits::{Fit, Predict, Transform};
use ndlearn_svm::{Svc, SvmKernel};
use ndlearn_testkit::Golden;

#[test]
fn svm_rfe_ranks_features_as_scikit_learn() {
    let g = Golden::load("svm", "svm_rfe");
    assert_eq!(g.cases().len(), 5);
    for case in g.cases() {
        let x = case.matrix("x");
        let y = case.labels("y");
        assert!(
            case.scalar("min_gap") > 1e-4,
            "{}: reference not stable",
            case.name()
        );
        let svm = Svc::default()
            .kernel(SvmKernel::Linear)
            .c(case.scalar("C"))
            .tol(1e-10);
        let k = case.usize("n_features_to_select");
        let rfe = Rfe::new(svm)
            .n_features_to_select(Some(k))
            .step(Step::Count(case.usize("step")))
            .fit(&x, &y)
            .expect("fits");
        assert_eq!(
            rfe.ranking(),
            case.usize_vector("ranking"),
            "{}",
            case.name()
        );
        let support: Vec<bool> = case
            .usize_vector("support")
            .iter()
            .map(|&s| s == 1)
            .collect();
        assert_eq!(rfe.support(), support, "{}", case.name());
        // The selected columns feed the final SVM.
        let xt = rfe.transform(&x).expect("transforms");
        assert_eq!(xt.ncols(), k);
        assert_eq!(rfe.predict(&x).expect("predicts").len(), x.nrows());
    }
}

#[test]
fn kernel_svms_have_no_weights_to_rank() {
    let g = Golden::load("svm", "svm_rfe");
    let case = g.cases()[0];
    let err = Rfe::new(Svc::default())
        .fit(&case.matrix("x"), &case.labels("y"))
        .expect_err("an RBF SVM has no primal weights");
    assert!(
        matches!(err, ndlearn_core::Error::InvalidParam { .. }),
        "{err}"
    );
}
