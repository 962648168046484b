//! Fuzzy c-means ([`FuzzyCMeans`]; catalog CL-155).
//!
//! # Method
//!
//! A partition matrix `M ∈ [0, 1]^{n × c}` whose rows sum to 1 and centres `c_j` minimise
//! `SSE = Σ_i Σ_j M_ij^p ‖x_i − c_j‖²` for a fuzzifier `p > 1` (Dunn, J. Cybernetics 3(3),
//! 1973; Bezdek, *Pattern Recognition with Fuzzy Objective Function Algorithms*, Plenum
//! (1981)). Alternate (EM-style, as in Han, Kamber & Pei, *Data Mining: Concepts and
//! Techniques*, 3rd ed., Morgan Kaufmann (2011), ch. 11):
//!
//! * memberships `M_ij = 1 / Σ_k (‖x_i − c_j‖ / ‖x_i − c_k‖)^{2/(p−1)}` (the general `c`-cluster,
//!   general-`p` update; for `c = 2`, `p = 2` it is the course notes' `dist(o, c₂)² / (dist(o, c₁)² +
//!   dist(o, c₂)²)`); a row sitting exactly on centres shares its membership equally among them;
//! * centres `c_j = Σ_i M_ij^p x_i / Σ_i M_ij^p`;
//!
//! starting from `c` distinct random rows as centres (the course notes' initialisation), until the
//! largest membership change is below `tol` or `max_iter` rounds. The SSE never increases
//! ([`FittedFuzzyCMeans::sse_history`]). `p → 1` approaches hard k-means; large `p` makes all
//! memberships approach `1/c`.
//!
//! ```
//! use ndlearn_cluster::FuzzyCMeans;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! let x = array![[0.0f64, 0.0], [0.0, 1.0], [5.0, 5.0], [5.0, 6.0], [2.5, 3.0]];
//! let m = FuzzyCMeans::new(2).seed(1).fit(&x)?;
//! let u = m.memberships();
//! assert!((u.row(4).sum() - 1.0).abs() < 1e-12);
//! assert!(u[[4, 0]] > 0.3 && u[[4, 0]] < 0.7); // the middle point belongs to both
//! assert_eq!(m.predict(&x)?[0], m.predict(&x)?[1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::random;
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

use crate::kmeans::sq;

/// Fuzzy c-means. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct FuzzyCMeans {
    /// Number of clusters `c` (default 2).
    pub n_clusters: usize,
    /// Fuzzifier `p > 1` (default 2).
    pub fuzzifier: f64,
    /// Stop when no membership changes by more than this (default 1e-6).
    pub tol: f64,
    /// Maximum rounds (default 300).
    pub max_iter: usize,
    /// Random seed of the initial centres (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for FuzzyCMeans {
    fn default() -> Self {
        Self::new(2)
    }
}

impl FuzzyCMeans {
    /// `c` clusters, fuzzifier 2.
    pub fn new(c: usize) -> Self {
        Self {
            n_clusters: c,
            fuzzifier: 2.0,
            tol: 1e-6,
            max_iter: 300,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the fuzzifier `p`.
        fuzzifier: f64,
        /// Sets `tol`.
        tol: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets the seed.
        seed: u64,
    }
}

/// Memberships of the rows of `xs` for `centers` with fuzzifier `p`.
fn memberships<F: Float>(xs: &[F], d: usize, centers: &Array2<F>, p: f64) -> Array2<F> {
    let n = xs.len() / d.max(1);
    let c = centers.nrows();
    let cs = centers.as_standard_layout();
    let cs = cs.as_slice().unwrap_or(&[]);
    let e = F::cast(1.0 / (p - 1.0)); // (d²)^{1/(p−1)} = d^{2/(p−1)}
    let parts = par::map_chunks(n, 1024, |r| {
        let mut out = Vec::with_capacity(r.len() * c);
        let mut d2 = vec![F::zero(); c];
        for i in r {
            let xi = &xs[i * d..(i + 1) * d];
            for (k, v) in d2.iter_mut().enumerate() {
                *v = sq(xi, &cs[k * d..(k + 1) * d]);
            }
            let zeros = d2.iter().filter(|&&v| v == F::zero()).count();
            if zeros > 0 {
                let share = F::one() / F::cast(zeros as f64);
                out.extend(
                    d2.iter()
                        .map(|&v| if v == F::zero() { share } else { F::zero() }),
                );
                continue;
            }
            // M_ij = w_j / Σ_k w_k with w_j = d_j^{−2/(p−1)}, scaled by the smallest distance
            let dmin = d2.iter().copied().fold(F::infinity(), F::min);
            let w: Vec<F> = d2.iter().map(|&v| (dmin / v).powf(e)).collect();
            let s: F = w.iter().copied().sum();
            out.extend(w.iter().map(|&v| v / s));
        }
        out
    });
    Array2::from_shape_vec((n, c), parts.into_iter().flatten().collect())
        .unwrap_or_else(|_| Array2::zeros((n, c)))
}

fn sse<F: Float>(xs: &[F], d: usize, centers: &Array2<F>, u: &Array2<F>, p: F) -> F {
    let cs = centers.as_standard_layout();
    let cs = cs.as_slice().unwrap_or(&[]);
    let c = centers.nrows();
    u.rows()
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            (0..c)
                .map(|k| row[k].powf(p) * sq(&xs[i * d..(i + 1) * d], &cs[k * d..(k + 1) * d]))
                .sum::<F>()
        })
        .sum()
}

impl Estimator for FuzzyCMeans {
    /// Checks `n_clusters ≥ 1`, a finite fuzzifier `m > 1`, `max_iter ≥ 1` and `tol ≥ 0`.
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        if self.fuzzifier.is_nan() || self.fuzzifier <= 1.0 || !self.fuzzifier.is_finite() {
            return Err(Error::invalid_param("fuzzifier", "must be finite and > 1"));
        }
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        ndlearn_core::validate::check_non_negative("tol", self.tol)
    }
}

impl<F: Float> FitUnsupervised<F> for FuzzyCMeans {
    type Model = FittedFuzzyCMeans<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "FuzzyCMeans::fit")?;
        let (n, d) = x.dim();
        let c = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", c, n)?;
        if self.fuzzifier.is_nan() || self.fuzzifier <= 1.0 || !self.fuzzifier.is_finite() {
            return Err(Error::invalid_param("fuzzifier", "must be finite and > 1"));
        }
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1"));
        }
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        let data = x.as_standard_layout();
        let xs = data.as_slice().unwrap_or(&[]);
        let pf = F::cast(self.fuzzifier);
        let idx = random::sample_without_replacement(&mut random::rng(self.seed), n, c)?;
        let mut centers = data.select(Axis(0), &idx);
        let mut u = memberships(xs, d, &centers, self.fuzzifier);
        let mut history = Vec::new();
        let mut n_iter = 0;
        let mut converged = false;
        for it in 0..self.max_iter {
            n_iter = it + 1;
            // centres from memberships
            let w = u.mapv(|v| v.powf(pf));
            let mut next = w.t().dot(&data);
            for (mut row, s) in next.rows_mut().into_iter().zip(w.sum_axis(Axis(0))) {
                if s > F::zero() {
                    row /= s;
                }
            }
            centers = next;
            let nu = memberships(xs, d, &centers, self.fuzzifier);
            history.push(sse(xs, d, &centers, &nu, pf));
            let change = (&nu - &u).iter().fold(F::zero(), |m, v| m.max(v.abs()));
            u = nu;
            if change <= F::cast(self.tol) {
                converged = true;
                break;
            }
        }
        Ok(FittedFuzzyCMeans {
            params: self.clone(),
            centers,
            memberships: u,
            sse_history: history,
            n_iter,
            converged,
        })
    }
}

/// A fitted [`FuzzyCMeans`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedFuzzyCMeans<F: Float> {
    params: FuzzyCMeans,
    centers: Array2<F>,
    memberships: Array2<F>,
    sse_history: Vec<F>,
    n_iter: usize,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedFuzzyCMeans<F> {
    fn n_features_in(&self) -> usize {
        self.centers.ncols()
    }
}

impl<F: Float> FittedFuzzyCMeans<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &FuzzyCMeans {
        &self.params
    }
    /// The centres (`c × d`).
    pub fn centers(&self) -> &Array2<F> {
        &self.centers
    }
    /// The partition matrix of the training rows (`n × c`, rows sum to 1).
    pub fn memberships(&self) -> &Array2<F> {
        &self.memberships
    }
    /// The fuzzy SSE `Σ M^p ‖x − c‖²` after every round (non-increasing).
    pub fn sse_history(&self) -> &[F] {
        &self.sse_history
    }
    /// Rounds run.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the memberships settled within `tol` before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Memberships of new rows (`n × c`).
    ///
    /// # Errors
    /// Wrong feature count or non-finite input.
    pub fn membership(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.centers.ncols(), "FuzzyCMeans: number of features")?;
        let data = x.as_standard_layout();
        Ok(memberships(
            data.as_slice().unwrap_or(&[]),
            x.ncols(),
            &self.centers,
            self.params.fuzzifier,
        ))
    }
}

impl<F: Float> Predict<F> for FittedFuzzyCMeans<F> {
    type Output = Array1<usize>;

    /// The cluster of largest membership (ties: the lower cluster), i.e. the nearest centre.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let u = self.membership(x)?;
        Ok(u.rows()
            .into_iter()
            .map(|r| {
                let mut best = 0;
                for (k, &v) in r.iter().enumerate() {
                    if v > r[best] {
                        best = k;
                    }
                }
                best
            })
            .collect())
    }
}

impl<F: Float> CheckModel for FittedFuzzyCMeans<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedFuzzyCMeans");
        c.params(&self.params)?;
        let k = self.params.n_clusters;
        crate::common::check_points(&c, "centers", &self.centers, k)?;
        let n = self.memberships.nrows();
        c.shape("memberships", self.memberships.dim(), (n, k))?;
        c.non_negative("memberships", &self.memberships)?;
        c.finite_slice("sse_history", &self.sse_history)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1]];
        let mut m = FuzzyCMeans::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.params.fuzzifier = 1.0; // predict would divide by p - 1 = 0
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
