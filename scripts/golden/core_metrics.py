#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::metrics.

Writes datasets/golden/core/metrics.json with scikit-learn 1.9.1 outputs for every metric of
the module, on seeded random cases (ties, imbalance, weights, multi-class) and on the embedded
iris / wine data with scikit-learn KMeans / LogisticRegression labels. Case name prefixes:

  clf_   label-based classification metrics (confusion matrix, accuracy, P/R/F, kappa, ...)
  prob_  log loss, hinge loss, Brier score
  rank_  ROC / PR / DET curves, ROC AUC, average precision (binary); ovr_ one-vs-rest
  auc_   the trapezoidal auc(x, y)
  reg_   regression metrics (single and multi-output)
  clu_   comparing two labelings (ARI, MI, NMI, AMI, V-measure, Fowlkes-Mallows, ...)
  sil_   silhouette, Davies-Bouldin, Calinski-Harabasz, inertia
  emb_   trustworthiness

Usage:  target/golden-venv/bin/python scripts/golden/core_metrics.py
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import scipy.stats
from sklearn import metrics as M
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.manifold import trustworthiness
from sklearn.metrics import pairwise_distances

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_metrics.py"
OUT = GOLDEN_DIR / "core" / "metrics.json"

NOTE = (
    "sklearn.metrics 1.9.1 on seeded cases. Confusion matrices: rows = truth, columns = "
    "prediction, labels = sorted union of y_true and y_pred. Zero division uses sklearn's "
    "default (0.0, warnings silenced here). fpr_* / specificity_* are not in sklearn: computed "
    "here from multilabel_confusion_matrix as fp/(fp+tn) and tn/(tn+fp) per class (0 on 0/0), "
    "averaged macro / micro (pooled counts) / weighted (by support). ROC thresholds are stored "
    "without their leading +inf (roc_thr_rest = thresholds[1:]); a +inf DET threshold is stored as 1e300. Probability and decision "
    "matrices: column c = class c. Silhouette labels are KMeans labels or seeded labels; "
    "trustworthiness data are continuous (no distance ties)."
)


def clf_outputs(y, p, w=None):
    """Every label-based classification metric of one case."""
    out = {}
    labels = np.unique(np.concatenate([y, p]))
    out["labels"] = labels
    out["confusion"] = M.confusion_matrix(y, p, sample_weight=w).astype(np.float64)
    for norm in ("true", "pred", "all"):
        out[f"confusion_norm_{norm}"] = M.confusion_matrix(
            y, p, sample_weight=w, normalize=norm
        ).astype(np.float64)
    out["accuracy"] = M.accuracy_score(y, p, sample_weight=w)
    out["accuracy_count"] = float(M.accuracy_score(y, p, normalize=False, sample_weight=w))
    out["zero_one"] = M.zero_one_loss(y, p, sample_weight=w)
    out["zero_one_count"] = float(M.zero_one_loss(y, p, normalize=False, sample_weight=w))
    averages = ["macro", "micro", "weighted"]
    if len(labels) <= 2:
        averages.append("binary")
    for avg in averages:
        kw = {"average": avg, "sample_weight": w, "zero_division": 0.0}
        out[f"precision_{avg}"] = M.precision_score(y, p, **kw)
        out[f"recall_{avg}"] = M.recall_score(y, p, **kw)
        out[f"f1_{avg}"] = M.f1_score(y, p, **kw)
        out[f"fbeta05_{avg}"] = M.fbeta_score(y, p, beta=0.5, **kw)
        out[f"fbeta2_{avg}"] = M.fbeta_score(y, p, beta=2.0, **kw)
    pr, rc, fs, sup = M.precision_recall_fscore_support(
        y, p, beta=1.0, sample_weight=w, zero_division=0.0
    )
    out.update(pc_precision=pr, pc_recall=rc, pc_f1=fs, pc_support=sup.astype(np.float64))
    # FPR and specificity (independent numpy computation from the multilabel confusion matrix).
    mcm = M.multilabel_confusion_matrix(y, p, sample_weight=w, labels=labels).astype(np.float64)
    tn, fp, fn, tp = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]

    def safe(a, b):
        return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))

    fpr_pc, spec_pc = safe(fp, fp + tn), safe(tn, tn + fp)
    support = tp + fn
    out.update(pc_fpr=fpr_pc, pc_specificity=spec_pc)
    for name, vals, num, den in (
        ("fpr", fpr_pc, fp, fp + tn),
        ("specificity", spec_pc, tn, tn + fp),
    ):
        out[f"{name}_macro"] = float(np.mean(vals))
        out[f"{name}_micro"] = float(safe(np.array(num.sum()), np.array(den.sum())))
        out[f"{name}_weighted"] = float(np.sum(vals * support) / np.sum(support))
        if len(labels) <= 2:
            k = int(np.searchsorted(labels, 1)) if 1 in labels else None
            out[f"{name}_binary"] = float(vals[k]) if k is not None else 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["balanced_accuracy"] = M.balanced_accuracy_score(y, p, sample_weight=w)
        if len(np.unique(y)) >= 2:
            out["balanced_accuracy_adjusted"] = M.balanced_accuracy_score(
                y, p, sample_weight=w, adjusted=True
            )
    out["mcc"] = M.matthews_corrcoef(y, p, sample_weight=w)
    for kw, name in ((None, "kappa"), ("linear", "kappa_linear"), ("quadratic", "kappa_quadratic")):
        out[name] = M.cohen_kappa_score(y, p, weights=kw, sample_weight=w)
    return out


def classification_cases(rng):
    cases = {}
    # Binary, balanced.
    y = rng.integers(0, 2, 60)
    p = np.where(rng.random(60) < 0.75, y, 1 - y)
    cases["clf_binary"] = {"y_true": y, "y_pred": p, **clf_outputs(y, p)}
    # Binary, imbalanced (10 % positives), with weights.
    y = (rng.random(200) < 0.1).astype(np.int64)
    p = np.where(rng.random(200) < 0.85, y, 1 - y)
    w = rng.uniform(0.1, 3.0, 200)
    cases["clf_binary_imbalanced_weighted"] = {
        "y_true": y, "y_pred": p, "weights": w, **clf_outputs(y, p, w)
    }
    # Multi-class with label gaps and a class only in the prediction.
    y = rng.choice([0, 2, 5], 120, p=[0.5, 0.3, 0.2])
    p = np.where(rng.random(120) < 0.6, y, rng.choice([0, 2, 5, 7], 120))
    cases["clf_multiclass_gaps"] = {"y_true": y, "y_pred": p, **clf_outputs(y, p)}
    w = rng.integers(0, 4, 120).astype(np.float64)  # integer weights with zeros
    w[0] = 1.0
    cases["clf_multiclass_gaps_weighted"] = {
        "y_true": y, "y_pred": p, "weights": w, **clf_outputs(y, p, w)
    }
    # Iris and a logistic regression fitted on two features (realistic confusions).
    x, y, _ = load_dataset("iris")
    p = LogisticRegression(max_iter=1000).fit(x[:, :2], y).predict(x[:, :2])
    cases["clf_iris_logreg"] = {"y_true": y, "y_pred": p, **clf_outputs(y, p)}
    return cases


def prob_cases(rng):
    cases = {}
    n, k = 80, 4
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    proba[0] = np.eye(k)[(y[0] + 1) % k]  # a zero on the true class: clipped at eps
    proba[1] = np.eye(k)[y[1]]  # a one on the true class: clipped at 1 - eps
    w = rng.uniform(0.5, 2.0, n)
    labels = list(range(k))
    cases["prob_multiclass"] = {
        "y_true": y, "proba": proba, "weights": w,
        "log_loss": M.log_loss(y, proba, labels=labels),
        "log_loss_weighted": M.log_loss(y, proba, labels=labels, sample_weight=w),
        "brier": M.brier_score_loss(y, proba, labels=labels),
        "brier_weighted": M.brier_score_loss(y, proba, labels=labels, sample_weight=w),
        "hinge": M.hinge_loss(y, logits, labels=labels),
        "hinge_weighted": M.hinge_loss(y, logits, labels=labels, sample_weight=w),
        "decision": logits,
    }
    # Binary: probability of class 1, decision values; two-column forms.
    n = 70
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1
    dec = rng.normal(size=n) + 1.2 * (2 * y - 1)
    p1 = 1.0 / (1.0 + np.exp(-dec))
    p1[2] = float(y[2])  # exact 0 or 1 on the true class
    p1[3] = 1.0 - float(y[3])  # exact 0 on the true class
    w = rng.uniform(0.5, 2.0, n)
    both = np.column_stack([1 - p1, p1])
    cases["prob_binary"] = {
        "y_true": y, "p1": p1, "decision": dec, "weights": w,
        "log_loss": M.log_loss(y, p1, labels=[0, 1]),
        "log_loss_weighted": M.log_loss(y, p1, labels=[0, 1], sample_weight=w),
        "log_loss_2col": M.log_loss(y, both, labels=[0, 1]),
        "brier": M.brier_score_loss(y, p1),
        "brier_weighted": M.brier_score_loss(y, p1, sample_weight=w),
        "brier_2col": M.brier_score_loss(y, both, labels=[0, 1]),
        "hinge": M.hinge_loss(y, dec),
        "hinge_weighted": M.hinge_loss(y, dec, sample_weight=w),
    }
    return cases


def curve_fields(y, s, w=None):
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for drop in (True, False):
            fpr, tpr, thr = M.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
            assert np.isinf(thr[0])
            tag = "drop" if drop else "full"
            out[f"roc_{tag}_fpr"], out[f"roc_{tag}_tpr"] = fpr, tpr
            out[f"roc_{tag}_thr_rest"] = thr[1:]
            prec, rec, thr = M.precision_recall_curve(
                y, s, sample_weight=w, drop_intermediate=drop
            )
            out[f"pr_{tag}_precision"], out[f"pr_{tag}_recall"], out[f"pr_{tag}_thr"] = prec, rec, thr
            fpr, fnr, thr = M.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
            # The prepended +inf threshold can survive the cut: stored as the sentinel 1e300.
            thr = np.where(np.isinf(thr), 1e300, thr)
            out[f"det_{tag}_fpr"], out[f"det_{tag}_fnr"], out[f"det_{tag}_thr"] = fpr, fnr, thr
    out["roc_auc"] = M.roc_auc_score(y, s, sample_weight=w)
    out["average_precision"] = M.average_precision_score(y, s, sample_weight=w)
    tns, fps, fns, tps, thr = M.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    out.update(cmt_tns=tns, cmt_fps=fps, cmt_fns=fns, cmt_tps=tps, cmt_thr=thr)
    return out


def ranking_cases(rng):
    cases = {}
    # Ties: scores rounded to 1 decimal.
    n = 150
    y = (rng.random(n) < 0.4).astype(np.int64)
    s = np.round(rng.normal(size=n) + 0.8 * y, 1)
    cases["rank_ties"] = {"y_true": y, "y_score": s, **curve_fields(y, s)}
    w = rng.uniform(0.0, 2.0, n)
    w[rng.random(n) < 0.15] = 0.0  # zero weights drop samples (and thresholds)
    cases["rank_ties_weighted"] = {"y_true": y, "y_score": s, "weights": w, **curve_fields(y, s, w)}
    # Imbalanced, continuous scores, negative and positive values.
    n = 300
    y = (rng.random(n) < 0.05).astype(np.int64)
    y[:2] = [1, 0]
    s = rng.normal(size=n) * 3.0 + 2.0 * y
    cases["rank_imbalanced"] = {"y_true": y, "y_score": s, **curve_fields(y, s)}
    # Heavy ties: integer scores 0..4.
    n = 120
    y = rng.integers(0, 2, n)
    s = np.clip(rng.integers(0, 4, n) + y, 0, 4).astype(np.float64)
    cases["rank_integer_scores"] = {"y_true": y, "y_score": s, **curve_fields(y, s)}
    # One-vs-rest multi-class: probabilities (rows sum to 1), with ties.
    n, k = 200, 4
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.0 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    proba = np.round(proba, 2)
    proba[:, -1] = 1.0 - proba[:, :-1].sum(axis=1)
    proba = np.clip(proba, 0.0, 1.0)
    w = rng.uniform(0.2, 2.0, n)
    ovr = {"y_true": y, "proba": proba, "weights": w}
    for avg in ("macro", "weighted", "micro"):
        ovr[f"roc_auc_{avg}"] = M.roc_auc_score(y, proba, multi_class="ovr", average=avg)
        ovr[f"roc_auc_{avg}_weighted"] = M.roc_auc_score(
            y, proba, multi_class="ovr", average=avg, sample_weight=w
        )
        ovr[f"ap_{avg}"] = M.average_precision_score(y, proba, average=avg)
        ovr[f"ap_{avg}_weighted"] = M.average_precision_score(y, proba, average=avg, sample_weight=w)
    per = M.roc_auc_score(y, proba, multi_class="ovr", average=None)
    ovr["roc_auc_per_class"] = per
    cases["ovr_multiclass"] = ovr
    # auc(x, y) on an increasing and a decreasing x.
    x = np.sort(rng.random(30))
    yy = rng.random(30)
    cases["auc_increasing"] = {"x": x, "y": yy, "auc": M.auc(x, yy)}
    cases["auc_decreasing"] = {"x": x[::-1].copy(), "y": yy[::-1].copy(), "auc": M.auc(x[::-1], yy[::-1])}
    return cases


def reg_single(y, p, w=None):
    out = {
        "rss": float(np.sum((y - p) ** 2 * (1.0 if w is None else w))),
        "mse": M.mean_squared_error(y, p, sample_weight=w),
        "rmse": M.root_mean_squared_error(y, p, sample_weight=w),
        "mae": M.mean_absolute_error(y, p, sample_weight=w),
        "medae": M.median_absolute_error(y, p, sample_weight=w),
        "mape": M.mean_absolute_percentage_error(y, p, sample_weight=w),
        "r2": M.r2_score(y, p, sample_weight=w),
        "ev": M.explained_variance_score(y, p, sample_weight=w),
    }
    if w is None:
        out["max_error"] = M.max_error(y, p)
    return out


def regression_cases(rng):
    cases = {}
    n = 101
    y = rng.normal(size=n) * 5.0 + 10.0
    p = y + rng.normal(size=n) * 2.0 + 0.5
    cases["reg_odd"] = {"y_true": y, "y_pred": p, **reg_single(y, p)}
    y2, p2 = y[:100], p[:100]
    cases["reg_even"] = {"y_true": y2, "y_pred": p2, **reg_single(y2, p2)}
    w = rng.uniform(0.1, 2.0, n)
    cases["reg_weighted"] = {"y_true": y, "y_pred": p, "weights": w, **reg_single(y, p, w)}
    wi = rng.integers(0, 3, n).astype(np.float64)  # ties in the weighted median
    wi[0] = 1.0
    cases["reg_int_weights"] = {"y_true": y, "y_pred": p, "weights": wi, **reg_single(y, p, wi)}
    yz = np.array([0.0, 1.0, -2.0, 3.5, 0.0, 4.0])
    pz = np.array([0.1, 1.5, -2.5, 3.0, -0.2, 4.0])
    cases["reg_zeros_in_truth"] = {"y_true": yz, "y_pred": pz, **reg_single(yz, pz)}
    yc = np.full(7, 3.0)
    cases["reg_constant_perfect"] = {"y_true": yc, "y_pred": yc.copy(), **reg_single(yc, yc.copy())}
    pc = yc + np.linspace(-1, 1, 7)
    cases["reg_constant_imperfect"] = {"y_true": yc, "y_pred": pc, **reg_single(yc, pc)}
    # Multi-output (3 outputs, one constant and perfectly predicted).
    n = 60
    yt = rng.normal(size=(n, 3)) * np.array([1.0, 10.0, 0.0]) + np.array([0.0, 5.0, 2.0])
    yp = yt + rng.normal(size=(n, 3)) * np.array([0.5, 3.0, 0.0])
    w = rng.uniform(0.2, 2.0, n)
    ow = np.array([0.2, 0.3, 0.5])
    mo = {"y_true": yt, "y_pred": yp, "weights": w, "output_weights": ow}
    fns = {
        "mse": M.mean_squared_error, "rmse": M.root_mean_squared_error,
        "mae": M.mean_absolute_error, "medae": M.median_absolute_error,
        "mape": M.mean_absolute_percentage_error, "r2": M.r2_score,
        "ev": M.explained_variance_score,
    }
    for name, fn in fns.items():
        for wt, tag in ((None, ""), (w, "_sw")):
            mo[f"{name}{tag}_raw"] = fn(yt, yp, sample_weight=wt, multioutput="raw_values")
            mo[f"{name}{tag}_uniform"] = fn(yt, yp, sample_weight=wt)
            mo[f"{name}{tag}_custom"] = fn(yt, yp, sample_weight=wt, multioutput=ow)
            if name in ("r2", "ev"):
                mo[f"{name}{tag}_varw"] = fn(yt, yp, sample_weight=wt, multioutput="variance_weighted")
    cases["reg_multioutput"] = mo
    return cases


def clu_outputs(a, b):
    out = {
        "contingency": M.cluster.contingency_matrix(a, b),
        "pair_confusion": M.cluster.pair_confusion_matrix(a, b).astype(np.float64),
        "rand": M.rand_score(a, b),
        "ari": M.adjusted_rand_score(a, b),
        "mi": M.mutual_info_score(a, b),
        "fmi": M.fowlkes_mallows_score(a, b),
        # sklearn.metrics.cluster.entropy is deprecated (1.8); scipy's on the class counts.
        "entropy_true": float(scipy.stats.entropy(np.unique(a, return_counts=True)[1])),
    }
    for method in ("min", "geometric", "arithmetic", "max"):
        out[f"nmi_{method}"] = M.normalized_mutual_info_score(a, b, average_method=method)
        out[f"ami_{method}"] = M.adjusted_mutual_info_score(a, b, average_method=method)
    h, c, v = M.homogeneity_completeness_v_measure(a, b)
    out.update(homogeneity=h, completeness=c, v_measure=v)
    out["v_measure_beta05"] = M.v_measure_score(a, b, beta=0.5)
    return out


def clustering_cases(rng):
    cases = {}
    a = rng.integers(0, 5, 300)
    b = rng.integers(0, 4, 300)
    cases["clu_random"] = {"labels_true": a, "labels_pred": b, **clu_outputs(a, b)}
    x, y, _ = load_dataset("iris")
    km3 = KMeans(n_clusters=3, n_init=10, random_state=0).fit(x).labels_
    km5 = KMeans(n_clusters=5, n_init=10, random_state=0).fit(x).labels_
    cases["clu_iris_kmeans3"] = {"labels_true": y, "labels_pred": km3, **clu_outputs(y, km3)}
    cases["clu_iris_kmeans5"] = {"labels_true": y, "labels_pred": km5, **clu_outputs(y, km5)}
    # Correlated labels with a "noise" label encoded as a large value.
    a = rng.integers(0, 3, 200)
    b = np.where(rng.random(200) < 0.7, a + 10, 1_000_000)
    cases["clu_noise_label"] = {"labels_true": a, "labels_pred": b, **clu_outputs(a, b)}
    # Many small clusters (AMI's expected MI over many cells).
    a = rng.integers(0, 40, 500)
    b = (a + (rng.random(500) < 0.3) * rng.integers(0, 40, 500)) % 40
    cases["clu_many_clusters"] = {"labels_true": a, "labels_pred": b, **clu_outputs(a, b)}
    return cases


def sil_fields(x, labels, metric="euclidean"):
    return {
        "silhouette_samples": M.silhouette_samples(x, labels, metric=metric),
        "silhouette": M.silhouette_score(x, labels, metric=metric),
    }


def silhouette_cases(rng):
    cases = {}
    x, y, _ = load_dataset("iris")
    km = KMeans(n_clusters=3, n_init=10, random_state=0).fit(x)
    w = rng.uniform(0.5, 2.0, x.shape[0])
    case = {"x": x, "labels": km.labels_, "centers": km.cluster_centers_, "weights": w}
    case.update(sil_fields(x, km.labels_))
    case["davies_bouldin"] = M.davies_bouldin_score(x, km.labels_)
    case["calinski_harabasz"] = M.calinski_harabasz_score(x, km.labels_)
    d = ((x - km.cluster_centers_[km.labels_]) ** 2).sum(axis=1)
    case["inertia"] = float(d.sum())
    case["inertia_weighted"] = float((w * d).sum())
    assert abs(case["inertia"] - km.inertia_) <= 1e-9 * km.inertia_
    for metric in ("manhattan", "chebyshev", "cosine"):
        case[f"silhouette_samples_{metric}"] = M.silhouette_samples(x, km.labels_, metric=metric)
    cases["sil_iris_kmeans"] = case
    # Blobs with label gaps and a singleton cluster; precomputed Manhattan distances.
    centers = rng.normal(size=(4, 5)) * 4.0
    lab = rng.integers(0, 4, 120)
    xb = centers[lab] + rng.normal(size=(120, 5))
    lab = np.array([0, 3, 7, 9])[lab]
    lab[5] = 42  # a singleton cluster: s = 0 there
    case = {"x": xb, "labels": lab}
    case.update(sil_fields(xb, lab))
    dm = pairwise_distances(xb, metric="manhattan")
    case["precomputed_manhattan_silhouette_samples"] = M.silhouette_samples(dm, lab, metric="precomputed")
    case["davies_bouldin"] = M.davies_bouldin_score(xb, lab)
    case["calinski_harabasz"] = M.calinski_harabasz_score(xb, lab)
    cases["sil_blobs_singleton"] = case
    # Wine (13 features, larger scale) with its true classes.
    xw, yw, _ = load_dataset("wine")
    case = {"x": xw, "labels": yw}
    case.update(sil_fields(xw, yw))
    case["davies_bouldin"] = M.davies_bouldin_score(xw, yw)
    case["calinski_harabasz"] = M.calinski_harabasz_score(xw, yw)
    cases["sil_wine_truth"] = case
    return cases


def embedding_cases(rng):
    cases = {}
    # Continuous data (no distance ties): 3 clusters in 10-D, 2-D PCA and random projection.
    n = 150
    x = rng.normal(size=(n, 10)) + np.repeat(rng.normal(size=(3, 10)) * 3.0, n // 3, axis=0)
    pca = PCA(n_components=2).fit_transform(x)
    rp = x @ rng.normal(size=(10, 2))
    for name, emb in (("pca", pca), ("randproj", rp)):
        case = {"x": x, "x_embedded": emb}
        for k in (1, 5, 12):
            case[f"trust_k{k}"] = trustworthiness(x, emb, n_neighbors=k)
        case["trust_k5_manhattan"] = trustworthiness(x, emb, n_neighbors=5, metric="manhattan")
        cases[f"emb_{name}"] = case
    return cases


def main() -> None:
    rng = np.random.default_rng(20240611)
    cases = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        cases.update(classification_cases(rng))
        cases.update(prob_cases(rng))
        cases.update(ranking_cases(rng))
        cases.update(regression_cases(rng))
        cases.update(clustering_cases(rng))
        cases.update(silhouette_cases(rng))
        cases.update(embedding_cases(rng))
    path = write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
