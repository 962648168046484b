//! The worked examples of the notes (catalog G-02, G-03, G-05, G-06, G-08; TV4, TV5) and
//! identities between the models.

use ndarray::{Array1, Array2, array};
use ndlearn_bayes::framework::posterior;
use ndlearn_bayes::{
    CategoricalNB, FeatureModel, FisherDiscriminant, GaussianNB, KdeClassifier, LdaSolver,
    LinearDiscriminantAnalysis, MixedNB, QuadraticDiscriminantAnalysis,
};
use ndlearn_core::stats::kde::{Bandwidth, KdeKernel, NOTES_BANDWIDTH_CONSTANT};
use ndlearn_core::{Fit, Predict, PredictProba, Transform};

/// G-02 (002 L1856-1868): bananas 90 % yellow / 10 % green; apples 50 % red / 40 % green /
/// 10 % yellow; cherries 95 % red / 5 % yellow. x = red: P(x | K) = 0, 0.5, 0.95; with apples
/// and cherries equally common the Bayes classifier says cherry.
#[test]
fn fruit_colour_bayes_rule() {
    // colour codes 0 red, 1 green, 2 yellow; 20 bananas, 20 apples, 20 cherries with exactly
    // those frequencies
    let mut x = Vec::new();
    let mut y = Vec::new();
    for (class, freq) in [(0usize, [0, 2, 18]), (1, [10, 8, 2]), (2, [19, 0, 1])] {
        for (colour, &n) in freq.iter().enumerate() {
            for _ in 0..n {
                x.push(colour as f64);
                y.push(class);
            }
        }
    }
    let x = Array2::from_shape_vec((x.len(), 1), x).expect("shape");
    let y = Array1::from(y);
    let nb = CategoricalNB::default()
        .alpha(0.0)
        .fit(&x, &y)
        .expect("fit");
    let p_red: Vec<f64> = nb.feature_log_prob()[0]
        .column(0)
        .iter()
        .map(|v| v.exp())
        .collect();
    assert_eq!(p_red[0], 0.0);
    assert!((p_red[1] - 0.5).abs() < 1e-15 && (p_red[2] - 0.95).abs() < 1e-15);
    assert_eq!(nb.predict(&array![[0.0]]).expect("predict")[0], 2, "cherry");
    let p = nb.predict_proba(&array![[0.0]]).expect("proba");
    assert!((p[[0, 2]] - 0.95 / 1.45).abs() < 1e-12);
}

/// TV5 (002 L2020-2029): x = (195 g, yellow) → apple; scores 1.43796e-3 vs 3.13292e-9,
/// posterior ≈ 0.999998; with n − 1 variances still apple (≈ 0.99981).
#[test]
fn fruit_exercise_mixed_naive_bayes() {
    let x = array![
        [162.0f64, 0.0],
        [186.0, 1.0],
        [112.0, 1.0],
        [142.0, 2.0],
        [128.0, 1.0]
    ];
    let y = array![0usize, 0, 1, 1, 1];
    let nb = MixedNB::new(vec![FeatureModel::Gaussian, FeatureModel::Categorical])
        .alpha(0.0)
        .var_smoothing(0.0)
        .fit(&x, &y)
        .expect("fit");
    let (mean, var) = nb.gaussian(0).expect("gaussian");
    assert!((mean[0] - 174.0).abs() < 1e-12 && (var[0] - 144.0).abs() < 1e-12);
    assert!((mean[1] - 382.0 / 3.0).abs() < 1e-12 && (var[1] - 150.222_222_222_222_2).abs() < 1e-9);
    let q = array![[195.0, 1.0]];
    let jll =
        ndlearn_bayes::framework::JointLogLikelihood::joint_log_likelihood(&nb, &q).expect("jll");
    assert!(
        (jll[[0, 0]].exp() / 1.43796e-3 - 1.0).abs() < 1e-5,
        "{}",
        jll[[0, 0]].exp()
    );
    assert!(
        (jll[[0, 1]].exp() / 3.13292e-9 - 1.0).abs() < 1e-5,
        "{}",
        jll[[0, 1]].exp()
    );
    let p = nb.predict_proba(&q).expect("proba");
    assert!((p[[0, 0]] - 0.999_998).abs() < 5e-7);
    assert_eq!(nb.predict(&q).expect("predict")[0], 0);
    // the notes' n − 1 variant: 288 and 225.33 → posterior ≈ 0.99981
    let pdf = |v: f64, m: f64, s2: f64| {
        (-(v - m) * (v - m) / (2.0 * s2)).exp() / (2.0 * std::f64::consts::PI * s2).sqrt()
    };
    let a = 0.4 * pdf(195.0, 174.0, 288.0) * 0.5;
    let b = 0.6 * pdf(195.0, 382.0 / 3.0, 225.333_333_333_333_3) * (2.0 / 3.0);
    assert!((a / (a + b) - 0.99981).abs() < 5e-6);
}

/// G-03: a missing feature drops out of numerator and denominator (000 L588-592).
#[test]
fn missing_features_are_skipped() {
    let x = array![
        [1.0f64, 0.0, 10.0],
        [1.2, 1.0, 11.0],
        [0.9, 0.0, f64::NAN],
        [3.0, 1.0, 20.0],
        [3.3, 1.0, 21.0],
        [f64::NAN, 1.0, 19.0]
    ];
    let y = array![0usize, 0, 0, 1, 1, 1];
    let models = vec![
        FeatureModel::Gaussian,
        FeatureModel::Bernoulli,
        FeatureModel::Gaussian,
    ];
    let nb = MixedNB::new(models.clone()).fit(&x, &y).expect("fit");
    // NaN at fit: the class-0 mean of feature 2 uses rows 0 and 1 only
    let (mean, _) = nb.gaussian(2).expect("gaussian");
    assert!((mean[0] - 10.5).abs() < 1e-12);
    // NaN at predict = the model fitted without that feature
    let q = array![[2.0, f64::NAN, 15.0]];
    let without = MixedNB::new(vec![FeatureModel::Gaussian, FeatureModel::Gaussian])
        .fit(&x.select(ndarray::Axis(1), &[0, 2]), &y)
        .expect("fit");
    let a = nb.predict_proba(&q).expect("a");
    let b = without.predict_proba(&array![[2.0, 15.0]]).expect("b");
    for (u, v) in a.iter().zip(b.iter()) {
        assert!((u - v).abs() < 1e-12, "{u} vs {v}");
    }
    // ±∞ is still an error
    assert!(nb.predict(&array![[f64::INFINITY, 0.0, 1.0]]).is_err());
}

/// Gaussian NB equals MixedNB with Gaussian features (same variance smoothing rule).
#[test]
fn gaussian_nb_is_mixed_nb_with_gaussian_features() {
    let x = array![
        [1.0f64, 5.0],
        [2.0, 4.5],
        [1.5, 6.0],
        [4.0, 1.0],
        [5.0, 2.0],
        [4.5, 0.5]
    ];
    let y = array![0usize, 0, 0, 1, 1, 1];
    let q = array![[3.0, 3.0], [1.0, 1.0]];
    let g = GaussianNB::default().fit(&x, &y).expect("g");
    let m = MixedNB::default().fit(&x, &y).expect("m");
    let (pg, pm) = (
        g.predict_proba(&q).expect("g"),
        m.predict_proba(&q).expect("m"),
    );
    for (a, b) in pg.iter().zip(pm.iter()) {
        assert!((a - b).abs() < 1e-12);
    }
}

/// G-08: the notes' bandwidth constant (4/3)^{1/5} = 1.059224; a box kernel far from all
/// data gives density 0 in every class: no class can be assigned.
#[test]
fn kde_classifier_box_kernel_and_constant() {
    assert!((NOTES_BANDWIDTH_CONSTANT - 1.059_224).abs() < 1e-6);
    let x = array![[0.0], [0.2], [0.4], [5.0], [5.2], [5.4]];
    let y = array![0usize, 0, 0, 1, 1, 1];
    let m = KdeClassifier::default()
        .kernel(KdeKernel::Box)
        .bandwidth(Bandwidth::Fixed(0.5))
        .fit(&x, &y)
        .expect("fit");
    assert_eq!(
        m.predict(&array![[0.1], [5.1]]).expect("near").to_vec(),
        vec![0, 1]
    );
    let err = m.predict(&array![[2.5]]).expect_err("no class");
    assert!(err.to_string().contains("likelihood 0"), "{err}");
}

/// G-05: LDA's posterior is softmax(β_cᵀx + γ_c) with β_c = Σ⁻¹μ_c and
/// γ_c = −½μ_cᵀΣ⁻¹μ_c + log π_c, Σ the pooled MLE covariance; all three solvers agree.
#[test]
fn lda_softmax_form_and_solvers_agree() {
    let x = array![
        [1.0f64, 2.0, 0.5],
        [2.0, 3.0, 1.5],
        [3.0, 3.5, 0.0],
        [2.0, 1.0, 1.0],
        [6.0, 5.0, 2.0],
        [7.0, 8.0, 3.5],
        [8.0, 7.5, 2.5],
        [7.0, 6.0, 4.0],
        [3.0, 8.0, 6.0],
        [4.0, 9.0, 5.5],
        [2.5, 8.5, 7.0],
        [3.5, 7.0, 6.5]
    ];
    let y = array![0usize, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2];
    let lsqr = LinearDiscriminantAnalysis::default()
        .solver(LdaSolver::Lsqr)
        .fit(&x, &y)
        .expect("lsqr");
    let sigma = lsqr.covariance().expect("covariance").clone();
    let inv = ndlearn_core::linalg::inv(&sigma).expect("inverse");
    for c in 0..3 {
        let mu = lsqr.means().row(c);
        let beta = inv.dot(&mu);
        let gamma = -0.5 * mu.dot(&beta) + (1.0f64 / 3.0).ln();
        for (a, b) in beta.iter().zip(lsqr.beta().row(c)) {
            assert!((a - b).abs() < 1e-9 * a.abs().max(1.0));
        }
        assert!((gamma - lsqr.gamma()[c]).abs() < 1e-9 * gamma.abs().max(1.0));
    }
    let q = array![[4.0, 5.0, 3.0], [1.0, 1.0, 1.0], [3.0, 9.0, 6.0]];
    let scores = q.dot(&lsqr.beta().t()) + lsqr.gamma();
    let expect = posterior(&scores).expect("softmax");
    for solver in [LdaSolver::Svd, LdaSolver::Lsqr, LdaSolver::Eigen] {
        let m = LinearDiscriminantAnalysis::default()
            .solver(solver)
            .fit(&x, &y)
            .expect("fit");
        let p = m.predict_proba(&q).expect("proba");
        for (a, b) in p.iter().zip(expect.iter()) {
            assert!((a - b).abs() < 1e-9, "{solver:?}: {a} vs {b}");
        }
    }
}

/// G-06: for two classes Fisher's direction is S_W⁻¹(m₂ − m₁); the generalised eigenvector
/// agrees (up to sign); LDA's transform spans the same line.
#[test]
fn fisher_two_class_closed_form() {
    let x = array![
        [1.0f64, 2.0],
        [2.0, 3.0],
        [3.0, 3.5],
        [1.5, 1.0],
        [6.0, 5.0],
        [7.0, 8.0],
        [8.0, 7.5],
        [6.5, 6.0]
    ];
    let y = array![0usize, 0, 0, 0, 1, 1, 1, 1];
    let f = FisherDiscriminant::default().fit(&x, &y).expect("fit");
    let w = f.two_class_direction().expect("two classes");
    let e = f.components().column(0);
    let cos = w.dot(&e).abs();
    assert!((cos - 1.0).abs() < 1e-12, "cos {cos}");
    // S_W w ∝ m₂ − m₁
    let m = f.means();
    let diff = &m.row(1) - &m.row(0);
    let mut sw = Array2::<f64>::zeros((2, 2));
    for (row, &c) in x.rows().into_iter().zip(y.iter()) {
        let d = &row - &m.row(c);
        for i in 0..2 {
            for j in 0..2 {
                sw[[i, j]] += d[i] * d[j];
            }
        }
    }
    let sww = sw.dot(w);
    let ratio = sww[0] / diff[0];
    assert!((sww[1] / diff[1] - ratio).abs() < 1e-10 * ratio.abs());
    // LDA (svd) transform is the same projection up to scale and shift
    let lda = LinearDiscriminantAnalysis::default()
        .fit(&x, &y)
        .expect("lda");
    let z = lda.transform(&x).expect("transform");
    let zf = f.transform(&x).expect("transform");
    let scale = (z[[1, 0]] - z[[0, 0]]) / (zf[[1, 0]] - zf[[0, 0]]);
    for i in 0..x.nrows() {
        let a = z[[i, 0]] - z[[0, 0]];
        let b = (zf[[i, 0]] - zf[[0, 0]]) * scale;
        assert!((a - b).abs() < 1e-9 * a.abs().max(1.0));
    }
}

/// G-04: QDA with the MLE rule agrees with a direct Gaussian log-density computation.
#[test]
fn qda_matches_gaussian_densities() {
    let x = array![
        [1.0f64, 2.0],
        [2.0, 3.5],
        [3.0, 3.0],
        [1.5, 1.0],
        [2.5, 2.0],
        [6.0, 5.0],
        [7.0, 9.0],
        [8.0, 6.5],
        [6.5, 7.0],
        [7.5, 5.5]
    ];
    let y = array![0usize, 0, 0, 0, 0, 1, 1, 1, 1, 1];
    let qda = QuadraticDiscriminantAnalysis::default()
        .fit(&x, &y)
        .expect("fit");
    let q = array![[4.0, 4.0], [2.0, 2.0]];
    let covs = qda.covariances();
    let mut jll = Array2::<f64>::zeros((2, 2));
    for c in 0..2 {
        let inv = ndlearn_core::linalg::inv(&covs[c]).expect("inverse");
        let det = covs[c][[0, 0]] * covs[c][[1, 1]] - covs[c][[0, 1]] * covs[c][[1, 0]];
        for i in 0..2 {
            let d = &q.row(i) - &qda.means().row(c);
            jll[[i, c]] = 0.5f64.ln() - 0.5 * det.ln() - 0.5 * d.dot(&inv.dot(&d));
        }
    }
    let expect = posterior(&jll).expect("posterior");
    let p = qda.predict_proba(&q).expect("proba");
    for (a, b) in p.iter().zip(expect.iter()) {
        assert!((a - b).abs() < 1e-10);
    }
}

/// G-07 (000 L632-638): with two classes LDA's posterior is a sigmoid of a linear score,
/// `p(1 | x) = σ((β₁ − β₀)ᵀx + γ₁ − γ₀)`, the logistic-regression form (with other
/// coefficients: generative, not discriminative, estimates).
#[test]
fn two_class_lda_posterior_is_a_sigmoid_of_a_linear_score() {
    let x = array![
        [1.0f64, 2.0],
        [2.0, 3.0],
        [3.0, 3.5],
        [1.5, 1.0],
        [6.0, 5.0],
        [7.0, 8.0],
        [8.0, 7.5],
        [6.5, 6.0]
    ];
    let y = array![0usize, 0, 0, 0, 1, 1, 1, 1];
    let lda = LinearDiscriminantAnalysis::default()
        .solver(LdaSolver::Lsqr)
        .fit(&x, &y)
        .expect("fit");
    let q = array![[4.0, 4.0], [5.0, 4.5], [2.0, 6.0]];
    let p = lda.predict_proba(&q).expect("proba");
    let (w, b) = (lda.coef(), lda.intercept());
    for (i, row) in q.rows().into_iter().enumerate() {
        let z = w.row(0).dot(&row) + b[0];
        let s = 1.0 / (1.0 + (-z).exp());
        assert!((p[[i, 1]] - s).abs() < 1e-12);
    }
}
