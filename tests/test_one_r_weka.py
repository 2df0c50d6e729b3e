"""1R against Weka 3.6's OneR on its own example data (the rules recorded by
scripts/reference/make_weka_oner.py): every attribute's rule, its training
count correct, and the attribute chosen, for minimum buckets 1, 3, 6 and 10."""

import json
import pathlib

import numpy as np
import pytest

from seminaive import OneR
from seminaive.data import read_arff

DATA = pathlib.Path(__file__).parent / "data"
WEKA = json.loads((DATA / "reference" / "weka_oner.json").read_text())


def _weka_branches(rule):
    """(cut points, classes of the intervals or values, class of the missing branch or None)."""
    cuts, classes, missing = [], [], None
    for cond, cls in rule["branches"]:
        if cond == "?":
            missing = cls
            continue
        if cond.startswith("< "):
            cuts.append(float(cond[2:]))
        classes.append(cls)
    return cuts, classes, missing


@pytest.fixture(scope="module")
def data():
    return {name: read_arff(DATA / "weka" / f"{name}.arff") for name in {k.split("/")[0] for k in WEKA}}


@pytest.mark.parametrize("key", sorted(WEKA))
def test_every_attributes_rule_equals_wekas(key, data):
    name, bucket = key.split("/")
    d = data[name]
    m = OneR(min_bucket=int(bucket[1:])).fit(d)
    for j, want in enumerate(WEKA[key]["per_attribute"]):
        a = d.schema.attributes[j]
        assert a.name == want["attribute"]
        rule = m.rules_[j]
        total = m.class_count_.sum()
        assert total - rule["errors"] == want["correct"], (key, a.name)
        cuts, classes, missing = _weka_branches(want)
        got_classes = [str(m.classes_[c]) for c in rule["classes"][:-1]]
        if a.is_nominal:
            seen = np.asarray(rule["counts"])[:-1].sum(axis=1) > 0  # Weka gives unseen values class 0; we the majority
            assert [c for c, s in zip(got_classes, seen) if s] == [c for c, s in zip(classes, seen) if s], (key, a.name)
        else:
            np.testing.assert_allclose(rule["cuts"], cuts, rtol=1e-12, err_msg=f"{key} {a.name}")
            assert got_classes == classes, (key, a.name)
        if missing is not None:
            assert str(m.classes_[rule["classes"][-1]]) == missing


@pytest.mark.parametrize("key", sorted(WEKA))
def test_the_chosen_rule_equals_wekas(key, data):
    name, bucket = key.split("/")
    m = OneR(min_bucket=int(bucket[1:])).fit(data[name])
    want = WEKA[key]["chosen"]
    assert m.schema_.attributes[m.attribute_].name == want["attribute"]
    assert m.score(data[name].X, data[name].y) * want["total"] == pytest.approx(want["correct"])
