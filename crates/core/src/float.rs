//! The [`Float`] element trait: `f32` or `f64`.
//!
//! # Why a bridge type
//!
//! `ndarray-linalg`'s `Scalar` trait and `num_traits::Float` both define `sqrt`, `abs`, `exp`, ...
//! If one trait carried both as supertraits, every `x.sqrt()` in generic code would be ambiguous.
//! So `Float` carries the `num-traits`/ndarray bounds that algorithm code uses every day, and a
//! hidden associated type [`Float::Lapack`] (always `Self`) that carries the LAPACK bounds. The
//! linear-algebra facade ([`crate::linalg`]) converts views to that type with zero-cost identity
//! functions; no other module ever sees it. This is recorded in `docs/decisions/0001-float-trait.md`.

use std::fmt::{Debug, Display, LowerExp};
use std::iter::Sum;
use std::ops::{AddAssign, DivAssign, MulAssign, SubAssign};

use ndarray::{Array, ArrayView, ArrayView2, ArrayViewMut, ArrayViewMut2, Dimension, NdFloat};
use num_traits::{AsPrimitive, FromPrimitive, Signed, ToPrimitive};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Element type of every ndlearn array: implemented for `f32` and `f64` only (sealed).
///
/// Hyperparameters are stored as `f64` and converted with [`Float::cast`].
pub trait Float:
    NdFloat
    + num_traits::Float
    + FromPrimitive
    + ToPrimitive
    + AsPrimitive<usize>
    + AsPrimitive<f64>
    + Signed
    + Default
    + Sum
    + for<'a> Sum<&'a Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + Debug
    + Display
    + LowerExp
    + Send
    + Sync
    + Unpin
    + 'static
    + sealed::Sealed
{
    /// The same type, seen with the LAPACK bounds of `ndarray-linalg` (used by [`crate::linalg`] only).
    #[doc(hidden)]
    type Lapack: ndarray_linalg::Lapack + ndarray_linalg::Scalar<Real = Self::Lapack> + NdFloat;

    /// Name of the type ("f32" or "f64"), for reports.
    const NAME: &'static str;

    /// Converts any primitive number (e.g. an `f64` hyperparameter, a `usize` count).
    ///
    /// Values that do not fit (out of range of `f32`) become infinity, as `as` casts do.
    fn cast<T: ToPrimitive>(x: T) -> Self;

    /// The value as `f64`.
    fn to_f64_lossless(self) -> f64 {
        AsPrimitive::<f64>::as_(self)
    }

    /// The same view as `f64` elements when `Self` is `f64` (no copy), `None` for `f32`: lets
    /// generic code that computes in `f64` borrow `f64` input instead of converting it.
    ///
    /// ```
    /// use ndlearn_core::Float;
    /// use ndlearn_core::ndarray::array;
    ///
    /// let a = array![[1.0_f64, 2.0]];
    /// assert!(f64::as_f64_view(a.view()).is_some());
    /// assert!(f32::as_f64_view(array![[1.0_f32]].view()).is_none());
    /// ```
    fn as_f64_view<D: Dimension>(a: ArrayView<'_, Self, D>) -> Option<ArrayView<'_, f64, D>>;

    #[doc(hidden)]
    fn view_lapack<D: Dimension>(a: ArrayView<'_, Self, D>) -> ArrayView<'_, Self::Lapack, D>;
    #[doc(hidden)]
    fn view_mut_lapack<D: Dimension>(
        a: ArrayViewMut<'_, Self, D>,
    ) -> ArrayViewMut<'_, Self::Lapack, D>;
    #[doc(hidden)]
    fn into_lapack<D: Dimension>(a: Array<Self, D>) -> Array<Self::Lapack, D>;
    #[doc(hidden)]
    fn from_lapack<D: Dimension>(a: Array<Self::Lapack, D>) -> Array<Self, D>;
    #[doc(hidden)]
    fn from_lapack_scalar(x: Self::Lapack) -> Self;
    #[doc(hidden)]
    fn to_lapack_scalar(self) -> Self::Lapack;
    /// Eigen-decomposition of the symmetric `n × n` matrix in `a` (read as column-major, its
    /// upper triangle) by LAPACK's divide-and-conquer `?syevd`: eigenvalues ascending and the
    /// eigenvectors column-major in `a`; `None` if LAPACK reports an error. Used by
    /// [`crate::linalg::eigh`].
    #[doc(hidden)]
    fn syevd(a: Vec<Self>, n: usize) -> Option<(Vec<Self>, Vec<Self>)>;
    /// Eigenpairs `il..=iu` (1-based, ascending order) of the symmetric `n × n` matrix in `a`
    /// (read as column-major, its upper triangle; overwritten) by LAPACK's MRRR driver
    /// `?syevr`: the `iu − il + 1` eigenvalues ascending and their eigenvectors column-major
    /// (`n × m`); `None` if LAPACK reports an error. Its workspace is `O(n)` (26 n values and
    /// 10 n integers) where `?syevd`'s is `O(n²)`. Used by [`crate::linalg::eigh_range`].
    #[doc(hidden)]
    fn syevr(a: &mut [Self], n: usize, il: usize, iu: usize) -> Option<(Vec<Self>, Vec<Self>)>;
    /// Cholesky factorisation in place by LAPACK's `?potrf` of the symmetric `n × n` matrix in
    /// `a`, read as column-major with its upper triangle (`A = UᵀU`): for a row-major buffer,
    /// the lower triangle and `A = L Lᵀ`, with no transposition. `Err(info)` as LAPACK reports
    /// it (`info > 0`: the leading minor of that order is not positive definite). Used by
    /// [`crate::linalg::CholeskyFactor`].
    #[doc(hidden)]
    fn potrf(a: &mut [Self], n: usize) -> std::result::Result<(), i32>;
    /// Solves `A X = B` by LAPACK's `?potrs` from a factor of [`Float::potrf`] (same layout),
    /// `B` column-major `n × nrhs` in `b`, overwritten by `X`.
    #[doc(hidden)]
    fn potrs(
        factor: &[Self],
        n: usize,
        b: &mut [Self],
        nrhs: usize,
    ) -> std::result::Result<(), i32>;
    /// `C ← α A B + β C` by matrixmultiply's portable kernels (runtime AVX2/FMA detection), in
    /// the calling thread; with `β = 0`, `C` is overwritten without being read (NaN in `C`
    /// does not propagate). Returns `false`, computing nothing, when the shapes do not agree.
    /// Used by [`crate::linalg::gemm`], which splits large products over rayon.
    #[doc(hidden)]
    fn gemm_block(
        alpha: Self,
        a: ArrayView2<'_, Self>,
        b: ArrayView2<'_, Self>,
        beta: Self,
        c: ArrayViewMut2<'_, Self>,
    ) -> bool;
}

/// `Float::as_f64_view` of `f64`: the view itself.
fn same_view<D: Dimension>(a: ArrayView<'_, f64, D>) -> Option<ArrayView<'_, f64, D>> {
    Some(a)
}

/// `Float::as_f64_view` of the other types: none.
fn no_f64_view<A, D: Dimension>(_: ArrayView<'_, A, D>) -> Option<ArrayView<'_, f64, D>> {
    None
}

macro_rules! impl_float {
    (
        $t:ty,
        $name:expr,
        $as_f64:ident,
        $syevd:ident,
        $syevr:ident,
        $potrf:ident,
        $potrs:ident,
        $gemm:ident
    ) => {
        impl Float for $t {
            type Lapack = $t;
            const NAME: &'static str = $name;

            #[inline]
            fn as_f64_view<D: Dimension>(
                a: ArrayView<'_, Self, D>,
            ) -> Option<ArrayView<'_, f64, D>> {
                $as_f64(a)
            }

            #[inline]
            fn cast<T: ToPrimitive>(x: T) -> Self {
                // `to_f64` is infallible for every primitive; `as` saturates to +-inf like a cast.
                x.to_f64().map(|v| v as $t).unwrap_or(<$t>::NAN)
            }
            #[inline]
            fn view_lapack<D: Dimension>(a: ArrayView<'_, Self, D>) -> ArrayView<'_, $t, D> {
                a
            }
            #[inline]
            fn view_mut_lapack<D: Dimension>(
                a: ArrayViewMut<'_, Self, D>,
            ) -> ArrayViewMut<'_, $t, D> {
                a
            }
            #[inline]
            fn into_lapack<D: Dimension>(a: Array<Self, D>) -> Array<$t, D> {
                a
            }
            #[inline]
            fn from_lapack<D: Dimension>(a: Array<$t, D>) -> Array<Self, D> {
                a
            }
            #[inline]
            fn from_lapack_scalar(x: $t) -> Self {
                x
            }
            #[inline]
            fn to_lapack_scalar(self) -> $t {
                self
            }
            // The one place the workspace calls LAPACK itself (decision 0013): ndarray-linalg's
            // `eigh` runs `?syev`, whose QR sweeps for the eigenvectors are ~10× slower than
            // the divide-and-conquer `?syevd` from a few hundred rows up.
            #[allow(unsafe_code)]
            fn syevd(mut a: Vec<$t>, n: usize) -> Option<(Vec<$t>, Vec<$t>)> {
                use std::os::raw::c_char;
                if n == 0 || a.len() != n * n {
                    return None;
                }
                let ni = i32::try_from(n).ok()?;
                let (jobz, uplo) = (b'V' as c_char, b'U' as c_char);
                let mut w = vec![0.0 as $t; n];
                let mut info = 0i32;
                let mut work_query = [0.0 as $t; 1];
                let mut iwork_query = [0i32; 1];
                let query = -1i32;
                // SAFETY: workspace query (lwork = liwork = -1): `a` holds n × n values
                // (lda = n), `w` n values, the query buffers one value each; all outlive the
                // call, and n fits in i32.
                unsafe {
                    lapack_sys::$syevd(
                        &jobz,
                        &uplo,
                        &ni,
                        a.as_mut_ptr(),
                        &ni,
                        w.as_mut_ptr(),
                        work_query.as_mut_ptr(),
                        &query,
                        iwork_query.as_mut_ptr(),
                        &query,
                        &mut info,
                    );
                }
                if info != 0 {
                    return None;
                }
                // the documented minimums as floors: a single-precision query result can round
                // below the exact size for large n
                let lwork = ((work_query[0] as f64).ceil() as usize).max(1 + 6 * n + 2 * n * n);
                let liwork = usize::try_from(iwork_query[0]).ok()?.max(3 + 5 * n);
                let mut work = vec![0.0 as $t; lwork];
                let mut iwork = vec![0i32; liwork];
                let lw = i32::try_from(lwork).ok()?;
                let liw = i32::try_from(liwork).ok()?;
                // SAFETY: as above, with `work` and `iwork` of the lengths LAPACK asked for
                // (passed as lwork and liwork).
                unsafe {
                    lapack_sys::$syevd(
                        &jobz,
                        &uplo,
                        &ni,
                        a.as_mut_ptr(),
                        &ni,
                        w.as_mut_ptr(),
                        work.as_mut_ptr(),
                        &lw,
                        iwork.as_mut_ptr(),
                        &liw,
                        &mut info,
                    );
                }
                (info == 0).then_some((w, a))
            }
            // MRRR for a range of eigenpairs (PCA's top k, spectral clustering's bottom k):
            // O(n) workspace and O(n m) work for the vectors after the tridiagonal reduction.
            #[allow(unsafe_code)]
            fn syevr(a: &mut [$t], n: usize, il: usize, iu: usize) -> Option<(Vec<$t>, Vec<$t>)> {
                use std::os::raw::c_char;
                if n == 0 || a.len() != n * n || il == 0 || il > iu || iu > n {
                    return None;
                }
                let ni = i32::try_from(n).ok()?;
                let (il_i, iu_i) = (i32::try_from(il).ok()?, i32::try_from(iu).ok()?);
                let (jobz, range, uplo) = (b'V' as c_char, b'I' as c_char, b'U' as c_char);
                let (vl, vu, abstol) = (0.0 as $t, 0.0 as $t, 0.0 as $t);
                let m_max = iu - il + 1;
                let mut w = vec![0.0 as $t; n];
                let mut z = vec![0.0 as $t; n * m_max];
                let mut isuppz = vec![0i32; 2 * m_max];
                // one LAPACK call with the given workspace: (info, eigenvalues found)
                let mut call = |work: &mut [$t], lwork: i32, iwork: &mut [i32], liwork: i32| {
                    let (mut m_found, mut info) = (0i32, 0i32);
                    // SAFETY: `a` holds n × n values (lda = n), `w` n values, `z` n × m_max
                    // (ldz = n) with m_max = iu − il + 1 the most LAPACK writes for
                    // RANGE = 'I', `isuppz` 2 m_max; `work` / `iwork` hold at least lwork /
                    // liwork values (the workspace query passes −1 with one value each); all
                    // outlive the call, and every size fits in i32.
                    unsafe {
                        lapack_sys::$syevr(
                            &jobz,
                            &range,
                            &uplo,
                            &ni,
                            a.as_mut_ptr(),
                            &ni,
                            &vl,
                            &vu,
                            &il_i,
                            &iu_i,
                            &abstol,
                            &mut m_found,
                            w.as_mut_ptr(),
                            z.as_mut_ptr(),
                            &ni,
                            isuppz.as_mut_ptr(),
                            work.as_mut_ptr(),
                            &lwork,
                            iwork.as_mut_ptr(),
                            &liwork,
                            &mut info,
                        );
                    }
                    (info, m_found)
                };
                let (mut work_query, mut iwork_query) = ([0.0 as $t; 1], [0i32; 1]);
                if call(&mut work_query, -1, &mut iwork_query, -1).0 != 0 {
                    return None;
                }
                // the query's optimum ((nb + 6) n, a blocked tridiagonal reduction) with the
                // documented minimums (26 n, 10 n) as floors
                let lwork = ((work_query[0] as f64).ceil() as usize).max(26 * n);
                let liwork = usize::try_from(iwork_query[0]).ok()?.max(10 * n);
                let mut work = vec![0.0 as $t; lwork];
                let mut iwork = vec![0i32; liwork];
                let lw = i32::try_from(lwork).ok()?;
                let liw = i32::try_from(liwork).ok()?;
                let (info, m_found) = call(&mut work, lw, &mut iwork, liw);
                if info != 0 || usize::try_from(m_found).ok()? != m_max {
                    return None;
                }
                w.truncate(m_max);
                Some((w, z))
            }
            // Decision 0022: ndarray-linalg's Cholesky transposes a row-major input in and out
            // and its triangular solves copy the factor; for a symmetric matrix neither is
            // needed (the row-major lower triangle is LAPACK's column-major upper one).
            #[allow(unsafe_code)]
            fn potrf(a: &mut [$t], n: usize) -> std::result::Result<(), i32> {
                use std::os::raw::c_char;
                if a.len() != n * n {
                    return Err(-4);
                }
                if n == 0 {
                    return Ok(());
                }
                let ni = i32::try_from(n).map_err(|_| -2)?;
                let uplo = b'U' as c_char;
                let mut info = 0i32;
                // SAFETY: `a` holds n × n values (lda = n, checked above), n fits in i32, and
                // every pointer outlives the call.
                unsafe {
                    lapack_sys::$potrf(&uplo, &ni, a.as_mut_ptr(), &ni, &mut info);
                }
                if info == 0 { Ok(()) } else { Err(info) }
            }
            #[allow(unsafe_code)]
            fn potrs(
                factor: &[$t],
                n: usize,
                b: &mut [$t],
                nrhs: usize,
            ) -> std::result::Result<(), i32> {
                use std::os::raw::c_char;
                if factor.len() != n * n || b.len() != n * nrhs {
                    return Err(-5);
                }
                if n == 0 || nrhs == 0 {
                    return Ok(());
                }
                let ni = i32::try_from(n).map_err(|_| -2)?;
                let ki = i32::try_from(nrhs).map_err(|_| -3)?;
                let uplo = b'U' as c_char;
                let mut info = 0i32;
                // SAFETY: `factor` holds n × n values (lda = n), `b` n × nrhs (ldb = n), both
                // checked above; sizes fit in i32; LAPACK only reads `factor`.
                unsafe {
                    lapack_sys::$potrs(
                        &uplo,
                        &ni,
                        &ki,
                        factor.as_ptr(),
                        &ni,
                        b.as_mut_ptr(),
                        &ni,
                        &mut info,
                    );
                }
                if info == 0 { Ok(()) } else { Err(info) }
            }
            // Decision 0029: the portable GEMM. matrixmultiply takes raw pointers and element
            // strides, which is what makes it usable on any ndarray view.
            #[allow(unsafe_code)]
            fn gemm_block(
                alpha: $t,
                a: ArrayView2<'_, $t>,
                b: ArrayView2<'_, $t>,
                beta: $t,
                mut c: ArrayViewMut2<'_, $t>,
            ) -> bool {
                let ((m, k), (k2, n)) = (a.dim(), b.dim());
                if k != k2 || c.dim() != (m, n) {
                    return false;
                }
                if m == 0 || n == 0 {
                    return true;
                }
                let (sa, sb) = (a.strides(), b.strides());
                let sc = [c.strides()[0], c.strides()[1]];
                // A mutable view never aliases its own elements (ndarray's invariant), so
                // C's strides meet matrixmultiply's only requirement; a length-1 axis may carry
                // any stride, which matrixmultiply never steps along.
                // SAFETY: `a` is m × k, `b` k × n and `c` m × n (checked above), each pointer
                // addresses its view's first element and the strides are the views' own, so
                // every element matrixmultiply touches lies inside a live view; `c` is borrowed
                // mutably for the call and does not overlap `a` or `b` (a `&mut` borrow
                // excludes that).
                unsafe {
                    matrixmultiply::$gemm(
                        m,
                        k,
                        n,
                        alpha,
                        a.as_ptr(),
                        sa[0],
                        sa[1],
                        b.as_ptr(),
                        sb[0],
                        sb[1],
                        beta,
                        c.as_mut_ptr(),
                        sc[0],
                        sc[1],
                    );
                }
                true
            }
        }
    };
}

impl_float!(
    f32,
    "f32",
    no_f64_view,
    ssyevd_,
    ssyevr_,
    spotrf_,
    spotrs_,
    sgemm
);
impl_float!(
    f64, "f64", same_view, dsyevd_, dsyevr_, dpotrf_, dpotrs_, dgemm
);

#[cfg(test)]
mod tests {
    use super::*;

    fn generic_sqrt<F: Float>(x: F) -> F {
        // Must compile without ambiguity: the point of the bridge design.
        x.sqrt()
    }

    #[test]
    fn cast_and_methods_are_unambiguous() {
        assert_eq!(generic_sqrt(4.0f64), 2.0);
        assert_eq!(generic_sqrt(9.0f32), 3.0);
        assert_eq!(f32::cast(1e300f64), f32::INFINITY);
        assert_eq!(f64::cast(3usize), 3.0);
        assert_eq!(<f32 as Float>::NAME, "f32");
        assert_eq!(2.5f32.to_f64_lossless(), 2.5);
    }
}
