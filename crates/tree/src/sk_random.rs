//! scikit-learn's random streams for trees and forests, reproduced bit for bit, so that a tree
//! fitted with `random_state = s` visits its features in the same order as scikit-learn's
//! (ties between equally good splits are then broken the same way) and a forest draws the same
//! per-tree seeds and bootstrap samples.
//!
//! - NumPy's legacy `RandomState(s)`: the Mersenne Twister MT19937 seeded by `init_genrand(s)`
//!   (Matsumoto & Nishimura 1998), with `randint(low, high)` by masked rejection on 32-bit
//!   outputs.
//! - The splitter's stream: a 32-bit xorshift (`our_rand_r` in scikit-learn's `_utils.pxd`)
//!   seeded with `RandomState(s).randint(0, 2³¹ − 1)`.
//!
//! Seeds are 32-bit in NumPy; a `u64` seed above `2³² − 1` is folded to
//! `(s ⊕ (s >> 32)) mod 2³²` (so only seeds below `2³²` reproduce scikit-learn).

/// `RAND_R_MAX` of scikit-learn's tree utilities (`2³¹ − 1`).
pub(crate) const RAND_R_MAX: u32 = 0x7FFF_FFFF;

/// NumPy's legacy Mersenne Twister (`np.random.RandomState`).
#[derive(Clone)]
pub(crate) struct RandomState {
    mt: Box<[u32; 624]>,
    idx: usize,
}

impl RandomState {
    /// `RandomState(seed)` (the seed folded to 32 bits).
    pub(crate) fn new(seed: u64) -> Self {
        let s = (seed ^ (seed >> 32)) as u32;
        let mut mt = Box::new([0u32; 624]);
        mt[0] = s;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        RandomState { mt, idx: 624 }
    }

    fn twist(&mut self) {
        for i in 0..624 {
            let y = (self.mt[i] & 0x8000_0000) | (self.mt[(i + 1) % 624] & 0x7FFF_FFFF);
            let mut v = self.mt[(i + 397) % 624] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_B0DF;
            }
            self.mt[i] = v;
        }
        self.idx = 0;
    }

    /// The next 32-bit output (`genrand_int32`).
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.idx >= 624 {
            self.twist();
        }
        let mut y = self.mt[self.idx];
        self.idx += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }

    /// `randint(low, high)`: uniform in `[low, high)` for `high − low ≤ 2³²` (masked
    /// rejection, as NumPy's legacy generator).
    pub(crate) fn randint(&mut self, low: u64, high: u64) -> u64 {
        debug_assert!(high > low && high - low <= 1 << 32);
        let rng = high - 1 - low;
        if rng == 0 {
            return low;
        }
        if rng == 0xFFFF_FFFF {
            return low + u64::from(self.next_u32());
        }
        let mut mask = rng;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        loop {
            let v = u64::from(self.next_u32()) & mask;
            if v <= rng {
                return low + v;
            }
        }
    }
}

impl RandomState {
    /// `random_sample()`: a double in `[0, 1)` from two 32-bit outputs (53 bits).
    pub(crate) fn random_sample(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// `choice(n, size, replace=True, p)` given the normalised cumulative probabilities
    /// (`cdf = cumsum(p) / cumsum(p)[-1]`): `searchsorted(cdf, u, side="right")` per draw.
    pub(crate) fn choice_cdf(&mut self, cdf: &[f64]) -> usize {
        let u = self.random_sample();
        cdf.partition_point(|&c| c <= u)
            .min(cdf.len().saturating_sub(1))
    }
}

impl RandomState {
    /// The stream's state as 625 numbers (the 624 words, then the position).
    pub(crate) fn to_state(&self) -> Vec<u32> {
        let mut v = self.mt.to_vec();
        v.push(self.idx as u32);
        v
    }

    /// The stream saved by [`RandomState::to_state`] (a fresh `RandomState(0)` for a
    /// malformed state).
    pub(crate) fn from_state(state: &[u32]) -> Self {
        if state.len() != 625 {
            return RandomState::new(0);
        }
        let mut mt = Box::new([0u32; 624]);
        mt.copy_from_slice(&state[..624]);
        RandomState {
            mt,
            idx: (state[624] as usize).min(624),
        }
    }

    /// `random_interval(max)`: uniform in `[0, max]` by masked rejection on 32-bit outputs
    /// (NumPy's legacy shuffle), for `max < 2³²`.
    fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        loop {
            let v = u64::from(self.next_u32()) & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// `shuffle(a)` of a 1-d array (Fisher–Yates from the end, NumPy's legacy order).
    pub(crate) fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = self.interval(i as u64) as usize;
            a.swap(i, j);
        }
    }

    /// `permutation(n)`: a shuffled `0..n`.
    pub(crate) fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

/// NumPy's pairwise summation of a contiguous `f64` array (`np.sum`), bit for bit.
pub(crate) fn numpy_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut r = 0.0;
        for &v in a {
            r += v;
        }
        r
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &a[i..] {
            res += v;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
    }
}

/// The splitter's xorshift stream (scikit-learn's `rand_r_state`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeRng {
    state: u32,
}

impl TreeRng {
    /// The stream of a tree fitted with `random_state = seed`.
    pub(crate) fn from_seed(seed: u64) -> Self {
        let mut rs = RandomState::new(seed);
        TreeRng {
            state: rs.randint(0, u64::from(RAND_R_MAX)) as u32,
        }
    }

    /// The stream of a tree fitted with a shared `RandomState` instance as `random_state`
    /// (one `randint(0, RAND_R_MAX)` drawn from it, as scikit-learn's splitter does).
    pub(crate) fn from_random_state(rs: &mut RandomState) -> Self {
        TreeRng {
            state: rs.randint(0, u64::from(RAND_R_MAX)) as u32,
        }
    }

    #[inline]
    fn next(&mut self) -> u32 {
        if self.state == 0 {
            self.state = 1;
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 17;
        self.state ^= self.state << 5;
        self.state % (RAND_R_MAX + 1)
    }

    /// Uniform integer in `[low, high)` (`rand_int`).
    #[inline]
    pub(crate) fn rand_int(&mut self, low: usize, high: usize) -> usize {
        low + (self.next() as usize) % (high - low)
    }

    /// Uniform float in `[low, high)` (`rand_uniform`).
    #[inline]
    pub(crate) fn rand_uniform(&mut self, low: f64, high: f64) -> f64 {
        (high - low) * f64::from(self.next()) / f64::from(RAND_R_MAX) + low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_random_state_streams() {
        // numpy 2.4: RandomState(s).randint(0, 2147483647) twice, and randint(0, 10, 5).
        for (seed, a, b, small) in [
            (0u64, 209_652_396u64, 398_764_591u64, [5u64, 0, 3, 3, 7]),
            (1, 1_791_095_845, 2_135_392_491, [5, 8, 9, 5, 0]),
            (42, 1_608_637_542, 1_273_642_419, [6, 3, 7, 4, 6]),
            (4_294_967_295, 419_326_371, 479_346_978, [3, 2, 7, 4, 0]),
        ] {
            let mut rs = RandomState::new(seed);
            assert_eq!(rs.randint(0, 2_147_483_647), a, "seed {seed}");
            assert_eq!(rs.randint(0, 2_147_483_647), b, "seed {seed}");
            let mut rs = RandomState::new(seed);
            let got: Vec<u64> = (0..5).map(|_| rs.randint(0, 10)).collect();
            assert_eq!(got, small, "seed {seed}");
        }
    }

    #[test]
    fn random_sample_and_pairwise_sum() {
        // numpy 2.4: RandomState(0).random_sample() = 0.5488135039273248.
        assert_eq!(RandomState::new(0).random_sample(), 0.548_813_503_927_324_8);
        // Pairwise summation differs from a left fold on this input.
        let a: Vec<f64> = (0..300).map(|i| 1.0 / f64::from(i + 1)).collect();
        let fold: f64 = a.iter().sum();
        assert_eq!(numpy_sum(&a), 6.282_663_880_299_504);
        assert_eq!(fold, 6.282_663_880_299_502);
        assert_eq!(numpy_sum(&[1.0, 2.0, 3.0]), 6.0);
    }

    #[test]
    fn numpy_permutation() {
        // numpy 2.4: RandomState(0).permutation(10), then permutation(7); RandomState(5)
        // .permutation(300)[:8].
        let mut rs = RandomState::new(0);
        assert_eq!(rs.permutation(10), vec![2, 8, 4, 9, 1, 6, 7, 3, 0, 5]);
        assert_eq!(rs.permutation(7), vec![3, 1, 2, 6, 5, 0, 4]);
        let p = RandomState::new(5).permutation(300);
        assert_eq!(&p[..8], &[66, 239, 250, 224, 24, 286, 234, 233]);
    }

    #[test]
    fn tree_stream_is_in_range() {
        let mut r = TreeRng::from_seed(3);
        for _ in 0..1000 {
            let v = r.rand_int(2, 7);
            assert!((2..7).contains(&v));
            let u = r.rand_uniform(-1.0, 1.0);
            assert!((-1.0..=1.0).contains(&u));
        }
    }
}
