//! `stats::distributions` against scipy.stats (`datasets/golden/core/stats.json`, cases
//! `dist_*`, written by `scripts/golden/core_stats.py`).
//!
//! Densities, distribution functions and quantiles agree to 1e-12 relative (1e-11 for the
//! Beta and Gamma quantiles and tails, whose scipy references come from boost's iterative
//! inverses); moments to 1e-14.

use ndarray::Array1;
use ndlearn_core::stats::distributions::{
    Bernoulli, Beta, Binomial, Dirichlet, Discrete, Exponential, Gamma, Laplace, LogNormal,
    Multinomial, MultivariateNormal, Normal, Uniform, Univariate,
};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn law_of(name: &str, c: &Case) -> Box<dyn Univariate> {
    let r = match name {
        n if n.starts_with("normal") => Normal::new(c.scalar("mean"), c.scalar("std"))
            .map(|d| Box::new(d) as Box<dyn Univariate>),
        "laplace" => Laplace::new(c.scalar("loc"), c.scalar("scale")).map(|d| Box::new(d) as _),
        "uniform" => Uniform::new(c.scalar("low"), c.scalar("high")).map(|d| Box::new(d) as _),
        n if n.starts_with("beta") => {
            Beta::new(c.scalar("alpha"), c.scalar("beta")).map(|d| Box::new(d) as _)
        }
        n if n.starts_with("lognormal") => {
            LogNormal::new(c.scalar("mu"), c.scalar("sigma")).map(|d| Box::new(d) as _)
        }
        n if n.starts_with("gamma") => {
            Gamma::new(c.scalar("shape"), c.scalar("scale")).map(|d| Box::new(d) as _)
        }
        "exponential" => Exponential::new(c.scalar("scale")).map(|d| Box::new(d) as _),
        other => panic!("unknown law {other}"),
    };
    r.expect("valid parameters")
}

#[test]
fn univariate_laws_match_scipy() {
    let g = Golden::load("core", "stats");
    let names = [
        "normal_std",
        "normal",
        "laplace",
        "uniform",
        "beta_2_5",
        "beta_half",
        "beta_skew",
        "beta_large",
        "lognormal",
        "lognormal_2",
        "gamma_small",
        "gamma",
        "exponential",
    ];
    for name in names {
        let c = g.case(&format!("dist_{name}"));
        let d = law_of(name, c);
        let x = c.vector("x");
        let tol = if name.starts_with("beta") || name.starts_with("gamma") {
            1e-11
        } else {
            1e-12
        };
        let ctx = |f: &str| format!("{name}.{f}");
        assert_close(
            &x.mapv(|v| d.pdf(v)),
            &c.vector("pdf"),
            tol,
            0.0,
            &ctx("pdf"),
        );
        assert_close(
            &d.logpdf_many(&x),
            &c.vector("logpdf"),
            tol,
            1e-14,
            &ctx("logpdf"),
        );
        assert_close(
            &x.mapv(|v| d.cdf(v)),
            &c.vector("cdf"),
            tol,
            0.0,
            &ctx("cdf"),
        );
        assert_close(&x.mapv(|v| d.sf(v)), &c.vector("sf"), tol, 0.0, &ctx("sf"));
        let ppf = c.vector("p").mapv(|p| d.ppf(p).expect("p in [0, 1]"));
        assert_close(&ppf, &c.vector("ppf"), tol, 1e-14, &ctx("ppf"));
        assert_close_scalar(d.mean(), c.scalar("mean"), 1e-14, 0.0, &ctx("mean"));
        assert_close_scalar(d.var(), c.scalar("var"), 1e-14, 0.0, &ctx("var"));
    }
}

#[test]
fn discrete_laws_match_scipy() {
    let g = Golden::load("core", "stats");
    let binoms = g.cases_with_prefix("dist_binom_");
    assert_eq!(binoms.len(), 4);
    for c in binoms {
        let b = Binomial::new(c.usize("n") as u64, c.scalar("p_success")).expect("valid");
        let k: Vec<u64> = c.usize_vector("k").into_iter().map(|v| v as u64).collect();
        let name = c.name();
        let pmf: Array1<f64> = k.iter().map(|&v| b.pmf(v)).collect();
        assert_close(&pmf, &c.vector("pmf"), 1e-12, 0.0, name);
        let lp: Array1<f64> = k.iter().map(|&v| b.logpmf(v)).collect();
        assert_close(&lp, &c.vector("logpmf"), 1e-13, 1e-13, name);
        let cdf: Array1<f64> = k.iter().map(|&v| b.cdf(v)).collect();
        assert_close(&cdf, &c.vector("cdf"), 1e-12, 0.0, name);
        let sf: Array1<f64> = k.iter().map(|&v| b.sf(v)).collect();
        assert_close(&sf, &c.vector("sf"), 1e-12, 1e-300, name);
        let q = c.vector("q");
        let ppf: Vec<usize> = q
            .iter()
            .map(|&p| b.ppf(p).expect("valid") as usize)
            .collect();
        assert_eq!(ppf, c.usize_vector("ppf"), "{name} ppf");
    }
    let c = g.case("dist_bernoulli");
    let b = Bernoulli::new(c.scalar("p_success")).expect("valid");
    assert_close(
        &Array1::from(vec![b.pmf(0), b.pmf(1)]),
        &c.vector("pmf"),
        1e-15,
        0.0,
        "bernoulli",
    );
    assert_close(
        &Array1::from(vec![b.cdf(0), b.cdf(1)]),
        &c.vector("cdf"),
        1e-15,
        0.0,
        "bernoulli",
    );
    let c = g.case("dist_multinomial");
    let probs = c.vector("probs").to_vec();
    let m = Multinomial::new(c.usize("n") as u64, &probs).expect("valid");
    let counts = c.matrix("counts");
    let pmf: Array1<f64> = counts
        .rows()
        .into_iter()
        .map(|r| {
            let r: Vec<u64> = r.iter().map(|&v| v as u64).collect();
            m.pmf(&r).expect("right length")
        })
        .collect();
    assert_close(&pmf, &c.vector("pmf"), 1e-13, 0.0, "multinomial");
}

#[test]
fn multivariate_laws_match_scipy() {
    let g = Golden::load("core", "stats");
    for name in ["dist_mvn_random", "dist_mvn_iris"] {
        let c = g.case(name);
        let m = MultivariateNormal::new(c.vector("mean"), c.matrix("cov")).expect("SPD");
        let x = c.matrix("x");
        let want = c.vector("logpdf");
        assert_close(
            &m.logpdf_rows(&x).expect("shape"),
            &want,
            1e-12,
            1e-12,
            name,
        );
        let one: Array1<f64> = x
            .rows()
            .into_iter()
            .map(|r| m.logpdf(&r).expect("ok"))
            .collect();
        assert_close(&one, &want, 1e-12, 1e-12, name);
    }
    let dir = g.cases_with_prefix("dist_dirichlet_");
    assert_eq!(dir.len(), 3);
    for c in dir {
        let alpha = c.vector("alpha").to_vec();
        let d = Dirichlet::new(&alpha).expect("valid");
        let x = c.matrix("x");
        let lp: Array1<f64> = x
            .rows()
            .into_iter()
            .map(|r| d.logpdf(&r).expect("simplex"))
            .collect();
        assert_close(&lp, &c.vector("logpdf"), 1e-12, 1e-13, c.name());
        assert_close(&d.mean(), &c.vector("mean"), 1e-15, 0.0, c.name());
        assert_close(&d.var(), &c.vector("var"), 1e-14, 0.0, c.name());
    }
}
