"""Integer blocks: an array of small non-negative integer codes, every column
nominal (scikit-learn's CategoricalNB input format), read by one counting pass.

The pass counts each column's values by class; the values present (the
schema) and the class counts (the statistics) both come from it, so a fit on
such an array reads the data once (plus a min/max pass to size the table).
"""

import numpy as np

from ..core.counting import count_codes

__all__ = ["LUT_LIMIT", "block_width", "block_counts", "present_values", "code_dtype", "encode_int_block"]

LUT_LIMIT = 1 << 20  # at most this many (column, class, value) slots are counted at once


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
    ``(n_columns, n_classes, width)``, from one pass of the counting primitive.

    Examples
    --------
    >>> block_counts(np.array([[0, 2], [1, 0], [1, 2]]), 3, np.array([0, 1, 1]), 2)[1].tolist()
    [[0, 0, 1], [1, 0, 1]]
    """
    y = np.zeros(X.shape[0], dtype=np.intp) if y is None else y
    return count_codes(X, width, y, n_classes)[:, 0, :, 0].astype(np.int64)


def present_values(counts):
    """Per column, the sorted values that occur (a count above zero in any class).

    Examples
    --------
    >>> present_values(np.array([[[1, 0, 2]], [[0, 3, 0]]]))
    [[0, 2], [1]]
    """
    rows, cols = np.nonzero(counts.sum(axis=1))  # row-major: each column's values in order
    ends = np.cumsum(np.bincount(rows, minlength=counts.shape[0])).tolist()
    values = cols.tolist()
    return [values[a:b] for a, b in zip([0] + ends[:-1], ends)]


def code_dtype(n_values):
    """The smallest signed integer type holding codes -1 .. n_values - 1."""
    for dt in (np.int8, np.int16, np.int32):
        if n_values < np.iinfo(dt).max:
            return dt
    return np.int64


def encode_int_block(X, schema):
    """Fast path: X an integer array, every attribute nominal. With values 0..m-1,
    the codes are X itself (no copy) when every value is in range, otherwise a
    copy with out-of-range values set to -1 (unseen); with other integer values,
    one look-up in the schema's table of every column's codes (as each column's
    own table gives them). Returns ``(codes, unseen)``, or None when the path
    does not apply."""
    if not (isinstance(X, np.ndarray) and X.dtype.kind in "iu" and X.ndim == 2):
        return None
    attrs = schema.attributes
    if not schema.values_are_codes:
        lut = schema.integer_lut
        if lut is None or X.shape[1] != len(attrs):
            return None
        top = lut.shape[1] - 2
        inside = not X.size or (X.min() >= 0 and X.max() <= top)
        codes = np.empty(X.shape, dtype=code_dtype(int(lut.max()) + 1), order="F")  # the widest list's codes
        codes[:] = lut[np.arange(len(attrs)), X if inside else np.where((X < 0) | (X > top), top + 1, X)]
        return codes, np.count_nonzero(codes == -1, axis=0).astype(np.int64)
    m = schema.nominal_widths  # every attribute nominal
    unseen = np.zeros(len(attrs), dtype=np.int64)
    if not X.shape[0] or (X.min() >= 0 and X.max() < m.min()):
        return X, unseen
    bad = (X.min(axis=0) < 0) | (X.max(axis=0) >= m)
    if not bad.any():
        return X, unseen
    codes = X.astype(code_dtype(int(m.max())))
    for j in np.flatnonzero(bad):
        out = (X[:, j] < 0) | (X[:, j] >= m[j])
        codes[out, j] = -1
        unseen[j] = int(out.sum())
    return codes, unseen
