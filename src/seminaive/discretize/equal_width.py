"""Equal-width binning: k intervals of equal width over the training range."""

import numpy as np

from .base import Discretizer
from ..registry import register_variant

__all__ = ["EqualWidthDiscretizer", "equal_width_cuts"]


class EqualWidthDiscretizer(Discretizer):
    """Cut the training range [min, max] into ``n_bins`` intervals of width
    (max - min) / n_bins (the BSEJ project 000, Eq. 4.6).

    Examples
    --------
    The ages of Example 4.1 in five intervals:

    >>> ages = np.array([0, 5, 6, 10, 17, 19, 23, 27, 30, 31, 32, 35, 39.0])[:, None]
    >>> d = EqualWidthDiscretizer(n_bins=5).fit(ages)
    >>> d.cut_points_[0].round(2).tolist()
    [7.8, 15.6, 23.4, 31.2]
    >>> d.transform(ages)[:, 0].astype(int).tolist()
    [0, 0, 0, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    """

    def __init__(self, n_bins=10):
        self.n_bins = n_bins

    _param_rules = {"n_bins": dict(kind="int", low=1)}

    table_based = True

    def _table_ladder(self, values, counts):
        return (equal_width_cuts(values[0], values[-1], self.n_bins) if values.size else np.array([])), None


def equal_width_cuts(lo, hi, n_bins):
    """The ``n_bins - 1`` cut points splitting [lo, hi] into equal widths (none when
    the range is empty or not finite); no overflow where hi - lo exceeds the float range."""
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo == hi:
        return np.array([])
    t = np.arange(1, n_bins) / n_bins
    return lo * (1 - t) + hi * t


register_variant("discretizer", "equal_width", "equal-width intervals between the minimum and the maximum (n_bins)",
                 EqualWidthDiscretizer)
