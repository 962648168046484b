"""Golden references for ndlearn-decomposition's KernelPCA and IncrementalPCA (scikit-learn).

Writes datasets/golden/decomposition/kernel_pca.json and incremental_pca.json.

kernel_pca: `<data>_<kernel>_k<k>`: KernelPCA(k, kernel, eigen_solver="dense",
fit_inverse_transform=True, alpha=0.1) on iris and standardised wine: eigenvalues_,
eigenvectors_ (svd_flip signs), the transform of the first 20 rows and of 10 perturbed rows
(`x_new`), and the inverse transform of the training scores of the first 10 rows.

incremental_pca: `<data>_k<k>_b<batch>`: IncrementalPCA(k, batch_size, whiten) fitted with
`fit` (gen_batches): components_, singular_values_, explained_variance_(_ratio_), mean_, var_,
noise_variance_, n_samples_seen_ and the transform of the first 20 rows.
"""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import IncrementalPCA, KernelPCA
from sklearn.preprocessing import StandardScaler

from common import load_dataset, write_json


def kernel_cases():
    rng = np.random.default_rng(20261125)
    cases = {}
    data = {
        "iris": load_dataset("iris")[0],
        "wine": StandardScaler().fit_transform(load_dataset("wine")[0]),
    }
    kernels = (
        ("linear", dict(kernel="linear")),
        ("rbf", dict(kernel="rbf", gamma=0.2)),
        ("poly", dict(kernel="poly", degree=3, gamma=0.1, coef0=1.0)),
    )
    for dname, x in data.items():
        x_new = x[:10] + 0.1 * rng.standard_normal((10, x.shape[1]))
        for kname, kw in kernels:
            for k in (2, 4):
                m = KernelPCA(n_components=k, eigen_solver="dense", fit_inverse_transform=True,
                              alpha=0.1, **kw).fit(x)
                z = m.transform(x)
                cases[f"{dname}_{kname}_k{k}"] = dict(
                    dataset=dname, x=x, kernel=kname, k=k,
                    gamma=kw.get("gamma", 0.0), degree=kw.get("degree", 0),
                    coef0=kw.get("coef0", 0.0), alpha=0.1,
                    eigenvalues=m.eigenvalues_, eigenvectors=m.eigenvectors_,
                    transform=z[:20], x_new=x_new, transform_new=m.transform(x_new),
                    inverse=m.inverse_transform(z[:10]))
    return cases


def incremental_cases():
    cases = {}
    for name, k, batch, whiten in (("iris", 2, 30, 0), ("iris", 4, 50, 0), ("wine", 3, 40, 1),
                                   ("wine", 5, 37, 0), ("digits", 10, 200, 0),
                                   ("digits", 20, 311, 1)):
        x = load_dataset(name)[0]
        m = IncrementalPCA(n_components=k, batch_size=batch, whiten=bool(whiten)).fit(x)
        cases[f"{name}_k{k}_b{batch}"] = dict(
            dataset=name, k=k, batch=batch, whiten=whiten, components=m.components_,
            singular_values=m.singular_values_, explained_variance=m.explained_variance_,
            explained_variance_ratio=m.explained_variance_ratio_, mean=m.mean_, var=m.var_,
            noise_variance=float(m.noise_variance_), n_samples_seen=int(m.n_samples_seen_),
            transform=m.transform(x[:20]))
    return cases


def main():
    write_json("datasets/golden/decomposition/kernel_pca.json", kernel_cases(),
               "decomposition_kpca_ipca.py",
               "KernelPCA (dense) eigenpairs, transforms of training and new rows, pre-images")
    write_json("datasets/golden/decomposition/incremental_pca.json", incremental_cases(),
               "decomposition_kpca_ipca.py",
               "IncrementalPCA (fit in batches) components, variances, running stats, transforms")


if __name__ == "__main__":
    main()
