#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::stats (special functions, χ² and z tests,
entropy / mutual information, distributions, kernel density estimation).

Writes datasets/golden/core/stats.json. Every case stores its inputs and the scipy /
scikit-learn outputs. Before writing, values are cross-checked against a second route
(identities between scipy functions, direct sums, numpy histograms) so that doubtful data
is never written.

Usage:  target/golden-venv/bin/python scripts/golden/core_stats.py
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import scipy.special as sp
import scipy.stats as st
from sklearn.metrics import mutual_info_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_stats.py"
OUT = GOLDEN_DIR / "core" / "stats.json"

NOTE = (
    "special_*: scipy.special (gamma, gammaln, digamma, gammainc, gammaincc, gammaincinv, "
    "gammainccinv, betainc, erf, erfc, ndtr, ndtri) at the listed points, except: special_beta "
    "holds 60-digit decimal references (scipy's beta/betaln lose up to 1e-9 for large "
    "arguments) and special_gammainc fields p/q hold 80-digit decimal values for integer a "
    "(scipy's fields p_scipy/q_scipy kept for comparison; they differ by up to 3e-13); "
    "chi2_*: scipy.stats.chi2 (cdf, sf, pdf, ppf, isf); contingency_*: scipy.stats."
    "chi2_contingency(table, correction=yates) with yates 0/1; entropy_*: scipy.stats.entropy"
    "(p, base) (base 0 = natural log); mi_discrete_*: sklearn.metrics.mutual_info_score(a, b); "
    "mi_binned_*: mutual_info_score(None, None, contingency=np.histogram2d(x, y, bins)[0]); "
    "mi_labels_*: mutual_info_score(y, bin index of x) with np.histogram_bin_edges(x, bins) and "
    "numpy's right-closed last bin. Labels are stored as integer arrays. dist_*: scipy.stats "
    "frozen laws (norm, laplace, uniform(loc, scale = high - low), beta, lognorm(s = sigma, "
    "scale = e^mu), gamma(shape, scale), expon(scale), binom, bernoulli, multinomial, "
    "multivariate_normal, dirichlet); ppf at the probabilities p (q for the discrete laws); "
    "binomial logpmf = log(binom.pmf) (scipy's logpmf loses ~1e-12 at n = 1000). "
    "kde_scipy_1d_*: scipy.stats.gaussian_kde(x, bw_method).logpdf(q) (rule silverman / scott "
    "/ factor 0.3; bandwidth = factor * std(x, ddof=1)); kde_sklearn_*: sklearn.neighbors."
    "KernelDensity(kernel, bandwidth).fit(x).score_samples(q) (x = iris[:, :3] for 3-D)."
)

RNG = np.random.default_rng(20240921)


def rel_ok(a, b, rtol=1e-13, atol=0.0):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    return bool(np.all(np.abs(a - b) <= atol + rtol * np.abs(b)))


# ------------------------------------------------------------------ special functions
def beta_ref(a: float, b: float):
    """(B(a, b), ln B(a, b)) to ~1e-16: B(a0, b0) for the fractional parts a0, b0 in (0, 1]
    from scipy (accurate there), then raised with B(x + 1, y) = B(x, y) x / (x + y) and
    B(x, y + 1) = B(x, y) y / (x + y) in 60-digit decimals."""
    from decimal import Decimal, getcontext

    getcontext().prec = 60
    m, n = max(math.ceil(a) - 1, 0), max(math.ceil(b) - 1, 0)
    a0, b0 = a - m, b - n
    v = Decimal(float(sp.beta(a0, b0)))
    x, y = Decimal(a0), Decimal(b0)
    for _ in range(m):
        v = v * x / (x + y)
        x += 1
    for _ in range(n):
        v = v * y / (x + y)
        y += 1
    return float(v), float(v.ln())


def exact_gammainc_integer(a: int, x: float):
    """(P, Q)(a, x) for integer a from Q = e^{-x} sum_{k<a} x^k/k!, in 80-digit decimals."""
    from decimal import Decimal, getcontext

    getcontext().prec = 80
    xd = Decimal(float(x))  # the exact binary value of x
    if x < a:
        # P = x^a e^{-x} / a! * sum_n x^n / ((a+1)...(a+n)), then Q = 1 - P
        term, total, n = Decimal(1), Decimal(0), 0
        while term > Decimal(10) ** -90:
            total += term
            n += 1
            term = term * xd / (a + n)
        pr = xd**a * (-xd).exp() / math.factorial(a) * total
        return float(pr), float(1 - pr)
    term, total = Decimal(1), Decimal(0)
    for k in range(a):
        total += term
        term = term * xd / (k + 1)
    q = (-xd).exp() * total
    return float(1 - q), float(q)



def special_cases(cases):
    xg = np.array(
        [-7.5, -5.5, -2.3, -1.7, -0.3, -1e-5, 1e-8, 0.001, 0.1, 0.5, 0.9, 0.999, 1.0, 1.0001,
         1.3, 1.4616321449683623, 1.5, 1.75, 1.9999, 2.0, 2.0001, 2.2, 2.5, 3.7, 5.0, 9.99,
         10.01, 25.3, 60.0, 100.5, 150.25, 170.6]
    )
    g = sp.gamma(xg)
    pos = xg > 0
    assert rel_ok(np.log(np.abs(g[pos])), sp.gammaln(xg[pos]), 1e-13, 1e-15)
    cases["special_gamma"] = {"x": xg, "value": g}

    xl = np.concatenate([xg, [1e-300, 1e-100, 300.0, 1e3, 1e5, 1e10, 1e15, 1e100, -100.5, -1e3 - 0.25]])
    cases["special_gammaln"] = {"x": xl, "value": sp.gammaln(xl)}

    xd = np.array(
        [-7.5, -2.3, -0.3, 1e-8, 0.001, 0.1, 0.5, 1.0, 1.3, 1.46, 1.47, 2.0, 3.7, 9.99, 10.01,
         25.3, 100.5, 1e4, 1e8]
    )
    cases["special_digamma"] = {"x": xd, "value": sp.digamma(xd)}

    pairs = [(0.5, 0.5), (1.0, 1.0), (2.0, 3.0), (0.1, 7.5), (1e-5, 3.0), (2.5, 9.99), (10.0, 10.0),
             (0.3, 470.25), (30.5, 47.25), (150.0, 250.0), (1e3, 2e3), (5.0, 1e6), (1e5, 1e5)]
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    ref = [beta_ref(x, y) for x, y in zip(a, b)]
    beta_v = np.array([r[0] for r in ref])
    bl = np.array([r[1] for r in ref])
    # scipy agrees only to ~1e-9: its beta/betaln are off by 1e-9 relative at (5, 1e6),
    # 4e-13 at (0.3, 470.25) and 3e-13 at (150, 250), where the exact rational value
    # 149! 249! / 399! confirms the decimal reference.
    assert rel_ok(bl, sp.betaln(a, b), 1e-10, 1e-13)
    assert rel_ok(beta_v, sp.beta(a, b), 1e-8, 1e-300)
    exact = math.factorial(149) * math.factorial(249) / math.factorial(399)
    assert rel_ok(beta_v[list(zip(a, b)).index((150.0, 250.0))], exact, 1e-15)
    cases["special_beta"] = {"a": a, "b": b, "beta": beta_v, "betaln": bl}

    # Regularized incomplete gamma: a grid of shapes × multiples of a
    aa, xx = [], []
    for ai in [0.05, 0.1, 0.5, 1.0, 2.5, 10.0, 30.0, 100.0, 500.0]:
        for m in [1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 2.0, 5.0, 20.0]:
            aa.append(ai)
            xx.append(ai * m)
    aa, xx = np.array(aa), np.array(xx)
    p = sp.gammainc(aa, xx)
    q = sp.gammaincc(aa, xx)
    keep = (p > 1e-300) & (q > 1e-300)
    aa, xx, p, q = aa[keep], xx[keep], p[keep], q[keep]
    assert rel_ok(p + q, np.ones_like(p), 1e-14)
    # For integer a, Q(a, x) = e^{-x} sum_{k<a} x^k / k! exactly: evaluate it with 80-digit
    # decimals and use it as the reference (scipy's gammainc is off by up to ~3e-13 relative
    # for a = 500, e.g. P(500, 250)). Non-integer a keeps scipy's values.
    p_ref, q_ref = p.copy(), q.copy()
    for i, (a_, x_) in enumerate(zip(aa, xx)):
        if a_ == int(a_):
            pe, qe = exact_gammainc_integer(int(a_), x_)
            assert rel_ok(pe, p[i], 1e-12) and rel_ok(qe, q[i], 1e-12), (a_, x_)
            p_ref[i], q_ref[i] = pe, qe
    cases["special_gammainc"] = {"a": aa, "x": xx, "p": p_ref, "q": q_ref, "p_scipy": p,
                                 "q_scipy": q}

    ai, pi = [], []
    for a_ in [0.1, 0.5, 1.0, 2.5, 10.0, 100.0, 1e3]:
        for p_ in [1e-100, 1e-10, 1e-3, 0.05, 0.3, 0.5, 0.7, 0.95, 0.999]:
            ai.append(a_)
            pi.append(p_)
    ai, pi = np.array(ai), np.array(pi)
    xinv = sp.gammaincinv(ai, pi)
    keep = xinv > 1e-300
    ai, pi, xinv = ai[keep], pi[keep], xinv[keep]
    assert rel_ok(sp.gammainc(ai, xinv), pi, 1e-9)
    qinv = sp.gammainccinv(ai, pi)
    assert rel_ok(sp.gammaincc(ai, qinv), pi, 1e-9)
    cases["special_gammaincinv"] = {"a": ai, "p": pi, "x_p": xinv, "x_q": qinv}

    ba, bb, bx = [], [], []
    for a_, b_ in [(0.5, 0.5), (1.0, 3.0), (2.0, 5.0), (0.2, 0.9), (10.0, 2.5), (30.0, 40.0),
                   (100.0, 80.0), (1.5, 200.0)]:
        for x_ in [1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999]:
            ba.append(a_)
            bb.append(b_)
            bx.append(x_)
    ba, bb, bx = np.array(ba), np.array(bb), np.array(bx)
    bi = sp.betainc(ba, bb, bx)
    keep = (bi > 1e-300) & (bi < 1.0 - 1e-15)
    ba, bb, bx, bi = ba[keep], bb[keep], bx[keep], bi[keep]
    assert rel_ok(bi, 1.0 - sp.betainc(bb, ba, 1.0 - bx), 1e-6, 1e-14)
    cases["special_betainc"] = {"a": ba, "b": bb, "x": bx, "value": bi}

    xe = np.array([-3.0, -0.7, -1e-10, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.75, 0.8, 1.0, 1.5, 2.0,
                   2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 26.0, 27.0])
    ef, ec = sp.erf(xe), sp.erfc(xe)
    keep = ec > 0
    cases["special_erf"] = {"x": xe[keep], "erf": ef[keep], "erfc": ec[keep]}

    z = np.array([-38.0, -30.0, -20.0, -10.0, -5.0, -3.0, -1.96, -1.0, -0.5, -1e-8, 0.0, 0.3,
                  1.0, 1.644853626951472, 2.326347874040841, 3.5, 6.0, 8.0, 9.0, 20.0, 38.0])
    cdf, sf = sp.ndtr(z), st.norm.sf(z)
    assert rel_ok(sf, sp.ndtr(-z), 1e-15)
    cases["special_norm"] = {"z": z, "cdf": cdf, "sf": sf, "pdf": st.norm.pdf(z),
                             "logcdf": sp.log_ndtr(z)}

    pp = np.array([1e-300, 1e-200, 1e-100, 1e-30, 1e-10, 1e-5, 0.001, 0.01, 0.02, 0.02425, 0.05,
                   0.1, 0.25, 0.3, 0.4999, 0.5, 0.5001, 0.6, 0.75, 0.9, 0.95, 0.975, 0.98, 0.99,
                   0.999, 1.0 - 1e-10])
    zz = sp.ndtri(pp)
    assert rel_ok(st.norm.ppf(pp), zz, 1e-15)
    cases["special_norm_ppf"] = {"p": pp, "z": zz, "isf": st.norm.isf(pp)}


# ------------------------------------------------------------------ tests
def test_cases(cases):
    xs, ds = [], []
    for d in [0.5, 1.0, 2.0, 3.0, 7.0, 10.0, 50.0, 300.0]:
        for m in [0.01, 0.3, 1.0, 2.0, 5.0]:
            xs.append(d * m)
            ds.append(d)
    xs, ds = np.array(xs), np.array(ds)
    cases["chi2_dist"] = {"x": xs, "dof": ds, "cdf": st.chi2.cdf(xs, ds), "sf": st.chi2.sf(xs, ds),
                          "pdf": st.chi2.pdf(xs, ds)}
    ps, pd = [], []
    for d in [1.0, 2.0, 4.0, 9.0, 30.0, 200.0]:
        for p_ in [1e-12, 0.001, 0.05, 0.5, 0.9, 0.95, 0.99, 0.999]:
            ps.append(p_)
            pd.append(d)
    ps, pd = np.array(ps), np.array(pd)
    cases["chi2_quantiles"] = {"p": ps, "dof": pd, "ppf": st.chi2.ppf(ps, pd),
                               "isf": st.chi2.isf(ps, pd)}

    tables = {
        "2x2": np.array([[10.0, 20.0], [20.0, 10.0]]),
        "2x2_small": np.array([[3.0, 1.0], [1.0, 3.0]]),
        "2x2_strong": np.array([[120.0, 3.0], [2.0, 95.0]]),
        "3x4": RNG.integers(1, 30, size=(3, 4)).astype(float),
        "5x3": RNG.integers(0, 12, size=(5, 3)).astype(float) + np.array([1.0, 0.0, 2.0]),
        "2x6": RNG.integers(5, 60, size=(2, 6)).astype(float),
    }
    # a feature/target table from iris: petal length cut at its median vs class
    x, y, _ = load_dataset("iris")
    hi = (x[:, 2] > np.median(x[:, 2])).astype(int)
    t = np.zeros((2, 3))
    for a_, b_ in zip(hi, y):
        t[a_, b_] += 1.0
    tables["iris_petal_length"] = t
    for name, table in tables.items():
        for yates in (0, 1):
            res = st.chi2_contingency(table, correction=bool(yates))
            if not yates:
                e = np.outer(table.sum(1), table.sum(0)) / table.sum()
                assert rel_ok(res.statistic, ((table - e) ** 2 / e).sum(), 1e-12)
            cases[f"contingency_{name}_yates{yates}"] = {
                "table": table, "yates": yates, "statistic": float(res.statistic),
                "p_value": float(res.pvalue), "dof": int(res.dof), "expected": res.expected_freq,
            }


# ------------------------------------------------------------------ information
def numpy_bins(x, bins):
    edges = np.histogram_bin_edges(x, bins)
    idx = np.searchsorted(edges, x, side="right") - 1
    idx[x == edges[-1]] -= 1
    return np.clip(idx, 0, bins - 1)


def information_cases(cases):
    for i, (n, base) in enumerate([(5, 0.0), (8, 2.0), (12, 10.0), (3, 0.0), (30, 2.0)]):
        p = RNG.random(n) * 3.0
        p[RNG.random(n) < 0.25] = 0.0
        p[0] = max(p[0], 0.1)
        h = st.entropy(p, base=None if base == 0.0 else base)
        q = p / p.sum()
        direct = -(q[q > 0] * np.log(q[q > 0])).sum() / (1.0 if base == 0.0 else np.log(base))
        assert rel_ok(h, direct, 1e-13)
        cases[f"entropy_{i}"] = {"p": p, "base": base, "value": float(h)}

    for i, (n, ka, kb) in enumerate([(40, 3, 4), (200, 2, 2), (500, 10, 7), (37, 5, 1), (300, 30, 40)]):
        a = RNG.integers(0, ka, size=n)
        b = (a * 3 + RNG.integers(0, kb, size=n)) % max(kb, 1) if kb > 1 else np.zeros(n, dtype=np.int64)
        b = b.astype(np.int64)
        a = a.astype(np.int64) * 7  # non-contiguous labels
        mi = mutual_info_score(a, b)
        cases[f"mi_discrete_{i}"] = {"a": a, "b": b, "value": float(mi),
                                     "h_a": float(st.entropy(np.unique(a, return_counts=True)[1]))}

    for i, (n, bins, rho) in enumerate([(100, 5, 0.8), (500, 10, 0.3), (1000, 16, 0.95), (50, 3, 0.0)]):
        x = RNG.standard_normal(n)
        y = rho * x + np.sqrt(1 - rho * rho) * RNG.standard_normal(n)
        hist = np.histogram2d(x, y, bins)[0]
        mi = mutual_info_score(None, None, contingency=hist)
        alt = mutual_info_score(numpy_bins(x, bins), numpy_bins(y, bins))
        assert rel_ok(mi, alt, 1e-12, 1e-15)
        cases[f"mi_binned_{i}"] = {"x": x, "y": y, "bins": bins, "value": float(mi)}

    for data in ("iris", "wine"):
        x, y, _ = load_dataset(data)
        for j in range(0, x.shape[1], 3):
            bins = 10
            xb = numpy_bins(x[:, j], bins)
            mi = mutual_info_score(y, xb)
            cases[f"mi_labels_{data}_{j}"] = {"x": x[:, j], "y": y.astype(np.int64), "bins": bins,
                                              "value": float(mi)}

# ------------------------------------------------------------------ distributions
UNIVARIATE = [
    # (name, scipy frozen law, parameters stored, x grid inside the support)
    ("normal_std", st.norm(0.0, 1.0), {"mean": 0.0, "std": 1.0}, np.linspace(-8.0, 8.0, 17)),
    ("normal", st.norm(1.5, 0.3), {"mean": 1.5, "std": 0.3}, np.linspace(-0.5, 3.5, 13)),
    ("laplace", st.laplace(-2.0, 3.5), {"loc": -2.0, "scale": 3.5}, np.linspace(-30.0, 20.0, 11)),
    ("uniform", st.uniform(-1.0, 4.0), {"low": -1.0, "high": 3.0}, np.linspace(-0.9, 2.9, 7)),
    ("beta_2_5", st.beta(2.0, 5.0), {"alpha": 2.0, "beta": 5.0}, np.linspace(0.01, 0.99, 12)),
    ("beta_half", st.beta(0.5, 0.5), {"alpha": 0.5, "beta": 0.5}, np.linspace(0.001, 0.999, 9)),
    ("beta_skew", st.beta(0.3, 4.0), {"alpha": 0.3, "beta": 4.0}, np.geomspace(1e-6, 0.9, 9)),
    ("beta_large", st.beta(30.0, 12.0), {"alpha": 30.0, "beta": 12.0}, np.linspace(0.4, 0.95, 9)),
    ("lognormal", st.lognorm(1.0, scale=np.exp(0.0)), {"mu": 0.0, "sigma": 1.0}, np.geomspace(1e-3, 50.0, 11)),
    ("lognormal_2", st.lognorm(0.25, scale=np.exp(0.5)), {"mu": 0.5, "sigma": 0.25}, np.linspace(0.5, 4.0, 9)),
    ("gamma_small", st.gamma(0.5, scale=2.0), {"shape": 0.5, "scale": 2.0}, np.geomspace(1e-4, 30.0, 10)),
    ("gamma", st.gamma(7.5, scale=0.3), {"shape": 7.5, "scale": 0.3}, np.linspace(0.2, 6.0, 10)),
    ("exponential", st.expon(scale=2.5), {"scale": 2.5}, np.linspace(0.0, 40.0, 9)),
]
PROBS = np.array([1e-10, 0.001, 0.05, 0.25, 0.5, 0.75, 0.95, 0.999])


def distribution_cases(cases):
    for name, law, params, x in UNIVARIATE:
        pdf, logpdf, cdf, sf = law.pdf(x), law.logpdf(x), law.cdf(x), law.sf(x)
        assert rel_ok(np.exp(logpdf), pdf, 1e-12, 1e-300), name
        ppf = law.ppf(PROBS)
        assert rel_ok(law.cdf(ppf), PROBS, 1e-8, 1e-14), name
        keep = (pdf > 0) & (cdf > 0) & (sf > 0)
        cases[f"dist_{name}"] = {**params, "x": x[keep], "pdf": pdf[keep], "logpdf": logpdf[keep],
                                 "cdf": cdf[keep], "sf": sf[keep], "p": PROBS, "ppf": ppf,
                                 "mean": float(law.mean()), "var": float(law.var())}

    for n, p in [(10, 0.3), (100, 0.05), (1000, 0.6), (20, 0.5)]:
        law = st.binom(n, p)
        k = np.unique(np.linspace(0, n, 11).astype(np.int64))
        pmf = law.pmf(k)
        keep = pmf > 1e-300
        k = k[keep]
        # logpmf reference = log(pmf): scipy's binom.logpmf is off by ~1e-12 absolute at
        # (1000, 0.6, k = 600) (checked against the exact rational value), its pmf is not.
        assert rel_ok(law.logpmf(k), np.log(law.pmf(k)), 1e-11, 1e-11)
        cases[f"dist_binom_{n}"] = {"n": n, "p_success": p, "k": k, "pmf": law.pmf(k),
                                    "logpmf": np.log(law.pmf(k)), "cdf": law.cdf(k), "sf": law.sf(k),
                                    "q": PROBS, "ppf": law.ppf(PROBS).astype(np.int64)}
    law = st.bernoulli(0.3)
    cases["dist_bernoulli"] = {"p_success": 0.3, "k": np.array([0, 1], dtype=np.int64),
                               "pmf": law.pmf([0, 1]), "cdf": law.cdf([0, 1])}

    probs = np.array([0.2, 0.3, 0.5])
    counts = np.array([[2, 3, 5], [0, 0, 10], [10, 0, 0], [1, 6, 3], [4, 4, 2]], dtype=np.int64)
    cases["dist_multinomial"] = {"n": 10, "probs": probs, "counts": counts,
                                 "pmf": st.multinomial(10, probs).pmf(counts)}

    a = RNG.standard_normal((3, 3))
    cov = a @ a.T + 0.5 * np.eye(3)
    mean = np.array([0.5, -1.0, 2.0])
    x = RNG.multivariate_normal(mean, cov, size=12)
    lp = st.multivariate_normal(mean, cov).logpdf(x)
    cases["dist_mvn_random"] = {"mean": mean, "cov": cov, "x": x, "logpdf": lp}
    iris, y, _ = load_dataset("iris")
    c0 = iris[y == 0]
    mean, cov = c0.mean(0), np.cov(c0, rowvar=False)
    cases["dist_mvn_iris"] = {"mean": mean, "cov": cov, "x": iris[::7],
                              "logpdf": st.multivariate_normal(mean, cov).logpdf(iris[::7])}

    for i, alpha in enumerate([np.array([0.5, 2.0, 3.5]), np.array([1.0, 1.0, 1.0, 1.0]),
                               np.array([20.0, 5.0])]):
        pts = RNG.dirichlet(alpha, size=8)
        pts = pts / pts.sum(1, keepdims=True)
        law = st.dirichlet(alpha)
        lp = np.array([law.logpdf(p) for p in pts])
        cases[f"dist_dirichlet_{i}"] = {"alpha": alpha, "x": pts, "logpdf": lp,
                                        "mean": law.mean(), "var": law.var()}


# ------------------------------------------------------------------ kernel density estimation
def kde_cases(cases):
    from sklearn.neighbors import KernelDensity

    x = np.concatenate([RNG.normal(-1.0, 0.5, 120), RNG.normal(2.0, 1.0, 80)])
    q = np.linspace(-4.0, 6.0, 41)
    for bw in ("silverman", "scott", 0.3):
        kde = st.gaussian_kde(x, bw_method=bw)
        h = kde.factor * x.std(ddof=1)
        sk = KernelDensity(kernel="gaussian", bandwidth=h).fit(x[:, None]).score_samples(q[:, None])
        lp = kde.logpdf(q)
        assert rel_ok(lp, sk, 1e-10, 1e-12)
        name = bw if isinstance(bw, str) else "factor"
        cases[f"kde_scipy_1d_{name}"] = {"x": x, "q": q, "rule": name,
                                         "factor": float(kde.factor), "bandwidth": float(h),
                                         "logpdf": lp}

    iris, _, _ = load_dataset("iris")
    data = iris[:, :3]
    queries = iris[::9, :3] + 0.05
    for kernel, h in (("gaussian", 0.5), ("gaussian", 1.3), ("tophat", 1.2), ("tophat", 0.45)):
        kd = KernelDensity(kernel=kernel, bandwidth=h).fit(data)
        lp = kd.score_samples(queries)
        if kernel == "tophat":
            # no query exactly on a ball boundary (ties would depend on < vs <=)
            dist = np.sqrt(((queries[:, None, :] - data[None, :, :]) ** 2).sum(-1))
            assert np.all(np.abs(dist - h) > 1e-9)
            assert np.all(np.isfinite(lp))
        cases[f"kde_sklearn_3d_{kernel}_{h}"] = {"x": data, "q": queries, "kernel": kernel,
                                                  "bandwidth": h, "logpdf": lp}
    kd = KernelDensity(kernel="tophat", bandwidth=0.8).fit(x[:, None])
    q1 = q[np.all(np.abs(np.abs(q[:, None] - x[None, :]) - 0.8) > 1e-9, axis=1)]
    lp = kd.score_samples(q1[:, None])
    keep = np.isfinite(lp)
    cases["kde_sklearn_1d_tophat_0.8"] = {"x": x[:, None], "q": q1[keep][:, None],
                                          "kernel": "tophat", "bandwidth": 0.8, "logpdf": lp[keep]}


def main() -> None:
    cases: dict = {}
    special_cases(cases)
    test_cases(cases)
    information_cases(cases)
    distribution_cases(cases)
    kde_cases(cases)
    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
