"""What outside data, hostile files and saved ensembles still broke (issue 64): each case as a
user met it, then the rule that fixed it where it starts. (Saved ensembles, impossible evidence:
``test_registered_models.py``; the order of values: ``test_value_order.py``.)"""

import warnings

import numpy as np
import pandas as pd
import pytest

from seminaive import NaiveBayes
from seminaive.data import load_file
from seminaive.exceptions import UnseenValueWarning
from seminaive.scale import fit_file


def _quiet_proba(model, X):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnseenValueWarning)  # an unseen value is the defect here
        return model.predict_proba(X)


def test_numbers_made_nominal_meet_their_text_on_every_route(tmp_path):
    """``nominal=["a"]`` in memory kept the numbers, from the file their text: text values such as '1'
    were unseen by the first model. A number and its text now meet one value whichever the model holds."""
    path = tmp_path / "n.csv"
    path.write_text("a,b,cls\n1,x,p\n2,y,q\n1,y,p\n3,x,q\n2,x,p\n10,y,q\n")
    memory = NaiveBayes(nominal=["a"]).fit(load_file(path, target="cls"))
    streamed = fit_file(NaiveBayes(nominal=["a"]), path, target="cls")
    assert memory.schema_.attributes[0].values == (1, 2, 3, 10)
    assert streamed.schema_.attributes[0].values == ("1", "2", "3", "10")
    expected = _quiet_proba(memory, pd.DataFrame({"a": [1, 2, 3, 10], "b": ["x", "y", "x", "y"]}))
    assert np.ptp(expected[:, 0]) > 0.1
    for a in (["1", "2", "3", "10"], [1.0, 2.0, 3.0, 10.0], pd.Categorical(["1", "2.0", "3", "10"]), [1, 2, 3, 10]):
        X = pd.DataFrame({"a": a, "b": ["x", "y", "x", "y"]})
        np.testing.assert_array_equal(_quiet_proba(memory, X), expected)
        np.testing.assert_array_equal(_quiet_proba(streamed, X), expected)
    with pytest.warns(UnseenValueWarning):  # text that is no number stays unseen
        memory.predict_proba(pd.DataFrame({"a": ["one"], "b": ["x"]}))


def _saved(model, X, y):
    from seminaive.persistence import model_to_dict
    import json
    return json.loads(json.dumps(model_to_dict(model.fit(X, y))))


@pytest.mark.parametrize("change, field", [
    (lambda d: d["state"].__setitem__("classes", ["p", "q", "p"]), "state.classes"),
    (lambda d: d["state"].__setitem__("classes", ["p", 1, "1"]), "state.classes"),
    (lambda d: d["state"]["schema"]["attributes"][0]["values"].__setitem__(1, True), "state.schema.attributes[0]"),
])
def test_a_model_file_with_labels_of_another_meaning_is_refused(change, field):
    """A class label twice (the third class predicted as the first) and true among texts (a value then
    unseen) loaded with another meaning; each is refused naming the field."""
    from seminaive.exceptions import DataFormatError
    from seminaive.persistence import model_from_dict
    from conftest import mixed_frame
    X, y = mixed_frame(120, seed=2)
    d = _saved(NaiveBayes(), X.astype({"size": "category"}), y)
    change(d)
    with pytest.raises(DataFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        model_from_dict(d)


def test_a_normal_child_s_prior_weight_below_a_millionth_of_a_row_is_refused():
    """m = 5e-324 loaded, and an empty cell's mean m * mu / m underflowed (predict and predict_proba
    disagreed)."""
    from seminaive import SelectiveKDB
    from seminaive.exceptions import DataFormatError
    from seminaive.persistence import model_from_dict
    rng = np.random.default_rng(0)
    n = 400
    a, y = rng.integers(0, 3, n), rng.integers(0, 2, n)
    X = pd.DataFrame({"a": np.array(list("abc"), dtype=object)[a], "x": rng.normal(y + a, 0.5),
                      "z": rng.normal(y, 1, n)})
    d = _saved(SelectiveKDB(k=1, hybrid="gaussian"), X, y)
    assert d["state"]["normal_children"]
    for m in (5e-324, 0.0, 1e-9):
        d["state"]["normal_children"][0]["m"] = m
        with pytest.raises(DataFormatError, match=r"state\.normal_children\[0\]\.m"):
            model_from_dict(d)
    d["state"]["normal_children"][0]["m"] = 4.0  # another weight the fit could have chosen loads
    model_from_dict(d).predict_proba(X)


@pytest.mark.parametrize("make", ["tan", "kdb2", "skdb", "eskdb"])
def test_discriminative_weights_choose_folds_from_the_rows_they_have(make):
    """Every class of fewer rows than the penalty's five folds: scikit-learn's StratifiedKFold refused
    (n_splits=5 cannot be greater than the number of members in each class); the project's fold maker
    deals each class into as many folds as it has rows. And a class of three rows among larger ones."""
    from seminaive.models import make_model
    from conftest import mixed_frame
    spec = {"eskdb": "eskdb:n_estimators=2"}.get(make, make)
    X, y = mixed_frame(150, seed=5, missing=0.0)
    y = y.copy()
    y[:3] = "rare"  # three rows of a fourth class
    for rows in (slice(0, 11), slice(None)):  # 11 rows: classes of 3 and 4 rows; then all 150
        model = make_model(spec).set_params(discriminative="parameter").fit(X[rows], y[rows])
        p = model.predict_proba(X)
        assert "rare" in model.classes_ and np.allclose(p.sum(axis=1), 1.0)
        assert (model.predict(X[rows]) == y[rows]).mean() > 0.5
