//! Isolation forest (Liu, Ting & Zhou 2008): outliers are the rows that random axis-parallel
//! splits isolate in few steps ([`IsolationForest`]; scikit-learn's `IsolationForest`).
//!
//! # Algorithm
//!
//! Each of `B` isolation trees is grown on `ψ` rows drawn without replacement (`max_samples`,
//! default `min(256, n)`) and, optionally, a random subset of the features: a node picks a
//! feature uniformly among those not constant on it, a threshold uniformly in `[min, max)` of
//! that feature on the node (rows `≤` threshold go left), and stops at one row, at identical
//! rows, or at depth `⌈log₂ ψ⌉`. The path length of `x` in a tree is the depth of its leaf plus
//! `c(m)` for the `m` training rows left in that leaf, where
//!
//! ```text
//! c(m) = 2 (ln(m − 1) + γ) − 2 (m − 1)/m   (m > 2),   c(2) = 1,   c(m ≤ 1) = 0
//! ```
//!
//! is the mean path length of an unsuccessful search in a binary search tree of `m` keys (`γ`
//! Euler's constant). The anomaly score is `s(x) = 2^{−E[h(x)] / c(ψ)}` (near 1: isolated
//! quickly, an outlier; well below ½: normal). As scikit-learn, `score_samples = −s` (larger
//! is more normal), `decision_function = score_samples − offset` and `predict` gives `−1` where
//! the decision is negative, `+1` elsewhere. `offset` is `−½` (`contamination = auto`, the
//! paper's threshold) or the `contamination` quantile of the training scores (linear
//! interpolation, NumPy's `percentile`), so that fraction of the training rows is flagged.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `n_estimators` | 100 | `n_estimators` | `≥ 1` |
//! | `max_samples` | `None` (= `min(256, n)`) | `max_samples` (`"auto"`) | count `≥ 1` (capped at `n`) or fraction in `(0, 1]` (`⌊f·n⌋`) |
//! | `contamination` | `Auto` | `contamination` | `auto` or a fraction in `(0, 0.5]` |
//! | `max_features` | `Fraction(1.0)` | `max_features` | count `1..=d` or fraction in `(0, 1]` |
//! | `seed` | 0 | `random_state` | |
//!
//! # Threads and determinism
//!
//! Tree `t` draws its rows, features and splits from `random::stream(seed, t)`; trees are grown
//! in parallel and path lengths summed in tree order (rows scored in parallel chunks), so
//! models and scores are bitwise identical for any thread count.
//!
//! # References
//!
//! - F. T. Liu, K. M. Ting, Z.-H. Zhou, "Isolation forest", ICDM 2008; "Isolation-based anomaly
//!   detection", ACM TKDD 6(1), 2012.
//! - scikit-learn's `IsolationForest`.
//!
//! ```
//! use ndarray::{Array2, array};
//! use ndlearn_core::{FitUnsupervised, OutlierDetector, Predict};
//! use ndlearn_tree::IsolationForest;
//!
//! // A tight cluster and one far point.
//! let mut x = Array2::from_shape_fn((100, 2), |(i, j)| ((i * 7 + j * 3) % 10) as f64 * 0.1);
//! x.row_mut(0).assign(&array![8.0, -8.0]);
//! let forest = IsolationForest::default().fit(&x)?;
//! let s = forest.score_samples(&x)?;
//! assert!(s[0] < s.iter().skip(1).cloned().fold(f64::INFINITY, f64::min));
//! assert_eq!(forest.predict(&x)?[0], -1);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, ArrayRef2};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, FitUnsupervised, Float, NFeaturesIn, OutlierDetector, Predict, Result, par,
    random, validate,
};
use rand::Rng as _;

use crate::common::TreeLinks;
use crate::params::SampleCount;

/// Euler–Mascheroni constant.
const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// How the decision threshold (`offset`) is set.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum Contamination {
    /// `offset = −½` (the paper's threshold on `s`).
    #[default]
    Auto,
    /// The expected fraction of outliers in the training data, in `(0, 0.5]`.
    Fraction(f64),
}

/// `c(m)`: the mean path length of an unsuccessful search in a binary search tree of `m` keys.
pub fn average_path_length(m: usize) -> f64 {
    match m {
        0 | 1 => 0.0,
        2 => 1.0,
        _ => {
            let m = m as f64;
            2.0 * ((m - 1.0).ln() + EULER_GAMMA) - 2.0 * (m - 1.0) / m
        }
    }
}

/// Isolation forest outlier detector. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct IsolationForest {
    /// Number of trees (default 100).
    pub n_estimators: usize,
    /// Rows per tree: `None` = `min(256, n)`, a count or a fraction of `n`.
    pub max_samples: Option<SampleCount>,
    /// How `offset` is chosen (default `Auto`).
    pub contamination: Contamination,
    /// Features per tree: a count or a fraction of `d` (default all).
    pub max_features: SampleCount,
    /// Seed (`random_state`).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for IsolationForest {
    fn default() -> Self {
        Self {
            n_estimators: 100,
            max_samples: None,
            contamination: Contamination::Auto,
            max_features: SampleCount::Fraction(1.0),
            seed: 0,
        }
    }
}

impl IsolationForest {
    ndlearn_core::setters! {
        n_estimators: usize,
        max_samples: Option<SampleCount>,
        contamination: Contamination,
        max_features: SampleCount,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
    }

    /// `(ψ, k)` for `n` rows and `d` features.
    fn sizes(&self, n: usize, d: usize) -> Result<(usize, usize)> {
        let psi = match self.max_samples {
            None => n.min(256),
            Some(SampleCount::Count(c)) => c.min(n),
            Some(SampleCount::Fraction(f)) => ((f * n as f64) as usize).max(1),
        };
        let k = match self.max_features {
            SampleCount::Count(c) => c,
            SampleCount::Fraction(f) => ((f * d as f64) as usize).max(1),
        };
        if k > d {
            return Err(Error::invalid_param(
                "max_features",
                format!("{k} features requested; the data has {d}"),
            ));
        }
        Ok((psi, k))
    }
}

impl Estimator for IsolationForest {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        validate::check_at_least("n_estimators", self.n_estimators, 1)?;
        if let Some(ms) = self.max_samples {
            ms.validate("max_samples", 1, 1.0, true)?;
        }
        self.max_features.validate("max_features", 1, 1.0, true)?;
        if let Contamination::Fraction(c) = self.contamination
            && !(c > 0.0 && c <= 0.5)
        {
            return Err(Error::invalid_param(
                "contamination",
                format!("must be \"auto\" or in (0, 0.5]; got {c}"),
            ));
        }
        Ok(())
    }
}

/// One isolation tree in flat arrays: internal nodes have `left > 0`; leaves store their
/// `depth + c(size)` in `threshold`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct IsolationTree {
    feature: Vec<u32>,
    threshold: Vec<f64>,
    left: Vec<u32>,
    right: Vec<u32>,
}

impl IsolationTree {
    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.feature.len()
    }

    /// The path length `h(x)` of one row (leaf depth plus `c(leaf size)`).
    fn path_length(&self, row: impl Fn(usize) -> f64) -> f64 {
        let mut node = 0usize;
        while self.left[node] != 0 {
            node = if row(self.feature[node] as usize) <= self.threshold[node] {
                self.left[node] as usize
            } else {
                self.right[node] as usize
            };
        }
        self.threshold[node]
    }

    /// Grows a tree on `rows` of `x` over `features`.
    fn grow<F: Float>(
        x: &ArrayRef2<F>,
        rows: &mut [usize],
        features: &[usize],
        max_depth: usize,
        rng: &mut random::Rng,
    ) -> Self {
        let mut t = IsolationTree {
            feature: Vec::new(),
            threshold: Vec::new(),
            left: Vec::new(),
            right: Vec::new(),
        };
        // (node, start, end, depth)
        let mut stack = vec![(0usize, 0usize, rows.len(), 0usize)];
        t.push_node();
        let mut candidates: Vec<usize> = Vec::with_capacity(features.len());
        while let Some((node, start, end, depth)) = stack.pop() {
            let part = &mut rows[start..end];
            let mut split = None;
            if part.len() > 1 && depth < max_depth {
                candidates.clear();
                candidates.extend_from_slice(features);
                while !candidates.is_empty() {
                    let pick = rng.random_range(0..candidates.len());
                    let f = candidates.swap_remove(pick);
                    let (lo, hi) =
                        part.iter()
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &i| {
                                let v = x[[i, f]].to_f64_lossless();
                                (a.min(v), b.max(v))
                            });
                    if hi > lo {
                        let mut thr = lo + rng.random::<f64>() * (hi - lo);
                        if thr >= hi {
                            thr = lo;
                        }
                        split = Some((f, thr));
                        break;
                    }
                }
            }
            match split {
                None => {
                    t.threshold[node] = depth as f64 + average_path_length(part.len());
                }
                Some((f, thr)) => {
                    // Partition: rows ≤ thr first.
                    let mut mid = 0;
                    for j in 0..part.len() {
                        if x[[part[j], f]].to_f64_lossless() <= thr {
                            part.swap(mid, j);
                            mid += 1;
                        }
                    }
                    let l = t.push_node();
                    let r = t.push_node();
                    t.feature[node] = f as u32;
                    t.threshold[node] = thr;
                    t.left[node] = l as u32;
                    t.right[node] = r as u32;
                    stack.push((r, start + mid, end, depth + 1));
                    stack.push((l, start, start + mid, depth + 1));
                }
            }
        }
        t
    }

    fn push_node(&mut self) -> usize {
        self.feature.push(0);
        self.threshold.push(0.0);
        self.left.push(0);
        self.right.push(0);
        self.feature.len() - 1
    }
}

/// A fitted [`IsolationForest`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedIsolationForest {
    params: IsolationForest,
    trees: Vec<IsolationTree>,
    max_samples: usize,
    n_features: usize,
    offset: f64,
}

impl FittedIsolationForest {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &IsolationForest {
        &self.params
    }
    /// The isolation trees.
    pub fn trees(&self) -> &[IsolationTree] {
        &self.trees
    }
    /// `ψ`, the rows per tree (scikit-learn's `max_samples_`).
    pub fn max_samples(&self) -> usize {
        self.max_samples
    }

    /// `score_samples` in `f64`.
    fn scores<F: Float>(&self, x: &ArrayRef2<F>) -> Vec<f64> {
        let norm = self.trees.len() as f64 * average_path_length(self.max_samples);
        let parts = par::map_row_chunks(x, 512, |_, chunk| {
            chunk
                .rows()
                .into_iter()
                .map(|r| {
                    let h: f64 = self
                        .trees
                        .iter()
                        .map(|t| t.path_length(|f| r[f].to_f64_lossless()))
                        .sum();
                    // ψ = 1 gives c(ψ) = 0: every row is equally (not) isolated.
                    if norm > 0.0 {
                        -(2f64.powf(-h / norm))
                    } else {
                        -1.0
                    }
                })
                .collect::<Vec<f64>>()
        });
        parts.into_iter().flatten().collect()
    }
}

/// NumPy's `percentile(a, q)` with linear interpolation.
fn percentile(mut a: Vec<f64>, q: f64) -> f64 {
    a.sort_by(f64::total_cmp);
    let pos = q / 100.0 * (a.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(a.len() - 1);
    let frac = pos - lo as f64;
    a[lo] + (a[hi] - a[lo]) * frac
}

impl<F: Float> FitUnsupervised<F> for IsolationForest {
    type Model = FittedIsolationForest;

    /// Grows the trees (in parallel) and sets the offset.
    fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedIsolationForest> {
        self.validate()?;
        validate::check_fit_input(x, 1, "IsolationForest::fit")?;
        let (n, d) = x.dim();
        let (psi, k) = self.sizes(n, d)?;
        let max_depth = (psi.max(2) as f64).log2().ceil() as usize;
        let trees = par::try_map_tasks(self.n_estimators, |t| {
            let mut rng = random::stream(self.seed, t as u64);
            let mut rows = if psi == n {
                (0..n).collect()
            } else {
                random::sample_without_replacement(&mut rng, n, psi)?
            };
            let mut features = if k == d {
                (0..d).collect()
            } else {
                random::sample_without_replacement(&mut rng, d, k)?
            };
            features.sort_unstable();
            Ok(IsolationTree::grow(
                x, &mut rows, &features, max_depth, &mut rng,
            ))
        })?;
        let mut fitted = FittedIsolationForest {
            params: self.clone(),
            trees,
            max_samples: psi,
            n_features: d,
            offset: -0.5,
        };
        if let Contamination::Fraction(c) = self.contamination {
            fitted.offset = percentile(fitted.scores(x), 100.0 * c);
        }
        Ok(fitted)
    }
}

impl<F: Float> OutlierDetector<F> for FittedIsolationForest {
    /// `−2^{−E[h(x)]/c(ψ)}`: larger is more normal.
    fn score_samples(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        validate::check_predict_input(x, self.n_features, "IsolationForest::score_samples")?;
        Ok(self.scores(x).into_iter().map(F::cast).collect())
    }

    fn offset(&self) -> F {
        F::cast(self.offset)
    }
}

impl<F: Float> Predict<F> for FittedIsolationForest {
    type Output = Array1<i64>;

    /// `−1` where `score_samples − offset < 0`, `+1` elsewhere.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<i64>> {
        validate::check_predict_input(x, self.n_features, "IsolationForest::predict")?;
        Ok(self
            .scores(x)
            .into_iter()
            .map(|s| if s - self.offset < 0.0 { -1 } else { 1 })
            .collect())
    }
}

impl NFeaturesIn for FittedIsolationForest {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

/// An isolation tree read back from a file (the split features are checked by the forest).
///
/// The grower pushes both children after their parent, and `left = 0` marks a leaf (the root
/// is no node's child): every child index must be greater than its parent's and every node but
/// the root the child of exactly one node (`TreeLinks`), so a walk ends within `node_count`
/// steps.
impl CheckModel for IsolationTree {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("IsolationTree");
        let n = self.feature.len();
        c.at_least("nodes", n, 1)?;
        c.len("threshold", self.threshold.len(), n)?;
        c.len("left", self.left.len(), n)?;
        c.len("right", self.right.len(), n)?;
        c.finite_slice("threshold", &self.threshold)?;
        let mut links = TreeLinks::new(n);
        for i in 0..n {
            let (left, right) = (self.left[i], self.right[i]);
            if left == 0 {
                // a leaf's threshold is its path length
                c.that(right == 0 && self.threshold[i] >= 0.0, || {
                    format!("leaf {i}: needs right child 0 and a path length >= 0")
                })?;
                continue;
            }
            links.child(&c, i, left)?;
            links.child(&c, i, right)?;
        }
        links.finish(&c)
    }
}

impl CheckModel for FittedIsolationForest {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedIsolationForest");
        c.params(&self.params)?;
        let d = self.n_features;
        c.at_least("n_features", d, 1)?;
        c.at_least("max_samples", self.max_samples, 1)?;
        c.finite_value("offset", self.offset)?;
        c.len("trees", self.trees.len(), self.params.n_estimators)?;
        for (t, tree) in self.trees.iter().enumerate() {
            c.part(&format!("trees[{t}]"), tree)?;
            let mut splits = tree
                .feature
                .iter()
                .zip(&tree.left)
                .filter(|&(_, &l)| l != 0);
            c.that(splits.all(|(&f, _)| (f as usize) < d), || {
                format!("`trees[{t}]` splits on a feature not below {d}")
            })?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::Contamination;
    use serde::de::Error as _;
    use serde_json::Value;

    impl serde::Serialize for Contamination {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            match *self {
                Contamination::Auto => s.serialize_str("auto"),
                Contamination::Fraction(f) => s.serialize_f64(f),
            }
        }
    }

    impl<'de> serde::Deserialize<'de> for Contamination {
        /// Accepts `"auto"` or a number.
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            match Value::deserialize(d)? {
                Value::String(s) if s.eq_ignore_ascii_case("auto") => Ok(Contamination::Auto),
                Value::Number(n) => n
                    .as_f64()
                    .map(Contamination::Fraction)
                    .ok_or_else(|| D::Error::custom("contamination: invalid number")),
                other => Err(D::Error::custom(format!(
                    "contamination: expected \"auto\" or a fraction in (0, 0.5]; got {other}"
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn average_path_length_values() {
        assert_eq!(average_path_length(1), 0.0);
        assert_eq!(average_path_length(2), 1.0);
        // c(256) of the paper: 2(ln 255 + γ) − 2·255/256 ≈ 10.2448.
        assert!((average_path_length(256) - 10.244_770_920_119_917).abs() < 1e-12);
        assert_eq!(percentile(vec![3.0, 1.0, 2.0, 4.0], 50.0), 2.5);
    }

    fn data() -> Array2<f64> {
        let mut rng = random::rng(5);
        let mut x = Array2::from_shape_fn((300, 3), |_| random::standard_normal::<f64>(&mut rng));
        for i in 0..10 {
            x.row_mut(i).assign(&array![6.0 + i as f64, -6.0, 6.0]);
        }
        x
    }

    #[test]
    fn planted_outliers_score_lowest_and_contamination_sets_the_fraction() {
        let x = data();
        let f = IsolationForest::default()
            .contamination(Contamination::Fraction(0.05))
            .fit(&x)
            .expect("ok");
        let s: Array1<f64> = f.score_samples(&x).expect("ok");
        let worst_outlier = s.iter().take(10).cloned().fold(f64::NEG_INFINITY, f64::max);
        let below = s.iter().skip(10).filter(|&&v| v < worst_outlier).count();
        assert!(below <= 3, "{below} inliers below an outlier");
        let p = f.predict(&x).expect("ok");
        let flagged = p.iter().filter(|&&v| v == -1).count();
        assert_eq!(flagged, 15); // 5 % of 300
        assert!(p.iter().take(10).all(|&v| v == -1));
        // decision = score − offset.
        let dec = OutlierDetector::decision_function(&f, &x).expect("ok");
        assert!((dec[0] - (s[0] - OutlierDetector::<f64>::offset(&f))).abs() < 1e-15);
        // Auto: offset −½; scores in [−1, 0).
        let auto = IsolationForest::default().fit(&x).expect("ok");
        assert_eq!(OutlierDetector::<f64>::offset(&auto), -0.5);
        assert!(
            auto.score_samples(&x)
                .expect("ok")
                .iter()
                .all(|&v: &f64| (-1.0..0.0).contains(&v))
        );
        assert_eq!(auto.max_samples(), 256);
        // Depth limit ⌈log₂ 256⌉ = 8 ⇒ at most 2⁹ − 1 nodes.
        assert!(auto.trees().iter().all(|t| t.node_count() <= 511));
    }

    #[test]
    fn deterministic_for_any_thread_count_and_typed_errors() {
        let x = data();
        let est = IsolationForest::default()
            .n_estimators(20)
            .max_features(SampleCount::Count(2));
        let a = par::with_threads(1, || est.fit(&x))
            .expect("ok")
            .expect("ok");
        let b = par::with_threads(3, || est.fit(&x))
            .expect("ok")
            .expect("ok");
        assert_eq!(a, b);
        for bad in [
            IsolationForest::default().n_estimators(0),
            IsolationForest::default().contamination(Contamination::Fraction(0.7)),
            IsolationForest::default().max_samples(Some(SampleCount::Fraction(1.5))),
        ] {
            assert!(matches!(
                FitUnsupervised::<f64>::fit(&bad, &x),
                Err(Error::InvalidParam { .. })
            ));
        }
        assert!(matches!(
            FitUnsupervised::<f64>::fit(
                &IsolationForest::default().max_features(SampleCount::Count(4)),
                &x
            ),
            Err(Error::InvalidParam { .. })
        ));
        let mut bad = x.clone();
        bad[[3, 1]] = f64::INFINITY;
        assert!(FitUnsupervised::<f64>::fit(&IsolationForest::default(), &bad).is_err());
        assert!(a.predict(&array![[1.0, 2.0]]).is_err());
        // Constant data: every tree is a single leaf, all scores equal.
        let c = Array2::<f64>::ones((20, 2));
        let f = IsolationForest::default().fit(&c).expect("ok");
        let s: Array1<f64> = f.score_samples(&c).expect("ok");
        assert!(s.iter().all(|&v| v == s[0]));
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_broken_trees() {
        let x = data();
        let f = IsolationForest::default()
            .n_estimators(5)
            .fit(&x)
            .expect("ok");
        assert!(f.check_model().is_ok());
        let invalid =
            |m: &FittedIsolationForest| matches!(m.check_model(), Err(Error::InvalidModel { .. }));
        let mut bad = f.clone();
        bad.trees[0].right[0] = bad.trees[0].left[0]; // one child twice
        assert!(invalid(&bad));
        let mut bad = f.clone();
        let l = bad.trees[1].left[0];
        bad.trees[1].left[l as usize] = l; // a node its own child: a cycle
        assert!(invalid(&bad));
        let mut bad = f.clone();
        bad.trees[2].feature[0] = 3; // only 3 features
        assert!(invalid(&bad));
        let mut bad = f;
        bad.trees[3].threshold.pop();
        assert!(invalid(&bad));
    }
}
