"""Fitting from files too large for memory, chunk by chunk (predicting on them: :mod:`.predict_files`).

A file is read through its :class:`~seminaive.data.file_plan.FilePlan`, the
one reading the in-memory readers use too: CSV and header-less KEEL files
are read twice, a first pass settling each column's type and value list
(from summaries merged in file order, exactly as a whole read decides), the
second yielding encoded chunks, except for a model whose statistics grow with
the value lists (a Naive Bayes with Gaussian numbers), fitted in one pass
(:mod:`seminaive.learning.growing_fit`); ARFF and KEEL files with a header declare
their schema, so one pass suffices. A CSV file without quotes or NUL bytes
is parsed by pyarrow (:mod:`seminaive.data.arrow_csv`), which splits such a file exactly
as the tokenizer does. Memory stays bounded by the chunk size, whatever the
file's length.
"""


from ..learning.data_source import FileSource
from .fit_source import fit_source

__all__ = ["iter_file_chunks", "fit_file"]


def iter_file_chunks(path, chunksize=100_000, format=None, target=None, header=True, nominal=None, sep=None,
                     decimal=None):
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
    yield from FileSource(path, chunksize, format, target, header, nominal, sep, decimal)


def fit_file(model, path, chunksize=100_000, format=None, target=None, header=True, nominal=None,
             progress=None, sep=None, decimal=None, ignore=None, index_col=None, encoding=None):
    """Fit ``model`` on a data file chunk by chunk, with bounded memory
    (:func:`~seminaive.scale.fit_source.fit_source` over the file's
    :class:`~seminaive.learning.data_source.FileSource`): in passes (the family, a
    Naive Bayes with a discretizer), through a wrapper search's engine, or with
    ``partial_fit``; the result equals a fit on the whole file (read with the same options:
    ``ignore``, ``index_col`` and ``encoding`` as :func:`~seminaive.data.load_file`).

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
    source = FileSource(path, chunksize, format, target, header, nominal, sep, decimal, ignore, index_col, encoding)
    return fit_source(model, source, progress, how=("chunksize", "read the file in memory"))
