"""Fitting from files too large for memory, chunk by chunk (predicting on them: :mod:`.predict_files`).

A file is read through its :class:`~seminaive.data.file_plan.FilePlan`, the
one reading the in-memory readers use too: CSV and header-less KEEL files
are read twice, a first pass settling each column's type and value list
(from summaries merged in file order, exactly as a whole read decides), the
second yielding encoded chunks; ARFF and KEEL files with a header declare
their schema, so one pass suffices. A CSV file without quotes or NUL bytes
is parsed by pyarrow (:mod:`seminaive.data.arrow_csv`), which splits such a file exactly
as the tokenizer does. Memory stays bounded by the chunk size, whatever the
file's length.
"""

import functools
import os

from .._target import declared_labels
from .._validation import check_param
from ..core.capabilities import capabilities, check_chunkable
from ..data.file_plan import plan_file
from ..exceptions import DataFormatError
from ..data.encoding import infer_schema

__all__ = ["iter_file_chunks", "fit_file"]


def _text_errors(generate):
    """A chunk generator whose undecodable bytes are one error naming the file."""
    @functools.wraps(generate)
    def wrapped(path, *args, **kwargs):
        try:
            yield from generate(path, *args, **kwargs)
        except UnicodeDecodeError as e:
            raise DataFormatError(f"not UTF-8 text (byte {e.start} of a block)", path=os.fspath(path)) from None
    return wrapped


@_text_errors
def iter_file_chunks(path, chunksize=100_000, format=None, target=None, header=True, nominal=None, sep=None):
    """Yield ``(X, y)`` chunks of a data file with one schema for all of them
    (nominal columns as categoricals with the file's full value list; rows
    whose class is missing left out). Files may be compressed (.gz, .bz2, .xz,
    .zip); a CSV file's separator is found as the in-memory reader finds it,
    unless ``sep`` gives it.

    Examples
    --------
    >>> from seminaive.datasets import dataset_path
    >>> [len(X) for X, y in iter_file_chunks(dataset_path("weather.nominal"), chunksize=5)]
    [5, 5, 4]
    """
    path = os.fspath(path)
    check_param("chunksize", chunksize, kind="int", low=1)
    if not os.path.exists(path):
        raise DataFormatError("no such file", path=path)
    plan = plan_file(path, format, target, header, sep)
    for d in plan.encoded(chunksize, nominal):
        keep = d.y.notna().to_numpy()
        if keep.any():
            yield d.X[keep].reset_index(drop=True), declared_labels(d.y[keep].reset_index(drop=True))


def fit_file(model, path, chunksize=100_000, format=None, target=None, header=True, nominal=None,
             progress=None, sep=None):
    """Fit ``model`` on a data file chunk by chunk, with bounded memory: with
    ``partial_fit``, in passes (the family, a Naive Bayes with a discretizer),
    or for a wrapper search through its engine's passes (``search_file``); the
    result equals a fit on the whole file.

    Examples
    --------
    >>> import numpy as np
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import dataset_path, load
    >>> m = fit_file(NaiveBayes(), dataset_path("weather.numeric"), chunksize=4)
    >>> bool(np.allclose(m.predict_proba(load("weather.numeric").X),
    ...                  NaiveBayes().fit(load("weather.numeric")).predict_proba(load("weather.numeric").X)))
    True
    """
    caps = capabilities(model)
    if caps.search:  # a wrapper search: its engine's passes over the chunks (search.streamed)
        return model._fit_file(path, chunksize, format, target, header, nominal, sep, progress)
    if caps.passes:  # the family, a Naive Bayes with a discretizer: passes over the chunks
        return _fit_in_passes(model, path, (chunksize, format, target, header, nominal, sep))
    check_chunkable(model, "chunksize", "fit_file", "read the file in memory (without --chunksize)")
    rows = 0
    for X, y in iter_file_chunks(path, chunksize, format, target, header, nominal, sep):
        if len(X):
            model.partial_fit(X, y)
            rows += len(X)
            if progress is not None:
                print(f"  {rows:,} rows", file=progress, flush=True)
    if rows == 0:
        raise DataFormatError("the file holds no labelled data rows", path=os.fspath(path))
    return model


class _FileChunks:
    """A file's chunks, read afresh at every pass."""

    def __init__(self, path, args):
        self.path, self.args = path, args

    def __iter__(self):
        return (c for c in iter_file_chunks(self.path, *self.args) if len(c[0]))


def _fit_in_passes(model, path, args):
    source = _FileChunks(path, args)
    first = next(iter(source), None)
    if first is None:
        raise DataFormatError("the file holds no labelled data rows", path=os.fspath(path))
    X, y = first
    return model._fit_chunks(source, infer_schema(X, model.nominal), list(y.cat.categories))
