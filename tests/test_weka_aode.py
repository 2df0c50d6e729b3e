"""AODE agrees with Weka 3.6's AODE (and, on numeric data, with Weka's supervised
Discretize filter followed by AODE): every training instance's class distribution,
from tests/data/reference/weka_aode.json (made by scripts/reference/make_weka_aode.py)."""

import json
import os

import numpy as np
import pytest

from seminaive import AODE, AnDE
from seminaive.data import load_file

HERE = os.path.dirname(__file__)
REFERENCE = json.load(open(os.path.join(HERE, "data", "reference", "weka_aode.json")))


@pytest.mark.parametrize("key", sorted(REFERENCE))
def test_class_distributions_equal_weka(key):
    name, setting = key.split("/")
    d = load_file(os.path.join(HERE, "data", "weka", f"{name}.arff"))
    limit = int(setting[1:]) if setting.startswith("F") else 1
    model = AODE(min_count=limit, numeric="mdl").fit(d)  # MDL as Weka's filter (no fallback); the file's class order
    assert list(model.classes_) == list(d.classes)  # Weka's order: the declared one
    np.testing.assert_allclose(model.predict_proba(d.X), np.asarray(REFERENCE[key]), rtol=1e-10, atol=1e-13)


def test_the_reference_can_see_a_wrong_model():
    """A different smoothing gives different distributions: the comparison is not vacuous."""
    d = load_file(os.path.join(HERE, "data", "weka", "vote.arff"))
    other = AnDE(n=1, alpha=0.5).fit(d).predict_proba(d.X)
    assert np.abs(other - np.asarray(REFERENCE["vote/F1"])).max() > 1e-3
