"""Intervals at the resolution the data support: a ladder of nested cut sets from coarse to fine,
each level's class-conditional table smoothed toward the level above it, and the level chosen per
attribute by exact leave-one-out.

The ladder of a column (its distinct values and their class counts):

- level 0 is one interval (no cut);
- level 1 is the supervised MDL intervals (:class:`~seminaive.discretize.MDLDiscretizer`; drawn as
  :class:`~seminaive.discretize.StochasticMDLDiscretizer` draws them in the stochastic variant);
  where MDL finds no cut, level 1 is the whole split at its median;
- level j + 1 splits every interval of level j that holds two distinct values or more at the
  boundary nearest its median row (at a drawn quantile between 1/4 and 3/4 in the stochastic
  variant), while the intervals number at most ``max_bins``. A column with few distinct values
  (integer codes, say) reaches one interval per value: it is offered as nominal too.

Level j's table is smoothed along the granularity: the probability of an interval b of level j,
inside the interval a of level j - 1, is its parent's times b's share of a, and that share, given
the class, backs off to its share of a's rows over all classes:

    P_j(b | c) = P_(j-1)(a | c) (n_j(b, c) + m s(b)) / (n_(j-1)(a, c) + m),
    s(b) = (n(b) + 1) / (n(a) + k_a)

(``k_a``: a's children; P_0 = 1). A coarse interval keeps its probability at every finer level,
and a fine interval where the class has few rows takes its coarse parent's probability shared
out as the rows are: fine cuts cost nothing where data are few.

The level and m (``concentrations``) are those of least leave-one-out log loss of the class given
the interval, P(c | b) proportional to P(c) P_j(b | c) with a Laplace class prior: a row left out
leaves every count (its cell's, its intervals', its class's), exactly, in one pass over the finest
level's cells (the ladder itself is built on all the rows). A coarser level within ``min_gain``
nats per row of the least loss is kept. The model's own tables are then estimated as the model
estimates them; a hierarchical estimator (HGS, the HDP, HLS) takes the ladder's coarser levels of
a parent as back-off levels of their own (:meth:`~.base.Discretizer.ladder_for` gives each cut's
level; :class:`~seminaive.estimation.Ladder`), so a fine interval's row of a table backs off to
its coarse interval's before the parent is dropped.
"""

import numpy as np

from .base import Discretizer
from .mdl import MDLDiscretizer
from .mdl_stochastic import StochasticMDLDiscretizer
from .._scale import midpoint
from ..registry import register_variant

__all__ = ["ResolutionDiscretizer", "StochasticResolutionDiscretizer", "ladder", "level_table", "resolution_scores",
           "choose_level"]

CONCENTRATIONS = (1.0, 4.0, 16.0, 64.0)


def _median_bounds(rows, bounds, rng):
    """The boundaries of the next level: ``bounds`` (boundary positions between distinct values,
    sorted) with every interval of two values or more split nearest its median row (a drawn
    quantile when ``rng``, one draw per such interval in order; a tie between two boundaries goes to
    the first); ``rows``: each distinct value's rows (each at least 1)."""
    edges = np.r_[0, bounds, rows.size].astype(np.int64)
    cum = np.r_[0.0, np.cumsum(rows)]
    lo, hi = edges[:-1], edges[1:]
    split = hi - lo >= 2
    lo, hi = lo[split], hi[split]
    if not lo.size:
        return np.asarray(bounds, dtype=np.int64)
    q = 0.5 if rng is None else rng.uniform(0.25, 0.75, size=lo.size)
    target = cum[lo] + q * (cum[hi] - cum[lo])
    right = np.clip(np.searchsorted(cum, target), lo + 1, hi - 1)  # the first boundary at or past the target
    left = np.maximum(right - 1, lo + 1)
    new = np.where(np.abs(cum[left] - target) <= np.abs(cum[right] - target), left, right)
    return np.union1d(bounds, new).astype(np.int64)


def ladder(values, counts, coarse, max_bins=64, rng=None):
    """The nested levels of a column whose distinct ``values`` have class ``counts`` (values, K):
    each level's boundary positions (p: a cut between values p - 1 and p), from level 0 (none)
    through ``coarse`` (level 1's positions; empty: the median split) to the finest of at most
    ``max_bins`` intervals.

    Examples
    --------
    >>> counts = np.ones((8, 1))
    >>> [b.tolist() for b in ladder(np.arange(8.0), counts, np.array([], dtype=np.int64), max_bins=4)]
    [[], [4], [2, 4, 6]]
    """
    rows = counts.sum(axis=1)
    levels = [np.zeros(0, dtype=np.int64)]
    nxt = np.asarray(coarse, dtype=np.int64) if len(coarse) else _median_bounds(rows, levels[0], rng)
    while nxt.size > levels[-1].size and nxt.size + 1 <= max_bins:
        levels.append(nxt)
        nxt = _median_bounds(rows, nxt, rng)
    return levels


def _level_counts(counts, bounds):
    """Class counts (intervals, K) of the intervals ``bounds`` make of the distinct values."""
    starts = np.r_[0, bounds].astype(np.int64)
    return np.add.reduceat(counts, starts, axis=0) if counts.shape[0] else counts


def level_table(counts, levels, j, m):
    """Level ``j``'s table P_j(b | c), (intervals, K), smoothed along the granularity with
    concentration ``m`` (the module's formula), from the distinct values' class ``counts``.

    Examples
    --------
    >>> counts = np.array([[4.0, 0.0], [0.0, 2.0], [1.0, 1.0], [0.0, 0.0]])
    >>> table = level_table(counts, [np.array([], dtype=int), np.array([2]), np.array([1, 2, 3])], 2, 1.0)
    >>> table.sum(axis=0).round(12).tolist()
    [1.0, 1.0]
    """
    prob = np.ones((1, counts.shape[1]))
    for level in range(1, j + 1):
        parent_of = np.searchsorted(levels[level - 1], np.r_[0, levels[level]], side="right")
        lc, pc = _level_counts(counts, levels[level]), _level_counts(counts, levels[level - 1])[parent_of]
        children = np.bincount(parent_of)[parent_of]
        share = (lc.sum(axis=1) + 1.0) / (pc.sum(axis=1) + children)
        prob = prob[parent_of] * (lc + m * share[:, None]) / (pc + m)
    return prob


def resolution_scores(counts, levels, concentrations=CONCENTRATIONS):
    """Leave-one-out log loss (summed over the rows) of the class given the interval, for every
    level of ``levels`` (as :func:`ladder` gives them) and every concentration: (levels, m).

    Examples
    --------
    >>> counts = np.array([[3.0, 0.0], [3.0, 0.0], [0.0, 3.0], [0.0, 3.0]])
    >>> scores = resolution_scores(counts, [np.array([], dtype=int), np.array([2])], (1.0,))
    >>> bool(scores[1, 0] < scores[0, 0])  # the cut that separates the classes
    True
    """
    levels = list(levels)
    k = counts.shape[1]
    fine = _level_counts(counts, levels[-1])  # the finest level's cells (F, K)
    fine_starts = np.r_[0, levels[-1]]
    # each finest interval's interval at every level
    where = [np.searchsorted(b, fine_starts, side="right") for b in levels]
    level_counts = [_level_counts(counts, b) for b in levels]
    totals = counts.sum(axis=0)  # n(c)
    n = totals.sum()
    f, y = np.nonzero(fine > 0)  # the occupied cells: rows of finest interval f, class y
    w = fine[f, y]
    own = np.eye(k)[y]  # (cells, K): the left-out row's class among the candidates c'
    class_left = totals[None, :] - own
    log_prior = np.log((class_left + 1.0) / (n - 1.0 + k))
    children = [None] + [np.bincount(np.searchsorted(levels[j - 1], np.r_[0, levels[j]], side="right"),
                                     minlength=level_counts[j - 1].shape[0]) for j in range(1, len(levels))]
    m = np.asarray(concentrations, dtype=np.float64)[:, None, None]  # every concentration at once
    out = np.zeros((len(levels), m.shape[0]))
    log_prob = np.zeros((m.shape[0], f.size, k))
    rows = np.arange(f.size)
    for j in range(len(levels)):
        if j > 0:
            lc, parent = level_counts[j], level_counts[j - 1]
            b, a = where[j][f], where[j - 1][f]
            share = lc.sum(axis=1)[b] / (parent.sum(axis=1)[a] - 1.0 + children[j][a])  # (n(b) - 1 + 1) / ...
            log_prob += np.log((lc[b] - own + m * share[:, None]) / (parent[a] - own + m))
        joint = log_prior + log_prob
        top = joint.max(axis=2, keepdims=True)
        post = joint[:, rows, y] - (top[:, :, 0] + np.log(np.exp(joint - top).sum(axis=2)))
        out[j] = -(post * w).sum(axis=1)
    return out


def choose_level(counts, levels, concentrations=CONCENTRATIONS, min_gain=0.001):
    """The level (index into ``levels``) of least leave-one-out log loss, except that a coarser
    level within ``min_gain`` nats per row of the least is kept (the coarsest such)."""
    best = resolution_scores(counts, levels, concentrations).min(axis=1) / max(counts.sum(), 1.0)
    return int(np.flatnonzero(best <= best.min() + min_gain)[0])


class ResolutionDiscretizer(Discretizer):
    """Each column's intervals at the level of its ladder (MDL's intervals, then every interval
    halved at its median, up to ``max_bins``) of least leave-one-out log loss of the class, each
    level's table smoothed toward the coarser one (see the module's notes).

    Parameters
    ----------
    max_bins : int, default 64
        The most intervals of a column.
    min_gain : float, default 0.001
        The leave-one-out log loss per row (nats) a finer level must save to be chosen over a
        coarser one: a margin against leave-one-out's noise, as finer intervals cost a model
        that conditions on the attribute some of its data.

    Examples
    --------
    >>> x = np.repeat(np.arange(8.0), 20)[:, None]
    >>> y = np.repeat([0, 1, 0, 1, 0, 1, 0, 1], 20)  # the class alternates: every value matters
    >>> ResolutionDiscretizer().fit(x, y).cut_points_[0].tolist()
    [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    >>> ResolutionDiscretizer().fit(x, np.repeat([0, 0, 0, 0, 1, 1, 1, 1], 20)).cut_points_[0].tolist()
    [3.5]
    """

    supervised = True

    def __init__(self, max_bins=64, min_gain=0.001):
        self.max_bins = max_bins
        self.min_gain = min_gain

    _param_rules = {"max_bins": dict(kind="int", low=1), "min_gain": dict(kind="number", low=0)}

    def _coarse(self, values, counts, rng):
        """Level 1's boundary positions: MDL's."""
        cuts = []
        MDLDiscretizer()._split(values, counts, cuts)
        return np.searchsorted(values, np.sort(cuts))

    def _rng(self):
        """The column's draws (None: no draws)."""
        return None

    table_based = True

    def _table_ladder(self, values, counts):
        """The cuts of the chosen level, each with the level of the ladder it first appears at."""
        if counts.sum() < 2:
            return [], []
        rng = self._rng()
        levels = ladder(values, counts, self._coarse(values, counts, rng) if self.max_bins > 1 else [],
                        self.max_bins, rng)
        chosen = choose_level(counts, levels, min_gain=self.min_gain)
        bounds = levels[chosen]
        first = np.zeros(bounds.size, dtype=np.int64)
        for j in range(chosen, 0, -1):  # nested: a cut of level j is in every finer level
            first[np.isin(bounds, levels[j])] = j
        return [float(midpoint(values[p - 1], values[p])) for p in bounds], first.tolist()


class StochasticResolutionDiscretizer(ResolutionDiscretizer):
    """:class:`ResolutionDiscretizer` with its ladder drawn (for an ensemble's members): level 1 as
    :class:`StochasticMDLDiscretizer` draws it, each finer split at a quantile drawn between 1/4
    and 3/4 of the interval's rows; ``random_state`` seeds the draws.

    Examples
    --------
    >>> x = np.arange(200.0)[:, None]
    >>> y = (np.arange(200) % 50 < 25).astype(int)  # four runs of each class
    >>> cuts = StochasticResolutionDiscretizer(random_state=3).fit(x, y).cut_points_[0]
    >>> len(cuts) >= 7
    True
    """

    def __init__(self, max_bins=64, min_gain=0.001, random_state=0):
        self.max_bins = max_bins
        self.min_gain = min_gain
        self.random_state = random_state

    _param_rules = {**ResolutionDiscretizer._param_rules, "random_state": dict(kind="int", low=0)}

    def _rng(self):
        return np.random.default_rng(self.random_state)  # every column from its seed, as every fit

    def _coarse(self, values, counts, rng):
        cuts = []
        StochasticMDLDiscretizer()._draw(values, counts, cuts, rng, True)
        return np.searchsorted(values, np.sort(cuts))


register_variant("discretizer", "resolution", "intervals at the resolution leave-one-out chooses per attribute, "
                 "from MDL's to halved again and again (max_bins)", ResolutionDiscretizer)
register_variant("discretizer", "resolution_stochastic", "resolution's ladder drawn (MDL splits drawn, halves at "
                 "drawn quantiles): ESKDB's members at their own resolution (random_state)",
                 StochasticResolutionDiscretizer)
