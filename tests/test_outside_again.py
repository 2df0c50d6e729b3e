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
