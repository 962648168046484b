//! Property tests of the first-order solvers in `ndlearn_core::optim` (few cases: CI has 2 cores).
//!
//! - gradient descent with the step `1/L` converges to `A⁻¹b` on random SPD quadratics, and its
//!   history is strictly decreasing with backtracking; f32 agrees with f64;
//! - projections: feasibility, idempotence and the variational inequality
//!   `(v − P(v))ᵀ(y − P(v)) ≤ 0` for feasible `y` (which characterises the Euclidean projection);
//! - projected gradient on random box-constrained quadratics satisfies the KKT sign conditions;
//! - ISTA's composite objective is non-increasing and ISTA/FISTA agree on random lasso problems;
//! - momentum-type optimizers converge on random SPD quadratics.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::optim::{
    self, Bound, Objective, OptimizerKind, Projection, ProxStep, StepSize, StopCriteria, StopReason,
};
use ndlearn_core::{Float, linalg};
use ndlearn_testkit::{any_matrix, config, spd_matrix};
use proptest::prelude::*;

/// `½wᵀAw − bᵀw`.
struct Quad<F: Float> {
    a: Array2<F>,
    b: Array1<F>,
}

impl<F: Float> Objective<F> for Quad<F> {
    fn dim(&self) -> usize {
        self.b.len()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        F::cast(0.5) * w.dot(&self.a.dot(w)) - self.b.dot(w)
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        self.a.dot(w) - &self.b
    }
}

/// `(1/2n)‖y − Xw‖²`.
struct Ls {
    x: Array2<f64>,
    y: Array1<f64>,
}

impl Objective<f64> for Ls {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        let r = &self.y - &self.x.dot(w);
        r.dot(&r) / (2.0 * self.x.nrows() as f64)
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        let r = &self.y - &self.x.dot(w);
        -self.x.t().dot(&r) / self.x.nrows() as f64
    }
}

fn lmax(a: &Array2<f64>) -> f64 {
    linalg::eigvalsh(a)
        .expect("symmetric")
        .iter()
        .fold(0.0f64, |m, &v| m.max(v))
}

fn dist(a: &Array1<f64>, b: &Array1<f64>) -> f64 {
    optim::norm2(&(a - b))
}

/// An SPD matrix with a right-hand side of the same size.
fn spd_problem() -> impl Strategy<Value = (Array2<f64>, Array1<f64>)> {
    spd_matrix(1..8).prop_flat_map(|a| {
        let n = a.nrows();
        (
            Just(a),
            proptest::collection::vec(-5.0f64..5.0, n).prop_map(Array1::from),
        )
    })
}

/// `(v, y)`: two vectors of the same length `1..10`.
fn vector_pair() -> impl Strategy<Value = (Array1<f64>, Array1<f64>)> {
    (1usize..10).prop_flat_map(|n| {
        (
            proptest::collection::vec(-5.0f64..5.0, n).prop_map(Array1::from),
            proptest::collection::vec(-5.0f64..5.0, n).prop_map(Array1::from),
        )
    })
}

fn exact() -> StopCriteria {
    StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(0.0)
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn gd_with_step_one_over_l_reaches_the_solution((a, b) in spd_problem()) {
        let want = linalg::solve(&a, &b).expect("SPD");
        let q = Quad { a: a.clone(), b };
        let x0 = Array1::zeros(q.dim());
        let r = optim::gradient_descent(&q, &x0, StepSize::Constant(1.0 / lmax(&a)), exact().max_iter(20_000).g_tol(1e-10))
            .expect("valid");
        prop_assert_eq!(r.stop, StopReason::GradientNorm);
        // ‖x − x*‖ ≤ ‖∇f(x)‖/λ_min ≤ 1e-10 (λ_min ≥ 1 for these matrices).
        prop_assert!(dist(&r.x, &want) <= 1e-9, "{} vs {}", r.x, want);
        // With 0 < η ≤ 1/L the value never increases on a convex quadratic.
        prop_assert!(r.history.windows(2).all(|p| p[1] <= p[0] + 1e-12 * p[0].abs().max(1.0)));
    }

    #[test]
    fn backtracking_history_strictly_decreases((a, b) in spd_problem(), start in -3.0f64..3.0) {
        let want = linalg::solve(&a, &b).expect("SPD");
        let q = Quad { a, b };
        let x0 = Array1::from_elem(q.dim(), start);
        // g_tol stays well above the resolution floor of the decrease test,
        // ‖∇f‖ ≈ √(2L·ε·|f|) ≈ 3e-7 for these sizes (see gradient_descent's docs).
        let r = optim::gradient_descent(&q, &x0, StepSize::backtracking(), exact().max_iter(20_000).g_tol(1e-5))
            .expect("valid");
        prop_assert!(r.history.windows(2).all(|p| p[1] < p[0]));
        prop_assert_eq!(r.stop, StopReason::GradientNorm);
        // ‖x − x*‖ ≤ ‖∇f‖/λ_min with λ_min ≥ 1.
        prop_assert!(dist(&r.x, &want) <= 1e-5);
    }

    #[test]
    fn f32_gradient_descent_is_close_to_f64((a, b) in spd_problem()) {
        let step = StepSize::Constant(1.0 / lmax(&a));
        let stop = exact().max_iter(300);
        let q64 = Quad { a: a.clone(), b: b.clone() };
        let q32 = Quad { a: a.mapv(|v| v as f32), b: b.mapv(|v| v as f32) };
        let r64 = optim::gradient_descent(&q64, &Array1::zeros(q64.dim()), step, stop).expect("valid");
        let r32 = optim::gradient_descent(&q32, &Array1::zeros(q32.dim()), step, stop).expect("valid");
        let scale = optim::norm2(&r64.x).max(1.0);
        let diff = r32.x.mapv(f64::from) - &r64.x;
        prop_assert!(optim::norm2(&diff) <= 1e-4 * scale);
    }

    #[test]
    fn projections_are_feasible_idempotent_and_variational((v, y) in vector_pair(), r in 0.1f64..4.0, z in 0.1f64..4.0) {
        let n = v.len();
        let lo: Vec<f64> = (0..n).map(|j| -1.0 + 0.1 * j as f64).collect();
        let hi: Vec<f64> = lo.iter().map(|l| l + 1.5).collect();
        let sets = [
            Projection::L2Ball { radius: r },
            Projection::Box { lo: Bound::from(lo.clone()), hi: Bound::from(hi.clone()) },
            Projection::Simplex { z },
        ];
        for set in &sets {
            let p = set.project(&v).expect("valid");
            // Feasibility.
            match set {
                Projection::L2Ball { radius } => prop_assert!(optim::norm2(&p) <= radius * (1.0 + 1e-12)),
                Projection::Box { .. } => {
                    prop_assert!(p.iter().zip(&lo).zip(&hi).all(|((&x, &l), &h)| l <= x && x <= h));
                }
                Projection::Simplex { z } => {
                    prop_assert!(p.iter().all(|&x| x >= 0.0));
                    prop_assert!((p.sum() - z).abs() <= 1e-12 * z.max(1.0) * n as f64);
                }
                _ => {}
            }
            // Idempotence.
            let pp = set.project(&p).expect("valid");
            prop_assert!(dist(&pp, &p) <= 1e-12 * optim::norm2(&p).max(1.0));
            // Variational inequality against a feasible point (the projection of y).
            let q = set.project(&y).expect("valid");
            let vi = (&v - &p).dot(&(&q - &p));
            prop_assert!(vi <= 1e-10 * (1.0 + optim::norm2(&v) * optim::norm2(&q)), "{set:?}: {vi}");
            // Non-expansiveness ‖P(v) − P(y)‖ ≤ ‖v − y‖.
            prop_assert!(dist(&p, &q) <= dist(&v, &y) * (1.0 + 1e-12) + 1e-12);
        }
        // A scalar bound equals the constant per-coordinate bound.
        let a = optim::project_box(&v, &Bound::from(-0.5), &Bound::from(0.5)).expect("valid");
        let b = optim::project_box(&v, &Bound::from(vec![-0.5; n]), &Bound::from(vec![0.5; n])).expect("valid");
        prop_assert_eq!(a, b);
    }

    #[test]
    fn projected_gradient_box_kkt((a, b) in spd_problem()) {
        let n = b.len();
        let set = Projection::Box { lo: Bound::from(-0.5), hi: Bound::from(0.5) };
        let q = Quad { a: a.clone(), b };
        let r = optim::projected_gradient(&q, &Array1::zeros(n), &set, StepSize::Constant(1.0 / lmax(&a)), exact().max_iter(50_000).g_tol(1e-11))
            .expect("valid");
        prop_assert_eq!(r.stop, StopReason::GradientNorm);
        let g = q.gradient(&r.x);
        for (&x, &gj) in r.x.iter().zip(&g) {
            prop_assert!((-0.5..=0.5).contains(&x));
            if x <= -0.5 + 1e-9 {
                prop_assert!(gj >= -1e-8, "at the lower bound the gradient points inward: {gj}");
            } else if x >= 0.5 - 1e-9 {
                prop_assert!(gj <= 1e-8, "at the upper bound: {gj}");
            } else {
                prop_assert!(gj.abs() <= 1e-8, "interior: {gj}");
            }
        }
    }

    #[test]
    fn ista_decreases_and_agrees_with_fista(x in any_matrix(5..20, 1..8, 2.0), seed_y in proptest::collection::vec(-3.0f64..3.0, 20), lambda in 0.01f64..0.5) {
        let n = x.nrows();
        let y = Array1::from(seed_y[..n].to_vec());
        let ls = Ls { x: x.clone(), y };
        let s = linalg::singular_values(&x).expect("finite");
        let l = (s[0] * s[0] / n as f64).max(1e-3);
        let w0 = Array1::zeros(x.ncols());
        let stop = exact().max_iter(200_000).g_tol(1e-9);
        let is = optim::ista(&ls, &w0, lambda, ProxStep::Lipschitz(l), stop).expect("valid");
        let fs = optim::fista(&ls, &w0, lambda, ProxStep::Lipschitz(l), stop).expect("valid");
        prop_assert!(is.history.windows(2).all(|p| p[1] <= p[0] + 1e-14 * p[0].abs().max(1.0)));
        // Both reach the same optimal value (the minimiser need not be unique when p > n or X is
        // rank deficient, the value is).
        prop_assert!((is.value - fs.value).abs() <= 1e-7 * is.value.abs().max(1.0), "{} vs {}", is.value, fs.value);
        // Optimality conditions at the ISTA solution.
        let c = -ls.gradient(&is.x);
        for (&cj, &wj) in c.iter().zip(&is.x) {
            if wj != 0.0 {
                prop_assert!((cj - lambda * wj.signum()).abs() <= 1e-7);
            } else {
                prop_assert!(cj.abs() <= lambda + 1e-7);
            }
        }
    }

    #[test]
    fn momentum_optimizers_converge_on_spd_quadratics((a, b) in spd_problem()) {
        let want = linalg::solve(&a, &b).expect("SPD");
        let l = lmax(&a);
        let kinds = [
            OptimizerKind::Momentum { lr: 0.5 / l, beta: 0.5 },
            OptimizerKind::Nesterov { lr: 0.5 / l, beta: 0.5 },
            OptimizerKind::Sgd { lr: 1.0 / l },
        ];
        for kind in kinds {
            let mut opt = kind.build::<f64>().expect("valid");
            let mut w = Array1::<f64>::zeros(b.len()).into_dyn();
            for _ in 0..3000 {
                let g = (a.dot(&w.view().into_dimensionality::<ndarray::Ix1>().expect("1-D")) - &b).into_dyn();
                opt.step(0, &mut w, &g).expect("valid");
            }
            let w1 = w.into_dimensionality::<ndarray::Ix1>().expect("1-D");
            prop_assert!(dist(&w1, &want) <= 1e-8 * optim::norm2(&want).max(1.0), "{kind:?}");
        }
    }
}

#[test]
fn minibatch_is_deterministic_for_a_seed_and_thread_count_independent() {
    // The solver is sequential; it must not depend on the rayon pool either.
    struct Mean(Vec<f64>);
    impl optim::StochasticObjective<f64> for Mean {
        fn dim(&self) -> usize {
            1
        }
        fn n_samples(&self) -> usize {
            self.0.len()
        }
        fn batch_value(&self, w: &ArrayRef1<f64>, b: &[usize]) -> f64 {
            b.iter()
                .map(|&i| 0.5 * (w[0] - self.0[i]).powi(2))
                .sum::<f64>()
                / b.len() as f64
        }
        fn batch_gradient(&self, w: &ArrayRef1<f64>, b: &[usize]) -> Array1<f64> {
            Array1::from_elem(
                1,
                b.iter().map(|&i| w[0] - self.0[i]).sum::<f64>() / b.len() as f64,
            )
        }
    }
    let obj = Mean((0..50).map(|i| (i as f64 * 0.37).sin()).collect());
    let run = || {
        optim::minibatch_gd(
            &obj,
            &Array1::zeros(1),
            7,
            StepSize::InverseSqrtT(0.5),
            exact().max_iter(20),
            99,
        )
        .expect("valid")
    };
    let one = ndlearn_core::par::with_threads(1, run).expect("pool");
    let two = ndlearn_core::par::with_threads(2, run).expect("pool");
    assert_eq!(one.x, two.x);
    assert_eq!(one.history, two.history);
}
