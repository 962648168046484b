"""Golden references for ndlearn-bayes' KdeClassifier, built from scikit-learn's KernelDensity
fitted per class.

Writes datasets/golden/bayes/kde_classifier.json.

The classifier: p(c | x) ∝ π_c p̂_c(x), π_c = n_c / n, p̂_c a kernel density estimate on the
training rows of class c with a bandwidth h_j per feature. Rule-based bandwidths:
h_j = factor · σ_j with σ_j the column's standard deviation (ddof = 1) within the class and
factor = Silverman's (n_c (d + 2) / 4)^(−1/(d+4)) (the default), Scott's n_c^(−1/(d+4)) or a
given number. scikit-learn's KernelDensity takes one bandwidth, so the per-feature bandwidths
are applied by scaling: p̂_c(x) = KDE_{h=1}(x / h on the rows x_i / h) / Π_j h_j, i.e.
log p̂_c(x) = KernelDensity(bandwidth=1).fit(X_c / h).score_samples(x / h) − Σ_j log h_j.
The Gaussian kernel is a product over features, the tophat a uniform density on the unit ball
of the scaled coordinates; both are what ndlearn computes.

Every KernelDensity value is checked against a direct evaluation (scipy's logsumexp over all
training rows; a count for the tophat) and the direct value is stored. They agree to 1e-9 on
iris and wine. On breast_cancer (30 features, test rows far from a class in the scaled
coordinates) scikit-learn's tree traversal is not exact even with atol = rtol = 0: e.g. test
row 115, class 1, log p̂ = −47.47 (default breadth-first) or −98.97 (ball tree) where the
direct sum gives −98.71; the number of such rows is stored as "sklearn_tree_inexact_rows"
(the direct value is the reference there).

Split: training rows i % 4 != 0, test rows i % 4 == 0 (file order of
datasets/data/<dataset>.csv), as bayes.py.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp
from sklearn.neighbors import KernelDensity

from common import load_dataset, write_json

NOTE = ("KdeClassifier reference: per class, sklearn KernelDensity(bandwidth=1) on rows scaled "
        "by per-feature bandwidths h_j, log density minus sum log h_j, plus log(n_c/n); "
        "train rows i % 4 != 0, test rows i % 4 == 0")


def split(name):
    x, y, _ = load_dataset(name)
    i = np.arange(len(y))
    tr, te = i % 4 != 0, i % 4 == 0
    return x[tr], y[tr], x[te]


def factor(rule, n, d):
    if rule == "silverman":
        return (n * (d + 2) / 4.0) ** (-1.0 / (d + 4))
    if rule == "scott":
        return n ** (-1.0 / (d + 4))
    return float(rule)


def direct(kernel, xc, xt, h):
    """log p̂ by a direct pass over every training row (no tree)."""
    n, d = xc.shape
    u2 = (((xt[:, None, :] - xc[None, :, :]) / h) ** 2).sum(axis=2)
    if kernel == "gaussian":
        return (logsumexp(-0.5 * u2, axis=1) - np.log(n) - np.log(h).sum()
                - 0.5 * d * np.log(2 * np.pi))
    # tophat: the unit ball's volume π^{d/2} / Γ(d/2 + 1)
    ln_vol = 0.5 * d * np.log(np.pi) - gammaln(0.5 * d + 1)
    with np.errstate(divide="ignore"):
        return np.log((u2 <= 1.0).sum(axis=1)) - np.log(n) - np.log(h).sum() - ln_vol


def disagreements(sk, ref):
    """Rows where scikit-learn's tree result is not the direct one (to 1e-9)."""
    finite = np.isfinite(ref)
    assert np.array_equal(finite, np.isfinite(sk)), "support differs"
    err = np.abs(sk[finite] - ref[finite])
    return int((err > 1e-9 * np.maximum(1.0, np.abs(ref[finite]))).sum())


def case(ds, kernel, bandwidth):
    """`bandwidth`: "silverman", "scott", ("factor", f) or ("fixed", h)."""
    x, y, xt = split(ds)
    n, d = x.shape
    classes = np.unique(y)
    log_prior = np.log(np.array([np.sum(y == c) for c in classes]) / n)
    hs, log_dens, inexact = [], [], 0
    for c in classes:
        xc = x[y == c]
        if isinstance(bandwidth, tuple) and bandwidth[0] == "fixed":
            h = np.full(d, bandwidth[1])
        else:
            rule = bandwidth[1] if isinstance(bandwidth, tuple) else bandwidth
            h = factor(rule, len(xc), d) * xc.std(axis=0, ddof=1)
        kd = KernelDensity(kernel=kernel, bandwidth=1.0).fit(xc / h)
        sk = kd.score_samples(xt / h) - np.log(h).sum()
        ref = direct(kernel, xc, xt, h)
        inexact += disagreements(sk, ref)
        log_dens.append(ref)
        hs.append(h)
    joint = np.column_stack(log_dens) + log_prior
    keep = np.isfinite(joint).any(axis=1)  # (tophat: rows outside every class's support)
    joint, rows = joint[keep], np.flatnonzero(keep)
    proba = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
    out = dict(dataset=ds, kernel=kernel, test_rows=rows, log_prior=log_prior,
               bandwidths=np.array(hs), proba=proba, pred=classes[np.argmax(joint, axis=1)])
    if isinstance(bandwidth, tuple):
        out["bandwidth_kind"], out["bandwidth_value"] = bandwidth[0], float(bandwidth[1])
    else:
        out["bandwidth_kind"] = bandwidth
    out["sklearn_tree_inexact_rows"] = inexact
    assert inexact == 0 or ds == "breast_cancer", (ds, inexact)
    if np.isfinite(joint).all():
        out["joint_log_likelihood"] = joint
    return out


def main():
    cases = {
        "gaussian_silverman_iris": case("iris", "gaussian", "silverman"),
        "gaussian_silverman_wine": case("wine", "gaussian", "silverman"),
        "gaussian_scott_wine": case("wine", "gaussian", "scott"),
        "gaussian_silverman_breast_cancer": case("breast_cancer", "gaussian", "silverman"),
        "gaussian_fixed_0.5_iris": case("iris", "gaussian", ("fixed", 0.5)),
        "gaussian_factor_0.3_wine": case("wine", "gaussian", ("factor", 0.3)),
        "tophat_factor_1.5_iris": case("iris", "tophat", ("factor", 1.5)),
    }
    write_json("datasets/golden/bayes/kde_classifier.json", cases, "bayes_kde.py", NOTE)


if __name__ == "__main__":
    main()
