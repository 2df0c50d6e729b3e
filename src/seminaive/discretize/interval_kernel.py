"""Interval codes of many values, compiled: numpy's ``searchsorted`` of unsorted values into a few
cut points mispredicts a branch at nearly every step (about 15 ns a value here); a count of the cuts
below each value, without branches, takes a few. Used from ``COMPILED_FROM`` values up (fewer: numpy,
and no numba started for them)."""

import numpy as np

from .._jit import compiled

__all__ = ["COMPILED_FROM", "interval_codes"]

COMPILED_FROM = 1 << 16  # values: from here the compiled count (a first use loads or compiles it once)
LINEAR_UP_TO = 32  # cuts: up to here every cut compared (no branch); more: a binary search


def _interval_codes(x, cuts, out):
    m = cuts.size
    for i in range(x.size):
        v = x[i]
        if v != v:  # missing
            out[i] = -1
        elif m <= LINEAR_UP_TO:
            c = 0
            for j in range(m):
                c += cuts[j] < v
            out[i] = c
        else:
            lo, hi = 0, m
            while lo < hi:
                mid = (lo + hi) >> 1
                if cuts[mid] < v:
                    lo = mid + 1
                else:
                    hi = mid
            out[i] = lo


_KERNELS = ("_interval_codes",)
_COMPILED = []


def interval_codes(x, cuts):
    """The interval of each value of ``x`` among the sorted ``cuts`` (how many cuts lie below it:
    ``np.searchsorted(cuts, x, side="left")``), -1 where ``x`` is NaN; int64.

    Examples
    --------
    >>> interval_codes(np.array([1.0, 4.5, 4.6, np.nan, 99.0]), np.array([4.5, 7.0])).tolist()
    [0, 0, 1, -1, 2]
    """
    out = np.empty(x.shape[0], dtype=np.int64)
    compiled(globals(), _KERNELS, _COMPILED, nogil=_KERNELS)["_interval_codes"](
        np.ascontiguousarray(x, dtype=np.float64), np.ascontiguousarray(cuts, dtype=np.float64), out)
    return out
