"""The one encoder (data.value_index) and the one fit path (learning.sources.OneTable): every
input gives a nominal column the codes of the attribute's ValueIndex, and the cuts of a source
of one chunk are the cuts learned in memory, weights included."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from seminaive import KDB, NaiveBayes, TAN
from seminaive.data._rows import FirstError, encode_column
from seminaive.data.arrow_values import encode_arrow
from seminaive.data.encoding import encode
from seminaive.data.schema import NOMINAL, Attribute, Schema
from seminaive.data.value_index import ValueIndex, gather
from seminaive.discretize import attribute_cuts
from seminaive.exceptions import ParameterError
from seminaive.learning.cuts import source_cuts
from seminaive.learning.sources import OneTable

RNG = np.random.default_rng(3)
VALUES = ("blue", "green", "red")
ROWS = ["red", None, "blue", "violet", "green", "red", None, "blue"]  # violet: outside the list
EXPECTED = [2, -1, 0, -1, 1, 2, -1, 0]


def _frame_codes(col):
    schema = Schema((Attribute("c", NOMINAL, VALUES),))
    return encode(pd.DataFrame({"c": col}), schema, check_finite=False).codes[:, 0].tolist()


@pytest.mark.parametrize("make", [
    lambda: pd.Series(ROWS, dtype=object),
    lambda: pd.Series(ROWS, dtype="string"),
    lambda: pd.Series(pd.Categorical(ROWS, categories=["violet", "red", "green", "blue"])),
    lambda: pd.Series(pd.Categorical([None if v == "violet" else v for v in ROWS], categories=list(VALUES))),
], ids=["object", "string", "categorical-other-order", "categorical-same-order"])
def test_every_frame_column_gets_the_attribute_index_codes(make):
    col = make()
    assert _frame_codes(col) == EXPECTED


@pytest.mark.parametrize("dictionary", [False, True])
def test_arrow_columns_get_the_same_codes(dictionary):
    arr = pa.array(ROWS)
    if dictionary:
        arr = arr.dictionary_encode()
    unseen = {}
    cat = encode_arrow(arr, Attribute("c", NOMINAL, VALUES), "f.parquet", unseen)
    assert cat.codes.tolist() == EXPECTED and unseen == {"c": 1}


def test_tokens_of_a_text_file_get_the_same_codes():
    raw = np.array([v if v is not None else "?" for v in ROWS], dtype=object)
    miss = raw == "?"
    unseen = {}
    cat = encode_column(raw, miss, Attribute("c", NOMINAL, VALUES), np.arange(1, len(raw) + 1), 0, FirstError(), unseen)
    assert cat.codes.tolist() == EXPECTED and unseen == {"c": 1}


def test_the_index_grows_in_order_of_first_meeting_and_gathers_missing_rows():
    v = ValueIndex()
    assert v.grow(["b", "a"]).tolist() == [0, 1]
    assert v.grow(["c", "a", "d"], met=np.array([True, True, False])).tolist() == [2, 1, -1]
    assert v.values == ["b", "a", "c"]
    assert gather(v.codes(["a", "c"]), np.array([1, -1, 0, 1])).tolist() == [2, -1, 1, 2]
    assert v.codes([["unhashable"], "a"], absent=-2).tolist() == [-2, 1]


def test_numbers_look_up_text_values_by_number_and_unhashables_are_named():
    schema = Schema((Attribute("n", NOMINAL, ("2", "9", "10")),))
    assert encode(pd.DataFrame({"n": [10, 2, 7, np.nan]}), schema).codes[:, 0].tolist() == [2, 0, -1, -1]
    with pytest.raises(ParameterError, match="attribute 'c'.*unhashable list"):
        _frame_codes(pd.Series([["red"], "blue"], dtype=object))


@pytest.mark.parametrize("weight", [None, "integer", "fractional"])
@pytest.mark.parametrize("numeric", ["mdl", "equal_frequency", "mdl_stochastic"])
def test_cuts_of_one_chunk_are_the_cuts_in_memory_and_two_chunks_count_as_copies(numeric, weight):
    n = 120
    X = pd.DataFrame({"x": np.round(RNG.normal(size=n), 1), "z": RNG.normal(size=n)})
    X.loc[::7, "x"] = np.nan
    y = (X["z"] + RNG.normal(size=n) > 0).astype(int).to_numpy()
    w = None if weight is None else (RNG.integers(0, 4, n).astype(float) if weight == "integer"
                                      else RNG.uniform(0, 2, n))
    schema = Schema((Attribute("x", "numeric"), Attribute("z", "numeric")))
    table = encode(X, schema, check_finite=False)
    whole = attribute_cuts(numeric, {0: table.numeric[:, 0], 1: table.numeric[:, 1]}, y, w, random_state=5)
    one = source_cuts(OneTable(table, y, w), schema, [0, 1], numeric, random_state=5)
    assert {j: c.tolist() for j, c in one.items()} == {j: list(c) for j, c in whole.items()}
    if weight != "fractional":  # integer weights are copies: the rows repeated, in two chunks, give the same cuts
        reps = np.ones(n, dtype=int) if w is None else w.astype(int)
        Xr, yr = X.loc[X.index.repeat(reps)].reset_index(drop=True), np.repeat(y, reps)
        half = len(yr) // 2
        chunks = [(Xr[:half], pd.Series(yr[:half])), (Xr[half:], pd.Series(yr[half:]))]
        two = source_cuts(chunks, schema, [0, 1], numeric, random_state=5)
        assert {j: c.tolist() for j, c in two.items()} == {j: c.tolist() for j, c in one.items()}


@pytest.mark.parametrize("model", [NaiveBayes(numeric="mdl"), TAN(), KDB(k=2, numeric="equal_frequency")],
                         ids=["nb-mdl", "tan", "kdb2"])
def test_weighted_fit_in_memory_equals_the_fit_on_copies(model):
    n = 90
    X = pd.DataFrame({"x": RNG.normal(size=n), "c": RNG.choice(["a", "b", "c"], n)})
    y = np.where(X["x"] + (X["c"] == "a") > 0.3, "p", "q")
    w = RNG.integers(1, 4, n)
    weighted = type(model)(**model.get_params()).fit(X, y, sample_weight=w.astype(float))
    copies = type(model)(**model.get_params()).fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(X), copies.predict_proba(X), rtol=1e-12, atol=1e-12)
