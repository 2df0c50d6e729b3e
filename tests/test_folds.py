"""The one fold maker: stratified, balanced, seeded folds that depend only on
the class labels in data order; the searches, selective kDB, calibration and
``evaluate`` all draw exactly these folds for the same data and seed."""

import pathlib

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.core.folds import fold_pairs, stratified_folds
from seminaive.bayesnet import SelectiveKDB
from seminaive.calibration import Calibrated
from seminaive.data import read_arff
from seminaive.evaluation import evaluate
from seminaive.search import BSE


@pytest.mark.parametrize("seed", range(8))
def test_folds_are_stratified_balanced_and_seeded(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(10, 200)), int(rng.integers(2, 9))
    y = rng.choice(["a", "b", "c", "d"], n, p=[0.5, 0.3, 0.15, 0.05])
    k = min(k, n)
    fold = stratified_folds(y, k, seed)
    sizes = np.bincount(fold, minlength=k)
    assert sizes.max() - sizes.min() <= 1  # balanced
    for c in np.unique(y):  # every class spread over the folds within one row
        per_fold = np.bincount(fold[y == c], minlength=k)
        assert per_fold.max() - per_fold.min() <= 1
    assert np.array_equal(fold, stratified_folds(list(y), k, seed))  # deterministic, any sequence
    # the labels decide, not the codes a model gives them: a categorical with another category order
    cat = pd.Categorical(y, categories=["d", "c", "b", "a"])
    assert np.array_equal(fold, stratified_folds(np.asarray(cat, dtype=object), k, seed))
    assert not np.array_equal(fold, stratified_folds(y, k, seed + 100))  # the seed matters
    pairs = fold_pairs(fold)
    assert sorted(np.concatenate([te for _, te in pairs]).tolist()) == list(range(n))
    assert all(np.intersect1d(tr, te).size == 0 and tr.size + te.size == n for tr, te in pairs)


def test_too_many_folds_is_one_clear_error():
    from seminaive import ParameterError
    with pytest.raises(ParameterError, match=r"cv: expected at most as many folds as instances \(n_samples=3\)"):
        stratified_folds(["a", "b", "a"], 5)


@pytest.fixture(scope="module")
def data():
    d = read_arff(pathlib.Path(__file__).parent / "data" / "weka" / "vote.arff")
    return d.X, d.y.astype(str), fold_pairs(stratified_folds(d.y.astype(str).to_numpy(), 5, 4))


def test_bse_draws_the_one_folds(data):
    X, y, folds = data
    a = BSE(cv=5, random_state=4).fit(X, y)
    b = BSE(cv=folds, random_state=4).fit(X, y)
    assert [h["score"] for h in a.history_] == [h["score"] for h in b.history_] and a.structure_ == b.structure_
    c = BSE(cv=5, random_state=5).fit(X, y)  # another seed, other folds: another path of scores
    assert [h["score"] for h in c.history_] != [h["score"] for h in a.history_]


def test_selective_kdb_draws_the_one_folds(data):
    X, y, folds = data
    a = SelectiveKDB(k=2, cv=5, random_state=4).fit(X, y)
    b = SelectiveKDB(k=2, cv=list(folds), random_state=4).fit(X, y)
    assert a.history_ == b.history_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_calibration_draws_the_one_folds(data):
    X, y, folds = data
    a = Calibrated(NaiveBayes(), method="isotonic", cv=5, random_state=4).fit(X, y)
    b = Calibrated(NaiveBayes(), method="isotonic", cv=folds, random_state=4).fit(X, y)
    assert a.cv_used_ == b.cv_used_ == "5-fold (5 refits)"
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_evaluate_draws_the_one_folds(data):
    X, y, folds = data
    r = evaluate(NaiveBayes(), X, y, cv=5, random_state=4)
    want = [float(np.mean(NaiveBayes().fit(X.iloc[tr], y.iloc[tr]).predict(X.iloc[te]) == y.iloc[te].to_numpy()))
            for tr, te in folds]
    np.testing.assert_allclose(r.fold_accuracy, want, rtol=0, atol=1e-15)
