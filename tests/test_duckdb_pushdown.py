"""Counts pushed down to DuckDB (:mod:`seminaive.scale.duckdb_counts`): over generated tables of every
column type DuckDB hands over (doubles with NaN and NULL, floats, integers, decimals, timestamps, text
with NULL, a class with NULL), the values by class and a Naive Bayes's counts from a GROUP BY equal the
pass over the rows exactly, and every model fitted from the relation is the same model file with the
push-down as without it (and the fit in memory's to 1e-12); a Naive Bayes reads the data once; an
infinite value is the same one-line error either way."""

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from seminaive import AODE, ESKDB, TAN, NaiveBayes, SelectiveKDB
from seminaive.data.duckdb_groups import grouped_counts
from seminaive.data.duckdb_plan import DuckDBPlan, relation_of
from seminaive.exceptions import DataFormatError
from seminaive.learning.chunk_fit import naive_bayes_passes
from seminaive.learning.cuts import add_value_triples, value_triples
from seminaive.learning.sources import map_reduce
from seminaive.persistence import model_to_dict
from seminaive.scale import duckdb as duck
from seminaive.scale.duckdb import DuckDBSource, fit_duckdb


def _table(seed, n=400):
    """A table of every kind of column, values repeated (so that groups hold several rows), missing
    values in each, the class missing in a few rows."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["hi", "lo", "mid"], n, p=[0.5, 0.3, 0.2])
    shift = (y == "hi").astype(float)
    frame = pd.DataFrame({
        "dbl": (rng.normal(shift, 1.0, n)).round(1),
        "flt": rng.normal(-shift, 2.0, n).round(2).astype(np.float32),
        "cnt": rng.integers(0, 6, n) + (y == "lo"),
        "txt": np.where(rng.random(n) < 0.6, np.where(y == "mid", "b", "a"), rng.choice(["a", "b", "c"], n)),
        "cls": y})
    frame.loc[rng.random(n) < 0.08, "dbl"] = np.nan
    frame.loc[rng.random(n) < 0.05, "flt"] = np.nan
    frame.loc[rng.random(n) < 0.07, "txt"] = None
    frame.loc[rng.random(n) < 0.04, "cls"] = None
    con = duckdb.connect()
    con.register("frame", frame)
    # decimals and timestamps as DuckDB holds them; a NULL double beside the NaNs
    rel = con.sql("SELECT CASE WHEN cnt = 3 AND dbl > 0 THEN NULL ELSE dbl END AS dbl, flt, cnt, txt, "
                  "CAST(round(dbl * 3, 2) AS DECIMAL(9, 2)) AS dec, "
                  "TIMESTAMP '2024-01-01' + to_days(cnt * 2 + (cls = 'hi')::INTEGER) AS ts, cls FROM frame")
    return con, rel


def _frame(rel):
    whole = rel.df()
    whole = whole[whole["cls"].notna()].reset_index(drop=True)
    return whole.drop(columns="cls"), whole["cls"]


MODELS = {"nb-ef": lambda: NaiveBayes(numeric="equal_frequency"), "nb-mdl": lambda: NaiveBayes(numeric="mdl"),
          "nb-values": lambda: NaiveBayes(integer_codes="values"), "aode": lambda: AODE(), "tan": lambda: TAN(),
          "skdb": lambda: SelectiveKDB(k=2), "eskdb": lambda: ESKDB(n_estimators=3, k=2)}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", list(MODELS))
def test_a_model_from_pushed_counts_is_the_model_from_the_rows(seed, name, monkeypatch):
    con, rel = _table(seed)
    calls = []
    for method in ("grouped_triples", "grouped_values"):
        original = getattr(DuckDBSource, method)
        monkeypatch.setattr(DuckDBSource, method, lambda self, *a, _o=original, _m=method: calls.append(_m) or
                            _o(self, *a))
    pushed = fit_duckdb(MODELS[name](), rel, target="cls", chunksize=53)
    assert calls  # the push-down ran (every model here cuts numbers)
    monkeypatch.setattr(DuckDBSource, "grouped_triples", None)
    monkeypatch.setattr(DuckDBSource, "grouped_values", None)
    rows = fit_duckdb(MODELS[name](), rel, target="cls", chunksize=53)
    assert model_to_dict(pushed) == model_to_dict(rows)  # every count, cut, choice: the same file
    X, y = _frame(rel)
    ref = MODELS[name]().fit(X, y)
    np.testing.assert_allclose(pushed.predict_proba(X), ref.predict_proba(X), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 3])
def test_the_values_by_class_equal_the_pass_over_the_rows(seed):
    con, rel = _table(seed)
    source = DuckDBSource(rel, 41, "cls")
    model = source.settle(NaiveBayes(numeric="mdl"))
    by_rows = map_reduce(source, value_triples, add_value_triples, model.schema_, model.classes_)
    passes = source.passes
    pushed = source.grouped_triples(model.schema_, model.classes_)
    assert source.passes == passes + 1 and source.n_rows == len(_frame(rel)[1])
    assert sorted(pushed) == sorted(by_rows) == list(model.schema_.numeric_indices)
    for j in pushed:
        for a, b in zip(pushed[j], by_rows[j]):
            assert a.dtype == b.dtype and np.array_equal(a, b)


def test_a_naive_bayes_counts_equal_the_pass_over_the_rows(monkeypatch):
    con, rel = _table(5)
    got = {}
    original = duck.grouped_values
    monkeypatch.setattr(duck, "grouped_values", lambda s, sc, c: got.setdefault("groups", original(s, sc, c)))
    pushed = fit_duckdb(NaiveBayes(numeric="equal_frequency"), rel, target="cls", chunksize=29)
    assert got["groups"] is not None
    monkeypatch.setattr(DuckDBSource, "grouped_values", None)
    monkeypatch.setattr(DuckDBSource, "grouped_triples", None)
    rows = fit_duckdb(NaiveBayes(numeric="equal_frequency"), rel, target="cls", chunksize=29)
    np.testing.assert_array_equal(pushed.class_count_, rows.class_count_)
    assert model_to_dict(pushed) == model_to_dict(rows)
    assert pushed.class_count_.sum() == len(_frame(rel)[1])


def test_an_infinite_value_is_the_same_error_either_way(monkeypatch):
    table = pa.table({"x": [0.5, np.inf, 2.0, 3.0], "s": ["p", "q", "p", "q"], "cls": ["a", "b", "a", "b"]})
    errors = []
    for push in (True, False):
        if not push:
            monkeypatch.setattr(DuckDBSource, "grouped_values", None)
            monkeypatch.setattr(DuckDBSource, "grouped_triples", None)
        for make in (lambda: NaiveBayes(numeric="equal_frequency"), TAN):
            with pytest.raises(DataFormatError) as err:
                fit_duckdb(make(), duckdb.connect().from_arrow(table), target="cls", chunksize=2)
            errors.append(str(err.value))
    assert "finite" in errors[0] and "\n" not in errors[0] and errors[:2] == errors[2:]


def test_an_infinite_value_in_a_row_without_a_class_is_left_out_either_way(monkeypatch):
    table = pa.table({"x": [0.5, np.inf, 2.0, 3.0, 1.0], "s": ["p", "q", "p", "q", "q"],
                      "cls": ["a", None, "a", "b", "b"]})
    files = []
    for push in (True, False):
        if not push:
            monkeypatch.setattr(DuckDBSource, "grouped_values", None)
            monkeypatch.setattr(DuckDBSource, "grouped_triples", None)
        files.append([model_to_dict(fit_duckdb(make(), duckdb.connect().from_arrow(table), target="cls", chunksize=2))
                      for make in (lambda: NaiveBayes(numeric="equal_frequency"), TAN)])
    assert files[0] == files[1]


def test_a_naive_bayes_reads_the_data_once(monkeypatch):
    con, rel = _table(6)
    read = []
    original = DuckDBPlan.batches
    monkeypatch.setattr(DuckDBPlan, "batches", lambda self, columns, size=None: read.append(columns) or
                        original(self, columns, size))
    source = DuckDBSource(rel, 50, "cls")
    model = source.settle(NaiveBayes(numeric="mdl"))
    read.clear()  # (the first chunk, read for the schema's columns)
    naive_bayes_passes(model, source)
    assert read == [] and source.passes == 1  # one GROUP BY: cut points and counts from it


def test_a_failed_query_is_one_line():
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT range::DOUBLE AS x, (range % 2)::VARCHAR AS cls FROM range(10)")
    source = DuckDBSource(relation_of("t", con), 4, "cls")
    model = source.settle(NaiveBayes(numeric="equal_frequency"))
    con.execute("DROP TABLE t")
    with pytest.raises(DataFormatError, match="DuckDB") as err:
        source.grouped_triples(model.schema_, model.classes_)
    assert "\n" not in str(err.value)


def test_decimals_and_timestamps_are_the_numbers_of_their_rows():
    con, rel = _table(4)
    source = DuckDBSource(rel, 1000, "cls")
    model = source.settle(NaiveBayes(numeric="equal_frequency"))
    names = list(model.schema_.names)
    cols = [names.index("dec"), names.index("ts")]
    found = grouped_counts(source.plan, source.plan.settle(), cols)
    (X, y), = list(source)  # the rows with a class, converted as a pass reads them

    def key(x, label):
        return (None if np.isnan(x) else float(x), str(label))

    for j in cols:
        x, labels, n = found[j]
        expect = pd.Series([key(v, c) for v, c in zip(X.iloc[:, j].to_numpy(dtype=float), y)]).value_counts()
        got = {key(v, c): m for v, c, m in zip(x, np.asarray(labels, dtype=object), n) if pd.notna(c)}
        assert got == {k: float(v) for k, v in expect.items()} and len(got) > 10
