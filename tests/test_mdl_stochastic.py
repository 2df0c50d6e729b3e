"""ESKDB's stochastic MDL discretization: each split drawn among the boundaries passing the MDL
test in proportion to the gain above the threshold (else, for the whole column, to the gain)."""

import math

import numpy as np
import pytest
from scipy.stats import entropy

from seminaive import TAN
from seminaive.datasets import load
from seminaive.discretize import StochasticMDLDiscretizer, learn_cuts
from seminaive.discretize.mdl_stochastic import split_distribution
from seminaive.evaluation import evaluate


def _brute(x, y, k, first=True):
    """Every boundary's gain and Fayyad-Irani threshold by loops over the rows."""
    n = len(x)
    h = lambda c: entropy(c, base=2) if sum(c) else 0.0  # noqa: E731
    total = np.bincount(y, minlength=k)
    pos, excess, gains = [], [], []
    for i in range(n - 1):
        if x[i + 1] <= x[i]:
            continue
        left, right = np.bincount(y[:i + 1], minlength=k), np.bincount(y[i + 1:], minlength=k)
        gain = h(total) - ((i + 1) * h(left) + (n - i - 1) * h(right)) / n
        kk, k1, k2 = (int(np.count_nonzero(c)) for c in (total, left, right))
        delta = math.log2(3 ** kk - 2) - (kk * h(total) - k1 * h(left) - k2 * h(right))
        pos.append(i)
        excess.append(max(gain - (math.log2(n - 1) + delta) / n, 0.0))
        gains.append(max(gain, 0.0))
    w = np.array(excess)
    if not w.sum() > 0:
        w = np.array(gains) if first else np.zeros(len(pos))
    return pos, (w / w.sum() if w.sum() > 0 else w)


@pytest.mark.parametrize("seed", range(15))
def test_the_draw_probabilities_are_the_gains_above_the_threshold(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 60)), int(rng.integers(2, 4))
    y = rng.integers(0, k, n)
    x = np.sort(np.round(rng.normal(0, 1, n), 1))
    if seed % 2 == 0:  # half the samples carry class signal along x
        y = np.sort(y)
    for first in (True, False):
        pos, p = split_distribution(x, y, k, first)
        want_pos, want_p = _brute(x, y, k, first)
        assert pos.tolist() == want_pos
        np.testing.assert_allclose(p, want_p, rtol=1e-9, atol=1e-12)


def test_each_seed_draws_its_first_cut_from_that_distribution_and_repeats_itself():
    rng = np.random.default_rng(7)
    y = np.repeat([0, 1, 2], 40)
    x = np.sort(rng.normal(0, 1, 120)) + y * 0.8
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    pos, p = split_distribution(xs, ys, 3)
    assert (p > 0).sum() >= 3  # several boundaries can be drawn first
    firsts = set()
    for seed in range(60):
        cuts = StochasticMDLDiscretizer(random_state=seed).fit(x[:, None], y).cut_points_[0]
        j = pos[np.random.default_rng(seed).choice(pos.size, p=p)]
        first = (xs[j] + xs[j + 1]) / 2
        assert np.isclose(cuts, first).any()
        firsts.add(round(first, 9))
        again = StochasticMDLDiscretizer(random_state=seed).fit(x[:, None], y).cut_points_[0]
        np.testing.assert_array_equal(cuts, again)
    assert len(firsts) >= 3  # the members of an ensemble see different intervals


def test_a_column_with_any_gain_gets_a_cut_where_mdl_gives_none():
    x = np.arange(12.0)
    y = np.array([0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0])
    assert learn_cuts("mdl", x, y).size == 0
    assert learn_cuts("mdl_stochastic", x, y).size == 1
    assert learn_cuts("mdl_stochastic", x, np.zeros(12, dtype=int)).size == 0  # one class: no gain anywhere


def test_tan_on_a_small_numeric_sample_leaves_the_priors():
    d = load("keel:tae")
    majority = max(np.mean(d.y == c) for c in set(d.y))
    acc = evaluate(TAN(numeric="mdl_stochastic"), d.X, d.y, cv=5, random_state=0).accuracy
    assert acc > majority + 0.05


def test_compiled_gains_equal_the_vectorized_formula():
    """The compiled boundary gains against the same formula in numpy arrays (cumulative counts,
    row entropies), on columns with ties, one class and several classes."""
    from _mdl_reference import class_entropy
    from seminaive.discretize.mdl_stochastic import _gains
    rng = np.random.default_rng(11)
    seen_above = 0
    for _ in range(60):
        v, k = int(rng.integers(2, 40)), int(rng.integers(1, 5))
        counts = rng.integers(0, 6, (v, k)).astype(float)
        counts[rng.integers(0, v)] += 1  # no empty table
        if rng.random() < 0.5:  # class signal: classes sorted along the values
            counts = np.sort(counts, axis=0) if k == 1 else counts * np.linspace(0.2, 3, v)[:, None] ** np.arange(k)
            counts = np.round(counts)
            counts[0, 0] += 1
        cum = np.cumsum(counts, axis=0)
        total, left = cum[-1], cum[:-1]
        right, n, nl = total - left, total.sum(), left.sum(axis=1)
        ent_s, e1, e2 = float(class_entropy(total)), class_entropy(left), class_entropy(right)
        gain = ent_s - (nl * e1 + (n - nl) * e2) / n
        kk, k1, k2 = np.count_nonzero(total), np.count_nonzero(left, axis=1), np.count_nonzero(right, axis=1)
        delta = np.log2(3.0 ** kk - 2) - (kk * ent_s - k1 * e1 - k2 * e2)
        above = np.maximum(gain - (np.log2(n - 1) + delta) / n, 0.0)
        got_above, got_gain = _gains(counts)
        np.testing.assert_allclose(got_gain, gain, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(got_above, above, rtol=1e-12, atol=1e-13)
        seen_above += int((above > 0).any())
    assert seen_above > 5  # boundaries passing the MDL test among them
