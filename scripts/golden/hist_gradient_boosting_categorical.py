"""Golden references for native categorical splits of ndlearn-tree's
HistGradientBoostingRegressor / Classifier: scikit-learn 1.9.1's HistGradientBoosting* with
`categorical_features=` (every node of every predictor, baselines and raw scores).

Writes datasets/golden/tree/hist_gradient_boosting_categorical.json. Same layout as
hist_gradient_boosting.py (x / x_test with NaN as a 0/1 mask, settings, `baseline`, the node
table flattened in iteration-major order with `tree_sizes`, `n_iter`, `raw_train`,
`raw_test` (n x K)), plus per case:

* `categorical`: 0/1 per original column (passed to sklearn as a boolean mask).
* `feature_order`: sklearn's internal column order (see rule 1): entry j = the original column
  at internal position j (categorical columns first, then the others, each in original order).
* `known_categories` / `known_categories_len`: for each categorical column (original order),
  the sorted distinct non-NaN raw training values; the ordinal code of a category is its
  position in this list (these codes are what sklearn bins, splits and stores in bitsets).
* node fields as in hist_gradient_boosting.py, but `node_feature_idx` is given as an ORIGINAL
  column index (sklearn's internal index mapped back through `feature_order`; leaves keep 0);
  `node_num_threshold` / `node_bin_threshold` are 0 on categorical splits;
  `node_is_categorical` (0/1); `node_left_cat_bins` and `node_left_cat_raw`: (n_nodes x 8)
  tables flattened row-major (row i = node i; rows of every tree concatenated as in
  `tree_sizes`), the eight uint32 words (as floats) of sklearn's `binned_left_cat_bitsets` and
  `raw_left_cat_bitsets` row `bitset_idx` of that node; zero rows for other nodes. Bit b of the
  bitset is bit (b % 32) of word b // 32. In 1.9.1 both bitsets are over ordinal codes, so
  they are equal except that the binned one also carries bit `max_bins` (the missing-values
  bin) when missing values go left; map code c back to a raw value with known_categories.
* `n_bins_non_missing` (internal column order, as in sklearn), `has_missing_values`
  (original column order).

Every case is checked by replaying the boosting in Python (gradients / hessians per
iteration, per-node category statistics of every tree): (a) equal sort keys (rule 5c) among
the categories used at a node occur only between categories with identical count, gradient
and hessian sums (possible in classification, where all rows of a class share one gradient
early on), and the chosen split never separates such a group, so the order of ties cannot
change any tree; distinct sort keys differ by a relative 2e-6 or more (at least 1e-5
except in the weighted case); (b) a re-implementation of rule 5 reproduces every
categorical split's left bitset, missing-value direction, gain and left count.

scikit-learn 1.9.1 categorical rules (read from gradient_boosting.py, binning.py,
_binning.pyx, splitting.pyx, grower.py, _predictor.pyx, utils/validation.py; verified by
experiment where marked).

1. Input preprocessing (fit). `categorical_features` may be a boolean mask of length
   n_features, integer indices in [0, n_features - 1], feature names (needs a DataFrame), or
   "from_dtype" (DataFrame Categorical/Enum columns; for a plain array it means none). A float
   array is an error ("must be an array-like of bool, int or str"), a mask of the wrong length
   is an error, an out-of-range index is an error. If no column is categorical, nothing below
   applies. Otherwise X goes through an OrdinalEncoder (categories="auto",
   handle_unknown="use_encoded_value", unknown_value=NaN, encoded_missing_value=NaN) on the
   categorical columns and an unchanged pass-through on the others, inside a ColumnTransformer
   whose output puts ALL categorical columns first (in their original order) and then the
   numerical ones (in original order). Everything downstream (binning, trees, node
   `feature_idx`, `n_bins_non_missing_`, bin thresholds) uses this internal column order.
   The encoder maps each distinct non-NaN raw float value of the training column, sorted
   ascending, to codes 0, 1, ..., k-1 (equality is float equality, so 1 and 1.0 are one
   category; non-integers such as 2.5, large values such as 1000 and NEGATIVE values are
   ordinary categories). Verified: -3 and -1 became codes 0 and 1 -- negative categories are
   NOT treated as missing by the estimator in 1.9.1, although the docstring still says so.
   NaN is encoded as NaN.
2. Cardinality check: k (distinct non-NaN training values) must be <= max_bins, else
   ValueError "Categorical feature ... is expected to have a cardinality <= {max_bins} but
   actually has a cardinality of {k}" (k == max_bins is allowed; verified with 21 categories
   and max_bins 20 / 21). There is no check on the values themselves (no "values must be <
   max_bins" rule any more) since they are re-encoded.
3. Monotonic constraints: a non-zero constraint on a categorical feature raises ValueError
   "Categorical features cannot have monotonic constraints." (the constraint vector is
   reordered into the internal column order before the check). Monotonic constraints on
   other features still bound the node values (lower/upper bounds), including the children
   of categorical splits.
4. Binning: for a categorical column the bin mapper's `bin_thresholds_[f]` is
   np.arange(k) (float), i.e. code c -> bin c; `n_bins_non_missing_[f] = k`. NaN (missing
   and, through the encoder, unknown) -> bin `max_bins` (the last bin, = n_bins - 1). The
   low-level binning would also send negative values to the missing bin, but after the
   encoder no value is negative. `has_missing_values[f]` = any training row in the missing
   bin (whole training set, computed once).
5. Split finding for a categorical feature at a node (n = node sample count, G = node
   gradient sum, H = node hessian sum; for constant hessians -- squared / absolute /
   quantile loss without sample weights -- H = hessian * n = n and per-bin "hessian" is the
   bin count; otherwise (sample weights, Poisson, gamma, log-loss) per-bin hessian sums).
   a. Candidates: bins 0..k-1 in bin order, then the missing bin if has_missing_values[f]
      (NaN is just another category). Support factor s = n / H (1 for constant unit
      hessians). A bin is used iff h_bin * s >= MIN_CAT_SUPPORT = 10 (with constant
      hessians: count >= 10; with weights: the bin's share of the node hessian times n). So a
      category with fewer than 10 rows (or an empty bin) at the node is never used.
   b. If at most one bin is used: no split on this feature (gain stays -1).
   c. Sort key (cat smoothing, also 10): value = g_bin / (h_bin + 10), where h_bin is the
      count (constant hessians) or the hessian sum; the support factor is NOT applied here.
      Used bins are sorted by increasing value with C qsort and the comparator "a < b ? -1 :
      1" (never 0): ties have an unspecified order -- avoid them.
   d. Two scans over the sorted used bins (m = number used). Direction +1 (ascending):
      left = the first i+1 sorted bins, i = 0 .. (m+1)//2 - 1, i.e. up to ceil(m/2) bins
      on the left. Direction -1 (descending): left = the last i+1 sorted bins, i = 0 ..
      (m+1)//2 - 2, i.e. up to ceil(m/2) - 1 bins on the left (nothing when m = 2). The code
      comment in splitting.pyx claims "C D - A B E" for m = 4 is scanned; the code does not
      (it scans only "D" in that direction). There is no MAX_CAT_THRESHOLD / max_cat_to_onehot
      / max-categories-per-side parameter in sklearn: the (m+1)//2 limits are the only cap.
   e. Each candidate accumulates count, hessian (count if constant) and gradient of the left
      bins; right = node totals minus left (n - count_left, H - h_left, G - g_left).
      If count_left < min_samples_leaf or h_left < min_hessian_to_split (1e-3): skip
      (continue); else if count_right < min_samples_leaf or h_right < 1e-3: stop this
      direction (break). Gain as for numerical splits: with v(g, h) = clip(-g / (h + l2 +
      1e-15), lower, upper), gain = G * v_node - g_L * v(g_L, h_L) - g_R * v(g_R, h_R),
      where v_node is the node's unshrunk value v(G, H) computed when its parent was split,
      except at the ROOT, which sklearn creates with value 0, so v_node = 0 there (the root's
      gain is g_L^2 / (h_L + l2) + g_R^2 / (h_R + l2) and the root's stored value is 0; this
      only shifts the root's gains by a constant and matters only with min_gain_to_split > 0;
      same for numerical splits). The monotonic test is irrelevant (no constraint allowed on
      categorical features). A candidate replaces the best if gain > best (strict, best
      starts at -1) and gain > min_gain_to_split (0): the first of equal gains wins,
      direction +1 before -1, smaller i first.
   f. Result: the left bitset over bins = the chosen prefix (direction +1) or suffix
      (direction -1) of the sorted used bins. All unused (low-support or empty) categories,
      and every category not in the prefix/suffix, go right. If has_missing_values[f],
      missing_go_to_left = (missing bin in the left bitset); so NaN goes right if the missing
      bin was under-supported at this node. The split's bin_idx is 0 (unused).
   g. Across features the best split is the strictly largest gain over features in internal
      column order (first wins on equal gains), same as for numerical features.
6. Missing-values direction when the feature had NO missing values in training (numerical or
   categorical): after splitting, the grower sets missing_go_to_left = (left count > right
   count), ties -> right. NaN / unknown categories at predict then follow that.
7. Sample weights: gradients and hessians are multiplied by the weights, so hessians are no
   longer constant: the support test uses weighted hessians scaled by n / H (rule 5a), the
   sort key uses weighted g / (weighted h + 10), the left/right hessian sums are weighted,
   while min_samples_leaf and the node `count` stay raw row counts. Binning of categorical
   columns does not depend on weights.
8. Predictor arrays: a categorical split node has is_categorical = 1, bitset_idx = running
   index of categorical splits in the predictor's depth-first (node order) layout,
   num_threshold = 0, bin_threshold = 0; binned_left_cat_bitsets[bitset_idx] = the split's
   bin bitset (may contain bit max_bins); raw_left_cat_bitsets[bitset_idx] has bit
   bin_thresholds_[f][b] for each known bin b in the binned bitset, i.e. the same codes
   without the missing bit.
9. Prediction on raw data: X goes through the fitted encoder first: a category unseen in
   training (any value, in [0, max_bins) or not, negative, non-integer) becomes NaN, as does
   NaN. Then at a categorical node: NaN -> left iff missing_go_to_left; (negative -> treated as
   missing; cannot happen after encoding); code in raw bitset -> left; code in the feature's
   known-categories bitset -> right; otherwise (cannot happen after encoding) -> missing
   direction. Verified here in the `unseen_categories` case. Prediction on binned data
   (used during fit): missing bin -> missing_go_to_left; else bin in binned bitset -> left;
   else right.
10. Interaction constraints: the index sets in `interaction_cst` are NOT remapped to the
    internal column order (monotonic_cst is); they are applied to internal positions
    (verified: with categorical column 1 and interaction_cst [[1, 2], [0]], the trees used
    internal columns {1, 2} = original columns {0, 2}). Otherwise categorical features take
    part in interaction constraints like any other feature.
11. max_features (feature_fraction_per_split): the per-node random feature mask is drawn
    over the allowed features in internal column order; a masked-out categorical feature
    gets gain -1 like a numerical one. Nothing else is categorical-specific.
12. sklearn quirk (verified, not in these cases): a categorical feature with a single known
    category plus NaN has n_bins_non_missing = 1, so a split on it (bin_idx 0 ==
    n_bins_non_missing - 1) is stored as a "split on NaN" (num_threshold = +inf): its bitset
    is never written (the tree's last bitset row stays zero), bitset_idx stays 0 and
    is_categorical stays 1, so prediction (raw and binned) tests the category against bitset
    row 0, which belongs to another split or is that zero row. Training is unaffected (raw
    scores are updated from the grower's partition); with a single categorical split, a
    category that went left in training is sent right at predict.
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

from common import write_json

FIELDS = ["feature_idx", "num_threshold", "bin_threshold", "missing_go_to_left", "left",
          "right", "is_leaf", "value", "count", "depth"]
MIN_CAT_SUPPORT = 10.0


def words(bitset_row):
    return np.asarray(bitset_row, dtype=np.uint32).astype(np.float64)


def nodes_table(est, order):
    tables, sizes = {f: [] for f in FIELDS + ["is_categorical"]}, []
    bins, raws = [], []
    for per_iter in est._predictors:
        for pred in per_iter:
            nodes = pred.nodes
            sizes.append(len(nodes))
            for f in FIELDS + ["is_categorical"]:
                v = np.asarray(nodes[f], dtype=np.float64)
                if f == "num_threshold":
                    v = np.where(np.isinf(v), 1e300, v)
                if f == "feature_idx":
                    v = np.where(nodes["is_leaf"] == 1, 0.0,
                                 order[np.asarray(nodes[f], dtype=np.int64)].astype(np.float64))
                tables[f].append(v)
            b = np.zeros((len(nodes), 8))
            r = np.zeros((len(nodes), 8))
            for i, nd in enumerate(nodes):
                if nd["is_leaf"] == 0 and nd["is_categorical"] == 1:
                    assert not np.isinf(nd["num_threshold"]), "single-category quirk hit"
                    b[i] = words(pred.binned_left_cat_bitsets[nd["bitset_idx"]])
                    r[i] = words(pred.raw_left_cat_bitsets[nd["bitset_idx"]])
            bins.append(b.ravel())
            raws.append(r.ravel())
    out = {f"node_{f}": np.concatenate(tables[f]) for f in FIELDS + ["is_categorical"]}
    out["node_left_cat_bins"] = np.concatenate(bins)
    out["node_left_cat_raw"] = np.concatenate(raws)
    out["tree_sizes"] = np.array(sizes, dtype=np.int64)
    return out


def store_x(case, key, x):
    case[key] = np.nan_to_num(x, nan=0.0)
    case[key + "_nan_mask"] = np.isnan(x).astype(np.float64)


def in_bits(bitset, b):
    return (int(bitset[b // 32]) >> (b % 32)) & 1


def check_iterations(est, x, y, w):
    """Replay the boosting on the binned training rows: per iteration, gradients / hessians
    (float32, as sklearn) at the current raw scores; route the rows through every tree and,
    at every internal node and for every categorical feature, (a) check that equal sort keys
    only occur between categories with identical (count, gradient, hessian) sums, which the
    chosen split never separates, and (b) re-derive the categorical split (docstring rule 5)
    where the node splits on that feature. Returns the smallest relative gap between two
    distinct sort keys, the number of splits re-derived and the number of harmless ties."""
    xb = est._bin_mapper.transform(est._preprocessor.transform(x))
    nbnm = est._bin_mapper.n_bins_non_missing_
    miss = int(est._bin_mapper.missing_values_bin_idx_)
    has_missing = (xb == miss).any(axis=0)
    is_cat = est._is_categorical_remapped
    n = len(x)
    k_trees = est.n_trees_per_iteration_
    y_enc = est._encode_y(y) if hasattr(est, "classes_") else np.asarray(y, dtype=np.float64)
    raw = np.tile(np.asarray(est._baseline_prediction, dtype=np.float64).ravel(), (n, 1))
    loss = est._loss
    const_h = loss.constant_hessian
    min_leaf, l2 = est.min_samples_leaf, est.l2_regularization
    min_gap = np.inf
    n_checked = 0
    n_ties = [0]
    n_desc = [0]
    for it, k, pred in [(it, k, p) for it, ps in enumerate(est._predictors)
                        for k, p in enumerate(ps)]:
        if k == 0:
            g, h = loss.gradient_hessian(y_true=y_enc, raw_prediction=raw[:, 0] if k_trees == 1
                                         else raw, sample_weight=w)
            g = np.asarray(g, dtype=np.float32).reshape(n, -1).astype(np.float64)
            h = np.asarray(h, dtype=np.float32).reshape(n, -1).astype(np.float64)
            for kk, pp in enumerate(est._predictors[it]):
                raw[:, kk] += pp.predict_binned(xb, miss, 1)
        gk, hk = g[:, k], h[:, k]
        nodes = pred.nodes
        stack = [(0, np.arange(n))]
        while stack:
            i, idx = stack.pop()
            nd = nodes[i]
            if nd["is_leaf"]:
                continue
            assert nd["count"] == len(idx)
            cnt_node = len(idx)
            G = gk[idx].sum()
            H = hk[0] * cnt_node if const_h else hk[idx].sum()
            sf = cnt_node / H
            for f in np.flatnonzero(is_cat):
                col = xb[idx, f].astype(np.int64)
                cnt = np.bincount(col, minlength=miss + 1).astype(np.float64)
                gs = np.bincount(col, weights=gk[idx], minlength=miss + 1)
                hs = cnt if const_h else np.bincount(col, weights=hk[idx], minlength=miss + 1)
                cand = list(range(nbnm[f])) + ([miss] if has_missing[f] else [])
                used = [b for b in cand if hs[b] * sf >= MIN_CAT_SUPPORT]
                vals = np.array([gs[b] / (hs[b] + MIN_CAT_SUPPORT) for b in used])
                tied_groups = []
                if len(used) > 1:
                    sv = np.sort(vals)
                    for val in np.unique(sv[:-1][np.diff(sv) == 0]):
                        grp = [b for b, vb in zip(used, vals) if vb == val]
                        # A tie is harmless only between categories with identical
                        # statistics (same gains whatever the order) ...
                        assert len({(cnt[b], gs[b], hs[b]) for b in grp}) == 1, grp
                        tied_groups.append(set(grp))
                    n_ties[0] += len(tied_groups)
                    distinct = np.unique(sv)
                    if len(distinct) > 1:
                        gaps = np.diff(distinct) / np.maximum(np.abs(distinct[1:]),
                                                              np.abs(distinct[:-1]))
                        min_gap = min(min_gap, gaps.min())
                if not (nd["is_categorical"] and nd["feature_idx"] == f):
                    continue
                # ... and if the chosen split does not cut a tied group.
                bitset = pred.binned_left_cat_bitsets[nd["bitset_idx"]]
                for grp in tied_groups:
                    assert len({in_bits(bitset, b) for b in grp}) == 1, "tie cut"
                # Re-implementation of the categorical split search (docstring rule 5).
                order = [used[j] for j in np.argsort(vals, kind="stable")]
                m = len(order)

                def v(gg, hh):
                    return -gg / (hh + l2 + 1e-15)
                loss_node = 0.0 if i == 0 else G * v(G, H)  # the root has value 0
                best = (-1.0, None)
                for direction in (1, -1):
                    middle = (m + 1) // 2 if direction == 1 else (m + 1) // 2 - 1
                    gl = hl = 0.0
                    nl = 0
                    for j in range(middle):
                        b = order[j] if direction == 1 else order[m - 1 - j]
                        nl += int(cnt[b])
                        hl += cnt[b] if const_h else hs[b]
                        gl += gs[b]
                        nr, hr, gr = cnt_node - nl, H - hl, G - gl
                        if nl < min_leaf or hl < 1e-3:
                            continue
                        if nr < min_leaf or hr < 1e-3:
                            break
                        gain = loss_node - gl * v(gl, hl) - gr * v(gr, hr)
                        if gain > best[0] and gain > 0.0:
                            left = order[:j + 1] if direction == 1 else order[m - 1 - j:]
                            best = (gain, (set(left), nl), direction)
                sk_left = {b for b in range(miss + 1) if in_bits(bitset, b)}
                assert best[1] is not None and best[1][0] == sk_left, (best, sk_left)
                assert nodes[nd["left"]]["count"] == best[1][1]
                assert np.isclose(best[0], nd["gain"], rtol=1e-6, atol=1e-9)
                if has_missing[f]:
                    assert nd["missing_go_to_left"] == (miss in sk_left)
                n_checked += 1
                n_desc[0] += best[2] == -1
            # route rows (binned prediction rules)
            f = nd["feature_idx"]
            col = xb[idx, f]
            if nd["is_categorical"]:
                bitset = pred.binned_left_cat_bitsets[nd["bitset_idx"]]
                go_left = np.array([in_bits(bitset, int(b)) for b in col], dtype=bool)
            else:
                go_left = np.where(col == miss, bool(nd["missing_go_to_left"]),
                                   col <= nd["bin_threshold"])
            stack.append((int(nd["left"]), idx[go_left]))
            stack.append((int(nd["right"]), idx[~go_left]))
    return min_gap, n_checked, n_ties[0], n_desc[0]


def main():
    rng = np.random.default_rng(20261203)
    cases = {}

    def categories(values, probs, n):
        p = np.asarray(probs, dtype=np.float64)
        return rng.choice(np.asarray(values, dtype=np.float64), size=n, p=p / p.sum())

    def add(name, est, x, y, xt, cat, w=None, settings=None):
        cat = np.asarray(cat, dtype=bool)
        # Continuous inputs and targets are rounded (shorter JSON); the stored values are
        # exactly the ones fitted.
        x, xt = x.copy(), xt.copy()
        x[:, ~cat] = np.round(x[:, ~cat], 3)
        xt[:, ~cat] = np.round(xt[:, ~cat], 3)
        if np.asarray(y).dtype.kind == "f":
            y = np.round(y, 4)
        est.set_params(categorical_features=cat)
        est.fit(x, y, sample_weight=w)
        case = dict(settings or {})
        case["categorical"] = cat.astype(np.float64)
        order = np.concatenate([np.flatnonzero(cat), np.flatnonzero(~cat)])
        assert np.array_equal(est._is_categorical_remapped, np.arange(len(cat)) < cat.sum())
        case["feature_order"] = order.astype(np.int64)
        store_x(case, "x", x)
        store_x(case, "x_test", xt)
        case["y"] = np.asarray(y, dtype=np.float64)
        if w is not None:
            case["sample_weight"] = w
        enc = est._preprocessor.named_transformers_["encoder"]
        known = []
        for j, cats in enumerate(enc.categories_):
            cats = np.asarray(cats, dtype=np.float64)
            cats = cats[~np.isnan(cats)]
            expect = np.unique(x[:, order[j]][~np.isnan(x[:, order[j]])])
            assert np.array_equal(cats, expect)
            assert np.array_equal(est._bin_mapper.bin_thresholds_[j], np.arange(len(cats)))
            known.append(cats)
        case["known_categories"] = np.concatenate(known)
        case["known_categories_len"] = np.array([len(c) for c in known], dtype=np.int64)
        case["n_bins_non_missing"] = est._bin_mapper.n_bins_non_missing_.astype(np.int64)
        xb = est._bin_mapper.transform(est._preprocessor.transform(x))
        hm = (xb == est._bin_mapper.missing_values_bin_idx_).any(axis=0)
        case["has_missing_values"] = hm[np.argsort(order)].astype(np.float64)
        case["baseline"] = np.asarray(est._baseline_prediction, dtype=np.float64).ravel()
        case.update(nodes_table(est, order))
        case["n_iter"] = int(est.n_iter_)
        case["raw_train"] = np.asarray(est._raw_predict(x), dtype=np.float64)
        case["raw_test"] = np.asarray(est._raw_predict(xt), dtype=np.float64)
        gap, n_checked, n_ties, n_desc = check_iterations(est, x, y, w)
        n_cat_nodes = int(case["node_is_categorical"].sum())
        print(f"{name}: {int(case['tree_sizes'].sum())} nodes, {n_cat_nodes} categorical "
              f"splits ({n_checked} re-derived, {n_desc} from the descending scan), min "
              f"relative sort-key gap {gap:.2e}, {n_ties} harmless ties")
        assert n_cat_nodes > 0 and n_checked == n_cat_nodes
        cases[name] = case
        return est

    base = dict(max_iter=10, early_stopping=False, random_state=0)

    def cat_effect(col, effects, nan_effect=0.0):
        out = np.full(len(col), nan_effect)
        ok = ~np.isnan(col)
        out[ok] = effects[col[ok].astype(np.int64) % len(effects)]
        return out

    # 1. Regression: categorical columns 1 (5 categories) and 3 (12 categories), uneven
    # frequencies, interleaved with 3 continuous columns.
    def data1(n):
        x = np.empty((n, 5))
        x[:, 0] = rng.standard_normal(n) * 2.0
        x[:, 1] = categories(range(5), [0.35, 0.25, 0.2, 0.12, 0.08], n)
        x[:, 2] = rng.standard_normal(n)
        x[:, 3] = categories(range(12), 1.0 / np.arange(1, 13) ** 0.8, n)
        x[:, 4] = np.exp(rng.standard_normal(n))
        return x
    eff5 = np.array([1.5, -1.0, 0.3, 2.2, -2.0])
    eff12 = rng.standard_normal(12) * 1.2
    x1, x1t = data1(1000), data1(200)

    def y1(x):
        return (cat_effect(x[:, 1], eff5) + cat_effect(x[:, 3], eff12) + np.sin(x[:, 0])
                + 0.5 * x[:, 2] * (x[:, 1] == 0) - 0.3 * x[:, 4]
                + 0.4 * rng.standard_normal(len(x)))
    yy1 = y1(x1)
    cat1 = [False, True, False, True, False]
    add("reg_categorical", HistGradientBoostingRegressor(**base), x1, yy1, x1t, cat1,
        settings=dict(loss="squared_error", max_iter=10))

    # 2. Missing values: column 0 has NaN (with signal), a negative category (-1, an ordinary
    # category in 1.9.1), a rare category 5 (6 rows) and non-contiguous values; column 2 has
    # 40 categories.
    def data2(n, n_rare):
        x = np.empty((n, 4))
        x[:, 0] = categories([0, 1, 2, 3, 4, 7, 9], [0.25, 0.2, 0.15, 0.12, 0.1, 0.1, 0.08], n)
        x[rng.random(n) < 0.12, 0] = np.nan
        neg = rng.choice(np.flatnonzero(~np.isnan(x[:, 0])), size=max(n // 60, 3),
                         replace=False)
        x[neg, 0] = -1.0
        rare = rng.choice(np.flatnonzero(x[:, 0] >= 0), size=n_rare, replace=False)
        x[rare, 0] = 5.0
        x[:, 1] = rng.standard_normal(n)
        x[:, 2] = categories(range(40), 1.0 / np.arange(1, 41) ** 0.6, n)
        x[:, 3] = rng.uniform(-2, 2, n)
        return x
    eff10 = np.array([0.5, -1.2, 1.0, 0.1, -0.4, 3.0, 0.0, 1.8, 0.0, -2.2])
    eff40 = rng.standard_normal(40)
    x2, x2t = data2(1500, 6), data2(200, 2)

    def y2(x):
        z0 = np.where(x[:, 0] < 0, 9, x[:, 0])
        return (cat_effect(z0, eff10, nan_effect=2.5) + cat_effect(x[:, 2], eff40)
                + 0.8 * x[:, 1] + np.abs(x[:, 3]) + 0.4 * rng.standard_normal(len(x)))
    yy2 = y2(x2)
    assert np.sum(x2[:, 0] == 5.0) == 6 and np.sum(x2[:, 0] == -1.0) >= 10
    add("reg_categorical_missing", HistGradientBoostingRegressor(**base), x2, yy2, x2t,
        [True, False, True, False], settings=dict(loss="squared_error", max_iter=10))

    # 3. Case 1 with sample weights.
    w3 = np.round(rng.uniform(0.2, 3.0, len(yy1)), 3)
    add("reg_categorical_weighted", HistGradientBoostingRegressor(**base), x1, yy1, x1t, cat1,
        w=w3, settings=dict(loss="squared_error", max_iter=10))

    # 4. Binary: categorical columns 0 (6 categories, NaN) and 3 (10 categories).
    def data4(n):
        x = np.empty((n, 4))
        x[:, 0] = categories(range(6), [0.3, 0.22, 0.18, 0.14, 0.1, 0.06], n)
        x[rng.random(n) < 0.1, 0] = np.nan
        x[:, 1] = rng.standard_normal(n)
        x[:, 2] = rng.standard_normal(n) * 3.0
        x[:, 3] = categories(range(10), 1.0 / np.arange(1, 11) ** 0.5, n)
        return x
    eff6 = np.array([1.2, -0.8, 0.2, -1.5, 2.0, 0.6])
    eff10b = rng.standard_normal(10)
    x4, x4t = data4(1000), data4(200)

    def logit4(x):
        return (cat_effect(x[:, 0], eff6, nan_effect=-1.0) + cat_effect(x[:, 3], eff10b)
                + x[:, 1] - 0.3 * x[:, 2] + 0.5 * rng.standard_normal(len(x)))
    l4 = logit4(x4)
    y4 = (l4 > 0).astype(np.int64)
    add("binary_categorical", HistGradientBoostingClassifier(**base), x4, y4, x4t,
        [True, False, False, True], settings=dict(max_iter=10))

    # 5. Three classes on the same features (15 leaves per tree to keep the file small).
    y5 = np.digitize(l4 + 0.5 * x4[:, 2] * 0.3, [-1.0, 1.0]).astype(np.int64)
    add("multiclass_categorical", HistGradientBoostingClassifier(max_leaf_nodes=15, **base),
        x4, y5, x4t, [True, False, False, True], settings=dict(max_iter=10, max_leaf_nodes=15))

    # 6. Poisson on case 1's features.
    lam = np.exp(0.5 * cat_effect(x1[:, 1], eff5) + 0.3 * cat_effect(x1[:, 3], eff12)
                 + 0.3 * np.tanh(x1[:, 0]))
    y6 = rng.poisson(lam).astype(np.float64)
    add("poisson_categorical", HistGradientBoostingRegressor(loss="poisson", **base), x1, y6,
        x1t, cat1, settings=dict(loss="poisson", max_iter=10))

    # 7. max_bins=20: a categorical column with exactly 20 categories (codes 0..19, with NaN,
    # so every bin 0..20 is used) and three continuous columns binned to 20.
    def data7(n):
        x = np.empty((n, 4))
        x[:, 0] = rng.standard_normal(n)
        x[:, 1] = categories(range(20), 1.0 / np.arange(1, 21) ** 0.4, n)
        x[rng.random(n) < 0.06, 1] = np.nan
        x[:, 2] = rng.exponential(1.0, n)
        x[:, 3] = rng.standard_normal(n)
        return x
    eff20 = rng.standard_normal(20) * 1.5
    x7, x7t = data7(1000), data7(200)
    y7 = (cat_effect(x7[:, 1], eff20, nan_effect=1.0) + x7[:, 0] - 0.5 * x7[:, 2]
          + 0.3 * x7[:, 3] ** 2 + 0.4 * rng.standard_normal(len(x7)))
    assert len(np.unique(x7[~np.isnan(x7[:, 1]), 1])) == 20
    add("small_max_bins", HistGradientBoostingRegressor(max_bins=20, **base), x7, y7, x7t,
        [False, True, False, False], settings=dict(loss="squared_error", max_iter=10,
                                                  max_bins=20))

    # 8. Unseen categories: column 0 takes values {0..9} minus {3, 7} in training (no NaN,
    # so NaN follows the larger child); column 2 takes {0..5} with NaN. x_test contains 3, 7,
    # 12, 200 (unseen, in [0, max_bins)), NaN, and a few out-of-range / non-integer /
    # negative values (-2, 2.5, 300), all of which the encoder turns into NaN.
    def data8(n):
        x = np.empty((n, 3))
        x[:, 0] = categories([0, 1, 2, 4, 5, 6, 8, 9], [0.2, 0.16, 0.14, 0.12, 0.11, 0.1,
                                                       0.09, 0.08], n)
        x[:, 1] = rng.standard_normal(n)
        x[:, 2] = categories(range(6), [0.3, 0.25, 0.18, 0.12, 0.09, 0.06], n)
        x[rng.random(n) < 0.1, 2] = np.nan
        return x
    x8, x8t = data8(800), data8(200)
    x8t[0:60:4, 0] = [3, 7, 12, 200, np.nan, 3, 7, -2, 2.5, 300, np.nan, 12, 3, 7, 200]
    x8t[1:40:4, 2] = [6, 7, 200, np.nan, -1, 6, 9, np.nan, 255, 1.5]
    eff8 = rng.standard_normal(10) * 1.5
    y8 = (cat_effect(x8[:, 0], eff8) + cat_effect(x8[:, 2], eff6, nan_effect=-1.5)
          + x8[:, 1] + 0.4 * rng.standard_normal(len(x8)))
    est8 = add("unseen_categories", HistGradientBoostingRegressor(**base), x8, y8, x8t,
               [True, False, True], settings=dict(loss="squared_error", max_iter=10))
    # Unseen / NaN test values must predict exactly like NaN.
    xn = np.where(cases["unseen_categories"]["x_test_nan_mask"] == 1, np.nan,
                  cases["unseen_categories"]["x_test"])
    known0, known2 = np.unique(x8[:, 0]), np.unique(x8[~np.isnan(x8[:, 2]), 2])
    xn[~np.isin(xn[:, 0], known0), 0] = np.nan
    xn[~np.isin(xn[:, 2], known2), 2] = np.nan
    assert np.array_equal(est8._raw_predict(xn), cases["unseen_categories"]["raw_test"])

    path = write_json("datasets/golden/tree/hist_gradient_boosting_categorical.json", cases,
                      "scripts/golden/hist_gradient_boosting_categorical.py",
                      "scikit-learn HistGradientBoosting* with native categorical splits: "
                      "predictors with left-category bitsets, baselines and raw scores")
    print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
