"""Integer blocks: an array of small non-negative integer codes, every column
nominal (scikit-learn's CategoricalNB input format), read by one counting pass.

The pass counts each column's values by class; the values present (the
schema) and the class counts (the statistics) both come from it, so a fit on
such an array reads the data once (plus a min/max pass to size the table).
"""

import numpy as np

__all__ = ["LUT_LIMIT", "block_width", "block_counts", "present_values"]

LUT_LIMIT = 1 << 20  # at most this many (column, class, value) slots are counted at once
_ROWS = 16384  # rows per bincount: the chunk's index block stays in cache


def block_width(X, n_classes=1):
    """The value range ``max + 1`` when ``X`` is a 2-D non-negative integer array
    whose per-class table fits the counting limit, else None.

    Examples
    --------
    >>> block_width(np.array([[0, 2], [1, 0]])), block_width(np.array([[-1, 0]]))
    (3, None)
    """
    if not (isinstance(X, np.ndarray) and X.dtype.kind in "iu" and X.ndim == 2 and X.size):
        return None
    if X.min() < 0:
        return None
    width = int(X.max()) + 1
    return width if width * X.shape[1] * n_classes <= LUT_LIMIT else None


def block_counts(X, width, y=None, n_classes=1):
    """Counts of every value of every column by class: an int64 array of shape
    ``(n_columns, n_classes, width)``, from one chunked bincount pass.

    Examples
    --------
    >>> block_counts(np.array([[0, 2], [1, 0], [1, 2]]), 3, np.array([0, 1, 1]), 2)[1].tolist()
    [[0, 0, 1], [1, 0, 1]]
    """
    d = X.shape[1]
    stride = n_classes * width
    offsets = np.arange(d, dtype=np.intp) * stride
    total = np.zeros(d * stride, dtype=np.int64)
    for s in range(0, X.shape[0], _ROWS):
        idx = np.add(X[s:s + _ROWS], offsets, dtype=np.intp)
        if y is not None:
            idx += (y[s:s + _ROWS] * width)[:, None]
        total += np.bincount(idx.ravel(), minlength=total.size)
    return total.reshape(d, n_classes, width)


def present_values(counts):
    """Per column, the sorted values that occur (a count above zero in any class)."""
    return [np.flatnonzero(c.sum(axis=0)).tolist() for c in counts]
