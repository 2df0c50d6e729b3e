"""The family fitted from chunks (a file's, or a Dask DataFrame's partitions),
equal to one fit in memory, in map-reduce passes over a source of chunks
(:func:`seminaive.learning.sources.map_reduce`: in order here, on the cluster for
a Dask source):

1. the counts of every numeric attribute's values by class (what any of the
   discretizers needs: the sorted values with their classes), then the cut points;
2. the value-by-class counts of every attribute and pair (TAN, kDB), then the
   structure;
3. the tables' counts under that structure (AnDE, whose structure does not
   depend on the data, starts here); for selective kDB, the scoring engine's
   passes over the chunks instead: the counts of every candidate table, then
   every candidate's leave-one-out score, from the counts of all the data.

A chunk is ``(X, y)`` with the schema's declared values (categoricals with
every value; the file readers and ``fit_dask`` give them).
"""

import functools

import numpy as np

from ..core.capabilities import capabilities
from .._target import class_codes
from ..data.encoding import encode
from ..exceptions import ParameterError
from ..learning.cuts import source_cuts
from ..learning.data_source import EngineChunks
from ..learning.sources import add_counts, map_reduce
from .statistics import add_statistics, pair_statistics
from ..components import Categorical, Discretized
from ..core.counting import count_classes

__all__ = ["fit_chunks"]


def _encoded(model, chunk):
    X, y = chunk
    table = encode(X, model.schema_)
    yc = class_codes(y, model.classes_).astype(np.int64)
    keep = yc >= 0
    return table, yc, keep


def _columns(model, table):
    return [np.asarray(r.codes(table), dtype=np.int64) for r in model.readers_]


def _pairs(chunk, model):
    table, yc, keep = _encoded(model, chunk)
    cols = [c[keep] for c in _columns(model, table)]
    return pair_statistics(cols, [r.n_values for r in model.readers_], yc[keep], len(model.classes_))


def _counts(chunk, model):
    table, yc, keep = _encoded(model, chunk)
    if not keep.all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    k = len(model.classes_)
    return model._count(table, yc, k, None), count_classes(yc, k)


def _add_counts(a, b):
    return {name: add_counts(a[0][name], b[0][name]) for name in a[0]}, a[1] + b[1]


def fit_chunks(model, source, schema, classes):
    """Fit an unfitted TAN, KDB or AnDE on the chunks of ``source`` (see the
    module's notes); ``schema`` and ``classes`` are the data's (from the first
    chunk's declarations). Returns the fitted model, equal to ``model.fit`` on
    all the rows (1R's cut points aside: they follow the sorted values)."""
    if not capabilities(model).passes:
        raise ParameterError(f"{type(model).__name__}: its selection needs every row at once; fit it in memory "
                             f"(TAN, KDB, AnDE and AODE fit from chunks)")
    model._check_params()
    if getattr(model, "cv", None) is not None:
        raise ParameterError("cv: a selection from chunks is by leave-one-out (cv=None); k-fold selection needs "
                             "the rows in memory")
    model.schema_, model.classes_ = schema, np.asarray(classes, dtype=object)
    model.n_features_in_ = len(schema)
    model.feature_names_in_ = np.asarray(schema.names, dtype=object)
    model.readers_ = [Categorical(i, schema.nominal_indices.index(i), a.n_values) if a.is_nominal else None
                      for i, a in enumerate(schema.attributes)]
    cuts_of = source_cuts(source, schema, model.classes_, model.numeric, model.n_bins, model.min_bucket,
                          model.random_state)
    for j, cuts in cuts_of.items():
        model.readers_[j] = Discretized(j, schema.numeric_indices.index(j), cuts)
    if model._fixed_structure:
        model._set_parents([()] * len(schema))  # AnDE: its super-parent sets do not depend on the data
    else:
        pairs = map_reduce(source, _pairs, add_statistics, model)
        if model._selects:  # selective kDB: its candidates scored through the engine over the chunks
            chunks = EngineChunks(source, functools.partial(_reader_codes, model))
            model._select(pairs, model._engine(None, None, source=chunks))
            model._estimate()
            return model
        model._set_parents(model._parents_from(pairs))
    counts, class_count = map_reduce(source, _counts, _add_counts, model)
    model._set_counts(counts)
    model.class_count_ = class_count
    model._estimate()
    return model


def _reader_codes(model, X, y):
    """A chunk as the engine reads it: the readers' codes, no values, the class codes."""
    table, yc, keep = _encoded(model, (X, y))
    if not keep.all():
        raise ParameterError("y: a chunk holds instances without a class; drop them first")
    return _columns(model, table), [None] * len(model.readers_), yc
