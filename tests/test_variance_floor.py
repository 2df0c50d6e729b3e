"""The default Gaussian variance floor (issue 21, item 9): a fraction of the attribute's squared range,
scale-free, mergeable, and no longer losing to scikit-learn on digits."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB

from conftest import mixed_frame
from seminaive import NaiveBayes, load_model, save_model
from seminaive.components import variance_floor

SETS = {"digits": load_digits, "iris": load_iris, "breast cancer": load_breast_cancer, "wine": load_wine}
CV = StratifiedKFold(10, shuffle=True, random_state=0)


def _accuracy(model, X, y):
    return cross_val_score(model, pd.DataFrame(X), y, cv=CV).mean()


@pytest.fixture(scope="module")
def accuracies():
    out = {}
    rng = np.random.default_rng(0)
    for name, load in SETS.items():
        X, y = load(return_X_y=True)
        units = 10.0 ** rng.integers(-3, 4, X.shape[1])
        exact = 2.0 ** rng.integers(-12, 12, X.shape[1])  # units that change no bit of our internal numbers
        standard = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
        out[name] = {"ours": _accuracy(NaiveBayes(), X, y), "ours rescaled": _accuracy(NaiveBayes(), X * exact, y),
                     "old rule": _accuracy(NaiveBayes(var_smoothing_rule="attribute"), X, y),
                     "sklearn": _accuracy(GaussianNB(), X, y),
                     "sklearn rescaled": _accuracy(GaussianNB(), X * units, y),
                     "sklearn standardized": _accuracy(GaussianNB(), standard, y)}
    return out


def test_digits_no_longer_loses_to_gaussiannb(accuracies):
    a = accuracies["digits"]
    assert a["old rule"] < a["sklearn"] - 0.05  # 78.3% against 84.0%: the issue
    assert a["ours"] > a["sklearn"] + 0.03  # 88.2%


@pytest.mark.parametrize("name", ["digits", "iris", "wine"])
def test_at_least_gaussiannb(accuracies, name):
    assert accuracies[name]["ours"] >= accuracies[name]["sklearn"]


@pytest.mark.parametrize("name", list(SETS))
def test_at_least_gaussiannb_on_standardized_data_and_unmoved_by_units(accuracies, name):
    """GaussianNB's floor is a fraction of the largest variance, so its accuracy moves with the units;
    standardized (every attribute in the same units) it is at most ours; ours does not move."""
    a = accuracies[name]
    assert a["ours rescaled"] == a["ours"]
    assert a["ours"] >= a["sklearn standardized"] - 1e-12


def test_breast_cancer_gap_is_gaussiannbs_units(accuracies):
    """The one data set of the four where GaussianNB is ahead (93.84% against 93.67%, one instance in
    569): its lead is the units' (its floor flattens the attributes of small units), as its accuracy in
    other units and standardized shows."""
    a = accuracies["breast cancer"]
    assert a["sklearn"] > a["ours"] >= a["sklearn standardized"]
    assert a["sklearn rescaled"] != a["sklearn"]


def test_predictions_do_not_move_with_the_units():
    X, y = load_digits(return_X_y=True)
    units = 2.0 ** np.random.default_rng(1).integers(-20, 20, X.shape[1])  # exact in floating point
    a = NaiveBayes().fit(X, y).predict_proba(X)
    b = NaiveBayes().fit(X * units, y).predict_proba(X * units)
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-300)


def test_the_floor_is_the_squared_range():
    X, y = mixed_frame(200, seed=3)
    nb = NaiveBayes().fit(X, y)
    for name in ("height", "weight"):
        col = X[name].dropna()
        want = 1e-6 * (col.max() - col.min()) ** 2
        i = list(nb.schema_.names).index(name)
        st = nb.stats_[i]
        got = variance_floor([st], None)[0] * float(st["scale"][0]) ** 2
        assert got == pytest.approx(want, rel=1e-12)


def test_ranges_add_over_chunks_merges_and_weights():
    X, y = mixed_frame(300, seed=4)
    X = X[["height", "weight"]]
    full = NaiveBayes().fit(X, y)
    part = NaiveBayes()
    for s in range(0, 300, 70):
        part.partial_fit(X[s:s + 70], y[s:s + 70], classes=np.unique(y))
    merged = NaiveBayes().fit(X[:120], y[:120]).merge(NaiveBayes().fit(X[120:], y[120:]))
    w = np.random.default_rng(0).integers(0, 3, 300).astype(float)  # weight 0: the row is not there
    weighted = NaiveBayes().fit(X, y, sample_weight=w)
    copies = NaiveBayes().fit(X.loc[X.index.repeat(w.astype(int))], np.repeat(y, w.astype(int)))
    for a, b in ((part, full), (merged, full), (weighted, copies)):
        for sa, sb in zip(a.stats_, b.stats_):
            assert float(sa["low"][0] * sa["scale"][0]) == float(sb["low"][0] * sb["scale"][0])
            assert float(sa["high"][0] * sa["scale"][0]) == float(sb["high"][0] * sb["scale"][0])
        np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=1e-9)


def test_a_search_streamed_takes_the_floor_of_the_whole_file(tmp_path):
    from seminaive.search import BSE
    from seminaive.search.streamed import search_file
    X, y = mixed_frame(150, seed=5, missing=0.05)
    path = tmp_path / "d.csv"
    X.assign(cls=y).to_csv(path, index=False)
    from seminaive import load_file
    memory = BSE().fit(load_file(path))
    streamed = search_file(BSE(), path, chunksize=17)
    assert [h["score"] for h in streamed.history_] == pytest.approx([h["score"] for h in memory.history_], rel=1e-12)


def test_the_range_is_saved_and_checked(tmp_path):
    X, y = mixed_frame(100, seed=6)
    nb = NaiveBayes().fit(X, y)
    path = tmp_path / "m.json"
    save_model(nb, path)
    np.testing.assert_array_equal(load_model(path).predict_proba(X), nb.predict_proba(X))
    doc = json.loads(path.read_text())
    i = list(nb.schema_.names).index("height")
    for bad in ([5.0, 1.0], ["x"], [float("nan")]):
        broken = json.loads(json.dumps(doc))
        broken["state"]["stats"][i]["low"] = bad
        p = tmp_path / "bad.json"
        p.write_text(json.dumps(broken))
        with pytest.raises(ValueError, match=rf"state.stats\[{i}\].low"):
            load_model(p)
