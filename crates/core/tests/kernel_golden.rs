//! `ndlearn_core::kernel` against scikit-learn's `sklearn.metrics.pairwise` kernels and numpy
//! combinations of them (`datasets/golden/core/kernel.json`, written by
//! `scripts/golden/core_kernel.py`).
//!
//! f64: `|ours − sklearn| ≤ 1e-12 · max(1, max|K|)` (the gemm's rounding scales with the size of
//! the entries, not of each result), for `gram(x)`, `cross_gram(x, y)`, `diag(x)` and `eval`;
//! f32 runs of the same inputs to 1e-4 relative.

use ndarray::{Array2, Axis};
use ndlearn_core::kernel::{Kernel, WeightFn};
use ndlearn_testkit::{Case, Golden, assert_close};

fn golden() -> Golden {
    Golden::load("core", "kernel")
}

/// `|ours − expected| ≤ tol · max(1, max|expected|)` element-wise.
fn check<F: ndlearn_core::Float>(got: &Array2<F>, want: &Array2<f64>, tol: f64, what: &str) {
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    assert_close(got, want, 0.0, tol * scale, what);
}

trait KernelCase {
    fn degree(&self) -> u32;
    fn kernel(&self) -> Kernel;
}

impl KernelCase for Case {
    fn degree(&self) -> u32 {
        u32::try_from(self.usize("degree")).expect("small degree")
    }

    /// The kernel this case describes.
    fn kernel(&self) -> Kernel {
        match self.string("kind") {
            "linear" => Kernel::linear(),
            "poly" => {
                Kernel::polynomial_gamma(self.degree(), self.scalar("gamma"), self.scalar("coef0"))
            }
            "rbf" => Kernel::rbf_gamma(self.scalar("gamma")),
            "laplacian" => Kernel::laplacian(self.scalar("gamma")),
            "sigmoid" => Kernel::sigmoid(self.scalar("gamma"), self.scalar("coef0")),
            "sum_rbf_poly" => {
                Kernel::rbf_gamma(self.scalar("gamma_rbf")).plus(Kernel::polynomial_gamma(
                    self.degree(),
                    self.scalar("gamma_poly"),
                    self.scalar("coef0"),
                ))
            }
            "product_rbf_poly" => {
                Kernel::rbf_gamma(self.scalar("gamma_rbf")).times(Kernel::polynomial_gamma(
                    self.degree(),
                    self.scalar("gamma_poly"),
                    self.scalar("coef0"),
                ))
            }
            "product_laplacian_linear" => {
                Kernel::laplacian(self.scalar("gamma")).times(Kernel::linear())
            }
            "scaled_rbf" => Kernel::rbf_gamma(self.scalar("gamma")).scaled(self.scalar("c")),
            "exp_linear" => Kernel::linear().scaled(self.scalar("c")).exp(),
            "poly_of_rbf" => Kernel::rbf_gamma(self.scalar("gamma"))
                .polynomial_of(self.vector("coeffs").to_vec()),
            "normalized_poly" => {
                Kernel::polynomial_gamma(self.degree(), self.scalar("gamma"), self.scalar("coef0"))
                    .normalized()
            }
            "cosine" => Kernel::linear().weighted(WeightFn::InverseNorm),
            "gaussian_weighted_exp" => {
                let gamma = self.scalar("gamma");
                Kernel::linear()
                    .scaled(2.0 * gamma)
                    .exp()
                    .weighted(WeightFn::Gaussian { gamma })
            }
            "subvector_product" => Kernel::subvector_product(
                self.usize("a_start")..self.usize("a_end"),
                Kernel::rbf_gamma(self.scalar("gamma")),
                self.usize("b_start")..self.usize("b_end"),
                Kernel::polynomial_gamma(
                    self.degree(),
                    self.scalar("gamma_poly"),
                    self.scalar("coef0"),
                ),
            ),
            "subvector_sum" => Kernel::subvector_sum(
                self.usize("a_start")..self.usize("a_end"),
                Kernel::laplacian(self.scalar("gamma")),
                self.usize("b_start")..self.usize("b_end"),
                Kernel::linear(),
            ),
            "quadratic_form" => Kernel::quadratic_form(self.matrix("a")).expect("A is PSD"),
            other => panic!("{}: unknown kind {other}", self.name()),
        }
    }
}

#[test]
fn golden_file_has_every_kind() {
    let g = golden();
    let cs = g.cases();
    assert!(cs.len() >= 29);
    for kind in ["linear", "poly", "rbf", "laplacian", "sigmoid"] {
        assert!(
            cs.iter().filter(|c| c.string("kind") == kind).count() >= 2,
            "{kind}"
        );
    }
}

#[test]
fn gram_and_cross_gram_match_scikit_learn() {
    let g = golden();
    for c in g.cases() {
        let name = c.name();
        let k = c.kernel();
        let (x, y) = (c.matrix("x"), c.matrix("y"));
        assert_eq!((x.nrows(), y.nrows()), (20, 15), "{name}");
        let (kxx, kxy) = (c.matrix("k_xx"), c.matrix("k_xy"));
        let gram = k.gram(&x).expect("valid");
        check(&gram, &kxx, 1e-12, &format!("{name} gram"));
        assert_eq!(gram, gram.t(), "{name}: gram symmetric");
        let cross = k.cross_gram(&x, &y).expect("valid");
        check(&cross, &kxy, 1e-12, &format!("{name} cross_gram"));
        let d = k.diag(&x).expect("valid").insert_axis(Axis(0));
        let want_d = kxx.diag().to_owned().insert_axis(Axis(0));
        check(&d, &want_d, 1e-12, &format!("{name} diag"));
        for (i, j) in [(0, 0), (7, 3), (19, 14)] {
            let e = k.eval(&x.row(i), &y.row(j)).expect("valid");
            let got = Array2::from_elem((1, 1), e);
            let want = Array2::from_elem((1, 1), kxy[[i, j]]);
            let scale = kxy.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert_close(
                &got,
                &want,
                0.0,
                1e-12 * scale,
                &format!("{name} eval ({i}, {j})"),
            );
        }
    }
}

#[test]
fn f32_matches_scikit_learn_loosely() {
    let g = golden();
    for c in g.cases() {
        let k = c.kernel();
        let (x, y) = (
            c.matrix("x").mapv(|v| v as f32),
            c.matrix("y").mapv(|v| v as f32),
        );
        let got = k.cross_gram(&x, &y).expect("valid");
        check(&got, &c.matrix("k_xy"), 1e-4, &format!("{} f32", c.name()));
    }
}

#[test]
fn psd_golden_kernels_are_mercer_and_sigmoid_is_flagged() {
    let g = golden();
    for c in g.cases() {
        let k = c.kernel();
        let x = c.matrix("x");
        if k.is_guaranteed_psd() {
            let kxx = c.matrix("k_xx");
            let tol = 1e-10 * kxx.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(k.is_mercer_on(&x, Some(tol)).expect("ok"), "{}", c.name());
        } else {
            assert_eq!(c.string("kind"), "sigmoid", "{}", c.name());
        }
    }
}
