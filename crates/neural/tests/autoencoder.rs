//! Autoencoders: the linear one spans the PCA subspace (principal angles bounded through the
//! eigengap), the notes' rank-1 toy data, the L1 code norm of the notes, sparse and denoising
//! variants, typed errors.

use ndarray::{Array1, Array2, Axis, array, s};
use ndlearn_core::linalg::{eigh_descending, qr, singular_values};
use ndlearn_core::{Estimator, FitUnsupervised, InverseTransform, Transform, random};
use ndlearn_neural::{
    Activation, Autoencoder, AutoencoderKind, Dense, Network, OutputLoss, Solver,
};

/// 300 rows of 5 features with variances 25, 9, 1, 0.25, 0.04 along a random orthonormal basis.
fn gapped_data() -> Array2<f64> {
    let mut rng = random::stream(42, 0);
    let g = Array2::from_shape_simple_fn((5, 5), || random::standard_normal::<f64>(&mut rng));
    let (q, _) = qr(&g).expect("qr");
    let scales = array![5.0, 3.0, 1.0, 0.5, 0.2];
    let z = Array2::from_shape_fn((300, 5), |(_, j)| {
        scales[j] * random::standard_normal::<f64>(&mut rng)
    });
    z.dot(&q.t())
}

/// The linear autoencoder's reconstruction subspace (row space of the decoder weights) is the
/// top-k PCA subspace. Tolerance from the eigengap: for a subspace at largest principal angle θ
/// from the top-k one, the best reconstruction loss exceeds the optimum
/// `J* = ½ Σ_{j>k} λ_j` by at least `½ sin²θ (λ_k − λ_{k+1})`, so
/// `sin²θ ≤ 2 (J − J*) / (λ_k − λ_{k+1})`; the test checks that bound with the fitted `J`, and
/// that `J − J*` itself is tiny (L-BFGS converged).
#[test]
fn linear_autoencoder_spans_the_pca_subspace() {
    let x = gapped_data();
    let k = 2;
    let fit = Autoencoder::new(k)
        .activation(Activation::Identity)
        .code_activation(Activation::Identity)
        .solver(Solver::Lbfgs)
        .tol(1e-12)
        .max_iter(20000)
        .seed(1)
        .fit(&x)
        .expect("fit");
    let n = x.nrows() as f64;
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let xc = &x - &mean;
    let cov = xc.t().dot(&xc) / n;
    let (lambda, v) = eigh_descending(&cov).expect("eigh");
    let j_star = 0.5 * lambda.slice(s![k..]).sum();
    let j = fit.network().loss_value(&x, &x, None, 0.0).objective;
    let gap = lambda[k - 1] - lambda[k];
    let excess = j - j_star;
    assert!(
        excess > -1e-12 * j_star,
        "below the PCA optimum? {j} vs {j_star}"
    );
    assert!(excess < 1e-6 * j_star, "not converged: J − J* = {excess}");
    let w_dec = &fit.decoder()[0].weights; // k × d
    let (q, _) = qr(&w_dec.t().to_owned()).expect("qr");
    let cosines =
        singular_values(&q.slice(s![.., ..k]).t().dot(&v.slice(s![.., ..k]))).expect("svd");
    let sin2_max = 1.0 - cosines.iter().fold(1.0_f64, |m, &c| m.min(c)).powi(2);
    let bound = 2.0 * excess.max(0.0) / gap + 1e-12;
    assert!(
        sin2_max <= bound,
        "sin²θ = {sin2_max} > 2(J − J*)/gap = {bound}"
    );
    // The code is a linear map of the input and the decoder maps it back onto the subspace.
    let back = fit
        .inverse_transform(&fit.transform(&x).expect("t"))
        .expect("it");
    let pca_back = xc.dot(&v.slice(s![.., ..k])).dot(&v.slice(s![.., ..k]).t()) + &mean;
    let diff = (&back - &pca_back)
        .mapv(f64::abs)
        .fold(0.0_f64, |m, &d| m.max(d));
    assert!(diff < 1e-3, "reconstruction differs from PCA's by {diff}");
}

/// The notes' toy data x₁ = (1, 2, 3, 4), x₂ = (5, 6, 7, 8), x₃ = (9, 10, 11, 12): the centred
/// data have rank 1, so a 1-unit linear autoencoder reconstructs them exactly.
#[test]
fn rank_one_toy_data_is_reconstructed_exactly() {
    let x = array![
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0]
    ];
    let fit = Autoencoder::new(1)
        .activation(Activation::Identity)
        .solver(Solver::Lbfgs)
        .tol(1e-12)
        .max_iter(5000)
        .fit(&x)
        .expect("fit");
    let code = fit.transform(&x).expect("transform");
    assert_eq!(code.dim(), (3, 1));
    let back = fit.inverse_transform(&code).expect("inverse");
    assert!((&back - &x).iter().all(|e: &f64| e.abs() < 1e-4), "{back}");
}

/// The L1 norm of the notes' latent code (0.1, −0.3, 0, 0.7) is 1.1, and it is what the sparse
/// penalty adds to the objective (one sample, identity layers, exact reconstruction).
#[test]
fn sparse_penalty_is_the_l1_norm_of_the_code() {
    let h = array![[0.1, -0.3, 0.0, 0.7]];
    let id = Dense::new(Array2::eye(4), Array1::zeros(4), Activation::Identity);
    let net = Network::from_layers(vec![id.clone(), id], OutputLoss::SquaredError)
        .expect("layers")
        .with_activity_l1(0, 1.0)
        .expect("layer 0");
    let v = net.loss_value(&h, &h, None, 0.0);
    assert!((v.objective - 1.1_f64).abs() < 1e-15, "{}", v.objective);
    assert!(net.clone().with_activity_l1(5, 1.0).is_err());
}

/// A sparse autoencoder has a smaller code L1 norm than a plain one; a denoising one still
/// reconstructs clean data better than the noise level; both are deterministic for a seed.
#[test]
fn sparse_and_denoising_variants() {
    let x = gapped_data().slice(s![..120, ..]).to_owned();
    let base = Autoencoder::new(3)
        .hidden_layer_sizes(vec![8])
        .learning_rate_init(0.01)
        .max_iter(150)
        .seed(2);
    let plain = base.clone().fit(&x).expect("plain");
    let sparse = base
        .clone()
        .kind(AutoencoderKind::Sparse { l1: 0.5 })
        .fit(&x)
        .expect("sparse");
    let l1 = |c: Array2<f64>| c.mapv(f64::abs).sum();
    assert!(l1(sparse.transform(&x).expect("t")) < l1(plain.transform(&x).expect("t")));
    let noise = 0.3;
    let den = base
        .clone()
        .kind(AutoencoderKind::Denoising { noise })
        .fit(&x)
        .expect("denoising");
    let again = base
        .clone()
        .kind(AutoencoderKind::Denoising { noise })
        .fit(&x)
        .expect("denoising");
    assert_eq!(den.network(), again.network());
    let back = den
        .inverse_transform(&den.transform(&x).expect("t"))
        .expect("it");
    let mse = (&back - &x).mapv(|e| e * e).mean().expect("rows");
    let var = x.var(0.0);
    assert!(mse < 0.5 * var, "mse {mse} vs data variance {var}");
}

#[test]
fn invalid_settings_and_inputs_are_typed_errors() {
    assert!(Autoencoder::new(0).validate().is_err());
    assert!(
        Autoencoder::new(2)
            .kind(AutoencoderKind::Sparse { l1: -1.0 })
            .validate()
            .is_err()
    );
    assert!(
        Autoencoder::new(2)
            .kind(AutoencoderKind::Denoising { noise: 0.1 })
            .solver(Solver::Lbfgs)
            .validate()
            .is_err()
    );
    assert!(
        Autoencoder::new(2)
            .activation(Activation::Softmax)
            .validate()
            .is_err()
    );
    let x = gapped_data().slice(s![..20, ..]).to_owned();
    let fit = Autoencoder::new(2).max_iter(5).fit(&x).expect("fit");
    assert!(fit.transform(&Array2::zeros((2, 3))).is_err());
    assert!(fit.inverse_transform(&Array2::zeros((2, 3))).is_err());
    let mut bad = x.clone();
    bad[[0, 0]] = f64::NAN;
    assert!(Autoencoder::new(2).fit(&bad).is_err());
}
