//! `ndlearn fit / predict / eval / cv / search` on a raw public table with text columns and
//! missing cells (`datasets/data/penguins.csv`, Palmer penguins, CC0), against scikit-learn's
//! `Pipeline(ColumnTransformer(SimpleImputer, SimpleImputer + OneHotEncoder), LogisticRegression)`
//! (`datasets/golden/cli/raw_table.json`, `scripts/golden/cli_raw_table.py`).
//!
//! Both sides fit the multinomial logistic regression by Newton's method to the optimum (the
//! features are unscaled: body mass ~4,000 beside one-hot columns, so L-BFGS stops short on both
//! sides). The golden script measured its probabilities stable to about 1e-12 across tolerances;
//! `1e-8` absolute leaves room for the two solvers' rounding on this conditioning.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ndlearn_testkit::Golden;

fn penguins() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/data/penguins.csv")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ndlearn"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> (String, String) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    (String::from_utf8(out.stdout).expect("utf-8"), err)
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Train rows `i % 4 != 0`; test rows `i % 4 == 0` with island `Atlantis` where `i % 8 == 0`
/// (the golden script's files).
fn split_files(dir: &Path) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(penguins()).expect("penguins.csv");
    let mut lines = text.lines();
    let head = lines.next().expect("header");
    let island = head
        .split(',')
        .position(|h| h == "island")
        .expect("island column");
    let (mut train, mut test) = (format!("{head}\n"), format!("{head}\n"));
    for (i, line) in lines.enumerate() {
        if i % 4 != 0 {
            train += &format!("{line}\n");
        } else {
            let mut cells: Vec<&str> = line.split(',').collect();
            if i % 8 == 0 {
                cells[island] = "Atlantis";
            }
            test += &format!("{}\n", cells.join(","));
        }
    }
    let (a, b) = (dir.join("train.csv"), dir.join("test.csv"));
    std::fs::write(&a, train).expect("write");
    std::fs::write(&b, test).expect("write");
    (a, b)
}

const NEWTON: [&str; 6] = [
    "--param",
    "solver=newton",
    "--param",
    "tol=1e-10",
    "--param",
    "max_iter=10000",
];

#[test]
fn fit_and_predict_equal_scikit_learns_pipeline() {
    let g = Golden::load("cli", "raw_table");
    let case = g.case("penguins_logistic");
    let dir = tempfile::tempdir().expect("tempdir");
    let (train, test) = split_files(dir.path());
    let model = dir.path().join("model.json");
    let mut args = vec!["fit", "--algo", "logistic_regression", "--data", s(&train)];
    args.extend(["--target", "species", "--model", s(&model)]);
    args.extend(NEWTON);
    let (_, err) = ok(&args);
    // The summary says what was done to the raw table.
    assert!(
        err.contains("encoded 2 text column(s) one-hot (categories: island: 3, sex: 2)"),
        "{err}"
    );
    assert!(
        err.contains("missing cell(s)") && err.contains("mean"),
        "{err}"
    );

    let (proba, _) = ok(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&test),
        "--proba",
    ]);
    let mut rows = proba.lines();
    let classes: Vec<String> = case
        .raw("classes")
        .as_array()
        .expect("classes")
        .iter()
        .map(|c| c.as_str().expect("name").to_string())
        .collect();
    let header: Vec<String> = classes.iter().map(|c| format!("proba_{c}")).collect();
    assert_eq!(rows.next(), Some(header.join(",").as_str()));
    let want = case.matrix("proba");
    let mut n = 0;
    for (i, line) in rows.enumerate() {
        for (k, v) in line.split(',').enumerate() {
            let got: f64 = v.parse().expect("number");
            let diff = (got - want[[i, k]]).abs();
            assert!(
                diff <= 1e-8,
                "row {i} class {k}: {got} vs {} ({diff:e})",
                want[[i, k]]
            );
        }
        n += 1;
    }
    assert_eq!(n, want.nrows());
    let (pred, _) = ok(&["predict", "--model", s(&model), "--data", s(&test)]);
    let got: Vec<&str> = pred.lines().skip(1).collect();
    let labels = case.usize_vector("labels");
    let want: Vec<&str> = labels.iter().map(|&k| classes[k].as_str()).collect();
    assert_eq!(got, want);
    // eval reads the target column of the raw file by the fit's name.
    let (report, _) = ok(&["eval", "--model", s(&model), "--data", s(&test)]);
    assert!(report.contains("accuracy"), "{report}");
}

#[test]
fn cross_validation_equals_scikit_learn_and_search_saves_an_encoded_model() {
    let g = Golden::load("cli", "raw_table");
    let want = g.case("penguins_logistic").vector("cv_accuracy");
    let data = penguins();
    let mut args = vec!["cv", "--algo", "logistic_regression", "--data", s(&data)];
    args.extend(["--target", "species", "--json"]);
    args.extend(NEWTON);
    let (out, err) = ok(&args);
    assert!(err.contains("encoded per fold"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let got: Vec<f64> = v["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect();
    assert_eq!(got, want.to_vec());

    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("best.json");
    let mut args = vec![
        "search",
        "--algo",
        "logistic_regression",
        "--data",
        s(&data),
    ];
    args.extend([
        "--target",
        "species",
        "--param",
        "C=0.01,1",
        "--model",
        s(&model),
    ]);
    args.extend(NEWTON);
    let (out, _) = ok(&args);
    assert!(out.contains("best: C=1"), "{out}");
    let (pred, _) = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
    assert_eq!(pred.lines().count(), 345);
}

#[test]
fn other_encodings_missing_values_and_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (train, test) = split_files(dir.path());
    let data = penguins();
    // A histogram GBDT takes the missing numbers as NaN (its default), ordinal categories too.
    let model = dir.path().join("hgb.json");
    let (_, err) = ok(&[
        "fit",
        "--algo",
        "hist_gradient_boosting_classifier",
        "--data",
        s(&train),
        "--target",
        "species",
        "--encode",
        "ordinal",
        "--model",
        s(&model),
    ]);
    assert!(
        err.contains("ordinal") && err.contains("passed on as missing (NaN)"),
        "{err}"
    );
    let (pred, _) = ok(&["predict", "--model", s(&model), "--data", s(&test)]);
    assert_eq!(pred.lines().count(), 87);
    // Median imputation for a model without missing-value support.
    let model = dir.path().join("knn.json");
    let (_, err) = ok(&[
        "fit",
        "--algo",
        "k_neighbors_classifier",
        "--data",
        s(&train),
        "--target",
        "species",
        "--impute",
        "median",
        "--model",
        s(&model),
    ]);
    assert!(err.contains("median"), "{err}");
    ok(&["predict", "--model", s(&model), "--data", s(&test)]);

    // A text cell in a column that was numeric at fit names its row and column.
    let text = std::fs::read_to_string(&test).expect("test.csv");
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        text.replacen(",181,", ",long,", 1)
            .replacen("39.1", "long", 1),
    )
    .expect("write");
    let out = run(&["predict", "--model", s(&model), "--data", s(&bad)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("not a number") && err.contains("column `"),
        "{err}"
    );
    // A missing target cell at fit is an error, not a silent drop.
    let holes = dir.path().join("holes.csv");
    let raw = std::fs::read_to_string(&data).expect("csv");
    std::fs::write(&holes, raw.replacen("Adelie,", "NA,", 1)).expect("write");
    let out = run(&[
        "fit",
        "--algo",
        "logistic_regression",
        "--data",
        s(&holes),
        "--target",
        "species",
        "--model",
        s(&dir.path().join("x.json")),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("target `species` is missing at data row 1"),
        "{err}"
    );
}
