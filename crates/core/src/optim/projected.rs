//! Euclidean projections onto simple convex sets and projected gradient descent.
//!
//! # Projections
//!
//! `P_C(v) = argmin_{w∈C} ‖w − v‖₂` for
//!
//! | set `C` | function | formula | cost |
//! |---|---|---|---|
//! | ball `‖w‖₂ ≤ r` | [`project_l2_ball`] | `v` if `‖v‖ ≤ r`, else `r·v/‖v‖` | `O(d)` |
//! | box `lo ≤ w ≤ hi` | [`project_box`] | `wⱼ = min(max(vⱼ, loⱼ), hiⱼ)` | `O(d)` |
//! | simplex `w ≥ 0, Σw = z` | [`project_simplex`] | `wⱼ = max(vⱼ − θ, 0)` with `θ` below | `O(d log d)` |
//!
//! Simplex (Held, Wolfe & Crowder 1974; Duchi, Shalev-Shwartz, Singer & Chandra 2008, Fig. 1):
//! sort `v` decreasingly into `u`, let `ρ = max{j : u_j − (Σ_{r≤j} u_r − z)/j > 0}` (`j = 1` always
//! qualifies) and `θ = (Σ_{r≤ρ} u_r − z)/ρ`.
//!
//! # Projected gradient descent
//!
//! For `min f(w)` subject to `w ∈ C` (notes: gradient step, then projection):
//!
//! ```text
//! z_{t+1} = w_t − η_t ∇f(w_t),      w_{t+1} = P_C(z_{t+1}).
//! ```
//!
//! The start point is projected first, so every iterate is feasible. Step sizes are those of
//! [`StepSize`]; [`StepSize::Backtracking`] searches along the projection arc `w(η) = P_C(w − η∇f)`
//! and accepts the first `η` with `f(w(η)) < f(w)` and `f(w(η)) ≤ f(w) + c·∇f(w)ᵀ(w(η) − w)` (the
//! Armijo rule along the arc, Bertsekas 1976). On an `L`-smooth convex `f` a constant step `1/L`
//! converges.
//!
//! # Stopping
//!
//! As [`super::gradient_descent`], except that the gradient test uses the **projected-gradient
//! residual** `r(w) = ‖w − P_C(w − ∇f(w))‖` (zero exactly at the constrained stationary points,
//! where `∇f` itself need not vanish): `r ≤ g_tol` → [`StopReason::GradientNorm`]; an exactly
//! zero `r` always stops. `f_tol`, `x_tol` and `max_iter` work as documented in [`StopCriteria`].
//!
//! # Complexity
//!
//! Per iteration one gradient and value, two projections (step and residual), `O(d)` work; plus
//! one value and one projection per backtracking trial.
//!
//! # Choices not in the course notes
//!
//! The course notes give the method but no projection operators (catalog O-05 "Gap"); the three sets, the
//! sort-based simplex algorithm, the arc line search and the residual-based gradient test are
//! implementation choices.
//!
//! # References
//!
//! - Projected gradient descent as in the course notes (catalog O-05, CL-057): A. A. Goldstein,
//!   "Convex programming in Hilbert space", Bull. AMS 70, 1964; E. S. Levitin, B. T. Polyak,
//!   "Constrained minimization methods", USSR Comput. Math. Math. Phys. 6(5), 1966.
//! - J. Duchi, S. Shalev-Shwartz, Y. Singer, T. Chandra, "Efficient projections onto the ℓ1-ball
//!   for learning in high dimensions", ICML 2008; M. Held, P. Wolfe, H. Crowder, "Validation of
//!   subgradient optimization", Math. Programming 6, 1974.
//! - D. P. Bertsekas, "On the Goldstein–Levitin–Polyak gradient projection method", IEEE TAC 21,
//!   1976.
//!
//! ```
//! use ndlearn_core::ndarray::{array, ArrayRef1};
//! use ndlearn_core::optim::{projected_gradient, FnObjective, Projection, StepSize, StopCriteria};
//!
//! // min ½‖w − (2, −3)‖² over the box [0, 1]²: the answer is the clipped point (1, 0).
//! let f = FnObjective::new(
//!     2,
//!     |w: &ArrayRef1<f64>| 0.5 * ((w[0] - 2.0).powi(2) + (w[1] + 3.0).powi(2)),
//!     |w: &ArrayRef1<f64>| array![w[0] - 2.0, w[1] + 3.0],
//! );
//! let boxed = Projection::Box { lo: 0.0.into(), hi: 1.0.into() };
//! let res = projected_gradient(&f, &array![0.5, 0.5], &boxed, StepSize::Constant(0.5), StopCriteria::default())?;
//! assert!((res.x[0] - 1.0).abs() < 1e-9 && res.x[1].abs() < 1e-9);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::cmp::Ordering;

use ndarray::{Array1, ArrayRef1, Zip};

use super::gd::{MAX_TRIALS, check_gradient, check_value, dist};
use super::{
    Objective, OptimResult, StepSize, StopCriteria, StopReason, check_start, norm2, observer_stop,
};
use crate::validate::check_finite_1d;
use crate::{Error, Float, Result};

/// A box bound: one value for every coordinate, or one per coordinate. Infinite values express
/// one-sided constraints (`lo = −∞` or `hi = +∞`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bound {
    /// The same bound for every coordinate.
    Scalar(f64),
    /// One bound per coordinate (length must equal the dimension).
    PerCoordinate(Vec<f64>),
}

impl From<f64> for Bound {
    fn from(v: f64) -> Self {
        Self::Scalar(v)
    }
}

impl From<Vec<f64>> for Bound {
    fn from(v: Vec<f64>) -> Self {
        Self::PerCoordinate(v)
    }
}

impl Bound {
    fn at(&self, j: usize) -> f64 {
        match self {
            Self::Scalar(v) => *v,
            Self::PerCoordinate(v) => v.get(j).copied().unwrap_or(f64::NAN),
        }
    }

    fn check_len(&self, name: &'static str, d: usize) -> Result<()> {
        match self {
            Self::PerCoordinate(v) if v.len() != d => Err(Error::ShapeMismatch {
                context: if name == "lo" {
                    "project_box: lower bound"
                } else {
                    "project_box: upper bound"
                },
                expected: format!("{d} per-coordinate bounds (the vector's length)"),
                found: format!("{}", v.len()),
            }),
            _ => Ok(()),
        }
    }

    fn len(&self) -> Option<usize> {
        match self {
            Self::Scalar(_) => None,
            Self::PerCoordinate(v) => Some(v.len()),
        }
    }
}

/// Checks `lo ≤ hi` coordinatewise, no NaN, `lo < +∞`, `hi > −∞`, and equal lengths when both
/// are per-coordinate.
fn check_box(lo: &Bound, hi: &Bound) -> Result<()> {
    if let (Some(a), Some(b)) = (lo.len(), hi.len()) {
        if a != b {
            return Err(Error::ShapeMismatch {
                context: "box bounds",
                expected: format!("upper bounds of the same length as the lower bounds ({a})"),
                found: format!("{b}"),
            });
        }
    }
    let n = lo.len().or(hi.len()).unwrap_or(1);
    for j in 0..n {
        let (l, h) = (lo.at(j), hi.at(j));
        if l.is_nan() || l == f64::INFINITY {
            return Err(Error::invalid_param(
                "lo",
                format!("lower bound {j} must be a number < +∞ (−∞ allowed), got {l}"),
            ));
        }
        if h.is_nan() || h == f64::NEG_INFINITY {
            return Err(Error::invalid_param(
                "hi",
                format!("upper bound {j} must be a number > −∞ (+∞ allowed), got {h}"),
            ));
        }
        if l > h {
            return Err(Error::invalid_param(
                "lo",
                format!("lower bound {j} ({l}) exceeds the upper bound ({h})"),
            ));
        }
    }
    Ok(())
}

/// A convex feasible set with a cheap Euclidean projection.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Projection {
    /// `{w : ‖w‖₂ ≤ radius}`, `radius ≥ 0`.
    L2Ball {
        /// Radius of the ball.
        radius: f64,
    },
    /// `{w : lo ≤ w ≤ hi}` coordinatewise.
    Box {
        /// Lower bounds.
        lo: Bound,
        /// Upper bounds.
        hi: Bound,
    },
    /// `{w : w ≥ 0, Σ w = z}`, `z > 0` (`z = 1`: probability vectors).
    Simplex {
        /// Sum of the coordinates.
        z: f64,
    },
}

impl Projection {
    /// Checks the set's parameters (radius ≥ 0, valid box, `z > 0`); dimension checks happen at
    /// projection time.
    pub fn validate(&self) -> Result<()> {
        match self {
            Self::L2Ball { radius } => crate::validate::check_non_negative("radius", *radius),
            Self::Box { lo, hi } => check_box(lo, hi),
            Self::Simplex { z } => crate::validate::check_positive("z", *z),
        }
    }

    /// `P_C(v)`.
    ///
    /// # Errors
    /// As the corresponding `project_*` function.
    pub fn project<F: Float>(&self, v: &ArrayRef1<F>) -> Result<Array1<F>> {
        match self {
            Self::L2Ball { radius } => project_l2_ball(v, *radius),
            Self::Box { lo, hi } => project_box(v, lo, hi),
            Self::Simplex { z } => project_simplex(v, *z),
        }
    }

    /// Projection without argument checks (parameters validated, `v` finite, lengths checked).
    fn project_unchecked<F: Float>(&self, v: &ArrayRef1<F>) -> Array1<F> {
        match self {
            Self::L2Ball { radius } => l2_ball(v, F::cast(*radius)),
            Self::Box { lo, hi } => clip(v, lo, hi),
            Self::Simplex { z } => simplex(v, F::cast(*z)),
        }
    }

    fn check_dim(&self, d: usize) -> Result<()> {
        match self {
            Self::Box { lo, hi } => {
                lo.check_len("lo", d)?;
                hi.check_len("hi", d)
            }
            _ => Ok(()),
        }
    }
}

fn l2_ball<F: Float>(v: &ArrayRef1<F>, r: F) -> Array1<F> {
    let n = norm2(v);
    if n <= r {
        v.to_owned()
    } else {
        v.mapv(|x| x * (r / n))
    }
}

fn clip<F: Float>(v: &ArrayRef1<F>, lo: &Bound, hi: &Bound) -> Array1<F> {
    Array1::from_iter(v.iter().enumerate().map(|(j, &x)| {
        let l = F::cast(lo.at(j));
        let h = F::cast(hi.at(j));
        x.max(l).min(h)
    }))
}

fn simplex<F: Float>(v: &ArrayRef1<F>, z: F) -> Array1<F> {
    let mut u: Vec<F> = v.to_vec();
    u.sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
    let mut css = F::zero();
    let mut theta = F::zero();
    for (j, &uj) in u.iter().enumerate() {
        css += uj;
        let cand = (css - z) / F::cast(j + 1);
        if j == 0 || uj - cand > F::zero() {
            theta = cand;
        }
    }
    v.mapv(|x| (x - theta).max(F::zero()))
}

/// Projection onto the Euclidean ball `{w : ‖w‖₂ ≤ radius}`: `v` itself inside, `radius·v/‖v‖`
/// outside.
///
/// # Errors
/// [`Error::InvalidParam`] for a negative or non-finite `radius`; [`Error::NonFinite`] for a
/// non-finite `v`.
pub fn project_l2_ball<F: Float>(v: &ArrayRef1<F>, radius: f64) -> Result<Array1<F>> {
    crate::validate::check_non_negative("radius", radius)?;
    check_finite_1d(v, "v")?;
    Ok(l2_ball(v, F::cast(radius)))
}

/// Projection onto the box `{w : lo ≤ w ≤ hi}`: coordinatewise clipping. Bounds are scalars or
/// per-coordinate vectors (`Bound::from(0.0)`, `Bound::from(vec![..])`); infinite bounds are
/// allowed on their side.
///
/// # Errors
/// [`Error::InvalidParam`] when `lo > hi` somewhere or a bound is NaN / infinite on the wrong
/// side; [`Error::ShapeMismatch`] when a per-coordinate bound does not have `v`'s length;
/// [`Error::NonFinite`] for a non-finite `v`.
pub fn project_box<F: Float>(v: &ArrayRef1<F>, lo: &Bound, hi: &Bound) -> Result<Array1<F>> {
    lo.check_len("lo", v.len())?;
    hi.check_len("hi", v.len())?;
    check_box(lo, hi)?;
    check_finite_1d(v, "v")?;
    Ok(clip(v, lo, hi))
}

/// Projection onto the simplex `{w : w ≥ 0, Σ wⱼ = z}` by the sort-based algorithm (Duchi et al.
/// 2008), `O(d log d)`.
///
/// # Errors
/// [`Error::InvalidParam`] unless `z > 0` and finite; [`Error::TooFewSamples`] for an empty `v`
/// (the simplex in ℝ⁰ is empty); [`Error::NonFinite`] for a non-finite `v`.
pub fn project_simplex<F: Float>(v: &ArrayRef1<F>, z: f64) -> Result<Array1<F>> {
    crate::validate::check_positive("z", z)?;
    if v.is_empty() {
        return Err(Error::TooFewSamples {
            context: "project_simplex (coordinates)",
            needed: 1,
            found: 0,
        });
    }
    check_finite_1d(v, "v")?;
    Ok(simplex(v, F::cast(z)))
}

const VALUE_CONTEXT: &str =
    "objective value during projected gradient descent (row = iteration; a diverging step size?)";
const GRAD_CONTEXT: &str =
    "objective gradient during projected gradient descent (row = iteration, col = coordinate)";

/// `‖w − P_C(w − g)‖`: the projected-gradient residual (zero at constrained stationary points).
fn residual<F: Float>(proj: &Projection, w: &ArrayRef1<F>, g: &ArrayRef1<F>) -> F {
    let z = Zip::from(w).and(g).map_collect(|&a, &b| a - b);
    dist(w, &proj.project_unchecked(&z))
}

/// Minimises `obj` over the set of `projection` by projected gradient descent from `P_C(x0)` (see
/// the module docs for the update, the line search and the stopping rules).
///
/// # Errors
/// - [`Error::InvalidParam`] for invalid `step`, `stop` or set parameters.
/// - [`Error::ShapeMismatch`] when `x0`, a gradient or a per-coordinate bound does not have length
///   `obj.dim()`; [`Error::TooFewSamples`] for a simplex in dimension 0.
/// - [`Error::NonFinite`] for a non-finite `x0`, value or gradient.
pub fn projected_gradient<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    projection: &Projection,
    step: StepSize,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    step.validate()?;
    stop.validate()?;
    projection.validate()?;
    let d = obj.dim();
    check_start(x0, d)?;
    projection.check_dim(d)?;
    let mut w = projection.project(x0)?;
    let (f0, mut g) = obj.value_and_gradient(&w);
    let mut f = check_value(f0, 0, VALUE_CONTEXT)?;
    check_gradient(&g, d, 0, GRAD_CONTEXT)?;
    let mut history = vec![f];
    let g_tol = F::cast(stop.g_tol);
    let stationary = |r: F| r == F::zero() || (stop.g_tol > 0.0 && r <= g_tol);
    if stationary(residual(projection, &w, &g)) {
        return Ok(OptimResult::new(w, f, 0, StopReason::GradientNorm, history));
    }
    for t in 1..=stop.max_iter {
        let (w_new, f_known) = match step {
            StepSize::Backtracking {
                initial,
                shrink,
                armijo_c,
            } => match arc_search(obj, projection, &w, f, &g, initial, shrink, armijo_c) {
                Some((p, fv)) => (p, Some(fv)),
                None => {
                    return Ok(OptimResult::new(
                        w,
                        f,
                        t - 1,
                        StopReason::LineSearchFailed,
                        history,
                    ));
                }
            },
            _ => {
                let eta = F::cast(step.rate(t).unwrap_or(0.0));
                let z = Zip::from(&w).and(&g).map_collect(|&a, &b| a - eta * b);
                (projection.project_unchecked(&z), None)
            }
        };
        let (f_new, g_new) = match f_known {
            Some(fv) => (fv, obj.gradient(&w_new)),
            None => obj.value_and_gradient(&w_new),
        };
        let f_new = check_value(f_new, t, VALUE_CONTEXT)?;
        check_gradient(&g_new, d, t, GRAD_CONTEXT)?;
        history.push(f_new);
        let step_norm = dist(&w_new, &w);
        let r = residual(projection, &w_new, &g_new);
        let reason = if stationary(r) {
            Some(StopReason::GradientNorm)
        } else {
            stop.check(f, f_new, step_norm, norm2(&w_new), None)
                .or_else(|| observer_stop("projected_gradient", t, stop.max_iter, f_new, None))
        };
        w = w_new;
        f = f_new;
        g = g_new;
        if let Some(reason) = reason {
            return Ok(OptimResult::new(w, f, t, reason, history));
        }
    }
    Ok(OptimResult::new(
        w,
        f,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

/// Armijo search along the projection arc `P(w − ηg)`; `None` when the trial point stops moving.
#[allow(clippy::too_many_arguments)]
fn arc_search<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    proj: &Projection,
    w: &ArrayRef1<F>,
    f: F,
    g: &ArrayRef1<F>,
    initial: f64,
    shrink: f64,
    c: f64,
) -> Option<(Array1<F>, F)> {
    let (c, shrink) = (F::cast(c), F::cast(shrink));
    let mut eta = F::cast(initial);
    for _ in 0..MAX_TRIALS {
        let z = Zip::from(w).and(g).map_collect(|&a, &b| a - eta * b);
        let trial = proj.project_unchecked(&z);
        if trial.iter().zip(w.iter()).all(|(a, b)| a == b) {
            return None;
        }
        let f_new = obj.value(&trial);
        let predicted = g
            .iter()
            .zip(trial.iter().zip(w.iter()))
            .map(|(&gi, (&p, &wi))| gi * (p - wi))
            .sum::<F>();
        if f_new.is_finite() && f_new < f && f_new <= f + c * predicted {
            return Some((trial, f_new));
        }
        eta *= shrink;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::FnObjective;
    use super::super::test_problems::Quadratic;
    use super::*;
    use ndarray::array;

    fn close(a: &Array1<f64>, b: &[f64], tol: f64) {
        assert!(
            a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol),
            "{a} vs {b:?}"
        );
    }

    #[test]
    fn l2_ball_hand_cases() {
        // ‖(3, 4)‖ = 5 > 1 ⇒ (3, 4)/5 = (0.6, 0.8); inside points are unchanged; radius 0 ⇒ 0.
        close(
            &project_l2_ball(&array![3.0, 4.0], 1.0).expect("valid"),
            &[0.6, 0.8],
            1e-15,
        );
        close(
            &project_l2_ball(&array![0.3, -0.4], 1.0).expect("valid"),
            &[0.3, -0.4],
            0.0,
        );
        close(
            &project_l2_ball(&array![3.0, 4.0], 0.0).expect("valid"),
            &[0.0, 0.0],
            0.0,
        );
        assert!(matches!(
            project_l2_ball(&array![1.0], -1.0),
            Err(Error::InvalidParam { name: "radius", .. })
        ));
        assert!(matches!(
            project_l2_ball(&array![f64::NAN], 1.0),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn box_hand_cases() {
        // clip((−1, 0.5, 3), 0, (1, 1, 2)) = (0, 0.5, 2).
        let p = project_box(
            &array![-1.0, 0.5, 3.0],
            &0.0.into(),
            &vec![1.0, 1.0, 2.0].into(),
        )
        .expect("valid");
        close(&p, &[0.0, 0.5, 2.0], 0.0);
        // One-sided: w ≥ 0 only.
        let p = project_box(&array![-1.0, 5.0], &0.0.into(), &f64::INFINITY.into()).expect("valid");
        close(&p, &[0.0, 5.0], 0.0);
        assert!(matches!(
            project_box(&array![1.0, 2.0], &1.0.into(), &0.0.into()),
            Err(Error::InvalidParam { name: "lo", .. })
        ));
        assert!(matches!(
            project_box(&array![1.0, 2.0], &vec![0.0].into(), &1.0.into()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            project_box(&array![1.0], &f64::NAN.into(), &1.0.into()),
            Err(Error::InvalidParam { name: "lo", .. })
        ));
        assert!(matches!(
            project_box(&array![1.0], &0.0.into(), &f64::NEG_INFINITY.into()),
            Err(Error::InvalidParam { name: "hi", .. })
        ));
        assert!(matches!(
            Projection::Box {
                lo: vec![0.0, 0.0].into(),
                hi: vec![1.0].into()
            }
            .validate(),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn simplex_hand_cases() {
        // v = (0.3, 0.6, 0.9), z = 1: u = (0.9, 0.6, 0.3), partial sums 0.9, 1.5, 1.8;
        // j = 1: 0.9 − (0.9 − 1)/1 = 1 > 0; j = 2: 0.6 − 0.5/2 = 0.35 > 0;
        // j = 3: 0.3 − 0.8/3 = 0.0333 > 0 ⇒ ρ = 3, θ = 0.8/3 = 4/15;
        // w = (0.3 − 4/15, 0.6 − 4/15, 0.9 − 4/15) = (1/30, 1/3, 19/30).
        let p = project_simplex(&array![0.3, 0.6, 0.9], 1.0).expect("valid");
        close(&p, &[1.0 / 30.0, 1.0 / 3.0, 19.0 / 30.0], 1e-15);
        // v = (2, 0): j = 1: 2 − 1 = 1 > 0; j = 2: 0 − (2 − 1)/2 < 0 ⇒ θ = 1, w = (1, 0).
        close(
            &project_simplex(&array![2.0, 0.0], 1.0).expect("valid"),
            &[1.0, 0.0],
            0.0,
        );
        // v = (−1, −1), z = 2: θ = (−2 − 2)/2 = −2 ⇒ w = (1, 1).
        close(
            &project_simplex(&array![-1.0, -1.0], 2.0).expect("valid"),
            &[1.0, 1.0],
            0.0,
        );
        // A point of the simplex is its own projection.
        close(
            &project_simplex(&array![0.2, 0.3, 0.5], 1.0).expect("valid"),
            &[0.2, 0.3, 0.5],
            1e-15,
        );
        assert!(matches!(
            project_simplex(&array![1.0], 0.0),
            Err(Error::InvalidParam { name: "z", .. })
        ));
        assert!(matches!(
            project_simplex(&Array1::<f64>::zeros(0), 1.0),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(matches!(
            project_simplex(&array![f64::INFINITY], 1.0),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn projection_enum_dispatches() {
        let v = array![3.0, 4.0];
        assert_eq!(
            Projection::L2Ball { radius: 1.0 }
                .project(&v)
                .expect("valid"),
            project_l2_ball(&v, 1.0).expect("valid")
        );
        assert_eq!(
            Projection::Simplex { z: 1.0 }.project(&v).expect("valid"),
            project_simplex(&v, 1.0).expect("valid")
        );
        assert!(Projection::Simplex { z: -1.0 }.validate().is_err());
        assert!(Projection::L2Ball { radius: f64::NAN }.validate().is_err());
    }

    #[test]
    fn box_constrained_quadratic_is_solved_by_one_unit_step() {
        // f = ½‖w − c‖²: with η = 1, z = w − (w − c) = c, so w₁ = P(c) = clip(c); the residual at
        // w₁ is ‖w₁ − P(w₁ − (w₁ − c))‖ = ‖clip(c) − clip(c)‖ = 0 ⇒ stop after one iteration.
        let c = array![2.0, -3.0, 0.25];
        let q = Quadratic::<f64>::new(ndarray::Array2::eye(3), c.clone());
        let boxed = Projection::Box {
            lo: 0.0.into(),
            hi: 1.0.into(),
        };
        let r = projected_gradient(
            &q,
            &array![0.5, 0.5, 0.5],
            &boxed,
            StepSize::Constant(1.0),
            StopCriteria::default(),
        )
        .expect("valid");
        assert_eq!((r.n_iter, r.stop), (1, StopReason::GradientNorm));
        close(&r.x, &[1.0, 0.0, 0.25], 0.0);
    }

    #[test]
    fn ball_constrained_quadratic_satisfies_kkt() {
        // min ½wᵀAw − bᵀw s.t. ‖w‖ ≤ 1 with the unconstrained optimum A⁻¹b outside the ball.
        // KKT: ‖w*‖ = 1 and ∇f(w*) = −μw* with μ ≥ 0.
        let q = Quadratic::<f64>::new(array![[3.0, 1.0], [1.0, 2.0]], array![4.0, 5.0]);
        let free = crate::linalg::solve(&q.a, &q.b).expect("SPD");
        assert!(norm2(&free) > 1.0);
        let ball = Projection::L2Ball { radius: 1.0 };
        // The backtracking run stops earlier: its decrease test cannot resolve residuals far
        // below √ε_mach (see gradient_descent's docs).
        for (step, tol) in [
            (StepSize::Constant(0.2), 1e-10),
            (StepSize::backtracking(), 1e-7),
        ] {
            let stop = StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(tol);
            let r = projected_gradient(&q, &array![0.0, 0.0], &ball, step, stop).expect("valid");
            assert_eq!(r.stop, StopReason::GradientNorm, "{step:?}");
            assert!((norm2(&r.x) - 1.0).abs() < 1e-12);
            let g = q.gradient(&r.x);
            let mu = -g.dot(&r.x);
            assert!(mu > 0.0);
            assert!(
                (&g + &(&r.x * mu)).iter().all(|v| v.abs() < 100.0 * tol),
                "{step:?}: {g}"
            );
            assert!(r.history.windows(2).all(|p| p[1] <= p[0]));
        }
    }

    #[test]
    fn simplex_constrained_linear_plus_quadratic() {
        // min ½‖w‖² + cᵀw over the probability simplex. KKT: w_j = max(−c_j − τ, 0) for the τ
        // with Σw = 1, i.e. w* = P_simplex(−c). With c = (0, 1, 3): for P((0, −1, −3)),
        // j = 1 gives 0 − (0 − 1) = 1 > 0 and j = 2 gives −1 − (−1 − 1)/2 = 0, not > 0, so ρ = 1,
        // θ = −1 and w* = max((0, −1, −3) + 1, 0) = (1, 0, 0).
        let cvec = array![0.0, 1.0, 3.0];
        let cv = cvec.clone();
        let f = FnObjective::new(
            3,
            move |w: &ArrayRef1<f64>| 0.5 * w.dot(w) + cv.dot(w),
            move |w: &ArrayRef1<f64>| w.to_owned() + &cvec,
        );
        let simplex = Projection::Simplex { z: 1.0 };
        // Near w* the second coordinate halves each step (w = (1 − δ/2, δ/2, 0) from (1 − δ, δ, 0))
        // until rounding leaves it at one ulp of 0.5, so ask for a residual of 1e-12.
        let stop = StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(1e-12);
        let r = projected_gradient(
            &f,
            &array![0.2, 0.3, 0.5],
            &simplex,
            StepSize::Constant(0.5),
            stop,
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::GradientNorm);
        close(&r.x, &[1.0, 0.0, 0.0], 1e-12);
        // Every iterate is feasible: the history's objective is at least the optimum 0.5.
        assert!(r.history.iter().all(|&h| h >= 0.5 - 1e-12));
    }

    #[test]
    fn start_is_projected_and_errors() {
        let q = Quadratic::<f64>::diag(&[1.0, 1.0]);
        let ball = Projection::L2Ball { radius: 1.0 };
        // The optimum 0 is inside the ball; the start (30, 40) is projected to (0.6, 0.8) first:
        // f(w₀) = ½ = history[0].
        let r = projected_gradient(
            &q,
            &array![30.0, 40.0],
            &ball,
            StepSize::Constant(0.5),
            StopCriteria::default().max_iter(1),
        )
        .expect("valid");
        assert!((r.history[0] - 0.5).abs() < 1e-15);
        assert!(matches!(
            projected_gradient(
                &q,
                &array![1.0, 1.0],
                &Projection::Box {
                    lo: vec![0.0].into(),
                    hi: 1.0.into()
                },
                StepSize::Constant(0.5),
                StopCriteria::default()
            ),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            projected_gradient(
                &q,
                &array![1.0],
                &ball,
                StepSize::Constant(0.5),
                StopCriteria::default()
            ),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            projected_gradient(
                &q,
                &array![1.0, 1.0],
                &Projection::L2Ball { radius: -1.0 },
                StepSize::Constant(0.5),
                StopCriteria::default()
            ),
            Err(Error::InvalidParam { name: "radius", .. })
        ));
        assert!(matches!(
            projected_gradient(
                &q,
                &array![1.0, 1.0],
                &ball,
                StepSize::Constant(-0.5),
                StopCriteria::default()
            ),
            Err(Error::InvalidParam { .. })
        ));
    }

    #[test]
    fn works_in_f32() {
        let q = Quadratic::<f32>::new(ndarray::Array2::eye(2), array![3.0f32, 0.5]);
        let boxed = Projection::Box {
            lo: (-1.0).into(),
            hi: 1.0.into(),
        };
        let r = projected_gradient(
            &q,
            &array![0.0f32, 0.0],
            &boxed,
            StepSize::backtracking(),
            StopCriteria::default(),
        )
        .expect("valid");
        assert!(
            (r.x[0] - 1.0).abs() < 1e-5 && (r.x[1] - 0.5).abs() < 1e-5,
            "{}",
            r.x
        );
    }
}
