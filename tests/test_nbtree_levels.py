"""NBTree grown level by level (``folds="hashed"``, :mod:`seminaive.bayesnet.nbtree_levels`): its tree
and class distributions against the rule written plainly (a recursive growth that refits Naive Bayes on
each fold's other rows), its invariants (copies are weights, rows and values in any order, batches of
any size) and its fits from chunks; the differential matrix (tests/test_every_path.py) has it from
every source."""

import numpy as np
import pandas as pd
import pytest

from seminaive import NBTree
from seminaive.bayesnet import nbtree_levels
from seminaive.bayesnet.nbtree_grow import SMALL, node_counts, weka_proba
from seminaive.bayesnet.nbtree_levels import content_folds, value_hashes
from seminaive.components.categorical import reader_codes
from seminaive.exceptions import ParameterError
from seminaive.scale import fit_file


def generate(seed, n=400):
    """Classes from an interaction of two attributes (a tree's business), noise, a numeric column,
    missing values."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 3, n), rng.integers(0, 2, n)
    c = rng.integers(0, 4, n)
    x = rng.normal(0, 1, n)
    signal = np.where(a == 0, b, np.where(a == 1, c >= 2, 1 - b)).astype(int)
    y = np.where(rng.random(n) < 0.85, signal, 1 - signal)
    frame = pd.DataFrame({"a": [f"a{v}" for v in a], "b": [f"b{v}" for v in b], "c": [f"c{v}" for v in c],
                          "x": x + y * 0.8, "d": rng.choice(["u", "v"], n)})
    for col in ("a", "c", "x"):
        frame.loc[rng.random(n) < 0.08, col] = np.nan
    return frame, np.where(y == 1, "pos", "neg")


def _cv(codes, y, rows, w, folds, widths, k):
    """5-fold errors of Naive Bayes refitted on each fold's other rows."""
    errors = 0.0
    for f in range(5):
        test, train = folds[rows] == f, folds[rows] != f
        if not test.any():
            continue
        model = node_counts(codes, y, rows[train], w[train], widths, k)
        guess = np.argmax(weka_proba(*model, widths, codes[rows[test]], normalize=False), axis=1)
        errors += float(w[test][guess != y[rows[test]]].sum())
    return errors


def reference(codes, y, rows, w, folds, widths, k, min_instances=30, min_improvement=0.05):
    """The rule, written plainly: (class counts, attribute, children) nested."""
    cls = node_counts(codes, y, rows, w, widths, k)[0]
    leaf = (cls, -1, [])
    total = cls.sum()
    if total < 5 - SMALL or total < min_instances - SMALL or abs(total - cls.max()) < SMALL:
        return leaf
    own = _cv(codes, y, rows, w, folds, widths, k)
    if own <= 0:
        return leaf
    best, least, tie = None, own, 1e-9 * max(1.0, total)
    for a in range(codes.shape[1]):
        v = codes[rows, a]
        per_bag = np.bincount(v[v >= 0], w[v >= 0], minlength=widths[a])
        if np.count_nonzero(2.0 - per_bag < SMALL) <= 1:
            continue
        shares = per_bag / per_bag.sum()
        subsets = [((v == j) | (v < 0), shares[j]) for j in range(widths[a])]
        weights = [np.where(v[t] < 0, w[t] * s, w[t]) for t, s in subsets]
        crossed = [ww.sum() >= 5 - SMALL for ww in weights]
        if sum(crossed) < 2:
            continue
        e = sum(_cv(codes, y, rows[t], ww, folds, widths, k) if cr else ww.sum()
                for (t, _), ww, cr in zip(subsets, weights, crossed))
        if e < least - tie:
            best, least = (a, shares), e
    if best is None or (own - least) / own < min_improvement:
        return leaf
    a, shares = best
    v = codes[rows, a]
    children = []
    for j, s in enumerate(shares):
        t = (v == j) | ((v < 0) & (s > 0))
        children.append(reference(codes, y, rows[t], np.where(v[t] < 0, w[t] * s, w[t]), folds, widths, k,
                                  min_instances, min_improvement))
    return cls, a, children


def _nested(nodes, at=0):
    node = nodes[at]
    return node["counts"][0], node["attribute"], [_nested(nodes, c) for c in node["children"]]


def _by_label(model, at=0):
    """The tree with each branch named by its value's text (a file declares values in the order seen)."""
    node = model.nodes_[at]
    a = node["attribute"]
    labels = [] if a < 0 else model.schema_.attributes[model.readers_[a].attribute].values or range(len(node["children"]))
    branches = sorted((str(v), c) for v, c in zip(labels, node["children"]))
    return node["counts"][0], a, [_by_label(model, c) for _, c in branches]


def _assert_same_tree(got, want, where="root"):
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12, err_msg=where)
    assert got[1] == want[1], where
    assert len(got[2]) == len(want[2]), where
    for j, (g, w) in enumerate(zip(got[2], want[2])):
        _assert_same_tree(g, w, f"{where}/{j}")


def _codes(model, X):
    table = model._encode(X)
    return np.asarray(reader_codes(model.readers_, table)).T.reshape(table.n_samples, len(model.readers_)).astype(np.int64)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("min_instances", [30, 10])
def test_the_tree_is_the_rule_refitted_plainly(seed, min_instances):
    X, y = generate(seed)
    m = NBTree(folds="hashed", min_instances=min_instances).fit(X, y)
    codes, yc = _codes(m, X), np.searchsorted(m.classes_, y)
    folds = content_folds(codes, yc, value_hashes(m))
    want = reference(codes, yc, np.arange(len(yc)), np.ones(len(yc)), folds, m.widths_, 2, min_instances)
    _assert_same_tree(_nested(m.nodes_), want)
    assert m.n_leaves_ > 1  # the interaction is found: a tree, not a leaf


def test_folds_are_five_and_balanced_and_copies_share_one():
    X, y = generate(0, n=2000)
    m = NBTree(folds="hashed").fit(X, y)
    codes, yc = _codes(m, X), np.searchsorted(m.classes_, y)
    folds = content_folds(codes, yc, value_hashes(m))
    sizes = np.bincount(folds, minlength=5)
    assert sizes.size == 5 and sizes.min() > 0.1 * len(yc)
    doubled = content_folds(np.vstack([codes, codes]), np.concatenate([yc, yc]), value_hashes(m))
    assert (doubled[:len(yc)] == doubled[len(yc):]).all()


@pytest.mark.parametrize("seed", range(3))
def test_weights_are_copies_and_row_order_does_not_matter(seed):
    X, y = generate(seed)
    rng = np.random.default_rng(100 + seed)  # not generate's stream
    w = rng.integers(0, 3, len(y))
    weighted = NBTree(folds="hashed").fit(X, y, sample_weight=w)
    copies = NBTree(folds="hashed").fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    order = rng.permutation(len(y))
    shuffled = NBTree(folds="hashed").fit(X.iloc[order], y[order])
    plain = NBTree(folds="hashed").fit(X, y)
    np.testing.assert_allclose(weighted.predict_proba(X), copies.predict_proba(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(shuffled.predict_proba(X), plain.predict_proba(X), rtol=1e-9, atol=1e-12)
    assert weighted.n_leaves_ == copies.n_leaves_ and shuffled.n_leaves_ == plain.n_leaves_


def test_values_declared_in_another_order_give_the_same_tree():
    X, y = generate(1)
    other = X.copy()
    for col in ("a", "c", "d"):
        values = sorted(X[col].dropna().unique())
        other[col] = pd.Categorical(X[col], categories=values[::-1])
    one, two = NBTree(folds="hashed").fit(X, y), NBTree(folds="hashed").fit(other, y)
    assert one.n_leaves_ == two.n_leaves_
    np.testing.assert_allclose(one.predict_proba(X), two.predict_proba(other), rtol=1e-12, atol=1e-12)


def test_batches_of_one_node_grow_the_same_tree(monkeypatch):
    X, y = generate(2)
    whole = NBTree(folds="hashed", min_instances=10).fit(X, y)
    monkeypatch.setattr(nbtree_levels, "BUDGET", 1)  # every node its own two passes
    one_by_one = NBTree(folds="hashed", min_instances=10).fit(X, y)
    _assert_same_tree(_nested(one_by_one.nodes_), _nested(whole.nodes_))
    assert whole.n_leaves_ > 2


@pytest.mark.parametrize("chunksize", [7, 64, 1000])
def test_a_file_in_chunks_gives_the_tree_in_memory(tmp_path, chunksize):
    X, y = generate(3)
    path = tmp_path / "t.csv"
    X.assign(cls=y).to_csv(path, index=False)
    frame = pd.read_csv(path)
    memory = NBTree(folds="hashed", min_instances=10).fit(frame.drop(columns="cls"), frame["cls"])
    chunked = fit_file(NBTree(folds="hashed", min_instances=10), path, chunksize=chunksize)
    _assert_same_tree(_by_label(chunked), _by_label(memory))
    np.testing.assert_allclose(chunked.predict_proba(X), memory.predict_proba(X), rtol=1e-12, atol=1e-12)


def test_shuffled_folds_from_chunks_are_refused_in_one_line(tmp_path):
    X, y = generate(0, n=50)
    path = tmp_path / "t.csv"
    X.assign(cls=y).to_csv(path, index=False)
    with pytest.raises(ParameterError, match='folds="hashed"'):
        fit_file(NBTree(folds="shuffled"), path, chunksize=10)
