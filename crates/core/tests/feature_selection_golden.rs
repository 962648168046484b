//! `feature_selection` against scikit-learn / scipy (`datasets/golden/core/feature_selection.json`,
//! written by `scripts/golden/core_feature_selection.py`).
//!
//! * `chi2`, `f_classif`, `f_regression`, `r_regression`: statistics and p-values to 1e-10
//!   relative (p-values below 1e-300 underflow differently: compared with an absolute floor);
//! * `SelectKBest(chi2)` on digits and `SelectPercentile(f_classif)` on wine: the same support;
//! * binned mutual information and the χ² independence test of a binned feature (numpy
//!   histogram bins, `mutual_info_score`, `chi2_contingency`);
//! * `RFE(Ridge(alpha = 1))` rankings on diabetes with a closed-form ridge written here;
//! * `SequentialFeatureSelector(LinearRegression(), cv = 5)` on diabetes: our forward / backward
//!   search over a score closure that computes the same 5-fold unshuffled CV R² by hand
//!   (`linalg::lstsq`), which must select the same features and reproduce the CV scores.

use ndlearn_core::feature_selection::{
    Chi2, Direction, FClassif, Rfe, SelectKBest, SelectPercentile, SequentialFeatureSelector, Step,
    chi2, chi2_independence_scores, f_classif, f_regression, mutual_info_classif_binned,
    r_regression,
};
use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, concatenate};
use ndlearn_core::{FeatureImportances, Fit, Result, linalg};
use ndlearn_datasets::Dataset;
use ndlearn_testkit::{Golden, assert_close};

fn dataset(name: &str) -> &'static Dataset {
    match name {
        "iris" => ndlearn_datasets::iris(),
        "wine" => ndlearn_datasets::wine(),
        "breast_cancer" => ndlearn_datasets::breast_cancer(),
        "digits" => ndlearn_datasets::digits(),
        "diabetes" => ndlearn_datasets::diabetes(),
        other => panic!("unknown data set {other}"),
    }
}

fn classification(name: &str) -> (Array2<f64>, Array1<usize>) {
    let d = dataset(name);
    (
        d.x.clone(),
        d.y_classes().expect("classification set").clone(),
    )
}

fn diabetes() -> (Array2<f64>, Array1<f64>) {
    let d = ndlearn_datasets::diabetes();
    (d.x.clone(), d.y_values().expect("regression set").clone())
}

/// p-values: relative 1e-10, and an absolute floor for values the two libraries take to
/// (or near) 0 by different routes.
fn assert_pvalues(got: &Array1<f64>, want: &Array1<f64>, ctx: &str) {
    assert_close(got, want, 1e-9, 1e-290, ctx);
}

#[test]
fn chi2_matches_sklearn() {
    let g = Golden::load("core", "feature_selection");
    for case in g.cases_with_prefix("chi2_") {
        let (x, y) = classification(case.string("dataset"));
        let (s, p) = chi2(&x, &y).expect("valid");
        assert_close(&s, &case.vector("statistic"), 1e-11, 1e-12, case.name());
        assert_pvalues(&p, &case.vector("pvalue"), case.name());
        for j in case.usize_vector("zero_columns") {
            assert_eq!(
                (s[j], p[j]),
                (0.0, 1.0),
                "{}: all-zero column {j}",
                case.name()
            );
        }
        // f32 input gives the same statistics to f32 precision.
        let (s32, _) = chi2(&x.mapv(|v| v as f32), &y).expect("valid");
        assert_close(&s32, &case.vector("statistic"), 1e-5, 1e-6, case.name());
    }
}

#[test]
fn select_k_best_chi2_digits_support() {
    let g = Golden::load("core", "feature_selection");
    let (x, y) = classification("digits");
    for case in g.cases_with_prefix("kbest_chi2_digits_") {
        let sel = SelectKBest::new(Chi2, case.usize("k"))
            .fit(&x, &y)
            .expect("valid");
        assert_eq!(
            sel.selected_features(),
            case.usize_vector("selected"),
            "{}",
            case.name()
        );
        assert!(sel.pvalues().is_some());
    }
}

#[test]
fn f_tests_match_sklearn() {
    let g = Golden::load("core", "feature_selection");
    for case in g.cases_with_prefix("f_classif_") {
        let (x, y) = classification(case.string("dataset"));
        let (f, p) = f_classif(&x, &y).expect("valid");
        assert_close(&f, &case.vector("statistic"), 1e-10, 0.0, case.name());
        assert_pvalues(&p, &case.vector("pvalue"), case.name());
    }
    let case = g.case("f_regression_diabetes");
    let (x, y) = diabetes();
    let (f, p) = f_regression(&x, &y).expect("valid");
    assert_close(&f, &case.vector("statistic"), 1e-10, 0.0, "f_regression");
    assert_pvalues(&p, &case.vector("pvalue"), "f_regression");
    let r = r_regression(&x, &y).expect("valid");
    assert_close(&r, &case.vector("r"), 1e-12, 1e-14, "r_regression");
    for case in g.cases_with_prefix("percentile_f_classif_wine_") {
        let (x, y) = classification("wine");
        let sel = SelectPercentile::new(FClassif, case.scalar("percentile"))
            .fit(&x, &y)
            .expect("valid");
        assert_eq!(
            sel.selected_features(),
            case.usize_vector("selected"),
            "{}",
            case.name()
        );
    }
}

#[test]
fn binned_scores_match_numpy_histogram_and_scipy() {
    let g = Golden::load("core", "feature_selection");
    let case = g.case("binned_wine");
    let (x, y) = classification("wine");
    let bins = case.usize("bins");
    let mi = mutual_info_classif_binned(&x, &y, bins).expect("valid");
    assert_close(&mi, &case.vector("mutual_info"), 1e-12, 1e-14, "binned MI");
    let (s, p) = chi2_independence_scores(&x, &y, bins).expect("valid");
    assert_close(
        &s,
        &case.vector("chi2_statistic"),
        1e-12,
        1e-12,
        "binned chi2",
    );
    assert_pvalues(&p, &case.vector("chi2_pvalue"), "binned chi2 p");
}

/// Closed-form ridge with intercept: centre X and y, solve `(XcᵀXc + αI) w = Xcᵀ yc`
/// (scikit-learn's `Ridge(alpha)` with `fit_intercept = True`).
struct Ridge {
    alpha: f64,
}

struct FittedRidge {
    coef: Array1<f64>,
}

impl Fit<f64> for Ridge {
    type Target = ArrayRef1<f64>;
    type Model = FittedRidge;
    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedRidge> {
        let (xc, _) = ndlearn_core::stats::center(x)?;
        let yc = y.to_owned() - y.mean().unwrap_or(0.0);
        let mut a = xc.t().dot(&xc);
        for i in 0..a.nrows() {
            a[[i, i]] += self.alpha;
        }
        Ok(FittedRidge {
            coef: linalg::solve(&a, &xc.t().dot(&yc))?,
        })
    }
}

impl FeatureImportances<f64> for FittedRidge {
    fn feature_importances(&self) -> Array1<f64> {
        self.coef.mapv(f64::abs)
    }
}

#[test]
fn rfe_ridge_ranking_matches_sklearn() {
    let g = Golden::load("core", "feature_selection");
    let (x, y) = diabetes();
    for case in g.cases_with_prefix("rfe_ridge_diabetes_") {
        let rfe = Rfe::new(Ridge {
            alpha: case.scalar("alpha"),
        })
        .n_features_to_select(Some(case.usize("n_features_to_select")))
        .step(Step::Count(case.usize("step")))
        .fit(&x, &y)
        .expect("valid");
        let want = case.usize_vector("ranking");
        assert_eq!(rfe.ranking(), &want[..], "{}", case.name());
    }
}

/// Mean R² over scikit-learn's `KFold(5)` (unshuffled: the first `n % 5` folds one longer) of
/// least squares with an intercept on the columns `cols`.
fn cv_r2(x: &Array2<f64>, y: &Array1<f64>, cols: &[usize]) -> Result<f64> {
    let n = x.nrows();
    let k = 5;
    let mut start = 0;
    let mut total = 0.0;
    for f in 0..k {
        let len = n / k + usize::from(f < n % k);
        let test: Vec<usize> = (start..start + len).collect();
        let train: Vec<usize> = (0..n)
            .filter(|i| !(start..start + len).contains(i))
            .collect();
        start += len;
        let design = |rows: &[usize]| {
            let xs = x.select(Axis(0), rows).select(Axis(1), cols);
            concatenate![Axis(1), xs, Array2::ones((rows.len(), 1))]
        };
        let w = linalg::lstsq(&design(&train), &y.select(Axis(0), &train), None)?.solution;
        let yt = y.select(Axis(0), &test);
        let resid = &yt - &design(&test).dot(&w);
        let centred = &yt - yt.mean().unwrap_or(0.0);
        total += 1.0 - resid.dot(&resid) / centred.dot(&centred);
    }
    Ok(total / k as f64)
}

#[test]
fn sequential_selection_matches_sklearn_sfs() {
    let g = Golden::load("core", "feature_selection");
    let (x, y) = diabetes();
    let score = |cols: &[usize]| cv_r2(&x, &y, cols);
    for case in g.cases_with_prefix("sfs_") {
        let direction = match case.string("direction") {
            "forward" => Direction::Forward,
            "backward" => Direction::Backward,
            other => panic!("unknown direction {other}"),
        };
        let mut sfs = SequentialFeatureSelector::default().direction(direction);
        if case.has("tol") {
            sfs = sfs.tol(Some(case.scalar("tol")));
        } else {
            sfs = sfs.n_features_to_select(Some(case.usize("n_features_to_select")));
        }
        let sel = sfs.select(x.ncols(), score).expect("valid");
        assert_eq!(
            sel.selected,
            case.usize_vector("selected"),
            "{}",
            case.name()
        );
        let s = score(&sel.selected).expect("valid");
        assert!(
            (s - case.scalar("cv_r2")).abs() < 1e-10,
            "{}: cv R² {s} vs {}",
            case.name(),
            case.scalar("cv_r2")
        );
        if direction == Direction::Forward {
            assert!((sel.score().expect("a step") - s).abs() < 1e-15);
        }
    }
}
