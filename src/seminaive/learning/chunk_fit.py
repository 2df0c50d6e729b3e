"""A Naive Bayes with a discretizer fitted in passes over a source of chunks:
the data in memory (one chunk, :class:`~.sources.OneTable`), a file's chunks or
Dask partitions, by the same passes, so that every route gives the fit in memory:
the cut points of its discretized attributes from every row
(:func:`.cuts.source_cuts`), then every component's counts, added over the
chunks."""

import functools

import numpy as np

from ..components import Categorical, Discretized, count_components
from ..data.encoding import EncodedTable
from ..exceptions import ParameterError
from .cuts import counted_triples, pushed, source_cuts, source_triples
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
    groups = None  # every attribute's values by class, counted by the source itself (DuckDB's GROUP BY)
    if model.numeric not in ("gaussian", "kernel"):  # (then every component is a table of counts)
        groups = pushed(source, "grouped_values", model.schema_, model.classes_)
    triples = None if groups is None or not model.schema_.numeric_indices else \
        counted_triples({j: groups[j] for j in model.schema_.numeric_indices})
    model.components_ = comps = model._make_components(first_cuts(model, source, triples))  # what each chunk counts
    counted = None if groups is None else group_counts(comps, groups, model.schema_, len(model.classes_))
    if counted is None:
        counted = map_reduce(source, _counts, functools.partial(_merged, comps), model)
    stats, model.class_count_ = counted
    model._hold_lists(comps, stats)  # the nominal attributes as a block, as a fit in memory holds them
    model._estimate()
    return model


def group_counts(comps, groups, schema, k):
    """The components' statistics and the classes' counts from each attribute's values by class with
    their rows' counts (``groups``: attribute index -> ``(values, class codes, counts)``, and under None
    the classes'), each group counted as that many rows holding its value and nothing else: a pass
    over the rows' counts, exactly (whole numbers); None unless every component is a table of counts.

    Examples
    --------
    >>> import pandas as pd
    >>> from seminaive.data import infer_schema
    >>> schema = infer_schema(pd.DataFrame({"a": ["x", "y"]}))
    >>> groups = {0: (pd.Categorical(["x", "y", "x"]), np.array([0, 0, 1]), np.array([3.0, 1.0, 2.0])),
    ...           None: (None, np.array([0, 1]), np.array([4.0, 2.0]))}
    >>> stats, classes = group_counts([Categorical(0, 0, 2)], groups, schema, 2)
    >>> stats[0]["counts"].tolist(), classes.tolist()
    ([[3.0, 1.0], [2.0, 0.0]], [4.0, 2.0])
    """
    if any(type(c) not in (Categorical, Discretized) for c in comps):
        return None
    n_nom, n_num = len(schema.nominal_indices), len(schema.numeric_indices)
    stats = []
    for c in comps:
        values, y, n = groups[c.attribute]
        codes, numeric = np.full((len(y), n_nom), -1, dtype=np.int64), np.full((len(y), n_num), np.nan)
        if type(c) is Categorical:
            codes[:, c.column] = np.asarray(values.codes, dtype=np.int64)
        else:
            numeric[:, c.column] = values
        stats.append(count_components([c], EncodedTable(codes, numeric, np.zeros(n_nom)), y, k, n)[0])
    _, y, n = groups[None]
    return stats, count_classes(y, k, n)


def first_cuts(model, source, triples=None):
    """The cut points of the discretized attributes of a Naive Bayes ``model`` from ``source`` (for
    Gaussian or kernel attributes, of those read one interval per value; None where none is);
    ``triples``: the numeric values by class, counted already."""
    codes = model.integer_codes
    if model.numeric not in ("gaussian", "kernel"):
        return source_cuts(source, model.schema_, model.classes_, model.numeric, model.n_bins, model.min_bucket,
                           codes=codes, triples=triples)
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
