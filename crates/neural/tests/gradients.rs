//! Backpropagation against core's central finite differences (`optim::check_gradient`) for every
//! hidden activation × output activation × loss combination, with and without sample weights
//! and the L2 penalty; and against the explicit gradients of the shallow network
//! `f̂ = aᵀσ(Wᵀx + b)`.
//!
//! Tolerance: core's `check_gradient` returns `‖g − g_fd‖ / max(1, ‖g‖, ‖g_fd‖)`; central
//! differences with the step `ε^{1/3}` have an error of order `ε^{2/3} ≈ 4e-11` times the third
//! derivative scale, so `1e-6` leaves room for the curvature of the tanh / softmax / GELU
//! compositions while catching any wrong term (a missing factor changes the result by O(1)).
//! Points are drawn away from the kinks of ReLU-type units (|z| > 1e-3 checked) so that the
//! finite differences do not straddle a kink.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::optim::{FnObjective, check_gradient};
use ndlearn_core::random;
use ndlearn_neural::{
    Activation, BiasInit, Network, OutputLoss, ShallowNetwork, WeightInit, Workspace,
};
use proptest::prelude::*;

const HIDDEN: [Activation; 9] = [
    Activation::Identity,
    Activation::Logistic,
    Activation::Tanh,
    Activation::Relu,
    Activation::LeakyRelu { alpha: 0.2 },
    Activation::Elu { alpha: 0.7 },
    Activation::Gelu,
    Activation::Softmax,
    Activation::Step,
];

/// (output activation, loss) pairs.
const OUTPUTS: [(Activation, OutputLoss); 7] = [
    (Activation::Identity, OutputLoss::SquaredError),
    (Activation::Tanh, OutputLoss::SquaredError),
    (Activation::Logistic, OutputLoss::SquaredError),
    (Activation::Identity, OutputLoss::Huber { delta: 0.3 }),
    (
        Activation::Elu { alpha: 1.0 },
        OutputLoss::Huber { delta: 1.0 },
    ),
    (Activation::Logistic, OutputLoss::BinaryCrossEntropy),
    (Activation::Softmax, OutputLoss::SoftmaxCrossEntropy),
];

fn targets(loss: OutputLoss, n: usize, k: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::stream(seed, 99);
    match loss {
        OutputLoss::SoftmaxCrossEntropy => {
            let mut y = Array2::zeros((n, k));
            for i in 0..n {
                y[[
                    i,
                    random::sample_with_replacement(&mut rng, k, 1).expect("k > 0")[0],
                ]] = 1.0;
            }
            y
        }
        OutputLoss::BinaryCrossEntropy => Array2::from_shape_simple_fn((n, k), || {
            if random::uniform(&mut rng, 0.0, 1.0) < 0.5 {
                0.0
            } else {
                1.0
            }
        }),
        _ => Array2::from_shape_simple_fn((n, k), || random::standard_normal(&mut rng)),
    }
}

/// Relative gradient error of one configuration, or `None` when a pre-activation lies too
/// close to a kink for finite differences.
#[allow(clippy::too_many_arguments)]
fn gradient_error(
    sizes: &[usize],
    hidden: Activation,
    output: Activation,
    loss: OutputLoss,
    alpha: f64,
    weighted: bool,
    seed: u64,
) -> Option<f64> {
    let n = 7;
    let net = Network::<f64>::new(
        sizes,
        hidden,
        output,
        loss,
        WeightInit::LecunNormal,
        BiasInit::Constant(0.1),
        seed,
    )
    .expect("valid network");
    let mut rng = random::stream(seed, 7);
    let x =
        Array2::from_shape_simple_fn((n, sizes[0]), || random::standard_normal::<f64>(&mut rng));
    let y = targets(loss, n, sizes[sizes.len() - 1], seed);
    let w: Option<Array1<f64>> =
        weighted.then(|| Array1::from_shape_simple_fn(n, || random::uniform(&mut rng, 0.2, 2.0)));
    let mut ws = Workspace::default();
    net.forward(&x, &mut ws);
    let near_kink = (0..net.layers().len()).any(|l| {
        ws.layer_cache(l)
            .expect("cached")
            .0
            .iter()
            .any(|z: &f64| z.abs() < 1e-3)
    });
    if near_kink {
        return None;
    }
    let theta = net.pack();
    let value = |t: &ArrayRef1<f64>| {
        let mut m = net.clone();
        m.unpack(t).expect("length");
        m.loss_value(&x, &y, w.as_deref(), alpha).objective
    };
    let grad = |t: &ArrayRef1<f64>| {
        let mut m = net.clone();
        m.unpack(t).expect("length");
        let mut ws = Workspace::default();
        m.loss_gradient(&x, &y, w.as_deref(), alpha, &mut ws);
        m.pack_gradient(&ws)
    };
    let obj = FnObjective::new(theta.len(), value, grad);
    Some(check_gradient(&obj, &theta).expect("finite"))
}

#[test]
fn every_hidden_output_and_loss_combination() {
    for (h, &hidden) in HIDDEN.iter().enumerate() {
        for (o, &(output, loss)) in OUTPUTS.iter().enumerate() {
            for (alpha, weighted) in [(0.0, false), (0.3, true)] {
                let sizes = [3, 4, 3, 3];
                // A draw with a pre-activation within 1e-3 of a kink is replaced by the next
                // seed (rare: a few percent of the draws).
                let err = (0..20)
                    .find_map(|t| {
                        let seed = (h * 10 + o) as u64 + 1000 * t;
                        gradient_error(&sizes, hidden, output, loss, alpha, weighted, seed)
                    })
                    .expect("a draw away from the kinks");
                assert!(
                    err < 1e-6,
                    "{hidden:?} -> {output:?} / {loss:?} (alpha {alpha}, weighted {weighted}): {err}"
                );
            }
        }
    }
}

/// The values the loss functions take at a point agree with the definitions, and the
/// reported loss of a multi-output regressor is the objective's data term over the outputs.
#[test]
fn loss_values_follow_their_definitions() {
    let x = ndarray::array![[1.0, -1.0], [0.5, 2.0]];
    let y = ndarray::array![[1.0, 0.0], [0.0, 2.0]];
    let net = Network::from_weights(
        vec![ndarray::array![[1.0, 0.0], [0.0, 1.0]]],
        vec![ndarray::array![0.0, 0.0]],
        Activation::Identity,
        Activation::Identity,
        OutputLoss::SquaredError,
    )
    .expect("valid");
    // Residuals: (0, −1), (0.5, 0) → ½(1 + 0.25)/2 = 0.3125 (sum over outputs, mean over rows).
    let v = net.loss_value(&x, &y, None, 0.0);
    assert!((v.objective - 0.3125_f64).abs() < 1e-15);
    assert!((v.reported - 0.15625_f64).abs() < 1e-15);
    // L2: α/(2n)·‖W‖² = 0.5/4·2 = 0.25.
    let v = net.loss_value(&x, &y, None, 0.5);
    assert!((v.objective - 0.5625_f64).abs() < 1e-15);
}

proptest! {
    #![proptest_config(ndlearn_testkit::strategies::config(24))]

    /// Random architectures (1–3 hidden layers of 1–5 units), activations, losses and seeds.
    #[test]
    fn random_architectures(
        widths in proptest::collection::vec(1usize..6, 1..4),
        n_in in 1usize..5,
        n_out in 1usize..4,
        h in 0usize..HIDDEN.len(),
        o in 0usize..OUTPUTS.len(),
        seed in 0u64..1000,
        weighted in any::<bool>(),
    ) {
        let (output, loss) = OUTPUTS[o];
        let n_out = if loss == OutputLoss::SoftmaxCrossEntropy { n_out.max(2) } else { n_out };
        let mut sizes = vec![n_in];
        sizes.extend(widths);
        sizes.push(n_out);
        if let Some(err) = gradient_error(&sizes, HIDDEN[h], output, loss, 0.1, weighted, seed) {
            prop_assert!(err < 1e-6, "{sizes:?} {:?} {output:?} {loss:?}: {err}", HIDDEN[h]);
        }
    }
}

/// The shallow network's explicit gradients equal backprop's on the same weights (the output
/// layer's bias fixed at 0 and left out), for several activations.
#[test]
fn shallow_network_formulas_match_backprop() {
    let (d, n) = (3, 10);
    for (s, act) in [
        Activation::Logistic,
        Activation::Tanh,
        Activation::Relu,
        Activation::Gelu,
    ]
    .into_iter()
    .enumerate()
    {
        let mut rng = random::stream(s as u64, 0);
        let mut normal = || random::standard_normal::<f64>(&mut rng);
        let w = Array2::from_shape_simple_fn((d, n), &mut normal);
        let b = Array1::from_shape_simple_fn(n, &mut normal);
        let a = Array1::from_shape_simple_fn(n, &mut normal);
        let x = Array1::from_shape_simple_fn(d, &mut normal);
        let y = normal();
        let shallow = ShallowNetwork::new(w.clone(), b.clone(), a.clone(), act).expect("valid");
        assert_eq!(shallow.n_params(), (2 + d) * n);
        let g = shallow.gradient(&x, y);
        let net = Network::from_weights(
            vec![w, a.clone().insert_axis(ndarray::Axis(1))],
            vec![b, Array1::zeros(1)],
            act,
            Activation::Identity,
            OutputLoss::SquaredError,
        )
        .expect("valid");
        let xm = x.clone().insert_axis(ndarray::Axis(0));
        let ym = ndarray::array![[y]];
        let mut ws = Workspace::default();
        let v = net.loss_gradient(&xm, &ym, None, 0.0, &mut ws);
        let f = shallow.predict_one(&x);
        assert!((v.objective - 0.5 * (f - y) * (f - y)).abs() < 1e-12 * (1.0 + v.objective));
        let close = |p: &Array1<f64>, q: ndarray::ArrayView1<'_, f64>| {
            p.iter()
                .zip(q)
                .all(|(u, v)| (u - v).abs() <= 1e-12 * (1.0 + u.abs()))
        };
        assert!(close(&g.b, ws.grad_b[0].view()), "{act:?} b");
        assert!(close(&g.a, ws.grad_w[1].column(0)), "{act:?} a");
        for i in 0..d {
            assert!(
                close(&g.w.row(i).to_owned(), ws.grad_w[0].row(i)),
                "{act:?} W row {i}"
            );
        }
    }
}

/// With the dropout masks held fixed (the same stream for every evaluation), the objective is
/// a deterministic function of the weights and backprop's gradient must match finite
/// differences; and inverted dropout keeps the expected hidden output (E28): averaged over
/// many masks, the loss gradient of a linear network approaches the one without dropout.
#[test]
fn dropout_gradients_and_expectation() {
    let sizes = [3, 5, 4, 2];
    let net = Network::<f64>::new(
        &sizes,
        Activation::Tanh,
        Activation::Identity,
        OutputLoss::SquaredError,
        WeightInit::LecunNormal,
        BiasInit::Constant(0.1),
        3,
    )
    .expect("valid");
    let mut rng = random::stream(3, 7);
    let x = Array2::from_shape_simple_fn((6, 3), || random::standard_normal::<f64>(&mut rng));
    let y = Array2::from_shape_simple_fn((6, 2), || random::standard_normal::<f64>(&mut rng));
    let rate = 0.4;
    let eval = |t: &ArrayRef1<f64>| {
        let mut m = net.clone();
        m.unpack(t).expect("length");
        let mut ws = Workspace::default();
        let mut r = random::stream(11, 0);
        let v = m
            .loss_gradient_dropout(&x, &y, None, 0.1, (rate, &mut r), &mut ws)
            .expect("valid rate");
        (v.objective, m.pack_gradient(&ws))
    };
    let obj = FnObjective::new(
        net.n_params(),
        |t: &ArrayRef1<f64>| eval(t).0,
        |t: &ArrayRef1<f64>| eval(t).1,
    );
    let err = check_gradient(&obj, &net.pack()).expect("finite");
    assert!(err < 1e-6, "{err}");
    let mut ws = Workspace::default();
    assert!(
        net.loss_gradient_dropout(&x, &y, None, 0.0, (1.0, &mut random::stream(0, 0)), &mut ws)
            .is_err()
    );

    // Expectation: the mean of the dropped hidden outputs over many masks is the undropped
    // output (each entry's mean of m/keep is 1; standard error √(rate/keep/N)).
    let mut ws = Workspace::default();
    net.forward(&x, &mut ws);
    let (_, a0) = ws.layer_cache(0).expect("cached");
    let a0 = a0.clone();
    let mut r = random::stream(5, 0);
    let trials = 4000;
    let mut mean_out = Array2::<f64>::zeros((6, 2));
    for _ in 0..trials {
        net.loss_gradient_dropout(&x, &y, None, 0.0, (rate, &mut r), &mut ws)
            .expect("valid");
        let (_, a) = ws.layer_cache(0).expect("cached");
        // The cached A_0 is the undropped output, whatever the mask.
        assert_eq!(a, &a0);
        mean_out += ws.output().expect("output");
    }
    mean_out /= trials as f64;
    // A network without dropout: the mean output is close to the deterministic output, up to
    // the curvature of the later tanh layer (a second-order effect of the mask variance).
    let det = net.predict(&x);
    let diff = (&mean_out - &det)
        .mapv(f64::abs)
        .fold(0.0_f64, |m, &v| m.max(v));
    assert!(
        diff < 0.25,
        "mean output under dropout far from the deterministic output: {diff}"
    );
}

/// The gradient with respect to the inputs (used by FGSM) against finite differences, and the
/// FGSM step raises the loss by about `ε‖∂J/∂X‖₁` for small `ε` (first order).
#[test]
fn input_gradient_and_fgsm() {
    let net = Network::<f64>::new(
        &[4, 6, 3],
        Activation::Tanh,
        Activation::Softmax,
        OutputLoss::SoftmaxCrossEntropy,
        WeightInit::LecunNormal,
        BiasInit::Constant(0.0),
        8,
    )
    .expect("valid");
    let mut rng = random::stream(8, 1);
    let x = Array2::from_shape_simple_fn((5, 4), || random::standard_normal::<f64>(&mut rng));
    let y = targets(OutputLoss::SoftmaxCrossEntropy, 5, 3, 8);
    let mut ws = Workspace::default();
    let g = net.input_gradient(&x, &y, None, &mut ws);
    let flat = Array1::from_iter(x.iter().copied());
    let to_x = |t: &ArrayRef1<f64>| Array2::from_shape_vec((5, 4), t.to_vec()).expect("shape");
    let obj = FnObjective::new(
        flat.len(),
        |t: &ArrayRef1<f64>| net.loss_value(&to_x(t), &y, None, 0.0).objective,
        |t: &ArrayRef1<f64>| {
            let mut ws = Workspace::default();
            Array1::from_iter(
                net.input_gradient(&to_x(t), &y, None, &mut ws)
                    .iter()
                    .copied(),
            )
        },
    );
    assert!(check_gradient(&obj, &flat).expect("finite") < 1e-6);
    let before = net.loss_value(&x, &y, None, 0.0).objective;
    let eps = 1e-4;
    let adv = net.fgsm(&x, &y, eps).expect("valid");
    let after = net.loss_value(&adv, &y, None, 0.0).objective;
    let first_order = eps * g.mapv(f64::abs).sum();
    assert!(after > before);
    assert!(
        ((after - before) - first_order).abs() < 1e-2 * first_order,
        "{} vs {first_order}",
        after - before
    );
    assert!((&adv - &x).iter().all(|d| d.abs() <= eps * (1.0 + 1e-12)));
    assert!(net.fgsm(&x, &y, -1.0).is_err());
    assert!(
        net.fgsm(&x.slice(ndarray::s![.., ..2]).to_owned(), &y, 0.1)
            .is_err()
    );
}

/// Batch normalisation: backprop through the batch statistics (γ, β and everything below)
/// against finite differences of the training-mode objective; prediction uses the running
/// statistics, which after `set_running_stats` make the normalised pre-activations of the
/// training data have mean 0 and (unbiased) variance 1 for γ = 1, β = 0.
#[test]
fn batch_norm_gradients_and_running_statistics() {
    for (hidden, output, loss) in [
        (
            Activation::Tanh,
            Activation::Identity,
            OutputLoss::SquaredError,
        ),
        (
            Activation::Elu { alpha: 1.0 },
            Activation::Softmax,
            OutputLoss::SoftmaxCrossEntropy,
        ),
    ] {
        let mut net = Network::<f64>::new(
            &[3, 5, 4, 3],
            hidden,
            output,
            loss,
            WeightInit::LecunNormal,
            BiasInit::Constant(0.1),
            4,
        )
        .expect("valid")
        .with_batch_norm();
        // Non-trivial γ, β.
        let mut theta = net.pack();
        let n = theta.len();
        for (i, v) in theta.iter_mut().enumerate().skip(n - 18) {
            *v = 0.5 + 0.1 * i as f64 - 0.05 * (n - i) as f64;
        }
        net.unpack(&theta).expect("length");
        let mut rng = random::stream(4, 2);
        let x = Array2::from_shape_simple_fn((8, 3), || random::standard_normal::<f64>(&mut rng));
        let y = targets(loss, 8, 3, 4);
        let w = Array1::from_shape_simple_fn(8, || random::uniform(&mut rng, 0.5, 1.5));
        let eval = |t: &ArrayRef1<f64>| {
            let mut m = net.clone();
            m.unpack(t).expect("length");
            let mut ws = Workspace::default();
            let v = m.loss_gradient(&x, &y, Some(&w), 0.2, &mut ws);
            (v.objective, m.pack_gradient(&ws))
        };
        let obj = FnObjective::new(
            n,
            |t: &ArrayRef1<f64>| eval(t).0,
            |t: &ArrayRef1<f64>| eval(t).1,
        );
        let err = check_gradient(&obj, &theta).expect("finite");
        assert!(err < 1e-6, "{hidden:?}: {err}");
    }
    let mut net = Network::<f64>::new(
        &[2, 4, 1],
        Activation::Relu,
        Activation::Identity,
        OutputLoss::SquaredError,
        WeightInit::LecunNormal,
        BiasInit::Constant(0.0),
        1,
    )
    .expect("valid")
    .with_batch_norm();
    let mut rng = random::stream(9, 0);
    let x = Array2::from_shape_simple_fn((50, 2), || {
        3.0 + 2.0 * random::standard_normal::<f64>(&mut rng)
    });
    net.set_running_stats(&x);
    let layer = &net.layers()[0];
    let z = x.dot(&layer.weights) + &layer.bias;
    let bn = layer.batch_norm.as_ref().expect("normalised");
    let zn = (&z - &bn.running_mean) / &bn.running_var.mapv(|v| (v + bn.eps).sqrt());
    let mean = zn.mean_axis(ndarray::Axis(0)).expect("rows");
    let var = zn.var_axis(ndarray::Axis(0), 1.0);
    assert!(mean.iter().all(|m| m.abs() < 1e-12), "{mean}");
    assert!(var.iter().all(|v| (v - 1.0).abs() < 1e-4), "{var}");
}
