"""A numeric attribute cut into intervals: a categorical distribution over them."""

import numpy as np

from ..discretize.base import apply_cuts, interval_labels
from ..estimation import Ladder
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

    Cuts from a ladder of nested levels (``levels``: the level each cut first appears at) make
    a parent whose intervals back off to the coarser intervals holding them:

    >>> Discretized(0, 0, [1.0, 5.0, 9.0], levels=[2, 1, 2]).level
    Ladder(n_values=4, coarser=((0, 0, 1, 1),))
    """

    kind = "discretized"

    def __init__(self, attribute, column, cuts, levels=None):
        self.cuts = np.asarray(cuts, dtype=np.float64)
        self.levels = None if levels is None else np.asarray(levels, dtype=np.int64)
        super().__init__(attribute, column, self.cuts.size + 1)

    @property
    def level(self):
        """What a hierarchical table takes of it as a parent: its number of intervals, or a
        :class:`~seminaive.estimation.Ladder` mapping each interval to the interval of
        every coarser level of its ladder that holds it."""
        if self.levels is None or not self.levels.size:
            return self.n_values
        upper = np.r_[self.cuts, np.inf]  # each interval's upper end
        coarser = tuple(tuple(np.searchsorted(self.cuts[self.levels <= lv], upper, side="left").tolist())
                        for lv in np.unique(self.levels)[:-1])
        return Ladder(self.n_values, coarser) if coarser else self.n_values

    @property
    def labels(self):
        return interval_labels(self.cuts)

    def codes(self, table, start=None, stop=None):
        return apply_cuts(table.numeric[start:stop, self.column], self.cuts)

    def to_dict(self):
        ladder = {} if self.levels is None else {"levels": self.levels.tolist()}
        return {**super().to_dict(), "cuts": self.cuts.tolist(), **ladder}

    @classmethod
    def from_dict(cls, d):
        return cls(d["attribute"], d["column"], d["cuts"], d.get("levels"))
