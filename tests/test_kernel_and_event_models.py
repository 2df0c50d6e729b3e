"""Kernel densities; the multinomial and Bernoulli models against scikit-learn."""

import pathlib

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.integrate import quad
from sklearn.naive_bayes import BernoulliNB, MultinomialNB

from seminaive import BernoulliNaiveBayes, MultinomialNaiveBayes, NaiveBayes
from seminaive.data import EncodedTable


def _density(model, x, cls):
    t = EncodedTable(np.empty((1, 0), int), np.array([[x]]), np.zeros(0))
    return float(np.exp(model.components_[0].log_likelihood(t))[0, cls])


@pytest.mark.parametrize("bandwidth", ["silverman", "scott", 0.3])
def test_kernel_density_integrates_to_one(bandwidth):
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 1, 40), rng.exponential(2, 30)])[:, None]
    y = np.repeat([0, 1], [40, 30])
    nb = NaiveBayes(numeric="kernel", bandwidth=bandwidth).fit(X, y)
    for c in (0, 1):
        total, _ = quad(lambda v: _density(nb, v, c), -30, 40, limit=400)
        assert total == pytest.approx(1.0, abs=1e-6)


def test_kernel_tends_to_a_gaussian_as_bandwidth_grows():
    """With bandwidth h the kernel density tends to N(mean, s^2 + h^2) (s^2 with
    divisor n): the class Gaussian, widened by h^2; the relative gap shrinks."""
    rng = np.random.default_rng(1)
    x = rng.normal(3, 2, 50)
    gaps = []
    for h in (1.0, 10.0, 100.0):
        nb = NaiveBayes(numeric="kernel", bandwidth=h).fit(x[:, None], np.zeros(50, int))
        var = x.var() + h * h
        pts = x.mean() + np.sqrt(var) * np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
        want = np.exp(-(pts - x.mean()) ** 2 / (2 * var)) / np.sqrt(2 * np.pi * var)
        got = np.array([_density(nb, p, 0) for p in pts])
        gaps.append(np.max(np.abs(got / want - 1)))
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-3


REFERENCE = pathlib.Path(__file__).parent / "data" / "reference"


def _r_bandwidths():
    """R's bw.nrd0 of a few vectors (scripts/reference/make_r_reference.R)."""
    rows = [line.split(",") for line in (REFERENCE / "bw_nrd0.csv").read_text().splitlines()[1:]]
    return [(np.array([float(v) for v in x.split()]), float(bw)) for x, bw in rows]


@pytest.mark.parametrize("x, want", _r_bandwidths())
def test_kernel_bandwidth_rule_is_r_bw_nrd0(x, want):
    """Type-7 quantiles and R's fallbacks (sd, then |x1|, then 1), as fitted by the model."""
    nb = NaiveBayes(numeric="kernel").fit(x[:, None], np.zeros(x.size, int))
    assert nb.components_[0].h_[0] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("x, want", _r_bandwidths()[:1] + _r_bandwidths()[5:])
def test_kernel_bandwidth_weights_are_copies(x, want):
    rng = np.random.default_rng(0)
    w = rng.integers(1, 4, x.size)
    a = NaiveBayes(numeric="kernel").fit(x[:, None], np.zeros(x.size, int), sample_weight=w)
    b = NaiveBayes(numeric="kernel").fit(np.repeat(x, w)[:, None], np.zeros(w.sum(), int))
    assert a.components_[0].h_[0] == pytest.approx(b.components_[0].h_[0], rel=1e-12)


def _counts(seed, n=300, d=12):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    lam = rng.gamma(1.0, 1.0, (3, d))
    return rng.poisson(lam[y]), y


@pytest.mark.parametrize("alpha", [1.0, 0.3])
@pytest.mark.parametrize("sparse", [False, True])
def test_multinomial_matches_sklearn(alpha, sparse):
    X, y = _counts(0)
    Xt, _ = _counts(1, 100)
    conv = sp.csr_matrix if sparse else np.asarray
    ours = MultinomialNaiveBayes(alpha=alpha, priors="mle").fit(conv(X), y)
    theirs = MultinomialNB(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(conv(Xt)), theirs.predict_proba(Xt), atol=1e-9)
    np.testing.assert_allclose(ours.feature_log_prob_, theirs.feature_log_prob_, rtol=1e-12)


@pytest.mark.parametrize("binarize", [0.0, 1.5])
@pytest.mark.parametrize("sparse", [False, True])
def test_bernoulli_matches_sklearn(binarize, sparse):
    X, y = _counts(2)
    Xt, _ = _counts(3, 100)
    conv = sp.csr_matrix if sparse else np.asarray
    ours = BernoulliNaiveBayes(alpha=0.7, priors="mle", binarize=binarize).fit(conv(X), y)
    theirs = BernoulliNB(alpha=0.7, binarize=binarize).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(conv(Xt)), theirs.predict_proba(Xt), atol=1e-9)


def test_multinomial_rejects_negative_counts():
    with pytest.raises(ValueError, match="non-negative"):
        MultinomialNaiveBayes().fit(np.array([[1, -1], [0, 2]]), [0, 1])


def test_text_like_sparse_data_scales():
    rng = np.random.default_rng(4)
    X = sp.random(2000, 5000, density=0.01, format="csr", random_state=4)
    X.data = np.ceil(X.data * 3)
    y = rng.integers(0, 2, 2000)
    m = MultinomialNaiveBayes().fit(X, y)
    assert m.predict_proba(X).shape == (2000, 2)
