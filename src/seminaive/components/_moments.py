"""Per-class moments of a numeric block in one pass over the data.

Each row chunk (small enough to stay in cache) gets exact two-pass moments
(class means, then squared deviations from them); chunks are merged with Chan's
parallel update. So the data are read from memory once, and the result is as
accurate as a two-pass computation over the whole block.
"""

import numpy as np

__all__ = ["class_moments", "raw_units_safe"]

# values per chunk: 512 KiB of float64 (at 1 MiB glibc's allocator gave each chunk's buffers back to the
# system, and every small fit paid their page faults again: digits' fit 3x slower)
_ELEMENTS = 1 << 16
_ONEHOT = 1 << 21  # the most cells of a chunk's one-hot class matrix (16 MiB): many classes, fewer rows
_MANY = 256  # more classes than this: moments by sorting the rows by class, not by one-hot products
_SAFE = 2.0 ** 256  # moments of values within 2**-256 .. 2**256 need no rescaling


def _rows_per_chunk(d):
    return max(64, _ELEMENTS // max(d, 1))


def _chunk_moments(xb, yb, onehot, wb, buf):
    """Weight, mean and m2 (each (K, d) or weight (K, 1)) of one chunk."""
    s = onehot.T @ xb
    if np.isnan(s).any():  # missing values in this chunk: mask them
        present = ~np.isnan(xb)
        w = onehot.T @ present
        mean = np.divide(onehot.T @ np.where(present, xb, 0.0), w, out=np.zeros_like(s), where=w > 0)
        dev = np.where(present, xb - mean[yb], 0.0)
    else:
        w = np.bincount(yb, weights=wb, minlength=onehot.shape[1])[:, None].astype(np.float64)
        mean = np.divide(s, w, out=np.zeros_like(s), where=w > 0)
        dev = buf[:xb.shape[0]]
        np.take(mean, yb, axis=0, out=dev)
        np.subtract(xb, dev, out=dev)
    np.square(dev, out=dev)
    return w, mean, onehot.T @ dev


def class_moments(X, y, n_classes, weight=None, scale=None):
    """Per-class weight, mean and sum of squared deviations of every column of
    ``X`` (missing values, NaN, skipped), each of shape ``(n_classes, d)``.

    Parameters
    ----------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,)
        Class codes 0 .. n_classes - 1.
    weight : ndarray of shape (n,), optional
        Instance weights.
    scale : ndarray of shape (d,), optional
        Powers of two to divide the columns by first (exact); None for raw units.

    Examples
    --------
    >>> X = np.array([[1.0], [3.0], [10.0], [np.nan]])
    >>> [a.ravel().tolist() for a in class_moments(X, np.array([0, 0, 1, 1]), 2)]
    [[2.0, 1.0], [2.0, 10.0], [2.0, 0.0]]
    """
    n, d = X.shape
    if n_classes > _MANY:
        return _grouped_moments(X, y, n_classes, weight, scale)
    eye = np.eye(n_classes)
    W, M, M2 = (np.zeros((n_classes, d)) for _ in range(3))
    rows = max(1, min(_rows_per_chunk(d), _ONEHOT // max(n_classes, 1)))
    buf = np.empty((rows, d), order="F" if X.flags.f_contiguous and not X.flags.c_contiguous else "C")
    hot = np.empty((rows, n_classes))
    with np.errstate(over="ignore", invalid="ignore"):  # non-finite results are the caller's to flag
        for s in range(0, n, rows):
            xb, yb = X[s:s + rows], y[s:s + rows]
            if scale is not None:
                xb = xb / scale
            onehot = hot[:yb.shape[0]]
            np.take(eye, yb, axis=0, out=onehot)
            wb = None if weight is None else weight[s:s + rows]
            if wb is not None:
                onehot *= wb[:, None]
            w, mean, m2 = _chunk_moments(xb, yb, onehot, wb, buf)
            total = W + w
            share = np.divide(w, total, out=np.zeros_like(total), where=total > 0)
            delta = mean - M
            M += delta * share
            M2 += m2 + delta * delta * W * share
            W = total
    return W, M, M2


def _grouped_moments(X, y, n_classes, weight=None, scale=None):
    """:func:`class_moments` for many classes: the rows sorted by class once, then two-pass moments
    per class by segment sums (``np.add.reduceat``), in time and memory linear in the data.

    >>> X = np.array([[1.0], [3.0], [10.0], [np.nan]])
    >>> [a.ravel().tolist() for a in _grouped_moments(X, np.array([0, 0, 1, 1]), 2)]
    [[2.0, 1.0], [2.0, 10.0], [2.0, 0.0]]
    """
    order = np.argsort(y, kind="stable")
    ys, Xs = y[order], np.asarray(X, dtype=np.float64)[order]
    if scale is not None:
        Xs = Xs / scale
    w = np.ones(ys.size) if weight is None else np.asarray(weight, dtype=np.float64)[order]
    present = ~np.isnan(Xs)
    wp = np.where(present, w[:, None], 0.0)
    starts = np.flatnonzero(np.r_[True, ys[1:] != ys[:-1]]) if ys.size else np.zeros(0, dtype=np.intp)
    classes = ys[starts]
    d = Xs.shape[1]
    W, M, M2 = (np.zeros((n_classes, d)) for _ in range(3))
    if not starts.size:
        return W, M, M2
    with np.errstate(over="ignore", invalid="ignore"):
        sw = np.add.reduceat(wp, starts, axis=0)
        s = np.add.reduceat(np.where(present, Xs * w[:, None], 0.0), starts, axis=0)
        mean = np.divide(s, sw, out=np.zeros_like(s), where=sw > 0)
        seg = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, ys.size]))
        dev = np.where(present, Xs - mean[seg], 0.0)
        m2 = np.add.reduceat(wp * dev * dev, starts, axis=0)
    W[classes], M[classes], M2[classes] = sw, mean, m2
    return W, M, M2


def raw_units_safe(mean, m2):
    """Per column, whether moments computed in raw units are exact to the
    last bits: finite, and every value within 2**-256 .. 2**256 in magnitude
    (|x| <= |mean_c| + sqrt(m2_c) for a value of class c), so no square
    overflowed or underflowed. Other columns are recomputed divided by a
    power of two (:func:`seminaive._scale.column_scales`)."""
    with np.errstate(invalid="ignore", over="ignore"):
        bound = (np.abs(mean) + np.sqrt(m2)).max(axis=0, initial=0.0)
    finite = np.isfinite(mean).all(axis=0) & np.isfinite(m2).all(axis=0)
    return finite & ((bound == 0) | ((bound > 1 / _SAFE) & (bound < _SAFE)))
