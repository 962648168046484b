//! `ndlearn cv` (K-fold scores with a named scorer) and `ndlearn search` (a grid over
//! `--param name=v1,v2,...`, every candidate cross-validated, the best one refitted and saved).
//!
//! Folds: stratified K-fold for classifiers (scikit-learn's `cv=K`), K-fold otherwise, in file
//! order unless `--shuffle` (then seeded by `--seed`). Scorers: scikit-learn's names
//! ([`Scorer`]); the default is `accuracy` for classifiers and `r2` for regressors. Threshold
//! scorers (`roc_auc`, `average_precision`) read the decision function when the model has one,
//! else its probabilities, as scikit-learn does.

use std::path::Path;

use ndarray::{Array2, Axis};
use ndlearn_core::model_selection::{
    CrossValidator, KFold, Response, Scorer, Split, StratifiedKFold, Task,
};
use ndlearn_core::registry::{Data, DynEstimator, DynModel, Entry, Kind, Output, Target};
use ndlearn_core::{FitUnsupervised, Transform};

use crate::data::{self, TargetArg};
use crate::raw;
use crate::{CliError, json_num, note, say};

/// What `cv` and `search` share.
pub(crate) struct CvArgs<'a> {
    pub entry: &'a Entry,
    pub data: &'a Path,
    pub target: Option<&'a str>,
    pub folds: usize,
    pub scoring: Option<&'a str>,
    pub shuffle: bool,
    pub seed: u64,
    pub f32: bool,
    pub json: bool,
    pub table: crate::TableFlags,
}

/// The loaded problem: features, target, class names, the splits and the scorer.
struct Problem {
    /// The features, or a raw table's codes (then `raw` says how each fold encodes them).
    x: Data,
    raw: Option<RawPlan>,
    y: Target,
    table: data::Table,
    splits: Vec<Split>,
    scorer: Scorer,
}

/// A raw table's column kinds and encoding, fitted anew on every training fold.
struct RawPlan {
    kinds: Vec<raw::ColumnKind>,
    impute: raw::Impute,
    encode: raw::Encode,
    f32: bool,
}

impl RawPlan {
    /// Fits the column transformer on the training codes and encodes both sides.
    fn encode(&self, train: &Data, test: &Data) -> Result<(Data, Data), CliError> {
        let (Data::F64(tr), Data::F64(te)) = (train, test) else {
            return Err(CliError::runtime("raw-table codes are f64"));
        };
        let ct = raw::transformer(&self.kinds, self.impute, self.encode);
        let fitted = FitUnsupervised::<f64>::fit(&ct, tr)?;
        let (a, b) = (fitted.transform(tr)?, fitted.transform(te)?);
        Ok(if self.f32 {
            (
                Data::F32(a.mapv(|v| v as f32)),
                Data::F32(b.mapv(|v| v as f32)),
            )
        } else {
            (Data::F64(a), Data::F64(b))
        })
    }
}

fn load_problem(a: &CvArgs<'_>) -> Result<Problem, CliError> {
    let kind = a.entry.kind();
    if !kind.is_supervised() {
        return Err(CliError::input(format!(
            "`{}` is a {kind}: cross-validation scores classifiers and regressors",
            a.entry.name()
        )));
    }
    let scorer = match a.scoring {
        Some(s) => s.parse::<Scorer>()?,
        None if kind == Kind::Classifier => Scorer::Accuracy,
        None => Scorer::R2,
    };
    let want = if kind == Kind::Classifier {
        Task::Classification
    } else {
        Task::Regression
    };
    if scorer.task() != want {
        let what = match scorer.task() {
            Task::Classification => "class labels",
            Task::Regression => "real values",
        };
        return Err(CliError::input(format!(
            "--scoring {scorer} scores {what} but `{}` is a {kind}",
            a.entry.name()
        )));
    }
    let arg = TargetArg::parse(a.target);
    // The numeric reader first (see `crate::load_for_fit`); the raw-table reader when it fails.
    let numeric = data::load(a.data, &arg, kind);
    let codes = match &numeric {
        Ok(_) => None,
        Err(_) => raw::load_codes(a.data, &arg, kind, a.table.encode)?,
    };
    let (table, x, raw_plan) = match codes {
        None => {
            let table = numeric?;
            let x = table.data(a.f32);
            (table, x, None)
        }
        Some(raw::Codes {
            x: codes,
            kinds,
            raw: rt,
        }) => {
            let impute = a.table.impute_for(a.entry);
            crate::note!(
                "{}: {} (encoded per fold)",
                a.data.display(),
                raw::describe(&rt, &kinds, impute, a.table.encode)
            );
            let table = data::Table {
                n: codes.nrows(),
                x: Array2::zeros((0, 0)),
                feature_names: rt.names.clone(),
                target_name: rt.target.as_ref().map(|(n, _)| n.clone()),
                target: rt.target(kind, a.data)?,
            };
            let plan = RawPlan {
                kinds,
                impute,
                encode: a.table.encode,
                f32: a.f32,
            };
            (table, Data::F64(codes), Some(plan))
        }
    };
    let (y, labels) = data::fit_target(&table.target, kind);
    if kind == Kind::Classifier && labels.as_ref().is_some_and(|l| l.len() < 2) {
        return Err(CliError::input(format!(
            "{}: the target has a single class; a classifier needs at least two",
            a.data.display()
        )));
    }
    if a.folds < 2 {
        return Err(CliError::input("--cv must be at least 2"));
    }
    let n = table.n;
    let splits = match &y {
        Target::Labels(l) => {
            let mut cv = StratifiedKFold::new(a.folds);
            cv.shuffle = a.shuffle;
            cv.seed = a.seed;
            cv.split(n, Some(l))?
        }
        _ => {
            let mut cv = KFold::new(a.folds);
            cv.shuffle = a.shuffle;
            cv.seed = a.seed;
            cv.split(n, None)?
        }
    };
    Ok(Problem {
        x,
        raw: raw_plan,
        y,
        table,
        splits,
        scorer,
    })
}

fn select_data(x: &Data, rows: &[usize]) -> Data {
    match x {
        Data::F64(a) => Data::F64(a.select(Axis(0), rows)),
        Data::F32(a) => Data::F32(a.select(Axis(0), rows)),
    }
}

/// The rows of a classification or regression target (the only ones `cv` loads).
fn select_target(y: &Target, rows: &[usize]) -> Target {
    match y {
        Target::Labels(l) => Target::Labels(l.select(Axis(0), rows)),
        Target::Values(v) => Target::Values(v.select(Axis(0), rows)),
        _ => Target::None,
    }
}

/// Scores a fitted model with a named scorer (see the module docs for what it reads).
pub fn score_model(
    scorer: Scorer,
    model: &dyn DynModel,
    x: &Data,
    y: &Target,
) -> Result<f64, CliError> {
    let missing = |what: &str| {
        CliError::input(format!(
            "--scoring {scorer} needs {what}, which this model does not give"
        ))
    };
    match y {
        Target::Values(v) => match model.predict(x)? {
            Output::Values(p) => Ok(scorer.score_values(v, &p)?),
            _ => Err(missing("one predicted value per row")),
        },
        Target::Labels(l) => match scorer.response() {
            Response::Predict => match model.predict(x)? {
                Output::Labels(p) => Ok(scorer.score_labels(l, &p)?),
                _ => Err(missing("predicted labels")),
            },
            Response::Proba => {
                let p = model
                    .predict_proba(x)
                    .ok_or_else(|| missing("predict_proba"))??;
                Ok(scorer.score_proba(l, &p)?)
            }
            Response::Threshold => match model.decision_function(x) {
                Some(d) => Ok(scorer.score_decision(l, &d?)?),
                None => {
                    let p = model
                        .predict_proba(x)
                        .ok_or_else(|| missing("a decision function or predict_proba"))??;
                    Ok(scorer.score_proba(l, &p)?)
                }
            },
        },
        _ => Err(CliError::input(
            "cross-validation needs class labels or real values as the target",
        )),
    }
}

/// Fits `est` on every training fold and scores it on the test fold, in fold order.
fn fold_scores(est: &dyn DynEstimator, p: &Problem) -> Result<Vec<f64>, CliError> {
    p.splits
        .iter()
        .map(|(train, test)| {
            let (mut xtr, mut xte) = (select_data(&p.x, train), select_data(&p.x, test));
            if let Some(plan) = &p.raw {
                (xtr, xte) = plan.encode(&xtr, &xte)?;
            }
            let model = est.fit(&xtr, &select_target(&p.y, train))?;
            score_model(p.scorer, model.as_ref(), &xte, &select_target(&p.y, test))
        })
        .collect()
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    (
        m,
        (v.iter().map(|s| (s - m) * (s - m)).sum::<f64>() / n).sqrt(),
    )
}

fn build(entry: &Entry, overrides: &[(String, String)]) -> Result<Box<dyn DynEstimator>, CliError> {
    entry.build(overrides).map_err(|e| match e {
        ndlearn_core::Error::InvalidParam { reason, .. } => CliError::input(reason),
        other => other.into(),
    })
}

/// `ndlearn cv`.
pub(crate) fn cv(a: &CvArgs<'_>, overrides: &[(String, String)]) -> Result<(), CliError> {
    let est = build(a.entry, overrides)?;
    let p = load_problem(a)?;
    let scores = fold_scores(est.as_ref(), &p)?;
    let (m, s) = mean_std(&scores);
    if a.json {
        say!(
            "{}",
            serde_json::json!({
                "algorithm": a.entry.name(),
                "scoring": p.scorer.name(),
                "folds": scores.len(),
                "scores": scores.iter().map(|v| json_num(*v)).collect::<Vec<_>>(),
                "mean": json_num(m),
                "std": json_num(s),
            })
        );
    } else {
        let list: Vec<String> = scores.iter().map(|v| format!("{v:.6}")).collect();
        say!(
            "{} {}-fold {}: {m:.6} ± {s:.6} (folds: {})",
            a.entry.name(),
            scores.len(),
            p.scorer,
            list.join(", ")
        );
    }
    note!(
        "cross-validated on {} rows x {} features{}",
        p.table.n,
        p.table.feature_names.len(),
        if a.shuffle { ", shuffled" } else { "" }
    );
    Ok(())
}

/// Splits `v1,v2,...` on the commas outside brackets, braces and quotes (so JSON values such as
/// `{"0": 1, "1": 2}` stay whole).
pub fn split_values(raw: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quoted) = (Vec::new(), String::new(), 0i32, false);
    for c in raw.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

/// The candidates of a grid, in scikit-learn's `ParameterGrid` order (names sorted, the last
/// name varying fastest).
pub fn grid_candidates(
    params: &[(String, String)],
) -> Result<Vec<Vec<(String, String)>>, CliError> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for (k, raw) in params {
        let values = split_values(raw);
        if values.iter().any(String::is_empty) {
            return Err(CliError::input(format!(
                "--param {k}={raw}: an empty value in the list"
            )));
        }
        match axes.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = values,
            None => axes.push((k.clone(), values)),
        }
    }
    axes.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, values) in &axes {
        out = out
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((name.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    Ok(out)
}

/// `ndlearn search`.
pub(crate) fn search(
    a: &CvArgs<'_>,
    grid: &[(String, String)],
    model_path: Option<&Path>,
) -> Result<(), CliError> {
    let candidates = grid_candidates(grid)?;
    // Every candidate is built (and checked) before any data are read.
    let estimators = candidates
        .iter()
        .map(|c| build(a.entry, c))
        .collect::<Result<Vec<_>, _>>()?;
    let p = load_problem(a)?;
    let mut rows = Vec::with_capacity(candidates.len());
    for (c, est) in candidates.iter().zip(&estimators) {
        let scores = fold_scores(est.as_ref(), &p)?;
        let (m, s) = mean_std(&scores);
        rows.push((c, scores, m, s));
    }
    let means: Vec<f64> = rows.iter().map(|r| r.2).collect();
    let ranks = ndlearn_core::model_selection::rank_min(&means);
    let best = ranks.iter().position(|&r| r == 1).unwrap_or(0);
    let show = |c: &[(String, String)]| {
        c.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if a.json {
        let list: Vec<_> = rows
            .iter()
            .zip(&ranks)
            .map(|((c, scores, m, s), r)| {
                serde_json::json!({
                    "params": c
                        .iter()
                        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                        .collect::<serde_json::Map<_, _>>(),
                    "scores": scores.iter().map(|v| json_num(*v)).collect::<Vec<_>>(),
                    "mean": json_num(*m),
                    "std": json_num(*s),
                    "rank": r,
                })
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({
                "algorithm": a.entry.name(),
                "scoring": p.scorer.name(),
                "folds": p.splits.len(),
                "candidates": list,
                "best_index": best,
            })
        );
    } else {
        say!(
            "rank  mean       std        params ({} {}-fold)",
            p.scorer,
            p.splits.len()
        );
        for ((c, _, m, s), r) in rows.iter().zip(&ranks) {
            say!("{r:<5} {m:<10.6} {s:<10.6} {}", show(c));
        }
        say!("best: {}", show(rows[best].0));
    }
    if let Some(path) = model_path {
        let est = &estimators[best];
        let (table, encoding) = crate::load_for_fit(a.entry, a.data, a.target, &a.table)?;
        let (y, labels) = data::fit_target(&table.target, a.entry.kind());
        let model = est.fit(&table.data(a.f32), &y)?;
        let saved = crate::Saved {
            table: &table,
            labels,
            encoding,
        };
        crate::save_model(a.entry, est.as_ref(), model.as_ref(), saved, path)?;
        note!(
            "refitted the best candidate on all rows; model written to {}",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_outside_json() {
        assert_eq!(split_values("0.1, 1,10"), ["0.1", "1", "10"]);
        assert_eq!(
            split_values(r#"{"0": 1, "1": 2},balanced"#),
            [r#"{"0": 1, "1": 2}"#, "balanced"]
        );
        assert_eq!(split_values("[1,2],[3]"), ["[1,2]", "[3]"]);
    }

    #[test]
    fn grid_order_is_scikit_learns() -> Result<(), CliError> {
        let g = grid_candidates(&[
            ("gamma".into(), "0.1,1".into()),
            ("C".into(), "1,10,100".into()),
        ])?;
        assert_eq!(g.len(), 6);
        // Names sorted ("C" < "gamma"), the last varies fastest.
        assert_eq!(
            g[0],
            [("C".into(), "1".into()), ("gamma".into(), "0.1".into())]
        );
        assert_eq!(g[1][1].1, "1");
        assert_eq!(g[2][0].1, "10");
        assert!(grid_candidates(&[("C".into(), "1,,2".into())]).is_err());
        Ok(())
    }
}
