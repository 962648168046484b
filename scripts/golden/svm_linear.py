"""Golden references for ndlearn-svm's LinearSvc / LinearSvr against scikit-learn 1.9.1
(liblinear).

Writes datasets/golden/svm/svm_linear.json. Two kinds of case:

* `tight_*`: tol = 1e-10 and a large max_iter, so that liblinear reaches the optimum to
  rounding; the case stores liblinear's coefficients and the primal objective of every binary
  problem recomputed here in float64 (the formula of `LinearSvc::objective`):
      R(w~) + sum_i C_i loss(y_i, w~ . x~_i),  x~ = [x, s], w~ = [coef, intercept / s]
  with R = ||w~||^2 / 2 (l2) or ||w~||_1 (l1), C_i = C * class_weight * sample_weight
  (one-vs-rest: the rest keep C unweighted, as liblinear) and the bias weight penalised.
* `default_*`: scikit-learn's defaults (tol = 1e-4, max_iter = 1000); the case stores the
  training accuracy (or R^2) and the predictions.

Inputs that need it are standardised here; every input matrix is stored once as a case
`data_<name>`.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.datasets import make_classification
from sklearn.svm import LinearSVC, LinearSVR
from sklearn.utils.class_weight import compute_class_weight

from common import load_dataset, write_json

TOL = 1e-10
MAX_ITER = 1_000_000


def standardize(x):
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    return (x - x.mean(axis=0)) / sd


DATA = {}


def data_name(x):
    for name, v in DATA.items():
        if v.shape == x.shape and np.array_equal(v, x):
            return name
    name = f"d{len(DATA)}"
    DATA[name] = x
    return name


def augmented(x, coef, intercept, p):
    if p.get("fit_intercept", True):
        s = p.get("intercept_scaling", 1.0)
        xt = np.column_stack([x, np.full(len(x), s)])
        wt = np.column_stack([coef, np.atleast_1d(intercept) / s])
    else:
        xt, wt = x, np.atleast_2d(coef)
    return xt, wt


def svc_objectives(m, x, y, sw, p):
    classes = np.unique(y)
    cw = compute_class_weight(p.get("class_weight"), classes=classes, y=y, sample_weight=sw)
    sw = np.ones(len(y)) if sw is None else sw
    keep = sw > 0
    x, y, sw = x[keep], y[keep], sw[keep]
    c = p.get("C", 1.0)
    if p.get("multi_class") == "crammer_singer":
        coef, intercept = m.coef_, np.atleast_1d(m.intercept_)
        if len(classes) == 2:  # scikit-learn keeps w1 - w0; the optimum has w0 = -w1
            coef = np.vstack([-coef / 2, coef / 2])
            intercept = np.array([-intercept[0] / 2, intercept[0] / 2])
        xt, wt = augmented(x, coef, intercept, p)
        scores = xt @ wt.T
        yi = np.searchsorted(classes, y)
        e = np.ones_like(scores)
        e[np.arange(len(y)), yi] = 0.0
        worst = (e + scores - scores[np.arange(len(y)), yi][:, None]).max(axis=1)
        ci = sw * c * cw[yi]
        return [float(0.5 * (wt * wt).sum() + ci @ worst)]
    xt, wt = augmented(x, m.coef_, m.intercept_, p)
    if len(classes) == 2:
        problems = [(np.where(y == classes[1], 1.0, -1.0),
                     sw * np.where(y == classes[1], c * cw[1], c * cw[0]))]
    else:
        problems = [(np.where(y == k, 1.0, -1.0), sw * np.where(y == k, c * cw[i], c))
                    for i, k in enumerate(classes)]
    out = []
    for (ys, ci), w in zip(problems, wt):
        r = 1.0 - ys * (xt @ w)
        loss = np.maximum(r, 0.0)
        if p.get("loss", "squared_hinge") == "squared_hinge":
            loss = loss ** 2
        reg = np.abs(w).sum() if p.get("penalty", "l2") == "l1" else 0.5 * w @ w
        out.append(float(reg + ci @ loss))
    return out


def svr_objective(m, x, y, sw, p):
    sw = np.ones(len(y)) if sw is None else sw
    keep = sw > 0
    x, y, sw = x[keep], y[keep], sw[keep]
    xt, wt = augmented(x, m.coef_[None, :], m.intercept_, p)
    w = wt[0]
    r = np.maximum(np.abs(y - xt @ w) - p.get("epsilon", 0.0), 0.0)
    if p.get("loss", "epsilon_insensitive") == "squared_epsilon_insensitive":
        r = r ** 2
    return float(0.5 * w @ w + p.get("C", 1.0) * (sw @ r))


def clean(p):
    """The parameters as JSON (class_weight dict keys as strings, booleans as "true" /
    "false": the golden format has no booleans)."""
    q = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in p.items()}
    if isinstance(q.get("class_weight"), dict):
        q["class_weight"] = {str(k): v for k, v in q["class_weight"].items()}
    return q


def fit(cls, p, x, y, sw, tight):
    extra = dict(tol=TOL, max_iter=MAX_ITER) if tight else {}
    extra.update(p)
    with warnings.catch_warnings():
        # a tight case must converge; a default case records whether it did
        warnings.simplefilter("error" if tight else "ignore")
        m = cls(random_state=0, **extra).fit(x, y, sample_weight=sw)
    # liblinear's Crammer-Singer solver stops at 100000 iterations whatever max_iter says
    assert not (tight and p.get("multi_class") == "crammer_singer" and m.n_iter_ >= 100_000)
    return m


def svc_case(name, x, y, p, cases, sw=None, tight=True):
    m = fit(LinearSVC, p, x, y, sw, tight)
    case = dict(data=data_name(x), y=y, params=clean(p),
                coef=m.coef_,
                intercept=np.broadcast_to(np.atleast_1d(m.intercept_), m.coef_.shape[:1]).copy(),
                n_iter=int(m.n_iter_), predict=m.predict(x),
                decision=np.atleast_2d(m.decision_function(x).T).T,
                score=float(m.score(x, y, sample_weight=None)))
    if sw is not None:
        case["sample_weight"] = sw
    if tight:
        case["objectives"] = svc_objectives(m, x, y, sw, p)
    cases[f"{'tight' if tight else 'default'}_svc_{name}"] = case


def svr_case(name, x, y, p, cases, sw=None, tight=True):
    m = fit(LinearSVR, p, x, y, sw, tight)
    case = dict(data=data_name(x), y=y, params=clean(p),
                coef=m.coef_, intercept=float(np.atleast_1d(m.intercept_)[0]),
                n_iter=int(m.n_iter_), predict=m.predict(x), score=float(m.score(x, y)))
    if sw is not None:
        case["sample_weight"] = sw
    if tight:
        case["objective"] = svr_objective(m, x, y, sw, p)
    cases[f"{'tight' if tight else 'default'}_svr_{name}"] = case


def classification_cases(cases):
    bc_x, bc_y = load_dataset("breast_cancer")[:2]
    bc = standardize(bc_x)
    iris, iris_y = load_dataset("iris")[:2]
    wine_x, wine_y = load_dataset("wine")[:2]
    wine = standardize(wine_x)
    # n < d: 40 samples, 100 features (dual = "auto" picks the dual)
    gx, gy = make_classification(n_samples=40, n_features=100, n_informative=8,
                                 n_redundant=4, random_state=3)
    g3x, g3y = make_classification(n_samples=45, n_features=80, n_informative=10,
                                   n_classes=3, random_state=4)
    rng = np.random.default_rng(11)
    w_bc = rng.uniform(0.2, 3.0, len(bc_y))
    w_bc[:7] = 0.0  # liblinear drops rows of weight 0
    w_iris = rng.uniform(0.5, 2.0, len(iris_y))

    hinge = dict(loss="hinge", dual=True)
    dual_l2 = dict(loss="squared_hinge", dual=True)
    primal_l2 = dict(loss="squared_hinge", dual=False)
    l1 = dict(penalty="l1", loss="squared_hinge", dual=False)
    tight = [
        ("bc_hinge", bc, bc_y, dict(C=0.1, **hinge), None),
        ("bc_dual_l2", bc, bc_y, dict(C=0.1, **dual_l2), None),
        ("bc_primal_l2", bc, bc_y, dict(C=0.1, **primal_l2), None),
        ("bc_l1", bc, bc_y, dict(C=0.1, **l1), None),
        ("bc_primal_l2_no_intercept", bc, bc_y, dict(C=0.5, fit_intercept=False, **primal_l2), None),
        ("bc_hinge_no_intercept", bc, bc_y, dict(C=0.5, fit_intercept=False, **hinge), None),
        ("bc_dual_l2_scaling", bc, bc_y, dict(C=0.1, intercept_scaling=10.0, **dual_l2), None),
        ("bc_l1_scaling", bc, bc_y, dict(C=1.0, intercept_scaling=5.0, **l1), None),
        ("bc_hinge_balanced", bc, bc_y, dict(C=0.2, class_weight="balanced", **hinge), None),
        ("bc_primal_l2_weights", bc, bc_y, dict(C=0.3, **primal_l2), w_bc),
        ("bc_hinge_weights", bc, bc_y, dict(C=0.3, **hinge), w_bc),
        ("bc_l1_weights_balanced", bc, bc_y, dict(C=0.3, class_weight="balanced", **l1), w_bc),
        ("iris_hinge", iris, iris_y, dict(C=1.0, **hinge), None),
        ("iris_dual_l2", iris, iris_y, dict(C=1.0, **dual_l2), None),
        ("iris_primal_l2", iris, iris_y, dict(C=1.0, **primal_l2), None),
        ("iris_l1", iris, iris_y, dict(C=1.0, **l1), None),
        ("iris_primal_l2_class_weight", iris, iris_y,
         dict(C=1.0, class_weight={0: 1.0, 1: 2.0, 2: 0.5}, **primal_l2), None),
        ("iris_hinge_weights", iris, iris_y, dict(C=0.5, **hinge), w_iris),
        ("wine_dual_l2", wine, wine_y, dict(C=0.05, **dual_l2), None),
        ("wine_primal_l2_no_intercept", wine, wine_y, dict(C=0.05, fit_intercept=False, **primal_l2), None),
        ("wine_l1", wine, wine_y, dict(C=0.5, **l1), None),
        ("gen_auto", gx, gy, dict(C=0.1), None),
        ("gen_hinge", gx, gy, dict(C=1.0, **hinge), None),
        ("gen_l1", gx, gy, dict(C=1.0, **l1), None),
        ("gen3_auto", g3x, g3y, dict(C=0.1), None),
        # Crammer and Singer (liblinear ignores max_iter here: its solver runs up to 100000
        # iterations, too few to reach tol = 1e-10 on some cases; tol = 1e-9 converges)
        ("iris_cs", iris, iris_y, dict(C=1.0, multi_class="crammer_singer", tol=1e-9), None),
        ("wine_cs_no_intercept", wine, wine_y,
         dict(C=0.1, multi_class="crammer_singer", fit_intercept=False), None),
        ("wine_cs_weights", wine, wine_y,
         dict(C=0.3, multi_class="crammer_singer", class_weight={0: 2.0, 2: 0.5},
              intercept_scaling=2.0), np.random.default_rng(13).uniform(0.2, 2.0, len(wine_y))),
        ("bc_cs", bc, bc_y, dict(C=0.1, multi_class="crammer_singer", tol=1e-9), None),
        ("gen3_cs", g3x, g3y, dict(C=0.5, multi_class="crammer_singer", tol=1e-9), None),
    ]
    for name, x, y, p, sw in tight:
        svc_case(name, x, y, p, cases, sw)
    for name, x, y, p in [
        ("bc", bc, bc_y, {}),
        ("bc_l1", bc, bc_y, dict(penalty="l1")),
        ("iris", iris, iris_y, {}),
        ("wine", wine, wine_y, {}),
        ("gen", gx, gy, {}),
        ("wine_cs", wine, wine_y, dict(multi_class="crammer_singer")),
    ]:
        svc_case(name, x, y, p, cases, tight=False)


def regression_cases(cases):
    x, y = load_dataset("diabetes")[:2]
    xs = standardize(x)
    yc = (y - y.mean()) / y.std()
    rng = np.random.default_rng(12)
    w = rng.uniform(0.2, 3.0, len(y))
    w[:5] = 0.0
    l1 = dict(loss="epsilon_insensitive", dual=True)
    dual_l2 = dict(loss="squared_epsilon_insensitive", dual=True)
    primal_l2 = dict(loss="squared_epsilon_insensitive", dual=False)
    tight = [
        ("l1", xs, yc, dict(C=1.0, epsilon=0.1, **l1), None),
        ("l1_raw_target", xs, y, dict(C=0.1, epsilon=5.0, **l1), None),
        ("dual_l2", xs, yc, dict(C=1.0, epsilon=0.1, **dual_l2), None),
        ("primal_l2", xs, yc, dict(C=1.0, epsilon=0.1, **primal_l2), None),
        ("primal_l2_no_intercept", xs, yc, dict(C=0.5, fit_intercept=False, **primal_l2), None),
        ("l1_scaling_weights", xs, yc, dict(C=2.0, epsilon=0.2, intercept_scaling=3.0, **l1), w),
        ("primal_l2_weights", xs, yc, dict(C=2.0, epsilon=0.0, **primal_l2), w),
    ]
    for name, x_, y_, p, sw in tight:
        svr_case(name, x_, y_, p, cases, sw)
    for name, p in [("l1", {}), ("squared", dict(loss="squared_epsilon_insensitive"))]:
        svr_case(name, xs, yc, p, cases, tight=False)


def main():
    cases = {}
    classification_cases(cases)
    regression_cases(cases)
    for name, x in DATA.items():
        cases[f"data_{name}"] = dict(x=x)
    write_json("datasets/golden/svm/svm_linear.json", cases, "svm_linear.py",
               "LinearSVC / LinearSVR (liblinear): tight tolerance objectives, default-tol scores")


if __name__ == "__main__":
    main()
