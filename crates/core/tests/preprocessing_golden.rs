//! `preprocessing` against scikit-learn 1.9.1 / numpy / scipy
//! (`datasets/golden/core/preprocessing.json`, written by `scripts/golden/core_preprocessing.py`).
//!
//! Every value must agree to 1e-12 (relative, absolute 1e-12 near zero).

use ndarray::{Array1, Array2};
use ndlearn_core::FitUnsupervisedWeighted;
use ndlearn_core::preprocessing::*;
use ndlearn_core::{FitUnsupervised, InverseTransform, Transform};
use ndlearn_testkit::{Case, Golden, assert_close};

const TOL: f64 = 1e-12;

fn golden() -> Golden {
    Golden::load("core", "preprocessing")
}

fn flag(c: &Case, f: &str) -> bool {
    c.usize(f) == 1
}

fn close(got: &Array2<f64>, want: &Array2<f64>, what: &str) {
    assert_close(got, want, TOL, TOL, what);
}

fn close1(got: &Array1<f64>, want: &Array1<f64>, what: &str) {
    assert_close(got, want, TOL, TOL, what);
}

/// Splits a flat vector into consecutive pieces of the given lengths.
fn split(flat: &Array1<f64>, lens: &[usize]) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    let mut at = 0;
    for &l in lens {
        out.push(flat.slice(ndarray::s![at..at + l]).to_vec());
        at += l;
    }
    assert_eq!(at, flat.len());
    out
}

#[test]
fn standard_scaler() {
    let g = golden();
    let cases = g.cases_with_prefix("standard_wine");
    assert_eq!(cases.len(), 3);
    for c in cases {
        let n = c.name();
        let s = StandardScaler::new()
            .with_mean(flag(c, "with_mean"))
            .with_std(flag(c, "with_std"));
        let f = s.fit(&c.matrix("x")).expect("fit");
        close1(f.mean(), &c.vector("mean"), n);
        close1(f.var(), &c.vector("var"), n);
        close(&f.transform(&c.matrix("x")).expect("t"), &c.matrix("z"), n);
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            n,
        );
        close(
            &f.inverse_transform(&c.matrix("z_test")).expect("inv"),
            &c.matrix("inv"),
            n,
        );
    }
    let c = g.case("standard_weighted_constant");
    let f = StandardScaler::new()
        .fit_weighted(&c.matrix("x"), Some(&c.vector("w")))
        .expect("fit");
    close1(f.mean(), &c.vector("mean"), "weighted mean");
    // The near-constant column's variance (~1e-18) is only meaningful to absolute precision.
    assert_close(f.var(), &c.vector("var"), 1e-10, 1e-20, "weighted var");
    close1(f.scale(), &c.vector("scale"), "weighted scale");
    assert_close(
        &f.transform(&c.matrix("x")).expect("t"),
        &c.matrix("z"),
        1e-7,
        1e-7,
        "weighted z (near-constant column amplifies rounding)",
    );
}

#[test]
fn min_max_max_abs_robust_mean_abs_dev() {
    let g = golden();
    for c in g.cases_with_prefix("minmax_") {
        let f = MinMaxScaler::default()
            .feature_range(c.scalar("lo"), c.scalar("hi"))
            .clip(flag(c, "clip"))
            .fit(&c.matrix("x"))
            .expect("fit");
        close1(f.scale(), &c.vector("scale"), c.name());
        close1(f.min(), &c.vector("min"), c.name());
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            c.name(),
        );
        let z = f.transform(&c.matrix("x_test")).expect("t");
        close(
            &f.inverse_transform(&z).expect("inv"),
            &c.matrix("inv"),
            c.name(),
        );
    }
    let c = g.case("maxabs_diabetes");
    let f = MaxAbsScaler::new().fit(&c.matrix("x")).expect("fit");
    close1(f.scale(), &c.vector("scale"), "maxabs");
    close(
        &f.transform(&c.matrix("x_test")).expect("t"),
        &c.matrix("z_test"),
        "maxabs",
    );
    let robust = g.cases_with_prefix("robust_");
    assert_eq!(robust.len(), 3);
    for c in robust {
        let f = RobustScaler::default()
            .quantile_range(c.scalar("q_lo"), c.scalar("q_hi"))
            .with_centering(flag(c, "with_centering"))
            .with_scaling(flag(c, "with_scaling"))
            .fit(&c.matrix("x"))
            .expect("fit");
        close1(f.center(), &c.vector("center"), c.name());
        close1(f.scale(), &c.vector("scale"), c.name());
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            c.name(),
        );
    }
    let c = g.case("meanabsdev_wine");
    let f = MeanAbsDevScaler::new().fit(&c.matrix("x")).expect("fit");
    close1(f.mean(), &c.vector("mean"), "mad mean");
    close1(f.scale(), &c.vector("scale"), "mad scale");
    close(
        &f.transform(&c.matrix("x_test")).expect("t"),
        &c.matrix("z_test"),
        "mad z",
    );
    for c in g.cases_with_prefix("normalizer_") {
        let norm = match c.string("norm") {
            "l1" => Norm::L1,
            "l2" => Norm::L2,
            _ => Norm::Max,
        };
        let x = c.matrix("x");
        let f = Normalizer::new(norm).fit(&x).expect("fit");
        close(&f.transform(&x).expect("t"), &c.matrix("z"), c.name());
    }
}

#[test]
fn encoders() {
    let g = golden();
    let cases = g.cases_with_prefix("onehot_");
    assert_eq!(cases.len(), 3);
    for c in cases {
        let drop = match c.string("drop") {
            "none" => DropCategory::None,
            "first" => DropCategory::First,
            _ => DropCategory::IfBinary,
        };
        let x = c.matrix("x");
        let f = OneHotEncoder::default()
            .drop(drop)
            .handle_unknown(HandleUnknown::Ignore)
            .fit(&x)
            .expect("fit");
        let cats = split(
            &c.vector("categories_flat"),
            &c.usize_vector("n_categories"),
        );
        assert_eq!(f.categories(), cats.as_slice(), "{}", c.name());
        let z = f.transform(&x).expect("t");
        close(&z, &c.matrix("z"), c.name());
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            c.name(),
        );
        close(&f.inverse_transform(&z).expect("inv"), &x, c.name());
    }
    let c = g.case("ordinal_unknown");
    let f = OrdinalEncoder::default()
        .handle_unknown(OrdinalUnknown::UseEncodedValue(-1.0))
        .fit(&c.matrix("x"))
        .expect("fit");
    close(
        &f.transform(&c.matrix("x")).expect("t"),
        &c.matrix("z"),
        "ordinal",
    );
    close(
        &f.transform(&c.matrix("x_test")).expect("t"),
        &c.matrix("z_test"),
        "ordinal test",
    );
}

#[test]
fn kbins_discretizer() {
    let g = golden();
    let cases = g.cases_with_prefix("kbins_");
    assert!(cases.len() >= 20, "{}", cases.len());
    for c in cases {
        let n = c.name();
        let (strategy, method) = match c.string("strategy") {
            "uniform" => (BinStrategy::Uniform, BinQuantileMethod::AveragedInvertedCdf),
            "quantile" => (
                BinStrategy::Quantile,
                BinQuantileMethod::AveragedInvertedCdf,
            ),
            "quantile_linear" => (BinStrategy::Quantile, BinQuantileMethod::Linear),
            _ => (BinStrategy::KMeans, BinQuantileMethod::AveragedInvertedCdf),
        };
        let encode = if c.string("encode") == "ordinal" {
            BinEncode::Ordinal
        } else {
            BinEncode::OneHot
        };
        let f = KBinsDiscretizer::new(c.usize("n_bins"))
            .strategy(strategy)
            .quantile_method(method)
            .encode(encode)
            .fit(&c.matrix("x"))
            .expect("fit");
        let nb = c.usize_vector("n_bins_");
        assert_eq!(f.n_bins(), nb.as_slice(), "{n}: n_bins");
        let edges = split(
            &c.vector("edges_flat"),
            &nb.iter().map(|b| b + 1).collect::<Vec<_>>(),
        );
        for (j, (got, want)) in f.bin_edges().iter().zip(&edges).enumerate() {
            if want.len() == 2 && nb[j] == 1 && got[0] == got[1] {
                continue; // constant column: [c, c] here, [-inf, inf] in scikit-learn
            }
            close1(&Array1::from(got.clone()), &Array1::from(want.clone()), n);
        }
        let z = f.transform(&c.matrix("x_test")).expect("t");
        close(&z, &c.matrix("z_test"), n);
        close(&f.inverse_transform(&z).expect("inv"), &c.matrix("inv"), n);
    }
}

/// `x` with NaN where `missing` is 1.
fn with_nan(c: &Case, x: &str, m: &str) -> Array2<f64> {
    let mut v = c.matrix(x);
    let mask = c.matrix(m);
    v.zip_mut_with(&mask, |a, &b| {
        if b == 1.0 {
            *a = f64::NAN;
        }
    });
    v
}

#[test]
fn simple_imputer() {
    let g = golden();
    let cases = g.cases_with_prefix("imputer_");
    assert_eq!(cases.len(), 8);
    for c in cases {
        let strategy = match c.string("strategy") {
            "mean" => ImputeStrategy::Mean,
            "median" => ImputeStrategy::Median,
            "most_frequent" => ImputeStrategy::MostFrequent,
            _ => ImputeStrategy::Constant(c.scalar("fill_value")),
        };
        let f = SimpleImputer::new(strategy)
            .keep_empty_features(flag(c, "keep"))
            .fit(&with_nan(c, "x", "missing"))
            .expect("fit");
        let stats = c.vector("statistics");
        let valid = c.usize_vector("valid");
        for (j, s) in f.statistics().iter().enumerate() {
            match s {
                Some(v) => {
                    assert_eq!(valid[j], 1, "{}: column {j}", c.name());
                    assert!(
                        (v - stats[j]).abs() <= TOL * stats[j].abs().max(1.0),
                        "{}",
                        c.name()
                    );
                }
                None => assert_eq!(valid[j], 0, "{}: column {j}", c.name()),
            }
        }
        let z = f
            .transform(&with_nan(c, "x_test", "missing_test"))
            .expect("t");
        close(&z, &c.matrix("z_test"), c.name());
    }
}

#[test]
fn polynomial_features() {
    let g = golden();
    let cases = g.cases_with_prefix("poly_");
    assert_eq!(cases.len(), 7);
    for c in cases {
        let f = PolynomialFeatures::new(c.usize("degree"))
            .min_degree(c.usize("min_degree"))
            .interaction_only(flag(c, "interaction_only"))
            .include_bias(flag(c, "include_bias"))
            .fit(&c.matrix("x"))
            .expect("fit");
        let powers = c.matrix("powers");
        let got: Vec<Vec<f64>> = f
            .powers()
            .iter()
            .map(|r| r.iter().map(|&v| v as f64).collect())
            .collect();
        let want: Vec<Vec<f64>> = powers.rows().into_iter().map(|r| r.to_vec()).collect();
        assert_eq!(got, want, "{}: powers", c.name());
        let names: Vec<String> = c.string("names").split('|').map(String::from).collect();
        assert_eq!(f.feature_names(None).expect("names"), names, "{}", c.name());
        // Bitwise: the same products in the same order as scikit-learn.
        let z = f.transform(&c.matrix("x")).expect("t");
        assert_eq!(z, c.matrix("z"), "{}", c.name());
    }
}

#[test]
fn basis_expansions() {
    let g = golden();
    for c in g.cases_with_prefix("vandermonde_") {
        let x = c.matrix("x");
        let f = VandermondeFeatures::new(c.usize("degree"))
            .include_bias(flag(c, "include_bias"))
            .fit(&x)
            .expect("fit");
        close(&f.transform(&x).expect("t"), &c.matrix("z"), c.name());
        // The 1-D function on column 0.
        let v = vandermonde(&x.column(0), c.usize("degree"), true).expect("v");
        assert_eq!(v.column(0).to_vec(), vec![1.0; x.nrows()]);
    }
    for c in g.cases_with_prefix("rbf_even") {
        let x = c.matrix("x");
        let k = c.usize("k");
        let f = GaussianRbfFeatures::default()
            .centres(RbfCentres::EvenlySpaced(k))
            .width(RbfWidth::SpacingFactor(c.scalar("factor")))
            .fit(&x)
            .expect("fit");
        let flat: Vec<f64> = f.centres().iter().flatten().copied().collect();
        close1(&Array1::from(flat), &c.vector("centres_flat"), c.name());
        close1(f.sigma(), &c.vector("sigma"), c.name());
        close(&f.transform(&x).expect("t"), &c.matrix("z"), c.name());
    }
    let c = g.case("rbf_given_gamma");
    let f = GaussianRbfFeatures::default()
        .centres(RbfCentres::Given(c.vector("centres").to_vec()))
        .width(RbfWidth::Gamma(c.scalar("gamma")))
        .include_bias(true)
        .fit(&c.matrix("x"))
        .expect("fit");
    close(
        &f.transform(&c.matrix("x")).expect("t"),
        &c.matrix("z"),
        "rbf gamma",
    );
    let one = gaussian_rbf(
        &c.matrix("x").column(0),
        &c.vector("centres"),
        1.0 / (2.0 * c.scalar("gamma")).sqrt(),
    )
    .expect("rbf");
    let want = c.matrix("z").slice(ndarray::s![.., 1..4]).to_owned();
    close(&one, &want, "gaussian_rbf 1-D");
    let c = g.case("rbf_quantile3_sigma");
    let f = GaussianRbfFeatures::default()
        .centres(RbfCentres::Quantiles(c.usize("k")))
        .width(RbfWidth::Sigma(c.scalar("sigma")))
        .fit(&c.matrix("x"))
        .expect("fit");
    close(
        &f.transform(&c.matrix("x")).expect("t"),
        &c.matrix("z"),
        "rbf quantiles",
    );
    for c in g.cases_with_prefix("fourier_") {
        let x = c.matrix("x");
        let f = FourierFeatures::new(c.usize("n_harmonics"))
            .frequency(Frequency::Period(c.scalar("period")))
            .fit(&x)
            .expect("fit");
        close(&f.transform(&x).expect("t"), &c.matrix("z"), c.name());
    }
    let c = g.case("square_embedding");
    let x = c.matrix("x");
    let z = SquareEmbedding::new()
        .fit(&x)
        .expect("fit")
        .transform(&x)
        .expect("t");
    close(&z, &c.matrix("z"), "square");
    let c = g.case("radius_embedding");
    let z = RadiusEmbedding::new()
        .fit(&x)
        .expect("fit")
        .transform(&x)
        .expect("t");
    close(&z, &c.matrix("z"), "radius");
}

#[test]
fn spline_transformer() {
    let g = golden();
    let cases = g.cases_with_prefix("spline_d");
    assert!(cases.len() >= 150, "{}", cases.len());
    for c in cases {
        let n = c.name();
        let extrapolation = match c.string("extrapolation") {
            "constant" => Extrapolation::Constant,
            "linear" => Extrapolation::Linear,
            "continue" => Extrapolation::Continue,
            "periodic" => Extrapolation::Periodic,
            _ => Extrapolation::Error,
        };
        let knots = if c.string("knots") == "uniform" {
            SplineKnots::Uniform
        } else {
            SplineKnots::Quantile
        };
        let f = SplineTransformer::new(c.usize("n_knots"), c.usize("degree"))
            .knots(knots)
            .extrapolation(extrapolation)
            .include_bias(flag(c, "include_bias"))
            .fit(&c.matrix("x"))
            .expect("fit");
        let t: Vec<f64> = (0..f.n_features())
            .flat_map(|j| f.knots(j).expect("knots").to_vec())
            .collect();
        close1(&Array1::from(t), &c.vector("t_flat"), n);
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            n,
        );
    }
    let c = g.case("spline_given_knots_linear");
    let lists: Vec<Vec<f64>> = c
        .matrix("knots_cols")
        .rows()
        .into_iter()
        .map(|r| r.to_vec())
        .collect();
    let f = SplineTransformer::new(5, 3)
        .knots(SplineKnots::Given(lists))
        .extrapolation(Extrapolation::Linear)
        .fit(&c.matrix("x"))
        .expect("fit");
    close(
        &f.transform(&c.matrix("x_test")).expect("t"),
        &c.matrix("z_test"),
        "given knots",
    );
    for c in g.cases_with_prefix("spline_repeated_") {
        let f = SplineTransformer::new(2, c.usize("degree"))
            .knots(SplineKnots::Given(vec![c.vector("knots").to_vec()]))
            .extrapolation(Extrapolation::Continue)
            .fit(&c.matrix("x_test"))
            .expect("fit");
        close1(
            &Array1::from(f.knots(0).expect("t").to_vec()),
            &c.vector("t"),
            c.name(),
        );
        close(
            &f.transform(&c.matrix("x_test")).expect("t"),
            &c.matrix("z_test"),
            c.name(),
        );
    }
}

fn docs(c: &Case) -> Vec<String> {
    match c.raw("docs") {
        serde_json::Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().expect("a string document").to_string())
            .collect(),
        other => panic!("docs: expected a list, got {other}"),
    }
}

#[test]
fn text_features() {
    let g = golden();
    for name in ["count_vectorizer", "count_vectorizer_binary_case"] {
        let c = g.case(name);
        let d = docs(c);
        let cv = CountVectorizer::default()
            .binary(name.contains("binary"))
            .lowercase(!name.contains("case"))
            .fit(&d)
            .expect("fit");
        let vocab: Vec<String> = c
            .string("vocabulary")
            .split('|')
            .map(String::from)
            .collect();
        assert_eq!(cv.vocabulary(), vocab.as_slice(), "{name}");
        assert_eq!(cv.transform::<f64, _>(&d), c.matrix("counts"), "{name}");
    }
    let cases = g.cases_with_prefix("tfidf_");
    assert!(cases.len() >= 40, "{}", cases.len());
    for c in cases {
        let norm = match c.string("norm") {
            "l2" => TfidfNorm::L2,
            "l1" => TfidfNorm::L1,
            _ => TfidfNorm::None,
        };
        let x = c.matrix("x");
        let f = TfidfTransformer::default()
            .norm(norm)
            .smooth_idf(flag(c, "smooth_idf"))
            .sublinear_tf(flag(c, "sublinear_tf"))
            .use_idf(flag(c, "use_idf"))
            .fit(&x)
            .expect("fit");
        close1(&f.idf(), &c.vector("idf"), c.name());
        close(&f.transform(&x).expect("t"), &c.matrix("z"), c.name());
    }
}
