"""Where an engine's chunks come from, and how a pass over them is reduced.

A source is an iterable of chunks ``(first row, codes, values, class codes[,
folds])``: the one chunk of data in memory, a file's chunks, or (with a
``map_reduce`` method of its own) partitions on a Dask cluster. A pass maps a
function over the chunks and combines the results in chunk order.
"""

from typing import NamedTuple

import numpy as np

from .._target import chunk_table, class_codes, fit_table
from ..components.gaussian import Gaussian
from ..core.counting import merge_distinct
from ..data.encoding import EncodedTable, encode

__all__ = ["map_reduce", "add_counts", "Encoded", "OneTable", "encoded", "open_source", "open_chunk", "FitFromSource"]


class Encoded(NamedTuple):
    """A chunk as the passes read it: its encoded ``table``, class codes ``y`` (-1: no class) and
    instance weights (None: each row once)."""

    table: EncodedTable
    y: np.ndarray
    weight: np.ndarray = None


class OneTable:
    """The data in memory as a source: one chunk, already encoded, with its weights. A fit in
    memory is a fit from this source, so that it runs the passes a file's or a cluster's chunks
    run (each pass here a single call on the whole table).

    Examples
    --------
    >>> import pandas as pd
    >>> from seminaive.data import infer_schema
    >>> X = pd.DataFrame({"a": ["x", "y", "x"]})
    >>> one = OneTable(encode(X, infer_schema(X)), np.array([0, 1, 0]))
    >>> map_reduce(one, lambda chunk: chunk.table.codes[:, 0].tolist(), None)
    [0, 1, 0]
    """

    in_memory = True  # every row at hand: k-fold selection and parallel members may use it

    def __init__(self, table, y, weight=None, schema=None, classes=None, named=False):
        self.chunk = Encoded(table, np.asarray(y, dtype=np.int64), weight)
        self.schema, self.classes, self.named = schema, classes, named

    def __iter__(self):
        yield self.chunk

    def settle(self, model):
        """Give ``model`` what every pass agrees on: the schema, the classes (the array as
        :func:`open_source` found it), the number of attributes and, where the input named its
        columns, their names (scikit-learn's ``feature_names_in_``)."""
        model.schema_, model.classes_, model.n_features_in_ = self.schema, self.classes, len(self.schema)
        if self.named:
            model.feature_names_in_ = np.asarray(self.schema.names, dtype=object)
        else:
            model.__dict__.pop("feature_names_in_", None)
        return model


def open_source(model, X, y, sample_weight=None, check_finite=True):
    """The data a ``fit`` is given as a source of one chunk: the input checked, its schema by the one
    kind rule (the model's ``nominal`` option too), the table encoded, the classes in the one order, the
    weights checked (:func:`~seminaive._target.fit_table`, the opening every model shares;
    ``check_finite`` False: a model whose statistics show an infinite value checks it there).

    Examples
    --------
    >>> import pandas as pd
    >>> from seminaive import TAN
    >>> one = open_source(TAN(), pd.DataFrame({"a": ["x", "y", "x"]}), ["p", "q", "p"])
    >>> one.schema.names, one.classes.tolist(), one.chunk.y.tolist(), one.named
    (('a',), ['p', 'q'], [0, 1, 0], True)
    """
    _, schema, table, codes, classes, weight = fit_table(model, X, y, sample_weight, model.nominal, check_finite)
    return OneTable(table, codes, weight, schema, classes, named=hasattr(model, "feature_names_in_"))


def open_chunk(model, X, y, classes=None, sample_weight=None, first=True):
    """The chunk a ``partial_fit`` call is given, as a source of one chunk: on the ``first`` chunk the
    schema and the classes declared (``classes``, or a categorical ``y``'s) and set on the model, on a
    later one the columns checked against them (:func:`~seminaive._target.chunk_table`).

    Examples
    --------
    >>> import pandas as pd
    >>> from seminaive import NaiveBayes
    >>> one = open_chunk(NaiveBayes(), pd.DataFrame({"a": ["x", "y"]}), ["q", "p"], classes=["p", "q"])
    >>> one.chunk.y.tolist(), one.classes.tolist()
    ([1, 0], ['p', 'q'])
    """
    _, schema, table, codes, classes, weight = chunk_table(model, X, y, classes, sample_weight, first, model.nominal)
    return OneTable(table, codes, weight, schema, classes, named=hasattr(model, "feature_names_in_"))


class FitFromSource:
    """The ``fit`` of a model that learns from a source, written once: the data in memory opened as
    a source of one chunk (:func:`open_source`) and learned from through the model's one hook,
    ``_learn`` (the hook a file's chunks, Parquet and Dask partitions go through too, where the model
    learns in passes)."""

    def fit(self, X, y=None, sample_weight=None):
        """Learn from ``X``, ``y`` in memory (a Dataset brings its class): the model's ``_learn`` over
        the rows as a source of one chunk (the family: discretize, learn the structure, count and
        estimate every table; an ensemble: every member).

        Parameters
        ----------
        X : DataFrame, array-like or Dataset
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Instance weights (a weight of k counts like k copies); the structure is learned
            from the weighted counts too.
        """
        return self._learn(open_source(self, X, y, sample_weight))


def encoded(chunk, schema, classes):
    """A chunk ``(X, y)`` encoded under ``schema`` and ``classes`` (an :class:`Encoded` one as it is)."""
    if isinstance(chunk, Encoded):
        return chunk
    X, y = chunk
    return Encoded(encode(X, schema), class_codes(y, classes).astype(np.int64))


def map_reduce(source, fn, combine, *args):
    """``fn(chunk, *args)`` for every chunk of ``source``, combined: by the source
    itself where it distributes the work (its ``map_reduce``), else in chunk order.

    Examples
    --------
    >>> map_reduce([[1, 2], [3], [4, 5]], sum, lambda a, b: a + b)
    15
    """
    if hasattr(source, "map_reduce"):
        return source.map_reduce(fn, combine, *args)
    out = None
    for chunk in source:
        part = fn(chunk, *args)
        out = part if out is None else combine(out, part)
    return out


def add_counts(a, b):
    """Counts of the same shape added: arrays, dicts of arrays, lists or tuples of either."""
    if isinstance(a, (list, tuple)):
        return type(a)(add_counts(x, z) for x, z in zip(a, b))
    if isinstance(a, dict):
        return {key: add_counts(a[key], b[key]) for key in a}
    return a + b


def _union_values(a, b):
    """Two chunks' parent values met, per term, together."""
    return {g: merge_distinct(a[g], b[g]) for g in a}


def _merge_counts(a, b):
    """Two chunks' class counts and group statistics together (counts add, moments merge)."""
    acc = dict(a[1])
    for key, v in b[1].items():
        if key not in acc:
            acc[key] = v
        else:
            acc[key] = Gaussian.merge(acc[key], v) if isinstance(v, dict) else acc[key] + v
    return a[0] + b[0], acc


def _add_pairs(a, b):
    return a[0] + b[0], a[1] + b[1]
