"""Golden references for ndlearn-bayes: scikit-learn's naive Bayes models and discriminant
analyses on the embedded data sets.

Writes datasets/golden/bayes/naive_bayes.json and datasets/golden/bayes/discriminant.json.

Split for every case: training rows are the indices i with i % 4 != 0, test rows i % 4 == 0
(file order of datasets/data/<dataset>.csv). Every case stores "dataset"; outputs are on the
test rows.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.naive_bayes import (
    BernoulliNB,
    CategoricalNB,
    ComplementNB,
    GaussianNB,
    MultinomialNB,
)

from common import load_dataset, write_json

NOTE = "train rows i % 4 != 0, test rows i % 4 == 0; outputs on the test rows"


def split(name):
    x, y, _ = load_dataset(name)
    i = np.arange(len(y))
    tr, te = i % 4 != 0, i % 4 == 0
    return x[tr], y[tr], x[te], y[te]


def probas(model, xt, log=True):
    out = {"proba": model.predict_proba(xt), "pred": model.predict(xt)}
    if log:  # (left out of most digits cases to keep the file under 2 MiB)
        out["log_proba"] = model.predict_log_proba(xt)
    return out


def naive_bayes():
    cases = {}
    for ds in ("iris", "wine", "breast_cancer", "digits"):
        x, y, xt, _ = split(ds)
        m = GaussianNB().fit(x, y)
        cases[f"gaussian_{ds}"] = dict(
            dataset=ds, theta=m.theta_, var=m.var_, class_prior=m.class_prior_,
            epsilon=m.epsilon_, **probas(m, xt))
    x, y, xt, _ = split("iris")
    m = GaussianNB(var_smoothing=1e-3).fit(x, y)
    cases["gaussian_iris_var_smoothing_1e-3"] = dict(
        dataset="iris", var_smoothing=1e-3, theta=m.theta_, var=m.var_,
        class_prior=m.class_prior_, epsilon=m.epsilon_, **probas(m, xt))
    pri = [0.5, 0.3, 0.2]
    m = GaussianNB(priors=pri).fit(x, y)
    cases["gaussian_iris_priors"] = dict(
        dataset="iris", priors=pri, theta=m.theta_, var=m.var_, class_prior=m.class_prior_,
        epsilon=m.epsilon_, **probas(m, xt))
    m = GaussianNB()
    parts = np.array_split(np.arange(len(y)), 3)
    for k, idx in enumerate(parts):
        m.partial_fit(x[idx], y[idx], classes=[0, 1, 2] if k == 0 else None)
    cases["gaussian_iris_partial_fit"] = dict(
        dataset="iris", batches=[len(p) for p in parts], theta=m.theta_, var=m.var_,
        class_prior=m.class_prior_, **probas(m, xt))
    w = 1.0 + (np.arange(len(y)) % 3)
    m = GaussianNB().fit(x, y, sample_weight=w)
    cases["gaussian_iris_sample_weight"] = dict(
        dataset="iris", sample_weight=w, theta=m.theta_, var=m.var_,
        class_prior=m.class_prior_, **probas(m, xt))

    x, y, xt, _ = split("digits")
    for name, kw in (("multinomial_digits", {}), ("multinomial_digits_alpha_0.5", {"alpha": 0.5}),
                     ("multinomial_digits_no_fit_prior", {"fit_prior": False})):
        m = MultinomialNB(**kw).fit(x, y)
        cases[name] = dict(dataset="digits", alpha=m.alpha, fit_prior=int(m.fit_prior),
                           feature_log_prob=m.feature_log_prob_,
                           class_log_prior=m.class_log_prior_,
                           **probas(m, xt, name == "multinomial_digits"))
    m = MultinomialNB()
    parts = np.array_split(np.arange(len(y)), 3)
    for k, idx in enumerate(parts):
        m.partial_fit(x[idx], y[idx], classes=list(range(10)) if k == 0 else None)
    cases["multinomial_digits_partial_fit"] = dict(
        dataset="digits", batches=[len(p) for p in parts],
        feature_log_prob=m.feature_log_prob_, **probas(m, xt, False))
    for name, norm in (("complement_digits", False), ("complement_digits_norm", True)):
        m = ComplementNB(norm=norm).fit(x, y)
        cases[name] = dict(dataset="digits", alpha=1.0, norm=int(norm),
                           feature_log_prob=m.feature_log_prob_, **probas(m, xt, False))
    for name, b in (("bernoulli_digits", 0.0), ("bernoulli_digits_binarize_8", 8.0)):
        m = BernoulliNB(binarize=b).fit(x, y)
        cases[name] = dict(dataset="digits", binarize=b, feature_log_prob=m.feature_log_prob_,
                           class_log_prior=m.class_log_prior_,
                           **probas(m, xt, name == "bernoulli_digits"))
    for name, a in (("categorical_digits", 1.0), ("categorical_digits_alpha_0.3", 0.3)):
        m = CategoricalNB(alpha=a, min_categories=17).fit(x, y)
        cases[name] = dict(dataset="digits", alpha=a, min_categories=17,
                           feature_log_prob_0=m.feature_log_prob_[0],
                           feature_log_prob_20=m.feature_log_prob_[20],
                           class_log_prior=m.class_log_prior_,
                           **probas(m, xt, name == "categorical_digits"))

    x, y, xt, _ = split("breast_cancer")
    med = np.median(x, axis=0)
    m = BernoulliNB(binarize=None).fit((x > med).astype(float), y)
    cases["bernoulli_breast_cancer_binarize_none"] = dict(
        dataset="breast_cancer", medians=med, feature_log_prob=m.feature_log_prob_,
        class_log_prior=m.class_log_prior_, **probas(m, (xt > med).astype(float)))
    return cases


def lda_case(ds, solver, **kw):
    x, y, xt, _ = split(ds)
    m = LinearDiscriminantAnalysis(solver=solver, **kw).fit(x, y)
    c = dict(dataset=ds, solver=solver, coef=m.coef_, intercept=m.intercept_, means=m.means_,
             priors=m.priors_, decision=m.decision_function(xt), **probas(m, xt))
    if solver in ("svd", "eigen") and "shrinkage" not in kw:
        c["transform"] = m.transform(xt)
        c["explained_variance_ratio"] = m.explained_variance_ratio_
    return c


def discriminant():
    cases = {}
    for ds in ("iris", "wine"):
        for solver in ("svd", "lsqr", "eigen"):
            cases[f"lda_{solver}_{ds}"] = lda_case(ds, solver)
    for solver in ("svd", "lsqr"):
        cases[f"lda_{solver}_breast_cancer"] = lda_case("breast_cancer", solver)
    cases["lda_lsqr_wine_shrinkage_0.1"] = lda_case("wine", "lsqr", shrinkage=0.1)
    cases["lda_lsqr_wine_shrinkage_auto"] = lda_case("wine", "lsqr", shrinkage="auto")
    cases["lda_eigen_wine_shrinkage_auto"] = lda_case("wine", "eigen", shrinkage="auto")
    c = lda_case("iris", "svd", priors=[0.2, 0.3, 0.5])
    c["priors_given"] = [0.2, 0.3, 0.5]
    cases["lda_svd_iris_priors"] = c
    x, y, xt, _ = split("iris")
    m = LinearDiscriminantAnalysis(n_components=1).fit(x, y)
    cases["lda_svd_iris_n_components_1"] = dict(dataset="iris", transform=m.transform(xt))
    for ds in ("iris", "wine"):
        x, y, xt, _ = split(ds)
        m = QuadraticDiscriminantAnalysis().fit(x, y)
        cases[f"qda_{ds}"] = dict(dataset=ds, means=m.means_, priors=m.priors_,
                                  decision=m.decision_function(xt), **probas(m, xt))
    x, y, xt, _ = split("wine")
    m = QuadraticDiscriminantAnalysis(reg_param=0.1).fit(x, y)
    cases["qda_wine_reg_0.1"] = dict(dataset="wine", reg_param=0.1, **probas(m, xt))
    m = QuadraticDiscriminantAnalysis(solver="eigen", shrinkage="auto").fit(x, y)
    cases["qda_eigen_wine_shrinkage_auto"] = dict(dataset="wine", **probas(m, xt))
    x, y, xt, _ = split("iris")
    m = QuadraticDiscriminantAnalysis(priors=[0.2, 0.3, 0.5]).fit(x, y)
    cases["qda_iris_priors"] = dict(dataset="iris", priors_given=[0.2, 0.3, 0.5], **probas(m, xt))
    return cases


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write_json("datasets/golden/bayes/naive_bayes.json", naive_bayes(), "bayes.py", NOTE)
        write_json("datasets/golden/bayes/discriminant.json", discriminant(), "bayes.py", NOTE)


if __name__ == "__main__":
    main()
