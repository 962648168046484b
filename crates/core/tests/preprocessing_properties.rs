//! Property tests of `ndlearn_core::preprocessing` (few cases: CI has 2 cores).
//!
//! inverse_transform ∘ transform = identity (scalers, one-hot, ordinal); StandardScaler output
//! has mean 0 and standard deviation 1 in every non-constant column; PolynomialFeatures has
//! C(d + p, p) columns, each the product of powers of its exponents; TF-IDF rows have unit
//! norm; splines sum to 1 inside the knots; the parallel transformers give bitwise identical
//! results for 1 and 3 threads (with enough rows to span several blocks).

use ndarray::Array2;
use ndlearn_core::FitUnsupervisedWeighted;
use ndlearn_core::preprocessing::*;
use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, par, random};
use ndlearn_testkit::{any_matrix, assert_bitwise_eq, config};
use proptest::prelude::*;

fn binom(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn max_diff(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// `n × d` standard normal data with column scales `1, 10, 100, …` and offsets.
fn gaussian(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    Array2::from_shape_fn((n, d), |(_, j)| {
        let z: f64 = random::standard_normal(&mut rng);
        z * 10f64.powi((j % 3) as i32) + j as f64
    })
}

fn int_matrix() -> impl Strategy<Value = Array2<f64>> {
    (1usize..30, 1usize..5).prop_flat_map(|(r, c)| {
        proptest::collection::vec(0u8..5, r * c).prop_map(move |v| {
            Array2::from_shape_vec((r, c), v.into_iter().map(f64::from).collect())
                .expect("r * c entries")
        })
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn scalers_invert(x in any_matrix(1..40, 1..6, 50.0)) {
        let tol = 1e-11 * 50.0;
        let s = StandardScaler::default().fit(&x).expect("fit");
        prop_assert!(max_diff(&s.inverse_transform(&s.transform(&x).expect("t")).expect("inv"), &x) < tol);
        let s = MinMaxScaler::default().feature_range(-3.0, 2.0).fit(&x).expect("fit");
        prop_assert!(max_diff(&s.inverse_transform(&s.transform(&x).expect("t")).expect("inv"), &x) < tol);
        let s = MaxAbsScaler::new().fit(&x).expect("fit");
        prop_assert!(max_diff(&s.inverse_transform(&s.transform(&x).expect("t")).expect("inv"), &x) < tol);
        let s = RobustScaler::default().fit(&x).expect("fit");
        prop_assert!(max_diff(&s.inverse_transform(&s.transform(&x).expect("t")).expect("inv"), &x) < tol);
        let s = MeanAbsDevScaler::new().fit(&x).expect("fit");
        prop_assert!(max_diff(&s.inverse_transform(&s.transform(&x).expect("t")).expect("inv"), &x) < tol);
    }

    #[test]
    fn encoders_invert(x in int_matrix()) {
        for drop in [DropCategory::None, DropCategory::First, DropCategory::IfBinary] {
            let e = OneHotEncoder::default().drop(drop).fit(&x).expect("fit");
            let z = e.transform(&x).expect("t");
            // Exactly one 1 per kept feature block, or none for a dropped category.
            prop_assert!(z.iter().all(|&v| v == 0.0 || v == 1.0));
            prop_assert!(z.rows().into_iter().all(|r| r.sum() <= x.ncols() as f64));
            prop_assert_eq!(e.inverse_transform(&z).expect("inv"), x.clone());
        }
        let o = OrdinalEncoder::default().fit(&x).expect("fit");
        prop_assert_eq!(o.inverse_transform(&o.transform(&x).expect("t")).expect("inv"), x.clone());
    }

    #[test]
    fn standard_scaler_standardises(x in any_matrix(2..60, 1..6, 1e3)) {
        let z = StandardScaler::default().fit(&x).expect("fit").transform(&x).expect("t");
        let n = x.nrows() as f64;
        for j in 0..x.ncols() {
            let col = x.column(j);
            let (lo, hi) = col.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
            let zc = z.column(j);
            let mean = zc.sum() / n;
            prop_assert!(mean.abs() < 1e-10, "column {} mean {}", j, mean);
            if hi - lo > 1e-6 * hi.abs().max(lo.abs()).max(1.0) {
                let var = zc.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
                prop_assert!((var.sqrt() - 1.0).abs() < 1e-9, "column {} std {}", j, var.sqrt());
            }
        }
    }

    #[test]
    fn polynomial_counts_and_products(d in 1usize..6, p in 0usize..5, seed in 0u64..1000) {
        let x = gaussian(4, d, seed).mapv(|v| v / 100.0);
        let f = PolynomialFeatures::new(p).fit(&x).expect("fit");
        prop_assert_eq!(f.n_features_out(), binom(d + p, p));
        let z = f.transform(&x).expect("t");
        for (c, pw) in f.powers().iter().enumerate() {
            prop_assert_eq!(pw.iter().sum::<usize>() <= p, true);
            for i in 0..x.nrows() {
                let want: f64 = pw.iter().enumerate().map(|(j, &e)| x[[i, j]].powi(e as i32)).product();
                prop_assert!((z[[i, c]] - want).abs() <= 1e-12 * want.abs().max(1e-300));
            }
        }
        if p >= 1 {
            let inter = PolynomialFeatures::new(p).interaction_only(true).fit(&x).expect("fit");
            let want: usize = (0..=p.min(d)).map(|k| binom(d, k)).sum();
            prop_assert_eq!(inter.n_features_out(), want);
        }
    }

    #[test]
    fn tfidf_rows_have_unit_norm(x in int_matrix()) {
        let z = TfidfTransformer::default().fit(&x).expect("fit").transform(&x).expect("t");
        for (r, zr) in x.rows().into_iter().zip(z.rows()) {
            let norm = zr.iter().map(|v| v * v).sum::<f64>().sqrt();
            if r.iter().any(|&v| v != 0.0) {
                prop_assert!((norm - 1.0).abs() < 1e-12);
            } else {
                prop_assert_eq!(norm, 0.0);
            }
        }
    }

    #[test]
    fn splines_partition_unity(seed in 0u64..1000, degree in 0usize..4, n_knots in 2usize..8) {
        let x = gaussian(30, 2, seed);
        let f = SplineTransformer::new(n_knots, degree).fit(&x).expect("fit");
        let z = f.transform(&x).expect("t");
        let ns = n_knots + degree - 1;
        for row in z.rows() {
            for j in 0..2 {
                let s: f64 = row.slice(ndarray::s![j * ns..(j + 1) * ns]).sum();
                prop_assert!((s - 1.0).abs() < 1e-12, "sum {}", s);
                prop_assert!(row.iter().all(|&v| v >= -1e-15));
            }
        }
    }
}

#[test]
fn parallel_transformers_are_thread_count_invariant() {
    // 5,000 rows: several statistics blocks (2,048 rows) and many transform blocks.
    let x = gaussian(5_000, 7, 42);
    let run = |t: usize| {
        par::with_threads(t, || {
            let s = StandardScaler::default().fit(&x).expect("fit");
            let w = ndarray::Array1::from_shape_fn(x.nrows(), |i| (i % 7) as f64 * 0.25);
            let sw = StandardScaler::default()
                .fit_weighted(&x, Some(&w))
                .expect("fit");
            let p = PolynomialFeatures::new(3).fit(&x).expect("fit");
            let m = MeanAbsDevScaler::new().fit(&x).expect("fit");
            let r = RobustScaler::default().fit(&x).expect("fit");
            let k = KBinsDiscretizer::new(5)
                .strategy(BinStrategy::KMeans)
                .fit(&x)
                .expect("fit");
            let sp = SplineTransformer::new(6, 3).fit(&x).expect("fit");
            vec![
                s.transform(&x).expect("t"),
                sw.transform(&x).expect("t"),
                p.transform(&x).expect("t"),
                m.transform(&x).expect("t"),
                r.transform(&x).expect("t"),
                k.transform(&x).expect("t"),
                sp.transform(&x).expect("t"),
                MinMaxScaler::default()
                    .fit(&x)
                    .expect("fit")
                    .transform(&x)
                    .expect("t"),
            ]
        })
        .expect("pool")
    };
    let one = run(1);
    let three = run(3);
    for (i, (a, b)) in one.iter().zip(&three).enumerate() {
        assert_bitwise_eq(a, b, &format!("transformer {i}"));
    }
}
