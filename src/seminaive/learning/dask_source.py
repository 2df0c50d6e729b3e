"""A Dask DataFrame as a data source: its nominal columns declared alike in every
partition, its rows with a class as labelled partitions, and every pass a map over
them reduced with bounded memory (:func:`~seminaive.learning.dask_reduce.reduce_in_order`).

The partitions are read afresh at every pass, as a file is, unless the source keeps
them (``keep``: persisted on the workers, memory growing with the rows): a fit
learns in a few passes and keeps none (persist ``X`` and ``y`` beforehand to keep
them); a wrapper search runs a pass per step and keeps them.
"""

import numpy as np
import pandas as pd
from sklearn.base import clone

from ..data.dataset import class_values, declared_labels
from ..data.kinds import column_kind, found_by_dtype, found_in
from ..data.schema import NUMERIC, resolve_columns
from ..exceptions import ParameterError
from .dask_reduce import reduce_in_order
from .data_source import DataSource, _concatenate, _fit_copy, _merge_fits

__all__ = ["DaskFrameSource", "declare_dask"]


def _distinct(col):
    """A Dask column's distinct present values (in no order): each partition's, then all of them, in one
    pass of the partitions (no shuffle: Dask's ``unique`` sets one up, with a warning a partition)."""
    parts = col.map_partitions(lambda s: pd.Series(pd.unique(s.dropna()), dtype=object), meta=(col.name, object))
    return pd.unique(parts.compute().to_numpy(dtype=object)).tolist()


def _known_categories(col):
    """Whether dask knows a categorical column's categories (a Parquet dictionary column's it does not)."""
    from dask.dataframe.utils import has_known_categories
    return has_known_categories(col)


def _partition_categories(col):
    """The categories of a categorical column whose categories dask does not know: each partition's, in
    partition order, united as pandas unites them (computed from the partitions themselves, not through
    the ``cat`` accessor, which some dask versions do not offer on every expression)."""
    import dask
    parts = dask.compute(*[dask.delayed(lambda p: list(p.cat.categories))(p) for p in col.to_delayed()])
    return pd.api.types.union_categoricals([pd.Categorical([], categories=c) for c in parts]).categories


def declare_dask(X, nominal=None):
    """A dask DataFrame whose nominal columns are categoricals with the same categories in
    every partition: a categorical's own (those of its partitions in order, as pandas unites
    them, where dask does not know them: a dictionary column of a Parquet file), else the
    sorted values, as an in-memory fit has them. Which columns are nominal is the in-memory
    rule (:func:`~seminaive.data.kinds.column_kind`): by the dtype where it decides, else on the distinct values."""
    meta = X._meta
    declared = {}
    forced = {X.columns[j] for j in resolve_columns(nominal, [str(c) for c in X.columns])}
    for col in X.columns:
        dt = meta[col].dtype
        if col in forced and not isinstance(dt, pd.CategoricalDtype):  # made nominal: its sorted values
            declared[col] = pd.CategoricalDtype(class_values(pd.Series(_distinct(X[col]), dtype=object)))
            continue
        if isinstance(dt, pd.CategoricalDtype):
            if not _known_categories(X[col]):  # unknown categories (a Parquet column's dictionary): learn them
                declared[col] = pd.CategoricalDtype(_partition_categories(X[col]))
            continue
        found = found_by_dtype(dt)  # the one rule: by the dtype where it decides, else on the distinct values
        if found is not None and column_kind(found) == NUMERIC:
            continue
        values = _distinct(X[col])
        if column_kind(found_in(pd.Series(values, dtype=object))) == NUMERIC:
            declared[col] = np.float64  # numbers held as objects: numeric, as in memory
            continue
        try:
            values = sorted(values)
        except TypeError:
            pass
        declared[col] = pd.CategoricalDtype(values)
    return X.astype(declared) if declared else X


_CLASS = "__seminaive_class__"


def _labelled(X, cats):
    """A partition's rows that have a class (the column ``_CLASS``), the class declared with every class."""
    y = X[_CLASS]
    X = X.drop(columns=_CLASS)
    keep = y.notna().to_numpy()
    y = pd.Series(pd.Categorical(np.asarray(y[keep], dtype=object), dtype=cats))
    return X[keep].reset_index(drop=True), declared_labels(y)


class DaskFrameSource(DataSource):
    """A Dask DataFrame ``X`` with a Dask Series ``y``: its labelled partitions, declared
    (:func:`declare_dask`), read afresh at every pass or kept on the workers (``keep``); a pass maps
    over them and reduces on the cluster. The classes: ``classes``, else (as in memory) the sorted
    categories of a categorical ``y`` or its sorted labels."""

    def __init__(self, X, y, classes=None, nominal=None, keep=False):
        import dask
        import dask.dataframe as dd
        if not isinstance(X, dd.DataFrame):
            raise ParameterError(f"X: expected a dask DataFrame, got {type(X).__name__}")
        self._given, self.nominal, self.keep = (X, y, classes), nominal, keep
        self.names = [str(c) for c in X.columns]
        X = declare_dask(X, nominal)
        known = isinstance(y.dtype, pd.CategoricalDtype) and _known_categories(y)
        if classes is None:  # sorted, as in memory (a categorical's categories, those without instances too)
            classes = class_values(pd.Series(pd.Categorical([], categories=y.dtype.categories)) if known
                                   else pd.Series(_distinct(y), dtype=object))
        self.classes, self.first = list(classes), X._meta
        cats = pd.CategoricalDtype(self.classes)
        # X and y as one frame: their partitions then hold the same rows (taken apart, a column of a
        # Parquet read may be partitioned otherwise than the rest)
        both = X.assign(**{_CLASS: y})
        self.parts = [dask.delayed(_labelled)(p, cats) for p in both.to_delayed()]
        if keep:
            self.parts = list(dask.persist(*self.parts))
        lengths = reduce_in_order(_length, _concatenate, [(p,) for p in self.parts]) if self.parts else ()
        self.starts = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        self.n_rows = int(self.starts[-1])

    distributed = True  # a pass is the cluster's tasks

    def attribute_names(self):
        return self.names

    def _reread(self, nominal):
        return DaskFrameSource(*self._given, nominal=nominal, keep=self.keep)

    def map_reduce_rows(self, fn, combine, rows=None, *args):
        self.passes += 1
        leaves = [(int(s), p, None if rows is None else rows[s:e])
                  for p, s, e in zip(self.parts, self.starts[:-1], self.starts[1:])]
        return reduce_in_order(fn, combine, leaves, args, np.diff(self.starts),
                               f"pass {self.passes} over the data, rows")

    def partial_fits(self, model):
        """A fit of ``model`` on every partition (``partial_fit`` of a copy), merged on the cluster."""
        return self.map_reduce(_fit_copy, _merge_fits, clone(model))

    def __iter__(self):  # a pass runs on the cluster (map_reduce); the chunks stay there
        raise ParameterError("a distributed source's chunks stay on the cluster")


def _length(chunk):
    return np.array([len(chunk[1])], dtype=np.int64)
