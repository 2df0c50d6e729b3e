"""Equal-frequency binning: k groups holding about the same number of values."""

import numpy as np

from .._scale import midpoint
from .base import Discretizer
from ..registry import register_variant

__all__ = ["EqualFrequencyDiscretizer"]


class EqualFrequencyDiscretizer(Discretizer):
    """Cut between the sorted training values at positions i * n / k, at the
    midpoint of the two neighbours. Equal values are never separated: a cut
    that falls inside a run of ties moves to the nearest boundary between
    distinct values, and two cuts that land on the same boundary become one,
    so heavily tied data can give fewer than ``n_bins`` intervals.

    Examples
    --------
    >>> x = np.arange(12.0)[:, None]
    >>> EqualFrequencyDiscretizer(n_bins=3).fit(x).cut_points_[0].tolist()
    [3.5, 7.5]
    """

    def __init__(self, n_bins=10):
        self.n_bins = n_bins

    _parameter_constraints = {"n_bins": dict(kind="int", low=1)}

    def _cut_points(self, x, y):
        n = x.size
        bounds = np.flatnonzero(x[1:] > x[:-1]) + 1  # positions p with x[p-1] < x[p]
        if bounds.size == 0:
            return []
        cuts = []
        for i in range(1, self.n_bins):
            pos = i * n / self.n_bins
            p = bounds[np.argmin(np.abs(bounds - pos))]
            cut = midpoint(x[p - 1], x[p])
            if not cuts or cut > cuts[-1]:
                cuts.append(cut)
        return cuts


register_variant("discretizer", "equal_frequency", "intervals holding equal numbers of values (n_bins)",
                 EqualFrequencyDiscretizer)
