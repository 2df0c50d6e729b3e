"""A numeric child normal in each cell of its parents' joint value and the class, shrunk toward the
class's normal: the estimate, its leave-one-out and held-out forms, and the moments it is
estimated from (:class:`~seminaive.components.normal_child.NormalChild` and the scoring engine's
``NormalGiven`` term share them)."""

import numpy as np

from ._densities import normal_logpdf
from ._moments import class_moments

__all__ = ["normal_given", "normal_given_logpdf", "loo_rows", "loo_normal_given", "fold_normal_given", "normal_given_moments"]


def normal_given(est, cell, top, floor, m):
    """Mean and variance of a numeric child in a cell of its parents and a class, from the cell's
    moments ``cell`` and the class's ``top`` ((weight, mean, m2), each (rows, K)): the class's
    estimate (``est``'s, no floor) as a prior worth ``m`` rows,

        mean = (n xbar + m mu) / (n + m),
        var = (m2 + m s2 + n m / (n + m) (xbar - mu)^2) / (n + m) + floor,

    a normal-inverse-gamma posterior's point estimates; an empty cell (n = 0) gives the class's.

    Examples
    --------
    >>> from seminaive.estimation import Frequency
    >>> top = (np.array([[4.0]]), np.array([[0.0]]), np.array([[12.0]]))  # mean 0, variance 4
    >>> mu, var = normal_given(Frequency(), (np.array([[2.0]]), np.array([[3.0]]), np.array([[2.0]])), top, 0.0, 2.0)
    >>> float(mu[0, 0]), float(var[0, 0])  # (2*3 + 2*0) / 4; (2 + 2*4 + 1*9) / 4
    (1.5, 4.75)
    """
    mu, s2 = est.gaussian(*top, 0.0)
    n, xbar, m2 = cell
    total = n + m
    mean = (n * xbar + m * mu) / total
    var = (m2 + m * s2 + n * m / total * (xbar - mu) ** 2) / total + floor
    return mean, var


def normal_given_logpdf(est, cell, top, floor, m, x):
    """log-densities (rows, K) of ``x`` (rows,) under :func:`normal_given`; 0 where ``x`` is missing."""
    mean, var = normal_given(est, cell, top, floor, m)
    present = ~np.isnan(x)
    out = normal_logpdf(np.where(present, x, 0.0)[:, None], mean, var)
    out[~present] = 0.0
    return out


def _rows_of(st, parent):
    """Each row's cell moments (rows, K) and the class's (rows, K), from statistics whose last row of
    (parent values + 1, K) is the class's; ``parent``: each row's parents' value (the last: missing)."""
    top = len(st["weight"]) - 1
    cell = tuple(np.where((parent < top)[:, None], st[key][parent], 0.0) for key in ("weight", "mean", "m2"))
    return cell, tuple(np.repeat(st[key][top][None], parent.size, axis=0) for key in ("weight", "mean", "m2"))


def _downdated(moments, x, y, rows):
    """``moments`` (weight, mean, m2; each (n, K)) with each row of ``rows`` (a mask) that has a value
    taken out of its own class's column (Welford's step backwards)."""
    w, mean, m2 = (a.copy() for a in moments)
    r = np.flatnonzero(rows & ~np.isnan(x))
    c = y[r]
    wy, my, xv = w[r, c], mean[r, c], x[r]
    w_new = wy - 1.0
    m_new = np.where(w_new > 0, (wy * my - xv) / np.where(w_new > 0, w_new, 1.0), 0.0)
    m2[r, c] = np.maximum(m2[r, c] - (xv - my) * (xv - m_new), 0.0)
    w[r, c], mean[r, c] = w_new, m_new
    return w, mean, m2


def loo_rows(st, x, parent, y):
    """Each row's cell and class moments (each (weight, mean, m2) of (n, K)) from the statistics of
    all the rows ``st`` (weight, mean, m2: (parent values + 1, K), the last row the class's), its
    own value out of its cell and its class: what :func:`loo_normal_given` estimates from, for any m."""
    cell, top = _rows_of(st, parent)
    return _downdated(cell, x, y, parent < len(st["weight"]) - 1), _downdated(top, x, y, np.ones(x.size, dtype=bool))


def loo_normal_given(est, st, x, parent, y, floor, m, rows=None):
    """Leave-one-out log-densities (n, K) of a :func:`normal_given` child from the statistics of
    all the rows ``st``: each row's value out of its cell and its class (``rows``: :func:`loo_rows`'s,
    when the caller has them)."""
    return normal_given_logpdf(est, *(loo_rows(st, x, parent, y) if rows is None else rows), floor, m, x)


def fold_normal_given(est, st, x, parent, floor, m):
    """Log-densities (rows, K) of a :func:`normal_given` child under another part's statistics ``st``."""
    return normal_given_logpdf(est, *_rows_of(st, parent), floor, m, x)


def normal_given_moments(x, parent, y, k, n_parent, weight=None):
    """The statistics of a :func:`normal_given` child: per (parent value, class) and, last, per class,
    the weight, mean and m2 of ``x`` (each (n_parent + 1, K)); a row whose parents are missing
    (``parent`` = n_parent) counts in its class only."""
    x = np.asarray(x, dtype=np.float64)
    top = class_moments(x[:, None], y, k, weight)
    if n_parent == 0:
        return tuple(np.asarray(t, dtype=np.float64).reshape(1, k) for t in top)
    ok = parent < n_parent
    cells = class_moments(x[ok][:, None], parent[ok] * k + y[ok], n_parent * k, None if weight is None else weight[ok])
    return tuple(np.vstack([np.asarray(c, dtype=np.float64).reshape(n_parent, k),
                            np.asarray(t, dtype=np.float64).reshape(1, k)]) for c, t in zip(cells, top))
