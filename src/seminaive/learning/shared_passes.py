"""Several fits over one source in one set of passes: an ensemble's members read the data
together.

Each fit runs as it would alone, in its own thread, against a stand-in for the source
(:class:`_Member`). When it asks for a pass (``map_reduce_rows``, which every pass of every
source goes through), it waits; once every fit still running is waiting, the source runs *one*
pass whose function gives, on each chunk, the tuple of every waiting fit's own result, combined
element by element with each fit's own ``combine`` (:func:`together`). Each fit then gets exactly
what its pass alone would have given (the same function on the same chunks, combined in the same
order), so the fits equal the fits made one after the other, bit for bit, from memory, files,
Parquet, Dask, DuckDB or Spark: only the reading is shared. A pass that cuts an array of one
entry per row (k-fold labels) runs on its own.

The fits' work between passes is Python's (one thread at a time, as one after the other would
be); what is shared is the reading and decoding of the rows, and the number of passes. Within a
pass on this machine the fits' parts of a chunk are computed on one thread per usable core (their
compiled loops release the GIL); a cluster's tasks (Dask, Spark) compute them one after the other,
the cluster's own workers being the parallelism.

Examples
--------
>>> from seminaive.learning.data_source import MemorySource
>>> import pandas as pd
>>> source = MemorySource(pd.DataFrame({"x": ["a", "b", "a", "b"]}), ["u", "v", "v", "v"], chunksize=2)
>>> rows = lambda chunk: len(chunk[1])
>>> fits = [lambda s: s.labels().tolist(), lambda s: s.map_reduce(rows, lambda a, b: a + b)]
>>> SharedPasses(source).run(fits), source.passes  # two fits, one pass over the two chunks
([['u', 'v', 'v', 'v'], 4], 1)
"""

import contextvars
import functools
import threading
from concurrent.futures import ThreadPoolExecutor

from .._jit import usable_cores
from .data_source import DataSource

__all__ = ["SharedPasses", "together"]


class _Cancelled(Exception):
    """A fit stopped because another one, or a shared pass, failed (never seen outside)."""


class _Request:
    def __init__(self, fn, combine, rows, args):
        self.fn, self.combine, self.rows, self.args = fn, combine, rows, args
        self.result, self.error, self.done = None, None, threading.Event()


def together(row, chunk, rows, calls, threads=1):
    """Every call's result on one chunk: ``fn(row, chunk, None, *args)`` for each ``(fn, args)``, on
    ``threads`` threads (each call's result its own: the same on any number)."""
    if threads > 1 and len(calls) > 1:
        with ThreadPoolExecutor(min(threads, len(calls))) as pool:
            return tuple(pool.map(lambda call: call[0](row, chunk, None, *call[1]), calls))
    return tuple(fn(row, chunk, None, *args) for fn, args in calls)


def _combine_each(combines, a, b):
    return tuple(c(x, z) for c, x, z in zip(combines, a, b))


class _Member(DataSource):
    """The source as one fit sees it: every attribute the source's own, a pass a request that waits
    for the shared pass."""

    def __init__(self, shared, index):
        self._shared, self._index = shared, index

    def __getattr__(self, name):
        return getattr(self._shared.source, name)

    grouped_triples = grouped_values = None  # a source's own counts (DuckDB's GROUP BY): not in a shared pass

    in_memory = property(lambda self: self._shared.source.in_memory)
    n_rows = property(lambda self: self._shared.source.n_rows)
    passes = property(lambda self: self._shared.source.passes)
    first = property(lambda self: self._shared.source.first)
    classes = property(lambda self: self._shared.source.classes)
    nominal = property(lambda self: self._shared.source.nominal)

    def settle(self, model):
        return self._shared.source.settle(model)

    def map_reduce_rows(self, fn, combine, rows=None, *args):
        return self._shared.request(self._index, _Request(fn, combine, rows, args))

    def __iter__(self):
        return iter(self._shared.source)


class SharedPasses:
    """Fits over ``source`` whose passes are read together (see the module's notes).

    Attributes
    ----------
    passes : int
        The passes over the source run for the fits (each shared by every fit waiting).
    """

    def __init__(self, source):
        self.source = source
        self.passes = 0
        self._cond = threading.Condition()
        self._waiting, self._live, self._failed, self._closed = {}, set(), None, False

    def request(self, index, req):
        """Called in fit ``index``'s thread: wait for the pass that answers ``req``."""
        with self._cond:
            if self._failed is not None or self._closed:  # stopped: no pass will answer
                raise _Cancelled()
            self._waiting[index] = req
            self._cond.notify_all()
        req.done.wait()
        if req.error is not None:
            raise req.error
        return req.result

    def _fit(self, index, job, results, errors):
        try:
            results[index] = job(_Member(self, index))
        except _Cancelled:
            pass
        except BaseException as e:  # noqa: BLE001 - any failure stops the others and is raised by run
            errors[index] = e
            with self._cond:
                self._failed = self._failed or e
        finally:
            with self._cond:
                self._live.discard(index)
                self._cond.notify_all()

    def run(self, jobs):
        """``job(source)`` for each job, in threads, their passes shared; their results in order. The
        first failure (a fit's, or a pass's) stops every fit and is raised here."""
        results, errors = [None] * len(jobs), [None] * len(jobs)
        self._live, batch = set(range(len(jobs))), {}
        threads = [threading.Thread(target=contextvars.copy_context().run, args=(self._fit, i, job, results, errors),
                                    daemon=True) for i, job in enumerate(jobs)]
        for t in threads:
            t.start()
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(lambda: self._failed is not None or set(self._waiting) >= self._live)
                    batch, self._waiting = self._waiting, {}
                    if self._failed is not None or not batch:
                        break
                try:
                    self._pass(list(batch.values()))
                except BaseException as e:  # noqa: BLE001 - the pass failed: every fit stops, the error is raised
                    with self._cond:
                        self._failed = e
                    break
        finally:  # (also on an interrupt while waiting: a fit asking for a pass after this stops at once)
            with self._cond:
                self._closed = True
                for req in list(batch.values()) + list(self._waiting.values()):
                    if not req.done.is_set():
                        req.error = _Cancelled()
                        req.done.set()
            for t in threads:
                t.join()
        if self._failed is not None:
            raise next((e for e in errors if e is not None), self._failed)
        return results

    def _pass(self, requests):
        """One pass answering every request without rows to cut (each with rows: a pass of its own; so too,
        on a cluster, each whose function gathers rows, ``fn.gathers_rows``: the driver gets one fit's at a time)."""
        distributed = getattr(self.source, "distributed", False)
        alone = [r for r in requests if r.rows is not None or (distributed and getattr(r.fn, "gathers_rows", False))]
        shared = [r for r in requests if r not in alone]
        for r in alone + (shared if len(shared) == 1 else []):
            r.result = self.source.map_reduce_rows(r.fn, r.combine, r.rows, *r.args)
            self.passes += 1
        if len(shared) > 1:
            calls = tuple((r.fn, r.args) for r in shared)
            threads = 1 if distributed else usable_cores()  # a cluster's tasks have their own cores
            out = self.source.map_reduce_rows(together, functools.partial(_combine_each, tuple(r.combine for r in shared)),
                                              None, calls, threads)
            self.passes += 1
            for r, value in zip(shared, out if out is not None else [None] * len(shared)):
                r.result = value
        for r in requests:
            r.done.set()
