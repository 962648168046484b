"""Golden references for ndlearn-tree's BinMapper: scikit-learn's `_BinMapper` (the binning of
HistGradientBoosting*) thresholds and codes.

Writes datasets/golden/tree/binning.json: per case the data (x, NaN stored as a 0/1 mask),
optional sample weights, `max_bins`, the thresholds of every feature (a matrix padded with NaN
-> stored as `n_thresholds` plus a flat vector) and the binned codes. All cases have fewer rows
than the subsample size (200,000), so no subsampling happens.
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

from common import load_dataset, write_json


def main():
    cases = {}
    bc, _, _ = load_dataset("breast_cancer")
    rng = np.random.default_rng(20261203)
    gen = rng.standard_normal((400, 4))
    gen[:, 1] = np.round(gen[:, 1] * 3)  # few distinct values
    gen[rng.random(400) < 0.1, 2] = np.nan  # missing values
    gen[:, 3] = np.exp(gen[:, 3])  # skewed
    weights = rng.uniform(0.2, 3.0, 400)
    weights[:20] = 0.0
    settings = [
        ("breast_cancer_255", bc, None, 255),
        ("breast_cancer_32", bc, None, 32),
        ("generated_255", gen, None, 255),
        ("generated_16", gen, None, 16),
        ("generated_weighted_16", gen, weights, 16),
    ]
    for name, x, w, max_bins in settings:
        m = _BinMapper(n_bins=max_bins + 1, random_state=0).fit(x, sample_weight=w)
        th = m.bin_thresholds_
        case = dict(
            x=np.nan_to_num(x, nan=0.0),
            nan_mask=np.isnan(x).astype(np.float64),
            max_bins=max_bins,
            n_thresholds=np.array([len(t) for t in th], dtype=np.int64),
            thresholds=np.concatenate([np.asarray(t, dtype=np.float64) for t in th]),
            codes=m.transform(x).astype(np.int64),
        )
        if w is not None:
            case["sample_weight"] = w
        cases[name] = case
    write_json("datasets/golden/tree/binning.json", cases, "scripts/golden/tree_binning.py",
               "scikit-learn _BinMapper thresholds and codes")


if __name__ == "__main__":
    main()
