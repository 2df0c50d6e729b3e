"""A nominal attribute given the class and parent attributes: P(child | class, parents).

The one categorical statistic: counts indexed by (class, the parents' joint
value, the child's value). With no parents it is the Naive Bayes table; a
Pazzani join is the case whose child is the product of its members; TAN and
kDB are structures of such tables (a list of parents per attribute).
"""

import math

import numpy as np

from .._memory import check_memory
from ..core.counting import count_codes, joint_codes
from ..estimation.tables import log_tables, loo_log_table
from .base import Component
from .categorical import Categorical
from .discretized import Discretized

__all__ = ["ConditionalTable", "checked_tables"]


def checked_tables(tables, k, owner):
    """``tables``, unless their dense counts (``k`` classes x every value of the parents together x the
    child's values) cannot be held: then one error with the numbers, before anything is allocated.

    Examples
    --------
    >>> from seminaive.components import Categorical
    >>> wide = [Categorical(j, j, 10**6) for j in range(3)]
    >>> checked_tables([ConditionalTable(0, wide[0], wide[1:])], 2, "KDB")
    Traceback (most recent call last):
    ...
    seminaive.exceptions.ParameterError: KDB's 1 tables (2,000,000,000,002,000,000 cells: ...
    """
    cells = sum(k * (t.n_configs + 1) * t.n_values for t in tables)  # Python's integers: no overflow
    check_memory(3 * 8 * cells, f"{owner}'s {len(tables)} tables ({cells:,} cells: every value of each "
                                f"attribute's parents together)",
                 "fewer parents (a smaller k), or attributes with fewer values (coarser intervals)")
    return tables


class ConditionalTable(Component):
    """P(child | class, parents) for a child and parents that give codes
    (nominal attributes, or numeric ones through their intervals).

    Statistics: ``counts`` of shape (K, P + 1, m): per class, per joint value
    of the parents (P is the product of their numbers of values; the last
    slot collects instances with a parent missing) and per child value. A
    missing child is not counted and contributes nothing (as in Naive Bayes);
    an instance with a parent missing gets the child's Naive Bayes probability
    P(child | class), estimated from all the counts. Counts add, so tables
    merge and stream; every estimator of :mod:`seminaive.estimation` maps
    them to probabilities, and leave-one-out takes each instance's own count
    out of its cell.

    Parameters
    ----------
    attribute : int
        The child's index in the schema.
    child : Categorical or Discretized
        What reads the child's codes.
    parents : sequence of Categorical or Discretized
        What reads each parent's codes.

    Examples
    --------
    >>> from seminaive.components import Categorical
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> t = EncodedTable(np.array([[0, 0], [1, 1], [1, 1], [0, -1]]), np.empty((4, 0)), np.zeros(2))
    >>> cpt = ConditionalTable(0, Categorical(0, 0, 2), [Categorical(1, 1, 2)])
    >>> s = cpt.count(t, np.array([0, 0, 1, 1]), 2, None)
    >>> s["counts"][0].tolist()  # class 0: parent value 0, parent value 1, parent missing
    [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    >>> cpt.estimate(s, Frequency(alpha=1))
    >>> np.exp(cpt.log_likelihood(t))[1].round(3).tolist()  # child 1 given parent 1: (1+1)/(1+2), (1+1)/(1+2)
    [0.667, 0.667]
    """

    kind = "conditional"
    weight_ = None  # discriminative weights on the log table's cells, same shape (None: the generative table)

    def __init__(self, attribute, child, parents=()):
        super().__init__(attribute, child.column)
        self.child = child
        self.parents = tuple(parents)
        self.n_values = child.n_values
        self.n_configs = math.prod(int(p.n_values) for p in self.parents)

    def parent_codes(self, table, start=None, stop=None):
        """The parents' joint value of each instance (n_configs where a parent is missing)."""
        n = (stop if stop is not None else table.n_samples) - (start or 0)
        return self._parent({p.attribute: p.codes(table, start, stop) for p in self.parents}, n)

    def _parent(self, columns, n):
        """The parents' joint value of each of ``n`` rows from their codes (``columns[attribute]``)."""
        if not self.parents:
            return np.zeros(n, dtype=np.int64)
        return joint_codes([columns[p.attribute] for p in self.parents], [p.n_values for p in self.parents],
                           missing=self.n_configs)

    def count(self, table, y, n_classes, weight):
        return {"counts": self.count_folds(table, y, n_classes, None, 1, weight)[0]}

    def count_columns(self, columns, y, n_classes, weight):
        """:meth:`count` from every attribute's codes read once for all the tables (``columns[i]``:
        attribute i's, as its reader gives them)."""
        return {"counts": self._fold_counts(columns, y, n_classes, None, 1, weight)[0]}

    def count_folds(self, table, y, n_classes, fold, n_folds, weight=None):
        """The counts of each fold's rows, (n_folds, K, parent slots, m): one pass of the counting primitive."""
        return self._fold_counts(self.columns(table), y, n_classes, fold, n_folds, weight)

    def _fold_counts(self, columns, y, n_classes, fold, n_folds, weight):
        return count_codes([columns[self.child.attribute]], self.n_values, y, n_classes,
                           parent=self._parent(columns, len(y)), n_parent=self.n_configs + 1, fold=fold,
                           n_folds=n_folds, weight=weight)[0]

    @staticmethod
    def merge(a, b):
        return {"counts": a["counts"] + b["counts"]}

    def estimate(self, stats, estimator, **context):
        self.log_table_ = log_tables(stats["counts"], estimator, [p.level for p in self.parents],
                                     (self.attribute, *[p.attribute for p in self.parents]))

    def log_likelihood(self, table):
        return self.log_likelihood_columns(self.columns(table), table.n_samples)

    def columns(self, table, into=None):
        """The codes of its child and parents (``{attribute: codes}``), added to ``into`` where it has none of
        an attribute yet (the tables of a model read each attribute once)."""
        into = {} if into is None else into
        for r in (self.child, *self.parents):
            if r.attribute not in into:
                into[r.attribute] = r.codes(table)
        return into

    def log_likelihood_columns(self, columns, n):
        """:meth:`log_likelihood` of ``n`` rows from their attributes' codes (``columns[attribute]``)."""
        child = np.asarray(columns[self.child.attribute], dtype=np.int64)
        parent = self._parent(columns, n)
        if self.weight_ is None:
            return self.log_table_[parent, child]
        return self.log_table_[parent, child] * self.weight_[parent, child]

    def cells(self, columns, n):
        """Each of ``n`` rows' cell: its flat row in ``log_table_`` as (cells, K), from the
        attributes' codes ``columns`` (a missing child: the last column, whose term is 0)."""
        child = np.asarray(columns[self.child.attribute], dtype=np.int64)
        return self._parent(columns, n) * (self.n_values + 1) + np.where(child < 0, self.n_values, child)

    def loo_log_likelihood(self, stats, table, y, estimator):
        """Leave-one-out log P(child | class, parents) of every instance, (n, K):
        its estimate from the counts ``stats`` of all the data less its own."""
        return loo_log_table(stats["counts"], estimator, np.asarray(self.child.codes(table), dtype=np.int64),
                             self.parent_codes(table), y)

    def to_dict(self):
        return {**super().to_dict(), "child": self.child.to_dict(), "parents": [p.to_dict() for p in self.parents]}

    @classmethod
    def from_dict(cls, d):
        readers = {"categorical": Categorical, "discretized": Discretized}
        build = lambda c: readers[c["kind"]].from_dict(c)  # noqa: E731
        return cls(d["attribute"], build(d["child"]), [build(p) for p in d["parents"]])
