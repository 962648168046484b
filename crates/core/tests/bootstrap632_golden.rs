//! `model_selection::bootstrap_632` (.632 and Efron–Tibshirani's .632+) against a numpy
//! reference computed on the very same bootstrap samples (`datasets/golden/core/bootstrap632.json`,
//! written by `scripts/golden/core_bootstrap632.py`).
//!
//! `bootstrap_632` takes a seed only; replicate `b` fits on
//! `random::bootstrap(&mut random::stream(seed, b), n)`. The script re-implements that generator
//! bit for bit and stores the samples (`in_bag`, in draw order). This test checks the stored
//! samples against ndlearn's generator, and against the rows the estimator is actually fitted on:
//! column 0 of the data handed to `bootstrap_632` is the row index, which the estimators record
//! (and never use as a feature). The classifiers (nearest centroid, 1-NN, 1-NN regression) are
//! the script's, and no prediction is near a tie (asserted there), so every loss is the same
//! here and there; the per-replicate errors, `err̄`, `Err⁽¹⁾`, `γ`, `R` and the .632 / .632+
//! estimates are then means of the same numbers (0/1 losses, or squared errors of order 1) in
//! another order, which agree to a few ulps: 1e-12 absolute leaves a wide margin for that and
//! none for a different formula (the .632+ correction itself is above 1e-6 in every case, and
//! the cases cover `0 < R < 1` and the clipped `Err⁽¹⁾ > γ`, `R = 1`).

use std::sync::Mutex;

use ndlearn_core::model_selection::{Bootstrap632, Bootstrap632Result, bootstrap_632};
use ndlearn_core::ndarray::{
    Array1, Array2, ArrayRef1, ArrayRef2, ArrayView1, Axis, concatenate, s,
};
use ndlearn_core::random;
use ndlearn_core::{Fit, Labels, Result};
use ndlearn_testkit::{Case, Golden};

/// Absolute tolerance of every compared quantity (see the module docs).
const TOL: f64 = 1e-12;

/// Records the row indices (column 0) of every matrix an estimator is fitted on.
#[derive(Default)]
struct Recorder(Mutex<Vec<Vec<usize>>>);

impl Recorder {
    fn record(&self, x: &ArrayRef2<f64>) {
        let rows: Vec<usize> = x.column(0).iter().map(|&v| v as usize).collect();
        self.0.lock().expect("recorder lock").push(rows);
    }
    fn take(&self) -> Vec<Vec<usize>> {
        std::mem::take(&mut *self.0.lock().expect("recorder lock"))
    }
}

/// Squared Euclidean distance between feature rows.
fn sq(a: ArrayView1<'_, f64>, b: ArrayView1<'_, f64>) -> f64 {
    a.iter().zip(&b).map(|(u, v)| (u - v) * (u - v)).sum()
}

/// Index of the nearest row of `points` (first on exact ties; the golden cases have none that
/// matter).
fn nearest(q: ArrayView1<'_, f64>, points: &Array2<f64>) -> usize {
    let mut best = (f64::INFINITY, 0);
    for (k, p) in points.rows().into_iter().enumerate() {
        let d = sq(q, p);
        if d < best.0 {
            best = (d, k);
        }
    }
    best.1
}

#[derive(Clone, Copy)]
enum Rule {
    NearestCentroid,
    OneNn,
}

struct Classifier {
    rule: Rule,
    seen: Recorder,
}

/// Centroids (one per class present) or the memorised training rows, and their labels.
struct ClassModel {
    points: Array2<f64>,
    labels: Vec<usize>,
}

impl Fit<f64> for Classifier {
    type Target = Labels;
    type Model = ClassModel;

    fn fit(&self, x: &ArrayRef2<f64>, y: &Labels) -> Result<ClassModel> {
        self.seen.record(x);
        let feats = x.slice(s![.., 1..]).to_owned();
        Ok(match self.rule {
            Rule::OneNn => ClassModel {
                points: feats,
                labels: y.to_vec(),
            },
            Rule::NearestCentroid => {
                let n_classes = y.iter().copied().max().map_or(0, |m| m + 1);
                let mut sums = Array2::<f64>::zeros((n_classes, feats.ncols()));
                let mut counts = vec![0usize; n_classes];
                for (row, &c) in feats.rows().into_iter().zip(y) {
                    let mut s = sums.row_mut(c);
                    s += &row;
                    counts[c] += 1;
                }
                let labels: Vec<usize> = (0..n_classes).filter(|&c| counts[c] > 0).collect();
                let mut points = Array2::zeros((labels.len(), feats.ncols()));
                for (k, &c) in labels.iter().enumerate() {
                    let mut r = points.row_mut(k);
                    r.assign(&sums.row(c));
                    r /= counts[c] as f64;
                }
                ClassModel { points, labels }
            }
        })
    }
}

fn zero_one(m: &ClassModel, x: &ArrayRef2<f64>, y: &Labels) -> Result<Array1<f64>> {
    let feats = x.slice(s![.., 1..]);
    Ok(feats
        .rows()
        .into_iter()
        .zip(y)
        .map(|(q, &t)| f64::from(u8::from(m.labels[nearest(q, &m.points)] != t)))
        .collect())
}

struct NnRegressor {
    seen: Recorder,
}

impl Fit<f64> for NnRegressor {
    type Target = ArrayRef1<f64>;
    type Model = (Array2<f64>, Array1<f64>);

    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<Self::Model> {
        self.seen.record(x);
        Ok((x.slice(s![.., 1..]).to_owned(), y.to_owned()))
    }
}

fn squared(
    m: &(Array2<f64>, Array1<f64>),
    x: &ArrayRef2<f64>,
    y: &ArrayRef1<f64>,
) -> Result<Array1<f64>> {
    let feats = x.slice(s![.., 1..]);
    Ok(feats
        .rows()
        .into_iter()
        .zip(y)
        .map(|(q, &t)| {
            let p = m.1[nearest(q, &m.0)];
            (t - p) * (t - p)
        })
        .collect())
}

fn index_matrix(case: &Case, field: &str) -> Vec<Vec<usize>> {
    case.matrix(field)
        .rows()
        .into_iter()
        .map(|r| {
            r.iter()
                .map(|&v| {
                    assert!(v >= 0.0 && v.fract() == 0.0, "{field}: {v}");
                    v as usize
                })
                .collect()
        })
        .collect()
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= TOL,
        "{what}: {got} vs {want} (|diff| = {:e})",
        (got - want).abs()
    );
}

fn close_all(got: &[f64], want: &Array1<f64>, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (b, (&g, &w)) in got.iter().zip(want).enumerate() {
        close(g, w, &format!("{what}[{b}]"));
    }
}

fn check_result(r: &Bootstrap632Result, case: &Case) {
    let name = case.name();
    close_all(
        &r.train_errors,
        &case.vector("train_errors"),
        &format!("{name}: train_errors"),
    );
    close_all(
        &r.oob_errors,
        &case.vector("oob_errors"),
        &format!("{name}: oob_errors"),
    );
    close_all(
        &r.in_bag_fractions,
        &case.vector("in_bag_fractions"),
        &format!("{name}: in_bag_fractions"),
    );
    close(
        r.estimate,
        case.scalar("estimate"),
        &format!("{name}: .632 (course notes)"),
    );
    close(
        r.apparent_error,
        case.scalar("apparent_error"),
        &format!("{name}: apparent"),
    );
    close(
        r.loo_bootstrap_error,
        case.scalar("loo_bootstrap_error"),
        &format!("{name}: Err(1)"),
    );
    close(
        r.efron_632,
        case.scalar("efron_632"),
        &format!("{name}: Efron .632"),
    );
    let gamma = r.no_information_error.expect("plus is on by default");
    close(
        gamma,
        case.scalar("no_information_error"),
        &format!("{name}: gamma"),
    );
    let rate = r.relative_overfitting.expect("plus");
    close(
        rate,
        case.scalar("relative_overfitting"),
        &format!("{name}: R"),
    );
    close(
        r.plus_632.expect("plus"),
        case.scalar("plus_632"),
        &format!("{name}: .632+"),
    );
    // The stored values exercise the .632+ rule: its correction is far above the tolerance.
    assert!((case.scalar("plus_632") - case.scalar("efron_632")).abs() > 1e-6);
}

/// The stored samples are ndlearn's: `random::bootstrap(stream(seed, b), n)`.
fn samples(case: &Case, n: usize) -> Vec<Vec<usize>> {
    let in_bag = index_matrix(case, "in_bag");
    let seed = case.usize("seed") as u64;
    assert_eq!(in_bag.len(), case.usize("n_bootstraps"));
    for (b, rows) in in_bag.iter().enumerate() {
        let drawn = random::bootstrap(&mut random::stream(seed, b as u64), n);
        assert_eq!(
            &drawn.in_bag,
            rows,
            "{}: replicate {b}: the stored sample is not ndlearn's (regenerate with \
             scripts/golden/core_bootstrap632.py if random::stream changed)",
            case.name()
        );
    }
    in_bag
}

/// The estimator was fitted on exactly the stored samples plus the full data, in any order.
fn check_fitted_rows(
    mut seen: Vec<Vec<usize>>,
    mut expected: Vec<Vec<usize>>,
    n: usize,
    name: &str,
) {
    expected.push((0..n).collect());
    seen.sort();
    expected.sort();
    assert!(
        seen == expected,
        "{name}: fitted row sets differ from the stored samples"
    );
}

fn with_row_ids(x: &Array2<f64>) -> Array2<f64> {
    let ids = Array2::from_shape_fn((x.nrows(), 1), |(i, _)| i as f64);
    concatenate![Axis(1), ids, x.view()]
}

fn options(case: &Case) -> Bootstrap632 {
    Bootstrap632::new()
        .n_bootstraps(case.usize("n_bootstraps"))
        .seed(case.usize("seed") as u64)
}

#[test]
fn classifiers_match_the_numpy_reference_on_the_same_samples() {
    let g = Golden::load("core", "bootstrap632");
    for (name, rule) in [
        ("nearest_centroid_gauss2", Rule::NearestCentroid),
        ("one_nn_noisy3", Rule::OneNn),
    ] {
        let case = g.case(name);
        assert_eq!(
            case.string("kind"),
            match rule {
                Rule::NearestCentroid => "nearest_centroid",
                Rule::OneNn => "one_nn_classifier",
            }
        );
        let x = case.matrix("x");
        let y = case.labels("labels");
        let n = x.nrows();
        let expected = samples(case, n);
        let est = Classifier {
            rule,
            seen: Recorder::default(),
        };
        let r = bootstrap_632(&est, &with_row_ids(&x), &y, zero_one, &options(case))
            .expect("bootstrap_632 runs");
        check_fitted_rows(est.seen.take(), expected, n, name);
        check_result(&r, case);
    }
    // the clipped branch (Err(1) > γ, R = 1, .632+ = γ) and an interior R are both covered
    assert_eq!(g.case("one_nn_noisy3").scalar("relative_overfitting"), 1.0);
    let r = g
        .case("nearest_centroid_gauss2")
        .scalar("relative_overfitting");
    assert!(r > 0.0 && r < 1.0);
}

#[test]
fn regressor_matches_the_numpy_reference_on_the_same_samples() {
    let g = Golden::load("core", "bootstrap632");
    let case = g.case("one_nn_regression");
    assert_eq!(case.string("kind"), "one_nn_regressor");
    let x = case.matrix("x");
    let y = case.vector("y");
    let n = x.nrows();
    let expected = samples(case, n);
    let est = NnRegressor {
        seen: Recorder::default(),
    };
    let r = bootstrap_632(&est, &with_row_ids(&x), &y, squared, &options(case))
        .expect("bootstrap_632 runs");
    check_fitted_rows(est.seen.take(), expected, n, case.name());
    check_result(&r, case);
    let rate = case.scalar("relative_overfitting");
    assert!(rate > 0.0 && rate < 1.0);
}
