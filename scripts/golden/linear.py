#!/usr/bin/env python3
"""Golden reference values for ndlearn-linear (scikit-learn linear models).

Writes one file per estimator family under datasets/golden/linear/:

  ols.json     LinearRegression (coef_, intercept_, rank_, singular_) on diabetes (scaled and
               raw), make_regression problems (single and multi-output, no intercept),
               rank-deficient X with duplicated columns and n < d; statsmodels-equivalent
               inference computed with numpy (see NOTE_OLS)
  ridge.json   Ridge (cholesky / svd solvers, multi-output with per-target alpha, d > n) and
               RidgeCV (efficient leave-one-out, store_cv_results)
  lasso.json   Lasso / ElasticNet (coordinate descent), lasso_path / enet_path, LassoCV /
               ElasticNetCV

Every case stores its inputs (x, y, hyperparameters) next to the outputs, and every output
is cross-checked against a second computation before writing (normal equations, pinv,
optimality conditions).

Usage:  target/golden-venv/bin/python scripts/golden/linear.py [ols|ridge|lasso ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.stats
from sklearn.datasets import make_regression
from sklearn.linear_model import (
    ElasticNet,
    ElasticNetCV,
    Lasso,
    LassoCV,
    LinearRegression,
    LogisticRegression,
    Ridge,
    RidgeCV,
    enet_path,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, diabetes_scaled, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/linear.py"


def diabetes():
    x, y, _ = load_dataset("diabetes")
    return diabetes_scaled(x), y


def diabetes_raw():
    x, y, _ = load_dataset("diabetes")
    return np.ascontiguousarray(x), y


# ------------------------------------------------------------------------------------- OLS
NOTE_OLS = (
    "sklearn.linear_model.LinearRegression: coef (k x d for multi-output cases, row-major), "
    "intercept, rank, singular (singular values of the centred X). Every coefficient vector "
    "was checked against the minimum-norm solution pinv(Xc) @ yc (numpy default rcond) to "
    "1e-10 relative. Inference cases (field se etc.) follow statsmodels "
    "OLS(y, add_constant(X)).fit() computed with numpy: Xa = [1, X]; cov = scale * "
    "pinv(Xa'Xa); scale = rss/(n - p); se = sqrt(diag(cov)) with the intercept FIRST; "
    "tvalues = params/se; hat = diag(Xa pinv(Xa'Xa) Xa'); student_internal = e/sqrt(scale "
    "(1-h)); student_external = e/sqrt(s2_del (1-h)) with s2_del = (rss - e^2/(1-h))/(n-p-1); "
    "cooks = student_internal^2 h/(p(1-h)); prediction at x_new with t_crit = "
    "scipy.stats.t.ppf(0.975, n-p): mean_se = sqrt(a' cov a), a = [1, x]; obs_se = "
    "sqrt(mean_se^2 + scale). Residual summary: scipy.stats.skew, kurtosis(fisher=False), "
    "Jarque-Bera statistic n/6 (S^2 + (K-3)^2/4), Durbin-Watson sum(diff(e)^2)/sum(e^2)."
)


def min_norm(x, y, fit_intercept=True):
    xm = x.mean(axis=0) if fit_intercept else np.zeros(x.shape[1])
    ym = y.mean(axis=0) if fit_intercept else np.zeros(y.shape[1:])
    w = np.linalg.pinv(x - xm) @ (y - ym)
    return w


def ols_inference(x, y, model, x_new):
    n = x.shape[0]
    xa = np.hstack([np.ones((n, 1)), x])
    params = np.concatenate([[model.intercept_], model.coef_])
    resid = y - xa @ params
    rss = resid @ resid
    p = np.linalg.matrix_rank(xa)
    dof = n - p
    scale = rss / dof
    norm_cov = np.linalg.pinv(xa.T @ xa)
    cov = scale * norm_cov
    se = np.sqrt(np.diag(cov))
    hat = np.einsum("ij,jk,ik->i", xa, norm_cov, xa)
    internal = resid / np.sqrt(scale * (1 - hat))
    s2_del = (rss - resid**2 / (1 - hat)) / (dof - 1)
    external = resid / np.sqrt(s2_del * (1 - hat))
    cooks = internal**2 * hat / (p * (1 - hat))
    t_crit = scipy.stats.t.ppf(0.975, dof)
    an = np.hstack([np.ones((x_new.shape[0], 1)), x_new])
    mean = an @ params
    mean_se = np.sqrt(np.einsum("ij,jk,ik->i", an, cov, an))
    obs_se = np.sqrt(mean_se**2 + scale)
    # Independent check of the hat diagonal via QR of Xa.
    q, _ = np.linalg.qr(xa)
    assert np.allclose(hat, (q**2).sum(axis=1), rtol=1e-10, atol=1e-12)
    skew = scipy.stats.skew(resid)
    kurt = scipy.stats.kurtosis(resid, fisher=False)
    return {
        "rss": rss,
        "dof": dof,
        "scale": scale,
        "sigma2_mle": rss / n,
        "cov": cov,
        "se": se,
        "tvalues": params / se,
        "hat": hat,
        "student_internal": internal,
        "student_external": external,
        "cooks": cooks,
        "x_new": x_new,
        "t_crit": t_crit,
        "pred_mean": mean,
        "pred_mean_se": mean_se,
        "pred_obs_se": obs_se,
        "pred_mean_lower": mean - t_crit * mean_se,
        "pred_obs_upper": mean + t_crit * obs_se,
        "resid_skew": skew,
        "resid_kurtosis": kurt,
        "jarque_bera": n / 6 * (skew**2 + (kurt - 3) ** 2 / 4),
        "durbin_watson": np.sum(np.diff(resid) ** 2) / rss,
        "r2": 1 - rss / np.sum((y - y.mean()) ** 2),
    }


def ols_case(x, y, fit_intercept=True, inference=False, x_new=None):
    model = LinearRegression(fit_intercept=fit_intercept).fit(x, y)
    ref = min_norm(x, y, fit_intercept)
    coef = model.coef_
    scale = np.abs(ref).max()
    assert np.allclose(coef.T, ref, rtol=1e-10, atol=1e-10 * scale), "OLS vs pinv"
    case = {
        "x": x,
        "y": y,
        "fit_intercept": int(fit_intercept),
        "coef": coef,
        "intercept": model.intercept_,
        "rank": int(model.rank_),
        "singular": model.singular_,
    }
    if inference:
        case.update(ols_inference(x, y, model, x_new))
    return case


def ols_cases():
    cases = {}
    x, y = diabetes()
    cases["diabetes"] = ols_case(x, y, inference=True, x_new=x[[0, 10, 100]] * 1.5)
    xr, yr = diabetes_raw()
    cases["diabetes_raw"] = ols_case(xr, yr, inference=True, x_new=xr[[1, 20, 200]])
    x, y = make_regression(n_samples=200, n_features=8, n_informative=5, noise=10.0,
                           bias=5.0, random_state=0)
    cases["regression_noise"] = ols_case(x, y, inference=True, x_new=x[:4] + 0.5)
    cases["regression_no_intercept"] = ols_case(x, y + 3.0, fit_intercept=False)
    x, y = make_regression(n_samples=120, n_features=6, n_targets=3, noise=5.0, bias=2.0,
                           random_state=1)
    cases["multi_output"] = ols_case(x, y)
    x, y = make_regression(n_samples=80, n_features=5, noise=2.0, random_state=2)
    xd = np.hstack([x, x[:, [0, 3]], 2.0 * x[:, [1]]])
    cases["rank_deficient"] = ols_case(xd, y)
    x, y = make_regression(n_samples=20, n_features=50, n_informative=10, noise=1.0,
                           random_state=3)
    cases["wide"] = ols_case(x, y)
    return cases


# ----------------------------------------------------------------------------------- Ridge
NOTE_RIDGE = (
    "sklearn.linear_model.Ridge (objective ||y - Xw - b||^2 + alpha ||w||^2, unpenalised "
    "intercept) with solver 'cholesky' and 'svd' (both stored fits agree to 1e-10 and with "
    "the closed form (Xc'Xc + alpha I)^-1 Xc'yc); alpha is a scalar or, for multi-output "
    "cases, one per target (field alphas). ridgecv_* cases: sklearn.linear_model.RidgeCV("
    "alphas, store_cv_results=True) (exact leave-one-out); mse = cv_results_.mean(axis=0) per "
    "alpha (for multi-output: n_alphas x k, mean over samples), alpha = alpha_ (per target "
    "when alpha_per_target); each mse value was checked against brute-force refits for the "
    "small cases."
)


def ridge_closed_form(x, y, alpha, fit_intercept=True):
    xm = x.mean(axis=0) if fit_intercept else np.zeros(x.shape[1])
    ym = y.mean(axis=0) if fit_intercept else 0.0
    xc, yc = x - xm, y - ym
    return np.linalg.solve(xc.T @ xc + alpha * np.eye(x.shape[1]), xc.T @ yc)


def ridge_case(x, y, alpha, fit_intercept=True):
    fits = [Ridge(alpha=alpha, fit_intercept=fit_intercept, solver=sv).fit(x, y)
            for sv in ("cholesky", "svd")]
    a, b = fits
    scale = np.abs(a.coef_).max()
    assert np.allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-10 * scale), "cholesky vs svd"
    if np.ndim(alpha) == 0 and x.shape[0] >= x.shape[1]:
        ref = ridge_closed_form(x, y, alpha, fit_intercept)
        assert np.allclose(a.coef_.T, ref, rtol=1e-9, atol=1e-9 * scale), "closed form"
    case = {"x": x, "y": y, "fit_intercept": int(fit_intercept),
            "coef": b.coef_, "intercept": b.intercept_}
    if np.ndim(alpha) == 0:
        case["alpha"] = float(alpha)
    else:
        case["alphas"] = np.asarray(alpha, dtype=float)
    return case


def brute_loo(x, y, alpha, fit_intercept=True):
    n = x.shape[0]
    err = 0.0
    for i in range(n):
        keep = np.arange(n) != i
        m = Ridge(alpha=alpha, fit_intercept=fit_intercept).fit(x[keep], y[keep])
        err += (y[i] - m.predict(x[i : i + 1])[0]) ** 2
    return err / n


def ridgecv_case(x, y, alphas, fit_intercept=True, alpha_per_target=False, check=False):
    m = RidgeCV(alphas=alphas, fit_intercept=fit_intercept, store_cv_results=True,
                alpha_per_target=alpha_per_target).fit(x, y)
    mse = m.cv_results_.mean(axis=0)  # (n_alphas,) or (k, n_alphas)
    if mse.ndim == 2:
        mse = mse.T
    if check:
        for i, a in enumerate(alphas):
            want = brute_loo(x, y, a, fit_intercept)
            assert abs(mse[i] - want) <= 1e-9 * want, (a, mse[i], want)
    alpha = np.atleast_1d(m.alpha_).astype(float)
    ref = Ridge(alpha=m.alpha_, fit_intercept=fit_intercept).fit(x, y)
    scale = np.abs(ref.coef_).max()
    assert np.allclose(m.coef_, ref.coef_, rtol=1e-8, atol=1e-8 * scale), "RidgeCV refit"
    return {"x": x, "y": y, "fit_intercept": int(fit_intercept),
            "alpha_per_target": int(alpha_per_target), "alphas": np.asarray(alphas, float),
            "mse": mse, "alpha": alpha, "coef": m.coef_, "intercept": m.intercept_}


def ridge_cases():
    cases = {}
    x, y = diabetes()
    cases["diabetes_a1"] = ridge_case(x, y, 1.0)
    cases["diabetes_a001"] = ridge_case(x, y, 0.01)
    xr, yr = diabetes_raw()
    cases["diabetes_raw_a10"] = ridge_case(xr, yr, 10.0)
    x, y = make_regression(n_samples=200, n_features=8, n_informative=5, noise=10.0,
                           bias=5.0, random_state=0)
    cases["regression_a5"] = ridge_case(x, y, 5.0)
    cases["regression_no_intercept"] = ridge_case(x, y + 3.0, 2.0, fit_intercept=False)
    x, y = make_regression(n_samples=120, n_features=6, n_targets=3, noise=5.0, bias=2.0,
                           random_state=1)
    cases["multi_output_alphas"] = ridge_case(x, y, np.array([0.1, 1.0, 10.0]))
    x, y = make_regression(n_samples=80, n_features=5, noise=2.0, random_state=2)
    xd = np.hstack([x, x[:, [0, 3]], 2.0 * x[:, [1]]])
    cases["rank_deficient_a1"] = ridge_case(xd, y, 1.0)
    x, y = make_regression(n_samples=20, n_features=50, n_informative=10, noise=1.0,
                           random_state=3)
    cases["wide_a05"] = ridge_case(x, y, 0.5)

    x, y = diabetes()
    cases["ridgecv_diabetes"] = ridgecv_case(x, y, np.logspace(-3, 2, 12))
    x, y = make_regression(n_samples=40, n_features=6, noise=8.0, random_state=4)
    cases["ridgecv_small"] = ridgecv_case(x, y, [0.01, 0.3, 3.0, 30.0], check=True)
    cases["ridgecv_small_no_intercept"] = ridgecv_case(x, y + 2.0, [0.01, 0.3, 3.0, 30.0],
                                                       fit_intercept=False, check=True)
    x, y = make_regression(n_samples=25, n_features=60, n_informative=8, noise=3.0,
                           random_state=5)
    cases["ridgecv_wide"] = ridgecv_case(x, y, [0.1, 1.0, 10.0, 100.0], check=True)
    x, y = make_regression(n_samples=60, n_features=5, n_targets=3, noise=20.0,
                           random_state=6)
    y[:, 2] += 40.0 * np.random.default_rng(6).standard_normal(60)
    cases["ridgecv_multi_per_target"] = ridgecv_case(x, y, np.logspace(-2, 3, 8),
                                                     alpha_per_target=True)
    cases["ridgecv_multi_joint"] = ridgecv_case(x, y, np.logspace(-2, 3, 8))
    return cases


# ----------------------------------------------------------------------------------- Lasso
NOTE_LASSO = (
    "sklearn.linear_model.Lasso / ElasticNet (coordinate descent, cyclic, precompute=False) "
    "for (1/(2n))||y - Xw - b||^2 + alpha l1_ratio ||w||_1 + alpha (1 - l1_ratio)/2 ||w||^2; "
    "fields alpha, l1_ratio, tol, max_iter, positive, fit_intercept (0/1), coef (k x d for "
    "multi-output), intercept, n_iter, dual_gap (sklearn's dual_gap_, i.e. gap / n), "
    "objective (the value above at the solution). Every optimum was checked against the KKT "
    "conditions (to 1e-6 relative for tight-tol cases). path_* cases: sklearn enet_path on "
    "the given (uncentred) data, coefs stored n_alphas x d (transposed from sklearn), alphas "
    "decreasing. lassocv_* / enetcv_*: LassoCV / ElasticNetCV(cv=k) with unshuffled KFold; "
    "mse = mse_path_ (n_alphas x n_folds, one matrix per l1_ratio stacked as rows for "
    "ElasticNetCV: shape (n_l1 * n_alphas) x n_folds), alphas = alphas_ (one row per l1_ratio)."
)


def enet_objective(x, y, coef, intercept, alpha, l1_ratio):
    r = y - x @ coef - intercept
    n = x.shape[0]
    return (r @ r / (2 * n) + alpha * l1_ratio * np.abs(coef).sum()
            + 0.5 * alpha * (1 - l1_ratio) * coef @ coef)


def check_kkt(x, y, coef, intercept, alpha, l1_ratio, positive, tol):
    n = x.shape[0]
    r = y - x @ coef - intercept
    g = x.T @ r / n - alpha * (1 - l1_ratio) * coef
    lam = alpha * l1_ratio
    scale = max(lam, 1e-12)
    on = coef != 0
    assert np.all(np.abs(g[on] - lam * np.sign(coef[on])) <= tol * scale + 1e-12), "KKT support"
    if positive:
        assert np.all(g[~on] <= lam + tol * scale + 1e-12), "KKT zeros (positive)"
    else:
        assert np.all(np.abs(g[~on]) <= lam + tol * scale + 1e-12), "KKT zeros"


def enet_case(x, y, alpha, l1_ratio=1.0, fit_intercept=True, tol=1e-10, max_iter=100_000,
              positive=False, kkt_tol=1e-6):
    cls = Lasso if l1_ratio == 1.0 else ElasticNet
    kw = {} if l1_ratio == 1.0 else {"l1_ratio": l1_ratio}
    m = cls(alpha=alpha, fit_intercept=fit_intercept, tol=tol, max_iter=max_iter,
            positive=positive, **kw).fit(x, y)
    case = {"x": x, "y": y, "alpha": alpha, "l1_ratio": l1_ratio, "tol": tol,
            "max_iter": max_iter, "positive": int(positive), "fit_intercept": int(fit_intercept),
            "coef": m.coef_, "intercept": m.intercept_}
    if y.ndim == 1:
        if kkt_tol is not None:
            check_kkt(x, y, m.coef_, m.intercept_, alpha, l1_ratio, positive, kkt_tol)
        case["objective"] = enet_objective(x, y, m.coef_, m.intercept_, alpha, l1_ratio)
        case["n_iter"] = int(m.n_iter_)
        case["dual_gap"] = float(m.dual_gap_)
    return case


def path_case(x, y, l1_ratio, n_alphas, eps=1e-3, tol=1e-10):
    alphas, coefs, gaps = enet_path(x, y, l1_ratio=l1_ratio, alphas=n_alphas, eps=eps, tol=tol,
                                    max_iter=100_000)
    for a, c in zip(alphas, coefs.T):
        check_kkt(x, y, c, 0.0, a, l1_ratio, False, 1e-5)
    return {"x": x, "y": y, "l1_ratio": l1_ratio, "n_alphas": n_alphas, "eps": eps, "tol": tol,
            "alphas": alphas, "coefs": coefs.T, "dual_gaps": gaps}


def cv_case(x, y, l1_ratios, cv, n_alphas=100, tol=1e-10):
    if l1_ratios is None:
        m = LassoCV(alphas=n_alphas, cv=cv, tol=tol, max_iter=100_000).fit(x, y)
        mse = m.mse_path_
        alphas = m.alphas_[None, :]
        l1 = 1.0
    else:
        m = ElasticNetCV(l1_ratio=l1_ratios, alphas=n_alphas, cv=cv, tol=tol,
                         max_iter=100_000).fit(x, y)
        mse = m.mse_path_.reshape(-1, cv)
        alphas = m.alphas_
        l1 = m.l1_ratio_
    best = np.argmin(mse.reshape(len(alphas), n_alphas, cv).mean(axis=2).min(axis=1))
    assert np.isclose(np.min(mse.reshape(len(alphas), n_alphas, cv).mean(axis=2)[best]),
                      np.min(mse.reshape(-1, n_alphas, cv).mean(axis=2)))
    case = {"x": x, "y": y, "cv": cv, "n_alphas": n_alphas, "tol": tol, "mse": mse,
            "alphas": alphas, "alpha": float(m.alpha_), "l1_ratio": float(l1),
            "coef": m.coef_, "intercept": float(m.intercept_)}
    if l1_ratios is not None:
        case["l1_ratios"] = np.asarray(l1_ratios, float)
    return case


def lasso_cases():
    cases = {}
    x, y = diabetes()
    cases["lasso_diabetes"] = enet_case(x, y, 0.1)
    cases["lasso_diabetes_default_tol"] = enet_case(x, y, 0.5, tol=1e-4, max_iter=1000,
                                                    kkt_tol=None)
    cases["enet_diabetes"] = enet_case(x, y, 0.01, l1_ratio=0.5)
    cases["enet_diabetes_default_tol"] = enet_case(x, y, 0.003, l1_ratio=0.3, tol=1e-4,
                                                   max_iter=1000, kkt_tol=None)
    xr, yr = diabetes_raw()
    cases["lasso_diabetes_raw"] = enet_case(xr, yr, 1.0)
    x, y = make_regression(n_samples=200, n_features=30, n_informative=5, noise=10.0,
                           bias=5.0, random_state=7)
    cases["lasso_regression"] = enet_case(x, y, 1.0)
    cases["enet_regression"] = enet_case(x, y, 0.5, l1_ratio=0.7)
    cases["lasso_positive"] = enet_case(x, y, 0.5, positive=True)
    cases["lasso_no_intercept"] = enet_case(x, y + 4.0, 0.8, fit_intercept=False)
    x, y = make_regression(n_samples=50, n_features=200, n_informative=10, noise=2.0,
                           random_state=8)
    cases["lasso_wide"] = enet_case(x, y, 0.5)
    cases["enet_wide"] = enet_case(x, y, 0.2, l1_ratio=0.5)
    x, y = make_regression(n_samples=80, n_features=5, noise=2.0, random_state=2)
    xd = np.hstack([x, x[:, [0, 3]]])
    cases["enet_rank_deficient"] = enet_case(xd, y, 0.1, l1_ratio=0.5)
    x, y = make_regression(n_samples=100, n_features=8, n_targets=2, noise=5.0,
                           random_state=9)
    cases["enet_multi_output"] = enet_case(x, y, 0.3, l1_ratio=0.6)

    x, y = diabetes()
    cases["path_lasso_diabetes"] = path_case(x, y - y.mean(), 1.0, 50)
    x, y = make_regression(n_samples=60, n_features=15, n_informative=4, noise=3.0,
                           random_state=10)
    cases["path_enet_regression"] = path_case(x, y, 0.5, 30, eps=1e-2)

    x, y = diabetes()
    cases["lassocv_diabetes"] = cv_case(x, y, None, 5, n_alphas=50)
    x, y = make_regression(n_samples=90, n_features=12, n_informative=4, noise=15.0,
                           random_state=11)
    cases["enetcv_regression"] = cv_case(x, y, [0.1, 0.5, 0.9], 3, n_alphas=20)
    return cases


# -------------------------------------------------------------------------------- Logistic
NOTE_LOGISTIC = (
    "sklearn.linear_model.LogisticRegression(solver='newton-cholesky', tol=1e-10): "
    "objective (1/S) sum_i s_i loss_i + ||W||^2/(2 C S) (C = inf: no penalty, field penalty "
    "'none'); binary cases have coef 1 x d, multinomial K x d (softmax with one vector per "
    "class); proba = predict_proba(x), labels 0..K-1. Every fit was cross-checked against "
    "solver='newton-cg' (coef to 1e-6, proba to 1e-7) and 'lbfgs' (proba to 1e-5: scipy's "
    "L-BFGS-B stops on ftol = 64 eps before tol). x of breast_cancer and wine is "
    "standardised (mean 0, std 1 with ddof 0) before fitting; the stored x is the standardised "
    "one. class_weight: 'balanced' or a list (field class_weight_mode: balanced / custom / "
    "none); sample weights in field sample_weight when used."
)


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def logistic_case(x, y, C=1.0, fit_intercept=True, class_weight=None, sample_weight=None):
    kw = dict(C=C, fit_intercept=fit_intercept, class_weight=class_weight)
    a = LogisticRegression(solver="lbfgs", tol=1e-10, max_iter=10000, **kw)
    a.fit(x, y, sample_weight=sample_weight)
    b = LogisticRegression(solver="newton-cholesky", tol=1e-10, max_iter=1000, **kw)
    b.fit(x, y, sample_weight=sample_weight)
    c = LogisticRegression(solver="newton-cg", tol=1e-10, max_iter=1000, **kw)
    c.fit(x, y, sample_weight=sample_weight)
    pa, pb, pc = a.predict_proba(x), b.predict_proba(x), c.predict_proba(x)
    # L-BFGS-B stops on ftol = 64 eps before reaching tol; the two Newton solvers agree tightly.
    assert np.allclose(pa, pb, rtol=0, atol=1e-5), np.abs(pa - pb).max()
    assert np.allclose(pc, pb, rtol=0, atol=1e-7), np.abs(pc - pb).max()
    scale = np.abs(b.coef_).max()
    assert np.allclose(c.coef_, b.coef_, rtol=1e-6, atol=1e-6 * scale), np.abs(c.coef_ - b.coef_).max()
    a = b
    case = {"x": x, "y": y.astype(np.int64), "c": float(C) if np.isfinite(C) else 1.0,
            "penalty": "l2" if np.isfinite(C) else "none", "fit_intercept": int(fit_intercept),
            "coef": a.coef_, "intercept": a.intercept_, "proba": pb,
            "predict": a.predict(x).astype(np.int64)}
    if class_weight is None:
        case["class_weight_mode"] = "none"
    elif class_weight == "balanced":
        case["class_weight_mode"] = "balanced"
    else:
        case["class_weight_mode"] = "custom"
        case["class_weight"] = np.array([class_weight[k] for k in sorted(class_weight)], float)
    if sample_weight is not None:
        case["sample_weight"] = np.asarray(sample_weight, float)
    return case


def logistic_cases():
    cases = {}
    x, y, _ = load_dataset("iris")
    cases["iris_multinomial"] = logistic_case(x, y)
    cases["iris_multinomial_c01"] = logistic_case(x, y, C=0.1)
    cases["iris_no_intercept"] = logistic_case(x, y, C=10.0, fit_intercept=False)
    x, y, _ = load_dataset("breast_cancer")
    xs = standardise(x)
    cases["breast_cancer_binary"] = logistic_case(xs, y, C=0.5)
    rng = np.random.default_rng(12)
    sw = rng.uniform(0.2, 3.0, size=len(y))
    cases["breast_cancer_sample_weight"] = logistic_case(xs, y, C=2.0, sample_weight=sw)
    x, y, _ = load_dataset("wine")
    xs = standardise(x)
    cases["wine_balanced"] = logistic_case(xs[:150], y[:150], C=0.3, class_weight="balanced")
    cases["wine_custom_weights"] = logistic_case(xs, y, C=1.0,
                                                 class_weight={0: 1.0, 1: 2.5, 2: 0.5})
    # Unpenalised, overlapping classes (finite optimum).
    rng = np.random.default_rng(13)
    xb = rng.standard_normal((120, 3))
    yb = (xb @ np.array([1.0, -2.0, 0.5]) + 0.8 * rng.standard_normal(120) > 0.2).astype(int)
    cases["binary_no_penalty"] = logistic_case(xb, yb, C=np.inf)
    return cases


def main(argv):
    families = {
        "logistic": (logistic_cases, NOTE_LOGISTIC),
        "ols": (ols_cases, NOTE_OLS),
        "ridge": (ridge_cases, NOTE_RIDGE),
        "lasso": (lasso_cases, NOTE_LASSO),
    }
    wanted = argv or list(families)
    for name in wanted:
        build, note = families[name]
        out = write_json(GOLDEN_DIR / "linear" / f"{name}.json", build(), GENERATOR, note)
        print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
