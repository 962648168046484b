"""Golden references for ndlearn-svm against scikit-learn 1.9.1 (libsvm): SVC, NuSVC, SVR,
NuSVR, OneClassSVM and KernelRidge on the embedded data sets.

Writes datasets/golden/svm/svm.json. The SVM fits use a tight tolerance (tol = 1e-8, shrinking
on) so that both sides reach the same optimum; libsvm keeps its kernel cache in float32, which
bounds the agreement (see the Rust test for the tolerances). For binary C-SVC the dual
objective ½ Σᵢⱼ cᵢcⱼ k(xᵢ, xⱼ) − Σᵢ |cᵢ| is recomputed here in float64 from `dual_coef_`.
Inputs that need it are standardised here (the standardised X is stored with the case).
"""

from __future__ import annotations

import numpy as np
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM

from common import load_dataset, write_json

TOL = 1e-8


def standardize(x):
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    return (x - x.mean(axis=0)) / sd


def kernel_matrix(model, a, b):
    """The kernel of a fitted scikit-learn SVM between the rows of a and b."""
    k = model.kernel
    g = model._gamma
    if k == "linear":
        return a @ b.T
    if k == "rbf":
        return pairwise_kernels(a, b, metric="rbf", gamma=g)
    if k == "poly":
        return (g * (a @ b.T) + model.coef0) ** model.degree
    if k == "sigmoid":
        return np.tanh(g * (a @ b.T) + model.coef0)
    raise ValueError(k)


DATA = {}


def data_name(x):
    """Registers x once (as a case `data_<name>`) and returns its name."""
    for name, v in DATA.items():
        if v.shape == x.shape and np.array_equal(v, x):
            return name
    name = f"d{len(DATA)}"
    DATA[name] = x
    return name


def svm_case(model, x, y=None, sample_weight=None, **extra):
    case = dict(data=data_name(x), params=extra.pop("params"), **extra)
    if y is not None:
        case["y"] = y
    if sample_weight is not None:
        case["sample_weight"] = sample_weight
    case.update(
        support=model.support_.astype(np.int64),
        dual_coef=model.dual_coef_,
        intercept=np.atleast_1d(model.intercept_),
        gamma=float(model._gamma),
        decision=(model.decision_function(x) if hasattr(model, "decision_function")
                  else model.predict(x)),
        predict=model.predict(x),
    )
    if hasattr(model, "n_support_"):
        case["n_support"] = model.n_support_.astype(np.int64)
    return case


def classification_cases(cases):
    bc_x, bc_y = load_dataset("breast_cancer")[:2]
    bc_s = standardize(bc_x)
    iris_x, iris_y = load_dataset("iris")[:2]
    wine_x, wine_y = load_dataset("wine")[:2]
    wine_s = standardize(wine_x)
    settings = [
        ("bc_rbf", bc_x, bc_y, dict(kernel="rbf", C=1.0)),
        ("bc_std_linear", bc_s, bc_y, dict(kernel="linear", C=0.1)),
        ("bc_std_poly", bc_s, bc_y, dict(kernel="poly", C=0.5, degree=2, gamma=0.05, coef0=1.0)),
        ("bc_std_sigmoid", bc_s, bc_y, dict(kernel="sigmoid", C=0.5, gamma=0.01, coef0=0.0)),
        ("bc_std_rbf_balanced", bc_s, bc_y, dict(kernel="rbf", C=2.0, class_weight="balanced")),
        ("iris_rbf", iris_x, iris_y, dict(kernel="rbf", C=1.0)),
        ("iris_linear_auto", iris_x, iris_y, dict(kernel="linear", C=0.5)),
        ("wine_std_rbf", wine_s, wine_y, dict(kernel="rbf", C=10.0, gamma="auto")),
        ("wine_std_poly", wine_s, wine_y, dict(kernel="poly", C=1.0, degree=3, coef0=0.5)),
    ]
    for name, x, y, p in settings:
        m = SVC(tol=TOL, **p).fit(x, y)
        case = svm_case(m, x, y, params=dict(p, estimator="svc"))
        case["decision_ovo"] = SVC(tol=TOL, decision_function_shape="ovo", **p).fit(x, y).decision_function(x)
        if len(np.unique(y)) == 2:
            c = m.dual_coef_[0]
            k = kernel_matrix(m, m.support_vectors_, m.support_vectors_)
            case["dual_objective"] = float(0.5 * c @ k @ c - np.abs(c).sum())
        cases[f"svc_{name}"] = case
    # sample weights (integer and fractional), on the binary problem
    rng = np.random.default_rng(5)
    w = rng.uniform(0.2, 3.0, len(bc_y))
    w[:10] = 0.0  # libsvm drops rows of weight 0
    p = dict(kernel="rbf", C=1.0)
    m = SVC(tol=TOL, **p).fit(bc_s, bc_y, sample_weight=w)
    case = svm_case(m, bc_s, bc_y, w, params=dict(p, estimator="svc"))
    # scikit-learn's support_ indexes the rows left after dropping those of weight 0; map it
    # back to the rows of X (its support_vectors_ are those rows).
    case["support"] = np.flatnonzero(w > 0)[m.support_].astype(np.int64)
    assert np.array_equal(bc_s[case["support"]], m.support_vectors_)
    cases["svc_bc_std_weighted"] = case
    # nu-SVC
    for name, x, y, p in [
        ("iris_rbf", iris_x, iris_y, dict(kernel="rbf", nu=0.3)),
        ("bc_std_rbf", bc_s, bc_y, dict(kernel="rbf", nu=0.2)),
        ("wine_std_linear", wine_s, wine_y, dict(kernel="linear", nu=0.1)),
    ]:
        m = NuSVC(tol=TOL, **p).fit(x, y)
        cases[f"nusvc_{name}"] = svm_case(m, x, y, params=dict(p, estimator="nu_svc"))
    # precomputed kernel (linear on standardised wine)
    k = wine_s @ wine_s.T
    m = SVC(kernel="precomputed", C=0.5, tol=TOL).fit(k, wine_y)
    case = svm_case(m, k, wine_y, params=dict(kernel="precomputed", C=0.5, estimator="svc"))
    case["gamma"] = 0.0
    cases["svc_wine_precomputed"] = case


def regression_cases(cases):
    x, y = load_dataset("diabetes")[:2]
    xs = standardize(x)
    for name, p in [
        ("rbf", dict(kernel="rbf", C=100.0, epsilon=5.0)),
        ("linear", dict(kernel="linear", C=10.0, epsilon=10.0)),
        ("poly", dict(kernel="poly", C=50.0, epsilon=2.0, degree=2, coef0=1.0)),
    ]:
        m = SVR(tol=TOL, **p).fit(xs, y)
        cases[f"svr_{name}"] = svm_case(m, xs, y, params=dict(p, estimator="svr"))
    for name, p in [("rbf", dict(kernel="rbf", C=100.0, nu=0.3)),
                    ("linear", dict(kernel="linear", C=10.0, nu=0.5))]:
        m = NuSVR(tol=TOL, **p).fit(xs, y)
        cases[f"nusvr_{name}"] = svm_case(m, xs, y, params=dict(p, estimator="nu_svr"))


def one_class_cases(cases):
    for data, nu, kernel in [("iris", 0.1, "rbf"), ("wine", 0.5, "rbf"), ("wine", 0.2, "poly")]:
        x = standardize(load_dataset(data)[0])
        m = OneClassSVM(tol=TOL, nu=nu, kernel=kernel).fit(x)
        case = svm_case(m, x, params=dict(nu=nu, kernel=kernel, estimator="one_class_svm"))
        case["score_samples"] = m.score_samples(x)
        case["offset"] = float(m.offset_[0])
        cases[f"ocsvm_{data}_{kernel}_{nu}"] = case


def kernel_ridge_cases(cases):
    x, y = load_dataset("diabetes")[:2]
    xs = standardize(x)
    yc = (y - y.mean()) / y.std()
    rng = np.random.default_rng(9)
    w = rng.uniform(0.5, 2.0, len(y))
    settings = [
        ("rbf", dict(kernel="rbf", alpha=0.1, gamma=0.05), None, yc),
        ("linear", dict(kernel="linear", alpha=1.0), None, yc),
        ("poly_weighted", dict(kernel="poly", alpha=0.5, degree=2, gamma=0.1, coef0=1.0), w, yc),
        ("rbf_two_targets", dict(kernel="rbf", alpha=[0.1, 1.0], gamma=0.05), None,
         np.column_stack([yc, np.sin(xs[:, 2])])),
    ]
    for name, p, sw, target in settings:
        m = KernelRidge(**p).fit(xs, target, sample_weight=sw)
        case = dict(data=data_name(xs), y=target, params=dict(p, estimator="kernel_ridge"),
                    dual_coef=np.atleast_2d(m.dual_coef_.T).T if m.dual_coef_.ndim == 2
                    else m.dual_coef_[:, None],
                    predict=m.predict(xs))
        if sw is not None:
            case["sample_weight"] = sw
        cases[f"kr_{name}"] = case


def main():
    cases = {}
    classification_cases(cases)
    regression_cases(cases)
    one_class_cases(cases)
    kernel_ridge_cases(cases)
    for name, x in DATA.items():
        cases[f"data_{name}"] = dict(x=x)
    write_json("datasets/golden/svm/svm.json", cases, "svm.py",
               "SVC / NuSVC / SVR / NuSVR / OneClassSVM at tol 1e-8 and KernelRidge")


if __name__ == "__main__":
    main()
