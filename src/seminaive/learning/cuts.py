"""Cut points learned from a source of chunks, as from all the rows at once:
one pass counts every numeric attribute's (value, class) pairs, which is what
any discretizer needs (the sorted values with their classes)."""

import numpy as np
import pandas as pd

from .._target import class_codes
from ..data.encoding import encode
from ..discretize import attribute_cuts, learn_cuts
from .sources import map_reduce

__all__ = ["value_counts", "add_value_counts", "source_cuts", "encoded_chunk"]


def encoded_chunk(chunk, schema, classes):
    """A chunk ``(X, y)`` encoded: (table, class codes, rows with a class)."""
    X, y = chunk
    table = encode(X, schema)
    yc = class_codes(y, classes).astype(np.int64)
    return table, yc, yc >= 0


def value_counts(chunk, schema, classes):
    """Per numeric attribute, the counts of (value, class) pairs in a chunk."""
    table, yc, keep = encoded_chunk(chunk, schema, classes)
    out = {}
    for col, j in enumerate(schema.numeric_indices):
        x = table.numeric[keep, col]
        ok = ~np.isnan(x)
        out[j] = pd.Series(1.0, index=pd.MultiIndex.from_arrays([x[ok], yc[keep][ok]])).groupby(level=[0, 1]).sum()
    return out


def add_value_counts(a, b):
    return {j: a[j].add(b[j], fill_value=0.0) for j in a}


def source_cuts(source, schema, classes, numeric, n_bins=10, min_bucket=6, random_state=0):
    """``{attribute index: cut points}`` of every numeric attribute, learned by the discretizer
    ``numeric`` from all the rows of ``source`` (one pass; a discretizer that draws its cuts
    takes the column's seed under ``random_state``, as in memory).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.data import infer_schema
    >>> d = load("iris")
    >>> chunks = [(d.X[:70], d.y[:70]), (d.X[70:], d.y[70:])]
    >>> cuts = source_cuts(chunks, infer_schema(d.X), d.y.cat.categories.to_numpy(), "equal_width", n_bins=4)
    >>> cuts[0].tolist() == learn_cuts("equal_width", d.X.iloc[:, 0].to_numpy(), None, n_bins=4).tolist()
    True
    """
    if not schema.numeric_indices:
        return {}
    counts = map_reduce(source, value_counts, add_value_counts, schema, classes)
    out = {}
    for j in schema.numeric_indices:  # each attribute's (value, class) pairs, missing values left out
        s = counts[j].sort_index()
        reps = s.to_numpy().astype(np.int64)
        x = np.repeat(s.index.get_level_values(0).to_numpy(dtype=np.float64), reps)
        y = np.repeat(s.index.get_level_values(1).to_numpy(dtype=np.int64), reps)
        out.update(attribute_cuts(numeric, {j: x}, y, None, n_bins, min_bucket, random_state))
    return out
