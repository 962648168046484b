//! LT-10a (catalog L-02, §2 item 15): the Gauss–Markov setting checked by Monte Carlo over
//! noise draws with a fixed design.
//!
//! For `y = Xw + ε`, `ε ~ N(0, (1/β) I)`, the least-squares estimate is unbiased,
//! `E[ŵ] = w`, with covariance `(1/β)(XᵀX)⁻¹`, and the maximum-likelihood noise variance
//! `1/β_MLE = (1/n) Σ rᵢ²` (erratum E32: the notes print `β = …`) is biased:
//! `E[1/β_MLE] = (1 − d/n)/β` for `d` fitted parameters (the intercept counts).
//!
//! Every tolerance is a multiple of the Monte-Carlo standard error of the quantity (derived
//! below), so the test checks the theorem, not an implementation detail; the draws come from a
//! fixed seed, so it is deterministic.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::{Fit, Predict, linalg, random};
use ndlearn_linear::LinearRegression;

const N: usize = 20;
const DRAWS: usize = 4000;
const BETA: f64 = 4.0; // noise sd 0.5

fn design() -> Array2<f64> {
    let mut rng = random::stream(31, 0);
    Array2::from_shape_fn((N, 3), |_| random::standard_normal::<f64>(&mut rng))
}

/// Runs the Monte Carlo and returns (mean of ŵ, empirical covariance of ŵ, mean of 1/β_MLE)
/// with ŵ including the intercept as its last entry when `fit_intercept`.
fn monte_carlo(
    x: &Array2<f64>,
    w: &Array1<f64>,
    b: f64,
    fit_intercept: bool,
) -> (Array1<f64>, Array2<f64>, f64) {
    let est = LinearRegression::default().fit_intercept(fit_intercept);
    let p = w.len() + usize::from(fit_intercept);
    let mut draws = Array2::zeros((DRAWS, p));
    let mut sigma2 = 0.0;
    let mut rng = random::stream(32, u64::from(fit_intercept));
    let clean = x.dot(w) + b;
    for k in 0..DRAWS {
        let y = clean.mapv(|v| v + random::standard_normal::<f64>(&mut rng) / BETA.sqrt());
        let fit = est.fit(x, &y).expect("fit");
        let mut row = draws.row_mut(k);
        row.slice_mut(ndarray::s![..w.len()]).assign(&fit.coef());
        if fit_intercept {
            row[w.len()] = fit.intercept();
        }
        let r = &fit.predict(x).expect("predict") - &y;
        sigma2 += r.dot(&r) / N as f64; // 1/β_MLE (E32)
    }
    let mean = draws.mean_axis(Axis(0)).expect("draws");
    let c = &draws - &mean;
    let cov = c.t().dot(&c) / (DRAWS as f64 - 1.0);
    (mean, cov, sigma2 / DRAWS as f64)
}

fn check(
    x_fit: &Array2<f64>,
    mean: &Array1<f64>,
    cov: &Array2<f64>,
    truth: &Array1<f64>,
    sigma2: f64,
    d: usize,
) {
    // Theory: Cov(ŵ) = (1/β)(X̃ᵀX̃)⁻¹ with X̃ the design including the ones column if any.
    let theory = linalg::inv(&x_fit.t().dot(x_fit)).expect("inv") / BETA;
    for j in 0..truth.len() {
        // Unbiasedness: |mean − w| within 4 standard errors √(Var/DRAWS).
        let se = (theory[[j, j]] / DRAWS as f64).sqrt();
        assert!(
            (mean[j] - truth[j]).abs() < 4.0 * se,
            "coef {j}: {} vs {}",
            mean[j],
            truth[j]
        );
        // Variance: the sample variance has relative sd √(2/(DRAWS−1)) ≈ 0.022; allow 5 sd.
        let rel = (cov[[j, j]] - theory[[j, j]]).abs() / theory[[j, j]];
        assert!(
            rel < 5.0 * (2.0 / (DRAWS as f64 - 1.0)).sqrt(),
            "var {j}: {rel}"
        );
    }
    // E[1/β_MLE] = (1 − d/n)/β. n·σ̂²·β ~ χ²_{n−d}: Var(σ̂²) = 2(n − d)/(n²β²).
    let want = (1.0 - d as f64 / N as f64) / BETA;
    let se = (2.0 * (N - d) as f64).sqrt() / (N as f64 * BETA) / (DRAWS as f64).sqrt();
    assert!(
        (sigma2 - want).abs() < 4.0 * se,
        "E[1/beta_MLE] {sigma2} vs {want} (se {se})"
    );
    // The naive (1/β) is clearly rejected: the bias d/(nβ) is many standard errors.
    assert!((sigma2 - 1.0 / BETA).abs() > 10.0 * se);
}

#[test]
fn ols_is_unbiased_and_the_noise_mle_is_biased_by_one_minus_d_over_n() {
    let x = design();
    let w = Array1::from(vec![1.5, -2.0, 0.25]);
    // Without intercept: d = 3.
    let (mean, cov, s2) = monte_carlo(&x, &w, 0.0, false);
    check(&x, &mean, &cov, &w, s2, 3);
    // With an intercept b = 3: d = 4 parameters, design [X, 1].
    let (mean, cov, s2) = monte_carlo(&x, &w, 3.0, true);
    let xa = ndarray::concatenate![Axis(1), x, Array2::ones((N, 1))];
    let truth = Array1::from(vec![1.5, -2.0, 0.25, 3.0]);
    check(&xa, &mean, &cov, &truth, s2, 4);
}
