"""Many small tables counted in one compiled pass over the rows: the counts, by class, of the
joint values of every given subset of attributes (pairs for structure learning, the
n + 1-subsets of AnDE), as Weka's AODE counts its pairs.

Each table keeps a missing value (a negative code) as one more value of its attribute, so
every table derived from it, whatever it leaves out, is a sum of its cells: a conditional
table drops the child's missing value and gathers the cells with a parent missing into one
slot; a marginal sums over an attribute's values, missing included. The rows are taken in
blocks; within a block the tables are counted one after another, so that a table's cells
stay in the processor's cache while the block's rows update them.
"""

import functools
import math
from itertools import chain

import numpy as np

from .._memory import check_memory

from .._jit import compiled, on_threads

__all__ = ["code_matrix", "count_subsets", "count_flat", "conditional_tables", "conditional_counts", "parent_slots"]

BLOCK = 16384  # rows per block: the block's codes of every attribute stay in cache
LANES, LANE_CELLS = 4, 1 << 18  # copies of the tables unweighted rows are counted in, while they stay small
THREAD_UPDATES = 1 << 21  # cells added per thread at least (a millisecond or two: worth a thread)
THREAD_CELLS = 1 << 22  # tables (with their lanes) of at most so many cells get a copy per thread


def _count_all(codes, y, w, prefix, prefix_stride, class_stride, start, last, offset, last_stride, counts, part,
               lanes, lo, hi):
    """Add the rows lo to hi of ``codes`` (attributes, rows; missing already the last value) to every
    table, block after block of rows. The tables come in groups sharing all their attributes but
    the last (group g: the attributes ``prefix[g]``); a row's index within its group is its class
    times ``class_stride[g]`` plus the prefix attributes' codes times their strides, computed once
    per group, and its cell of table t (of group g: start[g] <= t < start[g + 1]) is offset[t]
    plus its code of attribute last[t] times last_stride[t] plus that index. Unweighted rows go to
    ``lanes`` copies of the tables in turn (row r to copy r mod lanes, a power of two; ``counts``
    holds them one after another), so that rows in a row meeting one cell do not wait on each
    other's additions; the caller sums the copies. ``part`` (block,): scratch, a block's rows' indices
    (made by the caller: an array made here would compile numba's own np.empty on first use)."""
    block = part.shape[0]
    weighted = w.shape[0] > 0
    copy, mask = counts.shape[0] // lanes, lanes - 1
    for s in range(lo, hi, block):
        e = min(s + block, hi)
        for g in range(prefix.shape[0]):
            cs = class_stride[g]
            for r in range(e - s):  # the row's copy of the tables (the first, weighted), its class
                part[r] = ((s + r) & mask) * copy + y[s + r] * cs
            for a in range(prefix.shape[1]):
                col, st = prefix[g, a], prefix_stride[g, a]
                if st:
                    for r in range(e - s):
                        part[r] += codes[col, s + r] * st
            for t in range(start[g], start[g + 1]):
                code, table, st = codes[last[t], s:e], counts[offset[t]:], last_stride[t]
                if weighted:
                    for r in range(e - s):
                        table[code[r] * st + part[r]] += w[s + r]
                else:
                    for r in range(e - s):
                        table[code[r] * st + part[r]] += 1.0


_KERNELS = ("_count_all",)
_COMPILED = []


def code_matrix(columns, widths, n):
    """The codes of ``columns`` (each -1 .. m - 1 over ``n`` rows; a list of arrays, or the rows of one
    2-D array) as one array (attributes, rows) of the smallest integer type holding them, a missing
    value (-1) coded as its attribute's m: the value past its last (a table's missing slot, a set's
    inactive value).

    Examples
    --------
    >>> code_matrix([np.array([0, -1, 2]), np.array([1, 1, -1])], [3, 2], 3).tolist()
    [[0, 3, 2], [1, 1, 2]]
    """
    m = np.asarray(widths, dtype=np.int64)
    top = int(m.max()) if m.size else 0
    codes = np.empty((m.size, n), dtype=np.int8 if top < 127 else np.int16 if top < 32767 else np.int64)
    if m.size:
        if isinstance(columns, np.ndarray):  # codes -1 .. m - 1: each fits
            np.copyto(codes, columns, casting="unsafe")
        else:
            np.stack(columns, out=codes, casting="unsafe")
        np.copyto(codes, m[:, None], where=codes < 0, casting="unsafe")
    return codes


def count_subsets(columns, widths, y, n_classes, subsets, weight=None):
    """The counts of the joint values of each subset of attributes, by class, in one pass.

    Parameters
    ----------
    columns : sequence of 1-D int arrays
        Each attribute's codes (negative: missing).
    widths : sequence of int
        Each attribute's number of values m (codes below it).
    y : 1-D int array
        The class codes (below ``n_classes``).
    n_classes : int
    subsets : sequence of tuples of attribute indices
        Each non-empty; subsets sharing all their attributes but the last share the work of
        their index.
    weight : 1-D array, optional
        The rows' weights (1 when None).

    Returns
    -------
    list of arrays
        Per subset (a_1, ..., a_r), counts of shape (n_classes, m_a1 + 1, ..., m_ar + 1): the
        last value of each attribute axis counts the rows where it is missing.

    Examples
    --------
    >>> t = count_subsets([np.array([0, 1, -1]), np.array([1, 1, 0])], [2, 2], np.array([0, 1, 1]), 2, [(0, 1)])[0]
    >>> t[1].tolist()  # class 1: (value 1, value 1) once, (missing, value 0) once
    [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    if not subsets:
        return []
    counts, offsets, shapes = count_flat(columns, widths, y, n_classes, subsets, weight)
    out = []
    for o, shape in zip(offsets, shapes):
        cells = counts[o:o + math.prod(shape)].reshape(shape)
        out.append(cells.transpose(*range(1, cells.ndim), 0))  # (class, attributes in the subset's order)
    return out


def count_flat(columns, widths, y, n_classes, subsets, weight=None):
    """:func:`count_subsets`' counts as they are counted: one flat array, where each subset's
    table starts, and its shape there: (m_last + 1, n_classes, m_1 + 1, ..., m_(r-1) + 1), its
    last attribute outermost.

    Examples
    --------
    >>> counts, at, shapes = count_flat([np.array([0, 1]), np.array([1, 1])], [2, 2], np.zeros(2, int), 1, [(0, 1)])
    >>> counts.reshape(shapes[0])[1].tolist()  # attribute 1's value 1: class 0, attribute 0's values 0, 1, missing
    [[1.0, 1.0, 0.0]]
    """
    (used, m, prefix, prefix_stride, class_stride, start, last, offset, last_stride, where_of, shapes,
     total) = _plan(tuple(map(tuple, subsets)), tuple(map(int, widths)), int(n_classes))
    codes = code_matrix(columns[used] if isinstance(columns, np.ndarray) else [columns[a] for a in used.tolist()],
                        m, len(y))
    # whole counts add exactly in any order: unweighted rows are counted in lanes (copies of small
    # tables), on several threads (each its own copies) where there are enough; weighted ones in
    # their order
    lanes = LANES if weight is None and total * LANES <= LANE_CELLS else 1
    check_memory(8 * total * lanes, f"counting {len(subsets):,} attribute sets ({total:,} cells)",
                 "fewer attributes, or attributes with fewer values (coarser intervals, fewer distinct codes)")
    w = np.empty(0) if weight is None else np.ascontiguousarray(weight, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.int64)
    fns = compiled(globals(), _KERNELS, _COMPILED, nogil=_KERNELS)
    copies = []

    def run(lo, hi):
        counts = np.zeros(total * lanes)
        copies.append(counts)
        fns["_count_all"](codes, y, w, prefix, prefix_stride, class_stride, start, last, offset, last_stride, counts,
                          np.empty(min(BLOCK, max(hi - lo, 1)), dtype=np.int64), lanes, lo, hi)

    if weight is None and total * lanes <= THREAD_CELLS:
        on_threads(run, len(y), max(1, THREAD_UPDATES // len(last)))
    else:
        run(0, len(y))
    counts = copies[0]
    for other in copies[1:]:
        counts += other
    if lanes > 1:
        counts = counts.reshape(lanes, total).sum(axis=0)
    return counts, where_of.copy(), list(shapes)


@functools.lru_cache(maxsize=32)
def _plan(subsets, widths, n_classes):
    """What :func:`count_flat` works out from the subsets, widths and classes alone (not the rows):
    the attributes used and their values, the kernel's layout (:func:`_layout`), where each subset's
    table starts and its shape, and the cells. Kept for the next fit of the same layout (a fit per
    fold, per chunk of a file, a refit); never written to."""
    lens = np.fromiter(map(len, subsets), dtype=np.int64, count=len(subsets))
    flat = np.fromiter(chain.from_iterable(subsets), dtype=np.int64, count=int(lens.sum()))
    used = np.unique(flat)
    m = np.asarray(widths, dtype=np.int64)[used]  # each used attribute's values
    (prefix, prefix_stride, class_stride, start, last, offset, last_stride, order, shapes,
     total) = _layout(lens, np.searchsorted(used, flat), m + 1, n_classes)
    where_of = np.empty(len(subsets), dtype=np.int64)
    where_of[order] = offset
    return used, m, prefix, prefix_stride, class_stride, start, last, offset, last_stride, where_of, shapes, total


def _layout(lens, members, ext, n_classes):
    """Where each subset's table lies in the flat counts, and how the kernel finds its cells:
    ``members`` the subsets' attributes end to end (``lens`` each), as rows of the codes, whose
    extents (values + 1) are ``ext``. The tables are grouped by their prefix (all but the last
    attribute; groups in order of first appearance, tables in their order within a group)."""
    t_count, r = len(lens), int(lens.max()) - 1
    member = np.full((t_count, r + 1), -1, dtype=np.int64)  # padded with -1 after its attributes
    ends = np.cumsum(lens)
    member[np.repeat(np.arange(t_count), lens), np.arange(ends[-1]) - np.repeat(ends - lens, lens)] = members
    last_of = member[np.arange(t_count), lens - 1]
    head = member[:, :r].copy()
    head[np.arange(r)[None, :] >= (lens - 1)[:, None]] = -1
    head_ext = np.where(head >= 0, ext[head], 1)
    _, first, inverse = np.unique(head, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    group = rank[inverse.ravel()]
    order = np.argsort(group, kind="stable")
    leaders = np.sort(first)
    present = head[leaders] >= 0
    prefix = np.where(present, head[leaders], 0)
    below = np.cumprod(head_ext[leaders][:, ::-1], axis=1)[:, ::-1]  # the product of the extents from each on
    prefix_stride = np.where(present, np.concatenate([below[:, 1:], np.ones((len(leaders), 1), dtype=np.int64)],
                                                     axis=1), 0)  # 0: no attribute there
    class_stride = below[:, 0].copy() if r else np.ones(len(leaders), dtype=np.int64)  # contiguous: one form
    start = np.searchsorted(group[order], np.arange(len(leaders) + 1))
    last, last_stride = last_of[order], n_classes * class_stride[group[order]]
    stop = np.cumsum(ext[last] * last_stride)  # where each table ends
    offset = np.concatenate([[0], stop[:-1]])
    shared = [(n_classes, *(x for x in h if x > 0))  # a group's shape but its tables' last attribute
              for h in np.where(present, head_ext[leaders], 0).tolist()]
    shapes = [(e,) + shared[g] for e, g in zip(ext[last_of].tolist(), group.tolist())]
    return prefix, prefix_stride, class_stride, start, last, offset, last_stride, order, shapes, int(stop[-1])


def conditional_counts(table, child):
    """A subset's counts (K, m_1 + 1, ..., m_r + 1) as the conditional table of its attribute at
    axis ``child`` (0-based among the attributes) given the others in their order: (K, P + 1, m),
    P the product of the parents' numbers of values, the last slot the rows with a parent missing,
    the rows with the child missing left out (as :class:`~seminaive.components.ConditionalTable`
    counts).

    Examples
    --------
    >>> t = np.arange(1 * 3 * 2, dtype=float).reshape(1, 3, 2)  # attribute 0: 2 values, attribute 1: 1
    >>> conditional_counts(t, 0)[0].tolist()  # child 0 given attribute 1: value 0, then missing
    [[0.0, 2.0], [1.0, 3.0]]
    """
    r = table.ndim - 1
    if child != r - 1:  # the child's axis last
        table = table.swapaxes(child + 1, -1) if r == 2 else np.moveaxis(table, child + 1, -1)
    return parent_slots(table[..., :-1], r - 1)


def conditional_tables(terms, columns, widths, y, n_classes, weight=None):
    """The counts of conditional tables, ``terms`` a list of (child, parents): per term, (1, K,
    parent slots, m) as :class:`~seminaive.components.ConditionalTable` counts them (one fold),
    all in one pass (:func:`count_subsets`).

    Examples
    --------
    >>> t = conditional_tables([(1, (0,))], [np.array([0, 1, -1]), np.array([1, 1, 0])], [2, 2], np.zeros(3, int), 1)
    >>> t[0][0, 0].tolist()  # child 1 given attribute 0: value 0, value 1, missing
    [[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    """
    tables = count_subsets(columns, widths, y, n_classes, [(*parents, child) for child, parents in terms], weight)
    return [conditional_counts(t, len(parents))[None] for t, (_, parents) in zip(tables, terms)]


def parent_slots(table, r):
    """Counts (K, m_1 + 1, ..., m_r + 1, *rest) over r attributes with their missing values as
    (K, P + 1, *rest): the joint values with every attribute present (row-major), then one slot
    summing the cells where any is missing.

    Examples
    --------
    >>> parent_slots(np.arange(6.0).reshape(1, 2, 3), 2).tolist()  # 1 x 2 values present: cells 0 and 1
    [[0.0, 1.0, 14.0]]
    """
    k, ext, rest = table.shape[0], table.shape[1:r + 1], table.shape[r + 1:]
    if r == 1:  # one attribute: its values, then its missing value, already
        return table
    flat = table.reshape(k, math.prod(ext), *rest)  # (not -1: a child of no values makes rest hold a 0)
    present = _present(ext)
    return np.concatenate([flat[:, present], flat[:, ~present].sum(axis=1, keepdims=True)], axis=1)


@functools.lru_cache(maxsize=256)
def _present(ext):
    """Which cells of a grid of ``ext`` values (each attribute's last: missing) have every attribute
    present, row-major."""
    present = np.ones(ext, dtype=bool)
    for axis, size in enumerate(ext):
        cut = [slice(None)] * len(ext)
        cut[axis] = size - 1
        present[tuple(cut)] = False
    present = present.ravel()
    present.setflags(write=False)
    return present
