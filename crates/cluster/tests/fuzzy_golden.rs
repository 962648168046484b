//! `FuzzyCMeans` against a plain numpy fuzzy c-means started from the same centres
//! (`datasets/golden/cluster/fuzzy.json`, written by `scripts/golden/cluster_fuzzy.py`).
//!
//! `FuzzyCMeans` takes a seed, not centres: it starts from the rows
//! `random::sample_without_replacement(&mut random::rng(seed), n, c)`. The script re-implements
//! that generator bit for bit and stores the rows (`init_rows`, checked here against ndlearn's
//! generator), so both run the same iteration. The reference values are the iteration's fixed
//! point (`centers`, `memberships`, `objective`, run to the rounding floor); our fit stops at
//! `tol`, and the tolerances follow from `tol` and the contraction rate `rho` of the membership
//! changes after the stopping round (measured on the reference trajectory, which ours follows up
//! to rounding):
//! * memberships `u_K − u* = Σ_{k≥K} (u_k − u_{k+1})`, each change at most `rho` times the one
//!   before: `|u_K − u*|_max ≤ tol·rho/(1 − rho)`, plus the rounding `n ε/(1 − rho)` (a centre
//!   update is a weighted mean over `n` rows, damped by the contraction);
//! * centres of round `K` are `C(u_{K−1})` with `|u_{K−1} − u*|_max ≤ tol/(1 − rho)` and `C`'s
//!   first-order constant `lipschitz_centers` (`max_j p Σ_i u_ij^{p−1}|x_i − c_j|_max / Σ_i u_ij^p`):
//!   `tol_c = lipschitz_centers·(tol/(1 − rho) + n ε/(1 − rho)) + n ε max|x|`;
//! * objective: `J(c) = sse(c, M(c))` is stationary at `c*` and bounded by the quadratic
//!   `sse(c, M*) = J* + Σ_j S_j |c_j − c*_j|²`, so `0 ≤ J(c_K) − J* ≤ max_j S_j · c d tol_c²`,
//!   plus the rounding `2 (n c + 10) ε J*` of two sums of `n c` positive terms;
//! * the round count equals the reference's (the script asserts the last change is below
//!   `tol(1 − 1e-4)` and the previous one above `tol(1 + 1e-4)`, margins no rounding closes);
//! * the sse after round 1 (`sse_first`): one round from the exact initial rows, centres to
//!   `n ε max|x|` per coordinate, so by Cauchy–Schwarz on `∇J = −2 Σ_i u_ij^p (x_i − c_j)`,
//!   `|ΔJ| ≤ 2 √(n J) · n ε max|x| √(c d) + 2 (n c + 10) ε J`.
//!
//! With `tol = 1e-9` these are ≈ 2e-9 (memberships) and ≈ 6e-9 (centres) on iris.

use ndarray::Array2;
use ndlearn_cluster::FuzzyCMeans;
use ndlearn_core::{FitUnsupervised, random};
use ndlearn_testkit::{Case, Golden};

const EPS: f64 = f64::EPSILON;

fn max_abs_diff(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    assert_eq!(a.dim(), b.dim());
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

struct Tolerances {
    memberships: f64,
    centers: f64,
    objective_above: f64,
    objective_rounding: f64,
    sse_first: f64,
}

fn tolerances(case: &Case, x: &Array2<f64>) -> Tolerances {
    let (n, d) = (x.nrows() as f64, x.ncols() as f64);
    let c = case.usize("n_clusters") as f64;
    let tol = case.scalar("tol");
    let rho = case.scalar("rho");
    assert!(rho > 0.0 && rho < 1.0, "{}: rho {rho}", case.name());
    let lip = case.scalar("lipschitz_centers");
    let max_x = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let floor_u = n * EPS / (1.0 - rho);
    let centers = lip * (tol / (1.0 - rho) + floor_u) + n * EPS * max_x;
    let objective = case.scalar("objective");
    let first = case.scalar("sse_first");
    Tolerances {
        memberships: tol * rho / (1.0 - rho) + floor_u,
        centers,
        objective_above: case.scalar("max_weight") * c * d * centers * centers,
        objective_rounding: 2.0 * (n * c + 10.0) * EPS * objective,
        sse_first: 2.0 * (n * first).sqrt() * n * EPS * max_x * (c * d).sqrt()
            + 2.0 * (n * c + 10.0) * EPS * first,
    }
}

fn estimator(case: &Case) -> FuzzyCMeans {
    FuzzyCMeans::new(case.usize("n_clusters"))
        .fuzzifier(case.scalar("fuzzifier"))
        .tol(case.scalar("tol"))
        .max_iter(1000)
        .seed(case.usize("seed") as u64)
}

#[test]
fn fuzzy_c_means_reaches_the_reference_fixed_point() {
    let g = Golden::load("cluster", "fuzzy");
    let mut checked = 0;
    for case in g.cases() {
        let name = case.name();
        let x = case.matrix("x");
        let (n, c) = (x.nrows(), case.usize("n_clusters"));
        // the stored initial rows are ndlearn's
        let init =
            random::sample_without_replacement(&mut random::rng(case.usize("seed") as u64), n, c)
                .expect("c <= n");
        assert_eq!(init, case.usize_vector("init_rows"), "{name}: initial rows");

        let t = tolerances(case, &x);
        let m = estimator(case).fit(&x).expect("fuzzy c-means fits");
        assert!(m.converged(), "{name}");
        assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: rounds");

        let first = m.sse_history()[0];
        let want_first = case.scalar("sse_first");
        assert!(
            (first - want_first).abs() <= t.sse_first,
            "{name}: sse after round 1: {first} vs {want_first} (bound {:e})",
            t.sse_first
        );

        let du = max_abs_diff(m.memberships(), &case.matrix("memberships"));
        assert!(
            du <= t.memberships,
            "{name}: memberships differ by {du:e} > {:e}",
            t.memberships
        );
        let dc = max_abs_diff(m.centers(), &case.matrix("centers"));
        assert!(
            dc <= t.centers,
            "{name}: centres differ by {dc:e} > {:e}",
            t.centers
        );

        let j = *m.sse_history().last().expect("at least one round");
        let want_j = case.scalar("objective");
        let excess = j - want_j;
        assert!(
            excess >= -t.objective_rounding && excess <= t.objective_above + t.objective_rounding,
            "{name}: objective {j} vs fixed point {want_j} (excess {excess:e})"
        );
        eprintln!(
            "{name}: memberships {du:.1e} (bound {:.1e}), centres {dc:.1e} (bound {:.1e}), \
             objective {excess:.1e}",
            t.memberships, t.centers
        );
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// The bounds are tight enough to see a subtly different algorithm: the fuzzifier off by one
/// part in a thousand, or stopping at a 100× larger `tol`, lands outside them.
#[test]
fn a_slightly_different_run_is_outside_the_bounds() {
    let g = Golden::load("cluster", "fuzzy");
    let case = g.case("iris_c3_p2");
    let x = case.matrix("x");
    let t = tolerances(case, &x);
    let want = case.matrix("memberships");
    let p = case.scalar("fuzzifier");
    let other = estimator(case)
        .fuzzifier(p * (1.0 + 1e-3))
        .fit(&x)
        .expect("fit");
    let du = max_abs_diff(other.memberships(), &want);
    assert!(du > 10.0 * t.memberships, "fuzzifier: {du:e}");
    let early = estimator(case)
        .tol(100.0 * case.scalar("tol"))
        .fit(&x)
        .expect("fit");
    let du = max_abs_diff(early.memberships(), &want);
    assert!(du > t.memberships, "early stop: {du:e}");
}
