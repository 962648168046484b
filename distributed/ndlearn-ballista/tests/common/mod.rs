//! The test table, shared by the cluster tests.

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::DataFrame;
use datafusion::prelude::{SessionConfig, SessionContext};
use ndarray::{Array1, Array2};
use ndlearn_cluster::{KMeans, KMeansAlgorithm, KMeansInit};
use ndlearn_core::{Fit, FitUnsupervised};
use ndlearn_datafusion::fit;
use ndlearn_linear::LinearRegression;
use std::sync::Arc;

pub const N: usize = 600;
pub const COLS: [&str; 3] = ["x0", "x1", "x2"];

pub fn data() -> (Array2<f64>, Array1<f64>, Array1<usize>) {
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
pub async fn write_table(path: &str) {
    let (x, y, l) = data();
    let schema = Arc::new(Schema::new(vec![
        Field::new("x0", DataType::Float64, false),
        Field::new("x1", DataType::Float64, false),
        Field::new("x2", DataType::Float64, false),
        Field::new("y", DataType::Float64, false),
        Field::new("label", DataType::Int64, false),
        Field::new("id", DataType::Int64, false),
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
                r.clone().map(|i| l[i] as i64),
            )));
            cols.push(Arc::new(Int64Array::from_iter_values(r.map(|i| i as i64))));
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

/// OLS from the cluster's scan equals OLS on the rows (1e-10 of the largest coefficient).
pub async fn assert_ols_matches(df: &DataFrame) {
    let (x, y, _) = data();
    let est = LinearRegression::default();
    let a = fit::linear_regression(df, &COLS, "y", &est)
        .await
        .expect("ols");
    let b = est.fit(&x, &y).expect("ols");
    let scale = b.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
    assert!(
        (&a.coef() - &b.coef())
            .iter()
            .all(|v| v.abs() <= 1e-10 * scale)
    );
}

/// Lloyd's k-means from the first three rows.
pub fn kmeans_from_first_rows(x: &Array2<f64>) -> KMeans {
    KMeans::new(3)
        .init(KMeansInit::Centers(
            x.slice(ndarray::s![..3, ..]).to_owned(),
        ))
        .algorithm(KMeansAlgorithm::Lloyd)
}

/// k-means rounds from the cluster's scans equal Lloyd on the rows (centres 1e-10, same rounds).
pub async fn assert_kmeans_matches(df: &DataFrame) {
    let (x, ..) = data();
    let est = kmeans_from_first_rows(&x);
    let a = fit::kmeans(df, &COLS, &est).await.expect("kmeans");
    let b = est.fit(&x).expect("kmeans");
    assert!((a.centers() - b.centers()).iter().all(|v| v.abs() <= 1e-10));
    assert_eq!(a.n_iter(), b.n_iter());
}
