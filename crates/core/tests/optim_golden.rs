//! The constrained and second-order solvers of `ndlearn_core::optim` against scipy / scikit-learn
//! (`datasets/golden/core/optim.json`, written by `scripts/golden/core_optim.py`).
//!
//! * LP (`lp_*`, `lad_*`): scipy `linprog(method="highs")`; objective to 1e-9 relative, `x` to
//!   1e-7 where the optimum is unique, KKT residuals of our multipliers ~0, both pivot rules.
//! * QP (`qp_*`): SLSQP refined by an exact active-set KKT solve; objective to 1e-8 relative,
//!   `x` to 1e-6 where unique, KKT residuals ~0.
//! * Logistic regression (`logistic_*`): scikit-learn's `newton-cholesky` at `tol = 1e-12`;
//!   Newton's method and L-BFGS on the same objective agree to 1e-6.

use ndarray::{Array1, Array2, ArrayRef1, Axis, s};
use ndlearn_core::optim::{
    LbfgsOptions, LinearProgram, LpStatus, NewtonOptions, Objective, PivotRule, QpStatus,
    QuadraticProgram, StopCriteria, lbfgs, newton,
};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "optim")
}

/// A matrix field that may be empty (`[]` = no rows, `n` columns).
fn matrix_n(case: &Case, field: &str, n: usize) -> Array2<f64> {
    let m = case.matrix(field);
    if m.nrows() == 0 {
        Array2::zeros((0, n))
    } else {
        m
    }
}

/// `(lo, hi)` with the `*_inf` flags decoded.
fn bounds(case: &Case) -> (Array1<f64>, Array1<f64>) {
    let mut lo = case.vector("lo");
    let mut hi = case.vector("hi");
    for (j, f) in case.usize_vector("lo_inf").into_iter().enumerate() {
        if f == 1 {
            lo[j] = f64::NEG_INFINITY;
        }
    }
    for (j, f) in case.usize_vector("hi_inf").into_iter().enumerate() {
        if f == 1 {
            hi[j] = f64::INFINITY;
        }
    }
    (lo, hi)
}

fn scale(v: &Array1<f64>) -> f64 {
    v.iter().fold(1.0f64, |m, x| m.max(x.abs()))
}

#[test]
fn lp_matches_scipy_highs() {
    let g = golden();
    let cases = g.cases_with_prefix("lp_");
    assert!(cases.len() >= 7);
    for case in cases {
        let c = case.vector("c");
        let n = c.len();
        let (lo, hi) = bounds(case);
        let bnds: Vec<(f64, f64)> = lo.iter().zip(hi.iter()).map(|(&l, &h)| (l, h)).collect();
        let lp = LinearProgram::new(&c)
            .inequalities(&matrix_n(case, "a_ub", n), &case.vector("b_ub"))
            .equalities(&matrix_n(case, "a_eq", n), &case.vector("b_eq"))
            .bounds(bnds.clone());
        for rule in [PivotRule::Largest, PivotRule::Bland] {
            let name = format!("{} ({rule:?})", case.name());
            let r = lp.clone().pivot_rule(rule).solve().expect("valid LP");
            let status = match r.status {
                LpStatus::Optimal => "optimal",
                LpStatus::Infeasible => "infeasible",
                LpStatus::Unbounded => "unbounded",
                _ => "max_iter",
            };
            assert_eq!(status, case.string("status"), "{name}");
            if status != "optimal" {
                continue;
            }
            let obj = case.scalar("objective");
            assert_close_scalar(r.objective, obj, 1e-9, 1e-9, &name);
            if case.usize("x_unique") == 1 {
                assert_close(&r.x, &case.vector("x"), 1e-7, 1e-7, &name);
            }
            let kkt = lp.kkt_residuals(&r).expect("optimal result has duals");
            assert!(
                kkt.max <= 1e-9 * scale(&c).max(scale(&case.vector("b_ub"))),
                "{name}: {kkt:?}"
            );
        }
        // f32: same problem, looser tolerance.
        if case.string("status") == "optimal" {
            let to32 = |a: &Array2<f64>| a.mapv(|v| v as f32);
            let r = LinearProgram::new(&c.mapv(|v| v as f32))
                .inequalities(
                    &to32(&matrix_n(case, "a_ub", n)),
                    &case.vector("b_ub").mapv(|v| v as f32),
                )
                .equalities(
                    &to32(&matrix_n(case, "a_eq", n)),
                    &case.vector("b_eq").mapv(|v| v as f32),
                )
                .bounds(bnds.iter().map(|&(l, h)| (l as f32, h as f32)).collect())
                .solve()
                .expect("valid");
            assert_eq!(r.status, LpStatus::Optimal, "{} f32", case.name());
            assert_close_scalar(
                r.objective,
                case.scalar("objective"),
                1e-4,
                1e-4,
                case.name(),
            );
        }
    }
}

/// `min Σ|yᵢ − b₀ − xᵢ·b|` as the LP of the script: variables `(b₀, b, u⁺, u⁻)`.
fn lad_program(x: &Array2<f64>, y: &Array1<f64>) -> LinearProgram<f64> {
    let (n, p) = x.dim();
    let nv = 1 + p + 2 * n;
    let mut a = Array2::zeros((n, nv));
    a.column_mut(0).fill(1.0);
    a.slice_mut(s![.., 1..1 + p]).assign(x);
    for i in 0..n {
        a[[i, 1 + p + i]] = 1.0;
        a[[i, 1 + p + n + i]] = -1.0;
    }
    let mut c = Array1::zeros(nv);
    c.slice_mut(s![1 + p..]).fill(1.0);
    let mut bnds = vec![(0.0, f64::INFINITY); nv];
    for b in bnds.iter_mut().take(1 + p) {
        *b = (f64::NEG_INFINITY, f64::INFINITY);
    }
    LinearProgram::new(&c).equalities(&a, y).bounds(bnds)
}

#[test]
fn lad_regression_matches_scipy_highs() {
    let g = golden();
    let cases = g.cases_with_prefix("lad_");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let x = case.matrix("x_data");
        let y = case.vector("y_data");
        let p = x.ncols();
        let lp = lad_program(&x, &y);
        let r = lp.solve().expect("valid");
        assert_eq!(r.status, LpStatus::Optimal, "{}", case.name());
        assert_close_scalar(
            r.objective,
            case.scalar("objective"),
            1e-9,
            1e-9,
            case.name(),
        );
        let coef = r.x.slice(s![..1 + p]).to_owned();
        if case.usize("coef_unique") == 1 {
            let exp = case.vector("coef");
            assert_close(&coef, &exp, 1e-7, 1e-7 * scale(&exp), case.name());
        }
        // The objective is the sum of absolute residuals of the fitted line.
        let resid = &y - &(x.dot(&coef.slice(s![1..])) + coef[0]);
        assert_close_scalar(
            resid.mapv(f64::abs).sum(),
            case.scalar("objective"),
            1e-9,
            1e-9,
            case.name(),
        );
        let kkt = lp.kkt_residuals(&r).expect("duals");
        assert!(kkt.max <= 1e-8 * scale(&y), "{}: {kkt:?}", case.name());
        eprintln!("{}: {} pivots", case.name(), r.n_iter);
    }
}

#[test]
fn qp_matches_reference() {
    let g = golden();
    let cases = g.cases_with_prefix("qp_");
    assert!(cases.len() >= 7);
    for case in cases {
        let q = case.matrix("q");
        let c = case.vector("c");
        let n = c.len();
        let (lo, hi) = bounds(case);
        let qp = QuadraticProgram::new(&q, &c)
            .equalities(&matrix_n(case, "a_eq", n), &case.vector("b_eq"))
            .bounds(&lo, &hi);
        let r = qp.solve().expect("valid QP");
        assert_eq!(r.status, QpStatus::Optimal, "{}", case.name());
        let obj = case.scalar("objective");
        assert_close_scalar(r.objective, obj, 1e-8, 1e-10, case.name());
        if case.usize("x_unique") == 1 {
            assert_close(&r.x, &case.vector("x"), 1e-6, 1e-6, case.name());
        }
        let kkt = qp.kkt_residuals(&r).expect("ok");
        assert!(kkt.max <= 1e-9 * scale(&c), "{}: {kkt:?}", case.name());
        assert_eq!(kkt, r.kkt);
        // Without polishing the interior-point answer alone is close too.
        let raw = qp.clone().polish(false).solve().expect("valid");
        assert_close_scalar(raw.objective, obj, 1e-8, 1e-9, case.name());
        if case.usize("x_unique") == 1 {
            assert_close(&raw.x, &case.vector("x"), 1e-4, 1e-4, case.name());
        }
        eprintln!(
            "{}: {} iterations, polished {}",
            case.name(),
            r.n_iter,
            r.polished
        );
    }
}

#[test]
fn svm_dual_structure() {
    // For the SVM duals: w = Σ αᵢyᵢxᵢ and Σ αᵢyᵢ = 0; the margin points (0 < α < C) satisfy
    // yᵢ(w·xᵢ + b) = 1 for one common b (catalog S-02 / invariant 22).
    let g = golden();
    for case in g.cases_with_prefix("qp_svm_") {
        let (x, y, c_box) = (
            case.matrix("x_data"),
            case.vector("y_data"),
            case.scalar("C"),
        );
        let n = y.len();
        let q = (&y.clone().insert_axis(Axis(1)) * &y.clone().insert_axis(Axis(0))) * x.dot(&x.t());
        let r = QuadraticProgram::new(&q, &Array1::from_elem(n, -1.0))
            .equalities(&y.clone().insert_axis(Axis(0)), &Array1::zeros(1))
            .bounds(&Array1::zeros(n), &Array1::from_elem(n, c_box))
            .solve()
            .expect("valid");
        let alpha = &r.x;
        assert!(alpha.dot(&y).abs() < 1e-10, "{}", case.name());
        let w = x.t().dot(&(alpha * &y));
        let tol = 1e-7 * c_box;
        let biases: Vec<f64> = (0..n)
            .filter(|&i| alpha[i] > tol && alpha[i] < c_box - tol)
            .map(|i| y[i] - w.dot(&x.row(i)))
            .collect();
        assert!(
            !biases.is_empty(),
            "{}: no margin support vector",
            case.name()
        );
        let spread = biases
            .iter()
            .fold(0.0f64, |m, b| m.max((b - biases[0]).abs()));
        assert!(spread < 1e-8, "{}: biases {biases:?}", case.name());
    }
}

/// `Σᵢ log(1 + exp(−sᵢzᵢ)) + ‖w‖²/(2C)`, `zᵢ = xᵢ·w + b`, `sᵢ = 2yᵢ − 1`; variables `(w, b)`.
struct Logistic {
    x1: Array2<f64>,
    s: Array1<f64>,
    inv_c: f64,
}

impl Logistic {
    fn new(x: &Array2<f64>, y: &[usize], c: f64) -> Self {
        let (n, p) = x.dim();
        let mut x1 = Array2::ones((n, p + 1));
        x1.slice_mut(s![.., ..p]).assign(x);
        Self {
            x1,
            s: y.iter().map(|&v| 2.0 * v as f64 - 1.0).collect(),
            inv_c: 1.0 / c,
        }
    }
    fn penalty_mask(&self) -> Array1<f64> {
        let mut m = Array1::from_elem(self.x1.ncols(), self.inv_c);
        let last = m.len() - 1;
        m[last] = 0.0;
        m
    }
}

impl Objective<f64> for Logistic {
    fn dim(&self) -> usize {
        self.x1.ncols()
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        let z = self.x1.dot(w);
        let loss: f64 = z
            .iter()
            .zip(self.s.iter())
            .map(|(&z, &s)| {
                let t = -s * z;
                if t > 0.0 {
                    t + (-t).exp().ln_1p()
                } else {
                    t.exp().ln_1p()
                }
            })
            .sum();
        loss + 0.5 * (w * w * &self.penalty_mask()).sum()
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        let z = self.x1.dot(w);
        // d/dz log(1 + exp(−s z)) = −s σ(−s z).
        let d = Array1::from_shape_fn(z.len(), |i| -self.s[i] / (1.0 + (self.s[i] * z[i]).exp()));
        self.x1.t().dot(&d) + w * &*self.penalty_mask()
    }
    fn hessian(&self, w: &ArrayRef1<f64>) -> Option<Array2<f64>> {
        let z = self.x1.dot(w);
        let p = z.mapv(|v| 1.0 / (1.0 + (-v).exp()));
        let weights = p.mapv(|v| v * (1.0 - v));
        let xw = &self.x1 * &weights.insert_axis(Axis(1));
        Some(self.x1.t().dot(&xw) + Array2::from_diag(&self.penalty_mask()))
    }
}

#[test]
fn logistic_newton_and_lbfgs_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("logistic_");
    assert_eq!(cases.len(), 2);
    for case in cases {
        let x = case.matrix("x_data");
        let y = case.usize_vector("y_data");
        let obj = Logistic::new(&x, &y, case.scalar("C"));
        let mut expect = case.vector("coef").to_vec();
        expect.push(case.scalar("intercept"));
        let expect = Array1::from(expect);
        let w0 = Array1::zeros(obj.dim());
        let tight = StopCriteria::default().g_tol(1e-10).f_tol(0.0).x_tol(0.0);
        let rn = newton(&obj, &w0, &NewtonOptions::default().stop(tight)).expect("ok");
        assert!(rn.converged, "{}: {rn:?}", case.name());
        assert_close(&rn.x, &expect, 1e-6, 1e-7, case.name());
        assert_close_scalar(rn.value, case.scalar("objective"), 1e-11, 0.0, case.name());
        let rl = lbfgs(&obj, &w0, &LbfgsOptions::default().stop(tight)).expect("ok");
        assert!(rl.converged, "{}: {rl:?}", case.name());
        assert_close(&rl.x, &expect, 1e-6, 1e-7, case.name());
        assert_close_scalar(rl.value, case.scalar("objective"), 1e-11, 0.0, case.name());
        eprintln!(
            "{}: Newton {} iterations, L-BFGS {}",
            case.name(),
            rn.n_iter,
            rl.n_iter
        );
        // The analytic gradient agrees with finite differences.
        let err = ndlearn_core::optim::check_gradient(&obj, &rl.x.mapv(|v| v + 0.3)).expect("ok");
        assert!(err < 1e-7, "{err}");
    }
}
