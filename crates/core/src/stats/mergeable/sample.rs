//! [`KMeansSample`]: the sampling passes of k-means‖ (Bahmani et al., "Scalable k-means++",
//! VLDB 2012), with every draw keyed by a row id so the sample does not depend on how the rows
//! are split into blocks.

use super::bytes::{Reader, Writer};
use super::kmeans::assign;
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::{Error, Float, Result};
use ndarray::{Array2, ArrayView1};

/// Byte-form tag.
const TAG: u8 = 5;

/// A uniform number in `[0, 1)` that depends only on `(seed, round, id)`: the draw of row `id`
/// in sampling round `round` (SplitMix64 finalisers over the three words; 53 bits).
pub fn keyed_uniform(seed: u64, round: u64, id: u64) -> f64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let a = mix(seed.wrapping_add(0x9E37_79B9_7F4A_7C15));
    let b = mix(a ^ round.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let c = mix(b ^ id.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7));
    (c >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// What a [`KMeansSample`] pass draws with.
///
/// With no centres (`0 × d`) the pass picks one row uniformly at random (the row with the least
/// [`keyed_uniform`] draw), k-means‖'s first centre. Otherwise row `x` with id `i` is kept when
/// `keyed_uniform(seed, round, i) < ℓ · D²(x) / φ`, where `D²(x)` is its squared distance to the
/// nearest centre and `φ = Σ D²` over all rows (computed by a [`super::KMeansStats`] pass at
/// the same centres): about `ℓ` rows per round, each with probability proportional to its cost.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SampleSpec<F: Float> {
    /// The current candidate centres (`m × d`; `0 × d` for the first pick).
    pub centers: Array2<F>,
    /// `φ`, the total squared distance of all rows to `centers`.
    pub cost: F,
    /// `ℓ`, the expected number of rows kept per round (k-means‖'s oversampling; `2k` is usual).
    pub oversampling: F,
    /// The seed of the draws.
    pub seed: u64,
    /// The round (draws of different rounds are independent).
    pub round: u64,
}

/// Rows drawn by one k-means‖ sampling pass, with their ids, sorted by id (so merged samples do
/// not depend on the order of the blocks). The row ids come in the block's `labels` (any
/// distinct non-negative integers, e.g. a row-number column); rows without ids are an error.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KMeansSample<F: Float> {
    /// What the rows were drawn with.
    pub at: SampleSpec<F>,
    /// Ids of the rows kept, ascending.
    pub ids: Vec<u64>,
    /// The rows kept (`ids.len() × d`), in the order of `ids`.
    pub rows: Array2<F>,
    /// Number of rows seen.
    pub n: u64,
}

impl<F: Float> KMeansSample<F> {
    fn pick_one(&self) -> bool {
        self.at.centers.nrows() == 0
    }

    fn key(&self, id: u64) -> f64 {
        keyed_uniform(self.at.seed, self.at.round, id)
    }

    /// Merges two id-sorted samples into one (for the first pick: the row of the lesser draw).
    fn combine(&self, other: &Self) -> (Vec<u64>, Array2<F>) {
        let d = self.rows.ncols();
        if self.pick_one() {
            let best = self
                .ids
                .iter()
                .enumerate()
                .map(|(i, &id)| (self.key(id), id, self.rows.row(i)))
                .chain(
                    other
                        .ids
                        .iter()
                        .enumerate()
                        .map(|(i, &id)| (other.key(id), id, other.rows.row(i))),
                )
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            return match best {
                Some((_, id, row)) => (vec![id], row.to_owned().insert_axis(ndarray::Axis(0))),
                None => (Vec::new(), Array2::zeros((0, d))),
            };
        }
        let (a, b) = (&self.ids, &other.ids);
        let mut ids = Vec::with_capacity(a.len() + b.len());
        let mut flat = Vec::with_capacity((a.len() + b.len()) * d);
        let (mut i, mut j) = (0, 0);
        let mut push = |id: u64, row: ArrayView1<'_, F>| {
            ids.push(id);
            flat.extend(row.iter().copied());
        };
        while i < a.len() || j < b.len() {
            if j == b.len() || (i < a.len() && a[i] <= b[j]) {
                push(a[i], self.rows.row(i));
                i += 1;
            } else {
                push(b[j], other.rows.row(j));
                j += 1;
            }
        }
        let m = ids.len();
        (
            ids,
            Array2::from_shape_vec((m, d), flat).unwrap_or_else(|_| Array2::zeros((0, d))),
        )
    }
}

impl<F: Float> Mergeable<F> for KMeansSample<F> {
    type Spec = SampleSpec<F>;

    fn zero(spec: &SampleSpec<F>) -> Self {
        Self {
            at: spec.clone(),
            ids: Vec::new(),
            rows: Array2::zeros((0, spec.centers.ncols())),
            n: 0,
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let d = self.at.centers.ncols();
        block.check(d, "KMeansSample::update")?;
        let Some(ids) = &block.labels else {
            return Err(Error::invalid_param(
                "labels",
                "k-means‖ sampling keys its draws by row id: pass the ids as the block's labels",
            ));
        };
        if block.weights.is_some() {
            return Err(Error::invalid_param(
                "sample_weight",
                "KMeansSample takes unweighted rows",
            ));
        }
        let (cost, ell) = (self.at.cost, self.at.oversampling);
        if !(cost.is_finite() && cost >= F::zero() && ell.is_finite() && ell > F::zero()) {
            return Err(Error::invalid_param(
                "cost",
                "the cost must be finite and >= 0 and the oversampling finite and > 0",
            ));
        }
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        let mut kept = Self::zero(&self.at);
        if self.pick_one() {
            let best = ids
                .iter()
                .enumerate()
                .map(|(i, &id)| (self.key(id as u64), id as u64, i))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            if let Some((_, id, i)) = best {
                kept.ids.push(id);
                kept.rows = block.x.row(i).to_owned().insert_axis(ndarray::Axis(0));
            }
        } else {
            let x = block.x.as_standard_layout();
            let xs = x.as_slice().unwrap_or(&[]);
            let (_, dists) = assign(xs, d, &self.at.centers);
            let scale = if cost > F::zero() {
                ell.to_f64_lossless() / cost.to_f64_lossless()
            } else {
                0.0
            };
            let mut chosen: Vec<(u64, usize)> = dists
                .iter()
                .enumerate()
                .filter(|&(i, &d2)| self.key(ids[i] as u64) < scale * d2.to_f64_lossless())
                .map(|(i, _)| (ids[i] as u64, i))
                .collect();
            chosen.sort_unstable();
            kept.ids = chosen.iter().map(|&(id, _)| id).collect();
            kept.rows =
                Array2::from_shape_fn((chosen.len(), d), |(r, c)| block.x[[chosen[r].1, c]]);
        }
        let (ids, rows) = self.combine(&kept);
        self.ids = ids;
        self.rows = rows;
        self.n += block.nrows() as u64;
        Ok(())
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.at != other.at {
            return Err(spec_mismatch(
                "KMeansSample::merge",
                "samples drawn with the same centres, cost and round".into(),
                "a sample drawn with others".into(),
            ));
        }
        let (ids, rows) = self.combine(other);
        self.ids = ids;
        self.rows = rows;
        self.n += other.n;
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n
    }

    fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new(TAG);
        w.u64(self.n)
            .u64(self.at.seed)
            .u64(self.at.round)
            .float(self.at.cost)
            .float(self.at.oversampling)
            .array2(&self.at.centers)
            .array2(&self.rows);
        for &id in &self.ids {
            w.u64(id);
        }
        w.finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "KMeansSample")?;
        let n = r.u64()?;
        let seed = r.u64()?;
        let round = r.u64()?;
        let cost = r.float()?;
        let oversampling = r.float()?;
        let centers: Array2<F> = r.array2()?;
        let rows: Array2<F> = r.array2()?;
        if rows.ncols() != centers.ncols() {
            return Err(r.inconsistent("sampled rows and centres differ in width"));
        }
        let ids = (0..rows.nrows())
            .map(|_| r.u64())
            .collect::<Result<Vec<_>>>()?;
        r.end()?;
        if ids.windows(2).any(|w| w[0] > w[1]) {
            return Err(r.inconsistent("row ids not in ascending order"));
        }
        if ids.len() as u64 > n {
            return Err(r.inconsistent("more rows kept than seen"));
        }
        Ok(Self {
            at: SampleSpec {
                centers,
                cost,
                oversampling,
                seed,
                round,
            },
            ids,
            rows,
            n,
        })
    }
}
