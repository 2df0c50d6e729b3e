"""The rows discriminative weights are fitted and chosen on: a chunk's training rows, and the sample
that ``penalty="auto"`` chooses on (in memory a stratified sample; from chunks the rows whose hash of
their values falls below a rate, so the same rows whatever the chunking, and on Dask); and the hash of
a row's position a selection's sample is drawn by (:func:`position_keys`)."""

import numpy as np

from ..exceptions import ParameterError
from ..learning.sources import OneTable, encoded, map_reduce

__all__ = ["choice_sample", "position_keys", "row_keys", "rows_of", "stacked", "training_chunk"]


def training_chunk(chunk, model):
    """A chunk encoded, with its class codes and row weights (ones where it has none)."""
    table, y, weight = encoded(chunk, model.schema_, model.classes_)
    if not (y >= 0).all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    return table, y, np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)


def _mix(h):
    """MurmurHash3's 64-bit finalizer (every input bit reaches every output bit)."""
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def row_keys(table, seed):
    """A number in [0, 1) per row from its values and ``seed`` alone (a hash): the same row gets the
    same number in whatever chunk it comes.

    Examples
    --------
    >>> from seminaive.data.encoding import EncodedTable
    >>> t = EncodedTable(np.array([[0], [1], [0]]), np.zeros((3, 0)), ())
    >>> k = row_keys(t, 7)
    >>> bool(k[0] == k[2] and k[0] != k[1] and ((k >= 0) & (k < 1)).all())
    True
    """
    h = np.full(table.n_samples, seed, dtype=np.uint64)
    for col in table.codes.T:
        h = _mix(h ^ _mix(col.astype(np.int64).view(np.uint64) + np.uint64(1)))
    for col in table.numeric.T:
        h = _mix(h ^ _mix(np.where(np.isnan(col), -1.0, col + 0.0).view(np.uint64)))
    return (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def position_keys(start, n, seed):
    """A number in [0, 1) per row from its position (rows ``start`` to ``start + n - 1`` of the data)
    and ``seed`` alone: the same row gets the same number whatever the chunks it comes in.

    Examples
    --------
    >>> k = position_keys(0, 6, 7)
    >>> bool((k[2:4] == position_keys(2, 2, 7)).all() and ((k >= 0) & (k < 1)).all() and len(set(k)) == 6)
    True
    """
    h = _mix(np.arange(start, start + n, dtype=np.uint64) ^ _mix(np.array([seed], dtype=np.uint64) + np.uint64(1)))
    return (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def rows_of(table, rows):
    """The rows ``rows`` of an encoded table."""
    return type(table)(table.codes[rows], table.numeric[rows], table.unseen)


def _sampled(chunk, model, rate):
    """A chunk's rows whose key (:func:`row_keys`) falls below ``rate``, with their classes and weights."""
    table, y, sw = training_chunk(chunk, model)
    rows = np.flatnonzero(row_keys(table, model.random_state) < rate)
    return rows_of(table, rows), y[rows], sw[rows]


def stacked(a, b):
    """Two parts' (encoded table, class codes, weights or None) one after the other."""
    return (type(a[0])(np.concatenate([a[0].codes, b[0].codes]), np.concatenate([a[0].numeric, b[0].numeric]),
                       a[0].unseen + b[0].unseen), np.concatenate([a[1], b[1]]),
            None if a[2] is None else np.concatenate([a[2], b[2]]))


def _stratified(y, most, seed):
    """At most ``most`` rows, stratified by class (all of them when there are no more)."""
    if y.size <= most:
        return np.arange(y.size)
    from sklearn.model_selection import train_test_split
    rows, _ = train_test_split(np.arange(y.size), train_size=most, random_state=seed,
                               stratify=y if np.bincount(y).min() >= 2 else None)
    return np.sort(rows)


def choice_sample(model, source, most):
    """About ``most`` of a source's training rows, (encoded table, class codes, weights or None): in
    memory a stratified sample (every row in order when there are no more), from chunks the rows whose
    key falls below ``most`` / rows."""
    if isinstance(source, OneTable):
        table, y, weight = source.chunk
        rows = _stratified(y, most, model.random_state)
        return rows_of(table, rows), y[rows], None if weight is None else weight[rows]
    rate = min(1.0, most / max(float(model.class_count_.sum()), 1.0))
    return map_reduce(source, _sampled, stacked, model, rate)
