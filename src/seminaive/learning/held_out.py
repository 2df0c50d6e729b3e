"""Held-out estimates the engine, calibration and selective kDB share: Gaussian log-densities from
moments less each instance's own (Welford's step backwards) or from another part's moments, and
per-class moments of one column and their union (the leave-one-out class priors are estimation's:
:func:`seminaive.estimation.loo_class_log_prior`)."""

import numpy as np

from ..components._moments import class_moments
from ..components.gaussian import Gaussian, estimated_logpdf

__all__ = ["loo_gaussian", "loo_gaussian_many", "fold_gaussian"]


def loo_gaussian_many(est, w, mean, m2, x, y, floor, scale=1.0):
    """Leave-one-out log-densities, (n, d, K), of d numeric attributes ``x`` (n, d) from their
    per-class moments of all the data (each (d, K)): each instance's class moments are downdated by
    its own value (Welford's step backwards), then ``est`` estimates every row's distributions from
    its own statistics (the pooled ones, and an empirical prior, downdated with them); ``floor``
    and ``scale`` per attribute (d,) or one for all; 0 where a value is missing. The one
    leave-one-out downdate of the engine, the family's selection and calibration."""
    n, d = x.shape
    k = np.shape(w)[-1]
    present = ~np.isnan(x)
    xv = np.where(present, x, 0.0)
    W, M, Q = (np.repeat(np.asarray(a, dtype=np.float64).reshape(d, k)[None], n, axis=0) for a in (w, mean, m2))
    rows, cols = np.arange(n)[:, None], np.arange(d)[None, :]
    yy = np.broadcast_to(y[:, None], x.shape)
    wy, my, qy = W[rows, cols, yy], M[rows, cols, yy], Q[rows, cols, yy]
    w_new = wy - 1.0
    m_new = np.where(w_new > 0, (wy * my - xv) / np.where(w_new > 0, w_new, 1.0), 0.0)
    W[rows, cols, yy] = np.where(present, w_new, wy)
    M[rows, cols, yy] = np.where(present, m_new, my)
    Q[rows, cols, yy] = np.where(present, qy - (xv - my) * (xv - m_new), qy)
    floor, scale = (np.broadcast_to(np.asarray(v, dtype=np.float64), (d,))[:, None] for v in (floor, scale))
    out = estimated_logpdf(est, W, M, np.maximum(Q, 0.0), floor, xv, scale)  # floor, scale: (d, 1)
    out[~present] = 0.0
    return out


def loo_gaussian(est, w, mean, m2, x, y, floor, scale=1.0):
    """:func:`loo_gaussian_many` of one attribute: (n, K) from its moments (K,)."""
    return loo_gaussian_many(est, w, mean, m2, x[:, None], y, floor, scale)[:, 0, :]


def fold_gaussian(est, weight, mean, m2, floor, x, scale=1.0):
    """Log-densities (rows, K) of ``x`` under the distributions ``est`` estimates
    from another part's moments; 0 where ``x`` is missing."""
    part = estimated_logpdf(est, weight, mean, m2, floor, x, scale)
    part[np.isnan(x)] = 0.0
    return part


def _moments(x, y, k, weight=None):
    """Per-class (weight, mean, M2) of the present values of one column (rows weighted by ``weight``):
    the components' one moments routine (:func:`seminaive.components._moments.class_moments`), as
    Gaussian.count_many gives them."""
    return tuple(np.ascontiguousarray(np.broadcast_to(a, (k, 1))[:, 0])
                 for a in class_moments(np.asarray(x, dtype=np.float64)[:, None], y, k, weight))


def _merge_all(parts):
    """The statistics of the union of several parts (Gaussian moments)."""
    st = parts[0]
    for p in parts[1:]:
        st = Gaussian.merge(st, p)
    return st

