"""AnDE's Lidstone estimates of every super-parent set's children at once: two compiled passes
over the stacked counts (their totals, then the log tables in prediction's layout) around
numpy's logarithms of whole arrays, so that the numbers are those of
:meth:`~seminaive.estimation.Frequency.categorical` (the same logarithm, of the same counts
plus alpha, less the same logarithm of the same totals) without an array operation per set or
per table. The totals are summed in order: whole counts give the same totals in any order, while
fractional ones (weighted rows) over a child of 8 values or more, which numpy sums pairwise, can
differ in the last bit.
"""

import functools

import numpy as np

from .._jit import compiled

__all__ = ["lidstone_stacks", "lidstone_joints", "log_stack_shape"]

BATCH_CELLS = 1 << 20  # counts copied and their logarithms taken at a time (8 MB)


def log_stack_shape(stack):
    """The shape of a set's stacked log tables from its stacked counts (children, K, slots, widest):
    (children, slots, widest child + 1, K).

    Examples
    --------
    >>> log_stack_shape(np.zeros((4, 2, 3, 5)))
    (4, 3, 6, 2)
    """
    c, k, slots, width = stack.shape
    return c, slots, width + 1, k


def _totals(counts, at, shape, m, m_at, alpha, den, den_at, margin, margin_at):
    """Per set s, its counts at counts[at[s]:] shaped (children, K, slots, widest) = shape[s], its
    children's numbers of values at m[m_at[s]:]: per child and class, the counts summed over every
    slot (``margin``, (children, K, widest)), and ``den`` (children, K, slots): each slot's counts
    summed, the last slot's replaced by the margin's sum, plus alpha times the child's values."""
    for s in range(at.shape[0]):
        n_child, k, slots, width = shape[s, 0], shape[s, 1], shape[s, 2], shape[s, 3]
        for c in range(n_child):
            smooth = alpha * m[m_at[s] + c]
            for kk in range(k):
                row = c * k + kk
                cell, mb, db = at[s] + row * slots * width, margin_at[s] + row * width, den_at[s] + row * slots
                for v in range(width):
                    margin[mb + v] = 0.0
                for j in range(slots):
                    total = 0.0
                    for v in range(width):
                        x = counts[cell + j * width + v]
                        total += x
                        margin[mb + v] += x
                    den[db + j] = total + smooth
                total = 0.0
                for v in range(width):
                    total += margin[mb + v]
                den[db + slots - 1] = total + smooth


def _logs(log_counts, at, shape, m, m_at, minus_log_m, log_margin, margin_at, den, log_den, den_at, out, out_at):
    """Each set's log tables into out[out_at[s]:] shaped (children, slots, widest + 1, K): log(count +
    alpha) less log(den), the last slot from the margin, the uniform -log m where den is 0, zero
    beyond a child's values and in the row of a missing child."""
    for s in range(at.shape[0]):
        n_child, k, slots, width = shape[s, 0], shape[s, 1], shape[s, 2], shape[s, 3]
        for c in range(n_child):
            mc = m[m_at[s] + c]
            for kk in range(k):
                row = c * k + kk
                for j in range(slots):
                    d = den_at[s] + row * slots + j
                    if j < slots - 1:
                        src = at[s] + (row * slots + j) * width
                        logs = log_counts
                    else:
                        src = margin_at[s] + row * width
                        logs = log_margin
                    dst = out_at[s] + ((c * slots + j) * (width + 1)) * k + kk
                    for v in range(width + 1):
                        if v >= mc:
                            value = 0.0
                        elif den[d] == 0.0:
                            value = minus_log_m[m_at[s] + c]
                        else:
                            value = logs[src + v] - log_den[d]
                        out[dst + v * k] = value


_KERNELS = ("_totals", "_logs")
_COMPILED = []


def lidstone_stacks(stacks, widths, alpha, out, out_at):
    """Log P(child | class, parents) of stacked children's tables with Lidstone's estimate, as
    :meth:`~seminaive.estimation.Frequency.categorical` gives each table, written into the flat
    array ``out``: stack s (children, K, slots, widest; zero beyond a child's ``widths[s]``) at
    out[out_at[s]:] in the shape of :func:`log_stack_shape`. Its last slot (a parent missing) gets
    the child's table given the class alone, from the counts summed over every slot.

    Examples
    --------
    >>> counts = np.array([[[[3.0, 1.0], [0.0, 0.0]]]])  # one child of 2 values, one class, 2 slots
    >>> out = np.zeros(6)
    >>> lidstone_stacks([counts], [np.array([2])], 1.0, out, np.array([0]))
    >>> np.exp(out.reshape(1, 2, 3, 1)[0, 0, :, 0]).round(3).tolist()  # slot 0: (3 + 1) / 6, (1 + 1) / 6; missing: 0
    [0.667, 0.333, 1.0]
    """
    if not stacks:
        return
    sizes = [st.size for st in stacks]
    if sum(sizes) <= BATCH_CELLS:
        cuts = [0, len(stacks)]
    else:
        batch = (np.cumsum(sizes) - 1) // BATCH_CELLS  # a batch's copies and logarithms at a time
        cuts = [0, *(np.flatnonzero(np.diff(batch)) + 1).tolist(), len(stacks)]
    out_at = np.asarray(out_at, dtype=np.int64)
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        _batch(stacks[lo:hi], widths[lo:hi], float(alpha), out, out_at[lo:hi])


def _batch(stacks, widths, alpha, out, out_at):
    """:func:`lidstone_stacks` of a few stacks: their counts copied end to end, then the two passes."""
    shape, m, at, m_at, den_at, n_den, margin_at, n_margin, minus_log_m = _layout(
        tuple(st.shape for st in stacks), tuple(map(tuple, widths)))
    counts = np.concatenate([np.ascontiguousarray(st, dtype=np.float64).ravel() for st in stacks])
    den, margin = np.empty(n_den), np.empty(n_margin)
    fns = compiled(globals(), _KERNELS, _COMPILED)
    fns["_totals"](counts, at, shape, m, m_at, alpha, den, den_at, margin, margin_at)
    log_counts = np.add(counts, alpha, out=counts)  # (the copy's counts are summed: its place serves the logs)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.log(log_counts, out=log_counts)
        log_margin, log_den = np.log(margin + alpha), np.log(den)
    fns["_logs"](log_counts, at, shape, m, m_at, minus_log_m, log_margin, margin_at, den, log_den, den_at, out,
                 out_at)


@functools.lru_cache(maxsize=32)
def _layout(shapes, widths):
    """What :func:`_batch` works out from the stacks' shapes and the children's widths (tuples of
    ints) alone: where each stack's counts, widths, totals and margins start. Kept for the next fit
    of the same layout (a fit per fold, a refit); never written to."""
    shape = np.array(shapes, dtype=np.int64).reshape(-1, 4)
    m = np.array([x for w in widths for x in w], dtype=np.float64)
    rows = shape[:, 0] * shape[:, 1]  # (child, class) rows per stack
    (at, _), (m_at, _) = _starts(shape.prod(axis=1)), _starts(shape[:, 0])
    (den_at, n_den), (margin_at, n_margin) = _starts(rows * shape[:, 2]), _starts(rows * shape[:, 3])
    with np.errstate(divide="ignore"):
        minus_log_m = -np.log(m)
    return shape, m, at, m_at, den_at, n_den, margin_at, n_margin, minus_log_m


def _starts(sizes):
    """Where each of parts of ``sizes`` laid end to end starts, and their total."""
    ends = np.cumsum(sizes, dtype=np.int64)
    return ends - sizes, int(ends[-1])


def lidstone_joints(joints, alpha):
    """Log P(c, x_P) of every super-parent set from its own counts (K, P + 1), Lidstone's estimate over
    its K x P cells with the set's values present (the last slot, one of them missing, left out):
    log(n + alpha) - log(N + alpha K P), minus infinity for every cell where N + alpha K P is 0
    (nothing counted and alpha 0). All the sets in a few array operations; each set's N is summed in
    order (as :func:`lidstone_stacks`' totals).

    Returns
    -------
    list of arrays
        Per set its (K, P) logs, views into one array.

    Examples
    --------
    >>> logs = lidstone_joints([np.array([[3.0, 1.0, 5.0], [0.0, 0.0, 2.0]])], 1.0)  # K = 2, P = 2
    >>> np.exp(logs[0]).round(3).tolist()  # (n + 1) / (4 + 4)
    [[0.5, 0.25], [0.125, 0.125]]
    """
    if not joints:
        return []
    keep, set_of, cells, views = _joint_layout(tuple(np.shape(j) for j in joints))
    present = np.concatenate([np.asarray(j, dtype=np.float64).ravel() for j in joints])[keep]
    den = np.bincount(set_of, weights=present, minlength=len(cells)) + alpha * cells
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(present + alpha) - np.log(den)[set_of]
    logs[(den <= 0)[set_of]] = -np.inf
    return [logs[a:b].reshape(shape) for a, b, shape in views]


@functools.lru_cache(maxsize=32)
def _joint_layout(shapes):
    """What :func:`lidstone_joints` works out from the sets' shapes (K, P + 1) alone: the positions of
    the present cells among the counts laid end to end, each present cell's set, each set's number of
    present cells, and where its logs lie. Never written to."""
    k = np.array([s[0] for s in shapes], dtype=np.int64)
    slots = np.array([s[1] for s in shapes], dtype=np.int64)
    cells = k * (slots - 1)
    column = np.concatenate([np.arange(n) % s for n, s in zip((k * slots).tolist(), slots.tolist())])
    keep = np.flatnonzero(column < np.repeat(slots, k * slots) - 1)
    starts, _ = _starts(cells)
    views = [(int(a), int(a + c), (int(kk), int(s - 1))) for a, c, kk, s in zip(starts, cells, k, slots)]
    return keep, np.repeat(np.arange(len(shapes)), cells), cells.astype(np.float64), views
