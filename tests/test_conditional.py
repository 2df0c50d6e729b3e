"""The conditional table P(child | class, parents): estimates by direct counting,
missing values, merging, weights, and leave-one-out against refits."""

import itertools

import numpy as np
import pytest

from seminaive.components import Categorical, ConditionalTable
from seminaive.data import EncodedTable
from seminaive.estimation import Frequency, MEstimate, NormalGamma

ESTIMATORS = [Frequency(alpha=1.0), Frequency(alpha=0.5), MEstimate(m=2.0), NormalGamma(alpha=2.0)]


def toy(n=80, seed=0, missing=0.15):
    """Three nominal columns (3, 2 and 4 values) with missing codes, and 3 classes."""
    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, m, n) for m in (3, 2, 4)])
    codes[rng.random(codes.shape) < missing] = -1
    return EncodedTable(codes, np.empty((n, 0)), np.zeros(3)), rng.integers(0, 3, n)


def cpt(parents=(1, 2)):
    values = (3, 2, 4)
    return ConditionalTable(0, Categorical(0, 0, 3), [Categorical(j, j, values[j]) for j in parents])


def rows(t, idx):
    return EncodedTable(t.codes[idx], t.numeric[idx], t.unseen)


def test_estimates_equal_direct_counting():
    t, y = toy()
    c = cpt()
    c.estimate(c.count(t, y, 3, None), Frequency(alpha=1.0))
    got = c.log_likelihood(t)
    child, p1, p2 = t.codes.T
    for i in range(len(y)):
        for k in range(3):
            if child[i] < 0:
                assert got[i, k] == 0.0
                continue
            if p1[i] < 0 or p2[i] < 0:  # a parent missing: Naive Bayes's P(child | class) over all rows
                same = (y == k) & (child >= 0)
                want = (np.sum(same & (child == child[i])) + 1) / (np.sum(same) + 3)
            else:
                same = (y == k) & (child >= 0) & (p1 == p1[i]) & (p2 == p2[i])
                want = (np.sum(same & (child == child[i])) + 1) / (np.sum(same) + 3)
            assert got[i, k] == pytest.approx(np.log(want), rel=1e-12)


def test_no_parents_is_the_naive_bayes_table():
    t, y = toy(seed=1)
    c, nb = cpt(parents=()), Categorical(0, 0, 3)
    for est in ESTIMATORS:
        c.estimate(c.count(t, y, 3, None), est)
        nb.estimate(nb.count(t, y, 3, None), est)
        np.testing.assert_allclose(c.log_likelihood(t), nb.log_likelihood(t), rtol=1e-12)


def test_counts_merge_and_weights_are_copies():
    t, y = toy(seed=2)
    c = cpt()
    whole = c.count(t, y, 3, None)["counts"]
    halves = c.merge(c.count(rows(t, slice(0, 30)), y[:30], 3, None), c.count(rows(t, slice(30, None)), y[30:], 3, None))
    np.testing.assert_array_equal(halves["counts"], whole)
    w = np.random.default_rng(2).integers(0, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    np.testing.assert_array_equal(c.count(t, y, 3, w.astype(float))["counts"], c.count(rows(t, rep), y[rep], 3, None)["counts"])


@pytest.mark.parametrize("est", ESTIMATORS, ids=repr)
@pytest.mark.parametrize("parents", [(), (1,), (1, 2)])
def test_leave_one_out_equals_refits(est, parents):
    t, y = toy(n=50, seed=3)
    c = cpt(parents)
    got = c.loo_log_likelihood(c.count(t, y, 3, None), t, y, est)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        r = cpt(parents)
        r.estimate(r.count(rows(t, keep), y[keep], 3, None), est)
        np.testing.assert_allclose(got[i], r.log_likelihood(rows(t, [i]))[0], rtol=1e-12, atol=1e-12)


def test_round_trip_through_its_description():
    t, y = toy(seed=4)
    c = cpt()
    c.estimate(c.count(t, y, 3, None), Frequency())
    d = ConditionalTable.from_dict(c.to_dict())
    d.estimate(d.count(t, y, 3, None), Frequency())
    np.testing.assert_array_equal(c.log_likelihood(t), d.log_likelihood(t))
    assert [p.attribute for p in d.parents] == [1, 2] and d.n_configs == 8


def test_every_configuration_is_a_separate_table():
    """All parent configurations, brute force: the probabilities of each (class, configuration) sum to 1."""
    t, y = toy(n=200, seed=5)
    c = cpt()
    c.estimate(c.count(t, y, 3, None), MEstimate(m=2.0))
    for p, k in itertools.product(range(c.n_configs + 1), range(3)):
        assert np.exp(c.log_table_[p, :3, k]).sum() == pytest.approx(1.0, rel=1e-12)


class TowardTheParentTable(Frequency):
    """A hierarchical estimator in miniature: each (class, parent value) row smoothed toward its class's
    table, P(v | c, x_P) = (n(v, c, x_P) + s P(v | c)) / (n(c, x_P) + s), as hierarchical Dirichlet
    smoothing does with a fixed concentration ``s``."""

    def __init__(self, s=3.0):
        super().__init__(alpha=1.0)
        self.s = s

    def conditional(self, counts, n_values=None, backoff=None):
        parent = np.exp(self.categorical(backoff, n_values))  # (K, m), Laplace-smoothed
        return np.log((counts + self.s * parent[:, None, :]) / (counts.sum(axis=2, keepdims=True) + self.s))


def test_an_estimator_sees_the_parent_axis_and_the_table_it_backs_off_to():
    """A conditional table hands its estimator the counts with their parent axis (K, P, m) and the class's
    table to back off to: an estimator that smooths toward it gives exactly its formula, row by row."""
    t, y = toy(seed=4)
    c = cpt()
    c.estimate(c.count(t, y, 3, None), TowardTheParentTable(s=3.0))
    got = c.log_likelihood(t)
    child, p1, p2 = t.codes.T
    checked = 0
    for i in range(len(y)):
        if child[i] < 0 or p1[i] < 0 or p2[i] < 0:
            continue
        for k in range(3):
            cls = (y == k) & (child >= 0)
            parent = (np.sum(cls & (child == child[i])) + 1) / (np.sum(cls) + 3)  # P(v | c), Laplace
            same = cls & (p1 == p1[i]) & (p2 == p2[i])
            want = (np.sum(same & (child == child[i])) + 3.0 * parent) / (np.sum(same) + 3.0)
            assert got[i, k] == pytest.approx(np.log(want), rel=1e-12)
            checked += 1
    assert checked > 60
    plain = cpt()
    plain.estimate(plain.count(t, y, 3, None), Frequency(alpha=1.0))
    assert not np.allclose(plain.log_likelihood(t), got)  # the backoff changed the estimates
