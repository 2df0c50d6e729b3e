"""The discretizer base: learn cut points per numeric column, map values to intervals.

Interval ``i`` of a column with cut points ``c`` is ``(c[i-1], c[i]]`` (the
first open to the left, the last to the right), so values outside the
training range fall into the end intervals. Missing values stay missing.
"""

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import ValidatedParams
from ..exceptions import ParameterError
from .interval_kernel import COMPILED_FROM, interval_codes

__all__ = ["Discretizer", "apply_cuts", "interval_labels", "row_counts", "value_counts"]


def apply_cuts(x, cuts):
    """Interval codes of the values ``x`` (int array, -1 where ``x`` is NaN).

    Examples
    --------
    >>> apply_cuts(np.array([1.0, 4.5, 4.6, np.nan, 99.0]), np.array([4.5, 7.0])).tolist()
    [0, 0, 1, -1, 2]
    """
    if x.ndim == 1 and x.shape[0] >= COMPILED_FROM:  # many values: the compiled count (the same codes)
        return interval_codes(x, cuts)
    codes = np.searchsorted(cuts, x, side="left")
    codes[np.isnan(x)] = -1
    return codes


def interval_labels(cuts, precision=4):
    """Readable interval names for cut points.

    Examples
    --------
    >>> interval_labels([77.5])
    ['<= 77.5', '> 77.5']
    >>> interval_labels([1, 2])
    ['<= 1', '(1, 2]', '> 2']

    Cut points that ``precision`` digits cannot tell apart get as many digits as
    it takes, so that no two intervals share a name:

    >>> interval_labels([2008.2, 2008.4])
    ['<= 2008.2', '(2008.2, 2008.4]', '> 2008.4']
    """
    cuts = [float(v) for v in cuts]
    if not cuts:
        return ["all"]
    for digits in range(precision, 18):
        c = [f"{v:.{digits}g}" for v in cuts]
        if len(set(c)) == len(set(cuts)):
            break
    return [f"<= {c[0]}"] + [f"({a}, {b}]" for a, b in zip(c, c[1:])] + [f"> {c[-1]}"]


def value_counts(x, y, n_classes, weight=None):
    """The distinct values of sorted ``x`` and their class counts (values, K), from the rows' class
    codes ``y`` (``weight``: how many rows each entry stands for; None: one each): a split can fall
    only between distinct values, so the splits work on this table, not on the rows.

    Examples
    --------
    >>> v, c = value_counts(np.array([1.0, 1.0, 2.0]), np.array([0, 1, 1]), 2)
    >>> v.tolist(), c.tolist()
    ([1.0, 2.0], [[1.0, 1.0], [0.0, 1.0]])
    """
    if x.size == 0:
        return x[:0].copy(), np.zeros((0, n_classes))
    new = np.r_[True, x[1:] > x[:-1]]
    starts = np.flatnonzero(new)
    cell = (np.cumsum(new) - 1) * n_classes + y
    counts = np.bincount(cell, weights=weight, minlength=starts.size * n_classes).astype(np.float64)
    return x[starts], counts.reshape(starts.size, n_classes)


def row_counts(weight):
    """How many rows each weighted entry stands for: whole weights repeat it, fractional ones count
    it once where positive (the one rule for weights a discretizer reads).

    Examples
    --------
    >>> row_counts(np.array([2.0, 0.0, 1.0])).tolist(), row_counts(np.array([0.5, 0.0])).tolist()
    ([2, 0, 1], [1, 0])
    """
    weight = np.asarray(weight)
    return weight.astype(np.int64) if np.all(weight == np.round(weight)) else (weight > 0).astype(np.int64)


class Discretizer(ValidatedParams, TransformerMixin, BaseEstimator):
    """Base class: subclasses implement ``_cut_points(x, y)`` for one column's
    present values ``x`` (sorted) and their classes ``y`` (codes, or None), or, where the
    cuts depend on the table of distinct values and class counts alone (``table_based``),
    ``_table_ladder(values, counts)``.

    Examples
    --------
    >>> from seminaive.discretize import EqualWidthDiscretizer
    >>> EqualWidthDiscretizer(n_bins=2).fit([[0.0], [1.0], [4.0]]).transform([[0.5], [3.0]]).tolist()
    [[0.0], [1.0]]
    """

    supervised = False
    table_based = False  # reads only the sorted distinct values and their class counts (_table_ladder)

    def fit(self, X, y=None):
        """Learn the cut points of every column from training data only."""
        self._check_params()
        X = validate_data(self, X, ensure_all_finite="allow-nan", dtype=np.float64)
        if self.supervised:
            if y is None:
                raise ParameterError(f"y: {type(self).__name__} is supervised and needs the class labels")
            _, codes = np.unique(np.asarray(y), return_inverse=True)
        self.cut_points_ = [self.cuts_for(X[:, j], codes if self.supervised else None)
                            for j in range(X.shape[1])]
        return self

    def cuts_for(self, x, y=None):
        """Cut points for one column ``x`` (NaN = missing) with class codes ``y``."""
        return self.ladder_for(x, y)[0]

    def ladder_for(self, x, y=None, weight=None):
        """:meth:`cuts_for`, and the level of a ladder of nested cuts at which each cut appears
        (ints from 1, coarse to fine; None for a discretizer without a ladder): the cuts of the
        levels up to l are the intervals at level l. ``weight``: how many rows each entry stands
        for (whole numbers; fractional weights count an entry once where positive): a discretizer
        that reads only its table of distinct values and class counts (``table_based``) builds it
        from them, with no row repeated (memory in the distinct values, not the rows); the others
        read each entry repeated."""
        self._check_params()
        keep = ~np.isnan(x)
        if weight is not None:
            weight = row_counts(weight)
            keep &= weight > 0
        order = np.argsort(x[keep], kind="stable")
        xs = x[keep][order]
        ys = np.asarray(y)[keep][order] if y is not None else None
        ws = None if weight is None else weight[keep][order]
        if self.table_based:
            cuts, levels = self._table_ladder(*self._table(xs, ys, ws))
        else:
            if ws is not None:
                xs, ys = np.repeat(xs, ws), None if ys is None else np.repeat(ys, ws)
            cuts, levels = self._ladder_points(xs, ys)
        return np.asarray(cuts, dtype=np.float64), None if levels is None else np.asarray(levels, dtype=np.int64)

    def _ladder_points(self, x, y):
        """The cut points of sorted ``x`` and their levels (None: no ladder)."""
        return self._cut_points(x, y), None

    def _table(self, x, y, weight=None):
        """A table-based discretizer's table of sorted ``x`` (:func:`value_counts`; ``y`` None: every row
        of one class), once :meth:`_check_table` has passed."""
        y = np.zeros(x.size, dtype=np.int64) if y is None else y
        k = int(y.max()) + 1 if y.size else 1
        self._check_table(x, k)
        return value_counts(x, y, k, weight)

    def _check_table(self, x, n_classes):
        """Refuse, before it is built, a table the machine cannot hold (sorted values ``x``)."""

    def _cut_points(self, x, y):
        """The cut points of sorted ``x`` (class codes ``y``), of a discretizer that is not table-based."""
        raise NotImplementedError

    def _table_ladder(self, values, counts):
        """A table-based discretizer's cut points and levels (None: no ladder) from the sorted distinct
        ``values`` and their class counts ``counts`` (values, K)."""
        raise NotImplementedError

    def transform(self, X):
        """Interval codes as floats (NaN where missing)."""
        check_is_fitted(self, "cut_points_")
        X = validate_data(self, X, ensure_all_finite="allow-nan", dtype=np.float64, reset=False)
        out = np.empty_like(X)
        for j, cuts in enumerate(self.cut_points_):
            codes = apply_cuts(X[:, j], cuts).astype(np.float64)
            codes[codes < 0] = np.nan
            out[:, j] = codes
        return out

    def intervals(self, j=0):
        """The intervals of column ``j``, as readable labels."""
        check_is_fitted(self, "cut_points_")
        return interval_labels(self.cut_points_[j])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.target_tags.required = self.supervised
        return tags
