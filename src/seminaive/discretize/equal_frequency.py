"""Equal-frequency binning: k groups holding about the same number of values."""

import numpy as np

from .._scale import midpoint
from .base import Discretizer
from ..registry import register_variant

__all__ = ["EqualFrequencyDiscretizer", "equal_frequency_cuts"]


def equal_frequency_cuts(values, totals, n_bins):
    """The cuts of sorted distinct ``values`` holding ``totals`` rows each into ``n_bins`` groups of
    about equal numbers of rows: the cut meant at row i * n / k moves to the nearest boundary between
    distinct values (the rows before each boundary: the running totals), at the midpoint of its
    two values; two cuts at one boundary are one.

    Examples
    --------
    >>> [float(c) for c in equal_frequency_cuts(np.array([1.0, 2.0, 3.0, 4.0]), np.array([3, 1, 1, 3]), 2)]
    [2.5]
    """
    n = float(np.sum(totals))
    bounds = np.cumsum(totals)[:-1]  # rows before the boundary after each value but the last
    if bounds.size == 0:
        return []
    cuts = []
    for i in range(1, n_bins):
        b = int(np.argmin(np.abs(bounds - i * n / n_bins)))
        cut = midpoint(values[b], values[b + 1])
        if not cuts or cut > cuts[-1]:
            cuts.append(cut)
    return cuts


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

    _param_rules = {"n_bins": dict(kind="int", low=1)}

    table_based = True

    def _table_ladder(self, values, counts):
        return equal_frequency_cuts(values, counts.sum(axis=1), self.n_bins), None


register_variant("discretizer", "equal_frequency", "intervals holding equal numbers of values (n_bins)",
                 EqualFrequencyDiscretizer)
