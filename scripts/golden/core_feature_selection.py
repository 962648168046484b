#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::feature_selection.

Writes datasets/golden/core/feature_selection.json:

* chi2 (sklearn.feature_selection.chi2) on digits and iris: statistics and p-values;
  digits has all-zero pixel columns where sklearn returns NaN: those columns are listed
  in ``zero_columns`` and stored as statistic 0, p-value 1 (ndlearn's convention).
* SelectKBest(chi2, k) support on digits; SelectPercentile(f_classif, p) on wine.
* f_classif on iris / wine / breast_cancer; f_regression and r_regression on diabetes.
* binned mutual information and the chi2 independence test of a binned feature vs the
  class (numpy.histogram equal-width bins, sklearn.metrics.mutual_info_score,
  scipy.stats.chi2_contingency(correction=False)) on wine.
* RFE(Ridge(alpha=1.0), n_features_to_select, step).ranking_ on diabetes.
* SequentialFeatureSelector(LinearRegression(), cv=5 (unshuffled KFold), scoring=R^2)
  forward / backward selected sets on diabetes, and the mean CV R^2 of each selected set.

Diabetes is sklearn's scaled load_diabetes (common.diabetes_scaled).

Usage:  target/golden-venv/bin/python scripts/golden/core_feature_selection.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.stats import chi2_contingency
from sklearn.feature_selection import (
    RFE,
    SelectKBest,
    SelectPercentile,
    SequentialFeatureSelector,
    chi2,
    f_classif,
    f_regression,
    r_regression,
)
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import mutual_info_score
from sklearn.model_selection import KFold, cross_val_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, diabetes_scaled, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_feature_selection.py"
OUT = GOLDEN_DIR / "core" / "feature_selection.json"

NOTE = (
    "Inputs are the embedded data sets (datasets/data/*.csv; diabetes scaled as sklearn's "
    "load_diabetes()). chi2: sklearn.feature_selection.chi2, NaN columns (all-zero "
    "features) listed in zero_columns and stored as 0 / 1. kbest/percentile: selected "
    "feature indices. binned_*: equal-width numpy.histogram bins over each feature's range "
    "(inner edges to the right bin, the max in the last), mutual_info_score(y, bin) in nats "
    "and chi2_contingency(table, correction=False) on the bins x classes table of occupied "
    "bins. rfe_*: RFE(Ridge(alpha=1.0)).ranking_. sfs_*: SequentialFeatureSelector("
    "LinearRegression(), cv=5) support as indices; cv_r2 = mean cross_val_score R^2 of the "
    "selected columns with KFold(5) unshuffled."
)


def nan_to_convention(stat, p):
    bad = np.where(~np.isfinite(stat))[0]
    s = np.where(np.isfinite(stat), stat, 0.0)
    q = np.where(np.isfinite(p), p, 1.0)
    return s, q, bad


def bin_index(x, bins):
    edges = np.histogram_bin_edges(x, bins)
    if x.max() <= x.min():
        return np.zeros(len(x), dtype=np.int64)
    idx = np.searchsorted(edges, x, side="right") - 1
    return np.clip(idx, 0, bins - 1)


def main() -> None:
    cases: dict = {}

    # ---- chi2 -------------------------------------------------------------------
    for name in ("digits", "iris"):
        x, y, _ = load_dataset(name)
        with np.errstate(divide="ignore", invalid="ignore"):
            stat, p = chi2(x, y)
        s, q, bad = nan_to_convention(stat, p)
        cases[f"chi2_{name}"] = {
            "dataset": name,
            "statistic": s,
            "pvalue": q,
            "zero_columns": bad.astype(np.int64),
        }

    xd, yd, _ = load_dataset("digits")
    for k in (5, 20):
        with np.errstate(divide="ignore", invalid="ignore"):
            sel = SelectKBest(chi2, k=k).fit(xd, yd)
        ordered = np.sort(np.nan_to_num(sel.scores_, nan=0.0))[::-1]
        assert ordered[k - 1] - ordered[k] > 1e-6 * ordered[k - 1], "tie at the k-th score"
        cases[f"kbest_chi2_digits_{k}"] = {
            "dataset": "digits",
            "k": k,
            "selected": np.flatnonzero(sel.get_support()).astype(np.int64),
        }

    # ---- ANOVA / regression F ------------------------------------------------------
    for name in ("iris", "wine", "breast_cancer"):
        x, y, _ = load_dataset(name)
        f, p = f_classif(x, y)
        assert np.all(np.isfinite(f)), name
        cases[f"f_classif_{name}"] = {"dataset": name, "statistic": f, "pvalue": p}

    xw, yw, _ = load_dataset("wine")
    for pct in (25, 50):
        sel = SelectPercentile(f_classif, percentile=pct).fit(xw, yw)
        cases[f"percentile_f_classif_wine_{pct}"] = {
            "dataset": "wine",
            "percentile": float(pct),
            "selected": np.flatnonzero(sel.get_support()).astype(np.int64),
        }

    xr, yr, _ = load_dataset("diabetes")
    xr = diabetes_scaled(xr)
    f, p = f_regression(xr, yr)
    cases["f_regression_diabetes"] = {
        "dataset": "diabetes",
        "statistic": f,
        "pvalue": p,
        "r": r_regression(xr, yr),
    }

    # ---- binned MI and chi2 independence (the notes' flavours) -------------------------
    bins = 5
    mi, stat, pv, dof = [], [], [], []
    for j in range(xw.shape[1]):
        b = bin_index(xw[:, j], bins)
        mi.append(mutual_info_score(yw, b))
        occupied = np.unique(b)
        table = np.array([[np.sum((b == u) & (yw == c)) for c in np.unique(yw)] for u in occupied])
        res = chi2_contingency(table, correction=False)
        stat.append(res.statistic)
        pv.append(res.pvalue)
        dof.append(res.dof)
    cases["binned_wine"] = {
        "dataset": "wine",
        "bins": bins,
        "mutual_info": np.array(mi),
        "chi2_statistic": np.array(stat),
        "chi2_pvalue": np.array(pv),
        "chi2_dof": np.array(dof, dtype=np.int64),
    }

    # ---- RFE with ridge ------------------------------------------------------------------
    for k, step in ((1, 1), (3, 2), (5, 1)):
        rfe = RFE(Ridge(alpha=1.0), n_features_to_select=k, step=step).fit(xr, yr)
        cases[f"rfe_ridge_diabetes_{k}_{step}"] = {
            "dataset": "diabetes",
            "alpha": 1.0,
            "n_features_to_select": k,
            "step": step,
            "ranking": rfe.ranking_.astype(np.int64),
        }

    # ---- sequential selection with LinearRegression and 5-fold CV --------------------
    cv = KFold(5)

    def cv_r2(cols):
        return cross_val_score(LinearRegression(), xr[:, cols], yr, cv=cv).mean()

    runs = [("forward", k, None) for k in (1, 2, 3, 4, 6)]
    runs += [("backward", k, None) for k in (3, 7)]
    runs += [("forward", "auto", 0.005)]
    for direction, k, tol in runs:
        sfs = SequentialFeatureSelector(
            LinearRegression(), n_features_to_select=k, direction=direction, cv=cv, tol=tol
        ).fit(xr, yr)
        sel = np.flatnonzero(sfs.get_support()).astype(np.int64)
        name = f"sfs_{direction}_{k}" if tol is None else f"sfs_{direction}_tol"
        case = {
            "dataset": "diabetes",
            "direction": direction,
            "selected": sel,
            "cv_r2": cv_r2(sel),
        }
        if tol is None:
            case["n_features_to_select"] = k
        else:
            case["tol"] = tol
        cases[name] = case

    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
