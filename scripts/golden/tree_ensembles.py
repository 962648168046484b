"""Golden references for the ndlearn-tree meta-ensembles: scikit-learn's BaggingClassifier /
BaggingRegressor, AdaBoostRegressor (AdaBoost.R2) and IsolationForest.

Writes datasets/golden/tree/ensembles.json. Every case stores its inputs `x` (float32-representable:
embedded data sets rounded through float32, generated data drawn then rounded) and `y` (class labels
as integers 0..K-1; regression targets; 1 = outlier / 0 = inlier for the isolation forests), so the
Rust side needs nothing else. Params are JSON strings (the file format has no booleans).

Part A -- statistical equivalence (the Rust ensembles need not draw the same random numbers)
---------------------------------------------------------------------------------------------
Repeated 5 x 2-fold CV: repeat r = 0..4 splits with StratifiedKFold(2, shuffle=True,
random_state=r) (classifiers) or KFold(2, shuffle=True, random_state=r) (regressors, isolation
forests). `fold_id[r, i]` in {0, 1} is the fold in which row i is a TEST row. For fold f the
estimator is fitted on the other fold's rows with random_state = 1000*r + f and scored on the test
rows; `scores` holds the 10 scores, r-major, f-minor. Fields: `estimator`, `params` (the
ensemble's params without random_state and the base estimator), `base_params` (the base tree's
params; "{}" for the isolation forests, whose trees are scikit-learn's internal
ExtraTreeRegressor(max_features=1, splitter="random")), `metric`:
  * accuracy = accuracy_score(y_test, predict(x_test));
  * r2 = r2_score(y_test, predict(x_test));
  * roc_auc = roc_auc_score(y_test, -score_samples(x_test)), the isolation forest being fitted on
    x_train only (y is not used for fitting).

Part B -- exact AdaBoostRegressor (AdaBoost.R2), cases ada_reg_exact_*
---------------------------------------------------------------------
Fields: `params` (n_estimators, loss, random_state, learning_rate), `depth` (base
DecisionTreeRegressor(max_depth=depth)), `estimator_weights` / `estimator_errors` (first
len(estimators_) entries), `pred` = predict(x), `staged` (stages x n, staged_predict(x)),
`feature_importances`, `node_counts` (per fitted tree), `tree_seeds` (the random_state each tree
received), `bootstrap_idx` (rounds x n, the rows each tree was fitted on, in draw order) and
`tie_free` (per tree: 1 if refitting on its bootstrap sample with random_state 0..7 gives the same
tree, i.e. no equal-gain split ties, so the tree's seed is irrelevant).
The script re-implements the whole fit below from raw MT19937 words and checks that it reproduces
scikit-learn bit for bit (seeds, bootstrap indices, trees, weights, errors, staged predictions).

This is what scikit-learn 1.9.1 does (sklearn/ensemble/_weight_boosting.py:
BaseWeightBoosting.fit, AdaBoostRegressor._boost, AdaBoostRegressor._get_median_predict; numpy
2.4.6 legacy RandomState), for n rows, T = n_estimators, lr = learning_rate, no sample_weight:

  Initialisation
    rs = np.random.RandomState(random_state)   # legacy MT19937, int seed -> init_genrand(seed)
    w = np.ones(n); w /= w.sum()               # every w_i = 1.0 / n (the sum n is exact)
    eps = np.finfo(np.float64).eps             # 2**-52
    estimator_weights_ = np.zeros(T); estimator_errors_ = np.ones(T); estimators_ = []

  Round k = 0, 1, ..., T-1
    1. w = np.clip(w, eps, None)               # w_i = max(w_i, 2**-52); no renormalisation.
       (Rows whose initial sample weight was exactly 0 are reset to 0; never the case here.)
    2. Tree seed, drawn in self._make_estimator(random_state=rs) -> _set_random_states:
         seed_k = rs.randint(np.iinfo(np.int32).max)      # randint(2147483647), int64
       The clone of the base tree gets random_state = seed_k and is appended to estimators_
       BEFORE it is fitted. In raw MT19937 32-bit outputs (genrand_int32) u:
         repeat v = u & 0x7FFFFFFF until v <= 2147483646;  seed_k = v
       (masked rejection; one draw for DecisionTreeRegressor, its only random_state parameter).
    3. Bootstrap:
         idx = rs.choice(np.arange(n), size=n, replace=True, p=w)
       numpy checks w >= 0 and |kahan_sum(w) - 1| <= sqrt(eps), then
         cdf = np.cumsum(w)                    # sequential: cdf[i] = cdf[i-1] + w[i]
         cdf /= cdf[-1]                        # element-wise division
         U = rs.random_sample(n)               # n doubles; each from two raw words a, b:
                                               # ((a >> 5) * 67108864.0 + (b >> 6)) / 9007199254740992.0
         idx[j] = np.searchsorted(cdf, U[j], side="right")
                = number of i with cdf[i] <= U[j] = smallest i with U[j] < cdf[i]
       Nothing else is drawn from rs in the round (the raw stream is: seed words, then 2n words).
    4. tree.fit(X[idx], y[idx])  (rows in draw order, duplicates repeated, unit weights);
       p = tree.predict(X) on all n training rows.
    5. e = |p - y|, restricted to the rows with w_i > 0 (all rows here); D = e.max();
       if D != 0: e = e / D
       loss "square":      e = e ** 2          (e * e)
       loss "exponential": e = 1.0 - np.exp(-e)
       loss "linear":      e unchanged
    6. err = np.sum(w * e)                     # numpy pairwise sum, see below; w = clipped w of 1.
    7. Early stops in _boost:
       * err <= 0: return (w, 1.0, 0.0): estimator_weights_[k] = 1.0 (NOT lr * anything),
         estimator_errors_[k] = 0.0, the tree is kept, and fit stops (error == 0).
       * err >= 0.5: if len(estimators_) > 1 (k >= 1) the tree just appended is removed; for k == 0
         it is kept. estimator_weights_[k] / estimator_errors_[k] keep their initial 0.0 / 1.0 and
         fit stops. So estimators_ ends with k trees, or (k == 0) one tree of weight 0.
    8. beta  = err / (1.0 - err)
       alpha = lr * np.log(1.0 / beta)         # estimator_weights_[k] = alpha, estimator_errors_[k] = err
    9. if k != T - 1:
           w_i = w_i * np.power(beta, (1.0 - e_i) * lr)   # (1 - e_i) * lr formed first, then pow
       On the last round (k == T - 1) w is left unchanged.
   10. Back in fit: s = np.sum(w) (pairwise);
       if not np.isfinite(s): warn and stop;  if s <= 0: stop;
       if k < T - 1: w = w / s                 # element-wise division
       (the next round starts again at step 1, the clip).

  numpy's np.sum of a contiguous float64 vector a of length n (pairwise summation, starting from 0):
    pw(a): if n < 8:   s = 0.0; s += a[0]; ...; s += a[n-1]
           elif n <= 128: r[j] = a[j] (j < 8); for i = 8, 16, ... while i < n - n % 8: r[j] += a[i + j];
                          s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
                          then s += a[i] for the remaining i (the last n % 8 entries)
           else:          m = n // 2; m -= m % 8; s = pw(a[:m]) + pw(a[m:])
    np.sum(a) = 0.0 + pw(a).

  Prediction (weighted median), _get_median_predict(X, limit):
    staged_predict stage m (m = 1 .. len(estimators_)) uses limit = m: the first m trees and the
    first m entries alpha_0..alpha_{m-1} of estimator_weights_; predict = stage len(estimators_).
    For each row i:
      P = [tree_t.predict(X)[i] for t < m]
      order = np.argsort(P)                    # default quicksort (introsort), NOT stable
      c = np.cumsum(alpha[order])              # sequential cumulative weights in sorted order
      j = first position with c[j] >= 0.5 * c[m - 1]       # c[m-1]: total, summed in sorted order
      prediction = P[order[j]]
    i.e. the LOWER weighted median: the smallest prediction v such that the weight of the trees
    predicting <= v is >= half the total weight. If the cumulative weight reaches exactly 50% at
    some value, that value is returned (not the mean with the next one). Equal predictions of
    several trees: the returned value does not depend on their order (only the rounding of c can).
    With a single tree of weight 0 (stop at k == 0), c = [0] >= 0 selects that tree.

  feature_importances_ = sum_t alpha_t * tree_t.feature_importances_ / np.sum(estimator_weights_)
    (t over estimators_; the sum of weights over all T entries, the unfitted ones being 0).
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.ensemble import (
    AdaBoostRegressor,
    BaggingClassifier,
    BaggingRegressor,
    IsolationForest,
)
from sklearn.metrics import accuracy_score, r2_score, roc_auc_score
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from common import diabetes_scaled, load_dataset, write_json

REPEATS = 5
FOLDS = 2
TIE_SEEDS = range(8)


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


# ------------------------------------------------------------------ data
def gen_regression():
    """As tree_forest.py's gen_regression, with n = 300 and its own seed; y rounded to float32 too."""
    rng = np.random.default_rng(20261201)
    n, d = 300, 4
    x = f32(rng.standard_normal((n, d)))
    y = 2.0 * x[:, 0] + np.sin(3.0 * x[:, 1]) + x[:, 2] * x[:, 3] + 0.3 * rng.standard_normal(n)
    return x, f32(y)


def gen_outliers():
    """300 standard-normal inliers in 4-d and 20 outliers uniform in [-6, 6]^4, shuffled."""
    rng = np.random.default_rng(20261202)
    inliers = rng.standard_normal((300, 4))
    outliers = rng.uniform(-6.0, 6.0, size=(20, 4))
    x = np.concatenate([inliers, outliers])
    y = np.concatenate([np.zeros(300, dtype=np.int64), np.ones(20, dtype=np.int64)])
    perm = rng.permutation(len(y))
    return f32(x[perm]), y[perm]


def breast_cancer_outliers():
    """breast_cancer: every benign row (class 1) as inlier and the first 30 malignant rows (class
    0) as outliers, in the data set's row order; y = 1 for the outliers."""
    x, y, _ = load_dataset("breast_cancer")
    malignant = np.flatnonzero(y == 0)[:30]
    keep = np.sort(np.concatenate([np.flatnonzero(y == 1), malignant]))
    return f32(x[keep]), (y[keep] == 0).astype(np.int64)


# ------------------------------------------------------------------ Part A
def cv_case(estimator_name, make, params, base_params, metric, x, y, stratified):
    n = len(y)
    fold_id = np.full((REPEATS, n), -1, dtype=np.int64)
    scores = []
    for r in range(REPEATS):
        cv = (StratifiedKFold if stratified else KFold)(FOLDS, shuffle=True, random_state=r)
        for f, (tr, te) in enumerate(cv.split(x, y)):
            fold_id[r, te] = f
            m = make(1000 * r + f)
            if metric == "roc_auc":
                m.fit(x[tr])
                s = roc_auc_score(y[te], -m.score_samples(x[te]))
            else:
                m.fit(x[tr], y[tr])
                pred = m.predict(x[te])
                s = accuracy_score(y[te], pred) if metric == "accuracy" else r2_score(y[te], pred)
            scores.append(float(s))
    assert np.all(fold_id >= 0)
    assert np.all(np.abs(fold_id.sum(axis=1) - n / 2) <= 2)  # two near-equal folds
    return dict(
        estimator=estimator_name, params=json.dumps(params), base_params=json.dumps(base_params),
        metric=metric, x=x, y=y, fold_id=fold_id, scores=np.array(scores),
    )


def part_a(cases):
    xb, yb, _ = load_dataset("breast_cancer")
    xb = f32(xb)
    xw, yw, _ = load_dataset("wine")
    xw = f32(xw)
    xd, yd, _ = load_dataset("diabetes")
    xd = f32(diabetes_scaled(xd))
    xg, yg = gen_regression()

    def bag_clf(params, base):
        return lambda seed: BaggingClassifier(DecisionTreeClassifier(**base), random_state=seed,
                                              **params)

    def bag_reg(params, base):
        return lambda seed: BaggingRegressor(DecisionTreeRegressor(**base), random_state=seed,
                                             **params)

    def ada_reg(params, base):
        return lambda seed: AdaBoostRegressor(DecisionTreeRegressor(**base), random_state=seed,
                                              **params)

    def iso(params):
        return lambda seed: IsolationForest(random_state=seed, **params)

    settings = [
        ("bagging_clf_breast_cancer", "bagging_classifier", bag_clf, dict(n_estimators=25), {},
         "accuracy", xb, yb),
        ("bagging_clf_wine_features", "bagging_classifier", bag_clf,
         dict(n_estimators=25, max_samples=0.8, max_features=0.6, bootstrap_features=True), {},
         "accuracy", xw, yw),
        ("random_subspace_breast_cancer", "bagging_classifier", bag_clf,
         dict(n_estimators=25, bootstrap=False, max_features=0.5), {}, "accuracy", xb, yb),
        ("bagging_reg_diabetes", "bagging_regressor", bag_reg, dict(n_estimators=25), {}, "r2",
         xd, yd),
        ("bagging_reg_generated", "bagging_regressor", bag_reg,
         dict(n_estimators=25, max_samples=0.7), dict(min_samples_leaf=3), "r2", xg, yg),
    ]
    for loss in ("linear", "square", "exponential"):
        settings.append((f"ada_reg_diabetes_{loss}", "ada_boost_regressor", ada_reg,
                         dict(n_estimators=30, loss=loss), dict(max_depth=3), "r2", xd, yd))
    for name, est, maker, params, base, metric, x, y in settings:
        cases[name] = cv_case(est, maker(params, base), params, base, metric, x, y,
                              stratified=metric == "accuracy")

    xo, yo = gen_outliers()
    params = dict(n_estimators=100)
    cases["isolation_forest_auc"] = cv_case("isolation_forest", iso(params), params, {},
                                            "roc_auc", xo, yo, stratified=False)
    xbo, ybo = breast_cancer_outliers()
    params = dict(n_estimators=100, max_samples=128)
    cases["isolation_forest_breast_cancer"] = cv_case("isolation_forest", iso(params), params, {},
                                                      "roc_auc", xbo, ybo, stratified=False)


# ------------------------------------------------------------------ Part B: AdaBoost.R2 by hand
class RawMT:
    """numpy's legacy RandomState draws, rebuilt from raw MT19937 32-bit words."""

    def __init__(self, seed):
        st = np.random.RandomState(seed).get_state()
        self.bg = np.random.MT19937()
        self.bg.state = {"bit_generator": "MT19937", "state": {"key": st[1], "pos": st[2]}}

    def u32(self):
        return int(self.bg.random_raw())

    def randint_int32_max(self):  # RandomState.randint(2147483647)
        while True:
            v = self.u32() & 0x7FFFFFFF
            if v <= 2147483646:
                return v

    def random_sample(self):
        a, b = self.u32() >> 5, self.u32() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0

    def choice_p(self, p):  # RandomState.choice(np.arange(n), size=n, replace=True, p=p)
        n = len(p)
        cdf = np.empty(n)
        acc = 0.0
        for i in range(n):
            acc += float(p[i])
            cdf[i] = acc
        cdf /= cdf[-1]
        u = np.array([self.random_sample() for _ in range(n)])
        return np.searchsorted(cdf, u, side="right")


def pairwise_sum(a):
    a = [float(v) for v in a]

    def pw(a):
        n = len(a)
        if n < 8:
            s = 0.0
            for v in a:
                s += v
            return s
        if n <= 128:
            r = a[:8]
            i = 8
            while i < n - n % 8:
                for j in range(8):
                    r[j] += a[i + j]
                i += 8
            s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
            while i < n:
                s += a[i]
                i += 1
            return s
        m = n // 2
        m -= m % 8
        return pw(a[:m]) + pw(a[m:])

    return 0.0 + pw(a)


def r2_by_hand(x, y, depth, n_estimators, loss, random_state, learning_rate):
    """AdaBoost.R2 exactly as described in the module docstring."""
    n = len(y)
    rs = RawMT(random_state)
    w = np.ones(n)
    w /= w.sum()
    eps = np.finfo(np.float64).eps
    alphas, errs, trees, seeds, boot = [], [], [], [], []
    for k in range(n_estimators):
        w = np.maximum(w, eps)
        seed = rs.randint_int32_max()
        idx = rs.choice_p(w)
        tree = DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(x[idx], y[idx])
        trees.append(tree)
        seeds.append(seed)
        boot.append(idx)
        e = np.abs(tree.predict(x) - y)
        mask = w > 0
        e = e[mask]
        d = e.max()
        if d != 0:
            e = e / d
        if loss == "square":
            e = e * e
        elif loss == "exponential":
            e = 1.0 - np.exp(-e)
        err = pairwise_sum(w[mask] * e)
        assert err == np.sum(w[mask] * e)
        if err <= 0:
            alphas.append(1.0)
            errs.append(0.0)
            break
        if err >= 0.5:
            if len(trees) > 1:
                trees.pop()
                seeds.pop()
                boot.pop()
            else:
                alphas.append(0.0)
                errs.append(1.0)
            break
        beta = err / (1.0 - err)
        alphas.append(learning_rate * np.log(1.0 / beta))
        errs.append(err)
        if k != n_estimators - 1:
            w[mask] = w[mask] * np.power(beta, (1.0 - e) * learning_rate)
        s = pairwise_sum(w)
        if not np.isfinite(s) or s <= 0:
            break
        if k < n_estimators - 1:
            w = w / s
    return dict(alphas=np.array(alphas), errs=np.array(errs), trees=trees, seeds=seeds,
                boot=np.array(boot, dtype=np.int64))


def weighted_median(preds, alphas):
    """preds: (m, n) predictions of the first m trees; the lower weighted median per column."""
    out = np.empty(preds.shape[1])
    for i in range(preds.shape[1]):
        order = np.argsort(preds[:, i])
        c = np.cumsum(alphas[order])
        j = int(np.argmax(c >= 0.5 * c[-1]))
        out[i] = preds[order[j], i]
    return out


def same_tree(a, b):
    ta, tb = a.tree_, b.tree_
    return (
        ta.node_count == tb.node_count
        and np.array_equal(ta.feature, tb.feature)
        and np.array_equal(ta.threshold, tb.threshold)
        and np.array_equal(ta.children_left, tb.children_left)
    )


def part_b(cases):
    xd, yd, _ = load_dataset("diabetes")
    xd = f32(diabetes_scaled(xd))
    xg, yg = gen_regression()
    settings = [
        ("ada_reg_exact_diabetes_linear", xd, yd,
         dict(n_estimators=10, loss="linear", random_state=0, learning_rate=1.0)),
        ("ada_reg_exact_diabetes_square", xd, yd,
         dict(n_estimators=8, loss="square", random_state=3, learning_rate=1.0)),
        ("ada_reg_exact_generated_exponential", xg, yg,
         dict(n_estimators=12, loss="exponential", random_state=5, learning_rate=0.5)),
    ]
    depth = 3
    for name, x, y, params in settings:
        m = AdaBoostRegressor(DecisionTreeRegressor(max_depth=depth), **params).fit(x, y)
        k = len(m.estimators_)
        mine = r2_by_hand(x, y, depth, params["n_estimators"], params["loss"],
                          params["random_state"], params["learning_rate"])
        # --- the re-implementation is scikit-learn's fit, bit for bit
        assert len(mine["trees"]) == k, (name, len(mine["trees"]), k)
        assert [e.random_state for e in m.estimators_] == mine["seeds"], name
        assert np.array_equal(m.estimator_weights_[:k], mine["alphas"][:k]), name
        assert np.array_equal(m.estimator_errors_[:k], mine["errs"][:k]), name
        for a, b in zip(m.estimators_, mine["trees"]):
            assert same_tree(a, b), name
            assert np.array_equal(a.predict(x), b.predict(x)), name
        staged = np.array(list(m.staged_predict(x)))
        preds = np.array([t.predict(x) for t in m.estimators_])
        for s in range(k):
            assert np.array_equal(staged[s], weighted_median(preds[: s + 1],
                                                             m.estimator_weights_[: s + 1])), name
        pred = m.predict(x)
        assert np.array_equal(pred, staged[-1]), name
        # --- the raw-word RandomState emulation against RandomState's own calls
        w_rounds = []
        w = np.full(len(y), 1.0 / len(y))
        # replay sklearn's weights round by round from the stored alphas / errors
        for t in range(k):
            w = np.maximum(w, np.finfo(np.float64).eps)
            w_rounds.append(w.copy())
            e = np.abs(m.estimators_[t].predict(x) - y)
            e = e / e.max()
            if params["loss"] == "square":
                e = e * e
            elif params["loss"] == "exponential":
                e = 1.0 - np.exp(-e)
            beta = m.estimator_errors_[t] / (1.0 - m.estimator_errors_[t])
            assert np.sum(w * e) == m.estimator_errors_[t], name
            if t != params["n_estimators"] - 1:
                w = w * np.power(beta, (1.0 - e) * params["learning_rate"])
                w = w / np.sum(w)
        # RandomState's own calls, the raw-word emulation and the re-implementation agree
        rs = np.random.RandomState(params["random_state"])
        raw = RawMT(params["random_state"])
        for t, w in enumerate(w_rounds):
            s1, s2 = rs.randint(np.iinfo(np.int32).max), raw.randint_int32_max()
            assert s1 == s2 == mine["seeds"][t], name
            i1 = rs.choice(np.arange(len(y)), size=len(y), replace=True, p=w)
            i2 = raw.choice_p(w)
            assert np.array_equal(i1, i2) and np.array_equal(i1, mine["boot"][t]), name
        # --- equal-gain ties: is each tree independent of its seed?
        tie_free = []
        for t in range(k):
            idx = mine["boot"][t]
            fits = [DecisionTreeRegressor(max_depth=depth, random_state=s).fit(x[idx], y[idx])
                    for s in TIE_SEEDS]
            tie_free.append(int(all(same_tree(m.estimators_[t], f) for f in fits)))
        cases[name] = dict(
            estimator="ada_boost_regressor", params=json.dumps(params), depth=depth,
            x=x, y=y,
            estimator_weights=m.estimator_weights_[:k], estimator_errors=m.estimator_errors_[:k],
            pred=pred, staged=staged, feature_importances=m.feature_importances_,
            node_counts=np.array([e.tree_.node_count for e in m.estimators_], dtype=np.int64),
            tree_seeds=np.array(mine["seeds"], dtype=np.int64),
            bootstrap_idx=mine["boot"][:k],
            tie_free=np.array(tie_free, dtype=np.int64),
        )
        print(f"{name}: {k} trees, tie_free {tie_free}")


def main():
    cases = {}
    part_a(cases)
    part_b(cases)
    write_json(
        "datasets/golden/tree/ensembles.json",
        cases,
        "scripts/golden/tree_ensembles.py",
        "float32-rounded inputs x (and generated y); Part A (fold_id, scores): repeated 5 x 2-fold "
        "CV, fold_id[r, i] = fold in which row i is a test row, scores r-major with "
        "random_state = 1000*r + f, metrics accuracy / r2 / roc_auc(-score_samples); Part B "
        "(ada_reg_exact_*): AdaBoostRegressor fitted on all rows, bootstrap_idx and tree_seeds "
        "per round, staged = staged_predict (stages x n), tie_free per tree (random_state 0..7); "
        "see the script's docstring for AdaBoost.R2's draws, weight updates and weighted median",
    )
    print("ensemble cases:", len(cases))
    for name, c in cases.items():
        if "scores" in c:
            s = np.asarray(c["scores"])
            print(f"  {name:34s} {c['metric']:8s} mean {s.mean():.4f} sd {s.std(ddof=1):.4f}")


if __name__ == "__main__":
    main()
