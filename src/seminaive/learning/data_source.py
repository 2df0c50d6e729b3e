"""One data source under every fit from parts: data in memory cut into chunks, a
file read chunk by chunk, or a Dask DataFrame's partitions on the workers
(:mod:`~seminaive.learning.dask_source`).

A source settles once what every pass must agree on (the schema of the first
chunk, whose nominal columns declare every value; the classes, in their declared
order) and then runs passes: :meth:`DataSource.map_reduce` maps a function over
the labelled ``(X, y)`` chunks and combines the results, in row order or on the
cluster. What the models fitted in passes, the wrapper searches and selective
kDB need from the data (the class labels in row order for the folds, the
numeric ranges, the encoded chunks a scoring engine reads) are passes over it.
"""

import copy
import functools
import os

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._progress import step
from .._validation import check_param
from ..data.dataset import class_labels, declared_labels
from ..data.kinds import infer_schema
from ..data.schema import resolve_columns
from ..data.file_plan import plan_file
from ..data._text import named_as, not_utf8, transcoded
from ..exceptions import DataFormatError
from ..core.capabilities import capabilities
from .growing_fit import fit_growing

__all__ = ["DataSource", "MemorySource", "FileSource", "EngineChunks"]


class DataSource:
    """Labelled ``(X, y)`` chunks with one schema and one class list (see the module's notes).

    A subclass sets ``first`` (the first chunk's X, or an empty frame with the declared
    columns) and ``classes``, and yields its chunks in row order (``__iter__``), or runs a
    pass elsewhere (``map_reduce_rows``)."""

    nominal = None
    passes, n_rows = 0, None  # the passes run so far; the labelled rows, once a pass has seen them all

    @property
    def schema(self):
        """The schema: the first chunk's declared columns."""
        return infer_schema(self.first)

    in_memory = False  # read in chunks: what needs every row at once is refused
    distributed = False  # a pass runs here (not as a cluster's tasks)

    def settle(self, model):
        """Give ``model`` what every pass agrees on: the first chunk's schema, the classes (an object
        array, in their declared order), the number of attributes and their names."""
        schema = self.schema
        model.schema_, model.classes_ = schema, np.asarray(self.classes, dtype=object)
        model.n_features_in_, model.feature_names_in_ = len(schema), np.asarray(schema.names, dtype=object)
        return model

    def with_nominal(self, nominal):
        """This source with the columns ``nominal`` names (names or indices of the attributes, or
        "all") read as nominal too, as a model's own ``nominal`` reads them in memory."""
        if nominal is None:
            return self
        names = self.attribute_names()
        more = names if isinstance(nominal, str) and nominal == "all" else \
            [names[j] for j in sorted(resolve_columns(nominal, names))]
        have = [] if self.nominal is None else [self.nominal] if isinstance(self.nominal, str) else list(self.nominal)
        if "all" in have:
            return self
        return self._reread(have + [n for n in more if n not in have])

    def map_reduce_rows(self, fn, combine, rows=None, *args):
        """``fn(first row, chunk, rows' slice, *args)`` over the chunks, combined in row order;
        ``rows``: an array of one entry per row, cut to each chunk's rows (None: not cut). Each pass
        shows its rows read as progress (:func:`~seminaive._progress.step`)."""
        out, start, known = None, 0, self.n_rows
        self.passes += 1
        what = f"pass {self.passes} over the data, rows"
        for chunk in self:
            n = len(chunk[1])
            part = fn(start, chunk, None if rows is None else rows[start:start + n], *args)
            out = part if out is None else combine(out, part)
            start += n
            step(what, start, known)
        if known is None:  # the first pass: its end, and the rows every later pass counts to
            self.n_rows = start
            step(what, start, start)
        return out

    def map_reduce(self, fn, combine, *args):
        """``fn(chunk, *args)`` over the chunks, combined in row order (or on the cluster)."""
        return self.map_reduce_rows(_without_rows, combine, None, fn, args)

    def partial_fits(self, model, seen=None):
        """``model`` (unfitted) with every chunk folded in by ``partial_fit``, in row order
        (``seen``, a list, gets the chunks' sizes); the rows read shown as progress."""
        rows = 0
        for X, y in self:
            model.partial_fit(X, y)
            rows += len(X)
            if seen is not None:
                seen.append(len(X))
            step("rows", rows, None)
        step("rows", rows, rows)
        return model

    def labels(self):
        """Every row's class label, in row order."""
        return self.map_reduce(_labels, _concatenate)

    def ranges(self, schema):
        """The smallest and largest present value of every numeric attribute of ``schema`` (each
        (numeric attributes,); +inf / -inf where an attribute has no value)."""
        return self.map_reduce(_ranges, _widen, schema)


def _without_rows(row, chunk, rows, fn, args):
    return fn(chunk, *args)


def _labels(chunk):
    return np.asarray(chunk[1], dtype=object)


def _concatenate(a, b):
    return np.concatenate([a, b])


def _ranges(chunk, schema):
    X = chunk[0]
    cols = [schema.names[j] for j in schema.numeric_indices]
    if not cols or not len(X):
        return np.full(len(cols), np.inf), np.full(len(cols), -np.inf)
    values = X[cols].to_numpy(dtype=np.float64, na_value=np.nan)
    present = ~np.isnan(values)
    return (np.where(present, values, np.inf).min(axis=0), np.where(present, values, -np.inf).max(axis=0))


def _widen(a, b):
    return np.fmin(a[0], b[0]), np.fmax(a[1], b[1])


class MemorySource(DataSource):
    """Data in memory, ``X`` (a DataFrame) and ``y``, as chunks of ``chunksize`` rows (rows
    without a class left out; nominal columns declared with all their values)."""

    def __init__(self, X, y, chunksize=None, nominal=None):
        self._given, self.nominal = (X, y, chunksize), nominal
        X = X.reset_index(drop=True)
        y = pd.Series(y).reset_index(drop=True)
        keep = y.notna().to_numpy()
        schema = infer_schema(X, nominal)
        self.X = X.astype({a.name: pd.CategoricalDtype(list(a.values)) for a in schema.attributes if a.is_nominal})
        self.X, y = self.X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)
        self.y = class_labels(y)
        self.classes = list(self.y.cat.categories)
        self.chunksize = len(self.X) if not chunksize else chunksize
        self.first = self.X.iloc[:0]

    def attribute_names(self):
        return [str(c) for c in self.X.columns]

    def _reread(self, nominal):
        return MemorySource(*self._given, nominal=nominal)

    def __iter__(self):
        for s in range(0, len(self.X), max(self.chunksize, 1)):
            yield self.X.iloc[s:s + self.chunksize].reset_index(drop=True), self.y.iloc[s:s + self.chunksize] \
                .reset_index(drop=True)


class FileSource(DataSource):
    """A data file read chunk by chunk through its :class:`~seminaive.data.file_plan.FilePlan`
    (the one reading of every format), afresh at every pass; rows without a class left out."""

    def __init__(self, path, chunksize=100_000, format=None, target=None, header=True, nominal=None, sep=None,
                 decimal=None, ignore=None, index_col=None, encoding=None):
        self.path = os.fspath(path)
        check_param("chunksize", chunksize, kind="int", low=1)
        if not os.path.exists(self.path):
            raise DataFormatError("no such file", path=self.path)
        self.chunksize, self.nominal = chunksize, nominal
        self._copy = None if encoding is None else transcoded(self.path, encoding)  # kept while the source is
        try:  # the plan is made once and kept: every pass reads through it
            with named_as(self._copy, self.path):
                self.plan = plan_file(self._copy or self.path, format, target, header, sep, decimal=decimal,
                                      ignore=ignore, index_col=index_col)
        except UnicodeDecodeError:
            raise not_utf8(self.path) from None
        self._head = None

    def attribute_names(self):
        return [n for j, n in enumerate(self.plan.names) if j != self.plan.target]

    def _reread(self, nominal):
        source = copy.copy(self)
        source.nominal, source._head = nominal, None
        return source

    def _first_chunk(self):
        """The first labelled chunk, read when the schema or the classes are first asked for
        (a fit by ``partial_fit`` alone never asks)."""
        if self._head is None:
            self._head = next(iter(self), None)
            if self._head is None:
                raise DataFormatError("the file holds no labelled data rows", path=self.path)
        return self._head

    @property
    def first(self):
        return self._first_chunk()[0].iloc[:0]

    @property
    def classes(self):
        return list(self._first_chunk()[1].cat.categories)

    def partial_fits(self, model):
        """``model`` fitted on the file: in one pass when its statistics can grow with the file's value lists
        (:mod:`.growing_fit`) and pyarrow reads the file, else by ``partial_fit`` of the chunks."""
        with named_as(self._copy, self.path):
            return self._partial_fits(model)

    def _partial_fits(self, model):
        reader = self.plan.one_pass(self.chunksize, self.nominal) if capabilities(model).grows else None
        if reader is not None:
            try:
                return fit_growing(model, reader)
            except UnicodeDecodeError:
                raise not_utf8(self.path) from None
        seen = []
        model = super().partial_fits(model, seen)
        if not seen:
            raise DataFormatError("the file holds no labelled data rows", path=self.path)
        return model

    def __iter__(self):
        with named_as(self._copy, self.path):
            yield from (c for c in _labelled_chunks(self.plan.path, self.plan, self.chunksize, self.nominal)
                        if len(c[0]))


def _text_errors(generate):
    """A chunk generator whose undecodable bytes are one error naming the file."""
    @functools.wraps(generate)
    def wrapped(path, *args, **kwargs):
        try:
            yield from generate(path, *args, **kwargs)
        except UnicodeDecodeError:
            raise not_utf8(path) from None
    return wrapped


@_text_errors
def _labelled_chunks(path, plan, chunksize, nominal):
    """The file plan's encoded chunks, rows whose class is missing left out."""
    for d in plan.encoded(chunksize, nominal):
        chunk = labelled(d)
        if chunk is not None:
            yield chunk


def labelled(d):
    """A Dataset's rows with a class, as a chunk ``(X, y)`` (y declaring the classes); None where it has none."""
    keep = d.y.notna().to_numpy()
    if keep.any():
        return d.X[keep].reset_index(drop=True), declared_labels(d.y[keep].reset_index(drop=True))
    return None


def _fit_copy(chunk, model):
    return clone(model).partial_fit(*chunk) if len(chunk[0]) else None


def _merge_fits(a, b):
    return b if a is None else a if b is None else a.merge(b)




class EngineChunks:
    """A data source as a scoring engine reads it: each chunk ``(first row, codes per
    attribute, values per attribute, class codes, folds)`` from ``encode(X, y)`` (which
    gives the codes, values and class codes), the fold labels ``fold`` cut to the chunk's
    rows; a pass runs where the data source runs it."""

    def __init__(self, data, encode, fold=None):
        self.data, self.encode, self.fold = data, encode, fold

    def map_reduce(self, fn, combine, *args):
        return self.data.map_reduce_rows(_engine_step, combine, self.fold, self.encode, fn, args)


def _engine_step(row, chunk, fold, encode, fn, args):
    codes, xs, y = encode(*chunk)
    return fn((row, codes, xs, y, fold), *args)
