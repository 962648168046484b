//! proptest strategies for matrices and small learning problems.
//!
//! Dimensions are drawn from the given `Range`s (end exclusive, as everywhere in Rust). Matrix
//! entries come from proptest's own float strategies, so failures shrink towards simpler values;
//! the generated data sets ([`separable_blobs`], the noise of [`regression_problem`]) draw a
//! `u64` seed from proptest and expand it with [`ndlearn_core::random`], so a failing case is
//! reproducible from proptest's persisted seed.
//!
//! Use [`config`] for the runner configuration: few cases by default, because CI has two cores.
//!
//! ```
//! use ndlearn_testkit::strategies::{config, spd_matrix};
//! use proptest::test_runner::TestRunner;
//!
//! let mut runner = TestRunner::new(config(4));
//! runner
//!     .run(&spd_matrix(2..5), |a| {
//!         assert_eq!(a.nrows(), a.ncols());
//!         Ok(())
//!     })
//!     .expect("property holds");
//! ```

use std::ops::Range;

use ndarray::{Array1, Array2};
use ndlearn_core::random;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn check_range(what: &str, r: &Range<usize>, min_start: usize) {
    assert!(
        r.start < r.end,
        "strategy: the {what} range {r:?} is empty (ranges are end-exclusive)"
    );
    assert!(
        r.start >= min_start,
        "strategy: the {what} range {r:?} must start at {min_start} or more"
    );
}

/// Uniform entries in `[-scale, scale]`, `rows × cols` (either may be 0 if its range allows it).
///
/// # Panics
/// If a range is empty or `scale` is negative or not finite.
pub fn any_matrix(
    rows: Range<usize>,
    cols: Range<usize>,
    scale: f64,
) -> impl Strategy<Value = Array2<f64>> {
    check_range("rows", &rows, 0);
    check_range("cols", &cols, 0);
    assert!(
        scale.is_finite() && scale >= 0.0,
        "any_matrix: scale must be finite and >= 0, got {scale}"
    );
    (rows, cols).prop_flat_map(move |(r, c)| {
        proptest::collection::vec(-scale..=scale, r * c).prop_map(move |v| {
            Array2::from_shape_vec((r, c), v).expect("r * c entries for an r x c matrix")
        })
    })
}

/// A tall or square matrix (`rows ≥ cols ≥ 1`) with a guaranteed modest condition number.
///
/// Construction: `A = E + D` with `E` uniform in `[-1, 1]` and `D` "diagonal" (`D[i,i] = ±b`,
/// random signs) with `b = ‖E‖_F + 1`. Since `σ_min(D) = b` and `‖E‖₂ ≤ ‖E‖_F`,
/// `σ_min(A) ≥ 1` and `cond₂(A) ≤ 2‖E‖_F + 1 ≤ 2√(rows·cols) + 1`.
///
/// The number of columns is drawn first, then the number of rows from the part of `rows` that is
/// `≥ cols`, so both stay inside their ranges.
///
/// # Panics
/// If a range is empty, `cols` starts at 0, or no shape with `rows ≥ cols` exists.
pub fn well_conditioned_matrix(
    rows: Range<usize>,
    cols: Range<usize>,
) -> impl Strategy<Value = Array2<f64>> {
    check_range("rows", &rows, 1);
    check_range("cols", &cols, 1);
    assert!(
        cols.start < rows.end,
        "well_conditioned_matrix: needs rows >= cols, impossible with rows {rows:?}, cols {cols:?}"
    );
    let max_cols = cols.end.min(rows.end);
    (cols.start..max_cols).prop_flat_map(move |c| {
        (rows.start.max(c)..rows.end).prop_flat_map(move |r| {
            (
                proptest::collection::vec(-1.0f64..=1.0, r * c),
                proptest::collection::vec(any::<bool>(), c),
            )
                .prop_map(move |(v, signs)| boosted(r, c, v, &signs))
        })
    })
}

fn boosted(r: usize, c: usize, v: Vec<f64>, signs: &[bool]) -> Array2<f64> {
    let mut a = Array2::from_shape_vec((r, c), v).expect("r * c entries for an r x c matrix");
    let b = a.iter().map(|x| x * x).sum::<f64>().sqrt() + 1.0;
    for (i, &neg) in signs.iter().enumerate().take(r.min(c)) {
        a[[i, i]] += if neg { -b } else { b };
    }
    a
}

/// A symmetric positive definite `n × n` matrix: `A Aᵀ + n I` with `A` uniform in `[-1, 1]`.
///
/// Exactly symmetric (bitwise), with every eigenvalue `≥ n ≥ 1`.
///
/// # Panics
/// If the range is empty or starts at 0.
pub fn spd_matrix(n: Range<usize>) -> impl Strategy<Value = Array2<f64>> {
    check_range("n", &n, 1);
    n.prop_flat_map(|n| {
        proptest::collection::vec(-1.0f64..=1.0, n * n).prop_map(move |v| {
            let a = Array2::from_shape_vec((n, n), v).expect("n * n entries");
            let g = a.dot(&a.t());
            let mut s = (&g + &g.t()) * 0.5;
            s.diag_mut().mapv_inplace(|d| d + n as f64);
            s
        })
    })
}

/// A symmetric `n × n` matrix (exactly, bitwise) with entries uniform in `[-1, 1]`; in general
/// indefinite.
///
/// # Panics
/// If the range is empty or starts at 0.
pub fn symmetric_matrix(n: Range<usize>) -> impl Strategy<Value = Array2<f64>> {
    check_range("n", &n, 1);
    n.prop_flat_map(|n| {
        proptest::collection::vec(-1.0f64..=1.0, n * (n + 1) / 2).prop_map(move |v| {
            let mut s = Array2::zeros((n, n));
            let mut k = 0;
            for i in 0..n {
                for j in i..n {
                    s[[i, j]] = v[k];
                    s[[j, i]] = v[k];
                    k += 1;
                }
            }
            s
        })
    })
}

/// Radius of the ball that holds every point of a blob in `d` dimensions (see
/// [`separable_blobs`]).
pub fn blob_radius(d: usize) -> f64 {
    (d as f64).sqrt() + 2.0
}

/// Well-separated Gaussian-ish blobs: `(x, y)` with `n_per_class · n_classes` rows, labels
/// `0..n_classes`, rows shuffled.
///
/// Each point is its class centre plus a standard normal offset whose norm is clamped to
/// `r =` [`blob_radius`]`(d)` (clamping rarely triggers). Centres are at least `4r + 4` apart
/// (simplex vertices when `n_classes ≤ d`, a circle in the first two coordinates otherwise, a
/// line when `d = 1`), shifted together by a random offset. Hence **every between-class distance
/// exceeds every within-class distance** (by at least 4): any sensible classifier or clusterer
/// separates the classes perfectly.
///
/// Sizes and a seed are drawn by proptest; the points come from `ndlearn_core::random`.
///
/// # Panics
/// If a range is empty or starts at 0.
pub fn separable_blobs(
    n_per_class: Range<usize>,
    n_features: Range<usize>,
    n_classes: Range<usize>,
) -> impl Strategy<Value = (Array2<f64>, Array1<usize>)> {
    check_range("n_per_class", &n_per_class, 1);
    check_range("n_features", &n_features, 1);
    check_range("n_classes", &n_classes, 1);
    (n_per_class, n_features, n_classes, any::<u64>())
        .prop_map(|(m, d, k, seed)| blobs(m, d, k, seed))
}

/// The blob generator behind [`separable_blobs`], deterministic in `seed`.
pub(crate) fn blobs(m: usize, d: usize, k: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let r = blob_radius(d);
    let spacing = 4.0 * r + 4.0;
    let offset: Vec<f64> = (0..d)
        .map(|_| random::uniform(&mut rng, -5.0, 5.0))
        .collect();
    let mut centres = Array2::<f64>::zeros((k, d));
    for c in 0..k {
        let mut row = centres.row_mut(c);
        if d == 1 {
            row[0] = spacing * c as f64;
        } else if k <= d {
            row[c] = spacing / std::f64::consts::SQRT_2;
        } else {
            let radius = spacing / (2.0 * (std::f64::consts::PI / k as f64).sin());
            let angle = 2.0 * std::f64::consts::PI * c as f64 / k as f64;
            row[0] = radius * angle.cos();
            row[1] = radius * angle.sin();
        }
        for (v, o) in row.iter_mut().zip(&offset) {
            *v += o;
        }
    }
    let n = m * k;
    let order = random::permutation(&mut rng, n);
    let mut x = Array2::<f64>::zeros((n, d));
    let mut y = Array1::<usize>::zeros(n);
    for (i, &slot) in order.iter().enumerate() {
        let c = i / m;
        let z: Vec<f64> = (0..d)
            .map(|_| random::standard_normal::<f64>(&mut rng))
            .collect();
        let norm = z.iter().map(|v| v * v).sum::<f64>().sqrt();
        let shrink = if norm > r { r / norm } else { 1.0 };
        for j in 0..d {
            x[[slot, j]] = centres[[c, j]] + z[j] * shrink;
        }
        y[slot] = c;
    }
    (x, y)
}

/// A linear regression problem `y = X coef + intercept + noise · ε`, `ε` standard normal.
#[derive(Debug, Clone)]
pub struct RegressionProblem {
    /// Features, `n × d`, full column rank (built like [`well_conditioned_matrix`]).
    pub x: Array2<f64>,
    /// Targets, length `n`.
    pub y: Array1<f64>,
    /// True coefficients, uniform in `[-2, 2]`.
    pub coef: Array1<f64>,
    /// True intercept, uniform in `[-1, 1]`.
    pub intercept: f64,
    /// Standard deviation of the added noise (as passed).
    pub noise: f64,
}

/// A regression problem with `n` rows and `d` features, `n ≥ d + 2` enforced.
///
/// `d` is drawn first (only from values that leave room for `n ≥ d + 2` inside `n`), then `n`.
/// With `noise = 0`, `y` is exactly `x.dot(&coef) + intercept` (the same floating-point
/// operations, so bitwise equal).
///
/// # Panics
/// If a range is empty, `d` starts at 0, no `n ≥ d + 2` is possible, or `noise` is negative
/// or not finite.
pub fn regression_problem(
    n: Range<usize>,
    d: Range<usize>,
    noise: f64,
) -> impl Strategy<Value = RegressionProblem> {
    check_range("n", &n, 1);
    check_range("d", &d, 1);
    assert!(
        noise.is_finite() && noise >= 0.0,
        "regression_problem: noise must be finite and >= 0, got {noise}"
    );
    assert!(
        d.start + 2 < n.end,
        "regression_problem: needs n >= d + 2, impossible with n {n:?}, d {d:?}"
    );
    let max_d = d.end.min(n.end - 2);
    (d.start..max_d).prop_flat_map(move |d| {
        (n.start.max(d + 2)..n.end).prop_flat_map(move |n| {
            (
                proptest::collection::vec(-1.0f64..=1.0, n * d),
                proptest::collection::vec(any::<bool>(), d),
                proptest::collection::vec(-2.0f64..=2.0, d),
                -1.0f64..=1.0,
                any::<u64>(),
            )
                .prop_map(move |(v, signs, coef, intercept, seed)| {
                    let x = boosted(n, d, v, &signs);
                    let coef = Array1::from(coef);
                    let mut y = x.dot(&coef) + intercept;
                    if noise > 0.0 {
                        let mut rng = random::rng(seed);
                        y.mapv_inplace(|v| v + noise * random::standard_normal::<f64>(&mut rng));
                    }
                    RegressionProblem {
                        x,
                        y,
                        coef,
                        intercept,
                        noise,
                    }
                })
        })
    })
}

/// The proptest seed used when `PROPTEST_RNG_SEED` is not set: every run (local, CI) explores
/// the same cases, so a red CI run is reproducible with the plain test command.
pub const DEFAULT_PROPTEST_SEED: u64 = 0x006e_646c_6561_726e;

/// proptest configuration for the workspace: `cases` cases (lowered to `PROPTEST_CASES` when
/// that environment variable is set to a smaller number), at most 512 shrink iterations, so
/// failing properties finish quickly on 2-core CI, and a **fixed seed**
/// ([`DEFAULT_PROPTEST_SEED`]) unless `PROPTEST_RNG_SEED` is set (`PROPTEST_RNG_SEED=random`
/// explores fresh cases on every run; a number fixes another seed). Other `PROPTEST_*`
/// variables are honoured as proptest does by default.
pub fn config(cases: u32) -> Config {
    let mut cfg = Config::default();
    match std::env::var("PROPTEST_RNG_SEED") {
        Err(_) => cfg.rng_seed = RngSeed::Fixed(DEFAULT_PROPTEST_SEED),
        Ok(v) if v.trim().eq_ignore_ascii_case("random") => cfg.rng_seed = RngSeed::Random,
        Ok(_) => {}
    }
    let env_cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok());
    cfg.cases = match env_cases {
        Some(e) => cases.min(e),
        None => cases,
    };
    if std::env::var_os("PROPTEST_MAX_SHRINK_ITERS").is_none() {
        cfg.max_shrink_iters = 512;
    }
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndlearn_core::linalg;

    fn is_symmetric(a: &Array2<f64>) -> bool {
        a == a.t()
    }

    proptest! {
        #![proptest_config(config(12))]

        #[test]
        fn spd_is_positive_definite(a in spd_matrix(1..8)) {
            prop_assert!(is_symmetric(&a));
            prop_assert!(linalg::is_positive_definite(&a).expect("square"));
            let w = linalg::eigvalsh(&a).expect("eigvalsh");
            prop_assert!(w[0] >= a.nrows() as f64 * (1.0 - 1e-12));
        }

        #[test]
        fn symmetric_is_symmetric(a in symmetric_matrix(1..8)) {
            prop_assert!(is_symmetric(&a));
            prop_assert!(a.iter().all(|v| v.abs() <= 1.0));
        }

        #[test]
        fn any_matrix_respects_shape_and_scale(a in any_matrix(0..5, 1..4, 3.0)) {
            prop_assert!(a.nrows() < 5 && (1..4).contains(&a.ncols()));
            prop_assert!(a.iter().all(|v| v.abs() <= 3.0));
        }

        #[test]
        fn well_conditioned_has_bounded_condition(a in well_conditioned_matrix(1..12, 1..6)) {
            let (r, c) = a.dim();
            prop_assert!(r >= c && r < 12 && c < 6);
            let s = linalg::singular_values(&a).expect("svd");
            let bound = 2.0 * ((r * c) as f64).sqrt() + 1.0;
            prop_assert!(s[c - 1] >= 1.0 - 1e-9, "sigma_min {}", s[c - 1]);
            prop_assert!(s[0] / s[c - 1] <= bound * (1.0 + 1e-9), "cond {}", s[0] / s[c - 1]);
        }

        #[test]
        fn regression_problem_is_exact_without_noise(p in regression_problem(3..30, 1..6, 0.0)) {
            let (n, d) = p.x.dim();
            prop_assert!(n >= d + 2 && n < 30 && d < 6);
            prop_assert_eq!(p.coef.len(), d);
            prop_assert_eq!(p.noise, 0.0);
            let exact = p.x.dot(&p.coef) + p.intercept;
            prop_assert_eq!(&p.y, &exact);
            prop_assert!(linalg::matrix_rank(&p.x, None).expect("rank") == d);
        }

        #[test]
        fn regression_problem_adds_noise(p in regression_problem(20..40, 2..4, 0.5)) {
            let exact = p.x.dot(&p.coef) + p.intercept;
            let resid = &p.y - &exact;
            prop_assert!(resid.iter().any(|&v| v != 0.0));
            prop_assert!(resid.iter().all(|v| v.abs() < 0.5 * 10.0));
        }

        #[test]
        fn blobs_are_separated((x, y) in separable_blobs(1..8, 1..5, 1..6)) {
            let n = x.nrows();
            prop_assert_eq!(y.len(), n);
            let k = y.iter().max().expect("non-empty") + 1;
            let per = n / k;
            prop_assert_eq!(per * k, n);
            for c in 0..k {
                prop_assert_eq!(y.iter().filter(|&&v| v == c).count(), per);
            }
            let mut max_within = 0.0f64;
            let mut min_between = f64::INFINITY;
            for i in 0..n {
                for j in (i + 1)..n {
                    let dist = (&x.row(i) - &x.row(j)).mapv(|v| v * v).sum().sqrt();
                    if y[i] == y[j] {
                        max_within = max_within.max(dist);
                    } else {
                        min_between = min_between.min(dist);
                    }
                }
            }
            prop_assert!(max_within <= 2.0 * blob_radius(x.ncols()) + 1e-9);
            prop_assert!(min_between >= max_within + 4.0 - 1e-9,
                "within {max_within}, between {min_between}");
        }
    }

    #[test]
    fn blobs_are_deterministic_in_the_seed() {
        assert_eq!(blobs(4, 3, 3, 7), blobs(4, 3, 3, 7));
        assert_ne!(blobs(4, 3, 3, 7).0, blobs(4, 3, 3, 8).0);
    }

    #[test]
    fn config_caps_cases() {
        let c = config(5);
        assert!(c.cases <= 5);
        assert!(c.max_shrink_iters > 0);
        if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
            assert_eq!(c.rng_seed, RngSeed::Fixed(DEFAULT_PROPTEST_SEED));
        }
    }

    #[test]
    #[should_panic(expected = "needs n >= d + 2")]
    fn regression_problem_rejects_impossible_ranges() {
        let _ = regression_problem(3..5, 3..4, 0.0);
    }

    #[test]
    #[should_panic(expected = "is empty")]
    fn empty_range_is_rejected() {
        let _ = spd_matrix(3..3);
    }
}
