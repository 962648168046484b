//! PCA against scikit-learn (`datasets/golden/decomposition/pca.json`, written by
//! `scripts/golden/decomposition_pca.py`): components (scikit-learn's sign convention),
//! explained variances and ratios, singular values, noise variance, transforms, inverse
//! transforms and probabilistic-PCA log-likelihoods for the full and covariance solvers (plus
//! the Gram solver on the same cases), whitening, variance-fraction selection and the
//! randomized solver; the notes' worked example; solver agreement, exact full-rank
//! reconstruction and orthonormality as properties; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, Axis, array, s};
use ndlearn_core::{FitUnsupervised, InverseTransform, Transform};
use ndlearn_decomposition::{NComponents, Pca, PcaSolver};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::strategies::config;
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};
use proptest::prelude::*;

mod common;
use common::data;

/// Absolute accuracy of each principal direction of `x`: `‖δC‖ / gap_j` with the covariance's
/// rounding `‖δC‖ ≈ 8 (n + d) ε λ_max` (the sum of `n` products per entry, then a backward-stable
/// eigensolver) and `gap_j` the distance of `λ_j` to the nearest other eigenvalue of the
/// covariance (computed here; eigenvalues are well conditioned). The reference and ndlearn each
/// carry such an error, on any CPU and BLAS kernel, so the components can only be compared to
/// it: the trailing directions of an ill-conditioned covariance (breast cancer: λ spans 1e-8 to
/// 4e5) are determined to ~1e-7, the leading ones to ~1e-12.
fn component_bounds(x: &Array2<f64>) -> Vec<f64> {
    let (n, d) = x.dim();
    let cov = ndlearn_core::stats::covariance(x, 1).expect("covariance");
    let (lambda, _) = ndlearn_core::linalg::eigh_descending(&cov).expect("eigh");
    let top = lambda[0].abs().max(f64::MIN_POSITIVE);
    let noise = 8.0 * (n + d) as f64 * f64::EPSILON * top;
    (0..d)
        .map(|j| {
            let gap = (0..d)
                .filter(|&i| i != j)
                .map(|i| (lambda[i] - lambda[j]).abs())
                .fold(f64::INFINITY, f64::min);
            if gap > 0.0 {
                noise / gap
            } else {
                f64::INFINITY
            }
        })
        .collect()
}

fn solver(name: &str) -> PcaSolver {
    match name {
        "full" => PcaSolver::Full,
        "covariance_eigh" => PcaSolver::CovarianceEigh,
        other => panic!("unknown solver {other}"),
    }
}

#[test]
fn matches_sklearn_for_every_exact_solver() {
    let g = Golden::load("decomposition", "pca");
    let mut checked = 0;
    for case in g.cases() {
        if !case.has("solver") {
            continue;
        }
        let name = case.name();
        let x = data(case);
        let k = case.usize("k");
        let whiten = case.usize("whiten") == 1;
        let ev = case.vector("explained_variance");
        // directions of (numerically) zero variance are arbitrary: compare the others
        let top = ev[0];
        let r = ev.iter().filter(|&&v| v > 1e-9 * top).count();
        let mut solvers = vec![solver(case.string("solver"))];
        // the Gram solver too (an n × n eigenproblem: skipped for the 1,797 rows of digits)
        if case.string("solver") == "full" && x.nrows() <= 600 {
            solvers.push(PcaSolver::Gram);
        }
        for sv in solvers {
            let m = Pca::new(k).solver(sv).whiten(whiten).fit(&x).expect("fit");
            let what = format!("{name} ({sv:?})");
            assert_close(
                m.explained_variance(),
                &ev,
                1e-8,
                1e-10 * top,
                &format!("{what}: variance"),
            );
            assert_close(
                m.explained_variance_ratio(),
                &case.vector("explained_variance_ratio"),
                1e-8,
                1e-12,
                &format!("{what}: ratio"),
            );
            assert_close(
                &m.singular_values().slice(s![..r]),
                &case.vector("singular_values").slice(s![..r]),
                1e-8,
                1e-8 * top.sqrt(),
                &format!("{what}: singular values"),
            );
            let nv = case.scalar("noise_variance");
            assert!(
                (m.noise_variance() - nv).abs() <= 1e-8 * top,
                "{what}: noise {} vs {nv}",
                m.noise_variance()
            );
            // Component j is determined to about ‖δC‖/gap_j (Davis–Kahan): each row gets its
            // own absolute tolerance from the eigengaps of the data (see `component_bounds`).
            let bounds = component_bounds(&x);
            let expected_components = case.matrix("components");
            for (j, bound) in bounds.iter().enumerate().take(r) {
                assert_close(
                    &m.components().row(j),
                    &expected_components.row(j),
                    1e-7,
                    bound.max(1e-9),
                    &format!("{what}: component {j}"),
                );
            }
            if r == k {
                let head = x.slice(s![..20, ..]);
                let z = m.transform(&head).expect("transform");
                let scale = x.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(1.0);
                // |δz_ij| ≤ ‖x_i − μ‖ ‖δv_j‖ (divided by √λ_j when whitened).
                let mean = x.mean_axis(Axis(0)).expect("rows");
                let radius = head
                    .rows()
                    .into_iter()
                    .map(|row| (&row - &mean).mapv(|v| v * v).sum().sqrt())
                    .fold(0.0f64, f64::max);
                let expected_z = case.matrix("transform");
                for j in 0..k {
                    let unit = if whiten { ev[j].sqrt() } else { 1.0 };
                    assert_close(
                        &z.column(j),
                        &expected_z.column(j),
                        1e-7,
                        (1e-9 * scale).max(2.0 * radius * bounds[j] / unit),
                        &format!("{what}: transform column {j}"),
                    );
                }
                let back = m.inverse_transform(&z).expect("inverse");
                // x̂ = z Vᵀ + μ: |δx̂| ≤ Σ_j |z_j| ‖δv_j‖ twice (once through z).
                let spread: f64 = (0..k)
                    .map(|j| {
                        let unit = if whiten { ev[j].sqrt() } else { 1.0 };
                        2.0 * radius * bounds[j] * unit.max(1.0)
                    })
                    .sum();
                assert_close(
                    &back,
                    &case.matrix("inverse"),
                    1e-7,
                    (1e-9 * scale).max(spread),
                    &format!("{what}: inverse"),
                );
                // scikit-learn's get_covariance scales whitened components by √λ a second time
                // (its density then depends on `whiten`); ndlearn's PPCA density does not, so
                // it is compared on the unwhitened cases only
                if case.has("score_samples") && !whiten {
                    let ll = m.score_samples(&head).expect("score_samples");
                    assert_close(
                        &ll,
                        &case.vector("score_samples"),
                        1e-7,
                        1e-7,
                        &format!("{what}: score_samples"),
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "checked {checked}");
}

#[test]
fn variance_fraction_and_randomized_solver() {
    let g = Golden::load("decomposition", "pca");
    for case in g.cases() {
        if !case.has("t") {
            continue;
        }
        let x = data(case);
        let m = Pca::with_variance(case.scalar("t"))
            .solver(PcaSolver::Full)
            .fit(&x)
            .expect("fit");
        assert_eq!(
            m.n_components(),
            case.usize("n_components"),
            "{}",
            case.name()
        );
        assert_close(
            m.explained_variance(),
            &case.vector("explained_variance"),
            1e-8,
            1e-10,
            case.name(),
        );
    }
    // power iteration with deflation: the top components of wine (well separated eigenvalues)
    let case = g.case("wine_full_k5");
    let x = data(case);
    let m = Pca::new(3)
        .solver(PcaSolver::PowerIteration)
        .fit(&x)
        .expect("fit");
    assert_close(
        m.explained_variance(),
        &case.vector("explained_variance").slice(s![..3]),
        1e-9,
        0.0,
        "power iteration",
    );
    assert_close(
        m.components(),
        &case.matrix("components").slice(s![..3, ..]),
        1e-6,
        1e-9,
        "power iteration components",
    );
    let case = g.case("digits_randomized_k10");
    let x = data(case);
    let m = Pca::new(10)
        .solver(PcaSolver::Randomized)
        .fit(&x)
        .expect("fit");
    // an approximation from a different random stream: the leading values agree to 1e-7, the
    // tenth (closest to the cut) to 1e-4
    assert_close(
        m.explained_variance(),
        &case.vector("explained_variance"),
        1e-4,
        0.0,
        "randomized",
    );
    assert_close(
        &m.explained_variance().slice(s![..5]),
        &case.vector("explained_variance").slice(s![..5]),
        1e-7,
        0.0,
        "randomized, leading",
    );
    assert_close(
        m.explained_variance_ratio(),
        &case.vector("explained_variance_ratio"),
        1e-4,
        0.0,
        "randomized ratio",
    );
}

#[test]
fn minka_mle_choice_of_k_matches_sklearn() {
    let g = Golden::load("decomposition", "pca");
    let mut checked = 0;
    for case in g.cases() {
        if !case.has("mle_solver") {
            continue;
        }
        let x = data(case);
        let m = Pca::mle()
            .solver(solver(case.string("mle_solver")))
            .fit(&x)
            .expect("fit");
        let k = case.usize("n_components");
        assert_eq!(m.n_components(), k, "{}", case.name());
        let ev = case.vector("explained_variance");
        assert_close(
            m.explained_variance(),
            &ev,
            1e-8,
            1e-10 * ev[0],
            case.name(),
        );
        assert_close_scalar(
            m.noise_variance(),
            case.scalar("noise_variance"),
            1e-7,
            1e-12 * ev[0],
            case.name(),
        );
        checked += 1;
    }
    assert_eq!(checked, 8);
    // more columns than rows: a typed error
    let wide = Array2::from_shape_fn((5, 8), |(i, j)| (i * j) as f64 + i as f64);
    let mle = Pca::mle();
    assert!(matches!(
        FitUnsupervised::<f64>::fit(&mle, &wide),
        Err(ndlearn_core::Error::InvalidParam { .. })
    ));
}

/// Catalog erratum E25: reconstructing from `k` components is the projection `V_kᵀV_k` (here
/// `V_k` holds the components as rows) of the centred data, not `XXᵀ`.
#[test]
fn reconstruction_is_the_projection_onto_the_components() {
    let x = ndlearn_datasets::by_name("wine").expect("wine").x().clone();
    let m = Pca::new(4).fit(&x).expect("fit");
    let v = m.components();
    let p = ndlearn_core::linalg::projection_matrix(&v.t()).expect("projection");
    assert_close(
        &p,
        &v.t().dot(v),
        1e-10,
        1e-12,
        "P = VᵀV for orthonormal rows",
    );
    let mut xc = x.clone();
    xc -= m.mean();
    let mut back = m
        .inverse_transform(&m.transform(&x).expect("t"))
        .expect("inverse");
    back -= m.mean();
    let scale = xc.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert_close(
        &back,
        &xc.dot(&p),
        1e-10,
        1e-10 * scale,
        "x̂ − μ = (x − μ) P",
    );
}

/// The randomized solver centres implicitly, and explicitly when the data sit far from their
/// mean: a translation by 1e7 does not change the result beyond rounding.
#[test]
fn randomized_solver_is_translation_invariant() {
    let x = ndlearn_datasets::by_name("digits")
        .expect("digits")
        .x()
        .clone();
    let est = Pca::new(5).solver(PcaSolver::Randomized);
    let a = est.fit(&x).expect("fit");
    let b = est.fit(&(&x + 1e7)).expect("fit far from the origin");
    assert_close(
        b.explained_variance(),
        a.explained_variance(),
        1e-6,
        0.0,
        "explained variance",
    );
    let near = est.fit(&(&x + 3.0)).expect("fit near the origin");
    assert_close(
        near.explained_variance(),
        a.explained_variance(),
        1e-9,
        0.0,
        "explained variance (implicit centring)",
    );
}

#[cfg(feature = "serde")]
#[test]
fn scree_plot_is_an_svg_with_bars_and_the_cumulative_line() {
    let x = ndlearn_datasets::by_name("wine").expect("wine").x().clone();
    let m = Pca::default().scale(true).fit(&x).expect("fit");
    let svg = m.scree_svg(800, 500, Some(0.9)).expect("svg");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Scree plot") && svg.contains("cumulative") && svg.contains("t = 0.9"));
    // one bar per component (13 for wine) plus the legend swatch
    assert!(svg.matches("<rect").count() >= 13);
    assert!(m.scree_svg(50, 50, None).is_err());
    assert!(m.scree_svg(800, 500, Some(1.5)).is_err());
}

#[test]
fn notes_example_and_scaling() {
    // 170/60, 180/75, 160/50: the notes' "covariance" [[200, 250], [250, 316.67]] is the
    // scatter matrix X̃ᵀX̃ (no divisor), eigenvalues 515.05 and 1.618 = the squared singular
    // values; the sample covariance (divisor n − 1 = 2) has half of each, the explained
    // variances; first component ±(0.6216, 0.7833)
    let x = array![[170.0f64, 60.0], [180.0, 75.0], [160.0, 50.0]];
    for sv in [
        PcaSolver::Full,
        PcaSolver::CovarianceEigh,
        PcaSolver::Gram,
        PcaSolver::PowerIteration,
    ] {
        let m = Pca::new(2).solver(sv).fit(&x).expect("fit");
        let s2 = m.singular_values().mapv(|v| v * v);
        // exact: (516.667 ± √263611.1) / 2 = 515.0487, 1.6180 (the notes round to 515.05)
        assert!(
            (s2[0] - 515.0487).abs() < 1e-3 && (s2[1] - 1.6180).abs() < 1e-3,
            "{sv:?}: {s2}"
        );
        let ev = m.explained_variance();
        assert!(
            (ev[0] - 257.5243).abs() < 1e-3 && (ev[1] - 0.8090).abs() < 1e-3,
            "{sv:?}: {ev}"
        );
        let c = m.components();
        assert!((c[[0, 0]] - 0.6216).abs() < 1e-4 && (c[[0, 1]] - 0.7833).abs() < 1e-4);
        assert!(
            (s2.sum() - (200.0 + 316.6667)).abs() < 1e-3,
            "trace of the scatter matrix"
        );
    }
    // scaling uses the training statistics: new rows are standardised with them
    let m = Pca::new(1).scale(true).fit(&x).expect("fit");
    let sd = m.scale().expect("scaled").clone();
    assert!((sd[0] - 10.0).abs() < 1e-12);
    let z1 = m.transform(&array![[170.0, 60.0]]).expect("transform");
    let manual = ((170.0 - 170.0) / sd[0]) * m.components()[[0, 0]]
        + ((60.0 - 61.666_666_666_666_664) / sd[1]) * m.components()[[0, 1]];
    assert!((z1[[0, 0]] - manual).abs() < 1e-12);
}

fn matrices() -> impl Strategy<Value = Array2<f64>> {
    (3usize..30, 2usize..8).prop_flat_map(|(n, d)| {
        prop::collection::vec(-10.0f64..10.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn solvers_agree_components_are_orthonormal_and_full_rank_reconstructs(x in matrices()) {
        let m = x.nrows().min(x.ncols());
        let full = Pca::new(m).solver(PcaSolver::Full).fit(&x).expect("full");
        let back = full.inverse_transform(&full.transform(&x).expect("t")).expect("inv");
        prop_assert!((&back - &x).iter().all(|v| v.abs() < 1e-8));
        let c = full.components();
        let gram = c.dot(&c.t());
        let ev = full.explained_variance();
        for i in 0..m {
            for j in 0..m {
                if ev[i] > 1e-8 * ev[0] && ev[j] > 1e-8 * ev[0] {
                    let want = if i == j { 1.0 } else { 0.0 };
                    prop_assert!((gram[[i, j]] - want).abs() < 1e-8);
                }
            }
        }
        for sv in [PcaSolver::CovarianceEigh, PcaSolver::Gram] {
            let other = Pca::new(m).solver(sv).fit(&x).expect("other");
            for (a, b) in other.explained_variance().iter().zip(ev) {
                prop_assert!((a - b).abs() <= 1e-7 * ev[0].max(1e-12));
            }
        }
        // standardising with the training statistics: the same answer from the blocked
        // covariance and from the SVD of the scaled copy
        let a = Pca::new(m).scale(true).solver(PcaSolver::Full).fit(&x).expect("full");
        let b = Pca::new(m).scale(true).solver(PcaSolver::CovarianceEigh).fit(&x).expect("cov");
        for (u, v) in a.explained_variance().iter().zip(b.explained_variance()) {
            prop_assert!((u - v).abs() <= 1e-8 * a.explained_variance()[0].max(1e-12));
        }
        let za = a.transform(&x).expect("t");
        let ra = a.inverse_transform(&za).expect("inv");
        prop_assert!((&ra - &x).iter().all(|v| v.abs() < 1e-8));
        // translation invariance, also for data far from the origin (the covariance solver then
        // accumulates centred blocks instead of XᵀX − nμμᵀ)
        let far = &x + 1e6;
        let c_far = Pca::new(m).solver(PcaSolver::CovarianceEigh).fit(&far).expect("far");
        for (u, v) in c_far.explained_variance().iter().zip(ev) {
            prop_assert!((u - v).abs() <= 1e-7 * ev[0].max(1e-9), "{} vs {}", u, v);
        }
        // whitened scores have unit variance along the kept directions
        let w = Pca::new(1).whiten(true).fit(&x).expect("whiten");
        if w.explained_variance()[0] > 1e-9 {
            let z = w.transform(&x).expect("t");
            let var = z.column(0).iter().map(|v| v * v).sum::<f64>() / (x.nrows() - 1) as f64;
            prop_assert!((var - 1.0).abs() < 1e-8);
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn bad_input_and_conformance() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(Pca::new(0).fit(&x).is_err());
    assert!(Pca::new(3).fit(&x).is_err());
    assert!(Pca::with_variance(1.5).fit(&x).is_err());
    assert!(
        Pca::default()
            .solver(PcaSolver::Randomized)
            .fit(&x)
            .is_err()
    );
    assert!(Pca::new(1).fit(&array![[1.0f64, 2.0]]).is_err(), "one row");
    let m = Pca::new(1).fit(&x).expect("fit");
    assert!(m.transform(&array![[1.0f64, 2.0, 3.0]]).is_err());
    assert!(m.inverse_transform(&array![[1.0f64, 2.0]]).is_err());
    assert_eq!(
        Pca::new(1).resolve_solver(10_000, 10, Some(2)),
        PcaSolver::CovarianceEigh
    );
    assert_eq!(
        Pca::new(1).resolve_solver(20, 5000, Some(2)),
        PcaSolver::Gram
    );
    assert_eq!(
        Pca::new(1).resolve_solver(5000, 2000, Some(10)),
        PcaSolver::Randomized
    );
    assert_eq!(
        Pca::new(1).resolve_solver(100, 50, Some(10)),
        PcaSolver::Full
    );
    assert!(matches!(Pca::default().n_components, NComponents::All));
    let m32 = Pca::new(1)
        .fit(&array![[0.0f32, 1.0], [1.0, 0.0], [2.0, 2.0]])
        .expect("f32");
    assert_eq!(m32.components().dim(), (1, 2));
    let _ = m32.explained_variance().sum_axis(Axis(0));
    Battery::new("pca").transformer(&Pca::new(2)).assert_ok();
}

/// The column sums double as the finiteness check: NaN, ±∞ and a `+∞ − ∞` pair in one column
/// are reported with their position, and finite values whose sum overflows are not mistaken
/// for bad data (a typed error asks to rescale).
#[test]
fn non_finite_input_is_located_and_overflow_is_not_an_error() {
    let base = Array2::from_shape_fn((50, 3), |(i, j)| ((i * 7 + j * 3) % 11) as f64);
    for (bad, row, col) in [
        (f64::NAN, 17, 1),
        (f64::INFINITY, 0, 2),
        (f64::NEG_INFINITY, 49, 0),
    ] {
        let mut x = base.clone();
        x[[row, col]] = bad;
        for solver in [PcaSolver::CovarianceEigh, PcaSolver::Full] {
            match Pca::new(2).solver(solver).fit(&x) {
                Err(ndlearn_core::Error::NonFinite { row: r, col: c, .. }) => {
                    assert_eq!((r, c), (row, col), "{bad} at ({row}, {col})")
                }
                other => panic!("{bad}: expected NonFinite, got {other:?}"),
            }
        }
    }
    let mut x = base.clone();
    x[[3, 1]] = f64::INFINITY;
    x[[4, 1]] = f64::NEG_INFINITY;
    assert!(matches!(
        Pca::new(2).fit(&x),
        Err(ndlearn_core::Error::NonFinite { row: 3, col: 1, .. })
    ));
    // finite values whose sums (and squares) overflow: a typed error naming the cause, not a
    // NonFinite error pointing at an entry that is fine
    let mut huge = base.clone();
    huge.column_mut(0).fill(f64::MAX / 4.0);
    for solver in [PcaSolver::CovarianceEigh, PcaSolver::Full] {
        match Pca::new(2).solver(solver).fit(&huge) {
            Err(ndlearn_core::Error::InvalidParam { name, reason }) => {
                assert_eq!(name, "x");
                assert!(reason.contains("rescale"), "{reason}");
            }
            other => panic!("expected the overflow error, got {other:?}"),
        }
    }
}
