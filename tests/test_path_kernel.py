"""The compiled scoring of growing models (:mod:`seminaive.learning.path_kernel`) against the general
path it stands in for: on generated data with missing children and parents, weights (whole, 0,
fractional), two and three classes, terms of many parent values (counted sparsely), Laplace,
Lidstone and the m-estimate, every rule it covers; the cases it leaves to the general path
(folds, alpha = 0, a rule it does not cover) are left there."""

import numpy as np
import pytest

from seminaive.learning import engine as engine_module
from seminaive.learning import path_kernel
from seminaive.learning.engine import BaseAttribute, Engine, Given
from seminaive.estimation import Frequency, MEstimate


def _data(seed, n, k):
    rng = np.random.default_rng(seed)
    widths = [3, 4, 2, 5, 40, 40, 3]
    cols = [rng.integers(0, m, n) for m in widths]
    cols[1] = (cols[0] + rng.integers(0, 2, n)) % 4
    for j in (2, 5):  # missing values: a child, and a parent of the wide terms
        cols[j] = np.where(rng.random(n) < 0.15, -1, cols[j])
    y = (cols[0] + cols[1] * (cols[6] > 0) + rng.integers(0, 2, n)) % k
    paths = [[Given((0,), ()), Given((1,), (0,)), Given((2,), (0, 1)), Given((3,), (1, 2)), Given((6,), (4, 5)),
              Given((4,), (5, 3, 0))],
             [Given((6,), (4, 5, 1, 3))]]  # 40 * 40 * 4 * 5 = 32,000 parent values: counted over those met
    return cols, widths, y, paths


def _scores(cols, widths, y, paths, estimator, scoring, weight=None, fold=None):
    attrs = [BaseAttribute(str(i), c, m, gaussian=False) for i, (c, m) in enumerate(zip(cols, widths))]
    k = int(y.max()) + 1
    return Engine(attrs, y, k, estimator, "laplace", scoring=scoring, weight=weight, fold=fold).score_paths(paths)


def _general(monkeypatch, *args, **kwargs):
    with monkeypatch.context() as m:
        m.setattr(engine_module, "path_sums", lambda *a: None)
        return _scores(*args, **kwargs)


def _compiled(monkeypatch, *args, **kwargs):
    calls = []
    real = path_kernel.path_sums

    def spy(*a):
        calls.append(real(*a))
        return calls[-1]
    with monkeypatch.context() as m:
        m.setattr(engine_module, "path_sums", spy)
        out = _scores(*args, **kwargs)
    return out, calls


@pytest.mark.parametrize("seed,k", [(0, 2), (1, 3), (2, 3)])
@pytest.mark.parametrize("estimator", [Frequency(alpha=1.0), Frequency(alpha=0.5), MEstimate(m=2.0)])
@pytest.mark.parametrize("scoring", ["rmse", "log_loss", "brier"])
@pytest.mark.parametrize("weights", [None, "whole", "fractional"])
def test_the_compiled_scores_are_the_general_paths(monkeypatch, seed, k, estimator, scoring, weights):
    cols, widths, y, paths = _data(seed, 600, k)  # every value met twice at least: m-estimates > 0
    rng = np.random.default_rng(seed + 10)
    weight = {None: None, "whole": rng.integers(0, 4, y.size).astype(float),
              "fractional": rng.integers(2, 8, y.size) / 2.0}[weights]  # >= 1: a row leaves a count
    fast, calls = _compiled(monkeypatch, cols, widths, y, paths, estimator, scoring, weight)
    assert calls and all(c is not None for c in calls)  # the compiled path scored
    slow = _general(monkeypatch, cols, widths, y, paths, estimator, scoring, weight)
    for a, b in zip(fast, slow):
        assert a.shape == b.shape == (len(a),) and np.isfinite(a).all()
        np.testing.assert_allclose(a, b, rtol=1e-12)
    # the scores see the data: the first terms change them, differently on different paths
    assert np.ptp(fast[0]) > 0 and fast[0][1] != fast[1][1]


@pytest.mark.parametrize("case", ["folds", "alpha 0", "accuracy"])
def test_what_the_kernel_does_not_cover_goes_the_general_way(monkeypatch, case):
    cols, widths, y, paths = _data(4, 150, 2)
    estimator = Frequency(alpha=0.0 if case == "alpha 0" else 1.0)
    scoring = "accuracy" if case == "accuracy" else "log_loss"
    fold = np.arange(y.size) % 5 if case == "folds" else None
    out, calls = _compiled(monkeypatch, cols, widths, y, paths, estimator, scoring, None, fold)
    assert calls and all(c is None for c in calls)
    for a, b in zip(out, _general(monkeypatch, cols, widths, y, paths, estimator, scoring, None, fold)):
        np.testing.assert_array_equal(a, b)


def test_a_class_likelihood_that_underflows_sends_the_log_loss_the_general_way(monkeypatch):
    """A row whose 150 attributes all point to the other class: its own class's likelihood falls
    below the smallest double (about 1/300 per term) while the row's sum stays normal. The kernel
    sees the zero under log loss and leaves the paths to the general path, which scores in
    logarithms; RMSE needs no logarithm of it and stays compiled, equal to the general path."""
    n, d = 600, 150
    y = np.arange(n) % 2
    cols = [y.copy() for _ in range(d)]
    y = y.copy()
    y[0] = 1 - y[0]  # every attribute of row 0 says the other class
    paths = [[Given((j,), ()) for j in range(d)]]
    out, calls = _compiled(monkeypatch, cols, [2] * d, y, paths, Frequency(alpha=1.0), "log_loss")
    assert calls and all(c is None for c in calls)
    general = _general(monkeypatch, cols, [2] * d, y, paths, Frequency(alpha=1.0), "log_loss")
    np.testing.assert_array_equal(out[0], general[0])
    assert np.isfinite(out[0]).all() and out[0][-1] > out[0][50]  # row 0's loss keeps growing
    fast, calls = _compiled(monkeypatch, cols, [2] * d, y, paths, Frequency(alpha=1.0), "rmse")
    assert calls and all(c is not None for c in calls)
    np.testing.assert_allclose(fast[0], _general(monkeypatch, cols, [2] * d, y, paths, Frequency(alpha=1.0),
                                                 "rmse")[0], rtol=1e-12)
