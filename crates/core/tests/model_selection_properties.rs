//! Property tests of `ndlearn_core::model_selection` (few cases: CI has 2 cores).
//!
//! - every splitter's (train, test) pairs partition `0..n` (or a subset for shuffle splits) and
//!   K-fold test sets are disjoint and cover `0..n` with sizes differing by at most one;
//! - stratified K-fold keeps every class's count per test fold within 1 of `n_c / k`;
//!   stratified shuffle splits keep the train counts within 1 of `n_train·n_c/n` and the test
//!   counts within 2 of `n_test·n_c/n`;
//! - train/test and three-way splits are disjoint with the resolved sizes;
//! - leave-p-out enumerates `C(n, p)` distinct test sets; a parameter grid has the product of
//!   its list lengths as distinct points;
//! - cross_val_score, grid search, learning curves, the .632 bootstrap and the bias–variance
//!   Monte Carlo give bitwise identical results with 1 and 2 threads.

mod model_selection_support;

use model_selection_support::{RidgeCf, r2};
use ndlearn_core::model_selection::{
    BiasVarianceOptions, Bootstrap632, CrossValidator, GaussianNoiseGenerator, GridSearchCV, KFold,
    LearningCurveOptions, LeaveOneOut, LeavePOut, ParamGrid, ParamPoint, RepeatedKFold,
    ShuffleSplit, Split, SplitSize, StratifiedKFold, StratifiedShuffleSplit, TrainTestSplit,
    TrainValTestSplit, bias_variance, bootstrap_632, cross_val_score, learning_curve,
};
use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::random::{self, Rng};
use ndlearn_core::{Result, par};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

fn assert_partition(splits: &[Split], n: usize) {
    for (train, test) in splits {
        let mut all: Vec<usize> = train.iter().chain(test).copied().collect();
        all.sort_unstable();
        assert_eq!(
            all,
            (0..n).collect::<Vec<_>>(),
            "train ∪ test must be 0..n, disjoint"
        );
    }
}

fn assert_kfold_tests(splits: &[Split], n: usize) {
    let mut all: Vec<usize> = splits.iter().flat_map(|(_, t)| t.clone()).collect();
    all.sort_unstable();
    assert_eq!(
        all,
        (0..n).collect::<Vec<_>>(),
        "test folds must be disjoint and cover 0..n"
    );
    let sizes: Vec<usize> = splits.iter().map(|(_, t)| t.len()).collect();
    let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
    assert!(
        hi.zip(lo).is_some_and(|(h, l)| h - l <= 1),
        "fold sizes {sizes:?}"
    );
}

fn labels(n_classes: usize, n: usize, seed: u64) -> Array1<usize> {
    // Every class gets at least one member, the rest at random.
    let mut rng = random::rng(seed);
    let mut v: Vec<usize> = (0..n).map(|i| i % n_classes).collect();
    for x in v.iter_mut().skip(n_classes) {
        *x = (random::uniform(&mut rng, 0.0f64, 1.0) * n_classes as f64) as usize % n_classes;
    }
    random::shuffle(&mut rng, &mut v);
    Array1::from(v)
}

fn class_counts(y: &Array1<usize>, idx: &[usize], n_classes: usize) -> Vec<usize> {
    let mut c = vec![0; n_classes];
    for &i in idx {
        c[y[i]] += 1;
    }
    c
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn kfold_variants_partition(n in 2usize..80, k_raw in 2usize..12, seed in any::<u64>()) {
        let k = k_raw.min(n);
        for cv in [KFold::new(k), KFold::new(k).shuffle(true).seed(seed)] {
            let s = cv.split(n, None).expect("valid");
            prop_assert_eq!(s.len(), k);
            assert_partition(&s, n);
            assert_kfold_tests(&s, n);
        }
        let loo = LeaveOneOut.split(n, None).expect("n >= 2");
        assert_partition(&loo, n);
        assert_kfold_tests(&loo, n);
        let rep = RepeatedKFold::new(k, 3).seed(seed).split(n, None).expect("valid");
        prop_assert_eq!(rep.len(), 3 * k);
        assert_partition(&rep, n);
        for r in 0..3 {
            assert_kfold_tests(&rep[r * k..(r + 1) * k], n);
        }
    }

    #[test]
    fn stratified_kfold_keeps_class_shares(
        n_classes in 2usize..5,
        n in 20usize..90,
        k in 2usize..6,
        seed in any::<u64>(),
        shuffle in any::<bool>(),
    ) {
        let y = labels(n_classes, n, seed);
        let cv = StratifiedKFold::new(k).shuffle(shuffle).seed(seed);
        let s = cv.split(n, Some(&y)).expect("valid");
        assert_partition(&s, n);
        assert_kfold_tests(&s, n);
        let totals = class_counts(&y, &(0..n).collect::<Vec<_>>(), n_classes);
        for (_, test) in &s {
            let c = class_counts(&y, test, n_classes);
            for (cls, (&got, &total)) in c.iter().zip(&totals).enumerate() {
                let ideal = total as f64 / k as f64;
                prop_assert!((got as f64 - ideal).abs() < 1.0, "class {} count {} vs {}", cls, got, ideal);
            }
        }
    }

    #[test]
    fn shuffle_splits_are_disjoint_and_stratified(
        n_classes in 2usize..4,
        n in 30usize..100,
        frac in 0.15f64..0.45,
        seed in any::<u64>(),
    ) {
        let y = labels(n_classes, n, seed);
        let totals = class_counts(&y, &(0..n).collect::<Vec<_>>(), n_classes);
        prop_assume!(totals.iter().all(|&t| t >= 2));
        let n_test = (frac * n as f64).ceil() as usize;
        prop_assume!(n_test >= n_classes && n - n_test >= n_classes);
        let plain = ShuffleSplit::new(3).test_size(SplitSize::Fraction(frac)).seed(seed);
        for (train, test) in plain.split(n, None).expect("valid") {
            prop_assert_eq!(test.len(), n_test);
            let mut all: Vec<usize> = train.iter().chain(&test).copied().collect();
            all.sort_unstable();
            all.dedup();
            prop_assert_eq!(all.len(), n);
        }
        let strat = StratifiedShuffleSplit::new(3).test_size(SplitSize::Fraction(frac)).seed(seed);
        for (train, test) in strat.split(n, Some(&y)).expect("valid") {
            prop_assert_eq!((train.len(), test.len()), (n - n_test, n_test));
            assert_partition(&[(train.clone(), test.clone())], n);
            let (ct, ce) = (class_counts(&y, &train, n_classes), class_counts(&y, &test, n_classes));
            for c in 0..n_classes {
                let share = totals[c] as f64 / n as f64;
                prop_assert!((ct[c] as f64 - share * train.len() as f64).abs() < 1.0);
                prop_assert!((ce[c] as f64 - share * test.len() as f64).abs() < 2.0);
            }
        }
    }

    #[test]
    fn hold_out_splits_are_disjoint(n in 4usize..200, frac in 0.05f64..0.5, seed in any::<u64>()) {
        let tts = TrainTestSplit::new().test_size(SplitSize::Fraction(frac)).seed(seed);
        if let Ok((n_train, n_test)) = tts.sizes(n) {
            let s = tts.split(n).expect("sizes are valid");
            prop_assert_eq!((s.train.len(), s.test.len()), (n_train, n_test));
            prop_assert_eq!(n_test, (frac * n as f64).ceil() as usize);
            assert_partition(&[(s.train, s.test)], n);
        }
        let three = TrainValTestSplit::new(SplitSize::Fraction(frac / 2.0), SplitSize::Fraction(frac / 2.0)).seed(seed);
        if let Ok((a, b, c)) = three.sizes(n) {
            let s = three.split(n).expect("sizes are valid");
            prop_assert_eq!((s.train.len(), s.validation.len(), s.test.len()), (a, b, c));
            let mut all = [s.train, s.validation, s.test].concat();
            all.sort_unstable();
            prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn leave_p_out_and_grids_enumerate(n in 3usize..9, p in 1usize..3, lens in proptest::collection::vec(1usize..4, 0..4)) {
        prop_assume!(p < n);
        let s = LeavePOut::new(p).split(n, None).expect("valid");
        let expected = (0..p).fold(1usize, |c, i| c * (n - i) / (i + 1));
        prop_assert_eq!(s.len(), expected);
        assert_partition(&s, n);
        let mut tests: Vec<Vec<usize>> = s.into_iter().map(|(_, t)| t).collect();
        tests.dedup();
        prop_assert_eq!(tests.len(), expected);
        let mut grid = ParamGrid::new();
        for (j, &len) in lens.iter().enumerate() {
            grid = grid.param(format!("p{j}"), (0..len).map(|v| v as f64).collect());
        }
        let points = grid.points().expect("non-empty lists");
        prop_assert_eq!(points.len(), lens.iter().product::<usize>());
        let mut keys: Vec<String> = points.iter().map(ToString::to_string).collect();
        keys.sort();
        keys.dedup();
        prop_assert_eq!(keys.len(), points.len());
    }
}

fn regression_data(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
    let mut rng = random::rng(seed);
    let x = Array2::from_shape_fn((n, d), |_| random::standard_normal::<f64>(&mut rng));
    let w: Array1<f64> = (0..d).map(|j| 1.0 + j as f64).collect();
    let noise: Array1<f64> = (0..n)
        .map(|_| 0.3 * random::standard_normal::<f64>(&mut rng))
        .collect();
    let y = x.dot(&w) + noise;
    (x, y)
}

fn bits(v: impl IntoIterator<Item = f64>) -> Vec<u64> {
    v.into_iter().map(f64::to_bits).collect()
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn results_do_not_depend_on_thread_count(seed in any::<u64>(), n in 30usize..80) {
        let (x, y) = regression_data(n, 3, seed);
        let cv = KFold::new(5).shuffle(true).seed(seed);
        let run = |threads: usize| -> Vec<Vec<u64>> {
            par::with_threads(threads, || {
                let cvs = cross_val_score(&RidgeCf::new(0.5), &x, &y, &cv, r2).expect("valid");
                let grid = ParamGrid::new().param("alpha", vec![0.01, 0.1, 1.0, 10.0]);
                let build = |p: &ParamPoint| -> Result<RidgeCf> { Ok(RidgeCf::new(p.value("alpha")?)) };
                let gs = GridSearchCV::new(&cv)
                    .return_train_score(true)
                    .fit_grid(&grid, build, &x, &y, r2)
                    .expect("valid");
                let lc = learning_curve(&RidgeCf::new(1.0), &x, &y, &cv, r2, &LearningCurveOptions::new().shuffle(true).seed(seed))
                    .expect("valid");
                let sq = |m: &model_selection_support::FittedRidge, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<Array1<f64>> {
                    use ndlearn_core::Predict;
                    Ok((m.predict(x)? - y).mapv(|v| v * v))
                };
                let bs = bootstrap_632(&RidgeCf::new(1.0), &x, &y, sq, &Bootstrap632::new().n_bootstraps(12).seed(seed))
                    .expect("valid");
                let generator = GaussianNoiseGenerator::new(
                    |rng: &mut Rng| Ok(Array2::from_shape_fn((15, 2), |_| random::uniform(rng, -1.0, 1.0))),
                    |x: &ArrayRef2<f64>| Ok(x.column(0).mapv(|v| v * v) + x.column(1)),
                    0.2,
                );
                let bv = bias_variance(&RidgeCf::new(0.1), &generator, &x.slice(ndlearn_core::ndarray::s![..5, ..2]), &BiasVarianceOptions::new().n_rounds(20).seed(seed))
                    .expect("valid");
                vec![
                    bits(cvs.iter().copied()),
                    bits(gs.split_test_scores.iter().copied()),
                    bits(gs.split_train_scores.as_ref().map(|m| m.iter().copied().collect::<Vec<_>>()).unwrap_or_default()),
                    bits([gs.best_score]),
                    gs.best_model().map(|m| bits(m.coef.iter().copied())).unwrap_or_default(),
                    bits(lc.train_scores.iter().chain(lc.test_scores.iter()).copied()),
                    bits([bs.estimate, bs.efron_632, bs.plus_632.unwrap_or(f64::NAN)]),
                    bits([bv.bias2, bv.variance, bv.noise, bv.mse]),
                ]
            })
            .expect("thread pool")
        };
        prop_assert_eq!(run(1), run(2));
    }
}
