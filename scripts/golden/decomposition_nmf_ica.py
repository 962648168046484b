"""Golden references for ndlearn-decomposition's NMF and FastICA: scikit-learn's NMF and FastICA.

Writes datasets/golden/decomposition/nmf.json and datasets/golden/decomposition/fastica.json.

nmf.json (data: iris, wine and the first 300 rows of digits, read by the Rust side from the
embedded CSVs; `rows` says how many leading rows are used):

* `init_<data>_k<k>_<init>`: sklearn's `_initialize_nmf(X, k, init)` for nndsvd and nndsvda
  (`w`, `h`). scikit-learn takes the SVD from its randomized solver: exact to rounding when
  k + 10 >= min(n, d) (iris, wine), about 3e-7 relative off the exact SVD for digits (the
  Rust side uses the exact SVD; `svd_rel_err` records the measured gap of this case).
* `fit_<data>_k<k>_<solver>[_<variant>]`: `NMF(k, init="custom", solver, tol, max_iter,
  alpha_W, alpha_H, l1_ratio)` from the stored `w0`, `h0` (nndsvda, or nndsvd for `_nndsvd`):
  `components`, `w` (the fit_transform output), `reconstruction_err`, `n_iter`, and
  `transform` = `transform(X[:20])` (W solved with H fixed: the solver restarted from
  sqrt(mean/k) for mu, from 0 for cd). `alpha_h` is -1 for scikit-learn's "same".

fastica.json:

* `signals`: scikit-learn's blind-source-separation example: 2,000 samples of sin(2t),
  sign(sin(3t)) and a sawtooth, plus 0.2 N(0, 1) noise (np.random.seed(0)), standardised
  (`s_true`), mixed by A = [[1, 1, 1], [0.5, 2, 1], [1.5, 1, 2]] (`x` = S Aᵀ).
* `white`: the signals whitened by hand (`x`), input of the `whiten=False` case.
* `<data>_<fun>_<algorithm>[_<variant>]`: `FastICA(k, algorithm, fun, whiten, whiten_solver,
  tol, max_iter, w_init)` with the stored `w_init` (standard normal, numpy seed 3 / 4):
  `components`, `mixing`, `mean`, `whitening` (whitened cases), `n_iter`, `sources` (the
  fit_transform output, first 20 rows) and `reconstruction_err` = ‖X − inverse(transform(X))‖_F.
  `whiten` is "unit-variance", "arbitrary-variance" or "false"; `converged` is 0 when
  scikit-learn warned that FastICA did not converge (`_maxiter5`: stopped after 5 iterations).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import signal
from sklearn.decomposition import NMF, FastICA
from sklearn.decomposition._nmf import _initialize_nmf
import sklearn.decomposition._nmf as nmf_module

from common import load_dataset, write_json


def dataset(name, rows):
    x = load_dataset(name)[0]
    return x if rows is None else np.ascontiguousarray(x[:rows])


def exact_nndsvd(x, k, init):
    """_initialize_nmf with the exact SVD in place of the randomized one."""
    original = nmf_module._randomized_svd

    def exact(a, n, random_state=None):
        u, s, vt = np.linalg.svd(a, full_matrices=False)
        return u[:, :n], s[:n], vt[:n]

    nmf_module._randomized_svd = exact
    try:
        return _initialize_nmf(x, k, init=init)
    finally:
        nmf_module._randomized_svd = original


def nmf_cases():
    cases = {}
    setups = [("iris", None, 2), ("iris", None, 3), ("wine", None, 3), ("digits", 300, 5)]
    for name, rows, k in setups:
        x = dataset(name, rows)
        inits = {}
        for init in ("nndsvd", "nndsvda"):
            w, h = _initialize_nmf(x, k, init=init, random_state=0)
            we, he = exact_nndsvd(x, k, init)
            gap = max(np.abs(w - we).max() / np.abs(we).max(), np.abs(h - he).max() / np.abs(he).max())
            # the zero pattern must not depend on the SVD solver, or the comparison is moot
            assert np.array_equal(w == 0, we == 0) and np.array_equal(h == 0, he == 0), (name, k, init)
            assert gap < 1e-6, (name, k, init, gap)
            inits[init] = (w, h)
            cases[f"init_{name}_k{k}_{init}"] = dict(dataset=name, rows=x.shape[0], k=k, init=init,
                                                     w=w, h=h, svd_rel_err=float(gap))
        variants = [("", "nndsvda", 0.0, 0.0, 0.0)]
        if (name, k) == ("iris", 3):
            variants += [("_nndsvd", "nndsvd", 0.0, 0.0, 0.0),
                         ("_l1l2", "nndsvda", 0.01, None, 0.5),
                         ("_l2w", "nndsvda", 0.05, 0.0, 0.0),
                         ("_l1h", "nndsvda", 0.0, 0.02, 1.0)]
        for suffix, init, alpha_w, alpha_h, l1_ratio in variants:
            w0, h0 = inits[init]
            for solver in ("mu", "cd"):
                if solver == "mu" and init == "nndsvd":
                    continue  # zeros of the init stay zero under multiplicative updates
                max_iter = 300 if name != "digits" else 150
                est = NMF(k, init="custom", solver=solver, tol=1e-10, max_iter=max_iter,
                          alpha_W=alpha_w, alpha_H="same" if alpha_h is None else alpha_h,
                          l1_ratio=l1_ratio)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    w = est.fit_transform(x, W=w0.copy(), H=h0.copy())
                    t = est.transform(x[:20])
                assert np.all(w >= 0) and np.all(est.components_ >= 0)
                err = np.linalg.norm(x - w @ est.components_)
                assert abs(err - est.reconstruction_err_) < 1e-9 * err
                cases[f"fit_{name}_k{k}_{solver}{suffix}"] = dict(
                    dataset=name, rows=x.shape[0], k=k, solver=solver, tol=1e-10,
                    max_iter=max_iter, alpha_w=alpha_w, alpha_h=-1.0 if alpha_h is None else alpha_h,
                    l1_ratio=l1_ratio, w0=w0, h0=h0, components=est.components_, w=w,
                    reconstruction_err=float(est.reconstruction_err_), n_iter=est.n_iter_,
                    transform=t)
    return cases


def signals():
    np.random.seed(0)
    n = 2000
    t = np.linspace(0, 8, n)
    s = np.c_[np.sin(2 * t), np.sign(np.sin(3 * t)), signal.sawtooth(2 * np.pi * t)]
    s += 0.2 * np.random.normal(size=s.shape)
    s /= s.std(axis=0)
    a = np.array([[1.0, 1.0, 1.0], [0.5, 2.0, 1.0], [1.5, 1.0, 2.0]])
    return s, s @ a.T


def ica_cases():
    s_true, x_sig = signals()
    # the signals whitened by hand (centred, times the inverse square root of the covariance):
    # FastICA(whiten=False) expects whitened input
    xc = x_sig - x_sig.mean(axis=0)
    evals, evecs = np.linalg.eigh(xc.T @ xc / xc.shape[0])
    x_white = xc @ evecs @ np.diag(evals ** -0.5) @ evecs.T
    cases = {"signals": dict(x=x_sig, s_true=s_true), "white": dict(x=x_white)}
    iris = load_dataset("iris")[0]
    setups = []
    for fun in ("logcosh", "exp", "cube"):
        for algorithm in ("parallel", "deflation"):
            setups.append(("signals", fun, algorithm, 3, "unit-variance", "svd", 1e-10, ""))
    setups += [
        ("signals", "logcosh", "parallel", 3, "unit-variance", "eigh", 1e-10, "_eigh"),
        ("signals", "logcosh", "parallel", 3, "arbitrary-variance", "svd", 1e-10, "_arbitrary"),
        ("white", "logcosh", "parallel", 3, False, "svd", 1e-10, "_nowhiten"),
        ("signals", "logcosh", "deflation", 2, "unit-variance", "svd", 1e-10, "_k2"),
        ("signals", "logcosh", "parallel", 3, "unit-variance", "svd", 1e-4, "_tol4"),
        ("iris", "logcosh", "parallel", 4, "unit-variance", "svd", 1e-10, ""),
        ("iris", "exp", "deflation", 4, "unit-variance", "svd", 1e-10, ""),
        ("iris", "logcosh", "deflation", 3, "unit-variance", "svd", 1e-10, "_k3"),
        ("iris", "exp", "parallel", 2, "unit-variance", "eigh", 1e-10, "_k2"),
        ("iris", "cube", "parallel", 3, "unit-variance", "svd", 1e-10, "_k3"),
        ("iris", "logcosh", "parallel", 4, "unit-variance", "svd", 1e-10, "_maxiter5"),
    ]
    for data, fun, algorithm, k, whiten, solver, tol, suffix in setups:
        x = {"signals": x_sig, "white": x_white, "iris": iris}[data]
        d = x.shape[1]
        seed = 4 if data == "iris" else 3
        w_init = np.random.default_rng(seed).standard_normal((d, d))[:k, :k]
        alpha = 1.5 if (fun == "logcosh" and suffix == "_k2") else 1.0
        max_iter = 5 if suffix == "_maxiter5" else 400
        est = FastICA(n_components=k if whiten else None, algorithm=algorithm, fun=fun,
                      fun_args={"alpha": alpha} if fun == "logcosh" else None,
                      whiten=whiten, whiten_solver=solver, tol=tol, max_iter=max_iter,
                      w_init=w_init)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            s = est.fit_transform(x)
        converged = not any("did not converge" in str(w.message) for w in caught)
        # every reference converged except the one meant to stop early
        assert converged == (suffix != "_maxiter5"), (data, fun, algorithm, suffix)
        if algorithm == "deflation":
            assert est.n_iter_ < max_iter  # deflation does not warn: check by hand
        back = est.inverse_transform(est.transform(x))
        c = dict(dataset=data, fun=fun, alpha=alpha, algorithm=algorithm, k=k,
                 whiten="false" if whiten is False else whiten, whiten_solver=solver,
                 tol=tol, max_iter=max_iter, w_init=w_init, components=est.components_,
                 mixing=est.mixing_, n_iter=est.n_iter_, converged=int(converged),
                 sources=s[:20], reconstruction_err=float(np.linalg.norm(x - back)))
        if whiten:
            c["mean"] = est.mean_
            c["whitening"] = est.whitening_
        if data == "signals" and k == 3:
            corr = np.abs(np.corrcoef(s.T, s_true.T)[:3, 3:]).max(axis=1)
            assert np.all(corr > 0.99), corr
        cases[f"{data}_{fun}_{algorithm}{suffix}"] = c
    return cases


def main():
    write_json("datasets/golden/decomposition/nmf.json", nmf_cases(), "decomposition_nmf_ica.py",
               "NMF (Frobenius) inits nndsvd/nndsvda and mu/cd fits from custom inits, tol 1e-10")
    write_json("datasets/golden/decomposition/fastica.json", ica_cases(),
               "decomposition_nmf_ica.py",
               "FastICA logcosh/exp/cube x parallel/deflation from given w_init on mixed signals and iris")


if __name__ == "__main__":
    main()
