"""A nominal attribute: a categorical distribution per class."""

import numpy as np

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

    def count(self, table, y, n_classes, weight):
        m1 = self.n_values + 1
        codes = table.codes[:, self.column]
        flat = y * m1 + codes
        flat += 1  # code -1 (missing) lands in column 0, dropped below
        counts = np.bincount(flat, weights=weight, minlength=n_classes * m1)
        return {"counts": counts.reshape(n_classes, m1)[:, 1:].astype(np.float64)}

    @staticmethod
    def merge(a, b):
        return {"counts": a["counts"] + b["counts"]}

    def estimate(self, stats, estimator, **context):
        logp = estimator.categorical(stats["counts"])  # (K, m)
        # one extra zero row: code -1 (missing) indexes it and contributes nothing
        self.log_table_ = np.vstack([logp.T, np.zeros((1, logp.shape[0]))])

    def log_likelihood(self, table):
        return self.log_table_[table.codes[:, self.column]]

    def to_dict(self):
        return {**super().to_dict(), "n_values": self.n_values}
