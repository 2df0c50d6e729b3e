"""Every registered model kind and preset: saved and loaded, it predicts exactly as before saving;
given evidence impossible under some or all classes, it still answers with probabilities.

The list is the registry's (every ``--model`` and ``compare`` name, every ESKDB preset), not a
list kept here: a model that joins the registry is covered without a line of this file.
"""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from seminaive import ESKDB
from seminaive._count_models import CountModel
from seminaive.exceptions import ParameterError, UnseenValueWarning
from seminaive.persistence import model_from_dict, model_to_dict

from conftest import mixed_frame
from _estimators import registered_models


MODELS = registered_models()


def _counts():
    """Count data (the count models' input): two classes with different word rates."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    return rng.poisson(np.where(y[:, None] == 1, [3.0, 1.0, 0.5, 2.0], [1.0, 2.0, 2.0, 0.5])), y


def _data():
    """Mixed data with an interaction the weights and the parents can use (so that weighted models
    keep weights) and missing values."""
    X, y = mixed_frame(240, seed=3, missing=0.05)
    flip = (X["size"].isin(["s", "m"])) & (X["height"] > 1.5)
    y = np.where(flip & (y == "high"), "low", y).astype(object)
    return X, y


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_registered_model_predicts_the_same_after_saving(name):
    model = clone(MODELS[name])
    X, y = _counts() if isinstance(model, CountModel) else _data()
    params = model.get_params()
    if "n_estimators" in params:  # members after the first are what an ensemble adds; 4 show it
        model.set_params(n_estimators=4)
    if "min_rates" in params and params["min_rates"] is None:  # the command line's --min-rate
        model.set_params(min_rates={"minority": 0.8})
    model.fit(X, y)
    loaded = model_from_dict(json.loads(json.dumps(model_to_dict(model))))
    p = model.predict_proba(X)
    np.testing.assert_allclose(loaded.predict_proba(X), p, rtol=0, atol=1e-12)
    if not name.endswith("zeror"):  # the majority rule predicts the priors by design
        assert np.ptp(p, axis=0).max() > 0.1  # the model learned something a wrong load could lose


def test_the_discriminative_ensemble_keeps_weights_after_its_first_member():
    """The case that broke: members after the first fitted with the first's penalty; on loading they
    were rebuilt without weights."""
    X, y = _data()
    m = ESKDB(n_estimators=3, k=2, discriminative="parameter").fit(X, y)
    assert m.penalty_ is not None and all(e.weights_ is not None for e in m.estimators_)
    loaded = model_from_dict(json.loads(json.dumps(model_to_dict(m))))
    assert loaded.penalty_ == m.penalty_
    for a, b in zip(m.estimators_, loaded.estimators_):
        np.testing.assert_allclose(b.predict_proba(X), a.predict_proba(X), rtol=0, atol=1e-12)


def _fitted(name, alpha=None):
    """The registered model ``name`` fitted on its kind of data (optionally with ``alpha``)."""
    model = clone(MODELS[name])
    counts = isinstance(model, CountModel)
    X, y = _counts() if counts else _data()
    params = model.get_params()
    if "n_estimators" in params:
        model.set_params(n_estimators=4)
    if "min_rates" in params and params["min_rates"] is None:
        model.set_params(min_rates={"minority": 0.8})
    if alpha is not None:
        model.set_params(alpha=alpha)
    return model.fit(X, y), counts


def _hostile_rows(counts):
    """Rows whose evidence is impossible, or of no float's size, under some or all classes."""
    if counts:
        return np.array([[0, 0, 0, 0], [10 ** 6, 0, 0, 0], [0, 0, 0, 10 ** 9], [10 ** 9, 10 ** 9, 10 ** 9, 10 ** 9]])
    X, _ = _data()
    rows = X.iloc[:6].copy().reset_index(drop=True)
    rows.loc[0, ["height", "weight"]] = [1e300, -1e300]
    rows.loc[1, ["height", "weight"]] = [-1e300, 1e-320]
    rows.loc[2, :] = np.nan
    rows.loc[3, "height"] = 1e12
    rows.loc[4, ["colour", "size"]] = ["violet", "s"]  # violet: declared, never seen
    return rows


@pytest.mark.parametrize("alpha", [None, 0.0], ids=["default", "alpha=0"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_registered_model_answers_evidence_impossible_under_some_or_all_classes(name, alpha):
    """Probabilities finite, each row summing to 1, the decision the most probable class: for values
    of no float's size, a row of nothing, an unseen value and (alpha = 0) counts of zero."""
    if alpha is not None and "alpha" not in MODELS[name].get_params():
        pytest.skip("no alpha to set")
    try:
        model, counts = _fitted(name, alpha)
    except ParameterError as e:  # a model may refuse alpha = 0 (one line naming the parameter), not fail later
        assert alpha == 0 and str(e).startswith("alpha: expected")
        return
    rows = _hostile_rows(counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnseenValueWarning)
        p = model.predict_proba(rows)
        pred = model.predict(rows)
    assert np.isfinite(p).all() and (p >= 0).all()
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    assert (p[np.arange(len(p)), np.searchsorted(model.classes_, pred)] >= p.max(axis=1) - 1e-9).all()


def test_an_ensemble_whose_members_rule_classes_out_averages_them():
    """ESKDB with normal children on well-separated numbers: every member gives some classes a
    probability below the smallest float; the ensemble is still the members' average (it took the log
    of a mean of probabilities of 0 and crashed)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    X = pd.DataFrame(rng.normal(y[:, None] * 3.0, 1.0, (300, 40)), columns=[f"a{i}" for i in range(40)])
    m = ESKDB(n_estimators=3, k=2, hybrid="gaussian").fit(X, y)
    members = np.array([e.predict_proba(X) for e in m.estimators_])
    assert (members == 0).all(axis=0).any()  # a class every member rules out in float arithmetic
    p = m.predict_proba(X)
    np.testing.assert_allclose(p, members.mean(axis=0), rtol=1e-12, atol=1e-300)
    assert (m.predict(X) == m.classes_[p.argmax(axis=1)]).all()
