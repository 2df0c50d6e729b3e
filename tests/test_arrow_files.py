"""Parquet and Arrow IPC (Feather) files: read whole, in batches, for a fitted model and by Dask, they
give the models of the equal pandas input (``pandas.read_parquet`` / ``read_feather``)."""

import warnings

import numpy as np
import pandas as pd
import pytest
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

from seminaive import AODE, KDB, TAN, NaiveBayes, SelectiveKDB, load_file
from seminaive.cli.main import main
from seminaive.data import Dataset
from seminaive.data.io import load_for_model
from seminaive.exceptions import DataFormatError, UnseenValueWarning
from seminaive.scale import fit_file, iter_file_chunks
from seminaive.scale.predict_files import predict_file
from seminaive.search import BSE, search_file

from conftest import mixed_frame

MODELS = [NaiveBayes, TAN, lambda: KDB(k=2), AODE, lambda: SelectiveKDB(k=2)]


def typed_frame(n, seed, missing=0.1):
    """Random typed columns: a categorical with an unused category, strings, booleans with nulls,
    integers, floats (with NaN), and a class that depends on them."""
    X, y = mixed_frame(n, seed, missing)
    rng = np.random.default_rng(seed + 100)
    X["flag"] = pd.array(np.where(rng.random(n) < missing, None, (X["height"].fillna(0) > 1).to_numpy()),
                         dtype="boolean")
    X["count"] = rng.integers(-2, 4, n) + (y == "high")
    return X.assign(cls=y)


def write(frame, path, kind, group=None):
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if kind == "parquet":
        pq.write_table(table, path, row_group_size=group)
    else:
        feather.write_feather(table, path, chunksize=group)
    return path


def pandas_of(path):
    return pd.read_parquet(path) if str(path).endswith(".parquet") else pd.read_feather(path)


def proba(model, X):
    return model.predict_proba(X)


@pytest.mark.parametrize("kind", ["parquet", "feather"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_file_reads_as_its_pandas_frame(tmp_path, kind, seed):
    frame = typed_frame(300, seed)
    path = write(frame, tmp_path / f"d.{kind}", kind, group=[None, 37, 100][seed])
    got, ref = load_file(path), Dataset.from_frame(pandas_of(path))
    assert got.schema == ref.schema
    assert got.schema.attributes[0].values == ("red", "green", "blue", "violet")  # the dictionary's order
    assert got.schema.attributes[1].values == ("l", "m", "s", "xl")  # strings sorted, as a DataFrame's
    pd.testing.assert_frame_equal(got.X, ref.X)
    pd.testing.assert_series_equal(got.y, ref.y, check_names=False)
    assert got.name == "d" and got.X.isna().to_numpy().any()


@pytest.mark.parametrize("kind", ["parquet", "feather"])
@pytest.mark.parametrize("model", MODELS)
def test_whole_batched_and_pandas_fits_are_one_model(tmp_path, kind, model):
    """Differential: the file in memory, in batches of 41 rows (row groups of 64), and the pandas frame."""
    frame = typed_frame(400, 7)
    path = write(frame, tmp_path / f"d.{kind}", kind, group=64)
    X, y = frame.drop(columns="cls"), frame["cls"]
    ref = model().fit(X, y)
    expected = proba(ref, X)
    assert expected.std(axis=0).min() > 0.01  # the models see the data: not one answer for every row
    for fitted in (model().fit(load_file(path)), fit_file(model(), path, chunksize=41),
                   model().fit(pa.Table.from_pandas(X, preserve_index=False), pa.array(y))):
        assert list(fitted.classes_) == list(ref.classes_)
        np.testing.assert_allclose(proba(fitted, X), expected, rtol=1e-10, atol=1e-12)


def test_batches_keep_one_schema_and_every_row(tmp_path):
    frame = typed_frame(250, 3)
    path = write(frame, tmp_path / "d.parquet", "parquet", group=60)
    chunks = list(iter_file_chunks(path, chunksize=25))
    assert max(len(X) for X, _ in chunks) <= 25
    whole = pd.concat([X for X, _ in chunks], ignore_index=True)
    assert len(whole) == len(frame)  # the class has no missing values here
    assert all(list(X["colour"].cat.categories) == ["red", "green", "blue", "violet"] for X, _ in chunks)
    pd.testing.assert_frame_equal(whole, load_file(path).X)


def test_a_search_from_a_parquet_file_equals_the_in_memory_search(tmp_path):
    frame = typed_frame(300, 5, missing=0)
    path = write(frame, tmp_path / "d.parquet", "parquet", group=50)
    d = load_file(path)
    streamed, whole = search_file(BSE(), path, chunksize=70), BSE().fit(d)
    assert streamed.history_ == whole.history_
    np.testing.assert_allclose(proba(streamed, d.X), proba(whole, d.X), rtol=1e-12)


@pytest.mark.parametrize("kind", ["parquet", "feather"])
def test_prediction_reads_columns_by_name_and_counts_unseen_values(tmp_path, kind):
    train = typed_frame(300, 11, missing=0)
    model = TAN().fit(train.drop(columns="cls"), train["cls"])
    test = typed_frame(120, 12).iloc[:, ::-1].copy()  # other column order
    test["size"] = test["size"].where(np.arange(120) % 10 != 0, "huge")  # 12 values never seen
    path = write(test, tmp_path / f"t.{kind}", kind, group=50)
    with pytest.warns(UnseenValueWarning, match="'size' 12"):
        X, actual = load_for_model(path, model.schema_, with_class=True)
    expected = test.drop(columns="cls")[list(model.schema_.names)].copy()
    expected.loc[expected["size"] == "huge", "size"] = np.nan
    np.testing.assert_allclose(model.predict_proba(X), model.predict_proba(expected), rtol=1e-12)
    assert list(actual) == list(test["cls"])
    out = tmp_path / "p.csv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnseenValueWarning)
        predict_file(model, path, out, chunksize=17, proba=True)
    written = pd.read_csv(out)
    np.testing.assert_allclose(written.filter(like="P(").to_numpy(), model.predict_proba(expected), atol=1e-6)


def test_a_model_from_csv_predicts_a_parquet_file(tmp_path):
    """The model's values are text (read from CSV); the file's column holds integers."""
    csv = tmp_path / "d.csv"
    frame = pd.DataFrame({"k": [1, 2, 3, 1, 2, 3, 1, 1], "c": list("ppqqppqq")})
    frame.to_csv(csv, index=False)
    model = NaiveBayes().fit(load_file(csv, nominal=["k"]))
    path = write(frame.drop(columns="c"), tmp_path / "d.parquet", "parquet")
    X = load_for_model(path, model.schema_)
    assert X["k"].tolist() == ["1", "2", "3", "1", "2", "3", "1", "1"]


def test_forced_kinds_and_dates(tmp_path):
    frame = pd.DataFrame({"day": pd.to_datetime(["2020-01-01", "2020-01-02", None, "2020-01-04"]),
                          "k": [3, 10, 2, 10], "s": ["1.5", "2", None, "3"], "c": list("pqpq")})
    path = write(frame, tmp_path / "d.parquet", "parquet")
    d = load_file(path, nominal=["k"], numeric=["s"])
    assert d.schema.attributes[1].values == (2, 3, 10)  # sorted by number, as a DataFrame's
    assert d.X["s"].tolist()[:2] == [1.5, 2.0] and np.isnan(d.X["s"][2])
    assert d.X["day"][1] - d.X["day"][0] == 86_400_000  # milliseconds since the epoch, as ARFF dates
    bad = write(frame.assign(s=["x", "2", None, "3"]), tmp_path / "e.parquet", "parquet")
    with pytest.raises(DataFormatError, match="e.parquet, column s: expected numbers"):
        load_file(bad, numeric=["s"])
    assert load_file(path, target="k").schema.target.values == (2, 3, 10)


def test_bad_files_get_one_line(tmp_path, capsys):
    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1 this is not one PAR1")
    with pytest.raises(DataFormatError, match="not a readable parquet file"):
        load_file(path)
    measured = write(pd.DataFrame({"a": list("xyzw"), "c": [1.5, 2.25, 3.125, 4.0625]}), tmp_path / "m.parquet",
                     "parquet")
    with pytest.raises(DataFormatError, match="class column 'c' holds numbers that are not whole"):
        load_file(measured)
    assert main(["fit", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0]


def test_the_command_line_fits_evaluates_and_predicts_parquet(tmp_path, capsys):
    frame = typed_frame(200, 9, missing=0)
    path = write(frame, tmp_path / "d.parquet", "parquet", group=64)
    model = tmp_path / "m.json"
    assert main(["fit", str(path), "--model", "tan", "-m", str(model), "--chunksize", "50"]) == 0
    capsys.readouterr()
    assert main(["predict", "-m", str(model), str(path), "--proba", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    got = pd.read_csv(pd.io.common.StringIO(out)).filter(like="P(").to_numpy()
    ref = TAN().fit(frame.drop(columns="cls"), frame["cls"])
    np.testing.assert_allclose(got, ref.predict_proba(frame.drop(columns="cls")), atol=1e-4)
    assert main(["evaluate", str(path), "--cv", "3"]) == 0
    assert "accuracy" in capsys.readouterr().out.lower()


def test_dask_reads_parquet_partitions_as_one_fit(tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    from seminaive.scale.dask import fit_dask
    frame = typed_frame(300, 13)
    path = write(frame.drop(columns=["flag"]), tmp_path / "d.parquet", "parquet", group=60)
    ddf = dd.read_parquet(path, split_row_groups=True)
    assert ddf.npartitions > 1
    d = load_file(path)
    for model in (NaiveBayes, TAN):
        fitted, ref = fit_dask(model(), ddf.drop(columns="cls"), ddf["cls"]), model().fit(d)
        np.testing.assert_allclose(proba(fitted, d.X), proba(ref, d.X), rtol=1e-10)


def test_a_saved_pandas_index_is_not_a_column(tmp_path):
    """pandas writes a filtered frame's index as a last column (``__index_level_0__``): read as the
    class, it would have been the wrong class. It is left out, as ``pandas.read_parquet`` leaves it."""
    frame = typed_frame(120, 4).iloc[np.r_[0:30, 50:90]]  # no longer a range: the index is stored
    frame.to_parquet(tmp_path / "d.parquet")
    assert "__index_level_0__" in pq.read_schema(tmp_path / "d.parquet").names
    got, ref = load_file(tmp_path / "d.parquet"), Dataset.from_frame(pd.read_parquet(tmp_path / "d.parquet"))
    assert got.schema == ref.schema and got.schema.target.name == "cls"
    frame[["colour", "cls"]].set_index("colour").to_parquet(tmp_path / "i.parquet")
    with pytest.raises(DataFormatError, match="colour is a pandas index"):
        load_file(tmp_path / "i.parquet")
