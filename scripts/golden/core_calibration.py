"""Golden references for ndlearn_core::calibration (Core III issue): scikit-learn's
IsotonicRegression / isotonic_regression, the sigmoid (Platt) calibration of
CalibratedClassifierCV (`_sigmoid_calibration`), and CalibratedClassifierCV over
LinearDiscriminantAnalysis (read by ndlearn-bayes's tests, where LDA lives).

Writes datasets/golden/core/calibration.json.

Platt: scikit-learn minimises the objective with L-BFGS-B at gtol 1e-6, so its (a, b) are only
that accurate. The file also holds the exact minimiser of the same objective, refined here by
Newton's method in float64 until the gradient is at rounding level (`a_exact`, `b_exact`), which
is what a converged solver must reproduce; scikit-learn's own values and objective are kept for
the check that ndlearn's fit is at least as good.
"""

from __future__ import annotations

import numpy as np
from sklearn.calibration import CalibratedClassifierCV, _sigmoid_calibration
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.isotonic import IsotonicRegression, isotonic_regression

from common import load_dataset, write_json


def platt_objective(f, y, w, a, b):
    """Weighted cross-entropy of Platt's smoothed targets against 1/(1 + exp(a f + b))."""
    pos = y > 0
    prior1 = w[pos].sum()
    prior0 = w[~pos].sum()
    t = np.where(pos, (prior1 + 1.0) / (prior1 + 2.0), 1.0 / (prior0 + 2.0))
    z = a * f + b
    # -t log p - (1 - t) log(1 - p) with p = sigma(-z): log p = -log1p(e^z), log(1-p) = -log1p(e^-z)
    return float(np.sum(w * (t * np.logaddexp(0.0, z) + (1.0 - t) * np.logaddexp(0.0, -z)))), t


def platt_exact(f, y, w, a, b):
    """Newton's method on (a, b) from scikit-learn's solution to rounding-level gradient."""
    for _ in range(100):
        _, t = platt_objective(f, y, w, a, b)
        z = a * f + b
        p = 1.0 / (1.0 + np.exp(z))  # model probability of the positive class
        # d/dz of the per-sample loss is (t - p) ... with p = sigma(-z): dl/dz = t - p
        r = w * (t - p)
        g = np.array([r @ f, r.sum()])
        h = w * p * (1.0 - p)
        hess = np.array([[h @ (f * f), h @ f], [h @ f, h.sum()]])
        step = np.linalg.solve(hess, g)
        a, b = a - step[0], b - step[1]
        if np.max(np.abs(step)) <= 1e-15 * max(1.0, abs(a), abs(b)):
            break
    return a, b


def platt_cases(cases):
    rng = np.random.default_rng(7)
    x, y = load_dataset("breast_cancer")[:2]
    lda = LinearDiscriminantAnalysis().fit(x, y)
    scores = {
        "breast_cancer_lda": (lda.decision_function(x), y),
        "overlapping_gauss": (
            np.concatenate([rng.normal(-0.5, 1.0, 120), rng.normal(0.7, 1.2, 80)]),
            np.r_[np.zeros(120), np.ones(80)],
        ),
        # large scores: scikit-learn rescales by max |f| >= 30 internally
        "large_scores": (
            np.concatenate([rng.normal(-40.0, 25.0, 90), rng.normal(35.0, 30.0, 110)]),
            np.r_[np.zeros(90), np.ones(110)],
        ),
    }
    for name, (f, labels) in scores.items():
        for weighted in (False, True):
            w = rng.uniform(0.2, 3.0, f.shape[0]) if weighted else None
            a, b = _sigmoid_calibration(f, labels, sample_weight=w)
            ww = np.ones_like(f) if w is None else w
            a_ex, b_ex = platt_exact(f, labels, ww, a, b)
            obj_sk, _ = platt_objective(f, labels, ww, a, b)
            obj_ex, _ = platt_objective(f, labels, ww, a_ex, b_ex)
            case = dict(scores=f, y=labels, a=a, b=b, a_exact=a_ex, b_exact=b_ex,
                        objective_sklearn=obj_sk, objective_exact=obj_ex)
            if w is not None:
                case["sample_weight"] = w
            cases[f"platt_{name}{'_weighted' if weighted else ''}"] = case


def isotonic_cases(cases):
    rng = np.random.default_rng(11)
    x, y = load_dataset("diabetes")[:2]
    bmi, bp, hdl = x[:, 2], x[:, 3], x[:, 6]
    grid = lambda v: np.linspace(v.min() - 0.1 * np.ptp(v), v.max() + 0.1 * np.ptp(v), 57)
    settings = [
        ("diabetes_bmi_increasing", bmi, dict(increasing=True), None),
        ("diabetes_bp_weighted", bp, dict(increasing=True), rng.uniform(0.1, 2.0, len(y))),
        ("diabetes_hdl_decreasing", hdl, dict(increasing=False), None),
        ("diabetes_hdl_auto", hdl, dict(increasing="auto"), None),
        ("diabetes_bmi_bounded", bmi, dict(increasing=True, y_min=80.0, y_max=250.0), None),
    ]
    for name, feat, kw, w in settings:
        iso = IsotonicRegression(out_of_bounds="clip", **kw).fit(feat, y, sample_weight=w)
        g = grid(feat)
        case = dict(x=feat, y=y, increasing=str(kw["increasing"]).lower(),
                    increasing_fitted=int(iso.increasing_),
                    x_thresholds=iso.X_thresholds_, y_thresholds=iso.y_thresholds_,
                    grid=g, predict_clip=iso.predict(g), fit_transform=iso.predict(feat))
        if w is not None:
            case["sample_weight"] = w
        for bound in ("y_min", "y_max"):
            if bound in kw:
                case[bound] = kw[bound]
        cases[f"isotonic_{name}"] = case
    # the bare PAVA function, in the given order, with ties and weights
    yy = np.round(rng.normal(size=300).cumsum() + rng.normal(scale=3.0, size=300), 1)
    ww = rng.uniform(0.0, 2.0, 300)
    for inc in (True, False):
        cases[f"pava_{'increasing' if inc else 'decreasing'}"] = dict(
            y=yy, sample_weight=ww, increasing=int(inc),
            fitted=isotonic_regression(yy, sample_weight=ww, increasing=inc))


def calibrated_cv_cases(cases):
    for name in ("breast_cancer", "iris", "wine"):
        x, y = load_dataset(name)[:2]
        for method in ("sigmoid", "isotonic"):
            for ensemble in (True, False):
                cal = CalibratedClassifierCV(LinearDiscriminantAnalysis(), method=method,
                                             cv=5, ensemble=ensemble).fit(x, y)
                cases[f"cv_{name}_{method}_{'ensemble' if ensemble else 'single'}"] = dict(
                    dataset=name, method=method, ensemble=int(ensemble),
                    predict_proba=cal.predict_proba(x), predict=cal.predict(x))


def main():
    cases = {}
    platt_cases(cases)
    isotonic_cases(cases)
    calibrated_cv_cases(cases)
    write_json("datasets/golden/core/calibration.json", cases, "core_calibration.py",
               "IsotonicRegression, Platt sigmoid calibration (scikit-learn's and the exact "
               "minimiser) and CalibratedClassifierCV(LinearDiscriminantAnalysis)")


if __name__ == "__main__":
    main()
