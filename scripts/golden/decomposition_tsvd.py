"""Golden references for ndlearn-decomposition's TruncatedSVD: scikit-learn's TruncatedSVD.

Writes datasets/golden/decomposition/truncated_svd.json.

* `<data>_k<k>`: TruncatedSVD(k, algorithm="arpack") (exact up to ARPACK's tolerance) on iris,
  wine and digits: singular_values_, components_ (svd_flip signs on V^T), explained_variance_,
  explained_variance_ratio_, the transform of the first 20 rows, and the Frobenius error of the
  best rank-k approximation from numpy's full SVD (`eckart_young`).
"""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import TruncatedSVD

from common import load_dataset, write_json


def main():
    cases = {}
    for name, ks in (("iris", (1, 2, 3)), ("wine", (2, 5)), ("digits", (2, 10))):
        x = load_dataset(name)[0]
        s_full = np.linalg.svd(x, compute_uv=False)
        for k in ks:
            t = TruncatedSVD(n_components=k, algorithm="arpack", random_state=0).fit(x)
            cases[f"{name}_k{k}"] = dict(
                dataset=name, k=k, singular_values=t.singular_values_, components=t.components_,
                explained_variance=t.explained_variance_,
                explained_variance_ratio=t.explained_variance_ratio_,
                transform=t.transform(x[:20]),
                eckart_young=float(np.sqrt(np.sum(s_full[k:] ** 2))))
    write_json("datasets/golden/decomposition/truncated_svd.json", cases, "decomposition_tsvd.py",
               "TruncatedSVD (arpack) triplets, variances, transforms; Eckart-Young errors")


if __name__ == "__main__":
    main()
