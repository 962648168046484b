//! `ndlearn_core::kernel` against scikit-learn's `sklearn.metrics.pairwise` kernels and numpy
//! combinations of them (`datasets/golden/core/kernel.json`, written by
//! `scripts/golden/core_kernel.py`).
//!
//! f64: `|ours − sklearn| ≤ 1e-12 · max(1, max|K|)` (the gemm's rounding scales with the size of
//! the entries, not of each result), for `gram(x)`, `cross_gram(x, y)`, `diag(x)` and `eval`;
//! f32 runs of the same inputs to 1e-4 relative.
//!
//! The JSON is read with `serde_json` directly (the shared test kit's loader was not yet on the
//! main branch when this was written).

use std::path::PathBuf;

use ndarray::Array2;
use ndlearn_core::kernel::{Kernel, WeightFn};
use serde_json::Value;

fn golden() -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../datasets/golden/core/kernel.json");
    let text = std::fs::read_to_string(&path)
        .expect("golden file present (run scripts/golden/core_kernel.py)");
    serde_json::from_str(&text).expect("valid JSON")
}

struct Case<'a> {
    name: &'a str,
    v: &'a Value,
}

impl Case<'_> {
    fn field(&self, f: &str) -> &Value {
        self.v
            .get(f)
            .unwrap_or_else(|| panic!("{}: missing field {f}", self.name))
    }
    fn scalar(&self, f: &str) -> f64 {
        self.field(f)
            .as_f64()
            .unwrap_or_else(|| panic!("{}: {f} not a number", self.name))
    }
    fn usize(&self, f: &str) -> usize {
        self.field(f)
            .as_u64()
            .unwrap_or_else(|| panic!("{}: {f} not an integer", self.name)) as usize
    }
    fn degree(&self) -> u32 {
        self.usize("degree") as u32
    }
    fn string(&self, f: &str) -> &str {
        self.field(f)
            .as_str()
            .unwrap_or_else(|| panic!("{}: {f} not a string", self.name))
    }
    fn vector(&self, f: &str) -> Vec<f64> {
        self.field(f)
            .as_array()
            .unwrap_or_else(|| panic!("{}: {f} not an array", self.name))
            .iter()
            .map(|v| v.as_f64().expect("number"))
            .collect()
    }
    fn matrix(&self, f: &str) -> Array2<f64> {
        let rows = self
            .field(f)
            .as_array()
            .unwrap_or_else(|| panic!("{}: {f} not an array", self.name));
        let data: Vec<Vec<f64>> = rows
            .iter()
            .map(|r| {
                r.as_array()
                    .expect("row")
                    .iter()
                    .map(|v| v.as_f64().expect("number"))
                    .collect()
            })
            .collect();
        let (n, m) = (data.len(), data.first().map_or(0, Vec::len));
        Array2::from_shape_vec((n, m), data.concat()).expect("rectangular")
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
            "poly_of_rbf" => {
                Kernel::rbf_gamma(self.scalar("gamma")).polynomial_of(self.vector("coeffs"))
            }
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
            other => panic!("{}: unknown kind {other}", self.name),
        }
    }
}

fn cases(g: &Value) -> Vec<Case<'_>> {
    g["cases"]
        .as_object()
        .expect("cases object")
        .iter()
        .map(|(name, v)| Case { name, v })
        .collect()
}

fn assert_close(got: &Array2<f64>, want: &Array2<f64>, tol: f64, what: &str) {
    assert_eq!(got.dim(), want.dim(), "{what}: shape");
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let (mut worst, mut at) = (0.0f64, (0, 0));
    for ((idx, a), b) in got.indexed_iter().zip(want.iter()) {
        let e = (a - b).abs();
        if e > worst || e.is_nan() {
            worst = e;
            at = idx;
        }
    }
    assert!(
        worst <= tol * scale,
        "{what}: max error {worst:e} at {at:?} > {tol:e} · {scale:e}"
    );
}

#[test]
fn golden_file_has_every_kind() {
    let g = golden();
    let cs = cases(&g);
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
    for c in cases(&g) {
        let k = c.kernel();
        let (x, y) = (c.matrix("x"), c.matrix("y"));
        assert_eq!((x.nrows(), y.nrows()), (20, 15), "{}", c.name);
        let (kxx, kxy) = (c.matrix("k_xx"), c.matrix("k_xy"));
        let gram = k.gram(&x).expect("valid");
        assert_close(&gram, &kxx, 1e-12, &format!("{} gram", c.name));
        assert_eq!(gram, gram.t(), "{}: gram symmetric", c.name);
        assert_close(
            &k.cross_gram(&x, &y).expect("valid"),
            &kxy,
            1e-12,
            &format!("{} cross", c.name),
        );
        let d = k.diag(&x).expect("valid");
        let want_d = Array2::from_shape_fn((1, 20), |(_, i)| kxx[[i, i]]);
        assert_close(
            &d.insert_axis(ndarray::Axis(0)),
            &want_d,
            1e-12,
            &format!("{} diag", c.name),
        );
        for (i, j) in [(0, 0), (7, 3), (19, 14)] {
            let e = k.eval(&x.row(i), &y.row(j)).expect("valid");
            let want = kxy[[i, j]];
            let scale = kxy.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(
                (e - want).abs() <= 1e-12 * scale,
                "{} eval ({i}, {j}): {e} vs {want}",
                c.name
            );
        }
    }
}

#[test]
fn f32_matches_scikit_learn_loosely() {
    let g = golden();
    for c in cases(&g) {
        let k = c.kernel();
        let (x, y) = (
            c.matrix("x").mapv(|v| v as f32),
            c.matrix("y").mapv(|v| v as f32),
        );
        let got = k.cross_gram(&x, &y).expect("valid").mapv(f64::from);
        assert_close(&got, &c.matrix("k_xy"), 1e-4, &format!("{} f32", c.name));
    }
}

#[test]
fn psd_golden_kernels_are_mercer_and_sigmoid_is_flagged() {
    let g = golden();
    for c in cases(&g) {
        let k = c.kernel();
        let x = c.matrix("x");
        if k.is_guaranteed_psd() {
            let kxx = c.matrix("k_xx");
            let tol = 1e-10 * kxx.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(k.is_mercer_on(&x, Some(tol)).expect("ok"), "{}", c.name);
        } else {
            assert_eq!(c.string("kind"), "sigmoid", "{}", c.name);
        }
    }
}
