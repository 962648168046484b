//! Coordinate descent driver: exact one-dimensional updates applied coordinate by coordinate.
//!
//! # The math
//!
//! Block-coordinate minimisation appears in the course notes as alternation (k-means, catalog O-13);
//! coordinate descent for the lasso is **not in the course notes** (O-13 marks it absent). For
//! `min_w f(w)`, one sweep replaces each coordinate in turn by its exact minimiser with the
//! others fixed, `wⱼ ← argmin_t f(w₁, …, wⱼ₋₁, t, wⱼ₊₁, …)`. For the lasso
//! `(1/2n)‖y − Xw‖² + α‖w‖₁` the update is the soft-threshold
//! `wⱼ ← S_α(Xⱼᵀrⱼ/n) / (‖Xⱼ‖²/n)` with the partial residual `rⱼ = y − Xw + Xⱼwⱼ` and
//! `S_α(z) = sign(z)·max(|z| − α, 0)` (the closed form is the user's closure, see the example).
//!
//! [`coordinate_descent`] owns the loop, the order and the stopping test; the caller supplies
//! the update `|j, w| → new wⱼ` (an `FnMut`, so it can keep a residual up to date: it sees the
//! old `wⱼ` in `w` and returns the new one, which the driver then writes).
//!
//! * Order ([`CdOrder`]): cyclic `0, 1, …, d−1`, or a fresh seeded random permutation per sweep
//!   (`random::stream(seed, sweep)`).
//! * Stopping (as scikit-learn's lasso does before its duality-gap check): after a sweep,
//!   `maxⱼ |Δwⱼ| ≤ tol`, or `max_iter` sweeps. `tol` is absolute here; scale it to your problem.
//!
//! # Complexity
//!
//! `d` closure calls per sweep; the driver itself is `O(d)` per sweep.

use ndarray::{Array1, ArrayRef1};

use crate::{Error, Float, Result, random};

/// Order in which coordinates are visited in each sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CdOrder {
    /// `0, 1, …, d − 1` every sweep.
    Cyclic,
    /// A random permutation per sweep, sweep `k` drawn from `random::stream(seed, k)`.
    Random {
        /// Seed of the permutations.
        seed: u64,
    },
}

/// Options of [`coordinate_descent`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CoordinateDescent {
    /// Maximum number of sweeps (default 1000, ≥ 1).
    pub max_iter: usize,
    /// Stop when `maxⱼ |Δwⱼ| ≤ tol` after a sweep (default `1e-4`, ≥ 0; absolute).
    pub tol: f64,
    /// Visiting order (default [`CdOrder::Cyclic`]).
    pub order: CdOrder,
}

impl Default for CoordinateDescent {
    fn default() -> Self {
        Self {
            max_iter: 1000,
            tol: 1e-4,
            order: CdOrder::Cyclic,
        }
    }
}

impl CoordinateDescent {
    crate::setters! {
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets `order`.
        order: CdOrder,
    }
    /// Checks the values.
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("max_iter", self.max_iter, 1)?;
        crate::validate::check_non_negative("tol", self.tol)
    }
}

/// Result of [`coordinate_descent`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct CdResult<F: Float> {
    /// Sweeps performed.
    pub n_iter: usize,
    /// Whether `max |Δwⱼ| ≤ tol` ended the run.
    pub converged: bool,
    /// `maxⱼ |Δwⱼ|` in the last sweep.
    pub max_delta: F,
}

/// Runs coordinate descent on `w` in place (see the module docs).
///
/// Errors: invalid `opts`; non-finite starting `w` ([`Error::NonFinite`], `context = "w"`); a
/// non-finite value returned by `update` ([`Error::NonFinite`], `context = "coordinate update"`,
/// `row` = the coordinate, `col` = the sweep).
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::optim::{coordinate_descent, CoordinateDescent};
/// // min (w0 − 1)² + (w1 − 2)² + w0·w1: exact updates w0 = 1 − w1/2, w1 = 2 − w0/2.
/// let mut w = array![0.0f64, 0.0];
/// let r = coordinate_descent(&mut w, |j, w| if j == 0 { 1.0 - w[1] / 2.0 } else { 2.0 - w[0] / 2.0 },
///                            &CoordinateDescent::default().tol(1e-12))?;
/// assert!(r.converged && w[0].abs() < 1e-11 && (w[1] - 2.0).abs() < 1e-11);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn coordinate_descent<F, U>(
    w: &mut Array1<F>,
    mut update: U,
    opts: &CoordinateDescent,
) -> Result<CdResult<F>>
where
    F: Float,
    U: FnMut(usize, &ArrayRef1<F>) -> F,
{
    opts.validate()?;
    crate::validate::check_finite_1d(w, "w")?;
    let d = w.len();
    let tol = F::cast(opts.tol);
    let mut order: Vec<usize> = (0..d).collect();
    let mut max_delta = F::zero();
    for sweep in 0..opts.max_iter {
        if let CdOrder::Random { seed } = opts.order {
            order = random::permutation(&mut random::stream(seed, sweep as u64), d);
        }
        max_delta = F::zero();
        for &j in &order {
            let new = update(j, &*w);
            if !new.is_finite() {
                return Err(Error::NonFinite {
                    context: "coordinate update",
                    row: j,
                    col: sweep,
                });
            }
            max_delta = max_delta.max((new - w[j]).abs());
            w[j] = new;
        }
        if max_delta <= tol {
            return Ok(CdResult {
                n_iter: sweep + 1,
                converged: true,
                max_delta,
            });
        }
    }
    Ok(CdResult {
        n_iter: opts.max_iter,
        converged: false,
        max_delta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    /// `S_μ(z) = sign(z)·max(|z| − μ, 0)` (the proximal operator lives in `proximal.rs`).
    fn soft_threshold<F: Float>(z: F, mu: F) -> F {
        if z > mu {
            z - mu
        } else if z < -mu {
            z + mu
        } else {
            F::zero()
        }
    }

    /// Lasso `(1/2n)‖y − Xw‖² + α‖w‖₁` by coordinate descent with a maintained residual.
    fn lasso(
        x: &Array2<f64>,
        y: &Array1<f64>,
        alpha: f64,
        order: CdOrder,
    ) -> (Array1<f64>, CdResult<f64>) {
        let n = x.nrows() as f64;
        let col_sq: Vec<f64> = x.columns().into_iter().map(|c| c.dot(&c) / n).collect();
        let mut w = Array1::zeros(x.ncols());
        let mut r = y.clone(); // y − Xw with w = 0
        let res = coordinate_descent(
            &mut w,
            |j, w| {
                let xj = x.column(j);
                // ρ = Xⱼᵀ(r + Xⱼwⱼ)/n
                let rho = xj.dot(&r) / n + col_sq[j] * w[j];
                let new = soft_threshold(rho, alpha) / col_sq[j];
                r.scaled_add(w[j] - new, &xj);
                new
            },
            &CoordinateDescent::default().tol(1e-13).order(order),
        )
        .expect("valid");
        (w, res)
    }

    fn data() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.2, 0.3],
            [0.2, -1.0, 0.4, 1.5],
            [-0.7, 0.8, 1.1, -0.4],
            [1.5, 0.1, -0.3, 0.9],
            [-1.1, -0.6, 0.2, -1.3],
            [0.4, 1.3, -0.9, 0.6],
            [0.9, -0.2, 0.7, -0.8]
        ];
        let y = array![1.2, -0.4, 0.3, 2.1, -1.9, 0.8, 0.5];
        (x, y)
    }

    #[test]
    fn lasso_satisfies_the_optimality_conditions() {
        let (x, y) = data();
        let n = x.nrows() as f64;
        let alpha = 0.15;
        for order in [CdOrder::Cyclic, CdOrder::Random { seed: 7 }] {
            let (w, res) = lasso(&x, &y, alpha, order);
            assert!(res.converged, "{res:?}");
            // Subgradient conditions: c = Xᵀ(y − Xw)/n; wⱼ ≠ 0 ⇒ cⱼ = α·sign(wⱼ), wⱼ = 0 ⇒ |cⱼ| ≤ α.
            let c = x.t().dot(&(&y - &x.dot(&w))) / n;
            for j in 0..w.len() {
                if w[j] != 0.0 {
                    assert!((c[j] - alpha * w[j].signum()).abs() < 1e-10, "j={j}: {c}");
                } else {
                    assert!(c[j].abs() <= alpha + 1e-10, "j={j}: {c}");
                }
            }
            assert!(
                w.iter().any(|&v| v != 0.0),
                "alpha is below max|Xᵀy|/n: {w}"
            );
        }
        // α ≥ max|Xᵀy|/n gives w = 0 after one sweep.
        let alpha_max = x.t().dot(&y).iter().fold(0.0f64, |m, v| m.max(v.abs())) / n;
        let (w, res) = lasso(&x, &y, alpha_max * 1.01, CdOrder::Cyclic);
        assert!(w.iter().all(|&v| v == 0.0) && res.n_iter == 1);
    }

    #[test]
    fn random_order_is_reproducible_and_max_iter_reported() {
        let (x, y) = data();
        let a = lasso(&x, &y, 0.05, CdOrder::Random { seed: 3 });
        let b = lasso(&x, &y, 0.05, CdOrder::Random { seed: 3 });
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1);
        let mut w = array![0.0, 0.0];
        let r = coordinate_descent(
            &mut w,
            |j, w| {
                if j == 0 {
                    1.0 - w[1] / 2.0
                } else {
                    2.0 - w[0] / 2.0
                }
            },
            &CoordinateDescent::default().max_iter(2).tol(0.0),
        )
        .expect("ok");
        assert!(!r.converged && r.n_iter == 2 && r.max_delta > 0.0);
    }

    #[test]
    fn errors_and_soft_threshold() {
        let mut w = array![0.0, 1.0];
        let e = coordinate_descent(&mut w, |_, _| f64::NAN, &CoordinateDescent::default());
        assert!(matches!(
            e,
            Err(Error::NonFinite {
                context: "coordinate update",
                ..
            })
        ));
        let mut bad = array![f64::INFINITY];
        assert!(coordinate_descent(&mut bad, |_, _| 0.0, &CoordinateDescent::default()).is_err());
        assert!(
            coordinate_descent(
                &mut w,
                |_, _| 0.0,
                &CoordinateDescent::default().max_iter(0)
            )
            .is_err()
        );
        assert!(
            coordinate_descent(&mut w, |_, _| 0.0, &CoordinateDescent::default().tol(-1.0))
                .is_err()
        );
        assert_eq!(soft_threshold(3.0, 1.0), 2.0);
        assert_eq!(soft_threshold(-3.0, 1.0), -2.0);
        assert_eq!(soft_threshold(0.5, 1.0), 0.0);
        assert_eq!(soft_threshold(-1.0f32, 1.0), 0.0);
    }
}
