"""1R's discretization of a numeric attribute (Holte 1993; slides 003)."""

import numpy as np

from .._scale import midpoint
from .base import Discretizer
from ..registry import register_variant

__all__ = ["OneRDiscretizer", "one_r_buckets", "TIES"]


TIES = ("class_order", "first_met")


def one_r_buckets(x, y, n_classes, min_bucket, weight=None, ties="class_order"):
    """1R's partition of sorted values ``x`` with class codes ``y``, as Weka's
    OneR (3.6, by the authors of the slides 003) makes it:

    1. one bucket per distinct value, with its class counts;
    2. walking up, a bucket joins the one before it while that one's
       majority count is below ``min_bucket`` or both have the same majority
       class (so equal values are never separated);
    3. neighbours with the same majority class join.

    A bucket's class is its majority; a tie goes to the first class in the
    class order (Weka), or with ``ties="first_met"`` to the tied class met
    first in the bucket's sorted instances. ``weight`` (copies per instance)
    counts like repeated rows.

    Returns ``(cuts, classes, counts)``: the cut points (midpoints between
    neighbouring values; a value at a cut belongs to the interval above it),
    each interval's class and its (n_intervals, n_classes) class counts.

    Examples
    --------
    The weather data's temperature with a minimum of 3: the buckets
    64-70 (4 yes, 1 no), 71-75 (3 yes, 2 no) and 80-85 (2 and 2) all say yes,
    so Weka keeps one interval.

    >>> t = np.array([64, 65, 68, 69, 70, 71, 72, 72, 75, 75, 80, 81, 83, 85.0])
    >>> play = np.array([0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1])  # 0 = yes, 1 = no
    >>> one_r_buckets(t, play, 2, 3)[:2]
    ([], [0])
    """
    w = np.ones(x.size) if weight is None else np.asarray(weight, dtype=np.float64)
    if x.size == 0:
        return [], [], np.zeros((0, n_classes))
    new = np.r_[True, x[1:] > x[:-1]]
    first = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    counts = np.zeros((first.size, n_classes))
    np.add.at(counts, (group, y), w)
    bounds = np.r_[first, x.size]

    def majority(c, lo, hi):
        top = np.flatnonzero(c == c.max())
        if top.size == 1 or ties == "class_order":
            return int(top[0])
        return next(int(v) for v in y[lo:hi] if v in top)

    def join_same(buckets, also=None):
        out = []
        for lo, hi, c in buckets:
            if out:
                plo, _, pc = out[-1]
                pm = majority(pc, plo, lo)
                if majority(c, lo, hi) == pm or (also is not None and pc[pm] < also):
                    out[-1] = (plo, hi, pc + c)
                    continue
            out.append((lo, hi, c))
        return out

    buckets = join_same([(bounds[g], bounds[g + 1], counts[g]) for g in range(first.size)], also=min_bucket)
    buckets = join_same(buckets)
    cuts = [float(midpoint(x[lo - 1], x[lo])) for lo, _, _ in buckets[1:]]
    classes = [majority(c, lo, hi) for lo, hi, c in buckets]
    return cuts, classes, np.array([c for _, _, c in buckets]).reshape(-1, n_classes)


class OneRDiscretizer(Discretizer):
    """1R's supervised discretization with a minimum bucket size (see
    :func:`one_r_buckets`; ``ties`` as there).

    Examples
    --------
    The weather data's temperature with buckets of at least 3 (slides 003).
    The classes are in sorted order here (no, yes), so the last bucket's 2-2
    tie goes to no and the cut at 77.5 stays, the book's answer (with yes
    first, as the data declare, Weka keeps one interval: see
    :class:`~seminaive.rules.OneR`):

    >>> t = np.array([85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71.0])[:, None]
    >>> play = ["no", "no", "yes", "yes", "yes", "no", "yes", "no", "yes", "yes", "yes", "yes", "yes", "no"]
    >>> OneRDiscretizer(min_bucket=3).fit(t, play).cut_points_[0].tolist()
    [77.5]
    """

    supervised = True

    def __init__(self, min_bucket=6, ties="class_order"):
        self.min_bucket = min_bucket
        self.ties = ties

    _param_rules = {"min_bucket": dict(kind="int", low=1), "ties": dict(options=TIES)}

    def _cut_points(self, x, y):
        if x.size == 0:
            return []
        return one_r_buckets(x, y, int(y.max()) + 1, self.min_bucket, ties=self.ties)[0]


register_variant("discretizer", "1r", "Holte's 1R intervals (min_bucket)", OneRDiscretizer)
