"""The codes path (issue 45): nominal data held as integer codes with declared widths fit and
predict as the same data in a DataFrame of categoricals does (every value declared), for every
tabular estimator; bad codes are refused in one line naming what is wrong."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from _estimators import ESTIMATORS, ids, optimized
from seminaive.data import Codes
from seminaive.exceptions import ParameterError

WIDTHS = [3, 2, 4, 5]
NAMES = ["a", "b", "c", "d"]


def _data(n=80, seed=0, missing=0.1):
    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, w - (j == 2), n) for j, w in enumerate(WIDTHS)])  # c's last value unseen
    codes[rng.random(codes.shape) < missing] = -1
    score = (codes[:, 0] == 1) + (codes[:, 1] == 0) * (codes[:, 3] > 2) + rng.random(n) * 0.8
    y = np.where(score > 1.0, "yes", np.where(score > 0.5, "maybe", "no"))
    return codes, y


def _frame(codes):
    return pd.DataFrame({name: pd.Categorical.from_codes(codes[:, j], categories=[str(v) for v in range(w)])
                         for j, (name, w) in enumerate(zip(NAMES, WIDTHS))})


@pytest.mark.parametrize("estimator", [e for e in ESTIMATORS if not optimized(e)], ids=ids)
def test_codes_fit_and_predict_as_the_dataframe(estimator):
    codes, y = _data()
    test, _ = _data(30, seed=1)
    from_codes = clone(estimator).fit(Codes(codes, WIDTHS, NAMES), y)
    from_frame = clone(estimator).fit(_frame(codes), y)
    assert from_codes.schema_ == from_frame.schema_
    got = from_codes.predict_proba(Codes(test, WIDTHS, NAMES))
    np.testing.assert_allclose(got, from_frame.predict_proba(_frame(test)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.sum(axis=1), 1.0)
    assert from_codes.predict(Codes(test, WIDTHS, NAMES)).tolist() == from_frame.predict(_frame(test)).tolist()
    # a model fitted on codes predicts a DataFrame of the same attributes, and the reverse
    np.testing.assert_allclose(from_codes.predict_proba(_frame(test)), got, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(from_frame.predict_proba(Codes(test, WIDTHS, NAMES)), got, rtol=1e-12, atol=1e-12)


def test_labels_name_the_values():
    codes, y = _data()
    labels = [["lo", "mid", "hi"], ["f", "t"], ["p", "q", "r", "s"], list("vwxyz")]
    m = clone(ESTIMATORS[0]).fit(Codes(codes, WIDTHS, NAMES, labels), y)
    assert m.schema_.attributes[0].values == ("lo", "mid", "hi")
    frame = pd.DataFrame({n: pd.Categorical.from_codes(codes[:, j], categories=labels[j]) for j, n in enumerate(NAMES)})
    np.testing.assert_allclose(m.predict_proba(frame), m.predict_proba(Codes(codes, WIDTHS, NAMES, labels)))


def _with(codes, j, value):
    """``codes`` with one row of column ``j`` set to ``value``."""
    out = codes.copy()
    out[7, j] = value
    return out


@pytest.mark.parametrize("make,message", [
    (lambda c: Codes(c.astype(float), WIDTHS), "codes: expected integers"),
    (lambda c: Codes(c[:, 0], WIDTHS), "codes: expected a 2-D array"),
    (lambda c: Codes(c, WIDTHS[:3]), "n_values: expected 4 whole numbers"),
    (lambda c: Codes(c, [3, 2, -1, 5]), "n_values: expected 4 whole numbers"),
    (lambda c: Codes(_with(c, 1, 3), WIDTHS), r"codes: column 1 \(x1\) holds 3; expected -1 \(missing\) to 1"),
    (lambda c: Codes(_with(c, 2, -2), WIDTHS), r"codes: column 2 \(x2\) holds -2"),
    (lambda c: Codes(c, WIDTHS, ["a", "a", "b", "c"]), "names: expected 4 distinct names"),
    (lambda c: Codes(c, WIDTHS, values=[["x"]] * 4), "values: expected one list of labels per column"),
])
def test_bad_codes_are_refused_in_one_line(make, message):
    codes, _ = _data()
    with pytest.raises(ParameterError, match=message) as err:
        make(codes)
    assert "\n" not in str(err.value)


def test_codes_of_other_attributes_are_refused_at_prediction():
    codes, y = _data()
    m = clone(ESTIMATORS[0]).fit(Codes(codes, WIDTHS, NAMES), y)
    with pytest.raises(ParameterError, match=r"X: attribute 'c' has 4 values in the model, got codes of 5 values"):
        m.predict(Codes(codes, [3, 2, 5, 5], NAMES))
    with pytest.raises(ParameterError, match="X: expected the attributes a, b, c, d, got codes of x0"):
        m.predict(Codes(codes, WIDTHS))


def _arrow(codes, chunks=1, seed=0):
    """The codes as a pyarrow table of dictionary columns in ``chunks`` chunks, each chunk with its own
    dictionary (the values it holds, in a shuffled order), as files written in parts have them."""
    import pyarrow as pa
    rng = np.random.default_rng(seed)
    cut = np.linspace(0, len(codes), chunks + 1).astype(int)
    columns = {}
    for j, (name, w) in enumerate(zip(NAMES, WIDTHS)):
        parts = []
        for a, b in zip(cut[:-1], cut[1:]):
            labels = np.array([f"v{v}" for v in range(w)], dtype=object)[rng.permutation(w)]
            where = {v: i for i, v in enumerate(labels)}
            idx = [None if c < 0 else where[f"v{c}"] for c in codes[a:b, j]]
            parts.append(pa.DictionaryArray.from_arrays(pa.array(idx, pa.int32()), pa.array(labels.tolist())))
        columns[name] = pa.chunked_array(parts)
    return pa.table(columns)


@pytest.mark.parametrize("chunks", [1, 3])
@pytest.mark.parametrize("estimator", [e for e in ESTIMATORS if not optimized(e)][:8], ids=ids)
def test_an_arrow_table_of_dictionary_columns_fits_as_its_pandas_frame(estimator, chunks):
    """Codes.from_arrow gives the model of the same table through pandas (dictionary columns become
    categoricals), chunks with different dictionaries unified, nulls missing; it predicts both inputs alike."""
    codes, y = _data()
    test, _ = _data(30, seed=1)
    table, test_table = _arrow(codes, chunks), _arrow(test, 2, seed=5)
    frame = table.to_pandas()
    X = Codes.from_arrow(table)
    assert (X.codes == -1).sum() == frame.isna().to_numpy().sum() == (codes == -1).sum()
    from_arrow, from_frame = clone(estimator).fit(X, y), clone(estimator).fit(frame, y)
    assert from_arrow.schema_ == from_frame.schema_
    want = from_frame.predict_proba(test_table.to_pandas()[frame.columns])
    test_codes = Codes.from_arrow(test_table)  # its dictionaries in another order: read by label
    assert test_codes.schema != from_arrow.schema_
    got = from_arrow.predict_proba(test_codes)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(from_arrow.predict_proba(frame), from_frame.predict_proba(frame), rtol=1e-12, atol=1e-12)


def test_a_parquet_files_dictionary_columns_read_as_codes(tmp_path):
    import pyarrow.parquet as pq
    from seminaive import NaiveBayes
    codes, y = _data(200)
    pq.write_table(_arrow(codes, 4), tmp_path / "d.parquet", row_group_size=50)
    table = pq.read_table(tmp_path / "d.parquet", read_dictionary=NAMES)
    X = Codes.from_arrow(table)
    m, whole = NaiveBayes().fit(X, y), NaiveBayes().fit(table.to_pandas(), y)
    np.testing.assert_allclose(m.predict_proba(X), whole.predict_proba(table.to_pandas()), rtol=1e-12)
    assert [a.values for a in m.schema_.attributes] == [tuple(table.column(n).chunk(0).dictionary.to_pylist())
                                                        for n in NAMES]


def test_an_arrow_column_with_no_values_and_bad_tables_are_refused_or_kept_as_pandas_has_them():
    import pyarrow as pa
    from seminaive import NaiveBayes
    empty = pa.table({"a": pa.array([None, None, None], pa.string()).dictionary_encode(),
                      "b": pa.array(["x", "y", "x"]).dictionary_encode()})
    X = Codes.from_arrow(empty)
    assert X.n_values.tolist() == [0, 2] and X.codes[:, 0].tolist() == [-1, -1, -1]
    y = ["p", "q", "p"]
    np.testing.assert_allclose(NaiveBayes().fit(X, y).predict_proba(X),
                               NaiveBayes().fit(empty.to_pandas(), y).predict_proba(empty.to_pandas()), rtol=1e-12)
    with pytest.raises(ParameterError, match=r"column 'b' is string, not a dictionary column"):
        Codes.from_arrow(pa.table({"a": pa.array(["x"]).dictionary_encode(), "b": pa.array(["y"])}))
    with pytest.raises(ParameterError, match=r"expected a pyarrow Table or RecordBatch, got DataFrame"):
        Codes.from_arrow(empty.to_pandas())
    batch = pa.RecordBatch.from_pandas(empty.to_pandas())
    assert Codes.from_arrow(batch).codes.tolist() == X.codes.tolist()


def test_labelled_codes_are_read_by_label_and_an_unknown_label_is_unseen():
    import pyarrow as pa
    from seminaive import NaiveBayes
    from seminaive.exceptions import UnseenValueWarning
    train = pa.table({"a": pa.array(["x", "y", "x", "z"]).dictionary_encode()})
    m = NaiveBayes().fit(Codes.from_arrow(train), ["p", "q", "p", "q"])
    other = pa.table({"a": pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int32()), pa.array(["z", "w", "x"]))})
    with pytest.warns(UnseenValueWarning, match=r"'a' 1"):
        got = m.predict_proba(Codes.from_arrow(other))
    frame = pd.DataFrame({"a": pd.Categorical(["z", None, "x"], categories=["x", "y", "z"])})
    np.testing.assert_allclose(got, m.predict_proba(frame), rtol=1e-12)
