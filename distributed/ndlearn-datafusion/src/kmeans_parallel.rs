//! k-means‖ initialisation (Bahmani, Moseley, Vattani, Kumar & Vassilvitskii, "Scalable
//! k-means++", VLDB 2012) from aggregate scans, as Spark MLlib's `k-means||`: a few sampling
//! rounds that each keep about `ℓ` rows with probability proportional to their cost, then the
//! candidates, weighted by the rows nearest to each, are reduced to `k` centres on the driver by
//! weighted k-means++ and weighted Lloyd.
//!
//! Every draw is keyed by a row id ([`keyed_uniform`]), so the candidates, and the centres, do
//! not depend on how the table is partitioned.

use crate::aggregate::StatsAggregate;
use crate::block::Layout;
use crate::error::{DistError, Result};
use crate::fit::{Input, aggregate};
use datafusion::prelude::{DataFrame, ident};
use ndarray::{Array2, Axis, concatenate};
use ndlearn_core::stats::mergeable::kmeans::assign;
use ndlearn_core::stats::mergeable::{
    KMeansSample, KMeansSpec, KMeansStats, SampleSpec, keyed_uniform,
};

/// The options of k-means‖ ([`kmeans_parallel_init`]).
#[derive(Debug, Clone, PartialEq)]
pub struct KMeansParallel {
    /// `k`, the number of centres.
    pub n_clusters: usize,
    /// `ℓ`, rows kept per round in expectation (`None`: `2k`, Spark's and the paper's choice).
    pub oversampling: Option<f64>,
    /// Sampling rounds (default 5; the paper finds a handful enough, Spark uses 2).
    pub rounds: usize,
    /// The seed of the draws and of the driver's reduction.
    pub seed: u64,
    /// Lloyd iterations of the driver's weighted reduction (default 300).
    pub max_iter: usize,
}

impl KMeansParallel {
    /// `k` centres with the defaults.
    pub fn new(n_clusters: usize) -> Self {
        Self {
            n_clusters,
            oversampling: None,
            rounds: 5,
            seed: 0,
            max_iter: 300,
        }
    }

    /// Sets the seed.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the number of rounds.
    #[must_use]
    pub fn rounds(mut self, rounds: usize) -> Self {
        self.rounds = rounds;
        self
    }
}

/// Initial k-means centres by k-means‖ from `2 + 2·rounds` aggregate scans: one picks the first
/// centre (the row of the least keyed draw), each round one computes the cost `φ` at the
/// candidates ([`KMeansStats`]) and one keeps every row with probability `min(1, ℓ D²/φ)`
/// ([`KMeansSample`]), and a last one counts the rows nearest to each candidate. The driver then
/// reduces the weighted candidates to `k` centres (k-means++ seeding and Lloyd, both weighted).
/// `id` names an integer column of distinct non-negative row ids (a row number), which keys the
/// draws so the result does not depend on the partitioning. Pass the centres to
/// [`crate::fit::kmeans`] through `KMeansInit::Centers`.
///
/// # Errors
/// As [`aggregate`]; [`DistError::Plan`] for `k = 0`, no rounds, a non-positive `ℓ`, or data
/// with fewer distinct rows than `k`; [`DistError::Null`] / typed errors for null or negative
/// ids.
pub async fn kmeans_parallel_init<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    id: &str,
    opts: &KMeansParallel,
) -> Result<Array2<f64>> {
    let input = features.into();
    let d = input.width();
    let k = opts.n_clusters;
    let ell = opts.oversampling.unwrap_or(2.0 * k as f64);
    if k == 0 || opts.rounds == 0 || !(ell.is_finite() && ell > 0.0) || opts.max_iter == 0 {
        return Err(DistError::Plan(format!(
            "k-means‖ needs k >= 1, rounds >= 1, max_iter >= 1 and a positive oversampling \
             (k = {k}, rounds = {}, max_iter = {}, oversampling = {ell})",
            opts.rounds, opts.max_iter
        )));
    }
    let plain = Layout {
        features: input.features(),
        targets: 0,
        labels: false,
        weights: false,
    };
    let with_ids = Layout {
        labels: true,
        ..plain
    };
    let mut id_args = input.exprs();
    id_args.push(ident(id));
    let sample = |centers: Array2<f64>, cost: f64, round: u64| {
        StatsAggregate::<KMeansSample<f64>>::new(
            "ndlearn_kmeans_parallel_sample",
            SampleSpec {
                centers,
                cost,
                oversampling: ell,
                seed: opts.seed,
                round,
            },
            with_ids,
        )
    };
    let stats = |centers: Array2<f64>| {
        StatsAggregate::<KMeansStats<f64>>::new(
            "ndlearn_kmeans_parallel_cost",
            KMeansSpec { centers },
            plain,
        )
    };
    let first = aggregate(df, sample(Array2::zeros((0, d)), 0.0, 0), id_args.clone()).await?;
    if first.ids.is_empty() {
        return Err(DistError::Plan("k-means‖ needs at least one row".into()));
    }
    let mut cand = first.rows;
    for round in 1..=opts.rounds as u64 {
        let cost = aggregate(df, stats(cand.clone()), input.exprs())
            .await?
            .inertia;
        if cost <= 0.0 {
            break; // every row is a candidate already
        }
        let drawn = aggregate(df, sample(cand.clone(), cost, round), id_args.clone()).await?;
        cand = concatenate(Axis(0), &[cand.view(), drawn.rows.view()])
            .map_err(|e| DistError::Plan(e.to_string()))?;
    }
    let weights = aggregate(df, stats(cand.clone()), input.exprs()).await?;
    let w: Vec<f64> = weights.counts.iter().map(|&c| c as f64).collect();
    reduce(&cand, &w, k, opts.seed, opts.max_iter)
}

/// `k` centres from weighted candidates: k-means++ seeding (each next centre drawn with
/// probability `w D²`, by a keyed draw) and weighted Lloyd until no candidate changes centre.
fn reduce(
    cand: &Array2<f64>,
    w: &[f64],
    k: usize,
    seed: u64,
    max_iter: usize,
) -> Result<Array2<f64>> {
    let (m, d) = cand.dim();
    let live = w.iter().filter(|&&v| v > 0.0).count();
    if live < k {
        return Err(DistError::Plan(format!(
            "k-means‖ found {live} distinct candidate centres for k = {k}: the data has fewer \
             distinct rows than clusters, or the sampling kept too few (raise the oversampling \
             or the rounds)"
        )));
    }
    let xs = cand.as_standard_layout();
    let xs = xs.as_slice().unwrap_or(&[]);
    let draw = |step: u64, p: &[f64]| -> Option<usize> {
        let total: f64 = p.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let target = keyed_uniform(seed, u64::MAX - 1, step) * total;
        let mut acc = 0.0;
        let mut last = None;
        for (i, &v) in p.iter().enumerate() {
            if v > 0.0 {
                acc += v;
                last = Some(i);
                if acc > target {
                    return Some(i);
                }
            }
        }
        last
    };
    let mut chosen = vec![draw(0, w).unwrap_or(0)];
    let mut d2: Vec<f64> = (0..m).map(|_| f64::INFINITY).collect();
    while chosen.len() < k {
        let last = cand.row(chosen[chosen.len() - 1]);
        for (i, row) in cand.rows().into_iter().enumerate() {
            let dist: f64 = row.iter().zip(&last).map(|(a, b)| (a - b) * (a - b)).sum();
            d2[i] = d2[i].min(dist);
        }
        let p: Vec<f64> = w.iter().zip(&d2).map(|(a, b)| a * b).collect();
        match draw(chosen.len() as u64, &p) {
            Some(i) => chosen.push(i),
            None => {
                return Err(DistError::Plan(format!(
                    "k-means‖: only {} distinct weighted candidates for k = {k}",
                    chosen.len()
                )));
            }
        }
    }
    let mut centers = cand.select(Axis(0), &chosen);
    let mut labels: Vec<usize> = Vec::new();
    for _ in 0..max_iter {
        let (lab, _) = assign(xs, d, &centers);
        if lab == labels {
            break;
        }
        let mut sums = Array2::<f64>::zeros((k, d));
        let mut mass = vec![0.0; k];
        for (i, &c) in lab.iter().enumerate() {
            sums.row_mut(c).scaled_add(w[i], &cand.row(i));
            mass[c] += w[i];
        }
        for (c, mut row) in sums.rows_mut().into_iter().enumerate() {
            if mass[c] > 0.0 {
                row /= mass[c];
            } else {
                row.assign(&centers.row(c));
            }
        }
        centers = sums;
        labels = lab;
    }
    Ok(centers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn weighted_reduction_finds_the_heavy_groups() {
        // two tight groups of candidates, and a candidate of weight zero (never a centre, no
        // pull on the means)
        let cand = array![
            [0.0, 0.0],
            [0.1, 0.0],
            [10.0, 10.0],
            [10.0, 10.2],
            [50.0, 50.0]
        ];
        let w = [100.0, 300.0, 80.0, 80.0, 0.0];
        for seed in 0..20 {
            let c = reduce(&cand, &w, 2, seed, 300).expect("reduce");
            let mut rows: Vec<(f64, f64)> = c.rows().into_iter().map(|r| (r[0], r[1])).collect();
            rows.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(
                (rows[0].0 - 0.075).abs() < 1e-12 && rows[0].1.abs() < 1e-12,
                "{rows:?}"
            );
            assert!((rows[1].0 - 10.0).abs() < 1e-12, "{rows:?}");
            assert!((rows[1].1 - 10.1).abs() < 1e-12, "{rows:?}");
        }
        assert!(reduce(&cand, &[1.0, 0.0, 0.0, 0.0, 0.0], 2, 3, 300).is_err());
    }
}
