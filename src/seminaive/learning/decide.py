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

from .._jit import compiled, with_views
from ..base import resolve_degenerate
from .._scale import TIE_RTOL

__all__ = ["split_infinite", "with_infinite", "correct", "changed", "running_sum", "candidate_hits", "hits_loaded"]


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


def correct(S, y, rtol=TIE_RTOL, log_prior=None):
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


def changed(S, remove, add, out=None):
    """A new ``S`` with the arrays ``remove`` taken out and ``add`` put in, in that order
    (written into ``out`` where it is given: an array of S's shape that is not S).

    Examples
    --------
    >>> changed(np.ones((2, 1)), [np.ones((2, 1))], [np.full((2, 1), 3.0)]).ravel().tolist()
    [3.0, 3.0]
    """
    parts = [(np.subtract, a) for a in remove] + [(np.add, a) for a in add]
    if not parts:
        return S.copy() if out is None else np.copyto(out, S) or out
    (op, first), rest = parts[0], parts[1:]
    out = op(S, first, out=out)
    for op, a in rest:
        op(out, a, out=out)
    return out


def running_sum(memo, groups, prior, part):
    """A search's current sum, the ``prior`` plus ``part(groups)`` (the arrays of the groups): the
    sum ``memo`` holds from the last call changed by the groups that left (taken out in the order
    they had) and those that came (put in, in their order), as :func:`changed` applies the candidate
    that made the step, so that the current sum has the bits that candidate was scored with and costs
    one pass, not one per group; summed afresh on a first call or where most groups changed. The
    sum returned is overwritten by the call after next (a caller keeps it for one step).

    Examples
    --------
    >>> memo, part = {}, lambda gs: [np.full((1, 1), float(g)) for g in gs]
    >>> running_sum(memo, [1, 2, 4], np.zeros((1, 1)), part).item()
    7.0
    >>> running_sum(memo, [1, 4, 8], np.zeros((1, 1)), part).item()  # 2 left, 8 came
    13.0
    """
    last = memo.get("groups")
    if last is not None:
        before, now = set(last), set(groups)
        gone, came = [g for g in last if g not in now], [g for g in groups if g not in before]
    if last is None or len(gone) + len(came) > len(groups):
        S = prior.copy()
        for a in part(groups):
            S += a
    else:  # into the array the sum before last held (fresh memory costs more than the sum here)
        S = changed(memo["S"], part(gone), part(came), memo.get("spare"))
    memo.update(groups=list(groups), S=S, spare=memo.get("S"))
    return S


def _two(x0, x1, own, rtol):
    """A row of two classes with sums ``x0``, ``x1``: (1 if a sum is NaN or the largest is infinite,
    else 0; 1 if :func:`correct`'s decision, the first class within ``rtol`` of the largest, is
    ``own``, else 0)."""
    m = x1 if x1 > x0 else x0
    bad = (x0 != x0) | (x1 != x1) | (m - m != 0.0)
    m -= rtol * (1.0 + abs(m))
    return int(bad), int((0 if x0 >= m else (1 if x1 >= m else 2)) == own)


def _hits(S, arrays, parts, signs, counts, y, rtol, out):
    """For each candidate t, the rows decided as their class ``y`` under ``S`` (K, rows) changed by
    its ``counts[t]`` parts: the array of S's shape at address arrays[parts[t, p]] times signs[t, p]
    (+1 or -1: exactly an addition or a subtraction) added in the order given. A decision is
    :func:`correct`'s (the first class within ``rtol`` of the largest); out[t] = -1 where a row's
    largest is not finite (:func:`correct` resolves such rows). Rows in blocks, every candidate on a
    block while the block's part of ``S`` is in cache; each pass a plain loop over one class's row of
    the block (1-d views, which the compiler vectorizes)."""
    k, n = S.shape
    block = 512
    V = np.empty((k, block))
    top = np.empty(block)
    spoilt = np.empty(block)
    first = np.empty(block, dtype=np.int64)
    out[:] = 0
    for s0 in range(0, n, block):
        s1 = min(s0 + block, n)
        e = s1 - s0
        yb, tp, z, fs = y[s0:s1], top[:e], spoilt[:e], first[:e]
        for t in range(parts.shape[0]):
            if out[t] < 0:
                continue
            if k == 2 and counts[t] == 1:  # two classes, one part (a deletion): summed and decided in one pass
                a = _view(arrays[parts[t, 0]], k, n)
                sign, a0, a1, S0, S1 = signs[t, 0], a[0, s0:s1], a[1, s0:s1], S[0, s0:s1], S[1, s0:s1]
                bad, hits = 0, 0
                for r in range(e):
                    b, h = _two(S0[r] + sign * a0[r], S1[r] + sign * a1[r], yb[r], rtol)
                    bad, hits = bad + b, hits + h
                out[t] = -1 if bad else out[t] + hits
                continue
            for c in range(k):
                v, sc = V[c, :e], S[c, s0:s1]
                if counts[t] == 0:
                    v[:] = sc
                    continue
                a, sign = _view(arrays[parts[t, 0]], k, n)[c, s0:s1], signs[t, 0]
                for r in range(e):
                    v[r] = sc[r] + sign * a[r]
                for p in range(1, counts[t]):
                    a, sign = _view(arrays[parts[t, p]], k, n)[c, s0:s1], signs[t, p]
                    for r in range(e):
                        v[r] += sign * a[r]
            if k == 2:  # two classes: the decision in one pass
                v, u = V[0, :e], V[1, :e]
                bad, hits = 0, 0
                for r in range(e):
                    b, h = _two(v[r], u[r], yb[r], rtol)
                    bad, hits = bad + b, hits + h
                out[t] = -1 if bad else out[t] + hits
                continue
            v = V[0, :e]
            for r in range(e):
                tp[r] = v[r]
                z[r] = 1.0 if v[r] != v[r] else 0.0  # a NaN anywhere; then an infinite largest
            for c in range(1, k):
                v = V[c, :e]
                for r in range(e):
                    x = v[r]
                    z[r] += 1.0 if x != x else 0.0
                    tp[r] = x if x > tp[r] else tp[r]
            bad = 0
            for r in range(e):
                bad += (z[r] != 0.0) | (tp[r] - tp[r] != 0.0)
                tp[r] -= rtol * (1.0 + abs(tp[r]))
            if bad:
                out[t] = -1
                continue
            fs[:] = k
            for c in range(k - 1, -1, -1):
                v = V[c, :e]
                for r in range(e):
                    fs[r] = c if v[r] >= tp[r] else fs[r]
            hits = 0
            for r in range(e):
                hits += fs[r] == yb[r]
            out[t] += hits


_view = None  # the loops' view of an array by its address, set before they compile (_jit.with_views)
_KERNELS = ("_two", "_hits")  # callees first
_COMPILED = []


def hits_loaded():
    """Whether this process has loaded the compiled loop of :func:`candidate_hits` (then even a small
    search takes it: it costs nothing more to load).

    Examples
    --------
    >>> hits_loaded() in (True, False)
    True
    """
    return bool(_COMPILED)


def candidate_hits(S, changes, y, rtol=TIE_RTOL, pool=None):
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
    pool = {} if pool is None else pool
    if not pool:  # the arrays as they are, by address (a stack would copy every contribution)
        pool.update(arrays=[], index={}, addresses=[])
    listed, index, addresses = pool["arrays"], pool["index"], pool["addresses"]
    S = np.ascontiguousarray(S, dtype=np.float64)
    rows, cols, slots, sign = [], [], [], []  # each part's candidate, place, array and sign
    for t, (remove, add) in enumerate(changes):
        for p, a in enumerate((*remove, *add)):
            slot = index.get(id(a))
            if slot is None:
                if np.shape(a) != S.shape:
                    raise ValueError(f"candidate_hits: a change's array has shape {np.shape(a)}, S has {S.shape}")
                slot = index[id(a)] = len(listed)
                # kept, with the array handed (so that its id is not reused): the address stays valid
                listed.append((a, np.ascontiguousarray(a, dtype=np.float64)))
                addresses.append(listed[-1][1].ctypes.data)
            rows.append(t), cols.append(p), slots.append(slot), sign.append(-1.0 if p < len(remove) else 1.0)
    counts = np.bincount(np.asarray(rows, dtype=np.int64), minlength=len(changes))
    parts = np.zeros((len(changes), max(counts.max(initial=0), 1)), dtype=np.int64)
    signs = np.zeros(parts.shape)
    parts[rows, cols], signs[rows, cols] = slots, sign
    fns = compiled(with_views(globals()), _KERNELS, _COMPILED)
    out = np.empty(len(changes), dtype=np.int64)
    fns["_hits"](S, np.array(addresses, dtype=np.int64), parts, signs, counts,
                 np.asarray(y, dtype=np.int64), float(rtol), out)
    return out
