"""Fayyad and Irani's MDL discretization written directly in numpy arrays (every boundary's
entropy at once, per split), as the reference of the compiled split search."""

import numpy as np

from seminaive._scale import midpoint


def class_entropy(counts):
    """Entropy in bits of a class-count vector (or of each row of a matrix)."""
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log2(p), 0.0)
    return -(p * logs).sum(axis=-1)


def boundary_entropies(counts):
    """The class entropy of the split at each boundary between distinct values (class counts (values, K)),
    weighted by the sides' sizes."""
    cum = np.cumsum(counts, axis=0)
    total, left = cum[-1], cum[:-1]
    right, n, nl = total - left, total.sum(), left.sum(axis=1)
    return (nl * class_entropy(left) + (n - nl) * class_entropy(right)) / n


def mdl_cuts(x, y):
    """The MDL cut points of column ``x`` (no missing values) with class codes ``y``."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    values, starts = np.unique(xs, return_index=True)
    counts = np.add.reduceat(np.eye(int(y.max()) + 1)[ys], starts, axis=0)
    cuts = []

    def split(values, counts):
        if values.size < 2:
            return
        ent = boundary_entropies(counts)
        i = int(np.argmin(ent))
        cum = np.cumsum(counts, axis=0)
        total, left = cum[-1], cum[i]
        right, n = total - left, total.sum()
        ent_s = float(class_entropy(total))
        k, k1, k2 = np.count_nonzero(total), np.count_nonzero(left), np.count_nonzero(right)
        delta = np.log2(3.0 ** k - 2) - (k * ent_s - k1 * class_entropy(left) - k2 * class_entropy(right))
        if ent_s - ent[i] <= (np.log2(n - 1) + delta) / n:
            return
        cuts.append(midpoint(values[i], values[i + 1]))
        split(values[:i + 1], counts[:i + 1])
        split(values[i + 1:], counts[i + 1:])

    split(values, counts)
    return sorted(cuts)
