//! Isotropic Gaussian blobs (scikit-learn's `make_blobs`).

use ndarray::{Array1, Array2, s};
use ndlearn_core::random::{Rng, stream};
use ndlearn_core::validate::{check_at_least, check_non_negative};
use ndlearn_core::{Error, Result};

use super::{normal_matrix, shuffle_rows, streams, uniform_matrix};

/// Where the blob centres come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Centers {
    /// This many centres, drawn uniformly in [`MakeBlobs::center_box`] per coordinate.
    Count(usize),
    /// These centres, one per row; the number of features is `ncols()` (and
    /// [`MakeBlobs::n_features`] is ignored, as in scikit-learn).
    Given(Array2<f64>),
}

impl From<usize> for Centers {
    fn from(k: usize) -> Self {
        Self::Count(k)
    }
}

impl From<Array2<f64>> for Centers {
    fn from(c: Array2<f64>) -> Self {
        Self::Given(c)
    }
}

/// Standard deviation of the blobs.
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterStd {
    /// The same standard deviation for every blob.
    Same(f64),
    /// One standard deviation per centre.
    PerCenter(Vec<f64>),
}

impl From<f64> for ClusterStd {
    fn from(s: f64) -> Self {
        Self::Same(s)
    }
}

impl From<Vec<f64>> for ClusterStd {
    fn from(s: Vec<f64>) -> Self {
        Self::PerCenter(s)
    }
}

/// Output of [`MakeBlobs::generate`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Blobs {
    /// Samples, `n_samples × n_features`.
    pub x: Array2<f64>,
    /// Blob index of each sample, in `0..n_centers`.
    pub y: Array1<usize>,
    /// The centres, `n_centers × n_features`.
    pub centers: Array2<f64>,
}

/// Isotropic Gaussian blobs for clustering (scikit-learn's `make_blobs`).
///
/// Centre `k` receives `n_samples / n_centers` samples, the first `n_samples % n_centers`
/// centres one more; its samples are `centerₖ + cluster_stdₖ · N(0, I)`. With
/// [`Centers::Count`], the centres are uniform in `center_box` per coordinate. With `shuffle`,
/// the rows are permuted (otherwise they come grouped by blob, blob 0 first).
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 |
/// | `n_features` | 2 | `n_features` | ≥ 1 (ignored with [`Centers::Given`]) |
/// | `centers` | `Count(3)` | `centers` | `Count(k ≥ 1)` or a non-empty finite matrix |
/// | `cluster_std` | `Same(1.0)` | `cluster_std` | finite, ≥ 0; one per centre for `PerCenter` |
/// | `center_box` | `(-10.0, 10.0)` | `center_box` | finite, `lo ≤ hi` |
/// | `shuffle` | `true` | `shuffle` | |
/// | `seed` | 0 | `random_state` | any |
///
/// scikit-learn also accepts a list of per-centre sample counts as `n_samples`; that form is not
/// supported.
///
/// ```
/// use ndlearn_datasets::MakeBlobs;
///
/// let blobs = MakeBlobs::default().n_samples(100).centers(3).cluster_std(0.5).seed(42).generate()?;
/// assert_eq!(blobs.x.dim(), (100, 2));
/// assert_eq!(blobs.centers.dim(), (3, 2));
/// // 100 = 34 + 33 + 33.
/// assert_eq!(blobs.y.iter().filter(|&&k| k == 0).count(), 34);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field, see the table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_blobs")]
pub struct MakeBlobs {
    /// Total number of samples.
    pub n_samples: usize,
    /// Number of features (with [`Centers::Count`]).
    pub n_features: usize,
    /// Number of centres or the centres themselves.
    pub centers: Centers,
    /// Standard deviation of every blob or of each.
    pub cluster_std: ClusterStd,
    /// Bounds `(lo, hi)` of the random centres.
    pub center_box: (f64, f64),
    /// Whether to permute the rows.
    pub shuffle: bool,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeBlobs {
    fn default() -> Self {
        Self {
            n_samples: 100,
            n_features: 2,
            centers: Centers::Count(3),
            cluster_std: ClusterStd::Same(1.0),
            center_box: (-10.0, 10.0),
            shuffle: true,
            seed: 0,
        }
    }
}

impl MakeBlobs {
    /// Sets `n_samples`.
    pub fn n_samples(mut self, v: usize) -> Self {
        self.n_samples = v;
        self
    }
    /// Sets `n_features`.
    pub fn n_features(mut self, v: usize) -> Self {
        self.n_features = v;
        self
    }
    /// Sets `centers` (a count `k` or a matrix of centres).
    pub fn centers(mut self, v: impl Into<Centers>) -> Self {
        self.centers = v.into();
        self
    }
    /// Sets `cluster_std` (one `f64` or a `Vec<f64>` with one per centre).
    pub fn cluster_std(mut self, v: impl Into<ClusterStd>) -> Self {
        self.cluster_std = v.into();
        self
    }
    /// Sets `center_box`.
    pub fn center_box(mut self, lo: f64, hi: f64) -> Self {
        self.center_box = (lo, hi);
        self
    }
    /// Sets `shuffle`.
    pub fn shuffle(mut self, v: bool) -> Self {
        self.shuffle = v;
        self
    }
    /// Sets `seed`.
    pub fn seed(mut self, v: u64) -> Self {
        self.seed = v;
        self
    }

    /// Number of centres.
    fn n_centers(&self) -> usize {
        match &self.centers {
            Centers::Count(k) => *k,
            Centers::Given(c) => c.nrows(),
        }
    }

    /// Checks every field (see the table on [`MakeBlobs`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        match &self.centers {
            Centers::Count(k) => {
                check_at_least("centers", *k, 1)?;
                check_at_least("n_features", self.n_features, 1)?;
            }
            Centers::Given(c) => {
                if c.nrows() == 0 || c.ncols() == 0 {
                    return Err(Error::invalid_param(
                        "centers",
                        format!(
                            "the centre matrix must have at least one row and one column, got {:?}",
                            c.dim()
                        ),
                    ));
                }
                if let Some(v) = c.iter().find(|v| !v.is_finite()) {
                    return Err(Error::invalid_param(
                        "centers",
                        format!("centres must be finite, found {v}"),
                    ));
                }
            }
        }
        match &self.cluster_std {
            ClusterStd::Same(s) => check_non_negative("cluster_std", *s)?,
            ClusterStd::PerCenter(v) => {
                if v.len() != self.n_centers() {
                    return Err(Error::invalid_param(
                        "cluster_std",
                        format!(
                            "needs one standard deviation per centre ({}), got {}",
                            self.n_centers(),
                            v.len()
                        ),
                    ));
                }
                for &s in v {
                    check_non_negative("cluster_std", s)?;
                }
            }
        }
        let (lo, hi) = self.center_box;
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return Err(Error::invalid_param(
                "center_box",
                format!("needs finite bounds with lo <= hi, got ({lo}, {hi})"),
            ));
        }
        Ok(())
    }

    /// Draws the blobs.
    ///
    /// # Errors
    ///
    /// Whatever [`MakeBlobs::validate`] reports.
    pub fn generate(&self) -> Result<Blobs> {
        self.validate()?;
        let mut rng: Rng = stream(self.seed, streams::DATA);
        let centers = match &self.centers {
            Centers::Count(k) => {
                let (lo, hi) = self.center_box;
                uniform_matrix(&mut rng, *k, self.n_features, lo, hi)
            }
            Centers::Given(c) => c.clone(),
        };
        let (k, p) = centers.dim();
        let stds: Vec<f64> = match &self.cluster_std {
            ClusterStd::Same(s) => vec![*s; k],
            ClusterStd::PerCenter(v) => v.clone(),
        };
        let n = self.n_samples;
        let mut x = Array2::<f64>::zeros((n, p));
        let mut y = Array1::<usize>::zeros(n);
        let mut start = 0;
        for (c, &std) in stds.iter().enumerate() {
            let count = n / k + usize::from(c < n % k);
            let stop = start + count;
            let mut block = normal_matrix(&mut rng, count, p);
            block.mapv_inplace(|z| z * std);
            block += &centers.row(c);
            x.slice_mut(s![start..stop, ..]).assign(&block);
            y.slice_mut(s![start..stop]).fill(c);
            start = stop;
        }
        if self.shuffle {
            let mut srng = stream(self.seed, streams::SHUFFLE);
            (x, y) = shuffle_rows(&mut srng, &x, &y);
        }
        Ok(Blobs { x, y, centers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Axis, array};

    fn invalid(m: MakeBlobs) -> &'static str {
        match m.generate() {
            Err(Error::InvalidParam { name, .. }) => name,
            other => panic!("expected InvalidParam, got {other:?}"),
        }
    }

    #[test]
    fn invalid_params() {
        assert_eq!(invalid(MakeBlobs::default().n_samples(0)), "n_samples");
        assert_eq!(invalid(MakeBlobs::default().n_features(0)), "n_features");
        assert_eq!(invalid(MakeBlobs::default().centers(0)), "centers");
        assert_eq!(
            invalid(MakeBlobs::default().centers(Array2::<f64>::zeros((0, 2)))),
            "centers"
        );
        assert_eq!(
            invalid(MakeBlobs::default().centers(array![[f64::NAN, 0.0]])),
            "centers"
        );
        assert_eq!(
            invalid(MakeBlobs::default().cluster_std(-1.0)),
            "cluster_std"
        );
        assert_eq!(
            invalid(MakeBlobs::default().cluster_std(vec![1.0, 2.0])),
            "cluster_std"
        );
        assert_eq!(
            invalid(MakeBlobs::default().center_box(1.0, -1.0)),
            "center_box"
        );
        assert_eq!(
            invalid(MakeBlobs::default().center_box(0.0, f64::INFINITY)),
            "center_box"
        );
    }

    #[test]
    fn even_split_remainder_first() {
        let b = MakeBlobs::default()
            .n_samples(11)
            .centers(4)
            .generate()
            .expect("valid");
        let counts: Vec<usize> = (0..4)
            .map(|k| b.y.iter().filter(|&&c| c == k).count())
            .collect();
        assert_eq!(counts, [3, 3, 3, 2]);
        // Fewer samples than centres: the last centres get none.
        let b = MakeBlobs::default()
            .n_samples(2)
            .centers(3)
            .shuffle(false)
            .generate()
            .expect("valid");
        assert_eq!(b.y, array![0, 1]);
    }

    #[test]
    fn samples_lie_near_their_centres() {
        let b = MakeBlobs::default()
            .n_samples(3000)
            .n_features(3)
            .centers(3)
            .cluster_std(vec![0.5, 1.0, 2.0])
            .seed(7)
            .generate()
            .expect("valid");
        assert!(b.centers.iter().all(|&c| (-10.0..10.0).contains(&c)));
        for k in 0..3 {
            let idx: Vec<usize> = (0..3000).filter(|&i| b.y[i] == k).collect();
            let pts = b.x.select(Axis(0), &idx);
            let mean = pts.mean_axis(Axis(0)).expect("non-empty blob");
            let std = [0.5, 1.0, 2.0][k];
            for j in 0..3 {
                assert!((mean[j] - b.centers[[k, j]]).abs() < 0.2 * std, "blob {k}");
                let sd = pts.column(j).std(0.0);
                assert!((sd - std).abs() < 0.1 * std, "blob {k}: sd {sd} vs {std}");
            }
        }
    }

    #[test]
    fn given_centres_and_zero_std() {
        let c = array![[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]];
        let b = MakeBlobs::default()
            .n_samples(5)
            .n_features(7) // ignored: taken from the centres
            .centers(c.clone())
            .cluster_std(0.0)
            .shuffle(false)
            .generate()
            .expect("valid");
        assert_eq!(b.centers, c);
        assert_eq!(b.x.dim(), (5, 3));
        assert_eq!(b.y, array![0, 0, 0, 1, 1]);
        for (row, &k) in b.x.rows().into_iter().zip(b.y.iter()) {
            assert_eq!(row, c.row(k));
        }
    }

    #[test]
    fn deterministic_per_seed() {
        let a = MakeBlobs::default().seed(3).generate().expect("valid");
        let b = MakeBlobs::default().seed(3).generate().expect("valid");
        let c = MakeBlobs::default().seed(4).generate().expect("valid");
        assert!(
            a.x.iter()
                .zip(b.x.iter())
                .all(|(u, v)| u.to_bits() == v.to_bits())
        );
        assert_eq!(a.y, b.y);
        assert_ne!(a.x, c.x);
        // Shuffling only permutes: same multiset of rows as the unshuffled draw.
        let u = MakeBlobs::default()
            .seed(3)
            .shuffle(false)
            .generate()
            .expect("valid");
        assert_eq!(u.centers, a.centers);
        let mut s1: Vec<u64> = a.x.iter().map(|v| v.to_bits()).collect();
        let mut s2: Vec<u64> = u.x.iter().map(|v| v.to_bits()).collect();
        s1.sort_unstable();
        s2.sort_unstable();
        assert_eq!(s1, s2);
    }
}
