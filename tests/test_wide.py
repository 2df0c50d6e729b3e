"""Wide data (thousands of attributes): a CSV's numbers read as one block, a model file that
loads and saves with every number checked, a printout that summarizes past 100 attributes."""

import json

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes, load_file, load_model, save_model
from seminaive.data.file_plan import plan_file
from seminaive.exceptions import DataFormatError
from seminaive.persistence import model_to_dict


@pytest.fixture
def wide_csv(tmp_path):
    rng = np.random.default_rng(0)
    n, d = 40, 6000
    y = np.arange(n) % 2
    frame = pd.DataFrame(np.round(rng.normal(size=(n, d)) + 0.4 * y[:, None], 3), columns=[f"f{j}" for j in range(d)])
    frame.insert(5, "word", np.where(rng.random(n) < 0.5, "u", "v"))
    frame["cls"] = np.where(y, "a", "b")
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_a_wide_csv_reads_as_its_frame(wide_csv):
    path, frame = wide_csv
    d = load_file(path)
    assert list(d.X.columns) == list(frame.columns[:-1])
    np.testing.assert_array_equal(d.X.drop(columns="word").to_numpy(), frame.drop(columns=["word", "cls"]).to_numpy())
    assert d.X["word"].tolist() == frame["word"].tolist()
    assert d.schema.attributes[5].values == tuple(dict.fromkeys(frame["word"]))  # in order of first appearance
    by_tokens = next(plan_file(path).encoded_by_tokens(None))  # the tokenizer's reading, column by column
    pd.testing.assert_frame_equal(d.X, by_tokens.X)


def test_a_wide_model_file_round_trips_and_is_checked(wide_csv, tmp_path):
    path, _ = wide_csv
    d = load_file(path)
    model = NaiveBayes().fit(d)
    out = tmp_path / "m.json"
    save_model(model, out)
    text = out.read_text()
    assert len(text) > 1 << 20 and "\n " not in text[:-1]  # past 1 MB: compact, written by the C encoder
    again = load_model(out)
    np.testing.assert_array_equal(again.predict_proba(d.X), model.predict_proba(d.X))
    small = tmp_path / "small.json"
    save_model(NaiveBayes().fit(d.X.iloc[:, :4], d.y), small)
    assert small.read_text().startswith('{\n "format"')  # a small model stays laid out for reading
    doc = model_to_dict(model)
    doc["state"]["stats"][5999]["m2"][1] = float("nan")  # deep in a wide file: still found and named
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc, allow_nan=True))
    with pytest.raises(DataFormatError, match=r"state\.stats\[5999\]\.m2\[1\]: NaN"):
        load_model(bad)


def test_a_wide_printout_is_summarized(wide_csv):
    model = NaiveBayes().fit(load_file(wide_csv[0]))
    text = model.to_text()
    assert text.count("(numeric, Gaussian") + text.count("(nominal,") == 100
    assert text.endswith("... and 5,901 more attributes (to_text(tables=True), or the command line's --tables, "
                         "prints every table)")
    whole = model.to_text(tables=True)
    assert whole.count("(numeric, Gaussian") == 6000 and "more attributes" not in whole
    narrow = NaiveBayes().fit(load_file(wide_csv[0]).X.iloc[:, :100], load_file(wide_csv[0]).y)
    assert narrow.to_text() == narrow.to_text(tables=True)


@pytest.mark.parametrize("dtype", ["string", "str", object])
def test_column_names_of_a_string_dtype_are_the_models_names(dtype):
    """Names held by a string dtype (pyarrow's or Python's) reach scikit-learn as Python strings: the
    model records and checks them as it does an object index's, a renamed column is refused by name,
    and predictions are those of the object-named frame."""
    from seminaive import TAN
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(60, 4)), columns=pd.Index(["a", "b", "c", "d"], dtype=dtype))
    y = np.where(X["a"] + rng.normal(size=60) > 0, "p", "q")
    plain = X.set_axis(pd.Index(["a", "b", "c", "d"], dtype=object), axis=1)
    for model in (NaiveBayes(), TAN()):
        m = model.fit(X, y)
        assert m.feature_names_in_.dtype == object and m.feature_names_in_.tolist() == ["a", "b", "c", "d"]
        np.testing.assert_array_equal(m.predict_proba(X), type(model)().fit(plain, y).predict_proba(plain))
        with pytest.raises(ValueError, match="'d'"):
            m.predict(X.set_axis(pd.Index(["a", "b", "c", "e"], dtype=dtype), axis=1))


@pytest.mark.parametrize("dtype", ["string", object])
def test_the_fitted_names_in_their_order_skip_scikit_learns_check_and_others_do_not(dtype):
    """A prediction frame named as the model was fitted, in that order, passes without scikit-learn's
    check (its cost per call); names in another order, or other names, still meet it."""
    import warnings
    from seminaive._target import check_names
    X = pd.DataFrame(np.arange(8.0).reshape(4, 2), columns=pd.Index(["a", "b"], dtype=dtype))
    m = NaiveBayes().fit(X, ["p", "q", "p", "q"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_names(m, X, reset=False) is None
    with pytest.raises(ValueError, match="order"):
        check_names(m, X[["b", "a"]], reset=False)
    with pytest.raises(ValueError, match="unseen at fit time"):
        check_names(m, X.set_axis(pd.Index(["a", "z"], dtype=dtype), axis=1), reset=False)
