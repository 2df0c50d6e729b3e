"""NBTree against Weka 3.6's NBTree (tests/data/reference/weka_nbtree.json, made by
scripts/reference/make_weka_nbtree.py): its class distributions and its number of leaves; its split
scores against Naive Bayes refitted on each fold; Weka's fold orders against java.util.Random; its
model file and refusals."""

import copy
import json
import os

import numpy as np
import pytest

from seminaive import NBTree, NaiveBayes, load_model, save_model
from seminaive.bayesnet.nbtree_grow import cv_errors
from seminaive.datasets import load
from seminaive.exceptions import ParameterError
from seminaive.learning.java_folds import JavaRandom, fold_positions, randomize, stratify
from seminaive.scale import fit_file

from _weka_data import weka_data

HERE = os.path.dirname(__file__)
REFERENCE = json.load(open(os.path.join(HERE, "data", "reference", "weka_nbtree.json")))


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_class_distributions_and_leaves_equal_wekas(name):
    ref = REFERENCE[name]
    d = weka_data(name)
    m = NBTree(folds="shuffled", subset_order="declared").fit(d)
    assert m.n_leaves_ == ref["leaves"]
    got = m.predict_proba(d.X.iloc[ref["rows"]])
    if ref["classes"] is not None:
        got = got[:, [list(map(str, m.classes_)).index(c) for c in ref["classes"]]]
    np.testing.assert_allclose(got, np.asarray(ref["proba"]), rtol=1e-9, atol=1e-12)


def test_java_random_and_weka_fold_orders():
    """java.util.Random(1).nextInt(10) five times, nextInt(7) and nextInt(16) (a power of two): printed
    by Java 17 (new java.util.Random(1)); Weka's randomize, stratify and testCV as its Instances do."""
    r = JavaRandom(1)
    assert [r.next_int(10) for _ in range(5)] == [5, 8, 7, 3, 4]
    r = JavaRandom(1)
    assert [r.next_int(7) for _ in range(5)] == [4, 4, 1, 0, 6]
    r = JavaRandom(1)
    assert [r.next_int(16) for _ in range(5)] == [11, 1, 6, 6, 3]
    items = randomize(range(10), JavaRandom(1))
    assert sorted(items) == list(range(10)) and items != list(range(10))
    classes = [0, 1, 1, 0, 2, 1, 0, 0, 2, 1]
    dealt = stratify(list(range(10)), classes, 5)
    assert sorted(dealt) == list(range(10))
    first = [classes[i] for i in dealt[:5]]  # one of each class in the first fold's worth, where there are enough
    assert len(set(first)) == 3
    sizes = [b - a for a, b in (fold_positions(12, 5, f) for f in range(5))]
    assert sizes == [3, 3, 2, 2, 2] and fold_positions(12, 5, 0)[0] == 0 and fold_positions(12, 5, 4)[1] == 12


@pytest.mark.parametrize("seed", range(4))
def test_split_scores_equal_refits_of_the_folds(seed):
    """A node's cross-validated errors from its counts against Naive Bayes (Laplace) refitted on the other
    folds, with fractional weights."""
    d = load("keel:tic-tac-toe")
    m = NBTree(folds="shuffled").fit(d)
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(len(d.y), size=60, replace=False))
    codes = np.asarray(np.column_stack([d.X[c].cat.codes.to_numpy() for c in d.X.columns]), dtype=np.int64)
    y = np.array([list(m.classes_).index(v) for v in np.asarray(d.y)])
    w = rng.choice([0.5, 1.0, 2.0], size=rows.size)
    got = cv_errors(codes, y, rows, w, m.widths_, 2)
    want = 0.0
    for f in range(5):
        a, b = fold_positions(rows.size, 5, f)
        test = np.zeros(rows.size, dtype=bool)
        test[a:b] = True
        nb = NaiveBayes(alpha=1.0, priors="laplace").fit(d.X.iloc[rows[~test]], np.asarray(d.y)[rows[~test]],
                                                          sample_weight=w[~test])
        guess = nb.predict(d.X.iloc[rows[test]])
        want += float(w[test][guess != np.asarray(d.y)[rows[test]]].sum())
    assert got == pytest.approx(want, abs=1e-12)


def test_model_file_picture_and_refusals(tmp_path):
    d = load("keel:monk-2")
    m = NBTree(folds="shuffled").fit(d)
    save_model(m, tmp_path / "t.json")
    again = load_model(tmp_path / "t.json")
    np.testing.assert_array_equal(again.predict_proba(d.X), m.predict_proba(d.X))
    assert again.tree_text() == m.tree_text() and "NB 6" in m.tree_text()
    from seminaive.drawing import plot_structure
    fig = plot_structure(m)
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert sum(t.startswith("NB ") for t in labels) == m.n_leaves_
    path = tmp_path / "d.csv"
    d.X.assign(y=d.y).to_csv(path, index=False)
    with pytest.raises(ParameterError, match="cross-validation on the node's rows"):
        fit_file(NBTree(folds="shuffled"), path, chunksize=50)
    assert not hasattr(NBTree(), "partial_fit") and not hasattr(NBTree(folds="shuffled"), "partial_fit")


def test_missing_values_go_down_every_branch():
    """A row missing the root's split value is the weighted sum of its branches' answers."""
    d = weka_data("vote")
    m = NBTree().fit(d)
    root = m.nodes_[0]
    a = m.readers_[root["attribute"]].attribute
    name = m.schema_.names[a]
    row = d.X.iloc[[0]].copy()
    row[name] = np.nan
    got = m.predict_proba(row)[0]
    parts = []
    for j, child in enumerate(root["children"]):
        if m.nodes_[child]["empty"]:
            continue
        branch = copy.deepcopy(m)
        branch.nodes_[0] = m.nodes_[child]  # the branch's subtree as the root: its answer for the same row
        parts.append(root["shares"][j] * branch.predict_proba(row)[0])
    np.testing.assert_allclose(got, np.sum(parts, axis=0), rtol=1e-12)
    assert len(parts) > 1
