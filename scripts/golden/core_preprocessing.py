#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::preprocessing.

Writes datasets/golden/core/preprocessing.json: scikit-learn's scalers, encoders,
KBinsDiscretizer, SimpleImputer, PolynomialFeatures, SplineTransformer,
TfidfTransformer and CountVectorizer, plus numpy references for the transformers
scikit-learn does not have (mean-absolute-deviation scaler, Vandermonde, Gaussian
RBF, Fourier, square/radius embeddings, splines on repeated knots via scipy's
BSpline). Every case stores its inputs and outputs; every output is cross-checked
against a second computation (numpy formulas, scipy) before writing.

Usage:  target/golden-venv/bin/python scripts/golden/core_preprocessing.py
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from scipy.interpolate import BSpline
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import (
    KBinsDiscretizer,
    MaxAbsScaler,
    MinMaxScaler,
    Normalizer,
    OneHotEncoder,
    OrdinalEncoder,
    PolynomialFeatures,
    RobustScaler,
    SplineTransformer,
    StandardScaler,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_preprocessing.py"
OUT = GOLDEN_DIR / "core" / "preprocessing.json"

NOTE = (
    "Matrices row-major. Flags are 0/1 integers. x = training input, x_test = other input "
    "transformed with the fitted model; z / z_test = transform outputs; inv = "
    "inverse_transform(z_test). NaN cannot be stored: imputer inputs have the NaN positions in "
    "'missing' (0/1 matrix; x holds 0 there). Inputs: embedded wine / diabetes subsets "
    "(datasets/data) and seeded numpy random data (default_rng(20240611)). KBinsDiscretizer "
    "uses subsample=None; SplineTransformer linear extrapolation with degree <= 1 only on one "
    "feature (scikit-learn 1.9.1 mutates its loop variable `degree` across features). "
    "spline_repeated_* use scipy.interpolate.BSpline on the knot vector scikit-learn's rule "
    "builds (scikit-learn itself rejects repeated knots). Reference-only transformers "
    "(meanabsdev, vandermonde, rbf, fourier, square/radius) are numpy formulas given in the "
    "case names' Rust docs. SplineTransformer degree 0 with constant extrapolation is left out "
    "(scikit-learn 1.9.1 raises a shape error above the knot range)."
)

RNG = np.random.default_rng(20240611)

# Expected scikit-learn warnings: degenerate / constant bins, unknown categories, skipped
# all-missing columns. They are the behaviour under test, not problems.
warnings.simplefilter("ignore", UserWarning)


def f(a):
    return np.asarray(a, dtype=np.float64)


def close(a, b, tol=1e-12):
    a, b = f(a), f(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.allclose(a, b, rtol=tol, atol=tol), np.max(np.abs(a - b))


# ------------------------------------------------------------------ data
wine, _, _ = load_dataset("wine")
diab, _, _ = load_dataset("diabetes")
WINE_TR, WINE_TE = wine[:80], wine[80:100]
DIAB_TR, DIAB_TE = diab[:100, :6], diab[100:120, :6]


def scalers(cases):
    for name, kw in [
        ("standard_wine", dict()),
        ("standard_wine_nomean", dict(with_mean=False)),
        ("standard_wine_nostd", dict(with_std=False)),
    ]:
        s = StandardScaler(**kw).fit(WINE_TR)
        z, zt = s.transform(WINE_TR), s.transform(WINE_TE)
        mean, var = WINE_TR.mean(axis=0), WINE_TR.var(axis=0)
        close(s.mean_, mean)
        close(s.var_, var) if s.var_ is not None else None
        exp = WINE_TR - (mean if kw.get("with_mean", True) else 0)
        exp = exp / (np.sqrt(var) if kw.get("with_std", True) else 1)
        close(z, exp)
        cases[name] = {
            "x": WINE_TR, "x_test": WINE_TE,
            "with_mean": int(kw.get("with_mean", True)), "with_std": int(kw.get("with_std", True)),
            "mean": mean, "var": var, "z": z, "z_test": zt, "inv": s.inverse_transform(zt),
        }
    # Weighted, with one exactly constant and one near-constant column.
    x = RNG.normal(size=(60, 4)) * [1.0, 5.0, 1.0, 1.0] + [0.0, 3.0, 0.0, 0.0]
    x[:, 2] = 0.1
    x[:, 3] = 1e5 + RNG.normal(size=60) * 1e-9
    w = RNG.uniform(0.0, 2.0, size=60)
    s = StandardScaler().fit(x, sample_weight=w)
    m = np.average(x, axis=0, weights=w)
    close(s.mean_, m)
    close(s.var_, np.average((x - m) ** 2, axis=0, weights=w), 1e-9)
    assert s.scale_[2] == 1.0
    cases["standard_weighted_constant"] = {
        "x": x, "w": w, "mean": s.mean_, "var": s.var_, "scale": s.scale_, "z": s.transform(x),
    }
    # MinMax.
    for name, kw in [("minmax_wine", dict(feature_range=(-1.0, 2.0))),
                     ("minmax_wine_clip", dict(feature_range=(0.0, 1.0), clip=True))]:
        s = MinMaxScaler(**kw).fit(WINE_TR)
        xt = WINE_TE * 1.3 - 0.2
        zt = s.transform(xt)
        lo, hi = kw["feature_range"]
        exp = (xt - WINE_TR.min(0)) / (WINE_TR.max(0) - WINE_TR.min(0)) * (hi - lo) + lo
        close(zt, np.clip(exp, lo, hi) if kw.get("clip") else exp)
        cases[name] = {
            "x": WINE_TR, "x_test": xt, "lo": lo, "hi": hi, "clip": int(kw.get("clip", False)),
            "scale": s.scale_, "min": s.min_, "z_test": zt,
            "inv": s.inverse_transform(s.transform(xt)),
        }
    s = MaxAbsScaler().fit(DIAB_TR - DIAB_TR.mean(0))
    xt = DIAB_TE - DIAB_TR.mean(0)
    close(s.scale_, np.abs(DIAB_TR - DIAB_TR.mean(0)).max(0))
    cases["maxabs_diabetes"] = {
        "x": DIAB_TR - DIAB_TR.mean(0), "x_test": xt, "scale": s.scale_, "z_test": s.transform(xt),
    }
    for name, kw in [("robust_wine", dict()),
                     ("robust_wine_10_90_nocenter", dict(quantile_range=(10.0, 90.0), with_centering=False)),
                     ("robust_diabetes_noscale", dict(with_scaling=False))]:
        xtr, xte = (WINE_TR, WINE_TE) if "wine" in name else (DIAB_TR, DIAB_TE)
        s = RobustScaler(**kw).fit(xtr)
        q = kw.get("quantile_range", (25.0, 75.0))
        center = np.median(xtr, axis=0)
        scale = np.percentile(xtr, q[1], axis=0) - np.percentile(xtr, q[0], axis=0)
        if s.center_ is not None:
            close(s.center_, center)
        if s.scale_ is not None:
            close(s.scale_, scale)
        cases[name] = {
            "x": xtr, "x_test": xte, "q_lo": q[0], "q_hi": q[1],
            "with_centering": int(kw.get("with_centering", True)),
            "with_scaling": int(kw.get("with_scaling", True)),
            "center": center, "scale": scale, "z_test": s.transform(xte),
        }
    # The notes' mean absolute deviation (numpy).
    m = WINE_TR.mean(0)
    sdev = np.abs(WINE_TR - m).mean(0)
    z = (WINE_TE - m) / sdev
    alt = np.array([[(WINE_TE[i, j] - WINE_TR[:, j].sum() / len(WINE_TR)) /
                     (sum(abs(v - m[j]) for v in WINE_TR[:, j]) / len(WINE_TR))
                     for j in range(WINE_TR.shape[1])] for i in range(len(WINE_TE))])
    close(z, alt, 1e-11)
    cases["meanabsdev_wine"] = {"x": WINE_TR, "x_test": WINE_TE, "mean": m, "scale": sdev, "z_test": z}
    xn = np.vstack([DIAB_TE - DIAB_TR.mean(0), np.zeros((1, 6))])
    for norm in ("l1", "l2", "max"):
        z = Normalizer(norm=norm).fit(xn).transform(xn)
        r = {"l1": np.abs(xn).sum(1), "l2": np.sqrt((xn ** 2).sum(1)), "max": np.abs(xn).max(1)}[norm]
        r[r == 0] = 1.0
        close(z, xn / r[:, None])
        cases[f"normalizer_{norm}"] = {"x": xn, "norm": norm, "z": z}


def encoders(cases):
    x = np.column_stack([
        RNG.integers(0, 4, size=40), RNG.integers(0, 2, size=40), RNG.choice([-1.5, 2.0, 7.25], size=40),
    ]).astype(np.float64)
    xt = x[:10].copy()
    xt[3, 0] = 9.0  # unknown category
    xt[5, 2] = 0.0
    for drop in (None, "first", "if_binary"):
        enc = OneHotEncoder(sparse_output=False, drop=drop, handle_unknown="ignore").fit(x)
        z, zt = enc.transform(x), enc.transform(xt)
        inv = enc.inverse_transform(z).astype(np.float64)
        close(inv, x)
        dname = drop or "none"
        cats = np.concatenate([np.asarray(c, dtype=np.float64) for c in enc.categories_])
        cases[f"onehot_drop_{dname}"] = {
            "x": x, "x_test": xt, "drop": dname, "categories_flat": cats,
            "n_categories": [len(c) for c in enc.categories_], "z": z, "z_test": zt,
        }
    enc = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(x)
    zt = enc.transform(xt)
    assert zt[3, 0] == -1 and zt[5, 2] == -1
    cases["ordinal_unknown"] = {"x": x, "x_test": xt, "z_test": zt, "z": enc.transform(x)}


def kbins(cases):
    xs = {
        "diabetes": DIAB_TR[:, [2, 3, 5]],
        # ties (many repeated values) and a constant column
        "ties": np.column_stack([RNG.integers(0, 3, size=50).astype(float) ** 2,
                                 np.full(50, 4.5), RNG.normal(size=50)]),
    }
    for data, x in xs.items():
        xt = np.vstack([x[:15], x.min(0) - 1.0, x.max(0) + 1.0])
        for strategy in ("uniform", "quantile", "kmeans"):
            for n_bins in (3, 5):
                for encode in ("ordinal", "onehot-dense"):
                    if strategy == "kmeans" and data == "ties" and n_bins == 5:
                        continue  # k-means with tied data: empty-cluster relocation order differs
                    kb = KBinsDiscretizer(n_bins=n_bins, strategy=strategy, encode=encode,
                                          subsample=None, quantile_method="averaged_inverted_cdf"
                                          if strategy == "quantile" else "linear").fit(x)
                    zt = kb.transform(xt)
                    edges = [np.where(np.isinf(e), x[0, j], e) for j, e in enumerate(kb.bin_edges_)]
                    with np.errstate(invalid="ignore"):  # constant columns: (-inf + inf)/2
                        inv = kb.inverse_transform(zt)
                    for j in range(x.shape[1]):  # constant columns: the constant (sklearn: NaN)
                        if not np.isfinite(kb.bin_edges_[j]).all():
                            inv[:, j] = x[0, j]
                    if strategy == "quantile":
                        for j in range(x.shape[1]):
                            if x[:, j].min() == x[:, j].max():
                                continue
                            q = np.percentile(x[:, j], np.linspace(0, 100, n_bins + 1),
                                              method="averaged_inverted_cdf")
                            keep = np.ediff1d(q, to_begin=np.inf) > 1e-8
                            close(kb.bin_edges_[j], q[keep])
                    cases[f"kbins_{data}_{strategy}_{n_bins}_{encode.split('-')[0]}"] = {
                        "x": x, "x_test": xt, "strategy": strategy, "n_bins": n_bins,
                        "encode": encode.split("-")[0], "edges_flat": np.concatenate(edges),
                        "n_bins_": [int(v) for v in kb.n_bins_], "z_test": zt, "inv": inv,
                    }
    x = xs["diabetes"]
    kb = KBinsDiscretizer(n_bins=4, strategy="quantile", encode="ordinal", subsample=None,
                          quantile_method="linear").fit(x)
    cases["kbins_diabetes_quantile_linear_4_ordinal"] = {
        "x": x, "x_test": x[:10], "strategy": "quantile_linear", "n_bins": 4, "encode": "ordinal",
        "edges_flat": np.concatenate(kb.bin_edges_), "n_bins_": [int(v) for v in kb.n_bins_],
        "z_test": kb.transform(x[:10]), "inv": kb.inverse_transform(kb.transform(x[:10])),
    }


def imputer(cases):
    x = np.round(RNG.normal(size=(30, 5)) * 3, 1)
    x[:, 1] = np.round(x[:, 1])  # repeated values for most_frequent
    miss = RNG.uniform(size=x.shape) < 0.2
    miss[:, 4] = True  # all-missing column
    xm = np.where(miss, np.nan, x)
    xt = np.where(RNG.uniform(size=(8, 5)) < 0.3, np.nan, np.round(RNG.normal(size=(8, 5)), 2))
    for strategy in ("mean", "median", "most_frequent", "constant"):
        for keep in (False, True):
            kw = dict(strategy=strategy, keep_empty_features=keep)
            if strategy == "constant":
                kw["fill_value"] = -2.5
            imp = SimpleImputer(**kw).fit(xm)
            zt = imp.transform(xt)
            stats = imp.statistics_.astype(np.float64)
            if strategy == "mean":
                close(stats[:4], np.nanmean(xm[:, :4], axis=0))
            if strategy == "median":
                close(stats[:4], np.nanmedian(xm[:, :4], axis=0))
            cases[f"imputer_{strategy}_{'keep' if keep else 'drop'}"] = {
                "x": np.where(miss, 0.0, x), "missing": miss.astype(np.int64),
                "x_test": np.nan_to_num(xt, nan=0.0), "missing_test": np.isnan(xt).astype(np.int64),
                "strategy": strategy, "fill_value": -2.5, "keep": int(keep),
                "statistics": np.nan_to_num(stats, nan=0.0), "valid": (~np.isnan(stats)).astype(np.int64),
                "z_test": zt,
            }


def polynomial(cases):
    x = np.round(RNG.normal(size=(15, 3)), 3)
    for name, kw in [
        ("poly_deg2", dict(degree=2)),
        ("poly_deg3", dict(degree=3)),
        ("poly_deg3_interaction", dict(degree=3, interaction_only=True)),
        ("poly_deg2_nobias", dict(degree=2, include_bias=False)),
        ("poly_deg2_3_range", dict(degree=(2, 3), include_bias=False)),
        ("poly_deg1_3_range_bias", dict(degree=(1, 3))),
        ("poly_deg4_interaction_nobias", dict(degree=4, interaction_only=True, include_bias=False)),
    ]:
        p = PolynomialFeatures(**kw).fit(x)
        z = p.transform(x)
        close(z, np.prod(x[:, None, :] ** p.powers_[None, :, :], axis=2))
        deg = kw["degree"]
        lo, hi = (deg if isinstance(deg, tuple) else (0, deg))
        cases[name] = {
            "x": x, "min_degree": lo, "degree": hi,
            "interaction_only": int(kw.get("interaction_only", False)),
            "include_bias": int(kw.get("include_bias", True)),
            "powers": p.powers_.astype(np.int64), "z": z,
            "names": "|".join(p.get_feature_names_out()),
        }


def bases(cases):
    x = np.round(RNG.uniform(-2, 3, size=(12, 2)), 4)
    # Vandermonde per column: numpy vander (increasing) side by side after one bias column.
    for p, bias in ((3, 1), (4, 0)):
        blocks = [np.vander(x[:, j], p + 1, increasing=True)[:, 1:] for j in range(2)]
        z = np.hstack(([np.ones((12, 1))] if bias else []) + blocks)
        close(z[:, bias:bias + p], np.column_stack([x[:, 0] ** k for k in range(1, p + 1)]))
        cases[f"vandermonde_deg{p}_bias{bias}"] = {"x": x, "degree": p, "include_bias": bias, "z": z}
    # Gaussian RBF, evenly spaced centres with spacing width, and explicit gamma.
    for k, factor in ((4, 1.0), (3, 0.5)):
        zs, cs, ss = [], [], []
        for j in range(2):
            c = np.linspace(x[:, j].min(), x[:, j].max(), k)
            s = factor * (c[-1] - c[0]) / (k - 1)
            zs.append(np.exp(-0.5 * ((x[:, j:j + 1] - c[None, :]) / s) ** 2))
            cs.append(c)
            ss.append(s)
        cases[f"rbf_even{k}_factor{factor}"] = {
            "x": x, "k": k, "factor": factor, "centres_flat": np.concatenate(cs), "sigma": ss,
            "z": np.hstack(zs),
        }
    c = np.array([-1.0, 0.0, 2.0])
    gamma = 0.7
    z = np.hstack([np.exp(-gamma * (x[:, j:j + 1] - c) ** 2) for j in range(2)])
    cases["rbf_given_gamma"] = {"x": x, "centres": c, "gamma": gamma, "z": np.hstack([np.ones((12, 1)), z])}
    # Quantile centres (linear quantiles at (i + 1/2)/k).
    k = 3
    zs, cs = [], []
    for j in range(2):
        cc = np.quantile(x[:, j], (np.arange(k) + 0.5) / k)
        zs.append(np.exp(-0.5 * (x[:, j:j + 1] - cc) ** 2 / 1.5 ** 2))
        cs.append(cc)
    cases["rbf_quantile3_sigma"] = {"x": x, "k": k, "sigma": 1.5, "centres_flat": np.concatenate(cs),
                                    "z": np.hstack(zs)}
    # Fourier: 1, sin(k w x), cos(k w x), k = 1..K, per column.
    for K, period in ((3, 2.0), (2, 5.5)):
        w = 2 * np.pi / period
        blocks = []
        for j in range(2):
            for kk in range(1, K + 1):
                blocks += [np.sin((kk * w) * x[:, j]), np.cos((kk * w) * x[:, j])]
        cases[f"fourier_K{K}_period{period}"] = {
            "x": x, "n_harmonics": K, "period": period,
            "z": np.column_stack([np.ones(12)] + blocks),
        }
    cases["square_embedding"] = {"x": x, "z": np.hstack([x, x ** 2])}
    cases["radius_embedding"] = {"x": x, "z": np.hstack([x, (x ** 2).sum(1, keepdims=True)])}


def splines(cases):
    x = WINE_TR[:40, [0, 9]]
    xt = np.vstack([x[:8], x.min(0) - [0.7, 1.1], x.max(0) + [0.9, 2.3],
                    x.min(0) - 3.0, x.max(0) + 4.0])
    for degree in (0, 1, 2, 3):
        for knots in ("uniform", "quantile"):
            for extrap in ("constant", "linear", "continue", "periodic", "error"):
                for n_knots in (4, 7):
                    if extrap == "periodic" and n_knots <= degree:
                        continue
                    if extrap == "constant" and degree == 0:
                        continue  # scikit-learn 1.9.1 fails above the range (f_max[-0:] is everything)
                    cols = [0] if (extrap == "linear" and degree <= 1) else [0, 1]
                    xx, tt = x[:, cols], (x[:8, cols] if extrap == "error" else xt[:, cols])
                    for bias in (True, False):
                        st = SplineTransformer(n_knots=n_knots, degree=degree, knots=knots,
                                               extrapolation=extrap, include_bias=bias).fit(xx)
                        zt = st.transform(tt)
                        if bias and extrap in ("continue", "error"):
                            for j in range(len(cols)):
                                spl = st.bsplines_[j]
                                dm = BSpline.design_matrix(tt[:, j], spl.t, spl.k, extrapolate=True).toarray()
                                ns = spl.c.shape[1]
                                close(zt[:, j * ns:(j + 1) * ns], dm)
                        name = f"spline_d{degree}_{knots}_{extrap}_n{n_knots}_{'bias' if bias else 'nobias'}"
                        cases[name] = {
                            "x": xx, "x_test": tt, "degree": degree, "knots": knots,
                            "extrapolation": extrap, "n_knots": n_knots, "include_bias": int(bias),
                            "t_flat": np.concatenate([s.t for s in st.bsplines_]), "z_test": zt,
                        }
    # Explicit (strictly increasing) knots through scikit-learn.
    kn = np.array([[11.0, 1.0], [12.5, 3.0], [13.0, 4.5], [14.0, 7.0], [15.0, 13.0]])
    st = SplineTransformer(degree=3, knots=kn, extrapolation="linear").fit(x)
    cases["spline_given_knots_linear"] = {
        "x": x, "x_test": xt, "degree": 3, "knots_cols": kn.T.copy(), "extrapolation": "linear",
        "include_bias": 1, "z_test": st.transform(xt),
    }
    # Repeated interior knots: scikit-learn's extension rule + scipy BSpline (continue inside).
    for name, base, degree in (("spline_repeated_d2", [0.0, 1.0, 2.0, 2.0, 3.0, 5.0], 2),
                               ("spline_repeated_d3", [0.0, 1.0, 1.0, 1.0, 2.5, 4.0], 3)):
        base = np.array(base)
        k = degree
        dmin, dmax = base[1] - base[0], base[-1] - base[-2]
        t = np.r_[np.linspace(base[0] - k * dmin, base[0] - dmin, num=k), base,
                  np.linspace(base[-1] + dmax, base[-1] + k * dmax, num=k)]
        pts = np.r_[np.linspace(base[0], base[-1], 23), [1.0, 2.0, 2.5]]
        dm = BSpline.design_matrix(pts, t, k, extrapolate=True).toarray()
        close(dm.sum(1), np.ones(len(pts)))
        cases[name] = {"knots": base, "degree": k, "x_test": pts[:, None], "t": t, "z_test": dm}


DOCS = [
    "The quick brown fox jumps over the lazy dog.",
    "Never jump over the lazy dog quickly; the fox is QUICK!",
    "snake_case tokens, a b c, 42 and 7 numbers: 3.14",
    "Émile's café served crème brûlée (twice)",
    "dog dog dog fox",
    "",
]


def text(cases):
    cv = CountVectorizer().fit(DOCS)
    counts = cv.transform(DOCS).toarray().astype(np.float64)
    cases["count_vectorizer"] = {"docs": DOCS, "vocabulary": "|".join(cv.get_feature_names_out()),
                                 "counts": counts}
    cvb = CountVectorizer(binary=True, lowercase=False).fit(DOCS)
    cases["count_vectorizer_binary_case"] = {
        "docs": DOCS, "vocabulary": "|".join(cvb.get_feature_names_out()),
        "counts": cvb.transform(DOCS).toarray().astype(np.float64),
    }
    rand = RNG.integers(0, 4, size=(12, 7)).astype(np.float64)
    rand[:, 3] = 0.0  # a term in no document (smooth_idf only)
    rand[5] = 0.0     # an empty document
    for data, x in (("docs", counts), ("random", rand)):
        for norm in ("l2", "l1", None):
            for smooth in (True, False):
                for sub in (False, True):
                    for use_idf in (True, False):
                        if not smooth and (x == 0).all(0).any() and use_idf:
                            continue
                        t = TfidfTransformer(norm=norm, smooth_idf=smooth, sublinear_tf=sub,
                                             use_idf=use_idf).fit(x)
                        z = t.transform(x).toarray()
                        n = x.shape[0]
                        df = (x != 0).sum(0)
                        with np.errstate(divide="ignore"):
                            idf = np.log((n + smooth) / (df + smooth)) + 1
                        tf = np.where(x > 0, 1 + np.log(np.where(x > 0, x, 1)), 0) if sub else x
                        w = tf * (idf if use_idf else 1)
                        if norm:
                            r = np.abs(w).sum(1) if norm == "l1" else np.sqrt((w ** 2).sum(1))
                            w = w / np.where(r == 0, 1, r)[:, None]
                        close(z, w)
                        name = f"tfidf_{data}_{norm}_{'smooth' if smooth else 'raw'}_{'sub' if sub else 'lin'}_{'idf' if use_idf else 'noidf'}"
                        cases[name] = {
                            "x": x, "norm": str(norm).lower(), "smooth_idf": int(smooth),
                            "sublinear_tf": int(sub), "use_idf": int(use_idf),
                            "idf": t.idf_ if use_idf else np.ones(x.shape[1]), "z": z,
                        }


def main():
    cases = {}
    scalers(cases)
    encoders(cases)
    kbins(cases)
    imputer(cases)
    polynomial(cases)
    bases(cases)
    splines(cases)
    text(cases)
    path = write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {len(cases)} cases to {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
