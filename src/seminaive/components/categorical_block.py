"""Nominal attributes as one block: their counts (attributes, K, width) and log-probability
tables (attributes, width + 1, K), padded to the widest, estimated and applied without a
Python step per attribute.

:class:`~seminaive.components.Categorical` components are the per-attribute form; their
prediction gathers from the same stacked tables (:func:`add_tables`), so both forms give the
same numbers to the last bit.
"""

import numpy as np

from ..core.counting import count_codes
from ..estimation.frequency import Frequency

__all__ = ["CategoricalBlock", "add_tables", "stack_tables"]

_CELLS = 1 << 17  # codes per chunk of rows (rows x attributes)


class CategoricalBlock:
    """Nominal attributes counted, estimated and applied together.

    Parameters
    ----------
    attributes, columns : sequence of int
        The attributes' indices in the schema and their columns of the codes block.
    n_values : sequence of int
        Each attribute's number of values.
    counts : ndarray of shape (attributes, K, width)
        Per attribute, class and value the (whole) counts, zero beyond each one's values.

    Examples
    --------
    >>> from seminaive.data import EncodedTable
    >>> from seminaive.estimation import Frequency
    >>> t = EncodedTable(np.array([[0, 1], [1, 2], [1, -1]]), np.empty((3, 0)), np.zeros(2))
    >>> counts = np.array([[[1, 0, 0], [0, 2, 0]], [[0, 1, 0], [0, 0, 1]]], dtype=float)
    >>> b = CategoricalBlock([0, 1], [0, 1], [2, 3], counts)
    >>> b.rows()[0]["counts"].tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    >>> b.estimate(Frequency(alpha=1))
    True
    >>> np.exp(b.add_log_likelihood(t, np.zeros((3, 2)))).round(3).tolist()[2]  # the second value missing
    [0.333, 0.75]
    """

    def __init__(self, attributes, columns, n_values, counts):
        self.attributes = np.asarray(attributes, dtype=np.intp)
        self.columns = np.asarray(columns, dtype=np.intp)
        self.n_values = np.asarray(n_values, dtype=np.intp)
        self.counts = counts

    def __len__(self):
        return self.attributes.size

    @classmethod
    def count(cls, attributes, columns, n_values, codes, y, n_classes, weight):
        """The counts of the attributes whose codes are the columns of ``codes`` (n, attributes),
        by one pass of the counting primitive."""
        width = int(np.max(n_values, initial=0))
        counts = count_codes(codes, width, y, n_classes, weight=weight)[:, 0, :, 0]
        return cls(attributes, columns, n_values, counts)

    def whole(self):
        """Whether every count is a whole number (then their sums are exact in any order, and the
        block's estimates are its attributes' own to the last bit)."""
        return bool((self.counts % 1 == 0).all())

    def merge(self, other):
        """The block of the union of two parts' data (the same attributes): the counts add."""
        return CategoricalBlock(self.attributes, self.columns, self.n_values, self.counts + other.counts)

    def rows(self):
        """One statistics dict per attribute: views of its counts, (K, n_values)."""
        return [{"counts": c[:, :m]} for c, m in zip(self.counts, self.n_values.tolist())]

    def estimate(self, estimator):
        """Every attribute's table by one call of the estimator on the stacked counts, where it
        smooths each class's counts by themselves as Lidstone's (``Frequency``, and the
        Normal-Gamma estimator, which keeps its nominal rule); False, estimating nothing, for
        any other (the m-estimate reads an attribute's counts over all classes: the
        per-attribute components then estimate themselves)."""
        kind = type(estimator)
        if kind.categorical is not Frequency.categorical or kind._pseudo is not Frequency._pseudo:
            return False
        d, k, width = self.counts.shape
        m = np.repeat(self.n_values, k)[:, None]
        logp = estimator.categorical(self.counts.reshape(d * k, width), m)  # row by row, as each table's own
        self.tables = np.zeros((d, width + 1, k))  # code -1 (missing) reads the last row: 0
        self.tables[:, :width, :] = logp.reshape(d, k, width).transpose(0, 2, 1)
        return True

    def install(self, comps):
        """Give ``comps`` (one Categorical per row, in order) their tables from the block's."""
        for c, t, m in zip(comps, self.tables, self.n_values.tolist()):
            c.log_table_ = np.vstack([t[:m], t[-1:]])

    def log_likelihoods(self, table):
        """Every attribute's log-probability of the rows of ``table``, (n, attributes, K) (0 where a
        value is missing)."""
        return self.tables[np.arange(len(self))[None, :], table.codes[:, self.columns]]  # -1: the last row, 0

    def add_log_likelihood(self, table, out):
        """Add every attribute's log-probability of the rows of ``table`` to ``out`` (n, K)."""
        return add_tables(table.codes, self.columns, self.tables, out)


def stack_tables(tables):
    """Per-attribute log-probability tables ((values + 1, K), the last row for a missing value)
    stacked as one (attributes, widest + 1, K) array, each one's missing row last."""
    width = max(t.shape[0] for t in tables) - 1
    out = np.zeros((len(tables), width + 1, tables[0].shape[1]))
    for j, t in enumerate(tables):
        out[j, :t.shape[0] - 1] = t[:-1]
        out[j, -1] = t[-1]
    return out


def add_tables(codes, cols, tables, out):
    """Add to ``out`` (n, K) the sum over attributes of ``tables[j, code]`` for each row's code of
    column ``cols[j]`` of ``codes`` (-1, missing, reads each table's last row), by chunks of rows
    gathered from the stacked tables at once.

    Examples
    --------
    >>> tables = np.array([[[0.0], [1.0], [0.0]], [[10.0], [20.0], [0.0]]])  # 2 attributes, 2 values, 1 class
    >>> add_tables(np.array([[1, 0], [-1, 1]]), [0, 1], tables, np.zeros((2, 1))).tolist()
    [[11.0], [20.0]]
    """
    cols = np.asarray(cols, dtype=np.intp)
    d, rows_per, k = tables.shape
    if not d:
        return out
    whole = cols.size == codes.shape[1] and (cols == np.arange(cols.size)).all()
    flats = [np.ascontiguousarray(tables[:, :, c]).ravel() for c in range(k)]  # one class's tables, flat
    base = np.arange(d, dtype=np.intp) * rows_per
    step = max(1, _CELLS // d)
    idx = np.empty((min(step, codes.shape[0]), d), dtype=np.intp)  # row-major whatever the codes' order
    for s in range(0, codes.shape[0], step):
        c = codes[s:s + step] if whole else codes[s:s + step, cols]
        i = idx[:c.shape[0]]
        i[...] = c
        i[c < 0] = rows_per - 1
        i += base
        for j, flat in enumerate(flats):  # a row's attributes summed along the row, the same in every path
            out[s:s + step, j] += np.take(flat, i).sum(axis=1)
    return out
