#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::resampling (class and sample weights).

Writes datasets/golden/core/resampling.json: sklearn.utils.class_weight.compute_class_weight
("balanced", with and without sample_weight, and explicit dicts) and compute_sample_weight
("balanced", dicts, and "balanced" on bootstrap indices) on seeded imbalanced label vectors
and on the embedded breast_cancer / wine targets. The samplers (random under/over-sampling,
SMOTE) are seeded with a different generator than imbalanced-learn and are checked by
properties instead.

Usage:  target/golden-venv/bin/python scripts/golden/core_resampling.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.utils.class_weight import compute_class_weight, compute_sample_weight

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_resampling.py"
OUT = GOLDEN_DIR / "core" / "resampling.json"

NOTE = (
    "class_weight_*: compute_class_weight(class_weight, classes=classes, y=y[, sample_weight]) "
    "with class_weight 'balanced' or the dict given as parallel arrays dict_keys/dict_values; "
    "sample_weight_*: compute_sample_weight(class_weight, y[, indices]). Labels are class "
    "indices 0..K-1."
)


def main() -> None:
    rng = np.random.default_rng(11)
    cases: dict = {}
    # Imbalanced labels: probabilities 0.6, 0.25, 0.1, 0.05 over 4 classes.
    y = rng.choice(4, size=200, p=[0.6, 0.25, 0.1, 0.05]).astype(np.int64)
    classes = np.arange(4)
    cases["class_weight_balanced"] = {
        "y": y,
        "classes": classes,
        "weights": compute_class_weight("balanced", classes=classes, y=y),
    }
    perm = np.array([2, 0, 3, 1])
    cases["class_weight_balanced_order"] = {
        "y": y,
        "classes": perm,
        "weights": compute_class_weight("balanced", classes=perm, y=y),
    }
    sw = rng.uniform(0.1, 3.0, size=y.shape[0])
    cases["class_weight_balanced_sample_weight"] = {
        "y": y,
        "classes": classes,
        "sample_weight": sw,
        "weights": compute_class_weight("balanced", classes=classes, y=y, sample_weight=sw),
    }
    cw = {0: 0.5, 2: 3.0}
    cases["class_weight_dict"] = {
        "y": y,
        "classes": classes,
        "dict_keys": np.array(list(cw), dtype=np.int64),
        "dict_values": np.array(list(cw.values()), dtype=np.float64),
        "weights": compute_class_weight(cw, classes=classes, y=y),
    }
    for name in ("breast_cancer", "wine"):
        _, yd, _ = load_dataset(name)
        cls = np.unique(yd)
        cases[f"class_weight_balanced_{name}"] = {
            "y": yd,
            "classes": cls,
            "weights": compute_class_weight("balanced", classes=cls, y=yd),
        }
        cases[f"sample_weight_balanced_{name}"] = {
            "y": yd,
            "weights": compute_sample_weight("balanced", yd),
        }
    cases["sample_weight_dict"] = {
        "y": y,
        "dict_keys": np.array(list(cw), dtype=np.int64),
        "dict_values": np.array(list(cw.values()), dtype=np.float64),
        "weights": compute_sample_weight(cw, y),
    }
    # A bootstrap that misses class 3 entirely (its samples get weight 0).
    pool = np.flatnonzero(y != 3)
    idx = rng.choice(pool, size=150, replace=True).astype(np.int64)
    assert not np.any(y[idx] == 3)
    cases["sample_weight_balanced_indices"] = {
        "y": y,
        "indices": idx,
        "weights": compute_sample_weight("balanced", y, indices=idx),
    }
    idx2 = rng.choice(y.shape[0], size=200, replace=True).astype(np.int64)
    cases["sample_weight_balanced_bootstrap"] = {
        "y": y,
        "indices": idx2,
        "weights": compute_sample_weight("balanced", y, indices=idx2),
    }
    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
