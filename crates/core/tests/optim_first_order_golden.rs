//! The first-order solvers of `ndlearn_core::optim` against optima found by scipy and
//! scikit-learn (`datasets/golden/core/optim_first_order.json`, written by
//! `scripts/golden/core_optim_first_order.py`): lasso (sklearn coordinate descent) by ISTA and
//! FISTA, L2-regularised logistic regression (sklearn lbfgs) by gradient descent and
//! mini-batch SGD, box- and ball-constrained quadratics (scipy L-BFGS-B / SLSQP, polished) by
//! projected gradient, and the simplex projection (root finding) by the sort-based algorithm.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::linalg;
use ndlearn_core::optim::{
    self, Bound, Objective, Projection, ProxStep, StepSize, StochasticObjective, StopCriteria,
    StopReason,
};
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "optim_first_order")
}

fn only_g(tol: f64, max_iter: usize) -> StopCriteria {
    StopCriteria::default()
        .max_iter(max_iter)
        .f_tol(0.0)
        .x_tol(0.0)
        .g_tol(tol)
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

/// Mean log-loss + (α/2)‖w‖², labels 0/1.
struct Logistic {
    x: Array2<f64>,
    y: Array1<f64>,
    alpha: f64,
}

impl Logistic {
    fn terms(&self, w: &ArrayRef1<f64>, rows: &[usize]) -> (f64, Array1<f64>) {
        let mut v = 0.0;
        let mut g = Array1::zeros(w.len());
        for &i in rows {
            let z = self.x.row(i).dot(w);
            v += z.max(0.0) + (-z.abs()).exp().ln_1p() - self.y[i] * z;
            let p = 1.0 / (1.0 + (-z).exp());
            g.scaled_add(p - self.y[i], &self.x.row(i));
        }
        let m = rows.len() as f64;
        (
            v / m + 0.5 * self.alpha * w.dot(w),
            g / m + &(w * self.alpha),
        )
    }
    fn all(&self) -> Vec<usize> {
        (0..self.x.nrows()).collect()
    }
}

impl Objective<f64> for Logistic {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        self.terms(w, &self.all()).0
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        self.terms(w, &self.all()).1
    }
}

impl StochasticObjective<f64> for Logistic {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn n_samples(&self) -> usize {
        self.x.nrows()
    }
    fn batch_value(&self, w: &ArrayRef1<f64>, batch: &[usize]) -> f64 {
        self.terms(w, batch).0
    }
    fn batch_gradient(&self, w: &ArrayRef1<f64>, batch: &[usize]) -> Array1<f64> {
        self.terms(w, batch).1
    }
}

/// `½wᵀAw − bᵀw`.
struct Quad {
    a: Array2<f64>,
    b: Array1<f64>,
}

impl Objective<f64> for Quad {
    fn dim(&self) -> usize {
        self.b.len()
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        0.5 * w.dot(&self.a.dot(w)) - self.b.dot(w)
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        self.a.dot(w) - &self.b
    }
}

fn lmax(a: &Array2<f64>) -> f64 {
    linalg::eigvalsh(a)
        .expect("symmetric")
        .iter()
        .fold(0.0f64, |m, &v| m.max(v))
}

#[test]
fn lasso_matches_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("lasso_") {
        let ls = Ls {
            x: case.matrix("x"),
            y: case.vector("y"),
        };
        let alpha = case.scalar("alpha");
        let want = case.vector("coef");
        let s = linalg::singular_values(&ls.x).expect("finite");
        let l = s[0] * s[0] / ls.x.nrows() as f64;
        let w0 = Array1::zeros(ls.dim());
        for (name, step) in [
            ("lipschitz", ProxStep::Lipschitz(l)),
            ("backtracking", ProxStep::default()),
        ] {
            let fs = optim::fista(&ls, &w0, alpha, step, only_g(1e-12, 200_000)).expect("valid");
            assert_eq!(fs.stop, StopReason::GradientNorm, "{} {name}", case.name());
            assert_close(
                &fs.x,
                &want,
                1e-7,
                1e-8,
                &format!("{} fista {name}", case.name()),
            );
            let is = optim::ista(&ls, &w0, alpha, step, only_g(1e-12, 400_000)).expect("valid");
            assert_eq!(is.stop, StopReason::GradientNorm, "{} {name}", case.name());
            assert_close(
                &is.x,
                &want,
                1e-7,
                1e-8,
                &format!("{} ista {name}", case.name()),
            );
            // The zeros of sklearn's solution are exact zeros here too.
            for (a, b) in fs.x.iter().zip(&want) {
                assert_eq!(*a == 0.0, *b == 0.0, "{} support", case.name());
            }
        }
    }
}

#[test]
fn logistic_l2_matches_sklearn() {
    let g = golden();
    let case = g.case("logistic_l2");
    let lg = Logistic {
        x: case.matrix("x"),
        y: case.vector("y"),
        alpha: case.scalar("alpha"),
    };
    let want = case.vector("coef");
    let w0 = Array1::zeros(3);
    // A constant step 1/L with L = ¼·λ_max(XᵀX/n) + α (a bound on the Hessian) reaches any
    // gradient tolerance; backtracking stops at the resolution floor of its decrease test
    // (‖∇f‖ ≈ √(2Lε|f|) ≈ 1e-8 here), so it is asked for 1e-7.
    let n = lg.x.nrows() as f64;
    let l = 0.25 * lmax(&(lg.x.t().dot(&lg.x) / n)) + lg.alpha;
    let gd = optim::gradient_descent(
        &lg,
        &w0,
        StepSize::Constant(1.0 / l),
        only_g(1e-11, 200_000),
    )
    .expect("valid");
    assert_eq!(gd.stop, StopReason::GradientNorm);
    // Strong convexity α = 0.05: ‖w − w*‖ ≤ ‖∇f‖/α for both solutions (sklearn's gradient is
    // below 1e-9).
    assert_close(&gd.x, &want, 0.0, 1e-7, "gradient descent, constant step");
    let bt = optim::gradient_descent(&lg, &w0, StepSize::backtracking(), only_g(1e-7, 100_000))
        .expect("valid");
    assert_eq!(bt.stop, StopReason::GradientNorm);
    assert_close(&bt.x, &want, 0.0, 3e-6, "gradient descent, backtracking");
    // Mini-batch SGD with a decaying step gets close (stochastic, so a loose tolerance).
    let sgd = optim::minibatch_gd(
        &lg,
        &w0,
        10,
        StepSize::InverseT(10.0),
        StopCriteria::default().max_iter(2000).f_tol(0.0).x_tol(0.0),
        5,
    )
    .expect("valid");
    assert_close(&sgd.x, &want, 0.0, 5e-3, "mini-batch sgd");
}

#[test]
fn box_qp_matches_scipy() {
    let g = golden();
    let case = g.case("box_qp");
    let q = Quad {
        a: case.matrix("a"),
        b: case.vector("b"),
    };
    let set = Projection::Box {
        lo: Bound::from(case.vector("lo").to_vec()),
        hi: Bound::from(case.vector("hi").to_vec()),
    };
    let want = case.vector("x");
    // The backtracking run is asked for less (its decrease test cannot resolve residuals near
    // √(ε|f|), |f| ≈ 10 here).
    for (step, tol, close) in [
        (StepSize::Constant(1.0 / lmax(&q.a)), 1e-11, 1e-10),
        (StepSize::backtracking(), 1e-6, 1e-6),
    ] {
        let r = optim::projected_gradient(
            &q,
            &Array1::zeros(q.dim()),
            &set,
            step,
            only_g(tol, 100_000),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::GradientNorm, "{step:?}");
        assert_close(&r.x, &want, 0.0, close, &format!("box {step:?}"));
    }
}

#[test]
fn ball_qp_matches_scipy() {
    let g = golden();
    let case = g.case("ball_qp");
    let q = Quad {
        a: case.matrix("a"),
        b: case.vector("b"),
    };
    let set = Projection::L2Ball {
        radius: case.scalar("radius"),
    };
    let want = case.vector("x");
    let r = optim::projected_gradient(
        &q,
        &Array1::zeros(q.dim()),
        &set,
        StepSize::Constant(1.0 / lmax(&q.a)),
        only_g(1e-11, 100_000),
    )
    .expect("valid");
    assert_eq!(r.stop, StopReason::GradientNorm);
    assert_close(&r.x, &want, 1e-9, 1e-10, "ball");
    // The multiplier: ∇f(w*) = −μ w*.
    let gq = q.gradient(&r.x);
    assert_close_scalar(
        -gq.dot(&r.x) / r.x.dot(&r.x),
        case.scalar("mu"),
        1e-8,
        1e-10,
        "mu",
    );
}

#[test]
fn simplex_projection_matches_root_finding() {
    let g = golden();
    for case in g.cases_with_prefix("simplex_") {
        let p = optim::project_simplex(&case.vector("v"), case.scalar("z")).expect("valid");
        assert_close(&p, &case.vector("p"), 1e-12, 1e-13, case.name());
        // f32 on the same input.
        let v32 = case.vector("v").mapv(|v| v as f32);
        let p32 = optim::project_simplex(&v32, case.scalar("z")).expect("valid");
        assert_close(&p32, &case.vector("p"), 1e-5, 1e-5, case.name());
    }
}
