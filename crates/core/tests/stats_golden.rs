//! `stats::{special, tests, information}` against scipy.special / scipy.stats / scikit-learn
//! (`datasets/golden/core/stats.json`, written by `scripts/golden/core_stats.py`).
//!
//! Special functions must agree to 1e-13 relative (plus a 1e-15 absolute floor where the value
//! crosses 0, e.g. ln Γ next to 1 and 2); tests and information measures to 1e-12.

use ndarray::Array1;
use ndlearn_core::stats::{information, special, tests};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "stats")
}

fn map1(x: &Array1<f64>, f: impl Fn(f64) -> f64) -> Array1<f64> {
    x.mapv(f)
}

fn map2(a: &Array1<f64>, b: &Array1<f64>, f: impl Fn(f64, f64) -> f64) -> Array1<f64> {
    a.iter().zip(b.iter()).map(|(&u, &v)| f(u, v)).collect()
}

#[test]
fn gamma_family_matches_scipy() {
    let g = golden();
    let c = g.case("special_gamma");
    let x = c.vector("x");
    assert_close(
        &map1(&x, special::gamma),
        &c.vector("value"),
        1e-13,
        0.0,
        "gamma",
    );
    let c = g.case("special_gammaln");
    let x = c.vector("x");
    assert_close(
        &map1(&x, special::ln_gamma),
        &c.vector("value"),
        1e-13,
        1e-15,
        "gammaln",
    );
    let c = g.case("special_digamma");
    let x = c.vector("x");
    assert_close(
        &map1(&x, special::digamma),
        &c.vector("value"),
        1e-13,
        1e-15,
        "digamma",
    );
    let c = g.case("special_beta");
    let (a, b) = (c.vector("a"), c.vector("b"));
    assert_close(
        &map2(&a, &b, special::beta),
        &c.vector("beta"),
        1e-13,
        0.0,
        "beta",
    );
    assert_close(
        &map2(&a, &b, special::ln_beta),
        &c.vector("betaln"),
        1e-13,
        1e-15,
        "betaln",
    );
}

#[test]
fn incomplete_functions_match_scipy() {
    let g = golden();
    let c = g.case("special_gammainc");
    let (a, x) = (c.vector("a"), c.vector("x"));
    assert_close(
        &map2(&a, &x, special::gamma_p),
        &c.vector("p"),
        1e-13,
        0.0,
        "gammainc",
    );
    assert_close(
        &map2(&a, &x, special::gamma_q),
        &c.vector("q"),
        1e-13,
        0.0,
        "gammaincc",
    );
    let c = g.case("special_gammaincinv");
    let (a, p) = (c.vector("a"), c.vector("p"));
    assert_close(
        &map2(&a, &p, special::gamma_p_inv),
        &c.vector("x_p"),
        1e-13,
        0.0,
        "gammaincinv",
    );
    assert_close(
        &map2(&a, &p, special::gamma_q_inv),
        &c.vector("x_q"),
        1e-13,
        0.0,
        "gammainccinv",
    );
    let c = g.case("special_betainc");
    let (a, b, x) = (c.vector("a"), c.vector("b"), c.vector("x"));
    let got: Array1<f64> = (0..a.len())
        .map(|i| special::beta_inc(a[i], b[i], x[i]))
        .collect();
    assert_close(&got, &c.vector("value"), 1e-13, 0.0, "betainc");
}

#[test]
fn error_function_and_normal_match_scipy() {
    let g = golden();
    let c = g.case("special_erf");
    let x = c.vector("x");
    assert_close(&map1(&x, special::erf), &c.vector("erf"), 1e-15, 0.0, "erf");
    assert_close(
        &map1(&x, special::erfc),
        &c.vector("erfc"),
        1e-14,
        0.0,
        "erfc",
    );
    let c = g.case("special_norm");
    let z = c.vector("z");
    // scipy flushes Φ(−38) ≈ 2.9e-316 (subnormal) to 0; ndlearn keeps it: atol 1e-300.
    assert_close(
        &map1(&z, special::norm_cdf),
        &c.vector("cdf"),
        1e-13,
        1e-300,
        "ndtr",
    );
    assert_close(
        &map1(&z, special::norm_sf),
        &c.vector("sf"),
        1e-13,
        1e-300,
        "norm.sf",
    );
    assert_close(
        &map1(&z, special::norm_pdf),
        &c.vector("pdf"),
        1e-14,
        0.0,
        "norm.pdf",
    );
    assert_close(
        &map1(&z, special::norm_logcdf),
        &c.vector("logcdf"),
        1e-13,
        1e-16,
        "log_ndtr",
    );
    let c = g.case("special_norm_ppf");
    let p = c.vector("p");
    let ppf = map1(&p, |v| special::norm_ppf(v).expect("p in [0, 1]"));
    assert_close(&ppf, &c.vector("z"), 1e-14, 1e-300, "ndtri");
    let isf = map1(&p, |v| special::norm_isf(v).expect("p in [0, 1]"));
    assert_close(&isf, &c.vector("isf"), 1e-14, 1e-300, "norm.isf");
}

#[test]
fn chi2_distribution_matches_scipy() {
    let g = golden();
    let c = g.case("chi2_dist");
    let (x, d) = (c.vector("x"), c.vector("dof"));
    assert_close(
        &map2(&x, &d, tests::chi2_cdf),
        &c.vector("cdf"),
        1e-13,
        0.0,
        "chi2.cdf",
    );
    assert_close(
        &map2(&x, &d, tests::chi2_sf),
        &c.vector("sf"),
        1e-13,
        0.0,
        "chi2.sf",
    );
    assert_close(
        &map2(&x, &d, tests::chi2_pdf),
        &c.vector("pdf"),
        1e-13,
        0.0,
        "chi2.pdf",
    );
    let c = g.case("chi2_quantiles");
    let (p, d) = (c.vector("p"), c.vector("dof"));
    let ppf = map2(&p, &d, |a, b| tests::chi2_ppf(a, b).expect("valid"));
    assert_close(&ppf, &c.vector("ppf"), 1e-13, 0.0, "chi2.ppf");
    let isf = map2(&p, &d, |a, b| tests::chi2_isf(a, b).expect("valid"));
    assert_close(&isf, &c.vector("isf"), 1e-13, 0.0, "chi2.isf");
}

#[test]
fn contingency_matches_scipy() {
    let g = golden();
    let cases: Vec<&Case> = g.cases_with_prefix("contingency_");
    assert!(cases.len() >= 10);
    for c in cases {
        let yates = c.usize("yates") == 1;
        let t = tests::chi2_independence_with(&c.matrix("table"), yates).expect("valid table");
        let name = c.name();
        assert_close_scalar(t.statistic, c.scalar("statistic"), 1e-12, 1e-14, name);
        assert_close_scalar(t.p_value, c.scalar("p_value"), 1e-12, 1e-300, name);
        assert_eq!(t.dof, c.usize("dof"), "{name}");
        assert_close(&t.expected, &c.matrix("expected"), 1e-14, 0.0, name);
    }
}

#[test]
fn entropy_and_mutual_information_match() {
    let g = golden();
    for c in g.cases_with_prefix("entropy_") {
        let base = c.scalar("base");
        let base = (base != 0.0).then_some(base);
        let h = information::entropy(&c.vector("p"), base).expect("valid p");
        assert_close_scalar(h, c.scalar("value"), 1e-13, 0.0, c.name());
    }
    for c in g.cases_with_prefix("mi_discrete_") {
        let (a, b) = (c.usize_vector("a"), c.usize_vector("b"));
        let mi = information::mutual_information_discrete(&a, &b).expect("same length");
        assert_close_scalar(mi, c.scalar("value"), 1e-12, 1e-15, c.name());
        let h = information::entropy_of_labels(&a);
        assert_close_scalar(h, c.scalar("h_a"), 1e-13, 0.0, c.name());
    }
    for c in g.cases_with_prefix("mi_binned_") {
        let mi =
            information::mutual_information_binned(&c.vector("x"), &c.vector("y"), c.usize("bins"))
                .expect("valid");
        assert_close_scalar(mi, c.scalar("value"), 1e-12, 1e-15, c.name());
    }
    let labels = g.cases_with_prefix("mi_labels_");
    assert!(labels.len() >= 4);
    for c in labels {
        let x = c.vector("x");
        let mi = information::mutual_information_binned_labels(
            &x,
            &c.usize_vector("y"),
            c.usize("bins"),
        )
        .expect("valid");
        assert_close_scalar(mi, c.scalar("value"), 1e-12, 1e-15, c.name());
        // the f32 path bins the same data (to within edge effects of the rounding)
        let xf = x.mapv(|v| v as f32);
        let mf = information::mutual_information_binned_labels(
            &xf,
            &c.usize_vector("y"),
            c.usize("bins"),
        )
        .expect("valid");
        assert!((mf - mi).abs() < 0.05, "{}: f32 {mf} vs f64 {mi}", c.name());
    }
}
