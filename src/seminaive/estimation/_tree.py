"""The tree of a conditional table whose estimates back off through its parents:
the root P(child), its children P(child | class), theirs P(child | class, first
parent), ... down to the leaves P(child | class, parents), which hold the data's
counts. Only the nodes holding data are built; :func:`dense_levels` lays the
estimates out for every configuration again. Shared by the hierarchical estimators
(:mod:`.hdp`, :mod:`.hgs`, :mod:`.hls`).

A parent that is a numeric attribute's intervals from a ladder of nested cuts
(:class:`~seminaive.discretize.ResolutionDiscretizer`) comes in as a :class:`Ladder`: the
tree takes its coarsest intervals first, then each finer level in place of the one
above it, so that a fine interval's node backs off to the coarser interval that
contains it before the parent is dropped (as a table backs off to fewer parents).
The tree is then exactly the tree of the same table with every coarser level as an
explicit parent column just before the fine one (each fine value has one coarse
value, so the explicit tree's nodes are the same).
"""

from typing import NamedTuple

import numpy as np

from ..exceptions import ParameterError

__all__ = ["Hierarchy", "Ladder", "TYINGS", "tree_steps", "probability_tree", "dense_levels", "node_counts",
           "ancestors", "tied_groups"]

TYINGS = ("level", "single", "parent", "none")


class Ladder(NamedTuple):
    """A parent of ``n_values`` values whose values nest in coarser ones: ``coarser[l]`` maps each
    value to its value at coarser level l (coarse to fine; each level's values in order).

    Examples
    --------
    >>> tree_steps(2, [Ladder(4, (np.array([0, 0, 1, 1]),))])  # 2 classes; 4 intervals in 2
    [2, 2, (4, [0, 0, 1, 1])]
    """

    n_values: int
    coarser: tuple


def tree_steps(k, levels):
    """The tree's steps below the root for ``k`` classes and the parents ``levels`` (numbers of
    values, or :class:`Ladder`): an int adds a parent of that many values; ``(arity, up)`` replaces
    the step above by a finer one, ``up[v]`` being the value of the step above that holds v."""
    out = [int(k)]
    for level in levels:
        if not isinstance(level, Ladder) or not level.coarser:
            out.append(int(level[0] if isinstance(level, Ladder) else level))
            continue
        maps = [np.asarray(c, dtype=np.int64) for c in level.coarser] + [np.arange(int(level.n_values))]
        out.append(int(maps[0].max()) + 1)
        for coarse, fine in zip(maps, maps[1:]):
            up = np.zeros(int(fine.max()) + 1, dtype=np.int64)
            up[fine] = coarse
            out.append((up.size, up.tolist()))
    return out


def _arity(step):
    return step[0] if isinstance(step, tuple) else step


def _up_codes(codes, steps, d):
    """The codes at depth d - 1 of the codes at depth d (step d - 1 of ``steps``)."""
    step = steps[d - 1]
    if not isinstance(step, tuple):
        return codes // step
    arity, up = step
    return codes // arity * _arity(steps[d - 2]) + np.asarray(up, dtype=np.int64)[codes % arity]


def probability_tree(counts, arities, estimation):
    """The nodes of the tree of ``counts`` (K, P, m) with the conditioning steps ``arities``
    (:func:`tree_steps`: [K, v1..vk], P = v1 ... vk, row-major, the last parent fastest, a
    ladder's finer levels in place of its coarser ones): the nodes holding data at each depth
    (their row-major codes), the parent of every node, where each depth starts, and the leaves'
    counts (whole numbers, checked: only the rows holding data are read, as integers;
    ``estimation`` names the estimator in the error)."""
    m = counts.shape[-1]
    flat = counts.reshape(-1, m)
    codes = [np.flatnonzero(flat.any(axis=1))]
    data = flat[codes[0]]
    if not np.array_equal(data, np.round(data)):
        raise ParameterError(f"sample_weight: estimation={estimation!r} counts whole instances; expected integer "
                             f"weights")
    ups = []
    for d in range(len(arities), 0, -1):
        up, inverse = np.unique(_up_codes(codes[0], arities, d), return_inverse=True)
        codes.insert(0, up)
        ups.insert(0, inverse)
    if codes[0].size == 0:  # no data at all: the root alone
        codes[0] = np.zeros(1, dtype=np.intp)
    sizes = [c.size for c in codes]
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    parent = np.full(start[-1], -1, dtype=np.int64)
    for d, inverse in enumerate(ups, start=1):
        parent[start[d]:start[d + 1]] = start[d - 1] + inverse
    leaf = np.zeros((start[-1], m), dtype=np.int64)
    leaf[start[-2]:] = data
    return codes, parent, start, leaf


def node_counts(leaf, parent, start):
    """Every node's counts (nodes, m): the leaves' data summed up the tree (deepest first)."""
    n = leaf.astype(np.float64)
    for d in range(start.size - 2, 0, -1):
        np.add.at(n, parent[start[d]:start[d + 1]], n[start[d]:start[d + 1]])
    return n


def ancestors(parent, start):
    """The ancestors of every leaf, (leaves, depth): column d holds its ancestor at depth d."""
    depth = start.size - 2
    out = np.empty((start[-1] - start[-2], depth), dtype=np.int64)
    node = np.arange(start[-2], start[-1])
    for d in range(depth - 1, -1, -1):
        node = parent[node]
        out[:, d] = node
    return out


def tied_groups(tying, parent, start):
    """Which concentration each node uses (nodes,): the root alone in group 0, then every node of
    a depth (``"level"``), all the other nodes (``"single"``), the children of one node
    (``"parent"``) or each node (``"none"``) in a group of its own."""
    n = parent.size
    depth = np.repeat(np.arange(start.size - 1), np.diff(start))
    if tying == "level":
        group = depth
    elif tying == "single":
        group = np.minimum(depth, 1)
    elif tying == "parent":
        group = np.where(parent < 0, 0, parent + 1)
    else:
        group = np.arange(n)
    return group.astype(np.int64)


def dense_levels(rows, codes, start, arities, m):
    """Estimates for every configuration of every depth: a list over depths 0..k+1 of arrays
    (the configurations of the steps so far, m) from the nodes' ``rows`` (nodes, m); a configuration
    without a node (no data) takes its parent configuration's row."""
    dense = [rows[0:1] if start[1] > 0 else np.full((1, m), 1.0 / m)]
    size = 1
    for d in range(1, len(arities) + 1):
        if isinstance(arities[d - 1], tuple):  # a finer level in place of the one above
            size //= _arity(arities[d - 2])
        size *= _arity(arities[d - 1])
        level = dense[-1][_up_codes(np.arange(size), arities, d)]  # each node's children start from its row
        level[codes[d]] = rows[start[d]:start[d + 1]]
        dense.append(level)
    return dense


class Hierarchy:
    """The table layouts of an estimator whose ``smooth(counts, levels, key)`` gives the estimates
    of every depth (:func:`dense_levels`); ``_class_depth``: the depth whose rows are P(child |
    class) for a row whose parents are missing and for a table of the class alone."""

    _class_depth = 1

    def conditional(self, counts, n_values=None, backoff=None, levels=None, key=()):
        """Log P(value | class, parents), (K, P, m), from counts (K, P, m); ``levels``: the
        parents' numbers of values (default: one parent of P values)."""
        counts = np.asarray(counts)
        k, p, m = counts.shape
        levels = (p,) if levels is None else tuple(levels)
        with np.errstate(divide="ignore"):
            return np.log(self.smooth(counts, levels, key)[-1]).reshape(k, p, m)

    def categorical(self, counts, n_values=None):
        """Log P(value | class), (K, m): the tree of the class alone."""
        with np.errstate(divide="ignore"):
            return np.log(self.smooth(np.asarray(counts)[:, None, :], (1,))[self._class_depth])

    def log_table(self, counts, levels, key=()):
        """The log table (parent slots, m + 1, K) of a conditional table's counts (K, slots, m),
        as :func:`~seminaive.estimation.tables.log_tables` lays it out: a row whose parents are
        missing takes P(child | class) from the hierarchy's class level (such rows are not in the tree)."""
        counts = np.asarray(counts)
        k, slots, m = counts.shape
        dense = self.smooth(counts[:, :-1], levels, key)
        with np.errstate(divide="ignore"):
            present = np.log(dense[-1]).reshape(k, slots - 1, m)
            alone = np.log(dense[1])
        table = np.concatenate([present, alone[:, None, :]], axis=1)
        return np.concatenate([table.transpose(1, 2, 0), np.zeros((slots, 1, k))], axis=1)
