#!/usr/bin/env python3
"""Golden reference values for ndlearn-linear's SGDClassifier / SGDRegressor.

Writes datasets/golden/linear/sgd.json. Every case runs scikit-learn's plain SGD with
shuffle=False, which is deterministic (no random number is drawn), so ndlearn's port reproduces
it to rounding: same per-sample update order, same "optimal" schedule with its t0 heuristic,
same wscale representation of the L2 decay, same truncated-gradient L1, same stopping rule.

The inputs are stored once per data set (cases "data_breast_cancer", "data_iris",
"data_diabetes": standardised features, labels / targets); each fit case names its data set
and stores its hyperparameters and scikit-learn's coef_ (2-D), intercept_, n_iter_ and t_
(plus predict_proba for the probabilistic losses). Partial-fit cases store the state after
every call (one row per call).

Usage:  target/golden-venv/bin/python scripts/golden/linear_sgd.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import SGDClassifier, SGDRegressor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/linear_sgd.py"

NOTE = (
    "SGDClassifier / SGDRegressor with shuffle=False (deterministic). Features standardised "
    "(mean 0, ddof-0 std 1). coef is 2-D (classifier: 1 x d for two classes, K x d otherwise; "
    "regressor: 1 x d). t is scikit-learn's t_ (1 + samples seen). partial_* cases: one row "
    "per partial_fit call."
)


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def params_of(kw):
    """Hyperparameters as JSON-friendly values (tol=None -> tol_none = 1, penalty=None ->
    "none", class_weight as a list or the string "balanced")."""
    out = {}
    for k, v in kw.items():
        if v is None:
            if k == "tol":
                out["tol_none"] = 1
            elif k == "penalty":
                out["penalty"] = "none"
            continue
        if k == "class_weight" and isinstance(v, dict):
            out["class_weight_custom"] = [float(v[c]) for c in sorted(v)]
        elif isinstance(v, bool):
            out[k] = int(v)
        else:
            out[k] = v
    return out


def clf_case(data, x, y, sample_weight=None, **kw):
    kw.setdefault("shuffle", False)
    m = SGDClassifier(**kw).fit(x, y, sample_weight=sample_weight)
    case = {
        "data": data,
        **params_of(kw),
        "coef": np.atleast_2d(m.coef_),
        "intercept": m.intercept_,
        "n_iter": int(m.n_iter_),
        "t": float(m.t_),
        "decision": np.atleast_2d(m.decision_function(x).T).T,
    }
    if sample_weight is not None:
        case["sample_weight"] = sample_weight
    if kw.get("loss") in ("log_loss", "modified_huber"):
        case["proba"] = m.predict_proba(x)
    return case


def reg_case(data, x, y, sample_weight=None, **kw):
    kw.setdefault("shuffle", False)
    m = SGDRegressor(**kw).fit(x, y, sample_weight=sample_weight)
    case = {
        "data": data,
        **params_of(kw),
        "coef": np.atleast_2d(m.coef_),
        "intercept": m.intercept_,
        "n_iter": int(m.n_iter_),
        "t": float(m.t_),
    }
    if sample_weight is not None:
        case["sample_weight"] = sample_weight
    return case


def partial_case(kind, data, x, y, batches, **kw):
    kw.setdefault("shuffle", False)
    est = SGDClassifier(**kw) if kind == "clf" else SGDRegressor(**kw)
    coefs, intercepts, ts = [], [], []
    classes = np.unique(y) if kind == "clf" else None
    for lo, hi in batches:
        if kind == "clf":
            est.partial_fit(x[lo:hi], y[lo:hi], classes=classes)
        else:
            est.partial_fit(x[lo:hi], y[lo:hi])
        coefs.append(np.atleast_2d(est.coef_).ravel().copy())
        intercepts.append(np.atleast_1d(est.intercept_).copy())
        ts.append(float(est.t_))
    return {
        "data": data,
        **params_of(kw),
        "batches": np.array(batches, dtype=np.int64),
        "coef_per_call": np.array(coefs),
        "intercept_per_call": np.array(intercepts),
        "t_per_call": np.array(ts),
    }


def cases():
    out = {}
    xb, yb, _ = load_dataset("breast_cancer")
    xb = standardise(xb)
    xi, yi, _ = load_dataset("iris")
    xi = standardise(xi)
    xd, yd, _ = load_dataset("diabetes")
    xd = standardise(xd)
    # Iris is sorted by class; a fixed interleaving makes the streaming batches mixed.
    perm = np.random.default_rng(20261125).permutation(len(yi))
    xi, yi = np.ascontiguousarray(xi[perm]), yi[perm]
    out["data_breast_cancer"] = {"x": xb, "y": yb}
    out["data_iris"] = {"x": xi, "y": yi}
    out["data_diabetes"] = {"x": xd, "y": yd}

    bc = dict(data="breast_cancer", x=xb, y=yb)
    ir = dict(data="iris", x=xi, y=yi)
    di = dict(data="diabetes", x=xd, y=yd)

    # --- classifier, binary
    out["bc_hinge_l2"] = clf_case(**bc, loss="hinge", penalty="l2")
    out["bc_log_l1"] = clf_case(**bc, loss="log_loss", penalty="l1", alpha=1e-3)
    out["bc_mhuber_enet"] = clf_case(**bc, loss="modified_huber", penalty="elasticnet",
                                     alpha=1e-3, l1_ratio=0.3)
    out["bc_sqhinge_constant"] = clf_case(**bc, loss="squared_hinge", learning_rate="constant",
                                          eta0=0.01)
    out["bc_hinge_invscaling"] = clf_case(**bc, loss="hinge", learning_rate="invscaling",
                                          eta0=0.5, power_t=0.5, alpha=1e-3)
    out["bc_log_adaptive"] = clf_case(**bc, loss="log_loss", learning_rate="adaptive", eta0=0.1,
                                      tol=1e-4)
    out["bc_perceptron_none"] = clf_case(**bc, loss="perceptron", penalty=None)
    out["bc_hinge_average"] = clf_case(**bc, loss="hinge", average=True, max_iter=15, tol=None)
    out["bc_log_average10"] = clf_case(**bc, loss="log_loss", average=10, max_iter=8, tol=None,
                                       alpha=1e-3)
    out["bc_hinge_weights"] = clf_case(**bc, loss="hinge", class_weight={0: 2.0, 1: 0.5},
                                       sample_weight=np.linspace(0.5, 1.5, len(yb)))
    out["bc_hinge_no_intercept"] = clf_case(**bc, loss="hinge", fit_intercept=False,
                                            alpha=1e-2)
    # --- classifier, multiclass (one-vs-all)
    out["iris_hinge_l2"] = clf_case(**ir, loss="hinge", penalty="l2")
    out["iris_log_l1"] = clf_case(**ir, loss="log_loss", penalty="l1", alpha=1e-3)
    out["iris_mhuber_enet"] = clf_case(**ir, loss="modified_huber", penalty="elasticnet",
                                       alpha=1e-3)
    out["iris_hinge_balanced"] = clf_case(**ir, loss="hinge", class_weight="balanced",
                                          alpha=1e-3)
    out["iris_log_average"] = clf_case(**ir, loss="log_loss", average=True, max_iter=20,
                                       tol=None, alpha=1e-3)
    out["iris_hinge_constant"] = clf_case(**ir, loss="hinge", learning_rate="constant",
                                          eta0=0.05, max_iter=50)
    # --- regressor
    out["diab_sq_l2"] = reg_case(**di, loss="squared_error")
    out["diab_huber_l2"] = reg_case(**di, loss="huber", epsilon=20.0, eta0=0.05)
    out["diab_epsins_l1"] = reg_case(**di, loss="epsilon_insensitive", epsilon=5.0,
                                     penalty="l1", alpha=0.01, eta0=0.05)
    out["diab_sqeps_enet"] = reg_case(**di, loss="squared_epsilon_insensitive", epsilon=5.0,
                                      penalty="elasticnet", alpha=0.01, l1_ratio=0.5)
    out["diab_sq_constant"] = reg_case(**di, loss="squared_error", learning_rate="constant",
                                       eta0=0.001)
    out["diab_sq_optimal"] = reg_case(**di, loss="squared_error", learning_rate="optimal",
                                      alpha=0.1)
    out["diab_sq_adaptive"] = reg_case(**di, loss="squared_error", learning_rate="adaptive",
                                       eta0=0.005, tol=1e-2)
    out["diab_sq_average"] = reg_case(**di, loss="squared_error", average=100, max_iter=12,
                                      tol=None)
    out["diab_sq_weights"] = reg_case(**di, loss="squared_error",
                                      sample_weight=np.linspace(2.0, 0.2, len(yd)))
    out["diab_sq_none"] = reg_case(**di, loss="squared_error", penalty=None, max_iter=30,
                                   tol=None)
    # --- streaming
    out["partial_iris_hinge"] = partial_case("clf", "iris", xi, yi,
                                             [(0, 50), (50, 100), (100, 150), (0, 150), (30, 90)],
                                             loss="hinge", alpha=1e-3)
    out["partial_bc_log_average"] = partial_case("clf", "breast_cancer", xb, yb,
                                                 [(0, 200), (200, 400), (400, 569), (0, 569)],
                                                 loss="log_loss", average=300, penalty="elasticnet")
    out["partial_diab_sq"] = partial_case("reg", "diabetes", xd, yd,
                                          [(0, 150), (150, 300), (300, 442), (0, 442)],
                                          loss="squared_error")
    out["partial_diab_huber_average"] = partial_case("reg", "diabetes", xd, yd,
                                                     [(0, 221), (221, 442), (0, 442)],
                                                     loss="huber", epsilon=15.0, average=True,
                                                     learning_rate="constant", eta0=0.002)
    return out


def main():
    path = write_json(GOLDEN_DIR / "linear" / "sgd.json", cases(), GENERATOR, NOTE)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
