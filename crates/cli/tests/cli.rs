//! Drives the real `ndlearn` binary through fit → predict → eval → bench on the embedded data
//! sets, and through bad input (exit code and the message naming the problem).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/data")
        .join(format!("{name}.csv"))
}

fn ndlearn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ndlearn"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = ndlearn(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs a command that must fail with exit code 1 and returns stderr.
fn fails(args: &[&str]) -> String {
    let out = ndlearn(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn list_json_is_the_registry() {
    let out = ok(&["list", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let names: Vec<&str> = v
        .as_array()
        .expect("array")
        .iter()
        .map(|e| e["name"].as_str().expect("name"))
        .collect();
    // `every_estimator.rs` checks that `entries()` is every crate's registry.
    let all = ndlearn_cli::entries();
    let expected: Vec<&str> = all.iter().map(|e| e.name()).collect();
    assert_eq!(names, expected);
    let ridge = v
        .as_array()
        .expect("array")
        .iter()
        .find(|e| e["name"] == "ridge")
        .expect("ridge listed");
    assert_eq!(ridge["kind"], "regressor");
    assert!(
        ridge["params"]
            .as_array()
            .expect("params")
            .iter()
            .any(|p| p["name"] == "alpha" && p["type"] == "float")
    );
    let text = ok(&["list"]);
    assert!(text.contains("logistic_regression") && text.contains("standard_scaler"));
}

/// Fits `algo` on iris with the given `--param`s and returns the model file.
fn fit_iris(algo: &str, params: &[&str]) -> serde_json::Value {
    fit_on("iris", algo, params)
}

/// Fits `algo` on an embedded data set with the given `--param`s and returns the model file.
fn fit_on(dataset: &str, algo: &str, params: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tmp");
    let model = dir.path().join("m.json");
    let iris = data(dataset);
    let mut args = vec![
        "fit",
        "--algo",
        algo,
        "--data",
        s(&iris),
        "--model",
        s(&model),
    ];
    for p in params {
        args.push("--param");
        args.push(p);
    }
    ok(&args);
    serde_json::from_str(&std::fs::read_to_string(&model).expect("written")).expect("json")
}

/// The command lines of scikit-learn users: scikit-learn's parameter names, flat keys for
/// struct variants, count-or-fraction values, snake_case enum names, class-name aliases.
#[test]
fn scikit_learn_style_parameters() {
    for n in ["5", "0.95", "mle"] {
        let f = fit_on("wine", "pca", &[&format!("n_components={n}")]);
        let got = &f["hyperparameters"]["n_components"];
        match n {
            "5" => assert_eq!(got, 5),
            "0.95" => assert_eq!(got, 0.95),
            _ => assert_eq!(got, "mle"),
        }
    }
    let f = fit_on("wine", "pca", &["n_components=5"]);
    assert_eq!(f["model"]["components"]["dim"][0], 5);
    let f = fit_iris("kernel_pca", &["kernel=rbf", "gamma=0.1"]);
    assert_eq!(
        f["hyperparameters"]["kernel"],
        serde_json::json!({"rbf": {"gamma": 0.1}})
    );
    let f = fit_iris(
        "kernel_pca",
        &["kernel=poly", "degree=2", "gamma=0.5", "coef0=1"],
    );
    assert_eq!(
        f["hyperparameters"]["kernel"],
        serde_json::json!({"polynomial": {"gamma": 0.5, "coef0": 1.0, "degree": 2}})
    );
    let f = fit_iris("logistic_regression", &["C=0.5"]);
    assert_eq!(f["hyperparameters"]["C"], 0.5);
    let f = fit_iris("knn_classifier", &["metric=manhattan", "algorithm=kd_tree"]);
    assert_eq!(f["hyperparameters"]["metric"], "manhattan");
    assert_eq!(f["hyperparameters"]["algorithm"], "kd_tree");
    let f = fit_iris("knn_classifier", &["metric=minkowski", "p=3"]);
    assert_eq!(
        f["hyperparameters"]["metric"],
        serde_json::json!({"minkowski": {"p": 3.0}})
    );
    // scikit-learn's metric spellings and the Rust field names are aliases.
    let f = fit_iris("knn_classifier", &["metric=cityblock"]);
    assert_eq!(f["hyperparameters"]["metric"], "manhattan");
    let f = fit_iris("kmeans", &["n_clusters=3", "seed=7"]);
    assert_eq!(f["hyperparameters"]["random_state"], 7);
    // The snake_case of the scikit-learn class answers too.
    let f = fit_iris("k_means", &["n_clusters=2", "random_state=1"]);
    assert_eq!(f["algorithm"], "kmeans");
    let f = fit_iris("linear_discriminant_analysis", &[]);
    assert_eq!(f["algorithm"], "lda");
    let f = fit_iris("t_sne", &["n_components=2"]);
    assert_eq!(f["algorithm"], "tsne");
    let err = fails(&[
        "fit",
        "--algo",
        "knn_classifier",
        "--data",
        s(&data("iris")),
        "--param",
        "p=3",
        "--model",
        "/dev/null",
    ]);
    assert!(err.contains("no parameter `p`"), "{err}");
    let text = ok(&["list"]);
    assert!(text.contains("(also: k_means)"), "aliases listed");
    assert!(text.contains("random_state") && text.contains("(also: seed)"));
}

#[test]
fn classifier_fit_predict_eval_bench_roundtrip() {
    let dir = tempfile::tempdir().expect("tmp");
    let model = dir.path().join("m.json");
    let iris = data("iris");
    ok(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&iris),
        "--param",
        "c=10",
        "--model",
        s(&model),
    ]);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).expect("written")).expect("json");
    assert_eq!(file["format"], "ndlearn-model");
    // Written under scikit-learn's name (`c`, the Rust spelling, was accepted).
    assert_eq!(file["hyperparameters"]["C"], 10.0);
    assert_eq!(file["format_version"], 2);
    assert_eq!(file["labels"], serde_json::json!(["0", "1", "2"]));

    // Saved and loaded model = the library's model, bit for bit.
    let pred = ok(&["predict", "--model", s(&model), "--data", s(&iris)]);
    let lines: Vec<&str> = pred.lines().collect();
    assert_eq!(lines[0], "prediction");
    assert_eq!(lines.len(), 151);
    let ds = ndlearn_datasets::iris();
    use ndlearn_core::{Fit, Predict, PredictProba};
    let est = ndlearn_linear::LogisticRegression::new(10.0);
    let fitted = est
        .fit(ds.x(), ds.y_classes().expect("classes"))
        .expect("fits");
    let direct = fitted.predict(ds.x()).expect("predicts");
    for (line, d) in lines[1..].iter().zip(direct.iter()) {
        assert_eq!(*line, d.to_string());
    }
    let proba = ok(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&iris),
        "--proba",
    ]);
    let p_direct = fitted.predict_proba(ds.x()).expect("proba");
    let mut rows = proba.lines();
    assert_eq!(rows.next(), Some("proba_0,proba_1,proba_2"));
    for (row, want) in rows.zip(p_direct.rows()) {
        let got: Vec<f64> = row.split(',').map(|c| c.parse().expect("number")).collect();
        assert_eq!(got, want.to_vec(), "bit-identical probabilities");
    }

    let out = dir.path().join("pred.csv");
    ok(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&iris),
        "--out",
        s(&out),
    ]);
    assert_eq!(std::fs::read_to_string(&out).expect("written"), pred);

    let plot = dir.path().join("cm.svg");
    let eval = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&iris),
        "--target",
        "target",
        "--plot",
        s(&plot),
    ]);
    let acc: f64 = eval
        .lines()
        .find_map(|l| l.strip_prefix("accuracy"))
        .map(|v| v.trim().parse().expect("number"))
        .expect("accuracy line");
    assert!(acc > 0.95, "{eval}");
    assert!(eval.contains("log_loss"));
    let svg = std::fs::read_to_string(&plot).expect("plot written");
    assert!(svg.starts_with("<svg") && svg.contains("confusion matrix"));

    let bench = ok(&[
        "bench",
        "--algo",
        "logistic_regression",
        "--train",
        s(&iris),
        "--param",
        "c=10",
        "--repeat",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    let recs: Vec<serde_json::Value> = bench
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        let mut keys: Vec<&str> = r
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "algo",
                "d",
                "dataset",
                "fit_s",
                "metric",
                "n_train",
                "params",
                "predict_s",
                "threads",
                "value"
            ]
        );
        assert_eq!(r["metric"], "accuracy");
        assert_eq!(r["dataset"], "iris");
        assert_eq!(r["n_train"], 150);
        assert_eq!(r["threads"], 1);
        assert!((r["value"].as_f64().expect("value") - acc).abs() < 1e-12);
    }
}

#[test]
fn regressor_and_transformer_paths() {
    let dir = tempfile::tempdir().expect("tmp");
    let diabetes = data("diabetes");
    let model = dir.path().join("ridge.json");
    ok(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--param",
        "alpha=0.5",
        "--model",
        s(&model),
    ]);
    let plot = dir.path().join("scatter.svg");
    let eval = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&diabetes),
        "--target",
        "target",
        "--plot",
        s(&plot),
    ]);
    assert!(eval.contains("r2") && eval.contains("rmse"), "{eval}");
    assert!(
        std::fs::read_to_string(&plot)
            .expect("plot")
            .contains("predicted vs true")
    );
    let line = ok(&["bench", "--algo", "ridge", "--train", s(&diabetes), "--f32"]);
    assert!(
        line.starts_with("ridge diabetes n_train=442 d=10 "),
        "{line}"
    );
    assert!(line.contains(" r2="));

    let scaler = dir.path().join("scaler.json");
    ok(&[
        "fit",
        "--algo",
        "standard_scaler",
        "--data",
        s(&diabetes),
        "--model",
        s(&scaler),
    ]);
    // The `target` column is kept out of the features of an unsupervised model by default.
    let z = ok(&["predict", "--model", s(&scaler), "--data", s(&diabetes)]);
    assert!(
        z.lines()
            .next()
            .expect("header")
            .starts_with("component_0,")
    );
    assert_eq!(z.lines().next().expect("header").split(',').count(), 10);
    let bench = ok(&[
        "bench",
        "--algo",
        "standard_scaler",
        "--train",
        s(&diabetes),
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(bench.trim()).expect("json");
    assert_eq!(r["metric"], "reconstruction_error");
    assert!(r["value"].as_f64().expect("value") < 1e-20);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let iris = data("iris");
    let model = dir.path().join("m.json");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p
    };
    // Unknown algorithm: suggestions.
    let e = fails(&[
        "fit",
        "--algo",
        "rige",
        "--data",
        s(&iris),
        "--model",
        s(&model),
    ]);
    assert!(
        e.contains("unknown algorithm `rige`") && e.contains("ridge"),
        "{e}"
    );
    // Unknown / ill-typed parameter: lists the valid ones.
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&iris),
        "--param",
        "lambda=1",
        "--model",
        s(&model),
    ]);
    assert!(
        e.contains("no parameter `lambda`") && e.contains("alpha"),
        "{e}"
    );
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&iris),
        "--param",
        "alpha=big",
        "--model",
        s(&model),
    ]);
    assert!(e.contains("`big` is not a number"), "{e}");
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&iris),
        "--param",
        "solver=magic",
        "--model",
        s(&model),
    ]);
    assert!(e.contains("`magic` is not one of"), "{e}");
    // Missing, empty, ragged, non-numeric and NaN files.
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        "/nonexistent.csv",
        "--model",
        s(&model),
    ]);
    assert!(e.contains("/nonexistent.csv"), "{e}");
    let empty = write("empty.csv", "");
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&empty),
        "--model",
        s(&model),
    ]);
    assert!(e.contains("empty"), "{e}");
    let ragged = write("ragged.csv", "a,b,target\n1,2,3\n4,5\n");
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&ragged),
        "--model",
        s(&model),
    ]);
    assert!(e.contains("line 3"), "{e}");
    // A text cell makes its column categorical and an `NaN` cell is missing: both are handled
    // (encoded, imputed) and the summary line says so.
    let text = write("text.csv", "a,b,target\n1,2,3\n4,x,5\n");
    let out = ndlearn(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&text),
        "--model",
        s(&model),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("encoded 1 text column(s) one-hot (categories: b: 2)"),
        "{err}"
    );
    let nan = write("nan.csv", "a,b,target\n1,2,3\n4,NaN,5\n6,7,8\n");
    let out = ndlearn(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&nan),
        "--model",
        s(&model),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("1 missing cell(s) in 1 column(s) imputed"),
        "{err}"
    );
    // An infinite value is not a missing marker: an error naming the column.
    let inf = write("inf.csv", "a,b,target\n1,2,3\n4,inf,5\n6,NA,8\n");
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&inf),
        "--model",
        s(&model),
    ]);
    assert!(e.contains("infinite") && e.contains("column `b`"), "{e}");
    // A single class.
    let one = write("one.csv", "a,target\n1,x\n2,x\n3,x\n");
    let e = fails(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&one),
        "--model",
        s(&model),
    ]);
    assert!(e.contains("single class"), "{e}");
    // Unknown target column.
    let e = fails(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&iris),
        "--target",
        "price",
        "--model",
        s(&model),
    ]);
    assert!(e.contains("no column named `price`"), "{e}");

    // Corrupt, truncated, foreign and newer model files.
    ok(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&iris),
        "--model",
        s(&model),
    ]);
    let good = std::fs::read_to_string(&model).expect("model");
    let truncated = write("trunc.json", &good[..good.len() / 2]);
    let e = fails(&["predict", "--model", s(&truncated), "--data", s(&iris)]);
    assert!(e.contains("truncated"), "{e}");
    let foreign = write("foreign.json", "{\"coef\": [1, 2]}");
    let e = fails(&["predict", "--model", s(&foreign), "--data", s(&iris)]);
    assert!(e.contains("not an ndlearn model file"), "{e}");
    let newer = write(
        "newer.json",
        &good.replace("\"format_version\": 2", "\"format_version\": 99"),
    );
    let e = fails(&["predict", "--model", s(&newer), "--data", s(&iris)]);
    assert!(e.contains("format version 99"), "{e}");
    let damaged = write(
        "damaged.json",
        &good.replace("\"algorithm\": \"ridge\"", "\"algorithm\": \"lasso\""),
    );
    let e = fails(&["predict", "--model", s(&damaged), "--data", s(&iris)]);
    assert!(e.contains("damaged"), "{e}");
    // Other columns at predict: named.
    let other = write("other.csv", "sepal_length_cm,petal_width_cm,extra\n1,2,3\n");
    let e = fails(&["predict", "--model", s(&model), "--data", s(&other)]);
    assert!(
        e.contains("missing column(s) sepal_width_cm, petal_length_cm")
            && e.contains("unexpected column(s) extra"),
        "{e}"
    );
    // --proba on a regressor.
    let e = fails(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&iris),
        "--proba",
    ]);
    assert!(e.contains("no class probabilities"), "{e}");
    // Bad syntax is clap's exit code 2.
    assert_eq!(ndlearn(&["fit"]).status.code(), Some(2));
}

#[test]
fn binary_eval_draws_a_roc_curve() {
    let dir = tempfile::tempdir().expect("tmp");
    let bc = data("breast_cancer");
    let model = dir.path().join("bc.json");
    ok(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&bc),
        "--param",
        "max_iter=500",
        "--model",
        s(&model),
    ]);
    let plot = dir.path().join("roc.svg");
    let eval = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&bc),
        "--target",
        "target",
        "--plot",
        s(&plot),
    ]);
    let auc: f64 = eval
        .lines()
        .find_map(|l| l.strip_prefix("roc_auc"))
        .map(|v| v.trim().parse().expect("number"))
        .expect("roc_auc line");
    assert!(auc > 0.95 && auc <= 1.0, "{eval}");
    let svg = std::fs::read_to_string(&plot).expect("plot");
    assert!(svg.contains("ROC curve (AUC = "), "no ROC title");
}

#[test]
fn predict_ignores_target_cells_and_eval_survives_one_class() {
    let dir = tempfile::tempdir().expect("tmp");
    let bc = data("breast_cancer");
    let model = dir.path().join("bc.json");
    ok(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&bc),
        "--model",
        s(&model),
    ]);
    // Rows to predict with an empty / placeholder target: the cells are never parsed.
    let text = std::fs::read_to_string(&bc).expect("csv");
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let rows: Vec<&str> = lines.take(4).collect();
    let blank: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let cut = r.rfind(',').expect("comma");
            format!("{}{}", &r[..=cut], if i % 2 == 0 { "" } else { "?" })
        })
        .collect();
    let unlabeled = dir.path().join("unlabeled.csv");
    std::fs::write(&unlabeled, format!("{header}\n{}\n", blank.join("\n"))).expect("write");
    let pred = ok(&["predict", "--model", s(&model), "--data", s(&unlabeled)]);
    assert_eq!(pred.lines().count(), 5);
    // Evaluating on rows of one class only: accuracy, no ROC AUC, confusion plot instead.
    let one_class: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|r| r.ends_with(",1"))
        .take(20)
        .collect();
    let one = dir.path().join("one.csv");
    std::fs::write(&one, format!("{header}\n{}\n", one_class.join("\n"))).expect("write");
    let plot = dir.path().join("p.svg");
    let eval = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&one),
        "--target",
        "target",
        "--plot",
        s(&plot),
    ]);
    assert!(
        eval.contains("accuracy") && !eval.contains("roc_auc"),
        "{eval}"
    );
    assert!(
        std::fs::read_to_string(&plot)
            .expect("plot")
            .contains("confusion matrix")
    );
}

#[test]
fn a_model_file_with_too_few_labels_is_an_error_not_a_guess() {
    let dir = tempfile::tempdir().expect("tmp");
    let model = dir.path().join("m.json");
    let iris = data("iris");
    ok(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&iris),
        "--model",
        s(&model),
    ]);
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).expect("written")).expect("json");
    file["labels"] = serde_json::json!(["setosa", "versicolor"]);
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, file.to_string()).expect("write");
    let err = fails(&["predict", "--model", s(&broken), "--data", s(&iris)]);
    assert!(err.contains("inconsistent"), "{err}");
    let err = fails(&[
        "predict",
        "--model",
        s(&broken),
        "--data",
        s(&iris),
        "--proba",
    ]);
    assert!(
        err.contains("2 class labels but 3 probability columns"),
        "{err}"
    );
}

#[test]
fn eval_prints_the_class_names_of_the_file() {
    let dir = tempfile::tempdir().expect("tmp");
    let csv = dir.path().join("fruit.csv");
    let mut text = String::from("weight,colour,fruit\n");
    for i in 0..40 {
        let (w, c, f) = if i % 2 == 0 {
            (150.0 + i as f64, 1.0, "apple")
        } else {
            (120.0 + i as f64 * 0.5, 0.0, "banana")
        };
        text.push_str(&format!("{w},{c},{f}\n"));
    }
    std::fs::write(&csv, text).expect("write");
    let model = dir.path().join("m.json");
    ok(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&csv),
        "--model",
        s(&model),
    ]);
    let out = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&csv),
        "--target",
        "fruit",
    ]);
    assert!(out.contains("apple") && out.contains("banana"), "{out}");
}

#[test]
fn a_model_whose_coefficients_do_not_fit_its_columns_is_reported_as_damaged() {
    let dir = tempfile::tempdir().expect("tmp");
    let model = dir.path().join("m.json");
    let diabetes = data("diabetes");
    ok(&[
        "fit",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--model",
        s(&model),
    ]);
    let text = std::fs::read_to_string(&model).expect("written");
    let mut file: serde_json::Value = serde_json::from_str(&text).expect("json");
    // Drop one coefficient, wherever the fitted state keeps them.
    fn shorten(v: &mut serde_json::Value) -> bool {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k.starts_with("coef") {
                        if let Some(a) = x.get_mut("data").and_then(|d| d.as_array_mut()) {
                            a.pop();
                            if let Some(dim) = x.get_mut("dim").and_then(|d| d.as_array_mut()) {
                                let last = dim.len() - 1;
                                let n = dim[last].as_u64().expect("dim") - 1;
                                dim[last] = serde_json::json!(n);
                            }
                            return true;
                        }
                    }
                    if shorten(x) {
                        return true;
                    }
                }
                false
            }
            _ => false,
        }
    }
    assert!(
        shorten(&mut file["model"]),
        "found the coefficients: {file}"
    );
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, file.to_string()).expect("write");
    let err = fails(&["predict", "--model", s(&broken), "--data", s(&diabetes)]);
    assert!(err.contains("damaged model file"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}

#[test]
fn cv_equals_the_library_and_search_refits_the_best() {
    use ndlearn_core::Fit as _;
    use ndlearn_core::model_selection::{KFold, Scorer, cross_val_score};
    let diabetes = data("diabetes");
    let out = ok(&["cv", "--algo", "ridge", "--data", s(&diabetes), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["scoring"], "r2");
    let got: Vec<f64> = v["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect();
    // The same numbers through the library: bit for bit.
    let d = ndlearn_datasets::diabetes_raw();
    let y = d.y_values().expect("values");
    let r2 = Scorer::R2.for_regressor().expect("regression scorer");
    let want = cross_val_score(
        &ndlearn_linear::Ridge::default(),
        d.x(),
        y,
        &KFold::new(5),
        r2,
    )
    .expect("library cv");
    assert_eq!(got, want.to_vec());

    // Classification: stratified folds, a probability scorer, the text form.
    let bc = data("breast_cancer");
    let text = ok(&[
        "cv",
        "--algo",
        "gaussian_nb",
        "--data",
        s(&bc),
        "--scoring",
        "neg_log_loss",
        "--cv",
        "3",
    ]);
    assert!(
        text.starts_with("gaussian_nb 3-fold neg_log_loss: -"),
        "{text}"
    );

    // Search: a grid of four, ranked; the saved model is the best candidate refitted.
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("best.json");
    let out = ok(&[
        "search",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--param",
        "alpha=0.01,1,10,100",
        "--param",
        "fit_intercept=true",
        "--scoring",
        "neg_mean_squared_error",
        "--json",
        "--model",
        s(&model),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let cands = v["candidates"].as_array().expect("candidates");
    assert_eq!(cands.len(), 4);
    let best = v["best_index"].as_u64().expect("index") as usize;
    assert_eq!(cands[best]["rank"], 1);
    let means: Vec<f64> = cands
        .iter()
        .map(|c| c["mean"].as_f64().expect("mean"))
        .collect();
    assert!(means.iter().all(|m| *m <= means[best]));
    let alpha: f64 = cands[best]["params"]["alpha"]
        .as_str()
        .expect("alpha")
        .parse()
        .expect("number");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).expect("model file")).expect("json");
    assert_eq!(file["hyperparameters"]["alpha"].as_f64(), Some(alpha));
    let direct = ndlearn_linear::Ridge::default()
        .alpha(alpha)
        .fit(d.x(), y)
        .expect("fit");
    let pred = ok(&["predict", "--model", s(&model), "--data", s(&diabetes)]);
    let first: f64 = pred.lines().nth(1).expect("a row").parse().expect("number");
    use ndlearn_core::Predict as _;
    assert_eq!(first, direct.predict(d.x()).expect("predict")[0]);
}

#[test]
fn cv_and_search_reject_what_they_cannot_score() {
    let iris = data("iris");
    let diabetes = data("diabetes");
    let e = fails(&["cv", "--algo", "kmeans", "--data", s(&iris)]);
    assert!(e.contains("clusterer"), "{e}");
    let e = fails(&[
        "cv",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--scoring",
        "accuracy",
    ]);
    assert!(e.contains("regressor"), "{e}");
    let e = fails(&[
        "cv",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--scoring",
        "r3",
    ]);
    assert!(
        e.contains("unknown scorer") && e.contains("neg_mean_squared_error"),
        "{e}"
    );
    let e = fails(&["cv", "--algo", "ridge", "--data", s(&diabetes), "--cv", "1"]);
    assert!(e.contains("--cv"), "{e}");
    let e = fails(&[
        "cv",
        "--algo",
        "svc",
        "--data",
        s(&iris),
        "--scoring",
        "roc_auc",
    ]);
    assert!(e.contains("roc_auc_ovr"), "{e}");
    let e = fails(&[
        "cv",
        "--algo",
        "svc",
        "--data",
        s(&iris),
        "--scoring",
        "neg_log_loss",
    ]);
    assert!(e.contains("predict_proba"), "{e}");
    let e = fails(&[
        "search",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--param",
        "alpha=1,,2",
    ]);
    assert!(e.contains("empty value"), "{e}");
    let e = fails(&[
        "search",
        "--algo",
        "ridge",
        "--data",
        s(&diabetes),
        "--param",
        "alpha=1,x",
    ]);
    assert!(e.contains("alpha"), "{e}");
}

#[test]
fn eval_defaults_the_target_to_the_fit_target_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("nb.json");
    let iris = data("iris");
    ok(&[
        "fit",
        "--algo",
        "gaussian_nb",
        "--data",
        s(&iris),
        "--model",
        s(&model),
    ]);
    let with = ok(&[
        "eval",
        "--model",
        s(&model),
        "--data",
        s(&iris),
        "--target",
        "target",
    ]);
    let without = ok(&["eval", "--model", s(&model), "--data", s(&iris)]);
    assert_eq!(with, without);
    assert!(without.contains("accuracy"), "{without}");
    // Without the column there is nothing to score against.
    let text = std::fs::read_to_string(&iris).expect("csv");
    let features: String = text
        .lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string() + "\n")
        .collect();
    let x_only = dir.path().join("x.csv");
    std::fs::write(&x_only, features).expect("write");
    let e = fails(&["eval", "--model", s(&model), "--data", s(&x_only)]);
    assert!(e.contains("--target") && e.contains("`target`"), "{e}");
}

#[test]
fn unconverged_fits_warn_and_quiet_silences_the_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("lr.json");
    let bc = data("breast_cancer");
    let run = |extra: &[&str]| {
        let mut args = vec!["fit", "--algo", "logistic_regression", "--data", s(&bc)];
        args.extend(["--model", s(&model)]);
        args.extend(extra);
        let out = ndlearn(&args);
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Unscaled breast cancer: lbfgs stops at its 100 iterations.
    let err = run(&[]);
    assert!(
        err.contains("warning: logistic_regression stopped after 100 iterations"),
        "{err}"
    );
    assert!(
        err.contains("max_iter") && err.contains("standard_scaler"),
        "{err}"
    );
    assert!(err.contains("fitted logistic_regression"), "{err}");
    // Enough iterations: no warning; --quiet: no summary either (warnings would still print).
    let err = run(&["--param", "max_iter=20000", "--quiet"]);
    assert_eq!(err, "", "{err}");
    let err = run(&["--quiet"]);
    assert!(
        err.starts_with("warning:") && !err.contains("fitted"),
        "{err}"
    );
}

#[test]
fn eval_plot_of_a_decision_tree_is_the_tree() {
    let dir = tempfile::tempdir().expect("tmp");
    for (algo, name, extra) in [
        ("decision_tree_classifier", "iris", "max_depth=2"),
        ("decision_tree_regressor", "diabetes", "max_depth=2"),
    ] {
        let model = dir.path().join(format!("{algo}.json"));
        let csv = data(name);
        ok(&[
            "fit",
            "--algo",
            algo,
            "--data",
            s(&csv),
            "--param",
            extra,
            "--model",
            s(&model),
        ]);
        let plot = dir.path().join(format!("{algo}.svg"));
        let out = ok(&[
            "eval",
            "--model",
            s(&model),
            "--data",
            s(&csv),
            "--plot",
            s(&plot),
        ]);
        assert!(out.contains("wrote the tree"), "{out}");
        let svg = std::fs::read_to_string(&plot).expect("plot written");
        assert!(svg.starts_with("<svg"), "{algo}");
        // Depth 2: one to three split nodes, named by the file's columns.
        let splits = svg.matches(" &lt;= ").count();
        assert!((1..=3).contains(&splits), "{algo}: {splits} splits");
        if algo == "decision_tree_classifier" {
            // iris splits first on a petal column; the leaves name the classes.
            assert!(svg.contains("petal_"), "{svg}");
            assert!(svg.contains("class = 0"), "{svg}");
        } else {
            assert!(svg.contains("value = "), "{svg}");
        }
    }
}
