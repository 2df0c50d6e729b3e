"""Counts pushed down to DuckDB (:mod:`seminaive.scale.duckdb_counts`): over generated tables of every
column type DuckDB hands over (doubles with NaN and NULL, floats, integers, decimals, timestamps, text
with NULL, a class with NULL), the values by class and a Naive Bayes's counts from a GROUP BY equal the
pass over the rows exactly, and every model fitted from the relation is the same model file with the
push-down as without it (and the fit in memory's to 1e-12); interval codes computed in SQL equal
``apply_cuts`` on awkward cut points; an infinite value leaves the counts to the pass over the rows."""

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from seminaive import AODE, ESKDB, TAN, NaiveBayes, SelectiveKDB
from seminaive.components import Discretized
from seminaive.data.duckdb_groups import INFINITE, grouped_counts
from seminaive.data.duckdb_plan import DuckDBPlan, relation_of
from seminaive.discretize import apply_cuts
from seminaive.learning.cuts import add_value_triples, value_triples
from seminaive.learning.sources import map_reduce
from seminaive.persistence import model_to_dict
from seminaive.scale import duckdb as duck
from seminaive.scale.duckdb import DuckDBSource, fit_duckdb
from seminaive.scale.duckdb_counts import pushed_naive_bayes


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
    for method in ("grouped_triples", "grouped_naive_bayes"):
        original = getattr(DuckDBSource, method)
        monkeypatch.setattr(DuckDBSource, method, lambda self, *a, _o=original, _m=method: calls.append(_m) or
                            _o(self, *a))
    pushed = fit_duckdb(MODELS[name](), rel, target="cls", chunksize=53)
    assert "grouped_triples" in calls  # the push-down ran (every model here cuts numbers)
    monkeypatch.setattr(DuckDBSource, "grouped_triples", None)
    monkeypatch.setattr(DuckDBSource, "grouped_naive_bayes", None)
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
    original = duck.pushed_naive_bayes
    monkeypatch.setattr(duck, "pushed_naive_bayes", lambda s, m, c: got.setdefault("stats", original(s, m, c)))
    pushed = fit_duckdb(NaiveBayes(numeric="equal_frequency"), rel, target="cls", chunksize=29)
    assert got["stats"] is not None
    monkeypatch.setattr(DuckDBSource, "grouped_naive_bayes", None)
    rows = fit_duckdb(NaiveBayes(numeric="equal_frequency"), rel, target="cls", chunksize=29)
    np.testing.assert_array_equal(pushed.class_count_, rows.class_count_)
    assert model_to_dict(pushed) == model_to_dict(rows)
    assert pushed.class_count_.sum() == len(_frame(rel)[1])


CUTS = [np.array([0.1, 0.2, 0.30000000000000004]), np.array([-0.0, 5e-324, 1e-300]),
        np.array([-1.7976931348623157e308, 1.0 / 3.0, 1e15 + 0.5]), np.array([]), np.array([2.0])]


@pytest.mark.parametrize("cuts", CUTS, ids=range(len(CUTS)))
@pytest.mark.parametrize("kind", ["DOUBLE", "FLOAT"])
def test_interval_codes_in_sql_equal_apply_cuts(cuts, kind):
    with np.errstate(over="ignore"):
        on = np.concatenate([cuts, np.nextafter(cuts, np.inf), np.nextafter(cuts, -np.inf)])
        values = np.concatenate([on, [0.0, -0.0, 1.0, -1.0, 1e16, -3.5, np.nan], np.linspace(-2, 2, 41)])
        if kind == "FLOAT":  # the values a FLOAT column holds (beyond its range: infinite, left out)
            values = values.astype(np.float32).astype(np.float64)
    values = values[~np.isinf(values)]
    x = pa.array(values, type=pa.float64() if kind == "DOUBLE" else pa.float32())
    table = pa.table({"x": pa.concat_arrays([x, pa.nulls(3, x.type)]),
                      "cls": pa.array(["k"] * (len(values) + 3))})
    con = duckdb.connect()
    plan = DuckDBPlan(con.from_arrow(table), "cls")
    found = grouped_counts(plan, plan.settle(), [0], {0: cuts})
    codes, _, n = found[0]
    assert codes.dtype == np.int64  # computed in SQL, not grouped by value
    expect = pd.Series(apply_cuts(values, cuts)).value_counts()
    expect[-1] = expect.get(-1, 0) + 3  # the NULLs: missing, as NaN
    assert dict(zip(codes.tolist(), n.tolist())) == {int(c): float(m) for c, m in expect.items()}


def test_an_infinite_value_leaves_the_counts_to_the_rows():
    table = pa.table({"x": [0.5, np.inf, 2.0, 3.0, -np.inf], "cls": ["a", "b", "a", "b", "a"]})
    source = DuckDBSource(duckdb.connect().from_arrow(table), 2, "cls")
    model = source.settle(NaiveBayes(numeric="equal_frequency"))
    codes = grouped_counts(source.plan, source.plan.settle(), [0], {0: [1.0]})[0][0]
    assert sorted(set(codes.tolist())) == [INFINITE, 0, 1]  # (+inf and -inf alike)
    assert pushed_naive_bayes(source, model, [Discretized(0, 0, [1.0])]) is None


def test_a_failed_query_is_one_line():
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT range::DOUBLE AS x, (range % 2)::VARCHAR AS cls FROM range(10)")
    source = DuckDBSource(relation_of("t", con), 4, "cls")
    model = source.settle(NaiveBayes(numeric="equal_frequency"))
    con.execute("DROP TABLE t")
    with pytest.raises(Exception, match="DuckDB") as err:
        source.grouped_triples(model.schema_, model.classes_)
    assert "\n" not in str(err.value)


def test_decimals_and_timestamps_are_grouped_by_value():
    con, rel = _table(4)
    source = DuckDBSource(rel, 100, "cls")
    model = source.settle(NaiveBayes(numeric="equal_frequency"))
    names = list(model.schema_.names)
    found = grouped_counts(source.plan, source.plan.settle(), [names.index("dec"), names.index("ts")],
                           {names.index("dec"): [0.0], names.index("ts"): [0.0]})
    for j in (names.index("dec"), names.index("ts")):
        assert found[j][0].dtype == np.float64  # the values (converted as the rows are), not codes
