"""Supervised entropy discretization with the MDL stopping rule (Fayyad and Irani, 1993)."""

import numpy as np

from .._scale import midpoint
from .base import Discretizer
from .._memory import check_memory
from ..registry import register_variant

__all__ = ["MDLDiscretizer", "class_entropy", "value_counts"]


def class_entropy(counts):
    """Entropy in bits of a class-count vector (or of each row of a matrix)."""
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log2(p), 0.0)
    return -(p * logs).sum(axis=-1)


def value_counts(x, onehot):
    """The distinct values of sorted ``x`` and their class counts (values, K), from the rows' class
    indicators ``onehot`` (n, K): a split can fall only between distinct values, so the splits work
    on this table, not on the rows.

    Examples
    --------
    >>> v, c = value_counts(np.array([1.0, 1.0, 2.0]), np.eye(2)[[0, 1, 1]])
    >>> v.tolist(), c.tolist()
    ([1.0, 2.0], [[1.0, 1.0], [0.0, 1.0]])
    """
    starts = np.flatnonzero(np.r_[True, x[1:] > x[:-1]])
    return x[starts], np.add.reduceat(np.asarray(onehot, dtype=np.float64), starts, axis=0)


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

    def _cut_points(self, x, y):
        if x.size < 2:
            return []
        k = int(y.max()) + 1
        check_memory(3 * 8 * x.size * k, f"MDL's cut points of an attribute ({x.size:,} values x {k:,} classes)",
                     "numeric='equal_frequency' (Naive Bayes: 'gaussian'), or fewer classes")
        onehot = np.zeros((x.size, k))
        onehot[np.arange(x.size), y] = 1
        cuts = []
        self._split(*value_counts(x, onehot), cuts)
        return sorted(cuts)

    def _split(self, values, counts, cuts):
        """Split the distinct ``values`` (their class counts ``counts``) where the class entropy
        is least, while the gain passes the MDL test."""
        if values.size < 2:
            return
        cum = np.cumsum(counts, axis=0)
        total = cum[-1]
        n = total.sum()
        left = cum[:-1]  # a boundary after each distinct value but the last
        right = total - left
        nl = left.sum(axis=1)
        nr = n - nl
        ent = (nl * class_entropy(left) + nr * class_entropy(right)) / n
        i = int(np.argmin(ent))
        ent_s = float(class_entropy(total))
        gain = ent_s - ent[i]
        k = np.count_nonzero(total)
        k1, k2 = np.count_nonzero(left[i]), np.count_nonzero(right[i])
        e1, e2 = float(class_entropy(left[i])), float(class_entropy(right[i]))
        delta = np.log2(3.0 ** k - 2) - (k * ent_s - k1 * e1 - k2 * e2)
        if gain <= (np.log2(n - 1) + delta) / n:
            return
        cuts.append(midpoint(values[i], values[i + 1]))
        self._split(values[:i + 1], counts[:i + 1], cuts)
        self._split(values[i + 1:], counts[i + 1:], cuts)


register_variant("discretizer", "mdl", "Fayyad and Irani's supervised MDL intervals", MDLDiscretizer)
