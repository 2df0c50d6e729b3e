"""A numeric attribute cut into intervals: a categorical distribution over them."""

import numpy as np

from ..discretize.base import apply_cuts, interval_labels
from .categorical import Categorical

__all__ = ["Discretized"]


class Discretized(Categorical):
    """Categorical distribution per class over the intervals of a numeric
    attribute; the cut points are learned (from training data only) before
    counting, by any discretizer of :mod:`seminaive.discretize`.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> t = EncodedTable(np.empty((4, 0), int), np.array([[1.0], [2.0], [8.0], [np.nan]]), np.zeros(0))
    >>> c = Discretized(attribute=0, column=0, cuts=[5.0])
    >>> c.count(t, np.array([0, 0, 1, 1]), 2, None)["counts"].tolist()
    [[2.0, 0.0], [0.0, 1.0]]
    >>> c.labels
    ['<= 5', '> 5']
    """

    kind = "discretized"

    def __init__(self, attribute, column, cuts):
        self.cuts = np.asarray(cuts, dtype=np.float64)
        super().__init__(attribute, column, self.cuts.size + 1)

    @property
    def labels(self):
        return interval_labels(self.cuts)

    def codes(self, table, start=None, stop=None):
        return apply_cuts(table.numeric[start:stop, self.column], self.cuts)

    def to_dict(self):
        return {**super().to_dict(), "cuts": self.cuts.tolist()}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"], d["cuts"])
