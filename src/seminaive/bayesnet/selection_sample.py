"""The rows a selection scores its candidates on when the data hold more than ``selection_rows``
(:class:`~.skdb.SelectiveKDB`): those whose position, hashed with the model's seed, falls below
``selection_rows`` / rows, the same rows in memory and from any chunks (a file's, Dask's, DuckDB's,
Spark's, whose partitions know their first row's position once a pass has counted them). From chunks
the drawn rows are gathered in one pass and the selection runs on them in memory, so its passes (the
values met, the counts, the scores) read the sample, not the data; an ensemble's members, whose passes
are read together, run their selections one at a time on one thread (:func:`on_the_selection_thread`),
each holding its sample until its turn."""

import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..learning.sources import OneTable, encoded, map_reduce
from .weight_rows import position_keys, rows_of, stacked

__all__ = ["on_the_selection_thread", "selection_rate", "drawn_rows"]

_THREAD, _STARTING = [], [threading.Lock()]


def _forgotten():
    """In a forked child: no selection thread (a fork keeps only the thread that forked), a fresh lock."""
    _THREAD.clear()
    _STARTING[0] = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forgotten)


def on_the_selection_thread(fn):
    """``fn()`` run on this process's one selection thread, its result returned (its error raised) here.
    A selection in memory holds about 2 GB at k = 5 on 1M rows; run one at a time on one thread, the
    memory it lets go serves the next (each of an ensemble's twenty threads running its own would keep
    its own heap of freed memory: 22 GB at the peak, measured, against 2.5 GB for one).

    Examples
    --------
    >>> on_the_selection_thread(lambda: threading.current_thread().name.startswith("seminaive-selection"))
    True
    """
    with _STARTING[0]:
        if not _THREAD:
            _THREAD.append(ThreadPoolExecutor(1, thread_name_prefix="seminaive-selection"))
    return _THREAD[0].submit(contextvars.copy_context().run, fn).result()  # (the caller's progress stream)


def selection_rate(model, source):
    """The share of the rows a selection scores on: ``selection_rows`` over the rows (1: every row, as
    with k-fold ``cv``, whose folds cover them all); a source that does not know its rows (a Spark
    DataFrame before any pass) counts them in one pass."""
    most = getattr(model, "selection_rows", None)
    if most is None or model.get_params(deep=False).get("cv") is not None:
        return 1.0
    rows = source.chunk.y.size if isinstance(source, OneTable) else source.n_rows
    if rows is None:
        rows = map_reduce(source, _length, np.add)
    return min(1.0, most / max(int(rows), 1))


def _length(chunk):
    return len(chunk[1])


def _drawn(start, n, seed, rate):
    """Of ``n`` rows, the first at position ``start`` in the data, those whose key (a hash of their
    position and ``seed``: :func:`~.weight_rows.position_keys`) falls below ``rate``."""
    return np.flatnonzero(position_keys(start, n, seed) < rate)


def drawn_rows(model, source, rate):
    """The drawn rows of ``source`` (see the module's notes) in memory, as a source of one chunk
    (:class:`~seminaive.learning.sources.OneTable`): in memory taken from the table, from chunks
    gathered in one pass, in row order.

    Examples
    --------
    >>> from seminaive import SelectiveKDB
    >>> from seminaive.datasets import load
    >>> d = load("weather.nominal")
    >>> m = SelectiveKDB(random_state=3).fit(d)
    >>> one = OneTable(m._encode(d.X), np.searchsorted(m.classes_, d.y))
    >>> drawn_rows(m, one, 0.5).chunk.y.size == _drawn(0, 14, 3, 0.5).size
    True
    """
    if isinstance(source, OneTable):
        table, yc, weight = source.chunk
        rows = _drawn(0, yc.size, model.random_state, rate)
        return OneTable(rows_of(table, rows), yc[rows], None if weight is None else weight[rows])
    table, yc, weight = source.map_reduce_rows(_chunk_drawn, stacked, None, model, rate)
    return OneTable(table, yc, weight)


def _chunk_drawn(row, chunk, rows, model, rate):
    """A chunk's drawn rows (its first at position ``row``), encoded: (table, class codes, weights or None)."""
    X, y = chunk[0], chunk[1]
    keep = _drawn(row, len(y), model.random_state, rate)
    part = (X.iloc[keep], np.asarray(y)[keep]) + tuple(np.asarray(w)[keep] for w in chunk[2:3] if w is not None)
    return encoded(part, model.schema_, model.classes_)


# a pass of it brings rows to the driver: on a cluster (Spark's JVM holds a pass's results) each member's
# runs alone (:mod:`~seminaive.learning.shared_passes`); twenty members' 1M rows at once exhausted a 4 GB heap
_chunk_drawn.gathers_rows = True
