"""Powers of two that bring a numeric column to magnitudes about 1.

Dividing by a power of two is exact in floating point, so the statistics of
``x / scale`` hold the same information as those of ``x``; but their squares
neither overflow (values of 1e155 and more) nor underflow (1e-163 and less).
Numeric components keep their moments in these units and carry the scale.
"""

import numpy as np

__all__ = ["column_scales", "pow2_scale", "midpoint", "stats_scale", "LOG_FLOOR", "TIE_RTOL"]

# a log-probability below this (exp(-700) is about 1e-304; probability 0 with alpha=0) is read as this
# where a finite number is needed: fitting weights on the terms, calibrating log-posteriors
LOG_FLOOR = -700.0

# two classes' joint log-likelihoods within this relative distance are a tie (the first class wins),
# so that a sum taken in another order (a fold's, the engine's, a file's) decides alike
TIE_RTOL = 1e-10


def pow2_scale(absmax):
    """The smallest power of two at least ``absmax`` (elementwise; at most
    2**1023); 1 where
    ``absmax`` is 0 or not finite (no present value).

    Examples
    --------
    >>> pow2_scale(np.array([3.0, 0.5, 0.0, np.nan, 1e300])).tolist()[:4]
    [4.0, 0.5, 1.0, 1.0]
    """
    absmax = np.asarray(absmax, dtype=np.float64)
    ok = np.isfinite(absmax) & (absmax > 0)
    _, exp = np.frexp(np.where(ok, absmax, 1.0))
    out = np.ldexp(1.0, np.minimum(exp, 1023))  # 2**1024 overflows: there |x| / scale < 2
    return np.where(ok, np.where(out / 2 == absmax, absmax, out), 1.0)


def column_scales(X):
    """:func:`pow2_scale` of each column's largest absolute present value
    (two reductions that skip NaN; no temporary copy of ``X``)."""
    if X.shape[0] == 0:
        return np.ones(X.shape[1])
    with np.errstate(invalid="ignore"):
        hi = np.fmax.reduce(X, axis=0)
        lo = np.fmin.reduce(X, axis=0)
    return pow2_scale(np.fmax(np.abs(hi), np.abs(lo)))


def midpoint(a, b):
    """(a + b) / 2 without overflow (the same number wherever a + b is finite)."""
    return np.asarray(a, dtype=np.float64) / 2 + np.asarray(b, dtype=np.float64) / 2


def stats_scale(stats):
    """The power of two the moments are divided by (1 for statistics saved before it existed)."""
    s = stats.get("scale")
    if s is None:
        return 1.0
    try:
        return float(s[0])  # a 1-element array or list
    except (TypeError, IndexError):
        return float(np.asarray(s).ravel()[0])
