"""Cut points learned from a source of chunks, as from all the rows at once: one
pass gathers every numeric attribute's (value, class, weight) triples, which is
what any discretizer needs (the sorted values with their classes). A chunk's
triples are kept as they are; two chunks' are counted together (each distinct
value and class once, with its count), so that memory follows the distinct
values, not the rows, and a source of one chunk (the data in memory,
:class:`~.sources.OneTable`) hands the discretizer exactly what a fit in memory
hands it."""

import numpy as np
import pandas as pd

from ..discretize import attribute_cuts
from ..discretize.few_values import choose_reading
from ..discretize.base import row_counts
from .sources import encoded, map_reduce

VALUES = "+values"  # the candidate whose columns of few values are read where their leave-one-out says

__all__ = ["VALUES", "candidate_cuts", "cuts_and_ranges", "value_triples", "add_value_triples", "source_cuts",
           "source_triples", "pushed", "counted_triples"]


def value_triples(chunk, schema, classes):
    """Per numeric attribute, a chunk's ``(values, class codes, weights)`` of its rows that have a
    class (values NaN where missing; weights None: each row once)."""
    e = encoded(chunk, schema, classes)
    keep = e.y >= 0
    every = bool(keep.all())
    y = e.y if every else e.y[keep]
    w = e.weight if e.weight is None or every else e.weight[keep]
    return {j: (e.table.numeric[:, col] if every else e.table.numeric[keep, col], y, w)
            for col, j in enumerate(schema.numeric_indices)}


def pushed(source, name, *args):
    """What ``source`` counts itself by its method ``name`` (a DuckDB relation's GROUP BY), or None where
    it does not (no such method, or it declines)."""
    count = getattr(source, name, None)
    return None if count is None else count(*args)


def source_triples(source, schema, classes):
    """Every numeric attribute's triples from all of ``source``: counted by the source itself where it
    can (:func:`pushed`), else in a pass over its rows (:func:`value_triples`, added up)."""
    triples = pushed(source, "grouped_triples", schema, classes)
    return map_reduce(source, value_triples, add_value_triples, schema, classes) if triples is None else triples


def counted_triples(found):
    """Triples whose values were counted already (each value and class once with its rows' count, by a
    GROUP BY) in the form the pass over the rows adds them up to (:func:`add_value_triples`)."""
    none = (np.empty(0), np.empty(0, dtype=np.int64), None)
    return add_value_triples(found, {j: none for j in found})


def _repeats(x, w):
    """How many times each row counts: integer weights repeat it, fractional ones count its presence
    (as :func:`~seminaive.discretize.learn_cuts` reads weights)."""
    return np.ones(x.shape[0]) if w is None else row_counts(w).astype(np.float64)


def add_value_triples(a, b):
    """Two parts' triples counted together: each present (value, class) once, its weight the rows' count."""
    out = {}
    for j in a:
        (xa, ya, wa), (xb, yb, wb) = a[j], b[j]
        x, y = np.concatenate([xa, xb]), np.concatenate([ya, yb])
        w = np.concatenate([_repeats(xa, wa), _repeats(xb, wb)])
        ok = ~np.isnan(x) & (w > 0)
        s = pd.Series(w[ok], index=pd.MultiIndex.from_arrays([x[ok], y[ok]])).groupby(level=[0, 1]).sum()
        out[j] = (s.index.get_level_values(0).to_numpy(dtype=np.float64),
                  s.index.get_level_values(1).to_numpy(dtype=np.int64), s.to_numpy(dtype=np.float64))
    return out


def source_cuts(source, schema, classes, numeric, n_bins=10, min_bucket=6, random_state=0, codes="numbers",
                triples=None):
    """``{attribute index: cut points}`` of every numeric attribute, learned by the discretizer
    ``numeric`` from all the rows of ``source`` (one pass; a discretizer that draws its cuts
    takes the column's seed under ``random_state``, as in memory).

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.data import infer_schema
    >>> from seminaive.discretize import learn_cuts
    >>> d = load("iris")
    >>> chunks = [(d.X[:70], d.y[:70]), (d.X[70:], d.y[70:])]
    >>> cuts = source_cuts(chunks, infer_schema(d.X), d.y.cat.categories.to_numpy(), "equal_width", n_bins=4)
    >>> cuts[0].tolist() == learn_cuts("equal_width", d.X.iloc[:, 0].to_numpy(), None, n_bins=4).tolist()
    True
    """
    return cuts_and_ranges(source, schema, classes, (numeric,), n_bins, min_bucket, random_state, codes,
                           triples)[0][numeric]


def candidate_cuts(source, schema, classes, names, n_bins=10, min_bucket=6, random_state=0, codes="numbers"):
    """``{discretizer: {attribute index: cut points}}`` for every discretizer of ``names``, all from
    one pass over ``source`` (:func:`source_cuts` for each)."""
    return cuts_and_ranges(source, schema, classes, names, n_bins, min_bucket, random_state, codes)[0]


def cuts_and_ranges(source, schema, classes, names, n_bins=10, min_bucket=6, random_state=0, codes="numbers",
                    triples=None):
    """:func:`candidate_cuts`, ``{attribute index: (smallest, largest present value, distinct
    values)}`` of every numeric attribute ((nan, nan, 0) where it has none), and
    ``{discretizer: {attribute index: the cuts' levels}}`` (None: no ladder), from the same pass.
    ``codes``: how a column of few distinct values is read (:func:`~seminaive.discretize.attribute_cuts`);
    "choose": each discretizer's intervals, and where some column's own leave-one-out prefers one
    interval per value, a second candidate ``name + "+values"`` with those columns so read.
    ``triples``: the pass's result (:func:`value_triples` of every chunk, added), counted already.

    Examples
    --------
    >>> from seminaive.datasets import load
    >>> from seminaive.data import infer_schema
    >>> d = load("iris")
    >>> cuts, ranges, _ = cuts_and_ranges([(d.X, d.y)], infer_schema(d.X), d.y.cat.categories.to_numpy(), ("mdl",))
    >>> ranges[0]
    (4.3, 7.9, 35)
    """
    if not schema.numeric_indices:
        return {name: {} for name in names}, {}, {name: {} for name in names}
    if triples is None:
        triples = source_triples(source, schema, classes)
    out, ladders = {}, {}
    for name in names:
        read = "numbers" if codes == "choose" else codes
        both = {j: attribute_cuts(name, {j: x}, y, w, n_bins, min_bucket, random_state, ladder=True, codes=read)[j]
                for j, (x, y, w) in triples.items()}
        out[name], ladders[name] = {j: c for j, (c, _) in both.items()}, {j: v for j, (c, v) in both.items()}
        if codes == "choose":  # a second candidate: the attributes whose own leave-one-out prefers their values
            coded = {j: choose_reading(x, y, w, *both[j]) for j, (x, y, w) in triples.items()}
            if any(r == "values" for _, _, r in coded.values()):
                out[name + VALUES], ladders[name + VALUES] = ({j: c for j, (c, _, _) in coded.items()},
                                                              {j: v for j, (_, v, _) in coded.items()})
    ranges = {}
    for j, (x, _, w) in triples.items():
        x = x[~np.isnan(x) & (True if w is None else w > 0)]  # a row of weight 0 is not in the data
        ranges[j] = (float(x.min()), float(x.max()), int(np.unique(x).size)) if x.size else (np.nan, np.nan, 0)
    return out, ranges, ladders
