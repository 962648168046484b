#!/usr/bin/env python3
"""Golden reference values for ndlearn-linear's Perceptron (solver Sgd) and
LeastSquaresClassifier.

Writes datasets/golden/linear/perceptron.json with two families of cases:

  perceptron_*  scikit-learn Perceptron(shuffle=False) (deterministic: rows in order every
                epoch): coef_, intercept_, n_iter_, decision_function, predict, on iris,
                breast_cancer, wine, a generated linearly separable set (with and without
                intercept) and a generated 4-class set; penalties none / l2 / l1 / elasticnet;
                tol-based stopping and tol=None.
  ls_*          LeastSquaresClassifier references: RidgeClassifier(alpha > 0) (+-1 targets,
                one column for two classes) and LinearRegression fitted on the one-hot target
                matrix (alpha = 0), with decision values and argmax predictions, on iris, wine,
                breast_cancer and the first 300 rows of digits.

Every case stores its inputs (x, y, hyperparameters) next to the outputs. Cross-checks before
writing: the perceptron's decision values equal X coef_^T + intercept_; a generated separable
case reaches zero training errors; RidgeClassifier equals Ridge fitted on the +-1 matrix, and
the one-hot OLS fit satisfies the normal equations.

Usage:  target/golden-venv/bin/python scripts/golden/linear_perceptron.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LinearRegression, Perceptron, Ridge, RidgeClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/linear_perceptron.py"

NOTE = (
    "perceptron_* cases: scikit-learn Perceptron with shuffle=False; fields penalty "
    "(none/l2/l1/elasticnet), alpha, l1_ratio, eta0, max_iter, tol (tol_none = 1 means "
    "tol=None), n_iter_no_change, fit_intercept; outputs coef (1 x d for two classes), "
    "intercept, n_iter, decision (n x 1 or n x K), predict. ls_* cases: mode ridge_pm "
    "(RidgeClassifier(alpha), +-1 targets, one column for two classes) or ols_onehot "
    "(LinearRegression on the one-hot matrix, alpha = 0); outputs coef, intercept, decision, "
    "predict (argmax, or decision > 0 for one column). Standardised inputs (mean 0, std 1 with "
    "ddof 0, rounded to 6 decimals) are stored as used."
)


def standardise(x):
    # Rounded to 6 decimals to keep the file small; the rounded matrix is the input used.
    return np.round((x - x.mean(axis=0)) / x.std(axis=0), 6)


def perceptron_case(x, y, penalty=None, alpha=1e-4, l1_ratio=0.15, eta0=1.0, max_iter=1000,
                    tol=1e-3, n_iter_no_change=5, fit_intercept=True):
    est = Perceptron(penalty=penalty, alpha=alpha, l1_ratio=l1_ratio, eta0=eta0,
                     max_iter=max_iter, tol=tol, n_iter_no_change=n_iter_no_change,
                     fit_intercept=fit_intercept, shuffle=False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning when max_iter is reached
        est.fit(x, y)
    dec = est.decision_function(x)
    dec2 = dec.reshape(len(x), -1)
    # decision = X coef^T + intercept
    assert np.allclose(dec2, x @ est.coef_.T + est.intercept_, rtol=1e-12, atol=1e-12)
    # Scores of exactly 0 would make the two predict rules (sign(0) = +1 here, class 0 in
    # scikit-learn) differ; the cases are chosen to have none.
    assert np.all(dec2 != 0.0)
    return {
        "x": x, "y": y.astype(np.int64),
        "penalty": penalty or "none", "alpha": float(alpha), "l1_ratio": float(l1_ratio),
        "eta0": float(eta0), "max_iter": int(max_iter),
        "tol": float(tol) if tol is not None else 0.0, "tol_none": int(tol is None),
        "n_iter_no_change": int(n_iter_no_change), "fit_intercept": int(fit_intercept),
        "coef": est.coef_, "intercept": est.intercept_, "n_iter": int(est.n_iter_),
        "decision": dec2, "predict": est.predict(x).astype(np.int64),
    }


def separable(n, d, seed, margin=0.3):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    xs, ys = [], []
    while len(xs) < n:
        p = rng.uniform(-3, 3, size=d)
        s = p @ w + 0.5
        if abs(s) >= margin:
            xs.append(p)
            ys.append(int(s > 0))
    return np.array(xs), np.array(ys)


def four_classes(seed):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0, 1.0], [4.0, 0.5, -1.0], [0.5, 4.0, 0.0], [4.0, 4.0, 2.0]])
    x = np.concatenate([c + rng.standard_normal((40, 3)) for c in centres])
    y = np.repeat(np.arange(4), 40)
    return x, y


def perceptron_cases():
    cases = {}
    x, y, _ = load_dataset("iris")
    cases["perceptron_iris"] = perceptron_case(x, y)
    cases["perceptron_iris_l1"] = perceptron_case(x, y, penalty="l1", alpha=1e-3, eta0=0.5)
    x, y, _ = load_dataset("breast_cancer")
    xs = standardise(x)
    cases["perceptron_breast_cancer"] = perceptron_case(xs, y)
    cases["perceptron_breast_cancer_enet"] = perceptron_case(
        xs, y, penalty="elasticnet", alpha=1e-3, l1_ratio=0.3, n_iter_no_change=3, tol=1e-2)
    cases["perceptron_breast_cancer_raw_tol_none"] = perceptron_case(x, y, tol=None, max_iter=15)
    x, y, _ = load_dataset("wine")
    xs = standardise(x)
    cases["perceptron_wine_l2"] = perceptron_case(xs, y, penalty="l2", alpha=1e-3, eta0=0.5)
    xg, yg = separable(120, 4, 20261125)
    sep = perceptron_case(xg, yg, tol=None, max_iter=200)
    assert np.all(sep["predict"] == yg), "separable set not separated"
    cases["perceptron_separable"] = sep
    xg2, yg2 = separable(80, 3, 7)
    # Without intercept: the plane through the origin is shifted by 0.5, so move the data.
    xg2 = xg2 + 0.5 * np.array([1.0, 0.0, 0.0])
    cases["perceptron_separable_no_intercept"] = perceptron_case(
        xg2, yg2, fit_intercept=False, eta0=0.1)
    x4, y4 = four_classes(99)
    cases["perceptron_four_classes"] = perceptron_case(x4, y4, n_iter_no_change=2)
    return cases


def ls_case(x, y, mode, alpha=1.0, fit_intercept=True):
    k = int(y.max()) + 1
    if mode == "ridge_pm":
        est = RidgeClassifier(alpha=alpha, fit_intercept=fit_intercept).fit(x, y)
        dec = est.decision_function(x).reshape(len(x), -1)
        coef, intercept = np.atleast_2d(est.coef_), np.atleast_1d(est.intercept_)
        pred = est.predict(x)
        # = Ridge on the +-1 matrix (one column for two classes)
        t = -np.ones((len(y), k))
        t[np.arange(len(y)), y] = 1.0
        if k == 2:
            t = t[:, 1:]
        r = Ridge(alpha=alpha, fit_intercept=fit_intercept, solver="svd").fit(x, t)
        scale = max(1.0, np.abs(coef).max())
        assert np.allclose(r.coef_, coef, rtol=0, atol=1e-10 * scale)
        assert np.all(dec != 0.0)
    else:
        alpha = 0.0
        t = np.zeros((len(y), k))
        t[np.arange(len(y)), y] = 1.0
        est = LinearRegression(fit_intercept=fit_intercept).fit(x, t)
        coef, intercept = est.coef_, np.atleast_1d(est.intercept_)
        dec = est.predict(x)
        pred = dec.argmax(axis=1)
        # normal equations on the centred data
        xc = x - x.mean(axis=0) if fit_intercept else x
        tc = t - t.mean(axis=0) if fit_intercept else t
        resid = xc.T @ (tc - xc @ coef.T)
        assert np.abs(resid).max() < 1e-7 * max(1.0, np.abs(xc.T @ tc).max()), np.abs(resid).max()
        # no exact ties in the argmax
        srt = np.sort(dec, axis=1)
        assert np.all(srt[:, -1] - srt[:, -2] > 1e-9)
    intercept = np.broadcast_to(np.asarray(intercept, float), (coef.shape[0],)).copy()
    return {
        "x": x, "y": y.astype(np.int64), "mode": mode, "alpha": float(alpha),
        "fit_intercept": int(fit_intercept), "coef": coef, "intercept": intercept,
        "decision": dec, "predict": np.asarray(pred).astype(np.int64),
    }


def ls_cases():
    cases = {}
    x, y, _ = load_dataset("iris")
    cases["ls_iris_ridge"] = ls_case(x, y, "ridge_pm", alpha=1.0)
    cases["ls_iris_ridge_no_intercept"] = ls_case(x, y, "ridge_pm", alpha=0.3, fit_intercept=False)
    cases["ls_iris_ols"] = ls_case(x, y, "ols_onehot")
    x, y, _ = load_dataset("wine")
    xs = standardise(x)
    cases["ls_wine_ridge"] = ls_case(xs, y, "ridge_pm", alpha=0.5)
    cases["ls_wine_ols"] = ls_case(xs, y, "ols_onehot")
    x, y, _ = load_dataset("breast_cancer")
    xs = standardise(x)
    cases["ls_breast_cancer_ridge"] = ls_case(xs, y, "ridge_pm", alpha=1.0)
    cases["ls_breast_cancer_ols"] = ls_case(xs, y, "ols_onehot")
    x, y, _ = load_dataset("digits")
    cases["ls_digits_ridge"] = ls_case(x[:300], y[:300], "ridge_pm", alpha=1.0)
    # Rank deficient (constant pixel columns): the minimum-norm least-squares solution.
    cases["ls_digits_ols"] = ls_case(x[:300], y[:300], "ols_onehot")
    return cases


def main():
    cases = {**perceptron_cases(), **ls_cases()}
    out = write_json(GOLDEN_DIR / "linear" / "perceptron.json", cases, GENERATOR, NOTE)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
