"""Where our models coincide with scikit-learn's, the probabilities agree."""

import numpy as np
import pytest
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from seminaive import NaiveBayes


@pytest.mark.parametrize("alpha", [1.0, 0.5, 2.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_categorical_matches_categoricalnb(alpha, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, (400, 6))
    X[:, 2] = rng.integers(0, 2, 400)
    y = rng.integers(0, 3, 400)
    Xt = rng.integers(0, 5, (100, 6))
    Xt[:, 2] = rng.integers(0, 2, 100)
    ours = NaiveBayes(alpha=alpha, priors="mle", nominal="all").fit(X, y)
    theirs = CategoricalNB(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.predict_log_proba(Xt), theirs.predict_log_proba(Xt), atol=1e-9)
    assert (ours.predict(Xt) == theirs.predict(Xt)).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gaussian_matches_gaussiannb(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 500)
    X = rng.normal(y[:, None] * [0.5, 1.0, -1.0, 0.0], [1.0, 2.0, 0.5, 3.0])
    Xt = rng.normal(0, 2, (200, 4))
    ours = NaiveBayes(priors="mle", ddof=0, var_smoothing_rule="largest").fit(X, y)  # GaussianNB's floor
    theirs = GaussianNB().fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt), rtol=0, atol=1e-9)
    np.testing.assert_allclose([c.mean_ for c in ours.components_], theirs.theta_.T, rtol=1e-12)
    np.testing.assert_allclose([c.var_ for c in ours.components_], theirs.var_.T, rtol=1e-12)


def test_gaussian_weighted_matches_gaussiannb():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    X = rng.normal(y[:, None], 1.0, (300, 3))
    w = rng.integers(1, 4, 300).astype(float)
    ours = NaiveBayes(priors="mle", ddof=0, var_smoothing=0.0).fit(X, y, sample_weight=w)
    theirs = GaussianNB(var_smoothing=0.0).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-9)
