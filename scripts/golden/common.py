"""Shared helpers for the golden-reference generators in scripts/golden/.

* ``versions()``            -> interpreter and library versions for "meta".
* ``write_json(...)``       -> writes {"meta": ..., "cases": ...} in the format
                               read by the Rust test kit (see README.md here).
* ``load_dataset(name)``    -> (X, y, header) read from the project's embedded
                               CSVs in datasets/data/, so golden inputs are
                               exactly the data the Rust crate embeds.
* ``diabetes_scaled(X)``    -> sklearn's default load_diabetes() scaling.
* ``sign_normalize_columns`` -> deterministic sign convention for eigen/singular
                               vectors.

This module is not a generator itself; ``cargo xtask golden`` skips it.
"""

from __future__ import annotations

import csv
import json
import math
import platform
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = ROOT / "datasets" / "data"
GOLDEN_DIR = ROOT / "datasets" / "golden"

MAX_JSON_BYTES = 2 * 1024 * 1024

CLASSIFICATION = {"iris", "wine", "breast_cancer", "digits"}


# ------------------------------------------------------------------ meta
def versions() -> dict:
    import scipy
    import sklearn

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
    }


# ------------------------------------------------------------------ data
def load_dataset(name: str):
    """Read datasets/data/<name>.csv -> (X float64 (n, p), y, feature header).

    y is int64 class indices for the classification sets, float64 for diabetes.
    """
    path = DATA_DIR / f"{name}.csv"
    if not path.exists():
        # `cargo xtask golden` runs the scripts in sorted order, so a generator can
        # run before extract_datasets.py; extract on demand (idempotent).
        import extract_datasets

        extract_datasets.main()
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    assert header[-1] == "target", path
    arr = np.array([[float(t) for t in r] for r in rows[1:]], dtype=np.float64)
    x = np.ascontiguousarray(arr[:, :-1])
    y = arr[:, -1]
    if name in CLASSIFICATION:
        assert np.all(y == np.round(y))
        y = y.astype(np.int64)
    return x, y, header[:-1]


def blobs() -> np.ndarray:
    """The clustering goldens' 600 points: 4 Gaussian blobs of 150 in 2-D (unit variance,
    centres (0, 0), (5, 5), (0, 6), (6, -1)), numpy seed 20261125. Stored in the cases that use
    it, so the Rust side never regenerates it."""
    rng = np.random.default_rng(20261125)
    centers = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0], [6.0, -1.0]])
    return np.concatenate([c + rng.standard_normal((150, 2)) for c in centers])


def diabetes_scaled(x: np.ndarray) -> np.ndarray:
    """sklearn's load_diabetes(scaled=True): sklearn.preprocessing.scale (centre,
    divide by the ddof=0 standard deviation) and then divide by sqrt(n_samples),
    so every column has mean 0 and unit L2 norm."""
    from sklearn.preprocessing import scale

    out = scale(np.array(x, dtype=np.float64, copy=True), copy=False)
    out /= x.shape[0] ** 0.5
    return out


# ------------------------------------------------------------------ conventions
def sign_normalize_columns(v: np.ndarray, min_margin: float = 1e-6):
    """Flip each column so that its largest-|.| component is positive.

    Returns (normalised copy, signs applied). Asserts that in every column the
    largest |.| beats the runner-up by ``min_margin`` (relative), so another
    implementation picks the same component despite rounding."""
    v = np.array(v, dtype=np.float64, copy=True)
    signs = np.ones(v.shape[1])
    for j in range(v.shape[1]):
        mags = np.abs(v[:, j])
        order = np.argsort(mags)[::-1]
        if len(order) > 1:
            top, second = mags[order[0]], mags[order[1]]
            assert top - second > min_margin * top, (
                f"column {j}: ambiguous sign pivot ({top} vs {second})"
            )
        if v[order[0], j] < 0:
            v[:, j] *= -1.0
            signs[j] = -1.0
    return v, signs


# ------------------------------------------------------------------ JSON
def _to_jsonable(obj, where="cases"):
    if isinstance(obj, dict):
        return {str(k): _to_jsonable(v, f"{where}.{k}") for k, v in obj.items()}
    if isinstance(obj, str):
        return obj
    if isinstance(obj, (bool, np.bool_)):
        raise TypeError(f"{where}: booleans are not part of the format")
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        if not math.isfinite(f):
            raise ValueError(f"{where}: non-finite value {f!r}")
        return f
    if isinstance(obj, np.ndarray):
        if obj.ndim > 2:
            raise ValueError(f"{where}: ndim {obj.ndim} > 2")
        if obj.dtype.kind in "iu":
            return obj.tolist()
        if obj.dtype.kind != "f":
            raise TypeError(f"{where}: dtype {obj.dtype}")
        if not np.all(np.isfinite(obj)):
            raise ValueError(f"{where}: non-finite values")
        return obj.astype(np.float64).tolist()
    if isinstance(obj, (list, tuple)):
        return [_to_jsonable(v, where) for v in obj]
    raise TypeError(f"{where}: unsupported type {type(obj)}")


def write_json(path, cases: dict, generator: str, note: str = "") -> Path:
    """Write {"meta": {...}, "cases": {...}}; one case per line, full repr
    precision (Python's json uses float.__repr__, which round-trips)."""
    path = Path(path)
    if not path.is_absolute():
        path = ROOT / path
    meta = {"generator": generator, **versions(), "note": note}
    cases = _to_jsonable(cases)
    doc = {"meta": meta, "cases": cases}

    parts = ["{", '"meta": ' + json.dumps(meta, allow_nan=False) + ",", '"cases": {']
    names = list(cases)
    for i, name in enumerate(names):
        body = json.dumps(cases[name], allow_nan=False, separators=(",", ":"))
        parts.append(json.dumps(name) + ": " + body + ("," if i + 1 < len(names) else ""))
    parts.append("}")
    parts.append("}")
    text = "\n".join(parts) + "\n"

    assert json.loads(text) == doc, "JSON writer produced a different document"
    size = len(text.encode("utf-8"))
    assert size <= MAX_JSON_BYTES, f"{path}: {size} bytes > {MAX_JSON_BYTES}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    return path
