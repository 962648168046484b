//! The pass timeout (process-wide, so this test has its own process): a scan that outlives it
//! is run again, and after the retries the fit fails with `DistError::Timeout`; without a
//! timeout the same fit succeeds.

use datafusion::arrow::array::{ArrayRef, Float64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::{SessionConfig, SessionContext};
use ndlearn_datafusion::fit::{self, PASS_RETRIES};
use ndlearn_datafusion::{DistError, metrics};
use ndlearn_linear::LinearRegression;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_that_outlives_the_timeout_is_retried_then_fails_typed() {
    let n = 400_000;
    let schema = Arc::new(Schema::new(vec![
        Field::new("x0", DataType::Float64, false),
        Field::new("x1", DataType::Float64, false),
        Field::new("y", DataType::Float64, false),
    ]));
    let parts: Vec<Vec<RecordBatch>> = (0..2)
        .map(|p| {
            let r = p * n / 2..(p + 1) * n / 2;
            let col = |f: fn(usize) -> f64| -> ArrayRef {
                Arc::new(Float64Array::from_iter_values(r.clone().map(f)))
            };
            vec![
                RecordBatch::try_new(
                    schema.clone(),
                    vec![
                        col(|i| (i % 97) as f64),
                        col(|i| (i % 13) as f64 * 0.5),
                        col(|i| (i % 97) as f64 - (i % 13) as f64 + (i % 7) as f64 * 0.01),
                    ],
                )
                .expect("batch"),
            ]
        })
        .collect();
    let ctx = SessionContext::new_with_config(SessionConfig::new().with_target_partitions(2));
    let df = ctx
        .read_table(Arc::new(MemTable::try_new(schema, parts).expect("table")))
        .expect("df");
    let est = LinearRegression::default();

    assert_eq!(fit::pass_timeout(), None);
    fit::set_pass_timeout(Some(Duration::from_micros(1)));
    assert_eq!(fit::pass_timeout(), Some(Duration::from_millis(1)));
    metrics::reset();
    let started = Instant::now();
    let err = fit::linear_regression(&df, &["x0", "x1"], "y", &est)
        .await
        .expect_err("every attempt times out");
    assert!(matches!(err, DistError::Timeout(_)), "{err}");
    // the retries waited 1 + 2 + 4 s between the attempts
    assert!(started.elapsed() >= Duration::from_secs(7));
    assert_eq!(metrics::snapshot().retries, u64::from(PASS_RETRIES));
    assert_eq!(metrics::snapshot().passes, 0);

    fit::set_pass_timeout(None);
    let m = fit::linear_regression(&df, &["x0", "x1"], "y", &est)
        .await
        .expect("no timeout");
    assert!((m.coef()[0] - 1.0).abs() < 1e-3 && (m.coef()[1] + 2.0).abs() < 1e-3);
    assert_eq!(metrics::snapshot().passes, 1);
}
