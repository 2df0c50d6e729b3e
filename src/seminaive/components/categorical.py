"""A nominal attribute: a categorical distribution per class."""

import numpy as np

from ._chunks import chunks
from .base import Component

__all__ = ["Categorical"]


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

    def codes(self, table, start=None, stop=None):
        """The attribute's codes for rows ``start:stop`` (-1 where missing)."""
        return table.codes[start:stop, self.column]

    def count(self, table, y, n_classes, weight):
        m1 = self.n_values + 1
        codes = self.codes(table)
        flat = y * m1 + codes
        flat += 1  # code -1 (missing) lands in column 0, dropped below
        counts = np.bincount(flat, weights=weight, minlength=n_classes * m1)
        return {"counts": counts.reshape(n_classes, m1)[:, 1:].astype(np.float64)}

    @classmethod
    def count_many(cls, comps, table, y, n_classes, weight):
        """One bincount per row chunk over all the components' columns."""
        if not comps:
            return []
        if cls is not Categorical:
            return super().count_many(comps, table, y, n_classes, weight)
        width = max(c.n_values for c in comps) + 1
        stride = n_classes * width
        cols = [c.column for c in comps]
        whole = cols == list(range(table.codes.shape[1]))
        offsets = np.arange(len(comps), dtype=np.intp) * stride + 1  # +1: missing (-1) -> slot 0
        total = np.zeros(len(comps) * stride)
        for s, e in chunks(table.codes.shape[0]):
            block = table.codes[s:e] if whole else table.codes[s:e, cols]
            idx = np.asarray(block, dtype=np.intp, order="F") + offsets
            idx += (y[s:e] * width)[:, None]
            w = None if weight is None else np.tile(weight[s:e], len(comps))
            total += np.bincount(idx.ravel(order="F"), weights=w, minlength=total.size)
        total = total.reshape(len(comps), n_classes, width)
        return [{"counts": total[k, :, 1:c.n_values + 1].copy()} for k, c in enumerate(comps)]

    @classmethod
    def add_log_likelihood_many(cls, comps, table, out):
        """Gather each component's log-probabilities chunk by chunk into ``out``."""
        for s, e in chunks(out.shape[0]):
            o = out[s:e]
            for c in comps:
                o += c.log_table_[c.codes(table, s, e)]
        return out

    @staticmethod
    def merge(a, b):
        return {"counts": a["counts"] + b["counts"]}

    def estimate(self, stats, estimator, **context):
        logp = estimator.categorical(stats["counts"])  # (K, m)
        # one extra zero row: code -1 (missing) indexes it and contributes nothing
        self.log_table_ = np.vstack([logp.T, np.zeros((1, logp.shape[0]))])

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
