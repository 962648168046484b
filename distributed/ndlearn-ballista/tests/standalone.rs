//! Fits through an in-process Ballista cluster (scheduler and executor with ndlearn's codecs)
//! from a Parquet table written as several files equal the single-machine fits; the k-means
//! rounds ship new centres to the executors every round.

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use ndarray::{Array1, Array2};
use ndlearn_ballista::Cluster;
use ndlearn_bayes::GaussianNB;
use ndlearn_cluster::{KMeans, KMeansAlgorithm, KMeansInit};
use ndlearn_core::{Fit, FitUnsupervised};
use ndlearn_datafusion::fit;
use ndlearn_linear::LinearRegression;
use std::sync::Arc;

const N: usize = 600;
const COLS: [&str; 3] = ["x0", "x1", "x2"];

fn data() -> (Array2<f64>, Array1<f64>, Array1<usize>) {
    let x = Array2::from_shape_fn((N, 3), |(i, j)| {
        let h = ((i * 2_654_435_761 + j * 40_503) % 10_007) as f64 / 10_007.0;
        h * (1.0 + j as f64) + if j == 1 { 5.0 } else { 0.0 } + 3.0 * (i % 3) as f64
    });
    let l = Array1::from_shape_fn(N, |i| i % 3);
    let y = Array1::from_shape_fn(N, |i| {
        x[[i, 0]] - 2.0 * x[[i, 1]] + 0.5 * x[[i, 2]] + 0.05 * ((i as f64) * 0.7).sin()
    });
    (x, y, l)
}

/// Writes the table as Parquet (several files) with plain DataFusion.
async fn write_table(path: &str) {
    let (x, y, l) = data();
    let schema = Arc::new(Schema::new(vec![
        Field::new("x0", DataType::Float64, false),
        Field::new("x1", DataType::Float64, false),
        Field::new("x2", DataType::Float64, false),
        Field::new("y", DataType::Float64, false),
        Field::new("label", DataType::Int64, false),
    ]));
    let parts: Vec<Vec<RecordBatch>> = (0..3)
        .map(|p| {
            let r = p * N / 3..(p + 1) * N / 3;
            let mut cols: Vec<ArrayRef> = (0..3)
                .map(|j| {
                    Arc::new(Float64Array::from_iter_values(r.clone().map(|i| x[[i, j]])))
                        as ArrayRef
                })
                .collect();
            cols.push(Arc::new(Float64Array::from_iter_values(
                r.clone().map(|i| y[i]),
            )));
            cols.push(Arc::new(Int64Array::from_iter_values(
                r.map(|i| l[i] as i64),
            )));
            vec![RecordBatch::try_new(schema.clone(), cols).expect("batch")]
        })
        .collect();
    let ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(3));
    let df = ctx
        .read_table(Arc::new(MemTable::try_new(schema, parts).expect("table")))
        .expect("df");
    df.write_parquet(path, Default::default(), None)
        .await
        .expect("write");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fits_on_a_standalone_cluster_equal_single_machine_fits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t");
    let path = path.to_str().expect("utf-8").to_string();
    write_table(&path).await;
    let ctx = Cluster::standalone().await.expect("standalone cluster");
    let df = ctx
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    let (x, y, l) = data();

    let est = LinearRegression::default();
    let a = fit::linear_regression(&df, &COLS, "y", &est)
        .await
        .expect("ols");
    let b = est.fit(&x, &y).expect("ols");
    let scale = b.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
    assert!(
        (&a.coef() - &b.coef())
            .iter()
            .all(|v| v.abs() <= 1e-10 * scale)
    );

    let est = GaussianNB::default();
    let a = fit::gaussian_nb(&df, &COLS, "label", None, &est, None)
        .await
        .expect("gnb");
    let b = est.fit(&x, &l).expect("gnb");
    assert!(
        (a.theta() - b.theta())
            .iter()
            .all(|v| v.abs() <= 1e-12 * 10.0)
    );

    let est = KMeans::new(3)
        .init(KMeansInit::Centers(
            x.slice(ndarray::s![..3, ..]).to_owned(),
        ))
        .algorithm(KMeansAlgorithm::Lloyd);
    let a = fit::kmeans(&df, &COLS, &est).await.expect("kmeans");
    let b = est.fit(&x).expect("kmeans");
    assert!((a.centers() - b.centers()).iter().all(|v| v.abs() <= 1e-10));
    assert_eq!(a.n_iter(), b.n_iter());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_without_the_ndlearn_codecs_gives_a_clear_error() {
    use ballista::prelude::SessionContextExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t");
    let path = path.to_str().expect("utf-8").to_string();
    write_table(&path).await;
    // Ballista's own codecs only: the scheduler cannot decode ndlearn's aggregate function
    let ctx = SessionContext::standalone()
        .await
        .expect("standalone cluster");
    let df = ctx
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    let err = fit::linear_regression(&df, &COLS, "y", &LinearRegression::default())
        .await
        .expect_err("the plain cluster cannot run the aggregate");
    let msg = err.to_string();
    assert!(msg.contains("ndlearn_moments"), "{msg}");
}
