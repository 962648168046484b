//! Nearest-centroid classification ([`NearestCentroid`], scikit-learn's `NearestCentroid`).
//!
//! # Method
//!
//! Each class `c` is summarised by a centroid `μ_c`: the mean of its rows for the Euclidean
//! metric, the coordinate-wise **median** for the Manhattan metric (the point minimising the
//! sum of L1 distances). A query goes to the class of the nearest centroid (ties to the lower
//! class).
//!
//! **Shrunken centroids** (Tibshirani et al., 2002; scikit-learn's `shrink_threshold`): with
//! overall mean `μ`, pooled within-class standard deviation
//! `s_j = √(Σ_i (x_ij − μ_{y_i j})² / (n − C))` plus its median over features `s_0`, and
//! `m_c = √(1/n_c − 1/n)`, the standardized offsets `d_cj = (μ_cj − μ_j) / (m_c (s_j + s_0))`
//! are soft-thresholded by `Δ`, `d'_cj = sign(d_cj) max(|d_cj| − Δ, 0)`, and the centroids
//! become `μ_j + m_c (s_j + s_0) d'_cj`: features that do not separate the classes stop
//! counting.
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_neighbors::NearestCentroid;
//!
//! let x = array![[0.0, 0.0], [2.0, 0.0], [10.0, 10.0], [12.0, 10.0]];
//! let model = NearestCentroid::default().fit(&x, &array![0usize, 0, 1, 1])?;
//! assert_eq!(model.centroids().row(0).to_vec(), vec![1.0, 0.0]);
//! assert_eq!(model.predict(&array![[4.0, 3.0], [9.0, 9.0]])?.to_vec(), vec![0, 1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::validate::{ModelCheck, check_classification_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, Estimator, Fit, Float, Labels, Predict, Result};

/// The distance of [`NearestCentroid`] (which fixes the centroid: mean or median).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CentroidMetric {
    /// Euclidean distance to the class mean.
    #[default]
    Euclidean,
    /// Manhattan distance to the class median.
    Manhattan,
}

/// Nearest-centroid classifier. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct NearestCentroid {
    /// The distance (default Euclidean).
    pub metric: CentroidMetric,
    /// Soft threshold `Δ ≥ 0` of the shrunken centroids (default `None`: no shrinking).
    pub shrink_threshold: Option<f64>,
}

impl NearestCentroid {
    ndlearn_core::setters! {
        /// Sets the metric.
        metric: CentroidMetric,
        /// Sets the shrink threshold.
        shrink_threshold: Option<f64>,
    }
}

fn median<F: Float>(v: &mut [F]) -> F {
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / (F::one() + F::one())
    }
}

impl Estimator for NearestCentroid {
    /// Checks the shrink threshold (finite, `≥ 0`).
    fn validate(&self) -> Result<()> {
        if let Some(t) = self.shrink_threshold {
            ndlearn_core::validate::check_non_negative("shrink_threshold", t)?;
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for NearestCentroid {
    type Target = Labels;
    type Model = FittedNearestCentroid<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 2, "NearestCentroid::fit")?;
        let (n, d) = x.dim();
        let mut counts = vec![0usize; n_classes];
        for &c in y.iter() {
            counts[c] += 1;
        }
        let mut centroids = Array2::<F>::zeros((n_classes, d));
        match self.metric {
            CentroidMetric::Euclidean => {
                for (row, &c) in x.rows().into_iter().zip(y.iter()) {
                    let mut out = centroids.row_mut(c);
                    out += &row;
                }
                for (c, mut row) in centroids.rows_mut().into_iter().enumerate() {
                    if counts[c] > 0 {
                        row /= F::cast(counts[c] as f64);
                    }
                }
            }
            CentroidMetric::Manhattan => {
                let mut buf = Vec::with_capacity(n);
                for c in 0..n_classes {
                    if counts[c] == 0 {
                        continue;
                    }
                    for j in 0..d {
                        buf.clear();
                        buf.extend(
                            x.column(j)
                                .iter()
                                .zip(y.iter())
                                .filter(|&(_, &l)| l == c)
                                .map(|(&v, _)| v),
                        );
                        centroids[[c, j]] = median(&mut buf);
                    }
                }
            }
        }
        if let Some(delta) = self.shrink_threshold {
            let present = counts.iter().filter(|&&k| k > 0).count();
            if n <= present {
                return Err(Error::TooFewSamples {
                    context: "NearestCentroid shrinkage (n > number of classes)",
                    needed: present + 1,
                    found: n,
                });
            }
            let overall = x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
            let mut var = Array1::<F>::zeros(d);
            for (row, &c) in x.rows().into_iter().zip(y.iter()) {
                for ((v, &xv), &m) in var.iter_mut().zip(row).zip(centroids.row(c)) {
                    *v += (xv - m) * (xv - m);
                }
            }
            let denom = F::cast((n - present) as f64);
            let mut s: Array1<F> = var.mapv(|v| (v / denom).sqrt());
            if s.iter().all(|&v| v == F::zero()) {
                return Err(Error::invalid_param(
                    "shrink_threshold",
                    "every feature has zero within-class variance; shrinking divides by zero",
                ));
            }
            let mut sv = s.to_vec();
            let s0 = median(&mut sv);
            s.mapv_inplace(|v| v + s0);
            let nf = F::cast(n as f64);
            let dt = F::cast(delta);
            for (c, mut row) in centroids.rows_mut().into_iter().enumerate() {
                if counts[c] == 0 {
                    continue;
                }
                let m = (F::one() / F::cast(counts[c] as f64) - F::one() / nf).sqrt();
                for ((v, &mu), &sj) in row.iter_mut().zip(&overall).zip(&s) {
                    let ms = m * sj;
                    if ms == F::zero() {
                        *v = mu;
                        continue;
                    }
                    let dev = (*v - mu) / ms;
                    let shrunk = dev.signum() * (dev.abs() - dt).max(F::zero());
                    *v = mu + ms * shrunk;
                }
            }
        }
        Ok(FittedNearestCentroid {
            params: self.clone(),
            centroids,
            present: counts.iter().map(|&k| k > 0).collect(),
        })
    }
}

/// A fitted [`NearestCentroid`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedNearestCentroid<F: Float> {
    params: NearestCentroid,
    centroids: Array2<F>,
    present: Vec<bool>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedNearestCentroid<F> {
    fn n_features_in(&self) -> usize {
        self.centroids.ncols()
    }
}

impl<F: Float> FittedNearestCentroid<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &NearestCentroid {
        &self.params
    }
    /// The class centroids, `n_classes × d` (rows of classes without samples are zero and never
    /// predicted).
    pub fn centroids(&self) -> &Array2<F> {
        &self.centroids
    }

    /// Distances from each query to each centroid, `n × n_classes` (Euclidean or Manhattan;
    /// infinite for classes without training samples).
    ///
    /// # Errors
    /// A feature count different from the fit, or non-finite input.
    pub fn distances(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.centroids.ncols(),
            "NearestCentroid: number of features",
        )?;
        let k = self.centroids.nrows();
        let mut out = Array2::zeros((x.nrows(), k));
        ndlearn_core::par::for_each_row_chunk_mut(&mut out, 256, |rows, mut block| {
            for (r, mut orow) in block.rows_mut().into_iter().enumerate() {
                let q = x.row(rows.start + r);
                for (c, o) in orow.iter_mut().enumerate() {
                    if !self.present[c] {
                        *o = F::infinity();
                        continue;
                    }
                    let mu = self.centroids.row(c);
                    *o = match self.params.metric {
                        CentroidMetric::Euclidean => q
                            .iter()
                            .zip(mu)
                            .map(|(&a, &b)| (a - b) * (a - b))
                            .sum::<F>()
                            .sqrt(),
                        CentroidMetric::Manhattan => {
                            q.iter().zip(mu).map(|(&a, &b)| (a - b).abs()).sum::<F>()
                        }
                    };
                }
            }
        });
        Ok(out)
    }
}

impl<F: Float> Predict<F> for FittedNearestCentroid<F> {
    type Output = Array1<usize>;

    /// The class of the nearest centroid (ties to the lower class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let d = self.distances(x)?;
        Ok(d.rows()
            .into_iter()
            .map(|r| {
                let mut best = (0, F::infinity());
                for (c, &v) in r.iter().enumerate() {
                    if v < best.1 {
                        best = (c, v);
                    }
                }
                best.0
            })
            .collect())
    }
}

impl<F: Float> CheckModel for FittedNearestCentroid<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedNearestCentroid");
        self.params
            .validate()
            .map_err(|e| c.error(format!("`params`: {e}")))?;
        let (k, d) = self.centroids.dim();
        c.at_least("number of features", d, 1)?;
        c.len("present", self.present.len(), k)?;
        // fit needs two classes with samples; the largest class index has samples
        let seen = self.present.iter().filter(|&&p| p).count();
        c.at_least("classes with samples", seen, 2)?;
        c.that(self.present.last() == Some(&true), || {
            "the last class has no samples".into()
        })?;
        c.finite("centroids", &self.centroids)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [2.0, 0.0], [10.0, 10.0], [12.0, 10.0]];
        let mut m = NearestCentroid::default()
            .fit(&x, &array![0usize, 0, 2, 2])
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.present.pop(); // predict reads present[c] for every centroid row
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
