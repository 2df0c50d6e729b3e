"""Wrapper searches on data streamed from a file.

The search's engine (:class:`~seminaive.core.engine.Engine`) reads a source
of chunks: here the file's, read again at each step. Every group's statistics
(value-by-class counts, or per-class moments for a Gaussian attribute alone)
are summed over chunks, per fold for k-fold scoring, and each chunk's
contributions come from them by the same formulas as in memory, where the data
are one chunk. Memory holds statistics, not rows; the result equals the
in-memory search on the same data (and folds), through the same search loop.
"""

import numpy as np
import pandas as pd

from ..core.folds import stratified_folds
from .._scale import pow2_scale
from .._target import class_codes, declared_labels
from ..components.gaussian import variance_floor
from ..data.encoding import encode, infer_schema
from ..discretize.equal_width import equal_width_cuts
from ..estimation import class_log_prior
from ..exceptions import ParameterError
from ..scale.files import iter_file_chunks
from .priors_only import _PriorsOnly
from ..core.engine import BaseAttribute, Engine
from ..core.held_out import _merge_all

__all__ = ["search_file", "check_streamable", "chunk_engine", "column_units"]

class _Source:
    """Chunks of a file as (first row, codes per attribute, floats per attribute, class codes)."""

    def __init__(self, search, path, chunksize, kw):
        self.search, self.path, self.chunksize, self.kw = search, path, chunksize, kw
        self._iter = iter_file_chunks

    def frames(self):
        yield from self._iter(self.path, self.chunksize, **self.kw)

    def __iter__(self):
        row = 0
        for X, y in self.frames():
            codes, xs = self.search._prepare(X, encode(X, self.search.schema_))
            xs = [None if x is None else x / s for x, s in zip(xs, self.scales)]  # the Gaussian's units
            yc = class_codes(y, self.search.classes_).astype(np.int64)
            yield row, codes, xs, yc
            row += len(yc)


def check_streamable(search):
    """The parameters a search on chunks (of a file, or a cluster's partitions) can honour."""
    search._check_params()
    if search.discretizer != "equal_width":
        raise ParameterError("discretizer: a streamed search cuts numeric attributes into equal-width intervals "
                             f"(the others need all values at once), got {search.discretizer!r}")
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


def search_file(search, path, chunksize=100_000, format=None, target=None, header=True, progress=None, nominal=None,
                sep=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a data file
    streamed in chunks; the fitted search is returned, equal to ``search.fit``
    on the whole file (k-fold scoring uses :func:`seminaive.core.folds.stratified_folds` folds,
    ``random_state`` as the seed).

    Numeric attributes for joins are cut into equal-width intervals (the
    default discretizer; others need every value at once).

    Examples
    --------
    >>> from seminaive.datasets import dataset_path, load
    >>> from seminaive.search import BSE
    >>> streamed = search_file(BSE(), dataset_path("weather.nominal"), chunksize=5)
    >>> streamed.structure_ == BSE().fit(load("weather.nominal")).structure_
    True
    """
    check_streamable(search)
    kw = dict(format=format, target=target, header=header, nominal=nominal, sep=sep)
    # pass 1: schema, classes, ranges of numeric attributes, rows
    first = True
    lo = hi = None
    n = 0
    labels = []
    for X, y in iter_file_chunks(path, chunksize, **kw):
        if first:
            schema = infer_schema(X, None)
            classes = np.asarray(list(y.cat.categories), dtype=object)
            num = list(schema.numeric_indices)
            lo, hi = np.full(len(num), np.inf), np.full(len(num), -np.inf)
            first = False
        t = encode(X, schema)
        if t.numeric.shape[1] and len(X):
            with np.errstate(invalid="ignore"):
                lo = np.fmin(lo, np.nanmin(np.where(np.isnan(t.numeric), np.inf, t.numeric), axis=0))
                hi = np.fmax(hi, np.nanmax(np.where(np.isnan(t.numeric), -np.inf, t.numeric), axis=0))
        n += len(X)
        labels.append(np.asarray(y, dtype=object))
    if first or n == 0:
        raise ParameterError("the file holds no labelled rows")
    search._set_layout(schema, classes, {j: equal_width_cuts(lo[k_], hi[k_], search.n_bins)
                                         for k_, j in enumerate(schema.numeric_indices)})
    search.n_features_in_ = len(schema)  # what validate_data sets for data in memory
    search.feature_names_in_ = np.asarray(schema.names, dtype=object)
    n_folds = search.cv
    fold = stratified_folds(np.concatenate(labels), n_folds, search.random_state) if n_folds else None
    source = _Source(search, path, chunksize, kw)
    source.scales = column_units(search, lo, hi)
    names = list(search.schema_.names)
    engine = chunk_engine(search, source, source.scales, fold, lo, hi)
    groups = search._run(engine, names, progress)
    if groups:  # the final model, fitted chunk by chunk on the structured table
        model = search._final_model(search.structure_.column_names(names))
        cats = pd.CategoricalDtype(list(search.classes_))
        for X, y in source.frames():
            codes, xs = search._prepare(X, encode(X, search.schema_))
            model.partial_fit(search._frame(codes, xs),
                              declared_labels(pd.Series(pd.Categorical(np.asarray(y, dtype=object), dtype=cats))))
        search.model_ = model
    else:
        search.model_ = _PriorsOnly(search.classes_, class_log_prior(engine.class_counts.sum(axis=0), search.priors))
    return search
