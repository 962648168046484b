//! Checks and rules shared by the clusterers of this crate.

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, DEFAULT_LEAF_SIZE, NeighborIndex};
use ndlearn_core::validate::{ModelCheck, check_predict_input};
use ndlearn_core::{Error, Float, Result};

/// `1 ≤ k ≤ n` for a number of clusters (or components) called `name`.
pub(crate) fn check_n_clusters(name: &'static str, k: usize, n: usize) -> Result<()> {
    if k == 0 {
        return Err(Error::invalid_param(name, "must be >= 1"));
    }
    if k > n {
        return Err(Error::invalid_param(
            name,
            format!("{name} = {k} exceeds the number of rows {n}"),
        ));
    }
    Ok(())
}

/// Given initial centres must be finite and `k × d`.
pub(crate) fn check_centers(c: &Array2<f64>, k: usize, d: usize) -> Result<()> {
    if c.dim() != (k, d) || c.iter().any(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "init",
            format!(
                "given centres must be finite and {k} x {d}, got {:?}",
                c.dim()
            ),
        ));
    }
    Ok(())
}

/// `predict` of the transductive clusterers (agglomerative, spectral): the label of the nearest
/// training row under `metric` (ties: the lower row). `train` is `None` for models fitted on a
/// precomputed matrix, which cannot place new rows.
pub(crate) fn nearest_row_labels<F: Float>(
    train: Option<&Array2<F>>,
    metric: &Metric,
    labels: &Array1<usize>,
    x: &ArrayRef2<F>,
    context: &'static str,
) -> Result<Array1<usize>> {
    let Some(train) = train else {
        return Err(Error::invalid_param(
            "x",
            "a model fitted on a precomputed matrix cannot place new rows",
        ));
    };
    check_predict_input(x, train.ncols(), context)?;
    let index = NeighborIndex::build(
        train.clone(),
        metric.clone(),
        Algorithm::Auto,
        DEFAULT_LEAF_SIZE,
    )?;
    let (_, idx) = index.kneighbors(x, 1)?;
    Ok(idx.column(0).iter().map(|&i| labels[i]).collect())
}

/// `metric` is valid, and for rows of `d` features when the model stores rows (Mahalanobis:
/// `VI` is `d × d`).
pub(crate) fn check_metric(c: &ModelCheck, metric: &Metric, d: Option<usize>) -> Result<()> {
    metric
        .validate()
        .map_err(|e| c.error(format!("`metric`: {e}")))?;
    match (metric, d) {
        (Metric::Mahalanobis { vi }, Some(d)) => c.shape("metric.vi", vi.dim(), (d, d)),
        _ => Ok(()),
    }
}

/// `a` is a finite `rows × d` matrix with `d ≥ 1`; returns `d`.
pub(crate) fn check_points<F: Float>(
    c: &ModelCheck,
    field: &str,
    a: &Array2<F>,
    rows: usize,
) -> Result<usize> {
    let d = a.ncols();
    c.at_least("number of features", d, 1)?;
    c.shape(field, a.dim(), (rows, d))?;
    c.finite(field, a)?;
    Ok(d)
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn helpers_report_invalid_model() {
        let c = ModelCheck::new("Fitted");
        let x = array![[1.0, 2.0], [3.0, 4.0]];
        assert_eq!(check_points(&c, "centers", &x, 2).ok(), Some(2));
        assert!(check_metric(&c, &Metric::Euclidean, Some(2)).is_ok());
        assert!(c.params(&crate::KMeans::new(2)).is_ok());
        let bad = [
            check_points(&c, "centers", &x, 3).err(),
            check_points(&c, "centers", &array![[f64::NAN]], 1).err(),
            check_metric(&c, &Metric::Mahalanobis { vi: Array2::eye(3) }, Some(2)).err(),
            c.params(&crate::KMeans::new(0)).err(),
        ];
        for e in bad {
            assert!(matches!(e, Some(Error::InvalidModel { .. })), "{e:?}");
        }
    }
}
