//! Properties of histogram gradient boosting: the conformance battery over its registry
//! entries, bitwise thread invariance, missing-value routing, early stopping, warm starts,
//! staged predictions and typed errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2};
use ndlearn_core::registry::Precision;
use ndlearn_core::{Error, Fit, Predict, PredictProba, par, random};
use ndlearn_testkit::Battery;
use ndlearn_tree::{
    EarlyStoppingMode, HistGradientBoostingClassifier, HistGradientBoostingRegressionLoss,
    HistGradientBoostingRegressor,
};
use rand::Rng;

fn regression_data(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
    let mut rng = random::rng(seed);
    let x: Array2<f64> = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..2.0));
    let y = x
        .rows()
        .into_iter()
        .map(|r| r[0].sin() * 2.0 + r[1] * r[1] - r[2] + rng.random_range(-0.1..0.1))
        .collect();
    (x, y)
}

#[cfg(feature = "serde")]
#[test]
fn registry_entries_conform_in_f64_and_f32() {
    for e in ndlearn_tree::registry()
        .iter()
        .filter(|e| e.name().starts_with("hist_gradient_boosting"))
    {
        for precision in [Precision::F64, Precision::F32] {
            let report = Battery::new(e.name()).entry(e, precision);
            assert!(report.is_ok(), "{report}");
        }
    }
}

/// The regressor's and the classifier's fits in a pool of each thread count.
fn fits_per_thread_count(
    threads: &[usize],
    (est, clf): (
        &HistGradientBoostingRegressor,
        &HistGradientBoostingClassifier,
    ),
    x: &Array2<f64>,
    (y, labels): (&Array1<f64>, &Array1<usize>),
) -> Vec<(
    ndlearn_tree::FittedHistGradientBoostingRegressor,
    ndlearn_tree::FittedHistGradientBoostingClassifier,
)> {
    threads
        .iter()
        .map(|&t| {
            par::with_threads(t, || {
                (
                    est.fit(x, y).expect("fit"),
                    clf.fit(x, labels).expect("fit"),
                )
            })
            .expect("pool")
        })
        .collect()
}

#[test]
fn models_are_bitwise_identical_for_1_2_and_3_threads() {
    // Above 32,768 rows: the parallel partition and histogram passes are exercised.
    let (x, y) = regression_data(40_000, 8, 1);
    let labels: Array1<usize> = y.mapv(|v| usize::from(v > 1.0) + usize::from(v > 2.5));
    let est = HistGradientBoostingRegressor::default()
        .max_iter(15)
        .max_features(0.7)
        .early_stopping(EarlyStoppingMode::On);
    let clf = HistGradientBoostingClassifier::default()
        .max_iter(8)
        .early_stopping(EarlyStoppingMode::On);
    let fits = fits_per_thread_count(&[1, 2, 3], (&est, &clf), &x, (&y, &labels));
    for f in &fits[1..] {
        assert_eq!(f.0, fits[0].0);
        assert_eq!(f.1, fits[0].1);
    }
    let p0: Array1<f64> = fits[0].0.predict(&x).expect("predict");
    let p2: Array1<f64> = par::with_threads(2, || fits[2].0.predict(&x))
        .expect("pool")
        .expect("predict");
    assert_eq!(p0, p2);
}

#[test]
fn missing_values_follow_the_learned_side() {
    // Missingness of feature 0 carries signal: rows with NaN have y = 5, the others y ≈ x₀.
    let mut rng = random::rng(7);
    let n = 1000;
    let mut x = Array2::from_shape_fn((n, 2), |_| rng.random_range(-1.0..1.0));
    let mut y = Array1::zeros(n);
    for i in 0..n {
        if i % 5 == 0 {
            x[[i, 0]] = f64::NAN;
            y[i] = 5.0;
        } else {
            y[i] = x[[i, 0]];
        }
    }
    let fit = HistGradientBoostingRegressor::default()
        .max_iter(50)
        .early_stopping(EarlyStoppingMode::Off)
        .fit(&x, &y)
        .expect("fit");
    let probe = ndarray::array![[f64::NAN, 0.0], [-0.9, 0.0], [0.9, 0.0]];
    let p = fit.predict(&probe).expect("predict");
    assert!((p[0] - 5.0).abs() < 0.2, "NaN rows learned as 5: {}", p[0]);
    assert!(p[1] < -0.5 && p[2] > 0.5, "{p}");
    // Feature 1 had no missing values: NaN there follows the child with more rows.
    for t in fit.trees() {
        for node in t.nodes().iter().filter(|n| !n.is_leaf && n.feature == 1) {
            let (l, r) = (
                &t.nodes()[node.left as usize],
                &t.nodes()[node.right as usize],
            );
            assert_eq!(node.missing_go_to_left, l.count > r.count);
        }
    }
    let with_nan = ndarray::array![[0.5, f64::NAN]];
    assert!(fit.predict(&with_nan).expect("predict")[0].is_finite());
}

#[test]
fn early_stopping_on_a_validation_split_stops_and_records_scores() {
    let (x, y) = regression_data(12_000, 4, 3);
    // Auto: on above 10,000 rows.
    let fit = HistGradientBoostingRegressor::default()
        .max_iter(500)
        .learning_rate(0.5)
        .fit(&x, &y)
        .expect("fit");
    assert!(fit.n_iter() < 500, "stopped early: {}", fit.n_iter());
    assert_eq!(fit.validation_score().len(), fit.n_iter() + 1);
    assert_eq!(fit.train_score().len(), fit.n_iter() + 1);
    // The scores are negative losses and improve at first.
    assert!(fit.validation_score()[5] > fit.validation_score()[0]);
    let off = HistGradientBoostingRegressor::default()
        .max_iter(20)
        .early_stopping(EarlyStoppingMode::Off)
        .fit(&x, &y)
        .expect("fit");
    assert_eq!(off.n_iter(), 20);
    assert!(off.train_score().is_empty());
}

#[test]
fn warm_start_equals_one_longer_fit_and_staged_ends_at_predict() {
    let (x, y) = regression_data(800, 5, 4);
    let est = HistGradientBoostingRegressor::default()
        .max_iter(10)
        .early_stopping(EarlyStoppingMode::Off);
    let short = est.fit(&x, &y).expect("fit");
    let more = short.fit_more(&x, &y, None, 25).expect("warm start");
    let long = est.clone().max_iter(25).fit(&x, &y).expect("fit");
    assert_eq!(more.trees(), long.trees());
    let staged = long.staged_predict(&x).expect("staged");
    assert_eq!(staged.len(), 25);
    let last: &Array1<f64> = &staged[24];
    let pred: Array1<f64> = long.predict(&x).expect("predict");
    for (a, b) in last.iter().zip(&pred) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0));
    }
    assert!(short.fit_more(&x, &y, None, 5).is_err());

    let labels: Array1<usize> = y.mapv(|v| usize::from(v > 1.0));
    let clf = HistGradientBoostingClassifier::default()
        .max_iter(6)
        .early_stopping(EarlyStoppingMode::Off);
    let c6 = clf.fit(&x, &labels).expect("fit");
    let c12 = c6.fit_more(&x, &labels, None, 12).expect("warm");
    assert_eq!(
        c12.trees(),
        clf.clone()
            .max_iter(12)
            .fit(&x, &labels)
            .expect("fit")
            .trees()
    );
    let staged = c12.staged_predict_proba(&x).expect("staged");
    let p: Array2<f64> = c12.predict_proba(&x).expect("proba");
    assert!(
        staged[11]
            .iter()
            .zip(&p)
            .all(|(a, b)| (a - b).abs() < 1e-12)
    );
}

#[test]
fn losses_fit_their_targets() {
    let (x, y) = regression_data(2000, 4, 5);
    let counts = y.mapv(|v| (v + 3.0).max(0.0).round());
    let positive = y.mapv(|v| (v + 4.0).max(0.1));
    for (loss, target) in [
        (HistGradientBoostingRegressionLoss::AbsoluteError, &y),
        (HistGradientBoostingRegressionLoss::Quantile, &y),
        (HistGradientBoostingRegressionLoss::Poisson, &counts),
        (HistGradientBoostingRegressionLoss::Gamma, &positive),
    ] {
        let fit = HistGradientBoostingRegressor::default()
            .loss(loss)
            .quantile(0.9)
            .early_stopping(EarlyStoppingMode::Off)
            .fit(&x, target)
            .expect("fit");
        let p: Array1<f64> = fit.predict(&x).expect("predict");
        if loss == HistGradientBoostingRegressionLoss::Quantile {
            let above = target.iter().zip(&p).filter(|(t, q)| t <= q).count();
            let frac = above as f64 / target.len() as f64;
            assert!((0.85..0.95).contains(&frac), "coverage {frac}");
        } else {
            let mae = target
                .iter()
                .zip(&p)
                .map(|(t, q)| (t - q).abs())
                .sum::<f64>()
                / target.len() as f64;
            let spread = target
                .iter()
                .map(|t| (t - target.mean().expect("mean")).abs())
                .sum::<f64>()
                / target.len() as f64;
            assert!(mae < 0.5 * spread, "{loss:?}: {mae} vs {spread}");
        }
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let (x, y) = regression_data(100, 3, 6);
    let est = HistGradientBoostingRegressor::default();
    let mut inf = x.clone();
    inf[[3, 1]] = f64::INFINITY;
    assert!(matches!(est.fit(&inf, &y), Err(Error::NonFinite { .. })));
    let negative = y.mapv(|v| v - 100.0);
    assert!(
        est.clone()
            .loss(HistGradientBoostingRegressionLoss::Poisson)
            .fit(&x, &negative)
            .is_err()
    );
    assert!(est.clone().max_bins(256).fit(&x, &y).is_err());
    assert!(est.clone().max_leaf_nodes(Some(1)).fit(&x, &y).is_err());
    let one_class = Array1::<usize>::zeros(100);
    assert!(matches!(
        HistGradientBoostingClassifier::default().fit(&x, &one_class),
        Err(Error::TooFewClasses { .. })
    ));
    let fit = est.max_iter(3).fit(&x, &y).expect("fit");
    let wrong = Array2::<f64>::zeros((2, 4));
    assert!(fit.predict(&wrong).is_err());
}

#[test]
fn monotonic_constraints_hold_on_a_grid() {
    // y rises with x0 on average but with a dip; decreasing in x1 with noise.
    let mut rng = random::rng(8);
    let n = 3000;
    let x: Array2<f64> = Array2::from_shape_fn((n, 3), |_| rng.random_range(-2.0..2.0));
    let y: Array1<f64> = x
        .rows()
        .into_iter()
        .map(|r| r[0] + 1.5 * (3.0 * r[0]).sin() - r[1] + r[2] * r[2] + rng.random_range(-0.5..0.5))
        .collect();
    let fit = HistGradientBoostingRegressor::default()
        .max_iter(60)
        .early_stopping(EarlyStoppingMode::Off)
        .monotonic_cst(Some(vec![1, -1, 0]))
        .fit(&x, &y)
        .expect("fit");
    let grid: Vec<f64> = (0..81).map(|i| -2.0 + 0.05 * f64::from(i)).collect();
    for &other in &[-1.5, 0.0, 1.2] {
        for (feature, sign) in [(0usize, 1.0), (1, -1.0)] {
            let probe =
                Array2::from_shape_fn(
                    (grid.len(), 3),
                    |(i, j)| {
                        if j == feature { grid[i] } else { other }
                    },
                );
            let p: Array1<f64> = fit.predict(&probe).expect("predict");
            for w in p.windows(2) {
                assert!(sign * (w[1] - w[0]) >= -1e-12, "feature {feature}: {p}");
            }
        }
    }
    assert!(
        HistGradientBoostingRegressor::default()
            .monotonic_cst(Some(vec![1, 0]))
            .fit(&x, &y)
            .is_err()
    );
    let labels: Array1<usize> = y.mapv(|v| usize::from(v > 0.0) + usize::from(v > 2.0));
    assert!(
        HistGradientBoostingClassifier::default()
            .monotonic_cst(Some(vec![1, 0, 0]))
            .fit(&x, &labels)
            .is_err()
    );
}

/// `E[f(x) | x_S]` of one tree by its training-row counts (`s` a bit set of features).
fn conditional(tree: &ndlearn_tree::HistTree, row: &[f64], s: u32, node: usize) -> f64 {
    let nd = &tree.nodes()[node];
    if nd.is_leaf {
        return nd.value;
    }
    let (l, r) = (nd.left as usize, nd.right as usize);
    if s & (1 << nd.feature) != 0 {
        let v = row[nd.feature as usize];
        let left = if v.is_nan() {
            nd.missing_go_to_left
        } else {
            v <= nd.threshold
        };
        conditional(tree, row, s, if left { l } else { r })
    } else {
        let (cl, cr) = (
            f64::from(tree.nodes()[l].count),
            f64::from(tree.nodes()[r].count),
        );
        (cl * conditional(tree, row, s, l) + cr * conditional(tree, row, s, r)) / (cl + cr)
    }
}

/// Exact Shapley values of one tree by enumerating every feature subset.
fn brute_force_shapley(tree: &ndlearn_tree::HistTree, row: &[f64]) -> Vec<f64> {
    let d = row.len();
    let fact = |k: usize| (1..=k).map(|v| v as f64).product::<f64>();
    let mut phi = vec![0.0; d];
    for (i, p) in phi.iter_mut().enumerate() {
        for s in 0u32..(1 << d) {
            if s & (1 << i) != 0 {
                continue;
            }
            let size = s.count_ones() as usize;
            let weight = fact(size) * fact(d - size - 1) / fact(d);
            *p += weight * (conditional(tree, row, s | (1 << i), 0) - conditional(tree, row, s, 0));
        }
    }
    phi
}

#[test]
fn contributions_equal_brute_force_shapley_values_and_sum_to_the_raw_score() {
    let (mut x, y) = regression_data(600, 5, 9);
    for i in (0..600).step_by(7) {
        x[[i, 3]] = f64::NAN;
    }
    // Small trees, one iteration at a time: each tree's contributions against brute force.
    let fit = HistGradientBoostingRegressor::default()
        .max_iter(3)
        .max_leaf_nodes(Some(12))
        .min_samples_leaf(5)
        .early_stopping(EarlyStoppingMode::Off)
        .fit(&x, &y)
        .expect("fit");
    let contrib = fit.predict_contributions(&x).expect("contributions");
    let raw = fit.raw_predict(&x).expect("raw");
    for i in 0..40 {
        let row: Vec<f64> = x.row(i).to_vec();
        let mut expected = [0.0; 5];
        for t in fit.trees() {
            for (e, v) in expected.iter_mut().zip(brute_force_shapley(t, &row)) {
                *e += v;
            }
        }
        for j in 0..5 {
            assert!(
                (contrib[[i, j]] - expected[j]).abs() < 1e-10,
                "row {i} feature {j}: {} vs {}",
                contrib[[i, j]],
                expected[j]
            );
        }
    }
    for (c, r) in contrib.rows().into_iter().zip(&raw) {
        assert!((c.sum() - r).abs() < 1e-9 * r.abs().max(1.0));
    }
    // Full-size models: contributions sum to the raw scores, binary and multiclass.
    let labels: Array1<usize> = y.mapv(|v| usize::from(v > 1.0) + usize::from(v > 2.5));
    for k in [2usize, 3] {
        let lab = labels.mapv(|c| c.min(k - 1));
        let clf = HistGradientBoostingClassifier::default()
            .max_iter(20)
            .early_stopping(EarlyStoppingMode::Off)
            .fit(&x, &lab)
            .expect("fit");
        let c = clf.predict_contributions(&x).expect("contributions");
        let raw: Array2<f64> =
            ndlearn_core::DecisionFunction::decision_function(&clf, &x).expect("raw");
        for i in 0..x.nrows() {
            for out in 0..raw.ncols() {
                let s: f64 = c.slice(ndarray::s![i, out, ..]).sum();
                assert!((s - raw[[i, out]]).abs() < 1e-9 * raw[[i, out]].abs().max(1.0));
            }
        }
    }
}

#[test]
fn interaction_constraints_keep_each_path_in_one_group() {
    let (x, y) = regression_data(2000, 6, 10);
    let groups = vec![vec![0, 1], vec![1, 2, 3]];
    let fit = HistGradientBoostingRegressor::default()
        .max_iter(20)
        .early_stopping(EarlyStoppingMode::Off)
        .interaction_cst(Some(groups.clone()))
        .fit(&x, &y)
        .expect("fit");
    // Features 4 and 5 are in no listed group: they form a third group.
    let all = [groups[0].clone(), groups[1].clone(), vec![4, 5]];
    let mut split_features = std::collections::BTreeSet::new();
    for t in fit.trees() {
        // Depth-first over paths, carrying the features seen.
        let mut stack = vec![(0usize, Vec::<usize>::new())];
        while let Some((i, seen)) = stack.pop() {
            let nd = &t.nodes()[i];
            if nd.is_leaf {
                assert!(
                    all.iter().any(|g| seen.iter().all(|f| g.contains(f))),
                    "path features {seen:?} span groups"
                );
                continue;
            }
            let mut next = seen.clone();
            next.push(nd.feature as usize);
            split_features.insert(nd.feature as usize);
            stack.push((nd.left as usize, next.clone()));
            stack.push((nd.right as usize, next));
        }
    }
    assert!(split_features.len() >= 3, "{split_features:?}");
    assert!(
        HistGradientBoostingRegressor::default()
            .interaction_cst(Some(vec![vec![0, 9]]))
            .fit(&x, &y)
            .is_err()
    );
}

/// Feature 0: 12 categories with arbitrary values (negative, non-integral); the target is high
/// for 4 scattered categories. Feature 1 and 2: noise.
fn categorical_data(n: usize, seed: u64) -> (Array2<f64>, Array1<f64>, Vec<f64>) {
    let cats: Vec<f64> = (0..12).map(|c| 3.5 * f64::from(c) - 20.0).collect();
    let high = [1usize, 4, 7, 10];
    let mut rng = random::rng(seed);
    let mut x = Array2::zeros((n, 3));
    let mut y = Array1::zeros(n);
    for i in 0..n {
        let c = rng.random_range(0..12usize);
        x[[i, 0]] = cats[c];
        x[[i, 1]] = rng.random_range(-1.0..1.0);
        x[[i, 2]] = rng.random_range(-1.0..1.0);
        y[i] = if high.contains(&c) { 5.0 } else { 0.0 } + rng.random_range(-0.1..0.1);
    }
    (x, y, high.iter().map(|&c| cats[c]).collect())
}

fn r2(y: &Array1<f64>, p: &Array1<f64>) -> f64 {
    let m = y.mean().expect("rows");
    let ss = y.iter().map(|v| (v - m).powi(2)).sum::<f64>();
    1.0 - y.iter().zip(p).map(|(a, b)| (a - b).powi(2)).sum::<f64>() / ss
}

#[test]
fn categorical_splits_send_a_scattered_set_of_categories_left() {
    let (x, y, high) = categorical_data(3000, 3);
    let stumps = HistGradientBoostingRegressor::default()
        .max_iter(30)
        .max_depth(Some(1))
        .learning_rate(0.5)
        .early_stopping(EarlyStoppingMode::Off);
    let cat = stumps
        .clone()
        .categorical_features(vec![0])
        .fit(&x, &y)
        .expect("fit");
    let bins = cat.bin_mapper();
    assert_eq!(bins.n_bins_non_missing(0), 12);
    let root = &cat.trees()[0].nodes()[0];
    assert!(root.is_categorical && root.feature == 0);
    // The four high categories (lowest G/(H + 10): negative gradients) go left, nothing else.
    let set = cat.trees()[0].bitsets()[root.bitset_idx as usize];
    let left: Vec<f64> = (0..12u8)
        .filter(|&b| set[usize::from(b >> 5)] >> (b & 31) & 1 == 1)
        .map(|b| bins.categories(0).expect("categorical")[usize::from(b)])
        .collect();
    assert_eq!(left, high);
    let p = cat.predict(&x).expect("predict");
    assert!(r2(&y, &p) > 0.99, "categorical stumps: R² {}", r2(&y, &p));
    // As numbers, one threshold per tree cannot isolate scattered categories as fast.
    let num = stumps.fit(&x, &y).expect("fit");
    let pn = num.predict(&x).expect("predict");
    assert!(
        r2(&y, &pn) < r2(&y, &p) - 0.01,
        "numerical stumps: R² {}",
        r2(&y, &pn)
    );

    // An unseen category and NaN take the missing side: the same prediction.
    let probe = ndarray::array![[1000.0, 0.2, 0.3], [f64::NAN, 0.2, 0.3], [-20.0, 0.2, 0.3]];
    let pp = cat.predict(&probe).expect("predict");
    assert_eq!(pp[0], pp[1]);
    // −0.0 and 0.0 are one category.
    let (mut xz, yz) = (x.clone(), y.clone());
    xz.column_mut(0)
        .mapv_inplace(|v| if v == -20.0 { 0.0 } else { v });
    let fz = HistGradientBoostingRegressor::default()
        .max_iter(3)
        .categorical_features(vec![0])
        .early_stopping(EarlyStoppingMode::Off)
        .fit(&xz, &yz)
        .expect("fit");
    let both = ndarray::array![[0.0, 0.2, 0.3], [-0.0, 0.2, 0.3]];
    let pz = fz.predict(&both).expect("predict");
    assert_eq!(pz[0], pz[1]);
}

#[cfg(feature = "serde")]
#[test]
fn categorical_models_are_thread_invariant_serialisable_and_explainable() {
    let (mut x, y, _) = categorical_data(40_000, 5);
    for i in (0..x.nrows()).step_by(11) {
        x[[i, 0]] = f64::NAN;
    }
    let labels: Array1<usize> = y.mapv(|v| usize::from(v > 2.5));
    let est = HistGradientBoostingRegressor::default()
        .max_iter(8)
        .categorical_features(vec![0])
        .early_stopping(EarlyStoppingMode::On);
    let clf = HistGradientBoostingClassifier::default()
        .max_iter(5)
        .categorical_features(vec![0])
        .early_stopping(EarlyStoppingMode::Off);
    let fits = fits_per_thread_count(&[1, 2], (&est, &clf), &x, (&y, &labels));
    assert_eq!(fits[0].0, fits[1].0);
    assert_eq!(fits[0].1, fits[1].1);
    let (reg, cls) = &fits[0];
    assert!(reg.trees().iter().any(|t| !t.bitsets().is_empty()));

    // Model files keep the categories and the bitsets.
    let json = serde_json::to_string(reg).expect("serialise");
    let back: ndlearn_tree::FittedHistGradientBoostingRegressor =
        serde_json::from_str(&json).expect("deserialise");
    assert_eq!(&back, reg);
    let head = x.slice(ndarray::s![..500, ..]).to_owned();
    assert_eq!(
        back.predict(&head).expect("predict"),
        reg.predict(&head).expect("predict")
    );

    // Contributions sum to the raw scores; staged predictions end at predict.
    let c = reg.predict_contributions(&head).expect("contributions");
    let raw = reg.raw_predict(&head).expect("raw");
    for (row, r) in c.rows().into_iter().zip(&raw) {
        assert!((row.sum() - r).abs() < 1e-9 * r.abs().max(1.0));
    }
    let staged = reg.staged_predict(&head).expect("staged");
    assert_eq!(
        staged.last().expect("stages"),
        &reg.predict(&head).expect("predict")
    );
    let proba = cls.predict_proba(&head).expect("proba");
    assert!(proba.iter().all(|p| (0.0..=1.0).contains(p)));
}

#[test]
fn categorical_input_errors_are_typed() {
    let (x, y, _) = categorical_data(300, 7);
    let base = HistGradientBoostingRegressor::default()
        .max_iter(2)
        .early_stopping(EarlyStoppingMode::Off);
    // 12 categories do not fit in 10 bins.
    let too_many = base
        .clone()
        .max_bins(10)
        .categorical_features(vec![0])
        .fit(&x, &y);
    assert!(
        matches!(
            too_many,
            Err(Error::InvalidParam {
                name: "categorical_features",
                ..
            })
        ),
        "{too_many:?}"
    );
    let out_of_range = base.clone().categorical_features(vec![3]).fit(&x, &y);
    assert!(matches!(
        out_of_range,
        Err(Error::InvalidParam {
            name: "categorical_features",
            ..
        })
    ));
    let monotonic = base
        .clone()
        .categorical_features(vec![0])
        .monotonic_cst(Some(vec![1, 0, 0]))
        .fit(&x, &y);
    assert!(matches!(
        monotonic,
        Err(Error::InvalidParam {
            name: "monotonic_cst",
            ..
        })
    ));
    let mut xi = x.clone();
    xi[[4, 0]] = f64::INFINITY;
    assert!(matches!(
        base.categorical_features(vec![0]).fit(&xi, &y),
        Err(Error::NonFinite { .. })
    ));
}
