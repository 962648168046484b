//! Seeded random streams, shuffling and sampling.
//!
//! Every random decision in ndlearn draws from a [`Rng`] made by [`stream`]`(seed, task_index)`.
//! A parallel task (a fold, a tree, a k-means restart) gets its own stream from its *index*, never
//! from the thread it runs on, so results are bitwise identical for any number of threads.
//!
//! The generator is Xoshiro256++ (`rand_xoshiro`): fast, 256-bit state, and its output for a given
//! seed is fixed by the crate's version, which the committed `Cargo.lock` pins.

use rand::seq::SliceRandom;
use rand::{Rng as _, SeedableRng};

use crate::{Error, Float, Result};

/// The random generator used throughout ndlearn.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// SplitMix64 step: a bijective mixer with good avalanche, used to derive stream seeds.
#[inline]
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator for task `task_index` of a computation seeded with `seed`.
///
/// Distinct `(seed, task_index)` pairs give independent-looking streams; the same pair always
/// gives the same stream.
pub fn stream(seed: u64, task_index: u64) -> Rng {
    // Mix the task index through one SplitMix round before combining so that (s, t) and
    // (s + 1, t - 1) do not collide.
    let mut t = task_index ^ 0x6A09_E667_F3BC_C908;
    let mut state = seed ^ splitmix64(&mut t);
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    Rng::from_seed(bytes)
}

/// The generator for a single-task computation: `stream(seed, 0)`.
pub fn rng(seed: u64) -> Rng {
    stream(seed, 0)
}

/// Shuffles `items` in place (Fisher–Yates).
pub fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    items.shuffle(rng);
}

/// A random permutation of `0..n`.
pub fn permutation(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.shuffle(rng);
    idx
}

/// A pseudo-random permutation of `0..n` evaluated index by index in O(1) memory, for shuffled
/// passes over data too large for an `n`-long index array next to it (mini-batch epochs).
///
/// A four-round Feistel network on the smallest domain of `2^(2h) ≥ n` indices (`h` bits per
/// half), keyed by four draws from the generator, with *cycle walking*: an index the network
/// maps to `n` or beyond is mapped again until it lands inside `0..n`. The network is a
/// bijection of its domain and every cycle through a point of `0..n` returns to `0..n`, so the
/// result is a permutation of `0..n`; the domain is below `4n`, so a position takes fewer than
/// four rounds of walking on average. Four Feistel rounds over a good mixing function are
/// Luby and Rackoff's construction of a pseudo-random permutation. Not the permutation
/// [`permutation`] draws from the same generator.
///
/// ```
/// use ndlearn_core::random::{LazyPermutation, rng};
/// let p = LazyPermutation::new(&mut rng(7), 10);
/// let mut seen: Vec<usize> = p.iter().collect();
/// seen.sort_unstable();
/// assert_eq!(seen, (0..10).collect::<Vec<_>>());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LazyPermutation {
    n: u64,
    half_bits: u32,
    keys: [u64; 4],
}

impl LazyPermutation {
    /// A permutation of `0..n` keyed by four draws from `rng`.
    pub fn new(rng: &mut Rng, n: usize) -> Self {
        let n = n as u64;
        // the smallest h ≥ 1 with 4^h ≥ n
        let mut half_bits = 1;
        while half_bits < 32 && (1u64 << (2 * half_bits)) < n {
            half_bits += 1;
        }
        let keys = [
            rng.random::<u64>(),
            rng.random::<u64>(),
            rng.random::<u64>(),
            rng.random::<u64>(),
        ];
        LazyPermutation { n, half_bits, keys }
    }

    /// The number of indices `n`.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether `n = 0`.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// One pass of the Feistel network over the `2h`-bit domain.
    #[inline]
    fn encrypt(&self, x: u64) -> u64 {
        let h = self.half_bits;
        let mask = (1u64 << h) - 1;
        let (mut left, mut right) = (x >> h, x & mask);
        for &key in &self.keys {
            let mut state = right ^ key;
            let f = splitmix64(&mut state) & mask;
            (left, right) = (right, left ^ f);
        }
        (left << h) | right
    }

    /// The index at position `i` (`i < n`; positions beyond `n` are returned unchanged).
    #[inline]
    pub fn at(&self, i: usize) -> usize {
        let i = i as u64;
        if i >= self.n {
            return i as usize;
        }
        let mut y = self.encrypt(i);
        while y >= self.n {
            y = self.encrypt(y);
        }
        y as usize
    }

    /// The indices at positions `0..n`, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).map(move |i| self.at(i))
    }
}

/// `k` distinct indices from `0..n`, in random order (partial Fisher–Yates; O(n) memory).
///
/// Errors when `k > n`.
pub fn sample_without_replacement(rng: &mut Rng, n: usize, k: usize) -> Result<Vec<usize>> {
    if k > n {
        return Err(Error::invalid_param(
            "k",
            format!("cannot draw {k} distinct indices from {n}"),
        ));
    }
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = rng.random_range(i..n);
        idx.swap(i, j);
    }
    idx.truncate(k);
    Ok(idx)
}

/// `k` indices drawn uniformly from `0..n` with replacement.
///
/// Errors when `n == 0` and `k > 0`.
pub fn sample_with_replacement(rng: &mut Rng, n: usize, k: usize) -> Result<Vec<usize>> {
    if n == 0 && k > 0 {
        return Err(Error::invalid_param("n", "cannot sample from an empty set"));
    }
    Ok((0..k).map(|_| rng.random_range(0..n)).collect())
}

/// One index drawn with probability proportional to `weights` (non-negative, positive sum).
///
/// Used by k-means++ seeding and similar schemes. Errors on negative, non-finite or all-zero
/// weights.
pub fn weighted_index<F: Float>(rng: &mut Rng, weights: &[F]) -> Result<usize> {
    let mut total = 0.0f64;
    for (i, w) in weights.iter().enumerate() {
        let w = w.to_f64_lossless();
        if !(w.is_finite() && w >= 0.0) {
            return Err(Error::invalid_param(
                "weights",
                format!("weights must be finite and >= 0; entry {i} is {w}"),
            ));
        }
        total += w;
    }
    if total <= 0.0 {
        return Err(Error::invalid_param(
            "weights",
            "weights must have a positive sum",
        ));
    }
    let target = rng.random::<f64>() * total;
    let mut acc = 0.0;
    let mut last_positive = 0;
    for (i, w) in weights.iter().enumerate() {
        let w = w.to_f64_lossless();
        if w > 0.0 {
            last_positive = i;
        }
        acc += w;
        if target < acc {
            return Ok(i);
        }
    }
    // Rounding can leave target == total: return the last index with positive weight.
    Ok(last_positive)
}

/// A bootstrap sample: `n` indices drawn with replacement from `0..n` (`in_bag`) and the indices
/// never drawn (`out_of_bag`, sorted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bootstrap {
    /// Indices drawn (with repetitions), in draw order.
    pub in_bag: Vec<usize>,
    /// Indices not drawn, ascending.
    pub out_of_bag: Vec<usize>,
}

/// Draws a bootstrap sample of size `n` from `0..n`.
pub fn bootstrap(rng: &mut Rng, n: usize) -> Bootstrap {
    let mut seen = vec![false; n];
    let in_bag: Vec<usize> = (0..n)
        .map(|_| {
            let i = rng.random_range(0..n);
            seen[i] = true;
            i
        })
        .collect();
    let out_of_bag = (0..n).filter(|&i| !seen[i]).collect();
    Bootstrap { in_bag, out_of_bag }
}

/// Standard normal draw (Box–Muller on the open unit interval); `F`-typed.
pub fn standard_normal<F: Float>(rng: &mut Rng) -> F {
    // 1 - U lies in (0, 1], so the log is finite.
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    F::cast((-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos())
}

/// Uniform draw in `[lo, hi)`.
pub fn uniform<F: Float>(rng: &mut Rng, lo: F, hi: F) -> F {
    lo + (hi - lo) * F::cast(rng.random::<f64>())
}

/// Iterator over mini-batches of `0..n`: each epoch is a fresh seeded permutation cut into
/// batches of `batch_size` (the last one may be shorter). Mean-scaled gradients should divide by
/// the actual batch length.
#[derive(Debug, Clone)]
pub struct MinibatchIter {
    order: Vec<usize>,
    batch_size: usize,
    pos: usize,
    rng: Rng,
    shuffle: bool,
}

impl MinibatchIter {
    /// Batches of `batch_size` over `0..n`, reshuffled every epoch when `shuffle` is true.
    ///
    /// Errors when `batch_size == 0` or `n == 0`.
    pub fn new(n: usize, batch_size: usize, shuffle: bool, seed: u64) -> Result<Self> {
        if batch_size == 0 {
            return Err(Error::invalid_param("batch_size", "must be >= 1"));
        }
        if n == 0 {
            return Err(Error::TooFewSamples {
                context: "MinibatchIter",
                needed: 1,
                found: 0,
            });
        }
        let mut it = Self {
            order: (0..n).collect(),
            batch_size,
            pos: 0,
            rng: rng(seed),
            shuffle,
        };
        it.start_epoch();
        Ok(it)
    }

    fn start_epoch(&mut self) {
        if self.shuffle {
            self.order.shuffle(&mut self.rng);
        }
        self.pos = 0;
    }

    /// The next batch of the current epoch, or `None` at the end of the epoch (the following
    /// call starts a new epoch).
    pub fn next_batch(&mut self) -> Option<&[usize]> {
        if self.pos >= self.order.len() {
            self.start_epoch();
            return None;
        }
        let start = self.pos;
        let end = (start + self.batch_size).min(self.order.len());
        self.pos = end;
        Some(&self.order[start..end])
    }

    /// All batches of one epoch, as owned vectors.
    pub fn epoch(&mut self) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        while let Some(b) = self.next_batch() {
            out.push(b.to_vec());
        }
        out
    }

    /// Number of batches per epoch.
    pub fn batches_per_epoch(&self) -> usize {
        self.order.len().div_ceil(self.batch_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_permutations_are_permutations_and_look_random() {
        for n in (0..=300).chain([1_000, 4_097, 100_003]) {
            let p = LazyPermutation::new(&mut stream(3, n as u64), n);
            assert_eq!(p.len(), n);
            let mut seen = vec![false; n];
            for v in p.iter() {
                assert!(v < n && !seen[v], "n = {n}: {v} repeated or out of range");
                seen[v] = true;
            }
            assert!(seen.iter().all(|&b| b), "n = {n}");
        }
        // reproducible for a generator state, different for another
        let a: Vec<usize> = LazyPermutation::new(&mut rng(5), 1000).iter().collect();
        let b: Vec<usize> = LazyPermutation::new(&mut rng(5), 1000).iter().collect();
        let c: Vec<usize> = LazyPermutation::new(&mut rng(6), 1000).iter().collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        // no visible order: few fixed points (1 expected), rank correlation near 0, and the
        // first tenth of positions spread over all ten tenths of the indices
        let n = 10_000;
        let p: Vec<usize> = LazyPermutation::new(&mut rng(11), n).iter().collect();
        let fixed = p.iter().enumerate().filter(|(i, v)| i == *v).count();
        assert!(fixed <= 8, "{fixed} fixed points");
        let mean = (n as f64 - 1.0) / 2.0;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (i, &v) in p.iter().enumerate() {
            sxy += (i as f64 - mean) * (v as f64 - mean);
            sxx += (i as f64 - mean) * (i as f64 - mean);
        }
        assert!((sxy / sxx).abs() < 0.05, "rank correlation {}", sxy / sxx);
        let mut deciles = [0usize; 10];
        for &v in &p[..n / 10] {
            deciles[v * 10 / n] += 1;
        }
        assert!(
            deciles.iter().all(|&c| (60..=140).contains(&c)),
            "{deciles:?}"
        );
        // positions beyond n are left alone
        assert_eq!(LazyPermutation::new(&mut rng(1), 5).at(9), 9);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| stream(7, 3).random()).collect();
        let b: Vec<u64> = (0..4).map(|_| stream(7, 3).random()).collect();
        assert_eq!(a, b);
        let mut s1 = stream(7, 3);
        let mut s2 = stream(7, 4);
        let mut s3 = stream(8, 2);
        let x1: u64 = s1.random();
        assert_ne!(x1, s2.random::<u64>());
        assert_ne!(x1, s3.random::<u64>());
    }

    #[test]
    fn permutation_and_sampling() {
        let mut r = rng(1);
        let mut p = permutation(&mut r, 50);
        p.sort_unstable();
        assert_eq!(p, (0..50).collect::<Vec<_>>());
        let s = sample_without_replacement(&mut r, 10, 10).expect("k == n is fine");
        let mut s2 = s.clone();
        s2.sort_unstable();
        s2.dedup();
        assert_eq!(s2.len(), 10);
        assert!(sample_without_replacement(&mut r, 3, 4).is_err());
        let w = sample_with_replacement(&mut r, 5, 100).expect("n > 0");
        assert!(w.iter().all(|&i| i < 5));
        assert!(sample_with_replacement(&mut r, 0, 1).is_err());
        assert_eq!(
            sample_with_replacement(&mut r, 0, 0).map(|v| v.len()).ok(),
            Some(0)
        );
    }

    #[test]
    fn bootstrap_partitions_indices() {
        let mut r = rng(3);
        let b = bootstrap(&mut r, 1000);
        assert_eq!(b.in_bag.len(), 1000);
        let mut all: Vec<usize> = b.in_bag.clone();
        all.extend(&b.out_of_bag);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 1000);
        // The out-of-bag share tends to 1/e ~ 0.368.
        let frac = b.out_of_bag.len() as f64 / 1000.0;
        assert!((frac - (-1.0f64).exp()).abs() < 0.05, "oob fraction {frac}");
    }

    #[test]
    fn weighted_index_follows_weights() {
        let mut r = rng(5);
        let w = [0.0, 1.0, 3.0];
        let mut counts = [0usize; 3];
        for _ in 0..4000 {
            counts[weighted_index(&mut r, &w).expect("valid weights")] += 1;
        }
        assert_eq!(counts[0], 0);
        let ratio = counts[2] as f64 / counts[1] as f64;
        assert!((ratio - 3.0).abs() < 0.4, "ratio {ratio}");
        assert!(weighted_index(&mut r, &[0.0f64, 0.0]).is_err());
        assert!(weighted_index(&mut r, &[1.0f64, -1.0]).is_err());
    }

    #[test]
    fn normal_moments() {
        let mut r = rng(11);
        let xs: Vec<f64> = (0..20000).map(|_| standard_normal(&mut r)).collect();
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(m.abs() < 0.03 && (v - 1.0).abs() < 0.05, "mean {m} var {v}");
        let u: f32 = uniform(&mut r, 2.0, 3.0);
        assert!((2.0..3.0).contains(&u));
    }

    #[test]
    fn minibatches_cover_each_epoch() {
        let mut it = MinibatchIter::new(10, 4, true, 9).expect("valid");
        assert_eq!(it.batches_per_epoch(), 3);
        for _ in 0..2 {
            let e = it.epoch();
            assert_eq!(e.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 4, 2]);
            let mut all: Vec<usize> = e.concat();
            all.sort_unstable();
            assert_eq!(all, (0..10).collect::<Vec<_>>());
        }
        assert!(MinibatchIter::new(0, 1, false, 0).is_err());
        assert!(MinibatchIter::new(3, 0, false, 0).is_err());
    }
}
