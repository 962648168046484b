//! Guyon's random classification problem (scikit-learn's `make_classification`).

use std::collections::HashSet;

use ndarray::{Array1, Array2, Axis, s};
use ndlearn_core::random::{Rng, sample_without_replacement, stream};
use ndlearn_core::validate::{check_at_least, check_in_range, check_non_negative};
use ndlearn_core::{Error, Result};
use rand::Rng as _;

use super::{normal_matrix, streams, uniform_matrix};

/// A per-feature value (the `shift` and `scale` of [`MakeClassification`]).
#[derive(Debug, Clone, PartialEq)]
pub enum PerFeature {
    /// The same value for every feature.
    All(f64),
    /// One value per feature (length `n_features`).
    Each(Vec<f64>),
    /// Random values: shift uniform in `[-class_sep, class_sep)`, scale uniform in `[1, 101)`
    /// (scikit-learn's `None`).
    Random,
}

impl From<f64> for PerFeature {
    fn from(v: f64) -> Self {
        Self::All(v)
    }
}

impl From<Vec<f64>> for PerFeature {
    fn from(v: Vec<f64>) -> Self {
        Self::Each(v)
    }
}

/// A random `n_classes`-class problem (Guyon 2003; scikit-learn's `make_classification`).
///
/// Construction, in order:
///
/// 1. `n_classes · n_clusters_per_class` clusters; cluster `k` belongs to class
///    `k mod n_classes`. Class `c` gets the share `weights[c]` of the samples, split evenly among
///    its clusters (rounded down; the leftover samples go one each to clusters `0, 1, 2, …`).
/// 2. The cluster centroids are distinct vertices of the hypercube `{-class_sep, +class_sep}` in
///    the `n_informative` dimensions. With `hypercube = false` each centroid is further multiplied
///    by a random factor in `[0, 2)` and each dimension by one in `[0, 1)` (random polytope).
/// 3. The informative features of a cluster's samples are `N(0, I) · A + centroid` with a random
///    `A` uniform in `[-1, 1)` per cluster (covariance `AᵀA`).
/// 4. Redundant features: `X_inf · B` with `B` uniform in `[-1, 1)` (`n_informative ×
///    n_redundant`), i.e. exact random linear combinations of the informative ones.
/// 5. Repeated features: copies of informative or redundant columns chosen at random.
/// 6. The remaining `n_features − n_informative − n_redundant − n_repeated` features are
///    `N(0, 1)` noise.
/// 7. Label noise: each label is, with probability `flip_y`, replaced by a uniformly random
///    class (which may be the same one).
/// 8. `x = (x + shift) · scale`, per feature.
/// 9. With `shuffle`, the rows **and the columns** are permuted. Without it, the columns are
///    `[informative | redundant | repeated | noise]` and the rows come grouped by cluster.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 |
/// | `n_features` | 20 | `n_features` | ≥ `n_informative + n_redundant + n_repeated` |
/// | `n_informative` | 2 | `n_informative` | ≥ 1, `n_classes · n_clusters_per_class ≤ 2^n_informative` |
/// | `n_redundant` | 2 | `n_redundant` | |
/// | `n_repeated` | 0 | `n_repeated` | |
/// | `n_classes` | 2 | `n_classes` | ≥ 1 |
/// | `n_clusters_per_class` | 2 | `n_clusters_per_class` | ≥ 1 |
/// | `weights` | `None` (balanced) | `weights` | `n_classes` values (normalised to sum 1) or `n_classes − 1` values with sum ≤ 1 (the last class gets the rest); finite, ≥ 0 |
/// | `flip_y` | 0.01 | `flip_y` | `[0, 1]` |
/// | `class_sep` | 1.0 | `class_sep` | finite, ≥ 0 |
/// | `hypercube` | `true` | `hypercube` | |
/// | `shift` | `All(0.0)` | `shift` | finite; `Each` of length `n_features` |
/// | `scale` | `All(1.0)` | `scale` | finite; `Each` of length `n_features` |
/// | `shuffle` | `true` | `shuffle` | |
/// | `seed` | 0 | `random_state` | any |
///
/// Random streams: the samples, the label noise and the permutations use separate streams of
/// the seed, so changing `flip_y` changes only `y`.
///
/// ```
/// use ndlearn_datasets::MakeClassification;
///
/// let (x, y) = MakeClassification::default()
///     .n_samples(200)
///     .n_features(6)
///     .n_informative(3)
///     .n_redundant(1)
///     .n_classes(3)
///     .seed(1)
///     .generate()?;
/// assert_eq!(x.dim(), (200, 6));
/// assert!(y.iter().all(|&c| c < 3));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field, see the table.
///
/// # Reference
///
/// I. Guyon, "Design of experiments for the NIPS 2003 variable selection benchmark", 2003.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_classification")]
pub struct MakeClassification {
    /// Number of samples.
    pub n_samples: usize,
    /// Total number of features.
    pub n_features: usize,
    /// Number of informative features.
    pub n_informative: usize,
    /// Number of redundant features (linear combinations of the informative ones).
    pub n_redundant: usize,
    /// Number of duplicated features.
    pub n_repeated: usize,
    /// Number of classes.
    pub n_classes: usize,
    /// Number of Gaussian clusters per class.
    pub n_clusters_per_class: usize,
    /// Class proportions; `None` = balanced.
    pub weights: Option<Vec<f64>>,
    /// Fraction of labels replaced by random ones.
    pub flip_y: f64,
    /// Half the side of the hypercube (larger = easier).
    pub class_sep: f64,
    /// Centroids on the hypercube vertices (`true`) or on a random polytope.
    pub hypercube: bool,
    /// Added to every feature (before `scale`).
    pub shift: PerFeature,
    /// Multiplies every feature (after `shift`).
    pub scale: PerFeature,
    /// Whether to permute rows and columns.
    pub shuffle: bool,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeClassification {
    fn default() -> Self {
        Self {
            n_samples: 100,
            n_features: 20,
            n_informative: 2,
            n_redundant: 2,
            n_repeated: 0,
            n_classes: 2,
            n_clusters_per_class: 2,
            weights: None,
            flip_y: 0.01,
            class_sep: 1.0,
            hypercube: true,
            shift: PerFeature::All(0.0),
            scale: PerFeature::All(1.0),
            shuffle: true,
            seed: 0,
        }
    }
}

impl MakeClassification {
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
    /// Sets `n_informative`.
    pub fn n_informative(mut self, v: usize) -> Self {
        self.n_informative = v;
        self
    }
    /// Sets `n_redundant`.
    pub fn n_redundant(mut self, v: usize) -> Self {
        self.n_redundant = v;
        self
    }
    /// Sets `n_repeated`.
    pub fn n_repeated(mut self, v: usize) -> Self {
        self.n_repeated = v;
        self
    }
    /// Sets `n_classes`.
    pub fn n_classes(mut self, v: usize) -> Self {
        self.n_classes = v;
        self
    }
    /// Sets `n_clusters_per_class`.
    pub fn n_clusters_per_class(mut self, v: usize) -> Self {
        self.n_clusters_per_class = v;
        self
    }
    /// Sets `weights`.
    pub fn weights(mut self, v: Vec<f64>) -> Self {
        self.weights = Some(v);
        self
    }
    /// Sets `flip_y`.
    pub fn flip_y(mut self, v: f64) -> Self {
        self.flip_y = v;
        self
    }
    /// Sets `class_sep`.
    pub fn class_sep(mut self, v: f64) -> Self {
        self.class_sep = v;
        self
    }
    /// Sets `hypercube`.
    pub fn hypercube(mut self, v: bool) -> Self {
        self.hypercube = v;
        self
    }
    /// Sets `shift` (an `f64`, a `Vec<f64>`, or [`PerFeature::Random`]).
    pub fn shift(mut self, v: impl Into<PerFeature>) -> Self {
        self.shift = v.into();
        self
    }
    /// Sets `scale` (an `f64`, a `Vec<f64>`, or [`PerFeature::Random`]).
    pub fn scale(mut self, v: impl Into<PerFeature>) -> Self {
        self.scale = v.into();
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

    /// Checks every field (see the table on [`MakeClassification`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        check_at_least("n_features", self.n_features, 1)?;
        check_at_least("n_informative", self.n_informative, 1)?;
        check_at_least("n_classes", self.n_classes, 1)?;
        check_at_least("n_clusters_per_class", self.n_clusters_per_class, 1)?;
        let used = self
            .n_informative
            .saturating_add(self.n_redundant)
            .saturating_add(self.n_repeated);
        if used > self.n_features {
            return Err(Error::invalid_param(
                "n_features",
                format!(
                    "n_informative + n_redundant + n_repeated = {used} must be <= n_features = {}",
                    self.n_features
                ),
            ));
        }
        let n_clusters = self.n_classes.saturating_mul(self.n_clusters_per_class);
        // 2^n_informative without overflow: n_informative >= usize::BITS is always enough.
        let vertices = u32::try_from(self.n_informative)
            .ok()
            .and_then(|d| 1usize.checked_shl(d))
            .unwrap_or(usize::MAX);
        if n_clusters > vertices {
            return Err(Error::invalid_param(
                "n_informative",
                format!(
                    "n_classes * n_clusters_per_class = {n_clusters} clusters need distinct hypercube vertices, \
                     but 2^n_informative = {vertices}; raise n_informative or lower the cluster count"
                ),
            ));
        }
        if let Some(w) = &self.weights {
            self.class_weights_from(w)?;
        }
        check_in_range("flip_y", self.flip_y, 0.0, 1.0)?;
        check_non_negative("class_sep", self.class_sep)?;
        check_per_feature("shift", &self.shift, self.n_features)?;
        check_per_feature("scale", &self.scale, self.n_features)?;
        Ok(())
    }

    /// The class proportions, summing to 1.
    fn class_weights_from(&self, w: &[f64]) -> Result<Vec<f64>> {
        let k = self.n_classes;
        if let Some((i, v)) = w
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
        {
            return Err(Error::invalid_param(
                "weights",
                format!("weights must be finite and >= 0; entry {i} is {v}"),
            ));
        }
        let sum: f64 = w.iter().sum();
        if w.len() == k {
            if sum <= 0.0 {
                return Err(Error::invalid_param(
                    "weights",
                    "weights must have a positive sum",
                ));
            }
            Ok(w.iter().map(|v| v / sum).collect())
        } else if w.len() + 1 == k {
            if sum > 1.0 + 1e-12 {
                return Err(Error::invalid_param(
                    "weights",
                    format!(
                        "with n_classes - 1 = {} weights the last class gets 1 - sum, but the sum is {sum}",
                        w.len()
                    ),
                ));
            }
            let mut full = w.to_vec();
            full.push((1.0 - sum).max(0.0));
            Ok(full)
        } else {
            Err(Error::invalid_param(
                "weights",
                format!(
                    "needs n_classes = {k} or n_classes - 1 = {} weights, got {}",
                    k - 1,
                    w.len()
                ),
            ))
        }
    }

    /// Draws the data set: `(x, y)` with `x` of shape `n_samples × n_features` and labels in
    /// `0..n_classes`.
    ///
    /// # Errors
    ///
    /// Whatever [`MakeClassification::validate`] reports.
    pub fn generate(&self) -> Result<(Array2<f64>, Array1<usize>)> {
        self.validate()?;
        let n = self.n_samples;
        let p = self.n_features;
        let n_inf = self.n_informative;
        let n_red = self.n_redundant;
        let n_rep = self.n_repeated;
        let n_useless = p - n_inf - n_red - n_rep;
        let n_classes = self.n_classes;
        let n_clusters = n_classes * self.n_clusters_per_class;
        let sep = self.class_sep;

        let weights = match &self.weights {
            Some(w) => self.class_weights_from(w)?,
            None => vec![1.0 / n_classes as f64; n_classes],
        };
        let per_cluster = cluster_sizes(n, &weights, self.n_clusters_per_class);

        let mut rng: Rng = stream(self.seed, streams::DATA);
        let mut centroids = hypercube_vertices(&mut rng, n_clusters, n_inf)?;
        centroids.mapv_inplace(|b| b * 2.0 * sep - sep);
        if !self.hypercube {
            let row_factor = uniform_matrix(&mut rng, n_clusters, 1, 0.0, 2.0);
            let col_factor = uniform_matrix(&mut rng, 1, n_inf, 0.0, 1.0);
            centroids = centroids * &row_factor * &col_factor;
        }

        let mut x = Array2::<f64>::zeros((n, p));
        x.slice_mut(s![.., ..n_inf])
            .assign(&normal_matrix(&mut rng, n, n_inf));
        let mut y = Array1::<usize>::zeros(n);
        let mut start = 0;
        for (k, &count) in per_cluster.iter().enumerate() {
            let stop = start + count;
            y.slice_mut(s![start..stop]).fill(k % n_classes);
            let a = uniform_matrix(&mut rng, n_inf, n_inf, -1.0, 1.0);
            let mut block = x.slice(s![start..stop, ..n_inf]).dot(&a);
            block += &centroids.row(k);
            x.slice_mut(s![start..stop, ..n_inf]).assign(&block);
            start = stop;
        }

        if n_red > 0 {
            let b = uniform_matrix(&mut rng, n_inf, n_red, -1.0, 1.0);
            let red = x.slice(s![.., ..n_inf]).dot(&b);
            x.slice_mut(s![.., n_inf..n_inf + n_red]).assign(&red);
        }
        if n_rep > 0 {
            let m = n_inf + n_red;
            for r in 0..n_rep {
                // Uniform over 0..m (rounding (m - 1) U, as scikit-learn does).
                let src = (((m - 1) as f64) * rng.random::<f64>() + 0.5) as usize;
                let col = x.column(src.min(m - 1)).to_owned();
                x.column_mut(m + r).assign(&col);
            }
        }
        if n_useless > 0 {
            x.slice_mut(s![.., p - n_useless..])
                .assign(&normal_matrix(&mut rng, n, n_useless));
        }

        if self.flip_y > 0.0 {
            let mut frng = stream(self.seed, streams::FLIP);
            for label in y.iter_mut() {
                if frng.random::<f64>() < self.flip_y {
                    *label = frng.random_range(0..n_classes);
                }
            }
        }

        let shift = per_feature_values(&self.shift, p, &mut rng, -sep, sep);
        let scale = per_feature_values(&self.scale, p, &mut rng, 1.0, 101.0);
        x += &shift;
        x *= &scale;

        if self.shuffle {
            let mut srng = stream(self.seed, streams::SHUFFLE);
            let rows = ndlearn_core::random::permutation(&mut srng, n);
            let cols = ndlearn_core::random::permutation(&mut srng, p);
            x = x.select(Axis(0), &rows).select(Axis(1), &cols);
            y = y.select(Axis(0), &rows);
        }
        Ok((x, y))
    }
}

fn check_per_feature(name: &'static str, v: &PerFeature, p: usize) -> Result<()> {
    match v {
        PerFeature::Random => Ok(()),
        PerFeature::All(a) if a.is_finite() => Ok(()),
        PerFeature::All(a) => Err(Error::invalid_param(
            name,
            format!("must be finite, got {a}"),
        )),
        PerFeature::Each(values) => {
            if values.len() != p {
                return Err(Error::invalid_param(
                    name,
                    format!("needs one value per feature ({p}), got {}", values.len()),
                ));
            }
            match values.iter().find(|a| !a.is_finite()) {
                Some(a) => Err(Error::invalid_param(
                    name,
                    format!("must be finite, found {a}"),
                )),
                None => Ok(()),
            }
        }
    }
}

/// The `p` values of a [`PerFeature`]; `Random` draws uniform values in `[lo, hi)`.
fn per_feature_values(v: &PerFeature, p: usize, rng: &mut Rng, lo: f64, hi: f64) -> Array1<f64> {
    match v {
        PerFeature::All(a) => Array1::from_elem(p, *a),
        PerFeature::Each(values) => Array1::from(values.clone()),
        PerFeature::Random => uniform_matrix(rng, 1, p, lo, hi).remove_axis(Axis(0)),
    }
}

/// Samples per cluster: `floor(n · w[k mod c] / clusters_per_class)`, then the leftover one each
/// to clusters `0, 1, 2, …` (cyclically).
fn cluster_sizes(n: usize, weights: &[f64], clusters_per_class: usize) -> Vec<usize> {
    let n_classes = weights.len();
    let n_clusters = n_classes * clusters_per_class;
    let mut sizes: Vec<usize> = (0..n_clusters)
        .map(|k| (n as f64 * weights[k % n_classes] / clusters_per_class as f64) as usize)
        .collect();
    // Rounding cannot push the total above n by more than a sample or two; trim from the end.
    let mut total: usize = sizes.iter().sum();
    let mut k = n_clusters;
    while total > n {
        k = if k == 0 { n_clusters - 1 } else { k - 1 };
        if sizes[k] > 0 {
            sizes[k] -= 1;
            total -= 1;
        }
    }
    for i in 0..(n - total) {
        sizes[i % n_clusters] += 1;
    }
    sizes
}

/// `count` distinct vertices of the unit hypercube `{0, 1}^dim` (as 0.0 / 1.0), in random order.
///
/// The first `min(dim, 62)` coordinates are the bits of distinct random integers; any further
/// coordinates are independent random bits (distinctness already holds).
fn hypercube_vertices(rng: &mut Rng, count: usize, dim: usize) -> Result<Array2<f64>> {
    let d0 = dim.min(62);
    let space: u64 = 1u64 << d0;
    let codes: Vec<u64> = if (count as u64).saturating_mul(4) >= space {
        // Dense: a partial shuffle of the whole (small) vertex set.
        let all = usize::try_from(space).map_err(|_| {
            Error::invalid_param(
                "n_informative",
                "too many hypercube vertices for this platform",
            )
        })?;
        sample_without_replacement(rng, all, count)?
            .into_iter()
            .map(|v| v as u64)
            .collect()
    } else {
        // Sparse: rejection sampling, fewer than 4/3 draws per vertex on average.
        let mut seen = HashSet::with_capacity(count);
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let v = rng.random_range(0..space);
            if seen.insert(v) {
                out.push(v);
            }
        }
        out
    };
    let mut out = Array2::<f64>::zeros((count, dim));
    for (i, code) in codes.iter().enumerate() {
        for j in 0..d0 {
            out[[i, j]] = ((code >> j) & 1) as f64;
        }
        for j in d0..dim {
            out[[i, j]] = f64::from(u8::from(rng.random::<bool>()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndlearn_core::linalg::matrix_rank;

    fn invalid(m: MakeClassification) -> &'static str {
        match m.generate() {
            Err(Error::InvalidParam { name, .. }) => name,
            other => panic!("expected InvalidParam, got {other:?}"),
        }
    }

    #[test]
    fn invalid_params() {
        let d = MakeClassification::default;
        assert_eq!(invalid(d().n_samples(0)), "n_samples");
        assert_eq!(invalid(d().n_features(0)), "n_features");
        assert_eq!(invalid(d().n_informative(0)), "n_informative");
        assert_eq!(invalid(d().n_classes(0)), "n_classes");
        assert_eq!(invalid(d().n_clusters_per_class(0)), "n_clusters_per_class");
        assert_eq!(
            invalid(d().n_features(5).n_informative(3).n_redundant(3)),
            "n_features"
        );
        assert_eq!(
            invalid(d().n_features(4).n_repeated(1).n_redundant(2)),
            "n_features"
        );
        // 3 classes x 2 clusters = 6 > 2^2.
        assert_eq!(invalid(d().n_classes(3)), "n_informative");
        assert_eq!(invalid(d().weights(vec![0.5, 0.3, 0.2])), "weights");
        assert_eq!(invalid(d().weights(vec![1.5])), "weights");
        assert_eq!(invalid(d().weights(vec![-0.1, 1.1])), "weights");
        assert_eq!(invalid(d().weights(vec![0.0, 0.0])), "weights");
        assert_eq!(invalid(d().flip_y(1.5)), "flip_y");
        assert_eq!(invalid(d().class_sep(-1.0)), "class_sep");
        assert_eq!(invalid(d().shift(vec![1.0; 3])), "shift");
        assert_eq!(invalid(d().scale(f64::NAN)), "scale");
        // Boundary cases that are valid.
        assert!(d().n_classes(4).n_clusters_per_class(1).generate().is_ok());
        assert!(d().n_features(4).n_redundant(2).generate().is_ok());
        assert!(
            d().n_informative(70)
                .n_redundant(0)
                .n_features(70)
                .n_samples(5)
                .generate()
                .is_ok()
        );
    }

    #[test]
    fn shapes_and_balanced_labels() {
        let (x, y) = MakeClassification::default()
            .n_samples(101)
            .n_classes(3)
            .n_informative(3)
            .flip_y(0.0)
            .generate()
            .expect("valid");
        assert_eq!(x.dim(), (101, 20));
        let counts: Vec<usize> = (0..3)
            .map(|c| y.iter().filter(|&&k| k == c).count())
            .collect();
        // 6 clusters of floor(101 / 6) = 16, leftover 5 to clusters 0..4 -> classes 0,1,2,0,1.
        assert_eq!(counts, [34, 34, 33]);
        assert!(x.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn weights_set_class_proportions() {
        let (_, y) = MakeClassification::default()
            .n_samples(1000)
            .weights(vec![0.75])
            .flip_y(0.0)
            .generate()
            .expect("valid");
        let ones = y.iter().filter(|&&k| k == 1).count();
        assert_eq!(ones, 250);
        let (_, y) = MakeClassification::default()
            .n_samples(1000)
            .weights(vec![1.0, 3.0])
            .flip_y(0.0)
            .generate()
            .expect("valid");
        assert_eq!(y.iter().filter(|&&k| k == 1).count(), 750);
        assert_eq!(cluster_sizes(10, &[0.5, 0.5], 1), [5, 5]);
        assert_eq!(cluster_sizes(7, &[0.5, 0.5], 2), [2, 2, 2, 1]);
    }

    #[test]
    fn informative_redundant_repeated_structure() {
        let (x, _) = MakeClassification::default()
            .n_samples(300)
            .n_features(12)
            .n_informative(4)
            .n_redundant(3)
            .n_repeated(2)
            .n_classes(3)
            .shuffle(false)
            .generate()
            .expect("valid");
        let inf = x.slice(s![.., ..4]).to_owned();
        let inf_red = x.slice(s![.., ..7]).to_owned();
        assert_eq!(matrix_rank(&inf, None).expect("svd"), 4);
        // Redundant columns are exact linear combinations of the informative ones.
        assert_eq!(matrix_rank(&inf_red, None).expect("svd"), 4);
        // Repeated columns are copies of informative or redundant ones.
        for r in 7..9 {
            assert!(
                (0..7).any(|j| x.column(j) == x.column(r)),
                "column {r} is not a copy"
            );
        }
        // Everything together: 4 informative + 3 noise columns.
        assert_eq!(matrix_rank(&x, None).expect("svd"), 7);
    }

    #[test]
    fn class_sep_places_cluster_means_on_vertices() {
        // One cluster per class, identity-ish covariance cannot be assumed, but the class means
        // of the informative features must be +-class_sep vertices shifted by A's mean effect
        // (zero in expectation). Check the means lie near distinct vertices.
        let sep = 3.0;
        let (x, y) = MakeClassification::default()
            .n_samples(4000)
            .n_features(2)
            .n_informative(2)
            .n_redundant(0)
            .n_classes(4)
            .n_clusters_per_class(1)
            .class_sep(sep)
            .flip_y(0.0)
            .shuffle(false)
            .generate()
            .expect("valid");
        let mut vertices = Vec::new();
        for c in 0..4 {
            let idx: Vec<usize> = (0..4000).filter(|&i| y[i] == c).collect();
            let mean = x
                .select(Axis(0), &idx)
                .mean_axis(Axis(0))
                .expect("non-empty");
            for &m in &mean {
                assert!((m.abs() - sep).abs() < 0.15, "class {c} mean {mean}");
            }
            vertices.push((mean[0] > 0.0, mean[1] > 0.0));
        }
        vertices.sort_unstable();
        vertices.dedup();
        assert_eq!(vertices.len(), 4);
    }

    #[test]
    fn flip_y_only_changes_labels() {
        let base = MakeClassification::default().n_samples(500).seed(9);
        let (x0, y0) = base.clone().flip_y(0.0).generate().expect("valid");
        let (x1, y1) = base.flip_y(0.5).generate().expect("valid");
        assert_eq!(x0, x1);
        let changed = y0.iter().zip(&y1).filter(|(a, b)| a != b).count();
        // About half are redrawn, half of those land on the other class: ~125 of 500.
        assert!((60..200).contains(&changed), "{changed} labels changed");
    }

    #[test]
    fn shift_scale_and_polytope() {
        let base = MakeClassification::default()
            .n_samples(50)
            .shuffle(false)
            .seed(2);
        let (x0, _) = base.clone().generate().expect("valid");
        let shift: Vec<f64> = (0..20).map(f64::from).collect();
        let (x1, _) = base
            .clone()
            .shift(shift.clone())
            .scale(2.0)
            .generate()
            .expect("valid");
        for ((i, j), v) in x1.indexed_iter() {
            assert!((v - (x0[[i, j]] + shift[j]) * 2.0).abs() < 1e-12);
        }
        let (xr, _) = base
            .clone()
            .shift(PerFeature::Random)
            .scale(PerFeature::Random)
            .hypercube(false)
            .generate()
            .expect("valid");
        assert!(xr.iter().all(|v| v.is_finite()));
        assert_ne!(xr, x0);
    }

    #[test]
    fn deterministic_and_shuffle_permutes() {
        let m = MakeClassification::default().seed(5);
        let (a, ya) = m.clone().generate().expect("valid");
        let (b, yb) = m.clone().generate().expect("valid");
        assert!(
            a.iter()
                .zip(b.iter())
                .all(|(u, v)| u.to_bits() == v.to_bits())
        );
        assert_eq!(ya, yb);
        let (c, _) = m.clone().seed(6).generate().expect("valid");
        assert_ne!(a, c);
        let (u, _) = m.shuffle(false).generate().expect("valid");
        let mut s1: Vec<u64> = a.iter().map(|v| v.to_bits()).collect();
        let mut s2: Vec<u64> = u.iter().map(|v| v.to_bits()).collect();
        s1.sort_unstable();
        s2.sort_unstable();
        assert_eq!(s1, s2);
    }

    #[test]
    fn hypercube_vertices_are_distinct() {
        let mut r = stream(0, 0);
        for (count, dim) in [(4, 2), (3, 2), (10, 20), (5, 70), (1, 1)] {
            let v = hypercube_vertices(&mut r, count, dim).expect("fits");
            assert_eq!(v.dim(), (count, dim));
            let mut rows: Vec<Vec<u64>> = v
                .rows()
                .into_iter()
                .map(|row| row.iter().map(|b| b.to_bits()).collect())
                .collect();
            rows.sort_unstable();
            rows.dedup();
            assert_eq!(rows.len(), count);
            assert!(v.iter().all(|&b| b == 0.0 || b == 1.0));
        }
    }
}
