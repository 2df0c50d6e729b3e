"""Supervised entropy discretization with the MDL stopping rule (Fayyad and Irani, 1993)."""

import math

import numpy as np

from .._jit import compiled
from .._scale import midpoint
from .base import Discretizer, value_counts
from .._memory import check_memory
from ..registry import register_variant

__all__ = ["MDLDiscretizer", "value_counts", "boundary_scores"]


def _entropy(counts, n):
    """Entropy in bits of class counts totalling ``n`` (0 for none)."""
    h = 0.0
    if n > 0:
        for c in counts:
            if c > 0:
                p = c / n
                h -= p * math.log2(p)
    return h


def _boundary_scores(counts, ent, above, total, left, right):
    """For each boundary between the distinct values whose class counts are ``counts`` (values,
    K): the class entropy of the split, weighted by the sides' sizes (``ent``), and its gain above
    Fayyad and Irani's MDL threshold (``above``, 0 below it). One pass, the left counts growing;
    ``total``, ``left`` and ``right`` (K,): scratch (no array made or summed by numpy calls here:
    each would compile numba's own version of it on first use)."""
    v, k = counts.shape
    n = 0.0
    for c in range(k):
        total[c] = 0.0
        left[c] = 0.0
    for i in range(v):
        for c in range(k):
            total[c] += counts[i, c]
    for c in range(k):
        n += total[c]
    ent_s = _entropy(total, n)
    kk = 0
    for c in range(k):
        kk += total[c] > 0
    log_n, log_k = math.log2(n - 1), math.log2(3.0 ** kk - 2)
    for i in range(v - 1):
        nl = 0.0
        for c in range(k):
            left[c] += counts[i, c]
            right[c] = total[c] - left[c]
            nl += left[c]
        e1, e2 = _entropy(left, nl), _entropy(right, n - nl)
        ent[i] = (nl * e1 + (n - nl) * e2) / n
        k1, k2 = 0, 0
        for c in range(k):
            k1 += left[c] > 0
            k2 += right[c] > 0
        delta = log_k - (kk * ent_s - k1 * e1 - k2 * e2)
        above[i] = max(ent_s - ent[i] - (log_n + delta) / n, 0.0)
    return ent_s


_KERNELS = ("_entropy", "_boundary_scores")
_COMPILED = []


def boundary_scores(counts):
    """The class entropy of the split at each boundary between distinct values (class counts
    ``counts``, (values, K)), its gain above the MDL threshold (0 below it), and the entropy of
    the whole (compiled: a column's recursion asks once per split it tries, hundreds of times).

    Examples
    --------
    >>> ent, above, whole = boundary_scores(np.array([[3.0, 0.0], [0.0, 3.0]]))
    >>> ent.tolist(), whole
    ([0.0], 1.0)
    """
    counts = np.ascontiguousarray(counts, dtype=np.float64)
    ent, above, scratch = np.empty(counts.shape[0] - 1), np.empty(counts.shape[0] - 1), np.empty((3, counts.shape[1]))
    whole = compiled(globals(), _KERNELS, _COMPILED)["_boundary_scores"](counts, ent, above, *scratch)
    return ent, above, float(whole)


class MDLDiscretizer(Discretizer):
    """Recursive binary splits at the boundary point of least class entropy,
    kept while the information gain exceeds the MDL threshold

        (log2(N - 1) + log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)]) / N,

    with k, k1, k2 the numbers of classes present in S, S1, S2 (Weka's
    supervised ``Discretize`` default). A column may get no cut at all.

    Examples
    --------
    >>> x = np.arange(1.0, 9.0)[:, None]
    >>> MDLDiscretizer().fit(x, [0, 0, 0, 0, 1, 1, 1, 1]).cut_points_[0].tolist()
    [4.5]
    >>> MDLDiscretizer().fit(x[:4], [0, 1, 0, 1]).cut_points_[0].tolist()
    []
    """

    supervised = True

    def __init__(self):
        pass

    table_based = True

    def _check_table(self, x, n_classes):
        distinct = int(np.count_nonzero(x[1:] > x[:-1])) + 1 if x.size else 0
        check_memory(3 * 8 * distinct * n_classes, f"MDL's cut points of an attribute ({distinct:,} values x "
                                                    f"{n_classes:,} classes)",
                     "numeric='equal_frequency' (Naive Bayes: 'gaussian'), or fewer classes")

    def _table_ladder(self, values, counts):
        if counts.sum() < 2:
            return [], None
        cuts = []
        self._split(values, counts, cuts)
        return sorted(cuts), None

    def _split(self, values, counts, cuts):
        """Split the distinct ``values`` (their class counts ``counts``) where the class entropy
        is least, while the gain passes the MDL test."""
        if values.size < 2:
            return
        ent, above, _ = boundary_scores(counts)
        i = int(np.argmin(ent))  # the boundary of least entropy, kept if it passes the MDL test
        if not above[i] > 0:
            return
        cuts.append(midpoint(values[i], values[i + 1]))
        self._split(values[:i + 1], counts[:i + 1], cuts)
        self._split(values[i + 1:], counts[i + 1:], cuts)


register_variant("discretizer", "mdl", "Fayyad and Irani's supervised MDL intervals", MDLDiscretizer)
