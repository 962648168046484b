//! Property tests of `ndlearn_core::tensor` (few cases).
//!
//! fold(unfold(T, k), k) == T for every mode and random shapes; the mode-k product agrees with
//! its definition `Y[…, j, …] = Σᵢ U[j, i] X[…, i, …]`; consecutive products along one mode
//! compose: (X ×ₖ U) ×ₖ V = X ×ₖ (V U); unfoldings of a rank-1 tensor have rank 1.

use ndarray::{Array2, ArrayD, Axis, Dimension, IxDyn};
use ndlearn_core::{linalg, tensor};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn tensor_strategy() -> impl Strategy<Value = ArrayD<f64>> {
    prop::collection::vec(1usize..4, 1..5).prop_flat_map(|shape| {
        let n: usize = shape.iter().product();
        prop::collection::vec(-3.0f64..3.0, n)
            .prop_map(move |v| ArrayD::from_shape_vec(IxDyn(&shape), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(Config::with_cases(16))]

    #[test]
    fn fold_inverts_unfold(t in tensor_strategy()) {
        for mode in 0..t.ndim() {
            let u = tensor::unfold(&t, mode).expect("valid mode");
            prop_assert_eq!(u.nrows(), t.shape()[mode]);
            prop_assert_eq!(u.len(), t.len());
            // Row i of the unfolding holds exactly the slab t[.., i, ..].
            for i in 0..u.nrows() {
                let mut a: Vec<f64> = u.row(i).to_vec();
                let mut b: Vec<f64> = t.index_axis(Axis(mode), i).iter().copied().collect();
                a.sort_by(f64::total_cmp);
                b.sort_by(f64::total_cmp);
                prop_assert_eq!(a, b);
            }
            prop_assert_eq!(tensor::fold(&u, mode, t.shape()).expect("consistent"), t.clone());
        }
    }

    #[test]
    fn mode_product_definition_and_composition(t in tensor_strategy(), j in 1usize..4, seed in 0u64..1000) {
        let mode = (seed as usize) % t.ndim();
        let i_n = t.shape()[mode];
        let u = Array2::from_shape_fn((j, i_n), |(a, b)| ((a * 3 + b * 5 + seed as usize) % 7) as f64 - 3.0);
        let v = Array2::from_shape_fn((2, j), |(a, b)| ((a + 2 * b + seed as usize) % 5) as f64 - 2.0);
        let y = tensor::mode_product(&t, &u, mode).expect("conformable");
        for (idx, val) in y.indexed_iter() {
            let mut s = 0.0;
            let mut src = idx.slice().to_vec();
            for i in 0..i_n {
                src[mode] = i;
                s += u[[idx[mode], i]] * t[IxDyn(&src)];
            }
            prop_assert!((val - s).abs() < 1e-12);
        }
        let yy = tensor::mode_product(&y, &v, mode).expect("conformable");
        let direct = tensor::mode_product(&t, &v.dot(&u), mode).expect("conformable");
        for (a, b) in yy.iter().zip(direct.iter()) {
            prop_assert!((a - b).abs() < 1e-10);
        }
    }

    #[test]
    fn outer_product_unfoldings_have_rank_one(vs in prop::collection::vec(prop::collection::vec(0.5f64..2.0, 1..4), 2..4)) {
        let arrays: Vec<ndarray::Array1<f64>> = vs.into_iter().map(ndarray::Array1::from).collect();
        let views: Vec<_> = arrays.iter().map(|a| a.view()).collect();
        let t = tensor::outer(&views).expect("non-empty");
        prop_assert_eq!(tensor::n_components(t.shape()), t.len());
        for mode in 0..t.ndim() {
            let u = tensor::unfold(&t, mode).expect("valid");
            prop_assert_eq!(linalg::matrix_rank(&u, None).expect("finite"), 1);
        }
    }
}
