"""Integer codes read as what they are: a numeric column of few distinct values (a code, a count, a
rating) is offered two readings, the discretizer's intervals and one interval per value, and the one
whose exact leave-one-out log-likelihood is higher is kept. "Few" is at most 64 distinct values,
whole numbers or not, so that the offer does not depend on the column's units.

The score is the family's exact leave-one-out (:func:`~seminaive.estimation.loo_class_log_prior` and
:meth:`~seminaive.estimation.Frequency.loo_conditional`, Laplace estimates) of the class given that
attribute alone: each row's probability of its class from the counts less its own. It reads only the
table of distinct values and their class counts, which every source hands the discretizers alike (the
rows in memory, a file's chunks, Parquet, Dask), so the choice is the same from each. A row that
counts ``w`` times (whole weights) is ``w`` rows, each left out in turn.

One interval per value cuts halfway between neighbouring values, so an unseen value between two seen
ones falls to the nearer one (rather than being missing, as an unseen nominal value is).
"""

import numpy as np

from .._scale import midpoint
from ..estimation import Frequency, loo_class_log_prior
from .base import apply_cuts, row_counts, value_counts

__all__ = ["CODES", "MAX_VALUES", "few_values", "value_cuts", "value_table", "reading_score", "choose_reading"]

CODES = ("auto", "numbers", "values", "column")  # the choice, the model's numeric reading always, one interval
# per value always, each column's own leave-one-out without a selection's confirmation (a model without a
# selection's "auto")
MAX_VALUES = 64  # a column with more distinct values keeps its numeric reading


def few_values(x, most=MAX_VALUES):
    """The sorted distinct values of ``x`` (NaN ignored) if there are at least two and at most
    ``most`` of them, all finite; None otherwise. Whole numbers or not: a column's units (a code
    times 0.1, a rating in halves) do not change whether it is offered.

    Examples
    --------
    >>> few_values(np.array([3.0, 1.0, np.nan, 3.0])).tolist()
    [1.0, 3.0]
    >>> few_values(np.array([0.5, 1.0])).tolist(), few_values(np.arange(100.0)) is None
    ([0.5, 1.0], True)
    """
    x = np.asarray(x, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0 or not np.all(np.isfinite(x)):
        return None
    v = np.unique(x)
    return v if 2 <= v.size <= most else None


def value_cuts(values):
    """Cut points giving each of the sorted distinct ``values`` its own interval: halfway between
    neighbours.

    Examples
    --------
    >>> value_cuts(np.array([1.0, 2.0, 5.0])).tolist()
    [1.5, 3.5]
    >>> value_cuts(np.array([1e308, 1.5e308])).tolist()
    [1.25e+308]
    """
    values = np.asarray(values, dtype=np.float64)
    return midpoint(values[:-1], values[1:])  # no overflow at the largest magnitudes


def value_table(x, y, weight=None):
    """(sorted distinct values, their class counts (values, K)) of the present values ``x`` of the
    rows with a class (codes ``y``; whole ``weight`` repeats rows, fractional counts presence).

    Examples
    --------
    >>> v, c = value_table(np.array([2.0, 1.0, np.nan, 2.0]), np.array([1, 0, 0, 1]))
    >>> v.tolist(), c.tolist()
    ([1.0, 2.0], [[1.0, 0.0], [0.0, 2.0]])
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.int64)
    ok = ~np.isnan(x) & (y >= 0)
    w = None if weight is None else row_counts(np.asarray(weight)[ok]).astype(np.float64)
    order = np.argsort(x[ok], kind="stable")
    return value_counts(x[ok][order], y[ok][order], int(y.max()) + 1 if y.size else 0,
                        None if w is None else w[order])


def reading_score(table, cuts, alpha=1.0, priors="laplace"):
    """Exact leave-one-out log-likelihood of the class given one attribute read through ``cuts``,
    from ``table`` = (sorted distinct values, their class counts (values, K)).

    Examples
    --------
    Two values that each hold one class score better read apart than together:

    >>> t = (np.array([1.0, 2.0]), np.array([[3.0, 0.0], [0.0, 3.0]]))
    >>> bool(reading_score(t, np.array([1.5])) > reading_score(t, np.array([])))
    True
    """
    values, counts = table
    k = counts.shape[1]
    m = np.asarray(cuts).size + 1
    codes = apply_cuts(values, np.asarray(cuts, dtype=np.float64))
    cells = np.zeros((m, k))
    np.add.at(cells, codes, counts)
    child, cls = np.nonzero(cells)  # each present (interval, class) cell, its rows alike
    n = cells[child, cls]
    cond = Frequency(alpha=alpha).loo_conditional(cells.T[:, None, :], child, np.zeros_like(child), cls, m)
    joint = cond + loo_class_log_prior(cells.sum(axis=0), cls, priors)
    top = joint.max(axis=1, keepdims=True)
    log_post = joint[np.arange(cls.size), cls] - (top[:, 0] + np.log(np.exp(joint - top).sum(axis=1)))
    return float(np.dot(n, log_post))


def choose_reading(x, y, weight, cuts, levels=None, codes="auto", most=MAX_VALUES):
    """``(cuts, levels, reading)``: the discretizer's ``cuts`` (with their ladder's ``levels``) or one
    interval per value (no ladder) for the values ``x`` with class codes ``y`` (``weight``: whole
    weights repeat rows), by ``codes``: "auto" (the higher :func:`reading_score`; a tie keeps the
    intervals), "numbers" (the intervals) or "values" (wherever :func:`few_values` allows).
    ``reading`` is "values" or "numbers".

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0] * 4)
    >>> y = np.array([0, 1, 0] * 4)
    >>> cuts, levels, reading = choose_reading(x, y, None, np.array([]))
    >>> cuts.tolist(), reading
    ([1.5, 2.5], 'values')
    """
    if codes == "numbers" or y is None:
        return cuts, levels, "numbers"
    values = few_values(x, most)
    if values is None:
        return cuts, levels, "numbers"
    mine = value_cuts(values)
    if codes == "values":
        return mine, None, "values"
    table = value_table(x, y, weight)
    if table[0].size < 2:
        return cuts, levels, "numbers"
    if reading_score(table, mine) > reading_score(table, cuts):
        return mine, None, "values"
    return cuts, levels, "numbers"
