"""Conditional terms of many parent values, counted over the cells met.

A term P(x | c, parents) whose parents have more joint values than the engine's ``SPARSE_ABOVE``
(selective kDB's attributes of k = 4 or 5 parents) would count into a table of every joint value
times every child value, almost all of it zeros. Such a term is counted over what the data meet: a
pass finds the parent values met (the term's *slots*, in order, then one slot for a parent missing)
and the cells met, a cell being a parent value (or missing) with a child value; the counts are then
(folds, K, cells), at most one cell per row. The tables a model keeps, and the estimators that need
a table, get them spread back (:func:`spread`); the compiled leave-one-out scores read the cells as
they are.
"""

import math

import numpy as np

from .counting import distinct, joint_codes

__all__ = ["ParentValues", "row_keys", "values_met", "cell_rows", "spread", "positions"]

HASHED_KEYS = 1000  # keys from which positions are found by hashing (when the values are not many more)


def positions(values, keys, index=None):
    """``np.searchsorted(values, keys)`` for sorted distinct ``values``: for many keys, those among the
    values found by a hash table (``index``, :func:`hashed` of the values, kept by the caller for the
    next keys; made here when the values are not many more than the keys), a few random reads a key
    where a binary search takes one a level (5-10x faster for 200,000 keys among 10,000 to 1,000,000
    values); the others (a missing parent's joint value, say) by the binary search.

    Examples
    --------
    >>> positions(np.array([1, 4, 9]), np.array([9, 1, 5, 4, 10])).tolist()
    [2, 0, 2, 1, 3]
    """
    keys = np.asarray(keys)
    if keys.size < HASHED_KEYS or (index is None and values.size > 2 * keys.size):
        return np.searchsorted(values, keys)
    at = (hashed(values) if index is None else index).get_indexer(keys)
    absent = at < 0
    if absent.any():
        at[absent] = np.searchsorted(values, keys[absent])
    return at


def hashed(values):
    """The hash table :func:`positions` looks keys up in (a pandas index of the values)."""
    import pandas as pd
    return pd.Index(values)


def row_keys(parents, widths, child, m):
    """Each row's parents' joint value (n, the product of ``widths``, where one is missing) and its
    cell key, joint value times ``m`` plus its child's code (-1 where the child is missing).

    Examples
    --------
    >>> joint, key = row_keys([np.array([0, 1, -1, 1])], [2], np.array([1, 0, 1, -1]), 2)
    >>> joint.tolist(), key.tolist()  # parent missing: joint value 2, its cells after every other
    ([0, 1, 2, 1], [1, 2, 5, -1])
    """
    n = int(np.prod(widths, dtype=np.int64))
    joint = joint_codes(parents, widths, missing=n)
    key = joint * m + child
    np.putmask(key, np.less(child, 0), -1)
    return joint, key


def values_met(joint, key, n):
    """The parent values met (a parent missing, ``n``, left out) and the cell keys met (the child
    missing left out), each sorted, from :func:`row_keys`."""
    return distinct(joint[joint < n]), distinct(key[key >= 0])


def cell_rows(cells, key, index=None):
    """Each row's cell: the position of its ``key`` among the sorted ``cells`` met (every key
    present is among them; ``index``: their :func:`hashed` table, if kept), -1 where its child is missing.

    Examples
    --------
    >>> cell_rows(np.array([1, 2, 5]), np.array([1, 2, 5, -1, 2])).tolist()
    [0, 1, 2, -1, 1]
    """
    at = positions(cells, key, index)
    np.putmask(at, np.less(key, 0), -1)
    return at


def spread(counts, cells, m, slot, n_slots):
    """Counts over the cells met (..., cells) as a table (..., n_slots, m): the cell of parent value
    p and child value x at [slot(p), x] (``slot`` an array function: p's position among the values
    met, or p itself), zero where no cell was met.

    Examples
    --------
    >>> spread(np.array([[1.0, 2.0, 3.0]]), np.array([1, 2, 5]), 2, lambda p: p, 3).tolist()
    [[[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]]]
    """
    parent, value = np.divmod(cells, m)
    out = np.zeros((*counts.shape[:-1], n_slots, m))
    out[..., slot(parent), value] = counts
    return out


class ParentValues:
    """The engine's parent values of conditional terms: each row's parent slot, and for a term of many
    parent values the values and cells met, each row's cell and the counts spread back (a part of
    :class:`~seminaive.learning.engine.Engine`, which holds ``attributes``, ``parent_index``, ``cells``,
    ``stats`` and the in-memory caches ``_slots`` and ``_at``)."""

    def _parent_codes(self, term, codes):
        """A conditional term's parent value of each row and its number of parent slots (the last: a parent
        missing); past ``SPARSE_ABOVE`` values, the value's position among those met (see dense_counts)."""
        widths, n = [self.attributes[j].m for j in term.parents], self._n_parent_values(term)
        if not term.parents:
            return np.zeros(len(codes[term.child[0]]), dtype=np.int64), n + 1
        met = self.parent_index.get(term)
        if met is not None and term in self._slots:  # the data in memory: found once, for counts and scores
            return self._slots[term], met.size + 1
        joint = joint_codes([codes[j] for j in term.parents], widths, missing=n)
        if met is None:
            return joint, n + 1
        slots = positions(met, joint, self._hashed_values(("met", term), met, joint))  # a missing parent (n):
        # after every value met
        if self.single:
            self._slots[term] = slots
        return slots, met.size + 1

    def _n_parent_values(self, term):
        return math.prod(self.attributes[j].m for j in term.parents)

    def _row_keys(self, g, codes):
        """A term's parents' joint value and cell key of each row (:func:`row_keys`)."""
        return row_keys([codes[j] for j in g.parents], [self.attributes[j].m for j in g.parents],
                        self._codes(g, codes), self.group_values(g))

    def _values_met(self, chunk, terms):
        """The parent values and the cells met in a chunk, per term (a parent or child missing left out)."""
        out = {}
        for g in terms:
            joint, key = self._row_keys(g, chunk[1])
            out[g], out[("cells", g)] = values_met(joint, key, self._n_parent_values(g))
        return out

    def _cell_rows(self, g, codes):
        """Each row's cell of a term counted over the cells met (-1: its child missing)."""
        if g in self._at:
            return self._at[g]
        key = self._row_keys(g, codes)[1]
        at = cell_rows(self.cells[g], key, self._hashed_values(("cells", g), self.cells[g], key))
        if self.single:
            self._at[g] = at
        return at

    def _hashed_values(self, name, values, keys):
        """The :func:`hashed` table of a term's values or cells met, made once a pass's chunks give many
        keys and kept for the rest (None for few keys)."""
        if np.size(keys) < HASHED_KEYS:
            return None
        kept = self._hashed.get(name)
        if kept is None or kept[0] is not values:  # (values found again: hashed again)
            self._hashed[name] = kept = values, hashed(values)
        return kept[1]

    def dense_counts(self, term):
        """A term's counts (folds, K, parent slots, m) over every parent value: those of a term
        counted over the cells met, spread back (zero where a value was not met)."""
        if term not in self.parent_index:
            return self.stats[term]
        return spread(self.stats[term], self.cells[term], self.group_values(term), lambda p: p,
                      self._n_parent_values(term) + 1)

    def _met_counts(self, term):
        """A term's counts (folds, K, values met + 1, m) over the parent values met (the last slot: a
        parent missing), as :meth:`_parent_codes` numbers them."""
        met = self.parent_index[term]
        return spread(self.stats[term], self.cells[term], self.group_values(term),
                      lambda p: np.searchsorted(met, p), met.size + 1)

