"""One data layer: every reader, in memory and streamed in chunks, and Dask
partitions, give the same schema, value order and model; the divergences the
streamed path once had, each as a test."""

import pathlib
import warnings

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes, ParameterError, UnseenValueWarning
from seminaive.data import load_file, read_csv
from seminaive.datasets import dataset_path
from seminaive.scale import fit_file, predict_file

HERE = pathlib.Path(__file__).parent
BUNDLED = pathlib.Path(dataset_path("iris")).parent
FILES = ([BUNDLED / f for f in ("weather.nominal.arff", "weather.numeric.arff", "iris.arff", "ihealth.csv",
                                  "led.dat", "wave.dat")]
         + [HERE / "data" / "weka" / f"{n}.arff" for n in ("labor", "vote", "breast-cancer", "credit-g", "glass")])


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.name)
def data_file(request):
    return request.param


@pytest.mark.parametrize("chunksize", [7, 50, 100_000])
def test_streamed_reading_equals_in_memory(data_file, chunksize):
    d = load_file(data_file)
    memory = NaiveBayes().fit(d)
    streamed = fit_file(NaiveBayes(), data_file, chunksize=chunksize)
    assert streamed.schema_ == memory.schema_  # names, kinds and every value list in the same order
    assert list(streamed.classes_) == list(memory.classes_)
    np.testing.assert_allclose(streamed.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-9, atol=1e-12)


def test_dask_partitions_give_the_same_model(data_file):
    dd = pytest.importorskip("dask.dataframe")
    from seminaive.scale.dask import fit_dask
    d = load_file(data_file)
    memory = NaiveBayes().fit(d)  # the file's classes in the file's order
    ddf = dd.from_pandas(d.X.assign(__class=d.y), npartitions=3)
    # a pandas categorical declares no order (its classes are sorted, as fit(X, y) sorts them): the
    # file's declared order is given as classes
    m = fit_dask(NaiveBayes(), ddf.drop(columns="__class"), ddf["__class"], classes=list(d.y.cat.categories))
    sorted_fit = fit_dask(NaiveBayes(), ddf.drop(columns="__class"), ddf["__class"])
    assert list(sorted_fit.classes_) == sorted(d.y.cat.categories) == list(NaiveBayes().fit(d.X, d.y.cat.as_unordered()).classes_)
    assert [a.values for a in m.schema_.attributes] == [a.values for a in memory.schema_.attributes]
    assert list(m.classes_) == list(memory.classes_)
    np.testing.assert_allclose(m.predict_proba(d.X), memory.predict_proba(d.X), rtol=1e-9, atol=1e-12)


def test_a_filebase_streams_as_a_filebase():
    m = fit_file(NaiveBayes(), BUNDLED / "led.dat", chunksize=30)
    assert m.schema_.names[0] == "a1" and all(a.is_nominal for a in m.schema_.attributes)


def test_user_nominal_numbers_are_sorted_by_number_everywhere(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("a,b,c\n10,1.5,x\n9,2.5,y\n2,1.0,x\n10,3.0,y\n")
    assert read_csv(path, nominal=["a"]).schema.attributes[0].values == ("2", "9", "10")
    streamed = fit_file(NaiveBayes(), path, chunksize=2, nominal=["a"])
    assert streamed.schema_.attributes[0].values == ("2", "9", "10")


def test_text_only_in_the_last_chunk_makes_the_column_nominal(tmp_path):
    path = tmp_path / "late.csv"
    rows = [f"{i % 3},{i % 2 and 'p' or 'q'}" for i in range(20)] + ["high,p"]
    path.write_text("v,cls\n" + "\n".join(rows) + "\n")
    memory = NaiveBayes().fit(load_file(path))
    streamed = fit_file(NaiveBayes(), path, chunksize=5)
    assert streamed.schema_ == memory.schema_ and memory.schema_.attributes[0].values == ("0", "1", "2", "high")


def test_nominal_all_streams(tmp_path, capsys):
    from seminaive.cli.main import main
    path = tmp_path / "a.csv"
    path.write_text("x,y,cls\n1,2,a\n3,4,b\n1,4,a\n")
    m = fit_file(NaiveBayes(), path, chunksize=2, nominal="all")
    assert all(a.is_nominal for a in m.schema_.attributes)
    assert main(["fit", str(path), "--chunksize", "2", "--nominal", "all"]) == 0
    assert "x (nominal" in capsys.readouterr().out


def test_a_column_index_out_of_range_is_refused(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("a,b,cls\n1,2,x\n3,4,y\n")
    with pytest.raises(ParameterError, match="nominal: column index 4 is out of range for 3 columns"):
        read_csv(path, nominal=[4])


def test_streamed_prediction_warns_about_unseen_values(tmp_path):
    train, new = tmp_path / "t.csv", tmp_path / "n.csv"
    train.write_text("u,cls\na,x\nb,y\na,x\n")
    new.write_text("u,cls\na,x\nzz,y\nzz,x\n")
    m = NaiveBayes().fit(load_file(train))
    with pytest.warns(UnseenValueWarning, match="'u' 2"):
        predict_file(m, new, tmp_path / "out.csv", chunksize=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        predict_file(m, train, tmp_path / "out2.csv", chunksize=2)  # nothing unseen: no warning


def test_streamed_prediction_matches_columns_by_name(tmp_path):
    train, new = tmp_path / "t.csv", tmp_path / "n.csv"
    train.write_text("u,v,cls\na,1,x\nb,2,y\na,1.5,x\n")
    new.write_text("v,u\n2,b\n1,a\n")
    m = NaiveBayes().fit(load_file(train))
    predict_file(m, new, tmp_path / "o.csv", chunksize=1, unlabelled=True)
    want = m.predict(pd.DataFrame({"u": ["b", "a"], "v": [2.0, 1.0]}))
    assert (tmp_path / "o.csv").read_text().split()[1:] == list(want)
    other = tmp_path / "other.csv"
    other.write_text("p,q\n1,2\n")
    from seminaive import DataFormatError
    with pytest.raises(DataFormatError, match="the model's attribute\\(s\\) 'u', 'v' are not columns of the file"):
        predict_file(m, other, tmp_path / "o2.csv", chunksize=1, unlabelled=True)
