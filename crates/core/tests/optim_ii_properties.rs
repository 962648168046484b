//! Property tests of the second-order and constrained solvers of `ndlearn_core::optim` (few
//! cases: CI has 2 cores).
//!
//! * Newton: one plain step solves a strictly convex quadratic (catalog invariant 29); L-BFGS
//!   reaches the same point.
//! * Finite differences agree with analytic gradients and Hessians.
//! * Golden section: the bracket shrinks by 0.618 per step (invariant 30).
//! * LP: random feasible bounded programs have zero KKT residual and are no worse than random
//!   feasible points; scaling `c` scales the optimum.
//! * QP: random PSD programs have zero KKT residual and beat random feasible points.
//! * Random restarts and coordinate descent are deterministic for 1 or 2 threads.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::optim::{
    self, CdOrder, CoordinateDescent, FnObjective, GOLDEN_SHRINK, LbfgsOptions, LinearProgram,
    LpStatus, NewtonOptions, QpStatus, QuadraticProgram, StopCriteria, finite_diff,
};
use ndlearn_core::{par, random};
use ndlearn_testkit::{config, max_abs_diff, spd_matrix};
use proptest::prelude::*;

fn vec_strategy(n: usize) -> impl Strategy<Value = Array1<f64>> {
    proptest::collection::vec(-3.0f64..3.0, n).prop_map(Array1::from)
}

fn quad_and_rhs() -> impl Strategy<Value = (Array2<f64>, Array1<f64>)> {
    spd_matrix(1..7).prop_flat_map(|a| {
        let n = a.nrows();
        (Just(a), vec_strategy(n))
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn newton_one_step_and_lbfgs_on_quadratics((a, b) in quad_and_rhs()) {
        let n = a.nrows();
        let (a1, b1, a2, b2, a3) = (a.clone(), b.clone(), a.clone(), b.clone(), a.clone());
        let obj = FnObjective::new(
            n,
            move |x: &ArrayRef1<f64>| 0.5 * x.dot(&a1.dot(x)) - b1.dot(x),
            move |x: &ArrayRef1<f64>| a2.dot(x) - &b2,
        )
        .with_hessian(move |_: &ArrayRef1<f64>| a3.clone());
        let exact = ndlearn_core::linalg::solve(&a, &b).expect("SPD");
        let plain = NewtonOptions::default()
            .damping(false)
            .backtracking(false)
            .stop(StopCriteria::default().max_iter(1).g_tol(0.0).f_tol(0.0).x_tol(0.0));
        let r = optim::newton(&obj, &Array1::from_elem(n, 0.7), &plain).expect("ok");
        prop_assert_eq!(r.n_iter, 1);
        prop_assert!(max_abs_diff(&r.x, &exact) < 1e-10);
        let opts = LbfgsOptions::default().stop(StopCriteria::default().g_tol(1e-11).f_tol(0.0).x_tol(0.0));
        let l = optim::lbfgs(&obj, &Array1::zeros(n), &opts).expect("ok");
        prop_assert!(l.converged);
        prop_assert!(max_abs_diff(&l.x, &exact) < 1e-9);
    }

    #[test]
    fn finite_differences_match_analytic(x in vec_strategy(4), w in vec_strategy(4)) {
        // f(x) = log Σ exp(wᵢxᵢ) + ½‖x‖²: ∇f = w∘p + x, H = diag(w²∘p) − (w∘p)(w∘p)ᵀ + I.
        let wf = w.clone();
        let f = move |v: &ArrayRef1<f64>| {
            let z = &*wf * v;
            let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            m + z.mapv(|t| (t - m).exp()).sum().ln() + 0.5 * v.dot(v)
        };
        let z = &w * &x;
        let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e = z.mapv(|t| (t - m).exp());
        let p = &e / e.sum();
        let wp = &w * &p;
        let grad = &wp + &x;
        let mut hess = Array2::from_diag(&(&w * &wp)) - wp.view().insert_axis(ndarray::Axis(1)).dot(&wp.view().insert_axis(ndarray::Axis(0)));
        hess.diag_mut().mapv_inplace(|d| d + 1.0);
        let g = finite_diff::gradient(&f, &x);
        prop_assert!(max_abs_diff(&g, &grad) < 1e-8 * (1.0 + grad.iter().fold(0.0f64, |a, v| a.max(v.abs()))));
        let h = finite_diff::hessian(&f, &x);
        prop_assert!(max_abs_diff(&h, &hess) < 1e-5 * (1.0 + w.iter().fold(0.0f64, |a, v| a.max(v * v))));
        let obj = FnObjective::new(4, f, move |v: &ArrayRef1<f64>| {
            let z = &*w * v;
            let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let e = z.mapv(|t| (t - m).exp());
            &w * &(&e / e.sum()) + v
        });
        prop_assert!(optim::check_gradient(&obj, &x).expect("ok") < 1e-7);
    }

    #[test]
    fn golden_section_shrinks_by_the_golden_factor(a in -5.0f64..0.0, len in 0.5f64..10.0, t in 0.0f64..1.0, k in 1usize..40) {
        let b = a + len;
        let m = a + t * len;
        let r = optim::golden_section(|x: f64| (x - m).powi(2), a, b, 1e-300, k).expect("ok");
        let expect = len * GOLDEN_SHRINK.powi(r.n_iter as i32);
        prop_assert!(((r.b - r.a) - expect).abs() <= 1e-9 * len);
        prop_assert!(r.a <= m + 1e-12 && m <= r.b + 1e-12);
    }

    #[test]
    fn lp_random_programs_satisfy_kkt(seed in 0u64..10_000) {
        let mut rng = random::rng(seed);
        let (n, m_ub, m_eq) = (5, 6, 2);
        let mut draw = |r: usize, c: usize| Array2::from_shape_fn((r, c), |_| random::standard_normal::<f64>(&mut rng));
        let a_ub = draw(m_ub, n);
        let a_eq = draw(m_eq, n);
        let x0 = draw(n, 1).column(0).mapv(|v| 0.3 * v);
        let c = draw(n, 1).column(0).to_owned();
        let b_ub = a_ub.dot(&x0) + 0.5;
        let b_eq = a_eq.dot(&x0);
        let lp = LinearProgram::new(&c)
            .inequalities(&a_ub, &b_ub)
            .equalities(&a_eq, &b_eq)
            .bounds(vec![(-2.0, 2.0)]);
        let r = lp.solve().expect("valid");
        prop_assert_eq!(r.status, LpStatus::Optimal);
        let kkt = lp.kkt_residuals(&r).expect("duals");
        prop_assert!(kkt.max < 1e-9, "{:?}", kkt);
        // No worse than the known feasible point.
        prop_assert!(r.objective <= c.dot(&x0) + 1e-10);
        // Strong duality (catalog LT-10h): with the documented sign convention
        // c + A_ubᵀμ + A_eqᵀλ − ν_lo + ν_hi = 0, the dual objective
        // −μᵀb_ub − λᵀb_eq + ν_loᵀlo − ν_hiᵀhi equals the primal optimum.
        let d = r.duals.as_ref().expect("optimal LPs carry duals");
        let lo = Array1::from_elem(n, -2.0);
        let hi = Array1::from_elem(n, 2.0);
        let dual_obj = -d.ineq.dot(&b_ub) - d.eq.dot(&b_eq) + d.lower.dot(&lo) - d.upper.dot(&hi);
        prop_assert!((dual_obj - r.objective).abs() < 1e-8 * (1.0 + r.objective.abs()),
            "dual {} vs primal {}", dual_obj, r.objective);
        prop_assert!(d.ineq.iter().chain(d.lower.iter()).chain(d.upper.iter()).all(|&v| v >= -1e-12));
        // Scaling c by 3 scales the optimal value by 3.
        let r3 = LinearProgram::new(&(&c * 3.0))
            .inequalities(&a_ub, &b_ub)
            .equalities(&a_eq, &b_eq)
            .bounds(vec![(-2.0, 2.0)])
            .solve()
            .expect("valid");
        prop_assert!((r3.objective - 3.0 * r.objective).abs() < 1e-9 * (1.0 + r.objective.abs()));
    }

    #[test]
    fn qp_random_programs_satisfy_kkt(q in spd_matrix(2..8), seed in 0u64..10_000) {
        let n = q.nrows();
        // Make it only semidefinite half of the time.
        let q = if seed % 2 == 0 { q } else {
            let v = q.column(0).to_owned();
            v.view().insert_axis(ndarray::Axis(1)).dot(&v.view().insert_axis(ndarray::Axis(0)))
        };
        let mut rng = random::rng(seed);
        let c = Array1::from_shape_fn(n, |_| 3.0 * random::standard_normal::<f64>(&mut rng));
        let a = Array2::from_shape_fn((1, n), |_| random::standard_normal::<f64>(&mut rng));
        let lo = Array1::from_elem(n, -1.0);
        let hi = Array1::from_elem(n, 1.0);
        let b = a.dot(&Array1::from_elem(n, 0.1));
        let qp = QuadraticProgram::new(&q, &c).equalities(&a, &b).bounds(&lo, &hi);
        let r = qp.solve().expect("valid");
        prop_assert_eq!(r.status, QpStatus::Optimal);
        prop_assert!(r.kkt.max < 1e-8 * (1.0 + c.iter().fold(0.0f64, |m, v| m.max(v.abs()))), "{:?}", r.kkt);
        // Better than a feasible point.
        let xf = Array1::from_elem(n, 0.1);
        let f = |x: &Array1<f64>| 0.5 * x.dot(&q.dot(x)) + c.dot(x);
        prop_assert!(r.objective <= f(&xf) + 1e-9);
    }

    #[test]
    fn restarts_and_random_cd_are_thread_invariant(seed in 0u64..1000) {
        let obj = FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| (w[0] * 3.0).sin() + (w[1] * 2.0).cos() + 0.1 * w.dot(w),
            |w: &ArrayRef1<f64>| ndarray::array![3.0 * (w[0] * 3.0).cos() + 0.2 * w[0], -2.0 * (w[1] * 2.0).sin() + 0.2 * w[1]],
        );
        let lo = Array1::from_elem(2, -4.0);
        let hi = Array1::from_elem(2, 4.0);
        let run = |t| par::with_threads(t, || {
            optim::random_restarts(&lo, &hi, 6, seed, |_, x0| optim::lbfgs(&obj, &x0, &LbfgsOptions::default()))
        }).expect("pool").expect("ok");
        let (r1, r2) = (run(1), run(2));
        prop_assert_eq!(r1.best_index, r2.best_index);
        prop_assert_eq!(r1.best.value.to_bits(), r2.best.value.to_bits());
        // Seeded random-order coordinate descent on a diagonal-dominant quadratic.
        let cd = |t| par::with_threads(t, || {
            let mut w = Array1::zeros(3);
            let r = optim::coordinate_descent(
                &mut w,
                |j, w| { let o: f64 = (0..3).filter(|&k| k != j).map(|k| 0.3 * w[k]).sum(); (j as f64 + 1.0 - o) / 2.0 },
                &CoordinateDescent::default().tol(1e-13).order(CdOrder::Random { seed }),
            ).expect("ok");
            (w, r.n_iter)
        }).expect("pool");
        prop_assert_eq!(cd(1), cd(2));
    }

    /// Catalog LT-10e: for a convex problem every local optimum is global, so L-BFGS started
    /// anywhere ends at the same minimiser.
    #[test]
    fn convex_local_optimum_is_global((a, b) in quad_and_rhs(), seed in 0u64..1000) {
        let n = a.nrows();
        let (a1, b1, a2, b2) = (a.clone(), b.clone(), a.clone(), b.clone());
        let obj = FnObjective::new(
            n,
            move |w: &ArrayRef1<f64>| 0.5 * w.dot(&a1.dot(w)) - b1.dot(w),
            move |w: &ArrayRef1<f64>| a2.dot(w) - &b2,
        );
        let opts = LbfgsOptions::default();
        let mut found: Vec<Array1<f64>> = Vec::new();
        for i in 0..4 {
            let x0 = optim::random_start(&Array1::from_elem(n, -10.0), &Array1::from_elem(n, 10.0), seed, i);
            let r = optim::lbfgs(&obj, &x0, &opts).expect("valid");
            found.push(r.x);
        }
        let exact = ndlearn_core::linalg::solve(&a, &b).expect("SPD");
        for x in &found {
            prop_assert!(max_abs_diff(x, &exact) < 1e-5 * (1.0 + exact.iter().fold(0.0f64, |m, v| m.max(v.abs()))));
        }
    }
}
