//! `ndlearn-dist fit` writes model files that the main CLI and the registry read: every
//! distributed algorithm against its single-machine fit (`--cluster local`) on a generated
//! table, `ndlearn predict` on the file, and the command line's errors.

use datafusion::prelude::{ParquetReadOptions, SessionContext};
use ndlearn_cli::model_file::ModelFile;
use ndlearn_core::registry::{Data, Output};
use ndlearn_dist::{ALGORITHMS, FitArgs, GenerateSpec, generate, run_fit, table};
use std::path::Path;
use std::process::ExitCode;

const D: usize = 4;

/// The pass counters and the pass timeout are process-wide: the tests of this file run one at
/// a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn args(dir: &Path, cluster: &str, algo: &str) -> FitArgs {
    let target = match algo {
        "gaussian_nb" | "lda" => Some("class".to_string()),
        "logistic_regression" => Some("b".to_string()),
        "kmeans" | "pca" => None,
        _ => Some("y".to_string()),
    };
    let params = match algo {
        "kmeans" => vec!["n_clusters=3".to_string(), "algorithm=lloyd".to_string()],
        "pca" => vec![
            "n_components=2".to_string(),
            "solver=covariance_eigh".to_string(),
        ],
        "lasso" | "elastic_net" => vec!["alpha=0.05".to_string(), "tol=1e-12".to_string()],
        "logistic_regression" => vec!["tol=1e-10".to_string()],
        "lda" => vec!["solver=eigen".to_string()],
        _ => vec![],
    };
    FitArgs {
        cluster: cluster.into(),
        data: format!("file://{}", dir.join("t").display()),
        algo: algo.into(),
        features: vec!["x*".into()],
        target,
        id: Some("id".into()),
        params,
        model: dir.join(format!("{algo}-{cluster}.json")),
        partitions: Some(3),
        report: true,
        pass_timeout: None,
    }
}

/// The model's predictions on `x` through the registry (as `ndlearn predict` computes them).
fn predict(path: &Path, x: &ndarray::Array2<f64>) -> (ModelFile, Output) {
    let file = ModelFile::load(path).expect("model file");
    let all = ndlearn_cli::entries();
    let entry = ndlearn_cli::find(&all, &file.algorithm).expect("entry");
    let model = file.restore(entry, "test").expect("restore");
    let out = model.predict(&Data::F64(x.clone())).expect("predict");
    (file, out)
}

fn values(o: &Output) -> Vec<f64> {
    match o {
        Output::Values(v) => v.to_vec(),
        Output::Labels(l) => l.iter().map(|&v| v as f64).collect(),
        Output::Matrix(m) => m.iter().copied().collect(),
        other => panic!("unexpected output {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn distributed_model_files_equal_single_machine_ones_and_ndlearn_predicts_with_them() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = GenerateSpec {
        rows: 3_000,
        features: D,
        classes: 3,
        files: 3,
        row_group: 500,
        float32: false,
        seed: 9,
    };
    generate(&spec, &dir.path().join("t")).expect("generate");
    let df = SessionContext::new()
        .read_parquet(
            dir.path().join("t").to_str().expect("utf-8"),
            ParquetReadOptions::default(),
        )
        .await
        .expect("read");
    let cols: Vec<String> = (0..D).map(|j| format!("x{j}")).collect();
    let rows = table::read(&df, &cols, Some("y")).await.expect("rows");
    assert_eq!(rows.x.dim(), (3_000, D));
    for algo in ALGORITHMS {
        let a = args(dir.path(), "datafusion", algo);
        let report = run_fit(&a).await.expect(algo);
        assert_eq!(report["rows"], 3_000);
        assert!(
            report["passes"].as_u64().unwrap_or(0) >= 1,
            "{algo}: {report}"
        );
        let local = args(dir.path(), "local", algo);
        run_fit(&local).await.expect(algo);
        let (fd, pd) = predict(&a.model, &rows.x);
        let (fl, pl) = predict(&local.model, &rows.x);
        assert_eq!(fd.feature_names, cols);
        assert_eq!(fd.labels, fl.labels, "{algo}");
        assert_eq!(fd.target_name, fl.target_name, "{algo}");
        let (u, v) = (values(&pd), values(&pl));
        match algo {
            // separated blobs: the same clusters, numbered by where each method found them
            "kmeans" => {
                let inertia = |f: &ModelFile| f.model["inertia"].as_f64().expect("inertia");
                let (a, b) = (inertia(&fd), inertia(&fl));
                assert!((a - b).abs() <= 1e-9 * b, "{a} vs {b}");
            }
            "logistic_regression" => {
                let agree = u.iter().zip(&v).filter(|(a, b)| a == b).count();
                assert!(agree >= 2_990, "{agree} of 3000 labels agree");
            }
            _ => {
                let scale = v.iter().fold(1.0f64, |m, x| m.max(x.abs()));
                let worst = u
                    .iter()
                    .zip(&v)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                assert!(worst <= 1e-8 * scale, "{algo}: {worst}");
            }
        }
    }

    // multinomial logistic regression on the three-class column
    let multi = |cluster: &str| FitArgs {
        target: Some("class".into()),
        model: dir.path().join(format!("multinomial-{cluster}.json")),
        ..args(dir.path(), cluster, "logistic_regression")
    };
    run_fit(&multi("datafusion")).await.expect("multinomial");
    run_fit(&multi("local")).await.expect("multinomial, local");
    let (fd, pd) = predict(&multi("datafusion").model, &rows.x);
    let (fl, pl) = predict(&multi("local").model, &rows.x);
    assert_eq!(fd.labels.as_ref().map(Vec::len), Some(3));
    assert_eq!(fd.labels, fl.labels);
    let (u, v) = (values(&pd), values(&pl));
    let agree = u.iter().zip(&v).filter(|(a, b)| a == b).count();
    assert!(agree >= 2_990, "{agree} of 3000 labels agree");
    let coef = |f: &ModelFile| f.model["coef"].clone();
    assert_eq!(coef(&fd)["dim"], serde_json::json!([3, D]), "{}", coef(&fd));

    // `ndlearn predict` on a CSV of the table, with the distributed ridge
    let csv = dir.path().join("t.csv");
    let mut text = cols.join(",") + ",y\n";
    for i in 0..rows.x.nrows() {
        let r: Vec<String> = rows.x.row(i).iter().map(|v| format!("{v}")).collect();
        let y = rows.y.as_ref().expect("target")[i];
        text += &format!("{},{y}\n", r.join(","));
    }
    std::fs::write(&csv, text).expect("csv");
    let model = dir.path().join("ridge-datafusion.json");
    let out = dir.path().join("pred.csv");
    let code = ndlearn_cli::main_with([
        "ndlearn",
        "--quiet",
        "predict",
        "--model",
        model.to_str().expect("utf-8"),
        "--data",
        csv.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, ExitCode::SUCCESS);
    let printed: Vec<f64> = std::fs::read_to_string(&out)
        .expect("predictions")
        .lines()
        .skip(1)
        .map(|l| l.trim().parse().expect("number"))
        .collect();
    let (_, direct) = predict(&model, &rows.x);
    assert_eq!(printed.len(), 3_000);
    let direct = values(&direct);
    assert!(
        printed
            .iter()
            .zip(&direct)
            .all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1.0))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fit_errors_are_clear() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = GenerateSpec {
        rows: 200,
        features: 2,
        classes: 2,
        files: 1,
        row_group: 100,
        float32: true,
        seed: 1,
    };
    generate(&spec, &dir.path().join("t")).expect("generate");
    let err = |a: FitArgs| async move {
        run_fit(&a)
            .await
            .expect_err("the fit must fail")
            .to_string()
    };
    let base = args(dir.path(), "datafusion", "ridge");
    let e = err(FitArgs {
        algo: "svc".into(),
        ..base.clone()
    })
    .await;
    assert!(e.contains("does not fit on a cluster"), "{e}");
    let e = err(FitArgs {
        algo: "no_such".into(),
        ..base.clone()
    })
    .await;
    assert!(e.contains("no_such"), "{e}");
    let e = err(FitArgs {
        target: None,
        ..base.clone()
    })
    .await;
    assert!(e.contains("--target"), "{e}");
    let e = err(FitArgs {
        features: vec!["z*".into()],
        ..base.clone()
    })
    .await;
    assert!(e.contains("matches no column"), "{e}");
    let e = err(FitArgs {
        cluster: "spark://x".into(),
        ..base.clone()
    })
    .await;
    assert!(e.contains("--cluster"), "{e}");
    let e = err(FitArgs {
        params: vec!["alpha=-1".into()],
        ..base.clone()
    })
    .await;
    assert!(e.contains("alpha"), "{e}");
    let e = err(FitArgs {
        id: None,
        target: None,
        params: vec!["n_clusters=2".into()],
        ..args(dir.path(), "datafusion", "kmeans")
    })
    .await;
    assert!(e.contains("--id"), "{e}");
    // LDA's default svd solver needs the rows
    let e = err(FitArgs {
        params: vec![],
        ..args(dir.path(), "datafusion", "lda")
    })
    .await;
    assert!(e.contains("svd"), "{e}");
    // a float target is not a class label
    let e = err(FitArgs {
        target: Some("y".into()),
        ..args(dir.path(), "datafusion", "logistic_regression")
    })
    .await;
    assert!(e.contains("integer"), "{e}");
    let e = err(FitArgs {
        pass_timeout: Some(1e20),
        ..base.clone()
    })
    .await;
    assert!(e.contains("--pass-timeout"), "{e}");
    // the float32 table is read as f64; a fit works
    run_fit(&base).await.expect("ridge on float32 columns");
    // the binary's usage errors exit with 2
    assert_eq!(
        ndlearn_dist::main_with(["ndlearn-dist", "fit"]),
        ExitCode::from(2)
    );
}
