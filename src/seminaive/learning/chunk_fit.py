"""A Naive Bayes with a discretizer fitted in passes over a source of chunks:
the data in memory (one chunk, :class:`~.sources.OneTable`), a file's chunks or
Dask partitions, by the same passes, so that every route gives the fit in memory:
the cut points of its discretized attributes from every row
(:func:`.cuts.source_cuts`), then every component's counts, added over the
chunks."""

import functools

import numpy as np

from ..components import count_components
from ..exceptions import ParameterError
from .cuts import pushed, source_cuts, source_triples
from .readings import gaussian_or_values
from .sources import add_counts, encoded, map_reduce
from ..core.counting import count_classes

__all__ = ["naive_bayes_passes", "first_cuts"]


def _counts(chunk, model):
    table, yc, weight = encoded(chunk, model.schema_, model.classes_)
    k = len(model.classes_)
    return count_components(model.components_, table, yc, k, weight), count_classes(yc, k, weight)


def _merged(comps, a, b):
    """Two parts' statistics together, as each component merges its own (counts add, moments merge)."""
    return [type(c).merge(x, z) for c, x, z in zip(comps, a[0], b[0])], add_counts(a[1], b[1])


def naive_bayes_passes(model, source):
    """The passes of a Naive Bayes ``model`` with a discretizer (its ``schema_`` and ``classes_`` set)
    over ``source``: the cut points, then the counts; the model estimated and returned.

    Examples
    --------
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> from seminaive.learning.data_source import MemorySource
    >>> d = load("iris")
    >>> chunks = MemorySource(d.X, d.y, chunksize=70)
    >>> m = naive_bayes_passes(chunks.settle(NaiveBayes(numeric="mdl")), chunks)
    >>> bool(np.allclose(m.predict_proba(d.X), NaiveBayes(numeric="mdl").fit(d).predict_proba(d.X)))
    True
    """
    model.components_ = comps = model._make_components(first_cuts(model, source))  # what each chunk counts
    counted = pushed(source, "grouped_naive_bayes", model, comps)  # by DuckDB, where the source is a relation
    if counted is None:
        counted = map_reduce(source, _counts, functools.partial(_merged, comps), model)
    stats, model.class_count_ = counted
    model._hold_lists(comps, stats)  # the nominal attributes as a block, as a fit in memory holds them
    model._estimate()
    return model


def first_cuts(model, source):
    """The cut points of the discretized attributes of a Naive Bayes ``model`` from ``source`` (for
    Gaussian or kernel attributes, of those read one interval per value; None where none is)."""
    codes = model.integer_codes
    if model.numeric not in ("gaussian", "kernel"):
        return source_cuts(source, model.schema_, model.classes_, model.numeric, model.n_bins, model.min_bucket,
                           codes=codes)
    if codes == "numbers" or not model.schema_.numeric_indices:
        return None
    if model.numeric == "kernel" and codes == "auto":
        raise ParameterError("integer_codes: 'auto' weighs a column's values against its Gaussian or intervals; "
                             "with numeric='kernel' use 'values' or 'numbers'")
    triples = source_triples(source, model.schema_, model.classes_)
    out = {}
    for j, (x, y, w) in triples.items():
        cuts = gaussian_or_values(x, y, w, model._estimator(model.schema_.names[j]), model.var_smoothing,
                                  model.var_smoothing_rule, model.alpha, codes, model.priors)
        if cuts is not None:
            out[j] = cuts
    return out or None
