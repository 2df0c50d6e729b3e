"""Wrapper searches on a Dask DataFrame: the engine's passes as map-reduce steps.

The streamed engine reads its data as chunks; here the chunks are a Dask
DataFrame's partitions, encoded once on the workers and kept there
(``persist``). Each pass of the engine (counting the statistics of new groups,
scoring a step's candidates) maps one function over the partitions on the
cluster and reduces the results there (counts add, Gaussian moments merge,
numbers of right decisions add); only statistics and scores travel. The search
loop is the one every search runs, so its steps and scores equal the
in-memory search's on the same data and folds.
"""

import numpy as np
import pandas as pd

from .._target import declared_labels
from ..data.encoding import encode, infer_schema
from ..discretize.equal_width import equal_width_cuts
from ..estimation import class_log_prior
from ..exceptions import ParameterError
from .priors_only import _PriorsOnly
from ..scale.dask_source import DaskSource, _tree
from ..core.folds import stratified_folds
from .streamed import check_streamable, chunk_engine, column_units
from ..scale.dask import _declare

__all__ = ["search_dask"]


def _encode_part(search, scales, X, y, row, fold):
    """One partition as the engine reads it (numeric values in the Gaussian's units)."""
    codes, xs = search._prepare(X, encode(X, search.schema_))
    xs = [None if x is None else x / s for x, s in zip(xs, scales)]
    yc = pd.Index(search.classes_, dtype=object).get_indexer(pd.Index(np.asarray(y, dtype=object), dtype=object))
    keep = yc >= 0  # rows without a class take no part
    codes = [c[keep] for c in codes]
    xs = [None if x is None else x[keep] for x in xs]
    return row, codes, xs, yc[keep].astype(np.int64), (fold[keep] if fold is not None else None)


def _fit_part(model, search, scales, part):
    """The final model's statistics from one encoded partition (None when it is empty)."""
    _, codes, xs, y, _ = part
    if not y.size:
        return None
    xs = [None if x is None else x * s for x, s in zip(xs, scales)]  # back to the data's units (exact)
    y = declared_labels(pd.Series(pd.Categorical.from_codes(y, categories=pd.Index(search.classes_, dtype=object))))
    return model.partial_fit(search._frame(codes, xs), y)


def _merge_models(a, b):
    return b if a is None else a if b is None else a.merge(b)


def search_dask(search, X, y, progress=None):
    """Run a wrapper search (an unfitted BSE, BSJ, BSEJ or FSSJ) on a Dask
    DataFrame ``X`` with a Dask Series ``y``, on whatever scheduler is active
    (a ``distributed.Client`` beforehand puts it on that cluster). The fitted
    search equals ``search.fit`` on the same rows in memory with the same folds
    (k-fold scoring uses :func:`~seminaive.core.folds.stratified_folds`
    folds over the rows in partition order, ``random_state`` as the seed).

    Nominal columns are declared as :func:`seminaive.scale.dask.fit_dask`
    declares them (their sorted values); numeric attributes for joins are cut
    into equal-width intervals from their range.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from seminaive.datasets import load
    >>> from seminaive.search import BSE
    >>> d = load("weather.nominal")
    >>> frame = dd.from_pandas(d.X.assign(play=d.y.astype(str)), npartitions=2)
    >>> m = search_dask(BSE(), frame.drop(columns="play"), frame["play"])  # doctest: +SKIP
    >>> m.structure_ == BSE().fit(d.X, d.y.astype(str)).structure_  # doctest: +SKIP
    True
    """
    import dask
    import dask.dataframe as dd
    check_streamable(search)
    if not isinstance(X, dd.DataFrame):
        raise ParameterError(f"X: expected a dask DataFrame, got {type(X).__name__}")
    X = _declare(X)
    schema = infer_schema(X._meta, None)
    known = isinstance(y.dtype, pd.CategoricalDtype) and y.dtype.categories is not None
    classes = list(y.dtype.categories) if known else sorted(y.dropna().unique().compute().tolist())
    num = [schema.names[j] for j in schema.numeric_indices]
    lengths, lo, hi = dask.compute(X.map_partitions(len), X[num].min(), X[num].max()) if num else \
        (X.map_partitions(len).compute(), pd.Series(dtype=float), pd.Series(dtype=float))
    lengths = np.asarray(lengths, dtype=np.int64)
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    search._set_layout(schema, np.asarray(classes, dtype=object),
                       {j: equal_width_cuts(lo[k], hi[k], search.n_bins) for k, j in enumerate(schema.numeric_indices)})
    search.n_features_in_ = len(schema)
    search.feature_names_in_ = np.asarray(schema.names, dtype=object)
    names = list(schema.names)
    scales = column_units(search, lo, hi)
    n_folds = search.cv
    fold = stratified_folds(np.asarray(y.compute(), dtype=object), n_folds, search.random_state) if n_folds else None
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    parts = [dask.delayed(_encode_part)(search, scales, px, py, int(s),
                                        None if fold is None else fold[s:s + m])
             for px, py, s, m in zip(X.to_delayed(), y.to_delayed(), starts, lengths)]
    parts = list(dask.persist(*parts))
    engine = chunk_engine(search, DaskSource(parts), scales, fold, lo, hi)
    groups = search._run(engine, names, progress)
    if groups:
        model = search._final_model(search.structure_.column_names(names))
        fitted = _tree([dask.delayed(_fit_part)(model, search, scales, p) for p in parts], _merge_models).compute()
        search.model_ = fitted
    else:
        search.model_ = _PriorsOnly(search.classes_, class_log_prior(engine.class_counts.sum(axis=0), search.priors))
    return search
