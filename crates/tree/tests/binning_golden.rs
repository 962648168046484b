//! `BinMapper` against scikit-learn 1.9.1's `_BinMapper` (`datasets/golden/tree/binning.json`,
//! written by `scripts/golden/tree_binning.py`): the same thresholds (exact: midpoints and order
//! statistics of the same numbers) and the same codes.

use ndarray::Array2;
use ndlearn_testkit::Golden;
use ndlearn_tree::BinMapper;

#[test]
fn thresholds_and_codes_equal_scikit_learn() {
    let g = Golden::load("tree", "binning");
    for case in g.cases() {
        let mut x = case.matrix("x");
        let mask = case.matrix("nan_mask");
        x.zip_mut_with(&mask, |v, &m| {
            if m != 0.0 {
                *v = f64::NAN;
            }
        });
        let max_bins = case.usize("max_bins");
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let fit = BinMapper::default()
            .max_bins(max_bins)
            .fit_weighted(&x, w.as_deref())
            .expect("fit");
        let counts = case.usize_vector("n_thresholds");
        let flat = case.vector("thresholds");
        let mut at = 0;
        for (j, &k) in counts.iter().enumerate() {
            let expected = flat.slice(ndarray::s![at..at + k]).to_vec();
            assert_eq!(
                fit.thresholds(j),
                expected.as_slice(),
                "{}: feature {j}",
                case.name()
            );
            at += k;
        }
        let codes: Array2<f64> = fit.transform(&x).expect("codes").mapv(f64::from);
        assert_eq!(codes, case.matrix("codes"), "{}: codes", case.name());
    }
}
