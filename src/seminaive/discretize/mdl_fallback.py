"""MDL intervals, with equal-frequency ones where MDL finds no cut: an attribute is
never silently reduced to one interval (which leaves a model of such attributes
nothing but the class priors)."""

import math

from .equal_frequency import equal_frequency_cuts
from .mdl import MDLDiscretizer
from ..registry import register_variant

__all__ = ["MDLFallbackDiscretizer"]


class MDLFallbackDiscretizer(MDLDiscretizer):
    """Fayyad and Irani's MDL cut points; where they find none (MDL's criterion
    needs more evidence than a small sample gives), equal-frequency intervals,
    as many as the smaller of ``n_bins`` and the square root of the number of
    values (proportional k-interval discretization, Yang and Webb 2001, capped),
    so small samples get few intervals holding several values each.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(8.0)[:, None]
    >>> MDLFallbackDiscretizer().fit(x, [0, 0, 0, 0, 1, 1, 1, 1]).cut_points_[0].tolist()  # MDL's cut
    [3.5]
    >>> MDLFallbackDiscretizer().fit(x, [0, 1, 0, 1, 0, 1, 0, 1]).cut_points_[0].tolist()  # none: 2 equal bins
    [3.5]
    >>> MDLFallbackDiscretizer().fit(np.arange(100.0)[:, None], np.arange(100) % 2).cut_points_[0].size
    9
    """

    def __init__(self, n_bins=10):
        self.n_bins = n_bins

    _param_rules = {"n_bins": dict(kind="int", low=1)}

    def _table_ladder(self, values, counts):
        cuts, _ = super()._table_ladder(values, counts)
        n = int(round(counts.sum()))
        if cuts or n < 2:
            return cuts, None
        bins = max(1, min(self.n_bins, math.isqrt(n)))
        return equal_frequency_cuts(values, counts.sum(axis=1), bins), None


register_variant("discretizer", "mdl_fallback", "MDL intervals; equal-frequency ones (at most n_bins, about "
                 "sqrt(n)) where MDL finds no cut", MDLFallbackDiscretizer)
