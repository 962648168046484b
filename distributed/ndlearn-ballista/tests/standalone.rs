//! Fits through an in-process Ballista cluster (scheduler and executor with ndlearn's codecs)
//! from a Parquet table written as several files equal the single-machine fits; the k-means
//! rounds ship new centres to the executors every round.

use datafusion::prelude::{ParquetReadOptions, SessionContext};
use ndlearn_ballista::Cluster;
use ndlearn_bayes::{GaussianNB, LdaSolver, LinearDiscriminantAnalysis};
use ndlearn_core::{Fit, PredictProba};
use ndlearn_datafusion::fit;
use ndlearn_linear::{LinearRegression, LogisticRegression};

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
    common::assert_ols_matches(&df).await;
    let (x, _, l) = data();
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

    common::assert_kmeans_matches(&df).await;

    // the statistics of LDA (class scatter) and of the multinomial logistic regression
    // (softmax at the current coefficients) travel through the codecs too
    let est = LinearDiscriminantAnalysis::default().solver(LdaSolver::Eigen);
    let a = fit::lda(&df, &COLS, "label", &est, None)
        .await
        .expect("lda");
    let b = est.fit(&x, &l).expect("lda");
    let scale = b.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
    assert!(
        (a.coef() - b.coef())
            .iter()
            .all(|v| v.abs() <= 1e-9 * scale)
    );
    // five L-BFGS iterations on both sides: the same iterates up to the rounding of the merged
    // statistics (the precision of converged fits is the DataFusion tests' business)
    let est = LogisticRegression::default().max_iter(5);
    let a = fit::logistic_regression(&df, &COLS, "label", None, &est, Some(3))
        .await
        .expect("multinomial logistic");
    let b = est.fit(&x, &l).expect("logistic");
    assert_eq!(a.coef().dim(), (3, 3));
    let (p, q) = (
        a.predict_proba(&x).expect("p"),
        b.predict_proba(&x).expect("q"),
    );
    let worst = (&p - &q).iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst <= 1e-6, "{worst}");
    assert_eq!((a.n_iter(), b.n_iter()), (5, 5));

    // k-means‖ ships its sampling function (centres, cost, round) to the executor: the same
    // centres as in-process DataFusion on the same files
    let opts = ndlearn_datafusion::KMeansParallel::new(3).seed(4);
    let on_cluster = ndlearn_datafusion::kmeans_parallel_init(&df, &COLS, "id", &opts)
        .await
        .expect("k-means‖ on the cluster");
    let local = SessionContext::new()
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    let in_process = ndlearn_datafusion::kmeans_parallel_init(&local, &COLS, "id", &opts)
        .await
        .expect("k-means‖ in process");
    assert!((on_cluster - in_process).iter().all(|v| v.abs() <= 1e-9));
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
