#!/usr/bin/env python3
"""Golden reference for `ndlearn fit / predict / cv` on a raw table (text columns, missing cells).

Writes datasets/golden/cli/raw_table.json: scikit-learn 1.9.1's

    Pipeline([("pre", ColumnTransformer([
                  ("num", SimpleImputer(strategy="mean"), numeric columns),
                  ("cat", Pipeline([("imp", SimpleImputer(strategy="most_frequent")),
                                    ("oh", OneHotEncoder(handle_unknown="ignore"))]), text columns)])),
              ("lr", LogisticRegression(solver="newton-cholesky", tol=1e-8, max_iter=10000))])

on datasets/data/penguins.csv (Palmer penguins, `species` as the target; cells `NA` or empty are
missing, as pandas reads them). Train rows `i % 4 != 0`, test rows `i % 4 == 0`; in the test rows
with `i % 8 == 0` the island is replaced by `Atlantis`, a category never seen at fit (encoded as
all zeros). Newton's method reaches the optimum of this unscaled problem (L-BFGS stops 0.03 away
in probability); at tol 1e-8 the probabilities agree with tol 1e-10 and 1e-12 runs to about 1e-12
(tighter tols make its line search warn at the optimum), so the Rust side fits with its Newton
solver.

  proba        class probabilities of the test rows (columns: classes in sorted order)
  labels       predicted class index of the test rows
  classes      the class names in sorted order
  cv_accuracy  cross_val_score(..., cv=StratifiedKFold(5)) on all rows (accuracy)

Usage:  target/golden-venv/bin/python scripts/golden/cli_raw_table.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA_DIR, GOLDEN_DIR, write_json  # noqa: E402

GENERATOR = "scripts/golden/cli_raw_table.py"
OUT = GOLDEN_DIR / "cli" / "raw_table.json"
MISSING = {"", "NA"}
NUMERIC = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"]
TEXT = ["island", "sex"]


def read():
    with open(DATA_DIR / "penguins.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head, rows = rows[0], rows[1:]
    feats = [h for h in head if h != "species"]
    x = np.empty((len(rows), len(feats)), dtype=object)
    for i, r in enumerate(rows):
        d = dict(zip(head, r))
        for j, f in enumerate(feats):
            v = d[f].strip()
            x[i, j] = np.nan if v in MISSING else (float(v) if f in NUMERIC else v)
    y = np.array([dict(zip(head, r))["species"] for r in rows])
    return x, y, feats


def model(feats):
    pre = ColumnTransformer([
        ("num", SimpleImputer(strategy="mean"), [feats.index(c) for c in NUMERIC]),
        ("cat", Pipeline([
            ("imp", SimpleImputer(strategy="most_frequent")),
            ("oh", OneHotEncoder(handle_unknown="ignore")),
        ]), [feats.index(c) for c in TEXT]),
    ])
    lr = LogisticRegression(solver="newton-cholesky", tol=1e-8, max_iter=10000)
    return Pipeline([("pre", pre), ("lr", lr)])


def main() -> None:
    x, y, feats = read()
    idx = np.arange(len(y))
    tr, te = idx % 4 != 0, idx % 4 == 0
    xte = x[te].copy()
    island = feats.index("island")
    for k, i in enumerate(idx[te]):
        if i % 8 == 0:
            xte[k, island] = "Atlantis"
    fitted = model(feats).fit(x[tr], y[tr])
    classes = [str(c) for c in fitted.classes_]
    proba = fitted.predict_proba(xte)
    labels = np.array([classes.index(c) for c in fitted.predict(xte)], dtype=np.int64)
    cv = cross_val_score(model(feats), x, y, cv=StratifiedKFold(5), scoring="accuracy")
    case = {
        "classes": classes,
        "proba": proba,
        "labels": labels,
        "cv_accuracy": cv,
        "n_iter": int(fitted[-1].n_iter_[0]),
    }
    note = (
        "scikit-learn 1.9.1 Pipeline(ColumnTransformer(SimpleImputer(mean) | SimpleImputer("
        "most_frequent) + OneHotEncoder(handle_unknown='ignore')), LogisticRegression(newton-"
        "cholesky, tol 1e-8)) on penguins.csv; train i % 4 != 0, test i % 4 == 0 with island = "
        "'Atlantis' where i % 8 == 0."
    )
    write_json(OUT, {"penguins_logistic": case}, GENERATOR, note)


if __name__ == "__main__":
    main()
