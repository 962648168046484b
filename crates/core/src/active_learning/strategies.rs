//! Query strategies: how informative is an unlabelled sample, from the model's class
//! probabilities (the course notes; Settles, "Active Learning Literature Survey", University of
//! Wisconsin–Madison TR 1648, 2009; catalog X-01, CL-195).

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use crate::random::{self, Rng};
use crate::validate::check_finite_2d;
use crate::{Error, Float, Result};

/// How a query strategy ranks unlabelled samples.
///
/// [`QueryStrategy::scores`] turns a probability matrix into an *informativeness* per row,
/// larger = query first:
///
/// | strategy | informativeness | range | the course notes |
/// |---|---|---|---|
/// | `Uncertainty` | `0.5 − |P(y=1|x) − 0.5|` (two classes only) | `[0, 0.5]` | "posterior closest to 0.5" |
/// | `LeastConfident` | `1 − P(ŷ|x)`, `ŷ = argmax` | `[0, 1 − 1/K]` | `argmax_x 1 − P(ŷ|x)` |
/// | `Margin` | `1 − (P(ŷ₁|x) − P(ŷ₂|x))` | `[0, 1]` | `argmin_x P(ŷ₁|x) − P(ŷ₂|x)` |
/// | `Entropy` | `−Σᵢ P(yᵢ|x) ln P(yᵢ|x)` (natural log, `0 ln 0 = 0`) | `[0, ln K]` | `argmax_x −Σ P log P` |
/// | `Random` | none: samples are drawn uniformly (the passive baseline) | | |
///
/// Margin with a single column uses `P(ŷ₂|x) = 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum QueryStrategy {
    /// Binary uncertainty sampling: probability of class 1 closest to 0.5.
    Uncertainty,
    /// Least confident prediction.
    LeastConfident,
    /// Smallest margin between the two most probable classes.
    Margin,
    /// Largest entropy of the predicted distribution.
    #[default]
    Entropy,
    /// Uniformly random choice (passive learning baseline).
    Random,
}

impl QueryStrategy {
    /// Informativeness of each row of `proba` (`n × K`, rows are class probabilities); larger
    /// is more informative (see the table above).
    ///
    /// ```
    /// use ndlearn_core::active_learning::QueryStrategy;
    /// use ndlearn_core::ndarray::array;
    ///
    /// let p: ndlearn_core::ndarray::Array2<f64> = array![[0.9, 0.1], [0.55, 0.45], [0.3, 0.7]];
    /// let s = QueryStrategy::Uncertainty.scores(&p)?;
    /// assert!((s[1] - 0.45).abs() < 1e-12); // the most uncertain row
    /// let m = QueryStrategy::Margin.scores(&p)?;
    /// assert!(m[1] > m[2] && m[2] > m[0]);
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Non-finite or negative probabilities, zero columns, `Uncertainty` with `K ≠ 2`,
    /// `Random` (it has no score).
    pub fn scores<F: Float>(&self, proba: &ArrayRef2<F>) -> Result<Array1<F>> {
        check_proba(proba)?;
        match self {
            Self::Uncertainty => {
                let u = binary_uncertainty(proba)?;
                Ok(u.mapv(|v| F::cast(0.5) - v))
            }
            Self::LeastConfident => least_confident(proba),
            Self::Margin => Ok(margin(proba)?.mapv(|v| F::one() - v)),
            Self::Entropy => entropy(proba),
            Self::Random => Err(Error::invalid_param(
                "strategy",
                "Random has no informativeness score; it draws samples uniformly",
            )),
        }
    }
}

fn check_proba<F: Float>(proba: &ArrayRef2<F>) -> Result<()> {
    if proba.ncols() == 0 {
        return Err(Error::ShapeMismatch {
            context: "query strategy",
            expected: "at least one class column".into(),
            found: "0 columns".into(),
        });
    }
    check_finite_2d(proba, "proba")?;
    if let Some(((r, c), v)) = proba.indexed_iter().find(|(_, v)| **v < F::zero()) {
        return Err(Error::invalid_param(
            "proba",
            format!("probabilities must be >= 0; entry ({r}, {c}) is {v}"),
        ));
    }
    Ok(())
}

/// `|P(y = 1 | x) − 0.5|` per row of a two-column probability matrix (smaller = more
/// uncertain).
pub fn binary_uncertainty<F: Float>(proba: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_proba(proba)?;
    if proba.ncols() != 2 {
        return Err(Error::ShapeMismatch {
            context: "binary uncertainty sampling",
            expected: "2 class columns (use LeastConfident, Margin or Entropy for K > 2)".into(),
            found: format!("{} columns", proba.ncols()),
        });
    }
    let half = F::cast(0.5);
    Ok(proba.column(1).mapv(|p| (p - half).abs()))
}

/// `1 − max_k P(k | x)` per row (larger = less confident).
pub fn least_confident<F: Float>(proba: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_proba(proba)?;
    Ok(proba
        .rows()
        .into_iter()
        .map(|r| F::one() - r.iter().fold(F::neg_infinity(), |m, &v| m.max(v)))
        .collect())
}

/// `P(ŷ₁ | x) − P(ŷ₂ | x)`, the gap between the two largest probabilities per row (smaller =
/// more ambiguous); `P(ŷ₂|x) = 0` with one column.
pub fn margin<F: Float>(proba: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_proba(proba)?;
    Ok(proba
        .rows()
        .into_iter()
        .map(|r| {
            let (mut a, mut b) = (F::neg_infinity(), F::zero());
            for &v in r {
                if v > a {
                    b = a.max(b);
                    a = v;
                } else if v > b {
                    b = v;
                }
            }
            a - b
        })
        .collect())
}

/// Shannon entropy `−Σ_k P(k|x) ln P(k|x)` per row (natural log; `0 ln 0 = 0`).
pub fn entropy<F: Float>(proba: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_proba(proba)?;
    Ok(proba.rows().into_iter().map(|r| entropy_row(&r)).collect())
}

pub(crate) fn entropy_row<F: Float>(r: &ArrayRef1<F>) -> F {
    r.iter()
        .filter(|&&p| p > F::zero())
        .map(|&p| -p * p.ln())
        .sum()
}

/// Indices of the `b` largest scores, largest first; equal scores go to the lower index. Returns
/// fewer when there are fewer than `b` scores.
///
/// ```
/// use ndlearn_core::active_learning::top_b;
/// use ndlearn_core::ndarray::array;
/// assert_eq!(top_b(&array![0.2, 0.9, 0.5, 0.9], 3), vec![1, 3, 2]);
/// ```
pub fn top_b<F: Float>(scores: &ArrayRef1<F>, b: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&i, &j| {
        scores[j]
            .partial_cmp(&scores[i])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(i.cmp(&j))
    });
    order.truncate(b);
    order
}

/// Chooses `b` rows of `proba` to query: the `b` most informative ([`top_b`] of
/// [`QueryStrategy::scores`]), or `b` uniform draws without replacement for
/// [`QueryStrategy::Random`] (from `rng`). Returns row positions of `proba`.
pub fn select_queries<F: Float>(
    strategy: QueryStrategy,
    proba: &ArrayRef2<F>,
    b: usize,
    rng: &mut Rng,
) -> Result<Vec<usize>> {
    let b = b.min(proba.nrows());
    match strategy {
        QueryStrategy::Random => random::sample_without_replacement(rng, proba.nrows(), b),
        s => Ok(top_b(&s.scores(proba)?, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn scores_by_hand() {
        let p: ndarray::Array2<f64> = array![[0.7, 0.2, 0.1], [0.4, 0.35, 0.25], [1.0, 0.0, 0.0]];
        let lc = least_confident(&p).expect("ok");
        assert!((lc[0] - 0.3).abs() < 1e-15 && (lc[1] - 0.6).abs() < 1e-15 && lc[2] == 0.0);
        let m = margin(&p).expect("ok");
        assert!((m[0] - 0.5).abs() < 1e-15 && (m[1] - 0.05).abs() < 1e-15 && m[2] == 1.0);
        let h = entropy(&p).expect("ok");
        let h0 = -(0.7f64 * 0.7f64.ln() + 0.2 * 0.2f64.ln() + 0.1 * 0.1f64.ln());
        assert!((h[0] - h0).abs() < 1e-15 && h[2] == 0.0);
        // Uniform distribution: maximal entropy ln K and least-confident score 1 − 1/K.
        let u = array![[0.25f32, 0.25, 0.25, 0.25]];
        assert!((entropy(&u).expect("ok")[0] - 4f32.ln()).abs() < 1e-6);
        assert_eq!(least_confident(&u).expect("ok")[0], 0.75);
        // Every strategy picks row 1 (the most ambiguous) first.
        for s in [
            QueryStrategy::LeastConfident,
            QueryStrategy::Margin,
            QueryStrategy::Entropy,
        ] {
            assert_eq!(top_b(&s.scores(&p).expect("ok"), 1), vec![1], "{s:?}");
        }
        // A single column: margin against 0.
        assert_eq!(margin(&array![[1.0]]).expect("ok")[0], 1.0);
    }

    #[test]
    fn margin_and_entropy_can_disagree() {
        // Row 0: two classes tied, third empty (margin 0, entropy ln 2 = 0.693).
        // Row 1: (0.4, 0.3, 0.3): margin 0.1, entropy 1.089. Margin picks 0, entropy picks 1.
        let p = array![[0.5, 0.5, 0.0], [0.4, 0.3, 0.3]];
        assert_eq!(
            top_b(&QueryStrategy::Margin.scores(&p).expect("ok"), 1),
            vec![0]
        );
        assert_eq!(
            top_b(&QueryStrategy::Entropy.scores(&p).expect("ok"), 1),
            vec![1]
        );
    }

    #[test]
    fn errors_and_ties() {
        assert!(binary_uncertainty(&array![[0.2, 0.3, 0.5]]).is_err());
        assert!(QueryStrategy::Random.scores(&array![[0.5, 0.5]]).is_err());
        assert!(entropy(&array![[f64::NAN, 0.5]]).is_err());
        assert!(entropy(&array![[-0.1, 1.1]]).is_err());
        assert!(entropy(&ndarray::Array2::<f64>::zeros((2, 0))).is_err());
        assert_eq!(top_b(&array![1.0, 1.0, 1.0], 2), vec![0, 1]);
        assert_eq!(top_b(&array![1.0], 4), vec![0]);
        let mut rng = crate::random::rng(1);
        let p = array![[0.5, 0.5], [0.9, 0.1], [0.6, 0.4]];
        let q = select_queries(QueryStrategy::Random, &p, 5, &mut rng).expect("ok");
        let mut sorted = q.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2]);
        let q = select_queries(QueryStrategy::Uncertainty, &p, 2, &mut rng).expect("ok");
        assert_eq!(q, vec![0, 2]);
    }
}
