//! Distance concentration: the curse of dimensionality made measurable (catalog X-04).
//!
//! For `n` points and a query, the *relative contrast* is `(D_max − D_min) / D_min` over the
//! distances from the query to the points. For i.i.d. data it tends to **0** as the dimension
//! grows (Beyer et al., 1999, "When is nearest neighbor meaningful?"), so that nearest-neighbour
//! search loses meaning. The course notes print "tends to 1"; the catalog lists this as an
//! erratum and the code follows the standard result. [`simulate_relative_contrast`] draws
//! uniform data on `[0, 1]^d` to show the effect (a demo and a property test, not a method of
//! the course notes).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

use super::Metric;
use crate::{Error, Float, Result, random};

/// `(D_max − D_min) / D_min` of the distances from `query` to the rows of `points`
/// (`+∞` when `D_min = 0`).
///
/// # Errors
/// [`Error::TooFewSamples`] without points; [`Error::ShapeMismatch`] when the query length
/// differs from the column count; the errors of [`Metric::validate`].
pub fn relative_contrast<F: Float>(
    points: &ArrayRef2<F>,
    query: &ArrayRef1<F>,
    metric: &Metric,
) -> Result<F> {
    metric.validate()?;
    crate::validate::check_min_samples(points.nrows(), 1, "relative_contrast")?;
    super::check_same_len(
        points.ncols(),
        query.len(),
        "relative_contrast: query length",
    )?;
    metric.check_dim(query.len(), "relative_contrast")?;
    let (mut lo, mut hi) = (F::infinity(), F::neg_infinity());
    for row in points.rows() {
        let d = metric.distance(&row, query);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    if lo == F::zero() {
        return Ok(F::infinity());
    }
    Ok((hi - lo) / lo)
}

/// Mean relative contrast (Euclidean) of `n_queries` uniform queries against `n_points`
/// uniform points on `[0, 1]^d`, for every `d` in `dims` (dimensions in parallel, each from its
/// own random stream `random::stream(seed, index)`).
///
/// # Errors
/// [`Error::InvalidParam`] if `n_points < 2`, `n_queries = 0` or a dimension is 0.
pub fn simulate_relative_contrast(
    n_points: usize,
    n_queries: usize,
    dims: &[usize],
    seed: u64,
) -> Result<Vec<f64>> {
    if n_points < 2 {
        return Err(Error::invalid_param("n_points", "need at least 2 points"));
    }
    if n_queries == 0 {
        return Err(Error::invalid_param("n_queries", "need at least 1 query"));
    }
    if dims.contains(&0) {
        return Err(Error::invalid_param("dims", "dimensions must be >= 1"));
    }
    crate::par::try_map_tasks(dims.len(), |t| {
        let d = dims[t];
        let mut rng = random::stream(seed, t as u64);
        let points = Array2::from_shape_simple_fn((n_points, d), || {
            random::uniform::<f64>(&mut rng, 0.0, 1.0)
        });
        let mut total = 0.0;
        for _ in 0..n_queries {
            let q = Array1::from_shape_simple_fn(d, || random::uniform::<f64>(&mut rng, 0.0, 1.0));
            total += relative_contrast(&points, &q, &Metric::Euclidean)?;
        }
        Ok(total / n_queries as f64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn hand_example() {
        // Distances from the origin: 1, 2, 4 ⇒ (4 − 1)/1 = 3.
        let p = array![[1.0, 0.0], [0.0, 2.0], [4.0, 0.0]];
        let q = array![0.0, 0.0];
        assert_eq!(
            relative_contrast(&p, &q, &Metric::Euclidean).expect("ok"),
            3.0
        );
        assert_eq!(
            relative_contrast(&array![[0.0, 0.0]], &q, &Metric::Euclidean).expect("ok"),
            f64::INFINITY
        );
        assert!(relative_contrast(&p, &array![0.0], &Metric::Euclidean).is_err());
        assert!(relative_contrast(&Array2::<f64>::zeros((0, 2)), &q, &Metric::Euclidean).is_err());
    }

    #[test]
    fn contrast_shrinks_with_dimension() {
        let c = simulate_relative_contrast(200, 5, &[2, 20, 200], 7).expect("ok");
        assert!(c[0] > c[1] && c[1] > c[2], "{c:?}");
        assert!(c[2] < 0.5, "{c:?}");
        let again = simulate_relative_contrast(200, 5, &[2, 20, 200], 7).expect("ok");
        assert_eq!(c, again);
        assert!(simulate_relative_contrast(1, 5, &[2], 0).is_err());
        assert!(simulate_relative_contrast(5, 0, &[2], 0).is_err());
        assert!(simulate_relative_contrast(5, 5, &[0], 0).is_err());
    }
}
