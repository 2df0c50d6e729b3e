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

from ..core.hashing import mix64
from ..exceptions import ParameterError

__all__ = ["Hierarchy", "Ladder", "TYINGS", "tree_steps", "probability_tree", "dense_levels", "node_counts",
           "ancestors", "tied_groups", "canonical_orders"]

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


REFINEMENTS = 3  # rounds of canonical ordering after the first (each axis keyed by its slices under the others')
_SEEDS = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xD1B54A32D192ED03))


def canonical_orders(full, axes):
    """An order of the positions of each of ``axes`` of the array of whole numbers ``full`` that
    depends on its numbers, not on the order they came in: permuting any of those axes of ``full``
    permutes the returned orders alike, so that ``full`` taken in these orders is the same array.
    Each position is keyed by its count, then by a hash of its slice's nonzero cells as a multiset:
    first of their numbers alone (blind to every order), then, for a few rounds, of their numbers
    with their places on the other axes in those axes' current orders. Positions whose slices stay
    alike are interchangeable (the array reads the same either way).

    Examples
    --------
    >>> a = np.array([[3, 0, 1], [0, 2, 5]])
    >>> b = a[::-1, [2, 0, 1]]
    >>> oa, ob = canonical_orders(a, (0, 1)), canonical_orders(b, (0, 1))
    >>> bool(np.array_equal(a[np.ix_(*oa)], b[np.ix_(*ob)]))
    True
    """
    full = np.asarray(full, dtype=np.float64)
    cells = np.nonzero(full)
    value = full[cells]
    places = [c.astype(np.int64) for c in cells]
    bits = value.astype(np.int64).view(np.uint64)
    ranks = [np.arange(n, dtype=np.int64) for n in full.shape]
    orders = [np.arange(n, dtype=np.int64) for n in full.shape]
    total = {a: np.bincount(places[a], weights=value, minlength=full.shape[a]) for a in axes}
    salts = [mix64(np.arange(1, full.ndim + 1, dtype=np.uint64) + seed) for seed in _SEEDS]  # arrays: no warning
    for r in range(REFINEMENTS + 1):
        new = []
        for a in axes:
            keys = []
            for seed, salt in zip(_SEEDS, salts):
                h = mix64(bits + seed)
                if r:
                    for b in range(full.ndim):
                        if b != a:
                            h = mix64(h ^ (ranks[b][places[b]].view(np.uint64) + salt[b]))
                key = np.zeros(full.shape[a], dtype=np.uint64)
                np.add.at(key, places[a], h)
                keys.append(key)
            new.append(np.lexsort((keys[1], keys[0], -total[a])).astype(np.int64))
        changed = any(not np.array_equal(o, orders[a]) for o, a in zip(new, axes))
        for o, a in zip(new, axes):
            orders[a] = o
            ranks[a] = np.argsort(o)
        if r and not changed:
            break
    return orders


def _depth_axes(k, levels):
    """For each depth of the tree of a table with ``k`` classes and parents ``levels``: the axes of
    the full counts (class, parents..., child) its configurations run over, row-major."""
    axes, out = [0], [[], [0]]
    for j, level in enumerate(levels, start=1):
        axes = axes + [j]
        depth = 1 + (len(level.coarser) if isinstance(level, Ladder) else 0)  # a ladder's levels share its axis
        out += [axes] * depth
    return out


class Hierarchy:
    """The table layouts of an estimator whose ``smooth(counts, levels, key)`` gives the estimates
    of every depth (:func:`dense_levels`); ``_class_depth``: the depth whose rows are P(child |
    class) for a row whose parents are missing and for a table of the class alone."""

    _class_depth = 1

    def _smooth(self, counts, levels, key=()):
        """``smooth`` in an order of the values that depends on the counts alone (the child's values
        and every parent's but a ladder's, whose order is its intervals'), its estimates put back in
        the order given: so that the smoothing, whose optimizer or sampler visits the values in
        order, gives the same tables whatever order the values came in."""
        counts = np.asarray(counts)
        k, m = counts.shape[0], counts.shape[-1]
        levels = tuple(levels)
        if m == 0:  # a child of no values (every row missing): nothing to estimate at any depth
            steps = tree_steps(k, levels)
            sizes, size = [1], 1
            for d in range(1, len(steps) + 1):
                size = size // _arity(steps[d - 2]) if isinstance(steps[d - 1], tuple) else size
                size *= _arity(steps[d - 1])
                sizes.append(size)
            return [np.zeros((n, 0)) for n in sizes]
        sizes = [int(lv.n_values if isinstance(lv, Ladder) else lv) for lv in levels]
        full = counts.reshape(k, *sizes, m)
        free = tuple(a for a, lv in enumerate(levels, start=1) if not isinstance(lv, Ladder)) + (full.ndim - 1,)
        orders = canonical_orders(full, free)
        dense = self.smooth(full[np.ix_(*orders)].reshape(counts.shape), levels, key)
        back = [np.argsort(o) for o in orders]
        out = []
        for rows, axes in zip(dense, _depth_axes(k, levels)):
            shape = [full.shape[a] for a in axes]
            if isinstance(levels[axes[-1] - 1] if len(axes) > 1 else None, Ladder):
                shape[-1] = rows.size // m // max(1, int(np.prod(shape[:-1])))  # a coarser level of the ladder
            grid = rows.reshape(*shape, m)
            out.append(grid[np.ix_(*[back[a] if a in free else np.arange(n) for a, n in zip(axes, shape)],
                                  back[-1])].reshape(rows.shape))
        return out

    def conditional(self, counts, n_values=None, backoff=None, levels=None, key=()):
        """Log P(value | class, parents), (K, P, m), from counts (K, P, m); ``levels``: the
        parents' numbers of values (default: one parent of P values)."""
        counts = np.asarray(counts)
        k, p, m = counts.shape
        levels = (p,) if levels is None else tuple(levels)
        with np.errstate(divide="ignore"):
            return np.log(self._smooth(counts, levels, key)[-1]).reshape(k, p, m)

    def categorical(self, counts, n_values=None):
        """Log P(value | class), (K, m): the tree of the class alone."""
        with np.errstate(divide="ignore"):
            return np.log(self._smooth(np.asarray(counts)[:, None, :], (1,))[self._class_depth])

    def log_table(self, counts, levels, key=()):
        """The log table (parent slots, m + 1, K) of a conditional table's counts (K, slots, m),
        as :func:`~seminaive.estimation.tables.log_tables` lays it out: a row whose parents are
        missing takes P(child | class) from the hierarchy's class level (such rows are not in the tree)."""
        counts = np.asarray(counts)
        k, slots, m = counts.shape
        dense = self._smooth(counts[:, :-1], levels, key)
        with np.errstate(divide="ignore"):
            present = np.log(dense[-1]).reshape(k, slots - 1, m)
            alone = np.log(dense[1])
        table = np.concatenate([present, alone[:, None, :]], axis=1)
        return np.concatenate([table.transpose(1, 2, 0), np.zeros((slots, 1, k))], axis=1)
