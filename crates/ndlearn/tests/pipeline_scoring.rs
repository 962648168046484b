//! `Pipeline` and the named scorers with real estimators, against scikit-learn 1.9.1
//! (`datasets/golden/core/scoring.json`, `scripts/golden/core_scoring.py`): the same models
//! refitted here and scored by name, a `Pipeline(StandardScaler, model)` inside
//! `cross_val_score`, and a grid search over a step-prefixed parameter.
//!
//! Tolerances: ridge is closed-form; on the raw diabetes features (the golden's CSV) the
//! condition number of `XcᵀXc + αI` is 6.1e4, so both solvers' results agree to about
//! `κ·ε ≈ 1.4e-11` and `1e-9` relative leaves a margin of 70 (after standard scaling, inside
//! the pipelines, κ is far smaller); LDA (SVD solver) and Gaussian naive Bayes agree with scikit-learn to about `1e-10` in
//! their probabilities (their own golden tests), so scores computed from them get `1e-7`
//! relative (log loss amplifies relative errors of probabilities near 0 by at most their own
//! size).
#![cfg(all(
    feature = "linear",
    feature = "bayes",
    feature = "datasets",
    feature = "serde"
))]

use ndlearn::bayes::{GaussianNB, LinearDiscriminantAnalysis};
use ndlearn::linear::Ridge;
use ndlearn::model_selection::{
    CvOptions, GridSearchCV, KFold, ParamGrid, Scorer, cross_val_score, cross_validate,
};
use ndlearn::ndarray::{Array1, Array2, Axis};
use ndlearn::pipeline::Pipeline;
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "scoring")
}

/// Train rows `i % 4 != 0`, test rows `i % 4 == 0` (the golden script's split).
fn split_rows(n: usize) -> (Vec<usize>, Vec<usize>) {
    (0..n).partition(|i| i % 4 != 0)
}

fn classification(name: &str) -> (Array2<f64>, Array1<usize>) {
    let d = ndlearn::datasets::by_name(name).expect("embedded data set");
    (d.x().clone(), d.y_classes().expect("labels").clone())
}

fn diabetes() -> (Array2<f64>, Array1<f64>) {
    let d = ndlearn::datasets::diabetes_raw();
    (d.x().clone(), d.y_values().expect("values").clone())
}

#[test]
fn named_scorers_on_refitted_models_equal_scikit_learn() -> Result<()> {
    let g = golden();
    let mut checked = 0;
    for data in ["breast_cancer", "wine"] {
        let (x, y) = classification(data);
        let (tr, te) = split_rows(x.nrows());
        let (xtr, ytr) = (x.select(Axis(0), &tr), y.select(Axis(0), &tr));
        let (xte, yte) = (x.select(Axis(0), &te), y.select(Axis(0), &te));
        let nb = GaussianNB::default().fit(&xtr, &ytr)?;
        let lda = LinearDiscriminantAnalysis::default().fit(&xtr, &ytr)?;
        for (model, case) in [("gaussian_nb", &nb as &dyn std::any::Any), ("lda", &lda)]
            .iter()
            .map(|(m, a)| (*m, (*a, g.case(&format!("score_{m}_{data}")))))
        {
            let (_, case) = case;
            let scores = case.raw("scores").as_object().cloned().unwrap_or_default();
            for (name, want) in &scores {
                let s: Scorer = name.parse()?;
                // GaussianNB has probabilities only; LDA has both (thresholds from decisions).
                let got = if model == "gaussian_nb" {
                    s.for_proba()?(&nb, &xte, &yte)?
                } else {
                    s.for_proba_and_decision()?(&lda, &xte, &yte)?
                };
                let want = want.as_f64().unwrap_or(f64::NAN);
                assert_close_scalar(got, want, 1e-7, 1e-12, &format!("{model} {data} {name}"));
                checked += 1;
            }
            for name in case.raw("errors").as_array().cloned().unwrap_or_default() {
                let s: Scorer = name.as_str().unwrap_or_default().parse()?;
                let r = if model == "gaussian_nb" {
                    s.for_proba()?(&nb, &xte, &yte)
                } else {
                    s.for_proba_and_decision()?(&lda, &xte, &yte)
                };
                assert!(r.is_err(), "{model} {data} {s}: scikit-learn refuses it");
            }
        }
    }
    assert_eq!(checked, 2 * 30 + 2 * 26);
    // Regression.
    let (x, y) = diabetes();
    let (tr, te) = split_rows(x.nrows());
    let ridge = Ridge::default()
        .alpha(1.0)
        .fit(&x.select(Axis(0), &tr), &y.select(Axis(0), &tr))?;
    let case = g.case("score_ridge_diabetes");
    let (xte, yte) = (x.select(Axis(0), &te), y.select(Axis(0), &te));
    for (name, want) in case.raw("scores").as_object().cloned().unwrap_or_default() {
        let got = name.parse::<Scorer>()?.for_regressor()?(&ridge, &xte, &yte)?;
        assert_close_scalar(got, want.as_f64().unwrap_or(f64::NAN), 1e-9, 1e-12, &name);
    }
    Ok(())
}

#[test]
fn adapters_refuse_what_the_model_cannot_give() {
    // LDA's labels-only adapter cannot serve a probability scorer; a regressor adapter no
    // classification scorer; the error comes before any fit.
    assert!(
        Scorer::NegLogLoss
            .for_labels::<f64, <LinearDiscriminantAnalysis as Fit<f64>>::Model>()
            .is_err()
    );
    assert!(
        Scorer::NegLogLoss
            .for_decision::<f64, <LinearDiscriminantAnalysis as Fit<f64>>::Model>()
            .is_err()
    );
    assert!(
        Scorer::Accuracy
            .for_regressor::<f64, <Ridge as Fit<f64>>::Model>()
            .is_err()
    );
}

#[test]
fn pipeline_in_cross_validation_equals_scikit_learn() -> Result<()> {
    let g = golden();
    let cv = KFold::new(5);
    let (x, y) = diabetes();
    let pipe = Pipeline::new((StandardScaler::new(),), Ridge::default().alpha(1.0));
    for name in ["r2", "neg_mean_squared_error", "neg_mean_absolute_error"] {
        let scorer = name.parse::<Scorer>()?.for_regressor()?;
        let got = cross_val_score(&pipe, &x, &y, &cv, scorer)?;
        let want = g
            .case(&format!("cvpipe_ridge_diabetes_{name}"))
            .vector("scores");
        assert_close(&got, &want, 1e-9, 1e-12, name);
    }
    let (x, y) = classification("breast_cancer");
    let pipe = Pipeline::new(
        (StandardScaler::new(),),
        LinearDiscriminantAnalysis::default(),
    );
    for name in ["accuracy", "roc_auc", "neg_log_loss", "f1"] {
        let scorer = name.parse::<Scorer>()?.for_proba_and_decision()?;
        let got = cross_val_score(&pipe, &x, &y, &cv, scorer)?;
        let want = g
            .case(&format!("cvpipe_lda_breast_cancer_{name}"))
            .vector("scores");
        assert_close(&got, &want, 1e-7, 1e-12, name);
    }
    Ok(())
}

#[test]
fn grid_search_over_a_step_prefixed_parameter_equals_scikit_learn() -> Result<()> {
    let case = golden().case("gridpipe_ridge_diabetes").clone();
    let (x, y) = diabetes();
    let pipe = Pipeline::new((StandardScaler::new(),), Ridge::default());
    assert_eq!(pipe.step_names(), ["standard_scaler", "ridge"]);
    let grid = ParamGrid::new().param("ridge__alpha", case.vector("alphas").to_vec());
    let scorer = Scorer::NegMeanSquaredError.for_regressor()?;
    let r = GridSearchCV::new(KFold::new(5)).fit_grid(
        &grid,
        |p| pipe.with_params(p),
        &x,
        &*y,
        scorer,
    )?;
    assert_close(
        &r.mean_test_score,
        &case.vector("mean_test_score"),
        1e-9,
        1e-12,
        "mean",
    );
    assert_close(
        &r.split_test_scores,
        &case.matrix("split_test_scores"),
        1e-9,
        1e-12,
        "splits",
    );
    assert_eq!(r.best_index, case.usize("best_index"));
    assert_eq!(
        r.best_candidate().estimator.alpha,
        case.vector("alphas")[r.best_index]
    );
    Ok(())
}

#[test]
fn pipeline_in_cross_validation_is_manual_per_fold_scaling() -> Result<()> {
    // The pipeline refits the scaler on each training fold: the same numbers as doing it by
    // hand, bit for bit, and different from scaling once on all rows (leakage).
    let (x, y) = diabetes();
    let cv = KFold::new(5);
    let pipe = Pipeline::new((StandardScaler::new(),), Ridge::default().alpha(1.0));
    let r2 = Scorer::R2.for_regressor()?;
    let res = cross_validate(&pipe, &x, &y, &cv, r2, &CvOptions::new())?;
    for (k, (train, test)) in res.splits.iter().enumerate() {
        let (xtr, ytr) = (x.select(Axis(0), train), y.select(Axis(0), train));
        let scaler = StandardScaler::new().fit(&xtr)?;
        let ridge = Ridge::default()
            .alpha(1.0)
            .fit(&scaler.transform(&xtr)?, &ytr)?;
        let pred = ridge.predict(&scaler.transform(&x.select(Axis(0), test))?)?;
        let manual = ndlearn::metrics::r2_score(&y.select(Axis(0), test), &pred, None)?;
        assert_eq!(res.test_scores[k].to_bits(), manual.to_bits(), "fold {k}");
    }
    let scaled_once = StandardScaler::new().fit(&x)?.transform(&x)?;
    // One closure per model type: the adapter is generic over the model.
    let r2_ridge = Scorer::R2.for_regressor()?;
    let leaky = cross_val_score(
        &Ridge::default().alpha(1.0),
        &scaled_once,
        &y,
        &cv,
        r2_ridge,
    )?;
    assert!(leaky.iter().zip(&res.test_scores).any(|(a, b)| a != b));
    Ok(())
}

#[test]
fn fitted_pipeline_round_trips_through_json_and_checks_its_input() -> Result<()> {
    let (x, y) = classification("wine");
    let pipe = Pipeline::new(
        (StandardScaler::new(), ndlearn::decomposition::Pca::new(5)),
        LinearDiscriminantAnalysis::default(),
    );
    assert_eq!(
        pipe.step_names(),
        ["standard_scaler", "pca", "linear_discriminant_analysis"]
    );
    pipe.validate()?;
    let fitted = pipe.fit(&x, &y)?;
    let json =
        serde_json::to_string(&fitted).map_err(|e| Error::invalid_param("json", e.to_string()))?;
    let back: <Pipeline<(StandardScaler, ndlearn::decomposition::Pca), LinearDiscriminantAnalysis> as Fit<f64>>::Model =
        serde_json::from_str(&json).map_err(|e| Error::invalid_param("json", e.to_string()))?;
    assert_eq!(fitted.predict(&x)?, back.predict(&x)?);
    assert_eq!(fitted.predict_proba(&x)?, back.predict_proba(&x)?);
    // The pipeline's output is the steps by hand.
    let z = fitted.transform_input(&x)?;
    assert_eq!(z.ncols(), 5);
    assert_eq!(
        fitted.decision_function(&x)?,
        fitted.model().decision_function(&z)?
    );
    assert_eq!(fitted.n_features_in(), 13);
    // Wrong width, bad names, unknown parameters: typed errors.
    assert!(
        fitted
            .predict(&x.slice(ndlearn::ndarray::s![.., ..12]))
            .is_err()
    );
    assert!(pipe.clone().names(["a", "a", "b"]).validate().is_err());
    assert!(pipe.clone().names(["a", "b"]).fit(&x, &y).is_err());
    let bad = ndlearn::model_selection::ParamPoint::new([("pca__no_such".to_string(), 1.0)]);
    assert!(pipe.with_params(&bad).is_err());
    let unprefixed = ndlearn::model_selection::ParamPoint::new([("n_components".to_string(), 2.0)]);
    assert!(pipe.with_params(&unprefixed).is_err());
    let two = ndlearn::model_selection::ParamPoint::new([("pca__n_components".to_string(), 2.0)]);
    assert_eq!(
        pipe.with_params(&two)?
            .fit(&x, &y)?
            .transform_input(&x)?
            .ncols(),
        2
    );
    Ok(())
}

#[test]
fn unsupervised_pipeline_and_transformer_pipeline() -> Result<()> {
    let (x, _) = classification("iris");
    let km = Pipeline::new((StandardScaler::new(),), ndlearn::cluster::KMeans::new(3));
    let fitted = FitUnsupervised::fit(&km, &x)?;
    assert_eq!(fitted.predict(&x)?.len(), x.nrows());
    let reduce = Pipeline::new(
        (StandardScaler::new(),),
        ndlearn::decomposition::Pca::new(2),
    );
    let z = FitUnsupervised::fit(&reduce, &x)?.transform(&x)?;
    let scaled = StandardScaler::new().fit(&x)?.transform(&x)?;
    let by_hand = ndlearn::decomposition::Pca::new(2)
        .fit(&scaled)?
        .transform(&scaled)?;
    assert_eq!(z, by_hand);
    // No step at all: the estimator alone.
    let bare = Pipeline::new((), ndlearn::decomposition::Pca::new(2));
    assert_eq!(
        FitUnsupervised::fit(&bare, &x)?.transform(&x)?,
        ndlearn::decomposition::Pca::new(2).fit(&x)?.transform(&x)?
    );
    Ok(())
}
