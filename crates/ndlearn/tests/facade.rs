#![cfg(feature = "full")]
//! The facade reaches every family through one dependency, and the prelude is enough for the
//! common programs (the README's example is this test's first half).

use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

#[test]
fn readme_example_runs() -> Result<()> {
    let data = ndlearn::datasets::breast_cancer();
    let y = data.y_classes().expect("labels");
    let x = StandardScaler::default()
        .fit(data.x())?
        .transform(data.x())?;
    let svm = Svc::default().fit(&x, y)?;
    let forest = RandomForestClassifier::default().fit(&x, y)?;
    for pred in [svm.predict(&x)?, forest.predict(&x)?] {
        assert!(ndlearn::metrics::accuracy_score(y, &pred, None)? > 0.95);
    }
    Ok(())
}

#[test]
fn every_family_is_reachable() -> Result<()> {
    let iris = ndlearn::datasets::iris();
    let (x, y) = (iris.x(), iris.y_classes().expect("labels"));
    let acc = |p: Array1<usize>| ndlearn::metrics::accuracy_score(y, &p, None);
    assert!(
        acc(LogisticRegression::default()
            .max_iter(1000)
            .fit(x, y)?
            .predict(x)?)?
            > 0.9
    );
    assert!(acc(GaussianNB::default().fit(x, y)?.predict(x)?)? > 0.9);
    assert!(acc(KNeighborsClassifier::default().fit(x, y)?.predict(x)?)? > 0.9);
    assert!(acc(Svc::default().fit(x, y)?.predict(x)?)? > 0.9);
    assert!(acc(DecisionTreeClassifier::default().fit(x, y)?.predict(x)?)? > 0.9);
    let mlp = MLPClassifier::default().max_iter(500).fit(x, y)?;
    assert!(acc(mlp.predict(x)?)? > 0.8);
    let km = KMeans::new(3).fit(x)?;
    assert_eq!(km.predict(x)?.len(), x.nrows());
    let pca = Pca::default().fit(x)?;
    assert_eq!(pca.transform(x)?.ncols(), 4);
    // Module paths: each crate under its family's name, core's toolkit at the root.
    let _: ndlearn::linear::Ridge = ndlearn::linear::Ridge::default();
    let _: ndlearn::neighbors::NearestCentroid = ndlearn::neighbors::NearestCentroid::default();
    let _: ndlearn::neighbors::Algorithm = ndlearn::neighbors::Algorithm::KdTree;
    let _: ndlearn::svm::NuSvc = ndlearn::svm::NuSvc::default();
    let _: ndlearn::tree::ExtraTreesClassifier = ndlearn::tree::ExtraTreesClassifier::default();
    let _: ndlearn::bayes::QuadraticDiscriminantAnalysis = Default::default();
    let _: ndlearn::cluster::Dbscan = ndlearn::cluster::Dbscan::default();
    let _: ndlearn::decomposition::TruncatedSvd = ndlearn::decomposition::TruncatedSvd::new(2);
    let _: ndlearn::neural::MLPRegressor = ndlearn::neural::MLPRegressor::default();
    Ok(())
}
