"""Fitting and predicting with Dask: per-partition statistics on the workers,
reduced by merging, so a cluster does the counting and only statistics travel.

Whatever scheduler is active is used: with ``distributed.Client(address)``
created beforehand, the work runs on that cluster (for an existing cluster,
``Client("tcp://scheduler-host:8786")``; for a local one, ``Client(LocalCluster())``).

Nominal columns must declare the same values in every partition: categorical
columns with known categories do; object and string columns are scanned once
(``unique``) and their sorted values declared, as an in-memory fit would sort
them. Numeric attributes must be Gaussian or kernel (discretizers would place
different cut points in each partition).
"""

import numpy as np
import pandas as pd
from sklearn.base import clone

from .._target import declared_labels
from ..core.capabilities import capabilities, check_chunkable
from ..exceptions import ParameterError
from ..data.encoding import infer_schema
from .dask_source import DaskSource

__all__ = ["fit_dask", "predict_dask"]


def _fit_partition(model, X, y, classes):
    if len(X) == 0:
        return None
    if classes is None:  # a categorical class: its categories are the classes, in their order
        return model.partial_fit(X, declared_labels(y))
    return model.partial_fit(X, y, classes=classes)


def _merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a.merge(b)


def _declare(X):
    """A dask DataFrame whose nominal columns are categoricals with the same
    (sorted) categories in every partition."""
    meta = X._meta
    declared = {}
    for col in X.columns:
        dt = meta[col].dtype
        if isinstance(dt, pd.CategoricalDtype):
            if dt.categories is None:  # unknown categories: learn them
                declared[col] = pd.CategoricalDtype(sorted(X[col].cat.as_known().cat.categories))
            continue
        if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt):
            continue
        values = X[col].dropna().unique().compute().tolist()
        try:
            values = sorted(values)
        except TypeError:
            pass
        declared[col] = pd.CategoricalDtype(values)
    return X.astype(declared) if declared else X


def fit_dask(model, X, y, classes=None):
    """Fit an unfitted model with ``partial_fit`` and ``merge`` (NaiveBayes and
    the count models), or in passes where it learns in passes (the family, a
    Naive Bayes with a discretizer: :mod:`seminaive.core.capabilities`), on a
    dask DataFrame (with a dask Series ``y``; a categorical one declares the
    classes in its order) or a dask array (with a dask array ``y``); the result
    equals one fit on all the data.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from seminaive import NaiveBayes
    >>> from seminaive.datasets import load
    >>> d = load("iris")
    >>> frame = d.X.assign(cls=d.y.astype(str))
    >>> ddf = dd.from_pandas(frame, npartitions=3)
    >>> m = fit_dask(NaiveBayes(), ddf.drop(columns="cls"), ddf["cls"])
    >>> bool(np.allclose(m.predict_proba(d.X), NaiveBayes().fit(d.X, d.y.astype(str)).predict_proba(d.X)))
    True
    """
    import dask
    import dask.array as da
    import dask.dataframe as dd
    if capabilities(model).passes:  # the semi-naive family: map-reduce passes (bayesnet.streamed)
        return _fit_in_passes(model, X, y, classes)
    check_chunkable(model, "model", "seminaive.search.search_dask", "compute the data and fit it in memory")
    if getattr(model, "numeric", "gaussian") not in ("gaussian", "kernel"):
        raise ParameterError(f"numeric: fit_dask needs 'gaussian' or 'kernel', got {model.numeric!r} "
                             f"(each partition would place its own cut points)")
    if isinstance(X, dd.DataFrame):
        X = _declare(X)
        known = isinstance(y.dtype, pd.CategoricalDtype) and y.dtype.categories is not None
        if classes is None and not known:  # a categorical y declares its classes, in order, as a file's class does
            classes = sorted(y.dropna().unique().compute().tolist())
        parts = list(zip(X.to_delayed(), y.to_delayed()))
    elif isinstance(X, da.Array):
        X = X.rechunk({1: -1})
        y = y.rechunk((X.chunks[0],))
        if classes is None:
            classes = np.unique(y.compute()).tolist()
        parts = list(zip(X.to_delayed().ravel(), y.to_delayed().ravel()))
    else:
        raise ParameterError(f"X: expected a dask DataFrame or array, got {type(X).__name__}")
    fitted = [dask.delayed(_fit_partition)(clone(model), px, py, classes) for px, py in parts]
    while len(fitted) > 1:  # a tree of merges: log2(partitions) levels
        fitted = [dask.delayed(_merge)(fitted[i], fitted[i + 1]) if i + 1 < len(fitted) else fitted[i]
                  for i in range(0, len(fitted), 2)]
    result = fitted[0].compute()
    if result is None:
        raise ParameterError("X: every partition is empty")
    return result


def _fit_in_passes(model, X, y, classes):
    """A model fitted in passes (the family, a Naive Bayes with a discretizer): each pass of its
    ``_fit_chunks`` maps over the partitions (kept on the workers) and reduces there."""
    import dask
    import dask.dataframe as dd
    if not isinstance(X, dd.DataFrame):
        raise ParameterError(f"X: expected a dask DataFrame, got {type(X).__name__}")
    X = _declare(X)
    known = isinstance(y.dtype, pd.CategoricalDtype) and y.dtype.categories is not None
    if classes is None:
        classes = list(y.dtype.categories) if known else sorted(y.dropna().unique().compute().tolist())
    parts = list(dask.persist(*[dask.delayed(_labelled)(px, py) for px, py in zip(X.to_delayed(), y.to_delayed())]))
    return model._fit_chunks(DaskSource(parts), infer_schema(X._meta, model.nominal), classes)


def _labelled(X, y):
    """A partition's rows that have a class."""
    keep = y.notna().to_numpy()
    return X[keep], y[keep]


def predict_dask(model, X, proba=False):
    """Predictions (or class probabilities) of a fitted model, partition by
    partition, as a lazy dask Series / DataFrame (or array for a dask array)."""
    import dask.array as da
    import dask.dataframe as dd
    if isinstance(X, dd.DataFrame):
        if proba:
            cols = [f"P({c})" for c in model.classes_]
            return X.map_partitions(lambda df: pd.DataFrame(model.predict_proba(df), index=df.index, columns=cols),
                                    meta=pd.DataFrame({c: pd.Series(dtype=float) for c in cols}))
        return X.map_partitions(lambda df: pd.Series(model.predict(df), index=df.index, dtype=object),
                                meta=pd.Series(dtype=object))
    if isinstance(X, da.Array):
        X = X.rechunk({1: -1})
        if proba:
            return X.map_blocks(model.predict_proba, chunks=(X.chunks[0], (len(model.classes_),)), dtype=float)
        return X.map_blocks(model.predict, drop_axis=1, dtype=model.classes_.dtype)
    raise ParameterError(f"X: expected a dask DataFrame or array, got {type(X).__name__}")
