"""Decisions on class-major joint log-likelihoods.

The engine holds each attribute's contribution as a (K, rows) array; a model
is the prior plus a sum of them, and its decision on a row is the first class
whose value is within a relative ``rtol`` of the row's largest (the rule of
:func:`seminaive.base.decide`, so a decision does not depend on the order in
which contributions were summed). Infinite entries (a probability of 0 with
``alpha=0``, a point mass) are held apart, so that sums add and subtract
exactly, and put back before deciding.
"""

import numpy as np

from ..base import resolve_degenerate

__all__ = ["split_infinite", "with_infinite", "correct"]


def split_infinite(c):
    """``c`` (K, rows) with its non-finite entries set to 0, and those entries
    apart as ``(columns, values)`` (0 where finite), or None when all are finite."""
    finite = np.isfinite(c)
    if finite.all():
        return c, None
    cols = np.flatnonzero(~finite.all(axis=0))
    part = np.where(finite[:, cols], 0.0, c[:, cols])
    c = np.where(finite, c, 0.0)
    return c, (cols, part)


def with_infinite(S, parts):
    """``S`` with the infinite entries of the contributions it sums put back
    (``parts`` as :func:`split_infinite` gives them; None for a finite one)."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return S
    S = S.copy()
    with np.errstate(invalid="ignore"):
        for cols, part in parts:
            S[:, cols] += part
    return S


def correct(S, y, rtol=1e-10, log_prior=None):
    """Whether the decision on each column of class-major ``S`` (K, rows) is ``y``.
    Columns that are not all finite are first resolved as the classifiers
    resolve them (:func:`seminaive.base.resolve_degenerate`, with the class-major
    ``log_prior`` (K, rows) of the model that scores each column)."""
    top = S[0].copy()
    for row in S[1:]:
        np.maximum(top, row, out=top)
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(top)
    if bad.any():
        S = S.copy()
        prior = np.zeros((bad.sum(), S.shape[0])) if log_prior is None else log_prior[:, bad].T
        S[:, bad] = resolve_degenerate(S[:, bad].T, prior).T
        return correct(S, y, rtol)
    top -= rtol * (1.0 + np.abs(top))
    first = np.full(top.size, S.shape[0])
    for c in range(S.shape[0] - 1, -1, -1):
        first[S[c] >= top] = c
    return first == y
