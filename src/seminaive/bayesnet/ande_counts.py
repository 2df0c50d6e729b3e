"""AnDE's counts from one compiled pass: the joint values of every n + 1 attributes by class
(:func:`~seminaive.core.subset_counts.count_flat`), then every super-parent set's children's
tables and the set's own counts as sums of those cells, in one compiled loop over the cells
(no array operation per table: a model of 60 attributes has 100,000 tables).
"""

import math
from itertools import combinations

import numpy as np

from .._jit import compiled
from ..core.subset_counts import count_flat

__all__ = ["set_counts"]


def _derive(counts, sub_at, sub_ext, k, table_sub, child_pos, out, out_at, slots, width, joint, joint_at):
    """Add each subset's cells into the tables it gives. Subset q: its cells at counts[sub_at[q]:],
    laid out (ext[r-1], K, ext[0], ..., ext[r-2]) with ext = sub_ext[q] (each attribute's values +
    1, the last: missing). Table t: of subset table_sub[t], its child the attribute at child_pos[t],
    the others its parents; it gets the cells with the child present at out[out_at[t]:] laid out
    (K, slots[t] + 1, width[t]) (parents' joint value row-major, the last slot: a parent missing),
    and, where joint_at[t] >= 0, every cell summed over the child at joint[joint_at[t]:] (K,
    slots[t] + 1)."""
    r = sub_ext.shape[1]
    v = np.zeros(r, dtype=np.int64)
    for t in range(table_sub.shape[0]):
        q, pos = table_sub[t], child_pos[t]
        ext = sub_ext[q]
        inner = 1
        for a in range(r - 1):
            inner *= ext[a]
        idx = sub_at[q]
        for last in range(ext[r - 1]):
            v[r - 1] = last
            for c in range(k):
                for j in range(inner):
                    val = counts[idx]
                    idx += 1
                    if val == 0.0:
                        continue
                    rest = j  # the prefix attributes' values, row-major
                    for a in range(r - 2, -1, -1):
                        v[a] = rest % ext[a]
                        rest //= ext[a]
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


_KERNELS = ("_derive",)
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
    d = len(widths)
    sets = list(combinations(range(d), n))
    subsets = list(combinations(range(d), n + 1))
    counts, sub_at, shapes = count_flat(columns, widths, y, n_classes, subsets, weight)
    sub_ext = np.array([[widths[a] + 1 for a in q] for q in subsets], dtype=np.int64)
    number = {q: i for i, q in enumerate(subsets)}
    table_sub, child_pos, out_at, slots, width, joint_at = [], [], [], [], [], []
    stack_shapes, total, joint_total = [], 0, 0
    for P in sets:
        children = [i for i in range(d) if i not in P]
        p, top = math.prod(widths[a] for a in P), max(widths[i] for i in children)
        stack_shapes.append((len(children), n_classes, p + 1, top))
        for c, i in enumerate(children):
            q = tuple(sorted((*P, i)))
            table_sub.append(number[q])
            child_pos.append(q.index(i))
            out_at.append(total + c * n_classes * (p + 1) * top)
            slots.append(p)
            width.append(top)
            joint_at.append(joint_total if c == 0 else -1)
        total += len(children) * n_classes * (p + 1) * top
        joint_total += n_classes * (p + 1)
    out, joint = np.zeros(total), np.zeros(joint_total)
    fns = compiled(globals(), _KERNELS, _COMPILED)
    as_int = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    fns["_derive"](counts, as_int(sub_at), sub_ext, n_classes, as_int(table_sub), as_int(child_pos), out,
                   as_int(out_at), as_int(slots), as_int(width), joint, as_int(joint_at))
    stacks, joints, at, jat = [], [], 0, 0
    for shape in stack_shapes:
        size = math.prod(shape)
        stacks.append(out[at:at + size].reshape(shape))
        joints.append(joint[jat:jat + shape[1] * shape[2]].reshape(shape[1], shape[2]))
        at, jat = at + size, jat + shape[1] * shape[2]
    return stacks, joints
