//! Fits through an in-process Ballista cluster (scheduler and executor with ndlearn's codecs)
//! from a Parquet table written as several files equal the single-machine fits; the k-means
//! rounds ship new centres to the executors every round.

use datafusion::prelude::{ParquetReadOptions, SessionContext};
use ndlearn_ballista::Cluster;
use ndlearn_bayes::GaussianNB;
use ndlearn_cluster::{KMeans, KMeansAlgorithm, KMeansInit};
use ndlearn_core::{Fit, FitUnsupervised};
use ndlearn_datafusion::fit;
use ndlearn_linear::LinearRegression;

mod common;
use common::{COLS, data, write_table};

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
