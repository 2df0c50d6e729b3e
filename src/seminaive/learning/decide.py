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

from .._jit import compiled
from ..base import resolve_degenerate

__all__ = ["split_infinite", "with_infinite", "correct", "changed", "candidate_hits"]


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


def changed(S, remove, add):
    """A new ``S`` with the arrays ``remove`` taken out and ``add`` put in, in that order.

    Examples
    --------
    >>> changed(np.ones((2, 1)), [np.ones((2, 1))], [np.full((2, 1), 3.0)]).ravel().tolist()
    [3.0, 3.0]
    """
    parts = [(np.subtract, a) for a in remove] + [(np.add, a) for a in add]
    if not parts:
        return S.copy()
    (op, first), rest = parts[0], parts[1:]
    out = op(S, first)
    for op, a in rest:
        op(out, a, out=out)
    return out


def _hits(S, arrays, parts, signs, counts, y, rtol, out):
    """For each candidate t, the rows decided as their class ``y`` under ``S`` (K, rows) changed by
    its ``counts[t]`` parts: arrays[parts[t, p]] times signs[t, p] (+1 or -1: exactly an addition or
    a subtraction) added in the order given. A decision is :func:`correct`'s (the first class within
    ``rtol`` of the largest); out[t] = -1 where a row's largest is not finite (:func:`correct`
    resolves such rows). Rows in blocks, each pass a plain loop over a block (vectorized)."""
    k, n = S.shape
    block = 512
    V = np.empty((k, block))
    top = np.empty(block)
    first = np.empty(block, dtype=np.int64)
    for t in range(parts.shape[0]):
        hits = 0
        for s0 in range(0, n, block):
            e = min(s0 + block, n) - s0
            for c in range(k):
                for r in range(e):
                    V[c, r] = S[c, s0 + r]
                for p in range(counts[t]):
                    g, sign = parts[t, p], signs[t, p]
                    a = arrays[g]
                    for r in range(e):
                        V[c, r] += sign * a[c, s0 + r]
            nan = False
            for r in range(e):
                top[r] = V[0, r]
                nan |= V[0, r] != V[0, r]
            for c in range(1, k):
                for r in range(e):
                    x = V[c, r]
                    nan |= x != x
                    top[r] = x if x > top[r] else top[r]
            bad = nan
            for r in range(e):
                bad |= top[r] == np.inf or top[r] == -np.inf
                top[r] -= rtol * (1.0 + abs(top[r]))
            if bad:
                hits = -1
                break
            for r in range(e):
                first[r] = k
            for c in range(k - 1, -1, -1):
                for r in range(e):
                    first[r] = c if V[c, r] >= top[r] else first[r]
            for r in range(e):
                hits += first[r] == y[s0 + r]
        out[t] = hits


_KERNELS = ("_hits",)
_COMPILED = []


def candidate_hits(S, changes, y, rtol=1e-10, pool=None):
    """The number of rows :func:`correct` finds right under each candidate change of ``S`` (K,
    rows): a change is ``(remove, add)``, lists of (K, rows) arrays taken out of and added to
    ``S`` in that order, as :func:`changed` applies them (the same sums, so the same
    bits). One compiled pass per candidate over the rows, no copies; -1 for a candidate
    under which a row's largest is not finite (:func:`correct` resolves such rows). ``pool``: a
    dict kept by a caller whose arrays live as long as it does (an engine's cached contributions),
    which then hands each array to the compiled loop once, not once per call.

    Examples
    --------
    >>> S = np.array([[0.0, -1.0], [-1.0, 0.0]])  # row 0: class 0, row 1: class 1
    >>> c = np.array([[0.0, 0.0], [2.0, 0.0]])  # a contribution raising class 1 on row 0
    >>> candidate_hits(S, [([], []), ([], [c]), ([c], [])], np.array([0, 1])).tolist()
    [2, 1, 2]
    """
    from numba.typed import List  # the arrays as they are (a stack would copy every contribution)
    pool = {} if pool is None else pool
    if not pool:
        pool.update(arrays=List(), index={})
    listed, index = pool["arrays"], pool["index"]
    for remove, add in changes:
        for a in list(remove) + list(add):
            if id(a) not in index:
                index[id(a)] = len(listed)
                listed.append(np.ascontiguousarray(a, dtype=np.float64))
    if not len(listed):
        listed.append(np.zeros(S.shape))
    counts = np.array([len(r) + len(a) for r, a in changes], dtype=np.int64)
    parts = np.zeros((len(changes), max(counts.max(initial=0), 1)), dtype=np.int64)
    signs = np.zeros(parts.shape)
    for t, (remove, add) in enumerate(changes):
        for p, (a, sign) in enumerate([(a, -1.0) for a in remove] + [(a, 1.0) for a in add]):
            parts[t, p], signs[t, p] = index[id(a)], sign
    fns = compiled(globals(), _KERNELS, _COMPILED)
    out = np.empty(len(changes), dtype=np.int64)
    fns["_hits"](np.ascontiguousarray(S, dtype=np.float64), listed, parts, signs, counts,
                 np.asarray(y, dtype=np.int64), float(rtol), out)
    return out
