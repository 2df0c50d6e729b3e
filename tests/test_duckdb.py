"""DuckDB as a source (:mod:`seminaive.scale.duckdb`): a relation, a table name and a SQL query give the fit
in memory on ``relation.df()`` (the differential matrix, tests/test_every_path.py, has every model from a
relation and a query); the value lists come from DuckDB's ``SELECT DISTINCT`` (no batch read for them),
an ENUM keeps its order; a query DuckDB refuses and a model that cannot learn from chunks are one line."""

import duckdb
import numpy as np
import pandas as pd
import pytest

from seminaive import AODE, LBR, NaiveBayes, NBTree
from seminaive.data.duckdb_plan import DuckDBPlan
from seminaive.exceptions import DataFormatError, ParameterError
from seminaive.models import make_model
from seminaive.scale.duckdb import fit_duckdb


@pytest.fixture
def con():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.choice(["no", "yes"], n)
    frame = pd.DataFrame({"colour": np.where(rng.random(n) < 0.7, np.where(y == "yes", "red", "blue"), "green"),
                          "size": rng.integers(0, 4, n), "x": rng.normal(y == "yes", 1.0), "cls": y})
    frame.loc[rng.random(n) < 0.1, "colour"] = None
    c = duckdb.connect()
    c.register("frame_view", frame)
    c.execute("CREATE TABLE data AS SELECT * FROM frame_view")
    yield c
    c.close()


@pytest.mark.parametrize("make", [NaiveBayes, AODE, NBTree], ids=["nb", "aode", "nbtree"])
@pytest.mark.parametrize("how", ["table", "query", "relation"])
def test_a_table_a_query_and_a_relation_give_the_fit_in_memory(con, make, how):
    data = {"table": "data", "query": "SELECT * FROM data WHERE size < 3",
            "relation": con.table("data").filter("size < 3")}[how]
    m = fit_duckdb(make(), data, con=con, chunksize=37)  # the class: the last column
    whole = (con.table(data) if how == "table" else con.sql(data) if how == "query" else data).df()
    X, y = whole.drop(columns="cls"), whole["cls"]
    ref = make().fit(X, y)
    np.testing.assert_allclose(m.predict_proba(X), ref.predict_proba(X), rtol=1e-12, atol=1e-12)
    assert list(m.classes_) == ["no", "yes"] and m.schema_.attributes[0].values == ("blue", "green", "red")


def test_value_lists_come_from_select_distinct(con, monkeypatch):
    read = []
    original = DuckDBPlan.batches
    monkeypatch.setattr(DuckDBPlan, "batches", lambda self, columns, size=None: read.append(columns) or
                        original(self, columns, size))
    plan = DuckDBPlan(con.table("data"), target="cls")
    attrs = plan.settle()
    assert read == []  # no batch read: DuckDB counted and found the values
    assert [a.kind for a in attrs] == ["nominal", "numeric", "numeric", "nominal"]
    assert attrs[3].values == ("no", "yes")


def test_an_enum_keeps_its_declared_order(con):
    con.execute("CREATE TYPE shade AS ENUM ('red', 'green', 'blue')")
    rel = con.sql("SELECT CAST(colour AS shade) AS colour, x, cls FROM data")
    m = fit_duckdb(NaiveBayes(), rel, chunksize=50)
    assert m.schema_.attributes[0].values == ("red", "green", "blue")
    whole = rel.df()
    ref = NaiveBayes().fit(whole.drop(columns="cls"), whole["cls"])
    assert list(ref.schema_.attributes[0].values) == ["red", "green", "blue"]
    np.testing.assert_allclose(m.predict_proba(whole.drop(columns="cls")), ref.predict_proba(whole.drop(columns="cls")),
                               rtol=1e-12)


def test_refusals_are_one_line(con):
    with pytest.raises(DataFormatError, match="DuckDB query 'SELECT nothing FROM data'.*refused"):
        fit_duckdb(NaiveBayes(), "SELECT nothing FROM data", con=con)
    with pytest.raises(DataFormatError, match="no_such_table"):
        fit_duckdb(NaiveBayes(), "no_such_table", con=con)
    with pytest.raises(ParameterError, match="LBR cannot be fitted chunk by chunk"):
        fit_duckdb(LBR(), "data", con=con)
    with pytest.raises(ParameterError, match="expected a DuckDB relation, a table name or a SQL query"):
        fit_duckdb(NaiveBayes(), 42, con=con)
    with pytest.raises(ParameterError, match="chunksize"):
        fit_duckdb(NaiveBayes(), "data", con=con, chunksize=0)


def test_the_command_line_fits_a_query_as_the_library_does(tmp_path, capsys):
    """``seminaive fit QUERY --sql``: the model of ``fit_duckdb`` on the same query (its file, value for
    value); a query DuckDB refuses is one line and exit status 2."""
    from seminaive.cli.main import main
    from seminaive.persistence import load_model
    rng = np.random.default_rng(1)
    n = 200
    y = rng.choice(["no", "yes"], n)
    pd.DataFrame({"colour": np.where(y == "yes", "red", rng.choice(["red", "blue"], n)), "x": rng.normal(y == "yes"),
                  "cls": y}).to_parquet(tmp_path / "lake.parquet")
    query = f"SELECT * FROM read_parquet('{tmp_path / 'lake.parquet'}') WHERE x > -1"
    out = tmp_path / "m.json"
    assert main(["fit", query, "--sql", "--target", "cls", "--model", "skdb", "--chunksize", "23", "-m", str(out)]) == 0
    m = load_model(str(out))
    ref = fit_duckdb(make_model("skdb"), query, target="cls", chunksize=23)
    X = duckdb.sql(query).df().drop(columns="cls")
    np.testing.assert_array_equal(m.predict_proba(X), ref.predict_proba(X))
    capsys.readouterr()
    assert main(["fit", "SELECT * FROM no_such_table", "--sql"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("seminaive: error: DuckDB query 'SELECT * FROM no_such_table'") and "Traceback" not in err
