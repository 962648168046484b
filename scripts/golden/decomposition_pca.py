"""Golden references for ndlearn-decomposition's PCA: scikit-learn's PCA.

Writes datasets/golden/decomposition/pca.json.

* `<data>_<solver>_k<k>[_whiten]`: PCA(n_components=k, svd_solver=solver, whiten=...) on iris,
  wine, breast cancer, digits and a wide 30 x 200 standard-normal matrix (generated here,
  stored): components_ (scikit-learn's svd_flip signs), explained_variance_, its ratio,
  singular_values_, noise_variance_, the transform and inverse transform of the first 20 rows
  and score_samples of the first 20 rows (when k < min(n, d)).
* `<data>_variance<t>`: PCA(n_components=t) for a fraction t: n_components_ and
  explained_variance_.
* `digits_randomized_k10`: PCA(10, svd_solver="randomized", random_state=0):
  explained_variance_ (the Rust side uses its own random stream; compared to 1e-6 relative).
"""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import PCA

from common import load_dataset, write_json


def case(x, k, solver, whiten=False):
    p = PCA(n_components=k, svd_solver=solver, whiten=whiten).fit(x)
    head = x[:20]
    c = dict(k=k, solver=solver, whiten=int(whiten), components=p.components_,
             explained_variance=p.explained_variance_,
             explained_variance_ratio=p.explained_variance_ratio_,
             singular_values=p.singular_values_, noise_variance=float(p.noise_variance_),
             transform=p.transform(head), inverse=p.inverse_transform(p.transform(head)))
    if k < min(x.shape):
        c["score_samples"] = p.score_samples(head)
    return c


def main():
    wide = np.random.default_rng(5).standard_normal((30, 200))
    data = {
        "iris": (load_dataset("iris")[0], False),
        "wine": (load_dataset("wine")[0], False),
        "breast_cancer": (load_dataset("breast_cancer")[0], False),
        "digits": (load_dataset("digits")[0], False),
        "wide": (wide, True),
    }
    cases = {}
    for name, (x, store) in data.items():
        m = min(x.shape)
        for k in sorted({2, min(5, m), m}):
            for solver in ("full", "covariance_eigh"):
                if solver == "covariance_eigh" and name == "wide":
                    continue  # 200 x 200 covariance of rank 29: eigenvectors beyond 29 are arbitrary
                c = case(x, k, solver)
                c["dataset"] = name
                if store:
                    c["x"] = x
                cases[f"{name}_{solver}_k{k}"] = c
        c = case(x, 2, "full", whiten=True)
        c["dataset"] = name
        if store:
            c["x"] = x
        cases[f"{name}_full_k2_whiten"] = c
        for t in (0.5, 0.95):
            p = PCA(n_components=t, svd_solver="full").fit(x)
            c = dict(dataset=name, t=t, n_components=int(p.n_components_),
                     explained_variance=p.explained_variance_)
            if store:
                c["x"] = x
            cases[f"{name}_variance{t}"] = c
    digits = data["digits"][0]
    p = PCA(10, svd_solver="randomized", random_state=0).fit(digits)
    cases["digits_randomized_k10"] = dict(dataset="digits", k=10,
                                          explained_variance=p.explained_variance_,
                                          explained_variance_ratio=p.explained_variance_ratio_)
    # Minka's MLE choice of k (n_components="mle") on data sets with more rows than columns,
    # plus a rank-3 signal in 10-d with small noise (k must come out 3)
    rng = np.random.default_rng(3)
    low = rng.standard_normal((300, 3)) @ rng.standard_normal((3, 10)) \
        + 0.05 * rng.standard_normal((300, 10))
    for name, x in (("iris", data["iris"][0]), ("wine", data["wine"][0]),
                    ("breast_cancer", data["breast_cancer"][0]), ("rank3", low)):
        for solver in ("full", "covariance_eigh"):
            p = PCA(n_components="mle", svd_solver=solver).fit(x)
            c = dict(dataset=name, mle_solver=solver, n_components=int(p.n_components_),
                     explained_variance=p.explained_variance_,
                     noise_variance=float(p.noise_variance_))
            if name == "rank3":
                c["x"] = x
            cases[f"{name}_mle_{solver}"] = c
    write_json("datasets/golden/decomposition/pca.json", cases, "decomposition_pca.py",
               "PCA components (svd_flip signs), variances, transforms, score_samples")


if __name__ == "__main__":
    main()
