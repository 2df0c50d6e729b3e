"""A nominal attribute: a categorical distribution per class."""

import numpy as np

from .base import Component
from .categorical_block import CategoricalBlock, add_tables, stack_tables

__all__ = ["Categorical", "reader_codes"]


class Categorical(Component):
    """Categorical distribution of one nominal attribute in each class.

    Statistics: ``counts`` of shape (K, m), the (weighted) number of instances
    of each class with each value; missing values are not counted.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> t = EncodedTable(np.array([[0], [1], [1], [-1]]), np.empty((4, 0)), np.zeros(1))
    >>> c = Categorical(attribute=0, column=0, n_values=2)
    >>> s = c.count(t, np.array([0, 0, 1, 1]), 2, None)
    >>> s["counts"].tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    >>> c.estimate(s, Frequency(alpha=1))
    >>> np.exp(c.log_likelihood(t)).round(3).tolist()
    [[0.5, 0.333], [0.5, 0.667], [0.5, 0.667], [1.0, 1.0]]
    """

    kind = "categorical"

    def __init__(self, attribute, column, n_values):
        super().__init__(attribute, column)
        self.n_values = n_values

    @property
    def level(self):
        """What a hierarchical table takes of it as a parent: its number of values."""
        return self.n_values

    def codes(self, table, start=None, stop=None):
        """The attribute's codes for rows ``start:stop`` (-1 where missing)."""
        return table.codes[start:stop, self.column]

    def count(self, table, y, n_classes, weight):
        return type(self).count_many([self], table, y, n_classes, weight)[0]

    @classmethod
    def count_many(cls, comps, table, y, n_classes, weight):
        """All the components' counts from one pass of the counting primitive."""
        if not comps:
            return []
        cols = [c.column for c in comps]
        if cls is not Categorical:  # codes computed by the component (a discretizer's bins)
            block = [c.codes(table) for c in comps]
        else:
            block = table.codes if cols == list(range(table.codes.shape[1])) else table.codes[:, cols]
        counts = CategoricalBlock.count([c.attribute for c in comps], cols, [c.n_values for c in comps], block, y,
                                        n_classes, weight).counts
        return [{"counts": counts[k, :, :c.n_values].copy()} for k, c in enumerate(comps)]

    @classmethod
    def add_log_likelihood_many(cls, comps, table, out):
        """Gather the components' log-probabilities from their tables stacked into one array
        (:func:`~seminaive.components.categorical_block.add_tables`, as a block of them gives them)."""
        if not comps:
            return out
        if cls is Categorical:
            codes, cols = table.codes, [c.column for c in comps]
        else:  # codes computed by the component (a discretizer's bins)
            codes, cols = np.column_stack([c.codes(table) for c in comps]), range(len(comps))
        return add_tables(codes, cols, stack_tables([c.log_table_ for c in comps]), out)

    @staticmethod
    def merge(a, b):
        return {"counts": a["counts"] + b["counts"]}

    def estimate(self, stats, estimator, **context):
        logp = estimator.categorical(stats["counts"])  # (K, m)
        # one extra zero row: code -1 (missing) indexes it and contributes nothing
        self.log_table_ = np.vstack([logp.T, np.zeros((1, logp.shape[0]))])

    @classmethod
    def estimate_many(cls, comps, stats, estimator, names):
        """The components of each number of values as one block estimated in one call on their
        stacked counts (:meth:`CategoricalBlock.estimate`: the same operations, row by row), where
        the estimator smooths each class's counts by themselves; else one by one."""
        groups = {}
        for c, s in zip(comps, stats):
            groups.setdefault(np.shape(s["counts"]), []).append((c, s["counts"]))
        for (_, m), members in groups.items():
            block = CategoricalBlock(range(len(members)), range(len(members)), [m] * len(members),
                                     np.stack([counts for _, counts in members]))
            if not block.estimate(estimator):
                return super().estimate_many(comps, stats, estimator, names)
            block.install([c for c, _ in members])

    def log_likelihood(self, table):
        return self.log_table_[self.codes(table)]

    def loo_log_likelihood(self, stats, table, y, estimator):
        """Leave-one-out log P(value | class) of every instance, (n, K)."""
        return estimator.loo_categorical(stats["counts"], np.asarray(self.codes(table), dtype=np.int64), y,
                                         self.n_values)

    def to_dict(self):
        return {**super().to_dict(), "n_values": self.n_values}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"], d["n_values"])


def reader_codes(readers, table):
    """Every reader's codes of ``table`` (each -1 where missing), as rows of one array (readers, rows)
    when every reader is a :class:`Categorical` (one copy of the table's codes), else a list of
    arrays: either way ``codes[j]`` is reader ``j``'s column.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> t = EncodedTable(np.array([[0, 2], [1, -1]]), np.empty((2, 0)), np.zeros(2))
    >>> reader_codes([Categorical(1, 1, 3), Categorical(0, 0, 2)], t).tolist()
    [[2, -1], [0, 1]]
    """
    if readers and all(type(r) is Categorical for r in readers):
        return table.codes.T[[r.column for r in readers]]
    return [r.codes(table) for r in readers]
