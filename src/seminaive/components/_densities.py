"""Log-densities of the normal and Student-t distributions, broadcasting over rows and classes."""

import numpy as np
from scipy.special import gammaln

__all__ = ["normal_logpdf", "student_t_logpdf"]

_LOG_2PI = np.log(2 * np.pi)


def normal_logpdf(x, mu, var):
    """log N(x | mu, var), broadcasting ``x`` (rows, 1) against ``mu``, ``var``
    (classes). A zero variance is a point mass: +inf at its mean, -inf
    elsewhere (never NaN)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # |x| near 1e154 and beyond: -inf
        out = -0.5 * (_LOG_2PI + np.log(var)) - 0.5 * (x - mu) ** 2 / var
    point = np.broadcast_to(var == 0, out.shape)
    if point.any():
        hit = np.broadcast_to(x == mu, out.shape)
        out = np.where(point, np.where(hit, np.inf, -np.inf), out)
    return out


def student_t_logpdf(x, mu, scale2, df):
    """log of the Student t density with ``df`` degrees of freedom, location
    ``mu`` and squared scale ``scale2`` (the Normal-Gamma posterior predictive)."""
    with np.errstate(over="ignore"):  # a value of no float's square: log1p(inf) = inf, density 0
        z2 = (x - mu) ** 2 / scale2
    return (gammaln((df + 1) / 2) - gammaln(df / 2) - 0.5 * np.log(df * np.pi * scale2)
            - (df + 1) / 2 * np.log1p(z2 / df))
