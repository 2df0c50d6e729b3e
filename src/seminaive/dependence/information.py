"""Mutual information and conditional mutual information of coded attributes (in nats)."""

import numpy as np

from .._jit import compiled
from ..core.counting import count_codes, joint_codes

__all__ = ["mutual_information", "conditional_mutual_information", "information_values"]


def _joint_counts(a, b, z=None, weights=None):
    """(m_z, m_a, m_b) counts of the rows where a, b (and z) are present: the counting
    primitive with b the child and (z, a) the parents."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    z = np.zeros(a.size, dtype=np.int64) if z is None else np.asarray(z, dtype=np.int64)
    keep = (a >= 0) & (b >= 0) & (z >= 0)
    ma, mb, mz = (int(v[keep].max()) + 1 if keep.any() else 1 for v in (a, b, z))
    parent = np.where(keep, joint_codes([z, a], [mz, ma]), -1)
    counts = count_codes([np.where(keep, b, -1)], mb, np.zeros(a.size, dtype=np.intp), 1, parent=parent,
                         n_parent=mz * ma, weight=None if weights is None else np.asarray(weights, dtype=np.float64))
    return counts[0, 0, 0].reshape(mz, ma, mb)


def _line_sums(flat, out, base, lines, cells, line_step, cell_step):
    """For each of ``lines`` lines of ``cells`` cells of flat (line i, cell j at base + i *
    line_step + j * cell_step), the line's sum written to each of its cells in ``out``; the sum of
    every line returned."""
    total = 0.0
    for i in range(lines):
        s = 0.0
        for j in range(cells):
            s += flat[base + i * line_step + j * cell_step]
        for j in range(cells):
            out[base + i * line_step + j * cell_step] = s
        total += s
    return total


def _margins(flat, at, shapes, pz, pa, pb, n):
    """Per cell of each (m_z, m_a, m_b) table at flat[at[t]:], its table's count of z (pz), of
    (z, a) (pa) and of (z, b) (pb), and per table its total (n)."""
    zero, one = np.int64(0), np.int64(1)  # not literal constants: one compiled form of _line_sums, not three
    for t in range(at.shape[0]):
        mz, ma, mb = shapes[t, 0], shapes[t, 1], shapes[t, 2]
        total = 0.0
        for z in range(mz):
            o = at[t] + z * ma * mb
            total += _line_sums(flat, pz, o, one, ma * mb, zero, one)
            _line_sums(flat, pa, o, ma, mb, mb, one)  # a line per value of a, over b
            _line_sums(flat, pb, o, mb, ma, one, mb)  # a line per value of b, over a
        n[t] = total


def exact_sum(values, start, stop, partials):
    """The sum of values[start:stop] correctly rounded, as :func:`math.fsum` gives it (Shewchuk's
    partials with its round-half-even fix-up; finite values), ``partials`` scratch space."""
    m = 0
    for j in range(start, stop):
        x = values[j]
        i = 0
        for q in range(m):
            y = partials[q]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        m = i
        if x != 0.0:
            partials[m] = x
            m += 1
    if m == 0:
        return 0.0
    m -= 1
    hi = partials[m]
    lo = 0.0
    while m > 0:
        x = hi
        m -= 1
        y = partials[m]
        hi = x + y
        lo = y - (hi - x)
        if lo != 0.0:
            break
    if m > 0 and ((lo < 0.0 and partials[m - 1] < 0.0) or (lo > 0.0 and partials[m - 1] > 0.0)):
        y = lo * 2.0
        x = hi + y
        if y == x - hi:
            hi = x
    return hi


def _table_sums(terms, at, out):
    """Each table's terms (terms[at[t]:at[t + 1]]) summed exactly (:func:`exact_sum`)."""
    partials = np.empty(128)  # a double's exact sum needs at most about 40
    for t in range(at.shape[0] - 1):
        out[t] = exact_sum(terms, at[t], at[t + 1], partials)


_KERNELS = ("_line_sums", "_margins", "exact_sum", "_table_sums")
_COMPILED = []


def information_values(tables):
    """I(A; B | Z) in nats of each (m_z, m_a, m_b) count table, in one compiled pass over all of
    them (the structure learners' thousands of pairs). Each term n log(n N_z / (N_za N_zb)) is
    symmetric in the two attributes and the terms are summed exactly rounded (as :func:`math.fsum`,
    whatever their order): tables equal up to a permutation of values, classes or the two attributes
    give equal values to the last bit, so that structure learning breaks exact ties by its rule, not
    by rounding noise.

    Examples
    --------
    >>> information_values([np.array([[[2.0, 0.0], [0.0, 2.0]]]), np.ones((1, 2, 2))]).round(4).tolist()
    [0.6931, 0.0]
    """
    if not len(tables):
        return np.zeros(0)
    fns = compiled(globals(), _KERNELS, _COMPILED)
    tables = [t if isinstance(t, np.ndarray) else np.asarray(t) for t in tables]
    shapes = np.array([t.shape for t in tables], dtype=np.int64)
    flat = np.concatenate([t.ravel() for t in tables], dtype=np.float64)
    at = np.zeros(len(tables) + 1, dtype=np.int64)
    np.cumsum(shapes.prod(axis=1), out=at[1:])
    pz, pa, pb, n = np.empty_like(flat), np.empty_like(flat), np.empty_like(flat), np.empty(len(tables))
    fns["_margins"](flat, at[:-1], shapes, pz, pa, pb, n)
    with np.errstate(divide="ignore", invalid="ignore"):  # the logarithms by numpy, cell by cell
        terms = flat * (np.log(flat) + np.log(pz) - (np.log(pa) + np.log(pb)))
    terms[~(flat > 0)] = 0.0  # empty cells add nothing (0 log 0 = 0)
    sums = np.empty(len(tables))
    fns["_table_sums"](terms, at, sums)
    out = np.zeros(len(tables))
    np.divide(sums, n, out=out, where=n != 0)
    return out


def _cmi(counts):
    """:func:`information_values` of one table."""
    return float(information_values([counts])[0])


def mutual_information(a, b, weights=None):
    """I(A; B) from two code vectors (-1 = missing, pairs with a missing value left
    out), each pair counted with its weight (default 1).

    Examples
    --------
    >>> round(mutual_information(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 1])), 4)
    0.6931
    >>> mutual_information(np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1]))
    0.0
    """
    return _cmi(_joint_counts(np.asarray(a), np.asarray(b), weights=weights))


def conditional_mutual_information(a, b, z, weights=None):
    """I(A; B | Z), the TAN edge weight when Z is the class (``weights`` as in
    :func:`mutual_information`).

    Examples
    --------
    >>> a = np.array([0, 1, 0, 1, 0, 1, 0, 1]); z = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> round(conditional_mutual_information(a, a ^ z, z), 4)
    0.6931
    """
    return _cmi(_joint_counts(np.asarray(a), np.asarray(b), np.asarray(z), weights))
