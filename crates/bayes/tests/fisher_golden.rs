//! The Fisher LDA transformer (catalog CL-165) against scikit-learn's
//! `LinearDiscriminantAnalysis(solver="eigen")` (`datasets/golden/bayes/fisher.json`, written by
//! `scripts/golden/bayes_fisher.py`): the `C − 1` unit directions, their share of the
//! discriminant criterion, and the projections.

use ndlearn_bayes::FisherDiscriminant;
use ndlearn_core::{Fit, Transform};
use ndlearn_testkit::{Golden, assert_close};

#[test]
fn directions_and_projections_match_sklearn_eigen_lda() {
    let g = Golden::load("bayes", "fisher");
    for case in g.cases() {
        let name = case.name();
        let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data");
        let x = ds.x().clone();
        let y = ds.y_classes().expect("classes").clone();
        let f = FisherDiscriminant::default().fit(&x, &y).expect("fit");
        assert_close(f.components(), &case.matrix("components"), 1e-6, 1e-8, name);
        let ev = f.eigenvalues();
        let ratio = ev.mapv(|v| v / ev.sum());
        assert_close(
            &ratio,
            &case.vector("explained_variance_ratio"),
            1e-8,
            1e-12,
            name,
        );
        let z = f
            .transform(&x.slice(ndarray::s![..20, ..]))
            .expect("transform");
        assert_close(&z, &case.matrix("transform"), 1e-6, 1e-8, name);
    }
}
