"""Wrapper searches on data streamed from a file.

The search's engine (:class:`~seminaive.learning.engine.Engine`) reads a source
of chunks: here the file's, read again at each step. Every group's statistics
(value-by-class counts, or per-class moments for a Gaussian attribute alone)
are summed over chunks, per fold for k-fold scoring, and each chunk's
contributions come from them by the same formulas as in memory, where the data
are one chunk. Memory holds statistics, not rows; the result equals the
in-memory search on the same data (and folds), through the same search loop.
"""

import functools

import numpy as np
from sklearn.base import clone

from ..learning.data_source import EngineChunks, FileSource, _merge_fits
from ..core.folds import stratified_folds
from .._scale import pow2_scale
from .._target import class_codes
from ..components.gaussian import variance_floor
from ..data.encoding import encode
from ..discretize import attribute_cuts
from ..discretize.equal_width import equal_width_cuts
from ..estimation import class_log_prior
from ..exceptions import ParameterError
from .priors_only import _PriorsOnly
from ..learning.engine import BaseAttribute, Engine
from ..learning.held_out import _merge_all
from ..learning.cuts import add_value_triples, value_triples
from .layout import read_codes
from .._progress import shown_on

__all__ = ["search_source", "search_file", "check_streamable", "chunk_engine", "column_units"]

def _encoded(search, scales, X, y):
    """One chunk as the engine reads it: codes and values (in the Gaussian's units) per attribute,
    class codes."""
    codes, xs = search._prepare(X, encode(X, search.schema_))
    xs = [None if x is None else x / s for x, s in zip(xs, scales)]
    return codes, xs, class_codes(y, search.classes_).astype(np.int64)


def _final_fit(chunk, model, search):
    """The final model's fit on one chunk, on the structured table (None when it is empty)."""
    X, y = chunk
    if not len(X):
        return None
    codes, xs = search._prepare(X, encode(X, search.schema_))
    return clone(model).partial_fit(search._frame(codes, xs), y)


def check_streamable(search):
    """The parameters a search on chunks (of a file, or a cluster's partitions) can honour."""
    search._check_params()
    if search.candidate_pairs is not None:
        raise ParameterError("candidate_pairs: a streamed search considers every pair (set it to None)")
    if search.cv is not None and not isinstance(search.cv, (int, np.integer)):
        raise ParameterError("cv: a streamed search takes a number of folds (it assigns them itself)")


def column_units(search, lo, hi):
    """Each attribute's power of two (the Gaussian component's units), from the numeric ranges."""
    scales = [1.0] * len(search.schema_)
    for k, j in enumerate(search.schema_.numeric_indices):
        scales[j] = float(pow2_scale(max(abs(lo[k]), abs(hi[k]))))
    return scales


def chunk_engine(search, source, scales, fold, lo, hi):
    """The engine of a search over chunks (a file's, or a cluster's partitions), with the
    variance floors fixed from the whole data as the in-memory search fixes them (``lo``,
    ``hi``: every numeric attribute's smallest and largest value, in the data's units)."""
    names, d = list(search.schema_.names), len(search.schema_)
    attrs = [BaseAttribute(names[j], None, len(search._values[j]), scale=scales[j],
                           estimator=search._estimator(names[j]), gaussian=search._numeric_alone[j]) for j in range(d)]
    engine = Engine(attrs, None, len(search.classes_), search._estimator(None), search.priors,
                    numeric_alone=search.numeric, source=source, fold=fold, scoring=search.scoring)
    gauss_groups = [(j,) for j in range(d) if search._numeric_alone[j]]
    engine.ensure(gauss_groups)
    if gauss_groups:
        pooled = [_merge_all(engine.stats[g]) for g in gauss_groups]
        num = list(search.schema_.numeric_indices)
        for g, st in zip(gauss_groups, pooled):
            k_, s = num.index(g[0]), scales[g[0]]
            st["low"], st["high"] = np.array([lo[k_] / s]), np.array([hi[k_] / s])
        for g, f in zip(gauss_groups, variance_floor(pooled, search.var_smoothing, search.var_smoothing_rule)):
            attrs[g[0]].floor = f
    search._allowed = None
    return engine


def search_source(search, source, progress=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a data source
    (:mod:`seminaive.learning.data_source`: a file's chunks, a Dask DataFrame's partitions,
    data in memory in chunks); the fitted search equals ``search.fit`` on all the rows
    (k-fold scoring uses :func:`seminaive.core.folds.stratified_folds` folds over the rows
    in order, ``random_state`` as the seed). Passes: the numeric ranges (for the
    equal-width cut points of joins and the variance floors), with another discretizer or
    ``integer_codes`` the values met by class (:func:`~seminaive.discretize.attribute_cuts`, the
    one cut learner; :func:`~seminaive.search.layout.read_codes`) and, for k-fold scoring, the
    class labels; then the engine's passes; then the final model's fit, merged over chunks.

    Examples
    --------
    >>> from seminaive.learning.data_source import MemorySource
    >>> from seminaive.datasets import load
    >>> from seminaive.search import BSE
    >>> d = load("weather.nominal")
    >>> search_source(BSE(), MemorySource(d.X, d.y, chunksize=5)).structure_ == BSE().fit(d.X, d.y).structure_
    True
    """
    with shown_on(progress):  # (progress: a stream that shows the passes' rows and the search's steps)
        return _search(search, source)


def _search(search, source):
    check_streamable(search)
    schema, classes = source.schema, np.asarray(source.classes, dtype=object)
    lo, hi = source.ranges(schema)
    wide = search.discretizer == "equal_width"  # its cuts from the ranges alone; any other from the values
    triples = {} if (wide and search.integer_codes == "numbers") or not schema.numeric_indices else \
        source.map_reduce(value_triples, add_value_triples, schema, classes)  # one pass: the values met, by class
    cuts = {j: equal_width_cuts(lo[k_], hi[k_], search.n_bins) for k_, j in enumerate(schema.numeric_indices)} \
        if wide else {j: attribute_cuts(search.discretizer, {j: x}, y, w, search.n_bins,
                                        random_state=search.random_state)[j] for j, (x, y, w) in triples.items()}
    search._set_layout(schema, classes, *read_codes(search, schema.names, triples, cuts))
    search.n_features_in_ = len(schema)  # what validate_data sets for data in memory
    search.feature_names_in_ = np.asarray(schema.names, dtype=object)
    fold = stratified_folds(source.labels(), search.cv, search.random_state) if search.cv else None
    scales = column_units(search, lo, hi)
    engine = chunk_engine(search, EngineChunks(source, functools.partial(_encoded, search, scales), fold), scales,
                          fold, lo, hi)
    names = list(schema.names)
    groups = search._run(engine, names)
    if groups:  # the final model, fitted on each chunk's structured table, merged in row order
        search.model_ = source.map_reduce(_final_fit, _merge_fits, search._final_model(
            search.structure_.column_names(names)), search)
    else:
        search.model_ = _PriorsOnly(search.classes_, class_log_prior(engine.class_counts.sum(axis=0), search.priors))
    return search


def search_file(search, path, chunksize=100_000, format=None, target=None, header=True, progress=None, nominal=None,
                sep=None, decimal=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a data file
    streamed in chunks (:func:`search_source` over its
    :class:`~seminaive.learning.data_source.FileSource`); the fitted search is
    returned, equal to ``search.fit`` on the whole file.

    Numeric attributes for joins are cut by the search's discretizer: equal-width
    intervals from the ranges' pass, any other from one more pass over the values met
    by class (the cuts the search learns in memory).

    Examples
    --------
    >>> from seminaive.datasets import dataset_path, load
    >>> from seminaive.search import BSE
    >>> streamed = search_file(BSE(), dataset_path("weather.nominal"), chunksize=5)
    >>> streamed.structure_ == BSE().fit(load("weather.nominal")).structure_
    True
    """
    check_streamable(search)
    return search_source(search, FileSource(path, chunksize, format, target, header, nominal, sep, decimal), progress)
