"""Where an engine's chunks come from, and how a pass over them is reduced.

A source is an iterable of chunks ``(first row, codes, values, class codes[,
folds])``: the one chunk of data in memory, a file's chunks, or (with a
``map_reduce`` method of its own) partitions on a Dask cluster. A pass maps a
function over the chunks and combines the results in chunk order.
"""

import numpy as np

from ..components.gaussian import Gaussian

__all__ = ["map_reduce", "add_counts"]


def map_reduce(source, fn, combine, *args):
    """``fn(chunk, *args)`` for every chunk of ``source``, combined: by the source
    itself where it distributes the work (its ``map_reduce``), else in chunk order."""
    if hasattr(source, "map_reduce"):
        return source.map_reduce(fn, combine, *args)
    out = None
    for chunk in source:
        part = fn(chunk, *args)
        out = part if out is None else combine(out, part)
    return out


def add_counts(a, b):
    """Counts of the same shape added: arrays, dicts of arrays, lists or tuples of either."""
    if isinstance(a, (list, tuple)):
        return type(a)(add_counts(x, z) for x, z in zip(a, b))
    if isinstance(a, dict):
        return {key: add_counts(a[key], b[key]) for key in a}
    return a + b


def _union_values(a, b):
    """Two chunks' parent values met, per term, together."""
    return {g: np.union1d(a[g], b[g]) for g in a}


def _merge_counts(a, b):
    """Two chunks' class counts and group statistics together (counts add, moments merge)."""
    acc = dict(a[1])
    for key, v in b[1].items():
        if key not in acc:
            acc[key] = v
        else:
            acc[key] = Gaussian.merge(acc[key], v) if isinstance(v, dict) else acc[key] + v
    return a[0] + b[0], acc


def _add_pairs(a, b):
    return a[0] + b[0], a[1] + b[1]
