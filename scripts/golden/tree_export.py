"""Golden references for ndlearn-tree's text export: scikit-learn's `export_text` of fitted
trees (the trees themselves equal ndlearn's on float32-representable data, see tree.py).

Writes datasets/golden/tree/export.json: per case the estimator kind, the data set, the tree's
hyperparameters (JSON string), the export options and the text.
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

from common import diabetes_scaled, load_dataset, write_json


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def main():
    cases = {}
    iris_x, iris_y, iris_names = load_dataset("iris")
    iris_x = f32(iris_x)
    dia_x, dia_y, dia_names = load_dataset("diabetes")
    dia_x = f32(diabetes_scaled(dia_x))
    settings = [
        ("iris_depth3_names", "classifier", "iris", dict(max_depth=3),
         dict(feature_names=list(iris_names))),
        ("iris_full_truncated", "classifier", "iris", dict(),
         dict(max_depth=2, decimals=3)),
        ("iris_depth2_weights", "classifier", "iris", dict(max_depth=2),
         dict(show_weights=True, spacing=2)),
        ("diabetes_depth2", "regressor", "diabetes", dict(max_depth=2), dict()),
    ]
    for name, kind, ds, params, opts in settings:
        x, y = (iris_x, iris_y) if ds == "iris" else (dia_x, dia_y)
        make = DecisionTreeClassifier if kind == "classifier" else DecisionTreeRegressor
        m = make(random_state=0, **params).fit(x, y)
        cases[name] = dict(
            kind=kind, dataset=ds, params=json.dumps(params), options=json.dumps(opts),
            text=export_text(m, **opts),
        )
    write_json("datasets/golden/tree/export.json", cases, "scripts/golden/tree_export.py",
               "export_text of fitted trees; inputs rounded to float32")


if __name__ == "__main__":
    main()
