//! Permutation feature importance of any fitted model under any score (scikit-learn's
//! `sklearn.inspection.permutation_importance`).
//!
//! ## Definition
//!
//! With a fitted model `M`, data `(X, y)` and a score `s` (larger is better), the baseline is
//! `s₀ = s(M, X, y)`. For feature `j` and repeat `r`, column `j` of `X` is shuffled by a random
//! permutation `π_{jr}` (the other columns stay), giving `X^{(j,r)}`; the importance of that
//! repeat is the drop in score
//!
//! ```text
//! I_{jr} = s₀ − s(M, X^{(j,r)}, y),   importance_j = (1/R) Σ_r I_{jr}
//! ```
//!
//! (with the population standard deviation over the `R` repeats, as scikit-learn). Breaking the
//! link between feature `j` and the target costs as much score as the model relied on it; a
//! feature the model never reads has importance exactly 0. The course notes' out-of-bag variant (catalog
//! T-14) applies the same rule to each ensemble member on its out-of-bag rows; see
//! `ndlearn_tree`'s bagging and forests.
//!
//! ## Threads and determinism
//!
//! Feature `j` draws its `R` permutations from `random::stream(seed, j)`; features run in
//! parallel on the caller's rayon pool and are collected in feature order, so the result is
//! bitwise identical for any number of threads. Cost: `1 + d·R` evaluations of the score.
//!
//! ```
//! use ndarray::{Array1, ArrayRef1, ArrayRef2, array};
//! use ndlearn_core::model_selection::permutation_importance;
//!
//! // A "model" that reads feature 0 only: y = 2·x₀.
//! struct Model;
//! let x = array![[1.0, 5.0], [2.0, 3.0], [3.0, 9.0], [4.0, 1.0], [5.0, 2.0]];
//! let y: Array1<f64> = x.column(0).mapv(|v| 2.0 * v);
//! let neg_mse = |_: &Model, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| {
//!     let e: f64 = x.column(0).iter().zip(y).map(|(a, t)| (2.0 * a - t).powi(2)).sum();
//!     Ok(-e / y.len() as f64)
//! };
//! let imp = permutation_importance(&Model, &x, &*y, neg_mse, 10, 0)?;
//! assert!(imp.importances_mean[0] > 1.0);
//! assert_eq!(imp.importances_mean[1], 0.0); // never read
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2};

use crate::{Error, Float, Result, par, random, validate};

/// The result of [`permutation_importance`] (scikit-learn's `Bunch`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PermutationImportance {
    /// Mean drop in score per feature over the repeats.
    pub importances_mean: Array1<f64>,
    /// Population standard deviation of the drops over the repeats.
    pub importances_std: Array1<f64>,
    /// Every drop, `n_features × n_repeats`.
    pub importances: Array2<f64>,
}

impl PermutationImportance {
    /// Collects per-feature rows of drops (`d × R`) into means and standard deviations.
    pub fn from_drops(importances: Array2<f64>) -> Self {
        let r = importances.ncols().max(1) as f64;
        let mean: Array1<f64> = importances
            .rows()
            .into_iter()
            .map(|row| row.sum() / r)
            .collect();
        let std: Array1<f64> = importances
            .rows()
            .into_iter()
            .zip(mean.iter())
            .map(|(row, m)| (row.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / r).sqrt())
            .collect();
        Self {
            importances_mean: mean,
            importances_std: std,
            importances,
        }
    }

    /// Feature indices by decreasing mean importance (ties by index).
    pub fn ranking(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.importances_mean.len()).collect();
        idx.sort_by(|&a, &b| {
            self.importances_mean[b]
                .total_cmp(&self.importances_mean[a])
                .then(a.cmp(&b))
        });
        idx
    }
}

/// Permutation importance of every feature of `x` for the fitted `model` under `score`
/// (larger is better), `n_repeats` shuffles per feature from `seed`.
///
/// `score` is called as `score(model, x_permuted, y)`; any metric works (accuracy, R², negative
/// log-loss, a closure over the model's own `predict`).
///
/// # Errors
/// `n_repeats = 0`; empty or non-finite `x`; errors of `score` (the first in feature order).
pub fn permutation_importance<M, F, T, S>(
    model: &M,
    x: &ArrayRef2<F>,
    y: &T,
    score: S,
    n_repeats: usize,
    seed: u64,
) -> Result<PermutationImportance>
where
    M: Sync + ?Sized,
    F: Float,
    T: Sync + ?Sized,
    S: Fn(&M, &ArrayRef2<F>, &T) -> Result<f64> + Sync,
{
    validate::check_at_least("n_repeats", n_repeats, 1)?;
    validate::check_fit_input(x, 1, "permutation_importance")?;
    let base = score(model, x, y)?;
    if !base.is_finite() {
        return Err(Error::invalid_param(
            "score",
            format!("the baseline score must be finite; got {base}"),
        ));
    }
    let (n, d) = x.dim();
    let rows = par::try_map_tasks(d, |j| {
        let mut rng = random::stream(seed, j as u64);
        let mut xp = x.to_owned();
        let original = x.column(j);
        let mut drops = Vec::with_capacity(n_repeats);
        for _ in 0..n_repeats {
            let perm = random::permutation(&mut rng, n);
            for (dst, &src) in xp.column_mut(j).iter_mut().zip(&perm) {
                *dst = original[src];
            }
            drops.push(base - score(model, &xp, y)?);
        }
        Ok(drops)
    })?;
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    let importances = Array2::from_shape_vec((d, n_repeats), flat)
        .map_err(|e| Error::invalid_param("n_repeats", e.to_string()))?;
    Ok(PermutationImportance::from_drops(importances))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayRef1, array};

    struct Linear(Array1<f64>);

    fn neg_mse(m: &Linear, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
        let p = x.dot(&m.0);
        Ok(-p.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>() / y.len() as f64)
    }

    fn data() -> (Array2<f64>, Array1<f64>) {
        let mut rng = random::rng(7);
        let x = Array2::from_shape_fn((200, 3), |_| random::standard_normal::<f64>(&mut rng));
        let y = x.dot(&array![3.0, 1.0, 0.0]);
        (x, y)
    }

    #[test]
    fn drop_is_twice_the_weighted_variance_for_a_linear_model() {
        // For y = w·x and a permuted independent column j, E[drop] = 2 w_j² Var(x_j).
        let (x, y) = data();
        let m = Linear(array![3.0, 1.0, 0.0]);
        let imp = permutation_importance(&m, &x, &*y, neg_mse, 30, 1).expect("ok");
        let var = |j: usize| x.column(j).var(0.0);
        assert!((imp.importances_mean[0] / (18.0 * var(0)) - 1.0).abs() < 0.15);
        assert!((imp.importances_mean[1] / (2.0 * var(1)) - 1.0).abs() < 0.15);
        assert_eq!(imp.importances_mean[2], 0.0);
        assert_eq!(imp.importances.dim(), (3, 30));
        assert_eq!(imp.ranking(), vec![0, 1, 2]);
        // The standard deviation is the population one over the repeats.
        let row = imp.importances.row(0);
        let m0 = row.sum() / 30.0;
        let sd = (row.iter().map(|v| (v - m0).powi(2)).sum::<f64>() / 30.0).sqrt();
        assert!((imp.importances_std[0] - sd).abs() < 1e-12);
    }

    #[test]
    fn same_seed_same_result_for_any_thread_count() {
        let (x, y) = data();
        let m = Linear(array![3.0, 1.0, 0.0]);
        let one = par::with_threads(1, || permutation_importance(&m, &x, &*y, neg_mse, 4, 9))
            .expect("ok")
            .expect("ok");
        let three = par::with_threads(3, || permutation_importance(&m, &x, &*y, neg_mse, 4, 9))
            .expect("ok")
            .expect("ok");
        assert_eq!(one, three);
        let other = permutation_importance(&m, &x, &*y, neg_mse, 4, 10).expect("ok");
        assert_ne!(one.importances, other.importances);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let (x, y) = data();
        let m = Linear(array![3.0, 1.0, 0.0]);
        assert!(matches!(
            permutation_importance(&m, &x, &*y, neg_mse, 0, 0),
            Err(Error::InvalidParam { .. })
        ));
        let mut bad = x.clone();
        bad[[0, 0]] = f64::NAN;
        assert!(permutation_importance(&m, &bad, &*y, neg_mse, 2, 0).is_err());
        let failing = |_: &Linear, _: &ArrayRef2<f64>, _: &ArrayRef1<f64>| -> Result<f64> {
            Err(Error::invalid_param("score", "always fails"))
        };
        assert!(permutation_importance(&m, &x, &*y, failing, 2, 0).is_err());
    }
}
