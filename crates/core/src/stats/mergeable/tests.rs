//! Merge laws (identity exact; associativity, commutativity and partition invariance within
//! rounding; byte round trip exact) for every statistics type, plus each type against a direct
//! computation and its errors.

use super::*;
use crate::loss::Loss;
use ndarray::{Array1, Array2, ArrayView2, Axis, array, s};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Compares two statistics slot by slot in their byte form: counts and shapes exactly, floats
/// within `tol` relative to the largest float of either.
fn close<F: Float, S: Mergeable<F>>(a: &S, b: &S, tol: f64) -> std::result::Result<(), String> {
    let (ea, eb) = (a.encode(), b.encode());
    if ea.len() != eb.len() || ea[..6] != eb[..6] {
        return Err(format!(
            "layouts differ ({} vs {} bytes)",
            ea.len(),
            eb.len()
        ));
    }
    let slots = |e: &[u8]| -> Vec<u64> {
        e[6..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect()
    };
    let (sa, sb) = (slots(&ea), slots(&eb));
    // an integer slot (count, length, flag) is a small u64; a float's bits are large unless it
    // is +0.0
    let small = |v: u64| v < 1 << 32;
    let scale = sa
        .iter()
        .chain(&sb)
        .filter(|&&v| !small(v))
        .map(|&v| f64::from_bits(v).abs())
        .fold(1.0, f64::max);
    for (i, (&u, &v)) in sa.iter().zip(&sb).enumerate() {
        if u == v {
            continue;
        }
        if small(u) && small(v) {
            return Err(format!("slot {i}: integer {u} vs {v}"));
        }
        let (x, y) = (f64::from_bits(u), f64::from_bits(v));
        if (x - y).abs() > tol * scale {
            return Err(format!("slot {i}: {x} vs {y} (scale {scale})"));
        }
    }
    Ok(())
}

/// Checks the laws on the statistics of three row blocks and of their union.
fn laws<F: Float, S: Mergeable<F> + PartialEq + std::fmt::Debug>(
    spec: &S::Spec,
    blocks: &[RowBlock<'_, F>; 3],
    all: &RowBlock<'_, F>,
    tol: f64,
) -> std::result::Result<(), String> {
    let err = |e: crate::Error| e.to_string();
    let p: Vec<S> = blocks
        .iter()
        .map(|b| S::of(spec, b))
        .collect::<Result<_>>()
        .map_err(err)?;
    let zero = S::zero(spec);
    for q in &p {
        // identity, exactly
        let mut l = zero.clone();
        l.merge(q).map_err(err)?;
        let mut r = q.clone();
        r.merge(&zero).map_err(err)?;
        if &l != q || &r != q {
            return Err("zero is not an identity".into());
        }
        // byte round trip, exactly
        if &S::decode(&q.encode()).map_err(err)? != q {
            return Err("decode(encode(s)) != s".into());
        }
    }
    let ab_c = {
        let mut ab = p[0].clone();
        ab.merge(&p[1]).map_err(err)?;
        ab.merge(&p[2]).map_err(err)?;
        ab
    };
    let a_bc = {
        let mut bc = p[1].clone();
        bc.merge(&p[2]).map_err(err)?;
        let mut a = p[0].clone();
        a.merge(&bc).map_err(err)?;
        a
    };
    let cba = S::merge_all(spec, [&p[2], &p[1], &p[0]]).map_err(err)?;
    let whole = S::of(spec, all).map_err(err)?;
    close(&ab_c, &a_bc, tol).map_err(|e| format!("associativity: {e}"))?;
    close(&ab_c, &cba, tol).map_err(|e| format!("commutativity: {e}"))?;
    close(&ab_c, &whole, tol).map_err(|e| format!("partition: {e}"))?;
    if ab_c.n_rows() != all.nrows() as u64 {
        return Err("row count".into());
    }
    Ok(())
}

/// A data set of `n` rows (`d` features, targets, labels in `0..3`, weights) around `offset`,
/// and two cut points splitting it into three blocks (possibly empty).
fn data() -> impl Strategy<
    Value = (
        Array2<f64>,
        Array2<f64>,
        Array1<usize>,
        Array1<f64>,
        usize,
        usize,
    ),
> {
    (
        2usize..40,
        1usize..5,
        prop_oneof![Just(0.0), Just(1e3), Just(-7.5)],
    )
        .prop_flat_map(|(n, d, offset)| {
            (
                prop::collection::vec(-3.0f64..3.0, n * d),
                prop::collection::vec(-2.0f64..2.0, n * 2),
                prop::collection::vec(0usize..3, n),
                prop::collection::vec(0.1f64..3.0, n),
                0..=n,
                0..=n,
            )
                .prop_map(move |(xv, yv, lab, w, c1, c2)| {
                    let x = Array2::from_shape_vec((n, d), xv)
                        .unwrap_or_else(|_| Array2::zeros((n, d)))
                        + offset;
                    let y = Array2::from_shape_vec((n, 2), yv)
                        .unwrap_or_else(|_| Array2::zeros((n, 2)));
                    let (lo, hi) = (c1.min(c2), c1.max(c2));
                    (x, y, Array1::from(lab), Array1::from(w), lo, hi)
                })
        })
}

/// The three blocks `..lo`, `lo..hi`, `hi..` and the whole, with what `with` attaches.
fn split<'a>(
    x: &'a Array2<f64>,
    lo: usize,
    hi: usize,
    with: impl Fn(RowBlock<'a, f64>, std::ops::Range<usize>) -> RowBlock<'a, f64>,
) -> ([RowBlock<'a, f64>; 3], RowBlock<'a, f64>) {
    let n = x.nrows();
    let b = |r: std::ops::Range<usize>| with(RowBlock::new(x.slice(s![r.clone(), ..])), r);
    ([b(0..lo), b(lo..hi), b(hi..n)], b(0..n))
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn cross_moments_obey_the_laws((x, y, _, _, lo, hi) in data(), centred in any::<bool>(), t in 0usize..3) {
        let d = x.ncols();
        let spec = CrossSpec { n_features: d, n_targets: t, centred, gram: true };
        let (blocks, all) = split(&x, lo, hi, |b, r| {
            if t == 0 { b } else { b.targets(y.slice(s![r, ..t])) }
        });
        prop_assert_eq!(laws::<f64, CrossMoments<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }

    #[test]
    fn class_moments_obey_the_laws((x, _, lab, w, lo, hi) in data(), weighted in any::<bool>()) {
        let spec = ClassSpec { n_classes: 3, n_features: x.ncols() };
        let (blocks, all) = split(&x, lo, hi, |b, r| {
            let b = b.labels(lab.slice(s![r.clone()]));
            if weighted { b.weights(w.slice(s![r])) } else { b }
        });
        prop_assert_eq!(laws::<f64, ClassMoments<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }

    #[test]
    fn kmeans_stats_obey_the_laws((x, _, _, _, lo, hi) in data(), k in 1usize..5) {
        // centres: the first rows (repeated when there are fewer rows than centres)
        let centers = Array2::from_shape_fn((k, x.ncols()), |(c, j)| x[[c % x.nrows(), j]] + 0.25 * c as f64);
        let spec = KMeansSpec { centers };
        let (blocks, all) = split(&x, lo, hi, |b, _| b);
        prop_assert_eq!(laws::<f64, KMeansStats<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }

    #[test]
    fn kmeans_samples_obey_the_laws((x, _, _, _, lo, hi) in data(), m in 0usize..4, seed in 0u64..1000) {
        // m = 0: the first pick; otherwise a sampling round at m centres with a large ℓ so
        // rows are kept
        let d = x.ncols();
        let centers = Array2::from_shape_fn((m, d), |(c, j)| x[[c % x.nrows(), j]] + 0.5);
        let ids: Array1<usize> = (0..x.nrows()).map(|i| 3 * i + 7).collect();
        let cost = if m == 0 {
            0.0
        } else {
            KMeansStats::of(&KMeansSpec { centers: centers.clone() }, &RowBlock::new(x.view()))
                .map(|s| s.inertia)
                .unwrap_or(1.0)
        };
        let spec = SampleSpec { centers, cost, oversampling: x.nrows() as f64 / 3.0, seed, round: 1 };
        let (blocks, all) = split(&x, lo, hi, |b, r| b.labels(ids.slice(s![r])));
        prop_assert_eq!(laws::<f64, KMeansSample<f64>>(&spec, &blocks, &all, 0.0), Ok(()));
    }

    #[test]
    fn glm_stats_obey_the_laws((x, y, lab, w, lo, hi) in data(), weighted in any::<bool>()) {
        let d = x.ncols();
        // binary targets for the log-loss; the data centred so the scores stay moderate
        let yb = lab.mapv(|l| if l == 1 { 1.0 } else { 0.0 }).insert_axis(Axis(1));
        let xc = &x - &x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
        let coef = Array1::from_shape_fn(d, |j| 0.3 - 0.2 * j as f64 + y[[0, 0]] * 0.01);
        let spec = GlmSpec { loss: Loss::LogLoss, coef, intercept: -0.4, hessian: true };
        let (blocks, all) = split(&xc, lo, hi, |b, r| {
            let b = b.targets(yb.slice(s![r.clone(), ..]));
            if weighted { b.weights(w.slice(s![r])) } else { b }
        });
        prop_assert_eq!(laws::<f64, GlmStats<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }

    #[test]
    fn class_scatter_obeys_the_laws((x, _, lab, w, lo, hi) in data(), weighted in any::<bool>()) {
        let spec = ClassSpec { n_classes: 3, n_features: x.ncols() };
        let (blocks, all) = split(&x, lo, hi, |b, r| {
            let b = b.labels(lab.slice(s![r.clone()]));
            if weighted { b.weights(w.slice(s![r])) } else { b }
        });
        prop_assert_eq!(laws::<f64, ClassScatter<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }

    #[test]
    fn softmax_stats_obey_the_laws((x, _, lab, w, lo, hi) in data(), weighted in any::<bool>()) {
        let d = x.ncols();
        let xc = &x - &x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
        let coef = Array2::from_shape_fn((3, d), |(c, j)| 0.2 * c as f64 - 0.1 * j as f64);
        let spec = SoftmaxSpec { coef, intercept: array![0.3, -0.2, 0.0], hessian: true };
        let (blocks, all) = split(&xc, lo, hi, |b, r| {
            let b = b.labels(lab.slice(s![r.clone()]));
            if weighted { b.weights(w.slice(s![r])) } else { b }
        });
        prop_assert_eq!(laws::<f64, SoftmaxStats<f64>>(&spec, &blocks, &all, 1e-12), Ok(()));
    }
}

#[test]
fn cross_moments_match_a_direct_computation() {
    let x: Array2<f64> = array![
        [1.0, 10.0],
        [2.0, 11.0],
        [4.0, 9.0],
        [7.0, 13.0],
        [0.5, 12.0]
    ];
    let y = array![[1.0], [3.0], [2.0], [6.0], [0.0]];
    let spec = CrossSpec {
        n_features: 2,
        n_targets: 1,
        centred: true,
        gram: true,
    };
    let mut m = CrossMoments::of(
        &spec,
        &RowBlock::new(x.slice(s![..2, ..])).targets(y.slice(s![..2, ..])),
    )
    .expect("block");
    m.update(&RowBlock::new(x.slice(s![2.., ..])).targets(y.slice(s![2.., ..])))
        .expect("block");
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let xc = &x - &mean;
    let yc = &y - y.mean_axis(Axis(0)).expect("rows");
    assert_eq!(m.n, 5);
    assert!((&m.x_mean - &mean).iter().all(|v| v.abs() < 1e-14));
    let close = |a: &Array2<f64>, b: &Array2<f64>| (a - b).iter().all(|v| v.abs() < 1e-12);
    assert!(close(&m.xty, &xc.t().dot(&yc)));
    assert!(close(m.xtx.as_ref().expect("gram"), &xc.t().dot(&xc)));
    assert!((m.yty[0] - yc.column(0).dot(&yc.column(0))).abs() < 1e-12);
    let cov = m.covariance(1).expect("gram and rows");
    assert!(close(
        &cov,
        &crate::stats::covariance(&x.view(), 1).expect("cov")
    ));
    // uncentred: raw products
    let raw = CrossMoments::of(
        &CrossSpec {
            centred: false,
            ..spec
        },
        &RowBlock::new(x.view()).targets(y.view()),
    )
    .expect("block");
    assert!(close(raw.xtx.as_ref().expect("gram"), &x.t().dot(&x)));
    assert_eq!(raw.x_mean, array![0.0, 0.0]);
}

#[test]
fn class_moments_match_a_direct_computation() {
    let x: Array2<f64> = array![
        [1.0, 2.0],
        [3.0, 2.5],
        [10.0, -1.0],
        [12.0, 0.0],
        [11.0, 4.0]
    ];
    let labels = ndarray::arr1(&[0usize, 0, 1, 1, 1]);
    let w = array![1.0, 3.0, 1.0, 1.0, 2.0];
    let spec = ClassSpec {
        n_classes: 3,
        n_features: 2,
    };
    let m = ClassMoments::of(
        &spec,
        &RowBlock::new(x.view())
            .labels(labels.view())
            .weights(w.view()),
    )
    .expect("block");
    assert_eq!(m.count, array![4.0, 4.0, 0.0]);
    // class 0: weighted mean (1·1 + 3·3)/4 = 2.5, m2 = 1·1.5² + 3·0.5² = 3
    assert!((m.mean[[0, 0]] - 2.5).abs() < 1e-15);
    assert!((m.m2[[0, 0]] - 3.0).abs() < 1e-14);
    assert!((m.var()[[0, 0]] - 0.75).abs() < 1e-15);
    // class 1, feature 1: mean (−1 + 0 + 8)/4 = 1.75
    assert!((m.mean[[1, 1]] - 1.75).abs() < 1e-15);
    assert_eq!(m.var().row(2).to_vec(), vec![0.0, 0.0]);
    // overall biased variance of feature 0 (unweighted): mean 7.4
    let v0 = x.column(0).mapv(|v| (v - 7.4) * (v - 7.4)).sum() / 5.0;
    let v1 = x.column(1).var(0.0);
    assert!((m.max_overall_var() - v0.max(v1)).abs() < 1e-12);
}

#[test]
fn kmeans_stats_take_one_lloyd_round() {
    let x: Array2<f64> = array![
        [0.0, 0.0],
        [0.0, 1.0],
        [10.0, 10.0],
        [11.0, 10.0],
        [0.4, 0.0]
    ];
    let centers = array![[0.0, 0.5], [10.0, 10.0], [50.0, 50.0]];
    let mut st = KMeansStats::zero(&KMeansSpec {
        centers: centers.clone(),
    });
    st.update(&RowBlock::new(x.slice(s![..3, ..])))
        .expect("block");
    st.update(&RowBlock::new(x.slice(s![3.., ..])))
        .expect("block");
    assert_eq!(st.counts, vec![3, 2, 0]);
    let c = st.centers();
    assert!((c[[0, 0]] - 0.4 / 3.0).abs() < 1e-15);
    assert!((c[[0, 1]] - 1.0 / 3.0).abs() < 1e-15);
    assert_eq!(c.row(1).to_vec(), vec![10.5, 10.0]);
    // the empty cluster keeps its centre
    assert_eq!(c.row(2).to_vec(), vec![50.0, 50.0]);
    // inertia: 0.25 + 0.25 + 0 + 1 + (0.16 + 0.25)
    assert!((st.inertia - 1.91).abs() < 1e-12);
    // statistics at other centres do not merge
    let other = KMeansStats::zero(&KMeansSpec {
        centers: centers + 1.0,
    });
    assert!(matches!(
        st.merge(&other),
        Err(crate::Error::ShapeMismatch { .. })
    ));
}

#[test]
fn kmeans_samples_draw_by_cost_and_row_id() {
    // 20,000 rows on a line; one centre at 0: D²(x) = x², φ = Σ x²
    let n = 20_000;
    let x = Array2::from_shape_fn((n, 1), |(i, _)| (i % 100) as f64);
    let ids: Array1<usize> = (0..n).collect();
    let centers = array![[0.0]];
    let cost: f64 = x.iter().map(|v| v * v).sum();
    let spec = SampleSpec {
        centers,
        cost,
        oversampling: 200.0,
        seed: 42,
        round: 3,
    };
    let s = KMeansSample::of(&spec, &RowBlock::new(x.view()).labels(ids.view())).expect("sample");
    // each row with probability ℓ x² / φ: about 200 kept (4 standard deviations ≈ 57)
    assert!((s.ids.len() as f64 - 200.0).abs() < 57.0, "{}", s.ids.len());
    // rows at a centre are never drawn; the kept rows are exactly those the rule keeps
    for (r, &id) in s.ids.iter().enumerate() {
        let v = x[[id as usize, 0]];
        assert_eq!(s.rows[[r, 0]], v);
        assert!(v > 0.0);
        assert!(keyed_uniform(42, 3, id) < 200.0 * v * v / cost);
    }
    let expected = (0..n)
        .filter(|&i| keyed_uniform(42, 3, i as u64) < 200.0 * x[[i, 0]].powi(2) / cost)
        .count();
    assert_eq!(s.ids.len(), expected);
    // blocks in any order give the same sample, bitwise
    let mut parts = KMeansSample::zero(&spec);
    for r in [12_000..n, 0..5_000, 5_000..12_000] {
        let p = KMeansSample::of(
            &spec,
            &RowBlock::new(x.slice(s![r.clone(), ..])).labels(ids.slice(s![r])),
        )
        .expect("part");
        parts.merge(&p).expect("merge");
    }
    assert_eq!(parts, s);
    // the first pick: the row of the least draw
    let first = SampleSpec {
        centers: Array2::zeros((0, 1)),
        ..spec.clone()
    };
    let one = KMeansSample::of(&first, &RowBlock::new(x.view()).labels(ids.view())).expect("pick");
    let least = (0..n as u64)
        .min_by(|&a, &b| keyed_uniform(42, 3, a).total_cmp(&keyed_uniform(42, 3, b)))
        .expect("rows");
    assert_eq!(one.ids, vec![least]);
    // draws are uniform-looking: the mean of 20,000 draws is near 1/2
    let mean = (0..n as u64).map(|i| keyed_uniform(1, 0, i)).sum::<f64>() / n as f64;
    assert!((mean - 0.5).abs() < 0.01, "{mean}");
    // no ids, a bad cost, other specs: typed errors
    assert!(matches!(
        KMeansSample::of(&spec, &RowBlock::new(x.view())),
        Err(crate::Error::InvalidParam { .. })
    ));
    let bad = SampleSpec {
        cost: f64::NAN,
        ..spec.clone()
    };
    assert!(KMeansSample::of(&bad, &RowBlock::new(x.view()).labels(ids.view())).is_err());
    let mut other = KMeansSample::zero(&SampleSpec {
        round: 4,
        ..spec.clone()
    });
    assert!(matches!(
        other.merge(&s),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let bytes = s.encode();
    assert_eq!(KMeansSample::<f64>::decode(&bytes).expect("round trip"), s);
    assert!(KMeansSample::<f64>::decode(&bytes[..bytes.len() - 3]).is_err());
}

/// `value(w)` of the GLM statistics over all of `x`.
fn glm_at(
    x: &ArrayView2<'_, f64>,
    y: &Array2<f64>,
    loss: Loss,
    coef: Array1<f64>,
    b: f64,
) -> GlmStats<f64> {
    let spec = GlmSpec {
        loss,
        coef,
        intercept: b,
        hessian: true,
    };
    GlmStats::of(&spec, &RowBlock::new(*x).targets(y.view())).expect("block")
}

#[test]
fn glm_gradient_and_hessian_match_finite_differences() {
    let x: Array2<f64> = array![
        [0.5, -1.0],
        [1.5, 0.3],
        [-0.7, 2.0],
        [0.1, 0.1],
        [2.0, -0.5]
    ];
    let xv = x.view();
    let cases = [
        (Loss::LogLoss, array![[0.0], [1.0], [1.0], [0.0], [1.0]]),
        (Loss::Poisson, array![[0.0], [2.0], [1.0], [3.0], [1.0]]),
        (
            Loss::SquaredError,
            array![[0.3], [-1.0], [2.0], [0.0], [1.5]],
        ),
    ];
    let (w0, b0) = (array![0.2, -0.3], 0.1);
    let h = 1e-6;
    for (loss, y) in cases {
        let st = glm_at(&xv, &y, loss, w0.clone(), b0);
        let hess = st.hessian.clone().expect("hessian");
        let grad = |w: Array1<f64>, b: f64| {
            let s = glm_at(&xv, &y, loss, w, b);
            let mut g = s.grad_coef.to_vec();
            g.push(s.grad_intercept);
            (s.value, g)
        };
        let (_, g0) = grad(w0.clone(), b0);
        for k in 0..3 {
            let shift = |sgn: f64| {
                let mut w = w0.clone();
                let mut b = b0;
                if k < 2 {
                    w[k] += sgn * h;
                } else {
                    b += sgn * h;
                }
                grad(w, b)
            };
            let ((vp, gp), (vm, gm)) = (shift(1.0), shift(-1.0));
            let fd = (vp - vm) / (2.0 * h);
            assert!(
                (fd - g0[k]).abs() < 1e-6,
                "{loss:?} gradient {k}: {fd} vs {}",
                g0[k]
            );
            for j in 0..3 {
                let fdh = (gp[j] - gm[j]) / (2.0 * h);
                assert!(
                    (fdh - hess[[j, k]]).abs() < 1e-5,
                    "{loss:?} hessian {j},{k}"
                );
            }
        }
    }
}

#[test]
fn bad_blocks_and_bytes_are_typed_errors() {
    let x: Array2<f64> = array![[1.0, 2.0], [3.0, 4.0]];
    let y = array![[1.0], [0.0]];
    let spec = CrossSpec {
        n_features: 3,
        n_targets: 1,
        centred: true,
        gram: false,
    };
    let mut m = CrossMoments::zero(&spec);
    assert!(matches!(
        m.update(&RowBlock::new(x.view()).targets(y.view())),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let spec = CrossSpec {
        n_features: 2,
        ..spec
    };
    let mut m = CrossMoments::zero(&spec);
    assert!(matches!(
        m.update(&RowBlock::new(x.view())),
        Err(crate::Error::InvalidParam { .. })
    ));
    let bad = array![[1.0, f64::NAN], [3.0, 4.0]];
    assert!(matches!(
        m.update(&RowBlock::new(bad.view()).targets(y.view())),
        Err(crate::Error::NonFinite { row: 0, col: 1, .. })
    ));
    let other = CrossMoments::<f64>::zero(&CrossSpec { gram: true, ..spec });
    assert!(matches!(
        m.merge(&other),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let mut c = ClassMoments::zero(&ClassSpec {
        n_classes: 2,
        n_features: 2,
    });
    let labels = ndarray::arr1(&[0usize, 2]);
    assert!(matches!(
        c.update(&RowBlock::new(x.view()).labels(labels.view())),
        Err(crate::Error::InvalidLabel {
            label: 2,
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        c.update(&RowBlock::new(x.view())),
        Err(crate::Error::InvalidParam { .. })
    ));
    let neg = array![1.0, -1.0];
    let ok_labels = ndarray::arr1(&[0usize, 1]);
    assert!(
        c.update(
            &RowBlock::new(x.view())
                .labels(ok_labels.view())
                .weights(neg.view())
        )
        .is_err()
    );
    // bytes: another type, truncated, trailing, garbage
    m.update(&RowBlock::new(x.view()).targets(y.view()))
        .expect("block");
    let bytes = m.encode();
    assert!(matches!(
        ClassMoments::<f64>::decode(&bytes),
        Err(crate::Error::Parse { .. })
    ));
    assert!(matches!(
        CrossMoments::<f64>::decode(&bytes[..bytes.len() - 3]),
        Err(crate::Error::Parse { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        CrossMoments::<f64>::decode(&longer),
        Err(crate::Error::Parse { .. })
    ));
    assert!(matches!(
        CrossMoments::<f64>::decode(b"hello"),
        Err(crate::Error::Parse { .. })
    ));
    let mut huge = bytes.clone();
    huge[22..30].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(CrossMoments::<f64>::decode(&huge).is_err());
    // f32 statistics decode from their bytes exactly
    let x32 = x.mapv(|v| v as f32);
    let y32 = y.mapv(|v| v as f32);
    let m32 = CrossMoments::of(
        &CrossSpec { gram: true, ..spec },
        &RowBlock::new(x32.view()).targets(y32.view()),
    )
    .expect("block");
    assert_eq!(
        CrossMoments::<f32>::decode(&m32.encode()).expect("bytes"),
        m32
    );
}

/// The softmax statistics over all of `x` at `(W, b)`, weighted.
fn softmax_at(
    x: &Array2<f64>,
    y: &Array1<usize>,
    w: &Array1<f64>,
    coef: Array2<f64>,
    intercept: Array1<f64>,
) -> SoftmaxStats<f64> {
    let spec = SoftmaxSpec {
        coef,
        intercept,
        hessian: true,
    };
    SoftmaxStats::of(
        &spec,
        &RowBlock::new(x.view()).labels(y.view()).weights(w.view()),
    )
    .expect("block")
}

#[test]
fn softmax_stats_match_a_direct_computation_and_finite_differences() {
    let x: Array2<f64> = array![
        [0.5, -1.0],
        [1.5, 0.3],
        [-0.7, 2.0],
        [0.1, 0.1],
        [2.0, -0.5],
        [-1.2, -0.4]
    ];
    let y = ndarray::arr1(&[0usize, 2, 1, 1, 0, 2]);
    let w = array![1.0, 0.5, 2.0, 0.0, 1.5, 1.0];
    let (w0, b0) = (
        array![[0.2, -0.3], [0.0, 0.4], [-0.5, 0.1]],
        array![0.1, -0.2, 0.05],
    );
    let st = softmax_at(&x, &y, &w, w0.clone(), b0.clone());
    // the value by its definition, row by row
    let mut direct = 0.0;
    for i in 0..x.nrows() {
        let z: Vec<f64> = (0..3).map(|c| w0.row(c).dot(&x.row(i)) + b0[c]).collect();
        let lse = z.iter().map(|v| v.exp()).sum::<f64>().ln();
        direct += w[i] * (lse - z[y[i]]);
    }
    assert!(
        (st.value - direct).abs() < 1e-13,
        "{} vs {direct}",
        st.value
    );
    assert_eq!(st.weight_sum, 6.0);
    assert_eq!(st.n, 6);
    // gradient and Hessian against central differences over the packed [w_k, b_k] blocks
    let hess = st.hessian.clone().expect("hessian");
    let packed = |s: &SoftmaxStats<f64>| -> Vec<f64> {
        let mut g = Vec::new();
        for c in 0..3 {
            g.extend(s.grad_coef.row(c).iter());
            g.push(s.grad_intercept[c]);
        }
        g
    };
    let g0 = packed(&st);
    let h = 1e-6;
    for t in 0..9 {
        let at = |sgn: f64| {
            let (mut wc, mut bc) = (w0.clone(), b0.clone());
            let (c, j) = (t / 3, t % 3);
            if j < 2 {
                wc[[c, j]] += sgn * h;
            } else {
                bc[c] += sgn * h;
            }
            softmax_at(&x, &y, &w, wc, bc)
        };
        let (p, m) = (at(1.0), at(-1.0));
        let fd = (p.value - m.value) / (2.0 * h);
        assert!((fd - g0[t]).abs() < 1e-7, "gradient {t}: {fd} vs {}", g0[t]);
        let (gp, gm) = (packed(&p), packed(&m));
        for r in 0..9 {
            let fdh = (gp[r] - gm[r]) / (2.0 * h);
            assert!((fdh - hess[[r, t]]).abs() < 1e-6, "hessian {r},{t}");
        }
    }
    assert!((&hess - &hess.t()).iter().all(|v| v.abs() < 1e-14));
    // two classes: the binary log-loss of the score difference (W = [0; w], b = [0; b])
    let yb = y.mapv(|c| usize::from(c == 2));
    let two = softmax_at(
        &x,
        &yb,
        &w,
        array![[0.0, 0.0], [0.4, -0.7]],
        array![0.0, 0.25],
    );
    let glm = GlmStats::of(
        &GlmSpec {
            loss: Loss::LogLoss,
            coef: array![0.4, -0.7],
            intercept: 0.25,
            hessian: false,
        },
        &RowBlock::new(x.view())
            .targets(yb.mapv(|v| v as f64).insert_axis(Axis(1)).view())
            .weights(w.view()),
    )
    .expect("glm");
    assert!((two.value - glm.value).abs() < 1e-13);
    for j in 0..2 {
        assert!((two.grad_coef[[1, j]] - glm.grad_coef[j]).abs() < 1e-13);
        assert!((two.grad_coef[[0, j]] + glm.grad_coef[j]).abs() < 1e-13);
    }
    assert!((two.grad_intercept[1] - glm.grad_intercept).abs() < 1e-13);
}

#[test]
fn softmax_stats_errors_and_bytes() {
    let x: Array2<f64> = array![[1.0, 2.0], [3.0, 4.0]];
    let spec = SoftmaxSpec {
        coef: Array2::zeros((3, 2)),
        intercept: Array1::zeros(3),
        hessian: false,
    };
    let mut st = SoftmaxStats::zero(&spec);
    assert!(matches!(
        st.update(&RowBlock::new(x.view())),
        Err(crate::Error::InvalidParam { .. })
    ));
    let bad = ndarray::arr1(&[0usize, 3]);
    assert!(matches!(
        st.update(&RowBlock::new(x.view()).labels(bad.view())),
        Err(crate::Error::InvalidLabel {
            label: 3,
            index: 1,
            ..
        })
    ));
    let labels = ndarray::arr1(&[0usize, 2]);
    assert!(matches!(
        st.update(&RowBlock::new(x.slice(s![.., ..1])).labels(labels.view())),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let nan = array![[1.0, f64::NAN], [3.0, 4.0]];
    assert!(matches!(
        st.update(&RowBlock::new(nan.view()).labels(labels.view())),
        Err(crate::Error::NonFinite { .. })
    ));
    let one_class = SoftmaxSpec {
        coef: Array2::zeros((1, 2)),
        intercept: Array1::zeros(1),
        hessian: false,
    };
    let zeros = ndarray::arr1(&[0usize, 0]);
    assert!(SoftmaxStats::of(&one_class, &RowBlock::new(x.view()).labels(zeros.view())).is_err());
    // huge scores overflow into a typed error, not NaN statistics
    let huge = SoftmaxSpec {
        coef: Array2::from_elem((3, 2), 1e308),
        ..spec.clone()
    };
    assert!(matches!(
        SoftmaxStats::of(&huge, &RowBlock::new(x.view()).labels(labels.view())),
        Err(crate::Error::NonFiniteResult { .. })
    ));
    st.update(&RowBlock::new(x.view()).labels(labels.view()))
        .expect("block");
    let other = SoftmaxStats::zero(&SoftmaxSpec {
        hessian: true,
        ..spec
    });
    assert!(matches!(
        st.merge(&other),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let bytes = st.encode();
    assert_eq!(SoftmaxStats::<f64>::decode(&bytes).expect("bytes"), st);
    assert!(SoftmaxStats::<f64>::decode(&bytes[..bytes.len() - 8]).is_err());
    assert!(GlmStats::<f64>::decode(&bytes).is_err());
}

#[test]
fn class_scatter_matches_a_direct_computation() {
    // far from the origin: the centring must be exact
    let x: Array2<f64> = array![
        [1e6 + 1.0, 2.0, -1.0],
        [1e6 + 2.0, 1.5, 0.0],
        [1e6 + 4.0, 3.0, 1.0],
        [1e6 + 0.5, 2.5, 3.0],
        [1e6 + 3.0, 0.5, 2.0],
        [1e6 + 2.5, 1.0, -2.0],
        [1e6 + 1.5, 4.0, 0.5]
    ];
    let y = ndarray::arr1(&[0usize, 1, 0, 2, 1, 0, 2]);
    let w = array![2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0];
    let spec = ClassSpec {
        n_classes: 3,
        n_features: 3,
    };
    let st = ClassScatter::of(&spec, &RowBlock::new(x.view()).labels(y.view())).expect("stats");
    assert_eq!(st.n, 7);
    for c in 0..3 {
        let idx: Vec<usize> = (0..7).filter(|&i| y[i] == c).collect();
        let rows = x.select(Axis(0), &idx);
        let mean = rows.mean_axis(Axis(0)).expect("rows");
        let xc = &rows - &mean;
        let cov = xc.t().dot(&xc) / idx.len() as f64;
        assert_eq!(st.count[c], idx.len() as f64);
        assert!((&st.mean.row(c) - &mean).iter().all(|v| v.abs() < 1e-9));
        assert!((&st.covariance(c) - &cov).iter().all(|v| v.abs() < 1e-12));
    }
    // the total covariance from the class statistics = the covariance of all rows
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let xc = &x - &mean;
    let total = xc.t().dot(&xc) / 7.0;
    assert!(
        (&st.total_covariance() - &total)
            .iter()
            .all(|v| v.abs() < 1e-10)
    );
    assert!((&st.overall_mean() - &mean).iter().all(|v| v.abs() < 1e-9));
    // integer weights = repeated rows
    let weighted = ClassScatter::of(
        &spec,
        &RowBlock::new(x.view()).labels(y.view()).weights(w.view()),
    )
    .expect("weighted");
    let rep: Vec<usize> = vec![0, 0, 1, 2, 3, 3, 3, 4, 5, 6];
    let repeated = ClassScatter::of(
        &spec,
        &RowBlock::new(x.select(Axis(0), &rep).view()).labels(y.select(Axis(0), &rep).view()),
    )
    .expect("repeated");
    assert_eq!(weighted.count, repeated.count);
    assert!(
        (&weighted.mean - &repeated.mean)
            .iter()
            .all(|v| v.abs() < 1e-9)
    );
    assert!(
        (&weighted.scatter - &repeated.scatter)
            .iter()
            .all(|v| v.abs() < 1e-9)
    );
    // errors: labels missing or out of range, wrong width, NaN, another spec, bytes
    let mut z = ClassScatter::<f64>::zero(&spec);
    assert!(matches!(
        z.update(&RowBlock::new(x.view())),
        Err(crate::Error::InvalidParam { .. })
    ));
    let bad = ndarray::arr1(&[0usize, 1, 0, 3, 1, 0, 2]);
    assert!(matches!(
        z.update(&RowBlock::new(x.view()).labels(bad.view())),
        Err(crate::Error::InvalidLabel {
            label: 3,
            index: 3,
            ..
        })
    ));
    assert!(matches!(
        z.update(&RowBlock::new(x.slice(s![.., ..2])).labels(y.view())),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let mut nan = x.clone();
    nan[[2, 1]] = f64::NAN;
    assert!(matches!(
        z.update(&RowBlock::new(nan.view()).labels(y.view())),
        Err(crate::Error::NonFinite { .. })
    ));
    let other = ClassScatter::<f64>::zero(&ClassSpec {
        n_classes: 2,
        n_features: 3,
    });
    assert!(matches!(
        z.merge(&other),
        Err(crate::Error::ShapeMismatch { .. })
    ));
    let bytes = st.encode();
    assert_eq!(ClassScatter::<f64>::decode(&bytes).expect("bytes"), st);
    assert!(ClassScatter::<f64>::decode(&bytes[..bytes.len() - 8]).is_err());
    assert!(ClassMoments::<f64>::decode(&bytes).is_err());
}
