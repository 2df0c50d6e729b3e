"""The contract every estimator keeps, run over all of them."""

import json
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import has_fit_parameter

from seminaive.evaluation.predictions import predictions
from seminaive.persistence import model_from_dict, model_to_dict

from _estimators import COUNT_ESTIMATORS, ESTIMATORS, chance_level, ids, optimized
from conftest import mixed_frame


def expected_failed_checks(estimator):
    """The checks an estimator cannot meet, declared to scikit-learn with the reason (xfail, not strict)."""
    if optimized(estimator):
        return {"check_sample_weight_equivalence_on_dense_data":
                "a numerical optimizer (SLSQP) fits the constrained model: weighted and repeated data give the "
                "same problem, but the solver's path, and so its stopping point, may differ beyond rtol 1e-7 "
                "(test_weights_equal_duplicated_rows holds it to the optimizer's tolerance)"}
    return {}


@parametrize_with_checks([clone(e) for e in ESTIMATORS + COUNT_ESTIMATORS],
                         expected_failed_checks=expected_failed_checks)
def test_sklearn_estimator_checks(estimator, check):
    """scikit-learn's own checks on numeric arrays (the array-API check skips unless SCIPY_ARRAY_API is set)."""
    check(estimator)


@pytest.fixture(params=ESTIMATORS, ids=ids)
def est(request):
    return clone(request.param)


def test_shapes_and_normalization(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    p = m.predict_proba(X)
    assert p.shape == (len(X), 3) and m.predict(X).shape == (len(X),)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)
    assert (p >= 0).all()
    np.testing.assert_allclose(np.log(p), m.predict_log_proba(X), atol=1e-10)
    assert set(m.predict(X)) <= set(m.classes_)
    assert (m.predict(X) == m.classes_[p.argmax(axis=1)]).all()


def test_predictions_in_one_pass_equal_predict_and_predict_proba(est, mixed):
    """What an evaluation takes from one joint log-likelihood (``predict_with_proba``) is exactly
    ``predict`` and ``predict_proba`` called apart, for every estimator (overriding ones included)."""
    X, y = mixed
    m = est.fit(X, y)
    pred, proba = predictions(m, X.iloc[::-1])
    assert (pred == np.asarray(m.predict(X.iloc[::-1]), dtype=object)).all() and pred.dtype == object
    np.testing.assert_array_equal(proba, m.predict_proba(X.iloc[::-1]))


def test_better_than_chance(est, mixed):
    X, y = mixed
    majority = max(np.mean(y == c) for c in set(y))
    score = est.fit(X, y).score(X, y)
    assert score == pytest.approx(majority) if chance_level(est) else score > majority + 0.2


def test_weights_equal_duplicated_rows(est):
    if not has_fit_parameter(est, "sample_weight"):
        pytest.skip(f"{type(est).__name__} takes no weights: its leave-one-out (a search's scores, a calibration "
                    f"map's probabilities) on copies differs from weights")
    if getattr(est, "_weights_not_copies", None):  # the model says why (NBTree's folds)
        pytest.skip(f"{type(est).__name__}: {est._weights_not_copies}")
    X, y = mixed_frame(120, seed=3)
    w = np.random.default_rng(3).integers(0, 4, len(X))
    rep = np.repeat(np.arange(len(X)), w)
    a = clone(est).fit(X, y, sample_weight=w)
    b = clone(est).fit(X.iloc[rep].reset_index(drop=True), y[rep])
    Xt, _ = mixed_frame(50, seed=4)
    rtol = 1e-3 if optimized(est) else 1e-9  # SLSQP stops within its tolerance
    np.testing.assert_allclose(a.predict_proba(Xt), b.predict_proba(Xt), rtol=rtol, atol=1e-12)


def test_pickle_round_trip(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    m2 = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(m.predict_proba(X), m2.predict_proba(X))


def test_json_round_trip(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    m2 = model_from_dict(json.loads(json.dumps(model_to_dict(m))))
    np.testing.assert_array_equal(m.predict_proba(X), m2.predict_proba(X))
    assert list(m2.classes_) == list(m.classes_)


def test_works_in_sklearn_tools(est):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = rng.normal(y[:, None], 1.0, (200, 3))
    scores = cross_val_score(make_pipeline(StandardScaler(), clone(est)), X, y, cv=5)
    assert scores.mean() > (0.4 if chance_level(est) else 0.55)  # chance 0.5, Bayes rate about 0.76
    name = next((p for p in ("priors", "min_bucket") if p in est.get_params()), None)
    if name:
        grid = {name: [est.get_params()[name], {"priors": "uniform", "min_bucket": 10}[name]]}
        gs = GridSearchCV(clone(est), grid, cv=3).fit(X, y)
        assert gs.best_params_[name] in grid[name] and gs.best_score_ > 0.55


