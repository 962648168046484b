"""Golden references for ndlearn-decomposition's t-SNE (scikit-learn's TSNE).

Writes datasets/golden/decomposition/tsne.json.

* `p_exact_<data>_p<perplexity>`: the joint affinities of the exact method
  (`_joint_probabilities` on squared Euclidean distances), as a full matrix.
* `p_nn_<data>_p<perplexity>`: the sparse joint affinities of Barnes-Hut
  (`_joint_probabilities_nn` on the squared distances to the 3 * perplexity + 1 nearest
  neighbours), densified.
* `exact_wine_std_lr<lr>`: TSNE(method="exact", init=<unit-scale PCA start>, learning_rate,
  early_exaggeration=1, max_iter=300) on standardised wine: embedding_, kl_divergence_, n_iter_.
* `bh_<data>`: TSNE(method="barnes_hut", default init "pca", random_state=0): kl_divergence_ and
  the trustworthiness (5 neighbours) of its embedding, the bar ndlearn's own run must reach.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import squareform
from sklearn.decomposition import PCA
from sklearn.manifold import TSNE, trustworthiness
from sklearn.manifold._t_sne import _joint_probabilities, _joint_probabilities_nn
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import StandardScaler

from common import load_dataset, write_json


def main():
    cases = {}
    iris = load_dataset("iris")[0]
    wine = StandardScaler().fit_transform(load_dataset("wine")[0])
    digits = load_dataset("digits")[0]
    # data: "iris", "digits" (first rows) or "wine_std" (standardised wine, built in the test)
    d2 = pairwise_distances(iris, squared=True)
    p = squareform(_joint_probabilities(d2, 30.0, 0))
    cases["p_exact_iris_p30"] = dict(dataset="iris", perplexity=30.0, p=p)
    k = int(3.0 * 10.0 + 1)
    g = NearestNeighbors(n_neighbors=k).fit(wine).kneighbors_graph(mode="distance")
    g.data **= 2
    pn = _joint_probabilities_nn(g, 10.0, 0).toarray()
    cases["p_nn_wine_p10"] = dict(dataset="wine_std", perplexity=10.0, p=pn)
    # t-SNE from its usual 1e-4-scale start is chaotic: scikit-learn itself ends 30-100 %
    # apart when the start moves by 1e-13. From a PCA start of unit scale, without
    # exaggeration and with a small step the run is stable (1e-15 / 1e-10 amplification), so
    # whole trajectories (gains, momentum switch, checks) can be compared.
    y0 = PCA(2).fit_transform(wine)
    y0 /= y0[:, 0].std()
    for lr in (5.0, 10.0):
        t = TSNE(2, method="exact", init=y0.copy(), perplexity=10.0, learning_rate=lr,
                 early_exaggeration=1.0, max_iter=300, random_state=0).fit(wine)
        cases[f"exact_wine_std_lr{int(lr)}"] = dict(
            dataset="wine_std", y0=y0, perplexity=10.0, learning_rate=lr, early_exaggeration=1.0,
            max_iter=300, embedding=t.embedding_, kl_divergence=float(t.kl_divergence_),
            n_iter=int(t.n_iter_))
    for name, x in (("digits", digits[:1000]), ("wine_std", wine)):
        t = TSNE(2, method="barnes_hut", random_state=0).fit(x)
        cases[f"bh_{name}"] = dict(dataset=name, rows=x.shape[0], kl_divergence=float(t.kl_divergence_),
                                   trustworthiness=float(trustworthiness(x, t.embedding_, n_neighbors=5)))
    write_json("datasets/golden/decomposition/tsne.json", cases, "decomposition_tsne.py",
               "t-SNE joint affinities (exact, nearest-neighbour), exact runs from a given start, "
               "Barnes-Hut KL and trustworthiness")


if __name__ == "__main__":
    main()
