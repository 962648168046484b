//! Equality-constrained optimisation by Newton's method on the Lagrangian's stationarity
//! system: `min f(x) s.t. h(x) = 0` for small problems.
//!
//! # The math (catalog O-11)
//!
//! With `L(x, λ) = f(x) + λᵀh(x)` a constrained stationary point solves
//! `F(x, λ) = [∇f(x) + J(x)ᵀλ; h(x)] = 0` (`J = ∂h/∂xᵀ`, one row per constraint; Bishop,
//! *Pattern Recognition and Machine Learning* (2006), Appendix E; Nocedal & Wright, *Numerical
//! Optimization*, 2nd ed. (2006), ch. 12); for one constraint this is the course notes'
//! `∇f = λ∇g, g = k` (their `L = f − λ(g − c)` only flips the sign of `λ`). Newton's method
//! on `F` solves the **KKT system**
//!
//! ```text
//! [ ∇²ₓL   Jᵀ ] [Δx]     [∇f + Jᵀλ]
//! [ J      0  ] [Δλ] = − [   h    ]
//! ```
//!
//! (LU with partial pivoting; the matrix is symmetric indefinite) and steps
//! `(x, λ) ← (x, λ) + t(Δx, Δλ)` with `t ∈ {1, ½, …}` backtracked until the merit
//! `‖F‖₂` decreases (`‖F(new)‖ ≤ (1 − 10⁻⁴t)‖F‖`; implementation choice). Convergence is
//! quadratic near a regular KKT point. The method finds stationary points of `L` — minima,
//! maxima or saddles of `f` on the constraint set; [`LagrangeResult::kind`] classifies the
//! result by the reduced Hessian `Zᵀ∇²ₓL Z` on the null space `Z` of `J` (second-order
//! conditions): positive definite ⇒ constrained local minimum.
//!
//! Missing derivatives are replaced by central finite differences ([`super::finite_diff`]):
//! `∇f` and `J` with step `ε^{1/3}`; `∇²ₓL` from `∇ₓL` when both `∇f` and `J` are analytic,
//! otherwise from the values of `L` with step `ε^{1/4}`.
//!
//! The start multiplier, unless given, is the least-squares estimate
//! `λ₀ = argmin ‖∇f(x₀) + J(x₀)ᵀλ‖`.
//!
//! The course notes' worked example — maximise `xyz` subject to `xy + yz + zx = 32` — is
//! the unit test `notes_xyz_example`: `x = y = z = √(32/3) ≈ 3.265986`, `f ≈ 34.837187`,
//! `λ ≈ 1.632993`.
//!
//! # Complexity
//!
//! Per iteration one `(n + m)`-square LU solve `O((n+m)³)` plus the derivative evaluations
//! (`O(n)` extra `f`/`h` evaluations per finite-difference gradient/Jacobian, `O(n²)` for a
//! value-based Hessian).

use ndarray::{Array1, Array2, ArrayRef1, s};

use super::finite_diff::{self, StationaryPoint, classify_stationary_point};
use super::{StopCriteria, StopReason, norm2};
use crate::{Error, Float, Result, linalg};

type ValueFn<'a, F> = Box<dyn Fn(&ArrayRef1<F>) -> F + 'a>;
type VecFn<'a, F> = Box<dyn Fn(&ArrayRef1<F>) -> Array1<F> + 'a>;
type MatFn<'a, F> = Box<dyn Fn(&ArrayRef1<F>) -> Array2<F> + 'a>;
type HessLFn<'a, F> = Box<dyn Fn(&ArrayRef1<F>, &ArrayRef1<F>) -> Array2<F> + 'a>;

/// `min f(x) s.t. h(x) = 0` with optional analytic derivatives (see the module docs).
///
/// ```
/// use ndlearn_core::ndarray::{array, ArrayRef1};
/// use ndlearn_core::optim::{EqualityConstrained, StopCriteria};
/// // min x² + y² s.t. x + y = 2: x = y = 1, λ = −2.
/// let p = EqualityConstrained::new(
///     2,
///     |w: &ArrayRef1<f64>| w[0] * w[0] + w[1] * w[1],
///     |w: &ArrayRef1<f64>| array![w[0] + w[1] - 2.0],
/// );
/// let r = p.solve(&array![0.0, 0.0], None, &StopCriteria::default())?;
/// assert!((r.x[0] - 1.0).abs() < 1e-8 && (r.lambda[0] + 2.0).abs() < 1e-6);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub struct EqualityConstrained<'a, F: Float> {
    dim: usize,
    objective: ValueFn<'a, F>,
    constraints: VecFn<'a, F>,
    gradient: Option<VecFn<'a, F>>,
    jacobian: Option<MatFn<'a, F>>,
    lagrangian_hessian: Option<HessLFn<'a, F>>,
}

/// Result of [`EqualityConstrained::solve`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LagrangeResult<F: Float> {
    /// The stationary point.
    pub x: Array1<F>,
    /// Multipliers `λ` (convention `∇f + Jᵀλ = 0`).
    pub lambda: Array1<F>,
    /// `f(x)`.
    pub value: F,
    /// Newton iterations.
    pub n_iter: usize,
    /// Whether a tolerance ended the run.
    pub converged: bool,
    /// Which rule ended the run ([`StopReason::GradientNorm`] = `‖F‖∞ ≤ g_tol`).
    pub stop: StopReason,
    /// `‖F(x, λ)‖∞ = max(‖∇f + Jᵀλ‖∞, ‖h‖∞)`.
    pub residual: F,
    /// Second-order classification on the constraint set (reduced Hessian of `L`); `None` when
    /// there are no free directions (`rank J = n`) or it could not be computed.
    pub kind: Option<StationaryPoint>,
}

impl<'a, F: Float> EqualityConstrained<'a, F> {
    /// The problem with objective `f` and constraints `h` (values) in dimension `dim`.
    pub fn new<V, H>(dim: usize, f: V, h: H) -> Self
    where
        V: Fn(&ArrayRef1<F>) -> F + 'a,
        H: Fn(&ArrayRef1<F>) -> Array1<F> + 'a,
    {
        Self {
            dim,
            objective: Box::new(f),
            constraints: Box::new(h),
            gradient: None,
            jacobian: None,
            lagrangian_hessian: None,
        }
    }
    /// Adds the analytic gradient `∇f`.
    pub fn with_gradient<G: Fn(&ArrayRef1<F>) -> Array1<F> + 'a>(mut self, g: G) -> Self {
        self.gradient = Some(Box::new(g));
        self
    }
    /// Adds the analytic constraint Jacobian `J` (`m × n`).
    pub fn with_jacobian<J: Fn(&ArrayRef1<F>) -> Array2<F> + 'a>(mut self, j: J) -> Self {
        self.jacobian = Some(Box::new(j));
        self
    }
    /// Adds the analytic Hessian of the Lagrangian `(x, λ) ↦ ∇²f(x) + Σⱼ λⱼ∇²hⱼ(x)`.
    pub fn with_lagrangian_hessian<W>(mut self, w: W) -> Self
    where
        W: Fn(&ArrayRef1<F>, &ArrayRef1<F>) -> Array2<F> + 'a,
    {
        self.lagrangian_hessian = Some(Box::new(w));
        self
    }

    fn grad(&self, x: &ArrayRef1<F>) -> Array1<F> {
        match &self.gradient {
            Some(g) => g(x),
            None => finite_diff::gradient(|w: &ArrayRef1<F>| (self.objective)(w), x),
        }
    }

    fn jac(&self, x: &ArrayRef1<F>) -> Result<Array2<F>> {
        match &self.jacobian {
            Some(j) => Ok(j(x)),
            None => finite_diff::jacobian(|w: &ArrayRef1<F>| (self.constraints)(w), x),
        }
    }

    fn hess_l(&self, x: &ArrayRef1<F>, lam: &Array1<F>) -> Result<Array2<F>> {
        if let Some(w) = &self.lagrangian_hessian {
            return Ok(w(x, lam));
        }
        if self.gradient.is_some() && self.jacobian.is_some() {
            return finite_diff::hessian_from_gradient(
                |w: &ArrayRef1<F>| -> Array1<F> {
                    let g = self.grad(w);
                    match self.jac(w) {
                        Ok(j) if j.dim() == (lam.len(), g.len()) => g + j.t().dot(lam),
                        _ => Array1::from_elem(g.len(), F::nan()),
                    }
                },
                x,
            );
        }
        Ok(finite_diff::hessian(
            |w: &ArrayRef1<F>| (self.objective)(w) + (self.constraints)(w).dot(lam),
            x,
        ))
    }

    /// `F(x, λ)`, `∇f`, `J` at a point, with shape checks.
    fn system(&self, x: &ArrayRef1<F>, lam: &Array1<F>) -> Result<(Array1<F>, Array2<F>)> {
        let n = self.dim;
        let m = lam.len();
        let g = self.grad(x);
        let h = (self.constraints)(x);
        let j = self.jac(x)?;
        if g.len() != n || h.len() != m || j.dim() != (m, n) {
            return Err(Error::ShapeMismatch {
                context: "EqualityConstrained: gradient / constraints / Jacobian",
                expected: format!("gradient {n}, constraints {m}, Jacobian {m}x{n}"),
                found: format!("{}, {}, {}x{}", g.len(), h.len(), j.nrows(), j.ncols()),
            });
        }
        let mut f = Array1::zeros(n + m);
        f.slice_mut(s![..n]).assign(&(g + j.t().dot(lam)));
        f.slice_mut(s![n..]).assign(&h);
        Ok((f, j))
    }

    /// Runs Newton's method on the KKT system from `x0` (and `lambda0`, or the least-squares
    /// estimate). Honours `stop.g_tol` (on `‖F‖∞`), `stop.x_tol` (on the step) and
    /// `stop.max_iter`; `f_tol` is ignored.
    ///
    /// Errors: invalid `stop`; `x0` not of length `dim` or non-finite; `lambda0` of a length
    /// other than the number of constraints; derivative closures returning wrong shapes; no
    /// constraints (`h` returns an empty vector: use an unconstrained solver); non-finite values
    /// at `x0`; a singular KKT matrix ([`Error::Linalg`], e.g. linearly dependent constraint
    /// gradients).
    pub fn solve(
        &self,
        x0: &ArrayRef1<F>,
        lambda0: Option<&ArrayRef1<F>>,
        stop: &StopCriteria,
    ) -> Result<LagrangeResult<F>> {
        stop.validate()?;
        super::check_start(x0, self.dim)?;
        let n = self.dim;
        let m = (self.constraints)(x0).len();
        if m == 0 {
            return Err(Error::invalid_param(
                "constraints",
                "h(x) is empty: use an unconstrained solver (newton, lbfgs)",
            ));
        }
        let mut x = x0.to_owned();
        let mut lam = match lambda0 {
            Some(l) => {
                if l.len() != m {
                    return Err(Error::ShapeMismatch {
                        context: "EqualityConstrained: lambda0",
                        expected: format!("length {m} (number of constraints)"),
                        found: l.len().to_string(),
                    });
                }
                crate::validate::check_finite_1d(l, "lambda0")?;
                l.to_owned()
            }
            None => {
                let (f0, j0) = self.system(&x, &Array1::zeros(m))?;
                crate::validate::check_finite_1d(&f0, "gradient and constraints at x0")?;
                let g0 = f0.slice(s![..n]).mapv(|v| -v);
                linalg::lstsq(&j0.t(), &g0, None)?.solution
            }
        };
        let (mut fv, mut j) = self.system(&x, &lam)?;
        crate::validate::check_finite_1d(&fv, "gradient and constraints at x0")?;
        let g_tol = F::cast(stop.g_tol);
        let x_tol = F::cast(stop.x_tol);
        let inf_norm = |v: &Array1<F>| v.iter().fold(F::zero(), |a, b| a.max(b.abs()));
        let mut stop_reason = StopReason::MaxIter;
        let mut n_iter = 0;
        if stop.g_tol > 0.0 && inf_norm(&fv) <= g_tol {
            stop_reason = StopReason::GradientNorm;
        } else {
            for it in 1..=stop.max_iter {
                let w = self.hess_l(&x, &lam)?;
                if w.dim() != (n, n) {
                    return Err(Error::ShapeMismatch {
                        context: "EqualityConstrained: Hessian of the Lagrangian",
                        expected: format!("{n}x{n}"),
                        found: format!("{}x{}", w.nrows(), w.ncols()),
                    });
                }
                let mut k = Array2::zeros((n + m, n + m));
                k.slice_mut(s![..n, ..n]).assign(&w);
                k.slice_mut(s![..n, n..]).assign(&j.t());
                k.slice_mut(s![n.., ..n]).assign(&j);
                let step = linalg::solve(&k, &fv.mapv(|v| -v))?;
                let merit = norm2(&fv);
                let mut t = F::one();
                let mut accepted = None;
                for _ in 0..40 {
                    let xt = &x + &(step.slice(s![..n]).to_owned() * t);
                    let lt = &lam + &(step.slice(s![n..]).to_owned() * t);
                    if let Ok((ft, jt)) = self.system(&xt, &lt) {
                        let mt = norm2(&ft);
                        if mt.is_finite() && mt <= (F::one() - F::cast(1e-4) * t) * merit {
                            accepted = Some((xt, lt, ft, jt));
                            break;
                        }
                    }
                    t *= F::cast(0.5);
                }
                n_iter = it;
                let Some((xt, lt, ft, jt)) = accepted else {
                    stop_reason = StopReason::LineSearchFailed;
                    break;
                };
                let dx = t * norm2(&step.slice(s![..n]).to_owned());
                x = xt;
                lam = lt;
                fv = ft;
                j = jt;
                if stop.g_tol > 0.0 && inf_norm(&fv) <= g_tol {
                    stop_reason = StopReason::GradientNorm;
                    break;
                }
                if stop.x_tol > 0.0 && dx <= x_tol * F::one().max(norm2(&x)) {
                    stop_reason = StopReason::StepNorm;
                    break;
                }
            }
        }
        let kind = self.classify(&x, &lam, &j);
        let converged = !matches!(
            stop_reason,
            StopReason::MaxIter | StopReason::LineSearchFailed
        );
        Ok(LagrangeResult {
            value: (self.objective)(&x),
            residual: inf_norm(&fv),
            x,
            lambda: lam,
            n_iter,
            converged,
            stop: stop_reason,
            kind,
        })
    }

    /// Classifies by the reduced Hessian `Zᵀ ∇²ₓL Z`.
    fn classify(&self, x: &Array1<F>, lam: &Array1<F>, j: &Array2<F>) -> Option<StationaryPoint> {
        let z = linalg::null_space(j, None).ok()?;
        if z.ncols() == 0 {
            return None;
        }
        let w = self.hess_l(x, lam).ok()?;
        let red = z.t().dot(&w).dot(&z);
        let half = F::cast(0.5);
        let red = Array2::from_shape_fn(red.dim(), |(a, b)| half * (red[[a, b]] + red[[b, a]]));
        // Finite-difference Hessians are accurate to about √ε relative.
        let scale = w.iter().fold(F::one(), |m, v| m.max(v.abs()));
        classify_stationary_point(&red, Some(F::cast(1e-6) * scale)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// The course notes' example: maximise f = xyz s.t. xy + yz + zx = 32, i.e.
    /// minimise −xyz. Catalog TV10: x = y = z = √(32/3) = 3.265986, f = 34.837187,
    /// λ = 1.632993 (= x/2, from yz = λ(y + z)).
    #[test]
    fn notes_xyz_example() {
        let a = (32.0f64 / 3.0).sqrt();
        let h = |w: &ArrayRef1<f64>| array![w[0] * w[1] + w[1] * w[2] + w[2] * w[0] - 32.0];
        let stop = StopCriteria::default().g_tol(1e-12);
        let start = array![2.0, 3.0, 4.5];
        // (1) Only values: every derivative by finite differences.
        let fd = EqualityConstrained::new(3, |w: &ArrayRef1<f64>| -w[0] * w[1] * w[2], h);
        let stop_fd = StopCriteria::default().g_tol(1e-8);
        let r = fd.solve(&start, None, &stop_fd).expect("regular KKT point");
        assert!(r.converged, "{r:?}");
        for v in r.x.iter() {
            assert!((v - 3.26599).abs() < 1e-5, "{}", r.x);
        }
        assert!((-r.value - 34.837).abs() < 1e-3);
        // (2) Analytic derivatives: the derived values to 1e-9.
        let exact = EqualityConstrained::new(3, |w: &ArrayRef1<f64>| -w[0] * w[1] * w[2], h)
            .with_gradient(|w: &ArrayRef1<f64>| array![-w[1] * w[2], -w[0] * w[2], -w[0] * w[1]])
            .with_jacobian(|w: &ArrayRef1<f64>| array![[w[1] + w[2], w[0] + w[2], w[0] + w[1]]])
            .with_lagrangian_hessian(|w: &ArrayRef1<f64>, l: &ArrayRef1<f64>| {
                let l = l[0];
                array![
                    [0.0, l - w[2], l - w[1]],
                    [l - w[2], 0.0, l - w[0]],
                    [l - w[1], l - w[0], 0.0]
                ]
            });
        let r = exact.solve(&start, None, &stop).expect("ok");
        assert!(r.converged && r.residual <= 1e-12, "{r:?}");
        for v in r.x.iter() {
            assert!((v - a).abs() < 1e-10, "{}", r.x);
        }
        assert!((-r.value - a.powi(3)).abs() < 1e-9);
        assert!((-r.value - 34.837187).abs() < 1e-6);
        assert!((r.lambda[0] - 1.632993).abs() < 1e-6 && (r.lambda[0] - a / 2.0).abs() < 1e-10);
        // A constrained maximum of xyz = a constrained minimum of −xyz.
        assert_eq!(r.kind, Some(StationaryPoint::Minimum));
        // Gradient + Jacobian only (Hessian of L by differences of ∇ₓL).
        let mid = EqualityConstrained::new(3, |w: &ArrayRef1<f64>| -w[0] * w[1] * w[2], h)
            .with_gradient(|w: &ArrayRef1<f64>| array![-w[1] * w[2], -w[0] * w[2], -w[0] * w[1]])
            .with_jacobian(|w: &ArrayRef1<f64>| array![[w[1] + w[2], w[0] + w[2], w[0] + w[1]]]);
        let r = mid.solve(&start, Some(&array![1.0]), &stop).expect("ok");
        assert!(r.x.iter().all(|v| (v - a).abs() < 1e-9), "{}", r.x);
    }

    #[test]
    fn saddle_and_maximum_are_classified() {
        // f = xy on the line x − y = 0 is t², a minimum at 0; on x + y = 0 it is −t², a maximum.
        let f = |w: &ArrayRef1<f64>| w[0] * w[1];
        let minp = EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| array![w[0] - w[1]]);
        let r = minp
            .solve(&array![0.3, 0.1], None, &StopCriteria::default())
            .expect("ok");
        assert!(r.x.iter().all(|v| v.abs() < 1e-7), "{}", r.x);
        assert_eq!(r.kind, Some(StationaryPoint::Minimum));
        let maxp = EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| array![w[0] + w[1]]);
        let r = maxp
            .solve(&array![0.3, 0.1], None, &StopCriteria::default())
            .expect("ok");
        assert_eq!(r.kind, Some(StationaryPoint::Maximum));
        // Two constraints in 2-D: no free direction.
        let pt =
            EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| array![w[0] - 1.0, w[1] - 2.0]);
        let r = pt
            .solve(&array![0.0, 0.0], None, &StopCriteria::default())
            .expect("ok");
        assert!((r.x[0] - 1.0).abs() < 1e-9 && (r.x[1] - 2.0).abs() < 1e-9 && r.kind.is_none());
        // f32.
        let p32 = EqualityConstrained::new(
            2,
            |w: &ArrayRef1<f32>| w[0] * w[0] + w[1] * w[1],
            |w: &ArrayRef1<f32>| array![w[0] + w[1] - 2.0],
        );
        let r = p32
            .solve(
                &array![0.0f32, 0.5],
                None,
                &StopCriteria::default().g_tol(1e-3),
            )
            .expect("ok");
        assert!(
            (r.x[0] - 1.0).abs() < 1e-3 && (r.x[1] - 1.0).abs() < 1e-3,
            "{r:?}"
        );
    }

    #[test]
    fn errors_are_typed() {
        let f = |w: &ArrayRef1<f64>| w[0] * w[0] + w[1] * w[1];
        let p = EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| array![w[0] + w[1] - 2.0]);
        let s = StopCriteria::default();
        assert!(matches!(
            p.solve(&array![0.0], None, &s),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            p.solve(&array![f64::NAN, 0.0], None, &s),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            p.solve(&array![0.0, 0.0], Some(&array![1.0, 2.0]), &s),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(p.solve(&array![0.0, 0.0], None, &s.max_iter(0)).is_err());
        let none = EqualityConstrained::new(2, f, |_: &ArrayRef1<f64>| Array1::zeros(0));
        assert!(matches!(
            none.solve(&array![0.0, 0.0], None, &s),
            Err(Error::InvalidParam { .. })
        ));
        // The same constraint twice: singular KKT matrix.
        let dup = EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| {
            array![w[0] + w[1] - 2.0, 2.0 * (w[0] + w[1] - 2.0)]
        })
        .with_gradient(|w: &ArrayRef1<f64>| array![2.0 * w[0], 2.0 * w[1]])
        .with_jacobian(|_: &ArrayRef1<f64>| array![[1.0, 1.0], [2.0, 2.0]])
        .with_lagrangian_hessian(|_: &ArrayRef1<f64>, _: &ArrayRef1<f64>| Array2::eye(2) * 2.0);
        assert!(matches!(
            dup.solve(&array![0.0, 0.0], Some(&array![0.0, 0.0]), &s),
            Err(Error::Linalg { .. })
        ));
        let bad_jac =
            EqualityConstrained::new(2, f, |w: &ArrayRef1<f64>| array![w[0] + w[1] - 2.0])
                .with_jacobian(|_: &ArrayRef1<f64>| Array2::zeros((2, 2)));
        assert!(matches!(
            bad_jac.solve(&array![0.0, 0.0], None, &s),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
