//! `stats::kde` against `scipy.stats.gaussian_kde` (1-D, Silverman / Scott / scalar factor)
//! and `sklearn.neighbors.KernelDensity` (Gaussian and tophat, 1-D and 3-D)
//! (`datasets/golden/core/stats.json`, cases `kde_*`).

use ndarray::Axis;
use ndlearn_core::FitUnsupervised;
use ndlearn_core::stats::kde::{Bandwidth, KdeKernel, KernelDensity};
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};

#[test]
fn one_dimensional_rules_match_gaussian_kde() {
    let g = Golden::load("core", "stats");
    let cases = g.cases_with_prefix("kde_scipy_1d_");
    assert_eq!(cases.len(), 3);
    for c in cases {
        let bw = match c.string("rule") {
            "silverman" => Bandwidth::Silverman,
            "scott" => Bandwidth::Scott,
            _ => Bandwidth::Factor(c.scalar("factor")),
        };
        let kde = KernelDensity::default()
            .bandwidth(bw)
            .fit_1d(&c.vector("x"))
            .expect("valid");
        assert_close_scalar(
            kde.bandwidths()[0],
            c.scalar("bandwidth"),
            1e-14,
            0.0,
            c.name(),
        );
        let q = c.vector("q").insert_axis(Axis(1));
        let lp = kde.score_samples(&q).expect("shape");
        assert_close(&lp, &c.vector("logpdf"), 1e-12, 1e-12, c.name());
    }
}

#[test]
fn fixed_bandwidth_matches_kernel_density() {
    let g = Golden::load("core", "stats");
    let cases = g.cases_with_prefix("kde_sklearn_");
    assert_eq!(cases.len(), 5);
    for c in cases {
        let kernel = match c.string("kernel") {
            "gaussian" => KdeKernel::Gaussian,
            "tophat" => KdeKernel::Tophat,
            other => panic!("unknown kernel {other}"),
        };
        let est = KernelDensity::default()
            .kernel(kernel)
            .bandwidth(Bandwidth::Fixed(c.scalar("bandwidth")));
        let kde = est.fit(&c.matrix("x")).expect("valid");
        let lp = kde.score_samples(&c.matrix("q")).expect("shape");
        assert_close(&lp, &c.vector("logpdf"), 1e-12, 1e-12, c.name());
        if kernel == KdeKernel::Gaussian {
            // f32 data give the same Gaussian estimate to single precision
            let kf = est.fit(&c.matrix("x").mapv(|v| v as f32)).expect("valid");
            let lf = kf
                .score_samples(&c.matrix("q").mapv(|v| v as f32))
                .expect("shape");
            assert_close(&lf, &c.vector("logpdf"), 1e-4, 1e-4, c.name());
        }
    }
}
