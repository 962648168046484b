#!/usr/bin/env python3
"""Golden reference values for ndlearn-linear's L1 / elastic-net LogisticRegression.

Writes datasets/golden/linear/logistic_l1.json: scikit-learn's LogisticRegression with
solver="saga" (the only scikit-learn solver for elastic net and multinomial L1; liblinear
penalises the intercept, so its objective differs) at tol=1e-10 on standardised
breast_cancer (binary), iris and wine (multinomial), L1 (l1_ratio=1) and elastic net
(l1_ratio=0.5), C in {0.1, 1}, plus a sample-weighted and a no-intercept case.

The objective (scikit-learn's) is
    C * sum_i s_i * logloss_i + l1_ratio * ||W||_1 + (1 - l1_ratio)/2 * ||W||^2,
intercepts unpenalised. The standardised inputs are stored once per data set (cases 'data_<name>'); every
case names its data case and stores its hyperparameters, the coefficients, intercepts,
predict_proba, that objective value and the KKT violation (minimum-norm subgradient,
infinity norm, of the objective divided by C * sum(s)) of scikit-learn's solution, which is
asserted small before writing: SAGA is stochastic, so its solution is checked against the
optimality conditions rather than against a second solver.

Usage:  target/golden-venv/bin/python scripts/golden/linear_logistic_l1.py
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
from scipy.special import log_softmax, expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

from common import GOLDEN_DIR, load_dataset, write_json

MAX_ITER = 100000
GENERATOR = "scripts/golden/linear_logistic_l1.py"
NOTE = (
    "LogisticRegression(solver='saga', tol=1e-10, max_iter=100000, l1_ratio in {1, 0.5}); "
    "x standardised with the population std; 'objective' is scikit-learn's "
    "C*sum(s*logloss) + l1_ratio*|W|_1 + (1-l1_ratio)/2*|W|^2; 'kkt' the infinity norm of "
    "the minimum-norm subgradient of that objective / (C*sum(s))."
)


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def objective_and_kkt(x, y, coef, intercept, C, r, sw, fit_intercept):
    n = x.shape[0]
    s = np.ones(n) if sw is None else sw
    z = x @ coef.T + intercept
    if coef.shape[0] == 1:
        t = z[:, 0]
        loss = np.logaddexp(0, t) - y * t
        resid = (expit(t) - y)[:, None]
    else:
        lsm = log_softmax(z, axis=1)
        loss = -lsm[np.arange(n), y]
        onehot = np.eye(coef.shape[0])[y]
        resid = np.exp(lsm) - onehot
    obj = C * np.sum(s * loss) + r * np.abs(coef).sum() + 0.5 * (1 - r) * np.sum(coef**2)
    g = C * (resid * s[:, None]).T @ x + (1 - r) * coef
    sub = np.where(coef > 0, g + r, np.where(coef < 0, g - r, np.maximum(np.abs(g) - r, 0)))
    gb = C * (resid * s[:, None]).sum(axis=0) if fit_intercept else np.zeros(1)
    kkt = max(np.abs(sub).max(), np.abs(gb).max()) / (C * s.sum())
    return obj, kkt


def case(data, x, y, C, r, fit_intercept=True, sample_weight=None):
    m = LogisticRegression(solver="saga", C=C, l1_ratio=r, tol=1e-10, max_iter=MAX_ITER,
                           fit_intercept=fit_intercept, random_state=0)
    with warnings.catch_warnings():
        # Some cases stop at max_iter short of tol=1e-10; the KKT check below decides.
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(x, y, sample_weight=sample_weight)
    obj, kkt = objective_and_kkt(x, y, m.coef_, m.intercept_, C, r, sample_weight,
                                  fit_intercept)
    assert kkt < 1e-6, kkt
    out = {"data": data, "c": float(C), "l1_ratio": float(r),
           "fit_intercept": int(fit_intercept), "coef": m.coef_, "intercept": m.intercept_,
           "proba": m.predict_proba(x), "predict": m.predict(x).astype(np.int64),
           "objective": float(obj), "kkt": float(kkt), "n_iter": int(m.n_iter_.max()),
           "n_zero": int(np.sum(m.coef_ == 0))}
    if sample_weight is not None:
        out["sample_weight"] = np.asarray(sample_weight, float)
    print(f"  C={C} l1_ratio={r}: n_iter={out['n_iter']} kkt={kkt:.2e} "
          f"zeros={out['n_zero']}/{m.coef_.size}", file=sys.stderr)
    return out


def cases():
    out = {}
    # The inputs, once per data set; each case names its "data" case.
    for name in ("breast_cancer", "iris", "wine"):
        x, y, _ = load_dataset(name)
        out[f"data_{name}"] = {"x": standardise(x), "y": y.astype(np.int64)}
    x, y, _ = load_dataset("breast_cancer")
    xs = standardise(x)
    for C in (0.1, 1.0):
        for r, tag in ((1.0, "l1"), (0.5, "en")):
            out[f"breast_cancer_{tag}_c{C:g}"] = case("data_breast_cancer", xs, y, C, r)
    rng = np.random.default_rng(21)
    sw = rng.uniform(0.2, 3.0, size=len(y))
    out["breast_cancer_l1_sample_weight"] = case("data_breast_cancer", xs, y, 0.5, 1.0,
                                                 sample_weight=sw)
    for name in ("iris", "wine"):
        x, y, _ = load_dataset(name)
        xs = standardise(x)
        for C in (0.1, 1.0):
            for r, tag in ((1.0, "l1"), (0.5, "en")):
                out[f"{name}_{tag}_c{C:g}"] = case(f"data_{name}", xs, y, C, r)
    x, y, _ = load_dataset("iris")
    out["iris_l1_no_intercept"] = case("data_iris", standardise(x), y, 0.5, 1.0,
                                       fit_intercept=False)
    return out


def main():
    path = write_json(GOLDEN_DIR / "linear" / "logistic_l1.json", cases(), GENERATOR, NOTE)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
