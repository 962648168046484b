//! Property tests of `ndlearn_core::feature_selection` (few cases: CI has 2 cores).
//!
//! * `best_subset` equals a sequential brute-force scan with the documented tie-break, for any
//!   thread count; it is never worse than forward selection.
//! * Forward selection with `tol = 0`: the score path never decreases; the first feature is the
//!   best single feature; backward elimination with `tol = 0` never lowers the score.
//! * Filter scores: `f_classif`, `f_regression` and `|r|` are invariant under an affine change
//!   of a feature (`a x + b`, `a ≠ 0`); `chi2`, a count statistic, scales with the feature:
//!   `χ²(c x) = c χ²(x)` for `c > 0`.
//! * `SelectKBest` keeps exactly `k` features, none scoring below a dropped one, and
//!   `inverse_transform ∘ transform` restores the kept columns and zeroes the others.
//! * RFE ranks: exactly `k` ones, ranks `1..=1 + ⌈(D − k)/step⌉`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::feature_selection::{
    FClassif, FRegression, FittedRfe, FittedSelectFromModel, FittedSelector, Rfe, SelectFromModel,
    SelectKBest, SelectPercentile, Step, backward_elimination, best_subset, chi2, f_classif,
    f_regression, forward_selection, r_regression,
};
use ndlearn_core::{
    FeatureImportances, Fit, FitUnsupervised, InverseTransform, Result, Transform, par, random,
};
use ndlearn_testkit::Battery;
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// A deterministic pseudo-random subset score with interactions (hash of the subset), so that
/// ties and non-monotone landscapes both occur.
fn hashed_score(salt: u64) -> impl Fn(&[usize]) -> Result<f64> + Sync {
    move |s: &[usize]| {
        let h = s.iter().fold(salt | 1, |h, &j| {
            (h ^ (j as u64 + 0x9E37)).wrapping_mul(0x100_0000_01B3)
        });
        // Few distinct values (ties) plus a size penalty.
        Ok((h % 7) as f64 - 0.3 * s.len() as f64)
    }
}

/// Data with a class-dependent mean in the first `informative` columns.
fn labelled(n: usize, d: usize, informative: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let y: Array1<usize> = (0..n).map(|i| i % 3).collect();
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let shift = if j < informative {
            y[i] as f64 * (j + 1) as f64
        } else {
            0.0
        };
        shift + random::standard_normal::<f64>(&mut rng)
    });
    (x, y)
}

/// Importances `|Xᵀ(y − ȳ)|`: a stand-in linear-model importance that depends on the columns.
#[derive(Debug, Clone, Copy)]
struct Slopes;
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct FittedSlopes(Array1<f64>);
impl Fit<f64> for Slopes {
    type Target = ArrayRef1<f64>;
    type Model = FittedSlopes;
    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedSlopes> {
        ndlearn_core::validate::check_regression_input(x, y, 1, "Slopes")?;
        let yc = y.to_owned() - y.mean().unwrap_or(0.0);
        Ok(FittedSlopes(x.t().dot(&yc).mapv(f64::abs)))
    }
}
impl FeatureImportances<f64> for FittedSlopes {
    fn feature_importances(&self) -> Array1<f64> {
        self.0.clone()
    }
}

/// The conformance battery fits transformers without a target: these adapters give the
/// supervised selectors a target made from the row index (labels `i mod 2`, values `i`), so
/// that NaN/Inf, empty input, wrong widths, serde and thread checks run on the selectors.
struct WithLabels<S>(S);
struct WithValues<S>(S);

impl FitUnsupervised<f64> for WithLabels<SelectKBest<FClassif>> {
    type Model = FittedSelector<f64>;
    fn fit(&self, x: &ArrayRef2<f64>) -> Result<Self::Model> {
        let y: Array1<usize> = (0..x.nrows()).map(|i| i % 2).collect();
        self.0.fit(x, &y)
    }
}

impl FitUnsupervised<f64> for WithValues<SelectPercentile<FRegression>> {
    type Model = FittedSelector<f64>;
    fn fit(&self, x: &ArrayRef2<f64>) -> Result<Self::Model> {
        let y: Array1<f64> = (0..x.nrows()).map(|i| i as f64).collect();
        self.0.fit(x, &y)
    }
}

impl FitUnsupervised<f64> for WithValues<SelectFromModel<Slopes>> {
    type Model = FittedSelectFromModel<f64, FittedSlopes>;
    fn fit(&self, x: &ArrayRef2<f64>) -> Result<Self::Model> {
        let y: Array1<f64> = (0..x.nrows()).map(|i| i as f64).collect();
        self.0.fit(x, &y)
    }
}

impl FitUnsupervised<f64> for WithValues<Rfe<Slopes>> {
    type Model = FittedRfe<f64, FittedSlopes>;
    fn fit(&self, x: &ArrayRef2<f64>) -> Result<Self::Model> {
        let y: Array1<f64> = (0..x.nrows()).map(|i| i as f64).collect();
        self.0.fit(x, &y)
    }
}

#[test]
fn selectors_pass_the_conformance_battery() {
    Battery::new("SelectKBest(FClassif)")
        .transformer(&WithLabels(SelectKBest::new(FClassif, 2)))
        .assert_ok();
    Battery::new("SelectPercentile(FRegression)")
        .transformer(&WithValues(SelectPercentile::new(FRegression, 50.0)))
        .assert_ok();
    Battery::new("SelectFromModel")
        .transformer(&WithValues(SelectFromModel::new(Slopes)))
        .assert_ok();
    Battery::new("Rfe")
        .transformer(&WithValues(Rfe::new(Slopes).n_features_to_select(Some(2))))
        .assert_ok();
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn best_subset_is_the_scan_optimum(d in 1usize..10, salt in any::<u64>()) {
        let score = hashed_score(salt);
        let r = best_subset(d, None, &score).expect("valid");
        // Sequential scan with the documented order: score, then size, then lexicographic.
        let mut best: Option<(f64, Vec<usize>)> = None;
        for m in 1u32..(1 << d) {
            let sub: Vec<usize> = (0..d).filter(|&j| m >> j & 1 == 1).collect();
            let s = score(&sub).expect("ok");
            let better = match &best {
                None => true,
                Some((bs, bsub)) => s > *bs
                    || (s == *bs && (sub.len() < bsub.len() || (sub.len() == bsub.len() && sub < *bsub))),
            };
            if better {
                best = Some((s, sub));
            }
        }
        let (bs, bsub) = best.expect("d >= 1");
        prop_assert_eq!(r.score, bs);
        prop_assert_eq!(&r.selected, &bsub);
        prop_assert_eq!(r.n_evaluations, (1 << d) - 1);
        let t1 = par::with_threads(1, || best_subset(d, None, &score)).expect("pool").expect("ok");
        let t3 = par::with_threads(3, || best_subset(d, None, &score)).expect("pool").expect("ok");
        prop_assert_eq!(&t1, &r);
        prop_assert_eq!(&t3, &r);
        let fwd = forward_selection(d, None, None, &score).expect("valid");
        prop_assert!(fwd.scores.iter().all(|&s| s <= r.score));
    }

    #[test]
    fn greedy_paths_are_monotone(d in 1usize..9, salt in any::<u64>()) {
        let score = hashed_score(salt);
        let f = forward_selection(d, None, Some(0.0), &score).expect("valid");
        prop_assert!(f.scores.windows(2).all(|w| w[1] >= w[0]));
        prop_assert!(!f.order.is_empty());
        // The first pick is the best single feature (ties to the lower index).
        let singles: Vec<f64> = (0..d).map(|j| score(&[j]).expect("ok")).collect();
        let best = (0..d).fold(0, |b, j| if singles[j] > singles[b] { j } else { b });
        prop_assert_eq!(f.order[0], best);
        let b = backward_elimination(d, None, Some(0.0), &score).expect("valid");
        let mut last = b.initial_score.expect("backward scores the full set");
        for &s in &b.scores {
            prop_assert!(s >= last);
            last = s;
        }
        prop_assert_eq!(b.selected.len() + b.order.len(), d);
        let t = par::with_threads(3, || forward_selection(d, None, Some(0.0), &score))
            .expect("pool")
            .expect("valid");
        prop_assert_eq!(t, f);
    }

    #[test]
    fn f_tests_are_affine_invariant(
        seed in any::<u64>(),
        a in prop_oneof![-50.0f64..-0.1, 0.1f64..50.0],
        b in -100.0f64..100.0,
    ) {
        let (x, y) = labelled(45, 4, 2, seed);
        let mut x2 = x.clone();
        x2.column_mut(1).mapv_inplace(|v| a * v + b);
        let (f1, p1) = f_classif(&x, &y).expect("valid");
        let (f2, p2) = f_classif(&x2, &y).expect("valid");
        for j in 0..4 {
            prop_assert!((f1[j] - f2[j]).abs() <= 1e-9 * f1[j].max(1.0));
            prop_assert!((p1[j] - p2[j]).abs() <= 1e-9 * p1[j].max(1e-300) + 1e-300);
        }
        let yr: Array1<f64> = x.column(0).mapv(|v| 2.0 * v) + x.column(3);
        let (g1, _) = f_regression(&x, &yr).expect("valid");
        let (g2, _) = f_regression(&x2, &yr).expect("valid");
        let r1 = r_regression(&x, &yr).expect("valid");
        let r2 = r_regression(&x2, &yr).expect("valid");
        for j in 0..4 {
            prop_assert!((g1[j] - g2[j]).abs() <= 1e-8 * g1[j].max(1.0));
            prop_assert!((r1[j].abs() - r2[j].abs()).abs() <= 1e-12);
        }
        // χ² is a count statistic: it scales with the feature.
        let xp = x.mapv(f64::abs);
        let mut xs = xp.clone();
        xs.column_mut(0).mapv_inplace(|v| a.abs() * v);
        let (c1, _) = chi2(&xp, &y).expect("valid");
        let (c2, _) = chi2(&xs, &y).expect("valid");
        prop_assert!((c2[0] - a.abs() * c1[0]).abs() <= 1e-9 * c2[0].max(1.0));
    }

    #[test]
    fn select_k_best_keeps_the_top_k(seed in any::<u64>(), d in 2usize..9, k in 0usize..9) {
        let k = k.min(d);
        let (x, y) = labelled(36, d, d / 2, seed);
        let sel = SelectKBest::new(FClassif, k).fit(&x, &y).expect("valid");
        let kept = sel.selected_features();
        prop_assert_eq!(kept.len(), k);
        let s = sel.scores();
        for &j in &kept {
            for m in (0..d).filter(|m| !kept.contains(m)) {
                prop_assert!(s[j] >= s[m]);
            }
        }
        let z = sel.transform(&x).expect("valid");
        prop_assert_eq!(z.ncols(), k);
        let back = sel.inverse_transform(&z).expect("valid");
        for j in 0..d {
            if kept.contains(&j) {
                prop_assert_eq!(back.column(j), x.column(j));
            } else {
                prop_assert!(back.column(j).iter().all(|&v| v == 0.0));
            }
        }
    }

    #[test]
    fn rfe_ranks_are_consistent(seed in any::<u64>(), d in 1usize..10, k in 1usize..10, step in 1usize..4) {
        let k = k.min(d);
        let (x, labels) = labelled(30, d, d, seed);
        let y = labels.mapv(|v| v as f64);
        let r = Rfe::new(Slopes)
            .n_features_to_select(Some(k))
            .step(Step::Count(step))
            .fit(&x, &y)
            .expect("valid");
        let rank = r.ranking();
        prop_assert_eq!(rank.iter().filter(|&&v| v == 1).count(), k);
        let rounds = (d - k).div_ceil(step);
        prop_assert!(rank.iter().all(|&v| (1..=1 + rounds).contains(&v)));
        prop_assert_eq!(r.selected_features().len(), k);
        // Features eliminated in the same round: at most `step` per rank above 1.
        for level in 2..=1 + rounds {
            prop_assert!(rank.iter().filter(|&&v| v == level).count() <= step);
        }
    }
}
