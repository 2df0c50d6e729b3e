"""AnDE's counts from one compiled pass: the joint values of every n + 1 attributes by class
(:func:`~seminaive.core.subset_counts.count_flat`), then every super-parent set's children's
tables and the set's own counts as sums of those cells, in one compiled loop over the cells
(no array operation per table: a model of 60 attributes has 100,000 tables).
"""

import functools
import math
from itertools import combinations

import numpy as np

from .._jit import compiled
from ..core.subset_counts import count_flat

__all__ = ["set_counts"]


def _derive(counts, sub_at, sub_ext, k, tables_of, out, out_at, slots, width, joint, joint_at):
    """Add each pair's cells (subsets of r = 2 attributes: AODE) into the tables it gives; the layout
    described holds for any r (:func:`_derive_sets`). Subset q: its cells at counts[sub_at[q]:],
    laid out (ext[r-1], K, ext[0], ..., ext[r-2]) with ext = sub_ext[q] (each attribute's values +
    1, the last: missing); its tables tables_of[q, pos], one per member as the child (the others its
    parents). Table t gets the cells with the child present at out[out_at[t]:] laid out (K,
    slots[t] + 1, width[t]) (parents' joint value row-major, the last slot: a parent missing), and,
    where joint_at[t] >= 0, every cell summed over the child at joint[joint_at[t]:] (K, slots[t] +
    1). Each cell is read once, its members' values followed as the cells go (no division). Subsets of
    more than two attributes (AnDE, n > 1): :func:`_derive_sets`, a kernel of its own so that AODE
    compiles only this one."""
    for q in range(sub_ext.shape[0]):  # pairs: a parent's slot is its value (its missing value: the last slot)
        e0, e1, idx = sub_ext[q, 0], sub_ext[q, 1], sub_at[q]
        t0, t1 = tables_of[q, 0], tables_of[q, 1]  # child: the first member, the second
        for v1 in range(e1):
            for c in range(k):
                for v0 in range(e0):
                    val = counts[idx]
                    idx += 1
                    if val != 0.0:
                        if joint_at[t0] >= 0:
                            joint[joint_at[t0] + c * (slots[t0] + 1) + v1] += val
                        if v0 < e0 - 1:
                            out[out_at[t0] + (c * (slots[t0] + 1) + v1) * width[t0] + v0] += val
                        if joint_at[t1] >= 0:
                            joint[joint_at[t1] + c * (slots[t1] + 1) + v0] += val
                        if v1 < e1 - 1:
                            out[out_at[t1] + (c * (slots[t1] + 1) + v0) * width[t1] + v1] += val


def _derive_sets(counts, sub_at, sub_ext, k, tables_of, out, out_at, slots, width, joint, joint_at, v):
    """:func:`_derive` for subsets of r > 2 attributes (a cell's members' values followed in ``v``, (r,)
    scratch)."""
    r = sub_ext.shape[1]
    for q in range(sub_ext.shape[0]):
        ext = sub_ext[q]
        inner = 1
        for a in range(r - 1):
            inner *= ext[a]
        idx = sub_at[q]
        for last in range(ext[r - 1]):
            v[r - 1] = last
            for c in range(k):
                for a in range(r - 1):
                    v[a] = 0
                for j in range(inner):
                    val = counts[idx]
                    idx += 1
                    if val != 0.0:
                        for pos in range(r):
                            t = tables_of[q, pos]
                            slot = 0
                            for a in range(r):
                                if a != pos:
                                    if v[a] == ext[a] - 1:
                                        slot = slots[t]
                                        break
                                    slot = slot * (ext[a] - 1) + v[a]
                            if joint_at[t] >= 0:
                                joint[joint_at[t] + c * (slots[t] + 1) + slot] += val
                            if v[pos] < ext[pos] - 1:
                                out[out_at[t] + (c * (slots[t] + 1) + slot) * width[t] + v[pos]] += val
                    a = r - 2  # the next cell's prefix values (the last prefix attribute fastest)
                    while a >= 0:
                        v[a] += 1
                        if v[a] < ext[a]:
                            break
                        v[a] = 0
                        a -= 1


_KERNELS = ("_derive", "_derive_sets")
_COMPILED = []


def set_counts(columns, widths, y, n_classes, n, weight=None):
    """Per super-parent set of ``n`` attributes (in ``combinations`` order), its children's counts
    stacked (children, K, P + 1, widest child; zero beyond a child's values) and its own counts
    (K, P + 1), P its number of joint values, the last slot the rows with one of it missing.

    Examples
    --------
    >>> stacks, joints = set_counts([np.array([0, 1, 1]), np.array([1, 0, -1])], [2, 2], np.array([0, 0, 1]), 2, 1)
    >>> stacks[0][0, 0].tolist()  # set (0,), its child 1, class 0: attribute 0 = 0, = 1, missing
    [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
    >>> joints[1].tolist()  # set (1,): class 0 and 1 by attribute 1's value (0, 1, missing)
    [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    d, k = len(widths), n_classes
    (subsets, sub_ext, tables_of, out_at, joint_at, slots, width, stack_at, joint_of,
     n_out, n_joint) = _plan(d, n, tuple(map(int, widths)), int(k))
    counts, sub_at, _ = count_flat(columns, widths, y, k, subsets, weight)
    out, joint = np.zeros(n_out), np.zeros(n_joint)
    fns = compiled(globals(), _KERNELS, _COMPILED)
    args = (counts, sub_at, sub_ext, k, tables_of, out, out_at, slots, width, joint, joint_at)
    if n == 1:
        fns["_derive"](*args)
    else:
        fns["_derive_sets"](*args, np.zeros(n + 1, dtype=np.int64))
    stacks = [out[a:b].reshape(shape) for a, b, shape in stack_at]
    joints = [joint[a:b].reshape(shape) for a, b, shape in joint_of]
    return stacks, joints


@functools.lru_cache(maxsize=32)
def _plan(d, n, widths, k):
    """What :func:`set_counts` works out from the numbers of attributes, parents, values and classes
    alone (not the rows): the subsets counted and where :func:`count_flat` puts them, each subset's
    tables, and where each set's stack and own counts lie in the flat results. Kept for the next fit
    of the same layout; never written to."""
    subsets = tuple(combinations(range(d), n + 1))
    m = np.asarray(widths, dtype=np.int64)
    sets = np.array(list(combinations(range(d), n)), dtype=np.int64).reshape(-1, n)
    outside = np.ones((len(sets), d), dtype=bool)
    outside[np.arange(len(sets))[:, None], sets] = False
    children = np.nonzero(outside)[1].reshape(len(sets), d - n)  # each set's children, in order
    # each (set, child): its subset (the set and the child, sorted) by its rank among the subsets,
    # and the child's place in it
    members = np.sort(np.concatenate([np.repeat(sets[:, None, :], d - n, axis=1), children[:, :, None]], axis=2))
    pos = (sets[:, None, :] < children[:, :, None]).sum(axis=2)
    p = np.prod(m[sets], axis=1)  # each set's joint values
    top = m[children].max(axis=1)
    cells = k * (p + 1) * top  # a child's (K, slots, widest) in its set's stack
    start = np.cumsum(np.concatenate([[0], (d - n) * cells[:-1]]))
    joint_start = np.cumsum(np.concatenate([[0], k * (p[:-1] + 1)]))
    tables = len(sets) * (d - n)
    out_at = (start[:, None] + np.arange(d - n)[None, :] * cells[:, None]).ravel()
    joint_at = np.full((len(sets), d - n), -1, dtype=np.int64)
    joint_at[:, 0] = joint_start
    sub_ext = m[np.array(subsets, dtype=np.int64)] + 1
    tables_of = np.empty((len(subsets), n + 1), dtype=np.int64)  # each subset's tables, by the child's place
    tables_of[_rank(members.reshape(tables, n + 1), d), pos.ravel()] = np.arange(tables)
    stacks = [(a, a + (d - n) * c, (d - n, k, q + 1, t))  # each set's stack and own counts in the flat results
              for a, c, q, t in zip(start.tolist(), cells.tolist(), p.tolist(), top.tolist())]
    joints = [(a, a + k * (q + 1), (k, q + 1)) for a, q in zip(joint_start.tolist(), p.tolist())]
    return (subsets, sub_ext, tables_of, out_at, joint_at.ravel(), np.repeat(p, d - n), np.repeat(top, d - n),
            stacks, joints, int((d - n) * cells.sum()), int(k * (p + 1).sum()))


def _rank(combos, d):
    """The rank of each sorted combination (rows of ``combos``) among ``combinations(range(d), r)``, in
    their order (the combinatorial number system, lexicographic).

    Examples
    --------
    >>> _rank(np.array([[0, 1], [1, 3], [2, 3]]), 4).tolist()  # (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    [0, 4, 5]
    """
    r = combos.shape[1]
    # before[j, x]: the combinations whose j-th member is below x, their first j members given
    ways = np.array([[math.comb(d - 1 - v, r - 1 - j) for v in range(d)] for j in range(r)], dtype=np.int64)
    before = np.concatenate([np.zeros((r, 1), dtype=np.int64), np.cumsum(ways, axis=1)], axis=1)
    low = np.concatenate([np.zeros((len(combos), 1), dtype=np.int64), combos[:, :-1] + 1], axis=1)
    j = np.arange(r)[None, :]
    return (before[j, combos] - before[j, low]).sum(axis=1)
