"""The one counting primitive: tables of code columns indexed by (fold, class,
parents' joint value, child value), with weights, and the one joint-code builder.

Every table the package estimates from is this count (its callers:
components.conditional and categorical_block, data.int_block, bayesnet.ande,
dependence.information, learning.engine, core.structure and sparse_terms):
Naive Bayes's per-class value counts, a Pazzani join (its joint code as the
child), the family's conditional tables (the parents' joint code as the parent
axis), AnDE's super-parent tables, the engine's per-fold tables and the pair
statistics of structure learning and of the dependence measures. A negative code (a
missing value) leaves its row out of that child's count; a negative parent code
leaves the row out of every child's count.
"""

import numpy as np

__all__ = ["ROWS", "joint_codes", "count_codes", "count_classes", "distinct", "merge_distinct"]

ROWS = 16384  # rows per bincount: a chunk's index block stays in cache


def distinct(codes):
    """The distinct values of an integer array, sorted: ``np.unique``'s answer by a sort and a
    comparison of neighbours (numpy 2.3+ finds integers' distinct values by hashing, 10-50x slower
    on the many-valued keys of sparse tables).

    Examples
    --------
    >>> distinct(np.array([5, 1, 5, 3, 1])).tolist()
    [1, 3, 5]
    """
    s = np.sort(codes)
    if s.size < 2:
        return s
    return s[np.concatenate(([True], s[1:] != s[:-1]))]


def merge_distinct(a, b):
    """The union of two sorted arrays of distinct values (``np.union1d``'s answer), by one merge:
    a stable sort of their concatenation is a merge of its two sorted runs.

    Examples
    --------
    >>> merge_distinct(np.array([1, 4, 9]), np.array([2, 4, 10])).tolist()
    [1, 2, 4, 9, 10]
    """
    c = np.concatenate((a, b))
    c.sort(kind="stable")
    if c.size < 2:
        return c
    return c[np.concatenate(([True], c[1:] != c[:-1]))]


def joint_codes(columns, widths, missing=-1):
    """The joint value of code columns, row-major over their ``widths`` (the
    last column varies fastest), and ``missing`` where any column is negative.

    Examples
    --------
    >>> joint_codes([np.array([0, 1, 1, -1]), np.array([2, 0, 2, 1])], [2, 3]).tolist()
    [2, 3, 5, -1]
    >>> joint_codes([np.array([1, -1])], [2], missing=2).tolist()
    [1, 2]
    """
    if not len(columns):
        return np.zeros(0, dtype=np.int64)
    out = np.array(columns[0], dtype=np.int64)  # a copy, then changed in place: no temporaries per column
    absent = out < 0
    for c, m in zip(columns[1:], widths[1:]):
        out *= int(m)
        out += c
        absent |= np.less(c, 0)
    np.putmask(out, absent, missing)
    return out


def count_codes(children, width, y, n_classes, *, parent=None, n_parent=1, fold=None, n_folds=1, weight=None):
    """Counts of the child code columns' values by fold, class and parent value:
    an array of shape ``(n_children, n_folds, n_classes, n_parent, width)``.

    ``children`` is a 2-D array (rows, children) or a list of 1-D columns, codes
    below ``width``; ``parent`` the rows' parent value (below ``n_parent``);
    ``fold`` the rows' fold; ``weight`` the rows' weights (1 when None). Rows
    with a negative child code are left out of that child's count, rows with a
    negative parent code out of every count. One chunked bincount over all the
    children.

    Examples
    --------
    >>> x = np.array([[0, 1], [1, -1], [1, 1]])
    >>> count_codes(x, 2, np.array([0, 1, 1]), 2)[:, 0, :, 0].tolist()
    [[[1.0, 0.0], [0.0, 2.0]], [[0.0, 1.0], [0.0, 1.0]]]
    >>> count_codes(x[:, :1], 2, np.array([0, 1, 1]), 2, parent=np.array([0, 0, 1]), n_parent=2)[0, 0].tolist()
    [[[1.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]
    """
    if isinstance(children, (list, tuple)):  # columns: stacked chunk by chunk, (children, rows)
        cols = [np.asarray(col) for col in children]
        c, n, rows_first = len(cols), (len(cols[0]) if cols else 0), False
        take = lambda s, e: np.stack([col[s:e] for col in cols])  # noqa: E731
    else:  # a (rows, children) block, read in its own order
        block = np.asarray(children)
        block = block[:, None] if block.ndim == 1 else block
        (n, c), rows_first = block.shape, True
        take = lambda s, e: block[s:e]  # noqa: E731
    slots, wide = n_parent + 1, width + 1  # +1: a negative parent / child lands in slot 0, dropped
    stride = n_folds * n_classes * slots * wide
    offsets = np.arange(c, dtype=np.intp) * stride + 1
    offsets = offsets[None, :] if rows_first else offsets[:, None]
    size = c * stride
    # a bincount costs its whole table besides its rows: a table larger than ROWS rows' cells is
    # counted in fewer, longer bincounts (one per size / c rows), not one per ROWS rows
    step = max(ROWS, -(-size // max(c, 1)))
    total = None
    for s in range(0, n, step):
        e = min(s + step, n)
        base = np.asarray(y[s:e], dtype=np.intp)
        if fold is not None:
            base = base + np.asarray(fold[s:e], dtype=np.intp) * n_classes
        base = base * slots + (1 if parent is None else np.maximum(np.asarray(parent[s:e], dtype=np.intp) + 1, 0))
        idx = np.add(take(s, e), offsets, dtype=np.intp)  # each child's slots after the previous child's
        idx += (base * wide)[:, None] if rows_first else base * wide
        if weight is None:  # an integer bincount, twice as fast as one weighted by ones (whole counts: exact)
            part = np.bincount(idx.ravel(order="K"), minlength=size).astype(np.float64)  # (any order: no copy)
        else:
            w = np.asarray(weight[s:e], dtype=np.float64)
            w = np.repeat(w, c) if rows_first else np.tile(w, c)
            part = np.bincount(idx.ravel(), weights=w, minlength=size)
        if total is None:
            total = part
        else:
            total += part
    if total is None:
        total = np.zeros(size)
    return total.reshape(c, n_folds, n_classes, slots, wide)[:, :, :, 1:, 1:]


def count_classes(y, n_classes, weight=None, fold=None, n_folds=None):
    """The (weighted) number of rows of each class, ``(n_classes,)``, or per fold
    ``(n_folds, n_classes)`` when ``n_folds`` is given: the counting primitive with
    no child (one value that every row has).

    Examples
    --------
    >>> count_classes(np.array([0, 1, 1]), 3).tolist()
    [1.0, 2.0, 0.0]
    >>> count_classes(np.array([0, 1, 1]), 2, fold=np.array([0, 0, 1]), n_folds=2).tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    y = np.asarray(y)
    counts = count_codes(np.zeros((y.size, 1), dtype=np.intp), 1, y, n_classes, fold=fold, n_folds=n_folds or 1,
                         weight=weight)[0, :, :, 0, 0]
    return counts if n_folds is not None else counts[0]

