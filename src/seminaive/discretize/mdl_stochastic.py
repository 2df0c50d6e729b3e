"""Stochastic MDL discretization (Zhang, Petitjean and Buntine's ESKDB): cut points
drawn, not chosen, so that an ensemble's members see different intervals."""

import numpy as np

from .._scale import midpoint
from .base import value_counts
from .mdl import MDLDiscretizer, boundary_scores
from ..registry import register_variant

__all__ = ["StochasticMDLDiscretizer", "split_distribution"]


def split_distribution(x, y, n_classes, first=True):
    """The boundary positions of sorted values ``x`` (class codes ``y``) and the probability
    of drawing each: proportional to its information gain above the MDL threshold (Fayyad and Irani's,
    as :class:`MDLDiscretizer` applies it); where no boundary passes and ``first`` (the whole
    column), proportional to the gain itself, so a column with any gain gets one cut. Empty
    probabilities: no cut.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> pos, p = split_distribution(x, np.array([0, 0, 0, 1, 1, 1]), 2)
    >>> pos.tolist(), p.round(3).tolist()[2]
    ([0, 1, 2, 3, 4], 1.0)
    """
    values, counts = value_counts(x, y, n_classes)
    weight, _ = _weights(counts, first)
    total_weight = weight.sum()
    cand = np.cumsum(counts.sum(axis=1))[:-1].astype(np.int64) - 1  # each boundary's last row before it
    return cand, (weight / total_weight if total_weight > 0 else np.zeros(cand.size))


def _weights(counts, first):
    """The drawing weights of the boundaries between the distinct values whose class counts are
    ``counts`` (:func:`split_distribution`'s, unnormalized) and whether any passes the MDL test."""
    above, gain = _gains(counts)
    passes = above.sum() > 0
    return (above if passes or not first else np.maximum(gain, 0.0)), passes


def _gains(counts):
    """Each boundary's gain above the MDL threshold (0 below it) and its gain."""
    if counts.shape[0] < 2:
        return np.zeros(0), np.zeros(0)
    ent, above, whole = boundary_scores(counts)
    return above, whole - ent


class StochasticMDLDiscretizer(MDLDiscretizer):
    """MDL's recursive binary splits with each split drawn among the boundaries that pass the
    MDL test, with probability proportional to the gain above the threshold; the whole column
    always gets one cut if any boundary has information gain (drawn in proportion to it).
    ``random_state`` seeds the draws (the same seed, the same cuts).

    Examples
    --------
    >>> x = np.r_[np.arange(20.0), np.arange(20.0) + 30][:, None]
    >>> y = [0] * 20 + [1] * 20
    >>> StochasticMDLDiscretizer(random_state=1).fit(x, y).cut_points_[0].tolist()
    [24.5]
    """

    def __init__(self, random_state=0):
        self.random_state = random_state

    _param_rules = {"random_state": dict(kind="int", low=0)}

    def _table_ladder(self, values, counts):
        if counts.sum() < 2:
            return [], None
        cuts = []
        self._draw(values, counts, cuts, np.random.default_rng(self.random_state), True)
        return sorted(cuts), None

    def _draw(self, values, counts, cuts, rng, first):
        weight, passes = _weights(counts, first)
        if not weight.sum() > 0:
            return
        i = int(rng.choice(weight.size, p=weight / weight.sum()))
        cuts.append(midpoint(values[i], values[i + 1]))
        if not passes:
            return  # the column's one cut drawn by gain alone: no MDL split below it
        self._draw(values[:i + 1], counts[:i + 1], cuts, rng, False)
        self._draw(values[i + 1:], counts[i + 1:], cuts, rng, False)


register_variant("discretizer", "mdl_stochastic", "MDL splits drawn in proportion to their gain above the "
                 "threshold (ESKDB's stochastic discretization; random_state)", StochasticMDLDiscretizer)
