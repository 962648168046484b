//! `model_selection` against scikit-learn (`datasets/golden/core/model_selection.json`, written
//! by `scripts/golden/core_model_selection.py`).
//!
//! Fold index sets, split sizes and stratified per-class counts must match exactly; the
//! NearestCentroid cross-validation accuracies to 1e-12; ridge R² scores (grid search, learning
//! and validation curves) to 1e-9 relative (the LU solve here vs scikit-learn's Cholesky).

mod model_selection_support;

use model_selection_support::{NearestCentroid, RidgeCf, accuracy, r2};
use ndlearn_core::model_selection::{
    CrossValidator, GridSearchCV, KFold, LearningCurveOptions, ParamGrid, ParamPoint, SplitSize,
    StratifiedKFold, TrainTestSplit, cross_val_score, learning_curve, validation_curve,
};
use ndlearn_core::ndarray::Array2;
use ndlearn_core::{Error, Result};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "model_selection")
}

fn expected_folds(case: &Case) -> Vec<Vec<usize>> {
    let flat = case.usize_vector("test_indices");
    let mut out = Vec::new();
    let mut start = 0;
    for s in case.usize_vector("fold_sizes") {
        out.push(flat[start..start + s].to_vec());
        start += s;
    }
    assert_eq!(
        start,
        flat.len(),
        "{}: fold sizes cover the indices",
        case.name()
    );
    out
}

fn check_partition(splits: &[(Vec<usize>, Vec<usize>)], n: usize, name: &str) {
    for (train, test) in splits {
        let mut all: Vec<usize> = train.iter().chain(test).copied().collect();
        all.sort_unstable();
        assert_eq!(
            all,
            (0..n).collect::<Vec<_>>(),
            "{name}: train ∪ test = 0..n"
        );
    }
}

#[test]
fn kfold_folds_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("kfold_");
    assert!(cases.len() >= 5);
    for case in cases {
        let (n, k) = (case.usize("n"), case.usize("k"));
        let splits = KFold::new(k).split(n, None).expect("valid");
        let got: Vec<Vec<usize>> = splits.iter().map(|(_, t)| t.clone()).collect();
        assert_eq!(got, expected_folds(case), "{}", case.name());
        check_partition(&splits, n, case.name());
    }
}

#[test]
fn stratified_kfold_folds_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("skfold_");
    assert!(cases.len() >= 12);
    for case in cases {
        let y = case.labels("y");
        let k = case.usize("k");
        let splits = StratifiedKFold::new(k)
            .split(y.len(), Some(&y))
            .expect("valid");
        let got: Vec<Vec<usize>> = splits.iter().map(|(_, t)| t.clone()).collect();
        assert_eq!(got, expected_folds(case), "{}", case.name());
        check_partition(&splits, y.len(), case.name());
    }
}

fn size_of(case: &Case, kind: &str, value: &str) -> Option<SplitSize> {
    match case.string(kind) {
        "none" => None,
        "fraction" => Some(SplitSize::Fraction(case.scalar(value))),
        "count" => Some(SplitSize::Count(case.usize(value))),
        other => panic!("{}: unknown size kind {other}", case.name()),
    }
}

fn splitter(case: &Case) -> TrainTestSplit {
    let mut s = TrainTestSplit::new();
    s.test_size = size_of(case, "test_kind", "test_size");
    s.train_size = size_of(case, "train_kind", "train_size");
    s
}

#[test]
fn train_test_split_sizes_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("tts_");
    assert!(cases.len() >= 15);
    let mut n_errors = 0;
    for case in cases {
        let n = case.usize("n");
        let got = splitter(case).split(n);
        if case.usize("raises") == 1 {
            assert!(
                matches!(got, Err(Error::InvalidParam { .. })),
                "{}: scikit-learn raises, got {got:?}",
                case.name()
            );
            n_errors += 1;
        } else {
            let s = got.unwrap_or_else(|e| panic!("{}: {e}", case.name()));
            assert_eq!(
                (s.train.len(), s.test.len()),
                (case.usize("n_train"), case.usize("n_test")),
                "{}",
                case.name()
            );
            let unshuffled = splitter(case).shuffle(false).split(n).expect("valid");
            assert_eq!(unshuffled.train.len(), s.train.len());
        }
    }
    assert!(n_errors >= 5);
}

#[test]
fn stratified_split_counts_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("strat_");
    assert!(cases.len() >= 8);
    for case in cases {
        let y = case.labels("y");
        let classes: Vec<usize> = {
            let mut c = y.to_vec();
            c.sort_unstable();
            c.dedup();
            c
        };
        let want_train = case.usize_vector("train_counts");
        let want_test = case.usize_vector("test_counts");
        // The allocation is deterministic for these cases: every seed gives the same counts.
        for seed in 0..5 {
            let s = splitter(case)
                .seed(seed)
                .split_stratified(&y)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name()));
            let count = |idx: &[usize]| -> Vec<usize> {
                classes
                    .iter()
                    .map(|&c| idx.iter().filter(|&&i| y[i] == c).count())
                    .collect()
            };
            assert_eq!(count(&s.train), want_train, "{} train", case.name());
            assert_eq!(count(&s.test), want_test, "{} test", case.name());
        }
    }
}

#[test]
fn nearest_centroid_cross_val_score_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("cvs_nearest_centroid_");
    assert_eq!(cases.len(), 2);
    for case in cases {
        let (x, y) = (case.matrix("x"), case.labels("y"));
        let k = case.usize("k");
        let scores = match case.string("cv") {
            "KFold" => cross_val_score(&NearestCentroid, &x, &y, &KFold::new(k), accuracy),
            "StratifiedKFold" => {
                cross_val_score(&NearestCentroid, &x, &y, &StratifiedKFold::new(k), accuracy)
            }
            other => panic!("unknown cv {other}"),
        }
        .expect("valid");
        assert_close(&scores, &case.vector("scores"), 0.0, 1e-12, case.name());
    }
}

fn ridge_builder(fit_intercept: bool) -> impl Fn(&ParamPoint) -> Result<RidgeCf> {
    move |p: &ParamPoint| -> Result<RidgeCf> {
        Ok(RidgeCf {
            alpha: p.value("alpha")?,
            fit_intercept,
        })
    }
}

#[test]
fn ridge_grid_search_matches_sklearn() {
    let g = golden();
    for name in ["grid_ridge_intercept", "grid_ridge_no_intercept"] {
        let case = g.case(name);
        let (x, y) = (case.matrix("x"), case.vector("y"));
        let alphas = case.vector("alphas").to_vec();
        let grid = ParamGrid::new().param("alpha", alphas.clone());
        let fit_intercept = case.usize("fit_intercept") == 1;
        let res = GridSearchCV::new(KFold::new(5))
            .fit_grid(&grid, ridge_builder(fit_intercept), &x, &y, r2)
            .expect("valid");
        assert_close(
            &res.split_test_scores,
            &case.matrix("split_test_scores"),
            1e-9,
            1e-12,
            name,
        );
        assert_close(
            &res.mean_test_score,
            &case.vector("mean_test_score"),
            1e-9,
            1e-12,
            name,
        );
        assert_close(
            &res.std_test_score,
            &case.vector("std_test_score"),
            1e-7,
            1e-12,
            name,
        );
        assert_eq!(
            res.rank_test_score,
            case.usize_vector("rank_test_score"),
            "{name}"
        );
        assert_eq!(res.best_index, case.usize("best_index"), "{name}");
        let best_alpha = res.best_params().and_then(|p| p.get("alpha"));
        assert_eq!(best_alpha, Some(case.scalar("best_alpha")), "{name}");
        let best = res.best_model().expect("refit");
        assert_close(&best.coef, &case.vector("best_coef"), 1e-8, 1e-9, name);
        assert_close_scalar(
            best.intercept,
            case.scalar("best_intercept"),
            1e-9,
            1e-9,
            name,
        );
        // The same search from a candidate list gives bitwise the same scores.
        let cands: Vec<RidgeCf> = alphas
            .iter()
            .map(|&alpha| RidgeCf {
                alpha,
                fit_intercept,
            })
            .collect();
        let list = GridSearchCV::new(KFold::new(5))
            .refit(false)
            .fit(cands, &x, &y, r2)
            .expect("valid");
        assert_eq!(list.split_test_scores, res.split_test_scores);
    }
}

#[test]
fn ridge_learning_curve_matches_sklearn() {
    let g = golden();
    let case = g.case("lc_ridge");
    let (x, y) = (case.matrix("x"), case.vector("y"));
    let est = RidgeCf::new(case.scalar("alpha"));
    let lc = learning_curve(
        &est,
        &x,
        &y,
        &KFold::new(5),
        r2,
        &LearningCurveOptions::new(),
    )
    .expect("valid");
    assert_eq!(lc.train_sizes, case.usize_vector("train_sizes"));
    assert_close(
        &lc.train_scores,
        &case.matrix("train_scores"),
        1e-9,
        1e-12,
        "lc train",
    );
    assert_close(
        &lc.test_scores,
        &case.matrix("test_scores"),
        1e-9,
        1e-12,
        "lc test",
    );
}

#[test]
fn ridge_validation_curve_matches_sklearn() {
    let g = golden();
    let case = g.case("vc_ridge");
    let (x, y) = (case.matrix("x"), case.vector("y"));
    let alphas = case.vector("alphas").to_vec();
    let build = |a: f64| -> Result<RidgeCf> { Ok(RidgeCf::new(a)) };
    let vc = validation_curve(build, &alphas, &x, &y, &KFold::new(5), r2).expect("valid");
    let want_train: Array2<f64> = case.matrix("train_scores");
    assert_close(&vc.train_scores, &want_train, 1e-9, 1e-12, "vc train");
    assert_close(
        &vc.test_scores,
        &case.matrix("test_scores"),
        1e-9,
        1e-12,
        "vc test",
    );
}
