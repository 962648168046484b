//! Tiny deterministic estimators and scorers shared by the model-selection tests.
//!
//! `NearestCentroid` reimplements scikit-learn's `NearestCentroid()` with its defaults (Euclidean
//! metric, uniform priors, no shrinkage): the centroid of a class is the mean of its training
//! rows, a point goes to the class of the closest centroid (first class on exact ties; the
//! golden cases have none). `RidgeCf` is scikit-learn's `Ridge` with the Cholesky solver:
//! with an intercept, columns and target are centred on the training rows, then
//! `(XᵀX + αI) w = Xᵀy` is solved and `b = ȳ − x̄ᵀw`; without, the same on the raw data.

#![allow(dead_code)]

use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::{Error, Fit, Labels, Predict, Result, linalg, validate};

/// scikit-learn's `NearestCentroid()` (defaults).
#[derive(Debug, Clone, Copy, Default)]
pub struct NearestCentroid;

/// Centroids of the classes seen at fit.
#[derive(Debug, Clone)]
pub struct FittedCentroids {
    pub centroids: Array2<f64>,
    pub classes: Vec<usize>,
}

impl Fit<f64> for NearestCentroid {
    type Target = Labels;
    type Model = FittedCentroids;

    fn fit(&self, x: &ArrayRef2<f64>, y: &Labels) -> Result<FittedCentroids> {
        let n_labels = validate::check_classification_input(x, y, 2, "NearestCentroid")?;
        let mut sums = Array2::<f64>::zeros((n_labels, x.ncols()));
        let mut counts = vec![0usize; n_labels];
        for (row, &c) in x.rows().into_iter().zip(y) {
            let mut s = sums.row_mut(c);
            s += &row;
            counts[c] += 1;
        }
        let classes: Vec<usize> = (0..n_labels).filter(|&c| counts[c] > 0).collect();
        let mut centroids = Array2::zeros((classes.len(), x.ncols()));
        for (k, &c) in classes.iter().enumerate() {
            let mut r = centroids.row_mut(k);
            r.assign(&sums.row(c));
            r /= counts[c] as f64;
        }
        Ok(FittedCentroids { centroids, classes })
    }
}

impl Predict<f64> for FittedCentroids {
    type Output = Array1<usize>;

    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
        validate::check_predict_input(x, self.centroids.ncols(), "NearestCentroid::predict")?;
        Ok(x.rows()
            .into_iter()
            .map(|row| {
                let mut best = (f64::INFINITY, 0usize);
                for (k, c) in self.centroids.rows().into_iter().enumerate() {
                    let d: f64 = row.iter().zip(c).map(|(a, b)| (a - b) * (a - b)).sum();
                    if d < best.0 {
                        best = (d, k);
                    }
                }
                self.classes[best.1]
            })
            .collect())
    }
}

/// Closed-form ridge regression (scikit-learn's `Ridge(solver="cholesky")`).
#[derive(Debug, Clone, Copy)]
pub struct RidgeCf {
    pub alpha: f64,
    pub fit_intercept: bool,
}

impl RidgeCf {
    pub fn new(alpha: f64) -> Self {
        Self {
            alpha,
            fit_intercept: true,
        }
    }
}

/// Coefficients and intercept.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedRidge {
    pub coef: Array1<f64>,
    pub intercept: f64,
}

impl Fit<f64> for RidgeCf {
    type Target = ArrayRef1<f64>;
    type Model = FittedRidge;

    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedRidge> {
        validate::check_regression_input(x, y, 1, "RidgeCf")?;
        validate::check_non_negative("alpha", self.alpha)?;
        let (mut xc, mut yc) = (x.to_owned(), y.to_owned());
        let (x_mean, y_mean) = if self.fit_intercept {
            let xm = x
                .mean_axis(Axis(0))
                .ok_or_else(|| Error::invalid_param("x", "empty"))?;
            let ym = y.sum() / y.len() as f64;
            xc -= &xm;
            yc -= ym;
            (xm, ym)
        } else {
            (Array1::zeros(x.ncols()), 0.0)
        };
        let mut a = xc.t().dot(&xc);
        for i in 0..a.nrows() {
            a[[i, i]] += self.alpha;
        }
        let b = xc.t().dot(&yc);
        let coef = linalg::solve(&a, &b)?;
        let intercept = y_mean - x_mean.dot(&coef);
        Ok(FittedRidge { coef, intercept })
    }
}

impl Predict<f64> for FittedRidge {
    type Output = Array1<f64>;

    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
        validate::check_predict_input(x, self.coef.len(), "RidgeCf::predict")?;
        Ok(x.dot(&self.coef) + self.intercept)
    }
}

/// Fraction of correct predictions.
pub fn accuracy(m: &FittedCentroids, x: &ArrayRef2<f64>, y: &Labels) -> Result<f64> {
    let p = m.predict(x)?;
    Ok(p.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64)
}

/// Coefficient of determination `1 − SS_res / SS_tot` (scikit-learn's `r2_score`).
pub fn r2(m: &FittedRidge, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
    let p = m.predict(x)?;
    let mean = y.sum() / y.len() as f64;
    let ss_res: f64 = p.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum();
    let ss_tot: f64 = y.iter().map(|b| (b - mean) * (b - mean)).sum();
    Ok(1.0 - ss_res / ss_tot)
}
