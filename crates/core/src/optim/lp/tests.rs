//! Unit tests of the LP solver.

use super::*;
use ndarray::array;

fn empty(n: usize) -> (Array2<f64>, Array1<f64>) {
    (Array2::zeros((0, n)), Array1::zeros(0))
}

#[test]
fn textbook_maximisation() {
    // max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18 (Hillier–Lieberman): optimum (2, 6), 36.
    let a = array![[1.0, 0.0], [0.0, 2.0], [3.0, 2.0]];
    let b = array![4.0, 12.0, 18.0];
    for rule in [PivotRule::Bland, PivotRule::Largest] {
        let r = LinearProgram::new(&array![-3.0f64, -5.0])
            .inequalities(&a, &b)
            .pivot_rule(rule)
            .solve()
            .expect("valid");
        assert_eq!(r.status, LpStatus::Optimal);
        assert!(
            (r.x[0] - 2.0).abs() < 1e-12 && (r.x[1] - 6.0).abs() < 1e-12,
            "{}",
            r.x
        );
        assert!((r.objective + 36.0).abs() < 1e-12);
        // Duals (by hand): y = (0, 1.5, 1) for the rows of max; here μ = (0, 1.5, 1).
        let d = r.duals.expect("optimal");
        assert!(
            (&d.ineq - &array![0.0, 1.5, 1.0])
                .iter()
                .all(|v| v.abs() < 1e-12),
            "{}",
            d.ineq
        );
    }
}

#[test]
fn equalities_free_variables_and_bounds() {
    // min x + 2y − z s.t. x + y + z = 4, x − y ≥ −1 (as −x + y ≤ 1), −2 ≤ x ≤ 3, y free,
    // z ≤ 2 (lo = −∞). z wants to be large: z = 2; then x + y = 2, minimise x + 2y with
    // y ≤ x + 1: y as small as possible → x = 3, y = −1: objective 3 − 2 − 2 = −1.
    let (a_ub, b_ub) = (array![[-1.0, 1.0, 0.0]], array![1.0]);
    let (a_eq, b_eq) = (array![[1.0, 1.0, 1.0]], array![4.0]);
    let bounds = [
        (-2.0, 3.0),
        (f64::NEG_INFINITY, f64::INFINITY),
        (f64::NEG_INFINITY, 2.0),
    ];
    let r = linprog(&array![1.0, 2.0, -1.0], &a_ub, &b_ub, &a_eq, &b_eq, &bounds).expect("ok");
    assert_eq!(r.status, LpStatus::Optimal);
    assert!(
        (&r.x - &array![3.0, -1.0, 2.0])
            .iter()
            .all(|v| v.abs() < 1e-12),
        "{}",
        r.x
    );
    assert!((r.objective + 1.0).abs() < 1e-12);
    let d = r.duals.expect("optimal");
    // Stationarity: c + A_ubᵀμ + A_eqᵀλ − ν_lo + ν_hi = 0.
    let st =
        array![1.0, 2.0, -1.0] + a_ub.t().dot(&d.ineq) + a_eq.t().dot(&d.eq) - &d.lower + &d.upper;
    assert!(st.iter().all(|v| v.abs() < 1e-12), "{st}");
    assert!(
        d.ineq
            .iter()
            .chain(d.lower.iter())
            .chain(d.upper.iter())
            .all(|&v| v >= -1e-12)
    );
}

#[test]
fn infeasible_unbounded_and_empty_bounds() {
    // x + y ≤ 1 and x + y ≥ 3 (as −x − y ≤ −3), x, y ≥ 0.
    let a = array![[1.0, 1.0], [-1.0, -1.0]];
    let r = LinearProgram::new(&array![1.0, 1.0])
        .inequalities(&a, &array![1.0, -3.0])
        .solve()
        .expect("ok");
    assert_eq!(r.status, LpStatus::Infeasible);
    assert_eq!(r.objective, f64::INFINITY);
    assert!(r.duals.is_none());
    // min −x s.t. x − y ≤ 1, x, y ≥ 0: unbounded along (1, 1).
    let r = LinearProgram::new(&array![-1.0, 0.0])
        .inequalities(&array![[1.0, -1.0]], &array![1.0])
        .solve()
        .expect("ok");
    assert_eq!(r.status, LpStatus::Unbounded);
    assert_eq!(r.objective, f64::NEG_INFINITY);
    // lo > hi: infeasible without pivoting.
    let r = LinearProgram::new(&array![1.0])
        .bounds(vec![(2.0, 1.0)])
        .solve()
        .expect("ok");
    assert_eq!((r.status, r.n_iter), (LpStatus::Infeasible, 0));
    // Inconsistent equalities 0·x = 1.
    let r = LinearProgram::new(&array![1.0])
        .equalities(&array![[0.0]], &array![1.0])
        .solve()
        .expect("ok");
    assert_eq!(r.status, LpStatus::Infeasible);
}

#[test]
fn redundant_equalities_and_degenerate_vertex() {
    // x + y = 2 twice (redundant), min x − y, 0 ≤ x, y ≤ 5: optimum (0, 2), −2.
    let (a_ub, b_ub) = empty(2);
    let r = linprog(
        &array![1.0, -1.0],
        &a_ub,
        &b_ub,
        &array![[1.0, 1.0], [2.0, 2.0]],
        &array![2.0, 4.0],
        &[(0.0, 5.0)],
    )
    .expect("ok");
    assert_eq!(r.status, LpStatus::Optimal);
    assert!(
        (r.x[0]).abs() < 1e-12 && (r.x[1] - 2.0).abs() < 1e-12,
        "{}",
        r.x
    );
    // Degenerate: many constraints through the optimum (0, 0) of min x + y.
    let a = array![
        [-1.0, 0.0],
        [0.0, -1.0],
        [-1.0, -1.0],
        [-1.0, -2.0],
        [-2.0, -1.0]
    ];
    let r = LinearProgram::new(&array![1.0, 1.0])
        .inequalities(&a, &Array1::zeros(5))
        .bounds(vec![(f64::NEG_INFINITY, f64::INFINITY)])
        .solve()
        .expect("ok");
    assert_eq!(r.status, LpStatus::Optimal);
    assert!(r.x.iter().all(|v| v.abs() < 1e-12), "{}", r.x);
}

#[test]
fn bounds_only_fixed_variables_and_no_rows() {
    // min x0 − x1 + 2 x2 with 0 ≤ x0, x1 ≤ 1 and x2 fixed at 1.5: (0, 1, 1.5), value 2.
    let lp = LinearProgram::new(&array![1.0f64, -1.0, 2.0]).bounds(vec![
        (0.0, 1.0),
        (0.0, 1.0),
        (1.5, 1.5),
    ]);
    let r = lp.solve().expect("ok");
    assert_eq!(r.status, LpStatus::Optimal);
    assert!(
        (&r.x - &array![0.0, 1.0, 1.5])
            .iter()
            .all(|v| v.abs() < 1e-12),
        "{}",
        r.x
    );
    assert!((r.objective - 2.0).abs() < 1e-12);
    let k = lp.kkt_residuals(&r).expect("duals");
    assert!(k.max < 1e-12, "{k:?}");
    // No rows at all: a free variable with non-zero cost is unbounded; at its bound it is
    // optimal.
    let free = LinearProgram::new(&array![1.0f64]).bounds(vec![(f64::NEG_INFINITY, f64::INFINITY)]);
    assert_eq!(free.solve().expect("ok").status, LpStatus::Unbounded);
    let r = LinearProgram::new(&array![1.0f64])
        .bounds(vec![(-3.0, f64::INFINITY)])
        .solve()
        .expect("ok");
    assert_eq!((r.status, r.x[0]), (LpStatus::Optimal, -3.0));
    // kkt_residuals refuses a result without duals.
    let inf = LinearProgram::new(&array![1.0f64]).bounds(vec![(2.0, 1.0)]);
    let ri = inf.solve().expect("ok");
    assert!(inf.kkt_residuals(&ri).is_err());
}

#[test]
fn beale_cycling_example_terminates() {
    // Beale's (1955) example, which cycles under the largest-coefficient rule without
    // anti-cycling: min −3/4 x4 + 20 x5 − 1/2 x6 + 6 x7 with three rows. By hand, at
    // x4 = 1, x6 = 1 (x5 = x7 = 0) the rows are −3/4 ≤ 0, 0 ≤ 0, 1 ≤ 1 and the objective
    // is −3/4 − 1/2 = −5/4, the known optimum.
    let c = array![-0.75f64, 20.0, -0.5, 6.0];
    let a = array![
        [0.25, -8.0, -1.0, 9.0],
        [0.5, -12.0, -0.5, 3.0],
        [0.0, 0.0, 1.0, 0.0]
    ];
    let b = array![0.0, 0.0, 1.0];
    for rule in [PivotRule::Bland, PivotRule::Largest] {
        let r = LinearProgram::new(&c)
            .inequalities(&a, &b)
            .pivot_rule(rule)
            .solve()
            .expect("ok");
        assert_eq!(r.status, LpStatus::Optimal);
        assert!(
            (r.objective + 1.25).abs() < 1e-12,
            "{rule:?}: {}",
            r.objective
        );
    }
}

#[test]
fn max_iter_and_errors() {
    let r = LinearProgram::new(&array![-3.0, -5.0])
        .inequalities(
            &array![[1.0, 0.0], [0.0, 2.0], [3.0, 2.0]],
            &array![4.0, 12.0, 18.0],
        )
        .max_iter(1)
        .solve()
        .expect("ok");
    assert_eq!(r.status, LpStatus::MaxIter);
    let c = array![1.0, 1.0];
    assert!(
        LinearProgram::new(&Array1::<f64>::zeros(0))
            .solve()
            .is_err()
    );
    assert!(LinearProgram::new(&array![f64::NAN]).solve().is_err());
    assert!(
        LinearProgram::new(&c)
            .inequalities(&array![[1.0]], &array![1.0])
            .solve()
            .is_err()
    );
    assert!(
        LinearProgram::new(&c)
            .equalities(&array![[1.0, 1.0]], &array![1.0, 2.0])
            .solve()
            .is_err()
    );
    assert!(
        LinearProgram::new(&c)
            .inequalities(&array![[1.0, f64::INFINITY]], &array![1.0])
            .solve()
            .is_err()
    );
    assert!(
        LinearProgram::new(&c)
            .bounds(vec![(0.0, 1.0); 3])
            .solve()
            .is_err()
    );
    assert!(
        LinearProgram::new(&c)
            .bounds(vec![(f64::NAN, 1.0)])
            .solve()
            .is_err()
    );
    assert!(
        LinearProgram::new(&c)
            .bounds(vec![(f64::INFINITY, f64::INFINITY)])
            .solve()
            .is_err()
    );
    assert!(LinearProgram::new(&c).max_iter(0).solve().is_err());
}

#[test]
fn lad_regression_and_f32() {
    // Least absolute deviations through 5 points with one outlier: min Σ|yᵢ − a − b xᵢ|
    // as an LP over (a, b free; u⁺, u⁻ ≥ 0). The LAD line passes through two data points;
    // (0,1), (1,3), (2,5), (3,7) are collinear (y = 1 + 2x), so it is that line.
    let xs = [0.0, 1.0, 2.0, 3.0, 4.0];
    let ys = [1.0, 3.0, 5.0, 7.0, 30.0];
    let n = xs.len();
    let mut a_eq = Array2::zeros((n, 2 + 2 * n));
    let mut c = Array1::zeros(2 + 2 * n);
    for i in 0..n {
        a_eq[[i, 0]] = 1.0;
        a_eq[[i, 1]] = xs[i];
        a_eq[[i, 2 + i]] = 1.0;
        a_eq[[i, 2 + n + i]] = -1.0;
        c[2 + i] = 1.0;
        c[2 + n + i] = 1.0;
    }
    let mut bounds = vec![(0.0, f64::INFINITY); 2 + 2 * n];
    bounds[0] = (f64::NEG_INFINITY, f64::INFINITY);
    bounds[1] = (f64::NEG_INFINITY, f64::INFINITY);
    let (a_ub, b_ub) = empty(2 + 2 * n);
    let y = Array1::from(ys.to_vec());
    let r = linprog(&c, &a_ub, &b_ub, &a_eq, &y, &bounds).expect("ok");
    assert_eq!(r.status, LpStatus::Optimal);
    assert!(
        (r.x[0] - 1.0).abs() < 1e-12 && (r.x[1] - 2.0).abs() < 1e-12,
        "{}",
        r.x
    );
    assert!((r.objective - 21.0).abs() < 1e-12);
    // f32.
    let bounds32: Vec<(f32, f32)> = bounds.iter().map(|&(l, h)| (l as f32, h as f32)).collect();
    let r32 = linprog(
        &c.mapv(|v| v as f32),
        &a_ub.mapv(|v| v as f32),
        &b_ub.mapv(|v| v as f32),
        &a_eq.mapv(|v| v as f32),
        &y.mapv(|v| v as f32),
        &bounds32,
    )
    .expect("ok");
    assert_eq!(r32.status, LpStatus::Optimal);
    assert!((r32.x[0] - 1.0).abs() < 1e-4 && (r32.x[1] - 2.0).abs() < 1e-4);
}
