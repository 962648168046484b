//! k-center clustering by greedy farthest-first traversal ([`KCenter`]; catalog CL-149), and the
//! SSE curve with the course notes' kink (elbow) heuristic ([`elbow`]; catalog CL-156).
//!
//! # k-center
//!
//! The objective is the largest distance between a point and its anchor (centre),
//! `max_i min_c ‖x_i − μ_c‖`; centres are data points. The course notes give no algorithm;
//! the standard one (Gonzalez, "Clustering to minimize the maximum intercluster distance",
//! Theoretical Computer Science 38, 1985) picks a first centre, then repeatedly the point
//! farthest from all centres chosen so far. Its radius is at most twice the optimal k-center
//! radius. The first centre is row `seed mod n` (deterministic); ties for the farthest point go
//! to the lower row.
//!
//! # Elbow
//!
//! [`elbow`] fits [`crate::KMeans`] for each `k` of a range and returns the inertia (SSE) curve
//! and the kink: the `k` with the largest second difference `SSE(k−1) − 2 SSE(k) + SSE(k+1)`,
//! where adding a cluster stops paying off (Thorndike, "Who belongs in the family?",
//! Psychometrika 18(4), 1953; Hastie, Tibshirani & Friedman, *The Elements of Statistical
//! Learning*, 2nd ed. (2009), §14.3.11).
//!
//! ```
//! use ndlearn_cluster::{KCenter, elbow};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! let x = array![[0.0f64, 0.0], [0.0, 1.0], [10.0, 0.0], [10.0, 1.0], [5.0, 9.0], [5.0, 10.0]];
//! let m = KCenter::new(3).fit(&x)?;
//! assert!((m.radius() - 1.0).abs() < 1e-12);
//! assert_eq!(m.predict(&array![[9.5, 0.5]])?[0], m.labels()[2]);
//! let curve = elbow(&x, 1..=5, 0)?;
//! assert_eq!(curve.kink, Some(3));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::ops::RangeInclusive;

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

use crate::KMeans;

/// Greedy farthest-first k-center clustering. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KCenter {
    /// Number of centres `k` (default 8).
    pub n_clusters: usize,
    /// The first centre is row `seed mod n` (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for KCenter {
    fn default() -> Self {
        Self::new(8)
    }
}

impl KCenter {
    /// k-center with `k` centres.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the seed (the first centre's row).
        seed: u64,
    }
}

fn dist<F: Float>(a: ndarray::ArrayView1<'_, F>, b: ndarray::ArrayView1<'_, F>) -> F {
    a.iter()
        .zip(b)
        .map(|(&u, &v)| (u - v) * (u - v))
        .sum::<F>()
        .sqrt()
}

impl Estimator for KCenter {
    /// Checks `n_clusters ≥ 1`.
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for KCenter {
    type Model = FittedKCenter<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let k = self.n_clusters;
        check_fit_input(x, 1, "KCenter::fit")?;
        let n = x.nrows();
        crate::common::check_n_clusters("n_clusters", k, n)?;
        let first = (self.seed % n as u64) as usize;
        let mut chosen = vec![first];
        let mut nearest = vec![0usize; n];
        let mut d: Vec<F> = par::map_chunks(n, 4096, |r| {
            r.map(|i| dist(x.row(i), x.row(first))).collect::<Vec<F>>()
        })
        .into_iter()
        .flatten()
        .collect();
        if d.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "x",
                "feature values too large: distances overflow; rescale the features",
            ));
        }
        while chosen.len() < k {
            // the farthest point (ties to the lower row)
            let mut far = (0usize, F::neg_infinity());
            for (i, &v) in d.iter().enumerate() {
                if v > far.1 {
                    far = (i, v);
                }
            }
            let c = chosen.len();
            let p = far.0;
            chosen.push(p);
            let dn: Vec<F> = par::map_chunks(n, 4096, |r| {
                r.map(|i| dist(x.row(i), x.row(p))).collect::<Vec<F>>()
            })
            .into_iter()
            .flatten()
            .collect();
            for i in 0..n {
                if dn[i] < d[i] {
                    d[i] = dn[i];
                    nearest[i] = c;
                }
            }
        }
        let radius = d.iter().copied().fold(F::zero(), F::max);
        Ok(FittedKCenter {
            centers: x.select(Axis(0), &chosen),
            center_rows: chosen,
            labels: Array1::from(nearest),
            radius,
        })
    }
}

/// A fitted [`KCenter`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKCenter<F: Float> {
    centers: Array2<F>,
    center_rows: Vec<usize>,
    labels: Array1<usize>,
    radius: F,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKCenter<F> {
    fn n_features_in(&self) -> usize {
        self.centers.ncols()
    }
}

impl<F: Float> FittedKCenter<F> {
    /// The centres (data points), `k × d`, in the order chosen.
    pub fn centers(&self) -> &Array2<F> {
        &self.centers
    }
    /// The training rows chosen as centres.
    pub fn center_rows(&self) -> &[usize] {
        &self.center_rows
    }
    /// The centre of every training row (the nearest; ties to the earlier centre).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// The objective: the largest distance of a training row to its centre.
    pub fn radius(&self) -> F {
        self.radius
    }
}

impl<F: Float> Predict<F> for FittedKCenter<F> {
    type Output = Array1<usize>;

    /// The nearest centre (ties to the earlier centre).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(x, self.centers.ncols(), "KCenter: number of features")?;
        Ok(x.rows()
            .into_iter()
            .map(|r| {
                let mut best = (0usize, F::infinity());
                for (c, cen) in self.centers.rows().into_iter().enumerate() {
                    let v = dist(r, cen);
                    if v < best.1 {
                        best = (c, v);
                    }
                }
                best.0
            })
            .collect())
    }
}

impl<F: Float> CheckModel for FittedKCenter<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKCenter");
        let k = self.center_rows.len();
        c.at_least("center_rows", k, 1)?;
        crate::common::check_points(&c, "centers", &self.centers, k)?;
        c.indices_below("labels", &self.labels, k)?;
        c.indices_below("center_rows", &self.center_rows, self.labels.len())?;
        c.finite_value("radius", self.radius)
    }
}

/// The SSE curve of [`elbow`].
#[derive(Debug, Clone, PartialEq)]
pub struct Elbow {
    /// `(k, inertia)` for every `k` of the range.
    pub curve: Vec<(usize, f64)>,
    /// The `k` with the largest second difference of the curve (`None` with fewer than three
    /// points).
    pub kink: Option<usize>,
}

/// Fits `KMeans(k)` (k-means++, `seed`) for each `k` in `ks` and locates the kink of the SSE
/// curve. See the [module docs](self).
///
/// # Errors
/// As [`KMeans`]'s fit (`k = 0`, `k > n`, bad data).
pub fn elbow<F: Float>(x: &ArrayRef2<F>, ks: RangeInclusive<usize>, seed: u64) -> Result<Elbow> {
    let mut curve = Vec::new();
    for k in ks {
        let m = KMeans::new(k).seed(seed).fit(x)?;
        curve.push((k, m.inertia().to_f64().unwrap_or(f64::NAN)));
    }
    let kink = curve
        .windows(3)
        .map(|w| (w[1].0, w[0].1 - 2.0 * w[1].1 + w[2].1))
        .fold(None::<(usize, f64)>, |best, (k, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((k, s)),
        })
        .map(|(k, _)| k);
    Ok(Elbow { curve, kink })
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1]];
        let mut m = KCenter::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.center_rows[1] = 4;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
