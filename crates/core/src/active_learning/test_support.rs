//! A tiny probabilistic classifier for the unit tests: nearest centroid with class
//! probabilities `softmax(−‖x − μ_k‖² / 2)` (a Gaussian with identity covariance and equal
//! priors). Classes without samples get probability 0.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

use crate::validate::{check_classification_input, check_predict_input};
use crate::{Fit, Float, Predict, PredictProba, Result};

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Centroids;

#[derive(Debug, Clone)]
pub(crate) struct FittedCentroids<F: Float> {
    means: Array2<F>,
    present: Vec<bool>,
}

impl<F: Float> Fit<F> for Centroids {
    type Target = ArrayRef1<usize>;
    type Model = FittedCentroids<F>;
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        let k = check_classification_input(x, y, 2, "Centroids")?;
        let mut means = Array2::<F>::zeros((k, x.ncols()));
        let mut counts = vec![0usize; k];
        for (row, &c) in x.rows().into_iter().zip(y) {
            let mut m = means.row_mut(c);
            m += &row;
            counts[c] += 1;
        }
        for (c, &n) in counts.iter().enumerate() {
            if n > 0 {
                let mut m = means.row_mut(c);
                m /= F::cast(n);
            }
        }
        Ok(FittedCentroids {
            means,
            present: counts.iter().map(|&n| n > 0).collect(),
        })
    }
}

impl<F: Float> Predict<F> for FittedCentroids<F> {
    type Output = Array1<usize>;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let p = self.predict_proba(x)?;
        Ok(p.rows()
            .into_iter()
            .map(|r| crate::active_learning::top_b(&r, 1)[0])
            .collect())
    }
}

impl<F: Float> PredictProba<F> for FittedCentroids<F> {
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.means.ncols(), "Centroids::predict_proba")?;
        let k = self.means.nrows();
        let mut p = Array2::<F>::zeros((x.nrows(), k));
        for (i, row) in x.rows().into_iter().enumerate() {
            let logits: Vec<F> = (0..k)
                .map(|c| {
                    let d: F = row
                        .iter()
                        .zip(self.means.row(c))
                        .map(|(&a, &b)| (a - b) * (a - b))
                        .sum();
                    -d * F::cast(0.5)
                })
                .collect();
            let mx = (0..k)
                .filter(|&c| self.present[c])
                .fold(F::neg_infinity(), |m, c| m.max(logits[c]));
            let mut z = F::zero();
            for c in (0..k).filter(|&c| self.present[c]) {
                let e = (logits[c] - mx).exp();
                p[[i, c]] = e;
                z += e;
            }
            for c in 0..k {
                p[[i, c]] /= z;
            }
        }
        Ok(p)
    }
}
