"""1R's discretization of a numeric attribute (Holte 1993; slides 003)."""

import numpy as np

from .._validation import check_param
from .base import Discretizer

__all__ = ["OneRDiscretizer", "one_r_buckets"]


def one_r_buckets(x, y, n_classes, min_bucket):
    """1R's partition of sorted values ``x`` with class codes ``y``.

    Walk the sorted instances, filling a bucket until its majority class has
    ``min_bucket`` instances; extend it while the next instance has the
    majority class or the same value (equal values are never separated).
    Each bucket's class is its majority; a tie goes to the tied class met
    first in the bucket. Neighbouring buckets with the same class merge.

    Returns ``(cuts, classes, counts)``: the cut points (midpoints), each
    interval's class and its (n_intervals, n_classes) class counts.
    """
    n = x.size
    buckets = []  # (start, stop)
    it = 0
    while it < n:
        start = it
        counts = np.zeros(n_classes, int)
        while it < n:
            counts[y[it]] += 1
            it += 1
            if counts.max() >= min_bucket:
                break
        majority = _majority(counts, y[start:it])
        while it < n and (y[it] == majority or x[it] == x[it - 1]):
            counts[y[it]] += 1
            it += 1
            majority = _majority(counts, y[start:it])
        buckets.append((start, it))
    cuts, classes, all_counts = [], [], []
    for start, stop in buckets:
        counts = np.bincount(y[start:stop], minlength=n_classes)
        cls = _majority(counts, y[start:stop])
        if classes and classes[-1] == cls:
            all_counts[-1] += counts
            continue
        if classes:
            cuts.append((x[start - 1] + x[start]) / 2)
        classes.append(cls)
        all_counts.append(counts)
    return cuts, classes, np.array(all_counts).reshape(-1, n_classes)


def _majority(counts, ys):
    top = np.flatnonzero(counts == counts.max())
    if top.size == 1:
        return int(top[0])
    for v in ys:  # tie: the tied class met first in the bucket
        if v in top:
            return int(v)
    return int(top[0])  # pragma: no cover


class OneRDiscretizer(Discretizer):
    """1R's supervised discretization with a minimum bucket size.

    Examples
    --------
    The weather data's temperature with buckets of at least 3 (slides 003):

    >>> t = np.array([85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71.0])[:, None]
    >>> play = ["no", "no", "yes", "yes", "yes", "no", "yes", "no", "yes", "yes", "yes", "yes", "yes", "no"]
    >>> OneRDiscretizer(min_bucket=3).fit(t, play).cut_points_[0].tolist()
    [77.5]
    """

    supervised = True

    def __init__(self, min_bucket=6):
        self.min_bucket = min_bucket

    def _check_params(self):
        check_param("min_bucket", self.min_bucket, kind="int", low=1)

    def _cut_points(self, x, y):
        if x.size == 0:
            return []
        return one_r_buckets(x, y, int(y.max()) + 1, self.min_bucket)[0]
