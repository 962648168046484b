//! Orthonormalisation and projections: modified Gram–Schmidt, the hat (projection) matrix, the
//! residual maker and the projection of one vector on another.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, s};

use super::{check_nonempty, default_rcond, svd_thin};
use crate::validate::check_finite_2d;
use crate::{Error, Float, Result};

/// Orthonormal basis of the column space of `a` by modified Gram–Schmidt with one
/// re-orthogonalisation pass ("twice is enough"), as the course notes describe it: each column
/// has its components along the previous basis vectors removed, then is normalised.
///
/// Columns whose remaining norm falls below `max(m,n) · ε · max‖aⱼ‖` are linearly dependent on
/// the earlier ones and are dropped, so the result is `m × rank`. For least squares prefer the
/// Householder [`super::qr`] (better conditioned); this routine is the textbook algorithm and a
/// basis builder.
pub fn gram_schmidt<F: Float>(a: &ArrayRef2<F>) -> Result<Array2<F>> {
    check_nonempty(a, "gram_schmidt")?;
    check_finite_2d(a, "matrix")?;
    let (m, n) = a.dim();
    let max_norm = a
        .columns()
        .into_iter()
        .map(|c| c.dot(&c).sqrt())
        .fold(F::zero(), F::max);
    let tol = default_rcond::<F>(m, n) * max_norm;
    let mut basis: Vec<Array1<F>> = Vec::new();
    for col in a.columns() {
        let mut v = col.to_owned();
        for _pass in 0..2 {
            for q in &basis {
                let c = q.dot(&v);
                v.scaled_add(-c, q);
            }
        }
        let norm = v.dot(&v).sqrt();
        if norm > tol {
            basis.push(v / norm);
            if basis.len() == m {
                break;
            }
        }
    }
    let mut q = Array2::zeros((m, basis.len()));
    for (j, b) in basis.iter().enumerate() {
        q.column_mut(j).assign(b);
    }
    Ok(q)
}

/// Orthonormal basis of the column space by thin SVD (the numerically robust choice).
fn column_space<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<F>> {
    let (m, n) = x.dim();
    let svd = svd_thin(x)?;
    let cut = default_rcond::<F>(m, n) * svd.s[0];
    let r = svd.s.iter().filter(|&&v| v > cut).count();
    Ok(svd.u.slice(s![.., ..r]).to_owned())
}

/// The projection ("hat") matrix `P = X (XᵀX)⁻¹ Xᵀ` onto the column space of `X` (`n × n`),
/// computed as `U Uᵀ` from the thin SVD so that it also works for rank-deficient `X` (then it is
/// `X X⁺`). `P` is symmetric, idempotent, and `trace P = rank X`.
pub fn projection_matrix<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<F>> {
    let u = column_space(x)?;
    Ok(u.dot(&u.t()))
}

/// The residual maker `M = I − P` (`n × n`): `M y` are the least-squares residuals of regressing
/// `y` on `X`; `M` is symmetric, idempotent, `M X = 0` and `trace M = n − rank X`.
pub fn residual_maker<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<F>> {
    let mut m = projection_matrix(x)?;
    m.mapv_inplace(|v| -v);
    for i in 0..m.nrows() {
        m[[i, i]] += F::one();
    }
    Ok(m)
}

/// Projection of `v` onto the line spanned by `u`: `(uᵀv / uᵀu) u`. Errors on a zero `u`.
pub fn project_onto<F: Float>(v: &ArrayRef1<F>, u: &ArrayRef1<F>) -> Result<Array1<F>> {
    if v.len() != u.len() {
        return Err(Error::ShapeMismatch {
            context: "project_onto",
            expected: format!("vectors of equal length ({})", u.len()),
            found: format!("{}", v.len()),
        });
    }
    let uu = u.dot(u);
    if !uu.is_finite() || uu <= F::zero() {
        return Err(Error::invalid_param(
            "u",
            "must be a non-zero finite vector",
        ));
    }
    Ok(u.to_owned() * (u.dot(v) / uu))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn gram_schmidt_by_hand() {
        // Columns (3,4,0) and (1,0,0): q1 = (0.6, 0.8, 0), q2 = (0.8, -0.6, 0).
        let a: Array2<f64> = array![[3.0, 1.0], [4.0, 0.0], [0.0, 0.0]];
        let q = gram_schmidt(&a).expect("ok");
        let expected: Array2<f64> = array![[0.6, 0.8], [0.8, -0.6], [0.0, 0.0]];
        assert!((&q - &expected).iter().all(|d| d.abs() < 1e-15), "{q}");
        // A dependent column is dropped.
        let dep: Array2<f64> = array![[1.0, 2.0, 0.0], [1.0, 2.0, 1.0], [0.0, 0.0, 1.0]];
        assert_eq!(gram_schmidt(&dep).expect("ok").ncols(), 2);
        assert!(gram_schmidt(&Array2::<f64>::zeros((0, 2))).is_err());
    }

    #[test]
    fn projections() {
        let x: Array2<f64> = array![[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]];
        let p = projection_matrix(&x).expect("ok");
        let m = residual_maker(&x).expect("ok");
        let close = |a: &Array2<f64>, b: &Array2<f64>| (a - b).iter().all(|d| d.abs() < 1e-13);
        assert!(close(&p.dot(&p), &p) && close(&p, &p.t().to_owned()));
        assert!((p.diag().sum() - 2.0).abs() < 1e-13, "trace P = rank");
        assert!((m.diag().sum() - 2.0).abs() < 1e-13, "trace M = n - rank");
        assert!(m.dot(&x).iter().all(|v| v.abs() < 1e-13), "M X = 0");
        // Residuals of y = 1 + 2t + e, e orthogonal to the columns, are e itself.
        let e = array![1.0, -1.0, -1.0, 1.0];
        let y = array![1.0, 3.0, 5.0, 7.0] + &e;
        assert!((m.dot(&y) - &e).iter().all(|d| d.abs() < 1e-13));
        let pr = project_onto(&array![2.0, 3.0], &array![1.0, 0.0]).expect("ok");
        assert_eq!(pr, array![2.0, 0.0]);
        assert!(project_onto(&array![1.0], &array![0.0]).is_err());
        assert!(project_onto(&array![1.0, 2.0], &array![1.0]).is_err());
    }
}
