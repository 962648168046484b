"""Golden references for ndlearn-cluster's Gaussian mixtures: scikit-learn's GaussianMixture.

Writes datasets/golden/cluster/mixture.json.

Every case starts EM from the same given parameters on both sides, so the runs are the same
algorithm from the same point: weights 1/k, means the rows at indices floor(i n / k), and every
component's covariance the data's (biased) covariance matrix `c0` (for "diag" its diagonal,
for "spherical" the mean of its diagonal; passed to scikit-learn as `precisions_init`).
Stored: the fitted weights, means, covariances (expanded to k x d x d, stored as k x d*d), `lower_bound_`,
`n_iter_`, `converged_`, `score(x)` and `score_samples(x)` of the first 20 rows.

* `<data>_<type>` for iris (k = 3), blobs (600 x 2, k = 4, stored), standardised wine (k = 3)
  and a univariate two-component sample (400 x 1, stored), each with the four covariance types,
  default tol (1e-3) and reg_covar (1e-6);
* `tight_<data>_full`: tol 1e-10, max_iter 1000.
"""

from __future__ import annotations

import numpy as np
from sklearn.mixture import GaussianMixture

from common import blobs, load_dataset, write_json


def univariate():
    rng = np.random.default_rng(99)
    return np.concatenate([rng.normal(-2.0, 0.7, 250), rng.normal(3.0, 1.5, 150)])[:, None]


def expand(cov, ct, k, d):
    if ct == "full":
        return cov
    if ct == "tied":
        return np.repeat(cov[None], k, axis=0)
    if ct == "diag":
        return np.stack([np.diag(c) for c in cov])
    return np.stack([np.eye(d) * c for c in cov])


def case(x, k, ct, tol=1e-3, max_iter=100):
    n, d = x.shape
    c0 = np.cov(x, rowvar=False, bias=True).reshape(d, d)
    means = x[[i * n // k for i in range(k)]]
    weights = np.full(k, 1.0 / k)
    if ct == "full":
        prec = np.repeat(np.linalg.inv(c0)[None], k, axis=0)
    elif ct == "tied":
        prec = np.linalg.inv(c0)
    elif ct == "diag":
        prec = np.repeat((1.0 / np.diag(c0))[None], k, axis=0)
    else:
        prec = np.full(k, 1.0 / np.mean(np.diag(c0)))
    gm = GaussianMixture(n_components=k, covariance_type=ct, tol=tol, max_iter=max_iter,
                         weights_init=weights, means_init=means, precisions_init=prec,
                         random_state=0).fit(x)
    return dict(k=k, covariance_type=ct, tol=tol, max_iter=max_iter, weights_init=weights,
                means_init=means, cov_init=np.repeat(c0[None], k, axis=0).reshape(k, d * d),
                weights=gm.weights_, means=gm.means_,
                covariances=expand(gm.covariances_, ct, k, d).reshape(k, d * d),
                lower_bound=float(gm.lower_bound_), n_iter=int(gm.n_iter_),
                converged=int(gm.converged_), score=float(gm.score(x)),
                score_samples=gm.score_samples(x[:20]))


def main():
    wine = load_dataset("wine")[0]
    data = {
        "iris": (load_dataset("iris")[0], 3, False),
        "blobs": (blobs(), 4, True),
        "wine_std": ((wine - wine.mean(axis=0)) / wine.std(axis=0), 3, False),
        "uni": (univariate(), 2, True),
    }
    cases = {}
    for name, (x, k, store) in data.items():
        for ct in ("full", "tied", "diag", "spherical"):
            c = case(x, k, ct)
            c["dataset"] = name
            if store:
                c["x"] = x
            cases[f"{name}_{ct}"] = c
    for name in ("iris", "blobs"):
        x, k, store = data[name]
        c = case(x, k, "full", tol=1e-10, max_iter=1000)
        c["dataset"] = name
        if store:
            c["x"] = x
        cases[f"tight_{name}_full"] = c
    write_json("datasets/golden/cluster/mixture.json", cases, "cluster_mixture.py",
               "GaussianMixture EM from given weights, means and precisions")


if __name__ == "__main__":
    main()
