"""NaiveBayes behaviour beyond the worked examples: ranking, explanations, log space."""

import numpy as np
import pandas as pd
import pytest

from seminaive import Dataset, NaiveBayes, ParameterError


def test_rank_orders_by_normalized_posterior(weather):
    nb = NaiveBayes().fit(weather)
    order, scores = nb.rank(weather.X, "yes")
    p_yes = nb.predict_proba(weather.X)[:, 0]
    np.testing.assert_array_equal(scores, p_yes)
    assert (np.diff(p_yes[order]) <= 0).all()
    with pytest.raises(ParameterError, match="target_class: expected one of"):
        nb.rank(weather.X, "maybe")


def test_explanation_terms_sum_to_log_odds(weather_numeric):
    d = weather_numeric
    nb = NaiveBayes().fit(d)
    parts = nb.attribute_log_likelihoods(d.X)
    jll = nb.class_log_prior_ + parts.sum(axis=1)
    np.testing.assert_allclose(jll - jll.max(axis=1, keepdims=True),
                               nb.predict_log_proba(d.X) - nb.predict_log_proba(d.X).max(axis=1, keepdims=True),
                               atol=1e-10)
    text = nb.explain(d.X.iloc[[0]])
    lines = text.splitlines()
    odds = float(lines[0].split("=")[-1])
    terms = [float(l.split()[-1]) for l in lines[2:]]
    assert odds == pytest.approx(sum(terms), abs=5e-3)
    assert "outlook = sunny" in text


def test_thousands_of_attributes_do_not_underflow():
    rng = np.random.default_rng(0)
    n, d = 200, 5000
    y = rng.integers(0, 2, n)
    X = np.where(rng.random((n, d)) < 0.55, y[:, None], 1 - y[:, None])
    nb = NaiveBayes(nominal="all").fit(X, y)
    joint = nb._joint_log_likelihood(X)
    assert (joint < -2000).all()  # the plain product would be 0.0 in float64
    p = nb.predict_proba(X)
    assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1)
    assert (nb.predict(X) == y).mean() > 0.99


def test_dataset_from_frame_keeps_declared_values():
    df = pd.DataFrame({"a": pd.Categorical(["x", "y"], categories=["x", "y", "z"]),
                       "n": [1.0, 2.0], "cls": ["p", "q"]})
    d = Dataset.from_frame(df, target="cls")
    nb = NaiveBayes().fit(d)
    assert nb.schema_.attributes[0].values == ("x", "y", "z")
    assert list(nb.classes_) == ["p", "q"]


def test_refit_is_idempotent_and_params_only_stored(mixed):
    X, y = mixed
    nb = NaiveBayes(alpha=2.0)
    assert vars(nb) == {"alpha": 2.0, "priors": "laplace", "ddof": 1, "var_smoothing": 1e-9, "nominal": None,
                        "numeric": "gaussian", "n_bins": 10, "min_bucket": 6, "bandwidth": "silverman"}
    a = nb.fit(X, y).predict_proba(X)
    b = nb.fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
