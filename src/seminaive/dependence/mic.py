"""The maximal information coefficient (Reshef et al. 2011), as MINE's
ApproxMaxMI computes it.

For every grid size (a, b) with a b <= B(n) = n^0.6, one axis is
equipartitioned into rows and the partition of the other axis into at most
a columns that maximizes the mutual information is found by dynamic
programming over "superclumps" (at most ``c`` a runs of consecutive points);
the characteristic matrix entry is that information over log min(a, b),
both orientations are tried, and MIC is the largest entry. No Python 3.11
build of minepy works, hence this implementation.
"""

import numpy as np

__all__ = ["mic", "characteristic_matrix"]


def _rows(v, q):
    """Equipartition ``v`` into ``q`` rows by rank; equal values share a row."""
    n = v.size
    order = np.argsort(v, kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    rows = (rank * q) // n
    # equal values share the row of their first occurrence
    sv = v[order]
    first = np.concatenate([[0], np.flatnonzero(sv[1:] != sv[:-1]) + 1])
    run = np.repeat(first, np.diff(np.append(first, n)))
    rows[order] = rows[order][run]
    return rows


def _best_partition_mi(x, rows, q, max_cols, c=15):
    """max MI over partitions of sorted ``x`` into 2..max_cols columns, for the
    row assignment ``rows``; returns an array indexed by the column count."""
    n = x.size
    order = np.argsort(x, kind="stable")
    xs, r = x[order], rows[order]
    # boundaries may fall only where x changes; clumps: runs of one row between them
    can = np.flatnonzero(xs[1:] != xs[:-1]) + 1
    change = can[r[can] != r[can - 1]]
    bounds = np.concatenate([[0], change, [n]])
    k = bounds.size - 1
    limit = c * max_cols
    if k > limit:  # superclumps: merge clumps into about `limit` groups of equal size
        targets = np.linspace(0, n, limit + 1)[1:-1]
        inner = bounds[1:-1]
        pick = np.unique(inner[np.clip(np.searchsorted(inner, targets), 0, inner.size - 1)])
        bounds = np.concatenate([[0], pick, [n]])
        k = bounds.size - 1
    onehot = np.zeros((n, q))
    onehot[np.arange(n), r] = 1.0
    cum = np.vstack([np.zeros((1, q)), np.cumsum(onehot, axis=0)])[bounds]  # (k+1, q)
    # score[s, t] = sum_rows cnt log(cnt / total) for the column of clumps s..t-1
    cnt = cum[None, :, :] - cum[:, None, :]  # (k+1, k+1, q)
    tot = cnt.sum(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(cnt > 0, cnt * (np.log(cnt) - np.log(tot[:, :, None])), 0.0).sum(axis=2)
    score = np.where(np.triu(np.ones((k + 1, k + 1), bool), 1), score, -np.inf)
    p = cum[-1] / n
    h_rows = -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0.0))
    out = np.full(max_cols + 1, -np.inf)
    best = score[0].copy()  # one column ending at t
    for cols in range(2, max_cols + 1):
        best = np.max(best[:, None] + score, axis=0)
        out[cols] = h_rows + best[k] / n
    return out


def characteristic_matrix(x, y, alpha=0.6, c=15):
    """M[a, b] = max normalized MI over a-by-b grids (a columns on x, b rows on y).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.linspace(0, 1, 100)
    >>> m = characteristic_matrix(x, x)
    >>> round(float(np.nanmax(m)), 3)  # y = x: the most normalized information any grid can show
    1.0
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    n = x.size
    B = max(4, int(n ** alpha))
    M = np.zeros((B // 2 + 1, B // 2 + 1))
    if n < 4:
        return M
    for q in range(2, B // 2 + 1):
        cols = B // q
        if cols < 2:
            continue
        for a, b, t in ((x, y, False), (y, x, True)):
            mi = _best_partition_mi(a, _rows(b, q), q, min(cols, B // 2), c)
            for p in range(2, min(cols, B // 2) + 1):
                if np.isfinite(mi[p]):
                    val = max(mi[p], 0.0) / np.log(min(p, q))
                    i, j = (q, p) if t else (p, q)
                    M[i, j] = max(M[i, j], val)
    return M


def mic(x, y, alpha=0.6, c=15):
    """The maximal information coefficient of two numeric samples, in [0, 1].

    Examples
    --------
    >>> x = np.linspace(0, 1, 200)
    >>> round(mic(x, 2 * x + 1), 2), round(mic(x, np.sin(12 * x)), 2)
    (1.0, 1.0)
    """
    return float(min(1.0, characteristic_matrix(x, y, alpha, c).max()))
