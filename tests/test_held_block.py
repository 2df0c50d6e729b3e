"""A Naive Bayes holds its Gaussian attributes as one block until something asks for the
per-attribute components: the two forms, and a fit through the per-attribute path alone,
give the same model to the last bit, on generated mixed tables."""

import copy
import pickle
import re

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.data.schema import Attribute, Schema
from seminaive.exceptions import DataFormatError, UnseenValueWarning
from seminaive.persistence import model_from_dict, model_to_dict


def _table(seed):
    """Numeric and nominal columns in a random order, missing values, a constant column, a column
    missing in one class, a huge and a tiny column, and 2 to 4 classes."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(8, 60)), int(rng.integers(2, 5))
    y = np.arange(n) % k
    cols = {}
    for j in range(int(rng.integers(2, 9))):
        kind = rng.choice(["normal", "nominal", "constant", "missing", "huge", "integer"])
        if kind == "nominal":
            cols[f"c{j}"] = rng.choice(["u", "v", "w"], size=n).astype(object)
        elif kind == "constant":
            cols[f"c{j}"] = np.full(n, 2.5)
        elif kind == "huge":
            cols[f"c{j}"] = rng.normal(size=n) * 1e300
        elif kind == "integer":
            cols[f"c{j}"] = rng.integers(0, 3, size=n).astype(float)  # equal values within a class
        else:
            x = rng.normal(size=n) + y * 0.7
            if kind == "missing":
                x[y == 0] = np.nan
            x[rng.random(n) < 0.1] = np.nan
            cols[f"c{j}"] = x
    X = pd.DataFrame(cols)
    for name in X.columns:  # some nominal values missing
        if X[name].dtype == object:
            X.loc[rng.random(n) < 0.1, name] = None
    draw = rng.random()  # whole weights, fractional ones (nominal counts then kept per attribute), or none
    w = rng.integers(1, 4, size=n).astype(float) if draw < 0.3 else rng.random(n) + 0.1 if draw < 0.5 else None
    return X, y, w


PARAMS = [{}, {"estimation": "map"}, {"estimation": "predictive"}, {"var_smoothing": 0.0},
          {"var_smoothing_rule": "largest", "ddof": 0}, {"var_smoothing_rule": "attribute"}]


@pytest.mark.parametrize("params", PARAMS, ids=[str(p) for p in PARAMS])
@pytest.mark.parametrize("seed", range(12))
def test_the_block_and_the_lists_give_the_same_model(seed, params):
    X, y, w = _table(seed)
    try:
        held = NaiveBayes(**params).fit(X, y, sample_weight=w)
    except DataFormatError as e:  # "largest": a huge column's floor overflows a constant one's: the same refusal
        with pytest.raises(DataFormatError, match=re.escape(str(e))):
            NaiveBayes(**params).partial_fit(X, y, classes=np.unique(y), sample_weight=w)
        return
    assert held.holds_block()
    before = held.predict_proba(X), held.predict_log_proba(X), held.attribute_log_likelihoods(X)
    assert held.holds_block()  # predicting makes no lists
    lists = copy.deepcopy(held)
    assert len(lists.components_) == X.shape[1] and not lists.holds_block()
    assert [c.attribute for c in lists.components_] == list(range(X.shape[1]))
    after = lists.predict_proba(X), lists.predict_log_proba(X), lists.attribute_log_likelihoods(X)
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    lists._estimate()  # estimated again through the per-attribute path
    np.testing.assert_array_equal(lists.predict_log_proba(X), before[1])
    chunked = NaiveBayes(**params).partial_fit(X, y, classes=np.unique(y), sample_weight=w)
    np.testing.assert_array_equal(chunked.predict_log_proba(X), before[1])
    assert model_to_dict(held) == model_to_dict(chunked)
    np.testing.assert_array_equal(model_from_dict(model_to_dict(held)).predict_log_proba(X), before[1])


@pytest.mark.parametrize("seed", range(12))
def test_partial_fits_and_merges_of_blocks_equal_those_of_lists(seed):
    X, y, w = _table(seed)
    params = PARAMS[seed % len(PARAMS)]
    cut = [0, len(y) // 3, len(y) // 2, len(y)]
    parts = [(X.iloc[a:b], y[a:b], None if w is None else w[a:b]) for a, b in zip(cut[:-1], cut[1:])]
    blocks, lists = NaiveBayes(**params), NaiveBayes(**params)
    try:
        for i, (Xp, yp, wp) in enumerate(parts):
            blocks.partial_fit(Xp, yp, classes=np.unique(y), sample_weight=wp)
            lists.partial_fit(Xp, yp, classes=np.unique(y), sample_weight=wp)
            lists.components_  # the lists from now on: each later chunk added attribute by attribute
    except DataFormatError:
        return  # "largest" overflowing: test_the_block_and_the_lists_give_the_same_model holds the refusals equal
    assert blocks.holds_block() and not lists.holds_block()
    assert model_to_dict(blocks) == model_to_dict(lists)
    np.testing.assert_array_equal(blocks.predict_log_proba(X), lists.predict_log_proba(X))
    a, b = (NaiveBayes(**params).fit(Xp, yp, sample_weight=wp) for Xp, yp, wp in (parts[0], parts[2]))
    merged = a.merge(b)
    assert a.holds_block() and b.holds_block()  # merging made no lists of either
    a.components_, b.components_
    assert model_to_dict(merged) == model_to_dict(a.merge(b))  # the lists' merge
    if params.get("var_smoothing") == 0.0:
        return  # a constant column's variance: 0 or rounding's 1e-31, a point mass or not: no fit to compare with
    np.testing.assert_allclose(merged.predict_log_proba(X), NaiveBayes(**params).fit(
        pd.concat([parts[0][0], parts[2][0]]), np.r_[parts[0][1], parts[2][1]],
        sample_weight=None if w is None else np.r_[parts[0][2], parts[2][2]]).predict_log_proba(X), rtol=1e-9)


def test_a_refit_and_a_change_to_the_lists_are_not_hidden_by_a_block():
    X, y, _ = _table(3)
    nb = NaiveBayes().fit(X, y)
    nb.fit(X.iloc[::-1], y[::-1])
    assert nb.holds_block()
    np.testing.assert_array_equal(nb.predict_log_proba(X), NaiveBayes().fit(X, y).predict_log_proba(X))
    gauss = next(i for i, c in enumerate(nb.components_) if c.kind == "gaussian")
    nb.stats_[gauss]["mean"] += 1.0  # the lists are the model's statistics from now on
    nb._estimate()
    assert not np.array_equal(nb.predict_log_proba(X), NaiveBayes().fit(X, y).predict_log_proba(X))


def test_an_unfitted_model_has_no_lists_and_an_old_pickle_loads():
    with pytest.raises(AttributeError, match="components_"):
        NaiveBayes().components_
    X, y, _ = _table(5)
    nb = NaiveBayes().fit(X, y)
    assert "_held" in nb.__getstate__()  # pickled as the blocks
    nb._release()
    old = dict(nb.__dict__)  # as a model pickled before the block kept its lists under their own names
    old["components_"], old["stats_"] = old.pop("_components"), old.pop("_stats")
    again = NaiveBayes.__new__(NaiveBayes)
    again.__setstate__(old)
    np.testing.assert_array_equal(again.predict_log_proba(X), NaiveBayes().fit(X, y).predict_log_proba(X))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(NaiveBayes().fit(X, y))).predict_log_proba(X),
                                  again.predict_log_proba(X))


def test_a_wide_fit_and_prediction_make_no_object_per_attribute():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5000))
    y = np.arange(30) % 3
    nb = NaiveBayes().fit(X, y)
    nb.predict_proba(X)
    blocks, comps, stats = nb.__dict__["_held"]
    assert [len(b) for b in blocks] == [5000] and comps == stats == []


@pytest.mark.parametrize("params", [{}, {"alpha": 0.0}, {"estimation": "m-estimate"}, {"estimation": "map"}],
                         ids=["laplace", "alpha0", "m-estimate", "map"])
@pytest.mark.parametrize("seed", range(8))
def test_an_integer_block_and_the_lists_give_the_same_model(seed, params):
    rng = np.random.default_rng(100 + seed)
    n, d, k = int(rng.integers(5, 80)), int(rng.integers(1, 40)), int(rng.integers(2, 5))
    y = np.arange(n) % k
    X = rng.integers(0, rng.integers(1, 9, size=d), size=(n, d))  # some values never seen: gaps in the lists
    X[:, ::3] *= 2
    held = NaiveBayes(nominal="all", **params).fit(X, y)
    assert held.holds_block() == (params.get("estimation") != "m-estimate")
    test = np.vstack([X, rng.integers(-1, 20, size=(7, d))])  # values outside the lists: read as missing
    with pytest.warns(UnseenValueWarning):
        before = held.predict_log_proba(test)
    lists = copy.deepcopy(held)
    assert [c.n_values for c in lists.components_] == [len(np.unique(X[:, j])) for j in range(d)]
    with pytest.warns(UnseenValueWarning):
        np.testing.assert_array_equal(lists.predict_log_proba(test), before)
    with pytest.warns(UnseenValueWarning):
        np.testing.assert_array_equal(held.attribute_log_likelihoods(test), lists.attribute_log_likelihoods(test))
    chunked = NaiveBayes(nominal="all", **params).partial_fit(X, y, classes=np.arange(k))
    assert model_to_dict(chunked) == model_to_dict(held)
    with pytest.warns(UnseenValueWarning):
        np.testing.assert_array_equal(chunked.predict_log_proba(test), before)


@pytest.mark.parametrize("seed", range(40))
def test_an_integer_blocks_schema_is_the_one_its_attributes_give(seed):
    rng = np.random.default_rng(seed)
    d, width = int(rng.integers(1, 6)), int(rng.integers(1, 300))
    present = rng.random((d, width)) < rng.random()
    present[:, 0] |= rng.random() < 0.5
    present[~present.any(axis=1), int(rng.integers(0, width))] = True
    fast = Schema.of_int_block([f"x{j}" for j in range(d)], present)
    slow = Schema(tuple(Attribute(a.name, a.kind, a.values) for a in fast.attributes))  # nothing known beforehand
    assert fast == slow and [a.values for a in fast.attributes] == [tuple(np.flatnonzero(p)) for p in present]
    assert (fast.names, fast.nominal_indices, fast.numeric_indices, fast.values_are_codes) == \
        (slow.names, slow.nominal_indices, slow.numeric_indices, slow.values_are_codes)
    np.testing.assert_array_equal(fast.nominal_widths, slow.nominal_widths)
    if slow.integer_lut is None:
        assert "integer_lut" not in fast.__dict__ or fast.integer_lut is None
    else:
        assert fast.integer_lut.dtype == slow.integer_lut.dtype
        np.testing.assert_array_equal(fast.integer_lut, slow.integer_lut)


def test_threads_predicting_while_others_make_the_lists_see_one_model():
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(7)
    X = pd.DataFrame(rng.normal(size=(20, 3000))).add_prefix("x").assign(word=rng.choice(["u", "v"], size=20))
    y = np.arange(20) % 2
    expected = NaiveBayes().fit(X, y).predict_log_proba(X)
    for _ in range(10):
        nb = NaiveBayes().fit(X, y)
        jobs = [(lambda: nb.predict_log_proba(X)) if i % 2 else (lambda: len(nb.components_)) for i in range(16)]
        with ThreadPoolExecutor(8) as pool:
            out = [f.result() for f in [pool.submit(j) for j in jobs]]
        for o in out[1::2]:
            np.testing.assert_array_equal(o, expected)
        assert out[0::2] == [X.shape[1]] * 8 and not nb.holds_block()


@pytest.mark.parametrize("numeric", ["gaussian", "kernel", "equal_width", "mdl"])
@pytest.mark.parametrize("seed", range(4))
def test_a_loaded_model_holds_blocks_and_predicts_as_the_saved_one(seed, numeric):
    X, y, w = _table(seed)
    nb = NaiveBayes(numeric=numeric).fit(X, y, sample_weight=w)
    expected = nb.predict_log_proba(X)
    doc = model_to_dict(nb)
    again = model_from_dict(doc)
    whole = w is None or (w % 1 == 0).all()  # fractional counts stay attribute by attribute
    kinds = {c.kind for c in nb.components_}
    assert again.holds_block() == ("gaussian" in kinds or ("categorical" in kinds and whole))
    np.testing.assert_array_equal(again.predict_log_proba(X), expected)
    assert model_to_dict(again) == doc
    np.testing.assert_array_equal(again.predict_log_proba(X), expected)  # and from its lists


@pytest.mark.parametrize("seed", range(4))
def test_wanbia_weighs_the_blocks_terms_as_the_lists(seed):
    from seminaive import WANBIA
    X, y, _ = _table(seed)
    held = WANBIA().fit(X, y)
    assert held.holds_block()  # its terms came from the blocks
    lists = copy.deepcopy(held)
    lists.components_
    np.testing.assert_array_equal(held.predict_log_proba(X), lists.predict_log_proba(X))
    np.testing.assert_array_equal(held.attribute_log_likelihoods(X), lists.attribute_log_likelihoods(X))


def test_a_model_fitted_from_a_file_holds_blocks_and_predicts_as_its_lists(tmp_path):
    from seminaive.scale.files import fit_file
    X, y, _ = _table(2)
    path = tmp_path / "t.csv"
    X.assign(cls=np.where(y == 0, "a", "b")).to_csv(path, index=False)
    for model in (NaiveBayes(), NaiveBayes(numeric="equal_width")):
        fitted = fit_file(model, path, chunksize=7)
        nominal = any(a.is_nominal for a in fitted.schema_.attributes)
        assert fitted.holds_block() == (model.numeric == "gaussian" or nominal)
        lists = copy.deepcopy(fitted)
        lists.components_
        frame = X.copy()
        np.testing.assert_array_equal(fitted.predict_log_proba(frame), lists.predict_log_proba(frame))


@pytest.mark.parametrize("numeric", ["kernel", "equal_frequency", "mdl"])
@pytest.mark.parametrize("seed", range(6))
def test_kernels_and_intervals_beside_a_nominal_block_predict_as_the_lists(seed, numeric):
    X, y, w = _table(seed)
    held = NaiveBayes(numeric=numeric).fit(X, y, sample_weight=w)
    lists = copy.deepcopy(held)
    lists.components_
    np.testing.assert_array_equal(held.predict_log_proba(X), lists.predict_log_proba(X))
    np.testing.assert_array_equal(held.attribute_log_likelihoods(X), lists.attribute_log_likelihoods(X))
    assert model_to_dict(held) == model_to_dict(lists)
