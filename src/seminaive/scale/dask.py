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

Each pass reads the partitions afresh (as a file fit reads its file at every
pass) and holds at most a window of partitions' statistics at once
(:func:`~seminaive.learning.dask_reduce.reduce_in_order`): the workers' memory
is that of a few partitions and the model, not of the rows. Persist ``X`` and
``y`` beforehand (``dask.persist``) to keep them in the cluster's memory
between the passes of a model that learns in many.
"""

import numpy as np
import pandas as pd

from ..core.capabilities import capabilities, check_chunkable
from ..learning.dask_source import DaskFrameSource
from ..exceptions import ParameterError
from .fit_source import fit_source

__all__ = ["fit_dask", "predict_dask"]


def fit_dask(model, X, y, classes=None):
    """Fit an unfitted model with ``partial_fit`` and ``merge`` (NaiveBayes and
    the count models), or in passes where it learns in passes (the family, a
    Naive Bayes with a discretizer: :mod:`seminaive.core.capabilities`), on a
    dask DataFrame (with a dask Series ``y``, aligned with ``X`` by index as pandas
    aligns a Series with a frame: a column of ``X``'s own frame always is; a
    categorical one declares the classes in its order) or a dask array (with a
    dask array ``y``); the result equals one fit on all the data.

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
    import dask.array as da
    caps = capabilities(model)
    if not (caps.passes or caps.search):
        check_chunkable(model, "model", "compute the data and fit it in memory")
        if getattr(model, "numeric", "gaussian") not in ("gaussian", "kernel"):
            raise ParameterError(f"numeric: fit_dask needs 'gaussian' or 'kernel', got {model.numeric!r} "
                                 f"(each partition would place its own cut points)")
    named = not isinstance(X, da.Array)
    if not named:  # an array's blocks as a frame's partitions (x0, x1, ...: the names an array's columns take)
        import dask.dataframe as dd
        X = X.rechunk({1: -1})
        rows = X.chunks[0]
        X = dd.from_dask_array(X, columns=[f"x{j}" for j in range(X.shape[1])])
        y = dd.from_dask_array(y.rechunk((rows,)), index=X.index)
    result = fit_source(model, DaskFrameSource(X, y, classes),
                        how=("model", "compute the data and fit it in memory"))
    if not named and result is not None and hasattr(result, "feature_names_in_"):
        del result.feature_names_in_  # fitted on an array, as in memory: no column names to check
    if result is None:
        raise ParameterError("X: every partition is empty")
    return result


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
