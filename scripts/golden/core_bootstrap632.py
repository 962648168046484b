"""Golden references for ndlearn-core's .632 / .632+ bootstrap (model_selection::bootstrap_632),
computed with numpy on the very bootstrap samples ndlearn draws.

Writes datasets/golden/core/bootstrap632.json.

scikit-learn has no .632 bootstrap. `bootstrap_632` takes only a seed: replicate b draws its
sample with `random::bootstrap(&mut random::stream(seed, b), n)` (n draws of
`rng.random_range(0..n)`). `RustRng` below re-implements that generator bit for bit
(ndlearn_core::random::stream: a SplitMix64-derived Xoshiro256++ state, rand_xoshiro 0.7;
rand 0.9's `random_range` on a usize range that fits in u32: Canon's widening multiply of
`next_u32` = the high half of `next_u64`, with one extra draw when the low half exceeds
2^32 - range). The Rust test checks the stored index sets against ndlearn's generator and against
the rows its estimator is actually fitted on, so the port cannot silently drift.

Given the samples (`in_bag`, B x n, in draw order; out-of-bag = the rows never drawn), with a
model M_b fitted on sample b and per-row losses L:
* train_errors[b] = mean L over the sample (repetitions counted), oob_errors[b] = mean over the
  out-of-bag rows, in_bag_fractions[b] = distinct rows / n;
* estimate = 0.368 mean_b train_errors + 0.632 mean_b oob_errors (the course notes' .632);
* apparent = mean L of the full-data model on all rows (err-bar); loo = Err^(1) =
  mean_i mean_{b: i out of bag} L(y_i, M_b(x_i)); efron_632 = 0.368 apparent + 0.632 loo;
* gamma = (1/n^2) sum_i sum_j L(y_i, M(x_j)) (the no-information error of the full-data model;
  for 0/1 loss it equals sum_k p_k (1 - q_k), checked), loo' = min(loo, gamma),
  R = (loo' - apparent) / (gamma - apparent) when loo > apparent and gamma > apparent (else 0),
  clipped to [0, 1], w = 0.632 / (1 - 0.368 R), plus_632 = (1 - w) apparent + w loo'
  (Efron & Tibshirani 1997, JASA 92:548-560).

Classifiers, identical here and in the Rust test: nearest centroid (squared Euclidean, the mean
of each class's rows in the sample; every sample holds every class, asserted), 1-NN classifier
and 1-NN regressor (squared loss). No prediction is near a tie: for the centroid rule the two
nearest centroid distances differ by > 1e-9 relative, for 1-NN every training row within 1e-9
(relative) of the nearest distance is a copy of the same data row (asserted), so the Rust
predictions are the same and every quantity agrees to rounding (1e-12). The branch conditions
(loo vs apparent, gamma vs apparent, loo vs gamma) are asserted to hold by more than 1e-9.
"""

from __future__ import annotations

import numpy as np

from common import write_json

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def _splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


class RustRng:
    """ndlearn_core::random::stream(seed, task): Xoshiro256++ seeded from SplitMix64."""

    def __init__(self, seed: int, task: int = 0):
        _, mixed = _splitmix64(task ^ 0x6A09E667F3BCC908)
        state = seed ^ mixed
        s = []
        for _ in range(4):
            state, v = _splitmix64(state)
            s.append(v)
        assert any(s)  # an all-zero seed would be replaced by rand_xoshiro
        self.s = s

    def next_u64(self) -> int:
        s = self.s
        x = (s[0] + s[3]) & M64
        out = ((((x << 23) | (x >> 41)) & M64) + s[0]) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & M64
        return out

    def next_u32(self) -> int:
        return self.next_u64() >> 32

    def range(self, lo: int, hi: int) -> int:
        """rand 0.9 `random_range(lo..hi)` for usize (hi - lo <= u32::MAX)."""
        rng = hi - lo
        assert 0 < rng <= M32
        prod = self.next_u32() * rng
        result, lo_order = prod >> 32, prod & M32
        if lo_order > ((-rng) & M32):
            new_hi = (self.next_u32() * rng) >> 32
            if lo_order + new_hi > M32:
                result += 1
        return lo + result

    def bootstrap(self, n: int) -> list[int]:
        """random::bootstrap: the in-bag draws."""
        return [self.range(0, n) for _ in range(n)]

    def sample_without_replacement(self, n: int, k: int) -> list[int]:
        """random::sample_without_replacement: partial Fisher-Yates."""
        idx = list(range(n))
        for i in range(k):
            j = self.range(i, n)
            idx[i], idx[j] = idx[j], idx[i]
        return idx[:k]


# ------------------------------------------------------------------ estimators
def fit(kind, x, y):
    if kind == "nearest_centroid":
        classes = np.unique(y)
        cent = np.array([x[y == c].mean(axis=0) for c in classes])
        return kind, (classes, cent)
    return kind, (x, y)


def predict(model, q):
    kind, (a, b) = model
    if kind == "nearest_centroid":
        classes, cent = a, b
        d = ((q[:, None, :] - cent[None, :, :]) ** 2).sum(axis=2)
        srt = np.sort(d, axis=1)
        assert np.all(srt[:, 1] - srt[:, 0] > 1e-9 * srt[:, 1]), "centroid tie"
        return classes[np.argmin(d, axis=1)]
    xt, yt = a, b
    d = ((q[:, None, :] - xt[None, :, :]) ** 2).sum(axis=2)
    i = np.argmin(d, axis=1)
    for r in range(len(q)):
        close = d[r] <= d[r, i[r]] * (1 + 1e-9) + 1e-300
        assert np.all(xt[close] == xt[i[r]]), "1-NN tie between different rows"
    return yt[i]


def losses(model, q, y):
    p = predict(model, q)
    if model[0] == "one_nn_regressor":
        return (y - p) ** 2
    return (p != y).astype(np.float64)


# ------------------------------------------------------------------ the estimates
def bootstrap_632(kind, x, y, seed, n_boot):
    n = len(y)
    in_bag = np.array([RustRng(seed, b).bootstrap(n) for b in range(n_boot)], dtype=np.int64)
    train, oob_err, frac = [], [], []
    loss_sum, loss_cnt = np.zeros(n), np.zeros(n, dtype=np.int64)
    for rows in in_bag:
        if kind != "one_nn_regressor":
            assert len(np.unique(y[rows])) == len(np.unique(y)), "a class missing from a sample"
        m = fit(kind, x[rows], y[rows])
        train.append(losses(m, x[rows], y[rows]).mean())
        oob = np.setdiff1d(np.arange(n), rows)
        assert oob.size > 0
        lo = losses(m, x[oob], y[oob])
        oob_err.append(lo.mean())
        frac.append((n - oob.size) / n)
        loss_sum[oob] += lo
        loss_cnt[oob] += 1
    train, oob_err = np.array(train), np.array(oob_err)
    estimate = 0.368 * train.mean() + 0.632 * oob_err.mean()
    seen = loss_cnt > 0
    loo = (loss_sum[seen] / loss_cnt[seen]).mean()
    full = fit(kind, x, y)
    apparent = losses(full, x, y).mean()
    efron = 0.368 * apparent + 0.632 * loo
    pred = predict(full, x)
    if kind == "one_nn_regressor":
        gamma = ((y[:, None] - pred[None, :]) ** 2).mean()
    else:
        gamma = (y[:, None] != pred[None, :]).mean()
        classes = np.unique(np.concatenate([y, pred]))
        pk = np.array([(y == c).mean() for c in classes])
        qk = np.array([(pred == c).mean() for c in classes])
        assert abs(gamma - (pk * (1 - qk)).sum()) < 1e-14
    for a, b in ((loo, apparent), (gamma, apparent), (loo, gamma)):
        assert abs(a - b) > 1e-9, "a branch of the .632+ rule is decided by rounding"
    loo_c = min(loo, gamma)
    r = (loo_c - apparent) / (gamma - apparent) if (loo > apparent and gamma > apparent) else 0.0
    r = min(max(r, 0.0), 1.0)
    w = 0.632 / (1.0 - 0.368 * r)
    plus = (1.0 - w) * apparent + w * loo_c
    return dict(
        kind=kind, x=x, seed=seed, n_bootstraps=n_boot, in_bag=in_bag,
        train_errors=train, oob_errors=oob_err, in_bag_fractions=np.array(frac),
        estimate=estimate, apparent_error=apparent, loo_bootstrap_error=loo, efron_632=efron,
        no_information_error=gamma, relative_overfitting=r, weight=w, plus_632=plus,
        points_never_out_of_bag=int((~seen).sum()),
        **({"y": y} if kind == "one_nn_regressor" else {"labels": y.astype(np.int64)}),
    )


def main():
    rng = np.random.default_rng(20260632)
    cases = {}
    # two overlapping Gaussian classes, nearest centroid: 0 < R < 1
    n = 40
    y = rng.permutation(np.repeat([0, 1], n // 2))
    x = rng.standard_normal((n, 2)) + np.where(y[:, None] == 1, [1.2, 0.8], [0.0, 0.0])
    c = bootstrap_632("nearest_centroid", x, y, 7, 60)
    assert 0.0 < c["relative_overfitting"] < 1.0
    cases["nearest_centroid_gauss2"] = c
    # three classes, 1-NN with noisy labels: apparent error 0, Err(1) above gamma -> R = 1
    n = 36
    y = np.repeat([0, 1, 2], n // 3)
    x = rng.standard_normal((n, 2)) * 1.5 + np.array([[0, 0], [2, 0], [1, 1.7]])[y]
    flip = rng.random(n) < 0.35
    y = np.where(flip, rng.integers(0, 3, n), y)
    c = bootstrap_632("one_nn_classifier", x, y, 3, 50)
    assert c["apparent_error"] == 0.0 and c["loo_bootstrap_error"] > c["no_information_error"]
    assert c["relative_overfitting"] == 1.0
    cases["one_nn_noisy3"] = c
    # 1-NN regression, squared loss: apparent 0, 0 < R < 1
    n = 30
    x = np.sort(rng.uniform(0.0, 3.0, n))[rng.permutation(n)][:, None]
    y = np.sin(2.0 * x[:, 0]) + 0.3 * rng.standard_normal(n)
    c = bootstrap_632("one_nn_regressor", x, y, 5, 50)
    assert c["apparent_error"] == 0.0 and 0.0 < c["relative_overfitting"] < 1.0
    cases["one_nn_regression"] = c
    for c in cases.values():
        # the .632+ correction is visible at the tested precision
        assert abs(c["plus_632"] - c["efron_632"]) > 1e-6
    write_json(
        "datasets/golden/core/bootstrap632.json", cases, "core_bootstrap632.py",
        "numpy .632 / .632+ (Efron & Tibshirani 1997) on ndlearn's own bootstrap samples "
        "(in_bag rows of replicate b = random::bootstrap(stream(seed, b), n), re-implemented "
        "bit for bit); gamma over all n^2 (target, prediction) pairs; 0.632 / 0.368 literal",
    )


if __name__ == "__main__":
    main()
