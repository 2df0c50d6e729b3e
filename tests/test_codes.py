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
    (lambda c: Codes(c, [3, 2, 0, 5]), "n_values: expected 4 whole numbers"),
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
