//! Pieces shared by the estimators of this crate: neighbour weights, the stored training
//! index (serialised as its training matrix, rebuilt on first use after loading) and checks.

use std::sync::{Arc, OnceLock};

use ndarray::{Array1, Array2, ArrayRef2, ArrayViewMut1};
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, KNeighbors, NeighborIndex, RadiusNeighbors};
use ndlearn_core::validate::{ModelCheck, check_predict_input};
use ndlearn_core::{Error, Estimator, Float, Result};

/// How the neighbours of a query vote (classifiers) or average (regressors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Weights {
    /// Every neighbour weighs 1 (scikit-learn `"uniform"`).
    #[default]
    Uniform,
    /// A neighbour at distance `d` weighs `1/d` (scikit-learn `"distance"`). When some
    /// neighbours are at distance 0, exactly those weigh 1 and the others 0. (Computed as
    /// `d_min / d`, the same vote after normalisation, so that it never overflows.)
    Distance,
}

/// Fills `w` with the weights of one query's neighbour distances `dist` (see [`Weights`]).
pub(crate) fn weights_into<F: Float>(how: Weights, dist: &[F], w: &mut Vec<F>) {
    w.clear();
    match how {
        Weights::Uniform => w.extend(std::iter::repeat_n(F::one(), dist.len())),
        Weights::Distance => {
            // Neighbours at distance 0 take all the weight, equally. Otherwise the weights are
            // `d_min / d` (proportional to `1/d`, so the same normalised vote) which cannot
            // overflow, even in f32 or at 1e±300 scales; if every distance overflowed to ∞ the
            // neighbours count equally.
            let d_min = dist.iter().fold(F::infinity(), |a, &d| a.min(d));
            if d_min == F::zero() {
                w.extend(
                    dist.iter()
                        .map(|&d| if d == F::zero() { F::one() } else { F::zero() }),
                );
            } else if !d_min.is_finite() {
                w.extend(std::iter::repeat_n(F::one(), dist.len()));
            } else {
                w.extend(dist.iter().map(|&d| d_min / d));
            }
        }
    }
}

/// The training rows of a fitted neighbour model and the search index over them.
///
/// Serialises as the matrix and the search settings only; the index is built at fit and,
/// after loading a model, on the first query (the build is deterministic, so the loaded model
/// answers bit for bit as the original).
#[derive(Debug, Clone)]
pub(crate) struct StoredIndex<F: Float> {
    data: Arc<Array2<F>>,
    metric: Metric,
    algorithm: Algorithm,
    leaf_size: usize,
    index: OnceLock<NeighborIndex<F>>,
}

impl<F: Float> StoredIndex<F> {
    /// Builds the index over `x` (validated by the caller).
    pub(crate) fn build(
        x: &ArrayRef2<F>,
        metric: &Metric,
        algorithm: Algorithm,
        leaf_size: usize,
    ) -> Result<Self> {
        let data = Arc::new(x.as_standard_layout().into_owned());
        let index = NeighborIndex::build(data.clone(), metric.clone(), algorithm, leaf_size)?;
        let cell = OnceLock::new();
        let _ = cell.set(index);
        Ok(Self {
            data,
            metric: metric.clone(),
            algorithm,
            leaf_size,
            index: cell,
        })
    }

    /// The index (built now if this model was loaded from a file).
    pub(crate) fn index(&self) -> Result<&NeighborIndex<F>> {
        if let Some(i) = self.index.get() {
            return Ok(i);
        }
        let built = NeighborIndex::build(
            self.data.clone(),
            self.metric.clone(),
            self.algorithm,
            self.leaf_size,
        )?;
        Ok(self.index.get_or_init(|| built))
    }

    /// The training matrix.
    pub(crate) fn data(&self) -> &Array2<F> {
        &self.data
    }

    /// Number of training rows.
    pub(crate) fn n_samples(&self) -> usize {
        self.data.nrows()
    }

    /// Number of features.
    pub(crate) fn n_features(&self) -> usize {
        self.data.ncols()
    }

    /// For a fitted model's [`ndlearn_core::CheckModel`]: the hyperparameters `params` pass
    /// `validate()`, the stored search settings are theirs (`metric`, `algorithm`, `leaf_size`)
    /// and fit the training rows (finite, at least one row and feature, a Mahalanobis `VI` of
    /// `d × d`, a tree that supports the metric), so the index rebuilt on first use builds.
    pub(crate) fn check(
        &self,
        c: &ModelCheck,
        params: &impl Estimator,
        (metric, algorithm, leaf_size): (&Metric, Algorithm, usize),
    ) -> Result<()> {
        params
            .validate()
            .map_err(|e| c.error(format!("`params`: {e}")))?;
        let same =
            self.metric == *metric && self.algorithm == algorithm && self.leaf_size == leaf_size;
        c.that(same, || {
            "the index's search settings differ from the hyperparameters".into()
        })?;
        let (n, d) = self.data.dim();
        c.at_least("training rows", n, 1)?;
        c.at_least("number of features", d, 1)?;
        c.finite("training data", &*self.data)?;
        if let Metric::Mahalanobis { vi } = metric {
            c.shape("metric.vi", vi.dim(), (d, d))?;
        }
        let supported = match algorithm {
            Algorithm::KdTree => metric.is_minkowski_family(),
            Algorithm::BallTree => metric.is_true_metric() || *metric == Metric::SqEuclidean,
            _ => true,
        };
        c.that(supported, || {
            format!(
                "{algorithm:?} does not support the {} metric",
                metric.name()
            )
        })
    }

    /// The `k` nearest training rows of each query (checks `k`, the query width and
    /// finiteness first; `context` names the estimator in shape errors).
    pub(crate) fn kneighbors(
        &self,
        x: &ArrayRef2<F>,
        k: usize,
        context: &'static str,
    ) -> Result<KNeighbors<F>> {
        check_k(k, self.n_samples())?;
        check_predict_input(x, self.n_features(), context)?;
        self.index()?.kneighbors(x, k)
    }

    /// [`NeighborIndex::kneighbors_for_each`] with the checks of [`Self::kneighbors`]: `f(i,
    /// distances, indices)` for every query row in order, without the `n × k` result.
    pub(crate) fn kneighbors_for_each<G>(
        &self,
        x: &ArrayRef2<F>,
        k: usize,
        context: &'static str,
        f: G,
    ) -> Result<()>
    where
        G: FnMut(usize, &[F], &[usize]),
    {
        check_k(k, self.n_samples())?;
        check_predict_input(x, self.n_features(), context)?;
        self.index()?.kneighbors_for_each(x, k, f)
    }

    /// Every training row within `r` of each query (checks `r`, the query width and
    /// finiteness first).
    pub(crate) fn radius_neighbors(
        &self,
        x: &ArrayRef2<F>,
        r: f64,
        context: &'static str,
    ) -> Result<Vec<RadiusNeighbors<F>>> {
        check_radius(r)?;
        check_predict_input(x, self.n_features(), context)?;
        self.index()?.radius_neighbors(x, r)
    }
}

/// `1 ≤ k ≤ n`.
pub(crate) fn check_k(k: usize, n: usize) -> Result<()> {
    if k == 0 || k > n {
        return Err(Error::invalid_param(
            "n_neighbors",
            format!("need 1 <= n_neighbors <= n_samples = {n}, got {k}"),
        ));
    }
    Ok(())
}

/// A finite radius `r ≥ 0`.
pub(crate) fn check_radius(r: f64) -> Result<()> {
    ndlearn_core::validate::check_non_negative("radius", r)?;
    if !r.is_finite() {
        return Err(Error::invalid_param("radius", "must be finite"));
    }
    Ok(())
}

/// The (weighted) class shares of one query's neighbours (`dist`, `idx`) into `out`
/// (`n_classes` entries, zero on entry); `w` is scratch space.
pub(crate) fn vote_into<F: Float>(
    mut out: ArrayViewMut1<'_, F>,
    dist: &[F],
    idx: &[usize],
    labels: &Array1<usize>,
    how: Weights,
    w: &mut Vec<F>,
) {
    weights_into(how, dist, w);
    let mut total = F::zero();
    for (&j, &wj) in idx.iter().zip(w.iter()) {
        out[labels[j]] += wj;
        total += wj;
    }
    out.mapv_inplace(|v| v / total);
}

/// The builder methods shared by every neighbour estimator (fields `weights`, `algorithm`,
/// `leaf_size`, `metric`).
macro_rules! search_builders {
    () => {
        ndlearn_core::setters! {
            /// Sets the neighbour weights.
            weights: Weights,
            /// Sets the search algorithm.
            algorithm: Algorithm,
            /// Sets the tree leaf size.
            leaf_size: usize,
            /// Sets the metric.
            metric: Metric,
        }
    };
}
pub(crate) use search_builders;

#[cfg(feature = "serde")]
mod serde_impl {
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize)]
    struct Out<'a, F: Float> {
        data: &'a Array2<F>,
        metric: &'a Metric,
        algorithm: Algorithm,
        leaf_size: usize,
    }

    #[derive(Deserialize)]
    struct In<F: Float> {
        data: Array2<F>,
        metric: Metric,
        algorithm: Algorithm,
        leaf_size: usize,
    }

    impl<F: Float + Serialize> Serialize for StoredIndex<F> {
        fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            Out {
                data: &self.data,
                metric: &self.metric,
                algorithm: self.algorithm,
                leaf_size: self.leaf_size,
            }
            .serialize(s)
        }
    }

    impl<'de, F: Float + Deserialize<'de>> Deserialize<'de> for StoredIndex<F> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let v = In::<F>::deserialize(d)?;
            if v.data.nrows() == 0 || v.data.ncols() == 0 || v.leaf_size == 0 {
                return Err(serde::de::Error::custom(
                    "neighbour index: empty training data or leaf_size 0",
                ));
            }
            Ok(Self {
                data: Arc::new(v.data),
                metric: v.metric,
                algorithm: v.algorithm,
                leaf_size: v.leaf_size,
                index: OnceLock::new(),
            })
        }
    }
}

/// Checks `leaf_size ≥ 1` and the metric.
pub(crate) fn check_search(metric: &Metric, leaf_size: usize) -> Result<()> {
    metric.validate()?;
    if leaf_size == 0 {
        return Err(Error::invalid_param("leaf_size", "must be >= 1"));
    }
    Ok(())
}

pub(crate) use ndlearn_core::numeric::argmax;

/// Class labels of the `n` training rows, `n_classes` = largest label + 1, below
/// `n + 1_000_000` (as `check_labels` at fit; predictions allocate a column per class).
pub(crate) fn check_class_labels(
    c: &ModelCheck,
    labels: &Array1<usize>,
    n: usize,
    n_classes: usize,
) -> Result<()> {
    c.len("labels", labels.len(), n)?;
    let top = labels.iter().copied().max().map_or(0, |m| m + 1);
    c.that(top == n_classes && n_classes <= n + 1_000_000, || {
        format!("`n_classes` is {n_classes}, the labels need {top}")
    })
}

/// Regression targets of the `n` training rows: `n × m`, `m ≥ 1`, finite.
pub(crate) fn check_targets<F: Float>(c: &ModelCheck, targets: &Array2<F>, n: usize) -> Result<()> {
    c.at_least("number of outputs", targets.ncols(), 1)?;
    c.shape("targets", targets.dim(), (n, targets.ncols()))?;
    c.finite("targets", targets)
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;
    use crate::KNeighborsClassifier;

    #[test]
    fn stored_index_check_reports_invalid_model() {
        let c = ModelCheck::new("Fitted");
        let x = array![[0.0, 1.0], [2.0, 3.0]];
        let est = KNeighborsClassifier::new(1);
        let settings = (&est.metric, est.algorithm, est.leaf_size);
        let index =
            StoredIndex::build(&x, &est.metric, est.algorithm, est.leaf_size).expect("build");
        assert!(index.check(&c, &est, settings).is_ok());
        assert!(check_class_labels(&c, &array![0, 1], 2, 2).is_ok());
        assert!(check_targets(&c, &array![[1.0], [2.0]], 2).is_ok());
        let cosine = Metric::Cosine;
        let bad = [
            index
                .check(&c, &est, (&est.metric, Algorithm::Brute, 30))
                .err(),
            index
                .check(&c, &est, (&cosine, Algorithm::KdTree, est.leaf_size))
                .err(),
            index
                .check(&c, &KNeighborsClassifier::new(0), settings)
                .err(),
            check_class_labels(&c, &array![0, 1], 2, 5).err(),
            check_targets(&c, &Array2::<f64>::zeros((2, 0)), 2).err(),
        ];
        for e in bad {
            assert!(matches!(e, Some(Error::InvalidModel { .. })), "{e:?}");
        }
    }
}
