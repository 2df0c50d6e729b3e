"""Held-out estimates the engine, calibration and selective kDB share: Gaussian log-densities from
moments less each instance's own (Welford's step backwards) or from another part's moments, and
per-class moments of one column and their union (the leave-one-out class priors are estimation's:
:func:`seminaive.estimation.loo_class_log_prior`)."""

import numpy as np

from ..components.gaussian import Gaussian, estimated_logpdf

__all__ = ["loo_gaussian", "fold_gaussian"]


def loo_gaussian(est, w, mean, m2, x, y, floor, scale=1.0):
    """Leave-one-out log-densities, (n, K), from per-class moments of all the data:
    each instance's class moments are downdated (Welford's step backwards), then
    ``est`` estimates every row's distributions from its own statistics (the
    pooled ones, and an empirical prior, downdated with them)."""
    n, k = x.size, w.size
    idx = np.flatnonzero(~np.isnan(x))
    yi, xi = y[idx], x[idx]
    W, M, Q = (np.tile(a, (idx.size, 1)) for a in (w, mean, m2))
    r = np.arange(idx.size)
    w_new = W[r, yi] - 1.0
    mean_new = np.where(w_new > 0, (W[r, yi] * M[r, yi] - xi) / np.where(w_new > 0, w_new, 1.0), 0.0)
    Q[r, yi] = Q[r, yi] - (xi - M[r, yi]) * (xi - mean_new)
    W[r, yi], M[r, yi] = w_new, mean_new
    out = np.zeros((n, k))
    out[idx] = estimated_logpdf(est, W, M, np.maximum(Q, 0.0), floor, xi, scale)
    return out


def fold_gaussian(est, weight, mean, m2, floor, x, scale=1.0):
    """Log-densities (rows, K) of ``x`` under the distributions ``est`` estimates
    from another part's moments; 0 where ``x`` is missing."""
    part = estimated_logpdf(est, weight, mean, m2, floor, x, scale)
    part[np.isnan(x)] = 0.0
    return part


def _moments(x, y, k):
    """Per-class (weight, mean, M2) of the present values, as Gaussian.count_many gives them."""
    p = ~np.isnan(x)
    x, y = x[p], y[p]
    w = np.bincount(y, minlength=k).astype(np.float64)
    s = np.bincount(y, weights=x, minlength=k)
    mean = np.divide(s, w, out=np.zeros(k), where=w > 0)
    dev = x - mean[y]
    m2 = np.bincount(y, weights=dev * dev, minlength=k)
    return w, mean, m2


def _merge_all(parts):
    """The statistics of the union of several parts (Gaussian moments)."""
    st = parts[0]
    for p in parts[1:]:
        st = Gaussian.merge(st, p)
    return st
