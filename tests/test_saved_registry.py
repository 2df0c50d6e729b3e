"""Every registered model kind and preset, saved and loaded, predicts exactly as before saving.

The list is the registry's (every ``--model`` and ``compare`` name, every ESKDB preset), not a
list kept here: a model that joins the registry is covered without a line of this file.
"""

import json

import numpy as np
import pytest
from sklearn.base import clone

from seminaive import ESKDB
from seminaive._count_models import CountModel
from seminaive.persistence import model_from_dict, model_to_dict
from seminaive.bayesnet.eskdb import PRESETS
from seminaive.models import PEERS
from seminaive.registry import variants

from conftest import mixed_frame


def _registered():
    """(name, unfitted model) for every registered model kind, comparison name and preset."""
    out = {}
    for name, (_, make) in variants("model").items():
        out[f"model:{name}"] = make()
    for name, (_, make) in variants("compare").items():
        if name in PEERS:
            continue
        out[f"compare:{name}"] = make(0.8) if name.endswith(":R") else make()
    for name in PRESETS:
        out[f"preset:{name}"] = ESKDB.preset(name)
    return out


MODELS = _registered()


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
