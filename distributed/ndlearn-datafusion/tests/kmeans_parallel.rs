//! k-means‖ initialisation from scans: judged by inertia against k-means++ on rows, the same
//! centres for any partitioning (the draws are keyed by row id), typed errors for bad input.

use datafusion::arrow::array::{ArrayRef, Float64Array, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::{DataFrame, SessionConfig, SessionContext};
use ndarray::Array2;
use ndlearn_cluster::{KMeans, KMeansAlgorithm, KMeansInit};
use ndlearn_core::FitUnsupervised;
use ndlearn_datafusion::fit;
use ndlearn_datafusion::{DistError, KMeansParallel, kmeans_parallel_init};
use std::sync::Arc;

const N: usize = 3_000;
const K: usize = 6;
const COLS: [&str; 3] = ["x0", "x1", "x2"];

/// `K` separated blobs in 3-D (unequal sizes), rows interleaved; ids `7i + 3` (not a range).
fn blobs() -> (Array2<f64>, Vec<i64>) {
    let x = Array2::from_shape_fn((N, 3), |(i, j)| {
        let c = (i % 10).min(K - 1); // interleaved; the last cluster holds half the rows
        let h = ((i * 2_654_435_761 + j * 40_503) % 10_007) as f64 / 10_007.0 - 0.5;
        (c as f64 * 7.0) * if j == 1 { -1.0 } else { 1.0 } + (j as f64) * (c % 2) as f64 * 5.0 + h
    });
    (x, (0..N as i64).map(|i| 7 * i + 3).collect())
}

fn table(parts: usize) -> (SessionContext, DataFrame) {
    let (x, ids) = blobs();
    let schema = Arc::new(Schema::new(
        COLS.iter()
            .map(|c| Field::new(*c, DataType::Float64, false))
            .chain([Field::new("id", DataType::Int64, false)])
            .collect::<Vec<_>>(),
    ));
    let mut partitions = Vec::new();
    for p in 0..parts {
        let (lo, hi) = (p * N / parts, (p + 1) * N / parts);
        let mut cols: Vec<ArrayRef> = (0..3)
            .map(|j| {
                Arc::new(Float64Array::from_iter_values((lo..hi).map(|i| x[[i, j]]))) as ArrayRef
            })
            .collect();
        cols.push(Arc::new(Int64Array::from_iter_values(
            ids[lo..hi].iter().copied(),
        )));
        partitions.push(vec![
            RecordBatch::try_new(schema.clone(), cols).expect("batch"),
        ]);
    }
    let ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(parts));
    let mem = MemTable::try_new(schema, partitions).expect("table");
    let df = ctx.read_table(Arc::new(mem)).expect("df");
    (ctx, df)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kmeans_parallel_matches_kmeans_plus_plus_by_inertia() {
    let (x, _) = blobs();
    let plus = KMeans::new(K).seed(5).fit(&x).expect("k-means++");
    let mut first: Option<Array2<f64>> = None;
    for parts in [1, 3, 7] {
        let (_ctx, df) = table(parts);
        let init = kmeans_parallel_init(&df, &COLS, "id", &KMeansParallel::new(K).seed(11))
            .await
            .expect("k-means‖");
        assert_eq!(init.dim(), (K, 3));
        // the draws are keyed by row id: the same centres for any partitioning (up to the
        // order of the partial sums in φ)
        match &first {
            None => first = Some(init.clone()),
            Some(f) => {
                let diff = (f - &init).mapv(f64::abs).fold(0.0f64, |a, &b| a.max(b));
                assert!(diff < 1e-9, "{parts} partitions: {diff}");
            }
        }
        let est = KMeans::new(K)
            .init(KMeansInit::Centers(init))
            .algorithm(KMeansAlgorithm::Lloyd);
        let fitted = fit::kmeans(&df, &COLS, &est).await.expect("Lloyd");
        // separated blobs: both initialisations reach the same optimum
        assert!(
            fitted.inertia() <= plus.inertia() * (1.0 + 1e-9),
            "k-means‖ {} vs k-means++ {}",
            fitted.inertia(),
            plus.inertia()
        );
    }
    // another seed, other draws, the same optimum
    let (_ctx, df) = table(3);
    let other = kmeans_parallel_init(&df, &COLS, "id", &KMeansParallel::new(K).seed(12).rounds(2))
        .await
        .expect("k-means‖");
    let est = KMeans::new(K)
        .init(KMeansInit::Centers(other))
        .algorithm(KMeansAlgorithm::Lloyd);
    let fitted = fit::kmeans(&df, &COLS, &est).await.expect("Lloyd");
    assert!(fitted.inertia() <= plus.inertia() * (1.0 + 1e-9));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kmeans_parallel_rejects_bad_input() {
    let (_ctx, df) = table(2);
    // more clusters than distinct rows
    let tiny = df.clone().limit(0, Some(4)).expect("limit");
    assert!(matches!(
        kmeans_parallel_init(&tiny, &COLS, "id", &KMeansParallel::new(5)).await,
        Err(DistError::Plan(_))
    ));
    assert!(matches!(
        kmeans_parallel_init(&df, &COLS, "id", &KMeansParallel::new(0)).await,
        Err(DistError::Plan(_))
    ));
    // a missing id column: an engine error, returned at once
    assert!(matches!(
        kmeans_parallel_init(&df, &COLS, "nope", &KMeansParallel::new(2)).await,
        Err(DistError::DataFusion(_))
    ));
    // negative ids are not row ids
    let neg = df
        .clone()
        .with_column(
            "id",
            datafusion::prelude::col("id") * datafusion::prelude::lit(-1i64),
        )
        .expect("negate");
    assert!(
        kmeans_parallel_init(&neg, &COLS, "id", &KMeansParallel::new(2))
            .await
            .is_err()
    );
}
