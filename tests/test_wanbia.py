"""WANBIA: the objective and its gradient, optimality of the weights, what the weights undo."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss

from seminaive import NaiveBayes
from seminaive.exceptions import ParameterError
from seminaive.persistence import model_from_dict, model_to_dict
from seminaive.wanbia import WANBIA, wanbia_objective


def mixed(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    X = pd.DataFrame({"a": a.astype(str), "a2": np.where(rng.random(n) < 0.9, a, 0).astype(str),
                      "b": rng.choice(["p", "q"], n), "x": rng.normal(y, 1.0, n), "x2": rng.normal(y, 1.0, n)})
    X.loc[rng.random(n) < 0.1, "x"] = np.nan
    return X, np.array(["u", "v", "w"])[y]


def problem(X, y):
    nb = NaiveBayes().fit(X, y)
    terms = nb.attribute_log_likelihoods(X)
    return terms, nb.class_log_prior_, np.searchsorted(nb.classes_, y), nb


@pytest.mark.parametrize("objective", ["cll", "mse"])
def test_objective_is_the_weighted_models_and_the_gradient_its_derivative(objective):
    X, y = mixed()
    terms, prior, codes, nb = problem(X, y)
    w = np.random.default_rng(1).random(terms.shape[1])
    value, grad = wanbia_objective(w, terms, prior, codes, objective)
    jll = prior + (terms * w[None, :, None]).sum(axis=1)
    p = np.exp(jll - np.logaddexp.reduce(jll, axis=1, keepdims=True))
    want = log_loss(codes, p) * len(y) if objective == "cll" else 0.5 * ((p - np.eye(3)[codes]) ** 2).sum()
    assert value == pytest.approx(want, rel=1e-10)
    h = 1e-6
    for j in range(len(w)):
        e = np.zeros_like(w)
        e[j] = h
        fd = (wanbia_objective(w + e, terms, prior, codes, objective)[0]
              - wanbia_objective(w - e, terms, prior, codes, objective)[0]) / (2 * h)
        assert grad[j] == pytest.approx(fd, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("objective", ["cll", "mse"])
def test_fitted_weights_meet_the_optimality_conditions(objective):
    X, y = mixed(seed=2)
    m = WANBIA(objective=objective).fit(X, y)
    terms, prior, codes, _ = problem(X, y)
    value, grad = wanbia_objective(m.weights_, terms, prior, codes, objective)
    scale = np.abs(wanbia_objective(np.ones_like(m.weights_), terms, prior, codes, objective)[1]).max()
    tol = 1e-4 * max(scale, 1.0)
    for w, g in zip(m.weights_, grad):
        if w <= 1e-9:
            assert g >= -tol  # at the lower bound the objective may only rise inwards
        elif w >= 1 - 1e-9:
            assert g <= tol
        else:
            assert abs(g) <= tol
    # no worse than Naive Bayes (w = 1) or than random feasible weights
    rng = np.random.default_rng(0)
    for w in [np.ones_like(m.weights_)] + [rng.random(len(m.weights_)) for _ in range(20)]:
        assert value <= wanbia_objective(w, terms, prior, codes, objective)[0] + 1e-9 * abs(value)


def test_copies_of_an_attribute_share_one_weights_evidence():
    """An attribute repeated three times: the copies' weights can only add up to what one copy's
    weight does, so where the optimum is inside the box the fitted objective is the same."""
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.75, y, 1 - y).astype(str)
    b, c = (np.where(rng.random(n) < 0.95, a, rng.choice(["0", "1"], n)) for _ in range(2))  # noisy copies
    once = pd.DataFrame({"a": a, "b": b, "c": c})
    thrice = pd.DataFrame({"a": a, "a_1": a, "a_2": a, "b": b, "c": c})
    m1, m3 = WANBIA().fit(once, y), WANBIA().fit(thrice, y)
    assert 0 < m1.weights_[0] < 1 and m1.weights_.sum() < 1.5  # not at the upper bound
    cll1 = log_loss(y, m1.predict_proba(once), normalize=False)
    cll3 = log_loss(y, m3.predict_proba(thrice), normalize=False)
    assert cll3 == pytest.approx(cll1, rel=1e-6)
    # Naive Bayes counts the copies as independent evidence: over-confident, worse in log loss
    nb = NaiveBayes().fit(thrice, y)
    assert cll3 < log_loss(y, nb.predict_proba(thrice), normalize=False) - 0.05 * n


def test_printout_json_and_what_wanbia_does_not_offer():
    X, y = mixed(seed=4)
    m = WANBIA().fit(X, y)
    text = m.to_text()
    assert "attribute  weight" in text and f"{m.weights_[0]:.4f}" in text
    m2 = model_from_dict(json.loads(json.dumps(model_to_dict(m))))
    np.testing.assert_array_equal(m2.weights_, m.weights_)
    np.testing.assert_array_equal(m2.predict_proba(X), m.predict_proba(X))
    assert not hasattr(m, "partial_fit")
    with pytest.raises(ParameterError, match="merge: WANBIA's weights do not add"):
        m.merge(m)
    with pytest.raises(ParameterError, match=r"objective: expected one of 'cll', 'mse', got 'nll'"):
        WANBIA(objective="nll").fit(X, y)
    d = model_to_dict(m)
    d["state"]["weights"] = [2.0] * len(m.weights_)
    from seminaive.exceptions import DataFormatError
    with pytest.raises(DataFormatError, match=r"state.weights: expected numbers in \[0, 1\]"):
        model_from_dict(d)
    # explanations sum to the weighted model's log-odds
    parts = m.attribute_log_likelihoods(X)
    jll = m.class_log_prior_ + parts.sum(axis=1)
    np.testing.assert_allclose(jll - np.logaddexp.reduce(jll, axis=1, keepdims=True), m.predict_log_proba(X),
                               atol=1e-10)
