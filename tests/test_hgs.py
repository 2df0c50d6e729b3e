"""Hierarchical gradient smoothing: its leave-one-out loss against a brute-force refit without
each row, its gradient against finite differences, its optimum against a grid, its estimates
against their formula, and what a configuration without data takes."""

import numpy as np
import pytest
from scipy.optimize import check_grad

from seminaive.estimation import HGS
from seminaive.estimation._tree import node_counts, probability_tree
from seminaive.estimation.hgs import LOG_ALPHA, ROOT_LOG_ALPHA, _LooLoss, concentrations, smoothed
from seminaive.exceptions import ParameterError

from test_hdp import table_counts


def _rows(seed, n=60, k=2, arities=(3, 2), m=3):
    """Random rows (child, class, parents...) with a few values seen once."""
    rng = np.random.default_rng(seed)
    cls = rng.integers(k, size=n)
    parents = [rng.integers(a, size=n) for a in arities]
    child = (cls + parents[0] + rng.integers(2, size=n)) % m
    child[:2] = m - 1  # a rare value: seen twice
    return np.column_stack([child, cls, *parents]), (k, *arities), m


def _tree(rows, arities, m):
    codes, parent, start, leaf = probability_tree(table_counts(rows, arities, m), list(arities), "hgs")
    return node_counts(leaf, parent, start), parent, start, codes


def _level_tie(start):
    return np.repeat(np.arange(start.size - 2), np.diff(start[:-1]))


def _brute_loo(rows, arities, m, alpha_by_depth):
    """Mean -log of each row's value estimated with that row removed from the data: the leaf's
    counts plus alpha_d times each ancestor's frequencies (maximum likelihood, 0 where empty);
    rows whose value occurs once in the table are not counted."""
    total = np.bincount(rows[:, 0], minlength=m)
    losses = []
    for r in range(len(rows)):
        if total[rows[r, 0]] < 2:
            continue
        rest = np.delete(rows, r, axis=0)
        x = rows[r, 0]
        num, den = 0.0, 0.0
        for depth in range(len(arities) + 1):  # root, class, class + first parent, ..., the leaf
            same = np.all(rest[:, 1:1 + depth] == rows[r, 1:1 + depth], axis=1)
            n_x, n_all = float((rest[same, 0] == x).sum()), float(same.sum())
            if depth == len(arities):
                num, den = num + n_x, den + n_all
            else:
                num += alpha_by_depth[depth] * (n_x / n_all if n_all else 0.0)
                den += alpha_by_depth[depth]
        losses.append(-np.log(num / den))
    return np.mean(losses)


@pytest.mark.parametrize("seed", range(4))
def test_the_leave_one_out_loss_is_a_refit_without_each_row(seed):
    rows, arities, m = _rows(seed)
    n, parent, start, _ = _tree(rows, arities, m)
    loss = _LooLoss(n, parent, start, _level_tie(start))
    alpha = np.random.default_rng(seed).uniform(0.1, 5.0, size=loss.n_params)
    np.testing.assert_allclose(loss(np.log(alpha))[0], _brute_loo(rows, arities, m, alpha), rtol=1e-12)
    # the check can see a wrong answer: the same loss with the concentrations of other depths
    assert abs(loss(np.log(alpha[::-1]))[0] - _brute_loo(rows, arities, m, alpha)) > 1e-4


@pytest.mark.parametrize("tying", ["none", "level"])
def test_the_gradient_is_the_loss_derivative(tying):
    rows, arities, m = _rows(7, n=120, arities=(3, 3, 2), m=4)
    n, parent, start, _ = _tree(rows, arities, m)
    tie = _level_tie(start) if tying == "level" else np.arange(int(start[-2]))
    loss = _LooLoss(n, parent, start, tie)
    theta = np.random.default_rng(1).normal(size=loss.n_params)
    scale = np.abs(loss(theta)[1]).max()
    assert check_grad(lambda t: loss(t)[0], lambda t: loss(t)[1], theta) < 1e-6 * max(scale, 1.0)
    # untied concentrations equal within each depth give the tied loss
    level = _LooLoss(n, parent, start, _level_tie(start))
    same = np.log(np.array([0.5, 2.0, 3.0, 7.0]))
    if tying == "none":
        np.testing.assert_allclose(loss(same[_level_tie(start)])[0], level(same)[0], rtol=1e-13)


def test_the_concentrations_minimize_the_loss_over_a_grid():
    rows, arities, m = _rows(3, n=80, arities=(4,), m=3)
    n, parent, start, _ = _tree(rows, arities, m)
    tie = _level_tie(start)
    alpha = concentrations(n, parent, start, "level")
    assert alpha[0] >= np.exp(ROOT_LOG_ALPHA) * (1 - 1e-12)  # the root's floor
    assert np.all(alpha >= np.exp(LOG_ALPHA[0]) * (1 - 1e-12)) and np.all(alpha <= np.exp(LOG_ALPHA[1]))
    loss = _LooLoss(n, parent, start, tie)
    best = loss(np.log(alpha[np.searchsorted(tie, np.arange(loss.n_params))]))[0]
    values = [loss(np.array([a, b]))[0] for a in np.linspace(ROOT_LOG_ALPHA, LOG_ALPHA[1], 121)
              for b in np.linspace(*LOG_ALPHA, 121)]
    assert best <= min(values) + 1e-9


def test_the_estimates_follow_their_formula_and_sum_to_one():
    rows, arities, m = _rows(5, n=50, arities=(3, 2), m=3)
    # no data under class 1 with the first parent's value 2, nor for class 0 with parents (0, 1)
    rows = rows[~((rows[:, 1] == 1) & (rows[:, 2] == 2)) & ~((rows[:, 1] == 0) & (rows[:, 2] == 0) & (rows[:, 3] == 1))]
    counts = table_counts(rows, arities, m)
    n, parent, start, codes = _tree(rows, arities, m)
    alpha = concentrations(n, parent, start)
    rows_est = smoothed(n, parent, start, alpha)
    inner = int(start[-2])
    for leaf in range(inner, int(start[-1])):
        num, den, a = n[leaf].copy(), n[leaf].sum(), parent[leaf]
        while a >= 0:
            own = (n[a] + 1 / m) / (n[a].sum() + 1)
            num, den, a = num + alpha[a] * own, den + alpha[a], parent[a]
        np.testing.assert_allclose(rows_est[leaf], num / den, rtol=1e-13)
    levels = HGS().smooth(counts, arities[1:])
    assert [lv.shape for lv in levels] == [(1, m), (2, m), (6, m), (12, m)]
    for lv in levels:
        np.testing.assert_allclose(lv.sum(axis=1), 1.0, rtol=1e-13)
    # a configuration without data takes its deepest ancestor's mixture of the levels above
    empty = np.flatnonzero(~counts.reshape(-1, m).any(axis=1))
    assert empty.size == 3
    for code in empty:
        above = code // arities[-1]
        np.testing.assert_array_equal(levels[-1][code], levels[-2][above])
    # deterministic, and not Laplace under another name
    np.testing.assert_array_equal(levels[-1], HGS().smooth(counts, arities[1:])[-1])
    laplace = (counts.reshape(-1, m) + 1) / (counts.reshape(-1, m).sum(axis=1, keepdims=True) + m)
    assert np.abs(levels[-1] - laplace).max() > 1e-2


def test_no_data_weights_and_parameters():
    np.testing.assert_allclose(HGS().smooth(np.zeros((2, 1, 3)), (1,))[-1], 1 / 3)
    rows, arities, m = _rows(0)
    counts = table_counts(rows, arities, m)
    with pytest.raises(ParameterError, match="estimation='hgs' counts whole instances"):
        HGS().conditional(counts + 0.5, levels=arities[1:])
    with pytest.raises(ParameterError, match="tying"):
        HGS(tying="levels").conditional(counts, levels=arities[1:])
    # a table of the class alone is smoothed toward the overall frequencies
    p = np.exp(HGS().categorical(np.array([[9.0, 1.0, 0.0], [0.0, 1.0, 9.0]])))
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert p[0, 2] > 0 and p[0, 0] > p[0, 1] > p[0, 2]


@pytest.mark.parametrize("tying", ["none", "level", "parent"])
def test_the_compiled_minimizer_reaches_scipys_minimum(tying):
    """The spectral projected gradient in the box against scipy's L-BFGS-B on the same loss."""
    from scipy.optimize import Bounds, minimize
    from seminaive.estimation._tree import tied_groups
    rows, arities, m = _rows(11, n=150, arities=(3, 3), m=4)
    n, parent, start, _ = _tree(rows, arities, m)
    inner = int(start[-2])
    tie = np.unique(tied_groups(tying, parent, start)[:inner], return_inverse=True)[1]
    loss = _LooLoss(n, parent, start, tie)
    alpha = concentrations(n, parent, start, tying, max_evaluations=5000)
    ours = loss(np.log(alpha[np.unique(tie, return_index=True)[1]]))[0]  # one node of each group
    low = np.full(loss.n_params, LOG_ALPHA[0])
    low[0] = ROOT_LOG_ALPHA
    ref = minimize(loss, np.zeros(loss.n_params), jac=True, method="L-BFGS-B",
                   bounds=Bounds(low, np.full(loss.n_params, LOG_ALPHA[1])), options={"maxiter": 5000}).fun
    assert ours <= ref + 1e-7
    assert loss(np.full(loss.n_params, np.log(2.0)))[0] > ref + 1e-4  # the start is not already the minimum
