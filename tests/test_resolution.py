"""Intervals at their resolution: the ladder, the tables smoothed along it, the exact
leave-one-out that chooses a level (against brute-force refits), and what it chooses."""

import numpy as np
import pytest

from seminaive.discretize import ResolutionDiscretizer, StochasticResolutionDiscretizer
from seminaive.discretize.mdl import value_counts
from seminaive.discretize.resolution import CONCENTRATIONS, ladder, level_table, resolution_scores


def _column(seed, n=160, distinct=25, k=3):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.integers(0, distinct, n).astype(float))
    y = np.where(rng.random(n) < 0.6, (x // 6).astype(int) % k, rng.integers(0, k, n))
    return x, y, k


def _levels(x, y, k, coarse=(3, 9)):
    values, counts = value_counts(x, y, k)
    return counts, ladder(values, counts, np.array([p for p in coarse if p < values.size]), max_bins=32)


@pytest.mark.parametrize("seed", range(4))
def test_the_ladder_is_nested_and_bounded(seed):
    x, y, k = _column(seed)
    counts, levels = _levels(x, y, k)
    assert levels[0].size == 0 and len(levels) >= 3
    for coarse, fine in zip(levels, levels[1:]):
        assert set(coarse.tolist()) < set(fine.tolist())
        assert fine.size + 1 <= 32
    assert levels[-1].tolist() == list(range(1, counts.shape[0]))  # few values: one interval each


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("m", [1.0, 16.0])
def test_every_level_table_sums_to_one_and_keeps_its_parents_mass(seed, m):
    x, y, k = _column(seed)
    counts, levels = _levels(x, y, k)
    for j in range(len(levels)):
        table = level_table(counts, levels, j, m)
        assert table.shape == (levels[j].size + 1, k)
        np.testing.assert_allclose(table.sum(axis=0), 1.0, rtol=1e-12)
        if j:  # a coarse interval's probability is its children's sum at the finer level
            parent_of = np.searchsorted(levels[j - 1], np.r_[0, levels[j]], side="right")
            coarse = level_table(counts, levels, j - 1, m)
            np.testing.assert_allclose(np.add.reduceat(table, np.flatnonzero(np.r_[True, np.diff(parent_of) > 0])),
                                       coarse, rtol=1e-12)


def test_a_worked_table():
    """One coarse cut, then one split of its left interval, by hand (m = 2)."""
    counts = np.array([[3.0, 1.0], [1.0, 1.0], [0.0, 2.0]])  # three values, two classes
    levels = [np.array([], dtype=int), np.array([2]), np.array([1, 2])]
    left, right = level_table(counts, levels, 1, 2.0)
    share_left, share_right = (6 + 1) / (8 + 2), (2 + 1) / (8 + 2)
    assert left.tolist() == pytest.approx([(4 + 2 * share_left) / (4 + 2), (2 + 2 * share_left) / (4 + 2)])
    fine = level_table(counts, levels, 2, 2.0)
    share_first = (4 + 1) / (6 + 2)  # the first value's share of the left interval's rows
    assert fine[0].tolist() == pytest.approx([left[0] * (3 + 2 * share_first) / (4 + 2),
                                              left[1] * (1 + 2 * share_first) / (2 + 2)])
    assert fine[2].tolist() == pytest.approx(right.tolist())


def _brute_force(x, y, k, levels, j, m):
    """Leave-one-out log loss by refitting: each row taken out of the counts, level j's table
    and the Laplace class prior made again, the row's class predicted from its interval."""
    values, counts = value_counts(x, y, k)
    pos = np.searchsorted(values, x)
    loss = 0.0
    for i in range(x.size):
        c = counts.copy()
        c[pos[i], y[i]] -= 1
        table = level_table(c, levels, j, m)
        totals = c.sum(axis=0)
        prior = (totals + 1) / (totals.sum() + k)
        b = np.searchsorted(levels[j], pos[i], side="right")
        joint = prior * table[b]
        loss -= np.log(joint[y[i]] / joint.sum())
    return loss


@pytest.mark.parametrize("seed", range(3))
def test_leave_one_out_equals_refits_without_each_row(seed):
    x, y, k = _column(seed, n=90)
    counts, levels = _levels(x, y, k)
    fast = resolution_scores(counts, levels)
    for j in range(len(levels)):
        for mi, m in enumerate(CONCENTRATIONS):
            assert fast[j, mi] == pytest.approx(_brute_force(x, y, k, levels, j, m), rel=1e-10)


def test_resolution_follows_the_signal():
    rng = np.random.default_rng(0)
    noise_x = rng.normal(size=3000)
    assert ResolutionDiscretizer().cuts_for(noise_x, rng.integers(0, 2, 3000)).size == 0  # no signal: no cut
    x = rng.uniform(0, 6 * np.pi, 4000)
    y = (np.sin(x) + 0.3 * rng.normal(size=x.size) > 0).astype(int)  # six runs of a class: five boundaries
    cuts = ResolutionDiscretizer().cuts_for(x, y)
    for boundary in np.pi * np.arange(1, 6):
        assert np.min(np.abs(cuts - boundary)) < 0.35
    values = np.repeat(np.arange(10.0), 30)  # a code whose parity is the class: each value its interval
    assert ResolutionDiscretizer().cuts_for(values, (values % 2).astype(int)).tolist() == list(np.arange(9) + 0.5)


@pytest.mark.parametrize("kind", [ResolutionDiscretizer, StochasticResolutionDiscretizer])
def test_cuts_follow_the_units(kind):
    x, y, _ = _column(1, n=400, distinct=300)
    x = x + np.random.default_rng(2).uniform(0, 0.5, x.size)
    np.testing.assert_allclose(kind().cuts_for(1000 * x, y), 1000 * kind().cuts_for(x, y), rtol=1e-12)


def test_the_stochastic_ladder_is_seeded():
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 10, 2000)
    y = (np.sin(3 * x) > 0).astype(int)
    draws = [tuple(StochasticResolutionDiscretizer(random_state=s).cuts_for(x, y)) for s in (0, 0, 1, 2, 3)]
    assert draws[0] == draws[1] and len(set(draws[1:])) == 4
    assert all(len(d) >= 5 for d in draws)  # each draw at a resolution that follows the sine


def test_max_bins_bounds_the_intervals():
    x = np.arange(500.0)
    y = (x % 7 < 3).astype(int)
    assert ResolutionDiscretizer(max_bins=1).cuts_for(x, y).size == 0
    assert ResolutionDiscretizer(max_bins=8).cuts_for(x, y).size <= 7
