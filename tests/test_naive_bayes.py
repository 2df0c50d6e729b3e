"""NaiveBayes behaviour beyond the worked examples: ranking, explanations, log space."""

import numpy as np
import pandas as pd
import pytest

import warnings

from sklearn.base import clone

from seminaive import Dataset, NaiveBayes, ParameterError
from seminaive.base import UnseenValueWarning

from _estimators import NAIVE_BAYES, ids


@pytest.fixture(params=NAIVE_BAYES, ids=ids)
def est(request):
    return clone(request.param)


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
    terms = [float(line.split()[-1]) for line in lines[2:]]
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
    assert vars(nb) == {"alpha": 2.0, "priors": "laplace", "ddof": 1, "var_smoothing": None,
                        "var_smoothing_rule": "range", "nominal": None, "numeric": "gaussian", "n_bins": 10,
                        "min_bucket": 6, "bandwidth": "silverman",
                        "estimation": "frequency", "prior": None, "integer_codes": "numbers"}
    a = nb.fit(X, y).predict_proba(X)
    b = nb.fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)


def test_missing_values_contribute_nothing(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    row = X.iloc[[0]].copy()
    full = m.attribute_log_likelihoods(row)
    row.iloc[0, 2] = np.nan
    part = m.attribute_log_likelihoods(row)
    assert (part[0, 2] == 0).all()
    np.testing.assert_array_equal(np.delete(full, 2, axis=1), np.delete(part, 2, axis=1))


def test_unseen_values_are_missing_and_reported(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    row = X.iloc[[0, 1]].copy()
    row["size"] = ["xxl", "s"]
    with pytest.warns(UnseenValueWarning, match="'size' 1"):
        got = m.attribute_log_likelihoods(row)
    assert (got[0, 1] == 0).all() and not (got[1, 1] == 0).all()
    assert m.unseen_counts(row) == {"colour": 0, "size": 1}


def test_declared_value_never_seen_gets_smoothed_probability(est, mixed):
    X, y = mixed
    m = est.fit(X, y)
    assert m.schema_.attributes[0].values == ("red", "green", "blue", "violet")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = m.predict_proba(X.iloc[[0]].assign(colour="violet"))
    np.testing.assert_allclose(p.sum(), 1.0)
    if est.alpha > 0 and est.estimation != "m-estimate" and not hasattr(est, "min_rates"):
        np.testing.assert_allclose(np.exp(m.components_[0].log_table_[3]),
                                   est.alpha / (m.stats_[0]["counts"].sum(axis=1) + 4 * est.alpha))


def test_explanations_read_values_by_name(weather):
    """Columns in another order: each term names its own attribute's value."""
    nb = NaiveBayes().fit(weather)
    X = weather.X.iloc[:1][["windy", "humidity", "temperature", "outlook"]]
    text = nb.explain(X)
    assert "outlook = sunny" in text and "windy = FALSE" in text and "outlook = FALSE" not in text
    assert text == nb.explain(weather.X.iloc[:1])


def test_lists_in_training_order_need_no_feature_names(weather):
    import warnings
    nb = NaiveBayes().fit(weather)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "X does not have valid feature names"
        p = nb.predict_proba([["sunny", "cool", "high", "TRUE"]])
    np.testing.assert_allclose(p, nb.predict_proba(weather.X.iloc[:0].__class__(
        [["sunny", "cool", "high", "TRUE"]], columns=weather.X.columns)))


def test_a_frame_without_the_models_columns_is_one_clear_error(weather):
    from seminaive import ParameterError
    nb = NaiveBayes().fit(weather)
    with pytest.raises(ParameterError, match="X: the model's attribute\\(s\\) 'windy' are not columns"):
        nb.predict(weather.X.drop(columns="windy"))


def test_gaussian_parameters_read_from_their_block_follow_a_component_set_apart():
    """Gaussians estimated together share one block of parameters, which prediction reads as it is; a
    component given parameters of its own (set_parameters) is read from its own, and every row's
    log-likelihood stays the sum of normal densities at the components' means and deviations."""
    from scipy.stats import norm
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 80)
    X = pd.DataFrame(rng.normal(size=(80, 6)) * [1, 10, 0.1, 1e3, 1, 5] + y[:, None], columns=list("abcdef"))
    X.iloc[::7, 2] = np.nan
    m = NaiveBayes().fit(X, y)

    def brute():
        out = np.tile(m.class_log_prior_, (len(X), 1))
        for j, c in enumerate(m.components_):
            x = X.iloc[:, j].to_numpy()[:, None]
            out += np.where(np.isnan(x), 0.0, norm.logpdf(x, c.mean_, c.sd_))
        return out

    np.testing.assert_allclose(m._joint_log_likelihood(X), brute(), rtol=1e-10)
    for j in (2, 0):  # (the second keeps its row number, 0, in a block of its own)
        c = m.components_[j]
        c.set_parameters(c._mu + 0.5, c._var * 3.0)
        assert c._block is not m.components_[1]._block
        np.testing.assert_allclose(m._joint_log_likelihood(X), brute(), rtol=1e-10)
