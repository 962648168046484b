#!/usr/bin/env python3
"""Extract the small toy data sets that ship inside scikit-learn into uniform CSVs.

Reads the raw data files from the *installed* scikit-learn package
(``sklearn/datasets/data/``) and writes, under ``datasets/data/``:

    iris.csv, wine.csv, breast_cancer.csv, digits.csv, diabetes.csv
    target_names.json

Every CSV has a header row of CSV-safe feature names followed by a final
``target`` column.  Numbers are written so that they parse back to exactly
the same float64 value (integral values without a trailing ``.0``, all other
values as Python's shortest round-trip ``repr``).  Classification targets are
integer class indices 0..k-1; diabetes keeps the raw, unscaled features and
the raw target.

The script is idempotent: running it again rewrites byte-identical files.
After writing, every file is re-read and compared (np.array_equal) with
sklearn's own ``load_*(return_X_y=True)`` (``load_diabetes(scaled=False)``).

Usage:  target/golden-venv/bin/python scripts/golden/extract_datasets.py
"""

from __future__ import annotations

import csv
import gzip
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import sklearn
from sklearn import datasets as skd

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "datasets" / "data"
SK_DATA = Path(skd.__file__).resolve().parent / "data"


def csv_safe(name: str) -> str:
    """'sepal length (cm)' -> 'sepal_length_cm'; 'od280/od315_of_diluted_wines'
    -> 'od280_od315_of_diluted_wines'.  Every run of characters other than
    [a-z0-9] becomes one underscore; leading/trailing underscores are dropped."""
    s = re.sub(r"[^a-z0-9]+", "_", str(name).lower())
    return s.strip("_")


def fmt(v) -> str:
    """Round-trip-exact text for one number."""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if not math.isfinite(v):
        raise ValueError(f"non-finite value {v!r}")
    if v.is_integer() and abs(v) < 2.0**53 and not (v == 0.0 and math.copysign(1.0, v) < 0):
        return str(int(v))
    return repr(v)


# ---------------------------------------------------------------- raw readers
def read_sklearn_csv(filename: str, gz: bool = False):
    """Read sklearn's '<n_samples>,<n_features>,<target names...>' style CSV."""
    opener = gzip.open if gz else open
    with opener(SK_DATA / filename, "rt", newline="") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    n_samples, n_features = int(header[0]), int(header[1])
    target_names = header[2:]
    body = rows[1:]
    assert len(body) == n_samples, (filename, len(body), n_samples)
    x = np.array([[float(t) for t in r[:n_features]] for r in body], dtype=np.float64)
    y = np.array([int(r[n_features]) for r in body], dtype=np.int64)
    assert all(len(r) == n_features + 1 for r in body)
    return x, y, target_names


def read_digits():
    with gzip.open(SK_DATA / "digits.csv.gz", "rt", newline="") as fh:
        rows = [r for r in csv.reader(fh) if r]
    arr = np.array([[float(t) for t in r] for r in rows], dtype=np.float64)
    x, y = arr[:, :-1], arr[:, -1]
    assert np.all(y == np.round(y))
    return x, y.astype(np.int64)


def read_whitespace_gz(filename: str):
    with gzip.open(SK_DATA / filename, "rt") as fh:
        rows = [line.split() for line in fh if line.strip()]
    return np.array([[float(t) for t in r] for r in rows], dtype=np.float64)


# ---------------------------------------------------------------- writer
def write_csv(path: Path, header, x, y):
    lines = [",".join(header + ["target"])]
    for row, t in zip(x, y):
        lines.append(",".join([fmt(v) for v in row] + [fmt(t)]))
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8", newline="\n")


def reread(path: Path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    arr = np.array([[float(t) for t in r] for r in rows[1:]], dtype=np.float64)
    return header, arr[:, :-1], arr[:, -1]


def main() -> int:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    target_names = {}
    summary = {}

    # name -> (loader for reference, raw reader, is_classification)
    specs = []

    # iris
    x, y, tn = read_sklearn_csv("iris.csv")
    b = skd.load_iris()
    specs.append(("iris", x, y, b.feature_names, skd.load_iris(return_X_y=True)))
    target_names["iris"] = [str(t) for t in b.target_names]
    assert list(tn) == target_names["iris"]

    # wine
    x, y, tn = read_sklearn_csv("wine_data.csv")
    b = skd.load_wine()
    specs.append(("wine", x, y, b.feature_names, skd.load_wine(return_X_y=True)))
    target_names["wine"] = [str(t) for t in b.target_names]
    assert list(tn) == target_names["wine"]

    # breast cancer
    x, y, tn = read_sklearn_csv("breast_cancer.csv")
    b = skd.load_breast_cancer()
    specs.append(
        ("breast_cancer", x, y, list(b.feature_names), skd.load_breast_cancer(return_X_y=True))
    )
    target_names["breast_cancer"] = [str(t) for t in b.target_names]
    assert list(tn) == target_names["breast_cancer"]

    # digits
    x, y = read_digits()
    b = skd.load_digits()
    specs.append(("digits", x, y, b.feature_names, skd.load_digits(return_X_y=True)))
    target_names["digits"] = [str(t) for t in b.target_names]

    # diabetes (raw features + raw target)
    x = read_whitespace_gz("diabetes_data_raw.csv.gz")
    y = read_whitespace_gz("diabetes_target.csv.gz").reshape(-1)
    b = skd.load_diabetes(scaled=False)
    specs.append(
        ("diabetes", x, y, b.feature_names, skd.load_diabetes(scaled=False, return_X_y=True))
    )

    for name, x, y, feats, (xr, yr) in specs:
        header = [csv_safe(f) for f in feats]
        assert len(set(header)) == len(header), f"{name}: duplicate column names"
        assert "target" not in header
        assert x.shape == xr.shape and y.shape == yr.shape, name
        path = OUT_DIR / f"{name}.csv"
        write_csv(path, header, x, y)
        h2, x2, y2 = reread(path)
        assert h2 == header + ["target"], name
        assert np.array_equal(x2, xr), f"{name}: features differ from sklearn load_*"
        assert np.array_equal(y2, yr), f"{name}: target differs from sklearn load_*"
        summary[name] = (x.shape[0], x.shape[1] + 1, path.stat().st_size)

    # diabetes: the default (scaled) loader must be reproducible from the raw file
    xs = skd.load_diabetes(return_X_y=True)[0]
    _, xraw, _ = reread(OUT_DIR / "diabetes.csv")
    c = xraw - xraw.mean(axis=0)
    alt = c / (xraw.std(axis=0) * math.sqrt(xraw.shape[0]))
    assert np.allclose(alt, xs, rtol=0, atol=1e-15), "diabetes scaling note is wrong"
    assert np.allclose((xs**2).sum(axis=0), 1.0, rtol=0, atol=1e-12)

    tn_path = OUT_DIR / "target_names.json"
    tn_path.write_text(json.dumps(target_names, indent=2) + "\n", encoding="utf-8")
    assert json.loads(tn_path.read_text()) == target_names

    print(f"scikit-learn {sklearn.__version__} from {SK_DATA}")
    for name, (r, c, size) in summary.items():
        print(f"  {name:14s} rows={r:5d} cols={c:3d} (incl. target) bytes={size}")
    print(f"  target_names.json bytes={tn_path.stat().st_size}")
    print("all CSVs re-read equal (np.array_equal) to sklearn load_*(return_X_y=True)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
